"""Make a winning line shorter, so that a frontend can show it as hints.

The beam finds a line; it often holds detours: moves that later moves undo, or a
position reached in five moves that two would reach. ``shorten`` repeats three
rewrites until none applies, each of which keeps the line legal and winning:

1. shortcuts: from each position of the line, a depth-first search of up to
   ``SHORTCUT_DEPTH`` moves (the search's move set, both tiers) looks for a later
   position of the line (same key, found in a hash table of the line's keys); the
   moves in between are replaced when the shortcut is shorter;
2. pair deletions: drop two actions at most ``PAIR_WINDOW`` apart if the rest of
   the line still plays and wins (then cut it where it wins);
3. merges: a group moved ``F>T`` and later, the same number of cards, ``T>G``
   becomes one move ``F>G``, made at the second's place or else at the first's,
   if the rest of the line still plays and wins (``G`` = ``F`` drops both). A beam
   parks a group on its way; shortcuts miss that when other moves come between.

Everything runs in one kernel call (what each rewrite saves, and why the depth is 2:
benchmarks/HISTORY.md, "Shorter lines: re-searches and improve"). The result is replayed
again by the reference rules engine before anyone calls the deal verified.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from spider_solver.engine.movegen import gen_moves, is_legal
from spider_solver.engine.position import do_move, new_position, pack, undo_move, unpack
from spider_solver.engine.types import (
    H_REMOVED,
    MAX_MOVES,
    MODE_SEARCH,
    MOVE_DEAL,
    STATE_BYTES,
    VP_RUNS,
    States,
    encode_move,
    move_count,
    move_dst,
    move_src,
    plain_move,
)

SHORTCUT_DEPTH = 2
PAIR_WINDOW = 12
#: After a deletion at i, shortcuts are looked for again from i - RESCAN on.
RESCAN = 10
SHORTCUT_MODE = MODE_SEARCH
NOT_WON = -1
#: The layout of ``found``, the best shortcut so far: the index on the line it
#: reaches, its length, then its moves.
FOUND_TARGET = 0
FOUND_LENGTH = 1
FOUND_MOVES = 2
#: The line's key index has at least LOAD_FACTOR slots a key (a power of two).
LOAD_FACTOR = 4
#: An empty slot of the key index; a key not on the line.
NOT_FOUND = -1


class LineIndex(NamedTuple):
    """The line's keys in an open-addressing hash table (a power of two slots)."""

    slots: np.ndarray  # uint64: a key
    where: np.ndarray  # int64: that key's last index on the line, NOT_FOUND if the slot is empty


class Work(NamedTuple):
    """What shortening works in, allocated once per line."""

    path: States  # row k: the position before move k, for k = 0..n
    index: LineIndex  # the keys of path
    found: np.ndarray  # int64[FOUND_MOVES + depth]: the best shortcut so far


@njit(cache=True)
def _path(start, start_key, tables, moves, n, path):
    """``path.states[k]``/``path.keys[k]``: the position before move k, for k = 0..n."""
    states, keys = path
    pos = new_position()
    unpack(start, pos)
    pos.key[0] = start_key
    for k in range(n):
        pack(pos, states[k])
        keys[k] = pos.key[0]
        do_move(pos, tables, moves[k])
    pack(pos, states[n])
    keys[n] = pos.key[0]


def positions(game, line: list[int]) -> States:
    """The positions along ``line`` from the game's start: row k is the position before
    move k (k = 0..n)."""
    n = len(line)
    path = States(np.zeros((n + 1, STATE_BYTES), dtype=np.uint8), np.zeros(n + 1, dtype=np.uint64))
    _path(game.start, game.start_key, game.tables, np.array(line, dtype=np.int64), n, path)
    return path


@njit(cache=True)
def _index(keys, n, index):
    """Hash the line's keys: ``index`` maps a key to its last index on the line."""
    slots, where = index
    mask = slots.shape[0] - 1
    slots[:] = 0
    where[:] = NOT_FOUND
    for k in range(n + 1):
        h = np.int64(keys[k] & np.uint64(mask))
        while where[h] >= 0 and slots[h] != keys[k]:
            h = (h + 1) & mask
        slots[h] = keys[k]
        where[h] = k


@njit(cache=True, inline="always")
def _lookup(index, key):
    slots, where = index
    mask = slots.shape[0] - 1
    h = np.int64(key & np.uint64(mask))
    while where[h] >= 0:
        if slots[h] == key:
            return where[h]
        h = (h + 1) & mask
    return NOT_FOUND


@njit(cache=True)
def line_hit(keys, index):
    """The furthest position of an indexed line among ``keys``: ``(i, j)``, key i is the
    line's position j (the largest such j), or ``(NOT_FOUND, NOT_FOUND)``."""
    best_i = NOT_FOUND
    best_j = NOT_FOUND
    for i in range(keys.shape[0]):
        j = _lookup(index, keys[i])
        if j > best_j:
            best_i = i
            best_j = j
    return best_i, best_j


def line_index(keys: np.ndarray) -> LineIndex:
    """Index the keys of a line's positions (``keys[k]``: the position before move k)."""
    n = keys.shape[0] - 1
    size = 1
    while size < LOAD_FACTOR * (n + 1):
        size *= 2
    index = LineIndex(np.zeros(size, dtype=np.uint64), np.zeros(size, dtype=np.int64))
    _index(keys, n, index)
    return index


@njit(cache=True)
def _best_shortcut(state, key0, i, depth, tables, index, found):
    """The shortcut from position i that saves the most, written into ``found``.

    Iterative depth-first search, up to ``depth`` plies.
    Returns the number of actions saved (0 if none).
    """
    vp = tables.vp
    pos = new_position()
    hdr = pos.hdr
    moves = np.zeros((depth, MAX_MOVES), dtype=np.int64)
    counts = np.zeros(depth, dtype=np.int64)
    cursor = np.zeros(depth, dtype=np.int64)
    played = np.zeros(depth, dtype=np.int64)
    infos = np.zeros(depth, dtype=np.int64)
    unpack(state, pos)
    pos.key[0] = key0
    best = 0
    counts[0] = gen_moves(pos, vp, SHORTCUT_MODE, moves[0])
    cursor[0] = 0
    ply = 0
    runs = vp[VP_RUNS]
    while ply >= 0:
        if cursor[ply] >= counts[ply]:
            ply -= 1
            if ply >= 0:
                undo_move(pos, tables, played[ply], infos[ply])
            continue
        move = plain_move(moves[ply, cursor[ply]])
        cursor[ply] += 1
        infos[ply] = do_move(pos, tables, move)
        played[ply] = move
        j = _lookup(index, pos.key[0])
        saving = j - i - (ply + 1)
        if j >= 0 and saving > best:
            best = saving
            found[FOUND_TARGET] = j
            found[FOUND_LENGTH] = ply + 1
            for p in range(ply + 1):
                found[FOUND_MOVES + p] = played[p]
        if ply + 1 < depth and hdr[H_REMOVED] != runs:
            ply += 1
            counts[ply] = gen_moves(pos, vp, SHORTCUT_MODE, moves[ply])
            cursor[ply] = 0
        else:
            undo_move(pos, tables, move, infos[ply])
    return best


@njit(cache=True)
def _play_from(state, key0, tables, moves, span, skip, at=NOT_FOUND, instead=0):
    """Play ``moves[begin:end]`` (``span``) but index ``skip``, and ``instead`` in place of
    index ``at``; the index past the winning move, or NOT_WON."""
    begin, end = span
    vp = tables.vp
    pos = new_position()
    unpack(state, pos)
    pos.key[0] = key0
    for k in range(begin, end):
        if k == skip:
            continue
        move = instead if k == at else moves[k]
        if not is_legal(pos, vp, move):
            return NOT_WON
        do_move(pos, tables, move)
        if pos.hdr[H_REMOVED] == vp[VP_RUNS]:
            return k + 1
    return NOT_WON


@njit(cache=True)
def _shortcuts(start, start_key, tables, moves, n, first, depth, work):
    """Take every shortcut from positions ``first``.. on; return the new length."""
    path, index, found = work
    i = first
    while i < n:
        if _best_shortcut(path.states[i], path.keys[i], i, depth, tables, index, found) > 0:
            j = found[FOUND_TARGET]
            length = found[FOUND_LENGTH]
            tail = moves[j:n].copy()
            for p in range(length):
                moves[i + p] = found[FOUND_MOVES + p]
            moves[i + length:i + length + tail.shape[0]] = tail
            n = i + length + tail.shape[0]
            _path(start, start_key, tables, moves, n, path)
            _index(path.keys, n, index)
            continue  # look again from the same position
        i += 1
    return n


@njit(cache=True)
def _delete_pair(tables, moves, n, window, path):
    """Drop the latest pair of actions whose removal still wins; return (new length, i) or (n, NOT_FOUND)."""
    states, keys = path
    for i in range(n - 1, -1, -1):
        for j in range(i + 1, min(n, i + window)):
            end = _play_from(states[i], keys[i], tables, moves, (i + 1, n), j)
            if end != NOT_WON:
                # Keep moves[i+1:j] and moves[j+1:end], dropping i and j.
                k = i
                for m in range(i + 1, end):
                    if m != j:
                        moves[k] = moves[m]
                        k += 1
                return k, i
    return n, NOT_FOUND


@njit(cache=True)
def _merge_pair(tables, moves, n, path):
    """Merge the latest pair ``F>T`` ... ``T>G`` of the same group into one move ``F>G``,
    played at the first's place or at the second's, if the line still wins; return
    (new length, i) or (n, NOT_FOUND). ``G`` = ``F`` drops both (a pair deletion
    beyond the pair window)."""
    states, keys = path
    for i in range(n - 1, -1, -1):
        first = moves[i]
        if first == MOVE_DEAL:
            continue
        src, via, count = move_src(first), move_dst(first), move_count(first)
        for j in range(i + 1, n):
            second = moves[j]
            if second == MOVE_DEAL or move_src(second) != via or move_count(second) != count:
                continue
            dst = move_dst(second)
            merged = encode_move(src, dst, count)
            for option in range(1 if dst == src else 2):
                # (first index played, index dropped, index that plays the merged move)
                if dst == src:  # back where it came from: both go
                    begin, skip, at = i + 1, j, NOT_FOUND
                elif option == 0:  # the merged move at the second's place
                    begin, skip, at = i + 1, NOT_FOUND, j
                else:  # or at the first's
                    begin, skip, at = i, j, i
                end = _play_from(states[i], keys[i], tables, moves, (begin, n), skip, at, merged)
                if end != NOT_WON:
                    k = i
                    for m in range(begin, end):
                        if m != skip:
                            moves[k] = merged if m == at else moves[m]
                            k += 1
                    return k, i
    return n, NOT_FOUND


@njit(cache=True)
def shorten_line(start, start_key, tables, line, depth, window):
    """A shorter winning line (or the same one); every rewrite keeps it winning."""
    moves = line.copy()
    n = moves.shape[0]
    size = 1
    while size < LOAD_FACTOR * (n + 1):
        size *= 2
    work = Work(
        States(np.zeros((n + 1, STATE_BYTES), dtype=np.uint8), np.zeros(n + 1, dtype=np.uint64)),
        LineIndex(np.zeros(size, dtype=np.uint64), np.zeros(size, dtype=np.int64)),
        np.zeros(FOUND_MOVES + depth, dtype=np.int64),
    )
    _path(start, start_key, tables, moves, n, work.path)
    _index(work.path.keys, n, work.index)
    first = np.int64(0)  # not a literal 0: _shortcuts compiles once, for int64
    while True:
        n = _shortcuts(start, start_key, tables, moves, n, first, depth, work)
        n, i = _delete_pair(tables, moves, n, window, work.path)
        if i == NOT_FOUND:
            n, i = _merge_pair(tables, moves, n, work.path)
        if i == NOT_FOUND:
            return moves[:n].copy()
        _path(start, start_key, tables, moves, n, work.path)
        _index(work.path.keys, n, work.index)
        # A deletion changes the line from i on: look for shortcuts a little before it.
        first = max(0, i - RESCAN)


def shorten(game, line: list[int], *, depth: int = SHORTCUT_DEPTH, window: int = PAIR_WINDOW) -> list[int]:
    """A shorter winning line for ``game`` (or the same one)."""
    moves = np.array(line, dtype=np.int64)
    result = shorten_line(game.start, game.start_key, game.tables, moves, depth, window)
    return [int(m) for m in result]
