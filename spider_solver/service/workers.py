"""``serve --workers N``: N processes answer on one listening socket, one of them searches.

The process started by ``serve`` (the *primary*) runs the whole service: the solver pool
(``--solvers`` processes in all, whatever N), the catalog's writer and the background
grader, on the shared TCP socket and on a Unix socket of its own. The N - 1 others
(*helpers*, ``spawn`` processes) accept connections on the same TCP socket (the kernel
hands each new connection to one of them) and answer replays, deals and catalog reads
themselves, reading the catalog through a read-only connection (WAL: they see each write
as soon as it commits, and never wait for the writer). A request to an endpoint that may
search (those that take the solver pool: ``verify``, ``analyze``, ``health``) is answered
by the helper when it needs no search (a deal the catalog settles, a hint along its
verified line) and otherwise handed, as it came, to the primary over its Unix socket, and
its answer passed back (``health`` always: it reports the pool): so the search slots, the
sharing of identical searches, ``Retry-After``, the catalog's writes and the grading are
the primary's alone, as with one process.

SIGTERM or Ctrl-C to the primary stops the helpers too (it sends each one SIGTERM, and
each stops as a single server does; they ignore Ctrl-C, which a terminal sends to them
too), then the primary; a helper whose primary dies (``kill -9``) is
stopped by the kernel (Linux: ``PR_SET_PDEATHSIG``). With ``--read-only`` no process
searches: the N processes are alike.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import socket
import tempfile
import threading
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from spider_solver.service import state
from spider_solver.service.errors import error_response

#: Seconds a helper gets to stop after the primary (its graceful wait, and some).
HELPER_STOP_SECONDS = 15


def forwarded_paths(app: Any) -> frozenset[str]:
    """The paths of the endpoints that may search: those that take the solver pool."""
    takes = {state.searches, state.optional_searches}

    def searches(dependant: Any) -> bool:
        return dependant.call in takes or any(searches(sub) for sub in dependant.dependencies)

    def routes(found: Any) -> Any:  # FastAPI keeps an included router's routes in it (no prefix here)
        for route in found:
            inner = getattr(route, "original_router", None)
            yield from routes(inner.routes) if inner is not None else (route,)

    return frozenset(route.path for route in routes(app.routes)
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

        headers = [(name, value) for name, value in scope["headers"] if name not in _HOP]
        sent = any(name in (b"content-length", b"transfer-encoding") for name, _ in scope["headers"])
        query = scope.get("query_string", b"").decode("latin-1")
        client = self._http()
        try:
            request = client.build_request(scope["method"], scope["path"] + (f"?{query}" if query else ""),
                                           headers=headers, content=body() if sent else None)
            answer = await client.send(request, stream=True)
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


#: Headers of one connection, not of the request or answer passed on.
_HOP = frozenset({b"host", b"connection", b"keep-alive", b"transfer-encoding", b"upgrade", b"te"})
#: Those, and the one this process's server adds to every answer itself.
_HOP_ANSWER = _HOP | {b"date"}


#: The name a helper process gives itself (``/proc/PID/comm``, ``ps -o comm``).
HELPER_NAME = "spider-serve"


def _as_helper() -> None:
    """Ask the kernel to send this process SIGTERM when its parent ends, and name it
    :data:`HELPER_NAME` (Linux; elsewhere nothing)."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        libc.prctl(15, HELPER_NAME.encode())  # PR_SET_NAME


def _helper(settings: state.Settings, sock: socket.socket, log_level: str, parent: int) -> None:
    """A helper process: serve ``settings`` on ``sock`` until SIGTERM."""
    from spider_solver.service.server import serve_one

    _as_helper()
    if os.getppid() != parent:  # the primary ended before the request above
        return
    serve_one(settings, [sock], log_level=log_level, signals=(signal.SIGTERM,))


def serve_many(settings: state.Settings, sock: socket.socket, workers: int, *, log_level: str,
               run: Callable[[state.Settings, Iterable[socket.socket], Callable[[], None]], None]) -> None:
    """Serve on ``sock`` with ``workers`` processes: start the helpers, then ``run(settings,
    sockets, stop_helpers)`` the primary here; when it returns, wait for the helpers."""
    with tempfile.TemporaryDirectory(prefix="spider-serve-") as folder:
        sockets = [sock]
        helper_settings = settings
        if not settings.read_only:
            path = str(Path(folder) / "primary.sock")
            inner = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            inner.bind(path)
            inner.listen(2048)
            sockets.append(inner)
            helper_settings = replace(settings, read_only=True, forward_to=path)
        # libuv (uvloop's loop) accepts every connection waiting at once: the first process to
        # wake would take a whole burst of new connections (16 clients connecting together all
        # landed in one). One at a time, with a yield between, spreads them over the processes.
        os.environ.setdefault("UV_TCP_SINGLE_ACCEPT", "1")  # read by each process as it listens
        context = multiprocessing.get_context("spawn")
        helpers = [context.Process(target=_helper, args=(helper_settings, sock, log_level, os.getpid()),
                                   name=f"spider-serve-{i}") for i in range(1, workers)]
        # The helpers start with Ctrl-C ignored (kept across exec, and by Python): a Ctrl-C in
        # a terminal reaches the whole process group, and the primary stops them with one
        # SIGTERM; a second signal would cut their requests short.
        ignoring = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if ignoring else None
        try:
            for helper in helpers:
                helper.start()
        finally:
            if ignoring:
                signal.signal(signal.SIGINT, previous)

        def stop_helpers() -> None:
            for helper in helpers:
                if helper.pid is not None and helper.exitcode is None:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(helper.pid, signal.SIGTERM)

        try:
            run(settings, sockets, stop_helpers)
        finally:
            stop_helpers()
            for helper in helpers:
                helper.join(HELPER_STOP_SECONDS)
                if helper.exitcode is None:
                    helper.kill()
                    helper.join()
            for extra in sockets[1:]:
                extra.close()


__all__ = ["HELPER_NAME", "REPORTS_THE_POOL", "Forward", "forwarded_paths", "serve_many"]
