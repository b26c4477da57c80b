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
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from spider_solver.service import state
from spider_solver.service.server import listen_beside, serve_one, shares_port
from spider_solver.stops import ctrl_c_ignored, die_with_parent

#: Seconds a helper gets to stop after the primary (its graceful wait, and some).
HELPER_STOP_SECONDS = 15


#: The name a helper process gives itself (``/proc/PID/comm``, ``ps -o comm``).
HELPER_NAME = "spider-serve"


def _as_helper(parent: int) -> None:
    """End with the primary ``parent`` (SIGTERM, a stop like any other:
    :func:`~spider_solver.stops.die_with_parent`), and name this process
    :data:`HELPER_NAME` (Linux; elsewhere it keeps its name)."""
    die_with_parent(parent, signal.SIGTERM)
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(15, HELPER_NAME.encode())  # PR_SET_NAME


def serve(settings: state.Settings, sock: socket.socket, *, workers: int = 1, log_level: str = "warning") -> None:
    """Serve the application on the listening socket ``sock`` with ``workers`` processes
    until SIGTERM or Ctrl-C (then return)."""
    if workers <= 1:
        serve_one(settings, [sock], log_level=log_level)
        return
    serve_many(settings, sock, workers, log_level=log_level,
               run=lambda primary, sockets, stop: serve_one(primary, sockets, log_level=log_level, on_exit=stop))


def _helper(settings: state.Settings, sock: socket.socket | tuple[int, tuple], log_level: str, parent: int) -> None:
    """A helper process: serve ``settings`` on ``sock`` until SIGTERM; given the family and
    address of the primary's socket instead, on a socket of its own beside it
    (:func:`~spider_solver.service.server.listen_beside`), which ends with this process."""
    _as_helper(parent)
    if isinstance(sock, tuple):
        sock = listen_beside(*sock)
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
        # Where the port can be shared (Linux), each helper listens on a socket of its own
        # beside the primary's, and the kernel spreads new connections over them. On one shared
        # socket, libuv (uvloop's loop) accepts every connection waiting at once, so the first
        # process to wake took a whole burst (16 clients connecting together: 14 and 2, or all
        # 16 in one); there one at a time, with a yield between, spreads them a little.
        shared: socket.socket | tuple[int, tuple] = sock
        if shares_port(sock):
            shared = (sock.family, sock.getsockname())
        else:
            os.environ.setdefault("UV_TCP_SINGLE_ACCEPT", "1")  # read by each process as it listens
        context = multiprocessing.get_context("spawn")
        helpers = [context.Process(target=_helper, args=(helper_settings, shared, log_level, os.getpid()),
                                   name=f"spider-serve-{i}") for i in range(1, workers)]
        # The helpers start with Ctrl-C ignored (kept across exec, and by Python): a Ctrl-C in
        # a terminal reaches the whole process group, and the primary stops them with one
        # SIGTERM; a second signal would cut their requests short.
        with ctrl_c_ignored():
            for helper in helpers:
                helper.start()

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


__all__ = ["HELPER_NAME", "serve", "serve_many"]
