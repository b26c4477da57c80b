"""The interactive API documentation, /docs (Swagger UI) and /redoc (ReDoc), served whole
by the service: FastAPI's own pages load their scripts and style sheets from a CDN, and
are blank without internet access.

The assets are the files of the installed ``fastapi-standalone-docs`` package (the
``service`` extra): swagger-ui-dist's bundle and style sheet under /docs/, ReDoc's
standalone bundle under /redoc/ (that copy loads its logo from /redoc/logo-mini.svg, not
from the internet), FastAPI's icon under /docs/fastapi/, each folder with its licence.
Every URL a page names is relative to the request's root path, so the pages also work
behind a proxy that serves the API under a prefix.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

#: The package's static folder (importing it here makes a missing package an ImportError,
#: which ``spider-solve serve`` reports as a missing extra).
STATIC = Path(str(resources.files("fastapi_standalone_docs"))) / "static"
DOCS = "/docs"
REDOC = "/redoc"
ICON = f"{DOCS}/fastapi/favicon.png"


def install(app: FastAPI) -> None:
    """Add the two pages and their assets to ``app``, which was made with
    ``docs_url=None, redoc_url=None`` (FastAPI's own pages off)."""
    openapi_url = app.openapi_url or ""
    oauth2_redirect_url = app.swagger_ui_oauth2_redirect_url  # FastAPI's, /docs/oauth2-redirect

    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "").rstrip("/")
        return get_swagger_ui_html(
            openapi_url=root + openapi_url, title=f"{app.title} - Swagger UI",
            oauth2_redirect_url=oauth2_redirect_url and root + oauth2_redirect_url,
            swagger_ui_parameters=app.swagger_ui_parameters,
            swagger_js_url=f"{root}{DOCS}/swagger-ui-bundle.js", swagger_css_url=f"{root}{DOCS}/swagger-ui.css",
            swagger_favicon_url=root + ICON,
        )

    async def swagger_ui_redirect(request: Request) -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "").rstrip("/")
        return get_redoc_html(
            openapi_url=root + openapi_url, title=f"{app.title} - ReDoc",
            redoc_js_url=f"{root}{REDOC}/redoc.standalone.js", redoc_favicon_url=root + ICON,
            with_google_fonts=False,
        )

    # The pages before the folders mounted under their paths; the icon's folder before /docs/'s.
    app.add_route(DOCS, swagger_ui, include_in_schema=False)
    if oauth2_redirect_url:
        app.add_route(oauth2_redirect_url, swagger_ui_redirect, include_in_schema=False)
    app.add_route(REDOC, redoc, include_in_schema=False)
    app.mount(f"{DOCS}/fastapi", StaticFiles(directory=STATIC / "fastapi"), name="docs-icon")
    app.mount(DOCS, StaticFiles(directory=STATIC / "swagger"), name="docs-assets")
    app.mount(REDOC, StaticFiles(directory=STATIC / "redoc"), name="redoc-assets")
