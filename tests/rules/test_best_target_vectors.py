"""data/best_target_vectors.json: what the code answers now, true to RULES.md §13.6 Best column (auto-place).

The second port below is written from the text of the repository's RULES.md (RULES.md
§5.1 Groups, RULES.md §5.2 Where a group may go and RULES.md §13.6 Best column
(auto-place)), not from spider_solver/rules/board.py, as a frontend in another language
would write it. It reads a position as plain lists of cards in short text form, and it
ranks every candidate move with one sort key, where the engine and the pseudo-code of
RULES.md go step by step: two formulations of the same prose that must agree.
"""

import importlib.util
import json
from pathlib import Path

from hypothesis import given, settings

from spider_solver.rules.board import Board
from spider_solver.rules.codes import GameCode
from spider_solver.rules.deal import Deal
from spider_solver.rules.notation import Move
from spider_solver.rules.variant import CLASSIC, RELAXED
from tests.rules.test_properties import LINES, deals, random_line

DATA = Path(__file__).resolve().parents[2] / "data"
VECTORS = json.loads((DATA / "best_target_vectors.json").read_text(encoding="utf-8"))


def load_script():
    spec = importlib.util.spec_from_file_location("make_best_target_vectors", DATA / "make_best_target_vectors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def board_of(position):
    """The board a vector's position is on: its code's deal, then its actions."""
    board = Board(Deal.from_code(position["code"]))
    for token in position["actions"].split():
        board.push_notation(token)
    return board


def test_file_is_what_the_script_writes_now():
    """If this fails, auto-place changed (a bug, or RULES.md changed) or the file is stale:
    python data/make_best_target_vectors.py."""
    assert load_script().main(["--check"]) == 0


def test_every_suit_count_and_rule_shows_every_case_it_can():
    script = load_script()
    assert VECTORS["cases"] == script.CASES
    shown = {}
    for position in VECTORS["positions"]:
        code = GameCode.parse(position["code"])
        assert str(code) == position["code"]
        for query in position["queries"]:
            shown.setdefault((code.suits, code.rule), set()).update(query["cases"])
    assert sorted(shown) == sorted([(1, CLASSIC), (2, CLASSIC), (2, RELAXED), (4, CLASSIC), (4, RELAXED)])
    for (suits, rule), cases in shown.items():
        assert cases == set(script.possible(suits, rule)), (suits, rule)
    # Under Relaxed, mixed groups are shown; under Classic they cannot move.
    assert "mixed suits" in shown[(4, RELAXED)] and "mixed suits" not in shown[(4, CLASSIC)]


def test_the_engine_gives_every_answer():
    for position in VECTORS["positions"]:
        board = board_of(position)
        for query in position["queries"]:
            move = board.best_move(query["column"], query["count"])
            expected = None if query["target"] is None else Move(query["column"], query["target"], query["size"])
            assert move == expected, (position["code"], position["actions"], query)
            assert board.best_target(query["column"], query["count"]) == query["target"]
            size = query["count"] if query["count"] is not None else board.movable(query["column"])
            assert board.targets(query["column"], size) == query["targets"]


# -- a second port, from the text of RULES.md ----------------------------------------

RANKS = "A23456789TJQK"  # RULES.md §2 Cards: the short text form, rank character then suit letter


def rank(card):
    return RANKS.index(card[0]) + 1


def suit(card):
    return card[1]


class Port:
    """A position as a frontend holds it: columns of short-form cards (deepest first), face-down counts."""

    def __init__(self, columns, down, classic):
        self.columns, self.down, self.classic = columns, down, classic

    def is_group(self, c, m):
        """RULES.md §5.1 Groups: the last m >= 1 cards, face up, each one rank lower (Classic: same suit)."""
        cards = self.columns[c - 1]
        if m < 1 or m > len(cards) - self.down[c - 1]:
            return False
        tail = cards[len(cards) - m :]
        for upper, lower in zip(tail, tail[1:], strict=False):
            if rank(lower) != rank(upper) - 1 or (self.classic and suit(lower) != suit(upper)):
                return False
        return True

    def movable(self, c):
        m = 0
        while self.is_group(c, m + 1):
            m += 1
        return m

    def may_go(self, c, m, d):
        """RULES.md §5.2 Where a group may go: another column, empty or ending one rank above the group's first card."""
        if d == c or not self.is_group(c, m):
            return False
        target = self.columns[d - 1]
        return not target or rank(target[-1]) == rank(self.columns[c - 1][-m]) + 1

    def targets(self, c, m):
        return [d for d in range(1, len(self.columns) + 1) if self.may_go(c, m, d)]

    def step(self, c, m, d):
        """The step (RULES.md §13.6 Best column (auto-place)) of m cards from c onto d; None: never proposed."""
        target = self.columns[d - 1]
        if not target:
            return None if m == len(self.columns[c - 1]) else 3  # never a whole column onto an empty one
        return 1 if suit(target[-1]) == suit(self.columns[c - 1][-m]) else 2

    def best_move(self, c, n):
        """(target, size) or None: the candidate with the smallest key."""
        if n is None:
            # The largest size with a card to go onto; then the largest group onto an empty column.
            sizes = range(1, self.movable(c) + 1)
            keys = [((0, -m, step, d), d, m) for m in sizes for d in self.targets(c, m)
                    if (step := self.step(c, m, d)) in (1, 2)]
            keys += [((1, 0, 3, d), d, m) for m in sizes[-1:] for d in self.targets(c, m) if self.step(c, m, d) == 3]
        else:
            keys = [((step, d), d, n) for d in self.targets(c, n) if (step := self.step(c, n, d)) is not None]
        if not keys:
            return None
        _, d, m = min(keys)
        return d, m


def port_of(board):
    """The position in the form the port reads: short-form text only, as in the vectors' positions."""
    columns = [[str(card) for card in column] for column in board.columns]
    return Port(columns, list(board.down), board.variant.rule == CLASSIC)


def test_an_independent_port_reproduces_every_vector():
    for position in VECTORS["positions"]:
        port = port_of(board_of(position))
        for query in position["queries"]:
            answer = port.best_move(query["column"], query["count"])
            assert answer == (None if query["target"] is None else (query["target"], query["size"])), query
            size = query["count"] if query["count"] is not None else port.movable(query["column"])
            assert port.targets(query["column"], size) == query["targets"]


def port_cases(port, column, count, answer):
    """The cases of a query, from their definitions in data/make_best_target_vectors.py, on the port's position."""
    cards = port.columns[column - 1]
    largest, height = port.movable(column), len(cards)
    asked = largest if count is None else count
    movable = 1 <= asked <= largest
    empties = [d for d in range(1, len(port.columns) + 1) if d != column and not port.columns[d - 1]]
    found = set()
    if answer is None:
        found.add("empty source" if count is None and height == 0 else "fits nowhere" if movable else "not a group")
        if movable and asked == height and empties:
            found.add("whole column stays")
        return found
    target, size = answer
    onto = port.columns[target - 1]
    if not onto:
        found.add("empty column")
    else:
        step = 1 if suit(onto[-1]) == suit(cards[-size]) else 2
        found.add("same suit" if step == 1 else "other suit")
        if step == 1 and any(port.step(column, size, d) == 2 for d in port.targets(column, size)):
            found.add("same suit before other suit")
        if step == 2 and count is None and any(
            port.step(column, smaller, d) == 1 for smaller in range(1, size) for d in port.targets(column, smaller)
        ):
            found.add("larger group before same suit")
        if empties:
            found.add("card before empty column")
            if size == height:
                found.add("whole column onto a card")
    step = port.step(column, size, target)
    if any(d != target and port.step(column, size, d) == step for d in port.targets(column, size)):
        found.add("tie")
    if len({suit(card) for card in cards[height - size :]}) > 1:
        found.add("mixed suits")
    if count is None and size < largest:
        found.add("smaller group")
    return found


def test_every_case_named_in_the_file_holds():
    for position in VECTORS["positions"]:
        port = port_of(board_of(position))
        for query in position["queries"]:
            answer = None if query["target"] is None else (query["target"], query["size"])
            assert set(query["cases"]) == port_cases(port, query["column"], query["count"], answer), query


@settings(max_examples=40, deadline=None)
@given(deals(), LINES)
def test_the_port_and_the_engine_agree_over_random_play(deal, choices):
    board = Board(deal)
    random_line(board, choices, undo=False)
    port = port_of(board)
    for c in range(1, board.variant.columns + 1):
        assert port.movable(c) == board.movable(c)
        for n in [None, *range(1, min(len(board.columns[c - 1]), board.movable(c) + 1) + 1)]:
            move = board.best_move(c, n)
            assert port.best_move(c, n) == (None if move is None else (move.dst, move.count)), (c, n)


def test_the_port_reads_the_rules_examples():
    port = port_of(Board(Deal.from_code("SP1-S4C-AAAAAAD")))
    assert port.targets(9, 1) == [4, 5]
    assert port.best_move(9, None) == (5, 1)
    assert port.best_move(10, None) == (2, 1)
    assert port.best_move(2, None) is None
