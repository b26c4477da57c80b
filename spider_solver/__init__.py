"""spider-solver: a Spider Solitaire solver and deal-verification service.

>>> from spider_solver import Board, Deal
>>> board = Board(Deal.from_code("SP1-S4C-AAAAAAD"))
>>> board.deal.cards[0], board.deal.cards[-1]
(Card.parse('8S'), Card.parse('TS'))
"""

from importlib.metadata import PackageNotFoundError, version

from spider_solver.rules import (
    Board,
    Card,
    Deal,
    DealRow,
    GameCode,
    Move,
    Undo,
    Variant,
    parse_action,
    replay,
)
from spider_solver.solver import SolveResult, solve

try:
    __version__ = version("spider-solver")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = [
    "Board", "Card", "Deal", "DealRow", "GameCode", "Move", "SolveResult", "Undo", "Variant",
    "__version__", "parse_action", "replay", "solve",
]
