"""The engine agrees with the reference rules engine, position by position.

Random lines of legal play on the reference :class:`~spider_solver.rules.Board`
(real deals of all suit counts and both rules, and shrunken variants where runs
are completed, columns emptied and games won often), with ``deal_on_empty`` on
and off. The engine's working arrays follow the line with ``do_move``, so the
incremental key is checked over whole lines, not single steps. At every step:

* ``gen_moves`` in ``MODE_ALL`` lists exactly ``board.legal_moves()``, in order;
* every legal move, played with ``do_move``, gives the position ``board.push``
  gives, with the key ``key_from_scratch`` computes, and ``undo_move`` restores
  the position and the key exactly;
* ``MODE_SEARCH`` moves (class bits stripped) are a subset of ``MODE_ALL``;
* ``MODE_PROOF`` is ``MODE_ALL`` while the stock has cards, and once it is empty
  ``MODE_ALL`` less exactly the moves into an empty column other than the first and
  the moves of a whole column into an empty column, in the same order;
* ``is_legal`` agrees with ``board.is_legal`` on legal and illegal move codes;
* the packed state round-trips through unpack / pack.

At the end of the line every action is undone in turn, back to the deal.
Hand-built positions cover a deal that removes several runs at once and a move
that removes a run and turns up cards in both of its columns.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from spider_solver.engine.game import Game, columns_of_state, move_code, same_position, state_from_board
from spider_solver.engine.movegen import gen_moves, is_legal, movable
from spider_solver.engine.position import do_move, is_won, key_from_scratch, new_position, pack, undo_move, unpack
from spider_solver.engine.types import (
    CLASS_LATERAL,
    CLASS_SHIFT,
    H_DEALT,
    H_REMOVED,
    MAX_MOVES,
    MODE_ALL,
    MODE_PROOF,
    MODE_SEARCH,
    MOVE_DEAL,
    MOVE_MASK,
    STATE_BYTES,
    VP_RELAXED,
    decode_move,
    encode_move,
)
from spider_solver.errors import InvalidVariantError
from spider_solver.rules import Board, Deal, DealRow, GameCode, Move, Variant
from spider_solver.rules.codes import MAX_DEAL
from spider_solver.rules.variant import CLASSIC, RELAXED


class Mirror:
    """The engine's working position following a reference board action by action."""

    def __init__(self, deal: Deal, deal_on_empty: bool) -> None:
        self.game = Game.from_deal(deal, deal_on_empty=deal_on_empty)
        self.board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=None)
        self.pos = new_position()
        self.cols, self.lens, self.down, self.hdr, self.key = self.pos
        unpack(self.game.start, self.pos)
        self.key[0] = self.game.start_key
        self.ncols = deal.variant.columns
        #: (move code, undo info, snapshot before the move) of every action played.
        self.history: list[tuple[int, int, tuple]] = []
        self.buffer = np.zeros(MAX_MOVES, dtype=np.int64)

    # -- engine calls -----------------------------------------------------------

    def do(self, code: int) -> int:
        return do_move(self.pos, self.game.tables, code)

    def undo(self, code: int, info: int) -> None:
        undo_move(self.pos, self.game.tables, code, info)

    def moves(self, mode: int) -> list[int]:
        n = gen_moves(self.pos, self.game.vp, mode, self.buffer)
        return [int(m) for m in self.buffer[:n]]

    def legal(self, code: int) -> bool:
        return bool(is_legal(self.pos, self.game.vp, code))

    def packed(self) -> np.ndarray:
        state = np.zeros(STATE_BYTES, dtype=np.uint8)
        pack(self.pos, state)
        return state

    def scratch_key(self) -> int:
        return int(key_from_scratch(self.pos, self.game.zobrist, self.game.dealt_keys))

    def snapshot(self):
        """What must come back exactly after an undo: the meaningful cells, counters and key."""
        return (self.packed().tobytes(), self.lens.copy().tobytes(), self.down.copy().tobytes(),
                self.hdr.copy().tobytes(), int(self.key[0]),
                tuple(self.cols[c, : self.lens[c]].tobytes() for c in range(self.cols.shape[0])))

    # -- the checks ---------------------------------------------------------------

    def check_position(self) -> None:
        """The engine's position is the board's, its key is right, and the state round-trips."""
        board = self.board
        state = self.packed()
        assert same_position(state, board.position()), self.describe()
        ref_state, ref_key = state_from_board(board)
        assert state.tobytes() == ref_state.tobytes()
        assert int(self.key[0]) == self.scratch_key() == int(ref_key)
        # unpack / pack round-trip, and columns_of_state reads the board back.
        pos = new_position()
        unpack(state, pos)
        again = np.zeros(STATE_BYTES, dtype=np.uint8)
        pack(pos, again)
        assert again.tobytes() == state.tobytes()
        columns, downs, dealt, removed = columns_of_state(state, self.ncols)
        assert columns == tuple(tuple(c) for c in board.columns)
        assert (downs, dealt, removed) == (tuple(board.down), board.dealt, board.runs_removed)
        assert bool(is_won(self.hdr, self.game.vp)) == board.is_won()

    def check_moves(self) -> list:
        """MODE_ALL equals legal_moves; every legal move makes and unmakes exactly."""
        board = self.board
        legal = board.legal_moves()
        codes = [move_code(a) for a in legal]
        assert self.moves(MODE_ALL) == codes, self.describe()
        assert self.game.actions(codes) == legal
        before = self.snapshot()
        for action, code in zip(legal, codes, strict=True):
            assert self.legal(code)
            info = self.do(code)
            board.push(action)
            state = self.packed()
            assert same_position(state, board.position()), f"after {action}: {self.describe()}"
            assert int(self.key[0]) == self.scratch_key(), f"incremental key after {action}"
            assert int(self.key[0]) == int(state_from_board(board)[1])
            board.pop()
            self.undo(code, info)
            assert self.snapshot() == before, f"undo of {action}"
        self.check_search_moves(set(codes))
        self.check_proof_moves(codes)
        return legal

    def check_proof_moves(self, all_codes: list[int]) -> None:
        proof = self.moves(MODE_PROOF)
        if self.board.deals_left:
            assert proof == all_codes, self.describe()
            return
        empties = [c for c in range(self.ncols) if self.lens[c] == 0]

        def renames(m: int) -> bool:
            src, dst, count = decode_move(m)
            return self.lens[dst] == 0 and (dst != empties[0] or count == self.lens[src])

        kept = [m for m in all_codes if not renames(m)]
        if len(kept) < len(all_codes):
            event("MODE_PROOF left out a rename")
        assert proof == kept, self.describe()

    def check_search_moves(self, all_codes: set[int]) -> None:
        search = self.moves(MODE_SEARCH)
        stripped = [m & MOVE_MASK for m in search]
        assert set(stripped) <= all_codes
        assert len(set(stripped)) == len(stripped), "MODE_SEARCH lists a move twice"
        for m in search:
            assert 0 <= m >> CLASS_SHIFT <= CLASS_LATERAL
            if m & MOVE_MASK == MOVE_DEAL:
                assert m == MOVE_DEAL, "the deal carries no class"
        # The documented pruning: only the first empty column is a target, and a
        # whole column never moves into an empty one.
        empties = [c for c in range(self.ncols) if self.lens[c] == 0]
        for m in stripped:
            if m == MOVE_DEAL:
                continue
            src, dst, count = decode_move(m)
            if self.lens[dst] == 0:
                assert dst == empties[0]
                assert count < self.lens[src]
        # The deal is in both lists or in neither.
        assert (MOVE_DEAL in stripped) == (MOVE_DEAL in all_codes)

    def check_is_legal(self, rng: random.Random, extra: int = 40) -> None:
        """is_legal agrees with the board on the moves that nearly fit and on random codes."""
        board = self.board
        n = self.ncols
        candidates = {MOVE_DEAL}
        relaxed = int(self.game.vp[VP_RELAXED]) != 0
        for s in range(n):
            group = int(movable(self.pos, s, relaxed))
            for d in range(n):
                if d == s:
                    continue
                fit = 0
                if self.lens[s] and self.lens[d]:
                    fit = int(self.cols[d, self.lens[d] - 1] & 15) - int(self.cols[s, self.lens[s] - 1] & 15)
                for count in {1, 2, group, group + 1, fit, fit + 1, fit - 1}:
                    if count >= 1:
                        candidates.add(encode_move(s, d, count))
        for _ in range(extra):
            candidates.add(encode_move(rng.randrange(n), rng.randrange(n), rng.randrange(1, 15)))
        for code in sorted(candidates):
            if code == MOVE_DEAL:
                action = DealRow()
            else:
                src, dst, count = decode_move(code)
                if src == dst:
                    assert not self.legal(code)
                    continue
                action = Move(src + 1, dst + 1, count)
            assert self.legal(code) == board.is_legal(action), f"is_legal({action})"
        # Codes that name a column the variant does not have, a size 0, or src == dst.
        for code in (encode_move(0, n, 1) if n < 10 else None, encode_move(n, 0, 1) if n < 10 else None,
                     encode_move(0, 1 % n, 0), encode_move(0, 0, 1)):
            if code is not None:
                assert not self.legal(code)

    # -- walking a line -------------------------------------------------------------

    def push(self, action) -> None:
        code = move_code(action)
        before = self.snapshot()
        info = self.do(code)
        self.board.push(action)
        self.history.append((code, info, before))

    def unwind(self) -> None:
        """Undo the whole line on both engines; every intermediate position comes back."""
        while self.history:
            code, info, before = self.history.pop()
            self.undo(code, info)
            self.board.pop()
            assert self.snapshot() == before
            self.check_position()
        assert self.packed().tobytes() == self.game.start.tobytes()
        assert int(self.key[0]) == int(self.game.start_key)

    def record(self) -> None:
        """Hypothesis statistics (``--hypothesis-show-statistics``): what the line covered."""
        board = self.board
        event(f"runs removed: {min(board.runs_removed, 3)}{'+' if board.runs_removed >= 3 else ''}")
        if board.is_won():
            event("won")
        if any(info & 1023 for _, info, _ in self.history):
            event("a run left the table")
        if any(self.lens[c] == 0 for c in range(self.ncols)) or any(
                not column for column in board.columns):
            event("ends with an empty column")

    def describe(self) -> str:
        return f"{self.board.deal.name} {self.board.variant} after {len(self.history)} actions:\n{self.board.grid()}"


def walk(deal: Deal, deal_on_empty: bool, picks, *, rng_seed: int = 0, every_is_legal: int = 1) -> Mirror:
    """Play ``picks`` (each chooses among the legal actions) checking everything at each step."""
    mirror = Mirror(deal, deal_on_empty)
    rng = random.Random(rng_seed)
    for step, pick in enumerate(picks):
        mirror.check_position()
        legal = mirror.check_moves()
        if step % every_is_legal == 0:
            mirror.check_is_legal(rng)
        if not legal:
            break
        mirror.push(legal[pick % len(legal)])
    else:
        mirror.check_position()
        mirror.check_moves()
    return mirror


# -- random play on real deals ----------------------------------------------------------


def examples(share: float) -> int:
    """A share of the profile's example count (40 under "ci"), so "dev" explores more."""
    return max(1, int(settings.default.max_examples * share))


@st.composite
def real_deals(draw):
    suits = draw(st.sampled_from([1, 2, 4]))
    rule = draw(st.sampled_from([CLASSIC, RELAXED]))
    number = draw(st.integers(0, MAX_DEAL))
    return Deal.from_code(GameCode(suits, rule, number))


@settings(max_examples=examples(0.75))
@given(deal=real_deals(), deal_on_empty=st.booleans(), picks=st.lists(st.integers(0, 2**16), min_size=20, max_size=45),
       seed=st.integers(0, 2**32))
def test_real_deals_random_play(deal, deal_on_empty, picks, seed):
    mirror = walk(deal, deal_on_empty, picks, rng_seed=seed, every_is_legal=3)
    mirror.record()
    mirror.unwind()


@st.composite
def move_heavy_picks(draw):
    """Lines that mostly avoid the deal, so columns grow long and empty out."""
    return draw(st.lists(st.integers(0, 2**16), min_size=30, max_size=60))


@settings(max_examples=examples(0.25))
@given(deal=real_deals(), deal_on_empty=st.booleans(), picks=move_heavy_picks(), seed=st.integers(0, 2**32))
def test_real_deals_playing_moves_before_deals(deal, deal_on_empty, picks, seed):
    mirror = Mirror(deal, deal_on_empty)
    rng = random.Random(seed)
    for pick in picks:
        mirror.check_position()
        legal = mirror.check_moves()
        mirror.check_is_legal(rng, extra=10)
        if not legal:
            break
        moves = [a for a in legal if not isinstance(a, DealRow)] or legal
        mirror.push(moves[pick % len(moves)])
    mirror.record()
    mirror.unwind()


# -- random play on shrunken variants ---------------------------------------------------


@st.composite
def tiny_deals(draw):
    suits = draw(st.sampled_from([1, 2, 4]))
    rule = draw(st.sampled_from([CLASSIC, RELAXED]))
    ranks = draw(st.integers(2, 5))
    runs = draw(st.sampled_from([r for r in (2, 4, 8) if r % suits == 0]))
    cards = ranks * runs
    columns = draw(st.integers(2, min(6, cards)))
    layouts = [n for n in range(columns, cards + 1) if (cards - n) % columns == 0]
    layout = draw(st.sampled_from(layouts))
    variant = Variant(suits=suits, rule=rule, ranks=ranks, runs=runs, columns=columns, layout=layout)
    deck = draw(st.permutations(variant.unshuffled()))
    return Deal(tuple(deck), variant)


@settings(max_examples=examples(1.5))
@given(deal=tiny_deals(), deal_on_empty=st.booleans(), picks=st.lists(st.integers(0, 2**16), min_size=10, max_size=60),
       seed=st.integers(0, 2**32))
def test_shrunken_variants_random_play(deal, deal_on_empty, picks, seed):
    mirror = walk(deal, deal_on_empty, picks, rng_seed=seed)
    mirror.record()
    mirror.unwind()


# -- hand-built positions --------------------------------------------------------------------


def build(piles, rows, **variant) -> Deal:
    return Deal.from_columns(piles, rows, Variant(**variant))


def play_line(deal: Deal, tokens: str, *, deal_on_empty: bool = False) -> Mirror:
    """Play a line given in notation, with every check at every step; return the mirror."""
    mirror = Mirror(deal, deal_on_empty)
    rng = random.Random(1)
    for token in tokens.split():
        mirror.check_position()
        mirror.check_moves()
        mirror.check_is_legal(rng)
        mirror.push(mirror.board.resolve(mirror.board.parse_action(token)))
    mirror.check_position()
    mirror.check_moves()
    mirror.check_is_legal(rng)
    return mirror


def test_a_deal_that_removes_two_runs_and_turns_up_two_cards():
    # Two suits, ranks A-3, two columns: A♥ (down) 3♠ | 2♥ (down) 3♥.
    # The deals 2♠ 2♥ and A♠ A♥ finish a spade run and a heart run at once.
    deal = build(["AH 3S", "2H 3H"], ["2S 2H", "AS AH", "3S 3H", "2S AS"],
                 suits=2, ranks=3, runs=4, columns=2, layout=4)
    mirror = play_line(deal, "D D")
    board = mirror.board
    assert board.removed == [0, 1]
    assert [[str(card) for card in column] for column in board.columns] == [["AH"], ["2H"]]
    assert board.down == [0, 0]  # both uncovered cards turned up
    assert int(mirror.hdr[H_REMOVED]) == 2 and int(mirror.hdr[H_DEALT]) == 2
    code, info, _ = mirror.history[-1]
    assert code == MOVE_DEAL
    assert info & 0b11 == 0b11  # a run left each column
    assert info & (0b11 << 10) == 0b11 << 10  # and each turned a card up
    mirror.unwind()


def test_a_deal_that_removes_four_runs_of_four_suits():
    # Four suits, ranks A-2, four columns: A♣ (down) 2♠ | 2♣ (down) 2♥ | 2♠ (down) 2♦ | A♦ (down) 2♣.
    # The first deal, A♠ A♥ A♦ A♣, finishes a run in every column.
    deal = build(["AC 2S", "2C 2H", "2S 2D", "AD 2C"], ["AS AH AD AC", "AS AH 2H 2D"],
                 suits=4, ranks=2, runs=8, columns=4, layout=8)
    mirror = play_line(deal, "D")
    board = mirror.board
    assert board.removed == [0, 1, 2, 3]
    assert board.down == [0, 0, 0, 0]
    _, info, _ = mirror.history[-1]
    assert info & 0b1111 == 0b1111
    for c in range(4):
        assert (info >> (20 + 2 * c)) & 3 == c  # the suit of each run, for undo
    mirror.unwind()


def test_a_move_that_removes_a_run_and_turns_up_cards_in_both_columns():
    # One suit, ranks A-3, three columns: 2♠ (down) 2♠ | 3♠ (down) 3♠ | A♠ (down) A♠.
    deal = build(["2S 2S", "3S 3S", "AS AS"], ["AS 2S 3S"], suits=1, ranks=3, runs=3, columns=3, layout=6)
    # 1>2: 2♠ onto 3♠ turns up column 1; 3>2: A♠ onto 2♠ finishes a run in column 2,
    # which turns up its 3♠, and turns up the A♠ of column 3.
    mirror = play_line(deal, "1>2 3>2")
    board = mirror.board
    assert board.runs_removed == 1
    assert board.down == [0, 0, 0]
    assert [len(c) for c in board.columns] == [1, 1, 1]
    _, info, _ = mirror.history[-1]
    assert info & (1 << 1)  # the run left column 2
    assert info & (1 << (10 + 1))  # ... and a card turned up there
    assert info & (1 << (10 + 2))  # the source column turned up a card too
    mirror.unwind()


def test_a_move_that_wins_and_its_undo():
    # One suit, ranks A-3, two columns: A♠ (down) 3♠ | 3♠ (down) 2♠; one deal of A♠ 2♠.
    # 2>1 D 1>2: a run after the deal, the other after the last move (the game is won).
    deal = build(["AS 3S", "3S 2S"], ["AS 2S"], suits=1, ranks=3, runs=2, columns=2, layout=4)
    mirror = play_line(deal, "2>1 D 1>2")
    assert mirror.board.is_won()
    assert bool(is_won(mirror.hdr, mirror.game.vp))
    assert mirror.moves(MODE_ALL) == [] and mirror.moves(MODE_SEARCH) == []
    mirror.unwind()


def test_relaxed_mixed_suit_king_to_ace_is_not_a_run():
    # Relaxed, two suits, ranks A-3: 3♠ 2♥ A♠ is a movable group but not a run.
    deal = build(["3S", "2H", "AS"], ["AH 3H 2S", "3S 2H AS", "AH 3H 2S"], suits=2, rule=RELAXED, ranks=3, runs=4,
                 columns=3, layout=3)
    mirror = play_line(deal, "2>1 3>1 1>2")
    assert mirror.board.runs_removed == 0
    assert mirror.board.columns[1] and len(mirror.board.columns[1]) == 3
    mirror.unwind()


@pytest.mark.parametrize("deal_on_empty", [False, True])
def test_dealing_with_an_empty_column(deal_on_empty):
    # Ranks A-3, three columns 3♠ | 2♠ | A♠; 3>2 empties column 3.
    deal = build(["3S", "2S", "AS"], ["3S 2S AS"], suits=1, ranks=3, runs=2, columns=3, layout=3)
    mirror = play_line(deal, "3>2", deal_on_empty=deal_on_empty)
    assert (MOVE_DEAL in mirror.moves(MODE_ALL)) == deal_on_empty
    assert mirror.legal(MOVE_DEAL) == deal_on_empty
    if deal_on_empty:
        # The deal puts A♠ on an empty column and 3♠ 2♠ A♠ ... finishes nothing; then 2>1 wins.
        mirror.push(DealRow())
        mirror.check_position()
        mirror.check_moves()
    mirror.unwind()


# -- the limits of the packed state -------------------------------------------------------------


def test_a_variant_never_holds_more_cards_than_the_state():
    # The packed state has 104 card cells; a bigger deck once overwrote the column lengths.
    with pytest.raises(InvalidVariantError, match="at most 104"):
        Variant(suits=1, ranks=13, runs=9, columns=10, layout=107)
