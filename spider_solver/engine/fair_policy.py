"""The fair player's policy: how it values the moves of a turn and which one it plays.

Each turn (:func:`choose`):

1. Every legal move (not the deal) leading to a position not seen in this game is
   valued by the change ``delta`` of the visible cost (:mod:`spider_solver.engine.fair_cost`;
   a card turned up is a gain). A move that turns nothing up is looked one move further
   (over known cards only; ``P_LOOKAHEAD``): its value is ``delta`` plus the best
   following ``delta`` if that is a gain.
2. Each value gets random noise (uniform, ``P_NOISE`` sixteenths of a weight unit),
   seeded per game, which breaks ties and makes every game different.
3. The best gaining move (``value < 0``, by noisy value) is played; failing that the
   best neutral one (``value == 0``) if the player still has patience
   (``P_PATIENCE`` neutral moves in a row). Otherwise the player deals; if
   an empty column forbids dealing, it fills one (its best move into an empty
   column); if the stock is empty and nothing gains, the game ends.

How the values are computed (the figures and actions are exactly those of playing every
move and every follow-up out with ``do_move``, which ``tests/fair_reference.py`` keeps
and ``tests/test_grading.py`` compares against):

* the visible cost of a column after a move is computed from the break counts of
  :class:`~spider_solver.engine.fair_cost.ColumnCosts` and its key change from the
  cards moved (:func:`_key_change`), without playing it, unless it completes a run
  (:func:`_removes_run`): that one is played out;
* the look-ahead after a move m is min(0, best follow-up delta). A follow-up m2 that
  touches neither column of m (and, if m changed which column is the first empty
  one, does not go into an empty column) is a move of this position P too, with the
  same delta at P + m as at P (its two columns and their runs are the same) and the
  key key(P + m) ^ key(P + m2) ^ key(P) (Zobrist keys XOR over cells; m and m2
  change disjoint cells). So the gains of P stand for those, best first, and only
  the follow-ups that touch m's columns are valued afresh (:func:`_fresh_follow_up`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from spider_solver.engine.fair_cost import (
    FW_RUN,
    move_delta,
    set_breaks,
    source_cost,
    target_cost,
    turned,
    visible_cost,
)
from spider_solver.engine.movegen import gen_moves, movable
from spider_solver.engine.position import do_move, undo_move
from spider_solver.engine.rng import below
from spider_solver.engine.seen import seen_contains
from spider_solver.engine.types import (
    FACE_DOWN,
    H_DEALT,
    H_REMOVED,
    INLINE,
    KERNEL,
    MAX_RANK,
    MODE_SEARCH,
    MOVE_DEAL,
    UNDO_TURNED,
    VP_COLUMNS,
    VP_DEALS,
    VP_RANKS,
    VP_RELAXED,
    decode_move,
    encode_move,
    lowest_bit,
    make_card,
    plain_move,
    rank_of,
    suit_of,
    undo_turned,
)

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
#: The 1-suit player's parameters (grader ``fair-6``): 600 actions, 2 neutral moves in a
#: row, noise of 12.5 weight units, no look-ahead; with ``ONE_SUIT_WEIGHTS``. Chosen on
#: tuning deals against a casual player (benchmarks/choose_player.py).
ONE_SUIT_PARAMS = np.array([600, 2, 200, 0, MODE_SEARCH], dtype=np.int64)

#: Scale of a value before the noise is added (noise is in sixteenths of a weight unit).
VALUE_SCALE = 16
#: No move chosen (also: the game ends).
NO_MOVE = -1
NO_VALUE = 1 << 60


class Player(NamedTuple):
    """The player: how it values and decides, its noise, and what it keeps of the game."""

    weights: np.ndarray  # int64[FAIR_WEIGHTS_SIZE]: the visible cost's weights
    params: np.ndarray  # int64[PARAMS_SIZE]
    costs: tuple  # ColumnCosts of the current position
    seen: tuple  # Seen: the positions of this game
    rng: np.ndarray  # uint64[1]: the state of this game's noise (SplitMix64)


class Turn(NamedTuple):
    """The moves of a turn's position, valued once (row i: move i of ``moves``)."""

    moves: np.ndarray  # int64[MAX_MOVES]: gen_moves' output, made plain
    keyd: np.ndarray  # uint64[MAX_MOVES]: what the move XORs into the position's key
    deltas: np.ndarray  # int64[MAX_MOVES]: the change of the visible cost
    infos: np.ndarray  # int64[MAX_MOVES]: its undo information's turned-up bits
    news: np.ndarray  # int64[MAX_MOVES, 2]: the new costs of its source and target columns
    fresh: np.ndarray  # bool[MAX_MOVES]: it leads to a position not seen in this game
    gains: np.ndarray  # int64[MAX_MOVES]: the rows of the moves with delta < 0, lowest delta first
    pair: np.ndarray  # int64[2]: move_delta's new costs


class Shapes(NamedTuple):
    """Where the columns' movable groups lie (for the look-ahead's follow-ups)."""

    tops: np.ndarray  # int64[MAX_COLUMNS]: the rank of the last card (0 if empty)
    groups: np.ndarray  # int64[MAX_COLUMNS]: the size of the movable group
    holds: np.ndarray  # int64[MAX_RANK + 2]: at r, a mask of the columns whose movable group holds rank r
    topped: np.ndarray  # int64[MAX_RANK + 2]: at r, a mask of the columns whose last card is of rank r
    movers: np.ndarray  # int64[1]: a mask of the columns that have a movable group


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
def first_empty(lens, ncols):
    """The first empty column, or ncols if none."""
    for c in range(ncols):
        if lens[c] == 0:
            return c
    return ncols


@njit(**INLINE)
def _lower_best(pos, tables, player, x, d, count, best):
    """``best`` lowered to the delta of moving ``count`` cards from x to d if that is lower
    and leads to a position not seen in this game."""
    weights, _, costs, seen, _ = player
    cost = costs.cost
    lx = pos.lens[x]
    if _removes_run(pos, tables[0][VP_RANKS], x, count, d):  # play it out
        m = encode_move(x, d, count)
        removed = pos.hdr[H_REMOVED]
        info = do_move(pos, tables, m)
        cs = visible_cost(pos, x, turned(info, x), weights)
        cd = visible_cost(pos, d, turned(info, d), weights)
        delta = cs - cost[x] + cd - cost[d] - weights[FW_RUN] * (pos.hdr[H_REMOVED] - removed)
        if delta < best and not seen_contains(seen, pos.key[0]):
            best = delta
        undo_move(pos, tables, m, info)
        return best
    left = lx - count
    delta = (source_cost(pos, weights, x, left, costs) - cost[x]
             + target_cost(pos, weights, x, left, d, costs) - cost[d])
    if delta < best and not seen_contains(seen, pos.key[0] ^ _key_change(pos, tables[1], x, d, count)):
        best = delta
    return best


@njit(**INLINE)
def _empty_counts(group, lx, search):
    """The last group size ``gen_moves`` moves from a column of ``lx`` cards into an empty
    column (MODE_SEARCH: never the whole column)."""
    return group - 1 if search and group == lx else group


@njit(**KERNEL)
def _fresh_follow_up(pos, tables, player, shapes, src, dst, fe_changed, best):
    """``best`` lowered to the best visible gain of the moves from here (not a deal) that the
    known gains of the turn's position do not stand for: those that touch column ``src`` or
    ``dst`` (the columns the move just played changed), and, if ``fe_changed`` (that move
    changed which column is the first empty one), those into an empty column. The moves
    are those ``gen_moves`` makes, in another order (the best is a minimum).

    ``shapes``: each column's last rank and movable group here (``tops``, ``groups``), and
    the masks ``holds``, ``topped``, ``movers`` of the turn's position (right here for the
    columns other than src and dst)."""
    tops, groups, holds, topped, movers = shapes
    ncols = tables[0][VP_COLUMNS]
    lens = pos.lens
    search = player.params[P_MODE] == MODE_SEARCH
    first = first_empty(lens, ncols)
    empties = 0
    if first < ncols:
        if search:
            empties = 1 << first
        else:
            for d in range(first, ncols):
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
            best = _lower_best(pos, tables, player, x, d, tops[d] - low, best)
        into = empties
        while into:
            d = lowest_bit(into)
            into &= into - 1
            for count in range(1, _empty_counts(group, lx, search) + 1):
                best = _lower_best(pos, tables, player, x, d, count, best)
    # The other columns onto src or dst.
    for d in (src, dst):
        if lens[d] == 0 or tops[d] < 2:
            continue
        sources = holds[tops[d] - 1] & others
        while sources:
            x = lowest_bit(sources)
            sources &= sources - 1
            best = _lower_best(pos, tables, player, x, d, tops[d] - tops[x], best)
    # The other columns into an empty src or dst, or into any empty column if fe_changed.
    into = empties if fe_changed else empties & pair
    while into:
        d = lowest_bit(into)
        into &= into - 1
        sources = movers[0] & others
        while sources:
            x = lowest_bit(sources)
            sources &= sources - 1
            for count in range(1, _empty_counts(groups[x], lens[x], search) + 1):
                best = _lower_best(pos, tables, player, x, d, count, best)
    return best


@njit(**INLINE)
def _value_moves(pos, tables, player, turn, n):
    """Value the turn's ``n`` moves once (made plain in ``turn.moves``): each one's key
    change, delta, new column costs and freshness. Returns how many gain (``turn.gains``)."""
    vp, zob, _, _ = tables
    weights, _, costs, seen, _ = player
    moves, keyd, deltas, infos, news, fresh, gains, pair = turn
    cost = costs.cost
    lens = pos.lens
    ranks = vp[VP_RANKS]
    removed = pos.hdr[H_REMOVED]
    key0 = pos.key[0]
    ngains = 0
    for i in range(n):
        m = plain_move(moves[i])
        moves[i] = m
        if m == MOVE_DEAL:
            continue
        src, dst, count = decode_move(m)
        if _removes_run(pos, ranks, src, count, dst):
            info = do_move(pos, tables, m)
            keyd[i] = pos.key[0] ^ key0
            delta = move_delta(pos, m, info, removed, cost, weights, pair)
            news[i, 0] = pair[0]
            news[i, 1] = pair[1]
            undo_move(pos, tables, m, info)
        else:
            left = lens[src] - count
            info = undo_turned(src) if left > 0 and pos.down[src] == left else 0
            keyd[i] = _key_change(pos, zob, src, dst, count)
            cs = source_cost(pos, weights, src, left, costs)
            cd = target_cost(pos, weights, src, left, dst, costs)
            delta = cs - cost[src] + cd - cost[dst]
            news[i, 0] = cs
            news[i, 1] = cd
        infos[i] = info
        deltas[i] = delta
        fresh[i] = not seen_contains(seen, key0 ^ keyd[i])
        if delta < 0:
            k = ngains
            while k > 0 and deltas[gains[k - 1]] > delta:
                gains[k] = gains[k - 1]
                k -= 1
            gains[k] = i
            ngains += 1
    return ngains


@njit(**INLINE)
def _load_shapes(pos, tables, shapes):
    """``shapes`` of the turn's position."""
    tops, groups, holds, topped, movers = shapes
    ncols = tables[0][VP_COLUMNS]
    relaxed = tables[0][VP_RELAXED] != 0
    cols = pos.cols
    lens = pos.lens
    mask = 0
    for r in range(MAX_RANK + 2):
        holds[r] = 0
        topped[r] = 0
    for c in range(ncols):
        tops[c] = rank_of(cols[c, lens[c] - 1]) if lens[c] > 0 else 0
        groups[c] = movable(pos, c, relaxed)
        if groups[c] > 0:
            mask |= 1 << c
            topped[tops[c]] |= 1 << c
            for r in range(tops[c], tops[c] + groups[c]):
                holds[r] |= 1 << c
    movers[0] = mask


@njit(**INLINE)
def _look_ahead(pos, tables, player, turn, shapes, i, ngains, fe0):
    """The best delta (0 if none gains) of a move after the turn's move i (which turns nothing
    up; ``fe0`` the turn's first empty column), over positions not seen in this game."""
    moves, keyd, deltas, _, news, _, gains, _ = turn
    tops = shapes.tops
    groups = shapes.groups
    costs = player.costs
    cost = costs.cost
    ncols = tables[0][VP_COLUMNS]
    relaxed = tables[0][VP_RELAXED] != 0
    cols = pos.cols
    lens = pos.lens
    m = moves[i]
    src, dst, _ = decode_move(m)
    top_src = tops[src]
    top_dst = tops[dst]
    group_src = groups[src]
    group_dst = groups[dst]
    len_dst = lens[dst]
    info = do_move(pos, tables, m)
    fe_changed = first_empty(lens, ncols) != fe0
    key1 = pos.key[0]
    best = 0
    pair_mask = (1 << src) | (1 << dst)
    for k in range(ngains):
        j = gains[k]
        s2, d2, _ = decode_move(moves[j])
        if ((pair_mask >> s2) | (pair_mask >> d2)) & 1 or (fe_changed and lens[d2] == 0):
            continue
        if not seen_contains(player.seen, key1 ^ keyd[j]):
            best = deltas[j]
            break
    # At P + m the rows of src (shorter, nothing turned up) and of dst below its
    # old length are right; dst's row is extended over the cards m put there.
    set_breaks(pos, dst, len_dst, costs)
    tops[src] = rank_of(cols[src, lens[src] - 1]) if lens[src] > 0 else 0
    groups[src] = movable(pos, src, relaxed)
    tops[dst] = rank_of(cols[dst, lens[dst] - 1]) if lens[dst] > 0 else 0
    groups[dst] = movable(pos, dst, relaxed)
    cost_src = cost[src]
    cost_dst = cost[dst]
    cost[src] = news[i, 0]
    cost[dst] = news[i, 1]
    best = _fresh_follow_up(pos, tables, player, shapes, src, dst, fe_changed, best)
    cost[src] = cost_src
    cost[dst] = cost_dst
    tops[src] = top_src
    tops[dst] = top_dst
    groups[src] = group_src
    groups[dst] = group_dst
    undo_move(pos, tables, m, info)
    return best


@njit(**INLINE)
def _candidates(pos, tables, player, turn, shapes, n, ngains):
    """The turn's best gaining move, best neutral move and best move into an empty column
    by noisy value (NO_MOVE if none), over moves to unseen positions; and whether it may deal."""
    params = player.params
    lookahead = params[P_LOOKAHEAD]
    noise = params[P_NOISE]
    moves, _, deltas, infos, _, fresh, _, _ = turn
    lens = pos.lens
    fe0 = first_empty(lens, tables[0][VP_COLUMNS])
    have_shapes = False
    gain_move = NO_MOVE
    gain_noisy = NO_VALUE
    neutral_move = NO_MOVE
    neutral_noisy = NO_VALUE
    fill_move = NO_MOVE
    fill_noisy = NO_VALUE
    may_deal = False
    for i in range(n):
        m = moves[i]
        if m == MOVE_DEAL:
            may_deal = True
            continue
        if not fresh[i]:
            continue
        _, dst, _ = decode_move(m)
        into_empty = lens[dst] == 0
        delta = deltas[i]
        value = delta
        turned_any = (infos[i] >> UNDO_TURNED) != 0
        if (lookahead == 2 or (lookahead == 1 and delta <= 0)) and not turned_any:
            if not have_shapes:
                _load_shapes(pos, tables, shapes)
                have_shapes = True
            value = delta + _look_ahead(pos, tables, player, turn, shapes, i, ngains, fe0)
        noisy = value * VALUE_SCALE + below(player.rng, noise + 1)
        if into_empty and noisy < fill_noisy:
            fill_move = m
            fill_noisy = noisy
        if value < 0 and noisy < gain_noisy:
            gain_move = m
            gain_noisy = noisy
        elif value == 0 and noisy < neutral_noisy:
            neutral_move = m
            neutral_noisy = noisy
    return gain_move, neutral_move, fill_move, may_deal


@njit(**INLINE)
def choose(pos, tables, player, turn, shapes, patience):
    """The action of this turn and the patience left after it: ``(move, patience)``, the
    move NO_MOVE if the game ends here. ``patience``: neutral moves the player may still
    make in a row. ``player.costs`` must be those of ``pos``."""
    vp = tables[0]
    params = player.params
    n = gen_moves(pos, vp, params[P_MODE], turn.moves)
    ngains = _value_moves(pos, tables, player, turn, n)
    gain_move, neutral_move, fill_move, may_deal = _candidates(pos, tables, player, turn, shapes, n, ngains)
    if gain_move != NO_MOVE:
        return gain_move, params[P_PATIENCE]
    if neutral_move != NO_MOVE and patience > 0:
        return neutral_move, patience - 1
    if may_deal:
        return MOVE_DEAL, params[P_PATIENCE]
    if fill_move != NO_MOVE and pos.hdr[H_DEALT] < vp[VP_DEALS]:
        return fill_move, patience
    return NO_MOVE, patience
