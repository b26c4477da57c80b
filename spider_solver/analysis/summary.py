"""An analysis answer in one sentence a game can show a player: :func:`summary`, and the
fair hint's (:func:`fair_summary`) and a game played by following it (:func:`game_summary`).

Every answer of :func:`~spider_solver.analysis.analyze` gets its sentence here, and only
here (``Analysis.summary``, the ``summary`` of ``analyze --json`` and of the service's
answer): a later kind of answer adds its case here. The sentence names
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


class FairChoice(Protocol):
    """What the sentences read of an action a fair hint compared (:class:`~.fair.FairChoice`)."""

    @property
    def action(self) -> str: ...
    @property
    def wins(self) -> int: ...
    @property
    def layouts(self) -> int: ...
    @property
    def chance(self) -> float: ...


class FairAnswer(Protocol):
    """What the sentence reads of a fair hint (:class:`~.fair.FairHint`)."""

    @property
    def replay(self) -> ReplayResult: ...
    @property
    def choices(self) -> Sequence[FairChoice]: ...


class FairPlayed(Protocol):
    """What the sentence reads of a game played by following fair hints (:class:`~.fair.FairGame`)."""

    @property
    def replay(self) -> ReplayResult: ...
    @property
    def outcome(self) -> str | None: ...
    @property
    def steps(self) -> Sequence[FairChoice]: ...


def chance_words(choice: FairChoice) -> str:
    """An action's chance in words: "about 62%"; never a bare 0% or 100%: "no win found"
    when none of its layouts was won, "under 1%" and "over 99%" at the edges."""
    return percent_words(choice.chance, choice.wins)


def percent_words(chance: float, wins: int) -> str:
    """A chance in words, given the layouts won (:func:`chance_words`)."""
    if wins == 0:
        return "no win found"
    return rounded_percent(chance)


def rounded_percent(chance: float) -> str:
    """A chance as a rounded percentage in words: "about 62%", "under 1%" (never a bare
    0%), "over 99%" (never 100% short of certain)."""
    percent = round(100 * chance)
    if percent == 0:
        return "under 1%"
    if percent == 100 and chance < 1:
        return "over 99%"
    return f"about {percent}%"


def fair_summary(hint: FairAnswer) -> str:
    """A fair hint in one sentence: its chance and its action, then the other actions'
    chances: "About 62% to win from here with 9>4 (move the group that fits from column 9
    onto column 4); 7>3 about 48%; D no win found." When no layout was won after the hint,
    it says so: "No win found in 16 layouts of the unseen cards with 9>4 (...); ...", never
    a bare 0%."""
    error = hint.replay.error
    if error is not None:
        return f"The game log cannot be analysed: action {error.index + 1} is refused."
    if hint.replay.won:
        return "The game is won."
    if not hint.choices:
        return ("No action helps, by what can be seen: no move turns a card up or completes a run, and no deal "
                "is left. The game looks lost.")
    best, *others = hint.choices
    what = f"{best.action} ({action_words(best.action)})"
    head = (f"No win found in {plural(best.layouts, 'layout')} of the unseen cards with {what}" if best.wins == 0
            else f"{chance_words(best).capitalize()} to win from here with {what}")
    return "; ".join([head, *(f"{c.action} {chance_words(c)}" for c in others)]) + "."


def game_summary(game: FairPlayed, limit: int) -> str:
    """How a game played by following fair hints ended, in one sentence (``limit``: the
    actions after which such a game is called off)."""
    played = plural(len(game.steps), "action")
    error = game.replay.error
    if error is not None:
        return f"The game log cannot be played on: action {error.index + 1} is refused."
    if game.outcome == "won":
        return f"Won by following fair hints, in {played}." if game.steps else "The game is won."
    if game.outcome == "lost":
        return f"Lost after {played}: no action helped any more (nothing turned a card up or completed a run)."
    if game.outcome == "limit":
        return f"Not won: called off after {limit:,} actions in all."
    return f"Interrupted after {played}."


class Mistake(Protocol):
    """What the sentence reads of one of a review's costliest decisions (:class:`~.reviewing.Mistake`)."""

    @property
    def index(self) -> int: ...
    @property
    def action(self) -> str: ...
    @property
    def before(self) -> float: ...
    @property
    def after(self) -> float: ...
    @property
    def wins(self) -> int: ...
    @property
    def better(self) -> str: ...
    @property
    def better_chance(self) -> float: ...
    @property
    def better_wins(self) -> int: ...
    @property
    def better_further(self) -> int: ...
    @property
    def played_further(self) -> int: ...
    @property
    def cost(self) -> float: ...
    @property
    def layouts(self) -> int: ...
    @property
    def clear(self) -> bool: ...


class Reviewed(Protocol):
    """What the sentences read of a review (:class:`~.reviewing.Review`)."""

    @property
    def replay(self) -> ReplayResult: ...
    @property
    def decisions(self) -> Sequence[object]: ...
    @property
    def costliest(self) -> Sequence[Mistake]: ...
    @property
    def skipped(self) -> Sequence[int]: ...
    @property
    def total(self) -> int: ...
    @property
    def interrupted(self) -> bool: ...
    @property
    def layouts(self) -> int: ...
    @property
    def confirm_layouts(self) -> int: ...


def mistake_words(mistake: Mistake) -> str:
    """One of the costliest decisions in words, by its number in the log and its columns:
    "action 12, 3>7: your chances fell from about 58% to 21%; 5>7 kept about 55%". When no
    layout was won after the action played, the chance is still the chance model's, and the
    words say that no layout was won: "... fell from about 14% to 11% (no win found in 64
    layouts); ...", never a bare 0%. When the two chances round alike, the layouts won and
    how far the games got tell them apart: "action 35, D: your chances fell a little (about
    10%: 6 of 64 layouts won after it, 7 after 4>2, whose games got further (won, or more
    runs removed, or fewer cards left face down) on 37 of the 55 layouts where the two
    differed)". The closest call, named when no decision's cost stood, says that it is not
    clearly a mistake (:func:`_closest_words`)."""
    if not mistake.clear:
        return _closest_words(mistake)
    if mistake.cost <= 0:
        return _less_far_words(mistake)
    # The better action won more layouts (its chance is the higher), so it won some.
    before, after = rounded_percent(mistake.before), rounded_percent(mistake.after)
    if after == before:
        return (f"action {mistake.index + 1}, {mistake.action}: your chances fell a little ({before}: "
                f"{mistake.wins} of {plural(mistake.layouts, 'layout')} won after it, {mistake.better_wins} after "
                f"{mistake.better}, whose games got {_further_words(mistake)})")
    fell = after.removeprefix("about ")
    if mistake.wins == 0:
        fell += f" (no win found in {plural(mistake.layouts, 'layout')})"
    return (f"action {mistake.index + 1}, {mistake.action}: your chances fell from {before} to {fell}; "
            f"{mistake.better} kept {rounded_percent(mistake.better_chance)}")


def _less_far_words(mistake: Mistake) -> str:
    """A decision that cost no chance the layouts could show (as many layouts won after both
    actions, often none) but whose games clearly got less far: "action 14, D: no win found
    after it or after 5>3 in 64 layouts, but after 5>3 the games got further (more runs
    removed or fewer cards left face down) on 41 of the 51 layouts where the two
    differed". When some were won, a game won is further than any other, and the words say
    so."""
    if mistake.wins == 0:
        same = f"no win found after it or after {mistake.better} in {plural(mistake.layouts, 'layout')}"
    else:
        same = f"your chances stayed {percent_words(mistake.after, mistake.wins)}, as after {mistake.better}"
    return (f"action {mistake.index + 1}, {mistake.action}: {same}, but after {mistake.better} the games got "
            f"{_further_words(mistake)}")


def _closest_words(mistake: Mistake) -> str:
    """The closest call in words, with what the layouts measured and that their luck can
    explain it: "action 30, 10>6: not clearly a mistake, the closest call: about 10% after
    it (5 of 64 layouts won), about 12% after 4>2 (7 won), whose games got further (won, or
    more runs removed, or fewer cards left face down) on 20 of the 37 layouts where the two
    differed, which the luck of the layouts can explain"."""
    layouts = plural(mistake.layouts, "layout")
    if mistake.wins == 0 and mistake.better_wins == 0:
        measured = f"no win found after it or after {mistake.better} in {layouts}"
    else:
        played = (f"no win found after it in {layouts}" if mistake.wins == 0
                  else f"{rounded_percent(mistake.after)} after it ({mistake.wins} of {layouts} won)")
        measured = (f"{played}, {rounded_percent(mistake.better_chance)} after {mistake.better} "
                    f"({mistake.better_wins} won)")
    return (f"action {mistake.index + 1}, {mistake.action}: not clearly a mistake, the closest call: {measured}; "
            f"after {mistake.better} the games got {_further_words(mistake)}, which the luck of the layouts can "
            "explain")


def _further_words(mistake: Mistake) -> str:
    """The sign test's evidence in words: "further (more runs removed or fewer cards left
    face down) on 41 of the 51 layouts where the two differed" (a win is further than any
    other game, and said when a layout was won)."""
    what = ("more runs removed or fewer cards left face down" if mistake.wins == 0 and mistake.better_wins == 0
            else "won, or more runs removed, or fewer cards left face down")
    differed = mistake.better_further + mistake.played_further
    return f"further ({what}) on {mistake.better_further} of the {differed} layouts where the two differed"


def review_summary(review: Reviewed) -> str:
    """A review in a few sentences: how many decisions, then each of the costliest in words
    (:func:`mistake_words`), or that none clearly cost the game anything, and the closest call
    when there is one."""
    error = review.replay.error
    if error is not None:
        return f"The game log cannot be reviewed: action {error.index + 1} is refused."
    judged = len(review.decisions)
    if review.interrupted:
        before = ", before the costliest were judged again" if review.decisions and judged + len(
            review.skipped) == review.total else ""
        return f"Interrupted after judging {judged} of {plural(review.total, 'decision')}{before}."
    if review.total == 0:
        return "No decision to review: no action in effect had another legal action beside it."
    head = f"Of {plural(review.total, 'decision')}"
    if review.skipped:
        head += (f" ({len(review.skipped)} not judged: no layout won and no card shown in the decisions before them, "
                 "or no action that helps)")
    if not review.costliest or not review.costliest[0].clear:
        none = (f"{head}, none clearly cost chances to win (each judged on {plural(review.layouts, 'layout')} of "
                f"the unseen cards, the costliest again on {review.confirm_layouts}).")
        return " ".join([none, *(_sentence(mistake_words(m)) for m in review.costliest)])
    count = len(review.costliest)
    these = "this one cost" if count == 1 else f"these {count} cost"
    return f"{head}, {these} the most. " + " ".join(_sentence(mistake_words(m)) for m in review.costliest)


def _sentence(words: str) -> str:
    return words[:1].upper() + words[1:] + "."


__all__ = ["MAY_STILL_WIN", "action_words", "chance_words", "fair_summary", "game_summary", "mistake_words",
           "percent_words", "review_summary", "summary"]
