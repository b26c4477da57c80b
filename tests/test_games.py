"""A finished game's record and its receipt (spider_solver/games.py): the replay decides the
outcome and the figures; a receipt proves its record to anyone with the key, and nothing else."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest

from spider_solver.games import (
    GAME_FIELDS,
    FinishedGame,
    InvalidReceiptError,
    Outcome,
    canonical,
    check_key,
    finished_game,
    read_receipt,
    replay_finished,
    sign,
    to_plain,
)
from spider_solver.rules import Deal, replay

KEY = b"k" * 32
CODE = "SP1-S4C-AAAAAAD"


def played(log, code=CODE, **options) -> FinishedGame:
    replayed = replay_finished(Deal.from_code(code), log, **options)
    return finished_game(replayed, id="0" * 32, par=1200, name="Ada", challenge=None,
                         finished_at="2026-01-31T12:00:00Z", key=KEY)


def test_the_replay_decides_the_figures():
    game = played(["9>4", "D", "U", "7>10"])
    result = replay(CODE, ["9>4", "D", "U", "7>10"])
    assert (game.score, game.moves, game.runs, game.undos, game.actions) == (
        result.score, result.moves, result.runs_removed, 1, 4)
    assert game.outcome is Outcome.STOPPED and game.code == CODE and game.deck_sha256 is None
    assert game.log_sha256 == hashlib.sha256(b"9>4 D U 7>10").hexdigest()
    assert tuple(to_plain(game)) == tuple(spec.name for spec in GAME_FIELDS)


def test_a_stuck_game_and_an_explicit_deck():
    assert played(["D"] * 5, code="SP1-S1C-AAAAAMZ").outcome is Outcome.STUCK
    deal = Deal.from_code(CODE)
    game = finished_game(replay_finished(Deal.from_text(deal.text(), 4, "classic"), ["9>4"]), id="1" * 32, par=None,
                         name=None, challenge=None, finished_at="2026-01-31T12:00:00Z", key=KEY)
    assert game.code is None and game.deck_sha256 == hashlib.sha256(deal.text().encode()).hexdigest()


def test_a_refused_action_is_no_finished_game():
    assert replay_finished(Deal.from_code(CODE), ["9>4", "2>1"]).error.index == 1


def test_a_receipt_is_the_canonical_record_and_its_hmac_as_the_docs_say():
    """docs/service.md, "Finished games and receipts": anyone with the key checks it in a few lines."""
    game = played(["9>4"])
    receipt = sign(game, KEY)
    payload, signature = receipt.split(".")
    text = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    assert text == canonical(game) == json.dumps(to_plain(game), sort_keys=True, separators=(",", ":")).encode()
    assert base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4)) == hmac.new(
        KEY, text, hashlib.sha256).digest()
    assert "=" not in receipt and read_receipt(receipt, KEY) == game


def _forge(record: dict, key: bytes) -> str:
    text = json.dumps(record, sort_keys=True, separators=(",", ":")).encode()
    mac = hmac.new(key, text, hashlib.sha256).digest()
    return ".".join(base64.urlsafe_b64encode(part).decode().rstrip("=") for part in (text, mac))


@pytest.mark.parametrize("how", ["another key", "score raised", "signature of another game", "garbage", "no dot",
                                 "three parts", "not base64", "empty"])
def test_a_forged_or_altered_receipt_is_refused(how):
    game = played(["9>4"])
    receipt = sign(game, KEY)
    payload, signature = receipt.split(".")
    record = to_plain(game)
    forged = {
        "another key": _forge(record, b"x" * 32),
        "score raised": _forge(record | {"score": 1300}, b"x" * 32).split(".")[0] + "." + signature,
        "signature of another game": payload + "." + sign(played(["D"]), KEY).split(".")[1],
        "garbage": "abc.def",
        "no dot": payload,
        "three parts": receipt + ".x",
        "not base64": "%%%." + signature,
        "empty": "",
    }[how]
    with pytest.raises(InvalidReceiptError):
        read_receipt(forged, KEY)


def test_a_record_signed_by_the_key_but_not_a_finished_games_is_refused():
    """A record whose fields or types are not a finished game's, signed all the same (by a
    holder of the key who made a mistake): refused, never read halfway."""
    record = to_plain(played(["9>4"]))
    for wrong in ({k: v for k, v in record.items() if k != "score"}, record | {"score": "1300"},
                  record | {"outcome": "lost"}, record | {"extra": 1}, record | {"deal_on_empty": 0}):
        with pytest.raises(InvalidReceiptError):
            read_receipt(_forge(wrong, KEY), KEY)


def test_a_short_key_is_refused():
    with pytest.raises(ValueError, match="at least 32"):
        check_key(b"short")
    assert check_key(b"k" * 32) == b"k" * 32
