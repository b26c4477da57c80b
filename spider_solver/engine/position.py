"""The working position: pack/unpack, the key from scratch, do_move / undo_move.

Layouts are documented in :mod:`spider_solver.engine.types`. Kernels take the
working arrays as one :class:`~spider_solver.engine.types.Position` (``pos``) and a
game's tables as one :class:`~spider_solver.engine.types.Tables`. Contracts:

* ``do_move`` assumes the move is legal (movegen made it); it returns the undo
  information that ``undo_move`` needs to restore the position exactly, key
  included. Calls nest like a stack: undo the last move first.
* The key is updated incrementally (XOR out, XOR in); ``key_from_scratch`` is the
  debug check (Stockfish's ``pos_is_ok``) and what set-up uses.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spider_solver.engine.types import (
    CARD_CELLS,
    FACE_DOWN,
    FACE_UP_MASK,
    H_DEALT,
    H_REMOVED,
    HDR_SIZE,
    INLINE,
    KERNEL,
    MAX_COLUMNS,
    MAX_HEIGHT,
    MOVE_DEAL,
    OFF_CARDS,
    OFF_DEALT,
    OFF_LENS,
    OFF_REMOVED,
    OFF_RESERVED,
    STATE_BYTES,
    VP_COLUMNS,
    VP_RANKS,
    VP_RUNS,
    Position,
    decode_move,
    make_card,
    rank_of,
    suit_of,
    undo_removed,
    undo_suit,
    undo_turned,
    undone_suit,
)


@njit(cache=True)
def new_position():
    """An empty working :class:`Position`; kernels and Python alike."""
    return Position(
        np.zeros((MAX_COLUMNS, MAX_HEIGHT), dtype=np.uint8),
        np.zeros(MAX_COLUMNS, dtype=np.int64),
        np.zeros(MAX_COLUMNS, dtype=np.int64),
        np.zeros(HDR_SIZE, dtype=np.int64),
        np.zeros(1, dtype=np.uint64),
    )


@njit(**KERNEL)
def unpack(state, pos):
    """Load a packed state into the working position (the key travels separately)."""
    cols, lens, down, hdr, _ = pos
    p = OFF_CARDS
    for c in range(MAX_COLUMNS):
        n = state[OFF_LENS + c]
        lens[c] = n
        d = 0
        for i in range(n):
            b = state[p + i]
            if b & FACE_DOWN:
                d += 1
            cols[c, i] = b & FACE_UP_MASK
        down[c] = d
        p += n
    hdr[H_DEALT] = state[OFF_DEALT]
    hdr[H_REMOVED] = state[OFF_REMOVED]


@njit(**KERNEL)
def pack(pos, state):
    """Write the working position into a packed state (all STATE_BYTES bytes)."""
    cols, lens, down, hdr, _ = pos
    p = OFF_CARDS
    for c in range(MAX_COLUMNS):
        n = lens[c]
        d = down[c]
        for i in range(n):
            b = cols[c, i]
            if i < d:
                b |= FACE_DOWN
            state[p + i] = b
        state[OFF_LENS + c] = n
        p += n
    for i in range(p, OFF_CARDS + CARD_CELLS):
        state[i] = 0
    state[OFF_DEALT] = hdr[H_DEALT]
    state[OFF_REMOVED] = hdr[H_REMOVED]
    for i in range(OFF_RESERVED, STATE_BYTES):
        state[i] = 0


@njit(**KERNEL)
def key_from_scratch(pos, zob, zdealt):
    """The position's key from its definition (``pos.key`` is not read)."""
    cols, lens, down, hdr, _ = pos
    key = zdealt[hdr[H_DEALT]]
    for c in range(MAX_COLUMNS):
        d = down[c]
        for i in range(lens[c]):
            b = cols[c, i]
            if i < d:
                b |= FACE_DOWN
            key ^= zob[c, i, b]
    return key


@njit(**INLINE)
def run_ends_column(pos, c, ranks):
    """True if column c ends in ``ranks`` face-up cards of one suit, king down to ace."""
    cols, lens, down, _, _ = pos
    n = lens[c]
    if n - down[c] < ranks:
        return False
    last = cols[c, n - 1]
    if rank_of(last) != 1:
        return False
    suit = suit_of(last)
    for i in range(1, ranks):
        if cols[c, n - 1 - i] != make_card(i + 1, suit):
            return False
    return True


@njit(**INLINE)
def _remove_run(pos, zob, c, ranks, key):
    """Take the run ending column c away, turn up what it uncovers; return (key, info bits)."""
    cols, lens, down, hdr, _ = pos
    n = lens[c]
    suit = suit_of(cols[c, n - 1])
    for i in range(n - ranks, n):
        key ^= zob[c, i, cols[c, i]]
    n -= ranks
    lens[c] = n
    hdr[H_REMOVED] += 1
    info = undo_removed(c) | undo_suit(suit, c)
    if n > 0 and down[c] == n:
        b = cols[c, n - 1]
        key ^= zob[c, n - 1, b | FACE_DOWN] ^ zob[c, n - 1, b]
        down[c] = n - 1
        info |= undo_turned(c)
    return key, info


@njit(**INLINE)
def _restore_run(pos, zob, c, ranks, info, key):
    """Undo ``_remove_run`` on column c."""
    cols, lens, down, hdr, _ = pos
    n = lens[c]
    if info & undo_turned(c):
        b = cols[c, n - 1]
        key ^= zob[c, n - 1, b] ^ zob[c, n - 1, b | FACE_DOWN]
        down[c] = n
    suit = undone_suit(info, c)
    for i in range(ranks):
        b = make_card(ranks - i, suit)
        cols[c, n + i] = b
        key ^= zob[c, n + i, b]
    lens[c] = n + ranks
    hdr[H_REMOVED] -= 1
    return key


@njit(**KERNEL)
def do_move(pos, tables, move):
    """Play a legal move or deal; return its undo information."""
    cols, lens, down, hdr, key = pos
    vp, zob, zdealt, stock = tables
    ranks = vp[VP_RANKS]
    k = key[0]
    info = 0
    if move == MOVE_DEAL:
        ncols = vp[VP_COLUMNS]
        d = hdr[H_DEALT]
        base = d * ncols
        for c in range(ncols):
            b = stock[base + c]
            n = lens[c]
            cols[c, n] = b
            lens[c] = n + 1
            k ^= zob[c, n, b]
        k ^= zdealt[d] ^ zdealt[d + 1]
        hdr[H_DEALT] = d + 1
        for c in range(ncols):
            if run_ends_column(pos, c, ranks):
                k, bits = _remove_run(pos, zob, c, ranks, k)
                info |= bits
    else:
        src, dst, count = decode_move(move)
        ns = lens[src] - count
        nd = lens[dst]
        for i in range(count):
            b = cols[src, ns + i]
            cols[dst, nd + i] = b
            k ^= zob[src, ns + i, b] ^ zob[dst, nd + i, b]
        lens[src] = ns
        lens[dst] = nd + count
        if ns > 0 and down[src] == ns:
            b = cols[src, ns - 1]
            k ^= zob[src, ns - 1, b | FACE_DOWN] ^ zob[src, ns - 1, b]
            down[src] = ns - 1
            info |= undo_turned(src)
        if run_ends_column(pos, dst, ranks):
            k, bits = _remove_run(pos, zob, dst, ranks, k)
            info |= bits
    key[0] = k
    return info


@njit(**KERNEL)
def undo_move(pos, tables, move, info):
    """Take back ``move``, given the information ``do_move`` returned for it."""
    cols, lens, down, hdr, key = pos
    vp, zob, zdealt, _ = tables
    ranks = vp[VP_RANKS]
    k = key[0]
    if move == MOVE_DEAL:
        ncols = vp[VP_COLUMNS]
        for c in range(ncols):
            if info & undo_removed(c):
                k = _restore_run(pos, zob, c, ranks, info, k)
        d = hdr[H_DEALT] - 1
        hdr[H_DEALT] = d
        k ^= zdealt[d + 1] ^ zdealt[d]
        for c in range(ncols):
            n = lens[c] - 1
            k ^= zob[c, n, cols[c, n]]
            lens[c] = n
    else:
        src, dst, count = decode_move(move)
        if info & undo_removed(dst):
            k = _restore_run(pos, zob, dst, ranks, info, k)
        ns = lens[src]
        if info & undo_turned(src):
            b = cols[src, ns - 1]
            k ^= zob[src, ns - 1, b] ^ zob[src, ns - 1, b | FACE_DOWN]
            down[src] = ns
        nd = lens[dst] - count
        for i in range(count):
            b = cols[dst, nd + i]
            cols[src, ns + i] = b
            k ^= zob[dst, nd + i, b] ^ zob[src, ns + i, b]
        lens[src] = ns + count
        lens[dst] = nd
    key[0] = k


@njit(**KERNEL)
def is_won(hdr, vp):
    return hdr[H_REMOVED] == vp[VP_RUNS]
