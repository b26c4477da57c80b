"""The JavaScript rules module's own tests (``spider_solver/js/test``: every vector of data/,
the examples and refusals of RULES.md, the package's exports) under Node's built-in test
runner, run from here so that the README's test command runs them; and the module's
example at the top of docs/porting.md, run with Node."""

from __future__ import annotations

import json
import re
import subprocess

from spider_solver.version import __version__
from tests.js.node import PACKAGE, ROOT, node


def test_the_modules_own_tests_pass_under_node():
    files = sorted(path.relative_to(PACKAGE).as_posix() for path in (PACKAGE / "test").glob("*.test.js"))
    assert len(files) >= 3
    result = subprocess.run([node(), "--test", "--test-reporter=tap", *files], cwd=PACKAGE, capture_output=True,
                            text=True, timeout=300)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    passed = re.search(r"^# pass (\d+)$", output, re.MULTILINE)
    assert passed and int(passed[1]) >= 20, output
    assert re.search(r"^# fail 0$", output, re.MULTILINE), output


def test_the_package_has_the_projects_version_and_license():
    package = json.loads((PACKAGE / "package.json").read_text(encoding="utf-8"))
    assert package["version"] == __version__
    assert package["license"] == "MIT"
    assert package["exports"]["."]["default"] == "./index.js"


def test_the_porting_pages_example_prints_what_its_comments_say(tmp_path):
    """docs/porting.md's first js block: each line it prints is the comment line after it."""
    page = (ROOT / "docs" / "porting.md").read_text(encoding="utf-8")
    block = re.search(r"^```js\n(.*?)^```$", page, re.MULTILINE | re.DOTALL)
    assert block and page.index(block[0]) < page.index("## Porting the rules to another language")
    source = block[1]
    assert '"spider-solver-rules"' in source
    script = tmp_path / "example.mjs"
    script.write_text(source.replace('"spider-solver-rules"', json.dumps((PACKAGE / "index.js").as_uri())),
                      encoding="utf-8")
    result = subprocess.run([node(), str(script)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    expected = [line.removeprefix("// ") for line in source.splitlines() if line.startswith("// ")]
    assert len(expected) >= 5
    assert result.stdout.splitlines() == expected
