"""Label recorded hint positions with the hint's own player's chance, for fitting the chance model.

Usage::

    python benchmarks/label_chance.py benchmarks/results/fair-s2-sign-games.jsonl [more.jsonl ...]
        --out benchmarks/results/chance-labels-s2.jsonl [--only FIRST-LAST] [--every 6] [--layouts 4]
        [--seed 1] [--workers 2]
    python benchmarks/label_chance.py GAMES.jsonl [...] --figures LABELS.jsonl --out FIGURES.jsonl

The hint's chance should be the chance that its player (the planner, which the hint follows
but at 1 to 2% of positions) wins from the position. Its own rollouts cannot measure that
in a hint's time: they are played by a small planner (``ROLLOUT_PARAMS``), much weaker
(4-suit tuning deals 3400-3799: 31 of 400 won, where the hint's 1024-wide planner wins
about 30%).
A real game's outcome measures it, but once for a hundred positions of one game: too few
games to fit on. This script measures it at each position directly: it lays the unseen
cards out ``--layouts`` times (fresh layouts, drawn from what the player has seen and
``--seed`` only) and plays the action the hint gave, then the hint's own planner
(``PLAN_PARAMS``) to the end of each, seeing only what a player sees. The share won is an
unbiased estimate of that player's chance from the position (every layout consistent with
what was seen is equally likely), one for each position, independent across positions.

Every ``--every``-th hint of each ``hint`` game of the files (``--only``: of these deal
numbers) is labelled; each labelled
position is appended to ``--out`` as a JSON line as it is done (``code``, ``at``, ``won``
of ``layouts``), so an interrupted run keeps its work; a new run skips the positions the
file holds. ``fit_chance.py --labels`` fits the chance model on them.

``--figures LABELS.jsonl`` labels nothing: it makes this checkout's hint again at each
position of LABELS and writes its game to ``--out`` as a hint game holding those hints
only (the figures the chance model reads), for ``fit_chance.py OUT --labels LABELS`` after
a change of the rollouts, whose figures the model reads (the labels measure the hint's
planner and stay true). A position where this checkout's hint is not the action played
there is left out: its label measures that action. A new run skips the games OUT holds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import resultfile  # noqa: E402
from bench_fair import hint_record, positions_of, read_games  # noqa: E402


def label_game(args: tuple) -> list[dict]:
    """The labels of the chosen positions of one game: ``(code, log, ats, layouts, seed)``."""
    import numpy as np

    from spider_solver.engine.fair_hint import knowledge_of, played_out, tables_of
    from spider_solver.engine.fair_plan import PLAN_PARAMS, PLAN_WEIGHTS
    from spider_solver.engine.game import move_code
    from spider_solver.rules import Deal

    code, log, ats, layouts, seed = args
    suits = Deal.from_code(code).variant.suits
    player = (PLAN_WEIGHTS[suits], PLAN_PARAMS[suits])
    labels, tables = [], None
    for at, board, history, action in positions_of(code, log, ats):
        clock = time.process_time()
        tables = tables or tables_of(board)  # the variant's: once a game
        played = np.array([move_code(board.check(board.parse_action(action)))], dtype=np.int64)
        outcomes = played_out(knowledge_of(board, history), tables, [played], layouts, player, seed)
        labels.append({"code": code, "at": at, "won": int(outcomes.wins[0].sum()), "layouts": layouts,
                       "removed": float(outcomes.removed[0].mean()), "down": float(outcomes.down[0].mean()),
                       "seconds": round(time.process_time() - clock, 3)})
    return labels


def figure_game(args: tuple) -> tuple[dict, int]:
    """This checkout's hints at the labelled positions of one game: ``(game, ats)``. Returns
    the game with those hints, and how many positions were left out (another action now)."""
    from spider_solver.engine.fair_hint import fair_candidates
    from spider_solver.limits import FAIR_ALTERNATIVES, FAIR_LAYOUTS, FAIR_SEED

    game, ats = args
    hints, left_out = [], 0
    for at, board, history, action in positions_of(game["code"], game["log"], ats):
        clock = time.process_time()
        found = fair_candidates(board, history, layouts=FAIR_LAYOUTS, alternatives=FAIR_ALTERNATIVES, seed=FAIR_SEED)
        if found and found[0].action == board.check(board.parse_action(action)):
            hints.append(hint_record(board, at, found, time.process_time() - clock))
        else:
            left_out += 1
    return {key: game[key] for key in ("code", "player", "won", "actions", "log")} | {"hints": hints}, left_out


def figures(args: argparse.Namespace) -> None:
    """``--figures``: see the module's docstring."""
    out = Path(args.out)
    done = {row["code"] for row in read_games(out)} if out.exists() else set()
    wanted: dict[str, list[int]] = {}
    for row in read_games(Path(args.figures)):
        wanted.setdefault(row["code"], []).append(row["at"])
    jobs = [(game, wanted[game["code"]]) for name in args.files for game in read_games(Path(name))
            if game["player"] == "hint" and game["code"] in wanted and game["code"] not in done]
    total = sum(len(ats) for _, ats in jobs)
    print(f"{total} positions of {len(jobs)} games ({len(done)} games already in {out})", flush=True)
    started, count, left_out = time.time(), 0, 0
    with ProcessPoolExecutor(args.workers) as pool, out.open("a") as sink:
        for future in as_completed([pool.submit(figure_game, job) for job in jobs]):
            game, skipped = future.result()
            sink.write(json.dumps(game) + "\n")
            sink.flush()
            count += len(game["hints"]) + skipped
            left_out += skipped
            print(f"{count}/{total} positions ({left_out} left out: another action now), "
                  f"{time.time() - started:.0f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--out", required=True)
    parser.add_argument("--only", type=resultfile.deal_range, help="FIRST-LAST: only the games of these deal numbers")
    parser.add_argument("--every", type=int, default=6)
    parser.add_argument("--layouts", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--figures", metavar="LABELS",
                        help="label nothing: this checkout's hints again at the positions of this labels file "
                             "(see above)")
    args = parser.parse_args()
    if args.every < 1 or args.layouts < 1:
        parser.error("--every and --layouts: expected at least 1")
    resultfile.need_files(parser, args.files, "games file")
    if args.figures:
        resultfile.need_files(parser, [args.figures], "labels file")
        figures(args)
        return
    from spider_solver.rules import GameCode

    low, high = args.only or (0, 2**35)
    out = Path(args.out)
    done = {(row["code"], row["at"]) for row in read_games(out)} if out.exists() else set()
    jobs = []
    for name in args.files:
        for game in read_games(Path(name)):
            if game["player"] != "hint" or not low <= GameCode.parse(game["code"]).number <= high:
                continue
            ats = [h["at"] for h in game["hints"][:: args.every] if (game["code"], h["at"]) not in done]
            if ats:
                jobs.append((game["code"], game["log"], ats, args.layouts, args.seed))
    total = sum(len(job[2]) for job in jobs)
    print(f"{total} positions of {len(jobs)} games to label ({len(done)} already in {out})", flush=True)
    started, count = time.time(), 0
    with ProcessPoolExecutor(args.workers) as pool, out.open("a") as sink:
        for future in as_completed([pool.submit(label_game, job) for job in jobs]):
            rows = future.result()
            for row in rows:
                sink.write(json.dumps(row) + "\n")
            sink.flush()
            count += len(rows)
            print(f"{count}/{total} positions, {time.time() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
