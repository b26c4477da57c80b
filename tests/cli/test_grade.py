"""Difficulty on the command line: ``grade``, ``verify --grade``, ``export --difficulty``,
the batch's grading and ``--no-grade``, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from spider_solver.batch.report import short_seconds
from spider_solver.catalog import Catalog
from spider_solver.cli import cli
from spider_solver.export import schema_text
from spider_solver.grading import GRADER_VERSION
from spider_solver.limits import GRADE_CPU_SECONDS
from spider_solver.record import SolveRecord

pytestmark = pytest.mark.usefixtures("engine")

GRADED = ("SP1-S4C-AAAAAAD", "SP1-S4C-AAAAAAE", "SP1-S2R-AAAAAAB")


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def catalog(tmp_path) -> Path:
    """Verified rows (constructed: grading does not replay), an unknown row and an unwinnable one."""
    path = tmp_path / "catalog.sqlite"
    with Catalog(path) as db:
        for code in GRADED:
            db.record(SolveRecord(code, "verified", ("1>2", "D"), moves=2, score=1298, nodes=10, max_nodes=100))
        db.record(SolveRecord("SP1-S4C-AAAAAAF", "unknown", nodes=100, max_nodes=100, reason="nodes"))
        db.record(SolveRecord("SP1-S1C-AAAAAAA", "unwinnable", nodes=7, max_nodes=100))
    return path


def test_grade_refuses_a_catalog_it_cannot_write_before_grading(catalog, monkeypatch):
    """A read-only folder (a read-only mount): said at once, not after the grading."""
    import os

    import spider_solver.batch.grading as grading

    folder, real_access = catalog.resolve().parent, os.access
    monkeypatch.setattr(os, "access", lambda path, mode: False if Path(path) == folder and mode == os.W_OK
                        else real_access(path, mode))
    monkeypatch.setattr(grading, "grade_all", lambda *args, **kwargs: pytest.fail("graded first"))
    result = invoke("grade", "--catalog", str(catalog))
    assert result.exit_code == 2
    assert "cannot be written (its folder cannot be written): grade records the grades there" in result.stderr


@pytest.mark.slow
def test_grade_fills_the_verified_rows_then_only_what_is_missing(catalog):
    result = invoke("grade", "--catalog", str(catalog))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"graded {len(GRADED)} deals") and GRADER_VERSION in result.stdout
    # The plan and its estimate come first: two 4-suit deals and a 2-suit one, at the measured CPU a grade.
    cpu = 2 * GRADE_CPU_SECONDS[4] + GRADE_CPU_SECONDS[2]
    assert f"grading {len(GRADED)} verified deals on " in result.stderr
    assert f"about {short_seconds(cpu)} of CPU" in result.stderr
    with Catalog(catalog, create=False) as db:
        rows = {entry.code: entry for entry in db.entries()}
    for code in GRADED:
        assert rows[code].difficulty in range(1, 6) and rows[code].grader_version == GRADER_VERSION
        assert rows[code].solution == ("1>2", "D")
    assert rows["SP1-S4C-AAAAAAF"].difficulty is None and rows["SP1-S1C-AAAAAAA"].difficulty is None
    again = invoke("grade", "--catalog", str(catalog))
    assert again.exit_code == 0 and again.stdout.startswith("graded 0 deals")
    only = invoke("grade", "--catalog", str(catalog), "--suits", "2", "--rule", "relaxed", "--regrade")
    assert only.exit_code == 0 and only.stdout.startswith("graded 1 deal:")
    with Catalog(catalog, create=False) as db:
        db.db.execute("UPDATE results SET grader_version = 'fair-0' WHERE code = ?", (GRADED[0],))
    older = invoke("grade", "--catalog", str(catalog))
    assert older.exit_code == 0 and older.stdout.startswith("graded 1 deal:")


@pytest.mark.slow
def test_grades_of_the_previous_grader_version_are_regraded_to_this_one(tmp_path):
    """A catalog graded by fair-5 (before the 1-suit player got parameters of its own):
    `grade` without --regrade grades every such row again, and each then holds what this
    version gives."""
    from spider_solver.grading import grade

    assert GRADER_VERSION != "fair-5"
    path = tmp_path / "old.sqlite"
    codes = ("SP1-S1C-AAAAAAB", "SP1-S2C-AAAAAAB", "SP1-S4C-AAAAAAD")
    with Catalog(path) as db:
        for code in codes:
            db.record(SolveRecord(code, "verified", ("1>2", "D"), moves=2, score=1298, nodes=10, max_nodes=100))
            assert db.set_grade(code, {"difficulty": 5, "difficulty_raw": 99.5, "grader_version": "fair-5"})
        assert db.to_grade(version=GRADER_VERSION) == list(codes)
    result = invoke("grade", "--catalog", str(path), "--workers", "1", "-q")
    assert result.exit_code == 0 and result.stdout.startswith(f"graded {len(codes)} deals")
    with Catalog(path, create=False) as db:
        rows = {entry.code: entry for entry in db.entries()}
        assert db.to_grade(version=GRADER_VERSION) == []
    for code in codes:
        now = grade(code)
        assert (rows[code].difficulty, rows[code].difficulty_raw, rows[code].grader_version) == (
            now.grade, now.raw, GRADER_VERSION)


def test_grade_with_nothing_to_do_says_why_unless_quiet(catalog, tmp_path):
    with Catalog(catalog, create=False) as db:
        db.db.execute("UPDATE results SET difficulty = 1, difficulty_raw = 10.0, grader_version = ? WHERE status = 'verified'",
                      (GRADER_VERSION,))
    said = invoke("grade", "--catalog", str(catalog))
    assert said.exit_code == 0 and said.stdout == f"graded 0 deals ({GRADER_VERSION})\n"
    assert said.stderr == (f"nothing to grade: all 3 verified deals are graded by {GRADER_VERSION}; --regrade to "
                           "grade again\n")
    one = invoke("grade", "--catalog", str(catalog), "--suits", "2")
    assert one.stderr.startswith(f"nothing to grade: the 2-suit verified deal is graded by {GRADER_VERSION};")
    quiet = invoke("grade", "--catalog", str(catalog), "-q")
    assert quiet.exit_code == 0 and quiet.stderr == "" and quiet.stdout == said.stdout
    with Catalog(tmp_path / "empty.sqlite"):
        pass
    empty = invoke("grade", "--catalog", str(tmp_path / "empty.sqlite"))
    assert empty.stderr == "nothing to grade: no verified deals in the catalog (a batch verifies and grades them)\n"


@pytest.mark.slow
@pytest.mark.parametrize("compiled", [False, True])
def test_grade_says_when_it_compiles_the_grader_first(catalog, monkeypatch, compiled):
    """The grader's kernel compiles on its first use (a minute or two): the command says so
    before the wait, and only then."""
    import spider_solver.engine

    monkeypatch.setattr(spider_solver.engine, "is_compiled", lambda fair=False: compiled)
    result = invoke("grade", "--catalog", str(catalog))
    assert result.exit_code == 0, result.output
    said = "compiling the grader once for this install (a minute or two); later runs start at once..."
    assert (said in result.stderr) is not compiled
    nothing = invoke("grade", "--catalog", str(catalog))  # nothing to grade: nothing to compile
    assert nothing.exit_code == 0 and "compiling" not in nothing.stderr


@pytest.mark.slow
def test_grade_on_worker_processes_writes_the_grades_grade_gives(catalog):
    """Each deal's grade is the same whichever worker made it (seeded by the deal)."""
    from spider_solver.grading import grade

    result = invoke("grade", "--catalog", str(catalog), "--workers", "2")
    assert result.exit_code == 0, result.output
    with Catalog(catalog, create=False) as db:
        written = {entry.code: (entry.difficulty, entry.difficulty_raw) for entry in db.entries(status="verified")}
    assert written == {code: (grade(code).grade, grade(code).raw) for code in GRADED}


def test_grade_counts_the_deals_of_each_grade_it_wrote(catalog):
    from collections import Counter

    result = invoke("grade", "--catalog", str(catalog), "--workers", "1")
    assert result.exit_code == 0, result.output
    with Catalog(catalog, create=False) as db:
        written = Counter(entry.difficulty for entry in db.entries(status="verified"))
    shares = ", ".join(f"{written[g]} of grade {g}" for g in sorted(written))
    assert result.stdout == f"graded {len(GRADED)} deals: {shares} ({GRADER_VERSION})\n"


def test_a_deal_the_grader_cannot_grade_is_reported_and_the_others_graded(catalog, monkeypatch):
    import spider_solver.batch.grading as batch_grading

    monkeypatch.setattr(batch_grading, "grade_deal", failing_grade)  # a module-level function: it pickles
    result = invoke("grade", "--catalog", str(catalog), "--workers", "1")
    assert result.exit_code == 1, result.output
    assert result.stdout.startswith(f"graded {len(GRADED) - 1} deals")
    assert "error: 1 deal not graded (first: no bounds for this one); run the same command again to retry" in (
        result.stderr)
    with Catalog(catalog, create=False) as db:
        assert db.get(GRADED[1]).difficulty is None and db.get(GRADED[0]).difficulty in range(1, 6)


def failing_grade(code: str):
    from spider_solver.batch.task import Graded, grade_deal

    return Graded(None, "no bounds for this one") if code == GRADED[1] else grade_deal(code)


def test_a_grading_job_that_fails_leaves_the_stored_grade_as_it_was(catalog):
    """A regrade whose grader cannot grade a deal (or whose worker failed) writes nothing:
    the grade the deal had stays, it is not wiped."""
    from concurrent.futures import Future

    from spider_solver.batch.grading import write_grade
    from spider_solver.batch.task import Graded

    older = {"difficulty": 3, "difficulty_raw": 40.0, "grader_version": "fair-0"}
    cannot, died = Future(), Future()
    cannot.set_result(Graded(None, "no bounds for this one"))
    died.set_exception(RuntimeError("the worker died"))
    with Catalog(catalog, create=False) as db:
        assert db.set_grade(GRADED[0], older)
        assert write_grade(db, GRADED[0], cannot) == Graded(None, "no bounds for this one")
        assert write_grade(db, GRADED[0], died) == Graded(None, "RuntimeError in a worker: the worker died")
        entry = db.get(GRADED[0])
    assert {name: getattr(entry, name) for name in older} == older


def stop_then_grade_slowly(code: str):
    """A grading job that asks its command to stop (SIGTERM), then takes long."""
    import os
    import signal
    import time

    os.kill(os.getppid(), signal.SIGTERM)
    time.sleep(30.0)
    from spider_solver.batch.task import Graded

    return Graded(None, "too late")


def test_a_stop_ends_grade_now_not_after_the_grades_in_flight(catalog, monkeypatch):
    import time

    import spider_solver.batch.grading as batch_grading

    monkeypatch.setattr(batch_grading, "grade_deal", stop_then_grade_slowly)  # module-level: it pickles
    began = time.monotonic()
    result = invoke("grade", "--catalog", str(catalog), "--workers", "1")
    assert time.monotonic() - began < 20.0
    assert result.exit_code == 130, result.output
    assert "interrupted: 0 of 3 deals graded and written" in result.stderr


def test_a_stop_after_the_last_grade_was_written_interrupted_nothing(catalog, monkeypatch):
    import signal

    set_grade = Catalog.set_grade
    written = []

    def set_grade_then_ctrl_c(self, code, grade):
        changed = set_grade(self, code, grade)
        written.append(code)
        if len(written) == len(GRADED):
            signal.raise_signal(signal.SIGINT)  # Ctrl-C as the pool shuts down
        return changed

    monkeypatch.setattr(Catalog, "set_grade", set_grade_then_ctrl_c)
    result = invoke("grade", "--catalog", str(catalog), "--workers", "1")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"graded {len(GRADED)} deals") and "interrupted" not in result.stderr


def test_export_carries_and_filters_the_grade(catalog):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(schema_text())
    invoke("grade", "--catalog", str(catalog))
    everything = json.loads(invoke("export", "--catalog", str(catalog)).stdout)
    jsonschema.validate(everything, schema)
    grades = {row["code"]: row["difficulty"] for row in everything}
    assert {grades[code] for code in GRADED} <= set(range(1, 6)) and grades["SP1-S4C-AAAAAAF"] is None
    for low, high in ((1, 2), (3, 5), (5, 5), (1, 5)):
        text = f"{low}-{high}" if low != high else str(low)
        result = invoke("export", "--catalog", str(catalog), "--difficulty", text)
        assert result.exit_code == 0
        assert sorted(row["code"] for row in json.loads(result.stdout)) == sorted(
            code for code in GRADED if low <= grades[code] <= high)
    csv_text = invoke("export", "--catalog", str(catalog), "--format", "csv").stdout
    assert ",difficulty,difficulty_raw,grader_version," in csv_text.splitlines()[0]


@pytest.mark.parametrize("text", ["0", "6", "3-1", "x", "1-", "-1", "1-2-3", "9" * 30, "9" * 60, ""])
def test_a_bad_difficulty_is_refused_with_exit_2(catalog, text):
    result = invoke("export", "--catalog", str(catalog), "--difficulty", text)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0].startswith("error: invalid value for '--difficulty'") and "grade" in lines[0]
    assert len(lines) == 2 and lines[1].startswith("try ") and result.stdout == ""
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args", [
    ["grade", "--suits", "3"], ["grade", "--rule", "easy"], ["grade", "--catalog", "{missing}"],
    ["grade", "--regrade=yes"],
])
def test_grade_bad_input_exits_2(tmp_path, args):
    result = invoke(*[arg.format(missing=tmp_path / "none.sqlite") for arg in args])
    assert result.exit_code == 2 and result.stderr.startswith("error: ") and "Traceback" not in result.output


def test_verify_grade_prints_the_grade():
    result = invoke("verify", "SP1-S4C-AAAAAAD", "--grade")
    assert result.exit_code == 0, result.output
    assert "difficulty " in result.stdout.splitlines()[-1]
    data = json.loads(invoke("verify", "SP1-S4C-AAAAAAD", "--grade", "--json").stdout)
    assert data["difficulty"] in range(1, 6) and data["grader_version"] == GRADER_VERSION
    assert 0 <= data["difficulty_raw"] <= 100
    plain = json.loads(invoke("verify", "SP1-S4C-AAAAAAD", "--json").stdout)
    assert (plain["difficulty"], plain["difficulty_raw"], plain["grader_version"]) == (None, None, None)


def test_the_batch_grades_by_default_and_no_grade_skips(tmp_path):
    graded, plain = tmp_path / "graded.sqlite", tmp_path / "plain.sqlite"
    common = ["--suits", "4", "--count", "2", "--start", "3", "--workers", "1", "--max-nodes", "2000000"]
    first = invoke(*common, "--catalog", str(graded))
    assert first.exit_code == 0, first.output
    assert "graded" in first.stderr
    second = invoke(*common, "--catalog", str(plain), "--no-grade", "--quiet")
    assert second.exit_code == 0, second.output
    with Catalog(graded, create=False) as db:
        assert all(e.difficulty in range(1, 6) for e in db.entries(status="verified")) and db.count(status="verified")
    with Catalog(plain, create=False) as db:
        assert all(e.difficulty is None for e in db.entries()) and db.count(status="verified")
    refused = invoke("grade", "--no-grade")
    assert refused.exit_code == 2


def test_a_regrade_that_leaves_deals_ungraded_does_not_tell_to_regrade_them_all(catalog, monkeypatch):
    """Running `grade --regrade` again would grade every deal again, not the one left."""
    import spider_solver.batch.grading as batch_grading

    monkeypatch.setattr(batch_grading, "grade_deal", failing_grade)
    result = invoke("grade", "--catalog", str(catalog), "--workers", "1", "--regrade")
    assert result.exit_code == 1, result.output
    assert ("error: 1 deal not graded (first: no bounds for this one); without --regrade the command grades those "
            "that have no grade of this version; with it, every deal again") in result.stderr


def test_a_stop_while_a_grade_waits_for_the_lock_says_how_far_it_got(catalog, monkeypatch):
    """The stop ends the wait (stop_check raises between two tries): the command sums up
    as for any stop, not with a bare 'interrupted'."""
    import signal

    set_grade = Catalog.set_grade
    calls = []

    def set_grade_waiting_for_a_lock(self, code, grade):
        calls.append(code)
        if len(calls) == 2:
            signal.raise_signal(signal.SIGINT)
            self.stop_check()  # what the wait for the lock does between two tries
        return set_grade(self, code, grade)

    monkeypatch.setattr(Catalog, "set_grade", set_grade_waiting_for_a_lock)
    result = invoke("grade", "--catalog", str(catalog), "--workers", "1")
    assert result.exit_code == 130, result.output
    assert result.stderr.strip().endswith(f"interrupted: 1 of {len(GRADED)} deals graded and written; run the "
                                          "same command again to carry on")
