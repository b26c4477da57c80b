"""The README's tour of the rules engine runs as a doctest.

Only the sections about the rules engine, game codes and show/replay are run, so that
other sections can hold examples that need a catalog or a cluster.
"""

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
SECTIONS = ("## Rules engine", "## Game codes and test vectors", "## Command line: show, replay")


def rules_sections(text):
    """The text of SECTIONS, each up to the next second-level heading."""
    parts = []
    for heading in SECTIONS:
        start = text.index(heading)
        end = text.find("\n## ", start + len(heading))
        parts.append(text[start : end if end != -1 else len(text)])
    return "\n".join(parts)


def test_readme_rules_tour():
    text = rules_sections(README.read_text(encoding="utf-8"))
    test = doctest.DocTestParser().get_doctest(text, {}, "README.md (rules engine)", str(README), 0)
    assert len(test.examples) >= 10
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_readme_opens_with_the_two_commands():
    """The first code block: one command installs and runs the main job, one the tests."""
    text = README.read_text(encoding="utf-8")
    assert text.index("```sh") < text.index("\n## ")
    block = text.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert block[0].startswith("pip install -e . && spider-solve --suits 4 --count 1000")
    assert block[1].startswith("pip install -e '.[test,cluster,service]' && python -m pytest -q")
