"""The Python API of the solver: ``solve(deal) -> SolveResult``.

``solve`` runs the numba search engine (:mod:`spider_solver.engine`) under a
budget, then replays any line it found on the reference rules engine; only a line
that the reference engine plays to a win is reported as ``verified``. A search that
runs out of budget is ``unknown``; ``unwinnable`` means the whole search space was
exhausted (see the README for the prunings that proof relies on).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal

from spider_solver.rules import Deal, GameCode

Status = Literal["verified", "unwinnable", "unknown"]
VERIFIED: Status = "verified"
UNWINNABLE: Status = "unwinnable"
UNKNOWN: Status = "unknown"
STATUSES: tuple[Status, ...] = (VERIFIED, UNWINNABLE, UNKNOWN)

#: Default budget: nodes first (deterministic), seconds second (a safety net). At
#: 1.0-1.5 million nodes a second on one core here, the nodes run out before the
#: seconds, so the default outcome does not depend on the machine's load.
DEFAULT_MAX_NODES = 25_000_000
DEFAULT_MAX_SECONDS = 30.0


@dataclass(frozen=True)
class SolveResult:
    """What a search found. ``solution`` is in action notation, empty unless verified."""

    code: str | None
    status: Status
    solution: tuple[str, ...] = ()
    #: Actions in the solution (moves and deals), or None.
    moves: int | None = None
    #: Final score of the solution as the app counts it, or None.
    score: int | None = None
    nodes: int = 0
    seconds: float = 0.0
    max_nodes: int = DEFAULT_MAX_NODES
    max_seconds: float | None = DEFAULT_MAX_SECONDS
    #: Why the search stopped: "won", "exhausted", "nodes", "seconds", "interrupted".
    reason: str = ""
    #: Per-attempt figures (width, nodes, ...), for benchmarks and debugging.
    attempts: tuple[dict, ...] = field(default=(), compare=False)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["solution"] = list(self.solution)
        data["attempts"] = [dict(a) for a in self.attempts]
        return data


def coerce_deal(deal: Deal | GameCode | str) -> Deal:
    if isinstance(deal, Deal):
        return deal
    return Deal.from_code(deal)


def solve(
    deal: Deal | GameCode | str,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    deal_on_empty: bool = False,
    progress: bool = False,
) -> SolveResult:
    """Search for a winning line of ``deal`` within the budget.

    ``deal`` is a :class:`Deal`, a :class:`GameCode` or a game code string.
    The same deal, budget and version give the same result and the same line on
    every machine, unless ``max_seconds`` cuts the search short first.
    """
    from spider_solver.engine.driver import run_search

    return run_search(
        coerce_deal(deal),
        max_nodes=max_nodes,
        max_seconds=max_seconds,
        deal_on_empty=deal_on_empty,
        progress=progress,
    )
