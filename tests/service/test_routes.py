"""The HTTP service through FastAPI's test client: every endpoint, its errors, its limits.

One application with one solver process serves the module (the process loads the
compiled engine once); a second, read-only one shares its catalog file. Searches are
of 1-suit deals, a few hundredths of a second each.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import NamedTuple
from urllib.parse import quote

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from spider_solver import (
    limits,  # noqa: E402
    solve,  # noqa: E402
)
from spider_solver.catalog import LOCK_TRY_SECONDS, Catalog  # noqa: E402
from spider_solver.errors import CatalogError, SpiderError  # noqa: E402
from spider_solver.export import deal_json, schema_text  # noqa: E402
from spider_solver.outcomes import Reason, Status  # noqa: E402
from spider_solver.rules import Deal, replay  # noqa: E402
from spider_solver.rules.codes import GameCode  # noqa: E402
from spider_solver.service import models  # noqa: E402
from spider_solver.service.app import Settings, create_app  # noqa: E402
from spider_solver.service.routes import deals  # noqa: E402
from spider_solver.service.state import CatalogWriter  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine")

SCHEMA = json.loads(schema_text())

#: Verified in the catalog before the server starts.
STORED = ["SP1-S1C-AAAAAAA", "SP1-S1C-AAAAAAB", "SP1-S1C-AAAAAAC"]
#: Not in the catalog: the service must search them.
NEW = "SP1-S1C-AAAAAAE"
#: An unknown row at a small budget, and a (made-up, for the reading tests) unwinnable row.
UNKNOWN = "SP1-S4C-AAAAAAB"
UNWINNABLE = "SP1-S2C-AAAAAAA"


@pytest.fixture(scope="module")
def catalog_path(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("service") / "catalog.sqlite"
    with Catalog(path) as db:
        for code in STORED:
            db.record(solve(code))
        db.set_grade(STORED[0], {"difficulty": 1, "difficulty_raw": 10.0, "grader_version": "test"})
        db.set_grade(STORED[1], {"difficulty": 5, "difficulty_raw": 60.0, "grader_version": "test"})
        db.record(solve(UNKNOWN, max_nodes=1_000))
        db.record({"code": UNWINNABLE, "status": "unwinnable", "nodes": 10, "seconds": 0.1, "max_nodes": 1_000,
                   "max_seconds": None})
    return path


@pytest.fixture(scope="module")
def client(catalog_path):
    app = create_app(Settings(catalog=str(catalog_path), solvers=1, max_nodes_cap=2_000_000, max_seconds_cap=20.0))
    with TestClient(app, raise_server_exceptions=True) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def read_only(catalog_path):
    app = create_app(Settings(catalog=str(catalog_path), read_only=True))
    with TestClient(app) as test_client:
        yield test_client


def error_of(response, status: int, kind: str) -> str:
    """The error's message, after checking its status, type and shape."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["type"] == kind, body
    assert body["error"]["message"] and "Traceback" not in response.text
    return body["error"]["message"]


# --------------------------------------------------------------------------- #
# health, docs
# --------------------------------------------------------------------------- #


def test_health(client, read_only):
    body = client.get("/v1/health").json()
    assert body["status"] == "ok" and body["read_only"] is False and body["catalog"] is True
    assert body["searches"]["solvers"] == 1 and body["searches"]["capacity"] == 5
    assert read_only.get("/v1/health").json()["read_only"] is True


def test_openapi_document_and_docs(client):
    document = client.get("/openapi.json").json()
    assert set(document["paths"]) == {
        "/v1/health", "/v1/deals/{code}", "/v1/verify", "/v1/replay", "/v1/analyze", "/v1/position", "/v1/catalog/deals",
        "/v1/catalog/deals/{code}", "/v1/catalog/random", "/v1/catalog/daily", "/v1/games", "/v1/games/verify",
        "/v1/deals/{code}/games", "/v1/review",
    }
    assert "ErrorResponse" in document["components"]["schemas"]
    assert client.get("/docs").status_code == 200


def test_openapi_documents_every_error_a_body_can_meet_and_no_null_a_row_cannot_have(client):
    """A POST's body can be malformed (400), late (408), too large (413), not JSON (415),
    invalid (422) or still arriving when the server stops (503 stopping); a catalog row's
    code, deal number and time are never null, and their descriptions do not say they may be."""
    document = client.get("/openapi.json").json()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method == "post":
                assert {"400", "408", "413", "415", "422", "503"} <= set(operation["responses"]), path
    row = document["components"]["schemas"]["CatalogDeal"]
    for name in ("code", "deal", "solved_at"):
        assert name in row["required"] and "anyOf" not in row["properties"][name], name
        assert "null" not in row["properties"][name]["description"], row["properties"][name]
    answer = document["components"]["schemas"]["VerifyResponse"]["properties"]
    assert {"type": "null"} in answer["code"]["anyOf"] and "null for an explicit deck" in answer["code"]["description"]


# --------------------------------------------------------------------------- #
# GET /v1/deals/{code}
# --------------------------------------------------------------------------- #


def test_deal_layout_is_show_json_with_the_catalog_entry(client):
    body = client.get(f"/v1/deals/{STORED[0]}").json()
    catalog = body.pop("catalog")
    assert body == deal_json(Deal.from_code(STORED[0]))
    assert catalog["status"] == "verified" and catalog["difficulty"] == 1 and catalog["moves"] > 0
    assert catalog["score"] == 500 + 800 - catalog["moves"]


def test_deal_not_in_the_catalog_has_no_entry(client):
    body = client.get("/v1/deals/SP1-S4C-AAAAAHQ").json()
    assert body["catalog"] is None and body["code"] == "SP1-S4C-AAAAAHQ" and len(body["deck"]) == 104


@pytest.mark.parametrize("code", ["XYZ", "SP1-S3C-AAAAAAA", "SP1-S4C-AAAAAA1", "SP1-S4C-AAAAAAAAAAAAAAAAAA",
                                  "SP1-S4C-AAAA/AAD", "SP1-S4C-AAAAAAD/", "A" * 50, " " * 30 + "SP1-S4C-AAAAAAD"])
def test_bad_code_is_422(client, code):
    """Off the pattern, too long (padded with spaces too), or with a "/" (sent as %2F: a
    code, not another path)."""
    message = error_of(client.get(f"/v1/deals/{quote(code, safe='')}"), 422, "invalid-code")
    assert code[:10] in message
    assert code[:10] in error_of(client.post("/v1/verify", json={"code": code}), 422, "invalid-code")


@pytest.mark.parametrize("code", ["\u017fP1-\u017f1C-AAAAAAA", "SP1-S1C-\u0131AAAAAA", "sp1-s1c-aaaaaa\u0131"])
def test_code_is_read_as_the_cli_reads_it(client, code):
    """Letters that str.upper() folds into ASCII ones (long s, dotless i) are not code
    letters: refused as the CLI refuses them, never read as another deal's code."""
    with pytest.raises(SpiderError):
        GameCode.parse(code)
    error_of(client.get(f"/v1/deals/{code}"), 422, "invalid-code")
    error_of(client.post("/v1/verify", json={"code": code}), 422, "invalid-code")


def test_bad_code_is_quoted_as_sent(client):
    assert "'garbage'" in error_of(client.get("/v1/deals/garbage"), 422, "invalid-code")
    assert "'garbage'" in error_of(client.post("/v1/replay", json={"code": "garbage", "actions": ""}), 422,
                                   "invalid-code")


def test_code_in_lower_case_with_spaces_is_the_same_deal(client):
    assert client.get("/v1/deals/%20sp1-s4c-aaaaahq%20").json()["code"] == "SP1-S4C-AAAAAHQ"


def test_overlong_code_is_refused_with_its_start_alone(client):
    """A code of 5,000 characters is refused as a code, quoting its first 40 characters."""
    message = error_of(client.get("/v1/deals/" + "A" * 5000), 422, "invalid-code")
    assert message == f"path.code: invalid game code '{'A' * 40}'...: expected three parts like SP1-S4C-AAAAAAD"


# --------------------------------------------------------------------------- #
# POST /v1/verify
# --------------------------------------------------------------------------- #


def test_verify_answers_a_settled_deal_from_the_catalog(client, catalog_path):
    with Catalog(catalog_path) as db:
        stored = db.get(STORED[1])
    body = client.post("/v1/verify", json={"code": STORED[1]}).json()
    assert body["source"] == "catalog"
    assert body["solution"] == list(stored.solution) and body["nodes"] == stored.nodes
    assert body["difficulty"] == 5
    assert client.post("/v1/verify", json={"code": UNWINNABLE}).json()["status"] == "unwinnable"


def test_verify_searches_a_new_deal_and_records_it(client, catalog_path):
    body = client.post("/v1/verify", json={"code": NEW}).json()
    assert body["source"] == "search" and body["status"] == "verified" and body["reason"] == "won"
    assert replay(Deal.from_code(NEW), body["solution"]).won
    assert body["max_nodes"] == 2_000_000 and body["max_seconds"] == 20.0  # the server's caps
    with Catalog(catalog_path) as db:
        assert db.get(NEW).solution == tuple(body["solution"])
    assert client.post("/v1/verify", json={"code": NEW}).json()["source"] == "catalog"


def test_a_deal_verified_by_the_service_is_graded_in_the_background_as_by_the_batch(client):
    from spider_solver.batch.task import grade_deal

    client.post("/v1/verify", json={"code": NEW})
    grades = grades_settled(client)
    expected = grade_deal(NEW).grade
    assert expected is not None and grades[NEW] == expected.grade
    catalog = client.get(f"/v1/deals/{NEW}").json()["catalog"]
    assert (catalog["difficulty"], catalog["difficulty_raw"], catalog["grader_version"]) == (
        expected.grade, expected.raw, expected.version)
    # "New game" can pick it now.
    assert NEW in {d["code"] for d in client.get(
        "/v1/catalog/deals", params={"suits": 1, "difficulty": str(grades[NEW])}).json()["deals"]}
    assert client.post("/v1/verify", json={"code": NEW}).json()["difficulty"] == grades[NEW]


def test_an_unknown_below_the_default_budget_is_answered_not_recorded(client, catalog_path):
    body = client.post("/v1/verify", json={"code": "SP1-S4C-AAAAAAK", "max_nodes": 1}).json()
    assert body["status"] == "unknown" and body["source"] == "search"
    with Catalog(catalog_path) as db:
        assert db.get("SP1-S4C-AAAAAAK") is None
    assert client.get("/v1/deals/SP1-S4C-AAAAAAK").json()["catalog"] is None


@pytest.mark.parametrize("status, max_nodes, max_seconds, recorded", [
    ("verified", 1_000, 1.0, True),
    ("unwinnable", 1_000, 1.0, True),
    ("unknown", limits.DEFAULT_MAX_NODES - 1, None, False),
    ("unknown", limits.DEFAULT_MAX_NODES, limits.MAX_SECONDS_LIMIT, False),  # the default has no time limit
    ("unknown", limits.DEFAULT_MAX_NODES, None, True),
])
def test_the_service_records_an_unknown_only_at_the_default_budget_or_more(status, max_nodes, max_seconds,
                                                                           recorded):
    from spider_solver.record import SolveRecord
    from spider_solver.service.state import worth_recording

    result = SolveRecord(code=NEW, status=status, max_nodes=max_nodes, max_seconds=max_seconds,
                         reason="nodes" if status == "unknown" else None)  # type: ignore[arg-type]
    assert worth_recording(result) is recorded


def test_verify_fields_are_those_of_verify_json(client):
    body = client.post("/v1/verify", json={"code": STORED[2]}).json()
    assert {"code", "status", "solution", "moves", "score", "nodes", "seconds"} <= set(body)


def test_verify_explicit_deck_is_searched_not_recorded(client):
    deck = Deal.from_code("SP1-S1C-AAAAAAF").text()
    body = client.post("/v1/verify", json={"deck": deck, "suits": 1}).json()
    assert body["code"] is None and body["status"] == "verified" and body["source"] == "search"


def test_a_budget_over_the_caps_is_refused_naming_them_and_the_document_says_the_caps(client):
    """The caps are the document's maxima (docs/service.md, "Budgets"): a budget over one
    is a 422 that names it, not lowered in silence."""
    over = client.post("/v1/verify", json={"code": "SP1-S4C-AAAAAAG", "max_nodes": 10**12, "max_seconds": 10**6})
    assert over.status_code == 422 and over.json()["error"]["type"] == "invalid-request"
    message = over.json()["error"]["message"]
    assert "at most 2,000,000, the server's --max-nodes-cap" in message
    assert "at most 20.0, the server's --max-seconds-cap" in message
    assert client.post("/v1/analyze", json={"code": STORED[0], "max_nodes": 2_000_001}).status_code == 422
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for name in ("VerifyRequest", "AnalyzeRequest"):
        properties = schemas[name]["properties"]
        assert properties["max_nodes"]["anyOf"][0]["maximum"] == 2_000_000
        assert properties["max_seconds"]["anyOf"][0]["maximum"] == 20.0
    body = client.post("/v1/verify", json={"code": "SP1-S4C-AAAAAAG", "max_nodes": 2_000_000, "max_seconds": 20.0})
    assert body.json()["max_nodes"] == 2_000_000 and body.json()["max_seconds"] == 20.0
    tiny = client.post("/v1/verify", json={"code": "SP1-S4C-AAAAAAH", "max_nodes": 500}).json()
    assert tiny["status"] == "unknown" and tiny["reason"] == "nodes" and tiny["solution"] == []
    assert tiny["moves"] is None and tiny["source"] == "search"


def test_an_unknown_row_at_a_smaller_budget_is_searched_again(client):
    again = client.post("/v1/verify", json={"code": UNKNOWN, "max_nodes": 500}).json()
    assert again["source"] == "catalog" and again["status"] == "unknown"  # settled at 1,000 nodes
    assert client.post("/v1/verify", json={"code": UNKNOWN, "max_nodes": 2_000}).json()["source"] == "search"


@pytest.mark.parametrize("body", [
    {},
    {"code": STORED[0], "deck": "AS"},
    {"code": STORED[0], "colour": "red"},
    {"code": STORED[0], "max_nodes": 0},
    {"code": STORED[0], "max_nodes": "many"},
    {"code": STORED[0], "max_seconds": -1},
    {"code": STORED[0], "max_seconds": 1e300},
    {"code": 7},
    {"deck": "AS 2S", "suits": 3},
])
def test_verify_bad_request_is_422(client, body):
    error_of(client.post("/v1/verify", json=body), 422, "invalid-request")


def test_verify_bad_deck_names_the_problem(client):
    message = error_of(client.post("/v1/verify", json={"deck": "AS 2S", "suits": 1}), 422, "invalid-deal")
    assert "2 cards" in message


@pytest.mark.parametrize("body, where", [(b"{", "at byte offset 1"), (b'{"code": "x"} junk', "at byte offset 14"),
                                         (b"{'code': 'x'}", "at byte offset 1")])
def test_malformed_json_is_400_and_says_where(client, body, where):
    message = error_of(client.post("/v1/verify", content=body, headers={"Content-Type": "application/json"}), 400,
                       "invalid-request")
    assert message.startswith("the body is not valid JSON") and f"{where} (line 1, column " in message


@pytest.mark.parametrize("path", ["/v1/verify", "/v1/analyze", "/v1/replay"])
def test_an_empty_json_body_is_400_as_any_body_that_is_not_json(client, path):
    message = error_of(client.post(path, content=b"", headers={"Content-Type": "application/json"}), 400,
                       "invalid-request")
    assert message == "the body is not valid JSON: it is empty (expected an object)"


@pytest.mark.parametrize("content_type", [None, "text/plain;charset=UTF-8", "application/x-www-form-urlencoded"])
def test_a_body_not_sent_as_json_is_415(client, content_type):
    """fetch() sends a string body as text/plain unless told: say so, not "not a dictionary"."""
    headers = {} if content_type is None else {"Content-Type": content_type}
    message = error_of(client.post("/v1/replay", content=json.dumps({"code": STORED[0]}), headers=headers), 415,
                       "unsupported-media-type")
    assert "Content-Type: application/json" in message
    ok = client.post("/v1/replay", content=json.dumps({"code": STORED[0]}),
                     headers={"Content-Type": "application/json; charset=utf-8"})
    assert ok.status_code == 200


@pytest.mark.parametrize("suits", [True, 2.5, "2"])
def test_suits_must_be_a_json_integer(client, suits):
    """True == 1 in Python: the literal alone would take it."""
    message = error_of(client.post("/v1/replay", json={"deck": "AS", "suits": suits}), 422, "invalid-request")
    assert message.startswith("body.suits")


def test_a_whole_number_written_with_a_point_is_an_integer(client):
    """JSON Schema's integer takes 2.0 (a number's type is its value): so does the server."""
    deck = Deal.from_code("SP1-S2C-AAAAAAB").text()
    assert client.post("/v1/replay", json={"deck": deck, "suits": 2.0, "undo_limit": 177.0}).status_code == 200
    answer = client.post("/v1/verify", json={"code": STORED[0], "max_nodes": 1000.0})
    assert answer.status_code == 200 and answer.json()["source"] == "catalog"


@pytest.mark.parametrize("extra", [{"suits": 4}, {"rule": "relaxed"}, {"suits": 1, "rule": "classic"}])
def test_suits_and_rule_are_refused_with_a_code(client, extra):
    """The code carries both: a request that also says them is refused, not half-ignored."""
    message = error_of(client.post("/v1/replay", json={"code": STORED[0]} | extra), 422, "invalid-request")
    assert "explicit \"deck\"" in message


@pytest.mark.parametrize("value", [b"NaN", b"Infinity", b"-Infinity"])
def test_max_seconds_must_be_finite(client, value):
    body = b'{"code": "%s", "max_seconds": %s}' % (STORED[0].encode(), value)
    message = error_of(client.post("/v1/verify", content=body, headers={"Content-Type": "application/json"}), 422,
                       "invalid-request")
    assert "finite" in message


def test_identical_concurrent_verifies_share_one_search(client):
    searches = client.app.state.searches
    before = searches.started
    answers = []

    def ask():
        answers.append(client.post("/v1/verify", json={"code": "SP1-S4C-AAAAAAJ", "max_nodes": 1_500_000}).json())

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 4 and len({json.dumps(a, sort_keys=True) for a in answers}) <= 2  # search, catalog
    assert all(a["solution"] == answers[0]["solution"] for a in answers)
    assert searches.started - before == 1


# --------------------------------------------------------------------------- #
# POST /v1/replay
# --------------------------------------------------------------------------- #


def test_replay_scores_a_log(client):
    deal = Deal.from_code(STORED[0])
    line = solve(deal).solution
    for actions in (list(line), " ".join(line), ", ".join(line[:10])):
        body = client.post("/v1/replay", json={"code": STORED[0], "actions": actions}).json()
        expected = replay(deal, actions)
        assert body == {"code": STORED[0], "won": expected.won, "moves": expected.moves, "score": expected.score,
                        "runs_removed": expected.runs_removed, "stock_left": expected.stock_left}


def test_replay_refused_action_names_its_index_and_the_rule(client):
    response = client.post("/v1/replay", json={"code": STORED[0], "actions": ["D", "D", "7>7"]})
    message = error_of(response, 422, "refused-action")
    error = response.json()["error"]
    assert error["index"] == 2 and error["action"] == "7>7" and "action 3" in message


@pytest.mark.parametrize("actions", [["", "2>1"], ["D 2>1"], ["D,2>1"], [" D"], ["D\x1c2>1"], ["D\x1fD"],
                                     ["D\x85D"], ["D\u3000D"]])
def test_a_list_item_is_one_action(client, actions):
    """So that the index of a refused action is the index of the list's item; the message
    names the item in words, without pydantic's names of the union's members."""
    message = error_of(client.post("/v1/replay", json={"code": STORED[0], "actions": actions}), 422,
                       "invalid-request")
    assert message.startswith("body.actions.0: ")
    assert "one action" in message
    assert "constrained" not in message and "valid string" not in message


def test_an_overlong_action_of_a_log_string_is_refused(client):
    message = error_of(client.post("/v1/replay", json={"code": STORED[0], "actions": "D " + "U" * 99}), 422,
                       "invalid-request")
    assert "each at most 40 characters" in message and "UUUU" not in message


@pytest.mark.parametrize("field, value", [
    ("max_nodes", "1000"), ("max_nodes", True), ("max_nodes", 1000.5), ("deal_on_empty", "yes"),
    ("deal_on_empty", 1), ("undo_limit", "5"), ("undo_limit", True), ("lost_at", "false"),
])
def test_values_of_another_json_type_are_refused(client, field, value):
    error_of(client.post("/v1/analyze", json={"code": STORED[0], field: value}), 422, "invalid-request")


def test_replay_undo_limit(client):
    log = ["D", "U"]
    assert client.post("/v1/replay", json={"code": STORED[0], "actions": log, "undo_limit": None}).status_code == 200
    error_of(client.post("/v1/replay", json={"code": STORED[0], "actions": log, "undo_limit": 0}), 422,
             "refused-action")
    error_of(client.post("/v1/replay", json={"code": STORED[0], "actions": log, "undo_limit": -1}), 422,
             "invalid-request")


def test_replay_log_limits(client):
    """The same limit answers alike whether the log is a list or a string."""
    as_list = error_of(client.post("/v1/replay", json={"code": STORED[0], "actions": ["U"] * (limits.MAX_ACTIONS + 1)}),
                       422, "invalid-request")
    message = error_of(client.post("/v1/replay", json={"code": STORED[0], "actions": "U" * (limits.MAX_LOG_TEXT + 1)}),
                       422, "invalid-request")
    assert as_list.startswith("body.actions:") and message.startswith("body.actions:") and "at most" in message
    # A string's limit is its length, as the document says: more actions than a list takes, each refused
    # by the rules here, not for the form.
    error_of(client.post("/v1/replay", json={"code": STORED[0], "actions": "U " * (limits.MAX_ACTIONS + 1)}),
             422, "refused-action")
    error_of(client.post("/v1/replay", json={"code": STORED[0], "actions": ["x" * 100]}), 422, "invalid-request")


# --------------------------------------------------------------------------- #
# POST /v1/analyze
# --------------------------------------------------------------------------- #


def test_analyze_on_the_stored_line_needs_no_search(client, catalog_path):
    with Catalog(catalog_path) as db:
        line = db.get(STORED[2]).solution
    before = client.app.state.searches.started
    body = client.post("/v1/analyze", json={"code": STORED[2], "actions": list(line[:30])}).json()
    assert body["status"] == "verified" and body["source"] == "known-line" and body["hint"] == line[30]
    assert body["replay"]["moves"] == 30 and body["replay"]["code"] == STORED[2]
    assert client.app.state.searches.started == before


def test_analyze_off_the_line_searches_and_the_line_wins(client):
    log = ["D", "D"]
    body = client.post("/v1/analyze", json={"code": STORED[0], "actions": log}).json()
    assert body["status"] == "verified" and body["source"] == "search"
    assert replay(Deal.from_code(STORED[0]), log + body["line"]).won and body["hint"] == body["line"][0]


def test_analyze_won_log(client, catalog_path):
    with Catalog(catalog_path) as db:
        line = list(db.get(STORED[0]).solution)
    body = client.post("/v1/analyze", json={"code": STORED[0], "actions": line}).json()
    assert body["status"] == "verified" and body["source"] == "won" and body["hint"] is None


def test_analyze_refused_action(client):
    error_of(client.post("/v1/analyze", json={"code": STORED[0], "actions": "D X"}), 422, "refused-action")


# --------------------------------------------------------------------------- #
# GET /v1/catalog/deals and /v1/catalog/random
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("include", [None, "solution"])
def test_catalog_pages_walk_the_whole_catalog_in_order(client, catalog_path, include):
    """Each page says how many rows match in all; the solutions only when asked for."""
    with Catalog(catalog_path) as db:
        expected = [entry.to_dict() for entry in db.entries()]
    if include is None:
        for row in expected:
            del row["solution"]
    seen, after = [], None
    while True:
        params = {"limit": 2} | ({"after": after} if after else {}) | ({"include": include} if include else {})
        page = client.get("/v1/catalog/deals", params=params).json()
        assert page["total"] == len(expected)
        seen += page["deals"]
        after = page["next"]
        if after is None:
            break
    assert seen == expected and len(seen) >= 5
    assert client.get("/v1/catalog/deals", params={"status": "unwinnable"}).json()["total"] == 1


def grades_settled(client, timeout: float = 120) -> dict[str, int]:
    """Waits until the server's background grader has no deal left to grade; the grades of
    the catalog's verified rows then."""
    deadline = time.monotonic() + timeout
    while not client.app.state.grader.idle:
        assert time.monotonic() < deadline, "the background grading did not end in time"
        time.sleep(0.05)
    with Catalog(client.app.state.catalog.path) as db:
        return {e.code: e.difficulty for e in db.entries(status="verified") if e.difficulty is not None}


def test_catalog_filters(client):
    def codes(**params):
        return [d["code"] for d in client.get("/v1/catalog/deals", params=params).json()["deals"]]

    # a deal verified here (on whichever worker runs this test), so that more than the stored
    # deals are graded whatever ran before it
    assert client.post("/v1/verify", json={"code": NEW}).json()["status"] == "verified"
    assert codes(status="unwinnable") == [UNWINNABLE]
    assert set(codes(suits=1)) >= set(STORED) and all(c.startswith("SP1-S1C") for c in codes(suits=1))
    grades = grades_settled(client)  # the deals verified here and by the tests above are graded too
    assert STORED[1] in codes(difficulty="5") and codes(difficulty="5") == [c for c in codes() if grades.get(c) == 5]
    assert codes(difficulty="1-5") == [c for c in codes() if c in grades] and len(grades) > 2
    assert codes(suits=1, rule="relaxed") == codes(suits=1)  # one suit is always classic
    assert codes(suits=2, rule="relaxed") == []


@pytest.mark.parametrize("params, kind", [
    ({"limit": 0}, "invalid-request"),
    ({"limit": limits.MAX_PAGE + 1}, "invalid-request"),
    ({"difficulty": "6"}, "invalid-request"),
    ({"difficulty": "3-1"}, "invalid-request"),
    ({"suits": 3}, "invalid-request"),
    ({"status": "won"}, "invalid-request"),
    ({"after": "SP1-NOPE"}, "invalid-code"),
])
def test_catalog_bad_query_is_422(client, params, kind):
    error_of(client.get("/v1/catalog/deals", params=params), 422, kind)


def test_random_is_a_matching_verified_deal_and_reaches_every_one(client):
    seen = {client.get("/v1/catalog/random", params={"suits": 1}).json()["code"] for _ in range(120)}
    with Catalog(client.app.state.catalog.path) as db:
        verified = {e.code for e in db.entries(suits=1, status="verified")}
    assert seen == verified
    grades = grades_settled(client)
    assert grades[client.get("/v1/catalog/random", params={"difficulty": "5"}).json()["code"]] == 5


def test_random_without_a_match_is_404(client):
    assert "no verified deal" in error_of(client.get("/v1/catalog/random", params={"suits": 2}), 404, "not-found")
    assert "no verified deal" in error_of(client.get("/v1/catalog/daily", params={"suits": 2}), 404, "not-found")


@pytest.mark.parametrize("path", ["/v1/catalog/random", "/v1/catalog/daily", f"/v1/catalog/deals/{STORED[1]}"])
def test_a_new_game_is_its_code_its_record_and_its_first_position_without_spoilers(client, path):
    """No solution unless asked, and the first position as POST /v1/position gives it: face-down
    cards counted, never named."""
    game = client.get(path, params={"suits": 1} if "deals/" not in path else {}).json()
    assert game["code"] == game["catalog"]["code"] and game["catalog"]["status"] == "verified"
    assert "solution" not in game["catalog"] and "deck" not in game and "stock" not in game
    assert game["position"] == client.post("/v1/position", json={"code": game["code"]}).json()
    with Catalog(client.app.state.catalog.path) as db:
        row = db.get(game["code"]).to_dict()
    solution = row.pop("solution")
    assert game["catalog"] == row
    asked = client.get(path, params={"include": "solution"} | ({"suits": 1} if "deals/" not in path else {})).json()
    assert asked["catalog"]["solution"] == solution if asked["code"] == game["code"] else asked["catalog"]["solution"]
    assert set(asked["catalog"]) == set(row) | {"solution"}


def test_a_deal_the_catalog_does_not_hold_is_a_game_without_a_record_and_a_bad_code_422(client):
    code = f"{NEW[:-1]}Z"
    game = client.get(f"/v1/catalog/deals/{code.lower()}").json()
    assert game == {"code": code, "catalog": None,
                    "position": client.post("/v1/position", json={"code": code}).json()}
    error_of(client.get("/v1/catalog/deals/SP1-S9C-AAAAAAA"), 422, "invalid-code")
    error_of(client.get("/v1/catalog/random", params={"include": "deck"}), 422, "invalid-request")


def test_the_daily_deal_is_the_documented_function_of_the_date_the_filters_and_the_codes(client):
    """docs/service.md, "The daily deal": the largest SHA-256 of "DATE CODE" among the
    verified codes that match, whichever server answers."""
    import hashlib

    with Catalog(client.app.state.catalog.path) as db:
        verified = [e.code for e in db.entries(suits=1, status="verified")]
    days = [f"2026-01-{day:02d}" for day in range(1, 29)]
    chosen = {}
    for day in days:
        game = client.get("/v1/catalog/daily", params={"date": day, "suits": 1}).json()
        assert game["date"] == day
        assert game["code"] == max(verified, key=lambda code: hashlib.sha256(f"{day} {code}".encode()).digest())
        assert client.get("/v1/catalog/daily", params={"date": day, "suits": 1}).json() == game  # again: the same
        chosen[day] = game["code"]
    assert len(set(chosen.values())) > 1  # the days do not all fall on one deal
    today = client.get("/v1/catalog/daily").json()
    assert today["date"] == time.strftime("%Y-%m-%d", time.gmtime()) or today["date"] > "2026"
    for bad in ("2026-02-30", "2026-1-31", "2026-01-31T00:00:00", "tomorrow"):
        assert "YYYY-MM-DD" in error_of(client.get("/v1/catalog/daily", params={"date": bad}), 422, "invalid-request")


def test_the_daily_deal_follows_the_catalog_as_it_grows(tmp_path):
    """A deal added to the catalog changes a day's deal only if it outranks it; the server's
    memory of its choices never hides a new one."""
    import hashlib

    path = tmp_path / "daily.sqlite"
    with Catalog(path) as db:
        db.record(solve(STORED[0]))
    with TestClient(create_app(Settings(catalog=str(path), read_only=True))) as reader:
        days = [f"2027-03-{day:02d}" for day in range(1, 21)]
        before = {day: reader.get("/v1/catalog/daily", params={"date": day}).json()["code"] for day in days}
        assert set(before.values()) == {STORED[0]}
        with Catalog(path) as db:
            db.record(solve(STORED[1]))
        after = {day: reader.get("/v1/catalog/daily", params={"date": day}).json()["code"] for day in days}

    def weight(day, code):
        return hashlib.sha256(f"{day} {code}".encode()).digest()

    for day in days:
        assert after[day] == max(STORED[:2], key=lambda code: weight(day, code))
        assert after[day] in (before[day], STORED[1])
    assert set(after.values()) == set(STORED[:2])


# --------------------------------------------------------------------------- #
# Read-only, limits, CORS, unknown endpoints
# --------------------------------------------------------------------------- #


def test_read_only_answers_from_the_catalog_and_never_searches_or_writes(read_only, catalog_path):
    before = catalog_path.read_bytes()
    assert read_only.post("/v1/verify", json={"code": STORED[0]}).json()["source"] == "catalog"
    error_of(read_only.post("/v1/verify", json={"code": "SP1-S1C-AAAAAHA"}), 403, "read-only")
    error_of(read_only.post("/v1/analyze", json={"code": STORED[0], "actions": "D D"}), 403, "read-only")
    assert read_only.post("/v1/replay", json={"code": STORED[0], "actions": "D"}).status_code == 200
    assert read_only.get(f"/v1/deals/{STORED[0]}").json()["catalog"]["status"] == "verified"
    assert catalog_path.read_bytes() == before


def test_body_over_the_limit_is_413(client):
    big = json.dumps({"code": STORED[0], "actions": "D " * limits.MAX_BODY_BYTES})
    error_of(client.post("/v1/replay", content=big, headers={"Content-Type": "application/json"}), 413, "too-large")

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(limits.MAX_BODY_BYTES // 1000 + 2):
            yield b" " * 1000

    error_of(client.post("/v1/replay", content=chunks(), headers={"Content-Type": "application/json"}), 413,
             "too-large")


@pytest.mark.parametrize("path", [
    "/v1/catalog/random?status=unknown",        # no such filter there: it would be ignored
    "/v1/catalog/deals?suits=1&suits=4",        # which one?
    "/v1/catalog/deals?colour=red",
    f"/v1/deals/{STORED[0]}?verbose=1",
    "/v1/health?x=1",
])
def test_a_query_parameter_the_endpoint_does_not_take_or_twice_is_422(client, path):
    error_of(client.get(path), 422, "invalid-request")


def test_unknown_endpoint_and_method(client):
    error_of(client.get("/v2/health"), 404, "not-found")
    response = client.get("/v1/verify")
    error_of(response, 405, "method-not-allowed")
    assert response.headers["Allow"] == "POST"
    # A GET endpoint's Allow names HEAD too, which it answers (RFC 9110, 15.5.6).
    response = client.request("TRACE", "/v1/health")
    error_of(response, 405, "method-not-allowed")
    assert response.headers["Allow"] == "GET, HEAD"
    assert client.head("/v1/health").status_code == 200


def test_a_trailing_slash_is_404_not_a_redirect(client):
    """A redirect would carry an absolute URL of this host, wrong behind a proxy."""
    error_of(client.get("/v1/health/", follow_redirects=False), 404, "not-found")
    error_of(client.post("/v1/verify/", json={"code": STORED[0]}, follow_redirects=False), 404, "not-found")


def test_empty_query_values_count_as_not_given(client):
    """As forms and query builders send blank fields: the template of docs/service.md as written."""
    full = client.get("/v1/catalog/deals?limit=1000").json()
    blank = client.get("/v1/catalog/deals?suits=&rule=&status=&difficulty=&after=&limit=")
    assert blank.status_code == 200 and blank.json() == full
    assert client.get("/v1/catalog/deals?suits=&limit=2").json()["deals"] == full["deals"][:2]
    assert client.get("/v1/catalog/random?suits=&rule=&difficulty=").status_code == 200
    # What is not blank reaches the endpoint as it was sent: escapes, and repeats.
    assert client.get("/v1/catalog/deals?suits=%31&rule=&limit=%32").json()["deals"] == full["deals"][:2]
    error_of(client.get("/v1/catalog/deals?limit=2&limit=3&rule="), 422, "invalid-request")
    # A name no endpoint takes is refused, blank or not.
    for query in ("bogus=", "bogus", "suits=&bogus="):
        assert "query.bogus" in error_of(client.get(f"/v1/catalog/deals?{query}"), 422, "invalid-request")


def test_validation_messages_keep_the_names_the_request_used(client):
    """Only pydantic's names of union members are dropped from a location."""
    assert error_of(client.post("/v1/replay", json={"code": STORED[0], "bad-field": 1}), 422,
                    "invalid-request").startswith("body.bad-field: ")
    assert error_of(client.get("/v1/health?max-nodes=5"), 422, "invalid-request").startswith("query.max-nodes: ")
    # The list member's problem, without the string member's "not a string" beside it.
    assert error_of(client.post("/v1/replay", json={"code": STORED[0], "actions": ["1>2", 5]}), 422,
                    "invalid-request") == ("body.actions.1: expected one action in notation (D, F>T, F>T/N or U) as "
                                           "a string, without spaces or commas; got 5")


@pytest.mark.parametrize("grades, words", [("2-1", "empty range"), ("6", "grades go from 1 (very easy) to 5"),
                                           ("x", "a grade from 1 to 5")])
def test_a_bad_grade_range_is_an_invalid_request(client, grades, words):
    message = error_of(client.get(f"/v1/catalog/deals?difficulty={grades}"), 422, "invalid-request")
    assert message.startswith("query.difficulty: ") and words in message and "pattern" not in message


def test_cors_only_for_the_given_origins(catalog_path):
    app = create_app(Settings(catalog=str(catalog_path), read_only=True,
                              cors_origins=("https://play.example.com",)))
    with TestClient(app) as test_client:
        allowed = test_client.get("/v1/health", headers={"Origin": "https://play.example.com"})
        other = test_client.get("/v1/health", headers={"Origin": "https://evil.example.com"})
    assert allowed.headers["access-control-allow-origin"] == "https://play.example.com"
    assert "access-control-allow-origin" not in other.headers


def test_cors_lets_the_page_read_retry_after_and_refuses_in_json(catalog_path):
    app = create_app(Settings(catalog=str(catalog_path), read_only=True,
                              cors_origins=("https://play.example.com",)))
    with TestClient(app) as test_client:
        answer = test_client.get("/v1/health", headers={"Origin": "https://play.example.com"})
        head = test_client.options("/v1/health", headers={"Origin": "https://play.example.com",
                                                          "Access-Control-Request-Method": "HEAD"})
        refused = test_client.options("/v1/verify", headers={"Origin": "https://evil.example.com",
                                                             "Access-Control-Request-Method": "POST"})
    # A 503's advice is in Retry-After, which a page reads only if it is exposed.
    assert answer.headers["access-control-expose-headers"] == "Retry-After"
    assert head.status_code == 204 and head.content == b""
    assert head.headers["access-control-allow-origin"] == "https://play.example.com"
    message = error_of(refused, 400, "cors-refused")
    assert "origin 'https://evil.example.com' is not one of the server's --cors-origin" in message
    assert "method" not in message


def test_a_preflight_refused_for_its_method_or_header_says_so(catalog_path):
    app = create_app(Settings(catalog=str(catalog_path), read_only=True,
                              cors_origins=("https://play.example.com",)))
    origin = {"Origin": "https://play.example.com"}
    with TestClient(app) as test_client:
        method = test_client.options("/v1/verify", headers=origin | {"Access-Control-Request-Method": "DELETE"})
        header = test_client.options("/v1/verify", headers=origin | {"Access-Control-Request-Method": "POST",
                                                                     "Access-Control-Request-Headers": "X-Token"})
    message = error_of(method, 400, "cors-refused")
    assert "the method 'DELETE' is not one of GET, HEAD, POST" in message and "origin" not in message
    assert "the header 'X-Token' is not allowed" in error_of(header, 400, "cors-refused")


def test_without_origins_a_preflight_is_refused_in_json_and_answers_carry_no_cors_header(catalog_path):
    app = create_app(Settings(catalog=str(catalog_path), read_only=True))
    with TestClient(app) as test_client:
        preflight = test_client.options("/v1/health", headers={"Origin": "https://play.example.com",
                                                               "Access-Control-Request-Method": "GET"})
        answer = test_client.get("/v1/health", headers={"Origin": "https://play.example.com"})
    assert "no other origin (no --cors-origin)" in error_of(preflight, 400, "cors-refused")
    assert answer.status_code == 200 and not any(name.startswith("access-control-") for name in answer.headers)


def test_cors_headers_are_on_every_error_too(catalog_path, monkeypatch):
    app = create_app(Settings(catalog=str(catalog_path), read_only=True,
                              cors_origins=("https://play.example.com",)))
    origin = {"Origin": "https://play.example.com"}
    with TestClient(app, raise_server_exceptions=False) as test_client:
        big = json.dumps({"code": STORED[0], "actions": "D " * limits.MAX_BODY_BYTES})
        too_large = test_client.post("/v1/replay", content=big, headers={"Content-Type": "application/json"} | origin)
        monkeypatch.setattr(deals, "layout_of", lambda code: 1 / 0)  # a bug, for the test
        internal = test_client.get(f"/v1/deals/{STORED[1]}", headers=origin)
    error_of(too_large, 413, "too-large")
    error_of(internal, 500, "internal")
    for response in (too_large, internal):
        assert response.headers["access-control-allow-origin"] == "https://play.example.com"


@pytest.mark.parametrize("body, words", [
    (b"[" * 5000 + b"]" * 5000, "nested too deep"),
    (b'{"code": "\xff"}', "not UTF-8 text (byte 0xff at byte offset 10)"),
    (b'{"max_nodes": ' + b"9" * 5000 + b"}", "a number is too long at byte offset 14 (more than 4,300 digits)"),
    ('{"code": "é" x}'.encode(), "Expecting ',' delimiter at byte offset 14 (line 1, column 14)"),
    (b"", "it is empty"),
])
def test_a_body_that_cannot_be_parsed_says_what_is_wrong_and_where(client, body, words):
    message = error_of(client.post("/v1/replay", content=body, headers={"Content-Type": "application/json"}), 400,
                       "invalid-request")
    assert message.startswith("the body is not valid JSON: ") and words in message


@pytest.mark.parametrize("content_type", ["application/vnd.api+json", "application/json-patch+json", "text/plain",
                                          "application/json; charset=latin-1", None])
def test_a_body_not_sent_as_json_is_415_in_json(client, content_type):
    headers = {} if content_type is None else {"Content-Type": content_type}
    answer = client.post("/v1/replay", content=json.dumps({"code": STORED[0]}), headers=headers)
    assert "Content-Type: application/json" in error_of(answer, 415, "unsupported-media-type")


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          'Application/JSON; charset="UTF-8"'])
def test_json_with_a_charset_of_utf8_is_taken(client, content_type):
    answer = client.post("/v1/replay", content=json.dumps({"code": STORED[0]}), headers={"Content-Type": content_type})
    assert answer.status_code == 200


def test_a_damaged_catalog_is_503_not_500(damaged_catalog):
    app = create_app(Settings(catalog=str(damaged_catalog), read_only=True))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        error_of(test_client.get("/v1/catalog/deals?limit=1000"), 503, "catalog-unavailable")
        # The health check says so too, for monitors (HEAD: the status alone); replays,
        # which need no catalog, are still answered.
        assert "cannot read catalog" in error_of(test_client.get("/v1/health"), 503, "catalog-unavailable")
        assert test_client.head("/v1/health").status_code == 503
        assert test_client.post("/v1/replay", json={"code": STORED[0], "actions": "D"}).status_code == 200


def test_a_write_waiting_for_the_catalog_lock_does_not_stop_the_server(catalog_path):
    """Another process (a batch planning) holds the catalog's write lock: the search's
    result waits for it off the event loop, and everything else is answered meanwhile."""
    app = create_app(Settings(catalog=str(catalog_path), solvers=1, max_nodes_cap=2_000_000))
    code = "SP1-S1C-AAAAAAJ"
    with TestClient(app) as test_client:
        locker = sqlite3.connect(catalog_path, isolation_level=None)
        locker.execute("BEGIN IMMEDIATE")
        answers: list = []
        thread = threading.Thread(target=lambda: answers.append(test_client.post("/v1/verify", json={"code": code})))
        thread.start()
        try:
            time.sleep(1.0)  # the search (hundredths of a second) is done; its write waits for the lock
            started = time.perf_counter()
            assert test_client.get("/v1/health").status_code == 200
            assert test_client.get(f"/v1/deals/{STORED[0]}").json()["catalog"]["status"] == "verified"
            waited = time.perf_counter() - started
            assert thread.is_alive() and not answers
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        thread.join(timeout=60)
    assert waited < 1.0
    assert answers[0].json()["status"] == "verified" and answers[0].json()["source"] == "search"
    with Catalog(catalog_path) as db:
        assert db.get(code).status is Status.VERIFIED


def test_the_writer_waits_for_a_lock_past_sqlite_busy_timeout(tmp_path):
    """A write tries again after each LOCK_TRY_SECONDS until the lock is released."""
    path = tmp_path / "c.sqlite"
    Catalog(path).close()
    writer = CatalogWriter(str(path))
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    result = solve("SP1-S1C-AAAAAAJ").to_dict()
    pending = writer._thread.submit(writer._record, result, "SP1-S1C-AAAAAAJ")
    time.sleep(4 * LOCK_TRY_SECONDS)
    assert not pending.done()
    locker.execute("ROLLBACK")
    assert pending.result(timeout=30).status is Status.VERIFIED
    writer.close()


@pytest.mark.parametrize("how", ["close", "stopping"])
def test_a_write_waiting_for_a_lock_gives_up_when_the_server_stops(tmp_path, caplog, how):
    """close() (the server stopping) and stopping() (Server.handle_exit, at the signal) do
    not wait out the write's 30 s: the write gives up within a try, unrecorded, and the
    log says so; its request is then answered, not held through uvicorn's graceful wait."""
    path = tmp_path / "c.sqlite"
    Catalog(path).close()
    writer = CatalogWriter(str(path))
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    try:
        pending = writer._thread.submit(writer._record, solve("SP1-S1C-AAAAAAJ").to_dict(), "SP1-S1C-AAAAAAJ")
        time.sleep(2 * LOCK_TRY_SECONDS)
        assert not pending.done()
        started = time.monotonic()
        getattr(writer, how)()
        with pytest.raises(CatalogError, match="locked"):
            pending.result(timeout=10 * LOCK_TRY_SECONDS)
        assert time.monotonic() - started < 5 * LOCK_TRY_SECONDS
    finally:
        locker.execute("ROLLBACK")
        writer.close()
    assert "was not recorded" in caplog.text
    with Catalog(path) as db:
        assert db.get("SP1-S1C-AAAAAAJ") is None


def test_no_cors_by_default(read_only):
    response = read_only.get("/v1/health", headers={"Origin": "https://play.example.com"})
    assert "access-control-allow-origin" not in response.headers


# --------------------------------------------------------------------------- #
# The models and the export schema agree
# --------------------------------------------------------------------------- #


def _types(prop: dict, defs: dict | None = None) -> set:
    """The JSON types and enum values a JSON Schema property admits, normalised
    (``{"enum": [1, null]}`` and ``{"anyOf": [{"enum": [1]}, {"type": "null"}]}`` agree;
    a ``$ref`` to ``defs`` is followed)."""
    if "$ref" in prop:
        return _types((defs or {})[prop["$ref"].rsplit("/", 1)[-1]], defs)
    if "anyOf" in prop:
        return set().union(*(_types(p, defs) for p in prop["anyOf"]))
    values = prop.get("enum", [prop["const"]] if "const" in prop else None)
    if values is not None:
        return {"null" if v is None else ("enum", json.dumps(v)) for v in values}
    kinds = prop.get("type", [])
    return {kinds} if isinstance(kinds, str) else set(kinds)


def _bounds(prop: dict) -> dict:
    found = {k: prop[k] for k in ("minimum", "maximum", "exclusiveMinimum") if k in prop}
    for branch in prop.get("anyOf", ()):
        found |= _bounds(branch)
    return found


def test_catalog_deal_model_is_the_export_schema():
    """The export's fields but the deck, which only ``export --with-deck`` adds."""
    from spider_solver.export import DECK

    export = {name: prop for name, prop in SCHEMA["$defs"]["deal"]["properties"].items() if name != DECK}
    model = models.CatalogDeal.model_json_schema()
    assert list(model["properties"]) == list(export)
    assert set(model["required"]) >= set(SCHEMA["$defs"]["deal"]["required"])
    for name, prop in export.items():
        mine = model["properties"][name]
        if name == "solution":
            assert mine["type"] == "array" == prop["type"]
            continue
        assert _types(mine, model.get("$defs")) == _types(prop), name
        assert _bounds(mine) == _bounds(prop), name


def test_the_models_of_a_record_are_built_from_the_record():
    """The export row, the catalog's answer and POST /v1/verify's answer are the record's
    plain-data form, field for field; verify adds where the answer came from."""
    from spider_solver.record import FIELD_NAMES

    assert tuple(models.CatalogDeal.model_fields) == FIELD_NAMES
    assert tuple(models.VerifyResponse.model_fields) == FIELD_NAMES + ("deal_on_empty", "source")
    record = solve(STORED[0], max_nodes=10**6)
    assert models.VerifyResponse.model_validate(record.to_dict() | {"deal_on_empty": False, "source": "search"})


def test_the_openapi_enums_are_the_outcomes(client):
    """Status and Reason are declared as enums, whose values are the outcomes'."""
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert schemas["Status"]["enum"] == [str(s) for s in Status]
    assert schemas["Reason"]["enum"] == [str(r) for r in Reason]


def stuck_log(code: str, seed: int = 1) -> list[str]:
    """Random legal play, never back to a position seen, until no action is left: on 4
    suits a game lost with deals still in the stock, where an analysis with lost_at
    searches for many seconds (benchmarks/HISTORY.md, "Games in progress: proofs")."""
    import random

    from spider_solver.rules import Board

    rng = random.Random(seed)
    board = Board(Deal.from_code(code), undo_limit=None)
    seen, log = {board.position()}, []
    while len(log) < 1000 and not board.is_won():
        actions = board.legal_moves()
        rng.shuffle(actions)
        for action in actions:
            text = board.notation(action)
            board.push(action)
            if board.position() not in seen:
                seen.add(board.position())
                log.append(text)
                break
            board.pop()
        else:
            break
    return log


#: A long search: where a random 4-suit game was lost.
LONG_SEARCH = {"code": "SP1-S4C-AAAAAAA", "actions": stuck_log("SP1-S4C-AAAAAAA"), "max_nodes": 10**9,
               "max_seconds": 120}


def wait_for_a_search(app, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while app.state.searches.running == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert app.state.searches.running > 0, "the search did not start"


def test_shared_search_ends_with_stopping_on_stop():
    """stop() (SIGTERM) ends a search in flight: its request gets 503 stopping, at once."""
    app = create_app(Settings(catalog=None, solvers=1, max_nodes_cap=10**9, max_seconds_cap=120.0))
    with TestClient(app) as test_client:
        answers = []
        thread = threading.Thread(target=lambda: answers.append(test_client.post("/v1/analyze", json=LONG_SEARCH)))
        thread.start()
        wait_for_a_search(app)
        time.sleep(0.5)
        started = time.monotonic()
        app.state.searches.stop()
        thread.join(30)
        assert time.monotonic() - started < 10
    error_of(answers[0], 503, "stopping")


def test_full_queue_is_503_with_retry_after_and_catalog_requests_go_on():
    app = create_app(Settings(catalog=None, solvers=1, queue=0, max_nodes_cap=10**9, max_seconds_cap=120.0))
    with TestClient(app) as test_client:
        answers = []
        thread = threading.Thread(target=lambda: answers.append(test_client.post("/v1/analyze", json=LONG_SEARCH)))
        thread.start()
        wait_for_a_search(app)
        busy = test_client.post("/v1/verify", json={"code": "SP1-S1C-AAAAAAB"})
        error_of(busy, 503, "busy")
        assert 1 <= int(busy.headers["retry-after"]) <= 60
        # The same search again is not refused: it shares the one in flight.
        started_before = app.state.searches.started
        twin = threading.Thread(target=lambda: answers.append(test_client.post("/v1/analyze", json=LONG_SEARCH)))
        twin.start()
        time.sleep(0.5)
        assert app.state.searches.running == 1 and app.state.searches.started == started_before
        assert twin.is_alive()
        # Requests that do not search are answered while the search runs.
        started = time.monotonic()
        assert test_client.post("/v1/replay", json={"code": "SP1-S1C-AAAAAAB", "actions": "D"}).status_code == 200
        assert test_client.get("/v1/deals/SP1-S1C-AAAAAAB").status_code == 200
        assert time.monotonic() - started < 2 and thread.is_alive()
        app.state.searches.stop()
        thread.join(30)
        twin.join(30)
    assert len(answers) == 2
    for answer in answers:
        error_of(answer, 503, "stopping")


class Searched(NamedTuple):
    """What a search's answer says it took (a record and an analysis have these fields)."""

    nodes: int
    seconds: float


def slow_search(seconds: float, nodes: int) -> Searched:
    """A stand-in for a search, in a solver process: it takes ``seconds`` and says it searched ``nodes``."""
    time.sleep(seconds)
    return Searched(nodes, seconds)


def test_retry_after_is_the_expected_wait_of_the_searches_in_flight():
    """Real solver processes: before anything is measured the advice is the running search's
    seconds; then its seconds and node rate are measured (the formula's test is below)."""
    import asyncio

    from spider_solver.service.searches import Busy, Searches

    async def scenario() -> list[int]:
        searches = Searches(solvers=1, queue=0, max_seconds=120.0)
        searches.start()
        advised = []
        try:
            began = time.monotonic()
            first = asyncio.ensure_future(searches.run("a", slow_search, 0.5, 1_000_000, budget=(10**9, 20.0)))
            await asyncio.sleep(0.1)
            with pytest.raises(Busy) as busy:
                await searches.run("b", slow_search, 0, 0, budget=(1, 1.0))
            advised.append(busy.value.retry_after)  # nothing known yet: its 20 s
            await first
            assert searches.node_rate == pytest.approx(2_000_000)
            # its wall time, the solver process's start included (not bounded by a constant: on a
            # busy machine a process can take many seconds to start)
            assert searches.typical is not None and 0.5 <= searches.typical <= time.monotonic() - began
        finally:
            searches.stop()
        return advised

    assert 19 <= asyncio.run(scenario())[0] <= 20


def test_retry_after_expects_what_searches_took_lately_then_the_whole_budget():
    """The formula, at given moments: a running search is expected to take what searches
    have taken lately while it has run less than that, then its whole budget (its nodes at
    the node rate, or its seconds); at least 1 second."""
    from spider_solver.service.searches import Flight, Searches

    searches = Searches(solvers=1, queue=0, max_seconds=30.0)
    try:
        searches._flights["x"] = Flight(future=None, max_nodes=60_000_000, max_seconds=30.0, started=100.0)
        assert searches.retry_after(now=101.0) == 29  # nothing known: its seconds
        searches.node_rate = 5_000_000
        assert searches.retry_after(now=101.0) == 11  # its 60M nodes take 12 s
        searches.typical = 0.4
        assert searches.retry_after(now=100.1) == 1  # searches end in 0.4 s: 0.3 s to go, said as 1
        searches.typical = 4.0
        assert searches.retry_after(now=101.0) == 3
        assert searches.retry_after(now=105.0) == 7  # past the 4 s: its budget, 12 s in all
        searches._flights["y"] = Flight(future=None, max_nodes=60_000_000, max_seconds=30.0, started=None)
        assert searches.retry_after(now=105.0) == 7  # a search waiting for a process frees no slot first
    finally:
        searches.stop()


def die() -> None:
    """A stand-in for a search whose process dies (killed, out of memory)."""
    os._exit(1)


def test_a_solver_process_that_dies_fails_its_search_and_the_next_search_gets_a_fresh_pool():
    """The search whose process died gets SolverFailed, and the next one runs in a fresh
    pool; a background job (the grader's) is told the same."""
    import asyncio

    from spider_solver.service.searches import Searches, SolverFailed

    async def scenario() -> list[str]:
        searches = Searches(solvers=1, queue=1, max_seconds=60.0)
        searches.start()
        told = []
        try:
            for attempt in (lambda: searches.run("dies", die), lambda: searches.background(die)):
                with pytest.raises(SolverFailed) as failed:
                    await attempt()
                told.append(str(failed.value))
                assert await searches.run("after", slow_search, 0, 5) == Searched(5, 0)
            assert searches.running == 0
        finally:
            searches.stop()
        return told

    told = asyncio.run(scenario())
    assert told == ["a solver process ended in the middle of the search; try again",
                    "a solver process ended in the middle of a job"]


def test_a_search_handed_to_a_pool_whose_idle_process_died_gets_solver_failed_and_a_fresh_pool():
    """A solver process killed while idle breaks the pool; the next search is refused with
    SolverFailed (not Stopping: the server runs on), and the one after it runs."""
    import asyncio
    import signal

    from spider_solver.service.searches import Searches, SolverFailed

    async def scenario() -> str:
        searches = Searches(solvers=1, queue=0, max_seconds=60.0)
        searches.start()
        try:
            assert await searches.run("first", slow_search, 0, 1) == Searched(1, 0)
            (worker,) = searches._pool.workers()
            os.kill(worker.pid, signal.SIGKILL)
            worker.join(10)
            for _ in range(100):  # until the executor's manager has seen the death (it breaks the pool)
                if getattr(searches._pool.executor, "_broken", False):
                    break
                await asyncio.sleep(0.1)
            with pytest.raises(SolverFailed) as failed:
                await searches.run("second", slow_search, 0, 2)
            assert await searches.run("third", slow_search, 0, 3) == Searched(3, 0)
            return str(failed.value)
        finally:
            searches.stop()

    assert asyncio.run(scenario()) == "a solver process had ended; try again"


def test_a_stop_tells_the_running_and_the_waiting_searches_that_the_server_stops():
    """stop() kills the solver processes and cancels the searches waiting for one: whoever
    waits for either gets Stopping (the service's 503), not a cancellation."""
    import asyncio

    from spider_solver.service.searches import Searches, Stopping

    async def scenario() -> list[str]:
        searches = Searches(solvers=1, queue=1, max_seconds=60.0)
        searches.start()
        running = asyncio.ensure_future(searches.run("running", slow_search, 30, 1))
        waiting = asyncio.ensure_future(searches.run("waiting", slow_search, 30, 1))
        await asyncio.sleep(1.0)
        searches.stop()
        outcomes = []
        for task in (running, waiting):
            try:
                await asyncio.wait_for(task, 30)
                outcomes.append("answered")
            except Stopping:
                outcomes.append("stopping")
        return outcomes

    assert asyncio.run(scenario()) == ["stopping", "stopping"]


def test_a_stop_signal_inside_a_submit_does_not_wait_for_itself():
    """SIGTERM can interrupt the event loop inside the pool's submit(), which holds the
    lock that stopping the pool takes: the handler must not stop the pool there."""
    import asyncio
    import signal
    from types import SimpleNamespace

    import uvicorn

    from spider_solver.service.searches import Searches
    from spider_solver.service.server import Server

    searches = Searches(solvers=1, queue=0, max_seconds=5.0)
    server = Server(uvicorn.Config(SimpleNamespace(state=SimpleNamespace(searches=searches))))
    ended = []

    async def signal_during_submit() -> None:
        with searches._pool.executor._shutdown_lock:  # what submit() holds
            server.handle_exit(signal.SIGTERM, None)
        await asyncio.sleep(0.05)
        ended.append(searches.stopping)

    thread = threading.Thread(target=asyncio.run, args=(signal_during_submit(),), daemon=True)
    thread.start()
    thread.join(10)
    assert not thread.is_alive(), "the signal handler waited for a lock its own thread holds"
    assert ended == [True] and server.should_exit


def test_a_stop_signal_ends_the_waits_for_request_bodies():
    """SIGTERM: the server hands the body waits' end to the event loop, as the searches'."""
    import asyncio
    import signal
    from types import SimpleNamespace

    import uvicorn

    from spider_solver.service.middleware import BodyWaits
    from spider_solver.service.server import Server

    waits = BodyWaits()
    server = Server(uvicorn.Config(SimpleNamespace(state=SimpleNamespace(searches=None, body_waits=waits))))

    async def signal_then_look() -> bool:
        server.handle_exit(signal.SIGTERM, None)
        await asyncio.sleep(0.05)
        return waits.closing

    assert asyncio.run(signal_then_look()) and server.should_exit


def test_a_stop_before_the_event_loop_starts_returns_quietly(monkeypatch, tmp_path):
    """SIGTERM in the instant between 'serving on' and the server's own handlers: serve()
    returns (the command says stopped), with no 'coroutine was never awaited' warning."""
    import gc
    import socket
    import warnings

    import uvicorn

    from spider_solver.service.workers import serve

    def loop_factory(self):
        def interrupted():
            raise KeyboardInterrupt  # the signal, as the loop is being made

        return interrupted

    monkeypatch.setattr(uvicorn.Config, "get_loop_factory", loop_factory)
    sock = socket.create_server(("127.0.0.1", 0))
    gc.collect()  # what earlier tests in this process left unclosed is not serve()'s
    with warnings.catch_warnings(record=True) as caught, sock:
        warnings.simplefilter("always")
        try:
            serve(Settings(catalog=None, read_only=True), sock)
        except KeyboardInterrupt:  # not let through: pytest would stop the whole run
            pytest.fail("serve() let the stop through")
        gc.collect()
    assert [str(warning.message) for warning in caught] == []


def test_the_documents_whitespace_is_pythons_and_the_code_pattern_is_the_parsers():
    """The patterns spell Python's whitespace out (models.SPACE), so every regex dialect
    reads them alike; a code matches the pattern exactly when GameCode.parse takes it."""
    import re
    import sys

    from spider_solver.rules import GameCode
    from spider_solver.service.models import CODE_PATTERN, SPACE

    spaces = {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()}
    assert {chr(c) for c in range(sys.maxunicode + 1) if re.fullmatch(f"[{SPACE}]", chr(c))} == spaces
    samples = ["SP1-S4C-AAAAAAD", " sp1-s1r-abcdefg\u0085", "\u3000SP1-S2R-2345677\x1c", "SP1-S3C-AAAAAAD",
               "SP1-S4C-AAAAAA1", "SP1-S4C-AAAAAAAA", "SP2-S4C-AAAAAAD", "SP1-S4C-AAAAAAD\ufeff", "SP1-S4X-AAAAAAD",
               "SP1-S4C-ıAAAAAA", "SP1-S4C-AAAAAAD-", "\x00SP1-S4C-AAAAAAD"]
    for text in samples:
        try:
            GameCode.parse(text)
            parsed = True
        except ValueError:
            parsed = False
        assert bool(re.search(CODE_PATTERN, text)) == parsed, text


def test_a_code_with_python_whitespace_around_is_taken_and_a_bad_one_says_why(client):
    assert client.post("/v1/verify", json={"code": f"\u0085{STORED[0].lower()} \u2028"}).status_code == 200
    message = error_of(client.get("/v1/deals/SP1-S3C-AAAAAAD"), 422, "invalid-code")
    assert "suit count '3'" in message
    assert "invalid game code" in error_of(client.get("/v1/catalog/deals?after=SP1-S4C-AAAAAA"), 422,
                                           "invalid-code")
