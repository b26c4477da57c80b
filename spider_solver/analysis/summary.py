"""An analysis answer in one sentence a game can show a player: :func:`summary`.

Every answer of :func:`~spider_solver.analysis.analyze` gets its sentence here, and only
here (``Analysis.summary``, the ``summary`` of ``analyze --json`` and of the service's
answer): a later kind of answer adds its case to :func:`summary`. The sentence names
actions by their number in the log (from 1) and columns by their number, never a card: it
reveals no more than the answer's other fields. ``tried`` stays the developers' account of
an unknown answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from spider_solver.errors import plural
from spider_solver.outcomes import Reason, Status
from spider_solver.rules.replay import ReplayResult


class Bracket(Protocol):
    """What the sentence reads of an answer's bracket (:class:`~.answer.Bracket`)."""

    @property
    def winnable(self) -> int | None: ...
    @property
    def winnable_after(self) -> int | None: ...
    @property
    def unwinnable_after(self) -> int | None: ...


class Analysis(Protocol):
    """What the sentence reads of an answer (:class:`~.answer.Analysis`, which imports this module)."""

    @property
    def replay(self) -> ReplayResult: ...
    @property
    def status(self) -> Status | None: ...
    @property
    def reason(self) -> Reason | None: ...
    @property
    def line(self) -> Sequence[str]: ...
    @property
    def source(self) -> str | None: ...
    @property
    def lost_at(self) -> int | None: ...
    @property
    def lost_at_action(self) -> str | None: ...
    @property
    def lost_at_line(self) -> Sequence[str]: ...
    @property
    def bracket(self) -> Bracket | None: ...
    @property
    def deal_lost_from_the_start(self) -> bool: ...

#: The end of every unknown answer's sentence: the honest word, never a guess.
MAY_STILL_WIN = "the game may still be winnable"
#: Why no line was found, by the reason the search stopped.
_NOT_FOUND = {
    Reason.SECONDS: "No winning line was found in the time allowed",
    Reason.INTERRUPTED: "The search was stopped before it found a winning line",
    Reason.REJECTED: "The line the search found did not win when replayed, so none is given",
}
_NOT_FOUND_IN_BUDGET = "No winning line was found within the search's budget"


def action_words(action: str) -> str:
    """An action in canonical notation (RULES.md §11 Action notation) in words, by column numbers."""
    if action == "D":
        return "deal a row from the stock"
    if action == "U":
        return "undo the last action"
    move, _, count = action.partition("/")
    source, _, target = move.partition(">")
    if count:  # onto an empty column: the size is written out
        return f"move {plural(int(count), 'card')} from column {source} to the empty column {target}"
    return f"move the group that fits from column {source} onto column {target}"


def summary(analysis: Analysis) -> str:
    """What the answer means for the player, in one sentence."""
    if analysis.status is None:
        error = analysis.replay.error
        return f"The game log cannot be analysed: action {error.index + 1 if error else '?'} is refused."
    if analysis.status is Status.VERIFIED:
        if analysis.source == "won" or not analysis.line:
            return "The game is won."
        return (f"The game can still be won: next, {action_words(analysis.line[0])}, on a winning line of "
                f"{plural(len(analysis.line), 'action')}.")
    if analysis.status is Status.UNWINNABLE:
        return "The game can no longer be won" + _where_lost(analysis) + "."
    why = _NOT_FOUND.get(analysis.reason, _NOT_FOUND_IN_BUDGET) if analysis.reason else _NOT_FOUND_IN_BUDGET
    return f"{why}; {MAY_STILL_WIN}."


def _where_lost(analysis: Analysis) -> str:
    """Where an unwinnable game was lost, as far as the answer says."""
    if analysis.lost_at is not None:
        return (f": it was lost by action {analysis.lost_at + 1} ({analysis.lost_at_action}), before which a "
                f"line of {plural(len(analysis.lost_at_line), 'action')} still won")
    if analysis.deal_lost_from_the_start:
        return ": this deal cannot be won from its first position"
    if analysis.bracket is not None:
        return _bracket_words(analysis.bracket)
    return " from here"


def _bracket_words(bracket: Bracket) -> str:
    lost = ("by its first position" if bracket.unwinnable_after is None
            else f"by action {bracket.unwinnable_after + 1}")
    if bracket.winnable is None:
        return f": it was lost {lost}, and where exactly was not found within the budget"
    after = bracket.winnable_after
    still = "from the first position" if after is None else f"after action {after + 1}"
    return f": it could still be won {still} and was lost {lost}"


__all__ = ["MAY_STILL_WIN", "action_words", "summary"]
