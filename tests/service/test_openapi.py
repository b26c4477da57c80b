"""The served OpenAPI document does not change by accident, descriptions aside.

``fixtures/openapi-snapshot.json`` is the document as the service serves it
(``create_app(Settings(read_only=True)).openapi()``, keys sorted), taken before issue 49 typed
its results and declared the analysis once, and taken again each time the API changed on
purpose since (issue 53: new games, the daily deal, finished games, ...). The paths, the
models, their fields, types, bounds and which are required must stay the same; only the
prose (``description``) may be reworded. A deliberate change to the API writes the fixture
again in the same commit (``python -m tests.service.test_openapi``), and says why.

Every property of every answer has a description, and every endpoint that can reveal what a
player has not seen says so (docs/service.md, "Spoilers").
"""

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from spider_solver.service.app import Settings, create_app  # noqa: E402

BEFORE = Path(__file__).with_name("fixtures") / "openapi-snapshot.json"


def without_prose(node):
    """The document with every ``description`` text left out, and the version: what a client's code depends on."""
    if isinstance(node, dict):
        return {key: without_prose(value) for key, value in node.items()
                if not (key == "description" and isinstance(value, str)) and key != "version"}
    if isinstance(node, list):
        return [without_prose(value) for value in node]
    return node


def test_the_served_document_is_the_one_before_descriptions_aside():
    now = create_app(Settings(read_only=True)).openapi()
    before = json.loads(BEFORE.read_text(encoding="utf-8"))
    assert without_prose(json.loads(json.dumps(now))) == without_prose(before)


def test_the_comparison_sees_a_changed_field():
    """The check is not blind: a renamed property or a changed type is a difference; a reworded description is not."""
    before = json.loads(BEFORE.read_text(encoding="utf-8"))
    schemas = before["components"]["schemas"]
    name = next(iter(schemas))
    changed = json.loads(json.dumps(before))
    changed["components"]["schemas"][name]["description"] = "other words"
    assert without_prose(changed) == without_prose(before)
    prop = next(iter(changed["components"]["schemas"][name].get("properties", {"x": {}})))
    changed["components"]["schemas"][name].setdefault("properties", {})[prop] = {"type": "boolean"}
    assert without_prose(changed) != without_prose(before)


def test_every_property_of_every_response_has_a_description():
    """A frontend author reads what each field of an answer means in the document itself."""
    document = create_app(Settings(read_only=True)).openapi()
    schemas = document["components"]["schemas"]
    reached: set[str] = set()

    def follow(node):
        if isinstance(node, dict):
            ref = node.get("$ref")
            if ref and ref.rsplit("/", 1)[1] not in reached:
                reached.add(ref.rsplit("/", 1)[1])
                follow(schemas[ref.rsplit("/", 1)[1]])
            for value in node.values():
                follow(value)
        elif isinstance(node, list):
            for value in node:
                follow(value)

    for operations in document["paths"].values():
        for operation in operations.values():
            follow(operation.get("responses", {}))
    assert {"AnalysisResponse", "PositionResponse", "CatalogDeal", "BracketResponse", "ErrorResponse"} <= reached
    missing = [f"{name}.{prop}" for name in sorted(reached)
               for prop, schema in schemas[name].get("properties", {}).items() if not schema.get("description")]
    assert missing == []


#: Fields that can give away what the player has not seen: cards face down or in the stock, or a
#: winning line found knowing them.
SPOILERS = {"deck", "stock", "solution", "line", "hint", "lost_at_line"}


def test_every_endpoint_that_can_reveal_a_hidden_card_or_a_winning_line_says_so():
    """docs/service.md, "Spoilers": such an operation carries ``x-reveals`` (what, and when)
    and its description says "Reveals" (or how to ask for it); the others carry neither."""
    document = create_app(Settings(read_only=True)).openapi()
    schemas = document["components"]["schemas"]

    def names(node, seen):
        if isinstance(node, dict):
            ref = node.get("$ref")
            if ref and ref not in seen:
                seen.add(ref)
                yield from names(schemas[ref.rsplit("/", 1)[1]], seen)
            for key, value in node.items():
                if key == "properties":
                    yield from value
                yield from names(value, seen)
        elif isinstance(node, list):
            for value in node:
                yield from names(value, seen)

    marked = set()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            success = {status: answer for status, answer in operation["responses"].items() if status.startswith("2")}
            reveals = SPOILERS & set(names(success, set()))
            label = f"{method.upper()} {path}"
            if reveals:
                assert operation.get("x-reveals"), f"{label} can give {sorted(reveals)} and does not say so"
                assert re.search(r"\*\*Reveals|include=solution", operation["description"]), label
                marked.add(label)
            else:
                assert "x-reveals" not in operation, label
    assert {"GET /v1/deals/{code}", "POST /v1/verify", "POST /v1/analyze", "GET /v1/catalog/random",
            "GET /v1/catalog/daily", "GET /v1/catalog/deals"} <= marked
    assert "POST /v1/position" not in marked


def write_snapshot() -> None:
    """Write the fixture from the application as it is now: for a deliberate change of the API."""
    document = create_app(Settings(read_only=True)).openapi()
    BEFORE.write_text(json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_snapshot()
