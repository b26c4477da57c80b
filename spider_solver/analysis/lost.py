"""Where a lost game was lost: the bisection of the effective history, and its :class:`Bracket`.

Along the actions in effect, winnability only goes from winnable to unwinnable, so one
action made the step. :func:`find_lost_at` bisects for it within a share of the budget
per search, and returns what the searches established (the bracket, one action wide
when ``lost_at`` is found) and each search as a :class:`Probe` (docs/engine.md,
"Where a game was lost").

Reachability along the history (:class:`Joined`). Let ``P_0 .. P_n`` be the positions of
the effective history. A later position is reachable from an earlier one (the history
plays it). An earlier one, ``P_i`` from ``P_j`` (``i < j``), is reachable exactly when
every action between them can be taken back by one move: the same cards moved back
(:func:`ways_back`). If each can, the moves back lead from ``P_j`` to ``P_i``. Conversely, if
``P_i`` is reachable from ``P_j``, so is each ``P_k`` (``i <= k < j``) from ``P_k+1``
(``P_k+1`` reaches ``P_j``, which reaches ``P_i``, which reaches ``P_k``); and ``P_k`` is
reachable from ``P_k+1`` only by that one move back:

* A deal, a card turned up and a run removed are never undone (no action puts a card back
  into the stock, turns one face down or brings a run back), so an action that did one
  cannot be taken back at all, even when the same cards can be moved back (a group that
  uncovered a card one rank above its first card can go back onto it, face up now).
* Any other action moved a group ``G`` (first card ``g``) from column ``a`` to ``b``, from
  on top of a face-up card ``X`` of ``a`` or from the bottom of ``a``. The move back (``G``
  from ``b`` to ``a``) is legal exactly when ``a`` is now empty or ``X`` is one rank above
  ``g``: ``G`` is a group still (the same cards), and ``b`` keeps a face-up card on top, so
  the move back turns up nothing, removes no run and restores ``P_k``. When ``X`` is not
  one rank above ``g``, no position reachable from ``P_k+1`` has a card of ``g``'s value
  on one of ``X``'s value at that place of ``a`` and the stock of ``P_k``: with no deal
  between, the last move that puts a card at that place puts it there either onto the card
  below, which takes a card one rank above (not ``X``), or as part of a group that holds the
  card below too, whose ranks go down one at a time (not ``X`` then ``g`` either). So
  ``P_k`` is out of reach.

So the positions of the history fall into stretches joined by moves back: the positions
of a stretch reach each other, hence the same positions, and share one status. A
bisection searches each stretch once (the last position of it): its answer is the
stretch's (:attr:`Probe.first` to :attr:`Probe.last`), a position proved unwinnable
makes its whole stretch so, and a line from one position of it is a line from its last
one, after the moves back.

The positions a proof keeps are all reachable from its start, so they are lost too: the
searches of one analysis share them (:attr:`Session.lost`), and the proof of an earlier
position, which reaches them again, skips them (docs/engine.md, "Where a game was lost").
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from spider_solver.analysis.answer import Bracket, Probe
from spider_solver.analysis.hints import LineMap
from spider_solver.analysis.search import Session
from spider_solver.analysis.start import position_key
from spider_solver.outcomes import Reason, Status
from spider_solver.rules import Board, Deal, Move

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
    ``len(effective)``: the final position, already proved unwinnable, and with it the
    stretch of positions joined to it by moves back: :class:`Joined`). ``low`` is the
    last position shown winnable, ``high`` the first proved unwinnable. Each search
    goes to the middle of the widest stretch of ``low..high`` between positions already
    searched (``_next_probe``), and searches the last position joined to it: its answer
    holds for every position joined to it, so an unknown takes them all out of the
    bisection without ending it. Each search gets at most ``1 / LOST_AT_SHARE`` of the
    budget (``_probe_share``: half with one deal left), so that one position that cannot
    be settled leaves room for the others, and skips the positions earlier proofs proved
    lost (:attr:`Session.lost`). A position shown winnable moves ``low`` on to the last
    position of the history that its winning line passes through, and on to the last
    one joined to that (:class:`LineMap`, :meth:`Joined.way_back`: no search). Returns the
    bracket and the probes.
    """
    moves = [action for _, action in effective]
    joined = Joined.along(session.deal, session.deal_on_empty, moves)
    low, high = -1, joined.first[len(moves)]  # low: shown winnable (-1: none yet); high: proved unwinnable
    unknown: set[int] = set()  # positions whose search (or a search of a position joined to them) came back unknown
    low_line: tuple[str, ...] = ()
    probes: list[Probe] = []
    if known is not None:
        low, low_line = _last_on_line(session, moves, joined, known, 0, high, probes)
    while session.budget.exceeded() is None:
        middle = _next_probe(low, high, unknown)
        if middle is None:
            break
        at = joined.last[middle]  # the stretch's answer; a line found from its last position needs no way back
        before, clock = session.nodes, time.perf_counter()
        board = session.board_after(moves[:at])
        found = session.search(board, moves[:at], 0, _probe_share(board))
        probes.append(Probe(at, found.status, found.reason, found.source, session.nodes - before,
                            round(time.perf_counter() - clock, 4), joined.first[at], at))
        if found.status is Status.VERIFIED:
            low, low_line = at, found.line
            along = LineMap.build(session.deal, [*moves[:at], *found.line], session.deal_on_empty)
            if along is not None:
                further, further_line = _last_on_line(session, moves, joined, along, at + 1, high, probes)
                if further > low:
                    low, low_line = further, further_line
        elif found.status is Status.UNWINNABLE:
            high = joined.first[at]
        elif found.reason is Reason.INTERRUPTED:
            break
        else:
            unknown.update(range(joined.first[at], at + 1))
    winnable = None if low < 0 else low
    return Bracket(winnable=winnable, winnable_after=_after(effective, winnable),
                   line=low_line if winnable is not None else (), unwinnable=high,
                   unwinnable_after=_after(effective, high)), tuple(probes)


@dataclass(frozen=True)
class Joined:
    """The positions of an effective history (0 to ``len(moves)``) in stretches joined by moves
    back: the positions of a stretch reach each other (the module's docstring proves that
    two positions of the history reach each other only so), hence the same positions, and
    share one status."""

    #: ``back[k]``: the action that takes the position after action k back to the one
    #: before it (canonical notation), or None when no action does.
    back: tuple[str | None, ...]
    #: The first and the last position of each position's stretch.
    first: tuple[int, ...]
    last: tuple[int, ...]

    @classmethod
    def along(cls, deal: Deal, deal_on_empty: bool, moves: Sequence[str]) -> Joined:
        """The stretches of the history ``moves`` (canonical actions from the initial layout)."""
        back = ways_back(deal, deal_on_empty, moves)
        first = [0]
        for k, step in enumerate(back):
            first.append(first[k] if step is not None else k + 1)
        last = [len(moves)]
        for k in range(len(moves) - 1, -1, -1):
            last.append(last[-1] if back[k] is not None else k)
        return cls(tuple(back), tuple(first), tuple(reversed(last)))

    def way_back(self, start: int, end: int) -> list[str]:
        """The actions that take position ``end`` back to position ``start`` of its stretch."""
        assert self.first[end] <= start <= end, (start, end)
        return [step for step in reversed(self.back[start:end]) if step is not None]


def ways_back(deal: Deal, deal_on_empty: bool, moves: Sequence[str]) -> list[str | None]:
    """For each action of ``moves`` (canonical, from the initial layout), the move that takes
    the position after it back to the one before (the same cards moved back: canonical
    notation), or None when it cannot be taken back: a deal, a card turned up, a run removed,
    or a group moved off a card that it cannot go back onto (the module's docstring)."""
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=1)
    back: list[str | None] = []
    for action in moves:
        before, down, removed = position_key(board), tuple(board.down), len(board.removed)
        played = board.push_notation(action)
        step = None
        # A card turned up stays up and a run removed stays out, whatever moves back: the
        # move back can be legal all the same (a group that uncovered a card one rank above
        # its first goes back onto it), so these are refused before the move back is tried.
        if isinstance(played, Move) and tuple(board.down) == down and len(board.removed) == removed:
            inverse = Move(played.dst, played.src, played.count)
            if board.is_legal(inverse):
                notation = board.notation(inverse)
                board.push(inverse)
                if position_key(board) == before:  # always, as the module's docstring proves; checked
                    step = notation
                board.pop()
        back.append(step)
    return back


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


def _last_on_line(session: Session, moves: list[str], joined: Joined, known: LineMap, first: int, stop: int,
                  probes: list[Probe]) -> tuple[int, tuple[str, ...]]:
    """The last position in ``first..stop - 1`` of the effective history that lies on
    ``known`` or is joined to one that does (winnable with no search: the moves back, then
    the rest of the line), and its line, replayed to a win; ``(-1, ())`` if none does (or
    the replay refuses it). ``stop`` is the first position of its stretch."""
    board, on_line, on_board = session.board_after(moves[:first]), -1, None
    for i in range(first, stop):
        if i > first:
            board.push_notation(moves[i - 1])
        if known.rest_from(board) is not None:
            on_line, on_board = i, board.copy()
    if on_board is None:
        return -1, ()
    rest = known.rest_from(on_board) or []
    end = joined.last[on_line]
    if end > on_line:
        for action in moves[on_line:end]:
            on_board.push_notation(action)
        rest = [*joined.way_back(on_line, end), *rest]
    found = session.check_line(moves[:end], rest, 0, "known-line", after=on_board)
    if found.status is not Status.VERIFIED:  # pragma: no cover - a line that won from here wins again
        return -1, ()
    probes.append(Probe(end, found.status, Reason.WON, "known-line", 0, 0.0, joined.first[end], end))
    return end, found.line


__all__ = ["LOST_AT_LAST_DEAL_SHARE", "LOST_AT_SHARE", "Joined", "find_lost_at", "ways_back"]
