"""Cards and their text forms (RULES.md §2 Cards)."""

import pytest

from spider_solver.errors import InvalidCardError
from spider_solver.rules.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    RANKS,
    SPADES,
    SUITS,
    Card,
    format_cards,
    parse_cards,
)


def test_suit_order_is_spades_hearts_diamonds_clubs():
    assert (SPADES, HEARTS, DIAMONDS, CLUBS) == SUITS == (0, 1, 2, 3)


def test_ranks_go_from_ace_low_to_king_high():
    assert tuple(range(1, 14)) == RANKS
    assert Card.parse("AS").rank == 1
    assert Card.parse("KS").rank == 13
    assert Card.parse("AS") < Card.parse("2S") < Card.parse("KS")
    assert Card.parse("AS") < Card.parse("AH") < Card.parse("AD") < Card.parse("AC") < Card.parse("2S")  # then suit


@pytest.mark.parametrize(
    "text, rank, suit",
    [("TS", 10, SPADES), ("AD", 1, DIAMONDS), ("KH", 13, HEARTS), ("3C", 3, CLUBS),
     ("JS", 11, SPADES), ("QD", 12, DIAMONDS), ("9H", 9, HEARTS)],
)
def test_short_text_form(text, rank, suit):
    card = Card.parse(text)
    assert card == Card(rank, suit)
    assert str(card) == text


@pytest.mark.parametrize("text", ["10S", "10s", "ts", " TS ", "10♠", "T♠"])
def test_ten_and_lower_case_and_symbols_accepted_on_input(text):
    assert Card.parse(text) == Card(10, SPADES)


def test_display_form_uses_10_and_suit_symbols():
    assert [Card.parse(t).symbol() for t in ("TS", "AD", "KH", "3C")] == ["10♠", "A♦", "K♥", "3♣"]


def test_every_card_round_trips_through_both_forms():
    for suit in SUITS:
        for rank in RANKS:
            card = Card(rank, suit)
            assert Card.parse(str(card)) == card
            assert Card.parse(card.symbol()) == card
            assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "expected a rank"),
        ("S", "expected a rank"),
        ("1S", "the rank must be one of"),
        ("11S", "the rank must be one of"),
        ("0S", "the rank must be one of"),
        ("KX", "the suit must be one of S H D C"),
        ("K", "expected a rank"),
        ("Aſ", "the suit must be one of"),  # 'ſ'.upper() == 'S': no look-alikes
        ("1X", "the suit must be one of"),  # the suit is checked before the rank
        ("T S", "the rank must be one of"),  # no space inside a card
        ("ıS", "the rank must be one of"),
    ],
)
def test_bad_cards_are_refused_with_the_part_that_is_wrong(text, words):
    with pytest.raises(InvalidCardError) as info:
        Card.parse(text)
    message = str(info.value)
    assert message.startswith(f"invalid card {text!r}: ")
    assert words in message
    assert message[0].islower()


def test_invalid_card_error_is_a_value_error():
    assert issubclass(InvalidCardError, ValueError)
    with pytest.raises(ValueError) as info:
        Card.parse("ZZ")
    # The refusal itself, not some other ValueError raised on the way.
    assert type(info.value) is InvalidCardError
    assert str(info.value) == "invalid card 'ZZ': the suit must be one of S H D C"


def test_parse_and_format_card_lists():
    cards = parse_cards("8S QC, 4h  10D\n")
    assert cards == [Card(8, SPADES), Card(12, CLUBS), Card(4, HEARTS), Card(10, DIAMONDS)]
    assert format_cards(cards) == "8S QC 4H TD"
    assert format_cards(cards, symbols=True) == "8♠ Q♣ 4♥ 10♦"
    assert parse_cards("") == []
    assert parse_cards("\u00a0TS\u2003AH\t") == [Card(10, SPADES), Card(1, HEARTS)]  # any Unicode white space
