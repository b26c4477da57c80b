"""The grader's raw figure at 1 suit, chosen against a calibration player that is not the
reference player. Prints a Markdown table and writes a result file.

Usage::

    python benchmarks/choose_figure.py [--suits 1] [--first 40000] [--count 60] [--games 40]

The reference player (``benchmarks/reference_player.py``) validates grades and must never
calibrate them. This script chooses among the candidate raw figures of the fair player's
games against another human-like policy: the casual player of ``bench_analyze.py`` (the
most useful-looking visible action, never back to a position seen, the deal when nothing
is useful; it stops when stuck), ``--games`` games a deal, each replayed by the rules
engine, on the tuning deals ``first .. first + count - 1`` (40000 onwards: the deals the
1-suit recipe was chosen on; neither calibration, 20000 onwards, nor validation, 50000
onwards). A deal's progress is the mean of its games' (1 if won, else the mean of runs
removed / 8 and cards turned up / 44), as the reference player's. The figure chosen is
the one whose Spearman ρ with that progress is the most negative (a harder deal, less
progress).

Candidates (each from the grader's own games of the deal, ``grading.play``): the share of
games not within 2 runs of a win (``fair-4``), the share not within 3, the mean progress
(``fair-3``), the share of games lost (1 − win rate), and the mean number of actions.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import resultfile  # noqa: E402
from bench_analyze import _board, casual_play  # noqa: E402
from bench_grade import spearman  # noqa: E402
from reference_player import DOWN_AT_START, game_progress  # noqa: E402

COLUMNS = [("figure", "raw figure of the fair player's games", ""),
           ("rho", "ρ with the casual player's progress", ".3f"), ("chosen", "chosen", "")]


def casual_progress(deal, number: int, games: int) -> float:
    """The casual player's mean progress over ``games`` games of ``deal`` (seeded by deal and
    game), as the reference player's progress is counted."""
    total = 0.0
    for g in range(games):
        board = _board(deal, casual_play(deal, random.Random(f"choose_figure {number} {g}")))
        total += game_progress(board.is_won(), board.runs_removed, DOWN_AT_START - sum(board.down))
    return total / games


def figures(play) -> dict[str, float]:
    """The candidate raw figures of one deal's games (higher: harder)."""
    runs = play.runs
    return {
        "share not within 2 runs of a win (fair-4)": float(np.mean(play.removed < runs - 2)),
        "share not within 3 runs of a win": float(np.mean(play.removed < runs - 3)),
        "1 - mean progress (fair-3)": float(1 - np.mean(play.progress())),
        "share of games lost": float(1 - play.win_rate()),
        "mean actions": float(np.mean(play.actions)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suits", type=int, default=1)
    parser.add_argument("--first", type=int, default=40000)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--games", type=int, default=40)
    resultfile.add_out_option(parser, "choose-figure-s{suits}")
    args = parser.parse_args()
    from spider_solver.grading import load_grader, play
    from spider_solver.rules import Deal, GameCode

    load_grader()
    progress: list[float] = []
    candidates: dict[str, list[float]] = {}
    for i, number in enumerate(range(args.first, args.first + args.count)):
        deal = Deal.from_code(GameCode(args.suits, "classic", number))
        progress.append(casual_progress(deal, number, args.games))
        for name, value in figures(play(deal)[0]).items():
            candidates.setdefault(name, []).append(value)
        if (i + 1) % 10 == 0:
            print(f"  {i + 1}/{args.count}", file=sys.stderr, flush=True)
    rhos = {name: spearman(values, progress) for name, values in candidates.items()}
    best = min(rhos, key=lambda name: rhos[name])
    rows = [{"figure": name, "rho": round(rho, 3), "chosen": "yes" if name == best else ""}
            for name, rho in rhos.items()]
    tab = resultfile.table(COLUMNS, rows)
    print(resultfile.markdown(tab))
    resultfile.write(args, "choose_figure", {"figures": tab},
                     deals=f"{args.first}-{args.first + args.count - 1}", games=args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
