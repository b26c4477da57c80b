"""analyze() end to end (spider_solver/analysis/position.py): on tiny variants every answer
is checked against a brute force of the reference rules engine (the status of the position
reached and ``lost_at`` exactly, for random logs with undos under several undo limits); a log
is replayed once, a refused or won log needs no search, a budget gives "unknown" honestly."""

from __future__ import annotations

import random

import pytest

from spider_solver.analysis import (
    analyze,
)
from spider_solver.errors import InvalidBudgetError
from spider_solver.outcomes import Reason, Status
from spider_solver.rules import Board, Deal, Variant, replay
from spider_solver.rules.variant import CLASSIC, RELAXED
from tests.analysis.helpers import (
    BUDGET,
    FOUR_SUITS,
    ONE_SUIT,
    SIZES,
    TINY_BUDGET,
    assert_bracket,
    assert_line_wins,
    count_plays,
    effective_history,
    random_log,
    stuck_log,
)
from tests.engine.test_tiny import brute_force, tiny

pytestmark = pytest.mark.usefixtures("engine")


@pytest.mark.parametrize("name", sorted(SIZES))
def test_analyze_agrees_with_the_brute_force(name):
    size, logs = SIZES[name]
    rng = random.Random(f"analysis {name}")
    found_lost_at = 0
    for n in range(logs):
        deck = Variant(**size).unshuffled()
        rng.shuffle(deck)
        rule = RELAXED if size["suits"] > 1 and n % 2 else CLASSIC
        deal = tiny(" ".join(str(card) for card in deck), rule, **size)
        deal_on_empty = n % 3 == 2
        undo_limit = (None, 100, 2, 0)[n % 4]
        log = random_log(deal, rng, rng.randint(3, 14), deal_on_empty, undo_limit)
        options = {"deal_on_empty": deal_on_empty, "undo_limit": undo_limit}
        where = f"{deal.variant}, deck {deal.text()!r}, log {log}, {options}"
        analysis = analyze(deal, log, max_nodes=TINY_BUDGET, max_seconds=None, **options)

        effective = effective_history(deal, log, deal_on_empty, undo_limit)
        moves = [action for _, action in effective]
        winnable = [brute_force(deal, deal_on_empty, moves[:i])[0] for i in range(len(moves) + 1)]
        assert winnable == sorted(winnable, reverse=True), f"not monotone: {winnable} for {where}"
        assert analysis.effective == len(moves)
        if analysis.replay.won:
            assert (analysis.status, analysis.source, analysis.hint) == (Status.VERIFIED, "won", None), where
        elif winnable[-1]:
            assert_line_wins(deal, log, analysis, **options)
            assert analysis.source == "search" and analysis.lost_at is None, where
        else:
            assert analysis.status is Status.UNWINNABLE and analysis.reason is Reason.EXHAUSTED, where
            assert analysis.hint is None and analysis.line == ()
            expected = effective[winnable.count(True) - 1][0] if winnable[0] else None
            assert analysis.lost_at == expected, f"{analysis.probes} for {where}"
            if expected is not None:
                found_lost_at += 1
                b = winnable.count(True) - 1
                assert analysis.lost_at_action == log[expected]
                won = replay(deal, [*moves[:b], *analysis.lost_at_line], deal_on_empty=deal_on_empty, undo_limit=0)
                assert won.won and won.error is None
                assert analysis.lost_at_line[0] != moves[b]
            else:
                assert analysis.lost_at_line == () and analysis.lost_at_action is None
            assert_bracket(deal, analysis, effective, winnable, deal_on_empty)
    assert found_lost_at >= 1  # the sizes are chosen so that games are often lost


def test_a_log_that_ends_stuck_is_never_verified():
    for n in range(3):
        deal = Deal.from_code(f"SP1-S4C-AAAAAA{'ABC'[n]}")
        log = stuck_log(deal, n)
        analysis = analyze(deal, log, max_nodes=2_000_000, max_seconds=None, find_lost_at=False)
        assert analysis.status is not Status.VERIFIED and analysis.hint is None
        board = Board(deal, undo_limit=None)
        for token in log:
            board.push_notation(token)
        if not board.legal_moves():
            assert analysis.status is Status.UNWINNABLE and analysis.nodes == 0


def test_a_refused_action_is_reported_and_nothing_is_searched():
    analysis = analyze(FOUR_SUITS, "9>4 D 1>2")
    assert analysis.status is None and analysis.reason is None and analysis.nodes == 0
    error = analysis.replay.error
    assert (error.index, error.action) == (2, "1>2")
    assert analysis.replay.moves == 2 and analysis.effective == 2


def test_a_won_log_needs_no_search(lines):
    analysis = analyze(ONE_SUIT, lines[ONE_SUIT])
    assert analysis.replay.won and analysis.status is Status.VERIFIED and analysis.source == "won"
    assert analysis.hint is None and analysis.line == () and analysis.nodes == 0


def test_the_budget_gives_unknown_and_the_same_inputs_the_same_result(lines):
    log = list(lines[FOUR_SUITS][:10])
    analysis = analyze(FOUR_SUITS, log, max_nodes=1, max_seconds=None)
    assert analysis.status is Status.UNKNOWN and analysis.reason is Reason.NODES and analysis.nodes == 1
    assert analysis.tried == ("a beam of width 64 found no winning line (it was cut short by the node budget); "
                              "no proof was tried; 1 of 1 nodes spent")
    first = analyze(FOUR_SUITS, log, max_nodes=BUDGET, max_seconds=None)
    second = analyze(FOUR_SUITS, " ".join(log), max_nodes=BUDGET, max_seconds=None)
    assert (first.line, first.nodes) == (second.line, second.nodes)
    with pytest.raises(InvalidBudgetError):
        analyze(FOUR_SUITS, log, max_nodes=0)


def test_the_log_is_replayed_once(lines, monkeypatch):
    line = lines[FOUR_SUITS]
    # A long log: detours undone, then the first 30 actions of the line.
    log = [token for action in line[:30] for token in (action, "U", action)]
    played = count_plays(monkeypatch)
    on_line = analyze(FOUR_SUITS, log, known_line=line)
    assert on_line.source == "known-line" and on_line.hint == line[30]
    # The log once (90 actions), then the rest of the line once, from the position reached.
    assert played[0] == len(log) + len(line) - 30
    played[0] = 0
    searched = analyze(FOUR_SUITS, log, max_nodes=BUDGET, max_seconds=None)
    assert searched.source == "search" and searched.status is Status.VERIFIED
    assert played[0] == len(log) + len(searched.line)
    assert_line_wins(Deal.from_code(FOUR_SUITS), log, searched)


def test_the_known_line_is_looked_up_only_for_an_accepted_log_and_before_search_only_before_a_search(lines):
    line = lines[FOUR_SUITS]
    calls: list[str] = []

    def known():
        calls.append("known")
        return line

    def before():
        calls.append("before")

    assert analyze(FOUR_SUITS, "9>4 D 1>2", known_line=known, before_search=before).replay.error is not None
    assert analyze(ONE_SUIT, lines[ONE_SUIT], known_line=known, before_search=before).source == "won"
    assert calls == []
    assert analyze(FOUR_SUITS, line[:10], known_line=known, before_search=before).source == "known-line"
    assert calls == ["known"]
    calls.clear()
    off = analyze(FOUR_SUITS, line[:10], known_line=lambda: None, before_search=before, max_nodes=BUDGET,
                  max_seconds=None)
    assert off.source == "search" and calls == ["before"]


def test_the_time_before_the_search_is_not_in_the_budget(lines):
    import time

    # Two seconds of loading before a search whose budget is half of one: the search still
    # gets its half second (counted, the budget would be spent before the first node),
    # and the seconds reported leave the loading out.
    analysis = analyze(FOUR_SUITS, lines[FOUR_SUITS][:100], max_nodes=BUDGET, max_seconds=0.5,
                       before_search=lambda: time.sleep(2.0))
    assert analysis.nodes > 0 and analysis.seconds < 1.5


def test_nothing_is_loaded_for_a_search_the_replay_left_no_time_for():
    """A log that takes the whole budget to replay ends unknown without calling
    before_search (which would load the engine for nothing)."""
    calls: list[str] = []  # a nanosecond: spent by any replay
    analysis = analyze(FOUR_SUITS, "9>4", max_seconds=1e-9, before_search=lambda: calls.append("loaded"))
    assert (analysis.status, analysis.reason, analysis.nodes, calls) == (Status.UNKNOWN, Reason.SECONDS, 0, [])
