"""docs/service.md says what the service answers: every endpoint of the OpenAPI document is in
its table, the catalog row's fields are listed in order, the daily deal's recipe is the
server's, and the bracket example (a log with an undo) is what the analysis answers."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from spider_solver.record import FIELD_NAMES  # noqa: E402
from spider_solver.service.app import Settings, create_app  # noqa: E402

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "service.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = PAGE.index(f"\n## {title}\n")
    end = PAGE.find("\n## ", start + 1)
    return PAGE[start:end if end > 0 else None]


def test_every_endpoint_is_in_the_table():
    table = section("Endpoints")
    document = create_app(Settings(read_only=True)).openapi()
    for path, operations in document["paths"].items():
        for method in operations:
            assert re.search(rf"`{method.upper()} {re.escape(path)}[`?]", table), f"{method.upper()} {path}"


def test_the_catalog_rows_fields_are_listed_in_order():
    listed = re.findall(r"^\| `(\w+)` \|", section("The catalog row"), re.MULTILINE)
    assert tuple(listed) == FIELD_NAMES


def test_the_daily_recipe_is_the_servers():
    from spider_solver.catalog.daily import daily_choice

    block = re.search(r"```python\n(.*?)```", section("The daily deal"), re.DOTALL)[1]
    codes = [f"SP1-S4C-AAAAA{a}{b}" for a in "AB" for b in "ABCDEFGH"]
    for date in ("2026-01-31", "2027-07-04"):
        scope = {"codes": codes, "date": date}
        exec(block, scope)  # noqa: S102 - the page's own example
        assert scope["daily"] == daily_choice(date, codes)
        assert scope["daily"] == max(codes, key=lambda code: hashlib.sha256(f"{date} {code}".encode()).digest())


@pytest.mark.usefixtures("engine")
def test_the_bracket_example_with_an_undo_is_what_the_analysis_answers():
    from spider_solver import analyze

    text = re.search(r"```js\n(.*?)```", section("The analysis answer"), re.DOTALL)[1]
    shown = json.loads(text.replace('"..."', '"etc"'))
    answer = analyze("SP1-S1C-AAAAAMZ", "D D D U D D D").to_dict()
    for key in ("status", "lost_at", "lost_at_action", "effective", "summary"):
        assert shown[key] == answer[key], key
    bracket = answer["bracket"]
    assert {k: v for k, v in shown["bracket"].items() if k != "line"} == {
        k: v for k, v in bracket.items() if k != "line"}
    assert bracket["line"][:2] == shown["bracket"]["line"][:2]
