"""Load on the real service: ``spider-solve serve`` on 127.0.0.1, and keep-alive clients.

Usage::

    python benchmarks/bench_service.py [--catalog bench-catalog.sqlite] [--deals 10000]
                                       [--verified 300] [--clients 16] [--requests 20000]
                                       [--soak 10000] [--solvers 2] [--workers 1] [--parts abcde]
                                       [--out results.json] [--json raw.json]

Builds (once; reused when the file has the rows) a catalog of ``--deals`` deals with the
real batch command: ``--verified`` 1-suit deals solved at the default budget, and the rest
4-suit deals searched with a budget of one node (honest ``unknown`` rows: what matters
here is how many rows the server looks through). Then starts the real server with
``--solvers`` solver processes and ``--workers`` server processes, and runs, each with
``--clients`` concurrent keep-alive HTTP/1.1 connections from one asyncio process (the
load generator shares the machine; its own CPU a request is in the table, and in part d
includes the few requests a second that keep the verifies going):

a. ``GET /v1/deals/{code}`` of random catalog codes: requests per second, p50, p99.
b. ``POST /v1/replay`` of a 150-action log; each request's log is a different 150-action
   prefix... of a different verified 4-suit line (``--replay-logs`` distinct logs), so
   nothing is answered twice.
c. ``GET /v1/catalog/random``.
d. a, b and c again while ``--solvers`` uncached 4-suit verifies run without pause.
e. A soak of ``--soak`` mixed requests, a fifth of them malformed: the statuses, and the
   server's resident memory after the first 1,000 and at the end.

Every loop is bounded by its request count, and talks only to 127.0.0.1. Each figure has
beside it the machine's load average (one minute) at the end of its loop: the machine
may be shared. The tables are
printed and written to the result file ``--out`` (default ``benchmarks/results/service.json``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import resultfile

ROOT = Path(__file__).resolve().parents[1]
T = TypeVar("T")
#: The first deal number of the verifies of part d: never in the catalog.
FRESH_DEALS = 700_000


def run(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "spider_solver", *args], check=True, cwd=ROOT,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})


def build_catalog(path: Path, deals: int, verified: int) -> None:
    if path.exists():
        with sqlite3.connect(path) as db:
            if db.execute("SELECT count(*) FROM results").fetchone()[0] >= deals:
                return
    print(f"building {path}: {verified} verified 1-suit deals, {deals - verified} 4-suit deals at 1 node...",
          file=sys.stderr)
    run("--suits", "1", "--count", str(verified), "--catalog", str(path), "--no-grade")
    run("--suits", "4", "--count", str(deals - verified), "--catalog", str(path), "--no-grade",
        "--max-nodes", "1")


def replay_logs(count: int, length: int) -> list[tuple[str, list[str]]]:
    """``count`` distinct legal logs of ``length`` actions: prefixes of verified 4-suit lines."""
    sys.path.insert(0, str(ROOT))
    from spider_solver import solve

    logs: list[tuple[str, list[str]]] = []
    number = 900_000
    while len(logs) < count:
        code = f"SP1-S4C-{_base32(number)}"
        number += 1
        result = solve(code, max_nodes=3_000_000)
        if result.moves is not None and result.moves >= length:
            logs.append((code, list(result.solution[:length])))
    return logs


def _base32(number: int) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    return "".join(alphabet[(number >> (5 * i)) & 31] for i in reversed(range(7)))


class Server:
    """``spider-solve serve`` on a free port of 127.0.0.1, run from the checkout ``root``
    (this one by default; benchmarks/bench_hints.py measures another's too)."""

    def __init__(self, catalog: Path, solvers: int, workers: int, root: Path = ROOT) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "spider_solver", "serve", "--port", "0", "--catalog", str(catalog),
             "--solvers", str(solvers), "--workers", str(workers)],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, cwd=catalog.parent,
            env={**os.environ, "PYTHONPATH": str(root)},
        )
        for line in self.process.stderr:  # type: ignore[union-attr]
            if line.startswith("serving on "):
                self.port = int(line.split()[2].rsplit(":", 1)[1])
                break
        else:
            raise SystemExit("the server did not start")

    def pids(self) -> list[int]:
        """The server's processes: the one started, and its helpers (``serve --workers``),
        not its solver processes."""
        from spider_solver.service.workers import HELPER_NAME

        found = [self.process.pid]
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                name, rest = stat.split("(", 1)[1].rsplit(")", 1)
                if name == HELPER_NAME and int(rest.split()[1]) == self.process.pid:
                    found.append(int(entry.name))
        return found

    def cpu_seconds(self) -> float:
        """User and system CPU time of the server's processes (not its solver processes)."""
        total = 0
        for pid in self.pids():
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")

    def rss_mb(self) -> float:
        """Resident memory of the server's processes, summed."""
        total = 0.0
        for pid in self.pids():
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) / 1024
        return total or float("nan")

    def stop(self) -> int:
        self.process.terminate()
        return self.process.wait(30)


Request = tuple[str, str, bytes | None]


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run the load generator on uvloop when it is installed (the server's own loop, a
    ``serve`` dependency): the generator shares the machine's cores with the server, and
    uvloop spends about a fifth less CPU a request than asyncio's loop (0.089 against
    0.109 ms here, with 16 clients)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def http(method: str, path: str, body: bytes | None = None) -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return (head + "\r\n").encode() + (body or b"")


async def fetch(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                request: bytes) -> tuple[int, bytes, bool]:
    writer.write(request)
    status_line = await reader.readline()
    status = int(status_line.split()[1])
    length, close = 0, False
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        if name.lower() == "content-length":
            length = int(value)
        elif name.lower() == "connection" and value.strip().lower() == "close":
            close = True
    body = await reader.readexactly(length)
    return status, body, close


async def load(server: Server, clients: int, total: int, make: Callable[[int], bytes]) -> dict:
    """``total`` requests from ``clients`` keep-alive connections; latencies, statuses, and
    the server's CPU time a request."""
    port = server.port
    cpu, own = server.cpu_seconds(), time.process_time()
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    counter = iter(range(total))

    async def client() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for index in counter:
            request = make(index)
            started = time.perf_counter()
            try:
                status, _, close = await fetch(reader, writer, request)
            except (ConnectionResetError, BrokenPipeError, asyncio.IncompleteReadError):
                status, close = 0, True  # dropped: counted as a failure
            if close:  # the server ended the connection (after a 413, say): open another
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            latencies.append(time.perf_counter() - started)
            statuses[status] += 1
        writer.close()

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    wall = time.perf_counter() - started
    cpu_ms = 1000 * (server.cpu_seconds() - cpu) / total
    client_ms = 1000 * (time.process_time() - own) / total
    ordered = sorted(latencies)
    return {"requests": total, "rps": total / wall, "cpu_ms": cpu_ms, "client_ms": client_ms,
            "p50_ms": 1000 * statistics.median(ordered),
            "p99_ms": 1000 * ordered[int(0.99 * (len(ordered) - 1))], "statuses": dict(statuses),
            "load": os.getloadavg()[0]}


async def verifies(port: int, solvers: int, stop: asyncio.Event, first: int) -> int:
    """Uncached 4-suit verifies (deals from ``first``, which the catalog does not hold),
    ``solvers`` at a time, until ``stop``; how many ended with a search."""
    done = 0
    numbers = iter(range(first, first + 100_000))

    async def one() -> None:
        nonlocal done
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        while not stop.is_set():
            body = json.dumps({"code": f"SP1-S4C-{_base32(next(numbers))}"}).encode()
            _, answer, _ = await fetch(reader, writer, http("POST", "/v1/verify", body))
            done += json.loads(answer).get("source") == "search"
        writer.close()

    await asyncio.gather(*(one() for _ in range(solvers)))
    return done


#: The tables of a run: name -> (key, label, format) as resultfile.markdown shows them.
COLUMNS = {
    "load": [("scenario", "scenario", ""), ("requests", "requests", "int"), ("rps", "req/s", "int"),
             ("p50_ms", "p50 ms", ".1f"), ("p99_ms", "p99 ms", ".1f"), ("cpu_ms", "server CPU ms a request", ".2f"),
             ("client_ms", "load generator's", ".2f"), ("bad", "5xx or dropped", "int"),
             ("load", "load average", ".2f")],
    "soak": [("requests", "requests", "int"), ("malformed", "malformed", "int"), ("bad", "5xx or dropped", "int"),
             ("rss_after_first_mb", "server MB after 1,000", ".1f"), ("rss_end_mb", "at the end", ".1f"),
             ("growth", "growth", "%")],
}


def bad_answers(statuses: dict[int, int]) -> int:
    """Answers with a 5xx status, or none (status 0: a dropped connection)."""
    return sum(n for status, n in statuses.items() if status >= 500 or status == 0)


def row(name: str, result: dict) -> dict:
    return {"scenario": name, "requests": result["requests"], "rps": round(result["rps"]),
            "p50_ms": round(result["p50_ms"], 2), "p99_ms": round(result["p99_ms"], 2),
            "cpu_ms": round(result["cpu_ms"], 3),
            "client_ms": round(result["client_ms"], 3), "bad": bad_answers(result["statuses"]),
            "load": round(result["load"], 2),
            "statuses": {str(k): v for k, v in sorted(result["statuses"].items())}}


def soak_request(index: int, rng: random.Random, codes: list[str], log: tuple[str, list[str]]) -> bytes:
    code = rng.choice(codes)
    if index % 5 == 4:  # malformed, of several kinds
        kind = (index // 5) % 6
        return [
            http("GET", "/v1/deals/SP1-S9X-NOPE"),
            http("POST", "/v1/replay", b"{not json"),
            http("POST", "/v1/replay", json.dumps({"code": code, "actions": ["D"] * 6}).encode()),
            http("POST", "/v1/verify", json.dumps({"code": code, "max_nodes": -5}).encode()),
            http("GET", "/v1/catalog/deals?limit=100000"),
            http("POST", "/v1/replay", json.dumps({"code": code, "actions": "D " * 200_000}).encode()),
        ][kind]
    kind = (index // 5 * 4 + index % 5) % 4
    return [
        http("GET", f"/v1/deals/{code}"),
        http("GET", "/v1/catalog/random?suits=1"),
        http("POST", "/v1/replay", json.dumps({"code": log[0], "actions": log[1][: rng.randrange(1, 150)]}).encode()),
        http("GET", f"/v1/catalog/deals?limit=20&after={code}"),
    ][kind]


async def main_async(args: argparse.Namespace, server: Server, codes: list[str],
                     logs: list[tuple[str, list[str]]]) -> tuple[dict, list[str]]:
    """The tables of the parts that ran (resultfile tables, by name), and lines of notes."""
    rng = random.Random(1)
    rows: list[dict] = []
    soak: list[dict] = []
    lines: list[str] = []
    deal_request = lambda _: http("GET", f"/v1/deals/{rng.choice(codes)}")  # noqa: E731
    random_request = lambda _: http("GET", "/v1/catalog/random?suits=1")  # noqa: E731
    results = {}
    await load(server, args.clients, 500, deal_request)  # warm-up
    if "a" in args.parts:
        results["a"] = await load(server, args.clients, args.requests, deal_request)
        rows.append(row("a. GET /v1/deals/{code}", results["a"]))
    if "b" in args.parts:
        replay = [http("POST", "/v1/replay", json.dumps({"code": c, "actions": a}).encode()) for c, a in logs]
        results["b"] = await load(server, args.clients, min(args.requests, 5_000),
                                  lambda i: replay[i % len(replay)])
        rows.append(row("b. POST /v1/replay, 150 actions", results["b"]))
        results["b1"] = await load(server, 1, 500, lambda i: replay[i % len(replay)])
        rows.append(row("b. the same, one client", results["b1"]))
    if "c" in args.parts:
        results["c"] = await load(server, args.clients, args.requests, random_request)
        rows.append(row("c. GET /v1/catalog/random", results["c"]))
    if "d" in args.parts:
        stop = asyncio.Event()
        with sqlite3.connect(args.catalog) as db:  # the server records what it verifies: go past it
            last = db.execute("SELECT max(deal) FROM results WHERE suits = 4 AND deal >= ?", (FRESH_DEALS,))
            first = (last.fetchone()[0] or FRESH_DEALS - 1) + 1
        background = asyncio.create_task(verifies(server.port, args.solvers, stop, first))
        await asyncio.sleep(2.0)
        results["da"] = await load(server, args.clients, args.requests, deal_request)
        replay = [http("POST", "/v1/replay", json.dumps({"code": c, "actions": a}).encode()) for c, a in logs]
        results["db"] = await load(server, args.clients, min(args.requests, 5_000), lambda i: replay[i % len(replay)])
        results["dc"] = await load(server, args.clients, args.requests, random_request)
        stop.set()
        finished = await background
        rows.append(row(f"d. a, with {args.solvers} verifies running", results["da"]))
        rows.append(row(f"d. b, with {args.solvers} verifies running", results["db"]))
        rows.append(row(f"d. c, with {args.solvers} verifies running", results["dc"]))
        lines.append(f"\n({finished} uncached 4-suit verifies, each a search, ended during d)")
        if "a" in results and "c" in results:
            replays = (f"replay {results['db']['p99_ms'] / results['b']['p99_ms']:.2f}, " if "b" in results else "")
            lines.append(f"p99 ratio under searches: deals {results['da']['p99_ms'] / results['a']['p99_ms']:.2f}, "
                         + replays + f"random {results['dc']['p99_ms'] / results['c']['p99_ms']:.2f}")
    if "e" in args.parts:
        soak_rng = random.Random(2)
        first = await load(server, args.clients, 1_000,
                           lambda i: soak_request(i, soak_rng, codes, logs[0]))
        after_first = server.rss_mb()
        rest = await load(server, args.clients, args.soak - 1_000,
                          lambda i: soak_request(i + 1_000, soak_rng, codes, logs[0]))
        at_end = server.rss_mb()
        statuses = Counter(first["statuses"]) + Counter(rest["statuses"])
        fives = bad_answers(statuses)
        soak.append({"requests": args.soak, "malformed": sum(i % 5 == 4 for i in range(args.soak)), "bad": fives,
                     "statuses": {str(k): v for k, v in sorted(statuses.items())},
                     "rss_after_first_mb": round(after_first, 1), "rss_end_mb": round(at_end, 1),
                     "growth": round((at_end - after_first) / after_first, 4)})
        lines.append(f"\nSoak of {args.soak:,} requests (a fifth malformed): statuses "
                     f"{dict(sorted(statuses.items()))}; 5xx or dropped: {fives}; server RSS "
                     f"{after_first:.1f} MB after 1,000, {at_end:.1f} MB at the end "
                     f"({100 * (at_end - after_first) / after_first:+.1f}%)")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    tables = {"load": resultfile.table(COLUMNS["load"], rows)} if rows else {}
    if soak:
        tables["soak"] = resultfile.table(COLUMNS["soak"], soak)
    return tables, lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", type=Path, default=ROOT / "bench-catalog.sqlite")
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--verified", type=int, default=300)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--soak", type=int, default=10_000,
                        help="mixed requests of part e: 1,000 to read memory after, then the rest (more than 1,000)")
    parser.add_argument("--solvers", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1, help="server processes (serve --workers)")
    parser.add_argument("--replay-logs", type=int, default=20)
    parser.add_argument("--parts", default="abcde")
    parser.add_argument("--json", help="Write the raw figures of every part to this file.")
    resultfile.add_out_option(parser, "service")
    args = parser.parse_args()
    if "e" in args.parts and args.soak <= 1_000:
        parser.error("--soak must be more than 1,000: the first 1,000 requests only warm the server up")
    build_catalog(args.catalog, args.deals, args.verified)
    with sqlite3.connect(args.catalog) as db:
        codes = [r[0] for r in db.execute("SELECT code FROM results")]
    logs = replay_logs(args.replay_logs, 150)
    server = Server(args.catalog, args.solvers, args.workers)
    try:
        load_before = os.getloadavg()[0]
        tables, lines = run_loop(main_async(args, server, codes, logs))
    finally:
        status = server.stop()
    print(f"catalog: {len(codes):,} deals; {args.clients} clients; {args.workers} server processes; "
          f"{args.solvers} solver processes; "
          f"load average before: {load_before:.2f}; server exit status {status}")
    for tab in tables.values():
        print("\n" + resultfile.markdown(tab))
    print("\n".join(lines))
    resultfile.write(args, "bench_service", tables, catalog_deals=len(codes), clients=args.clients,
                     solvers=args.solvers, workers=args.workers, load_average_before=load_before)


if __name__ == "__main__":
    main()
