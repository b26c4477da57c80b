"""The catalog: an SQLite file that records the best result found for each game code.

One row per game code in table ``results`` (status, solution, budget, solver version,
time); table ``pending`` holds the deals a batch has planned and not yet finished. The
schema is ``SCHEMA`` below, documented column by column in ``data/catalog-schema.sql``;
its version is ``PRAGMA user_version`` (``SCHEMA_VERSION``) and ``PRAGMA application_id``
(``APPLICATION_ID``) marks the file as a catalog, so that opening any other file, or a
catalog of a newer schema, raises :class:`~spider_solver.errors.CatalogError`.

Every write is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``) in WAL mode, so a
process killed at any moment, even by ``kill -9``, leaves the file as it was after the
last commit.

Replace rule (:data:`BETTER`, applied inside the ``INSERT ... ON CONFLICT`` statement):
a new result replaces the stored one only if it is better, never the reverse:

* verified beats unwinnable beats unknown;
* between two verified results the shorter solution wins;
* between two unknown results the larger budget wins: ``max_nodes`` and ``max_seconds``
  both at least as large (no ``max_seconds`` counts as infinite), and one of them larger;
* anything else, ties included, keeps the stored row.

The grade (``difficulty``, ``difficulty_raw``, ``grader_version``; schema version 3) is
of the deal, not of its line: it is set only on verified rows, all three columns or none
(CHECK constraints); a better verified result without a grade keeps the stored one, and
:meth:`Catalog.set_grade` changes only those three columns.

Resume (:meth:`Catalog.plan`): a batch records its plan in ``pending`` in one
transaction, and each result is written together with the removal of its pending row.
A batch without an explicit start first takes over the pending rows of its suit count
and rule (left by a run that was killed or interrupted), then takes the lowest deal
numbers that are neither pending nor settled at its budget: single deals that
``verify`` or the service stored far ahead neither stop a batch nor make it skip the
deals before them, and one they stored at a smaller budget is taken in its turn. Both kinds of batch skip the deals that
are already settled (:meth:`Catalog.settled`: verified, unwinnable, or unknown at a
budget at least as large as theirs).

One batch at a time per catalog: two at once do not corrupt it, but the second takes
over the first one's pending deals and solves them twice.

An SQLite error on reading (a damaged file, a vanished disk) is raised as
:class:`~spider_solver.errors.CatalogError`, like one on writing.
"""

from __future__ import annotations

import functools
import inspect
import os
import random
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from spider_solver.errors import (
    QUOTE_LIMIT,
    CatalogError,
    CatalogLocked,
    InvalidOptionError,
    quote,
    real_number,
    whole_number,
)
from spider_solver.outcomes import DEFAULT_REASON, REASONS_BY_STATUS, Reason, Status
from spider_solver.rules import MAX_DEAL, GameCode, Rule, Variant, parse_rule, parse_suits
from spider_solver.verify import SolveResult

SCHEMA_VERSION = 4
#: ``PRAGMA application_id`` of a catalog: "SP1C" in ASCII.
APPLICATION_ID = 0x53503143
#: SQLite's primary result codes for a damaged file (https://www.sqlite.org/rescode.html).
SQLITE_BUSY, SQLITE_CORRUPT, SQLITE_NOTADB = 5, 11, 26
#: The largest integer an SQLite column holds.
SQLITE_MAX = 2**63 - 1
DEFAULT_CATALOG = "spider-catalog.sqlite"
#: A write waits at most LOCK_WAIT_SECONDS for another process's lock on the catalog (a
#: batch planning a million deals holds it for seconds), in tries of LOCK_TRY_SECONDS:
#: between two tries a Ctrl-C is seen, and :attr:`Catalog.stop_check` is called.
LOCK_WAIT_SECONDS = 30.0
LOCK_TRY_SECONDS = 0.25
#: A plan calls :attr:`Catalog.stop_check` after every this many deals it records.
PLAN_CHECK_EVERY = 10_000
#: The most rows :meth:`Catalog.page` gives at once.
MAX_PAGE = 1_000_000


def _sql_list(values: Iterable[str]) -> str:
    return ", ".join(f"'{value}'" for value in values)


#: The tables of schema version 4; ``data/catalog-schema.sql`` holds the same statements.
SCHEMA = f"""\
-- One row per game code: the best result found so far (see "replace rule" in the README).
CREATE TABLE results (
    code           TEXT    PRIMARY KEY,                 -- canonical game code, SP1-S4C-AAAAAAD
    suits          INTEGER NOT NULL CHECK (suits IN (1, 2, 4)),
    rule           TEXT    NOT NULL CHECK (rule IN ('classic', 'relaxed')),
    deal           INTEGER NOT NULL CHECK (deal >= 0),  -- the deal number the code encodes
    status         TEXT    NOT NULL CHECK (status IN ({_sql_list(Status)})),
    solution       TEXT    NOT NULL DEFAULT '',         -- action notation, space separated; '' unless verified
    moves          INTEGER,                             -- actions in the solution (moves and deals)
    score          INTEGER,                             -- final score of the solution as the app counts it
    nodes          INTEGER NOT NULL,                    -- nodes searched
    seconds        REAL    NOT NULL,                    -- search time
    max_nodes      INTEGER NOT NULL,                    -- node budget of the search
    max_seconds    REAL,                                -- time budget; NULL for none
    reason         TEXT    NOT NULL                     -- why the search stopped (README, "Three honest outcomes")
                   CHECK (reason IN ({_sql_list(Reason)})),
    solver_version TEXT    NOT NULL,                    -- spider-solver version of the worker
    solved_at      TEXT    NOT NULL,                    -- UTC, ISO 8601: 2026-01-31T12:00:00Z
    difficulty     INTEGER CHECK (difficulty BETWEEN 1 AND 5),  -- 1 very easy .. 5 very hard; NULL: not graded
    difficulty_raw REAL    CHECK (difficulty_raw BETWEEN 0 AND 100),  -- the fair player's figure behind it
    grader_version TEXT,                                -- the grader that gave it (README, "Difficulty")
    par            INTEGER,                             -- score of the shortest known line; NULL unless verified
    improve_nodes  INTEGER CHECK (improve_nodes >= 0),  -- nodes `improve` spent on this line; NULL: none
    improve_seconds REAL   CHECK (improve_seconds >= 0),  -- seconds `improve` took on this deal, all its passes
    improve_version TEXT,                               -- spider-solver version of that improve pass
    CHECK (status <> 'verified' OR (solution <> '' AND moves IS NOT NULL AND score IS NOT NULL)),
    CHECK ((status = 'verified') = (reason = 'won') AND (status = 'unwinnable') = (reason = 'exhausted')),
    CHECK (difficulty IS NULL OR status = 'verified'),
    CHECK ((difficulty IS NULL) = (difficulty_raw IS NULL) AND (difficulty IS NULL) = (grader_version IS NULL)),
    CHECK ((status = 'verified') = (par IS NOT NULL) AND (par IS NULL OR par = score)),
    CHECK (improve_nodes IS NULL OR status = 'verified'),
    CHECK ((improve_nodes IS NULL) = (improve_seconds IS NULL) AND (improve_nodes IS NULL) = (improve_version IS NULL)),
    UNIQUE (suits, rule, deal)
);

-- Deals a batch has planned but not yet finished. A batch adds its whole plan in one
-- transaction; each result is written together with the removal of its row, in one
-- transaction; the next batch of the same suit count and rule takes over what is left.
CREATE TABLE pending (
    code       TEXT    PRIMARY KEY,
    suits      INTEGER NOT NULL,
    rule       TEXT    NOT NULL,
    deal       INTEGER NOT NULL,
    planned_at TEXT    NOT NULL,
    UNIQUE (suits, rule, deal)
);
"""

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


def _rank(table: str) -> str:
    return f"(CASE {table}.status WHEN 'verified' THEN 2 WHEN 'unwinnable' THEN 1 ELSE 0 END)"


def _budget_at_least(big: str, small: str) -> str:
    """SQL: the budget of row ``big`` is at least that of row ``small`` (NULL seconds: no limit)."""
    return (
        f"{big}.max_nodes >= {small}.max_nodes AND ({big}.max_seconds IS NULL OR "
        f"({small}.max_seconds IS NOT NULL AND {big}.max_seconds >= {small}.max_seconds))"
    )


#: SQL condition on a row of ``results`` joined with ``asked`` (its ``max_nodes`` and
#: ``max_seconds``): a batch at that budget has nothing to do for the deal
#: (:meth:`Catalog.settled`).
SETTLED = f"(status <> 'unknown' OR ({_budget_at_least('results', 'asked')}))"

#: SQL condition: the incoming row (``excluded``) is better than the stored one (``results``).
BETTER = (
    f"{_rank('excluded')} > {_rank('results')}"
    " OR (excluded.status = 'verified' AND results.status = 'verified' AND excluded.moves < results.moves)"
    " OR (excluded.status = 'unknown' AND results.status = 'unknown'"
    f" AND {_budget_at_least('excluded', 'results')}"
    " AND (excluded.max_nodes > results.max_nodes OR excluded.max_seconds IS NOT results.max_seconds))"
)

#: A better result replaces the row; its grade, if it has none, is the stored one (the
#: grade belongs to the deal, not to the line: a shorter line of a verified deal keeps it).
#: The record of ``improve`` belongs to the line: a new line comes without one.
UPSERT = (
    f"INSERT INTO results ({', '.join(COLUMNS)}) VALUES ({', '.join(':' + c for c in COLUMNS)})"
    " ON CONFLICT (code) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in V2_COLUMNS + ("par",) + IMPROVE_COLUMNS if c != "code") + ", "
    + ", ".join(f"{c} = CASE WHEN excluded.difficulty IS NULL AND excluded.status = 'verified'"
                f" THEN results.{c} ELSE excluded.{c} END" for c in GRADE_COLUMNS)
    + f" WHERE {BETTER}"
)


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


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


P = ParamSpec("P")
T = TypeVar("T")


def _write_failed(what: str, error: sqlite3.Error) -> CatalogError:
    """The error of a write that failed (``what`` it was): :class:`CatalogLocked` when another
    process held the catalog's lock past SQLite's wait, which a caller may try again."""
    locked = getattr(error, "sqlite_errorcode", 0) & 0xFF == SQLITE_BUSY
    return (CatalogLocked if locked else CatalogError)(f"{what}: {error}")


def _reads(method: Callable[P, T]) -> Callable[P, T]:
    """A reading method of :class:`Catalog` whose SQLite errors (a damaged file: "database
    disk image is malformed") come out as :class:`CatalogError`, one line for the user."""

    def failed(catalog: Any, error: sqlite3.Error) -> CatalogError:
        return CatalogError(f"cannot read catalog {str(catalog.path)!r}: {error}")

    if inspect.isgeneratorfunction(method):
        @functools.wraps(method)
        def rows(*args: P.args, **kwargs: P.kwargs) -> Any:
            try:
                yield from method(*args, **kwargs)
            except sqlite3.Error as error:
                raise failed(args[0], error) from None

        return rows

    @functools.wraps(method)
    def read(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return method(*args, **kwargs)
        except sqlite3.Error as error:
            raise failed(args[0], error) from None

    return read


@dataclass(frozen=True)
class Entry:
    """One row of ``results``. ``solution`` is a tuple of action strings."""

    code: str
    suits: int
    rule: str
    deal: int
    status: Status
    solution: tuple[str, ...]
    moves: int | None
    score: int | None
    nodes: int
    seconds: float
    max_nodes: int
    max_seconds: float | None
    reason: Reason
    solver_version: str
    solved_at: str
    #: The grade, 1 (very easy) to 5 (very hard), of a verified deal; None if not graded.
    difficulty: int | None = None
    difficulty_raw: float | None = None
    grader_version: str | None = None
    #: The score of the shortest known line (the stored one) of a verified deal; None otherwise.
    par: int | None = None
    #: The node budget ``improve`` spent on the stored line, its seconds and version; None if none.
    improve_nodes: int | None = None
    improve_seconds: float | None = None
    improve_version: str | None = None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Entry:
        data = dict(row)
        data["solution"] = tuple(data["solution"].split())
        data["status"], data["reason"] = Status(data["status"]), Reason(data["reason"])
        return cls(**data)

    def to_dict(self) -> dict:
        """The export form: every column, ``solution`` as a list of action strings."""
        return {
            "code": self.code, "suits": self.suits, "rule": self.rule, "deal": self.deal,
            "status": str(self.status), "moves": self.moves, "score": self.score, "solution": list(self.solution),
            "nodes": self.nodes, "seconds": self.seconds, "max_nodes": self.max_nodes,
            "max_seconds": self.max_seconds, "reason": str(self.reason), "solver_version": self.solver_version,
            "solved_at": self.solved_at, "difficulty": self.difficulty, "difficulty_raw": self.difficulty_raw,
            "grader_version": self.grader_version, "par": self.par, "improve_nodes": self.improve_nodes,
            "improve_seconds": self.improve_seconds, "improve_version": self.improve_version,
        }


@dataclass(frozen=True)
class Plan:
    """What a batch will solve, in order: ``resumed`` pending deals first, then ``new`` ones."""

    codes: tuple[str, ...]
    #: Pending deals taken over from an earlier run that did not finish.
    resumed: int
    #: Deals of an explicit range skipped because the catalog already settles them.
    skipped: int


def row_values(result: SolveResult | Mapping[str, Any], *, solver_version: str, solved_at: str) -> dict:
    """Check a result's shape and turn it into the column values of ``results``: the
    status and reason agree, a verified result has a line, its move count is the line's
    length, and the figures are numbers in range (:class:`CatalogError` names what is
    wrong). Whether the line wins is not replayed here: :func:`~spider_solver.verify.solve`
    and :func:`~spider_solver.verify.improve` replay every line they return, and
    ``spider-solve check`` (:func:`~spider_solver.verify.check_solution`) replays what a
    catalog holds."""
    data = result.to_dict() if isinstance(result, SolveResult) else dict(result)
    if not data.get("code"):
        raise CatalogError("a result without a game code (an explicit deck) cannot be recorded: "
                           "the catalog keeps deals by their codes")
    code = GameCode.parse(data["code"])
    try:
        status = Status(str(data.get("status")))
    except ValueError:
        raise CatalogError(
            f"invalid status {data.get('status')!r} for {str(code)!r}: expected one of {', '.join(Status)}"
        ) from None
    default = DEFAULT_REASON.get(status)
    try:
        reason = Reason(data["reason"]) if data.get("reason") else default
    except ValueError:
        reason = None
    if reason not in REASONS_BY_STATUS[status]:
        raise CatalogError(
            f"invalid reason {data.get('reason')!r} for a {status} result of {str(code)!r}: expected one of "
            f"{', '.join(sorted(REASONS_BY_STATUS[status]))}"
        )
    solution = data.get("solution") or ()
    if isinstance(solution, str):
        solution = solution.split()
    solution = [str(action) for action in solution]
    moves, score = data.get("moves"), data.get("score")
    if status is Status.VERIFIED:
        if not solution or score is None:
            raise CatalogError(f"verified result for {str(code)!r} has no solution or no score")
        if moves is not None and whole_number(moves) != len(solution):
            raise CatalogError(f"invalid moves {quote(moves)} for {str(code)!r}: its line has {len(solution)} actions")
        moves = len(solution)
        score = _figure(score, "score", code, whole=True)
    else:
        solution, moves, score = [], None, None
    nodes = _figure(data.get("nodes") or 0, "nodes", code, whole=True)
    seconds = _figure(data.get("seconds") or 0.0, "seconds", code)
    max_nodes = _figure(data.get("max_nodes"), "max_nodes", code, whole=True, low=1)
    max_seconds = data.get("max_seconds")
    if max_seconds is not None:
        max_seconds = _figure(max_seconds, "max_seconds", code)
    grade = grade_values(data, status, str(code))
    return grade | dict.fromkeys(IMPROVE_COLUMNS) | {
        "par": None if score is None else int(score),
        "code": str(code), "suits": code.suits, "rule": code.rule, "deal": code.number, "status": str(status),
        "solution": " ".join(solution), "moves": moves, "score": None if score is None else int(score),
        "nodes": nodes, "seconds": seconds, "max_nodes": max_nodes, "max_seconds": max_seconds,
        "reason": str(reason), "solver_version": str(data.get("solver_version") or solver_version),
        "solved_at": str(data.get("solved_at") or solved_at),
    }


def _figure(value: object, name: str, code: GameCode, *, whole: bool = False, low: float = 0) -> Any:
    """A result's count or seconds, checked: a whole number (``whole``) or a finite
    number, from ``low`` up to what SQLite holds (2**63 - 1); :class:`CatalogError`
    naming the field otherwise."""
    number = whole_number(value) if whole else real_number(value)
    if number is None or not low <= number <= SQLITE_MAX:
        kind = "a whole number" if whole else "a number of seconds"
        raise CatalogError(f"invalid {name} {quote(value)} for {str(code)!r}: expected {kind} from {low:g} "
                           f"to {SQLITE_MAX:,}")
    return number


def grade_values(data: Mapping[str, Any], status: Status, code: str) -> dict:
    """The grade columns of a result: all three or none, and only on a verified row."""
    values = {name: data.get(name) for name in GRADE_COLUMNS}
    given = [value is not None for value in values.values()]
    if not any(given):
        return values
    if not all(given):
        raise CatalogError(f"grade of {code!r} needs difficulty, difficulty_raw and grader_version together")
    if status is not Status.VERIFIED:
        raise CatalogError(f"a {status} result of {code!r} cannot carry a difficulty: only verified deals are graded")
    grade = whole_number(values["difficulty"])
    if grade is None or not 1 <= grade <= 5:
        raise CatalogError(f"invalid difficulty {quote(values['difficulty'])} for {code!r}: "
                           "expected a whole number from 1 to 5")
    raw = real_number(values["difficulty_raw"])
    if raw is None or not 0.0 <= raw <= 100.0:
        raise CatalogError(f"invalid difficulty_raw {quote(values['difficulty_raw'])} for {code!r}: expected 0 to 100")
    return {"difficulty": grade, "difficulty_raw": raw, "grader_version": str(values["grader_version"])}


#: Grades go from 1 (very easy) to 5 (very hard).
GRADES = (1, 5)
_GRADE_TEXT = re.compile(r"[+-]?[0-9]+")


def _parse_status(value: object) -> str:
    """A status filter: a :class:`Status` or its name in any case."""
    text = str(value).strip().lower() if isinstance(value, str) else None
    for status in Status:
        if value is status or text == str(status):
            return str(status)
    raise InvalidOptionError(f"unknown status {quote(value)}: expected one of {', '.join(Status)}")


def _parse_difficulty(value: object) -> tuple[int, int]:
    """A difficulty filter: ``(low, high)`` grades, one grade, or text as :func:`parse_grades` reads it."""
    if isinstance(value, str):
        return parse_grades(value)
    grade = whole_number(value)
    if grade is not None:
        return parse_grades(str(grade))
    if isinstance(value, tuple | list) and len(value) == 2:
        low, high = (whole_number(part) for part in value)
        if low is not None and high is not None:
            return parse_grades(f"{low}-{high}")
    raise InvalidOptionError(f"invalid difficulty {quote(value)}: expected a grade from {GRADES[0]} to "
                             f"{GRADES[1]}, or (low, high)")


def parse_grades(text: str) -> tuple[int, int]:
    """A grade (``"3"``) or a range of grades (``"1-2"``, low first, both included) as
    ``(low, high)``; :class:`~spider_solver.errors.InvalidOptionError` if it is neither."""
    low_grade, high_grade = GRADES
    value = str(text).strip()
    expected = f"expected a grade from {low_grade} to {high_grade} (e.g. 5) or a range of grades (e.g. 1-2)"
    parts = value.split("-") if len(value) <= QUOTE_LIMIT else []  # longer text is refused unread
    if not 1 <= len(parts) <= 2 or not all(_GRADE_TEXT.fullmatch(part.strip()) for part in parts):
        raise InvalidOptionError(f"{quote(str(text))} is not a grade: {expected}")
    grades = [int(part) for part in parts]
    for grade in grades:
        if not low_grade <= grade <= high_grade:
            raise InvalidOptionError(f"{grade} is not a grade: grades go from {low_grade} (very easy) to "
                                     f"{high_grade} (very hard)")
    low, high = grades[0], grades[-1]
    if low > high:
        raise InvalidOptionError(f"{quote(value)} is an empty range: give the lower grade first, e.g. {high}-{low}")
    return low, high


#: Version 1 to 2: ``reason`` is one of :class:`Reason` and agrees with ``status``
#: (CHECK constraints). A version-1 row keeps everything; its reason becomes ``won`` for
#: a verified row, ``exhausted`` for an unwinnable one, and for an unknown one stays
#: what it was if that is a reason of an unknown result, ``rejected`` if it said the
#: rules engine refused the line, and ``widths`` otherwise (version 1 wrote no other).
#: ``par`` of a row of an older schema: the score of its stored line (every step fills it,
#: since each step creates the current table, whose CHECK wants it on verified rows).
_PAR = "CASE WHEN status = 'verified' THEN score END"
_UNKNOWN_REASONS = _sql_list(sorted(REASONS_BY_STATUS[Status.UNKNOWN]))
MIGRATE_1_TO_2 = (
    "ALTER TABLE results RENAME TO results_v1",
    statements(SCHEMA)[0],
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
    statements(SCHEMA)[0],
    f"INSERT INTO results ({', '.join(V2_COLUMNS)}, par) SELECT {', '.join(V2_COLUMNS)}, {_PAR} FROM results_v2",
    "DROP TABLE results_v2",
)
#: Version 3 to 4: ``par`` (the score of the stored line of a verified row: the shortest
#: known) and the record of ``improve`` (NULL: not improved yet). Every row and column is
#: copied as it was.
MIGRATE_3_TO_4 = (
    "ALTER TABLE results RENAME TO results_v3",
    statements(SCHEMA)[0],
    f"INSERT INTO results ({', '.join(V3_COLUMNS)}, par) SELECT {', '.join(V3_COLUMNS)}, {_PAR} FROM results_v3",
    "DROP TABLE results_v3",
)
#: The statements that bring a catalog of schema version N to N + 1. (Each step creates
#: the current table, and the next step rebuilds it once more: the copies name their columns.)
MIGRATIONS: dict[int, tuple[str, ...]] = {1: MIGRATE_1_TO_2, 2: MIGRATE_2_TO_3, 3: MIGRATE_3_TO_4}


class Catalog:
    """An open catalog file. Use as a context manager, or call :meth:`close`.

    ``create=False`` refuses a file that does not exist yet, or is empty (for ``check``
    and ``export``); a batch creates the catalog on first use. A catalog in a folder
    that cannot be written (a read-only disk or mount) is opened read-only whatever is
    asked: SQLite needs the folder for the ``-wal`` and ``-shm`` files of a writer, and
    without them reads the file as it is (``immutable``); writes then fail with a
    :class:`CatalogError`.
    """

    def __init__(self, path: str | os.PathLike, *, create: bool = True, read_only: bool = False) -> None:
        self.path = Path(path)
        shown = str(self.path)
        if self.path.is_dir():
            raise CatalogError(f"catalog {shown!r} is a directory, not a catalog file")
        if self.path.exists() and not self.path.is_file():  # /dev/null, a FIFO: SQLite would write beside it
            raise CatalogError(f"catalog {shown!r} is not a regular file (a device or a pipe): name a file")
        if not self.path.exists():
            if not create or read_only:
                raise CatalogError(f"no catalog at {shown!r}: run a batch into it first, "
                                   "or name another with --catalog")
            if not self.path.parent.is_dir():
                raise CatalogError(
                    f"cannot create catalog {shown!r}: directory {str(self.path.parent)!r} does not exist"
                )
        frozen = self.path.exists() and not os.access(self.path.resolve().parent, os.W_OK)
        self.frozen = frozen
        self.read_only = read_only or frozen
        #: Called between the tries of a wait for another process's write lock, and now
        #: and then in a long plan; it raises to end the wait or the plan (rolled back): a
        #: batch raises KeyboardInterrupt once a stop is asked, the service CatalogLocked
        #: once it is stopping. None: wait out LOCK_WAIT_SECONDS (a Ctrl-C still ends it).
        self.stop_check: Callable[[], None] | None = None
        try:
            if self.read_only:  # SQLite itself refuses every write on this connection
                uri = f"{self.path.resolve().as_uri()}?mode=ro" + ("&immutable=1" if frozen else "")
                self.db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=LOCK_WAIT_SECONDS)
            else:
                self.db = sqlite3.connect(self.path, isolation_level=None, timeout=LOCK_WAIT_SECONDS)
        except sqlite3.Error as error:
            raise CatalogError(f"cannot open catalog {shown!r}: {error}") from None
        self.db.row_factory = sqlite3.Row
        try:
            self._prepare(shown, create)
        except BaseException:
            self.db.close()
            raise

    def _unreadable(self, shown: str, error: sqlite3.DatabaseError) -> str:
        """Why SQLite cannot read the file: a damaged catalog (its header says whose it
        is), a damaged SQLite database, or another kind of file."""
        try:
            with open(self.path, "rb") as file:
                header = file.read(72)
        except OSError:
            header = b""
        if header.startswith(b"SQLite format 3\0"):
            whose = "catalog" if int.from_bytes(header[68:72], "big") == APPLICATION_ID else "SQLite database"
            if getattr(error, "sqlite_errorcode", 0) & 0xFF in (SQLITE_CORRUPT, SQLITE_NOTADB):
                return f"{whose} {shown!r} is damaged ({error}): restore it from a copy"
            # Locked past the wait, an I/O error (a full disk: opening writes the -shm file), ...
            return f"cannot open {whose} {shown!r}: {error}"
        return f"{shown!r} is not a spider-solver catalog (not an SQLite database: {error})"

    def _prepare(self, shown: str, create: bool) -> None:
        try:
            application_id = self.db.execute("PRAGMA application_id").fetchone()[0]
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            tables = self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except sqlite3.DatabaseError as error:
            raise CatalogError(self._unreadable(shown, error)) from None
        if application_id != APPLICATION_ID:
            if application_id != 0 or version != 0 or tables != 0:
                raise CatalogError(f"{shown!r} is an SQLite database but not a spider-solver catalog")
            if self.read_only or not create:
                raise CatalogError(f"{shown!r} is empty, not a spider-solver catalog: run a batch first")
            if not self._create(shown):  # another process made it meanwhile: read it as it is
                self._prepare(shown, create)
                return
        elif version > SCHEMA_VERSION:
            raise CatalogError(
                f"catalog {shown!r} has schema version {version}, newer than this spider-solver reads "
                f"({SCHEMA_VERSION}): upgrade spider-solver"
            )
        elif version < 1:
            raise CatalogError(f"catalog {shown!r} has an unknown schema version {version}")
        elif version < SCHEMA_VERSION:
            if self.frozen:  # a read-only folder: it can never be upgraded there
                self._read_upgraded(shown, version)
                return
            if self.read_only:  # serve --read-only: its reads must see later writes, not a copy
                raise CatalogError(
                    f"catalog {shown!r} has schema version {version}, older than this spider-solver's "
                    f"({SCHEMA_VERSION}): open it once for writing (e.g. spider-solve check) to upgrade it"
                )
            self._migrate(shown, version)
        if self.read_only:
            return
        try:
            self.db.execute("PRAGMA journal_mode = WAL")
            # WAL with synchronous=NORMAL survives a killed process; a power cut may lose
            # the last commits, never the file.
            self.db.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error as error:
            raise CatalogError(f"cannot open catalog {shown!r}: {error}") from None

    def _create(self, shown: str) -> bool:
        """Make the empty file a catalog; False if another process did first (the file
        was read outside the transaction, which two processes may do at once)."""
        try:
            with self.transaction():
                if self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                    return False
                for statement in statements(SCHEMA):
                    self.db.execute(statement)
                self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error as error:
            raise CatalogError(f"cannot create catalog {shown!r}: {error}") from None
        return True

    def _read_upgraded(self, shown: str, version: int) -> None:
        """A catalog of an older schema in a folder that cannot be written (``export``,
        ``check``, ``serve --read-only`` on a read-only mount): the file stays as it is, and
        what is read is a copy in memory, upgraded as :meth:`_migrate` would upgrade the
        file, that refuses writes as the file would."""
        copy = sqlite3.connect(":memory:", isolation_level=None)
        try:
            self.db.backup(copy)
        except sqlite3.DatabaseError as error:
            copy.close()
            raise CatalogError(self._unreadable(shown, error)) from None
        self.db.close()
        self.db = copy
        self.db.row_factory = sqlite3.Row
        self._migrate(shown, version)
        self.db.execute("PRAGMA query_only = ON")

    def _migrate(self, shown: str, version: int) -> None:
        """Bring the schema from ``version`` to ``SCHEMA_VERSION`` in one transaction: a
        failure, or a kill, leaves the file as it was. The version is read again inside
        it: another process may have upgraded the file since it was read, and its steps
        must not run twice (a second copy of the rows would drop what was written since)."""
        try:
            with self.transaction():
                version = self.db.execute("PRAGMA user_version").fetchone()[0]
                if version >= SCHEMA_VERSION:  # upgraded by another process since it was read
                    return
                for step in range(version, SCHEMA_VERSION):
                    for statement in MIGRATIONS[step]:
                        self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error as error:
            raise CatalogError(
                f"cannot upgrade catalog {shown!r} from schema version {version} to {SCHEMA_VERSION}: {error}"
            ) from None

    # ------------------------------------------------------------------ #

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; any exception, Ctrl-C included, rolls back.

        The wait for another process's lock is made of LOCK_TRY_SECONDS tries, so that a
        Ctrl-C or :attr:`stop_check` ends it within a try rather than after SQLite's wait
        (which sleeps in C, where no signal handler runs)."""
        self._begin()
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def _begin(self) -> None:
        deadline = time.monotonic() + LOCK_WAIT_SECONDS
        self.db.execute(f"PRAGMA busy_timeout = {round(LOCK_TRY_SECONDS * 1000)}")
        try:
            while True:
                try:
                    self.db.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as error:
                    # Extended codes (SQLITE_BUSY_RECOVERY, _SNAPSHOT) are busy too.
                    if getattr(error, "sqlite_errorcode", 0) & 0xFF != SQLITE_BUSY or time.monotonic() >= deadline:
                        raise
                if self.stop_check is not None:
                    self.stop_check()
        finally:
            self.db.execute(f"PRAGMA busy_timeout = {round(LOCK_WAIT_SECONDS * 1000)}")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Catalog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ #
    # Writing
    # ------------------------------------------------------------------ #

    def record(
        self,
        result: SolveResult | Mapping[str, Any],
        *,
        solver_version: str | None = None,
        solved_at: str | None = None,
    ) -> bool:
        """Store ``result`` unless the catalog holds a result at least as good.

        One transaction stores the result and removes the deal from ``pending``.
        Returns True if the row was added or replaced. ``result`` is a
        :class:`SolveResult` or its ``to_dict()`` form; a ``solver_version`` key in
        the mapping (set by the worker that solved it) wins over the argument. Its shape
        and figures are checked (:func:`row_values`), not whether its line wins: that is
        :func:`~spider_solver.verify.solve`'s replay, and ``spider-solve check``'s.
        """
        if solver_version is None:
            from spider_solver.version import __version__

            solver_version = __version__
        values = row_values(result, solver_version=solver_version, solved_at=solved_at or utc_now())
        try:
            with self.transaction() as db:
                changed = db.execute(UPSERT, values).rowcount > 0
                db.execute("DELETE FROM pending WHERE code = ?", (values["code"],))
        except sqlite3.Error as error:
            raise _write_failed(f"cannot write {values['code']!r} to catalog {str(self.path)!r}", error) from None
        return changed

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
            raise _write_failed(f"cannot plan a batch in catalog {str(self.path)!r}", error) from None

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
            "SELECT deal FROM results, (SELECT ? AS max_nodes, ? AS max_seconds) AS asked"
            f" WHERE suits = ? AND rule = ? AND deal >= ? AND deal < ? AND {SETTLED}",
            (max_nodes, max_seconds, suits, rule, low, high))}

    # ------------------------------------------------------------------ #
    # Reading
    # ------------------------------------------------------------------ #

    @_reads
    def settled(self, codes: Iterable[str], *, max_nodes: int, max_seconds: float | None) -> set[str]:
        """The codes a batch at this budget has nothing to do for: verified (a line replayed to
        a win; ``improve`` is what looks for a shorter one), unwinnable (a proof), or unknown
        at a budget at least as large (the search is deterministic in nodes)."""
        query = ("SELECT code FROM results, (SELECT ? AS max_nodes, ? AS max_seconds) AS asked"
                 f" WHERE code = ? AND {SETTLED}")
        return {code for code in codes if self.db.execute(query, (max_nodes, max_seconds, code)).fetchone()}

    @_reads
    def get(self, code: str) -> Entry | None:
        row = self.db.execute("SELECT * FROM results WHERE code = ?", (str(GameCode.parse(code)),)).fetchone()
        return None if row is None else Entry.from_row(row)

    @_reads
    def entries(
        self, *, suits: int | None = None, rule: str | None = None, status: str | None = None,
        difficulty: tuple[int, int] | None = None,
    ) -> Iterator[Entry]:
        """Rows of ``results`` ordered by suit count, rule and deal number, optionally filtered
        (``difficulty``: grades from ``low`` to ``high``, both included)."""
        where, args = self._filter(suits, rule, status, difficulty)
        for row in self.db.execute(f"SELECT * FROM results{where} ORDER BY suits, rule, deal", args):
            yield Entry.from_row(row)

    @_reads
    def count(self, *, suits: int | None = None, rule: str | None = None, status: str | None = None,
              difficulty: tuple[int, int] | None = None) -> int:
        where, args = self._filter(suits, rule, status, difficulty)
        return self.db.execute(f"SELECT count(*) FROM results{where}", args).fetchone()[0]

    @_reads
    def page(self, *, suits: int | None = None, rule: str | None = None, status: str | None = None,
             difficulty: tuple[int, int] | None = None, after: str | None = None,
             limit: int = 100) -> tuple[list[Entry], str | None]:
        """One page of :meth:`entries`: at most ``limit`` rows after the game code ``after``
        (in the order of suit count, rule and deal number), and the code to pass as
        ``after`` for the next page (None on the last page)."""
        where, args = self._filter(suits, rule, status, difficulty)
        if after is not None:
            code = GameCode.parse(after)
            where += (" AND " if where else " WHERE ") + "(suits, rule, deal) > (?, ?, ?)"
            args += (code.suits, code.rule, code.number)
        size = whole_number(limit)
        if size is None or not 1 <= size <= MAX_PAGE:
            raise InvalidOptionError(f"invalid limit {quote(limit)}: expected a whole number from 1 to {MAX_PAGE:,}")
        rows = self.db.execute(f"SELECT * FROM results{where} ORDER BY suits, rule, deal LIMIT ?",
                               args + (size + 1,)).fetchall()
        entries = [Entry.from_row(row) for row in rows[:size]]
        return entries, (entries[-1].code if len(rows) > size else None)

    @_reads
    def random_verified(self, *, suits: int | None = None, rule: str | None = None,
                        difficulty: tuple[int, int] | None = None,
                        choose: Callable[[int], int] = random.randrange) -> Entry | None:
        """A verified row drawn uniformly among those that match (``choose(n)`` picks the
        index, from 0 to n - 1), or None if none does."""
        where, args = self._filter(suits, rule, str(Status.VERIFIED), difficulty)
        count = self.db.execute(f"SELECT count(*) FROM results{where}", args).fetchone()[0]
        if count == 0:
            return None
        row = self.db.execute(f"SELECT * FROM results{where} ORDER BY suits, rule, deal LIMIT 1 OFFSET ?",
                              args + (choose(count),)).fetchone()
        return None if row is None else Entry.from_row(row)

    @_reads
    def to_grade(self, *, version: str, suits: int | None = None, rule: str | None = None,
                 regrade: bool = False) -> list[str]:
        """Codes of the verified rows to grade: no grade yet, or one from another grader
        version (``regrade``: every verified row), lowest suit count and deal first."""
        where, args = self._filter(suits, rule, str(Status.VERIFIED), None)
        if not regrade:
            where += " AND (difficulty IS NULL OR grader_version IS NOT ?)"
            args += (version,)
        return [row[0] for row in self.db.execute(f"SELECT code FROM results{where} ORDER BY suits, rule, deal", args)]

    def set_grade(self, code: str, grade: Mapping[str, Any]) -> bool:
        """Store the grade of a verified row (one transaction); status, solution and every
        other column stay as they were. False if the row is not verified (or absent)."""
        values = grade_values(grade, Status.VERIFIED, code)
        try:
            with self.transaction() as db:
                changed = db.execute(
                    "UPDATE results SET difficulty = :difficulty, difficulty_raw = :difficulty_raw,"
                    " grader_version = :grader_version WHERE code = :code AND status = 'verified'",
                    values | {"code": code},
                ).rowcount > 0
        except sqlite3.Error as error:
            raise _write_failed(f"cannot write the grade of {code!r} to catalog {str(self.path)!r}", error) from None
        return changed

    @_reads
    def to_improve(self, *, max_nodes: int, version: str, suits: int | None = None,
                   rule: str | None = None) -> list[str]:
        """Codes of the verified rows an ``improve`` pass of ``max_nodes`` could still change:
        their stored line was never improved, or by another version, or on a smaller node
        budget. Lowest suit count and deal first."""
        where, args = self._filter(suits, rule, str(Status.VERIFIED), None)
        where += " AND (improve_nodes IS NULL OR improve_version IS NOT ? OR improve_nodes < ?)"
        args += (version, max_nodes)
        return [row[0] for row in self.db.execute(f"SELECT code FROM results{where} ORDER BY suits, rule, deal", args)]

    def record_improvement(self, code: str, before: Iterable[str], result: Mapping[str, Any], *,
                           version: str) -> bool:
        """Store what ``improve`` found for the verified line ``before`` of ``code``, in one
        transaction: a shorter line (with its moves, score and par) replaces the stored one
        only if the row still holds ``before`` and the new line is shorter; either way the
        row records the pass (``improve_nodes``: its node budget, or the nodes it spent if it
        stopped early; ``improve_seconds`` adds up; ``improve_version``). Returns True if the
        line was replaced. The grade stays (it belongs to the deal)."""
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
            raise _write_failed(f"cannot write the improved line of {code!r} to catalog {str(self.path)!r}",
                                error) from None
        return replaced

    @_reads
    def pending(self, variant: Variant | None = None) -> list[str]:
        """Codes planned by a batch and not finished, lowest deal first."""
        if variant is None:
            rows = self.db.execute("SELECT code FROM pending ORDER BY suits, rule, deal")
        else:
            rows = self.db.execute(
                "SELECT code FROM pending WHERE suits = ? AND rule = ? ORDER BY deal", (variant.suits, variant.rule)
            )
        return [row[0] for row in rows]

    @staticmethod
    def _filter(suits: int | None, rule: str | None, status: str | None,
                difficulty: tuple[int, int] | None = None) -> tuple[str, tuple]:
        """The WHERE clause of the filters given, each checked as the command line checks
        it (a value that matches nothing by its spelling is refused, not searched for)."""
        clauses: list[str] = []
        args: list[Any] = []
        if suits is not None:
            suits = parse_suits(suits)
        if rule is not None:
            rule = parse_rule(rule)
        if status is not None:
            status = _parse_status(status)
        if difficulty is not None:
            difficulty = _parse_difficulty(difficulty)
        for name, value in (("suits", suits), ("rule", rule), ("status", status)):
            if value is not None:
                clauses.append(f"{name} = ?")
                args.append(value)
        if difficulty is not None:
            clauses.append("difficulty BETWEEN ? AND ?")
            args.extend(difficulty)
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), tuple(args)

    def require_writable(self, why: str) -> None:
        """:class:`CatalogError` now if this catalog cannot be written (its folder or file is
        read-only, or it was opened read-only), for a command that would otherwise find out
        at its first write, after its work: ``why`` says what the command writes."""
        if self.read_only:
            reason = "its folder cannot be written" if self.frozen else "it was opened read-only"
        elif not os.access(self.path, os.W_OK):
            reason = "the file cannot be written"
        else:
            return
        raise CatalogError(f"catalog {str(self.path)!r} cannot be written ({reason}): {why}")

    @_reads
    def readable(self) -> None:
        """Read the first row of ``results``, as every lookup would (a health check, far
        cheaper than :meth:`integrity`): :class:`CatalogError` if that fails."""
        self.db.execute("SELECT code FROM results LIMIT 1").fetchone()

    @_reads
    def integrity(self) -> str:
        """SQLite's ``PRAGMA integrity_check``: ``'ok'`` for a sound file."""
        return self.db.execute("PRAGMA integrity_check").fetchone()[0]


__all__ = [
    "APPLICATION_ID", "BETTER", "Catalog", "DEFAULT_CATALOG", "Entry", "GRADES", "GRADE_COLUMNS", "IMPROVE_COLUMNS",
    "MIGRATIONS", "Plan", "SCHEMA", "SCHEMA_VERSION", "parse_grades",
]
