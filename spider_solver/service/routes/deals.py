"""``GET /v1/deals/{code}`` (the layout, and what the catalog knows) and ``POST /v1/verify``."""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Depends

from spider_solver.catalog import Catalog
from spider_solver.errors import CatalogError
from spider_solver.export import deal_json
from spider_solver.outcomes import Status
from spider_solver.record import SolveRecord
from spider_solver.service import state
from spider_solver.service.models import REVEALS, DealView, VerifyRequest, VerifyResponse, responses
from spider_solver.service.routes.paths import CodePath
from spider_solver.service.searches import Searches, verify_job

log = logging.getLogger("spider_solver.service")
router = APIRouter(tags=["deals"])


@lru_cache(maxsize=4096)
def layout_of(code: str) -> dict[str, Any]:
    """A deal's initial layout, as ``spider-solve show --json`` prints it (deals never
    change: cached; callers copy it before they add to it)."""
    return deal_json(state.deal_by_code(code))


@router.get("/v1/deals/{code:any_text}", response_model=DealView, responses=responses(422, 503),
            openapi_extra={REVEALS: ["the face-down cards", "the stock's order", "the solution"]})
async def get_deal(code: CodePath, catalog: Annotated[Catalog | None, Depends(state.optional_catalog)]) -> Any:
    """**Reveals every hidden card and the solution**: a deal's initial layout and deck (as
    ``spider-solve show --json``, every card named, face down or in the stock) and, if the
    catalog has the deal, its whole record (status, solution, difficulty, par, ...). For
    tools, not for a game's page: a game starts from ``GET /v1/catalog/random``,
    ``/v1/catalog/daily`` or ``/v1/catalog/deals/{code}``, or ``POST /v1/position`` with an
    empty log, none of which names a face-down card."""
    layout = layout_of(code)
    entry = None if catalog is None else catalog.get(layout["code"])
    return layout | {"catalog": None if entry is None else entry.to_dict()}


@router.post("/v1/verify", response_model=VerifyResponse, responses=responses(403, 415, 422, 503),
             openapi_extra={REVEALS: ["the solution"]})
async def verify(body: VerifyRequest, settings: Annotated[state.Settings, Depends(state.settings)],
                 catalog: Annotated[Catalog | None, Depends(state.optional_catalog)],
                 searches: Annotated[Searches | None, Depends(state.optional_searches)],
                 writer: Annotated[state.CatalogWriter | None, Depends(state.writer)],
                 grader: Annotated[Any, Depends(state.grader)]) -> Any:
    """**Reveals the solution**. Whether a deal can be won, and a winning line: the deal's record, as
    ``spider-solve verify --json`` prints it, and where it came from. A deal the catalog
    has settled (verified, unwinnable, or unknown at a budget at least as large) is
    answered from it without a search; a new result for a game code is written to the
    catalog (an unknown only at the catalog's default budget or more), and a verified
    answer carries the deal's grade if the catalog holds one; a new verified deal is
    graded in the background."""
    _, spec = state.deal_of(body)
    max_nodes, max_seconds = settings.budget(body)
    recorded = spec.code is not None and not body.deal_on_empty  # what the catalog records
    entry = catalog.get(spec.code) if catalog is not None and recorded and spec.code else None
    extra = {"deal_on_empty": body.deal_on_empty}
    if entry is not None and catalog is not None and (entry.status is not Status.UNKNOWN or catalog.settled(
            [str(spec.code)], max_nodes=max_nodes, max_seconds=max_seconds)):
        return entry.to_dict() | extra | {"source": "catalog"}
    result: SolveRecord = await state.require_searches(searches).run(
        ("verify", spec, max_nodes, max_seconds, body.deal_on_empty),
        verify_job, spec, max_nodes, max_seconds, body.deal_on_empty, budget=(max_nodes, max_seconds))
    if writer is not None and recorded and spec.code is not None and state.worth_recording(result):
        try:
            stored = await writer.record(result, spec.code)
        except CatalogError as error:  # the answer stands; only the catalog misses it
            log.warning("%s", error)
            stored = None
        if stored is not None and stored.status is Status.VERIFIED and result.status is Status.VERIFIED:
            result = result.with_grade(stored.to_dict())  # the deal's grade, if the catalog has one
            if stored.difficulty is None and grader is not None:
                grader.add(stored.code)  # graded in the background (service/grades.py)
    return result.to_dict() | extra | {"source": "search"}
