"""The engine searches from any position of a game, not only from the initial layout.

``Game.from_board`` packs a reference board's position (cards, face-down cards, deals
made, runs removed) with the deal's stock; ``run_search`` takes such a game, and its
line, played after the moves that reached the position, wins on the reference rules
engine. ``proof_nodes`` puts a capped exhaustive search into the schedule; without it
the schedule is the one ``solve`` has always used.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from spider_solver.budget import Budget
from spider_solver.engine.driver import SearchOptions, run_search
from spider_solver.engine.game import Game, same_position
from spider_solver.engine.keys import DEALT_KEYS, ZOBRIST
from spider_solver.engine.position import key_from_scratch, new_position, unpack
from spider_solver.outcomes import BeamOutcome, Reason, SearchMode
from spider_solver.rules import Board, Deal, Variant, replay
from spider_solver.verify import solve

CODE = "SP1-S1C-AAAAABA"
BUDGET = 3_000_000


def board_after(deal: Deal, actions, **options) -> Board:
    board = Board(deal, undo_limit=0, **options)
    for action in actions:
        board.push_notation(action)
    return board


def test_from_board_at_the_initial_layout_is_from_deal():
    deal = Deal.from_code(CODE)
    a, b = Game.from_deal(deal), Game.from_board(Board(deal))
    assert np.array_equal(a.start, b.start) and a.start_key == b.start_key
    assert np.array_equal(a.stock, b.stock) and np.array_equal(a.vp, b.vp)
    assert (b.start_cards, b.start_dealt, b.start_removed) == (104, 0, 0)


def test_from_board_packs_the_position_and_its_key():
    deal = Deal.from_code(CODE)
    line = solve(deal, max_nodes=BUDGET, max_seconds=None).solution
    for k in (1, 30, 60, len(line) - 1):
        board = board_after(deal, line[:k])
        game = Game.from_board(board)
        assert same_position(game.start, board.position())
        pos = new_position()
        unpack(game.start, pos)
        assert game.start_key == key_from_scratch(pos, ZOBRIST, DEALT_KEYS)
        assert game.start_dealt == board.dealt and game.start_removed == board.runs_removed
        assert game.start_cards == sum(len(c) for c in board.columns) + board.stock_left


def test_a_line_from_a_position_wins_after_the_moves_that_reached_it():
    deal = Deal.from_code(CODE)
    line = solve(deal, max_nodes=BUDGET, max_seconds=None).solution
    for k in (10, 50, len(line) - 3):
        found = run_search(Game.from_board(board_after(deal, line[:k])), budget=Budget(BUDGET))
        assert found.reason is Reason.WON and found.actions
        replayed = replay(deal, [*line[:k], *found.actions], undo_limit=0)
        assert replayed.won and replayed.error is None


def test_a_won_position_needs_no_search():
    deal = Deal.from_code(CODE)
    line = solve(deal, max_nodes=BUDGET, max_seconds=None).solution
    found = run_search(Game.from_board(board_after(deal, line)), budget=Budget(BUDGET))
    assert (found.actions, found.reason, found.nodes) == ((), Reason.WON, 0)


def test_deal_on_empty_comes_from_the_board_unless_given():
    deal = Deal.from_code(CODE)
    assert Game.from_board(Board(deal, deal_on_empty=True)).deal_on_empty is True
    assert Game.from_board(Board(deal, deal_on_empty=True), deal_on_empty=False).deal_on_empty is False


#: A tiny deal that cannot be won (tests/engine/test_tiny.py, UNWINNABLE).
UNWINNABLE = "2H 3S AS AS AH 2S AH 2S 2H 3H 3H 3S"
SMALL_2 = Variant(suits=2, ranks=3, runs=4, columns=3, layout=3)


def tiny() -> Deal:
    from spider_solver.rules import parse_cards

    return Deal(tuple(parse_cards(UNWINNABLE)), SMALL_2)


def test_an_early_proof_comes_first_when_asked():
    game = Game.from_deal(tiny())
    found = run_search(game, budget=Budget(BUDGET), options=SearchOptions(proof_nodes=BUDGET, proof_after=0))
    assert found.reason is Reason.EXHAUSTED
    assert [(a.mode, a.outcome) for a in found.attempts] == [("proof", "exhausted")]
    # After the first beam by default; the verdict is the same.
    later = run_search(game, budget=Budget(BUDGET), options=SearchOptions(proof_nodes=BUDGET))
    assert later.reason is Reason.EXHAUSTED and later.attempts[0].mode is SearchMode.SEARCH


def test_an_early_proof_out_of_its_nodes_hands_over_to_the_schedule():
    game = Game.from_deal(tiny())
    plain = run_search(game, budget=Budget(BUDGET))
    capped = run_search(game, budget=Budget(BUDGET), options=SearchOptions(proof_nodes=5, proof_after=0))
    assert capped.attempts[0].mode is SearchMode.PROOF and capped.attempts[0].outcome is BeamOutcome.NODES
    assert capped.attempts[0].nodes == 5
    assert capped.reason is plain.reason is Reason.EXHAUSTED
    # The rest is the plain schedule, node for node.
    assert [replace(a, seconds=0) for a in capped.attempts[1:]] == [replace(a, seconds=0) for a in plain.attempts]
    assert capped.nodes == plain.nodes + 5


def test_the_budget_covers_the_early_proof():
    game = Game.from_deal(tiny())
    found = run_search(game, budget=Budget(3), options=SearchOptions(proof_nodes=BUDGET, proof_after=0))
    assert found.reason is Reason.NODES and found.nodes == 3


def test_a_final_proof_settles_what_every_width_left_open():
    # Beams one position wide drop positions at once, so the schedule ends with "widths".
    game = Game.from_deal(tiny())
    plain = run_search(game, budget=Budget(BUDGET), options=SearchOptions(widths=(1,)))
    assert plain.reason is Reason.WIDTHS
    final = run_search(game, budget=Budget(BUDGET), options=SearchOptions(widths=(1,), final_proof=True))
    assert final.reason is Reason.EXHAUSTED
    assert [a.mode for a in final.attempts] == [SearchMode.SEARCH, SearchMode.PROOF]
    assert final.attempts[0] == replace(plain.attempts[0], seconds=final.attempts[0].seconds)
    # On a deal that can be won, the final search finds the line.
    deal = Deal.from_columns(["AS 3S", "3S 2S"], ["AS 2S"], Variant(suits=1, ranks=3, runs=2, columns=2, layout=4))
    won = run_search(Game.from_deal(deal), budget=Budget(BUDGET), options=SearchOptions(widths=(1,), final_proof=True))
    assert won.reason is Reason.WON and replay(deal, won.actions, undo_limit=0).won


def test_proof_limits_are_the_defaults_at_the_default_budget_and_grow_with_the_budget():
    from spider_solver.engine import beam
    from spider_solver.verify import DEFAULT_MAX_NODES

    assert beam.proof_limits(DEFAULT_MAX_NODES) == (beam.MAX_PROOF_LEVEL, beam.PROOF_TT_BITS)
    assert beam.proof_limits(1000) == beam.proof_limits(150_000_000) == (beam.MAX_PROOF_LEVEL, beam.PROOF_TT_BITS)
    levels = [beam.proof_limits(n)[0] for n in (300_000_000, 600_000_000, 10**12)]
    assert levels[0] < levels[1] < levels[2] == beam.MAX_PROOF_LEVEL_CAP
    assert beam.proof_limits(10**12)[1] == beam.MAX_TT_BITS


def test_a_larger_budget_lets_the_proof_hold_larger_levels(monkeypatch):
    # The tiny deal's exhaustive search peaks at 59 positions a level.
    from spider_solver.engine import beam

    monkeypatch.setattr(beam, "MAX_PROOF_LEVEL", 20)
    monkeypatch.setattr(beam, "PROOF_NODES_PER_POSITION", 1000)
    game = Game.from_deal(tiny())
    small = run_search(game, budget=Budget(3_000), options=SearchOptions(proof_nodes=3_000, proof_after=0))
    assert small.attempts[0].outcome is BeamOutcome.CUT and small.reason is Reason.PROOF_GAVE_UP
    large = run_search(game, budget=Budget(60_000), options=SearchOptions(proof_nodes=60_000, proof_after=0))
    assert large.reason is Reason.EXHAUSTED and large.attempts[0].peak_level > 20


def test_a_proof_line_through_a_position_to_avoid_gives_way_to_one_that_avoids_it():
    """The exhaustive search ignores ``avoid`` (its answer stays a proof). When its line
    passes through a position to avoid, a second exhaustive search that never keeps those
    positions looks for another: the line returned avoids the position whenever the brute
    force says a winning line that avoids it exists, and it always wins."""
    import random

    from spider_solver.engine.game import position_key
    from tests.engine.test_tiny import SIZES, brute_force, position_of, tiny

    size, _ = SIZES["4s-3r-4c"]
    rng = random.Random("avoiding proof")
    proof_first = SearchOptions(proof_nodes=BUDGET, proof_after=0, polish=False)
    searched_again = avoided = 0
    for _ in range(6):
        deck = Variant(**size).unshuffled()
        rng.shuffle(deck)
        deal = tiny(" ".join(str(card) for card in deck), **size)
        first = run_search(deal, budget=Budget(BUDGET), options=proof_first)
        if first.actions is None:
            continue
        assert first.attempts[0].mode is SearchMode.PROOF and first.attempts[0].outcome is BeamOutcome.WON
        for k in range(1, len(first.actions)):
            board = board_after(deal, first.actions[:k])
            at = position_of(board)
            found = run_search(deal, budget=Budget(BUDGET),
                               options=SearchOptions(proof_nodes=BUDGET, proof_after=0, polish=False,
                                                     avoid=(position_key(*at),)))
            assert found.reason is Reason.WON and replay(deal, found.actions, undo_limit=0).won
            through = any(position_of(board_after(deal, found.actions[:i])) == at
                          for i in range(1, len(found.actions)))
            searched_again += any(a.avoiding for a in found.attempts)
            if brute_force(deal, False, excluded={at})[0]:
                assert not through, (deal.text(), first.actions, k)
                avoided += 1
            else:
                assert through and found.actions == first.actions
    assert searched_again > 0 and avoided > 0
