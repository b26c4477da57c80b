"""Positions proved lost, reused by later proofs (``Exhaustive(lost=..., record=True)``,
``driver.LostPositions``): on tiny variants, a proof that skips the positions an earlier
proof kept decides as the full proof and the brute force do, wins at the same level, and
together with the earlier proof keeps the same positions as the full proof, on fewer nodes."""

from __future__ import annotations

import random

import numpy as np
import pytest

from spider_solver.budget import Budget
from spider_solver.engine.beam import Exhaustive, beam
from spider_solver.engine.driver import LostPositions, SearchOptions, run_search
from spider_solver.engine.game import Game
from spider_solver.outcomes import BeamOutcome, Reason
from spider_solver.rules import Variant
from spider_solver.rules.variant import CLASSIC, RELAXED
from tests.engine.test_tiny import BUDGET, SIZES, board_after, brute_force, random_play, tiny

pytestmark = pytest.mark.usefixtures("engine")


def logs_of(name: str, seed: str):
    """(deal, deal_on_empty, log) of random play on shuffled decks of the size ``name``."""
    size, decks = SIZES[name]
    rng = random.Random(seed)
    for n in range(decks):
        deck = Variant(**size).unshuffled()
        rng.shuffle(deck)
        deal = tiny(" ".join(str(card) for card in deck), CLASSIC if n % 2 or size["suits"] == 1 else RELAXED, **size)
        deal_on_empty = n % 3 == 0
        for _ in range(4):
            played = list(random_play(board_after(deal, deal_on_empty, []), rng, rng.randrange(4, 30)))
            if played:
                yield deal, deal_on_empty, played[-1]


@pytest.mark.parametrize("name", ["1s-4r-3c", "2s-4r-3c-deep", "4s-3r-3c-deep", "4s-3r-4c"])
def test_a_proof_that_skips_positions_proved_lost_decides_as_the_full_proof(name):
    checked = reused = 0
    nodes = {"full": 0, "reused": 0}
    rng = random.Random(f"lost positions {name}")
    for deal, deal_on_empty, played in logs_of(name, f"lost positions {name}"):
        # A later position a few actions on, whose proof the earlier one reaches again.
        cut = rng.randrange(len(played))
        log, earlier = played[: cut + rng.randint(1, 3)], played[:cut]
        later = Game.from_board(board_after(deal, deal_on_empty, log), deal_on_empty=deal_on_empty)
        first = beam(later, Exhaustive(record=True), Budget(BUDGET))
        if first.outcome is not BeamOutcome.EXHAUSTED:
            assert first.proved is None
            continue
        assert first.proved is not None and int(later.start_key) in first.proved
        assert np.all(first.proved[1:] > first.proved[:-1]) and first.proved.size == first.tt_stored
        board = board_after(deal, deal_on_empty, earlier)
        game = Game.from_board(board, deal_on_empty=deal_on_empty)
        won = brute_force(deal, deal_on_empty, earlier)[0]
        full = beam(game, Exhaustive(record=True), Budget(BUDGET))
        again = beam(game, Exhaustive(lost=first.proved, record=True), Budget(BUDGET))
        where = (deal.text(), deal_on_empty, earlier, log)
        for attempt in (full, again):
            assert attempt.outcome is (BeamOutcome.WON if won else BeamOutcome.EXHAUSTED), where
        assert again.nodes <= full.nodes, where
        if won:
            assert len(again.moves) == len(full.moves), where  # the same level: the shortest win
            after = board.copy()
            for action in game.actions(again.moves):
                after.push(action)
            assert after.is_won(), where
        else:
            # The earlier proof kept what the full proof keeps and the later one did not.
            assert full.proved is not None and again.proved is not None
            assert set(again.proved.tolist()) | set(first.proved.tolist()) == set(full.proved.tolist()), where
            assert again.levels <= full.levels
        nodes["full"] += full.nodes
        nodes["reused"] += again.nodes
        reused += again.nodes < full.nodes
        checked += 1
    assert checked >= 8 and reused >= 1, (checked, reused)
    assert nodes["reused"] < nodes["full"], nodes


def test_the_searches_that_share_lost_positions_add_their_proofs_and_answer_the_same():
    size, _ = SIZES["4s-3r-3c-deep"]
    rng = random.Random("shared lost positions")
    checked = 0
    for deal, deal_on_empty, log in logs_of("4s-3r-3c-deep", "shared lost positions"):
        lost = LostPositions()
        options = SearchOptions(final_proof=True, lost=lost)
        late = run_search(Game.from_board(board_after(deal, deal_on_empty, log), deal_on_empty=deal_on_empty),
                          budget=Budget(BUDGET), options=options)
        if late.reason is not Reason.EXHAUSTED:
            assert len(lost) == 0  # only a proof adds
            continue
        proved = len(lost)
        assert proved >= 1
        earlier = log[: rng.randrange(len(log))]
        game = Game.from_board(board_after(deal, deal_on_empty, earlier), deal_on_empty=deal_on_empty)
        alone = run_search(game, budget=Budget(BUDGET), options=SearchOptions(final_proof=True))
        shared = run_search(game, budget=Budget(BUDGET), options=options)
        assert shared.reason is alone.reason and (shared.actions is None) == (alone.actions is None)
        assert shared.nodes <= alone.nodes
        if shared.reason is Reason.EXHAUSTED:
            assert len(lost) >= proved and int(game.start_key) in lost
        else:
            assert len(lost) == proved
        checked += 1
    assert checked >= 4


def test_lost_positions_hold_keys_once_sorted_up_to_their_limit():
    lost = LostPositions(limit=4)
    assert len(lost) == 0 and 5 not in lost
    lost.add(np.array([9, 5, 5], dtype=np.uint64))
    assert lost.keys.tolist() == [5, 9] and 5 in lost and np.uint64(9) in lost and 7 not in lost
    lost.add(np.array([7, 2**64 - 1], dtype=np.uint64))
    assert lost.keys.tolist() == [5, 7, 9, 2**64 - 1] and 2**64 - 1 in lost
    lost.add(np.array([1], dtype=np.uint64))  # past the limit: kept as it was (a part is as sound)
    assert len(lost) == 4 and 1 not in lost
    assert "5" not in lost and -1 not in lost


def test_a_table_that_starts_with_positions_known_lost_leaves_the_proof_the_room_it_has_alone():
    from spider_solver.engine.beam import LOST_SLOTS, MAX_TT_BITS, lost_table_bits, proof_limits
    from spider_solver.engine.driver import LOST_KEYS_LIMIT

    for max_nodes in (1_000, 15_000_000, 60_000_000, 300_000_000, 5_000_000_000):
        _, alone = proof_limits(max_nodes)
        assert lost_table_bits(alone, 0) == alone
        for lost in {1, 1_000, 3_000_000, LOST_KEYS_LIMIT, *(n for n in ((1 << alone) // 2, 1 << alone) if n <= LOST_KEYS_LIMIT)}:
            bits = lost_table_bits(alone, lost)
            # at most half of it taken (LostPositions holds no more than LOST_KEYS_LIMIT)
            assert alone <= bits <= MAX_TT_BITS and LOST_SLOTS * lost <= 1 << bits
            if bits < MAX_TT_BITS:  # below the cap: as many slots free as with nothing known lost
                assert (1 << bits) - lost >= (1 << alone) + lost
