"""The numba search engine: the only package that imports numba.

Files, one concern each (after Stockfish): ``types`` (vocabulary and the state
layout), ``keys`` (Zobrist tables), ``position`` (pack/unpack, do/undo), ``movegen``,
``evaluate``, ``tt`` (transposition table), ``node`` (a parent read once, its
children scored and packed without being played), ``search`` (the beam kernels),
``shorten`` (solution shortening), ``beam`` (one beam search and its outcome),
``schedule`` (the widening schedule), ``rephase`` (a won line's phases searched again)
and ``driver`` (the Python loop that runs a schedule within a
:class:`~spider_solver.budget.Budget`, with the progress bar and Ctrl-C).

Kernels are compiled with ``cache=True`` into a directory of their own, named after
a digest of this package's sources (:mod:`spider_solver.engine.cache`): numba's
cache does not notice when a kernel's callee in another file changes, so any edit
here gets a fresh cache. Importing the package changes no numba setting: other
numba code in the process caches where it would have. ``NUMBA_CACHE_DIR``, if set,
is where that directory goes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from spider_solver.stops import held

with held():  # the first import of numba (engine.cache imports it), which a Ctrl-C must not cut
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


def load_kernels(warm: Callable[[], None], *, fair: bool = False, say: Callable[[str], None] | None = None,
                 message: str = "", here: bool = True) -> None:
    """Compile the kernels ``warm`` runs (the engine's, or the fair player's with ``fair``)
    on the first use of an install, or load them from numba's cache. With ``say`` (a
    command a person waits on), a compile is announced with ``message`` and runs in a
    child process, so that a Ctrl-C stops it at once (:func:`compile_apart`).
    ``here=False`` only sees that the cache holds them, for a process whose workers run
    them.

    Loading cached kernels (about a second) holds a Ctrl-C or SIGTERM until it is done
    (:func:`spider_solver.stops.held`): numba loads them through llvmlite's callbacks,
    where a KeyboardInterrupt is lost (the command ran on and exited 0) or leaves the
    process to crash (seen: a segmentation fault, status 139). A compile is not held.

    With ``NUMBA_DISABLE_JIT`` set the kernels cannot run at all (their LLVM intrinsics
    have no Python version): :class:`~spider_solver.errors.EngineUnavailableError`
    says so before a compile is announced or started."""
    _cache.require_jit()
    with held():
        compiled = is_compiled(fair=fair)
    if not compiled and say is not None:
        say(message)
        compiled = compile_apart(warm)
    if not compiled:  # a child that failed, or no child: compile here, where an error shows as itself
        warm()
    elif here:
        with held():
            warm()


def compile_apart(target: Callable[[], None]) -> bool:
    """Run ``target`` (a top-level function that compiles kernels into the on-disk
    cache: :func:`warm_up`, the grader's warm-up) in a child process, so that a Ctrl-C
    or SIGTERM meanwhile stops the command at once: numba's compile, a minute of it,
    cannot be interrupted in place (the KeyboardInterrupt can land in an LLVM callback,
    where it is lost and leaves the process's kernels broken).

    The child ignores Ctrl-C; a KeyboardInterrupt in this process while it waits
    terminates the child and is raised again. Returns True if the child compiled, False
    if it failed or could not start: the caller then compiles in place, where an error
    shows as itself.
    """
    import multiprocessing

    child = multiprocessing.get_context("spawn").Process(target=_compile_in_child, args=(target,), daemon=True)
    try:
        child.start()
        while child.is_alive():
            child.join(0.1)
    except OSError:  # no process to be had (a sandbox's limit): compile in place, uninterruptible
        return False
    except KeyboardInterrupt:
        if child.pid is not None:
            child.terminate()
            child.join()
        raise
    return child.exitcode == 0


def _compile_in_child(target: Callable[[], None]) -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C reaches the whole terminal's group: the parent decides
    target()


def warm_up() -> None:
    """Compile (first time) or load (later) every kernel by solving a small deal to a win.

    A Ctrl-C meanwhile (most likely during the compile, which takes a minute) raises
    KeyboardInterrupt here: the search takes it as the end of its own run, and the
    caller must not carry on as if the engine were ready."""
    from spider_solver.budget import Budget
    from spider_solver.engine.driver import run_search
    from spider_solver.outcomes import Reason
    from spider_solver.rules import Deal

    result = run_search(Deal.from_code(WARM_UP_CODE), budget=Budget(1_000_000))
    if result.reason == Reason.INTERRUPTED:
        raise KeyboardInterrupt
