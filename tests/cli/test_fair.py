"""``hint --fair`` and ``play``: the fair hint on the command line, and games played by following it.

In process through click's CliRunner (the answers are those of the Python API, the
errors one line and status 2), and end to end in a process of its own (``python -m
spider_solver``): the same answer in another process, SIGTERM ending ``play`` cleanly with
what was played. The fairness property holds through ``hint --fair --json`` too: twins
that differ only in unseen cards get the same answer from it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_solver.analysis import FairGame, fair_game, fair_hint
from spider_solver.analysis.fair import COMPILE_MESSAGE, FAIR_GAME_FIELDS, FAIR_HINT_FIELDS
from spider_solver.cli import cli
from spider_solver.rules import Deal, replay
from tests.analysis.helpers import stuck_log
from tests.fair_pairs import deal_pairs, prefixes
from tests.rules.scripted_win import DECK_TEXT, WIN

pytestmark = pytest.mark.usefixtures("fair_hints")

ROOT = Path(__file__).resolve().parents[2]
TWO_SUITS = "SP1-S2C-AAAAAAD"
#: The hand-made one-suit deal of tests/rules/scripted_win.py, as command-line arguments.
SCRIPTED = ["--deck", DECK_TEXT, "--suits", "1"]
FEW = ["--layouts", "3"]


#: Most of the scripted win: a position a few hints from a win, whatever the planner's tuning.
LATE = WIN[:-60]


@pytest.fixture(scope="module")
def won() -> FairGame:
    """The game won by following fair hints from LATE (one layout a hint)."""
    game = fair_game(Deal.from_text(DECK_TEXT, 1), LATE, layouts=1)
    assert game.outcome == "won" and len(game.steps) > 5
    return game


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def without_seconds(data: dict) -> dict:
    """A JSON answer less what varies from run to run: its seconds (and its steps')."""
    data = {key: value for key, value in data.items() if key != "seconds"}
    if "steps" in data:
        data["steps"] = [{k: v for k, v in step.items() if k != "seconds"} for step in data["steps"]]
    return data


# -- hint --fair -------------------------------------------------------------------------


def test_hint_fair_prints_the_hint_then_its_chances_in_words():
    result = run("hint", TWO_SUITS, "7>10", "--fair", *FEW)
    assert result.exit_code == 0, result.output
    expected = fair_hint(TWO_SUITS, "7>10", layouts=3)
    assert result.stdout.splitlines() == [expected.hint, expected.summary]
    assert result.stderr == ""


def test_hint_fair_json_is_the_fair_hint():
    result = run("hint", TWO_SUITS, "7>10", "--fair", "--json", "--layouts", "4", "--seed", "12")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == [spec.name for spec in FAIR_HINT_FIELDS]
    assert without_seconds(data) == without_seconds(fair_hint(TWO_SUITS, "7>10", layouts=4, seed=12).to_dict())
    assert (data["layouts"], data["seed"], data["hint"]) == (4, 12, data["choices"][0]["action"])


def test_hint_fair_takes_an_explicit_deck_and_a_log_file(tmp_path):
    deal = Deal.from_code(TWO_SUITS)
    log = tmp_path / "game.txt"
    log.write_text("7>10\n")
    by_deck = run("hint", "--deck", deal.text(), "--suits", "2", "--file", log, "--fair", "--json", *FEW)
    by_code = run("hint", TWO_SUITS, "7>10", "--fair", "--json", *FEW)
    assert by_deck.exit_code == by_code.exit_code == 0, by_deck.output
    deck_answer, code_answer = json.loads(by_deck.stdout), json.loads(by_code.stdout)
    assert deck_answer["code"] is None and code_answer["code"] == TWO_SUITS
    del deck_answer["code"], code_answer["code"]
    assert without_seconds(deck_answer) == without_seconds(code_answer)


@settings(max_examples=5)
@given(pair=deal_pairs([{"suits": 1}, {"suits": 4}]), picks=st.lists(st.integers(0, 10**6), min_size=2, max_size=5))
def test_twins_get_the_same_answer_from_hint_fair_json(pair, picks):
    """The fairness property through the command line: two explicit decks that differ only
    in unseen cards, the same log, the same --seed: the same JSON, but for the seconds."""
    first, second = pair
    for log in prefixes(first, second, picks):
        answers = []
        for deal in pair:
            result = run("hint", "--deck", deal.text(), "--suits", deal.variant.suits, *log, "--fair", "--json",
                         "--layouts", "2", "--seed", "7")
            assert result.exit_code == 0, result.output
            answers.append(without_seconds(json.loads(result.stdout)))
        assert answers[0] == answers[1]


def test_a_refused_action_exits_2_naming_it_and_json_still_prints_the_answer():
    result = run("hint", "SP1-S4C-AAAAAAD", "9>4", "1>2", "--fair")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("error: action 2 (index 1: '1>2') refused: cannot play '1>2'")
    result = run("hint", "SP1-S4C-AAAAAAD", "9>4", "1>2", "--fair", "--json")
    assert result.exit_code == 2 and json.loads(result.stdout)["replay"]["error"]["index"] == 1


def test_a_won_log_exits_0_and_a_game_with_no_action_left_exits_1():
    won = run("hint", "--deck", DECK_TEXT, "--suits", "1", *WIN, "--fair")
    assert (won.exit_code, won.stdout, won.stderr) == (0, "", "no hint: won\n")
    deal = Deal.from_code("SP1-S1C-AAAAAAD")
    lost = run("hint", str(deal.code), *stuck_log(deal, 3), "--fair", *FEW)
    assert (lost.exit_code, lost.stdout, lost.stderr) == (1, "", "no hint: no action helps: nothing turns a card up or completes a run, and no deal is left\n")


@pytest.mark.parametrize("args, words", [
    (["--fair", "--layouts", "0"], "invalid value for '--layouts': 0 is not in the range 1 to 1,024"),
    (["--fair", "--layouts", "x"], "invalid value for '--layouts': 'x' is not a whole number from 1 to 1,024"),
    (["--fair", "--seed", "-1"], "invalid value for '--seed': -1 is not in the range 0 to 18,446,744,073,709,551,615"),
    (["--fair", "--seed", str(2**64)], "invalid value for '--seed': 18446744073709551616 is not in the range"),
    (["--fair", "--max-nodes", "5"], "--max-nodes is for the hint of a winning line; a fair hint's effort is --layouts"),
    (["--fair", "--max-seconds", "5", "--catalog", "x"], "--max-seconds and --catalog are for the hint of a winning"),
    (["--seed", "5"], "--seed is for a fair hint: add --fair"),
    (["--layouts", "5", "--seed", "5"], "--layouts and --seed are for a fair hint: add --fair"),
])
def test_bad_options_exit_2_with_one_error_line(args, words):
    result = run("hint", "SP1-S4C-AAAAAAD", *args)
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"error: {words}") and len(lines) == 2 and lines[1].endswith(" hint --help'"), lines


@pytest.mark.parametrize("args, words", [
    (["SP1-S9C-AAAAAAD"], "error: invalid game code 'SP1-S9C-AAAAAAD': suit count '9'"),
    (["--deck", "AS KS"], "error: invalid deal"),
    ([], "error: missing the game CODE"),
])
def test_bad_deals_exit_2(args, words):
    for command in (["hint", *args, "--fair"], ["play", *args]):
        result = run(*command)
        assert result.exit_code == 2 and result.stderr.startswith(words), (command, result.output)


def test_quiet_drops_the_note_that_the_fair_hint_compiles(monkeypatch):
    import spider_solver.engine

    monkeypatch.setattr(spider_solver.engine, "is_compiled", lambda fair=False, hint=False: False)
    monkeypatch.setattr(spider_solver.engine, "_compile_children", lambda targets, progress, first=0: [True])
    said = run("hint", TWO_SUITS, "--fair", *FEW)
    quiet = run("hint", TWO_SUITS, "--fair", *FEW, "-q")
    assert said.exit_code == quiet.exit_code == 0
    assert COMPILE_MESSAGE in said.stderr and quiet.stderr == "" and said.stdout == quiet.stdout


# -- play ---------------------------------------------------------------------------------


def test_play_prints_each_action_the_outcome_the_log_and_the_times(won):
    result = run("play", *SCRIPTED, *LATE, "--layouts", "1", "-q")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    played = len(won.steps)
    assert len(lines) == played + 4
    for number, (line, step) in enumerate(zip(lines, won.steps, strict=False), start=len(LATE) + 1):
        assert line.split()[:2] == [str(number), step.action] and line.endswith(" s")
    assert lines[-4] == f"Won by following fair hints, in {played} actions."
    assert lines[-3].startswith("won: ") and lines[-3].endswith(", 8 runs removed, 0 cards in stock")
    assert lines[-2] == "log: " + " ".join(won.log)
    assert lines[-1].startswith(f"hints: {played} in ") and "median" in lines[-1]


def test_play_json_is_the_game_and_replays_as_it_says():
    result = run("play", *SCRIPTED, *LATE, "--json", "--layouts", "2", "--seed", "3", "-q")
    data = json.loads(result.stdout)
    deal = Deal.from_text(DECK_TEXT, 1)
    assert list(data) == [spec.name for spec in FAIR_GAME_FIELDS]
    assert without_seconds(data) == without_seconds(fair_game(deal, LATE, layouts=2, seed=3).to_dict())
    assert data["log"][:len(LATE)] == LATE and data["log"][len(LATE):] == [step["action"] for step in data["steps"]]
    assert replay(deal, data["log"]).won == (data["outcome"] == "won") == (result.exit_code == 0)


def test_play_a_lost_game_exits_1():
    deal = Deal.from_code("SP1-S1C-AAAAAAD")
    result = run("play", str(deal.code), *stuck_log(deal, 3), *FEW, "-q")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:2] == ["Lost after 0 actions: no action helped any more (nothing turned a card up or completed a run).",
                                              replay_words_of(deal, stuck_log(deal, 3))]


def replay_words_of(deal: Deal, log: list[str]) -> str:
    from spider_solver.cli.play import replay_words

    return replay_words(replay(deal, log))


def test_play_a_refused_log_exits_2_naming_the_action():
    result = run("play", "SP1-S4C-AAAAAAD", "9>4", "1>2")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("error: action 2 (index 1: '1>2') refused")


def test_play_ctrl_c_prints_what_was_played_and_exits_130(monkeypatch):
    import spider_solver.analysis.fair as fair

    calls = []
    real = fair._choices

    def interrupted_at_the_third(*args):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(fair, "_choices", interrupted_at_the_third)
    result = run("play", "SP1-S4C-AAAAAAD", *FEW, "-q")
    assert result.exit_code == 130 and result.stderr == "interrupted\n"
    lines = result.stdout.splitlines()
    assert len(lines) == 2 + 4 and lines[2] == "Interrupted after 2 actions." and lines[3].startswith("not won: 2 moves")
    assert replay("SP1-S4C-AAAAAAD", lines[4].removeprefix("log: ")).error is None


def test_play_shows_its_progress_on_standard_error_only(monkeypatch, won):
    from spider_solver.cli import play as module

    monkeypatch.setattr(module.GameProgress, "LOG_EVERY", 0.0)
    result = run("play", *SCRIPTED, *LATE, "--layouts", "1", "--json")
    data = json.loads(result.stdout)
    assert data["outcome"] == "won" and result.exit_code == 0
    name = Deal.from_text(DECK_TEXT, 1).name
    progress = [line for line in result.stderr.splitlines() if line.startswith(f"playing {name}: ")]
    assert len(progress) == len(data["steps"]) == len(won.steps)
    assert progress[0].startswith(f"playing {name}: 1 action, ") and " removed, " in progress[0]


# -- end to end ---------------------------------------------------------------------------


def spider_solve(*args: str, env: dict[str, str] | None = None, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]), **(env or {})}
    return subprocess.Popen([sys.executable, "-m", "spider_solver", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, encoding="utf-8", env=env, **kwargs)


def test_hint_fair_in_a_process_of_its_own_gives_the_same_answer(tmp_path):
    """Determinism across processes: the same position, options and version give the same answer."""
    done = spider_solve("hint", TWO_SUITS, "7>10", "--fair", "--json", *FEW, cwd=tmp_path)
    out, err = done.communicate(timeout=300)
    assert done.returncode == 0, err
    assert without_seconds(json.loads(out)) == without_seconds(fair_hint(TWO_SUITS, "7>10", layouts=3).to_dict())


@pytest.mark.slow
def test_sigterm_ends_play_with_what_was_played(tmp_path):
    """SIGTERM (as Ctrl-C) while a game is played: status 130, the actions played so far on
    standard output, and a log that replays; never a crash (a KeyboardInterrupt raised as
    numba boxes a kernel's answer killed the process before the hint waited for it). The
    default 16 layouts: a game of about a minute here, so that the signal comes mid-game even
    on a machine several times faster (with 3 layouts an idle machine finished the game in
    10 s, before the second signal)."""
    for wait in (8.0, 11.0):
        process = spider_solve("play", "SP1-S4C-AAAAAAD", cwd=tmp_path)
        time.sleep(wait)
        assert process.poll() is None, "the game ended before it could be stopped"
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=120)
        assert process.returncode == 130, err
        assert err.splitlines()[-1] == "interrupted"
        lines = out.splitlines()
        assert any(line.startswith("Interrupted after ") for line in lines), out
        log = next(line for line in lines if line.startswith("log: ")).removeprefix("log: ")
        assert replay("SP1-S4C-AAAAAAD", log).error is None


@pytest.mark.slow
def test_a_first_fair_hint_says_that_it_compiles_and_counts_the_kernels(tmp_path):
    """A fresh install (an empty cache): the first hint --fair says that it compiles the fair
    hint's kernels (apart, so that Ctrl-C stops it at once) and how many it compiled:
    HINT_KERNELS, the "m" of "kernel n of m". A second run says nothing, and answers the same."""
    import re

    from spider_solver.engine import HINT_KERNELS

    runs = []
    for _ in range(2):
        process = spider_solve("hint", TWO_SUITS, "--fair", "--json", *FEW, cwd=tmp_path,
                               env={"NUMBA_CACHE_DIR": str(tmp_path / "cache")})
        out, err = process.communicate(timeout=900)
        assert process.returncode == 0, err
        runs.append((out, err))
    first = runs[0][1].splitlines()
    assert first[0] == COMPILE_MESSAGE
    assert re.fullmatch(rf"compiled the fair hint: {HINT_KERNELS} kernels in [0-9]+ s", first[-1]), first
    assert runs[1][1] == ""
    assert without_seconds(json.loads(runs[0][0])) == without_seconds(json.loads(runs[1][0]))
