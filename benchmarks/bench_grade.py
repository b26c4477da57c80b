"""Validate the difficulty grades on deals outside the calibration set; prints Markdown tables.

Usage::

    python benchmarks/bench_grade.py [--suits 4] [--rule classic] [--first 0] [--count 200]
                                     [--other-seed 7] [--no-solver] [--out results.json] [--json deals.json]

For each deal ``first`` .. ``first + count - 1`` (default: the reporting set 0-199, never
used for calibration, which is deals 20000 onwards, nor for tuning, 10000-10199):

* grades it with the default seed and with ``--other-seed``, on one core, and times the
  first grading (the median is the figure the batch pays per verified deal);
* unless ``--no-solver``, measures the full-information solver's effort, an independent
  signal of difficulty: a beam search with the widths 2, 4, 8, ... 4096 in turn (the
  engine's ``run_search``), recording the narrowest width that wins and the nodes spent
  up to the first win.

Prints: grading time (median, p90), stability (same grade, at most one apart, Spearman
of the two raw figures), agreement (Spearman of the raw figure with the solver's nodes
and narrowest width, the median nodes per grade, and the deals where the two disagree
most), and the spread (share of each grade, the fair player's win rate and runs
removed per grade). The summary and the grades' table go to the result file ``--out``
too (default ``benchmarks/results/grade-s{suits}-{rule}.json``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import resultfile

#: The summary of a run: (key, label, format) as resultfile.markdown shows it.
COLUMNS = [
    ("variant", "variant", ""),
    ("deals", "deals", ""),
    ("same", "same grade, other seed", "%"),
    ("near", "at most one apart", "%"),
    ("spearman_nodes", "Spearman, raw vs solver nodes", ".3f"),
    ("spearman_width", "raw vs narrowest width", ".3f"),
    ("shares", "share of grades 1 → 5", "%"),
    ("s_median", "grading s median", ".3f"),
]
#: One row a grade.
GRADE_COLUMNS = [
    ("grade", "grade", ""),
    ("deals", "deals", "int"),
    ("share", "share", "%"),
    ("win_rate", "fair player's win rate", "%"),
    ("runs", "runs removed", ".2f"),
    ("turned", "cards turned up", ".1f"),
    ("nodes_median", "solver nodes, median", "int"),
    ("width_median", "narrowest width, median", ""),
]

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: The solver signal's widths: doubling from 2, so that "narrowest width that wins" is fine-grained.
SIGNAL_WIDTHS = (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096)


def ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties given their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation (Pearson's on the ranks, ties averaged)."""
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    sa = sum((x - ma) ** 2 for x in ra) ** 0.5
    sb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (sa * sb) if sa and sb else float("nan")


def solver_effort(deal) -> tuple[int | None, int]:
    """(narrowest width that wins or None, nodes up to the first win or all spent)."""
    from spider_solver.budget import Budget
    from spider_solver.engine.driver import SearchOptions, run_search
    from spider_solver.outcomes import BeamOutcome

    result = run_search(deal, budget=Budget(25_000_000, 60.0), options=SearchOptions(widths=SIGNAL_WIDTHS))
    won = [a for a in result.attempts if a.outcome is BeamOutcome.WON]
    return (won[0].width if won else None), int(result.nodes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--rule", default="classic")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--other-seed", type=int, default=7)
    parser.add_argument("--no-solver", action="store_true")
    parser.add_argument("--json", help="also write every deal's figures here")
    resultfile.add_out_option(parser, "grade-s{suits}-{rule}")
    args = parser.parse_args()

    from spider_solver.grading import GRADE_SEED, GRADER_VERSION, grade_of, play
    from spider_solver.rules import Deal, GameCode

    play(Deal.from_code("SP1-S4C-AAAAAAB"), games=1)  # compile or load the fair player's kernel
    if not args.no_solver:
        from spider_solver.engine import warm_up

        warm_up()
    rows = []
    for number in range(args.first, args.first + args.count):
        deal = Deal.from_code(GameCode(args.suits, args.rule, number))
        began = time.perf_counter()
        figures, _ = play(deal)  # what grade(deal) does, figures kept
        first = grade_of(figures.raw(), deal.variant)
        seconds = time.perf_counter() - began
        other, _ = play(deal, seed=GRADE_SEED ^ args.other_seed)
        other_raw = other.raw()
        row = {"deal": number, "grade": first, "raw": figures.raw(), "win_rate": figures.win_rate(),
               "seconds": seconds, "grade2": grade_of(other_raw, deal.variant), "raw2": other_raw}
        row["runs"] = float(figures.removed.mean())
        row["turned"] = float(figures.turned.mean())
        if not args.no_solver:
            row["width"], row["nodes"] = solver_effort(deal)
        rows.append(row)
        if len(rows) % 25 == 0:
            print(f"  {len(rows)}/{args.count}", file=sys.stderr, flush=True)

    n = len(rows)
    secs = sorted(r["seconds"] for r in rows)
    same = sum(r["grade"] == r["grade2"] for r in rows) / n
    near = sum(abs(r["grade"] - r["grade2"]) <= 1 for r in rows) / n
    summary = {"variant": f"{args.suits} suit{'s' if args.suits > 1 else ''} {args.rule}", "grader": GRADER_VERSION,
               "deals": f"{args.first}-{args.first + n - 1}", "same": round(same, 4), "near": round(near, 4),
               "spearman_again": round(spearman([r["raw"] for r in rows], [r["raw2"] for r in rows]), 4),
               "shares": [round(sum(r["grade"] == g for r in rows) / n, 4) for g in range(1, 6)],
               "s_median": round(statistics.median(secs), 4), "s_p90": round(secs[int(0.9 * (n - 1))], 4),
               "s_max": round(secs[-1], 3)}
    grades = []
    name = f"{args.suits}-{args.rule}"
    print(f"\n### {name}, deals {args.first}-{args.first + n - 1}, grader {GRADER_VERSION}\n")
    print("| deals | grading s median | p90 | max | same grade (other seed) | at most 1 apart "
          "| Spearman raw vs raw |")
    print("|---|---|---|---|---|---|---|")
    again = spearman([r["raw"] for r in rows], [r["raw2"] for r in rows])
    print(f"| {n} | {statistics.median(secs):.3f} | {secs[int(0.9 * (n - 1))]:.3f} | {secs[-1]:.3f} | "
          f"{100 * same:.1f}% | {100 * near:.1f}% | {again:.3f} |")
    print("\n| grade | deals | share | fair player's win rate | runs removed | cards turned up | raw range |"
          + ("" if args.no_solver else " solver nodes, median | narrowest width, median |"))
    print("|---|---|---|---|---|---|---|" + ("" if args.no_solver else "---|---|"))
    for g in range(1, 6):
        members = [r for r in rows if r["grade"] == g]
        if not members:
            print(f"| {g} | 0 | 0% | - | - | - | - |" + ("" if args.no_solver else " - | - |"))
            continue
        grades.append({"grade": g, "deals": len(members), "share": round(len(members) / n, 4),
                       "win_rate": round(statistics.fmean(r["win_rate"] for r in members), 4),
                       "runs": round(statistics.fmean(r["runs"] for r in members), 3),
                       "turned": round(statistics.fmean(r["turned"] for r in members), 2)})
        line = (f"| {g} | {len(members)} | {100 * len(members) / n:.1f}% | "
                f"{100 * statistics.fmean(r['win_rate'] for r in members):.1f}% | "
                f"{statistics.fmean(r['runs'] for r in members):.2f} | "
                f"{statistics.fmean(r['turned'] for r in members):.1f} | "
                f"{min(r['raw'] for r in members):.1f}-{max(r['raw'] for r in members):.1f} |")
        if not args.no_solver:
            widths = [r["width"] or 8192 for r in members]
            grades[-1] |= {"nodes_median": statistics.median(r["nodes"] for r in members),
                           "width_median": statistics.median(widths)}
            line += f" {statistics.median(r['nodes'] for r in members):,.0f} | {statistics.median(widths):g} |"
        print(line)
    if not args.no_solver:
        raw = [r["raw"] for r in rows]
        nodes = [float(r["nodes"]) for r in rows]
        widths = [float(r["width"] or 8192) for r in rows]
        unsolved = sum(r["width"] is None for r in rows)
        print(f"\nSpearman of the raw figure with the solver's nodes to the first win: {spearman(raw, nodes):.3f}; "
              f"with the narrowest winning width: {spearman(raw, widths):.3f}; grade with nodes: "
              f"{spearman([float(r['grade']) for r in rows], nodes):.3f} "
              f"({unsolved} deals no width won, counted as 8192)")
        summary |= {"spearman_nodes": round(spearman(raw, nodes), 4), "spearman_width": round(spearman(raw, widths), 4),
                    "spearman_grade_nodes": round(spearman([float(r["grade"]) for r in rows], nodes), 4)}
        order = sorted(rows, key=lambda r: r["nodes"])
        cheap = {r["deal"] for r in order[: n // 5]}
        costly = {r["deal"] for r in order[-(n // 5):]}
        easy_costly = [r["deal"] for r in rows if r["grade"] <= 2 and r["deal"] in costly]
        hard_cheap = [r["deal"] for r in rows if r["grade"] >= 4 and r["deal"] in cheap]
        print(f"Disagreements: graded 1-2 but in the solver's costliest fifth: {len(easy_costly)} {easy_costly[:12]}; "
              f"graded 4-5 but in its cheapest fifth: {len(hard_cheap)} {hard_cheap[:12]}")
    print("\n" + resultfile.markdown(resultfile.table(COLUMNS, [summary])))
    resultfile.write(args, "bench_grade", {"grade": resultfile.table(COLUMNS, [summary]),
                                           "grades": resultfile.table(GRADE_COLUMNS, grades)})
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
