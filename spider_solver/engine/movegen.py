"""Move generation.

``gen_moves`` writes move codes into a buffer and returns how many. Two modes:

* ``MODE_ALL``: every legal action, in the reference engine's order (sources 1..10,
  then targets 1..10, then group sizes, then the deal). The parity tests compare
  it with :meth:`spider_solver.rules.Board.legal_moves`; proofs of unwinnability
  use only this mode.
* ``MODE_SEARCH``: the moves worth trying. It drops, in a way that is not
  solution-preserving, any move into an empty column other than the first empty
  one and a whole column into an empty column (both mostly rename columns), and it
  marks moves that rarely pay with a class, for which the search charges a
  penalty, so that they are tried when a position offers little else:

  - ``CLASS_SPLIT``: part of a run onto a card of another suit (splitting a run
    pays mostly when it lengthens a same-suit run; under the Relaxed rule a split
    at a change of suit counts as a whole run);
  - ``CLASS_SPLIT_EMPTY``: part of a run into an empty column;
  - ``CLASS_LATERAL``: a whole run from a card one rank higher of another suit to
    another such card (it changes only which card is uncovered).
"""

from __future__ import annotations

import numpy as np
from numba import njit


from spider_solver.engine.types import (
    KERNEL,
    CLASS_LATERAL,
    CLASS_SHIFT,
    CLASS_SPLIT,
    CLASS_SPLIT_EMPTY,
    H_DEALT,
    MODE_SEARCH,
    MOVE_DEAL,
    RANK_MASK,
    SUIT_SHIFT,
    VP_COLUMNS,
    VP_DEAL_ON_EMPTY,
    VP_DEALS,
    VP_RELAXED,
)


@njit(inline="always", **KERNEL)
def movable(cols, lens, down, c, relaxed):
    """Size of the largest group that can leave column c (0 if it is empty)."""
    n = lens[c]
    if n == 0:
        return 0
    face_up = n - down[c]
    size = 1
    while size < face_up:
        upper = cols[c, n - size - 1]
        lower = cols[c, n - size]
        if lower & RANK_MASK != (upper & RANK_MASK) - 1:
            break
        if not relaxed and (lower >> SUIT_SHIFT) != (upper >> SUIT_SHIFT):
            break
        size += 1
    return size


@njit(inline="always", **KERNEL)
def can_deal(lens, hdr, vp):
    if hdr[H_DEALT] >= vp[VP_DEALS]:
        return False
    if vp[VP_DEAL_ON_EMPTY]:
        return True
    for c in range(vp[VP_COLUMNS]):
        if lens[c] == 0:
            return False
    return True


@njit(**KERNEL)
def gen_moves(cols, lens, down, hdr, vp, mode, out):
    """Write the moves of this position into ``out``; return how many.

    In ``MODE_SEARCH`` a move may carry a class in bits 16.. (``CLASS_*``) that
    the search plays in a second tier; strip it with ``& MOVE_MASK`` before playing.
    """
    ncols = vp[VP_COLUMNS]
    relaxed = vp[VP_RELAXED] != 0
    search = mode == MODE_SEARCH
    # One pass over the columns: the rank of each last card (0 if empty) and the
    # size of each movable group, 4 bits per column in two integers (no
    # allocation); then the pairs are plain integer comparisons.
    tops = 0
    groups = 0
    first_empty = -1
    for c in range(ncols):
        if lens[c] == 0:
            if first_empty < 0:
                first_empty = c
        else:
            tops |= np.int64(cols[c, lens[c] - 1] & RANK_MASK) << (4 * c)
            groups |= movable(cols, lens, down, c, relaxed) << (4 * c)
    n = 0
    for s in range(ncols):
        group = (groups >> (4 * s)) & 15
        if group == 0:
            continue
        ls = lens[s]
        low = (tops >> (4 * s)) & 15
        for d in range(ncols):
            top = (tops >> (4 * d)) & 15
            count = top - low
            if count < 1 or count > group:
                if top == 0 and d != s:
                    n = _moves_to_empty(cols, ls, s, d, group, first_empty, relaxed, search, out, n)
                continue
            code = s | d << 4 | count << 8
            if search:
                target = cols[d, lens[d] - 1]
                first = cols[s, ls - count]
                if not same_suit(first, target):
                    if count < group:
                        if not relaxed or same_suit(cols[s, ls - count - 1], first):
                            code |= CLASS_SPLIT << CLASS_SHIFT
                    elif ls - count > down[s]:
                        below = cols[s, ls - count - 1]
                        if below & RANK_MASK == (first & RANK_MASK) + 1:
                            code |= CLASS_LATERAL << CLASS_SHIFT
            out[n] = code
            n += 1
    if can_deal(lens, hdr, vp):
        out[n] = MOVE_DEAL
        n += 1
    return n


@njit(inline="always", **KERNEL)
def _moves_to_empty(cols, ls, s, d, group, first_empty, relaxed, search, out, n):
    if search and d != first_empty:
        return n
    for count in range(1, group + 1):
        code = s | d << 4 | count << 8
        if search:
            if count == ls:
                continue
            if count < group and (not relaxed or same_suit(cols[s, ls - count - 1], cols[s, ls - count])):
                code |= CLASS_SPLIT_EMPTY << CLASS_SHIFT
        out[n] = code
        n += 1
    return n


@njit(inline="always", **KERNEL)
def same_suit(a, b):
    return (a >> SUIT_SHIFT) == (b >> SUIT_SHIFT)


@njit(**KERNEL)
def is_legal(cols, lens, down, hdr, vp, move):
    """True if ``move`` is legal here (any move code, e.g. from a solution being shortened)."""
    if move == MOVE_DEAL:
        return can_deal(lens, hdr, vp)
    ncols = vp[VP_COLUMNS]
    src = move & 15
    dst = (move >> 4) & 15
    count = (move >> 8) & 127
    if src >= ncols or dst >= ncols or src == dst or count < 1:
        return False
    if count > movable(cols, lens, down, src, vp[VP_RELAXED] != 0):
        return False
    ld = lens[dst]
    if ld == 0:
        return True
    return (cols[dst, ld - 1] & RANK_MASK) == (cols[src, lens[src] - count] & RANK_MASK) + 1
