"""The catalog's schema: the statements of ``schema.sql`` (the one copy of the schema),
its version and the file's mark, and the columns of each schema version."""

from __future__ import annotations

import re
import sqlite3
from importlib import resources

#: ``PRAGMA user_version`` of a catalog of this schema.
SCHEMA_VERSION = 5
#: ``PRAGMA application_id`` of a catalog: "SP1C" in ASCII.
APPLICATION_ID = 0x53503143
#: The tables of the current schema version, as ``schema.sql`` writes them.
SCHEMA = resources.files(__package__).joinpath("schema.sql").read_text(encoding="utf-8")

#: The columns of schema version 2, in order; version 3 adds the grade (GRADE_COLUMNS).
V2_COLUMNS = (
    "code", "suits", "rule", "deal", "status", "solution", "moves", "score", "nodes", "seconds",
    "max_nodes", "max_seconds", "reason", "solver_version", "solved_at",
)
GRADE_COLUMNS = ("difficulty", "difficulty_raw", "grader_version")
V3_COLUMNS = V2_COLUMNS + GRADE_COLUMNS
#: Version 4 adds ``par`` and the record of ``improve`` (IMPROVE_COLUMNS).
IMPROVE_COLUMNS = ("improve_nodes", "improve_seconds", "improve_version")
COLUMNS = V3_COLUMNS + ("par",) + IMPROVE_COLUMNS


def statements(script: str) -> list[str]:
    """Split an SQL script into statements (``;`` inside comments does not count)."""
    result, lines = [], []
    for line in script.splitlines(keepends=True):
        lines.append(line)
        text = "".join(lines)
        if sqlite3.complete_statement(text):
            result.append(text.strip())
            lines = []
    return result


#: ``CREATE TABLE results``, which a new catalog and every migration step run.
CREATE_RESULTS = statements(SCHEMA)[0]
#: ``CREATE TABLE games`` and its indexes (schema version 5).
CREATE_GAMES = tuple(statement for statement in statements(SCHEMA)
                     if re.search(r"^CREATE (TABLE|INDEX|UNIQUE INDEX) games", statement, re.MULTILINE))
