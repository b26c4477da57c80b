"""Hints that continue (docs/service.md, "Hints that continue"): a line a search found is
remembered, so that the next hints along it need no search, as along the catalog's line;
identical requests in flight share one search; the memory is bounded."""

from __future__ import annotations

import json
import threading

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from spider_solver.analysis import Analysis, Bracket  # noqa: E402
from spider_solver.catalog import Catalog  # noqa: E402
from spider_solver.outcomes import Reason, Status  # noqa: E402
from spider_solver.rules import Board, replay  # noqa: E402
from spider_solver.service.app import Settings, create_app  # noqa: E402
from spider_solver.service.lines import RememberedLines, whole_lines  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine")

#: Not in the catalog: the first hint searches.
CODE = "SP1-S1C-AAAAAAK"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    path = tmp_path_factory.mktemp("hints") / "catalog.sqlite"
    Catalog(path).close()
    with TestClient(create_app(Settings(catalog=str(path), solvers=1, max_nodes_cap=2_000_000,
                                        max_seconds_cap=20.0))) as test_client:
        yield test_client


def hint(client, code, log, **extra):
    response = client.post("/v1/analyze", json={"code": code, "actions": log, "lost_at": False} | extra)
    assert response.status_code == 200, response.text
    return response.json()


def test_following_the_hints_searches_once_and_each_hint_continues_the_last_line(client):
    searches = client.app.state.searches
    before = searches.started
    first = hint(client, CODE, ["D"])
    assert first["status"] == "verified" and first["source"] == "search"
    assert searches.started == before + 1
    log, line = ["D", first["hint"]], first["line"]
    for _ in range(10):
        answer = hint(client, CODE, log)
        assert answer["source"] == "known-line" and answer["nodes"] == 0
        assert answer["line"] == line[len(log) - 1:]  # the line found first, continued
        log.append(answer["hint"])
    assert searches.started == before + 1
    assert replay(CODE, log + answer["line"][1:]).won


def test_a_player_who_leaves_the_line_gets_a_search_and_then_its_line(client):
    code = "SP1-S1C-AAAAAAL"
    searches = client.app.state.searches
    first = hint(client, code, [])
    assert first["source"] == "search"
    board = Board(code)
    other = next(board.notation(action) for action in board.legal_moves() if board.notation(action) != first["hint"])
    before = searches.started
    away = hint(client, code, [other])  # off the line found: a search, whose line is remembered in turn
    assert away["source"] in ("search", "known-line") and searches.started <= before + 1
    assert hint(client, code, [other, away["hint"]])["source"] == "known-line"
    assert hint(client, code, [first["hint"]])["source"] == "known-line"  # a deal keeps its latest lines
    assert searches.started <= before + 1


def test_a_line_found_while_a_request_looked_for_one_answers_it_without_a_search(client, monkeypatch):
    """A request that found no line at its first look, while a search of its deal ended and
    left its lines (a burst of identical requests on a loaded machine), looks again before
    it searches, and is answered from them."""
    from spider_solver.service.routes import games

    code, app = "SP1-S1C-AAAAAAM", client.app
    kept: list = []
    remember = RememberedLines.remember
    monkeypatch.setattr(RememberedLines, "remember", lambda self, deal, analysis: (
        kept.append((deal, analysis)), remember(self, deal, analysis)))
    assert hint(client, code, ["D"])["source"] == "search" and len(kept) == 1
    app.state.lines = RememberedLines()  # forgotten: the next request's first look finds nothing
    look = games.answer_without_search
    looks: list = []

    def looking(deal, tokens, options, known):
        looks.append(list(known))
        if len(looks) == 1:  # the search of another request ends while this look runs
            app.state.lines.remember(*kept[0])
        return look(deal, tokens, options, known)

    monkeypatch.setattr(games, "answer_without_search", looking)
    before = app.state.searches.started
    answer = hint(client, code, ["D"])
    assert answer["source"] == "known-line" and app.state.searches.started == before
    assert looks[0] == [] and len(looks) == 2 and looks[1]


def test_identical_hint_requests_in_flight_share_one_search(client):
    searches = client.app.state.searches
    before = searches.started
    answers = []
    body = {"code": "SP1-S4C-AAAAAAK", "actions": ["D"], "lost_at": False, "max_nodes": 1_500_000}

    def ask():
        answers.append(client.post("/v1/analyze", json=body).json())

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 8 and searches.started - before == 1
    searched = [a for a in answers if a["source"] != "known-line"]
    assert len({json.dumps({k: v for k, v in a.items() if k != "seconds"}, sort_keys=True) for a in searched}) == 1


def test_the_memory_is_bounded_and_keeps_the_latest_lines_first():
    def found(*line, status=Status.VERIFIED):
        return Analysis(code=None, replay=replay("SP1-S1C-AAAAAAA", []), status=status, reason=Reason.WON,
                        line=line)

    lines = RememberedLines(deals=2, per_deal=2)
    lines.remember("a", found("1>2"))
    lines.remember("a", found("2>3"))
    lines.remember("a", found("3>4"))
    assert lines.of("a") == [("3>4",), ("2>3",)]
    lines.remember("a", found("2>3"))  # known again: first again, not twice
    assert lines.of("a") == [("2>3",), ("3>4",)]
    lines.remember("b", found("D"))
    lines.of("a")  # asked for: the latest used
    lines.remember("c", found("D"))
    assert len(lines) == 2 and lines.of("b") == [] and lines.of("a") and lines.of("c")
    lines.remember("d", found(status=Status.UNKNOWN))  # nothing found: nothing kept
    assert lines.of("d") == []


def test_whole_lines_start_from_the_first_position_past_undos_and_include_the_brackets():
    log = ["D", "D", "U", "D"]  # in effect: D D (the undo took one back)
    analysis = Analysis(code=None, replay=replay("SP1-S1C-AAAAAMZ", log), status=Status.UNWINNABLE,
                        reason=Reason.EXHAUSTED, lost_at=3, lost_at_action="D", lost_at_line=("1>2",),
                        bracket=Bracket(winnable=1, winnable_after=0, line=("1>2",), unwinnable=2,
                                        unwinnable_after=3))
    assert whole_lines(analysis) == [("D", "1>2"), ("D", "1>2")]
