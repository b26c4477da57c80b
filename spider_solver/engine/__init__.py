"""The numba search engine: the only package that imports numba.

Files, one concern each (after Stockfish): ``types`` (vocabulary and the state
layout), ``keys`` (Zobrist tables), ``position`` (pack/unpack, do/undo), ``movegen``,
``evaluate``, ``tt`` (transposition table), ``search`` (the beam kernels),
``shorten`` (solution shortening) and ``driver`` (the Python loop that owns the
budget, the progress bar and Ctrl-C).

Kernels are compiled with ``cache=True``. numba's cache does not notice when a
kernel's callee in another file changes, so the cache directory is named after a
digest of this package's sources: any edit here gets a fresh cache. Set
``NUMBA_CACHE_DIR`` to choose the place yourself.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def _cache_dir() -> str:
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(here.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "spider-solver", "numba-" + digest.hexdigest()[:16])


if not os.environ.get("NUMBA_CACHE_DIR"):
    import numba

    numba.config.CACHE_DIR = _cache_dir()
