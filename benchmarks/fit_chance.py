"""Fit the fair hint's chance model on tuning games (never on the games reported).

Usage::

    python benchmarks/fit_chance.py benchmarks/results/fair-tune-s4-games.jsonl [more.jsonl ...] [--suits 4]
        [--only FIRST-LAST] [--cross] [--labels chance-labels-s4.jsonl]

Reads the ``hint`` games of ``bench_fair.py`` game files (``--games``) (each hint's rollout figures and
the position's, and whether its game went on to win), fits a logistic regression of the
outcome on :func:`spider_solver.engine.fair_hint.chance_features` by Newton's method (a
small ridge keeps it defined when a feature does not vary), and prints the coefficients to
paste into ``CHANCE_MODELS`` with the calibration table of the fit (positions grouped by
predicted chance, tenths; the share of their games won). ``--cross`` adds the table of a
leave-one-game-out fit: each game's positions predicted by the model fitted on the other
games, a held-out estimate when the games are too few to set some aside.

``--labels LABELS.jsonl`` (``label_chance.py``): the target of each labelled position is
instead the share of fresh layouts its player went on to win from it (an unbiased estimate
of the chance, one per position), not its game's one outcome; only labelled positions are
fitted, and the table compares the fit with the labels' shares.

``--recalibrate``: keep the model of this checkout (``CHANCE_MODELS``) and fit one number
on the games' outcomes, a shift of its log-odds, printed folded into the model's
intercept: for a model fitted on labels of a player other than the hint (the labels
measure the planner alone). One number needs far fewer games than the model's seven, but
tried at 2 suits it fitted the luck of the games it was fitted on and failed on the next
fresh deals (benchmarks/HISTORY.md, "Fair hints"): test it on games it never read.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import resultfile  # noqa: E402
from bench_fair import read_games  # noqa: E402


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, steps: int = 50, share: float | None = None) -> np.ndarray:
    """Logistic regression coefficients (intercept first) by Newton's method. ``share``: the
    first feature's coefficient (the log-odds of the layouts won) held at that value, the
    others fitted around it."""
    if share is not None:
        rest = fit_offset(x[:, 1:], y, share * x[:, 0], ridge, steps)
        return np.concatenate([rest[:1], [share], rest[1:]])
    return fit_offset(x, y, np.zeros(len(y)), ridge, steps)


def fit_offset(x: np.ndarray, y: np.ndarray, offset: np.ndarray, ridge: float, steps: int) -> np.ndarray:
    """Logistic regression coefficients (intercept first) of ``y`` on ``x`` with a fixed
    ``offset`` added to the log-odds."""
    x1 = np.hstack([np.ones((x.shape[0], 1)), x])
    beta = np.zeros(x1.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(x1 @ beta + offset)))
        gradient = x1.T @ (y - p) - ridge * beta
        hessian = (x1 * (p * (1 - p))[:, None]).T @ x1 + ridge * np.eye(x1.shape[1])
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.abs(step).max() < 1e-9:
            break
    return beta


def main() -> None:
    from spider_solver.engine.fair_hint import chance_features

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--only", type=resultfile.deal_range, help="FIRST-LAST: only the games of these deal numbers")
    parser.add_argument("--cross", action="store_true",
                        help="also the calibration table of a leave-one-game-out fit: each game's positions "
                             "predicted by the model fitted on the other games (a held-out estimate from few games)")
    parser.add_argument("--cross-only", type=resultfile.deal_range,
                        help="FIRST-LAST: with --cross, the table over the positions of these deal numbers' games only "
                             "(each still predicted by the fit on all other games)")
    parser.add_argument("--share", type=float,
                        help="hold the coefficient of the layouts won at this value (at least 0, so that the "
                             "actions' chances rank as their wins do) and fit the others")
    parser.add_argument("--labels", nargs="+",
                        help="label_chance.py files: fit each labelled position on the share of layouts its player "
                             "won from it, not on its game's outcome")
    parser.add_argument("--recalibrate", action="store_true",
                        help="fit only a shift of the log-odds of this checkout's model (CHANCE_MODELS) to the "
                             "games' outcomes, and print it folded into the model's intercept")
    args = parser.parse_args()
    if args.recalibrate and (args.labels or args.share is not None or args.cross):
        parser.error("--recalibrate fits one shift on the games' outcomes: not with --labels, --share or --cross")
    if args.share is not None and args.share < 0:
        parser.error(f"--share: expected at least 0 (the chances must rank as the wins do); got {args.share}")
    resultfile.need_files(parser, [*args.files, *(args.labels or [])])
    from spider_solver.rules import GameCode

    low, high = args.only or (0, 2**35)
    labels = ({(row["code"], row["at"]): row["won"] / row["layouts"] for name in args.labels
               for row in read_games(Path(name))} if args.labels else None)
    rows, outcomes, games, numbers = [], [], [], []  # by position: its features, outcome, game and deal number
    read = [game for name in args.files for game in read_games(Path(name))
            if game["player"] == "hint" and low <= GameCode.parse(game["code"]).number <= high]
    for number, game in enumerate(read):
        deal = GameCode.parse(game["code"]).number
        for h in game["hints"]:
            if labels is not None and (game["code"], h["at"]) not in labels:
                continue
            rows.append(chance_features(h["wins"], h["layouts"], h["roll_removed"], h["roll_down"], h["down"],
                                        h["dealt"], h["runs"], args.suits))
            outcomes.append(labels[game["code"], h["at"]] if labels is not None else float(game["won"]))
            games.append(number)
            numbers.append(deal)
    x, y = np.array(rows), np.array(outcomes)
    if args.recalibrate:
        from spider_solver.engine.fair_hint import CHANCE_MODELS

        model = np.array(CHANCE_MODELS[args.suits])
        shift = fit_offset(np.zeros((len(y), 0)), y, np.hstack([np.ones((len(y), 1)), x]) @ model, 1e-3, 50)[0]
        print(f"a shift of {shift:.4f} on the log-odds of CHANCE_MODELS[{args.suits}]")
        beta = np.concatenate([[model[0] + shift], model[1:]])
    else:
        beta = fit(x, y, share=args.share)
    if labels is not None:
        print(f"{len(y)} labelled positions, mean share won {y.mean():.3f}")
    else:
        print(f"{len(y)} positions, {int(y.sum())} of them in won games")
    print("coefficients:", [round(float(b), 4) for b in beta])
    p = 1 / (1 + np.exp(-(np.hstack([np.ones((len(y), 1)), x]) @ beta)))
    print("the fit's own positions:")
    table(p, y)
    if args.cross:
        print("each game predicted by the fit on the others:")
        p = cross(x, y, np.array(games), args.share)
        if args.cross_only:
            first, last = args.cross_only
            deals = np.array(numbers)
            shown = (deals >= first) & (deals <= last)
            print(f"(the positions of deals {first}-{last}: {int(shown.sum())})")
            p, y = p[shown], y[shown]
        table(p, y)


def cross(x: np.ndarray, y: np.ndarray, games: np.ndarray, share: float | None = None) -> np.ndarray:
    """Each position's chance by the model fitted on the positions of the other games."""
    p = np.empty(len(y))
    for game in np.unique(games):
        inside = games == game
        beta = fit(x[~inside], y[~inside], share=share)
        p[inside] = 1 / (1 + np.exp(-(np.hstack([np.ones((int(inside.sum()), 1)), x[inside]]) @ beta)))
    return p


def table(p: np.ndarray, y: np.ndarray) -> None:
    """The calibration table: positions grouped by predicted chance (tenths), the share of their games won."""
    for g in range(10):
        inside = [(pi, yi) for pi, yi in zip(p, y, strict=True) if g / 10 <= pi < (g + 1) / 10 or (g == 9 and pi == 1)]
        if inside:
            print(f"{g / 10:.1f}-{(g + 1) / 10:.1f}: {len(inside):5} positions, predicted "
                  f"{statistics.mean(a for a, _ in inside):.3f}, won {statistics.mean(b for _, b in inside):.3f}")


if __name__ == "__main__":
    main()
