"""The executors a batch runs on: local ``spawn`` processes, or a Dask cluster.

One code path for this machine and a cluster: everything goes through a
:class:`concurrent.futures.Executor`. Locally it is a
:class:`~concurrent.futures.ProcessPoolExecutor` of ``spawn`` workers; with
``--scheduler ADDRESS`` it is ``distributed.Client(ADDRESS).get_executor()``, and the
results still come back to the main process to be written into the local catalog. At
most ``slots`` deals are in flight at a time (twice the workers), so an interrupted
run loses at most those.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import socket
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from typing import Any, cast

from spider_solver.batch.events import JobFailed, Tell
from spider_solver.batch.inflight import Slots, attach
from spider_solver.batch.signals import StopRequest
from spider_solver.errors import SchedulerError, plural
from spider_solver.stops import die_with_parent, ignore

#: Seconds to wait for a Dask scheduler to answer.
SCHEDULER_TIMEOUT = 10.0
#: Seconds to wait for a stopped local worker to end.
STOP_TIMEOUT = 5.0


@dataclass
class Pool:
    """An executor, how many deals to keep in flight on it, and how to stop it."""

    executor: Executor
    slots: int
    where: str
    client: Any = None
    #: The local workers' shared progress slots (:mod:`~spider_solver.batch.inflight`), if asked for.
    meters: Slots | None = None
    #: How many local worker processes it runs (0: a Dask cluster's, which it does not count).
    size: int = 0
    #: Local worker processes: the children that were not there before the pool started.
    _before: frozenset[int] = field(default_factory=frozenset, repr=False)

    def workers(self) -> list[BaseProcess]:
        """The pool's local worker processes still alive."""
        return [child for child in multiprocessing.active_children() if child.pid not in self._before]

    def stop(self) -> None:
        """Cancel what is queued and stop the deals in flight now."""
        if self.client is not None:
            self.executor.shutdown(wait=False)
            self.client.close()
            return
        processes = self.workers()
        # The executor's manager thread, which shutdown(wait=False) lets go on: it notices the
        # workers killed, then closes its wake-up pipe. Python 3.11's exit writes to that pipe
        # without the lock its close holds, and a close at that moment prints an OSError's
        # traceback (Bad file descriptor) on a stopped command's way out; so stop returns
        # once the thread has ended.
        manager = getattr(self.executor, "_executor_manager_thread", None)
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.kill()  # they ignore SIGTERM (init_worker); a search holds nothing to clean up
        for process in processes:
            process.join(STOP_TIMEOUT)
        if manager is not None:
            manager.join(STOP_TIMEOUT)

    def end(self, *, clean: bool) -> None:
        """:meth:`close` after a run that ended cleanly (no stop, no broken pool, no
        error), else :meth:`stop`."""
        if clean:
            self.close()
        else:
            self.stop()

    def close(self) -> None:
        self.executor.shutdown(wait=True)
        if self.client is not None:
            self.client.close()


def job_result(future: Future, code: str, failed: list[str], tell: Tell) -> Any:
    """What a worker's job for ``code`` returned; or None if it raised, once ``code`` is
    added to ``failed`` and the error told (:class:`~spider_solver.batch.events.JobFailed`)."""
    error = future.exception()
    if error is not None:
        failed.append(code)
        tell(JobFailed(code, f"{type(error).__name__}: {error}"))
        return None
    return future.result()


#: What ``jobs`` of :func:`keep_busy` yields when it has no job now but may have one
#: once a job in flight has ended (and been collected).
LATER = None


def keep_busy(executor: Executor, slots: int, jobs: Iterator[tuple[Callable[..., Any], tuple, Any] | None],
              collect: Callable[[Future, Any], None], stop: StopRequest,
              tick: Callable[[], None] | None = None) -> str | None:
    """Run ``jobs`` (function, arguments, key) on ``executor`` with at most ``slots`` in
    flight, and hand each one that ends, with its key, to ``collect`` as it ends, until
    the jobs run out, ``stop`` is set or the executor breaks; ``jobs`` may yield
    :data:`LATER` while it waits for a job in flight (``collect`` may give it more work).
    Stopping early, what ended
    meanwhile is collected and the rest cancelled (a batch's deals stay pending).
    ``collect`` never sees a cancelled future or a broken pool's. Returns why the
    executor broke (a worker process died), or None: after a stop request the pool is
    being stopped, and that is no breakage. ``tick``, if given, is called between waits,
    at least every quarter of a second (to redraw a status line)."""
    in_flight: dict[Future, Any] = {}
    broken: str | None = None

    def finish(future: Future) -> None:
        nonlocal broken
        key = in_flight.pop(future)
        if future.cancelled():
            return
        error = future.exception()
        if isinstance(error, BrokenExecutor):
            if not stop:
                broken = f"{type(error).__name__}: {error}"
            return
        collect(future, key)

    exhausted = False
    end = object()
    while not stop and broken is None:
        while not exhausted and len(in_flight) < slots:
            job = next(jobs, end)
            if job is end or (job is LATER and not in_flight):  # nothing in flight could give it more
                exhausted = True
                break
            if job is LATER:
                break
            function, arguments, key = cast(tuple[Callable[..., Any], tuple, Any], job)
            try:
                in_flight[executor.submit(function, *arguments)] = key
            except BrokenExecutor as error:
                broken = f"{type(error).__name__}: {error}"
                break
        if not in_flight or broken is not None:
            break
        done, _ = wait(in_flight, timeout=0.25, return_when=FIRST_COMPLETED)
        for future in done:
            finish(future)
        if tick is not None:
            tick()
    for future in [future for future in in_flight if future.done()]:
        finish(future)
    for future in in_flight:
        future.cancel()
    return broken


def init_worker(parent: int, warm: Callable[[], None] | None, meters: Slots | None = None) -> None:
    """Initializer of the local worker processes.

    Ctrl-C reaches the whole process group, and a service manager's SIGTERM often
    does too (systemd's whole control group); the workers ignore both, the parent
    stops them (:meth:`Pool.stop`), so a stop is never mistaken for a worker that
    died. A worker also dies with its parent, even after ``kill -9``. With ``meters``
    it claims one of the shared progress slots.
    """
    ignore()
    die_with_parent(parent)
    attach(meters)
    if warm is not None:
        warm()


def local_pool(workers: int, *, warm: Callable[[], None] | None = None, meters: bool = False) -> Pool:
    """``workers`` fresh (``spawn``) processes: no SQLite connection or thread is inherited.
    With ``meters``, each worker reports what it does in a shared slot (``Pool.meters``)."""
    before = frozenset(child.pid for child in multiprocessing.active_children() if child.pid is not None)
    context = multiprocessing.get_context("spawn")
    shared = Slots(workers, context) if meters else None
    executor = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=init_worker,
        initargs=(os.getpid(), warm, shared),
    )
    return Pool(executor, slots=2 * workers, where=plural(workers, "worker process", "worker processes"),
                meters=shared, size=workers, _before=before)


def cluster_pool(address: str, workers: int | None) -> Pool:
    """Connect to the Dask scheduler at ``address`` (which :func:`probe` has checked, and
    found dask.distributed installed); SchedulerError if that fails."""
    import distributed
    try:
        client = distributed.Client(address, timeout=SCHEDULER_TIMEOUT, set_as_default=False)
    except (OSError, ValueError, TimeoutError) as error:
        raise SchedulerError(f"cannot reach the scheduler {address!r}: {error}") from None
    try:
        threads = sum(client.nthreads().values())
    except Exception:
        threads = 0
    slots = 2 * workers if workers is not None else max(4, 2 * threads)
    return Pool(client.get_executor(pure=False), slots=slots, where=f"the Dask cluster at {address}", client=client)


#: The schemes of a Dask scheduler's address.
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "ucxx")
#: Seconds a scheduler has to greet a new connection (it does at once, unless its event
#: loop is busy): as long as the Dask client itself waits to connect.
GREETING_SECONDS = SCHEDULER_TIMEOUT
#: A Dask message starts with its length in 8 bytes; a scheduler's greeting (its
#: versions and options) is a few hundred bytes, far below this.
MAX_GREETING_BYTES = 1 << 20


def probe(address: str) -> None:
    """Fail fast, with a plain message, when dask.distributed is not installed (said
    first: whatever the address, the batch could not use it), the address is not one of
    a Dask scheduler, nothing listens there, or what listens is not a Dask scheduler (a
    dashboard's HTTP port says nothing; another server says something that is not a Dask
    message): the Dask client would wait on the first, and read the second as a message
    of exabytes."""
    try:
        installed = importlib.util.find_spec("distributed") is not None
    except ValueError:  # a module of that name already loaded without a spec
        installed = "distributed" in sys.modules
    if not installed:
        raise SchedulerError(f"--scheduler {address[:80]!r} needs dask.distributed: "
                             "pip install 'spider-solver[cluster]'")
    text = address.strip()
    if "://" in text:
        protocol, _, rest = text.partition("://")
        if protocol not in SCHEMES:
            raise SchedulerError(f"invalid scheduler address {address[:80]!r}: unknown scheme {protocol[:20]!r}; "
                                 "a Dask scheduler's address is tcp://HOST:PORT (or tls://, ws://, wss://, ucx://)")
        if protocol != "tcp":
            return  # encrypted or not TCP: the client's own checks
    else:
        rest = text
    host, colon, port = rest.rpartition(":")
    if not colon or not (port.isascii() and port.isdigit() and len(port) <= 5) or not 0 < int(port) < 65536:
        raise SchedulerError(f"invalid scheduler address {address[:80]!r}: expected HOST:PORT or tcp://HOST:PORT")
    host = host.strip("[]") or "localhost"
    try:
        with socket.create_connection((host, int(port)), timeout=SCHEDULER_TIMEOUT) as connection:
            greeting = _first_bytes(connection, 8, GREETING_SECONDS)
    except (OSError, UnicodeError, ValueError) as error:
        why = getattr(error, "strerror", None) or error
        raise SchedulerError(f"cannot reach the scheduler {address[:80]!r}: {why}") from None
    if len(greeting) < 8:
        heard = (f"did not greet within {GREETING_SECONDS:g} s (the dashboard's port? a scheduler listens on "
                 "8786 unless told otherwise; one with TLS is tls://HOST:PORT)") if not greeting \
            else f"said only {greeting!r}"
        raise SchedulerError(f"{address[:80]!r} is not a Dask scheduler: it {heard}")
    if not 0 < int.from_bytes(greeting, "little") <= MAX_GREETING_BYTES:
        raise SchedulerError(f"{address[:80]!r} is not a Dask scheduler: it began {greeting!r}")


def _first_bytes(connection: socket.socket, count: int, seconds: float) -> bytes:
    """Up to ``count`` bytes the peer sends first, within ``seconds``."""
    connection.settimeout(seconds)
    deadline = time.monotonic() + seconds
    data = b""
    try:
        while len(data) < count and time.monotonic() < deadline:
            connection.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = connection.recv(count - len(data))
            if not chunk:
                break
            data += chunk
    except TimeoutError:
        pass
    return data


__all__ = ["LATER", "Pool", "cluster_pool", "init_worker", "job_result", "keep_busy", "local_pool",
           "probe"]
