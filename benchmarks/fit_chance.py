"""Fit the fair hint's chance model on tuning games (never on the games reported).

Usage::

    python benchmarks/fit_chance.py benchmarks/results/fair-tune-s4-games.jsonl [more.jsonl ...] [--suits 4]

Reads the ``hint`` games of ``bench_fair.py`` game files (``--games``) (each hint's rollout figures and
the position's, and whether its game went on to win), fits a logistic regression of the
outcome on :func:`spider_solver.engine.fair_hint.chance_features` by Newton's method (a
small ridge keeps it defined when a feature does not vary), and prints the coefficients to
paste into ``CHANCE_MODELS`` with the calibration table of the fit (positions grouped by
predicted chance, tenths; the share of their games won).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, steps: int = 50) -> np.ndarray:
    """Logistic regression coefficients (intercept first) by Newton's method."""
    x1 = np.hstack([np.ones((x.shape[0], 1)), x])
    beta = np.zeros(x1.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x1 @ beta))
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
    args = parser.parse_args()
    rows, outcomes = [], []
    for name in args.files:
        for game in (json.loads(line) for line in Path(name).read_text().splitlines() if line.strip()):
            if game["player"] != "hint":
                continue
            for h in game["hints"]:
                rows.append(chance_features(h["wins"], h["layouts"], h["roll_removed"], h["roll_down"], h["down"],
                                            h["dealt"], h["runs"], args.suits))
                outcomes.append(1.0 if game["won"] else 0.0)
    x, y = np.array(rows), np.array(outcomes)
    beta = fit(x, y)
    print(f"{len(y)} positions, {int(y.sum())} of them in won games")
    print("coefficients:", [round(float(b), 4) for b in beta])
    p = 1 / (1 + np.exp(-(np.hstack([np.ones((len(y), 1)), x]) @ beta)))
    for g in range(10):
        inside = [(pi, yi) for pi, yi in zip(p, y, strict=True) if g / 10 <= pi < (g + 1) / 10 or (g == 9 and pi == 1)]
        if inside:
            print(f"{g / 10:.1f}-{(g + 1) / 10:.1f}: {len(inside):5} positions, predicted "
                  f"{statistics.mean(a for a, _ in inside):.3f}, won {statistics.mean(b for _, b in inside):.3f}")


if __name__ == "__main__":
    main()
