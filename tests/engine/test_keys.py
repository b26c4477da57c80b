"""Zobrist keys: the tables come from SplitMix64 with KEY_SEED, and the key of a known
position is pinned (a "bench signature": an accidental change to the tables, the
card bytes or the key formula shows up here first).

The reference for the numbers is :func:`spider_solver.rules.codes.splitmix64`, the
pure-Python generator that the shuffle uses, not the engine's vectorised copy.
"""

from itertools import islice

import numpy as np
import pytest

from spider_solver.engine.game import Game, card_byte, state_from_board
from spider_solver.engine.keys import DEALT_KEYS, KEY_SEED, ZOBRIST
from spider_solver.engine.position import key_from_scratch, new_position, unpack
from spider_solver.engine.types import CARD_CODES, FACE_DOWN, MAX_COLUMNS, MAX_HEIGHT
from spider_solver.rules import Board, Deal, DealRow, Variant
from spider_solver.rules.codes import splitmix64

CELLS = MAX_COLUMNS * MAX_HEIGHT * CARD_CODES
GAMMA = 0x9E3779B97F4A7C15
MASK64 = (1 << 64) - 1


def nth_output(k: int) -> int:
    """The k-th (0-based) SplitMix64 output from KEY_SEED, by jumping the state."""
    return next(splitmix64((KEY_SEED + k * GAMMA) & MASK64))


def cell(c: int, i: int, b: int) -> int:
    """Draw index of ZOBRIST[c, i, b]: the table is filled in C order."""
    return (c * MAX_HEIGHT + i) * CARD_CODES + b


def test_seed_spells_spider01():
    assert KEY_SEED.to_bytes(8, "big") == b"SPIDER01"


def test_table_shapes_and_types():
    assert ZOBRIST.shape == (MAX_COLUMNS, MAX_HEIGHT, CARD_CODES)
    assert ZOBRIST.dtype == np.uint64
    assert DEALT_KEYS.dtype == np.uint64
    assert DEALT_KEYS.shape == (104,)


def test_first_numbers_are_splitmix64_from_the_seed():
    first = list(islice(splitmix64(KEY_SEED), 6))
    assert [int(x) for x in ZOBRIST[0, 0, :6]] == first
    assert first[0] == 0x3E1BA6845934CEC8
    assert first[1] == 0xB8C3D5F1BF69D1B6


@pytest.mark.parametrize("c, i, b", [(0, 0, 0), (0, 1, 0), (3, 17, 0x21), (9, 103, 127), (5, 0, FACE_DOWN | 0x3D)])
def test_table_cells_follow_the_draw_order(c, i, b):
    assert int(ZOBRIST[c, i, b]) == nth_output(cell(c, i, b))


def test_dealt_keys_come_after_the_card_table():
    assert [int(x) for x in DEALT_KEYS] == [nth_output(CELLS + d) for d in range(104)]


def test_pinned_numbers():
    # Literal values: if these change, every stored key and every bench figure changes.
    assert int(ZOBRIST[9, 103, 127]) == 0xD2BB3C63DBDE3F6D
    assert int(DEALT_KEYS[0]) == 0x09B9D1A3C9366A27
    assert int(DEALT_KEYS[15]) == 0x1133622603316099


def test_all_numbers_distinct():
    numbers = np.concatenate([ZOBRIST.ravel(), DEALT_KEYS])
    assert len(np.unique(numbers)) == len(numbers)


def reference_key(board: Board) -> int:
    """The key from its definition, in plain Python: XOR of one number per card cell
    (column, height, card byte with the face-down bit) and one per deals made."""
    key = nth_output(CELLS + board.dealt)
    for c, column in enumerate(board.columns):
        for i, card in enumerate(column):
            b = card_byte(card) | (FACE_DOWN if i < board.down[c] else 0)
            key ^= nth_output(cell(c, i, b))
    return key


# The bench signature: the key of the initial position of SP1-S4C-AAAAAAD.
BENCH_CODE = "SP1-S4C-AAAAAAD"
BENCH_KEY = 0x01556E462F6A4600


def test_bench_signature():
    game = Game.from_deal(Deal.from_code(BENCH_CODE))
    assert int(game.start_key) == BENCH_KEY
    assert reference_key(Board(Deal.from_code(BENCH_CODE))) == BENCH_KEY


def test_rule_letter_does_not_change_the_key():
    # S4C and S4R are one layout; the rule is not part of a position.
    assert int(Game.from_deal(Deal.from_code("SP1-S4R-AAAAAAD")).start_key) == BENCH_KEY


@pytest.mark.parametrize("code", ["SP1-S1C-AAAAAAD", "SP1-S2C-AAAAABA", "SP1-S4R-7777777"])
def test_key_from_scratch_matches_the_definition(code):
    board = Board(Deal.from_code(code))
    for token in ("D", "D"):  # a few cards face up beyond the first row
        board.push_notation(token)
    state, key = state_from_board(board)
    assert int(key) == reference_key(board)
    pos = new_position()
    unpack(state, pos)
    assert int(key_from_scratch(pos, ZOBRIST, DEALT_KEYS)) == int(key)


def test_face_down_bit_changes_the_key():
    board = Board(Deal.from_code(BENCH_CODE))
    state, key = state_from_board(board)
    pos = new_position()
    unpack(state, pos)
    cols, lens, down, hdr, _ = pos
    down[0] -= 1  # turn the card under the last one of column 1 face up
    turned = key_from_scratch(pos, ZOBRIST, DEALT_KEYS)
    i = int(lens[0]) - 2
    b = int(cols[0, i])
    assert int(turned) == int(key) ^ int(ZOBRIST[0, i, b | FACE_DOWN]) ^ int(ZOBRIST[0, i, b])


# -- the limits of the tables ---------------------------------------------------------------


def test_a_variant_with_many_deals_stays_inside_the_key_table():
    # DEALT_KEYS once had 16 entries and positions after 16 deals read past it.
    # One suit, ranks A-2, ten runs, one column of one card: 19 deals of one card.
    variant = Variant(suits=1, ranks=2, runs=10, columns=1, layout=1)
    assert variant.deals == 19 and len(DEALT_KEYS) >= 104
    deal = Deal(tuple(variant.unshuffled()), variant)
    game = Game.from_deal(deal)  # the engine plays this variant: its keys must be right
    assert int(game.start_key) == reference_key(Board(deal))
    board = Board(deal)
    for _ in range(variant.deals):
        board.push(DealRow())
        # The key is defined for any number of deals: DEALT_KEYS continues the draws.
        assert int(state_from_board(board)[1]) == reference_key(board), f"after {board.dealt} deals"
