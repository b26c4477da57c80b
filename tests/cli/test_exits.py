"""The command line's exit statuses are decided in one place (spider_solver/cli/exits.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import click
import pytest

from spider_solver.batch.report import ImproveReport, Report
from spider_solver.cli import exits
from spider_solver.errors import InvalidCodeError
from spider_solver.outcomes import ExitStatus, Status

CLI = Path(__file__).resolve().parents[2] / "spider_solver" / "cli"


def exits_called() -> list[str]:
    """Each ``sys.exit(...)`` and ``ctx.exit(...)`` in the command line's modules, as module:function."""
    found = []
    for path in sorted(CLI.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for node in ast.walk(function):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "exit"
                        and isinstance(node.func.value, ast.Name) and node.func.value.id in ("sys", "ctx")):
                    found.append(f"{path.stem}:{function.name}")
    return found


def test_only_the_group_ends_the_process():
    """Commands return their status; the group's main is the one exit (and export --schema's
    eager option, which click ends before the command runs)."""
    assert sorted(exits_called()) == ["catalogs:_print_schema", "group:main"]


@pytest.mark.parametrize(("error", "status"), [
    (InvalidCodeError("bad"), ExitStatus.BAD_INPUT), (KeyboardInterrupt(), ExitStatus.INTERRUPTED),
    (click.Abort(), ExitStatus.INTERRUPTED), (BrokenPipeError(), ExitStatus.NOT_WON),
    (OSError("disk full"), ExitStatus.BAD_INPUT), (click.UsageError("no"), ExitStatus.BAD_INPUT),
])
def test_an_error_has_its_status(error, status):
    assert exits.of_error(error) is status


def test_each_outcome_has_the_status_of_the_table():
    assert [exits.of_outcome(s) for s in Status] == [ExitStatus.OK, ExitStatus.NOT_WON, ExitStatus.UNKNOWN]
    assert (exits.of_replay(True, False), exits.of_replay(False, False), exits.of_replay(True, True)) == (
        ExitStatus.OK, ExitStatus.NOT_WON, ExitStatus.BAD_INPUT)
    assert (exits.of_check(0), exits.of_check(2)) == (ExitStatus.OK, ExitStatus.NOT_WON)
    assert exits.of_batch(Report(planned=2, statuses={"verified": 2})) is ExitStatus.OK  # type: ignore[arg-type]
    assert exits.of_batch(Report(planned=3, statuses={"verified": 2})) is ExitStatus.NOT_WON  # type: ignore[arg-type]
    assert exits.of_batch(Report(planned=3, interrupted=True)) is ExitStatus.INTERRUPTED
    assert exits.of_improve(ImproveReport(failed=["x"])) is ExitStatus.NOT_WON
    assert exits.of_improve(ImproveReport(interrupted=True)) is ExitStatus.INTERRUPTED
    assert exits.of_improve(ImproveReport()) is ExitStatus.OK


def test_the_resource_trackers_report_of_killed_workers_stays_off_standard_error():
    """A command stopped by Ctrl-C or SIGTERM kills its workers; the standard library's
    resource tracker then warned, after the command's last line ("interrupted"), of the
    semaphores they held, which it cleans up itself (seen once in the review's SIGTERM
    test). The command starts the tracker with its warnings off; without that, the same
    leak is reported."""
    import subprocess
    import sys

    from spider_solver._console import TRACKER_WARNINGS

    leak = ("import multiprocessing, os, sys; {}lock = multiprocessing.get_context('spawn').Lock(); "
            "os._exit(0)")  # no finalizer runs: the tracker finds the semaphore left
    loud = subprocess.run([sys.executable, "-c", leak.format("")], capture_output=True, text=True, timeout=60)
    assert "leaked semaphore" in loud.stderr
    quiet = subprocess.run([sys.executable, "-c", leak.format(f"sys.warnoptions.append({TRACKER_WARNINGS!r}); ")],
                           capture_output=True, text=True, timeout=60)
    assert quiet.stderr == ""
