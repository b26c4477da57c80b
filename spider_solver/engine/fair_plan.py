"""The planning fair player: a beam over the moves of the cards a player can see.

The player's position is its *view* (:func:`make_view`): the face-up cards, how many
cards lie face down in each column, the deals and the runs removed; every face-down
cell holds ``UNKNOWN``, a card nothing goes onto and that goes onto nothing, and so
does every cell of the view's stock. A decision (:func:`decide`) reads the view and
the keys of the positions the game has been in, nothing else: two games that agree on
what the player has seen make the same decision (the fairness contract the tests check).

A decision is a *block* of actions:

1. :func:`plan`: a beam search over the view's moves (``MODE_SEARCH``, no deal) of at
   most ``Q_DEPTH`` moves, keeping ``Q_WIDTH`` positions a level by their value
   (:func:`evaluate_view`, lower is better). A move that turns a card up turns up an
   ``UNKNOWN``: the search goes on past it, pessimistically (what it finds is
   guaranteed whatever the card is), and positions the game has been in are never kept.
2. If the best line found gains at least ``Q_MARGIN`` on the position's value (when no
   card is face down and a deal is left, not counting the columns it empties: the deal
   needs them filled), the block is that line up to and including its first move that
   turns a card up (the card is then seen, and the next decision plans with it).
3. Otherwise, with deals left: fill the empty columns the deal needs filled (each with
   the move into it that leaves the best value), then deal.
4. Otherwise (the stock is empty), the best line that turns a card up, up to that
   move, even if it loses value: the game is lost if nothing is ever turned up again.
5. Otherwise nothing: the player is stuck and the game ends.

The weights and parameters are data (``PLAN_WEIGHTS``, ``PLAN_PARAMS`` by suit count),
tuned on deals never used to report (benchmarks/HISTORY.md, "Fair hints").
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from spider_solver.engine.movegen import gen_moves
from spider_solver.engine.position import do_move, key_from_scratch, undo_move
from spider_solver.engine.seen import seen_add, seen_contains, seen_sized, seen_slots, seen_start
from spider_solver.engine.types import (
    H_DEALT,
    H_REMOVED,
    KERNEL,
    MAX_COLUMNS,
    MAX_MOVES,
    MODE_ALL,
    MODE_SEARCH,
    MOVE_DEAL,
    SUIT_SHIFT,
    UNDO_REMOVED_MASK,
    UNDO_TURNED,
    VP_COLUMNS,
    VP_DEAL_ON_EMPTY,
    VP_DEALS,
    VP_RUNS,
    decode_move,
    plain_move,
    rank_of,
)

#: The card byte of a card the player has not seen (rank 15: no card is one rank below
#: or above it, so nothing goes onto it and it goes onto nothing but an empty column).
UNKNOWN = 15

# -- Weights of the view's value (indices into the weights array) -----------------------

#: Per face-down card, and per face-down card squared (a column's), and per column
#: that has face-down cards.
E_DOWN = 0
E_DOWN_SQ = 1
E_DOWN_COLUMN = 2
#: Per face-up card not seen yet (turned up by a move of the plan).
E_UNKNOWN = 3
#: Per pair of adjacent face-up cards one rank apart of two suits; whose ranks do not
#: follow; one rank apart of one suit (a bonus).
E_SUIT_BREAK = 4
E_RANK_BREAK = 5
E_SUITED = 6
#: Bonus per empty column; per removed run.
E_EMPTY = 7
E_RUN = 8
#: Bonus for a column all face up on a king; else for a column all face up and one run.
E_KING_BASE = 9
E_CLEAR = 10
#: Per stretch without a break lying on face-down cards.
E_RUNS_ON_DOWN = 11
E_SIZE = 12

# -- Parameters (indices into the params array) -----------------------------------------

#: Positions a level of the plan's beam keeps; moves a plan holds at most.
Q_WIDTH = 0
Q_DEPTH = 1
#: The least gain of value for which a plan is played rather than a deal.
Q_MARGIN = 2
#: Actions a game at most (a rollout's bound).
Q_MAX_ACTIONS = 3
#: 1: plan again after every action (a hint's player); 0: play the block out first.
Q_REPLAN = 4
Q_SIZE = 5

#: The weights by suit count (tuned: benchmarks/tune_fair.py).
PLAN_WEIGHTS = {
    1: np.array([22, 0, 0, -1, 12, 6, 0, 6, 60, 4, 4, 2], dtype=np.int64),
    2: np.array([22, 0, 0, -1, 12, 6, 0, 6, 60, 4, 4, 2], dtype=np.int64),
    4: np.array([26, 0, 4, -1, 12, 10, 0, 6, 60, 4, 4, 2], dtype=np.int64),
}
#: The hint's planner by suit count: width, depth, margin, actions a game, plan again after each action.
PLAN_PARAMS = {
    1: np.array([64, 20, 1, 600, 1], dtype=np.int64),
    2: np.array([256, 20, 1, 600, 1], dtype=np.int64),
    4: np.array([1024, 20, 1, 600, 1], dtype=np.int64),
}
#: The rollouts' planner by suit count: small, so that a hint plays many games in a second
#: (at 2 and 4 suits it plays each block out rather than plan again after each action: about
#: as cheap, and it wins more games).
ROLLOUT_PARAMS = {
    1: np.array([8, 8, 1, 600, 1], dtype=np.int64),
    2: np.array([16, 12, 1, 600, 0], dtype=np.int64),
    4: np.array([16, 12, 1, 600, 0], dtype=np.int64),
}

#: A plan holds at most this many moves (``Q_DEPTH`` <= MAX_DEPTH).
MAX_DEPTH = 48
#: Actions of a decision at most (its block): a line of up to ``MAX_DEPTH`` moves, or a
#: move into each column the deal needs filled and the deal.
MAX_BLOCK = MAX_DEPTH + MAX_COLUMNS + 1
#: Candidates a position of the beam may add to the next level at most (its moves).
CANDIDATES_PER_POSITION = 96
#: Moves of a position a plan may add at most: a group of each column onto each other
#: column (90 at 10 columns; more only into empty columns, where the beam's values cut).
MOVES_PER_POSITION = MAX_COLUMNS * (MAX_COLUMNS - 1)


class PlanWork(NamedTuple):
    """The working arrays of the planner (made once: :func:`new_plan_work`)."""

    lines: np.ndarray  # int64[width, MAX_DEPTH]: the lines of the beam's positions
    next_lines: np.ndarray  # int64[width, MAX_DEPTH]: the next level's, while it is chosen
    turned: np.ndarray  # bool[width]: the line turned a card up
    next_turned: np.ndarray  # bool[width]
    cand_parent: np.ndarray  # int64[width * CANDIDATES_PER_POSITION]: the beam position a candidate comes from
    cand_move: np.ndarray  # int64[width * CANDIDATES_PER_POSITION]: the move that made it
    cand_values: np.ndarray  # int64[width * CANDIDATES_PER_POSITION]
    cand_turned: np.ndarray  # bool[width * CANDIDATES_PER_POSITION]
    columns: np.ndarray  # int64[MAX_COLUMNS]: the column values of the position being expanded
    best: np.ndarray  # int64[MAX_DEPTH]: the best line
    reveal: np.ndarray  # int64[MAX_DEPTH]: the best line that turns a card up
    moves: np.ndarray  # int64[MAX_MOVES]
    infos: np.ndarray  # int64[MAX_DEPTH]: undo information along a line
    positions: tuple  # Seen (engine/seen.py) of set_slots(width, depth) slots: this plan's positions, a tag a plan
    block: np.ndarray  # int64[MAX_BLOCK]: the decision's actions


@njit(cache=True)
def set_slots(width, depth):
    """The slots of the set of a plan ``width`` positions wide and ``depth`` moves deep: room
    for every position it can add (width x depth x ``MOVES_PER_POSITION``); a plan too wide
    for its set is cut short, never wrong (``seen_add`` keeps no more at half full)."""
    return seen_slots(max(width, 1) * max(min(depth, MAX_DEPTH), 1) * MOVES_PER_POSITION)


@njit(cache=True)
def new_plan_work(width, depth):
    """The planner's working arrays for beams of at most ``width`` positions and plans of at
    most ``depth`` moves."""
    cands = width * CANDIDATES_PER_POSITION
    size = set_slots(width, depth)
    return PlanWork(np.zeros((width, MAX_DEPTH), dtype=np.int64), np.zeros((width, MAX_DEPTH), dtype=np.int64),
                    np.zeros(width, dtype=np.bool_), np.zeros(width, dtype=np.bool_),
                    np.zeros(cands, dtype=np.int64), np.zeros(cands, dtype=np.int64),
                    np.zeros(cands, dtype=np.int64), np.zeros(cands, dtype=np.bool_),
                    np.zeros(MAX_COLUMNS, dtype=np.int64), np.zeros(MAX_DEPTH, dtype=np.int64),
                    np.zeros(MAX_DEPTH, dtype=np.int64), np.zeros(MAX_MOVES, dtype=np.int64),
                    np.zeros(MAX_DEPTH, dtype=np.int64), seen_sized(size),
                    np.zeros(MAX_BLOCK, dtype=np.int64))


@njit(**KERNEL)
def column_value(cols, lens, down, c, w):
    """The value of column c of a view (lower is better)."""
    n = lens[c]
    if n == 0:
        return -w[E_EMPTY]
    d = down[c]
    value = w[E_DOWN] * d + w[E_DOWN_SQ] * d * d
    rank_breaks = 0
    suit_breaks = 0
    unknown = 0
    upper = np.int64(cols[c, d])
    if rank_of(upper) == UNKNOWN:
        unknown += 1
    for i in range(d + 1, n):
        lower = np.int64(cols[c, i])
        if rank_of(lower) == UNKNOWN:
            unknown += 1
        if rank_of(lower) + 1 != rank_of(upper):
            rank_breaks += 1
        elif (lower ^ upper) >= (1 << SUIT_SHIFT):
            suit_breaks += 1
        upper = lower
    suited = n - d - 1 - rank_breaks - suit_breaks
    value += (w[E_RANK_BREAK] * rank_breaks + w[E_SUIT_BREAK] * suit_breaks + w[E_UNKNOWN] * unknown
              - w[E_SUITED] * suited)
    if d > 0:
        value += w[E_DOWN_COLUMN] + w[E_RUNS_ON_DOWN] * (rank_breaks + suit_breaks + 1)
    elif rank_of(np.int64(cols[c, 0])) == 13:
        value -= w[E_KING_BASE]
    elif rank_breaks + suit_breaks == 0:
        value -= w[E_CLEAR]
    return value


@njit(**KERNEL)
def evaluate_view(pos, ncols, w):
    """The value of a view: its columns' and a bonus per removed run (lower is better)."""
    cols, lens, down, hdr, _ = pos
    value = -w[E_RUN] * hdr[H_REMOVED]
    for c in range(ncols):
        value += column_value(cols, lens, down, c, w)
    return value


@njit(**KERNEL)
def make_view(real, view, tables):
    """Write the player's view of the position ``real`` into ``view``, key included:
    face-down cells hold ``UNKNOWN``; nothing else of ``real`` is read but its face-up
    cards, its columns' lengths and face-down counts, and its deals and runs removed."""
    for c in range(MAX_COLUMNS):
        n = real.lens[c]
        d = real.down[c]
        view.lens[c] = n
        view.down[c] = d
        for i in range(d):
            view.cols[c, i] = UNKNOWN
        for i in range(d, n):
            view.cols[c, i] = real.cols[c, i]
    view.hdr[H_DEALT] = real.hdr[H_DEALT]
    view.hdr[H_REMOVED] = real.hdr[H_REMOVED]
    view.key[0] = key_from_scratch(view, tables[1], tables[2])


@njit(cache=True)
def plan(view, vtables, w, q, work, seen):
    """The beam over the view's moves (see the module's docstring). The best line goes to
    ``work.best``, the best line that turns a card up to ``work.reveal``. Returns
    (length of the best line, its gain on the view's value, length of the best line that
    turns a card up: 0 if none). ``seen``: the game's positions (view keys), never kept.

    A child's value is its parent's with the two columns the move changed valued again
    (the value is a sum over columns and a bonus per removed run)."""
    vp = vtables[0]
    ncols = vp[VP_COLUMNS]
    width = min(q[Q_WIDTH], work.lines.shape[0])
    depth = min(q[Q_DEPTH], MAX_DEPTH)
    lines, next_lines, turned, next_turned = work.lines, work.next_lines, work.turned, work.next_turned
    cand_parent, cand_move, cand_values, cand_turned = (work.cand_parent, work.cand_move, work.cand_values,
                                                        work.cand_turned)
    columns, moves, infos = work.columns, work.moves, work.infos
    cols, lens, down, hdr = view.cols, view.lens, view.down, view.hdr
    room = cand_move.shape[0]
    positions = work.positions
    seen_start(positions, positions.tag[0] + 1)
    seen_add(positions, view.key[0])
    root = evaluate_view(view, ncols, w)
    best_value = root
    best_len = 0
    reveal_value = np.int64(1) << 60
    reveal_len = 0
    nbeam = 1
    turned[0] = False
    for level in range(depth):
        ncand = 0
        for b in range(nbeam):
            for t in range(level):
                infos[t] = do_move(view, vtables, lines[b, t])
            here = -w[E_RUN] * hdr[H_REMOVED]
            for c in range(ncols):
                columns[c] = column_value(cols, lens, down, c, w)
                here += columns[c]
            n = gen_moves(view, vp, MODE_SEARCH, moves)
            for i in range(n):
                m = plain_move(moves[i])
                if m == MOVE_DEAL:
                    continue
                src, dst, _ = decode_move(m)
                base = here - columns[src] - columns[dst]
                info = do_move(view, vtables, m)
                key = view.key[0]
                if not seen_contains(seen, key) and seen_add(positions, key):
                    value = base + column_value(cols, lens, down, src, w) + column_value(cols, lens, down, dst, w)
                    if (info & UNDO_REMOVED_MASK) != 0:  # a run left column dst
                        value -= w[E_RUN]
                    turns = turned[b] or (info >> UNDO_TURNED) != 0
                    if value < best_value:
                        best_value = value
                        best_len = level + 1
                        for t in range(level):
                            work.best[t] = lines[b, t]
                        work.best[level] = m
                    if turns and value < reveal_value:
                        reveal_value = value
                        reveal_len = level + 1
                        for t in range(level):
                            work.reveal[t] = lines[b, t]
                        work.reveal[level] = m
                    if ncand < room and level + 1 < depth:
                        cand_parent[ncand] = b
                        cand_move[ncand] = m
                        cand_values[ncand] = value
                        cand_turned[ncand] = turns
                        ncand += 1
                undo_move(view, vtables, m, info)
            for t in range(level - 1, -1, -1):
                undo_move(view, vtables, lines[b, t], infos[t])
        if ncand == 0:
            break
        order = np.argsort(cand_values[:ncand], kind="mergesort")
        nbeam = min(width, ncand)
        for b in range(nbeam):
            j = order[b]
            parent = cand_parent[j]
            for t in range(level):
                next_lines[b, t] = lines[parent, t]
            next_lines[b, level] = cand_move[j]
            next_turned[b] = cand_turned[j]
        lines, next_lines = next_lines, lines
        turned, next_turned = next_turned, turned
    return best_len, root - best_value, reveal_len


@njit(cache=True)
def _until_turned(view, vtables, line, length, block):
    """Copy ``line`` into ``block`` up to and including its first move that turns a card up
    in ``view`` (played and taken back); returns how many moves."""
    infos = np.zeros(MAX_DEPTH, dtype=np.int64)
    count = length
    for t in range(length):
        infos[t] = do_move(view, vtables, line[t])
        block[t] = line[t]
        if (infos[t] >> UNDO_TURNED) != 0:
            count = t + 1
            break
    for t in range(count - 1, -1, -1):
        undo_move(view, vtables, line[t], infos[t])
    return count


@njit(cache=True)
def _down_cards(view, ncols):
    """The face-down cards of ``view``."""
    total = 0
    for c in range(ncols):
        total += view.down[c]
    return total


@njit(cache=True)
def _emptied(view, vtables, line, length):
    """How many more empty columns ``view`` has after ``line`` (played and taken back)."""
    ncols = vtables[0][VP_COLUMNS]
    infos = np.zeros(MAX_DEPTH, dtype=np.int64)
    before = 0
    for c in range(ncols):
        before += 1 if view.lens[c] == 0 else 0
    for t in range(length):
        infos[t] = do_move(view, vtables, line[t])
    after = 0
    for c in range(ncols):
        after += 1 if view.lens[c] == 0 else 0
    for t in range(length - 1, -1, -1):
        undo_move(view, vtables, line[t], infos[t])
    return after - before


@njit(**KERNEL)
def _fill_move(view, vtables, w, moves):
    """The move into an empty column (not of a whole column) that leaves the best value, or -1."""
    vp = vtables[0]
    ncols = vp[VP_COLUMNS]
    n = gen_moves(view, vp, MODE_ALL, moves)
    best = -1
    best_value = np.int64(1) << 60
    for i in range(n):
        m = plain_move(moves[i])
        if m == MOVE_DEAL:
            continue
        src, dst, count = decode_move(m)
        if view.lens[dst] != 0 or view.lens[src] == count:
            continue
        info = do_move(view, vtables, m)
        value = evaluate_view(view, ncols, w)
        undo_move(view, vtables, m, info)
        if value < best_value:
            best_value = value
            best = m
    return best


@njit(**KERNEL)
def _empty_column(view, ncols):
    for c in range(ncols):
        if view.lens[c] == 0:
            return True
    return False


@njit(cache=True)
def decide(view, vtables, w, q, work, seen):
    """The player's decision at ``view`` (see the module's docstring): the block's actions
    go to ``work.block``; returns how many (0: stuck, the game ends)."""
    vp = vtables[0]
    ncols = vp[VP_COLUMNS]
    block = work.block
    length, gain, reveal_len = plan(view, vtables, w, q, work, seen)
    # With no card face down and a deal left, a column emptied is not counted as a gain: the
    # deal needs it filled again (a 1-suit hint game filled a column for the deal, then moved
    # the card out again, for 900 actions); the player deals instead.
    if length > 0 and _down_cards(view, ncols) == 0 and view.hdr[H_DEALT] < vp[VP_DEALS]:
        gain -= w[E_EMPTY] * _emptied(view, vtables, work.best, length)
    if length > 0 and gain >= q[Q_MARGIN]:
        return _until_turned(view, vtables, work.best, length, block)
    if view.hdr[H_DEALT] < vp[VP_DEALS]:
        count = 0
        infos = np.zeros(MAX_COLUMNS, dtype=np.int64)
        while vp[VP_DEAL_ON_EMPTY] == 0 and _empty_column(view, ncols):
            m = _fill_move(view, vtables, w, work.moves)
            if m < 0:
                break
            infos[count] = do_move(view, vtables, m)
            block[count] = m
            count += 1
            if (infos[count - 1] >> UNDO_TURNED) != 0:  # a card turned up: the next decision sees it
                for t in range(count - 1, -1, -1):
                    undo_move(view, vtables, block[t], infos[t])
                return count
        stuck = vp[VP_DEAL_ON_EMPTY] == 0 and _empty_column(view, ncols)
        for t in range(count - 1, -1, -1):
            undo_move(view, vtables, block[t], infos[t])
        if stuck:
            return 0
        block[count] = MOVE_DEAL
        return count + 1
    if reveal_len > 0:
        return _until_turned(view, vtables, work.reveal, reveal_len, block)
    return 0


@njit(cache=True)
def play_on(real, tables, view, vtables, w, q, work, seen, trace):
    """Play the game of ``real`` (a full position: the world) on to its end by the player's
    decisions, made on its view; the positions the game reaches are added to ``seen``.
    The first actions go to ``trace`` (then -1). Returns the actions played."""
    vp = tables[0]
    runs = vp[VP_RUNS]
    actions = 0
    limit = q[Q_MAX_ACTIONS]
    while actions < limit and real.hdr[H_REMOVED] < runs:
        make_view(real, view, vtables)
        seen_add(seen, view.key[0])
        count = decide(view, vtables, w, q, work, seen)
        if count == 0:
            break
        if q[Q_REPLAN] != 0 and work.block[count - 1] != MOVE_DEAL:
            count = 1
        for t in range(count):
            m = work.block[t]
            do_move(real, tables, m)
            if actions < trace.shape[0]:
                trace[actions] = m
            actions += 1
            if t + 1 < count and m != MOVE_DEAL:
                make_view(real, view, vtables)
                seen_add(seen, view.key[0])
    for t in range(actions, trace.shape[0]):
        trace[t] = -1
    return actions
