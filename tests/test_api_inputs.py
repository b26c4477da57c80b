"""The Python API on input a library user might pass: numpy numbers, wrong types, values
out of range. Each is either taken as the number it is or refused by name with a
documented error; never a deep IndexError or KeyError, never a silent wrong answer.

(The rules engine's own hostile input is in tests/rules/test_hostile_input.py, which
imports no numpy; the numpy cases are here.)
"""

from __future__ import annotations

import numpy as np
import pytest

from spider_solver.catalog import Catalog
from spider_solver.errors import (
    CatalogError,
    InvalidBudgetError,
    InvalidDealError,
    InvalidOptionError,
    InvalidVariantError,
)
from spider_solver.record import SolveRecord
from spider_solver.rules import Board, Card, Deal, Variant, replay
from spider_solver.verify import check_budget, improve_nodes

CODE = "SP1-S4C-AAAAAAD"


# -- numbers ----------------------------------------------------------------------------


def test_numpy_integers_make_game_codes():
    from spider_solver.rules import GameCode

    code = GameCode(np.int64(4), "classic", np.int64(3))
    assert str(code) == "SP1-S4C-AAAAAAD" and type(code.number) is int and type(code.suits) is int


def test_numpy_integers_make_moves():
    from spider_solver.rules import Move

    assert str(Move(np.int64(1), 8, np.int64(2))) == "1>8/2"


def test_numpy_integers_are_the_numbers_they_hold():
    board = Board(CODE, undo_limit=np.int64(5))  # a deque's maxlen takes no numpy int
    board.push_notation("9>4")
    board.push_notation("U")
    assert board.moves == 0 and board.undo_limit == 5 and type(board.undo_limit) is int
    assert replay(CODE, "9>4 U", undo_limit=np.int64(3)) == replay(CODE, "9>4 U", undo_limit=3)
    assert board.face_up(np.int64(9)) == board.face_up(9) and board.movable(np.int32(9)) == 1
    assert board.best_target(np.int64(9)) == board.best_target(9) == 5  # 8♦ onto 9♦
    assert board.best_move(9, np.int64(1)) == board.best_move(9, 1)
    assert board.targets(np.int64(9), np.int64(1)) == [4, 5]
    assert Deal.from_text(Deal.from_code(CODE).text(), suits=np.int64(4)).cards == Deal.from_code(CODE).cards
    check_budget(np.int64(100_000), np.float32(1.5))
    assert improve_nodes(np.int64(4)) == improve_nodes(4)


@pytest.mark.parametrize("column, count", [(True, 1), ("9", 1), (None, 1), (9.0, 1), (9, True), (9, "1"), (11, 1)])
def test_placement_help_answers_nothing_for_what_is_not_a_column_or_count(column, count):
    """RULES.md §13.1 Placement help: [] rather than an error whenever the group cannot move."""
    assert Board(CODE).targets(column, count) == []


def test_budgets_out_of_any_float_are_refused_by_name():
    for seconds in (10**400, -(10**400), float("nan"), "1", np.float64("inf")):
        with pytest.raises(InvalidBudgetError, match="invalid max_seconds"):
            check_budget(1000, seconds)


def test_budgets_of_integers_too_long_to_print_are_refused_by_name():
    with pytest.raises(InvalidBudgetError, match="invalid max_nodes <integer of about 5000 digits>"):
        check_budget(10**4999, None)
    with pytest.raises(InvalidBudgetError, match="invalid max_seconds <integer of about 5000 digits>"):
        check_budget(100, 10**4999)


def test_the_improve_budget_of_a_suit_count_that_does_not_exist_is_refused():
    for suits in (3, "3", None, 4.0):
        with pytest.raises(InvalidVariantError, match="unknown suit count"):
            improve_nodes(suits)


# -- deals -------------------------------------------------------------------------------


def test_a_deal_of_cards_with_float_ranks_is_refused():
    """RULES.md §10 Explicit deals: a deal built directly refuses anything that is not a card of rank 1-13."""
    deal = Deal.from_code(CODE)
    with pytest.raises(InvalidDealError, match="is not a card"):
        Deal(tuple(Card(float(card.rank), card.suit) for card in deal.cards), deal.variant)


def test_a_hand_made_deal_takes_its_stock_as_one_text_and_refuses_a_variant_that_is_not_one():
    variant = Variant(suits=1, ranks=3, runs=2, columns=3, layout=3)
    rows = Deal.from_columns(["3S", "2S", "AS"], ["3S 2S AS"], variant)
    assert Deal.from_columns(["3S", "2S", "AS"], "3S 2S AS", variant) == rows
    with pytest.raises(TypeError, match="variant must be a Variant, not str"):
        Deal.from_columns(["3S", "2S", "AS"], ["3S 2S AS"], "x")  # type: ignore[arg-type]


# -- game logs and flags ----------------------------------------------------------------


@pytest.mark.parametrize("log, kind", [(b"9>4 D", "bytes"), (None, "NoneType"), ({"9>4"}, "set"),
                                       ({"9>4": 1}, "dict"), ([None], "NoneType"), (["9>4", 5], "int")])
def test_a_game_log_of_the_wrong_type_is_refused_by_its_type(log, kind):
    with pytest.raises(TypeError, match=f"not {kind}$"):
        replay(CODE, log)


def test_flags_are_bools():
    from spider_solver.analysis import analyze
    from spider_solver.verify import solve

    with pytest.raises(ValueError, match="invalid find_lost_at 'no': expected True or False"):
        analyze(CODE, "9>4", find_lost_at="no")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="invalid progress 'x': expected True or False"):
        solve(CODE, progress="x")  # type: ignore[arg-type]


# -- the catalog ---------------------------------------------------------------------------


def line_of(length: int) -> SolveRecord:
    """A verified row as the catalog stores it (its line is not replayed: `check` does that)."""
    return SolveRecord(CODE, "verified", ("1>2",) * length, moves=length, score=1300 - length, nodes=1000,
                       seconds=0.5, max_nodes=1_000_000, max_seconds=30.0)


@pytest.fixture
def catalog(tmp_path):
    with Catalog(tmp_path / "catalog.sqlite") as db:
        db.record(line_of(100))
        db.set_grade(CODE, {"difficulty": 2, "difficulty_raw": 30.0, "grader_version": "fair-3"})
        yield db


def test_catalog_filters_are_read_as_the_command_line_reads_them(catalog):
    """A numpy suit count (bound by sqlite3 as a blob) or "Classic" used to match nothing."""
    for filters in ({"suits": np.int64(4)}, {"suits": "4"}, {"rule": "Classic"}, {"rule": "c"},
                    {"status": "Verified"}, {"difficulty": "1-2"}, {"difficulty": 2}, {"difficulty": (2, 3)},
                    {"difficulty": [np.int64(1), np.int64(2)]}):
        assert catalog.count(**filters) == 1, filters
        assert [entry.code for entry in catalog.entries(**filters)] == [CODE]
    assert catalog.count(suits=2) == 0 and catalog.count(difficulty=(3, 5)) == 0
    for filters, error, words in [({"suits": 3}, InvalidVariantError, "unknown suit count 3"),
                                  ({"rule": "spider"}, InvalidVariantError, "unknown rule 'spider'"),
                                  ({"status": "won"}, InvalidOptionError, "unknown status 'won'"),
                                  ({"difficulty": "2-1"}, InvalidOptionError, "empty range"),
                                  ({"difficulty": 6}, InvalidOptionError, "6 is not a grade"),
                                  ({"difficulty": (1, 2, 3)}, InvalidOptionError, "invalid difficulty")]:
        with pytest.raises(error, match=words):
            catalog.count(**filters)


@pytest.mark.parametrize("limit", [0, -1, -5, 2**70, None, "5", True, 2.0])
def test_a_page_size_out_of_range_is_refused(catalog, limit):
    with pytest.raises(InvalidOptionError, match="invalid limit"):
        catalog.page(limit=limit)


def test_a_page_size_may_be_a_numpy_integer(catalog):
    entries, after = catalog.page(limit=np.int64(1))
    assert [entry.code for entry in entries] == [CODE] and after is None


@pytest.mark.parametrize("change, words", [
    ({"moves": 5}, "invalid moves 5 for 'SP1-S4C-AAAAAAD': its line has 100 actions"),
    ({"max_nodes": -5}, "invalid max_nodes -5"),
    ({"max_nodes": None}, "invalid max_nodes None"),
    ({"nodes": -3}, "invalid nodes -3"),
    ({"seconds": "fast"}, "invalid seconds 'fast'"),
    ({"max_seconds": float("inf")}, "invalid max_seconds inf"),
    ({"score": "high"}, "invalid score 'high'"),
    ({"difficulty": 2, "difficulty_raw": "abc", "grader_version": "fair-3"}, "invalid difficulty_raw 'abc'"),
    ({"code": None}, "a result without a game code"),
    ({"score": 10**30}, "invalid score 1000000000000000000000000000000 .* to 9,223,372,036,854,775,807"),
    ({"nodes": 2**63}, "invalid nodes 9223372036854775808"),
])
def test_a_row_that_does_not_hold_together_is_refused_by_name(tmp_path, change, words):
    with Catalog(tmp_path / "catalog.sqlite") as db:
        with pytest.raises(CatalogError, match=words):
            db.record({**line_of(100).to_dict(), **change})
        assert db.get(CODE) is None


def test_numpy_budgets_reach_the_engine_as_python_numbers():
    """check_budget accepted np.int64, and the engine then failed on int.bit_length."""
    from spider_solver.analysis import analyze
    from spider_solver.verify import solve

    assert check_budget(np.int64(5), np.float32(0.5)) == (5, 0.5) and type(check_budget(np.int64(5), None)[0]) is int
    assert solve("SP1-S1C-AAAAAAD", max_nodes=np.int64(100_000), max_seconds=None).nodes <= 100_000
    assert analyze("SP1-S1C-AAAAAAD", "9>4", max_nodes=np.int64(1), max_seconds=None).nodes == 1
