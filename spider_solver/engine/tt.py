"""The transposition table: a preallocated, bounded set of position keys.

Layout: one ``uint64`` array of ``2**bits`` slots; a slot holds a full 64-bit key,
0 means empty (a key that is 0 is stored as 1). A key's home slot is its low
``bits`` bits; probing looks at ``PROBES`` consecutive slots (one or two cache
lines). When all of them are taken, the key replaces the one in its home slot:
the table never grows and never refuses, it forgets. Forgetting a key only means
a position may be searched twice; it never hides one, so exhaustive proofs stay
sound. ``info[TT_STORED]`` counts stored keys, ``info[TT_FORGOTTEN]`` keys forgotten.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from spider_solver.engine.types import INLINE, KERNEL

#: Slots looked at from a key's home slot on (64 bytes: one or two cache lines).
PROBES = 8
#: The counters in ``info``.
TT_STORED = 0
TT_FORGOTTEN = 1
TT_INFO_SIZE = 2
#: What an empty slot holds, and what a key equal to it is stored as.
EMPTY = 0
ZERO_KEY_AS = 1


class TranspositionTable(NamedTuple):
    """The slots and the counters, as the kernels take them."""

    slots: np.ndarray  # uint64[2**bits]
    info: np.ndarray  # int64[TT_INFO_SIZE]


def tt_new(bits: int) -> TranspositionTable:
    """A table of ``2**bits`` slots (8 bytes each) and its counters."""
    return TranspositionTable(np.zeros(1 << bits, dtype=np.uint64), np.zeros(TT_INFO_SIZE, dtype=np.int64))


def tt_clear(tt: TranspositionTable) -> None:
    tt.slots[:] = EMPTY
    tt.info[:] = 0


@njit(**INLINE)
def _slot_key(key):
    return key if key != EMPTY else np.uint64(ZERO_KEY_AS)


@njit(**KERNEL)
def tt_probe(tt, key):
    """True if ``key`` is stored."""
    return tt_contains(tt, key)


@njit(**INLINE)
def tt_contains(tt, key):
    """``tt_probe``, inlined into the caller (the search's inner loop)."""
    table = tt.slots
    key = _slot_key(key)
    mask = table.shape[0] - 1
    home = np.int64(key & np.uint64(mask))
    for i in range(PROBES):
        k = table[(home + i) & mask]
        if k == key:
            return True
        if k == EMPTY:
            return False
    return False


@njit(**KERNEL)
def tt_store(tt, key):
    """Store ``key``; return False if it was already there."""
    table, info = tt
    key = _slot_key(key)
    mask = table.shape[0] - 1
    home = np.int64(key & np.uint64(mask))
    for i in range(PROBES):
        slot = (home + i) & mask
        k = table[slot]
        if k == key:
            return False
        if k == EMPTY:
            table[slot] = key
            info[TT_STORED] += 1
            return True
    table[home] = key
    info[TT_FORGOTTEN] += 1
    return True
