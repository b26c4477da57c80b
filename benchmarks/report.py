"""Build docs/performance.md, and its plots under docs/img/, from the result files.

Usage::

    python benchmarks/report.py               # the page and the plots (needs matplotlib: pip install -e '.[bench]')
    python benchmarks/report.py --no-plots    # the page only
    python benchmarks/report.py --check       # exit 1 if the page is not what the files give

Every table of the page is made from the tables of result files under
``benchmarks/results/`` (see ``benchmarks/resultfile.py``): the rows of each file that
matches, in order, with the date, commit and machine of its file, then the command
that reproduces each file's figures and its notes. The page is generated: edit this
script or the files, never the page. ``tests/test_performance_page.py`` fails when the
page's tables differ from the files.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import resultfile

ROOT = resultfile.ROOT
PAGE = ROOT / "docs" / "performance.md"
IMAGES = ROOT / "docs" / "img"


@dataclass(frozen=True)
class Table:
    """A table of the page: table ``table`` of every result file matching ``files``."""

    name: str
    files: str
    table: str
    intro: str
    #: The columns shown (keys of the files' columns), all unless given.
    keys: tuple[str, ...] = ()
    #: A first column with each file's ``deals`` (its variant and deal numbers).
    deals: bool = False


def _order(path: Path) -> tuple[int, str]:
    """4 suits first, then 2, then 1; then by name."""
    found = re.search(r"-s(\d)", path.name)
    return (-int(found[1]) if found else 0, path.name)


SECTIONS: list[tuple[str, str, list[Table], list[str]]] = [
    ("Solving a deal", "`solve()` (what `spider-solve verify` and the batch run) on the reporting set, deals "
     "0-199 of each suit count, never used for tuning, at 150M nodes and 180 s (the default then; now no "
     "seconds). Node counts and lines are deterministic; seconds depend on the machine and its load, CPU "
     "seconds less than wall seconds.",
     [Table("solve", "solve-s*.json", "solve", "", ("set", "verified", "count", "length_median", "length_mean",
                                                    "length_p90", "nodes_median", "cpu_median", "s_median"))], []),
    ("The batch", "The whole `spider-solve --suits 4 --count 1000` (solving, replay, catalog writes and grading), "
     "with the kernels compiled, on 2 cores.",
     [Table("batch", "batch-s*.json", "batch", "", ("command", "deals", "verified", "unknown", "s_median",
                                                    "s_max", "length_median", "wall_seconds", "peak_mb"))], []),
    ("Shorter lines: `improve`", "`improve` on the line the default solve found, at its default budget (about "
     "10 s of CPU a deal on one core: 35M nodes at 4 suits, 42M at 2, 60M at 1), on the reporting set.",
     [Table("improve", "improve-s*.json", "improve", "")], ["improve"]),
    ("Games in progress", "`analyze` (hints, `lost_at`) at its default budget (60M nodes, 30 s) on positions of "
     "deals 200-299.",
     [Table("hints", "analyze-s*.json", "hints", "Hints: positions after 20, 60 and 100 actions of the verified "
            "line, and after 1-5 random actions from them. The share is of the positions not proved unwinnable."),
      Table("lost", "analyze-s*.json", "lost", "Lost games: random play until stuck; `lost_at` is the first "
            "position proved lost."),
      Table("probes", "analyze-s*.json", "probes", "The searches of those bisections, by deals left in the stock: "
            "what stops `lost_at` is proving a position with deals left."),
      Table("known_line", "analyze*.json", "known_line", "The hint from a stored line "
            "(`analyze(..., known_line=line)`), the replays included."),
      Table("lost_casual", "lost-share-s*.json", "lost", "Lost games of the casual player of "
            "`bench_analyze.py` (the most useful-looking visible action, never back to a position seen; it stops "
            "when stuck), 60M nodes and no seconds cap, one core: tuning deals 400-429 (2 suits: 400-419) and fresh "
            "deals 500-529 (500-519), before and after a search with one deal left got half the budget."),
      Table("probes_casual", "lost-share-s4.json", "probes", "The searches of those bisections at 4 suits, by "
            "deals left in the stock."),
      Table("probes_casual_s2", "lost-share-s2.json", "probes", "The same at 2 suits."),
      Table("proof_reach", "proof-reach-s*.json", "summary", "What an exact proof has to reach there: the 43 "
            "stock-empty searches the fresh 4-suit run left unknown, each by the proof alone with 10 times a "
            "search's nodes (150M) and 7.5 times its level bound (3M positions)."),
      Table("proof_reuse", "proof-reuse.json", "summary", "Proofs reused within an analysis (each stretch of "
            "positions joined by moves back searched once, the positions proved lost skipped; docs/engine.md, "
            "\"Where a game was lost\"): the casual player's lost games on fresh deals 910000 on, 60M nodes, no "
            "seconds cap, before / after on the same games. \"To the same bracket\": the nodes each run spent "
            "until its bracket was as narrow as the one the run without the reuse ended with."),
      Table("proof_reuse_alone", "proof-reuse.json", "alone", "Each proof of those bisections made again alone "
            "(a fresh analysis, nothing known lost, the same share of the budget): the nodes the positions proved "
            "lost saved, and the proofs the search alone leaves unknown.")], []),
    ("Difficulty grades", "The grader (`fair-6`; at 2 and 4 suits it plays `fair-3`'s games) on the reporting set, "
     "which its calibration (deals 20000 on) "
     "never saw: the share of deals that keep their grade under another seed, the agreement with the solver's "
     "effort, and the spread of the grades.",
     [Table("grade", "grade-s*.json", "grade", ""),
      Table("grade_player", "grade-player-s*.json", "grade_player", "Against the reference player "
            "(benchmarks/reference_player.py, a policy of its own) on fresh deals 50000 onwards: Spearman's ρ of the "
            "grade with the player's progress, its 95% bootstrap interval and the mean progress by grade, on the same "
            "deals and games: fair-4, fair-5 (fair-3's grader again) and fair-6 (at 2 and 4 suits all four give the "
            "same grades); at 1 suit with 5 and with 40 reference games a deal, on deals 50000-50099 and, for "
            "fair-5 against fair-6, on fresh deals 60000-60099."),
      Table("choose_player", "choose-player-s1.json", "settings", "How fair-6's 1-suit player was chosen: the "
            "fair player's raw figure under each setting against the casual player's progress on the tuning deals "
            "40000-40119 (never the reference player)."),
      Table("fair_kernel", "fair-kernel-*.json", "fair_kernel", "The fair player's kernel against the reference "
            "it replaced (the same games, CPU seconds of the kernel call).")], ["grades"]),
    ("The service", "The real `spider-solve serve` on 127.0.0.1 (`--workers` server processes, as its file "
     "says) with 2 solver processes and 16 keep-alive clients on the same 2-core machine, over a catalog of "
     "about 10,000 deals; beside each figure the machine's load average (it may be shared).",
     [Table("load", "service.json", "load", ""),
      Table("soak", "service.json", "soak", "A soak of mixed requests, a fifth malformed.")], []),
    ("The rules in JavaScript", "The rules module `spider_solver/js` (the npm package spider-solver-rules) in "
     "Node, with the Python reference engine beside it, and the web client playing with it in Chromium: "
     "medians (`benchmarks/bench_js_rules.py`; its file has the machine's load average: it may be shared). Targets: "
     "the deck of a code at most 0.1 ms and a 150-action replay at most 1 ms in Node, 100 actions at most 1 s "
     "in the page.",
     [Table("js_rules", "js-rules.json", "rules", ""),
      Table("js_page", "js-rules.json", "browser", "The page (`/play`, 1280x800): 100 actions of a random "
            "4-suit game with an undo every tenth, each a click on the card and one on the column (or the Deal "
            "or Undo button), checked, played and drawn by the page, and the frame after the last; beside it "
            "the same actions asked of the server one request at a time, as the page did before it had the "
            "module.")], []),
    ("Fair hints", "Games played by following the fair hint alone (`bench_fair.py`: no undo, each win replayed to "
     "a win by the rules engine), beside the planner the hint stands on, the grader's fair player and the casual "
     "player, on the same deals, never used for tuning. Targets: at least 50% at 4 suits over at least 60 deals, "
     "80% at 2 suits, 97% at 1; a hint in at most 1 s median and 3 s p90 on one core. Files without a suffix "
     "are the first hint (another action overruled the planner's decision by 2 more layouts won; `-fresh`: "
     "hints only, on the next 30 deals); `-sign` the hint of the sign test (it overrules only when the layouts "
     "show it clearly); `-900150`, `-900210`, `-900260` and `-900320` the same hint on the next fresh deals, its "
     "chances by the models fitted on labelled positions (`label_chance.py`); `-sign-heldout` those models' "
     "calibration over the `-sign` games they were not fitted on; `-pooled-heldout` over all the games they were "
     "not fitted on, their positions pooled (each run alone swings with its few lost or won games). The hint "
     "times are wall seconds with 2 workers on 2 cores, some of them shared.",
     [Table("fair_players", "fair-s[124]*.json", "players", "", deals=True),
      Table("fair_calibration", "fair-s[124]*.json", "calibration", "Is the chance calibrated? The hint "
            "players' positions grouped by the chance the hint gave (tenths), against the share of them whose "
            "game went on to win. Target: within 10 points in every group of at least 30 positions. Each file's "
            "note says which chance model computed the chances, and on which games it was fitted.", deals=True)],
     []),
    ("Reviews", "`review` of the casual player's lost games (`bench_analyze.casual_play`, which sees only face-up "
     "cards) on fresh deals, 920000 on at 4 suits and 930000 on at 2 (the review's constants were chosen on "
     "910000-910023 and 911000-911011), 2 worker processes. Targets: a median review of a 4-suit game at most "
     "60 s on 2 cores (20 s at 2 suits), at most 2 GB; every lost game with a costliest decision (clear: its "
     "cost stood on the fresh layouts; else the closest call, named alone and said to be not clearly a mistake). "
     "The machine "
     "was shared (the load average as each review ended is in the games' table): the wall seconds are those of "
     "the run, the CPU seconds (the process and its workers) what the review cost. The files without a suffix "
     "are the defaults (16 layouts a decision, 2 other actions compared, 64 fresh layouts for the costliest, "
     "in up to two rounds of 5; a decision whose games clearly got less far at the same chance named after "
     "those that cost chances); `-chance-only` the defaults before those two (one round, chance costs only); "
     "`-three-alternatives` the first defaults (3 other actions compared, as a fair hint).",
     [Table("review", "review-s*.json", "summary", ""),
      Table("review_games", "review-s?.json", "games", "Each game at the defaults: its decisions (judged; "
            "skipped in a stretch where nothing was won and no card showed; forced actions, not counted), the "
            "review's wall and CPU seconds and peak memory (the process and its 2 workers), the load average, and "
            "the costliest decision in words."),
      Table("review_check_s4", "review-check-s4.json", "check", "Does the costliest decision point at a real "
            "mistake? The real deal played on by following fair hints from the position before it, 4 seeds after "
            "the action played and 4 after the better one (4 suits, the reviews at the defaults above: every game "
            "with a costliest decision, in the order of the deals)."),
      Table("review_check_summary_s4", "review-check-s4.json", "check_summary", ""),
      Table("review_check_s4_first", "review-s4-three-alternatives.json", "check", "The same check on the "
            "reviews at the first defaults (the first 12 games with a costliest decision, 3 other actions "
            "compared, chance costs only)."),
      Table("review_check_summary_s4_first", "review-s4-three-alternatives.json", "check_summary", ""),
      Table("review_check_s2", "review-check-s2.json", "check", "The same at 2 suits, on the reviews at the "
            "`-chance-only` defaults (a check the issue does not ask for: there the costs are tens of points)."),
      Table("review_check_summary_s2", "review-check-s2.json", "check_summary", "")],
     []),
    ("The 4-suit first width", "Why 4-suit solves start at width 64: on the tuning deals a wider first beam "
     "gives shorter lines for proportionally more nodes, and the 1000-deal batch's time target (2.5 min on 2 "
     "cores, grading included) leaves no room for it (benchmarks/HISTORY.md, \"The widening "
     "schedule\").",
     [Table("first_width", "first-width-s4.json", "eval", "", ("label", "won", "deals", "nodes_med", "nodes_p90",
                                                               "len_med", "objective", "cpu_med"))],
     ["first_width"]),
]

#: Columns every table ends with: where its row was measured.
PROVENANCE = [("_date", "measured", ""), ("_commit", "commit", ""), ("_machine", "machine", "")]


def files(pattern: str) -> list[Path]:
    return sorted(resultfile.RESULTS.glob(pattern), key=_order)


def machine_label(machine: dict[str, Any]) -> str:
    if machine.get("cpu"):
        return f"{machine['cpu']}, {machine['cores']} cores"
    return f"first {machine.get('cores', '?')}-core machine"


def gather(spec: Table) -> tuple[dict[str, Any], list[dict[str, Any]], list[tuple[Path, dict[str, Any]]]]:
    """The columns, the rows (with their provenance) and the files of a table of the page."""
    columns: list[list[str]] | None = None
    rows: list[dict[str, Any]] = []
    used = []
    for path in files(spec.files):
        record = resultfile.load(path)
        tab = record["tables"].get(spec.table)
        if tab is None:
            continue
        if columns is None:
            columns = [["_deals", "deals", ""]] if spec.deals else []
        columns += [c for c in tab["columns"] if (not spec.keys or c[0] in spec.keys)
                    and all(c[0] != known[0] for known in columns)]  # a column added later: a dash in older files
        commit = record.get("commit")
        for row in tab["rows"]:
            rows.append(row | {"_date": record["date"][:10], "_commit": commit[:7] if commit else None,
                               "_machine": machine_label(record["machine"]), "_deals": record.get("deals")})
        used.append((path, record))
    if columns is None:
        raise SystemExit(f"no result file {spec.files} has a table {spec.table!r}")
    return {"columns": columns}, rows, used


def table_text(spec: Table) -> str:
    """The Markdown of a table of the page (what the page holds between its markers)."""
    head, rows, _ = gather(spec)
    return resultfile.markdown({"columns": head["columns"], "rows": rows}, extra=PROVENANCE)


def sources(spec: Table, described: set[Path]) -> list[str]:
    """The lines under a table: each file's command, and its source and notes the first
    time the page names the file (``described`` holds the files named so far)."""
    _, _, used = gather(spec)
    lines = []
    for path, record in used:
        commands = record["command"] if isinstance(record["command"], list) else [record["command"]]
        said = "; ".join(f"`{c}`" for c in commands)
        notes = [f"{label}: {record[key].rstrip('.')}." for key, label in
                 (("source", "From"), ("commit_note", "Commit"), ("note", "Note")) if record.get(key)]
        lines.append(" ".join([f"- `{path.relative_to(ROOT)}`: {said}.", *([] if path in described else notes)]))
        described.add(path)
    return lines


def begin(name: str) -> str:
    return f"<!-- table {name}: generated by benchmarks/report.py -->"


END = "<!-- end of table -->"


def page() -> str:
    """The whole page, as the result files give it."""
    out = [
        "# Performance",
        "",
        "Today's figures of the solver, each made by a script in `benchmarks/` that writes it to a result file "
        "under `benchmarks/results/` with the machine, the date and the commit it was measured at. This page is "
        "generated from those files by `python benchmarks/report.py` (tables and plots); a test fails when a "
        "table here differs from its file. Every table gives the command that reproduces it. The machines are "
        "2-core x86_64 machines shared with other work, so seconds are indicative; node counts and line "
        "lengths are deterministic.",
        "",
        "Why each default is what it is, and what was tried and not kept, is in `benchmarks/HISTORY.md`.",
    ]
    described: set[Path] = set()
    for title, intro, tables, plots in SECTIONS:
        out += ["", f"## {title}", "", intro]
        for spec in tables:
            if spec.intro:
                out += ["", spec.intro]
            out += ["", begin(spec.name), "", table_text(spec), "", END, "", *sources(spec, described)]
        for plot in plots:
            out += ["", f"![{PLOTS[plot][0]}](img/{plot}.png)", "",
                    f"The plot of the table above, drawn by `python benchmarks/report.py` (`docs/img/{plot}.png`)."]
    return "\n".join(out) + "\n"


def blocks(text: str) -> dict[str, str]:
    """The generated tables of a page's text, by name."""
    found = re.finditer(r"<!-- table (\w+): generated by benchmarks/report.py -->\n\n(.*?)\n\n" + re.escape(END),
                        text, re.DOTALL)
    return {match[1]: match[2] for match in found}


def all_tables() -> dict[str, str]:
    return {spec.name: table_text(spec) for _, _, tables, _ in SECTIONS for spec in tables}


# --- plots (matplotlib only here)


def _improve(plt: Any) -> Any:
    _, rows, _ = gather(Table("improve", "improve-s*.json", "improve", ""))
    figure, axes = plt.subplots(figsize=(6, 3.2))
    labels = [row["set"].split()[0] for row in rows]
    x = range(len(rows))
    axes.bar([i - 0.2 for i in x], [row["before_median"] for row in rows], 0.4, label="the solve's line")
    axes.bar([i + 0.2 for i in x], [row["after_median"] for row in rows], 0.4, label="after improve")
    for i, row in enumerate(rows):
        if row.get("target"):
            axes.hlines(row["target"], i - 0.4, i + 0.4, colors="black", linestyles="dashed")
    axes.set_xticks(list(x), labels)
    axes.set_ylabel("median line (actions)")
    axes.set_title("improve on deals 0-199 (dashed: the target)")
    axes.legend(loc="lower left")
    return figure


def _grades(plt: Any) -> Any:
    _, rows, _ = gather(Table("grade", "grade-s*.json", "grade", ""))
    figure, axes = plt.subplots(figsize=(6, 3.2))
    left = [0.0] * len(rows)
    for grade in range(5):
        shares = [row["shares"][grade] for row in rows]
        axes.barh([row["variant"] for row in rows], shares, left=left, label=f"grade {grade + 1}")
        left = [a + b for a, b in zip(left, shares, strict=True)]
    axes.set_xlabel("share of the reporting deals")
    axes.set_title("Grades of deals the calibration never saw")
    axes.legend(ncol=5, fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.22))
    figure.tight_layout()
    return figure


def _first_width(plt: Any) -> Any:
    _, rows, _ = gather(Table("first_width", "first-width-s4.json", "eval", ""))
    figure, axes = plt.subplots(figsize=(6, 3.2))
    nodes = [row["nodes_med"] / 1e6 for row in rows]
    lengths = [row["len_med"] for row in rows]
    axes.plot(nodes, lengths, marker="o")
    for row, x, y in zip(rows, nodes, lengths, strict=True):
        axes.annotate(str(row["first_width"]), (x, y), textcoords="offset points", xytext=(4, 4))
    axes.set_xlabel("median nodes a deal (millions)")
    axes.set_ylabel("median line (actions)")
    axes.set_title("4 suits, tuning deals: first width of the schedule")
    return figure


#: Plot name -> (alt text, function drawing it).
PLOTS = {
    "improve": ("Median line before and after improve, by suit count", _improve),
    "grades": ("Share of each grade on the reporting deals, by variant", _grades),
    "first_width": ("Median line against median nodes for first widths 64 to 512", _first_width),
}


def plots() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "spider-solver"
    IMAGES.mkdir(parents=True, exist_ok=True)
    for name, (_, draw) in PLOTS.items():
        figure = draw(plt)
        figure.tight_layout()
        figure.savefig(IMAGES / f"{name}.png", dpi=100, metadata={"Software": None})
        plt.close(figure)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-plots", action="store_true")
    parser.add_argument("--check", action="store_true", help="only compare the page with the files")
    args = parser.parse_args()
    text = page()
    if args.check:
        same = PAGE.exists() and PAGE.read_text(encoding="utf-8") == text
        print("docs/performance.md is up to date" if same else "docs/performance.md differs: run benchmarks/report.py")
        return 0 if same else 1
    PAGE.parent.mkdir(parents=True, exist_ok=True)
    PAGE.write_text(text, encoding="utf-8")
    if not args.no_plots:
        plots()
    print(f"wrote {PAGE.relative_to(ROOT)}" + ("" if args.no_plots else f" and {len(PLOTS)} plots"), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
