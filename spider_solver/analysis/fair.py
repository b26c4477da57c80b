"""Fair hints: the next action judged only on what the player has seen, with the chance to win.

:func:`fair_hint` replays a game log, takes of the position reached only what a player
sees (:func:`~spider_solver.engine.fair_hint.view_of`, :func:`~spider_solver.engine.fair_hint.unseen_of`:
the face-up cards, how many cards lie face down in each column, the deals and the runs
removed, and the positions the game has been in), and compares the planner's decision
with other legal actions by playing each on the same sampled layouts of the unseen cards
(:func:`~spider_solver.engine.fair_hint.fair_candidates`). :func:`fair_game` plays a
whole game by following fair hints, no undo. What the chance means and what it assumes:
docs/engine.md, "Fair hints".

The answer is a function of what the player has seen, the options and the version alone:
two deals that differ only in cards the player has not seen get the same hint and the same
chances (tests/analysis/test_fair.py checks it), and the same position, options and version
give the same answer on every machine (no time budget decides anything).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal

from spider_solver.analysis.answer import Action
from spider_solver.analysis.start import Start, replay_log
from spider_solver.analysis.summary import fair_summary, game_summary
from spider_solver.limits import (
    FAIR_ALTERNATIVES,
    FAIR_LAYOUTS,
    FAIR_SEED,
    MAX_FAIR_GAME_ACTIONS,
    check_fair,
)
from spider_solver.record import Field, to_plain
from spider_solver.rules import DEFAULT_UNDO_LIMIT, Board, Deal, GameCode
from spider_solver.rules.board import check_play_options
from spider_solver.rules.replay import ReplayResult, replay
from spider_solver.stops import held
from spider_solver.verify import coerce_deal


@dataclass(frozen=True)
class FairOptions:
    """How a fair hint is computed: the rules of the log and the sampling. The same options
    give the same hint on every machine; a value out of range raises
    :class:`~spider_solver.errors.InvalidOptionError` (a layout count, an alternative count
    or a seed) or ``ValueError`` (the rules' options) as the value is made."""

    #: RULES.md §6 Deals: whether a deal may be made while a column is empty.
    deal_on_empty: bool = False
    #: RULES.md §8.2 Undo: actions of the log that can be undone (None: the whole history).
    undo_limit: int | None = DEFAULT_UNDO_LIMIT
    #: Sampled layouts of the unseen cards each candidate action is played on (1 to
    #: :data:`~spider_solver.limits.MAX_FAIR_LAYOUTS`).
    layouts: int = FAIR_LAYOUTS
    #: Legal actions compared with the planner's decision, the deal among them when legal
    #: (0 to :data:`~spider_solver.limits.MAX_FAIR_ALTERNATIVES`).
    alternatives: int = FAIR_ALTERNATIVES
    #: The seed of the layouts, 0 to :data:`~spider_solver.limits.MAX_SEED` (mixed with what
    #: the player has seen, never with an unseen card).
    seed: int = FAIR_SEED
    #: Called once before the engine is first needed, never when it is not (the command
    #: line loads the kernels there); its time is not counted in ``seconds``.
    before_search: Callable[[], object] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        layouts, alternatives, seed = check_fair(self.layouts, self.alternatives, self.seed)
        object.__setattr__(self, "layouts", layouts)
        object.__setattr__(self, "alternatives", alternatives)
        object.__setattr__(self, "seed", seed)
        check_play_options(self.deal_on_empty, self.undo_limit)

    def but(self, **changes: Any) -> FairOptions:
        """These options with ``changes`` (field names of :class:`FairOptions`)."""
        return replace(self, **changes) if changes else self


#: The options a fair hint takes when it is given none.
DEFAULT_FAIR_OPTIONS = FairOptions()


@dataclass(frozen=True)
class FairChoice:
    """One action compared: how many of the sampled layouts were won by playing on after it,
    and the chance to win after it (the engine's estimate from those games)."""

    FIELDS: ClassVar[tuple[Field, ...]]
    action: str
    wins: int
    layouts: int
    #: The chance to win after the action, 0 to 1: the engine's chance model over the games
    #: played on the layouts (docs/engine.md, "Fair hints").
    chance: float

    def to_dict(self) -> dict[str, Any]:
        return to_plain(self)


FAIR_CHOICE_FIELDS = FairChoice.FIELDS = (
    Field("action", Action, False, "The action, in canonical notation."),
    Field("wins", int, False, "Sampled layouts of the unseen cards won by playing on after it."),
    Field("layouts", int, False, "Sampled layouts it was played on."),
    Field("chance", float, False, "The chance to win after it, 0 to 1, estimated from the games on the layouts."),
)


@dataclass(frozen=True)
class FairHint:
    """The fair hint of a position: the best action by what the player has seen, and its chances.
    ``to_dict()`` is the JSON form (``hint --fair --json``)."""

    FIELDS: ClassVar[tuple[Field, ...]]
    code: str | None
    #: The replay of the log: won, moves, score, runs removed, stock left, the first refused
    #: action (``replay.error``: then there is no hint).
    replay: ReplayResult
    #: The action to play; None when the log has a refused action, is won, or no action helps (the
    #: planner finds nothing that turns a card up, completes a run or deals).
    hint: str | None
    #: The chance to win after the hint (the first choice's); None when there is no hint.
    chance: float | None
    #: The actions compared, best first (the hint first).
    choices: tuple[FairChoice, ...]
    #: The options the answer was computed with.
    layouts: int
    alternatives: int
    seed: int
    #: Wall-clock seconds: not compared (one hint made twice gives equal answers).
    seconds: float = field(default=0.0, compare=False)

    @property
    def summary(self) -> str:
        """The answer in one sentence a game can show the player (:func:`.summary.fair_summary`)."""
        return fair_summary(self)

    def to_dict(self) -> dict[str, Any]:
        """The plain-data form, as ``hint --fair --json`` prints it."""
        return to_plain(self)


FAIR_HINT_FIELDS = FairHint.FIELDS = (
    Field("code", str, True, "Canonical game code; null for an explicit deck."),
    Field("replay", ReplayResult, False, "The replay of the log: won, moves, score, runs removed, stock left."),
    Field("hint", Action, True, "The action to play, judged only on what the player has seen; null when the log "
          "was refused or won, or no action helps (nothing turns a card up, completes a run or deals)."),
    Field("chance", float, True, "The chance to win after the hint, 0 to 1, estimated from the games played on "
          "sampled layouts of the unseen cards (docs: Fair hints); null without a hint."),
    Field("choices", list[FairChoice], False, "The actions compared on the same layouts, best first (the hint "
          "first)."),
    Field("layouts", int, False, "Layouts of the unseen cards sampled for each action."),
    Field("alternatives", int, False, "Legal actions compared with the planner's decision, at most."),
    Field("seed", int, False, "The seed of the sampled layouts."),
    Field("summary", str, False, "The answer in one sentence a game can show the player, e.g. \"About 62% to win "
          "from here with 9>4 (move the group that fits from column 9 onto column 4); 7>3 about 48%; D no win "
          "found.\" Never a bare 0%: \"No win found in 16 layouts of the unseen cards with ...\"."),
    Field("seconds", float, False, "Seconds it took."),
)

#: How a game played by following fair hints ended: won; lost (no action helped any more);
#: ``limit``: called off after :data:`~spider_solver.limits.MAX_FAIR_GAME_ACTIONS` actions;
#: interrupted (Ctrl-C); None when the given log has a refused action.
Outcome = Literal["won", "lost", "limit", "interrupted"]


@dataclass(frozen=True)
class FairStep(FairChoice):
    """One action of a game played by following fair hints: the hint of its position (the
    action, the layouts won after it, the layouts), and the seconds the hint took."""

    FIELDS: ClassVar[tuple[Field, ...]]
    seconds: float = field(default=0.0, compare=False)


FAIR_STEP_FIELDS = FairStep.FIELDS = (
    Field("action", Action, False, "The action played: the fair hint of the position."),
    Field("wins", int, False, "Sampled layouts of the unseen cards won by playing on after it."),
    Field("layouts", int, False, "Sampled layouts it was played on."),
    Field("chance", float, False, "The chance to win after it, 0 to 1, estimated from the games on the layouts."),
    Field("seconds", float, False, "Seconds the hint took."),
)


@dataclass(frozen=True)
class FairGame:
    """A game played by following fair hints, no undo (``play --fair``)."""

    FIELDS: ClassVar[tuple[Field, ...]]
    code: str | None
    #: The replay of the whole log: the given actions, then those played.
    replay: ReplayResult
    outcome: Outcome | None
    #: The actions played by following the hints, after the given log, with their hints' figures.
    steps: tuple[FairStep, ...]
    layouts: int
    alternatives: int
    seed: int
    seconds: float = field(default=0.0, compare=False)

    @property
    def summary(self) -> str:
        """How the game ended, in one sentence (:func:`.summary.game_summary`)."""
        return game_summary(self, MAX_FAIR_GAME_ACTIONS)

    @property
    def log(self) -> tuple[str, ...]:
        """The whole game log, in canonical notation: the given actions, then those played."""
        return self.replay.played

    def to_dict(self) -> dict[str, Any]:
        """The plain-data form, as ``play --fair --json`` prints it."""
        return to_plain(self)


FAIR_GAME_FIELDS = FairGame.FIELDS = (
    Field("code", str, True, "Canonical game code; null for an explicit deck."),
    Field("replay", ReplayResult, False, "The replay of the whole log (the given actions, then those played)."),
    Field("outcome", str, True, "won; lost (no action helped any more); limit (called off as not won after "
          f"{MAX_FAIR_GAME_ACTIONS:,} actions); interrupted; null when the given log has a refused action."),
    Field("log", list[Action], False, "The whole game log, in canonical notation: the given actions, then those "
          "played."),
    Field("steps", list[FairStep], False, "The actions played by following fair hints, in order, each with its "
          "hint's figures."),
    Field("layouts", int, False, "Layouts of the unseen cards each hint sampled."),
    Field("alternatives", int, False, "Legal actions each hint compared with the planner's decision, at most."),
    Field("seed", int, False, "The seed of the sampled layouts."),
    Field("summary", str, False, "How the game ended, in one sentence."),
    Field("seconds", float, False, "Seconds the game took."),
)


# --------------------------------------------------------------------------- #
# The hint
# --------------------------------------------------------------------------- #


def fair_hint(deal: Deal | GameCode | str, actions: str | Iterable[str] = (),
              options: FairOptions = DEFAULT_FAIR_OPTIONS, **changes: Any) -> FairHint:
    """The fair hint after ``actions`` on ``deal``: the best next action judged only on what
    the player has seen, with the chance to win after it and after the next best actions.

    ``deal`` is a :class:`Deal`, a :class:`GameCode` or a game code string; ``actions`` a
    game log in the notation of RULES.md §11 Action notation (text, or a list of texts),
    replayed as RULES.md §12 Replay says under ``options`` (:class:`FairOptions`;
    ``changes`` are field names of it: ``fair_hint(deal, log, layouts=32, seed=7)``). A log
    with a refused action gets no hint (``replay.error`` names it), as in
    :func:`~spider_solver.analysis.analyze`.
    """
    started = time.perf_counter()
    options = options.but(**changes)
    deal = coerce_deal(deal)
    ready = _prepare(deal, actions, options, started)
    if isinstance(ready, FairHint):
        return ready
    start, base = ready
    if options.before_search is not None:
        loading = time.perf_counter()
        options.before_search()
        started += time.perf_counter() - loading
    history = [_view_key(board) for board in _positions(deal, options.deal_on_empty, start.moves)]
    choices = _choices(start.board, history, options)
    if not choices:
        return _timed(base, started)
    best = choices[0]
    return _timed(replace(base, hint=best.action, chance=best.chance, choices=choices), started)


def fair_hint_without_search(deal: Deal | GameCode | str, actions: str | Iterable[str] = (),
                             options: FairOptions = DEFAULT_FAIR_OPTIONS, **changes: Any) -> FairHint | None:
    """What :func:`fair_hint` answers when it needs no engine (the log has a refused action,
    or wins), with none loaded; None when only the engine can answer (the service answers
    these at once, and queues the others)."""
    ready = _prepare(coerce_deal(deal), actions, options.but(**changes), time.perf_counter())
    return ready if isinstance(ready, FairHint) else None


def _prepare(deal: Deal, actions: str | Iterable[str], options: FairOptions,
             started: float) -> FairHint | tuple[Start, FairHint]:
    """The part of a fair hint before the engine: the answer when none is needed, else the
    replayed log and the answer so far."""
    start = replay_log(deal, actions, options.deal_on_empty, options.undo_limit)
    base = FairHint(_code(deal), start.replayed, None, None, (), options.layouts, options.alternatives,
                    options.seed)
    if start.replayed.error is not None:
        return _timed(base, started)
    if start.board.is_won():
        return _timed(base, started)
    return start, base


# --------------------------------------------------------------------------- #
# A game played by following the hints
# --------------------------------------------------------------------------- #


def fair_game(deal: Deal | GameCode | str, actions: str | Iterable[str] = (),
              options: FairOptions = DEFAULT_FAIR_OPTIONS, *,
              on_step: Callable[[FairStep, Board], object] | None = None, **changes: Any) -> FairGame:
    """Play on from the position ``actions`` reach on ``deal`` (by default the initial
    layout) by following fair hints, one action a hint, no undo, until the game is won, no
    action is left, or :data:`~spider_solver.limits.MAX_FAIR_GAME_ACTIONS` actions were
    played in all. ``on_step(step, board)`` is called after each action (the command line's
    progress). Ctrl-C (a KeyboardInterrupt) ends the game where it is: the answer keeps
    what was played, its outcome ``interrupted`` (but in ``before_search``, which it ends).
    The options and ``changes`` are those of :func:`fair_hint`; the same deal, log, options
    and version play the same game."""
    started = time.perf_counter()
    options = options.but(**changes)
    deal = coerce_deal(deal)
    start = replay_log(deal, actions, options.deal_on_empty, options.undo_limit)
    given = list(start.replayed.played)
    base = FairGame(_code(deal), start.replayed, None, (), options.layouts, options.alternatives, options.seed)
    if start.replayed.error is not None:
        return _timed(base, started)
    board = start.board
    steps: list[FairStep] = []
    outcome: Outcome | None = None
    if not board.is_won() and options.before_search is not None:  # a Ctrl-C here ends the call
        loading = time.perf_counter()
        options.before_search()
        started += time.perf_counter() - loading
    try:
        history = [_view_key(b) for b in _positions(deal, options.deal_on_empty, start.moves)]
        while outcome is None:
            if board.is_won():
                outcome = "won"
            elif len(given) + len(steps) >= MAX_FAIR_GAME_ACTIONS:
                outcome = "limit"
            else:
                clock = time.perf_counter()
                choices = _choices(board, history, options)
                if not choices:
                    outcome = "lost"
                    continue
                step = FairStep(**vars(choices[0]), seconds=round(time.perf_counter() - clock, 4))
                with held():  # the action and its record, together
                    board.push_notation(step.action)
                    steps.append(step)
                    history.append(_view_key(board))
                if on_step is not None:
                    on_step(step, board)
    except KeyboardInterrupt:
        outcome = "interrupted"
    played = replay(deal, given + [step.action for step in steps], deal_on_empty=options.deal_on_empty,
                    undo_limit=options.undo_limit)
    return _timed(replace(base, replay=played, outcome=outcome, steps=tuple(steps)), started)


# --------------------------------------------------------------------------- #
# The engine, through its bridge (engine/fair_hint.py)
# --------------------------------------------------------------------------- #


def fair_hint_stage():
    """The fair hint's kernels as a :class:`~spider_solver.engine.Stage` of
    :func:`~spider_solver.engine.load_stages`."""
    from spider_solver.engine import HINT_KERNELS, Stage

    return Stage(_hint_once, False, "the fair hint", COMPILE_MESSAGE, HINT_KERNELS, hint=True)


#: What the command line says before it compiles the fair hint's kernels.
COMPILE_MESSAGE = "compiling the fair hint once for this install (a minute or two); later runs start at once..."


def load_fair_hint(say: Callable[[str], None] | None = None, *, here: bool = True) -> None:
    """Compile the fair hint's kernels (first use of an install) or load them from numba's
    cache, as :func:`spider_solver.verify.load_engine` does the engine's."""
    from spider_solver.engine import load_stages

    load_stages([fair_hint_stage()], say=say, here=here)


def _hint_once() -> None:
    """One fair hint of a small deal: every kernel of the fair hint compiled or loaded."""
    from spider_solver.engine import WARM_UP_CODE

    fair_hint(WARM_UP_CODE, layouts=1, alternatives=1)


def _code(deal: Deal) -> str | None:
    return str(deal.code) if deal.code is not None else None


def _timed(answer: Any, started: float) -> Any:
    return replace(answer, seconds=round(time.perf_counter() - started, 4))


def _positions(deal: Deal, deal_on_empty: bool, moves: list[str]) -> list[Board]:
    """The positions of the effective history (the initial layout first)."""
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=0)
    boards = [board.copy()]
    for action in moves:
        board.push_notation(action)
        boards.append(board.copy())
    return boards


def _view_key(board: Board) -> int:
    """The key of what the player sees of ``board`` (the engine's view)."""
    from spider_solver.engine.fair_hint import view_of

    return view_of(board)[1]


def _choices(board: Board, history: list[int], options: FairOptions) -> tuple[FairChoice, ...]:
    """The candidates compared on the sampled layouts, best first."""
    from spider_solver.engine.fair_hint import fair_candidates

    # A Ctrl-C or SIGTERM waits for the kernel's answer (stops.held): a KeyboardInterrupt
    # raised while numba boxes its answer (a tuple holding a NamedTuple) crashes the process.
    with held():
        found = fair_candidates(board, history, layouts=options.layouts, alternatives=options.alternatives,
                                seed=options.seed)
    return tuple(FairChoice(board.notation(c.action), c.wins, c.layouts, c.chance) for c in found)


__all__ = ["COMPILE_MESSAGE", "DEFAULT_FAIR_OPTIONS", "FAIR_CHOICE_FIELDS", "FAIR_GAME_FIELDS", "FAIR_HINT_FIELDS",
           "FAIR_STEP_FIELDS", "FairChoice", "FairGame", "FairHint", "FairOptions", "FairStep", "Outcome",
           "fair_game", "fair_hint", "fair_hint_stage", "fair_hint_without_search", "load_fair_hint"]
