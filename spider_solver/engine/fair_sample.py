"""Layouts of the unseen cards, and games played on them by the planning fair player.

A player who sees a position knows its *view* (:mod:`~spider_solver.engine.fair_plan`)
and the cards it has not seen: the deck less every face-up card and every removed run
(``unseen``, a multiset). Any order of the unseen cards over the face-down cells (column
by column, deepest first) and then the stock (the next deal's row first) is a layout the
player cannot tell from the real one, and all are equally likely. :func:`rollouts` draws
``samples`` layouts from a seed (SplitMix64, a Fisher-Yates shuffle) and the view alone,
and plays on each, after each of the candidate blocks of actions, the planner's game to
its end: the same layouts and the same games for every candidate, so that the luck of the
cards is the same for all of them (common random numbers).

A layout never reads a card the player has not seen: the kernel is given the view (its
face-down cells are ``UNKNOWN``) and the unseen multiset, not the real position.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from spider_solver.engine.fair_plan import (
    MAX_BLOCK,
    Q_DEPTH,
    Q_MAX_ACTIONS,
    Q_REPLAN,
    Q_WIDTH,
    UNKNOWN,
    decide,
    evaluate_view,
    new_plan_work,
    play_on,
)
from spider_solver.engine.movegen import gen_moves
from spider_solver.engine.position import do_move, key_from_scratch, new_position, undo_move, unpack
from spider_solver.engine.rng import below
from spider_solver.engine.seen import seen_add, seen_contains, seen_new, seen_sized, seen_slots, seen_start
from spider_solver.engine.types import (
    H_DEALT,
    H_REMOVED,
    KERNEL,
    MAX_COLUMNS,
    MAX_MOVES,
    MODE_ALL,
    MOVE_DEAL,
    VP_COLUMNS,
    VP_DEALS,
    VP_RUNS,
    Tables,
    plain_move,
)


class Knowledge(NamedTuple):
    """What the player knows: the view, the cards not seen, the game's positions."""

    state: np.ndarray  # uint8[STATE_BYTES]: the view, packed (face-down cells UNKNOWN)
    unseen: np.ndarray  # uint8[n]: the card bytes not seen, in any fixed order
    history: np.ndarray  # uint64[h]: the view keys of the positions the game has been in


class Candidates(NamedTuple):
    """Blocks of actions to compare: row i holds ``lengths[i]`` actions."""

    blocks: np.ndarray  # int64[k, MAX_BLOCK]
    lengths: np.ndarray  # int64[k]


class Outcomes(NamedTuple):
    """What the games on each layout gave, candidate by candidate."""

    wins: np.ndarray  # int64[k, samples]: 1 if the game after candidate i on layout j was won
    removed: np.ndarray  # int64[k, samples]: the runs removed at its end
    down: np.ndarray  # int64[k, samples]: the face-down cards left at its end


@njit(**KERNEL)
def _shuffle(order, n, rng):
    """A uniform permutation of 0..n-1 into ``order`` (Fisher-Yates, SplitMix64)."""
    for i in range(n):
        order[i] = i
    for i in range(n - 1, 0, -1):
        r = below(rng, i + 1)
        t = order[i]
        order[i] = order[r]
        order[r] = t


@njit(**KERNEL)
def lay_out(view_state, unseen, order, world, stock, vp):
    """Write into ``world`` (and ``stock``) the layout that puts ``unseen[order]`` on the
    view's face-down cells, column by column, deepest first, then in the stock's rows
    from the next deal on."""
    unpack(view_state, world)
    ncols = vp[VP_COLUMNS]
    k = 0
    for c in range(ncols):
        for i in range(world.down[c]):
            world.cols[c, i] = unseen[order[k]]
            k += 1
    for d in range(world.hdr[H_DEALT], vp[VP_DEALS]):
        for c in range(ncols):
            stock[d * ncols + c] = unseen[order[k]]
            k += 1


@njit(cache=True)
def rollouts(knowledge, candidates, tables, player, seed, outcomes):
    """Play, on ``outcomes.wins.shape[1]`` layouts drawn from ``seed``, each candidate block
    then the planner's game to its end (``player``: (weights, params)); the outcomes go to
    ``outcomes`` (see :class:`Outcomes`). ``tables``: (vp, zobrist, dealt_keys) of the
    variant. Returns 0."""
    vp, zob, zdealt = tables
    w, q = player
    ncols = vp[VP_COLUMNS]
    runs = vp[VP_RUNS]
    samples = outcomes.wins.shape[1]
    n = knowledge.unseen.shape[0]
    order = np.zeros(max(n, 1), dtype=np.int64)
    stock = np.zeros(vp[VP_DEALS] * ncols + MAX_COLUMNS, dtype=np.uint8)
    view_stock = np.full(vp[VP_DEALS] * ncols + MAX_COLUMNS, UNKNOWN, dtype=np.uint8)
    world_tables = Tables(vp, zob, zdealt, stock)
    vtables = Tables(vp, zob, zdealt, view_stock)
    world = new_position()
    view = new_position()
    work = new_plan_work(max(q[Q_WIDTH], 1), q[Q_DEPTH])
    # The game's positions: its history, then up to Q_MAX_ACTIONS actions and the block that passes them.
    seen = seen_sized(seen_slots(knowledge.history.shape[0] + q[Q_MAX_ACTIONS] + MAX_BLOCK))
    trace = np.zeros(0, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = seed
    tag = 0
    for j in range(samples):
        _shuffle(order, n, rng)
        for i in range(candidates.lengths.shape[0]):
            lay_out(knowledge.state, knowledge.unseen, order, world, stock, vp)
            world.key[0] = key_from_scratch(world, zob, zdealt)
            tag += 1
            seen_start(seen, tag)
            for h in range(knowledge.history.shape[0]):
                seen_add(seen, knowledge.history[h])
            for t in range(candidates.lengths[i]):
                do_move(world, world_tables, candidates.blocks[i, t])
            play_on(world, world_tables, view, vtables, w, q, work, seen, trace)
            outcomes.wins[i, j] = 1 if world.hdr[H_REMOVED] == runs else 0
            outcomes.removed[i, j] = world.hdr[H_REMOVED]
            down = 0
            for c in range(ncols):
                down += world.down[c]
            outcomes.down[i, j] = down
    return 0


@njit(cache=True)
def play_worlds(starts, stocks, tables, player, results):
    """Play deal i (its packed initial state ``starts[i]`` and stock ``stocks[i]``) with the
    planner, seeing only what a player sees; ``results[i]``: won, runs removed, actions,
    face-down cards left. For benchmarks and tuning. Returns 0."""
    vp, zob, zdealt = tables
    w, q = player
    view_stock = np.full(stocks.shape[1], UNKNOWN, dtype=np.uint8)
    vtables = Tables(vp, zob, zdealt, view_stock)
    world = new_position()
    view = new_position()
    work = new_plan_work(max(q[Q_WIDTH], 1), q[Q_DEPTH])
    seen = seen_new()
    trace = np.zeros(0, dtype=np.int64)
    for i in range(starts.shape[0]):
        world_tables = Tables(vp, zob, zdealt, stocks[i])
        unpack(starts[i], world)
        world.key[0] = key_from_scratch(world, zob, zdealt)
        seen_start(seen, i + 1)
        played = play_on(world, world_tables, view, vtables, w, q, work, seen, trace)
        down = 0
        for c in range(MAX_COLUMNS):
            down += world.down[c]
        results[i, 0] = 1 if world.hdr[H_REMOVED] == vp[VP_RUNS] else 0
        results[i, 1] = world.hdr[H_REMOVED]
        results[i, 2] = played
        results[i, 3] = down
    return 0


@njit(cache=True)
def _view_and_seen(knowledge, tables):
    """The view of ``knowledge`` (its tables: the stock all ``UNKNOWN``) and the set of the
    game's positions (its history and the view itself)."""
    vp, zob, zdealt = tables
    view_stock = np.full(vp[VP_DEALS] * vp[VP_COLUMNS] + MAX_COLUMNS, UNKNOWN, dtype=np.uint8)
    vtables = Tables(vp, zob, zdealt, view_stock)
    view = new_position()
    unpack(knowledge.state, view)
    view.key[0] = key_from_scratch(view, zob, zdealt)
    seen = seen_sized(seen_slots(knowledge.history.shape[0] + 1))
    seen_start(seen, 1)
    for h in range(knowledge.history.shape[0]):
        seen_add(seen, knowledge.history[h])
    seen_add(seen, view.key[0])
    return view, vtables, seen


@njit(cache=True)
def decision(knowledge, tables, player, block):
    """The planner's decision at the view of ``knowledge`` (:func:`decide`): its actions go to
    ``block``; returns how many (0: stuck). A planner that plans again after every action
    plays only the first, unless the block fills columns to deal."""
    w, q = player
    view, vtables, seen = _view_and_seen(knowledge, tables)
    work = new_plan_work(max(q[Q_WIDTH], 1), q[Q_DEPTH])
    count = decide(view, vtables, w, q, work, seen)
    if count > 0 and q[Q_REPLAN] != 0 and work.block[count - 1] != MOVE_DEAL:
        count = 1
    for t in range(count):
        block[t] = work.block[t]
    return count


@njit(cache=True)
def alternatives(knowledge, tables, weights, taken, out):
    """The legal actions of the view other than ``taken`` (a move code, -1 for none), best
    value first (the deal first when it is legal), leaving out those that lead to a position
    the game has been in, or to the same position as an action before them (``taken``
    included): at most ``len(out)`` of them go to ``out``. Returns how many."""
    vp = tables[0]
    ncols = vp[VP_COLUMNS]
    view, vtables, seen = _view_and_seen(knowledge, tables)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    n = gen_moves(view, vp, MODE_ALL, moves)
    values = np.zeros(n, dtype=np.int64)
    keys = np.zeros(n, dtype=np.uint64)
    keep = np.zeros(n, dtype=np.bool_)
    taken_key = np.uint64(0)
    for i in range(n):
        m = plain_move(moves[i])
        moves[i] = m
        info = do_move(view, vtables, m)
        key = view.key[0]
        if m == taken:
            taken_key = key
        else:
            value = evaluate_view(view, ncols, weights)
            values[i] = value - (1 << 40) if m == MOVE_DEAL else value
            keys[i] = key
            keep[i] = not seen_contains(seen, key)
        undo_move(view, vtables, m, info)
    order = np.argsort(values, kind="mergesort")
    count = 0
    for r in range(n):
        i = order[r]
        if count >= out.shape[0]:
            break
        if not keep[i] or (taken >= 0 and keys[i] == taken_key):
            continue
        duplicate = False
        for s in range(r):
            if keep[order[s]] and keys[order[s]] == keys[i]:
                duplicate = True
                break
        if not duplicate:
            out[count] = moves[i]
            count += 1
    return count
