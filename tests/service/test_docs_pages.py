"""/docs and /redoc work offline: every script, style sheet and icon the pages name is
served by the service itself (spider_solver/service/docs.py), none by another host."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("fastapi_standalone_docs")

from fastapi.testclient import TestClient  # noqa: E402

from spider_solver.service.app import Settings, create_app  # noqa: E402
from spider_solver.service.docs import STATIC  # noqa: E402


class Links(HTMLParser):
    """The ``src`` and ``href`` attributes of a page, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [value for name, value in attrs if name in ("src", "href") and value is not None]


def links(html: str) -> list[str]:
    parser = Links()
    parser.feed(html)
    parser.close()
    return parser.urls


@pytest.fixture(scope="module")
def app():
    return create_app(Settings(read_only=True))


#: The files each page loads: its bundle, its style sheet (Swagger UI) and the icon;
#: ReDoc's bundle loads its logo from the page's path + "/logo-mini.svg".
EXPECTED = {
    "/docs": {"/docs/swagger-ui-bundle.js": STATIC / "swagger" / "swagger-ui-bundle.js",
              "/docs/swagger-ui.css": STATIC / "swagger" / "swagger-ui.css",
              "/docs/fastapi/favicon.png": STATIC / "fastapi" / "favicon.png"},
    "/redoc": {"/redoc/redoc.standalone.js": STATIC / "redoc" / "redoc.standalone.js",
               "/docs/fastapi/favicon.png": STATIC / "fastapi" / "favicon.png"},
}
TYPES = {".js": "text/javascript", ".css": "text/css", ".png": "image/png", ".svg": "image/svg+xml"}


@pytest.mark.parametrize("page", sorted(EXPECTED))
def test_a_docs_page_and_every_asset_it_names_come_from_the_service(app, page):
    with TestClient(app) as client:
        response = client.get(page)
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
        urls = links(response.text)
        assert sorted(set(urls)) == sorted(EXPECTED[page])
        assert "/openapi.json" in response.text
        for url in urls:
            assert urlsplit(url).scheme == "" and urlsplit(url).netloc == "" and url.startswith("/"), url
            asset = client.get(url)
            assert asset.status_code == 200, url
            assert asset.content and asset.content == EXPECTED[page][url].read_bytes(), url
            assert asset.headers["content-type"].startswith(TYPES[url[url.rindex("."):]]), url


def test_redoc_loads_its_logo_from_the_service_not_the_internet(app):
    bundle = (STATIC / "redoc" / "redoc.standalone.js").read_text(encoding="utf-8")
    assert "cdn.redoc.ly" not in bundle and 'window.location.pathname+"/logo-mini.svg"' in bundle
    with TestClient(app) as client:
        logo = client.get("/redoc/logo-mini.svg")
    assert logo.status_code == 200 and logo.content.lstrip().startswith(b"<svg")
    assert logo.headers["content-type"].startswith("image/svg+xml")


def test_behind_a_proxy_prefix_the_pages_name_their_assets_under_it(app):
    with TestClient(app, root_path="/api") as client:
        for page, expected in EXPECTED.items():
            html = client.get(page).text
            assert sorted(set(links(html))) == sorted(f"/api{url}" for url in expected)
            assert "'/api/openapi.json'" in html or '"/api/openapi.json"' in html


def test_the_pages_stay_out_of_the_openapi_document(app):
    with TestClient(app) as client:
        paths = client.get("/openapi.json").json()["paths"]
        assert not [path for path in paths if path.startswith(("/docs", "/redoc"))]
        assert client.get("/docs/oauth2-redirect").status_code == 200
        assert client.get("/docs/no-such-file.js").status_code == 404
