"""SplitMix64, the engine's one random number generator.

The same generator as :func:`spider_solver.rules.codes.splitmix64` (RULES.md §9.1 From
deal number to cards), in numpy and numba: ``rules`` stays free of both, so
``tests/engine/test_rng.py`` checks this copy against that one on fixed seeds.

:func:`splitmix64_array` draws many outputs at once (the Zobrist tables of
:mod:`spider_solver.engine.keys`); :func:`next_u64` and :func:`below` draw one at a
time inside a kernel (the fair player's noise), from a state held in ``rng[0]`` (a
``uint64[1]`` array). Both apply the one output function :func:`_mix`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spider_solver.engine.types import INLINE

#: The state's increment a draw.
GAMMA = np.uint64(0x9E3779B97F4A7C15)


def _output(z):
    """SplitMix64's output of state ``z`` (a ``uint64`` or an array of them; wraps modulo 2**64)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


#: :func:`_output` for the kernels.
_mix = njit(**INLINE)(_output)


def splitmix64_array(seed: int, count: int) -> np.ndarray:
    """The first ``count`` SplitMix64 outputs from state ``seed``, vectorised."""
    with np.errstate(over="ignore"):
        return _output(np.uint64(seed) + GAMMA * np.arange(1, count + 1, dtype=np.uint64))


@njit(**INLINE)
def next_u64(rng):
    """The next SplitMix64 output of the generator state ``rng[0]``, which it advances."""
    z = rng[0] + GAMMA
    rng[0] = z
    return _mix(z)


@njit(**INLINE)
def below(rng, k):
    """A random whole number from 0 to k - 1 (k >= 1): the top 53 bits of a draw, modulo k."""
    return np.int64(next_u64(rng) >> np.uint64(11)) % k
