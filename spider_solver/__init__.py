"""spider-solver: a Spider Solitaire solver and deal-verification service.

>>> from spider_solver import Board, Deal
>>> board = Board(Deal.from_code("SP1-S4C-AAAAAAD"))
>>> board.deal.cards[0], board.deal.cards[-1]
(Card.parse('8S'), Card.parse('TS'))

The public names are imported on first use (PEP 562), so that importing a part of the
package (``spider_solver.rules``), or starting the command line, does not load the
solver, the analysis and what they import.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spider_solver.analysis import Analysis, AnalysisOptions, FairHint, FairOptions, analyze, fair_hint
    from spider_solver.outcomes import ExitStatus, Reason, Status
    from spider_solver.record import SolveRecord
    from spider_solver.rules import Board, Card, Deal, DealRow, GameCode, Move, Undo, Variant, parse_action, replay
    from spider_solver.verify import solve
    from spider_solver.version import __version__

#: Each public name, and the module that defines it.
_PUBLIC = {
    "Analysis": "analysis", "AnalysisOptions": "analysis", "analyze": "analysis",
    "FairHint": "analysis", "FairOptions": "analysis", "fair_hint": "analysis",
    "ExitStatus": "outcomes", "Reason": "outcomes", "Status": "outcomes",
    "Board": "rules", "Card": "rules", "Deal": "rules", "DealRow": "rules", "GameCode": "rules", "Move": "rules",
    "Undo": "rules", "Variant": "rules", "parse_action": "rules", "replay": "rules",
    "SolveRecord": "record", "solve": "verify",
    "__version__": "version",
}


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'spider_solver' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"spider_solver.{_PUBLIC[name]}"), name)
    globals()[name] = value  # once
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))


__all__ = [
    "Analysis", "AnalysisOptions", "analyze",
    "FairHint", "FairOptions", "fair_hint",
    "Board", "Deal", "DealRow", "ExitStatus", "GameCode", "Move", "Reason", "SolveRecord", "Status",
    "Undo",
    "Card", "Variant",
    "__version__", "parse_action", "replay", "solve",
]
