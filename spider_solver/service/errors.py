"""Every error the service answers, in one place: ``{"error": {"type", "message"}}``.

The library's exceptions map to HTTP statuses here, as the command line maps them to
exit statuses in one place: input that is malformed or that the rules refuse is 422
(``invalid-request`` when it does not fit the schema; otherwise the exception's name,
``invalid-code``, ``invalid-deal``, ..., and ``refused-action`` with the action's index);
400 ``invalid-request`` for a body that is not JSON, 415 for one not sent as JSON
(:mod:`.middleware`, which says what and where);
404 and 405 for unknown endpoints and methods; 413 for a body over the limit, 408 for
one that does not arrive in time (:mod:`.middleware`); 403
``read-only``; 409 ``replayed-receipt`` and 422 ``invalid-receipt`` / ``receipt-mismatch``
for a receipt that does not prove its game; 429 ``too-many-games`` (with ``Retry-After``);
503 ``busy`` (with ``Retry-After``), ``stopping``, ``solver-failed`` and
``catalog-unavailable``. An unexpected exception is logged and answered 500 ``internal``
without a traceback; the tests and the API fuzzer check that none happens.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from spider_solver.catalog.filters import parse_grades
from spider_solver.errors import CatalogError, InvalidCodeError, SpiderError, quote
from spider_solver.limits import MAX_TOKEN
from spider_solver.rules import GameCode
from spider_solver.rules.replay import ReplayError
from spider_solver.service.finished import TooManyGames
from spider_solver.service.refusals import refusal
from spider_solver.service.searches import Busy, SolverFailed, Stopping

log = logging.getLogger("spider_solver.service")


class ReadOnly(Exception):
    """A request that needs a search, on a server that does not search."""


class ReceiptMismatch(Exception):
    """A receipt that proves a game of another deal or challenge than the one asked for."""


class ReplayedReceipt(Exception):
    """A receipt redeemed a second time."""


class Refused(Exception):
    """An action of a game log that the rules engine refuses."""

    def __init__(self, error: ReplayError) -> None:
        super().__init__(str(error))
        self.index, self.action = error.index, error.action


def error_response(status: int, kind: str, message: str, headers: dict[str, str] | None = None,
                   **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"type": kind, "message": message, **extra}}, status_code=status, headers=headers)


def error_type(error: Exception) -> str:
    """``InvalidCodeError`` -> ``invalid-code``."""
    name = type(error).__name__.removesuffix("Error")
    return "".join("-" + c.lower() if c.isupper() else c for c in name).lstrip("-") or "invalid-input"


#: Errors that say a value is not of one member's type, in a field that takes one of
#: several types (a log is a list or a string): noise beside the member that was meant.
_WRONG_TYPE = frozenset({"string_type", "list_type", "int_type", "float_type", "bool_type", "dict_type"})


#: pydantic's names of a union's members in an error's location (``list[constrained-str]``,
#: ``constrained-str``, ``function-after[...]``): not names the request used.
_UNION_TAG = re.compile(r"(constrained-)?(str|bytes|int|float|bool|list|dict|none|literal)(\[.*\])?|function-\w+\[.*\]")


def _where(loc: Any) -> str:
    """``body.actions.0``: the location without the names of union members."""
    return ".".join(str(part) for part in loc if isinstance(part, int) or not _UNION_TAG.fullmatch(str(part)))


#: What a value that does not match a field's pattern should look like, in words (a
#: list's item, ``body.actions.0``, is named with its index).
_PATTERN_WORDS = {
    "actions.": "an item of the list is one action, without spaces or commas (or give the log as one string)",
    "actions": f"the log's actions are separated by spaces or commas, each at most {MAX_TOKEN} characters",
    "difficulty": "expected a grade from 1 to 5 (e.g. 5) or a range of grades, low first (e.g. 1-2)",
}
#: Fields that hold a game code: a value off the pattern gets the parser's own words.
_CODES = frozenset({"code", "after"})
#: What a code field's value off the code's form is refused as.
_OFF_CODE = frozenset({"string_pattern_mismatch", "string_too_long"})


def _field(where: str) -> str:
    """``body.actions.0`` -> ``actions.``; ``query.after`` -> ``after``."""
    parts = where.split(".")
    return parts[-2] + "." if len(parts) > 1 and parts[-1].isdigit() else parts[-1]


def _code_error(item: dict[str, Any]) -> str | None:
    """The game code parser's refusal of a code field's value off the pattern or too long."""
    if item.get("type") not in _OFF_CODE or _field(_where(item.get("loc", ()))) not in _CODES:
        return None
    text = str(item.get("input"))
    try:
        GameCode.parse(text)
    except InvalidCodeError as error:
        return str(error)
    if item.get("type") == "string_too_long":  # a code padded with spaces: still no code
        return f"invalid game code {quote(text)}: longer than {MAX_TOKEN} characters"
    return None


def _message(where: str, item: dict[str, Any], fields: tuple[str, ...] = ()) -> str:
    """One problem in the project's words (:mod:`.refusals`); a validator's message as it is."""
    field = "" if where == "body" else _field(where)
    if item.get("type") == "string_pattern_mismatch":
        if field == "difficulty":
            try:
                parse_grades(str(item.get("input")))
            except SpiderError as error:  # the catalog's own words: "an empty range", ...
                return str(error)
        if field in _PATTERN_WORDS:
            return _PATTERN_WORDS[field]
        code = _code_error(item)
        if code:
            return code
    return refusal(field, item, fields) or str(item.get("msg", "invalid")).removeprefix("Value error, ")


def body_fields(request: Request | None) -> tuple[str, ...]:
    """The fields the body of the request's endpoint takes, in order (none without a body)."""
    route = request.scope.get("route") if request is not None else None
    params = getattr(getattr(route, "dependant", None), "body_params", None)
    model = params[0].field_info.annotation if params else None
    return tuple(getattr(model, "model_fields", ()))


def validation_message(error: RequestValidationError, fields: tuple[str, ...] = ()) -> str:
    """The first problems of a request, one clause each: ``body.undo_limit: expected ...; got -1``.
    ``fields``: those the body takes, named when one it does not take is given."""
    items = [(_where(item.get("loc", ())), item) for item in error.errors()]
    # In a union, the member that took the value reports deeper (body.actions.0) or
    # something else than its type; drop "not a <type>" from the members that did not.
    kept = [(where, item) for where, item in items
            if item.get("type") not in _WRONG_TYPE
            or not any(o is not item and (w.startswith(where + ".")
                                          or (w == where and o.get("type") not in _WRONG_TYPE))
                       for w, o in items)]
    clauses = list(dict.fromkeys(
        f"{where}: {message}" if where else message
        for where, message in ((w, _message(w, item, fields)) for w, item in kept)))
    more = len(clauses) - 3
    return "; ".join(clauses[:3]) + (f" (and {more} more)" if more > 0 else "")


def _validation(request: Request, error: RequestValidationError) -> JSONResponse:
    """422 ``invalid-request`` (``invalid-code`` when only a game code is wrong). A body
    not sent as JSON, or not JSON, was refused before (middleware.JsonBodies)."""
    codes = [_code_error(item) for item in error.errors()]
    if codes and all(codes):  # only a game code is wrong: as the command line says it, after the field
        said = (f"{_where(item.get('loc', ()))}: {code}" for item, code in zip(error.errors(), codes, strict=True))
        return error_response(422, "invalid-code", "; ".join(dict.fromkeys(said)))
    return error_response(422, "invalid-request", validation_message(error, body_fields(request)))


def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
    kinds = {400: "invalid-request", 404: "not-found", 405: "method-not-allowed"}
    message = str(error.detail)
    if message in ("Not Found", "Method Not Allowed"):  # the router's own words: say what was asked
        what = "no such endpoint" if error.status_code == 404 else "method not allowed"
        message = f"{what}: {request.method} {quote(request.url.path)}"
    headers = dict(getattr(error, "headers", None) or {})
    allowed = [method.strip() for method in headers.get("Allow", "").split(",") if method.strip()]
    if "GET" in allowed and "HEAD" not in allowed:
        # Every GET is answered to HEAD too (middleware.HeadAsGet), after the router.
        headers["Allow"] = ", ".join([*allowed, "HEAD"])
    return error_response(error.status_code, kinds.get(error.status_code, "http"), message, headers=headers or None)


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
    RequestValidationError: _validation,
    StarletteHTTPException: _http,
    Refused: lambda r, e: error_response(422, "refused-action", str(e), index=e.index, action=e.action),
    CatalogError: _catalog,
    SpiderError: lambda r, e: error_response(422, error_type(e), str(e)),
    ValueError: lambda r, e: error_response(422, "invalid-input", str(e)),
    ReadOnly: lambda r, e: error_response(403, "read-only", str(e)),
    ReceiptMismatch: lambda r, e: error_response(422, "receipt-mismatch", str(e)),
    ReplayedReceipt: lambda r, e: error_response(409, "replayed-receipt", str(e)),
    TooManyGames: lambda r, e: error_response(429, "too-many-games", str(e),
                                              headers={"Retry-After": str(e.retry_after)}),
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


__all__ = ["HANDLERS", "ReadOnly", "ReceiptMismatch", "Refused", "ReplayedReceipt", "error_response", "install",
           "internal_error"]
