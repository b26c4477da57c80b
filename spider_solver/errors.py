"""Every exception spider-solver raises on purpose.

All of them are :class:`ValueError` subclasses, so code that only wants to know
"was the input bad?" can catch ``ValueError``. Messages are lower case, quote the
offending input with ``!r`` and then say what was expected; the command line
prints them as they are, without a traceback. RULES.md §13.5 Errors lists which
rules raise which error.
"""

from __future__ import annotations


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


class SchedulerError(SpiderError):
    """A cluster scheduler cannot be reached or used."""
