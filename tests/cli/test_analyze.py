"""The hint and analyze commands, driven through click's CliRunner.

Exit statuses: 0 still winnable (a hint is given) or already won, 1 no longer
winnable, 3 unknown, 2 bad input or a refused action in the log.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from spider_solver.catalog import DEFAULT_CATALOG, Catalog
from spider_solver.cli import cli
from spider_solver.rules import Deal, replay
from spider_solver.verify import solve
from tests.analysis.helpers import count_plays, stuck_log
from tests.rules.scripted_win import DECK_TEXT, WIN

pytestmark = pytest.mark.usefixtures("engine")

CODE = "SP1-S1C-AAAAABA"
FOUR_SUITS = "SP1-S4C-AAAAAAD"
ANALYSIS_FIELDS = {"code", "replay", "status", "reason", "hint", "line", "source", "lost_at", "lost_at_action",
                   "lost_at_line", "bracket", "effective", "tried", "nodes", "seconds", "max_nodes",
                   "max_seconds", "probes", "summary"}


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def assert_no_traceback(result):
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.fixture(scope="module")
def solved():
    return solve(CODE, max_nodes=5_000_000, max_seconds=None)


def test_hint_prints_the_next_action_alone(solved):
    log = solved.solution[:10]
    result = run("hint", CODE, *log)
    assert result.exit_code == 0, result.output
    hint = result.stdout.strip()
    assert result.stdout == hint + "\n" and " " not in hint
    assert replay(Deal.from_code(CODE), [*log, hint]).error is None  # the hint is legal


@pytest.mark.parametrize("command", ["hint", "analyze"])
def test_quiet_drops_the_note_that_the_engine_compiles_and_keeps_the_answer(solved, monkeypatch, command):
    import spider_solver.engine
    from spider_solver.verify import COMPILE_MESSAGE

    monkeypatch.setattr(spider_solver.engine, "is_compiled", lambda fair=False: False)  # as on a first run
    log = solved.solution[:10]
    said = run(command, CODE, *log)
    quiet = run(command, CODE, *log, "-q")
    assert said.exit_code == quiet.exit_code == 0, (said.output, quiet.output)
    assert COMPILE_MESSAGE in said.stderr and quiet.stderr == ""
    def answer(out: str) -> list[str]:  # the lines of the answer less their seconds
        return [re.sub(r"[0-9.]+ s\b", "N s", line) for line in out.splitlines()]

    assert answer(quiet.stdout) == answer(said.stdout) and quiet.stdout


def test_hint_json_is_the_whole_analysis(solved):
    result = run("hint", CODE, *solved.solution[:10], "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert set(data) == ANALYSIS_FIELDS
    assert (data["status"], data["source"], data["lost_at"]) == ("verified", "search", None)
    assert data["hint"] == data["line"][0]
    assert replay(Deal.from_code(CODE), [*solved.solution[:10], *data["line"]]).won


def test_analyze_prints_the_replay_the_position_and_the_hint(solved):
    result = run("analyze", CODE, *solved.solution[:10])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == replay_line(CODE, solved.solution[:10])
    assert lines[1].startswith("position: still winnable, in ") and "(a search; " in lines[1]
    assert lines[2].startswith("hint: ") and lines[3].startswith("line: " + lines[2][6:])
    data = json.loads(run("analyze", CODE, *solved.solution[:10], "--json").stdout)
    assert set(data) == ANALYSIS_FIELDS and data["status"] == "verified"


def replay_line(code, log) -> str:
    """What ``replay`` prints for the log: analyze prints the same first line."""
    return run("replay", code, *log).stdout.splitlines()[0]


def test_a_won_log_exits_0_without_a_hint(solved):
    result = run("hint", CODE, *solved.solution)
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr.startswith("no hint: won")
    result = run("analyze", CODE, *solved.solution)
    assert result.exit_code == 0 and result.stdout.splitlines()[1] == "position: won"


def test_a_refused_action_exits_2_and_names_its_index():
    for command in ("hint", "analyze"):
        result = run(command, FOUR_SUITS, "9>4", "D", "1>2")
        assert result.exit_code == 2
        assert result.stdout == ""
        assert result.stderr.startswith("error: action 3 (index 2: '1>2') refused: cannot play '1>2': ")
        assert_no_traceback(result)
    for command in ("hint", "analyze"):  # with --json, the analysis too: its replay names the action
        result = run(command, FOUR_SUITS, "D", "3-5", "--json")
        assert result.exit_code == 2 and "(index 1: '3-5')" in result.stderr
        data = json.loads(result.stdout)
        assert data["status"] is None and data["hint"] is None and data["replay"]["moves"] == 1
        assert (data["replay"]["error"]["index"], data["replay"]["error"]["action"]) == (1, "3-5")


@pytest.mark.parametrize("args, words", [
    (["--max-nodes", "0"], "'--max-nodes'"),
    (["--max-seconds", "nan"], "'--max-seconds'"),
    (["--undo-limit", "-1"], "'--undo-limit'"),
    (["--suits", "3", "--deck", "AS"], "'--suits'"),
])
def test_bad_options_exit_2_with_one_error_line(args, words):
    result = run("analyze", FOUR_SUITS, *args)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and words in result.stderr.splitlines()[0]
    assert_no_traceback(result)


def test_bad_input_exits_2():
    for args in (["SP9-S4C-AAAAAAD"], [], ["--deck", "AS KS"], [FOUR_SUITS, "--file", "/no/such/file"]):
        result = run("hint", *args)
        assert result.exit_code == 2, args
        assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) <= 2
        assert_no_traceback(result)


def test_a_lost_game_exits_1_and_says_where_it_was_lost():
    deal = Deal.from_code("SP1-S1C-AAAAAAD")
    log = stuck_log(deal, 3)
    result = run("analyze", str(deal.code), *log, "--max-nodes", "5000000")
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[1].startswith("position: no longer winnable, every action from here was searched")
    assert " nodes with the search for where it was lost, " in lines[1]  # not the proof's alone
    assert lines[2].startswith("lost at: action ")
    data = json.loads(run("analyze", str(deal.code), *log, "--max-nodes", "5000000", "--json").stdout)
    index = data["lost_at"]
    assert lines[2].startswith(f"lost at: action {index + 1} (index {index}: {log[index]!r}); before it, ")
    result = run("hint", str(deal.code), *log, "--max-nodes", "5000000")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith("no hint: no longer winnable")


def test_ctrl_c_while_looking_for_lost_at_is_interrupted_not_a_loss(monkeypatch):
    from spider_solver.analysis.search import Found, Session
    from spider_solver.outcomes import Reason, Status

    deal = Deal.from_code("SP1-S1C-AAAAAAD")
    log = stuck_log(deal, 3)
    search = Session.search
    calls = []

    def interrupted_after_the_first(self, *args, **kwargs):
        calls.append(args)
        if len(calls) == 1:
            return search(self, *args, **kwargs)  # the position itself: proved unwinnable
        return Found(Status.UNKNOWN, Reason.INTERRUPTED, (), None)  # Ctrl-C in a lost_at probe

    monkeypatch.setattr(Session, "search", interrupted_after_the_first)
    for json_flag in ((), ("--json",)):
        calls.clear()
        result = run("analyze", str(deal.code), *log, "--max-nodes", "5000000", *json_flag)
        assert (result.exit_code, result.stdout, result.stderr) == (130, "", "interrupted\n"), result.output
        assert len(calls) == 2  # the position, then the first probe of the bisection


def test_an_unknown_position_exits_3(solved):
    result = run("hint", CODE, *solved.solution[:10], "--max-nodes", "1")
    assert (result.exit_code, result.stdout) == (3, "")
    assert result.stderr.startswith("no hint: unknown, the node budget ran out (1 node, ")
    assert result.stderr.splitlines()[1].startswith("tried: a beam of width ")
    result = run("analyze", CODE, *solved.solution[:10], "--max-nodes", "1")
    assert result.exit_code == 3 and result.stdout.splitlines()[1].startswith("position: unknown")
    assert result.stdout.splitlines()[2].endswith("no proof was tried; 1 of 1 nodes spent")


def test_the_catalog_line_gives_the_hint_without_a_search(solved, tmp_path, monkeypatch):
    path = tmp_path / "catalog.sqlite"
    with Catalog(path) as db:
        db.record(solved)
    log = solved.solution[:25]
    data = json.loads(run("hint", CODE, *log, "--catalog", path, "--json").stdout)
    assert (data["source"], data["nodes"], data["hint"]) == ("known-line", 0, solved.solution[25])
    assert data["line"] == list(solved.solution[25:])
    # Without --catalog, the catalog of the working directory is read if there is one.
    monkeypatch.chdir(tmp_path)
    path.rename(tmp_path / DEFAULT_CATALOG)
    result = run("hint", CODE, *log)
    assert (result.exit_code, result.stdout) == (0, solved.solution[25] + "\n")
    # No catalog: a search; a missing --catalog is bad input.
    (tmp_path / DEFAULT_CATALOG).unlink()
    assert json.loads(run("hint", CODE, *log, "--json").stdout)["source"] == "search"
    assert not (tmp_path / DEFAULT_CATALOG).exists()  # a hint never creates a catalog
    result = run("hint", CODE, *log, "--catalog", tmp_path / "missing.sqlite")
    assert result.exit_code == 2 and "no catalog at" in result.stderr
    # The working directory's, if there is one, must be a catalog: a directory is no more
    # passed over than a damaged file.
    (tmp_path / DEFAULT_CATALOG).mkdir()
    result = run("hint", CODE, *log)
    assert result.exit_code == 2 and "is a directory" in result.stderr


def test_an_explicit_deck_and_a_log_file(tmp_path):
    result = run("hint", "--deck", DECK_TEXT, "--suits", "1", *WIN[:20])
    assert result.exit_code == 0, result.output
    hint = result.stdout.strip()
    log = tmp_path / "game.txt"
    log.write_text(" ".join(WIN[5:20]), encoding="utf-8")
    from_file = run("hint", "--deck", DECK_TEXT, "--suits", "1", *WIN[:5], "--file", log)
    assert (from_file.exit_code, from_file.stdout.strip()) == (0, hint)
    data = json.loads(run("analyze", "--deck", DECK_TEXT, "--suits", "1", *WIN[:20], "--json").stdout)
    assert data["code"] is None and data["hint"] == hint


def test_undo_options_apply_to_the_log(solved):
    log = [*solved.solution[:3], "U", "U", "U"]
    limited = run("hint", CODE, *log, "--undo-limit", "2")
    assert limited.exit_code == 2 and "(index 5: 'U')" in limited.stderr
    assert run("hint", CODE, *log, "--unlimited-undo").exit_code == 0
    assert run("hint", CODE, *log[:4], "--undo-limit", "0").exit_code == 2


def test_a_hint_from_the_catalog_line_loads_no_engine(solved, tmp_path):
    """On the stored line the answer needs no search, so the command never imports numba."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    path = tmp_path / "catalog.sqlite"
    with Catalog(path) as db:
        db.record(solved)
    args = ["hint", CODE, *solved.solution[:30], "--catalog", str(path)]
    script = ("import sys\nfrom spider_solver.cli import cli\ntry:\n"
              f"    cli.main({args!r}, prog_name='spider-solve', standalone_mode=False)\n"
              "except SystemExit:\n    pass\nprint('numba' in sys.modules)\n")
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path,
                          check=False)
    assert done.stdout.split() == [solved.solution[30], "False"], done.stderr


@pytest.mark.parametrize("command", ["hint", "analyze"])
def test_the_command_replays_the_log_once(solved, tmp_path, monkeypatch, command):
    """A long log costs one replay, whether the answer comes from the catalog or a search."""
    log = [token for action in solved.solution[:30] for token in (action, "U", action)]
    played = count_plays(monkeypatch)
    path = tmp_path / "catalog.sqlite"
    with Catalog(path) as db:
        db.record(solved)
    stored = run(command, CODE, *log, "--catalog", path, "--json")
    assert stored.exit_code == 0 and json.loads(stored.stdout)["source"] == "known-line"
    assert played[0] == len(log) + len(solved.solution) - 30
    played[0] = 0
    searched = run(command, CODE, *log, "--json")
    data = json.loads(searched.stdout)
    assert searched.exit_code == 0 and data["source"] == "search"
    assert played[0] == len(log) + len(data["line"])


def test_the_bracket_in_words():
    from spider_solver.analysis import Bracket
    from spider_solver.cli.analyzing import bracket_words

    words = bracket_words(Bracket(winnable=30, winnable_after=31, line=("3>4", "D"), unwinnable=56,
                                  unwinnable_after=57))
    assert words == ("between the two, within the budget: still winnable after action 32 (this line wins from "
                     "there: 3>4 D); lost for certain by action 58")
    assert bracket_words(Bracket(0, None, ("1>2",), 5, 6)).startswith("between the two, within the budget: "
                                                                      "still winnable from the initial layout")
    assert bracket_words(Bracket(None, None, (), 5, 6)) == ("not established within the budget; lost for certain "
                                                            "by action 7")
