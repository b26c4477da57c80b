"""Ctrl-C and SIGTERM as a stop request: the first asks the loop to stop, the second stops now."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from spider_solver.stops import routed


class StopRequest:
    """A signal handler: the first SIGINT or SIGTERM asks the loop to stop, the second stops
    now; within :meth:`run_now` the first stops now too."""

    def __init__(self) -> None:
        self.signal: int | None = None
        self._at_once = False

    def __bool__(self) -> bool:
        return self.signal is not None

    def __call__(self, signum: int, frame: Any) -> None:
        stopping, self.signal = self.signal is not None, signum
        if stopping or self._at_once:
            raise KeyboardInterrupt

    def raise_if_asked(self) -> None:
        """KeyboardInterrupt if a stop was asked: for a step that cannot wait for the loop
        to look (a wait for the catalog's lock, a long plan: :attr:`Catalog.stop_check`)."""
        if self.signal is not None:
            raise KeyboardInterrupt

    @contextmanager
    def ending(self) -> Iterator[None]:
        """A block that a KeyboardInterrupt of this stop request ends quietly (one from
        :meth:`raise_if_asked` in a wait for the catalog's lock or in a plan, or a second
        signal), for the caller to sum up as any stop; any other one goes on."""
        try:
            yield
        except KeyboardInterrupt:
            if self.signal is None:
                raise

    def run_now(self, step: Callable[..., None], *arguments: Any) -> None:
        """Run a step with nothing in flight to wait for (the engine's compile, before any
        worker starts), unless a stop was asked already: a stop during it raises
        KeyboardInterrupt there, which ends the step as the stop it asked for, instead of
        waiting a minute for the step to end."""
        if self.signal is not None:
            return
        self._at_once = True
        try:
            step(*arguments)
        except KeyboardInterrupt:
            if self.signal is None:  # not ours: a Ctrl-C from elsewhere (tests, a debugger)
                raise
        finally:
            self._at_once = False


@contextmanager
def catch_signals(stop: StopRequest) -> Iterator[None]:
    """Route SIGINT and SIGTERM to ``stop`` while the block runs (main thread only)."""
    with routed(stop):
        yield


__all__ = ["StopRequest", "catch_signals"]
