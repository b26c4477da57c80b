"""The web client's files as the service serves them (the browser tests, tests/web, play
them): the page at ``/`` and ``/play``, its files under ``/web/``, all from the package,
none naming another server."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from spider_solver.service.app import Settings, create_app  # noqa: E402
from spider_solver.service.client import POLICY, WEB  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Settings(read_only=True))) as test_client:
        yield test_client


@pytest.mark.parametrize("path", ["/", "/play"])
def test_the_page_is_served_with_a_policy_that_loads_only_this_servers_files(client, path):
    response = client.get(path)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert response.text == (WEB / "index.html").read_text(encoding="utf-8")
    assert response.headers["content-security-policy"] == POLICY and "default-src 'self'" in POLICY
    assert client.head(path).status_code == 200


def test_every_file_the_page_and_its_modules_name_is_served(client):
    page = client.get("/").text
    named = re.findall(r'(?:href|src)="(web/[^"]+)"', page)
    assert set(named) == {"web/style.css", "web/game.js"}
    imports = re.findall(r'from "\./([^"]+)"', (WEB / "game.js").read_text(encoding="utf-8"))
    assert imports == ["api.js"]
    for path in [*named, *(f"web/{name}" for name in imports)]:
        response = client.get("/" + path)
        assert response.status_code == 200, path
        assert response.headers["content-security-policy"] == POLICY


def test_no_file_of_the_client_names_another_server():
    for path in WEB.iterdir():
        assert not re.search(r"https?://(?!127\.0\.0\.1)", path.read_text(encoding="utf-8")), path.name


def test_what_is_not_a_file_of_the_client_is_a_json_404(client):
    for path in ("/web/missing.js", "/web/../app.py", "/play/"):
        response = client.get(path)
        assert response.status_code == 404 and response.json()["error"]["type"] == "not-found", path
