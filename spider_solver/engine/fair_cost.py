"""The fair player's visible cost of a column, and of a column after a move (its policy's values).

:func:`visible_cost` is the contract: the cost of a column from what a person sees
(face-down cards, breaks between face-up cards, an empty column, a king at the base, a
column that can be cleared; a card a move has just turned up is masked, ``hide``). The
player keeps each column's cost and its break counts (:class:`ColumnCosts`) so that the
cost of a column after a move is computed without playing the move
(:func:`source_cost`, :func:`target_cost`), with the same values as :func:`visible_cost`
of the column the move leaves.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from spider_solver.engine.types import (
    H_REMOVED,
    INLINE,
    KERNEL,
    SUIT_SHIFT,
    UNDO_TURNED,
    decode_move,
    rank_of,
)

# -- Weights of the visible cost (indices into the weights array) ----------------------

#: Per face-down card.
FW_DOWN = 0
#: Per pair of adjacent face-up cards one rank apart but of two suits.
FW_SUIT_BREAK = 1
#: Per pair of adjacent face-up cards whose ranks do not follow.
FW_RANK_BREAK = 2
#: Bonus per empty column.
FW_EMPTY = 3
#: Bonus per removed run.
FW_RUN = 4
#: Bonus for a column based on a face-up king.
FW_KING_BASE = 5
#: Bonus for a column all face up and one run (it can be cleared).
FW_CLEAR_COLUMN = 6
#: Per stretch without a break lying on face-down cards.
FW_RUNS_ON_DOWN = 7
#: Cost of a card just turned up, whose identity the decision may not read.
FW_UNKNOWN = 8
FAIR_WEIGHTS_SIZE = 9

#: The default weights: turning a card up gains FW_DOWN - FW_UNKNOWN = 8.
FAIR_WEIGHTS = np.array([10, 6, 8, 6, 40, 6, 4, 2, 2], dtype=np.int64)
#: The 1-suit player's weights (grader ``fair-6``): a face-down card costs 20, so turning
#: one up gains 18 and comes before most builds; the rest as ``FAIR_WEIGHTS``.
ONE_SUIT_WEIGHTS = np.array([20, 6, 8, 6, 40, 6, 4, 2, 2], dtype=np.int64)

#: What lies between two adjacent face-up cards (:func:`_break`).
NO_BREAK = 0
RANK_BREAK = 1
SUIT_BREAK = 2


class ColumnCosts(NamedTuple):
    """Each column's visible cost in the current position, and the counts behind it."""

    cost: np.ndarray  # int64[MAX_COLUMNS]: visible_cost(pos, c, 0, weights)
    #: int64[MAX_COLUMNS, MAX_HEIGHT]: at face-up height i (down[c] <= i < lens[c]), the rank
    #: and the suit breaks between the face-up cards up to card i (:func:`set_breaks`).
    rank_breaks: np.ndarray
    suit_breaks: np.ndarray


@njit(**INLINE)
def _break(upper, lower):
    """The break between face-up card ``upper`` and the card ``lower`` on it: RANK_BREAK if
    the ranks do not follow, else SUIT_BREAK if the suits differ, else NO_BREAK (one run)."""
    upper = np.int64(upper)
    lower = np.int64(lower)
    if rank_of(lower) + 1 != rank_of(upper):
        return RANK_BREAK
    if (lower ^ upper) >= (1 << SUIT_SHIFT):
        return SUIT_BREAK
    return NO_BREAK


@njit(**INLINE)
def visible_cost(pos, c, hide, weights):
    """The cost of column c from what a person sees; lower is better.

    ``hide`` (0 or 1) masks the lowest face-up card, one the move being valued has
    just turned up: it costs ``FW_UNKNOWN`` and is never read. Reads ``down[c]``,
    ``lens[c]`` and the face-up cards ``cols[c, down[c] + hide:]`` only.
    """
    cols, lens, down, _, _ = pos
    n = lens[c]
    if n == 0:
        return -weights[FW_EMPTY]
    d = down[c]
    first = d + hide
    rank_breaks = 0
    suit_breaks = 0
    for i in range(first + 1, n):
        kind = _break(cols[c, i - 1], cols[c, i])
        rank_breaks += kind == RANK_BREAK
        suit_breaks += kind == SUIT_BREAK
    # The base card is read only when it is face up and not masked.
    base_rank = rank_of(cols[c, 0]) if first == 0 else 0
    return cost_of(weights, d, hide, rank_breaks, suit_breaks, base_rank)


@njit(**INLINE)
def cost_of(weights, d, hide, rank_breaks, suit_breaks, base_rank):
    """:func:`visible_cost` of a non-empty column from its parts: ``d`` face-down cards,
    ``hide``, the breaks between its face-up cards, the rank of its base card (read only
    when it is face up)."""
    cost = weights[FW_DOWN] * d + weights[FW_RANK_BREAK] * rank_breaks + weights[FW_SUIT_BREAK] * suit_breaks
    if hide:
        cost += weights[FW_UNKNOWN]
    if d + hide > 0:
        if d > 0:
            cost += weights[FW_RUNS_ON_DOWN] * (rank_breaks + suit_breaks + 1)
    elif base_rank == 13:
        cost -= weights[FW_KING_BASE]
    elif rank_breaks + suit_breaks == 0:
        cost -= weights[FW_CLEAR_COLUMN]
    return cost


@njit(**INLINE)
def turned(info, c):
    """1 if the move whose undo information is ``info`` turned a card up in column c."""
    return (info >> (UNDO_TURNED + c)) & 1


@njit(**KERNEL)
def move_delta(pos, move, info, removed_before, costs, weights, new_costs):
    """The change of the visible cost made by ``move`` (just played, ``info`` its undo
    information; ``costs`` the columns' costs before it). Writes the two columns' new
    costs into ``new_costs[0:2]`` (source, target)."""
    src, dst, _ = decode_move(move)
    cs = visible_cost(pos, src, turned(info, src), weights)
    cd = visible_cost(pos, dst, turned(info, dst), weights)
    new_costs[0] = cs
    new_costs[1] = cd
    runs = pos.hdr[H_REMOVED] - removed_before
    return cs - costs[src] + cd - costs[dst] - weights[FW_RUN] * runs


@njit(**INLINE)
def set_breaks(pos, c, since, costs):
    """Column c's rows of ``costs.rank_breaks``/``suit_breaks`` from card ``since`` up. The
    row below ``since`` must be right already (``since`` at most ``down[c]``: the whole row)."""
    cols, lens, down, _, _ = pos
    rbreaks = costs.rank_breaks
    sbreaks = costs.suit_breaks
    n = lens[c]
    d = down[c]
    if n == 0:
        return
    if since <= d:
        since = d + 1
        r = 0
        s = 0
        rbreaks[c, d] = 0
        sbreaks[c, d] = 0
    else:
        r = rbreaks[c, since - 1]
        s = sbreaks[c, since - 1]
    for i in range(since, n):
        kind = _break(cols[c, i - 1], cols[c, i])
        r += kind == RANK_BREAK
        s += kind == SUIT_BREAK
        rbreaks[c, i] = r
        sbreaks[c, i] = s


@njit(**INLINE)
def recount(pos, weights, costs, c):
    """Column c's cost and break counts in ``costs``, afresh from the position."""
    costs.cost[c] = visible_cost(pos, c, 0, weights)
    set_breaks(pos, c, 0, costs)


@njit(**INLINE)
def source_cost(pos, weights, x, left, costs):
    """The visible cost of column x left with its first ``left`` cards (the rest moved
    away; a card it uncovers is masked)."""
    cols, _, down, _, _ = pos
    if left == 0:
        return -weights[FW_EMPTY]
    d = down[x]
    if left == d:
        return cost_of(weights, d - 1, 1, 0, 0, 0)
    base = rank_of(cols[x, 0]) if d == 0 else 0
    return cost_of(weights, d, 0, costs.rank_breaks[x, left - 1], costs.suit_breaks[x, left - 1], base)


@njit(**INLINE)
def target_cost(pos, weights, x, left, y, costs):
    """The visible cost of column y once the cards of column x from ``left`` up lie on it
    (no run removed)."""
    cols, lens, down, _, _ = pos
    rbreaks = costs.rank_breaks
    sbreaks = costs.suit_breaks
    lx = lens[x]
    rank_breaks = rbreaks[x, lx - 1] - rbreaks[x, left]
    suit_breaks = sbreaks[x, lx - 1] - sbreaks[x, left]
    ly = lens[y]
    if ly == 0:
        return cost_of(weights, 0, 0, rank_breaks, suit_breaks, rank_of(cols[x, left]))
    kind = _break(cols[y, ly - 1], cols[x, left])
    rank_breaks += kind == RANK_BREAK
    suit_breaks += kind == SUIT_BREAK
    d = down[y]
    base = rank_of(cols[y, 0]) if d == 0 else 0
    return cost_of(weights, d, 0, rbreaks[y, ly - 1] + rank_breaks, sbreaks[y, ly - 1] + suit_breaks, base)
