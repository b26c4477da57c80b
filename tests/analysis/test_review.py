"""review() (spider_solver/analysis/reviewing.py): a game's decisions judged by what the player
could see, and the costliest named with the better action.

Most tests fake the judgement of a position (``review.judge``) and the view keys, so that
they need no kernel and check the review's own logic: which actions are decisions (not a
forced action, not an undo), that every judgement is made before the action's card shows
(the luck is never charged), when a cost is clear, which decisions are judged again and
named, the stretches found hopeless, Ctrl-C. The rest run the fair hint's kernels: the
decisions' chances are those of the fair hint at their positions, the answer does not
depend on the worker processes, and the review never reads an unseen card (issue 51: two
deals that differ only in unseen cards get the same review up to the first position where
a card in which they differ shows).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_solver.analysis import fair as fair_module
from spider_solver.analysis import reviewing as review_module
from spider_solver.analysis.fair import FairChoice, fair_hint
from spider_solver.analysis.reviewing import (
    CLEAR_Z,
    HOPELESS_AFTER,
    REVIEW_FIELDS,
    Judged,
    Mistake,
    Review,
    ReviewOptions,
    clear_cost,
    confirm_seed,
    review,
    review_without_search,
)
from spider_solver.analysis.summary import mistake_words
from spider_solver.errors import InvalidCodeError, InvalidOptionError
from spider_solver.limits import (
    FAIR_ALTERNATIVES,
    FAIR_LAYOUTS,
    MAX_SEED,
    REVIEW_ALTERNATIVES,
    REVIEW_CONFIRM_LAYOUTS,
    REVIEW_CONFIRM_ROUNDS,
    REVIEW_CONFIRMED,
    REVIEW_COSTLIEST,
)
from spider_solver.rules import Board, Deal, Variant, replay
from tests.analysis.helpers import effective_history, random_log
from tests.fair_pairs import SIZES, deal_pairs, prefixes, seen

#: Few layouts: the contract is the same at any size.
SMALL = {"layouts": 3, "alternatives": 1, "confirm_layouts": 4}
FOUR_SUITS = "SP1-S4C-AAAAAAD"


def small_deal(size: dict, seed: int) -> Deal:
    variant = Variant(**size)
    deck = variant.unshuffled()
    random.Random(seed).shuffle(deck)
    return Deal(tuple(deck), variant)


# -- the review's logic, the judgement faked ----------------------------------------------


class Fake:
    """A judgement of each position without the kernels: the action played and one other legal
    action; ``first`` and ``again`` give, by the decision's index in the log, (wins, chance,
    how far each layout's game got) of the played action and of the other, on the first
    layouts and on the fresh ones. By default both win ``wins`` layouts. Records every job."""

    def __init__(self, first: dict | None = None, again: dict | None = None, interrupt_at: int | None = None,
                 wins: int = 0, stuck: tuple[int, ...] = ()):
        self.first, self.again, self.interrupt_at, self.stuck = first or {}, again or {}, interrupt_at, stuck
        self.default = ((wins, 0.1, None), (wins, 0.1, None))
        self.jobs: list = []

    def __call__(self, job) -> Judged:
        self.jobs.append(job)
        if self.interrupt_at is not None and len(self.jobs) == self.interrupt_at:
            raise KeyboardInterrupt
        if job.index in self.stuck:
            return Judged((), ())
        board = job.board
        played = job.extra[0]
        others = [board.notation(a) for a in board.legal_moves() if board.notation(a) != played]
        other = job.extra[1] if len(job.extra) > 1 else others[0]
        table = self.again if len(job.extra) > 1 else self.first  # judged again: the better action given
        (pw, pc, pends), (ow, oc, oends) = table.get(job.index, self.default)
        layouts = job.layouts
        pends = pends or [(0, 0, 5)] * layouts
        oends = oends or [(0, 0, 5)] * layouts
        choices = [(FairChoice(played, pw, layouts, pc), pends), (FairChoice(other, ow, layouts, oc), oends)]
        choices.sort(key=lambda c: (-c[0].chance, -c[0].wins))
        return Judged(tuple(c for c, _ in choices),
                      tuple(tuple(review_module.how_far(*end) for end in ends) for _, ends in choices))


@pytest.fixture
def fake(monkeypatch):
    """Install a :class:`Fake` judgement (and view keys that need no kernel); returns a
    function that installs another."""
    monkeypatch.setattr(fair_module, "_view_key", lambda board: hash(seen(board)) & (2**63 - 1))

    def install(**given) -> Fake:
        judge = Fake(**given)
        monkeypatch.setattr(review_module, "judge", judge)
        return judge

    return install


def ends(further: int, behind: int, layouts: int) -> tuple[list, list]:
    """The layouts' games of two actions: the first got further on ``further`` layouts (one
    more run removed), the second on ``behind``, alike on the rest."""
    a = [(0, 1, 5)] * further + [(0, 0, 5)] * behind + [(0, 0, 5)] * (layouts - further - behind)
    b = [(0, 0, 5)] * further + [(0, 1, 5)] * behind + [(0, 0, 5)] * (layouts - further - behind)
    return a, b


def test_the_decisions_are_the_actions_in_effect_played_where_another_was_legal(fake):
    judge = fake(wins=1)
    deal = small_deal(SIZES[1], 3)
    log = random_log(deal, random.Random(7), 30, False, None)
    answer = review(deal, log, undo_limit=None, **SMALL)
    board = Board(deal, undo_limit=0)
    expected, forced = [], 0
    for index, action in effective_history(deal, log, False, None):
        if len(board.legal_moves()) > 1:
            expected.append(index)
        else:
            forced += 1
        board.push_notation(action)
    assert [d.index for d in answer.decisions] == [job.index for job in judge.jobs] == expected
    assert (answer.total, answer.forced, answer.interrupted) == (len(expected), forced, False)
    assert [d.action for d in answer.decisions] == [log[i] for i in expected]


def test_an_undone_action_and_the_undo_are_not_reviewed(fake):
    judge = fake()
    answer = review(FOUR_SUITS, "9>4 U 7>10 D", **SMALL)
    assert [(d.index, d.action) for d in answer.decisions] == [(2, "7>10"), (3, "D")]
    assert len(judge.jobs[0].history) == 0  # the undone position is not in the history
    assert len(judge.jobs[1].history) == 1


def test_a_deal_is_a_decision_when_a_move_was_legal_and_forced_when_none_was(fake):
    # One column holding a 3 on a 2 on an ace, face up, and an empty one: no move but the deal...
    variant = Variant(suits=1, ranks=3, runs=2, columns=2, layout=2)
    deal = Deal.from_columns(["AS", "2S"], "3S AS 2S 3S", variant)
    board = Board(deal)
    assert [board.notation(a) for a in board.legal_moves()] == ["1>2", "D"]
    fake()
    answer = review(deal, "D", **SMALL)
    assert [d.action for d in answer.decisions] == ["D"] and answer.forced == 0
    stuck = Deal.from_columns(["AS", "AS"], "2S 2S 3S 3S", variant)
    assert [Board(stuck).notation(a) for a in Board(stuck).legal_moves()] == ["D"]
    answer = review(stuck, "D", **SMALL)
    assert answer.decisions == () and (answer.total, answer.forced) == (0, 1)
    assert answer.summary == "No decision to review: no action in effect had another legal action beside it."


def test_each_decision_is_judged_on_the_position_before_it_so_the_card_it_turns_up_is_never_charged(fake):
    """The luck of the cards is never the player's: the position a decision is judged on is
    the one before the action, where the card it turns up (or the row it deals) is unseen."""
    judge = fake()
    log = ["9>4", "D", "3>4"]
    review(FOUR_SUITS, log, **SMALL)
    for job, count in zip(judge.jobs, range(len(log)), strict=True):
        before = Board(FOUR_SUITS, undo_limit=0)
        for action in log[:count]:
            before.push_notation(action)
        assert seen(job.board) == seen(before) and job.extra[0] == log[count]
    after = Board(FOUR_SUITS)
    after.push_notation("9>4")  # turns a card up: the judgement of 9>4 did not see it
    assert sum(after.down) < sum(judge.jobs[0].board.down)


@pytest.mark.parametrize("better, played, further, behind, cost", [
    (0.6, 0.2, 4, 0, 0.4),     # 4 - 0 >= 2 * sqrt(4)
    (0.6, 0.2, 3, 0, 0.0),     # 3 < 2 * sqrt(3)
    (0.6, 0.2, 9, 1, 0.4),     # 8 >= 2 * sqrt(10)
    (0.6, 0.2, 9, 3, 0.0),     # 6 < 2 * sqrt(12)
    (0.2, 0.6, 9, 0, 0.0),     # the chance says otherwise
    (0.6, 0.6, 9, 0, 0.0),
    (0.6, 0.2, 0, 0, 0.0),     # the layouts show no difference
])
def test_a_cost_is_charged_only_when_the_layouts_show_it_clearly(better, played, further, behind, cost):
    assert CLEAR_Z == 2.0
    charged = clear_cost(FairChoice("5>7", 5, 16, better), FairChoice("3>7", 1, 16, played), further, behind)
    assert charged == pytest.approx(cost)


def test_how_far_a_game_got_orders_a_win_then_runs_then_cards_left_face_down():
    how_far = review_module.how_far
    assert how_far(1, 8, 0) > how_far(0, 7, 0) > how_far(0, 6, 0) > how_far(0, 6, 1)


def test_the_costliest_are_judged_again_and_named_only_if_their_cost_stands(fake):
    layouts = SMALL["layouts"]
    clear = ends(3, 0, layouts)  # not clear on 3 layouts (3 < 2 * sqrt(3)), but ranked by the gap
    first = {
        0: ((0, 0.10, clear[1]), (2, 0.50, clear[0])),  # gap 0.40
        1: ((0, 0.10, clear[1]), (1, 0.30, clear[0])),  # gap 0.20
        2: ((0, 0.30, clear[1]), (1, 0.40, clear[0])),  # gap 0.10
        3: ((1, 0.45, clear[0]), (0, 0.10, clear[1])),  # the action played was the better: no gap
    }
    fresh = ends(4, 0, SMALL["confirm_layouts"])
    again = {
        0: ((0, 0.10, fresh[1]), (4, 0.40, fresh[0])),  # stands: cost 0.30
        1: ((0, 0.10, fresh[1]), (3, 0.55, fresh[0])),  # stands: cost 0.45, the costliest
        2: ((1, 0.30, fresh[0]), (0, 0.35, fresh[1])),  # does not stand: the action played got further
    }
    judge = fake(first=first, again=again)
    answer = review(FOUR_SUITS, "9>4 D 3>4 1>4", **SMALL)
    assert [d.cost for d in answer.decisions] == [0.0] * 4  # 3 layouts cannot show a cost clearly
    confirmations = judge.jobs[4:]
    assert [job.index for job in confirmations] == [0, 1, 2]
    for job in confirmations:
        assert (job.layouts, job.alternatives, job.seed) == (SMALL["confirm_layouts"], 0, confirm_seed(0))
        decision = answer.decisions[job.index]
        assert job.extra == (decision.action, decision.better)
    assert [(m.index, m.cost) for m in answer.costliest] == [(1, pytest.approx(0.45)), (0, pytest.approx(0.30))]
    assert answer.judged_again == (0, 1, 2)
    worst = answer.costliest[0]
    assert (worst.action, worst.wins, worst.better_wins, worst.better_further, worst.played_further,
            worst.layouts) == ("D", 0, 3, 4, 0, SMALL["confirm_layouts"])
    assert answer.summary.startswith("Of 4 decisions, these 2 cost the most. Action 2, D: your chances fell from ")


def decisions_by_gap(count: int) -> tuple[list[str], dict, tuple[list, list]]:
    """A log of ``count`` decisions on FOUR_SUITS, their first judgements (the later the
    decision, the larger the gap: the last are judged again first), and the games of two
    actions on the fresh layouts, the first clearly further."""
    log = random_log(Deal.from_code(FOUR_SUITS), random.Random(1), count, False, 0)
    first = {i: ((0, 0.1, ends(1, 0, 3)[1]), (1, 0.2 + i / 100, ends(1, 0, 3)[0])) for i in range(count)}
    return log, first, ends(4, 0, SMALL["confirm_layouts"])


def test_at_most_the_limits_are_judged_again_and_named(fake):
    count = REVIEW_CONFIRMED + 2
    log, first, fresh = decisions_by_gap(count)
    again = {i: ((0, 0.1, fresh[1]), (4, 0.5 + i / 100, fresh[0])) for i in range(count)}
    judge = fake(first=first, again=again)
    answer = review(FOUR_SUITS, log, **SMALL)
    assert answer.total == count
    assert [job.index for job in judge.jobs[count:]] == list(range(count - REVIEW_CONFIRMED, count))
    assert [m.index for m in answer.costliest] == list(range(count - 1, count - 1 - REVIEW_COSTLIEST, -1))


def test_a_decision_whose_games_clearly_got_less_far_is_named_after_those_that_cost_chances(fake):
    """The same chance after both actions (here no layout won after either) is no cost of
    chance, but games clearly less far after the action played name the decision, after
    those that cost chances and worded as what it is; not clearly less far, not named."""
    clear = ends(3, 0, SMALL["layouts"])
    first = {0: ((0, 0.10, clear[1]), (2, 0.50, clear[0])), 1: ((0, 0.10, clear[1]), (0, 0.10, clear[0])),
             2: ((0, 0.10, clear[1]), (0, 0.10, clear[0]))}
    fresh, unclear = ends(4, 0, SMALL["confirm_layouts"]), ends(3, 1, SMALL["confirm_layouts"])
    again = {0: ((0, 0.10, fresh[1]), (3, 0.40, fresh[0])),  # costs 0.30 of chance
             1: ((0, 0.10, fresh[1]), (0, 0.10, fresh[0])),  # costs no chance, clearly less far
             2: ((0, 0.10, unclear[1]), (0, 0.10, unclear[0]))}  # 3 - 1 < 2 * sqrt(4): not named
    fake(first=first, again=again)
    answer = review(FOUR_SUITS, "9>4 D 3>4", **SMALL)
    assert answer.judged_again == (0, 1, 2)
    assert [(m.index, m.cost) for m in answer.costliest] == [(0, pytest.approx(0.30)), (1, 0.0)]
    less_far = answer.costliest[1]
    assert (less_far.wins, less_far.better_wins, less_far.better_further, less_far.played_further) == (0, 0, 4, 0)
    assert less_far.summary == (f"action 2, D: no win found after it or after {less_far.better} in 4 layouts, but "
                                f"after {less_far.better} the games got further (more runs removed or fewer cards "
                                "left face down) on 4 of the 4 layouts where the two differed")
    assert "fell" not in less_far.summary and "A" + less_far.summary[1:] in answer.summary


def test_at_most_two_rounds_are_judged_again_and_an_action_with_a_lower_chance_is_never_the_better(fake):
    count = REVIEW_CONFIRMED * REVIEW_CONFIRM_ROUNDS + 2
    log, first, fresh = decisions_by_gap(count)
    # On the fresh layouts the other action's games got clearly further, but its chance is the lower.
    judge = fake(first=first, again=dict.fromkeys(range(count), ((1, 0.3, fresh[1]), (0, 0.2, fresh[0]))))
    answer = review(FOUR_SUITS, log, **SMALL)
    assert len(judge.jobs) == count + REVIEW_CONFIRMED * REVIEW_CONFIRM_ROUNDS
    assert answer.judged_again == tuple(range(2, count)) and answer.costliest == ()


def test_when_no_cost_stands_the_closest_call_is_named_alone_and_said_to_be_not_clear(fake):
    """Some games are lost by the cards: when no decision judged again stands, the one that
    came closest is named alone, marked not clear and worded so; never one whose better
    action had the lower chance or whose games got further on no more layouts."""
    first = {i: ((0, 0.10, ends(2, 0, 3)[1]), (1, 0.30 - i / 100, ends(2, 0, 3)[0])) for i in range(4)}
    fresh = SMALL["confirm_layouts"]
    again = {0: ((0, 0.10, ends(2, 1, fresh)[1]), (0, 0.10, ends(2, 1, fresh)[0])),  # no chance, 2 against 1
             1: ((1, 0.20, ends(2, 1, fresh)[1]), (2, 0.25, ends(2, 1, fresh)[0])),  # 0.05 more: the closest
             2: ((1, 0.30, ends(1, 2, fresh)[0]), (0, 0.20, ends(1, 2, fresh)[1])),  # the played was better
             3: ((0, 0.10, ends(1, 1, fresh)[1]), (0, 0.10, ends(1, 1, fresh)[0]))}  # no difference
    fake(first=first, again=again)
    answer = review(FOUR_SUITS, "9>4 D 3>4 1>4", **SMALL)
    assert answer.judged_again == (0, 1, 2, 3)
    assert [(m.index, m.clear, m.cost) for m in answer.costliest] == [(1, False, pytest.approx(0.05))]
    closest = answer.costliest[0]
    assert closest.summary == (f"action 2, D: not clearly a mistake, the closest call: about 20% after it (1 of 4 "
                               f"layouts won), about 25% after {closest.better} (2 won); after {closest.better} the "
                               "games got further (won, or more runs removed, or fewer cards left face down) on 2 of "
                               "the 3 layouts where the two differed, which the luck of the layouts can explain")
    assert answer.summary == ("Of 4 decisions, none clearly cost chances to win (each judged on 3 layouts of the "
                              "unseen cards, the costliest again on 4). " + closest.summary[0].upper()
                              + closest.summary[1:] + ".")
    assert closest.to_dict()["clear"] is False
    del again[1]
    again[0] = ((0, 0.10, ends(1, 1, fresh)[1]), (0, 0.10, ends(1, 1, fresh)[0]))
    fake(first={i: first[i] for i in (0, 2, 3)}, again=again)
    nothing = review(FOUR_SUITS, "9>4 D 3>4 1>4", **SMALL)
    assert nothing.costliest == () and nothing.summary.endswith("the costliest again on 4).")


def test_a_second_round_is_judged_again_only_when_none_of_the_first_stood(fake):
    count = REVIEW_CONFIRMED + 3
    log, first, fresh = decisions_by_gap(count)
    # The first round (the largest gaps: the last decisions) does not stand; of the second, the first does.
    again = dict.fromkeys(range(count), ((1, 0.3, fresh[0]), (0, 0.35, fresh[1])))
    again[0] = ((0, 0.1, fresh[1]), (4, 0.5, fresh[0]))
    judge = fake(first=first, again=again)
    progress: list[tuple[str, int, int]] = []
    answer = review(FOUR_SUITS, log, on_progress=lambda *p: progress.append(p), **SMALL)
    assert answer.total == count
    assert [job.index for job in judge.jobs[count:]] == [*range(count - REVIEW_CONFIRMED, count), 0, 1, 2]
    assert answer.judged_again == tuple(range(count))
    assert [m.index for m in answer.costliest] == [0]
    assert [p for p in progress if p[0] == "costliest"] == [("costliest", 0, REVIEW_CONFIRMED),
                                                            *(("costliest", done, REVIEW_CONFIRMED)
                                                              for done in range(1, REVIEW_CONFIRMED + 1)),
                                                            *(("costliest", done, count)
                                                              for done in range(REVIEW_CONFIRMED + 1, count + 1))]


#: A deal with no face-down card: a 2 that goes to and fro between two 3s shows no card
#: (one stretch of play), until the deal (allowed on an empty column) shows a row.
STRETCH = Deal.from_columns(["2S", "3S", "3S"], "AS AS 2S", Variant(suits=1, ranks=3, runs=2, columns=3, layout=3))
STRETCH_LOG = "1>2 2>3 3>2 2>3 3>2 2>3 D 1>3"


def test_a_stretch_where_nothing_wins_is_judged_only_until_it_is_found_hopeless(fake):
    """Decisions of one stretch (no card shown between them) are judged until HOPELESS_AFTER
    judged in a row won no layout; the rest of the stretch is skipped (the deal too: it is
    made from the stretch's last position); the next stretch is judged again."""
    assert HOPELESS_AFTER == 3
    judge = fake()
    answer = review(STRETCH, STRETCH_LOG, deal_on_empty=True, **SMALL)
    assert [d.index for d in answer.decisions] == [0, 1, 2, 7] and answer.skipped == (3, 4, 5, 6)
    assert answer.total == 8 and len(judge.jobs) == 4
    assert ("(4 not judged: no layout won and no card shown in the decisions before them, or no action that helps)"
            in answer.summary)
    fake(first={1: ((1, 0.1, None), (0, 0.1, None))})  # a win in the stretch starts the count again
    answer = review(STRETCH, STRETCH_LOG, deal_on_empty=True, **SMALL)
    assert [d.index for d in answer.decisions] == [0, 1, 2, 3, 4, 7] and answer.skipped == (5, 6)


def test_a_decision_where_the_planner_is_stuck_is_not_judged(fake):
    """Where no action helps as far as the player can see, the fair hint gives none: the
    decision is skipped, and counts towards its stretch's hopelessness."""
    fake(wins=1, stuck=(1,))
    answer = review(FOUR_SUITS, "9>4 D 3>4", **SMALL)
    assert [d.index for d in answer.decisions] == [0, 2] and answer.skipped == (1,) and answer.total == 3


def test_ctrl_c_stops_the_review_with_the_decisions_judged(fake):
    fake(interrupt_at=3)
    answer = review(FOUR_SUITS, "9>4 D 3>4 1>4", **SMALL)
    assert answer.interrupted and answer.costliest == () and answer.total == 4
    assert [d.index for d in answer.decisions] == [0, 1]
    assert answer.summary == "Interrupted after judging 2 of 4 decisions."


def test_ctrl_c_while_the_costliest_are_judged_again_says_every_decision_was_judged(fake):
    fake(first={1: ((0, 0.1, None), (1, 0.3, ends(1, 0, 3)[0]))}, interrupt_at=4 + 1)
    answer = review(FOUR_SUITS, "9>4 D 3>4 1>4", **SMALL)
    assert answer.interrupted and answer.costliest == () and answer.judged_again == ()
    assert len(answer.decisions) == 4
    assert answer.summary == "Interrupted after judging 4 of 4 decisions, before the costliest were judged again."


def test_progress_counts_the_decisions_then_the_costliest_judged_again(fake):
    fresh = ends(4, 0, SMALL["confirm_layouts"])
    fake(first={1: ((0, 0.1, None), (1, 0.3, ends(1, 0, 3)[0]))}, again={1: ((0, 0.1, fresh[1]), (4, 0.5, fresh[0]))})
    calls = []
    review(FOUR_SUITS, "9>4 D 3>4", on_progress=lambda *a: calls.append(a), **SMALL)
    assert calls == [("decisions", 0, 3), ("decisions", 1, 3), ("decisions", 2, 3), ("decisions", 3, 3),
                     ("costliest", 0, 1), ("costliest", 1, 1)]


# -- options, bad input -------------------------------------------------------------------


def test_the_defaults():
    options = ReviewOptions()
    assert (options.layouts, options.alternatives, options.confirm_layouts, options.seed) == (
        FAIR_LAYOUTS, REVIEW_ALTERNATIVES, REVIEW_CONFIRM_LAYOUTS, 0)
    assert REVIEW_ALTERNATIVES == FAIR_ALTERNATIVES - 1
    assert confirm_seed(MAX_SEED) == 0 and confirm_seed(7) == 8


@pytest.mark.parametrize("changes, words", [
    ({"layouts": 0}, "invalid layouts 0"),
    ({"confirm_layouts": 0}, "invalid confirm_layouts 0: expected a whole number from 1 to 1,024"),
    ({"confirm_layouts": 2.0}, "invalid confirm_layouts 2.0"),
    ({"seed": -1}, "invalid seed -1"),
    ({"workers": 0}, "invalid workers 0"),
])
def test_options_out_of_range_are_refused_by_name(changes, words):
    with pytest.raises(InvalidOptionError, match=words):
        review("SP1-S1C-AAAAAAD", "", **changes)


def test_a_bad_code_is_refused_as_analyze_refuses_it():
    with pytest.raises(InvalidCodeError):
        review("SP1-S5C-AAAAAAD")


def never() -> None:
    raise AssertionError("no engine is needed here")


def test_a_refused_action_gets_no_review_and_needs_no_engine():
    answer = review(FOUR_SUITS, "9>4 1>2", before_search=never)
    assert answer.replay.error is not None and answer.replay.error.index == 1
    assert answer.decisions == () and answer.costliest == () and answer.total == 0
    assert answer.summary == "The game log cannot be reviewed: action 2 is refused."
    assert review_without_search(FOUR_SUITS, "9>4 1>2") == answer
    assert review_without_search(FOUR_SUITS, "9>4") is None
    assert list(answer.to_dict()) == [spec.name for spec in REVIEW_FIELDS]


# -- words ----------------------------------------------------------------------------------


def mistake(after: float, wins: int, **changes) -> Mistake:
    values = {"index": 11, "action": "3>7", "before": 0.58, "after": after, "wins": wins, "better": "5>7",
              "better_chance": 0.55, "better_wins": 30, "better_further": 20, "played_further": 2, "cost": 0.55 - after,
              "layouts": 64, **changes}
    return Mistake(**values)


def test_a_costly_decision_in_words_names_actions_by_number_and_columns_never_a_bare_0():
    assert mistake_words(mistake(0.21, 12)) == ("action 12, 3>7: your chances fell from about 58% to 21%; 5>7 kept "
                                                "about 55%")
    assert mistake(0.21, 12).summary == mistake_words(mistake(0.21, 12))
    assert mistake_words(mistake(0.11, 0)) == ("action 12, 3>7: your chances fell from about 58% to 11% (no "
                                               "win found in 64 layouts); 5>7 kept about 55%")
    assert mistake_words(mistake(0.004, 0)) == ("action 12, 3>7: your chances fell from about 58% to under 1% (no "
                                                "win found in 64 layouts); 5>7 kept about 55%")
    assert mistake_words(mistake(0.004, 1, before=0.9964)) .startswith("action 12, 3>7: your chances fell from over "
                                                                       "99% to under 1%")


def test_chances_that_round_alike_are_told_apart_by_the_layouts_won():
    close = mistake(0.10, 6, before=0.104, better_chance=0.104, better_wins=7, cost=0.004)
    assert mistake_words(close) == ("action 12, 3>7: your chances fell a little (about 10%: 6 of 64 layouts won "
                                    "after it, 7 after 5>7, whose games got further (won, or more runs removed, or "
                                    "fewer cards left face down) on 20 of the 22 layouts where the two differed)")


def test_a_decision_that_cost_no_chance_but_got_less_far_in_words_says_so_never_that_chances_fell():
    same = mistake(0.09, 5, better_chance=0.09, better_wins=5, cost=0.0, better_further=41, played_further=10)
    # As many layouts won after both, not the same ones: a game won is further than any other, and said.
    assert mistake_words(same) == ("action 12, 3>7: your chances stayed about 9%, as after 5>7, but after 5>7 the "
                                   "games got further (won, or more runs removed, or fewer cards left face down) on "
                                   "41 of the 51 layouts where the two differed")
    none = mistake(0.01, 0, better_chance=0.01, better_wins=0, cost=0.0)
    unclear = mistake(0.01, 0, better_chance=0.01, better_wins=0, cost=0.0, clear=False, better_further=3,
                      played_further=2)
    assert mistake_words(unclear) == ("action 12, 3>7: not clearly a mistake, the closest call: no win found after it "
                                      "or after 5>7 in 64 layouts; after 5>7 the games got further (more runs removed "
                                      "or fewer cards left face down) on 3 of the 5 layouts where the two differed, "
                                      "which the luck of the layouts can explain")
    assert mistake_words(none) == ("action 12, 3>7: no win found after it or after 5>7 in 64 layouts, but after 5>7 "
                                   "the games got further (more runs removed or fewer cards left face down) on 20 of "
                                   "the 22 layouts where the two differed")


def test_the_summary_says_when_no_decision_clearly_cost_anything():
    answer = Review(None, replay(FOUR_SUITS, "9>4"), (), (), (), (), 1, 0, False, 16, 3, 64, 0)
    assert answer.summary == ("Of 1 decision, none clearly cost chances to win (each judged on 16 layouts of the "
                              "unseen cards, the costliest again on 64).")


# -- the kernels: the fair hint's chances, the same with workers, never an unseen card ----


@pytest.mark.usefixtures("fair_hints")
def test_each_decision_compares_what_the_fair_hint_compares_and_the_action_played():
    deal = small_deal(SIZES[1], 11)
    log = random_log(deal, random.Random(2), 12, False, 0)
    answer = review(deal, log, **SMALL)
    assert answer.total == len(answer.decisions) + len(answer.skipped) > 0
    for decision in answer.decisions:
        hint = fair_hint(deal, log[:decision.index], layouts=SMALL["layouts"], alternatives=SMALL["alternatives"])
        assert set(hint.choices) <= set(decision.choices)
        assert {c.action for c in decision.choices} - {c.action for c in hint.choices} <= {decision.action}
        assert decision.before == max(c.chance for c in decision.choices) == decision.choices[0].chance
        assert decision.after == next(c.chance for c in decision.choices if c.action == decision.action)


@pytest.mark.slow
@pytest.mark.usefixtures("fair_hints")
def test_worker_processes_change_nothing_but_the_time():
    deal = small_deal(SIZES[2], 5)
    log = random_log(deal, random.Random(5), 25, False, 0)
    here = review(deal, log, **SMALL)
    apart = review(deal, log, workers=2, **SMALL)
    assert here == apart and here.total > 2


def without_seconds(answer: Review) -> dict:
    plain = answer.to_dict()
    del plain["code"], plain["seconds"]
    return plain


@pytest.mark.usefixtures("fair_hints")
@settings(max_examples=25)
@given(pair=deal_pairs(), picks=st.lists(st.integers(0, 10**6), min_size=4, max_size=14),
       more=st.lists(st.integers(0, 10**6), max_size=4), seed=st.integers(0, MAX_SEED))
def test_twins_get_the_same_review_up_to_the_first_card_they_differ_in(pair, picks, more, seed):
    """Two deals that differ only in unseen cards, the same log: the same review (but the
    code and the seconds) while the player cannot tell them apart; and with actions played
    on past that point (on the first deal, legal on both), the same decisions up to and
    including the action that showed the card in which they differ, since it was judged
    before the card showed."""
    first, second = pair
    common = list(prefixes(first, second, picks))[-1]
    options = {**SMALL, "seed": seed}
    assert without_seconds(review(first, common, **options)) == without_seconds(review(second, common, **options))
    board = Board(first, undo_limit=0)
    for action in common:
        board.push_notation(action)
    longer = list(common)
    for pick in more:
        actions = board.legal_moves()
        if board.is_won() or not actions:
            break
        longer.append(board.play(actions[pick % len(actions)]))
    if replay(second, longer).error is not None:
        return
    a, b = (review(deal, longer, **options) for deal in pair)
    assert [d for d in a.decisions if d.index <= len(common)] == [d for d in b.decisions if d.index <= len(common)]
