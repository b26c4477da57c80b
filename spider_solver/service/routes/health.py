"""``GET /v1/health``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from spider_solver.catalog import Catalog
from spider_solver.service import state
from spider_solver.service.models import Health, responses
from spider_solver.service.searches import Searches
from spider_solver.version import __version__

router = APIRouter(tags=["service"])


@router.get("/v1/health", response_model=Health, responses=responses(422, 503))
async def health(settings: Annotated[state.Settings, Depends(state.settings)],
                 catalog: Annotated[Catalog | None, Depends(state.optional_catalog)],
                 searches: Annotated[Searches | None, Depends(state.optional_searches)]) -> Any:
    """Whether the server is up, its version, and its searches in flight; ``503
    catalog-unavailable`` if its catalog cannot be read (as every lookup would then be)."""
    if catalog is not None:
        catalog.readable()
    return {
        "status": "stopping" if searches is not None and searches.stopping else "ok",
        "version": __version__,
        "read_only": settings.read_only,
        "catalog": catalog is not None,
        "searches": {"solvers": 0 if searches is None else searches.solvers,
                     "running": 0 if searches is None else searches.running,
                     "capacity": 0 if searches is None else searches.capacity},
    }
