"""The one place where the command line decides its exit statuses: docs/commands/exit-statuses.md.

A command returns the :class:`~spider_solver.outcomes.ExitStatus` of what it found, as
one of these functions decides it from the outcome; an error that ends a command is
decided by :func:`of_error`. Only the group (:meth:`SpiderGroup.main`) ends the process
with it.

The statuses (``ExitStatus``): 0 success (the log wins, the deal is verified, the batch
or the check ran clean, the server stopped, a game played by following fair hints was
won); 1 not won (a legal log that does not win, an unwinnable deal or position, a fair
hint with no action left, a game played by following fair hints that was not won, a
check that found a bad line, a batch, ``improve`` or ``grade`` that left deals without a
result; standard output closed by its reader); 2 bad
input (a wrong code, card, deck, option, file or catalog, or a refused action); 3 unknown
(the search budget ran out before an answer); 130 interrupted (Ctrl-C, SIGTERM). The
``export --schema`` option, printed before the other options are read, ends through
click's own ``ctx.exit(0)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from spider_solver.errors import SpiderError
from spider_solver.outcomes import EXIT_BY_STATUS, ExitStatus, Status

if TYPE_CHECKING:
    from spider_solver.analysis.fair import FairGame, FairHint
    from spider_solver.analysis.reviewing import Review
    from spider_solver.batch.grading import Grading
    from spider_solver.batch.report import ImproveReport, Report


def of_outcome(status: Status) -> ExitStatus:
    """A deal's or a position's outcome: 0 verified (or won), 1 unwinnable, 3 unknown."""
    return EXIT_BY_STATUS[status]


def of_replay(won: bool, refused: bool) -> ExitStatus:
    """A replayed log: 0 it wins, 1 it is legal but does not win, 2 an action is refused."""
    if refused:
        return ExitStatus.BAD_INPUT
    return ExitStatus.OK if won else ExitStatus.NOT_WON


def of_fair_hint(hint: FairHint) -> ExitStatus:
    """``hint --fair``: 0 a hint is given or the log already wins, 1 no action helps (the
    game is lost), 2 a refused action in the log."""
    if hint.replay.error is not None:
        return ExitStatus.BAD_INPUT
    return ExitStatus.OK if hint.hint is not None or hint.replay.won else ExitStatus.NOT_WON


def of_fair_game(game: FairGame) -> ExitStatus:
    """``play``: 0 the game was won, 1 it was not (lost, or called off), 2 a refused action
    in the given log, 130 interrupted."""
    if game.replay.error is not None:
        return ExitStatus.BAD_INPUT
    if game.outcome == "interrupted":
        return ExitStatus.INTERRUPTED
    return ExitStatus.OK if game.outcome == "won" else ExitStatus.NOT_WON


def of_review(review: Review) -> ExitStatus:
    """``review``: 0 reviewed, 2 a refused action in the log, 130 interrupted."""
    if review.replay.error is not None:
        return ExitStatus.BAD_INPUT
    return ExitStatus.INTERRUPTED if review.interrupted else ExitStatus.OK


def of_check(failed: int) -> ExitStatus:
    """``check``: 1 if a verified line does not win."""
    return ExitStatus.NOT_WON if failed else ExitStatus.OK


def of_batch(report: Report) -> ExitStatus:
    """0 every planned deal has a result, 1 some have none (they failed in a worker, or a
    worker process died; they stay pending) or a worker process died while grading (the
    verified deals not graded yet stay so), 130 interrupted."""
    if report.interrupted:
        return ExitStatus.INTERRUPTED
    if report.failed or report.broken or report.done < report.planned:
        return ExitStatus.NOT_WON
    return ExitStatus.OK


def of_improve(report: ImproveReport) -> ExitStatus:
    """``improve``: 0 done, 1 some deals failed (or the pool broke), 130 interrupted."""
    if report.interrupted:
        return ExitStatus.INTERRUPTED
    return ExitStatus.NOT_WON if report.failed or report.broken else ExitStatus.OK


def of_grading(grading: Grading) -> ExitStatus:
    """``grade``: 0 done, 1 some deals could not be graded, 130 interrupted."""
    if grading.interrupted:
        return ExitStatus.INTERRUPTED
    return ExitStatus.NOT_WON if grading.errors or grading.broken else ExitStatus.OK


def of_error(error: BaseException) -> ExitStatus:
    """The status of an error that ends a command: 2 bad input (the library's errors, a
    usage error, a file that cannot be read or written), 130 interrupted, 1 standard output
    closed by its reader (``| head``)."""
    if isinstance(error, KeyboardInterrupt | click.Abort):
        return ExitStatus.INTERRUPTED
    if isinstance(error, BrokenPipeError):
        return ExitStatus.NOT_WON
    if isinstance(error, SpiderError | click.ClickException | OSError):
        return ExitStatus.BAD_INPUT
    raise TypeError(f"no exit status for {type(error).__name__}")  # pragma: no cover - the group catches no other


__all__ = ["of_batch", "of_check", "of_error", "of_fair_game", "of_fair_hint", "of_grading", "of_improve", "of_outcome",
           "of_replay", "of_review"]
