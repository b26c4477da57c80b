"""``npm pack`` makes the package spider-solver-rules, which installs in an empty folder
and passes its own tests there (its tests read the vectors npm pack copies into it).

The pack runs on a copy of the module beside a copy of data/'s vectors, laid out as in
the repository, so that npm's hooks write nothing into the source tree; npm's cache is a
temporary folder, and the install is offline (the package has no dependency)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tarfile

import pytest

from tests.js.node import PACKAGE, ROOT, node, npm

pytestmark = pytest.mark.slow

VECTORS = ("deal_vectors.json", "replay_vectors.json", "best_target_vectors.json")


def run(command: list[str], cwd, env) -> str:
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout + result.stderr


def test_npm_pack_makes_a_package_that_installs_and_passes_its_own_tests(tmp_path):
    node(), npm()
    tree = tmp_path / "tree"
    shutil.copytree(PACKAGE, tree / "spider_solver" / "js", ignore=shutil.ignore_patterns("vectors", "node_modules"))
    (tree / "data").mkdir()
    for name in VECTORS:
        shutil.copy(ROOT / "data" / name, tree / "data" / name)
    env = os.environ | {"npm_config_cache": str(tmp_path / "npm-cache"), "npm_config_update_notifier": "false"}
    out = tmp_path / "out"
    out.mkdir()
    run([npm(), "pack", "--pack-destination", str(out)], tree / "spider_solver" / "js", env)
    (tarball,) = out.glob("spider-solver-rules-*.tgz")
    assert not (tree / "spider_solver" / "js" / "vectors").exists()  # postpack took the copies out again
    with tarfile.open(tarball) as archive:
        names = sorted(name.removeprefix("package/") for name in archive.getnames())
    modules = sorted(path.name for path in PACKAGE.glob("*.js"))
    tests = sorted(f"test/{path.name}" for path in (PACKAGE / "test").glob("*.js"))
    assert names == sorted([*modules, "README.md", "index.d.ts", "package.json", *tests,
                            *(f"vectors/{name}" for name in VECTORS)])
    print(f"npm pack: {tarball.name}, {tarball.stat().st_size:,} bytes")
    assert tarball.stat().st_size < 100_000
    # An empty folder: install the tarball, run the package's own tests, import it by its name.
    empty = tmp_path / "empty"
    empty.mkdir()
    run([npm(), "install", "--offline", "--no-audit", "--no-fund", str(tarball)], empty, env)
    installed = empty / "node_modules" / "spider-solver-rules"
    assert json.loads((installed / "package.json").read_text(encoding="utf-8"))["name"] == "spider-solver-rules"
    output = run([npm(), "test"], installed, env)  # outside the repository: only the packed vectors/ are there
    # Node's "tap" reporter writes "# pass 22", its "spec" reporter "ℹ pass 22".
    assert re.search(r"^(?:#|ℹ) pass [1-9]", output, re.MULTILINE), output
    assert re.search(r"^(?:#|ℹ) fail 0$", output, re.MULTILINE), output
    script = ('import { Board, Deal } from "spider-solver-rules";\n'
              'const board = new Board(Deal.fromCode("SP1-S4C-AAAAAAD"));\n'
              'console.log(board.legalMoves().map((action) => board.notation(action)).join(" "));\n')
    (empty / "play.mjs").write_text(script, encoding="utf-8")
    assert run([node(), "play.mjs"], empty, env).strip() == "1>8 6>1 7>10 8>7 9>4 9>5 10>2 D"
