"""The budget of a search: nodes first, seconds second, and the sub-budget a part of the work takes.

Nodes (children made by the engine's ``do_move``) decide: work within a node budget
is deterministic, the same on every machine. The seconds are a safety net that only
cuts work short. A part of the work (the solve's polish pass, an early exhaustive
search, one search of ``analyze``) takes a sub-budget (:meth:`Budget.sub`): at most
so many of the nodes left, under the same deadline; what it spends is spent from the
budget it was taken from too.

This module depends only on :mod:`spider_solver.outcomes`, so that a layer above the
engine keeps its budget before the engine loads.
"""

from __future__ import annotations

import time
from typing import Protocol

from spider_solver.outcomes import Reason


class Progress(Protocol):
    """A progress bar counting nodes (a ``tqdm`` bar)."""

    n: float
    total: float | None

    def update(self, n: float = 1) -> object: ...


class Budget:
    """``max_nodes`` nodes (``nodes`` of them spent) and a deadline ``max_seconds`` from
    ``since`` (a ``time.perf_counter()`` reading; default: now), None for no time limit.

    Work checks it between steps (:meth:`exceeded`) and gives a step at most
    :meth:`left` nodes; a ``progress`` bar, if any, advances with :meth:`spend`.
    """

    def __init__(self, max_nodes: int, max_seconds: float | None = None, *, since: float | None = None,
                 progress: Progress | None = None) -> None:
        self.max_nodes = max_nodes
        start = time.perf_counter() if since is None else since
        self.deadline = None if max_seconds is None else start + max_seconds
        self.nodes = 0
        self.progress = progress
        self._parent: Budget | None = None

    def left(self) -> int:
        """The nodes that may still be spent."""
        return max(0, self.max_nodes - self.nodes)

    def seconds_left(self) -> float | None:
        """The seconds to the deadline (negative once it passed); None without one."""
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def spend(self, nodes: int) -> None:
        """Count ``nodes`` as spent, here and in every budget this one was taken from."""
        self.nodes += nodes
        if self.progress is not None and self.progress.total is not None:
            self.progress.update(min(nodes, max(0, int(self.progress.total - self.progress.n))))
        if self._parent is not None:
            self._parent.spend(nodes)

    def exceeded(self) -> Reason | None:
        """``Reason.NODES`` once the nodes are spent, else ``Reason.SECONDS`` once the
        deadline passed, else None."""
        if self.nodes >= self.max_nodes:
            return Reason.NODES
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            return Reason.SECONDS
        return None

    def extend(self, seconds: float) -> None:
        """Move the deadline ``seconds`` later: time spent on something the budget does not cover."""
        if self.deadline is not None:
            self.deadline += seconds

    def sub(self, nodes: int | None = None, *, share: int = 1, progress: Progress | None = None) -> Budget:
        """A budget for a part of the work, under the same deadline, whose spending counts here too.

        It has what is left here, and at most ``nodes`` of it (None: no cap of its own)
        and at most ``1 / share`` of this budget's ``max_nodes`` (never less than one
        node). ``progress`` is a bar of its own (this budget's bar, if any, advances too).
        """
        grant = self.left()
        if nodes is not None:
            grant = min(grant, nodes)
        if share > 1:
            grant = min(grant, max(1, self.max_nodes // share))
        part = Budget(grant, progress=progress)
        part.deadline = self.deadline
        part._parent = self
        return part


__all__ = ["Budget", "Progress"]
