"""The engine's limits: a variant it cannot represent is refused where its tables are
made (``Game.from_deal``), with the limit and the value; one at the limit is searched.

The limit on deals comes from the beam's strata: one per number of deals made, as a
bit of an int64 mask. Past it the mask overflowed and the search expanded nothing:
a variant of 63 deals that deals its way to a win was reported unwinnable.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from spider_solver.engine.game import Game, check_engine_limits
from spider_solver.engine.types import MAX_CARDS, MAX_DEALS, MAX_STRATA
from spider_solver.errors import InvalidVariantError
from spider_solver.rules import Board, Card, Deal, DealRow, Variant
from spider_solver.verify import solve


def dealing_wins(deals: int, ranks: int) -> Deal:
    """One column of one card, then ``deals`` deals of one card that finish a run every
    ``ranks`` cards (with ``deal_on_empty``): the only line is to deal, and it wins."""
    runs = (deals + 1) // ranks
    variant = Variant(suits=1, ranks=ranks, runs=runs, columns=1, layout=1)
    assert variant.deals == deals
    cards = tuple(Card(rank, 0) for _ in range(runs) for rank in range(ranks, 0, -1))
    return Deal(cards, variant)


def test_the_strata_mask_sets_the_limit():
    assert MAX_DEALS == MAX_STRATA - 1 == 62


def test_more_deals_than_strata_are_refused():
    deal = dealing_wins(MAX_DEALS + 1, ranks=2)
    board = Board(deal, deal_on_empty=True)
    for _ in range(deal.variant.deals):
        board.push(DealRow())
    assert board.is_won()  # winnable: refusing it is the only honest answer
    message = f"the search engine handles at most {MAX_DEALS} deals: variant has {MAX_DEALS + 1}"
    with pytest.raises(InvalidVariantError, match=message):
        Game.from_deal(deal, deal_on_empty=True)
    with pytest.raises(InvalidVariantError, match=message):
        solve(deal, max_nodes=100_000, max_seconds=None, deal_on_empty=True)


def test_the_most_deals_the_engine_takes_are_searched():
    deal = dealing_wins(MAX_DEALS, ranks=3)
    result = solve(deal, max_nodes=100_000, max_seconds=None, deal_on_empty=True)
    assert (result.status, result.moves) == ("verified", MAX_DEALS)


def test_the_largest_deck_is_refused_past_the_packed_state():
    # Variant refuses more than 104 cards itself; the engine checks its own limit too.
    with pytest.raises(InvalidVariantError):
        Variant(suits=1, ranks=13, runs=9)
    too_big = SimpleNamespace(deals=5, cards=MAX_CARDS + 1, columns=10, ranks=13)
    with pytest.raises(InvalidVariantError,
                       match=f"the search engine handles at most {MAX_CARDS} cards: variant has {MAX_CARDS + 1}"):
        check_engine_limits(too_big)


def test_the_real_game_and_the_largest_variants_pass():
    check_engine_limits(Variant())
    check_engine_limits(Variant(suits=1, ranks=13, runs=8, columns=10, layout=14))  # 9 deals of 10
    check_engine_limits(dealing_wins(MAX_DEALS, ranks=3).variant)
