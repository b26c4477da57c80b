"""How far a position looks from a win: lower is better.

The evaluation is a sum over columns plus a bonus per removed run, so that a move
re-evaluates only its two columns. A column costs

* ``W_DOWN`` per face-down card, and ``W_DOWN_COLUMN`` if it has any (a column
  that can still be emptied is worth more than one card);
* for each pair of adjacent face-up cards: nothing if they belong to one run
  (same suit, one rank apart), ``W_SUIT_BREAK`` if only the suit differs,
  ``W_RANK_BREAK`` if the ranks do not follow;
* minus ``W_EMPTY`` if the column is empty;
* minus ``W_KING_BASE`` if its deepest card is a face-up king, or else minus
  ``W_CLEAR_COLUMN`` if it is all face up and one run (it can be cleared).

The weights are data (``DEFAULT_WEIGHTS``), tuned by ``benchmarks/tune.py`` on a
deal set disjoint from the one the results are reported on.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spider_solver.engine.types import H_REMOVED, MAX_COLUMNS, RANK_MASK, SUIT_SHIFT

W_DOWN = 0
W_DOWN_COLUMN = 1
W_SUIT_BREAK = 2
W_RANK_BREAK = 3
W_EMPTY = 4
W_RUN = 5
W_KING_BASE = 6
W_CLEAR_COLUMN = 7
WEIGHTS_SIZE = 8

DEFAULT_WEIGHTS = np.array([5, 0, 5, 5, 10, 40, 5, 5], dtype=np.int64)


@njit(cache=True, inline="always")
def column_cost(cols, lens, down, c, weights):
    n = lens[c]
    if n == 0:
        return -weights[W_EMPTY]
    d = down[c]
    cost = weights[W_DOWN] * d
    if d > 0:
        cost += weights[W_DOWN_COLUMN]
    upper = cols[c, d]
    breaks = 0
    for i in range(d + 1, n):
        lower = cols[c, i]
        if lower & RANK_MASK != (upper & RANK_MASK) - 1:
            cost += weights[W_RANK_BREAK]
            breaks += 1
        elif (lower >> SUIT_SHIFT) != (upper >> SUIT_SHIFT):
            cost += weights[W_SUIT_BREAK]
            breaks += 1
        upper = lower
    if d == 0:
        if cols[c, 0] & RANK_MASK == 13:
            cost -= weights[W_KING_BASE]
        elif breaks == 0:
            cost -= weights[W_CLEAR_COLUMN]
    return cost


@njit(cache=True)
def evaluate(cols, lens, down, hdr, weights):
    total = -weights[W_RUN] * hdr[H_REMOVED]
    for c in range(MAX_COLUMNS):
        total += column_cost(cols, lens, down, c, weights)
    return total
