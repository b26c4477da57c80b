"""schemathesis against the service's own OpenAPI document, over HTTP to a real uvicorn
server on 127.0.0.1 (a free port, in a thread of this process).

Every operation gets a bounded number of generated requests, valid and invalid (driven by
hypothesis here rather than schemathesis's pytest plugin, which pins it to pytest's
internals); no
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
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis.errors import Unsatisfiable  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
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

#: Generated requests per operation, method and generation mode.
EXAMPLES = 25
#: The document the server publishes, loaded from the application itself (the same one
#: ``/openapi.json`` serves), so that the operations are known when tests are collected.
SCHEMA = schemathesis.openapi.from_dict(create_app().openapi())
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance]


@pytest.fixture(scope="module")
def server_url(tmp_path_factory, engine):
    """A real uvicorn server on a free port of 127.0.0.1, in a thread of this process."""
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
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    server.should_exit = True
    thread.join(30)
    sock.close()


def test_the_document_is_the_servers(server_url):
    import json
    import urllib.request

    with urllib.request.urlopen(f"{server_url}/openapi.json", timeout=30) as response:
        assert json.loads(response.read()) == create_app().openapi()


@pytest.mark.parametrize("mode", list(GenerationMode), ids=str)
@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda operation: operation.label)
def test_api_answers_as_documented(server_url, operation, mode):
    """Valid (positive) and invalid (negative) requests of one operation, EXAMPLES of each."""

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(mode))
    def check(case):
        case.call_and_validate(base_url=server_url, checks=CHECKS, timeout=60)

    try:
        check()
    except Unsatisfiable:
        if mode is GenerationMode.POSITIVE:
            raise
        pytest.skip(f"{operation.label} takes no input, so no invalid request can be made")


@pytest.mark.parametrize("operation", [op for op in OPERATIONS if op.get_strategies_from_examples()],
                         ids=lambda operation: operation.label)
def test_the_documented_examples_answer_as_documented(server_url, operation):
    """The document's own examples (a real game code, ...), which random text rarely hits."""
    for strategy in operation.get_strategies_from_examples():

        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=strategy)
        def check(case):
            case.call_and_validate(base_url=server_url, checks=CHECKS, timeout=60)

        check()
