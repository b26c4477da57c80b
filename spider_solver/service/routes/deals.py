"""``GET /v1/deals/{code}`` (the layout, and what the catalog knows) and ``POST /v1/verify``."""

from __future__ import annotations

import json
import logging
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path
from fastapi.responses import JSONResponse, Response

from spider_solver.catalog import Catalog, Entry
from spider_solver.errors import CatalogError
from spider_solver.export import deal_json
from spider_solver.outcomes import Status
from spider_solver.service import state
from spider_solver.service.models import MAX_TOKEN, DealView, VerifyRequest, VerifyResponse, responses
from spider_solver.service.searches import Searches, verify_job

log = logging.getLogger("spider_solver.service")
router = APIRouter(tags=["deals"])


@lru_cache(maxsize=4096)
def layout_of(code: str) -> tuple[str, bytes]:
    """A deal's canonical code and its initial layout as JSON (deals never change: cached)."""
    layout = deal_json(state.deal_by_code(code))
    return layout["code"], json.dumps(layout, ensure_ascii=False, separators=(",", ":")).encode()


def summary(entry: Entry) -> dict[str, Any]:
    """What the catalog knows of a deal, for ``GET /v1/deals/{code}``."""
    return {"status": str(entry.status), "reason": str(entry.reason), "moves": entry.moves, "score": entry.score,
            "difficulty": entry.difficulty, "difficulty_raw": entry.difficulty_raw,
            "grader_version": entry.grader_version, "par": entry.par}


@router.get("/v1/deals/{code}", response_model=DealView, responses=responses(422, 503))
async def get_deal(code: Annotated[str, Path(max_length=MAX_TOKEN, examples=["SP1-S4C-AAAAAAD"])],
                   catalog: Annotated[Catalog | None, Depends(state.optional_catalog)]) -> Any:
    """A deal's initial layout and deck (as ``spider-solve show --json``) and, if the
    catalog has the deal, its status, difficulty, solution length and score."""
    canonical, layout = layout_of(code)
    entry = None if catalog is None else catalog.get(canonical)
    known = b"null" if entry is None else json.dumps(summary(entry), separators=(",", ":")).encode()
    return Response(layout[:-1] + b',"catalog":' + known + b"}", media_type="application/json")


@router.post("/v1/verify", response_model=VerifyResponse, responses=responses(403, 415, 422, 503))
async def verify(body: VerifyRequest, settings: Annotated[state.Settings, Depends(state.settings)],
                 catalog: Annotated[Catalog | None, Depends(state.optional_catalog)],
                 searches: Annotated[Searches | None, Depends(state.optional_searches)],
                 writer: Annotated[state.CatalogWriter | None, Depends(state.writer)]) -> Any:
    """Whether a deal can be won, and a winning line. A deal the catalog has settled
    (verified, unwinnable, or unknown at a budget at least as large) is answered from
    it without a search; a new result for a game code is written to the catalog."""
    _, spec = state.deal_of(body)
    max_nodes, max_seconds = settings.budget(body)
    recorded = spec.code is not None and not body.deal_on_empty  # what the catalog records
    entry = catalog.get(spec.code) if catalog is not None and recorded and spec.code else None
    if entry is not None and catalog is not None and (entry.status is not Status.UNKNOWN or catalog.settled(
            [entry.code], max_nodes=max_nodes, max_seconds=max_seconds)):
        return _answer(entry.to_dict() | {"source": "catalog"})
    result = await state.require_searches(searches).run(
        ("verify", spec, max_nodes, max_seconds, body.deal_on_empty),
        verify_job, spec, max_nodes, max_seconds, body.deal_on_empty)
    grade: dict[str, Any] = {"difficulty": None, "difficulty_raw": None, "grader_version": None}
    if writer is not None and recorded and spec.code is not None:
        try:
            stored = await writer.record(result, spec.code)
        except CatalogError as error:  # the answer stands; only the catalog misses it
            log.warning("%s", error)
            stored = None
        if stored is not None and stored.status is Status.VERIFIED and result["status"] == "verified":
            grade = {name: getattr(stored, name) for name in grade}
    return _answer(result | grade | {"source": "search"})


def _answer(data: dict[str, Any]) -> JSONResponse:
    return JSONResponse({name: data[name] for name in VerifyResponse.model_fields})
