"""The request body's limits (413 before the application reads a byte too many, 408 for
a body that does not arrive in time, 503 ``stopping`` for one still arriving when the server
is told to stop), HEAD answered as GET without the body, empty query values taken as not
given, CORS, and the 500 of an unexpected exception, answered inside the CORS middleware."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from urllib.parse import parse_qsl, urlencode

from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
    advice) and a refused preflight answered in JSON like every other error."""

    def __init__(self, app: ASGIApp, origins: list[str]) -> None:
        super().__init__(app, allow_origins=origins, allow_methods=["GET", "HEAD", "POST"],
                         allow_headers=["Content-Type"], expose_headers=["Retry-After"])

    def preflight_response(self, request_headers: Headers) -> Response:
        response = super().preflight_response(request_headers)
        if response.status_code != 400:
            return response
        refused = bytes(response.body).decode().removeprefix("Disallowed CORS ")  # "origin, method"
        headers = {name: value for name, value in response.headers.items()
                   if name.lower() not in ("content-length", "content-type")}
        return error_response(400, "cors-refused", f"the CORS preflight is refused (not allowed: {refused}); "
                                                   "origins are the server's --cors-origin", headers=headers)


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


__all__ = ["BODY_SECONDS", "BodyLimit", "Cors", "EmptyQueryValues", "HeadAsGet", "InternalErrors"]
