"""The deal-verification service: the ASGI application (FastAPI) and its endpoints.

``create_app(Settings(...))`` builds it; ``spider-solve serve`` runs it on uvicorn
(:mod:`spider_solver.service.server`). Every answer is JSON; every error is
``{"error": {"type": ..., "message": ...}}`` with a 4xx status (503 when the server
is busy or stopping), never a traceback. The catalog is read and written on the
event loop's thread (SQLite lookups by key take microseconds); replays of game logs
run in a thread; searches run in the solver processes (:mod:`.searches`).
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from spider_solver.catalog import Catalog, Entry, parse_grades
from spider_solver.errors import CatalogError, SpiderError, quote
from spider_solver.export import deal_json
from spider_solver.outcomes import Status
from spider_solver.rules import CLASSIC, Deal, replay, split_actions
from spider_solver.service import models
from spider_solver.service.models import (
    MAX_ACTIONS,
    MAX_BODY_BYTES,
    MAX_PAGE,
    MAX_TOKEN,
    AnalysisResponse,
    AnalyzeRequest,
    CatalogDeal,
    CatalogPage,
    DealRequest,
    DealView,
    ErrorResponse,
    GameRequest,
    Health,
    ReplayResponse,
    VerifyRequest,
    VerifyResponse,
)
from spider_solver.service.searches import Busy, DealSpec, Searches, SolverFailed, Stopping, analyze_job, verify_job
from spider_solver.verify import DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS
from spider_solver.version import __version__

log = logging.getLogger("spider_solver.service")

#: Searches that may wait for a solver process, per process, beyond those running.
QUEUE_PER_SOLVER = 4
#: A log of at most this many actions is replayed on the event loop (about 1 ms for 150
#: here: less than handing it to a thread costs); a longer one in a thread, so that the
#: loop goes on answering meanwhile.
INLINE_ACTIONS = 300


@dataclass(frozen=True)
class Settings:
    """What ``spider-solve serve`` was told (README, "The service")."""

    #: The catalog file; None serves without one (catalog endpoints answer 404).
    catalog: str | None = None
    #: Serve the catalog and replays only: never search, never write.
    read_only: bool = False
    solvers: int = 1
    #: Searches that may wait for a process; None: QUEUE_PER_SOLVER per solver.
    queue: int | None = None
    max_nodes_cap: int = DEFAULT_MAX_NODES
    max_seconds_cap: float | None = DEFAULT_MAX_SECONDS
    cors_origins: tuple[str, ...] = field(default_factory=tuple)


class ReadOnly(Exception):
    """A request that needs a search, on a server that does not search."""


class Refused(Exception):
    """An action of a game log that the rules engine refuses."""

    def __init__(self, index: int, action: str, message: str) -> None:
        super().__init__(f"action {index + 1} (index {index}: {quote(action)}) refused: {message}")
        self.index, self.action = index, action


def error_response(status: int, kind: str, message: str, headers: dict[str, str] | None = None,
                   **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"type": kind, "message": message, **extra}}, status_code=status, headers=headers)


def error_type(error: Exception) -> str:
    """``InvalidCodeError`` -> ``invalid-code``."""
    name = type(error).__name__.removesuffix("Error")
    return "".join("-" + c.lower() if c.isupper() else c for c in name).lstrip("-") or "invalid-input"


def validation_message(error: RequestValidationError) -> str:
    """The first problems of a request, one clause each: ``body.max_nodes: Input should be ...``."""
    clauses = []
    for item in error.errors()[:3]:
        where = ".".join(str(part) for part in item.get("loc", ()))
        message = str(item.get("msg", "invalid")).removeprefix("Value error, ")
        clauses.append(f"{where}: {message}" if where else message)
    more = len(error.errors()) - len(clauses)
    return "; ".join(clauses) + (f" (and {more} more)" if more > 0 else "")


class BodyLimit:
    """Refuses a request body over ``limit`` bytes with 413 before the application reads it."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None:
            if not declared.isdigit() or len(declared) > 12:
                await error_response(400, "invalid-request", "invalid Content-Length header")(scope, receive, send)
                return
            if int(declared) > self.limit:
                await self._too_large(scope, receive, send)
                return
        body, more = bytearray(), True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message]), send)
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                await self._too_large(scope, receive, send)
                return
        await self.app(scope, _replay([{"type": "http.request", "body": bytes(body), "more_body": False}],
                                      then=receive), send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(413, "too-large", f"the request body is over the limit of {self.limit:,} bytes",
                                  headers={"Connection": "close"})
        await response(scope, receive, send)


def _replay(messages: list[Message], then: Receive | None = None) -> Receive:
    queue = list(messages)

    async def receive() -> Message:
        if queue:
            return queue.pop(0)
        if then is not None:
            return await then()
        return {"type": "http.disconnect"}

    return receive


@lru_cache(maxsize=4096)
def layout_of(code: str) -> tuple[str, bytes]:
    """A deal's canonical code and its initial layout as JSON (deals never change: cached)."""
    layout = deal_json(Deal.from_code(code))
    return layout["code"], json.dumps(layout, ensure_ascii=False, separators=(",", ":")).encode()


@lru_cache(maxsize=4096)
def deal_by_code(code: str) -> Deal:
    """The deal of a game code (a deal never changes: cached, since the shuffle costs)."""
    return Deal.from_code(code)


def deal_of(request: DealRequest) -> tuple[Deal, DealSpec]:
    if request.code is not None:
        deal = deal_by_code(request.code.strip().upper())
        return deal, DealSpec(str(deal.code), None, deal.variant.suits, deal.variant.rule)
    deal = Deal.from_text(request.deck or "", request.suits, request.rule)
    return deal, DealSpec(None, deal.text(), deal.variant.suits, deal.variant.rule)


def tokens_of(actions: list[str] | str) -> tuple[str, ...]:
    """The log's tokens (a list's items may hold several); a refused token is reported by
    the replay with its index."""
    tokens = tuple(split_actions(actions if isinstance(actions, str) else " ".join(actions)))
    if len(tokens) > MAX_ACTIONS:
        raise ValueError(f"the log has {len(tokens):,} actions, over the limit of {MAX_ACTIONS:,}")
    return tokens


def summary(entry: Entry) -> dict[str, Any]:
    return {"status": str(entry.status), "reason": str(entry.reason), "moves": entry.moves, "score": entry.score,
            "difficulty": entry.difficulty, "difficulty_raw": entry.difficulty_raw,
            "grader_version": entry.grader_version}


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers an endpoint documents, all of the one error model."""
    words = {400: "Malformed request", 403: "The server does not search (--read-only)",
             404: "Not found", 413: "Request body too large", 422: "Invalid input, or an action the rules refuse",
             503: "Busy (see Retry-After) or stopping"}
    return {status: {"model": ErrorResponse, "description": words[status]} for status in statuses}


def create_app(settings: Settings | None = None) -> FastAPI:
    """The service's ASGI application."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state = app.state
        state.catalog = None if settings.catalog is None else Catalog(
            settings.catalog, create=not settings.read_only, read_only=settings.read_only)
        state.searches = None
        if not settings.read_only:
            queue = QUEUE_PER_SOLVER * settings.solvers if settings.queue is None else settings.queue
            state.searches = Searches(settings.solvers, queue, settings.max_seconds_cap)
            state.searches.start()
        try:
            yield
        finally:
            if state.searches is not None:
                state.searches.close()
            if state.catalog is not None:
                state.catalog.close()

    app = FastAPI(
        title="spider-solver",
        version=__version__,
        summary="Spider Solitaire deals known to be winnable, checked games, hints and where a game was lost.",
        lifespan=lifespan,
        responses=responses(400, 413),
    )
    if settings.cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=list(settings.cors_origins), allow_methods=["GET", "POST"],
                           allow_headers=["Content-Type"])
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    _handlers(app)

    def catalog(request: Request) -> Catalog:
        db = request.app.state.catalog
        if db is None:
            raise StarletteHTTPException(404, "this server has no catalog")
        return db

    def searches(request: Request) -> Searches:
        found = request.app.state.searches
        if found is None:
            raise ReadOnly("this server does not search (--read-only): it answers from its catalog only")
        return found

    def budget(request: models.Budget) -> tuple[int, float | None]:
        nodes = settings.max_nodes_cap if request.max_nodes is None else min(request.max_nodes, settings.max_nodes_cap)
        cap = settings.max_seconds_cap
        seconds = request.max_seconds if cap is None else min(request.max_seconds or cap, cap)
        return nodes, seconds

    @app.get("/v1/health", response_model=Health, tags=["service"])
    async def health(request: Request) -> Any:
        """Whether the server is up, its version, and its searches in flight."""
        found: Searches | None = request.app.state.searches
        return {
            "status": "stopping" if found is not None and found.stopping else "ok",
            "version": __version__,
            "read_only": settings.read_only,
            "catalog": request.app.state.catalog is not None,
            "searches": {"solvers": 0 if found is None else found.solvers,
                         "running": 0 if found is None else found.running,
                         "capacity": 0 if found is None else found.capacity},
        }

    @app.get("/v1/deals/{code}", response_model=DealView, responses=responses(422), tags=["deals"])
    async def get_deal(request: Request, code: Annotated[str, Path(max_length=MAX_TOKEN)]) -> Any:
        """A deal's initial layout and deck (as ``spider-solve show --json``) and, if the
        catalog has the deal, its status, difficulty, solution length and score."""
        canonical, layout = layout_of(code.strip().upper())
        db = request.app.state.catalog
        entry = None if db is None else db.get(canonical)
        known = b"null" if entry is None else json.dumps(summary(entry), separators=(",", ":")).encode()
        return Response(layout[:-1] + b',"catalog":' + known + b"}", media_type="application/json")

    @app.post("/v1/verify", response_model=VerifyResponse, responses=responses(403, 422, 503), tags=["deals"])
    async def verify(request: Request, body: VerifyRequest) -> Any:
        """Whether a deal can be won, and a winning line. A deal the catalog has settled
        (verified, unwinnable, or unknown at a budget at least as large) is answered from
        it without a search; a new result for a game code is written to the catalog."""
        deal, spec = deal_of(body)
        max_nodes, max_seconds = budget(body)
        db: Catalog | None = request.app.state.catalog
        standard = spec.code is not None and not body.deal_on_empty  # what the catalog records
        entry = db.get(spec.code) if db is not None and standard and spec.code else None
        if entry is not None and (entry.status is not Status.UNKNOWN or db.settled(  # type: ignore[union-attr]
                [entry.code], max_nodes=max_nodes, max_seconds=max_seconds)):
            data = entry.to_dict() | {"source": "catalog"}
            return JSONResponse({name: data[name] for name in VerifyResponse.model_fields})
        result = await searches(request).run(("verify", spec, max_nodes, max_seconds, body.deal_on_empty),
                                             verify_job, spec, max_nodes, max_seconds, body.deal_on_empty)
        grade: dict[str, Any] = {"difficulty": None, "difficulty_raw": None, "grader_version": None}
        if db is not None and standard and not settings.read_only:
            try:
                db.record(result)
                stored = db.get(spec.code or "")
            except CatalogError as error:  # the answer stands; only the catalog misses it
                log.warning("%s", error)
                stored = None
            if stored is not None and stored.status is Status.VERIFIED and result["status"] == "verified":
                grade = {name: getattr(stored, name) for name in grade}
        data = result | grade | {"source": "search"}
        return JSONResponse({name: data[name] for name in VerifyResponse.model_fields})

    @app.post("/v1/replay", response_model=ReplayResponse, responses=responses(422), tags=["games"])
    async def replay_log(body: GameRequest) -> Any:
        """Replay a game log (moves, deals, undos) and score it as the app does. A refused
        action is a 422 error naming its index and the rule."""
        deal, _ = deal_of(body)
        replayed = await off_the_loop(_replayed, deal, body)
        return JSONResponse({"code": str(deal.code) if deal.code else None} | _replay_fields(replayed))

    @app.post("/v1/analyze", response_model=AnalysisResponse, responses=responses(403, 422, 503), tags=["games"])
    async def analyze_log(request: Request, body: AnalyzeRequest) -> Any:
        """The position a game log reaches: still winnable (with the hint and the line),
        no longer winnable (and where it was lost), or unknown. When the catalog holds a
        verified line of the deal and the position lies on it, no search runs."""
        from spider_solver.analysis import analyze, hint_from_line

        deal, spec = deal_of(body)
        tokens = tokens_of(body.actions)
        replayed = await off_the_loop(_replayed, deal, body)
        db: Catalog | None = request.app.state.catalog
        entry = db.get(spec.code) if db is not None and spec.code is not None else None
        known = entry.solution if entry is not None and entry.status is Status.VERIFIED else None
        max_nodes, max_seconds = budget(body)
        doe, limit = body.deal_on_empty, body.undo_limit

        def quick() -> dict | None:
            """The answer without a search: the log wins, or the position is on the known line."""
            if not replayed.won and (known is None or hint_from_line(
                    deal, tokens, known, deal_on_empty=doe, undo_limit=limit) is None):
                return None
            return analyze(deal, tokens, deal_on_empty=doe, undo_limit=limit, max_nodes=max_nodes,
                           max_seconds=max_seconds, known_line=known, find_lost_at=body.lost_at).to_dict()

        data = await run_in_threadpool(quick)
        if data is None:
            data = await searches(request).run(
                ("analyze", spec, tokens, body.deal_on_empty, body.undo_limit, max_nodes, max_seconds, known,
                 body.lost_at),
                analyze_job, spec, tokens, body.deal_on_empty, body.undo_limit, max_nodes, max_seconds, known,
                body.lost_at)
        data["replay"] = {"code": data["code"]} | {name: data["replay"][name] for name in _REPLAY_FIELDS}
        return JSONResponse(data)

    @app.get("/v1/catalog/deals", response_model=CatalogPage, responses=responses(404, 422), tags=["catalog"])
    async def catalog_deals(
        request: Request,
        suits: Literal["1", "2", "4"] | None = None,
        rule: models.RuleValue | None = None,
        status: models.StatusValue | None = None,
        difficulty: Annotated[str | None, Query(max_length=MAX_TOKEN, pattern=r"^[1-5](-[1-5])?$",
                                                description="A grade, 5, or a range of grades, 1-2.")] = None,
        after: Annotated[str | None, Query(max_length=MAX_TOKEN,
                                           description="The game code that ended the previous page.")] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = models.DEFAULT_PAGE,
    ) -> Any:
        """A page of catalog rows in export form, by suit count, rule and deal number, and
        the cursor of the next page."""
        rows, following = catalog(request).page(
            suits=None if suits is None else int(suits), rule=_rule(suits, rule), status=status,
            difficulty=None if difficulty is None else parse_grades(difficulty), after=after, limit=limit)
        return JSONResponse({"deals": [row.to_dict() for row in rows], "next": following})

    @app.get("/v1/catalog/random", response_model=CatalogDeal, responses=responses(404, 422), tags=["catalog"])
    async def catalog_random(
        request: Request,
        suits: Literal["1", "2", "4"] | None = None,
        rule: models.RuleValue | None = None,
        difficulty: Annotated[str | None, Query(max_length=MAX_TOKEN, pattern=r"^[1-5](-[1-5])?$",
                                                description="A grade, 5, or a range of grades, 1-2.")] = None,
    ) -> Any:
        """One verified deal, drawn uniformly among those that match: for "New game"."""
        entry = catalog(request).random_verified(
            suits=None if suits is None else int(suits), rule=_rule(suits, rule),
            difficulty=None if difficulty is None else parse_grades(difficulty),
            choose=_RANDOM.randrange)
        if entry is None:
            raise StarletteHTTPException(404, "no verified deal in the catalog matches")
        return JSONResponse(entry.to_dict())

    return app


_RANDOM = random.SystemRandom()
_REPLAY_FIELDS = ("won", "moves", "score", "runs_removed", "stock_left")


def _rule(suits: str | None, rule: str | None) -> str | None:
    """One suit is always played under the classic rule."""
    return CLASSIC if suits == "1" and rule is not None else rule


def _replay_fields(replayed: Any) -> dict[str, Any]:
    data = replayed.to_dict()
    return {name: data[name] for name in _REPLAY_FIELDS}


async def off_the_loop(replay_log: Callable[[Deal, GameRequest], Any], deal: Deal, body: GameRequest) -> Any:
    """Replay on the loop if the log is short (INLINE_ACTIONS), else in a thread."""
    size = len(body.actions) if isinstance(body.actions, list) else body.actions.count(" ") + 1
    if size <= INLINE_ACTIONS and len(body.actions) <= 8 * INLINE_ACTIONS:
        return replay_log(deal, body)
    return await run_in_threadpool(replay_log, deal, body)


def _replayed(deal: Deal, body: GameRequest) -> Any:
    """Replay the log; :class:`Refused` at its first refused action."""
    replayed = replay(deal, " ".join(tokens_of(body.actions)), deal_on_empty=body.deal_on_empty,
                      undo_limit=body.undo_limit)
    if replayed.error is not None:
        raise Refused(replayed.error.index, replayed.error.action, replayed.error.message)
    return replayed


def _handlers(app: FastAPI) -> None:
    """Every error as ``{"error": {"type", "message"}}``."""

    def handler(kind: type[Exception]) -> Callable[[Callable[..., JSONResponse]], Callable[..., Awaitable[Any]]]:
        def register(build: Callable[[Any], JSONResponse]) -> Callable[..., Awaitable[Any]]:
            async def handle(request: Request, error: Any) -> JSONResponse:
                if isinstance(error, StarletteHTTPException) and error.status_code in (404, 405) and \
                        error.detail in ("Not Found", "Method Not Allowed"):
                    what = "no such endpoint" if error.status_code == 404 else "method not allowed"
                    error.detail = f"{what}: {request.method} {quote(request.url.path)}"
                return build(error)

            app.add_exception_handler(kind, handle)
            return handle

        return register

    @handler(RequestValidationError)
    def invalid(error: RequestValidationError) -> JSONResponse:
        return error_response(422, "invalid-request", validation_message(error))

    @handler(StarletteHTTPException)
    def http(error: StarletteHTTPException) -> JSONResponse:
        kinds = {404: "not-found", 405: "method-not-allowed"}
        return error_response(error.status_code, kinds.get(error.status_code, "http"), str(error.detail),
                              headers=getattr(error, "headers", None))

    @handler(Refused)
    def refused(error: Refused) -> JSONResponse:
        return error_response(422, "refused-action", str(error), index=error.index, action=error.action)

    @handler(CatalogError)
    def catalog_failed(error: CatalogError) -> JSONResponse:
        log.error("catalog: %s", error)
        return error_response(503, "catalog-unavailable", str(error))

    @handler(SpiderError)
    def spider(error: SpiderError) -> JSONResponse:
        return error_response(422, error_type(error), str(error))

    @handler(ValueError)
    def value(error: ValueError) -> JSONResponse:
        return error_response(422, "invalid-input", str(error))

    @handler(ReadOnly)
    def read_only(error: ReadOnly) -> JSONResponse:
        return error_response(403, "read-only", str(error))

    @handler(Busy)
    def busy(error: Busy) -> JSONResponse:
        return error_response(503, "busy", str(error), headers={"Retry-After": str(error.retry_after)})

    @handler(Stopping)
    def stopping(error: Stopping) -> JSONResponse:
        return error_response(503, "stopping", "the server is shutting down; the search was ended",
                              headers={"Connection": "close"})

    @handler(SolverFailed)
    def solver_failed(error: SolverFailed) -> JSONResponse:
        return error_response(503, "solver-failed", str(error), headers={"Retry-After": "1"})

    @handler(Exception)
    def internal(error: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=error)
        return error_response(500, "internal", "internal error: the server's log has the details")


__all__ = ["Settings", "create_app"]
