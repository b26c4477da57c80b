"""The verification layer: ``solve(deal) -> SolveResult``, and checking a stored line.

The search engine (:mod:`spider_solver.engine`) only reports what it found: a line,
why it stopped, its counters. This module decides what that proves. A line is
replayed on the reference rules engine from the deal's initial layout, and only a
line that plays to a win makes the deal ``verified``; an exhaustive search that found
nothing makes it ``unwinnable``; everything else is ``unknown`` (README, "Three honest
outcomes"). :func:`check_solution` applies the same replay to a line stored in a
catalog.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import cast

from spider_solver.errors import InvalidBudgetError, SpiderError, quote, real_number, whole_number
from spider_solver.outcomes import DEFAULT_REASON, REASONS_BY_STATUS, Reason, Status
from spider_solver.rules import Deal, GameCode, replay
from spider_solver.rules.board import check_play_options

#: Default budget of ``solve`` (``verify``, the batch): nodes first (deterministic),
#: seconds second (a safety net). Nearly every 4-suit deal is won within 2 million
#: nodes; the budget is for the few in a thousand that are not: it lets the whole
#: widening schedule (``schedule.WIDTHS``) run, the widest beam (16384) included, which
#: takes up to about 4.5 times the nodes of the one before it (at most about 25 million
#: to the 400-level cap on the tuning deals), so up to some 145 million in all
#: (benchmarks/RESULTS.md, "Tail strength"). At about 3.8 million nodes a second on one
#: core here the nodes run out after about 40 s, far before the seconds even on a
#: machine loaded four times over, so the default outcome does not depend on the load.
DEFAULT_MAX_NODES = 150_000_000
DEFAULT_MAX_SECONDS = 180.0
#: The budget of what a person waits for: ``analyze`` and ``hint``, and the caps of the
#: service (``spider-solve serve``), whose requests get them by default. Nearly every
#: winnable position of a game in progress gets its hint within a million nodes; the
#: budget is for the few that need the widest beams. At 25M nodes 3 of 1,050 positions
#: known to be winnable on the tuning deals (10000-10059) went without a hint; they were
#: won at 44M, 54M and 74M nodes, so the budget is 60M (16 to 22 s when it is all spent,
#: on one core here; the median hint is unchanged): benchmarks/RESULTS.md, "Games in
#: progress". The seconds stay at 30, for a person waiting: on a machine more than about
#: 1.4 times slower or busier than this one they, not the nodes, end the longest searches.
INTERACTIVE_MAX_NODES = 60_000_000
INTERACTIVE_MAX_SECONDS = 30.0
#: The largest budgets accepted: 10**15 nodes (years of search) and 10**7 seconds
#: (about 115 days); both far beyond any real use, and within what SQLite and the
#: engine's 64-bit counters hold.
MAX_NODES_LIMIT = 10**15
MAX_SECONDS_LIMIT = 1e7


def check_budget(max_nodes: int, max_seconds: float | None) -> tuple[int, float | None]:
    """Refuse a budget out of range (InvalidBudgetError): nodes from 1 to
    ``MAX_NODES_LIMIT``, seconds finite and positive up to ``MAX_SECONDS_LIMIT`` or None.
    Returns them as Python numbers (a numpy integer or float becomes an int or a float),
    which the engine needs."""
    nodes = whole_number(max_nodes)
    if nodes is None or not 1 <= nodes <= MAX_NODES_LIMIT:
        raise InvalidBudgetError(
            f"invalid max_nodes {quote(max_nodes)}: expected a whole number from 1 to {MAX_NODES_LIMIT}"
        )
    seconds = None if max_seconds is None else real_number(max_seconds)
    if max_seconds is not None and (seconds is None or not 0 < seconds <= MAX_SECONDS_LIMIT):
        raise InvalidBudgetError(
            f"invalid max_seconds {quote(max_seconds)}: expected a number of seconds above 0 and at most "
            f"{MAX_SECONDS_LIMIT:g}, or None for no limit"
        )
    return nodes, max_seconds if max_seconds is None or type(max_seconds) in (int, float) else seconds


#: The reason a result gets when none is given: filled in from its status.
_BY_STATUS = cast(Reason, None)


@dataclass(frozen=True)
class SolveResult:
    """What a search found. ``solution`` is in action notation, empty unless verified."""

    code: str | None
    status: Status
    solution: tuple[str, ...] = ()
    #: Actions in the solution (moves and deals), or None.
    moves: int | None = None
    #: Final score of the solution as the app counts it, or None.
    score: int | None = None
    nodes: int = 0
    #: Wall-clock seconds: not compared, so that one deal solved twice gives equal results.
    seconds: float = field(default=0.0, compare=False)
    max_nodes: int = DEFAULT_MAX_NODES
    max_seconds: float | None = DEFAULT_MAX_SECONDS
    #: Why the search stopped; by default ``won`` for a verified result and
    #: ``exhausted`` for an unwinnable one (an unknown result must say).
    reason: Reason = _BY_STATUS
    #: Per-attempt figures (width, nodes, ...), for benchmarks and debugging.
    attempts: tuple[dict, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        # Plain strings are accepted (a result read back from JSON); members are stored.
        status = Status(self.status)
        default = DEFAULT_REASON.get(status)
        reason = default if self.reason is None else Reason(self.reason)
        if reason not in REASONS_BY_STATUS[status]:
            if self.reason is None:
                raise ValueError(f"an {status} result must say why the search stopped (reason=...)")
            raise ValueError(f"a {status} result cannot stop for the reason {self.reason!r}")
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "solution", tuple(self.solution))  # a list, from JSON
        object.__setattr__(self, "attempts", tuple(self.attempts))

    def to_dict(self) -> dict:
        """A plain-data form (enums as their string values), as JSON and the catalog take it."""
        data = asdict(self)
        data["status"], data["reason"] = str(self.status), str(self.reason)
        data["solution"] = list(self.solution)
        data["attempts"] = [dict(a) for a in self.attempts]
        return data


def coerce_deal(deal: Deal | GameCode | str) -> Deal:
    return Deal.of(deal)


def solve(
    deal: Deal | GameCode | str,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    deal_on_empty: bool = False,
    progress: bool = False,
) -> SolveResult:
    """Search for a winning line of ``deal`` within the budget, and verify it.

    ``deal`` is a :class:`Deal`, a :class:`GameCode` or a game code string.
    The same deal, budget and version give the same result and the same line on
    every machine, unless ``max_seconds`` cuts the search short first. A budget out
    of range raises :class:`~spider_solver.errors.InvalidBudgetError`.
    """
    from spider_solver.budget import Budget
    from spider_solver.engine.driver import SearchOptions, run_search

    max_nodes, max_seconds = check_budget(max_nodes, max_seconds)
    check_play_options(deal_on_empty, None)
    if not isinstance(progress, bool):
        raise ValueError(f"invalid progress {quote(progress)}: expected True or False")
    deal = coerce_deal(deal)
    found = run_search(deal, budget=Budget(max_nodes, max_seconds),
                       options=SearchOptions(deal_on_empty=deal_on_empty, progress=progress))
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
    return SolveResult(
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
    )


#: ``improve``'s default node budget by suit count: about 10 s a deal on one core here,
#: the time the issue-11 targets are set at. The node's cost differs by suit count: 30M
#: nodes took a median 8.5 s at 4 suits, 6.6 s at 2 and 4.8 s at 1 (reporting deals 0-39),
#: so each suit count gets the nodes of about 10 s (chosen by time, not by length). On the
#: 2-suit tuning deals 10000-10039, 30M / 42M / 45M nodes gave a mean line of 99.85 / 99.2
#: / 99.2 actions in a median 6.5 / 9.6 / 10.5 s (benchmarks/RESULTS.md, "`improve` at
#: about 10 s a deal"). The seconds are a safety net as in ``solve``.
IMPROVE_MAX_NODES: dict[int, int] = {1: 60_000_000, 2: 42_000_000, 4: 35_000_000}
IMPROVE_MAX_SECONDS = 120.0


def improve_nodes(suits: int) -> int:
    """``improve``'s default node budget for a deal of ``suits`` suits (IMPROVE_MAX_NODES);
    :class:`~spider_solver.errors.InvalidVariantError` for a suit count that is not 1, 2 or 4."""
    from spider_solver.rules import parse_suits

    return IMPROVE_MAX_NODES[parse_suits(suits)]


def describe_improve_nodes() -> str:
    """The default budgets in words, for help texts: "35,000,000 at 4 suits, ..."."""
    return ", ".join(f"{IMPROVE_MAX_NODES[suits]:,} at {suits} suit{'s' if suits > 1 else ''}"
                     for suits in sorted(IMPROVE_MAX_NODES, reverse=True))


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
) -> ImproveResult:
    """Look for a shorter winning line than ``solution`` with a larger budget.

    ``solution`` must win ``deal`` (replayed first; :class:`~spider_solver.errors.SpiderError`
    if it does not). The engine re-searches the line's phases with wider beams
    (:func:`~spider_solver.engine.rephase.improve_moves`); a line it returns is replayed
    on the rules engine and kept only if it wins and is shorter. ``max_nodes`` None is
    the default of the deal's suit count (:func:`improve_nodes`). Deterministic in nodes:
    the same line, budget and version give the same result unless the seconds cut it.
    """
    import time

    from spider_solver.budget import Budget
    from spider_solver.engine.game import Game, move_code
    from spider_solver.engine.rephase import improve_moves
    from spider_solver.errors import IllegalActionError
    from spider_solver.rules import Board

    deal = coerce_deal(deal)
    if max_nodes is None:
        max_nodes = improve_nodes(deal.variant.suits)
    max_nodes, max_seconds = check_budget(max_nodes, max_seconds)
    given = replay(deal, solution, deal_on_empty=deal_on_empty, undo_limit=0)
    if given.error is not None:
        raise IllegalActionError(f"the line to improve is refused: {given.error}")
    if not given.won:
        raise IllegalActionError(f"the line to improve does not win {deal.name}")
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=0)
    moves = [move_code(board.push_notation(action)) for action in given.played]
    started = time.perf_counter()
    budget = Budget(max_nodes, max_seconds)
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
COMPILE_MESSAGE = "compiling the search engine once for this install (a minute or two); later runs start at once"


def load_engine(say: Callable[[str], None] | None = None, *, here: bool = True) -> None:
    """Compile the engine (first use of an install) or load it from numba's cache: one
    function for every command and the batch. With ``say`` (a command a person waits
    on), a compile is announced through it and runs in a child process, so that a
    Ctrl-C stops it at once (:func:`~spider_solver.engine.compile_apart`). ``here=False``
    only sees that the cache holds it, for a process whose workers do the searching."""
    from spider_solver.engine import load_kernels, warm_up

    load_kernels(warm_up, say=say, message=COMPILE_MESSAGE, here=here)


__all__ = [
    "COMPILE_MESSAGE", "DEFAULT_MAX_NODES", "DEFAULT_MAX_SECONDS", "IMPROVE_MAX_NODES", "IMPROVE_MAX_SECONDS",
    "INTERACTIVE_MAX_NODES", "INTERACTIVE_MAX_SECONDS",
    "ImproveResult", "MAX_NODES_LIMIT", "MAX_SECONDS_LIMIT", "SolveResult", "check_budget", "check_solution",
    "describe_improve_nodes", "improve", "improve_nodes", "load_engine", "solve",
]
