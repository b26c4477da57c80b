"""How far a position looks from a win: lower is better.

The evaluation is a sum over columns plus a bonus per removed run, so that a move
re-evaluates only its two columns. A column costs

* ``W_DOWN`` per face-down card, and ``W_DOWN_COLUMN`` if it has any (a column
  that can still be emptied is worth more than one card);
* for each pair of adjacent face-up cards: nothing if they belong to one run
  (same suit, one rank apart), ``W_SUIT_BREAK`` if only the suit differs,
  ``W_RANK_BREAK`` if the ranks do not follow;
* ``W_RUNS_ON_DOWN`` per run (stretch without a break) lying on face-down cards,
  which all have to move before the next card turns up;
* minus ``W_EMPTY`` if the column is empty;
* minus ``W_KING_BASE`` if its deepest card is a face-up king, or else minus
  ``W_CLEAR_COLUMN`` if it is all face up and one run (it can be cleared).

The weights are data (``DEFAULT_WEIGHTS``), tuned by ``benchmarks/tune.py`` on a
deal set disjoint from the one the results are reported on.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spider_solver.engine.types import H_REMOVED, INLINE, KERNEL, MAX_COLUMNS, SUIT_SHIFT, rank_of

#: The rank of a column's ideal base card (a heuristic: shrunken variants keep it).
KING = 13

#: Indices into the weights array.
W_DOWN = 0
W_DOWN_COLUMN = 1
W_SUIT_BREAK = 2
W_RANK_BREAK = 3
W_EMPTY = 4
W_RUN = 5
W_KING_BASE = 6
W_CLEAR_COLUMN = 7
W_RUNS_ON_DOWN = 8
WEIGHTS_SIZE = 10

#: Tuned on the 4-suit tuning deals (benchmarks/HISTORY.md, "Evaluation weights").
DEFAULT_WEIGHTS = np.array([9, 0, 9, 7, 7, 36, 7, 5, 2, 0], dtype=np.int64)
#: The solve's weights by suit count, where they differ from ``DEFAULT_WEIGHTS`` (which
#: 1 suit keeps): a removed run counts less, breaks more (benchmarks/HISTORY.md,
#: "Evaluation weights").
SOLVE_WEIGHTS: dict[int, np.ndarray] = {
    4: np.array([12, -2, 12, 9, 5, 12, 9, 1, 2, 0], dtype=np.int64),
    2: np.array([16, -2, 12, 12, 7, 6, 9, 3, 2, 0], dtype=np.int64),
}


def weights_for(suits: int) -> np.ndarray:
    """The evaluation a solve of this suit count uses by default."""
    return SOLVE_WEIGHTS.get(suits, DEFAULT_WEIGHTS)


@njit(**INLINE)
def cost_of_column(down, rank_breaks, suit_breaks, base_rank, weights):
    """The cost of a non-empty column from its terms: face-down cards, the breaks between
    its face-up cards, and the rank of its deepest card (read only if ``down`` is 0).

    The one formula of a column's cost: ``column_cost`` counts the terms from the cards,
    the search (``node``) carries them from a parent to its children.
    """
    cost = weights[W_DOWN] * down + weights[W_RANK_BREAK] * rank_breaks + weights[W_SUIT_BREAK] * suit_breaks
    if down > 0:
        cost += weights[W_DOWN_COLUMN] + weights[W_RUNS_ON_DOWN] * (rank_breaks + suit_breaks + 1)
    elif base_rank == KING:
        cost -= weights[W_KING_BASE]
    elif rank_breaks + suit_breaks == 0:
        cost -= weights[W_CLEAR_COLUMN]
    return cost


@njit(**INLINE)
def column_cost(pos, c, weights):
    cols, lens, down, _, _ = pos
    n = lens[c]
    if n == 0:
        return -weights[W_EMPTY]
    d = down[c]
    # Count the breaks without branches: they are as unpredictable as the cards.
    rank_breaks = 0
    suit_breaks = 0
    upper = np.int64(cols[c, d])
    for i in range(d + 1, n):
        lower = np.int64(cols[c, i])
        follows = np.int64(rank_of(lower) + 1 == rank_of(upper))
        # Two face-up card bytes differ only in the rank field: the same suit.
        same_suit = np.int64((lower ^ upper) < (1 << SUIT_SHIFT))
        rank_breaks += 1 - follows
        suit_breaks += follows & (1 - same_suit)
        upper = lower
    return cost_of_column(d, rank_breaks, suit_breaks, rank_of(np.int64(cols[c, 0])), weights)


@njit(**KERNEL)
def evaluate(pos, weights, costs):
    """The evaluation of the whole position; ``costs[c]`` receives each column's share."""
    hdr = pos.hdr
    total = -weights[W_RUN] * hdr[H_REMOVED]
    for c in range(MAX_COLUMNS):
        costs[c] = column_cost(pos, c, weights)
        total += costs[c]
    return total
