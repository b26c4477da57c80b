"""Code comments and docstrings state contracts; histories live in benchmarks/ and git.

A comment may give a constant one line of why and a pointer to the benchmark history
(a section of ``benchmarks/HISTORY.md``, which tests/test_pointers.py checks); it does not
recount the tuning: no issue numbers, no dates, no commit ids, no ranges of tuning deals.
"""

import io
import re
import tokenize
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "spider_solver"

#: What a history looks like in a comment or a docstring.
HISTORY = {
    "an issue number": re.compile(r"\bissues? \d+|\bissue-\d+"),
    "a date": re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b(?!T12:00:00Z)"),
    "a commit id": re.compile(r"\bcommit [0-9a-f]{7,40}\b|\([0-9a-f]{7}\)"),
    "a range of tuning deals": re.compile(r"\b\d{5,6}-\d{5,6}\b"),
}


def prose(path: Path) -> list[tuple[int, str]]:
    """The comments and the docstrings (string statements) of a module, with their lines."""
    found = []
    tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline))
    for index, token in enumerate(tokens):
        if token.type == tokenize.COMMENT or token.type == tokenize.STRING and (index == 0 or tokens[index - 1].type in (
                tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)):
            found.append((token.start[0], token.string))
    return found


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_comments_state_contracts_not_histories(path):
    histories = [f"line {line}: {what}: {match.group(0)!r}"
                 for line, text in prose(path) for what, pattern in HISTORY.items()
                 for match in [pattern.search(text)] if match]
    assert histories == []


def test_the_check_sees_a_history(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""Tuned on deals 10000-10099 (issue 11, commit 0c76759)."""\nX = 1  # since 2026-11-30\n')
    assert {what for line, text in prose(module) for what, pattern in HISTORY.items() if pattern.search(text)} == set(
        HISTORY)
