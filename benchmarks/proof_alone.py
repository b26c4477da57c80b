"""The exhaustive search alone, from a position of a game, with its limits raised.

Usage::

    python benchmarks/proof_alone.py CODE AT "ACTION ACTION ..." [--level 3000000]
                                     [--tt-bits 27] [--max-nodes 150000000]

The position is the deal's default verified line cut after ``AT`` actions, then the
given actions. Prints the deals left and cards in play, then the search's outcome
(``exhausted``: proved unwinnable; ``won``; ``cut``: a level outgrew ``--level``;
``nodes``), nodes, levels, the largest level, the keys stored and peak memory, and
writes them to the result file ``--out`` (default
``benchmarks/results/proof-alone-{code}-{at}.json``). Used for the unsettled positions of
games in progress (benchmarks/HISTORY.md, "Games in progress: proofs").
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import resultfile

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: The table: (key, label, format) as resultfile shows it.
COLUMNS = [("position", "position", ""), ("deals_left", "deals left", ""), ("cards", "cards in play", ""),
           ("outcome", "outcome", ""), ("nodes", "nodes", "M1"), ("levels", "levels", ""),
           ("peak_level", "largest level", "int"), ("tt_stored", "keys", "int"), ("seconds", "s", ".1f"),
           ("peak_mb", "peak MB", ".0f")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("code")
    parser.add_argument("at", type=int)
    parser.add_argument("actions", nargs="?", default="")
    parser.add_argument("--level", type=int, default=3_000_000)
    parser.add_argument("--tt-bits", type=int, default=27)
    parser.add_argument("--max-nodes", type=int, default=150_000_000)
    resultfile.add_out_option(parser, "proof-alone-{code}-{at}")
    args = parser.parse_args()
    import spider_solver.engine.driver as driver
    from spider_solver.engine.game import Game
    from spider_solver.engine.types import MODE_ALL
    from spider_solver.rules import Board, Deal
    from spider_solver.verify import solve

    deal = Deal.from_code(args.code)
    board = Board(deal, undo_limit=None)
    for action in [*solve(deal).solution[: args.at], *args.actions.split()]:
        board.push_notation(action)
    print(f"{deal.code} after {args.at} + {args.actions.split()}: {board.deals_left} deals left, "
          f"{sum(len(column) for column in board.columns)} cards in play, {sum(board.down)} face down")
    driver.MAX_PROOF_LEVEL = driver.MAX_PROOF_LEVEL_CAP = args.level
    driver.PROOF_TT_BITS = driver.MAX_TT_BITS = args.tt_bits
    started = time.perf_counter()
    attempt = driver.beam(Game.from_board(board), driver.UNLIMITED, MODE_ALL, driver.Budget(args.max_nodes, None),
                          max_levels=driver.UNLIMITED)
    entry = {"position": f"{deal.code} after {args.at} + {args.actions}".strip(), "deals_left": board.deals_left,
             "cards": sum(len(column) for column in board.columns), "outcome": str(attempt.outcome),
             "nodes": attempt.nodes, "levels": attempt.levels, "peak_level": attempt.peak_level,
             "tt_stored": attempt.tt_stored, "seconds": round(time.perf_counter() - started, 1),
             "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}
    tab = resultfile.table(COLUMNS, [entry])
    print(resultfile.markdown(tab))
    resultfile.write(args, "proof_alone", {"proof": tab},
                     limits={"level": args.level, "tt_bits": args.tt_bits, "max_nodes": args.max_nodes})

if __name__ == "__main__":
    main()
