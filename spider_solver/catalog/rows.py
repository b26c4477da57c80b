"""A record as a row of ``results``, and a row as a record: the catalog's only mapping
between :class:`~spider_solver.record.SolveRecord` and its columns."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from spider_solver.catalog.schema import COLUMNS
from spider_solver.errors import CatalogError
from spider_solver.record import InvalidRecordError, SolveRecord, utc_now


def as_record(result: SolveRecord | Mapping[str, Any], *, solver_version: str | None = None,
              solved_at: str | None = None) -> SolveRecord:
    """``result`` as a checked record that can be stored: a record, or its plain-data form
    (:meth:`SolveRecord.from_dict`). ``solver_version`` and ``solved_at`` fill in what the
    result does not say (the time defaults to now). :class:`CatalogError` says what is wrong."""
    if not isinstance(result, SolveRecord | Mapping):
        raise CatalogError(f"a result to record is a SolveRecord or its plain-data form, not {type(result).__name__}")
    data = dict(result.to_dict() if isinstance(result, SolveRecord) else result)
    if not data.get("code"):
        raise CatalogError("a result without a game code (an explicit deck) cannot be recorded: "
                           "the catalog keeps deals by their codes")
    if not data.get("solver_version") and solver_version is not None:
        data["solver_version"] = solver_version
    if not data.get("solved_at"):
        data["solved_at"] = solved_at or utc_now()
    try:
        return SolveRecord.from_dict(data)
    except InvalidRecordError as error:
        raise CatalogError(str(error)) from None


def row_values(record: SolveRecord) -> dict[str, Any]:
    """The column values of ``results`` for a checked, coded record (:func:`as_record`)."""
    data = record.to_dict()
    data["solution"] = " ".join(record.solution)
    return {name: data[name] for name in COLUMNS}


def from_row(row: sqlite3.Row) -> SolveRecord:
    """The record a row of ``results`` holds (``suits``, ``rule``, ``deal`` and ``par``
    are the code's and the score's, which the schema's CHECK constraints keep equal)."""
    data = dict(row)
    return SolveRecord(
        code=data["code"], status=data["status"], solution=tuple(data["solution"].split()), moves=data["moves"],
        score=data["score"], nodes=data["nodes"], seconds=data["seconds"], max_nodes=data["max_nodes"],
        max_seconds=data["max_seconds"], reason=data["reason"], solver_version=data["solver_version"],
        solved_at=data["solved_at"], difficulty=data["difficulty"], difficulty_raw=data["difficulty_raw"],
        grader_version=data["grader_version"], improve_nodes=data["improve_nodes"],
        improve_seconds=data["improve_seconds"], improve_version=data["improve_version"],
    )


__all__ = ["as_record", "from_row", "row_values"]
