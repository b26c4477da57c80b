"""Actions and their notation: ``D``, ``F>T``, ``F>T/N``, ``U`` (RULES.md §11 Action notation).

Columns are numbered from 1 in the notation and in these objects (RULES.md
§1 Conventions). Parsing checks
only the form; whether the position allows an action is the board's business
(:meth:`spider_solver.rules.board.Board.check`). A ``Move`` with ``count=None``
means "the group the rules pick"; :meth:`Board.resolve` fills the count in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Union

from spider_solver.errors import InvalidActionError
from spider_solver.rules.cards import ascii_upper


@dataclass(frozen=True)
class Move:
    """Move a group from column ``src`` to column ``dst`` (1-based)."""

    src: int
    dst: int
    #: Group size; ``None`` lets the board choose (the fitting group, or the largest).
    count: int | None = None

    def __str__(self) -> str:
        return f"{self.src}>{self.dst}" + (f"/{self.count}" if self.count is not None else "")

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True)
class DealRow:
    """Deal one card from the stock onto every column."""

    def __str__(self) -> str:
        return "D"

    def __repr__(self) -> str:
        return "parse_action('D')"


@dataclass(frozen=True)
class Undo:
    """Take back the last action (game logs only)."""

    def __str__(self) -> str:
        return "U"

    def __repr__(self) -> str:
        return "parse_action('U')"


Action = Union[Move, DealRow, Undo]

_MOVE = re.compile(r"([0-9]+)>([0-9]+)(?:/([0-9]+))?")
_SEPARATORS = re.compile(r"[\s,]+")


def parse_action(text: str, *, columns: int = 10) -> Action:
    """Read one action token. Columns must be 1..``columns``; a group size at least 1."""
    token = ascii_upper(text.strip())
    if token == "D":
        return DealRow()
    if token == "U":
        return Undo()
    match = _MOVE.fullmatch(token)
    if not match:
        raise InvalidActionError(f"invalid action {text!r}: expected D, U, F>T or F>T/N (for example 3>7 or 2>5/3)")
    src, dst = int(match[1]), int(match[2])
    for which, column in (("source", src), ("target", dst)):
        if not 1 <= column <= columns:
            raise InvalidActionError(f"invalid action {text!r}: {which} column {column} does not exist (columns are 1 to {columns})")
    count = None
    if match[3] is not None:
        count = int(match[3])
        if count < 1:
            raise InvalidActionError(f"invalid action {text!r}: a group holds at least 1 card")
    if src == dst:
        raise InvalidActionError(f"invalid action {text!r}: source and target are the same column")
    return Move(src, dst, count)


def split_actions(text: str) -> list[str]:
    """Split a game log or solution into tokens (spaces, commas, new lines)."""
    return [token for token in _SEPARATORS.split(text) if token]


def parse_actions(text: str | Iterable[str], *, columns: int = 10) -> list[Action]:
    tokens = split_actions(text) if isinstance(text, str) else [t for item in text for t in split_actions(item)]
    return [parse_action(token, columns=columns) for token in tokens]
