"""The finished games a catalog keeps (table ``games``, schema version 5): stored, looked up,
ranked, and redeemed once.

A game is stored as the canonical record its receipt signs (:mod:`spider_solver.games`),
with the columns that rank it. The same game submitted again (the same deal, options, log,
name and challenge) is not stored twice: :meth:`FinishedGames.record_game` gives back the one
stored, with its id and time, so its receipt is the first one. Past ``cap`` rows the oldest
are dropped.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass

from spider_solver.catalog.connection import Connection, reads, write_failed
from spider_solver.games import FinishedGame, canonical, from_plain
from spider_solver.limits import DEFAULT_GAMES_PAGE, MAX_STORED_GAMES


def deal_key(game: FinishedGame) -> str:
    """The deal a game was played on, as the table keys it: its code, or ``deck:`` and the deck's SHA-256."""
    return game.code if game.code is not None else f"deck:{game.deck_sha256}"


def _once(game: FinishedGame) -> str:
    """What makes two submissions the same game: the deal, its options, the log, the name and the challenge."""
    same = [deal_key(game), game.deal_on_empty, game.undo_limit, game.log_sha256, game.name, game.challenge]
    return hashlib.sha256(json.dumps(same).encode()).hexdigest()


@dataclass(frozen=True)
class StoredGame:
    """A stored game's record, and when its receipt was redeemed (None: never)."""

    game: FinishedGame
    redeemed_at: str | None


class FinishedGames(Connection):
    """The finished games of a catalog (a part of :class:`~spider_solver.catalog.Catalog`)."""

    def record_game(self, game: FinishedGame, *, cap: int = MAX_STORED_GAMES) -> FinishedGame:
        """Store ``game`` (one transaction) and return it; if the same game is stored already,
        return that one instead (its id, its time). Then drop the oldest rows past ``cap``."""
        try:
            with self.transaction() as db:
                row = db.execute("SELECT record FROM games WHERE once = ?", (_once(game),)).fetchone()
                if row is not None:
                    return from_plain(json.loads(row[0]))
                db.execute(
                    "INSERT INTO games (id, deal_key, challenge, won, score, moves, finished_at, record, once)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (game.id, deal_key(game), game.challenge or "", int(game.won), game.score, game.moves,
                     game.finished_at, canonical(game).decode("ascii"), _once(game)))
                db.execute("DELETE FROM games WHERE rowid IN (SELECT rowid FROM games ORDER BY rowid"
                           " LIMIT max(0, (SELECT count(*) FROM games) - ?))", (cap,))
        except sqlite3.Error as error:
            raise write_failed(f"cannot write a finished game to catalog {str(self.path)!r}", error) from None
        return game

    @reads
    def stored_game(self, id: str) -> StoredGame | None:
        """The stored game of this id, or None."""
        row = self.db.execute("SELECT record, redeemed_at FROM games WHERE id = ?", (id,)).fetchone()
        return None if row is None else StoredGame(from_plain(json.loads(row[0])), row[1])

    @reads
    def best_games(self, deal: str, *, challenge: str | None = None,
                   limit: int = DEFAULT_GAMES_PAGE) -> tuple[list[FinishedGame], int]:
        """The best games of a deal (its code; ``challenge``: of that challenge only), best first:
        won, then the higher score, the fewer moves, the earlier; and how many it has in all."""
        where, args = "deal_key = ?", [deal]
        if challenge is not None:
            where += " AND challenge = ?"
            args.append(challenge)
        total = self.db.execute(f"SELECT count(*) FROM games WHERE {where}", args).fetchone()[0]
        rows = self.db.execute(f"SELECT record FROM games WHERE {where} ORDER BY won DESC, score DESC, moves,"
                               " finished_at, id LIMIT ?", [*args, limit]).fetchall()
        return [from_plain(json.loads(row[0])) for row in rows], total

    def redeem(self, id: str, at: str) -> str | None:
        """Mark the stored game's receipt redeemed at ``at`` (one transaction): None if it is
        redeemed now, the time of the first redemption if it was already; KeyError if no game
        of this id is stored."""
        try:
            with self.transaction() as db:
                row = db.execute("SELECT redeemed_at FROM games WHERE id = ?", (id,)).fetchone()
                if row is None:
                    raise KeyError(id)
                if row[0] is not None:
                    return row[0]
                db.execute("UPDATE games SET redeemed_at = ? WHERE id = ?", (at, id))
        except sqlite3.Error as error:
            raise write_failed(f"cannot redeem a game in catalog {str(self.path)!r}", error) from None
        return None


__all__ = ["FinishedGames", "StoredGame", "deal_key"]
