"""The batch loop: plan, keep the workers busy, write each result as it arrives, and tell
what happens as events (:mod:`~spider_solver.batch.events`), which the command line words.

Ctrl-C and SIGTERM stop the run the same way: no more submissions, queued deals
cancelled, workers stopped, the results already received kept (and those that
finished meanwhile written), exit status 130. A second signal stops at once. The
deals not finished stay in the catalog's ``pending`` table and the next run takes
them over.
"""

from __future__ import annotations

import os
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, TextIO

from spider_solver.batch.events import (
    AllSolved,
    BatchEnded,
    BatchStarts,
    Note,
    NothingToSolve,
    Planning,
    PoolBroke,
    StoppedInWorker,
    Tell,
    Ungradable,
    ignore,
)
from spider_solver.batch.grading import write_grade
from spider_solver.batch.inflight import StatusLine, tracked
from spider_solver.batch.pools import LATER, Pool, cluster_pool, job_result, keep_busy, local_pool, probe
from spider_solver.batch.report import Report, progress_bar
from spider_solver.batch.signals import StopRequest, catch_signals
from spider_solver.batch.task import SOLVE, SOLVE_AND_GRADE, Task
from spider_solver.catalog import Catalog, Plan
from spider_solver.errors import CatalogError
from spider_solver.limits import (
    BATCH_CPU_SECONDS,
    DEFAULT_CATALOG,
    DEFAULT_MAX_NODES,
    DEFAULT_MAX_SECONDS,
    GRADE_CPU_SECONDS,
)
from spider_solver.outcomes import Reason, Status
from spider_solver.rules import GameCode, Variant
from spider_solver.terminal import is_terminal, silent

#: A plan of this many deals or more takes seconds (a million: about 15), and says so first.
LARGE_PLAN = 100_000

def _all_cores() -> int:
    return os.cpu_count() or 1


@dataclass(frozen=True)
class Options:
    """A batch, its options checked and normalised (by the command line's parameter types).

    ``max_seconds`` None means no time limit. ``workers`` is the number of local
    worker processes; on a cluster (``scheduler``), when given, it caps the deals in
    flight at twice its value.
    """

    variant: Variant = field(default_factory=lambda: Variant(suits=4))
    count: int = 100
    #: First deal number; None takes the lowest deals not settled at the budget (Catalog.plan).
    start: int | None = None
    workers: int | None = None
    catalog: str = DEFAULT_CATALOG
    max_nodes: int = DEFAULT_MAX_NODES
    max_seconds: float | None = DEFAULT_MAX_SECONDS
    scheduler: str | None = None
    quiet: bool = False
    #: Grade each verified deal (docs/commands/difficulty.md); ``--no-grade`` turns it off.
    grade: bool = True


def run_batch(options: Options, *, stream: TextIO | None = None, task: Task | None = None,
              tell: Tell = ignore) -> Report:
    """Plan, solve and record one batch; its bar goes to ``stream`` (stderr), what happens to
    ``tell`` as events (:mod:`~spider_solver.batch.events`: the command line words them),
    the last one :class:`~spider_solver.batch.events.BatchEnded` with the report.

    ``task`` says what runs on each deal (:class:`Task`; by default the solver, and the
    grader on verified deals unless ``options.grade`` is off). The
    local workers are started with ``spawn``: a script that calls this must guard its
    entry point with ``if __name__ == "__main__":``. A write to the catalog that fails (a
    full disk) is raised once the batch has ended and said so.
    """
    run = _Run(options, sys.stderr if stream is None else stream,
               task or (SOLVE_AND_GRADE if options.grade else SOLVE), tell)
    began = time.monotonic()
    if options.scheduler:
        probe(options.scheduler)  # before the catalog is made: a refused run leaves no file
    with Catalog(options.catalog) as catalog, catch_signals(run.stop):
        catalog.stop_check = run.stop.raise_if_asked
        run.catalog = catalog
        finished = False
        try:
            if options.scheduler:
                run.pool = cluster_pool(options.scheduler, options.workers)
            plan, ungraded = run.plan()
            if plan.codes or ungraded:
                run.start_pool(len(plan.codes) + len(ungraded))
                if run.pool is not None and not run.stop:
                    run.solve(plan, ungraded)
            finished = not run.stop and run.report.broken is None and run.write_error is None
        finally:
            if run.pool is not None:
                run.pool.end(clean=finished)
    report = run.report
    # A stop that came after the last result was written interrupted nothing.
    report.interrupted = bool(run.stop) and (run.plan_cut or report.done < report.planned or report.grading_cut > 0)
    report.wall = time.monotonic() - began
    tell(BatchEnded(report, options.start is not None, run.plan_cut, run.write_error is not None))
    if run.write_error is not None:  # what was written stays; the command's error line follows
        raise run.write_error
    return report


class _Run:
    """One batch under way: its options, task, catalog, pool, stop request and report."""

    def __init__(self, options: Options, stream: TextIO, task: Task, tell: Tell) -> None:
        self.options, self.stream, self.task, self.tell = options, stream, task, tell
        self.report = Report()
        self.stop = StopRequest()
        self.catalog: Catalog = None  # type: ignore[assignment]  # set as the catalog opens
        self.pool: Pool | None = None
        self.write_error: CatalogError | None = None
        #: A stop during the plan (or the wait for the lock to make it): nothing planned.
        self.plan_cut = False
        #: What a step the batch calls says (the engine's compile): silent with --quiet, so
        #: that a compile draws no progress line either.
        self.say: Callable[[str], None] = silent if options.quiet else (lambda text: tell(Note(text)))

    def plan(self) -> tuple[Plan, list[str]]:
        """The plan, and the verified deals of the range left ungraded."""
        options = self.options
        if options.count >= LARGE_PLAN:
            self.tell(Planning(options.count, options.catalog))
        plan = None
        with self.stop.ending():  # a stop ends the wait for the lock, or the plan (rolled back)
            plan = self.catalog.plan(options.variant, options.count, start=options.start,
                                     max_nodes=options.max_nodes, max_seconds=options.max_seconds)
        if plan is None:
            plan, self.plan_cut = Plan(codes=(), resumed=0, skipped=0), True
        self.report.planned, self.report.resumed, self.report.skipped = len(plan.codes), plan.resumed, plan.skipped
        ungraded = [] if self.plan_cut or self.task.grade is None else _ungraded(self.catalog, options, plan)
        if not plan.codes and not ungraded and not self.plan_cut:
            self.tell(NothingToSolve(settled=bool(plan.skipped)))
        return plan, ungraded

    def start_pool(self, jobs: int) -> None:
        """The local pool (a cluster's is made first), once the task is prepared."""
        if self.pool is not None:
            return
        if self.task.prepare is not None:
            self.stop.run_now(self.task.prepare, self.say)  # a compile of a minute: a stop need not wait for it
        if not self.stop:
            self.pool = local_pool(min(self.options.workers or _all_cores(), jobs), warm=self.task.warm, meters=True)

    def solve(self, plan: Plan, ungraded: list[str]) -> None:
        """Solve the plan and grade, with the bar and the line of deals in flight."""
        options, pool = self.options, self.pool
        assert pool is not None
        plan_cpu = _plan_cpu_seconds(options, len(plan.codes), len(ungraded), grade=self.task.grade is not None)
        self.tell(BatchStarts(tuple(plan.codes), plan.resumed, len(ungraded), pool.where, options.catalog,
                              options.max_nodes, options.max_seconds, plan_cpu, pool.size))
        bar = progress_bar(len(plan.codes), self.stream, quiet=options.quiet)
        line = StatusLine(bar, pool.meters, terminal=is_terminal(self.stream) and not options.quiet,
                          write=self.say, verb="in flight")
        try:
            with self.stop.ending():  # a stop ends a wait for the lock: summed up below
                _solve_all(self, plan.codes, bar, line, ungraded)
        except CatalogError as error:  # a full disk, a lock held past the wait
            self.write_error = error
        finally:
            line.close()
            bar.close()


def _plan_cpu_seconds(options: Options, solving: int, grading: int, *, grade: bool) -> float | None:
    """The CPU seconds a batch of ``solving`` deals and ``grading`` ungraded ones may take,
    from the measured figures of a batch (:data:`~spider_solver.limits.BATCH_CPU_SECONDS`);
    None when the budget is not the default, which those figures do not describe."""
    suits = options.variant.suits
    if options.max_nodes != DEFAULT_MAX_NODES or options.max_seconds != DEFAULT_MAX_SECONDS:
        return None
    each = BATCH_CPU_SECONDS[suits] - (0.0 if grade else GRADE_CPU_SECONDS[suits])
    return solving * max(each, 0.0) + (grading * GRADE_CPU_SECONDS[suits] if grade else 0.0)


def _ungraded(catalog: Catalog, options: Options, plan: Plan) -> list[str]:
    """The verified deals without a grade in the batch's range, besides its plan (left so by
    a run that was killed, or written by ``verify``, the service or ``--no-grade``): with
    ``--start``, its deal numbers; without, every deal number up to the last one planned
    (such a batch takes the lowest deals not settled, so those below are its range too)."""
    if options.start is not None:
        low, high = options.start, options.start + options.count
    elif plan.codes:
        low, high = 0, max(GameCode.parse(code).number for code in plan.codes) + 1
    else:
        return []
    planned = set(plan.codes)
    return [code for code in catalog.ungraded(options.variant, low, high) if code not in planned]


def _solve_all(run: _Run, codes: Sequence[str], bar: Any, line: StatusLine, ungraded: Sequence[str] = ()) -> None:
    """Keep ``pool.slots`` jobs in flight; write each result as it arrives.

    Every deal is handed to the workers first, then the verified ones to grade
    (``task.grade``; a verified result the catalog kept only if the stored row has no
    grade), after the verified deals of the range found without a grade (``ungraded``):
    a deal that searches long near the end then runs beside the others' grading
    instead of alone while the other cores wait (deals 0-999 at 4 suits: one of 42 s).
    The bar counts the deals solved (the graded ones in its postfix), then, if grading
    is left when the last deal is solved, the verified deals graded (a line says so);
    ``line`` shows the deals in flight below it."""
    catalog, options, report, stop, task, tell = run.catalog, run.options, run.report, run.stop, run.task, run.tell
    assert run.pool is not None
    pool = run.pool
    to_grade: deque[str] = deque(ungraded)
    ungradable: list[str] = []
    solved, queued = 0, len(to_grade)
    grading_bar = not codes and queued > 0  # only grading to do: the bar counts it from the start
    if grading_bar:
        bar.set_description("grading", refresh=False)
        bar.reset(total=queued)

    def collect(future: Future, key: tuple[str, bool]) -> None:
        nonlocal solved, grading_bar
        code, grading = key
        solved += not grading
        collect_one(future, code, grading)
        bar.set_postfix(report.postfix(grading=task.grade is not None), refresh=False)
        graded = len(report.grade_seconds) + len(ungradable)  # grading jobs collected
        if grading_bar:
            bar.update(grading)
        elif solved == len(codes) and graded < queued:
            grading_bar = True  # the deals are solved; grading goes on
            tell(AllSolved(len(codes), graded, queued))
            bar.set_description("grading", refresh=False)
            bar.reset(total=queued)
            bar.update(graded)

    def collect_one(future: Future, code: str, grading: bool) -> None:
        nonlocal queued
        if grading:  # a deal the grader cannot grade is written all the same, ungraded
            graded = write_grade(catalog, code, future)
            if graded.grade is None:
                if not ungradable:
                    tell(Ungradable(code, graded.error or "no grade"))
                ungradable.append(code)
            else:
                report.add_grade(graded.grade)
            return
        record = job_result(future, code, report.failed, tell)
        if record is None:
            return
        if record.reason is Reason.INTERRUPTED:
            # Ctrl-C reached the search in a worker (a cluster worker's terminal): that is no
            # result at this budget, so the deal stays pending rather than stored as unknown.
            if not stop:
                tell(StoppedInWorker(code))
            return
        stored = catalog.record(record)
        report.add(record, stored)
        if task.grade is not None and record.status is Status.VERIFIED:
            kept = None if stored else catalog.get(code)
            if kept is None or kept.difficulty is None:  # a kept row's grade stays
                to_grade.append(code)
                queued += 1
        bar.update(1)

    def jobs() -> Iterator[tuple[Callable[..., Any], tuple, tuple[str, bool]] | None]:
        for code in codes:
            yield tracked, (task.run, code, options.max_nodes, code, options.max_nodes, options.max_seconds), \
                (code, False)
        while to_grade or solved < len(codes):
            if to_grade and task.grade is not None:
                code = to_grade.popleft()
                yield tracked, (task.grade, code, 0, code), (code, True)
            else:
                yield LATER

    try:
        def tick() -> None:
            line.tick(queued - len(report.grade_seconds) - len(ungradable) if grading_bar else len(codes) - solved)

        report.broken = keep_busy(pool.executor, pool.slots, jobs(), collect, stop, tick)
    finally:  # also when a write failed, or a stop ended a wait for the catalog's lock
        # The grader could not grade them, or a stop, a broken pool or a failed write came first.
        report.ungraded = queued - len(report.grade_seconds)
        report.grading_cut = report.ungraded - len(ungradable)
    if report.broken is not None:
        tell(PoolBroke(report.broken))


__all__ = ["Options", "run_batch"]
