"""Where the engine's compiled kernels are cached, without touching numba's settings.

numba caches a ``cache=True`` function in the first place that one of its cache
locators accepts (``numba.core.caching.CacheImpl._locator_classes``: the
``NUMBA_CACHE_DIR`` directory if set, ``__pycache__`` beside the source, a user-wide
directory, ...). :func:`install` puts :class:`EngineCacheLocator` first in that list.
It accepts only functions defined in this package's files, and gives them
:func:`cache_dir`; numba locates every other function of the process as it would
have, and ``numba.config`` is left as it was.

``cache_dir()`` is ``<base>/spider-solver/numba-<digest>``: ``<base>`` is
``NUMBA_CACHE_DIR`` if it is set, else ``$XDG_CACHE_HOME`` or ``~/.cache``, and
``<digest>`` is a digest of this package's sources (but :data:`NOT_COMPILED`). numba checks a cached
function against its own file only, not against the kernels it calls in other
files, so an edit anywhere in the package must get a fresh directory.

Relies on numba internals that are the same from 0.59 to 0.68 (``CacheImpl``,
``_CacheLocator``, ``_SourceFileBackedLocatorMixin``); if they change, the kernels
fall back to numba's own locators and still cache, with the risk above. If
``NUMBA_CACHE_LOCATOR_CLASSES`` is set (numba 0.62 and later), numba uses that list
instead of ``_locator_classes`` and the kernels go where it says.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from spider_solver.errors import EngineUnavailableError

#: This package's directory: the locator takes the functions defined in its files.
ENGINE_DIR = Path(__file__).resolve().parent


def require_jit() -> None:
    """Refuse to run the kernels with ``NUMBA_DISABLE_JIT`` set: their LLVM intrinsics
    have no Python version, so they would fail deep inside a search."""
    from numba.core import config

    if config.DISABLE_JIT:  # type: ignore[attr-defined]
        raise EngineUnavailableError("the search engine cannot run with NUMBA_DISABLE_JIT set (its kernels use "
                                     "LLVM intrinsics that have no Python version); unset it")


#: The package's files that define no kernel, that no kernel module imports (numba freezes
#: a kernel module's globals into its code) and that build none of the kernels' arguments
#: (their types are the kernels' signatures): the loader and this locator. An edit to them
#: changes no compiled code. The other files that only drive the kernels (the beams, the
#: schedule, the game's arrays) stay in the digest: an edit there may change a signature,
#: and the new one must compile when the command says so, not in the middle of a search.
#: tests/engine/test_cache.py checks the first two conditions.
NOT_COMPILED = ("__init__.py", "cache.py")


@functools.cache
def _digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(ENGINE_DIR.glob("*.py")):
        if path.name in NOT_COMPILED:
            continue
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> str:
    """The directory of the engine's compiled kernels for these sources."""
    import numba

    base = getattr(numba.config, "CACHE_DIR", "") or os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "spider-solver", "numba-" + _digest())


@functools.lru_cache(maxsize=64)
def _is_engine_file(py_file: str) -> bool:
    """True for a file of this package (asked once for each kernel defined)."""
    try:
        return Path(py_file).resolve().parent == ENGINE_DIR
    except (OSError, RuntimeError):
        return False


try:
    from numba.core.caching import CacheImpl, _CacheLocator, _SourceFileBackedLocatorMixin
except ImportError:  # pragma: no cover - a numba without these internals: its own locators apply
    EngineCacheLocator = None
else:

    class EngineCacheLocator(_SourceFileBackedLocatorMixin, _CacheLocator):  # type: ignore[no-redef]
        """Locates the cache of the engine's kernels, and of nothing else, in :func:`cache_dir`."""

        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = os.path.join(cache_dir(), self.get_suitable_cache_subpath(py_file))

        def get_cache_path(self):
            return self._cache_path

        @classmethod
        def from_function(cls, py_func, py_file):
            if not _is_engine_file(py_file):
                return None  # not ours: the next locator decides
            return super().from_function(py_func, py_file)


def load_cached(kernels) -> bool:
    """Load from the cache every signature of each of ``kernels`` (numba dispatchers) that
    it holds for these sources, without running them. False if a kernel has none there,
    or if numba's internals are not as expected (``Cache._cache_file._load_index``,
    ``Cache._index_key``): the caller then runs them, which loads or compiles them.

    A signature found in the cache is loaded as numba's ``Dispatcher.compile`` loads it,
    less the refresh of the compiler's registries that numba does first: it imports and
    installs the lowering of all of numpy, which only a compile needs (a tenth of a warm
    ``verify``: benchmarks/HISTORY.md, "Warm start"). Loading machine code needs only the
    symbols it links to, the runtime's (``rtsys.initialize``). (A kernel that hashed would
    also need the hash secret of ``numba.cpython.hashing``, which the refresh imports; none
    does, and the warm-start tests would abort at its link if one did.) A compile refreshes
    the registries itself, so a kernel compiled later still finds them. Under numba's
    compiler lock, as its own loads and compiles are."""
    try:
        from numba.core.compiler_lock import global_compiler_lock
        from numba.core.runtime import rtsys
    except ImportError:  # pragma: no cover - another numba
        return False
    with global_compiler_lock:
        return _load_all(kernels, rtsys)


def _load_all(kernels, rtsys) -> bool:
    try:
        for kernel in kernels:
            cache = kernel._cache
            codegen = kernel.targetctx.codegen()
            signatures = [key[0] for key in cache._cache_file._load_index() if key == cache._index_key(key[0], codegen)]
            if not signatures:
                return False
            rtsys.initialize(kernel.targetctx)
            for signature in signatures:
                if tuple(signature) not in kernel.overloads and not _load_one(kernel, signature):
                    kernel.compile(signature)  # numba's own way: loads it, or compiles it
    except (AttributeError, TypeError, ValueError, IndexError, OSError):  # pragma: no cover - another numba
        return False
    return True


def _load_one(kernel, signature) -> bool:
    """Add the cached machine code of ``signature`` to ``kernel`` as ``Dispatcher.compile``
    does on a cache hit; False if the cache cannot give it."""
    result = kernel._cache._load_overload(signature, kernel.targetctx)
    if result is None or result.objectmode:
        return False
    kernel._cache_hits[signature] += 1
    kernel.targetctx.insert_user_function(result.entry_point, result.fndesc, [result.library])
    kernel.add_overload(result)
    return True


def install() -> None:
    """Put :class:`EngineCacheLocator` first among numba's locators (once; before any kernel is defined)."""
    if EngineCacheLocator is None:  # pragma: no cover
        return
    classes = CacheImpl._locator_classes
    # Drop an earlier copy (a reloaded module), then go first.
    classes[:] = [c for c in classes if getattr(c, "__qualname__", None) != EngineCacheLocator.__qualname__
                  or c.__module__ != EngineCacheLocator.__module__]
    classes.insert(0, EngineCacheLocator)
