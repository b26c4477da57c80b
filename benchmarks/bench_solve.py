"""Speed and strength of the solver on a fixed deal set; prints a Markdown table.

Usage::

    python benchmarks/bench_solve.py [--suits 4] [--rule classic] [--first 0] [--count 200]
                                     [--workers 2] [--max-nodes N] [--max-seconds S]
                                     [--json results.json] [--startup]

Each deal is solved by :func:`spider_solver.solve` in one of ``--workers``
single-threaded processes (so each figure is "on one core"); seconds are the
wall time of ``solve`` inside the worker, measured after the worker has loaded
the compiled engine (``cpu_seconds`` in ``--json``: the worker's CPU time for it,
which a busy machine inflates less). The table gives the share verified, unknown
and unwinnable, median / p90 / max seconds and nodes per deal, nodes per second, median / p90
solution length, and the peak resident memory of a solving process.
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
        "widths": [a["width"] for a in result.attempts],
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
    parser.add_argument("--startup", action="store_true", help="Also time two fresh `spider-solve verify` runs.")
    args = parser.parse_args()

    codes = [str(GameCode(args.suits, args.rule, n)) for n in range(args.first, args.first + args.count)]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers, initializer=_warm_up) as pool:
        rows = list(pool.map(_solve, [(c, args.max_nodes, args.max_seconds or None) for c in codes]))
    wall = time.perf_counter() - started

    verified = [r for r in rows if r["status"] == "verified"]
    seconds = [r["seconds"] for r in rows]
    nodes = [r["nodes"] for r in rows]
    lengths = [r["moves"] for r in verified]
    count = len(rows)
    name = f"SP1-S{args.suits}{args.rule[0].upper()} deals {args.first}-{args.first + count - 1}"
    print("| set | verified | unknown | unwinnable | s median | s p90 | s max | nodes median | nodes p90 "
          "| nodes/s | length median | length p90 | peak MB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    print(
        f"| {name} | {len(verified)}/{count} ({100 * len(verified) / count:.1f}%) "
        f"| {sum(r['status'] == 'unknown' for r in rows)} | {sum(r['status'] == 'unwinnable' for r in rows)} "
        f"| {statistics.median(seconds):.3f} | {percentile(seconds, 0.9):.3f} | {max(seconds):.2f} "
        f"| {statistics.median(nodes) / 1e3:.0f}k | {percentile(nodes, 0.9) / 1e3:.0f}k "
        f"| {sum(nodes) / sum(seconds) / 1e6:.2f}M "
        f"| {statistics.median(lengths) if lengths else float('nan'):.0f} "
        f"| {percentile(lengths, 0.9):.0f} | {max(r['peak_rss_mb'] for r in rows):.0f} |"
    )
    cpu = sum(r["cpu_seconds"] for r in rows)
    print(f"\nnodes/s on CPU time (the process's own, which other jobs on the machine inflate less than the "
          f"wall time): {sum(nodes) / cpu / 1e6:.2f}M; median CPU s a deal "
          f"{statistics.median(r['cpu_seconds'] for r in rows):.3f}; load average at the end "
          f"{os.getloadavg()[0]:.2f}")
    print(f"\nbudget: {args.max_nodes:,} nodes, {args.max_seconds} s; {args.workers} workers; wall {wall:.0f} s; "
          f"cpu count {os.cpu_count()}")
    unsolved = [r["code"] for r in rows if r["status"] != "verified"]
    if unsolved:
        print("not verified:", " ".join(unsolved))
    if args.startup:
        first, second = startup_seconds(codes[0])
        print(f"fresh `spider-solve verify` process: {first:.2f} s, then {second:.2f} s (cached kernels)")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=1)


if __name__ == "__main__":
    main()
