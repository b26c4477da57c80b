"""The verify command, driven through click's CliRunner: outputs, JSON, exit statuses.

Exit statuses: 0 verified, 1 unwinnable, 3 unknown, 2 bad input. An unwinnable
deal cannot be built at full size and proved quickly, so exit 1 is left to the
tiny-variant tests of the API (tests/engine/test_tiny.py).
"""

from __future__ import annotations

import json
import random
import re
import time

import pytest
from click.testing import CliRunner

from spider_solver.cli import cli
from spider_solver.record import FIELD_NAMES
from spider_solver.rules import Deal, Variant

pytestmark = pytest.mark.usefixtures("engine")

CODE = "SP1-S2C-AAAAAAD"
#: verify --json prints the deal's record (an export row's fields) and whether dealing on an empty column was allowed.
VERIFY_FIELDS = set(FIELD_NAMES) | {"deal_on_empty"}


def run(*args):
    return CliRunner().invoke(cli, ["verify", *args])


def assert_no_traceback(result):
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_verify_a_code():
    result = run(CODE)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    match = re.fullmatch(r"SP1-S2C-AAAAAAD: verified, won in (\d+) moves, score (\d+) \(([\d,]+) nodes, [\d.]+ s\)",
                         lines[0])
    assert match, lines[0]
    moves, score = int(match[1]), int(match[2])
    solution = lines[1].split()
    assert len(solution) == moves
    assert score == 500 - moves + 800
    # The line printed is one the replay command accepts as a win.
    replayed = CliRunner().invoke(cli, ["replay", CODE, *solution])
    assert replayed.exit_code == 0
    assert replayed.stdout.startswith(f"won: {moves} moves, score {score}")


def test_verify_json():
    began = time.monotonic()
    result = run(" sp1-s2c-aaaaaad ", "--json")
    elapsed = time.monotonic() - began
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == VERIFY_FIELDS
    assert data["code"] == CODE
    assert data["status"] == "verified"
    assert isinstance(data["solution"], list) and len(data["solution"]) == data["moves"]
    assert data["score"] == 500 - data["moves"] + 800
    assert isinstance(data["nodes"], int) and data["nodes"] > 0
    # The search's own seconds: within the wall time of the command (not ms, not a timestamp).
    assert isinstance(data["seconds"], float) and 0 < data["seconds"] <= elapsed
    # Same line as the text output.
    text = run(CODE)
    assert text.stdout.splitlines()[1].split() == data["solution"]


def test_a_node_budget_that_runs_out_is_unknown():
    result = run(CODE, "--max-nodes", "100")
    assert result.exit_code == 3
    assert re.fullmatch(r"SP1-S2C-AAAAAAD: unknown, the node budget ran out \([\d,]+ nodes, [\d.]+ s\)\n"
                        r"tried: a beam of width 224 found no winning line \(it was cut short by the node budget\); "
                        r"no proof was tried; [\d,]+ of 100 nodes spent\n", result.stdout), result.stdout
    data = json.loads(run(CODE, "--max-nodes", "100", "--json").stdout)
    assert set(data) == VERIFY_FIELDS
    assert (data["status"], data["solution"], data["moves"], data["score"]) == ("unknown", [], None, None)
    assert data["nodes"] >= 100


def test_a_time_budget_that_runs_out_is_unknown():
    result = run(CODE, "--max-seconds", "0.000001")
    assert result.exit_code == 3
    assert "unknown, the time budget ran out" in result.stdout


def test_max_seconds_zero_means_no_time_limit():
    result = run(CODE, "--max-seconds", "0", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["status"] == "verified"


def shuffled_deck(suits: int, seed: int) -> str:
    deck = Variant(suits=suits).unshuffled()
    random.Random(seed).shuffle(deck)
    return " ".join(str(card) for card in deck)


def test_an_explicit_deck():
    result = run("--deck", shuffled_deck(1, 7), "--suits", "1", "--rule", "classic")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("explicit deal: verified, won in ")


def test_an_explicit_deck_plays_like_its_code():
    deck = Deal.from_code(CODE).text()
    by_deck = json.loads(run("--deck", deck, "--suits", "2", "--rule", "classic", "--json").stdout)
    by_code = json.loads(run(CODE, "--json").stdout)
    assert by_deck["code"] is None
    for field in ("status", "solution", "moves", "score", "nodes"):
        assert by_deck[field] == by_code[field]


@pytest.mark.parametrize("code, words", [
    ("SP1-S3C-AAAAAAD", "invalid game code 'SP1-S3C-AAAAAAD'"),
    ("SP2-S4C-AAAAAAD", "invalid game code"),
    ("SP1-S4C-AAAAAA", "invalid game code"),
    ("hello", "invalid game code 'hello'"),
])
def test_a_bad_code(code, words):
    result = run(code)
    assert result.exit_code == 2
    assert_no_traceback(result)
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert words in result.stderr


@pytest.mark.parametrize("deck, words", [
    ("AS 2S", "missing"),
    ("XX " * 104, "invalid deal"),
])
def test_a_bad_deck(deck, words):
    result = run("--deck", deck, "--suits", "1")
    assert result.exit_code == 2
    assert_no_traceback(result)
    assert result.stdout == ""
    assert result.stderr.startswith("error: invalid deal")
    assert words in result.stderr


def test_a_deck_that_does_not_match_its_suit_count():
    result = run("--deck", shuffled_deck(1, 7), "--suits", "4")
    assert result.exit_code == 2
    assert_no_traceback(result)
    assert "missing" in result.stderr and "extra" in result.stderr


def test_both_a_code_and_a_deck():
    result = run(CODE, "--deck", shuffled_deck(1, 7), "--suits", "1")
    assert result.exit_code == 2
    assert_no_traceback(result)
    assert "give either a game CODE or --deck, not both" in result.stderr
    assert result.stdout == ""


def test_neither_a_code_nor_a_deck():
    result = run()
    assert result.exit_code == 2
    assert_no_traceback(result)
    assert "missing the game CODE" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("args, option", [
    (["--max-nodes", "0"], "--max-nodes"),
    (["--max-nodes", "many"], "--max-nodes"),
    (["--max-seconds", "-1"], "--max-seconds"),
    (["--suits", "3", "--deck", "AS"], "--suits"),
    (["--rule", "strict", "--deck", "AS"], "--rule"),
])
def test_bad_options(args, option):
    result = run(CODE, *args) if "--deck" not in args else run(*args)
    assert result.exit_code == 2
    assert_no_traceback(result)
    assert option in result.stderr


def test_progress_goes_to_stderr_only():
    result = run(CODE, "--json", "--progress")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["status"] == "verified"
    assert f"{CODE} width " in result.stderr and "node/s" in result.stderr  # the bar is there...
    quiet = run(CODE, "--json", "--no-progress")
    assert quiet.exit_code == 0 and quiet.stderr == ""  # ...and only when asked for


def test_ctrl_c_exits_130_without_a_traceback(monkeypatch):
    import spider_solver.engine.beam as beam

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(beam, "step_level", interrupted)
    result = run(CODE, "--json")
    assert result.exit_code == 130
    assert_no_traceback(result)
    assert result.stdout == ""
    assert "interrupted" in result.stderr


def test_an_unwinnable_deal_exits_1(monkeypatch):
    """An exhaustive search that found no win (stood in for here: no full-size deal is
    proved unwinnable quickly) is a loss: exit 1, not 3 as for unknown."""
    import spider_solver.engine.driver as driver
    from spider_solver.outcomes import AttemptSummary, BeamOutcome, Reason, SearchMode

    proof = AttemptSummary(None, SearchMode.PROOF, BeamOutcome.EXHAUSTED, nodes=12, levels=3, peak_level=5,
                           tt_stored=9)
    monkeypatch.setattr(driver, "run_search",
                        lambda deal, **options: driver.EngineResult(None, Reason.EXHAUSTED, nodes=12, seconds=0.0,
                                                                    attempts=(proof,)))
    result = run(CODE)
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{CODE}: unwinnable, the whole game was searched (12 nodes")
    assert "the proof searched 9 positions in 3 levels, at most 5 in one" in result.stdout
    data = run(CODE, "--json")
    assert data.exit_code == 1 and json.loads(data.stdout)["status"] == "unwinnable"


def test_numba_disable_jit_is_refused_in_one_line_and_the_rules_still_work(tmp_path):
    """The kernels use LLVM intrinsics that have no Python version: with NUMBA_DISABLE_JIT a
    search would fail deep inside numba. The commands that search say so, and exit 2;
    the API raises EngineUnavailableError; the rules engine does not need numba at all."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}

    def run_python(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=tmp_path,
                              timeout=120)

    for args in (["verify", "SP1-S1C-AAAAAAB"], ["hint", "SP1-S1C-AAAAAAB"], ["analyze", "SP1-S1C-AAAAAAB", "D"]):
        done = run_python("-m", "spider_solver", *args)
        assert done.returncode == 2, done.stderr
        assert done.stderr.splitlines()[-1].startswith("error: the search engine cannot run with NUMBA_DISABLE_JIT")
        assert "Traceback" not in done.stderr
    script = ("from spider_solver import solve\nfrom spider_solver.grading import grade\n"
              "from spider_solver.errors import EngineUnavailableError\n"
              "for call in (lambda: solve('SP1-S1C-AAAAAAB'), lambda: grade('SP1-S1C-AAAAAAB')):\n"
              "    try:\n        call()\n    except EngineUnavailableError:\n        print('refused')\n")
    done = run_python("-c", script)
    assert done.stdout.split() == ["refused", "refused"], done.stderr
    done = run_python("-m", "spider_solver", "replay", "SP1-S1C-AAAAAAB", "D")
    assert (done.returncode, done.stderr) == (1, "")  # legal, not won: the rules need no numba


def test_quiet_silences_the_bar_and_the_messages(monkeypatch):
    import spider_solver.verify as verify

    told = []
    monkeypatch.setattr(verify, "load_engine", lambda say=None, **kwargs: told.append(say) or say("compiling"))
    result = run("SP1-S1C-AAAAAAA", "--max-nodes", "200000", "-q", "--progress")
    assert result.stderr == "" and result.stdout.startswith("SP1-S1C-AAAAAAA: ")
    loud = run("SP1-S1C-AAAAAAA", "--max-nodes", "200000", "--no-progress")
    assert loud.stderr == "compiling\n"
    assert loud.stdout.split(" (")[0] == result.stdout.split(" (")[0]  # the same outcome (the seconds differ)


@pytest.mark.slow
def test_a_first_run_says_what_it_compiles_and_counts_the_kernels(tmp_path):
    """A fresh install (an empty cache): with standard error not a terminal, verify says
    that it compiles the engine, how far it is every LOG_EVERY seconds, and then how many
    kernels it compiled in how long: ENGINE_KERNELS, the "m" of "kernel n of m". A second
    run says nothing."""
    import os
    import subprocess
    import sys

    from spider_solver.engine import ENGINE_KERNELS, CompileProgress
    from spider_solver.verify import COMPILE_MESSAGE

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-m", "spider_solver", "verify", CODE], capture_output=True, text=True,
                           env=env, cwd=tmp_path, timeout=900) for _ in range(2)]
    assert [done.returncode for done in runs] == [0, 0], runs[0].stderr
    first = runs[0].stderr.splitlines()
    assert first[0] == COMPILE_MESSAGE
    assert re.fullmatch(rf"compiled the search engine: {ENGINE_KERNELS} kernels in [0-9]+ s", first[-1])
    between = first[1:-1]
    assert all(re.fullmatch(rf"compiling the search engine: kernel [0-9]+ of {ENGINE_KERNELS}, [0-9]+ s", line)
               for line in between), between
    every = int(CompileProgress.LOG_EVERY)
    compiled = int(first[-1].split(" in ")[1].removesuffix(" s"))
    assert abs(len(between) - compiled // every) <= 1, between  # one every LOG_EVERY seconds
    assert runs[1].stderr == ""
    seconds = re.compile(r", [0-9.]+ s\)")
    assert seconds.sub(" s)", runs[0].stdout) == seconds.sub(" s)", runs[1].stdout)  # the same line and nodes


END_AT_ONCE_SCRIPT = """
import atexit, sys
atexit.register(lambda: sys.stderr.write("atexit ran\\n"))
class Teardown:
    def __del__(self):
        sys.stderr.write("teardown ran\\n")
keep = Teardown()  # a global of __main__: deleted only by Python's teardown of its modules
from spider_solver._console import main
sys.argv[0] = "spider-solve"
main()
"""


@pytest.mark.parametrize("args, status, end_at_once", [
    (["verify", CODE, "--json"], 0, True),
    (["verify", CODE, "--max-nodes", "1"], 3, True),
    (["hint", CODE], 0, True),
    (["replay", CODE, "D"], 1, False),
])
def test_a_search_command_ends_at_once_with_its_status_output_and_atexit_functions(tmp_path, args, status,
                                                                                       end_at_once):
    """verify, hint and analyze skip Python's teardown of its modules once done (a fifth of
    a warm verify); what the command printed, its exit status and the atexit functions are
    as before. A command that did not ask ends as Python ends."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", END_AT_ONCE_SCRIPT, *args], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)
    assert done.returncode == status, done.stderr
    assert "atexit ran" in done.stderr.splitlines()
    assert ("teardown ran" in done.stderr.splitlines()) is not end_at_once
    if args[-1] == "--json":
        assert json.loads(done.stdout)["status"] == "verified"
    else:
        assert done.stdout.strip()
