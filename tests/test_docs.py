"""The README and the documentation site say what the program does.

- The README's tour of the Python API runs as a doctest (it calls the solver, hence this
  tier; the rules tour of docs/porting.md runs in tests/rules).
- Every example that shows a command's output is a ``console`` block: ``$ spider-solve ...``
  lines, each followed by what it prints, standard output first and standard error after
  it, where ``...`` stands for any text (doctest's ELLIPSIS). Each command is run and its
  output compared, so an example cannot drift from the program.
- The README opens with the two set-up commands, and CI's script runs its test command.
- Every relative link of the README, RULES.md and docs/ names a file of the repository,
  so that the pages read as files lead somewhere (the site's hook points the links at
  its copies; ``mkdocs build --strict`` in CI checks the site's links).
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
CI = ROOT / ".ci" / "run"
DOCUMENTS = [README, *sorted((ROOT / "docs").rglob("*.md"))]
CONSOLE = re.compile(r"^```console\n(.*?)^```$", re.MULTILINE | re.DOTALL)
#: Commands that search (or may): they need the compiled engine, loaded first by the fixture.
SEARCHING = {"verify", "hint", "analyze", "improve", "grade"}
#: Commands that give fair hints: they need the fair hint's kernels, loaded first by their fixture.
FAIR = {"play", "review"}
#: What "about 12 KB" allows: a README a newcomer reads in minutes.
README_LIMIT = 12 * 1024


def console_examples():
    """(document, command, expected output) for each ``$`` line of each console block."""
    examples = []
    for path in DOCUMENTS:
        for block in CONSOLE.findall(path.read_text(encoding="utf-8")):
            for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
                command, _, output = chunk.partition("\n")
                examples.append((path.relative_to(ROOT).as_posix(), command, output))
    return examples


EXAMPLES = console_examples()


#: A Markdown link's target (the path, without its anchor): the links docs/hooks.py's LINK
#: rewrites for the site (the hooks need MkDocs, which the tests do not install).
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)\s]*)?\)")
#: Links to what only the site has: the OpenAPI document it writes from the application.
SITE_ONLY = {("docs/service.md", "openapi.json")}


def test_every_relative_link_names_a_file_of_the_repository():
    broken = []
    for path in [*DOCUMENTS, ROOT / "RULES.md"]:
        name = path.relative_to(ROOT).as_posix()
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:") or (name, target) in SITE_ONLY:
                continue
            if not (path.parent / target).resolve().exists():
                broken.append(f"{name}: {target}")
    assert broken == []
    assert sum(len(LINK.findall(path.read_text(encoding="utf-8"))) for path in DOCUMENTS) > 100  # links were read


def test_the_documents_have_console_examples():
    assert len(EXAMPLES) >= 8
    assert {document for document, _, _ in EXAMPLES} >= {"README.md", "docs/getting-started.md"}


@pytest.mark.parametrize(("document", "command", "expected"), EXAMPLES,
                         ids=[f"{document}: {command}" for document, command, _ in EXAMPLES])
def test_console_example(document, command, expected, request, tmp_path):
    program, *args = shlex.split(command)
    assert program == "spider-solve", f"{document}: a console example runs spider-solve, not {program!r}"
    if not args or args[0].startswith("-") or args[0] in SEARCHING:
        request.getfixturevalue("engine")
    if args and (args[0] in FAIR or "--fair" in args):
        request.getfixturevalue("fair_hints")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "spider_solver", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=300)
    got = done.stdout + done.stderr
    checker = doctest.OutputChecker()
    assert checker.check_output(expected, got, doctest.ELLIPSIS), (
        f"{document}: `{command}` printed (status {done.returncode}):\n{got}\nthe document shows:\n{expected}")


def test_readme_tour(engine):
    text = README.read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {}, "README.md", str(README), 0)
    assert len(test.examples) >= 8
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def readme_commands():
    """The README's first code block, line by line, comments dropped."""
    text = README.read_text(encoding="utf-8")
    assert text.index("```sh") < text.index("\n## "), "the set-up commands come before the first section"
    block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    return [line.split("  #", 1)[0].strip() for line in block.splitlines()]


def test_readme_opens_with_the_two_commands():
    """One command installs and runs the main job, one installs and runs the tests."""
    main, tests, *_ = readme_commands()
    assert main == "pip install -e . && spider-solve --suits 4 --count 1000"
    assert tests == "pip install -e '.[test,cluster,service]' && python -m pytest -q -n auto"


def test_ci_runs_the_readmes_test_command():
    """.ci/run installs at least the README's extras and runs the same pytest command."""
    _, tests, *_ = readme_commands()
    install, run = tests.split(" && ")
    wanted = set(re.fullmatch(r"pip install -e '\.\[([\w,]+)\]'", install)[1].split(","))
    script = CI.read_text(encoding="utf-8")
    installed = re.search(r"^python3 -m pip install --quiet -e '\.\[([\w,]+)\]'$", script, re.MULTILINE)
    assert installed and wanted <= set(installed[1].split(",")), script
    assert re.search(rf"^python3 {re.escape(run.removeprefix('python '))}$", script, re.MULTILINE), script
    assert re.search(r"^python3 -m mkdocs build --strict ", script, re.MULTILINE), script


def test_readme_is_short():
    assert len(README.read_bytes()) <= README_LIMIT


@pytest.mark.parametrize("path", [path for path in DOCUMENTS if path.name != "performance.md"],
                         ids=lambda path: path.relative_to(ROOT).as_posix())
def test_user_pages_are_undated(path):
    """Dated figures, issues and commits belong to the performance page and the benchmarks."""
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", text), "a date"
    assert not re.search(r"\bissues? #?\d+", text, re.IGNORECASE), "an issue number"
    assert not re.search(r"\bcommit [0-9a-f]{7,40}\b", text), "a commit id"
