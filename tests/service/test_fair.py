"""``POST /v1/analyze`` with ``"fair": true``: the fair hint through the service.

Its answer is the Python function's (``fair_hint``), as ``hint --fair --json`` prints it; it
never reads the catalog's line; it is queued, shared and capped as searches are; its
options are checked against the server's cap and the library's limits, with the project's
words; and twins (deals that differ only in cards the player has not seen) get the same
answer from it, at every position until a card they differ in shows.
"""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from spider_solver.analysis import fair_hint  # noqa: E402
from spider_solver.catalog import Catalog  # noqa: E402
from spider_solver.limits import FAIR_LAYOUTS, MAX_RETRY_AFTER  # noqa: E402
from spider_solver.rules import replay  # noqa: E402
from spider_solver.service.app import Settings, create_app  # noqa: E402
from spider_solver.verify import solve  # noqa: E402
from tests.fair_pairs import deal_pairs, prefixes  # noqa: E402
from tests.rules.scripted_win import DECK_TEXT, WIN  # noqa: E402
from tests.service.test_routes import wait_for_a_search  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine", "fair_hints")

#: Verified in the catalog: a fair hint must not use its line.
STORED = "SP1-S1C-AAAAAAB"
CODE = "SP1-S2C-AAAAAAD"
CAP = 32


@pytest.fixture(scope="module")
def catalog_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("fair") / "catalog.sqlite"
    with Catalog(path) as db:
        db.record(solve(STORED))
    return path


@pytest.fixture(scope="module")
def client(catalog_path):
    app = create_app(Settings(catalog=str(catalog_path), solvers=1, max_layouts_cap=CAP))
    with TestClient(app) as test_client:
        yield test_client


def ask(client, body: dict, status: int = 200) -> dict:
    response = client.post("/v1/analyze", json={"fair": True} | body)
    assert response.status_code == status, response.text
    return response.json()


def error_of(answer: dict, kind: str) -> str:
    assert set(answer) == {"error"} and answer["error"]["type"] == kind, answer
    return answer["error"]["message"]


def without_seconds(answer: dict) -> dict:
    return {key: value for key, value in answer.items() if key != "seconds"}


def python_answer(deal, log, **options) -> dict:
    """What the service answers, made by the Python function: its replay as /v1/replay gives it."""
    hint = fair_hint(deal, log, **options).to_dict()
    replayed = {key: hint["replay"][key] for key in ("won", "moves", "score", "runs_removed", "stock_left")}
    return without_seconds(hint | {"replay": {"code": hint["code"]} | replayed})


def test_the_answer_is_the_python_functions(client):
    answer = ask(client, {"code": CODE, "actions": ["7>10"], "layouts": 4, "seed": 11})
    assert without_seconds(answer) == python_answer(CODE, ["7>10"], layouts=4, seed=11)
    assert answer["hint"] == answer["choices"][0]["action"] and answer["summary"].endswith(".")


def test_the_defaults_are_the_libraries_within_the_cap(client):
    answer = ask(client, {"code": CODE, "actions": "7>10"})
    assert (answer["layouts"], answer["seed"]) == (min(FAIR_LAYOUTS, CAP), 0)
    assert without_seconds(answer) == python_answer(CODE, "7>10")


def test_a_fair_hint_never_reads_the_catalogs_line(client):
    """The catalog holds a verified line of the deal; a fair hint is what a server without a catalog gives."""
    answer = ask(client, {"code": STORED, "actions": ["D"], "layouts": 3})
    assert without_seconds(answer) == python_answer(STORED, ["D"], layouts=3)


def test_a_fair_hint_is_a_search_queued_shared_and_capped(client):
    """The same fair hint asked while it runs shares its search (the very same answer, its
    seconds included); with every slot taken, one more is 503 busy with Retry-After."""
    searches = client.app.state.searches
    body = {"code": CODE, "actions": ["7>10", "D"], "layouts": 24, "seed": 5}
    before = searches.started
    answers = []
    first = threading.Thread(target=lambda: answers.append(ask(client, body)))
    first.start()
    wait_for_a_search(client.app)
    second = ask(client, body)
    first.join(120)
    assert answers == [second] and searches.started == before + 1
    capacity = searches.capacity
    searches.capacity = 0  # every slot taken
    try:
        response = client.post("/v1/analyze", json={"fair": True, "code": CODE, "actions": ["9>4"]})
        assert response.status_code == 503 and error_of(response.json(), "busy")
        assert 1 <= int(response.headers["retry-after"]) <= MAX_RETRY_AFTER
    finally:
        searches.capacity = capacity


def test_a_refused_log_is_422_and_a_won_one_answered_without_a_search(client):
    answer = ask(client, {"code": "SP1-S4C-AAAAAAD", "actions": ["9>4", "1>2"]}, 422)
    assert error_of(answer, "refused-action").startswith("action 2 (index 1: '1>2') refused")
    searches = client.app.state.searches
    before = searches.started
    won = ask(client, {"deck": DECK_TEXT, "suits": 1, "actions": WIN})
    assert won["hint"] is None and won["replay"]["won"] and won["summary"] == "The game is won."
    assert searches.started == before


@pytest.mark.parametrize("body, words", [
    ({"layouts": CAP + 1}, f"body.layouts: expected at most {CAP}, the server's --max-layouts-cap; got {CAP + 1}"),
    ({"layouts": 0}, "body.layouts: expected a whole number of layouts from 1 to the server's --max-layouts-cap"),
    ({"layouts": 2.5}, "body.layouts: expected a whole number of layouts"),
    ({"seed": -1}, "body.seed: expected a whole number from 0 to 2**64 - 1 (at least 0); got -1"),
    ({"seed": 2**64}, "body.seed: expected a whole number from 0 to 2**64 - 1"),
    ({"seed": "7"}, 'body.seed: expected a whole number from 0 to 2**64 - 1; got "7"'),
    ({"fair": "yes"}, 'body.fair: expected true or false; got "yes"'),
    ({"max_nodes": 5}, 'body: "max_nodes" is for the analysis that knows the face-down cards; a fair hint takes '
                       '"layouts" and "seed"'),
    ({"lost_at": False, "max_seconds": 3}, 'body: "max_seconds" and "lost_at" are for the analysis'),
    ({"fair": False, "seed": 3}, 'body: "seed" is for a fair hint: add "fair": true'),
    ({"fair": False, "layouts": 3, "seed": 3}, 'body: "layouts" and "seed" are for a fair hint: add "fair": true'),
])
def test_bad_options_are_refused_in_the_projects_words(client, body, words):
    answer = ask(client, {"code": CODE} | body, 422)
    assert error_of(answer, "invalid-request").startswith(words)


def test_the_document_says_the_cap_and_both_answers(client):
    document = client.get("/openapi.json").json()
    layouts = document["components"]["schemas"]["AnalyzeRequest"]["properties"]["layouts"]
    assert next(member for member in layouts["anyOf"] if member.get("type") == "integer")["maximum"] == CAP
    schema = document["paths"]["/v1/analyze"]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert {member["$ref"].rsplit("/", 1)[1] for member in schema["anyOf"]} == {"AnalysisResponse", "FairHintResponse"}
    assert "nothing with fair: true" in " ".join(document["paths"]["/v1/analyze"]["post"]["x-reveals"])


def test_a_read_only_server_gives_no_fair_hint(catalog_path):
    with TestClient(create_app(Settings(catalog=str(catalog_path), read_only=True))) as read_only:
        answer = ask(read_only, {"code": CODE}, 403)
        assert error_of(answer, "read-only")


@settings(max_examples=5)
@given(pair=deal_pairs([{"suits": 1}, {"suits": 4}]), picks=st.lists(st.integers(0, 10**6), min_size=2, max_size=5))
def test_twins_get_the_same_answer_from_the_service(client, pair, picks):
    """The fairness property through the service: two explicit decks that differ only in
    unseen cards, the same log and seed: the same answer, but for the seconds."""
    for log in prefixes(*pair, picks):
        answers = [without_seconds(ask(client, {"deck": deal.text(), "suits": deal.variant.suits, "actions": log,
                                                "layouts": 2, "seed": 9})) for deal in pair]
        assert answers[0] == answers[1]


def test_a_game_can_follow_the_services_fair_hints(client):
    """A frontend's demo mode: hint after hint, each played, the log replays."""
    log: list[str] = []
    for _ in range(6):
        answer = ask(client, {"code": CODE, "actions": log, "layouts": 2})
        log.append(answer["hint"])
        assert replay(CODE, log).error is None


def test_a_fair_hint_in_flight_is_expected_to_take_what_searches_took_lately():
    """A fair hint has no node budget and no seconds: Retry-After expects it to take what
    searches have taken lately, and past that (or with nothing measured) says the longest wait."""
    from spider_solver.service.searches import Flight, Searches

    searches = Searches(solvers=1, queue=0, max_seconds=30.0)
    try:
        searches._flights["fair"] = Flight(future=None, max_nodes=None, max_seconds=None, started=100.0)
        searches.node_rate = 5_000_000
        assert searches.retry_after(now=101.0) == MAX_RETRY_AFTER
        searches.typical = 4.0
        assert searches.retry_after(now=101.0) == 3
        assert searches.retry_after(now=110.0) == MAX_RETRY_AFTER
    finally:
        searches.stop()
