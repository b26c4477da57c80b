"""Hostile input to every parser of the rules engine: huge numbers, huge text, wrong types.

Each parser refuses with its own error class and a short message that quotes at
most a bounded prefix of the input (``spider_solver.errors.quote``), quickly:
never an OverflowError, a ValueError from int() or str() on more than 4300 digits,
or a message as long as the input.
"""

import dataclasses
import re
import time

import pytest

from spider_solver.errors import (
    QUOTE_LIMIT,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidCodeError,
    InvalidDealError,
    InvalidVariantError,
    SpiderError,
    quote,
)
from spider_solver.rules import (
    Board,
    Card,
    Deal,
    GameCode,
    Move,
    Variant,
    parse_action,
    parse_rule,
    parse_suits,
    replay,
)
from spider_solver.rules.codes import decode_deal, encode_deal
from spider_solver.rules.deal import MAX_DECK_TOKENS
from tests.rules.scripted_win import DECK_TEXT, WIN

HUGE = 10**5000  # more digits than Python will print or parse (4300)
LONG = "9" * 100_000

#: Messages stay well under this many characters, whatever the input.
SHORT = 200


@pytest.mark.parametrize(
    "value, shown",
    [
        ("TS", "'TS'"),
        ("x" * QUOTE_LIMIT, repr("x" * QUOTE_LIMIT)),
        ("x" * (QUOTE_LIMIT + 1), repr("x" * QUOTE_LIMIT) + "..."),
        (LONG, repr("9" * QUOTE_LIMIT) + "..."),
        (3, "3"),
        (-5, "-5"),
        (10**39, "1" + "0" * 39),
        (10**40, "1" + "0" * 39 + "..."),
        (-(10**40), "-1" + "0" * 39 + "..."),
        (HUGE, "<integer of about 5001 digits>"),
        (-HUGE, "<negative integer of about 5001 digits>"),
        (None, "None"),
        (4.5, "4.5"),
        (True, "True"),
        (("AS",) * 100, repr(("AS",) * 100)[:QUOTE_LIMIT] + "..."),
    ],
    ids=lambda value: quote(value) if not isinstance(value, tuple) else "tuple",
)
def test_quote_bounds_what_a_message_repeats(value, shown):
    assert quote(value) == shown


def refusal(call, error_class):
    """The message of the refusal; it must come fast and be short."""
    began = time.perf_counter()
    with pytest.raises(error_class) as info:
        call()
    assert time.perf_counter() - began < 1.0
    message = str(info.value)
    assert len(message) < SHORT, message
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    "call, error_class, start",
    [
        (lambda: parse_action("1>2/" + LONG), InvalidActionError, "invalid action '1>2/9999"),
        (lambda: parse_action(LONG + ">1"), InvalidActionError, "invalid action '9999"),
        (lambda: parse_action("x" * 100_000), InvalidActionError, "invalid action 'xxxx"),
        (lambda: Card.parse(LONG + "S"), InvalidCardError, "invalid card '9999"),
        (lambda: Card.parse("A" * 100_000), InvalidCardError, "invalid card 'AAAA"),
        (lambda: Card.parse(None), InvalidCardError, "invalid card None: expected text"),
        (lambda: GameCode.parse("SP1-S4C-" + "A" * 100_000), InvalidCodeError, "invalid game code 'SP1-S4C-AAAA"),
        (lambda: GameCode.parse("S" * 100_000 + "-S4C-AAAAAAA"), InvalidCodeError, "invalid game code 'SSSS"),
        (lambda: GameCode.parse("SP1-" + "S" * 100_000 + "-AAAAAAA"), InvalidCodeError, "invalid game code 'SP1-SSSS"),
        (lambda: GameCode.parse("-" * 100_000), InvalidCodeError, "invalid game code '----"),
        (lambda: GameCode.parse(HUGE), InvalidCodeError, "invalid game code <integer of about 5001 digits>"),
        (lambda: GameCode(4, "classic", HUGE), InvalidCodeError, "invalid deal number <integer of about 5001"),
        (lambda: GameCode(4, "classic", -HUGE), InvalidCodeError, "invalid deal number <negative integer"),
        (lambda: encode_deal(2**35 + 10**45), InvalidCodeError, "invalid deal number 10000"),
        (lambda: decode_deal("A" * 100_000), InvalidCodeError, "invalid deal 'AAAA"),
        (lambda: Deal.from_text("AS " * 1_000_000, 4), InvalidDealError,
         "invalid deal for 4 suits, classic (1000000 cards, expected 104): far too many to be a deck"),
        (lambda: Deal.from_text("A" * 1_000_000, 4), InvalidDealError, "invalid deal: invalid card 'AAAA"),
        (lambda: Deal.from_text(None, 4), InvalidDealError, "invalid deal None: expected the cards as text"),
        (lambda: Deal.from_text("AS", HUGE), InvalidVariantError, "unknown suit count <integer of about 5001 digits>"),
        (lambda: Deal.from_text("AS", LONG), InvalidVariantError, "unknown suit count '9999"),
        (lambda: Deal.from_text("AS", 4, LONG), InvalidVariantError, "unknown rule '9999"),
        (lambda: parse_suits(HUGE), InvalidVariantError, "unknown suit count <integer of about 5001 digits>"),
        (lambda: parse_suits(-(10**50)), InvalidVariantError, "unknown suit count -1000"),
        (lambda: parse_rule(None), InvalidVariantError, "unknown rule None: expected classic (C) or relaxed (R)"),
        (lambda: parse_rule(3), InvalidVariantError, "unknown rule 3: expected"),
        (lambda: Variant(suits=HUGE), InvalidVariantError, "unknown suit count <integer"),
        (lambda: Variant(ranks=HUGE), InvalidVariantError, "invalid ranks <integer"),
        (lambda: Variant(runs=4 * HUGE), InvalidVariantError, "invalid size: <integer"),
        (lambda: Variant(columns=-HUGE), InvalidVariantError, "invalid columns <negative integer"),
        (lambda: Variant(layout=HUGE), InvalidVariantError, "invalid layout <integer"),
        (lambda: Board(Deal.from_code("SP1-S4C-AAAAAAD"), undo_limit=-HUGE), ValueError,
         "invalid undo limit <negative integer of about 5001 digits>"),
    ],
    ids=lambda value: value.__name__ if isinstance(value, type) else quote(value) if isinstance(value, str) else None,
)
def test_parsers_refuse_huge_input_with_their_own_error_and_a_short_message(call, error_class, start):
    message = refusal(call, error_class)
    assert message.startswith(start), message


def test_a_deck_text_of_up_to_twice_a_deck_is_still_read_card_by_card():
    deck = Deal.from_code("SP1-S4C-AAAAAAD").text().split()
    message = refusal(lambda: Deal.from_text(" ".join(deck * 2), 4), InvalidDealError)
    assert len(deck) * 2 == MAX_DECK_TOKENS
    assert message.startswith("invalid deal for 4 suits, classic (208 cards, expected 104): extra ")
    message = refusal(lambda: Deal.from_text(" ".join(deck * 2 + ["AS"]), 4), InvalidDealError)
    assert message.endswith("(209 cards, expected 104): far too many to be a deck")


def test_a_huge_undo_limit_is_no_limit():
    """A limit larger than any history can hold (a deque's maxlen is at most sys.maxsize)."""
    deal = Deal.from_code("SP1-S4C-AAAAAAD")
    board = Board(deal, undo_limit=HUGE)
    for _ in range(5):
        board.push_notation("D")
    for _ in range(5):
        board.pop()
    assert board.position() == Board(deal).position()
    result = replay(deal, ["D"] * 5 + ["U"] * 5, undo_limit=10**30)
    assert (result.error, result.moves, result.stock_left) == (None, 0, 50)


def test_a_huge_token_after_the_win_is_quoted_by_its_prefix():
    result = replay(Deal.from_text(DECK_TEXT, 1), WIN + [LONG])
    assert result.won
    shown = repr("9" * QUOTE_LIMIT) + "..."
    assert result.error.message == f"the game is already won; {shown} comes after the last run left"
    assert result.error.action == LONG  # the data keeps the token; only the message is bounded


# --------------------------------------------------------------------------- #
# Values of the wrong kind from Python callers: a clear error, never a wrong game
# --------------------------------------------------------------------------- #


def test_a_deal_cannot_carry_a_code_of_other_cards_or_another_variant():
    """The code is what a frontend rebuilds the game from: a deal whose code names other
    cards or another rule would have a line verified for one game stored under another's."""
    deal = Deal.from_code("SP1-S2C-AAAAAAD")
    with pytest.raises(InvalidDealError, match="not those of the game code SP1-S2C-AAAAAAD"):
        dataclasses.replace(deal, variant=Variant(2, "relaxed"))
    with pytest.raises(InvalidDealError, match="a deal of its own has code=None"):
        Deal(Deal.from_code("SP1-S2C-AAAAAAE").cards, deal.variant, code=deal.code)
    assert dataclasses.replace(deal, variant=Variant(2, "relaxed"), code=None).code is None
    assert dataclasses.replace(deal) == deal


@pytest.mark.parametrize("given", ["SP1-S1C-AAAAAAD", GameCode.parse("SP1-S1C-AAAAAAD")])
def test_board_and_replay_take_a_game_code_as_solve_does(given):
    deal = Deal.from_code("SP1-S1C-AAAAAAD")
    assert Deal.of(given) == deal and Deal.of(deal) is deal
    assert Board(given).deal == deal
    assert replay(given, "D").moves == replay(deal, "D").moves == 1


@pytest.mark.parametrize("given", [None, 3, b"SP1-S1C-AAAAAAD", ["SP1-S1C-AAAAAAD"]])
def test_a_deal_of_another_type_is_a_type_error_that_says_so(given):
    with pytest.raises(TypeError, match=f"expected a Deal, a GameCode or a game code string, not {type(given).__name__}"):
        Board(given)
    with pytest.raises(TypeError, match="not "):
        Deal.from_code(given)


@pytest.mark.parametrize("make, words", [
    (lambda: Variant(suits=True), "invalid suits True: expected a whole number"),
    (lambda: Variant(suits=4.0), "invalid suits 4.0: expected a whole number"),
    (lambda: Variant(columns=10.0), "invalid columns 10.0: expected a whole number"),
    (lambda: GameCode(4.0, "classic", 3), "invalid suits 4.0"),
    (lambda: GameCode(4, "classic", True), "invalid deal number True: expected a whole number"),
    (lambda: GameCode(4, "classic", 3.0), "invalid deal number 3.0"),
])
def test_counts_must_be_whole_numbers(make, words):
    """4.0 == 4 and True == 1: taken as they were, they printed as codes that do not parse."""
    with pytest.raises(SpiderError, match=re.escape(words)):
        make()


@pytest.mark.parametrize("options, words", [
    ({"undo_limit": -1}, "invalid undo limit -1"),
    ({"undo_limit": "x"}, "invalid undo limit 'x'"),
    ({"undo_limit": 1.5}, "invalid undo limit 1.5"),
    ({"undo_limit": True}, "invalid undo limit True"),
    ({"deal_on_empty": "no"}, "invalid deal_on_empty 'no': expected True or False"),
    ({"deal_on_empty": None}, "invalid deal_on_empty None"),
])
def test_play_options_are_checked_before_any_action(options, words):
    """A log without an undo needs no history, and was replayed whatever the limit said."""
    deal = Deal.from_code("SP1-S1C-AAAAAAD")
    for call in (lambda: replay(deal, "D", **options), lambda: Board(deal, **options)):
        with pytest.raises(ValueError, match=re.escape(words)):
            call()


@pytest.mark.parametrize("make, words", [
    (lambda: Move(True, 8), "invalid move: src is True, expected a whole number"),
    (lambda: Move(1, 8.0), "invalid move: dst is 8.0"),
    (lambda: Move(1, 2, 1.5), "invalid move: count is 1.5"),  # was "face-down cards cannot be moved"
])
def test_a_move_is_of_whole_numbers(make, words):
    with pytest.raises(InvalidActionError, match=re.escape(words)):
        make()


@pytest.mark.parametrize("given", [None, 3, b"D", ["D"]])
def test_parse_action_of_a_non_string_says_what_an_action_is(given):
    with pytest.raises(TypeError, match=f"an action is text in notation .*, not {type(given).__name__}"):
        parse_action(given)


@pytest.mark.parametrize("method", ["push", "check", "is_legal", "notation", "play"])
def test_board_methods_taking_an_action_refuse_text_with_a_pointer(method):
    board = Board(Deal.from_code("SP1-S1C-AAAAAAD"))
    with pytest.raises(TypeError, match="an action is a Move, DealRow or Undo, not str .*push_notation plays text"):
        getattr(board, method)("1>2")
    assert board.moves == 0


@pytest.mark.parametrize("columns", [0, 11, True, 2.0])
def test_parse_action_refuses_a_column_count_no_game_has(columns):
    with pytest.raises(ValueError, match=re.escape(f"invalid columns {columns!r}: a game has 1 to 10 columns")):
        parse_action("1>5", columns=columns)


HUGE = 10**5000  # more digits than Python prints


@pytest.mark.parametrize(
    "move, message",
    [
        (Move(10**50, 2), "cannot play '1" + "0" * 39 + "'...: source column 1" + "0" * 39
         + "... does not exist (columns are 1 to 10)"),
        (Move(1, 2, 10**50), "cannot play '1>2/1" + "0" * 35 + "'...: column 1 holds only 6 cards"),
        (Move(1, 2, -(10**50)), "cannot play '1>2/-1" + "0" * 34 + "'...: a group holds at least 1 card"),
        (Move(HUGE, 1), "cannot play '<integer of about 5001 digits>>1': source column <integer of about 5001 "
         "digits> does not exist (columns are 1 to 10)"),
        (Move(1, 2, HUGE), "cannot play '1>2/<integer of about 5001 digits>': column 1 holds only 6 cards"),
    ],
)
def test_the_board_quotes_a_refused_move_by_a_bounded_prefix(move, message):
    """RULES.md §1 Conventions: a move's message quotes at most 40 characters of it, and
    a board asked about a number Python will not print still answers."""
    board = Board("SP1-S4C-AAAAAAD")
    with pytest.raises(IllegalActionError) as info:
        board.check(move)
    assert str(info.value) == message
    assert not board.is_legal(move)


def test_board_helpers_answer_huge_columns_and_counts_with_short_messages():
    board = Board("SP1-S4C-AAAAAAD")
    assert board.targets(HUGE, 1) == [] and board.targets(1, HUGE) == [] and board.targets(10**50, 1) == []
    for call, start in [
        (lambda: board.face_up(10**50), "invalid column 1" + "0" * 39 + "...: columns are numbered 1 to 10"),
        (lambda: board.face_up("x" * 100), "invalid column '" + "x" * 40 + "'...: columns are numbered"),
        (lambda: board.face_up(HUGE), "invalid column <integer of about 5001 digits>"),
        (lambda: board.best_move(1, 10**50), "invalid count 1" + "0" * 39 + "...: column 1 holds 6 cards"),
        (lambda: board.best_move(1, HUGE), "invalid count <integer of about 5001 digits>: column 1 holds 6 cards"),
    ]:
        with pytest.raises(ValueError) as info:
            call()
        assert str(info.value).startswith(start) and len(str(info.value)) < 120
