"""Where a lost game was lost: the bisection of the effective history, and its :class:`Bracket`.

Along the actions in effect, winnability only goes from winnable to unwinnable, so one
action made the step. :func:`find_lost_at` bisects for it within a share of the budget
per search, and returns what the searches established (the bracket, one action wide
when ``lost_at`` is found) and each search as a :class:`Probe` (docs/engine.md,
"Where a game was lost").
"""

from __future__ import annotations

import time

from spider_solver.analysis.answer import Bracket, Probe
from spider_solver.analysis.hints import LineMap
from spider_solver.analysis.search import Session
from spider_solver.outcomes import Reason, Status
from spider_solver.rules import Board

#: Each search of the ``lost_at`` bisection gets at most this fraction of the budget...
LOST_AT_SHARE = 4
#: ... but with exactly one deal left, this one: there the positions the beams can win take
#: more nodes than a quarter of the budget, and a proof rarely concludes
#: (benchmarks/HISTORY.md, "Games in progress: analysis constants").
LOST_AT_LAST_DEAL_SHARE = 2


def find_lost_at(session: Session, effective: list[tuple[int, str]],
                 known: LineMap | None) -> tuple[Bracket, tuple[Probe, ...]]:
    """Bisect the effective history for the step from winnable to unwinnable.

    Position i is the one after the first i actions in effect (0: the initial layout;
    ``len(effective)``: the final position, already proved unwinnable). ``low`` is the
    last position shown winnable, ``high`` the first proved unwinnable. Each search
    goes to the middle of the widest stretch of ``low..high`` between positions already
    searched (``_next_probe``): an unknown splits a stretch without ending the search.
    Each search gets at most ``1 / LOST_AT_SHARE`` of the budget (``_probe_share``: half
    with one deal left), so that one position that cannot be settled leaves room for the
    others. A position shown winnable moves ``low`` on to the last position of the
    history that its winning line passes through (:class:`LineMap`: no search). Returns
    the bracket and the probes.
    """
    moves = [action for _, action in effective]
    low, high = -1, len(moves)  # low: shown winnable (-1: none yet); high: proved unwinnable
    unknown: set[int] = set()  # positions whose search came back unknown
    low_line: tuple[str, ...] = ()
    probes: list[Probe] = []
    if known is not None:
        low, low_line = _last_on_line(session, moves, known, 0, high, probes)
    while session.budget.exceeded() is None:
        middle = _next_probe(low, high, unknown)
        if middle is None:
            break
        before, clock = session.nodes, time.perf_counter()
        board = session.board_after(moves[:middle])
        found = session.search(board, moves[:middle], 0, _probe_share(board))
        probes.append(Probe(middle, found.status, found.reason, found.source, session.nodes - before,
                            round(time.perf_counter() - clock, 4)))
        if found.status is Status.VERIFIED:
            low, low_line = middle, found.line
            along = LineMap.build(session.deal, [*moves[:middle], *found.line], session.deal_on_empty)
            if along is not None:
                further, further_line = _last_on_line(session, moves, along, middle + 1, high, probes)
                if further > low:
                    low, low_line = further, further_line
        elif found.status is Status.UNWINNABLE:
            high = middle
        elif found.reason is Reason.INTERRUPTED:
            break
        else:
            unknown.add(middle)
    winnable = None if low < 0 else low
    return Bracket(winnable=winnable, winnable_after=_after(effective, winnable),
                   line=low_line if winnable is not None else (), unwinnable=high,
                   unwinnable_after=_after(effective, high)), tuple(probes)


def _probe_share(board: Board) -> int:
    """The fraction of the budget (1 / share) a bisection's search of ``board`` may spend:
    ``LOST_AT_LAST_DEAL_SHARE`` with exactly one deal left, ``LOST_AT_SHARE`` otherwise."""
    return LOST_AT_LAST_DEAL_SHARE if board.deals_left == 1 else LOST_AT_SHARE


def _after(effective: list[tuple[int, str]], position: int | None) -> int | None:
    """The log index of the action that reached ``position`` of the effective history (None: the initial layout)."""
    return None if position is None or position == 0 else effective[position - 1][0]


def _next_probe(low: int, high: int, unknown: set[int]) -> int | None:
    """The position to search next: the middle of the widest stretch of ``low..high``
    between positions already searched (the later one of two equally wide); None when
    every position between ``low`` and ``high`` has been searched."""
    points = [low, *sorted(u for u in unknown if low < u < high), high]
    best: tuple[int, int] | None = None
    for a, b in zip(points, points[1:], strict=False):
        if b - a > 1 and (best is None or b - a >= best[1] - best[0]):
            best = (a, b)
    return None if best is None else (best[0] + best[1]) // 2


def _last_on_line(session: Session, moves: list[str], known: LineMap, first: int, stop: int,
                  probes: list[Probe]) -> tuple[int, tuple[str, ...]]:
    """The last position in ``first..stop - 1`` of the effective history that lies on
    ``known`` (winnable with no search), and the rest of the line from it, replayed to a
    win; ``(-1, ())`` if none does (or the replay refuses it)."""
    board, on_line, on_board = session.board_after(moves[:first]), -1, None
    for i in range(first, stop):
        if i > first:
            board.push_notation(moves[i - 1])
        if known.rest_from(board) is not None:
            on_line, on_board = i, board.copy()
    if on_board is None:
        return -1, ()
    rest = known.rest_from(on_board) or []
    found = session.check_line(moves[:on_line], rest, 0, "known-line", after=on_board)
    if found.status is not Status.VERIFIED:  # pragma: no cover - a line that won from here wins again
        return -1, ()
    probes.append(Probe(on_line, found.status, Reason.WON, "known-line", 0, 0.0))
    return on_line, found.line


__all__ = ["LOST_AT_LAST_DEAL_SHARE", "LOST_AT_SHARE", "find_lost_at"]
