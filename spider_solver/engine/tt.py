"""The transposition table: a preallocated, bounded set of position keys.

Layout: one ``uint64`` array of ``2**bits`` slots; a slot holds a full 64-bit key,
0 means empty (a key that is 0 is stored as 1). A key's home slot is its low
``bits`` bits; probing looks at ``PROBES`` consecutive slots (one or two cache
lines). When all of them are taken, the key replaces the one in its home slot:
the table never grows and never refuses, it forgets. Forgetting a key only means
a position may be searched twice; it never hides one, so exhaustive proofs stay
sound. ``info[TT_STORED]`` counts stored keys, ``info[TT_FORGOTTEN]`` keys forgotten.

In front of the slots, ``seen`` is a filter of ``FILTER_BITS_PER_SLOT`` bits a slot (a
sixteenth of the slots' bytes), indexed by the key's bits 32 and up (the home slot
takes its low bits): a key's bit is set when it is stored and never cleared, so a
clear bit proves the key is not in the table and the slots are not read. Most
children a search makes are new, and the slots (2 MB at the narrowest beam) outgrow a
core's L2 cache where the filter does not, so this saves a cache miss a new child;
answers are the same as without it (a set bit only sends the probe on to the slots).
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
#: The filter's size: bits per slot (a power of two), and where a key's filter index starts.
FILTER_BITS_PER_SLOT = 4
FILTER_SHIFT = 32
#: What an empty slot holds, and what a key equal to it is stored as.
EMPTY = 0
ZERO_KEY_AS = 1


class TranspositionTable(NamedTuple):
    """The slots and the counters, as the kernels take them."""

    slots: np.ndarray  # uint64[2**bits]
    info: np.ndarray  # int64[TT_INFO_SIZE]
    seen: np.ndarray  # uint64[2**bits * FILTER_BITS_PER_SLOT / 64 (at least 1)]: the filter's bits


def tt_new(bits: int) -> TranspositionTable:
    """A table of ``2**bits`` slots (8 bytes each), its counters and its filter."""
    words = max(1, (FILTER_BITS_PER_SLOT << bits) // 64)
    return TranspositionTable(np.zeros(1 << bits, dtype=np.uint64), np.zeros(TT_INFO_SIZE, dtype=np.int64),
                              np.zeros(words, dtype=np.uint64))


def tt_clear(tt: TranspositionTable) -> None:
    tt.slots[:] = EMPTY
    tt.info[:] = 0
    tt.seen[:] = 0


@njit(**INLINE)
def _slot_key(key):
    return key if key != EMPTY else np.uint64(ZERO_KEY_AS)


@njit(**INLINE)
def _filter_cell(seen, key):
    """The word of ``seen`` that holds ``key``'s filter bit, and the bit."""
    cell = np.int64((key >> np.uint64(FILTER_SHIFT)) & np.uint64(seen.shape[0] * 64 - 1))
    return cell >> 6, np.uint64(1) << np.uint64(cell & 63)


@njit(**KERNEL)
def tt_probe(tt, key):
    """True if ``key`` is stored."""
    return tt_contains(tt, key)


@njit(**INLINE)
def tt_contains(tt, key):
    """``tt_probe``, inlined into the caller (the search's inner loop)."""
    table = tt.slots
    key = _slot_key(key)
    word, bit = _filter_cell(tt.seen, key)
    if tt.seen[word] & bit == 0:
        return False
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
    table, info, seen = tt
    key = _slot_key(key)
    word, bit = _filter_cell(seen, key)
    seen[word] |= bit
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


@njit(**KERNEL)
def tt_store_all(tt, keys):
    """Store every key of ``keys`` (uint64), as ``tt_store`` stores one."""
    for i in range(keys.shape[0]):
        tt_store(tt, keys[i])
