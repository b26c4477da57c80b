"""The ``spider-solve`` script's entry point: it imports the command line inside a
handler, so that Ctrl-C or SIGTERM while the package loads (the first tenth of a second)
ends the command as they do later (``interrupted``, status 130), not with a traceback."""

from __future__ import annotations

import signal
import sys

#: ExitStatus.INTERRUPTED, without importing the package's modules to read it.
INTERRUPTED = 130


def main() -> None:
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # as Ctrl-C, from the first instant
    try:
        from spider_solver.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(INTERRUPTED)
    run()
