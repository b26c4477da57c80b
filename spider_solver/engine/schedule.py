"""The widening schedule: the beams a solve runs and their order, fixed before it starts.

A solve runs the widths of ``WIDTHS`` (by suit count) in turn, each a beam of
``MODE_SEARCH`` choosing its positions as ``SELECTION`` says, with an early exhaustive
search on a share of the budget in their midst if the caller asks for one. What the
driver does when a beam ends (go on, run the exhaustive search, stop) is
:mod:`~spider_solver.engine.driver`'s; the schedule is not changed while it runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from spider_solver.engine.beam import MAX_LEVELS, STRATA_SELECTION, UNLIMITED
from spider_solver.engine.search import SELECT_SHARED
from spider_solver.engine.types import MODE_ALL, MODE_SEARCH

#: Beam widths per stratum, tried in turn while the budget lasts, by suit count.
#: The first width sets the usual cost and line length: on the tuning deals
#: (10000-10099) starting 4-suit deals at 16 / 64 / 128 gave median lines of
#: 160 / 149 / 142 actions for 0.15 / 0.21 / 0.41 s; see benchmarks/RESULTS.md.
#: Since the node became 2.7 times cheaper (issue 11), 1 suit starts four times as wide
#: as before (32) and 2 suits twice (64), in no more time than before the change: on
#: the tuning deals 96 -> 92 actions (1 suit, with the post-pass) and 111 -> 109.5 (2 suits).
#: 4 suits keep 64: the 1000-deal batch's time target leaves no room there. With the
#: 2-suit weights of their own (evaluate.SOLVE_WEIGHTS) 2 suits started at 256: on tuning
#: deals 100000-100199 a mean 105.6 -> 103.7 actions for twice the nodes (0.1 -> 0.2 s
#: a deal), within the time 2-suit solves took when issue 11 was filed (0.224 s). With
#: the shared selection (SELECTION) they start at 224, for the same time.
#: Most deals are won by the first width or two; the default budget (150M nodes,
#: verify.DEFAULT_MAX_NODES) lets the whole schedule run on the hard ones: on the 4-suit
#: tuning deals width 4096 ended after 12-33M nodes in all, and 16384, the widest,
#: took 55-63M more, at a peak of about 560 MB (benchmarks/RESULTS.md, "Tail strength").
WIDTHS = {
    1: (128, 512, 2048, 8192, 16384),
    2: (224, 1024, 4096, 16384),
    4: (64, 256, 1024, 4096, 16384),
}
#: How each beam of the schedule chooses a level's positions (search.SELECT_*), by suit
#: count. 4 suits share the level's room between the strata, a deal made counting 70 in
#: the evaluation's units (a break costs 7-9, a removed run 36), each stratum keeping at
#: least half the width and taking at most twice: on the tuning deals 10000-10199 the
#: schedule's lines went from a median of 147 to 141.5 (mean 151.7 to 146.0) for 0.93
#: times the median nodes, the 4-suit post-pass now being off (rephase.POLISH_NODES)
#: since it added nothing on top. At 2 suits, with their own weights, a deal made counts
#: 120 and the first width is 224 instead of 256: on tuning deals 100000-100199 (chosen
#: there, offsets 70-180 and widths 192-256 tried) a paired -0.92 +- 0.20 actions a deal,
#: and on unseen tuning deals 100200-100499 -0.87 +- 0.18 (mean 103.5 -> 102.7) for 1.06
#: times the nodes. 1 suit keeps one width per stratum. Only the schedule's beams use
#: it: ``improve`` and the exhaustive proof do not.
SELECTION = {
    1: STRATA_SELECTION,
    2: (SELECT_SHARED, 120, 500, 2000),
    4: (SELECT_SHARED, 70, 500, 2000),
}


@dataclass(frozen=True)
class Step:
    """One beam of a schedule: its width and mode, and the most nodes it may spend."""

    width: int
    mode: int
    #: None: what is left of the search's budget.
    nodes: int | None = None

    @property
    def proof(self) -> bool:
        """True for the exhaustive search (``MODE_ALL``, every position kept)."""
        return self.mode == MODE_ALL

    @property
    def max_levels(self) -> int:
        """The level cap: ``MAX_LEVELS`` for a beam of the search's move set, none for a proof."""
        return UNLIMITED if self.proof else MAX_LEVELS


#: The exhaustive search, with what is left of the budget.
PROOF = Step(UNLIMITED, MODE_ALL)


@dataclass(frozen=True)
class Schedule:
    """The beams of one solve in order (``steps``), how they choose a level's positions
    (``selection``), and whether the exhaustive search ends it when every step failed
    (``final_proof``)."""

    steps: tuple[Step, ...]
    selection: tuple[int, ...]
    final_proof: bool = False

    @classmethod
    def build(cls, suits: int, *, widths: tuple[int, ...] | None = None, selection: tuple[int, ...] | None = None,
              proof_nodes: int = 0, proof_after: int = 1, final_proof: bool = False) -> Schedule:
        """The schedule of a deal of ``suits`` suits: ``widths`` (default ``WIDTHS[suits]``)
        chosen by ``selection`` (default ``SELECTION[suits]``); ``proof_nodes`` > 0 puts an
        exhaustive search of at most that many nodes after the first ``proof_after`` widths."""
        steps = [Step(width, MODE_SEARCH) for width in (widths or WIDTHS[suits])]
        if proof_nodes > 0:
            steps.insert(min(proof_after, len(steps)), Step(UNLIMITED, MODE_ALL, proof_nodes))
        return cls(tuple(steps), SELECTION[suits] if selection is None else selection, final_proof)


__all__ = ["PROOF", "SELECTION", "STRATA_SELECTION", "WIDTHS", "Schedule", "Step"]
