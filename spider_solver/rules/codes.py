"""Game codes ``SP1-S<k><r>-<deal>`` and the shuffle behind them.

The code names the suit count, the rule and a deal number 0 <= n < 2**35 written as
7 characters of the RFC 4648 base32 alphabet, most significant first (RULES.md
§9 Game code). The deal number seeds SplitMix64, which drives a Fisher-Yates
shuffle of the unshuffled deck (RULES.md §9.1 From deal number to cards).
Frontends in other languages must reproduce this byte for byte;
``data/deal_vectors.json`` pins it (RULES.md §9.2 Check values and test vectors).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from spider_solver.errors import InvalidCodeError, quote
from spider_solver.rules.cards import Card, ascii_upper
from spider_solver.rules.variant import CLASSIC, RELAXED, Rule, Variant

BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
DEAL_CHARS = 7
MAX_DEAL = 2**35 - 1
CODE_PREFIX = "SP1"
MASK64 = (1 << 64) - 1


def splitmix64(state: int) -> Iterator[int]:
    """SplitMix64 outputs from ``state`` (64-bit unsigned arithmetic)."""
    state &= MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def shuffle_deck(number: int, variant: Variant) -> list[Card]:
    """The deck of deal ``number``: Fisher-Yates from the end, driven by SplitMix64."""
    cards = variant.unshuffled()
    rng = splitmix64(number)
    for i in range(len(cards) - 1, 0, -1):
        j = next(rng) % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def encode_deal(number: int) -> str:
    if not 0 <= number <= MAX_DEAL:
        raise InvalidCodeError(f"invalid deal number {quote(number)}: expected 0 to {MAX_DEAL}")
    return "".join(BASE32_ALPHABET[(number >> (5 * (DEAL_CHARS - 1 - i))) & 31] for i in range(DEAL_CHARS))


def decode_deal(text: str) -> int:
    if len(text) != DEAL_CHARS:
        raise InvalidCodeError(f"invalid deal {quote(text)}: expected {DEAL_CHARS} base32 characters, got {len(text)}")
    number = 0
    for char in text:
        if char not in BASE32_ALPHABET:
            raise InvalidCodeError(f"invalid deal {quote(text)}: {char!r} is not a base32 character (A-Z, 2-7)")
        number = number * 32 + BASE32_ALPHABET.index(char)
    return number


@dataclass(frozen=True, order=True)
class GameCode:
    """A parsed game code. ``str()`` gives the canonical upper-case form."""

    suits: int
    rule: Rule
    number: int

    def __post_init__(self) -> None:
        # Validation lives in Variant and encode_deal; canonicalise S1R to S1C.
        variant = Variant(suits=self.suits, rule=self.rule)
        object.__setattr__(self, "suits", variant.suits)
        object.__setattr__(self, "rule", variant.rule)
        if isinstance(self.number, bool) or not isinstance(self.number, numbers.Integral):
            raise InvalidCodeError(f"invalid deal number {quote(self.number)}: expected a whole number")
        object.__setattr__(self, "number", int(self.number))
        encode_deal(self.number)

    @classmethod
    def parse(cls, text: str) -> GameCode:
        """Read a code such as ``'sp1-s4c-aaaaaad '``; the error names the wrong part."""
        if not isinstance(text, str):
            raise InvalidCodeError(f"invalid game code {quote(text)}: expected text like SP1-S4C-AAAAAAD")
        return _parse_code(text) if cls is GameCode else cls._parse(text)

    @classmethod
    def _parse(cls, text: str) -> GameCode:
        raw = quote(text)  # a bounded prefix of a long input
        parts = ascii_upper(text.strip()).split("-")
        if len(parts) != 3:
            raise InvalidCodeError(f"invalid game code {raw}: expected three parts like SP1-S4C-AAAAAAD")
        prefix, variant, deal = parts
        if prefix != CODE_PREFIX:
            raise InvalidCodeError(f"invalid game code {raw}: unknown format {quote(prefix)}, expected {CODE_PREFIX!r}")
        if len(variant) != 3 or variant[0] != "S":
            raise InvalidCodeError(
                f"invalid game code {raw}: the variant {quote(variant)} must be S, a suit count and a rule letter, "
                "like S4C"
            )
        if variant[1] not in "124":
            raise InvalidCodeError(
                f"invalid game code {raw}: suit count {variant[1]!r} in {variant!r} must be 1, 2 or 4"
            )
        if variant[2] not in "CR":
            raise InvalidCodeError(
                f"invalid game code {raw}: rule letter {variant[2]!r} in {variant!r} must be C (Classic) or R (Relaxed)"
            )
        try:
            number = decode_deal(deal)
        except InvalidCodeError as error:
            raise InvalidCodeError(f"invalid game code {raw}: {error}") from None
        return cls(int(variant[1]), CLASSIC if variant[2] == "C" else RELAXED, number)

    @property
    def variant(self) -> Variant:
        return Variant(suits=self.suits, rule=self.rule)

    def cards(self) -> list[Card]:
        """The 104 cards in deck order."""
        return list(self.deck())

    def deck(self) -> tuple[Card, ...]:
        """The cards in deck order, as a tuple; the shuffle of a code is done once
        (:func:`_deck`), since a deal and its checks ask for it more than once."""
        return _deck(self.number, self.variant)

    def __str__(self) -> str:
        return f"{CODE_PREFIX}-S{self.suits}{self.rule[0].upper()}-{encode_deal(self.number)}"

    def __repr__(self) -> str:
        return f"GameCode.parse({str(self)!r})"


@lru_cache(maxsize=1024)
def _parse_code(text: str) -> GameCode:
    """:meth:`GameCode.parse` of a text, remembered: a service reads the same few codes
    on every request of a game (a code that does not parse raises, and is not
    remembered). Codes are immutable."""
    return GameCode._parse(text)


@lru_cache(maxsize=256)
def _deck(number: int, variant: Variant) -> tuple[Card, ...]:
    return tuple(shuffle_deck(number, variant))


def canonical_code(text: str) -> str:
    """Parse and print a game code in its canonical form."""
    return str(GameCode.parse(text))
