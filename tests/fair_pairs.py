"""Pairs of deals that a player cannot tell apart, for the fairness tests of the fair hint
(docs/engine.md, "Fair hints"): the same cards where the player sees them, other cards
where the player does not (face down and in the stock), and the game logs along which
they stay alike.

:func:`deal_pairs` draws a deal and its twin, a few of its unseen cards swapped;
:func:`prefixes` walks a log on both and gives every prefix after which the player still
sees the same game (until a card in which they differ is turned up or dealt).
Test-only; plain Python (the rules engine), no kernel.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hypothesis import assume
from hypothesis import strategies as st

from spider_solver.rules import Board, Deal, Variant

#: Small variants that still have face-down cards and a stock, of 1, 2 and 4 suits.
SIZES = (
    {"suits": 1, "ranks": 6, "runs": 4, "columns": 5, "layout": 14},
    {"suits": 2, "ranks": 6, "runs": 4, "columns": 5, "layout": 14},
    {"suits": 4, "ranks": 5, "runs": 4, "columns": 6, "layout": 14},
)


def unseen_places(deal: Deal) -> list[int]:
    """The deck indices of the cards the player does not see at the start: every card of the
    layout but each column's last (face down), and the stock."""
    variant = deal.variant
    n = variant.columns
    sizes = [len(range(c, variant.layout, n)) for c in range(n)]
    face_down = [t for t in range(variant.layout) if t // n < sizes[t % n] - 1]
    return face_down + list(range(variant.layout, variant.cards))


def twin(deal: Deal, order: Sequence[int]) -> Deal:
    """``deal`` with its unseen cards (:func:`unseen_places`) laid out in ``order`` (a
    permutation of their indices): a deal the player cannot tell from it at the start."""
    places = unseen_places(deal)
    cards = list(deal.cards)
    for place, source in zip(places, order, strict=True):
        cards[place] = deal.cards[places[source]]
    return Deal(tuple(cards), deal.variant)


@st.composite
def deal_pairs(draw, sizes: Sequence[dict] = SIZES) -> tuple[Deal, Deal]:
    """A deal of one of ``sizes`` (a random deck) and a twin that differs from it in unseen cards only (:func:`twins`)."""
    variant = Variant(**draw(st.sampled_from(list(sizes))))
    deal = Deal(tuple(draw(st.permutations(variant.unshuffled()))), variant)
    return deal, draw(twins(deal))


@st.composite
def twins(draw, deal: Deal) -> Deal:
    """A twin of ``deal`` that differs from it in a few unseen cards (one to three swaps of
    two, anywhere among the face-down cards and the stock), so that a game goes on a while
    before the player can tell them apart."""
    places = unseen_places(deal)
    cards = list(deal.cards)
    for _ in range(draw(st.integers(1, 3))):
        i, j = draw(st.lists(st.sampled_from(places), min_size=2, max_size=2, unique=True))
        cards[i], cards[j] = cards[j], cards[i]
    assume(tuple(cards) != deal.cards)
    return Deal(tuple(cards), deal.variant)


def seen(board: Board) -> tuple:
    """Everything the player of ``board`` sees: each column's face-down count and face-up
    cards, the deals made, the runs removed (and their suits)."""
    return (tuple(board.down), tuple(tuple(column[board.down[c]:]) for c, column in enumerate(board.columns)),
            board.dealt, tuple(board.removed))


def prefixes(first: Deal, second: Deal, picks: Sequence[int], *, deal_on_empty: bool = False) -> Iterator[list[str]]:
    """The logs along which the players of ``first`` and ``second`` see the same game: the
    empty log, then one more action each time, each a legal action of the position picked
    by the next of ``picks`` (an index, modulo the number of legal actions), until the game
    is won or stuck, the picks run out, or the two players see something different (a card
    in which the deals differ turned up or dealt): that log is not given."""
    a = Board(first, deal_on_empty=deal_on_empty, undo_limit=0)
    b = Board(second, deal_on_empty=deal_on_empty, undo_limit=0)
    log: list[str] = []
    assert seen(a) == seen(b), "the twins differ in a card the player sees"
    yield list(log)
    for pick in picks:
        actions = a.legal_moves()
        if a.is_won() or not actions:
            return
        action = actions[pick % len(actions)]
        text = a.notation(action)
        a.push(action)
        b.push_notation(text)  # legal on the twin too: legality reads only what is seen
        if seen(a) != seen(b):
            return
        log.append(text)
        yield list(log)


__all__ = ["SIZES", "deal_pairs", "prefixes", "seen", "twin", "twins", "unseen_places"]
