"""Which evaluation each search uses: the solve's own weights by suit count
(``evaluate.weights_for``), an explicit vector when one is given."""

from __future__ import annotations

import numpy as np
import pytest

from spider_solver.budget import Budget
from spider_solver.engine import driver
from spider_solver.engine.driver import SearchOptions
from spider_solver.engine.evaluate import DEFAULT_WEIGHTS, SOLVE_WEIGHTS, weights_for
from spider_solver.engine.schedule import SELECTION, WIDTHS
from spider_solver.engine.search import SELECT_SHARED
from spider_solver.rules import Deal


@pytest.mark.parametrize("code", ["SP1-S4C-AAAAAAD", "SP1-S2C-AAAAAAD", "SP1-S1C-AAAAABA"])
def test_a_solve_scores_positions_with_the_weights_of_its_suit_count(monkeypatch, code):
    deal = Deal.from_code(code)
    given = []

    def spy(*args, weights, **kwargs):
        given.append(weights)
        return beam(*args, weights=weights, **kwargs)

    beam = driver.beam
    monkeypatch.setattr(driver, "beam", spy)
    driver.run_search(deal, budget=Budget(20_000), options=SearchOptions(polish=False))
    assert given and all((w == weights_for(deal.variant.suits)).all() for w in given)
    explicit = np.array([5, 0, 5, 5, 10, 40, 5, 5, 2, 0], dtype=np.int64)
    given.clear()
    driver.run_search(deal, budget=Budget(20_000), options=SearchOptions(polish=False, weights=explicit))
    assert given and all(w is explicit for w in given)


def test_the_suit_counts_with_weights_of_their_own_differ_from_the_default():
    assert SOLVE_WEIGHTS and all(not (w == DEFAULT_WEIGHTS).all() for w in SOLVE_WEIGHTS.values())
    assert weights_for(1) is DEFAULT_WEIGHTS


@pytest.mark.parametrize("code", ["SP1-S4C-AAAAAAD", "SP1-S2C-AAAAAAD", "SP1-S1C-AAAAABA"])
def test_a_solve_widens_and_selects_as_its_suit_count_says(monkeypatch, code):
    """The schedule's beams take the widths and the selection policy of the deal's suit
    count (schedule.WIDTHS, schedule.SELECTION): 2 and 4 suits share a level's room between
    strata, 1 suit keeps one width per stratum."""
    deal = Deal.from_code(code)
    suits = deal.variant.suits
    seen = []

    def spy(game, mode, budget, **kwargs):
        seen.append((mode.width, mode.selection))
        return beam(game, mode, budget, **kwargs)

    beam = driver.beam
    monkeypatch.setattr(driver, "beam", spy)
    driver.run_search(deal, budget=Budget(20_000), options=SearchOptions(polish=False))
    assert seen and seen[0] == (WIDTHS[suits][0], SELECTION[suits])
    assert all(selection == SELECTION[suits] for _, selection in seen)
    assert (SELECTION[suits][0] == SELECT_SHARED) == (suits > 1)
