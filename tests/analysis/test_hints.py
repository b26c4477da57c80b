"""Hints (spider_solver/analysis/hints.py): along a verified line and after detours off it the
hints are legal and their lines win; the hint from a known line needs no search and recognises
positions, not action texts; a hint's line never goes back through the game's history."""

from __future__ import annotations

import random

import pytest

from spider_solver.analysis import (
    Analysis,
    analyze,
    hint_from_line,
)
from spider_solver.outcomes import Status
from spider_solver.rules import Board, Deal, replay
from tests.analysis.helpers import BUDGET, FOUR_SUITS, ONE_SUIT, assert_line_wins, effective_history, position_after

pytestmark = pytest.mark.usefixtures("engine")


@pytest.mark.parametrize("code", [ONE_SUIT, FOUR_SUITS])
def test_hints_along_a_verified_line_win(code, lines):
    deal, line = Deal.from_code(code), lines[code]
    for k in (0, 20, 60, len(line) - 1):
        log = list(line[:k])
        analysis = analyze(deal, log, max_nodes=BUDGET, max_seconds=None)
        assert_line_wins(deal, log, analysis)
        assert analysis.source == "search" and analysis.nodes > 0 and analysis.code == code


@pytest.mark.parametrize("code", [ONE_SUIT, FOUR_SUITS])
def test_hints_after_detours_off_the_line_win(code, lines):
    deal, line = Deal.from_code(code), lines[code]
    rng = random.Random(f"detours {code}")
    verdicts = []
    for k in (20, 60):
        for detour in (1, 3):
            board = Board(deal)
            for action in line[:k]:
                board.push_notation(action)
            log = list(line[:k])
            for _ in range(detour):
                action = rng.choice(board.legal_moves())
                log.append(board.notation(action))
                board.push(action)
            analysis = analyze(deal, log, max_nodes=BUDGET, max_seconds=None, find_lost_at=False)
            verdicts.append(analysis.status)
            if analysis.status is Status.VERIFIED:
                assert_line_wins(deal, log, analysis)
    assert verdicts.count(Status.VERIFIED) >= 3


def test_the_hint_of_a_known_line_needs_no_search(lines):
    deal, line = Deal.from_code(FOUR_SUITS), lines[FOUR_SUITS]
    for k in (0, 30, len(line) - 1):
        analysis = analyze(deal, line[:k], known_line=line)
        assert (analysis.source, analysis.nodes, analysis.hint) == ("known-line", 0, line[k])
        assert analysis.line == line[k:]
        assert_line_wins(deal, list(line[:k]), analysis)
        assert hint_from_line(deal, line[:k], line) == line[k]


def test_the_known_line_is_found_after_a_detour_that_came_back_and_a_transposition(lines):
    deal, line = Deal.from_code(ONE_SUIT), lines[ONE_SUIT]
    k = 40
    board = Board(deal)
    for action in line[:k]:
        board.push_notation(action)
    detour = next(board.notation(a) for a in board.legal_moves() if board.notation(a) != line[k])
    # A detour, then its undo: the same position, the same hint.
    analysis = analyze(deal, [*line[:k], detour, "U"], known_line=line)
    assert (analysis.source, analysis.hint) == ("known-line", line[k])
    # Two actions of the line in the other order reach the same position: positions count, not texts.
    for i in range(k, len(line) - 2):
        swapped = [*line[:i], line[i + 1], line[i]]
        if replay(deal, swapped, undo_limit=0).error is None and (
                position_after(deal, swapped) == position_after(deal, line[: i + 2])):
            break
    else:
        pytest.fail("no two actions of the line commute")
    analysis = analyze(deal, swapped, known_line=line)
    assert (analysis.source, analysis.nodes, analysis.hint) == ("known-line", 0, line[i + 2])
    assert_line_wins(deal, swapped, analysis)


def test_a_line_that_does_not_win_is_not_a_known_line(lines):
    deal, line = Deal.from_code(ONE_SUIT), lines[ONE_SUIT]
    assert hint_from_line(deal, line[:10], line[:-1]) is None  # stops short of the win
    assert hint_from_line(deal, line[:10], ["U", *line]) is None
    analysis = analyze(deal, line[:10], known_line=line[:-1], max_nodes=BUDGET, max_seconds=None)
    assert analysis.source == "search"
    assert_line_wins(deal, list(line[:10]), analysis)


#: Issue 31: the position where hints alternated 4>7 and 7>4 forever (each line won by itself).
CYCLE = ("SP1-S4C-NJ73FM7", "10>5 6>9 10>7 8>3 2>8 D 2>7 2>9 2>6 2>5 2>1 2>6 3>10 3>4 3>8 1>4 3>1 3>8 3>2/1 3>4 "
                            "2>3 8>6 8>3 8>1 8>2/1 10>3 9>4")


#: Nodes of each hint while following them: the default budget, without the seconds.
FOLLOW_NODES = 60_000_000


def path_positions(deal: Deal, log: list[str]) -> list[tuple]:
    """The positions of the log's effective history, the initial layout first (an independent replay)."""
    board = Board(deal, undo_limit=0)
    seen = [position_after(deal, [])]
    for _, action in effective_history(deal, log, False, None):
        board.push_notation(action)
        seen.append((tuple(tuple(c) for c in board.columns), tuple(board.down), board.dealt))
    return seen


def follow_hints(deal: Deal, log: list[str], most: int) -> tuple[list[str], Analysis]:
    """Play the hint of each position from the log's on, until there is none (or ``most`` were played)."""
    log = list(log)
    for _ in range(most):
        analysis = analyze(deal, log, max_nodes=FOLLOW_NODES, max_seconds=None, find_lost_at=False)
        if analysis.hint is None:
            return log, analysis
        log.append(analysis.hint)
    return log, analysis


def test_a_hint_line_never_passes_through_the_history():
    code, text = CYCLE
    deal, log = Deal.from_code(code), text.split()
    for _ in range(2):  # before 4>7 was a hint, and after it was played: 7>4 came back
        analysis = analyze(deal, log, max_nodes=FOLLOW_NODES, max_seconds=None, find_lost_at=False)
        assert_line_wins(deal, log, analysis)
        history = set(path_positions(deal, log)[:-1])
        assert not history & set(path_positions(deal, [*log, *analysis.line])[len(log) + 1:])
        log.append(analysis.hint)


@pytest.mark.slow
def test_following_hints_wins_and_never_repeats_a_position():
    code, text = CYCLE
    deal = Deal.from_code(code)
    log, analysis = follow_hints(deal, text.split(), 400)
    assert analysis.status is Status.VERIFIED and analysis.source == "won"
    positions = path_positions(deal, log)
    assert len(set(positions)) == len(positions)


def test_a_known_line_back_through_the_history_is_not_the_hint(lines):
    """Along the known line, a move played and then moved back: the rest of the line passes
    through the position the game has been in, so the hint comes from a search whose line
    does not (a position off the line), or, if the search finds none, from the known line."""
    deal, line = Deal.from_code(FOUR_SUITS), lines[FOUR_SUITS]
    board = Board(deal, undo_limit=0)
    for k, action in enumerate(line):
        before = position_after(deal, line[:k])
        played = board.push_notation(action)
        back = f"{played.dst}>{played.src}/{played.count}" if hasattr(played, "dst") else None
        if back is not None and replay(deal, [*line[: k + 1], back], undo_limit=0).error is None and (
                position_after(deal, [*line[: k + 1], back]) == before):
            break
    else:
        pytest.fail("no move of the line can be moved back")
    log = [*line[: k + 1], back]
    assert hint_from_line(deal, line[:k], line) == line[k]  # the same position, before the move was played
    assert hint_from_line(deal, log, line) is None
    analysis = analyze(deal, log, known_line=line, max_nodes=BUDGET, max_seconds=None, find_lost_at=False)
    assert_line_wins(deal, log, analysis)
    if analysis.source == "search":
        assert position_after(deal, line[: k + 1]) not in path_positions(deal, [*log, *analysis.line])[len(log) + 1:]
    else:
        assert (analysis.source, analysis.line) == ("known-line", tuple(line[k:]))
