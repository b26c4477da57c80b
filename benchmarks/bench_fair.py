"""Strength, speed and calibration of the fair hint: games played by following fair hints alone.

Usage::

    python benchmarks/bench_fair.py --suits 4 --first 900000 --count 60 [--workers 2]
        [--layouts N] [--alternatives N] [--seed 0] [--players hint,planner,grader,casual]
        [--out benchmarks/results/fair-s4.json] [--games benchmarks/results/fair-s4-games.jsonl]

Each deal is played once by each player, no undo, seeing only what a player sees:

* ``hint``: the fair hint at every position (:func:`spider_solver.engine.fair_hint.fair_candidates`
  with the options of :class:`spider_solver.analysis.fair.FairOptions`), its action played;
  the time of each hint and its chance are kept, and every won game is replayed by the
  rules engine;
* ``planner``: the planner alone (:func:`spider_solver.engine.fair_sample.play_worlds`),
  what the hints build on;
* ``grader``: the grader's fair player (one game of :func:`spider_solver.grading` 's player);
* ``casual``: the casual player of the analysis benchmarks (``bench_analyze.casual_play``).

Prints the win rates with their 95% intervals (Wilson) and the hint times (median, p90),
and writes them with the calibration table to the result file ``--out`` as they come;
each game (its log, and each hint's time, chance and figures) is appended to ``--games``
as it ends, so an interrupted run keeps what it played. ``--calibration GAMES.jsonl ...``
prints the calibration table of such files, their positions pooled (``--rechance``: each hint's chance
computed again by this checkout's chance model, from the hint's recorded figures, and with
``--write-back`` written into the games files, which otherwise stay as they were played;
``--only FIRST-LAST``: of these deals' games; ``--calibration-out FILE``: the table written to
a result file).
``--resume`` keeps the games of an interrupted run found in the ``--games`` file (the same
options and deals; the result file then counts them with the new ones) and plays the rest.
``--cpu GAMES.jsonl --sample N --out FILE``: the hint's CPU seconds at N positions of those
games, made again one by one (wall time on a shared machine measures the load).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import resultfile  # noqa: E402


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def planner_action(board, history: list[int]):
    """The first action of the hint planner's decision at ``board`` (no rollouts), or None."""
    from spider_solver.engine.fair_hint import knowledge_of, tables_of
    from spider_solver.engine.fair_plan import MAX_DEPTH, PLAN_PARAMS, PLAN_WEIGHTS
    from spider_solver.engine.fair_sample import decision
    from spider_solver.engine.game import action_of
    from spider_solver.engine.types import MAX_COLUMNS

    suits = board.variant.suits
    block = np.zeros(MAX_DEPTH + MAX_COLUMNS + 1, dtype=np.int64)
    count = decision(knowledge_of(board, history), tables_of(board), (PLAN_WEIGHTS[suits], PLAN_PARAMS[suits]), block)
    return board.check(action_of(int(block[0]))) if count else None


def play_hint(code: str, layouts: int, alternatives: int, seed: int, stride: int = 1) -> dict:
    """One game by the fair hints: the log, the outcome, each hint's time and chance.
    ``stride`` > 1 (data to fit the chance model on, cheaply): a hint at every ``stride``-th
    position only, the planner's decision alone at the others."""
    from spider_solver.engine.fair_hint import fair_candidates, view_of
    from spider_solver.rules import Board, Deal, replay

    deal = Deal.from_code(code)
    board = Board(deal, undo_limit=0)
    history: list[int] = []
    log: list[str] = []
    hints: list[dict] = []
    while not board.is_won() and len(log) < 1000:
        clock = time.perf_counter()
        history.append(view_of(board)[1])
        if len(log) % stride:
            action = planner_action(board, history[:-1])
            if action is None:
                break
            log.append(board.play(action))
            continue
        found = fair_candidates(board, history[:-1], layouts=layouts, alternatives=alternatives, seed=seed)
        seconds = time.perf_counter() - clock
        if not found:
            break
        hints.append(hint_record(board, len(log), found, seconds))
        log.append(board.play(found[0].action))
    won = board.is_won()
    if won:  # replayed by the rules engine from the deal's initial layout
        assert replay(deal, log).won, f"{code}: a won game that does not replay to a win"
    return {"code": code, "player": "hint", "won": won, "actions": len(log), "log": log, "hints": hints}


def hint_record(board, at: int, found: list, seconds: float) -> dict:
    """What a game file keeps of the hint ``found`` (:func:`fair_candidates`, best first) at
    ``board``, position ``at`` of its game: the figures the chance model reads, and the choices."""
    best = found[0]
    planned = next(c for c in found if c.planned)  # its rollouts describe the position
    return {"at": at, "seconds": round(seconds, 4), "chance": round(best.chance, 4),
            "share": best.wins / best.layouts,
            "wins": best.wins, "layouts": best.layouts, "roll_removed": planned.removed,
            "roll_down": planned.down, "down": sum(board.down), "dealt": board.dealt,
            "runs": board.runs_removed, "empty": sum(1 for c in board.columns if not c),
            "planned": str(planned.action), "choices": [[str(c.action), c.wins] for c in found]}


def play_planner(code: str) -> dict:
    from spider_solver.engine.fair_plan import PLAN_PARAMS, PLAN_WEIGHTS
    from spider_solver.engine.fair_sample import play_worlds
    from spider_solver.engine.game import Game
    from spider_solver.engine.keys import DEALT_KEYS, ZOBRIST
    from spider_solver.rules import Deal

    deal = Deal.from_code(code)
    game = Game.from_deal(deal)
    suits = deal.variant.suits
    results = np.zeros((1, 4), dtype=np.int64)
    play_worlds(game.start[None, :], game.stock[None, :], (game.vp, ZOBRIST, DEALT_KEYS),
                (PLAN_WEIGHTS[suits], PLAN_PARAMS[suits]), results)
    return {"code": code, "player": "planner", "won": bool(results[0, 0]), "actions": int(results[0, 2])}


def play_grader(code: str) -> dict:
    from spider_solver.engine.fair import G_ACTIONS, G_WON, GAME_FIELDS, play_fair
    from spider_solver.engine.game import Game
    from spider_solver.grading import player_of
    from spider_solver.rules import Deal

    deal = Deal.from_code(code)
    game = Game.from_deal(deal)
    weights, params = player_of(deal.variant)
    results = np.zeros((1, GAME_FIELDS), dtype=np.int64)
    play_fair(game.start, game.start_key, game.tables, weights, params, np.array([1], dtype=np.uint64), results,
              np.zeros((1, 0), dtype=np.int64))
    return {"code": code, "player": "grader", "won": bool(results[0, G_WON]), "actions": int(results[0, G_ACTIONS])}


def play_casual(code: str) -> dict:
    from bench_analyze import casual_play

    from spider_solver.rules import Deal, replay

    deal = Deal.from_code(code)
    log = casual_play(deal, random.Random(f"bench_fair casual {code}"))
    return {"code": code, "player": "casual", "won": replay(deal, log).won, "actions": len(log)}


def _play(args: tuple) -> dict:
    player, code, layouts, alternatives, seed, stride = args
    started = time.perf_counter()
    if player == "hint":
        row = play_hint(code, layouts, alternatives, seed, stride)
    else:
        row = {"planner": play_planner, "grader": play_grader, "casual": play_casual}[player](code)
    row["seconds"] = round(time.perf_counter() - started, 2)
    return row


def summary(rows: list[dict]) -> dict:
    """Win rates with intervals by player; hint times."""
    out: dict = {}
    for player in sorted({r["player"] for r in rows}):
        mine = [r for r in rows if r["player"] == player]
        wins = sum(r["won"] for r in mine)
        low, high = wilson(wins, len(mine))
        entry = {"games": len(mine), "wins": wins, "rate": round(wins / len(mine), 4),
                 "interval95": [round(low, 4), round(high, 4)],
                 "game_seconds_median": round(statistics.median(r["seconds"] for r in mine), 2)}
        times = [h["seconds"] for r in mine for h in r.get("hints", [])]
        if times:
            times.sort()
            entry["hint_seconds_median"] = round(statistics.median(times), 4)
            entry["hint_seconds_p90"] = round(times[min(len(times) - 1, int(0.9 * len(times)))], 4)
            entry["hints"] = len(times)
        out[player] = entry
    return out


def rechance(rows: list[dict]) -> list[dict]:
    """The games with each hint's chance as the current chance model gives it from the hint's
    recorded figures (exactly what :func:`~spider_solver.engine.fair_hint.fair_candidates`
    computes from the same rollouts)."""
    from spider_solver.engine.fair_hint import chance_features, chance_of
    from spider_solver.rules import GameCode

    for row in rows:
        suits = GameCode.parse(row["code"]).suits
        for h in row.get("hints", []):
            h["chance"] = round(chance_of(chance_features(h["wins"], h["layouts"], h["roll_removed"], h["roll_down"],
                                                          h["down"], h["dealt"], h["runs"], suits), suits), 4)
    return rows


def calibration(rows: list[dict], groups: int = 10, resamples: int = 1000) -> list[dict]:
    """Positions grouped by predicted chance (tenths): the share whose game went on to win,
    how many games they come from, and the share's 95% interval by resampling the games
    (``resamples`` times, a fixed seed): the positions of one game share its one outcome, so
    the games, not the positions, are the independent draws."""
    hinted = [r for r in rows if r["player"] == "hint"]
    counts = np.zeros((len(hinted), groups))  # positions of game i in group g
    sums = np.zeros((len(hinted), groups))  # their predicted chances
    for i, r in enumerate(hinted):
        for h in r.get("hints", []):
            g = max(k for k in range(groups) if k / groups <= h["chance"])  # [k/groups, (k+1)/groups)
            counts[i, g] += 1
            sums[i, g] += h["chance"]
    won = np.array([float(r["won"]) for r in hinted])
    picks = np.random.default_rng(0).integers(0, len(hinted), size=(resamples, len(hinted)))
    table = []
    for g in range(groups):
        n = counts[:, g]
        if n.sum() == 0:
            continue
        drawn = n[picks].sum(axis=1)
        shares = np.sort(((n * won)[picks].sum(axis=1))[drawn > 0] / drawn[drawn > 0])
        table.append({"group": f"{g / groups:.1f}-{(g + 1) / groups:.1f}", "positions": int(n.sum()),
                      "games": int((n > 0).sum()), "predicted": round(float(sums[:, g].sum() / n.sum()), 3),
                      "won": round(float((n * won).sum() / n.sum()), 3),
                      "interval95": [round(float(np.quantile(shares, 0.025)), 3),
                                     round(float(np.quantile(shares, 0.975)), 3)]})
    return table


PLAYERS = [("player", "player", ""), ("games", "games", "int"), ("wins", "won", "int"), ("rate", "win rate", "%"),
           ("interval95", "95% interval", "%"), ("game_seconds_median", "game s median", ".1f"),
           ("hint_seconds_median", "hint s median", ".3f"), ("hint_seconds_p90", "hint s p90", ".3f"),
           ("hints", "hints", "int")]
CPU = [("positions", "positions", "int"), ("median", "hint CPU s median", ".3f"), ("p90", "p90", ".3f"),
       ("max", "max", ".3f")]
CALIBRATION = [("group", "predicted chance", ""), ("positions", "positions", "int"), ("games", "games", "int"),
               ("predicted", "mean predicted", ".3f"), ("won", "share won", ".3f"),
               ("interval95", "95% interval (games resampled)", ".3f")]


def tables(rows: list[dict]) -> dict:
    players = [{"player": player, **entry} for player, entry in summary(rows).items()]
    out = {"players": resultfile.table(PLAYERS, players)}
    table = calibration(rows)
    if table:
        out["calibration"] = resultfile.table(CALIBRATION, table)
    return out


def hint_cpu(rows: list[dict], sample: int, layouts: int, alternatives: int, seed: int) -> list[float]:
    """CPU seconds of the fair hint (one core, whatever else the machine does) at ``sample``
    positions spread evenly over the hint games' positions, each made again from its log."""
    from spider_solver.engine.fair_hint import fair_candidates

    positions = [(r["code"], h["at"]) for r in rows if r["player"] == "hint" for h in r["hints"]]
    step = max(1, len(positions) // sample)
    chosen: dict[str, list[int]] = {}
    for code, at in positions[::step][:sample]:
        chosen.setdefault(code, []).append(at)
    logs = {r["code"]: r["log"] for r in rows if r["player"] == "hint"}
    times = []
    for code, ats in chosen.items():
        for _, board, history, _ in positions_of(code, logs[code], ats):
            clock = time.process_time()
            fair_candidates(board, history, layouts=layouts, alternatives=alternatives, seed=seed)
            times.append(time.process_time() - clock)
    return times


def positions_of(code: str, log: list[str], ats: Iterable[int]) -> Iterator[tuple]:
    """The positions ``ats`` of a recorded game, in order, its log replayed once: ``(at, board,
    history, action)``, the board at position ``at`` (read it before the next), the view keys
    of the positions before it (:func:`~spider_solver.engine.fair_hint.view_of`) and the
    action played there."""
    from spider_solver.engine.fair_hint import view_of
    from spider_solver.rules import Board, Deal

    board = Board(Deal.from_code(code), undo_limit=0)
    history: list[int] = []
    wanted = set(ats)
    for at, action in enumerate(log):
        if at in wanted:
            yield at, board, history, action
        history.append(view_of(board)[1])
        board.push_notation(action)


def write(args: argparse.Namespace, rows: list[dict], layouts: int, alternatives: int, games: Path | None) -> None:
    """Write the result file of the games played so far (``rows``)."""
    resultfile.write(args, "bench_fair", tables(rows), layouts=layouts, alternatives=alternatives,
                     deals=f"{args.suits} suits {args.rule} {args.first}-{args.first + args.count - 1}",
                     games_file=os.path.relpath(games, resultfile.ROOT) if games else None)


def read_games(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--rule", default="classic")
    parser.add_argument("--first", type=int, default=900000)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--layouts", type=int)
    parser.add_argument("--alternatives", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", default="hint,planner,grader,casual")
    parser.add_argument("--stride", type=int, default=1,
                        help="a hint at every N-th position only, the planner alone between (fitting data; "
                             "its hint times are not a hint player's)")
    resultfile.add_out_option(parser, "fair-s{suits}")
    parser.add_argument("--games", help="append each game here as a JSON line (default: the result file's name, "
                                        "-games.jsonl)")
    parser.add_argument("--resume", action="store_true",
                        help="keep the games already in the --games file (an interrupted run with the same options "
                             "and deals) and play only the others")
    parser.add_argument("--calibration", nargs="+", metavar="GAMES",
                        help="print the calibration table of --games files (pooled: the positions of all their "
                             "hint games) and exit")
    parser.add_argument("--rechance", action="store_true",
                        help="with --calibration: each hint's chance computed again from its recorded figures by "
                             "the chance model of this checkout (a model fitted after the run); the games files stay "
                             "as they were played unless --write-back")
    parser.add_argument("--write-back", action="store_true",
                        help="with --rechance: write the chances computed again into the games files (not with "
                             "--calibration-out)")
    parser.add_argument("--calibration-out",
                        help="with --calibration: also write the table to this result file (its deals: --only's), "
                             "the calibration of a chance model on games it was not fitted on")
    parser.add_argument("--cpu", help="GAMES.jsonl: the CPU seconds of the hint at --sample positions of these "
                                       "games, each made again (one core, whatever the load), and exit")
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--only", type=resultfile.deal_range,
                        help="with --calibration: FIRST-LAST, only the games of these deal numbers (those the chance "
                             "model was not fitted on)")
    args = parser.parse_args()
    from spider_solver.rules import GameCode

    if args.cpu:
        from spider_solver.analysis.fair import FAIR_ALTERNATIVES, FAIR_LAYOUTS

        rows = read_games(Path(args.cpu))
        hint_cpu(rows, 2, FAIR_LAYOUTS, FAIR_ALTERNATIVES, args.seed)  # compiled or loaded first
        times = sorted(hint_cpu(rows, args.sample, FAIR_LAYOUTS, FAIR_ALTERNATIVES, args.seed))
        row = {"positions": len(times), "median": statistics.median(times),
               "p90": times[min(len(times) - 1, int(0.9 * len(times)))], "max": times[-1]}
        tab = resultfile.table(CPU, [row])
        resultfile.write(args, "bench_fair", {"hint_cpu": tab}, games_file=os.path.relpath(args.cpu, resultfile.ROOT))
        print(resultfile.markdown(tab))
        return
    if args.write_back and (not (args.calibration and args.rechance) or args.calibration_out):
        parser.error("--write-back goes with --calibration and --rechance, not with --calibration-out")
    if args.calibration:
        paths = resultfile.need_files(parser, args.calibration, "games file")
        rows = []
        for path in paths:
            read = read_games(path)
            if args.rechance:
                read = rechance(read)
                if args.write_back:
                    path.write_text("".join(json.dumps(row) + "\n" for row in read))
            rows += read
        low, high = args.only or (0, 2**35)
        codes = {r["code"]: GameCode.parse(r["code"]) for r in rows}
        held = [r for r in rows if low <= codes[r["code"]].number <= high and r["player"] == "hint"]
        twice = sorted(code for code, count in Counter(r["code"] for r in held).items() if count > 1)
        if twice:
            parser.error(f"the hint games of {len(twice)} deals are in the files more than once "
                         f"(a file given twice, or deals played again?): {', '.join(twice[:5])}"
                         f"{' ...' if len(twice) > 5 else ''}")
        print(f"{len(held)} hint games")
        tab = resultfile.table(CALIBRATION, calibration(held))
        print(resultfile.markdown(tab))
        if args.calibration_out and held:
            numbers = sorted(codes[r["code"]].number for r in held)
            code = codes[held[0]["code"]]
            args.out = args.calibration_out
            deals = f"{code.suits} suits {code.rule} {numbers[0]}-{numbers[-1]} ({len(held)} hint games)"
            resultfile.write(args, "bench_fair", {"calibration": tab}, rechance=args.rechance, deals=deals,
                             games_file=", ".join(os.path.relpath(path.resolve(), resultfile.ROOT) for path in paths))
        return
    from spider_solver.analysis.fair import FAIR_ALTERNATIVES, FAIR_LAYOUTS

    layouts = args.layouts or FAIR_LAYOUTS
    alternatives = FAIR_ALTERNATIVES if args.alternatives is None else args.alternatives
    codes = [str(GameCode(args.suits, args.rule, n)) for n in range(args.first, args.first + args.count)]
    players = args.players.split(",")
    jobs = [(p, c, layouts, alternatives, args.seed, args.stride) for c in codes for p in players]
    out = resultfile.out_path(args)
    games = Path(args.games) if args.games else (out.with_name(out.stem + "-games.jsonl") if out else None)
    rows: list[dict] = []
    if games is not None and args.resume and games.exists():
        wanted = {(p, c) for p, c, *_ in jobs}
        rows = [r for r in read_games(games) if (r["player"], r["code"]) in wanted]
        done = {(r["player"], r["code"]) for r in rows}
        jobs = [job for job in jobs if (job[0], job[1]) not in done]
        print(f"{len(rows)} games kept from {games}, {len(jobs)} to play", flush=True)
        games.write_text("".join(json.dumps(r) + "\n" for r in rows))
    elif games is not None:
        games.write_text("")
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(_play, job) for job in jobs]
        for future in as_completed(futures):
            row = future.result()
            rows.append(row)
            print(f"{row['player']:8} {row['code']} {'won ' if row['won'] else 'lost'} {row['actions']:4} actions "
                  f"{row['seconds']:8.1f} s", flush=True)
            if games is not None:
                with games.open("a") as f:
                    f.write(json.dumps(row) + "\n")
            write(args, rows, layouts, alternatives, games)
    if rows and not futures:  # everything was kept (--resume): the file written from the kept games
        write(args, rows, layouts, alternatives, games)
    for tab in tables(rows).values():
        print(resultfile.markdown(tab))


if __name__ == "__main__":
    main()
