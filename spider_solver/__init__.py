"""spider-solver: a Spider Solitaire solver and deal-verification service.

>>> from spider_solver import Board, Deal
>>> board = Board(Deal.from_code("SP1-S4C-AAAAAAD"))
>>> board.deal.cards[0], board.deal.cards[-1]
(Card.parse('8S'), Card.parse('TS'))
"""

from spider_solver.analysis import Analysis, analyze
from spider_solver.outcomes import ExitStatus, Reason, Status
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
from spider_solver.verify import SolveResult, solve
from spider_solver.version import __version__

__all__ = [
    "Analysis", "analyze",
    "Board", "Card", "Deal", "DealRow", "ExitStatus", "GameCode", "Move", "Reason", "SolveResult", "Status", "Undo",
    "Variant",
    "__version__", "parse_action", "replay", "solve",
]
