"""The answer of an analysis, declared once: :class:`Analysis`, its :class:`Bracket` and its :class:`Probe`.

Each record's fields are listed once, in order, with their types and meaning
(:data:`ANALYSIS_FIELDS`, :data:`BRACKET_FIELDS`, :data:`PROBE_FIELDS`, as
:data:`spider_solver.record.FIELDS` lists a solve record's); :func:`to_plain` turns any
of them into plain data (``analyze --json``; :func:`spider_solver.record.to_plain`, which
serialises every record declared so), the service builds its response models
from the same lists, and ``analyze --help`` prints the key list from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, NewType

from spider_solver.analysis.summary import summary
from spider_solver.limits import INTERACTIVE_MAX_NODES, INTERACTIVE_MAX_SECONDS
from spider_solver.outcomes import Reason, Status
from spider_solver.record import Field, to_plain
from spider_solver.rules.replay import ReplayResult

#: Where an answer came from: a search, the known line, or nothing to do (the log won).
Source = Literal["search", "known-line", "won"]
#: An action in notation (D, F>T, F>T/N or U): the service gives it its bounds.
Action = NewType("Action", str)


@dataclass(frozen=True)
class Probe:
    """One search of the ``lost_at`` bisection: the position it searched and what it found."""

    FIELDS: ClassVar[tuple[Field, ...]]
    #: Actions in effect before the position (its index on the effective history; 0: the initial layout).
    position: int
    status: Status
    reason: Reason
    #: Where its answer came from (:data:`Source`); None unless verified.
    source: Source | None
    nodes: int
    seconds: float
    #: The first and the last position of the effective history joined to it by moves back
    #: (it among them): they reach the same positions, so its answer is theirs too
    #: (docs/engine.md, "Where a game was lost"). -1: the position alone.
    first: int = -1
    last: int = -1

    def __post_init__(self) -> None:
        if self.first < 0:
            object.__setattr__(self, "first", self.position)
        if self.last < 0:
            object.__setattr__(self, "last", self.position)

    def to_dict(self) -> dict[str, Any]:
        return to_plain(self)


PROBE_FIELDS = Probe.FIELDS = (
    Field("position", int, False, "The position searched: its index on the effective history (0: the initial "
          "layout)."),
    Field("status", Status, False, "What the search found of it."),
    Field("reason", Reason, False, "Why the search stopped."),
    Field("source", str, True, "search or known-line (no search: it lies on a winning line); null unless verified."),
    Field("nodes", int, False, "Search nodes spent on it."),
    Field("seconds", float, False, "Seconds spent on it."),
    Field("first", int, False, "The first position joined to it by moves back (the same cards moved back): they "
          "reach the same positions, so its answer holds for each position from first to last."),
    Field("last", int, False, "The last position joined to it by moves back."),
)


@dataclass(frozen=True)
class Bracket:
    """Where a lost game was lost, as far as the searches established it.

    Positions are counted in actions in effect (the effective history: 0 is the
    initial layout); ``*_after`` is the 0-based index in the log of the action that
    reached the position (None for the initial layout). The game was lost by one of
    the actions in effect after position ``winnable`` up to position ``unwinnable``.
    """

    FIELDS: ClassVar[tuple[Field, ...]]
    #: The last position shown winnable; None when no position was (the deal may be
    #: unwinnable, or every search before ``unwinnable`` came back unknown).
    winnable: int | None
    winnable_after: int | None
    #: A winning line from position ``winnable``, replayed to a win; empty when it is None.
    line: tuple[str, ...]
    #: The first position proved unwinnable (at worst the final position).
    unwinnable: int
    unwinnable_after: int | None

    @property
    def width(self) -> int | None:
        """Actions in effect between the two positions (1: ``lost_at`` is known); None without ``winnable``."""
        return None if self.winnable is None else self.unwinnable - self.winnable

    def to_dict(self) -> dict[str, Any]:
        return to_plain(self)


BRACKET_FIELDS = Bracket.FIELDS = (
    Field("winnable", int, True, "The last position of the effective history shown winnable (0: the initial "
          "layout); null when none was."),
    Field("winnable_after", int, True, "The 0-based log index of the action that reached it (null: the initial "
          "layout, or none shown)."),
    Field("line", list[Action], False, "A winning line from that position, replayed to a win."),
    Field("unwinnable", int, False, "The first position proved unwinnable (at worst the final one)."),
    Field("unwinnable_after", int, True, "The 0-based log index of the action that reached it (null: the initial "
          "layout)."),
    Field("width", int, True, "Actions between the two (1: lost_at is known); null without winnable."),
)


@dataclass(frozen=True)
class Analysis:
    """What is known of the position a game log reached. ``to_dict()`` is the JSON form."""

    FIELDS: ClassVar[tuple[Field, ...]]
    code: str | None
    #: The replay of the log: won, moves, score, runs removed, stock left, the first
    #: refused action (``replay.error``: its 0-based index, the token and the rule).
    replay: ReplayResult
    #: Status of the position reached; None when the log has a refused action (then
    #: nothing is searched: a log must be legal to be analysed).
    status: Status | None
    #: Why the search stopped (as in :class:`~spider_solver.record.SolveRecord`); None
    #: when the log has a refused action.
    reason: Reason | None
    #: The next action of a winning line (canonical notation); None unless verified
    #: and not yet won.
    hint: str | None = None
    #: The winning line from the position, ``hint`` first; empty unless verified.
    line: tuple[str, ...] = ()
    #: Where the line came from: ``search``, ``known-line`` (the given line, no
    #: search) or ``won`` (the log already wins); None unless verified.
    source: Source | None = None
    #: The 0-based index in the log of the action after which the game could no longer
    #: be won (docs/engine.md, "Where a game was lost"); None unless established.
    lost_at: int | None = None
    #: The log's token at ``lost_at``, as written; None unless ``lost_at`` is set.
    lost_at_action: str | None = None
    #: A winning line from the position just before ``lost_at`` (what could have been
    #: played instead); empty unless ``lost_at`` is set.
    lost_at_line: tuple[str, ...] = ()
    #: What the search for ``lost_at`` established (see :class:`Bracket`); None unless
    #: the position is unwinnable and it was searched for with actions in effect.
    bracket: Bracket | None = None
    #: Actions in effect after the undos (the effective history's length).
    effective: int = 0
    #: When the position is unknown: what its search tried, in words (the beams and how
    #: they ended, whether a proof was tried and why it stopped, the nodes spent); else None.
    tried: str | None = None
    nodes: int = 0
    #: Wall-clock seconds: not compared (one analysis made twice gives equal answers).
    seconds: float = field(default=0.0, compare=False)
    max_nodes: int = INTERACTIVE_MAX_NODES
    max_seconds: float | None = INTERACTIVE_MAX_SECONDS
    #: The searches of the ``lost_at`` bisection. Ctrl-C during the bisection ends it:
    #: ``lost_at`` stays None and the last probe's reason is ``interrupted``.
    probes: tuple[Probe, ...] = field(default=(), compare=False)

    @property
    def interrupted(self) -> bool:
        """Whether Ctrl-C stopped the search of the position, or later the search for ``lost_at``."""
        return Reason.INTERRUPTED in (self.reason, *(probe.reason for probe in self.probes))

    @property
    def deal_lost_from_the_start(self) -> bool:
        """Whether a search proved the initial layout itself unwinnable (no action lost the game),
        or a position joined to it by moves back."""
        return (self.bracket is not None and self.bracket.unwinnable == 0) or any(
            probe.first == 0 and probe.status is Status.UNWINNABLE for probe in self.probes)

    @property
    def summary(self) -> str:
        """The answer in one sentence a game can show a player (:func:`.summary.summary`)."""
        return summary(self)

    def to_dict(self) -> dict[str, Any]:
        """The plain-data form (:func:`to_plain`), as ``analyze --json`` prints it."""
        return to_plain(self)


ANALYSIS_FIELDS = Analysis.FIELDS = (
    Field("code", str, True, "Canonical game code; null for an explicit deck."),
    Field("replay", ReplayResult, False, "The replay of the log: won, moves, score, runs removed, stock left."),
    Field("status", Status, True, "verified: still winnable (a line from here was replayed to a win); unwinnable: "
          "every action from here was searched; unknown: the budget ran out first."),
    Field("reason", Reason, True, "Why the search stopped (docs: Three honest outcomes)."),
    Field("hint", Action, True, "The next action of a winning line; null unless verified and not yet won."),
    Field("line", list[Action], False, "The winning line from the position, hint first; empty unless verified."),
    Field("source", Source, True, "Where the line came from: search, known-line (a line known before, no search: "
          "the catalog's, or one the server found for this deal earlier) or won (the log already wins); null unless "
          "verified."),
    Field("lost_at", int, True, "The 0-based index in the log of the action after which the game could no longer "
          "be won; null unless established."),
    Field("lost_at_action", str, True, "The log's action at lost_at, as written; null unless lost_at is set."),
    Field("lost_at_line", list[Action], False, "A winning line from the position just before lost_at; empty unless "
          "lost_at is set."),
    Field("bracket", Bracket, True, "What the search for lost_at established; null unless the position is "
          "unwinnable and it was searched for with actions in effect."),
    Field("effective", int, False, "Actions in effect after the undos."),
    Field("tried", str, True, "When the position is unknown: what its search tried, in words (the beams and how "
          "they ended, whether a proof was tried and why it stopped, the nodes spent)."),
    Field("nodes", int, False, "Search nodes spent, the bisection's included."),
    Field("seconds", float, False, "Seconds the analysis took."),
    Field("max_nodes", int, False, "Node budget of the whole analysis."),
    Field("max_seconds", float, True, "Time budget of the whole analysis in seconds; null for none."),
    Field("probes", list[Probe], False, "The searches of the lost_at bisection, in order."),
    Field("summary", str, False, "The answer in one sentence a game can show the player, e.g. \"No winning line "
          "was found in the time allowed; the game may still be winnable.\" (tried is the developers' account)."),
)


def field_names(fields: Sequence[Field]) -> tuple[str, ...]:
    """The names of a record's fields, in order: the keys of its plain-data form."""
    return tuple(spec.name for spec in fields)


__all__ = ["ANALYSIS_FIELDS", "BRACKET_FIELDS", "PROBE_FIELDS", "Action", "Analysis", "Bracket", "Probe", "Source",
           "field_names", "to_plain"]
