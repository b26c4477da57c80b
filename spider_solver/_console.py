"""The ``spider-solve`` script's entry point, and its signals from the first instant to
the last.

SIGTERM stops a command as Ctrl-C does (``interrupted``, status 130), also while the
package loads (the first tenth of a second), when a traceback would otherwise be all
the user sees. Once the command has ended, a signal while the process exits (threads
joined, exit handlers, the interpreter's teardown) no longer changes the command's
status: its work is done.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys

#: ExitStatus.INTERRUPTED, without importing the package's modules to read it.
INTERRUPTED = 130


def main() -> None:
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    # Registered first, so it runs last: Python resets the handlers it installed before
    # it tears its modules down, but leaves an ignored signal ignored.
    atexit.register(_ignore_signals)
    try:
        from spider_solver.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(INTERRUPTED)
    status = 1  # an uncaught error's status, as Python's own
    try:
        run()
    except SystemExit as end:
        status = end.code if isinstance(end.code, int) else 0 if end.code is None else 1
        raise
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda signum, frame: _exit_now(status))


def _exit_now(status: int) -> None:
    """End the process with ``status`` at once, its output flushed."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, RuntimeError):
            stream.flush()
    os._exit(status)


def _ignore_signals() -> None:
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)
