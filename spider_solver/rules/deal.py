"""A deal: the cards in deck order and the variant they are played under.

A deal comes from a game code (the shuffle of RULES.md §9.1 From deal number to
cards) or is given explicitly as its cards in deck order, which must hold exactly
the composition of the suit count (RULES.md §10 Explicit deals). The first
``variant.layout`` cards go into the columns in rows; the rest is the stock, dealt
``variant.columns`` cards at a time (RULES.md §4 Layout and stock).

An explicit deal's text of more than :data:`MAX_DECK_TOKENS` tokens (twice the
largest deck) is refused by its count alone, before any card is read, so that
a huge text costs no more than splitting it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from spider_solver.errors import InvalidCardError, InvalidDealError, plural, quote, whole_number
from spider_solver.rules.cards import Card, format_cards, parse_cards
from spider_solver.rules.codes import GameCode
from spider_solver.rules.variant import CLASSIC, MAX_CARDS, Rule, Variant, parse_rule, parse_suits

#: An explicit deal's text with more tokens than this is refused without reading its cards.
MAX_DECK_TOKENS = 2 * MAX_CARDS


@dataclass(frozen=True)
class Deal:
    cards: tuple[Card, ...]
    variant: Variant
    #: The game code the cards came from, if any.
    code: GameCode | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            raise TypeError(f"a deal's variant is a Variant, not {type(self.variant).__name__}")
        object.__setattr__(self, "cards", tuple(self.cards))
        check_composition(self.cards, self.variant)
        if self.code is not None:
            # A code says which cards and which variant: a deal that differs (made by
            # hand, or by dataclasses.replace) would carry a code that replays another game.
            if not isinstance(self.code, GameCode):
                raise TypeError(f"a deal's code is a GameCode or None, not {type(self.code).__name__}")
            if self.code.variant != self.variant or self.cards != self.code.deck():
                raise InvalidDealError(f"these cards and variant are not those of the game code {self.code}: "
                                       "a deal of its own has code=None")

    @classmethod
    def from_code(cls, code: GameCode | str) -> Deal:
        if isinstance(code, str):
            code = GameCode.parse(code)
        elif not isinstance(code, GameCode):
            raise TypeError(f"expected a game code (a GameCode or a str), not {type(code).__name__}")
        return _deal_of_code(code) if cls is Deal else cls(code.deck(), code.variant, code)

    @classmethod
    def of(cls, deal: Deal | GameCode | str) -> Deal:
        """``deal`` itself, or the deal of a game code (a :class:`GameCode` or its text):
        what every function that takes a deal accepts."""
        if isinstance(deal, Deal):
            return deal
        if isinstance(deal, GameCode | str):
            return cls.from_code(deal)
        raise TypeError(f"expected a Deal, a GameCode or a game code string, not {type(deal).__name__}")

    @classmethod
    def from_text(cls, text: str, suits: int | str = 4, rule: Rule | str = CLASSIC) -> Deal:
        """An explicit deal: cards in deck order separated by spaces or commas."""
        variant = Variant(suits=parse_suits(suits), rule=parse_rule(rule))
        if not isinstance(text, str):
            raise InvalidDealError(f"invalid deal {quote(text)}: expected the cards as text, like \"8S QC 4H ...\"")
        tokens = text.replace(",", " ").split()
        if len(tokens) > MAX_DECK_TOKENS:
            raise InvalidDealError(
                f"invalid deal for {variant} ({len(tokens)} cards, expected {variant.cards}): far too many to be a deck"
            )
        try:
            cards = [Card.parse(token) for token in tokens]
        except InvalidCardError as error:
            raise InvalidDealError(f"invalid deal: {error}") from None
        return cls(tuple(cards), variant)

    @classmethod
    def from_columns(
        cls,
        columns: Sequence[Sequence[Card] | str],
        stock: Sequence[Sequence[Card] | str] | str = (),
        variant: Variant | None = None,
    ) -> Deal:
        """A hand-made deal, given as the layout you want to see.

        ``columns[c]`` lists column c + 1 from its deepest card to its last one;
        ``stock[d]`` lists the cards deal d puts on columns 1, 2, ... A column or a
        row may also be text (``"KS QS"``), and so may the whole stock, which is then
        cut into rows of ``variant.columns`` cards. ``columns`` is what :meth:`columns` gives;
        ``stock`` is what :meth:`stock` gives (one flat list) cut into rows of
        ``variant.columns`` cards, one per deal. The sizes must be those of the
        variant's layout.
        """
        variant = Variant() if variant is None else variant
        if not isinstance(variant, Variant):
            raise TypeError(f"variant must be a Variant, not {type(variant).__name__}")
        if isinstance(stock, str):  # the whole stock as one text: cut it into rows
            flat = parse_cards(stock)
            stock = [flat[i : i + variant.columns] for i in range(0, len(flat), variant.columns)]
        piles: list[list[Card]] = [parse_cards(c) if isinstance(c, str) else list(c) for c in columns]
        rows: list[list[Card]] = [parse_cards(r) if isinstance(r, str) else list(r) for r in stock]
        n = variant.columns
        sizes = [len(range(c, variant.layout, n)) for c in range(n)]
        if [len(pile) for pile in piles] != sizes:
            raise InvalidDealError(
                f"invalid layout: columns of {[len(pile) for pile in piles]} cards, expected {sizes} for {variant}"
            )
        if len(rows) != variant.deals or any(len(row) != n for row in rows):
            raise InvalidDealError(
                f"invalid stock: rows of {[len(row) for row in rows]} cards, expected {plural(variant.deals, 'row')} "
                f"(one per deal) of {n} cards for {variant}"
            )
        layout = [piles[t % n][t // n] for t in range(variant.layout)]
        return cls(tuple(layout + [card for row in rows for card in row]), variant)

    @property
    def name(self) -> str:
        """The game code, or a short description for an explicit deal."""
        return str(self.code) if self.code else "explicit deal"

    def columns(self) -> list[list[Card]]:
        """The initial columns: card t goes on column t mod columns."""
        columns: list[list[Card]] = [[] for _ in range(self.variant.columns)]
        for t, card in enumerate(self.cards[: self.variant.layout]):
            columns[t % self.variant.columns].append(card)
        return columns

    def stock(self) -> list[Card]:
        """The stock in deck order: deal d puts cards ``layout + columns*d + c`` on column c."""
        return list(self.cards[self.variant.layout :])

    def text(self) -> str:
        """The deck on one line in short text form (the explicit-deal format)."""
        return format_cards(self.cards)


@lru_cache(maxsize=256)
def _deal_of_code(code: GameCode) -> Deal:
    """The deal of a code, made (and its composition checked) once: deals are immutable,
    and a service or a replay asks for the same deal again and again."""
    return Deal(code.deck(), code.variant, code)


def check_composition(cards: tuple[Card, ...], variant: Variant) -> None:
    """Refuse a deck that is not exactly the composition of ``variant``, naming the card."""
    for card in cards:
        # Card(0, 0) would print as KS (index -1): refuse it before naming cards.
        if not (isinstance(card, Card) and whole_number(card.rank) is not None and whole_number(card.suit) is not None
                and 1 <= card.rank <= 13 and 0 <= card.suit <= 3):
            shown = tuple(card) if isinstance(card, Card) else card
            raise InvalidDealError(f"invalid deal: {quote(shown)} is not a card (rank 1-13, suit 0-3)")
    expected = Counter(variant.unshuffled())
    have = Counter(cards)
    extra = have - expected
    missing = expected - have
    if missing or extra:
        details = []
        if missing:
            details.append("missing " + _count_cards(missing))
        if extra:
            details.append("extra " + _count_cards(extra))
        counts = ""
        if len(cards) != variant.cards:
            counts = f" ({plural(len(cards), 'card')}, expected {variant.cards})"
        raise InvalidDealError(f"invalid deal for {variant}{counts}: " + "; ".join(details))


#: A message names at most this many different cards, then says how many more.
NAMED_CARDS = 12


def _count_cards(counter: Counter[Card]) -> str:
    cards = sorted(counter, key=lambda c: (c.suit, c.rank))
    parts = [f"{card}" + (f" (x{counter[card]})" if counter[card] > 1 else "") for card in cards[:NAMED_CARDS]]
    rest = sum(counter[card] for card in cards[NAMED_CARDS:])
    return ", ".join(parts) + (f" and {rest} more" if rest else "")
