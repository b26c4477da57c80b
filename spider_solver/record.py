"""The one record of a result: :class:`SolveRecord`, and its one plain-data form.

A record is what :func:`spider_solver.verify.solve` returns, what a batch worker sends
back, what the catalog stores and reads (a catalog row is a record with its grade and
its ``improve`` figures), what ``spider-solve verify --json`` prints, what ``export``
writes and what the service answers. :meth:`SolveRecord.to_dict` is its only
serialisation and :meth:`SolveRecord.from_dict` its only reader; :data:`FIELDS` lists
the fields of that form, in order, with their types, bounds and meaning, from which the
service builds its response models and against which the export JSON Schema is tested.

The record knows nothing of the solver or of storage: it depends only on the rules
(a game code says its suit count, rule and deal number) and on the vocabulary of
outcomes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import Enum
from functools import lru_cache
from typing import Any, Literal, NamedTuple

from spider_solver.errors import InvalidVariantError, SpiderError, quote, real_number, whole_number
from spider_solver.limits import DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS
from spider_solver.outcomes import DEFAULT_REASON, REASONS_BY_STATUS, AttemptSummary, Reason, Status
from spider_solver.rules import GameCode, parse_rule, parse_suits
from spider_solver.rules.replay import ReplayResult
from spider_solver.version import __version__

#: The largest integer an SQLite column holds: the bound of every count and figure.
FIGURE_MAX = 2**63 - 1
#: Grades go from 1 (very easy) to 5 (very hard).
GRADES = (1, 5)
#: An action of a stored line, in canonical notation (RULES.md §11 Action notation): D, F>T
#: or F>T/N, columns 1 to 10, a group of 1 to 13 cards; never an undo. The export schema's
#: ``$defs/action`` is this pattern.
LINE_ACTION = re.compile(r"D|(10|[1-9])>(10|[1-9])(/([1-9]|1[0-3]))?")


class InvalidRecordError(SpiderError):
    """A record's fields do not fit together or are out of range (read from outside:
    :meth:`SolveRecord.from_dict`, :meth:`SolveRecord.check`)."""


def utc_now() -> str:
    """The time now in UTC, ISO 8601 to the second: ``2026-01-31T12:00:00Z``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Field(NamedTuple):
    """One field of the plain-data form: its Python type (without None), whether it may
    be None, its JSON Schema bounds and its meaning."""

    name: str
    type: Any
    nullable: bool
    description: str
    bounds: Mapping[str, float] = {}


def to_plain(record: Any) -> dict[str, Any]:
    """The plain-data form of a record declared with ``FIELDS`` (a list of :class:`Field`: an
    analysis's answer, its bracket and probes, a finished game, ...): its fields in order,
    enums as their values, tuples as lists, nested records in their own form. The one
    serialisation of such records: what ``analyze --json`` prints, what the service sends
    and what a receipt signs."""
    return {spec.name: _plain(getattr(record, spec.name)) for spec in record.FIELDS}


def _plain(value: Any) -> Any:
    if hasattr(value, "FIELDS"):
        return to_plain(value)
    if isinstance(value, ReplayResult):
        return value.to_dict()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


#: The plain-data form, field by field, in the order :meth:`SolveRecord.to_dict` gives them.
FIELDS: tuple[Field, ...] = (
    Field("code", str, True, "Canonical game code, e.g. SP1-S4C-AAAAAAD; null for an explicit deck."),
    Field("suits", Literal[1, 2, 4], False, "Suit count."),
    Field("rule", Literal["classic", "relaxed"], False, "Move rule; one suit is always classic."),
    Field("deal", int, True, "Deal number the code encodes; null for an explicit deck.",
          {"minimum": 0, "maximum": 2**35 - 1}),
    Field("status", Status, False, "verified: the solution wins, replayed by the reference rules engine. "
          "unwinnable: the whole game was searched without a win. unknown: the budget ran out first."),
    Field("moves", int, True, "Actions in the solution (moves and deals); null unless verified.", {"minimum": 1}),
    Field("score", int, True, "Final score of the solution as the app counts it; null unless verified.",
          {"minimum": 0}),
    Field("solution", list[str], False, "The winning line from the initial layout; empty unless verified."),
    Field("nodes", int, False, "Search nodes spent.", {"minimum": 0}),
    Field("seconds", float, False, "Search time in seconds.", {"minimum": 0}),
    Field("max_nodes", int, False, "Node budget of the search.", {"minimum": 1}),
    Field("max_seconds", float, True, "Time budget of the search in seconds; null for none.",
          {"exclusiveMinimum": 0}),
    Field("reason", Reason, False, "Why the search stopped (docs: Three honest outcomes)."),
    Field("solver_version", str, False, "spider-solver version that found the result."),
    Field("solved_at", str, True, "When, in UTC (ISO 8601); null for a record not yet timed."),
    Field("difficulty", Literal[1, 2, 3, 4, 5], True,
          "How hard the deal is for a person, 1 (very easy) to 5 (very hard); null unless verified and graded."),
    Field("difficulty_raw", float, True, "The fair player's raw figure behind the grade, 0 to 100.",
          {"minimum": 0, "maximum": 100}),
    Field("grader_version", str, True, "The grader that gave the grade; null when difficulty is."),
    Field("par", int, True, "The score of the shortest known line; null unless verified.", {"minimum": 0}),
    Field("improve_nodes", int, True, "The node budget `spider-solve improve` spent on this solution.",
          {"minimum": 0}),
    Field("improve_seconds", float, True, "Seconds `spider-solve improve` took on this deal.", {"minimum": 0}),
    Field("improve_version", str, True, "spider-solver version of that improve pass."),
)
#: The names of :data:`FIELDS`, in order.
FIELD_NAMES = tuple(spec.name for spec in FIELDS)
#: The grade's fields: all three or none, and only on a verified record.
GRADE_FIELDS = ("difficulty", "difficulty_raw", "grader_version")
#: ``improve``'s record of the line: all three or none, and only on a verified record.
IMPROVE_FIELDS = ("improve_nodes", "improve_seconds", "improve_version")


@dataclass(frozen=True)
class SolveRecord:
    """What is known of a deal after a search: its status, why the search stopped, the
    winning line if one was verified, the search's figures and budget; and, as the
    catalog keeps them, the deal's grade and ``improve``'s record of the line.

    ``solution`` is in action notation, empty unless verified. ``seconds``,
    ``solved_at`` and ``attempts`` are not compared, so that one deal solved twice
    gives equal records. The constructor checks that the status and the reason agree
    (an unknown record must say why); :meth:`check` checks the figures too.
    """

    code: str | None
    status: Status
    solution: tuple[str, ...] = ()
    #: Actions in the solution (moves and deals), or None.
    moves: int | None = None
    #: Final score of the solution as the app counts it, or None.
    score: int | None = None
    nodes: int = 0
    #: Wall-clock seconds of the search.
    seconds: float = field(default=0.0, compare=False)
    max_nodes: int = DEFAULT_MAX_NODES
    max_seconds: float | None = DEFAULT_MAX_SECONDS
    #: Why the search stopped; by default ``won`` for a verified result and
    #: ``exhausted`` for an unwinnable one (an unknown result must say).
    reason: Reason = None  # type: ignore[assignment]
    #: What each beam of the search did (its mode, outcome and counters), for the proof's
    #: counters, benchmarks and debugging; not serialised.
    attempts: tuple[AttemptSummary, ...] = field(default=(), compare=False)
    solver_version: str = __version__
    solved_at: str | None = field(default=None, compare=False)
    #: The deal's grade, 1 (very easy) to 5 (very hard), its raw figure and grader; None if not graded.
    difficulty: int | None = None
    difficulty_raw: float | None = None
    grader_version: str | None = None
    #: The node budget ``improve`` spent on the line, its seconds and version; None if none.
    improve_nodes: int | None = None
    improve_seconds: float | None = None
    improve_version: str | None = None
    #: The suit count and rule: those of the code, or of an explicit deck (no code).
    suits: int = 4
    rule: str = "classic"

    def __post_init__(self) -> None:
        # Plain strings are accepted (a record read back from JSON or SQLite); members are stored.
        status = Status(self.status)
        default = DEFAULT_REASON.get(status)
        reason = default if self.reason is None else Reason(self.reason)
        if reason not in REASONS_BY_STATUS[status]:
            if self.reason is None:
                raise InvalidRecordError(f"an {status} result must say why the search stopped (reason=...)")
            raise InvalidRecordError(f"a {status} result cannot stop for the reason {self.reason!r}")
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "solution", tuple(self.solution))  # a list, from JSON
        object.__setattr__(self, "attempts", tuple(self.attempts))
        if self.code is not None:
            code = GameCode.parse(self.code)
            object.__setattr__(self, "code", str(code))  # canonical
            object.__setattr__(self, "suits", code.suits)
            object.__setattr__(self, "rule", str(code.rule))

    @property
    def proof(self) -> AttemptSummary | None:
        """The counters of the exhaustive search that proved the deal unwinnable (its
        attempt: ``nodes``, ``levels``, ``peak_level`` (the most positions in a level),
        ``tt_stored`` (positions stored), ``seconds``); None unless unwinnable with its
        attempts kept."""
        if self.status is not Status.UNWINNABLE:
            return None
        return next((a for a in reversed(self.attempts) if a.exhaustive), None)

    @property
    def deal(self) -> int | None:
        """The deal number the code encodes; None for an explicit deck."""
        return None if self.code is None else GameCode.parse(self.code).number

    @property
    def par(self) -> int | None:
        """The score of the shortest known line (this one: the catalog keeps only shorter
        lines), a target for players; None unless verified."""
        return self.score if self.status is Status.VERIFIED else None

    @property
    def graded(self) -> bool:
        return self.difficulty is not None

    def to_dict(self) -> dict[str, Any]:
        """The plain-data form, :data:`FIELDS` in order: enums as their values, the
        solution as a list. What JSON, the exports and the service carry."""
        data = {name: getattr(self, name) for name in FIELD_NAMES}
        data["status"], data["reason"] = str(self.status), str(self.reason)
        data["solution"] = list(self.solution)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SolveRecord:
        """A record from its plain-data form (or a mapping with some of its fields: a
        solution may be one string of actions, a missing move count is the line's
        length), checked as :meth:`check` checks it: :class:`InvalidRecordError` names
        what is wrong. ``suits``, ``rule``, ``deal`` and ``par`` are read from the code."""
        if not isinstance(data, Mapping):
            raise InvalidRecordError(f"a record's plain-data form is a mapping of its fields (as to_dict gives "
                                     f"it), not {type(data).__name__}")
        code = data.get("code")
        shown = "a result" if code is None else repr(str(code))[:60]
        try:
            status = Status(str(data.get("status")))
        except ValueError:
            raise InvalidRecordError(
                f"invalid status {data.get('status')!r} for {shown}: expected one of {', '.join(Status)}"
            ) from None
        try:
            reason = Reason(data["reason"]) if data.get("reason") else DEFAULT_REASON.get(status)
        except ValueError:
            reason = None
        if reason not in REASONS_BY_STATUS[status]:
            raise InvalidRecordError(
                f"invalid reason {data.get('reason')!r} for a {status} result of {shown}: expected one of "
                f"{', '.join(sorted(REASONS_BY_STATUS[status]))}"
            )
        solution = data.get("solution") or ()
        if isinstance(solution, str):
            solution = solution.split()
        elif not isinstance(solution, list | tuple):
            raise InvalidRecordError(f"invalid solution {quote(solution)} for {shown}: expected a list of actions "
                                     "in notation")
        solution = tuple(solution)  # each action is checked by check(), never made text here
        moves, score = data.get("moves"), data.get("score")
        if status is not Status.VERIFIED:  # a line, moves or a score mean nothing without a win
            solution, moves, score = (), None, None
        extra: dict[str, Any] = {name: data.get(name) for name in GRADE_FIELDS + IMPROVE_FIELDS}
        if code is None:
            extra |= {name: data[name] for name in ("suits", "rule") if data.get(name) is not None}
        record = cls(
            code=None if code is None else str(code), status=status, solution=solution, moves=moves, score=score,
            nodes=data.get("nodes") or 0, seconds=data.get("seconds") or 0.0, max_nodes=data.get("max_nodes"),  # type: ignore[arg-type]  # check() refuses None
            max_seconds=data.get("max_seconds"), reason=reason,
            solver_version=str(data.get("solver_version") or __version__),
            solved_at=data.get("solved_at"), **extra,
        )
        return record.check()

    def check(self) -> SolveRecord:
        """This record with its figures as plain Python numbers, once checked: a verified
        record has a line of actions in canonical notation (:data:`LINE_ACTION`) and a
        score, and its move count is the line's length; counts and seconds are numbers in
        range (a time budget above 0); ``solved_at`` is text; an explicit deck's suit count
        and rule are ones the rules know; the grade and ``improve``'s record are all three
        fields or none, and only on a verified record. :class:`InvalidRecordError` names
        what is wrong. Whether the line wins is not replayed here: that is
        :func:`spider_solver.verify.solve`'s replay, and ``spider-solve check``'s."""
        shown = "a result" if self.code is None else repr(self.code)
        if self.status is Status.VERIFIED:
            if not self.solution or self.score is None:
                raise InvalidRecordError(f"verified result for {shown} has no solution or no score")
            wrong = next((action for action in self.solution if not _line_action(action)), None)
            if wrong is not None:
                raise InvalidRecordError(f"invalid action {quote(wrong)} in the line of {shown}: expected D, F>T "
                                         "or F>T/N in canonical notation (columns 1 to 10, a group of 1 to 13)")
            if self.moves is not None and whole_number(self.moves) != len(self.solution):
                raise InvalidRecordError(f"invalid moves {quote(self.moves)} for {shown}: its line has "
                                         f"{len(self.solution)} actions")
        elif self.solution or self.moves is not None or self.score is not None:
            raise InvalidRecordError(f"a {self.status} result of {shown} cannot carry a line, moves or a score")
        values: dict[str, Any] = {
            "nodes": _figure(self.nodes, "nodes", shown, whole=True),
            "seconds": _figure(self.seconds, "seconds", shown),
            "max_nodes": _figure(self.max_nodes, "max_nodes", shown, whole=True, low=1),
            "max_seconds": None if self.max_seconds is None else _figure(self.max_seconds, "max_seconds", shown,
                                                                         above=True),
        }
        if self.solved_at is not None and not isinstance(self.solved_at, str):
            raise InvalidRecordError(f"invalid solved_at {quote(self.solved_at)} for {shown}: expected a time in "
                                     "ISO 8601 text, e.g. 2026-01-31T12:00:00Z")
        if self.code is None:  # an explicit deck: its suit count and rule are its own
            try:
                values |= {"suits": parse_suits(self.suits), "rule": str(parse_rule(self.rule))}
            except InvalidVariantError as error:
                raise InvalidRecordError(f"{error} for {shown}") from None
        if self.status is Status.VERIFIED:
            values["moves"] = len(self.solution)
            values["score"] = _figure(self.score, "score", shown, whole=True)
        values |= checked_grade({name: getattr(self, name) for name in GRADE_FIELDS}, self.status, shown)
        values |= _checked_improve(self, shown)
        changed: dict[str, Any] = {name: value for name, value in values.items() if getattr(self, name) is not value}
        return replace(self, **changed) if changed else self

    def with_grade(self, grade: Mapping[str, Any] | None) -> SolveRecord:
        """This record with the grade of ``grade`` (its ``difficulty``, ``difficulty_raw``
        and ``grader_version``; None or a mapping without them: ungraded)."""
        values: dict[str, Any] = {name: None if grade is None else grade.get(name) for name in GRADE_FIELDS}
        return replace(self, **values)


def _figure(value: object, name: str, shown: str, *, whole: bool = False, low: float = 0, above: bool = False) -> Any:
    """A record's count or seconds, checked: a whole number (``whole``) or a finite
    number, from ``low`` (or ``above`` it) up to :data:`FIGURE_MAX`;
    :class:`InvalidRecordError` naming the field otherwise."""
    number = whole_number(value) if whole else real_number(value)
    if number is None or not (low < number if above else low <= number) or number > FIGURE_MAX:
        kind = "a whole number" if whole else "a number of seconds"
        span = f"above {low:g} and at most" if above else f"from {low:g} to"
        raise InvalidRecordError(f"invalid {name} {quote(value)} for {shown}: expected {kind} {span} {FIGURE_MAX:,}")
    return number


def _line_action(action: object) -> bool:
    """Whether ``action`` is an action of a line as :data:`LINE_ACTION` writes it, from a
    column to another."""
    return isinstance(action, str) and _line_text(action)


@lru_cache(maxsize=2048)
def _line_text(text: str) -> bool:
    """:func:`_line_action` of a text, remembered: a line repeats a few hundred tokens."""
    match = LINE_ACTION.fullmatch(text)
    return match is not None and (match[1] is None or match[1] != match[2])


def checked_grade(grade: Mapping[str, Any], status: Status, shown: str) -> dict[str, Any]:
    """The grade fields of ``grade`` (:data:`GRADE_FIELDS`), checked: all three or none,
    only on a verified record, a grade from 1 to 5 and a raw figure from 0 to 100.
    :class:`InvalidRecordError` names what is wrong; ``shown`` names the deal."""
    values = {name: grade.get(name) for name in GRADE_FIELDS}
    given = [value is not None for value in values.values()]
    if not any(given):
        return values
    if not all(given):
        raise InvalidRecordError(f"grade of {shown} needs difficulty, difficulty_raw and grader_version together")
    if status is not Status.VERIFIED:
        raise InvalidRecordError(f"a {status} result of {shown} cannot carry a difficulty: only verified deals "
                                 "are graded")
    difficulty = whole_number(values["difficulty"])
    if difficulty is None or not GRADES[0] <= difficulty <= GRADES[1]:
        raise InvalidRecordError(f"invalid difficulty {quote(values['difficulty'])} for {shown}: "
                                 f"expected a whole number from {GRADES[0]} to {GRADES[1]}")
    raw = real_number(values["difficulty_raw"])
    if raw is None or not 0.0 <= raw <= 100.0:
        raise InvalidRecordError(f"invalid difficulty_raw {quote(values['difficulty_raw'])} for {shown}: "
                                 "expected 0 to 100")
    return {"difficulty": difficulty, "difficulty_raw": raw, "grader_version": str(values["grader_version"])}


def _checked_improve(record: SolveRecord, shown: str) -> dict[str, Any]:
    """``improve``'s record of the line, checked as :func:`checked_grade` checks a grade."""
    values = {name: getattr(record, name) for name in IMPROVE_FIELDS}
    given = [value is not None for value in values.values()]
    if not any(given):
        return values
    if not all(given):
        raise InvalidRecordError(f"the improve record of {shown} needs improve_nodes, improve_seconds and "
                                 "improve_version together")
    if record.status is not Status.VERIFIED:
        raise InvalidRecordError(f"a {record.status} result of {shown} cannot carry an improve record")
    return {"improve_nodes": _figure(values["improve_nodes"], "improve_nodes", shown, whole=True),
            "improve_seconds": _figure(values["improve_seconds"], "improve_seconds", shown),
            "improve_version": str(values["improve_version"])}


__all__ = ["FIELDS", "FIELD_NAMES", "GRADES", "GRADE_FIELDS", "IMPROVE_FIELDS", "LINE_ACTION", "Field",
           "InvalidRecordError", "SolveRecord", "checked_grade", "to_plain", "utc_now"]
