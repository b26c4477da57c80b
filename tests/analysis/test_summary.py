"""Each analysis answer's one sentence for the player (spider_solver/analysis/summary.py): one
per kind of answer, never a card named, the unknown ones never a guess."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from spider_solver.analysis import Analysis, Bracket, Probe
from spider_solver.analysis.summary import MAY_STILL_WIN, action_words
from spider_solver.outcomes import Reason, Status
from spider_solver.rules import replay

CODE = "SP1-S4C-AAAAAAD"
LOG = ["9>4", "D", "7>10"]
#: An answer with no search yet: the log replayed, nothing known of the position.
BASE = Analysis(code=CODE, replay=replay(CODE, LOG), status=Status.UNKNOWN, reason=Reason.NODES, effective=3)
LINE = ("3>7", "D", "5>6/2")


@pytest.mark.parametrize(("answer", "sentence"), [
    (replace(BASE, status=Status.VERIFIED, reason=Reason.WON, hint="3>7", line=LINE, source="search"),
     "The game can still be won: next, move the group that fits from column 3 onto column 7, on a winning line "
     "of 3 actions."),
    (replace(BASE, status=Status.VERIFIED, reason=Reason.WON, source="won"), "The game is won."),
    (replace(BASE, reason=Reason.SECONDS),
     "No winning line was found in the time allowed; the game may still be winnable."),
    (BASE, "No winning line was found within the search's budget; the game may still be winnable."),
    (replace(BASE, reason=Reason.INTERRUPTED),
     "The search was stopped before it found a winning line; the game may still be winnable."),
    (replace(BASE, status=Status.UNWINNABLE, reason=Reason.EXHAUSTED), "The game can no longer be won from here."),
    (replace(BASE, status=Status.UNWINNABLE, reason=Reason.EXHAUSTED, lost_at=1, lost_at_action="D",
             lost_at_line=LINE),
     "The game can no longer be won: it was lost by action 2 (D), before which a line of 3 actions still won."),
    (replace(BASE, status=Status.UNWINNABLE, reason=Reason.EXHAUSTED,
             bracket=Bracket(winnable=1, winnable_after=0, line=LINE, unwinnable=3, unwinnable_after=2)),
     "The game can no longer be won: it could still be won after action 1 and was lost by action 3."),
    (replace(BASE, status=Status.UNWINNABLE, reason=Reason.EXHAUSTED,
             bracket=Bracket(winnable=None, winnable_after=None, line=(), unwinnable=3, unwinnable_after=2)),
     "The game can no longer be won: it was lost by action 3, and where exactly was not found within the budget."),
    (replace(BASE, status=Status.UNWINNABLE, reason=Reason.EXHAUSTED,
             probes=(Probe(0, Status.UNWINNABLE, Reason.EXHAUSTED, None, 10, 0.1),)),
     "The game can no longer be won: this deal cannot be won from its first position."),
    (Analysis(code=CODE, replay=replay(CODE, ["9>4", "2>1"]), status=None, reason=None),
     "The game log cannot be analysed: action 2 is refused."),
])
def test_each_kind_of_answer_has_its_sentence(answer, sentence):
    assert answer.summary == sentence == answer.to_dict()["summary"]


@pytest.mark.parametrize("reason", [reason for reason in Reason if reason not in (Reason.WON, Reason.EXHAUSTED)])
def test_every_unknown_answer_is_one_sentence_that_does_not_guess(reason):
    sentence = replace(BASE, reason=reason).summary
    assert sentence.endswith(f"; {MAY_STILL_WIN}.") and sentence.count(".") == 1
    assert "unwinnable" not in sentence and "can still be won" not in sentence


def test_actions_are_said_by_columns_never_by_cards():
    assert action_words("D") == "deal a row from the stock"
    assert action_words("3>7") == "move the group that fits from column 3 onto column 7"
    assert action_words("10>2/1") == "move 1 card from column 10 to the empty column 2"
    assert action_words("5>6/3") == "move 3 cards from column 5 to the empty column 6"
    card = re.compile(r"\b[A2-9TJQK][SHDC]\b|[♠♥♦♣]")
    for answer in (replace(BASE, status=Status.VERIFIED, reason=Reason.WON, line=LINE, source="search"),):
        assert not card.search(answer.summary)
