"""The verification layer: ``solve(deal) -> SolveRecord``, and checking a stored line.

The search engine (:mod:`spider_solver.engine`) only reports what it found: a line,
why it stopped, its counters. This module decides what that proves. A line is
replayed on the reference rules engine from the deal's initial layout, and only a
line that plays to a win makes the deal ``verified``; an exhaustive search that found
nothing makes it ``unwinnable``; everything else is ``unknown`` (docs/commands/verify.md, "Three honest
outcomes"). :func:`check_solution` applies the same replay to a line stored in a
catalog.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from spider_solver.errors import SpiderError, quote
from spider_solver.limits import (
    DEFAULT_MAX_NODES,
    DEFAULT_MAX_SECONDS,
    IMPROVE_MAX_NODES,
    IMPROVE_MAX_SECONDS,
    INTERACTIVE_MAX_NODES,
    INTERACTIVE_MAX_SECONDS,
    MAX_NODES_LIMIT,
    MAX_SECONDS_LIMIT,
    check_budget,
    describe_improve_nodes,
    improve_nodes,
)
from spider_solver.outcomes import Reason, Status
from spider_solver.record import SolveRecord, utc_now
from spider_solver.rules import Deal, GameCode, replay
from spider_solver.rules.board import check_play_options

if TYPE_CHECKING:
    from spider_solver.budget import Progress

def coerce_deal(deal: Deal | GameCode | str) -> Deal:
    return Deal.of(deal)


def solve(
    deal: Deal | GameCode | str,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    deal_on_empty: bool = False,
    progress: bool = False,
    meter: Progress | None = None,
) -> SolveRecord:
    """Search for a winning line of ``deal`` within the budget, and verify it.

    ``deal`` is a :class:`Deal`, a :class:`GameCode` or a game code string.
    The same deal, budget and version give the same result and the same line on
    every machine, unless ``max_seconds`` cuts the search short first. A budget out
    of range raises :class:`~spider_solver.errors.InvalidBudgetError`. ``meter``, if
    given, counts the nodes as they are spent, once a level (a batch worker's slot).
    When every beam width fails with budget left, the exhaustive search runs with the rest
    of it (``final_proof``): a deal it settles is not left ``unknown``.
    """
    from spider_solver.budget import Budget
    from spider_solver.engine.driver import SearchOptions, run_search

    max_nodes, max_seconds = check_budget(max_nodes, max_seconds)
    check_play_options(deal_on_empty, None)
    if not isinstance(progress, bool):
        raise ValueError(f"invalid progress {quote(progress)}: expected True or False")
    deal = coerce_deal(deal)
    found = run_search(deal, budget=Budget(max_nodes, max_seconds, progress=meter),
                       options=SearchOptions(deal_on_empty=deal_on_empty, progress=progress, final_proof=True))
    status, reason = Status.UNKNOWN, found.reason
    solution: tuple[str, ...] = ()
    moves = score = None
    if found.actions is not None:
        result = replay(deal, found.actions, deal_on_empty=deal_on_empty, undo_limit=0)
        if result.won:
            status, solution, moves, score = Status.VERIFIED, tuple(result.played), result.moves, result.score
        else:  # pragma: no cover - the engines disagree; never call that verified
            reason = Reason.REJECTED
            print(f"warning: {deal.name}: the engine's line was refused by the rules engine: {result.error}",
                  file=sys.stderr)
    elif found.reason is Reason.EXHAUSTED:
        status = Status.UNWINNABLE
    return SolveRecord(
        code=str(deal.code) if deal.code else None,
        status=status,
        solution=solution,
        moves=moves,
        score=score,
        nodes=found.nodes,
        seconds=found.seconds,
        max_nodes=max_nodes,
        max_seconds=max_seconds,
        reason=reason,
        attempts=found.attempts,
        solved_at=utc_now(),
        suits=deal.variant.suits,
        rule=str(deal.variant.rule),
    )


@dataclass(frozen=True)
class ImproveResult:
    """What an improvement pass found for a verified line.

    ``solution`` is the shortest line known after the pass: a shorter one that the rules
    engine replayed to a win, or the line given. ``improved`` says which. ``nodes`` and
    ``seconds`` are what the pass spent; ``stopped`` is "" when it ran to its end (every
    width), or why it stopped early ("nodes", "seconds", "interrupted").
    """

    code: str | None
    solution: tuple[str, ...]
    moves: int
    score: int
    improved: bool
    before: int
    nodes: int
    seconds: float
    max_nodes: int
    max_seconds: float | None
    stopped: str = ""

    def to_dict(self) -> dict:
        data = asdict(self)
        data["solution"] = list(self.solution)
        return data


def improve(
    deal: Deal | GameCode | str,
    solution: Sequence[str],
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = IMPROVE_MAX_SECONDS,
    deal_on_empty: bool = False,
    meter: Progress | None = None,
) -> ImproveResult:
    """Look for a shorter winning line than ``solution`` with a larger budget.

    ``solution`` must win ``deal`` (replayed first; :class:`~spider_solver.errors.SpiderError`
    if it does not). The engine re-searches the line's phases with wider beams
    (:func:`~spider_solver.engine.rephase.improve_moves`); a line it returns is replayed
    on the rules engine and kept only if it wins and is shorter. ``max_nodes`` None is
    the default of the deal's suit count (:func:`improve_nodes`). Deterministic in nodes:
    the same line, budget and version give the same result unless the seconds cut it.
    ``meter`` counts the nodes as :func:`solve`'s does.
    """
    import time

    from spider_solver.budget import Budget
    from spider_solver.engine.game import Game, move_code
    from spider_solver.engine.rephase import improve_moves
    from spider_solver.errors import IllegalActionError, InvalidActionError
    from spider_solver.rules import Board, parse_actions

    deal = coerce_deal(deal)
    if max_nodes is None:
        max_nodes = improve_nodes(deal.variant.suits)
    max_nodes, max_seconds = check_budget(max_nodes, max_seconds)
    try:  # notation first: a token that is no action is InvalidActionError, an illegal one IllegalActionError
        parse_actions(solution, columns=deal.variant.columns)
    except InvalidActionError as error:
        raise InvalidActionError(f"the line to improve is refused: {error}") from None
    given = replay(deal, solution, deal_on_empty=deal_on_empty, undo_limit=0)
    if given.error is not None:
        raise IllegalActionError(f"the line to improve is refused: {given.error}")
    if not given.won:
        raise IllegalActionError(f"the line to improve does not win {deal.name}")
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=0)
    moves = [move_code(board.push_notation(action)) for action in given.played]
    started = time.perf_counter()
    budget = Budget(max_nodes, max_seconds, progress=meter)
    game = Game.from_deal(deal, deal_on_empty=deal_on_empty)
    found = improve_moves(game, moves, budget)
    line, stopped = found.line, str(found.stopped or "")
    best, best_score = tuple(given.played), given.score
    if len(line) < len(best):
        actions = [str(action) for action in game.actions(line)]
        result = replay(deal, actions, deal_on_empty=deal_on_empty, undo_limit=0)
        if result.won and result.moves < len(best):
            best, best_score = tuple(result.played), result.score
        else:  # pragma: no cover - the engines disagree; keep the line given
            print(f"warning: {deal.name}: the engine's shorter line was refused by the rules engine: "
                  f"{result.error}", file=sys.stderr)
    return ImproveResult(
        code=str(deal.code) if deal.code else None, solution=best, moves=len(best), score=best_score,
        improved=len(best) < len(given.played), before=len(given.played), nodes=budget.nodes,
        seconds=round(time.perf_counter() - started, 4), max_nodes=max_nodes, max_seconds=max_seconds,
        stopped=stopped,
    )


def check_solution(code: str, solution: Sequence[str], *, moves: int | None, score: int | None) -> str | None:
    """Replay a stored verified line of the deal ``code`` on the reference rules engine:
    None if it wins with the stored move count and score, else what is wrong, in words."""
    try:
        result = replay(Deal.from_code(code), solution)
    except SpiderError as error:
        return f"cannot replay: {error}"
    if result.error is not None:
        return str(result.error)
    if not result.won:
        return (f"does not win: after {result.moves} actions {result.runs_removed} of "
                f"{Deal.from_code(code).variant.runs} runs are removed and {result.stock_left} cards are in the stock")
    if moves != result.moves:
        return f"wins, but in {result.moves} actions, not the {moves} stored"
    if score != result.score:
        return f"wins, but with score {result.score}, not the {score} stored"
    return None


#: What the engine's first-use message says.
COMPILE_MESSAGE = "compiling the search engine once for this install (a minute or two); later runs start at once..."


def engine_stage():
    """The engine's kernels as a :class:`~spider_solver.engine.Stage` of
    :func:`~spider_solver.engine.load_stages`."""
    from spider_solver.engine import ENGINE_KERNELS, Stage, warm_up

    return Stage(warm_up, False, "the search engine", COMPILE_MESSAGE, ENGINE_KERNELS)


def load_engine(say: Callable[[str], None] | None = None, *, here: bool = True) -> None:
    """Compile the engine (first use of an install) or load it from numba's cache: one
    function for every command and the batch. With ``say`` (a command a person waits
    on), a compile is announced through it and runs in a child process, so that a
    Ctrl-C stops it at once (:func:`~spider_solver.engine.compile_apart`). ``here=False``
    only sees that the cache holds it, for a process whose workers do the searching."""
    from spider_solver.engine import load_stages

    load_stages([engine_stage()], say=say, here=here)


__all__ = [
    "COMPILE_MESSAGE", "DEFAULT_MAX_NODES", "DEFAULT_MAX_SECONDS", "IMPROVE_MAX_NODES", "IMPROVE_MAX_SECONDS",
    "INTERACTIVE_MAX_NODES", "INTERACTIVE_MAX_SECONDS",
    "ImproveResult", "MAX_NODES_LIMIT", "MAX_SECONDS_LIMIT", "SolveRecord", "check_budget",
    "check_solution",
    "describe_improve_nodes", "engine_stage", "improve", "improve_nodes", "load_engine", "solve",
]
