"""``spider-solve improve`` end to end on a tiny catalog: shorter lines replace stored ones
only after the rules engine replays them to a win, par follows, the budget spent is
recorded so a rerun skips, bad input exits 2, and the export carries par."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from spider_solver.catalog import Catalog
from spider_solver.cli import cli
from spider_solver.export import schema_text
from spider_solver.record import SolveRecord
from spider_solver.rules import Deal, replay

pytestmark = pytest.mark.usefixtures("engine")

CODE = "SP1-S1C-AAAAABA"
BUDGET = ("--max-nodes", "200000", "--max-seconds", "0")


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def long_line() -> tuple[str, ...]:
    """A winning line of CODE with detours: the narrowest beam's, unshortened."""
    from spider_solver.engine.beam import Beam
    from spider_solver.engine.driver import Budget, beam
    from spider_solver.engine.game import Game

    game = Game.from_deal(Deal.from_code(CODE))
    attempt = beam(game, Beam(8), Budget(5_000_000, None))
    assert attempt.outcome == "won"
    return tuple(str(action) for action in game.actions(attempt.moves))


@pytest.fixture
def catalog(tmp_path) -> Path:
    path = tmp_path / "catalog.sqlite"
    line = long_line()
    result = replay(Deal.from_code(CODE), line, undo_limit=0)
    assert result.won
    with Catalog(path) as db:
        db.record(SolveRecord(CODE, "verified", tuple(result.played), moves=result.moves, score=result.score,
                              nodes=10, max_nodes=100))
        db.record(SolveRecord("SP1-S4C-AAAAAAF", "unknown", nodes=100, max_nodes=100, reason="nodes"))
    return path


def test_improve_shortens_records_and_skips_on_a_rerun(catalog):
    with Catalog(catalog, create=False) as db:
        before = db.get(CODE)
    result = invoke("improve", "--catalog", str(catalog), "--workers", "1", *BUDGET)
    assert result.exit_code == 0, result.output
    assert "improved 1 of 1 deal (1 action saved)" in result.stderr
    with Catalog(catalog, create=False) as db:
        after = db.get(CODE)
        assert db.get("SP1-S4C-AAAAAAF").par is None
    assert after.moves < before.moves and after.par == after.score == before.score + (before.moves - after.moves)
    won = replay(Deal.from_code(CODE), after.solution, undo_limit=0)
    assert won.won and won.moves == after.moves and won.score == after.score
    assert after.improve_nodes == 200_000 and after.improve_version and after.improve_seconds >= 0
    assert after.difficulty == before.difficulty and after.nodes == before.nodes
    again = invoke("improve", "--catalog", str(catalog), "--max-nodes", "150000")
    assert again.exit_code == 0 and "nothing to improve: 1 verified deal (1 already improved" in again.stderr
    # The export carries par, and it validates against the JSON Schema.
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(schema_text())
    exported = json.loads(invoke("export", "--catalog", str(catalog)).stdout)
    jsonschema.validate(exported, schema)
    assert {row["code"]: row["par"] for row in exported} == {CODE: after.score, "SP1-S4C-AAAAAAF": None}
    assert exported[0]["improve_nodes"] == 200_000


def test_a_row_that_cannot_be_read_is_reported_and_the_others_improved(catalog):
    """A row no command wrote (its code edited by hand): reported, exit 1, the other
    deals improved as without it (grade and check treat such a row alike)."""
    import sqlite3

    with Catalog(catalog, create=False) as db:
        entry = db.get(CODE)
    line = tuple(entry.solution)
    with Catalog(catalog, create=False) as db:
        db.record(SolveRecord("SP1-S1C-AAAAAAA", "verified", line, moves=len(line), score=1300 - len(line),
                              nodes=10, max_nodes=100))
    edit = sqlite3.connect(catalog)
    edit.execute("UPDATE results SET code = 'garbage' WHERE code = 'SP1-S1C-AAAAAAA'")
    edit.commit()
    edit.close()
    result = invoke("improve", "--catalog", str(catalog), "--workers", "1", *BUDGET)
    assert result.exit_code == 1, result.output
    assert "error: 'garbage' cannot be improved: invalid game code 'garbage'" in result.stderr
    with Catalog(catalog, create=False) as db:
        assert db.get(CODE).improve_nodes == 200_000


@pytest.mark.parametrize("args, message", [
    (("--max-nodes", "0"), "0 is not in the range 1 to"),
    (("--max-nodes", "x"), "'x' is not a whole number"),
    (("--max-seconds", "nan"), "is not a number of seconds"),
    (("--workers", "0"), "0 is not in the range 1 to"),
    (("--suits", "3"), "'3' is not one of"),
])
def test_improve_refuses_bad_input(catalog, args, message):
    result = invoke("improve", "--catalog", str(catalog), *args)
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.output


def test_improve_refuses_a_catalog_it_cannot_write_before_searching(catalog, monkeypatch):
    """A read-only folder (a read-only mount): said at once, not after a deal's search."""
    import os

    import spider_solver.batch.improve as improving

    folder, real_access = catalog.resolve().parent, os.access
    monkeypatch.setattr(os, "access", lambda path, mode: False if Path(path) == folder and mode == os.W_OK
                        else real_access(path, mode))
    monkeypatch.setattr(improving, "local_pool", lambda *args, **kwargs: pytest.fail("searched first"))
    result = invoke("improve", "--catalog", str(catalog), *BUDGET)
    assert result.exit_code == 2
    assert "cannot be written (its folder cannot be written): improve records the lines" in result.stderr


def test_improve_refuses_a_missing_catalog(tmp_path):
    result = invoke("improve", "--catalog", str(tmp_path / "none.sqlite"))
    assert result.exit_code == 2 and "no catalog at" in result.stderr


def test_improve_refuses_a_line_that_does_not_win_and_keeps_a_line_it_cannot_beat():
    from spider_solver.errors import IllegalActionError, InvalidActionError
    from spider_solver.verify import improve

    line = long_line()
    with pytest.raises(IllegalActionError, match="does not win"):
        improve(CODE, line[:-1], max_nodes=1000)
    with pytest.raises(InvalidActionError, match=r"^the line to improve is refused: invalid action '9-4': expected D"):
        improve(CODE, [*line[:3], "9-4"], max_nodes=1000)
    with pytest.raises(IllegalActionError, match=r"refused: action 6 \(index 5: 'D'\) refused: cannot deal"):
        improve(CODE, ("D", "D", "D", "D", "D", "D"), max_nodes=1000)
    kept = improve(CODE, line, max_nodes=1)  # no budget: the line given (shortening costs no nodes)
    assert kept.moves <= len(line) and replay(Deal.from_code(CODE), kept.solution, undo_limit=0).won
    assert kept.nodes <= 1 and kept.before == len(line)


def test_improve_defaults_to_the_budget_of_each_suit_count(catalog, monkeypatch):
    """Without --max-nodes each deal gets its suit count's default (verify.IMPROVE_MAX_NODES),
    planned, run and recorded at that budget; a rerun skips it, a larger --max-nodes does not."""
    from spider_solver import verify

    monkeypatch.setitem(verify.IMPROVE_MAX_NODES, 1, 120_000)
    monkeypatch.setitem(verify.IMPROVE_MAX_NODES, 4, 7)
    result = invoke("improve", "--catalog", str(catalog), "--max-seconds", "0")
    assert result.exit_code == 0, result.output
    assert "the default nodes a deal (7 at 4 suits" in result.stderr and "120,000 at 1 suit)" in result.stderr
    with Catalog(catalog, create=False) as db:
        assert db.get(CODE).improve_nodes == 120_000
    again = invoke("improve", "--catalog", str(catalog), "--suits", "1")
    assert again.exit_code == 0 and "(1 already improved at this budget)" in again.stderr
    larger = invoke("improve", "--catalog", str(catalog), "--suits", "1", "--max-nodes", "130000", "-q")
    with Catalog(catalog, create=False) as db:
        assert larger.exit_code == 0 and db.get(CODE).improve_nodes == 130_000


def test_improve_defaults_by_suit_count_in_python(monkeypatch):
    from spider_solver import verify

    assert verify.improve_nodes(4) == verify.IMPROVE_MAX_NODES[4]
    monkeypatch.setitem(verify.IMPROVE_MAX_NODES, 1, 1)
    kept = verify.improve(CODE, long_line())
    assert kept.max_nodes == 1 and kept.nodes <= 1


def test_a_stop_after_the_last_deal_was_written_interrupted_nothing(catalog, monkeypatch):
    import signal

    record = Catalog.record_improvement

    def record_then_ctrl_c(self, *args, **kwargs):
        replaced = record(self, *args, **kwargs)
        signal.raise_signal(signal.SIGINT)  # Ctrl-C as the pool shuts down, the one deal written
        return replaced

    monkeypatch.setattr(Catalog, "record_improvement", record_then_ctrl_c)
    result = invoke("improve", "--catalog", str(catalog), "--workers", "1", *BUDGET)
    assert result.exit_code == 0, result.output
    assert "improved 1 of 1 deal (1 action saved)" in result.stderr and "interrupted" not in result.stderr


def test_a_stop_while_the_engine_compiles_does_not_wait_for_it(catalog, monkeypatch):
    """Ctrl-C during the compile (a minute on a fresh install) stops the pass at once."""
    import io

    from spider_solver import verify
    from spider_solver.batch.improve import ImproveOptions, run_improve
    from tests.batch.test_batch import compile_interrupted

    monkeypatch.setattr(verify, "load_engine", lambda say, here=True: compile_interrupted(say))
    stream = io.StringIO()
    from spider_solver.cli.words import teller

    report = run_improve(ImproveOptions(catalog=str(catalog), workers=1), stream=stream, tell=teller(stream))
    assert (report.interrupted, report.done) == (True, 0)
    assert "interrupted: 0 deals written, 1 left" in stream.getvalue()


def crash_improve(*args):
    import os

    os._exit(3)  # a worker process dying under the executor


def test_a_dead_worker_stops_the_pass_and_says_what_was_not_tried(catalog, monkeypatch):
    from spider_solver.batch import improve

    monkeypatch.setattr(improve, "improve_deal", crash_improve)
    result = invoke("improve", "--catalog", str(catalog), "--workers", "1", *BUDGET)
    assert result.exit_code == 1, result.output
    assert "error: the worker pool broke" in result.stderr
    assert result.stderr.strip().endswith("0 deals written, 1 not tried; run the same command again to carry on")


def test_a_stop_while_a_write_waits_for_the_lock_says_how_far_it_got(catalog, monkeypatch):
    import signal

    record = Catalog.record_improvement

    def record_waiting_for_a_lock(self, *args, **kwargs):
        signal.raise_signal(signal.SIGINT)
        self.stop_check()  # what the wait for the lock does between two tries
        return record(self, *args, **kwargs)

    monkeypatch.setattr(Catalog, "record_improvement", record_waiting_for_a_lock)
    result = invoke("improve", "--catalog", str(catalog), "--workers", "1", *BUDGET)
    assert result.exit_code == 130, result.output
    assert result.stderr.strip().endswith("interrupted: 0 deals written, 1 left; run the same command again to "
                                          "carry on")
