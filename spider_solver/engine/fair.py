"""The fair player: plays a deal as a person would, seeing only what a person sees.

A person sees the face-up cards, how many cards lie face down in each column and how
many deals are left; never the identity of a face-down card or the order of the
stock. :func:`play_fair` plays many games of one deal with that knowledge and a
reasonable strategy, and reports how far each got (won, runs removed, cards turned
up, deals made, actions); :mod:`spider_solver.grading` turns that into a difficulty.

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
never looked into: it is chosen by the rule below, not by the cards it would bring.

Strategy, each turn:

1. Every legal move (not the deal) leading to a position not seen in this game is
   valued by the change ``delta`` of the visible cost (:func:`visible_cost`: face-down
   cards, breaks between face-up cards, empty columns, removed runs; a card turned up
   is a gain). A move that turns nothing up is looked one move further (over known
   cards only; ``P_LOOKAHEAD``): its value is ``delta`` plus the best following
   ``delta`` if that is a gain.
2. Each value gets random noise (uniform, ``P_NOISE`` sixteenths of a weight unit),
   seeded per game, which breaks ties and makes every game different.
3. The best gaining move (``value < 0``, by noisy value) is played; failing that the
   best neutral one (``value == 0``) if the player still has patience
   (``P_PATIENCE`` neutral moves in a row). Otherwise the player deals; if
   an empty column forbids dealing, it fills one (its best move into an empty
   column); if the stock is empty and nothing gains, the game ends.
4. A game also ends when won or after ``P_MAX_ACTIONS`` actions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spider_solver.engine.movegen import gen_moves
from spider_solver.engine.position import do_move, undo_move, unpack
from spider_solver.engine.types import (
    H_DEALT,
    H_REMOVED,
    INLINE,
    KERNEL,
    MODE_SEARCH,
    MOVE_DEAL,
    SUIT_SHIFT,
    UNDO_TURNED,
    VP_COLUMNS,
    VP_DEALS,
    VP_RUNS,
    decode_move,
    plain_move,
    rank_of,
    undo_turned,
)

# -- Weights of the visible cost (indices into the weights array) ----------------------

#: Per face-down card.
FW_DOWN = 0
#: Per pair of adjacent face-up cards one rank apart but of two suits.
FW_SUIT_BREAK = 1
#: Per pair of adjacent face-up cards whose ranks do not follow.
FW_RANK_BREAK = 2
#: Bonus per empty column.
FW_EMPTY = 3
#: Bonus per removed run.
FW_RUN = 4
#: Bonus for a column based on a face-up king.
FW_KING_BASE = 5
#: Bonus for a column all face up and one run (it can be cleared).
FW_CLEAR_COLUMN = 6
#: Per stretch without a break lying on face-down cards.
FW_RUNS_ON_DOWN = 7
#: Cost of a card just turned up, whose identity the decision may not read.
FW_UNKNOWN = 8
FAIR_WEIGHTS_SIZE = 9

#: The default weights: turning a card up gains FW_DOWN - FW_UNKNOWN = 8.
FAIR_WEIGHTS = np.array([10, 6, 8, 6, 40, 6, 4, 2, 2], dtype=np.int64)

# -- Parameters (indices into the params array) ----------------------------------------

P_MAX_ACTIONS = 0
P_PATIENCE = 1
P_NOISE = 2
P_LOOKAHEAD = 3
P_MODE = 4
PARAMS_SIZE = 5

#: Default parameters: 600 actions a game, 8 neutral moves in a row, noise of 3 weight
#: units, look one move ahead after every move that turns nothing up (2; 1: only after a
#: neutral one; 0: never), moves of MODE_SEARCH.
FAIR_PARAMS = np.array([600, 8, 48, 2, MODE_SEARCH], dtype=np.int64)

# -- What each game reports (columns of the results array) -----------------------------

G_WON = 0
G_REMOVED = 1
G_TURNED = 2
G_DEALT = 3
G_ACTIONS = 4
GAME_FIELDS = 5

#: Slots of the seen-position set of one game (a power of two, over twice P_MAX_ACTIONS).
SEEN_BITS = 12
SEEN_SIZE = 1 << SEEN_BITS
#: Scale of a value before the noise is added (noise is in sixteenths of a weight unit).
VALUE_SCALE = 16
NO_MOVE = -1
NO_VALUE = 1 << 60


@njit(**INLINE)
def _next(rng):
    """The next SplitMix64 output of the generator state ``rng[0]``."""
    z = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(**INLINE)
def _below(rng, k):
    """A random whole number from 0 to k - 1 (k >= 1)."""
    return np.int64(_next(rng) >> np.uint64(11)) % k


@njit(**INLINE)
def visible_cost(pos, c, hide, weights):
    """The cost of column c from what a person sees; lower is better.

    ``hide`` (0 or 1) masks the lowest face-up card, one the move being valued has
    just turned up: it costs ``FW_UNKNOWN`` and is never read. Reads ``down[c]``,
    ``lens[c]`` and the face-up cards ``cols[c, down[c] + hide:]`` only.
    """
    cols, lens, down, _, _ = pos
    n = lens[c]
    if n == 0:
        return -weights[FW_EMPTY]
    d = down[c]
    first = d + hide
    rank_breaks = 0
    suit_breaks = 0
    for i in range(first + 1, n):
        upper = np.int64(cols[c, i - 1])
        lower = np.int64(cols[c, i])
        if rank_of(lower) + 1 != rank_of(upper):
            rank_breaks += 1
        elif (lower ^ upper) >= (1 << SUIT_SHIFT):
            suit_breaks += 1
    cost = weights[FW_DOWN] * d + weights[FW_RANK_BREAK] * rank_breaks + weights[FW_SUIT_BREAK] * suit_breaks
    if hide:
        cost += weights[FW_UNKNOWN]
    if d + hide > 0:
        if d > 0:
            cost += weights[FW_RUNS_ON_DOWN] * (rank_breaks + suit_breaks + 1)
    elif rank_of(cols[c, 0]) == 13:
        cost -= weights[FW_KING_BASE]
    elif rank_breaks + suit_breaks == 0:
        cost -= weights[FW_CLEAR_COLUMN]
    return cost


@njit(**INLINE)
def _turned(info, c):
    """1 if the move whose undo information is ``info`` turned a card up in column c."""
    return (info >> (UNDO_TURNED + c)) & 1


@njit(**KERNEL)
def move_delta(pos, move, info, removed_before, costs, weights, new_costs):
    """The change of the visible cost made by ``move`` (just played, ``info`` its undo
    information; ``costs`` the columns' costs before it). Writes the two columns' new
    costs into ``new_costs[0:2]`` (source, target)."""
    src, dst, _ = decode_move(move)
    cs = visible_cost(pos, src, _turned(info, src), weights)
    cd = visible_cost(pos, dst, _turned(info, dst), weights)
    new_costs[0] = cs
    new_costs[1] = cd
    runs = pos.hdr[H_REMOVED] - removed_before
    return cs - costs[src] + cd - costs[dst] - weights[FW_RUN] * runs


@njit(**INLINE)
def _seen_slot(seen_keys, seen_tags, tag, key):
    """The slot of ``key`` in the seen set of game ``tag``, or of the free slot where it goes."""
    mask = seen_keys.shape[0] - 1
    i = np.int64(key & np.uint64(mask))
    while seen_tags[i] == tag and seen_keys[i] != key:
        i = (i + 1) & mask
    return i


@njit(**INLINE)
def _is_seen(seen_keys, seen_tags, tag, key):
    i = _seen_slot(seen_keys, seen_tags, tag, key)
    return seen_tags[i] == tag


@njit(**INLINE)
def _remember(seen_keys, seen_tags, tag, key):
    i = _seen_slot(seen_keys, seen_tags, tag, key)
    seen_tags[i] = tag
    seen_keys[i] = key


@njit(**KERNEL)
def _best_follow_up(pos, tables, weights, costs, seen_keys, seen_tags, tag, mode, out):
    """The best visible gain of one more move (not a deal) from here, or 0 if none gains."""
    vp = tables[0]
    n = gen_moves(pos, vp, mode, out)
    removed = pos.hdr[H_REMOVED]
    best = 0
    for j in range(n):
        m = plain_move(out[j])
        if m == MOVE_DEAL:
            continue
        info = do_move(pos, tables, m)
        if not _is_seen(seen_keys, seen_tags, tag, pos.key[0]):
            src, dst, _ = decode_move(m)
            cs = visible_cost(pos, src, _turned(info, src), weights)
            cd = visible_cost(pos, dst, _turned(info, dst), weights)
            delta = cs - costs[src] + cd - costs[dst] - weights[FW_RUN] * (pos.hdr[H_REMOVED] - removed)
            if delta < best:
                best = delta
        undo_move(pos, tables, m, info)
    return best


@njit(cache=True)
def play_fair(start, start_key, tables, weights, params, seeds, pos, out0, out1, costs, costs1, pair,
              seen_keys, seen_tags, results, trace):
    """Play ``len(seeds)`` games of one deal from the packed ``start`` state.

    Game g draws its noise from SplitMix64 seeded with ``seeds[g]``; its figures go to
    ``results[g, G_*]``, its first ``trace.shape[1]`` actions to ``trace[g]`` (then -1).
    ``pos``, ``out0``/``out1`` (move buffers), ``costs``/``costs1`` (one cost a column),
    ``pair`` (two costs) and the seen set (``seen_keys``/``seen_tags``, SEEN_SIZE slots)
    are work buffers; ``seen_tags`` must hold no tag above 0 on entry.
    """
    vp = tables[0]
    ncols = vp[VP_COLUMNS]
    runs = vp[VP_RUNS]
    deals = vp[VP_DEALS]
    max_actions = params[P_MAX_ACTIONS]
    patience_full = params[P_PATIENCE]
    noise = params[P_NOISE]
    lookahead = params[P_LOOKAHEAD]
    mode = params[P_MODE]
    rng = np.zeros(1, dtype=np.uint64)
    for g in range(seeds.shape[0]):
        tag = g + 1
        rng[0] = seeds[g]
        unpack(start, pos)
        pos.key[0] = start_key
        hdr = pos.hdr
        down0 = 0
        for c in range(ncols):
            down0 += pos.down[c]
        for t in range(trace.shape[1]):
            trace[g, t] = -1
        _remember(seen_keys, seen_tags, tag, pos.key[0])
        patience = patience_full
        actions = 0
        while actions < max_actions and hdr[H_REMOVED] < runs:
            for c in range(ncols):
                costs[c] = visible_cost(pos, c, 0, weights)
            n = gen_moves(pos, vp, mode, out0)
            removed = hdr[H_REMOVED]
            gain_move = NO_MOVE
            gain_noisy = NO_VALUE
            neutral_move = NO_MOVE
            neutral_noisy = NO_VALUE
            fill_move = NO_MOVE
            fill_noisy = NO_VALUE
            may_deal = False
            for i in range(n):
                m = plain_move(out0[i])
                if m == MOVE_DEAL:
                    may_deal = True
                    continue
                src, dst, _ = decode_move(m)
                into_empty = pos.lens[dst] == 0
                info = do_move(pos, tables, m)
                if _is_seen(seen_keys, seen_tags, tag, pos.key[0]):
                    undo_move(pos, tables, m, info)
                    continue
                delta = move_delta(pos, m, info, removed, costs, weights, pair)
                value = delta
                turned_any = (info >> UNDO_TURNED) != 0
                if (lookahead == 2 or (lookahead == 1 and delta <= 0)) and not turned_any:
                    for c in range(ncols):
                        costs1[c] = costs[c]
                    costs1[src] = pair[0]
                    costs1[dst] = pair[1]
                    follow = _best_follow_up(pos, tables, weights, costs1, seen_keys, seen_tags, tag, mode, out1)
                    value = delta + follow
                undo_move(pos, tables, m, info)
                noisy = value * VALUE_SCALE + _below(rng, noise + 1)
                if into_empty and noisy < fill_noisy:
                    fill_move = m
                    fill_noisy = noisy
                if value < 0 and noisy < gain_noisy:
                    gain_move = m
                    gain_noisy = noisy
                elif value == 0 and noisy < neutral_noisy:
                    neutral_move = m
                    neutral_noisy = noisy
            if gain_move != NO_MOVE:
                play = gain_move
                patience = patience_full
            elif neutral_move != NO_MOVE and patience > 0:
                play = neutral_move
                patience -= 1
            elif may_deal:
                play = MOVE_DEAL
                patience = patience_full
            elif fill_move != NO_MOVE and hdr[H_DEALT] < deals:
                play = fill_move
            else:
                break
            do_move(pos, tables, play)
            _remember(seen_keys, seen_tags, tag, pos.key[0])
            if actions < trace.shape[1]:
                trace[g, actions] = play
            actions += 1
        down1 = 0
        for c in range(ncols):
            down1 += pos.down[c]
        results[g, G_WON] = 1 if hdr[H_REMOVED] == runs else 0
        results[g, G_REMOVED] = hdr[H_REMOVED]
        results[g, G_TURNED] = down0 - down1
        results[g, G_DEALT] = hdr[H_DEALT]
        results[g, G_ACTIONS] = actions
    return seeds.shape[0]


__all__ = [
    "FAIR_PARAMS", "FAIR_WEIGHTS", "GAME_FIELDS", "G_ACTIONS", "G_DEALT", "G_REMOVED", "G_TURNED", "G_WON",
    "SEEN_SIZE", "play_fair", "undo_turned", "visible_cost",
]
