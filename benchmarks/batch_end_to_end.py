"""End-to-end figure of a batch: the real ``spider-solve`` command into a fresh catalog.

Usage::

    python benchmarks/batch_end_to_end.py                       # --suits 4 --count 100, all cores
    python benchmarks/batch_end_to_end.py --suits 4 --count 1000 --workers 8
    python benchmarks/batch_end_to_end.py --count 50 --max-nodes 2000000 --keep bench.sqlite

Runs ``spider-solve --suits K --count N`` in a subprocess (worker start-up, loading the
compiled engine, solving, replay of every line, catalog writes: everything an operator
waits for), then reads the catalog it wrote and prints a Markdown table: deals, verified,
unwinnable, unknown, median / p90 / max seconds per deal, median solution length, wall
time, the user CPU seconds of the command and its workers, the peak resident memory of
the largest of them, deals per second and the load average when the run started. Then it
times ``spider-solve grade --regrade`` on the same catalog, for the CPU seconds grading a
deal takes apart from its search (the estimates the batch and ``grade`` print before they
start, ``limits.BATCH_CPU_SECONDS`` and ``GRADE_CPU_SECONDS``, are these figures over the deals). The table goes to the
result file ``--out`` too (default ``benchmarks/results/batch-s{suits}.json``), with the
machine, the date and the commit.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import resultfile

#: The summary of a run: (key, label, format) as resultfile.markdown shows it.
COLUMNS = [
    ("command", "command", ""),
    ("deals", "deals", ""),
    ("verified", "verified", "int"),
    ("unknown", "unknown", "int"),
    ("s_median", "s a deal median", ".3f"),
    ("s_p90", "p90", ".3f"),
    ("s_max", "max", ".1f"),
    ("length_median", "length median", ""),
    ("wall_seconds", "wall", "s"),
    ("cpu_seconds", "CPU (user)", ".0f"),
    ("cpu_per_deal", "CPU a deal", ".3f"),
    ("grade_cpu_per_deal", "grading's CPU a deal", ".3f"),
    ("peak_mb", "peak MB", ".0f"),
]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def command() -> list[str]:
    script = Path(sys.executable).with_name("spider-solve")
    return [str(script)] if script.exists() else [sys.executable, "-c", "from spider_solver.cli import main; main()"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--rule", default="classic")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--max-nodes", type=int, default=None)
    parser.add_argument("--max-seconds", type=float, default=None)
    parser.add_argument("--keep", metavar="PATH", help="Copy the catalog here afterwards.")
    resultfile.add_out_option(parser, "batch-s{suits}")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="spider-bench-") as directory:
        catalog = Path(directory) / "catalog.sqlite"
        argv = [*command(), "--suits", str(args.suits), "--rule", args.rule, "--count", str(args.count),
                "--workers", str(args.workers), "--catalog", str(catalog)]
        if args.max_nodes is not None:
            argv += ["--max-nodes", str(args.max_nodes)]
        if args.max_seconds is not None:
            argv += ["--max-seconds", str(args.max_seconds)]
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.monotonic()
        status = subprocess.run(argv).returncode  # the command's own bar and summary go to stderr
        wall = time.monotonic() - began
        after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the command and its workers, waited for
        if status != 0:
            print(f"spider-solve exited with status {status}", file=sys.stderr)
            return status
        regrade = resource.getrusage(resource.RUSAGE_CHILDREN)
        status = subprocess.run([*command(), "grade", "--regrade", "--catalog", str(catalog), "--workers",
                                 str(args.workers)]).returncode
        regraded = resource.getrusage(resource.RUSAGE_CHILDREN)
        if status != 0:
            print(f"spider-solve grade exited with status {status}", file=sys.stderr)
            return status
        db = sqlite3.connect(catalog)
        rows = db.execute(
            "SELECT status, seconds, moves, max_nodes, max_seconds, solver_version FROM results"
        ).fetchall()
        db.close()
        if args.keep:
            shutil.copy(catalog, args.keep)

    statuses = [row[0] for row in rows]
    seconds = [row[1] for row in rows]
    lengths = [row[2] for row in rows if row[0] == "verified"]
    summary = {
        "command": f"spider-solve --suits {args.suits} --rule {args.rule} --count {args.count}",
        "deals": f"0-{len(rows) - 1}",
        "verified": statuses.count("verified"), "unwinnable": statuses.count("unwinnable"),
        "unknown": statuses.count("unknown"),
        "s_median": round(percentile(seconds, 0.5), 4), "s_p90": round(percentile(seconds, 0.9), 4),
        "s_max": round(max(seconds), 2),
        "length_median": statistics.median(lengths) if lengths else None,
        "wall_seconds": round(wall, 1), "cpu_seconds": round(after.ru_utime - before.ru_utime, 1),
        "cpu_per_deal": round((after.ru_utime - before.ru_utime) / max(1, len(rows)), 3),
        "grade_cpu_per_deal": round((regraded.ru_utime - regrade.ru_utime) / max(1, statuses.count("verified")), 3),
        "peak_mb": round(after.ru_maxrss / 1024), "deals_per_s": round(len(rows) / wall, 2), "load_at_start": load,
        "budget": [rows[0][3], rows[0][4]] if rows else None, "workers": args.workers,
    }
    batch_table = resultfile.table(COLUMNS, [summary])
    print()
    print(resultfile.markdown(batch_table))
    resultfile.write(args, "batch_end_to_end", {"batch": batch_table}, solver_version=rows[0][5] if rows else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
