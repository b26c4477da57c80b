"""``review``: a game's decisions judged by what the player could see, on the command line.

In process through click's CliRunner (the answer is the Python API's, the errors one line
and status 2, Ctrl-C status 130 with what was judged), and end to end in a process of its
own (``python -m spider_solver``) with worker processes: the same answer, and SIGTERM
ending it cleanly.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_solver.analysis import reviewing as review_module
from spider_solver.analysis.reviewing import REVIEW_FIELDS, review
from spider_solver.cli import cli
from spider_solver.rules import Deal
from tests.analysis.helpers import random_log
from tests.fair_pairs import deal_pairs, prefixes

pytestmark = pytest.mark.usefixtures("fair_hints")

ROOT = Path(__file__).resolve().parents[2]
GAME = "SP1-S4C-AAAAAAD"
#: A short game of a four-suit deal: random legal actions, the same on every run.
LOG = random_log(Deal.from_code(GAME), random.Random(3), 14, False, 0)
FEW = ["--layouts", "3", "--confirm-layouts", "4", "--workers", "1"]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def without_seconds(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "seconds"}


def test_review_prints_the_replay_a_line_a_decision_and_the_review_in_words():
    result = run("review", GAME, *LOG, *FEW, "-q")
    assert result.exit_code == 0, result.output
    expected = review(GAME, LOG, layouts=3, confirm_layouts=4)
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"not won: {len(LOG)} moves, ")
    assert lines[1].startswith(f"decisions: {expected.total} decision")
    assert lines[2].startswith("chances to win before, after the action played, after the best other")
    judged = lines[3:3 + len(expected.decisions)]
    for line, decision in zip(judged, expected.decisions, strict=True):
        assert line.split()[:2] == [str(decision.index + 1), decision.action]
        assert ("cost " in line) == (decision.cost > 0)
    assert lines[-1] == expected.summary and len(lines) == 4 + len(expected.decisions) + bool(expected.judged_again)
    if expected.judged_again:
        assert lines[-2].startswith(f"judged again on {expected.confirm_layouts} fresh layouts: action")
        closest = [m.index + 1 for m in expected.costliest if not m.clear]
        assert ("the closest call" in lines[-2]) == bool(closest)
        assert lines[-2].endswith(f"(the closest call: action {closest[0]}, not clearly a mistake)"
                                  if closest else "")
    assert result.stderr == ""


def test_review_json_is_the_review_and_takes_a_deck_and_a_log_file(tmp_path):
    by_code = run("review", GAME, *LOG, *FEW, "--json", "--seed", "5", "-q")
    log = tmp_path / "game.txt"
    log.write_text("\n".join(LOG) + "\n")
    by_deck = run("review", "--deck", Deal.from_code(GAME).text(), "--suits", "4", "--file", log, *FEW, "--json",
                  "--seed", "5", "-q")
    assert by_code.exit_code == by_deck.exit_code == 0, by_deck.output
    data, deck_data = json.loads(by_code.stdout), json.loads(by_deck.stdout)
    assert list(data) == [spec.name for spec in REVIEW_FIELDS]
    assert without_seconds(data) == without_seconds(review(GAME, LOG, layouts=3, confirm_layouts=4,
                                                           seed=5).to_dict())
    assert deck_data["code"] is None
    del data["code"], deck_data["code"]
    assert without_seconds(data) == without_seconds(deck_data)


def test_review_shows_its_progress_on_standard_error_only(monkeypatch):
    from spider_solver.cli import reviewing

    monkeypatch.setattr(reviewing.ReviewProgress, "LOG_EVERY", 0.0)
    result = run("review", GAME, *LOG, *FEW, "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    name = Deal.from_code(GAME).name
    progress = [line for line in result.stderr.splitlines() if line.startswith(f"reviewing {name}: ")]
    assert progress[0].startswith(f"reviewing {name}: 0 of {data['total']} decisions, ")
    assert any(f" {data['total']} of {data['total']} decisions" in line for line in progress)


def test_a_refused_action_exits_2_naming_it_and_json_still_prints_the_review():
    result = run("review", "SP1-S4C-AAAAAAD", "9>4", "1>2")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("error: action 2 (index 1: '1>2') refused: cannot play '1>2'")
    result = run("review", "SP1-S4C-AAAAAAD", "9>4", "1>2", "--json")
    assert result.exit_code == 2 and json.loads(result.stdout)["replay"]["error"]["index"] == 1


@pytest.mark.parametrize("args, words", [
    (["SP1-S9C-AAAAAAD"], "error: invalid game code 'SP1-S9C-AAAAAAD': suit count '9'"),
    (["--deck", "AS KS"], "error: invalid deal"),
    ([], "error: missing the game CODE"),
    ([GAME, "--layouts", "0"], "error: invalid value for '--layouts': 0 is not in the range 1 to 1,024"),
    ([GAME, "--confirm-layouts", "x"], "error: invalid value for '--confirm-layouts': 'x' is not a whole number"),
    ([GAME, "--workers", "0"], "error: invalid value for '--workers': 0 is not in the range"),
    ([GAME, "--seed", "-1"], "error: invalid value for '--seed': -1 is not in the range"),
    ([GAME, "--max-nodes", "5"], "error: no such option '--max-nodes'"),
])
def test_bad_input_exits_2_with_one_error_line(args, words):
    result = run("review", *args)
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.stderr.startswith(words), result.stderr


def test_ctrl_c_prints_what_was_judged_and_exits_130(monkeypatch):
    calls = []
    real = review_module.judge

    def interrupted_at_the_third(job):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(job)

    monkeypatch.setattr(review_module, "judge", interrupted_at_the_third)
    result = run("review", GAME, *LOG, *FEW, "-q")
    assert result.exit_code == 130 and result.stderr == "interrupted\n"
    lines = result.stdout.splitlines()
    assert lines[-1].startswith("Interrupted after judging 2 of ") and len(lines) == 3 + 2 + 1
    calls.clear()
    result = run("review", GAME, *LOG, *FEW, "-q", "--json")
    assert result.exit_code == 130 and json.loads(result.stdout)["interrupted"] is True


# -- end to end ---------------------------------------------------------------------------


def spider_solve(*args: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-m", "spider_solver", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, encoding="utf-8", env=env, **kwargs)


@pytest.mark.slow
def test_review_with_worker_processes_in_a_process_of_its_own_gives_the_same_answer(tmp_path):
    done = spider_solve("review", GAME, *LOG, "--layouts", "3", "--confirm-layouts", "4", "--workers", "2",
                        "--json", cwd=tmp_path)
    out, err = done.communicate(timeout=600)
    assert done.returncode == 0, err
    assert without_seconds(json.loads(out)) == without_seconds(review(GAME, LOG, layouts=3,
                                                                      confirm_layouts=4).to_dict())


@pytest.mark.slow
def test_sigterm_stops_a_review_and_its_workers(tmp_path):
    """SIGTERM (as Ctrl-C) while the workers judge a four-suit game: status 130, what was
    judged on standard output, and no worker left behind."""
    deal = Deal.from_code("SP1-S4C-AAAAAAD")
    log = random_log(deal, random.Random(1), 40, False, 0)
    # 256 layouts a decision: far more work than the wait below, on any machine
    process = spider_solve("review", str(deal.code), *log, "--workers", "2", "--layouts", "256", "--json",
                           cwd=tmp_path)
    deadline = time.monotonic() + 120
    while len(_children(process.pid)) < 2 and time.monotonic() < deadline:  # the workers have started
        time.sleep(0.2)
    time.sleep(5.0)
    children = _children(process.pid)
    assert process.poll() is None, "the review ended before it could be stopped"
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert err.splitlines()[-1] == "interrupted"
    assert json.loads(out)["interrupted"] is True
    time.sleep(1.0)
    assert [pid for pid in children if Path(f"/proc/{pid}").exists() and _alive(pid)] == []


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.usefixtures("fair_hints")
@settings(max_examples=10)
@given(pair=deal_pairs([{"suits": 1}, {"suits": 4}]), picks=st.lists(st.integers(0, 10**6), min_size=2, max_size=6))
def test_twins_get_the_same_review_from_review_json(pair, picks):
    """The fairness property through the command line: two explicit decks that differ only
    in unseen cards, the same log, the same --seed: the same JSON, but for the seconds."""
    log = list(prefixes(*pair, picks))[-1]
    answers = []
    for deal in pair:
        result = run("review", "--deck", deal.text(), "--suits", deal.variant.suits, *log, "--json",
                     "--layouts", "2", "--confirm-layouts", "3", "--workers", "1", "--seed", "5")
        assert result.exit_code == 0, result.output
        answers.append(without_seconds(json.loads(result.stdout)))
    assert answers[0] == answers[1]
