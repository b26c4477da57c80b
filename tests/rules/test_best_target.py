"""Auto-place: every rule of RULES.md §13.6 Best column (auto-place), on hand-set positions.

``best_target`` and ``best_move`` read only the cards of the columns and how many of
them are face down, so each test sets those on a board (``board.columns`` and
``board.down`` are the position's plain lists, RULES.md §1 Conventions) and shows the
whole position it is about: columns deepest card first, face-down cards in brackets.
The last test checks the rules over random play from real and shrunken deals.
"""

import pytest
from hypothesis import given, settings

from spider_solver.rules.board import Board
from spider_solver.rules.cards import Card, parse_cards
from spider_solver.rules.codes import shuffle_deck
from spider_solver.rules.deal import Deal
from spider_solver.rules.notation import Move
from spider_solver.rules.variant import CLASSIC, RELAXED, Variant
from tests.rules.test_properties import LINES, deals, random_line


def board_with(*piles, rule=CLASSIC, suits=4):
    """A board whose columns are ``piles`` ("[KS] 9S 8S": K♠ face down, then 9♠ 8♠; "" is empty)."""
    variant = Variant(suits=suits, rule=rule, runs=4, columns=len(piles), layout=52)
    board = Board(Deal(tuple(shuffle_deck(0, variant)), variant))
    board.columns = [[Card.parse(token.strip("[]")) for token in pile.split()] for pile in piles]
    board.down = [sum(token.startswith("[") for token in pile.split()) for pile in piles]
    return board


# -- the order -------------------------------------------------------------------------


def test_a_card_of_the_same_suit_comes_first():
    board = board_with("8H", "9S", "9H")
    assert board.targets(1, 1) == [2, 3]
    assert board.best_target(1) == board.best_target(1, 1) == 3  # 8♥ onto 9♥, not 9♠ in a lower column
    assert board.best_move(1) == Move(1, 3, 1)


def test_then_a_card_of_another_suit():
    board = board_with("8H", "9S", "TD")
    assert board.best_target(1) == 2


def test_a_card_before_an_empty_column():
    board = board_with("[KS] 8H", "", "9S")
    assert board.targets(1, 1) == [2, 3]
    assert board.best_target(1) == 3


def test_an_empty_column_when_no_card_fits():
    board = board_with("[KS] 8H", "5S", "", "AD")
    assert board.best_target(1) == 3


def test_ties_go_to_the_lowest_numbered_column_whatever_the_source():
    assert board_with("8H", "9H", "9H").best_target(1) == 2  # step 1
    assert board_with("9S", "9C", "8H").best_target(3) == 1  # step 2: column 1, not the nearest to the right
    assert board_with("", "[KS] 8H", "").best_target(2) == 1  # step 3
    assert board_with("9S", "9H", "9C", "8H", "9H").best_target(4) == 2  # same suit: column 2 before 5


def test_nothing_goes_onto_an_ace_nor_onto_a_card_that_is_not_one_rank_higher():
    board = board_with("[KS] 2H", "AH", "3C", "4H")
    assert board.best_target(2) == 1  # A♥ onto 2♥
    assert board.best_target(1) == 3  # 2♥ onto 3♣: not onto the ace, not onto 4♥
    assert board_with("[KS] 2H", "AH", "4H").best_target(1) is None


# -- which groups move: Classic and Relaxed ---------------------------------------------


def test_classic_moves_one_suit_groups_only():
    board = board_with("[KS] 9S 8H", "TH", "9C", rule=CLASSIC)
    assert board.movable(1) == 1
    assert board.best_target(1, 2) is None  # 9♠ 8♥ is no group under Classic
    assert board.best_move(1) == Move(1, 3, 1)  # so a double-click moves 8♥ alone


def test_relaxed_moves_mixed_groups_and_the_first_card_sets_the_suit():
    board = board_with("[KS] 9S 8H", "TH", "TS", "9H", rule=RELAXED)
    assert board.movable(1) == 2
    assert board.targets(1, 2) == [2, 3]
    assert board.best_target(1, 2) == 3  # 9♠ 8♥ onto 10♠: the group's first card is a spade
    assert board.best_move(1) == Move(1, 3, 2)  # the larger group first, though 8♥ has 9♥ of its suit
    assert board.best_target(1, 1) == 4


def test_one_suit_groups_under_relaxed_as_under_classic():
    for rule in (CLASSIC, RELAXED):
        board = board_with("[KS] 9S 8S 7S", "TH", "TS", rule=rule)
        assert board.best_move(1) == Move(1, 3, 3)


# -- a double-click on a column (no count) ----------------------------------------------


def test_a_double_click_moves_the_largest_group_that_fits_onto_a_card():
    board = board_with("[KS] 9S 8S 7S", "TH", "8S")
    assert board.best_move(1) == Move(1, 2, 3)  # onto 10♥ whole, not 7♠ alone onto 8♠ of its suit
    board = board_with("[KS] 9S 8S 7S", "8H", "9D")
    assert board.best_move(1) == Move(1, 3, 2)  # no 10: 8♠ 7♠ onto 9♦


def test_a_double_click_uses_an_empty_column_last_and_only_for_the_largest_group():
    board = board_with("[KS] 9S 8S 7S", "8H", "")
    assert board.best_move(1) == Move(1, 2, 1)  # 7♠ onto 8♥ before the empty column
    assert board.best_move(1, 3) == Move(1, 3, 3)  # a named group goes to the empty column
    board = board_with("[KS] 9S 8S 7S", "5H", "")
    assert board.best_move(1) == Move(1, 3, 3)  # nothing fits onto a card: the largest group


def test_a_double_click_on_an_empty_column_moves_nothing():
    board = board_with("", "9S")
    assert board.movable(1) == 0
    assert board.best_target(1) is None and board.best_move(1) is None


# -- a whole column ---------------------------------------------------------------------


def test_a_whole_column_is_never_sent_to_an_empty_column():
    board = board_with("9H 8H", "", "5S")
    assert board.targets(1, 2) == [2]  # legal (RULES.md §5.2 Where a group may go) ...
    assert board.best_target(1, 2) is None  # ... but it changes nothing
    assert board.best_target(1) is None  # and a double-click does not split the group to use the empty column
    assert board.best_target(1, 1) == 2  # 8♥ alone, named, may go there
    assert board_with("8H", "").best_target(1) is None


def test_a_whole_column_still_goes_onto_a_card():
    board = board_with("9H 8H", "", "TS")
    assert board.best_move(1) == Move(1, 3, 2)


def test_a_column_with_face_down_cards_is_not_whole():
    assert board_with("[KS] 9H 8H", "").best_move(1) == Move(1, 2, 2)


# -- nowhere, and bad input --------------------------------------------------------------


def test_a_group_that_fits_nowhere_gives_none():
    board = board_with("[KS] 8H", "5S", "KD")
    assert board.targets(1, 1) == []
    assert board.best_target(1) is None and board.best_target(1, 1) is None and board.best_move(1) is None


def test_a_count_that_is_no_group_gives_none():
    board = board_with("[KS] 9S 8S", "[QD] 7H 5H", "TD", "6C", "", rule=RELAXED)
    assert board.best_target(1, 2) == 3
    assert board.best_target(1, 3) is None  # a face-down card
    assert board.best_target(2, 2) is None  # 5♥ on 7♥: a break in the ranks
    assert board.best_target(2, 3) is None
    classic = board_with("[KS] 9S 8H", "TD", rule=CLASSIC)
    assert classic.best_target(1, 2) is None  # a break in the suits under Classic


@pytest.mark.parametrize("column", [0, 4, -1, True, 1.0, "1"])
def test_a_column_that_does_not_exist_is_refused_like_everywhere(column):
    board = board_with("8H", "9S", "")
    for call in (board.best_target, board.best_move):
        with pytest.raises(ValueError, match=rf"^invalid column {column!r}: columns are numbered 1 to 3$"):
            call(column)
        with pytest.raises(ValueError, match=rf"^invalid column {column!r}: columns are numbered 1 to 3$"):
            call(column, 1)


@pytest.mark.parametrize("count", [0, -1, 4, True, 1.0, "1"])
def test_a_count_out_of_range_is_refused(count):
    board = board_with("[KS] 9H 8H", "9S", "")
    for call in (board.best_target, board.best_move):
        with pytest.raises(ValueError) as info:
            call(1, count)
        assert str(info.value) == f"invalid count {count!r}: column 1 holds 3 cards, expected 1 to 3"
    assert board.targets(1, 0) == board.targets(1, 4) == []  # the placement help answers [] instead


def test_a_count_on_an_empty_column_is_refused():
    board = board_with("9S", "", "8H")
    with pytest.raises(ValueError, match=r"^invalid count 1: column 2 is empty$"):
        board.best_target(2, 1)
    with pytest.raises(ValueError, match=r"^invalid count 2: column 1 holds 1 card, expected 1 to 1$"):
        board.best_target(1, 2)


# -- the move is ready to push ----------------------------------------------------------


def test_best_move_is_ready_to_push_and_best_target_is_its_target():
    board = board_with("[KS] 9S 8S 7S", "TH", "8S")
    move = board.best_move(1)
    assert board.best_target(1) == move.dst
    assert board.check(move) == move
    assert board.push(move) == move
    assert board.columns[1] == parse_cards("TH 9S 8S 7S")
    assert board.face_up(1) == [Card.parse("KS")]  # the face-down card turned up


def test_the_real_game_example_of_rules_md():
    board = Board(Deal.from_code("SP1-S4C-AAAAAAD"))
    assert board.targets(9, 1) == [4, 5]
    assert board.best_target(9) == 5  # 8♦ onto 9♦ before 9♠
    assert board.best_target(10) == 2
    assert board.best_target(2) is None
    assert board.push(board.best_move(9)) == Move(9, 5, 1)


# -- over random play -------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(deals(), LINES)
def test_the_best_target_is_one_of_the_targets_and_pushing_it_is_legal(deal, choices):
    board = Board(deal)
    random_line(board, choices, undo=False)
    for c in range(1, board.variant.columns + 1):
        height = len(board.columns[c - 1])
        for n in [None, *range(1, min(height, board.movable(c) + 1) + 1)]:  # larger counts: none is a group
            move = board.best_move(c, n)
            assert board.best_target(c, n) == (None if move is None else move.dst)
            if n is not None:
                # None exactly when no column may take the group, leaving out a whole column onto an empty one.
                proposed = [d for d in board.targets(c, n) if board.columns[d - 1] or n < height]
                assert (move is None) == (not proposed)
            if move is None:
                continue
            assert move.src == c and (n is None or move.count == n)
            assert 1 <= move.count <= board.movable(c)
            assert move.dst in board.targets(c, move.count)
            assert board.check(move) == move
            before = board.position()
            assert board.push(move) == move
            board.pop()
            assert board.position() == before
