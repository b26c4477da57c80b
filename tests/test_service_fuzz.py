"""schemathesis against the service's own OpenAPI document, over HTTP to a real uvicorn
server on 127.0.0.1 (a free port, in a thread of this process).

Every operation gets a bounded number of generated requests, valid and invalid; no
answer may be a 5xx, and every answer must be one the document declares (status code,
content type, body schema, headers). Budgets are capped low (20,000 nodes, 2 s) so the
searches that valid requests start stay short.
"""

from __future__ import annotations

import threading
import time

import pytest

pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis")

import uvicorn  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import (  # noqa: E402
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from spider_solver import solve  # noqa: E402
from spider_solver.catalog import Catalog  # noqa: E402
from spider_solver.service.app import Settings, create_app  # noqa: E402
from spider_solver.service.server import Server, listen  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine")

#: Generated requests per operation and method.
EXAMPLES = 25


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory, engine):
    path = tmp_path_factory.mktemp("fuzz") / "catalog.sqlite"
    with Catalog(path) as db:
        for code in ("SP1-S1C-AAAAAAA", "SP1-S1C-AAAAAAB"):
            db.record(solve(code))
    app = create_app(Settings(catalog=str(path), solvers=1, max_nodes_cap=20_000, max_seconds_cap=2.0))
    sock = listen("127.0.0.1", 0)
    server = Server(uvicorn.Config(app, log_level="error", access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "the server did not start"
    port = sock.getsockname()[1]
    yield schemathesis.openapi.from_url(f"http://127.0.0.1:{port}/openapi.json")
    server.should_exit = True
    thread.join(30)
    sock.close()


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])
def test_api_answers_as_documented(case):
    case.call_and_validate(checks=[not_a_server_error, status_code_conformance, content_type_conformance,
                                   response_schema_conformance, response_headers_conformance], timeout=60)
