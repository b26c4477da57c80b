"""The engine caches its kernels in a directory of its own and changes nothing else.

Each check runs in a fresh interpreter, since numba's configuration and locators
are process-wide: importing the engine leaves ``numba.config`` as it was, a
``cache=True`` function outside the engine caches where it would have without
the engine, and the engine's kernels load from the cache the session compiled.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Prints numba's settings as JSON: every upper-case name of numba.config.
SNAPSHOT = """
import json, numba
def snapshot():
    return json.dumps({k: repr(getattr(numba.config, k)) for k in sorted(dir(numba.config)) if k.isupper()})
"""

#: A module with a cached function outside the engine.
FOREIGN = """
from numba import njit

@njit(cache=True)
def plus_one(x):
    return x + 1
"""


def run(code: str, tmp_path: Path, **env: str | None) -> str:
    """Run ``code`` in a fresh interpreter that imports this checkout; return its stdout."""
    environ = dict(os.environ)
    environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(tmp_path)])
    for name, value in env.items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                            env=environ, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def foreign(tmp_path: Path) -> Path:
    (tmp_path / "foreign.py").write_text(FOREIGN)
    return tmp_path


@pytest.mark.parametrize("numba_cache_dir", [None, "numba-cache"], ids=["default", "NUMBA_CACHE_DIR"])
def test_importing_the_engine_changes_no_numba_setting(foreign, numba_cache_dir):
    env = {"NUMBA_CACHE_DIR": None if numba_cache_dir is None else str(foreign / numba_cache_dir)}
    out = run(SNAPSHOT + """
before = snapshot()
import spider_solver.engine
from spider_solver.engine import search, shorten  # every kernel module: kernels are defined
print(before)
print(snapshot())
""", foreign, **env)
    before, after = out.splitlines()
    assert json.loads(after) == json.loads(before)


@pytest.mark.parametrize("numba_cache_dir", [None, "numba-cache"], ids=["default", "NUMBA_CACHE_DIR"])
def test_other_numba_code_caches_where_it_would_without_the_engine(foreign, numba_cache_dir):
    env = {"NUMBA_CACHE_DIR": None if numba_cache_dir is None else str(foreign / numba_cache_dir)}
    code = """
{imports}
import foreign
assert foreign.plus_one(1) == 2
print(foreign.plus_one.stats.cache_path)
"""
    alone = run(code.format(imports=""), foreign, **env).strip()
    beside = run(code.format(imports="import spider_solver.engine.search, spider_solver.engine.shorten"),
                 foreign, **env).strip()
    assert beside == alone
    expected = foreign / "__pycache__" if numba_cache_dir is None else foreign / numba_cache_dir
    assert Path(alone).is_relative_to(expected)
    assert list(Path(alone).glob("foreign.plus_one-*.nbi"))


def test_the_kernels_load_from_the_engine_cache(tmp_path):
    # The session has compiled the kernels (the engine fixture); a new process loads them.
    out = run("""
import importlib, json
from numba.core.registry import CPUDispatcher
import spider_solver.engine as engine
from spider_solver.engine.cache import cache_dir

engine.warm_up()
report = {"compiled": engine.is_compiled(), "cache_dir": cache_dir(), "hits": 0, "misses": [], "paths": []}
for name in ("types", "position", "movegen", "evaluate", "tt", "search", "shorten"):
    module = importlib.import_module("spider_solver.engine." + name)
    for attr, kernel in vars(module).items():
        if isinstance(kernel, CPUDispatcher) and kernel.__module__ == module.__name__:
            report["hits"] += sum(kernel.stats.cache_hits.values())
            report["misses"] += [attr] * sum(kernel.stats.cache_misses.values())
            report["paths"].append(kernel.stats.cache_path)
print(json.dumps(report))
""", tmp_path)
    report = json.loads(out)
    assert report["compiled"]
    assert report["misses"] == []
    assert report["hits"] >= 3  # step_level, shorten_line, new_position at least
    assert all(Path(p).is_relative_to(report["cache_dir"]) for p in report["paths"])


def test_is_compiled_answers_for_the_solver_and_the_grader_apart(tmp_path):
    """A fresh cache holds neither kernel (the commands say they compile); after a solve
    and a grade, the session's cache holds both."""
    code = """
from spider_solver.engine import is_compiled
print(is_compiled(), is_compiled(fair=True))
"""
    cold = run(code, tmp_path, XDG_CACHE_HOME=str(tmp_path / "empty"), NUMBA_CACHE_DIR=None)
    assert cold.split() == ["False", "False"]
    warm = run("""
from spider_solver.engine import warm_up
from spider_solver.grading import load_grader
warm_up()
load_grader()  # compiles the grader if no test has yet (a fresh cache), else loads it
""" + code, tmp_path)
    assert warm.split() == ["True", "True"]


def test_a_warm_start_loads_the_kernels_a_search_and_a_grade_call_and_no_more(tmp_path):
    """On a warm cache the commands load the entry kernels (engine.entry_kernels) instead
    of solving a warm-up deal; a search and a grade after that load nothing more, and
    compile nothing."""
    out = run("""
import importlib, json, pkgutil
from numba.core.registry import CPUDispatcher
import spider_solver.engine as engine
from spider_solver import solve
from spider_solver.grading import grade, load_grader
from spider_solver.verify import load_engine

load_engine()
load_grader()
entries = {id(kernel) for kernel in engine.entry_kernels() + engine.entry_kernels(fair=True)}
loaded = {}
for info in pkgutil.iter_modules(engine.__path__):
    module = importlib.import_module("spider_solver.engine." + info.name)
    for attr, kernel in vars(module).items():
        if isinstance(kernel, CPUDispatcher) and kernel.__module__ == module.__name__:
            loaded[f"{info.name}.{attr}"] = kernel
before = {name: sum(k.stats.cache_hits.values()) for name, k in loaded.items()}
solve("SP1-S4C-AAAAAAD")
solve("SP1-S1C-AAAAAAB")
grade("SP1-S4C-AAAAAAD")
after = {name: sum(k.stats.cache_hits.values()) for name, k in loaded.items()}
print(json.dumps({
    "late": sorted(name for name in loaded if after[name] > before[name]),
    "missed": sorted(name for name, k in loaded.items() if sum(k.stats.cache_misses.values())),
    "entries_loaded": all(before[name] > 0 for name, k in loaded.items() if id(k) in entries),
}))
""", tmp_path)
    report = json.loads(out)
    assert report == {"late": [], "missed": [], "entries_loaded": True}


def test_loading_skips_the_compilers_registries_and_a_later_compile_still_finds_them(tmp_path):
    """load_cached adds the cached machine code without numba's refresh of its compiler
    registries (the lowering of all of numpy, 0.1 s of a warm verify): a warm start and a
    search refresh nothing. A function compiled later refreshes them itself and compiles
    and runs as always, numpy calls included."""
    out = run("""
import json
import numpy as np
from numba import njit
from numba.core.base import BaseContext
from numba.core.typing.context import BaseContext as TypingContext

refreshes = []
for context in (BaseContext, TypingContext):
    def counted(self, _refresh=context.refresh):
        refreshes.append(type(self).__name__)
        return _refresh(self)
    context.refresh = counted

from spider_solver import solve
from spider_solver.verify import load_engine

load_engine()
result = solve("SP1-S4C-AAAAAAD")
at_start = len(refreshes)

@njit
def later(values):
    return np.sort(values)[0] + np.median(values)

print(json.dumps({"status": result.status.value, "at_start": at_start,
                  "later": float(later(np.array([3.0, 1.0, 2.0]))), "then": len(refreshes) > 0}))
""", tmp_path)
    assert json.loads(out) == {"status": "verified", "at_start": 0, "later": 3.0, "then": True}


def test_the_files_left_out_of_the_cache_digest_hold_no_kernel_and_no_kernel_imports_them():
    """An edit to a file of cache.NOT_COMPILED keeps the compiled kernels; that is right only
    if the file defines no kernel (no numba decorator) and no kernel module imports it,
    directly or through other files of the engine (numba freezes the globals a kernel
    reads into its code). (Nor may it build a kernel's arguments, which no walk of the
    imports can see: the list is kept to the loader and the locator.)"""
    import ast

    from spider_solver.engine import cache

    engine = ROOT / "spider_solver" / "engine"
    trees = {path.stem: ast.parse(path.read_text(encoding="utf-8")) for path in engine.glob("*.py")}

    def decorated_by_numba(tree: ast.Module) -> bool:
        names = {"njit", "jit", "intrinsic", "generated_jit", "overload", "vectorize", "cfunc", "jitclass"}
        for node in ast.walk(tree):
            for decorator in getattr(node, "decorator_list", []):
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
                if name in names:
                    return True
        return False

    def imported(tree: ast.Module) -> set[str]:
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module == "spider_solver.engine":
                    found |= {"__init__", *(alias.name for alias in node.names if alias.name in trees)}
                elif node.module.startswith("spider_solver.engine."):
                    found.add(node.module.split(".")[2])
            elif isinstance(node, ast.Import):
                found |= {alias.name.split(".")[2] for alias in node.names
                          if alias.name.startswith("spider_solver.engine.")}
        return found & set(trees)

    kernel_modules = {name for name, tree in trees.items() if decorated_by_numba(tree)}
    reached, todo = set(kernel_modules), list(kernel_modules)
    while todo:
        for name in imported(trees[todo.pop()]) - reached:
            reached.add(name)
            todo.append(name)
    left_out = {name.removesuffix(".py") for name in cache.NOT_COMPILED}
    assert left_out <= set(trees)
    assert left_out & kernel_modules == set()
    assert left_out & reached == set()
    assert {"position", "search", "types", "fair"} <= kernel_modules  # the walk finds the kernels
    assert "search" in reached and "game" not in reached  # and follows the imports, no further
