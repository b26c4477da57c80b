"""The filters of catalog queries, read as the command line and the service read them:
a value that matches nothing by its spelling is refused by name, not searched for.

:class:`Filter` is one checked set of filters; :func:`parse_grades` reads a grade or a
range of grades (``"3"``, ``"1-2"``), as ``--difficulty`` and ``?difficulty=`` take it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from spider_solver.errors import QUOTE_LIMIT, InvalidOptionError, quote, whole_number
from spider_solver.outcomes import Status
from spider_solver.record import GRADES
from spider_solver.rules import parse_rule, parse_suits

_GRADE_TEXT = re.compile(r"[+-]?[0-9]+")


def parse_status(value: object) -> str:
    """A status filter: a :class:`Status` or its name in any case."""
    text = str(value).strip().lower() if isinstance(value, str) else None
    for status in Status:
        if value is status or text == str(status):
            return str(status)
    raise InvalidOptionError(f"unknown status {quote(value)}: expected one of {', '.join(Status)}")


def parse_difficulty(value: object) -> tuple[int, int]:
    """A difficulty filter: ``(low, high)`` grades, one grade, or text as :func:`parse_grades` reads it."""
    if isinstance(value, str):
        return parse_grades(value)
    grade = whole_number(value)
    if grade is not None:
        return parse_grades(str(grade))
    if isinstance(value, tuple | list) and len(value) == 2:
        low, high = (whole_number(part) for part in value)
        if low is not None and high is not None:
            return parse_grades(f"{low}-{high}")
    raise InvalidOptionError(f"invalid difficulty {quote(value)}: expected a grade from {GRADES[0]} to "
                             f"{GRADES[1]}, or (low, high)")


def parse_grades(text: str) -> tuple[int, int]:
    """A grade (``"3"``) or a range of grades (``"1-2"``, low first, both included) as
    ``(low, high)``; :class:`~spider_solver.errors.InvalidOptionError` if it is neither."""
    low_grade, high_grade = GRADES
    value = str(text).strip()
    expected = f"expected a grade from {low_grade} to {high_grade} (e.g. 5) or a range of grades (e.g. 1-2)"
    parts = value.split("-") if len(value) <= QUOTE_LIMIT else []  # longer text is refused unread
    if not 1 <= len(parts) <= 2 or not all(_GRADE_TEXT.fullmatch(part.strip()) for part in parts):
        raise InvalidOptionError(f"{quote(str(text))} is not a grade: {expected}")
    grades = [int(part) for part in parts]
    for grade in grades:
        if not low_grade <= grade <= high_grade:
            raise InvalidOptionError(f"{grade} is not a grade: grades go from {low_grade} (very easy) to "
                                     f"{high_grade} (very hard)")
    low, high = grades[0], grades[-1]
    if low > high:
        raise InvalidOptionError(f"{quote(value)} is an empty range: give the lower grade first, e.g. {high}-{low}")
    return low, high


@dataclass(frozen=True)
class Filter:
    """Which rows of ``results`` a query takes: each field None (any) or a checked value."""

    suits: int | None = None
    rule: str | None = None
    status: str | None = None
    #: Grades from ``low`` to ``high``, both included.
    difficulty: tuple[int, int] | None = None

    @classmethod
    def of(cls, suits: Any = None, rule: Any = None, status: Any = None, difficulty: Any = None) -> Filter:
        """The filters given, each checked (InvalidOptionError, InvalidVariantError)."""
        return cls(
            suits=None if suits is None else parse_suits(suits),
            rule=None if rule is None else str(parse_rule(rule)),
            status=None if status is None else parse_status(status),
            difficulty=None if difficulty is None else parse_difficulty(difficulty),
        )

    def where(self) -> tuple[str, tuple[Any, ...]]:
        """The SQL ``WHERE`` clause of these filters ("" for none) and its arguments."""
        clauses: list[str] = []
        args: list[Any] = []
        for name, value in (("suits", self.suits), ("rule", self.rule), ("status", self.status)):
            if value is not None:
                clauses.append(f"{name} = ?")
                args.append(value)
        if self.difficulty is not None:
            clauses.append("difficulty BETWEEN ? AND ?")
            args.extend(self.difficulty)
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), tuple(args)


__all__ = ["Filter", "parse_difficulty", "parse_grades", "parse_status"]
