"""The exhaustive proof on the same positions three ways: ``all``, ``MODE_ALL`` (every
legal action); ``renames``, ``MODE_PROOF`` without the search's reductions (every legal
action less the moves that only rename columns once the stock is empty); ``proof``, what
the solver runs: ``MODE_PROOF`` with the reductions (``search``, "Reductions": commuting
moves in one order, the same cards never moved on again). Prints a Markdown table and
writes a result file.

Usage::

    python benchmarks/proof_reductions.py ROWS.json [--max-nodes 15000000] [--deals-left 0]
                                          [--positions 200]

``ROWS.json`` is what ``bench_analyze.py --parts b --player casual --json`` wrote: its
games are played again (the casual player is deterministic for a deal) and the positions
its bisections searched without verifying them (proved unwinnable or unknown), with
``--deals-left`` deals left in the stock (default: any), are searched again, each on
``--max-nodes`` nodes (no time limit), each of the three ways. Reported per position:
deals left, empty columns, each search's outcome, nodes and largest level; per way: the
positions proved, won and still open, the nodes and keys on the positions all three
proved, the seconds, and the process's largest size after its searches (what bounds
the memory of any one search).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import resultfile  # noqa: E402
from bench_analyze import _board, casual_play, probed  # noqa: E402

SEARCHES = ("all", "renames", "proof")
COLUMNS = [("code", "deal", ""), ("position", "position", "int"), ("deals_left", "deals left", "int"),
           ("empty", "empty columns", "int"),
           *[(name, f"{name}: outcome nodes", "") for name in SEARCHES],
           *[(name + "_peak", f"{name}: largest level", "int") for name in SEARCHES],
           *[(name + "_seconds", f"{name}: seconds", ".2f") for name in SEARCHES]]
SUMMARY = [("search", "move set", ""), ("proved", "proved", "int"), ("won", "won", "int"),
           ("open", "neither", "int"), ("nodes_common", "nodes on the positions all proved", "int"),
           ("keys_common", "keys on the positions all proved", "int"), ("seconds", "seconds", ".1f"),
           ("max_rss_mb", "largest process size so far, MB", "int")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows")
    parser.add_argument("--max-nodes", type=int, default=15_000_000)
    parser.add_argument("--deals-left", type=int, default=None)
    parser.add_argument("--positions", type=int, default=200)
    resultfile.add_out_option(parser, "proof-reductions")
    args = parser.parse_args()
    from spider_solver.budget import Budget
    from spider_solver.engine.beam import Exhaustive, beam
    from spider_solver.engine.game import Game
    from spider_solver.rules import Deal

    searches = {"all": Exhaustive(every_action=True, reductions=False),
                "renames": Exhaustive(reductions=False), "proof": Exhaustive(reductions=True)}
    rss = dict.fromkeys(SEARCHES, 0)
    with open(args.rows) as handle:
        saved = json.load(handle)
    picks = sorted(probed(saved, args.deals_left,
                          lambda probe: probe["status"] != "verified" and probe["source"] != "known-line"))
    picks = picks[: args.positions]
    rows, seconds = [], dict.fromkeys(SEARCHES, 0.0)
    logs: dict[str, list[str]] = {}
    for code, position in picks:
        deal = Deal.from_code(code)
        if code not in logs:
            logs[code] = casual_play(deal, random.Random(f"bench_analyze {code}"))
        board = _board(deal, logs[code][:position])
        game = Game.from_board(board)
        row = {"code": code, "position": position, "deals_left": board.deals_left,
               "empty": sum(not column for column in board.columns)}
        for name in SEARCHES:
            started = time.perf_counter()
            attempt = beam(game, searches[name], Budget(args.max_nodes, None))
            seconds[name] += time.perf_counter() - started
            rss[name] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
            row[name] = f"{attempt.outcome} {attempt.nodes}"
            row[name + "_outcome"], row[name + "_nodes"] = str(attempt.outcome), attempt.nodes
            row[name + "_keys"], row[name + "_peak"] = attempt.tt_stored, attempt.peak_level
            row[name + "_seconds"] = round(time.perf_counter() - started, 3)
        rows.append(row)
        print(row, flush=True)
    common = [r for r in rows if all(r[n + "_outcome"] == "exhausted" for n in SEARCHES)]
    summary = [{"search": name, "proved": sum(r[name + "_outcome"] == "exhausted" for r in rows),
                "won": sum(r[name + "_outcome"] == "won" for r in rows),
                "open": sum(r[name + "_outcome"] not in ("exhausted", "won") for r in rows),
                "nodes_common": sum(r[name + "_nodes"] for r in common),
                "keys_common": sum(r[name + "_keys"] for r in common), "seconds": round(seconds[name], 1),
                "max_rss_mb": rss[name]}
               for name in SEARCHES]
    tables = {"positions": resultfile.table(COLUMNS, rows), "summary": resultfile.table(SUMMARY, summary)}
    for tab in tables.values():
        print("\n" + resultfile.markdown(tab))
    resultfile.write(args, "proof_reductions", tables, budget={"max_nodes": args.max_nodes},
                     deals_left=args.deals_left)


if __name__ == "__main__":
    main()
