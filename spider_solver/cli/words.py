"""The words of what the batch, ``grade`` and ``improve`` tell: each event a line on standard error.

The orchestration functions of :mod:`spider_solver.batch` know no sentence; they tell
events (:mod:`spider_solver.batch.events`), and :func:`teller` makes the function that
writes them, above the progress bar. With ``-q`` the messages go and the warnings, errors
and the end of an interrupted run stay.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from spider_solver.batch import events as ev
from spider_solver.batch.report import estimate
from spider_solver.errors import plural
from spider_solver.limits import describe_improve_nodes

#: Events that are messages: ``-q`` drops them (warnings, errors and the end stay).
MESSAGES = (ev.Note, ev.Planning, ev.NothingToSolve, ev.BatchStarts, ev.AllSolved, ev.GradingStarts,
            ev.NothingToImprove, ev.ImproveStarts)


def teller(stream: TextIO, *, quiet: bool = False) -> ev.Tell:
    """A ``tell`` that writes each event's lines to ``stream`` above the progress bar."""
    from tqdm import tqdm

    def tell(event: ev.Event) -> None:
        if quiet and isinstance(event, MESSAGES):
            return
        for line in lines(event, quiet=quiet):
            tqdm.write(line, file=stream)

    return tell


def lines(event: ev.Event, *, quiet: bool = False) -> list[str]:
    """The lines that say ``event``."""
    words = _WORDS.get(type(event))
    if words is not None:
        return [words(event)]
    if isinstance(event, ev.BatchEnded):
        return batch_ended(event, quiet=quiet)
    if isinstance(event, ev.ImproveEnded):
        return improve_ended(event, quiet=quiet)
    raise TypeError(f"no words for {event!r}")  # pragma: no cover - every event has its words


def _batch_starts(event: ev.BatchStarts) -> str:
    codes = event.solving
    resumed = f", {event.resumed} of them left pending by an earlier run" if event.resumed else ""
    seconds = "" if event.max_seconds is None else f" and {event.max_seconds:g} s"
    also = (f"{'grading' if not codes else ', and grading'} {plural(event.grading, 'verified deal')} of the range "
            "left ungraded" if event.grading else "")
    what = f"solving {plural(len(codes), 'deal')} ({codes[0]} to {codes[-1]}{resumed})" if codes else ""
    return (f"{what}{also} on {event.where} into {event.catalog}"
            + (f", {event.max_nodes:,} nodes{seconds} a deal" if codes else "")
            + (f": {estimate(event.cpu_seconds, event.slots)}" if event.cpu_seconds is not None and event.slots
               else ""))


def _improve_budget(event: ev.ImproveStarts) -> str:
    """The node budget a deal of the pass gets, in words."""
    if event.nodes is not None:
        return f"{event.nodes:,} nodes a deal"
    return f"the default nodes a deal ({describe_improve_nodes()})"


def _already(skipped: int) -> str:
    return f" ({skipped} already improved at this budget)" if skipped else ""


def _nothing_to_improve(event: ev.NothingToImprove) -> str:
    why = "; a larger --max-nodes improves them again" if event.total else " (a batch verifies deals)"
    return f"nothing to improve: {plural(event.total, 'verified deal')}{_already(event.skipped)}{why}"


_WORDS: dict[type, Callable] = {
    ev.Note: lambda e: e.text,
    ev.Planning: lambda e: f"planning {e.count:,} deals in {e.catalog}...",
    ev.NothingToSolve: lambda e: ("nothing to solve: "
                                  + ("every deal in the range is settled" if e.settled else "count is 0")),
    ev.BatchStarts: _batch_starts,
    ev.AllSolved: lambda e: (f"all {plural(e.solved, 'deal')} solved; grading the verified: {e.graded} of {e.queued} "
                             "graded so far"),
    ev.Ungradable: lambda e: f"warning: {e.code} stays ungraded: {e.why}",
    ev.StoppedInWorker: lambda e: f"warning: the search of {e.code} was interrupted in its worker; it stays pending",
    ev.JobFailed: lambda e: f"error: {e.code} failed in a worker: {e.why}",
    ev.CannotImprove: lambda e: f"error: {e.code!r} cannot be improved: {e.why}",
    ev.PoolBroke: lambda e: f"error: the worker pool broke ({e.why}); stopping",
    ev.GradingStarts: lambda e: (f"grading {plural(e.count, 'verified deal')} on {e.where}: "
                                 + estimate(e.cpu_seconds, e.slots)),
    ev.NothingToImprove: _nothing_to_improve,
    ev.ImproveStarts: lambda e: (f"improving {plural(e.count, 'verified deal')}{_already(e.skipped)} on "
                                 f"{plural(e.workers, 'worker process', 'worker processes')}, {_improve_budget(e)}: "
                                 + estimate(e.cpu_seconds, e.workers)),
}


def batch_ended(event: ev.BatchEnded, *, quiet: bool = False) -> list[str]:
    """The end of a batch: its summary table (not with ``-q``), and what a stop or a failure left."""
    report = event.report
    said = [] if quiet or event.plan_cut else [report.summary()]
    left = report.planned - report.done
    if event.plan_cut:
        said.append("interrupted before the plan was recorded: nothing was planned or written")
    elif report.interrupted:
        # Without --start the same command takes the pending deals first, then new ones
        # up to --count in all; with --start it covers the same range again.
        then = ("run the same command again to finish them" if event.start_given else
                f"the next run takes them first (--count {left} finishes just these)")
        graded = (f"{report.grading_cut} verified not graded yet (spider-solve grade grades them)"
                  if report.grading_cut else "")
        said.append(f"interrupted: {plural(report.done, 'deal')} written" + (f", {left} left pending; {then}" if left
                                                                            else "")
                    + (f"{'; ' if left else ', '}{graded}" if graded else ""))
    elif left > 0:
        said.append(f"{plural(left, 'deal')} not {'written' if event.write_failed else 'solved'}, left pending "
                    "for the next run")
    if not report.interrupted and report.grading_cut:  # the pool broke while grading
        said.append(f"{plural(report.grading_cut, 'verified deal')} not graded (spider-solve grade grades them)")
    return said


def improve_ended(event: ev.ImproveEnded, *, quiet: bool = False) -> list[str]:
    """The end of an improvement pass: its summary (not with ``-q``), and what a stop or a broken pool left."""
    report = event.report
    said = [] if quiet or not event.deals else [report.summary()]
    left = report.planned - report.done - len(report.failed)
    if report.interrupted:
        said.append(f"interrupted: {plural(report.done, 'deal')} written, {left} left; run the same command again "
                    "to carry on")
    elif report.broken is not None and left > 0:
        said.append(f"{plural(report.done, 'deal')} written, {left} not tried; run the same command again to carry on")
    return said


__all__ = ["MESSAGES", "batch_ended", "improve_ended", "lines", "teller"]
