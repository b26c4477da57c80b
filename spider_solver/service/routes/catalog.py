"""``GET /v1/catalog/deals`` (pages of rows in export form) and ``GET /v1/catalog/random``."""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from spider_solver.catalog import Catalog, parse_grades
from spider_solver.errors import SpiderError
from spider_solver.limits import DEFAULT_PAGE, MAX_PAGE, MAX_TOKEN
from spider_solver.outcomes import Status
from spider_solver.rules import CLASSIC
from spider_solver.service import state
from spider_solver.service.models import CODE_PATTERN, GRADES_PATTERN, CatalogDeal, CatalogPage, RuleValue, responses

router = APIRouter(tags=["catalog"])

_RANDOM = random.SystemRandom()
#: Query strings carry text: the suit count is one of these.
SuitsQuery = Literal["1", "2", "4"]
Grades = Annotated[str | None, Query(pattern=GRADES_PATTERN,
                                     description="A grade, 5, or a range of grades, low first, 1-2.")]


def _filters(suits: SuitsQuery | None, rule: str | None, difficulty: str | None) -> dict[str, Any]:
    return {
        "suits": None if suits is None else int(suits),
        "rule": CLASSIC if suits == "1" and rule is not None else rule,  # one suit is always classic
        "difficulty": None if difficulty is None else _grades(difficulty),
    }


def _grades(text: str) -> tuple[int, int]:
    """``parse_grades``, its refusal answered as the query's other problems (422 invalid-request)."""
    try:
        return parse_grades(text)
    except SpiderError as error:
        raise RequestValidationError([{"loc": ("query", "difficulty"), "type": "value_error",
                                       "msg": str(error)}]) from None


@router.get("/v1/catalog/deals", response_model=CatalogPage, responses=responses(404, 422, 503))
async def catalog_deals(
    catalog: Annotated[Catalog, Depends(state.catalog)],
    suits: SuitsQuery | None = None,
    rule: RuleValue | None = None,
    status: Status | None = None,
    difficulty: Grades = None,
    after: Annotated[str | None, Query(max_length=MAX_TOKEN, pattern=CODE_PATTERN, examples=["SP1-S1C-AAAAAAA"],
                                       description="The game code that ended the previous page.")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = DEFAULT_PAGE,
) -> Any:
    """A page of catalog rows in export form, by suit count, rule and deal number, and
    the cursor of the next page."""
    rows, following = catalog.page(status=status, after=after, limit=limit, **_filters(suits, rule, difficulty))
    return {"deals": [row.to_dict() for row in rows], "next": following}


@router.get("/v1/catalog/random", response_model=CatalogDeal, responses=responses(404, 422, 503))
async def catalog_random(
    catalog: Annotated[Catalog, Depends(state.catalog)],
    suits: SuitsQuery | None = None,
    rule: RuleValue | None = None,
    difficulty: Grades = None,
) -> Any:
    """One verified deal, drawn uniformly among those that match: for "New game"."""
    entry = catalog.random_verified(choose=_RANDOM.randrange, **_filters(suits, rule, difficulty))
    if entry is None:
        raise StarletteHTTPException(404, "no verified deal in the catalog matches")
    return entry.to_dict()
