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

import statistics
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from typing import TextIO

from spider_solver.batch.inflight import StatusLine, tracked
from spider_solver.batch.pools import job_result, keep_busy, local_pool
from spider_solver.batch.report import cpu_seconds, estimate, progress_bar
from spider_solver.batch.signals import StopRequest, catch_signals
from spider_solver.batch.task import warm_engine
from spider_solver.catalog import Catalog
from spider_solver.errors import CatalogError, SpiderError
from spider_solver.limits import (
    DEFAULT_CATALOG,
    IMPROVE_MAX_SECONDS,
    IMPROVE_NODE_RATE,
    describe_improve_nodes,
    improve_nodes,
)
from spider_solver.rules.variant import SUIT_COUNTS
from spider_solver.terminal import is_terminal, silent


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
            return f"improved none of {self.planned} deal{'s' if self.planned != 1 else ''}: none was finished"
        deals = "deal" if self.done == 1 else "deals"
        actions = "action" if self.saved == 1 else "actions"
        return (f"improved {self.shortened} of {self.done} {deals} ({self.saved} {actions} saved); median line "
                f"{statistics.median(self.before):g} -> {statistics.median(self.after):g} actions; "
                f"{statistics.median(self.seconds):.1f} s a deal (median), wall {self.wall:.0f} s")


def improve_deal(code: str, solution: tuple[str, ...], max_nodes: int, max_seconds: float | None) -> dict:
    """Run in a worker: :func:`spider_solver.verify.improve` on one stored line, as a dict."""
    from spider_solver.batch.inflight import meter
    from spider_solver.verify import improve
    from spider_solver.version import __version__

    data = improve(code, solution, max_nodes=max_nodes, max_seconds=max_seconds, meter=meter()).to_dict()
    data["solver_version"] = __version__
    return data


def run_improve(options: ImproveOptions, *, stream: TextIO | None = None) -> ImproveReport:
    """Improve the catalog's verified lines; messages and the bar go to ``stream`` (stderr)."""
    from tqdm import tqdm

    from spider_solver.verify import load_engine
    from spider_solver.version import __version__

    stream = sys.stderr if stream is None else stream
    began = time.monotonic()
    report = ImproveReport()
    stop = StopRequest()

    def write(text: str) -> None:
        tqdm.write(text, file=stream)

    say = silent if options.quiet else write  # silent: a compile draws no progress line either

    with Catalog(options.catalog, create=False) as catalog, catch_signals(stop):
        catalog.stop_check = stop.raise_if_asked
        total = catalog.count(suits=options.suits, rule=options.rule, status="verified")
        codes = _to_improve(catalog, options, __version__)
        if codes:
            catalog.require_writable("improve records the lines it finds and the budget spent there")
        report.planned, report.skipped = len(codes), total - len(codes)
        skipped = f" ({report.skipped} already improved at this budget)" if report.skipped else ""
        if not codes:
            why = "; a larger --max-nodes improves them again" if total else " (a batch verifies deals)"
            say(f"nothing to improve: {total} verified deal{'s' if total != 1 else ''}{skipped}{why}")
        else:
            stop.run_now(partial(load_engine, say, here=False))  # a compile of a minute: a stop need not wait for it
        if codes and not stop:
            workers = min(options.workers or 1, len(codes))
            say(f"improving {len(codes)} verified deal{'s' if len(codes) != 1 else ''}{skipped} on {workers} worker "
                f"process{'es' if workers != 1 else ''}, {_budget_words(options)}: "
                + estimate(cpu_seconds(codes, lambda suits: options.budget_for(suits) / IMPROVE_NODE_RATE[suits]),
                           workers))
            pool = local_pool(workers, warm=warm_engine, meters=True)
            bar = progress_bar(len(codes), stream, quiet=options.quiet)
            line = StatusLine(bar, pool.meters, terminal=is_terminal(stream) and not options.quiet, write=say,
                              verb="improving")
            finished = False
            try:
                with stop.ending():  # a stop ends a wait for the catalog's lock: summed up as any stop
                    _improve_all(codes, pool.executor, pool.slots, catalog, options, report, stop, bar,
                                 lambda text: tqdm.write(text, file=stream), __version__, line)
                    finished = not stop and report.broken is None
            finally:
                line.close()
                bar.close()
                pool.end(clean=finished)
    # A stop that came after the last deal was written interrupted nothing.
    report.interrupted = bool(stop) and report.done + len(report.failed) < report.planned
    report.wall = time.monotonic() - began
    if not options.quiet and codes:
        print(report.summary(), file=stream)
    left = report.planned - report.done - len(report.failed)
    if report.interrupted:
        print(f"interrupted: {report.done} deal{'s' if report.done != 1 else ''} written, {left} left; run the same "
              "command again to carry on", file=stream)
    elif report.broken is not None and left > 0:
        print(f"{report.done} deal{'s' if report.done != 1 else ''} written, {left} not tried; run the same "
              "command again to carry on", file=stream)
    return report


def _budget_words(options: ImproveOptions) -> str:
    """The node budget a deal of this pass gets, in words."""
    if options.max_nodes is not None:
        return f"{options.max_nodes:,} nodes a deal"
    if options.suits is not None:
        return f"{options.budget_for(options.suits):,} nodes a deal"
    return f"the default nodes a deal ({describe_improve_nodes()})"


def _to_improve(catalog: Catalog, options: ImproveOptions, version: str) -> list[str]:
    """The codes to improve, lowest suit count first, each suit count at its budget."""
    return [code for suits in SUIT_COUNTS if options.suits in (None, suits)
            for code in catalog.to_improve(max_nodes=options.budget_for(suits), version=version, suits=suits,
                                           rule=options.rule)]


def _improve_all(codes: list[str], executor, slots: int, catalog: Catalog, options: ImproveOptions,
                 report: ImproveReport, stop: StopRequest, bar, warn: Callable[[str], None], version: str,
                 line: StatusLine) -> None:

    def collect(future: Future, job: tuple[str, tuple[str, ...]]) -> None:
        code, before = job
        data = job_result(future, code, report.failed, warn)
        if data is None:
            return
        if data.get("stopped") == "interrupted":
            return  # no result at this budget: the next run does it again
        replaced = catalog.record_improvement(code, before, data, version=data.get("solver_version") or version)
        report.done += 1
        report.before.append(len(before))
        report.after.append(int(data["moves"]) if replaced else len(before))
        report.seconds.append(float(data["seconds"]))
        if replaced:
            report.shortened += 1
            report.saved += len(before) - int(data["moves"])
        bar.update(1)
        bar.set_postfix({"shortened": report.shortened, "saved": report.saved}, refresh=False)

    def jobs() -> Iterator[tuple[Callable[..., dict], tuple, tuple[str, tuple[str, ...]]]]:
        for code in codes:  # each stored line read as its deal is submitted
            try:
                entry = catalog.get(code)
            except CatalogError:
                raise  # the file itself cannot be read: nothing further can be
            except SpiderError as error:  # a row no command wrote (its code, say): report it, go on
                report.failed.append(code)
                warn(f"error: {code!r} cannot be improved: {error}")
                continue
            if entry is None or not entry.solution:  # gone from the catalog since the plan
                report.planned -= 1
                continue
            budget = options.budget_for(entry.suits)
            yield (tracked, (improve_deal, code, budget, code, entry.solution, budget, options.max_seconds),
                   (code, entry.solution))

    report.broken = keep_busy(executor, slots, jobs(), collect, stop,
                              lambda: line.tick(report.planned - report.done - len(report.failed)))
    if report.broken is not None:
        warn(f"error: the worker pool broke ({report.broken}); stopping")


__all__ = ["ImproveOptions", "ImproveReport", "improve_deal", "run_improve"]
