"""The bridge between the rules engine's board and the fair kernels: what the player has seen.

:func:`view_of` and :func:`unseen_of` read a :class:`~spider_solver.rules.Board` only for
what its player has seen (the fairness boundary on the Python side); :func:`fair_candidates`
runs :func:`~spider_solver.engine.fair_sample.fair_choices` on them and turns its move
codes back into the rules engine's actions.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import NamedTuple

import numpy as np

from spider_solver.engine.fair_plan import MAX_DEPTH, PLAN_PARAMS, PLAN_WEIGHTS, UNKNOWN
from spider_solver.engine.fair_sample import Knowledge, fair_choices
from spider_solver.engine.game import action_of, card_byte, variant_params
from spider_solver.engine.keys import DEALT_KEYS, ZOBRIST
from spider_solver.engine.position import key_from_scratch, new_position, pack
from spider_solver.engine.types import H_DEALT, H_REMOVED, MAX_COLUMNS, STATE_BYTES
from spider_solver.rules import Board, Card
from spider_solver.rules.notation import Action


class Scored(NamedTuple):
    """A candidate action of a fair hint: how many of the sampled layouts were won after it."""

    action: Action
    wins: int
    layouts: int


def view_of(board: Board) -> tuple[np.ndarray, int]:
    """The packed view of a :class:`~spider_solver.rules.Board`'s position and its key.

    Reads the board's face-up cards (``board.columns[c][board.down[c]:]``), its columns'
    lengths and face-down counts, its deals made and runs removed, and nothing else: never a
    face-down card, never the stock."""
    pos = new_position()
    cols, lens, downs, hdr, key = pos
    for c, column in enumerate(board.columns):
        down = board.down[c]
        lens[c] = len(column)
        downs[c] = down
        cols[c, :down] = UNKNOWN
        for i, card in enumerate(column[down:], start=down):
            cols[c, i] = card_byte(card)
    hdr[H_DEALT] = board.dealt
    hdr[H_REMOVED] = board.runs_removed
    state = np.zeros(STATE_BYTES, dtype=np.uint8)
    pack(pos, state)
    return state, int(key_from_scratch(pos, ZOBRIST, DEALT_KEYS))


def unseen_of(board: Board) -> np.ndarray:
    """The card bytes the player of ``board`` has not seen, sorted: the variant's deck less
    the face-up cards and the removed runs (never read from the face-down cards or the stock)."""
    variant = board.variant
    left = Counter(card_byte(card) for card in variant.unshuffled())
    for c, column in enumerate(board.columns):
        for card in column[board.down[c]:]:
            left[card_byte(card)] -= 1
    for suit in board.removed:
        for rank in range(1, variant.ranks + 1):
            left[card_byte(Card(rank, suit))] -= 1
    cards = sorted(left.elements())
    return np.array(cards, dtype=np.uint8)


def fair_candidates(board: Board, history: list[int], *, layouts: int, alternatives: int,
                    seed: int) -> list[Scored]:
    """The candidate actions of a fair hint at ``board`` (a rules engine's Board, read only
    for what the player has seen), each with the sampled layouts it won, best first: the
    most wins, then the planner's decision before the others. ``history``: the view keys of
    the positions the game has been in (:func:`view_of`); ``seed`` is mixed with the view
    and the unseen cards, nothing else. The same arguments give the same answer everywhere."""
    view, key = view_of(board)
    unseen = unseen_of(board)
    suits = board.variant.suits
    vp = variant_params(board.deal, board.deal_on_empty)  # reads the variant only
    knowledge = Knowledge(view, unseen, np.array([*history, key], dtype=np.uint64))
    blocks = np.zeros((1 + alternatives, MAX_DEPTH + MAX_COLUMNS + 1), dtype=np.int64)
    lengths = np.zeros(1 + alternatives, dtype=np.int64)
    digest = hashlib.blake2b(int(seed).to_bytes(8, "little") + view.tobytes() + unseen.tobytes(), digest_size=8)
    mixed = np.uint64(int.from_bytes(digest.digest(), "little"))
    count, outcomes = fair_choices(knowledge, (vp, ZOBRIST, DEALT_KEYS), (PLAN_WEIGHTS[suits], PLAN_PARAMS[suits]),
                                   alternatives, layouts, mixed, blocks, lengths)
    scored = [Scored(board.check(action_of(int(blocks[i, 0]))), int(outcomes.wins[i].sum()), layouts)
              for i in range(count)]
    order = sorted(range(count), key=lambda i: (-scored[i].wins, i))
    return [scored[i] for i in order]
