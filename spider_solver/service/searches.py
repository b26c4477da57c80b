"""Searches off the event loop: a bounded pool of solver processes, shared by identical requests.

A search (a verify or an analysis) runs in one of ``solvers`` ``spawn`` processes
(:func:`spider_solver.batch.pools.local_pool`: they ignore Ctrl-C, die with the
server, and load the compiled engine as they start), so the event loop keeps
answering catalog and replay requests while it runs. Identical requests in flight
share one search: the second waits for the first one's answer. At most ``capacity``
distinct searches are in flight (running or waiting for a process); one more is
refused with :class:`Busy` (503 with ``Retry-After``). :meth:`Searches.stop` ends
the searches in flight at once (the server's SIGTERM and Ctrl-C): whoever waits for
them gets :class:`Stopping`.

The solver processes run at a lower priority (``nice`` + :data:`NICE`), so that on a
machine with few cores the event loop is served first.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
from collections.abc import Callable, Hashable
from concurrent.futures import BrokenExecutor
from concurrent.futures import CancelledError as FutureCancelled
from dataclasses import dataclass
from typing import Any

from spider_solver.batch.pools import Pool, local_pool
from spider_solver.record import SolveRecord

#: How much lower the solver processes' priority is than the server's.
NICE = 10


class Busy(Exception):
    """Every search slot is taken; try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"every search slot of the server is taken: try again in {retry_after} s")
        self.retry_after = retry_after


class Stopping(Exception):
    """The server is shutting down: the search was ended, or not started."""


class SolverFailed(Exception):
    """A solver process ended in the middle of a search (killed, out of memory); the
    pool is started again for the next requests."""


@dataclass(frozen=True)
class DealSpec:
    """A deal as a worker rebuilds it: a code, or an explicit deck with its variant."""

    code: str | None
    deck: str | None
    suits: int
    rule: str

    def deal(self):
        from spider_solver.rules import Deal

        return Deal.from_code(self.code) if self.code is not None else Deal.from_text(self.deck or "", self.suits,
                                                                                       self.rule)


def verify_job(spec: DealSpec, max_nodes: int, max_seconds: float | None, deal_on_empty: bool) -> SolveRecord:
    """Runs in a solver process: solve and verify the deal; its record, as a worker sends it."""
    from spider_solver.batch.task import solve_deal

    return solve_deal(spec.deal(), max_nodes, max_seconds, deal_on_empty=deal_on_empty)


def analyze_job(spec: DealSpec, actions: tuple[str, ...], deal_on_empty: bool, undo_limit: int | None,
                max_nodes: int, max_seconds: float | None, known_line: tuple[str, ...] | None,
                find_lost_at: bool) -> dict:
    """Runs in a solver process: analyse the position a log reaches (``Analysis.to_dict()``)."""
    from spider_solver.analysis import analyze

    return analyze(spec.deal(), actions, deal_on_empty=deal_on_empty, undo_limit=undo_limit, max_nodes=max_nodes,
                   max_seconds=max_seconds, known_line=known_line, find_lost_at=find_lost_at).to_dict()


def warm_solver() -> None:
    """Each solver process as it starts: lower its priority, load the compiled engine."""
    from spider_solver.batch.task import warm_engine

    with contextlib.suppress(OSError):  # not allowed here: run at the same priority
        os.nice(NICE)
    warm_engine()


def _ready() -> bool:
    return True


class Searches:
    """The solver pool, the searches in flight and their sharing."""

    def __init__(self, solvers: int, queue: int, max_seconds: float | None) -> None:
        self.solvers = solvers
        self.capacity = solvers + queue
        self._max_seconds = max_seconds
        self._pool: Pool = local_pool(solvers, warm=warm_solver)
        self._in_flight: dict[Hashable, asyncio.Future] = {}
        self.stopping = False
        #: Searches started since the server started (shared ones count once).
        self.started = 0

    def start(self) -> None:
        """Start the processes now (each loads the engine), not at the first request."""
        for _ in range(self.solvers):
            self._pool.executor.submit(_ready)

    @property
    def running(self) -> int:
        return len(self._in_flight)

    def retry_after(self) -> int:
        """Seconds after which a slot is likely free: one search's time limit per round of
        the pool, at least 1 and at most 60."""
        per_search = self._max_seconds if self._max_seconds is not None else 30.0
        rounds = max(1, self.running - self.solvers + 1) / self.solvers
        return int(min(60, max(1, math.ceil(per_search * rounds))))

    async def run(self, key: Hashable, job: Callable[..., Any], *args: Any) -> Any:
        """The answer of ``job(*args)`` in a solver process; a request with the same ``key``
        in flight shares its search."""
        if self.stopping:
            raise Stopping
        future = self._in_flight.get(key)
        if future is None:
            if len(self._in_flight) >= self.capacity:
                raise Busy(self.retry_after())
            try:
                future = asyncio.wrap_future(self._pool.executor.submit(job, *args))
            except (RuntimeError, BrokenExecutor):  # shut down since the check above
                raise Stopping from None
            self._in_flight[key] = future
            self.started += 1
            future.add_done_callback(lambda _: self._in_flight.pop(key, None))
        pool = self._pool
        try:
            # A client that goes away does not cancel a search others may share.
            return await asyncio.shield(future)
        except (BrokenExecutor, FutureCancelled) as error:
            if self.stopping:
                raise Stopping from None
            if isinstance(error, BrokenExecutor):
                self._restart(pool)
                raise SolverFailed("a solver process ended in the middle of the search; try again") from None
            raise

    async def background(self, job: Callable[..., Any], *args: Any) -> Any:
        """The answer of ``job(*args)`` in a solver process, outside the search slots (the
        grading of :class:`~.grades.Grader`, which runs one job at a time): it neither
        counts against ``capacity`` nor is shared. :class:`Stopping` if the server stops,
        :class:`SolverFailed` if its process dies."""
        if self.stopping:
            raise Stopping
        pool = self._pool
        try:
            return await asyncio.wrap_future(pool.executor.submit(job, *args))
        except (RuntimeError, BrokenExecutor, FutureCancelled) as error:
            if self.stopping or isinstance(error, RuntimeError):
                raise Stopping from None
            if isinstance(error, BrokenExecutor):
                self._restart(pool)
                raise SolverFailed("a solver process ended in the middle of a job") from None
            raise

    def _restart(self, broken: Pool) -> None:
        """Replace a broken pool (a process died) by a fresh one, once."""
        if broken is not self._pool:
            return
        self._pool = local_pool(self.solvers, warm=warm_solver)
        broken.stop()
        self.start()

    def stop(self) -> None:
        """End every search now (SIGTERM, Ctrl-C): cancel the waiting ones, kill the
        processes. Safe to call twice; not from a signal handler that may have interrupted
        a submit() (the server's hands it to the event loop)."""
        if self.stopping:
            return
        self.stopping = True
        self._pool.stop()


__all__ = ["Busy", "DealSpec", "Searches", "SolverFailed", "Stopping", "analyze_job", "verify_job"]
