"""The batch runner: options, the summary, worker failures, and the Dask path.

Worker failures cannot be produced on purpose with the real solver, so those tests
hand ``run_batch`` a stand-in task (top-level functions below, run in real worker
processes). The Dask test solves real 1-suit deals on a local cluster.
"""

import contextlib
import io
import os
import re
import socket
import threading
import time
from dataclasses import replace

import pytest
from click.testing import CliRunner

from spider_solver.batch import Options, Report, Task, pools, run_batch
from spider_solver.batch.report import format_seconds, percentile, progress_bar
from spider_solver.batch.task import Graded
from spider_solver.catalog import Catalog
from spider_solver.cli import cli
from spider_solver.cli.exits import of_batch as exit_status
from spider_solver.errors import SchedulerError
from spider_solver.grading import GRADER_VERSION, Grade
from spider_solver.limits import DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS
from spider_solver.outcomes import AttemptSummary, BeamOutcome, ExitStatus, SearchMode
from spider_solver.record import SolveRecord
from spider_solver.rules import GameCode, Variant
from spider_solver.verify import check_solution
from spider_solver.version import __version__

pytestmark = pytest.mark.usefixtures("engine")

# --------------------------------------------------------------------------- #
# Stand-in tasks, run in worker processes
# --------------------------------------------------------------------------- #



def run_worded(opts: Options, *, stream=None, task: Task | None = None) -> Report:
    """run_batch with its events worded on ``stream`` as the command line words them."""
    import sys

    from spider_solver.cli.words import teller

    stream = sys.stderr if stream is None else stream
    return run_batch(opts, stream=stream, task=task, tell=teller(stream, quiet=opts.quiet))

def stand_in(code: str, max_nodes: int, max_seconds: float | None) -> SolveRecord:
    """Even deals verified in (deal + 10) actions, odd deals unknown, deal 3 raises."""
    number = GameCode.parse(code).number
    if number == 3:
        raise RuntimeError("engine bug on deal 3")
    won = number % 2 == 0
    return SolveRecord(
        code=code, status="verified" if won else "unknown", solution=("D",) * (number + 10) if won else (),
        moves=number + 10 if won else None, score=1000 if won else None, nodes=100 * (number + 1),
        seconds=0.01 * (number + 1), max_nodes=max_nodes, max_seconds=max_seconds,
        reason="won" if won else "nodes", solver_version="stand-in",
    )


def stand_in_fixed(code: str, max_nodes: int, max_seconds: float | None) -> SolveRecord:
    """Like ``stand_in``, with the bug on deal 3 fixed."""
    if GameCode.parse(code).number == 3:
        return replace(stand_in(str(GameCode(1, "classic", 5)), max_nodes, max_seconds), code=code)
    return stand_in(code, max_nodes, max_seconds)


def crash(code: str, max_nodes: int, max_seconds: float | None) -> SolveRecord:
    os._exit(3)  # a worker process dying under the executor


def options(tmp_path, *, suits=1, rule="classic", **overrides):
    settings = {"count": 6, "workers": 2, "catalog": str(tmp_path / "catalog.sqlite"), "max_nodes": 1000,
                "max_seconds": 5.0}
    return Options(variant=Variant(suits=suits, rule=rule), **(settings | overrides))


def batch(*args: str):
    return CliRunner().invoke(cli, list(args))


# --------------------------------------------------------------------------- #
# Options: checked by the command line's parameter types, once
# --------------------------------------------------------------------------- #


def test_defaults():
    chosen = Options()
    assert (chosen.variant.suits, chosen.variant.rule, chosen.count, chosen.start) == (4, "classic", 100, None)
    assert chosen.workers is None and chosen.catalog == "spider-catalog.sqlite"
    assert (chosen.max_nodes, chosen.max_seconds) == (DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS) == (150_000_000, None)


@pytest.mark.parametrize("args, message", [
    (["--suits", "3"], "'3' is not one of '1', '2', '4'"),
    (["--rule", "spider"], "'spider' is not one of 'classic', 'relaxed'"),
    (["--count", "-1"], "-1 is not in the range 0 to 1,000,000"),
    (["--count", "9" * 5000], "'" + "9" * 40 + "'... is not a whole number"),
    (["--workers", "0"], "0 is not in the range 1 to 1,024"),
    (["--max-nodes", "0"], "0 is not in the range 1 to 1,000,000,000,000,000"),
    (["--max-nodes", "10000000000000000"], "not in the range 1 to 1,000,000,000,000,000"),
    (["--max-seconds", "-1"], "'-1' is not a number of seconds"),
    (["--max-seconds", "nan"], "'nan' is not a number of seconds"),
    (["--max-seconds", "inf"], "'inf' is not a number of seconds"),
    (["--max-seconds", "1e999"], "'1e999' is not a number of seconds"),
    (["--max-seconds", "1e8"], "'1e8' is not a number of seconds from 0 (no limit) to 10,000,000"),
    (["--max-seconds", "1_0"], "'1_0' is not a number of seconds"),  # as --max-nodes 1_0
    (["--max-nodes", "1_0"], "'1_0' is not a whole number"),
    (["--start", "-5"], "-5 is not in the range 0 to 34,359,738,367"),
    (["--start", str(2**35 - 2), "--count", "5"], "goes past the last deal number 34359738367"),
    (["--scheduler", " "], "expected an address such as tcp://HOST:8786"),
])
def test_bad_options_are_refused_with_one_line(tmp_path, args, message):
    result = batch(*args, "--catalog", str(tmp_path / "c.sqlite"))
    assert result.exit_code == ExitStatus.BAD_INPUT
    lines = result.output.splitlines()
    assert lines[0].startswith("error: ") and message in lines[0], result.output
    assert len(lines) <= 2 and "Traceback" not in result.output
    assert not (tmp_path / "c.sqlite").exists()


def test_spaces_around_a_choice_are_ignored_as_around_a_number(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr("spider_solver.batch.run_batch", lambda options, **_: seen.append(options) or Report())
    assert batch("--suits", " 2 ", "--rule", " Relaxed", "--count", " 3", "--catalog", str(tmp_path / "c.sqlite")
                 ).exit_code == 0
    assert (seen[0].variant.suits, seen[0].variant.rule, seen[0].count) == (2, "relaxed", 3)


def test_zero_seconds_means_no_time_limit(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr("spider_solver.batch.run_batch", lambda options, **_: seen.append(options) or Report())
    assert batch("--max-seconds", "0", "--catalog", str(tmp_path / "c.sqlite")).exit_code == 0
    assert batch("--max-seconds", "2.5", "--catalog", str(tmp_path / "c.sqlite")).exit_code == 0
    assert batch("--suits", "1", "--rule", "relaxed", "--catalog", str(tmp_path / "c.sqlite")).exit_code == 0
    assert batch("--max-seconds", "180", "--catalog", str(tmp_path / "c.sqlite")).exit_code == 0
    assert [o.max_seconds for o in seen] == [None, 2.5, DEFAULT_MAX_SECONDS, 180.0]
    assert seen[2].variant.rule == "classic"  # one suit: one rule


def test_a_scheduler_without_dask_installed_says_what_to_install_first(tmp_path, monkeypatch):
    """Without the cluster extra the batch could use no scheduler: that is said before any
    address is tried, not "cannot reach the scheduler"."""
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "distributed" else find_spec(name, *a))
    with pytest.raises(SchedulerError, match=r"^--scheduler 'tcp://127\.0\.0\.1:1' needs dask\.distributed: "
                                             r"pip install 'spider-solver\[cluster\]'$"):
        run_worded(options(tmp_path, scheduler="tcp://127.0.0.1:1", quiet=True))
    assert not (tmp_path / "catalog.sqlite").exists()


def test_unreachable_scheduler_fails_before_the_catalog_is_made(tmp_path):
    with pytest.raises(SchedulerError, match=r"cannot reach the scheduler 'tcp://127\.0\.0\.1:1'"):
        run_worded(options(tmp_path, scheduler="tcp://127.0.0.1:1", quiet=True))
    with pytest.raises(SchedulerError, match="invalid scheduler address 'nowhere'"):
        run_worded(options(tmp_path, scheduler="nowhere", quiet=True))
    with pytest.raises(SchedulerError, match="unknown scheme 'http'"):
        run_worded(options(tmp_path, scheduler="http://127.0.0.1:8786", quiet=True))
    assert not (tmp_path / "catalog.sqlite").exists()


@pytest.mark.parametrize("greeting, words", [
    (b"", "it did not greet within 0.3 s (the dashboard's port?"),  # an HTTP server waits for a request
    (b"SSH-2.0-OpenSSH_9.6\r\n", "it began b'SSH-2.0-'"),  # as a Dask message: 2.8 EiB long
])
def test_a_server_that_is_not_a_dask_scheduler_is_refused_at_once(monkeypatch, greeting, words):
    """The Dask client would wait on the first for ever and try to allocate the second."""
    monkeypatch.setattr(pools, "GREETING_SECONDS", 0.3)
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def answer() -> None:
        connection, _ = server.accept()
        with connection:
            connection.sendall(greeting)
            with contextlib.suppress(ConnectionResetError):  # it may hang up with the greeting unread
                connection.recv(1)  # until the probe hangs up

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    try:
        with pytest.raises(SchedulerError, match=re.escape(f"'tcp://127.0.0.1:{port}' is not a Dask scheduler: {words}")):
            pools.probe(f"tcp://127.0.0.1:{port}")
    finally:
        thread.join(timeout=5)
        server.close()


# --------------------------------------------------------------------------- #
# The summary
# --------------------------------------------------------------------------- #


def test_percentile_is_nearest_rank():
    values = [float(v) for v in range(1, 11)]
    assert (percentile(values, 0.5), percentile(values, 0.9), percentile(values, 1.0)) == (5.0, 9.0, 10.0)
    assert percentile([7.0], 0.9) == 7.0


CODE_OF_REPORT = "SP1-S1C-AAAAAAA"


def test_summary_table():
    report = Report(planned=5, resumed=1)
    for status, seconds, moves in [("verified", 0.5, 120), ("verified", 1.5, 140), ("verified", 0.1, 100),
                                   ("unknown", 3.0, None)]:
        record = SolveRecord(CODE_OF_REPORT, status, ("D",) * (moves or 0), moves=moves, score=moves and 1000,
                             seconds=seconds, reason=None if moves else "nodes")
        report.add(record, stored=status == "verified")
    report.wall = 75.0
    assert report.summary().splitlines() == [
        "deals             4  (1 resumed, 1 not done)",
        "verified          3  (75.0%)",
        "unwinnable        0",
        "unknown           1",
        "seconds per deal  median 1.000  p90 3.000  max 3.000",  # the mean of the two middle ones
        "solution length   median 120",
        "catalog           3 added or improved, 1 kept as they were",
        "wall time         1 min 15 s  (0.05 deals/s)",
    ]


def test_summary_of_an_empty_batch():
    summary = Report().summary()
    assert "deals             0" in summary and "seconds per deal  -" in summary


def test_format_seconds_switches_to_minutes_at_one_minute_and_to_hours_at_one_hour():
    assert [format_seconds(s) for s in (0.5, 10.0, 59.5, 60.0, 61.0, 3599.0, 3600.0, 3725.0)] == [
        "0.50 s", "10.0 s", "59.5 s", "1 min 00 s", "1 min 01 s", "59 min 59 s", "1 h 00 min", "1 h 02 min"]


# --------------------------------------------------------------------------- #
# Worker failures, with stand-in tasks in real worker processes
# --------------------------------------------------------------------------- #


def test_a_failing_deal_is_reported_and_stays_pending(tmp_path):
    stream = io.StringIO()
    report = run_worded(options(tmp_path), stream=stream, task=Task(stand_in))
    assert report.failed == ["SP1-S1C-AAAAAAD"] and exit_status(report) == ExitStatus.NOT_WON
    text = stream.getvalue()
    assert "error: SP1-S1C-AAAAAAD failed in a worker: RuntimeError: engine bug on deal 3" in text
    assert "failed            1  (left pending)" in text
    assert "verified          3  (60.0%)" in text
    with Catalog(tmp_path / "catalog.sqlite") as catalog:
        assert [entry.deal for entry in catalog.entries()] == [0, 1, 2, 4, 5]
        assert catalog.get("SP1-S1C-AAAAAAE").solution == ("D",) * 14
        assert catalog.pending() == ["SP1-S1C-AAAAAAD"]

    # The next run takes the failed deal over first, then carries on after deal 5.
    report = run_worded(options(tmp_path, count=2, quiet=True), stream=stream, task=Task(stand_in_fixed))
    assert (report.resumed, report.done, exit_status(report)) == (1, 2, ExitStatus.OK)
    with Catalog(tmp_path / "catalog.sqlite") as catalog:
        assert [entry.deal for entry in catalog.entries()] == [0, 1, 2, 3, 4, 5, 6]
        assert catalog.pending() == []


def test_quiet_prints_no_bar_and_no_summary(tmp_path):
    stream = io.StringIO()
    report = run_worded(options(tmp_path, count=3, quiet=True), stream=stream, task=Task(stand_in))
    assert report.done == 3 and stream.getvalue() == ""


def test_a_dead_worker_stops_the_batch_and_keeps_the_catalog(tmp_path):
    stream = io.StringIO()
    report = run_worded(options(tmp_path, count=4), stream=stream, task=Task(crash))
    assert report.broken is not None and report.done == 0 and exit_status(report) == ExitStatus.NOT_WON
    assert "error: the worker pool broke" in stream.getvalue()
    assert "4 deals not solved, left pending for the next run" in stream.getvalue()
    with Catalog(tmp_path / "catalog.sqlite") as catalog:
        assert catalog.integrity() == "ok" and len(catalog.pending()) == 4 and catalog.count() == 0


def stop_everything(code: str, max_nodes: int, max_seconds: float | None) -> SolveRecord:
    """A service manager's stop (systemd's SIGTERM to the whole control group): to the
    batch and to this worker at once; then the deal takes a moment longer."""
    import signal
    import time

    os.kill(os.getppid(), signal.SIGTERM)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(1.0)
    return stand_in(code, max_nodes, max_seconds)


def test_sigterm_to_the_workers_too_is_a_stop_not_a_broken_pool(tmp_path):
    stream = io.StringIO()
    report = run_worded(options(tmp_path, count=4, workers=1), stream=stream, task=Task(stop_everything))
    assert report.interrupted and report.broken is None and exit_status(report) == ExitStatus.INTERRUPTED
    text = stream.getvalue()
    assert "broke" not in text and "interrupted: 0 deals written, 4 left pending" in text
    with Catalog(tmp_path / "catalog.sqlite") as catalog:
        assert catalog.count() == 0 and len(catalog.pending()) == 4


def test_a_stop_after_the_last_deal_was_written_interrupted_nothing(tmp_path, monkeypatch):
    import signal

    planned = 3
    record = Catalog.record

    def record_then_ctrl_c(self, data):
        stored = record(self, data)
        if self.count() == planned:
            signal.raise_signal(signal.SIGINT)  # Ctrl-C as the pool shuts down
        return stored

    monkeypatch.setattr(Catalog, "record", record_then_ctrl_c)
    stream = io.StringIO()
    report = run_worded(options(tmp_path, count=planned), stream=stream, task=Task(stand_in))
    assert (report.done, report.interrupted, exit_status(report)) == (planned, False, ExitStatus.OK)
    assert "interrupted" not in stream.getvalue() and "pending" not in stream.getvalue()


def compile_interrupted(say) -> None:
    """A stand-in for the engine's compile of a minute, Ctrl-C coming half a second in."""
    import signal
    import time

    say("compiling")
    deadline = time.monotonic() + 0.5
    while time.monotonic() < deadline:
        time.sleep(0.01)
    signal.raise_signal(signal.SIGINT)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        time.sleep(0.01)
    raise AssertionError("the stop waited for the compile to end")


def test_a_stop_while_the_engine_compiles_does_not_wait_for_it(tmp_path):
    stream = io.StringIO()
    report = run_worded(options(tmp_path, count=3), stream=stream, task=Task(stand_in, prepare=compile_interrupted))
    assert (report.done, report.interrupted, exit_status(report)) == (0, True, ExitStatus.INTERRUPTED)
    assert "interrupted: 0 deals written, 3 left pending" in stream.getvalue()
    with Catalog(tmp_path / "catalog.sqlite") as catalog:
        assert catalog.count() == 0 and len(catalog.pending()) == 3


def test_a_stop_before_the_compile_does_not_start_it(tmp_path, monkeypatch):
    """A Ctrl-C while the deals are planned: the compile of a minute is not begun."""
    import signal

    plan = Catalog.plan

    def plan_then_ctrl_c(self, *args, **kwargs):
        planned = plan(self, *args, **kwargs)
        signal.raise_signal(signal.SIGINT)
        return planned

    monkeypatch.setattr(Catalog, "plan", plan_then_ctrl_c)
    compiled: list[str] = []
    report = run_worded(options(tmp_path, count=3), stream=io.StringIO(),
                       task=Task(stand_in, prepare=lambda say: compiled.append("compiled")))
    assert (report.done, report.interrupted, compiled) == (0, True, [])


def test_a_stop_while_the_grader_compiles_does_not_wait_for_it(tmp_path, monkeypatch):
    from spider_solver.batch import grading

    monkeypatch.setattr(grading, "prepare_grader", compile_interrupted)
    with Catalog(tmp_path / "catalog.sqlite") as catalog:
        done = grading.grade_all(catalog, ["SP1-S1C-AAAAAAA"], workers=1, bar=None)
    assert done.interrupted and done.done == 0


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_is_drawn_on_a_terminal_only_twice_a_second():
    assert progress_bar(3, io.StringIO(), quiet=False).disable  # a log file or pipe: no bar, as in every command
    assert progress_bar(3, Terminal(), quiet=False).mininterval == 0.5
    assert progress_bar(3, Terminal(), quiet=True).disable


def test_a_worker_slot_shows_its_deal_time_and_nodes_against_the_budget():
    import multiprocessing

    from spider_solver.batch import inflight

    slots = inflight.Slots(2, multiprocessing.get_context("spawn"))
    meter = inflight.Meter(slots, slots.claim())
    assert slots.claim() == 1 and slots.claim() is None  # two slots, two workers
    assert inflight.searching(slots) == []
    meter.begin("SP1-S4C-AAAAA55", 150_000_000)
    for _ in range(3):
        meter.update(20_000_000)
    (deal,) = inflight.searching(slots, now=time.time() + 60)
    assert (deal.name, deal.nodes, deal.budget) == ("SP1-S4C-AAAAA55", 60_000_000, 150_000_000)
    assert 59 <= deal.seconds <= 61 and 89 <= deal.most_left() <= 92  # 90M nodes left at 1M a second
    line = inflight.status_line([deal], few_left=False)
    assert line == "searching: SP1-S4C-AAAAA55 1 min 00 s, 60M of 150M nodes"
    assert inflight.status_line([inflight.Searching("X", 1.0, 5, 10)], few_left=False) == ""  # not long yet
    assert inflight.status_line([inflight.Searching("X", 1.0, 5, 10)], few_left=True) == "searching: X 1 s, 5 of 10 nodes"
    meter.end()
    assert inflight.searching(slots) == []


def test_a_search_counts_its_nodes_in_the_workers_slot_as_it_goes():
    import multiprocessing

    from spider_solver.batch import inflight
    from spider_solver.budget import Budget

    slots = inflight.Slots(1, multiprocessing.get_context("spawn"))
    meter = inflight.Meter(slots, slots.claim())
    meter.begin("D", 1_000)
    budget = Budget(1_000, progress=meter)
    part = budget.sub(400)
    part.spend(300)
    budget.spend(100)
    assert slots.read()[0][2] == 400 == budget.nodes


def test_the_batch_tells_a_log_file_which_deal_is_still_searching(monkeypatch):
    import multiprocessing

    from spider_solver.batch import inflight

    slots = inflight.Slots(1, multiprocessing.get_context("spawn"))
    inflight.Meter(slots, slots.claim()).begin("SP1-S4C-AAAAA55", 150_000_000)
    written: list[str] = []
    line = inflight.StatusLine(progress_bar(3, io.StringIO(), quiet=False), slots, terminal=False,
                               write=written.append)
    numbers = slots.numbers
    numbers[inflight.START] -= int(2 * inflight.LOG_EVERY * 1000)  # it began two minutes ago
    line.logged -= inflight.LOG_EVERY
    line.tick(1, force=True)
    assert written == ["searching: SP1-S4C-AAAAA55 2 min 00 s, 0 of 150M nodes"]
    line.tick(1, force=True)
    assert len(written) == 1  # once a minute


def test_interrupted_report_exits_130():
    assert exit_status(Report(interrupted=True)) == ExitStatus.INTERRUPTED


# --------------------------------------------------------------------------- #
# Dask: the same code path on a local cluster, real solves
# --------------------------------------------------------------------------- #


@pytest.mark.slow
def test_batch_on_a_local_dask_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        report = run_worded(Options(variant=Variant(1), count=3, catalog=str(tmp_path / "dask.sqlite"),
                                   max_nodes=1_000_000, max_seconds=20.0, scheduler=cluster.scheduler_address,
                                   quiet=True))
    assert exit_status(report) == ExitStatus.OK
    with Catalog(tmp_path / "dask.sqlite") as catalog:
        entries = list(catalog.entries())
        assert [entry.deal for entry in entries] == [0, 1, 2] and catalog.pending() == []
        # Real searches ran on the cluster's worker, within the budget sent with each deal.
        assert all(entry.max_nodes == 1_000_000 and 0 < entry.nodes <= 1_000_000 for entry in entries)
        assert all(entry.solver_version == __version__ for entry in entries)
        verified = [entry for entry in entries if entry.status == "verified"]
        assert verified, "1-suit deals at this budget should mostly verify"
        assert [check_solution(e.code, e.solution, moves=e.moves, score=e.score) for e in verified] == [None] * len(verified)
        # The grading jobs ran on the cluster too, after the solving.
        assert all(e.difficulty in range(1, 6) and e.grader_version == GRADER_VERSION for e in verified)
        assert report.ungraded == 0 and len(report.grade_seconds) == len(verified)


def interrupted_search(code: str, max_nodes: int, max_seconds: float | None) -> SolveRecord:
    """What solve() returns when Ctrl-C reaches the search (e.g. in a cluster worker's terminal)."""
    return SolveRecord(code, "unknown", nodes=5, seconds=0.01, max_nodes=max_nodes, max_seconds=max_seconds,
                       reason="interrupted")


def test_an_interrupted_search_is_not_stored_as_unknown(tmp_path):
    stream = io.StringIO()
    report = run_worded(options(tmp_path, count=2), stream=stream, task=Task(interrupted_search))
    assert report.done == 0 and exit_status(report) == ExitStatus.NOT_WON
    assert "2 deals not solved, left pending for the next run" in stream.getvalue()
    assert "warning: the search of SP1-S1C-AAAAAAA was interrupted in its worker; it stays pending" in stream.getvalue()
    with Catalog(tmp_path / "catalog.sqlite") as catalog:
        assert catalog.count() == 0 and catalog.pending() == ["SP1-S1C-AAAAAAA", "SP1-S1C-AAAAAAB"]


# --------------------------------------------------------------------------- #
# Grading: every deal solved first, then the verified ones graded
# --------------------------------------------------------------------------- #


def logged(kind: str, code: str) -> None:
    """One line ``kind code`` appended to the log file the test names (workers share it)."""
    with open(os.environ["SPIDER_TEST_LOG"], "a", encoding="utf-8") as log:
        log.write(f"{kind} {code}\n")


def logged_solve(code: str, max_nodes: int, max_seconds: float | None) -> SolveRecord:
    logged("solve", code)
    return stand_in_fixed(code, max_nodes, max_seconds)


def logged_grade(code: str) -> Graded:
    """Grade 1 + deal / 2 (deals 0, 2, 4 are verified); deal 4's grader fails."""
    logged("grade", code)
    number = GameCode.parse(code).number
    if number == 4:
        raise RuntimeError("grader bug on deal 4")
    return Graded(Grade(grade=1 + number // 2, raw=0.5, version="stand-in", win_rate=0.5, seconds=0.01))


def grading_batch(tmp_path, monkeypatch, solve, grade) -> tuple[Report, str]:
    """A batch of 6 deals on one worker with stand-in solve and grade tasks: its report and output."""
    monkeypatch.setenv("SPIDER_TEST_LOG", str(tmp_path / "log"))
    stream = Terminal()  # the bar is drawn on a terminal only
    report = run_worded(options(tmp_path, workers=1), stream=stream, task=Task(solve, grade=grade))
    return report, stream.getvalue()


def test_the_verified_deals_are_graded_after_every_deal_is_solved(tmp_path, monkeypatch):
    """So that a deal that searches long near the end runs beside the others' grading, not
    alone; a deal the grader fails on is written ungraded and said to be."""
    report, text = grading_batch(tmp_path, monkeypatch, logged_solve, logged_grade)
    kinds = [line.split()[0] for line in (tmp_path / "log").read_text().splitlines()]
    assert kinds == ["solve"] * 6 + ["grade"] * 3
    assert (report.done, report.ungraded, report.grading_cut, exit_status(report)) == (6, 1, 0, ExitStatus.OK)
    assert "warning: SP1-S1C-AAAAAAE stays ungraded: RuntimeError in a worker: grader bug on deal 4" in text
    assert "graded            2  (1: 1  2: 1  3: 0  4: 0  5: 0)" in text
    assert "ungraded          1  (spider-solve grade grades them)" in text
    # The bar counts the deals solved, then the verified ones graded: its last frame.
    assert "grading: 100%" in text and "3/3" in text and "graded=2" in text
    assert "all 6 deals solved; grading the verified: " in text  # the switch says so, with its own count
    with Catalog(tmp_path / "catalog.sqlite") as catalog:
        assert {entry.deal: entry.difficulty for entry in catalog.entries(status="verified")} == {0: 1, 2: 2, 4: None}


def test_a_resumed_batch_grades_the_verified_deals_an_earlier_run_left_ungraded(tmp_path, monkeypatch):
    """A run killed (kill -9) after writing deals 0-2 and before grading them: the next run
    takes over its pending deals and grades those three too, as every verified deal of
    its range (0 up to the last deal it plans); deal 4's grader fails, as above."""
    monkeypatch.setenv("SPIDER_TEST_LOG", str(tmp_path / "log"))
    variant = Variant(suits=1)
    with Catalog(tmp_path / "catalog.sqlite") as catalog:  # what the killed run left
        plan = catalog.plan(variant, 6, max_nodes=1000, max_seconds=5.0)
        for code in plan.codes[:3]:
            catalog.record(stand_in_fixed(code, 1000, 5.0))
        assert catalog.pending() == list(plan.codes[3:])
    stream = io.StringIO()
    report = run_worded(options(tmp_path, workers=1), stream=stream, task=Task(logged_solve, grade=logged_grade))
    text = stream.getvalue()
    assert "3 of them left pending by an earlier run), and grading 2 verified deals of the range left ungraded" in text
    log = (tmp_path / "log").read_text().split()
    assert [log[i + 1] for i in range(0, len(log), 2) if log[i] == "grade"][:2] == ["SP1-S1C-AAAAAAA",
                                                                                  "SP1-S1C-AAAAAAC"]
    assert (report.done, report.ungraded, exit_status(report)) == (6, 1, ExitStatus.OK)
    with Catalog(tmp_path / "catalog.sqlite") as catalog:
        grades = {entry.deal: entry.difficulty for entry in catalog.entries(status="verified")}
    assert grades == {0: 1, 2: 2, 4: None, 6: 4, 8: 5}  # deals 3-8 solved by this run


def test_a_batch_over_a_settled_range_grades_its_ungraded_deals(tmp_path, monkeypatch):
    """Nothing left to solve in --start's range, but verified deals without a grade (written
    by ``verify``, the service or ``--no-grade``): the batch grades them."""
    monkeypatch.setenv("SPIDER_TEST_LOG", str(tmp_path / "log"))
    run_worded(options(tmp_path, count=3, start=0, quiet=True), stream=io.StringIO(), task=Task(stand_in_fixed))
    stream = io.StringIO()
    report = run_worded(options(tmp_path, count=3, start=0), stream=stream, task=Task(logged_solve, grade=logged_grade))
    assert "grading 2 verified deals of the range left ungraded on " in stream.getvalue()
    assert (report.planned, report.ungraded, exit_status(report)) == (0, 0, ExitStatus.OK)
    assert (tmp_path / "log").read_text().split()[::2] == ["grade", "grade"]
    with Catalog(tmp_path / "catalog.sqlite") as catalog:
        assert {entry.deal: entry.difficulty for entry in catalog.entries(status="verified")} == {0: 1, 2: 2}


def stop_while_grading(code: str) -> Graded:
    import signal
    import time

    os.kill(os.getppid(), signal.SIGTERM)
    time.sleep(1.0)
    return logged_grade(code)


def test_a_stop_while_grading_is_an_interruption_that_says_what_is_left(tmp_path, monkeypatch):
    report, text = grading_batch(tmp_path, monkeypatch, logged_solve, stop_while_grading)
    assert (report.done, report.interrupted, exit_status(report)) == (6, True, ExitStatus.INTERRUPTED)
    assert report.grading_cut == report.ungraded >= 2
    assert (f"interrupted: 6 deals written, {report.grading_cut} verified not graded yet "
            "(spider-solve grade grades them)") in text
    with Catalog(tmp_path / "catalog.sqlite") as catalog:
        assert catalog.count() == 6 and catalog.pending() == []


def crash_grading(code: str) -> Graded:
    """The grader's worker process dies on deal 2."""
    if GameCode.parse(code).number == 2:
        os._exit(3)
    return logged_grade(code)


def test_a_worker_that_dies_while_grading_leaves_those_deals_ungraded_and_says_so(tmp_path, monkeypatch):
    report, text = grading_batch(tmp_path, monkeypatch, stand_in_fixed, crash_grading)
    assert report.done == 6 and report.broken is not None and exit_status(report) == ExitStatus.NOT_WON
    assert report.grading_cut >= 1 and not report.interrupted
    assert "error: the worker pool broke" in text
    assert text.rstrip().endswith(f"{report.grading_cut} verified deal{'s' if report.grading_cut > 1 else ''} "
                                  "not graded (spider-solve grade grades them)")


def test_a_verified_result_the_catalog_keeps_is_graded_only_if_its_row_is_not(tmp_path, monkeypatch):
    """A result that brings no better line keeps the stored row, and its grade: no grading
    spent on it again, no grade of another grader version overwritten. (Deal 0 left
    pending while the service stored a shorter line for it, say.)"""
    monkeypatch.setenv("SPIDER_TEST_LOG", str(tmp_path / "log"))
    assert run_worded(options(tmp_path, workers=1, count=3, quiet=True), task=Task(stand_in_fixed)).done == 3
    with Catalog(tmp_path / "catalog.sqlite") as catalog:
        catalog.set_grade("SP1-S1C-AAAAAAA", {"difficulty": 5, "difficulty_raw": 9.0, "grader_version": "older"})
        catalog.db.execute("UPDATE results SET solution = 'D', moves = 1 WHERE deal IN (0, 2)")  # better lines
        catalog.db.execute("UPDATE results SET difficulty = NULL WHERE deal = 2")
        catalog.db.execute("INSERT INTO pending VALUES ('SP1-S1C-AAAAAAA', 1, 'classic', 0, 'now'), "
                           "('SP1-S1C-AAAAAAC', 1, 'classic', 2, 'now')")
    report = run_worded(options(tmp_path, workers=1, count=2, quiet=True), task=Task(logged_solve, grade=logged_grade))
    assert (report.done, report.kept, report.ungraded) == (2, 2, 0)
    assert (tmp_path / "log").read_text().split("\n").count("grade SP1-S1C-AAAAAAC") == 1
    assert "grade SP1-S1C-AAAAAAA" not in (tmp_path / "log").read_text()
    with Catalog(tmp_path / "catalog.sqlite") as catalog:
        assert (catalog.get("SP1-S1C-AAAAAAA").difficulty, catalog.get("SP1-S1C-AAAAAAA").grader_version) == (5, "older")
        assert catalog.get("SP1-S1C-AAAAAAC").difficulty == 2 and catalog.get("SP1-S1C-AAAAAAC").moves == 1


def test_a_write_that_fails_mid_run_says_what_was_written_and_what_is_left(tmp_path, monkeypatch):
    """A full disk at the third result: the summary and the pending deals are said, then
    the error is raised for the command's error line (it used to be that line alone)."""
    from spider_solver.errors import CatalogError

    record = Catalog.record
    calls = []

    def record_until_the_disk_is_full(self, result, **kwargs):
        calls.append(result.code)
        if len(calls) == 3:
            raise CatalogError("cannot write 'X' to catalog: database or disk is full")
        return record(self, result, **kwargs)

    monkeypatch.setattr(Catalog, "record", record_until_the_disk_is_full)
    stream = io.StringIO()
    with pytest.raises(CatalogError, match="disk is full"):
        run_worded(options(tmp_path, count=6, workers=1), stream=stream, task=Task(stand_in))
    text = stream.getvalue()
    assert "catalog           2 added or improved" in text, text
    assert "4 deals not written, left pending for the next run" in text
    monkeypatch.setattr(Catalog, "record", record)
    with Catalog(tmp_path / "catalog.sqlite") as catalog:
        assert catalog.count() == 2 and len(catalog.pending()) == 4


def test_a_stop_while_a_write_waits_for_the_lock_keeps_the_summary(tmp_path, monkeypatch):
    """The third write waits for another process's lock and a stop is asked meanwhile: the
    wait ends (stop_check raises), and the batch sums up as for any stop."""
    import signal

    record = Catalog.record
    calls = []

    def record_waiting_for_a_lock(self, result, **kwargs):
        calls.append(result.code)
        if len(calls) == 3:
            signal.raise_signal(signal.SIGINT)  # Ctrl-C: the stop request's flag is set
            self.stop_check()  # what the wait for the lock does between two tries
        return record(self, result, **kwargs)

    monkeypatch.setattr(Catalog, "record", record_waiting_for_a_lock)
    stream = io.StringIO()
    report = run_worded(options(tmp_path, count=6, workers=1), stream=stream, task=Task(stand_in))
    assert report.interrupted and report.done == 2 and exit_status(report) == ExitStatus.INTERRUPTED
    text = stream.getvalue()
    assert "catalog           2 added or improved" in text and "interrupted: 2 deals written, 4 left pending" in text


def test_the_summary_names_unwinnable_deals_with_their_proofs_counters():
    report = Report(planned=7)
    proof = AttemptSummary(None, SearchMode.PROOF, BeamOutcome.EXHAUSTED, nodes=1234, levels=9, peak_level=80,
                           tt_stored=456)
    for n in range(7):
        report.add(SolveRecord(f"SP1-S1C-AAAAAA{'ABCDEFG'[n]}", "unwinnable", attempts=(proof,) if n else ()),
                   stored=True)
    line = next(row for row in report.summary().splitlines() if row.startswith("unwinnable"))
    # The first five deals with counters are named; the sixth and the one without counters are counted.
    named = "; ".join(f"SP1-S1C-AAAAAA{letter} 1,234 nodes, 456 positions" for letter in "BCDEF")
    assert line == f"unwinnable        7  (proofs: {named}; 2 more)"
