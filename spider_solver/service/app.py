"""The deal-verification service: the ASGI application (FastAPI).

``create_app(Settings(...))`` builds it; ``spider-solve serve`` runs it on uvicorn
(:mod:`.server`). Its lifespan opens the catalog and starts the solver pool
(:mod:`.searches`), and closes both; the endpoints are one router a resource
(:mod:`.routes`); every error is answered by :mod:`.errors`. The catalog is read on
the event loop's thread (lookups by key take microseconds) and written in a thread of
its own (:class:`~.state.CatalogWriter`: a write may wait for another process's lock),
long replays run in a thread, searches in the solver processes, and the verified deals
it records are graded in the background (:mod:`.grades`). ``serve --workers N`` runs it
in N processes (:mod:`.workers`).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.routing import APIRoute

from spider_solver.catalog import Catalog
from spider_solver.games import MIN_KEY_BYTES
from spider_solver.limits import MAX_BODY_BYTES
from spider_solver.service import client, docs, errors
from spider_solver.service.finished import Recorder
from spider_solver.service.grades import Grader
from spider_solver.service.lines import RememberedLines
from spider_solver.service.middleware import (
    BodyLimit,
    BodyWaits,
    Cors,
    EmptyQueryValues,
    HeadAsGet,
    InternalErrors,
    JsonBodies,
)
from spider_solver.service.models import document, responses
from spider_solver.service.routes import catalog, deals, finished, games, health, position
from spider_solver.service.searches import Searches
from spider_solver.service.state import QUEUE_PER_SOLVER, CatalogWriter, Settings, known_query, query_names, routes
from spider_solver.version import __version__

log = logging.getLogger("spider_solver.service")

def create_app(settings: Settings | None = None) -> FastAPI:
    """The service's ASGI application."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state = app.state
        state.settings = settings
        state.catalog = None if settings.catalog is None else Catalog(
            settings.catalog, create=not settings.read_only, read_only=settings.read_only)
        state.writer = None if settings.catalog is None or settings.read_only else CatalogWriter(settings.catalog)
        state.searches = None
        if not settings.read_only:
            queue = QUEUE_PER_SOLVER * settings.solvers if settings.queue is None else settings.queue
            state.searches = Searches(settings.solvers, queue, settings.max_seconds_cap)
            state.searches.start()
        state.grader = None if state.writer is None or state.searches is None else Grader(state.searches,
                                                                                          state.writer)
        state.lines = RememberedLines()
        state.receipt_key = settings.secret
        if state.receipt_key is None:  # receipts verify until the server stops (serve --secret-file keeps a key)
            state.receipt_key = secrets.token_bytes(MIN_KEY_BYTES)
            log.warning("no --secret-file: finished games' receipts are signed with a key made for this run")
        state.recorder = None if state.writer is None else Recorder(state.receipt_key, state.writer,
                                                                    settings.games_per_minute)
        try:
            yield
        finally:
            if state.grader is not None:
                await state.grader.close()
            if state.searches is not None:  # the server is stopping: searches in flight end now
                state.searches.stop()
            if state.writer is not None:
                state.writer.close()
            if state.catalog is not None:
                state.catalog.close()

    app = FastAPI(
        title="spider-solver",
        version=__version__,
        summary="Spider Solitaire deals known to be winnable, checked games, hints and where a game was lost.",
        lifespan=lifespan,
        docs_url=None,  # /docs and /redoc: served with their assets by .docs
        redoc_url=None,
        # /v1/health/ is not /v1/health: 404, not a redirect to an absolute URL that is
        # wrong behind a proxy.
        redirect_slashes=False,
        responses=responses(400, 408, 413),
        dependencies=[Depends(known_query)],  # every endpoint refuses query parameters it does not take
    )
    # The last added is the outermost: CORS headers go on every answer, the body limit's
    # 413 and 408 and the 500 of an unexpected exception included; a HEAD request's
    # answer, whichever it is, loses its body.
    app.add_middleware(InternalErrors)
    app.add_middleware(JsonBodies, paths=lambda: post_paths(app))
    # The server ends the body waits when it is told to stop (server.Server.handle_exit).
    app.state.body_waits = BodyWaits()
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, waits=app.state.body_waits)
    app.add_middleware(HeadAsGet)
    app.add_middleware(EmptyQueryValues, names=lambda: query_names(app))
    app.add_middleware(Cors, origins=list(settings.cors_origins))
    if settings.forward_to is not None:  # outermost: the primary answers these requests whole
        from spider_solver.service.forward import Forward, forwarded_paths

        app.add_middleware(Forward, path=settings.forward_to, paths=lambda: forwarded_paths(app))
    errors.install(app)
    for module in (health, finished, deals, games, position, catalog):  # finished's /v1/deals/{code}/games first
        app.include_router(module.router)
    docs.install(app)
    client.install(app)

    def openapi() -> dict[str, Any]:
        """The document says what this server enforces (models.document: its caps included)."""
        if app.openapi_schema is None:
            app.openapi_schema = document(FastAPI.openapi(app), max_nodes_cap=settings.max_nodes_cap,
                                          max_seconds_cap=settings.max_seconds_cap,
                                          max_layouts_cap=settings.max_layouts_cap)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def post_paths(app: FastAPI) -> frozenset[str]:
    """The paths of the POST endpoints, whose bodies are JSON (worked out once, from the routes)."""
    paths = getattr(app.state, "post_paths", None)
    if paths is None:
        paths = frozenset(route.path for route in routes(app.routes)
                          if isinstance(route, APIRoute) and "POST" in (route.methods or ()))
        app.state.post_paths = paths
    return paths


__all__ = ["Settings", "create_app"]
