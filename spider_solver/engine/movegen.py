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
* ``MODE_PROOF``: the exhaustive search's moves. With cards left in the stock it is
  ``MODE_ALL``. Once the stock is empty no rule tells one column from another (only a
  deal does: its i-th card goes to column i), so a position and any reordering of its
  columns are won or lost together; two moves that reach positions differing only in
  the order of their columns need only one of them. It drops a group into an empty
  column other than the first (the two positions differ by the swap of the two empty
  columns) and a whole column into an empty column (a swap of the two columns). What
  is left reaches, from every position, a reordering of every position ``MODE_ALL``
  reaches, so a proof over it is a proof.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spider_solver.engine.types import (
    CLASS_LATERAL,
    CLASS_SPLIT,
    CLASS_SPLIT_EMPTY,
    H_DEALT,
    INLINE,
    KERNEL,
    MAX_COLUMNS,
    MAX_RANK,
    MODE_PROOF,
    MODE_SEARCH,
    MOVE_DEAL,
    RANK_BITS,
    VP_COLUMNS,
    VP_DEAL_ON_EMPTY,
    VP_DEALS,
    VP_RELAXED,
    column_bit,
    decode_move,
    encode_move,
    lowest_bit,
    rank_of,
    same_suit,
    with_class,
)

#: gen_moves keeps a small number per column (a rank, a group size: at most
#: MAX_RANK) in a field of FIELD_BITS bits of one int64, column c at bit FIELD_BITS * c.
FIELD_BITS = RANK_BITS
FIELD_MASK = (1 << FIELD_BITS) - 1
assert MAX_RANK <= FIELD_MASK and FIELD_BITS * MAX_COLUMNS <= 63
#: No column (e.g. no empty column yet).
NO_COLUMN = -1


@njit(**INLINE)
def _field(word, c):
    """Column c's field of a per-column word."""
    return (word >> (FIELD_BITS * c)) & FIELD_MASK


@njit(**INLINE)
def in_field(value, c):
    """``value`` placed in column c's field."""
    return value << (FIELD_BITS * c)


@njit(**INLINE)
def movable(pos, c, relaxed):
    """Size of the largest group that can leave column c (0 if it is empty)."""
    cols, lens, down, _, _ = pos
    n = lens[c]
    if n == 0:
        return 0
    face_up = n - down[c]
    size = 1
    while size < face_up:
        upper = cols[c, n - size - 1]
        lower = cols[c, n - size]
        if rank_of(lower) != rank_of(upper) - 1:
            break
        if not relaxed and not same_suit(lower, upper):
            break
        size += 1
    return size


@njit(**INLINE)
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
def gen_moves(pos, vp, mode, out):
    """Write the moves of this position into ``out``; return how many.

    In ``MODE_SEARCH`` a move may carry a class (``CLASS_*``) that the search
    plays in a second tier; strip it with ``plain_move`` before playing.
    """
    cols, lens, _, _, _ = pos
    ncols = vp[VP_COLUMNS]
    relaxed = vp[VP_RELAXED] != 0
    # One pass over the columns: the rank of each last card (0 if empty) and the
    # size of each movable group, 4 bits per column in two integers (no
    # allocation); then the pairs are plain integer comparisons.
    tops = 0
    groups = 0
    first_empty = NO_COLUMN
    for c in range(ncols):
        if lens[c] == 0:
            if first_empty == NO_COLUMN:
                first_empty = c
        else:
            tops |= in_field(np.int64(rank_of(cols[c, lens[c] - 1])), c)
            groups |= in_field(movable(pos, c, relaxed), c)
    return gen_moves_of(pos, vp, mode, out, tops, groups, first_empty)


@njit(**INLINE)
def gen_moves_of(pos, vp, mode, out, tops, groups, first_empty):
    """``gen_moves`` given its summary of the columns: ``tops`` and ``groups`` hold each
    column's last rank (0 if empty) and movable group size in FIELD_BITS-bit fields
    (``in_field``), ``first_empty`` is the first empty column or NO_COLUMN. The
    search computes the summary while it loads a position (``node.load_parent``)."""
    cols, lens, down, hdr, _ = pos
    ncols = vp[VP_COLUMNS]
    relaxed = vp[VP_RELAXED] != 0
    search = mode == MODE_SEARCH
    # Moves that only rename columns left out: MODE_SEARCH always, MODE_PROOF once the stock is empty.
    renames = not search and not (mode == MODE_PROOF and hdr[H_DEALT] >= vp[VP_DEALS])
    # The empty columns a group may go to: the first one only, unless renames are kept.
    empties = 0
    if first_empty != NO_COLUMN:
        if not renames:
            empties = column_bit(first_empty)
        else:
            for d in range(first_empty, ncols):
                if _field(tops, d) == 0:
                    empties |= column_bit(d)
    n = 0
    for s in range(ncols):
        group = _field(groups, s)
        if group == 0:
            continue
        ls = lens[s]
        low = _field(tops, s)
        # The targets, as a mask built without branches (which of the ten fits is as
        # unpredictable as the cards), then visited in column order.
        targets = empties
        for d in range(ncols):
            count = _field(tops, d) - low
            targets |= np.int64((count >= 1) & (count <= group)) << d
        while targets:
            d = lowest_bit(targets)
            targets &= targets - 1
            if _field(tops, d) == 0:
                n = _moves_to_empty(cols, ls, s, d, group, (search, renames, relaxed), out, n)
                continue
            count = _field(tops, d) - low
            code = encode_move(s, d, count)
            if search:
                target = cols[d, lens[d] - 1]
                first = cols[s, ls - count]
                if not same_suit(first, target):
                    if count < group:
                        if not relaxed or same_suit(cols[s, ls - count - 1], first):
                            code = with_class(code, CLASS_SPLIT)
                    elif ls - count > down[s]:
                        below = cols[s, ls - count - 1]
                        if rank_of(below) == rank_of(first) + 1:
                            code = with_class(code, CLASS_LATERAL)
            out[n] = code
            n += 1
    if can_deal(lens, hdr, vp):
        out[n] = MOVE_DEAL
        n += 1
    return n


@njit(**INLINE)
def _moves_to_empty(cols, ls, s, d, group, flags, out, n):
    """The moves of 1 to ``group`` cards from column ``s`` to the empty column ``d``, written
    to ``out`` from ``n``; ``flags`` is (search, renames, relaxed). Returns the new ``n``."""
    search, renames, relaxed = flags
    for count in range(1, group + 1):
        if count == ls and not renames:
            continue
        code = encode_move(s, d, count)
        if search and count < group and (not relaxed or same_suit(cols[s, ls - count - 1], cols[s, ls - count])):
            code = with_class(code, CLASS_SPLIT_EMPTY)
        out[n] = code
        n += 1
    return n


@njit(**KERNEL)
def is_legal(pos, vp, move):
    """True if ``move`` is legal here (any move code, e.g. from a solution being shortened)."""
    cols, lens, _, hdr, _ = pos
    if move == MOVE_DEAL:
        return can_deal(lens, hdr, vp)
    ncols = vp[VP_COLUMNS]
    src, dst, count = decode_move(move)
    if src >= ncols or dst >= ncols or src == dst or count < 1:
        return False
    if count > movable(pos, src, vp[VP_RELAXED] != 0):
        return False
    ld = lens[dst]
    if ld == 0:
        return True
    return rank_of(cols[dst, ld - 1]) == rank_of(cols[src, lens[src] - count]) + 1
