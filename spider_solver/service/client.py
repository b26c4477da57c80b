"""The reference web client: a page at ``/`` and ``/play`` that plays a verified deal
with the service's hints, and its style sheet and scripts under ``/web/``. They are the
files of ``spider_solver/service/web/`` (plain HTML, CSS and JavaScript modules, no build
step). The page plays with the rules module, ``spider_solver/js/`` (the npm package
spider-solver-rules, package data of the wheel), served under ``/web/rules/``, and asks
the server only through the public ``/v1`` API, with ``web/api.js`` (docs/frontend.md).
The page names every URL relative to itself, so it also works behind a proxy that serves
the service under a prefix; its Content-Security-Policy lets it load nothing but this
server's files."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import Scope

#: The client's files, in the package.
WEB = Path(str(resources.files("spider_solver.service") / "web"))
#: The rules in JavaScript, which game.js imports from web/rules/ (package data of the wheel too).
RULES = Path(str(resources.files("spider_solver") / "js"))
#: The page's policy: scripts, styles and requests to this server only; the favicon a data: URL.
POLICY = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
          "form-action 'none'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": POLICY, "X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"}
PAGES = ("/", "/play")


class WebFiles(StaticFiles):
    """The client's files, with the page's headers; a file is checked for changes on each load."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(HEADERS)
        return response


def install(app: FastAPI) -> None:
    """Serve the page at ``/`` and ``/play``, its files under ``/web/``, and the rules module
    under ``/web/rules/``."""
    page = (WEB / "index.html").read_text(encoding="utf-8")

    async def play(request: Request) -> HTMLResponse:
        # /play's relative URLs (web/game.js) resolve as the root's do.
        return HTMLResponse(page, headers=HEADERS)

    for path in PAGES:
        app.add_route(path, play, include_in_schema=False)
    app.mount("/web/rules", WebFiles(directory=RULES), name="web-rules")  # before /web, which would take it
    app.mount("/web", WebFiles(directory=WEB), name="web-client")
