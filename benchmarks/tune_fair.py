"""Tune the planning fair player's weights on tuning deals (never on the deals reported).

Usage::

    python benchmarks/tune_fair.py --suits 4 --first 3000 --count 400 --width 16 --depth 12 \
        [--weights '[...]'] [--steps 4,2,1] [--workers 2] [--out benchmarks/results/tune-fair-s4.json]

Plays each deal once with :func:`spider_solver.engine.fair_sample.play_worlds` (the
planner alone, no sampling: what the planner does in the real deal), and improves the
weights by coordinate descent on the score 100 x win rate + 2 x runs removed + cards
turned up / 4 (mean over the deals): each weight in turn is moved by +-step while that
raises the score, for each step of ``--steps``. Prints each improvement; writes the best
weights and their figures to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _play(args: tuple) -> np.ndarray:
    suits, rule, numbers, weights, params = args
    from spider_solver.engine.fair_sample import play_worlds
    from spider_solver.engine.game import Game
    from spider_solver.engine.keys import DEALT_KEYS, ZOBRIST
    from spider_solver.rules import Deal, GameCode

    games = [Game.from_deal(Deal.from_code(GameCode(suits, rule, n))) for n in numbers]
    starts = np.stack([g.start for g in games])
    stocks = np.stack([g.stock for g in games])
    results = np.zeros((len(games), 4), dtype=np.int64)
    play_worlds(starts, stocks, (games[0].vp, ZOBRIST, DEALT_KEYS),
                (np.asarray(weights, dtype=np.int64), np.asarray(params, dtype=np.int64)), results)
    return results


def measure(pool, suits: int, rule: str, numbers: list[int], weights, params, workers: int) -> dict:
    """Play the deals (split over ``workers`` processes) and return the figures."""
    chunks = [numbers[i::workers] for i in range(workers)]
    parts = list(pool.map(_play, [(suits, rule, chunk, list(weights), list(params)) for chunk in chunks if chunk]))
    results = np.concatenate(parts)
    won = results[:, 0].mean()
    removed = results[:, 1].mean()
    turned = (44 - results[:, 3]).mean()
    return {"wins": int(results[:, 0].sum()), "games": len(results), "score": 100 * won + 2 * removed + turned / 4,
            "removed": round(float(removed), 3), "actions": round(float(results[:, 2].mean()), 1)}


def main() -> None:
    from spider_solver.engine.fair_plan import PLAN_PARAMS, PLAN_WEIGHTS, Q_DEPTH, Q_REPLAN, Q_WIDTH

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--rule", default="classic")
    parser.add_argument("--first", type=int, default=3000)
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--width", type=int)
    parser.add_argument("--depth", type=int)
    parser.add_argument("--replan", type=int, choices=(0, 1))
    parser.add_argument("--weights", help="JSON list of the starting weights (default: PLAN_WEIGHTS of the suits)")
    parser.add_argument("--steps", default="4,2,1")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out")
    args = parser.parse_args()
    weights = np.array(json.loads(args.weights) if args.weights else PLAN_WEIGHTS[args.suits], dtype=np.int64)
    params = PLAN_PARAMS[args.suits].copy()
    if args.width:
        params[Q_WIDTH] = args.width
    if args.depth:
        params[Q_DEPTH] = args.depth
    if args.replan is not None:
        params[Q_REPLAN] = args.replan
    numbers = list(range(args.first, args.first + args.count))
    started = time.time()
    with ProcessPoolExecutor(args.workers) as pool:
        best = measure(pool, args.suits, args.rule, numbers, weights, params, args.workers)
        print(f"start {best} {weights.tolist()}", flush=True)
        for step in (int(s) for s in args.steps.split(",")):
            improved = True
            while improved:
                improved = False
                for i in range(len(weights)):
                    for delta in (step, -step):
                        trial = weights.copy()
                        trial[i] += delta
                        figures = measure(pool, args.suits, args.rule, numbers, trial, params, args.workers)
                        if figures["score"] > best["score"] + 1e-9:
                            best, weights, improved = figures, trial, True
                            print(f"step {step}: w[{i}] {delta:+d} -> {figures} {weights.tolist()}", flush=True)
    print(f"final {best} {weights.tolist()} ({time.time() - started:.0f} s)")
    if args.out:
        Path(args.out).write_text(json.dumps({"benchmark": "tune_fair", "command": " ".join(sys.argv),
                                              "weights": weights.tolist(), "params": params.tolist(),
                                              "figures": best}, indent=2) + "\n")


if __name__ == "__main__":
    main()
