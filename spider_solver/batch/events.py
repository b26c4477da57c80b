"""What a batch, a grading run and an improvement pass tell as they go: one frozen value an event.

The orchestration functions (:func:`~spider_solver.batch.run.run_batch`,
:func:`~spider_solver.batch.grading.grade_all`, :func:`~spider_solver.batch.improve.run_improve`)
hand each event to a ``tell`` function and know no sentence; the command line words them
(:mod:`spider_solver.cli.words`). A caller that wants no words passes :func:`ignore`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spider_solver.batch.report import ImproveReport, Report


@dataclass(frozen=True)
class Note:
    """A message of a step the run calls (the engine's compile, a deal in flight for long)."""

    text: str


@dataclass(frozen=True)
class Planning:
    """A large plan is being made (it takes seconds)."""

    count: int
    catalog: str


@dataclass(frozen=True)
class NothingToSolve:
    """The batch has nothing to do: every deal in its range is settled (``settled``), or its count is 0."""

    settled: bool


@dataclass(frozen=True)
class BatchStarts:
    """The workers start on the plan: ``solving`` codes (in order), ``grading`` verified deals
    of the range left ungraded, on ``where``; ``cpu_seconds`` the plan's estimate (None when
    the budget is not the default) over ``slots`` processes."""

    solving: tuple[str, ...]
    resumed: int
    grading: int
    where: str
    catalog: str
    max_nodes: int
    max_seconds: float | None
    cpu_seconds: float | None
    slots: int


@dataclass(frozen=True)
class AllSolved:
    """Every deal of the plan is solved; grading goes on (``graded`` of ``queued`` so far)."""

    solved: int
    graded: int
    queued: int


@dataclass(frozen=True)
class Ungradable:
    """The grader cannot grade ``code`` (said for the first such deal only); it stays ungraded."""

    code: str
    why: str


@dataclass(frozen=True)
class StoppedInWorker:
    """Ctrl-C reached the search of ``code`` in its worker: no result; it stays pending."""

    code: str


@dataclass(frozen=True)
class JobFailed:
    """The job of ``code`` raised in its worker (``why``: the exception's type and text)."""

    code: str
    why: str


@dataclass(frozen=True)
class CannotImprove:
    """The stored row of ``code`` cannot be read as a record (``why``); it is left as it is."""

    code: str
    why: str


@dataclass(frozen=True)
class PoolBroke:
    """A worker process died: the pool is broken (``why``), the run stops."""

    why: str


@dataclass(frozen=True)
class BatchEnded:
    """The batch is over: its report, whether its range was given (``--start``), whether a
    stop came during the plan (``plan_cut``: nothing planned), and whether a write to the
    catalog failed (its error follows)."""

    report: Report
    start_given: bool
    plan_cut: bool
    write_failed: bool


@dataclass(frozen=True)
class GradingStarts:
    """``spider-solve grade`` starts on ``count`` deals on ``where``, an estimate of
    ``cpu_seconds`` over ``slots`` processes."""

    count: int
    where: str
    cpu_seconds: float
    slots: int


@dataclass(frozen=True)
class NothingToImprove:
    """No verified deal to improve: ``total`` verified, ``skipped`` of them improved at this budget already."""

    total: int
    skipped: int


@dataclass(frozen=True)
class ImproveStarts:
    """The improvement pass starts on ``count`` deals on ``workers`` processes, each deal
    with ``nodes`` (None: the default of its suit count)."""

    count: int
    skipped: int
    workers: int
    nodes: int | None
    cpu_seconds: float


@dataclass(frozen=True)
class ImproveEnded:
    """The improvement pass is over: ``deals`` were planned."""

    report: ImproveReport
    deals: int


#: Anything a run tells.
Event = (Note | Planning | NothingToSolve | BatchStarts | AllSolved | Ungradable | StoppedInWorker | JobFailed
         | CannotImprove | PoolBroke | BatchEnded | GradingStarts | NothingToImprove | ImproveStarts | ImproveEnded)
#: Where a run's events go.
Tell = Callable[[Event], None]


def ignore(event: Event) -> None:
    """A ``tell`` that words nothing."""


__all__ = ["AllSolved", "BatchEnded", "BatchStarts", "CannotImprove", "Event", "GradingStarts", "ImproveEnded",
           "ImproveStarts", "JobFailed", "NothingToImprove", "NothingToSolve", "Note", "Planning", "PoolBroke",
           "StoppedInWorker", "Tell", "Ungradable", "ignore"]
