"""The vocabulary of outcomes, shared by every layer: statuses, reasons, exit statuses.

A solve ends with a :class:`Status` and the :class:`Reason` its search stopped for;
every command ends with an :class:`ExitStatus`. All three are enums whose values are
what the catalog, the exports and scripts see (``"verified"``, ``"nodes"``, ``3``),
so a member compares equal to its plain value.

This module depends on nothing, so that every layer (the engine included) can use it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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

#: How a beam of the schedule ended, in words (``BeamOutcome`` values).
_BEAM_ENDED = {
    "exhausted": "ran out of positions", "cut": "ran out of positions to keep",
    "levels": "reached its cap on a line's length",
    "nodes": "was cut short by the node budget", "seconds": "was cut short by the time budget",
    "interrupted": "was interrupted",
}


def what_was_tried(attempts: Sequence[Mapping], nodes: int, max_nodes: int) -> str:
    """In words a player reads: what a search that ended unknown searched, whether a proof
    (every legal action searched) was tried and why it stopped, and the budget spent.

    ``attempts`` are the engine's attempt summaries (``engine.beam.Attempt.summary``):
    ``mode`` ``search`` for a beam of the schedule (``width``) and ``all`` for the proof,
    ``outcome`` a ``BeamOutcome`` value, ``nodes``, ``peak_level`` and, for a proof,
    ``level_limit``.
    """
    if not attempts:
        return f"nothing was searched; {nodes:,} of {max_nodes:,} nodes spent"
    beams = [a for a in attempts if a.get("mode") == "search"]
    proofs = [a for a in attempts if a.get("mode") == "all"]
    parts = []
    if beams:
        widths = ", ".join(f"{a['width']:,}" for a in beams)
        outcomes = [str(a["outcome"]) for a in beams]
        one = len(beams) == 1
        stopped = outcomes[-1] in ("nodes", "seconds", "interrupted")  # by the budget or Ctrl-C
        if one and stopped and not beams[0].get("nodes"):
            parts.append(f"a beam of width {widths} {_BEAM_ENDED[outcomes[0]]} before it searched a position")
        else:
            if stopped:
                how = f"{'it' if one else 'the last'} {_BEAM_ENDED[outcomes[-1]]}"
            else:
                how = f"{'it' if one else 'each'} " + " or ".join(_BEAM_ENDED.get(e, e) for e in sorted(set(outcomes)))
            parts.append(f"{'a beam' if one else 'beams'} of width {widths} found no winning line ({how})")
    if proofs:
        for proof in proofs:
            outcome = str(proof["outcome"])
            if outcome == "cut":
                limit = proof.get("level_limit")
                bound = f", over the {limit:,} it may keep in memory" if limit else ""
                parts.append(f"a proof (every legal action searched) gave up after {proof['nodes']:,} nodes at a "
                             f"level of {proof.get('peak_level', 0):,} positions{bound}")
            elif outcome == "nodes":
                parts.append(f"a proof (every legal action searched) ran out of its {proof['nodes']:,} nodes "
                             "before it could settle the position")
            else:
                parts.append(f"a proof (every legal action searched) {_BEAM_ENDED.get(outcome, outcome)} "
                             f"after {proof['nodes']:,} nodes")
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

__all__ = ["DEFAULT_REASON", "EXIT_BY_STATUS", "ExitStatus", "REASONS_BY_STATUS", "UNKNOWN_BECAUSE", "Reason", "Status",
           "what_was_tried"]
