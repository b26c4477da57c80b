"""Try beam schedules on the tuning deals: first widths and the post-pass's nodes.

Usage::

    python benchmarks/schedule_trials.py --suits 1 --first 10000 --count 100 \\
        --config "[64,256,1024,4096,16384]:150000" --config "[32,128,512,2048,8192,16384]:0"

Each ``--config`` is ``WIDTHS:POLISH_NODES`` for the suit count; every deal is solved by
``solve()`` (shortening, post-pass and the reference replay included) at the default
budget with ``schedule.WIDTHS`` and ``rephase.POLISH_NODES`` set for the run. Prints one
line a config: verified, median nodes, median and mean length. Nodes and lengths are
deterministic; seconds are not printed. Deals 0-1999 are the reporting set: refused.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

REPORT_DEALS = range(2000)


def solve_with(args: tuple) -> tuple[str, str, int, int | None]:
    code, suits, widths, polish = args
    import spider_solver.engine.rephase as rephase
    import spider_solver.engine.schedule as schedule
    from spider_solver.verify import solve

    schedule.WIDTHS[suits] = tuple(widths)
    rephase.POLISH_NODES[suits] = polish
    result = solve(code)
    return code, result.status, result.nodes, len(result.solution) if result.solution else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suits", type=int, default=4, choices=(1, 2, 4))
    parser.add_argument("--first", type=int, default=10000)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--config", action="append", required=True, help="WIDTHS:POLISH_NODES, e.g. [64,256]:0")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    deals = range(args.first, args.first + args.count)
    if set(deals) & set(REPORT_DEALS):
        parser.error("deals 0-1999 are the reporting set: tune on others (e.g. 10000 on)")
    from spider_solver.rules import GameCode

    codes = [str(GameCode(args.suits, "classic", n)) for n in deals]
    with ProcessPoolExecutor(args.workers) as pool:
        for config in args.config:
            widths_text, _, polish_text = config.partition(":")
            widths, polish = json.loads(widths_text), int(polish_text or 0)
            rows = list(pool.map(solve_with, [(code, args.suits, widths, polish) for code in codes]))
            won = [length for _, status, _, length in rows if status == "verified" and length is not None]
            nodes = statistics.median(row[2] for row in rows)
            print(f"{args.suits} suits {widths} polish {polish}: {len(won)}/{len(rows)} verified, nodes median "
                  f"{nodes / 1000:.0f}k, length median {statistics.median(won) if won else '-'}, "
                  f"mean {statistics.mean(won) if won else float('nan'):.1f}", flush=True)


if __name__ == "__main__":
    main()
