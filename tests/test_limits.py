"""Which default budget each entry point takes.

``solve`` (``verify``, the batch) gets ``DEFAULT_MAX_NODES``, large enough for the
widest beam of the schedule to finish on the hard deals; what a person waits for
(``analyze``, ``hint``, the service's caps) keeps ``INTERACTIVE_MAX_NODES``. Only what a
person waits for has a default seconds limit.
"""

from __future__ import annotations

import inspect

import pytest
from click.testing import CliRunner

from spider_solver.analysis import Analysis, AnalysisOptions, analyze
from spider_solver.batch.improve import ImproveOptions
from spider_solver.batch.run import Options as BatchOptions
from spider_solver.cli import cli
from spider_solver.service.state import Settings
from spider_solver.verify import (
    DEFAULT_MAX_NODES,
    DEFAULT_MAX_SECONDS,
    IMPROVE_MAX_SECONDS,
    INTERACTIVE_MAX_NODES,
    INTERACTIVE_MAX_SECONDS,
    SolveRecord,
    improve,
    solve,
)


def test_the_solver_budget_is_the_larger_one():
    assert DEFAULT_MAX_NODES > INTERACTIVE_MAX_NODES
    defaults = inspect.signature(solve).parameters
    assert (defaults["max_nodes"].default, defaults["max_seconds"].default) == (DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS)
    assert (SolveRecord.max_nodes, SolveRecord.max_seconds) == (DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS)
    options = BatchOptions.__dataclass_fields__
    assert (options["max_nodes"].default, options["max_seconds"].default) == (DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS)


def test_the_nodes_alone_decide_verify_the_batch_improve_and_grade():
    """No default seconds limit where results are recorded: a slow or
    busy machine gets the same outcome, nodes and line (benchmarks/machine_speed.py)."""
    assert DEFAULT_MAX_SECONDS is None and IMPROVE_MAX_SECONDS is None
    assert inspect.signature(improve).parameters["max_seconds"].default is None
    assert ImproveOptions().max_seconds is None
    for command in (["verify"], [], ["improve"]):
        text = " ".join(CliRunner().invoke(cli, [*command, "--help"]).output.split())
        assert "--max-seconds" in text and "none: the nodes decide" in text, command


def test_what_a_person_waits_for_keeps_the_interactive_budget():
    assert (AnalysisOptions.max_nodes, AnalysisOptions.max_seconds) == (INTERACTIVE_MAX_NODES, INTERACTIVE_MAX_SECONDS)
    assert inspect.signature(analyze).parameters["options"].default == AnalysisOptions()
    assert (Analysis.max_nodes, Analysis.max_seconds) == (INTERACTIVE_MAX_NODES, INTERACTIVE_MAX_SECONDS)
    assert (Settings().max_nodes_cap, Settings().max_seconds_cap) == (INTERACTIVE_MAX_NODES, INTERACTIVE_MAX_SECONDS)


@pytest.mark.parametrize("command, nodes", [
    (["verify"], DEFAULT_MAX_NODES), ([], DEFAULT_MAX_NODES),
    (["analyze"], INTERACTIVE_MAX_NODES), (["hint"], INTERACTIVE_MAX_NODES),
    (["serve"], INTERACTIVE_MAX_NODES),
])
def test_the_commands_show_their_default(command, nodes):
    text = " ".join(CliRunner().invoke(cli, [*command, "--help"]).output.split())
    assert f"{nodes:,}" in text or str(nodes) in text


def test_improves_estimate_is_its_measured_rate():
    """The node rate behind ``improve``'s estimate is the measured one:
    the default budget over the median seconds a deal, on one core."""
    import json
    from pathlib import Path

    from spider_solver.limits import IMPROVE_MAX_NODES, IMPROVE_NODE_RATE

    results = Path(__file__).resolve().parents[1] / "benchmarks" / "results"
    for suits, rate in IMPROVE_NODE_RATE.items():
        (row,) = json.loads((results / f"improve-s{suits}.json").read_text())["tables"]["improve"]["rows"]
        assert row["max_nodes"] == IMPROVE_MAX_NODES[suits]
        assert abs(rate - row["max_nodes"] / row["s_median"]) <= 0.05 * rate, suits


def test_the_batch_and_grade_estimates_are_their_measured_figures():
    """The CPU seconds a deal behind the estimates the batch and ``grade`` print: a whole
    default batch's CPU over its deals, and a regrade's over its verified deals (batch-s*.json)."""
    import json
    from pathlib import Path

    from spider_solver.limits import BATCH_CPU_SECONDS, DEFAULT_MAX_NODES, GRADE_CPU_SECONDS

    results = Path(__file__).resolve().parents[1] / "benchmarks" / "results"
    for suits in (1, 2, 4):
        (row,) = json.loads((results / f"batch-s{suits}.json").read_text())["tables"]["batch"]["rows"]
        assert row["command"].startswith(f"spider-solve --suits {suits} ") and row["budget"] == [DEFAULT_MAX_NODES, None]
        assert abs(BATCH_CPU_SECONDS[suits] - row["cpu_per_deal"]) <= 0.05 * BATCH_CPU_SECONDS[suits], suits
        assert abs(GRADE_CPU_SECONDS[suits] - row["grade_cpu_per_deal"]) <= 0.05 * GRADE_CPU_SECONDS[suits], suits


def test_the_batch_estimates_only_its_default_budget():
    from spider_solver.batch.run import Options, _plan_cpu_seconds
    from spider_solver.limits import BATCH_CPU_SECONDS, GRADE_CPU_SECONDS
    from spider_solver.rules import Variant

    options = Options(variant=Variant(suits=2))
    assert _plan_cpu_seconds(options, 10, 3, grade=True) == pytest.approx(
        10 * BATCH_CPU_SECONDS[2] + 3 * GRADE_CPU_SECONDS[2])
    assert _plan_cpu_seconds(options, 10, 0, grade=False) == pytest.approx(
        10 * max(BATCH_CPU_SECONDS[2] - GRADE_CPU_SECONDS[2], 0.0))
    assert _plan_cpu_seconds(Options(variant=Variant(suits=2), max_nodes=1_000), 10, 0, grade=True) is None
