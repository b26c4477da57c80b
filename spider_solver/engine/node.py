"""A cheaper node: a parent is read once, its children are scored without being played.

``expand_level`` used to unpack a parent, evaluate its ten columns, generate its
moves (one more pass over the columns), and then, for every child, play the move,
re-count the breaks of its two columns, and take the move back. Here one pass over
the parent's packed state (``load_parent``) unpacks it and keeps, per column, what
its children need:

* the evaluation's terms: face-down cards (``pos.down``), and the number of rank
  breaks and of suit breaks below each face-up card (prefix counts), so that the
  cost of a column cut at any height, or of a column with a group put on it, is a
  few additions (``cost_of_column``, the evaluation's one formula);
* the move generator's summary: each column's last rank and movable group size
  (``gen_moves_of``), and the length of the run of one suit at its top.

``child`` then gives a move's key (Zobrist, XORed in place of the moved cards) and
score without touching the position, the deal's included (one card of the stock on
each column); only a move that completes a run (rare) is played with
``do_move`` as before. ``pack_child`` writes a kept child's packed state from its
parent's bytes, and its key is the candidate's. Keys, scores and the order of moves
are the ones the played moves give, so the search is the same search, only cheaper;
``tests/engine/test_node.py`` checks that against ``do_move``, ``pack``,
``key_from_scratch`` and ``evaluate`` on random lines.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from spider_solver.engine.evaluate import W_EMPTY, W_RUN, column_cost, cost_of_column, evaluate
from spider_solver.engine.movegen import NO_COLUMN, gen_moves_of, in_field
from spider_solver.engine.position import do_move, undo_move
from spider_solver.engine.types import (
    CARD_CELLS,
    FACE_DOWN,
    FACE_UP_MASK,
    H_DEALT,
    H_REMOVED,
    INLINE,
    KERNEL,
    MAX_COLUMNS,
    MAX_HEIGHT,
    MOVE_DEAL,
    OFF_CARDS,
    OFF_DEALT,
    OFF_LENS,
    OFF_REMOVED,
    STATE_BYTES,
    SUIT_SHIFT,
    VP_COLUMNS,
    VP_RANKS,
    VP_RELAXED,
    decode_move,
    rank_of,
    same_suit,
)


class Parent(NamedTuple):
    """What ``load_parent`` keeps of a position for scoring its children."""

    costs: np.ndarray  # int64[MAX_COLUMNS]: each column's share of the evaluation
    runs: np.ndarray  # int64[MAX_COLUMNS]: cards at the top of the column in one run of one suit
    #: int64[MAX_COLUMNS, MAX_HEIGHT]: at face-up height i, the rank breaks (the ranks do
    #: not follow) and the suit breaks (they follow, the suits differ) between face-up
    #: cards at heights down..i; not kept below the face-up cards.
    rank_breaks: np.ndarray
    suit_breaks: np.ndarray
    #: int64[SUMMARY_SIZE]: the move generator's summary (SUM_*).
    summary: np.ndarray


#: ``Parent.summary``: ``gen_moves_of``'s tops and groups words and first empty column.
SUM_TOPS = 0
SUM_GROUPS = 1
SUM_FIRST_EMPTY = 2
SUMMARY_SIZE = 3


@njit(cache=True)
def new_parent():
    return Parent(
        np.zeros(MAX_COLUMNS, dtype=np.int64),
        np.zeros(MAX_COLUMNS, dtype=np.int64),
        np.zeros((MAX_COLUMNS, MAX_HEIGHT), dtype=np.int64),
        np.zeros((MAX_COLUMNS, MAX_HEIGHT), dtype=np.int64),
        np.zeros(SUMMARY_SIZE, dtype=np.int64),
    )


@njit(**INLINE)
def parent_moves(pos, vp, mode, out, par):
    """``gen_moves`` of the position ``load_parent`` loaded, from its summary."""
    summary = par.summary
    return gen_moves_of(pos, vp, mode, out, summary[SUM_TOPS], summary[SUM_GROUPS], summary[SUM_FIRST_EMPTY])


@njit(**INLINE)
def load_parent(state, pos, vp, weights, par):
    """Unpack ``state`` into ``pos`` (not its key) and fill ``par``; return the evaluation.

    One pass over the cards: the same work as ``unpack``, ``evaluate`` and the column
    summary of ``gen_moves`` together, whose results it equals.
    """
    cols, lens, down, hdr, _ = pos
    costs, runs, rank_breaks, suit_breaks, summary = par
    ncols = vp[VP_COLUMNS]
    relaxed = vp[VP_RELAXED] != 0
    total = -weights[W_RUN] * np.int64(state[OFF_REMOVED])
    tops = 0
    groups = 0
    first_empty = NO_COLUMN
    p = OFF_CARDS
    for c in range(MAX_COLUMNS):
        n = np.int64(state[OFF_LENS + c])
        lens[c] = n
        if n == 0:
            down[c] = 0
            runs[c] = 0
            costs[c] = -weights[W_EMPTY]
            total += costs[c]
            if c < ncols and first_empty == NO_COLUMN:
                first_empty = c
            continue
        d = 0
        while d < n and state[p + d] & FACE_DOWN:
            cols[c, d] = state[p + d] & FACE_UP_MASK
            d += 1
        down[c] = d
        upper = np.int64(state[p + d])
        cols[c, d] = upper
        rb = 0
        sb = 0
        rank_breaks[c, d] = 0
        suit_breaks[c, d] = 0
        # Where the run of one suit, and the run of following ranks, at the top begin.
        run_start = d
        rank_start = d
        for i in range(d + 1, n):
            lower = np.int64(state[p + i])
            cols[c, i] = lower
            follows = np.int64(rank_of(lower) + 1 == rank_of(upper))
            same = np.int64((lower ^ upper) < (1 << SUIT_SHIFT))
            rb += 1 - follows
            sb += follows & (1 - same)
            rank_breaks[c, i] = rb
            suit_breaks[c, i] = sb
            if follows == 0:
                rank_start = i
                run_start = i
            elif same == 0:
                run_start = i
            upper = lower
        runs[c] = n - run_start
        costs[c] = cost_of_column(d, rb, sb, rank_of(np.int64(cols[c, 0])), weights)
        total += costs[c]
        if c < ncols:
            tops |= in_field(rank_of(upper), c)
            groups |= in_field(n - (rank_start if relaxed else run_start), c)
        p += n
    hdr[H_DEALT] = state[OFF_DEALT]
    hdr[H_REMOVED] = state[OFF_REMOVED]
    summary[SUM_TOPS] = tops
    summary[SUM_GROUPS] = groups
    summary[SUM_FIRST_EMPTY] = first_empty
    return total


@njit(**INLINE)
def completes_run(pos, par, ranks, src, dst, count):
    """True if moving ``count`` cards from ``src`` onto ``dst`` leaves a whole run at the top of ``dst``."""
    cols, lens, _, _, _ = pos
    runs = par.runs
    ls = lens[src]
    if rank_of(cols[src, ls - 1]) != 1:
        return False
    if count > runs[src]:
        return runs[src] >= ranks
    length = count
    nd = lens[dst]
    if nd > 0 and same_suit(cols[dst, nd - 1], cols[src, ls - count]):
        length += runs[dst]
    return length >= ranks


@njit(**INLINE)
def child(pos, tables, par, weights, total, key, move):
    """The key and the score of the child ``move`` makes, or ``played`` = True if it must
    be played (a move, or a deal, that completes a run): ``(played, key, score)``."""
    cols, lens, down, _, _ = pos
    vp, zob, _, _ = tables
    if move == MOVE_DEAL:
        return _deal_child(pos, tables, par, weights, key)
    src, dst, count = decode_move(move)
    if completes_run(pos, par, vp[VP_RANKS], src, dst, count):
        return True, key, 0
    costs, _, rank_breaks, suit_breaks, _ = par
    ls = lens[src]
    ns = ls - count
    nd = lens[dst]
    for i in range(count):
        b = cols[src, ns + i]
        key ^= zob[src, ns + i, b] ^ zob[dst, nd + i, b]
    # The source, cut at ns (a card may turn up).
    ds = down[src]
    if ns == 0:
        src_cost = -weights[W_EMPTY]
    elif ds == ns:
        b = cols[src, ns - 1]
        key ^= zob[src, ns - 1, b | FACE_DOWN] ^ zob[src, ns - 1, b]
        src_cost = cost_of_column(ns - 1, 0, 0, rank_of(np.int64(cols[src, 0])), weights)
    else:
        src_cost = cost_of_column(ds, rank_breaks[src, ns - 1], suit_breaks[src, ns - 1],
                                  rank_of(np.int64(cols[src, 0])), weights)
    # The target with the group on it: its breaks, the group's, and the suit where they meet.
    group_rank_breaks = rank_breaks[src, ls - 1] - rank_breaks[src, ns]
    group_suit_breaks = suit_breaks[src, ls - 1] - suit_breaks[src, ns]
    first = cols[src, ns]
    if nd == 0:
        dst_cost = cost_of_column(0, group_rank_breaks, group_suit_breaks, rank_of(np.int64(first)), weights)
    else:
        seam = np.int64(not same_suit(cols[dst, nd - 1], first))
        dst_cost = cost_of_column(down[dst], rank_breaks[dst, nd - 1] + group_rank_breaks,
                                  suit_breaks[dst, nd - 1] + group_suit_breaks + seam,
                                  rank_of(np.int64(cols[dst, 0])), weights)
    return False, key, total - costs[src] - costs[dst] + src_cost + dst_cost


@njit(**INLINE)
def _deal_child(pos, tables, par, weights, key):
    """``child`` of the deal: one card of the stock onto each column."""
    cols, lens, down, hdr, _ = pos
    vp, zob, zdealt, stock = tables
    costs, runs, rank_breaks, suit_breaks, _ = par
    ncols = vp[VP_COLUMNS]
    ranks = vp[VP_RANKS]
    dealt = hdr[H_DEALT]
    base = dealt * ncols
    score = -weights[W_RUN] * hdr[H_REMOVED]
    for c in range(ncols, MAX_COLUMNS):
        score += costs[c]
    for c in range(ncols):
        b = np.int64(stock[base + c])
        n = lens[c]
        key ^= zob[c, n, b]
        if n == 0:
            if ranks == 1 and rank_of(b) == 1:
                return True, key, 0
            score += cost_of_column(0, 0, 0, rank_of(b), weights)
            continue
        top = np.int64(cols[c, n - 1])
        follows = np.int64(rank_of(b) + 1 == rank_of(top))
        same = np.int64((b ^ top) < (1 << SUIT_SHIFT))
        if rank_of(b) == 1 and 1 + (runs[c] if follows & same else 0) >= ranks:
            return True, key, 0
        score += cost_of_column(down[c], rank_breaks[c, n - 1] + 1 - follows,
                                suit_breaks[c, n - 1] + (follows & (1 - same)), rank_of(np.int64(cols[c, 0])), weights)
    key ^= zdealt[dealt] ^ zdealt[dealt + 1]
    return False, key, score


@njit(**INLINE)
def played_score(pos, tables, par, weights, total, move, removed_before, scratch):
    """The score of the child ``move`` made (played with ``do_move``): as ``expand_level``
    always computed it."""
    if move == MOVE_DEAL:
        return evaluate(pos, weights, scratch)
    src, dst, _ = decode_move(move)
    costs = par.costs
    return (total - costs[src] - costs[dst]
            + column_cost(pos, src, weights)
            + column_cost(pos, dst, weights)
            - weights[W_RUN] * (pos.hdr[H_REMOVED] - removed_before))


@njit(cache=True)
def children_check(pos, tables, par, weights, moves, n_moves, out):
    """For tests: ``child`` of each move, or, for a move it leaves to be played, the
    key and score after ``do_move`` (then taken back), into ``out`` (played, keys, scores)."""
    out_played, out_keys, out_scores = out
    scratch = np.zeros(MAX_COLUMNS, dtype=np.int64)
    total = 0
    for c in range(MAX_COLUMNS):
        total += par.costs[c]
    total -= weights[W_RUN] * pos.hdr[H_REMOVED]
    for j in range(n_moves):
        move = moves[j]
        played, key, score = child(pos, tables, par, weights, total, pos.key[0], move)
        if played:
            removed = pos.hdr[H_REMOVED]
            info = do_move(pos, tables, move)
            key = pos.key[0]
            score = played_score(pos, tables, par, weights, total, move, removed, scratch)
            undo_move(pos, tables, move, info)
        out_played[j] = played
        out_keys[j] = key
        out_scores[j] = score


@njit(**KERNEL)
def pack_child(state, tables, move, out):
    """Write into ``out`` the packed state ``move`` makes from the packed ``state``,
    without unpacking it, and return True; or return False (``out`` then holds
    garbage) for the moves ``child`` leaves to be played: those that complete a run."""
    vp = tables.vp
    stock = tables.stock
    if move == MOVE_DEAL:
        return _pack_deal(state, vp, stock, out)
    src, dst, count = decode_move(move)
    # Where each of the two columns starts.
    start_src = OFF_CARDS
    start_dst = OFF_CARDS
    for c in range(vp[VP_COLUMNS]):
        n = np.int64(state[OFF_LENS + c])
        if c < src:
            start_src += n
        if c < dst:
            start_dst += n
    ls = np.int64(state[OFF_LENS + src])
    nd = np.int64(state[OFF_LENS + dst])
    ns = ls - count
    for i in range(STATE_BYTES):
        out[i] = state[i]
    out[OFF_LENS + src] = ns
    out[OFF_LENS + dst] = nd + count
    group = start_src + ns
    if src < dst:
        # The columns between close up over the group, which lands on top of dst.
        for i in range(group, start_dst + nd - count):
            out[i] = state[i + count]
        dst_start = start_dst - count
        for i in range(count):
            out[dst_start + nd + i] = state[group + i]
        new_src_top = start_src + ns - 1
    else:
        # The group lands on top of dst; the columns between move up by count.
        dst_start = start_dst
        for i in range(start_dst + nd, start_src + ns):
            out[i + count] = state[i]
        for i in range(count):
            out[dst_start + nd + i] = state[group + i]
        new_src_top = start_src + ns - 1 + count
    if ns > 0:
        out[new_src_top] &= FACE_UP_MASK
    # A run completed: the caller plays the move instead.
    return not _ends_in_run(out, dst_start, nd + count, vp[VP_RANKS])


@njit(**INLINE)
def _pack_deal(state, vp, stock, out):
    """``pack_child`` of the deal."""
    ncols = vp[VP_COLUMNS]
    ranks = vp[VP_RANKS]
    base = np.int64(state[OFF_DEALT]) * ncols
    p_in = OFF_CARDS
    p_out = OFF_CARDS
    completes = False
    for c in range(ncols):
        n = np.int64(state[OFF_LENS + c])
        for i in range(n):
            out[p_out + i] = state[p_in + i]
        out[p_out + n] = stock[base + c]
        completes = completes or _ends_in_run(out, p_out, n + 1, ranks)
        p_in += n
        p_out += n + 1
    for i in range(p_out, OFF_CARDS + CARD_CELLS):
        out[i] = 0
    # The header and the reserved bytes are the parent's, but for lengths and deals.
    for i in range(OFF_LENS, STATE_BYTES):
        out[i] = state[i]
    for c in range(ncols):
        out[OFF_LENS + c] = state[OFF_LENS + c] + 1
    out[OFF_DEALT] = state[OFF_DEALT] + 1
    return not completes


@njit(**INLINE)
def _ends_in_run(state, start, n, ranks):
    """True if the packed column of ``n`` cards at ``start`` ends in a whole run, face up."""
    if n < ranks:
        return False
    last = np.int64(state[start + n - 1])
    if last & FACE_DOWN or rank_of(last) != 1:
        return False
    for i in range(1, ranks):
        b = np.int64(state[start + n - 1 - i])
        if b != last + i:
            return False
    return True
