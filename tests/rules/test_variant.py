"""Suit counts, their compositions, the two rules, and shrunken test variants (RULES.md §3 Variants)."""

from collections import Counter

import pytest

from spider_solver.errors import InvalidVariantError
from spider_solver.rules.cards import CLUBS, DIAMONDS, HEARTS, SPADES, Card
from spider_solver.rules.variant import CLASSIC, RELAXED, SUIT_COUNT_NAMES, Variant, parse_rule, parse_suits


def test_real_game_sizes():
    variant = Variant()
    assert (variant.suits, variant.rule) == (4, CLASSIC)
    assert variant.cards == 104
    assert variant.columns == 10
    assert variant.layout == 54
    assert variant.deals == 5
    assert variant.is_standard


@pytest.mark.parametrize(
    "suits, copies",
    [
        (1, {SPADES: 8}),
        (2, {SPADES: 4, HEARTS: 4}),
        (4, {SPADES: 2, HEARTS: 2, DIAMONDS: 2, CLUBS: 2}),
    ],
)
def test_composition_of_each_suit_count(suits, copies):
    """RULES.md §3.1 Suit counts. 1 suit: 8 x 13 spades; 2: 4 x spades + 4 x hearts; 4: 2 x each. Always 104 cards."""
    deck = Variant(suits=suits).unshuffled()
    assert len(deck) == 104
    expected = Counter({Card(rank, suit): n for suit, n in copies.items() for rank in range(1, 14)})
    assert Counter(deck) == expected


def test_unshuffled_order_repeats_suits_in_order_aces_up():
    deck = Variant(suits=4).unshuffled()
    assert deck[:13] == [Card(r, SPADES) for r in range(1, 14)]
    assert deck[13:26] == [Card(r, HEARTS) for r in range(1, 14)]
    assert deck[26:39] == [Card(r, DIAMONDS) for r in range(1, 14)]
    assert deck[39:52] == [Card(r, CLUBS) for r in range(1, 14)]
    assert deck[52:] == deck[:52]
    two = Variant(suits=2).unshuffled()
    assert two[:26] == [Card(r, s) for s in (SPADES, HEARTS) for r in range(1, 14)]
    assert two == two[:26] * 4


def test_app_names_of_suit_counts():
    assert SUIT_COUNT_NAMES == {1: "Easy", 2: "Medium", 4: "Hard"}


def test_one_suit_relaxed_is_classic():
    """With k = 1 the two rules play identically: one spelling is kept."""
    assert Variant(suits=1, rule=RELAXED).rule == CLASSIC
    assert Variant(suits=2, rule=RELAXED).rule == RELAXED


@pytest.mark.parametrize("text, rule", [("classic", CLASSIC), ("C", CLASSIC), (" Relaxed ", RELAXED), ("r", RELAXED)])
def test_parse_rule(text, rule):
    assert parse_rule(text) == rule


def test_parse_rule_refuses_others():
    with pytest.raises(InvalidVariantError, match=r"^unknown rule 'spider': expected classic \(C\) or relaxed \(R\)$"):
        parse_rule("spider")


@pytest.mark.parametrize("value, suits", [(1, 1), ("2", 2), (" 4 ", 4)])
def test_parse_suits(value, suits):
    assert parse_suits(value) == suits


@pytest.mark.parametrize("value", [3, "3", "four", None, 0, 8, 4.0, 4.5, True, "04", "+4"])
def test_parse_suits_refuses_others(value):
    with pytest.raises(InvalidVariantError, match=r"^unknown suit count .*: expected 1, 2 or 4$"):
        parse_suits(value)


def test_shrunken_variant():
    variant = Variant(suits=1, ranks=3, runs=2, columns=3, layout=3)
    assert variant.cards == 6
    assert variant.deals == 1
    assert not variant.is_standard
    assert variant.unshuffled() == [Card(r, SPADES) for r in (1, 2, 3)] * 2
    assert str(variant) == "1 suit, classic, 3 ranks, 2 runs, 3 columns, layout 3"
    assert str(Variant(suits=2, rule=RELAXED)) == "2 suits, relaxed"


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"suits": 3}, "unknown suit count 3"),
        ({"rule": "spider"}, "unknown rule 'spider'"),
        ({"ranks": 14}, "invalid ranks 14"),
        ({"ranks": 0}, "invalid ranks 0"),
        ({"ranks": 1, "suits": 1, "runs": 2, "columns": 2, "layout": 2}, "^invalid ranks 1: expected 2 to 13$"),
        ({"rule": "C"}, "unknown rule 'C': expected 'classic' or 'relaxed'"),  # full names only
        ({"runs": 6}, "invalid runs 6"),  # not a multiple of 4 suits
        ({"runs": 0}, "invalid runs 0: expected a positive multiple of the suit count"),
        ({"columns": 11}, "invalid columns 11"),
        ({"columns": 0}, "invalid columns 0: expected 1 to 10"),
        ({"runs": 16}, "invalid size: 16 runs of 13 ranks make 208 cards; the game has at most 104"),
        ({"suits": 1, "ranks": 12, "runs": 9, "layout": 58},  # 105 cards and more, not only 2 decks
         "^invalid size: 9 runs of 12 ranks make 108 cards; the game has at most 104$"),
        ({"layout": 5}, "invalid layout 5"),
        ({"layout": 55}, "do not make whole deals of 10"),
    ],
)
def test_bad_variants_are_refused(kwargs, words):
    with pytest.raises(InvalidVariantError, match=words):
        Variant(**kwargs)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        # Several faults at once: the first limit in the order of RULES.md §3.3 Shrunken
        # test variants is reported; each line mends that one and keeps the others.
        (dict(suits=3, rule="x", ranks=14, runs=9, columns=11, layout=5), "unknown suit count 3: expected 1, 2 or 4"),
        (dict(suits=4, rule="x", ranks=14, runs=9, columns=11, layout=5),
         "unknown rule 'x': expected 'classic' or 'relaxed'"),
        (dict(suits=4, rule="classic", ranks=14, runs=9, columns=11, layout=5), "invalid ranks 14: expected 2 to 13"),
        (dict(suits=4, ranks=13, runs=9, columns=11, layout=5),  # 9 runs also make 117 cards
         "invalid runs 9: expected a positive multiple of the suit count"),
        (dict(suits=4, ranks=13, runs=16, columns=11, layout=5), "invalid columns 11: expected 1 to 10"),
        (dict(suits=4, ranks=13, runs=16, columns=10, layout=5),
         "invalid size: 16 runs of 13 ranks make 208 cards; the game has at most 104"),
        (dict(suits=4, ranks=2, runs=4, columns=10, layout=8),  # no layout has a card a column
         "invalid size: 4 runs of 2 ranks make 8 cards, fewer than the 10 columns"),
        (dict(suits=4, ranks=13, runs=8, columns=10, layout=5), "invalid layout 5: expected 10 to 104 cards"),
        (dict(suits=4, ranks=13, runs=8, columns=10, layout=55),
         "invalid layout 55: the 49 stock cards do not make whole deals of 10"),
    ],
)
def test_several_faults_report_the_first_in_the_documented_order(kwargs, message):
    with pytest.raises(InvalidVariantError) as info:
        Variant(**kwargs)
    assert str(info.value) == message
