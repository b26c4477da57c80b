"""Re-search variants on a solve's line (benchmarks/HISTORY.md, "Shorter lines: re-searches and improve").

Usage::

    python benchmarks/rephase_trials.py SUITS FIRST COUNT CONFIGS [WORKERS]

CONFIGS is JSON: ``{"name": [[widths...], phases, max_nodes], ...}``; phases is null
(every phase, last first), k > 0 (the last k) or -1 (the initial layout only). Each deal
is solved without the post-pass, then each variant re-searches its line with
:func:`spider_solver.engine.rephase.rephase`. Prints the median and mean length before
and after, and the nodes and seconds each variant spent, and writes them to the result
file ``benchmarks/results/rephase-trials-s{suits}.json``. Use the tuning deals
(10000-10199), never the reporting set.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import resultfile

#: The table: (key, label, format) as resultfile shows it.
COLUMNS = [("variant", "variant", ""), ("deals", "deals won", "int"), ("length_median", "length median", ""),
           ("length_mean", "mean", ".1f"), ("nodes_median", "extra nodes median", "k"),
           ("nodes_p90", "extra nodes p90", "k"), ("s_median", "s median", ".3f")]


def _warm_up() -> None:
    from spider_solver.engine import warm_up

    warm_up()


def _one(args: tuple[str, dict]) -> dict:
    from spider_solver.budget import Budget
    from spider_solver.engine.driver import SearchOptions, run_search
    from spider_solver.engine.game import Game, move_code
    from spider_solver.engine.rephase import Phases, rephase
    from spider_solver.rules import Board, Deal

    code, configs = args
    deal = Deal.from_code(code)
    started = time.perf_counter()
    found = run_search(deal, budget=Budget(25_000_000), options=SearchOptions(polish=False))
    row: dict = {"code": code, "nodes": found.nodes, "seconds": time.perf_counter() - started}
    if found.actions is None:
        return row
    board = Board(deal)
    line = [move_code(board.push_notation(action)) for action in found.actions]
    game = Game.from_deal(deal)
    row["base"] = len(line)
    for name, (widths, phases, nodes) in configs.items():
        started = time.perf_counter()
        result = rephase(game, line, tuple(widths), Budget(nodes, None), which=Phases(phases))
        row[name] = (len(result.line), result.nodes, time.perf_counter() - started)
    return row


def main() -> None:
    from spider_solver.rules import GameCode

    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0)
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    suits, first, count = (int(arg) for arg in sys.argv[1:4])
    if first < 2000:
        sys.exit("use tuning deals (10000-10199), not the reporting set")
    configs = json.loads(sys.argv[4])
    workers = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    codes = [str(GameCode(suits, "classic", n)) for n in range(first, first + count)]
    with ProcessPoolExecutor(workers, initializer=_warm_up) as pool:
        rows = [row for row in pool.map(_one, [(code, configs) for code in codes]) if "base" in row]
    base = [row["base"] for row in rows]
    table = [{"variant": "the solve's line", "deals": len(rows), "length_median": statistics.median(base),
              "length_mean": round(statistics.mean(base), 2),
              "nodes_median": statistics.median(row["nodes"] for row in rows)}]
    for name in configs:
        lengths = [row[name][0] for row in rows]
        nodes = sorted(row[name][1] for row in rows)
        table.append({"variant": f"{name} {json.dumps(configs[name])}", "deals": len(rows),
                      "length_median": statistics.median(lengths), "length_mean": round(statistics.mean(lengths), 2),
                      "nodes_median": statistics.median(nodes), "nodes_p90": nodes[int(0.9 * len(nodes))],
                      "s_median": round(statistics.median(row[name][2] for row in rows), 4)})
    tab = resultfile.table(COLUMNS, table)
    print(resultfile.markdown(tab))
    out = argparse.Namespace(out=str(resultfile.RESULTS / f"rephase-trials-s{suits}.json"))
    resultfile.write(out, "rephase_trials", {"variants": tab}, deals=f"{first}-{first + count - 1}")

if __name__ == "__main__":
    main()
