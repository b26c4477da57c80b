"""Fair hints through the service, as a frontend's Hint button meets them.

Usage::

    python benchmarks/bench_fair_service.py [--codes SP1-S4C-AAAAAAD ...] [--hints 10]
                                            [--layouts 16 64] [--out results.json]

Starts ``spider-solve serve`` (one solver process, the default caps) on 127.0.0.1, then, for
each deal of ``--codes`` (4 suits) and each count of ``--layouts``, follows ``--hints`` fair
hints from the deal's first position: ``POST /v1/analyze`` with ``"fair": true`` and the
layouts, the hint appended to the log, on one keep-alive connection, one request at a time.
Each request's time is measured at the client, beside the answer's ``seconds`` (the fair
hint's own time in the solver process): their difference is what the service adds (the
queue, the hand-over to the solver process and back, the replay of the log, JSON).

The figures: for each layout count, the median, 90th percentile and largest time of a hint
at the client, and the median time the service adds. The default layouts (16) are what the
web client's Hint button asks for; 64 is the default ``--max-layouts-cap``, the longest a
request can hold a solver process. Every loop is bounded by its request count; the server
talks only to 127.0.0.1. The table is printed and written to ``--out`` (default
``benchmarks/results/fair-service-s4.json``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import resultfile
from bench_service import Server

#: 4-suit deals (those of benchmarks/bench_hints.py).
CODES = ("SP1-S4C-AAAAAAD", "SP1-S4C-AAAAAAJ", "SP1-S4C-AAAAAAK")
COLUMNS = {
    "hints": [("layouts", "layouts", "int"), ("code", "deal", ""), ("hint", "hint", "int"),
              ("action", "action", ""), ("chance", "chance", ".2f"), ("ms", "ms", ".0f"),
              ("hint_ms", "hint's own ms", ".0f")],
    "summary": [("layouts", "layouts", "int"), ("hints", "hints", "int"), ("median_ms", "median ms", ".0f"),
                ("p90_ms", "90th percentile ms", ".0f"), ("max_ms", "max ms", ".0f"),
                ("added_ms", "added by the service, median ms", ".1f")],
}


def follow(port: int, code: str, layouts: int, hints: int) -> list[dict]:
    """Follow ``hints`` fair hints of ``layouts`` layouts from the first position; each request's figures."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    log: list[str] = []
    rows = []
    for number in range(1, hints + 1):
        body = json.dumps({"code": code, "actions": log, "fair": True, "layouts": layouts})
        started = time.perf_counter()
        connection.request("POST", "/v1/analyze", body=body, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        took = (time.perf_counter() - started) * 1000
        if response.status != 200:
            raise SystemExit(f"{code} after {log}: {response.status} {answer}")
        rows.append({"layouts": layouts, "code": code, "hint": number, "action": answer["hint"],
                     "chance": answer["chance"], "ms": round(took, 1), "hint_ms": round(answer["seconds"] * 1000, 1)})
        if answer["hint"] is None:
            break
        log.append(answer["hint"])
    connection.close()
    return rows


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (the nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--codes", nargs="+", default=list(CODES))
    parser.add_argument("--hints", type=int, default=10)
    parser.add_argument("--layouts", type=int, nargs="+", default=[16, 64])
    resultfile.add_out_option(parser, "fair-service-s4")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-fair-service-") as folder:
        server = Server(Path(folder) / "catalog.sqlite", solvers=1, workers=1)
        try:
            rows = [row for layouts in args.layouts for code in args.codes
                    for row in follow(server.port, code, layouts, args.hints)]
        finally:
            status = server.stop()
    summary = []
    for layouts in args.layouts:
        mine = [row for row in rows if row["layouts"] == layouts]
        times = [row["ms"] for row in mine]
        summary.append({"layouts": layouts, "hints": len(mine), "median_ms": statistics.median(times),
                        "p90_ms": percentile(times, 0.9), "max_ms": max(times),
                        "added_ms": statistics.median(row["ms"] - row["hint_ms"] for row in mine)})
    tables = {"summary": resultfile.table(COLUMNS["summary"], summary),
              "hints": resultfile.table(COLUMNS["hints"], rows)}
    print(f"load average before: {load_before:.2f}, after: {os.getloadavg()[0]:.2f}; server exit status {status}")
    for tab in tables.values():
        print("\n" + resultfile.markdown(tab))
    resultfile.write(args, "bench_fair_service", tables, hints=args.hints, load_average_before=load_before,
                     load_average_after=os.getloadavg()[0])


if __name__ == "__main__":
    main()
