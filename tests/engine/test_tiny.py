"""Tiny variants, searched to the end: the solver's verdict against a brute force.

Shrunken games (2 to 4 ranks, 2 to 8 runs, 3 or 4 columns) are small enough for a
plain-Python depth-first search over the reference :class:`Board` to visit every
reachable position. For many shuffled decks, under both rules and with
``deal_on_empty`` off and on, ``solve`` must say "verified" exactly when the brute
force finds a win and "unwinnable" exactly when it does not; "unknown" never
happens at these sizes with the budget given here. A verified line must replay
to a win on the reference engine.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator, Sequence

import pytest

from spider_solver.budget import Budget
from spider_solver.engine.beam import Exhaustive, beam
from spider_solver.engine.game import Game
from spider_solver.engine.types import MODE_ALL, MODE_PROOF
from spider_solver.outcomes import BeamOutcome
from spider_solver.rules import Board, Deal, Variant, parse_cards, replay
from spider_solver.rules.variant import CLASSIC, RELAXED
from spider_solver.verify import solve

#: Far more than any tiny deal needs (the largest seen take about 1.4 million nodes).
BUDGET = 5_000_000


def position_of(board: Board) -> tuple:
    """A position as the brute force tells positions apart: the cards, the face-down
    counts and the deals made (score and move counter do not change what can be reached)."""
    return tuple(tuple(column) for column in board.columns), tuple(board.down), board.dealt


def brute_force(deal: Deal, deal_on_empty: bool, start: Sequence[str] = (),
                excluded: Collection[tuple] = ()) -> tuple[bool, int]:
    """(won, positions seen, counting ``excluded``): depth-first over every legal action,
    each position once.

    The search starts from the position the actions ``start`` (no undo) reach, the
    initial layout by default, and never enters a position of ``excluded``
    (:func:`position_of`). Stops at the first win, so the count is the whole reachable
    game only when there is no win.
    """
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=None)
    for action in start:
        board.push_notation(action)
    if board.is_won():
        return True, 1

    key = position_of
    seen = {key(board), *excluded}
    stack = [iter(board.legal_moves())]
    while stack:
        action = next(stack[-1], None)
        if action is None:
            stack.pop()
            if stack:
                board.pop()
            continue
        board.push(action)
        if board.is_won():
            return True, len(seen)
        k = key(board)
        if k in seen:
            board.pop()
            continue
        seen.add(k)
        stack.append(iter(board.legal_moves()))
    return False, len(seen)


def check_verdict(deal: Deal, deal_on_empty: bool, winnable: bool) -> None:
    result = solve(deal, max_nodes=BUDGET, max_seconds=None, deal_on_empty=deal_on_empty)
    where = f"{deal.variant}, deal_on_empty={deal_on_empty}, deck {deal.text()!r}"
    assert result.status != "unknown", f"unknown ({result.reason}, {result.nodes} nodes) for {where}"
    assert result.status == ("verified" if winnable else "unwinnable"), where
    if winnable:
        replayed = replay(deal, result.solution, deal_on_empty=deal_on_empty, undo_limit=0)
        assert replayed.won and replayed.error is None, where
        assert replayed.moves == result.moves == len(result.solution)
        assert replayed.score == result.score
        assert result.reason == "won"
    else:
        assert result.solution == () and result.moves is None and result.score is None
        assert result.reason == "exhausted"


def tiny(text: str, rule: str = CLASSIC, **size) -> Deal:
    """A tiny explicit deal: its cards in deck order and the variant's size."""
    return Deal(tuple(parse_cards(text)), Variant(rule=rule, **size))


# Two suits, ranks A-3, four runs, three columns of one card, three deals.
SMALL_2 = dict(suits=2, ranks=3, runs=4, columns=3, layout=3)
# Two suits, ranks A-4, two runs, three columns (two of two cards, one of one), one deal.
NARROW_2 = dict(suits=2, ranks=4, runs=2, columns=3, layout=5)


# -- named examples ---------------------------------------------------------------------


def test_a_known_win():
    # The board tests' one-suit game: A♠ (down) 3♠ | 3♠ (down) 2♠, one deal A♠ 2♠;
    # 2>1 D 1>2 wins.
    deal = Deal.from_columns(["AS 3S", "3S 2S"], ["AS 2S"], Variant(suits=1, ranks=3, runs=2, columns=2, layout=4))
    assert brute_force(deal, False)[0]
    check_verdict(deal, False, True)
    assert solve(deal, max_nodes=BUDGET, max_seconds=None).solution == ("2>1", "D", "1>2")


def test_no_legal_action_at_all_is_unwinnable():
    # Four suits, ranks A-2, no stock: every column ends in a 2 (the top rank), so
    # nothing can move and nothing can be dealt.
    deal = Deal.from_columns(["AS AH 2S", "AD AC 2H", "2D 2C"], [],
                             Variant(suits=4, ranks=2, runs=4, columns=3, layout=8))
    assert Board(deal).legal_moves() == []
    assert brute_force(deal, True) == (False, 1)
    check_verdict(deal, False, False)
    check_verdict(deal, True, False)


#: Unwinnable under both rules, even when dealing onto an empty column is allowed.
UNWINNABLE = "2H 3S AS AS AH 2S AH 2S 2H 3H 3H 3S"


@pytest.mark.parametrize("rule", [CLASSIC, RELAXED])
@pytest.mark.parametrize("deal_on_empty", [False, True])
def test_a_known_unwinnable_deal(rule, deal_on_empty):
    deal = tiny(UNWINNABLE, rule, **SMALL_2)
    won, seen = brute_force(deal, deal_on_empty)
    assert not won and seen > 100  # a real search, not a dead end at the start
    check_verdict(deal, deal_on_empty, False)


#: Won only when a deal may go onto an empty column.
ONLY_WITH_DEAL_ON_EMPTY = "2S 4H 2H 4S 3S AH AS 3H"


def test_a_deal_won_only_with_deal_on_empty():
    deal = tiny(ONLY_WITH_DEAL_ON_EMPTY, **NARROW_2)
    assert brute_force(deal, False)[0] is False
    assert brute_force(deal, True)[0] is True
    check_verdict(deal, False, False)
    check_verdict(deal, True, True)
    line = solve(deal, max_nodes=BUDGET, max_seconds=None, deal_on_empty=True).solution
    # Without the option the same line is refused at a deal.
    refused = replay(deal, line, deal_on_empty=False, undo_limit=0)
    assert not refused.won and refused.error is not None and refused.error.action == "D"


#: Four suits, ranks A-4, four columns: winnable, but the search-mode beams run
#: out of moves without a win; the breadth-first search of every move finds it.
NEEDS_EVERY_MOVE = "3D 4C 3S 3C 2S 2D 4H 4D 2H AC AD 2C 4S AH AS 3H"


def test_a_win_that_the_narrow_move_set_misses():
    deal = tiny(NEEDS_EVERY_MOVE, suits=4, ranks=4, runs=4, columns=4, layout=4)
    result = solve(deal, max_nodes=BUDGET, max_seconds=None, deal_on_empty=True)
    assert result.status == "verified"
    modes = [(a.mode, a.outcome) for a in result.attempts]
    assert ("search", "exhausted") in modes and modes[-1] == ("proof", "won")
    replayed = replay(deal, result.solution, deal_on_empty=True, undo_limit=0)
    assert replayed.won


# -- random tiny deals --------------------------------------------------------------------

#: name: (variant size, decks). About a tenth to a half of the decks of the 3-column
#: sizes are unwinnable; the 4-column ones are almost always won.
SIZES = {
    "1s-3r-3c": (dict(suits=1, ranks=3, runs=2, columns=3, layout=3), 12),
    "1s-4r-3c": (dict(suits=1, ranks=4, runs=4, columns=3, layout=4), 12),
    "2s-3r-3c": (SMALL_2, 12),
    "2s-4r-3c": (NARROW_2, 12),
    "2s-4r-3c-deep": (dict(suits=2, ranks=4, runs=4, columns=3, layout=7), 12),
    "4s-2r-3c": (dict(suits=4, ranks=2, runs=8, columns=3, layout=4), 8),
    "4s-3r-3c": (dict(suits=4, ranks=3, runs=4, columns=3, layout=3), 12),
    "4s-3r-3c-deep": (dict(suits=4, ranks=3, runs=4, columns=3, layout=6), 12),
    "4s-3r-4c": (dict(suits=4, ranks=3, runs=4, columns=4, layout=8), 8),
    "4s-4r-4c": (dict(suits=4, ranks=4, runs=4, columns=4, layout=4), 3),
}


@pytest.mark.parametrize("name", sorted(SIZES))
def test_solver_agrees_with_the_brute_force(name):
    size, decks = SIZES[name]
    rng = random.Random(f"tiny {name}")
    for _ in range(decks):
        deck = Variant(**size).unshuffled()
        rng.shuffle(deck)
        text = " ".join(str(card) for card in deck)
        won = {}
        for rule in ([CLASSIC] if size["suits"] == 1 else [CLASSIC, RELAXED]):
            deal = tiny(text, rule, **size)
            for deal_on_empty in (False, True):
                won[rule, deal_on_empty] = winnable = brute_force(deal, deal_on_empty)[0]
                check_verdict(deal, deal_on_empty, winnable)
        # RULES.md: a game won without deal_on_empty is won with it; Classic wins are Relaxed wins.
        for (rule, deal_on_empty), winnable in won.items():
            if winnable and not deal_on_empty:
                assert won[rule, True]
            if winnable and rule == CLASSIC and (RELAXED, deal_on_empty) in won:
                assert won[RELAXED, deal_on_empty]


# -- the proof's move set, once the stock is empty ---------------------------------------------


def stock_empty_positions(deal: Deal, deal_on_empty: bool, rng: random.Random, count: int) -> list[list[str]]:
    """Up to ``count`` logs of random play that end with the stock empty and the game not won."""
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=None)
    found: list[list[str]] = []
    for log in random_play(board, rng, 200):
        if board.deals_left == 0 and not board.is_won():
            found.append(log)
            if len(found) == count:
                break
    return found


def board_after(deal: Deal, deal_on_empty: bool, log: Sequence[str]) -> Board:
    """The position ``log`` reaches from the deal's initial layout."""
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=None)
    for token in log:
        board.push_notation(token)
    return board


def random_play(board: Board, rng: random.Random, steps: int) -> Iterator[list[str]]:
    """Plays up to ``steps`` random legal actions on ``board``, until stuck or won; yields
    the log so far (a copy) after each."""
    log: list[str] = []
    for _ in range(steps):
        actions = board.legal_moves()
        if not actions or board.is_won():
            return
        action = rng.choice(actions)
        log.append(board.notation(action))
        board.push(action)
        yield list(log)


@pytest.mark.parametrize("name", ["2s-4r-3c", "4s-3r-4c", "4s-4r-4c"])
def test_the_proof_move_set_decides_as_every_move_does(name):
    """From positions with the stock empty, the exhaustive search over ``MODE_PROOF`` wins
    or proves exactly when the brute force says, as ``MODE_ALL`` does, on at most as
    many nodes when it proves, and on fewer in all: the moves it leaves out (moves that
    only rename columns) are there to leave out at these sizes."""
    size, decks = SIZES[name]
    rng = random.Random(f"proof moves {name}")
    nodes = {MODE_ALL: 0, MODE_PROOF: 0}
    checked = 0
    for n in range(2 * decks):
        deck = Variant(**size).unshuffled()
        rng.shuffle(deck)
        deal = tiny(" ".join(str(card) for card in deck), CLASSIC if n % 2 else RELAXED, **size)
        deal_on_empty = n % 3 == 0
        for log in stock_empty_positions(deal, deal_on_empty, rng, 4):
            board = board_after(deal, deal_on_empty, log)
            won = brute_force(deal, deal_on_empty, log)[0]
            attempts = {mode: beam(Game.from_board(board), Exhaustive(every_action=mode == MODE_ALL), Budget(BUDGET))
                        for mode in nodes}
            for attempt in attempts.values():
                assert attempt.outcome is (BeamOutcome.WON if won else BeamOutcome.EXHAUSTED), (deal.text(), log)
            if not won:
                assert attempts[MODE_PROOF].nodes <= attempts[MODE_ALL].nodes
            for mode, attempt in attempts.items():
                nodes[mode] += attempt.nodes
            checked += 1
    assert checked >= decks
    assert nodes[MODE_PROOF] < nodes[MODE_ALL], nodes


# -- the proof's reductions (search.py, "Reductions") -------------------------------------------


def random_positions(deal: Deal, deal_on_empty: bool, rng: random.Random, count: int) -> list[list[str]]:
    """``count`` logs of random play of random lengths (the stock full, part dealt or empty)."""
    logs = []
    for _ in range(count):
        board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=None)
        played = list(random_play(board, rng, rng.randrange(30)))
        log = played[-1] if played else []
        if not board.is_won():
            logs.append(log)
    return logs


@pytest.mark.parametrize("name", ["1s-4r-3c", "2s-4r-3c", "2s-4r-3c-deep", "4s-2r-3c", "4s-3r-3c-deep", "4s-3r-4c"])
def test_the_proof_reductions_keep_every_position(name):
    """Leaving out the second order of two commuting moves and the moves that go straight
    back loses no position: from random positions, with and without the reductions, under
    both move sets, the exhaustive search keeps the same number of positions at the same
    levels (the largest level too), wins at the same level or proves the same, as the brute
    force says, on at most as many nodes, and on fewer in all."""
    size, decks = SIZES[name]
    rng = random.Random(f"proof reductions {name}")
    nodes = {False: 0, True: 0}
    checked = 0
    for n in range(decks):
        deck = Variant(**size).unshuffled()
        rng.shuffle(deck)
        deal = tiny(" ".join(str(card) for card in deck), CLASSIC if n % 2 or size["suits"] == 1 else RELAXED,
                    **size)
        deal_on_empty = n % 3 == 0
        for log in random_positions(deal, deal_on_empty, rng, 6):
            board = board_after(deal, deal_on_empty, log)
            won = brute_force(deal, deal_on_empty, log)[0]
            game = Game.from_board(board, deal_on_empty=deal_on_empty)
            for mode in (MODE_ALL, MODE_PROOF):
                full, reduced = (beam(game, Exhaustive(every_action=mode == MODE_ALL, reductions=prune), Budget(BUDGET))
                                 for prune in (False, True))
                where = (deal.text(), deal_on_empty, log, mode)
                for attempt in (full, reduced):
                    assert attempt.outcome is (BeamOutcome.WON if won else BeamOutcome.EXHAUSTED), where
                assert reduced.levels == full.levels, where
                assert len(reduced.moves) == len(full.moves), where
                if not won:
                    assert (reduced.tt_stored, reduced.peak_level) == (full.tt_stored, full.peak_level), where
                    assert reduced.nodes <= full.nodes, where
                else:
                    after = board.copy()
                    for action in game.actions(reduced.moves):
                        after.push(action)
                    assert after.is_won(), where
                nodes[False] += full.nodes
                nodes[True] += reduced.nodes
            checked += 1
    assert checked >= decks
    assert nodes[True] < nodes[False], nodes

