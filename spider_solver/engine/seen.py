"""The positions seen in one game: a set of keys that never forgets, for the fair player.

Not :mod:`spider_solver.engine.tt`: that table is bounded and forgets keys (a search may
see a position twice); the fair player must never take a position it has seen for a new
one, and a game reaches fewer positions than ``SEEN_SIZE`` / 2 (one per action). Layout:
``keys`` and ``tags``, ``SEEN_SIZE`` slots each (:func:`seen_sized`: another power of two),
linear probing from a key's low bits. A slot belongs to the game whose tag it holds, so a
new game (:func:`seen_start`, a tag above every earlier one) starts with an empty set
without clearing it. A set never holds more than half its slots (:func:`seen_add` then
keeps no more), so that probing always ends; :func:`seen_slots` sizes a set for the keys
it must hold. The fair planner's beam keeps its positions in one too.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from spider_solver.engine.types import INLINE

#: Slots of the set (a power of two, over twice the fair player's P_MAX_ACTIONS).
SEEN_BITS = 12
SEEN_SIZE = 1 << SEEN_BITS
#: The fewest slots :func:`seen_slots` gives.
MIN_SLOTS = 1 << 10


class Seen(NamedTuple):
    """The seen positions, as the kernels take them."""

    keys: np.ndarray  # uint64[SEEN_SIZE]: a position's key
    tags: np.ndarray  # int64[SEEN_SIZE]: the tag of the game the slot belongs to (0: none yet)
    tag: np.ndarray  # int64[2]: the tag of the game being played, and the keys it holds


@njit(cache=True)
def seen_new():
    """An empty set of ``SEEN_SIZE`` slots (kernels and Python alike)."""
    return seen_sized(SEEN_SIZE)


@njit(cache=True)
def seen_sized(slots):
    """An empty set of ``slots`` slots (a power of two)."""
    return Seen(np.zeros(slots, dtype=np.uint64), np.zeros(slots, dtype=np.int64), np.zeros(2, dtype=np.int64))


@njit(cache=True)
def seen_slots(need):
    """The slots of a set that must hold ``need`` keys: the least power of two over twice
    that, and at least ``MIN_SLOTS``."""
    size = MIN_SLOTS
    while size <= 2 * need:
        size *= 2
    return size


@njit(**INLINE)
def seen_start(seen, tag):
    """Start the game ``tag`` (above every tag the set has held) with no position seen."""
    seen.tag[0] = tag
    seen.tag[1] = 0


@njit(**INLINE)
def _slot(seen, key):
    """The slot of ``key`` in the current game's set, or of the free slot where it goes."""
    keys, tags, tag = seen
    game = tag[0]
    mask = keys.shape[0] - 1
    i = np.int64(key & np.uint64(mask))
    while tags[i] == game and keys[i] != key:
        i = (i + 1) & mask
    return i


@njit(**INLINE)
def seen_contains(seen, key):
    """True if ``key`` was added in the current game."""
    return seen.tags[_slot(seen, key)] == seen.tag[0]


@njit(**INLINE)
def seen_add(seen, key):
    """Add ``key`` to the current game's set; False if it was there already, or if the set
    is half full (the key is then not kept: a set too small for its keys forgets the newest,
    and probing always ends)."""
    i = _slot(seen, key)
    if seen.tags[i] == seen.tag[0]:
        return False
    if 2 * seen.tag[1] >= seen.keys.shape[0]:
        return False
    seen.tags[i] = seen.tag[0]
    seen.keys[i] = key
    seen.tag[1] += 1
    return True
