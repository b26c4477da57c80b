"""What the analysis tests share: independent replays, random logs, checks of a line and of a bracket, the real deals."""

from __future__ import annotations

import random

from spider_solver.analysis import (
    Analysis,
)
from spider_solver.outcomes import Reason, Status
from spider_solver.rules import Board, Deal, Undo, parse_action, replay

#: Far more than any tiny position needs.
TINY_BUDGET = 5_000_000


def effective_history(deal: Deal, log: list[str], deal_on_empty: bool, undo_limit: int | None) -> list[tuple[int, str]]:
    """The actions in effect after the undos, (index in the log, action), replayed independently."""
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=undo_limit)
    stack: list[tuple[int, str]] = []
    for index, token in enumerate(log):
        action = board.parse_action(token)
        if isinstance(action, Undo):
            board.push(action)
            stack.pop()
        else:
            stack.append((index, board.notation(action)))
            board.push(action)
    return stack


def random_log(deal: Deal, rng: random.Random, length: int, deal_on_empty: bool, undo_limit: int | None) -> list[str]:
    """Random legal actions, an undo now and then (when it is allowed), stopping at a win."""
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=undo_limit)
    log: list[str] = []
    for _ in range(length):
        if board.is_won():
            break
        actions = board.legal_moves()
        if board.is_legal(Undo()) and (not actions or rng.random() < 0.2):
            board.push(Undo())
            log.append("U")
            continue
        if not actions:
            break
        action = rng.choice(actions)
        log.append(board.notation(action))
        board.push(action)
    return log


def assert_line_wins(deal: Deal, log: list[str], analysis: Analysis, **options) -> None:
    """The hint is legal after the log, and the log then the line win on the rules engine."""
    assert analysis.status is Status.VERIFIED and analysis.reason is Reason.WON
    assert analysis.line and analysis.hint == analysis.line[0] and "U" not in analysis.line
    board = Board(deal, **options)
    for token in log:
        board.push_notation(token)
    assert board.is_legal(parse_action(analysis.hint, columns=deal.variant.columns))
    replayed = replay(deal, [*log, *analysis.line], **options)
    assert replayed.won and replayed.error is None
    assert replayed.played[len(log):] == analysis.line  # the line is written canonically


#: name: (variant size, logs). Sizes of tests/engine/test_tiny.py where a fair share of
#: positions are lost, so that lost_at is often there to find.
SIZES = {
    "1s-3r-3c": ({"suits": 1, "ranks": 3, "runs": 2, "columns": 3, "layout": 3}, 12),
    "2s-3r-3c": ({"suits": 2, "ranks": 3, "runs": 4, "columns": 3, "layout": 3}, 16),
    "2s-4r-3c-deep": ({"suits": 2, "ranks": 4, "runs": 4, "columns": 3, "layout": 7}, 16),
    "4s-3r-3c-deep": ({"suits": 4, "ranks": 3, "runs": 4, "columns": 3, "layout": 6}, 16),
}


def assert_bracket(deal, analysis, effective, winnable, deal_on_empty):
    """The bracket of an unwinnable position: its ends are what the brute force says, its line
    wins, its log indices name the actions that reached them, and a width of 1 is lost_at."""
    bracket = analysis.bracket
    if not effective:
        assert bracket is None
        return
    moves = [action for _, action in effective]
    assert bracket is not None and not winnable[bracket.unwinnable]
    assert bracket.unwinnable_after == (effective[bracket.unwinnable - 1][0] if bracket.unwinnable else None)
    if bracket.winnable is None:
        assert bracket.line == () and bracket.width is None and bracket.winnable_after is None
        return
    assert winnable[bracket.winnable] and bracket.width == bracket.unwinnable - bracket.winnable > 0
    assert bracket.winnable_after == (effective[bracket.winnable - 1][0] if bracket.winnable else None)
    won = replay(deal, [*moves[:bracket.winnable], *bracket.line], deal_on_empty=deal_on_empty, undo_limit=0)
    assert won.won and won.error is None
    assert (bracket.width == 1) == (analysis.lost_at is not None)
    if analysis.lost_at is not None:
        assert (analysis.lost_at, analysis.lost_at_line) == (bracket.unwinnable_after, bracket.line)


ONE_SUIT = "SP1-S1C-AAAAABA"


FOUR_SUITS = "SP1-S4C-AAAAAAD"


BUDGET = 5_000_000


def position_after(deal: Deal, actions) -> tuple:
    board = Board(deal, undo_limit=0)
    for action in actions:
        board.push_notation(action)
    return tuple(tuple(column) for column in board.columns), tuple(board.down), board.dealt


def count_plays(monkeypatch) -> list[int]:
    """Count the actions the rules engine plays (Board.play), from now on."""
    played = [0]
    play = Board.play

    def counting(self, action):
        played[0] += 1
        return play(self, action)

    monkeypatch.setattr(Board, "play", counting)
    return played


def stuck_log(deal: Deal, seed: int) -> list[str]:
    """Random legal play until no legal action is left (never back to a position seen)."""
    rng = random.Random(seed)
    board = Board(deal, undo_limit=None)
    seen = {position_after(deal, [])}
    log: list[str] = []
    while not board.is_won():
        actions = board.legal_moves()
        rng.shuffle(actions)
        for action in actions:
            text = board.notation(action)
            board.push(action)
            key = (tuple(tuple(c) for c in board.columns), tuple(board.down), board.dealt)
            if key not in seen:
                seen.add(key)
                log.append(text)
                break
            board.pop()
        else:
            return log
    return log
