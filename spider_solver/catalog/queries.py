"""The SQL of the catalog's rules: which stored result is better (the replace rule),
and which deals a batch at a budget has nothing to do for (settled).

Replace rule (:data:`BETTER`, applied inside the ``INSERT ... ON CONFLICT`` statement
:data:`UPSERT`): a new result replaces the stored one only if it is better, never the
reverse:

* verified beats unwinnable beats unknown;
* between two verified results the shorter solution wins;
* between two unknown results the larger budget wins: ``max_nodes`` and ``max_seconds``
  both at least as large (no ``max_seconds`` counts as infinite), and one of them larger;
* anything else, ties included, keeps the stored row.

A better result replaces the row; its grade, if it has none, is the stored one (the
grade belongs to the deal, not to the line: a shorter line of a verified deal keeps it).
The record of ``improve`` belongs to the line: a new line comes without one.
"""

from __future__ import annotations

from spider_solver.catalog.schema import COLUMNS, GRADE_COLUMNS


def _rank(table: str) -> str:
    return f"(CASE {table}.status WHEN 'verified' THEN 2 WHEN 'unwinnable' THEN 1 ELSE 0 END)"


def _budget_at_least(big: str, small: str) -> str:
    """SQL: the budget of row ``big`` is at least that of row ``small`` (NULL seconds: no limit)."""
    return (
        f"{big}.max_nodes >= {small}.max_nodes AND ({big}.max_seconds IS NULL OR "
        f"({small}.max_seconds IS NOT NULL AND {big}.max_seconds >= {small}.max_seconds))"
    )


#: SQL condition on a row of ``results`` joined with ``asked`` (its ``max_nodes`` and
#: ``max_seconds``): a batch at that budget has nothing to do for the deal.
SETTLED = f"(status <> 'unknown' OR ({_budget_at_least('results', 'asked')}))"

#: SQL condition: the incoming row (``excluded``) is better than the stored one (``results``).
BETTER = (
    f"{_rank('excluded')} > {_rank('results')}"
    " OR (excluded.status = 'verified' AND results.status = 'verified' AND excluded.moves < results.moves)"
    " OR (excluded.status = 'unknown' AND results.status = 'unknown'"
    f" AND {_budget_at_least('excluded', 'results')}"
    " AND (excluded.max_nodes > results.max_nodes OR excluded.max_seconds IS NOT results.max_seconds))"
)

#: Store a row unless the stored one is at least as good (:data:`BETTER`).
UPSERT = (
    f"INSERT INTO results ({', '.join(COLUMNS)}) VALUES ({', '.join(':' + c for c in COLUMNS)})"
    " ON CONFLICT (code) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in COLUMNS if c not in ("code",) + GRADE_COLUMNS) + ", "
    + ", ".join(f"{c} = CASE WHEN excluded.difficulty IS NULL AND excluded.status = 'verified'"
                f" THEN results.{c} ELSE excluded.{c} END" for c in GRADE_COLUMNS)
    + f" WHERE {BETTER}"
)

#: A query with the budget asked as a table ``asked``, for :data:`SETTLED`.
ASKED = "(SELECT ? AS max_nodes, ? AS max_seconds) AS asked"

__all__ = ["ASKED", "BETTER", "SETTLED", "UPSERT"]
