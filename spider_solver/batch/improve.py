"""The improvement pass behind ``spider-solve improve``: shorter lines for verified deals.

The catalog's verified rows that an ``improve`` pass of this node budget could still
change (:meth:`Catalog.to_improve`) are sent, with their stored line, to worker
processes that run :func:`spider_solver.verify.improve`; each result is written by this
process as it arrives, in one transaction (:meth:`Catalog.record_improvement`): a line
that the rules engine replayed to a win replaces the stored one only if it is shorter,
and the row records the budget spent, so that a rerun at the same or a smaller budget
skips the deal. Ctrl-C and SIGTERM stop as a batch does: what was written stays, the
deals in flight are redone by the next run.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

from spider_solver.batch.events import (
    CannotImprove,
    ImproveEnded,
    ImproveStarts,
    Note,
    NothingToImprove,
    PoolBroke,
    Tell,
    ignore,
)
from spider_solver.batch.inflight import StatusLine, tracked
from spider_solver.batch.pools import Pool, job_result, keep_busy, local_pool
from spider_solver.batch.report import ImproveReport, cpu_seconds, progress_bar
from spider_solver.batch.signals import StopRequest, catch_signals
from spider_solver.batch.task import warm_engine
from spider_solver.catalog import Catalog
from spider_solver.errors import CatalogError, SpiderError
from spider_solver.limits import (
    DEFAULT_CATALOG,
    IMPROVE_MAX_SECONDS,
    IMPROVE_NODE_RATE,
    improve_nodes,
)
from spider_solver.rules.variant import SUIT_COUNTS
from spider_solver.terminal import is_terminal, silent

if TYPE_CHECKING:
    from spider_solver.verify import ImproveResult


@dataclass(frozen=True)
class ImproveOptions:
    """An improvement pass, its options checked by the command line's parameter types."""

    catalog: str = DEFAULT_CATALOG
    suits: int | None = None
    rule: str | None = None
    #: None: the default of each deal's suit count (verify.IMPROVE_MAX_NODES).
    max_nodes: int | None = None
    max_seconds: float | None = IMPROVE_MAX_SECONDS
    workers: int | None = None
    quiet: bool = False

    def budget_for(self, suits: int) -> int:
        """The node budget of a deal of ``suits`` suits in this pass."""
        return self.max_nodes if self.max_nodes is not None else improve_nodes(suits)


class Improved(NamedTuple):
    """What an improvement job sends back: the pass's result, and the worker's version
    (a cluster may run another version than this machine)."""

    result: ImproveResult
    solver_version: str


def improve_deal(code: str, solution: tuple[str, ...], max_nodes: int, max_seconds: float | None) -> Improved:
    """Run in a worker: :func:`spider_solver.verify.improve` on one stored line."""
    from spider_solver.batch.inflight import meter
    from spider_solver.verify import improve
    from spider_solver.version import __version__

    return Improved(improve(code, solution, max_nodes=max_nodes, max_seconds=max_seconds, meter=meter()), __version__)


def run_improve(options: ImproveOptions, *, stream: TextIO | None = None, tell: Tell = ignore) -> ImproveReport:
    """Improve the catalog's verified lines; the bar goes to ``stream`` (stderr), what
    happens to ``tell`` as events (the command line words them), the last one
    :class:`~spider_solver.batch.events.ImproveEnded`."""
    from spider_solver.verify import load_engine
    from spider_solver.version import __version__

    stream = sys.stderr if stream is None else stream
    began = time.monotonic()
    report = ImproveReport()
    stop = StopRequest()
    # silent: a compile draws no progress line either
    say: Callable[[str], None] = silent if options.quiet else (lambda text: tell(Note(text)))

    with Catalog(options.catalog, create=False) as catalog, catch_signals(stop):
        catalog.stop_check = stop.raise_if_asked
        total = catalog.count(suits=options.suits, rule=options.rule, status="verified")
        codes = _to_improve(catalog, options, __version__)
        if codes:
            catalog.require_writable("improve records the lines it finds and the budget spent there")
        report.planned, report.skipped = len(codes), total - len(codes)
        if not codes:
            tell(NothingToImprove(total, report.skipped))
        else:
            stop.run_now(partial(load_engine, say, here=False))  # a compile of a minute: a stop need not wait for it
        if codes and not stop:
            workers = min(options.workers or 1, len(codes))
            cpu = cpu_seconds(codes, lambda suits: options.budget_for(suits) / IMPROVE_NODE_RATE[suits])
            nodes = options.max_nodes if options.max_nodes is not None or options.suits is None else \
                options.budget_for(options.suits)
            tell(ImproveStarts(len(codes), report.skipped, workers, nodes, cpu))
            pool = local_pool(workers, warm=warm_engine, meters=True)
            bar = progress_bar(len(codes), stream, quiet=options.quiet)
            line = StatusLine(bar, pool.meters, terminal=is_terminal(stream) and not options.quiet, write=say,
                              verb="improving")
            finished = False
            try:
                with stop.ending():  # a stop ends a wait for the catalog's lock: summed up as any stop
                    _improve_all(_Pass(codes, pool, catalog, options, report, stop, tell), bar, __version__, line)
                    finished = not stop and report.broken is None
            finally:
                line.close()
                bar.close()
                pool.end(clean=finished)
    # A stop that came after the last deal was written interrupted nothing.
    report.interrupted = bool(stop) and report.done + len(report.failed) < report.planned
    report.wall = time.monotonic() - began
    tell(ImproveEnded(report, len(codes)))
    return report


@dataclass(frozen=True)
class _Pass:
    """An improvement pass under way: its deals, pool, catalog, options, report, stop request and events."""

    codes: list[str]
    pool: Pool
    catalog: Catalog
    options: ImproveOptions
    report: ImproveReport
    stop: StopRequest
    tell: Tell


def _to_improve(catalog: Catalog, options: ImproveOptions, version: str) -> list[str]:
    """The codes to improve, lowest suit count first, each suit count at its budget."""
    return [code for suits in SUIT_COUNTS if options.suits in (None, suits)
            for code in catalog.to_improve(max_nodes=options.budget_for(suits), version=version, suits=suits,
                                           rule=options.rule)]


def _improve_all(run: _Pass, bar: Any, version: str, line: StatusLine) -> None:
    codes, catalog, options, report, tell = run.codes, run.catalog, run.options, run.report, run.tell

    def collect(future: Future, job: tuple[str, tuple[str, ...]]) -> None:
        code, before = job
        improved = job_result(future, code, report.failed, tell)
        if improved is None:
            return
        result = improved.result
        if result.stopped == "interrupted":
            return  # no result at this budget: the next run does it again
        # The catalog stores the pass's plain-data form (ImproveResult.to_dict, its one serialisation).
        replaced = catalog.record_improvement(code, before, result.to_dict(),
                                              version=improved.solver_version or version)
        report.done += 1
        report.before.append(len(before))
        report.after.append(result.moves if replaced else len(before))
        report.seconds.append(float(result.seconds))
        if replaced:
            report.shortened += 1
            report.saved += len(before) - result.moves
        bar.update(1)
        bar.set_postfix({"shortened": report.shortened, "saved": report.saved}, refresh=False)

    def jobs() -> Iterator[tuple[Callable[..., Improved], tuple, tuple[str, tuple[str, ...]]]]:
        for code in codes:  # each stored line read as its deal is submitted
            try:
                entry = catalog.get(code)
            except CatalogError:
                raise  # the file itself cannot be read: nothing further can be
            except SpiderError as error:  # a row no command wrote (its code, say): report it, go on
                report.failed.append(code)
                tell(CannotImprove(code, str(error)))
                continue
            if entry is None or not entry.solution:  # gone from the catalog since the plan
                report.planned -= 1
                continue
            budget = options.budget_for(entry.suits)
            yield (tracked, (improve_deal, code, budget, code, entry.solution, budget, options.max_seconds),
                   (code, entry.solution))

    report.broken = keep_busy(run.pool.executor, run.pool.slots, jobs(), collect, run.stop,
                              lambda: line.tick(report.planned - report.done - len(report.failed)))
    if report.broken is not None:
        tell(PoolBroke(report.broken))


__all__ = ["ImproveOptions", "ImproveReport", "Improved", "improve_deal", "run_improve"]
