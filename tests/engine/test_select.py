"""``candidate_order`` is the stable sort by stratum then score that ``select_level`` needs.

It counts candidates into (stratum, score) buckets when scores lie close together
and falls back on a stable comparison sort otherwise; both must give exactly
``np.argsort(order_key, kind="mergesort")``, ties in candidate order.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_solver.engine.search import Candidates, candidate_order
from spider_solver.engine.types import SCORE_BIAS, SCORE_BITS


def candidates(strata: list[int], scores: list[int]) -> Candidates:
    n = len(scores)
    return Candidates(parent=np.zeros(n, dtype=np.int64), move=np.zeros(n, dtype=np.int64),
                      key=np.zeros(n, dtype=np.uint64), score=np.array(scores, dtype=np.int64),
                      stratum=np.array(strata, dtype=np.int64))


@settings(max_examples=200)
@given(data=st.data(), n=st.integers(0, 300), start=st.integers(0, 20),
       spread=st.sampled_from([3, 50, 1000, 10**6, 2**38]), strata=st.integers(1, 62))
def test_candidate_order_is_the_stable_sort(data, n, start, spread, strata):
    total = start + n
    scores = data.draw(st.lists(st.integers(-spread, spread), min_size=total, max_size=total))
    stratum = data.draw(st.lists(st.integers(0, strata - 1), min_size=total, max_size=total))
    cand = candidates(stratum, scores)
    keys = [(s << SCORE_BITS) + (v + SCORE_BIAS) for s, v in zip(stratum[start:], scores[start:], strict=True)]
    expected = np.argsort(np.array(keys, dtype=np.int64), kind="mergesort")
    assert candidate_order(cand, start, total).tolist() == expected.tolist()
