"""The package ships whole: ``python -m build`` makes the sdist and the wheel without a
warning, the wheel holds every file of the package (its data files included, and the
JavaScript rules module without its tests), the sdist every file the test suite and the
benchmarks read, the rules tier runs from the unpacked sdist alone, without numba, and the
web client served from the unpacked wheel imports the rules module it carries.

The build runs on a copy of the source tree, so that it neither writes into the tree nor
reads a stale ``*.egg-info`` file list from it; it installs the build backend
(``[build-system] requires``) into a fresh environment, as pip does.
"""

import email
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("build")
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
#: What a working tree holds that is not the project's: caches, build output, the editable install's metadata,
#: the vectors npm pack copies into the JavaScript module.
NOT_SHIPPED = ("__pycache__", ".hypothesis", ".pytest_cache", ".git", "build", "dist", "*.egg-info", "site",
               "vectors", "node_modules")
#: The JavaScript module's folders that the sdist has and the wheel leaves out: its tests (they read
#: data/) and npm pack's hook.
NOT_IN_WHEEL = ("spider_solver/js/test/", "spider_solver/js/scripts/")


def project_files(folder: str) -> set[str]:
    """The files under ``ROOT/folder``, relative to ROOT, without caches and what is not shipped."""
    return {path.relative_to(ROOT).as_posix() for path in (ROOT / folder).rglob("*")
            if path.is_file() and not any(part == "__pycache__" or part in NOT_SHIPPED for part in path.parts)
            and path.relative_to(ROOT).parts[:3] != ("spider_solver", "js", "vectors")}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """``(sdist, wheel, output)`` of ``python -m build`` (the sdist, then the wheel from it)."""
    source = tmp_path_factory.mktemp("source") / "spider-solver"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*NOT_SHIPPED))
    out = tmp_path_factory.mktemp("dist")
    # PYTHONDONTWRITEBYTECODE makes setuptools warn that it does not byte-compile (it has
    # nothing to compile for these distributions): a warning about the environment, not the project.
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    result = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(source)],
                            capture_output=True, text=True, env=env, timeout=900)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return sdist, wheel, output


def test_the_build_gives_no_warning(built):
    *_, output = built
    warnings = [line for line in output.splitlines()
                if re.search(r"warn|deprecat", line, re.IGNORECASE) and not line.startswith(("copying ", "adding "))]
    assert warnings == [], output


def test_the_wheel_holds_the_whole_package_and_the_license(built):
    _, wheel, _ = built
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        (metadata,) = [name for name in names if name.endswith(".dist-info/METADATA")]
        headers = email.message_from_bytes(archive.read(metadata))
    package = {name for name in project_files("spider_solver") if not name.startswith(NOT_IN_WHEEL)}
    assert {name for name in names if name.startswith("spider_solver/")} == package
    assert {"spider_solver/export.schema.json", "spider_solver/difficulty.json", "spider_solver/py.typed"} <= names
    assert {"spider_solver/js/package.json", "spider_solver/js/index.js", "spider_solver/js/index.d.ts"} <= names
    assert project_files("spider_solver/js/test") and not {name for name in names if name.startswith(NOT_IN_WHEEL)}
    assert metadata.replace("METADATA", "licenses/LICENSE") in names
    assert headers["License-Expression"] == "MIT" and headers["License-File"] == "LICENSE"
    assert "Programming Language :: Python :: 3 :: Only" in headers.get_all("Classifier")


def test_the_sdist_holds_what_the_tests_and_benchmarks_read(built):
    sdist, _, _ = built
    with tarfile.open(sdist) as archive:
        top, *_ = archive.getnames()
        names = {name.removeprefix(top + "/") for name in archive.getnames()}
    expected = {"LICENSE", "README.md", "RULES.md", "pyproject.toml", "mkdocs.yml"}
    for folder in ("spider_solver", "tests", "data", "benchmarks", "docs"):
        expected |= project_files(folder)
    assert sorted(expected - names) == []
    assert not [name for name in names if "__pycache__" in name or name.endswith((".pyc", ".sqlite"))]


def test_the_rules_tier_runs_from_the_unpacked_sdist_without_numba(built, tmp_path):
    sdist, _, _ = built
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path, filter="data")
    (tree,) = tmp_path.iterdir()
    script = (
        "import sys, pytest\n"
        "code = pytest.main(['-q', '-p', 'no:cacheprovider', 'tests/rules'])\n"
        "import spider_solver\n"
        "print('package:', spider_solver.__file__)\n"
        "print('numba imported:', 'numba' in sys.modules)\n"
        "sys.exit(code)\n"
    )
    env = os.environ | {"PYTHONPATH": str(tree)}
    result = subprocess.run([sys.executable, "-c", script], cwd=tree, capture_output=True, text=True, env=env,
                            timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"(?m)^\d+ passed", result.stdout), result.stdout
    assert f"package: {tree / 'spider_solver' / '__init__.py'}\n" in result.stdout
    assert "numba imported: False\n" in result.stdout


def test_the_web_client_served_from_the_wheel_imports_the_rules_module_it_carries(built, tmp_path):
    """The page's modules, followed from web/game.js through every import, are all served by
    the app of the unpacked wheel (not the source tree): the rules module is package data."""
    _, wheel, _ = built
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path / "wheel")
    script = (
        "import posixpath, re, sys\n"
        "from fastapi.testclient import TestClient\n"
        "import spider_solver\n"
        "from spider_solver.service.app import Settings, create_app\n"
        "print('package:', spider_solver.__file__)\n"
        "with TestClient(create_app(Settings(read_only=True))) as client:\n"
        "    todo, seen = ['web/game.js'], set()\n"
        "    while todo:\n"
        "        path = todo.pop()\n"
        "        seen.add(path)\n"
        "        response = client.get('/' + path)\n"
        "        assert response.status_code == 200, path\n"
        "        for name in re.findall(r'\\bfrom \"\\./([^\"]+)\"', response.text):\n"
        "            found = posixpath.normpath(posixpath.join(posixpath.dirname(path), name))\n"
        "            if found not in seen:\n"
        "                todo.append(found)\n"
        "print('served:', ' '.join(sorted(seen)))\n"
    )
    env = os.environ | {"PYTHONPATH": str(tmp_path / "wheel")}
    result = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, env=env,
                            timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"package: {tmp_path / 'wheel' / 'spider_solver' / '__init__.py'}\n" in result.stdout
    served = result.stdout.split("served: ")[1].split()
    assert {"web/api.js", "web/rules/index.js", "web/rules/board.js", "web/rules/codes.js"} <= set(served)
