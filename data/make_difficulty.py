"""Calibrate the difficulty grades: raw figures of a fixed deal set, and the boundaries.

Usage:
    python data/make_difficulty.py                    # calibrate (300 deals a variant), write both files
    python data/make_difficulty.py --count 2000       # the full calibration set the issue asks for
    python data/make_difficulty.py --check            # recompute a few stored raw figures, compare
    python data/make_difficulty.py --only 4-classic   # one variant (the others are kept from the file)

Figures already in the file (same grader version and seed) are kept, so a larger
``--count`` plays only the new deals.

The shipped calibration (grader ``fair-6``, cut to the time available on a shared
machine): ``--count 300 --only 4-classic``, ``--count 200 --only 2-classic``,
``--count 300 --only 1-classic``, ``--count 300 --only 2-relaxed --only 4-relaxed``
(benchmarks/HISTORY.md, "The grader: games and calibration"). ``fair-1`` used 300 deals for
each Classic variant and 150 for each Relaxed one. ``fair-6`` changed only the 1-suit
player: the other variants' figures are ``fair-5``'s, taken over with the version renamed
(``--check`` recomputes some of each variant and finds them equal).

For each variant (1 suit; 2 and 4 suits, Classic and Relaxed) the fair player grades
deals ``START`` to ``START + count - 1`` (20000 onwards: outside the reporting set 0-199
and the tuning set 10000-10199) with the default seed. Every deal of the set counts as
verified: real deals are about 99.9% winnable (README, "How fast and how strong"), so the
population is all deals; the boundaries are the 20%, 40%, 60% and 80% quantiles of the
raw figures, so that each grade holds about a fifth of them.

Writes ``data/difficulty-calibration.json`` (every deal's raw figure and win rate, the
boundaries, and per grade the fair player's win rate and runs removed) and
``spider_solver/difficulty.json`` (what the package loads: the version, the games per
deal and the boundaries). ``tests/test_grading.py`` checks that the two agree, that
the version is ``GRADER_VERSION`` and that a few raw figures recompute.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spider_solver.grading import GAMES, GRADE_SEED, GRADER_VERSION, GRADES, play, variant_key  # noqa: E402
from spider_solver.rules import Deal, GameCode  # noqa: E402

CALIBRATION = ROOT / "data" / "difficulty-calibration.json"
BOUNDARIES = ROOT / "spider_solver" / "difficulty.json"
START = 20000
DEFAULT_COUNT = 300
VARIANTS = ((4, "classic"), (2, "classic"), (1, "classic"), (4, "relaxed"), (2, "relaxed"))
QUANTILES = (0.2, 0.4, 0.6, 0.8)


def boundaries_of(raws: list[float]) -> list[float]:
    """Four increasing cut points (rounded to 0.01) at the quantiles of ``raws``."""
    cuts = [round(float(q), 2) for q in np.quantile(np.array(raws), QUANTILES)]
    for i in range(1, len(cuts)):
        cuts[i] = max(cuts[i], round(cuts[i - 1] + 0.01, 2))
    return cuts


def grade_with(raw: float, cuts: list[float]) -> int:
    return 1 + sum(1 for cut in cuts if raw > cut)


def calibrate(suits: int, rule: str, count: int, known: dict | None = None) -> dict:
    """Grade deals START .. START + count - 1. The figures of ``known`` (this variant in
    the file, made by this grader version and seed) are taken as they are for the deals
    it holds: the same deal, seed and version give the same figures (``--check``
    recomputes some), so a larger set only plays its new deals."""
    raws: list[float] = []
    wins: list[float] = []
    runs: list[float] = []
    seconds: list[float] = []
    reused = known["raw"] if known and known["deals"][0] == START else []
    began = time.monotonic()
    for number in range(START, START + count):
        i = number - START
        if i < len(reused):
            raws.append(known["raw"][i])  # type: ignore[index]
            wins.append(known["win_rate"][i])  # type: ignore[index]
            runs.append(known["runs_removed"][i])  # type: ignore[index]
            continue
        figures, _ = play(Deal.from_code(GameCode(suits, rule, number)), seed=GRADE_SEED)
        raws.append(figures.raw())
        wins.append(round(figures.win_rate(), 4))
        runs.append(round(float(np.mean(figures.removed)), 3))
        seconds.append(figures.seconds)
        if (number - START + 1) % 50 == 0:
            print(f"  {variant_key(suits, rule)}: {number - START + 1}/{count}, {time.monotonic() - began:.0f} s",
                  file=sys.stderr, flush=True)
    cuts = boundaries_of(raws)
    grades = [grade_with(raw, cuts) for raw in raws]
    per_grade = {}
    for g in GRADES:
        members = [i for i, x in enumerate(grades) if x == g]
        per_grade[str(g)] = {
            "share": round(len(members) / count, 3),
            "win_rate": round(statistics.fmean(wins[i] for i in members), 3) if members else None,
            "runs_removed": round(statistics.fmean(runs[i] for i in members), 2) if members else None,
            "raw_range": [min(raws[i] for i in members), max(raws[i] for i in members)] if members else None,
        }
    return {
        "deals": [START, START + count - 1], "raw": raws, "win_rate": wins, "runs_removed": runs,
        "boundaries": cuts, "grades": per_grade,
        "median_seconds": round(statistics.median(seconds), 3) if seconds else known["median_seconds"],  # type: ignore[index]
    }


def write(calibration: dict) -> None:
    CALIBRATION.write_text(json.dumps(calibration, indent=1) + "\n", encoding="utf-8")
    shipped = {
        "version": GRADER_VERSION,
        "seed": GRADE_SEED,
        "games": {str(k): v for k, v in GAMES.items()},
        "calibration": "data/difficulty-calibration.json, made by data/make_difficulty.py",
        "boundaries": {key: data["boundaries"] for key, data in calibration["variants"].items()},
        "win_rate_by_grade": {key: [data["grades"][str(g)]["win_rate"] for g in GRADES]
                              for key, data in calibration["variants"].items()},
    }
    BOUNDARIES.write_text(json.dumps(shipped, indent=1) + "\n", encoding="utf-8")


def check(per_variant: int) -> int:
    """Recompute the first ``per_variant`` raw figures of each variant; 0 if all agree."""
    calibration = json.loads(CALIBRATION.read_text(encoding="utf-8"))
    shipped = json.loads(BOUNDARIES.read_text(encoding="utf-8"))
    problems = []
    if calibration["version"] != GRADER_VERSION or shipped["version"] != GRADER_VERSION:
        problems.append(f"version {calibration['version']!r} / {shipped['version']!r}, expected {GRADER_VERSION!r}")
    for key, data in calibration["variants"].items():
        if shipped["boundaries"].get(key) != data["boundaries"] or boundaries_of(data["raw"]) != data["boundaries"]:
            problems.append(f"{key}: boundaries do not follow from the raw figures")
        suits, rule = int(key.split("-")[0]), key.split("-")[1]
        for i in range(per_variant):
            number = data["deals"][0] + i
            figures, _ = play(Deal.from_code(GameCode(suits, rule, number)), seed=calibration["seed"])
            if figures.raw() != data["raw"][i]:
                problems.append(f"{key} deal {number}: raw {figures.raw()} != stored {data['raw'][i]}")
    for problem in problems:
        print(problem)
    print("ok" if not problems else f"{len(problems)} problems")
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=DEFAULT_COUNT, help="deals a variant")
    parser.add_argument("--only", action="append", help="variant keys to (re)calibrate, e.g. 4-classic")
    parser.add_argument("--check", action="store_true", help="recompute a few raw figures and compare")
    args = parser.parse_args()
    if args.check:
        return check(2)
    calibration = {"version": GRADER_VERSION, "seed": GRADE_SEED, "variants": {}}
    if CALIBRATION.exists():
        old = json.loads(CALIBRATION.read_text(encoding="utf-8"))
        if old.get("version") == GRADER_VERSION:
            calibration["variants"] = old["variants"]
    for suits, rule in VARIANTS:
        key = variant_key(suits, rule)
        if args.only and key not in args.only:
            continue
        print(f"calibrating {key} on {args.count} deals from {START}", file=sys.stderr, flush=True)
        calibration["variants"][key] = calibrate(suits, rule, args.count, calibration["variants"].get(key))
        calibration["variants"] = {variant_key(s, r): calibration["variants"][variant_key(s, r)]
                                   for s, r in VARIANTS if variant_key(s, r) in calibration["variants"]}
        write(calibration)
        data = calibration["variants"][key]
        print(f"{key}: boundaries {data['boundaries']}, median {data['median_seconds']} s, win rate by grade "
              f"{[data['grades'][str(g)]['win_rate'] for g in GRADES]}", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
