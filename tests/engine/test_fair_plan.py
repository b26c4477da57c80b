"""The fair planner's beam (spider_solver/engine/fair_plan.py): its set of positions."""

from __future__ import annotations

import numpy as np

from spider_solver.engine.fair_hint import knowledge_of, tables_of
from spider_solver.engine.fair_plan import (
    PLAN_PARAMS,
    PLAN_SET_BITS,
    PLAN_WEIGHTS,
    Q_DEPTH,
    Q_WIDTH,
    new_plan_work,
    plan,
)
from spider_solver.engine.fair_sample import _view_and_seen
from spider_solver.engine.game import action_of
from spider_solver.engine.types import MAX_COLUMNS
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
    work = new_plan_work(params[Q_WIDTH])._replace(set_keys=np.zeros(64, dtype=np.uint64),
                                                   set_tags=np.zeros(64, dtype=np.int64))
    length, gain, _ = plan(view, vtables, PLAN_WEIGHTS[4], params, work, seen)
    assert 2 * work.tag[1] <= 64  # never over half full
    assert work.tag[1] == 32  # this opening reaches more than 32 positions: the guard acted
    assert length > 0 and gain > 0
    for move in work.best[:length]:  # a line of legal actions from the real position
        board.push(board.check(action_of(int(move))))


def test_the_hint_planners_set_holds_every_position_of_its_plans():
    """``PLAN_SET_BITS`` leaves room: a plan adds at most width x depth x the moves of a
    position (a group of each column onto each other column: 90 at 10 columns, more only
    into empty columns), under half the slots; the hint's plan from a deal's start is never
    cut."""
    widest = max(int(params[Q_WIDTH]) * int(params[Q_DEPTH]) for params in PLAN_PARAMS.values())
    assert 2 * widest * MAX_COLUMNS * (MAX_COLUMNS - 1) < (1 << PLAN_SET_BITS)
    for number in (3000, 3001, 3002):
        board, tables, (view, vtables, seen) = _start(number)
        work = new_plan_work(int(PLAN_PARAMS[4][Q_WIDTH]))
        plan(view, vtables, PLAN_WEIGHTS[4], PLAN_PARAMS[4], work, seen)
        assert 0 < 2 * work.tag[1] < (1 << PLAN_SET_BITS)
