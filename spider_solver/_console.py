"""The ``spider-solve`` script's entry point, and its signals from the first instant to
the last.

SIGTERM stops a command as Ctrl-C does (``interrupted``, status 130), also while the
package loads (the first tenth of a second), when a traceback would otherwise be all
the user sees. Once the command has ended (its exit status decided: a ``SystemExit``
on its way out, or the command returned), a signal no longer changes its status: its
work is done. One handler serves both signals from start to end (a command that stops
gracefully, the batch or ``serve``, installs its own for a while and puts it back), so
no signal lands between two installs.

Standard error carries messages only (progress, warnings, the error line): one that cannot
be written (a full disk, a closed descriptor) is dropped, and the command does its work
and ends with its own exit status (:class:`_Messages`).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import threading
from types import FrameType
from typing import Any, TextIO

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


class _Messages:
    """``sys.stderr`` for messages: the first write or flush that fails (ENOSPC, EBADF, EIO,
    a closed stream) points standard error at the null device, and it and every later
    message are dropped. Without this the failure of a progress line came out as the
    command's own error (status 2), abandoning a batch or a found line; and text left in
    the stream's buffer would make Python end with status 120 as it exits."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream
        self._dropping = stream is None

    def write(self, text: str) -> int:
        if not self._dropping:
            try:
                return self._stream.write(text)  # type: ignore[union-attr]
            except (OSError, ValueError):
                self._drop()
        return len(text)

    def flush(self) -> None:
        if not self._dropping:
            try:
                self._stream.flush()  # type: ignore[union-attr]
            except (OSError, ValueError):
                self._drop()

    def isatty(self) -> bool:
        """False once messages are dropped, or when standard error was closed at start."""
        from spider_solver.terminal import is_terminal  # not at start: the entry point loads nothing more

        return not self._dropping and is_terminal(self._stream)

    def _drop(self) -> None:
        """Drop this message and every later one; what the stream's buffer holds goes to
        the null device (it would fail again as Python exits)."""
        self._dropping = True
        stream = self._stream
        with contextlib.suppress(OSError, ValueError, AttributeError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, stream.fileno())  # type: ignore[union-attr]
            os.close(null)
            stream.flush()  # type: ignore[union-attr]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _fill_closed_descriptors() -> None:
    """Put the null device on standard descriptors closed at start (``2>&-``): Python then
    leaves ``sys.stderr`` None, but the next file opened would take the descriptor, and
    whatever writes there (a worker process's error output) would write into that file."""
    for fd, mode in ((0, os.O_RDONLY), (1, os.O_WRONLY), (2, os.O_WRONLY)):
        try:
            os.fstat(fd)
        except OSError:
            with contextlib.suppress(OSError):
                null = os.open(os.devnull, mode)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)


#: The warnings of the standard library's resource tracker (a process of its own, started
#: with the first worker pool, that writes to this standard error). A command stopped by
#: Ctrl-C or SIGTERM kills its workers, and the tracker then reports the semaphores they
#: held ("leaked semaphore objects to clean up at shutdown", or the one it found already
#: gone) after the command's own last line, which it cleans up itself: not the user's concern.
TRACKER_WARNINGS = "ignore:resource_tracker:UserWarning"


def main() -> None:
    _fill_closed_descriptors()
    sys.stderr = _Messages(sys.stderr)
    sys.warnoptions.append(TRACKER_WARNINGS)  # the tracker starts with the interpreter's -W options
    from spider_solver import stops

    handler = _Signals()
    stops.install(handler)
    # Registered first, so it runs last: Python resets the handlers it installed before
    # it tears its modules down, but leaves an ignored signal ignored.
    atexit.register(stops.ignore)
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
        if status is not None:
            _end_at_once_if_asked(status)
        raise
    handler.status = 0
    _end_at_once_if_asked(0)


def _end_at_once_if_asked(status: int) -> None:
    """End the process now, with ``status``, if the command asked for it
    (:func:`spider_solver.cli.group.end_at_once`) and it runs no other thread: the
    ``atexit`` functions run and the output is flushed, but Python's teardown of its
    modules is skipped (with the engine's kernels loaded, a fifth of a warm ``verify``:
    benchmarks/HISTORY.md, "Warm start"). If the output cannot be flushed (its reader went
    away), Python ends as it always does, and says so with its own status."""
    group = sys.modules.get("spider_solver.cli.group")
    if group is None or not getattr(group, "ending_at_once", False) or threading.active_count() > 1:
        return
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        return
    atexit._run_exitfuncs()
    _exit_now(status)


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

