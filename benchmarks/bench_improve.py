"""What ``spider-solve improve`` gains: line lengths before and after, seconds, memory.

Usage::

    python benchmarks/bench_improve.py [--suits 4] [--rule classic] [--first 0] [--count 40]
                                       [--workers 2] [--max-nodes N] [--max-seconds S]
                                       [--weights JSON] [--out results.json] [--json deals.json]

Each deal is solved by :func:`spider_solver.solve` at the default budget, then its line
is given to :func:`spider_solver.verify.improve` at the improve budget (the command's
defaults unless given), in one of ``--workers`` single-threaded processes (so "on one
core"). Prints the median / p90 line before and after, the median saving, the median /
p90 / max seconds of the improve pass (wall; ``cpu_median`` in the file: CPU seconds),
and the peak resident memory of a process; the
table goes to the result file ``--out`` too (default
``benchmarks/results/improve-s{suits}.json``), and ``--json`` writes every deal's figures.
``--weights "[9,0,9,...]"`` gives ``improve``'s beams that evaluation instead of its
own (``rephase.IMPROVE_WEIGHTS``), to compare two on the same solved lines. Report on
deals 0-199 (never used for tuning; the tuning used 10000-10199).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import resultfile

#: The summary of a run: (key, label, format) as resultfile.markdown shows it.
COLUMNS = [
    ("set", "set", ""),
    ("max_nodes", "budget", "M"),
    ("improved", "improved", "int"),
    ("count", "of", "int"),
    ("before_median", "length median before", ""),
    ("after_median", "after", ""),
    ("before_mean", "mean before", ".2f"),
    ("after_mean", "after", ".2f"),
    ("before_p90", "p90 before", ".0f"),
    ("after_p90", "after", ".0f"),
    ("s_median", "s median", ".2f"),
    ("s_p90", "s p90", ".2f"),
    ("s_max", "s max", ".2f"),
    ("peak_mb", "peak MB", ".0f"),
]


def _warm_up(weights: list[int] | None = None) -> None:
    from spider_solver import solve

    if weights is not None:
        import numpy as np

        from spider_solver.engine import rephase

        rephase.IMPROVE_WEIGHTS.update({suits: np.array(weights, dtype=np.int64) for suits in (1, 2, 4)})

    solve("SP1-S1C-AAAAAAA", max_nodes=2_000, max_seconds=None)


def _one(args: tuple[str, int, float | None]) -> dict:
    from spider_solver import solve
    from spider_solver.verify import improve

    code, max_nodes, max_seconds = args
    found = solve(code)
    row = {"code": code, "status": str(found.status), "before": found.moves, "solve_seconds": found.seconds}
    if found.status == "verified":
        started, cpu = time.perf_counter(), time.process_time()
        better = improve(code, found.solution, max_nodes=max_nodes, max_seconds=max_seconds)
        row |= {"after": better.moves, "nodes": better.nodes, "seconds": time.perf_counter() - started,
                "cpu_seconds": time.process_time() - cpu, "stopped": better.stopped}
    row["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return row


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def main() -> None:
    from spider_solver.rules import GameCode
    from spider_solver.verify import IMPROVE_MAX_SECONDS, improve_nodes

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--rule", default="classic")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-nodes", type=int, default=None,
                        help="Node budget of each pass (default: improve's own for the suit count).")
    parser.add_argument("--max-seconds", type=float, default=IMPROVE_MAX_SECONDS)
    parser.add_argument("--weights", type=json.loads, default=None,
                        help="A JSON list: the evaluation of improve's beams (default: its own).")
    parser.add_argument("--json", help="Write every deal's figures to this file.")
    resultfile.add_out_option(parser, "improve-s{suits}")
    args = parser.parse_args()
    if args.max_nodes is None:
        args.max_nodes = improve_nodes(args.suits)

    codes = [str(GameCode(args.suits, args.rule, n)) for n in range(args.first, args.first + args.count)]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers, initializer=_warm_up, initargs=(args.weights,)) as pool:
        rows = list(pool.map(_one, [(c, args.max_nodes, args.max_seconds or None) for c in codes]))
    wall = time.perf_counter() - started
    done = [r for r in rows if "after" in r]
    before = [r["before"] for r in done]
    after = [r["after"] for r in done]
    seconds = [r["seconds"] for r in done]
    summary = {
        "set": f"SP1-S{args.suits}{args.rule[0].upper()} deals {args.first}-{args.first + len(rows) - 1}",
        "max_nodes": args.max_nodes,
        "improved": sum(a < b for a, b in zip(after, before, strict=True)), "count": len(done),
        "before_median": statistics.median(before), "after_median": statistics.median(after),
        "before_mean": round(statistics.fmean(before), 2), "after_mean": round(statistics.fmean(after), 2),
        "before_p90": percentile(before, 0.9), "after_p90": percentile(after, 0.9),
        "saved_median": statistics.median(b - a for a, b in zip(after, before, strict=True)),
        "s_median": round(statistics.median(seconds), 3), "s_p90": round(percentile(seconds, 0.9), 3),
        "s_max": round(max(seconds), 3), "peak_mb": round(max(r["peak_rss_mb"] for r in rows)),
        "cpu_median": round(statistics.median(r["cpu_seconds"] for r in done), 3),
    }
    improve_table = resultfile.table(COLUMNS, [summary])
    print(resultfile.markdown(improve_table))
    print(f"\nbudget: {args.max_nodes:,} nodes, {args.max_seconds} s; {args.workers} workers; wall {wall:.0f} s; "
          f"cut by seconds: {sum(r.get('stopped') == 'seconds' for r in done)}")
    resultfile.write(args, "bench_improve", {"improve": improve_table},
                     budget={"max_nodes": args.max_nodes, "max_seconds": args.max_seconds},
                     workers=args.workers, wall_seconds=round(wall, 1))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=1)


if __name__ == "__main__":
    main()
