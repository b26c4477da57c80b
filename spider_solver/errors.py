"""Every exception spider-solver raises on purpose.

All of them are :class:`ValueError` subclasses, so code that only wants to know
"was the input bad?" can catch ``ValueError``; so are the few that are not about the
input (a catalog that cannot be written, :class:`EngineUnavailableError`), which the
command line reports the same way, with status 2. A value of another type than the
documented one (a number for a game log, a list for a code) may raise :class:`TypeError`
instead, as Python's own functions do. Messages are lower case, quote the
offending input with ``!r`` and then say what was expected; the command line
prints them as they are, without a traceback. A long input is quoted by a bounded
prefix (:func:`quote`), so that a message stays one short line whatever was typed.
RULES.md §13.5 Errors lists which rules raise which error.
"""

from __future__ import annotations

import math
import numbers

#: A message quotes at most this many characters (or digits) of an input.
QUOTE_LIMIT = 40


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``n`` and the noun, in the plural unless ``n`` is 1: ``plural(3, "deal")`` is
    ``"3 deals"``; ``many`` is a plural other than noun + s (``"worker processes"``). The
    one plural of every message of the package (:func:`plural_noun` without the number)."""
    return f"{n} {plural_noun(n, noun, many)}"


def plural_noun(n: int, noun: str, many: str | None = None) -> str:
    """The noun as ``n`` of it says it: ``noun`` for 1, else ``many`` (default noun + s)."""
    return noun if n == 1 else many or noun + "s"


def quote(value: object) -> str:
    """The ``!r`` form of an input for a message, bounded in length.

    Text longer than :data:`QUOTE_LIMIT` characters is quoted by its first
    ``QUOTE_LIMIT`` characters followed by ``...`` (``'99999...'...``); so is an
    integer of more digits. An integer too long to print at all (Python refuses
    more than 4300 digits) is named by its size: ``<integer of about 5000 digits>``.
    """
    if isinstance(value, str):
        return repr(value) if len(value) <= QUOTE_LIMIT else repr(value[:QUOTE_LIMIT]) + "..."
    if isinstance(value, int) and not isinstance(value, bool):
        if value.bit_length() > _PRINTABLE_BITS:
            digits = int(value.bit_length() * 0.30103) + 1
            return f"<{'negative ' if value < 0 else ''}integer of about {digits} digits>"
        text = str(value)
        return text if len(text.lstrip("-")) <= QUOTE_LIMIT else text[: QUOTE_LIMIT + (value < 0)] + "..."
    text = repr(value)
    return text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT] + "..."


def whole_number(value: object) -> int | None:
    """``value`` as an ``int`` if it is a whole number: a Python or numpy integer, not a
    bool (nor a float, even 4.0). None otherwise, for the caller to refuse by name."""
    if type(value) is int:  # the common case, first: the rules engine asks on every action
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        return None
    return int(value)


def real_number(value: object) -> float | None:
    """``value`` as a finite ``float`` if it is a real number: a Python or numpy int or
    float, not a bool, not text, not infinite or NaN, not too large for a float. None
    otherwise, for the caller to refuse by name."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    try:
        number = float(value)
    except OverflowError:  # an int past 1e308
        return None
    return number if math.isfinite(number) else None


#: Ints up to this many bits (about 4200 digits) can always be printed with str().
_PRINTABLE_BITS = 14_000


def not_utf8(error: UnicodeDecodeError) -> str:
    """Where ``bytes.decode("utf-8")`` failed, in the words of every message that refuses
    such input (a log file, a request body): "not UTF-8 text (byte 0xff at byte offset 10)"."""
    data = error.object
    return f"not UTF-8 text (byte 0x{data[error.start]:02x} at byte offset {error.start})"


class SpiderError(ValueError):
    """Base class of the errors below."""


class InvalidCardError(SpiderError):
    """A card's text form does not parse (``'1S'``, ``'KX'``): RULES.md §2 Cards."""


class InvalidCodeError(SpiderError):
    """A game code does not parse; the message names the part that is wrong: RULES.md §9 Game code."""


class InvalidDealError(SpiderError):
    """An explicit deal has the wrong number of cards or the wrong composition: RULES.md §10 Explicit deals."""


class InvalidVariantError(SpiderError):
    """A suit count, rule name or variant parameter is not one we play: RULES.md §3 Variants."""


class InvalidActionError(SpiderError):
    """An action's notation does not parse (``'3-5'``, ``'0>4'``, ``'D2'``): RULES.md §11 Action notation."""


class IllegalActionError(SpiderError):
    """The action parses, but the position forbids it; the message gives the rule.

    The messages are the rule reminders of RULES.md §13.3 Rule reminders.
    """


class InvalidBudgetError(SpiderError):
    """A search budget out of range: no nodes, a negative, infinite or NaN number of seconds."""


class InvalidOptionError(SpiderError):
    """A command or batch option out of range: a negative count, no workers, a huge number."""


class CatalogError(SpiderError):
    """A catalog file cannot be opened, is not a catalog, or is of a newer schema."""


class CatalogLocked(CatalogError):
    """A write to the catalog waited for another process's lock on it past SQLite's wait."""


class SchedulerError(SpiderError):
    """A cluster scheduler cannot be reached or used."""


class InvalidGradeError(SpiderError):
    """No grade can be given: a variant with no difficulty boundaries, or boundaries that
    do not fit (a grade filter out of range is an :class:`InvalidOptionError`)."""


class EngineUnavailableError(SpiderError):
    """The search engine cannot run in this process: numba's compiler is turned off."""
