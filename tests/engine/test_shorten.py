"""Solution shortening: never longer, still a win, and detours come out.

Lines are move codes of the engine. Every result is replayed on the reference
rules engine, independently of the engine's own replay inside ``shorten``.
"""

from __future__ import annotations

import pytest

from spider_solver.engine.beam import Beam
from spider_solver.engine.driver import Budget, beam
from spider_solver.engine.game import Game, move_code
from spider_solver.engine.shorten import shorten
from spider_solver.rules import Board, Deal, Move, replay

CODES = ["SP1-S1C-AAAAABA", "SP1-S2C-AAAAAAD", "SP1-S4C-AAAAAAD"]


def raw_line(game: Game) -> list[int]:
    """A winning line straight from the narrowest beam, before any shortening."""
    attempt = beam(game, Beam(16), Budget(10_000_000, None))
    assert attempt.outcome == "won"
    return attempt.moves


def wins(game: Game, line: list[int]) -> bool:
    result = replay(game.deal, [str(a) for a in game.actions(line)], undo_limit=0)
    return result.won and result.error is None


@pytest.fixture(scope="module", params=CODES)
def lines(request):
    """(game, raw line, shortened line) of a deal."""
    game = Game.from_deal(Deal.from_code(request.param))
    line = raw_line(game)
    return game, line, shorten(game, line)


def test_never_longer_and_still_wins(lines):
    game, line, short = lines
    assert wins(game, line)
    assert len(short) <= len(line)
    assert wins(game, short)


def test_a_shortened_line_is_a_fixed_point(lines):
    game, _, short = lines
    assert shorten(game, short) == short


def reversible_detours(game: Game, line: list[int]):
    """(index, move, reverse) along the line: playing ``move`` then ``reverse`` before
    action ``index`` leaves the position (cards, face-down cards, deals) unchanged."""
    board = Board(game.deal, undo_limit=None)
    found = []
    for index, code in enumerate(line):
        before = board.position()
        for action in board.legal_moves():
            if not isinstance(action, Move):
                continue
            back = Move(action.dst, action.src, action.count)
            board.push(action)
            if board.is_legal(back):
                board.push(back)
                after = board.position()
                if (after.columns, after.down, after.dealt) == (before.columns, before.down, before.dealt):
                    found.append((index, move_code(action), move_code(back), not before.columns[action.dst - 1]))
                board.pop()
            board.pop()
        board.push(game.action(code))
    return found


def test_a_move_and_its_reverse_come_out(lines):
    game, _, short = lines
    detours = reversible_detours(game, short)
    assert detours, "the line offers no move that can be taken back"
    # A few spread along the line: early, middle, late.
    for index, move, back, _ in (detours[0], detours[len(detours) // 2], detours[-1]):
        detoured = short[:index] + [move, back] + short[index:]
        assert wins(game, detoured)
        result = shorten(game, detoured)
        assert len(result) < len(detoured)
        assert len(result) <= len(short)
        assert wins(game, result)


def test_a_pointless_trip_to_an_empty_column_comes_out():
    # Find a line where some column is empty at some point, then send a card there and back.
    for code in CODES + ["SP1-S1C-AAAAAAD", "SP1-S2R-AAAAAAB"]:
        game = Game.from_deal(Deal.from_code(code))
        short = shorten(game, raw_line(game))
        trips = [d for d in reversible_detours(game, short) if d[3]]
        if trips:
            break
    else:
        pytest.fail("no line with an empty column found")
    index, move, back, _ = trips[len(trips) // 2]
    detoured = short[:index] + [move, back] + short[index:]
    assert wins(game, detoured)
    result = shorten(game, detoured)
    assert len(result) <= len(short) < len(detoured)
    assert wins(game, result)


def test_two_detours_at_once_come_out(lines):
    game, _, short = lines
    detours = reversible_detours(game, short)
    (i, m1, b1, _), (j, m2, b2, _) = detours[0], detours[-1]
    if i == j:
        pytest.skip("only one place to make a detour")
    detoured = short[:i] + [m1, b1] + short[i:j] + [m2, b2] + short[j:]
    assert wins(game, detoured)
    result = shorten(game, detoured)
    assert len(result) <= len(short)
    assert wins(game, result)


def test_a_move_repeated_back_and_forth_several_times():
    game = Game.from_deal(Deal.from_code("SP1-S2C-AAAAAAD"))
    short = shorten(game, raw_line(game))
    index, move, back, _ = reversible_detours(game, short)[0]
    detoured = short[:index] + [move, back] * 3 + short[index:]
    assert wins(game, detoured)
    result = shorten(game, detoured)
    assert len(result) <= len(short)
    assert wins(game, result)


def split_moves(game: Game, line: list[int], gap: int):
    """(index, via, back) along the line: the move at ``index`` (F>T, a group of N cards)
    can be made as F>E then, ``gap`` actions later, E>T, where the ``gap`` actions in
    between touch none of F, E, T and deal no row, so the line reaches the same position."""
    board = Board(game.deal, undo_limit=None)
    found = []
    for index, code in enumerate(line):
        action = game.action(code)
        between = [game.action(c) for c in line[index + 1:index + 1 + gap]]
        if isinstance(action, Move) and len(between) == gap and all(isinstance(a, Move) for a in between):
            played = board.push(action)
            board.pop()
            for via in range(1, len(board.columns) + 1):
                touched = {played.src, played.dst, via}
                if via in (played.src, played.dst) or any({a.src, a.dst} & touched for a in between):
                    continue
                first = Move(played.src, via, played.count)
                if board.is_legal(first):
                    found.append((index, move_code(first), move_code(Move(via, played.dst, played.count))))
        board.push(action)
    return found


def test_a_move_split_in_two_far_apart_is_merged_back(lines):
    # Shortcuts look two moves ahead; three unrelated moves in between hide this detour from them.
    game, _, short = lines
    splits = split_moves(game, short, gap=3)
    if not splits:
        pytest.skip("no move of this line can be split around three unrelated ones")
    for index, via, back in (splits[0], splits[-1]):
        detoured = short[:index] + [via] + short[index + 1:index + 4] + [back] + short[index + 4:]
        assert wins(game, detoured)
        result = shorten(game, detoured)
        assert len(result) <= len(short) < len(detoured)
        assert wins(game, result)
