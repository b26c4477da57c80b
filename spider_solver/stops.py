"""Ctrl-C and SIGTERM: the one module that installs signal handlers.

Every handler of the package is set here: the command line's (:func:`install`, SIGTERM
taken as Ctrl-C: :func:`sigterm_as_interrupt`), a loop's stop request or a server's
graceful stop while a block runs (:func:`routed`), a worker process that leaves stops to
its parent (:func:`ignore`), a step that must not be cut (:func:`held`), work as good as
done (:func:`hold_for_good`, :func:`restore`).

Holding a Ctrl-C or SIGTERM while a step that must not be cut in the middle runs. Two
steps of every command that searches cannot take a KeyboardInterrupt part way:
importing numba (a KeyboardInterrupt while one of its classes is built comes out as a
``RuntimeError`` traceback, and elsewhere in the import it was lost: the command ran
on and exited 0), and loading the compiled kernels from numba's cache (llvmlite's
callbacks lose it, or leave the process to crash: a segmentation fault was seen).
Both take about a second; :func:`held` lets them finish and then hands the signal on.

A process that must not outlive its parent (a worker, a compiling child) says so with
:func:`die_with_parent`.

This module depends on nothing, so that every layer (the engine included) can use it.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

#: The signals that stop a command: Ctrl-C, and SIGTERM, which the command line takes alike.
STOPS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def held() -> Iterator[None]:
    """Within the block, a Ctrl-C or SIGTERM waits: as the block ends, the handler that
    was in place gets it (a KeyboardInterrupt, as a rule). A second one takes effect at
    once, for a block that takes longer than it should. An ignored signal stays
    ignored; off the main thread (where handlers cannot be set) nothing is held."""
    if not on_main_thread():
        yield
        return
    caught: list[int] = []
    saved: dict[int, Any] = {}

    def put_back() -> None:
        while saved:
            signum, handler = saved.popitem()
            signal.signal(signum, handler)

    def hold(signum: int, frame: Any) -> None:
        caught.append(signum)
        if len(caught) > 1:  # asked twice: now
            put_back()
            signal.raise_signal(signum)

    try:
        for signum in STOPS:
            handler = signal.getsignal(signum)
            # An ignored signal stays ignored (the batch's workers); None: a handler set
            # outside Python, which could not be put back.
            if handler is not None and handler != signal.SIG_IGN:
                saved[signum] = handler
                signal.signal(signum, hold)
        yield
    finally:
        if saved:  # not put back already by a second signal
            put_back()
            for waiting in dict.fromkeys(caught):
                signal.raise_signal(waiting)


#: A signal handler as :func:`signal.signal` takes it.
Handler = Callable[[int, Any], Any] | int | None


def on_main_thread() -> bool:
    """Whether handlers can be set here: signals reach the main thread only."""
    return threading.current_thread() is threading.main_thread()


def install(handler: Handler, signals: Iterable[int] = STOPS) -> dict[int, Any]:
    """Set ``handler`` for ``signals`` (by default Ctrl-C and SIGTERM); returns the handlers
    it replaced, for :func:`restore`. Main thread only."""
    return {signum: signal.signal(signum, handler) for signum in signals}


def restore(previous: dict[int, Any] | None) -> None:
    """Put back the handlers :func:`install` (or :func:`hold_for_good`) replaced."""
    for signum, handler in (previous or {}).items():
        signal.signal(signum, handler)


@contextmanager
def routed(handler: Handler, signals: Iterable[int] = STOPS) -> Iterator[None]:
    """Within the block, ``signals`` (Ctrl-C and SIGTERM) go to ``handler`` (a loop's stop
    request, a server's graceful stop); off the main thread nothing is routed."""
    if not on_main_thread():
        yield
        return
    previous = install(handler, signals)
    try:
        yield
    finally:
        restore(previous)


def ignore(signals: Iterable[int] = STOPS) -> None:
    """Ignore ``signals`` from now on: a worker process whose parent stops it, the last
    moments of a process whose status is decided."""
    install(signal.SIG_IGN, signals)


@contextmanager
def ctrl_c_ignored() -> Iterator[None]:
    """Within the block Ctrl-C is ignored (kept so by the processes started there, across
    exec); off the main thread nothing changes."""
    with routed(signal.SIG_IGN, (signal.SIGINT,)):
        yield


def sigterm_as_interrupt() -> None:
    """SIGTERM stops the command as Ctrl-C does (a KeyboardInterrupt), unless it has a handler already."""
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, signal.default_int_handler)


def hold_for_good() -> dict[int, Any] | None:
    """From here on the work is as good as done (an export about to be renamed into place):
    a Ctrl-C or SIGTERM no longer stops it half way, and is dropped, as coming too late.
    Returns what :func:`restore` puts back, or None off the main thread."""
    if not on_main_thread():
        return None
    held_now: dict[int, Any] = {}
    try:
        for signum in STOPS:
            held_now[signum] = signal.signal(signum, _too_late)
    except KeyboardInterrupt:  # the other signal, between the two: put back the one held
        restore(held_now)
        raise
    return held_now


def _too_late(signum: int, frame: Any) -> None:
    """A Ctrl-C or SIGTERM that came once the work was done."""


def die_with_parent(parent: int, signum: int = signal.SIGKILL) -> None:
    """End this process when process ``parent`` ends: on Linux the kernel sends it ``signum``
    (prctl), else a watcher thread ends it."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            if libc.prctl(pr_set_pdeathsig, signum, 0, 0, 0) == 0:
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


__all__ = ["STOPS", "Handler", "ctrl_c_ignored", "die_with_parent", "held", "hold_for_good", "ignore", "install",
           "on_main_thread", "restore", "routed", "sigterm_as_interrupt"]
