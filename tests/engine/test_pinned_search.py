"""The beam's node counts and raw lines, pinned on a few deals.

Figures of the engine before the cheaper node (issue 11; commit 0c76759), which
must not change while the search order does not: a single beam (``driver.beam``,
before shortening, which other work may change) of the default first width, in
both rules and all suit counts, and the exhaustive search cut at 200,000 nodes.
The raw line is pinned by a digest of its move codes. A change here means the
search now searches differently: say where, and measure it (benchmarks/bench_solve.py;
why it changed goes to benchmarks/HISTORY.md).
"""

from __future__ import annotations

import hashlib

import pytest

from spider_solver.engine.beam import Beam, Exhaustive
from spider_solver.engine.driver import SELECTION, Budget, beam
from spider_solver.engine.game import Game
from spider_solver.rules import Deal, GameCode
from spider_solver.rules.variant import CLASSIC, RELAXED

PINNED = [
    # (suits, rule, number, mode, max nodes): outcome, nodes, line length, line digest, peak level, stored
    ((4, CLASSIC, 0, Beam(64), 2_000_000), ("won", 315297, 146, "c0d7403edae27cd5", 384, 54444)),
    ((2, CLASSIC, 7, Beam(64), 2_000_000), ("won", 261825, 110, "7cada9fcfaaca894", 384, 32419)),
    ((1, RELAXED, 3, Beam(32), 2_000_000), ("won", 160870, 95, "228e11fe1d81cb81", 192, 14303)),
    ((4, RELAXED, 11, Beam(64), 2_000_000), ("won", 395767, 130, "fbb7bc86dca89d30", 384, 48344)),
    ((4, CLASSIC, 5, Exhaustive(every_action=True), 200_000), ("nodes", 200000, 0, "4f53cda18c2baa0c", 29780, 37233)),
]


@pytest.mark.parametrize(("search", "expected"), PINNED)
def test_pinned_beam(search, expected):
    suits, rule, number, mode, max_nodes = search
    game = Game.from_deal(Deal.from_code(GameCode(suits, rule, number)))
    attempt = beam(game, mode, Budget(max_nodes, None))
    line = attempt.moves or []
    digest = hashlib.sha256(str(line).encode()).hexdigest()[:16]
    assert (attempt.outcome, attempt.nodes, len(line), digest, attempt.peak_level, attempt.tt_stored) == expected


PINNED_SHARED = [
    # 4-suit beams share a level's room between strata (driver.SELECTION[4], since issue 11)
    ((CLASSIC, 0), ("won", 611314, 183, "e147c9d1066f487e", 384, 68993)),
    ((RELAXED, 11), ("won", 521989, 128, "392574639ccfc279", 384, 47916)),
]


@pytest.mark.parametrize(("deal", "expected"), PINNED_SHARED)
def test_pinned_shared_beam(deal, expected):
    rule, number = deal
    game = Game.from_deal(Deal.from_code(GameCode(4, rule, number)))
    attempt = beam(game, Beam(64, SELECTION[4]), Budget(2_000_000, None))
    line = attempt.moves or []
    digest = hashlib.sha256(str(line).encode()).hexdigest()[:16]
    assert (attempt.outcome, attempt.nodes, len(line), digest, attempt.peak_level, attempt.tt_stored) == expected
