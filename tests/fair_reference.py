"""The fair player's kernel as it was before issue 11 point 4 (grader ``fair-3``): a slow
reference that the fast :func:`spider_solver.engine.fair.play_fair` must match exactly
(same figures, same actions) on every deal, seed and variant. Test-only; not shipped."""

from __future__ import annotations

import numpy as np
from numba import njit

from spider_solver.engine.fair import G_ACTIONS, G_DEALT, G_REMOVED, G_TURNED, G_WON
from spider_solver.engine.fair_cost import FW_RUN, move_delta, turned, visible_cost
from spider_solver.engine.fair_policy import (
    NO_MOVE,
    NO_VALUE,
    P_LOOKAHEAD,
    P_MAX_ACTIONS,
    P_MODE,
    P_NOISE,
    P_PATIENCE,
    VALUE_SCALE,
)
from spider_solver.engine.movegen import gen_moves
from spider_solver.engine.position import do_move, undo_move, unpack
from spider_solver.engine.rng import below
from spider_solver.engine.seen import seen_add, seen_contains, seen_new, seen_start
from spider_solver.engine.types import (
    H_DEALT,
    H_REMOVED,
    KERNEL,
    MOVE_DEAL,
    UNDO_TURNED,
    VP_COLUMNS,
    VP_DEALS,
    VP_RUNS,
    decode_move,
    plain_move,
)


@njit(**KERNEL)
def _best_follow_up(pos, tables, weights, costs, seen, mode, out):
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
        if not seen_contains(seen, pos.key[0]):
            src, dst, _ = decode_move(m)
            cs = visible_cost(pos, src, turned(info, src), weights)
            cd = visible_cost(pos, dst, turned(info, dst), weights)
            delta = cs - costs[src] + cd - costs[dst] - weights[FW_RUN] * (pos.hdr[H_REMOVED] - removed)
            if delta < best:
                best = delta
        undo_move(pos, tables, m, info)
    return best


@njit(cache=True)
def play_fair_reference(start, start_key, tables, weights, params, seeds, pos, out0, out1, costs, costs1, pair,
                        seen, results, trace):
    """Play ``len(seeds)`` games of one deal from the packed ``start`` state.

    Game g draws its noise from SplitMix64 seeded with ``seeds[g]``; its figures go to
    ``results[g, G_*]``, its first ``trace.shape[1]`` actions to ``trace[g]`` (then -1).
    ``pos``, ``out0``/``out1`` (move buffers), ``costs``/``costs1`` (one cost a column),
    ``pair`` (two costs) and the seen set (a new ``Seen``) are work buffers.
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
        seen_start(seen, g + 1)
        rng[0] = seeds[g]
        unpack(start, pos)
        pos.key[0] = start_key
        hdr = pos.hdr
        down0 = 0
        for c in range(ncols):
            down0 += pos.down[c]
        for t in range(trace.shape[1]):
            trace[g, t] = -1
        seen_add(seen, pos.key[0])
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
                if seen_contains(seen, pos.key[0]):
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
                    follow = _best_follow_up(pos, tables, weights, costs1, seen, mode, out1)
                    value = delta + follow
                undo_move(pos, tables, m, info)
                noisy = value * VALUE_SCALE + below(rng, noise + 1)
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
            seen_add(seen, pos.key[0])
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


def play_both(deal, *, games: int, trace: int, deal_on_empty: bool = False, params=None):
    """The results arrays and traces of ``games`` games of ``deal`` by the reference kernel
    and by :func:`spider_solver.engine.fair.play_fair` (the grader's seeds; its weights and
    parameters for the deal's variant, ``params`` replacing the parameters):
    ``((results, moves), (results, moves))``."""
    from spider_solver.engine.fair import GAME_FIELDS, play_fair
    from spider_solver.engine.game import Game
    from spider_solver.engine.position import new_position
    from spider_solver.engine.types import MAX_COLUMNS, MAX_MOVES
    from spider_solver.grading import GRADE_SEED, game_seeds, player_of

    weights, default = player_of(deal.variant)
    params = default if params is None else params
    game = Game.from_deal(deal, deal_on_empty=deal_on_empty)
    seeds = game_seeds(deal, GRADE_SEED, games)
    head = (game.start, game.start_key, game.tables, weights, params, seeds, new_position())
    old = (np.zeros((games, GAME_FIELDS), dtype=np.int64), np.zeros((games, trace), dtype=np.int64))
    play_fair_reference(*head, np.zeros(MAX_MOVES, dtype=np.int64), np.zeros(MAX_MOVES, dtype=np.int64),
                        np.zeros(MAX_COLUMNS, dtype=np.int64), np.zeros(MAX_COLUMNS, dtype=np.int64),
                        np.zeros(2, dtype=np.int64), seen_new(), *old)
    new = (np.zeros((games, GAME_FIELDS), dtype=np.int64), np.zeros((games, trace), dtype=np.int64))
    play_fair(game.start, game.start_key, game.tables, weights, params, seeds, *new)
    return old, new
