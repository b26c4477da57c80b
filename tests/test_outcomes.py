"""The words of an unknown answer: what was searched, whether a proof was tried and why it stopped."""

from spider_solver.outcomes import (
    REASONS_BY_STATUS,
    UNKNOWN_BECAUSE,
    AttemptSummary,
    BeamOutcome,
    Reason,
    SearchMode,
    Status,
    what_was_tried,
)


def beam(width: int, outcome: str, nodes: int = 1000) -> AttemptSummary:
    return AttemptSummary(width, SearchMode.SEARCH, BeamOutcome(outcome), nodes=nodes, levels=10, peak_level=64)


def proof(outcome: str, nodes: int, peak: int = 0, limit: int = 400_000) -> AttemptSummary:
    return AttemptSummary(None, SearchMode.PROOF, BeamOutcome(outcome), nodes=nodes, levels=30, peak_level=peak,
                          level_limit=limit)


def test_every_unknown_reason_has_words():
    assert set(UNKNOWN_BECAUSE) == set(REASONS_BY_STATUS[Status.UNKNOWN])
    # The cap on a line's length is the beam's, not a sign that a long winning line exists.
    assert "no beam found a winning line" in UNKNOWN_BECAUSE[Reason.LEVELS]


def test_a_proof_that_gave_up_says_where_and_the_budget_left():
    words = what_was_tried([beam(64, "cut"), proof("cut", 2_000_000, peak=412_345), beam(256, "cut"),
                            beam(1024, "levels")], 31_000_000, 60_000_000)
    assert words == ("beams of width 64, 256, 1,024 found no winning line (each ran out of positions to keep or "
                     "reached its cap on a line's length); a proof (every legal action searched) gave up after "
                     "2,000,000 nodes at a level of 412,345 positions, over the 400,000 it may keep in memory; "
                     "31,000,000 of 60,000,000 nodes spent")


def test_a_proof_that_ran_out_of_nodes_and_no_proof_at_all():
    assert what_was_tried([beam(64, "cut"), proof("nodes", 2_000_000), beam(256, "nodes")], 60_000_000,
                          60_000_000) == (
        "beams of width 64, 256 found no winning line (the last was cut short by the node budget); a proof (every "
        "legal action searched) ran out of its 2,000,000 nodes before it could settle the position; 60,000,000 of "
        "60,000,000 nodes spent")
    assert what_was_tried([beam(64, "seconds")], 5000, 60_000_000) == (
        "a beam of width 64 found no winning line (it was cut short by the time budget); no proof was tried; "
        "5,000 of 60,000,000 nodes spent")
    assert what_was_tried([], 0, 60_000_000) == "nothing was searched; 0 of 60,000,000 nodes spent"
    # --max-seconds 0.001: the beam started and was stopped before its first node
    assert what_was_tried([beam(64, "seconds", nodes=0)], 0, 60_000_000) == (
        "a beam of width 64 was cut short by the time budget before it searched a position; no proof was tried; "
        "0 of 60,000,000 nodes spent")
