"""The batch runner behind ``spider-solve --suits K --count N``.

The deals of a batch are chosen by :meth:`Catalog.plan` (resume rules in
:mod:`spider_solver.catalog`), solved in worker processes, and written to the
catalog by this process one result at a time, as each arrives.

One code path for this machine and a cluster: everything goes through a
:class:`concurrent.futures.Executor`. Locally it is a
:class:`~concurrent.futures.ProcessPoolExecutor` of ``spawn`` workers; with
``--scheduler ADDRESS`` it is ``distributed.Client(ADDRESS).get_executor()``,
and the results still come back here to be written into the local catalog. At
most ``slots`` deals are in flight at a time (twice the workers), so an
interrupted run loses at most those.

Ctrl-C and SIGTERM stop the run the same way: no more submissions, queued deals
cancelled, workers stopped, the results already received kept (and those that
finished meanwhile written), exit status 130. A second signal stops at once.
The deals not finished stay in the catalog's ``pending`` table and the next run
takes them over.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, TextIO

from spider_solver.errors import SchedulerError, SpiderError
from spider_solver.rules import MAX_DEAL, Variant, parse_rule, parse_suits
from spider_solver.solver import DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS, UNKNOWN, UNWINNABLE, VERIFIED

DEFAULT_SUITS = 4
DEFAULT_COUNT = 100
DEFAULT_RULE = "classic"
#: Seconds to wait for a Dask scheduler to answer.
SCHEDULER_TIMEOUT = 10.0

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_INTERRUPTED = 130


class InvalidOptionError(SpiderError):
    """A batch option out of range: a negative count, no workers, an empty budget."""


# --------------------------------------------------------------------------- #
# What runs in the workers
# --------------------------------------------------------------------------- #


def solve_deal(code: str, max_nodes: int, max_seconds: float | None) -> dict:
    """Solve one deal; the plain-dict form of its :class:`SolveResult`, with the
    worker's ``solver_version`` (a cluster may run another version than this machine)."""
    from spider_solver import __version__
    from spider_solver.solver import solve

    data = solve(code, max_nodes=max_nodes, max_seconds=max_seconds).to_dict()
    data.pop("attempts", None)
    data["solver_version"] = __version__
    return data


def init_worker(parent: int, warm_up: bool = True) -> None:
    """Initializer of the local worker processes.

    Ctrl-C reaches the whole process group; the workers ignore it and the parent
    stops them. A worker also dies with its parent, even after ``kill -9``.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent(parent)
    if warm_up:
        # Load the compiled engine (numba's on-disk cache) now, so that it is not
        # counted in the first real deal's seconds.
        try:
            from spider_solver.engine import warm_up as load_engine

            load_engine()
        except Exception:  # the real deals will report whatever is wrong
            pass


def _die_with_parent(parent: int) -> None:
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            PR_SET_PDEATHSIG = 1
            if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:  # the parent died before prctl
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


# --------------------------------------------------------------------------- #
# Executors
# --------------------------------------------------------------------------- #


@dataclass
class Pool:
    """An executor, how many deals to keep in flight on it, and how to stop it."""

    executor: Executor
    slots: int
    where: str
    client: Any = None

    def stop(self) -> None:
        """Cancel what is queued and stop the deals in flight now."""
        if self.client is not None:
            self.executor.shutdown(wait=False)
            self.client.close()
            return
        executor = self.executor
        terminate = getattr(executor, "terminate_workers", None)  # Python 3.14
        if terminate is not None:
            terminate()
            return
        processes = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5.0)

    def close(self) -> None:
        self.executor.shutdown(wait=True)
        if self.client is not None:
            self.client.close()


def _compile_once(say: Callable[[str], None]) -> None:
    """Compile the engine here, once, before the workers start: they then load it.

    Without this, every worker of a fresh install would compile it for itself.
    """
    from spider_solver.engine import is_compiled, warm_up

    if not is_compiled():
        say("compiling the search engine once for this install (a minute or two); later runs start at once")
        warm_up()


def local_pool(workers: int, *, warm_up: bool = True) -> Pool:
    """``workers`` fresh (``spawn``) processes: no SQLite connection or thread is inherited."""
    executor = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=init_worker,
        initargs=(os.getpid(), warm_up),
    )
    return Pool(executor, slots=2 * workers, where=f"{workers} worker process{'es' if workers != 1 else ''}")


def cluster_pool(address: str, workers: int | None) -> Pool:
    """Connect to the Dask scheduler at ``address``; SchedulerError if that fails."""
    try:
        import distributed
    except ImportError:
        raise SchedulerError(
            f"--scheduler {address!r} needs dask.distributed: pip install 'spider-solver[cluster]'"
        ) from None
    _probe(address)
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


def _probe(address: str) -> None:
    """Fail fast, with a plain message, when nothing listens at a TCP address."""
    text = address.strip()
    if "://" in text:
        protocol, _, rest = text.partition("://")
        if protocol not in ("tcp", "tls"):
            return
    else:
        rest = text
    host, colon, port = rest.rpartition(":")
    if not colon or not port.isdigit():
        raise SchedulerError(f"invalid scheduler address {address!r}: expected HOST:PORT or tcp://HOST:PORT")
    host = host.strip("[]") or "localhost"
    try:
        socket.create_connection((host, int(port)), timeout=SCHEDULER_TIMEOUT).close()
    except OSError as error:
        raise SchedulerError(f"cannot reach the scheduler {address!r}: {error.strerror or error}") from None


# --------------------------------------------------------------------------- #
# Signals
# --------------------------------------------------------------------------- #


class StopRequest:
    """A signal handler: the first SIGINT or SIGTERM asks the loop to stop, the second stops now."""

    def __init__(self) -> None:
        self.signal: int | None = None

    def __bool__(self) -> bool:
        return self.signal is not None

    def __call__(self, signum: int, frame: Any) -> None:
        if self.signal is not None:
            raise KeyboardInterrupt
        self.signal = signum


@contextmanager
def catch_signals(stop: StopRequest) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, stop) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


# --------------------------------------------------------------------------- #
# Figures
# --------------------------------------------------------------------------- #


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def format_seconds(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.1f} s"
    minutes, seconds = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min {seconds:02d} s"


@dataclass
class Report:
    """What a batch did; ``summary()`` is the table printed at the end."""

    planned: int = 0
    resumed: int = 0
    skipped: int = 0
    statuses: Counter = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    #: Results that added or improved a catalog row / that the catalog already beat.
    stored: int = 0
    kept: int = 0
    failed: list[str] = field(default_factory=list)
    #: Why the executor broke (a worker process died), if it did.
    broken: str | None = None
    interrupted: bool = False
    wall: float = 0.0

    @property
    def done(self) -> int:
        return sum(self.statuses.values())

    def add(self, data: dict, stored: bool) -> None:
        self.statuses[data["status"]] += 1
        self.seconds.append(float(data.get("seconds") or 0.0))
        if data["status"] == VERIFIED:
            self.lengths.append(int(data.get("moves") or len(data.get("solution") or ())))
        if stored:
            self.stored += 1
        else:
            self.kept += 1

    def postfix(self) -> dict:
        return {"verified": self.statuses[VERIFIED], "unwinnable": self.statuses[UNWINNABLE],
                "unknown": self.statuses[UNKNOWN]}

    def summary(self) -> str:
        done = self.done
        notes = []
        if self.resumed:
            notes.append(f"{self.resumed} resumed")
        if self.skipped:
            notes.append(f"{self.skipped} skipped, already settled")
        if done < self.planned:
            notes.append(f"{self.planned - done} not done")
        verified = self.statuses[VERIFIED]
        share = f"{100.0 * verified / done:.1f}%" if done else "-"
        if self.seconds:
            timing = (f"median {percentile(self.seconds, 0.5):.3f}  "
                      f"p90 {percentile(self.seconds, 0.9):.3f}  max {max(self.seconds):.3f}")
        else:
            timing = "-"
        length = f"median {percentile(self.lengths, 0.5):g}" if self.lengths else "-"
        rate = f"  ({done / self.wall:.2f} deals/s)" if self.wall > 0 and done else ""
        rows = [
            ("deals", f"{done}" + (f"  ({', '.join(notes)})" if notes else "")),
            ("verified", f"{verified}  ({share})"),
            ("unwinnable", f"{self.statuses[UNWINNABLE]}"),
            ("unknown", f"{self.statuses[UNKNOWN]}"),
            ("seconds per deal", timing),
            ("solution length", length),
            ("catalog", f"{self.stored} added or improved, {self.kept} kept as they were"),
            ("wall time", format_seconds(self.wall) + rate),
        ]
        if self.failed:
            rows.insert(4, ("failed", f"{len(self.failed)}  (left pending)"))
        width = max(len(name) for name, _ in rows)
        return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


# --------------------------------------------------------------------------- #
# The batch
# --------------------------------------------------------------------------- #


@dataclass(frozen=True)
class Options:
    variant: Variant
    count: int
    start: int | None
    workers: int
    catalog: str
    max_nodes: int
    max_seconds: float | None
    scheduler: str | None
    quiet: bool
    #: True if --workers was given (on a cluster it then caps the deals in flight).
    workers_given: bool = False


def batch_options(
    suits: int | str | None = None,
    count: int | None = None,
    rule: str | None = None,
    start: int | None = None,
    workers: int | None = None,
    catalog: str | os.PathLike | None = None,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    scheduler: str | None = None,
    quiet: bool = False,
) -> Options:
    """Fill in the defaults and check every option; SpiderError subclasses on bad input."""
    from spider_solver.catalog import DEFAULT_CATALOG

    variant = Variant(suits=parse_suits(DEFAULT_SUITS if suits is None else suits),
                      rule=parse_rule(DEFAULT_RULE if rule is None else rule))
    count = DEFAULT_COUNT if count is None else count
    if count < 0:
        raise InvalidOptionError(f"invalid count {count!r}: expected 0 or more deals")
    if start is not None:
        if not 0 <= start <= MAX_DEAL:
            raise InvalidOptionError(f"invalid start {start!r}: expected a deal number from 0 to {MAX_DEAL}")
        if start + count - 1 > MAX_DEAL:
            raise InvalidOptionError(
                f"invalid start {start!r} with count {count}: the last deal number is {MAX_DEAL}"
            )
    workers_given = workers is not None
    workers = (os.cpu_count() or 1) if workers is None else workers
    if workers < 1:
        raise InvalidOptionError(f"invalid workers {workers!r}: expected 1 or more")
    max_nodes = DEFAULT_MAX_NODES if max_nodes is None else max_nodes
    if max_nodes < 1:
        raise InvalidOptionError(f"invalid max-nodes {max_nodes!r}: expected 1 or more")
    if max_seconds is None:
        max_seconds = DEFAULT_MAX_SECONDS
    elif math.isnan(max_seconds) or max_seconds < 0:
        raise InvalidOptionError(f"invalid max-seconds {max_seconds!r}: expected 0 (no limit) or more")
    elif max_seconds == 0 or math.isinf(max_seconds):
        max_seconds = None
    if scheduler is not None and not scheduler.strip():
        raise InvalidOptionError(f"invalid scheduler {scheduler!r}: expected an address such as tcp://HOST:8786")
    return Options(
        variant=variant, count=count, start=start, workers=workers,
        catalog=os.fspath(DEFAULT_CATALOG if catalog is None else catalog), max_nodes=max_nodes,
        max_seconds=max_seconds, scheduler=scheduler, quiet=bool(quiet), workers_given=workers_given,
    )


def run_batch_command(**options: Any) -> int:
    """The batch as the command line runs it (options as :func:`batch_options` takes
    them); returns the exit status.

    0 every planned deal has a result, 1 some deals have none (they failed in a
    worker, or a worker process died; they stay pending), 130 interrupted. Bad
    input raises a SpiderError subclass.
    """
    return exit_status(run_batch(batch_options(**options)))


def exit_status(report: Report) -> int:
    if report.interrupted:
        return EXIT_INTERRUPTED
    return EXIT_FAILED if report.failed or report.broken or report.done < report.planned else EXIT_OK


def run_batch(options: Options, *, stream: TextIO | None = None, task: Callable[..., dict] = solve_deal) -> Report:
    """Plan, solve and record one batch; messages, bar and summary go to ``stream`` (stderr).

    ``task(code, max_nodes, max_seconds)`` runs in the workers; it must be a
    top-level function (picklable) that returns the ``to_dict()`` form of a result.
    The local workers are started with ``spawn``: a script that calls this must
    guard its entry point with ``if __name__ == "__main__":``.
    """
    from tqdm import tqdm

    from spider_solver.catalog import Catalog

    stream = sys.stderr if stream is None else stream
    began = time.monotonic()
    report = Report()
    stop = StopRequest()

    def say(text: str) -> None:
        if not options.quiet:
            tqdm.write(text, file=stream)

    def warn(text: str) -> None:
        tqdm.write(text, file=stream)

    with Catalog(options.catalog) as catalog, catch_signals(stop):
        pool = None
        finished = False
        try:
            if options.scheduler:
                pool = cluster_pool(options.scheduler, options.workers if options.workers_given else None)
            plan = catalog.plan(options.variant, options.count, start=options.start,
                                max_nodes=options.max_nodes, max_seconds=options.max_seconds)
            report.planned, report.resumed, report.skipped = len(plan.codes), plan.resumed, plan.skipped
            if not plan.codes:
                say(f"nothing to solve: {'every deal in the range is settled' if plan.skipped else 'count is 0'}")
            else:
                if pool is None:
                    if task is solve_deal:
                        _compile_once(say)
                    pool = local_pool(min(options.workers, len(plan.codes)), warm_up=task is solve_deal)
                resumed = f", {plan.resumed} of them left pending by an earlier run" if plan.resumed else ""
                say(f"solving {len(plan.codes)} deal{'s' if len(plan.codes) != 1 else ''} ({plan.codes[0]} to "
                    f"{plan.codes[-1]}{resumed}) on {pool.where} into {options.catalog}")
                bar = tqdm(total=len(plan.codes), file=stream, unit="deal", disable=options.quiet,
                           dynamic_ncols=True, smoothing=0.1, mininterval=0.5 if _isatty(stream) else 30.0)
                try:
                    _solve_all(plan.codes, pool, catalog, options, report, stop, bar, warn, task)
                finally:
                    bar.close()
            finished = not stop and report.broken is None
        finally:
            if pool is not None:
                if finished:
                    pool.close()
                else:
                    pool.stop()
    report.interrupted = bool(stop)
    report.wall = time.monotonic() - began
    if not options.quiet:
        print(report.summary(), file=stream)
    if report.interrupted:
        left = report.planned - report.done
        print(f"interrupted: {report.done} deal{'s' if report.done != 1 else ''} written, {left} left pending; "
              "run the same command again to carry on", file=stream)
    elif report.done < report.planned:
        left = report.planned - report.done
        print(f"{left} deal{'s' if left != 1 else ''} not solved, left pending for the next run", file=stream)
    return report


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _solve_all(codes, pool: Pool, catalog, options: Options, report: Report, stop: StopRequest, bar, warn,
               task: Callable[..., dict]) -> None:
    """Keep ``pool.slots`` deals in flight; write each result as it arrives."""
    todo = iter(codes)
    in_flight: dict[Future, str] = {}

    def collect(future: Future, code: str) -> None:
        if future.cancelled():
            return
        error = future.exception()
        if isinstance(error, BrokenExecutor):
            report.broken = f"{type(error).__name__}: {error}"
        elif error is not None:
            report.failed.append(code)
            warn(f"error: {code} failed in a worker: {type(error).__name__}: {error}")
        elif future.result().get("reason") == "interrupted":
            # Ctrl-C reached the search in a worker (a cluster worker's terminal): that is no
            # result at this budget, so the deal stays pending rather than stored as unknown.
            if not stop:
                warn(f"warning: the search of {code} was interrupted in its worker; it stays pending")
        else:
            data = future.result()
            report.add(data, catalog.record(data))
            bar.update(1)
            bar.set_postfix(report.postfix(), refresh=False)

    exhausted = False
    while not stop and report.broken is None:
        while not exhausted and len(in_flight) < pool.slots:
            code = next(todo, None)
            if code is None:
                exhausted = True
                break
            try:
                in_flight[pool.executor.submit(task, code, options.max_nodes, options.max_seconds)] = code
            except BrokenExecutor as error:
                report.broken = f"{type(error).__name__}: {error}"
                break
        if not in_flight or report.broken is not None:
            break
        done, _ = wait(in_flight, timeout=0.25, return_when=FIRST_COMPLETED)
        for future in done:
            collect(future, in_flight.pop(future))
    # Stopping early: keep whatever finished meanwhile; the rest stays pending.
    for future in [future for future in in_flight if future.done()]:
        collect(future, in_flight.pop(future))
    for future in in_flight:
        future.cancel()
    if report.broken is not None:
        warn(f"error: the worker pool broke ({report.broken}); stopping")
