"""The fair player and the grades: the visibility rule, determinism, the calibration artifact."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from spider_solver.grading import (
    GRADER_VERSION,
    GRADES,
    InvalidGradeError,
    grade,
    grade_of,
    load_boundaries,
    play,
    variant_key,
)
from spider_solver.rules import Board, Deal, DealRow, Variant

pytestmark = pytest.mark.usefixtures("engine")

ROOT = Path(__file__).resolve().parents[1]
CALIBRATION = json.loads((ROOT / "data" / "difficulty-calibration.json").read_text(encoding="utf-8"))
SHIPPED = json.loads((ROOT / "spider_solver" / "difficulty.json").read_text(encoding="utf-8"))


def hidden_twin(deal: Deal) -> Deal:
    """The same deal with two face-down cards swapped between columns 1 and 2 (the first to
    turn up there, if they differ) and the stock rotated by a row: every card a person sees
    at the start is the same."""
    columns = deal.columns()
    stock = deal.stock()
    n = deal.variant.columns
    rows = [stock[i:i + n] for i in range(0, len(stock), n)]
    a, b = next((i, j) for i in reversed(range(len(columns[0]) - 1)) for j in reversed(range(len(columns[1]) - 1))
                if columns[0][i] != columns[1][j])
    columns[0][a], columns[1][b] = columns[1][b], columns[0][a]
    return Deal.from_columns(columns, rows[1:] + rows[:1], deal.variant)


def until_hidden_matters(deal: Deal, moves: np.ndarray, game) -> int:
    """How many of a game's first actions were chosen before any hidden card could matter:
    up to and including the first action that turns a card up or deals."""
    board = Board(deal)
    for i, move in enumerate(int(m) for m in moves if m >= 0):
        action = game.action(move)
        down = sum(board.down)
        board.push(action)
        if isinstance(action, DealRow) or sum(board.down) < down:
            return i + 1
    return int((moves >= 0).sum())


@pytest.mark.parametrize("code", ["SP1-S4C-AAAAAAD", "SP1-S2C-AAAAABA", "SP1-S1C-AAAAAAB", "SP1-S4R-AAAAAAH"])
def test_the_player_decides_on_visible_cards_only(code):
    from spider_solver.engine.game import Game

    deal = Deal.from_code(code)
    twin = hidden_twin(deal)
    assert deal.cards != twin.cards
    seeds = np.arange(1, 13, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    _, moves = play(deal, seeds=seeds, trace=300)
    _, twin_moves = play(twin, seeds=seeds, trace=300)
    game = Game.from_deal(deal)
    compared = 0
    for g in range(len(seeds)):
        k = until_hidden_matters(deal, moves[g], game)
        assert k == until_hidden_matters(twin, twin_moves[g], game)
        assert list(moves[g, :k]) == list(twin_moves[g, :k])
        compared += k
    assert compared >= len(seeds)  # each game made at least one decision before a hidden card showed


@pytest.mark.parametrize(("code", "deal_on_empty"), [
    ("SP1-S4C-AAAAAAD", False), ("SP1-S4R-AAAAAAH", False), ("SP1-S2C-AAAAABA", False), ("SP1-S2R-AAAAAAC", False),
    ("SP1-S1C-AAAAAAB", False), ("SP1-S4C-AAAAAAF", True), ("SP1-S2R-AAAAAAE", True), ("SP1-S1C-AAAAAAG", True),
])
def test_the_fast_kernel_plays_exactly_as_the_reference(code, deal_on_empty):
    """The kernel values moves and follow-ups without playing them all out (issue 11, point
    4); it must play every game exactly as the kernel it replaced (tests/fair_reference.py):
    the same figures and the same actions, here and through ``grading.play``."""
    from tests.fair_reference import play_both

    deal = Deal.from_code(code)
    (old, old_moves), (new, new_moves) = play_both(deal, games=24, trace=600, deal_on_empty=deal_on_empty)
    assert (old == new).all() and (old_moves == new_moves).all()
    figures, moves = play(deal, games=24, trace=600, deal_on_empty=deal_on_empty)
    assert (moves == old_moves).all() and (figures.won == old[:, 0]).all() and (figures.actions == old[:, 4]).all()


@pytest.mark.parametrize(("lookahead", "mode"), [(0, 1), (1, 1), (2, 0), (1, 0)])
def test_the_fast_kernel_matches_the_reference_under_other_parameters(lookahead, mode):
    """Parameters the grader does not use at 2 and 4 suits (look-ahead 0 or 1, MODE_ALL moves) too."""
    from spider_solver.engine.fair import FAIR_PARAMS, P_LOOKAHEAD, P_MODE
    from tests.fair_reference import play_both

    params = FAIR_PARAMS.copy()
    params[P_LOOKAHEAD] = lookahead
    params[P_MODE] = mode
    for code, deal_on_empty in (("SP1-S4C-AAAAAAD", False), ("SP1-S2R-AAAAABA", True)):
        (old, old_moves), (new, new_moves) = play_both(Deal.from_code(code), games=12, trace=600,
                                                       deal_on_empty=deal_on_empty, params=params)
        assert (old == new).all() and (old_moves == new_moves).all()


def test_the_one_suit_player_has_parameters_of_its_own():
    """fair-6: in the standard 1-suit game the fair player looks no move ahead and values a
    face-down card at 20; at 2 and 4 suits, and in shrunken variants, it plays as before,
    and ``grading.play`` plays with what ``player_of`` gives."""
    from spider_solver.engine.fair import FAIR_PARAMS, FAIR_WEIGHTS, ONE_SUIT_PARAMS, ONE_SUIT_WEIGHTS, P_LOOKAHEAD
    from spider_solver.engine.fair_cost import FW_DOWN
    from spider_solver.grading import player_of

    assert ONE_SUIT_PARAMS[P_LOOKAHEAD] == 0 and ONE_SUIT_WEIGHTS[FW_DOWN] == 20
    one = Deal.from_code("SP1-S1C-AAAAAAB")
    weights, params = player_of(one.variant)
    assert weights is ONE_SUIT_WEIGHTS and params is ONE_SUIT_PARAMS
    for variant in (Variant(suits=2), Variant(suits=4), Variant(suits=1, ranks=3, runs=2, columns=3, layout=3)):
        weights, params = player_of(variant)
        assert weights is FAIR_WEIGHTS and params is FAIR_PARAMS
    _, moves = play(one, games=8, trace=600)
    for player, same in (((ONE_SUIT_WEIGHTS, ONE_SUIT_PARAMS), True), ((FAIR_WEIGHTS, FAIR_PARAMS), False)):
        _, trace = play(one, games=8, trace=600, player=player)
        assert bool((trace == moves).all()) is same


def test_masked_card_is_never_read():
    from spider_solver.engine.fair import FAIR_WEIGHTS, visible_cost
    from spider_solver.engine.position import new_position

    pos = new_position()
    cols, lens, down, _, _ = pos
    lens[0], down[0] = 6, 2
    cols[0, :6] = [0x05, 0x36, 0x2C, 0x1B, 0x1A, 0x09]
    cost = visible_cost(pos, 0, 1, FAIR_WEIGHTS)
    for hidden in ([0x01, 0x01, 0x01], [0x3D, 0x2D, 0x1D]):
        cols[0, :3] = hidden
        assert visible_cost(pos, 0, 1, FAIR_WEIGHTS) == cost
    # Unmasked, that card counts: the column reads differently.
    assert visible_cost(pos, 0, 0, FAIR_WEIGHTS) != cost


def test_same_seed_same_figures_other_seed_other_games():
    deal = Deal.from_code("SP1-S4C-AAAAAAD")
    a, moves_a = play(deal, games=16, trace=50)
    b, moves_b = play(deal, games=16, trace=50)
    c, moves_c = play(deal, games=16, trace=50, seed=12345)
    assert a.raw() == b.raw() and (moves_a == moves_b).all()
    assert not (moves_a == moves_c).all()
    assert len({tuple(row) for row in moves_a}) > 1  # the games differ from one another


@pytest.mark.parametrize("code", ["SP1-S1C-AAAAAAD", "SP1-S2C-AAAAAAD", "SP1-S4C-AAAAAAD"])
def test_the_figure_is_the_mean_progress_at_every_suit_count(code):
    """The raw figure is 100 * (1 - mean progress) at 1, 2 and 4 suits (since fair-5: the
    1-suit figure of fair-4, the share of games not close to a win, is gone)."""
    played, _ = play(Deal.from_code(code), games=24)
    assert abs(played.raw() - 100 * (1 - float(np.mean(played.progress())))) <= 0.0051


def test_grade_is_deterministic_and_in_range():
    first, second = grade("SP1-S4C-AAAAAAD"), grade("SP1-S4C-AAAAAAD")
    assert first.grade == second.grade and first.raw == second.raw
    assert first.grade in GRADES and 0 <= first.raw <= 100 and first.version == GRADER_VERSION
    assert first.to_dict() == {"difficulty": first.grade, "difficulty_raw": first.raw, "grader_version": GRADER_VERSION}


def test_boundaries_are_monotone_and_of_this_version():
    data = load_boundaries()
    assert data["version"] == GRADER_VERSION
    for cuts in data["boundaries"].values():
        assert len(cuts) == 4 and all(a < b for a, b in zip(cuts, cuts[1:], strict=False))
    cuts = data["boundaries"]["4-classic"]
    four = Variant(suits=4)
    assert [grade_of(x, four) for x in (0.0, cuts[0], cuts[0] + 0.01, cuts[3], cuts[3] + 0.01, 100.0)] == [
        1, 1, 2, 4, 5, 5]
    grades = [grade_of(x / 4, four) for x in range(401)]
    assert grades == sorted(grades)


def test_no_grade_for_a_shrunken_variant():
    with pytest.raises(InvalidGradeError, match="standard game only"):
        grade_of(50.0, Variant(suits=1, ranks=3, runs=2, columns=3, layout=3))


def test_the_shipped_boundaries_follow_from_the_calibration():
    assert CALIBRATION["version"] == SHIPPED["version"] == GRADER_VERSION
    assert SHIPPED["seed"] == CALIBRATION["seed"]
    for key, data in CALIBRATION["variants"].items():
        assert SHIPPED["boundaries"][key] == data["boundaries"]
        raws = np.array(data["raw"])
        assert len(raws) == data["deals"][1] - data["deals"][0] + 1
        assert data["deals"][0] >= 20000  # outside the reporting (0-199) and tuning (10000-10199) sets
        expected = [round(float(q), 2) for q in np.quantile(raws, (0.2, 0.4, 0.6, 0.8))]
        assert np.allclose(data["boundaries"], expected, atol=0.05)
        shares = [data["grades"][str(g)]["share"] for g in GRADES]
        assert all(0.15 <= share <= 0.25 for share in shares), (key, shares)


def recompute(key: str, index: int) -> tuple[float, float]:
    from spider_solver.rules import GameCode

    data = CALIBRATION["variants"][key]
    suits, rule = int(key.split("-")[0]), key.split("-")[1]
    figures, _ = play(Deal.from_code(GameCode(suits, rule, data["deals"][0] + index)), seed=CALIBRATION["seed"])
    return figures.raw(), data["raw"][index]


def test_a_calibration_figure_recomputes():
    assert recompute("4-classic", 0)[0] == recompute("4-classic", 0)[1]


@pytest.mark.slow
@pytest.mark.parametrize("key", list(CALIBRATION["variants"]))
def test_calibration_figures_recompute(key):
    for index in (1, 2):
        got, stored = recompute(key, index)
        assert got == stored


def test_variant_keys():
    assert variant_key(1, "relaxed") == "1-classic" and variant_key(4, "relaxed") == "4-relaxed"


def test_grade_checks_its_options_and_two_grades_of_a_deal_are_equal():
    """deal_on_empty=1 was taken as True and "yes" failed inside the engine; seconds made
    two grades of the same deal unequal."""
    code = "SP1-S1C-AAAAAAD"
    first = grade(code)
    assert first == grade(code) and grade(code, seed=np.int64(7)) == grade(code, seed=7)
    for options, words in [({"deal_on_empty": 1}, "invalid deal_on_empty 1"),
                           ({"deal_on_empty": "yes"}, "invalid deal_on_empty 'yes'"),
                           ({"seed": None}, "invalid seed None"), ({"seed": 1.5}, "invalid seed 1.5"),
                           ({"seed": -1}, r"invalid seed -1: expected a whole number from 0 to 2\*\*64 - 1"),
                           ({"seed": 2**64}, "invalid seed 18446744073709551616")]:
        with pytest.raises(ValueError, match=words):
            grade(code, **options)


def pinned_sample() -> list[dict]:
    """Three deals a suit count of ``tests/fixtures/grades-0-199.json`` (the first, a middle
    one, the last of each)."""
    from benchmarks.pinned_grades import load_pinned

    rows = load_pinned()
    by_suits: dict[str, list[dict]] = {}
    for row in rows:
        by_suits.setdefault(row["code"][:6], []).append(row)
    return [group[i] for group in by_suits.values() for i in (0, len(group) // 2, -1)]


@pytest.mark.parametrize("pinned", pinned_sample(), ids=lambda row: row["code"])
def test_a_pinned_grade_regrades_the_same(pinned):
    """The grades and the fair player's figures and actions of deals pinned in
    ``tests/fixtures/grades-0-199.json`` (``benchmarks/pinned_grades.py --check``
    re-grades all 600): a change to the player that keeps ``GRADER_VERSION`` keeps them."""
    from benchmarks.pinned_grades import figures_of

    assert figures_of(pinned["code"])[0] == pinned
