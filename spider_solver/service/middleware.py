"""The request body's limits (413 before the application reads a byte too many, 408 for
a body that does not arrive in time, 503 ``stopping`` for one still arriving when the server
is told to stop), HEAD answered as GET without the body, empty query values taken as not
given, CORS, JSON bodies only (415 otherwise, and a 400 that says what does not parse), and
the 500 of an unexpected exception, answered inside the CORS middleware."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
from collections.abc import Callable, Iterator
from urllib.parse import parse_qsl, urlencode

from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from spider_solver.errors import not_utf8, plural_noun, quote
from spider_solver.service.errors import error_response, internal_error

#: Seconds a request's whole body may take to arrive (256 KiB at 13 KB a second); a
#: client that sends it slower, or stops half-way, gets 408 and the connection is closed,
#: so that slow senders cannot hold the server's connections.
BODY_SECONDS = 20.0


class BodyWaits:
    """The requests whose body is still arriving. When the server is told to stop it calls
    :meth:`close` (on the event loop), which ends those waits at once: their requests get
    ``503 stopping`` instead of holding the stop for the graceful wait and then getting
    uvicorn's plain-text 500; a body that is not there yet after that is not waited for."""

    def __init__(self) -> None:
        self.closing = False
        self._timers: set[asyncio.Timeout] = set()

    @contextlib.contextmanager
    def watch(self, timer: asyncio.Timeout) -> Iterator[None]:
        self._timers.add(timer)
        try:
            yield
        finally:
            self._timers.discard(timer)

    def close(self) -> None:
        self.closing = True
        now = asyncio.get_running_loop().time()
        for timer in self._timers:
            timer.reschedule(now)


class BodyLimit:
    """Refuses a request body over ``limit`` bytes with 413: at once when its
    Content-Length says so, else as soon as the bytes received pass the limit; one that
    has not arrived whole within ``seconds`` with 408; and one still arriving when the
    server stops (``waits``) with 503 ``stopping``."""

    def __init__(self, app: ASGIApp, limit: int, seconds: float = BODY_SECONDS,
                 waits: BodyWaits | None = None) -> None:
        self.app, self.limit, self.seconds = app, limit, seconds
        self.waits = waits or BodyWaits()

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
        try:
            async with asyncio.timeout(0 if self.waits.closing else self.seconds) as timer:
                with self.waits.watch(timer):
                    body, other = await self._read(receive)
        except TimeoutError:
            if self.waits.closing:
                response = error_response(503, "stopping", "the server is shutting down; the request body was "
                                          "still arriving", headers={"Connection": "close"})
            else:
                response = error_response(408, "request-timeout",
                                          f"the request body did not arrive within {self.seconds:g} s",
                                          headers={"Connection": "close"})
            await response(scope, receive, send)
            return
        if other is not None:  # the client went away: the application sees that
            await self.app(scope, _replay([other]), send)
        elif body is None:
            await self._too_large(scope, receive, send)
        else:
            await self.app(scope, _replay([{"type": "http.request", "body": bytes(body), "more_body": False}],
                                          then=receive), send)

    async def _read(self, receive: Receive) -> tuple[bytearray | None, Message | None]:
        """The body (None past the limit), or the message that ended it early."""
        body, more = bytearray(), True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return body, message
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                return None, None
        return body, None

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(413, "too-large", f"the request body is over the limit of {self.limit:,} bytes",
                                  headers={"Connection": "close"})
        await response(scope, receive, send)


class InternalErrors:
    """Answers an exception that no handler took with :func:`~.errors.internal_error`
    (500 ``internal``, logged), here rather than in Starlette's outermost middleware, so
    that the middlewares around this one (CORS) still see the answer. An exception after
    the answer has started cannot be answered: it is raised on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception as error:
            if started:
                raise
            await internal_error(scope, error)(scope, receive, send)


class HeadAsGet:
    """HEAD is answered as GET would be, headers only (RFC 9110, 9.3.2), as monitors and
    link checkers expect of ``/v1/health`` and the deal pages."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


class EmptyQueryValues:
    """A query parameter of the API (``names``) with an empty value (``?suits=&limit=20``)
    counts as not given, as HTML forms and many query builders send the fields left
    blank. Any other name is left for the endpoint to refuse, blank or not."""

    def __init__(self, app: ASGIApp, names: Callable[[], frozenset[str]]) -> None:
        self.app, self.names = app, names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        query = scope.get("query_string", b"") if scope["type"] == "http" else b""
        if query:
            names = self.names()
            pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True)
            if any(value == "" and name in names for name, value in pairs):
                kept = urlencode([(name, value) for name, value in pairs if value != "" or name not in names])
                scope = {**scope, "query_string": kept.encode("latin-1")}
        await self.app(scope, receive, send)


class Cors(CORSMiddleware):
    """Starlette's CORS middleware, with ``Retry-After`` readable by the page (a 503's
    advice), an accepted preflight answered ``204`` with no body, and a refused one
    ``400 cors-refused`` in JSON, like every other error, naming what was refused (the
    origin, the method, a header). Installed whether or not origins are given: with none,
    every preflight is refused so, and other answers carry no CORS header."""

    def __init__(self, app: ASGIApp, origins: list[str]) -> None:
        super().__init__(app, allow_origins=origins, allow_methods=["GET", "HEAD", "POST"],
                         allow_headers=["Content-Type"], expose_headers=["Retry-After"])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.allow_origins and scope["type"] == "http" and scope["method"] != "OPTIONS":
            await self.app(scope, receive, send)  # no origin is allowed: nothing to add
            return
        await super().__call__(scope, receive, send)

    def preflight_response(self, request_headers: Headers) -> Response:
        accepted = super().preflight_response(request_headers)
        headers = {name: value for name, value in accepted.headers.items()
                   if name.lower() not in ("content-length", "content-type")}
        if accepted.status_code != 400:
            return Response(status_code=204, headers=headers)
        origin, method = request_headers["origin"], request_headers["access-control-request-method"]
        refused = []
        if not self.is_allowed_origin(origin):
            refused.append(f"the origin {quote(origin)} is not one of the server's --cors-origin"
                           if self.allow_origins else "this server allows no other origin (no --cors-origin)")
        if method not in self.allow_methods:
            refused.append(f"the method {quote(method)} is not one of {', '.join(self.allow_methods)}")
        asked = [name.strip() for name in request_headers.get("access-control-request-headers", "").split(",")]
        other = [name for name in asked if name and name.lower() not in self.allow_headers]
        if other:
            refused.append(f"the {plural_noun(len(other), 'header')} {', '.join(quote(n) for n in other)} "
                           f"{plural_noun(len(other), 'is', 'are')} not allowed (only the CORS-safelisted ones "
                           "and Content-Type)")
        if "access-control-request-private-network" in request_headers:
            refused.append("private network access is not allowed")
        return error_response(400, "cors-refused", "the CORS preflight is refused: " + "; ".join(refused),
                              headers=headers)


class JsonBodies:
    """The body of a request to a POST endpoint (``paths``) is JSON: sent as
    ``application/json`` (a ``charset`` parameter may say UTF-8), else ``415
    unsupported-media-type``; and UTF-8 JSON text, else ``400 invalid-request`` saying what
    is wrong and where (:func:`json_problem`). Inside :class:`BodyLimit`, which has read the
    whole body and bounded it."""

    def __init__(self, app: ASGIApp, paths: Callable[[], frozenset[str]]) -> None:
        self.app, self.paths = app, paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] not in self.paths():
            await self.app(scope, receive, send)
            return
        given = Headers(scope=scope).get("content-type")
        refusal = media_type_problem(given)
        if refusal is not None:
            await error_response(415, "unsupported-media-type", refusal)(scope, receive, send)
            return
        body, more, messages = b"", True, []
        while more:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            more = message.get("more_body", False)
        problem = json_problem(body) if not more else None
        if problem is not None:
            await error_response(400, "invalid-request", f"the body is not valid JSON: {problem}")(
                scope, receive, send)
            return
        await self.app(scope, _replay(messages, then=receive), send)


def media_type_problem(given: str | None) -> str | None:
    """Why a body sent with the Content-Type ``given`` is not taken as JSON; None if it is
    (``application/json``, with at most a ``charset`` of UTF-8)."""
    expected = "send the body as JSON, with the header Content-Type: application/json"
    if given is None:
        return f"{expected} (none was given)"
    kind, *parameters = (part.strip() for part in given.split(";"))
    if kind.lower() != "application/json":
        return f"{expected} (not {quote(given)})"
    for parameter in parameters:
        name, _, value = parameter.partition("=")
        if name.strip().lower() != "charset" or value.strip().strip('"').lower() not in ("utf-8", "utf8"):
            return f"{expected}, in UTF-8 (the parameter {quote(parameter)} is not a charset of UTF-8)"
    return None


def json_problem(body: bytes) -> str | None:
    """What is wrong with a body as JSON text, with the byte offset where it is known; None
    if it parses. JSON is UTF-8 (RFC 8259): a byte sequence that is not, is refused."""
    if not body:
        return "it is empty (expected an object)"
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        return f"it is {not_utf8(error)}"
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        offset = len(text[:error.pos].encode("utf-8"))
        return f"{error.msg} at byte offset {offset} (line {error.lineno}, column {error.colno})"
    except RecursionError:
        return "it is nested too deep (arrays and objects within each other past the parser's limit)"
    except ValueError:  # an integer past Python's digit limit
        digits = sys.get_int_max_str_digits()
        long = re.search(rf"[0-9]{{{digits + 1},}}", text)
        where = "" if long is None else f" at byte offset {len(text[:long.start()].encode('utf-8'))}"
        return f"a number is too long{where} (more than {digits:,} digits)"
    return None


def _replay(messages: list[Message], then: Receive | None = None) -> Receive:
    """A ``receive`` that gives ``messages`` first, then defers to ``then``."""
    queue = list(messages)

    async def receive() -> Message:
        if queue:
            return queue.pop(0)
        if then is not None:
            return await then()
        return {"type": "http.disconnect"}

    return receive


__all__ = ["BODY_SECONDS", "BodyLimit", "Cors", "EmptyQueryValues", "HeadAsGet", "InternalErrors", "JsonBodies",
           "json_problem", "media_type_problem"]
