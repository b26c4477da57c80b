"""The batch end to end: real solves of small batches, interruption and resume,
``check``, and bad input on the command line.

Real solves use 1-suit deals (easy) on 2 workers with a small budget; the resume
tests use 4-suit deals cut by a node budget, so that each deal takes long enough
for a signal to land part-way through the batch.
"""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from spider_solver.catalog import Catalog
from spider_solver.cli import cli
from spider_solver.export import schema_text
from tests.processes import alive, children

pytestmark = pytest.mark.usefixtures("engine")

EASY = ["--suits", "1", "--workers", "2", "--max-nodes", "1500000", "--max-seconds", "30"]
BATCH = 6


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> tuple[Path, object]:
    """A catalog filled by one real batch of 1-suit deals, and that run's CliRunner result."""
    path = tmp_path_factory.mktemp("solved") / "catalog.sqlite"
    result = invoke(*EASY, "--count", str(BATCH), "--catalog", str(path))
    assert result.exit_code == 0, result.output
    return path, result


@pytest.fixture
def catalog(solved, tmp_path) -> Path:
    """A private copy of the solved catalog."""
    copy = tmp_path / "catalog.sqlite"
    with Catalog(solved[0], create=False) as source:
        source.db.execute("VACUUM INTO ?", (str(copy),))
    return copy


def deals(path: Path) -> list[int]:
    with Catalog(path, create=False) as db:
        return [entry.deal for entry in db.entries()]


# --------------------------------------------------------------------------- #
# A batch, its summary, and the next batch
# --------------------------------------------------------------------------- #


@pytest.mark.slow
def test_batch_records_every_deal_and_prints_a_summary(solved):
    path, result = solved
    assert result.stdout == ""  # no data on stdout: bar, summary and messages go to stderr
    lines = result.stderr.splitlines()
    assert lines[0] == (f"solving {BATCH} deals (SP1-S1C-AAAAAAA to SP1-S1C-AAAAAAF) on 2 worker processes into {path}, "
                        "1,500,000 nodes and 30 s a deal")  # the plan: deals, workers, budget
    summary = "\n".join(lines[-9:])  # the batch grades by default: a "graded" row
    for label in ("deals", "verified", "unwinnable", "unknown", "seconds per deal", "solution length", "graded",
                  "catalog", "wall time"):
        assert f"\n{label} " in "\n" + summary, label
    assert f"deals             {BATCH}\n" in summary
    assert "seconds per deal  median " in summary and " p90 " in summary and " max " in summary
    with Catalog(path, create=False) as db:
        entries = list(db.entries())
        assert [entry.deal for entry in entries] == list(range(BATCH)) and db.pending() == []
        verified = [entry for entry in entries if entry.status == "verified"]
        assert verified, "1-suit deals at this budget should mostly verify"
        assert f"verified          {len(verified)}  ({100 * len(verified) / BATCH:.1f}%)" in summary
        for entry in verified:
            assert entry.moves == len(entry.solution) and entry.score > 0 and entry.max_nodes == 1_500_000
            assert entry.difficulty in range(1, 6) and entry.grader_version is not None


@pytest.mark.slow
def test_the_next_run_continues_after_the_highest_deal(catalog):
    result = invoke(*EASY, "--count", "3", "--catalog", str(catalog), "--quiet")
    assert result.exit_code == 0 and result.stderr == "" and result.stdout == ""
    assert deals(catalog) == list(range(BATCH + 3))


def test_explicit_start_skips_deals_already_settled(catalog):
    result = invoke(*EASY, "--count", str(BATCH), "--start", "0", "--catalog", str(catalog))
    assert result.exit_code == 0
    assert "nothing to solve: every deal in the range is settled" in result.stderr
    assert f"deals             0  ({BATCH} skipped, already settled)" in result.stderr


# --------------------------------------------------------------------------- #
# check
# --------------------------------------------------------------------------- #


def corrupt(path: Path, transform) -> str:
    """Rewrite the solution of the first verified row; returns its code."""
    db = sqlite3.connect(path)
    code, solution = db.execute("SELECT code, solution FROM results WHERE status = 'verified' LIMIT 1").fetchone()
    db.execute("UPDATE results SET solution = ? WHERE code = ?", (transform(solution.split()), code))
    db.commit()
    db.close()
    return code


def test_check_replays_every_verified_solution(catalog):
    with Catalog(catalog, create=False) as db:
        verified = db.count(status="verified")
    result = invoke("check", "--catalog", str(catalog))
    assert result.exit_code == 0, result.output
    assert result.stdout == ("the verified solution wins\n" if verified == 1 else f"all {verified} verified solutions win\n")


@pytest.mark.parametrize("args, first, hint", [
    (["--suits"], "error: option '--suits' requires an argument", "try 'spider-solve --help'"),
    (["verify", "--max-nodes"], "error: option '--max-nodes' requires an argument", "try 'spider-solve verify --help'"),
    (["verify", "--bogus"], "error: no such option '--bogus'", "try 'spider-solve verify --help'"),
])
def test_a_usage_error_is_one_line_then_the_help_to_read(args, first, hint):
    """Also for the errors click's option parser gives without a context (a missing value),
    and without click's full stop."""
    result = CliRunner().invoke(cli, args, prog_name="spider-solve")
    assert result.exit_code == 2 and result.stderr.splitlines() == [first, hint]


def test_a_default_catalog_that_is_a_folder_says_it_is_the_default(tmp_path, monkeypatch):
    """No --catalog given: the message must not leave the user looking for one they gave."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spider-catalog.sqlite").mkdir()
    result = invoke("check")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == ("error: invalid value for '--catalog': File 'spider-catalog.sqlite' is "
                                             "a directory (--catalog defaults to it: name another with --catalog)")


def test_check_of_a_catalog_with_no_verified_row_says_so(tmp_path):
    path = tmp_path / "c.sqlite"
    Catalog(path).close()
    result = invoke("check", "--catalog", str(path))
    assert (result.exit_code, result.stdout) == (0, "no verified solution to check\n")


@pytest.mark.parametrize("transform, problem", [
    (lambda actions: " ".join(actions[:-1]), "does not win"),
    (lambda actions: " ".join(["D"] * 6 + actions), "refused"),
    (lambda actions: " ".join(actions + ["1>2"]), "refused: the game is already won"),
])
def test_check_catches_a_corrupted_solution(catalog, transform, problem):
    code = corrupt(catalog, transform)
    result = invoke("check", "--catalog", str(catalog))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{code}: ") and problem in lines[0]
    assert lines[-1].startswith("1 of ") and lines[-1].endswith(" does not win")


def test_export_of_real_solutions_matches_the_schema(catalog):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(schema_text())
    result = invoke("export", "--catalog", str(catalog), "--status", "verified")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    jsonschema.validate(data, schema)
    assert data and all(item["moves"] == len(item["solution"]) for item in data)


# --------------------------------------------------------------------------- #
# Interruption and resume, with the real command in a subprocess
# --------------------------------------------------------------------------- #

SLOW = ["--suits", "4", "--workers", "2", "--max-nodes", "200000", "--max-seconds", "30"]
SLOW_COUNT = 6


def command() -> list[str]:
    script = Path(sys.executable).with_name("spider-solve")
    return [str(script)] if script.exists() else [sys.executable, "-c", "from spider_solver.cli import main; main()"]


def results_in(path: Path) -> int:
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            return db.execute("SELECT count(*) FROM results").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:  # not created yet
        return 0


#: Seconds a test waits for a batch's first result before it kills the batch: a fresh install
#: compiles first (a minute on an idle machine with 2 cores, over three on a busy one; a kill
#: during the compile lands before any deal is written, and the test cannot check a resume).
FIRST_RESULT_WAIT = 300


@pytest.mark.slow
@pytest.mark.parametrize("how", ["SIGKILL", "SIGINT (Ctrl-C to the process group)", "SIGTERM"])
def test_a_killed_run_resumes_and_every_deal_is_present_once(tmp_path, how):
    path = tmp_path / "catalog.sqlite"
    args = [*command(), *SLOW, "--count", str(SLOW_COUNT), "--catalog", str(path)]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               start_new_session=True)
    deadline = time.monotonic() + FIRST_RESULT_WAIT
    while results_in(path) < 1 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, f"the batch ended before it could be killed:\n{process.stderr.read()}"
    workers = children(process.pid) if Path("/proc").is_dir() else set()
    if how == "SIGKILL":
        process.send_signal(signal.SIGKILL)
    elif how.startswith("SIGINT"):
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
    else:
        process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    if how == "SIGKILL":
        assert process.returncode == -signal.SIGKILL
    else:
        assert process.returncode == 130, stderr
        assert "interrupted: " in stderr and "left pending; the next run takes them first (--count " in stderr
        assert "Traceback" not in stderr
    # No worker outlives its parent, even after kill -9.
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers)

    with Catalog(path, create=False) as db:
        assert db.integrity() == "ok"
        done_before = db.count()
        assert 1 <= done_before < SLOW_COUNT and db.pending(), "the kill should land part-way"

    rerun = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{SLOW_COUNT - done_before} of them left pending by an earlier run" in rerun.stderr
    with Catalog(path, create=False) as db:
        # The rerun finished the killed run's deals and, as any run, solved --count deals in all.
        assert [entry.deal for entry in db.entries()] == list(range(SLOW_COUNT + done_before))
        assert db.pending() == [] and db.integrity() == "ok"


@pytest.mark.slow
def test_a_run_killed_before_grading_is_graded_by_the_next_run(tmp_path):
    """kill -9 once the first deals are written (the batch grades after solving them all):
    the rerun grades them with its own deals, so no verified deal stays ungraded."""
    path = tmp_path / "catalog.sqlite"
    args = [*command(), "--suits", "1", "--workers", "2", "--count", "12", "--catalog", str(path)]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               start_new_session=True)
    deadline = time.monotonic() + FIRST_RESULT_WAIT
    while results_in(path) < 1 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, f"the batch ended before it could be killed:\n{process.stderr.read()}"
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=30)
    with Catalog(path, create=False) as db:
        before = {e.code for e in db.entries(status="verified") if e.difficulty is None}
        assert before and db.pending(), "the kill should land before the grading"
    rerun = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    assert f"and grading {len(before)} verified deal" in rerun.stderr and "of the range left ungraded" in rerun.stderr
    with Catalog(path, create=False) as db:
        verified = list(db.entries(status="verified"))
        assert len(verified) >= 12 and all(e.difficulty in range(1, 6) for e in verified)
        assert before <= {e.code for e in verified} and db.integrity() == "ok"


# Commands stopped by a signal at a chosen point: the script patches the command's work so
# that the process sends the signal to itself there, then runs the real entry point.
STOPPED = """
import atexit, os, signal, sys, threading, time
from spider_solver import export

def stop_here():
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(10)

from spider_solver.catalog import Catalog
set_grade = Catalog.set_grade
def set_grade_then_stop(self, code, grade):  # grade: SIGTERM once the first grade is written
    changed = set_grade(self, code, grade)
    os.kill(os.getpid(), signal.SIGTERM)
    return changed

def write_export(entries, stream, fmt, **options):
    stream.write("[")
    stop_here()

Catalog.set_grade, export.write_export = set_grade_then_stop, write_export
def ctrl_c_at_exit():
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(10)

def ctrl_c_once_the_command_ended():
    while threading.main_thread().is_alive():  # until Python's exit joins this thread
        time.sleep(0.01)
    ctrl_c_at_exit()

class CtrlCWhenDeleted:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)  # as the default action, it would end the process now
        time.sleep(0.1)

if sys.argv[1] == "exit-handler":  # Ctrl-C in an exit handler registered as the command runs
    import spider_solver.cli
    command_line = spider_solver.cli.main
    def main_then_exit_handler():
        atexit.register(ctrl_c_at_exit)
        command_line()
    spider_solver.cli.main = main_then_exit_handler
    del sys.argv[1]
elif sys.argv[1] == "unwinding":  # SIGTERM as the command's SystemExit is on its way out
    import spider_solver.cli
    command_line = spider_solver.cli.main
    def main_then_sigterm():
        try:
            command_line()
        finally:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(10)
    spider_solver.cli.main = main_then_sigterm
    del sys.argv[1]
elif sys.argv[1] == "teardown":  # Ctrl-C as the interpreter tears its modules down
    late = CtrlCWhenDeleted()
    del sys.argv[1]
elif sys.argv[1] == "joining":  # Ctrl-C while Python's exit waits for the threads
    threading.Thread(target=ctrl_c_once_the_command_ended).start()
    del sys.argv[1]
from spider_solver._console import main
sys.argv[0] = "spider-solve"
main()
"""


@pytest.mark.slow
@pytest.mark.parametrize("regrade", [False, True])
def test_sigterm_stops_grade_as_ctrl_c_does_and_says_how_far_it_got(solved, tmp_path, regrade):
    """The grades written before the stop stay (the workers' grades in flight are dropped)."""
    path = tmp_path / "catalog.sqlite"
    path.write_bytes(solved[0].read_bytes())
    with Catalog(path, create=False) as db:  # the batch graded them: make them ungraded
        db.db.execute("UPDATE results SET difficulty = NULL, difficulty_raw = NULL, grader_version = NULL")
    args = ["grade", "--catalog", str(path), "--workers", "1", *(["--regrade"] if regrade else [])]
    done = subprocess.run([sys.executable, "-c", STOPPED, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 130, done.stderr
    with Catalog(path, create=False) as db:
        graded = sum(entry.difficulty is not None for entry in db.entries())
    assert 1 <= graded < BATCH
    then = (f"the other {BATCH - graded} are as they were (without --regrade, the command grades those that have "
            "no grade of this version)" if regrade else "run the same command again to carry on")
    assert done.stderr.strip().endswith(f"interrupted: {graded} of {BATCH} deals graded and written; {then}")
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_sigterm_stops_export_and_leaves_no_partial_file(solved, tmp_path):
    out = tmp_path / "deals.json"
    done = subprocess.run([sys.executable, "-c", STOPPED, "export", "--catalog", str(solved[0]), "-o", str(out)],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (130, "interrupted\n")
    assert list(tmp_path.iterdir()) == []  # neither the file nor its temporary twin


@pytest.mark.parametrize("when", ["unwinding", "joining", "exit-handler", "teardown"])
@pytest.mark.parametrize("args, status", [(["show", "SP1-S4C-AAAAAAD"], 0), (["show", "nonsense"], 2)])
def test_a_signal_after_the_command_ended_keeps_its_status_and_prints_no_traceback(args, status, when):
    done = subprocess.run([sys.executable, "-c", STOPPED, when, *args], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert ("moves 0" in done.stdout) == (status == 0)


# --------------------------------------------------------------------------- #
# Bad input: a message and exit status 2, never a traceback
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("args, message", [
    (["--suits", "3"], "error: invalid value for '--suits': '3' is not one of '1', '2', '4'"),
    (["--count", "-5"], "error: invalid value for '--count': -5 is not in the range 0 to 1,000,000"),
    (["--catalog", "{text}"], "is not a spider-solver catalog"),
    (["--catalog", "{tmp}"], "is a directory"),
    (["--scheduler", "tcp://127.0.0.1:1"], "error: cannot reach the scheduler 'tcp://127.0.0.1:1'"),
    (["--workers", "0"], "error: invalid value for '--workers': 0 is not in the range 1 to 1,024"),
    (["check", "--catalog", "{text}"], "is not a spider-solver catalog"),
    (["check", "--catalog", "{missing}"], "error: no catalog at"),
    # An unset shell variable, --catalog "$CAT": not the default file, nor "'.' is a directory".
    (["--catalog", ""], "error: invalid value for '--catalog': expected a file name, got an empty one"),
    (["check", "--catalog", " "], "error: invalid value for '--catalog': expected a file name, got an empty one"),
    (["export", "--output", ""], "error: invalid value for '-o' / '--output': expected a file name"),
    (["--scheduler", "http://127.0.0.1:8786"], "unknown scheme 'http'"),
    # 1e-400 is 0.0 as a float, and 0 means no limit.
    (["--max-seconds", "1e-400"], "'1e-400' is too small a number of seconds: give 0 for no limit"),
])
def test_bad_input_exits_2_with_a_message(tmp_path, args, message):
    text = tmp_path / "notes.txt"
    text.write_text("shopping list: eggs, milk\n" * 40)
    args = [arg.format(text=text, tmp=tmp_path, missing=tmp_path / "missing.sqlite") for arg in args]
    result = invoke(*args, *(["--catalog", str(tmp_path / "c.sqlite")] if "--catalog" not in args else []))
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert text.read_text().startswith("shopping list")


@pytest.mark.parametrize("args, words", [
    (["--count", "3", "show", "SP1-S4C-AAAAAAD"], "batch option --count applies only when no command is given"),
    (["--suits", "1", "--quiet", "check"], "batch options --suits, --quiet apply only when no command is given"),
])
def test_batch_options_with_a_command_are_refused(args, words):
    result = invoke(*args)
    assert result.exit_code == 2 and result.stderr.splitlines()[0] == f"error: {words}"


@pytest.mark.slow
@pytest.mark.parametrize("redirect", [
    pytest.param("2>/dev/full", marks=pytest.mark.skipif(not os.path.exists("/dev/full"), reason="Linux's /dev/full")),
    "2>&-",
])
def test_messages_that_cannot_be_written_change_neither_the_work_nor_its_status(tmp_path, redirect):
    """Standard error full (a full disk) or closed: the messages are dropped, the command
    does its work and ends with its own status. A failed progress line used to end a batch
    with status 2 before it solved a deal, and `verify` with its line unprinted."""
    import shlex

    def run(*args: str) -> subprocess.CompletedProcess:
        line = " ".join(["exec", '"$0"', "-m", "spider_solver", *map(shlex.quote, args), redirect])
        return subprocess.run(["sh", "-c", line, sys.executable], capture_output=True, cwd=tmp_path, timeout=300)

    catalog = tmp_path / "c.sqlite"
    done = run("--suits", "1", "--count", "2", "--workers", "1", "--max-nodes", "2000000", "--catalog", str(catalog))
    assert done.returncode == 0 and results_in(catalog) == 2
    for progress in (["--progress"], []):  # without --progress it asks whether stderr is a terminal
        done = run("verify", "SP1-S1C-AAAAAAD", "--max-nodes", "2000000", *progress)
        assert done.returncode == 0 and done.stdout.startswith(b"SP1-S1C-AAAAAAD: verified"), done
    assert run("hint", "SP1-S4C-AAAAAAD", "--max-nodes", "1000").returncode == 3  # unknown
    done = run("export", "--catalog", str(catalog), "-o", str(tmp_path / "deals.json"))
    assert done.returncode == 0 and len(json.loads((tmp_path / "deals.json").read_text())) > 0


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stop_while_the_catalog_is_locked_by_another_process_is_prompt(tmp_path, signum):
    """The batch waits up to 30 s for another process's write lock; Ctrl-C or SIGTERM
    meanwhile ends it at once (it used to wait the 30 s out, then exit 2)."""
    path = tmp_path / "catalog.sqlite"
    Catalog(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        process = subprocess.Popen([*command(), "--suits", "1", "--count", "3", "--catalog", str(path), "--no-grade"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                                   start_new_session=True)
        time.sleep(3)  # started, and waiting for the lock to plan
        assert process.poll() is None
        stopped = time.monotonic()
        os.killpg(process.pid, signum)
        _, stderr = process.communicate(timeout=60)
        assert time.monotonic() - stopped < 10, stderr  # a quarter-second try, not SQLite's 30 s wait
        assert process.returncode == 130 and "Traceback" not in stderr, stderr
        assert stderr.strip().endswith("interrupted before the plan was recorded: nothing was planned or written")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with Catalog(path, create=False) as db:
        assert db.pending() == [] and db.count() == 0
