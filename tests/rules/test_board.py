"""The board: every rule of RULES.md §5 Moves to RULES.md §8 Score and undo, and the
helpers of RULES.md §13 Frontend helpers, on hand-built positions.

Positions are built from explicit deals, mostly of shrunken variants (3 to 5 ranks,
1 to 3 columns), so that each test shows the whole position it is about. Columns are
written deepest card first. In the layout only the last card of a column is face up;
cards dealt from the stock are face up, so a few deals build face-up groups.
"""

import pytest

from spider_solver.errors import IllegalActionError
from spider_solver.rules.board import DEFAULT_UNDO_LIMIT, RUN_BONUS, START_SCORE, Board, Position
from spider_solver.rules.cards import HEARTS, SPADES, parse_cards
from spider_solver.rules.deal import Deal
from spider_solver.rules.notation import DealRow, Move, Undo, parse_action
from spider_solver.rules.variant import CLASSIC, RELAXED, Variant


def make_board(piles, rows=(), *, deal_on_empty=False, undo_limit=DEFAULT_UNDO_LIMIT, **variant):
    """A board from its columns (deepest card first) and stock rows, as text."""
    deal = Deal.from_columns(piles, rows, Variant(**variant))
    return Board(deal, deal_on_empty=deal_on_empty, undo_limit=undo_limit)


def cards(text):
    return parse_cards(text)


def play(board, text):
    for token in text.split():
        board.push(board.parse_action(token))
    return board


def refused(board, text):
    """The message of the rule that refuses ``text``; the position must not change."""
    before = board.position()
    action = board.parse_action(text)
    assert not board.is_legal(action)
    with pytest.raises(IllegalActionError) as info:
        board.push(action)
    assert board.position() == before
    message = str(info.value)
    assert message[0].islower()
    return message


# Two suits, ranks A-3: columns 3♠ | 2♥ | 3♥, one deal of A♠ A♥ 2♠.
def two_suits(rule=CLASSIC, **options):
    return make_board(["3S", "2H", "3H"], ["AS AH 2S"], rule=rule, suits=2, ranks=3, runs=2, columns=3, layout=3,
                      **options)


# One suit, ranks A-3, two columns of two cards: A♠ (down) 3♠ | 3♠ (down) 2♠; one deal of A♠ 2♠.
# Winning line: 2>1 D 1>2 (a run after the deal, another after the move).
def one_suit(**options):
    return make_board(["AS 3S", "3S 2S"], ["AS 2S"], suits=1, ranks=3, runs=2, columns=2, layout=4, **options)


# One suit, ranks A-3, three columns 3♠ | 2♠ | A♠, one deal of 3♠ 2♠ A♠.
def three_columns(**options):
    return make_board(["3S", "2S", "AS"], ["3S 2S AS"], suits=1, ranks=3, runs=2, columns=3, layout=3, **options)


def test_constants():
    assert START_SCORE == 500
    assert RUN_BONUS == 100
    assert DEFAULT_UNDO_LIMIT == 100


def test_a_new_board():
    board = one_suit()
    assert board.columns == [cards("AS 3S"), cards("3S 2S")]
    assert board.down == [1, 1]
    assert (board.score, board.moves, board.runs_removed, board.dealt) == (500, 0, 0, 0)
    assert (board.stock_left, board.deals_left) == (2, 1)
    assert not board.is_won()


# -- moves ------------------------------------------------------------------------


def test_a_card_goes_onto_one_rank_higher_whatever_its_suit():
    board = two_suits()
    assert board.push(parse_action("2>1")) == Move(2, 1, 1)  # 2♥ onto 3♠
    assert board.columns == [cards("3S 2H"), [], cards("3H")]


def test_classic_group_must_be_one_suit():
    board = play(two_suits(CLASSIC), "2>1")  # column 1: 3♠ 2♥, column 2 empty
    assert board.movable(1) == 1
    assert refused(board, "1>2/2") == "cannot play '1>2/2': under the Classic rule a group must be one suit: 2♥ lies on 3♠"
    # F>T onto an empty column moves the largest movable group: here one card.
    assert board.push(parse_action("1>2")) == Move(1, 2, 1)
    assert board.columns == [cards("3S"), cards("2H"), cards("3H")]


def test_relaxed_group_may_mix_suits():
    """RULES.md §3.2 Classic and Relaxed."""
    board = play(two_suits(RELAXED), "2>1")
    assert board.movable(1) == 2
    assert board.push(parse_action("1>2")) == Move(1, 2, 2)
    assert board.columns == [[], cards("3S 2H"), cards("3H")]


# Two suits, ranks A-5, two columns; after three deals: 5♥ 4♥ 3♠ 2♠ | A♥ 2♥ A♠ 5♠.
def mixed_group(rule):
    board = make_board(["5H", "AH"], ["4H 2H", "3S AS", "2S 5S", "3H 4S"], rule=rule,
                       suits=2, ranks=5, runs=2, columns=2, layout=2)
    return play(board, "D D D")


def test_classic_refuses_the_group_that_fits_when_its_suits_mix():
    board = mixed_group(CLASSIC)
    assert board.face_up(1) == cards("5H 4H 3S 2S")
    assert board.movable(1) == 2
    assert refused(board, "1>2") == "cannot play '1>2': under the Classic rule a group must be one suit: 3♠ lies on 4♥"


def test_relaxed_moves_the_group_that_fits_whatever_its_suits():
    board = mixed_group(RELAXED)
    assert board.movable(1) == 4
    assert board.push(parse_action("1>2")) == Move(1, 2, 3)  # 4♥ 3♠ 2♠ onto 5♠
    assert board.columns == [cards("5H"), cards("AH 2H AS 5S 4H 3S 2S")]


def test_group_size_has_no_limit():
    # One suit, ranks A-8, two columns; three deals: 7♠ 6♠ 5♠ 4♠ | 8♠ A♠ 2♠ 3♠.
    board = make_board(["7S", "8S"], ["6S AS", "5S 2S", "4S 3S"], suits=1, ranks=8, runs=1, columns=2, layout=2)
    play(board, "D D D")
    assert (board.movable(1), board.movable(2)) == (4, 1)
    play(board, "2>1 2>1 2>1")  # 3♠, 2♠, A♠ one by one onto column 1
    assert board.face_up(1) == cards("7S 6S 5S 4S 3S 2S AS")
    assert board.movable(1) == 7
    assert board.push(parse_action("1>2")) == Move(1, 2, 7)  # all seven onto 8♠, which completes the run
    assert board.is_won()


def test_onto_an_empty_column_any_card_or_group_not_only_kings():
    board = play(two_suits(), "2>1")  # column 2 is now empty
    board.push(parse_action("3>2"))  # a 3 onto the empty column
    assert board.columns == [cards("3S 2H"), cards("3H"), []]
    board.push(parse_action("2>3/1"))  # and on to the other empty column, size named
    assert board.columns == [cards("3S 2H"), [], cards("3H")]
    assert board.push(parse_action("1>2/1")) == Move(1, 2, 1)  # a 2 alone
    assert board.columns == [cards("3S"), cards("2H"), cards("3H")]


def test_nothing_goes_onto_an_ace():
    board = three_columns()  # 3♠ | 2♠ | A♠
    assert refused(board, "2>3") == "cannot play '2>3': no card goes onto an ace (A♠ ends column 3)"
    assert refused(board, "1>3/1") == "cannot play '1>3/1': no card goes onto an ace (A♠ ends column 3)"
    board.push_notation("3>2")  # the ace itself goes onto a 2
    assert board.columns == [cards("3S"), cards("2S AS"), []]
    assert refused(board, "1>2") == "cannot play '1>2': no card goes onto an ace (A♠ ends column 2)"


def test_face_down_cards_cannot_be_moved():
    board = one_suit()  # A♠ (down) 3♠ | 3♠ (down) 2♠
    assert refused(board, "2>1/2") == "cannot play '2>1/2': face-down cards cannot be moved; column 2 has 1 face-up card"
    assert refused(board, "2>1/3") == "cannot play '2>1/3': column 2 holds only 2 cards"


def test_a_move_turns_up_the_uncovered_card():
    """RULES.md §5.3 After the move."""
    board = one_suit()
    board.push_notation("2>1")  # 2♠ onto 3♠ uncovers the 3♠ of column 2
    assert board.columns == [cards("AS 3S 2S"), cards("3S")]
    assert board.down == [1, 0]
    assert board.face_up(2) == cards("3S")


def test_f_to_t_picks_the_group_whose_first_card_fits():
    board = mixed_group(RELAXED)  # 5♥ 4♥ 3♠ 2♠ | A♥ 2♥ A♠ 5♠, one deal left: 3♥ 4♠
    board.push_notation("D")  # 5♥ 4♥ 3♠ 2♠ 3♥ | ... 5♠ 4♠
    assert board.resolve(parse_action("1>2")) == Move(1, 2, 1)  # 3♥ onto 4♠
    assert board.check(parse_action("1>2/1")) == Move(1, 2, 1)  # naming the right size is fine
    assert refused(board, "1>2/2") == "cannot play '1>2/2': a group must go down one rank at a time: 3♥ lies on 2♠"


# -- refused moves, each with its rule --------------------------------------------


def test_moves_naming_columns_that_do_not_exist():
    board = one_suit()
    # Parsing already refuses these; actions built directly are checked again.
    with pytest.raises(IllegalActionError, match=r"^cannot play '3>1': source column 3 does not exist \(columns are 1 to 2\)$"):
        board.push(Move(3, 1))
    with pytest.raises(IllegalActionError, match=r"^cannot play '1>0': target column 0 does not exist \(columns are 1 to 2\)$"):
        board.push(Move(1, 0))
    with pytest.raises(IllegalActionError, match=r"^cannot play '1>1': source and target are the same column$"):
        board.push(Move(1, 1))
    # A group size below 1 would take cards from the wrong end of the column.
    board = play(two_suits(), "2>1")  # column 2 is empty
    for count in (0, -1):
        with pytest.raises(IllegalActionError, match=rf"^cannot play '1>2/{count}': a group holds at least 1 card$"):
            board.push(Move(1, 2, count))
        assert not board.is_legal(Move(1, 2, count))


def test_empty_source_column():
    board = play(two_suits(), "2>1")
    assert refused(board, "2>3") == "cannot play '2>3': column 2 is empty"


def test_a_card_onto_one_that_is_not_one_rank_higher():
    board = play(one_suit(), "2>1")  # A♠ 3♠ 2♠ | 3♠
    assert refused(board, "2>1") == "cannot play '2>1': 3♠ cannot go onto 2♠, a card goes only onto a card exactly one rank higher"


def test_a_group_onto_a_card_that_does_not_fit_its_first_card():
    board = play(one_suit(), "2>1 1>2")  # A♠ 3♠ | 3♠ 2♠
    assert board.face_up(2) == cards("3S 2S")
    assert refused(board, "2>1/2") == (
        "cannot play '2>1/2': 3♠ cannot go onto 3♠, a group goes only onto a card exactly one rank higher "
        "than its first card"
    )


# One suit, ranks A-5, two columns 5♠ | 3♠; deals 4♠ A♠, 2♠ 5♠, then A♠ 2♠ and 3♠ 4♠.
def gapped():
    return make_board(["5S", "3S"], ["4S AS", "2S 5S", "AS 2S", "3S 4S"], suits=1, ranks=5, runs=2, columns=2, layout=2)


def test_nothing_fits_when_the_column_lacks_the_card():
    board = gapped()  # 5♠ | 3♠: a 4 is needed on the 5
    assert refused(board, "2>1") == (
        "cannot play '2>1': nothing in column 2 fits onto 5♠: a group going there must start with a face-up 4 "
        "and go down one rank at a time to the last card"
    )


def test_nothing_fits_when_the_ranks_have_a_gap():
    board = play(gapped(), "D D")  # 5♠ 4♠ 2♠ | 3♠ A♠ 5♠
    assert refused(board, "1>2") == (
        "cannot play '1>2': nothing in column 1 fits onto 5♠: a group going there must start with a face-up 4 "
        "and go down one rank at a time to the last card"
    )


def test_a_named_group_with_a_gap():
    board = play(gapped(), "D D")
    assert refused(board, "1>2/2") == "cannot play '1>2/2': a group must go down one rank at a time: 2♠ lies on 4♠"


def test_the_first_rule_that_fails_is_the_one_reported():
    """RULES.md §5.4 Which rule refuses a move: the checks run in a fixed order."""
    board = play(three_columns(), "3>2")  # 3♠ | 2♠ A♠ | empty
    assert refused(board, "3>2") == "cannot play '3>2': column 3 is empty"  # before the ace
    with pytest.raises(IllegalActionError, match=r"^cannot play '3>1/0': a group holds at least 1 card$"):
        board.push(Move(3, 1, 0))  # the size before the empty column (the parser refuses "/0" itself)
    assert refused(board, "1>2/5") == "cannot play '1>2/5': no card goes onto an ace (A♠ ends column 2)"  # before the size
    with pytest.raises(IllegalActionError, match=r"^cannot play '4>4': source column 4 does not exist"):
        board.push(Move(4, 4))  # before "the same column"
    with pytest.raises(IllegalActionError, match=r"^cannot play '1>1/0': source and target are the same column$"):
        board.push(Move(1, 1, 0))  # before the size
    board = play(gapped(), "D D")  # 5♠ 4♠ 2♠ | 3♠ A♠ 5♠, all face up
    # A gap in the ranks is reported before the size of the column, the size before the face-down cards.
    assert refused(board, "1>2/5") == "cannot play '1>2/5': a group must go down one rank at a time: 2♠ lies on 4♠"
    board = one_suit()  # A♠ (down) 3♠ | 3♠ (down) 2♠
    assert refused(board, "2>1/3") == "cannot play '2>1/3': column 2 holds only 2 cards"
    board = three_columns()  # 3♠ | 2♠ | A♠: "1 card", not "1 cards"
    assert refused(board, "1>2/2") == "cannot play '1>2/2': column 1 holds only 1 card"


def test_a_group_is_checked_from_its_last_card_up_and_a_rank_break_comes_before_a_suit_break():
    """RULES.md §5.4 Which rule refuses a move, step 8, on a real deal: after one deal column 1 ends 2♣ 2♠ (a pair
    broken in rank and in suit), after two 2♣ 2♠ 6♣."""
    board = Board(Deal.from_code("SP1-S4C-AAAAAAD"))
    play(board, "D")
    assert refused(board, "1>2/2") == "cannot play '1>2/2': a group must go down one rank at a time: 2♠ lies on 2♣"
    play(board, "D")
    assert refused(board, "1>2/3") == "cannot play '1>2/3': a group must go down one rank at a time: 6♣ lies on 2♠"


# -- deals ------------------------------------------------------------------------


def test_a_deal_puts_one_face_up_card_on_every_column_from_column_1():
    """RULES.md §6 Deals."""
    board = two_suits()
    assert board.push(DealRow()) == DealRow()
    assert board.columns == [cards("3S AS"), cards("2H AH"), cards("3H 2S")]
    assert board.down == [0, 0, 0]
    assert (board.dealt, board.deals_left, board.stock_left) == (1, 0, 0)


def test_deal_refused_while_a_column_is_empty():
    board = play(two_suits(), "2>1")
    assert refused(board, "D") == "cannot deal while column 2 is empty: put a card there first"


def test_deal_refused_while_several_columns_are_empty():
    board = play(three_columns(), "3>2 2>1")  # 3♠ 2♠ A♠ leaves as a run: all columns empty
    assert board.columns == [[], [], []]
    assert refused(board, "D") == "cannot deal while columns 1, 2 and 3 are empty: put a card in each first"
    board = play(three_columns(), "3>2")
    board.push_notation("1>3")
    assert board.columns == [[], cards("2S AS"), cards("3S")]
    assert refused(board, "D") == "cannot deal while column 1 is empty: put a card there first"


def test_an_empty_stock_is_reported_before_empty_columns():
    board = play(two_suits(), "D 1>3 3>1")  # a run left column 1 empty, and the stock is empty
    assert board.columns[0] == []
    assert refused(board, "D") == "cannot deal: the stock is empty"


def test_deal_on_empty_allows_dealing_with_empty_columns():
    board = play(three_columns(deal_on_empty=True), "3>2 2>1 D")
    assert board.columns == [cards("3S"), cards("2S"), cards("AS")]
    play(board, "3>2 2>1")
    assert board.is_won()
    assert (board.moves, board.score) == (5, 500 - 5 + 200)


def test_deal_refused_when_the_stock_is_empty_and_never_refilled():
    board = play(two_suits(), "D")
    assert refused(board, "D") == "cannot deal: the stock is empty"
    board = play(two_suits(deal_on_empty=True), "D")
    assert refused(board, "D") == "cannot deal: the stock is empty"
    # Emptying a column and winning runs back does not refill it.
    play(board, "1>3 3>1")
    assert board.runs_removed == 1
    assert refused(board, "D") == "cannot deal: the stock is empty"


# -- completed runs ---------------------------------------------------------------


def test_a_run_leaves_after_the_move_that_completes_it():
    """RULES.md §7 Runs and the win."""
    board = play(two_suits(), "D 1>3")  # 3♠ | 2♥ A♥ | 3♥ 2♠ A♠
    assert board.columns == [cards("3S"), cards("2H AH"), cards("3H 2S AS")]
    board.push_notation("3>1")  # 2♠ A♠ onto 3♠ completes 3♠ 2♠ A♠
    assert board.columns == [[], cards("2H AH"), cards("3H")]
    assert board.removed == [SPADES]
    assert board.score == 500 - 3 + 100


def test_a_run_leaves_after_the_deal_that_completes_it_and_uncovers_a_card():
    board = play(one_suit(), "2>1")  # A♠ (down) 3♠ 2♠ | 3♠
    board.push_notation("D")  # A♠ onto 2♠ completes the run; the A♠ under it turns up
    assert board.columns == [cards("AS"), cards("3S 2S")]
    assert board.down == [0, 0]
    assert board.runs_removed == 1
    assert board.score == 500 - 2 + 100
    board.push_notation("1>2")
    assert board.is_won()
    assert board.columns == [[], []]
    assert (board.moves, board.score, board.runs_removed) == (3, 500 - 3 + 200, 2)


def test_a_deal_can_complete_several_runs_at_once():
    board = make_board(["3S", "3S"], ["2S 2S", "AS AS"], suits=1, ranks=3, runs=2, columns=2, layout=2)
    board.push_notation("D")
    assert board.runs_removed == 0
    board.push_notation("D")
    assert board.runs_removed == 2
    assert board.is_won()
    assert (board.moves, board.score) == (2, 500 - 2 + 200)


def test_a_deal_completes_runs_in_some_columns_only():
    # Four suits, ranks A-3: columns 3♠ | 3♥ | 3♦ | 3♣; deals 2♠ 2♥ 2♦ 2♣ then A♠ A♥ A♣ A♦.
    board = make_board(["3S", "3H", "3D", "3C"], ["2S 2H 2D 2C", "AS AH AC AD"], suits=4, ranks=3, runs=4,
                       columns=4, layout=4)
    play(board, "D D")
    assert board.runs_removed == 2  # spades and hearts left; diamonds and clubs got the wrong ace
    assert board.columns == [[], [], cards("3D 2D AC"), cards("3C 2C AD")]
    assert board.score == 500 - 2 + 200


def test_runs_leave_column_by_column_and_removed_keeps_their_order():
    # Two suits, ranks A-3: columns 3♥ | 3♠; the second deal completes both runs.
    board = make_board(["3H", "3S"], ["2H 2S", "AH AS"], suits=2, ranks=3, runs=2, columns=2, layout=2)
    play(board, "D D")
    assert board.removed == [HEARTS, SPADES]  # column 1 first, not suit order
    assert board.is_won()


def test_the_board_lets_the_winning_action_be_undone():
    board = play(one_suit(), "2>1 D 1>2")
    assert board.is_won() and board.legal_moves() == []
    assert board.is_legal(Undo())  # only a game log refuses actions after the win (RULES.md §12 Replay)
    board.pop()
    assert not board.is_won()
    assert (board.runs_removed, board.moves, board.score) == (1, 2, 598)


def test_a_run_must_be_one_suit_under_both_rules():
    for rule in (CLASSIC, RELAXED):
        board = make_board(["3S", "3H"], ["2H 2S", "AS AH"], rule=rule, suits=2, ranks=3, runs=2, columns=2, layout=2)
        play(board, "D D")  # 3♠ 2♥ A♠ | 3♥ 2♠ A♥
        assert board.runs_removed == 0
        assert board.columns == [cards("3S 2H AS"), cards("3H 2S AH")]
        # No move is left and the stock is empty; the game does not detect that it is stuck.
        assert board.legal_moves() == []
        assert not board.is_won()


def test_a_duplicate_rank_breaks_a_run():
    # One suit, ranks A-4, one column: 4♠ then deals of 3♠ 3♠ 2♠ A♠: 4 3 3 2 A is no run.
    board = make_board(["4S"], ["3S", "3S", "2S", "AS", "4S", "2S", "AS"], suits=1, ranks=4, runs=2, columns=1, layout=1)
    play(board, "D D D D")
    assert board.columns == [cards("4S 3S 3S 2S AS")]
    assert board.runs_removed == 0


def test_thirteen_cards_from_king_to_ace_with_a_gap_are_no_run():
    # One suit, 13 ranks, one column: K Q J 10 9 8 7 6 5 4 3 A A (no 2, two aces).
    first = ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "AS", "AS"]
    rest = ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "2S"]
    board = make_board([first[0]], first[1:] + rest, suits=1, ranks=13, runs=2, columns=1, layout=1)
    play(board, " ".join(["D"] * 12))
    assert len(board.face_up(1)) == 13
    assert board.runs_removed == 0


def test_a_run_under_face_down_cards_does_not_leave():
    # One suit, ranks A-3, one column of 3♠ 2♠ A♠ with only the ace face up.
    board = make_board(["3S 2S AS"], ["3S", "2S", "AS"], suits=1, ranks=3, runs=2, columns=1, layout=3)
    assert board.down == [2]
    board.push_notation("D")
    assert board.runs_removed == 0


def test_a_full_size_run_leaves():
    # One suit, 13 ranks, two columns: K♠ (down) K♠ | A♠ (down) 7♠; five deals put Q..8 on the
    # king and 6..2 on the seven; 7..2 joins K..8, the ace uncovered under it completes the run.
    board = make_board(
        ["KS KS", "AS 7S"],
        ["QS 6S", "JS 5S", "TS 4S", "9S 3S", "8S 2S", "QS JS", "TS 9S", "8S 7S", "6S 5S", "4S 3S", "2S AS"],
        suits=1, ranks=13, runs=2, columns=2, layout=4,
    )
    play(board, "D D D D D")
    assert board.face_up(1) == cards("KS QS JS TS 9S 8S")
    assert board.face_up(2) == cards("7S 6S 5S 4S 3S 2S")
    assert board.push(parse_action("2>1")) == Move(2, 1, 6)
    assert board.columns == [cards("KS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"), cards("AS")]
    assert board.runs_removed == 0  # twelve cards, no ace yet
    board.push_notation("2>1")
    assert board.columns == [cards("KS"), []]
    assert board.down == [0, 0]
    assert board.removed == [SPADES]


# -- score and move counter -------------------------------------------------------


def test_each_move_and_deal_costs_a_point_and_a_run_gives_100():
    board = one_suit()
    scores = []
    for token in ["2>1", "D", "1>2"]:
        board.push_notation(token)
        scores.append((board.moves, board.score, board.runs_removed))
    assert scores == [(1, 499, 0), (2, 598, 1), (3, 697, 2)]


def test_score_never_goes_below_zero_and_zero_stops_nothing():
    # 3♠ | 2♠ | 3♠: move the 2♠ back and forth between the two threes 500 times.
    board = make_board(["3S", "2S", "3S"], ["AS AS 2S"], deal_on_empty=True, suits=1, ranks=3, runs=2, columns=3, layout=3)
    board.push_notation("2>1")
    for _ in range(250):
        play(board, "1>3 3>1")
        assert board.score == max(0, 500 - board.moves)
    assert (board.moves, board.score) == (501, 0)
    board.push_notation("1>3")  # still playable at 0
    assert (board.moves, board.score) == (502, 0)
    board.push_notation("3>1")
    # The deal completes 3♠ 2♠ A♠ in column 1: max(0, 0 - 1) + 100.
    board.push_notation("D")
    assert (board.moves, board.score, board.runs_removed) == (504, 100, 1)
    board.push_notation("2>3")  # A♠ onto 3♠ 2♠
    assert (board.moves, board.score, board.runs_removed) == (505, 199, 2)
    assert board.is_won()


def test_undo_does_not_count_as_a_move_and_restores_the_counter():
    board = play(one_suit(), "2>1 D")
    board.push(Undo())
    assert (board.moves, board.score) == (1, 499)


# -- undo -------------------------------------------------------------------------


def test_undo_restores_every_earlier_position_exactly():
    """RULES.md §8.2 Undo."""
    board = one_suit()
    positions = [board.position()]
    for token in ["2>1", "D", "1>2"]:
        board.push_notation(token)
        positions.append(board.position())
    assert board.is_won()
    for expected in reversed(positions[:-1]):
        board.pop()
        assert board.position() == expected
    assert refused(board, "U") == "nothing to undo: every action has been undone"
    assert refused(one_suit(), "U") == "nothing to undo: no action has been made"


def test_undo_brings_back_a_removed_run_and_turns_the_card_face_down_again():
    board = play(one_suit(), "2>1")
    before = board.position()
    assert before.columns == (tuple(cards("AS 3S 2S")), tuple(cards("3S")))
    assert before.down == (1, 0)
    board.push_notation("D")  # run removed, A♠ turned up
    assert board.runs_removed == 1 and board.down == [0, 0]
    board.push(parse_action("U"))
    assert board.position() == before
    assert board.columns == [cards("AS 3S 2S"), cards("3S")]
    assert board.down == [1, 0]
    assert board.removed == []
    assert (board.dealt, board.stock_left) == (0, 2)
    assert (board.score, board.moves) == (499, 1)
    # The same deal can be made again, with the same result.
    board.push_notation("D")
    assert board.runs_removed == 1


def test_undo_after_undo_goes_further_back_and_play_goes_on():
    board = one_suit()
    start = board.position()
    play(board, "2>1 1>2 U U")
    assert board.position() == start
    play(board, "2>1 D U")
    assert board.runs_removed == 0 and board.moves == 1


def test_default_undo_limit_is_100():
    board = make_board(["3S", "2S", "3S"], ["AS AS 2S"], suits=1, ranks=3, runs=2, columns=3, layout=3)
    board.push_notation("2>1")
    after_first = board.position()
    for _ in range(50):
        play(board, "1>3 3>1")
    assert board.moves == 101
    for _ in range(100):
        board.pop()
    assert board.position() == after_first
    assert refused(board, "U") == "nothing more to undo: only the last 100 actions can be undone"
    board.push_notation("1>3")  # new actions can be undone again
    board.pop()
    assert board.position() == after_first


def test_after_150_actions_the_last_100_can_be_undone_and_new_actions_again():
    """RULES.md §14 Engine choices (undo and its limit)."""
    board = make_board(["3S", "2S", "3S"], ["AS AS 2S"], suits=1, ranks=3, runs=2, columns=3, layout=3)
    positions = [board.position()]
    board.push_notation("2>1")
    positions.append(board.position())
    while board.moves < 150:
        board.push_notation("1>3" if board.moves % 2 else "3>1")
        positions.append(board.position())
    for _ in range(100):
        board.pop()
    assert board.position() == positions[50]
    assert (board.moves, board.score) == (50, 450)
    assert refused(board, "U") == "nothing more to undo: only the last 100 actions can be undone"
    board.push_notation("3>1")  # the 2♠ went to column 3 at action 50: bring it back
    board.push_notation("1>3")
    board.pop()
    board.pop()
    assert board.position() == positions[50]


def test_with_undo_turned_off_a_new_board_has_nothing_to_undo():
    board = one_suit(undo_limit=0)
    assert refused(board, "U") == "nothing to undo: no action has been made"
    board.push_notation("2>1")
    assert refused(board, "U") == "cannot undo: undo is turned off (undo limit 0)"


@pytest.mark.parametrize("limit", [None, 2, 0])
def test_other_undo_limits(limit):
    board = make_board(["3S", "2S", "3S"], ["AS AS 2S"], undo_limit=limit, suits=1, ranks=3, runs=2, columns=3,
                       layout=3)
    start = board.position()
    board.push_notation("2>1")
    for _ in range(75):
        play(board, "1>3 3>1")
    undone = 0
    while board.is_legal(Undo()):
        board.pop()
        undone += 1
    if limit is None:
        assert undone == 151
        assert board.position() == start
        assert refused(board, "U") == "nothing to undo: every action has been undone"
    elif limit == 2:
        assert undone == 2
        assert refused(board, "U") == "nothing more to undo: only the last 2 actions can be undone"
    else:
        assert undone == 0
        assert refused(board, "U") == "cannot undo: undo is turned off (undo limit 0)"


def test_negative_undo_limit():
    with pytest.raises(ValueError, match=r"^invalid undo limit -1: expected 0 or more, or None for unlimited$"):
        one_suit(undo_limit=-1)


# -- legal moves, placement help, notation, position --------------------------------


def test_columns_are_numbered_from_1_in_every_method():
    board = mixed_group(RELAXED)  # 5♥ 4♥ 3♠ 2♠ | A♥ 2♥ A♠ 5♠
    assert (board.face_up(1), board.face_up(2)) == (cards("5H 4H 3S 2S"), cards("AH 2H AS 5S"))
    assert (board.movable(1), board.movable(2)) == (4, 1)
    assert board.face_up(2) == board.columns[1][board.down[1]:]  # the lists are plain, indexed from 0
    assert board.targets(1, 3) == [2]
    assert board.legal_moves() == [Move(1, 2, 3), DealRow()]
    for column in (0, 3, -1, True, 1.0, "1"):
        with pytest.raises(ValueError, match=rf"^invalid column {column!r}: columns are numbered 1 to 2$"):
            board.movable(column)
        with pytest.raises(ValueError, match=rf"^invalid column {column!r}: columns are numbered 1 to 2$"):
            board.face_up(column)
    assert board.targets(0, 1) == board.targets(3, 1) == []  # no column there: nowhere to go



def test_legal_moves_list_every_action_with_its_group_size():
    """RULES.md §13.2 Legal moves."""
    assert two_suits().legal_moves() == [Move(2, 1, 1), Move(2, 3, 1), DealRow()]
    board = play(two_suits(RELAXED), "2>1")  # 3♠ 2♥ | empty | 3♥
    assert board.legal_moves() == [Move(1, 2, 1), Move(1, 2, 2), Move(1, 3, 1), Move(3, 2, 1)]
    board = play(two_suits(CLASSIC), "2>1")
    assert board.legal_moves() == [Move(1, 2, 1), Move(1, 3, 1), Move(3, 2, 1)]


def test_legal_moves_agree_with_check_on_every_candidate():
    for board in (two_suits(), play(two_suits(RELAXED), "2>1"), mixed_group(CLASSIC), mixed_group(RELAXED),
                  play(gapped(), "D D"), play(one_suit(), "2>1")):
        n = board.variant.columns
        candidates = [Move(s, d, k) for s in range(1, n + 1) for d in range(1, n + 1) if s != d
                      for k in range(1, len(board.columns[s - 1]) + 1)]
        legal = [m for m in candidates if board.is_legal(m)]
        if board.is_legal(DealRow()):
            legal.append(DealRow())
        assert board.legal_moves() == legal


def test_targets_are_the_columns_a_group_may_go_to():
    board = two_suits()
    assert board.targets(2, 1) == [1, 3]  # 2♥ onto 3♠ or 3♥
    assert board.targets(1, 1) == []
    board = play(two_suits(RELAXED), "2>1")
    assert board.targets(1, 2) == [2]  # 3♠ 2♥ only onto the empty column
    assert board.targets(3, 1) == [2]
    assert board.targets(1, 3) == []  # larger than the largest group: nowhere


def test_canonical_notation_writes_the_size_only_onto_an_empty_column():
    board = two_suits()
    assert board.notation(Move(2, 1, 1)) == "2>1"
    assert board.notation(parse_action("2>1/1")) == "2>1"
    assert board.notation(DealRow()) == "D"
    board.push_notation("2>1")
    assert board.notation(parse_action("1>2")) == "1>2/1"
    assert board.notation(parse_action("3>2")) == "3>2/1"
    assert board.notation(Undo()) == "U"
    assert play(two_suits(RELAXED), "2>1").notation(parse_action("1>2")) == "1>2/2"
    with pytest.raises(IllegalActionError):
        board.notation(DealRow())


def test_every_refusal_is_a_value_error():
    """RULES.md §13.5 Errors."""
    from spider_solver import errors

    for name in ("InvalidCardError", "InvalidVariantError", "InvalidCodeError", "InvalidDealError",
                 "InvalidActionError", "IllegalActionError"):
        assert issubclass(getattr(errors, name), ValueError)


def test_push_returns_the_action_as_played():
    board = two_suits(RELAXED)
    assert board.push_notation("2>1") == Move(2, 1, 1)
    assert board.push_notation("1>2") == Move(1, 2, 2)
    assert board.push_notation("u") == Undo()


def test_positions_compare_and_hash():
    a, b = one_suit(), one_suit()
    assert a.position() == b.position()
    assert hash(a.position()) == hash(b.position())
    a.push_notation("2>1")
    assert a.position() != b.position()
    assert isinstance(a.position(), Position)
    assert len({a.position(), b.position(), one_suit().position()}) == 2


# -- text -------------------------------------------------------------------------


def test_describe_in_the_style_of_the_rule_pages():
    board = Board(Deal.from_code("SP1-S4C-AAAAAAD"))
    text = board.describe()
    assert text.startswith("Stock: 50 cards, 5 deals left; no run removed. Column 1: 5 face down, then 2♣; ")
    assert "Column 5: 4 face down, then 9♦; " in text
    assert text.endswith("Column 10: 4 face down, then 5♦.")


def test_describe_empty_columns_runs_and_stock():
    board = play(two_suits(), "D 1>3 3>1")
    assert board.describe() == (
        "Stock: empty, no deals left; 1 run removed. Column 1: empty; Column 2: 2♥ A♥; Column 3: 3♥."
    )
    board = play(one_suit(), "2>1")
    assert board.describe() == (
        "Stock: 2 cards, 1 deal left; no run removed. Column 1: 1 face down, then 3♠ 2♠; Column 2: 3♠."
    )


def test_grid_drawing():
    board = Board(Deal.from_code("SP1-S4C-AAAAAAD"))
    lines = board.grid().splitlines()
    assert lines[0] == "   1   2   3   4   5   6   7   8   9  10"
    assert lines[1] == "  ##" * 10
    assert lines[5] == "  ##  ##  ##  ##  9♦  A♦  4♠  3♠  8♦  5♦"
    assert lines[6] == "  2♣  6♠  Q♦  9♠"
    assert lines[7] == "stock 50 (5 deals)  runs removed: none  score 500  moves 0"
    assert str(board) == board.grid()
    board = play(two_suits(), "D 1>3 3>1")
    assert board.grid().splitlines() == [
        "   1   2   3",
        "      2♥  3♥",
        "      A♥",
        "stock 0 (0 deals)  runs removed: 3♠  score 597  moves 3",
    ]


def test_repr():
    assert repr(Board(Deal.from_code("SP1-S4C-AAAAAAD"))) == "<Board SP1-S4C-AAAAAAD moves=0 score=500 runs=0>"
    assert repr(play(one_suit(), "2>1")) == "<Board explicit deal moves=1 score=499 runs=0>"


def test_the_undo_refusal_counts_one_action_in_the_singular():
    board = Board(Deal.from_code("SP1-S4C-AAAAAAD"), undo_limit=1)
    board.push_notation("D")
    board.push_notation("D")
    board.pop()
    assert refused(board, "U") == "nothing more to undo: only the last 1 action can be undone"
