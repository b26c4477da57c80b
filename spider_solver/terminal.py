"""Whether a stream is a terminal (progress is drawn only there), and the ``say`` that
says nothing.

This module depends on nothing, so that every layer (the engine included) can use it.
"""

from __future__ import annotations

import sys
from typing import Any


def is_terminal(stream: Any) -> bool:
    """True if ``stream`` is a terminal; False for a file, a pipe, a closed stream or none
    (``2>&-`` leaves ``sys.stderr`` None)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def write_stderr(text: str) -> None:
    """Write ``text`` to standard error as it is (a progress line redrawn with ``\\r``), at
    once; standard error is for messages, so one that cannot be written is dropped."""
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):  # none (2>&-), closed, or a full disk
        pass


def silent(message: str) -> None:
    """The ``say`` of a quiet command (``-q``): it drops every message. A compile given it
    still runs apart, so that Ctrl-C stops it at once, and draws no progress line on a
    terminal either (``engine.CompileProgress``)."""


__all__ = ["is_terminal", "silent", "write_stderr"]
