"""analyze(): games in progress, still winnable?, the hint, where the game was lost.

On tiny variants every answer is checked against a brute force of the reference
rules engine: for random logs (undos included, under several undo limits), the
status of the position reached and ``lost_at`` exactly. On real deals, hints along a
verified line and after detours off it are legal and their lines win; the hint from a
known line needs no search and recognises positions, not action texts; a log that
ends stuck is never verified; a budget gives "unknown" honestly.
"""

from __future__ import annotations

import json
import random

import pytest

from spider_solver.analysis import (
    LOST_AT_LAST_DEAL_SHARE,
    LOST_AT_SHARE,
    Analysis,
    _next_probe,
    _probe_share,
    analyze,
    hint_from_line,
)
from spider_solver.errors import InvalidBudgetError
from spider_solver.outcomes import Reason, Status
from spider_solver.rules import Board, Deal, Undo, Variant, parse_action, replay
from spider_solver.rules.variant import CLASSIC, RELAXED
from spider_solver.verify import solve
from tests.engine.test_tiny import brute_force, tiny

pytestmark = pytest.mark.usefixtures("engine")

#: Far more than any tiny position needs.
TINY_BUDGET = 5_000_000


def effective_history(deal: Deal, log: list[str], deal_on_empty: bool, undo_limit: int | None) -> list[tuple[int, str]]:
    """The actions in effect after the undos, (index in the log, action), replayed independently."""
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=undo_limit)
    stack: list[tuple[int, str]] = []
    for index, token in enumerate(log):
        action = board.parse_action(token)
        if isinstance(action, Undo):
            board.push(action)
            stack.pop()
        else:
            stack.append((index, board.notation(action)))
            board.push(action)
    return stack


def random_log(deal: Deal, rng: random.Random, length: int, deal_on_empty: bool, undo_limit: int | None) -> list[str]:
    """Random legal actions, an undo now and then (when it is allowed), stopping at a win."""
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=undo_limit)
    log: list[str] = []
    for _ in range(length):
        if board.is_won():
            break
        actions = board.legal_moves()
        if board.is_legal(Undo()) and (not actions or rng.random() < 0.2):
            board.push(Undo())
            log.append("U")
            continue
        if not actions:
            break
        action = rng.choice(actions)
        log.append(board.notation(action))
        board.push(action)
    return log


def assert_line_wins(deal: Deal, log: list[str], analysis: Analysis, **options) -> None:
    """The hint is legal after the log, and the log then the line win on the rules engine."""
    assert analysis.status is Status.VERIFIED and analysis.reason is Reason.WON
    assert analysis.line and analysis.hint == analysis.line[0] and "U" not in analysis.line
    board = Board(deal, **options)
    for token in log:
        board.push_notation(token)
    assert board.is_legal(parse_action(analysis.hint, columns=deal.variant.columns))
    replayed = replay(deal, [*log, *analysis.line], **options)
    assert replayed.won and replayed.error is None
    assert replayed.played[len(log):] == analysis.line  # the line is written canonically


# -- tiny variants against the brute force ------------------------------------------------------

#: name: (variant size, logs). Sizes of tests/engine/test_tiny.py where a fair share of
#: positions are lost, so that lost_at is often there to find.
SIZES = {
    "1s-3r-3c": ({"suits": 1, "ranks": 3, "runs": 2, "columns": 3, "layout": 3}, 12),
    "2s-3r-3c": ({"suits": 2, "ranks": 3, "runs": 4, "columns": 3, "layout": 3}, 16),
    "2s-4r-3c-deep": ({"suits": 2, "ranks": 4, "runs": 4, "columns": 3, "layout": 7}, 16),
    "4s-3r-3c-deep": ({"suits": 4, "ranks": 3, "runs": 4, "columns": 3, "layout": 6}, 16),
}


@pytest.mark.parametrize("name", sorted(SIZES))
def test_analyze_agrees_with_the_brute_force(name):
    size, logs = SIZES[name]
    rng = random.Random(f"analysis {name}")
    found_lost_at = 0
    for n in range(logs):
        deck = Variant(**size).unshuffled()
        rng.shuffle(deck)
        rule = RELAXED if size["suits"] > 1 and n % 2 else CLASSIC
        deal = tiny(" ".join(str(card) for card in deck), rule, **size)
        deal_on_empty = n % 3 == 2
        undo_limit = (None, 100, 2, 0)[n % 4]
        log = random_log(deal, rng, rng.randint(3, 14), deal_on_empty, undo_limit)
        options = {"deal_on_empty": deal_on_empty, "undo_limit": undo_limit}
        where = f"{deal.variant}, deck {deal.text()!r}, log {log}, {options}"
        analysis = analyze(deal, log, max_nodes=TINY_BUDGET, max_seconds=None, **options)

        effective = effective_history(deal, log, deal_on_empty, undo_limit)
        moves = [action for _, action in effective]
        winnable = [brute_force(deal, deal_on_empty, moves[:i])[0] for i in range(len(moves) + 1)]
        assert winnable == sorted(winnable, reverse=True), f"not monotone: {winnable} for {where}"
        assert analysis.effective == len(moves)
        if analysis.replay.won:
            assert (analysis.status, analysis.source, analysis.hint) == (Status.VERIFIED, "won", None), where
        elif winnable[-1]:
            assert_line_wins(deal, log, analysis, **options)
            assert analysis.source == "search" and analysis.lost_at is None, where
        else:
            assert analysis.status is Status.UNWINNABLE and analysis.reason is Reason.EXHAUSTED, where
            assert analysis.hint is None and analysis.line == ()
            expected = effective[winnable.count(True) - 1][0] if winnable[0] else None
            assert analysis.lost_at == expected, f"{analysis.probes} for {where}"
            if expected is not None:
                found_lost_at += 1
                b = winnable.count(True) - 1
                assert analysis.lost_at_action == log[expected]
                won = replay(deal, [*moves[:b], *analysis.lost_at_line], deal_on_empty=deal_on_empty, undo_limit=0)
                assert won.won and won.error is None
                assert analysis.lost_at_line[0] != moves[b]
            else:
                assert analysis.lost_at_line == () and analysis.lost_at_action is None
            assert_bracket(deal, analysis, effective, winnable, deal_on_empty)
    assert found_lost_at >= 1  # the sizes are chosen so that games are often lost


def assert_bracket(deal, analysis, effective, winnable, deal_on_empty):
    """The bracket of an unwinnable position: its ends are what the brute force says, its line
    wins, its log indices name the actions that reached them, and a width of 1 is lost_at."""
    bracket = analysis.bracket
    if not effective:
        assert bracket is None
        return
    moves = [action for _, action in effective]
    assert bracket is not None and not winnable[bracket.unwinnable]
    assert bracket.unwinnable_after == (effective[bracket.unwinnable - 1][0] if bracket.unwinnable else None)
    if bracket.winnable is None:
        assert bracket.line == () and bracket.width is None and bracket.winnable_after is None
        return
    assert winnable[bracket.winnable] and bracket.width == bracket.unwinnable - bracket.winnable > 0
    assert bracket.winnable_after == (effective[bracket.winnable - 1][0] if bracket.winnable else None)
    won = replay(deal, [*moves[:bracket.winnable], *bracket.line], deal_on_empty=deal_on_empty, undo_limit=0)
    assert won.won and won.error is None
    assert (bracket.width == 1) == (analysis.lost_at is not None)
    if analysis.lost_at is not None:
        assert (analysis.lost_at, analysis.lost_at_line) == (bracket.unwinnable_after, bracket.line)


def test_next_probe_goes_to_the_widest_stretch_not_yet_searched():
    assert _next_probe(-1, 10, set()) == 4
    # An unknown at 4 splits -1..10: the later stretch 4..10 is the wider.
    assert _next_probe(-1, 10, {4}) == 7
    # Equally wide stretches: the later one.
    assert _next_probe(0, 10, {5}) == 7
    assert _next_probe(0, 10, {5, 7}) == 2
    # Every position between the ends searched: nothing left.
    assert _next_probe(3, 5, {4}) is None and _next_probe(3, 4, set()) is None


def test_a_small_budget_still_gives_a_bracket():
    deal = Deal.from_code("SP1-S1C-AAAAAAD")
    log = stuck_log(deal, 3)
    full = analyze(deal, log, max_nodes=BUDGET, max_seconds=None)
    effective = effective_history(deal, log, False, 100)
    moves = [action for _, action in effective]
    for nodes in (full.nodes // 3, full.nodes // 8):
        analysis = analyze(deal, log, max_nodes=max(nodes, 1), max_seconds=None)
        if analysis.status is not Status.UNWINNABLE:
            continue
        bracket = analysis.bracket
        assert bracket is not None and bracket.unwinnable <= len(moves)
        if bracket.winnable is not None:
            assert replay(deal, [*moves[:bracket.winnable], *bracket.line], undo_limit=0).won
            # The full budget's step lies inside the small budget's bracket.
            assert full.bracket is not None and full.bracket.width == 1
            assert bracket.winnable <= full.bracket.winnable < full.bracket.unwinnable <= bracket.unwinnable


def test_each_search_of_the_bisection_spends_at_most_its_share_by_deals_left():
    # A 2-suit log lost before the last deal: its bisection searches positions with
    # several deals left and with exactly one, none of which this budget settles.
    deal = Deal.from_code("SP1-S2C-AAAAAAA")
    log = stuck_log(deal, 0)
    boards = [Board(deal, undo_limit=0)]
    for _, action in effective_history(deal, log, False, 100):
        boards.append(boards[-1].copy())
        boards[-1].push_notation(action)
    assert {_probe_share(board) for board in boards if board.deals_left == 1} == {LOST_AT_LAST_DEAL_SHARE}
    assert {_probe_share(board) for board in boards if board.deals_left != 1} == {LOST_AT_SHARE}
    assert LOST_AT_LAST_DEAL_SHARE < LOST_AT_SHARE
    nodes = 400_000
    analysis = analyze(deal, log, max_nodes=nodes, max_seconds=None)
    for probe in analysis.probes:  # proofs too; a known line's probe costs no nodes
        assert probe["nodes"] <= nodes // _probe_share(boards[probe["position"]]), probe
    # The larger share is spent: an unknown with one deal left took more than a quarter.
    assert any(boards[probe["position"]].deals_left == 1 and probe["status"] == "unknown"
               and probe["nodes"] > nodes // LOST_AT_SHARE for probe in analysis.probes), analysis.probes


def test_lost_at_counts_the_undos_in_the_log():
    # SMALL_2 of test_tiny, the known unwinnable deck: every log is lost from the start.
    # A deck from the random test where the first move is fine and a deal loses it:
    rng = random.Random("lost with undos")
    size = SIZES["2s-3r-3c"][0]
    for _ in range(60):
        deck = Variant(**size).unshuffled()
        rng.shuffle(deck)
        deal = tiny(" ".join(str(card) for card in deck), CLASSIC, **size)
        if not brute_force(deal, False)[0]:
            continue
        board = Board(deal, undo_limit=None)
        losing = next((a for a in board.legal_moves() if not brute_force(deal, False, [board.notation(a)])[0]), None)
        if losing is None:
            continue
        text = board.notation(losing)
        other = next(board.notation(a) for a in board.legal_moves() if a != losing)
        # Play another action, undo it, then the losing one: the step is at index 2.
        analysis = analyze(deal, [other, "U", text], max_nodes=TINY_BUDGET, max_seconds=None, undo_limit=None)
        assert analysis.status is Status.UNWINNABLE
        assert (analysis.lost_at, analysis.lost_at_action, analysis.effective) == (2, text, 1)
        # Losing, undoing and playing another action: winnable again.
        again = analyze(deal, [text, "U", other], max_nodes=TINY_BUDGET, max_seconds=None, undo_limit=None)
        assert again.status is Status.VERIFIED if brute_force(deal, False, [other])[0] else Status.UNWINNABLE
        return
    pytest.fail("no deck with a losing first action found")


def test_a_deal_that_cannot_be_won_has_no_lost_at():
    deal = tiny("2H 3S AS AS AH 2S AH 2S 2H 3H 3H 3S", CLASSIC, **SIZES["2s-3r-3c"][0])
    log = [Board(deal).notation(Board(deal).legal_moves()[0])]
    analysis = analyze(deal, log, max_nodes=TINY_BUDGET, max_seconds=None)
    assert analysis.status is Status.UNWINNABLE and analysis.lost_at is None
    assert any(p["position"] == 0 and p["status"] == "unwinnable" for p in analysis.probes)
    # With no action in effect (none played, or all undone), the position proved
    # unwinnable is the initial layout itself: the probe at position 0 says so too.
    for empty in ([], [log[0], "U"]):
        analysis = analyze(deal, empty, max_nodes=TINY_BUDGET, max_seconds=None)
        assert (analysis.status, analysis.lost_at, analysis.effective) == (Status.UNWINNABLE, None, 0)
        assert [(p["position"], p["status"]) for p in analysis.probes] == [(0, "unwinnable")]
        assert analysis.probes[0]["nodes"] == analysis.nodes > 0


# -- real deals ---------------------------------------------------------------------------------

ONE_SUIT = "SP1-S1C-AAAAABA"
FOUR_SUITS = "SP1-S4C-AAAAAAD"
BUDGET = 5_000_000


@pytest.fixture(scope="module")
def lines() -> dict[str, tuple[str, ...]]:
    """A verified line of each deal, as the catalog would hold it."""
    return {code: solve(code, max_nodes=BUDGET, max_seconds=None).solution for code in (ONE_SUIT, FOUR_SUITS)}


@pytest.mark.parametrize("code", [ONE_SUIT, FOUR_SUITS])
def test_hints_along_a_verified_line_win(code, lines):
    deal, line = Deal.from_code(code), lines[code]
    for k in (0, 20, 60, len(line) - 1):
        log = list(line[:k])
        analysis = analyze(deal, log, max_nodes=BUDGET, max_seconds=None)
        assert_line_wins(deal, log, analysis)
        assert analysis.source == "search" and analysis.nodes > 0 and analysis.code == code


@pytest.mark.parametrize("code", [ONE_SUIT, FOUR_SUITS])
def test_hints_after_detours_off_the_line_win(code, lines):
    deal, line = Deal.from_code(code), lines[code]
    rng = random.Random(f"detours {code}")
    verdicts = []
    for k in (20, 60):
        for detour in (1, 3):
            board = Board(deal)
            for action in line[:k]:
                board.push_notation(action)
            log = list(line[:k])
            for _ in range(detour):
                action = rng.choice(board.legal_moves())
                log.append(board.notation(action))
                board.push(action)
            analysis = analyze(deal, log, max_nodes=BUDGET, max_seconds=None, find_lost_at=False)
            verdicts.append(analysis.status)
            if analysis.status is Status.VERIFIED:
                assert_line_wins(deal, log, analysis)
    assert verdicts.count(Status.VERIFIED) >= 3


def test_the_hint_of_a_known_line_needs_no_search(lines):
    deal, line = Deal.from_code(FOUR_SUITS), lines[FOUR_SUITS]
    for k in (0, 30, len(line) - 1):
        analysis = analyze(deal, line[:k], known_line=line)
        assert (analysis.source, analysis.nodes, analysis.hint) == ("known-line", 0, line[k])
        assert analysis.line == line[k:]
        assert_line_wins(deal, list(line[:k]), analysis)
        assert hint_from_line(deal, line[:k], line) == line[k]


def test_the_known_line_is_found_after_a_detour_that_came_back_and_a_transposition(lines):
    deal, line = Deal.from_code(ONE_SUIT), lines[ONE_SUIT]
    k = 40
    board = Board(deal)
    for action in line[:k]:
        board.push_notation(action)
    detour = next(board.notation(a) for a in board.legal_moves() if board.notation(a) != line[k])
    # A detour, then its undo: the same position, the same hint.
    analysis = analyze(deal, [*line[:k], detour, "U"], known_line=line)
    assert (analysis.source, analysis.hint) == ("known-line", line[k])
    # Two actions of the line in the other order reach the same position: positions count, not texts.
    for i in range(k, len(line) - 2):
        swapped = [*line[:i], line[i + 1], line[i]]
        if replay(deal, swapped, undo_limit=0).error is None and (
                position_after(deal, swapped) == position_after(deal, line[: i + 2])):
            break
    else:
        pytest.fail("no two actions of the line commute")
    analysis = analyze(deal, swapped, known_line=line)
    assert (analysis.source, analysis.nodes, analysis.hint) == ("known-line", 0, line[i + 2])
    assert_line_wins(deal, swapped, analysis)


def position_after(deal: Deal, actions) -> tuple:
    board = Board(deal, undo_limit=0)
    for action in actions:
        board.push_notation(action)
    return tuple(tuple(column) for column in board.columns), tuple(board.down), board.dealt


def test_a_line_that_does_not_win_is_not_a_known_line(lines):
    deal, line = Deal.from_code(ONE_SUIT), lines[ONE_SUIT]
    assert hint_from_line(deal, line[:10], line[:-1]) is None  # stops short of the win
    assert hint_from_line(deal, line[:10], ["U", *line]) is None
    analysis = analyze(deal, line[:10], known_line=line[:-1], max_nodes=BUDGET, max_seconds=None)
    assert analysis.source == "search"
    assert_line_wins(deal, list(line[:10]), analysis)


def stuck_log(deal: Deal, seed: int) -> list[str]:
    """Random legal play until no legal action is left (never back to a position seen)."""
    rng = random.Random(seed)
    board = Board(deal, undo_limit=None)
    seen = {position_after(deal, [])}
    log: list[str] = []
    while not board.is_won():
        actions = board.legal_moves()
        rng.shuffle(actions)
        for action in actions:
            text = board.notation(action)
            board.push(action)
            key = (tuple(tuple(c) for c in board.columns), tuple(board.down), board.dealt)
            if key not in seen:
                seen.add(key)
                log.append(text)
                break
            board.pop()
        else:
            return log
    return log


def test_a_log_that_ends_stuck_is_never_verified():
    for n in range(3):
        deal = Deal.from_code(f"SP1-S4C-AAAAAA{'ABC'[n]}")
        log = stuck_log(deal, n)
        analysis = analyze(deal, log, max_nodes=2_000_000, max_seconds=None, find_lost_at=False)
        assert analysis.status is not Status.VERIFIED and analysis.hint is None
        board = Board(deal, undo_limit=None)
        for token in log:
            board.push_notation(token)
        if not board.legal_moves():
            assert analysis.status is Status.UNWINNABLE and analysis.nodes == 0


def test_lost_at_on_a_real_deal():
    deal = Deal.from_code("SP1-S1C-AAAAAAD")
    log = stuck_log(deal, 3)
    analysis = analyze(deal, log, max_nodes=BUDGET, max_seconds=None)
    assert analysis.status is Status.UNWINNABLE
    assert analysis.lost_at is not None, analysis.probes
    b = next(i for i, (index, _) in enumerate(effective_history(deal, log, False, 100)) if index == analysis.lost_at)
    before = analyze(deal, log[:b], max_nodes=BUDGET, max_seconds=None, find_lost_at=False)
    after = analyze(deal, log[: b + 1], max_nodes=BUDGET, max_seconds=None, find_lost_at=False)
    assert before.status is Status.VERIFIED and after.status is Status.UNWINNABLE
    assert replay(deal, [*log[:b], *analysis.lost_at_line], undo_limit=0).won
    assert analysis.nodes >= sum(p["nodes"] for p in analysis.probes)


def test_a_refused_action_is_reported_and_nothing_is_searched():
    analysis = analyze(FOUR_SUITS, "9>4 D 1>2")
    assert analysis.status is None and analysis.reason is None and analysis.nodes == 0
    error = analysis.replay.error
    assert (error.index, error.action) == (2, "1>2")
    assert analysis.replay.moves == 2 and analysis.effective == 2


def test_a_won_log_needs_no_search(lines):
    analysis = analyze(ONE_SUIT, lines[ONE_SUIT])
    assert analysis.replay.won and analysis.status is Status.VERIFIED and analysis.source == "won"
    assert analysis.hint is None and analysis.line == () and analysis.nodes == 0


def test_the_budget_gives_unknown_and_the_same_inputs_the_same_result(lines):
    log = list(lines[FOUR_SUITS][:10])
    analysis = analyze(FOUR_SUITS, log, max_nodes=1, max_seconds=None)
    assert analysis.status is Status.UNKNOWN and analysis.reason is Reason.NODES and analysis.nodes == 1
    assert analysis.tried == ("a beam of width 64 found no winning line (it was cut short by the node budget); "
                              "no proof was tried; 1 of 1 nodes spent")
    first = analyze(FOUR_SUITS, log, max_nodes=BUDGET, max_seconds=None)
    second = analyze(FOUR_SUITS, " ".join(log), max_nodes=BUDGET, max_seconds=None)
    assert (first.line, first.nodes) == (second.line, second.nodes)
    with pytest.raises(InvalidBudgetError):
        analyze(FOUR_SUITS, log, max_nodes=0)


def test_to_dict_is_json_with_enums_as_strings(lines):
    analysis = analyze(FOUR_SUITS, lines[FOUR_SUITS][:5], known_line=lines[FOUR_SUITS])
    data = json.loads(json.dumps(analysis.to_dict()))
    assert set(data) == {"code", "replay", "status", "reason", "hint", "line", "source", "lost_at", "lost_at_action",
                         "lost_at_line", "bracket", "effective", "tried", "nodes", "seconds", "max_nodes",
                         "max_seconds", "probes"}
    assert data["tried"] is None  # said only of an unknown position
    assert set(data["replay"]) == {"won", "moves", "score", "runs_removed", "stock_left", "error"}
    assert (data["status"], data["reason"], data["source"]) == ("verified", "won", "known-line")
    assert data["line"] == list(analysis.line) and data["hint"] == data["line"][0]


def count_plays(monkeypatch) -> list[int]:
    """Count the actions the rules engine plays (Board.play), from now on."""
    played = [0]
    play = Board.play

    def counting(self, action):
        played[0] += 1
        return play(self, action)

    monkeypatch.setattr(Board, "play", counting)
    return played


def test_the_log_is_replayed_once(lines, monkeypatch):
    line = lines[FOUR_SUITS]
    # A long log: detours undone, then the first 30 actions of the line.
    log = [token for action in line[:30] for token in (action, "U", action)]
    played = count_plays(monkeypatch)
    on_line = analyze(FOUR_SUITS, log, known_line=line)
    assert on_line.source == "known-line" and on_line.hint == line[30]
    # The log once (90 actions), then the rest of the line once, from the position reached.
    assert played[0] == len(log) + len(line) - 30
    played[0] = 0
    searched = analyze(FOUR_SUITS, log, max_nodes=BUDGET, max_seconds=None)
    assert searched.source == "search" and searched.status is Status.VERIFIED
    assert played[0] == len(log) + len(searched.line)
    assert_line_wins(Deal.from_code(FOUR_SUITS), log, searched)


def test_the_known_line_is_looked_up_only_for_an_accepted_log_and_before_search_only_before_a_search(lines):
    line = lines[FOUR_SUITS]
    calls: list[str] = []

    def known():
        calls.append("known")
        return line

    def before():
        calls.append("before")

    assert analyze(FOUR_SUITS, "9>4 D 1>2", known_line=known, before_search=before).replay.error is not None
    assert analyze(ONE_SUIT, lines[ONE_SUIT], known_line=known, before_search=before).source == "won"
    assert calls == []
    assert analyze(FOUR_SUITS, line[:10], known_line=known, before_search=before).source == "known-line"
    assert calls == ["known"]
    calls.clear()
    off = analyze(FOUR_SUITS, line[:10], known_line=lambda: None, before_search=before, max_nodes=BUDGET,
                  max_seconds=None)
    assert off.source == "search" and calls == ["before"]


def test_the_time_before_the_search_is_not_in_the_budget(lines):
    import time

    # Two seconds of loading before a search whose budget is half of one: the search still
    # gets its half second (counted, the budget would be spent before the first node),
    # and the seconds reported leave the loading out.
    analysis = analyze(FOUR_SUITS, lines[FOUR_SUITS][:100], max_nodes=BUDGET, max_seconds=0.5,
                       before_search=lambda: time.sleep(2.0))
    assert analysis.nodes > 0 and analysis.seconds < 1.5


def test_nothing_is_loaded_for_a_search_the_replay_left_no_time_for():
    """A log that takes the whole budget to replay ends unknown without calling
    before_search (which would load the engine for nothing)."""
    calls: list[str] = []  # a nanosecond: spent by any replay
    analysis = analyze(FOUR_SUITS, "9>4", max_seconds=1e-9, before_search=lambda: calls.append("loaded"))
    assert (analysis.status, analysis.reason, analysis.nodes, calls) == (Status.UNKNOWN, Reason.SECONDS, 0, [])


# -- following hints never cycles -------------------------------------------------------------

#: Issue 31: the position where hints alternated 4>7 and 7>4 forever (each line won by itself).
CYCLE = ("SP1-S4C-NJ73FM7", "10>5 6>9 10>7 8>3 2>8 D 2>7 2>9 2>6 2>5 2>1 2>6 3>10 3>4 3>8 1>4 3>1 3>8 3>2/1 3>4 "
                            "2>3 8>6 8>3 8>1 8>2/1 10>3 9>4")
#: Nodes of each hint while following them: the default budget, without the seconds.
FOLLOW_NODES = 60_000_000


def path_positions(deal: Deal, log: list[str]) -> list[tuple]:
    """The positions of the log's effective history, the initial layout first (an independent replay)."""
    board = Board(deal, undo_limit=0)
    seen = [position_after(deal, [])]
    for _, action in effective_history(deal, log, False, None):
        board.push_notation(action)
        seen.append((tuple(tuple(c) for c in board.columns), tuple(board.down), board.dealt))
    return seen


def follow_hints(deal: Deal, log: list[str], most: int) -> tuple[list[str], Analysis]:
    """Play the hint of each position from the log's on, until there is none (or ``most`` were played)."""
    log = list(log)
    for _ in range(most):
        analysis = analyze(deal, log, max_nodes=FOLLOW_NODES, max_seconds=None, find_lost_at=False)
        if analysis.hint is None:
            return log, analysis
        log.append(analysis.hint)
    return log, analysis


def test_a_hint_line_never_passes_through_the_history():
    code, text = CYCLE
    deal, log = Deal.from_code(code), text.split()
    for _ in range(2):  # before 4>7 was a hint, and after it was played: 7>4 came back
        analysis = analyze(deal, log, max_nodes=FOLLOW_NODES, max_seconds=None, find_lost_at=False)
        assert_line_wins(deal, log, analysis)
        history = set(path_positions(deal, log)[:-1])
        assert not history & set(path_positions(deal, [*log, *analysis.line])[len(log) + 1:])
        log.append(analysis.hint)


@pytest.mark.slow
def test_following_hints_wins_and_never_repeats_a_position():
    code, text = CYCLE
    deal = Deal.from_code(code)
    log, analysis = follow_hints(deal, text.split(), 400)
    assert analysis.status is Status.VERIFIED and analysis.source == "won"
    positions = path_positions(deal, log)
    assert len(set(positions)) == len(positions)


def test_a_known_line_back_through_the_history_is_not_the_hint(lines):
    """Along the known line, a move played and then moved back: the rest of the line passes
    through the position the game has been in, so the hint comes from a search whose line
    does not (a position off the line), or, if the search finds none, from the known line."""
    deal, line = Deal.from_code(FOUR_SUITS), lines[FOUR_SUITS]
    board = Board(deal, undo_limit=0)
    for k, action in enumerate(line):
        before = position_after(deal, line[:k])
        played = board.push_notation(action)
        back = f"{played.dst}>{played.src}/{played.count}" if hasattr(played, "dst") else None
        if back is not None and replay(deal, [*line[: k + 1], back], undo_limit=0).error is None and (
                position_after(deal, [*line[: k + 1], back]) == before):
            break
    else:
        pytest.fail("no move of the line can be moved back")
    log = [*line[: k + 1], back]
    assert hint_from_line(deal, line[:k], line) == line[k]  # the same position, before the move was played
    assert hint_from_line(deal, log, line) is None
    analysis = analyze(deal, log, known_line=line, max_nodes=BUDGET, max_seconds=None, find_lost_at=False)
    assert_line_wins(deal, log, analysis)
    if analysis.source == "search":
        assert position_after(deal, line[: k + 1]) not in path_positions(deal, [*log, *analysis.line])[len(log) + 1:]
    else:
        assert (analysis.source, analysis.line) == ("known-line", tuple(line[k:]))
