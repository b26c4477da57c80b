"""The options of an analysis (spider_solver/analysis/options.py): one value, checked as it is made."""

from __future__ import annotations

import pytest

from spider_solver.analysis import AnalysisOptions, analyze
from spider_solver.errors import InvalidBudgetError
from spider_solver.limits import INTERACTIVE_MAX_NODES, INTERACTIVE_MAX_SECONDS


def test_the_defaults_are_the_interactive_ones_and_a_change_is_a_new_value():
    options = AnalysisOptions()
    assert (options.max_nodes, options.max_seconds, options.find_lost_at) == (INTERACTIVE_MAX_NODES,
                                                                             INTERACTIVE_MAX_SECONDS, True)
    changed = options.but(max_nodes=10, find_lost_at=False)
    assert (changed.max_nodes, changed.find_lost_at) == (10, False) and options.max_nodes == INTERACTIVE_MAX_NODES
    assert options.but() is options


def test_a_bad_option_is_refused_as_the_value_is_made():
    with pytest.raises(InvalidBudgetError):
        AnalysisOptions(max_nodes=0)
    with pytest.raises(ValueError, match="invalid find_lost_at 'yes'"):
        AnalysisOptions(find_lost_at="yes")  # type: ignore[arg-type]
    with pytest.raises(InvalidBudgetError):
        analyze("SP1-S4C-AAAAAAD", "9>4", max_nodes=-1)
    with pytest.raises(TypeError):
        analyze("SP1-S4C-AAAAAAD", "9>4", max_node=10)  # a misspelt option is an error, not ignored


def test_keywords_and_an_options_value_give_the_same_answer():
    options = AnalysisOptions(max_nodes=1, max_seconds=None)
    assert analyze("SP1-S4C-AAAAAAD", "9>4 D 1>2", options) == analyze("SP1-S4C-AAAAAAD", "9>4 D 1>2", max_nodes=1,
                                                                         max_seconds=None)
