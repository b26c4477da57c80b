"""How an analysis searches a position (spider_solver/analysis/search.py): a won position needs
no engine, a spent budget loads none, a line is verified only when the rules engine replays it
to a win, and the early proof's share depends on the deals left."""

from __future__ import annotations

import time

import pytest

from spider_solver.analysis import AnalysisOptions
from spider_solver.analysis.search import Found, Session
from spider_solver.outcomes import Reason, Status
from spider_solver.rules import Deal
from spider_solver.verify import solve

CODE = "SP1-S1C-AAAAABA"


def session(**options) -> Session:
    return Session(Deal.from_code(CODE), AnalysisOptions(**options), time.perf_counter())


def test_a_line_is_verified_only_if_it_wins_from_the_position():
    line = solve(CODE, max_nodes=5_000_000, max_seconds=None).solution
    s = session()
    board = s.board_after(line[:10])
    assert s.check_line(line[:10], line[10:], 0, "known-line", after=board) == Found(
        Status.VERIFIED, Reason.WON, tuple(line[10:]), "known-line")
    assert s.check_line(line[:10], line[10:], 0, "known-line") == Found(
        Status.VERIFIED, Reason.WON, tuple(line[10:]), "known-line")  # the prefix replayed again
    assert s.check_line(line[:10], line[10:-1], 0, "known-line", after=board) == Found(
        Status.UNKNOWN, Reason.REJECTED, (), None)


def test_a_won_position_and_a_spent_budget_call_no_engine():
    line = solve(CODE, max_nodes=5_000_000, max_seconds=None).solution
    loaded: list[bool] = []
    s = session(before_search=lambda: loaded.append(True))
    assert s.search(s.board_after(line), line, 0) == Found(Status.VERIFIED, Reason.WON, (), "won")
    spent = session(max_seconds=1e-9, before_search=lambda: loaded.append(True))
    assert spent.search(spent.board_after(line[:3]), line[:3], 0).reason is Reason.SECONDS
    assert loaded == [] and spent.attempts == ()


@pytest.mark.usefixtures("engine")
def test_a_search_keeps_the_engines_attempts_and_spends_the_shared_budget():
    s = session(max_nodes=5_000_000, max_seconds=None)
    found = s.search(s.board_after([]), [], 0)
    assert found.status is Status.VERIFIED and found.source == "search" and found.line
    assert s.attempts and s.nodes == sum(a.nodes for a in s.attempts) > 0


@pytest.mark.usefixtures("engine")
def test_a_position_proved_lost_and_every_position_it_reaches_are_answered_without_a_search():
    from tests.analysis.helpers import stuck_log

    deal = Deal.from_code("SP1-S4C-AAAAAAD")
    log = stuck_log(deal, 1)
    s = Session(deal, AnalysisOptions(max_nodes=20_000_000, max_seconds=None), time.perf_counter())
    stuck = s.search(s.board_after(log[:-3]), log[:-3], 0)
    assert stuck.status is Status.UNWINNABLE and s.lost is not None and len(s.lost) > 0
    proved, spent = len(s.lost), s.nodes
    for at in range(len(log) - 3, len(log) + 1):  # itself and the positions after it: reachable from it
        assert s.search(s.board_after(log[:at]), log[:at], 0) == Found(Status.UNWINNABLE, Reason.EXHAUSTED, (), None)
    assert (s.nodes, len(s.lost), s.attempts) == (spent, proved, ())
