"""Tune the evaluation weights of the beam on a tuning deal set.

Usage::

    # one weight vector, one width, one deal set: a table row
    python benchmarks/tune.py eval --suits 4 --first 10000 --count 40 --width 128
    python benchmarks/tune.py eval --suits 2 --weights "[5,0,5,5,10,40,5,5,2,0]"
    python benchmarks/tune.py eval --suits 4 --schedule        # the driver's widening schedule

    # coordinate descent from a vector (the defaults if none is given)
    python benchmarks/tune.py descend --suits 1 --count 40 --passes 2

A weight vector is judged by one beam of fixed width (``--width``, 128 unless told),
so that the evaluation is compared, not the widening; ``--schedule`` runs the
driver's default schedule (``WIDTHS``) instead, to check a chosen vector. Every
line found is shortened and replayed as in ``spider-solve verify``.

Node counts and line lengths are deterministic given the weights and the width;
CPU seconds are noisy on a shared machine and only printed. Decisions use the
objective: the mean line length after shortening, a deal not won at this width
counted as ``LOST_LENGTH`` actions (lower is better); ties go to fewer nodes.

Deals 0-1999 are the reporting set: this script refuses them. Results per deal are
cached in ``--cache`` (a JSON file keyed by suit count, rule, width, budget and
weights), so a descent never replays a vector it has seen; delete the cache after
the engine changes. The table is printed as it grows, and written at the end to the
result file ``--out`` (default ``benchmarks/results/tune-eval-s{suits}.json`` or
``tune-descend-s{suits}.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import resultfile

#: The reporting set: never tuned on.
REPORT_DEALS = range(2000)
#: What a deal that the beam does not win costs in the objective, in actions.
LOST_LENGTH = 300
DEFAULT_CACHE = Path(os.environ.get("TMPDIR", "/tmp")) / "spider_tune_cache.json"


def solve_one(args: tuple) -> dict:
    """Solve one deal in a worker; return its figures."""
    code, weights, widths, max_nodes = args
    from spider_solver.budget import Budget
    from spider_solver.engine.driver import SearchOptions, run_search
    from spider_solver.rules import Deal

    kwargs: dict = {}
    if weights is not None:
        kwargs["weights"] = np.array(weights, dtype=np.int64)
    if widths is not None:
        kwargs["widths"] = tuple(widths)
    if os.environ.get("SPIDER_SELECT"):  # set by --select, for the workers
        kwargs["selection"] = tuple(int(v) for v in os.environ["SPIDER_SELECT"].split(","))
    started = time.process_time()
    result = run_search(Deal.from_code(code), budget=Budget(max_nodes), options=SearchOptions(**kwargs))
    return {
        "code": code,
        # The engine's own verdict (run_search does not replay; the tuning only compares lengths).
        "status": "verified" if result.actions is not None else str(result.reason),
        "moves": None if result.actions is None else len(result.actions),
        # The winning beam's line before shortening: one action per level, plus the winning one.
        "raw": result.attempts[-1].levels + 1 if result.actions is not None else None,
        "nodes": result.nodes,
        "cpu": time.process_time() - started,
    }


def deal_codes(suits: int, rule: str, first: int, count: int) -> list[str]:
    from spider_solver.rules.codes import encode_deal

    numbers = range(first, first + count)
    if set(numbers) & set(REPORT_DEALS):
        raise SystemExit(f"deals {first}-{first + count - 1} overlap the reporting set "
                         f"{REPORT_DEALS.start}-{REPORT_DEALS.stop - 1}; tune on other deals")
    return [f"SP1-S{suits}{rule}-{encode_deal(n)}" for n in numbers]


class Runner:
    """Evaluates weight vectors on one deal set, with a process pool and a cache."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.codes = deal_codes(args.suits, args.rule, args.first, args.count)
        self.widths = None if args.schedule else [args.width]
        if args.widths:
            self.widths = [int(w) for w in args.widths.split(",")]
        self.max_nodes = args.max_nodes
        self.cache_path = Path(args.cache)
        self.cache = json.loads(self.cache_path.read_text()) if self.cache_path.exists() else {}
        self.pool = ProcessPoolExecutor(args.workers)
        self.label = f"S{args.suits}{args.rule} {args.first}-{args.first + args.count - 1} " + (
            f"widths {args.widths}" if args.widths else "schedule" if args.schedule else f"w{args.width}")

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        # Shut the workers down here: left to the interpreter's exit, the pool's hook
        # wrote to a closed pipe ("Bad file descriptor") after the last table row.
        self.pool.shutdown()

    def key(self, code: str, weights: list[int] | None) -> str:
        select = os.environ.get("SPIDER_SELECT", "")
        return json.dumps([code, self.widths, self.max_nodes, weights] + ([select] if select else []))

    def run(self, weights: list[int] | None) -> dict:
        todo = [c for c in self.codes if self.key(c, weights) not in self.cache]
        for row in self.pool.map(solve_one, [(c, weights, self.widths, self.max_nodes) for c in todo]):
            self.cache[self.key(row["code"], weights)] = row
        if todo:
            self.save()
        return summarize([self.cache[self.key(c, weights)] for c in self.codes])

    def save(self) -> None:
        tmp = self.cache_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.cache))
        tmp.replace(self.cache_path)


def summarize(rows: list[dict]) -> dict:
    won = [r for r in rows if r["status"] == "verified"]
    lengths = np.array([r["moves"] for r in won]) if won else np.array([0])
    nodes = np.array([r["nodes"] for r in rows])
    cpu = np.array([r["cpu"] for r in rows])
    objective = (lengths.sum() + LOST_LENGTH * (len(rows) - len(won))) / len(rows)
    return {
        "deals": len(rows),
        "won": len(won),
        "len_med": float(np.median(lengths)),
        "len_p90": float(np.percentile(lengths, 90)),
        "raw_med": float(np.median([r["raw"] for r in won])) if won else 0.0,
        "nodes_med": float(np.median(nodes)),
        "nodes_p90": float(np.percentile(nodes, 90)),
        "nodes_mean": float(nodes.mean()),
        "cpu_med": float(np.median(cpu)),
        "objective": float(objective),
        "lost": [r["code"] for r in rows if r["status"] != "verified"],
    }


def better(a: dict, b: dict) -> bool:
    """True if summary ``a`` beats ``b``: lower objective, ties to fewer nodes."""
    return (a["objective"], a["nodes_mean"]) < (b["objective"], b["nodes_mean"])


#: A row of the table: (key, label, format) as resultfile shows it.
COLUMNS = [
    ("label", "deals, width", ""), ("weights", "weights", ""), ("won", "won", "int"), ("deals", "of", "int"),
    ("nodes_med", "nodes med", "k"), ("nodes_p90", "nodes p90", "k"), ("len_med", "length med", ".0f"),
    ("len_p90", "length p90", ".0f"), ("raw_med", "raw med", ".0f"), ("objective", "objective", ".1f"),
    ("cpu_med", "cpu med s", ".2f"),
]


def row(label: str, weights, s: dict) -> dict:
    """A row of the table: the summary ``s`` of ``weights`` (printed, and kept for the result file)."""
    entry = {"label": label, "weights": json.dumps(weights)} | {k: v for k, v in s.items() if k != "lost"}
    print(resultfile.line(COLUMNS, entry), flush=True)
    return entry


def default_weights(suits: int) -> list[int]:
    from spider_solver.engine import evaluate

    table = getattr(evaluate, "weights_for", None)
    vector = table(suits) if table is not None else evaluate.DEFAULT_WEIGHTS
    return [int(w) for w in vector]


def neighbours(weights: list[int], index: int) -> list[list[int]]:
    """Trial values of one weight: one step each way, about a third of its size."""
    step = max(2, round(abs(weights[index]) * 0.3))
    out = []
    for v in (weights[index] - step, weights[index] + step):
        trial = list(weights)
        trial[index] = v
        out.append(trial)
    return out


def cmd_eval(args: argparse.Namespace) -> None:
    with Runner(args) as runner:
        evaluate(runner, args)


def evaluate(runner: Runner, args: argparse.Namespace) -> None:
    print(resultfile.header(COLUMNS))
    vectors = [json.loads(w) for w in args.weights] if args.weights else [default_weights(args.suits)]
    rows = []
    for weights in vectors:
        s = runner.run(weights)
        rows.append(row(runner.label, weights, s))
        if s["lost"]:
            print(f"  not won: {' '.join(s['lost'])}", file=sys.stderr)
    resultfile.write(args, "tune", {"eval": resultfile.table(COLUMNS, rows)})


def cmd_descend(args: argparse.Namespace) -> None:
    with Runner(args) as runner:
        descend(runner, args)


def descend(runner: Runner, args: argparse.Namespace) -> None:
    best_w = json.loads(args.weights[0]) if args.weights else default_weights(args.suits)
    best = runner.run(best_w)
    print(resultfile.header(COLUMNS))
    rows = [row(runner.label + " start", best_w, best)]
    indices = [int(i) for i in args.indices.split(",")] if args.indices else range(len(best_w))
    for _ in range(args.passes):
        improved = False
        for index in indices:
            for trial in neighbours(best_w, index):
                s = runner.run(trial)
                mark = ""
                if better(s, best):
                    best_w, best, improved, mark = trial, s, True, " *"
                rows.append(row(runner.label + f" w[{index}]" + mark, trial, s))
        if not improved:
            break
    rows.append(row(runner.label + " best", best_w, best))
    resultfile.write(args, "tune", {"descend": resultfile.table(COLUMNS, rows)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, func in (("eval", cmd_eval), ("descend", cmd_descend)):
        p = sub.add_parser(name)
        p.set_defaults(func=func)
        p.add_argument("--suits", type=int, default=4, choices=(1, 2, 4))
        p.add_argument("--rule", default="C", choices=("C", "R"))
        p.add_argument("--first", type=int, default=10000)
        p.add_argument("--count", type=int, default=40)
        p.add_argument("--width", type=int, default=128)
        p.add_argument("--schedule", action="store_true", help="the driver's widening schedule instead")
        p.add_argument("--widths", help="a widening schedule of its own, e.g. 96,384,1536,6144,16384")
        p.add_argument("--max-nodes", type=int, default=20_000_000)
        p.add_argument("--weights", action="append", help="a JSON list; repeat for several (eval)")
        p.add_argument("--workers", type=int, default=2)
        p.add_argument("--cache", default=str(DEFAULT_CACHE))
        resultfile.add_out_option(p, f"tune-{name}-s{{suits}}")
        p.add_argument("--select", help="the beams' selection policy, 'policy,offset,floor,cap' "
                       "(search.SELECT_*; schedule.SELECTION has the defaults)")
        if name == "descend":
            p.add_argument("--passes", type=int, default=2)
            p.add_argument("--indices", help="weights to vary, e.g. 0,2,3 (all unless told)")
    args = parser.parse_args()
    if args.select:
        from spider_solver.engine.search import SELECT_SIZE

        fields = args.select.split(",")
        if not 1 <= len(fields) <= SELECT_SIZE or not all(f.strip().lstrip("-").isdigit() for f in fields):
            parser.error(f"--select {args.select!r}: expected up to {SELECT_SIZE} integers, policy,offset,floor,cap")
        # Read by the workers (and part of the cache key).
        os.environ["SPIDER_SELECT"] = args.select
    args.func(args)


if __name__ == "__main__":
    main()
