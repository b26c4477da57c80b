"""Running the service on uvicorn, and stopping it cleanly.

SIGTERM or Ctrl-C: the server stops accepting connections, the searches in flight are
ended at once (by the event loop, right after the signal handler; their requests get 503
``stopping``), and so are the waits for request bodies still arriving (503 ``stopping``
too), the other requests finish, and the catalog is closed. A
second signal stops without waiting for those requests. Every
catalog write is one transaction, so the file is intact whenever the process stops,
``kill -9`` included.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import socket
import warnings
from collections.abc import Callable, Iterable, Iterator
from types import FrameType

import uvicorn

from spider_solver.service.app import Settings, create_app
from spider_solver.stops import routed

#: Seconds the requests in flight get to finish after SIGTERM (searches end at once).
GRACEFUL_SECONDS = 5


class Server(uvicorn.Server):
    """uvicorn's server, which also ends the searches in flight when told to stop, and
    returns (exit status 0) after a clean stop instead of raising the signal again.
    ``on_exit``, if given, is called when it is told to stop (``serve --workers``: stop
    the other processes too); ``signals`` are those that tell it (a helper of ``serve
    --workers`` takes SIGTERM only: its Ctrl-C is the primary's)."""

    def __init__(self, config: uvicorn.Config, on_exit: Callable[[], None] | None = None,
                 signals: tuple[signal.Signals, ...] = (signal.SIGINT, signal.SIGTERM)) -> None:
        super().__init__(config)
        self.on_exit = on_exit
        self.signals = signals

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        with routed(self.handle_exit, self.signals):  # signals reach the main thread only
            yield

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        state = self.config.app.state  # type: ignore[union-attr]
        searches = getattr(state, "searches", None)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if searches is not None:
            # The signal may have interrupted the event loop inside the pool's submit(),
            # which holds the lock that stopping the pool takes: stopping here would wait
            # for itself for ever. The loop stops them as soon as this handler returns.
            if loop is None:
                searches.stop()
            else:
                loop.call_soon_threadsafe(searches.stop)
        body_waits = getattr(state, "body_waits", None)
        if body_waits is not None and loop is not None:
            # Requests whose body is still arriving get 503 stopping now, not a 500 when the
            # graceful wait runs out.
            loop.call_soon_threadsafe(body_waits.close)
        writer = getattr(state, "writer", None)
        if writer is not None:
            # A write waiting for another process's lock gives up within a try, and its
            # request is answered now (unrecorded, and the log says so), not after the
            # graceful wait with a 500.
            writer.stopping()
        if self.on_exit is not None:
            self.on_exit()
        super().handle_exit(sig, frame)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await super().shutdown(sockets)
        if self.force_exit:
            # A second Ctrl-C makes uvicorn skip the application's shutdown; its lifespan
            # task would then be cancelled at the loop's end, which starlette logs as a
            # traceback. Ours is quick (the solvers are killed, the catalog closed): run
            # it all the same. (After a first, complete shutdown this returns at once.)
            await self.lifespan.shutdown()


class _Cancelled(logging.Filter):
    """Leaves out uvicorn's traceback of a request it cancelled itself: at a forced stop
    (a second Ctrl-C) or when the graceful wait ran out, which it reports in a line of its
    own. A cancelled request is not an error of the application."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError))


def listen(host: str, port: int, *, share: bool = False) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: a free one); OSError if it cannot be had.
    With ``share``, other processes may listen on the same address too (:func:`listen_beside`)
    where the platform lets them (``SO_REUSEPORT``), and the kernel spreads the connections."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = _listening(family, (host.strip("[]"), port), share=share and hasattr(socket, "SO_REUSEPORT"))
    sock.set_inheritable(True)
    return sock


def _listening(family: int, address: tuple, *, share: bool) -> socket.socket:
    """A socket of ``family`` bound to ``address`` and listening, with ``SO_REUSEPORT`` if ``share``."""
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if share:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
        sock.listen(2048)
    except BaseException:
        sock.close()
        raise
    return sock


def shares_port(sock: socket.socket) -> bool:
    """Whether other processes can listen beside ``sock``: made by :func:`listen` with ``share``
    where ``SO_REUSEPORT`` exists."""
    return hasattr(socket, "SO_REUSEPORT") and bool(sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT))


def listen_beside(family: int, address: tuple) -> socket.socket:
    """Another listening socket on the ``address`` of a socket :func:`shares_port` says can be shared:
    the kernel then hands each new connection to one of the two (by a hash of its addresses),
    whichever process is busy, so that a burst of connections is not taken by one process."""
    return _listening(family, address, share=True)


def serve_one(settings: Settings, sockets: Iterable[socket.socket], *, log_level: str = "warning",
              on_exit: Callable[[], None] | None = None,
              signals: tuple[signal.Signals, ...] = (signal.SIGINT, signal.SIGTERM)) -> None:
    """Serve the application in this process on the listening ``sockets`` until SIGTERM or
    Ctrl-C (then return); ``on_exit`` and ``signals`` as :class:`Server` takes them."""
    app = create_app(settings)
    config = uvicorn.Config(app, log_level=log_level, access_log=False, timeout_graceful_shutdown=GRACEFUL_SECONDS,
                            server_header=False)
    cancelled = _Cancelled()
    logging.getLogger("uvicorn.error").addFilter(cancelled)
    try:
        Server(config, on_exit, signals).run(sockets=list(sockets))
    except KeyboardInterrupt as stop:
        # A stop before the event loop started the server (its own handlers not yet in
        # place) is a stop all the same. The coroutine that never ran is freed with the
        # traceback that holds it, here, without Python's "never awaited" warning.
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "coroutine .* was never awaited", RuntimeWarning)
            stop.__traceback__ = None
            gc.collect()
    finally:
        logging.getLogger("uvicorn.error").removeFilter(cancelled)


__all__ = ["GRACEFUL_SECONDS", "Server", "listen", "serve_one"]
