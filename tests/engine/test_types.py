"""The vocabulary in engine/types.py: the packed state's fields follow each other and
fit, bit fields do not overlap, and the helpers invert each other.

``types.py`` asserts the same at import; these checks also run under ``python -O``.
"""

from __future__ import annotations

import pytest

from spider_solver.engine import types as t
from spider_solver.engine.game import byte_card, card_byte
from spider_solver.rules import Card

#: (offset, size) of each field of the packed state, in order.
STATE_FIELDS = [
    (t.OFF_CARDS, t.CARD_CELLS),
    (t.OFF_LENS, t.LENS_BYTES),
    (t.OFF_DEALT, 1),
    (t.OFF_REMOVED, 1),
    (t.OFF_RESERVED, t.STATE_BYTES - t.OFF_RESERVED),
]


def test_state_fields_follow_each_other_and_fit():
    assert STATE_FIELDS[0][0] == 0
    for (offset, size), (next_offset, _) in zip(STATE_FIELDS, STATE_FIELDS[1:], strict=False):
        assert next_offset == offset + size
    last_offset, last_size = STATE_FIELDS[-1]
    assert last_size >= 0 and last_offset + last_size == t.STATE_BYTES == 128
    assert t.CARD_CELLS >= t.MAX_CARDS and t.LENS_BYTES >= t.MAX_COLUMNS


def test_one_byte_fields_hold_their_largest_values():
    assert t.MAX_HEIGHT <= 255 and t.MAX_DEALS <= 255


def bits(mask: int) -> set[int]:
    return {i for i in range(64) if mask >> i & 1}


def test_card_byte_fields_are_disjoint():
    rank = bits(t.RANK_MASK)
    suit = bits(t.SUIT_MASK << t.SUIT_SHIFT)
    face_down = bits(t.FACE_DOWN)
    assert rank == {0, 1, 2, 3} and suit == {4, 5} and face_down == {6}
    assert t.FACE_UP_MASK == t.RANK_MASK | t.SUIT_MASK << t.SUIT_SHIFT
    assert t.CARD_CODES == 128


def test_move_code_fields_are_disjoint():
    src = bits(t.COLUMN_MASK)
    dst = bits(t.COLUMN_MASK << t.MOVE_DST_SHIFT)
    count = bits(t.COUNT_MASK << t.MOVE_COUNT_SHIFT)
    assert not (src & dst or src & count or dst & count)
    assert src | dst | count <= bits(t.MOVE_MASK)
    assert min(bits(1 << t.CLASS_SHIFT)) > max(bits(t.MOVE_MASK))


def test_undo_fields_are_disjoint():
    removed = set().union(*(bits(t.undo_removed(c)) for c in range(t.MAX_COLUMNS)))
    turned = set().union(*(bits(t.undo_turned(c)) for c in range(t.MAX_COLUMNS)))
    suits = set().union(*(bits(t.undo_suit(t.SUIT_MASK, c)) for c in range(t.MAX_COLUMNS)))
    assert removed == bits(t.UNDO_REMOVED_MASK)
    assert not (removed & turned or removed & suits or turned & suits)
    assert max(suits) < 63


@pytest.mark.parametrize("suit", range(4))
def test_card_helpers_invert_each_other(suit):
    for rank in range(1, 14):
        b = t.make_card(rank, suit)
        assert b == card_byte(Card(rank, suit))
        assert (t.rank_of(b), t.suit_of(b)) == (rank, suit)
        assert (t.rank_of(b | t.FACE_DOWN), t.suit_of(b | t.FACE_DOWN)) == (rank, suit)
        assert byte_card(b | t.FACE_DOWN) == Card(rank, suit)
        assert t.same_suit(b, t.make_card(1, suit)) and not t.same_suit(b, t.make_card(rank, (suit + 1) % 4))


def test_move_helpers_invert_each_other():
    for src in range(t.MAX_COLUMNS):
        for dst in range(t.MAX_COLUMNS):
            for count in (1, 2, 13, t.MAX_HEIGHT):
                move = t.encode_move(src, dst, count)
                assert move != t.MOVE_DEAL
                assert t.decode_move(move) == (src, dst, count)
                for klass in (t.CLASS_PLAIN, t.CLASS_SPLIT, t.CLASS_SPLIT_EMPTY, t.CLASS_LATERAL):
                    classed = t.with_class(move, klass)
                    assert t.move_class(classed) == klass and t.plain_move(classed) == move


def test_undo_suit_reads_back():
    info = 0
    for c in range(t.MAX_COLUMNS):
        info |= t.undo_suit(c % 4, c)
    assert [t.undone_suit(info, c) for c in range(t.MAX_COLUMNS)] == [c % 4 for c in range(t.MAX_COLUMNS)]


def test_order_key_sorts_by_stratum_then_score():
    scores = (-t.SCORE_BIAS, -1, 0, 1, t.SCORE_BIAS - 1)
    keys = [t.order_key(s, v) for s in range(t.MAX_STRATA) for v in scores]
    assert keys == sorted(keys) and len(set(keys)) == len(keys) and min(keys) >= 0


def test_strata_masks():
    assert t.strata_below(t.MAX_STRATA) == (1 << 63) - 1
    for s in range(t.MAX_STRATA):
        assert t.in_strata(t.strata_below(t.MAX_STRATA), s) == 1
        assert t.in_strata(t.stratum_bit(s), s) == 1 and t.in_strata(t.stratum_bit(s), s - 1 if s else 1) == 0
