"""The web client's files as the service serves them (the browser tests, tests/web, play
them): the page at ``/`` and ``/play``, its files under ``/web/`` and the rules module it
imports under ``/web/rules/``, all from the package, none naming another server."""

from __future__ import annotations

import posixpath
import re

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from spider_solver.service.app import Settings, create_app  # noqa: E402
from spider_solver.service.client import POLICY, RULES, WEB  # noqa: E402


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
    preloaded = set(re.findall(r'<link rel="modulepreload" href="(web/[^"]+)">', page))
    assert set(named) - preloaded == {"web/style.css", "web/game.js"}
    # The modules game.js imports, and theirs: api.js, and the rules module's files.
    todo, modules = ["web/game.js"], set()
    while todo:
        path = todo.pop()
        modules.add(path)
        source = client.get("/" + path).text
        for name in re.findall(r'\bfrom "\./([^"]+)"', source):
            found = posixpath.normpath(posixpath.join(posixpath.dirname(path), name))
            if found not in modules:
                todo.append(found)
    rules = {f"web/rules/{path.name}" for path in RULES.glob("*.js")}
    assert modules == {"web/game.js", "web/api.js"} | rules
    assert len(rules) >= 8
    assert preloaded == modules - {"web/game.js"}  # every module game.js imports is fetched at once
    for path in [*named, *sorted(modules)]:
        response = client.get("/" + path)
        assert response.status_code == 200, path
        assert response.headers["content-security-policy"] == POLICY
        if path.endswith(".js"):  # a module script needs a JavaScript type (nosniff)
            assert response.headers["content-type"].split(";")[0] in ("text/javascript", "application/javascript")
    assert client.get("/web/rules/index.js").text == (RULES / "index.js").read_text(encoding="utf-8")


def test_no_file_of_the_client_names_another_server():
    for path in [*WEB.iterdir(), *RULES.glob("*.js")]:
        assert not re.search(r"https?://(?!127\.0\.0\.1)", path.read_text(encoding="utf-8")), path.name


def test_what_is_not_a_file_of_the_client_is_a_json_404(client):
    for path in ("/web/missing.js", "/web/../app.py", "/play/", "/web/rules/missing.js", "/web/rules/../client.py"):
        response = client.get(path)
        assert response.status_code == 404 and response.json()["error"]["type"] == "not-found", path
