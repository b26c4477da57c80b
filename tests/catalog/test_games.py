"""The finished games a catalog keeps (spider_solver/catalog/games.py): stored once, ranked,
capped, redeemed once."""

from __future__ import annotations

import secrets

import pytest

from spider_solver.catalog import Catalog
from spider_solver.games import finished_game, read_receipt, replay_finished, sign
from spider_solver.rules import Deal

KEY = bytes(range(32))
CODE = "SP1-S4C-AAAAAAD"


def game(log, *, name=None, challenge=None, at="2026-01-31T12:00:00Z", code=CODE, **options):
    replayed = replay_finished(Deal.from_code(code), log, **options)
    assert replayed.error is None
    return finished_game(replayed, id=secrets.token_hex(16), par=None, name=name, challenge=challenge,
                         finished_at=at, key=KEY)


@pytest.fixture
def catalog(tmp_path):
    with Catalog(tmp_path / "games.sqlite") as db:
        yield db


def test_a_game_is_stored_as_its_receipt_signs_it(catalog):
    played = game(["9>4", "D", "U"], name="Ada")
    assert catalog.record_game(played) == played
    stored = catalog.stored_game(played.id)
    assert stored.game == played and stored.redeemed_at is None
    assert read_receipt(sign(stored.game, KEY), KEY) == played
    assert catalog.stored_game("0" * 32) is None


def test_the_same_game_submitted_again_is_the_game_stored(catalog):
    first = catalog.record_game(game(["9>4", "D"], name="Ada"))
    again = catalog.record_game(game(["9>4", "D"], name="Ada", at="2026-02-01T00:00:00Z"))
    assert again == first  # its id and its time: the receipt is the first one
    other = catalog.record_game(game(["9>4", "D"], name="Bob"))  # another player's game is another game
    assert other.id != first.id
    assert catalog.record_game(game(["9>4", "D"], name="Ada", challenge="week 5")).id != first.id
    assert catalog.best_games(CODE)[1] == 3


def test_the_best_games_of_a_deal_come_first(catalog):
    low = catalog.record_game(game(["9>4", "D", "U", "U"], name="undos"))  # 500, 0 moves: the score is back
    high = catalog.record_game(game(["9>4"], name="one", at="2026-01-31T13:00:00Z"))  # 499
    early = catalog.record_game(game(["9>4", "D"], name="two"))  # 498
    assert [g.name for g in catalog.best_games(CODE)[0]] == [low.name, high.name, early.name]
    assert catalog.best_games(CODE, limit=2) == ([low, high], 3)
    challenged = catalog.record_game(game(["9>4"], name="one", challenge="c"))
    assert catalog.best_games(CODE, challenge="c") == ([challenged], 1)
    assert catalog.best_games("SP1-S4C-AAAAAAE") == ([], 0)


def test_past_the_cap_the_oldest_games_go(catalog):
    kept = [catalog.record_game(game(["9>4"] + ["D"] * (n % 5), name=f"p{n}"), cap=3) for n in range(5)]
    assert {g.id for g in catalog.best_games(CODE)[0]} == {g.id for g in kept[2:]}
    assert catalog.stored_game(kept[0].id) is None


def test_a_receipt_is_redeemed_once(catalog):
    played = catalog.record_game(game(["9>4"]))
    assert catalog.redeem(played.id, "2026-02-01T00:00:00Z") is None
    assert catalog.redeem(played.id, "2026-02-02T00:00:00Z") == "2026-02-01T00:00:00Z"
    assert catalog.stored_game(played.id).redeemed_at == "2026-02-01T00:00:00Z"
    with pytest.raises(KeyError):
        catalog.redeem("f" * 32, "2026-02-01T00:00:00Z")
