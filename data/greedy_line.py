"""The line of play the ``data/make_*_vectors.py`` scripts take their positions from.

A fixed greedy policy that looks only at the legal moves: it turns cards up and empties
columns, builds in suit, deals last, never comes back to a position, and breaks ties by
SplitMix64 from the deal number. So a script's output is a function of the code alone.
No numpy, no numba: the rules tests load the scripts.
"""

from __future__ import annotations

from collections.abc import Iterator

from spider_solver.rules.board import Board
from spider_solver.rules.codes import splitmix64
from spider_solver.rules.notation import Action, Move


def policy_score(board: Board, action: Action) -> int:
    """How much the greedy line likes an action: turn cards up and empty columns, build in suit, deal last."""
    if not isinstance(action, Move):
        return 0
    assert action.count is not None
    src, dst = board.columns[action.src - 1], board.columns[action.dst - 1]
    if not dst and action.count == len(src):
        return -1  # a whole column onto an empty one changes nothing
    score = 1
    if action.count == len(src) or board.down[action.src - 1] == len(src) - action.count:
        score += 4  # empties the column or turns a card up
    if dst and dst[-1].suit == src[-action.count].suit:
        score += 2
    if not dst:
        score -= 1
    return score


def key(board: Board) -> tuple:
    """The cards of a position, without its score and counter: a line never comes back to one."""
    position = board.position()
    return position.columns, position.down, position.dealt


def greedy_line(board: Board, number: int, length: int) -> Iterator[tuple[list[str], Board]]:
    """Yield (canonical actions so far, board) along the greedy line from ``board``'s position,
    at most ``length`` actions; ``number`` (the deal's) seeds the tie-breaks. The board is
    played on: each yield shows it after the actions listed."""
    rng = splitmix64(number)
    seen = {key(board)}
    actions: list[str] = []
    yield actions, board
    for _ in range(length):
        if board.is_won():
            return
        options = []
        for action in board.legal_moves():
            score = policy_score(board, action)
            if score < 0:
                continue
            board.push(action)
            fresh = key(board) not in seen
            board.pop()
            if fresh:
                options.append((score, action))
        if not options:
            return
        best = max(score for score, _ in options)
        choices = [action for score, action in options if score == best]
        action = choices[next(rng) % len(choices)]
        actions.append(board.play(action))
        seen.add(key(board))
        yield actions, board
