"""The rules in JavaScript (spider_solver/js): how fast a frontend lays out a deal, replays a
game log and plays in the browser, with the Python reference engine beside it.

Usage::

    python benchmarks/bench_js_rules.py [--samples 101] [--no-browser] [--out results.json]

1. In Node (``benchmarks/bench_js_rules.mjs``): the deck of a game code (``shuffleDeck``
   on deal numbers never asked before; and ``Deal.fromCode`` of a code never made before:
   parsed, shuffled, its composition checked), and ``replay()`` of two 150-action logs of
   ``SP1-S4C-AAAAAAD`` (random legal play from a fixed seed: one without an undo, one with
   an undo every tenth action). The same calls of ``spider_solver.rules`` beside them
   (``shuffle_deck``, ``Deal.from_code`` with its cache emptied, ``replay``). Each sample
   times a batch of calls; the table gives the median sample, per call.
2. In Chromium (Debian's, through Playwright): the real ``spider-solve serve`` on
   127.0.0.1 and its page ``/play``; 100 actions of such a log played through the page's
   own click handlers (a click on the card, one on the target column; the Deal and Undo
   buttons), each action checked, played and drawn by game.js with the rules module, and
   the frame after the last one: the median of ``--runs`` runs. Beside it the same 100
   actions asked of ``POST /v1/position`` one at a time, as the page did before it had the
   module (the request of each action sends the log so far).

Targets (docs/performance.md): the deck at most 0.1 ms and a 150-action replay at most
1 ms in Node, 100 actions at most 1 s in Chromium. Node is ``node`` on the PATH (or
``SPIDER_NODE``), Chromium ``chromium`` (or ``SPIDER_CHROMIUM``). The tables are printed
and written to the result file ``--out`` (default ``benchmarks/results/js-rules.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import resultfile

from spider_solver.rules import Board, Deal, Move, Variant, replay, shuffle_deck
from spider_solver.rules import codes as rules_codes
from spider_solver.rules import deal as rules_deal

ROOT = Path(__file__).resolve().parents[1]
CODE = "SP1-S4C-AAAAAAD"
#: Calls a sample times: enough that a sample is well above the clock's resolution.
BATCH = {"deck": 100, "replay": 20}
COLUMNS = {
    "rules": [("task", "task", ""), ("node_us", "Node (µs)", ".1f"), ("python_us", "Python (µs)", ".1f"),
              ("ratio", "Python / Node", ".0f"), ("target_us", "target (µs)", "int")],
    "browser": [("task", "task", ""), ("ms", "100 actions (ms)", ".0f"), ("per_action_ms", "an action (ms)", ".2f"),
                ("target_ms", "target (ms)", "int"), ("runs", "runs", "")],
}


def random_log(actions: int, undo_every: int | None, seed: int) -> list[tuple[str, Any]]:
    """A log of ``actions`` actions of random legal play on CODE, with an undo every
    ``undo_every`` actions: (token, the action with its group size) pairs."""
    for attempt in range(seed, seed + 100):
        rng = random.Random(attempt)
        board = Board(CODE, undo_limit=None)
        log: list[tuple[str, Any]] = []
        while len(log) < actions:
            if undo_every and len(log) % undo_every == undo_every - 1 and board.moves:
                log.append(("U", None))
                board.pop()
                continue
            legal = board.legal_moves()
            if not legal or board.is_won():
                break
            action = rng.choice(legal)
            log.append((board.notation(action), action))
            board.push(action)
        if len(log) == actions:
            return log
    raise RuntimeError("no random game lasted long enough")


def python_samples(samples: int, batch: int, call) -> list[float]:
    out = []
    for s in range(samples):
        start = time.perf_counter_ns()
        for i in range(batch):
            call(s * batch + i)
        out.append((time.perf_counter_ns() - start) / 1000 / batch)
    return out


def node_figures(samples: int, numbers: list[int], logs: dict[str, list[str]]) -> dict[str, Any]:
    node = os.environ.get("SPIDER_NODE") or shutil.which("node")
    if node is None:
        sys.exit("no node found (apt-get install nodejs)")
    request = {"suits": 4, "numbers": numbers, "logs": logs, "code": CODE, "samples": samples, "batch": BATCH}
    done = subprocess.run([node, str(ROOT / "benchmarks" / "bench_js_rules.mjs")], input=json.dumps(request),
                          capture_output=True, text=True, check=True, timeout=600)
    return json.loads(done.stdout)


def python_figures(samples: int, numbers: list[int], logs: dict[str, list[str]]) -> dict[str, Any]:
    variant = Variant(suits=4)
    half = len(numbers) // 2
    python_samples(samples, BATCH["deck"], lambda i: shuffle_deck(numbers[half + i % half], variant))  # warm-up
    deck = python_samples(samples, BATCH["deck"], lambda i: shuffle_deck(numbers[i % half], variant))
    codes = [f"SP1-S4C-{rules_codes.encode_deal(number)}" for number in numbers[:half]]

    def fresh_deal(i: int) -> None:  # Deal.from_code without its caches: the code is new to it
        rules_codes._parse_code.cache_clear()
        rules_codes._deck.cache_clear()
        rules_deal._deal_of_code.cache_clear()
        Deal.from_code(codes[i % half])

    deal = python_samples(samples, BATCH["deck"], fresh_deal)
    figures = {"deck": deck, "deal": deal, "replay": {}}
    for name, log in logs.items():
        replay(CODE, log)
        figures["replay"][name] = python_samples(samples, BATCH["replay"], lambda i, log=log: replay(CODE, log))
    return figures


def rules_table(samples: int) -> tuple[list[dict[str, Any]], str]:
    rng = random.Random(52)
    numbers = rng.sample(range(2**35), 2 * samples * BATCH["deck"])
    logs = {"150 actions": [token for token, _ in random_log(150, None, 1)],
            "150 actions, an undo every tenth": [token for token, _ in random_log(150, 10, 1)]}
    node = node_figures(samples, numbers, logs)
    python = python_figures(samples, numbers, logs)
    rows = []
    for task, node_samples, python_samples_, target in [
        ("the deck of a code (shuffle)", node["deck"], python["deck"], 100),
        ("a deal from a new code (parse, shuffle, composition)", node["deal"], python["deal"], None),
        *((f"replay, {name}", node["replay"][name]["samples"], python["replay"][name], 1000) for name in logs),
    ]:
        node_us, python_us = statistics.median(node_samples), statistics.median(python_samples_)
        rows.append({"task": task, "node_us": node_us, "python_us": python_us, "ratio": python_us / node_us,
                     "target_us": target})
    for name in logs:  # both engines reached the same end
        expected = replay(CODE, logs[name])
        assert (node["replay"][name]["moves"], node["replay"][name]["score"]) == (expected.moves, expected.score)
    return rows, node["node"]


class Server:
    """``spider-solve serve`` on a free port of 127.0.0.1, over an empty catalog."""

    def __init__(self, folder: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "spider_solver", "serve", "--port", "0", "--catalog", str(folder / "c.sqlite"),
             "--solvers", "1"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, cwd=folder)
        assert self.process.stderr is not None
        self.url = None
        for line in self.process.stderr:
            if line.startswith("serving on "):
                self.url = line.split()[2]
                break
        if self.url is None:
            raise RuntimeError("the server did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(60)


#: The page's own handlers play the actions: clicks on the card and the column, the buttons.
PLAY = """async (actions) => {
  document.getElementById("restart").click();
  const start = performance.now();
  for (const [token, src, count, dst] of actions) {
    if (token === "D") document.getElementById("deal").click();
    else if (token === "U") document.getElementById("undo").click();
    else {
      document.querySelector(`.column[data-col="${src}"] .card.up[data-count="${count}"]`).click();
      document.querySelector(`.column[data-col="${dst}"]`).click();
    }
  }
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return {ms: performance.now() - start, moves: Number(document.body.dataset.moves),
          address: decodeURIComponent(location.hash)};
}"""


def browser_table(runs: int) -> tuple[list[dict[str, Any]], str]:
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("SPIDER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("no chromium found (apt-get install chromium), or run with --no-browser")
    log = random_log(100, 10, 1)
    actions = [[token, action.src, action.count, action.dst] if isinstance(action, Move) else [token, 0, 0, 0]
               for token, action in log]
    tokens = [token for token, _ in log]
    expected = replay(CODE, tokens, undo_limit=None)
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, headless=True)
                # The page's policy forbids evaluating script; the driver above is not the page's code.
                context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
                page = context.new_page()
                page.goto(f"{server.url}/play#{CODE}")
                page.wait_for_selector(".card.up")
                page_ms = []
                for _ in range(runs):
                    done = page.evaluate(PLAY, actions)
                    # The page played the log as the rules engine does.
                    assert done["moves"] == expected.moves and done["address"] == f"#{CODE}/" + ",".join(tokens), done
                    page_ms.append(done["ms"])
                version = browser.version
                browser.close()
            api_ms = []
            for _ in range(3):
                start = time.perf_counter()
                for n in range(1, len(tokens) + 1):
                    body = json.dumps({"code": CODE, "actions": tokens[:n], "undo_limit": None}).encode()
                    request = urllib.request.Request(server.url + "/v1/position", data=body, method="POST",
                                                     headers={"Content-Type": "application/json"})
                    with urllib.request.urlopen(request, timeout=60) as response:
                        assert response.status == 200
                api_ms.append((time.perf_counter() - start) * 1000)
        finally:
            server.stop()
    rows = [{"task": "100 actions played through the page (game.js and the rules module)",
             "ms": statistics.median(page_ms), "per_action_ms": statistics.median(page_ms) / 100, "target_ms": 1000,
             "runs": runs},
            {"task": "the same 100 actions as POST /v1/position requests (the page before the module)",
             "ms": statistics.median(api_ms), "per_action_ms": statistics.median(api_ms) / 100, "target_ms": None,
             "runs": len(api_ms)}]
    return rows, version


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=101, help="Samples of each timing (default: %(default)s).")
    parser.add_argument("--runs", type=int, default=7,
                        help="Runs of the 100 actions in Chromium (default: %(default)s).")
    parser.add_argument("--no-browser", action="store_true", help="Only the Node and Python figures.")
    resultfile.add_out_option(parser, "js-rules")
    args = parser.parse_args()
    rows, node = rules_table(args.samples)
    tables = {"rules": resultfile.table(COLUMNS["rules"], rows)}
    extra: dict[str, Any] = {"node": node}
    if not args.no_browser:
        browser_rows, version = browser_table(args.runs)
        tables["browser"] = resultfile.table(COLUMNS["browser"], browser_rows)
        extra["chromium"] = version
    for tab in tables.values():
        print("\n" + resultfile.markdown(tab))
    extra["load_average"] = round(os.getloadavg()[0], 2)  # the machine may be shared
    resultfile.write(args, "bench_js_rules", tables, **extra)


if __name__ == "__main__":
    main()
