"""The exhaustive search alone, from a position of a game, with its limits raised.

Usage::

    python benchmarks/proof_alone.py CODE AT "ACTION ACTION ..." [--level 3000000]
                                     [--tt-bits 27] [--max-nodes 150000000]
                                     [--casual] [--reductions] [--json]

The position is the deal's default verified line cut after ``AT`` actions, then the
given actions; with ``--casual``, the casual player's game of the deal (as
``bench_analyze.py --player casual`` plays it) cut after ``AT`` actions. The search is
``MODE_ALL`` (every legal action); with ``--reductions``, the solver's proof
(``MODE_PROOF`` and the search's reductions). Prints the deals left and cards in play, then the search's outcome
(``exhausted``: proved unwinnable; ``won``; ``cut``: a level outgrew ``--level``;
``nodes``), nodes, levels, the largest level, the keys stored and peak memory (with
``--json``, the same figures again as one line of JSON, last). Used for
the positions no default proof settles (benchmarks/HISTORY.md, "Games in progress: proofs").
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("code")
    parser.add_argument("at", type=int)
    parser.add_argument("actions", nargs="?", default="")
    parser.add_argument("--level", type=int, default=3_000_000)
    parser.add_argument("--tt-bits", type=int, default=27)
    parser.add_argument("--max-nodes", type=int, default=150_000_000)
    parser.add_argument("--casual", action="store_true")
    parser.add_argument("--reductions", action="store_true")
    parser.add_argument("--json", action="store_true", help="Also print the figures as one line of JSON, last.")
    args = parser.parse_args()
    import spider_solver.engine.beam as beams
    from spider_solver.budget import Budget
    from spider_solver.engine.game import Game
    from spider_solver.rules import Board, Deal
    from spider_solver.verify import solve

    deal = Deal.from_code(args.code)
    board = Board(deal, undo_limit=None)
    if args.casual:
        import random

        from bench_analyze import casual_play

        line = casual_play(deal, random.Random(f"bench_analyze {deal.code}"))
    else:
        line = list(solve(deal).solution)
    for action in [*line[: args.at], *args.actions.split()]:
        board.push_notation(action)
    print(f"{deal.code} after {args.at} + {args.actions.split()}: {board.deals_left} deals left, "
          f"{sum(len(column) for column in board.columns)} cards in play, {sum(board.down)} face down")
    beams.MAX_PROOF_LEVEL = beams.MAX_PROOF_LEVEL_CAP = args.level
    beams.PROOF_TT_BITS = beams.MAX_TT_BITS = args.tt_bits
    started = time.perf_counter()
    attempt = beams.beam(Game.from_board(board), beams.Exhaustive(every_action=not args.reductions,
                                                                   reductions=args.reductions),
                         Budget(args.max_nodes))
    figures = {"outcome": str(attempt.outcome), "nodes": attempt.nodes, "levels": attempt.levels,
               "peak_level": attempt.peak_level, "keys": attempt.tt_stored,
               "seconds": round(time.perf_counter() - started, 1),
               "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}
    print(f"{figures['outcome']}: {figures['nodes']} nodes, {figures['levels']} levels, largest "
          f"{figures['peak_level']}, {figures['keys']} keys, {figures['seconds']:.1f} s, peak {figures['peak_mb']} MB")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
