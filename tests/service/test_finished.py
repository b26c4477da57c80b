"""Finished games through the service: ``POST /v1/games`` replays and records a game and signs
its receipt, ``POST /v1/games/verify`` checks and redeems it, ``GET /v1/deals/{code}/games``
lists a deal's best results. Forged, altered, mismatched and replayed receipts are refused."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from spider_solver import solve  # noqa: E402
from spider_solver.catalog import Catalog  # noqa: E402
from spider_solver.games import read_receipt  # noqa: E402
from spider_solver.service.app import Settings, create_app  # noqa: E402
from spider_solver.service.finished import RateLimit, TooManyGames  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine")

KEY = bytes(range(100, 164))
CODE = "SP1-S1C-AAAAAAB"


@pytest.fixture(scope="module")
def catalog_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("finished") / "catalog.sqlite"
    with Catalog(path) as db:
        db.record(solve(CODE))
    return path


@pytest.fixture(scope="module")
def line(catalog_path):
    with Catalog(catalog_path) as db:
        return list(db.get(CODE).solution)


@pytest.fixture(scope="module")
def client(catalog_path):
    settings = Settings(catalog=str(catalog_path), solvers=1, secret=KEY, games_per_minute=1000)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def submit(client, actions, **extra):
    return client.post("/v1/games", json={"code": CODE, "actions": actions} | extra)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def error(response, status, kind):
    assert response.status_code == status, response.text
    assert response.json()["error"]["type"] == kind
    return response.json()["error"]["message"]


def test_a_won_game_is_recorded_with_its_par_and_a_receipt_anyone_with_the_key_checks(client, line):
    response = submit(client, line, name="Ada")
    assert response.status_code == 201
    answer = response.json()
    game = answer["game"]
    assert (game["outcome"], game["code"], game["moves"], game["runs"], game["undos"], game["name"]) == (
        "won", CODE, len(line), 8, 0, "Ada")
    assert game["score"] == game["par"] == 500 + 800 - len(line)
    assert game["log_sha256"] == hashlib.sha256(" ".join(line).encode()).hexdigest()
    # Checked by the server, and by anyone who holds the key, in a few lines (docs/service.md).
    checked = client.post("/v1/games/verify", json={"receipt": answer["receipt"]}).json()
    assert checked == {"valid": True, "game": game, "stored": True, "redeemed_at": None}
    payload, signature = answer["receipt"].split(".")
    text = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    assert hmac.compare_digest(base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4)),
                               hmac.new(KEY, text, hashlib.sha256).digest())
    assert json.loads(text) == game and read_receipt(answer["receipt"], KEY).name == "Ada"


def test_the_same_game_submitted_again_is_the_game_stored_not_a_second_entry(client, line):
    first = submit(client, line, name="Twice")
    again = submit(client, line, name="Twice")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    names = [g["name"] for g in client.get(f"/v1/deals/{CODE}/games", params={"limit": 100}).json()["games"]]
    assert names.count("Twice") == 1


@pytest.mark.parametrize("how", ["forged", "altered", "altered signature", "malformed"])
def test_a_forged_or_altered_receipt_is_refused(client, line, how):
    receipt = submit(client, line[:10], name="Bob").json()["receipt"]
    payload, signature = receipt.split(".")
    record = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    if how == "forged":  # a record signed with a key of one's own
        text = json.dumps(record | {"score": 1300, "outcome": "won"}, sort_keys=True, separators=(",", ":")).encode()
        mac = hmac.new(b"not the server's key, but long enough", text, hashlib.sha256).digest()
        bad = b64(text) + "." + b64(mac)
    elif how == "altered":  # the score raised, the server's signature kept
        text = json.dumps(record | {"score": 1300}, sort_keys=True, separators=(",", ":")).encode()
        bad = b64(text) + "." + signature
    elif how == "altered signature":
        bad = payload + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
    else:
        bad = "not a receipt"
    message = error(client.post("/v1/games/verify", json={"receipt": bad}), 422, "invalid-receipt")
    assert "receipt" in message
    error(client.post("/v1/games/verify", json={"receipt": bad, "redeem": True}), 422, "invalid-receipt")


def test_a_receipt_made_with_another_servers_key_is_refused(catalog_path, line):
    with TestClient(create_app(Settings(catalog=str(catalog_path), solvers=1,
                                        secret=b"another server's key, 32 bytes+"))) as elsewhere:
        receipt = submit(elsewhere, line[:5], name="Elsewhere").json()["receipt"]
    with TestClient(create_app(Settings(catalog=str(catalog_path), read_only=True, secret=KEY))) as here:
        error(here.post("/v1/games/verify", json={"receipt": receipt}), 422, "invalid-receipt")


def test_a_replayed_receipt_is_refused_when_redeemed_twice(client, line):
    """docs/service.md: a receipt is redeemed once; checks without redeem change nothing."""
    receipt = submit(client, line, name="Once").json()["receipt"]
    assert client.post("/v1/games/verify", json={"receipt": receipt}).json()["redeemed_at"] is None
    first = client.post("/v1/games/verify", json={"receipt": receipt, "redeem": True, "code": CODE}).json()
    assert first["redeemed_at"] is not None and first["stored"] is True
    message = error(client.post("/v1/games/verify", json={"receipt": receipt, "redeem": True}), 409,
                    "replayed-receipt")
    assert first["redeemed_at"] in message
    # A plain check still proves the game, and says when it was redeemed.
    assert client.post("/v1/games/verify", json={"receipt": receipt}).json()["redeemed_at"] == first["redeemed_at"]


def test_a_receipt_for_another_deal_or_challenge_is_refused(client, line):
    receipt = submit(client, line[:3], name="C", challenge="week 5").json()["receipt"]
    assert "not SP1-S1C-AAAAAAC" in error(client.post("/v1/games/verify", json={
        "receipt": receipt, "code": "SP1-S1C-AAAAAAC"}), 422, "receipt-mismatch")
    assert "'week 5', not 'week 6'" in error(client.post("/v1/games/verify", json={
        "receipt": receipt, "challenge": "week 6"}), 422, "receipt-mismatch")
    assert client.post("/v1/games/verify", json={"receipt": receipt, "code": CODE.lower(),
                                                  "challenge": "week 5"}).status_code == 200


def test_a_refused_action_is_a_422_and_nothing_is_recorded(client):
    before = client.get(f"/v1/deals/{CODE}/games").json()["total"]
    response = submit(client, ["D", "2>1/13"])
    assert error(response, 422, "refused-action") and response.json()["error"]["index"] == 1
    assert client.get(f"/v1/deals/{CODE}/games").json()["total"] == before


def test_the_best_games_of_a_deal_come_first_without_their_logs(client, line):
    submit(client, ["D"], name="Low", challenge="list")
    submit(client, line, name="High", challenge="list")
    submit(client, ["D", "U"], name="Mid", challenge="list")
    listed = client.get(f"/v1/deals/{CODE}/games", params={"challenge": "list"}).json()
    assert [g["name"] for g in listed["games"]] == ["High", "Mid", "Low"] and listed["total"] == 3
    assert [g["outcome"] for g in listed["games"]] == ["won", "stopped", "stopped"]
    assert all("actions" in g and "log" not in g and "solution" not in g for g in listed["games"])
    assert client.get(f"/v1/deals/{CODE}/games", params={"challenge": "list", "limit": 1}).json()["total"] == 3
    assert client.get("/v1/deals/SP1-S4C-AAAAAAD/games").json() == {"games": [], "total": 0}


def test_a_server_that_does_not_write_records_no_game_but_checks_receipts(catalog_path, client, line):
    receipt = submit(client, line[:2], name="RO").json()["receipt"]
    with TestClient(create_app(Settings(catalog=str(catalog_path), read_only=True, secret=KEY))) as reader:
        error(reader.post("/v1/games", json={"code": CODE, "actions": []}), 403, "read-only")
        assert reader.post("/v1/games/verify", json={"receipt": receipt}).json()["stored"] is True
        error(reader.post("/v1/games/verify", json={"receipt": receipt, "redeem": True}), 403, "read-only")
    with TestClient(create_app(Settings(read_only=True, secret=KEY))) as bare:
        error(bare.post("/v1/games", json={"code": CODE, "actions": []}), 404, "not-found")


def test_past_the_rate_limit_an_address_gets_429_with_retry_after(catalog_path):
    with TestClient(create_app(Settings(catalog=str(catalog_path), solvers=1, secret=KEY,
                                        games_per_minute=2))) as limited:
        assert [submit(limited, ["D"] * n).status_code for n in range(2)] == [201, 201]
        response = submit(limited, ["D", "D", "D"])
        error(response, 429, "too-many-games")
        assert 1 <= int(response.headers["Retry-After"]) <= 30


def test_the_rate_limit_is_a_bucket_for_each_address():
    limit = RateLimit(per_minute=6)
    for _ in range(6):
        limit.take("a", now=0.0)
    with pytest.raises(TooManyGames) as raised:
        limit.take("a", now=0.0)
    assert raised.value.retry_after == 10  # one game every 10 s
    limit.take("b", now=0.0)  # another address has its own bucket
    limit.take("a", now=10.0)  # refilled, one game
    with pytest.raises(TooManyGames):
        limit.take("a", now=11.0)


def test_a_game_submitted_again_after_the_key_changed_gets_a_receipt_of_the_new_key(catalog_path, line):
    new_key = b"the server's next key, 32 bytes at least"
    with TestClient(create_app(Settings(catalog=str(catalog_path), solvers=1, secret=KEY))) as before:
        first = submit(before, line[:7], name="Rotated").json()
    with TestClient(create_app(Settings(catalog=str(catalog_path), solvers=1, secret=new_key))) as after:
        again = submit(after, line[:7], name="Rotated")
        assert again.status_code == 200 and again.json()["game"]["id"] == first["game"]["id"]
        assert after.post("/v1/games/verify", json={"receipt": again.json()["receipt"]}).status_code == 200
        error(after.post("/v1/games/verify", json={"receipt": first["receipt"]}), 422, "invalid-receipt")
    assert read_receipt(again.json()["receipt"], new_key).key_id != first["game"]["key_id"]
