"""The fair player: plays a deal as a person would, seeing only what a person sees.

A person sees the face-up cards, how many cards lie face down in each column and how
many deals are left; never the identity of a face-down card or the order of the
stock. :func:`play_fair` plays many games of one deal with that knowledge and a
reasonable strategy, and reports how far each got (won, runs removed, cards turned
up, deals made, actions); :mod:`spider_solver.grading` turns that into a difficulty.

Its parts: :mod:`~spider_solver.engine.fair_cost` (the visible cost of a column, and of
a column after a move), :mod:`~spider_solver.engine.fair_policy` (the strategy: how the
moves of a turn are valued and which is played), :mod:`~spider_solver.engine.seen` (the
positions seen in a game), :mod:`~spider_solver.engine.rng` (the noise); this module
holds the game loop.

Visibility rule (the contract the tests check): a decision reads only

* face-up cards (``cols[c, i]`` for ``i >= down[c]``), except a card that the move
  under consideration itself turns up: that card is *masked* (``hide``), valued as
  "a card turned up" without reading what it is;
* ``down[c]``, ``lens[c]``, runs removed and deals made (``hdr``);
* whether a position was seen before in this game (its key). A position seen before
  has no more face-down cards than the current one, and a move that turns a card up
  always reaches an unseen position (face-down cards only ever decrease), so this
  answer never depends on a face-down card either.

The player moves with ``do_move`` / ``undo_move`` / ``gen_moves``, the engine's own
primitives (``MODE_SEARCH`` by default, ``P_MODE``: every legal move but those
that only rename columns, a move into the second empty column or a whole column into
an empty one; its classes are read from face-up cards only, and are dropped);
``do_move`` turns a card up as the rules do, and the evaluation masks it. A deal is
never looked into: it is chosen by the policy's rule, not by the cards it would bring.
(The policy values most moves without playing them, from counts kept over face-up
cards only, with the same results: see :mod:`~spider_solver.engine.fair_policy`.)

A game ends when won, when the policy finds nothing to do, or after ``P_MAX_ACTIONS``
actions.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from spider_solver.engine.fair_cost import FAIR_WEIGHTS, ONE_SUIT_WEIGHTS, ColumnCosts, recount, visible_cost
from spider_solver.engine.fair_policy import (
    FAIR_PARAMS,
    NO_MOVE,
    ONE_SUIT_PARAMS,
    P_LOOKAHEAD,
    P_MAX_ACTIONS,
    P_MODE,
    P_PATIENCE,
    Player,
    Shapes,
    Turn,
    choose,
)
from spider_solver.engine.position import do_move, new_position, unpack
from spider_solver.engine.seen import seen_add, seen_new, seen_start
from spider_solver.engine.types import (
    H_DEALT,
    H_REMOVED,
    INLINE,
    KERNEL,
    MAX_COLUMNS,
    MAX_HEIGHT,
    MAX_MOVES,
    MAX_RANK,
    MOVE_DEAL,
    VP_COLUMNS,
    VP_RUNS,
    decode_move,
)

# -- What each game reports (columns of the results array) -----------------------------

G_WON = 0
G_REMOVED = 1
G_TURNED = 2
G_DEALT = 3
G_ACTIONS = 4
GAME_FIELDS = 5


class Work(NamedTuple):
    """The game loop's working arrays."""

    pos: tuple  # Position: the game's position
    turn: tuple  # Turn: the moves of the turn's position, valued
    shapes: tuple  # Shapes: the columns' movable groups, for the look-ahead


@njit(**INLINE)
def _down_cards(pos, ncols):
    total = 0
    for c in range(ncols):
        total += pos.down[c]
    return total


@njit(**INLINE)
def _play_game(tables, player, work, trace, g):
    """Play game g from ``work.pos`` (its noise and seen set started); its first actions go to
    ``trace[g]``. Returns how many actions it played."""
    vp = tables[0]
    ncols = vp[VP_COLUMNS]
    runs = vp[VP_RUNS]
    weights, params, costs, seen, _ = player
    pos = work.pos
    hdr = pos.hdr
    seen_add(seen, pos.key[0])
    patience = params[P_PATIENCE]
    actions = 0
    for c in range(ncols):
        recount(pos, weights, costs, c)
    while actions < params[P_MAX_ACTIONS] and hdr[H_REMOVED] < runs:
        play, patience = choose(pos, tables, player, work.turn, work.shapes, patience)
        if play == NO_MOVE:
            break
        do_move(pos, tables, play)
        seen_add(seen, pos.key[0])
        if play == MOVE_DEAL:
            for c in range(ncols):
                recount(pos, weights, costs, c)
        else:
            src, dst, _ = decode_move(play)
            recount(pos, weights, costs, src)
            recount(pos, weights, costs, dst)
        if actions < trace.shape[1]:
            trace[g, actions] = play
        actions += 1
    return actions


@njit(**KERNEL)
def _play_games(start, start_key, tables, player, work, seeds, results, trace):
    """The body of :func:`play_fair`, its work arrays given (a kernel without reference counting)."""
    vp = tables[0]
    ncols = vp[VP_COLUMNS]
    runs = vp[VP_RUNS]
    pos = work.pos
    hdr = pos.hdr
    for g in range(seeds.shape[0]):
        player.rng[0] = seeds[g]
        seen_start(player.seen, g + 1)
        unpack(start, pos)
        pos.key[0] = start_key
        down0 = _down_cards(pos, ncols)
        for t in range(trace.shape[1]):
            trace[g, t] = -1
        actions = _play_game(tables, player, work, trace, g)
        results[g, G_WON] = 1 if hdr[H_REMOVED] == runs else 0
        results[g, G_REMOVED] = hdr[H_REMOVED]
        results[g, G_TURNED] = down0 - _down_cards(pos, ncols)
        results[g, G_DEALT] = hdr[H_DEALT]
        results[g, G_ACTIONS] = actions
    return seeds.shape[0]


@njit(cache=True)
def play_fair(start, start_key, tables, weights, params, seeds, results, trace):
    """Play ``len(seeds)`` games of one deal from the packed ``start`` state (key ``start_key``).

    ``weights``: the visible cost's (``FAIR_WEIGHTS``); ``params``: the player's
    (``FAIR_PARAMS``). Game g draws its noise from SplitMix64 seeded with ``seeds[g]``;
    its figures go to ``results[g, G_*]``, its first ``trace.shape[1]`` actions to
    ``trace[g]`` (then -1). The games run in ``_play_games``, a kernel without reference
    counting: its work arrays are made here, once, and passed down.
    """
    size = MAX_MOVES
    turn = Turn(np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.uint64), np.zeros(size, dtype=np.int64),
                np.zeros(size, dtype=np.int64), np.zeros((size, 2), dtype=np.int64), np.zeros(size, dtype=np.bool_),
                np.zeros(size, dtype=np.int64), np.zeros(2, dtype=np.int64))
    shapes = Shapes(np.zeros(MAX_COLUMNS, dtype=np.int64), np.zeros(MAX_COLUMNS, dtype=np.int64),
                    np.zeros(MAX_RANK + 2, dtype=np.int64), np.zeros(MAX_RANK + 2, dtype=np.int64),
                    np.zeros(1, dtype=np.int64))
    costs = ColumnCosts(np.zeros(MAX_COLUMNS, dtype=np.int64), np.zeros((MAX_COLUMNS, MAX_HEIGHT), dtype=np.int64),
                        np.zeros((MAX_COLUMNS, MAX_HEIGHT), dtype=np.int64))
    player = Player(weights, params, costs, seen_new(), np.zeros(1, dtype=np.uint64))
    work = Work(new_position(), turn, shapes)
    return _play_games(start, start_key, tables, player, work, seeds, results, trace)


__all__ = [
    "FAIR_PARAMS", "FAIR_WEIGHTS", "GAME_FIELDS", "G_ACTIONS", "G_DEALT", "G_REMOVED", "G_TURNED", "G_WON",
    "ONE_SUIT_PARAMS", "ONE_SUIT_WEIGHTS", "P_LOOKAHEAD", "P_MODE", "play_fair", "visible_cost",
]
