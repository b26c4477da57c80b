"""``candidate_order`` is the stable sort by stratum then score that ``select_level`` needs;
the shared selection keeps what its definition says.

It counts candidates into (stratum, score) buckets when scores lie close together
and falls back on a stable comparison sort otherwise; both must give exactly
``np.argsort(order_key, kind="mergesort")``, ties in candidate order.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_solver.engine.search import SELECT_SHARED, Candidates, candidate_order, select_level
from spider_solver.engine.tt import tt_new
from spider_solver.engine.types import SCORE_BIAS, SCORE_BITS


def candidates(strata: list[int], scores: list[int]) -> Candidates:
    n = len(scores)
    return Candidates(parent=np.zeros(n, dtype=np.int64), move=np.zeros(n, dtype=np.int64),
                      key=np.zeros(n, dtype=np.uint64), score=np.array(scores, dtype=np.int64),
                      stratum=np.array(strata, dtype=np.int64), arrive=np.zeros(n, dtype=np.int64))


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


def shared_reference(strata_of, scores, keys, width, strata, offset, floor, cap):
    """SELECT_SHARED in plain Python: each stratum's best ``floor`` (in stratum-score
    order), then the best of all by ``score - offset * stratum`` up to the level's room,
    at most ``cap`` a stratum; a key already kept is skipped."""
    room = width * strata
    stored: set[int] = set()
    counts = [0] * strata
    kept = []
    for i in sorted(range(len(scores)), key=lambda i: (strata_of[i], scores[i])):
        if counts[strata_of[i]] < floor and keys[i] not in stored:
            stored.add(keys[i])
            kept.append(i)
            counts[strata_of[i]] += 1
    for i in sorted(range(len(scores)), key=lambda i: scores[i] - offset * strata_of[i]):
        s = strata_of[i]
        if sum(counts) >= room or counts[s] >= cap or keys[i] in stored:
            continue
        stored.add(keys[i])
        kept.append(i)
        counts[s] += 1
    return kept, counts


@settings(max_examples=200, deadline=None)
@given(data=st.data(), n=st.integers(0, 200), width=st.integers(1, 12), strata=st.integers(1, 6),
       offset=st.integers(0, 120), floor=st.sampled_from([0, 250, 500, 1000]), cap=st.sampled_from([0, 1000, 2000]))
def test_the_shared_selection_keeps_what_its_definition_says(data, n, width, strata, offset, floor, cap):
    strata_of = data.draw(st.lists(st.integers(0, strata - 1), min_size=n, max_size=n))
    scores = data.draw(st.lists(st.integers(-300, 300), min_size=n, max_size=n))
    # A few repeated keys: the same position reached twice is kept once.
    keys = data.draw(st.lists(st.integers(1, max(1, n)), min_size=n, max_size=n))
    cand = candidates(strata_of, scores)._replace(key=np.array(keys, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15))
    select = np.array([SELECT_SHARED, offset, floor, cap], dtype=np.int64)
    counts = np.zeros(strata, dtype=np.int64)
    selected = np.zeros(max(1, n), dtype=np.int64)
    kept, _ = select_level(cand, (0, n), width, counts, tt_new(16), selected, 0, select)
    hashed = [k * 0x9E3779B97F4A7C15 % 2**64 for k in keys]
    expected, expected_counts = shared_reference(strata_of, scores, hashed, width, strata, offset,
                                                 width * floor // 1000, width * cap // 1000 or width * strata)
    assert selected[:kept].tolist() == expected
    assert counts.tolist() == expected_counts
    assert kept <= width * strata
