"""fair_hint() and fair_game() (spider_solver/analysis/fair.py): the fair hint never reads
a card the player has not seen, is the same on every run, refuses bad input as analyze()
does, and says its chances in words a player reads.

The fairness property (issue 50, point 2): two deals that agree on every card the player
has seen but differ in unseen cards (face down and in the stock) get the same hint and
the same chances, with the same seed, at every position of a log until a card in which
they differ is turned up or dealt. Small variants carry most examples (a hint there takes
milliseconds); the real deals, a few.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_solver.analysis import FairChoice, FairHint, FairOptions, fair_game, fair_hint
from spider_solver.analysis import fair as fair_module
from spider_solver.analysis.fair import fair_hint_without_search
from spider_solver.analysis.summary import chance_words, fair_summary
from spider_solver.errors import InvalidCodeError, InvalidOptionError
from spider_solver.limits import FAIR_ALTERNATIVES, FAIR_LAYOUTS, FAIR_SEED, MAX_FAIR_LAYOUTS, MAX_SEED
from spider_solver.rules import Board, Deal, Variant, replay
from tests.fair_pairs import SIZES, deal_pairs, prefixes, twin, unseen_places

#: Few layouts and alternatives: the contract is the same at any size.
SMALL = {"layouts": 3, "alternatives": 2}
#: The real game's sizes, 1 and 4 suits.
REAL = ({"suits": 1}, {"suits": 4})
#: A position of a small variant where no action is legal: each column a 3 on its 2 and its ace, no stock.
STUCK = Deal.from_columns(["AS 2S 3S", "AS 2S 3S"], [], Variant(suits=1, ranks=3, runs=2, columns=2, layout=6))
PICKS = st.lists(st.integers(0, 10**6), min_size=4, max_size=12)
SEEDS = st.integers(0, MAX_SEED)

#: What a hint says when the planner finds nothing that helps.
STUCK_WORDS = ("No action helps, by what can be seen: no move turns a card up or completes a run, and no deal is left. "
         "The game looks lost.")


def answer(hint: FairHint) -> dict:
    """What a fair hint tells the player: everything but the deal's code and the seconds."""
    plain = hint.to_dict()
    del plain["code"], plain["seconds"]
    return plain


def first_difference(first: Deal, second: Deal, picks, seed: int, **options) -> tuple[list[str], dict, dict] | None:
    """The first log (of :func:`~tests.fair_pairs.prefixes`) after which the fair hints of
    the twins differ, with the two answers; None if they never do."""
    for log in prefixes(first, second, picks):
        a, b = (answer(fair_hint(deal, log, seed=seed, **options)) for deal in (first, second))
        if a != b:
            return log, a, b
    return None


# -- never peeks -------------------------------------------------------------------------


@pytest.mark.usefixtures("fair_hints")
@settings(max_examples=30)
@given(pair=deal_pairs(), picks=PICKS, seed=SEEDS)
def test_twins_get_the_same_fair_hint_until_a_card_they_differ_in_shows(pair, picks, seed):
    assert first_difference(*pair, picks, seed, **SMALL) is None


@pytest.mark.usefixtures("fair_hints")
@settings(max_examples=6)
@given(pair=deal_pairs(REAL), picks=st.lists(st.integers(0, 10**6), max_size=6), seed=SEEDS)
def test_twins_of_the_real_game_get_the_same_fair_hint(pair, picks, seed):
    assert first_difference(*pair, picks, seed, layouts=2, alternatives=1) is None


@pytest.mark.usefixtures("fair_hints")
def test_the_twins_test_catches_a_hint_that_reads_the_order_of_the_unseen_cards(monkeypatch):
    """The property is not vacuous: a bridge that hands the kernels the unseen cards in the
    order they lie (a peek at the face-down cards and the stock) is caught at once."""
    from spider_solver.engine import fair_hint as bridge
    from spider_solver.engine.game import card_byte

    def peeking(board: Board) -> np.ndarray:
        hidden = [card for c, column in enumerate(board.columns) for card in column[:board.down[c]]]
        return np.array([card_byte(card) for card in hidden + list(board.stock)], dtype=np.uint8)

    deal = Deal.from_code("SP1-S2C-AAAAAAD")
    other = twin(deal, list(reversed(range(len(unseen_places(deal))))))
    assert first_difference(deal, other, [], FAIR_SEED, **SMALL) is None
    monkeypatch.setattr(bridge, "unseen_of", peeking)
    assert first_difference(deal, other, [], FAIR_SEED, **SMALL) is not None


# -- the same everywhere -----------------------------------------------------------------


@pytest.mark.usefixtures("fair_hints")
def test_the_same_position_seed_and_options_give_the_same_hint():
    first = fair_hint("SP1-S2C-AAAAAAD", "7>10", **SMALL)
    again = fair_hint(Deal.from_code("SP1-S2C-AAAAAAD"), ["7>10"], FairOptions(**SMALL))
    assert first == again and answer(first) == answer(again)
    assert first.hint == first.choices[0].action and first.chance == first.choices[0].chance


@pytest.mark.usefixtures("fair_hints")
def test_the_seed_chooses_the_layouts():
    answers = {tuple(fair_hint("SP1-S2C-AAAAAAD", "", seed=seed, layouts=3, alternatives=1).choices)
               for seed in range(6)}
    assert len(answers) > 1


@pytest.mark.usefixtures("fair_hints")
def test_the_answer_carries_its_options_and_ranks_its_choices():
    hint = fair_hint("SP1-S2C-AAAAAAD", "7>10", layouts=5, alternatives=2, seed=9)
    assert (hint.layouts, hint.alternatives, hint.seed) == (5, 2, 9)
    assert 2 <= len(hint.choices) <= 3 and all(choice.layouts == 5 for choice in hint.choices)
    others = [c.wins for c in hint.choices[1:]]  # the planner's decision first, then the others by wins
    assert others == sorted(others, reverse=True) and all(0 <= c.chance <= 1 for c in hint.choices)
    board = Board(Deal.from_code("SP1-S2C-AAAAAAD"))
    board.push_notation("7>10")
    legal = {board.notation(action) for action in board.legal_moves()}
    assert {choice.action for choice in hint.choices} <= legal and "D" in {c.action for c in hint.choices}
    assert list(hint.to_dict()) == [spec.name for spec in FairHint.FIELDS]


def test_the_defaults_are_the_limits():
    assert (FairOptions().layouts, FairOptions().alternatives, FairOptions().seed) == (
        FAIR_LAYOUTS, FAIR_ALTERNATIVES, FAIR_SEED)


# -- bad input, and no hint --------------------------------------------------------------


@pytest.mark.parametrize("changes, words", [
    ({"layouts": 0}, "invalid layouts 0: expected a whole number from 1 to 1,024"),
    ({"layouts": MAX_FAIR_LAYOUTS + 1}, "invalid layouts 1025"),
    ({"layouts": 2.0}, "invalid layouts 2.0"),
    ({"layouts": "16"}, "invalid layouts '16'"),
    ({"alternatives": -1}, "invalid alternatives -1: expected a whole number from 0 to 16"),
    ({"alternatives": True}, "invalid alternatives True"),
    ({"seed": -1}, "invalid seed -1"),
    ({"seed": MAX_SEED + 1}, "invalid seed 18446744073709551616"),
])
def test_options_out_of_range_are_refused_by_name(changes, words):
    with pytest.raises(InvalidOptionError, match=words):
        FairOptions(**changes)
    with pytest.raises(InvalidOptionError, match=words):
        fair_hint("SP1-S1C-AAAAAAD", "", **changes)
    with pytest.raises(InvalidOptionError, match=words):
        fair_game("SP1-S1C-AAAAAAD", "", **changes)


def test_numpy_integers_are_taken_as_the_numbers_they_hold():
    options = FairOptions(layouts=np.int64(4), alternatives=np.int32(1), seed=np.uint64(MAX_SEED))
    assert (options.layouts, options.seed) == (4, MAX_SEED) and type(options.seed) is int


def test_the_rules_options_are_checked_as_analyze_checks_them():
    with pytest.raises(ValueError, match="invalid undo limit -1"):
        FairOptions(undo_limit=-1)
    with pytest.raises(ValueError, match="invalid deal_on_empty 'x'"):
        fair_hint("SP1-S1C-AAAAAAD", "", deal_on_empty="x")


def test_a_bad_code_is_refused_as_analyze_refuses_it():
    with pytest.raises(InvalidCodeError):
        fair_hint("SP1-S5C-AAAAAAD")
    with pytest.raises(TypeError, match="not int"):
        fair_hint("SP1-S1C-AAAAAAD", 5)  # type: ignore[arg-type]


def never() -> None:
    raise AssertionError("no engine is needed here")


@pytest.mark.parametrize("log, words", [
    ("9>4 1>2", "cannot play '1>2'"),
    ("9>4 3-5", "invalid action '3-5'"),
])
def test_a_refused_action_gets_no_hint_and_needs_no_engine(log, words):
    hint = fair_hint("SP1-S4C-AAAAAAD", log, before_search=never)
    assert hint.hint is None and hint.chance is None and hint.choices == ()
    assert hint.replay.error is not None and hint.replay.error.index == 1
    assert hint.replay.error.message.startswith(words)
    assert hint.summary == "The game log cannot be analysed: action 2 is refused."


def test_a_won_game_gets_no_hint_and_needs_no_engine():
    deal = Deal.from_columns(["AS", "2S", "3S"], [], Variant(suits=1, ranks=3, runs=1, columns=3, layout=3))
    hint = fair_hint(deal, "1>2 2>3", before_search=never)
    assert hint.replay.won and hint.hint is None and hint.summary == "The game is won."
    assert fair_hint_without_search(deal, "1>2 2>3") == hint


def test_without_search_answers_what_needs_no_engine_and_nothing_else():
    refused = fair_hint_without_search("SP1-S4C-AAAAAAD", "9>4 1>2", layouts=5)
    assert refused == fair_hint("SP1-S4C-AAAAAAD", "9>4 1>2", layouts=5, before_search=never)
    assert refused.layouts == 5 and refused.replay.error is not None
    assert fair_hint_without_search("SP1-S4C-AAAAAAD", "9>4") is None


@pytest.mark.usefixtures("fair_hints")
def test_no_action_left_is_no_hint():
    assert Board(STUCK).legal_moves() == []
    hint = fair_hint(STUCK)
    assert hint.hint is None and hint.choices == () and hint.summary == STUCK_WORDS


# -- words ---------------------------------------------------------------------------------


@pytest.mark.parametrize("wins, chance, words", [
    (0, 0.0, "no win found"), (0, 0.03, "no win found"), (1, 0.06, "about 6%"), (10, 0.625, "about 62%"),
    (16, 1.0, "about 100%"), (1, 0.004, "under 1%"), (16, 0.996, "over 99%"), (16, 0.994, "about 99%"),
])
def test_chances_in_words_never_say_a_bare_0_or_100_the_layouts_do_not_show(wins, chance, words):
    assert chance_words(FairChoice("9>4", wins, 16, chance)) == words


def summary_of(*choices: FairChoice) -> str:
    return FairHint(None, replay("SP1-S4C-AAAAAAD", "9>4"), choices[0].action, choices[0].chance, choices, 16, 3,
                    0).summary


def test_the_summary_gives_the_hint_its_chance_and_the_others():
    choices = (FairChoice("9>4", 10, 16, 0.62), FairChoice("7>3", 8, 16, 0.5), FairChoice("D", 0, 16, 0.02))
    assert summary_of(*choices) == ("About 62% to win from here with 9>4 (move the group that fits from column 9 "
                                    "onto column 4); 7>3 about 50%; D no win found.")
    assert summary_of(choices[0]).startswith("About 62% to win from here with 9>4 (")
    assert fair_summary(FairHint(None, replay("SP1-S4C-AAAAAAD", "9>4"), None, None, (), 16, 3, 0)) == STUCK_WORDS


def test_when_no_layout_is_won_the_summary_says_so_never_a_bare_0():
    text = summary_of(FairChoice("D", 0, 32, 0.01), FairChoice("9>4", 0, 32, 0.0))
    assert text == "No win found in 32 layouts of the unseen cards with D (deal a row from the stock); 9>4 no win found."
    assert "%" not in text


# -- a game played by following fair hints ------------------------------------------------


@pytest.mark.usefixtures("fair_hints")
@pytest.mark.parametrize("size", SIZES)
def test_a_game_follows_the_fair_hint_of_each_position_and_replays_as_it_says(size):
    variant = Variant(**size)
    deck = variant.unshuffled()
    random.Random(str(size)).shuffle(deck)
    deal = Deal(tuple(deck), variant)
    game = fair_game(deal, seed=5, **SMALL)
    assert game.outcome in ("won", "lost")
    assert replay(deal, game.log) == game.replay and game.replay.won == (game.outcome == "won")
    assert list(game.log) == [step.action for step in game.steps]
    for index, step in enumerate(game.steps):
        hint = fair_hint(deal, game.log[:index], seed=5, **SMALL)
        assert (hint.hint, hint.choices[0].wins, hint.choices[0].layouts) == (step.action, step.wins, step.layouts)


@pytest.mark.usefixtures("fair_hints")
def test_a_game_plays_on_from_the_given_log():
    game = fair_game("SP1-S1C-AAAAAAD", "9>4 U 1>8", layouts=2, alternatives=1, on_step=stop_after(2))
    assert game.log[:3] == ("9>4", "U", "1>8") and len(game.steps) == 2 and game.outcome == "interrupted"
    assert game.log[3:] == tuple(step.action for step in game.steps)
    assert replay("SP1-S1C-AAAAAAD", game.log) == game.replay


def stop_after(count: int):
    """An ``on_step`` that presses Ctrl-C once ``count`` actions were played."""
    played = []

    def step(*_) -> None:
        played.append(1)
        if len(played) == count:
            raise KeyboardInterrupt

    return step


@pytest.mark.usefixtures("fair_hints")
def test_ctrl_c_ends_the_game_with_what_was_played():
    game = fair_game("SP1-S4C-AAAAAAD", layouts=2, alternatives=1, on_step=stop_after(3))
    assert game.outcome == "interrupted" and len(game.steps) == 3 and game.summary == "Interrupted after 3 actions."
    assert replay("SP1-S4C-AAAAAAD", game.log) == game.replay


@pytest.mark.usefixtures("fair_hints")
def test_a_game_that_goes_on_too_long_is_called_off(monkeypatch):
    monkeypatch.setattr(fair_module, "MAX_FAIR_GAME_ACTIONS", 4)
    game = fair_game("SP1-S4C-AAAAAAD", "9>4", layouts=2, alternatives=1)
    assert game.outcome == "limit" and len(game.log) == 4 and len(game.steps) == 3


@pytest.mark.usefixtures("fair_hints")
def test_a_game_where_no_action_helps_is_lost():
    game = fair_game(STUCK)
    assert game.outcome == "lost" and game.steps == () and game.summary == (
        "Lost after 0 actions: no action helped any more (nothing turned a card up or completed a run).")


def test_a_refused_log_or_a_won_game_plays_nothing_and_needs_no_engine():
    refused = fair_game("SP1-S4C-AAAAAAD", "9>4 1>2", before_search=never)
    assert refused.outcome is None and refused.steps == () and refused.summary == "The game log cannot be played on: action 2 is refused."
    deal = Deal.from_columns(["AS", "2S", "3S"], [], Variant(suits=1, ranks=3, runs=1, columns=3, layout=3))
    won = fair_game(deal, "1>2 2>3", before_search=never)
    assert won.outcome == "won" and won.steps == () and won.summary == "The game is won."
    assert list(won.to_dict()) == [spec.name for spec in won.FIELDS]


def test_another_action_is_the_hint_only_when_it_won_clearly_more_layouts():
    """Layout by layout (a paired sign test): the layouts the other action won and the
    planner's decision lost must outnumber the others by OVERRULE_Z times the root of both."""
    from spider_solver.engine.fair_hint import OVERRULE_Z, Scored, ranked

    def scored(wins: list[int], overlap: int = 0) -> list[Scored]:
        """Each action wins its first layouts of 16; ``overlap``: the planner's decision
        wins its layouts after the others' first ``overlap``, so they share that many."""
        def ends(w: int, shift: int) -> tuple[tuple[int, int, int], ...]:
            return tuple((1 if shift <= k < shift + w else 0, 0, 0) for k in range(16))
        return [Scored(action, w, 16, 0.0, 0.0, w / 16, i == 0,  # type: ignore[arg-type]
                       ends(w, 0 if i else max(0, overlap)))
                for i, (action, w) in enumerate(zip("abcd", wins, strict=False))]

    assert OVERRULE_Z == 2.0
    # 4 won by c alone against none: 4 >= 2 * sqrt(4); 3 against none is not clear.
    assert [c.action for c in ranked(scored([0, 3, 4, 3]))] == ["c", "b", "d", "a"]
    assert [c.action for c in ranked(scored([0, 3, 3, 1]))] == ["a", "b", "c", "d"]
    # 8 against 3, the planner's 3 among b's 8: b alone won 5, the planner none; 5 >= 2 * sqrt(5).
    assert [c.action for c in ranked(scored([3, 8, 2], overlap=0))] == ["b", "a", "c"]
    # The planner's 3 on layouts 5-7, b's 6 on 0-5: b alone wins 5, a alone 2: 3 < 2 * sqrt(7).
    assert [c.action for c in ranked(scored([3, 6, 2], overlap=5))] == ["a", "b", "c"]
    assert [c.action for c in ranked(scored([0, 0, 0]))] == ["a", "b", "c"]
