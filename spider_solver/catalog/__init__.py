"""The catalog: an SQLite file that records the best result found for each game code.

One row per game code in table ``results``: a :class:`~spider_solver.record.SolveRecord`
(status, solution, budget, solver version, time, and the deal's grade and ``improve``'s
record of its line); table ``pending`` holds the deals a batch has planned and not yet
finished; table ``games`` the finished games the service recorded. The catalog stores
records; it knows nothing of the solver.

One concern a module:

* :mod:`.schema`: the schema (``schema.sql``, the one copy), its version and columns;
* :mod:`.migrations`: how an older catalog is upgraded;
* :mod:`.connection`: opening and checking the file, transactions, waits for the lock;
* :mod:`.rows`: a record as a row and a row as a record;
* :mod:`.queries`: the replace rule and what "settled" means, in SQL;
* :mod:`.filters`: the filters of queries, as the command line and the service read them;
* :mod:`.reads`, :mod:`.writes`, :mod:`.planning`: what :class:`Catalog` does;
* :mod:`.daily`: the daily deal; :mod:`.games`: the finished games the service records.
"""

from __future__ import annotations

from spider_solver.catalog.connection import LOCK_TRY_SECONDS, LOCK_WAIT_SECONDS
from spider_solver.catalog.filters import Filter, parse_grades
from spider_solver.catalog.games import FinishedGames, StoredGame, deal_key
from spider_solver.catalog.migrations import MIGRATIONS
from spider_solver.catalog.planning import PLAN_CHECK_EVERY, Plan, Planning
from spider_solver.catalog.queries import BETTER
from spider_solver.catalog.reads import Reads
from spider_solver.catalog.schema import APPLICATION_ID, GRADE_COLUMNS, IMPROVE_COLUMNS, SCHEMA, SCHEMA_VERSION
from spider_solver.catalog.writes import Writes
from spider_solver.limits import DEFAULT_CATALOG
from spider_solver.record import GRADES


class Catalog(FinishedGames, Planning, Writes, Reads):
    """An open catalog file. Use as a context manager, or call :meth:`close`.

    ``create=False`` refuses a file that does not exist yet, or is empty (for ``check``
    and ``export``); a batch creates the catalog on first use. A catalog in a folder
    that cannot be written (a read-only disk or mount) is opened read-only whatever is
    asked: SQLite needs the folder for the ``-wal`` and ``-shm`` files of a writer, and
    without them reads the file as it is (``immutable``); writes then fail with a
    :class:`~spider_solver.errors.CatalogError`.
    """


__all__ = [
    "APPLICATION_ID", "BETTER", "Catalog", "DEFAULT_CATALOG", "Filter", "GRADES", "GRADE_COLUMNS",
    "IMPROVE_COLUMNS", "LOCK_TRY_SECONDS", "LOCK_WAIT_SECONDS", "MIGRATIONS", "PLAN_CHECK_EVERY", "Plan", "SCHEMA",
    "SCHEMA_VERSION", "StoredGame", "deal_key", "parse_grades",
]
