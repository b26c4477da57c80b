"""``POST /v1/review``: the review of a game through the service.

Its answer is the Python function's (``review``), as ``review --json`` prints it; it is
queued and shared as searches are, capped in layouts and in the log's length, refused on a
read-only server; its options are checked with the project's words; the document lists it
and says it reveals nothing.
"""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from spider_solver.analysis import review  # noqa: E402
from spider_solver.limits import FAIR_LAYOUTS, MAX_RETRY_AFTER, REVIEW_CONFIRM_LAYOUTS  # noqa: E402
from spider_solver.rules import Deal  # noqa: E402
from spider_solver.service.app import Settings, create_app  # noqa: E402
from tests.analysis.helpers import random_log  # noqa: E402
from tests.fair_pairs import deal_pairs, prefixes  # noqa: E402
from tests.service.test_fair import error_of, without_seconds  # noqa: E402
from tests.service.test_routes import wait_for_a_search  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine", "fair_hints")

CODE = "SP1-S4C-AAAAAAD"
LOG = random_log(Deal.from_code(CODE), random.Random(3), 10, False, 0)
CAP = 8


@pytest.fixture(scope="module")
def client():
    app = create_app(Settings(solvers=1, max_layouts_cap=CAP))
    with TestClient(app) as test_client:
        yield test_client


def ask(client, body: dict, status: int = 200) -> dict:
    response = client.post("/v1/review", json=body)
    assert response.status_code == status, response.text
    return response.json()


def python_answer(deal, log, **options) -> dict:
    """What the service answers, made by the Python function: its replay as /v1/replay gives it."""
    plain = review(deal, log, **options).to_dict()
    replayed = {key: plain["replay"][key] for key in ("won", "moves", "score", "runs_removed", "stock_left")}
    return without_seconds(plain | {"replay": {"code": plain["code"]} | replayed})


def test_the_answer_is_the_python_functions(client):
    answer = ask(client, {"code": CODE, "actions": LOG, "layouts": 3, "confirm_layouts": 5, "seed": 4})
    assert without_seconds(answer) == python_answer(CODE, LOG, layouts=3, confirm_layouts=5, seed=4)
    assert answer["total"] == len(answer["decisions"]) + len(answer["skipped"]) > 0
    assert answer["summary"].startswith(f"Of {answer['total']} decision")


@pytest.mark.slow
def test_the_defaults_are_the_libraries_within_the_cap(client):
    answer = ask(client, {"code": CODE, "actions": " ".join(LOG[:4])})
    assert (answer["layouts"], answer["confirm_layouts"], answer["seed"]) == (
        min(FAIR_LAYOUTS, CAP), min(REVIEW_CONFIRM_LAYOUTS, CAP), 0)
    assert without_seconds(answer) == python_answer(CODE, LOG[:4], layouts=min(FAIR_LAYOUTS, CAP),
                                                    confirm_layouts=min(REVIEW_CONFIRM_LAYOUTS, CAP))


def test_a_review_is_a_search_queued_shared_and_capped(client):
    """The same review asked while it runs shares its search (the very same answer, its
    seconds included); with every slot taken, one more is 503 busy with Retry-After."""
    searches = client.app.state.searches
    body = {"code": CODE, "actions": LOG, "layouts": 5, "seed": 5}
    before = searches.started
    answers = []
    first = threading.Thread(target=lambda: answers.append(ask(client, body)))
    first.start()
    wait_for_a_search(client.app)
    second = ask(client, body)
    first.join(300)
    assert answers == [second] and searches.started == before + 1
    capacity = searches.capacity
    searches.capacity = 0  # every slot taken
    try:
        response = client.post("/v1/review", json={"code": CODE, "actions": LOG[:2]})
        assert response.status_code == 503 and error_of(response.json(), "busy")
        assert 1 <= int(response.headers["retry-after"]) <= MAX_RETRY_AFTER
    finally:
        searches.capacity = capacity


def test_a_refused_log_is_422_naming_the_action(client):
    answer = ask(client, {"code": "SP1-S4C-AAAAAAD", "actions": ["9>4", "1>2"]}, 422)
    assert error_of(answer, "refused-action").startswith("action 2 (index 1: '1>2') refused")


def test_a_log_longer_than_the_cap_is_refused(client, monkeypatch):
    from spider_solver.service.routes import games

    monkeypatch.setattr(games, "MAX_REVIEW_ACTIONS", 3)
    answer = ask(client, {"code": CODE, "actions": LOG[:4]}, 422)
    assert error_of(answer, "invalid-request").startswith(
        "body.actions: a review takes a game of at most 3 actions in effect (after the undos); got 4")
    assert ask(client, {"code": CODE, "actions": [*LOG[:4], "U"], "layouts": 2})["total"] <= 3


@pytest.mark.parametrize("body, words", [
    ({"layouts": CAP + 1}, f"body.layouts: expected at most {CAP}, the server's --max-layouts-cap; got {CAP + 1}"),
    ({"layouts": 0}, "body.layouts: expected a whole number of layouts from 1 to the server's --max-layouts-cap"),
    ({"confirm_layouts": CAP + 1}, f"body.confirm_layouts: expected at most {CAP}, the server's --max-layouts-cap"),
    ({"confirm_layouts": "x"}, "body.confirm_layouts: expected a whole number of layouts from 1 to the server's"),
    ({"seed": -1}, "body.seed: expected a whole number from 0 to 2**64 - 1 (at least 0); got -1"),
    ({"max_nodes": 5}, "body.max_nodes: "),
    ({"fair": True}, "body.fair: "),
])
def test_bad_options_are_refused_in_the_projects_words(client, body, words):
    answer = ask(client, {"code": CODE} | body, 422)
    assert error_of(answer, "invalid-request").startswith(words)


def test_the_document_lists_the_review_and_its_cap(client):
    document = client.get("/openapi.json").json()
    operation = document["paths"]["/v1/review"]["post"]
    assert "x-reveals" not in operation
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["$ref"].endswith("/ReviewResponse")
    for name in ("layouts", "confirm_layouts"):
        layouts = document["components"]["schemas"]["ReviewRequest"]["properties"][name]
        assert next(member for member in layouts["anyOf"] if member.get("type") == "integer")["maximum"] == CAP
    properties = document["components"]["schemas"]["ReviewResponse"]["properties"]
    assert set(properties) >= {"decisions", "costliest", "summary", "skipped", "total"}


def test_a_read_only_server_gives_no_review():
    with TestClient(create_app(Settings(read_only=True))) as read_only:
        answer = ask(read_only, {"code": CODE, "actions": LOG[:2]}, 403)
        assert error_of(answer, "read-only")


@settings(max_examples=10)
@given(pair=deal_pairs([{"suits": 1}, {"suits": 4}]), picks=st.lists(st.integers(0, 10**6), min_size=2, max_size=6))
def test_twins_get_the_same_review_from_the_service(client, pair, picks):
    """The fairness property through the service: two explicit decks that differ only in
    unseen cards, the same log and seed: the same review, but for the seconds."""
    log = list(prefixes(*pair, picks))[-1]
    answers = [without_seconds(ask(client, {"deck": deal.text(), "suits": deal.variant.suits, "actions": log,
                                            "layouts": 2, "confirm_layouts": 3, "seed": 5})) for deal in pair]
    assert answers[0] == answers[1]
