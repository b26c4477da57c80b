"""Actions and their notation: ``D``, ``F>T``, ``F>T/N``, ``U`` (RULES.md §11 Action notation).

Columns are numbered from 1 in the notation and in these objects (RULES.md
§1 Conventions). Parsing checks
only the form; whether the position allows an action is the board's business
(:meth:`spider_solver.rules.board.Board.check`). A ``Move`` with ``count=None``
means "the group the rules pick"; :meth:`Board.resolve` fills the count in.

Numbers are ASCII digits. Leading zeros are allowed and ignored (``01>2`` is
``1>2``); after them a number has at most :data:`MAX_DIGITS` (3) digits. 999 is
more than any column number (at most 10) or group size (a game has at most 104
cards), so a longer number is out of range: it is refused like any column that
does not exist or any group too large, without ever being converted to an int,
and the message quotes a bounded prefix of the token
(:func:`spider_solver.errors.quote`). Group sizes from 1 to 104 parse, and a
larger one is refused with the same message whatever its number of digits
(RULES.md §11 Action notation); the board refuses a group larger than its column.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass
from functools import lru_cache

from spider_solver.errors import QUOTE_LIMIT, InvalidActionError, quote, whole_number
from spider_solver.rules.cards import ascii_upper
from spider_solver.rules.variant import MAX_CARDS, MAX_COLUMNS


@dataclass(frozen=True)
class Move:
    """Move a group from column ``src`` to column ``dst`` (1-based)."""

    src: int
    dst: int
    #: Group size; ``None`` lets the board choose (the fitting group, or the largest).
    count: int | None = None

    def __post_init__(self) -> None:
        # True == 1 and 2.0 == 2: taken as they were, they printed as 'True>8' and '2.0>8'.
        # (Moves are made on every replayed action: plain ints pass at the cost of a test.)
        if type(self.src) is not int or type(self.dst) is not int or (type(self.count) is not int
                                                                       and self.count is not None):
            for name in ("src", "dst", "count"):
                value = getattr(self, name)
                if value is None and name == "count":
                    continue
                if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                    raise InvalidActionError(f"invalid move: {name} is {quote(value)}, expected a whole number")
                object.__setattr__(self, name, int(value))

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


Action = Move | DealRow | Undo

_MOVE = re.compile(r"([0-9]+)>([0-9]+)(?:/([0-9]+))?")
_SEPARATORS = re.compile(r"[\s,]+")
#: Digits a number in an action may have after its leading zeros; more is out of range.
MAX_DIGITS = 3


def _number(digits: str) -> tuple[int | None, str]:
    """(value, digits as shown) of an ASCII digit string; value None when out of range."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > MAX_DIGITS:
        shown = significant if len(significant) <= QUOTE_LIMIT else significant[:QUOTE_LIMIT] + "..."
        return None, shown
    return int(significant), significant


def parse_action(text: str, *, columns: int = 10) -> Action:
    """Read one action token. Columns must be 1..``columns``; a group size 1 to 104."""
    if not isinstance(text, str):
        raise TypeError(f"an action is text in notation (D, U, F>T or F>T/N), not {type(text).__name__}")
    count = whole_number(columns)
    if count is None or not 1 <= count <= MAX_COLUMNS:
        raise ValueError(f"invalid columns {quote(columns)}: a game has 1 to {MAX_COLUMNS} columns")
    return _parse_action(text, count)


@lru_cache(maxsize=4096)
def _parse_action(text: str, columns: int) -> Action:
    """:func:`parse_action`, remembered: a log repeats a few hundred tokens (a token that
    does not parse raises, and is not remembered). Actions are immutable."""
    token = ascii_upper(text.strip())
    if token == "D":
        return DealRow()
    if token == "U":
        return Undo()
    match = _MOVE.fullmatch(token)
    if not match:
        raise InvalidActionError(
            f"invalid action {quote(text)}: expected D, U, F>T or F>T/N (for example 3>7 or 2>5/3)"
        )
    (src, src_shown), (dst, dst_shown) = _number(match[1]), _number(match[2])
    for which, column, column_shown in (("source", src, src_shown), ("target", dst, dst_shown)):
        if column is None or not 1 <= column <= columns:
            raise InvalidActionError(
                f"invalid action {quote(text)}: {which} column {column_shown} does not exist "
                f"(columns are 1 to {columns})"
            )
    count = None
    if match[3] is not None:
        count, count_shown = _number(match[3])
        if count is None or count > MAX_CARDS:
            raise InvalidActionError(
                f"invalid action {quote(text)}: a group of {count_shown} cards is out of range (a game has at most "
                f"{MAX_CARDS} cards)"
            )
        if count < 1:
            raise InvalidActionError(f"invalid action {quote(text)}: a group holds at least 1 card")
    assert src is not None and dst is not None  # out-of-range columns were refused above
    if src == dst:
        raise InvalidActionError(f"invalid action {quote(text)}: source and target are the same column")
    return Move(src, dst, count)


def split_actions(text: str) -> list[str]:
    """Split a game log or solution into tokens (spaces, commas, new lines)."""
    if not isinstance(text, str):
        raise TypeError(f"a game log is text in notation (D, U, F>T or F>T/N), not {type(text).__name__}")
    return [token for token in _SEPARATORS.split(text) if token]


def log_tokens(actions: str | Iterable[str]) -> list[str]:
    """A game log's tokens: a text split, or each text of a list (or any ordered
    iterable) split. A set or a mapping has no order to replay, and is refused."""
    if isinstance(actions, str):
        return split_actions(actions)
    if isinstance(actions, Set | Mapping | bytes | bytearray) or not isinstance(actions, Iterable):
        raise TypeError(f"a game log is text or a list of texts in notation, not {type(actions).__name__}")
    items = list(actions)
    if all(type(item) is str for item in items):  # one split of the joined text: the same tokens, faster
        return split_actions(" ".join(items))
    return [token for item in items for token in split_actions(item)]


def parse_actions(text: str | Iterable[str], *, columns: int = 10) -> list[Action]:
    return [parse_action(token, columns=columns) for token in log_tokens(text)]
