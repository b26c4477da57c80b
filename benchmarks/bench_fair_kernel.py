"""The fair player's kernel against the slow reference it replaced (issue 11, point 4).

Usage::

    python benchmarks/bench_fair_kernel.py [--suits 4] [--rule classic] [--first 0] [--count 200]
                                           [--deal-on-empty] [--trace 600] [--out results.json] [--json deals.json]

For each deal, plays the grader's games (``grading.GAMES``, the default seed) with the
reference kernel (``tests/fair_reference.py``, the kernel of grader ``fair-3`` as it was)
and with :func:`spider_solver.engine.fair.play_fair`, back to back, and checks that the
results arrays (won, removed, turned, dealt, actions of every game) and the first
``--trace`` actions of every game are the same. Prints the mismatches, and the CPU
seconds (``time.process_time``) of each kernel: median, p90 and the ratio of the medians,
also written to the result file ``--out`` (default
``benchmarks/results/fair-kernel-s{suits}-{rule}.json``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import resultfile

#: The summary of a run: (key, label, format) as resultfile.markdown shows it.
COLUMNS = [
    ("variant", "variant", ""),
    ("deals", "deals", ""),
    ("same", "same results and actions", "int"),
    ("mismatches", "mismatches", "int"),
    ("reference_median", "reference CPU s median", ".3f"),
    ("reference_p90", "p90", ".3f"),
    ("new_median", "kernel CPU s median", ".3f"),
    ("new_p90", "p90", ".3f"),
    ("ratio", "ratio of medians", ".2f"),
]

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def kernel_args(deal, deal_on_empty: bool, games: int | None, trace: int):
    from spider_solver.engine.fair import FAIR_PARAMS, FAIR_WEIGHTS, GAME_FIELDS
    from spider_solver.engine.game import Game
    from spider_solver.grading import GRADE_SEED, game_seeds, games_of

    game = Game.from_deal(deal, deal_on_empty=deal_on_empty)
    seeds = game_seeds(deal, GRADE_SEED, games or games_of(deal.variant))
    results = np.zeros((len(seeds), GAME_FIELDS), dtype=np.int64)
    moves = np.zeros((len(seeds), trace), dtype=np.int64)
    return (game.start, game.start_key, game.tables, FAIR_WEIGHTS, FAIR_PARAMS, seeds), results, moves


def run_reference(deal, deal_on_empty: bool = False, games: int | None = None, trace: int = 0):
    """(results, trace, CPU seconds) of the reference kernel."""
    from spider_solver.engine.position import new_position
    from spider_solver.engine.seen import seen_new
    from spider_solver.engine.types import MAX_COLUMNS, MAX_MOVES
    from tests.fair_reference import play_fair_reference

    head, results, moves = kernel_args(deal, deal_on_empty, games, trace)
    began = time.process_time()
    play_fair_reference(*head, new_position(), np.zeros(MAX_MOVES, dtype=np.int64), np.zeros(MAX_MOVES, dtype=np.int64),
                        np.zeros(MAX_COLUMNS, dtype=np.int64), np.zeros(MAX_COLUMNS, dtype=np.int64),
                        np.zeros(2, dtype=np.int64), seen_new(), results, moves)
    return results, moves, time.process_time() - began


def run_kernel(deal, deal_on_empty: bool = False, games: int | None = None, trace: int = 0):
    """(results, trace, CPU seconds) of :func:`play_fair`."""
    from spider_solver.engine.fair import play_fair

    head, results, moves = kernel_args(deal, deal_on_empty, games, trace)
    began = time.process_time()
    play_fair(*head, results, moves)
    return results, moves, time.process_time() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--rule", default="classic")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--deal-on-empty", action="store_true")
    parser.add_argument("--trace", type=int, default=600)
    parser.add_argument("--json", help="also write every deal's figures here")
    resultfile.add_out_option(parser, "fair-kernel-s{suits}-{rule}")
    args = parser.parse_args()

    from spider_solver.rules import Deal, GameCode

    warm = Deal.from_code("SP1-S4C-AAAAAAB")
    run_reference(warm, games=1)
    run_kernel(warm, games=1)
    rows = []
    mismatches = []
    for number in range(args.first, args.first + args.count):
        deal = Deal.from_code(GameCode(args.suits, args.rule, number))
        old, old_moves, old_s = run_reference(deal, args.deal_on_empty, trace=args.trace)
        new, new_moves, new_s = run_kernel(deal, args.deal_on_empty, trace=args.trace)
        same = bool((old == new).all() and (old_moves == new_moves).all())
        if not same:
            mismatches.append(number)
        rows.append({"deal": number, "old": old_s, "new": new_s, "same": same})
    old = sorted(r["old"] for r in rows)
    new = sorted(r["new"] for r in rows)
    n = len(rows)
    summary = {
        "variant": f"{args.suits}-{args.rule}" + (", deal on empty" if args.deal_on_empty else ""),
        "deals": f"{args.first}-{args.first + n - 1}", "same": n - len(mismatches), "mismatches": len(mismatches),
        "reference_median": round(statistics.median(old), 4), "reference_p90": round(old[int(0.9 * (n - 1))], 4),
        "new_median": round(statistics.median(new), 4), "new_p90": round(new[int(0.9 * (n - 1))], 4),
        "ratio": round(statistics.median(old) / statistics.median(new), 3),
    }
    kernel_table = resultfile.table(COLUMNS, [summary])
    print(resultfile.markdown(kernel_table))
    resultfile.write(args, "bench_fair_kernel", {"fair_kernel": kernel_table})
    if mismatches:
        print(f"mismatches: {mismatches}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
