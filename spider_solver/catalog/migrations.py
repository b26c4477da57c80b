"""How a catalog of an older schema version becomes one of :data:`~.schema.SCHEMA_VERSION`.

Each step up to version 4 renames the old ``results`` table, creates the current one and
copies every row into it (naming the columns), then drops the old table; the next step
rebuilds it once more. Version 5 adds the ``games`` table, empty.
:meth:`~.connection.Connection.migrate` runs the steps in one transaction.
"""

from __future__ import annotations

from spider_solver.catalog.schema import CREATE_GAMES, CREATE_RESULTS, V2_COLUMNS, V3_COLUMNS
from spider_solver.outcomes import REASONS_BY_STATUS, Status

#: ``par`` of a row of an older schema: the score of its stored line (every step fills it,
#: since each step creates the current table, whose CHECK wants it on verified rows).
_PAR = "CASE WHEN status = 'verified' THEN score END"
_UNKNOWN_REASONS = ", ".join(f"'{reason}'" for reason in sorted(REASONS_BY_STATUS[Status.UNKNOWN]))

#: Version 1 to 2: ``reason`` is one of :class:`Reason` and agrees with ``status``
#: (CHECK constraints). A version-1 row keeps everything; its reason becomes ``won`` for
#: a verified row, ``exhausted`` for an unwinnable one, and for an unknown one stays
#: what it was if that is a reason of an unknown result, ``rejected`` if it said the
#: rules engine refused the line, and ``widths`` otherwise (version 1 wrote no other).
MIGRATE_1_TO_2 = (
    "ALTER TABLE results RENAME TO results_v1",
    CREATE_RESULTS,
    f"INSERT INTO results ({', '.join(V2_COLUMNS)}, par) SELECT "
    + ", ".join(c for c in V2_COLUMNS[: V2_COLUMNS.index("reason")])
    + ", CASE WHEN status = 'verified' THEN 'won' WHEN status = 'unwinnable' THEN 'exhausted'"
    f" WHEN reason IN ({_UNKNOWN_REASONS}) THEN reason WHEN reason LIKE 'rejected%' THEN 'rejected'"
    " ELSE 'widths' END, "
    + ", ".join(V2_COLUMNS[V2_COLUMNS.index("reason") + 1 :])
    + f", {_PAR} FROM results_v1",
    "DROP TABLE results_v1",
)
#: Version 2 to 3: the grade columns (``difficulty``, ``difficulty_raw``,
#: ``grader_version``, NULL: not graded yet) and their CHECK constraints. Every row and
#: column is copied as it was; ``spider-solve grade`` grades the verified rows later.
MIGRATE_2_TO_3 = (
    "ALTER TABLE results RENAME TO results_v2",
    CREATE_RESULTS,
    f"INSERT INTO results ({', '.join(V2_COLUMNS)}, par) SELECT {', '.join(V2_COLUMNS)}, {_PAR} FROM results_v2",
    "DROP TABLE results_v2",
)
#: Version 3 to 4: ``par`` (the score of the stored line of a verified row: the shortest
#: known) and the record of ``improve`` (NULL: not improved yet). Every row and column is
#: copied as it was.
MIGRATE_3_TO_4 = (
    "ALTER TABLE results RENAME TO results_v3",
    CREATE_RESULTS,
    f"INSERT INTO results ({', '.join(V3_COLUMNS)}, par) SELECT {', '.join(V3_COLUMNS)}, {_PAR} FROM results_v3",
    "DROP TABLE results_v3",
)
#: Version 4 to 5: the finished games the service records (table ``games``, empty).
MIGRATE_4_TO_5 = CREATE_GAMES
#: The statements that bring a catalog of schema version N to N + 1.
MIGRATIONS: dict[int, tuple[str, ...]] = {1: MIGRATE_1_TO_2, 2: MIGRATE_2_TO_3, 3: MIGRATE_3_TO_4,
                                          4: MIGRATE_4_TO_5}
