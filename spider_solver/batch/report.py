"""The figures of a batch and the summary table printed at its end."""

from __future__ import annotations

import contextlib
import math
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from spider_solver.errors import SpiderError, plural
from spider_solver.outcomes import AttemptSummary, Status
from spider_solver.record import SolveRecord
from spider_solver.rules import GameCode
from spider_solver.terminal import is_terminal

if TYPE_CHECKING:
    from spider_solver.grading import Grade


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile of a non-empty list (the summaries' p90; their medians are
    ``statistics.median``, the mean of the two middle values of an even count)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def format_seconds(seconds: float) -> str:
    """A summary's seconds: 3.14 -> "3.14 s", 31.4 -> "31.4 s", from a minute on as :func:`short_seconds`."""
    if seconds < 60:
        return f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.1f} s"
    return short_seconds(seconds)


def short_seconds(seconds: float) -> str:
    """7 -> "7 s", 130 -> "2 min 10 s", 7300 -> "2 h 01 min"."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min {seconds:02d} s"


def suit_counts(codes: Iterable[str]) -> Counter[int]:
    """How many of ``codes`` there are of each suit count, for the estimates; a code that does
    not parse (a row edited by hand, reported when its turn comes) counts nothing."""
    counts: Counter[int] = Counter()
    for code in codes:
        with contextlib.suppress(SpiderError):
            counts[GameCode.parse(code).suits] += 1
    return counts


def cpu_seconds(codes: Iterable[str], per_deal: Callable[[int], float]) -> float:
    """The CPU seconds a job over ``codes`` may take, at ``per_deal(suits)`` a deal of each
    suit count (the measured figures of :mod:`spider_solver.limits`)."""
    return sum(count * per_deal(suits) for suits, count in suit_counts(codes).items())


def estimate(cpu_seconds: float, workers: int) -> str:
    """The time a job of ``cpu_seconds`` of CPU takes on ``workers`` cores, in words, for
    the plan a long command prints before it starts."""
    each = cpu_seconds / max(1, workers)
    return (f"about {short_seconds(cpu_seconds)} of CPU, so about {short_seconds(each)} on "
            f"{plural(workers, 'free core')} (longer on a busy machine)")


def progress_bar(total: int, stream: TextIO, *, quiet: bool) -> Any:
    """A tqdm bar of ``total`` deals on ``stream`` if it is a terminal (redrawn at most twice
    a second), as in every command; when ``quiet``, or into a log file or pipe, a disabled
    bar that draws nothing."""
    from tqdm import tqdm

    return tqdm(total=total, file=stream, unit="deal", disable=quiet or not is_terminal(stream),
                dynamic_ncols=True, smoothing=0.1, mininterval=0.5)


@dataclass
class Report:
    """What a batch did; ``summary()`` is the table printed at the end."""

    planned: int = 0
    resumed: int = 0
    skipped: int = 0
    statuses: Counter = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    #: Grading time of each graded deal, and how many got each grade.
    grade_seconds: list[float] = field(default_factory=list)
    grades: Counter = field(default_factory=Counter)
    #: Verified deals of a grading batch left ungraded (the grader could not grade
    #: them, or the batch stopped first); ``spider-solve grade`` grades them.
    ungraded: int = 0
    #: Those of them a stop left ungraded.
    grading_cut: int = 0
    #: Results that added or improved a catalog row / that the catalog already beat.
    stored: int = 0
    kept: int = 0
    failed: list[str] = field(default_factory=list)
    #: The unwinnable deals and their proofs' counters (``SolveRecord.proof``; None if not kept).
    proofs: list[tuple[str, AttemptSummary | None]] = field(default_factory=list)
    #: Why the executor broke (a worker process died), if it did.
    broken: str | None = None
    interrupted: bool = False
    wall: float = 0.0

    @property
    def done(self) -> int:
        return sum(self.statuses.values())

    def add(self, record: SolveRecord, stored: bool) -> None:
        self.statuses[record.status] += 1
        self.seconds.append(float(record.seconds))
        if record.status is Status.VERIFIED:
            self.lengths.append(len(record.solution))
        if record.status is Status.UNWINNABLE:
            self.proofs.append((record.code or "?", record.proof))
        if stored:
            self.stored += 1
        else:
            self.kept += 1

    def add_grade(self, grade: Grade) -> None:
        self.grades[grade.grade] += 1
        self.grade_seconds.append(float(grade.seconds or 0.0))

    def postfix(self, *, grading: bool = False) -> dict:
        figures = {"verified": self.statuses[Status.VERIFIED], "unwinnable": self.statuses[Status.UNWINNABLE],
                   "unknown": self.statuses[Status.UNKNOWN]}
        return figures | ({"graded": len(self.grade_seconds)} if grading else {})

    #: Unwinnable deals the summary names with their proofs' counters, at most.
    PROOFS_SHOWN = 5

    def proof_figures(self) -> str:
        """The first unwinnable deals with their proofs' nodes and positions stored, for the
        summary, and how many others there are (with counters or without)."""
        shown = [f"{code} {proof.nodes:,} nodes, {proof.tt_stored:,} positions"
                 for code, proof in self.proofs if proof is not None][: self.PROOFS_SHOWN]
        more = len(self.proofs) - len(shown)
        return f"  (proofs: {'; '.join(shown)}{f'; {more} more' if more > 0 else ''})" if shown else ""

    def summary(self) -> str:
        done = self.done
        notes = []
        if self.resumed:
            notes.append(f"{self.resumed} resumed")
        if self.skipped:
            notes.append(f"{self.skipped} skipped, already settled")
        if done < self.planned:
            notes.append(f"{self.planned - done} not done")
        verified = self.statuses[Status.VERIFIED]
        share = f"{100.0 * verified / done:.1f}%" if done else "-"
        if self.seconds:
            timing = (f"median {statistics.median(self.seconds):.3f}  "
                      f"p90 {percentile(self.seconds, 0.9):.3f}  max {max(self.seconds):.3f}")
        else:
            timing = "-"
        length = f"median {statistics.median(self.lengths):g}" if self.lengths else "-"
        rate = f"  ({done / self.wall:.2f} deals/s)" if self.wall > 0 and done else ""
        rows = [
            ("deals", f"{done}" + (f"  ({', '.join(notes)})" if notes else "")),
            ("verified", f"{verified}  ({share})"),
            ("unwinnable", f"{self.statuses[Status.UNWINNABLE]}" + self.proof_figures()),
            ("unknown", f"{self.statuses[Status.UNKNOWN]}"),
            ("seconds per deal", timing),
            ("solution length", length),
        ]
        if self.grade_seconds:
            shares = "  ".join(f"{g}: {self.grades[g]}" for g in range(1, 6))
            rows.append(("graded", f"{len(self.grade_seconds)}  ({shares}); median "
                                   f"{statistics.median(self.grade_seconds):.3f} s per deal"))
        if self.ungraded:
            rows.append(("ungraded", f"{self.ungraded}  (spider-solve grade grades them)"))
        rows += [
            ("catalog", f"{self.stored} added or improved, {self.kept} kept as they were"),
            ("wall time", format_seconds(self.wall) + rate),
        ]
        if self.failed:
            rows.insert(4, ("failed", f"{len(self.failed)}  (left pending)"))
        width = max(len(name) for name, _ in rows)
        return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


@dataclass
class ImproveReport:
    """What a pass did: deals planned, done and shortened, actions saved, time."""

    planned: int = 0
    skipped: int = 0
    done: int = 0
    shortened: int = 0
    saved: int = 0
    failed: list[str] = field(default_factory=list)
    before: list[int] = field(default_factory=list)
    after: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    interrupted: bool = False
    broken: str | None = None
    wall: float = 0.0

    def summary(self) -> str:
        if not self.done:
            return f"improved none of {plural(self.planned, 'deal')}: none was finished"
        return (f"improved {self.shortened} of {plural(self.done, 'deal')} ({plural(self.saved, 'action')} saved); "
                "median line "
                f"{statistics.median(self.before):g} -> {statistics.median(self.after):g} actions; "
                f"{statistics.median(self.seconds):.1f} s a deal (median), wall {self.wall:.0f} s")


__all__ = ["ImproveReport", "Report", "cpu_seconds", "estimate", "format_seconds", "percentile", "progress_bar",
           "short_seconds", "suit_counts"]
