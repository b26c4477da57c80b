"""The fair planner's beam (spider_solver/engine/fair_plan.py): its set of positions."""

from __future__ import annotations

import numpy as np

from spider_solver.engine.fair_hint import knowledge_of, tables_of
from spider_solver.engine.fair_plan import (
    MOVES_PER_POSITION,
    PLAN_PARAMS,
    PLAN_WEIGHTS,
    Q_DEPTH,
    Q_WIDTH,
    ROLLOUT_PARAMS,
    new_plan_work,
    plan,
    set_slots,
)
from spider_solver.engine.fair_sample import _view_and_seen
from spider_solver.engine.game import action_of
from spider_solver.engine.seen import seen_sized
from spider_solver.rules import Board, GameCode


def _start(number: int = 3000) -> tuple[Board, tuple, tuple]:
    board = Board(GameCode(4, "classic", number))
    tables = tables_of(board)
    return board, tables, _view_and_seen(knowledge_of(board, []), tables)


def test_a_plan_too_wide_for_its_set_stops_adding_at_half_full_and_still_plans_a_legal_line():
    """The set is probed until a free slot: full, the probe would never end. A plan keeps it
    at most half full; the positions it cannot add are not kept (a shorter plan, never a
    wrong one)."""
    board, tables, (view, vtables, seen) = _start()
    params = PLAN_PARAMS[4]
    work = new_plan_work(params[Q_WIDTH], params[Q_DEPTH])._replace(positions=seen_sized(64))
    length, gain, _ = plan(view, vtables, PLAN_WEIGHTS[4], params, work, seen)
    assert 2 * work.positions.tag[1] <= 64  # never over half full
    assert work.positions.tag[1] == 32  # this opening reaches more than 32 positions: the guard acted
    assert length > 0 and gain > 0
    for move in work.best[:length]:  # a line of legal actions from the real position
        board.push(board.check(action_of(int(move))))


def test_a_plans_set_is_sized_by_its_width_and_depth():
    """A plan adds at most width x depth x ``MOVES_PER_POSITION`` positions (a group of each
    column onto each other column; more only into empty columns): its set has the least
    power of two of slots over twice that, so the rollouts' small plans get a small set and
    the hint's wide plan a large one."""
    for params in (*PLAN_PARAMS.values(), *ROLLOUT_PARAMS.values()):
        width, depth = int(params[Q_WIDTH]), int(params[Q_DEPTH])
        slots = set_slots(width, depth)
        need = 2 * width * depth * MOVES_PER_POSITION
        assert slots & (slots - 1) == 0 and need < slots <= max(2 * need, 1 << 10)
        assert new_plan_work(width, depth).positions.keys.shape == (slots,)
    assert set_slots(8, 8) == 1 << 14 and set_slots(256, 20) == 1 << 20 and set_slots(512, 20) == 1 << 21


def test_the_hint_planners_set_holds_every_position_of_its_plans():
    """The hint's plan from a deal's start is never cut: it fills under half its set."""
    for number in (3000, 3001, 3002):
        board, tables, (view, vtables, seen) = _start(number)
        params = PLAN_PARAMS[4]
        work = new_plan_work(int(params[Q_WIDTH]), int(params[Q_DEPTH]))
        plan(view, vtables, PLAN_WEIGHTS[4], params, work, seen)
        assert 0 < 2 * work.positions.tag[1] < work.positions.keys.shape[0]


def test_a_set_of_positions_keeps_no_more_than_half_its_slots_and_says_so():
    """``seen_add`` on a set of 16 slots: new keys are kept (True) up to 8, a key held is not
    added again (False), and past half full nothing more is kept (False), so probing for a
    free slot always ends; ``seen_slots`` gives room for the keys a set must hold."""
    from spider_solver.engine.seen import seen_add, seen_contains, seen_slots, seen_start

    seen = seen_sized(16)
    seen_start(seen, 1)
    assert [seen_add(seen, np.uint64(k)) for k in range(1, 9)] == [True] * 8
    assert not seen_add(seen, np.uint64(3))
    assert not any(seen_add(seen, np.uint64(k)) for k in range(9, 100))
    assert seen.tag[1] == 8 and all(seen_contains(seen, np.uint64(k)) for k in range(1, 9))
    assert not seen_contains(seen, np.uint64(50))
    seen_start(seen, 2)  # a new game: empty again
    assert seen_add(seen, np.uint64(50)) and seen.tag[1] == 1
    assert seen_slots(3000) == 1 << 13 and seen_slots(10) == 1 << 10
