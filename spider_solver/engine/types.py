"""The engine's shared vocabulary (after Stockfish's ``types.h``): sizes, the card
byte, the packed state, move codes, undo information, variant parameters, and the
one-line helpers that read and write them.

Every bit field is named here once; kernels use the names and the helpers, never the
bare numbers. The helpers are numba functions inlined into the kernels that call
them (``inline="always"``), and are plain callables from Python as well.

Card byte
---------
One card in one byte::

    bit  7 6 5 4 3 2 1 0
         0 F S S R R R R      R: rank 1..13 (0 means "no card")      RANK_MASK
                              S: suit 0..3 (spades, hearts,           SUIT_SHIFT, SUIT_MASK
                                 diamonds, clubs)
                              F: face down (only in the packed        FACE_DOWN
                                 state and in keys)

Working position (make/unmake)
------------------------------
The search plays on a few small arrays that ``do_move`` / ``undo_move`` change in
place (Stockfish-style), so a node costs a handful of byte copies. Kernels take
them together, as a :class:`Position`:

* ``cols``  uint8[MAX_COLUMNS, MAX_HEIGHT]: column c holds ``cols[c, :lens[c]]``,
  deepest card first; cards are stored without the F bit.
* ``lens``  int64[MAX_COLUMNS]: cards in each column.
* ``down``  int64[MAX_COLUMNS]: face-down cards in each column; they are always the
  first ``down[c]`` cards.
* ``hdr``   int64[HDR_SIZE]: ``hdr[H_DEALT]`` deals made, ``hdr[H_REMOVED]`` runs removed.
* ``key``   uint64[1]: the Zobrist key, updated incrementally.

Packed state (beam storage), ``STATE_BYTES`` = 128 bytes
--------------------------------------------------------
Fields follow each other: each offset is the previous offset plus the previous
size (checked below, at import).

============  ======  =====  ====================================================
field         offset  bytes  content
============  ======  =====  ====================================================
OFF_CARDS     0       104    the cards of all columns, column 1 first, deepest
                             card first, as card bytes with the F bit set on
                             face-down cards; then zeros (CARD_CELLS = MAX_CARDS)
OFF_LENS      104     10     ``lens`` of columns 1..10 (LENS_BYTES = MAX_COLUMNS)
OFF_DEALT     114     1      deals made
OFF_REMOVED   115     1      runs removed
OFF_RESERVED  116     12     zero (reserved), up to STATE_BYTES
============  ======  =====  ====================================================

The stock is not in the state: it is fixed by the deal, and ``deals made``
says how much of it is gone. The 64-bit key travels beside the state.

Move code (int64)
-----------------
::

    bits  16..      15   14..8    7..4   3..0
          class     0    count    dst    src      (0-based columns)

``encode_move(src, dst, count)``, or ``MOVE_DEAL``. ``MODE_SEARCH`` move
generation puts a class (``CLASS_*``) above the move's 16 bits; ``plain_move``
strips it before the move is played.

Variant parameters ``vp`` (int64[VP_SIZE])
------------------------------------------
``vp[VP_COLUMNS]``, ``vp[VP_RANKS]``, ``vp[VP_RUNS]``, ``vp[VP_DEALS]``,
``vp[VP_RELAXED]`` (0 Classic, 1 Relaxed), ``vp[VP_DEAL_ON_EMPTY]``. Together with
the key tables and the stock they are a game's :class:`Tables`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

# -- numba options ---------------------------------------------------------------------

#: numba options of the kernels that never allocate: they skip the reference
#: counting of their array arguments (``_nrt=False``), which at millions of calls
#: a second was most of their cost (do + undo of a move: 200 ns -> 60 ns).
KERNEL = {"cache": True, "_nrt": False}
#: numba options of the one-line helpers: inlined by numba into every caller.
INLINE = {"inline": "always", **KERNEL}

# -- Sizes -------------------------------------------------------------------------------

#: Columns of the widest game (the real game's 10).
MAX_COLUMNS = 10
#: Cards of the largest deck (the real game's 104; ``Variant`` refuses more).
MAX_CARDS = 104
#: Room in one column: every card of the deck in one column.
MAX_HEIGHT = MAX_CARDS
#: Room for the moves of one position (a buffer the kernels allocate). With e empty
#: columns, each of the 10 - e others can move one group onto each of the 9 - e
#: other non-empty columns, and a group of any of its sizes (at most MAX_RANK) into
#: each empty column: at most (10 - e) * (9 - e + MAX_RANK * e) moves (395 at
#: e = 5), plus the deal; checked below.
MAX_MOVES = 1024

# -- Card byte ---------------------------------------------------------------------------

#: Bits of the rank field (bits 0..3).
RANK_BITS = 4
#: The rank of a card byte: ``b & RANK_MASK``.
RANK_MASK = (1 << RANK_BITS) - 1
#: Highest rank the rank field holds (the real game stops at 13).
MAX_RANK = RANK_MASK
#: The suit field starts above the rank.
SUIT_SHIFT = RANK_BITS
#: Bits of the suit field (bits 4..5): four suits.
SUIT_BITS = 2
#: The suit of a card byte: ``(b >> SUIT_SHIFT) & SUIT_MASK``.
SUIT_MASK = (1 << SUIT_BITS) - 1
#: The face-down flag F (bit 6), above the suit.
FACE_DOWN = 1 << (SUIT_SHIFT + SUIT_BITS)
#: A card byte without its F bit.
FACE_UP_MASK = FACE_DOWN - 1
#: Distinct card-byte values a key table needs (F bit included).
CARD_CODES = FACE_DOWN << 1

# -- Packed state ------------------------------------------------------------------------

#: Bytes of one packed state.
STATE_BYTES = 128
#: The card cells, one byte a card.
OFF_CARDS = 0
CARD_CELLS = MAX_CARDS
#: Column lengths, one byte a column.
OFF_LENS = OFF_CARDS + CARD_CELLS
LENS_BYTES = MAX_COLUMNS
#: Deals made, one byte.
OFF_DEALT = OFF_LENS + LENS_BYTES
#: Runs removed, one byte.
OFF_REMOVED = OFF_DEALT + 1
#: Zeros from here to STATE_BYTES.
OFF_RESERVED = OFF_REMOVED + 1

# -- Working position header -------------------------------------------------------------

HDR_SIZE = 4
#: ``hdr[H_DEALT]``: deals made.
H_DEALT = 0
#: ``hdr[H_REMOVED]``: runs removed.
H_REMOVED = 1

# -- Deals and strata --------------------------------------------------------------------

#: The beam keeps positions apart by deals made (their stratum) and marks strata in
#: an int64 bit mask (bit s: stratum s), sign bit clear: strata 0..62.
MAX_STRATA = 63
#: Most deals a variant may have for the search engine (its strata are 0..deals).
MAX_DEALS = MAX_STRATA - 1

# -- Move code ---------------------------------------------------------------------------

#: Bits of a column index in a move code: up to 16 columns.
COLUMN_BITS = 4
COLUMN_MASK = (1 << COLUMN_BITS) - 1
#: The target column's field, above the source's.
MOVE_DST_SHIFT = COLUMN_BITS
#: The group size's field, above the target's.
MOVE_COUNT_SHIFT = 2 * COLUMN_BITS
#: The group size: at most MAX_HEIGHT cards.
COUNT_MASK = 127
#: Bits of a playable move (src, dst, count); the class lies above them.
MOVE_BITS = 16
#: A move code without its class.
MOVE_MASK = (1 << MOVE_BITS) - 1
#: The deal: all 16 bits set, which no move between columns has (count <= 127).
MOVE_DEAL = MOVE_MASK
#: Move classes (above bit 16 of a MODE_SEARCH move): what the search charges extra for.
CLASS_SHIFT = MOVE_BITS
CLASS_PLAIN = 0
CLASS_SPLIT = 1
CLASS_SPLIT_EMPTY = 2
CLASS_LATERAL = 3

#: Move generation modes.
MODE_ALL = 0  # every legal action, exactly the reference engine's legal_moves()
MODE_SEARCH = 1  # the moves worth trying (see movegen); not solution-preserving
MODE_PROOF = 2  # MODE_ALL less the moves that only rename columns once the stock is empty (see movegen)

#: Move tiers of the search: plain moves and the deal first, classed moves second.
TIER_PLAIN = 0
TIER_CLASSED = 1

# -- Undo information --------------------------------------------------------------------

#: Undo information of one action (int64): bit c = a run left column c;
#: bit UNDO_TURNED + c = a card turned up in column c; the SUIT_BITS bits from
#: UNDO_SUITS + SUIT_BITS * c = the suit of the run that left column c.
UNDO_TURNED = MAX_COLUMNS
UNDO_SUITS = UNDO_TURNED + MAX_COLUMNS
#: The low bits of an undo word that say which columns lost a run.
UNDO_REMOVED_MASK = (1 << UNDO_TURNED) - 1

# -- Variant parameters ------------------------------------------------------------------

VP_SIZE = 8
VP_COLUMNS = 0
VP_RANKS = 1
VP_RUNS = 2
VP_DEALS = 3
VP_RELAXED = 4
VP_DEAL_ON_EMPTY = 5

# -- Candidate order ---------------------------------------------------------------------

#: The beam sorts its candidates by one int64: the stratum above SCORE_BITS, the
#: score below it, biased by SCORE_BIAS so that any score in
#: [-SCORE_BIAS, SCORE_BIAS) sorts as a non-negative number.
SCORE_BITS = 40
SCORE_BIAS = 1 << (SCORE_BITS - 1)

# -- Static checks: the fields fit -------------------------------------------------------

assert OFF_RESERVED <= STATE_BYTES, "the packed state's fields overrun STATE_BYTES"
assert MAX_HEIGHT < 1 << 8 and MAX_DEALS < 1 << 8, "a length or a deal count does not fit its byte"
assert MAX_HEIGHT <= COUNT_MASK and MAX_COLUMNS <= 1 << COLUMN_BITS
assert MOVE_COUNT_SHIFT + COUNT_MASK.bit_length() <= MOVE_BITS
assert max((MAX_COLUMNS - e) * (MAX_COLUMNS - 1 - e + MAX_RANK * e) for e in range(MAX_COLUMNS)) + 1 <= MAX_MOVES
assert UNDO_SUITS + SUIT_BITS * MAX_COLUMNS <= 63
assert MAX_STRATA <= 63 and MAX_DEALS + 1 == MAX_STRATA
assert (MAX_STRATA - 1) < 1 << (63 - SCORE_BITS)


# -- Grouped arrays ----------------------------------------------------------------------


class Position(NamedTuple):
    """The working position that ``do_move`` / ``undo_move`` change in place."""

    cols: np.ndarray  # uint8[MAX_COLUMNS, MAX_HEIGHT]
    lens: np.ndarray  # int64[MAX_COLUMNS]
    down: np.ndarray  # int64[MAX_COLUMNS]
    hdr: np.ndarray  # int64[HDR_SIZE]
    key: np.ndarray  # uint64[1]


class Tables(NamedTuple):
    """A game's read-only tables: what playing a move needs besides the position."""

    vp: np.ndarray  # int64[VP_SIZE], the variant parameters
    zobrist: np.ndarray  # uint64[MAX_COLUMNS, MAX_HEIGHT, CARD_CODES]
    dealt_keys: np.ndarray  # uint64[DEAL_KEYS], one key per number of deals made
    stock: np.ndarray  # uint8[cards in the stock + MAX_COLUMNS], card bytes in deal order


class States(NamedTuple):
    """Packed states and their keys, row by row: a beam level, or the positions of a line."""

    states: np.ndarray  # uint8[n, STATE_BYTES]
    keys: np.ndarray  # uint64[n]


# -- Helpers: card bytes -----------------------------------------------------------------


@njit(**INLINE)
def rank_of(b):
    """The rank of a card byte."""
    return b & RANK_MASK


@njit(**INLINE)
def suit_of(b):
    """The suit of a card byte."""
    return (b >> SUIT_SHIFT) & SUIT_MASK


@njit(**INLINE)
def make_card(rank, suit):
    """The face-up card byte of a rank and a suit."""
    return rank | suit << SUIT_SHIFT


@njit(**INLINE)
def same_suit(a, b):
    """True if two face-up card bytes are of one suit."""
    return (a >> SUIT_SHIFT) == (b >> SUIT_SHIFT)


# -- Helpers: move codes -----------------------------------------------------------------


@njit(**INLINE)
def encode_move(src, dst, count):
    """The code of moving ``count`` cards from column ``src`` to ``dst`` (0-based)."""
    return src | dst << MOVE_DST_SHIFT | count << MOVE_COUNT_SHIFT


@njit(**INLINE)
def move_src(move):
    return move & COLUMN_MASK


@njit(**INLINE)
def move_dst(move):
    return (move >> MOVE_DST_SHIFT) & COLUMN_MASK


@njit(**INLINE)
def move_count(move):
    return (move >> MOVE_COUNT_SHIFT) & COUNT_MASK


@njit(**INLINE)
def decode_move(move):
    """``(src, dst, count)`` of a move code (not of ``MOVE_DEAL``)."""
    return move_src(move), move_dst(move), move_count(move)


@njit(**INLINE)
def with_class(move, klass):
    """A MODE_SEARCH move code carrying a class (``CLASS_*``)."""
    return move | klass << CLASS_SHIFT


@njit(**INLINE)
def move_class(move):
    return move >> CLASS_SHIFT


@njit(**INLINE)
def plain_move(move):
    """The playable move of a MODE_SEARCH move code: its class stripped."""
    return move & MOVE_MASK


# -- Helpers: undo information -----------------------------------------------------------


@njit(**INLINE)
def undo_removed(c):
    """The undo bit that says a run left column c."""
    return 1 << c


@njit(**INLINE)
def undo_turned(c):
    """The undo bit that says a card turned up in column c."""
    return 1 << (UNDO_TURNED + c)


@njit(**INLINE)
def undo_suit(suit, c):
    """The undo bits that record the suit of the run that left column c."""
    return suit << (UNDO_SUITS + SUIT_BITS * c)


@njit(**INLINE)
def undone_suit(info, c):
    """The suit of the run that left column c, read back from undo information."""
    return (info >> (UNDO_SUITS + SUIT_BITS * c)) & SUIT_MASK


# -- Helpers: candidate order ------------------------------------------------------------


@njit(**INLINE)
def order_key(stratum, score):
    """The sort key of a candidate: by stratum, then by score (lower first)."""
    return (stratum << SCORE_BITS) + (score + SCORE_BIAS)


# -- Helpers: strata masks ---------------------------------------------------------------


@njit(**INLINE)
def stratum_bit(s):
    """The mask of stratum s alone (s < MAX_STRATA)."""
    return 1 << s


@njit(**INLINE)
def strata_below(strata):
    """The mask of strata 0..strata - 1 (strata <= MAX_STRATA)."""
    return (1 << strata) - 1


@njit(**INLINE)
def in_strata(mask, s):
    """1 if stratum s is in the mask, else 0."""
    return (mask >> s) & 1


# -- Helpers: column masks ---------------------------------------------------------------


@njit(**INLINE)
def column_bit(c):
    """The mask of column c alone."""
    return np.int64(1) << c


@intrinsic
def _count_trailing_zeros(typingctx, x):
    """LLVM's ``cttz`` on an int64 (one instruction; undefined for 0)."""
    if x != types.int64:
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@njit(**INLINE)
def lowest_bit(mask):
    """The index of the lowest set bit of a non-zero int64 mask."""
    return _count_trailing_zeros(np.int64(mask))
