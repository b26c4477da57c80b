"""Do results depend on the machine's speed? The same deals on a quiet core and on a busy one.

Usage::

    python benchmarks/machine_speed.py [CODE ...] [--catalog PATH --slowest 5] [--core 0] [--busy 4]
                                       [--out results.json]

Each deal is verified twice at the default budget (``spider-solve verify CODE --json``,
a fresh process pinned with ``taskset -c CORE``): once with the core to itself, once
sharing it with ``--busy`` loops (``python -c 'while 1: pass'`` on the same core, started
before and killed after), so about ``busy + 1`` times slower. The default budget has no
time limit (``limits.DEFAULT_MAX_SECONDS``), so the two runs must agree on the outcome, the
nodes and the line; the table says whether they do, and the seconds of each. With
``--catalog`` (a catalog of a batch, e.g. ``spider-solve --suits 4 --count 1000``), the
``--slowest`` deals of that catalog by nodes are added to the codes. Linux only (taskset).
Writes ``benchmarks/results/machine-speed-s4.json`` unless ``--out -``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import time

import resultfile

COLUMNS = [
    ("code", "deal", ""),
    ("status", "outcome", ""),
    ("nodes", "nodes", "int"),
    ("moves", "moves", "int"),
    ("quiet_seconds", "s quiet", ".1f"),
    ("busy_seconds", "s busy", ".1f"),
    ("slowdown", "slower", ".1f"),
    ("same", "same outcome, nodes and line", ""),
]


def slowest(catalog: str, count: int) -> list[str]:
    """The ``count`` deals of ``catalog`` that took the most nodes."""
    with sqlite3.connect(f"file:{catalog}?mode=ro", uri=True) as db:
        return [code for (code,) in db.execute("SELECT code FROM results ORDER BY nodes DESC LIMIT ?", (count,))]


def verify(code: str, core: int) -> tuple[dict, float]:
    """``verify CODE --json`` at the default budget on ``core``: its record and the wall seconds."""
    started = time.perf_counter()
    done = subprocess.run(["taskset", "-c", str(core), sys.executable, "-m", "spider_solver", "verify", code,
                           "--json", "--no-progress"], capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode not in (0, 1, 3):
        raise SystemExit(f"verify {code} failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout), wall


def busy_loops(core: int, count: int) -> list[subprocess.Popen]:
    return [subprocess.Popen(["taskset", "-c", str(core), sys.executable, "-c", "while 1: pass"])
            for _ in range(count)]


def figures(record: dict) -> tuple:
    """What must not depend on the machine: outcome, reason, nodes and the line."""
    line = hashlib.sha256(" ".join(record["solution"] or ()).encode()).hexdigest()[:12]
    return record["status"], record["reason"], record["nodes"], record["moves"], line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("codes", nargs="*")
    parser.add_argument("--catalog", help="Add the slowest deals of this catalog.")
    parser.add_argument("--slowest", type=int, default=5)
    parser.add_argument("--core", type=int, default=0)
    parser.add_argument("--busy", type=int, default=4, help="Busy loops sharing the core (default: %(default)s).")
    resultfile.add_out_option(parser, "machine-speed-s4")
    args = parser.parse_args()
    codes = list(dict.fromkeys(args.codes + (slowest(args.catalog, args.slowest) if args.catalog else [])))
    if not codes:
        parser.error("give deal codes or --catalog")
    verify("SP1-S1C-AAAAAAA", args.core)  # the kernels loaded once (or compiled) before anything is timed
    rows = []
    for code in codes:
        quiet, quiet_wall = verify(code, args.core)
        loops = busy_loops(args.core, args.busy)
        try:
            busy, busy_wall = verify(code, args.core)
        finally:
            for loop in loops:
                loop.kill()
            for loop in loops:
                loop.wait()
        rows.append({"code": code, "status": quiet["status"], "nodes": quiet["nodes"], "moves": quiet["moves"],
                     "quiet_seconds": quiet["seconds"], "busy_seconds": busy["seconds"],
                     "slowdown": round(busy["seconds"] / max(quiet["seconds"], 1e-3), 2),
                     "same": "yes" if figures(quiet) == figures(busy) else f"NO: {figures(quiet)} {figures(busy)}",
                     "quiet_wall": round(quiet_wall, 1), "busy_wall": round(busy_wall, 1)})
        print(resultfile.line(COLUMNS, rows[-1]), flush=True)
    tab = resultfile.table(COLUMNS, rows)
    print(resultfile.markdown(tab))
    resultfile.write(args, "machine_speed", {"machine_speed": tab}, budget="the defaults of verify",
                     busy_loops=args.busy, core=args.core, load_before=os.getloadavg()[0],
                     note="Each deal verified twice on one core, alone and beside busy loops; the outcome, "
                          "reason, nodes and line (its SHA-256) compared.")
    if any(row["same"] != "yes" for row in rows):
        raise SystemExit("the outcome depended on the machine's speed")


if __name__ == "__main__":
    main()
