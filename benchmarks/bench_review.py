"""Reviews of lost games: their costliest decisions, the time and memory a review takes, and
whether the decisions it names are real mistakes (issue 51, points 3 and 4).

Usage::

    python benchmarks/bench_review.py --suits 4 --first 920000 --lost 30 [--workers 2] [--check 12]
        [--check-seeds 4] [--layouts N] [--confirm-layouts N] [--out benchmarks/results/review-s4.json]
    python benchmarks/bench_review.py --suits 2 --first 930000 --lost 20 --check 0
    python benchmarks/bench_review.py --suits 2 --first 930000 --lost 20 --check 8 \
        --reviewed benchmarks/results/review-s2.json --out benchmarks/results/review-check-s2.json

From deal ``--first`` on, the casual player of the analysis benchmarks
(``bench_analyze.casual_play``: a player who sees only face-up cards) plays each deal,
until ``--lost`` of its games are lost (stuck, or called off after 1000 actions). Then:

(a) each lost game is reviewed (:func:`spider_solver.analysis.reviewing.review`, as ``spider-solve
    review`` runs it, with ``--workers`` worker processes), one game at a time: its
    decisions (judged, skipped in a hopeless stretch, forced actions), its costliest
    decisions with their chances, the wall seconds, the CPU seconds (this process and its
    workers) and the peak memory (this process and its workers together, their resident
    sets summed, read from /proc every 0.1 s), and the machine's load average as it ended
    (the machine may be shared). Reported: the games with at least one
    costliest decision, and of those the games whose first one is clear (its cost stood;
    the others name the closest call), median and 90th percentile seconds, the largest
    peak memory.
(b) the check that the costliest decision is a real mistake: on the first ``--check`` lost
    games with a clear one, the real deal is played on by following fair hints
    (:func:`spider_solver.analysis.fair.fair_game`, default options) from the position
    before the decision, ``--check-seeds`` times (seeds 0, 1, ...) after the action played
    and as many after the better action. Reported: the wins of each, the games where the
    two counts differ, and of those, how many the better action's count is the higher.
    ``--reviewed FILE`` takes the reviews of (a) from an earlier run's result file (the same
    deals and options) and runs (b) alone.

The deals are fresh: the fair planner was tuned on 4-suit deals 3000-3399, the review's
constants (REVIEW_CONFIRM_LAYOUTS, REVIEW_CONFIRMED, CLEAR_Z, HOPELESS_AFTER) were chosen on
the casual player's games of 4-suit deals 910000-910023 and 2-suit deals 911000-911011;
report from 920000 on (4 suits) and 930000 on (2 suits). The tables are printed and
written, after every game, to the result file ``--out`` (default
``benchmarks/results/review-s{suits}.json``), so an interrupted run keeps what it measured.

The machine these run on is shared: the wall seconds are those of the run, beside the CPU
seconds, which do not depend on the load.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import resultfile  # noqa: E402

GAME_COLUMNS = [
    ("deal", "deal", ""), ("actions", "actions", "int"), ("total", "decisions", "int"),
    ("judged", "judged", "int"), ("skipped", "skipped", "int"), ("forced", "forced", "int"),
    ("seconds", "review s", ".1f"), ("cpu", "CPU s", ".1f"), ("peak_mb", "peak MB", ".0f"), ("load", "load", ".1f"),
    ("costliest", "costliest decision", ""),
]
SUMMARY_COLUMNS = [
    ("suits", "suits", ""), ("deals", "deals played", "int"), ("lost", "lost games", "int"),
    ("reviewed", "reviewed", "int"), ("with_costliest", "with a costliest decision", "int"),
    ("with_clear", "of which clear (the others: the closest call)", "int"),
    ("median_s", "median review s", ".1f"), ("p90_s", "p90 review s", ".1f"),
    ("median_cpu", "median CPU s", ".1f"), ("peak_mb", "largest peak MB", ".0f"),
    ("layouts", "layouts", "int"), ("confirm_layouts", "confirm layouts", "int"), ("workers", "workers", "int"),
]
CHECK_COLUMNS = [
    ("deal", "deal", ""), ("decision", "costliest decision", ""), ("played_wins", "wins after it", "int"),
    ("better_wins", "wins after the better", "int"), ("games", "games each", "int"),
]
CHECK_SUMMARY_COLUMNS = [
    ("checked", "games checked", "int"), ("differ", "win counts differ", "int"),
    ("better_higher", "better action's higher", "int"), ("share", "share", "%"),
]


def lost_games(suits: int, first: int, count: int) -> tuple[list[tuple[str, list[str]]], int]:
    """The casual player's first ``count`` lost games from deal ``first`` on, and the deals played."""
    from bench_analyze import casual_play

    from spider_solver.rules import Deal, GameCode, replay

    games: list[tuple[str, list[str]]] = []
    number = first
    while len(games) < count:
        code = str(GameCode(suits, "classic", number))
        deal = Deal.from_code(code)
        log = casual_play(deal, random.Random(f"bench_review casual {code}"))
        if not replay(deal, log).won:
            games.append((code, log))
        number += 1
    return games, number - first


class Peak:
    """The largest resident set of this process and its descendants together, sampled from
    /proc every ``every`` seconds while the block runs."""

    def __init__(self, every: float = 0.1) -> None:
        self.every, self.peak, self._stop = every, 0, threading.Event()

    def __enter__(self) -> Peak:
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _watch(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, _tree_rss(os.getpid()))
            self._stop.wait(self.every)


def _tree_rss(pid: int) -> int:
    """The resident set in bytes of ``pid`` and its descendants (0 for a process gone)."""
    total = 0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return total
    return total + sum(_tree_rss(int(child)) for child in children)


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children that have ended."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def review_game(code: str, log: list[str], args: argparse.Namespace) -> dict:
    """One lost game reviewed, as ``spider-solve review`` does, with its figures."""
    from spider_solver.analysis.reviewing import review

    started, cpu = time.perf_counter(), cpu_seconds()
    with Peak() as peak:
        answer = review(code, log, workers=args.workers, layouts=args.layouts, confirm_layouts=args.confirm_layouts)
    worst = answer.costliest[0] if answer.costliest else None
    return {
        "deal": code, "actions": len(log), "total": answer.total, "judged": len(answer.decisions),
        "skipped": len(answer.skipped), "forced": answer.forced,
        "seconds": round(time.perf_counter() - started, 2), "cpu": round(cpu_seconds() - cpu, 2),
        "peak_mb": round(peak.peak / 2**20, 1), "load": round(os.getloadavg()[0], 1),
        "costliest": worst.summary if worst else "none clearly",
        "mistakes": [m.to_dict() for m in answer.costliest],
    }


def play_on(job: tuple[str, list[str], int]) -> bool:
    """Whether the game ``log`` reaches on ``code``, played on by fair hints with ``seed``, is won."""
    from spider_solver.analysis.fair import fair_game

    code, log, seed = job
    return fair_game(code, log, seed=seed).outcome == "won"


def check(rows: list[dict], games: dict[str, list[str]], args: argparse.Namespace, pool: ProcessPoolExecutor,
          done: list[dict], save) -> None:
    """(b): the first ``args.check`` games with a costliest decision played on from before it."""
    seeds = range(args.check_seeds)
    for row in rows:
        if len(done) >= args.check:
            return
        if not row["mistakes"] or not row["mistakes"][0].get("clear", True):  # the closest call is not checked
            continue
        worst = row["mistakes"][0]
        before = games[row["deal"]][:worst["index"]]
        jobs = [(row["deal"], [*before, action], seed) for action in (worst["action"], worst["better"])
                for seed in seeds]
        won = list(pool.map(play_on, jobs))
        done.append({"deal": row["deal"], "decision": f"action {worst['index'] + 1}, {worst['action']} "
                     f"(better {worst['better']})", "played_wins": sum(won[:len(seeds)]),
                     "better_wins": sum(won[len(seeds):]), "games": len(seeds)})
        print(resultfile.line(CHECK_COLUMNS, done[-1]), flush=True)
        save()


def check_summary(done: list[dict]) -> dict:
    differ = [c for c in done if c["played_wins"] != c["better_wins"]]
    higher = sum(1 for c in differ if c["better_wins"] > c["played_wins"])
    return {"checked": len(done), "differ": len(differ), "better_higher": higher,
            "share": higher / len(differ) if differ else None}


def summary(rows: list[dict], args: argparse.Namespace, played: int, lost: int) -> dict:
    seconds = sorted(r["seconds"] for r in rows)
    return {
        "suits": args.suits, "deals": played, "lost": lost, "reviewed": len(rows),
        "with_costliest": sum(1 for r in rows if r["mistakes"]),
        "with_clear": sum(1 for r in rows if r["mistakes"] and r["mistakes"][0].get("clear", True)),
        "median_s": statistics.median(seconds) if rows else None,
        "p90_s": seconds[min(len(seconds) - 1, int(0.9 * len(seconds)))] if rows else None,
        "median_cpu": statistics.median(r["cpu"] for r in rows) if rows else None,
        "peak_mb": max((r["peak_mb"] for r in rows), default=None),
        "layouts": args.layouts, "confirm_layouts": args.confirm_layouts, "workers": args.workers,
    }


def main() -> None:
    from spider_solver.analysis.fair import load_fair_hint
    from spider_solver.limits import FAIR_LAYOUTS, REVIEW_CONFIRM_LAYOUTS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--first", type=int, default=920000)
    parser.add_argument("--lost", type=int, default=30)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--layouts", type=int, default=FAIR_LAYOUTS)
    parser.add_argument("--confirm-layouts", type=int, default=REVIEW_CONFIRM_LAYOUTS)
    parser.add_argument("--check", type=int, default=12)
    parser.add_argument("--check-seeds", type=int, default=4)
    parser.add_argument("--reviewed", help="the result file of an earlier run with the same deals and options: its "
                                           "reviews are taken from there, and only (b) runs")
    resultfile.add_out_option(parser, "review-s{suits}")
    args = parser.parse_args()

    load_fair_hint(print)  # compiled once, before the workers start
    games, played = lost_games(args.suits, args.first, args.lost)
    print(f"{len(games)} lost games of {played} deals from {args.first}", flush=True)
    rows: list[dict] = []
    done: list[dict] = []

    def save() -> None:
        tables = {} if args.reviewed else {
            "summary": resultfile.table(SUMMARY_COLUMNS, [summary(rows, args, played, len(games))]),
            "games": resultfile.table(GAME_COLUMNS, rows)}
        if done:
            tables["check"] = resultfile.table(CHECK_COLUMNS, done)
            tables["check_summary"] = resultfile.table(CHECK_SUMMARY_COLUMNS, [check_summary(done)])
        extra = {"source": f"the reviews of {args.reviewed}"} if args.reviewed else {}
        resultfile.write(args, "bench_review", tables, **extra)

    if args.reviewed:
        rows.extend(resultfile.load(Path(args.reviewed))["tables"]["games"]["rows"])
        assert [row["deal"] for row in rows] == [code for code, _ in games], "another run's deals"
    else:
        print(resultfile.header(GAME_COLUMNS), flush=True)
        for code, log in games:
            rows.append(review_game(code, log, args))
            print(resultfile.line(GAME_COLUMNS, rows[-1]), flush=True)
            save()
    if args.check:
        print(resultfile.header(CHECK_COLUMNS), flush=True)
        with ProcessPoolExecutor(args.workers) as pool:
            check(rows, dict(games), args, pool, done, save)
    print()
    if not args.reviewed:
        print(resultfile.markdown(resultfile.table(SUMMARY_COLUMNS, [summary(rows, args, played, len(games))])))
    if done:
        print()
        print(resultfile.markdown(resultfile.table(CHECK_SUMMARY_COLUMNS, [check_summary(done)])))


if __name__ == "__main__":
    main()
