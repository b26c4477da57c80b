"""solve(): the Python API of the search engine, on real deals at small budgets.

A verified result is replayed here again on the reference rules engine; budgets
give "unknown" honestly; the same deal and budget give the same result; the
result object and the accepted deal forms are those the docs promise.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import replace
from pathlib import Path

import pytest

from spider_solver.errors import InvalidBudgetError, InvalidCodeError, SpiderError
from spider_solver.outcomes import AttemptSummary, BeamOutcome, Reason, SearchMode, Status
from spider_solver.record import FIELD_NAMES
from spider_solver.rules import RUN_BONUS, START_SCORE, Deal, GameCode, replay
from spider_solver.rules.variant import Variant
from spider_solver.verify import (
    MAX_NODES_LIMIT,
    MAX_SECONDS_LIMIT,
    SolveRecord,
    check_budget,
    check_solution,
    improve,
    solve,
)
from tests.processes import alive, children

pytestmark = pytest.mark.usefixtures("engine")

#: Enough for the deals below (each is won within about 2 million nodes).
BUDGET = 3_000_000

#: Deals won at the first beam width, by suit count and rule.
QUICK = ["SP1-S1C-AAAAABA", "SP1-S2C-AAAAAAD", "SP1-S2R-AAAAAAB", "SP1-S4C-AAAAAAD", "SP1-S4R-AAAAAAC"]
#: A 4-suit deal for the widening and determinism tests.
WIDENS = "SP1-S4C-AAAAACA"


def solved(deal, **options) -> SolveRecord:
    options.setdefault("max_nodes", BUDGET)
    options.setdefault("max_seconds", None)
    return solve(deal, **options)


def assert_wins(deal: Deal, result: SolveRecord, *, deal_on_empty: bool = False) -> None:
    """The stated line wins on the reference engine, with the stated length and score."""
    assert result.status == "verified" and result.reason == "won"
    replayed = replay(deal, result.solution, deal_on_empty=deal_on_empty, undo_limit=0)
    assert replayed.error is None
    assert replayed.won
    assert replayed.played == result.solution  # the solution is written canonically
    assert result.moves == replayed.moves == len(result.solution)
    assert result.score == replayed.score
    # RULES.md: a win in n actions that never reaches 0 scores 500 - n + 8 x 100.
    assert result.score == START_SCORE - result.moves + RUN_BONUS * deal.variant.runs
    assert "U" not in result.solution


@pytest.mark.parametrize("code", QUICK)
def test_verified_lines_win_on_the_reference_engine(code):
    deal = Deal.from_code(code)
    began = time.monotonic()
    result = solved(code)
    elapsed = time.monotonic() - began
    assert_wins(deal, result)
    assert result.code == str(deal.code) == code
    assert 0 < result.nodes <= BUDGET + 1_000_000
    assert 0 < result.seconds <= elapsed  # the search's own time, in seconds


def test_the_driver_widens_the_beam_until_it_wins():
    # A beam one position wide loses nearly every 4-suit deal; the next width wins.
    from spider_solver.budget import Budget
    from spider_solver.engine.driver import SearchOptions, run_search

    result = run_search(Deal.from_code(WIDENS), budget=Budget(BUDGET), options=SearchOptions(widths=(1, 2, 128)))
    assert result.reason == "won" and result.actions is not None
    assert replay(Deal.from_code(WIDENS), result.actions, undo_limit=0).won
    widths = [a.width for a in result.attempts]
    assert len(widths) >= 2 and widths == sorted(widths) and len(set(widths)) == len(widths)
    assert [a.outcome for a in result.attempts][-1] == "won"
    assert all(a.outcome != "won" for a in result.attempts[:-1])
    assert result.nodes == sum(a.nodes for a in result.attempts)


def test_the_same_deal_and_budget_give_the_same_result():
    first = solved(WIDENS)
    second = solved(WIDENS)
    assert (first.status, first.solution, first.nodes, first.reason) == (second.status, second.solution, second.nodes,
                                                                         second.reason)
    assert [replace(a, seconds=0) for a in first.attempts] == [replace(a, seconds=0) for a in second.attempts]


def test_a_bigger_budget_finds_the_same_line():
    # Nodes only stop the search; they never steer it.
    small = solved(WIDENS)
    big = solved(WIDENS, max_nodes=4 * BUDGET)
    assert big.solution == small.solution and big.nodes == small.nodes


def test_a_budget_cut_is_deterministic_too():
    first = solved(WIDENS, max_nodes=20_000)
    second = solved(WIDENS, max_nodes=20_000)
    assert first.status == second.status == "unknown"
    assert first.nodes == second.nodes == 20_000 and first.reason == second.reason == "nodes"


@pytest.mark.parametrize("code", ["SP1-S1C-AAAAABA", "SP1-S2C-AAAAAAD", "SP1-S4C-AAAAAAD", "SP1-S4R-AAAAAAC"])
@pytest.mark.parametrize("max_nodes", [1, 100, 5_000])
def test_a_tiny_node_budget_is_unknown_never_a_win_or_a_loss(code, max_nodes):
    result = solved(code, max_nodes=max_nodes)
    assert result.status == "unknown"
    assert result.reason == "nodes"
    assert result.nodes == max_nodes  # the budget is exact: a level stops where it runs out
    assert result.solution == () and result.moves is None and result.score is None


def test_a_seconds_cut_is_unknown():
    result = solve(WIDENS, max_nodes=BUDGET, max_seconds=1e-6)
    assert result.status == "unknown"
    assert result.reason == "seconds"
    assert result.solution == () and result.moves is None and result.score is None
    assert result.max_seconds == 1e-6


def test_to_dict():
    result = solved("SP1-S2C-AAAAAAD", max_nodes=BUDGET)
    data = result.to_dict()
    assert tuple(data) == FIELD_NAMES  # the record's one plain-data form; the attempts are not in it
    assert data["code"] == "SP1-S2C-AAAAAAD"
    assert type(data["status"]) is str and data["status"] == Status.VERIFIED == "verified"
    assert data["solution"] == list(result.solution) and isinstance(data["solution"], list)
    assert all(isinstance(token, str) for token in data["solution"])
    assert (data["moves"], data["score"], data["nodes"]) == (result.moves, result.score, result.nodes)
    assert (data["max_nodes"], data["max_seconds"], data["reason"]) == (BUDGET, None, "won")
    assert (data["suits"], data["rule"], data["deal"], data["par"]) == (2, "classic", 3, result.score)
    assert all(isinstance(a, AttemptSummary) for a in result.attempts)
    assert {"width", "mode", "outcome", "nodes"} <= set(result.attempts[0].to_dict())
    import json

    assert json.loads(json.dumps(data)) == data


def test_to_dict_of_an_unknown_result():
    data = solved("SP1-S2C-AAAAAAD", max_nodes=10).to_dict()
    assert (data["status"], data["solution"], data["moves"], data["score"], data["reason"]) == (
        "unknown", [], None, None, "nodes")


def test_solve_accepts_a_code_string_a_game_code_and_a_deal():
    code = "SP1-S2C-AAAAAAD"
    results = [
        solved(code),
        solved("  sp1-s2c-aaaaaad "),
        solved(GameCode.parse(code)),
        solved(Deal.from_code(code)),
    ]
    for result in results:
        assert result.code == code
        assert_wins(Deal.from_code(code), result)
    assert len({(r.solution, r.nodes) for r in results}) == 1


def test_a_bad_code_is_refused_with_the_library_error():
    assert issubclass(InvalidCodeError, SpiderError)
    with pytest.raises(InvalidCodeError, match=r"^invalid game code 'SP1-S3C-AAAAAAD': suit count '3'"):
        solve("SP1-S3C-AAAAAAD", max_nodes=100)
    with pytest.raises(InvalidCodeError, match=r"^invalid game code 'not a code': expected three parts"):
        solve("not a code", max_nodes=100)


def test_an_explicit_deal():
    deck = Variant(suits=2).unshuffled()
    random.Random(2024).shuffle(deck)
    deal = Deal.from_text(" ".join(str(card) for card in deck), 2, "classic")
    result = solved(deal)
    assert result.code is None
    assert_wins(deal, result)


def test_deal_on_empty_lines_replay_with_the_option():
    deal = Deal.from_code("SP1-S1C-AAAAABA")
    result = solved(deal, deal_on_empty=True)
    assert_wins(deal, result, deal_on_empty=True)


def test_ctrl_c_gives_an_unknown_result(monkeypatch):
    import spider_solver.engine.beam as beam

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(beam, "step_level", interrupted)
    result = solve(WIDENS, max_nodes=BUDGET, max_seconds=None)
    assert (result.status, result.reason) == ("unknown", "interrupted")
    assert result.solution == () and result.moves is None


def test_ctrl_c_during_the_post_pass_gives_an_unknown_result_too(monkeypatch):
    """A won line's post-pass (rephase.polish, on at 1 suit) runs beams of its own, which
    take a Ctrl-C as their stop: the solve must still end interrupted, not verified (the
    warm-up of every command solves a 1-suit deal, and lost a Ctrl-C that way)."""
    import spider_solver.engine.beam as beam
    import spider_solver.engine.rephase as rephase

    assert rephase.POLISH_NODES[1] > 0
    real_beam = rephase.beam
    polished = []

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    def beam_of_the_post_pass(*args, **kwargs):
        polished.append(True)
        monkeypatch.setattr(beam, "step_level", interrupted)
        return real_beam(*args, **kwargs)

    monkeypatch.setattr(rephase, "beam", beam_of_the_post_pass)
    result = solve("SP1-S1C-AAAAAAD", max_nodes=BUDGET, max_seconds=None)
    assert polished
    assert (result.status, result.reason) == ("unknown", "interrupted")
    assert result.solution == () and result.moves is None


def test_a_result_read_back_from_json_equals_the_result():
    """to_dict() is what JSON and the catalog take; a result rebuilt from it is the same
    result (its solution a tuple again, so it hashes), and two runs of one deal are equal
    results although their seconds differ."""
    import json

    first = solve("SP1-S1C-AAAAAAD", max_nodes=2_000_000)
    again = solve("SP1-S1C-AAAAAAD", max_nodes=2_000_000)
    assert first == again and first.solution == again.solution
    rebuilt = SolveRecord.from_dict(json.loads(json.dumps(first.to_dict())))
    assert rebuilt == first and isinstance(rebuilt.solution, tuple) and hash(rebuilt.solution)


def test_an_unknown_result_must_say_why():
    with pytest.raises(ValueError, match=r"an unknown result must say why the search stopped \(reason=...\)"):
        SolveRecord(code=None, status="unknown")
    with pytest.raises(ValueError, match=r"invalid deal_on_empty 'no'"):
        solve("SP1-S1C-AAAAAAD", deal_on_empty="no")


@pytest.mark.parametrize("max_nodes, max_seconds", [
    (0, None), (-1, None), (True, None), (10**15 + 1, None), (1.5, None),
    (1, 0), (1, 0.0), (1, -1.0), (1, True), (1, 1e7 + 1), (1, float("nan")), (1, float("inf")), (1, "5"),
])
def test_a_budget_out_of_range_is_refused_before_any_search(max_nodes, max_seconds):
    with pytest.raises(InvalidBudgetError, match=r"^invalid max_(nodes|seconds) "):
        solve("SP1-S1C-AAAAAAD", max_nodes=max_nodes, max_seconds=max_seconds)


def test_the_budget_limits_themselves_are_accepted():
    for max_nodes, max_seconds in ((1, None), (MAX_NODES_LIMIT, MAX_SECONDS_LIMIT), (1, 0.001)):
        check_budget(max_nodes, max_seconds)


def test_a_line_the_rules_engine_does_not_replay_to_a_win_is_unknown_never_verified(monkeypatch, capsys):
    """The engine's word is not enough: if the reference rules engine does not replay its
    line to a win (the engines disagree), the deal is unknown, reason rejected."""
    import spider_solver.engine.driver as driver

    def disagreeing(deal, **options):
        return driver.EngineResult(actions=("D",), reason=Reason.WON, nodes=7, seconds=0.0)

    monkeypatch.setattr(driver, "run_search", disagreeing)
    result = solve("SP1-S1C-AAAAAAD", max_nodes=100, max_seconds=None)
    assert (result.status, result.reason, result.solution, result.moves, result.score) == (
        "unknown", "rejected", (), None, None)
    assert "the engine's line was refused by the rules engine" in capsys.readouterr().err


def test_improve_keeps_the_given_line_if_the_shorter_one_does_not_win(monkeypatch, capsys):
    """A shorter line from the engine that the rules engine does not replay to a win is
    dropped: the result is the line given, not improved."""
    import types

    import spider_solver.engine.rephase as rephase

    given = solved(QUICK[0])
    monkeypatch.setattr(rephase, "improve_moves",
                        lambda game, moves, budget: types.SimpleNamespace(line=moves[:-1], stopped=""))
    result = improve(QUICK[0], given.solution, max_nodes=100, max_seconds=None)
    assert (result.solution, result.moves, result.score, result.improved) == (
        given.solution, given.moves, given.score, False)
    assert "the engine's shorter line was refused by the rules engine" in capsys.readouterr().err


def test_check_solution_holds_the_stored_move_count_and_score_to_the_replay():
    result = solved(QUICK[0])
    assert check_solution(QUICK[0], result.solution, moves=result.moves, score=result.score) is None
    assert check_solution(QUICK[0], result.solution, moves=result.moves + 1, score=result.score) == (
        f"wins, but in {result.moves} actions, not the {result.moves + 1} stored")
    assert check_solution(QUICK[0], result.solution, moves=result.moves, score=result.score + 1) == (
        f"wins, but with score {result.score}, not the {result.score + 1} stored")


# --------------------------------------------------------------------------- #
# The compile: Ctrl-C stops it at once
# --------------------------------------------------------------------------- #


def compiles_for_ever() -> None:
    """A stand-in for numba's compile of a minute (top level: the child imports it); it
    says it has started by making the file ``$SPIDER_TEST_STARTED`` names, if set."""
    import os
    from pathlib import Path

    if os.environ.get("SPIDER_TEST_STARTED"):
        Path(os.environ["SPIDER_TEST_STARTED"]).touch()
    while True:
        time.sleep(0.05)


def compile_fails() -> None:
    raise RuntimeError("no compiler")


def test_a_ctrl_c_while_the_engine_compiles_apart_stops_at_once_and_ends_the_child(tmp_path, monkeypatch):
    import os
    import signal
    import threading

    from spider_solver.engine import compile_apart

    started, done, sent = tmp_path / "started", threading.Event(), []
    monkeypatch.setenv("SPIDER_TEST_STARTED", str(started))

    def ctrl_c_once_the_child_compiles() -> None:
        deadline = time.monotonic() + 60
        while not started.exists() and not done.is_set() and time.monotonic() < deadline:
            time.sleep(0.02)
        if not done.is_set():  # never into a later test
            sent.append(time.monotonic())
            os.kill(os.getpid(), signal.SIGINT)

    children_before = set(_children())
    waiter = threading.Thread(target=ctrl_c_once_the_child_compiles)
    waiter.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            compile_apart(compiles_for_ever)
        stopped = time.monotonic()
    finally:
        done.set()
        waiter.join()
    assert started.exists() and stopped - sent[0] < 5  # the child was compiling; the stop came at once
    assert set(_children()) <= children_before  # terminated, not left compiling


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the child by /proc")
def test_a_kill_9_of_the_command_while_it_compiles_apart_ends_the_compiling_child_too(tmp_path):
    """The child holds the command's stderr: left compiling, it kept a caller that reads the
    command's output waiting for a minute after the command was gone (seen in a test of a
    batch killed during its first compile)."""
    import os
    import signal
    import subprocess
    import sys

    started = tmp_path / "started"
    script = ("import sys; sys.path.insert(0, sys.argv[1]); from tests.test_verify import compiles_for_ever; "
              "from spider_solver.engine import compile_apart; compile_apart(compiles_for_ever)")
    command = subprocess.Popen([sys.executable, "-c", script, str(Path(__file__).parent.parent)],
                               env={**os.environ, "SPIDER_TEST_STARTED": str(started)})
    try:
        deadline = time.monotonic() + 60
        while not started.exists() and command.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert started.exists(), "the child never started compiling"
        compiling = children(command.pid)
        assert compiling
        command.send_signal(signal.SIGKILL)
        command.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in compiling) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(pid) for pid in compiling), "the compiling child outlived the command"
    finally:
        command.kill()


def test_a_compile_that_fails_apart_says_so_for_the_caller_to_meet_the_error_in_place(capfd):
    from spider_solver.engine import compile_apart

    assert compile_apart(compile_fails) is False
    assert "RuntimeError: no compiler" in capfd.readouterr().err


def test_the_warm_up_passes_on_a_ctrl_c_its_search_took_as_its_own_stop(monkeypatch):
    """A Ctrl-C during the in-place compile ends the warm-up's search as "interrupted";
    the warm-up must not return as if the engine were ready."""
    import spider_solver.engine
    from spider_solver.engine import driver
    from spider_solver.outcomes import Reason

    interrupted = driver.EngineResult(actions=None, reason=Reason.INTERRUPTED, nodes=0, seconds=0.0)
    monkeypatch.setattr(driver, "run_search", lambda *args, **kwargs: interrupted)
    with pytest.raises(KeyboardInterrupt):
        spider_solver.engine.warm_up()


def _load_with(monkeypatch, warm, *, compiled: bool = True) -> None:
    """load_kernels with ``warm`` as the load (``compiled``: the cache holds the kernels;
    they load by running ``warm``, as when the entry kernels cannot be loaded alone)."""
    import spider_solver.engine

    monkeypatch.setattr(spider_solver.engine, "is_compiled", lambda fair=False: compiled)
    monkeypatch.setattr(spider_solver.engine._cache, "load_cached", lambda kernels: False)
    spider_solver.engine.load_kernels(warm)


def test_a_ctrl_c_while_cached_kernels_load_waits_for_the_load_to_end(monkeypatch):
    """numba loads cached kernels through llvmlite callbacks, where a KeyboardInterrupt is
    lost or crashes the process: the load holds it and raises it as it ends."""
    import signal

    events = []

    def load():
        signal.raise_signal(signal.SIGINT)
        events.append("loaded")

    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt):
        _load_with(monkeypatch, load)
    assert events == ["loaded"]
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_a_compile_in_place_does_not_hold_a_ctrl_c(monkeypatch):
    """Without a cache the kernels compile in place (no child: the caller gave no ``say``),
    a minute of it: a Ctrl-C must not wait for that."""
    import signal

    events = []

    def compile_here():
        signal.raise_signal(signal.SIGINT)
        events.append("compiled")

    with pytest.raises(KeyboardInterrupt):
        _load_with(monkeypatch, compile_here, compiled=False)
    assert events == []


def _children() -> list[int]:
    import multiprocessing

    return [child.pid for child in multiprocessing.active_children() if child.pid is not None]


def test_a_compile_apart_that_cannot_start_a_process_leaves_the_compile_to_the_caller(monkeypatch):
    import multiprocessing.context

    from spider_solver.engine import compile_apart

    def no_process(self):
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(multiprocessing.context.SpawnProcess, "start", no_process)
    assert compile_apart(compiles_for_ever) is False


def compiles_a_while() -> None:
    """A stand-in for a compile in a child: writes when it starts and ends, two seconds apart."""
    import os
    from pathlib import Path

    out = Path(os.environ["SPIDER_TEST_STAGES"]) / str(os.getpid())
    out.write_text(f"{time.time()}\n")
    time.sleep(2)
    out.write_text(out.read_text() + f"{time.time()}\n")


@pytest.mark.parametrize("cores", [2, 1])
def test_two_stages_compile_side_by_side_when_there_are_two_cores(tmp_path, monkeypatch, cores):
    import os

    import spider_solver.engine
    from spider_solver.engine import Stage, load_stages

    monkeypatch.setenv("SPIDER_TEST_STAGES", str(tmp_path))
    monkeypatch.setattr(spider_solver.engine, "is_compiled", lambda fair=False: False)
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    said: list[str] = []
    stages = [Stage(compiles_a_while, False, "the first", "compiling the first", 3),
              Stage(compiles_a_while, True, "the second", "compiling the second", 4)]
    load_stages(stages, say=said.append, here=False)
    spans = sorted([float(t) for t in path.read_text().split()] for path in tmp_path.iterdir())
    assert len(spans) == 2
    assert (spans[1][0] < spans[0][1]) is (cores == 2)  # the second started before the first ended
    assert said[:2] == ["compiling the first", "compiling the second"]
    assert sorted(re.sub(r"in [0-9]+ s", "in N s", line) for line in said[2:]) == [
        "compiled the first: 0 kernels in N s", "compiled the second: 0 kernels in N s"]


def test_a_compile_on_a_terminal_shows_kernel_n_of_m_and_the_seconds(monkeypatch, capsys):
    import spider_solver.engine
    from spider_solver.engine import CompileProgress, Stage

    monkeypatch.setattr(spider_solver.engine, "is_terminal", lambda stream: True)
    said: list[str] = []
    progress = CompileProgress([Stage(compiles_a_while, False, "the search engine", "", 50),
                                Stage(compiles_a_while, True, "the grader", "", 5)], said.append)
    progress.compiled(0)
    progress.compiled(0)
    progress.compiled(1)
    progress.draw()
    progress.end(1)
    progress.end(0)
    err = capsys.readouterr().err
    lines = [line.replace("\x1b[K", "") for line in err.split("\r") if line]
    assert re.fullmatch(r"compiling the search engine: kernel 2 of 50, the grader: kernel 1 of 5, [0-9]+ s", lines[0])
    assert re.fullmatch(r"compiling the search engine: kernel 2 of 50 \(done\), the grader: kernel 1 of 5 \(done\), "
                        r"[0-9]+ s\n", lines[-1])
    assert said == []  # on a terminal the line says it all


def test_a_quiet_compile_draws_no_line_even_on_a_terminal(monkeypatch, capsys):
    """``-q`` (say = terminal.silent): no message and no progress line, terminal or not."""
    import spider_solver.engine
    from spider_solver.engine import CompileProgress, Stage
    from spider_solver.terminal import silent

    monkeypatch.setattr(spider_solver.engine, "is_terminal", lambda stream: True)
    progress = CompileProgress([Stage(compiles_a_while, False, "the search engine", "", 50)], silent)
    progress.compiled(0)
    progress.began -= progress.LOG_EVERY
    progress.draw(force=True)
    progress.end(0)
    assert capsys.readouterr().err == ""
    shown = CompileProgress([Stage(compiles_a_while, False, "the search engine", "", 50)], lambda message: None)
    shown.draw(force=True)  # the same with a say of its own: the line is drawn
    assert "compiling the search engine: kernel 0 of 50" in capsys.readouterr().err


def test_a_compile_in_a_log_says_how_far_it_is_every_few_seconds(monkeypatch):
    """In a pipe or a log the line is said every LOG_EVERY seconds, not redrawn: a log of a
    first run does not sit silent for the minutes the compiles take."""
    import spider_solver.engine
    from spider_solver.engine import CompileProgress, Stage

    monkeypatch.setattr(spider_solver.engine, "is_terminal", lambda stream: False)
    said: list[str] = []
    progress = CompileProgress([Stage(compiles_a_while, False, "the search engine", "", 50),
                                Stage(compiles_a_while, True, "the grader", "", 5)], said.append)
    progress.compiled(0)
    progress.draw()
    assert said == []  # too soon
    progress.began -= progress.LOG_EVERY
    progress.draw()
    progress.draw()
    assert len(said) == 1
    assert re.fullmatch(r"compiling the search engine: kernel 1 of 50, the grader: kernel 0 of 5, [0-9]+ s", said[0])
    progress.drawn -= progress.LOG_EVERY
    progress.end(1)
    progress.draw()
    assert said[1].startswith("compiled the grader: 0 kernels in ")
    assert said[2].startswith("compiling the search engine: kernel 1 of 50, the grader: kernel 0 of 5 (done), ")
    progress.end(0)
    progress.drawn -= progress.LOG_EVERY
    progress.draw()  # every stage ended: nothing more to say
    assert len(said) == 4 and said[3].startswith("compiled the search engine: 1 kernels in ")


def test_an_unwinnable_deal_carries_its_proofs_counters():
    """A deal proved unwinnable keeps the counters of the exhaustive search that proved it
    (``SolveRecord.proof``), and a batch worker sends back those figures and no others."""
    from spider_solver.batch.task import solve_deal
    from tests.engine.test_tiny import SMALL_2, UNWINNABLE, tiny

    deal = tiny(UNWINNABLE, **SMALL_2)
    result = solved(deal)
    assert (result.status, result.reason) == ("unwinnable", "exhausted")
    proof = result.proof
    assert proof is not None and proof.mode is SearchMode.PROOF and proof.outcome is BeamOutcome.EXHAUSTED
    assert 0 < proof.nodes <= result.nodes and proof.tt_stored > 100 and proof.levels > 1
    assert proof.peak_level <= proof.tt_stored
    sent = solve_deal(deal, BUDGET, None)
    assert len(sent.attempts) == 1 and sent.proof is sent.attempts[0]

    assert sent.proof is not None and replace(sent.proof, seconds=0) == replace(proof, seconds=0)
    assert solved(QUICK[0]).proof is None  # verified: no proof


def test_a_deal_every_width_leaves_open_gets_the_exhaustive_search(monkeypatch):
    """When every beam width fails with budget left, ``solve`` ends with the exhaustive
    search, which settles a deal the widths alone leave unknown."""
    import spider_solver.engine.beam as beam
    import spider_solver.engine.schedule as schedule
    from tests.engine.test_tiny import SMALL_2, UNWINNABLE, tiny

    deal = tiny(UNWINNABLE, **SMALL_2)
    # One width of 1 at a level cap of 1 (a beam's default cap): it cannot end with its move set spent.
    monkeypatch.setattr(schedule, "WIDTHS", dict.fromkeys(schedule.WIDTHS, (1,)))
    monkeypatch.setattr(beam, "MAX_LEVELS", 1)
    result = solved(deal)
    assert [a.mode for a in result.attempts] == [SearchMode.SEARCH, SearchMode.PROOF]
    assert result.attempts[0].outcome is BeamOutcome.LEVELS
    assert (result.status, result.reason) == ("unwinnable", "exhausted")
