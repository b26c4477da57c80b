"""The transposition table: its filter answers as the slots alone would."""

from __future__ import annotations

import random

import numpy as np
import pytest

from spider_solver.engine.tt import (
    EMPTY,
    FILTER_BITS_PER_SLOT,
    PROBES,
    TT_FORGOTTEN,
    TT_STORED,
    ZERO_KEY_AS,
    tt_clear,
    tt_new,
    tt_probe,
    tt_store,
)


class SlotsOnly:
    """The table without its filter, in plain Python: what the kernels must answer."""

    def __init__(self, bits: int) -> None:
        self.slots = [EMPTY] * (1 << bits)
        self.mask = (1 << bits) - 1
        self.stored = self.forgotten = 0

    def probe(self, key: int) -> bool:
        key = key or ZERO_KEY_AS
        home = key & self.mask
        for i in range(PROBES):
            k = self.slots[(home + i) & self.mask]
            if k in (key, EMPTY):
                return k == key
        return False

    def store(self, key: int) -> bool:
        key = key or ZERO_KEY_AS
        home = key & self.mask
        for i in range(PROBES):
            slot = (home + i) & self.mask
            if self.slots[slot] == key:
                return False
            if self.slots[slot] == EMPTY:
                self.slots[slot] = key
                self.stored += 1
                return True
        self.slots[home] = key
        self.forgotten += 1
        return True


@pytest.mark.parametrize("bits", [3, 6, 10])
def test_the_table_answers_as_its_slots_alone_would(bits):
    """Random stores and probes, some keys repeated, some sharing low bits (one home
    slot) or high bits (one filter bit), 0 among them; small tables forget keys."""
    rng = random.Random(bits)
    tt, model = tt_new(bits), SlotsOnly(bits)
    keys = [0, 1] + [rng.getrandbits(64) for _ in range(60)]
    keys += [(rng.getrandbits(32) << 32) | 5 for _ in range(20)]  # one home slot
    keys += [(7 << 32) | rng.getrandbits(32) for _ in range(20)]  # one filter bit
    for _ in range(3000):
        key = rng.choice(keys) if rng.random() < 0.7 else rng.getrandbits(64)
        if rng.random() < 0.4:
            assert tt_store(tt, np.uint64(key)) == model.store(key)
        else:
            assert tt_probe(tt, np.uint64(key)) == model.probe(key)
    assert (tt.info[TT_STORED], tt.info[TT_FORGOTTEN]) == (model.stored, model.forgotten)
    assert model.forgotten > 0 or bits > 3
    assert [int(k) for k in tt.slots] == model.slots


def test_a_key_the_filter_has_not_seen_is_not_looked_for_in_the_slots():
    """The filter decides alone for a new key: a slot holding the key (put there behind the
    table's back) is not read while its filter bit is clear."""
    tt = tt_new(8)
    key = np.uint64(0x1234_5678_9ABC_DEF0)
    tt.slots[int(key) & 0xFF] = key
    assert not tt_probe(tt, key)
    tt.slots[:] = EMPTY
    assert tt_store(tt, key) and tt_probe(tt, key)


def test_the_filter_is_a_sixteenth_of_the_slots_and_clears_with_them():
    tt = tt_new(10)
    assert tt.seen.nbytes * 8 == FILTER_BITS_PER_SLOT * tt.slots.shape[0]
    assert tt.seen.nbytes * 16 == tt.slots.nbytes
    assert tt_new(2).seen.shape == (1,)
    tt_store(tt, np.uint64(99))
    tt_clear(tt)
    assert not tt_probe(tt, np.uint64(99)) and not tt.seen.any() and not tt.info.any()
