"""Reading the catalog: a deal's record, filtered rows and pages, a random verified
deal, and the deals that a batch, ``grade`` or ``improve`` has left to do."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator

from spider_solver.catalog.connection import Connection, reads
from spider_solver.catalog.daily import daily_choice
from spider_solver.catalog.filters import Filter
from spider_solver.catalog.queries import ASKED, SETTLED
from spider_solver.catalog.rows import from_row
from spider_solver.limits import DEFAULT_PAGE, check_page
from spider_solver.outcomes import Status
from spider_solver.record import SolveRecord
from spider_solver.rules import GameCode, Variant


class Reads(Connection):
    """The reads of a catalog (a part of :class:`~spider_solver.catalog.Catalog`)."""

    @reads
    def settled(self, codes: Iterable[str], *, max_nodes: int, max_seconds: float | None) -> set[str]:
        """The codes a batch at this budget has nothing to do for: verified (a line replayed to
        a win; ``improve`` is what looks for a shorter one), unwinnable (a proof), or unknown
        at a budget at least as large (the search is deterministic in nodes)."""
        query = f"SELECT code FROM results, {ASKED} WHERE code = ? AND {SETTLED}"
        return {code for code in codes if self.db.execute(query, (max_nodes, max_seconds, code)).fetchone()}

    @reads
    def get(self, code: str) -> SolveRecord | None:
        row = self.db.execute("SELECT * FROM results WHERE code = ?", (str(GameCode.parse(code)),)).fetchone()
        return None if row is None else from_row(row)

    @reads
    def entries(
        self, *, suits: int | None = None, rule: str | None = None, status: str | None = None,
        difficulty: tuple[int, int] | None = None,
    ) -> Iterator[SolveRecord]:
        """Rows of ``results`` ordered by suit count, rule and deal number, optionally filtered
        (``difficulty``: grades from ``low`` to ``high``, both included)."""
        where, args = Filter.of(suits, rule, status, difficulty).where()
        for row in self.db.execute(f"SELECT * FROM results{where} ORDER BY suits, rule, deal", args):
            yield from_row(row)

    @reads
    def count(self, *, suits: int | None = None, rule: str | None = None, status: str | None = None,
              difficulty: tuple[int, int] | None = None) -> int:
        where, args = Filter.of(suits, rule, status, difficulty).where()
        return self.db.execute(f"SELECT count(*) FROM results{where}", args).fetchone()[0]

    @reads
    def page(self, *, suits: int | None = None, rule: str | None = None, status: str | None = None,
             difficulty: tuple[int, int] | None = None, after: str | None = None,
             limit: int = DEFAULT_PAGE) -> tuple[list[SolveRecord], str | None]:
        """One page of :meth:`entries`: at most ``limit`` rows after the game code ``after``
        (in the order of suit count, rule and deal number), and the code to pass as
        ``after`` for the next page (None on the last page)."""
        where, args = Filter.of(suits, rule, status, difficulty).where()
        if after is not None:
            code = GameCode.parse(after)
            where += (" AND " if where else " WHERE ") + "(suits, rule, deal) > (?, ?, ?)"
            args += (code.suits, code.rule, code.number)
        size = check_page(limit)
        rows = self.db.execute(f"SELECT * FROM results{where} ORDER BY suits, rule, deal LIMIT ?",
                               args + (size + 1,)).fetchall()
        entries = [from_row(row) for row in rows[:size]]
        return entries, (entries[-1].code if len(rows) > size else None)

    @reads
    def random_verified(self, *, suits: int | None = None, rule: str | None = None,
                        difficulty: tuple[int, int] | None = None,
                        choose: Callable[[int], int] = random.randrange) -> SolveRecord | None:
        """A verified row drawn uniformly among those that match (``choose(n)`` picks the
        index, from 0 to n - 1), or None if none does."""
        where, args = Filter.of(suits, rule, Status.VERIFIED, difficulty).where()
        count = self.db.execute(f"SELECT count(*) FROM results{where}", args).fetchone()[0]
        if count == 0:
            return None
        row = self.db.execute(f"SELECT * FROM results{where} ORDER BY suits, rule, deal LIMIT 1 OFFSET ?",
                              args + (choose(count),)).fetchone()
        return None if row is None else from_row(row)

    @reads
    def verified_codes(self, *, suits: int | None = None, rule: str | None = None,
                       difficulty: tuple[int, int] | None = None) -> Iterator[str]:
        """The codes of the verified rows that match, in no set order (the daily deal's candidates)."""
        where, args = Filter.of(suits, rule, Status.VERIFIED, difficulty).where()
        for row in self.db.execute(f"SELECT code FROM results{where}", args):
            yield row[0]

    @reads
    def fingerprint(self, *, suits: int | None = None, rule: str | None = None, status: str | None = None,
                    difficulty: tuple[int, int] | None = None) -> tuple[int, int]:
        """The count of the rows that match and the sum of their row ids: it changes when a row
        comes in or leaves the set (rows are never deleted, and keep their id), so a choice made
        from the set (the daily deal) can be kept while it stays the same."""
        where, args = Filter.of(suits, rule, status, difficulty).where()
        count, total = self.db.execute(f"SELECT count(*), total(rowid) FROM results{where}", args).fetchone()
        return count, int(total)

    @reads
    def daily(self, date: str, *, suits: int | None = None, rule: str | None = None,
              difficulty: tuple[int, int] | None = None) -> SolveRecord | None:
        """The daily deal of ``date`` (``YYYY-MM-DD``) among the verified rows that match
        (:mod:`.daily`: rendezvous hashing of the date and the codes), or None if none does."""
        code = daily_choice(date, self.verified_codes(suits=suits, rule=rule, difficulty=difficulty))
        return None if code is None else self.get(code)

    @reads
    def to_grade(self, *, version: str, suits: int | None = None, rule: str | None = None,
                 regrade: bool = False) -> list[str]:
        """Codes of the verified rows to grade: no grade yet, or one from another grader
        version (``regrade``: every verified row), lowest suit count and deal first."""
        where, args = Filter.of(suits, rule, Status.VERIFIED).where()
        if not regrade:
            where += " AND (difficulty IS NULL OR grader_version IS NOT ?)"
            args += (version,)
        return [row[0] for row in self.db.execute(f"SELECT code FROM results{where} ORDER BY suits, rule, deal", args)]

    @reads
    def ungraded(self, variant: Variant, low: int, high: int) -> list[str]:
        """Codes of the verified rows of ``variant`` without a grade, deal numbers ``low`` to
        ``high - 1``, lowest first (what a batch over that range grades besides its plan)."""
        return [row[0] for row in self.db.execute(
            "SELECT code FROM results WHERE suits = ? AND rule = ? AND deal >= ? AND deal < ?"
            " AND status = 'verified' AND difficulty IS NULL ORDER BY deal",
            (variant.suits, variant.rule, low, high))]

    @reads
    def to_improve(self, *, max_nodes: int, version: str, suits: int | None = None,
                   rule: str | None = None) -> list[str]:
        """Codes of the verified rows an ``improve`` pass of ``max_nodes`` could still change:
        their stored line was never improved, or by another version, or on a smaller node
        budget. Lowest suit count and deal first."""
        where, args = Filter.of(suits, rule, Status.VERIFIED).where()
        where += " AND (improve_nodes IS NULL OR improve_version IS NOT ? OR improve_nodes < ?)"
        args += (version, max_nodes)
        return [row[0] for row in self.db.execute(f"SELECT code FROM results{where} ORDER BY suits, rule, deal", args)]

    @reads
    def pending(self, variant: Variant | None = None) -> list[str]:
        """Codes planned by a batch and not finished, lowest deal first."""
        if variant is None:
            rows = self.db.execute("SELECT code FROM pending ORDER BY suits, rule, deal")
        else:
            rows = self.db.execute(
                "SELECT code FROM pending WHERE suits = ? AND rule = ? ORDER BY deal", (variant.suits, variant.rule)
            )
        return [row[0] for row in rows]
