"""A finished game's record and its receipt: what the service gives a player who submits a game
log, so that a score shown by a frontend can be proved (docs/service.md, "Finished games and
receipts").

:func:`finished_game` replays a game log with the rules engine (RULES.md §12 Replay) and
records what the replay establishes: the outcome, the score, the move counter, the runs
removed, the undos used, the actions of the log and a digest of it; the service adds the
deal's par, an id, the time, and the name and challenge the frontend chose. The record is
declared once (:data:`GAME_FIELDS`) and has one plain-data form
(:func:`spider_solver.record.to_plain`, every declared record's), whose
canonical JSON text (:func:`canonical`) a receipt signs: a receipt is ``PAYLOAD.SIGNATURE``,
the base64url (no padding) of the canonical text and of its HMAC-SHA256 under the server's
key. Anyone who holds the key checks a receipt with :func:`read_receipt`, which refuses one
whose signature does not match (forged, or made with another key) or whose record was
changed (altered).

Nothing here knows of storage or HTTP: the catalog stores the records, the service signs
them and refuses a receipt redeemed twice.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Literal, get_args

from spider_solver.errors import SpiderError
from spider_solver.record import Field, to_plain
from spider_solver.rules import DEFAULT_UNDO_LIMIT, Board, Deal
from spider_solver.rules.replay import ReplayError, play_on

#: The receipt format's version: the first field of every record a receipt signs.
RECEIPT_VERSION = 1
#: The fewest bytes of a key (``serve --secret-file``): 256 bits, HMAC-SHA256's own strength.
MIN_KEY_BYTES = 32
#: The longest name and challenge a frontend may give a game.
MAX_NAME = 40
MAX_CHALLENGE = 64


class Outcome(StrEnum):
    """How a finished game ended."""

    #: Every run removed.
    WON = "won"
    #: No move and no deal left, the game not won: only an undo (if any) could go on.
    STUCK = "stuck"
    #: The player stopped with an action left.
    STOPPED = "stopped"


class InvalidReceiptError(SpiderError):
    """A receipt that does not prove its record: malformed, forged (its signature is not this
    key's) or altered (its record is not the one signed)."""


@dataclass(frozen=True)
class FinishedGame:
    """A game log replayed to its end, as the server records and signs it."""

    FIELDS: ClassVar[tuple[Field, ...]]
    #: The receipt format's version (:data:`RECEIPT_VERSION`).
    version: int
    #: The server's id of the game: 32 hexadecimal digits, random.
    id: str
    code: str | None
    #: The SHA-256 (hex) of an explicit deck's text, deck order (RULES.md §10 Explicit deals); None for a code.
    deck_sha256: str | None
    suits: int
    rule: str
    deal_on_empty: bool
    undo_limit: int | None
    outcome: Outcome
    score: int
    moves: int
    runs: int
    undos: int
    actions: int
    #: The SHA-256 (hex) of the log as played (canonical notation, one space between actions).
    log_sha256: str
    par: int | None
    name: str | None
    challenge: str | None
    finished_at: str
    #: The first 16 hexadecimal digits of the SHA-256 of the key that signs the receipt.
    key_id: str

    @property
    def won(self) -> bool:
        return self.outcome is Outcome.WON


GAME_FIELDS = FinishedGame.FIELDS = (
    Field("version", int, False, "The receipt format's version: 1."),
    Field("id", str, False, "The server's id of the game: 32 hexadecimal digits."),
    Field("code", str, True, "Canonical game code; null for an explicit deck."),
    Field("deck_sha256", str, True, "SHA-256 (hex) of an explicit deck's 104 cards in deck order, separated by "
          "spaces; null for a game code."),
    Field("suits", Literal[1, 2, 4], False, "Suit count."),
    Field("rule", Literal["classic", "relaxed"], False, "Move rule; one suit is always classic."),
    Field("deal_on_empty", bool, False, "Whether dealing on an empty column was allowed."),
    Field("undo_limit", int, True, "Actions that could be undone; null for the whole history."),
    Field("outcome", Outcome, False, "won: every run removed; stuck: no move or deal was left (an undo at most); "
          "stopped: the player stopped with actions left."),
    Field("score", int, False, "The final score as the app counts it (RULES.md §8 Score and undo)."),
    Field("moves", int, False, "The move counter at the end: actions in effect after the undos."),
    Field("runs", int, False, "Runs removed."),
    Field("undos", int, False, "Undos the player used."),
    Field("actions", int, False, "Actions in the log, undos included."),
    Field("log_sha256", str, False, "SHA-256 (hex) of the log as played: canonical notation, one space between "
          "actions (the log itself is not kept)."),
    Field("par", int, True, "The deal's par (the score of the shortest known line) when the catalog holds it "
          "verified; else null."),
    Field("name", str, True, "The player's name as the frontend chose to send it; null if none."),
    Field("challenge", str, True, "The challenge the frontend tied the game to (a text it chose); null if none."),
    Field("finished_at", str, False, "When the server recorded the game, in UTC (ISO 8601)."),
    Field("key_id", str, False, "The first 16 hexadecimal digits of the SHA-256 of the key that signs its "
          "receipt."),
)


def _python_type(kind: Any) -> type:
    """The JSON value's Python type of a declared field type (a Literal's: its values')."""
    if kind is Outcome:
        return str
    args = get_args(kind)
    return type(args[0]) if args else kind


def from_plain(data: Any) -> FinishedGame:
    """A record from its plain-data form (a receipt's, or the catalog's); :class:`InvalidReceiptError`
    if its fields are not those of :data:`GAME_FIELDS`, or of another JSON type."""
    names = [spec.name for spec in GAME_FIELDS]
    if not isinstance(data, Mapping) or sorted(data) != sorted(names):
        raise InvalidReceiptError("the receipt's record does not have the fields of a finished game")
    for spec in GAME_FIELDS:
        value, kind = data[spec.name], _python_type(spec.type)
        if not (value is None and spec.nullable) and type(value) is not kind:  # True is not an int here
            raise InvalidReceiptError(f"the receipt's record has a wrong {spec.name!r}")
    try:
        return FinishedGame(**{name: data[name] for name in names if name != "outcome"},
                           outcome=Outcome(data["outcome"]))
    except ValueError:
        raise InvalidReceiptError("the receipt's record has a wrong 'outcome'") from None


def canonical(game: FinishedGame) -> bytes:
    """The text a receipt signs: the plain-data form as JSON, keys sorted, no spaces, ASCII."""
    return json.dumps(to_plain(game), sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def key_id(key: bytes) -> str:
    """The id of a key in the records it signs: 16 hex digits of its SHA-256 (it reveals nothing of the key)."""
    return hashlib.sha256(key).hexdigest()[:16]


def check_key(key: bytes) -> bytes:
    """The key, if it is long enough for HMAC-SHA256 (:data:`MIN_KEY_BYTES`); else ValueError."""
    if len(key) < MIN_KEY_BYTES:
        raise ValueError(f"a key of {len(key)} bytes is too short: give at least {MIN_KEY_BYTES} random bytes "
                         "(e.g. openssl rand -hex 32)")
    return key


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    if not text or set(text) - set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"):
        raise InvalidReceiptError("the receipt is not two base64url parts separated by a dot")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise InvalidReceiptError("the receipt is not two base64url parts separated by a dot") from None


def sign(game: FinishedGame, key: bytes) -> str:
    """The receipt of ``game``: the base64url of its canonical text, a dot, the base64url of
    the text's HMAC-SHA256 under ``key``."""
    text = canonical(game)
    return f"{_b64(text)}.{_b64(hmac.new(key, text, hashlib.sha256).digest())}"


def read_receipt(receipt: str, key: bytes) -> FinishedGame:
    """The record a receipt proves, checked with ``key``; :class:`InvalidReceiptError` if the
    receipt is malformed, its signature is not ``key``'s over its payload (forged, or made with
    another key), or its payload is not a record's canonical text (altered and signed again
    by no one)."""
    payload, dot, signature = receipt.partition(".")
    if not dot or "." in signature:
        raise InvalidReceiptError("the receipt is not two base64url parts separated by a dot")
    text, mac = _unb64(payload), _unb64(signature)
    if not hmac.compare_digest(mac, hmac.new(key, text, hashlib.sha256).digest()):
        raise InvalidReceiptError("the receipt's signature does not match its record: it was altered, or not made "
                                  "with this server's key")
    try:
        data = json.loads(text)
    except (UnicodeDecodeError, ValueError):
        raise InvalidReceiptError("the receipt's record is not JSON") from None
    game = from_plain(data)
    if canonical(game) != text:  # pragma: no cover - a signed record is always canonical
        raise InvalidReceiptError("the receipt's record is not in canonical form")
    return game


def log_digest(played: Iterable[str]) -> str:
    """The SHA-256 (hex) of a log as played: canonical notation, one space between actions."""
    return hashlib.sha256(" ".join(played).encode("ascii")).hexdigest()


def deck_digest(deal: Deal) -> str:
    """The SHA-256 (hex) of a deal's deck text (RULES.md §10 Explicit deals)."""
    return hashlib.sha256(deal.text().encode("ascii")).hexdigest()


@dataclass(frozen=True)
class Replayed:
    """What a replay establishes of a finished game: its fields of :class:`FinishedGame`
    that the server does not give (``fields``), or the first refused action (``error``)."""

    fields: dict[str, Any]
    error: ReplayError | None


def replay_finished(deal: Deal, actions: Iterable[str], *, deal_on_empty: bool = False,
                    undo_limit: int | None = DEFAULT_UNDO_LIMIT) -> Replayed:
    """Replay a finished game's log (RULES.md §12 Replay) and say how it ended."""
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=undo_limit)
    result = play_on(board, actions)
    if result.error is not None:
        return Replayed({}, result.error)
    if result.won:
        outcome = Outcome.WON
    elif board.legal_moves():
        outcome = Outcome.STOPPED
    else:
        outcome = Outcome.STUCK
    return Replayed({
        "code": None if deal.code is None else str(deal.code),
        "deck_sha256": None if deal.code is not None else deck_digest(deal),
        "suits": deal.variant.suits, "rule": str(deal.variant.rule), "deal_on_empty": deal_on_empty,
        "undo_limit": undo_limit, "outcome": outcome, "score": result.score, "moves": result.moves,
        "runs": result.runs_removed, "undos": sum(1 for action in result.played if action == "U"),
        "actions": len(result.played), "log_sha256": log_digest(result.played),
    }, None)


def finished_game(replayed: Replayed, *, id: str, par: int | None, name: str | None, challenge: str | None,
                  finished_at: str, key: bytes) -> FinishedGame:
    """The record of a replayed game (no refused action), with what the server gives it."""
    assert replayed.error is None, "a game with a refused action is not recorded"
    return FinishedGame(version=RECEIPT_VERSION, id=id, par=par, name=name, challenge=challenge,
                        finished_at=finished_at, key_id=key_id(key), **replayed.fields)


__all__ = ["GAME_FIELDS", "MAX_CHALLENGE", "MAX_NAME", "MIN_KEY_BYTES", "RECEIPT_VERSION", "FinishedGame",
           "InvalidReceiptError", "Outcome", "Replayed", "canonical", "check_key", "deck_digest", "finished_game",
           "from_plain", "key_id", "log_digest", "read_receipt", "replay_finished", "sign", "to_plain"]
