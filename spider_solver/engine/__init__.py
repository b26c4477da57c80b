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
here gets a fresh cache (but an edit to this loader or to ``cache``: they hold no
kernel). Importing the package changes no numba setting: other numba code in the
process caches where it would have. ``NUMBA_CACHE_DIR``, if set,
is where that directory goes.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from spider_solver.stops import held
from spider_solver.terminal import is_terminal, silent, write_stderr

with held():  # the first import of numba (engine.cache imports it), which a Ctrl-C must not cut
    from spider_solver.engine import cache as _cache

    _cache.install()


def is_compiled(*, fair: bool = False, hint: bool = False) -> bool:
    """True if this engine's kernels are in the on-disk cache for this install; with
    ``fair``, the fair player's (the grader's, ``engine/fair.py``) instead; with ``hint``,
    the fair hint's (``engine/fair_sample.py``).

    A fresh install compiles once (:data:`ENGINE_KERNELS`, :data:`FAIR_KERNELS`,
    :data:`HINT_KERNELS`); callers use this to say so before the wait. Asks numba where it
    caches the last kernel that ``warm_up`` compiles (or the fair player's, or the fair
    hint's), and looks for its index there.
    """
    try:
        if hint:
            from spider_solver.engine.fair_sample import rollouts

            where = rollouts.stats.cache_path
        elif fair:
            from spider_solver.engine.fair import play_fair

            where = play_fair.stats.cache_path
        else:
            from spider_solver.engine.shorten import shorten_line

            where = shorten_line.stats.cache_path
    except (AttributeError, TypeError):  # NUMBA_DISABLE_JIT, or a numba without stats
        return False
    name = "fair_sample.rollouts" if hint else "fair.play_fair" if fair else "shorten.shorten_line"
    return where is not None and any(Path(where).glob(f"{name}-*.nbi"))


#: The deal every warm-up solves to a win, so that every kernel is compiled or loaded.
WARM_UP_CODE = "SP1-S1C-AAAAAAB"
#: Kernels (numba compiles: one per function and signature) that :func:`warm_up` makes
#: in an empty cache, that the grader's warm-up makes (``fair=True``), and that the fair
#: hint's makes (``hint=True``): the "m" of the progress "kernel n of m".
#: tests/test_cli_verify.py checks them on a fresh compile.
ENGINE_KERNELS = 105
FAIR_KERNELS = 25
HINT_KERNELS = 62


@dataclass(frozen=True)
class Stage:
    """One set of kernels to compile or load: the engine's, or the fair player's."""

    warm: Callable[[], None]  # a top-level function that runs every kernel of the set
    fair: bool  # is_compiled's flag: which set
    name: str  # what is compiling, for the progress line: "the search engine"
    message: str  # what a command says before it compiles them
    kernels: int  # how many compiles a fresh cache makes (ENGINE_KERNELS, FAIR_KERNELS, HINT_KERNELS)
    hint: bool = False  # is_compiled's other flag: the fair hint's set (then ``fair`` is False)

    def which(self) -> dict[str, bool]:
        """The keyword of :func:`is_compiled` and :func:`entry_kernels` that names this set."""
        return {"hint": True} if self.hint else {"fair": self.fair}


def load_kernels(warm: Callable[[], None], *, fair: bool = False, say: Callable[[str], None] | None = None,
                 message: str = "", here: bool = True, name: str = "the kernels", kernels: int = 0) -> None:
    """Compile the kernels ``warm`` runs (the engine's, or the fair player's with ``fair``)
    on the first use of an install, or load them from numba's cache: :func:`load_stages`
    with one :class:`Stage`."""
    load_stages([Stage(warm, fair, name, message, kernels)], say=say, here=here)


def load_stages(stages: Sequence[Stage], *, say: Callable[[str], None] | None = None, here: bool = True) -> None:
    """Compile the kernels of ``stages`` on the first use of an install, or load them from
    numba's cache. With ``say`` (a command a person waits on), a compile is announced
    with each stage's ``message`` and runs in child processes, so that a Ctrl-C stops it
    at once (:func:`compile_apart`); the stages compile side by side when the machine has
    a core for each, and their progress (kernel n of m, seconds) is shown on standard
    error: one line refreshed every second on a terminal, else a line as each stage
    starts, the same line every ``CompileProgress.LOG_EVERY`` seconds and one as it ends
    (:class:`CompileProgress`); with ``say`` :func:`~spider_solver.terminal.silent`,
    none. ``here=False`` only sees that the cache holds them, for a process whose
    workers run them.

    Loading cached kernels (a few tenths of a second) holds a Ctrl-C or SIGTERM until it
    is done (:func:`spider_solver.stops.held`): numba loads them through llvmlite's
    callbacks, where a KeyboardInterrupt is lost (the command ran on and exited 0) or
    leaves the process to crash (seen: a segmentation fault, status 139). A compile is
    not held.

    With ``NUMBA_DISABLE_JIT`` set the kernels cannot run at all (their LLVM intrinsics
    have no Python version): :class:`~spider_solver.errors.EngineUnavailableError`
    says so before a compile is announced or started."""
    _cache.require_jit()
    with held():
        compiled = [is_compiled(**stage.which()) for stage in stages]
    pending = [stage for stage, done in zip(stages, compiled, strict=True) if not done]
    if pending and say is not None:
        for stage in pending:
            say(stage.message)
        together = (os.cpu_count() or 1) >= len(pending)
        progress = CompileProgress(pending, say)
        if together:
            results = _compile_children([stage.warm for stage in pending], progress)
        else:
            results = [_compile_children([stage.warm], progress, first=i)[0] for i, stage in enumerate(pending)]
        outcome = dict(zip((id(stage) for stage in pending), results, strict=True))
        compiled = [was or outcome.get(id(stage), False) for stage, was in zip(stages, compiled, strict=True)]
    for stage, done in zip(stages, compiled, strict=True):
        if not done:  # a child that failed, or no child: compile here, where an error shows as itself
            stage.warm()
        elif here:
            with held():
                if not _cache.load_cached(entry_kernels(**stage.which())):
                    stage.warm()


def entry_kernels(*, fair: bool = False, hint: bool = False) -> list:
    """The kernels that a search (or with ``fair``, the grader; with ``hint``, a fair hint)
    calls from Python: loading them from the cache loads every kernel it runs, since a
    cached kernel holds the code of the kernels it calls. tests/engine/test_cache.py checks
    that a search and a grade load no other."""
    from spider_solver.engine import position, shorten, tt, types

    kernels = [position.new_position, position.pack, position.key_from_scratch, types.decode_move]
    if hint:
        from spider_solver.engine import fair_sample

        return [*kernels, fair_sample.decision, fair_sample.alternatives, fair_sample.rollouts]
    if fair:
        from spider_solver.engine import fair as player

        return [*kernels, player.play_fair]
    from spider_solver.engine import search

    return [*kernels, position.unpack, search.step_level, tt.tt_store, tt.tt_store_all, shorten.line_hit,
            shorten.shorten_line, shorten._path, shorten._index]


class CompileProgress:
    """The progress of the compiles of ``stages`` on standard error: on a terminal, one
    line redrawn at least every second ("compiling the search engine: kernel 12 of 50,
    23 s"); elsewhere (a pipe, a log), through ``say``, the same line every
    ``LOG_EVERY`` seconds and one line as each stage ends, so that a log never sits
    silent for the minutes a first compile takes."""

    #: Seconds between two redraws of the terminal line.
    EVERY = 1.0
    #: Seconds between two progress lines in a pipe or a log.
    LOG_EVERY = 20.0

    def __init__(self, stages: Sequence[Stage], say: Callable[[str], None]) -> None:
        self.stages = list(stages)
        self.say = say
        self.done = [0] * len(self.stages)
        self.ended = [False] * len(self.stages)
        self.began = time.monotonic()
        self.drawn = 0.0
        self.terminal = is_terminal(sys.stderr) and say is not silent

    def compiled(self, index: int) -> None:
        """Stage ``index`` compiled one more kernel."""
        self.done[index] += 1

    def end(self, index: int) -> None:
        """Stage ``index``'s child ended."""
        if self.ended[index]:
            return
        self.ended[index] = True
        stage = self.stages[index]
        if not self.terminal:
            self.say(f"compiled {stage.name}: {self.done[index]} kernels in {self.elapsed():.0f} s")
        elif all(self.ended):
            self.draw(force=True)
            write_stderr("\n")

    def elapsed(self) -> float:
        return time.monotonic() - self.began

    def line(self) -> str:
        parts = [f"{stage.name}: kernel {min(n, stage.kernels) if stage.kernels else n} of {stage.kernels or '?'}"
                 + (" (done)" if ended else "")
                 for stage, n, ended in zip(self.stages, self.done, self.ended, strict=True)]
        return f"compiling {', '.join(parts)}, {self.elapsed():.0f} s"

    def draw(self, *, force: bool = False) -> None:
        """Redraw the terminal line if a second has passed (or ``force``); in a pipe or a
        log, say the line if ``LOG_EVERY`` seconds have passed since the compile began or
        since the last one."""
        now = time.monotonic()
        if self.terminal:
            if force or now - self.drawn >= self.EVERY:
                self.drawn = now
                write_stderr("\r\x1b[K" + self.line())
        elif now - max(self.drawn, self.began) >= self.LOG_EVERY and not all(self.ended):
            self.drawn = now
            self.say(self.line())




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
    return _compile_children([target], None)[0]


def _compile_children(targets: Sequence[Callable[[], None]], progress: CompileProgress | None,
                      first: int = 0) -> list[bool]:
    """:func:`compile_apart` of each of ``targets``, all at once, each child reporting
    every kernel it compiles to ``progress`` (stage ``first + i`` for target i)."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    children = []
    try:
        for i, target in enumerate(targets):
            receive, send = context.Pipe(duplex=False)
            child = context.Process(target=_compile_in_child, args=(target, send, os.getpid()), daemon=True)
            child.start()
            send.close()
            children.append((first + i, child, receive))
        while True:
            alive = False
            for index, child, receive in children:
                while receive.poll():
                    try:
                        receive.recv_bytes()
                    except (EOFError, OSError):
                        break
                    if progress is not None:
                        progress.compiled(index)
                if child.is_alive():
                    alive = True
                elif progress is not None:
                    progress.end(index)
            if not alive:
                break
            if progress is not None:
                progress.draw()
            time.sleep(0.1)
    except OSError:  # no process to be had (a sandbox's limit): compile in place, uninterruptible
        for _, child, _ in children:
            _stop(child)
        return [False] * len(targets)
    except KeyboardInterrupt:
        for _, child, _ in children:
            _stop(child)
        raise
    finally:
        for _, _, receive in children:
            receive.close()
    return [child.exitcode == 0 for _, child, _ in children]


def _stop(child) -> None:
    if child.pid is not None and child.is_alive():
        child.terminate()
        child.join()


def _compile_in_child(target: Callable[[], None], send=None, parent: int | None = None) -> None:
    import signal

    from spider_solver.stops import die_with_parent, ignore

    ignore((signal.SIGINT,))  # a Ctrl-C reaches the whole terminal's group: the parent decides
    if parent is not None:  # a kill -9 of the command ends its compile too (it holds the command's stderr)
        die_with_parent(parent, signal.SIGTERM)
    if send is not None:
        from numba.core import event

        class Reporter(event.Listener):
            """Sends a byte down ``send`` as each compile ends."""

            def on_start(self, event: event.Event) -> None:
                pass

            def on_end(self, event: event.Event) -> None:
                with contextlib.suppress(OSError):
                    send.send_bytes(b".")

        event.register("numba:compile", Reporter())
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
    # The one kernel that solve does not run: an analysis's proofs start with the positions known lost.
    import numpy as np

    from spider_solver.engine.tt import tt_new, tt_store_all

    tt_store_all(tt_new(1), np.zeros(1, dtype=np.uint64))
