"""Planning a batch: which deals it solves, recorded as ``pending`` in one transaction.

Resume: a batch records its plan in ``pending``, and each result is written together
with the removal of its pending row (:meth:`~.writes.Writes.record`). A batch without
an explicit start first takes over the pending rows of its suit count and rule (left by
a run that was killed or interrupted), then takes the lowest deal numbers that are
neither pending nor settled at its budget: single deals that ``verify`` or the service
stored far ahead neither stop a batch nor make it skip the deals before them, and one
they stored at a smaller budget is taken in its turn. Both kinds of batch skip the
deals that are already settled (:meth:`~.reads.Reads.settled`: verified, unwinnable,
or unknown at a budget at least as large as theirs).

One batch at a time per catalog: two at once do not corrupt it, but the second takes
over the first one's pending deals and solves them twice.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass

from spider_solver.catalog.connection import Connection, write_failed
from spider_solver.catalog.queries import ASKED, SETTLED
from spider_solver.errors import CatalogError
from spider_solver.record import utc_now
from spider_solver.rules import MAX_DEAL, GameCode, Rule, Variant

#: A plan calls :attr:`~.connection.Connection.stop_check` after every this many deals it records.
PLAN_CHECK_EVERY = 10_000


@dataclass(frozen=True)
class Plan:
    """What a batch will solve, in order: ``resumed`` pending deals first, then ``new`` ones."""

    codes: tuple[str, ...]
    #: Pending deals taken over from an earlier run that did not finish.
    resumed: int
    #: Deals of an explicit range skipped because the catalog already settles them.
    skipped: int


class Planning(Connection):
    """The planning of a batch (a part of :class:`~spider_solver.catalog.Catalog`)."""

    def plan(
        self,
        variant: Variant,
        count: int,
        *,
        start: int | None = None,
        max_nodes: int,
        max_seconds: float | None,
    ) -> Plan:
        """Choose the deals of a batch and record them as pending, in one transaction.

        Without ``start``: the pending deals of this variant (lowest first, at most
        ``count``), then the lowest deal numbers that are neither pending nor
        :meth:`settled` at this budget, up to ``count`` in all (so a larger budget first
        takes the deals left unknown at a smaller one). With ``start``: deals ``start``
        to ``start + count - 1``, less those settled at this budget. ``skipped`` counts
        the settled deals passed over.
        """
        if count < 0:
            raise ValueError(f"invalid count {count!r}: expected 0 or more")
        try:
            return self._plan(variant.suits, variant.rule, count, start, max_nodes, max_seconds)
        except sqlite3.Error as error:
            raise write_failed(f"cannot plan a batch in catalog {str(self.path)!r}", error) from None

    def _plan(self, suits: int, rule: Rule, count: int, start: int | None, max_nodes: int,
              max_seconds: float | None) -> Plan:
        with self.transaction() as db:
            if start is None:
                resumed = [
                    row[0] for row in db.execute(
                        "SELECT code FROM pending WHERE suits = ? AND rule = ? ORDER BY deal LIMIT ?",
                        (suits, rule, count),
                    )
                ]
                numbers, skipped = self._fresh(suits, rule, count - len(resumed), max_nodes, max_seconds)
            else:
                resumed = []
                if count and start + count - 1 > MAX_DEAL:
                    raise CatalogError(
                        f"deal numbers {start} to {start + count - 1} go past the last deal number {MAX_DEAL}"
                    )
                settled = self._settled_between(suits, rule, start, start + count, max_nodes, max_seconds)
                numbers = [n for n in range(start, start + count) if n not in settled]
                skipped = len(settled)
            planned_at = utc_now()
            new: list[str] = []

            def rows() -> Iterator[tuple]:
                """The rows, codes made as they go in, with a stop_check every PLAN_CHECK_EVERY."""
                for i, n in enumerate(numbers, 1):
                    if i % PLAN_CHECK_EVERY == 0 and self.stop_check is not None:
                        self.stop_check()
                    new.append(str(GameCode(suits, rule, n)))
                    yield new[-1], suits, rule, n, planned_at

            db.executemany(
                "INSERT OR IGNORE INTO pending (code, suits, rule, deal, planned_at) VALUES (?, ?, ?, ?, ?)", rows())
        return Plan(codes=tuple(resumed + new), resumed=len(resumed), skipped=skipped)

    def _fresh(self, suits: int, rule: str, want: int, max_nodes: int,
               max_seconds: float | None) -> tuple[list[int], int]:
        """The ``want`` lowest deal numbers that are neither pending nor settled at this
        budget, and how many settled ones were passed over (above the first one taken)."""
        numbers: list[int] = []
        if want <= 0:
            return numbers, 0
        skipped, first = 0, self._first_open(suits, rule, max_nodes, max_seconds)
        low = first
        while len(numbers) < want:
            if low > MAX_DEAL:
                raise CatalogError(f"deal numbers from {first} on go past the last deal number {MAX_DEAL}")
            high = min(low + 2 * (want - len(numbers)) + 64, MAX_DEAL + 1)
            settled = self._settled_between(suits, rule, low, high, max_nodes, max_seconds)
            pending = {row[0] for row in self.db.execute(
                "SELECT deal FROM pending WHERE suits = ? AND rule = ? AND deal >= ? AND deal < ?",
                (suits, rule, low, high))}
            for n in range(low, high):
                if n in settled:
                    skipped += 1
                elif n not in pending:
                    numbers.append(n)
                    if len(numbers) == want:
                        break
            low = high
        return numbers, skipped

    def _first_open(self, suits: int, rule: str, max_nodes: int, max_seconds: float | None) -> int:
        """The lowest deal number of this variant that is neither pending nor settled at
        this budget: a deal stored out of order (by the service, or ``--start``) that is
        still unknown at this budget does not make the runs after it pass it by."""
        return self.db.execute(
            "WITH asked AS (SELECT ?3 AS max_nodes, ?4 AS max_seconds),"
            " done AS (SELECT deal FROM results, asked WHERE suits = ?1 AND rule = ?2"
            f" AND {SETTLED} UNION SELECT deal FROM pending WHERE suits = ?1 AND rule = ?2)"
            " SELECT min(n) FROM (SELECT 0 AS n UNION ALL SELECT deal + 1 FROM done) WHERE n NOT IN done",
            (suits, rule, max_nodes, max_seconds),
        ).fetchone()[0]

    def _settled_between(self, suits: int, rule: str, low: int, high: int, max_nodes: int,
                         max_seconds: float | None) -> set[int]:
        """The deal numbers from ``low`` to ``high - 1`` that are :meth:`settled` at this budget."""
        return {row[0] for row in self.db.execute(
            f"SELECT deal FROM results, {ASKED} WHERE suits = ? AND rule = ? AND deal >= ? AND deal < ? AND {SETTLED}",
            (max_nodes, max_seconds, suits, rule, low, high))}
