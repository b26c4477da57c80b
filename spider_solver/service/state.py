"""What the handlers share: the server's settings, its catalog and its searches, as
FastAPI dependencies (set up by the application's lifespan, :mod:`.app`).

The dependencies are ``async`` functions: FastAPI runs a plain ``def`` dependency in a
thread, which for a lookup in ``app.state`` costs more than the lookup."""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException

from spider_solver.catalog import Catalog
from spider_solver.errors import CatalogLocked
from spider_solver.limits import (
    DEFAULT_MAX_LAYOUTS_CAP,
    DEFAULT_MAX_NODES,
    DEFAULT_MAX_SECONDS,
    FAIR_LAYOUTS,
    GAMES_PER_MINUTE,
    INTERACTIVE_MAX_NODES,
    INTERACTIVE_MAX_SECONDS,
)
from spider_solver.outcomes import Status
from spider_solver.record import SolveRecord
from spider_solver.rules import Deal
from spider_solver.service.errors import ReadOnly
from spider_solver.service.finished import Recorder
from spider_solver.service.lines import RememberedLines
from spider_solver.service.models import Budget, DealRequest
from spider_solver.service.searches import DealSpec, Searches

log = logging.getLogger("spider_solver.service")

#: Searches that may wait for a solver process, per process, beyond those running.
QUEUE_PER_SOLVER = 4


@dataclass(frozen=True)
class Settings:
    """What ``spider-solve serve`` was told (docs/service.md)."""

    #: The catalog file; None serves without one (catalog endpoints answer 404).
    catalog: str | None = None
    #: Serve the catalog and replays only: never search, never write.
    read_only: bool = False
    solvers: int = 1
    #: Searches that may wait for a process; None: QUEUE_PER_SOLVER per solver.
    queue: int | None = None
    max_nodes_cap: int = INTERACTIVE_MAX_NODES
    max_seconds_cap: float | None = INTERACTIVE_MAX_SECONDS
    #: The most layouts a fair hint may ask for (``--max-layouts-cap``).
    max_layouts_cap: int = DEFAULT_MAX_LAYOUTS_CAP
    cors_origins: tuple[str, ...] = field(default_factory=tuple)
    #: The key that signs finished games' receipts (``--secret-file``); None: a random key
    #: made as the server starts (receipts verify until it stops).
    secret: bytes | None = field(default=None, repr=False)
    #: Finished games a client address may submit a minute (``--games-per-minute``).
    games_per_minute: int = GAMES_PER_MINUTE
    #: Set in the other processes of ``serve --workers N``: the Unix socket of the process
    #: that searches, to which they hand every request of an endpoint that may search
    #: (:mod:`.workers`).
    forward_to: str | None = None

    def budget(self, request: Budget) -> tuple[int, float | None]:
        """A request's budget (the caps when it gives none); one over a cap is refused as
        the document's maximum says (422 ``invalid-request`` naming the cap)."""
        over = [{"loc": ("body", name), "type": "over_cap",
                 "msg": f"expected at most {cap:,}, the server's --{flag}; got {value:,}"}
                for name, value, cap, flag in (("max_nodes", request.max_nodes, self.max_nodes_cap, "max-nodes-cap"),
                                               ("max_seconds", request.max_seconds, self.max_seconds_cap,
                                                "max-seconds-cap"))
                if value is not None and cap is not None and value > cap]
        if over:
            raise RequestValidationError(over)
        nodes = self.max_nodes_cap if request.max_nodes is None else request.max_nodes
        seconds = self.max_seconds_cap if request.max_seconds is None else request.max_seconds
        return nodes, seconds

    def layouts(self, requested: int | None, *, name: str = "layouts", default: int = FAIR_LAYOUTS) -> int:
        """A fair hint's (or a review's) layouts: those asked for, at most the cap (one over it
        is refused as the document's maximum says, 422 ``invalid-request`` naming the cap and
        the field ``name``), else the ``default``, or the cap if it is lower."""
        if requested is None:
            return min(default, self.max_layouts_cap)
        if requested > self.max_layouts_cap:
            raise RequestValidationError([{"loc": ("body", name), "type": "over_cap",
                                           "msg": f"expected at most {self.max_layouts_cap:,}, the server's "
                                                  f"--max-layouts-cap; got {requested:,}"}])
        return requested


def worth_recording(result: SolveRecord) -> bool:
    """Whether the service records ``result``: a verified line (replayed to a win) or an
    unwinnable proof at any budget, an unknown only at the catalog's default budget or
    more (``limits.DEFAULT_MAX_NODES`` and ``DEFAULT_MAX_SECONDS``, no time limit counting
    as more). A smaller budget's unknown says nothing a batch can rely on: it is answered,
    not stored (a client could otherwise fill the catalog with one-node rows)."""
    if result.status is not Status.UNKNOWN:
        return True
    return result.max_nodes >= DEFAULT_MAX_NODES and (result.max_seconds is None or (
        DEFAULT_MAX_SECONDS is not None and result.max_seconds >= DEFAULT_MAX_SECONDS))


class CatalogWriter:
    """The service's writes to the catalog, off the event loop: one thread with its own
    connection. A write waits for any other process that holds the catalog's write lock
    (a batch planning a million deals holds it for seconds), up to the catalog's
    LOCK_WAIT_SECONDS; the event loop, which reads through its own connection (WAL:
    readers never wait for a writer), keeps answering meanwhile. :meth:`close` (the
    server stopping) ends a wait within the catalog's LOCK_TRY_SECONDS: that result is
    not recorded, and the log says so."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="catalog-writer")
        self._db: Catalog | None = None
        self._closing = threading.Event()

    def _give_up_when_closing(self) -> None:
        if self._closing.is_set():
            raise CatalogLocked(f"catalog {self._path!r} was still locked by another process when the server stopped")

    def _open(self) -> Catalog:
        if self._db is None:  # opened in the writer's thread, which alone uses it
            self._db = Catalog(self._path, create=False)
            self._db.stop_check = self._give_up_when_closing
        return self._db

    def _record(self, result: SolveRecord, code: str) -> SolveRecord | None:
        db = self._open()
        try:
            db.record(result)
        except CatalogLocked:
            if self._closing.is_set():
                log.warning("the result of %s was not recorded: the catalog was still locked by another "
                            "process when the server stopped", code)
            raise
        return db.get(code)

    async def record(self, result: SolveRecord, code: str) -> SolveRecord | None:
        """:meth:`Catalog.record` the result, then the row stored for ``code``."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._record, result, code)

    async def set_grade(self, code: str, grade: dict) -> bool:
        """:meth:`Catalog.set_grade`, in the writer's thread."""
        return await self.call("set_grade", code, grade)

    async def call(self, method: str, *args: Any) -> Any:
        """A writing method of the catalog (``set_grade``, ``record_game``, ``redeem``), called
        in the writer's thread with ``args``."""
        return await asyncio.get_running_loop().run_in_executor(self._thread,
                                                                lambda: getattr(self._open(), method)(*args))

    def stopping(self) -> None:
        """The server is told to stop: a write waiting for a lock gives up (thread-safe)."""
        self._closing.set()

    def close(self) -> None:
        """Close the catalog after the writes in hand; one waiting for a lock gives up.
        Closing again does nothing."""
        def close_db() -> None:
            if self._db is not None:
                self._db.close()
                self._db = None

        self._closing.set()
        try:
            self._thread.submit(close_db)
        except RuntimeError:  # closed already
            return
        self._thread.shutdown(wait=True)


async def writer(request: Request) -> CatalogWriter | None:
    """The catalog's writer; None on a server without a catalog or a read-only one."""
    return request.app.state.writer


def _query_names(dependant: Any) -> set[str]:
    """The query parameters an endpoint takes, its dependencies' included."""
    names = {param.alias for param in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _query_names(sub)
    return names


def routes(found: Any) -> Any:
    """The routes of ``found`` (an app's ``routes``), an included router's among them
    (FastAPI keeps them in it; no prefix here)."""
    for route in found:
        inner = getattr(route, "original_router", None)
        yield from routes(inner.routes) if inner is not None else (route,)


def query_names(app: Any) -> frozenset[str]:
    """Every query parameter some endpoint of ``app`` takes (worked out once, from its routes:
    building the OpenAPI document for it took a first request 0.14 s)."""
    names = getattr(app.state, "query_names", None)
    if names is None:
        names = frozenset(name for route in routes(app.routes) if isinstance(route, APIRoute)
                          for name in _query_names(route.dependant))
        app.state.query_names = names
    return names


async def known_query(request: Request) -> None:
    """Refuses (422 ``invalid-request``) a query parameter the endpoint does not take, or one
    given twice, as the body models refuse unknown fields: ``?status=unknown`` on an
    endpoint that has no status filter would otherwise be ignored without a word."""
    route = request.scope.get("route")
    taken = _query_names(route.dependant) if isinstance(route, APIRoute) else set()
    names = [name for name, _ in request.query_params.multi_items()]
    takes = f" (it takes {', '.join(sorted(taken))})" if taken else " (it takes none)"
    problems = [{"loc": ("query", name), "msg": f"this endpoint takes no such parameter{takes}",
                 "type": "unknown_parameter"} for name in dict.fromkeys(names) if name not in taken]
    problems += [{"loc": ("query", name), "msg": "given more than once", "type": "repeated"}
                 for name in dict.fromkeys(names) if name in taken and names.count(name) > 1]
    if problems:
        raise RequestValidationError(problems)


async def settings(request: Request) -> Settings:
    return request.app.state.settings


async def catalog(request: Request) -> Catalog:
    """The server's catalog; 404 when it has none."""
    found = request.app.state.catalog
    if found is None:
        raise StarletteHTTPException(404, "this server has no catalog")
    return found


async def optional_catalog(request: Request) -> Catalog | None:
    return request.app.state.catalog


async def searches(request: Request) -> Searches:
    """The solver pool; :class:`ReadOnly` (403) on a server that does not search."""
    return require_searches(request.app.state.searches)


def require_searches(found: Searches | None) -> Searches:
    if found is None:
        raise ReadOnly("this server does not search (--read-only): it answers from its catalog only")
    return found


async def optional_searches(request: Request) -> Searches | None:
    return request.app.state.searches


@lru_cache(maxsize=4096)
def deal_by_code(code: str) -> Deal:
    """The deal of a game code as sent (a deal never changes: cached, since the shuffle
    costs). The code is read as the CLI reads it (:meth:`GameCode.parse`: ASCII letters in
    either case, spaces around), and an error quotes it as sent. Not ``str.upper()`` first:
    that folds letters such as "ı" or "ſ" into ASCII ones, which would make a code the
    CLI refuses name another deal."""
    return Deal.from_code(code)


def deal_of(request: DealRequest) -> tuple[Deal, DealSpec]:
    """The deal a request names, and how a solver process rebuilds it."""
    if request.code is not None:
        deal = deal_by_code(request.code)
        return deal, DealSpec(str(deal.code), None, deal.variant.suits, deal.variant.rule)
    deal = Deal.from_text(request.deck or "", request.suits, request.rule)
    return deal, DealSpec(None, deal.text(), deal.variant.suits, deal.variant.rule)


async def optional_recorder(request: Request) -> Recorder | None:
    """What records finished games; None on a server that does not write."""
    return request.app.state.recorder


def require_recorder(app: Any, found: Recorder | None) -> Recorder:
    """``found``, or :class:`ReadOnly` (403) on a server that does not write (a helper of
    ``--workers`` then hands the request to the primary), 404 on one without a catalog."""
    if found is None:
        if app.state.catalog is None:
            raise StarletteHTTPException(404, "this server has no catalog, where finished games are kept")
        raise ReadOnly("this server records no games (--read-only): it only checks receipts")
    return found


async def receipt_key(request: Request) -> bytes:
    """The key that signs the receipts (every process of the server has it)."""
    return request.app.state.receipt_key


async def lines(request: Request) -> RememberedLines:
    """The winning lines the server found, remembered for the next hints (:mod:`.lines`)."""
    return request.app.state.lines


async def grader(request: Request) -> Any:
    """The background grader (:class:`~.grades.Grader`); None on a server that does not record."""
    return request.app.state.grader


__all__ = ["QUEUE_PER_SOLVER", "CatalogWriter", "Settings", "catalog", "deal_of", "grader", "known_query",
           "lines", "optional_catalog", "optional_recorder", "optional_searches", "receipt_key", "require_recorder",
           "require_searches", "routes", "searches", "settings", "worth_recording", "writer"]
