"""The widening schedule: the beams a solve runs and their order, fixed before it starts.

A solve runs the widths of ``WIDTHS`` (by suit count) in turn, each a beam of
``MODE_SEARCH`` choosing its positions as ``SELECTION`` says, with an early exhaustive
search on a share of the budget in their midst if the caller asks for one. What the
driver does when a beam ends (go on, run the exhaustive search, stop) is
:mod:`~spider_solver.engine.driver`'s; the schedule is not changed while it runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from spider_solver.engine.beam import STRATA_SELECTION, UNLIMITED
from spider_solver.engine.search import SELECT_SHARED
from spider_solver.outcomes import SearchMode

#: Beam widths per stratum, tried in turn while the budget lasts, by suit count. The
#: first width sets the usual cost and line length (4 suits keep 64: the batch's speed
#: comes first); the default budget lets the whole schedule run on the hard deals
#: (benchmarks/HISTORY.md, "The widening schedule").
WIDTHS = {
    1: (128, 512, 2048, 8192, 16384),
    2: (224, 1024, 4096, 16384),
    4: (64, 256, 1024, 4096, 16384),
}
#: How each beam of the schedule chooses a level's positions (``search.SELECT_*`` with
#: its offset, floor and cap), by suit count. Only the schedule's beams use it:
#: ``improve`` and the exhaustive proof do not (benchmarks/HISTORY.md, "Beam selection").
SELECTION = {
    1: STRATA_SELECTION,
    2: (SELECT_SHARED, 120, 500, 2000),
    4: (SELECT_SHARED, 70, 500, 2000),
}


@dataclass(frozen=True)
class Step:
    """One beam of a schedule: its width and mode, and the most nodes it may spend."""

    width: int
    mode: SearchMode
    #: None: what is left of the search's budget.
    nodes: int | None = None

    @property
    def proof(self) -> bool:
        """True for the exhaustive search (``MODE_PROOF``, every position kept)."""
        return self.mode.exhaustive


#: The exhaustive search, with what is left of the budget.
PROOF = Step(UNLIMITED, SearchMode.PROOF)


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
        steps = [Step(width, SearchMode.SEARCH) for width in (widths or WIDTHS[suits])]
        if proof_nodes > 0:
            steps.insert(min(proof_after, len(steps)), Step(UNLIMITED, SearchMode.PROOF, proof_nodes))
        return cls(tuple(steps), SELECTION[suits] if selection is None else selection, final_proof)


__all__ = ["PROOF", "SELECTION", "STRATA_SELECTION", "WIDTHS", "Schedule", "Step"]
