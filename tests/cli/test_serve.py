"""``spider-solve serve``: the real process on a free port of 127.0.0.1, HTTP to it, SIGTERM.

Also its refusals of bad options, which come before it listens (in-process).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("fastapi")

from spider_solver.cli import cli  # noqa: E402
from spider_solver.limits import DEFAULT_MAX_LAYOUTS_CAP  # noqa: E402

#: ``serve`` compiles the engine, the grader and the fair hint before it listens: compiled first here.
pytestmark = pytest.mark.usefixtures("engine", "fair_hints")

ROOT = str(Path(__file__).resolve().parents[2])
#: Seconds a started server gets to say where it listens, and a stopped one to exit.
START_TIMEOUT = 120
STOP_TIMEOUT = 15


def wait_for_the_search_to_end(served: Served, timeout: float = 120) -> None:
    """Until the one search a request started has run and ended (the solver process may
    still be loading the engine when the request comes: a fixed sleep was too short on a
    busy machine)."""
    deadline, seen = time.monotonic() + timeout, False
    while time.monotonic() < deadline:
        running = served.call("GET", "/v1/health")[1]["searches"]["running"]
        if running:
            seen = True
        elif seen:
            return
        time.sleep(0.005)  # a health check takes milliseconds; the search tens of them at least
    raise AssertionError("the search did not start and end in time")


class Served:
    """A ``spider-solve serve`` process and its base URL."""

    def __init__(self, *args: str, cwd, new_session: bool = False) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "spider_solver", "serve", "--port", "0", *args],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, cwd=cwd, start_new_session=new_session,
            env={**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")},
        )
        self.lines: list[str] = []
        deadline = time.monotonic() + START_TIMEOUT
        self.url = None
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line:
                break
            self.lines.append(line)
            if line.startswith("serving on "):
                self.url = line.split()[2]
                break
        assert self.url is not None, "".join(self.lines)
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        for line in self.process.stderr:
            self.lines.append(line)

    def call(self, method: str, path: str, body: dict | None = None, timeout: float = 60) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(STOP_TIMEOUT)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def test_serve_answers_over_http_and_stops_on_sigterm(tmp_path):
    catalog = tmp_path / "catalog.sqlite"
    served = Served("--catalog", str(catalog), "--solvers", "1", cwd=tmp_path)
    try:
        assert served.url.startswith("http://127.0.0.1:")
        status, health = served.call("GET", "/v1/health")
        assert status == 200 and health["status"] == "ok" and health["searches"]["solvers"] == 1
        status, body = served.call("POST", "/v1/verify", {"code": "SP1-S1C-AAAAAAB"})
        assert status == 200 and body["status"] == "verified" and body["source"] == "search"
        status, body = served.call("POST", "/v1/replay", {"code": "SP1-S1C-AAAAAAB", "actions": body["solution"]})
        assert status == 200 and body["won"] is True
        status, body = served.call("GET", "/v1/deals/SP1-S1C-AAAAAAB")
        assert status == 200 and body["catalog"]["status"] == "verified"
        status, body = served.call("POST", "/v1/replay", {"code": "SP1-S1C-AAAAAAB", "actions": "D D D D D D"})
        assert status == 422 and body["error"]["type"] == "refused-action"
        # HEAD, as a monitor asks: GET's status and headers, no body on the wire.
        head = http.client.HTTPConnection(served.url.removeprefix("http://"), timeout=60)
        head.request("HEAD", "/v1/health")
        answer = head.getresponse()
        assert answer.status == 200 and int(answer.getheader("Content-Length")) > 0 and answer.read() == b""
        head.close()
        assert served.stop() == 0
    finally:
        served.kill()
    assert "stopped" in "".join(served.lines) and "Traceback" not in "".join(served.lines)
    with sqlite3.connect(catalog) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT status FROM results WHERE code = 'SP1-S1C-AAAAAAB'").fetchone()[0] == "verified"


def test_serve_gives_the_fair_hint_over_http(tmp_path):
    """The real server process: a fair hint is what the Python function answers, its layouts
    capped by --max-layouts-cap (the document says the cap)."""
    from spider_solver.analysis import fair_hint

    served = Served("--catalog", str(tmp_path / "catalog.sqlite"), "--solvers", "1", "--max-layouts-cap", "8",
                    cwd=tmp_path)
    try:
        body = {"code": "SP1-S2C-AAAAAAD", "actions": ["7>10"], "fair": True, "layouts": 4, "seed": 3}
        status, answer = served.call("POST", "/v1/analyze", body, timeout=120)
        assert status == 200, answer
        expected = fair_hint("SP1-S2C-AAAAAAD", ["7>10"], layouts=4, seed=3)
        assert (answer["hint"], answer["chance"], answer["summary"]) == (expected.hint, expected.chance,
                                                                         expected.summary)
        assert answer["choices"] == [choice.to_dict() for choice in expected.choices]
        status, answer = served.call("POST", "/v1/analyze", body | {"layouts": 9})
        assert status == 422 and "--max-layouts-cap" in answer["error"]["message"]
        status, document = served.call("GET", "/openapi.json")
        layouts = document["components"]["schemas"]["AnalyzeRequest"]["properties"]["layouts"]["anyOf"][0]
        assert status == 200 and layouts["maximum"] == 8
        assert served.stop() == 0
    finally:
        served.kill()
    assert "Traceback" not in "".join(served.lines)


def processes_under(pid: int) -> dict[int, tuple[str, str]]:
    """The children of ``pid`` (Linux /proc): their name (``comm``) and command line."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                name, rest = (entry / "stat").read_text().split("(", 1)[1].rsplit(")", 1)
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if int(rest.split()[1]) == pid and rest.split()[0] != "Z":
                found[int(entry.name)] = (name, command)
    return found


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="counts processes through Linux /proc")
def test_serve_with_two_workers_shares_one_catalog_and_one_solver_and_stops_on_sigterm(tmp_path):
    from spider_solver.service.workers import HELPER_NAME

    catalog = tmp_path / "catalog.sqlite"
    secret = tmp_path / "secret"
    secret.write_text("ab" * 32 + "\n")
    served = Served("--catalog", str(catalog), "--solvers", "1", "--workers", "2", "--secret-file", str(secret),
                    "--games-per-minute", "3", cwd=tmp_path)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            under = processes_under(served.process.pid)
            helpers = [pid for pid, (name, _) in under.items() if name == HELPER_NAME]
            solvers = [pid for pid, (name, command) in under.items()
                       if name != HELPER_NAME and "spawn_main" in command]
            if helpers and solvers:
                break
            time.sleep(0.1)
        assert (len(helpers), len(solvers)) == (1, 1), under  # --solvers processes in all, not one a worker
        ticks = cpu_ticks(helpers[0])
        # Each request on a new connection: the kernel hands them to either process. Health
        # is the searching process's, whichever answers.
        for _ in range(30):
            status, health = served.call("GET", "/v1/health")
            assert status == 200 and health["searches"] == {"solvers": 1, "running": 0, "capacity": 5}
        status, body = served.call("POST", "/v1/verify", {"code": "SP1-S1C-AAAAAAB"})
        assert status == 200 and body["status"] == "verified" and body["source"] == "search"
        for _ in range(100):
            assert served.call("POST", "/v1/replay", {"code": "SP1-S1C-AAAAAAB", "actions": body["solution"]}
                               )[1]["won"] is True
        assert cpu_ticks(helpers[0]) > ticks, "the helper process answered nothing"
        # Whichever process takes them: a settled deal and a hint on its line are answered
        # from the catalog; a new deal is searched (by the one solver) and recorded.
        hints = []
        for number in range(2, 5):
            assert served.call("POST", "/v1/verify", {"code": "SP1-S1C-AAAAAAB"})[1]["source"] == "catalog"
            assert served.call("POST", "/v1/analyze", {"code": "SP1-S1C-AAAAAAB", "actions": []}
                               )[1]["source"] == "known-line"
            code = f"SP1-S1C-AAAAAA{'ABCDEFGH'[number]}"
            status, fresh = served.call("POST", "/v1/verify", {"code": code})
            assert status == 200 and fresh["source"] == "search" and fresh["status"] == "verified", fresh
            status, fresh = served.call("POST", "/v1/analyze", {"code": f"SP1-S1C-AAAAAB{'ABCDEFGH'[number]}",
                                                                "actions": [], "max_nodes": 20_000, "lost_at": False})
            assert status == 200 and fresh["nodes"] > 0, fresh  # searched
            # A fair hint is searched by the one solver whichever process takes it, the same answer
            # each time; its layouts over the cap are refused alike.
            fair = {"code": "SP1-S1C-AAAAAAB", "actions": ["D"], "fair": True, "layouts": 2}
            status, hint = served.call("POST", "/v1/analyze", fair)
            assert status == 200 and hint["layouts"] == 2 and hint["hint"] is not None, hint
            hints.append({key: value for key, value in hint.items() if key != "seconds"})
            status, refused = served.call("POST", "/v1/analyze", fair | {"layouts": DEFAULT_MAX_LAYOUTS_CAP + 1})
            assert status == 422 and "--max-layouts-cap" in refused["error"]["message"], refused
        assert hints[0] == hints[1] == hints[2]
        # A forwarded request's errors and HEAD are the searching process's, as they came.
        for _ in range(10):
            connection = http.client.HTTPConnection(served.url.removeprefix("http://"), timeout=60)
            connection.request("POST", "/v1/verify", body=b'{"code": "SP1-S1C-AAAAAAB"}',
                               headers={"Content-Type": "text/plain"})
            answer = connection.getresponse()
            assert answer.status == 415 and json.loads(answer.read())["error"]["type"] == "unsupported-media-type"
            connection.request("HEAD", "/v1/health")
            answer = connection.getresponse()
            assert answer.status == 200 and answer.read() == b""
            names = [name.lower() for name, _ in answer.getheaders()]
            assert len(names) == len(set(names)), names  # no header twice (the helper's Date and the primary's)
            connection.request("POST", "/v1/verify", body=b'{"deck": "' + b"x" * 300_000 + b'"}',
                               headers={"Content-Type": "application/json"})
            answer = connection.getresponse()
            assert answer.status == 413 and json.loads(answer.read())["error"]["type"] == "too-large"
            connection.close()
        deadline, grade = time.monotonic() + 120, None
        while grade is None and time.monotonic() < deadline:  # graded in the background
            grade = served.call("GET", "/v1/deals/SP1-S1C-AAAAAAB")[1]["catalog"]["difficulty"]
            time.sleep(0.1)
        assert grade in range(1, 6)
        status, body = served.call("GET", f"/v1/catalog/random?difficulty={grade}")
        assert status == 200 and body["catalog"]["difficulty"] == grade
        # Finished games, whichever process takes them: recorded by the one that writes, their
        # receipts signed with the --secret-file key by both, the rate limit counting the client's
        # address (127.0.0.1), not the process that handed the request on.
        answers = [served.call("POST", "/v1/games", {"code": "SP1-S1C-AAAAAAB", "actions": ["D"] * n})
                   for n in range(8)]
        assert [status for status, _ in answers].count(201) == 3, answers
        assert {body["error"]["type"] for status, body in answers if status != 201} == {"too-many-games"}
        receipts = [body["receipt"] for status, body in answers if status == 201]
        for receipt in receipts:
            assert served.call("POST", "/v1/games/verify", {"receipt": receipt})[0] == 200
        assert served.call("POST", "/v1/games/verify", {"receipt": receipts[0], "redeem": True})[0] == 200
        for _ in range(4):
            status, body = served.call("POST", "/v1/games/verify", {"receipt": receipts[0], "redeem": True})
            assert status == 409 and body["error"]["type"] == "replayed-receipt"
        assert served.call("GET", "/v1/deals/SP1-S1C-AAAAAAB/games")[1]["total"] == 3
        assert served.stop() == 0
    finally:
        served.kill()
    assert "stopped" in "".join(served.lines) and "Traceback" not in "".join(served.lines)
    assert not any(Path(f"/proc/{pid}").exists() for pid in helpers + solvers)
    with sqlite3.connect(catalog) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = dict(db.execute("SELECT code, status FROM results").fetchall())
        assert rows["SP1-S1C-AAAAAAB"] == "verified" and len(rows) == 4
        assert db.execute("SELECT difficulty FROM results WHERE code = 'SP1-S1C-AAAAAAB'").fetchone()[0] == grade


@pytest.mark.skipif(not hasattr(socket, "SO_REUSEPORT"), reason="the port is shared through SO_REUSEPORT")
def test_a_burst_of_connections_is_spread_over_the_workers_sockets():
    """serve --workers listens on a socket a process where the port can be shared: the kernel
    hands each new connection to one of them, so a burst (clients connecting together) is
    not all taken by the process that wakes first, as on one shared socket."""
    from spider_solver.service.server import listen, listen_beside, shares_port

    first = listen("127.0.0.1", 0, share=True)
    assert shares_port(first) and not shares_port(plain := listen("127.0.0.1", 0))
    plain.close()
    second = listen_beside(first.family, first.getsockname())
    clients = []
    try:
        assert second.getsockname() == first.getsockname()
        clients = [socket.create_connection(first.getsockname()[:2], timeout=5) for _ in range(32)]
        taken = []
        for listener in (first, second):
            listener.setblocking(False)
            count = 0
            with contextlib.suppress(BlockingIOError):
                while True:
                    listener.accept()[0].close()
                    count += 1
            taken.append(count)
        assert sum(taken) == 32 and min(taken) > 0, taken  # all 32 in one: 2 chances in 2**32
    finally:
        for client in clients:
            client.close()
        first.close()
        second.close()


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="counts processes through Linux /proc")
def test_the_other_workers_end_with_a_server_killed_by_kill_9(tmp_path):
    from spider_solver.service.workers import HELPER_NAME

    served = Served("--catalog", str(tmp_path / "catalog.sqlite"), "--solvers", "1", "--workers", "3", cwd=tmp_path)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        helpers: list[int] = []
        while len(helpers) < 2 and time.monotonic() < deadline:
            helpers = [pid for pid, (name, _) in processes_under(served.process.pid).items() if name == HELPER_NAME]
            time.sleep(0.1)
        assert len(helpers) == 2
    finally:
        served.kill()  # SIGKILL: no handler runs
    deadline = time.monotonic() + STOP_TIMEOUT
    while any(Path(f"/proc/{pid}").exists() for pid in helpers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(Path(f"/proc/{pid}").exists() for pid in helpers)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="counts processes through Linux /proc")
def test_ctrl_c_to_the_process_group_stops_every_worker_once(tmp_path):
    """A terminal's Ctrl-C reaches every process: the helpers ignore it and stop on the
    primary's SIGTERM; all end, quietly, and the server's status is 0."""
    from spider_solver.service.workers import HELPER_NAME

    catalog = tmp_path / "catalog.sqlite"
    served = Served("--catalog", str(catalog), "--solvers", "1", "--workers", "2", cwd=tmp_path, new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        helpers: list[int] = []
        while not helpers and time.monotonic() < deadline:
            helpers = [pid for pid, (name, _) in processes_under(served.process.pid).items() if name == HELPER_NAME]
            time.sleep(0.1)
        for _ in range(10):
            assert served.call("GET", "/v1/deals/SP1-S1C-AAAAAAB")[0] == 200
        os.killpg(served.process.pid, signal.SIGINT)
        assert served.process.wait(STOP_TIMEOUT) == 0
    finally:
        served.kill()
    text = "".join(served.lines)
    assert "stopped" in text and "Traceback" not in text and "KeyboardInterrupt" not in text
    assert helpers and not any(Path(f"/proc/{pid}").exists() for pid in helpers)


@pytest.mark.slow
def test_sigterm_ends_a_search_in_flight_and_keeps_the_catalog(tmp_path):
    from tests.service.test_routes import LONG_SEARCH

    catalog = tmp_path / "catalog.sqlite"
    served = Served("--catalog", str(catalog), "--solvers", "1", "--max-nodes-cap", str(10**9),
                    "--max-seconds-cap", "120", cwd=tmp_path)
    answers: list = []
    try:
        served.call("POST", "/v1/verify", {"code": "SP1-S1C-AAAAAAB"})

        def ask() -> None:
            try:
                answers.append(served.call("POST", "/v1/analyze", LONG_SEARCH, timeout=60))
            except (OSError, urllib.error.URLError) as error:  # the connection closed: also an end
                answers.append(error)

        thread = threading.Thread(target=ask)
        thread.start()
        deadline = time.monotonic() + 30
        while served.call("GET", "/v1/health")[1]["searches"]["running"] == 0 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)
        started = time.monotonic()
        assert served.stop() == 0
        assert time.monotonic() - started < 10
        thread.join(30)
    finally:
        served.kill()
    assert len(answers) == 1
    if isinstance(answers[0], tuple):
        status, body = answers[0]
        assert status == 503 and body["error"]["type"] == "stopping"
    with sqlite3.connect(catalog) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT count(*) FROM results").fetchone()[0] == 1


@pytest.mark.parametrize("args, words", [
    (["--port", "70000"], "70000"),
    (["--port", "-1"], "-1"),
    (["--solvers", "0"], "0"),
    (["--max-nodes-cap", "nan"], "nan"),
    (["--max-seconds-cap", "inf"], "inf"),
    (["--host", ""], "host"),
    (["--cors-origin", "a b"], "origin"),
    (["--cors-origin", "https://play.example.com/"], "trailing slash"),  # never equal to a browser's Origin
    (["--cors-origin", "play.example.com"], "origin"),
    (["--host", "192.0.2.1"], "cannot listen"),  # TEST-NET-1: an address this machine does not have
    (["--read-only", "--catalog", "missing.sqlite"], "no catalog"),
    (["--catalog", "."], "directory"),
])
def test_bad_options_are_one_error_line(tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["serve", *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert lines[0].startswith("error: ") and words in lines[0] and len(lines) <= 2


def test_port_in_use_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert "cannot listen" in result.stderr and "in use" in result.stderr


def test_default_is_this_machine_only():
    option = next(p for p in cli.commands["serve"].params if p.name == "host")
    assert option.default == "127.0.0.1"


def test_a_body_still_arriving_at_ctrl_c_gets_503_stopping_at_once(tmp_path):
    """The request whose body never comes does not hold the stop for the graceful wait (5 s)
    and then get uvicorn's plain-text 500: it gets the JSON 503 at once."""
    served = Served("--catalog", str(tmp_path / "c.sqlite"), "--solvers", "1", cwd=tmp_path)
    try:
        host, port = served.url.removeprefix("http://").rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=30) as slow:
            slow.sendall(b"POST /v1/replay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 100\r\n\r\n{")
            time.sleep(0.5)
            started = time.monotonic()
            served.process.send_signal(signal.SIGINT)
            answer = b""
            while chunk := slow.recv(65536):
                answer += chunk
            assert served.process.wait(STOP_TIMEOUT) == 0
            took = time.monotonic() - started
    finally:
        served.kill()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503") and json.loads(body)["error"]["type"] == "stopping"
    assert took < 3
    text = "".join(served.lines)
    assert "stopped" in text and "Traceback" not in text and "Error" not in text, text


@pytest.mark.slow
def test_a_stop_does_not_wait_for_a_write_held_by_another_process_lock(tmp_path):
    """A verify whose result waits for another process's lock on the catalog: Ctrl-C makes
    the write give up at once (it used to hold the graceful wait for 5 s, then the client
    got a plain-text 500); the client gets its answer, the log says the result was not
    recorded, and the server ends without a traceback."""
    catalog = tmp_path / "c.sqlite"
    served = Served("--catalog", str(catalog), "--solvers", "1", cwd=tmp_path)
    locker = sqlite3.connect(catalog, isolation_level=None)
    answers: list[int] = []
    try:
        locker.execute("BEGIN IMMEDIATE")

        def verify() -> None:
            with contextlib.suppress(OSError, http.client.HTTPException):  # the connection ends with the server
                answers.append(served.call("POST", "/v1/verify", {"code": "SP1-S1C-AAAAAAJ"}, timeout=30)[0])

        client = threading.Thread(target=verify, daemon=True)
        client.start()
        wait_for_the_search_to_end(served)  # then its write waits for the lock
        started = time.monotonic()
        served.process.send_signal(signal.SIGINT)
        assert served.process.wait(STOP_TIMEOUT) == 0
        assert time.monotonic() - started < 4  # not the write's 30 s, nor uvicorn's 5 s graceful wait
        client.join(10)
    finally:
        locker.execute("ROLLBACK")
        locker.close()
        served.kill()
    assert answers == [200]
    text = "".join(served.lines)
    assert "stopped" in text and "Traceback" not in text and "Error" not in text, text
    assert "was not recorded" in text


def test_sigterm_during_start_up_is_a_clean_stop(tmp_path):
    """The engine, the grader and the fair hint may take a minute or two to compile before
    the server listens: a service manager's SIGTERM then is a stop like any other (status
    0), not a failure."""
    script = ("import os, signal, sys, time\n"
              "from spider_solver.service import searches\n"
              "def prepare_solvers(say):\n"
              "    os.kill(os.getpid(), signal.SIGTERM)\n"
              "    time.sleep(10)\n"
              "searches.prepare_solvers = prepare_solvers\n"
              "from spider_solver._console import main\n"
              "sys.argv[0] = 'spider-solve'\n"
              "main()\n")
    done = subprocess.run([sys.executable, "-c", script, "serve", "--port", "0", "--catalog",
                           str(tmp_path / "c.sqlite")], capture_output=True, text=True, timeout=60, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")})
    assert (done.returncode, done.stderr) == (0, "stopped\n")
