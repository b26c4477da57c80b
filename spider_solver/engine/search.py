"""The beam search kernels: one level of the search per call.

A level holds positions reached by the same number of actions. ``expand_level``
plays every move of every position of the level (make, evaluate, key, unmake) and
lists the children not already in the transposition table as candidates
``(parent, move, key, score, stratum)``. ``select_level`` keeps the best ``width``
candidates of each stratum (the number of deals made, so that lines that deal
early and lines that deal late both survive), skipping repeated keys and storing
the kept ones in the table. Moves come in two tiers: the plain moves first, and
the classed moves (splits, lateral moves; see movegen) only for strata that the
plain moves leave short of ``width``. ``materialize_level`` packs the kept
children into the next level. The Python driver owns the loop, the budget and
Ctrl-C.

With ``width`` larger than any level and ``MODE_ALL`` moves, this is a
breadth-first search of the whole game with duplicate detection: if the last
level empties without a win and no level was cut, the deal is proved unwinnable.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spider_solver.engine.evaluate import column_cost, evaluate
from spider_solver.engine.movegen import gen_moves
from spider_solver.engine.position import do_move, new_position, pack, undo_move, unpack
from spider_solver.engine.tt import tt_probe, tt_store
from spider_solver.engine.evaluate import W_RUN
from spider_solver.engine.types import (
    CLASS_PLAIN,
    H_DEALT,
    H_REMOVED,
    MAX_COLUMNS,
    MAX_MOVES,
    MODE_SEARCH,
    MOVE_DEAL,
    OFF_DEALT,
    TIER_CLASSED,
    TIER_PLAIN,
    VP_RUNS,
    move_class,
    move_dst,
    move_src,
    in_strata,
    order_key,
    plain_move,
    strata_below,
    stratum_bit,
)

NO_WIN = -1
OUT_OF_NODES = -2
#: Returned as the candidate count when the candidate buffers are too small.
OVERFLOW = -1


@njit(cache=True)
def expand_level(states, keys, n_states, strata_mask, vp, zob, zdealt, stock, weights, mode, tier, table,
                 cand_parent, cand_move, cand_key, cand_score, cand_stratum, start, node_limit):
    """Expand a level. Returns ``(candidates, nodes, won_parent, won_move)``.

    Only positions whose stratum (deals made) is set in ``strata_mask`` are
    expanded. In ``MODE_SEARCH``, tier 0 plays the plain moves and the deal,
    tier 1 the classed moves (see movegen). Candidates are written from index
    ``start``; the returned count includes them. ``won_parent`` is the index of the
    first position (in level order) with a move that wins, or ``NO_WIN``.
    ``candidates`` is ``OVERFLOW`` if the buffers filled up; nothing has been
    stored in the table then, so the call can be repeated with larger buffers.
    ``won_parent`` is ``OUT_OF_NODES`` if ``node_limit`` children were made first:
    the node budget is exact, not rounded up to a whole level.
    """
    cols, lens, down, hdr, key = new_position()
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    costs = np.zeros(MAX_COLUMNS, dtype=np.int64)
    scratch = np.zeros(MAX_COLUMNS, dtype=np.int64)
    capacity = cand_parent.shape[0]
    runs = vp[VP_RUNS]
    search = mode == MODE_SEARCH
    n_cand = start
    nodes = 0
    for i in range(n_states):
        if not in_strata(strata_mask, states[i, OFF_DEALT]):
            continue
        unpack(states[i], cols, lens, down, hdr)
        key[0] = keys[i]
        total = evaluate(cols, lens, down, hdr, weights, costs)
        n_moves = gen_moves(cols, lens, down, hdr, vp, mode, moves)
        if n_cand + n_moves > capacity:
            return OVERFLOW, nodes, NO_WIN, 0
        for j in range(n_moves):
            if nodes >= node_limit:
                return n_cand, nodes, OUT_OF_NODES, 0
            if search and (move_class(moves[j]) != CLASS_PLAIN) != (tier == TIER_CLASSED):
                continue
            move = plain_move(moves[j])
            removed_before = hdr[H_REMOVED]
            info = do_move(cols, lens, down, hdr, key, vp, zob, zdealt, stock, move)
            nodes += 1
            if hdr[H_REMOVED] == runs:
                undo_move(cols, lens, down, hdr, key, vp, zob, zdealt, move, info)
                return n_cand, nodes, i, move
            child_key = key[0]
            if not tt_probe(table, child_key):
                if move == MOVE_DEAL:
                    score = evaluate(cols, lens, down, hdr, weights, scratch)
                else:
                    src = move_src(move)
                    dst = move_dst(move)
                    score = (total - costs[src] - costs[dst]
                             + column_cost(cols, lens, down, src, weights)
                             + column_cost(cols, lens, down, dst, weights)
                             - weights[W_RUN] * (hdr[H_REMOVED] - removed_before))
                cand_parent[n_cand] = i
                cand_move[n_cand] = move
                cand_key[n_cand] = child_key
                cand_score[n_cand] = score
                cand_stratum[n_cand] = hdr[H_DEALT]
                n_cand += 1
            undo_move(cols, lens, down, hdr, key, vp, zob, zdealt, move, info)
    return n_cand, nodes, NO_WIN, 0


@njit(cache=True)
def select_level(start, n_cand, cand_key, cand_score, cand_stratum, width, counts, table, tt_info, selected, kept):
    """Keep the best new candidates of ``start:n_cand`` until each stratum has ``width``.

    ``counts[s]`` is how many positions stratum s already has in the next level
    (updated). Ties go to the earlier candidate. Indices are appended to
    ``selected`` from ``kept``; returns ``(kept, truncated)``, ``truncated`` being
    True if a new position was left out.
    """
    n = n_cand - start
    sort_keys = np.empty(n, dtype=np.int64)
    for i in range(n):
        sort_keys[i] = order_key(np.int64(cand_stratum[start + i]), cand_score[start + i])
    order = np.argsort(sort_keys, kind="mergesort")
    truncated = False
    for o in order:
        idx = start + o
        s = cand_stratum[idx]
        if counts[s] >= width:
            if not truncated and not tt_probe(table, cand_key[idx]):
                truncated = True
            continue
        if tt_store(table, tt_info, cand_key[idx]):
            selected[kept] = idx
            kept += 1
            counts[s] += 1
    return kept, truncated


@njit(cache=True)
def materialize_level(states, keys, selected, kept, cand_parent, cand_move, vp, zob, zdealt, stock,
                      out_states, out_keys):
    """Pack the kept children into ``out_states[:kept]`` in selection order."""
    cols, lens, down, hdr, key = new_position()
    # Visit the children grouped by parent, so each parent is unpacked once.
    parents = np.empty(kept, dtype=np.int64)
    for i in range(kept):
        parents[i] = cand_parent[selected[i]]
    order = np.argsort(parents, kind="mergesort")
    current = -1
    for o in order:
        idx = selected[o]
        parent = cand_parent[idx]
        if parent != current:
            unpack(states[parent], cols, lens, down, hdr)
            key[0] = keys[parent]
            current = parent
        move = cand_move[idx]
        info = do_move(cols, lens, down, hdr, key, vp, zob, zdealt, stock, move)
        pack(cols, lens, down, hdr, out_states[o])
        out_keys[o] = key[0]
        undo_move(cols, lens, down, hdr, key, vp, zob, zdealt, move, info)


#: ``step_level`` outcomes.
STEP_OK = 0
STEP_WON = 1
STEP_OUT_OF_NODES = 2
STEP_OVERFLOW = 3


@njit(cache=True)
def step_level(states, keys, n_states, vp, zob, zdealt, stock, weights, mode, width, strata, table, tt_info,
               cand_parent, cand_move, cand_key, cand_score, cand_stratum, selected, next_states, next_keys,
               level_parent, level_move, node_limit):
    """One whole level: expand, select (both tiers), materialize. One call per level.

    Returns ``(outcome, kept, nodes, truncated, won_parent, won_move)``. The kept
    children are ``next_states[:kept]`` / ``next_keys[:kept]``, made from parent
    ``level_parent[k]`` by move ``level_move[k]``. ``STEP_OVERFLOW`` means a buffer
    is too small for the plain tier; nothing was stored in the table, so the
    caller grows the buffers and calls again. If the classed tier runs out of
    room it stops early and the level counts as truncated.
    """
    all_strata = strata_below(strata)
    counts = np.zeros(strata, dtype=np.int64)
    n_cand, nodes, won_parent, won_move = expand_level(
        states, keys, n_states, all_strata, vp, zob, zdealt, stock, weights, mode, TIER_PLAIN, table,
        cand_parent, cand_move, cand_key, cand_score, cand_stratum, 0, node_limit)
    if n_cand == OVERFLOW:
        return STEP_OVERFLOW, 0, nodes, False, NO_WIN, 0
    if won_parent == OUT_OF_NODES:
        return STEP_OUT_OF_NODES, 0, nodes, False, NO_WIN, 0
    if won_parent != NO_WIN:
        return STEP_WON, 0, nodes, False, won_parent, won_move
    if min(n_cand, width * strata) > selected.shape[0] or min(n_cand, width * strata) > next_states.shape[0]:
        return STEP_OVERFLOW, 0, nodes, False, NO_WIN, 0
    kept, truncated = select_level(0, n_cand, cand_key, cand_score, cand_stratum, width, counts, table, tt_info,
                                   selected, 0)
    if mode == MODE_SEARCH:
        # Classed moves only where the plain ones left a stratum short.
        mask = 0
        for i in range(n_states):
            s = states[i, OFF_DEALT]
            if counts[s] < width:
                mask |= stratum_bit(s)
        if mask:
            start = n_cand
            n_cand, more, won_parent, won_move = expand_level(
                states, keys, n_states, mask, vp, zob, zdealt, stock, weights, mode, TIER_CLASSED, table,
                cand_parent, cand_move, cand_key, cand_score, cand_stratum, start, node_limit - nodes)
            nodes += more
            if won_parent == OUT_OF_NODES:
                return STEP_OUT_OF_NODES, 0, nodes, False, NO_WIN, 0
            if won_parent != NO_WIN:
                return STEP_WON, 0, nodes, False, won_parent, won_move
            if n_cand == OVERFLOW:
                truncated = True
            else:
                room = min(selected.shape[0], next_states.shape[0])
                if kept + (n_cand - start) > room:
                    truncated = True
                    n_cand = start + room - kept
                kept, more_cut = select_level(start, n_cand, cand_key, cand_score, cand_stratum, width, counts,
                                              table, tt_info, selected, kept)
                truncated = truncated or more_cut
    materialize_level(states, keys, selected, kept, cand_parent, cand_move, vp, zob, zdealt, stock,
                      next_states, next_keys)
    for k in range(kept):
        level_parent[k] = cand_parent[selected[k]]
        level_move[k] = cand_move[selected[k]]
    return STEP_OK, kept, nodes, truncated, NO_WIN, 0
