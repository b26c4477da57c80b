"""Searches off the event loop: a bounded pool of solver processes, shared by identical requests.

A search (a verify, an analysis, a fair hint or a review) runs in one of ``solvers`` ``spawn`` processes
(:func:`spider_solver.batch.pools.local_pool`: they ignore Ctrl-C, die with the
server, and load the compiled engine as they start), so the event loop keeps
answering catalog and replay requests while it runs. Identical requests in flight
share one search: the second waits for the first one's answer. At most ``capacity``
distinct searches are in flight (running or waiting for a process); one more is
refused with :class:`Busy` (503 with ``Retry-After``: :meth:`Searches.retry_after`, the
expected time until a search in flight ends, from how long searches have taken lately,
their budgets and the node rate the solver processes have achieved). :meth:`Searches.stop` ends
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
import time
from collections.abc import Callable, Hashable
from concurrent.futures import BrokenExecutor
from concurrent.futures import CancelledError as FutureCancelled
from dataclasses import dataclass
from typing import Any

from spider_solver.analysis import Analysis, AnalysisOptions, FairHint, FairOptions, Review, ReviewOptions
from spider_solver.batch.pools import Pool, local_pool
from spider_solver.limits import MAX_RETRY_AFTER
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
    """A solver process ended (killed, out of memory) in the middle of a search or a
    background job, or before one was handed to it; the pool is started again for the
    next requests."""


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


def analyze_job(spec: DealSpec, actions: tuple[str, ...], options: AnalysisOptions) -> Analysis:
    """Runs in a solver process: analyse the position a log reaches."""
    from spider_solver.analysis import analyze

    return analyze(spec.deal(), actions, options)


def fair_hint_job(spec: DealSpec, actions: tuple[str, ...], options: FairOptions) -> FairHint:
    """Runs in a solver process: the fair hint of the position a log reaches."""
    from spider_solver.analysis import fair_hint

    return fair_hint(spec.deal(), actions, options)


def review_job(spec: DealSpec, actions: tuple[str, ...], options: ReviewOptions) -> Review:
    """Runs in a solver process: the review of a game, its decisions judged one after the
    other in this process."""
    from spider_solver.analysis import review

    return review(spec.deal(), actions, options)


def warm_solver() -> None:
    """Each solver process as it starts: lower its priority, load the compiled engine, and
    the fair hint's kernels if they are compiled (``serve`` compiles them first:
    :func:`prepare_solvers`; elsewhere the first fair hint loads or compiles them)."""
    from spider_solver.analysis.fair import load_fair_hint
    from spider_solver.batch.task import warm_engine
    from spider_solver.engine import is_compiled

    with contextlib.suppress(OSError):  # not allowed here: run at the same priority
        os.nice(NICE)
    warm_engine()
    with contextlib.suppress(Exception):  # the first fair hint will report whatever is wrong
        if is_compiled(hint=True):
            load_fair_hint()


def prepare_solvers(say: Callable[[str], None]) -> None:
    """Compile what the solver processes run, once, before they start (side by side on a
    machine with the cores): the engine, the grader and the fair hint's kernels; the
    processes then load them."""
    from spider_solver.analysis.fair import fair_hint_stage
    from spider_solver.engine import load_stages
    from spider_solver.grading import grader_stage
    from spider_solver.verify import engine_stage

    load_stages([engine_stage(), grader_stage(), fair_hint_stage()], say=say, here=False)


def _ready() -> bool:
    return True


#: Weight of the latest search in the running means of the node rate and of a search's seconds.
RATE_WEIGHT = 0.3
#: Searches shorter than this (seconds) say little of the rate: the engine's set-up dominates.
RATE_MIN_SECONDS = 0.2


@dataclass
class Flight:
    """A search in flight: its answer to come, its budget, and when it got a solver
    process (None while it waits: the pool takes the searches in the order they came)."""

    future: asyncio.Future
    #: None: no node budget (a fair hint: its layouts bound it).
    max_nodes: int | None
    max_seconds: float | None
    started: float | None = None
    #: Called with the answer as the flight ends (see :meth:`Searches.run`).
    then: Callable[[Any], None] | None = None


def _effort(result: Any) -> tuple[int, float] | None:
    """The nodes and seconds a search's answer says it took (a record, or an analysis)."""
    nodes, seconds = getattr(result, "nodes", None), getattr(result, "seconds", None)
    return (nodes, seconds) if isinstance(nodes, int) and isinstance(seconds, float | int) else None


class Searches:
    """The solver pool, the searches in flight and their sharing."""

    def __init__(self, solvers: int, queue: int, max_seconds: float | None) -> None:
        self.solvers = solvers
        self.capacity = solvers + queue
        self._max_seconds = max_seconds
        self._pool: Pool = local_pool(solvers, warm=warm_solver)
        self._flights: dict[Hashable, Flight] = {}
        #: Nodes a second the solver processes have achieved lately (None before any search).
        self.node_rate: float | None = None
        #: Seconds a search has taken lately, from when it got a process to its answer, as the
        #: server counts it (a grading job ahead of it in the process counts too; None before any).
        self.typical: float | None = None
        self.stopping = False
        #: Searches started since the server started (shared ones count once).
        self.started = 0

    def start(self) -> None:
        """Start the processes now (each loads the engine), not at the first request."""
        for _ in range(self.solvers):
            self._pool.executor.submit(_ready)

    @property
    def running(self) -> int:
        return len(self._flights)

    def retry_after(self, now: float | None = None) -> int:
        """Seconds after which a slot is expected to be free: when the first of the running
        searches is expected to end. A search is expected to take what searches have taken
        lately (:attr:`typical`: most end long before their budget), or its budget if that is
        shorter; one that has run longer, its whole budget: its node budget at
        :attr:`node_rate`, or its seconds if they come first (with no rate measured yet, its
        seconds; with neither, :data:`MAX_RETRY_AFTER`). At least 1 and at most
        :data:`MAX_RETRY_AFTER`."""
        now = time.monotonic() if now is None else now
        ends = []
        for flight in self._flights.values():
            if flight.started is None:
                continue
            elapsed = now - flight.started
            by_nodes = (math.inf if not self.node_rate or flight.max_nodes is None
                        else flight.max_nodes / self.node_rate)
            expected = min(by_nodes, math.inf if flight.max_seconds is None else flight.max_seconds)
            if self.typical is not None and elapsed < self.typical:
                expected = min(expected, self.typical)
            ends.append(expected - elapsed)
        wait = min(ends, default=math.inf)
        return int(min(MAX_RETRY_AFTER, max(1, math.ceil(wait) if math.isfinite(wait) else MAX_RETRY_AFTER)))

    def _measured(self, key: Hashable, future: asyncio.Future) -> None:
        """A search ended: the next one waiting gets its process, and its effort the rate."""
        flight = self._flights.pop(key, None)
        now = time.monotonic()
        waiting = next((other for other in self._flights.values() if other.started is None), None)
        if waiting is not None:
            waiting.started = now
        if flight is None or future.cancelled() or future.exception() is not None:
            return
        if flight.started is not None:
            took = now - flight.started
            self.typical = took if self.typical is None else RATE_WEIGHT * took + (1 - RATE_WEIGHT) * self.typical
        effort = _effort(future.result())
        if effort is not None and effort[1] >= RATE_MIN_SECONDS:
            rate = effort[0] / effort[1]
            self.node_rate = rate if self.node_rate is None else (
                RATE_WEIGHT * rate + (1 - RATE_WEIGHT) * self.node_rate)
        if flight.then is not None:  # in the step that ends the flight: no request comes between
            flight.then(future.result())

    async def run(self, key: Hashable, job: Callable[..., Any], *args: Any,
                  budget: tuple[int | None, float | None] | None = None,
                  then: Callable[[Any], None] | None = None) -> Any:
        """The answer of ``job(*args)`` in a solver process; a request with the same ``key``
        in flight shares its search. ``budget``: its nodes and seconds, for
        :meth:`retry_after` (None: the server's seconds cap alone; nodes None: none, a fair
        hint, expected to take what searches have taken lately). ``then``: called once with
        the answer in the event-loop step in which the flight ends, before any request can
        find the key no longer in flight (the service remembers the lines found there, so
        that a request coming as the search ends is answered from them, not searched again)."""
        if self.stopping:
            raise Stopping
        flight = self._flights.get(key)
        pool = self._pool
        if flight is None:
            if len(self._flights) >= self.capacity:
                raise Busy(self.retry_after())
            future = self._submit(pool, job, *args)
            nodes, seconds = budget if budget is not None else (0, self._max_seconds)
            busy = sum(other.started is not None for other in self._flights.values())
            flight = Flight(future, nodes, seconds, time.monotonic() if busy < self.solvers else None, then)
            self._flights[key] = flight
            self.started += 1
            future.add_done_callback(lambda done: self._measured(key, done))
        # A client that goes away does not cancel a search others may share (the shield).
        return await self._answer(pool, flight.future, "the search; try again", shared=True)

    async def background(self, job: Callable[..., Any], *args: Any) -> Any:
        """The answer of ``job(*args)`` in a solver process, outside the search slots (the
        grading of :class:`~.grades.Grader`, which runs one job at a time): it neither
        counts against ``capacity`` nor is shared. :class:`Stopping` if the server stops,
        :class:`SolverFailed` if its process dies."""
        if self.stopping:
            raise Stopping
        pool = self._pool
        return await self._answer(pool, self._submit(pool, job, *args), "a job")

    def _submit(self, pool: Pool, job: Callable[..., Any], *args: Any) -> asyncio.Future:
        """``job(*args)`` handed to a solver process of ``pool``: :class:`Stopping` if the
        pool was shut down since the caller looked; :class:`SolverFailed` (and a fresh pool)
        if a process of it had died."""
        try:
            return asyncio.wrap_future(pool.executor.submit(job, *args))
        except BrokenExecutor:  # first: it is a RuntimeError too
            raise self._failed(pool, "a solver process had ended; try again") from None
        except RuntimeError:  # shut down
            raise Stopping from None

    async def _answer(self, pool: Pool, future: asyncio.Future, what: str, *, shared: bool = False) -> Any:
        """What ``future`` (a job of ``pool``) gives, with a pool's failures said as the
        service says them: :class:`Stopping` once the server stops (the stop cancels the
        jobs that wait for a process), :class:`SolverFailed` (and a fresh pool) when a
        process died in the middle of ``what``. ``shared``: the job's future is shielded
        from the cancellation of this waiter."""
        try:
            return await (asyncio.shield(future) if shared else future)
        except BrokenExecutor:
            raise self._failed(pool, f"a solver process ended in the middle of {what}") from None
        except (asyncio.CancelledError, FutureCancelled):
            if self.stopping and future.cancelled():
                raise Stopping from None
            raise

    def _failed(self, pool: Pool, message: str) -> Exception:
        """:class:`Stopping` once the server stops; else a fresh pool for the next jobs and
        :class:`SolverFailed` with ``message``."""
        if self.stopping:
            return Stopping()
        self._restart(pool)
        return SolverFailed(message)

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


__all__ = ["Busy", "DealSpec", "Flight", "Searches", "SolverFailed", "Stopping", "analyze_job", "fair_hint_job",
           "prepare_solvers", "review_job", "verify_job"]
