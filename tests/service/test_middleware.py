"""The service's ASGI middlewares on their own, with no application or engine behind them:
the body's size and time limits, the end of body waits when the server stops, and HEAD
answered as GET without the body."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

pytest.importorskip("fastapi")

from spider_solver.service.errors import error_response  # noqa: E402
from spider_solver.service.middleware import BodyLimit, BodyWaits, HeadAsGet  # noqa: E402

#: What the application behind the middleware was called with, in a test.
calls: list[dict] = []


def http_scope(method: str = "POST", headers: list[tuple[bytes, bytes]] | None = None) -> dict:
    return {"type": "http", "method": method, "path": "/v1/replay", "headers": headers or []}


def run(app, scope: dict, chunks: list[bytes], *, stall: bool = False, stop_after: float | None = None,
        ) -> tuple[list[dict], list[dict]]:
    """Call ``app`` with a client that sends ``chunks`` (then, with ``stall``, nothing
    more, as a client that stops half-way); what it sent back, and what the inner
    application was called with. ``stop_after``: close ``app.waits`` (as the server does
    when told to stop) that many seconds after the start."""
    sent: list[dict] = []

    async def call() -> None:
        if stop_after is not None:
            asyncio.get_running_loop().call_later(stop_after, app.waits.close)
        await asyncio.wait_for(app(scope, receive, send), 10)

    async def receive() -> dict:
        if chunks:
            body = chunks.pop(0)
            return {"type": "http.request", "body": body, "more_body": bool(chunks) or stall}
        await asyncio.sleep(3600)  # a client that stalls
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(call())
    return sent, calls


async def echo(scope, receive, send) -> None:
    """The application behind the middleware: answers 200 with the body it read."""
    message = await receive()
    calls.append({"method": scope["method"], "body": message.get("body")})
    await error_response(200, "echo", message.get("body", b"").decode())(scope, receive, send)


@pytest.fixture(autouse=True)
def _fresh_calls():
    calls.clear()


def status_and_body(sent: list[dict]) -> tuple[int, bytes]:
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def test_a_body_that_stalls_gets_408_and_the_connection_closed():
    sent, inner = run(BodyLimit(echo, limit=1000, seconds=0.05), http_scope(), [b'{"code": '], stall=True)
    status, body = status_and_body(sent)
    assert status == 408 and inner == []
    assert json.loads(body)["error"]["type"] == "request-timeout"
    start = sent[0]
    assert (b"connection", b"close") in start["headers"]


def test_a_body_still_arriving_when_the_server_stops_gets_503_stopping_at_once():
    """Not the 408 twenty seconds later, nor uvicorn's plain-text 500 when the graceful wait
    runs out."""
    app = BodyLimit(echo, limit=1000, seconds=30, waits=BodyWaits())
    started = time.monotonic()
    sent, inner = run(app, http_scope(), [b'{"code": '], stall=True, stop_after=0.05)
    status, body = status_and_body(sent)
    assert status == 503 and inner == [] and time.monotonic() - started < 5
    assert json.loads(body)["error"]["type"] == "stopping"
    assert (b"connection", b"close") in sent[0]["headers"]
    # Once stopping, a body that is not all there is not waited for; one that is, is read.
    assert status_and_body(run(app, http_scope(), [b"ab"], stall=True)[0])[0] == 503
    sent, inner = run(app, http_scope(), [b"ab", b"cd"])
    assert status_and_body(sent)[0] == 200 and inner == [{"method": "POST", "body": b"abcd"}]


def test_a_body_in_several_chunks_within_time_reaches_the_application_whole():
    sent, inner = run(BodyLimit(echo, limit=1000, seconds=5), http_scope(), [b"ab", b"cd", b"ef"])
    assert status_and_body(sent)[0] == 200 and inner == [{"method": "POST", "body": b"abcdef"}]


def test_a_body_over_the_limit_is_413_before_the_application_reads_it():
    sent, inner = run(BodyLimit(echo, limit=4, seconds=5), http_scope(), [b"abc", b"def"])
    assert status_and_body(sent)[0] == 413 and inner == []


def test_head_is_answered_as_get_without_the_body():
    sent, inner = run(HeadAsGet(echo), http_scope("HEAD"), [b""])
    status, body = status_and_body(sent)
    assert status == 200 and body == b"" and inner == [{"method": "GET", "body": b""}]
    length = dict(sent[0]["headers"])[b"content-length"]
    assert int(length) > 0  # the GET answer's length, as RFC 9110 allows


def test_other_methods_pass_through_unchanged():
    sent, inner = run(HeadAsGet(echo), http_scope("POST"), [b"xyz"])
    status, body = status_and_body(sent)
    assert status == 200 and b"xyz" in body and inner == [{"method": "POST", "body": b"xyz"}]
