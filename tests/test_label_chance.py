"""benchmarks/label_chance.py --figures: this checkout's hints made again at labelled
positions of recorded games, the figures the chance model is fitted on after a change of
the rollouts. They must be the hints a game would record there now, and a second run
must add nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "benchmarks" / "results" / "fair-s1-sign-games.jsonl"

pytestmark = pytest.mark.slow


def figures(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "label_chance.py"), *args],
                          capture_output=True, text=True, timeout=300)


def test_figures_are_the_hints_made_now_at_the_labelled_positions(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_fair import hint_record, read_games

    from spider_solver.analysis.fair import FAIR_ALTERNATIVES, FAIR_LAYOUTS
    from spider_solver.engine.fair_hint import fair_candidates, view_of
    from spider_solver.rules import Board, Deal

    game = next(g for g in read_games(GAMES) if g["player"] == "hint")
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps({"code": game["code"], "at": at, "won": 1, "layouts": 1}) + "\n"
                              for at in (0, 3)))
    out = tmp_path / "figures.jsonl"
    made = figures(str(GAMES), "--figures", str(labels), "--out", str(out), "--workers", "1")
    assert made.returncode == 0, made.stderr
    [written] = read_games(out)
    assert {key: written[key] for key in ("code", "won", "log")} == {key: game[key] for key in ("code", "won", "log")}

    board, history, expected = Board(Deal.from_code(game["code"]), undo_limit=0), [], []
    for at, action in enumerate(game["log"][:4]):
        if at in (0, 3):
            found = fair_candidates(board, history, layouts=FAIR_LAYOUTS, alternatives=FAIR_ALTERNATIVES, seed=0)
            if found[0].action == board.check(board.parse_action(action)):  # else left out
                expected.append(hint_record(board, at, found, 0.0))
        history.append(view_of(board)[1])
        board.push_notation(action)
    assert expected and [h["at"] for h in written["hints"]] == [h["at"] for h in expected]
    for got, want in zip(written["hints"], expected, strict=True):
        assert {k: v for k, v in got.items() if k != "seconds"} == {k: v for k, v in want.items() if k != "seconds"}

    again = figures(str(GAMES), "--figures", str(labels), "--out", str(out), "--workers", "1")
    assert again.returncode == 0, again.stderr
    assert "0 positions of 0 games (1 games already in" in again.stdout
    assert len(out.read_text().splitlines()) == 1


def test_a_missing_labels_file_is_refused(tmp_path):
    refused = figures(str(GAMES), "--figures", str(tmp_path / "none.jsonl"), "--out", str(tmp_path / "out.jsonl"))
    assert refused.returncode == 2 and "no such labels file" in refused.stderr
