"""Grading the catalog's verified deals on worker processes: ``spider-solve grade``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from spider_solver.batch.events import GradingStarts, Note, Tell, ignore
from spider_solver.batch.inflight import StatusLine, tracked
from spider_solver.batch.pools import keep_busy, local_pool
from spider_solver.batch.report import cpu_seconds
from spider_solver.batch.signals import StopRequest, catch_signals
from spider_solver.batch.task import Graded, grade_deal, prepare_grader, warm_grader
from spider_solver.catalog import Catalog
from spider_solver.limits import GRADE_CPU_SECONDS
from spider_solver.terminal import silent


@dataclass
class Grading:
    """What :func:`grade_all` did: the grades written, by grade; the deals the grader
    could not grade, with why; whether a stop (Ctrl-C, SIGTERM) cut it short, and why
    the pool broke, if it did."""

    grades: Counter = field(default_factory=Counter)
    errors: list[tuple[str, str]] = field(default_factory=list)
    interrupted: bool = False
    broken: str | None = None

    @property
    def done(self) -> int:
        return sum(self.grades.values())


def write_grade(catalog: Catalog, code: str, future: Future) -> Graded:
    """The result of a grading job (:func:`~spider_solver.batch.task.grade_deal`), its
    grade written to ``catalog``; or, with its ``error``, the deal left ungraded (the
    grader cannot grade it, or its worker failed)."""
    error = future.exception()
    if error is not None:
        return Graded(None, f"{type(error).__name__} in a worker: {error}")
    graded = future.result()
    if graded.grade is not None:
        catalog.set_grade(code, graded.grade.to_dict())
    return graded


def grade_all(catalog: Catalog, codes: Sequence[str], *, workers: int, bar: Any, tell: Tell = ignore,
              quiet: bool = False, terminal: bool = False) -> Grading:
    """Grade ``codes``, verified deals of ``catalog``, on ``workers`` local processes, and
    write each grade as it arrives (so a stop keeps what was graded). The grader is
    compiled here first if it must be (saying so through ``tell``, unless ``quiet``), not in
    every worker; the start is told (:class:`~spider_solver.batch.events.GradingStarts`).
    On a ``terminal``, a line below ``bar`` shows the deals being graded."""
    # silent: a compile draws no progress line either
    say: Callable[[str], None] = silent if quiet else (lambda text: tell(Note(text)))
    grading = Grading()
    if not codes:
        return grading
    stop = StopRequest()

    def collect(future: Future, code: str) -> None:
        graded = write_grade(catalog, code, future)
        if graded.grade is None:
            grading.errors.append((code, graded.error or "no grade"))
        else:
            grading.grades[graded.grade.grade] += 1
        bar.update(1)

    with catch_signals(stop):
        stop.run_now(prepare_grader, say)  # a compile of a minute: a stop need not wait for it
        if not stop:
            pool = local_pool(min(workers, len(codes)), warm=warm_grader, meters=True)
            tell(GradingStarts(len(codes), pool.where, cpu_seconds(codes, GRADE_CPU_SECONDS.__getitem__), pool.size))
            line = StatusLine(bar, pool.meters, terminal=terminal, write=say, verb="grading")
            finished = False
            catalog.stop_check = stop.raise_if_asked  # a wait for the catalog's lock ends at a stop
            try:
                with stop.ending():  # a stop ends a wait for the catalog's lock: summed up as any stop
                    grading.broken = keep_busy(pool.executor, pool.slots,
                                               ((tracked, (grade_deal, code, 0, code), code) for code in codes),
                                               collect, stop,
                                               lambda: line.tick(len(codes) - grading.done - len(grading.errors)))
                    finished = not stop and grading.broken is None
            finally:
                line.close()
                catalog.stop_check = None
                pool.end(clean=finished)
    grading.interrupted = bool(stop) and grading.done + len(grading.errors) < len(codes)
    return grading


__all__ = ["Grading", "grade_all", "write_grade"]
