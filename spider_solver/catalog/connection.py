"""Opening a catalog file, checking what it is, upgrading it, and its transactions.

:class:`Connection` is the part of :class:`~spider_solver.catalog.Catalog` that knows
the file: it refuses anything that is not a catalog (``PRAGMA application_id``) or is of
a newer schema, creates an empty file, upgrades an older one in one transaction (a
read-only folder: a copy in memory), and makes every write one ``BEGIN IMMEDIATE`` ...
``COMMIT`` transaction whose wait for another process's lock a stop can end.

An SQLite error on reading (a damaged file, a vanished disk) is raised as
:class:`~spider_solver.errors.CatalogError` (:func:`reads`), like one on writing
(:func:`write_failed`).
"""

from __future__ import annotations

import functools
import inspect
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ParamSpec, Self, TypeVar

from spider_solver.catalog.migrations import MIGRATIONS
from spider_solver.catalog.schema import APPLICATION_ID, SCHEMA, SCHEMA_VERSION, statements
from spider_solver.errors import CatalogError, CatalogLocked

#: SQLite's primary result codes for a damaged file (https://www.sqlite.org/rescode.html).
SQLITE_BUSY, SQLITE_CORRUPT, SQLITE_NOTADB = 5, 11, 26
#: A write waits at most LOCK_WAIT_SECONDS for another process's lock on the catalog (a
#: batch planning a million deals holds it for seconds), in tries of LOCK_TRY_SECONDS:
#: between two tries a Ctrl-C is seen, and :attr:`Connection.stop_check` is called.
LOCK_WAIT_SECONDS = 30.0
LOCK_TRY_SECONDS = 0.25


P = ParamSpec("P")
T = TypeVar("T")


def write_failed(what: str, error: sqlite3.Error) -> CatalogError:
    """The error of a write that failed (``what`` it was): :class:`CatalogLocked` when another
    process held the catalog's lock past SQLite's wait, which a caller may try again."""
    locked = getattr(error, "sqlite_errorcode", 0) & 0xFF == SQLITE_BUSY
    return (CatalogLocked if locked else CatalogError)(f"{what}: {error}")


def reads(method: Callable[P, T]) -> Callable[P, T]:
    """A reading method of a catalog whose SQLite errors (a damaged file: "database
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


class Connection:
    """An open catalog file, checked, created or upgraded as needed (:class:`~spider_solver.catalog.Catalog`
    says how it is opened)."""

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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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

    @reads
    def readable(self) -> None:
        """Read the first row of ``results``, as every lookup would (a health check, far
        cheaper than :meth:`integrity`): :class:`CatalogError` if that fails."""
        self.db.execute("SELECT code FROM results LIMIT 1").fetchone()

    @reads
    def integrity(self) -> str:
        """SQLite's ``PRAGMA integrity_check``: ``'ok'`` for a sound file."""
        return self.db.execute("PRAGMA integrity_check").fetchone()[0]
