"""How far the proofs the analysis could not finish would have to reach: each position a
bisection left unknown, searched by the proof alone with raised limits.

Usage::

    python benchmarks/proof_reach.py ROWS.json [--deals-left 0] [--positions 200]
                                     [--level 3000000] [--tt-bits 27] [--max-nodes 150000000]

``ROWS.json`` is what ``bench_analyze.py --parts b --player casual --json`` wrote. Each
distinct position its bisections left ``unknown`` with ``--deals-left`` deals left in the
stock is searched by ``proof_alone.py --casual --reductions`` (the solver's proof, with
its reductions) in a process of its own, with the given level bound, table and nodes (by
default 10 times the nodes of a bisection's search at the interactive budget, and 7.5
times its level bound). Reported per position: the outcome (``exhausted``: proved
unwinnable; ``won``; ``cut``: a level outgrew ``--level``; ``nodes``), nodes, levels, the
largest level, the keys stored, seconds and the process's peak memory; and a summary by
outcome. Used for benchmarks/HISTORY.md, "Games in progress: proofs".
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import resultfile  # noqa: E402
from bench_analyze import probed  # noqa: E402

HERE = Path(__file__).resolve().parent
COLUMNS = [("code", "deal", ""), ("position", "position", "int"), ("outcome", "outcome", ""),
           ("nodes", "nodes", "int"), ("levels", "levels", "int"), ("peak_level", "largest level", "int"),
           ("keys", "keys", "int"), ("seconds", "seconds", ".1f"), ("peak_mb", "peak MB", "int")]
SUMMARY = [("outcome", "outcome", ""), ("positions", "positions", "int"),
           ("nodes", "nodes min / median / max", ""), ("peak_level", "largest level min / median / max", ""),
           ("seconds", "seconds median", ".1f"), ("peak_mb", "peak MB min / max", "")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows")
    parser.add_argument("--deals-left", type=int, default=0)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--level", type=int, default=3_000_000)
    parser.add_argument("--tt-bits", type=int, default=27)
    parser.add_argument("--max-nodes", type=int, default=150_000_000)
    resultfile.add_out_option(parser, "proof-reach")
    args = parser.parse_args()
    todo = probed(json.loads(Path(args.rows).read_text(encoding="utf-8")), args.deals_left,
                  lambda probe: probe["status"] == "unknown")
    print(f"{len(todo)} positions left unknown; searching {min(len(todo), args.positions)}", file=sys.stderr)
    rows = []
    for code, at in todo[: args.positions]:
        done = subprocess.run([sys.executable, str(HERE / "proof_alone.py"), code, str(at), "--casual", "--reductions",
                               "--level", str(args.level), "--tt-bits", str(args.tt_bits),
                               "--max-nodes", str(args.max_nodes), "--json"], capture_output=True, text=True,
                              check=True)
        rows.append({"code": code, "position": at, **json.loads(done.stdout.strip().splitlines()[-1])})
        print(resultfile.line(COLUMNS, rows[-1]), file=sys.stderr, flush=True)
    summary = []
    for outcome in sorted({row["outcome"] for row in rows}):
        group = [row for row in rows if row["outcome"] == outcome]

        def spread(key: str, group: list[dict] = group) -> str:
            values = [row[key] for row in group]
            return f"{min(values):,} / {statistics.median(values):,.0f} / {max(values):,}"

        summary.append({"outcome": outcome, "positions": len(group), "nodes": spread("nodes"),
                        "peak_level": spread("peak_level"),
                        "seconds": statistics.median(row["seconds"] for row in group),
                        "peak_mb": f"{min(r['peak_mb'] for r in group):,} / {max(r['peak_mb'] for r in group):,}"})
    tables = {"positions": resultfile.table(COLUMNS, rows), "summary": resultfile.table(SUMMARY, summary)}
    for tab in tables.values():
        print("\n" + resultfile.markdown(tab))
    resultfile.write(args, "proof_reach", tables,
                     budget={"max_nodes": args.max_nodes, "level": args.level, "tt_bits": args.tt_bits})


if __name__ == "__main__":
    main()
