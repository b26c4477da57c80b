"""data/replay_vectors.json: what the code plays now, true to RULES.md §12 Replay.

The file is compared with what data/make_replay_vectors.py writes, and then every
vector is played again here, without the script: once with ``replay()`` (the result,
the canonical actions and the refusal) and once action by action on a ``Board`` (the
score, move counter, runs removed, stock and position after each step, as RULES.md
§8 Score and undo and RULES.md §13.4 Playing and reading the position define them).
"""

import importlib.util
import json
from pathlib import Path

import pytest

from spider_solver.errors import SpiderError
from spider_solver.rules.board import Board
from spider_solver.rules.codes import GameCode
from spider_solver.rules.deal import Deal
from spider_solver.rules.replay import replay
from spider_solver.rules.variant import CLASSIC, RELAXED
from tests.rules.scripted_win import DECK_TEXT, WIN, WITH_UNDOS

DATA = Path(__file__).resolve().parents[2] / "data"
VECTORS = json.loads((DATA / "replay_vectors.json").read_text(encoding="utf-8"))


def load_script():
    spec = importlib.util.spec_from_file_location("make_replay_vectors", DATA / "make_replay_vectors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def deal_of(vector):
    if vector["code"] is not None:
        assert vector["deck"] is None
        deal = Deal.from_code(vector["code"])
    else:
        deal = Deal.from_text(vector["deck"], suits=vector["suits"], rule=vector["rule"])
    assert (deal.variant.suits, deal.variant.rule) == (vector["suits"], vector["rule"])
    return deal


@pytest.mark.slow
def test_file_is_what_the_script_writes_now():
    """If this fails, the rules of play changed (a bug, or RULES.md changed) or the file is stale:
    python data/make_replay_vectors.py."""
    assert load_script().main(["--check"]) == 0


def test_the_file_stays_small():
    assert (DATA / "replay_vectors.json").stat().st_size < 300_000


def test_replay_gives_every_result_action_and_refusal():
    for vector in VECTORS["vectors"]:
        result = replay(deal_of(vector), vector["log"], deal_on_empty=vector["deal_on_empty"],
                        undo_limit=vector["undo_limit"])
        assert list(result.played) == [step["played"] for step in vector["steps"]]
        data = result.to_dict()
        error = data.pop("error")
        assert data == vector["result"]
        assert error == vector["error"]
        if vector["error"] is None:
            assert len(vector["steps"]) == len(vector["log"])
        else:
            assert vector["error"]["index"] == len(vector["steps"])
            assert vector["error"]["action"] == vector["log"][vector["error"]["index"]]
            assert len(vector["log"]) == vector["error"]["index"] + 1  # the vector ends at the refusal


def test_a_board_gives_every_step():
    for vector in VECTORS["vectors"]:
        board = Board(deal_of(vector), deal_on_empty=vector["deal_on_empty"], undo_limit=vector["undo_limit"])
        every = vector["positions_every"]
        for number, (token, step) in enumerate(zip(vector["log"], vector["steps"], strict=False), 1):
            action = board.parse_action(token)
            assert board.notation(action) == step["played"]
            board.push(action)
            got = {"played": step["played"], "score": board.score, "moves": board.moves,
                   "runs_removed": board.runs_removed, "stock_left": board.stock_left}
            if number % every == 0 or number == len(vector["steps"]):
                got["position"] = [[down, " ".join(str(card) for card in column[down:])]
                                   for column, down in zip(board.columns, board.down, strict=True)]
            assert got == step, (vector["code"], number, token)
        assert board.is_won() == vector["result"]["won"]
        if vector["error"] is not None:
            token = vector["error"]["action"]
            if board.is_won():
                message = f"the game is already won; {token!r} comes after the last run left"
            else:
                try:
                    board.push(board.parse_action(token))
                except SpiderError as exc:
                    message = str(exc)
                else:
                    raise AssertionError(f"{token!r} was not refused")
            assert message == vector["error"]["message"]


def test_the_score_follows_its_definition():
    """RULES.md §8.1 Score and move counter: max(0, score - 1) + 100 per run, undo restores."""
    for vector in VECTORS["vectors"]:
        history = [(500, 0, 0)]
        for step in vector["steps"]:
            score, moves, runs = history[-1]
            if step["played"] == "U":
                history.pop()
                assert (step["score"], step["moves"], step["runs_removed"]) == history[-1]
                continue
            new_runs = step["runs_removed"] - runs
            assert new_runs >= 0
            assert step["score"] == max(0, score - 1) + 100 * new_runs
            assert step["moves"] == moves + 1
            history.append((step["score"], step["moves"], step["runs_removed"]))


def test_every_case_and_every_variant_and_option_is_covered():
    script = load_script()
    assert VECTORS["cases"] == script.CASES
    shown = {case for vector in VECTORS["vectors"] for case in vector["cases"]}
    assert shown == set(script.CASES)
    variants = {(vector["suits"], vector["rule"]) for vector in VECTORS["vectors"]}
    assert variants == {(1, CLASSIC), (2, CLASSIC), (2, RELAXED), (4, CLASSIC), (4, RELAXED)}
    assert {vector["undo_limit"] for vector in VECTORS["vectors"]} >= {None, 0, 1, 100}
    assert {vector["deal_on_empty"] for vector in VECTORS["vectors"]} == {False, True}
    # Each refusal named in the file is there with its exact message at least once.
    assert set(script.REFUSALS) <= shown
    for vector in VECTORS["vectors"]:
        if vector["error"] is not None:
            assert script.refusal(vector["error"]["message"]) in vector["cases"]


def test_the_scripted_win_is_in_the_file():
    """RULES.md §8.1 Score and move counter: the 117-action win ends at 1183."""
    by_log = {tuple(vector["log"]): vector for vector in VECTORS["vectors"] if vector["deck"] == DECK_TEXT}
    win = by_log[(*WIN, "U")]
    assert win["result"] == {"won": True, "moves": 117, "score": 1183, "runs_removed": 8, "stock_left": 0}
    assert win["error"]["index"] == 117
    with_undos = by_log[tuple(WITH_UNDOS)]
    assert with_undos["undo_limit"] is None and with_undos["result"]["score"] == 1183
    assert {"undo of a deal", "undo of a run"} <= set(with_undos["cases"])


def test_the_score_reaches_0_and_a_run_then_gives_100():
    vector = next(vector for vector in VECTORS["vectors"] if "run at a score of 0" in vector["cases"])
    scores = [step["score"] for step in vector["steps"]]
    assert 0 in scores and 100 in scores[scores.index(0):]
    assert GameCode.parse(vector["code"]).suits == 1
