"""Zobrist key tables.

A position's key is the XOR of one 64-bit number per (column, height, card byte
with its face-down bit) over every card in the columns, and one per number of
deals made. The numbers come from SplitMix64 (:mod:`spider_solver.engine.rng`) seeded
with ``KEY_SEED``, drawn in the order ``ZOBRIST[0, 0, 0], ZOBRIST[0, 0, 1], ...`` and
then ``DEALT_KEYS``; ``tests/engine/test_keys.py`` pins a few of them and the key of a known position.
The tables are built once with numpy and passed to the kernels as arguments
(numba freezes globals into its cache; arguments stay honest).
"""

from __future__ import annotations

import numpy as np

from spider_solver.engine.rng import splitmix64_array
from spider_solver.engine.types import CARD_CODES, MAX_COLUMNS, MAX_DEALS, MAX_HEIGHT

KEY_SEED = 0x5350494445523031  # "SPIDER01"
#: One key per number of deals made: a variant of at most 104 cards has at most 103 deals.
DEAL_KEYS = 104
assert DEAL_KEYS > MAX_DEALS, "a deal count the engine accepts has no key"


def make_tables() -> tuple[np.ndarray, np.ndarray]:
    cells = MAX_COLUMNS * MAX_HEIGHT * CARD_CODES
    numbers = splitmix64_array(KEY_SEED, cells + DEAL_KEYS)
    zobrist = numbers[:cells].reshape(MAX_COLUMNS, MAX_HEIGHT, CARD_CODES).copy()
    dealt = numbers[cells : cells + DEAL_KEYS].copy()
    return zobrist, dealt


ZOBRIST, DEALT_KEYS = make_tables()
