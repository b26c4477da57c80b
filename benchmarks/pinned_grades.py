"""The grades of a fixed set of deals, pinned: record them, or re-grade and compare.

Usage::

    python benchmarks/pinned_grades.py --record [--first 0] [--count 200] [--suits 1 2 4]
    python benchmarks/pinned_grades.py [--check]

``--record`` grades deals ``first`` .. ``first + count - 1`` (classic rule) at each suit
count with the default seed and writes, per deal, the grade, the raw figure and the fair
player's own figures (totals over the games of won, runs removed, cards turned up, deals
made and actions, and a SHA-256 of the whole results array and of every game's actions)
to ``tests/fixtures/grades-0-199.json``. ``--check`` (the default) re-grades every
deal of that file and compares all of it; exit status 1 if any deal differs. A change to
the fair player that is meant to keep the grader's version must pass ``--check``
(``tests/test_grading.py`` re-grades a sample of the file).

Both print the CPU seconds (``time.process_time``) the fair player took a deal: the
median per suit count and overall.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]
PINNED = ROOT / "tests" / "fixtures" / "grades-0-199.json"
#: Actions of each game hashed into ``trace_sha256``: every action of a game (P_MAX_ACTIONS).
TRACE = 600


def figures_of(code: str) -> tuple[dict, float]:
    """(the pinned figures of the deal ``code``, CPU seconds of its play)."""
    import numpy as np

    from spider_solver.grading import GRADE_SEED, GRADER_VERSION, grade_of, play
    from spider_solver.rules import Deal

    deal = Deal.from_code(code)
    began = time.process_time()
    figures, moves = play(deal, seed=GRADE_SEED, trace=TRACE)
    seconds = time.process_time() - began
    raw = figures.raw()
    results = np.stack([figures.won, figures.removed, figures.turned, figures.dealt, figures.actions], axis=1)
    row = {
        "code": code, "difficulty": grade_of(raw, deal.variant), "difficulty_raw": raw,
        "grader_version": GRADER_VERSION, "games": figures.games,
        "won": int(figures.won.sum()), "removed": int(figures.removed.sum()), "turned": int(figures.turned.sum()),
        "dealt": int(figures.dealt.sum()), "actions": int(figures.actions.sum()),
        "results_sha256": hashlib.sha256(np.ascontiguousarray(results, dtype=np.int64).tobytes()).hexdigest(),
        "trace_sha256": hashlib.sha256(np.ascontiguousarray(moves, dtype=np.int64).tobytes()).hexdigest(),
    }
    return row, seconds


def load_pinned(path: Path = PINNED) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["deals"]


def report_seconds(seconds: dict[int, list[float]]) -> None:
    every = [s for values in seconds.values() for s in values]
    parts = [f"{suits} suits {statistics.median(values):.3f}" for suits, values in sorted(seconds.items())]
    print(f"fair player CPU seconds a deal, median: {', '.join(parts)}; all {statistics.median(every):.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--record", action="store_true", help="grade the deals and write the file")
    mode.add_argument("--check", action="store_true", help="re-grade the file's deals and compare (the default)")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--suits", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--file", type=Path, default=PINNED)
    args = parser.parse_args()

    from spider_solver.grading import load_grader
    from spider_solver.rules import GameCode

    load_grader()
    seconds: dict[int, list[float]] = {}
    if args.record:
        codes = [str(GameCode(suits, "classic", n)) for suits in args.suits
                 for n in range(args.first, args.first + args.count)]
        rows = []
        for code in codes:
            row, spent = figures_of(code)
            rows.append(row)
            seconds.setdefault(GameCode.parse(code).suits, []).append(spent)
        args.file.parent.mkdir(parents=True, exist_ok=True)
        args.file.write_text(json.dumps({"deals": rows}, indent=1) + "\n", encoding="utf-8")
        print(f"recorded {len(rows)} deals in {args.file}")
        report_seconds(seconds)
        return 0
    differ = []
    pinned = load_pinned(args.file)
    for want in pinned:
        got, spent = figures_of(want["code"])
        seconds.setdefault(GameCode.parse(want["code"]).suits, []).append(spent)
        if got != want:
            differ.append(want["code"])
            changed = sorted(k for k in want if got.get(k) != want[k])
            print(f"{want['code']}: differs in {', '.join(changed)}")
    print(f"{len(pinned) - len(differ)} of {len(pinned)} deals identical")
    report_seconds(seconds)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
