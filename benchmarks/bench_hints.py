"""Hints that continue, as a frontend meets them: a scripted client follows ten hints in a row.

Usage::

    python benchmarks/bench_hints.py [--codes SP1-S4C-AAAAAAD ...] [--start "D D"] [--hints 10]
                                     [--root PATH] [--label after] [--out results.json]

Starts ``spider-solve serve`` (one solver process, the default caps: 60,000,000 nodes and
30 s) on 127.0.0.1 with an empty catalog, so that no deal is in it; then, for each deal of
``--codes`` (4 suits), plays the hints as a player who follows them does: ``POST /v1/analyze``
with ``lost_at: false`` from the position the ``--start`` log reaches (default ``D D``, as
issue 53 tried it), the hint appended to the log, ``--hints`` times, on one keep-alive
connection. Each request's time is measured at the client, with
the answer's ``source`` (``search``: a search ran; ``known-line``: answered along a line
the server knew). The figure of issue 53: the median time of a hint after the first (the
first must search; the next ones, along the line it found, need not).

``--root`` runs the server from another checkout (``--root /path/to/main`` measures the code
before the remembered lines, whose every hint searches): the client is this script either way.
Every loop is bounded by its request count; the server talks only to 127.0.0.1. The table is
printed and written to ``--out`` (default ``benchmarks/results/hints-continue-s4-{label}.json``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import resultfile
from bench_service import Server

ROOT = Path(__file__).resolve().parents[1]
#: 4-suit deals whose first hint a search finds well within the default caps.
CODES = ("SP1-S4C-AAAAAAD", "SP1-S4C-AAAAAAJ", "SP1-S4C-AAAAAAK")
COLUMNS = {
    "hints": [("code", "deal", ""), ("hint", "hint", "int"), ("ms", "ms", ".1f"), ("source", "source", ""),
              ("nodes", "nodes", "int")],
    "summary": [("label", "server", ""), ("deals", "deals", "int"), ("first_ms", "first hint, median ms", ".0f"),
                ("after_ms", "hints after the first, median ms", ".1f"),
                ("after_max_ms", "hints after the first, max ms", ".1f"),
                ("searches", "searches after the first", "int")],
}


def follow(port: int, code: str, start: list[str], hints: int) -> list[dict]:
    """Follow ``hints`` hints from the position ``start`` reaches; each request's figures."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    log = list(start)
    rows = []
    for number in range(1, hints + 1):
        body = json.dumps({"code": code, "actions": log, "lost_at": False})
        started = time.perf_counter()
        connection.request("POST", "/v1/analyze", body=body, headers={"Content-Type": "application/json"})
        answer = json.loads(connection.getresponse().read())
        took = (time.perf_counter() - started) * 1000
        rows.append({"code": code, "hint": number, "ms": round(took, 2), "source": answer.get("source"),
                     "nodes": answer.get("nodes"), "status": answer.get("status")})
        if answer.get("hint") is None:
            break
        log.append(answer["hint"])
    connection.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--codes", nargs="+", default=list(CODES))
    parser.add_argument("--start", default="D D", help="the log the hints start after (default: %(default)s)")
    parser.add_argument("--hints", type=int, default=10)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout the server runs (default: this one)")
    parser.add_argument("--label", default="after", help="the name of this run in the table (before, after)")
    parser.add_argument("--note", help="a note for the result file (what the server's checkout is)")
    resultfile.add_out_option(parser, "hints-continue-s4-{label}")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-hints-") as folder:
        server = Server(Path(folder) / "catalog.sqlite", solvers=1, workers=1, root=args.root.resolve())
        try:
            rows = [row for code in args.codes for row in follow(server.port, code, args.start.split(), args.hints)]
        finally:
            status = server.stop()
    later = [row for row in rows if row["hint"] > 1]
    summary = [{"label": args.label, "deals": len(args.codes),
                "first_ms": statistics.median(row["ms"] for row in rows if row["hint"] == 1),
                "after_ms": statistics.median(row["ms"] for row in later) if later else None,
                "after_max_ms": max((row["ms"] for row in later), default=None),
                "searches": sum(row["source"] == "search" for row in later)}]
    tables = {"summary": resultfile.table(COLUMNS["summary"], summary),
              "hints": resultfile.table(COLUMNS["hints"], rows)}
    print(f"server from {args.root}; load average before: {load_before:.2f}, after: {os.getloadavg()[0]:.2f}; "
          f"server exit status {status}")
    for tab in tables.values():
        print("\n" + resultfile.markdown(tab))
    server_commit = subprocess.run(["git", "-C", str(args.root), "rev-parse", "HEAD"], capture_output=True,
                                   text=True, check=False).stdout.strip() or None
    extra = {"note": args.note} if args.note else {}
    resultfile.write(args, "bench_hints", tables, **extra, root=str(args.root), server_commit=server_commit,
                     start=args.start,
                     hints=args.hints,
                     load_average_before=load_before, load_average_after=os.getloadavg()[0])


if __name__ == "__main__":
    main()
