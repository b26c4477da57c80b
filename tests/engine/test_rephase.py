"""Phase re-search: lines stay legal and winning under the rules engine, never get longer,
and the same line and budget give the same result."""

from __future__ import annotations

import pytest

from spider_solver.engine.beam import Beam
from spider_solver.engine.driver import Budget, beam
from spider_solver.engine.game import Game
from spider_solver.engine.rephase import improve_moves, phase_starts, polish, positions, rephase
from spider_solver.engine.shorten import shorten
from spider_solver.engine.types import MOVE_DEAL
from spider_solver.rules import Deal, replay

CODES = ["SP1-S1C-AAAAABA", "SP1-S2C-AAAAAAD", "SP1-S4C-AAAAAAD"]


def wins(game: Game, line: list[int]) -> bool:
    result = replay(game.deal, [str(a) for a in game.actions(line)], undo_limit=0)
    return result.won and result.error is None and result.moves == len(line)


@pytest.fixture(scope="module", params=CODES)
def lines(request):
    """(game, a long winning line from the narrowest beam, shortened)."""
    game = Game.from_deal(Deal.from_code(request.param))
    attempt = beam(game, Beam(16), Budget(10_000_000, None))
    assert attempt.outcome == "won"
    return game, shorten(game, attempt.moves)


def test_phases_start_after_each_deal_last_first_then_the_layout():
    line = [1, MOVE_DEAL, 2, 3, MOVE_DEAL, 4, MOVE_DEAL]
    assert phase_starts(line) == [5, 2, 0]


def test_positions_follow_the_line(lines):
    game, line = lines
    path = positions(game, line)
    assert path.keys[0] == game.start_key and len(path.keys) == len(line) + 1


def test_rephase_gives_a_winning_line_never_longer_within_its_budget(lines):
    game, line = lines
    budget = Budget(400_000, None)
    result = rephase(game, line, (64, 256), budget)
    assert wins(game, result.line) and len(result.line) <= len(line)
    assert result.nodes == budget.nodes <= 400_000 and result.beams >= 1
    for entry in result.log:  # every beam is capped below what the line took from its start
        assert entry["cap"] <= len(line) - entry["from"] - 1


def test_rephase_is_deterministic_and_a_tiny_budget_keeps_the_line(lines):
    game, line = lines
    first = rephase(game, line, (64,), Budget(200_000, None))
    second = rephase(game, line, (64,), Budget(200_000, None))
    assert first.line == second.line and first.nodes == second.nodes
    tiny = rephase(game, line, (64,), Budget(10, None))
    assert tiny.line == line and tiny.stopped == "nodes"


def test_polish_and_improve_never_lengthen(lines):
    game, line = lines
    budget = Budget(10_000_000, None)
    budget.nodes = 9_950_000  # only 50k nodes left: polish stays within the solve's budget
    polished = polish(game, line, 16, budget)
    assert budget.nodes <= 10_000_000 and wins(game, polished.line) and len(polished.line) <= len(line)
    improved = improve_moves(game, line + [], Budget(300_000, None), widths=(32, 128))
    assert wins(game, improved.line) and len(improved.line) <= len(line)


@pytest.mark.parametrize("code", ["SP1-S4C-AAAAAAD", "SP1-S2C-AAAAAAD", "SP1-S1C-AAAAABA"])
def test_improve_scores_its_wide_beams_with_its_own_weights(monkeypatch, code):
    from spider_solver.engine import rephase as module
    from spider_solver.engine.evaluate import DEFAULT_WEIGHTS

    game = Game.from_deal(Deal.from_code(code))
    line = shorten(game, beam(game, Beam(16), Budget(10_000_000, None)).moves)
    given = []

    def spy(*args, weights, **kwargs):
        given.append(weights)
        return beam(*args, weights=weights, **kwargs)

    monkeypatch.setattr(module, "beam", spy)
    improve_moves(game, line, Budget(200_000, None), widths=(32,))
    own = module.IMPROVE_WEIGHTS.get(game.deal.variant.suits, DEFAULT_WEIGHTS)
    assert given and all((w == own).all() for w in given)
    assert (game.deal.variant.suits == 1) == (own is DEFAULT_WEIGHTS)
