"""Where a game was lost (spider_solver/analysis/lost.py): the bisection's next probe, its
share of the budget, the bracket a small budget still gives, lost_at with undos and on a real deal."""

from __future__ import annotations

import random

import pytest

from spider_solver.analysis import (
    LOST_AT_LAST_DEAL_SHARE,
    LOST_AT_SHARE,
    Bracket,
    analyze,
)
from spider_solver.analysis.lost import Joined, _next_probe, _probe_share, ways_back
from spider_solver.analysis.search import Session
from spider_solver.outcomes import Status
from spider_solver.rules import Board, Deal, Move, Variant, replay
from spider_solver.rules.variant import CLASSIC, RELAXED
from tests.analysis.helpers import (
    BUDGET,
    SIZES,
    TINY_BUDGET,
    effective_history,
    position_after,
    random_log,
    stuck_log,
)
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
    # A deal cannot be taken back: the initial layout is searched, and proved unwinnable.
    analysis = analyze(deal, ["D"], max_nodes=TINY_BUDGET, max_seconds=None)
    assert analysis.status is Status.UNWINNABLE and analysis.lost_at is None
    assert [(p.position, p.status, p.first, p.last) for p in analysis.probes] == [(0, "unwinnable", 0, 0)]
    assert analysis.deal_lost_from_the_start and analysis.bracket == Bracket(None, None, (), 0, None)
    # 1>2 (2H onto 3S, column 1 left empty) can be taken back: the initial layout reaches
    # the final position and back, so it shares its proof, with no search.
    log = [Board(deal).notation(Board(deal).legal_moves()[0])]
    assert log == ["1>2"]
    analysis = analyze(deal, log, max_nodes=TINY_BUDGET, max_seconds=None)
    assert analysis.status is Status.UNWINNABLE and analysis.lost_at is None
    assert analysis.probes == () and analysis.deal_lost_from_the_start
    assert analysis.bracket == Bracket(None, None, (), 0, None)
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


def reachable(deal: Deal, moves: list[str], limit: int = 3_000) -> set | None:
    """Every position reachable from the one ``moves`` reach (rules engine, breadth first), or
    None past ``limit`` positions."""
    board = Board(deal, undo_limit=0)
    for action in moves:
        board.push_notation(action)
    seen = {position_after(deal, moves)}
    frontier = [board]
    while frontier:
        after = []
        for here in frontier:
            for action in here.legal_moves():
                there = here.copy()
                there.push(action)
                key = (tuple(tuple(column) for column in there.columns), tuple(there.down), there.dealt)
                if key not in seen:
                    seen.add(key)
                    after.append(there)
        if len(seen) > limit:
            return None
        frontier = after
    return seen


def test_a_move_that_turned_up_a_card_is_not_taken_back_even_when_its_cards_can_go_back():
    # 2S leaves 3S (face down) for the other 3S; 3S turns up, and 2S may go back onto it,
    # but that position has 3S face up: the one before the move is out of reach.
    deal = Deal.from_columns(["3S 2S", "AS 3S"], ["AS 2S"], Variant(suits=1, ranks=3, runs=2, columns=2, layout=4))
    board = Board(deal)
    board.push_notation("1>2")
    assert board.down == [0, 1] and board.is_legal(Move(2, 1, 1))
    assert ways_back(deal, False, ["1>2"]) == [None]
    assert Joined.along(deal, False, ["1>2"]).first == (0, 1)
    # Moved on to 3S again from the other column, 2S can go back: one stretch from then on.
    assert ways_back(deal, False, ["1>2", "2>1"]) == [None, "1>2"]
    assert Joined.along(deal, False, ["1>2", "2>1"]).first == (0, 1, 1)


@pytest.mark.slow
def test_positions_of_the_history_reach_each_other_exactly_when_joined_by_moves_back():
    """lost.py's claim, against a breadth-first search of the rules engine: an earlier
    position of the history is reachable from a later one exactly when every action
    between them can be taken back by one move, and those moves lead back to it."""
    size, logs = SIZES["2s-3r-3c"]
    rng = random.Random("joined by moves back")
    pairs = joined = 0
    for n in range(logs):
        deck = Variant(**size).unshuffled()
        rng.shuffle(deck)
        deal = tiny(" ".join(str(card) for card in deck), CLASSIC if n % 2 else RELAXED, **size)
        log = random_log(deal, rng, rng.randint(4, 12), False, 0)
        stretches = Joined.along(deal, False, log)
        assert stretches.back == tuple(ways_back(deal, False, log))
        for later in range(len(log) + 1):
            reach = reachable(deal, log[:later])
            if reach is None:
                continue
            for earlier in range(later):
                together = stretches.first[later] <= earlier
                assert together == (position_after(deal, log[:earlier]) in reach), (deal.text(), log, earlier, later)
                assert together == (stretches.last[earlier] >= later)
                if together:
                    back = replay(deal, [*log[:later], *stretches.way_back(earlier, later)], undo_limit=0)
                    assert back.error is None and position_after(deal, back.played) == position_after(
                        deal, log[:earlier])
                pairs += 1
                joined += together
    assert pairs >= 200 and 0 < joined < pairs, (pairs, joined)


def without_reuse(monkeypatch) -> None:
    """The bisection as it was before proofs were reused: each position its own stretch, and
    each search with no position known lost."""
    def alone(cls, deal, deal_on_empty, moves):
        positions = tuple(range(len(moves) + 1))
        return cls((None,) * len(moves), positions, positions)

    search = Session.search

    def forgetting(self, *args, **kwargs):
        self.lost = None
        return search(self, *args, **kwargs)

    monkeypatch.setattr(Joined, "along", classmethod(alone))
    monkeypatch.setattr(Session, "search", forgetting)


@pytest.mark.parametrize("name", ["2s-3r-3c", "2s-4r-3c-deep"])
def test_the_bisection_reuses_its_proofs_and_answers_as_without(name, monkeypatch):
    """With the proofs reused (the stretches joined by moves back searched once, the positions
    proved lost skipped), analyze answers as it did without, on fewer nodes and searches."""
    size, logs = SIZES[name]
    rng = random.Random(f"reuse {name}")
    cases = []
    for n in range(2 * logs):
        deck = Variant(**size).unshuffled()
        rng.shuffle(deck)
        deal = tiny(" ".join(str(card) for card in deck), CLASSIC if n % 2 else RELAXED, **size)
        cases.append((deal, stuck_log(deal, n)))
    reused = [analyze(deal, log, max_nodes=TINY_BUDGET, max_seconds=None) for deal, log in cases]
    with monkeypatch.context() as patch:
        without_reuse(patch)
        alone = [analyze(deal, log, max_nodes=TINY_BUDGET, max_seconds=None) for deal, log in cases]
    lost = 0
    for (deal, log), after, before in zip(cases, reused, alone, strict=True):
        assert (after.status, after.lost_at, after.lost_at_action) == (before.status, before.lost_at,
                                                                       before.lost_at_action), (deal.text(), log)
        if after.bracket is None:
            assert before.bracket is None
            continue
        lost += 1
        assert before.bracket is not None
        assert (after.bracket.winnable, after.bracket.unwinnable) == (before.bracket.winnable,
                                                                      before.bracket.unwinnable)
        if after.lost_at is not None:
            b = after.bracket.winnable
            assert replay(deal, [*log[:b], *after.lost_at_line], undo_limit=0).won
        # Each probe's answer holds for its stretch, and no stretch is searched twice.
        spans = [(p.first, p.last) for p in after.probes if p.nodes]
        assert len(spans) == len(set(spans)) and all(p.first <= p.position == p.last for p in after.probes)
    assert lost >= 4
    # In all (a game's searches differ: a stretch is searched from its last position).
    assert sum(a.nodes for a in reused) < sum(a.nodes for a in alone)
    assert sum(len(a.probes) for a in reused) < sum(len(a.probes) for a in alone)
