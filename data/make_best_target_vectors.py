"""Write data/best_target_vectors.json: where auto-place sends a group, in real positions.

Usage:

    python data/make_best_target_vectors.py           # rewrite data/best_target_vectors.json
    python data/make_best_target_vectors.py --check   # exit 1 if the file differs from what the code answers now

Frontends in other languages test their port of RULES.md §13.6 Best column
(auto-place) against this file. Each position is a game code and the actions played
from its deal (canonical notation, RULES.md §11 Action notation); each query asks
``best_move(column, count)`` there (``count`` null: a double-click on the column) and
gives the answer's target column and group size (both null when the group goes
nowhere), with ``targets``, the placement help of RULES.md §13.1 Placement help for
the same group (``count``, or ``movable(column)`` when it is null), and ``cases``,
the rules of the order that the query shows.

The positions come from one line of play per game code, chosen by a fixed greedy
policy that looks only at the legal moves (never at auto-place), with ties broken by
SplitMix64 from the deal number; along each line the first position that shows a case
not yet shown for that suit count and rule is kept, with every query it holds. So
the output is deterministic, and tests/rules/test_best_target_vectors.py fails if the
file and the code disagree.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from spider_solver.rules.board import Board
from spider_solver.rules.codes import GameCode
from spider_solver.rules.deal import Deal
from spider_solver.rules.notation import Move
from spider_solver.rules.variant import CLASSIC, RELAXED

sys.path.insert(0, str(Path(__file__).resolve().parent))  # vector_file and greedy_line, beside this script
from greedy_line import greedy_line  # noqa: E402
from vector_file import write_or_check  # noqa: E402

PATH = Path(__file__).with_name("best_target_vectors.json")

#: Suit counts and rules covered, and the deal numbers whose lines are searched for each.
VARIANTS = [(1, CLASSIC), (2, CLASSIC), (2, RELAXED), (4, CLASSIC), (4, RELAXED)]
DEAL_NUMBERS = range(20)
#: The longest line of play searched.
MAX_ACTIONS = 40

#: The rules of RULES.md §13.6 Best column (auto-place) a query can show, in the order listed.
CASES = [
    "same suit",                    # step 1: onto a card one rank higher of the group's first card's suit
    "same suit before other suit",  # ... while a card of another suit was also one rank higher
    "other suit",                   # step 2
    "card before empty column",     # step 1 or 2 while an empty column was open too
    "empty column",                 # step 3
    "tie",                          # two or more columns in the winning step: the lowest-numbered
    "mixed suits",                  # the group moved mixes suits (Relaxed)
    "whole column onto a card",     # the group is the whole column, an empty column is open: it goes onto a card
    "whole column stays",           # the group is the whole column, an empty column is open, no card: null
    "smaller group",                # count null: a smaller group than movable(column) goes onto a card
    "larger group before same suit",  # count null: a larger group goes onto another suit, a smaller one had its suit
    "fits nowhere",                 # a group that can move, but has no target: null
    "not a group",                  # count larger than movable(column): null
    "empty source",                 # count null on an empty column: null
]


#: Cases that only a position with an empty column can show, and those that also need a
#: column with no face-down card: positions without one are not asked (only to search faster).
NEED_AN_EMPTY_COLUMN = {"card before empty column", "empty column", "empty source", "whole column onto a card",
                        "whole column stays"}
NEED_A_WHOLE_GROUP = {"whole column onto a card", "whole column stays"}


def could_show(board: Board, missing: set[str]) -> bool:
    """False if the position cannot show any case of ``missing``."""
    if not any(not pile for pile in board.columns):
        missing = missing - NEED_AN_EMPTY_COLUMN
    if not any(pile and down == 0 for pile, down in zip(board.columns, board.down, strict=True)):
        missing = missing - NEED_A_WHOLE_GROUP
    return bool(missing)


def possible(suits: int, rule: str) -> list[str]:
    """The cases a suit count and rule can show: one suit has no other suit, Classic no mixed group."""
    ruled_out = set()
    if suits == 1:
        ruled_out |= {"same suit before other suit", "other suit", "mixed suits", "larger group before same suit"}
    if rule == CLASSIC:
        ruled_out.add("mixed suits")
    return [case for case in CASES if case not in ruled_out]


def cases(board: Board, column: int, count: int | None, move: Move | None) -> list[str]:
    """The rules of the order that the answer ``move`` to ``best_move(column, count)`` shows."""
    found = set()
    largest = board.movable(column)
    pile = board.columns[column - 1]
    empties = [d for d, other in enumerate(board.columns, 1) if not other and d != column]
    if move is None:
        if count is None and largest == 0:
            found.add("empty source")
        elif count is not None and count > largest:
            found.add("not a group")
        else:
            found.add("fits nowhere")
        size = largest if count is None else count
    else:
        assert move.count is not None  # best_move fills the size in
        size = move.count
        targets = board.targets(column, size)
        first = pile[-size]
        same = [d for d in targets if board.columns[d - 1] and board.columns[d - 1][-1].suit == first.suit]
        other = [d for d in targets if board.columns[d - 1] and board.columns[d - 1][-1].suit != first.suit]
        empty = [d for d in targets if not board.columns[d - 1]]
        if move.dst in same:
            found.add("same suit")
            if other:
                found.add("same suit before other suit")
            step = same
        elif move.dst in other:
            found.add("other suit")
            step = other
        else:
            found.add("empty column")
            step = empty
        if move.dst not in empty and empties:
            found.add("card before empty column")
        if len(step) > 1:
            found.add("tie")
        if len({card.suit for card in pile[-size:]}) > 1:
            found.add("mixed suits")
        if count is None and size < largest:
            found.add("smaller group")
        if count is None and move.dst in other and any(
            board.columns[d - 1] and board.columns[d - 1][-1].suit == pile[-smaller].suit
            for smaller in range(1, size) for d in board.targets(column, smaller)
        ):
            found.add("larger group before same suit")
    if 1 <= size <= largest and size == len(pile) and empties:
        found.add("whole column stays" if move is None else "whole column onto a card")
    return [case for case in CASES if case in found]


def queries(board: Board) -> list[dict]:
    """Every query a position is searched for: each column double-clicked, and each count up to one past its group."""
    found = []
    for column in range(1, board.variant.columns + 1):
        height = len(board.columns[column - 1])
        for count in [None, *range(1, min(height, board.movable(column) + 1) + 1)]:
            move = board.best_move(column, count)
            size = count if count is not None else board.movable(column)
            found.append({
                "column": column,
                "count": count,
                "target": None if move is None else move.dst,
                "size": None if move is None else move.count,
                "targets": board.targets(column, size),
                "cases": cases(board, column, count, move),
            })
    return found


class ScanBoard(Board):
    """A board that remembers its placement help until the position changes: only to search faster.

    The answers written to the file are asked again of a plain :class:`Board`.
    """

    def __init__(self, deal: Deal) -> None:
        super().__init__(deal)
        self._targets: dict[tuple[int, int], list[int]] = {}

    def targets(self, column: int, count: int) -> list[int]:
        if (column, count) not in self._targets:
            self._targets[column, count] = super().targets(column, count)
        return list(self._targets[column, count])

    def push(self, action):
        self._targets.clear()
        return super().push(action)

    def pop(self) -> None:
        self._targets.clear()
        super().pop()


def line(code: GameCode):
    """Yield (actions so far, board) along the greedy line of ``code``, from its first position."""
    return greedy_line(ScanBoard(Deal.from_code(code)), code.number, MAX_ACTIONS)


def build() -> dict:
    """Everything the file holds, in order."""
    positions = []
    for suits, rule in VARIANTS:
        wanted = set(possible(suits, rule))
        shown: set[str] = set()
        for number in DEAL_NUMBERS:
            code = GameCode(suits, rule, number)
            for actions, board in line(code):
                if not could_show(board, wanted - shown):
                    continue
                answers = queries(board)
                new = {case for query in answers for case in query["cases"]} - shown
                if new:
                    shown |= new
                    played = Board(Deal.from_code(code))
                    for token in actions:
                        played.push_notation(token)
                    positions.append({"code": str(code), "actions": " ".join(actions), "queries": queries(played)})
                if shown == wanted:
                    break
            if shown == wanted:
                break
    return {
        "about": "Auto-place test vectors; see RULES.md §13.6 Best column (auto-place). "
                 "Made by data/make_best_target_vectors.py.",
        "cases": CASES,
        "positions": positions,
    }


def render() -> str:
    """The file's text: stable key order, one query per line."""
    data = build()
    lines = [
        "{",
        f'  "about": {json.dumps(data["about"], ensure_ascii=False)},',
        f'  "cases": {json.dumps(data["cases"])},',
        '  "positions": [',
    ]
    for p, position in enumerate(data["positions"]):
        lines.append("    {")
        lines.append(f'      "code": {json.dumps(position["code"])},')
        lines.append(f'      "actions": {json.dumps(position["actions"])},')
        lines.append('      "queries": [')
        for q, query in enumerate(position["queries"]):
            comma = "," if q < len(position["queries"]) - 1 else ""
            lines.append(f"        {json.dumps(query, ensure_ascii=False)}{comma}")
        lines.append("      ]")
        lines.append("    }" + ("," if p < len(data["positions"]) - 1 else ""))
    lines.extend(["  ]", "}"])
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    return write_or_check(PATH, render(), script="make_best_target_vectors.py",
                          description=__doc__.splitlines()[0], argv=argv, summary=_summary)


def _summary(text: str) -> str:
    data = json.loads(text)
    count = sum(len(position["queries"]) for position in data["positions"])
    return f"{len(data['positions'])} positions, {count} queries"


if __name__ == "__main__":
    sys.exit(main())
