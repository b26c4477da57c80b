"""Ctrl-C and SIGTERM as a stop request: the first asks the loop to stop, the second stops now."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


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
    """Route SIGINT and SIGTERM to ``stop`` while the block runs (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, stop) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


__all__ = ["StopRequest", "catch_signals"]
