"""The vocabulary of outcomes, shared by every layer: statuses, reasons, exit statuses.

A solve ends with a :class:`Status` and the :class:`Reason` its search stopped for;
every command ends with an :class:`ExitStatus`. All three are enums whose values are
what the catalog, the exports and scripts see (``"verified"``, ``"nodes"``, ``3``),
so a member compares equal to its plain value.

This module depends on nothing, so that every layer (the engine included) can use it.
"""

from __future__ import annotations

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


#: The reason a result of this status has when none is given (an unknown result must say).
DEFAULT_REASON: dict[Status, Reason] = {Status.VERIFIED: Reason.WON, Status.UNWINNABLE: Reason.EXHAUSTED}


class ExitStatus(IntEnum):
    """The exit status of every ``spider-solve`` command (README, "Exit statuses")."""

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

__all__ = ["DEFAULT_REASON", "EXIT_BY_STATUS", "ExitStatus", "REASONS_BY_STATUS", "Reason", "Status"]
