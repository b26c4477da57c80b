"""The service's ASGI middlewares on their own, with no application or engine behind them:
the body's size and time limits, and HEAD answered as GET without the body."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("fastapi")

from spider_solver.service.errors import error_response  # noqa: E402
from spider_solver.service.middleware import BodyLimit, HeadAsGet  # noqa: E402

#: What the application behind the middleware was called with, in a test.
calls: list[dict] = []


def http_scope(method: str = "POST", headers: list[tuple[bytes, bytes]] | None = None) -> dict:
    return {"type": "http", "method": method, "path": "/v1/replay", "headers": headers or []}


def run(app, scope: dict, chunks: list[bytes], *, stall: bool = False) -> tuple[list[dict], list[dict]]:
    """Call ``app`` with a client that sends ``chunks`` (then, with ``stall``, nothing
    more, as a client that stops half-way); what it sent back, and what the inner
    application was called with."""
    sent: list[dict] = []

    async def receive() -> dict:
        if chunks:
            body = chunks.pop(0)
            return {"type": "http.request", "body": body, "more_body": bool(chunks) or stall}
        await asyncio.sleep(3600)  # a client that stalls
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
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
