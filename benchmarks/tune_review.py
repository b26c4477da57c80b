"""How the review's judgements again were chosen: for the casual player's lost games of
tuning deals, the first judgement of every decision once, then each way of judging the
costliest again on it, and which games get a decision named.

Usage::

    python benchmarks/tune_review.py --suits 4 --first 910000 --lost 24 --variants 5x64,5x128,10x64 \\
        [--part 0 --parts 2] [--out tune-review-s4-0.jsonl]

A variant ``NxL`` judges again the N costliest decisions by their first judgement on L
fresh layouts (N at most REVIEW_CONFIRMED * REVIEW_CONFIRM_ROUNDS, the candidates the
review ranks), at once: the games with a decision named by two rounds of 5 are those
named by 10 at once. The decisions named are the review's (``named``); how many would be
named by chance costs alone is read from ``detail`` (the layouts won by each). Each game
is appended to ``--out`` as a JSON line as it ends (the CPU
seconds of the first judgements and of each variant's, the decisions named, and for each
decision judged again: its index, the action played, the better one, the layouts each won,
and the layouts where each got further), and a line per game is printed. ``--part``/``--parts``
split the games between processes (one a core). Only ever on tuning deals: the review
benchmarks report from 920000 (4 suits) and 930000 (2 suits) on.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    from bench_review import lost_games

    import spider_solver.analysis.reviewing as reviewing
    from spider_solver.analysis.start import replay_log
    from spider_solver.rules import Deal

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--first", type=int, default=910000)
    parser.add_argument("--lost", type=int, default=24)
    parser.add_argument("--variants", default="5x64,5x128,10x64")
    parser.add_argument("--part", type=int, default=0)
    parser.add_argument("--parts", type=int, default=1)
    parser.add_argument("--out", default="tune-review.jsonl")
    args = parser.parse_args()
    variants = [(name, *(int(n) for n in name.split("x"))) for name in args.variants.split(",")]
    most = reviewing.REVIEW_CONFIRMED * reviewing.REVIEW_CONFIRM_ROUNDS
    if any(confirmed > most for _, confirmed, _ in variants):
        parser.error(f"a variant judges again at most {most} decisions (the candidates the review ranks)")
    options = reviewing.DEFAULT_REVIEW_OPTIONS
    games, _ = lost_games(args.suits, args.first, args.lost)
    for number, (code, log) in enumerate(games):
        if number % args.parts != args.part:
            continue
        start = replay_log(Deal.from_code(code), log, options.deal_on_empty, options.undo_limit)
        jobs, _ = reviewing._decisions(start, options)
        stretches = reviewing._Stretches()
        cpu = time.process_time()
        for job, judged in reviewing._here(jobs, stretches.hopeless):
            stretches.add(job, judged)
        row: dict = {"deal": code, "actions": len(log), "first_cpu": time.process_time() - cpu, "variants": {}}
        for name, confirmed, layouts in variants:
            candidates = reviewing._to_confirm(jobs, stretches.judged, options.but(confirm_layouts=layouts))
            cpu = time.process_time()
            again = [(job, reviewing.judge(job)) for job in candidates[:confirmed]]
            detail = []
            for job, judged in again:
                played, other, further, behind = judged.versus(job.extra[0])
                detail.append((job.index, played.action, other and other.action, played.wins,
                               other and other.wins, further, behind))
            row["variants"][name] = {"cpu": time.process_time() - cpu,
                                     "named": [m.summary for m in reviewing._costliest(again)], "detail": detail}
        with open(args.out, "a") as out:
            out.write(json.dumps(row) + "\n")
        print(code, {name: len(v["named"]) for name, v in row["variants"].items()}, flush=True)


if __name__ == "__main__":
    main()
