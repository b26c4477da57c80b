"""The action notation D, F>T, F>T/N, U (RULES.md §11 Action notation)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spider_solver.errors import InvalidActionError
from spider_solver.rules.notation import DealRow, Move, Undo, parse_action, parse_actions, split_actions


@pytest.mark.parametrize(
    "text, action",
    [
        ("D", DealRow()),
        ("d", DealRow()),
        ("U", Undo()),
        (" u ", Undo()),
        ("3>7", Move(3, 7)),
        ("10>1", Move(10, 1)),
        ("1>10", Move(1, 10)),
        ("2>5/3", Move(2, 5, 3)),
        ("2>5/13", Move(2, 5, 13)),
        ("02>5", Move(2, 5)),
        ("1>2/01", Move(1, 2, 1)),
        ("\t3>7\n", Move(3, 7)),
    ],
)
def test_parse_action(text, action):
    assert parse_action(text) == action


@pytest.mark.parametrize("text", ["D", "U", "3>7", "10>1", "2>5/3", "4>9/1"])
def test_print_parse_round_trip(text):
    action = parse_action(text)
    assert str(action) == text
    assert eval(repr(action), {"parse_action": parse_action}) == action


@pytest.mark.parametrize(
    "text, words",
    [
        ("3-5", "expected D, U, F>T or F>T/N (for example 3>7 or 2>5/3)"),
        ("D2", "expected D, U, F>T or F>T/N"),
        ("", "expected D, U, F>T or F>T/N"),
        (">4", "expected D, U"),
        ("3>", "expected D, U"),
        ("3>4/", "expected D, U"),
        ("3>4/2/1", "expected D, U"),
        ("3 > 4", "expected D, U"),
        ("-3>4", "expected D, U"),
        ("٣>4", "expected D, U"),  # an Arabic-Indic three is not a column number
        ("0>4", "source column 0 does not exist (columns are 1 to 10)"),
        ("11>3", "source column 11 does not exist (columns are 1 to 10)"),
        ("3>11", "target column 11 does not exist (columns are 1 to 10)"),
        ("3>0", "target column 0 does not exist"),
        ("3>4/0", "a group holds at least 1 card"),
        ("3>4/00", "a group holds at least 1 card"),
        ("3>3/0", "a group holds at least 1 card"),  # checked before the same column
        ("0>0", "source column 0 does not exist"),  # the source first
        ("0>4/0", "source column 0 does not exist"),  # columns before the group's size
        ("0>4/105", "source column 0 does not exist"),
        ("11>4/1000", "source column 11 does not exist"),
        ("D D", "expected D, U"),  # one token at a time
        ("3>3", "source and target are the same column"),
    ],
)
def test_bad_notation_is_refused(text, words):
    with pytest.raises(InvalidActionError) as info:
        parse_action(text)
    message = str(info.value)
    assert message.startswith(f"invalid action {text!r}: ")
    assert words in message


@pytest.mark.parametrize(
    "text, action",
    [
        ("0001>2/0104", Move(1, 2, 104)),  # leading zeros do not count towards the 3 digits
        ("1>" + "0" * 5000 + "3", Move(1, 3)),
        ("2>5/104", Move(2, 5, 104)),  # parses; the board refuses a group larger than its column
    ],
)
def test_numbers_of_up_to_three_digits_after_leading_zeros(text, action):
    assert parse_action(text) == action


def test_a_shrunken_variant_reads_group_sizes_up_to_104_all_the_same():
    """RULES.md §11 Action notation: the size's range is the game's 104 cards, whatever the columns."""
    assert parse_action("1>2/104", columns=3) == Move(1, 2, 104)
    with pytest.raises(InvalidActionError, match="a group of 105 cards is out of range"):
        parse_action("1>2/105", columns=3)


@pytest.mark.parametrize(
    "text, words",
    [
        ("1000>2", "source column 1000 does not exist (columns are 1 to 10)"),
        ("99999999999999999999999>1", "source column 99999999999999999999999 does not exist (columns are 1 to 10)"),
        ("1>" + "9" * 5000, "target column " + "9" * 40 + "... does not exist (columns are 1 to 10)"),
        ("0" * 3000 + "1" + "0" * 4400 + ">2", "source column 1" + "0" * 39 + "... does not exist"),
        ("1>2/105", "a group of 105 cards is out of range (a game has at most 104 cards)"),
        ("1>2/0105", "a group of 105 cards is out of range (a game has at most 104 cards)"),
        ("1>2/999", "a group of 999 cards is out of range (a game has at most 104 cards)"),
        ("1>2/1000", "a group of 1000 cards is out of range (a game has at most 104 cards)"),
        ("3>3/105", "a group of 105 cards is out of range"),  # checked before the same column, as 0 is
        ("1>2/" + "9" * 5000, "a group of " + "9" * 40 + "... cards is out of range"),
        ("1>2/" + "0" * 5000, "a group holds at least 1 card"),
    ],
)
def test_numbers_out_of_range_are_refused_without_converting_them(text, words):
    """More than 3 digits (after leading zeros) is out of range, however many: never an int()
    of thousands of digits (Python refuses more than 4300) or a message that repeats them."""
    with pytest.raises(InvalidActionError) as info:
        parse_action(text)
    message = str(info.value)
    shown = repr(text) if len(text) <= 40 else repr(text[:40]) + "..."
    assert message.startswith(f"invalid action {shown}: ")
    assert words in message
    assert len(message) < 200


def test_column_numbers_follow_the_variant():
    assert parse_action("3>1", columns=3) == Move(3, 1)
    with pytest.raises(InvalidActionError, match=r"target column 4 does not exist \(columns are 1 to 3\)"):
        parse_action("1>4", columns=3)


@given(st.text(alphabet="0123456789>/", min_size=1, max_size=6000))
def test_any_digit_soup_parses_or_is_refused_with_a_short_message(text):
    try:
        action = parse_action(text)
    except InvalidActionError as error:
        assert len(str(error)) < 200
    else:
        assert isinstance(action, Move) and 1 <= action.src <= 10 and 1 <= action.dst <= 10
        assert action.count is None or 1 <= action.count <= 104
        assert action.count is None or 1 <= action.count <= 999


def test_tokens_are_separated_by_spaces_commas_and_new_lines():
    text = " D 3>7,2>5/3\n\nU ,, 10>1\r\n\tD "
    assert split_actions(text) == ["D", "3>7", "2>5/3", "U", "10>1", "D"]
    assert parse_actions(text) == [DealRow(), Move(3, 7), Move(2, 5, 3), Undo(), Move(10, 1), DealRow()]
    assert parse_actions(["D 3>7", "U"]) == [DealRow(), Move(3, 7), Undo()]
    assert split_actions("") == []
    assert split_actions("D\u00a0U\u2003,\u20283>7") == ["D", "U", "3>7"]  # any Unicode white space
    assert split_actions("3 > 4") == ["3", ">", "4"]  # no white space inside a token


actions = st.one_of(
    st.just(DealRow()),
    st.just(Undo()),
    st.builds(
        Move,
        src=st.integers(1, 10),
        dst=st.integers(1, 10),
        count=st.one_of(st.none(), st.integers(1, 104)),
    ).filter(lambda move: move.src != move.dst),
)


@given(st.lists(actions, max_size=30), st.sampled_from([" ", ",", "\n", ", ", " \n "]))
def test_action_lists_round_trip(items, separator):
    text = separator.join(str(action) for action in items)
    assert parse_actions(text) == items
    assert [str(parse_action(token)) for token in split_actions(text)] == [str(a) for a in items]


@given(st.lists(st.text(alphabet=" ,\t\n>/0123456789DUdu", max_size=12), max_size=8))
def test_a_list_log_has_the_tokens_of_its_items_split_one_by_one(items):
    # log_tokens splits a list of texts in one go (joined by a blank); the tokens must be
    # those of each item split on its own, in order.
    from spider_solver.rules.notation import log_tokens

    assert log_tokens(items) == [token for item in items for token in split_actions(item)]


def test_a_list_log_with_an_item_that_is_not_text_is_refused_by_its_type():
    from spider_solver.rules.notation import log_tokens

    with pytest.raises(TypeError, match="not int"):
        log_tokens(["1>2", 3])
