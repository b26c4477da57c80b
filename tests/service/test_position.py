"""``POST /v1/position``: the position a game log reaches, as the web client draws it and
plays on, answered by the rules engine's own helpers (RULES.md §13 Frontend helpers)."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from spider_solver.errors import SpiderError  # noqa: E402
from spider_solver.rules import Board, Undo, replay  # noqa: E402
from spider_solver.service.app import Settings, create_app  # noqa: E402

CODE = "SP1-S4C-AAAAAAD"
#: A log with a deal, an undo, a group size written out and a move onto a card.
LOG = ["9>4/1", "D", "U", "7>10", "D"]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Settings(read_only=True))) as test_client:
        yield test_client


def board_after(log, **options) -> Board:
    board = Board(CODE, **options)
    for token in log:
        board.push_notation(token)
    return board


@pytest.mark.parametrize("log", [[], LOG, LOG[:2]])
def test_the_position_is_the_rules_engines(client, log):
    body = client.post("/v1/position", json={"code": CODE, "actions": log}).json()
    board = board_after(log)
    result = replay(CODE, log)
    assert {name: body[name] for name in ("won", "moves", "score", "runs_removed", "stock_left")} == {
        name: getattr(result, name) for name in ("won", "moves", "score", "runs_removed", "stock_left")}
    assert body["code"] == CODE and body["suits"] == 4 and body["rule"] == "classic"
    assert body["deals_left"] == board.deals_left and body["played"] == list(result.played)
    undo = ["U"] if board.is_legal(Undo()) else []
    assert body["legal"] == [board.notation(action) for action in board.legal_moves()] + undo
    assert body["stuck"] is False
    for c, column in enumerate(body["columns"], start=1):
        assert column["down"] == board.down[c - 1] and column["up"] == [str(card) for card in board.face_up(c)]
        assert column["movable"] == board.movable(c)
        assert column["best"] == (board.best_target(c) if board.movable(c) else None)
        assert column["groups"] == [{"count": n, "targets": board.targets(c, n), "best": board.best_target(c, n)}
                                    for n in range(1, board.movable(c) + 1)]


def test_face_down_cards_are_counted_not_named(client):
    body = client.post("/v1/position", json={"code": CODE}).json()
    assert [len(column["up"]) for column in body["columns"]] == [1] * 10
    assert sum(column["down"] for column in body["columns"]) == 44


def test_the_log_as_played_is_canonical(client):
    body = client.post("/v1/position", json={"code": CODE, "actions": "09>4/1 d"}).json()
    assert body["played"] == ["9>4", "D"]


def refusal(board: Board, token: str) -> str:
    try:
        board.check(board.parse_action(token))
    except SpiderError as error:
        return str(error)
    raise AssertionError(f"{token} is allowed")


def test_deal_and_undo_refusals_are_the_rule_reminders(client):
    body = client.post("/v1/position", json={"code": CODE}).json()
    assert body["deal_refused"] is None and body["undo_refused"] == "nothing to undo: no action has been made"
    body = client.post("/v1/position", json={"code": CODE, "actions": ["9>4", "D"], "undo_limit": 0}).json()
    assert body["undo_refused"] == "cannot undo: undo is turned off (undo limit 0)"
    assert client.post("/v1/position", json={"code": CODE, "actions": LOG}).json()["undo_refused"] is None


@pytest.mark.parametrize("check", ["2>1", "1>2/3", "U", "D", "9>4", "x"])
def test_check_gives_the_rule_that_refuses_an_action_and_leaves_the_position(client, check):
    plain = client.post("/v1/position", json={"code": CODE}).json()
    body = client.post("/v1/position", json={"code": CODE, "check": check}).json()
    board = Board(CODE)
    expected = None if check in ("D", "9>4") else refusal(board, check)
    assert body.pop("refused") == expected and plain.pop("refused") is None
    assert body == plain


@pytest.mark.usefixtures("engine")
def test_after_the_win_every_action_is_refused_as_the_replay_refuses_it(client):
    from spider_solver import solve

    line = list(solve("SP1-S1C-AAAAAAB").solution)
    body = client.post("/v1/position", json={"code": "SP1-S1C-AAAAAAB", "actions": line, "check": "D"}).json()
    assert body["won"] is True and body["legal"] == [] and body["stuck"] is False
    assert body["undo_refused"] == "the game is already won; 'U' comes after the last run left"
    assert body["deal_refused"] == body["refused"] == "the game is already won; 'D' comes after the last run left"


def test_a_refused_action_of_the_log_is_a_422_naming_it(client):
    response = client.post("/v1/position", json={"code": CODE, "actions": ["9>4", "2>1"]})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["type"] == "refused-action" and error["index"] == 1 and error["action"] == "2>1"


def test_legal_lists_the_undo_when_one_is_possible(client):
    assert "U" not in client.post("/v1/position", json={"code": CODE}).json()["legal"]
    assert client.post("/v1/position", json={"code": CODE, "actions": ["9>4"]}).json()["legal"][-1] == "U"
    body = client.post("/v1/position", json={"code": CODE, "actions": ["9>4", "D", "U", "U"]}).json()
    assert "U" not in body["legal"] and body["undo_refused"] == "nothing to undo: every action has been undone"
    assert "U" not in client.post("/v1/position", json={"code": CODE, "actions": ["9>4"], "undo_limit": 0}).json()[
        "legal"]


def test_a_stuck_game_has_only_the_undo_left(client):
    """Dealing the whole stock at once leaves SP1-S1C-AAAAAMZ without a move (tests/web's STUCK)."""
    body = client.post("/v1/position", json={"code": "SP1-S1C-AAAAAMZ", "actions": ["D"] * 5}).json()
    assert body["stuck"] is True and body["legal"] == ["U"]
