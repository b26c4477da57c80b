"""Write data/replay_vectors.json: game logs played from a deal, and the result after every action.

Usage:

    python data/make_replay_vectors.py           # rewrite data/replay_vectors.json
    python data/make_replay_vectors.py --check   # exit 1 if the file differs from what the code plays now

Frontends in other languages test their port of the rules of play against this file:
RULES.md §5 Moves, RULES.md §6 Deals, RULES.md §7 Runs and the win, RULES.md §8 Score
and undo, RULES.md §11 Action notation and RULES.md §12 Replay. Each vector is a deal
(a game code, or an explicit deck in deck order, RULES.md §10 Explicit deals), the
options ``deal_on_empty`` and ``undo_limit`` (null: unlimited), and a game log, one
action per item. Its ``steps`` give, after each action played, the action in canonical
notation, the score, the move counter, the runs removed, the cards left in the stock
and (every ``positions_every`` actions, and after the last one) the position: for
each column, its face-down count and its face-up cards, short text form, deepest
first. ``error`` is null, or the first refused action (its index in the log, counted
from 0, its text and the exact message, RULES.md §13.3 Rule reminders); the log ends
there. ``result`` is what ``replay()`` returns (RULES.md §12 Replay), and ``cases``
what the vector shows, listed under ``cases`` at the top of the file.

The vectors are the 117-action scripted win of tests/rules/scripted_win.py (also with
undos), a game whose score reaches 0, a few hand-written logs (undo limits, the
notation's refusals, the sixth deal), a line of play for each suit count and rule,
and the first position, along such lines, that refuses an action in each way
RULES.md §13.3 Rule reminders lists. The lines are chosen by a fixed greedy policy
over the legal moves, with ties broken by SplitMix64 from the deal number. So the
output is deterministic, and tests/rules/test_replay_vectors.py fails if the file and
the code disagree.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from spider_solver.errors import SpiderError, quote
from spider_solver.rules.board import Board
from spider_solver.rules.codes import GameCode, splitmix64
from spider_solver.rules.deal import Deal
from spider_solver.rules.notation import Action, DealRow, Move, Undo
from spider_solver.rules.replay import replay
from spider_solver.rules.variant import CLASSIC, RELAXED

sys.path.insert(0, str(Path(__file__).resolve().parent))  # vector_file and greedy_line, beside this script
from greedy_line import greedy_line, key, policy_score  # noqa: E402
from vector_file import write_or_check  # noqa: E402

PATH = Path(__file__).with_name("replay_vectors.json")
ROOT = Path(__file__).resolve().parents[1]

#: Suit counts and rules covered, each by a line of play and by the search for refusals.
VARIANTS = [(1, CLASSIC), (2, CLASSIC), (2, RELAXED), (4, CLASSIC), (4, RELAXED)]
#: Deal numbers whose lines are searched for refusals, and the longest line searched.
DEAL_NUMBERS = range(12)
MAX_ACTIONS = 60
#: Length of the line of play kept for each suit count and rule.
LINE_ACTIONS = 40

#: The refusals of RULES.md §13.3 Rule reminders, RULES.md §11 Action notation and
#: RULES.md §12 Replay, each named by a pattern of its message.
REFUSALS = {
    "refused: not notation": r"^invalid action .*: expected D, U, F>T or F>T/N",
    "refused: no such column": r"^invalid action .*: (source|target) column \d+ does not exist",
    "refused: group size 0": r"^invalid action .*: a group holds at least 1 card$",
    "refused: group size out of range": r"^invalid action .*: a group of \d+ cards is out of range",
    "refused: same column": r"^invalid action .*: source and target are the same column$",
    "refused: empty source": r"^cannot play .*: column \d+ is empty$",
    "refused: onto an ace": r"^cannot play .*: no card goes onto an ace",
    "refused: card not one rank lower": r"^cannot play .*, a card goes only onto a card exactly one rank higher$",
    "refused: nothing fits": r"^cannot play .*: nothing in column \d+ fits onto",
    "refused: not one rank at a time": r"^cannot play .*: a group must go down one rank at a time",
    "refused: classic group of two suits": r"^cannot play .*: under the Classic rule a group must be one suit",
    "refused: column too short": r"^cannot play .*: column \d+ holds only",
    "refused: face-down card": r"^cannot play .*: face-down cards cannot be moved",
    "refused: group not one rank lower": r"^cannot play .*, a group goes only onto a card exactly one rank higher than",
    "refused: stock empty": r"^cannot deal: the stock is empty$",
    "refused: deal with a column empty": r"^cannot deal while column \d+ is empty",
    "refused: deal with columns empty": r"^cannot deal while columns .* are empty",
    "refused: nothing to undo": r"^nothing to undo: no action has been made$",
    "refused: everything undone": r"^nothing to undo: every action has been undone$",
    "refused: undo off": r"^cannot undo: undo is turned off",
    "refused: undo limit": r"^nothing more to undo: only the last",
    "refused: after the win": r"^the game is already won",
}

#: The refusals that ``searched`` looks for in the positions along the lines; the
#: others come from the logs of ``hand_written``.
SEARCHED = {
    "refused: empty source", "refused: onto an ace", "refused: card not one rank lower", "refused: nothing fits",
    "refused: not one rank at a time", "refused: classic group of two suits", "refused: column too short",
    "refused: face-down card", "refused: group not one rank lower", "refused: deal with a column empty",
    "refused: deal with columns empty",
}

#: What a vector can show, in the order listed in the file.
CASES = [
    "1 suit", "2 suits, classic", "2 suits, relaxed", "4 suits, classic", "4 suits, relaxed",
    "explicit deck",
    "won",
    "run removed",
    "card turned up",
    "move onto an empty column",
    "loose notation",           # a token written otherwise than its canonical form: d, u, 02>5, F>T/N onto a card
    "deal onto an empty column",  # deal_on_empty: the deal puts a card on an empty column
    "undo",
    "undo of a deal",
    "undo of a run",            # the undone action had removed a run: it comes back
    "unlimited undo",           # undo_limit null, and an undo played
    "undo limit 1",
    "score clipped at 0",       # an action at a score of 0 leaves it at 0
    "run at a score of 0",      # an action at a score of 0 that removes a run ends at 100
    *REFUSALS,
]


def scripted_win():
    """tests/rules/scripted_win.py, loaded from its path (the tests are not a package the script imports)."""
    spec = importlib.util.spec_from_file_location("scripted_win", ROOT / "tests" / "rules" / "scripted_win.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def position(board: Board) -> list[list]:
    """Each column as [face-down count, face-up cards in short text form, deepest first]."""
    return [[down, " ".join(str(card) for card in column[down:])]
            for column, down in zip(board.columns, board.down, strict=True)]


def refusal(message: str) -> str:
    """The name of a refusal, from its message."""
    for name, pattern in REFUSALS.items():
        if re.search(pattern, message):
            return name
    raise AssertionError(f"a refusal the file does not name: {message}")


def vector(deal: Deal, log: list[str], *, deal_on_empty: bool = False, undo_limit: int | None = 100,
           positions_every: int = 1) -> dict:
    """Play ``log`` on a plain board and write down every step, as RULES.md §12 Replay plays it."""
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=undo_limit)
    steps: list[dict] = []
    positions: list[list[list]] = []
    error = None
    shown = {str(deal.variant).replace("1 suit, classic", "1 suit")}
    if deal.code is None:
        shown.add("explicit deck")
    for index, token in enumerate(log):
        before = board.position()
        try:
            if board.is_won():
                raise SpiderError(f"the game is already won; {quote(token)} comes after the last run left")
            action = board.parse_action(token)
            empty_before = any(not column for column in board.columns)
            played = board.play(action)
        except SpiderError as exc:
            error = {"index": index, "action": token, "message": str(exc)}
            shown.add(refusal(str(exc)))
            break
        shown |= step_cases(board, before, action, played, token, empty_before)
        steps.append({"played": played, "score": board.score, "moves": board.moves,
                      "runs_removed": board.runs_removed, "stock_left": board.stock_left})
        positions.append(position(board))
    for number, (step, shown_position) in enumerate(zip(steps, positions, strict=True), 1):
        if number % positions_every == 0 or number == len(steps):
            step["position"] = shown_position
    if board.is_won():
        shown.add("won")
    if undo_limit is None and any(step["played"] == "U" for step in steps):
        shown.add("unlimited undo")
    if undo_limit == 1 and error is not None and shown & {"refused: undo limit"}:
        shown.add("undo limit 1")
    result = replay(deal, log, deal_on_empty=deal_on_empty, undo_limit=undo_limit).to_dict()
    assert result["error"] == error and result["won"] == board.is_won()
    del result["error"]
    return {
        "code": None if deal.code is None else str(deal.code),
        "deck": None if deal.code is not None else deal.text(),
        "suits": deal.variant.suits,
        "rule": deal.variant.rule,
        "deal_on_empty": deal_on_empty,
        "undo_limit": undo_limit,
        "log": log,
        "cases": [case for case in CASES if case in shown],
        "positions_every": positions_every,
        "steps": steps,
        "error": error,
        "result": result,
    }


def step_cases(board: Board, before, action: Action, played: str, token: str, empty_before: bool) -> set[str]:
    """The cases one action played shows (``before``: the position it was played from)."""
    after = board.position()
    found = set()
    if token != played:
        found.add("loose notation")
    if isinstance(action, Undo):
        found.add("undo")
        if after.dealt < before.dealt:
            found.add("undo of a deal")
        if len(after.removed) < len(before.removed):
            found.add("undo of a run")
        return found
    if len(after.removed) > len(before.removed):
        found.add("run removed")
        if before.score == 0:
            found.add("run at a score of 0")
    elif before.score == 0:
        found.add("score clipped at 0")
    if isinstance(action, DealRow) and empty_before:
        found.add("deal onto an empty column")
    if isinstance(action, Move) and "/" in played:
        found.add("move onto an empty column")
    if any(b > a for a, b in zip(after.down, before.down, strict=True)):
        found.add("card turned up")
    return found


# -- lines of play ----------------------------------------------------------------------


def line(deal: Deal, number: int, length: int, *, deal_on_empty: bool = False) -> Iterator[tuple[list[str], Board]]:
    """Yield (canonical actions so far, board) along the greedy line of ``deal``, from its first position."""
    return greedy_line(Board(deal, deal_on_empty=deal_on_empty, undo_limit=None), number, length)


def loosen(deal: Deal, tokens: list[str], number: int, *, deal_on_empty: bool) -> list[str]:
    """Some tokens of a log in a looser form the parser reads (RULES.md §11 Action notation), and a few undos."""
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=None)
    rng = splitmix64(number)
    loose: list[str] = []
    for token in tokens:
        action = board.resolve(board.parse_action(token))
        draw = next(rng) % 16
        if draw == 0 and token == "D":
            loose.append("d")
        elif draw == 1 and isinstance(action, Move):
            loose.append("0" + token)
        elif draw == 2 and isinstance(action, Move) and "/" not in token:
            loose.append(str(action))  # F>T/N onto a card: the size of the group that fits
        elif draw in (3, 4):
            loose.extend([token, "u" if draw == 3 else "U", token])  # played, taken back, played again
        else:
            loose.append(token)
        board.push(action)
    return loose


def candidates(board: Board) -> Iterator[str]:
    """Every action text a position may refuse: all moves, with and without a size, the deal and the undo."""
    n = board.variant.columns
    for src in range(1, n + 1):
        for dst in range(1, n + 1):
            if src != dst:
                yield f"{src}>{dst}"
                for count in range(1, len(board.columns[src - 1]) + 2):
                    yield f"{src}>{dst}/{count}"
    yield "D"


def refusals_found(board: Board) -> Iterator[tuple[str, str]]:
    """(refusal, action text) for each action of ``candidates`` the position refuses."""
    for token in candidates(board):
        try:
            board.check(board.parse_action(token))
        except SpiderError as exc:
            yield refusal(str(exc)), token


def searched() -> list[dict]:
    """For each refusal of a position, the first position along the lines that shows it, and the refused action.

    A deal refused for an empty column is followed by the same log played with
    ``deal_on_empty``, where the deal is allowed, and a few more actions.
    """
    found = []
    shown: set[str] = set()
    for suits, rule in VARIANTS:
        for number in DEAL_NUMBERS:
            if shown >= SEARCHED:
                return found
            code = GameCode(suits, rule, number)
            deal = Deal.from_code(code)
            for actions, board in line(deal, number, MAX_ACTIONS):
                for name, token in refusals_found(board):
                    if name in shown or name not in SEARCHED:
                        continue
                    shown.add(name)
                    log = [*actions, token]
                    found.append(vector(deal, log))
                    if name in ("refused: deal with a column empty", "refused: deal with columns empty"):
                        found.append(vector(deal, log + next_actions(deal, log, number), deal_on_empty=True))
    return found


def next_actions(deal: Deal, log: list[str], number: int) -> list[str]:
    """Up to 5 actions played after ``log`` with ``deal_on_empty``, chosen as the lines choose them."""
    board = Board(deal, deal_on_empty=True, undo_limit=None)
    for token in log:
        board.push_notation(token)
    rng = splitmix64(number)
    played = []
    for _ in range(5):
        options = [action for action in board.legal_moves() if policy_score(board, action) >= 0]
        if not options or board.is_won():
            break
        best = max(policy_score(board, action) for action in options)
        choices = [action for action in options if policy_score(board, action) == best]
        played.append(board.play(choices[next(rng) % len(choices)]))
    return played


def lines() -> list[dict]:
    """A line of play for each suit count and rule, with loose tokens and undos; deal_on_empty on the odd ones."""
    found = []
    for i, (suits, rule) in enumerate(VARIANTS):
        number = 100 + i
        deal = Deal.from_code(GameCode(suits, rule, number))
        deal_on_empty = bool(i % 2)
        actions: list[str] = []
        for played, _ in line(deal, number, LINE_ACTIONS, deal_on_empty=deal_on_empty):
            actions = played
        found.append(vector(deal, loosen(deal, actions, number, deal_on_empty=deal_on_empty),
                            deal_on_empty=deal_on_empty, undo_limit=None if i == 0 else 100))
    return found


def shuttle(board: Board) -> tuple[str, str] | None:
    """A move and the move that takes it back, leaving the same cards (a group between two equal targets)."""
    for action in board.legal_moves():
        if not isinstance(action, Move):
            continue
        before = key(board)
        first = board.play(action)
        back = Move(action.dst, action.src, action.count)
        if board.is_legal(back):
            second = board.play(back)
            same = key(board) == before
            board.pop()
            if same:
                board.pop()
                return first, second
        board.pop()
    return None


def score_at_zero() -> dict:
    """A 1-suit line where a group goes to and fro until the score is 0, then the line goes on to remove a run."""
    for number in DEAL_NUMBERS:
        deal = Deal.from_code(GameCode(1, CLASSIC, number))
        runs_at = None
        pairs = {}
        for actions, board in line(deal, number, 200):
            if board.runs_removed:
                runs_at = len(actions)
                break
            pairs[len(actions)] = shuttle(board)
        if runs_at is None:
            continue
        full = list(actions)
        for at in range(runs_at - 1, -1, -1):
            pair = pairs.get(at)
            if pair is not None:
                to_and_fro = [*pair] * ((500 - (runs_at - 1) + 1) // 2 + 1)
                log = full[:at] + to_and_fro + full[at:]
                return vector(deal, log, undo_limit=100, positions_every=50)
    raise AssertionError("no 1-suit line removes a run after a move that can be taken back")


def hand_written() -> list[dict]:
    """Undo limits, the notation's refusals, the sixth deal."""
    script = scripted_win()
    deck = Deal.from_text(script.DECK_TEXT, suits=1)
    four = Deal.from_code("SP1-S4C-AAAAAAD")
    two = Deal.from_code("SP1-S2R-AAAAAAD")
    first = next_actions(four, [], 3)[:2]
    return [
        vector(deck, [*script.WIN, "U"]),
        vector(deck, list(script.WITH_UNDOS), undo_limit=None),
        vector(two, ["U"]),
        vector(two, ["U"], undo_limit=0),
        vector(two, ["D", "U"], undo_limit=0),
        vector(two, ["D", "D", "U", "U"], undo_limit=1),
        vector(two, ["D", "D", "D", "D", "U", "U", "U", "D", "U", "U"], undo_limit=3),
        vector(two, ["9>4", "D", "U", "U", "U"]),
        vector(four, ["D"] * 6),
        vector(four, [*first, "3-5"]),
        vector(four, [*first, "0>4"]),
        vector(four, [*first, "3>11"]),
        vector(four, [*first, "3>4/0"]),
        vector(four, [*first, "3>3"]),
        vector(four, [*first, "1>2/105"]),
        vector(four, [*first, "1>2/1000"]),
    ]


def build() -> dict:
    """Everything the file holds, in order."""
    return {
        "about": "Replay test vectors; see RULES.md §12 Replay. Made by data/make_replay_vectors.py.",
        "cases": CASES,
        "vectors": [*hand_written(), score_at_zero(), *lines(), *searched()],
    }


def render() -> str:
    """The file's text: stable key order, one step per line."""
    data = build()
    lines = [
        "{",
        f'  "about": {json.dumps(data["about"], ensure_ascii=False)},',
        f'  "cases": {json.dumps(data["cases"])},',
        '  "vectors": [',
    ]
    for v, entry in enumerate(data["vectors"]):
        lines.append("    {")
        for name in ["code", "deck", "suits", "rule", "deal_on_empty", "undo_limit", "log", "cases",
                     "positions_every"]:
            lines.append(f'      "{name}": {json.dumps(entry[name], ensure_ascii=False)},')
        lines.append('      "steps": [')
        for s, step in enumerate(entry["steps"]):
            comma = "," if s < len(entry["steps"]) - 1 else ""
            lines.append(f"        {json.dumps(step, ensure_ascii=False)}{comma}")
        lines.append("      ],")
        lines.append(f'      "error": {json.dumps(entry["error"], ensure_ascii=False)},')
        lines.append(f'      "result": {json.dumps(entry["result"], ensure_ascii=False)}')
        lines.append("    }" + ("," if v < len(data["vectors"]) - 1 else ""))
    lines.extend(["  ]", "}"])
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    return write_or_check(PATH, render(), script="make_replay_vectors.py", description=__doc__.splitlines()[0],
                          argv=argv, summary=_summary)


def _summary(text: str) -> str:
    data = json.loads(text)
    count = sum(len(entry["steps"]) for entry in data["vectors"])
    return f"{len(data['vectors'])} vectors, {count} steps, {len(text.encode())} bytes"


if __name__ == "__main__":
    sys.exit(main())
