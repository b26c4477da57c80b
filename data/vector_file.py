"""The command line the ``data/make_*_vectors.py`` scripts share: write the vector file,
or with ``--check`` compare it with what the script would write (exit 1 on a difference).

A script calls :func:`write_or_check` from its ``main`` with its file, the text it renders
and a one-line summary of what it wrote. No numpy, no numba: the rules tests load the
scripts.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path


def write_or_check(path: Path, text: str, *, script: str, description: str, argv: list[str] | None,
                   summary: Callable[[str], str]) -> int:
    """Parse ``argv`` (``--check``), then write ``text`` to ``path`` or compare it with the
    file; says what it did on stderr and returns the exit status. ``summary(text)`` is what
    a write reports after the file's name."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 on a difference")
    args = parser.parse_args(argv)
    if args.check:
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current != text:
            print(f"{path} is out of date: run python data/{script}", file=sys.stderr)
            return 1
        print(f"{path} is up to date", file=sys.stderr)
        return 0
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}: {summary(text)}", file=sys.stderr)
    return 0
