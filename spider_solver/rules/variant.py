"""The variant: suit count, rule, and the size of the game (RULES.md §3 Variants).

The real game is ``Variant(suits=k, rule=...)``: 8 runs of 13 ranks (104 cards),
10 columns, 54 cards in the layout, 5 deals of 10. The suit count sets the
composition (RULES.md §3.1 Suit counts), the rule which groups may move (RULES.md
§3.2 Classic and Relaxed). Tests shrink the game (``ranks=3, columns=4, ...``) so
that tiny deals can be searched exhaustively (RULES.md §3.3 Shrunken test variants);
every rule is written once, in terms of these numbers.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Literal

from spider_solver.errors import InvalidVariantError, plural, quote, whole_number
from spider_solver.rules.cards import SUITS, Card

Rule = Literal["classic", "relaxed"]
CLASSIC: Rule = "classic"
RELAXED: Rule = "relaxed"
RULES: tuple[Rule, ...] = (CLASSIC, RELAXED)
SUIT_COUNTS = (1, 2, 4)
#: The real game's deck; shrunken variants hold fewer cards, never more.
MAX_CARDS = 104
#: The real game's columns; shrunken variants have fewer, never more.
MAX_COLUMNS = 10
#: The app's names for the suit counts.
SUIT_COUNT_NAMES = {1: "Easy", 2: "Medium", 4: "Hard"}


def parse_rule(text: str) -> Rule:
    """``'classic'``, ``'Relaxed'``, ``'C'``, ``'r'`` -> the rule name."""
    value = text.strip().lower() if isinstance(text, str) else None
    for rule in RULES:
        if value in (rule, rule[0]):
            return rule
    raise InvalidVariantError(f"unknown rule {quote(text)}: expected classic (C) or relaxed (R)")


def parse_suits(value: int | str) -> int:
    """``4``, ``'2'``, ``' 1 '`` -> the suit count; anything else is refused (``4.5``, ``True``, ``'3'``)."""
    if isinstance(value, str):
        text = value.strip()
    elif (number := whole_number(value)) is not None:  # not a bool, not a float
        text = str(number) if number in SUIT_COUNTS else ""  # never str() a huge int
    else:
        text = ""
    if text not in ("1", "2", "4"):
        raise InvalidVariantError(f"unknown suit count {quote(value)}: expected 1, 2 or 4")
    return int(text)


@dataclass(frozen=True)
class Variant:
    """What is being played. The defaults are the real game with 4 suits."""

    suits: int = 4
    rule: Rule = CLASSIC
    #: Highest rank: a run goes from ``ranks`` down to 1 (13: king to ace).
    ranks: int = 13
    #: Number of runs to remove to win; the deck holds ``runs * ranks`` cards.
    runs: int = 8
    columns: int = 10
    #: Cards dealt into the columns at the start; the rest is the stock.
    layout: int = 54

    def __post_init__(self) -> None:
        for name in ("suits", "ranks", "runs", "columns", "layout"):
            value = getattr(self, name)
            # 4.0 == 4 and True == 1 in Python: taken as they are, they print as "4.0" and "True".
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise InvalidVariantError(f"invalid {name} {quote(value)}: expected a whole number")
            object.__setattr__(self, name, int(value))
        if self.suits not in SUIT_COUNTS:
            raise InvalidVariantError(f"unknown suit count {quote(self.suits)}: expected 1, 2 or 4")
        if self.rule not in RULES:
            raise InvalidVariantError(f"unknown rule {quote(self.rule)}: expected 'classic' or 'relaxed'")
        if self.suits == 1 and self.rule == RELAXED:
            # With one suit the two rules play identically; keep one spelling.
            object.__setattr__(self, "rule", CLASSIC)
        if not 2 <= self.ranks <= 13:
            # With one rank every face-up card would be a finished run before any action.
            raise InvalidVariantError(f"invalid ranks {quote(self.ranks)}: expected 2 to 13")
        if self.runs < 1 or self.runs % self.suits:
            raise InvalidVariantError(
                f"invalid runs {quote(self.runs)}: expected a positive multiple of the suit count"
            )
        if not 1 <= self.columns <= MAX_COLUMNS:
            raise InvalidVariantError(f"invalid columns {quote(self.columns)}: expected 1 to {MAX_COLUMNS}")
        if self.cards > MAX_CARDS:
            raise InvalidVariantError(
                f"invalid size: {quote(self.runs)} runs of {self.ranks} ranks make {quote(self.cards)} cards; "
                f"the game has at most {MAX_CARDS}"
            )
        if self.cards < self.columns:
            raise InvalidVariantError(
                f"invalid size: {quote(self.runs)} runs of {self.ranks} ranks make {quote(self.cards)} cards, "
                f"fewer than the {self.columns} columns"
            )
        if not self.columns <= self.layout <= self.cards:
            raise InvalidVariantError(
                f"invalid layout {quote(self.layout)}: expected {self.columns} to {self.cards} cards"
            )
        if (self.cards - self.layout) % self.columns:
            raise InvalidVariantError(
                f"invalid layout {quote(self.layout)}: the {self.cards - self.layout} stock cards do not make "
                f"whole deals of {self.columns}"
            )

    @property
    def cards(self) -> int:
        """Cards in the deck: 104 in the real game."""
        return self.runs * self.ranks

    @property
    def deals(self) -> int:
        """Deals the stock allows: 5 in the real game."""
        return (self.cards - self.layout) // self.columns

    @property
    def is_standard(self) -> bool:
        """True for the real game (the only one that has game codes)."""
        return (self.ranks, self.runs, self.columns, self.layout) == (13, 8, 10, 54)

    def suits_in_play(self) -> tuple[int, ...]:
        return SUITS[: self.suits]

    def unshuffled(self) -> list[Card]:
        """The deck before shuffling: ``runs / suits`` times, each suit in order, ranks A up."""
        return [
            Card(rank, suit)
            for _ in range(self.runs // self.suits)
            for suit in self.suits_in_play()
            for rank in range(1, self.ranks + 1)
        ]

    def __str__(self) -> str:
        text = f"{plural(self.suits, 'suit')}, {self.rule}"
        if not self.is_standard:
            text += f", {self.ranks} ranks, {self.runs} runs, {self.columns} columns, layout {self.layout}"
        return text
