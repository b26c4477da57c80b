"""The vocabulary of outcomes, shared by every layer: statuses, reasons, exit statuses,
and what one beam of a search did.

A solve ends with a :class:`Status` and the :class:`Reason` its search stopped for;
every command ends with an :class:`ExitStatus`. All three are enums whose values are
what the catalog, the exports and scripts see (``"verified"``, ``"nodes"``, ``3``),
so a member compares equal to its plain value. Each beam a search runs ends with a
:class:`BeamOutcome` and leaves its counters in an :class:`AttemptSummary` (its
:class:`SearchMode` says which move set and width), which a result carries up to
where it is printed.

This module depends on nothing, so that every layer (the engine included) can use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum


class Status(StrEnum):
    """What is known of a deal (or of a position) after a search."""

    #: A winning line was found and the reference rules engine replayed it to a win.
    VERIFIED = "verified"
    #: Every legal action was searched (pruned only by transpositions): no win exists.
    UNWINNABLE = "unwinnable"
    #: Neither: the budget ran out, or the search gave up. Never a win or a loss.
    UNKNOWN = "unknown"


class Reason(StrEnum):
    """Why a search stopped; every way a search can end has its own member."""

    #: A winning line was found (status verified).
    WON = "won"
    #: The exhaustive search ran out of positions: a proof (status unwinnable).
    EXHAUSTED = "exhausted"
    #: The node budget was spent.
    NODES = "nodes"
    #: The seconds budget, the safety net, ran out.
    SECONDS = "seconds"
    #: Ctrl-C (or SIGTERM turned into it) reached the search.
    INTERRUPTED = "interrupted"
    #: Every beam width of the schedule ended without a win.
    WIDTHS = "widths"
    #: The last beam reached the cap on the length of a line without a win.
    LEVELS = "levels"
    #: The exhaustive search met a level too large to hold, so it proves nothing.
    PROOF_GAVE_UP = "proof-gave-up"
    #: The engine's line was refused by the reference rules engine (the engines disagree).
    REJECTED = "rejected"


#: The reason each status can come with.
REASONS_BY_STATUS: dict[Status, frozenset[Reason]] = {
    Status.VERIFIED: frozenset({Reason.WON}),
    Status.UNWINNABLE: frozenset({Reason.EXHAUSTED}),
    Status.UNKNOWN: frozenset(set(Reason) - {Reason.WON, Reason.EXHAUSTED}),
}


#: What an unknown result (of a deal or a position) says, by the reason its search stopped.
UNKNOWN_BECAUSE: dict[Reason, str] = {
    Reason.NODES: "the node budget ran out",
    Reason.SECONDS: "the time budget ran out",
    Reason.INTERRUPTED: "the search was interrupted",
    Reason.WIDTHS: "no beam of the schedule found a winning line, and no proof settled it",
    Reason.LEVELS: "no beam found a winning line before its cap on a line's length, and no proof settled it",
    Reason.PROOF_GAVE_UP: "the proof gave up: a level held more positions than it may keep in memory",
    Reason.REJECTED: "the engine's line was refused by the rules engine",
}

class BeamOutcome(StrEnum):
    """How one beam ended; the last three are stops (the budget's or the user's)."""

    #: A level held a win: the attempt's ``moves`` are the line.
    WON = "won"
    #: The frontier emptied and no level was cut to the width: the move set is spent.
    EXHAUSTED = "exhausted"
    #: The frontier emptied after some level was cut to the width; or (the exhaustive
    #: search) a level had more positions than it may hold, so it proves nothing.
    CUT = "cut"
    #: The level cap was reached (watching a line: no level left can beat it).
    LEVELS = "levels"
    #: The node budget was spent.
    NODES = "nodes"
    #: The seconds budget ran out.
    SECONDS = "seconds"
    #: Ctrl-C reached the beam.
    INTERRUPTED = "interrupted"

    @property
    def stop(self) -> Reason | None:
        """The stop this outcome is (nodes, seconds, Ctrl-C), or None if the beam ended of itself."""
        return Reason(self.value) if self in _STOPS else None

    def reason(self, *, proof: bool) -> Reason:
        """Why a search ends whose last beam ended so (``proof``: the exhaustive search).

        An empty frontier proves the game lost only in the exhaustive search (cut: it gave
        up); a beam of the schedule that ends so has tried its width (``widths``). Every
        other outcome is the reason of the same name.
        """
        if self is BeamOutcome.CUT:
            return Reason.PROOF_GAVE_UP if proof else Reason.WIDTHS
        if self is BeamOutcome.EXHAUSTED:
            return Reason.EXHAUSTED if proof else Reason.WIDTHS
        return Reason(self.value)


_STOPS = frozenset({BeamOutcome.NODES, BeamOutcome.SECONDS, BeamOutcome.INTERRUPTED})


class SearchMode(StrEnum):
    """Which move set a beam searched, and whether it kept every position."""

    #: A beam of limited width over the search's move set (a beam of the schedule).
    SEARCH = "search"
    #: The exhaustive search (every position kept) over every legal action but the ones
    #: that only rename columns once the stock is empty: a proof.
    PROOF = "proof"
    #: The exhaustive search over every legal action.
    ALL = "all"

    @property
    def exhaustive(self) -> bool:
        """True for the exhaustive searches (``proof`` and ``all``): their end without a win is a proof."""
        return self is not SearchMode.SEARCH


@dataclass(frozen=True)
class AttemptSummary:
    """What one beam of a search did: its mode and outcome, and its counters.

    The engine makes one for each beam it runs (``engine.beam.Attempt.summary``); a
    search's result carries them in order (``EngineResult.attempts``,
    ``SolveRecord.attempts``), and the proof of an unwinnable deal is the last
    exhaustive one (``SolveRecord.proof``). Nothing is serialised but by :meth:`to_dict`.
    """

    #: Positions a stratum kept a level; None for the exhaustive search (every position).
    width: int | None
    mode: SearchMode
    outcome: BeamOutcome
    #: Children made (a won beam's post-pass included: ``polish_nodes``).
    nodes: int = 0
    levels: int = 0
    #: The most positions one level held.
    peak_level: int = 0
    #: Positions stored in the transposition table, and the ones it forgot.
    tt_stored: int = 0
    tt_forgotten: int = 0
    seconds: float = 0.0
    #: Nodes of the post-pass on a won line (counted in ``nodes``), and the actions it saved.
    polish_nodes: int = 0
    polish_saved: int = 0
    #: The exhaustive search: the most positions a level may hold (0 for a beam).
    level_limit: int = 0
    #: An exhaustive search that avoided positions: it looked for a line, and its end
    #: without one proves nothing.
    avoiding: bool = False

    @property
    def exhaustive(self) -> bool:
        """True for an exhaustive search (a proof, or a search for a line that avoids positions)."""
        return self.mode.exhaustive

    def to_dict(self) -> dict[str, object]:
        """The plain-data form (enums as their values; the post-pass's, the level limit and
        ``avoiding`` only when set), for the benchmarks' JSON."""
        data: dict[str, object] = {
            "width": self.width, "mode": str(self.mode), "outcome": str(self.outcome), "nodes": self.nodes,
            "levels": self.levels, "peak_level": self.peak_level, "tt_stored": self.tt_stored,
            "tt_forgotten": self.tt_forgotten, "seconds": self.seconds,
        }
        if self.polish_nodes:
            data |= {"polish_nodes": self.polish_nodes, "polish_saved": self.polish_saved}
        if self.level_limit:
            data["level_limit"] = self.level_limit
        if self.avoiding:
            data["avoiding"] = True
        return data


#: How a beam ended, in words.
_BEAM_ENDED = {
    BeamOutcome.EXHAUSTED: "ran out of positions", BeamOutcome.CUT: "ran out of positions to keep",
    BeamOutcome.LEVELS: "reached its cap on a line's length",
    BeamOutcome.NODES: "was cut short by the node budget", BeamOutcome.SECONDS: "was cut short by the time budget",
    BeamOutcome.INTERRUPTED: "was interrupted", BeamOutcome.WON: "won",
}


def what_was_tried(attempts: Sequence[AttemptSummary], nodes: int, max_nodes: int) -> str:
    """In words a player reads: what a search that ended unknown searched, whether a proof
    (every legal action searched) was tried and why it stopped, and the budget spent.

    ``attempts`` are the engine's attempts in order (``EngineResult.attempts``): the
    beams of the schedule (mode ``search``) and the exhaustive searches.
    """
    if not attempts:
        return f"nothing was searched; {nodes:,} of {max_nodes:,} nodes spent"
    beams = [a for a in attempts if not a.exhaustive]
    proofs = [a for a in attempts if a.exhaustive]
    parts = []
    if beams:
        widths = ", ".join(f"{a.width:,}" for a in beams)
        outcomes = [a.outcome for a in beams]
        one = len(beams) == 1
        stopped = outcomes[-1].stop is not None  # by the budget or Ctrl-C
        if one and stopped and not beams[0].nodes:
            parts.append(f"a beam of width {widths} {_BEAM_ENDED[outcomes[0]]} before it searched a position")
        else:
            if stopped:
                how = f"{'it' if one else 'the last'} {_BEAM_ENDED[outcomes[-1]]}"
            else:
                how = f"{'it' if one else 'each'} " + " or ".join(_BEAM_ENDED[e] for e in sorted(set(outcomes)))
            parts.append(f"{'a beam' if one else 'beams'} of width {widths} found no winning line ({how})")
    if proofs:
        for proof in proofs:
            if proof.outcome is BeamOutcome.CUT:
                limit = proof.level_limit
                bound = f", over the {limit:,} it may keep in memory" if limit else ""
                parts.append(f"a proof (every legal action searched) gave up after {proof.nodes:,} nodes at a "
                             f"level of {proof.peak_level:,} positions{bound}")
            elif proof.outcome is BeamOutcome.NODES:
                parts.append(f"a proof (every legal action searched) ran out of its {proof.nodes:,} nodes "
                             "before it could settle the position")
            else:
                parts.append(f"a proof (every legal action searched) {_BEAM_ENDED[proof.outcome]} "
                             f"after {proof.nodes:,} nodes")
    else:
        parts.append("no proof was tried")
    parts.append(f"{nodes:,} of {max_nodes:,} nodes spent")
    return "; ".join(parts)


#: The reason a result of this status has when none is given (an unknown result must say).
DEFAULT_REASON: dict[Status, Reason] = {Status.VERIFIED: Reason.WON, Status.UNWINNABLE: Reason.EXHAUSTED}


class ExitStatus(IntEnum):
    """The exit status of every ``spider-solve`` command (docs/commands/exit-statuses.md)."""

    #: Success: the log wins, the deal is verified, the batch or check ran clean.
    OK = 0
    #: A legal log that does not win; an unwinnable deal or position; a failed check;
    #: a batch in which some deals got no result.
    NOT_WON = 1
    #: Bad input: a wrong code, card, option, file or catalog, or a refused action.
    BAD_INPUT = 2
    #: Unknown: the search budget ran out before an answer.
    UNKNOWN = 3
    #: Interrupted (Ctrl-C, SIGTERM).
    INTERRUPTED = 130


#: The exit status of a solve's outcome.
EXIT_BY_STATUS: dict[Status, ExitStatus] = {
    Status.VERIFIED: ExitStatus.OK,
    Status.UNWINNABLE: ExitStatus.NOT_WON,
    Status.UNKNOWN: ExitStatus.UNKNOWN,
}

__all__ = ["DEFAULT_REASON", "EXIT_BY_STATUS", "REASONS_BY_STATUS", "UNKNOWN_BECAUSE", "AttemptSummary", "BeamOutcome",
           "ExitStatus", "Reason", "SearchMode", "Status", "what_was_tried"]
