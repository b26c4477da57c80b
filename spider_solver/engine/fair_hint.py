"""The bridge between the rules engine's board and the fair kernels: what the player has seen.

:func:`view_of` and :func:`unseen_of` read a :class:`~spider_solver.rules.Board` only for
what its player has seen (the fairness boundary on the Python side); :func:`fair_candidates`
runs :func:`~spider_solver.engine.fair_sample.fair_choices` on them and turns its move
codes back into the rules engine's actions.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from spider_solver.engine.fair_plan import MAX_BLOCK, PLAN_PARAMS, PLAN_WEIGHTS, ROLLOUT_PARAMS, UNKNOWN
from spider_solver.engine.fair_sample import Candidates, Knowledge, Outcomes, decision, rollouts
from spider_solver.engine.fair_sample import alternatives as alternatives_of
from spider_solver.engine.game import action_of, card_byte, move_code, variant_params
from spider_solver.engine.keys import DEALT_KEYS, ZOBRIST
from spider_solver.engine.position import key_from_scratch, new_position, pack
from spider_solver.engine.types import H_DEALT, H_REMOVED, STATE_BYTES
from spider_solver.rules import Board, Card
from spider_solver.rules.notation import Action
from spider_solver.signtest import clearness

#: The chance model by suit count: logistic regression coefficients (intercept first) over
#: :func:`chance_features`, fitted by benchmarks/fit_chance.py ``--labels`` on recorded hint
#: positions, each labelled with the share of fresh layouts of its unseen cards that the hint's
#: own planner (``PLAN_PARAMS``) won from it after the hint's action
#: (benchmarks/label_chance.py): an estimate of the chance of the player the hint follows,
#: which the share won by the rollouts' small planner understates. A model belongs to its
#: planner: when ``PLAN_PARAMS`` changes, its suit count's model is checked on games of the new
#: planner and fitted again on labels made by it when it is off (the 4-suit model at 1024 wide,
#: the 2-suit one at 256 wide). It also reads the
#: rollouts' figures: when ``ROLLOUT_PARAMS`` changes, it is fitted again on the same labels with
#: the new rollouts' figures (label_chance.py ``--figures``). The weight of the
#: layouts won is held at least 0 (fitted freely it can come out below, the rollouts' figures
#: saying the same), so that the actions' chances rank as their wins do. Which positions, and
#: how the models do on games they were not fitted on: benchmarks/HISTORY.md, "Fair hints".
CHANCE_MODELS: dict[int, tuple[float, ...]] = {
    1: (7.4327, 0.8641, -8.0213, -9.9117, 0.7558, 0.5336, 3.0071),
    2: (3.3213, 0.9528, -2.2891, -2.0939, -2.3921, 1.7325, 3.0962),
    4: (0.7024, 0.1201, 1.156, -6.1367, -0.2286, 1.6047, 4.0665),
}


def chance_features(wins: int, layouts: int, roll_removed: float, roll_down: float, down: int, dealt: int,
                    runs: int, suits: int, *, total_runs: int = 8, deals: int = 5, start_down: int = 44) -> list[float]:
    """What the chance model reads: the log-odds of the layouts an action won (smoothed); the
    runs removed and face-down cards left at the ends of the planner's decision's rollouts
    (the position's, the same for every action compared); and the position's face-down
    cards, deals left and runs removed, each as a share of the real game's. Only the first
    differs between the actions of one position, so their chances rank as their wins do."""
    return [math.log((wins + 0.5) / (layouts - wins + 0.5)), roll_removed / total_runs, roll_down / start_down,
            down / start_down, (deals - dealt) / deals, runs / total_runs]


def chance_of(features: Sequence[float], suits: int) -> float:
    """The chance model's estimate (see :data:`CHANCE_MODELS`)."""
    beta = CHANCE_MODELS.get(suits, CHANCE_MODELS[4])
    z = beta[0] + sum(b * f for b, f in zip(beta[1:], features, strict=True))
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


#: How clearly another action must win more of the sampled layouts than the planner's
#: decision to be the hint instead: of the layouts one of the two won and the other lost,
#: those the other action won must outnumber the planner's by OVERRULE_Z times the square
#: root of their count (a paired sign test, one-sided, about 2%). A margin of two layouts
#: was within the noise: at 2 suits it overruled the planner at 16% of the positions and
#: its games won 5 of 25 deals where the planner alone won 16. See benchmarks/HISTORY.md,
#: "Fair hints".
OVERRULE_Z = 2.0


class Scored(NamedTuple):
    """A candidate action of a fair hint: how many of the sampled layouts were won after it,
    and the chance to win after it that the chance model estimates from those games."""

    action: Action
    wins: int
    layouts: int
    #: The rollouts' means at their ends: runs removed, face-down cards left.
    removed: float
    down: float
    chance: float
    #: Whether this is the planner's decision (the others are compared with it).
    planned: bool = False
    #: How the game after it ended on each layout (the same layouts, in the same order, for
    #: every candidate): (1 if won else 0, runs removed, face-down cards left); for a paired
    #: comparison of two candidates, layout by layout (a review's).
    ends: tuple[tuple[int, int, int], ...] = ()


def view_of(board: Board) -> tuple[np.ndarray, int]:
    """The packed view of a :class:`~spider_solver.rules.Board`'s position and its key.

    Reads the board's face-up cards (``board.columns[c][board.down[c]:]``), its columns'
    lengths and face-down counts, its deals made and runs removed, and nothing else: never a
    face-down card, never the stock."""
    pos = new_position()
    cols, lens, downs, hdr, key = pos
    for c, column in enumerate(board.columns):
        down = board.down[c]
        lens[c] = len(column)
        downs[c] = down
        cols[c, :down] = UNKNOWN
        for i, card in enumerate(column[down:], start=down):
            cols[c, i] = card_byte(card)
    hdr[H_DEALT] = board.dealt
    hdr[H_REMOVED] = board.runs_removed
    state = np.zeros(STATE_BYTES, dtype=np.uint8)
    pack(pos, state)
    return state, int(key_from_scratch(pos, ZOBRIST, DEALT_KEYS))


def unseen_of(board: Board) -> np.ndarray:
    """The card bytes the player of ``board`` has not seen, sorted: the variant's deck less
    the face-up cards and the removed runs (never read from the face-down cards or the stock)."""
    variant = board.variant
    left = Counter(card_byte(card) for card in variant.unshuffled())
    for c, column in enumerate(board.columns):
        for card in column[board.down[c]:]:
            left[card_byte(card)] -= 1
    for suit in board.removed:
        for rank in range(1, variant.ranks + 1):
            left[card_byte(Card(rank, suit))] -= 1
    cards = sorted(left.elements())
    return np.array(cards, dtype=np.uint8)


def knowledge_of(board: Board, history: Sequence[int]) -> Knowledge:
    """What the player of ``board`` knows (:class:`~spider_solver.engine.fair_sample.Knowledge`):
    its view, the cards it has not seen, and the view keys of the positions the game has
    been in (``history``, :func:`view_of`) with the board's own."""
    view, key = view_of(board)
    return Knowledge(view, unseen_of(board), np.array([*history, key], dtype=np.uint64))


def layout_seed(seed: int, knowledge: Knowledge) -> np.uint64:
    """The seed of the layouts: ``seed`` mixed with the view and the unseen cards, nothing else."""
    digest = hashlib.blake2b(int(seed).to_bytes(8, "little") + knowledge.state.tobytes()
                             + knowledge.unseen.tobytes(), digest_size=8)
    return np.uint64(int.from_bytes(digest.digest(), "little"))


def fair_candidates(board: Board, history: Sequence[int], *, layouts: int, alternatives: int, seed: int,
                    extra: Sequence[Action] = ()) -> list[Scored]:
    """The candidate actions of a fair hint at ``board`` (a rules engine's Board, read only
    for what the player has seen), each with the sampled layouts it won, best first: the
    planner's decision, unless another action won clearly more layouts (:func:`overrules`), then the
    rest by layouts won (the planner's order among equals).

    The candidates are the planner's decision, the ``extra`` actions (legal at ``board``:
    a review asks for the action played) and up to ``alternatives`` other legal actions
    (:func:`~spider_solver.engine.fair_sample.alternatives`); each is played on the same
    ``layouts`` layouts, then the rollouts' planner plays on. ``history``: the view keys of
    the positions the game has been in (:func:`view_of`). The same arguments give the same
    answer everywhere. An empty list: the planner finds nothing to play (no legal action, or
    none that turns a card up, removes a run or gains on the position's value, and no deal
    left): the player is stuck, as far as what is seen shows; the game stops there."""
    knowledge = knowledge_of(board, history)
    suits = board.variant.suits
    tables = tables_of(board)  # the variant only
    block = np.zeros(MAX_BLOCK, dtype=np.int64)
    count = decision(knowledge, tables, (PLAN_WEIGHTS[suits], PLAN_PARAMS[suits]), block)
    if count == 0:  # stuck: no action helps, and comparing wandering moves would not end a game
        return []
    rows = [block[:count].copy()]
    for action in extra:
        code = move_code(board.check(action))
        if not any(len(row) and row[0] == code for row in rows):
            rows.append(np.array([code], dtype=np.int64))
    others = np.zeros(alternatives, dtype=np.int64)
    found = alternatives_of(knowledge, tables, PLAN_WEIGHTS[suits], int(rows[0][0]), others)
    for code in others[:found]:
        if not any(row[0] == code for row in rows):
            rows.append(np.array([code], dtype=np.int64))
    outcomes = played_out(knowledge, tables, rows, layouts, (PLAN_WEIGHTS[suits], ROLLOUT_PARAMS[suits]), seed)
    k = len(rows)
    variant = board.variant
    position = (float(outcomes.removed[0].mean()), float(outcomes.down[0].mean()))  # the planner's decision's
    scored = []
    for i in range(k):
        wins = int(outcomes.wins[i].sum())
        features = chance_features(wins, layouts, *position, sum(board.down), board.dealt, board.runs_removed,
                                   suits, total_runs=variant.runs, deals=variant.deals,
                                   start_down=max(1, variant.layout - variant.columns))
        scored.append(Scored(board.check(action_of(int(rows[i][0]))), wins, layouts,
                             float(outcomes.removed[i].mean()), float(outcomes.down[i].mean()),
                             chance_of(features, suits), i == 0,
                             tuple(zip(outcomes.wins[i].tolist(), outcomes.removed[i].tolist(),
                                       outcomes.down[i].tolist(), strict=True))))
    return ranked(scored)


def played_out(knowledge: Knowledge, tables: tuple, rows: Sequence[np.ndarray], layouts: int,
               player: tuple[np.ndarray, np.ndarray], seed: int) -> Outcomes:
    """How the games ended on ``layouts`` layouts of the unseen cards (drawn from ``seed``
    and ``knowledge`` only, :func:`layout_seed`) after each block of actions of ``rows``
    (move codes, legal at the view of ``knowledge``), the ``player`` (weights, params)
    playing on to the end: the same layouts for every row. ``tables``: :func:`tables_of`."""
    blocks = np.zeros((len(rows), MAX_BLOCK), dtype=np.int64)
    lengths = np.array([len(row) for row in rows], dtype=np.int64)
    for r, row in enumerate(rows):
        blocks[r, : len(row)] = row
    outcomes = Outcomes(*(np.zeros((len(rows), layouts), dtype=np.int64) for _ in range(3)))
    rollouts(knowledge, Candidates(blocks, lengths), tables, player, layout_seed(seed, knowledge), outcomes)
    return outcomes


def tables_of(board: Board) -> tuple:
    """The fair kernels' tables of ``board``'s variant: (variant params, Zobrist keys, dealt keys)."""
    return (variant_params(board.deal, board.deal_on_empty), ZOBRIST, DEALT_KEYS)


def ranked(scored: Sequence[Scored]) -> list[Scored]:
    """``scored`` (the planner's decision first, then in the planner's order) best first: the
    planner's decision, unless another action won clearly more layouts (:func:`overrules`; then the
    one that won most), then the others by layouts won, in their order among equals."""
    order = sorted(scored, key=lambda c: -c.wins)
    if order and not overrules(order[0], scored[0]):
        order.remove(scored[0])
        order.insert(0, scored[0])
    return order


def overrules(other: Scored, planned: Scored) -> bool:
    """Whether ``other`` won clearly more of the same layouts than ``planned``, layout by
    layout (their ``ends``): the sign test's :func:`~spider_solver.signtest.clearness`
    of the layouts only one of them won, at least :data:`OVERRULE_Z`."""
    if other is planned or other.wins <= planned.wins:
        return False
    won = [a[0] - b[0] for a, b in zip(other.ends, planned.ends, strict=True)]
    return clearness(won.count(1), won.count(-1)) >= OVERRULE_Z
