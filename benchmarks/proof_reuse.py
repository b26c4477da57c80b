"""Proofs reused within an analysis: the lost_at bisection before and after, on the same games.

Usage::

    python benchmarks/proof_reuse.py --before ROWS.json... --after ROWS.json... [--alone]
                                     [--budget N] [--out results.json]

The ``ROWS.json`` files are what ``bench_analyze.py --parts b --player casual --max-seconds 0
--json ROWS.json`` wrote, on the same deals and budget, at a commit without the reuse
(``--before``) and at one with it (``--after``); a run may come in several files (one a
chunk of deals). The games compared are those of each set (deals of one suit count) whose
final position both runs proved unwinnable, with actions in effect.

Reported, per set and per game, before / after: ``lost_at`` found; the bracket (games with
a winnable side, and the median width in actions); whether the after bracket is narrower
or wider; the bisection's searches (its probes that spent nodes) and their nodes, and the
nodes saved (one minus after over before); the nodes each run spent until its bracket was
first as narrow as the one the run without the reuse ended with ("to the same bracket",
over the games where both got there: the bisections go different ways, since an answer
holds for a whole stretch and the final position's stretch is lost before any search:
spider_solver/analysis/lost.py); the analyses that ended within the node budget; the
median seconds of ``analyze`` (the machine's load changes them; nodes do not).

``--alone``: every search of the after runs that proved a position unwinnable, and every
one answered at once because its start was among the positions already proved lost, is
made again alone (a fresh session: no position known lost, the whole budget's share), so
that the nodes the positions proved lost saved are measured search by search (in all,
and over the proofs that the search alone makes too: the others count the share of the
budget the search alone spent in vain); the positions that a search alone leaves unknown
are listed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import resultfile  # noqa: E402
from bench_analyze import casual_play  # noqa: E402

SUMMARY = [("set", "set", ""), ("games", "lost games", "int"), ("found", "lost_at found", ""),
           ("bracketed", "with a bracket", ""), ("width_median", "bracket width median", ""),
           ("narrower", "narrower / wider after", ""), ("searches", "bisection searches", ""),
           ("nodes", "bisection nodes", "M1"), ("saved", "nodes saved", "%"),
           ("same_games", "games at the same bracket", "int"), ("same", "nodes to the same bracket", "M1"),
           ("same_saved", "saved to the same bracket", "%"), ("within", "analyses within the budget", ""),
           ("s_median", "analyze s median", ".1f")]
GAMES = [("code", "deal", ""), ("effective", "actions", "int"), ("stretch", "final stretch from", "int"),
         ("lost_at", "lost_at", ""), ("width", "bracket width", ""), ("searches", "searches", ""),
         ("nodes", "bisection nodes", "M1"), ("same", "nodes to the same bracket", "M1"),
         ("seconds", "analyze s", ".1f")]
ALONE = [("set", "set", ""), ("proofs", "proofs", "int"), ("at_once", "answered at once", "int"),
         ("reused", "nodes with the reuse", "M1"), ("alone", "nodes alone", "M1"), ("saved", "saved", "%"),
         ("both", "proofs alone too", "int"), ("both_nodes", "their nodes with / alone", "M1"),
         ("both_saved", "saved on them", "%"), ("unknown_alone", "unknown alone", "int")]
ONLY = [("code", "deal", ""), ("position", "after action", "int"), ("deals_left", "deals left", "int"),
        ("reused", "nodes with the reuse", "int"), ("alone", "nodes alone (unknown)", "int")]


def load_rows(paths: list[str]) -> dict[str, dict]:
    """The rows of ``paths`` (bench_analyze's ``--json`` files) by deal code."""
    rows: dict[str, dict] = {}
    for path in paths:
        for row in json.loads(Path(path).read_text(encoding="utf-8")):
            rows[row["code"]] = row
    return rows


def game_log(code: str, length: int) -> list[str]:
    """The casual player's log of ``code`` (``bench_analyze`` plays it again: the same seed)."""
    from spider_solver.rules import Deal

    log = casual_play(Deal.from_code(code), random.Random(f"bench_analyze {code}"))
    assert len(log) == length and "U" not in log, (code, len(log), length)
    return log


def stretch_start(code: str, length: int) -> int:
    """The first position of the final position's stretch (positions joined to it by moves
    back: lost before any search)."""
    from spider_solver.analysis.lost import Joined
    from spider_solver.rules import Deal

    log = game_log(code, length)
    return Joined.along(Deal.from_code(code), False, log).first[len(log)]


def narrowing(probes: list[dict], high: int) -> list[tuple[int, int | None]]:
    """(nodes so far, bracket width or None) after each probe, from ``high`` (the first position
    known lost before any search): a probe settles its positions ``first..last`` (the position
    alone in a row without them)."""
    low, spent, steps = -1, 0, []
    for probe in probes:
        spent += probe["nodes"]
        if probe["status"] == "verified":
            low = max(low, probe.get("last", probe["position"]))
        elif probe["status"] == "unwinnable":
            high = min(high, probe.get("first", probe["position"]))
        steps.append((spent, None if low < 0 else high - low))
    return steps


def to_width(steps: list[tuple[int, int | None]], width: int | None) -> int | None:
    """The nodes spent when the bracket was first at most ``width`` wide (None: never)."""
    if width is None:
        return None
    return next((spent for spent, now in steps if now is not None and now <= width), None)


def compare(before: dict[str, dict], after: dict[str, dict]) -> dict[str, list[dict]]:
    """The lost games of each set (deals of one suit count), each with its figures before and after."""
    sets: dict[str, list[dict]] = {}
    for code, row in before.items():
        old, new = row["lost"], after[code]["lost"]
        if old is None or old["status"] != "unwinnable" or not old["effective"]:
            continue
        # The final position is searched alike before and after (nothing is known lost yet).
        assert new["status"] == "unwinnable" and new["effective"] == old["effective"], code
        start = stretch_start(code, old["length"])
        game: dict = {"code": code, "effective": old["effective"], "stretch": start}
        for run, lost, high in (("before", old, old["effective"]), ("after", new, start)):
            game[run] = lost | {"steps": narrowing(lost["probes"], high),
                                "searches": sum(p["nodes"] > 0 for p in lost["probes"]),
                                "bisection": sum(p["nodes"] for p in lost["probes"])}
        for run in ("before", "after"):
            game[run]["same"] = to_width(game[run]["steps"], old["bracket"])
        sets.setdefault(code[:7], []).append(game)
    return sets


def set_name(games: list[dict]) -> str:
    from spider_solver.rules import Deal

    numbers = sorted(Deal.from_code(game["code"]).code.number for game in games)
    return f"{games[0]['code'][:7]} deals {numbers[0]}-{numbers[-1]}"


def _pair(games: list[dict], key: str) -> list:
    return [[game["before"][key], game["after"][key]] for game in games]


def _saved(before: float, after: float) -> float | None:
    return round(1 - after / before, 4) if before else None


def summary(games: list[dict], budget: int) -> dict:
    """One set's row: each figure before / after."""

    def both(figure) -> list:
        return [figure(game["before"]) for game in games], [figure(game["after"]) for game in games]

    def width(run: dict) -> float:
        return float("inf") if run["bracket"] is None else run["bracket"]

    row: dict = {"set": set_name(games), "games": len(games)}
    row["found"] = [sum(values) for values in both(lambda run: run["lost_at"] is not None)]
    row["bracketed"] = [sum(values) for values in both(lambda run: run["bracket"] is not None)]
    widths = both(lambda run: run["bracket"])
    row["width_median"] = [statistics.median([w for w in values if w is not None]) if any(
        w is not None for w in values) else None for values in widths]
    row["narrower"] = (f"{sum(width(g['after']) < width(g['before']) for g in games)} / "
                       f"{sum(width(g['after']) > width(g['before']) for g in games)}")
    row["searches"] = [sum(values) for values in both(lambda run: run["searches"])]
    row["nodes"] = [sum(values) for values in both(lambda run: run["bisection"])]
    row["saved"] = _saved(*row["nodes"])
    same = [game for game in games if game["before"]["same"] is not None and game["after"]["same"] is not None]
    row["same_games"] = len(same)
    row["same"] = [sum(game[run]["same"] for game in same) for run in ("before", "after")]
    row["same_saved"] = _saved(*row["same"])
    row["within"] = [sum(values) for values in both(lambda run: run["nodes"] < budget)]
    row["s_median"] = [round(statistics.median(values), 1) for values in both(lambda run: run["seconds"])]
    return row


def game_rows(games: list[dict]) -> list[dict]:
    return [{"code": game["code"], "effective": game["effective"], "stretch": game["stretch"],
             **{key: [game["before"][field], game["after"][field]] for key, field in
                (("lost_at", "lost_at"), ("width", "bracket"), ("searches", "searches"), ("nodes", "bisection"),
                 ("same", "same"))},
             "seconds": [round(game["before"]["seconds"], 1), round(game["after"]["seconds"], 1)]}
            for game in games]


def alone(games: list[dict], budget: int, only: list[dict]) -> dict:
    """Each proof of the after runs (and each answer given at once from the positions known
    lost) made again by a fresh session, nothing known lost; the proofs that search leaves
    unknown are added to ``only``."""
    from spider_solver.analysis import AnalysisOptions
    from spider_solver.analysis.lost import _probe_share
    from spider_solver.analysis.search import Session
    from spider_solver.outcomes import Status
    from spider_solver.rules import Deal

    proofs = at_once = reused = spent = unknown = both = 0
    both_nodes = [0, 0]
    for game in games:
        deal = Deal.from_code(game["code"])
        log = game_log(game["code"], game["after"]["length"])
        for probe in game["after"]["probes"]:
            if probe["status"] != "unwinnable":
                continue
            session = Session(deal, AnalysisOptions(max_nodes=budget, max_seconds=None), time.perf_counter())
            board = session.board_after(log[: probe["position"]])
            found = session.search(board, log[: probe["position"]], 0, _probe_share(board))
            proofs += 1
            at_once += probe["nodes"] == 0
            reused += probe["nodes"]
            spent += session.nodes
            if found.status is Status.UNWINNABLE:
                both += 1
                both_nodes[0] += probe["nodes"]
                both_nodes[1] += session.nodes
            else:
                unknown += 1
                only.append({"code": game["code"], "position": probe["position"], "deals_left": probe["deals_left"],
                             "reused": probe["nodes"], "alone": session.nodes})
            print(f"{game['code']} after {probe['position']}: {probe['nodes']:,} nodes with the reuse, "
                  f"{session.nodes:,} alone ({found.status})", file=sys.stderr, flush=True)
    return {"set": set_name(games), "proofs": proofs, "at_once": at_once, "reused": reused, "alone": spent,
            "saved": _saved(spent, reused), "both": both, "both_nodes": both_nodes,
            "both_saved": _saved(both_nodes[1], both_nodes[0]), "unknown_alone": unknown}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", nargs="+", required=True, help="Rows of the runs without the reuse.")
    parser.add_argument("--after", nargs="+", required=True, help="Rows of the runs with it, on the same deals.")
    parser.add_argument("--alone", action="store_true", help="Make each proof of the after runs again alone.")
    parser.add_argument("--budget", type=int, default=None, help="The analyses' node budget (default: analyze's).")
    resultfile.add_out_option(parser, "proof-reuse")
    args = parser.parse_args()
    if args.budget is None:
        from spider_solver.limits import INTERACTIVE_MAX_NODES

        args.budget = INTERACTIVE_MAX_NODES
    sets = compare(load_rows(args.before), load_rows(args.after))
    order = sorted(sets, key=lambda name: (-int(name[5]), name))  # 4 suits first
    tables = {"summary": resultfile.table(SUMMARY, [summary(sets[name], args.budget) for name in order]),
              "games": resultfile.table(GAMES, [row for name in order for row in game_rows(sets[name])])}
    if args.alone:
        from spider_solver.verify import load_engine

        load_engine()
        only: list[dict] = []
        tables["alone"] = resultfile.table(ALONE, [alone(sets[name], args.budget, only) for name in order])
        tables["only_with_reuse"] = resultfile.table(ONLY, only)
    for tab in tables.values():
        print("\n" + resultfile.markdown(tab))
    resultfile.write(args, "proof_reuse", tables, budget={"max_nodes": args.budget, "max_seconds": None})


if __name__ == "__main__":
    main()
