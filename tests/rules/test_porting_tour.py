"""The rules tour of the documentation (docs/porting.md) runs as a doctest.

It uses the rules engine alone, so it runs in this tier; the README's tour, which calls the
solver, runs in tests/test_docs.py.
"""

import doctest
from pathlib import Path

PORTING = Path(__file__).resolve().parents[2] / "docs" / "porting.md"


def test_porting_rules_tour():
    text = PORTING.read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {}, "docs/porting.md", str(PORTING), 0)
    assert len(test.examples) >= 10
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
