"""The rules checker: replaying game logs and solutions, and scoring them (RULES.md §12 Replay)."""

import pytest

from spider_solver.rules.board import Board
from spider_solver.rules.cards import parse_cards
from spider_solver.rules.deal import Deal
from spider_solver.rules.notation import Undo
from spider_solver.rules.replay import ReplayError, ReplayResult, play_on, replay, replay_board
from spider_solver.rules.variant import Variant
from tests.rules.scripted_win import DECK_TEXT, LAYOUT, STOCK, WIN, WIN_TEXT, WITH_UNDOS

# The scripted deal in deck order, written out: the 54 layout cards row by row,
# then the five deals of ten.
EXPLICIT = (
    "AS 9S 4S QS 9S 6S 2S TS 6S 3S "
    "2S TS 5S AS TS 7S 3S JS 7S 4S "
    "KS JS 6S 2S JS 8S 4S AS 8S 5S "
    "KS QS 7S 3S QS AS 5S AS 9S AS "
    "KS AS 8S AS KS 7S KS 7S KS 7S "
    "KS 7S KS 7S "
    "QS 6S QS 6S QS 6S QS 6S QS 6S "
    "JS 5S JS 5S JS 5S JS 5S JS 5S "
    "TS 4S TS 4S TS 4S TS 4S TS 4S "
    "9S 3S 9S 3S 9S 3S 9S 3S 9S 3S "
    "8S 2S 8S 2S 8S 2S 8S 2S 8S 2S"
)


@pytest.fixture
def deal():
    return Deal.from_text(EXPLICIT, 1)


def test_the_scripted_deal_is_the_layout_it_describes(deal):
    assert DECK_TEXT == EXPLICIT
    assert deal.columns() == [parse_cards(column) for column in LAYOUT]
    assert deal.stock() == parse_cards(" ".join(STOCK))
    assert deal.variant == Variant(suits=1)


def test_scripted_win_scores_500_minus_117_plus_800(deal):
    assert len(WIN) == 117
    result = replay(deal, WIN_TEXT)
    assert result == ReplayResult(
        won=True, moves=117, score=500 - 117 + 8 * 100, runs_removed=8, stock_left=0, played=tuple(WIN), error=None,
    )


def test_scripted_win_step_by_step(deal):
    """The score after every action is max(0, score - 1) + 100 per run, never near 0 here."""
    board = Board(deal)
    score = 500
    for n, token in enumerate(WIN, 1):
        runs = board.runs_removed
        board.push_notation(token)
        score = max(0, score - 1) + 100 * (board.runs_removed - runs)
        assert (board.moves, board.score) == (n, score)
    assert board.is_won()
    assert board.columns == [[] for _ in range(10)]
    assert board.stock_left == 0


def test_scripted_win_with_undos_ends_the_same(deal):
    result = replay(deal, WITH_UNDOS)
    assert result.error is None
    assert (result.won, result.moves, result.score, result.runs_removed) == (True, 117, 1183, 8)
    assert result.played == tuple(WITH_UNDOS)
    assert result.played.count("U") == 4


def test_undo_in_a_log_restores_the_position(deal):
    board = Board(deal)
    for token in WIN[:27]:
        board.push_notation(token)
    before = board.position()
    board.push_notation("5>2/1")  # turns up the J under the Q of column 5
    assert board.down[4] == 2
    board.push_notation("U")
    assert board.position() == before
    assert board.down[4] == 3


def test_a_legal_log_that_does_not_win(deal):
    result = replay(deal, WIN[:-1])
    assert result == ReplayResult(
        won=False, moves=116, score=500 - 116 + 700, runs_removed=7, stock_left=0, played=tuple(WIN[:-1]),
    )
    empty = replay(deal, "")
    assert (empty.won, empty.moves, empty.score, empty.stock_left, empty.error) == (False, 0, 500, 50, None)


def test_input_is_printed_back_in_canonical_notation(deal):
    tokens = ["d", "D,D", "D\nD", "2>1/6", "02>1", "4>3/6"]
    result = replay(deal, tokens)
    assert result.error is None
    assert result.played == ("D", "D", "D", "D", "D", "2>1", "2>1", "4>3")


def test_a_refused_action_stops_the_replay_with_its_index_and_rule(deal):
    result = replay(deal, "D D 2>1 D")
    assert result.error == ReplayError(index=2, action="2>1", message=(
        "cannot play '2>1': nothing in column 2 fits onto J♠: a group going there must start with a face-up 10 "
        "and go down one rank at a time to the last card"
    ))
    # The result is the position before the refused action.
    assert (result.won, result.moves, result.score, result.stock_left) == (False, 2, 498, 30)
    assert result.played == ("D", "D")


def test_bad_notation_in_a_log(deal):
    result = replay(deal, "D 3-5 D")
    assert result.error == ReplayError(1, "3-5", "invalid action '3-5': expected D, U, F>T or F>T/N (for example 3>7 or 2>5/3)")
    result = replay(deal, "D 11>3")
    assert result.error.message == "invalid action '11>3': source column 11 does not exist (columns are 1 to 10)"


def test_a_lower_case_u_undoes_and_a_refused_token_is_reported_as_written(deal):
    """RULES.md §11 Action notation (looser forms) and §12 Replay (the error's action is the token as written)."""
    result = replay(deal, "D u")
    assert (result.error, result.moves, result.played) == (None, 0, ("D", "U"))
    assert replay(deal, "u").error.action == "u"
    assert replay(deal, "D d 3-5").error.action == "3-5"


def test_the_error_index_counts_tokens_from_0_across_the_items_of_a_list(deal):
    result = replay(deal, ["D D", "D,2>1", "D"])  # tokens D D D 2>1 D: the fourth is refused
    assert (result.error.index, result.error.action) == (3, "2>1")
    assert result.played == ("D", "D", "D")


def test_refused_deals_and_undos_in_a_log(deal):
    assert replay(deal, "U").error == ReplayError(0, "U", "nothing to undo: no action has been made")
    # RULES.md §8.2 Undo: after undos back to the start the refusal says that all was undone.
    assert replay(deal, "D U U").error == ReplayError(2, "U", "nothing to undo: every action has been undone")
    six = replay(deal, "D D D D D D").error
    assert six == ReplayError(5, "D", "cannot deal: the stock is empty")


def test_actions_after_the_win_are_refused(deal):
    result = replay(deal, WIN + ["U"])
    assert result.won
    assert result.error == ReplayError(117, "U", "the game is already won; 'U' comes after the last run left")
    assert result.moves == 117


def test_deal_on_empty_in_a_replay():
    # 3♠ | 2♠ | A♠ and one deal of 3♠ 2♠ A♠: the first run empties every column.
    deal = Deal.from_columns(["3S", "2S", "AS"], ["3S 2S AS"], Variant(suits=1, ranks=3, runs=2, columns=3, layout=3))
    log = "3>2 2>1 D 3>2 2>1"
    refused = replay(deal, log)
    assert refused.error == ReplayError(2, "D", "cannot deal while columns 1, 2 and 3 are empty: put a card in each first")
    won = replay(deal, log, deal_on_empty=True)
    assert (won.won, won.moves, won.score, won.error) == (True, 5, 695, None)


def test_undo_limit_in_a_replay(deal):
    log = ["D"] * 5 + ["U"] * 5
    assert replay(deal, log).error is None
    assert replay(deal, log, undo_limit=None).error is None
    result = replay(deal, log, undo_limit=3)
    assert result.error == ReplayError(8, "U", "nothing more to undo: only the last 3 actions can be undone")
    assert result.moves == 2
    assert replay(deal, log, undo_limit=0).error == ReplayError(5, "U", "cannot undo: undo is turned off (undo limit 0)")


def test_to_dict_fields():
    result = replay(Deal.from_code("SP1-S4C-AAAAAAD"), "9>4 D 99>1")
    assert result.to_dict() == {
        "won": False, "moves": 2, "score": 498, "runs_removed": 0, "stock_left": 40,
        "error": {"index": 2, "action": "99>1",
                  "message": "invalid action '99>1': source column 99 does not exist (columns are 1 to 10)"},
    }
    assert replay(Deal.from_code("SP1-S4C-AAAAAAD"), []).to_dict()["error"] is None


@pytest.mark.parametrize("split", [0, 40, 116])
def test_a_log_replayed_in_two_parts_ends_as_in_one(deal, split):
    """replay_board's board, then play_on from it (on a copy), give replay's end."""
    first, board = replay_board(deal, WIN[:split])
    assert first == replay(deal, WIN[:split])
    trial = board.copy()
    rest = play_on(trial, WIN[split:])
    whole = replay(deal, WIN)
    assert (rest.won, rest.moves, rest.score, rest.runs_removed, rest.stock_left) == (
        whole.won, whole.moves, whole.score, whole.runs_removed, whole.stock_left)
    assert rest.played == whole.played[split:] and rest.error is None
    assert board.moves == split and not board.is_won()  # the copy was played on, not the board


def test_play_on_counts_a_refusal_from_its_own_first_action(deal):
    _, board = replay_board(deal, WIN[:10])
    result = play_on(board, [WIN[10], "1>1"])
    assert result.played == (WIN[10],) and result.error is not None and result.error.index == 1
    assert result.moves == 11


def test_a_copy_keeps_the_position_and_undoes_nothing(deal):
    _, board = replay_board(deal, [*WIN[:20], "U", WIN[19]])
    copy = board.copy()
    assert copy.position() == board.position() and copy.stock_left == board.stock_left
    assert board.is_legal(Undo()) and not copy.is_legal(Undo())
    copy.push_notation(WIN[20])
    assert copy.position() != board.position() and board.moves == 20


def test_a_refusal_quotes_the_action_as_read_without_leading_zeros():
    """RULES.md §13.3 Rule reminders: 'F>T' in a message is the action as read, its figures
    without leading zeros or spaces, and F>T/N when a size was named; the log's own token
    is quoted as written."""
    code = "SP1-S4C-AAAAAAD"
    sized = replay(code, " 09>04 1>2/01").error
    assert sized is not None and sized.action == "1>2/01"
    assert sized.message.startswith("cannot play '1>2/1': ")
    plain = replay(code, "9>4 01>02").error
    assert plain is not None and plain.action == "01>02" and plain.message.startswith("cannot play '1>2': ")
