"""Every error the service answers, in one place: ``{"error": {"type", "message"}}``.

The library's exceptions map to HTTP statuses here, as the command line maps them to
exit statuses in one place: input that is malformed or that the rules refuse is 422
(``invalid-request`` when it does not fit the schema; otherwise the exception's name,
``invalid-code``, ``invalid-deal``, ..., and ``refused-action`` with the action's index);
404 and 405 for unknown endpoints and methods; 413 for a body over the limit, 408 for
one that does not arrive in time (:mod:`.middleware`); 403
``read-only``; 503 ``busy`` (with ``Retry-After``), ``stopping``, ``solver-failed`` and
``catalog-unavailable``. An unexpected exception is logged and answered 500 ``internal``
without a traceback; the tests and the API fuzzer check that none happens.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from spider_solver.errors import CatalogError, SpiderError, quote
from spider_solver.service.searches import Busy, SolverFailed, Stopping

log = logging.getLogger("spider_solver.service")


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


def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
    kinds = {400: "invalid-request", 404: "not-found", 405: "method-not-allowed"}
    message = str(error.detail)
    if message in ("Not Found", "Method Not Allowed"):  # the router's own words: say what was asked
        what = "no such endpoint" if error.status_code == 404 else "method not allowed"
        message = f"{what}: {request.method} {quote(request.url.path)}"
    return error_response(error.status_code, kinds.get(error.status_code, "http"), message,
                          headers=getattr(error, "headers", None))


def _catalog(request: Request, error: CatalogError) -> JSONResponse:
    log.error("catalog: %s", error)
    return error_response(503, "catalog-unavailable", str(error))


def internal_error(scope: Any, error: Exception) -> JSONResponse:
    """500 ``internal`` for an exception no handler took; the traceback goes to the log."""
    log.exception("unexpected error in %s %s", scope.get("method"), scope.get("path"), exc_info=error)
    return error_response(500, "internal", "internal error: the server's log has the details")


def _internal(request: Request, error: Exception) -> JSONResponse:
    return internal_error(request.scope, error)


#: Exception class -> its answer. Starlette picks the most specific class of an
#: exception (CatalogError before SpiderError before ValueError).
HANDLERS: dict[type[Exception], Callable[[Request, Any], JSONResponse]] = {
    RequestValidationError: lambda r, e: error_response(422, "invalid-request", validation_message(e)),
    StarletteHTTPException: _http,
    Refused: lambda r, e: error_response(422, "refused-action", str(e), index=e.index, action=e.action),
    CatalogError: _catalog,
    SpiderError: lambda r, e: error_response(422, error_type(e), str(e)),
    ValueError: lambda r, e: error_response(422, "invalid-input", str(e)),
    ReadOnly: lambda r, e: error_response(403, "read-only", str(e)),
    Busy: lambda r, e: error_response(503, "busy", str(e), headers={"Retry-After": str(e.retry_after)}),
    Stopping: lambda r, e: error_response(503, "stopping", "the server is shutting down; the search was ended",
                                          headers={"Connection": "close"}),
    SolverFailed: lambda r, e: error_response(503, "solver-failed", str(e), headers={"Retry-After": "1"}),
    Exception: _internal,
}


def install(app: FastAPI) -> None:
    """Register :data:`HANDLERS` on ``app``."""
    for kind, build in HANDLERS.items():
        app.add_exception_handler(kind, _async(build))


def _async(build: Callable[[Request, Any], JSONResponse]) -> Callable[[Request, Any], Awaitable[JSONResponse]]:
    async def handle(request: Request, error: Any) -> JSONResponse:
        return build(request, error)

    return handle


__all__ = ["HANDLERS", "ReadOnly", "Refused", "error_response", "install", "internal_error"]
