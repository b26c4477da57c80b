"""Writing to the catalog: a result (by the replace rule), a grade, an improved line.

Every write is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``) in WAL mode, so a
process killed at any moment, even by ``kill -9``, leaves the file as it was after the
last commit.

The grade (``difficulty``, ``difficulty_raw``, ``grader_version``) is of the deal, not
of its line: it is set only on verified rows, all three columns or none (CHECK
constraints); a better verified result without a grade keeps the stored one, and
:meth:`Writes.set_grade` changes only those three columns.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any

from spider_solver.catalog.connection import Connection, write_failed
from spider_solver.catalog.queries import UPSERT
from spider_solver.catalog.rows import as_record, row_values
from spider_solver.errors import CatalogError
from spider_solver.outcomes import Status
from spider_solver.record import InvalidRecordError, SolveRecord, checked_grade
from spider_solver.rules import GameCode


class Writes(Connection):
    """The writes of a catalog (a part of :class:`~spider_solver.catalog.Catalog`)."""

    def record(
        self,
        result: SolveRecord | Mapping[str, Any],
        *,
        solver_version: str | None = None,
        solved_at: str | None = None,
    ) -> bool:
        """Store ``result`` unless the catalog holds a result at least as good.

        One transaction stores the result and removes the deal from ``pending``.
        Returns True if the row was added or replaced. ``result`` is a
        :class:`~spider_solver.record.SolveRecord` or its ``to_dict()`` form;
        ``solver_version`` and ``solved_at`` fill in what it does not say (the time: now).
        Its shape and figures are checked (:meth:`SolveRecord.check`), not whether its line
        wins: that is :func:`~spider_solver.verify.solve`'s replay, and ``spider-solve
        check``'s.
        """
        values = row_values(as_record(result, solver_version=solver_version, solved_at=solved_at))
        try:
            with self.transaction() as db:
                changed = db.execute(UPSERT, values).rowcount > 0
                db.execute("DELETE FROM pending WHERE code = ?", (values["code"],))
        except sqlite3.Error as error:
            raise write_failed(f"cannot write {values['code']!r} to catalog {str(self.path)!r}", error) from None
        return changed

    def set_grade(self, code: str, grade: Mapping[str, Any]) -> bool:
        """Store the grade of a verified row (one transaction); status, solution and every
        other column stay as they were. False if the row is not verified (or absent). The
        code is read as :meth:`get` reads it (:class:`~spider_solver.errors.InvalidCodeError`)."""
        code = str(GameCode.parse(code))
        try:
            values = checked_grade(grade, Status.VERIFIED, repr(code))
        except InvalidRecordError as error:
            raise CatalogError(str(error)) from None
        try:
            with self.transaction() as db:
                changed = db.execute(
                    "UPDATE results SET difficulty = :difficulty, difficulty_raw = :difficulty_raw,"
                    " grader_version = :grader_version WHERE code = :code AND status = 'verified'",
                    values | {"code": code},
                ).rowcount > 0
        except sqlite3.Error as error:
            raise write_failed(f"cannot write the grade of {code!r} to catalog {str(self.path)!r}", error) from None
        return changed

    def record_improvement(self, code: str, before: Iterable[str], result: Mapping[str, Any], *,
                           version: str) -> bool:
        """Store what ``improve`` found for the verified line ``before`` of ``code``, in one
        transaction: a shorter line (with its moves, score and par) replaces the stored one
        only if the row still holds ``before`` and the new line is shorter; either way the
        row records the pass (``improve_nodes``: its node budget, or the nodes it spent if it
        stopped early; ``improve_seconds`` adds up; ``improve_version``). Returns True if the
        line was replaced. The grade stays (it belongs to the deal)."""
        code = str(GameCode.parse(code))
        solution = " ".join(str(action) for action in result["solution"])
        stopped = bool(result.get("stopped"))
        spent = int(result["nodes"]) if stopped else int(result["max_nodes"])
        values = {"code": code, "before": " ".join(before), "solution": solution, "moves": int(result["moves"]),
                  "score": int(result["score"]), "nodes": spent, "seconds": float(result["seconds"]),
                  "version": version}
        record = ("improve_nodes = :nodes, improve_seconds = coalesce(improve_seconds, 0) + :seconds,"
                  " improve_version = :version")
        try:
            with self.transaction() as db:
                replaced = db.execute(
                    "UPDATE results SET solution = :solution, moves = :moves, score = :score, par = :score, "
                    + record + " WHERE code = :code AND status = 'verified' AND solution = :before"
                    " AND moves > :moves", values).rowcount > 0
                if not replaced:
                    db.execute("UPDATE results SET " + record
                               + " WHERE code = :code AND status = 'verified' AND solution = :before", values)
        except sqlite3.Error as error:
            raise write_failed(f"cannot write the improved line of {code!r} to catalog {str(self.path)!r}",
                                error) from None
        return replaced
