"""Speed and strength of the solver on a fixed deal set; prints a Markdown table.

Usage::

    python benchmarks/bench_solve.py [--suits 4] [--rule classic] [--first 0] [--count 200]
                                     [--workers 2] [--max-nodes N] [--max-seconds S]
                                     [--out results.json] [--json deals.json] [--startup]

Each deal is solved by :func:`spider_solver.solve` in one of ``--workers``
single-threaded processes (so each figure is "on one core"); seconds are the
wall time of ``solve`` inside the worker, measured after the worker has loaded
the compiled engine (``cpu_seconds`` in ``--json``: the worker's CPU time for it,
which a busy machine inflates less). The table gives the share verified, unknown
and unwinnable, median / p90 / max seconds and nodes per deal, nodes per second, median / p90
solution length, and the peak resident memory of a solving process. It is printed and
written, with the machine, the date and the commit, to the result file ``--out``
(default ``benchmarks/results/solve-s{suits}.json``, which docs/performance.md shows:
``python benchmarks/report.py`` after a run); ``--json`` also writes every deal's figures.
``--startup`` also times ``spider-solve verify`` in two fresh processes (the
first may compile the kernels; the second must load them from the cache).

Report on deals the engine was not tuned on: the evaluation was tuned on deals
10000-10199 (benchmarks/tune.py); the reporting sets are deals 0-199.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import resultfile

#: The summary of a run: (key, label, format) as resultfile.markdown shows it.
COLUMNS = [
    ("set", "set", ""),
    ("verified", "verified", "int"),
    ("count", "deals", "int"),
    ("unknown", "unknown", "int"),
    ("length_median", "length median", ""),
    ("length_mean", "mean", ".2f"),
    ("length_p90", "p90", ".0f"),
    ("nodes_median", "nodes median", "k"),
    ("nodes_p90", "nodes p90", "k"),
    ("cpu_median", "CPU s median", ".3f"),
    ("s_median", "s median", ".3f"),
    ("s_p90", "s p90", ".3f"),
    ("s_max", "s max", ".2f"),
    ("cpu_nodes_per_s", "nodes/s (CPU)", "M2"),
    ("peak_mb", "peak MB", ".0f"),
]


def _warm_up() -> None:
    from spider_solver import solve

    solve("SP1-S1C-AAAAAAA", max_nodes=2_000, max_seconds=None)


def _solve(args: tuple[str, int, float | None]) -> dict:
    from spider_solver import solve

    code, max_nodes, max_seconds = args
    started = time.perf_counter()
    cpu_started = time.process_time()
    result = solve(code, max_nodes=max_nodes, max_seconds=max_seconds)
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu_started
    return {
        "code": code,
        "status": result.status,
        "moves": result.moves,
        "nodes": result.nodes,
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "widths": [a.width for a in result.attempts],
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def startup_seconds(code: str) -> list[float]:
    times = []
    for _ in range(2):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "spider_solver", "verify", code, "--max-nodes", "1000",
                        "--no-progress"], capture_output=True, check=False)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    from spider_solver.rules import GameCode
    from spider_solver.verify import DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--rule", default="classic")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES)
    parser.add_argument("--max-seconds", type=float, default=DEFAULT_MAX_SECONDS)
    parser.add_argument("--json", help="Write every deal's figures to this file.")
    resultfile.add_out_option(parser, "solve-s{suits}")
    parser.add_argument("--startup", action="store_true", help="Also time two fresh `spider-solve verify` runs.")
    args = parser.parse_args()

    codes = [str(GameCode(args.suits, args.rule, n)) for n in range(args.first, args.first + args.count)]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers, initializer=_warm_up) as pool:
        rows = list(pool.map(_solve, [(c, args.max_nodes, args.max_seconds or None) for c in codes]))
    wall = time.perf_counter() - started

    verified = [r for r in rows if r["status"] == "verified"]
    seconds = [r["seconds"] for r in rows]
    cpus = [r["cpu_seconds"] for r in rows]
    nodes = [r["nodes"] for r in rows]
    lengths = [r["moves"] for r in verified]
    count = len(rows)
    summary = {
        "set": f"SP1-S{args.suits}{args.rule[0].upper()} deals {args.first}-{args.first + count - 1}",
        "verified": len(verified), "count": count,
        "unknown": sum(r["status"] == "unknown" for r in rows),
        "unwinnable": sum(r["status"] == "unwinnable" for r in rows),
        "length_median": statistics.median(lengths) if lengths else None,
        "length_mean": round(statistics.fmean(lengths), 2) if lengths else None,
        "length_p90": percentile(lengths, 0.9) if lengths else None,
        "nodes_median": statistics.median(nodes), "nodes_p90": percentile(nodes, 0.9),
        "cpu_median": round(statistics.median(cpus), 4), "cpu_total": round(sum(cpus), 2),
        "s_median": round(statistics.median(seconds), 4), "s_p90": round(percentile(seconds, 0.9), 4),
        "s_max": round(max(seconds), 3),
        "cpu_nodes_per_s": round(sum(nodes) / sum(cpus)), "peak_mb": round(max(r["peak_rss_mb"] for r in rows)),
    }
    solve_table = resultfile.table(COLUMNS, [summary])
    print(resultfile.markdown(solve_table))
    print(f"\nbudget: {args.max_nodes:,} nodes, {args.max_seconds} s; {args.workers} workers; wall {wall:.0f} s; "
          f"cpu count {os.cpu_count()}")
    unsolved = [r["code"] for r in rows if r["status"] != "verified"]
    if unsolved:
        print("not verified:", " ".join(unsolved))
    extra = {}
    if args.startup:
        first, second = startup_seconds(codes[0])
        print(f"fresh `spider-solve verify` process: {first:.2f} s, then {second:.2f} s (cached kernels)")
        extra["startup_seconds"] = [round(first, 2), round(second, 2)]
    resultfile.write(args, "bench_solve", {"solve": solve_table},
                     budget={"max_nodes": args.max_nodes, "max_seconds": args.max_seconds},
                     workers=args.workers, wall_seconds=round(wall, 1),
                     load_average_end=round(os.getloadavg()[0], 2), **extra)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=1)


if __name__ == "__main__":
    main()
