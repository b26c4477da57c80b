"""The winning lines the service has found, remembered so that hints continue: the next hint on
a line a search found is answered from it, without a search, as a hint on the catalog's line is
(docs/service.md, "Hints that continue").

Every line an analysis found, whole from the deal's first position (the actions in effect of
the log, then the line from there; a bracket's or a ``lost_at`` line likewise), is kept under
its deal and ``deal_on_empty``: at most :data:`~spider_solver.limits.REMEMBERED_LINES` a deal,
the latest first, for the :data:`~spider_solver.limits.REMEMBERED_DEALS` deals asked about
last. They live in the memory of the process that searches, and go when it stops. A line is
only ever a candidate: the analysis replays it and uses it only if it wins from the position
reached and does not go back through the game's history (:mod:`spider_solver.analysis.hints`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

from spider_solver.analysis import Analysis
from spider_solver.analysis.start import effective_history
from spider_solver.limits import REMEMBERED_DEALS, REMEMBERED_LINES
from spider_solver.outcomes import Status

Line = tuple[str, ...]


def whole_lines(analysis: Analysis) -> list[Line]:
    """The winning lines an analysis found, each from the deal's first position: the position's
    line after the actions in effect, the bracket's after those up to its position, the
    ``lost_at`` line after those before ``lost_at``. Canonical notation, no undo."""
    effective = effective_history(analysis.replay.played)
    moves = [action for _, action in effective]
    found: list[Line] = []
    if analysis.status is Status.VERIFIED and analysis.line:
        found.append((*moves, *analysis.line))
    bracket = analysis.bracket
    if bracket is not None and bracket.winnable is not None and bracket.line:
        found.append((*moves[:bracket.winnable], *bracket.line))
    if analysis.lost_at is not None and analysis.lost_at_line:
        before = [action for index, action in effective if index < analysis.lost_at]
        found.append((*before, *analysis.lost_at_line))
    return found


class RememberedLines:
    """The lines of the deals asked about last, the latest first."""

    def __init__(self, deals: int = REMEMBERED_DEALS, per_deal: int = REMEMBERED_LINES) -> None:
        self._deals = deals
        self._per_deal = per_deal
        self._lines: OrderedDict[Hashable, list[Line]] = OrderedDict()

    def of(self, deal: Hashable) -> list[Line]:
        """The deal's lines, the latest first (none: an empty list)."""
        lines = self._lines.get(deal)
        if lines is None:
            return []
        self._lines.move_to_end(deal)
        return list(lines)

    def remember(self, deal: Hashable, analysis: Analysis) -> None:
        """Keep the lines ``analysis`` found for ``deal``, first in its list."""
        found = whole_lines(analysis)
        if not found:
            return
        kept = [line for line in self._lines.get(deal, []) if line not in found]
        self._lines[deal] = (found + kept)[: self._per_deal]
        self._lines.move_to_end(deal)
        while len(self._lines) > self._deals:
            self._lines.popitem(last=False)

    def __len__(self) -> int:
        return len(self._lines)


__all__ = ["RememberedLines", "whole_lines"]
