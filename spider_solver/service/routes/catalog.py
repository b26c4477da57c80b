"""The catalog's endpoints: pages of rows (``GET /v1/catalog/deals``), one row with its first
position (``GET /v1/catalog/deals/{code}``), a random verified deal (``/v1/catalog/random``)
and the day's deal (``/v1/catalog/daily``).

None of them gives away the game: a row's solution is left out unless the request asks for it
(``include=solution``), and a deal to play comes with its first position as ``POST
/v1/position`` gives it, face-down cards counted, never named (docs/service.md, "Spoilers").
"""

from __future__ import annotations

import datetime
import random
import re
from collections import OrderedDict
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from spider_solver.catalog import Catalog, parse_grades
from spider_solver.errors import SpiderError
from spider_solver.limits import DEFAULT_PAGE, MAX_PAGE, MAX_TOKEN
from spider_solver.outcomes import Status
from spider_solver.record import SolveRecord
from spider_solver.rules import CLASSIC, GameCode
from spider_solver.service import state
from spider_solver.service.models import (
    CODE_PATTERN,
    GRADES_PATTERN,
    REVEALS,
    CatalogPage,
    DailyDeal,
    NewGame,
    RuleValue,
    responses,
)
from spider_solver.service.routes.paths import CodePath
from spider_solver.service.routes.position import opening

router = APIRouter(tags=["catalog"])

_RANDOM = random.SystemRandom()
#: Query strings carry text: the suit count is one of these.
SuitsQuery = Literal["1", "2", "4"]
Grades = Annotated[str | None, Query(pattern=GRADES_PATTERN,
                                     description="A grade, 5, or a range of grades, low first, 1-2.")]
#: What a request may ask to be included: a row's solution, a spoiler left out by default.
Include = Annotated[Literal["solution"] | None, Query(
    description="solution: include each row's solution, the whole winning line (a spoiler: left out otherwise).")]
SOLUTION_IF_ASKED = {REVEALS: ["the solution, with include=solution"]}
#: A date as the daily deal takes it: YYYY-MM-DD, nothing else (pydantic's date would take a time too).
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
#: The daily deals worked out lately, by date and filters, with the fingerprint of the rows they
#: were chosen from: the choice is kept while the matching rows stay the same.
_DAILY: OrderedDict[tuple, tuple[tuple[int, int], str | None]] = OrderedDict()
DAILY_KEPT = 64


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


def catalog_row(entry: SolveRecord, include: str | None) -> dict[str, Any]:
    """A row in export form, its solution left out unless asked for (the key absent: the
    routes leave unset fields out)."""
    row = entry.to_dict()
    if include != "solution":
        del row["solution"]
    return row


def new_game(entry: SolveRecord, include: str | None) -> dict[str, Any]:
    """A catalog row as a game to start: its code, the row, its first position."""
    return {"code": entry.code, "catalog": catalog_row(entry, include), "position": opening(str(entry.code))}


@router.get("/v1/catalog/deals", response_model=CatalogPage, response_model_exclude_unset=True,
            responses=responses(404, 422, 503), openapi_extra=SOLUTION_IF_ASKED)
async def catalog_deals(
    catalog: Annotated[Catalog, Depends(state.catalog)],
    suits: SuitsQuery | None = None,
    rule: RuleValue | None = None,
    status: Status | None = None,
    difficulty: Grades = None,
    after: Annotated[str | None, Query(max_length=MAX_TOKEN, pattern=CODE_PATTERN, examples=["SP1-S1C-AAAAAAA"],
                                       description="The game code that ended the previous page.")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = DEFAULT_PAGE,
    include: Include = None,
) -> Any:
    """A page of catalog rows in export form, by suit count, rule and deal number, the cursor
    of the next page and the count of the rows that match. Reveals the solutions with
    ``include=solution`` only."""
    filters = _filters(suits, rule, difficulty)
    rows, following = catalog.page(status=status, after=after, limit=limit, **filters)
    return {"deals": [catalog_row(row, include) for row in rows], "next": following,
            "total": catalog.count(status=status, **filters)}


@router.get("/v1/catalog/deals/{code:any_text}", response_model=NewGame, response_model_exclude_unset=True,
            responses=responses(404, 422, 503), openapi_extra=SOLUTION_IF_ASKED)
async def catalog_deal(
    code: CodePath,
    catalog: Annotated[Catalog, Depends(state.catalog)],
    include: Include = None,
) -> Any:
    """A game of a typed code, started without spoilers: its code, what the catalog knows of
    it (null if it does not hold the deal; the solution only with ``include=solution``) and
    its first position, face-down cards counted, never named."""
    entry = catalog.get(code)
    if entry is None:
        canonical = str(GameCode.parse(code))
        return {"code": canonical, "catalog": None, "position": opening(canonical)}
    return new_game(entry, include)


@router.get("/v1/catalog/random", response_model=NewGame, response_model_exclude_unset=True,
            responses=responses(404, 422, 503), openapi_extra=SOLUTION_IF_ASKED)
async def catalog_random(
    catalog: Annotated[Catalog, Depends(state.catalog)],
    suits: SuitsQuery | None = None,
    rule: RuleValue | None = None,
    difficulty: Grades = None,
    include: Include = None,
) -> Any:
    """One verified deal, drawn uniformly among those that match, as a game to start ("New
    game"): its code, its catalog record (verified, difficulty, par, ...) and its first
    position, face-down cards counted, never named; the solution only with
    ``include=solution``."""
    entry = catalog.random_verified(choose=_RANDOM.randrange, **_filters(suits, rule, difficulty))
    if entry is None:
        raise StarletteHTTPException(404, "no verified deal in the catalog matches")
    return new_game(entry, include)


def _date(request: Request, day: datetime.date | None) -> str:
    """The request's date as written (YYYY-MM-DD), or today's in UTC."""
    if day is None:
        return datetime.datetime.now(datetime.UTC).date().isoformat()
    written = request.query_params.get("date", "")
    if not DATE.fullmatch(written):  # a date and a time, which pydantic's date takes at midnight
        raise RequestValidationError([{"loc": ("query", "date"), "type": "date_parsing", "input": written}])
    return day.isoformat()


@router.get("/v1/catalog/daily", response_model=DailyDeal, response_model_exclude_unset=True,
            responses=responses(404, 422, 503), openapi_extra=SOLUTION_IF_ASKED)
async def catalog_daily(
    request: Request,
    catalog: Annotated[Catalog, Depends(state.catalog)],
    date: Annotated[datetime.date | None, Query(description="The day, YYYY-MM-DD (default: today in UTC; a "
                                                            "frontend sends the player's own date).",
                                                examples=["2026-01-31"])] = None,
    suits: SuitsQuery | None = None,
    rule: RuleValue | None = None,
    difficulty: Grades = None,
    include: Include = None,
) -> Any:
    """The day's deal: one verified deal of the catalog among those that match, the same on
    every server with the same catalog (the largest SHA-256 of "DATE CODE" among the matching
    verified codes: docs/service.md, "The daily deal"), as a game to start without spoilers,
    with the date it is for; the solution only with ``include=solution``. 404 if no verified
    deal matches."""
    day = _date(request, date)
    filters = _filters(suits, rule, difficulty)
    entry = daily(catalog, day, filters)
    if entry is None:
        raise StarletteHTTPException(404, "no verified deal in the catalog matches")
    return new_game(entry, include) | {"date": day}


def daily(catalog: Catalog, day: str, filters: dict[str, Any]) -> SolveRecord | None:
    """:meth:`Catalog.daily`, kept while the rows it chooses from stay the same (their
    fingerprint: one count over the rows, where the choice hashes every code)."""
    key = (str(catalog.path), day, tuple(sorted(filters.items())))
    seen = catalog.fingerprint(status=Status.VERIFIED, **filters)
    kept = _DAILY.get(key)
    if kept is not None and kept[0] == seen:
        _DAILY.move_to_end(key)
        return None if kept[1] is None else catalog.get(kept[1])
    entry = catalog.daily(day, **filters)
    _DAILY[key] = (seen, None if entry is None else entry.code)
    while len(_DAILY) > DAILY_KEPT:
        _DAILY.popitem(last=False)
    return entry
