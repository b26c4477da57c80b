"""The engine's SplitMix64 (``engine/rng.py``) is the rules' one (``rules/codes.py``), output for output.

``rules`` imports neither numpy nor numba, so it keeps its own pure-Python generator:
the reference here. The Zobrist tables (``test_keys.py``) and the fair player's noise
draw from the engine's copy.
"""

from itertools import islice

import numpy as np
import pytest

from spider_solver.engine.rng import below, next_u64, splitmix64_array
from spider_solver.rules.codes import MASK64, splitmix64

SEEDS = [0, 3, 0x5350494445523031, 0x53504731, MASK64, 0x9E3779B97F4A7C15]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_vectorised_outputs_are_the_rules_outputs(seed):
    assert [int(x) for x in splitmix64_array(seed, 40)] == list(islice(splitmix64(seed), 40))


@pytest.mark.parametrize("seed", SEEDS)
def test_the_kernels_draws_are_the_rules_outputs(seed):
    rng = np.array([seed], dtype=np.uint64)
    assert [int(next_u64(rng)) for _ in range(40)] == list(islice(splitmix64(seed), 40))
    assert int(rng[0]) == (seed + 40 * 0x9E3779B97F4A7C15) & MASK64


@pytest.mark.parametrize("k", [1, 2, 49, 1000, 1 << 40])
def test_below_is_the_top_53_bits_modulo_k(k):
    rng = np.array([7], dtype=np.uint64)
    draws = [int(below(rng, k)) for _ in range(30)]
    assert draws == [(x >> 11) % k for x in islice(splitmix64(7), 30)]
    assert all(0 <= d < k for d in draws)

