"""The bridge between the reference engine's objects and the kernels' arrays.

``Game`` turns a :class:`~spider_solver.rules.Deal` into the arrays the kernels
take (variant parameters, stock bytes, the packed initial state and its key) and
turns move codes back into :mod:`spider_solver.rules.notation` actions. It refuses
a variant the kernels cannot represent (:func:`check_engine_limits`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from spider_solver.engine.keys import DEALT_KEYS, ZOBRIST
from spider_solver.engine.position import key_from_scratch, new_position, pack, unpack
from spider_solver.engine.types import (
    H_DEALT,
    H_REMOVED,
    MAX_CARDS,
    MAX_COLUMNS,
    MAX_DEALS,
    MAX_RANK,
    MOVE_DEAL,
    RANK_MASK,
    STATE_BYTES,
    SUIT_MASK,
    SUIT_SHIFT,
    VP_COLUMNS,
    VP_DEAL_ON_EMPTY,
    VP_DEALS,
    VP_RANKS,
    VP_RELAXED,
    VP_RUNS,
    VP_SIZE,
    Tables,
    decode_move,
    encode_move,
)
from spider_solver.errors import InvalidVariantError
from spider_solver.rules import RELAXED, Board, Card, Deal, DealRow, Move, Position, Variant
from spider_solver.rules.notation import Action


def card_byte(card: Card) -> int:
    """The face-up card byte of a reference card (see :mod:`~spider_solver.engine.types`)."""
    return card.rank | card.suit << SUIT_SHIFT


def byte_card(value: int) -> Card:
    """The reference card of a card byte (its F bit ignored)."""
    return Card(value & RANK_MASK, (value >> SUIT_SHIFT) & SUIT_MASK)


def check_engine_limits(variant: Variant) -> None:
    """Refuse, with :class:`InvalidVariantError`, a variant the kernels cannot represent.

    ``Variant`` refuses more than 104 cards or 10 columns already; the engine's own
    limit is on deals: the beam keeps one stratum per number of deals made, as a bit
    of an int64 mask (``MAX_STRATA``), so at most ``MAX_DEALS`` deals.
    """
    limits = (("deals", variant.deals, MAX_DEALS), ("cards", variant.cards, MAX_CARDS),
              ("columns", variant.columns, MAX_COLUMNS), ("ranks", variant.ranks, MAX_RANK))
    for name, value, limit in limits:
        if value > limit:
            raise InvalidVariantError(f"the search engine handles at most {limit} {name}: variant has {value!r}")


def variant_params(deal: Deal, deal_on_empty: bool) -> np.ndarray:
    variant = deal.variant
    vp = np.zeros(VP_SIZE, dtype=np.int64)
    vp[VP_COLUMNS] = variant.columns
    vp[VP_RANKS] = variant.ranks
    vp[VP_RUNS] = variant.runs
    vp[VP_DEALS] = variant.deals
    vp[VP_RELAXED] = variant.rule == RELAXED
    vp[VP_DEAL_ON_EMPTY] = deal_on_empty
    return vp


@dataclass
class Game:
    deal: Deal
    deal_on_empty: bool
    vp: np.ndarray
    stock: np.ndarray
    start: np.ndarray
    start_key: np.uint64
    zobrist: np.ndarray = field(default_factory=lambda: ZOBRIST)
    dealt_keys: np.ndarray = field(default_factory=lambda: DEALT_KEYS)
    #: The arrays above as the kernels take them.
    tables: Tables = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.tables = Tables(self.vp, self.zobrist, self.dealt_keys, self.stock)

    @classmethod
    def from_deal(cls, deal: Deal, *, deal_on_empty: bool = False) -> Game:
        check_engine_limits(deal.variant)
        vp = variant_params(deal, deal_on_empty)
        # One row of zeros past the stock, a margin: do_move reads a deal's row only while deals remain.
        stock = np.array([card_byte(c) for c in deal.stock()] + [0] * MAX_COLUMNS, dtype=np.uint8)
        start, key = state_from_board(Board(deal))
        return cls(deal, deal_on_empty, vp, stock, start, key)

    def action(self, move: int) -> Action:
        """The reference engine's action for a move code."""
        return action_of(move)

    def actions(self, moves) -> list[Action]:
        return [self.action(int(m)) for m in moves]

    # -- a game in progress ----------------------------------------------------

    @classmethod
    def from_board(cls, board: Board, *, deal_on_empty: bool | None = None) -> Game:
        """A search from the position of ``board`` (a game in progress), not the initial layout.

        The start state packs the board's cards, face-down cards, deals made and runs
        removed; the stock is the deal's, of which ``board.dealt`` rows are gone.
        ``deal_on_empty`` defaults to the board's own option. The score, the move
        counter and the undo history play no part in what can still be won.
        """
        game = cls.from_deal(board.deal, deal_on_empty=board.deal_on_empty if deal_on_empty is None else deal_on_empty)
        game.start, game.start_key = state_from_board(board)
        return game

    @property
    def start_removed(self) -> int:
        """Runs already removed in the start position."""
        return columns_of_state(self.start, self.deal.variant.columns)[3]

    @property
    def start_dealt(self) -> int:
        """Deals already made in the start position."""
        return columns_of_state(self.start, self.deal.variant.columns)[2]

    @property
    def start_cards(self) -> int:
        """Cards still in play in the start position: in the columns and in the stock."""
        variant = self.deal.variant
        columns, _, dealt, _ = columns_of_state(self.start, variant.columns)
        return sum(len(column) for column in columns) + (variant.deals - dealt) * variant.columns


def action_of(move: int) -> Action:
    """The reference engine's action for a move code."""
    if move == MOVE_DEAL:
        return DealRow()
    src, dst, count = decode_move(move)
    return Move(src + 1, dst + 1, count)


def move_code(action: Action) -> int:
    if isinstance(action, DealRow):
        return MOVE_DEAL
    assert isinstance(action, Move) and action.count is not None, "resolve the action on a Board first"
    return encode_move(action.src - 1, action.dst - 1, action.count)


def state_from_board(board: Board) -> tuple[np.ndarray, np.uint64]:
    """Pack a reference board's position; return the state and its key from scratch."""
    return _state(board.columns, board.down, board.dealt, board.runs_removed)


def position_key(columns: Sequence[Sequence[Card]], down: Sequence[int], dealt: int) -> int:
    """The search's key of a position given in the reference engine's terms: its columns'
    cards, face-down counts and deals made (the key of :func:`state_from_board`; the runs
    removed follow from the cards, and are not in the key)."""
    return int(_state(columns, down, dealt, 0)[1])


def _state(columns: Sequence[Sequence[Card]], down: Sequence[int], dealt: int,
           removed: int) -> tuple[np.ndarray, np.uint64]:
    pos = new_position()
    cols, lens, downs, hdr, _ = pos
    for c, column in enumerate(columns):
        lens[c] = len(column)
        downs[c] = down[c]
        for i, card in enumerate(column):
            cols[c, i] = card_byte(card)
    hdr[H_DEALT] = dealt
    hdr[H_REMOVED] = removed
    state = np.zeros(STATE_BYTES, dtype=np.uint8)
    pack(pos, state)
    return state, np.uint64(key_from_scratch(pos, ZOBRIST, DEALT_KEYS))


def columns_of_state(state: np.ndarray, ncols: int) -> tuple[tuple[tuple[Card, ...], ...], tuple[int, ...], int, int]:
    """(columns, down, dealt, removed) of a packed state, in the reference engine's terms."""
    pos = new_position()
    unpack(state, pos)
    cols, lens, down, hdr, _ = pos
    columns = tuple(tuple(byte_card(int(b)) for b in cols[c, : lens[c]]) for c in range(ncols))
    return columns, tuple(int(d) for d in down[:ncols]), int(hdr[H_DEALT]), int(hdr[H_REMOVED])


def same_position(state: np.ndarray, position: Position) -> bool:
    columns, down, dealt, removed = columns_of_state(state, len(position.columns))
    return (columns, down, dealt, removed) == (position.columns, position.down, position.dealt, len(position.removed))
