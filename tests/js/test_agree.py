"""The JavaScript rules module and the Python reference engine agree (hypothesis).

Random games, from game codes of 1, 2 and 4 suits under both rules, explicit decks and
shrunken variants, with random options: each is a log of legal actions, undos and
wild tokens (refused moves, bad notation, odd white space); and the 117-action scripted win
with an action undone and played again, then actions after the win. Both engines play the log
token by token on a board and give, after every token, the same result (the canonical
action, or the refusal's class and exact message) and the same position as a frontend
reads it: cards and face-down counts, score, counters, runs, legal actions, the refusals
of a deal and an undo, placement help and auto-place for every group, ``describe()`` and
``grid()``; and the same ``replay()`` of the whole log. The parsers (cards, codes,
actions, logs, suit counts, rules, explicit decks) give the same answer to any text.

One Node process (``tests/js/agree.mjs``) serves the whole module: each example is a
batch of games sent as one line of JSON, answered by one line.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_solver.errors import SpiderError
from spider_solver.rules import (
    Board,
    Card,
    Deal,
    DealRow,
    GameCode,
    Undo,
    Variant,
    format_cards,
    parse_action,
    parse_rule,
    parse_suits,
    replay,
    shuffle_deck,
    split_actions,
)
from spider_solver.rules.codes import MAX_DEAL
from tests.js.node import ROOT, node
from tests.rules.scripted_win import DECK_TEXT, WIN

AGREE = ROOT / "tests" / "js" / "agree.mjs"
SHRUNKEN = [
    dict(ranks=2, runs=4, columns=3, layout=5),  # 8 cards, 1 deal: runs and wins come often
    dict(ranks=3, runs=4, columns=4, layout=4),
    dict(ranks=4, runs=4, columns=3, layout=7),
    dict(ranks=5, runs=4, columns=4, layout=8),
]
#: Characters the wild tokens and texts are made of: the notation's and the cards', the 29
#: white space characters' edges and neighbours (RULES.md §1 Conventions), look-alikes,
#: quotes and backslashes (Python's repr), controls, and characters beyond the BMP.
ALPHABET = list("0123456789>/,-DUdu SHDCTJQKAshdctjqka♠♥♦♣PXxp'\"\\") + [
    "\t", "\n", "\x0b", "\x1c", "\x1f", "\x85", "\xa0", "\u1680", "\u2000", "\u200a", "\u2028", "\u3000",
    "\u200b", "\u180e", "\ufeff", "\x00", "\x7f", "\x9f", "\u00e9", "\u0131", "\u017f", "\u0663", "\ud800",
    "\U0001f0a1", "\U000e0001", "\ue000",
]
TEXTS = st.text(alphabet=ALPHABET, max_size=12)


class Node:
    """``node tests/js/agree.mjs``, asked one line of JSON at a time."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([node(), str(AGREE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, encoding="utf-8", cwd=ROOT)

    def ask(self, request: dict[str, Any]) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, f"node stopped (status {self.process.poll()})"
        reply = json.loads(line)
        assert "crashed" not in reply, reply.get("crashed")
        return reply["answer"]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(timeout=30) == 0


@pytest.fixture(scope="module")
def js() -> Iterator[Node]:
    served = Node()
    yield served
    served.close()


# -- what both engines report (tests/js/agree.mjs writes the same shapes) ------------------

def attempt(call: Callable[[], Any]) -> dict[str, Any]:
    """``{"value": ...}``, or ``{"refused": [class, message]}``: a plain ValueError (a
    RangeError in JavaScript) is named ``ValueError``."""
    try:
        return {"value": call()}
    except SpiderError as error:
        return {"refused": [type(error).__name__, str(error)]}
    except ValueError as error:
        return {"refused": ["ValueError", str(error)]}


def move_text(move: Any) -> str | None:
    return None if move is None else str(move)


def state(board: Board) -> dict[str, Any]:
    columns = []
    for c in range(1, board.variant.columns + 1):
        movable = board.movable(c)
        counts = range(min(len(board.columns[c - 1]), movable + 1) + 1)
        columns.append({
            "down": board.down[c - 1],
            "cards": format_cards(board.columns[c - 1]),
            "up": format_cards(board.face_up(c), symbols=True),
            "movable": movable,
            "targets": [board.targets(c, k) for k in counts],
            "best": move_text(board.best_move(c)),
            "best_of": [attempt(lambda c=c, k=k: move_text(board.best_move(c, k))) for k in counts],  # type: ignore[misc]
        })
    return {
        "columns": columns,
        "score": board.score, "moves": board.moves, "runs_removed": board.runs_removed,
        "stock_left": board.stock_left, "deals_left": board.deals_left, "dealt": board.dealt,
        "removed": list(board.removed), "won": board.is_won(),
        "legal": [board.notation(action) for action in board.legal_moves()],
        "deal": attempt(lambda: board.notation(DealRow())),
        "undo": attempt(lambda: board.notation(Undo())),
        "describe": board.describe(),
        "grid": board.grid(),
    }


def deal_of(spec: dict[str, Any]) -> Deal:
    if "code" in spec:
        return Deal.from_code(spec["code"])
    if "text" in spec:
        return Deal.from_text(spec["text"], suits=spec["suits"], rule=spec["rule"])
    variant = Variant(**spec["variant"])
    return Deal(tuple(Card.parse(text) for text in spec["cards"].split()), variant)


def play(game: dict[str, Any]) -> dict[str, Any]:
    deal = deal_of(game["deal"])
    board = Board(deal, deal_on_empty=game["deal_on_empty"], undo_limit=game["undo_limit"])
    steps = [state(board)]
    positions = [board.position()]
    for token in game["tokens"]:
        step = attempt(lambda token=token: board.play(board.parse_action(token)))  # type: ignore[misc]
        if step.get("value") == "U":
            positions.pop()
        elif "value" in step:
            positions.append(board.position())
        step["restored"] = board.position() == positions[-1]
        step["state"] = state(board)
        steps.append(step)
    result = replay(deal, game["tokens"], deal_on_empty=game["deal_on_empty"], undo_limit=game["undo_limit"])
    return {"steps": steps, "replay": result.to_dict() | {"played": list(result.played)}}


PARSERS: dict[str, Callable[[str], Any]] = {
    "card": lambda text: str(Card.parse(text)),
    "code": lambda text: str(GameCode.parse(text)),
    "action": lambda text: str(parse_action(text)),
    "split": split_actions,
    "rule": parse_rule,
    "suits": parse_suits,
    "deck": lambda text: Deal.from_text(text).text(),
}


# -- the games ------------------------------------------------------------------------------

WILD = st.one_of(
    st.builds("{}>{}".format, st.integers(0, 11), st.integers(0, 11)),
    st.builds("{}>{}/{}".format, st.integers(0, 11), st.integers(0, 11), st.integers(0, 14)),
    st.sampled_from(["D", "U", "d", "u", " 9>4 ", "01>02", "3-5", "1>2/0105", "1>2/" + "3" * 50, "\u0663>4",
                     "\u200bD", "D\u3000", "10>1/13", "1>10", "0>4", "3>3"]),
    TEXTS,
)


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    suits = draw(st.sampled_from([1, 2, 4]))
    rule = draw(st.sampled_from(["classic", "relaxed"]))
    number = draw(st.integers(0, MAX_DEAL))
    kind = draw(st.sampled_from(["code", "code", "text", "shrunken"]))
    if kind == "code":
        spec: dict[str, Any] = {"code": str(GameCode(suits, rule, number))}
    elif kind == "text":  # an explicit deck, written loosely
        text = Deal.from_code(GameCode(suits, rule, number)).text()
        spec = {"text": text.lower().replace(" ", ", ") if number % 2 else text, "suits": suits, "rule": rule}
    else:
        size = draw(st.sampled_from(SHRUNKEN))
        variant = Variant(suits=suits, rule=rule, **size)
        spec = {"cards": format_cards(shuffle_deck(number, variant)), "variant": {"suits": suits, "rule": rule, **size}}
    deal_on_empty = draw(st.booleans())
    undo_limit = draw(st.sampled_from([None, 0, 1, 3, 100]))
    # The log: mostly legal actions and undos, chosen on a board as they are played, and wild tokens.
    board = Board(deal_of(spec), deal_on_empty=deal_on_empty, undo_limit=undo_limit)
    tokens = []
    n = board.variant.columns
    for choice in draw(st.lists(st.integers(0, 2**20), min_size=5, max_size=80)):
        if choice % 4 == 0:  # a move between two columns of the position, often refused
            src, dst, size = choice // 4 % n + 1, choice // (4 * n) % n + 1, choice // (4 * n * n) % 16
            token = f"{src}>{dst}" + (f"/{size}" if size <= len(board.columns[src - 1]) + 1 else "")
        elif choice % 11 == 1:
            token = draw(WILD)
        elif choice % 7 == 2:
            token = "U"
        else:
            legal = board.legal_moves()
            if not legal:
                continue
            token = board.notation(legal[choice % len(legal)])
        tokens.append(token)
        with contextlib.suppress(SpiderError):  # a refused token leaves the position as it was
            board.play(board.parse_action(token))
    return {"deal": spec, "deal_on_empty": deal_on_empty, "undo_limit": undo_limit, "tokens": tokens}


@st.composite
def scripted_wins(draw: st.DrawFn) -> dict[str, Any]:
    """The 117-action win of RULES.md §8.1 Score and move counter, one of its actions undone
    and played again, then wild tokens after the win."""
    again = draw(st.integers(1, len(WIN)))
    tokens = [*WIN[:again], "U", WIN[again - 1], *WIN[again:], *draw(st.lists(WILD.filter(split_actions), min_size=1, max_size=3))]
    return {"deal": {"text": DECK_TEXT, "suits": 1, "rule": "classic"}, "deal_on_empty": False,
            "undo_limit": draw(st.sampled_from([None, 1, 100])), "tokens": tokens}


def first_difference(expected: Any, got: Any, where: str = "") -> str | None:
    """Where two JSON values first differ, for a readable failure."""
    if type(expected) is not type(got):
        return f"{where}: {expected!r} (Python) != {got!r} (JavaScript)"
    if isinstance(expected, dict):
        for key in sorted(set(expected) | set(got)):
            if key not in expected or key not in got:
                return f"{where}.{key}: only in {'Python' if key in expected else 'JavaScript'}"
            found = first_difference(expected[key], got[key], f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        for index, (one, other) in enumerate(zip(expected, got, strict=False)):
            found = first_difference(one, other, f"{where}[{index}]")
            if found:
                return found
        return None if len(expected) == len(got) else f"{where}: {len(expected)} items != {len(got)}"
    return None if expected == got else f"{where}: {expected!r} (Python) != {got!r} (JavaScript)"


def agree(js: Node, batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Both engines play each game of the batch alike, step for step; what they gave."""
    answers = js.ask({"games": batch})
    assert len(answers) == len(batch)
    for game, got in zip(batch, answers, strict=True):
        expected = play(game)
        assert all(step.get("restored", True) for step in expected["steps"])
        difference = first_difference(expected, got)
        assert difference is None, f"{difference}\n{json.dumps(game)}"
    return answers


@given(st.lists(games(), min_size=1, max_size=4))
def test_random_games_give_the_same_steps_positions_and_refusals(js, batch):
    agree(js, batch)


@settings(max_examples=8)
@given(scripted_wins())
def test_a_won_game_gives_the_same_runs_score_and_refusals_after_the_win(js, game):
    """Runs leave, the score takes their bonus, an undo puts a run back, and any action
    after the win is refused by the replay (RULES.md §7 Runs and the win, §12 Replay)."""
    (got,) = agree(js, [game])
    assert got["replay"]["won"] and got["replay"]["score"] == 1183 and got["replay"]["runs_removed"] == 8
    assert got["replay"]["error"]["message"].startswith("the game is already won; ")


DECKS = st.builds(
    lambda number, suits, edit, card: (
        lambda cards: " ".join(cards[:edit] + [card] + cards[edit + 1:]) if edit < 104 else " ".join(cards[: edit - 104])
    )(Deal.from_code(GameCode(suits, "classic", number)).text().split()),
    st.integers(0, MAX_DEAL), st.sampled_from([1, 2, 4]), st.integers(0, 208), st.sampled_from(["KH", "QS", "8X", "AC"]),
)


@given(st.lists(st.one_of(st.tuples(st.sampled_from(sorted(PARSERS)), TEXTS), st.tuples(st.just("deck"), DECKS)),
                min_size=1, max_size=60))
def test_every_parser_gives_the_same_answer_to_any_text(js, texts):
    got = js.ask({"parse": texts})
    expected = [attempt(lambda kind=kind, text=text: PARSERS[kind](text)) for kind, text in texts]  # type: ignore[misc]
    difference = first_difference(expected, got)
    assert difference is None, difference


def test_the_engines_agree_on_a_known_game(js):
    """The property's machinery on a fixed game: a refusal, a move, an undo, a deal."""
    game = {"deal": {"code": "SP1-S4C-AAAAAAD"}, "deal_on_empty": False, "undo_limit": 100,
            "tokens": ["2>1", "9>4", "U", "9>5", "D", "x"]}
    (got,) = js.ask({"games": [game]})
    assert got == play(game)
    results = [{key: step[key] for key in ("value", "refused") if key in step} for step in got["steps"][1:]]
    assert results == [
        {"refused": ["IllegalActionError", "cannot play '2>1': 6♠ cannot go onto 2♣, a card goes only onto a card "
                                           "exactly one rank higher"]},
        {"value": "9>4"}, {"value": "U"}, {"value": "9>5"}, {"value": "D"},
        {"refused": ["InvalidActionError", "invalid action 'x': expected D, U, F>T or F>T/N (for example 3>7 or 2>5/3)"]},
    ]
    assert got["replay"]["error"]["index"] == 0 and got["steps"][-1]["state"]["stock_left"] == 40
