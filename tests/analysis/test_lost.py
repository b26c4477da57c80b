"""Where a game was lost (spider_solver/analysis/lost.py): the bisection's next probe, its
share of the budget, the bracket a small budget still gives, lost_at with undos and on a real deal."""

from __future__ import annotations

import random

import pytest

from spider_solver.analysis import (
    LOST_AT_LAST_DEAL_SHARE,
    LOST_AT_SHARE,
    analyze,
)
from spider_solver.analysis.lost import _next_probe, _probe_share
from spider_solver.outcomes import Status
from spider_solver.rules import Board, Deal, Variant, replay
from spider_solver.rules.variant import CLASSIC
from tests.analysis.helpers import BUDGET, SIZES, TINY_BUDGET, effective_history, stuck_log
from tests.engine.test_tiny import brute_force, tiny

pytestmark = pytest.mark.usefixtures("engine")


def test_next_probe_goes_to_the_widest_stretch_not_yet_searched():
    assert _next_probe(-1, 10, set()) == 4
    # An unknown at 4 splits -1..10: the later stretch 4..10 is the wider.
    assert _next_probe(-1, 10, {4}) == 7
    # Equally wide stretches: the later one.
    assert _next_probe(0, 10, {5}) == 7
    assert _next_probe(0, 10, {5, 7}) == 2
    # Every position between the ends searched: nothing left.
    assert _next_probe(3, 5, {4}) is None and _next_probe(3, 4, set()) is None


def test_a_small_budget_still_gives_a_bracket():
    deal = Deal.from_code("SP1-S1C-AAAAAAD")
    log = stuck_log(deal, 3)
    full = analyze(deal, log, max_nodes=BUDGET, max_seconds=None)
    effective = effective_history(deal, log, False, 100)
    moves = [action for _, action in effective]
    for nodes in (full.nodes // 3, full.nodes // 8):
        analysis = analyze(deal, log, max_nodes=max(nodes, 1), max_seconds=None)
        if analysis.status is not Status.UNWINNABLE:
            continue
        bracket = analysis.bracket
        assert bracket is not None and bracket.unwinnable <= len(moves)
        if bracket.winnable is not None:
            assert replay(deal, [*moves[:bracket.winnable], *bracket.line], undo_limit=0).won
            # The full budget's step lies inside the small budget's bracket.
            assert full.bracket is not None and full.bracket.width == 1
            assert bracket.winnable <= full.bracket.winnable < full.bracket.unwinnable <= bracket.unwinnable


def test_each_search_of_the_bisection_spends_at_most_its_share_by_deals_left():
    # A 2-suit log lost before the last deal: its bisection searches positions with
    # several deals left and with exactly one, none of which this budget settles.
    deal = Deal.from_code("SP1-S2C-AAAAAAA")
    log = stuck_log(deal, 0)
    boards = [Board(deal, undo_limit=0)]
    for _, action in effective_history(deal, log, False, 100):
        boards.append(boards[-1].copy())
        boards[-1].push_notation(action)
    assert {_probe_share(board) for board in boards if board.deals_left == 1} == {LOST_AT_LAST_DEAL_SHARE}
    assert {_probe_share(board) for board in boards if board.deals_left != 1} == {LOST_AT_SHARE}
    assert LOST_AT_LAST_DEAL_SHARE < LOST_AT_SHARE
    nodes = 400_000
    analysis = analyze(deal, log, max_nodes=nodes, max_seconds=None)
    for probe in analysis.probes:  # proofs too; a known line's probe costs no nodes
        assert probe.nodes <= nodes // _probe_share(boards[probe.position]), probe
    # The larger share is spent: an unknown with one deal left took more than a quarter.
    assert any(boards[probe.position].deals_left == 1 and probe.status == "unknown"
               and probe.nodes > nodes // LOST_AT_SHARE for probe in analysis.probes), analysis.probes


def test_lost_at_counts_the_undos_in_the_log():
    # SMALL_2 of test_tiny, the known unwinnable deck: every log is lost from the start.
    # A deck from the random test where the first move is fine and a deal loses it:
    rng = random.Random("lost with undos")
    size = SIZES["2s-3r-3c"][0]
    for _ in range(60):
        deck = Variant(**size).unshuffled()
        rng.shuffle(deck)
        deal = tiny(" ".join(str(card) for card in deck), CLASSIC, **size)
        if not brute_force(deal, False)[0]:
            continue
        board = Board(deal, undo_limit=None)
        losing = next((a for a in board.legal_moves() if not brute_force(deal, False, [board.notation(a)])[0]), None)
        if losing is None:
            continue
        text = board.notation(losing)
        other = next(board.notation(a) for a in board.legal_moves() if a != losing)
        # Play another action, undo it, then the losing one: the step is at index 2.
        analysis = analyze(deal, [other, "U", text], max_nodes=TINY_BUDGET, max_seconds=None, undo_limit=None)
        assert analysis.status is Status.UNWINNABLE
        assert (analysis.lost_at, analysis.lost_at_action, analysis.effective) == (2, text, 1)
        # Losing, undoing and playing another action: winnable again.
        again = analyze(deal, [text, "U", other], max_nodes=TINY_BUDGET, max_seconds=None, undo_limit=None)
        assert again.status is Status.VERIFIED if brute_force(deal, False, [other])[0] else Status.UNWINNABLE
        return
    pytest.fail("no deck with a losing first action found")


def test_a_deal_that_cannot_be_won_has_no_lost_at():
    deal = tiny("2H 3S AS AS AH 2S AH 2S 2H 3H 3H 3S", CLASSIC, **SIZES["2s-3r-3c"][0])
    log = [Board(deal).notation(Board(deal).legal_moves()[0])]
    analysis = analyze(deal, log, max_nodes=TINY_BUDGET, max_seconds=None)
    assert analysis.status is Status.UNWINNABLE and analysis.lost_at is None
    assert any(p.position == 0 and p.status == "unwinnable" for p in analysis.probes)
    # With no action in effect (none played, or all undone), the position proved
    # unwinnable is the initial layout itself: the probe at position 0 says so too.
    for empty in ([], [log[0], "U"]):
        analysis = analyze(deal, empty, max_nodes=TINY_BUDGET, max_seconds=None)
        assert (analysis.status, analysis.lost_at, analysis.effective) == (Status.UNWINNABLE, None, 0)
        assert [(p.position, p.status) for p in analysis.probes] == [(0, "unwinnable")]
        assert analysis.probes[0].nodes == analysis.nodes > 0


def test_lost_at_on_a_real_deal():
    deal = Deal.from_code("SP1-S1C-AAAAAAD")
    log = stuck_log(deal, 3)
    analysis = analyze(deal, log, max_nodes=BUDGET, max_seconds=None)
    assert analysis.status is Status.UNWINNABLE
    assert analysis.lost_at is not None, analysis.probes
    b = next(i for i, (index, _) in enumerate(effective_history(deal, log, False, 100)) if index == analysis.lost_at)
    before = analyze(deal, log[:b], max_nodes=BUDGET, max_seconds=None, find_lost_at=False)
    after = analyze(deal, log[: b + 1], max_nodes=BUDGET, max_seconds=None, find_lost_at=False)
    assert before.status is Status.VERIFIED and after.status is Status.UNWINNABLE
    assert replay(deal, [*log[:b], *analysis.lost_at_line], undo_limit=0).won
    assert analysis.nodes >= sum(p.nodes for p in analysis.probes)
