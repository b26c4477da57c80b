"""The daily deal: one verified deal of the catalog for a date, the same on every server that
holds the same catalog.

Among the verified rows that match the filters (suit count, rule, grades), the deal of date
``D`` (``YYYY-MM-DD``) is the one whose canonical game code ``C`` has the largest SHA-256
digest of the UTF-8 text ``D C`` (the date, one space, the code), the digests compared as
bytes (rendezvous hashing). So the choice is a function of the date, the filters and the
catalog's verified codes alone, which anyone with the codes can recompute; and a deal added
to the catalog changes a day's deal only if its own digest for that day is larger, so a
catalog that grows keeps most of its days' deals (1 in n + 1 changes for each deal added
to n). docs/service.md, "The daily deal".
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable


def daily_weight(date: str, code: str) -> bytes:
    """The digest that ranks ``code`` on ``date``: the largest is the day's deal."""
    return hashlib.sha256(f"{date} {code}".encode()).digest()


def daily_choice(date: str, codes: Iterable[str]) -> str | None:
    """The day's deal among ``codes`` (canonical game codes); None if there is none."""
    return max(codes, key=lambda code: daily_weight(date, code), default=None)


__all__ = ["daily_choice", "daily_weight"]
