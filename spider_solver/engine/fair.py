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
(The kernel values most moves without playing them, from counts kept over face-up
cards only, with the same results: see :func:`play_fair`.)

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

from spider_solver.engine.movegen import gen_moves, movable
from spider_solver.engine.position import do_move, undo_move, unpack
from spider_solver.engine.types import (
    FACE_DOWN,
    H_DEALT,
    H_REMOVED,
    INLINE,
    KERNEL,
    MAX_COLUMNS,
    MAX_HEIGHT,
    MAX_RANK,
    MODE_SEARCH,
    MOVE_DEAL,
    SUIT_SHIFT,
    UNDO_TURNED,
    VP_COLUMNS,
    VP_DEALS,
    VP_RANKS,
    VP_RELAXED,
    VP_RUNS,
    decode_move,
    encode_move,
    lowest_bit,
    make_card,
    plain_move,
    rank_of,
    suit_of,
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


#: What lies between two adjacent face-up cards (:func:`_break`).
NO_BREAK = 0
RANK_BREAK = 1
SUIT_BREAK = 2


@njit(**INLINE)
def _break(upper, lower):
    """The break between face-up card ``upper`` and the card ``lower`` on it: RANK_BREAK if
    the ranks do not follow, else SUIT_BREAK if the suits differ, else NO_BREAK (one run)."""
    upper = np.int64(upper)
    lower = np.int64(lower)
    if rank_of(lower) + 1 != rank_of(upper):
        return RANK_BREAK
    if (lower ^ upper) >= (1 << SUIT_SHIFT):
        return SUIT_BREAK
    return NO_BREAK


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
        kind = _break(cols[c, i - 1], cols[c, i])
        rank_breaks += kind == RANK_BREAK
        suit_breaks += kind == SUIT_BREAK
    # The base card is read only when it is face up and not masked.
    base_rank = rank_of(cols[c, 0]) if first == 0 else 0
    return _cost_of(weights, d, hide, rank_breaks, suit_breaks, base_rank)


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


# -- The fast evaluation of a move (the kernel's own bookkeeping; same values as above) ---


@njit(**INLINE)
def _set_breaks(pos, c, since, rbreaks, sbreaks):
    """Row c of ``rbreaks``/``sbreaks`` from card ``since`` up: at index i (face-up cards
    only, ``down[c] <= i < lens[c]``), the rank and suit breaks between face-up cards up to
    card i, counted as :func:`visible_cost` counts them. The row below ``since`` must be
    right already (``since`` at most ``down[c]``: the whole row)."""
    cols, lens, down, _, _ = pos
    n = lens[c]
    d = down[c]
    if n == 0:
        return
    if since <= d:
        since = d + 1
        r = 0
        s = 0
        rbreaks[c, d] = 0
        sbreaks[c, d] = 0
    else:
        r = rbreaks[c, since - 1]
        s = sbreaks[c, since - 1]
    for i in range(since, n):
        kind = _break(cols[c, i - 1], cols[c, i])
        r += kind == RANK_BREAK
        s += kind == SUIT_BREAK
        rbreaks[c, i] = r
        sbreaks[c, i] = s


@njit(**INLINE)
def _cost_of(weights, d, hide, rank_breaks, suit_breaks, base_rank):
    """:func:`visible_cost` of a non-empty column from its parts: ``d`` face-down cards,
    ``hide``, the breaks between its face-up cards, the rank of its base card (read only
    when it is face up)."""
    cost = weights[FW_DOWN] * d + weights[FW_RANK_BREAK] * rank_breaks + weights[FW_SUIT_BREAK] * suit_breaks
    if hide:
        cost += weights[FW_UNKNOWN]
    if d + hide > 0:
        if d > 0:
            cost += weights[FW_RUNS_ON_DOWN] * (rank_breaks + suit_breaks + 1)
    elif base_rank == 13:
        cost -= weights[FW_KING_BASE]
    elif rank_breaks + suit_breaks == 0:
        cost -= weights[FW_CLEAR_COLUMN]
    return cost


@njit(**INLINE)
def _source_cost(pos, weights, x, left, rbreaks, sbreaks):
    """The visible cost of column x left with its first ``left`` cards (the rest moved
    away; a card it uncovers is masked)."""
    cols, _, down, _, _ = pos
    if left == 0:
        return -weights[FW_EMPTY]
    d = down[x]
    if left == d:
        return _cost_of(weights, d - 1, 1, 0, 0, 0)
    base = rank_of(cols[x, 0]) if d == 0 else 0
    return _cost_of(weights, d, 0, rbreaks[x, left - 1], sbreaks[x, left - 1], base)


@njit(**INLINE)
def _target_cost(pos, weights, x, left, y, rbreaks, sbreaks):
    """The visible cost of column y once the cards of column x from ``left`` up lie on it
    (no run removed)."""
    cols, lens, down, _, _ = pos
    lx = lens[x]
    rank_breaks = rbreaks[x, lx - 1] - rbreaks[x, left]
    suit_breaks = sbreaks[x, lx - 1] - sbreaks[x, left]
    ly = lens[y]
    if ly == 0:
        return _cost_of(weights, 0, 0, rank_breaks, suit_breaks, rank_of(cols[x, left]))
    kind = _break(cols[y, ly - 1], cols[x, left])
    rank_breaks += kind == RANK_BREAK
    suit_breaks += kind == SUIT_BREAK
    d = down[y]
    base = rank_of(cols[y, 0]) if d == 0 else 0
    return _cost_of(weights, d, 0, rbreaks[y, ly - 1] + rank_breaks, sbreaks[y, ly - 1] + suit_breaks, base)


@njit(**INLINE)
def _key_change(pos, zob, x, y, count):
    """What ``do_move`` XORs into the key for moving ``count`` cards from x to y when no
    run is removed."""
    cols, lens, down, _, _ = pos
    left = lens[x] - count
    ly = lens[y]
    k = np.uint64(0)
    for i in range(count):
        b = cols[x, left + i]
        k ^= zob[x, left + i, b] ^ zob[y, ly + i, b]
    if left > 0 and down[x] == left:
        b = cols[x, left - 1]
        k ^= zob[x, left - 1, b | FACE_DOWN] ^ zob[x, left - 1, b]
    return k


@njit(**INLINE)
def _removes_run(pos, ranks, x, count, d):
    """True if moving ``count`` cards from column x to column d completes a run there (what
    ``do_move`` then removes): such a move is played out rather than valued from the break
    counts. Reads face-up cards only."""
    cols, lens, down, _, _ = pos
    lx = lens[x]
    last = cols[x, lx - 1]
    if rank_of(last) != 1:
        return False
    ld = lens[d]
    if ld - down[d] + count < ranks:
        return False
    suit = suit_of(last)
    for i in range(1, ranks):
        b = cols[x, lx - 1 - i] if i < count else cols[d, ld - 1 - (i - count)]
        if b != make_card(i + 1, suit):
            return False
    return True


@njit(**INLINE)
def _first_empty(lens, ncols):
    """The first empty column, or ncols if none."""
    for c in range(ncols):
        if lens[c] == 0:
            return c
    return ncols


@njit(**INLINE)
def _lower_best(pos, tables, weights, costs, seen_keys, seen_tags, tag, x, d, count, best, rbreaks, sbreaks):
    """``best`` lowered to the delta of moving ``count`` cards from x to d if that is lower
    and leads to a position not seen in this game."""
    lx = pos.lens[x]
    if _removes_run(pos, tables[0][VP_RANKS], x, count, d):  # play it out
        m = encode_move(x, d, count)
        removed = pos.hdr[H_REMOVED]
        info = do_move(pos, tables, m)
        cs = visible_cost(pos, x, _turned(info, x), weights)
        cd = visible_cost(pos, d, _turned(info, d), weights)
        delta = cs - costs[x] + cd - costs[d] - weights[FW_RUN] * (pos.hdr[H_REMOVED] - removed)
        if delta < best and not _is_seen(seen_keys, seen_tags, tag, pos.key[0]):
            best = delta
        undo_move(pos, tables, m, info)
        return best
    left = lx - count
    delta = (_source_cost(pos, weights, x, left, rbreaks, sbreaks) - costs[x]
             + _target_cost(pos, weights, x, left, d, rbreaks, sbreaks) - costs[d])
    if delta < best and not _is_seen(seen_keys, seen_tags, tag, pos.key[0] ^ _key_change(pos, tables[1], x, d, count)):
        best = delta
    return best


@njit(**INLINE)
def _empty_counts(group, lx, search):
    """The last group size ``gen_moves`` moves from a column of ``lx`` cards into an empty
    column (MODE_SEARCH: never the whole column)."""
    return group - 1 if search and group == lx else group


@njit(**KERNEL)
def _fresh_follow_up(pos, tables, weights, costs, seen_keys, seen_tags, tag, mode, src, dst, fe_changed, best,
                     rbreaks, sbreaks, tops, groups, holds, topped, movers):
    """``best`` lowered to the best visible gain of the moves from here (not a deal) that the
    known gains of the turn's position do not stand for: those that touch column ``src`` or
    ``dst`` (the columns the move just played changed), and, if ``fe_changed`` (that move
    changed which column is the first empty one), those into an empty column. The moves
    are those ``gen_moves`` makes, in another order (the best is a minimum).

    ``tops``/``groups``: each column's last rank (0 if empty) and movable group here;
    ``holds[r]``, ``topped[r]``, ``movers``: masks of the columns whose movable group holds
    rank r, whose last card is of rank r, that have a group, in the turn's position (right
    here for the columns other than src and dst)."""
    ncols = tables[0][VP_COLUMNS]
    lens = pos.lens
    search = mode == MODE_SEARCH
    first_empty = _first_empty(lens, ncols)
    empties = 0
    if first_empty < ncols:
        if search:
            empties = 1 << first_empty
        else:
            for d in range(first_empty, ncols):
                if lens[d] == 0:
                    empties |= 1 << d
    pair = (1 << src) | (1 << dst)
    others = ~pair
    # src and dst to anywhere.
    for x, y in ((src, dst), (dst, src)):
        group = groups[x]
        if group == 0:
            continue
        low = tops[x]
        lx = lens[x]
        targets = 0
        for r in range(low + 1, low + group + 1):
            targets |= topped[r]
        targets &= others
        count = tops[y] - low
        if lens[y] > 0 and count >= 1 and count <= group:
            targets |= 1 << y
        while targets:
            d = lowest_bit(targets)
            targets &= targets - 1
            best = _lower_best(pos, tables, weights, costs, seen_keys, seen_tags, tag, x, d, tops[d] - low, best,
                               rbreaks, sbreaks)
        into = empties
        while into:
            d = lowest_bit(into)
            into &= into - 1
            for count in range(1, _empty_counts(group, lx, search) + 1):
                best = _lower_best(pos, tables, weights, costs, seen_keys, seen_tags, tag, x, d, count, best,
                                   rbreaks, sbreaks)
    # The other columns onto src or dst.
    for d in (src, dst):
        if lens[d] == 0 or tops[d] < 2:
            continue
        sources = holds[tops[d] - 1] & others
        while sources:
            x = lowest_bit(sources)
            sources &= sources - 1
            best = _lower_best(pos, tables, weights, costs, seen_keys, seen_tags, tag, x, d, tops[d] - tops[x], best,
                               rbreaks, sbreaks)
    # The other columns into an empty src or dst, or into any empty column if fe_changed.
    into = empties if fe_changed else empties & pair
    while into:
        d = lowest_bit(into)
        into &= into - 1
        sources = movers & others
        while sources:
            x = lowest_bit(sources)
            sources &= sources - 1
            for count in range(1, _empty_counts(groups[x], lens[x], search) + 1):
                best = _lower_best(pos, tables, weights, costs, seen_keys, seen_tags, tag, x, d, count, best,
                                   rbreaks, sbreaks)
    return best


@njit(**KERNEL)
def _play_games(start, start_key, tables, weights, params, seeds, pos, out0, costs, pair, seen_keys, seen_tags,
                results, trace, rng, keyd, deltas, infos, news, fresh, gains, rbreaks, sbreaks, tops, groups, holds,
                topped):
    """The body of :func:`play_fair`, its work arrays given (a kernel without reference counting)."""
    vp, zob, _, _ = tables
    ncols = vp[VP_COLUMNS]
    runs = vp[VP_RUNS]
    deals = vp[VP_DEALS]
    relaxed = vp[VP_RELAXED] != 0
    ranks = vp[VP_RANKS]
    max_actions = params[P_MAX_ACTIONS]
    patience_full = params[P_PATIENCE]
    noise = params[P_NOISE]
    lookahead = params[P_LOOKAHEAD]
    mode = params[P_MODE]
    for g in range(seeds.shape[0]):
        tag = g + 1
        rng[0] = seeds[g]
        unpack(start, pos)
        pos.key[0] = start_key
        cols = pos.cols
        hdr = pos.hdr
        lens = pos.lens
        down0 = 0
        for c in range(ncols):
            down0 += pos.down[c]
        for t in range(trace.shape[1]):
            trace[g, t] = -1
        _remember(seen_keys, seen_tags, tag, pos.key[0])
        patience = patience_full
        actions = 0
        for c in range(ncols):
            costs[c] = visible_cost(pos, c, 0, weights)
            _set_breaks(pos, c, 0, rbreaks, sbreaks)
        while actions < max_actions and hdr[H_REMOVED] < runs:
            n = gen_moves(pos, vp, mode, out0)
            removed = hdr[H_REMOVED]
            key0 = pos.key[0]
            fe0 = _first_empty(lens, ncols)
            # Value every move once: its key change, delta, new column costs; the gains, best first.
            ngains = 0
            for i in range(n):
                m = plain_move(out0[i])
                out0[i] = m
                if m == MOVE_DEAL:
                    continue
                src, dst, count = decode_move(m)
                if _removes_run(pos, ranks, src, count, dst):
                    info = do_move(pos, tables, m)
                    keyd[i] = pos.key[0] ^ key0
                    delta = move_delta(pos, m, info, removed, costs, weights, pair)
                    news[i, 0] = pair[0]
                    news[i, 1] = pair[1]
                    undo_move(pos, tables, m, info)
                else:
                    left = lens[src] - count
                    info = undo_turned(src) if left > 0 and pos.down[src] == left else 0
                    keyd[i] = _key_change(pos, zob, src, dst, count)
                    cs = _source_cost(pos, weights, src, left, rbreaks, sbreaks)
                    cd = _target_cost(pos, weights, src, left, dst, rbreaks, sbreaks)
                    delta = cs - costs[src] + cd - costs[dst]
                    news[i, 0] = cs
                    news[i, 1] = cd
                infos[i] = info
                deltas[i] = delta
                fresh[i] = not _is_seen(seen_keys, seen_tags, tag, key0 ^ keyd[i])
                if delta < 0:
                    k = ngains
                    while k > 0 and deltas[gains[k - 1]] > delta:
                        gains[k] = gains[k - 1]
                        k -= 1
                    gains[k] = i
                    ngains += 1
            have_groups = False
            movers = 0
            gain_move = NO_MOVE
            gain_noisy = NO_VALUE
            neutral_move = NO_MOVE
            neutral_noisy = NO_VALUE
            fill_move = NO_MOVE
            fill_noisy = NO_VALUE
            may_deal = False
            for i in range(n):
                m = out0[i]
                if m == MOVE_DEAL:
                    may_deal = True
                    continue
                if not fresh[i]:
                    continue
                src, dst, _ = decode_move(m)
                into_empty = lens[dst] == 0
                info = infos[i]
                delta = deltas[i]
                value = delta
                turned_any = (info >> UNDO_TURNED) != 0
                if (lookahead == 2 or (lookahead == 1 and delta <= 0)) and not turned_any:
                    if not have_groups:
                        movers = 0
                        for r in range(MAX_RANK + 2):
                            holds[r] = 0
                            topped[r] = 0
                        for c in range(ncols):
                            tops[c] = rank_of(cols[c, lens[c] - 1]) if lens[c] > 0 else 0
                            groups[c] = movable(pos, c, relaxed)
                            if groups[c] > 0:
                                movers |= 1 << c
                                topped[tops[c]] |= 1 << c
                                for r in range(tops[c], tops[c] + groups[c]):
                                    holds[r] |= 1 << c
                        have_groups = True
                    top_src = tops[src]
                    top_dst = tops[dst]
                    group_src = groups[src]
                    group_dst = groups[dst]
                    len_dst = lens[dst]
                    info = do_move(pos, tables, m)
                    fe_changed = _first_empty(lens, ncols) != fe0
                    key1 = pos.key[0]
                    best = 0
                    pair_mask = (1 << src) | (1 << dst)
                    for k in range(ngains):
                        j = gains[k]
                        s2, d2, _ = decode_move(out0[j])
                        if ((pair_mask >> s2) | (pair_mask >> d2)) & 1 or (fe_changed and lens[d2] == 0):
                            continue
                        if not _is_seen(seen_keys, seen_tags, tag, key1 ^ keyd[j]):
                            best = deltas[j]
                            break
                    # At P + m the rows of src (shorter, nothing turned up) and of dst below its
                    # old length are right; dst's row is extended over the cards m put there.
                    _set_breaks(pos, dst, len_dst, rbreaks, sbreaks)
                    tops[src] = rank_of(cols[src, lens[src] - 1]) if lens[src] > 0 else 0
                    groups[src] = movable(pos, src, relaxed)
                    tops[dst] = rank_of(cols[dst, lens[dst] - 1]) if lens[dst] > 0 else 0
                    groups[dst] = movable(pos, dst, relaxed)
                    cost_src = costs[src]
                    cost_dst = costs[dst]
                    costs[src] = news[i, 0]
                    costs[dst] = news[i, 1]
                    best = _fresh_follow_up(pos, tables, weights, costs, seen_keys, seen_tags, tag, mode,
                                            src, dst, fe_changed, best, rbreaks, sbreaks, tops, groups, holds,
                                            topped, movers)
                    costs[src] = cost_src
                    costs[dst] = cost_dst
                    tops[src] = top_src
                    tops[dst] = top_dst
                    groups[src] = group_src
                    groups[dst] = group_dst
                    undo_move(pos, tables, m, info)
                    value = delta + best
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
            if play == MOVE_DEAL:
                for c in range(ncols):
                    costs[c] = visible_cost(pos, c, 0, weights)
                    _set_breaks(pos, c, 0, rbreaks, sbreaks)
            else:
                src, dst, _ = decode_move(play)
                costs[src] = visible_cost(pos, src, 0, weights)
                _set_breaks(pos, src, 0, rbreaks, sbreaks)
                costs[dst] = visible_cost(pos, dst, 0, weights)
                _set_breaks(pos, dst, 0, rbreaks, sbreaks)
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


@njit(cache=True)
def play_fair(start, start_key, tables, weights, params, seeds, pos, out0, costs, pair, seen_keys, seen_tags, results,
              trace):
    """Play ``len(seeds)`` games of one deal from the packed ``start`` state.

    Game g draws its noise from SplitMix64 seeded with ``seeds[g]``; its figures go to
    ``results[g, G_*]``, its first ``trace.shape[1]`` actions to ``trace[g]`` (then -1).
    ``pos``, ``out0`` (a move buffer), ``costs`` (one cost a column), ``pair`` (two costs)
    and the seen set (``seen_keys``/``seen_tags``, SEEN_SIZE slots) are work buffers;
    ``seen_tags`` must hold no tag above 0 on entry. The games themselves run in
    ``_play_games``, a kernel without reference counting (issue 11: the reference counts
    of the work arrays were most of the cost of a turn).

    How a turn is computed (the strategy is the module's; the figures and actions are
    exactly those of playing every move and every follow-up out with ``do_move``, which
    ``tests/fair_reference.py`` keeps and ``tests/test_grading.py`` compares against):

    * the visible cost of a column after a move is computed from per-column counts of
      the breaks between face-up cards (``_set_breaks``) and its key change from the
      cards moved (``_key_change``), without playing it, unless it completes a run
      (``_removes_run``): that one is played out;
    * the look-ahead after a move m is min(0, best follow-up delta). A follow-up m2 that
      touches neither column of m (and, if m changed which column is the first empty
      one, does not go into an empty column) is a move of this position P too, with the
      same delta at P + m as at P (its two columns and their runs are the same) and the
      key key(P + m) ^ key(P + m2) ^ key(P) (Zobrist keys XOR over cells; m and m2
      change disjoint cells). So the gains of P stand for those, best first, and only
      the follow-ups that touch m's columns are valued afresh (``_fresh_follow_up``).
    """
    rng = np.zeros(1, dtype=np.uint64)
    size = out0.shape[0]
    keyd = np.zeros(size, dtype=np.uint64)
    deltas = np.zeros(size, dtype=np.int64)
    infos = np.zeros(size, dtype=np.int64)
    news = np.zeros((size, 2), dtype=np.int64)
    fresh = np.zeros(size, dtype=np.bool_)
    gains = np.zeros(size, dtype=np.int64)
    # Break counts, a row a column (``_set_breaks``).
    rbreaks = np.zeros((MAX_COLUMNS, MAX_HEIGHT), dtype=np.int64)
    sbreaks = np.zeros((MAX_COLUMNS, MAX_HEIGHT), dtype=np.int64)
    tops = np.zeros(MAX_COLUMNS, dtype=np.int64)
    groups = np.zeros(MAX_COLUMNS, dtype=np.int64)
    holds = np.zeros(MAX_RANK + 2, dtype=np.int64)
    topped = np.zeros(MAX_RANK + 2, dtype=np.int64)
    return _play_games(start, start_key, tables, weights, params, seeds, pos, out0, costs, pair, seen_keys,
                       seen_tags, results, trace, rng, keyd, deltas, infos, news, fresh, gains, rbreaks, sbreaks,
                       tops, groups, holds, topped)




__all__ = [
    "FAIR_PARAMS", "FAIR_WEIGHTS", "GAME_FIELDS", "G_ACTIONS", "G_DEALT", "G_REMOVED", "G_TURNED", "G_WON",
    "SEEN_SIZE", "play_fair", "undo_turned", "visible_cost",
]
