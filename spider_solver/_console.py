"""The ``spider-solve`` script's entry point, and its signals from the first instant to
the last.

SIGTERM stops a command as Ctrl-C does (``interrupted``, status 130), also while the
package loads (the first tenth of a second), when a traceback would otherwise be all
the user sees. Once the command has ended (its exit status decided: a ``SystemExit``
on its way out, or the command returned), a signal no longer changes its status: its
work is done. One handler serves both signals from start to end (a command that stops
gracefully, the batch or ``serve``, installs its own for a while and puts it back), so
no signal lands between two installs.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
from types import FrameType

#: ExitStatus.INTERRUPTED, without importing the package's modules to read it.
INTERRUPTED = 130


class _Signals:
    """SIGINT and SIGTERM: KeyboardInterrupt while the command runs; once its exit status
    is decided, end the process at once with that status."""

    def __init__(self) -> None:
        self.status: int | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.status is not None:
            _exit_now(self.status)
        ending = _exit_status_of(sys.exc_info()[1])  # the exception being handled, if any
        if ending is not None:
            _exit_now(ending)
        raise KeyboardInterrupt


def main() -> None:
    handler = _Signals()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, handler)
    # Registered first, so it runs last: Python resets the handlers it installed before
    # it tears its modules down, but leaves an ignored signal ignored.
    atexit.register(_ignore_signals)
    try:
        from spider_solver.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(INTERRUPTED)
    try:
        run()
    except BaseException as error:
        status = _exit_status_of(error)
        handler.status = 1 if status is None else status  # an uncaught error: 1, as Python's own
        raise
    handler.status = 0


def _exit_status_of(error: BaseException | None) -> int | None:
    """The status a ``SystemExit`` (or click's ``Exit``) on its way out ends the process
    with; None for anything else."""
    if isinstance(error, SystemExit):
        code = error.code
        return code if isinstance(code, int) else 0 if code is None else 1
    click = sys.modules.get("click")
    if click is not None and isinstance(error, click.exceptions.Exit):
        return int(error.exit_code)
    return None


def _exit_now(status: int) -> None:
    """End the process with ``status`` at once, its output flushed."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, RuntimeError):
            stream.flush()
    os._exit(status)


def _ignore_signals() -> None:
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)
