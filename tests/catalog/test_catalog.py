"""The catalog: schema, refusal of foreign files, the replace rule, and resume planning.

Results here are constructed SolveRecord objects written straight into the catalog,
so these tests check the catalog's own logic, not the solver's.
"""

import itertools
import os
import re
import sqlite3
from pathlib import Path

import pytest

from spider_solver.catalog import Catalog, Plan, migrations
from spider_solver.catalog.schema import (
    APPLICATION_ID,
    COLUMNS,
    SCHEMA,
    SCHEMA_VERSION,
    V2_COLUMNS,
    V3_COLUMNS,
    statements,
)
from spider_solver.errors import CatalogError, InvalidCodeError
from spider_solver.outcomes import Reason, Status
from spider_solver.record import SolveRecord
from spider_solver.rules import MAX_DEAL, GameCode, Variant

DATA = Path(__file__).resolve().parents[2] / "data"
SCHEMA_FILE = Path(__file__).resolve().parents[2] / "spider_solver" / "catalog" / "schema.sql"
CODE = "SP1-S4C-AAAAAAD"
ONE_SUIT = Variant(suits=1)


def verified(length: int, **budget) -> SolveRecord:
    solution = ("1>2",) * length  # the catalog stores what it is given; `check` is what replays
    return SolveRecord(CODE, "verified", solution, moves=length, score=1300 - length, nodes=1000, seconds=0.5, **budget)


def unknown(**budget) -> SolveRecord:
    return SolveRecord(CODE, "unknown", nodes=budget.get("max_nodes", 100), seconds=1.0, reason="nodes", **budget)


def unwinnable(**budget) -> SolveRecord:
    return SolveRecord(CODE, "unwinnable", nodes=50, seconds=0.1, reason="exhausted", **budget)


@pytest.fixture
def catalog(tmp_path):
    with Catalog(tmp_path / "catalog.sqlite") as db:
        yield db


def stored(db: Catalog) -> tuple:
    entry = db.get(CODE)
    return entry.status, entry.moves, entry.max_nodes, entry.max_seconds


# --------------------------------------------------------------------------- #
# The file
# --------------------------------------------------------------------------- #


def test_new_catalog_is_versioned_wal_and_marked(tmp_path):
    path = tmp_path / "new.sqlite"
    Catalog(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def test_the_schema_file_is_what_a_catalog_holds(tmp_path):
    """schema.sql, the one copy of the schema, creates exactly the tables a catalog has."""
    path = tmp_path / "catalog.sqlite"
    Catalog(path).close()
    documented = sqlite3.connect(":memory:")
    for statement in statements(SCHEMA_FILE.read_text(encoding="utf-8")):
        documented.execute(statement)
    query = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
    assert documented.execute(query).fetchall() == sqlite3.connect(path).execute(query).fetchall()


def test_the_schema_checks_the_outcomes_vocabulary():
    """The CHECK lists of status and reason are exactly Status and Reason, in order."""
    status = re.search(r"CHECK \(status IN \(([^)]*)\)\)", SCHEMA).group(1)
    reason = re.search(r"CHECK \(reason IN \(([^)]*)\)\)", SCHEMA).group(1)
    assert [s.strip(" '") for s in status.split(",")] == [str(s) for s in Status]
    assert [r.strip(" '") for r in reason.split(",")] == [str(r) for r in Reason]


def test_documented_application_id_is_the_catalogs():
    """The header comment gives the id in decimal and hex; a catalog made from the decimal
    one must be a catalog."""
    text = SCHEMA_FILE.read_text(encoding="utf-8")
    decimal, hexadecimal, name = re.search(r"application_id = (\d+) \(0x([0-9A-Fa-f]+), \"(\w+)\"\)", text).groups()
    assert int(decimal) == int(hexadecimal, 16) == APPLICATION_ID
    assert name.encode() == APPLICATION_ID.to_bytes(4, "big")
    assert f"user_version = {SCHEMA_VERSION}" in text


def test_reopening_keeps_the_rows(tmp_path):
    path = tmp_path / "catalog.sqlite"
    with Catalog(path) as db:
        db.record(verified(120))
    with Catalog(path, create=False) as db:
        assert db.count() == 1
        assert db.get(CODE).solution == ("1>2",) * 120


def test_refuses_a_text_file(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("not a database, just some notes\n" * 50)
    with pytest.raises(CatalogError, match="is not a spider-solver catalog"):
        Catalog(path)
    assert path.read_text().startswith("not a database")  # left untouched


@pytest.mark.parametrize("whose, words", [(True, "catalog 'damaged.sqlite' is damaged"),
                                          (False, "SQLite database 'damaged.sqlite' is damaged")])
def test_a_damaged_file_is_called_damaged_not_foreign(damaged_catalog, monkeypatch, whose, words):
    """A catalog cut short or overwritten past its header is a catalog to restore, not
    "not a spider-solver catalog"; its header says whether it was one."""
    monkeypatch.chdir(damaged_catalog.parent)
    data = bytearray(damaged_catalog.read_bytes())
    if not whose:
        data[68:72] = bytes(4)  # another application's database
    data[100:4096] = b"x" * (4096 - 100)  # the schema's page too
    damaged_catalog.write_bytes(bytes(data))
    with pytest.raises(CatalogError, match=re.escape(words) + r" \(.*\): restore it from a copy"):
        Catalog(damaged_catalog.name)


def test_readable_reads_a_row(tmp_path, damaged_catalog):
    """The service's health check: quiet on a sound catalog, empty or not; a catalog whose
    rows cannot be read fails it as its lookups would."""
    with Catalog(tmp_path / "empty.sqlite") as db:
        db.readable()
    with Catalog(damaged_catalog) as db:
        with pytest.raises(CatalogError, match="cannot read catalog"):
            db.readable()
        with pytest.raises(CatalogError, match="cannot read catalog"):
            db.page(limit=1000)


def test_a_locked_catalog_is_not_called_damaged(tmp_path, monkeypatch):
    """Only SQLite's "corrupt" and "not a database" are damage; a lock held past the wait
    is not, and "restore it from a copy" would lose a good catalog."""
    path = tmp_path / "x.sqlite"
    Catalog(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *args, **kwargs: connect(*args, **{**kwargs, "timeout": 0.1}))
    try:
        with pytest.raises(CatalogError, match=r"^cannot open catalog '.*x\.sqlite': database is locked$"):
            Catalog(path)
    finally:
        holder.close()


def test_refuses_another_sqlite_database(tmp_path):
    path = tmp_path / "other.sqlite"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE results (code TEXT)")
    other.commit()
    other.close()
    with pytest.raises(CatalogError, match="SQLite database but not a spider-solver catalog"):
        Catalog(path)


@pytest.mark.parametrize("version, message", [
    (SCHEMA_VERSION + 1, f"schema version {SCHEMA_VERSION + 1}, newer"),
    (0, "has an unknown schema version 0$"),
    (-1, "has an unknown schema version -1$"),
])
def test_refuses_a_newer_or_an_unknown_schema_version(tmp_path, version, message):
    path = tmp_path / "other.sqlite"
    Catalog(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {version}")
    db.commit()
    db.close()
    with pytest.raises(CatalogError, match=message):
        Catalog(path)


def test_refuses_a_directory_and_a_missing_file_when_asked(tmp_path):
    with pytest.raises(CatalogError, match="is a directory"):
        Catalog(tmp_path)
    with pytest.raises(CatalogError, match="no catalog at"):
        Catalog(tmp_path / "missing.sqlite", create=False)
    assert not (tmp_path / "missing.sqlite").exists()
    with pytest.raises(CatalogError, match="does not exist"):
        Catalog(tmp_path / "no" / "such" / "dir.sqlite")


def test_refuses_a_device_or_a_pipe_before_sqlite_writes_beside_it(tmp_path):
    """SQLite would make /dev/null-journal beside /dev/null, then fail."""
    os.mkfifo(tmp_path / "pipe")
    for path in (tmp_path / "pipe", Path(os.devnull)):
        with pytest.raises(CatalogError, match=r"is not a regular file \(a device or a pipe\): name a file"):
            Catalog(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_an_interrupted_transaction_leaves_nothing(catalog):
    with pytest.raises(KeyboardInterrupt), catalog.transaction() as db:
        db.execute("INSERT INTO pending VALUES ('SP1-S1C-AAAAAAA', 1, 'classic', 0, 'now')")
        raise KeyboardInterrupt
    assert catalog.pending() == []
    assert catalog.integrity() == "ok"


# --------------------------------------------------------------------------- #
# Replace only if better
# --------------------------------------------------------------------------- #

BUDGET = {"max_nodes": 1000, "max_seconds": 10.0}
BETTER_PAIRS = [
    # (worse, better): the better one must win in either order.
    (unknown(**BUDGET), verified(150, **BUDGET)),
    (unwinnable(**BUDGET), verified(150, **BUDGET)),
    (unknown(**BUDGET), unwinnable(**BUDGET)),
    (verified(150, **BUDGET), verified(120, **BUDGET)),
    (verified(150, max_nodes=10**9, max_seconds=None), verified(149, max_nodes=10, max_seconds=1.0)),
    (unknown(max_nodes=1000, max_seconds=10.0), unknown(max_nodes=2000, max_seconds=10.0)),
    (unknown(max_nodes=1000, max_seconds=10.0), unknown(max_nodes=1000, max_seconds=20.0)),
    (unknown(max_nodes=1000, max_seconds=10.0), unknown(max_nodes=1000, max_seconds=None)),
    (unknown(max_nodes=10**9, max_seconds=None), verified(200, max_nodes=10, max_seconds=0.5)),
]


@pytest.mark.parametrize("worse, better", BETTER_PAIRS)
def test_better_result_wins_in_either_order(tmp_path, worse, better):
    for number, order in enumerate([(worse, better), (better, worse)]):
        with Catalog(tmp_path / f"{number}.sqlite") as db:
            changes = [db.record(result) for result in order]
            entry = db.get(CODE)
            assert (entry.status, entry.moves, entry.max_nodes, entry.max_seconds) == (
                better.status, better.moves, better.max_nodes, better.max_seconds
            )
            # The first write always stores; the second only if it is the better one.
            assert changes == [True, order[1] is better]


@pytest.mark.parametrize("first, second", [
    (verified(120, **BUDGET), verified(120, max_nodes=5000, max_seconds=50.0)),  # same length: keep
    (unwinnable(**BUDGET), unwinnable(max_nodes=9000, max_seconds=None)),
    (unknown(**BUDGET), unknown(**BUDGET)),
    # More nodes but fewer seconds: neither budget is larger, keep what is there.
    (unknown(max_nodes=1000, max_seconds=10.0), unknown(max_nodes=5000, max_seconds=5.0)),
])
def test_ties_and_incomparable_budgets_keep_the_stored_row(catalog, first, second):
    assert catalog.record(first, solved_at="2026-01-01T00:00:00Z")
    assert not catalog.record(second, solved_at="2026-02-02T00:00:00Z")
    entry = catalog.get(CODE)
    assert (entry.max_nodes, entry.max_seconds, entry.solved_at) == (
        first.max_nodes, first.max_seconds, "2026-01-01T00:00:00Z"
    )


def test_the_best_of_many_results_survives_any_order(catalog):
    results = [unknown(max_nodes=10, max_seconds=1.0), unknown(max_nodes=100, max_seconds=1.0),
               verified(140, **BUDGET), verified(130, **BUDGET), unwinnable(**BUDGET)]
    for order in itertools.permutations(results):
        with catalog.transaction() as db:
            db.execute("DELETE FROM results")
        for result in order:
            catalog.record(result)
        assert stored(catalog) == ("verified", 130, 1000, 10.0)


def test_record_keeps_only_verified_solutions_and_checks_input(catalog):
    catalog.record(SolveRecord(CODE, "unknown", solution=("1>2",), moves=1, score=5, max_nodes=5, reason="nodes"))
    assert catalog.get(CODE).solution == () and catalog.get(CODE).moves is None
    with pytest.raises(CatalogError, match="invalid status"):
        catalog.record({"code": CODE, "status": "solved", "max_nodes": 5})
    with pytest.raises(CatalogError, match="no solution"):
        catalog.record({"code": CODE, "status": "verified", "solution": [], "max_nodes": 5})
    # A 'line' that is no line in notation never replaces the stored one (a shorter line would).
    stored = verified(3, **BUDGET)
    catalog.record(stored)
    with pytest.raises(CatalogError, match=r"invalid action 1 in the line of 'SP1-S4C-AAAAAAD'"):
        catalog.record(stored.to_dict() | {"solution": [1, 2], "moves": 2})
    assert catalog.get(CODE).solution == stored.solution
    for wrong in (None, "SP1-S4C-AAAAAAD", [stored.to_dict()]):
        with pytest.raises(CatalogError, match=r"a result to record is a SolveRecord or its plain-data form, not "):
            catalog.record(wrong)
    assert catalog.count() == 1


def test_record_stores_the_worker_version_and_canonical_code(catalog):
    data = verified(3, **BUDGET).to_dict() | {"code": " sp1-s4r-aaaaaad ", "solver_version": "9.9.9"}
    catalog.record(data)
    entry = catalog.get("SP1-S4R-AAAAAAD")
    assert (entry.code, entry.suits, entry.rule, entry.deal, entry.solver_version) == (
        "SP1-S4R-AAAAAAD", 4, "relaxed", 3, "9.9.9"
    )
    assert entry.solution == ("1>2", "1>2", "1>2")


def test_a_verified_result_without_a_score_is_refused_in_words(catalog):
    with pytest.raises(CatalogError, match=r"verified result for 'SP1-S4C-AAAAAAD' has no solution or no score"):
        catalog.record({"code": CODE, "status": "verified", "solution": ["D"], "max_nodes": 5})
    assert catalog.count() == 0


def test_a_mapping_keeps_its_own_solved_at(catalog):
    catalog.record(verified(3).to_dict() | {"solved_at": "2025-06-01T08:00:00Z"}, solved_at="2026-01-01T00:00:00Z")
    assert catalog.get(CODE).solved_at == "2025-06-01T08:00:00Z"


# --------------------------------------------------------------------------- #
# Planning and resume
# --------------------------------------------------------------------------- #


def plan(db: Catalog, count: int, variant: Variant = ONE_SUIT, **options):
    options = {"max_nodes": 1000, "max_seconds": 10.0} | options
    return db.plan(variant, count, **options)


def finish(db: Catalog, codes, **budget) -> None:
    for code in codes:
        db.record(SolveRecord(code, "unknown", max_nodes=budget.get("max_nodes", 1000),
                              max_seconds=budget.get("max_seconds", 10.0), reason="nodes"))


def test_runs_continue_after_the_deals_already_settled(catalog):
    first = plan(catalog, 3)
    assert first.codes == ("SP1-S1C-AAAAAAA", "SP1-S1C-AAAAAAB", "SP1-S1C-AAAAAAC")
    assert catalog.pending(ONE_SUIT) == list(first.codes)
    finish(catalog, first.codes)
    assert catalog.pending() == []
    second = plan(catalog, 2)
    assert [c[-1] for c in second.codes] == ["D", "E"] and second.resumed == 0


def test_a_run_takes_over_the_pending_deals_of_a_killed_run(catalog):
    killed = plan(catalog, 6)
    finish(catalog, [killed.codes[0], killed.codes[2], killed.codes[5]])  # results came back out of order
    rerun = plan(catalog, 4)
    assert rerun.resumed == 3
    assert rerun.codes == (killed.codes[1], killed.codes[3], killed.codes[4], "SP1-S1C-AAAAAAG")
    finish(catalog, rerun.codes)
    deals = [entry.deal for entry in catalog.entries()]
    assert deals == list(range(7)) and catalog.pending() == []


def test_a_default_run_plans_no_pending_deal_twice(catalog):
    """Pending deals of a killed run with an explicit start lie ahead of the lowest free
    deal: the run resumes them and walks past them, not into them."""
    killed = plan(catalog, 3, start=5)
    rerun = plan(catalog, 10)
    assert rerun.resumed == 3 and len(set(rerun.codes)) == 10
    assert [GameCode.parse(c).number for c in rerun.codes] == [5, 6, 7, 0, 1, 2, 3, 4, 8, 9]
    assert rerun.codes[:3] == killed.codes


def test_more_pending_than_count_takes_the_lowest(catalog):
    plan(catalog, 5)
    rerun = plan(catalog, 2)
    assert (rerun.resumed, [c[-1] for c in rerun.codes]) == (2, ["A", "B"])
    assert len(catalog.pending()) == 5  # the other three wait for the next run


def test_variants_are_planned_independently(catalog):
    plan(catalog, 4)
    two = plan(catalog, 2, Variant(suits=2))
    relaxed = plan(catalog, 2, Variant(suits=2, rule="relaxed"))
    assert two.codes == ("SP1-S2C-AAAAAAA", "SP1-S2C-AAAAAAB") and two.resumed == 0
    assert relaxed.codes == ("SP1-S2R-AAAAAAA", "SP1-S2R-AAAAAAB")


def test_explicit_start_skips_settled_deals(catalog):
    catalog.record(SolveRecord("SP1-S1C-AAAAAKA", "unknown", max_nodes=1000, max_seconds=10.0, reason="nodes"))   # 320
    catalog.record(SolveRecord("SP1-S1C-AAAAAKB", "unknown", max_nodes=100, max_seconds=10.0, reason="nodes"))    # 321, smaller
    catalog.record(SolveRecord("SP1-S1C-AAAAAKC", "unwinnable", max_nodes=10, max_seconds=1.0))   # 322, a proof
    catalog.record(SolveRecord("SP1-S1C-AAAAAKD", "verified", ("D",), moves=1, score=1, max_nodes=1000,
                               max_seconds=None))                                                    # 323
    result = plan(catalog, 5, start=320)
    assert result.skipped == 3 and result.resumed == 0
    assert result.codes == ("SP1-S1C-AAAAAKB", "SP1-S1C-AAAAAKE")
    # A larger budget than any stored one solves the unknown deals again, not the verified one or the proof.
    bigger = plan(catalog, 5, start=320, max_nodes=10**6, max_seconds=None)
    assert bigger.skipped == 2 and len(bigger.codes) == 3


def test_a_default_run_takes_the_lowest_deals_not_settled(catalog):
    finish(catalog, plan(catalog, 3).codes)                      # 0-2, by a batch
    finish(catalog, plan(catalog, 2, start=100).codes)           # 100-101, by an explicit start
    # Single deals stored far ahead (by verify or the service) neither stop a batch at the
    # last deal number nor make it skip the deals before them.
    catalog.record(SolveRecord(str(GameCode(1, "classic", MAX_DEAL)), "unknown", max_nodes=1, max_seconds=None,
                               reason="nodes"))
    assert [GameCode.parse(c).number for c in plan(catalog, 2).codes] == [3, 4]
    finish(catalog, catalog.pending())
    # Walking on, a deal settled at this budget is skipped, one stored at a smaller budget is not.
    catalog.record(SolveRecord(str(GameCode(1, "classic", 6)), "unwinnable", max_nodes=10, max_seconds=1.0))
    catalog.record(SolveRecord(str(GameCode(1, "classic", 7)), "unknown", max_nodes=10, max_seconds=1.0,
                               reason="nodes"))
    walked = plan(catalog, 3)
    assert [GameCode.parse(c).number for c in walked.codes] == [5, 7, 8] and walked.skipped == 1


def test_deals_stored_out_of_order_unsettled_are_taken_in_their_turn(catalog):
    """Deals 3 and 4, stored unknown at a smaller budget (by the service, or ``--start``),
    are solved by the run that reaches them, not passed by for good once 0-2 are done."""
    for number in (3, 4):
        catalog.record(SolveRecord(str(GameCode(1, "classic", number)), "unknown", max_nodes=10, max_seconds=10.0,
                                   reason="nodes"))
    finish(catalog, plan(catalog, 3).codes)
    assert [GameCode.parse(c).number for c in plan(catalog, 2).codes] == [3, 4]
    finish(catalog, catalog.pending())
    # Unknown at this budget now: settled, so the next run goes on from 5; a larger budget
    # takes them again first.
    assert [GameCode.parse(c).number for c in plan(catalog, 1).codes] == [5]
    finish(catalog, catalog.pending())
    retried = plan(catalog, 7, max_nodes=10**6)
    assert [GameCode.parse(c).number for c in retried.codes] == list(range(7)) and retried.skipped == 0


def test_plan_refuses_to_run_past_the_last_deal(catalog):
    with pytest.raises(CatalogError, match="last deal number"):
        plan(catalog, 3, start=2**35 - 2)
    assert catalog.pending() == []


def test_a_plan_of_no_deals_is_empty_and_a_negative_count_is_refused(catalog):
    assert plan(catalog, 0) == plan(catalog, 0, start=5) == Plan(codes=(), resumed=0, skipped=0)
    assert catalog.pending() == []
    with pytest.raises(ValueError, match="invalid count -1"):
        plan(catalog, -1)


def test_an_explicit_start_may_plan_the_last_deal(catalog):
    last = str(GameCode(1, "classic", MAX_DEAL))
    assert plan(catalog, 1, start=MAX_DEAL).codes == (last,)
    assert plan(catalog, 3, start=MAX_DEAL - 2).codes[-1] == last
    with pytest.raises(CatalogError, match="last deal number"):
        plan(catalog, 2, start=MAX_DEAL)


# --------------------------------------------------------------------------- #
# Typed outcomes and schema migrations
# --------------------------------------------------------------------------- #

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def old_catalog(path: Path, version: int) -> list[tuple]:
    """A catalog as an earlier release wrote it (schema ``version``: 1 is spider-solver 0.1.0's,
    from fixtures/catalog-vN.sql); returns its rows."""
    db = sqlite3.connect(path)
    db.executescript((FIXTURES / f"catalog-v{version}.sql").read_text(encoding="utf-8"))
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {version}")
    db.commit()
    rows = db.execute("SELECT * FROM results ORDER BY code").fetchall()
    db.close()
    return rows



def test_a_version_1_catalog_is_upgraded_in_place_losing_nothing(tmp_path):
    path = tmp_path / "old.sqlite"
    before = old_catalog(path, 1)
    with Catalog(path, create=False) as db:
        assert db.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
        after = [tuple(row)[: len(V2_COLUMNS)] for row in db.db.execute("SELECT * FROM results ORDER BY code")]
        assert all(entry.difficulty is None and entry.grader_version is None for entry in db.entries())
        assert db.pending() == ["SP1-S4C-AAAAAAE"] and db.integrity() == "ok"
        statuses = {entry.status for entry in db.entries()}
    assert statuses == set(Status)
    reason = COLUMNS.index("reason")
    # Every column of every row is kept; only reasons that version 2 does not know change.
    assert [row[:reason] + row[reason + 1:] for row in after] == [row[:reason] + row[reason + 1:] for row in before]
    assert {row[0]: row[reason] for row in after} == {
        "SP1-S1C-AAAAAAA": "exhausted", "SP1-S2R-AAAAAAA": "rejected", "SP1-S2R-AAAAAAB": "widths",
        "SP1-S4C-AAAAAAA": "won", "SP1-S4C-AAAAAAB": "nodes", "SP1-S4C-AAAAAAC": "seconds",
        "SP1-S4C-AAAAAAD": "widths",
    }
    # The upgraded file is exactly a catalog of the current version.
    Catalog(tmp_path / "new.sqlite").close()
    query = "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY name"
    assert sqlite3.connect(path).execute(query).fetchall() == sqlite3.connect(tmp_path / "new.sqlite").execute(
        query).fetchall()


def test_a_version_1_catalog_in_a_read_only_folder_is_read_upgraded_and_left_as_it_was(tmp_path, monkeypatch):
    """A catalog of an older schema on a read-only mount: the file cannot be upgraded
    there, so an upgraded copy in memory is read; writes are refused. (Opened read-only in
    a folder that can be written, ``serve --read-only``, it is refused with the advice to
    upgrade it: a long-lived reader of a copy would miss the writes that follow.)"""
    import spider_solver.catalog.connection as catalog_module

    path = tmp_path / "old.sqlite"
    old_catalog(path, 1)
    before = path.read_bytes()
    with pytest.raises(CatalogError, match=r"older than this spider-solver's \(5\): open it once for writing"):
        Catalog(path, create=False, read_only=True)
    real_access = os.access
    monkeypatch.setattr(catalog_module.os, "access",  # a read-only mount, even to root
                        lambda where, mode: False if mode == os.W_OK else real_access(where, mode))
    with Catalog(path, create=False) as db:
        assert db.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.pending() == ["SP1-S4C-AAAAAAE"] and db.count(status="verified") == 1
        assert {entry.status for entry in db.entries()} == set(Status)
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            db.db.execute("DELETE FROM results")
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["old.sqlite"]
    monkeypatch.setattr(catalog_module.os, "access", real_access)
    with Catalog(path, create=False) as db:  # opened for writing, it is upgraded in place as before
        assert db.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert path.read_bytes() != before


def test_a_failed_upgrade_leaves_the_file_as_it_was(tmp_path, monkeypatch):

    path = tmp_path / "old.sqlite"
    before = old_catalog(path, 1)
    broken = migrations.MIGRATE_1_TO_2[:-1] + ("DROP TABLE no_such_table",)
    monkeypatch.setitem(migrations.MIGRATIONS, 1, broken)
    with pytest.raises(CatalogError, match="cannot upgrade catalog .* from schema version 1 to 5"):
        Catalog(path, create=False)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    assert db.execute("SELECT * FROM results ORDER BY code").fetchall() == before


@pytest.mark.parametrize("status, reason", [
    ("verified", "nodes"), ("unwinnable", "won"), ("unknown", "won"), ("unknown", "exhausted"), ("unknown", "cut"),
])
def test_the_schema_refuses_a_reason_that_does_not_fit_the_status(tmp_path, status, reason):
    with Catalog(tmp_path / "c.sqlite") as db:
        with pytest.raises(CatalogError, match=f"invalid reason '{reason}' for a {status} result"):
            db.record({"code": CODE, "status": status, "solution": ["D"], "score": 1, "max_nodes": 1,
                       "reason": reason})
        # The CHECK constraints refuse it even past record()'s own check.
        values = dict.fromkeys(COLUMNS) | {
            "code": CODE, "suits": 4, "rule": "classic", "deal": 3, "status": status, "solution": "D", "moves": 1,
            "score": 1, "nodes": 1, "seconds": 0.0, "max_nodes": 1, "reason": reason, "solver_version": "x",
            "solved_at": "now"}
        with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
            db.db.execute(f"INSERT INTO results ({', '.join(values)}) VALUES ({', '.join('?' * len(values))})",
                          tuple(values.values()))


def test_the_schema_lists_every_status_and_reason():
    assert f"status IN ({', '.join(repr(str(s)) for s in Status)})" in SCHEMA
    assert f"reason IN ({', '.join(repr(str(r)) for r in Reason)})" in SCHEMA



def test_a_version_2_catalog_is_upgraded_in_place_losing_nothing(tmp_path):
    path = tmp_path / "v2.sqlite"
    before = old_catalog(path, 2)
    assert {row[V2_COLUMNS.index("reason")] for row in before} == {str(r) for r in Reason}
    with Catalog(path, create=False) as db:
        assert db.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
        after = [tuple(row) for row in db.db.execute("SELECT * FROM results ORDER BY code")]
        assert db.pending() == ["SP1-S4C-AAAAAAE"] and db.integrity() == "ok"
        assert {entry.status for entry in db.entries()} == set(Status)
    # Every column of every row is kept, and no row has a grade yet.
    assert [row[: len(V2_COLUMNS)] for row in after] == before
    assert all(row[len(V2_COLUMNS):len(V3_COLUMNS)] == (None, None, None) for row in after)
    Catalog(tmp_path / "new.sqlite").close()
    query = "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY name"
    assert sqlite3.connect(path).execute(query).fetchall() == sqlite3.connect(tmp_path / "new.sqlite").execute(
        query).fetchall()


def test_a_failed_upgrade_from_version_2_leaves_the_file_as_it_was(tmp_path, monkeypatch):

    path = tmp_path / "v2.sqlite"
    before = old_catalog(path, 2)
    broken = migrations.MIGRATE_2_TO_3[:-1] + ("DROP TABLE no_such_table",)
    monkeypatch.setitem(migrations.MIGRATIONS, 2, broken)
    with pytest.raises(CatalogError, match="cannot upgrade catalog .* from schema version 2 to 5"):
        Catalog(path, create=False)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    assert db.execute("SELECT * FROM results ORDER BY code").fetchall() == before


GRADE = {"difficulty": 4, "difficulty_raw": 88.5, "grader_version": "fair-1"}


def test_a_grade_goes_only_on_a_verified_row(tmp_path):
    with Catalog(tmp_path / "c.sqlite") as db:
        assert db.record(verified(120).to_dict() | GRADE)
        assert db.get(CODE).difficulty == 4 and db.get(CODE).difficulty_raw == 88.5
        other = "SP1-S4C-AAAAAAE"
        with pytest.raises(CatalogError, match="only verified deals are graded"):
            db.record({"code": other, "status": "unknown", "reason": "nodes", "max_nodes": 1} | GRADE)
        db.record({"code": other, "status": "unknown", "reason": "nodes", "max_nodes": 1})
        assert not db.set_grade(other, GRADE)
        assert db.get(other).difficulty is None
        with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
            db.db.execute("UPDATE results SET difficulty = 2, difficulty_raw = 1, grader_version = 'x'"
                          " WHERE code = ?", (other,))
        for bad in (0, 6, "3", True):
            with pytest.raises(CatalogError, match="invalid difficulty"):
                db.set_grade(CODE, GRADE | {"difficulty": bad})
        with pytest.raises(CatalogError, match="together"):
            db.set_grade(CODE, {"difficulty": 2})
        # The code is read as get() reads it: any spelling of the code, and a bad one refused.
        assert db.set_grade(" " + CODE.lower(), GRADE | {"difficulty": 3}) and db.get(CODE).difficulty == 3
        with pytest.raises(InvalidCodeError, match="invalid game code 'nope'"):
            db.set_grade("nope", GRADE)


def test_a_shorter_line_keeps_the_grade_and_regrading_keeps_the_line(tmp_path):
    with Catalog(tmp_path / "c.sqlite") as db:
        db.record(verified(120).to_dict() | GRADE)
        assert db.record(verified(100))  # better line, no grade of its own: the deal keeps its grade
        entry = db.get(CODE)
        assert entry.moves == 100 and entry.difficulty == 4 and entry.grader_version == "fair-1"
        assert db.set_grade(CODE, {"difficulty": 2, "difficulty_raw": 50.0, "grader_version": "fair-2"})
        again = db.get(CODE)
        assert again.solution == entry.solution and again.status == entry.status and again.difficulty == 2
        assert db.to_grade(version="fair-2") == [] and db.to_grade(version="fair-3") == [CODE]
        assert db.to_grade(version="fair-2", regrade=True) == [CODE]
        assert [e.code for e in db.entries(difficulty=(2, 2))] == [CODE] and db.count(difficulty=(3, 5)) == 0


@pytest.mark.parametrize("raw", [-0.5, 100.5])
def test_a_difficulty_raw_out_of_range_is_refused_in_words(catalog, raw):
    catalog.record(verified(120))
    with pytest.raises(CatalogError, match=rf"invalid difficulty_raw {raw!r} for 'SP1-S4C-AAAAAAD': expected 0 to 100"):
        catalog.set_grade(CODE, GRADE | {"difficulty_raw": raw})
    assert catalog.get(CODE).difficulty is None



def test_a_version_3_catalog_is_upgraded_in_place_losing_nothing(tmp_path):
    path = tmp_path / "v3.sqlite"
    before = old_catalog(path, 3)
    assert {row[V2_COLUMNS.index("reason")] for row in before} == {str(r) for r in Reason}
    assert any(row[V3_COLUMNS.index("difficulty")] is not None for row in before)
    with Catalog(path, create=False) as db:
        assert db.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
        after = [tuple(row) for row in db.db.execute("SELECT * FROM results ORDER BY code")]
        assert db.pending() == ["SP1-S4C-AAAAAAE"] and db.integrity() == "ok"
        entries = list(db.entries())
    # Every column of every row is kept; par is the stored line's score; nothing is improved yet.
    assert [row[: len(V3_COLUMNS)] for row in after] == before
    assert {e.code: e.par for e in entries if e.par is not None} == {
        e.code: e.score for e in entries if e.status is Status.VERIFIED} == {
        "SP1-S4C-AAAAAAA": 1297, "SP1-S4R-AAAAAAA": 1198}
    assert all(e.improve_nodes is None and e.improve_version is None for e in entries)
    Catalog(tmp_path / "new.sqlite").close()
    query = "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY name"
    assert sqlite3.connect(path).execute(query).fetchall() == sqlite3.connect(tmp_path / "new.sqlite").execute(
        query).fetchall()


def test_a_failed_upgrade_from_version_3_leaves_the_file_as_it_was(tmp_path, monkeypatch):

    path = tmp_path / "v3.sqlite"
    before = old_catalog(path, 3)
    broken = migrations.MIGRATE_3_TO_4[:-1] + ("DROP TABLE no_such_table",)
    monkeypatch.setitem(migrations.MIGRATIONS, 3, broken)
    with pytest.raises(CatalogError, match="cannot upgrade catalog .* from schema version 3 to 5"):
        Catalog(path, create=False)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 3
    assert db.execute("SELECT * FROM results ORDER BY code").fetchall() == before


def test_a_version_4_catalog_is_upgraded_in_place_losing_nothing_and_gains_an_empty_games_table(tmp_path):
    path = tmp_path / "v4.sqlite"
    before = old_catalog(path, 4)
    assert any(row[COLUMNS.index("improve_nodes")] is not None for row in before)
    with Catalog(path, create=False) as db:
        assert db.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
        assert [tuple(row) for row in db.db.execute("SELECT * FROM results ORDER BY code")] == before
        assert db.pending() == ["SP1-S4C-AAAAAAE"] and db.integrity() == "ok"
        assert db.best_games("SP1-S4C-AAAAAAA") == ([], 0)
    Catalog(tmp_path / "new.sqlite").close()
    query = "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY name"
    assert sqlite3.connect(path).execute(query).fetchall() == sqlite3.connect(tmp_path / "new.sqlite").execute(
        query).fetchall()


def improvement(length: int, *, nodes: int = 1000, stopped: str = "") -> dict:
    return {"solution": ["1>2"] * length, "moves": length, "score": 1300 - length, "nodes": nodes,
            "max_nodes": 1000, "seconds": 2.0, "stopped": stopped}


def test_record_improvement_reads_the_code_as_get_does(tmp_path):
    with Catalog(tmp_path / "c.sqlite") as db:
        db.record(verified(120).to_dict())
        assert db.record_improvement(" " + CODE.lower(), ("1>2",) * 120, improvement(100), version="v")
        assert db.get(CODE).moves == 100
        with pytest.raises(InvalidCodeError, match="invalid game code 'nope'"):
            db.record_improvement("nope", ("1>2",) * 100, improvement(90), version="v")


def test_par_follows_the_shortest_line_and_improve_records_its_budget(tmp_path):
    with Catalog(tmp_path / "c.sqlite") as db:
        db.record(verified(120).to_dict() | GRADE)
        assert db.get(CODE).par == 1180
        assert db.to_improve(max_nodes=1000, version="v") == [CODE]
        # Nothing shorter: the line stays, the pass is recorded, a rerun at this budget skips it.
        assert not db.record_improvement(CODE, ("1>2",) * 120, improvement(120), version="v")
        entry = db.get(CODE)
        assert (entry.moves, entry.par, entry.improve_nodes, entry.improve_version) == (120, 1180, 1000, "v")
        assert db.to_improve(max_nodes=1000, version="v") == db.to_improve(max_nodes=999, version="v") == []
        assert db.to_improve(max_nodes=1001, version="v") == db.to_improve(max_nodes=10, version="w") == [CODE]
        # A shorter line replaces it (the grade stays), with its par; a longer one never does.
        assert db.record_improvement(CODE, ("1>2",) * 120, improvement(100), version="v")
        entry = db.get(CODE)
        assert (entry.moves, entry.score, entry.par, entry.difficulty, entry.improve_seconds) == (100, 1200, 1200, 4, 4.0)
        assert not db.record_improvement(CODE, ("1>2",) * 100, improvement(110), version="v")
        assert db.get(CODE).moves == 100
        # A result for a line no longer stored changes nothing.
        assert not db.record_improvement(CODE, ("1>2",) * 120, improvement(90), version="v")
        assert db.get(CODE).moves == 100
        # A pass cut short records the nodes it spent, so a rerun at the full budget goes on.
        db.record_improvement(CODE, ("1>2",) * 100, improvement(100, nodes=400, stopped="seconds"), version="v")
        assert db.get(CODE).improve_nodes == 400 and db.to_improve(max_nodes=1000, version="v") == [CODE]
        # A new, shorter line from a batch comes without an improve record.
        assert db.record(verified(80))
        entry = db.get(CODE)
        assert (entry.par, entry.improve_nodes, entry.improve_seconds, entry.difficulty) == (1220, None, None, 4)


def test_an_improve_pass_on_a_line_no_longer_stored_records_nothing(catalog):
    """A batch stored a shorter line while improve worked on the old one: the new line has
    had no pass, so the next improve must still take it up."""
    catalog.record(verified(120))
    assert catalog.record(verified(100))
    assert not catalog.record_improvement(CODE, ("1>2",) * 120, improvement(110), version="v")
    entry = catalog.get(CODE)
    assert (entry.moves, entry.improve_nodes, entry.improve_seconds, entry.improve_version) == (100, None, None, None)
    assert catalog.to_improve(max_nodes=1000, version="v") == [CODE]


# --------------------------------------------------------------------------- #
# Damaged, empty and read-only files
# --------------------------------------------------------------------------- #


def test_a_damaged_file_fails_with_a_catalog_error_not_an_sqlite_one(damaged_catalog):
    with Catalog(damaged_catalog, create=False) as db, pytest.raises(CatalogError, match="cannot read catalog"):
        list(db.entries())
    with Catalog(damaged_catalog, read_only=True) as db, pytest.raises(CatalogError, match="malformed"):
        db.page(limit=1000)


def test_an_empty_file_is_not_made_a_catalog_by_a_reader(tmp_path):
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    with pytest.raises(CatalogError, match="is empty, not a spider-solver catalog"):
        Catalog(empty, create=False)
    assert empty.stat().st_size == 0
    Catalog(empty).close()  # a batch makes it one
    assert Catalog(empty, create=False).count() == 0


def test_a_catalog_in_a_folder_that_cannot_be_written_is_read_as_it_is(catalog, monkeypatch):
    catalog.record(SolveRecord("SP1-S1C-AAAAAAB", "unknown", max_nodes=5, max_seconds=None, reason="nodes"))
    folder = catalog.path.resolve().parent
    catalog.close()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: False if Path(path) == folder and mode == os.W_OK
                        else real_access(path, mode))
    with Catalog(catalog.path, create=False) as db:  # e.g. export on a read-only mount
        assert db.read_only and [entry.code for entry in db.entries()] == ["SP1-S1C-AAAAAAB"]
        with pytest.raises(CatalogError, match="cannot write"):
            db.record(SolveRecord("SP1-S1C-AAAAAAC", "unknown", max_nodes=5, max_seconds=None, reason="nodes"))


def test_require_writable_says_why_a_catalog_cannot_be_written(catalog, monkeypatch):
    catalog.require_writable("test")  # a writable one: nothing to say
    path = catalog.path
    folder = path.resolve().parent
    catalog.close()
    real_access = os.access

    def why(*, unwritable: Path | None = None, read_only: bool = False) -> str:
        if unwritable is not None:
            monkeypatch.setattr(os, "access", lambda where, mode: False if Path(where) == unwritable and
                                mode == os.W_OK else real_access(where, mode))
        with Catalog(path, create=False, read_only=read_only) as db, pytest.raises(CatalogError) as refused:
            db.require_writable("grade writes")
        return str(refused.value)

    assert why(read_only=True).endswith("cannot be written (it was opened read-only): grade writes")
    assert "(the file cannot be written)" in why(unwritable=path)
    assert "(its folder cannot be written)" in why(unwritable=folder)


def test_entries_come_by_suit_count_then_rule_then_deal(catalog):
    for code in ("SP1-S2R-AAAAAAA", "SP1-S2C-AAAAAAB", "SP1-S1C-AAAAAAC", "SP1-S2C-AAAAAAA"):
        catalog.record(SolveRecord(code, "unknown", max_nodes=5, max_seconds=None, reason="nodes"))
    order = ["SP1-S1C-AAAAAAC", "SP1-S2C-AAAAAAA", "SP1-S2C-AAAAAAB", "SP1-S2R-AAAAAAA"]
    assert [entry.code for entry in catalog.entries()] == order
    assert [entry.code for entry in catalog.page(limit=10)[0]] == order


def test_a_page_names_the_next_page_only_if_rows_are_left(catalog):
    codes = ["SP1-S1C-AAAAAAA", "SP1-S1C-AAAAAAB"]
    for code in codes:
        catalog.record(SolveRecord(code, "unknown", max_nodes=5, max_seconds=None, reason="nodes"))
    first, after = catalog.page(limit=1)
    assert [entry.code for entry in first] == codes[:1] and after == codes[0]
    rest, after = catalog.page(after=after, limit=1)
    assert [entry.code for entry in rest] == codes[1:] and after is None  # the last page, though full
    whole, after = catalog.page(limit=2)
    assert [entry.code for entry in whole] == codes and after is None


def test_a_wait_for_another_process_lock_ends_at_a_stop_within_a_try(tmp_path):
    """SQLite's busy wait sleeps in C, where no signal handler runs: the wait is made of
    short tries, and stop_check (a batch's stop request) is asked between them."""
    import time

    from spider_solver.catalog import LOCK_TRY_SECONDS

    path = tmp_path / "c.sqlite"
    Catalog(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    asked: list[float] = []
    try:
        with Catalog(path) as db:
            started = time.monotonic()

            def stop_check() -> None:
                asked.append(time.monotonic() - started)
                if len(asked) == 3:
                    raise KeyboardInterrupt

            db.stop_check = stop_check
            with pytest.raises(KeyboardInterrupt):
                db.record(verified(10))
            assert len(asked) == 3 and asked[-1] < 6 * LOCK_TRY_SECONDS
            assert db.db.execute("PRAGMA busy_timeout").fetchone()[0] == 30_000  # restored for reads
    finally:
        holder.execute("ROLLBACK")
    with Catalog(path) as db:
        assert db.get(CODE) is None
        checks: list[int] = []
        db.stop_check = lambda: checks.append(1)
        assert db.record(verified(10)) and checks == []  # no lock held: no wait, no check


def test_a_long_plan_rolls_back_at_a_stop(catalog):
    from spider_solver.catalog import PLAN_CHECK_EVERY

    calls = []

    def stop_check() -> None:
        calls.append(1)
        raise KeyboardInterrupt

    catalog.stop_check = stop_check
    with pytest.raises(KeyboardInterrupt):
        catalog.plan(ONE_SUIT, 2 * PLAN_CHECK_EVERY + 5, max_nodes=1000, max_seconds=None)
    assert calls == [1] and catalog.pending() == []
    catalog.stop_check = None
    assert len(catalog.plan(ONE_SUIT, 2 * PLAN_CHECK_EVERY + 5, max_nodes=1000, max_seconds=None).codes) == 20_005


def test_an_upgrade_another_process_made_first_is_not_made_again(tmp_path, monkeypatch):
    """Two processes open a version-3 catalog at once: both read version 3, one upgrades
    it and writes, then the other's transaction begins. Running the steps again would
    copy the rows anew and drop what was written in between (seen: 5 times in 6)."""
    path = tmp_path / "v3.sqlite"
    old_catalog(path, 3)
    migrate = Catalog._migrate

    def another_process_first(self, shown, version):
        monkeypatch.setattr(Catalog, "_migrate", migrate)
        with Catalog(path, create=False) as other:  # upgrades the file, then writes to it
            other.db.execute("UPDATE results SET improve_nodes = 12345, improve_seconds = 1.0, improve_version = 'x'"
                             " WHERE code = 'SP1-S4C-AAAAAAA'")
        return migrate(self, shown, version)  # this one read version 3 before that

    monkeypatch.setattr(Catalog, "_migrate", another_process_first)
    with Catalog(path, create=False) as db:
        assert db.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.db.execute("SELECT improve_nodes FROM results WHERE code = 'SP1-S4C-AAAAAAA'").fetchone()[0] == 12345


def test_a_catalog_another_process_created_first_is_opened_not_created_again(tmp_path, monkeypatch):
    """Two processes start on a new file at once: both see it empty; the second to get the
    write lock used to fail with 'table results already exists'."""
    path = tmp_path / "new.sqlite"
    create = Catalog._create

    def another_process_first(self, shown):
        monkeypatch.setattr(Catalog, "_create", create)
        with Catalog(path) as other:
            other.record(verified(10))
        return create(self, shown)

    monkeypatch.setattr(Catalog, "_create", another_process_first)
    with Catalog(path) as db:
        assert db.get(CODE).moves == 10 and db.integrity() == "ok"
