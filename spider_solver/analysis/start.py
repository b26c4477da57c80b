"""The start of an analysis: the log replayed once, its effective history, and the
positions of the game's history that a line from the position reached could pass through.

Nothing here searches. A position is compared by :func:`position_key` (the cards,
which are face down, the deals made), so that a transposed order or a detour that
came back reaches the same position.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from spider_solver.rules import Board, Deal
from spider_solver.rules.notation import log_tokens
from spider_solver.rules.replay import ReplayResult, replay_board

#: The token that means "undo" in a replayed log (canonical notation).
UNDO = "U"
#: A position's key (:func:`position_key`).
Key = tuple


def position_key(board: Board) -> Key:
    """What decides the rest of a game: the cards, which are face down, the deals made.

    Runs removed follow from the cards; the score and the move counter do not change
    what can still be won, so a position reached by a detour that came back, or by a
    transposed order, is the same position.
    """
    return tuple(tuple(column) for column in board.columns), tuple(board.down), board.dealt


def effective_history(played: Sequence[str]) -> list[tuple[int, str]]:
    """The actions in effect after the undos: (index in the log, canonical action), in order."""
    stack: list[tuple[int, str]] = []
    for index, action in enumerate(played):
        if action == UNDO:
            stack.pop()
        else:
            stack.append((index, action))
    return stack


def board_after(deal: Deal, deal_on_empty: bool, moves: Sequence[str]) -> Board:
    """The position after ``moves`` (canonical actions, no undo) from the initial layout."""
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=0)
    for action in moves:
        board.push_notation(action)
    return board


@dataclass(frozen=True)
class Start:
    """A game log replayed on a deal: the tokens as written, the replay, the position
    reached (``board``), the actions in effect, and the key and runs removed of the
    position after each action of the log (``after``)."""

    deal: Deal
    deal_on_empty: bool
    tokens: list[str]
    replayed: ReplayResult
    board: Board
    effective: list[tuple[int, str]]
    after: list[tuple[Key, int]]

    @property
    def moves(self) -> list[str]:
        """The actions in effect, in canonical notation."""
        return [action for _, action in self.effective]

    def history(self) -> set[Key]:
        """The positions (keys) of the effective history that a line from ``board`` could pass through.

        Cards only ever turn face up, and deals and removed runs are never taken back: a
        position reachable from ``board`` has its face-down cards, deals made and runs
        removed, so of the history only the positions since the last card turned up, deal
        or run removed qualify. ``board``'s own position is left out (it is where a line starts).
        """
        here = position_key(self.board)
        phase = (here[1], here[2], self.board.runs_removed)
        path = [self.after[index] for index, _ in self.effective]
        if not path or (path[0][0][1], path[0][0][2], path[0][1]) == phase:  # the initial layout may qualify
            first = Board(self.deal, deal_on_empty=self.deal_on_empty, undo_limit=0)
            path.insert(0, (position_key(first), 0))
        return {key for key, removed in path if (key[1], key[2], removed) == phase and key != here}


def replay_log(deal: Deal, actions: str | Iterable[str], deal_on_empty: bool, undo_limit: int | None) -> Start:
    """Replay ``actions`` on ``deal`` once (RULES.md §12 Replay), keeping what the analysis needs of each position."""
    tokens = log_tokens(actions)
    after: list[tuple[Key, int]] = []  # the key and the runs removed after each action
    replayed, board = replay_board(deal, tokens, deal_on_empty=deal_on_empty, undo_limit=undo_limit,
                                   after=lambda b: after.append((position_key(b), b.runs_removed)))
    return Start(deal, deal_on_empty, tokens, replayed, board, effective_history(replayed.played), after)


__all__ = ["UNDO", "Key", "Start", "board_after", "effective_history", "position_key", "replay_log"]
