"""How an analysis runs: :class:`AnalysisOptions`, the one value the command line, the
service and a library caller pass to :func:`~spider_solver.analysis.analyze`.

The rules of the log (``deal_on_empty``, ``undo_limit``), the budget of the whole
analysis, the known winning line, whether to look for ``lost_at``, and the hook run
before the first search. A later kind of answer (a fair hint, the review of a game)
takes the same value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from spider_solver.errors import quote
from spider_solver.limits import INTERACTIVE_MAX_NODES, INTERACTIVE_MAX_SECONDS, check_budget
from spider_solver.rules import DEFAULT_UNDO_LIMIT

#: A winning line from the initial layout, or a function that returns one (or None).
KnownLine = str | Sequence[str] | Callable[[], Sequence[str] | None] | None


@dataclass(frozen=True)
class AnalysisOptions:
    """The options of one analysis; the defaults are the interactive ones.

    ``known_line`` is a winning line of the deal from its initial layout (the catalog's
    solution): when the position reached lies on it, the hint comes from it without a
    search; a line that does not parse or does not win the deal is not used. It may be a
    function that returns the line (or None), called only once the log is replayed
    without a refused action and without a win. ``before_search`` is called once, before
    the first search, and never when none is needed (the command line loads the search
    engine there); its time is counted neither in the budget nor in the seconds.

    The budget (``max_nodes`` first, ``max_seconds`` second, None for no time limit)
    covers the whole analysis; one out of range raises
    :class:`~spider_solver.errors.InvalidBudgetError` as the value is made.
    """

    #: RULES.md §6 Deals: whether a deal may be made while a column is empty.
    deal_on_empty: bool = False
    #: RULES.md §8.2 Undo: actions that can be undone (None: the whole history).
    undo_limit: int | None = DEFAULT_UNDO_LIMIT
    max_nodes: int = INTERACTIVE_MAX_NODES
    max_seconds: float | None = INTERACTIVE_MAX_SECONDS
    known_line: KnownLine = None
    #: False: ``lost_at`` is not looked for (it stays None).
    find_lost_at: bool = True
    before_search: Callable[[], object] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        max_nodes, max_seconds = check_budget(self.max_nodes, self.max_seconds)
        object.__setattr__(self, "max_nodes", max_nodes)
        object.__setattr__(self, "max_seconds", max_seconds)
        if not isinstance(self.find_lost_at, bool):
            raise ValueError(f"invalid find_lost_at {quote(self.find_lost_at)}: expected True or False")

    def but(self, **changes: Any) -> AnalysisOptions:
        """These options with ``changes`` (field names of :class:`AnalysisOptions`)."""
        return replace(self, **changes) if changes else self


__all__ = ["AnalysisOptions", "KnownLine"]
