"""benchmarks/bench_fair.py's calibration of recorded games: it reads the games files and
writes them only when told to (they are the record of what was played)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "benchmarks" / "results" / "fair-s4-sign-games.jsonl"


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_fair.py"), *args],
                          capture_output=True, text=True, timeout=120)


def test_a_calibration_with_chances_made_again_leaves_the_games_file_as_played_unless_told(tmp_path):
    games = tmp_path / "games.jsonl"
    shutil.copy(GAMES, games)
    printed = bench("--calibration", str(games), "--rechance")
    assert printed.returncode == 0, printed.stderr
    assert "| predicted chance |" in printed.stdout
    assert games.read_bytes() == GAMES.read_bytes()
    written = bench("--calibration", str(games), "--rechance", "--write-back")
    assert written.returncode == 0, written.stderr
    # The file's chances are an older model's: made again, some differ.
    assert games.read_bytes() != GAMES.read_bytes()
    assert len(games.read_text().splitlines()) == len(GAMES.read_text().splitlines())


def test_write_back_goes_only_with_a_calibration_made_again_and_no_result_file(tmp_path):
    games = tmp_path / "games.jsonl"
    shutil.copy(GAMES, games)
    for args in (["--calibration", str(games), "--write-back"],
                 ["--calibration", str(games), "--rechance", "--write-back", "--calibration-out",
                  str(tmp_path / "out.json")]):
        refused = bench(*args)
        assert refused.returncode == 2 and "--write-back goes with --calibration and --rechance" in refused.stderr
    assert games.read_bytes() == GAMES.read_bytes()
