"""Fair hints: the next action judged only on what the player has seen, with the chance to win.

:func:`fair_hint` replays a game log, takes of the position reached only what a player
sees (:func:`~spider_solver.engine.fair_sample.view_of`, :func:`~spider_solver.engine.fair_sample.unseen_of`),
and compares the planner's decision with the other legal actions by playing each on the
same sampled layouts of the unseen cards (:func:`~spider_solver.engine.fair_sample.fair_choices`).
What the chance means and what it assumes: docs/engine.md, "Fair hints".
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from spider_solver.analysis.answer import Action, to_plain
from spider_solver.analysis.start import replay_log
from spider_solver.errors import quote
from spider_solver.record import Field
from spider_solver.rules import DEFAULT_UNDO_LIMIT, Board, Deal, GameCode
from spider_solver.rules.replay import ReplayResult
from spider_solver.verify import coerce_deal

#: Layouts of the unseen cards each candidate is played on, by default.
FAIR_LAYOUTS = 16
#: Actions compared with the planner's, by default (the deal is always one when legal).
FAIR_ALTERNATIVES = 3
#: The most layouts and alternatives a caller may ask for.
MAX_FAIR_LAYOUTS = 1024
MAX_FAIR_ALTERNATIVES = 16
#: The default seed of the layouts.
FAIR_SEED = 0


@dataclass(frozen=True)
class FairOptions:
    """How a fair hint is computed; the same options give the same hint on every machine."""

    deal_on_empty: bool = False
    undo_limit: int | None = DEFAULT_UNDO_LIMIT
    #: Layouts of the unseen cards each candidate action is played on.
    layouts: int = FAIR_LAYOUTS
    #: Legal actions compared with the planner's decision (the deal among them when legal).
    alternatives: int = FAIR_ALTERNATIVES
    #: The seed of the layouts, 0 to 2**64 - 1 (mixed with what the player has seen).
    seed: int = FAIR_SEED
    #: Called once before the engine is first needed (the command line loads it there).
    before_search: Callable[[], object] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for name, low, high in (("layouts", 1, MAX_FAIR_LAYOUTS), ("alternatives", 0, MAX_FAIR_ALTERNATIVES),
                                ("seed", 0, 2**64 - 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"invalid {name} {quote(value)}: expected a whole number from {low} to {high}")

    def but(self, **changes: Any) -> FairOptions:
        return replace(self, **changes) if changes else self


@dataclass(frozen=True)
class FairChoice:
    """One action compared: how many of the sampled layouts were won after it."""

    FIELDS: ClassVar[tuple[Field, ...]]
    action: str
    wins: int
    layouts: int

    @property
    def chance(self) -> float:
        return self.wins / self.layouts


FAIR_CHOICE_FIELDS = FairChoice.FIELDS = (
    Field("action", Action, False, "The action, in canonical notation."),
    Field("wins", int, False, "Sampled layouts of the unseen cards won after it."),
    Field("layouts", int, False, "Sampled layouts it was played on."),
)


@dataclass(frozen=True)
class FairHint:
    """The fair hint of a position: the best action by what the player has seen, and its chances."""

    FIELDS: ClassVar[tuple[Field, ...]]
    code: str | None
    replay: ReplayResult
    #: The action to play; None when the log has a refused action, is won, or no action is left.
    hint: str | None
    #: The share of the sampled layouts won after the hint; None when there is no hint.
    chance: float | None
    #: The actions compared, best first (the hint first).
    choices: tuple[FairChoice, ...]
    seed: int
    #: The answer in a sentence a player reads.
    words: str
    seconds: float = field(default=0.0, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return to_plain(self)


FAIR_HINT_FIELDS = FairHint.FIELDS = (
    Field("code", str, True, "Canonical game code; null for an explicit deck."),
    Field("replay", ReplayResult, False, "The replay of the log."),
    Field("hint", Action, True, "The action to play; null when the log was refused or won, or no action is left."),
    Field("chance", float, True, "Share of the sampled layouts of the unseen cards won after the hint, following "
          "fair hints; null without a hint."),
    Field("choices", list[FairChoice], False, "The actions compared, best first."),
    Field("seed", int, False, "The seed of the sampled layouts."),
    Field("words", str, False, "The answer in words."),
    Field("seconds", float, False, "Seconds it took."),
)


def fair_hint(deal: Deal | GameCode | str, actions: str | Iterable[str] = (),
              options: FairOptions = FairOptions(), **changes: Any) -> FairHint:
    """The fair hint after ``actions`` on ``deal``: the best next action judged only on what
    the player has seen (see the module's docstring), with its chance to win."""
    started = time.perf_counter()
    options = options.but(**changes)
    deal = coerce_deal(deal)
    start = replay_log(deal, actions, options.deal_on_empty, options.undo_limit)
    code = str(deal.code) if deal.code is not None else None
    base = FairHint(code, start.replayed, None, None, (), options.seed, "")
    if start.replayed.error is not None:
        return _done(replace(base, words=f"the log has a refused action: {start.replayed.error}"), started)
    board = start.board
    if board.is_won():
        return _done(replace(base, words="the game is won"), started)
    if options.before_search is not None:
        options.before_search()
    history = [_view_key(b) for b in _positions(deal, options.deal_on_empty, start.moves)]
    choices = _choices(board, history, options)
    if not choices:
        return _done(replace(base, words="no action is left: the game is lost"), started)
    best = choices[0]
    return _done(replace(base, hint=best.action, chance=best.chance, choices=choices,
                         words=describe(choices)), started)


def describe(choices: tuple[FairChoice, ...]) -> str:
    """The answer in words: 'about 62% to win from here; 7>3 about 48%'."""
    best = choices[0]
    if best.wins == 0:
        head = f"no win found in {best.layouts} layouts of the unseen cards"
    else:
        head = f"about {round(100 * best.chance)}% to win from here with {best.action}"
    others = "; ".join(f"{c.action} about {round(100 * c.chance)}%" for c in choices[1:4])
    return f"{head}; {others}" if others else head


def _done(hint: FairHint, started: float) -> FairHint:
    return replace(hint, seconds=round(time.perf_counter() - started, 4))


def _positions(deal: Deal, deal_on_empty: bool, moves: list[str]) -> list[Board]:
    """The positions of the effective history (the initial layout first)."""
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=0)
    boards = [board.copy()]
    for action in moves:
        board.push_notation(action)
        boards.append(board.copy())
    return boards


def _view_key(board: Board) -> int:
    from spider_solver.engine.fair_hint import view_of

    return view_of(board)[1]


def _choices(board: Board, history: list[int], options: FairOptions) -> tuple[FairChoice, ...]:
    """The candidates compared on the sampled layouts, best first."""
    from spider_solver.engine.fair_hint import fair_candidates

    found = fair_candidates(board, history, layouts=options.layouts, alternatives=options.alternatives,
                            seed=options.seed)
    return tuple(FairChoice(board.notation(c.action), c.wins, c.layouts) for c in found)


__all__ = ["FAIR_LAYOUTS", "FairChoice", "FairHint", "FairOptions", "describe", "fair_hint"]
