"""schemathesis against the service's OpenAPI document, over HTTP to the real server
process (``spider-solve serve`` on a free port of 127.0.0.1, started here).

Every operation gets a bounded number of generated requests in both of schemathesis's
modes: valid ones (positive), which the server must accept, and invalid ones (negative),
which it must refuse. Besides no 5xx and answers as documented (status code, content
type, body schema, headers), its checks ``positive_data_acceptance`` and
``negative_data_rejection`` hold the document to what the server enforces, both ways:
the document is the contract of a request's form. Driven by hypothesis here rather than
schemathesis's pytest plugin, which pins it to pytest's internals.

What the rules, not the form, decide is a 422 whatever the schema says: a deck whose 104
cards are not the cards of its variant (``invalid-deal``), an action the rules refuse
at that point of the game (``refused-action``, RULES.md), and a receipt no key of the
server signed (``invalid-receipt``, ``receipt-mismatch``). No schema can say these, so a
valid request refused for one of them is accepted as to its form; any other refusal of
a valid request fails, as schemathesis's own check says.

The server's caps are low (20,000 nodes, 2 s), so the searches that valid requests start
stay short; its document then says those caps (docs/service.md, "Budgets").
"""

from __future__ import annotations

import json
import sqlite3
import urllib.request

import pytest

pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis.errors import Unsatisfiable  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import (  # noqa: E402
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from spider_solver import solve  # noqa: E402
from spider_solver.catalog import Catalog  # noqa: E402
from spider_solver.service.app import Settings, create_app  # noqa: E402
from tests.cli.test_serve import Served  # noqa: E402

pytestmark = [pytest.mark.usefixtures("engine", "fair_hints"), pytest.mark.slow]

#: Generated requests per operation and generation mode (8 operations, 2 modes: about 1,500
#: requests, about 25 s here).
EXAMPLES = 100
#: The caps the server is started with (a fair hint's layouts too: a generated fair hint stays
#: quick), and the same settings for the document; finished games without a rate limit to
#: speak of (the generated requests would meet it: 429 is no refusal).
CAPS = ("--max-nodes-cap", "20000", "--max-seconds-cap", "2", "--max-layouts-cap", "2", "--games-per-minute", "100000")
SETTINGS = Settings(max_nodes_cap=20_000, max_seconds_cap=2.0, max_layouts_cap=2)
#: The document the server publishes with those caps, built from the application itself
#: (the test below checks it is the one the server serves), so that the operations are
#: known when tests are collected.
SCHEMA = schemathesis.openapi.from_dict(create_app(SETTINGS).openapi())
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]
#: The refusals of the rules that no schema can express (above), and a receipt's (a generated
#: receipt is a text of the right form that no key signed).
RULES_REFUSALS = frozenset({"invalid-deal", "refused-action", "invalid-receipt", "receipt-mismatch"})


def accepted_as_to_form(ctx, response, case):
    """schemathesis's ``positive_data_acceptance``, but for the refusals of the rules."""
    if response.status_code == 422 and case.meta is not None and case.meta.generation.mode.is_positive:
        with_type = json.loads(response.content or b"{}").get("error", {}).get("type")
        if with_type in RULES_REFUSALS:
            return None
    return positive_data_acceptance(ctx, response, case)


def refused(ctx, response, case):
    """schemathesis's ``negative_data_rejection``, with ``413 too-large`` a refusal too: a
    list past its maxItems is also a body past the server's bytes, which JSON Schema cannot say."""
    if response.status_code == 413:
        return None
    return negative_data_rejection(ctx, response, case)


CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance, accepted_as_to_form, refused]


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    """``spider-solve serve`` on a free port, with a catalog of two verified deals."""
    path = tmp_path_factory.mktemp("fuzz") / "catalog.sqlite"
    with Catalog(path) as db:
        for code in ("SP1-S1C-AAAAAAA", "SP1-S1C-AAAAAAB"):
            db.record(solve(code))
    served = Served("--catalog", str(path), "--solvers", "1", *CAPS, cwd=path.parent)
    try:
        yield served.url
        assert served.stop() == 0
    finally:
        served.kill()
    assert "Traceback" not in "".join(served.lines), "".join(served.lines)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_the_document_is_the_servers(server_url):
    with urllib.request.urlopen(f"{server_url}/openapi.json", timeout=30) as response:
        assert json.loads(response.read()) == create_app(SETTINGS).openapi()


def run(strategy, server_url: str) -> None:
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def check(case):
        case.call_and_validate(base_url=server_url, checks=CHECKS, timeout=60)

    check()


@pytest.mark.parametrize("mode", list(GenerationMode), ids=str)
@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda operation: operation.label)
def test_api_answers_as_documented(server_url, operation, mode):
    """Valid (positive) and invalid (negative) requests of one operation, EXAMPLES of each."""
    try:
        run(operation.as_strategy(mode), server_url)
    except Unsatisfiable:
        if mode is GenerationMode.POSITIVE:
            raise
        pytest.skip(f"{operation.label} takes no input, so no invalid request can be made")


@pytest.mark.parametrize("operation", [op for op in OPERATIONS if op.get_strategies_from_examples()],
                         ids=lambda operation: operation.label)
def test_the_documented_examples_answer_as_documented(server_url, operation):
    """The document's own examples (a real game code, ...), which random text rarely hits."""
    for strategy in operation.get_strategies_from_examples():
        run(strategy, server_url)
