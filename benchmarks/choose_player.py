"""The fair player's parameters at 1 suit, chosen against a calibration player that is not the
reference player. Prints a Markdown table and writes a result file.

Usage::

    python benchmarks/choose_player.py [--first 40000] [--count 120] [--games 40]
                                       [--casual-file benchmarks/inputs/casual-s1-40000-40119.json]

The reference player (``benchmarks/reference_player.py``) validates grades and must never
calibrate them. This script plays the fair player (``grading``'s figure: 100 × (1 − mean
progress) over 192 games a deal, the default seed) under each candidate setting of its
parameters and weights on the tuning deals ``first .. first + count - 1`` (40000 onwards:
neither calibration, 20000 onwards, nor validation, 50000 and 60000 onwards), and
compares the figure with the casual player of ``bench_analyze.py`` (``--games`` games a
deal, replayed by the rules engine; progress counted as the reference player's). The
setting chosen is the one whose Spearman ρ is the most negative (a harder deal, less
progress): that rule was fixed before the candidates were played.

The candidates are those of ``fair-6``'s sweep, in the order they were tried (four rounds,
each built on the one before): the defaults, then one parameter or weight changed, then
combinations around the best. ``--casual-file`` keeps the casual player's progress (the
costly half: about 8 minutes of CPU for 120 deals): read when it holds the deals, written
otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import resultfile  # noqa: E402
from bench_grade import spearman  # noqa: E402
from choose_figure import casual_progress  # noqa: E402

#: Games the fair player plays a deal in the sweep (fair-5's 1-suit count).
GAMES = 192
#: Candidate settings: name -> ({parameter index: value}, {weight index: value}), changes to
#: FAIR_PARAMS (0 actions, 1 patience, 2 noise, 3 look-ahead) and FAIR_WEIGHTS (0 a
#: face-down card, 1 a suit break, 2 a rank break, 3 an empty column, 5 a king at the base).
CANDIDATES: dict[str, tuple[dict[int, int], dict[int, int]]] = {
    "defaults (fair-5)": ({}, {}),
    "noise 16": ({2: 16}, {}), "noise 96": ({2: 96}, {}), "noise 200": ({2: 200}, {}),
    "patience 2": ({1: 2}, {}), "patience 4": ({1: 4}, {}), "patience 16": ({1: 16}, {}),
    "look-ahead 0": ({3: 0}, {}), "look-ahead 1": ({3: 1}, {}), "300 actions": ({0: 300}, {}),
    "empty 12": ({}, {3: 12}), "empty 0": ({}, {3: 0}), "down 20": ({}, {0: 20}), "down 5": ({}, {0: 5, 8: 1}),
    "rank break 4": ({}, {2: 4}), "rank break 16": ({}, {2: 16}), "king 0": ({}, {5: 0}), "king 15": ({}, {5: 15}),
    "la0 noise 16": ({3: 0, 2: 16}, {}), "la0 noise 96": ({3: 0, 2: 96}, {}), "la0 noise 200": ({3: 0, 2: 200}, {}),
    "la0 patience 2": ({3: 0, 1: 2}, {}), "la0 patience 16": ({3: 0, 1: 16}, {}), "la0 down 20": ({3: 0}, {0: 20}),
    "la0 rank break 4": ({3: 0}, {2: 4}), "la0 1200 actions": ({3: 0, 0: 1200}, {}), "la0 empty 12": ({3: 0}, {3: 12}),
    "la0 king 0": ({3: 0}, {5: 0}),
    "la0 down 20 rank break 4": ({3: 0}, {0: 20, 2: 4}), "la0 down 30": ({3: 0}, {0: 30}),
    "la0 down 20 noise 96": ({3: 0, 2: 96}, {0: 20}), "la0 down 20 noise 200": ({3: 0, 2: 200}, {0: 20}),
    "la0 down 20 rank break 4 noise 96": ({3: 0, 2: 96}, {0: 20, 2: 4}),
    "la0 down 20 patience 2": ({3: 0, 1: 2}, {0: 20}), "down 20 rank break 4": ({}, {0: 20, 2: 4}),
    "la0 rank break 2": ({3: 0}, {2: 2}), "la0 down 20 suit break 3": ({3: 0}, {0: 20, 1: 3}),
    "la0 down 20 patience 2 noise 96": ({3: 0, 1: 2, 2: 96}, {0: 20}),
    "la0 down 20 patience 2 noise 200": ({3: 0, 1: 2, 2: 200}, {0: 20}),
    "la0 down 20 patience 1": ({3: 0, 1: 1}, {0: 20}), "la0 down 20 patience 0": ({3: 0, 1: 0}, {0: 20}),
    "la0 down 20 patience 2 rank break 4": ({3: 0, 1: 2}, {0: 20, 2: 4}),
    "la1 down 20 patience 2": ({3: 1, 1: 2}, {0: 20}),
}
COLUMNS = [("setting", "setting (changes to the defaults)", ""), ("win_rate", "fair player's win rate", ".3f"),
           ("rho", "ρ with the casual player's progress", ".3f"), ("cpu", "CPU s a deal", ".3f"),
           ("chosen", "chosen", "")]


def casual(args: argparse.Namespace) -> dict[int, float]:
    """The casual player's progress of each tuning deal, from ``--casual-file`` or played now."""
    from spider_solver.rules import Deal, GameCode

    path = Path(args.casual_file)
    known = {int(k): v for k, v in json.loads(path.read_text(encoding="utf-8")).items()} if path.exists() else {}
    wanted = range(args.first, args.first + args.count)
    missing = [n for n in wanted if n not in known]
    for i, number in enumerate(missing):
        known[number] = casual_progress(Deal.from_code(GameCode(1, "classic", number)), number, args.games)
        if (i + 1) % 10 == 0:
            print(f"  casual player: {i + 1}/{len(missing)}", file=sys.stderr, flush=True)
    if missing:
        path.write_text(json.dumps({str(n): known[n] for n in sorted(known)}, indent=0) + "\n", encoding="utf-8")
    return {n: known[n] for n in wanted}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=40000)
    parser.add_argument("--count", type=int, default=120)
    parser.add_argument("--games", type=int, default=40, help="the casual player's games a deal")
    parser.add_argument("--casual-file",
                        default=str(resultfile.ROOT / "benchmarks" / "inputs" / "casual-s1-40000-40119.json"))
    resultfile.add_out_option(parser, "choose-player-s1")
    args = parser.parse_args()
    from spider_solver.engine.fair import FAIR_PARAMS, FAIR_WEIGHTS
    from spider_solver.grading import load_grader, play
    from spider_solver.rules import Deal, GameCode

    progress = casual(args)
    load_grader()
    deals = [Deal.from_code(GameCode(1, "classic", number)) for number in progress]
    rows = []
    for name, (changes, weight_changes) in CANDIDATES.items():
        params, weights = FAIR_PARAMS.copy(), FAIR_WEIGHTS.copy()
        for i, v in changes.items():
            params[i] = v
        for i, v in weight_changes.items():
            weights[i] = v
        raws, wins = [], []
        began = time.process_time()
        for deal in deals:
            played, _ = play(deal, games=GAMES, player=(weights, params))
            raws.append(played.raw())
            wins.append(played.win_rate())
        cpu = (time.process_time() - began) / len(deals)
        rows.append({"setting": name, "win_rate": round(float(np.mean(wins)), 4),
                     "rho": round(spearman(raws, list(progress.values())), 3), "cpu": round(cpu, 4), "chosen": ""})
        print(f"  {name}: ρ {rows[-1]['rho']}", file=sys.stderr, flush=True)
    best = min(rows, key=lambda row: row["rho"])
    best["chosen"] = "yes"
    tab = resultfile.table(COLUMNS, rows)
    print(resultfile.markdown(tab))
    resultfile.write(args, "choose_player", {"settings": tab}, deals=f"{args.first}-{args.first + args.count - 1}",
                     games=args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
