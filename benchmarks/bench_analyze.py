"""Games in progress: hints, "still winnable?" and lost_at on real deals; prints Markdown tables.

Usage::

    python benchmarks/bench_analyze.py [--suits 4] [--first 200] [--count 100] [--workers 2]
                                       [--parts abc] [--lost-count N] [--reach-count N] [--follow-count N]
                                       [--max-nodes N] [--max-seconds S] [--recheck-nodes N]
                                       [--out results.json] [--json rows.json]

Parts (``--parts``, any of ``abcde``):

(a) hints: each deal is solved (its verified line stands for the catalog's), then
    ``analyze`` runs, without the line, on the positions after 20, 60 and 100 actions
    of the line and after 1 to 5 random legal actions (deals included) played from
    each of them. Reported: the share with a hint among the positions not proved
    unwinnable (a detour can lose the game), the outcomes, median / p90 / max seconds.
    ``--recheck-nodes N`` analyses the unknown positions again with N nodes, so that
    the share can be given among the positions known to be winnable.
(b) lost games: a log of play until stuck, on each of the first ``--lost-count`` deals; ``analyze`` with the
    default budget looks for ``lost_at``. ``--player random``: random legal actions, never
    back to a position already seen in the game, until none is left; ``--player casual``:
    a player who sees only the face-up cards (:func:`casual_play`). At most 1000 actions.
    Reported: the share proved unwinnable, the share with ``lost_at`` found and with a
    bracket (and its median width), median seconds to find it, median seconds of all; and
    the bisection's searches by deals left, with the share decided.
(c) the cheap hint: ``analyze(..., known_line=line)`` on the positions of (a) without
    detours, and after a detour undone; median and max milliseconds, the replay of the
    log included, and the share answered from the line.
(d) how far proofs reach: logs of the line's first 50%, 75% and 90% followed by random
    play until stuck, on the first ``--reach-count`` deals; positions of their last
    part with at most one deal left are analysed at the budget, and those not verified
    are searched again by the exhaustive search alone (no beam) with the budget's
    nodes. Reported by deals left and cards in play: verified, proved unwinnable (and
    the nodes), unknown; and whether the exhaustive search alone proves, gives up (a
    level over the largest it may hold, see beam.proof_limits) or runs out of nodes.
(e) following hints: from a casual player's log (:func:`casual_play`) cut at a quarter of
    its length, and from the position after 60 actions of the line and ``FOLLOW_DETOUR``
    random actions off it, the hint of each position is played until there is none (at
    most ``MAX_FOLLOW``), each hint by ``analyze`` at the budget without ``lost_at``.
    Reported: the starts, how many were won, the hints played (median, max), the hints
    that led back to a position the game had been in (none when hints never cycle; a
    random detour that comes back by itself is not counted), the median seconds of a hint.

The tables are printed and written to the result file ``--out`` (default
``benchmarks/results/analyze-s{suits}.json``). Each deal's work runs in one of
``--workers`` single-threaded processes (so each figure is "on one core"), after the worker has
loaded the compiled engine.

Report on deals the engine was not tuned on: the evaluation was tuned on deals
10000-10199 (benchmarks/tune.py), the analysis constants (EARLY_PROOF_*, LOST_AT_SHARE)
on deals 10000-10019, LOST_AT_LAST_DEAL_SHARE and the proof's reductions on the casual
player's games of deals 400-429; the reporting set of this script is deals 200-299, and
500 on for the casual player's lost games.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import resultfile

#: Positions of the verified line that (a) and (c) start from.
AT = (20, 60, 100)
#: Random actions played off the line in (a).
DETOURS = (0, 1, 2, 3, 4, 5)
#: Longest random log of (b) and (d).
MAX_RANDOM = 1000
#: Fractions of the line that (d) plays before the random play.
REACH_PREFIX = (0.5, 0.75, 0.9)
#: Positions (d) takes from each log's last part.
REACH_POSITIONS = 3
#: (e): the most hints followed from one start, and the random actions off the line of its second start.
MAX_FOLLOW = 600
FOLLOW_DETOUR = 3


def _warm_up() -> None:
    from spider_solver.verify import load_engine

    load_engine()


def _key(board) -> tuple:
    return tuple(tuple(column) for column in board.columns), tuple(board.down), board.dealt


def random_play(deal, prefix, rng: random.Random) -> list[str]:
    """The prefix, then random legal actions never back to a position seen, until none is left."""
    from spider_solver.rules import Board

    board = Board(deal, undo_limit=None)
    for action in prefix:
        board.push_notation(action)
    seen = {_key(board)}
    log = list(prefix)
    while len(log) < MAX_RANDOM and not board.is_won():
        actions = board.legal_moves()
        rng.shuffle(actions)
        if not _play_first_new(board, actions, seen, log):
            break
    return log


def _detour(board, log: list[str], steps: int, rng: random.Random) -> None:
    """Play up to ``steps`` random legal actions on ``board``, adding them to ``log`` (fewer if
    the game is won or stuck first)."""
    for _ in range(steps):
        actions = board.legal_moves()
        if not actions or board.is_won():
            return
        action = rng.choice(actions)
        log.append(board.notation(action))
        board.push(action)


def _play_first_new(board, actions, seen: set, log: list[str]) -> bool:
    """Play the first of ``actions`` that leads to a position not in ``seen`` (adding it
    there and its notation to ``log``); False if every one leads back."""
    for action in actions:
        text = board.notation(action)
        board.push(action)
        if _key(board) not in seen:
            seen.add(_key(board))
            log.append(text)
            return True
        board.pop()
    return False


def _casual_score(board, action) -> int:
    """How useful ``action`` looks to a player who sees only the face-up cards (0: not useful).

    Building on a card of the same suit, turning up a face-down card and emptying a column
    count; a move between cards of different suits counts only if it turns a card up or
    empties a column; the deal is never scored (the player deals when nothing is useful).
    """
    from spider_solver.rules.notation import Move

    if not isinstance(action, Move):
        return 0
    src, dst = board.columns[action.src - 1], board.columns[action.dst - 1]
    count = action.count or 1
    first = src[len(src) - count]
    turns_up = board.down[action.src - 1] == len(src) - count and len(src) > count
    empties = count == len(src)
    if not dst:
        # Into an empty column: worth it only to turn a card up.
        return 3 if turns_up else 0
    score = 0
    if dst[-1].suit == first.suit:
        below = src[len(src) - count - 1] if len(src) > count else None
        # A same-suit build, unless the group already lay on a same-suit card one higher (a lateral move).
        if not (below is not None and len(src) - count > board.down[action.src - 1] and below.suit == first.suit
                and below.rank == first.rank + 1):
            score += 4
    if turns_up:
        score += 5
    if empties:
        score += 2
    return score


def casual_play(deal, rng: random.Random) -> list[str]:
    """A casual player's log: the most useful-looking action (``_casual_score``, ties at random)
    that does not go back to a position seen in the game; the deal when nothing useful is left;
    any other new action when the deal is refused (an empty column); stops when stuck or won
    (at most MAX_RANDOM actions)."""
    from spider_solver.rules import Board
    from spider_solver.rules.notation import Move

    board = Board(deal, undo_limit=None)
    seen = {_key(board)}
    log: list[str] = []
    while len(log) < MAX_RANDOM and not board.is_won():
        actions = board.legal_moves()
        rng.shuffle(actions)
        scored = sorted(actions, key=lambda a: -_casual_score(board, a))
        useful = [a for a in scored if _casual_score(board, a) > 0]
        deals = [a for a in actions if not isinstance(a, Move)]
        rest = [a for a in scored if _casual_score(board, a) == 0 and isinstance(a, Move)]
        if not _play_first_new(board, useful + deals + rest, seen, log):
            break
    return log


def _board(deal, actions):
    from spider_solver.rules import Board

    board = Board(deal, undo_limit=0)
    for action in actions:
        board.push_notation(action)
    return board


def _deal_work(args: tuple) -> dict:
    from spider_solver.analysis import analyze
    from spider_solver.budget import Budget
    from spider_solver.engine.beam import Exhaustive, beam, proof_limits
    from spider_solver.engine.game import Game
    from spider_solver.rules import Board, Deal, GameCode
    from spider_solver.verify import solve

    suits, number, parts, lost, reach, max_nodes, max_seconds, recheck, player = args
    deal = Deal.from_code(GameCode(suits, "classic", number))
    code = str(deal.code)
    row: dict = {"code": code, "hints": [], "cheap": [], "lost": None, "reach": [], "follow": []}
    budget = {"max_nodes": max_nodes, "max_seconds": max_seconds}
    need_line = any(p in parts for p in "acde")
    # The line is the solve's (its own default budget); the analyses get ``budget``.
    line = solve(deal).solution if need_line else ()
    rng = random.Random(f"bench_analyze {code}")
    if "a" in parts and line:
        for at in AT:
            if at >= len(line):
                continue
            for detour in DETOURS:
                board = Board(deal)
                log = list(line[:at])
                for a in log:
                    board.push_notation(a)
                _detour(board, log, detour, rng)
                started = time.perf_counter()
                result = analyze(deal, log, find_lost_at=False, **budget)
                entry = {"at": at, "detour": detour, "status": str(result.status), "reason": str(result.reason),
                         "nodes": result.nodes, "seconds": time.perf_counter() - started, "hint": result.hint,
                         "log": log[at:] if result.status != "verified" else None}
                if result.status == "unknown" and recheck:
                    again = analyze(deal, log, find_lost_at=False, max_nodes=recheck, max_seconds=None)
                    entry["recheck"] = {"status": str(again.status), "reason": str(again.reason),
                                        "nodes": again.nodes}
                row["hints"].append(entry)
    if "c" in parts and line:
        for at in AT:
            if at >= len(line):
                continue
            board = Board(deal)
            for a in line[:at]:
                board.push_notation(a)
            other = next((board.notation(a) for a in board.legal_moves() if board.notation(a) != line[at]), None)
            logs = [list(line[:at])] + ([[*line[:at], other, "U"]] if other else [])
            for log in logs:
                started = time.perf_counter()
                result = analyze(deal, log, known_line=line, **budget)
                row["cheap"].append({"at": at, "undo": len(log) > at, "source": result.source,
                                     "seconds": time.perf_counter() - started})
    if "b" in parts and lost:
        log = casual_play(deal, rng) if player == "casual" else random_play(deal, (), rng)
        started = time.perf_counter()
        result = analyze(deal, log, **budget)
        seconds = time.perf_counter() - started
        probes = [p.to_dict() | {"deals_left": deal.variant.deals - log[: p.position].count("D"),
                                 "cards": Game.from_board(_board(deal, log[: p.position])).start_cards}
                  for p in result.probes]
        row["lost"] = {"length": len(log), "status": str(result.status), "reason": str(result.reason),
                       "lost_at": result.lost_at, "effective": result.effective, "nodes": result.nodes,
                       "seconds": seconds, "probes": probes,
                       "bracket": _bracket_width(result)}
    if "d" in parts and reach and line:
        for fraction in REACH_PREFIX:
            prefix = line[: int(len(line) * fraction)]
            log = random_play(deal, prefix, rng)
            late = []
            board = Board(deal, undo_limit=0)
            for i, action in enumerate(log):
                board.push_notation(action)
                if i + 1 > len(prefix) and board.deals_left <= 1 and not board.is_won():
                    late.append(i + 1)
            picks = sorted({late[int(k * (len(late) - 1) / max(1, REACH_POSITIONS - 1))]
                            for k in range(REACH_POSITIONS)}) if late else []
            for i in picks:
                board = Board(deal, undo_limit=0)
                for action in log[:i]:
                    board.push_notation(action)
                game = Game.from_board(board)
                started = time.perf_counter()
                result = analyze(deal, log[:i], find_lost_at=False, **budget)
                entry = {"prefix": fraction, "position": i, "deals_left": board.deals_left, "cards": game.start_cards,
                         "status": str(result.status), "reason": str(result.reason), "nodes": result.nodes,
                         "seconds": time.perf_counter() - started}
                if result.status != "verified":
                    attempt = beam(game, Exhaustive(every_action=True), Budget(max_nodes, None))
                    entry["proof"] = {"outcome": str(attempt.outcome), "nodes": attempt.nodes,
                                      "peak_level": attempt.peak_level, "levels": attempt.levels,
                                      "limit": proof_limits(max_nodes)[0]}
                row["reach"].append(entry)
    if "e" in parts:
        casual = casual_play(deal, random.Random(f"bench_analyze casual {code}"))
        starts = [("casual, 25%", casual[: len(casual) // 4])]
        if len(line) > 60:
            board, log = _board(deal, line[:60]), list(line[:60])
            _detour(board, log, FOLLOW_DETOUR, rng)
            starts.append((f"line 60 + {FOLLOW_DETOUR} off", log))
        for kind, log in starts:
            row["follow"].append(dict(follow_hints(deal, log, budget), start=kind, log=len(log)))
    return row


def probed(rows: list[dict], deals_left: int | None, wanted) -> list[tuple[str, int]]:
    """(code, position) of each search of the bisections in ``rows`` (what ``--json`` wrote
    with part b) that ``wanted(probe)`` keeps, with ``deals_left`` deals left in the stock
    (None: any), each once, in the file's order."""
    found: dict[tuple[str, int], None] = {}
    for row in rows:
        for probe in (row.get("lost") or {}).get("probes", []):
            if wanted(probe) and (deals_left is None or probe["deals_left"] == deals_left):
                found[row["code"], probe["position"]] = None
    return list(found)


def _median_or_none(values: list) -> float | None:
    return median(values) if values else None


def _bracket_width(result) -> int | None:
    """The width of the analysis's bracket in actions (None without one)."""
    bracket = getattr(result, "bracket", None)
    return None if bracket is None else bracket.width


def follow_hints(deal, log: list[str], budget: dict) -> dict:
    """Play the hint of each position from ``log``'s on until there is none (at most MAX_FOLLOW):
    the outcome, the hints played, how many led back to a position seen, the seconds of each hint."""
    from spider_solver.analysis import analyze

    log = list(log)
    board = _board(deal, [])
    path = {_key(board)}  # the positions of the game (the logs here have no undo)
    for action in log:
        board.push_notation(action)
        path.add(_key(board))
    back = 0
    seconds: list[float] = []
    for _ in range(MAX_FOLLOW):
        started = time.perf_counter()
        result = analyze(deal, log, find_lost_at=False, **budget)
        seconds.append(time.perf_counter() - started)
        if result.hint is None:
            break
        log.append(result.hint)
        board.push_notation(result.hint)
        back += _key(board) in path
        path.add(_key(board))
    return {"won": board.is_won(), "status": str(result.status), "reason": str(result.reason),
            "hints": len(seconds) - (result.hint is None), "repeats": back,
            "s_median": median(seconds), "s_max": max(seconds)}


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


#: The tables of a run: name -> (key, label, format) as resultfile.markdown shows them.
COLUMNS = {
    "hints": [("positions", "positions", ""), ("count", "of", "int"), ("verified", "verified", "int"),
              ("unwinnable", "unwinnable", "int"), ("unknown", "unknown", "int"),
              ("share", "hint share of the not unwinnable", "%"), ("s_median", "s median", ".3f"),
              ("s_p90", "s p90", ".3f"), ("s_max", "s max", ".2f"), ("nodes_median", "nodes median", "k")],
    "known_line": [("set", "set", ""), ("positions", "positions", "int"),
                   ("from_line", "answered from the line", "int"),
                   ("ms_median", "ms median", ".1f"), ("ms_p90", "ms p90", ".1f"), ("ms_max", "ms max", ".1f")],
    "lost": [("set", "set", ""), ("logs", "logs", "int"), ("unwinnable", "proved unwinnable", "int"),
             ("found", "lost_at found", "int"), ("bracketed", "bracket", "int"),
             ("width_median", "bracket width median", ""), ("s_found_median", "s median to find lost_at", ".2f"),
             ("s_found_p90", "s p90 (found)", ".2f"), ("s_median", "s median (all)", ".2f"),
             ("s_max", "s max (all)", ".1f")],
    "probes": [("deals_left", "deals left", ""), ("searches", "searches", "int"), ("verified", "verified", "int"),
               ("proved", "proved unwinnable", "int"), ("unknown", "unknown", "int"),
               ("decided", "decided", "%"), ("gave_up", "of them proof gave up", "int"),
               ("proof_nodes", "proof nodes median / max", "k")],
    "reach": [("deals_left", "deals left", ""), ("cards", "cards in play", ""), ("positions", "positions", "int"),
              ("verified", "verified", "int"), ("proved", "proved unwinnable", "int"), ("unknown", "unknown", "int"),
              ("proof_nodes", "proof nodes median / max", "k"),
              ("alone", "exhaustive alone: proved / gave up / out of nodes", "int"),
              ("gave_up_nodes", "nodes when it gave up", "M1")],
    "follow": [("start", "start", ""), ("starts", "starts", "int"), ("won", "won", "int"),
               ("ended", "ended without a hint", "int"), ("cut", f"cut at {MAX_FOLLOW} hints", "int"),
               ("hints_median", "hints median", ""), ("hints_max", "hints max", "int"),
               ("repeats", "hints back to a position seen", "int"), ("s_median", "s median a hint", ".3f")],
}


def _nodes(nodes: list[int]) -> list[float] | None:
    """``[median, max]`` of some node counts, or None when there are none."""
    return [median(nodes), max(nodes)] if nodes else None


def report(rows: list[dict], name: str) -> dict[str, dict]:
    """Print the tables of a run and return them (resultfile tables, by name)."""
    tables: dict[str, list[dict]] = {}
    hints = [h for r in rows for h in r["hints"]]
    if hints:
        groups = [("all", hints), ("on the line", [h for h in hints if h["detour"] == 0]),
                  ("1-5 off the line", [h for h in hints if h["detour"] > 0])]
        groups += [(f"after {at}", [h for h in hints if h["at"] == at]) for at in AT]
        tables["hints"] = []
        for label, group in groups:
            if not group:
                continue
            verified = sum(h["status"] == "verified" for h in group)
            unwinnable = sum(h["status"] == "unwinnable" for h in group)
            seconds = [h["seconds"] for h in group]
            tables["hints"].append({
                "positions": f"{name}, {label}", "count": len(group), "verified": verified, "unwinnable": unwinnable,
                "unknown": len(group) - verified - unwinnable,
                "share": round(verified / max(1, len(group) - unwinnable), 4),
                "s_median": round(median(seconds), 4), "s_p90": round(percentile(seconds, 0.9), 4),
                "s_max": round(max(seconds), 3), "nodes_median": median([h["nodes"] for h in group])})
    cheap = [c for r in rows for c in r["cheap"]]
    if cheap:
        ms = [1000 * c["seconds"] for c in cheap]
        tables["known_line"] = [{"set": name, "positions": len(cheap),
                                 "from_line": sum(c["source"] == "known-line" for c in cheap),
                                 "ms_median": round(median(ms), 2), "ms_p90": round(percentile(ms, 0.9), 2),
                                 "ms_max": round(max(ms), 2)}]
    lost = [r["lost"] for r in rows if r["lost"] is not None]
    if lost:
        unwinnable = [g for g in lost if g["status"] == "unwinnable"]
        found = [g for g in unwinnable if g["lost_at"] is not None]
        tables["lost"] = [{"set": name, "logs": len(lost), "length_median": median([g["length"] for g in lost]),
                           "unwinnable": len(unwinnable), "found": len(found),
                           "bracketed": sum(g.get("bracket") is not None for g in unwinnable),
                           "width_median": _median_or_none([g["bracket"] for g in unwinnable
                                                            if g.get("bracket") is not None]),
                           "s_found_median": round(median([g["seconds"] for g in found]), 3) if found else None,
                           "s_found_p90": round(percentile([g["seconds"] for g in found], 0.9), 3) if found else None,
                           "s_median": round(median([g["seconds"] for g in lost]), 3),
                           "s_max": round(max(g["seconds"] for g in lost), 2),
                           "verified": sum(g["status"] == "verified" for g in lost),
                           "unknown": sum(g["status"] == "unknown" for g in lost)}]
        probes = [p for g in lost for p in g["probes"]]
        tables["probes"] = []
        for left in sorted({p["deals_left"] for p in probes}):
            group = [p for p in probes if p["deals_left"] == left]
            proved = [p["nodes"] for p in group if p["status"] == "unwinnable"]
            unknown = [p for p in group if p["status"] == "unknown"]
            tables["probes"].append({
                "deals_left": left, "searches": len(group), "verified": sum(p["status"] == "verified" for p in group),
                "proved": len(proved), "unknown": len(unknown), "decided": round(1 - len(unknown) / len(group), 4),
                "gave_up": sum(p["reason"] == "proof-gave-up" for p in unknown), "proof_nodes": _nodes(proved),
                "cards_median": median([p["cards"] for p in group])})
    reach = [p for r in rows for p in r["reach"]]
    if reach:
        tables["reach"] = []
        for left in (0, 1):
            for low, high in ((1, 52), (53, 78), (79, 104)):
                group = [p for p in reach if p["deals_left"] == left and low <= p["cards"] <= high]
                if not group:
                    continue
                proved = [p["nodes"] for p in group if p["status"] == "unwinnable"]
                alone = [p["proof"] for p in group if "proof" in p]
                cut = [q["nodes"] for q in alone if q["outcome"] == "cut"]
                tables["reach"].append({
                    "deals_left": left, "cards": f"{low}-{high}", "positions": len(group),
                    "verified": sum(p["status"] == "verified" for p in group), "proved": len(proved),
                    "unknown": sum(p["status"] == "unknown" for p in group), "proof_nodes": _nodes(proved),
                    "alone": [sum(q["outcome"] == "exhausted" for q in alone), len(cut),
                              sum(q["outcome"] == "nodes" for q in alone)],
                    "gave_up_nodes": median(cut) if cut else None})
    follow = [f for r in rows for f in r["follow"]]
    if follow:
        tables["follow"] = []
        for kind in dict.fromkeys(f["start"] for f in follow):
            group = [f for f in follow if f["start"] == kind]
            tables["follow"].append({
                "start": kind, "starts": len(group), "won": sum(f["won"] for f in group),
                "ended": sum(not f["won"] and f["hints"] < MAX_FOLLOW for f in group),
                "cut": sum(f["hints"] >= MAX_FOLLOW for f in group),
                "hints_median": median([f["hints"] for f in group]), "hints_max": max(f["hints"] for f in group),
                "repeats": sum(f["repeats"] for f in group),
                "s_median": round(median([f["s_median"] for f in group]), 4)})
    made = {key: resultfile.table(COLUMNS[key], value) for key, value in tables.items()}
    titles = {"hints": "(a) hints: positions after 20 / 60 / 100 actions of the verified line, 0-5 random actions "
                       "off it",
              "known_line": "(c) the hint from the stored line (on the line, and after a detour undone)",
              "lost": "(b) play until stuck: lost_at and the bracket",
              "probes": "(b) the searches of the bisections, by deals left in the stock",
              "reach": "(d) late positions with at most one deal left: analyze, then the exhaustive search alone",
              "follow": "(e) following hints until there is none"}
    for key, tab in made.items():
        print(f"\n{titles[key]}\n\n{resultfile.markdown(tab)}")
    unknown = [f"{r['code']}@{h['at']}+{h['detour']} ({h['reason']}"
               + (f"; at {h['recheck']['nodes'] / 1e6:.0f}M nodes {h['recheck']['status']})" if "recheck" in h
                  else ")")
               for r in rows for h in r["hints"] if h["status"] == "unknown"]
    if unknown:
        print("\nunknown (position after N actions of the line + M off it):", " ".join(unknown))
    rechecked = [h for h in hints if "recheck" in h]
    if rechecked:
        verified = sum(h["status"] == "verified" for h in hints)
        later = sum(h["recheck"]["status"] == "verified" for h in rechecked)
        proved = sum(h["recheck"]["status"] == "unwinnable" for h in rechecked)
        print(f"\nRechecked with a larger budget, {len(rechecked)} unknown positions: {later} won, "
              f"{proved} proved unwinnable, {len(rechecked) - later - proved} still unknown. Among the "
              f"{verified + later} positions known to be winnable, {verified} "
              f"({100 * verified / max(1, verified + later):.1f}%) got a hint at the default budget.")
    return made


def main() -> None:
    from spider_solver.verify import INTERACTIVE_MAX_NODES, INTERACTIVE_MAX_SECONDS

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--first", type=int, default=200)
    parser.add_argument("--count", type=int, default=100, help="Deals of parts (a) and (c).")
    parser.add_argument("--lost-count", type=int, default=None, help="Deals of part (b) (default: --count).")
    parser.add_argument("--reach-count", type=int, default=10, help="Deals of part (d).")
    parser.add_argument("--follow-count", type=int, default=10, help="Deals of part (e).")
    parser.add_argument("--parts", default="abc")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-nodes", type=int, default=INTERACTIVE_MAX_NODES,
                        help="Budget of each analysis (default: analyze's own).")
    parser.add_argument("--max-seconds", type=float, default=INTERACTIVE_MAX_SECONDS)
    parser.add_argument("--recheck-nodes", type=int, default=0,
                        help="(a): analyse the unknown positions again with this many nodes and no time limit.")
    parser.add_argument("--player", choices=("random", "casual"), default="random",
                        help="(b): who plays the lost games: random legal play, or a casual player.")
    parser.add_argument("--json", help="Write every deal's figures to this file.")
    resultfile.add_out_option(parser, "analyze-s{suits}")
    args = parser.parse_args()

    lost_count = args.count if args.lost_count is None else args.lost_count
    count = max(args.count if set("ac") & set(args.parts) else 0, lost_count if "b" in args.parts else 0,
                args.reach_count if "d" in args.parts else 0, args.follow_count if "e" in args.parts else 0)
    tasks = []
    for k in range(count):
        parts = "".join(p for p in args.parts if (p in "ac" and k < args.count) or (p == "b" and k < lost_count)
                        or (p == "d" and k < args.reach_count) or (p == "e" and k < args.follow_count))
        tasks.append((args.suits, args.first + k, parts, "b" in parts, "d" in parts, args.max_nodes,
                      args.max_seconds or None, args.recheck_nodes, args.player))
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers, initializer=_warm_up) as pool:
        rows = list(pool.map(_deal_work, tasks))
    wall = time.perf_counter() - started
    name = f"SP1-S{args.suits}C deals {args.first}-{args.first + count - 1}"
    tables = report(rows, name)
    print(f"\nbudget: {args.max_nodes:,} nodes, {args.max_seconds} s; {args.workers} workers; wall {wall:.0f} s; "
          f"cpu count {os.cpu_count()}")
    resultfile.write(args, "bench_analyze", tables,
                     budget={"max_nodes": args.max_nodes, "max_seconds": args.max_seconds},
                     workers=args.workers, wall_seconds=round(wall, 1))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=1)


if __name__ == "__main__":
    main()
