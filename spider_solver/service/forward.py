"""Handing a request to the searching process: ``serve --workers N``'s helpers answer
what needs no search and pass the rest, as it came, to the primary over its Unix socket
(:mod:`.workers` starts and stops the processes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spider_solver.service import state
from spider_solver.service.errors import error_response
from spider_solver.service.finished import CLIENT_HEADER


def forwarded_paths(app: Any) -> frozenset[str]:
    """The paths of the endpoints that may search or write: those that take the solver pool
    or the recorder of finished games."""
    takes = {state.searches, state.optional_searches, state.optional_recorder}

    def searches(dependant: Any) -> bool:
        return dependant.call in takes or any(searches(sub) for sub in dependant.dependencies)

    return frozenset(route.path for route in state.routes(app.routes)
                     if hasattr(route, "dependant") and searches(route.dependant))


#: The endpoints whose answer is the searching process's state (the solver pool's figures):
#: always answered there.
REPORTS_THE_POOL = frozenset({"/v1/health"})


class Forward:
    """ASGI middleware of a helper, for the endpoints that take the solver pool (``paths``):
    a request to one of :data:`REPORTS_THE_POOL` goes to the primary's Unix socket ``path``
    as it came (method, path, query, headers, body as it arrives), and its answer comes back
    as it is; a request to another is answered here when it can be without a search (a
    deal the catalog settles, a hint along its verified line), and otherwise, when this
    process finds it has no solver pool (its ``403 read-only``, never sent), it goes to the
    primary, with the body as read here. ``503 stopping`` if the primary cannot be reached."""

    def __init__(self, app: Any, *, path: str, paths: Callable[[], frozenset[str]]) -> None:
        self.app = app
        self._path = path
        self._paths = paths
        self._known: frozenset[str] | None = None
        self._client: Any = None

    def _http(self) -> Any:
        import httpx

        if self._client is None:  # made on the event loop that uses it
            self._client = httpx.AsyncClient(
                transport=httpx.AsyncHTTPTransport(uds=self._path), base_url="http://primary",
                timeout=None, limits=httpx.Limits(max_connections=None, max_keepalive_connections=32))
        return self._client

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self._known is None:
            self._known = self._paths()
        if scope["type"] != "http" or scope["path"] not in self._known:
            await self.app(scope, receive, send)
        elif scope["path"] in REPORTS_THE_POOL:
            await self._forward(scope, receive, send)
        else:
            await self._here_or_forward(scope, receive, send)

    async def _here_or_forward(self, scope: Any, receive: Any, send: Any) -> None:
        read: list[dict] = []
        held = False

        async def recording() -> Any:
            message = await receive()
            if message["type"] == "http.request":
                read.append(message)
            return message

        async def holding(message: dict) -> None:
            nonlocal held
            held = held or (message["type"] == "http.response.start" and message["status"] == 403)
            if not held:
                await send(message)

        await self.app(scope, recording, holding)
        if held:
            replayed = iter(read)

            async def again() -> Any:
                return next(replayed, None) or await receive()

            await self._forward(scope, again, send)

    async def _forward(self, scope: Any, receive: Any, send: Any) -> None:
        import httpx

        async def body() -> Any:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                yield message.get("body", b"")
                if not message.get("more_body"):
                    return

        headers = [(name, value) for name, value in scope["headers"] if name not in _HOP and name != _CLIENT]
        client = scope.get("client")
        if client:  # the rate limit of finished games counts the client, not this process
            headers.append((_CLIENT, str(client[0]).encode("latin-1")))
        sent = any(name in (b"content-length", b"transfer-encoding") for name, _ in scope["headers"])
        query = scope.get("query_string", b"").decode("latin-1")
        http = self._http()
        try:
            request = http.build_request(scope["method"], scope["path"] + (f"?{query}" if query else ""),
                                           headers=headers, content=body() if sent else None)
            answer = await http.send(request, stream=True)
        except httpx.TransportError:
            await error_response(503, "stopping", "the server is stopping")(scope, receive, send)
            return
        try:
            await send({"type": "http.response.start", "status": answer.status_code,
                        "headers": [(name, value) for name, value in answer.headers.raw
                                    if name.lower() not in _HOP_ANSWER]})
            async for chunk in answer.aiter_raw():
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b""})
        finally:
            await answer.aclose()


#: The header that names the client of a request handed to the primary (its own, from a client, is dropped).
_CLIENT = CLIENT_HEADER.encode("latin-1")
#: Headers of one connection, not of the request or answer passed on.
_HOP = frozenset({b"host", b"connection", b"keep-alive", b"transfer-encoding", b"upgrade", b"te"})
#: Those, and the one this process's server adds to every answer itself.
_HOP_ANSWER = _HOP | {b"date"}



__all__ = ["REPORTS_THE_POOL", "Forward", "forwarded_paths"]
