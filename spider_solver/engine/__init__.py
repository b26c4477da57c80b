"""The numba search engine: the only package that imports numba.

Files, one concern each (after Stockfish): ``types`` (vocabulary and the state
layout), ``keys`` (Zobrist tables), ``position`` (pack/unpack, do/undo), ``movegen``,
``evaluate``, ``tt`` (transposition table), ``node`` (a parent read once, its
children scored and packed without being played), ``search`` (the beam kernels),
``shorten`` (solution shortening) and ``driver`` (the Python loop that owns the
budget, the progress bar and Ctrl-C).

Kernels are compiled with ``cache=True`` into a directory of their own, named after
a digest of this package's sources (:mod:`spider_solver.engine.cache`): numba's
cache does not notice when a kernel's callee in another file changes, so any edit
here gets a fresh cache. Importing the package changes no numba setting: other
numba code in the process caches where it would have. ``NUMBA_CACHE_DIR``, if set,
is where that directory goes.
"""

from __future__ import annotations

from pathlib import Path

from spider_solver.engine import cache as _cache

_cache.install()


def is_compiled(*, fair: bool = False) -> bool:
    """True if this engine's kernels are in the on-disk cache for this install; with
    ``fair``, the fair player's (the grader's, ``engine/fair.py``) instead.

    A fresh install compiles once (about a minute each on this 2-core machine); callers
    use this to say so before the wait. Asks numba where it caches the last kernel that
    ``warm_up`` compiles (or the fair player's), and looks for its index there.
    """
    try:
        if fair:
            from spider_solver.engine.fair import play_fair

            where = play_fair.stats.cache_path
        else:
            from spider_solver.engine.shorten import shorten_line

            where = shorten_line.stats.cache_path
    except (AttributeError, TypeError):  # NUMBA_DISABLE_JIT, or a numba without stats
        return False
    name = "fair.play_fair" if fair else "shorten.shorten_line"
    return where is not None and any(Path(where).glob(f"{name}-*.nbi"))


#: The deal every warm-up solves to a win, so that every kernel is compiled or loaded.
WARM_UP_CODE = "SP1-S1C-AAAAAAB"


def warm_up() -> None:
    """Compile (first time) or load (later) every kernel by solving a small deal to a win."""
    from spider_solver.engine.driver import run_search
    from spider_solver.rules import Deal

    run_search(Deal.from_code(WARM_UP_CODE), max_nodes=1_000_000, max_seconds=None)
