"""Fixtures of the analysis tests: a verified line of each real deal, as the catalog would hold it."""

from __future__ import annotations

import pytest

from spider_solver.verify import solve
from tests.analysis.helpers import BUDGET, FOUR_SUITS, ONE_SUIT


@pytest.fixture(scope="module")
def lines() -> dict[str, tuple[str, ...]]:
    """A verified line of each deal, as the catalog would hold it."""
    return {code: solve(code, max_nodes=BUDGET, max_seconds=None).solution for code in (ONE_SUIT, FOUR_SUITS)}
