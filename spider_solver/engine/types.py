"""The engine's shared vocabulary: card bytes, state layout, move codes, parameters.

Card byte
---------
One card in one byte::

    bit  7 6 5 4 3 2 1 0
         0 F S S R R R R      R: rank 1..13 (0 means "no card")
                              S: suit 0..3 (spades, hearts, diamonds, clubs)
                              F: face down (only in the packed state and in keys)

Working position (make/unmake)
------------------------------
The search plays on a few small arrays that ``do_move`` / ``undo_move`` change in
place (Stockfish-style), so a node costs a handful of byte copies:

* ``cols``  uint8[MAX_COLUMNS, MAX_HEIGHT]: column c holds ``cols[c, :lens[c]]``,
  deepest card first; cards are stored without the F bit.
* ``lens``  int64[MAX_COLUMNS]: cards in each column.
* ``down``  int64[MAX_COLUMNS]: face-down cards in each column; they are always the
  first ``down[c]`` cards.
* ``hdr``   int64[HDR_SIZE]: ``hdr[H_DEALT]`` deals made, ``hdr[H_REMOVED]`` runs removed.
* ``key``   uint64[1]: the Zobrist key, updated incrementally.

Packed state (beam storage), ``STATE_BYTES`` = 128 bytes
--------------------------------------------------------
==========  ================================================================
bytes       content
==========  ================================================================
0..103      the cards of all columns, column 1 first, deepest card first,
            as card bytes with the F bit set on face-down cards; then zeros
104..113    ``lens`` of columns 1..10
114         deals made
115         runs removed
116..127    zero (reserved)
==========  ================================================================

The stock is not in the state: it is fixed by the deal, and ``deals made``
says how much of it is gone. The 64-bit key travels beside the state.

Move code (int64)
-----------------
``src | dst << 4 | count << 8`` with 0-based columns, or ``MOVE_DEAL``.

Variant parameters ``vp`` (int64[VP_SIZE])
------------------------------------------
``vp[VP_COLUMNS]``, ``vp[VP_RANKS]``, ``vp[VP_RUNS]``, ``vp[VP_DEALS]``,
``vp[VP_RELAXED]`` (0 Classic, 1 Relaxed), ``vp[VP_DEAL_ON_EMPTY]``.
"""

from __future__ import annotations

#: numba options of the kernels that never allocate: they skip the reference
#: counting of their array arguments (``_nrt=False``), which at millions of calls
#: a second was most of their cost (do + undo of a move: 200 ns -> 60 ns).
KERNEL = {"cache": True, "_nrt": False}

MAX_COLUMNS = 10
#: Enough for any column: every card of the deck in one column.
MAX_HEIGHT = 104
CARD_CELLS = 104
STATE_BYTES = 128
OFF_LENS = 104
OFF_DEALT = 114
OFF_REMOVED = 115

RANK_MASK = 15
SUIT_SHIFT = 4
FACE_DOWN = 64
#: Distinct card-byte values a key table needs (F bit included).
CARD_CODES = 128

HDR_SIZE = 4
H_DEALT = 0
H_REMOVED = 1

MOVE_DEAL = 0xFFFF
MOVE_MASK = 0xFFFF
#: Move classes (bits 16..17 of a MODE_SEARCH move): what the search charges extra for.
CLASS_SHIFT = 16
CLASS_PLAIN = 0
CLASS_SPLIT = 1
CLASS_SPLIT_EMPTY = 2
CLASS_LATERAL = 3
#: Room for the moves of one position: 10 sources x 9 targets x up to 13 sizes, plus the deal.
MAX_MOVES = 1024

VP_SIZE = 8
VP_COLUMNS = 0
VP_RANKS = 1
VP_RUNS = 2
VP_DEALS = 3
VP_RELAXED = 4
VP_DEAL_ON_EMPTY = 5

#: Move generation modes.
MODE_ALL = 0  # every legal action, exactly the reference engine's legal_moves()
MODE_SEARCH = 1  # the moves worth trying (see movegen); not solution-preserving

#: Undo information of one action (int64): bit c = a run left column c;
#: bit 10 + c = a card turned up in column c; bits 20 + 2c.. = suit of that run.
UNDO_TURNED = 10
UNDO_SUITS = 20


def encode_move(src: int, dst: int, count: int) -> int:
    return src | dst << 4 | count << 8


def decode_move(move: int) -> tuple[int, int, int]:
    return move & 15, (move >> 4) & 15, (move >> 8) & 127
