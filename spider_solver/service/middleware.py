"""The request body limit (413 before the application reads a byte too many), and the
500 of an unexpected exception, answered inside the CORS middleware."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from spider_solver.service.errors import error_response, internal_error


class BodyLimit:
    """Refuses a request body over ``limit`` bytes with 413: at once when its
    Content-Length says so, else as soon as the bytes received pass the limit."""

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


__all__ = ["BodyLimit", "InternalErrors"]
