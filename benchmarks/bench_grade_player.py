"""Validate the difficulty grades against the reference player; prints a Markdown table.

Usage::

    python benchmarks/bench_grade_player.py --suits 1 [--first 50000] [--count 100] [--games 5]
                                            [--games-file deals.json] [--out results.json]

For each classic deal ``first`` .. ``first + count - 1`` (50000 onwards by default: deals
used neither to calibrate the grades, 20000 onwards, nor to choose the 1- and 2-suit
recipe, 40000-40059, nor in the reporting set 0-199), the reference player
(``benchmarks/reference_player.py``, a policy of its own, its games replayed by the rules
engine) plays ``--games`` games, and the grader grades the deal (timed in CPU seconds).
``--games-file`` keeps the reference player's games: read from it when it holds the
deals, written otherwise (the player is the costly half and does not change with the
grader). ``benchmarks/inputs/ref-{50000,60000}-40.json`` keep its 40 games of each 1-suit
deal 50000-50099 and 60000-60099 (45 CPU minutes each to play), and ``ref-*-5.json`` their
first 5 (a game's seed is the deal's and the game's number, so these are the games
``--games 5`` plays).

Prints and writes (``--out``, default ``benchmarks/results/grade-player-s{suits}.json``):
Spearman's ρ of the grade with the deal's progress (the mean of its games': 1 if won, else
the mean of runs removed / 8 and cards turned up / 44) and its 95% bootstrap interval
(2,000 resamples of the deals, seeded), the mean progress and the number of deals of each
grade, and the median grading CPU seconds a deal. A harder grade should mean less
progress: ρ negative, the means falling from grade 1 to 5.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

import resultfile
from bench_grade import spearman
from reference_player import play_deal

#: One row a run.
COLUMNS = [
    ("variant", "variant", ""),
    ("grader", "grader", ""),
    ("deals", "deals", ""),
    ("games", "games a deal", ""),
    ("rho", "ρ grade vs progress", ".2f"),
    ("rho_low", "95% interval from", ".2f"),
    ("rho_high", "to", ".2f"),
    ("progress", "mean progress by grade 1 → 5", ".3f"),
    ("counts", "deals by grade 1 → 5", ""),
    ("ordered", "strictly ordered", ""),
    ("s_median", "grading CPU s median", ".3f"),
    ("load", "load average", ""),
]
#: Bootstrap resamples of the interval, and their seed.
RESAMPLES = 2000
BOOTSTRAP_SEED = 33


def interval(grades: list[float], progress: list[float]) -> tuple[float, float]:
    """The 2.5% and 97.5% quantiles of ρ over bootstrap resamples of the deals."""
    rng = random.Random(BOOTSTRAP_SEED)
    n = len(grades)
    values = []
    for _ in range(RESAMPLES):
        pick = [rng.randrange(n) for _ in range(n)]
        rho = spearman([grades[i] for i in pick], [progress[i] for i in pick])
        if rho == rho:  # a resample of one grade only has no ρ
            values.append(rho)
    values.sort()
    return values[int(0.025 * (len(values) - 1))], values[int(0.975 * (len(values) - 1))]


def reference_games(args: argparse.Namespace) -> dict[int, dict]:
    """The reference player's figures of each deal, from ``--games-file`` or played now."""
    wanted = range(args.first, args.first + args.count)
    path = Path(args.games_file) if args.games_file else None
    known: dict[int, dict] = {}
    if path and path.exists():
        known = {row["deal"]: row for row in json.loads(path.read_text(encoding="utf-8"))
                 if row["suits"] == args.suits and len(row["games"]) == args.games}
    missing = [n for n in wanted if n not in known]
    for i, number in enumerate(missing):
        known[number] = play_deal(args.suits, number, args.games)
        if (i + 1) % 10 == 0:
            print(f"  reference player: {i + 1}/{len(missing)}", file=sys.stderr, flush=True)
    if path and missing:
        path.write_text(json.dumps([known[n] for n in sorted(known)], indent=1) + "\n", encoding="utf-8")
    return {n: known[n] for n in wanted}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suits", type=int, default=1)
    parser.add_argument("--first", type=int, default=50000)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--games-file", help="the reference player's games: read if there, else written")
    resultfile.add_out_option(parser, "grade-player-s{suits}")
    args = parser.parse_args()

    from spider_solver.grading import GRADER_VERSION, grade, load_grader
    from spider_solver.rules import GameCode

    reference = reference_games(args)
    load_grader()
    grades, progress, seconds = [], [], []
    for number, row in reference.items():
        began = time.process_time()
        grades.append(float(grade(str(GameCode(args.suits, "classic", number))).grade))
        seconds.append(time.process_time() - began)
        progress.append(row["progress"])
    rho = spearman(grades, progress)
    low, high = interval(grades, progress)
    means = [statistics.fmean(p for g, p in zip(grades, progress, strict=True) if g == k)
             if k in grades else None for k in range(1, 6)]
    present = [m for m in means if m is not None]
    summary = {"variant": f"{args.suits} suit{'s' if args.suits > 1 else ''} classic", "grader": GRADER_VERSION,
               "deals": f"{args.first}-{args.first + args.count - 1}", "games": args.games,
               "rho": round(rho, 3), "rho_low": round(low, 3), "rho_high": round(high, 3),
               "progress": [None if m is None else round(m, 4) for m in means],
               "counts": " / ".join(str(grades.count(float(k))) for k in range(1, 6)),
               "ordered": "yes" if all(b < a for a, b in zip(present, present[1:], strict=False)) else "no",
               "s_median": round(statistics.median(seconds), 4),
               "load": " ".join(f"{x:.1f}" for x in os.getloadavg())}
    tab = resultfile.table(COLUMNS, [summary])
    print(resultfile.markdown(tab))
    resultfile.write(args, "bench_grade_player", {"grade_player": tab})
    return 0


if __name__ == "__main__":
    sys.exit(main())
