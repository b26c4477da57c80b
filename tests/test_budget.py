"""``spider_solver.budget``: nodes first, seconds second, and sub-budgets that spend from their parent."""

from __future__ import annotations

import time

from spider_solver.budget import Budget
from spider_solver.outcomes import Reason


class Bar:
    """A progress bar's counters, as tqdm keeps them."""

    def __init__(self, total: int) -> None:
        self.n, self.total = 0, total

    def update(self, n: float = 1) -> None:
        self.n += n


def test_nodes_are_spent_first_then_the_seconds_count():
    budget = Budget(100, None)
    assert (budget.left(), budget.exceeded(), budget.seconds_left()) == (100, None, None)
    budget.spend(60)
    assert (budget.nodes, budget.left(), budget.exceeded()) == (60, 40, None)
    budget.spend(50)
    assert (budget.left(), budget.exceeded()) == (0, Reason.NODES)
    late = Budget(100, 10.0, since=time.perf_counter() - 11.0)
    assert late.exceeded() is Reason.SECONDS and late.seconds_left() < 0
    late.extend(5.0)
    assert late.exceeded() is None


def test_a_sub_budget_takes_at_most_its_nodes_of_what_is_left_and_spends_from_its_parent():
    bar = Bar(1000)
    budget = Budget(1000, 30.0, progress=bar)
    budget.spend(900)
    part = budget.sub(500)
    assert (part.max_nodes, part.nodes, part.deadline) == (100, 0, budget.deadline)
    inner = part.sub(30)
    inner.spend(30)
    assert inner.exceeded() is Reason.NODES and part.exceeded() is None
    assert (inner.nodes, part.nodes, budget.nodes, bar.n) == (30, 30, 930, 930)
    assert budget.sub().max_nodes == 70


def test_a_share_is_of_the_whole_budget_never_more_than_is_left_and_never_empty():
    budget = Budget(1000, None)
    assert budget.sub(share=4).max_nodes == 250
    budget.spend(900)
    assert budget.sub(share=4).max_nodes == 100
    assert Budget(3, None).sub(share=4).max_nodes == 1


def test_a_bar_never_runs_past_its_total():
    bar = Bar(100)
    budget = Budget(100, None).sub(progress=bar)
    budget.spend(80)
    budget.spend(80)
    assert (bar.n, budget.nodes) == (100, 160)
