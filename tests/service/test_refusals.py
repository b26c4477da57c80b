"""Every field of every endpoint, sent a value of the wrong type, is refused in the project's
words (spider_solver/service/refusals.py): the answer names the field and says what it takes,
never pydantic's "Input should be ..."; an unknown field or parameter is named with those the
endpoint takes. The endpoints and their fields are read from the OpenAPI document, so that a
field added later is covered too."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from spider_solver.catalog import Catalog  # noqa: E402
from spider_solver.service.app import Settings, create_app  # noqa: E402
from spider_solver.service.refusals import TAKES  # noqa: E402

#: pydantic's and FastAPI's own words, which no answer should carry.
FOREIGN = re.compile(r"Input should|valid (string|integer|list|boolean|number|dictionary)|Field required|"
                     r"Extra inputs|Value error|model_attributes|literal_error|Unable to")
#: A value no field of the API takes (every field is a string, a number, a boolean, a list or null).
WRONG = {"nested": {"object": True}}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    path = tmp_path_factory.mktemp("refusals") / "catalog.sqlite"
    Catalog(path).close()
    with TestClient(create_app(Settings(catalog=str(path), read_only=True))) as test_client:
        yield test_client


def operations(client):
    document = client.get("/openapi.json").json()
    schemas = document["components"]["schemas"]
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            model = schemas[body["$ref"].rsplit("/", 1)[1]] if body else None
            yield path, method, operation.get("parameters", []), model


def concrete(path: str) -> str:
    return re.sub(r"\{code[^}]*\}", "SP1-S1C-AAAAAAB", path)


def message(response) -> str:
    assert response.status_code == 422, response.text
    return response.json()["error"]["message"]


def test_every_body_field_refuses_a_wrong_value_naming_itself_in_the_projects_words(client):
    seen = 0
    for path, method, _, model in operations(client):
        if model is None:
            continue
        for name in model["properties"]:
            assert name in TAKES, f"{path}: no words for the field {name!r} (refusals.TAKES)"
            body = {"code": "SP1-S1C-AAAAAAB", name: WRONG} if name not in ("code", "deck") else {name: WRONG}
            if "receipt" in model["properties"] and name != "receipt":
                body = {"receipt": "x.y", name: WRONG}
            text = message(client.request(method.upper(), concrete(path), json=body))
            assert f"body.{name}: expected " in text and not FOREIGN.search(text), (path, name, text)
            seen += 1
    assert seen >= 20


def test_every_query_parameter_refuses_a_wrong_value_naming_itself(client):
    seen = 0
    for path, method, parameters, _ in operations(client):
        for parameter in parameters:
            if parameter["in"] != "query":
                continue
            name = parameter["name"]
            assert name in TAKES, f"{path}: no words for the parameter {name!r} (refusals.TAKES)"
            schema = parameter["schema"]["anyOf"][0]
            free = schema.get("type") == "string" and not {"pattern", "enum", "format", "const"} & set(schema)
            bad = "x" * (schema["maxLength"] + 1) if free else "!bad!"  # any text of its length is good
            text = message(client.request(method.upper(), concrete(path), params={name: bad}))
            assert text.startswith(f"query.{name}: ") and not FOREIGN.search(text), (path, name, text)
            seen += 1
    assert seen >= 8


def test_an_unknown_field_or_parameter_is_named_with_those_the_endpoint_takes(client):
    text = message(client.post("/v1/replay", json={"code": "SP1-S1C-AAAAAAB", "colour": "red"}))
    assert text == ("body.colour: no such field (the fields are code, deck, suits, rule, actions, deal_on_empty, "
                    "undo_limit)")
    text = message(client.get("/v1/catalog/random", params={"colour": "red"}))
    assert text.startswith("query.colour: this endpoint takes no such parameter (it takes difficulty, ")


@pytest.mark.parametrize(("body", "expected"), [
    ({"code": "SP1-S1C-AAAAAAB", "actions": None},
     "body.actions: expected the game log: a list of at most 10,000 actions, or one string of actions separated by "
     "spaces or commas; got null"),
    ({"code": "SP1-S1C-AAAAAAB", "undo_limit": -1},
     "body.undo_limit: expected a whole number from 0 to 1,000,000, or null for the whole history (at least 0); "
     "got -1"),
    ({"code": "SP1-S1C-AAAAAAB", "deal_on_empty": "yes"}, 'body.deal_on_empty: expected true or false; got "yes"'),
    ({"code": None}, 'body.code: expected a game code such as "SP1-S4C-AAAAAAD"; got null'),
    ([], "body: the body must be a JSON object of the request's fields, not []"),
])
def test_the_issues_examples(client, body, expected):
    assert message(client.post("/v1/replay", json=body)) == expected
