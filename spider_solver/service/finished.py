"""What the service needs to record finished games: the key that signs their receipts, the
rate limit of each client address, and the catalog's writer (:class:`Recorder`).

The key comes from ``serve --secret-file`` (the same in every process of ``--workers N``);
without one, the server makes a random key as it starts, and receipts then verify only until
it stops. The rate limit is a token bucket a client address: ``games_per_minute`` submissions
at once, then one every ``60 / games_per_minute`` seconds; past it :class:`TooManyGames`
(``429`` with ``Retry-After``). The address is the connection's, or, behind a reverse proxy on
this machine, the one it forwards (uvicorn takes ``X-Forwarded-For`` from 127.0.0.1); a
request a helper process of ``--workers`` hands over the Unix socket carries its client's
address in :data:`CLIENT_HEADER`, read only from that socket. No address is stored: the
buckets live in memory and are forgotten once full again.
"""

from __future__ import annotations

import math
import time
from typing import Any

from starlette.requests import Request

from spider_solver.games import FinishedGame, key_id
from spider_solver.limits import GAMES_PER_MINUTE

#: The header in which a helper of ``serve --workers`` names the client of a request it hands
#: to the primary (read only from a request that came over the primary's Unix socket).
CLIENT_HEADER = "x-spider-client"
#: Client addresses the limiter keeps at most; past it, the full buckets are forgotten.
MAX_CLIENTS = 10_000


class TooManyGames(Exception):
    """A client address submitted games faster than the server allows; try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many finished games from this address: try again in {retry_after} s")
        self.retry_after = retry_after


class RateLimit:
    """A token bucket a client address: ``per_minute`` at once, then one every ``60 / per_minute`` s."""

    def __init__(self, per_minute: int = GAMES_PER_MINUTE) -> None:
        self.per_minute = per_minute
        self._rate = per_minute / 60.0
        self._buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)

    def take(self, address: str, now: float | None = None) -> None:
        """Take one token of ``address``'s bucket; :class:`TooManyGames` if it is empty."""
        now = time.monotonic() if now is None else now
        tokens, when = self._buckets.get(address, (float(self.per_minute), now))
        tokens = min(float(self.per_minute), tokens + (now - when) * self._rate)
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            raise TooManyGames(max(1, math.ceil((1 - tokens) / self._rate)))
        self._buckets[address] = (tokens - 1, now)
        if len(self._buckets) > MAX_CLIENTS:
            self._forget_full(now)

    def _forget_full(self, now: float) -> None:
        full = [address for address, (tokens, when) in self._buckets.items()
                if tokens + (now - when) * self._rate >= self.per_minute]
        for address in full:
            del self._buckets[address]


def client_address(request: Request) -> str:
    """The address a request's rate limit counts: the connection's (or the one a local proxy
    forwards), or, over the primary's Unix socket, the one the helper names."""
    if request.client is not None and request.client.host:
        return request.client.host
    return request.headers.get(CLIENT_HEADER, "") or "unknown"


class Recorder:
    """The key, the rate limit and the catalog's writer of the finished games."""

    def __init__(self, key: bytes, writer: Any, per_minute: int = GAMES_PER_MINUTE) -> None:
        self.key = key
        self.key_id = key_id(key)
        self.writer = writer
        self.limit = RateLimit(per_minute)

    async def record(self, game: FinishedGame) -> FinishedGame:
        """Store the game (in the writer's thread); the one stored before if it is the same game."""
        return await self.writer.call("record_game", game)

    async def redeem(self, id: str, at: str) -> str | None:
        """:meth:`Catalog.redeem`, in the writer's thread."""
        return await self.writer.call("redeem", id, at)


__all__ = ["CLIENT_HEADER", "RateLimit", "Recorder", "TooManyGames", "client_address"]
