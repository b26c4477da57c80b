"""Every pointer from the code and the documents to benchmarks/HISTORY.md or to a result
file resolves.

A pointer to a decision is written ``benchmarks/HISTORY.md, "Title"`` (the title of one of
its sections, exactly) or ``HISTORY.md#anchor``; a pointer to figures names a file,
``benchmarks/results/solve-s4.json``. benchmarks/RESULTS.md, the lab notebook HISTORY.md
replaced, is only named with the commit it is read at ("RESULTS.md at 26b6c0d"). Like
tests/rules/test_rules_md.py for RULES.md.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HISTORY = ROOT / "benchmarks" / "HISTORY.md"

HEADING = re.compile(r"^#{2,3} (.+?)\s*$", re.MULTILINE)
NAMED = re.compile(r"HISTORY\.md`?[,:]? \(?[\"“]([^\"”]+)[\"”]")
LINK = re.compile(r"HISTORY\.md#([\w-]+)")
RESULT = re.compile(r"benchmarks/results/([\w.-]+\.json(?:l\b)?)")
#: RESULTS.md, unless named with the commit it is read at.
NOTEBOOK = re.compile(r"(?<![0-9a-f]{7}:benchmarks/)RESULTS\.md(?!`? at [0-9a-f]{7})")


def titles():
    return HEADING.findall(HISTORY.read_text(encoding="utf-8"))


def slug(title):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def flatten(text):
    """Join wrapped lines: a line break, the indentation and a comment leader become one space."""
    return re.sub(r"\s*\n\s*(?:#:?\s*)?", " ", text)


def pointing_files():
    """The files that may point into benchmarks/: the package, the benchmarks, the docs, the tests."""
    files = [ROOT / name for name in ("README.md", "RULES.md", "pyproject.toml")]
    for folder, patterns in (("spider_solver", ["*.py"]), ("benchmarks", ["*.py", "*.md", "*.json"]),
                             ("docs", ["*.md"]), ("tests", ["*.py"]), ("data", ["*.py"])):
        for pattern in patterns:
            files.extend(sorted((ROOT / folder).rglob(pattern)))
    return [path for path in files if path.is_file() and path != Path(__file__).resolve()]


def broken(text, known, where="text"):
    """The pointers of ``text`` that do not resolve, as messages."""
    text = flatten(text)
    anchors = {slug(title) for title in known}
    found = []
    for match in NAMED.finditer(text):
        if match[1] not in known:
            found.append(f"{where}: no section {match[1]!r} in benchmarks/HISTORY.md")
    for match in LINK.finditer(text):
        if match[1] not in anchors:
            found.append(f"{where}: no anchor #{match[1]} in benchmarks/HISTORY.md")
    for match in RESULT.finditer(text):
        if not (ROOT / "benchmarks" / "results" / match[1]).is_file():
            found.append(f"{where}: no result file benchmarks/results/{match[1]}")
    for match in NOTEBOOK.finditer(text):
        found.append(f"{where}: benchmarks/RESULTS.md is gone; point at benchmarks/HISTORY.md or a result file "
                     f"({text[max(0, match.start() - 40) : match.end() + 40]!r})")
    return found


def test_history_has_sections_with_distinct_titles():
    known = titles()
    assert len(known) >= 10
    assert len(set(known)) == len(known)


def test_every_pointer_resolves():
    known = set(titles())
    problems = []
    pointers = 0
    for path in pointing_files():
        text = path.read_text(encoding="utf-8")
        pointers += len(NAMED.findall(flatten(text))) + len(RESULT.findall(flatten(text)))
        problems += broken(text, known, str(path.relative_to(ROOT)))
    assert not problems, "\n".join(problems)
    assert pointers >= 15  # the constants' comments point at their decisions


def test_a_broken_pointer_is_caught():
    known = set(titles())
    title = sorted(known)[0]
    assert not broken(f'(benchmarks/HISTORY.md, "{title}")', known)
    assert broken('(benchmarks/HISTORY.md, "No such\n    #: section")', known)
    assert broken("benchmarks/HISTORY.md#no-such-anchor", known)
    assert broken("see benchmarks/results/no-such-file.json", known)
    assert broken('benchmarks/RESULTS.md, "Tail strength"', known)
    assert not broken("benchmarks/RESULTS.md at 26b6c0d", known)
