"""A request's refused form in the project's words: what each field takes, and the message
of a value it refuses (``body.undo_limit: expected a whole number from 0 to 1,000,000, or null
for the whole history; got -1``).

pydantic's own sentences ("Input should be a valid list") say what the validator wanted,
not what the field means; :func:`refusal` words each problem from :data:`TAKES`, the one
list of what every field of a request takes, and the problem's kind. A test sends every
field of every endpoint a value of the wrong type and checks that the answer names the
field in these words.
"""

from __future__ import annotations

import json
import math
from typing import Any

from spider_solver.errors import quote
from spider_solver.limits import MAX_ACTIONS, MAX_DECK_TEXT, MAX_FAIR_LAYOUTS, MAX_PAGE, MAX_TOKEN, MAX_UNDO_LIMIT

#: What each field of a request (body or query) takes, in words; ``actions.`` is an item of
#: a log given as a list.
TAKES: dict[str, str] = {
    "code": 'a game code such as "SP1-S4C-AAAAAAD"',
    "deck": f"the 104 cards of a deal in deck order, separated by spaces (at most {MAX_DECK_TEXT:,} characters)",
    "suits": "1, 2 or 4",
    "rule": '"classic" or "relaxed"',
    "actions": (f"the game log: a list of at most {MAX_ACTIONS:,} actions, or one string of actions separated by "
                "spaces or commas"),
    "actions.": "one action in notation (D, F>T, F>T/N or U) as a string, without spaces or commas",
    "deal_on_empty": "true or false",
    "undo_limit": f"a whole number from 0 to {MAX_UNDO_LIMIT:,}, or null for the whole history",
    "max_nodes": "a whole number of search nodes from 1 to the server's --max-nodes-cap",
    "max_seconds": "a number of seconds above 0, at most the server's --max-seconds-cap",
    "lost_at": "true or false",
    "fair": "true or false",
    "layouts": f"a whole number of layouts from 1 to the server's --max-layouts-cap, at most {MAX_FAIR_LAYOUTS:,}",
    "confirm_layouts": f"a whole number of layouts from 1 to the server's --max-layouts-cap, at most "
                       f"{MAX_FAIR_LAYOUTS:,}",
    "seed": "a whole number from 0 to 2**64 - 1",
    "check": "one action in notation (D, F>T, F>T/N or U), without spaces or commas",
    "status": '"verified", "unwinnable" or "unknown"',
    "difficulty": "a grade from 1 to 5 (e.g. 5) or a range of grades, low first (e.g. 1-2)",
    "after": "the game code that ended the previous page",
    "limit": f"a whole number of rows from 1 to {MAX_PAGE:,}",
    "include": '"solution"',
    "date": "a date written YYYY-MM-DD, e.g. 2026-01-31",
    "name": "a name the frontend chooses for the player, at most 40 printable characters, or null",
    "challenge": "a text the frontend chooses to tie games together (a challenge), at most 64 printable characters, "
                 "or null",
    "receipt": "a receipt as POST /v1/games gave it",
    "redeem": "true or false",
}

#: pydantic's kinds of a value of the wrong type or form: the message says what the field takes.
_WRONG = frozenset({
    "string_type", "int_type", "int_parsing", "int_from_float", "float_type", "float_parsing", "bool_type",
    "bool_parsing", "list_type", "dict_type", "model_type", "model_attributes_type", "literal_error", "enum",
    "date_type", "date_parsing", "date_from_datetime_parsing", "date_from_datetime_inexact",
    "string_pattern_mismatch", "none_required", "is_instance_of", "union_tag_invalid",
})
#: Bounds: the message says the bound as well.
_BOUNDS = {"greater_than": "above {gt}", "greater_than_equal": "at least {ge}", "less_than": "below {lt}",
           "less_than_equal": "at most {le}"}


def shown(value: Any) -> str:
    """A refused value as the request wrote it: JSON (null, true, "text"), bounded in length."""
    if isinstance(value, str):
        return json.dumps(value[:MAX_TOKEN], ensure_ascii=False) + ("..." if len(value) > MAX_TOKEN else "")
    if isinstance(value, float) and value != value or value in (math.inf, -math.inf):
        return json.dumps(value)  # NaN, Infinity, -Infinity: as JSON parsers take them
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):  # an integer too long to print
        return quote(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _figure(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def refusal(field: str, item: dict[str, Any], fields: tuple[str, ...] = ()) -> str | None:
    """The words of one problem of ``field`` (a name of :data:`TAKES`; ``actions.`` for an item of
    the log), from pydantic's ``item``; ``fields``: those the request's body takes, for an unknown
    one. None when the item's own message is already the project's (a validator's)."""
    kind = item.get("type", "")
    value = item.get("input")
    takes = TAKES.get(field)
    if kind == "missing":
        return "missing" + (f": give {takes}" if takes else "")
    if kind == "extra_forbidden":
        listed = f" (the fields are {', '.join(fields)})" if fields else ""
        return f"no such field{listed}"
    if not field and kind in ("model_attributes_type", "dict_type", "model_type"):
        return f"the body must be a JSON object of the request's fields, not {shown(value)}"
    if kind in _BOUNDS:
        bound = _BOUNDS[kind].format(**{key: _figure(val) for key, val in (item.get("ctx") or {}).items()})
        return f"expected {takes or 'a value'} ({bound}); got {shown(value)}"
    if kind == "too_long":
        return (f"too many items: at most {_figure((item.get('ctx') or {}).get('max_length'))}"
                + (f"; give {takes}" if takes else ""))
    if kind == "string_too_long":
        limit = (item.get("ctx") or {}).get("max_length", MAX_TOKEN)
        return f"longer than {_figure(limit)} characters; give {takes}" if takes else f"longer than {limit} characters"
    if kind == "finite_number":
        return f"expected a finite number: {takes or 'a number'}; got {shown(value)}"
    if kind in _WRONG:
        return f"expected {takes or 'another value'}; got {shown(value)}"
    return None


__all__ = ["TAKES", "refusal", "shown"]
