"""Cards, suits, ranks and their text forms (RULES.md §2 Cards).

A card is a small immutable value: ``Card(rank, suit)`` with rank 1 (ace) to 13
(king) and suit 0..3 in the order spades, hearts, diamonds, clubs. Its short text
form is rank then suit letter (``TS``, ``AD``, ``KH``; ``10S`` is accepted on
input); its display form uses the suit symbol (``10♠``, ``A♦``). Only ASCII letters
are case-folded (RULES.md §1 Conventions).
"""

from __future__ import annotations

from typing import NamedTuple

from spider_solver.errors import InvalidCardError, quote

Suit = int
Rank = int

SPADES: Suit = 0
HEARTS: Suit = 1
DIAMONDS: Suit = 2
CLUBS: Suit = 3
SUITS: tuple[Suit, ...] = (SPADES, HEARTS, DIAMONDS, CLUBS)
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")

ACE: Rank = 1
KING: Rank = 13
RANKS: tuple[Rank, ...] = tuple(range(ACE, KING + 1))
RANK_CHARS = "A23456789TJQK"
RANK_DISPLAY = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def ascii_upper(text: str) -> str:
    """Upper-case ASCII letters only: ``str.upper`` would also turn ``'ı'`` into ``'I'``
    and ``'ſ'`` into ``'S'``, letting look-alike characters through our formats."""
    return text.translate(_ASCII_UPPER)


class Card(NamedTuple):
    """One card. Ordering is by rank, then suit."""

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a short text form: ``'TS'``, ``'10s'``, ``'ah'`` (case-insensitive).

        The display form with a suit symbol (``'10♠'``) is accepted too, so that
        what we print can be read back.
        """
        raw = quote(text)  # a bounded prefix of a long input
        if not isinstance(text, str):
            raise InvalidCardError(f"invalid card {raw}: expected text like TS or 10S")
        text = ascii_upper(text.strip())
        if len(text) < 2:
            raise InvalidCardError(f"invalid card {raw}: expected a rank (A 2-9 T J Q K) then a suit (S H D C)")
        rank_text, suit_text = text[:-1], text[-1]
        if suit_text in SUIT_LETTERS:
            suit = SUIT_LETTERS.index(suit_text)
        elif suit_text in SUIT_SYMBOLS:
            suit = SUIT_SYMBOLS.index(suit_text)
        else:
            raise InvalidCardError(f"invalid card {raw}: the suit must be one of S H D C")
        if rank_text == "10":
            rank = 10
        elif len(rank_text) == 1 and rank_text in RANK_CHARS:
            rank = RANK_CHARS.index(rank_text) + 1
        else:
            raise InvalidCardError(f"invalid card {raw}: the rank must be one of A 2 3 4 5 6 7 8 9 T (or 10) J Q K")
        return cls(rank, suit)

    def __str__(self) -> str:
        """The short text form, e.g. ``TS``."""
        return RANK_CHARS[self.rank - 1] + SUIT_LETTERS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def symbol(self) -> str:
        """The display form, e.g. ``10♠``."""
        return RANK_DISPLAY[self.rank - 1] + SUIT_SYMBOLS[self.suit]


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by spaces or commas."""
    return [Card.parse(token) for token in text.replace(",", " ").split()]


def format_cards(cards: list[Card] | tuple[Card, ...], *, symbols: bool = False) -> str:
    """Cards joined by single spaces, in short form (or display form)."""
    return " ".join(card.symbol() if symbols else str(card) for card in cards)
