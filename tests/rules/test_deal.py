"""Deals: the layout, the stock order, explicit deals (RULES.md §4 Layout and stock, RULES.md §10 Explicit deals)."""

import pytest

from spider_solver.errors import InvalidDealError, InvalidVariantError
from spider_solver.rules.board import Board
from spider_solver.rules.cards import Card, format_cards, parse_cards
from spider_solver.rules.codes import GameCode
from spider_solver.rules.deal import Deal
from spider_solver.rules.variant import RELAXED, Variant

CODE = "SP1-S4C-AAAAAAD"


def test_layout_sizes_6_6_6_6_5_5_5_5_5_5():
    deal = Deal.from_code(CODE)
    assert [len(column) for column in deal.columns()] == [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]
    assert len(deal.stock()) == 50


def test_card_t_goes_on_column_t_mod_10_plus_1_in_rows():
    deal = Deal.from_code(CODE)
    columns = deal.columns()
    for t in range(54):
        assert columns[t % 10][t // 10] == deal.cards[t]
    # The first ten cards are the deepest of each column, card 53 the last of column 4.
    assert [column[0] for column in columns] == list(deal.cards[:10])
    assert columns[3][-1] == deal.cards[53]
    assert columns[4][-1] == deal.cards[44]


def test_only_the_last_card_of_each_column_is_face_up():
    board = Board(Deal.from_code(CODE))
    assert board.down == [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]
    assert sum(board.down) == 44
    for c in range(1, 11):
        assert board.face_up(c) == [board.columns[c - 1][-1]]


def test_the_stock_is_the_other_50_cards_in_deck_order():
    deal = Deal.from_code(CODE)
    assert deal.stock() == list(deal.cards[54:])
    board = Board(deal)
    for d in range(5):
        board.push_notation("D")
        # Deal d puts card 54 + 10*d + c on column c + 1.
        assert [column[-1] for column in board.columns] == [deal.cards[54 + 10 * d + c] for c in range(10)]
    assert board.stock_left == 0


def test_deal_from_code_keeps_code_and_variant():
    deal = Deal.from_code("sp1-s2r-aaaaaba")
    assert deal.code == GameCode.parse("SP1-S2R-AAAAABA")
    assert deal.variant == Variant(suits=2, rule=RELAXED)
    assert deal.name == "SP1-S2R-AAAAABA"
    assert Deal.from_code(GameCode.parse("SP1-S2R-AAAAABA")) == deal


# -- explicit deals ---------------------------------------------------------------


def test_explicit_deal_round_trips_through_its_text():
    deal = Deal.from_code(CODE)
    again = Deal.from_text(deal.text(), 4, "classic")
    assert again.cards == deal.cards
    assert again.code is None
    assert again.name == "explicit deal"
    # Commas, new lines, 10 and lower case are accepted too.
    messy = ",\n".join(str(card).lower().replace("t", "10") for card in deal.cards)
    assert Deal.from_text(messy, "4", "C").cards == deal.cards


def test_explicit_deal_in_display_form():
    deal = Deal.from_code(CODE)
    assert Deal.from_text(format_cards(deal.cards, symbols=True), 4).cards == deal.cards


def test_explicit_deal_of_one_suit():
    text = " ".join(["AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"] * 8)
    deal = Deal.from_text(text, 1)
    assert deal.variant == Variant(suits=1)
    assert deal.columns()[0] == parse_cards("AS JS 8S 5S 2S QS")


def test_explicit_deal_missing_and_extra_card_named():
    cards = Deal.from_code(CODE).text().split()
    i = cards.index("TS")
    cards[i] = "KH"  # one ten of spades too few, one king of hearts too many
    with pytest.raises(InvalidDealError) as info:
        Deal.from_text(" ".join(cards), 4)
    assert str(info.value) == "invalid deal for 4 suits, classic: missing TS; extra KH"


def test_explicit_deal_with_a_card_too_few():
    cards = Deal.from_code(CODE).text().split()
    cards.remove("AH")
    with pytest.raises(InvalidDealError) as info:
        Deal.from_text(" ".join(cards), 4)
    assert str(info.value) == "invalid deal for 4 suits, classic (103 cards, expected 104): missing AH"


def test_explicit_deal_with_a_card_too_many():
    text = Deal.from_code(CODE).text() + " QD QD"
    with pytest.raises(InvalidDealError) as info:
        Deal.from_text(text, 4)
    assert str(info.value) == "invalid deal for 4 suits, classic (106 cards, expected 104): extra QD (x2)"


def test_explicit_deal_of_the_wrong_suit_count():
    """A 4-suit deck is not a 2-suit deal: the diamonds and clubs are extra."""
    with pytest.raises(InvalidDealError) as info:
        Deal.from_text(Deal.from_code(CODE).text(), 2)
    message = str(info.value)
    assert message.startswith("invalid deal for 2 suits, classic: missing AS (x2), 2S (x2), ")
    assert "extra AD (x2), 2D (x2), " in message
    assert message.endswith("QD (x2) and 28 more")  # a long list names 12 cards, then counts


def test_explicit_deal_with_a_bad_card():
    text = Deal.from_code(CODE).text().replace("8S", "8X", 1)
    with pytest.raises(InvalidDealError, match=r"^invalid deal: invalid card '8X': the suit must be one of S H D C$"):
        Deal.from_text(text, 4)


def test_explicit_deal_with_a_bad_suit_count_or_rule():
    text = Deal.from_code(CODE).text()
    with pytest.raises(InvalidVariantError, match="unknown suit count '3'"):
        Deal.from_text(text, "3")
    with pytest.raises(InvalidVariantError, match="unknown rule 'x'"):
        Deal.from_text(text, 4, "x")


def test_empty_explicit_deal():
    with pytest.raises(InvalidDealError, match=r"\(0 cards, expected 104\): missing AS \(x2\)"):
        Deal.from_text("", 4)


# -- hand-made deals from columns -------------------------------------------------

TINY = Variant(suits=1, ranks=3, runs=2, columns=2, layout=4)  # 6 cards: 2 columns of 2, one deal of 2


def test_from_columns_is_the_inverse_of_columns_and_stock():
    deal = Deal.from_code(CODE)
    rows = [deal.stock()[10 * d : 10 * d + 10] for d in range(5)]
    assert Deal.from_columns(deal.columns(), rows, deal.variant).cards == deal.cards


def test_from_columns_on_a_tiny_variant():
    deal = Deal.from_columns(["3S 2S", "AS 3S"], ["2S AS"], TINY)
    assert deal.cards == tuple(parse_cards("3S AS 2S 3S 2S AS"))
    assert deal.columns() == [parse_cards("3S 2S"), parse_cards("AS 3S")]
    assert deal.stock() == parse_cards("2S AS")
    assert Deal.from_columns([[Card(3, 0), Card(2, 0)], "AS 3S"], [parse_cards("2S AS")], TINY) == deal


def test_from_columns_checks_the_shape_and_the_composition():
    with pytest.raises(InvalidDealError, match=r"^invalid layout: columns of \[3, 1\] cards, expected \[2, 2\] for 1 suit"):
        Deal.from_columns(["3S 2S AS", "3S"], ["2S AS"], TINY)
    with pytest.raises(InvalidDealError, match=r"^invalid stock: rows of \[1, 1\] cards, expected 1 row \(one per deal\) of 2"):
        Deal.from_columns(["3S 2S", "AS 3S"], ["2S", "AS"], TINY)
    with pytest.raises(InvalidDealError) as info:
        Deal.from_columns(["3S 2S", "AS 3S"], ["2S", "AS"], TINY)
    assert str(info.value) == ("invalid stock: rows of [1, 1] cards, expected 1 row (one per deal) of 2 cards "
                               "for 1 suit, classic, 3 ranks, 2 runs, 2 columns, layout 4")
    with pytest.raises(InvalidDealError, match=r"^invalid deal for 1 suit, .*: missing AS; extra 3S$"):
        Deal.from_columns(["3S 2S", "3S 3S"], ["2S AS"], TINY)


def test_a_deal_of_things_that_are_not_cards():
    cards = list(Deal.from_code(CODE).cards)
    cards[0] = Card(0, 0)  # would print as KS
    with pytest.raises(InvalidDealError, match=r"^invalid deal: \(0, 0\) is not a card \(rank 1-13, suit 0-3\)$"):
        Deal(tuple(cards), Variant())
    cards[0] = Card(1, 4)
    with pytest.raises(InvalidDealError, match=r"\(1, 4\) is not a card"):
        Deal(tuple(cards), Variant())
    cards[0] = Card(14, 0)  # one rank too high
    with pytest.raises(InvalidDealError, match=r"^invalid deal: \(14, 0\) is not a card"):
        Deal(tuple(cards), Variant())


def test_the_deal_of_a_code_is_made_once_and_a_subclass_gets_its_own():
    # Deals are immutable: the deal of a code is remembered, whatever spelling of the code.
    assert Deal.of("SP1-S4C-AAAAAAD") is Deal.of("sp1-s4c-aaaaaad ") is Deal.from_code(GameCode(4, "classic", 3))

    class Mine(Deal):
        pass

    mine = Mine.from_code("SP1-S4C-AAAAAAD")
    assert type(mine) is Mine and mine.cards == Deal.of("SP1-S4C-AAAAAAD").cards
