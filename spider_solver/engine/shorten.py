"""Make a winning line shorter, so that a frontend can show it as hints.

The beam finds a line; it often holds moves that a later move undoes, and
detours. ``shorten`` repeats three rewrites until none applies, each of which
keeps the line legal and winning (checked by replaying it):

1. shortcuts: from each position of the line, every sequence of one or two legal
   moves that reaches a later position of the line (same key) replaces the moves
   in between when it is shorter;
2. single deletions: drop one action if the rest still wins (then cut the line
   where it wins);
3. pair deletions: drop two actions at most ``PAIR_WINDOW`` apart.

The result is replayed again by the reference rules engine before anyone calls
the deal verified.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spider_solver.engine.movegen import gen_moves, is_legal
from spider_solver.engine.position import do_move, pack, undo_move, unpack
from spider_solver.engine.types import (
    H_REMOVED,
    HDR_SIZE,
    MAX_COLUMNS,
    MAX_HEIGHT,
    MAX_MOVES,
    MODE_ALL,
    STATE_BYTES,
    VP_RUNS,
)

PAIR_WINDOW = 40
NOT_WON = -1


@njit(cache=True)
def play_from(state, key0, vp, zob, zdealt, stock, moves, begin, end, skip):
    """Play ``moves[begin:end]`` but index ``skip`` from ``state``.

    Returns the index just past the move that wins, or ``NOT_WON`` if a move is
    illegal or the moves run out first.
    """
    cols = np.zeros((MAX_COLUMNS, MAX_HEIGHT), dtype=np.uint8)
    lens = np.zeros(MAX_COLUMNS, dtype=np.int64)
    down = np.zeros(MAX_COLUMNS, dtype=np.int64)
    hdr = np.zeros(HDR_SIZE, dtype=np.int64)
    key = np.zeros(1, dtype=np.uint64)
    unpack(state, cols, lens, down, hdr)
    key[0] = key0
    for i in range(begin, end):
        if i == skip:
            continue
        move = moves[i]
        if not is_legal(cols, lens, down, hdr, vp, move):
            return NOT_WON
        do_move(cols, lens, down, hdr, key, vp, zob, zdealt, stock, move)
        if hdr[H_REMOVED] == vp[VP_RUNS]:
            return i + 1
    return NOT_WON


@njit(cache=True)
def path_states(start, start_key, vp, zob, zdealt, stock, moves, n, states, keys):
    """``states[k]``/``keys[k]``: the position before move k, for k = 0..n."""
    cols = np.zeros((MAX_COLUMNS, MAX_HEIGHT), dtype=np.uint8)
    lens = np.zeros(MAX_COLUMNS, dtype=np.int64)
    down = np.zeros(MAX_COLUMNS, dtype=np.int64)
    hdr = np.zeros(HDR_SIZE, dtype=np.int64)
    key = np.zeros(1, dtype=np.uint64)
    unpack(start, cols, lens, down, hdr)
    key[0] = start_key
    for k in range(n):
        pack(cols, lens, down, hdr, states[k])
        keys[k] = key[0]
        do_move(cols, lens, down, hdr, key, vp, zob, zdealt, stock, moves[k])
    pack(cols, lens, down, hdr, states[n])
    keys[n] = key[0]


@njit(cache=True)
def find_shortcut(states, keys, n, vp, zob, zdealt, stock, found):
    """Find one or two moves from some position i to a later position j > i + len.

    Writes ``(i, j, length, move1, move2)`` into ``found`` and returns True, or
    returns False if the line has no such shortcut.
    """
    cols = np.zeros((MAX_COLUMNS, MAX_HEIGHT), dtype=np.uint8)
    lens = np.zeros(MAX_COLUMNS, dtype=np.int64)
    down = np.zeros(MAX_COLUMNS, dtype=np.int64)
    hdr = np.zeros(HDR_SIZE, dtype=np.int64)
    key = np.zeros(1, dtype=np.uint64)
    first = np.zeros(MAX_MOVES, dtype=np.int64)
    second = np.zeros(MAX_MOVES, dtype=np.int64)
    for i in range(n - 1):
        unpack(states[i], cols, lens, down, hdr)
        key[0] = keys[i]
        n1 = gen_moves(cols, lens, down, hdr, vp, MODE_ALL, first)
        best_j = -1
        best_len = 0
        best_a = 0
        best_b = 0
        for x in range(n1):
            a = first[x]
            info_a = do_move(cols, lens, down, hdr, key, vp, zob, zdealt, stock, a)
            for j in range(n, i + 1, -1):
                if keys[j] == key[0]:
                    if j - i - 1 > best_j - i - best_len:
                        best_j, best_len, best_a = j, 1, a
                    break
            if hdr[H_REMOVED] != vp[VP_RUNS]:
                n2 = gen_moves(cols, lens, down, hdr, vp, MODE_ALL, second)
                for y in range(n2):
                    b = second[y]
                    info_b = do_move(cols, lens, down, hdr, key, vp, zob, zdealt, stock, b)
                    for j in range(n, i + 2, -1):
                        if keys[j] == key[0]:
                            if j - i - 2 > best_j - i - best_len:
                                best_j, best_len, best_a, best_b = j, 2, a, b
                            break
                    undo_move(cols, lens, down, hdr, key, vp, zob, zdealt, b, info_b)
            undo_move(cols, lens, down, hdr, key, vp, zob, zdealt, a, info_a)
        if best_j >= 0 and best_j - i > best_len:
            found[0] = i
            found[1] = best_j
            found[2] = best_len
            found[3] = best_a
            found[4] = best_b
            return True
    return False


def shorten(game, line: list[int]) -> list[int]:
    """A shorter winning line (or the same one); every step keeps it winning."""
    moves = np.array(line, dtype=np.int64)
    args = (game.vp, game.zobrist, game.dealt_keys, game.stock)
    found = np.zeros(5, dtype=np.int64)
    while True:
        n = len(moves)
        states = np.zeros((n + 1, STATE_BYTES), dtype=np.uint8)
        keys = np.zeros(n + 1, dtype=np.uint64)
        path_states(game.start, game.start_key, *args, moves, n, states, keys)
        if find_shortcut(states, keys, n, *args, found):
            i, j, length = int(found[0]), int(found[1]), int(found[2])
            moves = np.concatenate([moves[:i], found[3 : 3 + length], moves[j:]])
            continue
        candidate = _delete_one(states, keys, moves, args)
        if candidate is None:
            candidate = _delete_pair(states, keys, moves, args)
        if candidate is None:
            return [int(m) for m in moves]
        moves = candidate


def _delete_one(states, keys, moves, args):
    n = len(moves)
    for i in range(n - 1, -1, -1):
        end = play_from(states[i], keys[i], *args, moves, i, n, i)
        if end != NOT_WON:
            return np.concatenate([moves[:i], moves[i + 1 : end]])
    return None


def _delete_pair(states, keys, moves, args):
    n = len(moves)
    for i in range(n - 1, -1, -1):
        for j in range(i + 1, min(n, i + PAIR_WINDOW)):
            end = play_from(states[i], keys[i], *args, moves, i + 1, n, j)
            if end != NOT_WON:
                return np.concatenate([moves[:i], moves[i + 1 : j], moves[j + 1 : end]])
    return None
