"""The ``spider-solve`` script's entry point: it imports the command line inside a
handler, so that Ctrl-C while the package loads (the first tenth of a second) ends the
command as Ctrl-C later does (``interrupted``, status 130), not with a traceback."""

from __future__ import annotations

import sys

#: ExitStatus.INTERRUPTED, without importing the package's modules to read it.
INTERRUPTED = 130


def main() -> None:
    try:
        from spider_solver.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(INTERRUPTED)
    run()
