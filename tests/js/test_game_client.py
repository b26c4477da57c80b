"""A frontend that is not the web client plays a whole game through the documented API: the
Node script tests/js/game_client.mjs against a real ``spider-solve serve`` (a catalog of
verified 1-suit deals, a --secret-file). Skipped without Node, a failure under CI (as every
JavaScript test: tests/js/node.py). The latency of each call is printed (``pytest -s``)."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.cli.test_serve import Served
from tests.js.node import ROOT, node

pytestmark = [pytest.mark.usefixtures("engine", "fair_hints"), pytest.mark.slow]

DEALS = ("SP1-S1C-AAAAAAB", "SP1-S1C-AAAAAAC", "SP1-S1C-AAAAAAD")


def test_a_node_client_plays_a_whole_game_through_the_documented_api(tmp_path):
    from spider_solver import solve
    from spider_solver.catalog import Catalog

    runner = node()
    with Catalog(tmp_path / "catalog.sqlite") as db:
        for code in DEALS:
            db.record(solve(code))
    secret = tmp_path / "secret"
    secret.write_text("0123456789abcdef" * 4 + "\n")
    served = Served("--catalog", str(tmp_path / "catalog.sqlite"), "--solvers", "1", "--secret-file", str(secret),
                    cwd=tmp_path)
    try:
        done = subprocess.run([runner, str(ROOT / "tests" / "js" / "game_client.mjs"), served.url + "/", str(secret)],
                              capture_output=True, text=True, timeout=600)
        assert served.stop() == 0
    finally:
        served.kill()
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    calls = [json.loads(line) for line in done.stdout.splitlines()]
    summary = calls.pop()
    assert summary["done"] is True and summary["code"] in DEALS
    steps = {call["step"] for call in calls}
    assert {"daily deal", "move", "deal", "undo", "refused action", "hint 1", "fair hint", "can I still win?", "submit the game",
            "submit it again", "verify the receipt", "redeem it again", "an altered receipt"} <= steps
    assert {call["status"] for call in calls if call["step"] == "refused action"} == {422}
    for call in calls:
        print(f"{call['step']:<24} {call['call']:<28} {call['status']} {call['ms']:8.2f} ms")
    assert "Traceback" not in "".join(served.lines)
