"""What the paths of the endpoints take: a game code, as the rest of the path."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path
from starlette.convertors import Convertor, register_url_convertor

from spider_solver.limits import MAX_TOKEN
from spider_solver.service.models import CODE_PATTERN


class _AnyText(Convertor[str]):
    """The rest of the path, whatever it holds: a code with a "/" in it (sent as %2F, which
    the server decodes before routing) is a code off the pattern (422 ``invalid-code``), not
    another path (404). Starlette's ``path`` (``.*``) would not take a line break. Registered
    in Starlette's table of convertors, which every application of the process shares."""

    regex = r"[\s\S]+"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("any_text", _AnyText())

#: A game code in a path (``/v1/deals/{code:any_text}``): the document's pattern and length.
CodePath = Annotated[str, Path(max_length=MAX_TOKEN, pattern=CODE_PATTERN, examples=["SP1-S4C-AAAAAAD"])]

__all__ = ["CodePath"]
