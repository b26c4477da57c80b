"""The beam search kernels: one level of the search per call.

A level holds positions reached by the same number of actions. ``expand_level``
reads each position of the level once and makes the key and the score of every child
from what it read, without playing the move (:mod:`spider_solver.engine.node`; a
move that completes a run is played), and lists the children not already in the
transposition table as candidates ``(parent, move, key, score, stratum)``.
``select_level`` keeps the best ``width`` candidates of each stratum (the number of
deals made, so that lines that deal early and lines that deal late both survive), or,
under ``SELECT_SHARED``, a floor for each stratum and the rest of the room to the best
of all strata; it skips repeated keys and stores the kept ones in the table. Moves come in two
tiers: the plain moves first, and the classed moves (splits, lateral moves; see
movegen) only for strata that the plain moves leave short of ``width``.
``materialize_level`` packs the kept children into the next level, from their
parents' packed bytes. The Python driver owns the loop, the budget and Ctrl-C.

With ``width`` larger than any level and ``MODE_PROOF`` (or ``MODE_ALL``) moves, this is a
breadth-first search of the whole game with duplicate detection: if the last
level empties without a win and no level was cut, the deal is proved unwinnable.

Reductions (``BeamParams.prune``, the exhaustive search only). Both leave out children
whose positions the search reaches anyway at the same depth or has already reached, so
every position the full search keeps is still kept, at the same level (the same keys,
the same verdict, fewer nodes); ``tests/engine/test_tiny.py`` checks that against the
full search and a brute force.

* *Quiet* moves: a move of cards onto a card (not into an empty column) that leaves
  cards in its source column and, if it completes a run, in its target: it changes no
  column but its two and leaves the set of empty columns as it was, so that two quiet
  moves on four different columns are legal in either order and reach the same position
  (flipping a card and removing a run happen in the move's own columns; which moves
  MODE_PROOF leaves out depends only on the empty columns). Of the two orders only the
  one that plays the move of the lower source column first is searched: a position
  reached by a quiet move from column s does not play a quiet move from a column below s
  on two other columns. Any line can be reordered, one swap of such a pair at a time, to
  one that never does so, of the same length and to the same position, so that the
  position is still reached at its depth. The rule reads the move that reached the
  position; a position that several parents reach in its level leaves out only what
  every one of their moves would (``merged``, in ``_keep_every``): the move the
  reordered line comes by is among them.
* The same cards moved on: a move that completed no run leaves its cards last in their
  new column. Moving those same cards again, onto a card of a third column, gives what
  the parent gives by moving them there at once (a position of this level or an earlier
  one, so already in the table); moving them back, when the first move turned no card up
  and left its source column empty or ending in a card one rank above them, gives the
  parent itself.

The kernels take their arrays in groups: the level as
:class:`~spider_solver.engine.types.States`, the game's
:class:`~spider_solver.engine.types.Tables`, the :class:`BeamParams`, the
:class:`~spider_solver.engine.tt.TranspositionTable`, and the buffers a level works
in, :class:`Candidates` and :class:`NextLevel`, which the driver allocates and grows.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from spider_solver.engine.node import child, load_parent, new_parent, pack_child, parent_moves, played_score
from spider_solver.engine.position import do_move, new_position, pack, undo_move, unpack
from spider_solver.engine.tt import TranspositionTable, tt_contains, tt_probe, tt_store
from spider_solver.engine.types import (
    CLASS_PLAIN,
    H_DEALT,
    H_REMOVED,
    INLINE,
    KERNEL,
    MAX_COLUMNS,
    MAX_MOVES,
    MODE_SEARCH,
    MOVE_DEAL,
    OFF_DEALT,
    TIER_CLASSED,
    TIER_PLAIN,
    VP_RANKS,
    VP_RUNS,
    States,
    Tables,
    column_bit,
    decode_move,
    in_strata,
    move_class,
    move_count,
    move_dst,
    move_src,
    plain_move,
    rank_of,
    strata_below,
    stratum_bit,
)

NO_WIN = -1
OUT_OF_NODES = -2
#: Returned as the candidate count when the candidate buffers are too small.
OVERFLOW = -1


class BeamParams(NamedTuple):
    """What one beam search is asked for."""

    weights: np.ndarray  # int64[WEIGHTS_SIZE], the evaluation's weights
    mode: int  # MODE_SEARCH, MODE_PROOF or MODE_ALL
    width: int  # positions kept per stratum and level
    strata: int  # deals + 1: stratum s holds the positions with s deals made
    select: np.ndarray  # int64[SELECT_SIZE]: the selection policy (SELECT_STRATA, SELECT_SHARED)
    #: 1: the exhaustive search's reductions (commuting moves in one order, the same cards
    #: never moved on again; see "Reductions"); 0: every move of ``mode``. Only for width UNLIMITED.
    prune: int


class Candidates(NamedTuple):
    """Children of a level that may enter the next one, row by row (the driver grows them)."""

    parent: np.ndarray  # int64: the index of the position in the level it comes from
    move: np.ndarray  # int64: the move code that makes it
    key: np.ndarray  # uint64: its key
    score: np.ndarray  # int64: its evaluation (lower is better)
    stratum: np.ndarray  # int64: its deals made
    #: int64: under ``BeamParams.prune``, how it was reached (``arrival``); else unused.
    arrive: np.ndarray


class NextLevel(NamedTuple):
    """The kept children, in selection order (the driver grows them)."""

    selected: np.ndarray  # int64: the candidate index of each kept child
    states: np.ndarray  # uint8[room, STATE_BYTES]: their packed states
    keys: np.ndarray  # uint64: their keys
    parent: np.ndarray  # int64: the index of each one's parent in the level
    move: np.ndarray  # int64: the move from the parent
    arrive: np.ndarray  # int64: under ``BeamParams.prune``, how it was reached (``arrival``)


@njit(cache=True)
def expand_level(frontier, scope, tables, params, tt, cand, span):
    """Expand a level: ``frontier`` is ``(level, arrive)``, ``scope`` is ``(strata_mask,
    tier)`` and ``span`` is ``(start, node_limit)``. Returns ``(candidates, nodes,
    won_parent, won_move)``.

    Only positions whose stratum (deals made) is set in ``strata_mask`` are
    expanded. In ``MODE_SEARCH``, ``TIER_PLAIN`` plays the plain moves and the
    deal, ``TIER_CLASSED`` the classed moves (see movegen). Candidates are written
    from index ``start``; the returned count includes them. ``won_parent`` is the
    index of the first position (in level order) with a move that wins, or
    ``NO_WIN``. ``candidates`` is ``OVERFLOW`` if the buffers filled up; nothing
    has been stored in the table then, so the call can be repeated with larger
    buffers. ``won_parent`` is ``OUT_OF_NODES`` if ``node_limit`` children were
    made first: the node budget is exact, not rounded up to a whole level.
    ``arrive[i]`` is how position i was reached (``arrival``), read under ``params.prune``.
    """
    work = (new_position(), new_parent(), np.zeros(MAX_MOVES, dtype=np.int64), np.zeros(MAX_COLUMNS, dtype=np.int64))
    return _expand(frontier, scope, tables, params, tt, cand, span, work)


#: ``arrival``'s fields above the move code. ARRIVE_QUIET: the commuting-moves rule
#: applies to the position reached, and the fields at ARRIVE_BELOW_SHIFT (a column) and
#: ARRIVE_COLUMNS_SHIFT (a mask of columns) say to which moves: a quiet move from a
#: column below the first on none of the second (one arrival: its source, and its two
#: columns). ARRIVE_RETURN: moving its cards back gives the parent. ARRIVE_ON_TOP: the
#: move completed no run, so its cards are the last of its target column. A code
#: without flags (e.g. 0, the start's, or a deal's) says nothing.
ARRIVE_QUIET = np.int64(1) << 40
ARRIVE_RETURN = np.int64(1) << 41
ARRIVE_ON_TOP = np.int64(1) << 42
ARRIVE_BELOW_SHIFT = 44
ARRIVE_BELOW_MASK = 15
ARRIVE_COLUMNS_SHIFT = 48
ARRIVE_COLUMNS_MASK = (1 << MAX_COLUMNS) - 1
#: Both fields, to clear them.
ARRIVE_FIELDS = ARRIVE_QUIET | np.int64(ARRIVE_BELOW_MASK) << ARRIVE_BELOW_SHIFT \
    | np.int64(ARRIVE_COLUMNS_MASK) << ARRIVE_COLUMNS_SHIFT
assert ARRIVE_BELOW_SHIFT + 4 <= ARRIVE_COLUMNS_SHIFT and MAX_COLUMNS <= ARRIVE_BELOW_MASK
assert ARRIVE_COLUMNS_SHIFT + MAX_COLUMNS <= 63


@njit(**INLINE)
def quiet(lens, src, dst, count, ranks):
    """True if the move of ``count`` cards from ``src`` onto the cards of ``dst`` is quiet
    (see "Reductions"): ``dst`` is not empty, ``src`` keeps a card, and ``dst`` keeps one
    even if the move completes a run of ``ranks`` cards."""
    return lens[dst] > 0 and count < lens[src] and lens[dst] + count != ranks


@njit(**INLINE)
def _quiet_fields(below, columns):
    return ARRIVE_QUIET | np.int64(below) << ARRIVE_BELOW_SHIFT | np.int64(columns) << ARRIVE_COLUMNS_SHIFT


@njit(**INLINE)
def arrival(pos, move, played, ranks):
    """The code ``_expand`` gives the child that ``move`` (not the deal) makes from ``pos``:
    the move, with ARRIVE_QUIET and its fields if it is quiet, ARRIVE_ON_TOP if it
    completed no run (``played`` is False), and then ARRIVE_RETURN if moving the same cards
    back gives ``pos`` again (no card turned up: the source is left empty or ending in a
    face-up card one rank above the first card moved)."""
    cols, lens, down, _, _ = pos
    src, dst, count = decode_move(move)
    code = np.int64(move)
    if quiet(lens, src, dst, count, ranks):
        code |= _quiet_fields(src, column_bit(src) | column_bit(dst))
    left = lens[src] - count
    if not played:
        code |= ARRIVE_ON_TOP
        if left == 0 or (left > down[src] and rank_of(cols[src, left - 1]) == rank_of(cols[src, left]) + 1):
            code |= ARRIVE_RETURN
    return code


@njit(**INLINE)
def merged(kept, other):
    """The code of a position reached by two arrivals, ``kept`` (whose move, ARRIVE_RETURN
    and ARRIVE_ON_TOP stay: each skips only positions already in the table) and ``other``:
    the commuting-moves rule leaves out only what both arrivals' rules leave out."""
    if kept & ARRIVE_QUIET == 0:
        return kept
    rest = kept & ~ARRIVE_FIELDS
    if other & ARRIVE_QUIET == 0:
        return rest
    below = min((kept >> ARRIVE_BELOW_SHIFT) & ARRIVE_BELOW_MASK, (other >> ARRIVE_BELOW_SHIFT) & ARRIVE_BELOW_MASK)
    columns = ((kept | other) >> ARRIVE_COLUMNS_SHIFT) & ARRIVE_COLUMNS_MASK
    return rest | _quiet_fields(below, columns)


@njit(**INLINE)
def pruned(lens, move, arrived, ranks):
    """True if the reductions leave out ``move`` (plain, not the deal) from a position
    reached as ``arrived`` says (an ``arrival`` code, or a ``merged`` one): the same cards
    moved on, or a quiet move the commuting-moves rule leaves out."""
    src, dst, count = decode_move(move)
    if arrived & ARRIVE_ON_TOP and src == move_dst(arrived) and count == move_count(arrived):
        # The same cards moved on: back to their column, or on to a card where the parent
        # could have put them in one move (a position of this level or an earlier one).
        if dst == move_src(arrived):
            return arrived & ARRIVE_RETURN != 0
        if lens[dst] > 0:
            return True
    if arrived & ARRIVE_QUIET:
        below = (arrived >> ARRIVE_BELOW_SHIFT) & ARRIVE_BELOW_MASK
        columns = (arrived >> ARRIVE_COLUMNS_SHIFT) & ARRIVE_COLUMNS_MASK
        if src < below and (columns >> src) & 1 == 0 and (columns >> dst) & 1 == 0 \
                and quiet(lens, src, dst, count, ranks):
            return True
    return False


@njit(**KERNEL)
def _expand(frontier, scope, tables, params, tt, cand, span, work):
    """``expand_level`` in its working arrays ``work``: a kernel that does not count
    references (``KERNEL``), so that the helpers inlined into its loop cost no more
    than their arithmetic."""
    level, arrive = frontier
    strata_mask, tier = scope
    start, node_limit = span
    pos, par, moves, scratch = work
    states, keys = level
    vp = tables.vp
    weights = params.weights
    capacity = cand.parent.shape[0]
    runs = vp[VP_RUNS]
    search = params.mode == MODE_SEARCH
    prune = params.prune != 0
    ranks = vp[VP_RANKS]
    lens = pos.lens
    hdr = pos.hdr
    key = pos.key
    n_cand = start
    nodes = 0
    for i in range(states.shape[0]):
        if not in_strata(strata_mask, states[i, OFF_DEALT]):
            continue
        total = load_parent(states[i], pos, vp, weights, par)
        parent_key = keys[i]
        key[0] = parent_key
        stratum = hdr[H_DEALT]
        n_moves = parent_moves(pos, vp, params.mode, moves, par)
        if n_cand + n_moves > capacity:
            return OVERFLOW, nodes, NO_WIN, 0
        arrived = arrive[i] if prune else np.int64(0)
        for j in range(n_moves):
            if nodes >= node_limit:
                return n_cand, nodes, OUT_OF_NODES, 0
            if search and (move_class(moves[j]) != CLASS_PLAIN) != (tier == TIER_CLASSED):
                continue
            move = plain_move(moves[j])
            if arrived != 0 and move != MOVE_DEAL and pruned(lens, move, arrived, ranks):
                continue
            nodes += 1
            played, child_key, score = child(pos, tables, par, weights, total, parent_key, move)
            if played:
                # A move that completes a run: play it.
                removed_before = hdr[H_REMOVED]
                info = do_move(pos, tables, move)
                if hdr[H_REMOVED] == runs:
                    undo_move(pos, tables, move, info)
                    return n_cand, nodes, i, move
                child_key = key[0]
                child_stratum = hdr[H_DEALT]
                fresh = not tt_contains(tt, child_key)
                if fresh:
                    score = played_score(pos, tables, par, weights, total, move, removed_before, scratch)
                undo_move(pos, tables, move, info)
            else:
                child_stratum = stratum + 1 if move == MOVE_DEAL else stratum
                fresh = not tt_contains(tt, child_key)
            if fresh:
                cand.parent[n_cand] = i
                cand.move[n_cand] = move
                cand.key[n_cand] = child_key
                cand.score[n_cand] = score
                cand.stratum[n_cand] = child_stratum
                if prune:
                    cand.arrive[n_cand] = 0 if move == MOVE_DEAL else arrival(pos, move, played, ranks)
                n_cand += 1
    return n_cand, nodes, NO_WIN, 0


#: candidate_order counts into at most this many buckets a candidate (and at least
#: MIN_BUCKETS); a wider spread of scores is sorted by comparisons.
BUCKETS_PER_CANDIDATE = 4
MIN_BUCKETS = 4096


@njit(cache=True)
def stable_order(keys):
    """The indices that sort ``keys`` stably (ties in index order). Keys within a level
    are small integers close together, so this is a counting sort over the keys' range,
    unless they spread too far (then a merge sort)."""
    n = keys.shape[0]
    if n == 0:
        return np.empty(0, dtype=np.int64)
    low = keys.min()
    spread = keys.max() - low + 1
    if spread > max(BUCKETS_PER_CANDIDATE * n, MIN_BUCKETS):
        return np.argsort(keys, kind="mergesort")
    first = np.zeros(spread + 1, dtype=np.int64)
    for i in range(n):
        first[keys[i] - low + 1] += 1
    for b in range(spread):
        first[b + 1] += first[b]
    order = np.empty(n, dtype=np.int64)
    for i in range(n):
        b = keys[i] - low
        order[first[b]] = i
        first[b] += 1
    return order


@njit(cache=True)
def candidate_order(cand, start, n_cand):
    """The candidates ``start:n_cand`` (as offsets from ``start``) by stratum, then by
    score, ties in candidate order: the stable sort of ``order_key``, on keys made
    compact (stratum times the spread of the scores, plus the score)."""
    n = n_cand - start
    if n == 0:
        return np.empty(0, dtype=np.int64)
    low = cand.score[start:n_cand].min()
    spread = cand.score[start:n_cand].max() - low + 1
    keys = np.empty(n, dtype=np.int64)
    for i in range(n):
        keys[i] = cand.stratum[start + i] * spread + cand.score[start + i] - low
    return stable_order(keys)


#: How a level's positions are chosen: ``BeamParams.select`` is ``[policy, offset,
#: floor, cap]``, the last two in thousandths of ``width``.
#: SELECT_STRATA: the best ``width`` of each stratum (the rest of the array unused).
#: SELECT_SHARED: each stratum first gets its best ``width * floor / 1000``; the rest
#: of the level's room (``width * strata``) goes to the best candidates of all strata by
#: ``score - offset * stratum`` (a deal made is worth ``offset``), at most
#: ``width * cap / 1000`` a stratum (0: no cap): early levels, where the deepest strata
#: are still empty, lend their room to the strata that have positions (benchmarks/HISTORY.md,
#: "Beam selection").
SELECT_STRATA = 0
SELECT_SHARED = 2  # 1 and 3 were a per-parent cap and "leader strata", measured and dropped
SELECT_SIZE = 4


@njit(cache=True)
def shared_order(cand, start, n_cand, offset):
    """The candidates ``start:n_cand`` (as offsets) by ``score - offset * stratum``, ties in candidate order."""
    n = n_cand - start
    keys = np.empty(n, dtype=np.int64)
    for i in range(n):
        keys[i] = cand.score[start + i] - offset * cand.stratum[start + i]
    return stable_order(keys)


@njit(cache=True)
def select_level(cand, span, width, counts, tt, selected, kept, select):
    """Keep the best new candidates of ``start:n_cand`` (``span``), as the policy ``select`` says
    (SELECT_STRATA: until each stratum has ``width``; SELECT_SHARED: see there).

    ``counts[s]`` is how many positions stratum s already has in the next level
    (updated). Ties go to the earlier candidate. Indices are appended to
    ``selected`` from ``kept``; returns ``(kept, truncated)``, ``truncated`` being
    True if a new position was left out.
    """
    start, n_cand = span
    order = candidate_order(cand, start, n_cand)
    if select[0] == SELECT_SHARED:
        return _select_shared(cand, span, (width, select), counts, tt, selected, kept, order)
    return _keep(order, cand, start, counts, tt, selected, kept, (width, np.int64(NO_ROOM_LIMIT), np.int64(0)))


#: The room of a level under SELECT_STRATA: only the strata's widths limit it.
NO_ROOM_LIMIT = 1 << 62


@njit(cache=True)
def _keep(order, cand, start, counts, tt, selected, kept, bounds):
    """Keep the candidates in ``order`` whose key is new, while their stratum holds fewer
    than ``cap`` and the level fewer than ``room`` (``total`` so far; ``bounds`` is ``(cap,
    room, total)``); return ``(kept, truncated)``, ``truncated`` being True if a new position
    was left out."""
    cap, room, total = bounds
    truncated = False
    for o in order:
        idx = start + o
        s = cand.stratum[idx]
        if total >= room or counts[s] >= cap:
            if not truncated and not tt_probe(tt, cand.key[idx]):
                truncated = True
            continue
        if tt_store(tt, cand.key[idx]):
            selected[kept] = idx
            kept += 1
            counts[s] += 1
            total += 1
    return kept, truncated


@njit(cache=True)
def _keep_every(order, cand, n_cand, counts, tt, selected, arrive):
    """The exhaustive search's selection under ``BeamParams.prune``: every new key of the
    candidates ``0:n_cand``, in ``order``, as ``_keep`` keeps them with no cap; returns how
    many. ``arrive[k]`` gets the kept child k's ``arrival``, ``merged`` with those of the
    candidates with its key that come after it (other parents reached it in this level:
    every candidate is new to the earlier levels), found through a table of this level's
    kept keys."""
    size = 16
    while size < 2 * n_cand:
        size *= 2
    mask = size - 1
    slots = np.zeros(size, dtype=np.uint64)  # 0: empty (a key 0 is kept as 1)
    index = np.empty(size, dtype=np.int64)
    kept = np.int64(0)
    for o in order:
        key = cand.key[o]
        home = key if key != 0 else np.uint64(1)
        at = np.int64(home & np.uint64(mask))
        if tt_store(tt, key):
            selected[kept] = o
            arrive[kept] = cand.arrive[o]
            while slots[at] != 0:
                at = (at + 1) & mask
            slots[at] = home
            index[at] = kept
            kept += 1
            counts[cand.stratum[o]] += 1
        else:
            while slots[at] != 0 and slots[at] != home:
                at = (at + 1) & mask
            if slots[at] == home:
                k = index[at]
                arrive[k] = merged(arrive[k], cand.arrive[o])
    return kept


@njit(cache=True)
def _select_shared(cand, span, policy, counts, tt, selected, kept, order):
    """SELECT_SHARED: each stratum's floor first, in ``order``, then the shared room
    (``span`` is ``(start, n_cand)``, ``policy`` ``(width, select)``)."""
    start, n_cand = span
    width, select = policy
    strata = counts.shape[0]
    floor = width * select[2] // 1000
    cap = width * select[3] // 1000 if select[3] > 0 else width * strata
    room = width * strata
    for o in order:
        idx = start + o
        s = cand.stratum[idx]
        if counts[s] < floor and tt_store(tt, cand.key[idx]):
            selected[kept] = idx
            kept += 1
            counts[s] += 1
    total = np.int64(0)
    for s in range(strata):
        total += counts[s]
    return _keep(shared_order(cand, start, n_cand, select[1]), cand, start, counts, tt, selected, kept,
                 (cap, room, total))


@njit(cache=True)
def materialize_level(level, tables, cand, nxt, kept):
    """Pack the kept children ``nxt.selected[:kept]`` into ``nxt.states`` / ``nxt.keys``, in selection order."""
    states, keys = level
    selected = nxt.selected
    pos = new_position()
    for k in range(kept):
        idx = selected[k]
        parent = cand.parent[idx]
        move = cand.move[idx]
        if pack_child(states[parent], tables, move, nxt.states[k]):
            # The candidate's key is the key of this position (node.child made it).
            nxt.keys[k] = cand.key[idx]
        else:
            # A move that completes a run: play it.
            unpack(states[parent], pos)
            pos.key[0] = keys[parent]
            do_move(pos, tables, move)
            pack(pos, nxt.states[k])
            nxt.keys[k] = pos.key[0]


#: ``step_level`` outcomes.
STEP_OK = 0
STEP_WON = 1
STEP_OUT_OF_NODES = 2
STEP_OVERFLOW = 3


@njit(cache=True)
def step_level(level, arrive, tables, params, tt, cand, nxt, node_limit):
    """One whole level: expand, select (both tiers), materialize. One call per level.

    Returns ``(outcome, kept, nodes, truncated, won_parent, won_move)``. The kept
    children are ``nxt.states[:kept]`` / ``nxt.keys[:kept]``, made from parent
    ``nxt.parent[k]`` by move ``nxt.move[k]``; under ``params.prune``, ``arrive`` holds
    how each position of the level was reached, and ``nxt.arrive`` gets the children's. ``STEP_OVERFLOW`` means a buffer
    is too small for the plain tier; nothing was stored in the table, so the
    caller grows the buffers and calls again. If the classed tier runs out of
    room it stops early and the level counts as truncated.

    Each group may come as its NamedTuple or as a plain tuple of the same fields:
    the driver passes plain tuples, which numba types in C at each call, where a
    NamedTuple costs about 1 us a call to type in Python.
    """
    level = States(*level)
    tables = Tables(*tables)
    params = BeamParams(*params)
    tt = TranspositionTable(*tt)
    cand = Candidates(*cand)
    nxt = NextLevel(*nxt)
    states = level.states
    n_states = states.shape[0]
    width = params.width
    strata = params.strata
    selected = nxt.selected
    counts = np.zeros(strata, dtype=np.int64)
    # np.int64(constant): numba types a bare constant argument as a literal and compiles
    # the callee once more for it; the kernels here compile once for int64 arguments.
    n_cand, nodes, won_parent, won_move = expand_level(
        (level, arrive), (np.int64(strata_below(strata)), np.int64(TIER_PLAIN)), tables, params, tt, cand,
        (np.int64(0), node_limit))
    if n_cand == OVERFLOW:
        return STEP_OVERFLOW, 0, nodes, False, NO_WIN, 0
    if won_parent == OUT_OF_NODES:
        return STEP_OUT_OF_NODES, 0, nodes, False, NO_WIN, 0
    if won_parent != NO_WIN:
        return STEP_WON, 0, nodes, False, won_parent, won_move
    if min(n_cand, width * strata) > selected.shape[0] or min(n_cand, width * strata) > nxt.states.shape[0]:
        return STEP_OVERFLOW, 0, nodes, False, NO_WIN, 0
    if params.prune:
        truncated = False
        kept = _keep_every(candidate_order(cand, np.int64(0), n_cand), cand, n_cand, counts, tt, selected, nxt.arrive)
    else:
        kept, truncated = select_level(cand, (np.int64(0), n_cand), width, counts, tt, selected, np.int64(0),
                                       params.select)
    if params.mode == MODE_SEARCH:
        # Classed moves only where the plain ones left a stratum short.
        mask = 0
        for i in range(n_states):
            s = states[i, OFF_DEALT]
            if counts[s] < width:
                mask |= stratum_bit(s)
        if mask:
            start = n_cand
            n_cand, more, won_parent, won_move = expand_level(
                (level, arrive), (np.int64(mask), np.int64(TIER_CLASSED)), tables, params, tt, cand,
                (start, node_limit - nodes))
            nodes += more
            if won_parent == OUT_OF_NODES:
                return STEP_OUT_OF_NODES, 0, nodes, False, NO_WIN, 0
            if won_parent != NO_WIN:
                return STEP_WON, 0, nodes, False, won_parent, won_move
            if n_cand == OVERFLOW:
                truncated = True
            else:
                room = min(selected.shape[0], nxt.states.shape[0])
                if kept + (n_cand - start) > room:
                    truncated = True
                    n_cand = start + room - kept
                kept, more_cut = select_level(cand, (start, n_cand), width, counts, tt, selected, kept,
                                              params.select)
                truncated = truncated or more_cut
    materialize_level(level, tables, cand, nxt, kept)
    for k in range(kept):
        nxt.parent[k] = cand.parent[selected[k]]
        nxt.move[k] = cand.move[selected[k]]
    return STEP_OK, kept, nodes, truncated, NO_WIN, 0
