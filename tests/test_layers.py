"""The package's imports run one way: each layer depends only on the layers below it,
and no module imports itself back through others.

The test parses every module's imports (top-level and inside functions alike) with
``ast`` and fails on any arrow that runs against the order below, and on any cycle
between the package's modules.
"""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "spider_solver"

#: The layers, bottom first; a module may import its own layer and those below.
LAYERS = [
    {"budget", "errors", "outcomes", "signtest", "stops", "terminal", "version"},
    {"rules"},
    {"limits", "record", "games"},
    {"catalog"},
    {"engine"},
    {"verify"},
    {"grading", "analysis"},
    {"batch", "export"},
    {"service"},
    {"cli"},
    {"__init__", "__main__", "_console"},
]
LEVEL = {name: level for level, names in enumerate(LAYERS) for name in names}


def layer_of(module: str) -> str:
    """``spider_solver.rules.board`` -> ``rules``; the package itself -> ``__init__``."""
    parts = module.split(".")
    assert parts[0] == "spider_solver", module
    return parts[1] if len(parts) > 1 else "__init__"


def imports_of(path: Path) -> set[str]:
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                name = f"{base}.{node.module}" if node.module else base
            else:
                name = node.module or ""
            found.add(name)
            # ``from spider_solver import verify`` imports the module ``verify``.
            folder = PACKAGE.parent.joinpath(*name.split("."))
            found.update(f"{name}.{alias.name}" for alias in node.names
                         if (folder / alias.name).is_dir() or (folder / f"{alias.name}.py").exists())
    return {name for name in found if name.split(".")[0] == "spider_solver"}


def arrows() -> list[tuple[str, str]]:
    result = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = layer_of(".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts))
        for name in imports_of(path):
            result.append((source, layer_of(name)))
    return result


def test_every_module_belongs_to_a_layer():
    names = {path.stem if path.parent == PACKAGE else path.relative_to(PACKAGE).parts[0]
             for path in PACKAGE.rglob("*.py")}
    assert names <= set(LEVEL), sorted(names - set(LEVEL))


def test_no_import_runs_upward():
    upward = sorted({(a, b) for a, b in arrows() if a != b and b != "__init__" and LEVEL[b] > LEVEL[a]})
    assert upward == []


def test_only_the_package_root_imports_the_package_root():
    assert sorted({a for a, b in arrows() if b == "__init__" and a not in ("__init__", "__main__", "_console")}) == []


def test_the_checker_sees_an_upward_arrow(tmp_path):
    """The parser is not blind: a function-level import of the engine from rules is found."""
    module = tmp_path / "spider_solver" / "rules" / "bad.py"
    module.parent.mkdir(parents=True)
    module.write_text("def f():\n    from spider_solver.engine.driver import run_search\n    from . import board\n")
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path / "spider_solver"
    try:
        assert imports_of(module) == {"spider_solver.engine.driver", "spider_solver.rules"}
    finally:
        PACKAGE = saved


def module_name(path: Path) -> str:
    """``.../spider_solver/engine/driver.py`` -> ``spider_solver.engine.driver``; a package's
    ``__init__.py`` -> the package."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_graph() -> dict[str, set[str]]:
    """Each module of the package -> the modules of the package it imports (itself left out)."""
    paths = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    return {name: {other for other in imports_of(path) if other in paths and other != name}
            for name, path in paths.items()}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules that import each other through some chain, as groups (each sorted)."""
    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for other in graph.get(todo.pop(), ()):
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        return seen

    reached = {name: reach(name) for name in graph}
    groups = {tuple(sorted(other for other in reached[name] if name in reached[other])) for name in graph
              if name in reached[name]}
    return sorted(list(group) for group in groups)


def test_no_module_imports_itself_back():
    """No import cycle between the package's modules, at module level or inside functions
    (the CLI's commands import the click group from ``cli.group``, not from the package
    that imports them)."""
    assert import_cycles(module_graph()) == []


def test_the_checker_sees_an_import_cycle(tmp_path):
    """A cycle through three modules, one arrow of it inside a function, is found."""
    engine = tmp_path / "spider_solver" / "engine"
    engine.mkdir(parents=True)
    (engine / "__init__.py").write_text("")
    (engine / "driver.py").write_text("def f():\n    from spider_solver.engine import rephase\n")
    (engine / "rephase.py").write_text("from .beam import beam\n")
    (engine / "beam.py").write_text("from spider_solver.engine.driver import Budget\nimport spider_solver.errors\n")
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path / "spider_solver"
    try:
        assert import_cycles(module_graph()) == [
            ["spider_solver.engine.beam", "spider_solver.engine.driver", "spider_solver.engine.rephase"]]
        (engine / "driver.py").write_text("")
        assert import_cycles(module_graph()) == []
    finally:
        PACKAGE = saved


#: The analysis package's modules, bottom first (issue 49): the options and the answer depend on
#: nothing of it but the answer's sentence (``summary``, below it); the replay, then the search of
#: a position; hints and the bisection above them; ``analyze`` on top, and the package re-exports
#: it. A later kind of answer (a fair hint, the review of a game) goes beside ``position``; the
#: review judges positions as the fair hint does, so it stands on it.
ANALYSIS_LAYERS = [
    {"summary"},
    {"options", "answer"},
    {"start"},
    {"search", "hints"},
    {"lost", "fair"},
    {"position", "reviewing"},
    {"__init__"},
]


def test_the_analysis_package_imports_one_way():
    folder = PACKAGE / "analysis"
    level = {name: n for n, names in enumerate(ANALYSIS_LAYERS) for name in names}
    assert {path.stem for path in folder.glob("*.py")} == set(level)
    upward = []
    for path in sorted(folder.glob("*.py")):
        for name in imports_of(path):
            parts = name.split(".")
            inside = parts[:2] == ["spider_solver", "analysis"] and len(parts) > 2 and parts[2] != path.stem
            if inside and level[parts[2]] >= level[path.stem]:
                upward.append((path.stem, parts[2]))
    assert upward == []


def test_the_import_graph_is_the_documented_one():
    """The layers that really depend on each other (the closing note of issue 7 lists them)."""
    graph = sorted({(a, b) for a, b in arrows() if a != b})
    assert ("engine", "rules") in graph and ("verify", "engine") in graph and ("catalog", "record") in graph
    assert not any(b in ("verify", "catalog", "batch", "export", "cli") for a, b in graph if a == "engine")
    # Storage below the solver: the catalog stores records and knows nothing of searches.
    assert {b for a, b in graph if a == "catalog"} <= {"errors", "outcomes", "version", "rules", "limits", "record",
                                                       "games"}
    assert not any(b not in ("errors", "outcomes", "version") for a, b in graph if a == "rules")


@pytest.mark.slow
def test_the_rules_tier_of_the_tests_imports_neither_numpy_nor_numba(tmp_path):
    """`pytest tests/rules` must compile no kernel and need no numpy: what its test modules
    import counts too, not only the package (a test module once imported numpy)."""
    root = Path(__file__).resolve().parents[1]
    plugin = tmp_path / "heavy_modules.py"
    plugin.write_text(
        "import sys\n"
        "def pytest_sessionfinish(session, exitstatus):\n"
        "    heavy = sorted(m for m in ('numba', 'numpy', 'spider_solver.engine') if m in sys.modules)\n"
        "    print('HEAVY=' + ','.join(heavy))\n"
    )
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{root}"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "heavy_modules", "-p", "no:cacheprovider",
                           "tests/rules"], capture_output=True, text=True, cwd=root, env=env, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:]
    assert "HEAVY=\n" in done.stdout, done.stdout[-2000:]
