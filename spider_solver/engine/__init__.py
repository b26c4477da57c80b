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


def is_compiled() -> bool:
    """True if this engine's kernels are in the on-disk cache for this install.

    numba keeps one cache per source path, so a fresh install compiles once (90 s
    on this 2-core machine); callers use this to say so before the wait.
    """
    import numba

    root = Path(numba.config.CACHE_DIR or "")
    try:  # where numba puts the cache of this file (an internal detail; a guess is harmless)
        from numba.core.caching import _CacheLocator

        cached = root / _CacheLocator.get_suitable_cache_subpath(__file__)
    except (ImportError, AttributeError):
        return any(root.glob("*/shorten.shorten_line-*.nbi"))
    return any(cached.glob("shorten.shorten_line-*.nbi"))


#: The deal every warm-up solves to a win, so that every kernel is compiled or loaded.
WARM_UP_CODE = "SP1-S1C-AAAAAAB"


def warm_up() -> None:
    """Compile (first time) or load (later) every kernel by solving a small deal to a win."""
    from spider_solver.engine.driver import run_search
    from spider_solver.rules import Deal

    run_search(Deal.from_code(WARM_UP_CODE), max_nodes=1_000_000, max_seconds=None)
