"""The search's cheaper node equals the played moves, after random lines.

``node.load_parent`` reads a packed state once and keeps, per column, the
evaluation's terms and the move generator's summary; ``node.child`` gives a move's
key and score from them without playing it. On random lines of real deals (all suit
counts, both rules) and of shrunken variants (where runs are completed, columns
emptied and games won often), at every position:

* ``load_parent`` unpacks exactly what ``unpack`` does, and its evaluation and
  per-column costs are ``evaluate``'s;
* ``gen_moves_of`` with its summary lists exactly what ``gen_moves`` lists, in
  both modes;
* ``pack_child`` packs the position every move that ``child`` scores makes, as
  ``do_move`` and ``pack`` do, and refuses the others;
* for every legal move, the key and score that ``child`` gives (or, for the moves it
  leaves to be played, those ``played_score`` gives after ``do_move``) equal the
  key from scratch and ``evaluate`` of the position the move makes, and ``child``
  leaves to be played exactly the deal and the moves that remove a run.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_solver.engine.evaluate import DEFAULT_WEIGHTS, WEIGHTS_SIZE, evaluate
from spider_solver.engine.game import Game
from spider_solver.engine.movegen import gen_moves, gen_moves_of
from spider_solver.engine.node import (
    SUM_FIRST_EMPTY,
    SUM_GROUPS,
    SUM_TOPS,
    children_check,
    load_parent,
    new_parent,
    pack_child,
)
from spider_solver.engine.position import do_move, key_from_scratch, new_position, pack, undo_move, unpack
from spider_solver.engine.types import (
    H_REMOVED,
    MAX_COLUMNS,
    MAX_MOVES,
    MODE_ALL,
    MODE_SEARCH,
    MOVE_DEAL,
    STATE_BYTES,
)
from spider_solver.rules import Deal, GameCode, Variant
from spider_solver.rules.codes import MAX_DEAL
from spider_solver.rules.variant import CLASSIC, RELAXED

from .test_parity import examples, tiny_deals


def check_position(game: Game, pos, weights: np.ndarray) -> list[int]:
    """Every check at one position; return its MODE_ALL moves."""
    state = np.zeros(STATE_BYTES, dtype=np.uint8)
    pack(pos, state)
    vp = game.vp
    # load_parent unpacks as unpack does and evaluates as evaluate does.
    ref = new_position()
    unpack(state, ref)
    mine = new_position()
    par = new_parent()
    total = load_parent(state, mine, vp, weights, par)
    for c in range(MAX_COLUMNS):
        n = int(ref.lens[c])
        assert int(mine.lens[c]) == n and int(mine.down[c]) == int(ref.down[c])
        assert mine.cols[c, :n].tobytes() == ref.cols[c, :n].tobytes()
    assert mine.hdr.tolist() == ref.hdr.tolist()
    costs = np.zeros(MAX_COLUMNS, dtype=np.int64)
    assert total == evaluate(ref, weights, costs)
    assert par.costs.tolist() == costs.tolist()
    mine.key[0] = pos.key[0]
    # The move generator's summary gives gen_moves' lists.
    summary = par.summary
    lists = {}
    for mode in (MODE_ALL, MODE_SEARCH):
        expected = np.zeros(MAX_MOVES, dtype=np.int64)
        n = gen_moves(ref, vp, mode, expected)
        got = np.zeros(MAX_MOVES, dtype=np.int64)
        m = gen_moves_of(mine, vp, mode, got, summary[SUM_TOPS], summary[SUM_GROUPS], summary[SUM_FIRST_EMPTY])
        assert got[:m].tolist() == expected[:n].tolist()
        lists[mode] = expected[:n].tolist()
    # Each child's key and score are those of the played move.
    moves = np.array(lists[MODE_ALL], dtype=np.int64)
    count = len(moves)
    played = np.zeros(max(count, 1), dtype=np.bool_)
    keys = np.zeros(max(count, 1), dtype=np.uint64)
    scores = np.zeros(max(count, 1), dtype=np.int64)
    before = state.copy()
    children_check(mine, game.tables, par, weights, moves, count, (played, keys, scores))
    after = np.zeros(STATE_BYTES, dtype=np.uint8)
    pack(mine, after)
    assert after.tobytes() == before.tobytes() and int(mine.key[0]) == int(pos.key[0])
    child_state = np.zeros(STATE_BYTES, dtype=np.uint8)
    for j, move in enumerate(lists[MODE_ALL]):
        removed = int(pos.hdr[H_REMOVED])
        packed = bool(pack_child(state, game.tables, move, child_state))
        info = do_move(pos, game.tables, move)
        if packed:
            expected_state = np.zeros(STATE_BYTES, dtype=np.uint8)
            pack(pos, expected_state)
            assert child_state.tobytes() == expected_state.tobytes(), f"pack_child of move {move:#x}"
        assert packed == (not played[j])
        assert int(keys[j]) == int(pos.key[0]) == int(key_from_scratch(pos, game.zobrist, game.dealt_keys))
        assert int(scores[j]) == int(evaluate(pos, weights, costs)), f"score of move {move:#x}"
        assert bool(played[j]) == (int(pos.hdr[H_REMOVED]) != removed)
        undo_move(pos, game.tables, move, info)
    return lists[MODE_ALL]


def walk(deal: Deal, deal_on_empty: bool, picks: list[int], weights: np.ndarray) -> None:
    game = Game.from_deal(deal, deal_on_empty=deal_on_empty)
    pos = new_position()
    unpack(game.start, pos)
    pos.key[0] = game.start_key
    for pick in picks:
        moves = check_position(game, pos, weights)
        if not moves:
            return
        # Prefer moves over the deal, so that columns grow long and empty out.
        plain = [m for m in moves if m != MOVE_DEAL] if pick % 4 else moves
        do_move(pos, game.tables, (plain or moves)[pick % len(plain or moves)])
    check_position(game, pos, weights)


@st.composite
def real_deals(draw):
    suits = draw(st.sampled_from([1, 2, 4]))
    rule = draw(st.sampled_from([CLASSIC, RELAXED]))
    return Deal.from_code(GameCode(suits, rule, draw(st.integers(0, MAX_DEAL))))


weights_strategy = st.one_of(
    st.just(DEFAULT_WEIGHTS),
    st.lists(st.integers(-50, 50), min_size=WEIGHTS_SIZE, max_size=WEIGHTS_SIZE).map(
        lambda w: np.array(w, dtype=np.int64)),
)


@settings(max_examples=examples(0.5))
@given(deal=real_deals(), deal_on_empty=st.booleans(), picks=st.lists(st.integers(0, 2**16), min_size=20, max_size=60),
       weights=weights_strategy)
def test_real_deals(deal, deal_on_empty, picks, weights):
    walk(deal, deal_on_empty, picks, weights)


@settings(max_examples=examples(1.0))
@given(deal=tiny_deals(), deal_on_empty=st.booleans(), picks=st.lists(st.integers(0, 2**16), min_size=10, max_size=60),
       weights=weights_strategy)
def test_shrunken_variants(deal, deal_on_empty, picks, weights):
    walk(deal, deal_on_empty, picks, weights)


def test_a_move_that_completes_a_run_is_played():
    # One suit, ranks A-3: 2S (down) 3S | AS (down) 2S | 3S (down) AS: 3>... see test_parity.
    deal = Deal.from_columns(["2S 2S", "3S 3S", "AS AS"], ["AS 2S 3S"],
                             Variant(suits=1, ranks=3, runs=3, columns=3, layout=6))
    walk(deal, False, [0, 0, 0, 0, 0], DEFAULT_WEIGHTS)
