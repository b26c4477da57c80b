"""Hints from a known winning line: no search when the position lies on it.

:class:`LineMap` is a winning line of the deal and the positions along it; the rest of
the line from a position on it is the answer, replayed after the log, unless it goes
back through a position of the game's history (then a search looks for a line that
does not, and the rest is the answer only if it finds none: docs/engine.md, "Hints").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from spider_solver.analysis.start import Key, Start, position_key
from spider_solver.errors import SpiderError
from spider_solver.rules import Board, Deal
from spider_solver.rules.notation import log_tokens


class LineMap:
    """A winning line of the deal and the positions along it."""

    def __init__(self, actions: list[str], where: dict[Key, int]) -> None:
        self.actions = actions
        #: Position key -> the last index on the line where it occurs (the shortest rest).
        self.where = where

    @classmethod
    def build(cls, deal: Deal, line: str | Sequence[str] | None, deal_on_empty: bool) -> LineMap | None:
        """The line's positions; None if there is no line, or if it does not win on this deal."""
        if line is None:
            return None
        tokens = log_tokens(line)
        board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=0)
        where = {position_key(board): 0}
        actions = []
        try:
            for index, token in enumerate(tokens):
                if board.is_won():
                    return None
                action = board.parse_action(token)
                actions.append(board.notation(action))
                board.push(action)
                where[position_key(board)] = index + 1
        except SpiderError:
            return None
        return cls(actions, where) if board.is_won() else None

    def passes(self, rest: Sequence[str], positions: Iterable[Key]) -> bool:
        """True if ``rest`` (a rest of the line, from ``rest_from``) passes through one of
        ``positions`` (keys)."""
        begin = len(self.actions) - len(rest)
        return any(self.where.get(key, -1) > begin for key in positions)

    def rest_from(self, board: Board) -> list[str] | None:
        """The rest of the line from the board's position, if the position lies on it."""
        index = self.where.get(position_key(board))
        if index is None or index >= len(self.actions):
            return None
        return self.actions[index:]


class KnownRest(NamedTuple):
    """The known line's rest from the position reached: ``clear`` if it never goes back
    through the game's history (it is the answer, no search), ``through_history`` if it
    does (a search looks for another line; this one is the answer if it finds none)."""

    clear: list[str] | None
    through_history: list[str] | None


def known_rest(known: LineMap | None, start: Start, history: set[Key]) -> KnownRest:
    """The rest of ``known`` from the position ``start`` reached, sorted by whether it goes
    back through ``history``; both None when the position is not on the line."""
    rest = None if known is None else known.rest_from(start.board)
    if rest is not None and known is not None and known.passes(rest, history):
        return KnownRest(None, rest)
    return KnownRest(rest, None)


__all__ = ["KnownRest", "LineMap", "known_rest"]
