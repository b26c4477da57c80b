"""The start of an analysis (spider_solver/analysis/start.py): the effective history after the
undos, position keys that see through transpositions, and the history a line could go back to."""

from __future__ import annotations

import random

from spider_solver.analysis.start import board_after, effective_history, position_key, replay_log
from spider_solver.rules import Deal
from tests.analysis.helpers import effective_history as replayed_history
from tests.analysis.helpers import random_log

CODE = "SP1-S1C-AAAAABA"


def test_the_effective_history_is_the_actions_the_undos_leave():
    assert effective_history(["1>2", "U", "3>4", "D", "U", "5>6"]) == [(2, "3>4"), (5, "5>6")]
    assert effective_history(["U"] * 0) == []
    deal = Deal.from_code(CODE)
    rng = random.Random("effective history")
    for _ in range(20):
        log = random_log(deal, rng, 60, False, None)
        start = replay_log(deal, log, False, None)
        assert start.effective == replayed_history(deal, log, False, None)
        assert position_key(start.board) == position_key(board_after(deal, False, start.moves))


def test_a_transposed_order_reaches_the_same_key():
    deal = Deal.from_code(CODE)
    board = board_after(deal, False, [])
    moves = [board.notation(action) for action in board.legal_moves()]
    for a in moves:
        for b in moves:
            first = board_after(deal, False, [a])
            if a == b or not first.is_legal(first.parse_action(b)):
                continue
            other = board_after(deal, False, [b])
            if other.is_legal(other.parse_action(a)):
                assert position_key(board_after(deal, False, [a, b])) == position_key(board_after(deal, False,
                                                                                                     [b, a]))
                return
    raise AssertionError("no two commuting moves at the start of the deal")


def test_the_history_keeps_the_positions_of_the_same_phase_but_the_last():
    """A line from the position reached can come back only to positions with the same cards
    face down, deals made and runs removed; the position itself is left out."""
    deal = Deal.from_code(CODE)
    board = board_after(deal, False, [])
    first = board.notation(board.legal_moves()[0])
    start = replay_log(deal, [first, "U", first], False, None)
    history = start.history()
    assert position_key(start.board) not in history
    assert position_key(board_after(deal, False, [])) in history or start.board.down != board.down
    assert all(key[1] == position_key(start.board)[1] and key[2] == start.board.dealt for key in history)
    dealt = replay_log(deal, [first, "D"], False, None)
    assert all(key[2] == dealt.board.dealt for key in dealt.history())
