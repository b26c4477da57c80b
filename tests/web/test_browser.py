"""The reference web client (``/`` and ``/play``) in a real browser: Playwright driving
Debian's Chromium headless, against the real ``spider-solve serve`` on a free port of
127.0.0.1 with a small catalog of 1-suit verified deals.

Marked ``browser`` and ``slow``. Without a Chromium (``chromium`` on the PATH, or
``SPIDER_CHROMIUM``) or without the ``playwright`` package they are skipped, unless the
environment variable ``CI`` is set: there a missing browser is a failure (``.ci/run``
installs Debian's ``chromium``; Playwright's own browser download is not used).
Screenshots at 1280x800 and 390x844 go to ``SPIDER_WEB_ARTEFACTS`` if set, else to a
folder under pytest's temporary path (printed).

Each page's console messages of type error and its uncaught exceptions are collected, and
a test fails if there is any. The page may load nothing but this server's files: every
request to another address is aborted and fails the test.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from spider_solver.rules import Board, Deal, DealRow, Move, Undo
from tests.cli.test_serve import ROOT, Served
from tests.fair_pairs import twin, unseen_places

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.usefixtures("engine", "fair_hints")]

#: The verified deals of the catalog (1 suit: solved in a fraction of a second each).
DEALS = ("SP1-S1C-AAAAAAB", "SP1-S1C-AAAAAAC")
#: A 1-suit deal on which dealing the whole stock at once leaves no move at all; the last
#: deal is the action that lost it (the position before it is winnable).
STUCK = ("SP1-S1C-AAAAAMZ", ["D"] * 5, 4)
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: Milliseconds a step of the page may take (a hint along the known line, a move).
STEP = 20_000


def chromium() -> str | None:
    return os.environ.get("SPIDER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def missing(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI runs the browser tests (.ci/run installs Debian's chromium)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("the playwright package is not installed (the test extra)")
    executable = chromium()
    if executable is None:
        missing("no Chromium found (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, headless=True)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from spider_solver import solve
    from spider_solver.catalog import Catalog

    path = tmp_path_factory.mktemp("web") / "catalog.sqlite"
    with Catalog(path) as db:
        for code in DEALS:
            db.record(solve(code))
        db.set_grade(DEALS[0], {"difficulty": 1, "difficulty_raw": 10.0, "grader_version": "test"})
        db.set_grade(DEALS[1], {"difficulty": 1, "difficulty_raw": 11.0, "grader_version": "test"})
    served = Served("--catalog", str(path), "--solvers", "1", "--max-nodes-cap", "2000000",
                    "--max-seconds-cap", "20", cwd=path.parent)
    try:
        yield served
        assert served.stop() == 0
    finally:
        served.kill()
    assert "Traceback" not in "".join(served.lines), "".join(served.lines)


@pytest.fixture(scope="module")
def artefacts(tmp_path_factory) -> Path:
    given = os.environ.get("SPIDER_WEB_ARTEFACTS")
    folder = Path(given) if given else tmp_path_factory.mktemp("web-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"screenshots in {folder}")
    return folder


class Page:
    """A browser page on the server, with its console errors and foreign requests collected."""

    def __init__(self, browser, server, viewport):
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.page.set_default_timeout(STEP)
        self.errors: list[str] = []
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        self.page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        host = urlparse(server.url).netloc
        self.page.route("**/*", lambda route: route.continue_() if urlparse(route.request.url).netloc == host
                        else (self.errors.append(f"request to {route.request.url}"), route.abort()))
        self.url = server.url

    def open(self, hash_: str = "", path: str = "/play") -> None:
        self.page.goto(self.url + path + (f"#{hash_}" if hash_ else ""))
        self.page.wait_for_selector(".card.up")
        self.wait_idle()

    def wait_idle(self) -> None:
        self.page.wait_for_selector("body:not([data-busy])", state="attached")

    def moves(self) -> int:
        return int(self.page.get_attribute("body", "data-moves"))

    def wait_moves(self, moves: int) -> None:
        self.page.wait_for_selector(f'body[data-moves="{moves}"]', state="attached")

    def card(self, column: int, count: int):
        return self.page.locator(f'.column[data-col="{column}"] .card.up[data-count="{count}"]')

    def column(self, column: int):
        return self.page.locator(f'.column[data-col="{column}"]')

    def log(self) -> list[str]:
        code, _, actions = unquote(urlparse(self.page.url).fragment).partition("/")
        return actions.split(",") if actions else []

    def code(self) -> str:
        return unquote(urlparse(self.page.url).fragment).partition("/")[0]

    def message(self) -> str:
        return self.page.inner_text("#message")

    def drag(self, src: int, count: int, dst: int) -> None:
        box = self.card(src, count).bounding_box()
        target = self.column(dst).bounding_box()
        mouse = self.page.mouse
        mouse.move(box["x"] + box["width"] / 2, box["y"] + 4)
        mouse.down()
        mouse.move(target["x"] + target["width"] / 2, target["y"] + 20, steps=8)
        mouse.up()

    def close(self) -> None:
        self.context.close()
        assert self.errors == []


@pytest.fixture
def desktop(browser, server):
    page = Page(browser, server, DESKTOP)
    yield page
    page.close()


@pytest.fixture
def phone(browser, server):
    page = Page(browser, server, PHONE)
    yield page
    page.close()


def replayed(code: str, log: list[str]) -> dict:
    """``spider-solve replay --json`` of the log, as a player would check it."""
    result = subprocess.run([sys.executable, "-m", "spider_solver", "replay", "--json", code, *log],
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")})
    return json.loads(result.stdout)


def test_a_verified_game_is_won_by_following_the_winning_line_alone(desktop, artefacts):
    """"Show a winning line" (the peeking hint, kept under that name) wins a verified deal."""
    page = desktop.page
    desktop.open()
    page.click("#new")
    page.select_option("#suits", "1")
    games = page.get_attribute("body", "data-games")
    page.click("#start")
    page.wait_for_selector(f'body:not([data-games="{games}"])', state="attached")
    page.wait_for_selector("#verified:not([hidden])")
    code = page.inner_text("#code")
    assert code in DEALS and page.inner_text("#verified").startswith("Verified")
    desktop.wait_idle()
    page.screenshot(path=str(artefacts / "desktop-start.png"))
    for step in range(300):
        if page.get_attribute("body", "data-won") == "true":
            break
        moves = desktop.moves()
        page.click("#line")
        page.wait_for_selector("body[data-hint-kind=line]", state="attached")
        hint = page.get_attribute("body", "data-hint")
        if step == 20:
            page.screenshot(path=str(artefacts / "desktop-line.png"))
        if hint == "D":
            page.click("#stock")
        else:
            src, dst = (int(part) for part in hint.split("/")[0].split(">"))
            count = int(page.get_attribute("body", "data-hint-count"))
            desktop.card(src, count).click(position={"x": 8, "y": 4})  # pick the group up ...
            desktop.column(dst).click(position={"x": 8, "y": 4})  # ... and put it down
        desktop.wait_moves(moves + 1)
    assert page.get_attribute("body", "data-won") == "true"
    assert "You won!" in desktop.message()
    page.screenshot(path=str(artefacts / "desktop-won.png"))
    log = desktop.log()
    assert desktop.code() == code
    expected = replayed(code, log)
    assert expected["won"] is True and expected["error"] is None, (expected, log)
    assert int(page.inner_text("#score")) == expected["score"]
    assert int(page.inner_text("#moves")) == expected["moves"] == len(log)


def test_the_address_resumes_its_game_and_says_why_when_it_cannot(desktop):
    """A reload resumes the game of the address; a log the rules refuse gives the deal
    from its first position, a code that does not parse a new game, each with the reason;
    without the server the game still resumes and plays, and the page says so."""
    code = DEALS[0]
    page = desktop.page
    board = Board(code)
    legal = next(action for action in board.legal_moves() if isinstance(action, Move))
    desktop.open(f"{code}/{board.notation(legal)},D")
    assert desktop.code() == code and desktop.moves() == 2 and desktop.message() == f"Game {code} resumed."
    page.reload()
    page.wait_for_selector(".card.up")
    desktop.wait_idle()
    assert desktop.log() == [board.notation(legal), "D"] and desktop.moves() == 2
    refused = next(Move(s, d, 1) for s in range(1, 11) for d in range(1, 11)
                   if s != d and not board.is_legal(Move(s, d, 1)))
    page.goto("about:blank")  # a new address, not a change of the fragment alone
    desktop.open(f"{code}/{refused.src}>{refused.dst},D")
    page.wait_for_selector("#message.rule")
    assert desktop.code() == code and desktop.moves() == 0 and desktop.log() == []
    assert desktop.message().startswith("The address's game could not be resumed: action 1 (index 0: ")
    assert desktop.message().endswith(f"{code} starts from its first position.")
    page.goto("about:blank")
    desktop.open("SP1-S1C-NOTACODE")
    page.wait_for_selector("#message:has-text('A new game instead')")  # not wait_for_function: the CSP forbids eval
    assert desktop.message().startswith("The address's game could not be resumed: ")
    assert desktop.code() in DEALS
    # The server unreachable: the game is laid out, replayed and played all the same (the
    # rules are the page's own); only the catalog's label is missing, and that is said.
    page.goto("about:blank")
    page.route("**/v1/**", lambda route: route.abort())
    address = f"{code}/{board.notation(legal)}"
    page.goto(f"{desktop.url}/play#{address}")
    page.wait_for_selector("#message:has-text('The server could not be reached')")
    assert desktop.message().startswith(f"Game {code} resumed. The server could not be reached (")
    assert unquote(urlparse(page.url).fragment) == address and desktop.moves() == 1
    page.click("#deal")
    desktop.wait_moves(2)
    assert desktop.log() == [board.notation(legal), "D"]
    page.unroute("**/v1/**")
    # The browser logs the aborted request (a refused log and a bad code ask nothing of the server).
    assert desktop.errors == ["Failed to load resource: net::ERR_FAILED"]
    desktop.errors.clear()


def test_a_refused_drag_shows_the_rule_and_undo_restart_deal_and_keys_work(desktop):
    code = DEALS[0]
    page = desktop.page
    desktop.open(code)
    board = Board(code)
    refused = next(Move(s, d, 1) for s in range(1, 11) for d in range(1, 11)
                   if s != d and not board.is_legal(Move(s, d, 1)))
    try:
        board.check(refused)
    except ValueError as error:
        rule = str(error)
    desktop.drag(refused.src, 1, refused.dst)
    page.wait_for_selector("#message.rule")
    assert desktop.message().removeprefix("Rule: ") == rule and desktop.moves() == 0
    # A legal drag plays; the page shows the engine's score and counter.
    legal = next(action for action in board.legal_moves() if isinstance(action, Move))
    desktop.drag(legal.src, legal.count, legal.dst)
    desktop.wait_moves(1)
    assert page.inner_text("#score") == "499" and desktop.log() == [board.notation(legal)]
    page.click("#undo")
    desktop.wait_moves(0)
    assert page.inner_text("#score") == "500" and desktop.log() == [board.notation(legal), "U"]
    page.click("#deal")
    desktop.wait_moves(1)
    assert page.inner_text("#stock-text") == "4 deals left"
    page.click("#restart")
    desktop.wait_moves(0)
    assert page.inner_text("#stock-text") == "5 deals left" and desktop.log() == []
    # Undo with nothing to undo: the rule reminder.
    page.keyboard.press("u")
    page.wait_for_selector("#message.rule")
    assert "nothing to undo" in desktop.message()
    # The keyboard: D deals, U undoes; a column, Enter picks its group up, another Enter puts it down there.
    page.keyboard.press("d")
    desktop.wait_moves(1)
    page.keyboard.press("u")
    desktop.wait_moves(0)
    page.focus(f'.column[data-col="{legal.src}"]')
    page.keyboard.press("Enter")
    for _ in range((legal.dst - legal.src) % 10):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    desktop.wait_moves(1)
    assert desktop.log() == ["D", "U", board.notation(legal)]
    # A double-click on a card sends its group to the column the rules engine's best_target names.
    board.push(legal)
    column = next(c for c in range(1, 11) if board.columns[c - 1] and board.best_target(c, 1) is not None)
    best = board.best_move(column, 1)
    desktop.card(column, 1).dblclick(position={"x": 8, "y": 4})
    desktop.wait_moves(2)
    assert desktop.log()[-1] == board.notation(best)
    assert page.get_attribute("#message", "aria-live") == "polite"


def test_a_stuck_game_shows_where_it_was_lost_and_goes_back(phone, artefacts):
    code, log, lost_at = STUCK
    page = phone.page
    phone.page.goto(phone.url + "/#" + code + "/" + ",".join(log))
    page.wait_for_selector("#lost:not([hidden])", timeout=60_000)
    assert page.get_attribute("body", "data-lost") == str(lost_at)
    assert f"action {lost_at + 1} of {len(log)}" in page.inner_text("#lost-text")
    page.screenshot(path=str(artefacts / "phone-lost.png"), full_page=True)
    page.click("#go-back")
    phone.wait_moves(lost_at)
    assert phone.log() == log[:lost_at] and page.is_hidden("#lost")
    # From there the game can be won again: a winning line.
    page.click("#line")
    page.wait_for_selector("body[data-hint-kind=line]", state="attached", timeout=60_000)
    page.screenshot(path=str(artefacts / "phone-line.png"), full_page=True)
    # Lost again; "go back and play the line" plays it, showing that it runs, until Escape cancels it.
    page.click("#deal")
    page.wait_for_selector("#lost:not([hidden])", timeout=60_000)
    page.click("#play-line")
    page.wait_for_selector("#busy:not([hidden])")
    for _ in range(100):  # the line plays an action about every 0.15 s
        if phone.moves() >= lost_at + 3:
            break
        page.wait_for_timeout(100)
    page.keyboard.press("Escape")
    page.wait_for_selector("#busy", state="hidden")
    assert phone.message() == "Cancelled."
    moves = phone.moves()
    page.wait_for_timeout(500)
    assert phone.moves() == moves and lost_at + 3 <= moves < lost_at + 20


def test_a_game_is_played_without_a_request_to_the_server(desktop):
    """The page plays with the rules module: drags, clicks, the keys, double-clicks, deals,
    undos, a restart and a refused drop ask the server nothing. Opening the game asks for
    its catalog record only (GET /v1/catalog/deals/{code}). (The client that sent each action to
    POST /v1/position made one request an action: 40 for a game of 40 actions.)"""
    code = DEALS[1]
    page = desktop.page
    requests: list[str] = []
    page.on("request", lambda request: urlparse(request.url).path.startswith("/v1/")
            and requests.append(f"{request.method} {urlparse(request.url).path}"))
    desktop.open(code)
    page.wait_for_selector("#verified:not([hidden])")  # the record has come
    assert requests == [f"GET /v1/catalog/deals/{code}"]
    requests.clear()
    board = Board(code)
    log: list[str] = []

    def played(action) -> None:
        log.append(board.notation(action))
        if isinstance(action, Undo):
            board.pop()
        else:
            board.push(action)
        desktop.wait_moves(board.moves)
        assert desktop.log() == log

    refused = next(Move(s, d, 1) for s in range(1, 11) for d in range(1, 11)
                   if s != d and board.columns[s - 1] and not board.is_legal(Move(s, d, 1)))
    desktop.drag(refused.src, 1, refused.dst)
    page.wait_for_selector("#message.rule")
    used: set[str] = set()  # the ways the actions were made
    for step in range(48):
        if step == 24:  # a restart: the page starts from the deal's first position
            page.click("#restart")
            board, log = Board(code), []
            desktop.wait_moves(0)
            assert desktop.log() == []
        moves = [action for action in board.legal_moves() if isinstance(action, Move)]
        way = step % 6
        if way == 5 or not moves:
            if board.moves and step % 12 == 11:
                key = "Control+z" if step % 24 == 11 else "u"
                page.keyboard.press(key)
                used.add(key)
                played(Undo())
            else:
                how = "#deal" if step % 18 == 5 else "#stock" if step % 18 == 11 else "d"
                page.keyboard.press(how) if how == "d" else page.click(how)
                used.add(how)
                played(DealRow())
            continue
        move = moves[step % len(moves)]
        if way == 0:
            desktop.drag(move.src, move.count, move.dst)
            used.add("drag")
        elif way == 1:
            desktop.card(move.src, move.count).click(position={"x": 8, "y": 4})
            desktop.column(move.dst).click(position={"x": 8, "y": 4})
            used.add("click")
        elif way == 2 and move.count == board.movable(move.src):  # the keys: pick the largest group up, put it down
            page.focus(f'.column[data-col="{move.src}"]')
            page.keyboard.press("Enter")
            for _ in range((move.dst - move.src) % 10):
                page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            used.add("keys")
        elif way == 3 and board.best_move(move.src, move.count) is not None:  # a double-click: auto-place
            move = board.best_move(move.src, move.count)
            desktop.card(move.src, move.count).dblclick(position={"x": 8, "y": 4})
            used.add("double-click")
        elif board.moves:
            page.click("#undo")
            used.add("#undo")
            played(Undo())
            continue
        else:
            desktop.drag(move.src, move.count, move.dst)
        played(move)
    assert used == {"drag", "click", "keys", "double-click", "#deal", "#stock", "d", "#undo", "u", "Control+z"}, used
    assert requests == []
    expected = replayed(code, desktop.log())
    assert expected["error"] is None and expected["moves"] == board.moves == desktop.moves()
    assert int(page.inner_text("#score")) == expected["score"] == board.score


#: Keys of an answer that give away what the player has not seen: cards face down or in the
#: stock, or a winning line (docs/service.md, "Spoilers").
SPOILERS = {"deck", "stock", "solution", "line", "hint", "lost_at_line", "bracket"}
#: A card as the API names it: rank then suit.
CARD = re.compile(r"(10|[A2-9TJQK])[SHDC]")
PACKAGE = Path(ROOT) / "spider_solver"


def spoilers(path: str, body: bytes, content_type: str) -> list[str]:
    """What a response the page received gives away: a spoiler's key, a card named outside a
    position's face-up cards, a position other than the deal's first one as the rules engine
    lays it out; a file that is not the package's own, byte for byte."""
    if not path.startswith("/v1/"):
        name = "index.html" if path in ("/", "/play") else path.removeprefix("/web/")
        folder = PACKAGE / ("js" if name.startswith("rules/") else "service/web")
        own = folder / name.removeprefix("rules/")
        return [] if own.is_file() and own.read_bytes() == body else [f"{path}: not the package's file"]
    assert content_type.startswith("application/json"), (path, content_type)
    found: list[str] = []

    def walk(node, where: str, allowed: bool) -> None:
        if isinstance(node, dict):
            if {"columns", "code"} <= set(node) and "legal" in node:  # a position: the deal's first
                board = Board(node["code"])
                columns = [{"down": board.down[c - 1], "up": [str(card) for card in board.face_up(c)]}
                           for c in range(1, 11)]
                if [{"down": column["down"], "up": column["up"]} for column in node["columns"]] != columns:
                    found.append(f"{where}: not the deal's first position")
            fair = {"choices", "layouts", "seed"} <= set(node)  # a fair hint's action is judged on what is seen
            for key, value in node.items():
                if key in SPOILERS and not (fair and key == "hint"):
                    found.append(f"{where}.{key}")
                walk(value, f"{where}.{key}", allowed or key == "up")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{where}[{index}]", allowed)
        elif isinstance(node, str) and CARD.fullmatch(node) and not allowed:
            found.append(f"{where}: the card {node}")

    walk(json.loads(body), path, False)
    return found


def test_no_answer_names_a_face_down_card_or_a_winning_line_before_the_player_asks(desktop):
    """Point 1 of issue 53: the page starts a random game, the day's deal and a typed code's
    game, and plays, refuses and undoes actions; no response it received until then names a
    face-down card, the stock or a winning line (a position: the deal's first, face-down cards
    counted; the files: the package's own). The check is not blind: the answer to Hint, the
    first request that may give a line away, fails it."""
    page = desktop.page
    host = urlparse(desktop.url).netloc
    received: list[tuple[str, bytes, str]] = []

    def record(route) -> None:
        if urlparse(route.request.url).netloc != host:
            desktop.errors.append(f"request to {route.request.url}")
            route.abort()
            return
        response = route.fetch()
        received.append((urlparse(route.request.url).path, response.body(), response.headers.get("content-type", "")))
        route.fulfill(response=response)

    page.route("**/*", record)
    desktop.open()  # a random verified deal
    page.wait_for_selector("#verified:not([hidden])")
    games = page.get_attribute("body", "data-games")
    page.click("#daily")
    page.wait_for_selector(f'body:not([data-games="{games}"])', state="attached")
    page.wait_for_selector("#message:has-text(\"Today's deal\")")
    code = desktop.code()
    assert code in DEALS
    board = Board(code)
    move = next(action for action in board.legal_moves() if isinstance(action, Move))
    desktop.drag(move.src, move.count, move.dst)
    desktop.wait_moves(1)
    page.click("#deal")
    desktop.wait_moves(2)
    page.click("#undo")
    desktop.wait_moves(1)
    games = page.get_attribute("body", "data-games")
    page.click("#new")
    page.fill("#code-input", DEALS[1])
    page.click("#start")
    page.wait_for_selector(f'body:not([data-games="{games}"])', state="attached")
    page.wait_for_selector("#verified:not([hidden])")
    desktop.wait_idle()
    paths = [path for path, _, _ in received]
    assert {"/v1/catalog/random", "/v1/catalog/daily", f"/v1/catalog/deals/{DEALS[1]}"} <= set(paths), paths
    assert not any(path.startswith("/v1/deals/") for path in paths)
    for path, body, content_type in received:
        assert spoilers(path, body, content_type) == [], path
    # The player asks for a hint: the fair hint gives nothing away ...
    asked = len(received)
    page.click("#hint")
    page.wait_for_selector("body[data-hint-kind=fair]", state="attached", timeout=60_000)
    fair = [(path, body, kind) for path, body, kind in received[asked:] if path == "/v1/analyze"]
    assert fair and spoilers(*fair[0]) == []
    # ... a winning line does, and the check says so.
    asked = len(received)
    page.click("#line")
    page.wait_for_selector("body[data-hint-kind=line]", state="attached")
    line = [(path, body, kind) for path, body, kind in received[asked:] if path == "/v1/analyze"]
    assert line and spoilers(*line[0])


#: The fields of the page's fair hint request: the game and its rules, and the option; nothing else.
FAIR_REQUEST = {"code", "actions", "undo_limit", "deal_on_empty", "fair"}


class FairRequests:
    """The page's fair hint requests, collected; while ``deck`` is set, each goes to the
    server with that deal as an explicit deck in place of the game's code, as a frontend
    holding the deal's cards would send it."""

    def __init__(self, desktop: Page) -> None:
        self.desktop = desktop
        self.page = desktop.page
        self.sent: list[dict] = []
        self.deck: Deal | None = None
        self.page.route("**/v1/analyze", self._route)

    def _route(self, route) -> None:
        body = json.loads(route.request.post_data or "{}")
        if body.get("fair"):
            self.sent.append(body)
            if self.deck is not None:
                body = {key: value for key, value in body.items() if key != "code"} | {
                    "deck": self.deck.text(), "suits": self.deck.variant.suits}
                route.continue_(post_data=json.dumps(body))
                return
        route.continue_()

    def ask(self) -> str:
        """Click Hint; the words the page shows for the fair hint."""
        self.page.evaluate("document.body.removeAttribute('data-hint-kind')")
        self.page.click("#hint")
        self.page.wait_for_selector("body[data-hint-kind=fair]", state="attached", timeout=60_000)
        return self.desktop.message()

    def twins_answer(self, deal: Deal, twin_deal: Deal) -> list[str]:
        """The words of the fair hint asked for with each deal sent as its explicit deck."""
        answers = []
        for explicit in (deal, twin_deal):
            self.deck = explicit
            answers.append(self.ask())
        self.deck = None
        return answers

    def close(self) -> None:
        self.page.unroute("**/v1/analyze")


def swapped(deal: Deal, first: int, second: int) -> Deal:
    """The twin of ``deal`` with the unseen cards at deck places ``first`` and ``second``
    swapped (:func:`~tests.fair_pairs.twin`); it must differ from ``deal``."""
    places = unseen_places(deal)
    order = list(range(len(places)))
    i, j = places.index(first), places.index(second)
    order[i], order[j] = order[j], order[i]
    other = twin(deal, order)
    assert other.cards != deal.cards
    return other


def test_hint_gives_the_fair_hint_with_its_chance_and_sends_nothing_the_player_has_not_seen(desktop, artefacts):
    """Issue 50: Hint is the fair hint. The page shows the hint's cards and its chance in the
    answer's words (as the Python function gives them), and its request carries the game
    (its code), the log, the undo limit and ``fair``, nothing else, and the same after the
    player saw a winning line. Played through the page, twins (the deal, and the same deal
    with two stock cards swapped: a player cannot tell them apart) get the same words."""
    from spider_solver.analysis import fair_hint

    code = DEALS[0]
    page = desktop.page
    board = Board(code)
    move = next(action for action in board.legal_moves() if isinstance(action, Move))
    desktop.open(f"{code}/{board.notation(move)}")
    log = desktop.log()
    fair = FairRequests(desktop)
    shown = fair.ask()
    expected = fair_hint(code, log)
    assert shown == expected.summary
    assert page.get_attribute("body", "data-hint") == expected.hint
    assert float(page.get_attribute("body", "data-chance")) == pytest.approx(expected.chance)
    assert page.locator(".hint-src").count() >= 1  # the hint's cards (or the stock) drawn as the hint
    page.screenshot(path=str(artefacts / "desktop-fair-hint.png"))
    sent = fair.sent
    assert set(sent[0]) == FAIR_REQUEST and sent[0]["actions"] == log and sent[0]["fair"] is True
    # A winning line seen, then Hint again: the same request, the same words.
    page.click("#line")
    page.wait_for_selector("body[data-hint-kind=line]", state="attached")
    assert desktop.message().startswith("A winning line, found knowing the face-down cards: ")
    assert page.get_attribute("body", "data-chance") is None  # the fair hint's chance went with it
    assert fair.ask() == shown and sent[-1] == sent[0]
    # Twins through the page: the deal as an explicit deck, and its twin (two stock cards swapped).
    deal = Deal.from_code(code)
    stock = [place for place in unseen_places(deal) if place >= deal.variant.layout]
    other = next(place for place in stock if deal.cards[place] != deal.cards[stock[-1]])
    assert fair.twins_answer(deal, swapped(deal, stock[-1], other)) == [shown, shown]
    fair.close()


def test_four_suit_twins_get_the_same_fair_hint_through_the_page(desktop):
    """Issue 50's never-peeks contract through the page at 4 suits: the start of a 4-suit
    deal, sent as its explicit deck, and its twin with a face-down card and a stock card of
    another card swapped (a player cannot tell them apart) get the same words, those of the
    Python function for the deal's code."""
    from spider_solver.analysis import fair_hint

    code = "SP1-S4C-AAA3PLB"
    desktop.open(code)
    fair = FairRequests(desktop)
    shown = fair.ask()
    assert shown == fair_hint(code, []).summary
    deal = Deal.from_code(code)
    places = unseen_places(deal)
    down = places[0]  # the deepest card of the first column
    other = next(place for place in places if place >= deal.variant.layout and deal.cards[place] != deal.cards[down])
    assert fair.twins_answer(deal, swapped(deal, down, other)) == [shown, shown]
    fair.close()


#: The fields of the page's review request: the game and its rules; nothing else.
REVIEW_REQUEST = {"code", "actions", "undo_limit", "deal_on_empty"}


def test_a_lost_game_is_reviewed_and_goes_back_to_a_costly_decision(desktop, artefacts):
    """Issue 51: "Review this game" on a lost game shows its costliest decisions in the
    answer's words (as the Python function gives them), its request carries the game and its
    rules only, and a decision's button takes the player back to the position before it,
    the better action shown there; Cancel stops waiting for a review."""
    from spider_solver.analysis import review

    code, log, _ = STUCK
    page = desktop.page
    sent: list[dict] = []

    def review_requests(route) -> None:
        sent.append(json.loads(route.request.post_data or "{}"))
        route.continue_()

    page.route("**/v1/review", review_requests)
    page.goto(desktop.url + "/#" + code + "/" + ",".join(log))
    page.wait_for_selector("#lost:not([hidden])", timeout=60_000)  # stuck: where it was lost, then the review
    page.click("#review-lost")
    # A review judges every decision (about 10 s of one core here): waited for longer than a hint.
    page.wait_for_selector("body[data-review]", state="attached", timeout=600_000)
    expected = review(code, log)
    assert expected.costliest, "the game reviewed has a costly decision"
    assert desktop.message() == expected.summary
    items = page.locator("#review-list li")
    assert items.count() == len(expected.costliest) == int(page.get_attribute("body", "data-review"))
    for n, mistake in enumerate(expected.costliest):
        assert items.nth(n).get_attribute("data-index") == str(mistake.index)
        assert items.nth(n).inner_text().startswith(mistake.summary[0].upper() + mistake.summary[1:] + ".")
    assert set(sent[0]) == REVIEW_REQUEST and sent[0]["actions"] == log
    page.screenshot(path=str(artefacts / "desktop-review.png"), full_page=True)
    worst = expected.costliest[0]
    items.nth(0).locator("button").click()
    desktop.wait_moves(worst.index)
    assert desktop.log() == log[:worst.index]
    assert page.get_attribute("body", "data-hint-kind") == "review"
    assert page.get_attribute("body", "data-hint") == worst.better
    assert page.is_visible("#review-panel") and desktop.message().startswith(f"Back before action {worst.index + 1}")
    # Asked again, Escape cancels the wait.
    page.keyboard.press("v")
    page.wait_for_selector("#busy:not([hidden])")
    page.keyboard.press("Escape")
    page.wait_for_selector("#busy", state="hidden")
    assert desktop.message() == "Cancelled."
    page.unroute("**/v1/review")
