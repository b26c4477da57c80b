"""Holding a Ctrl-C or SIGTERM while a step that must not be cut in the middle runs.

Two steps of every command that searches cannot take a KeyboardInterrupt part way:
importing numba (a KeyboardInterrupt while one of its classes is built comes out as a
``RuntimeError`` traceback, and elsewhere in the import it was lost: the command ran
on and exited 0), and loading the compiled kernels from numba's cache (llvmlite's
callbacks lose it, or leave the process to crash: a segmentation fault was seen).
Both take about a second; :func:`held` lets them finish and then hands the signal on.

This module depends on nothing, so that every layer (the engine included) can use it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
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
    if threading.current_thread() is not threading.main_thread():
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


__all__ = ["STOPS", "held"]
