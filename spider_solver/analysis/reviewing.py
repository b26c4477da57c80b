"""The review of a game: the decisions that cost it, judged by what the player could see.

:func:`review` replays a game log and, at every position of its actions in effect where
the player had a choice (more than one legal action: a deal is a decision too when a move
was possible; a forced action and an undo are not), judges the action played beside the
others as a fair hint judges its position (:func:`~spider_solver.engine.fair_hint.fair_candidates`
with the action played added): each is played on the same sampled layouts of the unseen
cards, so that the luck of the cards is the same for all of them (common random numbers),
and each gets its chance to win. A decision's cost is how much more the best other action
kept than the action played, when the layouts show it clearly (:func:`clear_cost`); a
card turned up or dealt changes the chances from one decision to the next but is never
charged, since every judgement is made before the card shows.

The costliest decisions are judged again on fresh layouts (``confirm_layouts`` of them,
drawn from ``seed + 1``), :data:`~spider_solver.limits.REVIEW_CONFIRMED` a round, a second
round only when none of the first stood, so that a decision is not named for the luck of
its first layouts; up to :data:`~spider_solver.limits.REVIEW_COSTLIEST` whose cost stands
are named with the better action, in words (:func:`.summary.mistake_words`): those that
cost chances first, then those whose games clearly got less far at the same chance (at
four suits, many of a lost game's positions win no layout at all). When none stands,
the closest call is named alone and marked not clear (``clear`` False): some games are
lost by the cards, with no decision the layouts can show.

The review is a function of what the player has seen, the options and the version alone:
two deals that differ only in cards the player has not seen get the same review up to the
first position where a card in which they differ shows (tests/analysis/test_review.py
checks it), and the worker processes change only how long it takes. What the chances
mean: docs/engine.md, "Fair hints" and "Reviews".
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import spider_solver.analysis.fair as fair
from spider_solver.analysis.answer import Action
from spider_solver.analysis.fair import FairChoice, FairOptions, load_fair_hint
from spider_solver.analysis.start import Start, replay_log
from spider_solver.analysis.summary import mistake_words, review_summary
from spider_solver.errors import InvalidOptionError, quote, whole_number
from spider_solver.limits import (
    MAX_SEED,
    MAX_WORKERS,
    REVIEW_ALTERNATIVES,
    REVIEW_CONFIRM_LAYOUTS,
    REVIEW_CONFIRM_ROUNDS,
    REVIEW_CONFIRMED,
    REVIEW_COSTLIEST,
    check_review,
)
from spider_solver.record import Field, to_plain
from spider_solver.rules import Board, Deal, GameCode
from spider_solver.rules.replay import ReplayResult
from spider_solver.signtest import clearness
from spider_solver.stops import held, ignore
from spider_solver.verify import coerce_deal

if TYPE_CHECKING:
    import numpy as np

#: How clearly the layouts must show a cost (:func:`clear_cost`): of the layouts where the
#: games after the two actions ended differently, those where the better one's got further
#: are at least ``CLEAR_Z`` standard deviations more than half (a sign test; one-sided,
#: about 2.3%).
CLEAR_Z = 2.0
#: A stretch of play where no card shows (no card turned up, no deal, no run removed) is
#: judged decision by decision until this many judged in a row were flat (no layout won by
#: any action compared, and their chances within :data:`FLAT` of each other); its later
#: decisions are then not judged (``Review.skipped``). A stretch like that is a game lost
#: in all but name, where the player moves cards to and fro (benchmarks/bench_review.py:
#: a casual player's game of a thousand actions is judged in a tenth of the time).
HOPELESS_AFTER = 3
#: The spread of chances, at most, of a flat decision's actions.
FLAT = 0.01


@dataclass(frozen=True)
class ReviewOptions(FairOptions):
    """How a review is computed: a fair hint's options (the rules of the log; the layouts,
    alternatives and seed each decision is judged with) and the fresh layouts the costliest
    decisions are judged again on. The same options give the same review on every machine;
    a value out of range raises :class:`~spider_solver.errors.InvalidOptionError` as the
    value is made."""

    #: Legal actions compared at each decision with the planner's decision and the action
    #: played (0 to :data:`~spider_solver.limits.MAX_FAIR_ALTERNATIVES`; a fair hint's
    #: default is one more).
    alternatives: int = REVIEW_ALTERNATIVES
    #: Fresh layouts each of the costliest decisions is judged again on (1 to
    #: :data:`~spider_solver.limits.MAX_FAIR_LAYOUTS`), drawn from ``seed + 1``.
    confirm_layouts: int = REVIEW_CONFIRM_LAYOUTS

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "confirm_layouts", check_review(self.confirm_layouts))

    def but(self, **changes: Any) -> ReviewOptions:
        """These options with ``changes`` (field names of :class:`ReviewOptions`)."""
        return replace(self, **changes) if changes else self


#: The options a review takes when it is given none.
DEFAULT_REVIEW_OPTIONS = ReviewOptions()


@dataclass(frozen=True)
class Decision:
    """One decision of the player, judged: the chances before it, after the action played
    and after the best other action, all on the same sampled layouts."""

    FIELDS: ClassVar[tuple[Field, ...]]
    #: The action's index in the log (from 0; "action 12" in words is index 11).
    index: int
    action: str
    #: The chance to win before it: that of the best action compared.
    before: float
    #: The chance to win after the action played.
    after: float
    #: The best other action compared, and its chance; None when no other was compared.
    better: str | None
    better_chance: float | None
    #: How much the decision cost: ``better_chance - after`` when the layouts show it
    #: clearly (:func:`clear_cost`), else 0.
    cost: float
    #: The actions compared, the best chance first (the action played among them).
    choices: tuple[FairChoice, ...]

    def to_dict(self) -> dict[str, Any]:
        return to_plain(self)


DECISION_FIELDS = Decision.FIELDS = (
    Field("index", int, False, "The action's index in the log, from 0 (action 12 in words is index 11)."),
    Field("action", Action, False, "The action played, in canonical notation."),
    Field("before", float, False, "The chance to win before it, 0 to 1: the best action compared's."),
    Field("after", float, False, "The chance to win after the action played, 0 to 1, on the same layouts."),
    Field("better", Action, True, "The best other action compared; null when no other was compared."),
    Field("better_chance", float, True, "Its chance to win, 0 to 1, on the same layouts; null without it."),
    Field("cost", float, False, "better_chance - after when the layouts show it clearly, else 0."),
    Field("choices", list[FairChoice], False, "The actions compared on the same layouts, the best chance first (the "
          "action played among them)."),
)


@dataclass(frozen=True)
class Mistake:
    """One of the costliest decisions, judged again on fresh layouts: the action played and
    the better action, with the layouts each won and their chances."""

    FIELDS: ClassVar[tuple[Field, ...]]
    index: int
    action: str
    before: float
    after: float
    #: Layouts won after the action played.
    wins: int
    better: str
    better_chance: float
    better_wins: int
    #: The layouts where the game after the better action got further than the game after
    #: the action played, and the other way round (what shows the cost clearly,
    #: :func:`clear_cost`).
    better_further: int
    played_further: int
    #: ``better_chance - after``; 0 when the chances were the same (as when neither action
    #: won a layout) but the games after the better action clearly got further.
    cost: float
    #: The fresh layouts both were played on.
    layouts: int
    #: Whether its cost stood (:func:`is_clear`). False only for the closest call, named
    #: alone when no decision of the game stood (:func:`_closest`): what the layouts
    #: measured, which their luck can explain.
    clear: bool = True

    @property
    def summary(self) -> str:
        """The decision in words: "action 12, 3>7: your chances fell from about 58% to 21%;
        5>7 kept about 55%" (:func:`.summary.mistake_words`)."""
        return mistake_words(self)

    def to_dict(self) -> dict[str, Any]:
        return to_plain(self)


MISTAKE_FIELDS = Mistake.FIELDS = (
    Field("index", int, False, "The action's index in the log, from 0."),
    Field("action", Action, False, "The action played."),
    Field("before", float, False, "The chance to win before it, 0 to 1: the best action compared's."),
    Field("after", float, False, "The chance to win after the action played, 0 to 1."),
    Field("wins", int, False, "Layouts won by playing on after the action played."),
    Field("better", Action, False, "The better action."),
    Field("better_chance", float, False, "The chance to win after the better action, 0 to 1."),
    Field("better_wins", int, False, "Layouts won by playing on after the better action."),
    Field("better_further", int, False, "Layouts where the game after the better action got further (won, or "
          "removed more runs, or left fewer cards face down) than the game after the action played."),
    Field("played_further", int, False, "Layouts where the game after the action played got further."),
    Field("cost", float, False, "better_chance - after: what the decision cost; 0 when the chances were the same "
          "(as when neither won a layout) but the games after the better action clearly got further (or, for the "
          "closest call, got further on more layouts)."),
    Field("layouts", int, False, "The fresh layouts of the unseen cards both were played on."),
    Field("clear", bool, False, "Whether the cost stood (the games after the better action clearly got further). "
          "False only for the closest call, named alone when no decision of the game stood: the largest cost the "
          "fresh layouts measured, which their luck can explain."),
    Field("summary", str, False, "The decision in words, e.g. \"action 12, 3>7: your chances fell from about 58% to "
          "21%; 5>7 kept about 55%\"; when the chances round alike, \"fell a little\" with the layouts won and how "
          "far the games got; at the same chance, that the games after the better action got further. It names "
          "actions by their columns, never a card."),
)


@dataclass(frozen=True)
class Review:
    """The review of a game. ``to_dict()`` is the JSON form (``review --json``)."""

    FIELDS: ClassVar[tuple[Field, ...]]
    code: str | None
    #: The replay of the log; ``replay.error``: the first refused action (then nothing is reviewed).
    replay: ReplayResult
    #: The decisions judged, in the order of the log (all of them unless interrupted).
    decisions: tuple[Decision, ...]
    #: The decisions whose cost stood when judged again: those that cost chances, the
    #: costliest first, then those whose games clearly got less far at the same chance;
    #: when none stood, the closest call alone (``clear`` False, :func:`_closest`).
    costliest: tuple[Mistake, ...]
    #: The log indices of the decisions judged again on fresh layouts (the costliest by
    #: their first judgement), in the order of the log: ``costliest`` names those whose
    #: cost stood.
    judged_again: tuple[int, ...]
    #: The log indices of the decisions not judged: later decisions of a stretch of play
    #: where no card showed, once :data:`HOPELESS_AFTER` judged in a row were flat; and
    #: those where the planner is stuck (the fair hint gives none there).
    skipped: tuple[int, ...]
    #: The decisions of the game (its actions in effect where there was a choice).
    total: int
    #: Its actions in effect that were the only legal action (not charged).
    forced: int
    #: Ctrl-C (or a cancel) stopped it: ``decisions`` holds those judged by then.
    interrupted: bool
    layouts: int
    alternatives: int
    confirm_layouts: int
    seed: int
    seconds: float = field(default=0.0, compare=False)

    @property
    def summary(self) -> str:
        """The review in a few sentences a game can show the player (:func:`.summary.review_summary`)."""
        return review_summary(self)

    def to_dict(self) -> dict[str, Any]:
        """The plain-data form, as ``review --json`` prints it."""
        return to_plain(self)


REVIEW_FIELDS = Review.FIELDS = (
    Field("code", str, True, "Canonical game code; null for an explicit deck."),
    Field("replay", ReplayResult, False, "The replay of the log: won, moves, score, runs removed, stock left, and "
          "the first refused action (then nothing is reviewed)."),
    Field("decisions", list[Decision], False, "The player's decisions judged, in the order of the log: the actions "
          "in effect where more than one action was legal."),
    Field("costliest", list[Mistake], False, f"Up to {REVIEW_COSTLIEST} decisions judged again on fresh layouts "
          "whose cost stood: those that cost chances, the costliest first, then those whose games clearly got less "
          "far at the same chance (cost 0), the clearest first. When none stood, the closest call alone (clear "
          "false): the decision judged again whose better action kept the most, or whose games got further on the "
          "most layouts more; empty only when no decision judged again had a better action even by that."),
    Field("judged_again", list[int], False, "The log indices of the decisions judged again on fresh layouts (the "
          "costliest by their first judgement); costliest names those whose cost stood."),
    Field("skipped", list[int], False, "The log indices of the decisions not judged: in a stretch of play where no "
          f"card showed (none turned up or dealt, no run removed), once {HOPELESS_AFTER} decisions judged in a row "
          "found no layout won by any action compared, the stretch's later decisions; and those where no action "
          "helps as far as the player can see (the fair hint gives none)."),
    Field("total", int, False, "The decisions of the game: those judged and those skipped."),
    Field("forced", int, False, "Actions in effect that were the only legal action (never charged)."),
    Field("interrupted", bool, False, "Stopped before the end: decisions holds those judged by then."),
    Field("layouts", int, False, "Layouts of the unseen cards each decision was judged on."),
    Field("alternatives", int, False, "Legal actions compared with the planner's decision and the action played, at "
          "most."),
    Field("confirm_layouts", int, False, "Fresh layouts each of the costliest decisions was judged again on."),
    Field("seed", int, False, "The seed of the layouts (the fresh ones: seed + 1)."),
    Field("summary", str, False, "The review in a few sentences a game can show the player; it names actions by "
          "their number in the log and their columns, never a card."),
    Field("seconds", float, False, "Seconds it took."),
)


def clear_cost(better: FairChoice, played: FairChoice, better_further: int, played_further: int) -> float:
    """What choosing ``played`` over ``better`` cost, both played on the same layouts:
    ``better.chance - played.chance`` when the layouts show it clearly, else 0.

    ``better_further``: the layouts where the game after ``better`` got further than the
    game after ``played`` (:func:`how_far`: won, or more runs removed, or fewer cards left
    face down); ``played_further`` the other way round (the layouts where the two games
    ended alike say nothing of the difference). Clearly: ``better`` has the higher chance,
    and ``better_further - played_further`` is at least :data:`CLEAR_Z` times the square
    root of their sum (the sign test of the layouts where the two differ). How far the
    games got, not only whether they won, since at four suits few of a bad position's
    games are won, and the chance is estimated from how far they got too."""
    if better.chance <= played.chance or not is_clear(better_further, played_further):
        return 0.0
    return better.chance - played.chance


def is_clear(further: int, behind: int) -> bool:
    """Whether the layouts show one action's games clearly further than another's: of the
    layouts where the two games ended differently, ``further`` where the one's got further
    and ``behind`` the other way round, ``further - behind`` is at least :data:`CLEAR_Z`
    times the square root of their sum (a one-sided sign test)."""
    return clearness(further, behind) >= CLEAR_Z


def review(deal: Deal | GameCode | str, actions: str | Iterable[str] = (),
           options: ReviewOptions = DEFAULT_REVIEW_OPTIONS, *, workers: int = 1,
           on_progress: Callable[[str, int, int], object] | None = None, **changes: Any) -> Review:
    """The review of the game ``actions`` played on ``deal``: each of the player's decisions
    judged by what the player could see, and the costliest named with the better action.

    ``deal`` is a :class:`Deal`, a :class:`GameCode` or a game code string; ``actions`` a
    game log in the notation of RULES.md §11 Action notation (text, or a list of texts),
    replayed as RULES.md §12 Replay says under ``options`` (:class:`ReviewOptions`;
    ``changes`` are field names of it). A log with a refused action gets no review
    (``replay.error`` names it), as in :func:`~spider_solver.analysis.analyze`; an
    unfinished game is reviewed up to its last action. The decisions are the actions in
    effect (after the undos) played where another action was legal.

    ``workers`` processes judge the decisions side by side (1: here; more start that many
    processes, each loading the fair hint's kernels): the answer is the same.
    ``on_progress(stage, done, total)`` is called as each judgement is settled: stage
    ``"decisions"`` (judged or skipped), then ``"costliest"`` (judged again: the total is
    the first round's, and grows by the second round's when it starts); first with
    ``done`` 0. Ctrl-C (a KeyboardInterrupt)
    stops the review: the answer holds the decisions judged by then, ``interrupted`` True
    and no costliest.
    """
    started = time.perf_counter()
    options = options.but(**changes)
    workers = check_workers(workers)
    deal = coerce_deal(deal)
    ready = _prepare(deal, actions, options, started)
    if isinstance(ready, Review):
        return ready
    start, base = ready
    if options.before_search is not None:
        loading = time.perf_counter()
        options.before_search()
        started += time.perf_counter() - loading
    jobs, forced = _decisions(start, options)
    base = replace(base, total=len(jobs), forced=forced)
    stretches = _Stretches()
    progress = _Progress(on_progress)
    try:
        with _judges(workers, len(jobs)) as judge:
            progress.start("decisions", len(jobs))
            for job, judged in judge(jobs, stretches.hopeless):
                stretches.add(job, judged)
                progress.tick()
            decisions = stretches.decisions()
            candidates = _to_confirm(jobs, stretches.judged, options)
            again: list[Job] = []
            confirmed: list[tuple[Job, Judged]] = []
            named: tuple[Mistake, ...] = ()
            progress.start("costliest", min(len(candidates), REVIEW_CONFIRMED))
            for batch in _rounds(candidates):
                if named:
                    break
                if again:
                    progress.extend(len(batch))
                again += batch
                for job, judged in judge(batch, None):
                    assert judged is not None  # none is skipped here
                    confirmed.append((job, judged))
                    progress.tick()
                named = _costliest(confirmed)
            named = named or _closest(confirmed)
    except KeyboardInterrupt:
        return _timed(replace(base, decisions=stretches.decisions(), skipped=stretches.skipped(), interrupted=True),
                      started)
    return _timed(replace(base, decisions=decisions, skipped=stretches.skipped(), costliest=named,
                          judged_again=tuple(sorted(job.index for job in again))), started)


def review_without_search(deal: Deal | GameCode | str, actions: str | Iterable[str] = (),
                          options: ReviewOptions = DEFAULT_REVIEW_OPTIONS, **changes: Any) -> Review | None:
    """What :func:`review` answers when it needs no engine (the log has a refused action),
    with none loaded; None when only the engine can answer."""
    ready = _prepare(coerce_deal(deal), actions, options.but(**changes), time.perf_counter())
    return ready if isinstance(ready, Review) else None


def check_workers(workers: object) -> int:
    """Worker processes from 1 to :data:`~spider_solver.limits.MAX_WORKERS`, as an int;
    :class:`~spider_solver.errors.InvalidOptionError` otherwise."""
    number = whole_number(workers)
    if number is None or not 1 <= number <= MAX_WORKERS:
        raise InvalidOptionError(f"invalid workers {quote(workers)}: expected a whole number from 1 to "
                                 f"{MAX_WORKERS:,}")
    return number


def confirm_seed(seed: int) -> int:
    """The seed of the fresh layouts the costliest decisions are judged again on."""
    return (seed + 1) % (MAX_SEED + 1)


# --------------------------------------------------------------------------- #
# The decisions
# --------------------------------------------------------------------------- #


@dataclass(frozen=True)
class Job:
    """One judgement: the position before a decision (a board, read only for what the
    player sees, and the view keys of the positions before it), the action played, and
    the sampling. ``extra``: actions to compare besides the planner's (the action played
    first)."""

    number: int
    index: int
    #: The stretch of play it lies in: what the player has seen changes only between two
    #: (the face-down cards of each column, the deals made, the runs removed).
    stretch: tuple
    board: Board
    #: The view keys of the positions before it (a view of one array for the game).
    history: np.ndarray
    extra: tuple[str, ...]
    layouts: int
    alternatives: int
    seed: int


def _prepare(deal: Deal, actions: str | Iterable[str], options: ReviewOptions,
             started: float) -> Review | tuple[Start, Review]:
    """The part of a review before the engine: the answer when none is needed (a refused
    log), else the replayed log and the answer so far."""
    start = replay_log(deal, actions, options.deal_on_empty, options.undo_limit)
    base = Review(str(deal.code) if deal.code is not None else None, start.replayed, (), (), (), (), 0, 0, False,
                  options.layouts, options.alternatives, options.confirm_layouts, options.seed)
    if start.replayed.error is not None:
        return _timed(base, started)
    return start, base


def _decisions(start: Start, options: ReviewOptions) -> tuple[list[Job], int]:
    """The judgements of the decisions of the actions in effect, and how many of those
    actions were forced (the only legal action)."""
    board = Board(start.deal, deal_on_empty=start.deal_on_empty, undo_limit=0)
    keys: list[int] = []  # the view key of each position of the game before the last
    found: list[tuple[int, int, tuple, Board, str]] = []
    forced = 0
    for index, action in start.effective:
        if len(board.legal_moves()) > 1:
            found.append((index, len(keys), (tuple(board.down), board.dealt, board.runs_removed), board.copy(), action))
        else:
            forced += 1
        keys.append(fair._view_key(board))
        board.push_notation(action)
    import numpy as np

    # One array of the keys, each job's history a view of it: a game of n actions holds n
    # keys, not n * n / 2 (a view is sent to a worker as the keys it holds).
    history = np.array(keys, dtype=np.uint64)
    jobs = [Job(number, index, stretch, before, history[:position], (action,), options.layouts,
                options.alternatives, options.seed)
            for number, (index, position, stretch, before, action) in enumerate(found)]
    return jobs, forced


class Judged(NamedTuple):
    """A judgement: the actions compared, the best chance first (the more layouts won first
    among equal chances, then the planner's order), and how far the game after each got on
    each layout (``ends[i]`` is ``choices[i]``'s: :func:`how_far`, layout by layout)."""

    choices: tuple[FairChoice, ...]
    ends: tuple[tuple[tuple[int, int, int], ...], ...]

    def versus(self, played: str) -> tuple[FairChoice, FairChoice | None, int, int]:
        """The action ``played``, the best other action (the highest chance; among equal
        chances, the one whose games got further than ``played``'s on the most layouts;
        None if there is no other), and the layouts where the game after the other got
        further and where the game after ``played`` did."""
        i = next(i for i, choice in enumerate(self.choices) if choice.action == played)
        best: tuple[float, int, int, int] | None = None
        for j in range(len(self.choices)):
            if j != i:
                pairs = list(zip(self.ends[j], self.ends[i], strict=True))
                further, behind = sum(1 for a, b in pairs if a > b), sum(1 for a, b in pairs if b > a)
                if best is None or (self.choices[j].chance, further - behind) > (best[0], best[2] - best[3]):
                    best = (self.choices[j].chance, j, further, behind)
        if best is None:
            return self.choices[i], None, 0, 0
        return self.choices[i], self.choices[best[1]], best[2], best[3]


def how_far(won: int, removed: int, down: int) -> tuple[int, int, int]:
    """How far a game on a layout got, to compare two games on the same layout: a won game
    is further than any other; then more runs removed; then fewer cards left face down."""
    return won, removed, -down


def _decision(job: Job, judged: Judged) -> Decision:
    """A decision from its judgement."""
    played, other, better_further, played_further = judged.versus(job.extra[0])
    cost = 0.0 if other is None else clear_cost(other, played, better_further, played_further)
    return Decision(job.index, played.action, judged.choices[0].chance, played.chance,
                    None if other is None else other.action, None if other is None else other.chance,
                    cost, judged.choices)


def _to_confirm(jobs: Sequence[Job], judged: Sequence[tuple[Job, Judged]], options: ReviewOptions) -> list[Job]:
    """The judgements again of the costliest decisions by their first judgement, the
    costliest first: those where the best other action's chance is not lower than the
    action played's and its games got further on more of the layouts, the largest gap of
    chance first, then the clearest (the sign test's statistic); at most
    REVIEW_CONFIRMED * REVIEW_CONFIRM_ROUNDS. Each compares the action played and the better
    one beside the planner's, on fresh layouts."""
    ranked = []
    for job, judgement in judged:
        played, other, further, behind = judgement.versus(job.extra[0])
        if other is not None and other.chance >= played.chance and further > behind:
            ranked.append((played.chance - other.chance, -clearness(further, behind), job.number, other.action))
    return [replace(jobs[number], extra=(jobs[number].extra[0], better), layouts=options.confirm_layouts,
                    alternatives=0, seed=confirm_seed(options.seed))
            for _, _, number, better in sorted(ranked)[:REVIEW_CONFIRMED * REVIEW_CONFIRM_ROUNDS]]


def _rounds(candidates: Sequence[Job]) -> Iterator[list[Job]]:
    """The candidates to judge again, REVIEW_CONFIRMED a round, each round in the order of
    the log: a round is judged only while none judged before stood (:func:`review`). At four
    suits the first judgement's gaps are mostly 0, no layout won by any action, and rank the
    candidates poorly: a second round found a decision in games where the first five found
    none (benchmarks/HISTORY.md, "Reviews")."""
    for start in range(0, len(candidates), REVIEW_CONFIRMED):
        yield sorted(candidates[start:start + REVIEW_CONFIRMED], key=lambda job: job.number)


def _costliest(confirmed: Sequence[tuple[Job, Judged]]) -> tuple[Mistake, ...]:
    """The decisions whose cost stood on the fresh layouts, at most REVIEW_COSTLIEST: those
    where the other action's chance was not lower than the action played's and its games
    got clearly further (:func:`is_clear`). The costliest first (by the chances), then the
    clearest (a decision that cost no chance the layouts can show, as when neither action
    won any, but whose games clearly got less far), then the earlier."""
    return tuple([m for m in _measured(confirmed) if m.clear][:REVIEW_COSTLIEST])


def _closest(confirmed: Sequence[tuple[Job, Judged]]) -> tuple[Mistake, ...]:
    """When no decision's cost stood: the closest call alone, marked not clear. Of the
    decisions judged again where the other action's chance was not lower and either higher
    or its games got further on more of the layouts, the one whose other action kept the
    most, then the clearest, then the earlier; none if there is no such decision. What the
    fresh layouts measured, which their luck can explain: a player asks which decision came
    closest to costing the game, and the words say that it is not clearly a mistake."""
    found = [m for m in _measured(confirmed) if m.cost > 0 or m.better_further > m.played_further]
    return tuple(replace(m, clear=False) for m in found[:1])


def _measured(confirmed: Sequence[tuple[Job, Judged]]) -> list[Mistake]:
    """The decisions judged again where the other action's chance was not lower than the
    action played's, each with whether its games clearly got further (:func:`is_clear`):
    the costliest first (by the chances), then the clearest, then the earlier."""
    found = []
    for job, judged in confirmed:
        played, other, better_further, played_further = judged.versus(job.extra[0])
        if other is None or other.chance < played.chance:
            continue
        found.append(Mistake(job.index, played.action, judged.choices[0].chance, played.chance, played.wins,
                             other.action, other.chance, other.wins, better_further, played_further,
                             other.chance - played.chance, job.layouts, is_clear(better_further, played_further)))
    return sorted(found, key=lambda m: (-m.cost, -clearness(m.better_further, m.played_further), m.index))


class _Stretches:
    """The judgements of the decisions, taken in their order, and the stretches of play
    found hopeless (:data:`HOPELESS_AFTER`)."""

    def __init__(self) -> None:
        self.judged: list[tuple[Job, Judged]] = []
        self.passed: list[Job] = []
        #: By stretch: its decisions judged in a row, to the last, that were flat.
        self.without_win: dict[tuple, int] = {}

    def hopeless(self, job: Job) -> bool:
        """Whether the job's decision is not to be judged (its stretch found hopeless)."""
        return self.without_win.get(job.stretch, 0) >= HOPELESS_AFTER

    def add(self, job: Job, judged: Judged | None) -> None:
        """The next decision: judged, skipped (None), or where the planner is stuck (a
        judgement with no choice: the decision is skipped, and counts as flat)."""
        if judged is None or not judged.choices:
            self.passed.append(job)
            if judged is not None:
                self.without_win[job.stretch] = self.without_win.get(job.stretch, 0) + 1
            return
        self.judged.append((job, judged))
        chances = [choice.chance for choice in judged.choices]
        flat = not any(choice.wins for choice in judged.choices) and max(chances) - min(chances) <= FLAT
        self.without_win[job.stretch] = self.without_win.get(job.stretch, 0) + 1 if flat else 0

    def decisions(self) -> tuple[Decision, ...]:
        return tuple(_decision(job, judged) for job, judged in self.judged)

    def skipped(self) -> tuple[int, ...]:
        return tuple(job.index for job in self.passed)


class _Progress:
    """Calls ``on_progress(stage, done, total)`` as each judgement is settled: stage
    ``"decisions"``, then ``"costliest"`` (judged again)."""

    def __init__(self, on_progress: Callable[[str, int, int], object] | None) -> None:
        self.on_progress = on_progress
        self.stage, self.done, self.total = "decisions", 0, 0

    def start(self, stage: str, total: int) -> None:
        self.stage, self.done, self.total = stage, 0, total
        if self.on_progress is not None and total:
            self.on_progress(stage, 0, total)

    def extend(self, more: int) -> None:
        """The stage's total grows by ``more`` (another round of judgements)."""
        self.total += more

    def tick(self) -> None:
        self.done += 1
        if self.on_progress is not None:
            self.on_progress(self.stage, self.done, self.total)


def judge(job: Job) -> Judged:
    """The actions compared at the job's position, on its layouts (:class:`Judged`); none
    where the planner is stuck (no action turns a card up, removes a run or gains on the
    position, and no deal is left: the fair hint gives none)."""
    from spider_solver.engine.fair_hint import fair_candidates

    board = job.board
    # A Ctrl-C or SIGTERM waits for the kernel's answer (stops.held), as a fair hint's does.
    with held():
        found = fair_candidates(board, job.history.tolist(), layouts=job.layouts, alternatives=job.alternatives,
                                seed=job.seed, extra=[board.parse_action(action) for action in job.extra])
    ranked = sorted(found, key=lambda c: (-c.chance, -c.wins))
    return Judged(tuple(FairChoice(board.notation(c.action), c.wins, c.layouts, c.chance) for c in ranked),
                  tuple(tuple(how_far(*end) for end in c.ends) for c in ranked))


# --------------------------------------------------------------------------- #
# Where the judgements run: here, or in worker processes
# --------------------------------------------------------------------------- #

#: Judges jobs in their order: (job, its choices), or (job, None) for a job that
#: ``hopeless(job)`` says is not to be judged, asked once every job before it is settled.
Judge = Callable[[Sequence[Job], Callable[[Job], bool] | None],
                 Iterator[tuple[Job, Judged | None]]]


def _here(batch: Sequence[Job], hopeless: Callable[[Job], bool] | None) -> Iterator[
        tuple[Job, Judged | None]]:
    """:data:`Judge` in this process."""
    for job in batch:
        yield job, None if hopeless is not None and hopeless(job) else judge(job)


@contextmanager
def _judges(workers: int, jobs: int) -> Iterator[Judge]:
    """A :data:`Judge`: here with one worker (or one job), else on ``workers`` processes
    started for the review (``spawn``, each loading the fair hint's kernels, ignoring
    Ctrl-C: this process stops them). The processes work ahead on the next jobs (twice
    as many as they are), and a job found not to be judged by the time its turn comes
    has its answer dropped: the same answers, in the same order, as :func:`_here`. On an
    error or Ctrl-C the processes are stopped at once."""
    if workers == 1 or jobs <= 1:
        yield _here
        return
    size = min(workers, jobs)
    before = {child.pid for child in multiprocessing.active_children()}
    pool = ProcessPoolExecutor(max_workers=size, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker)

    def run(batch: Sequence[Job], hopeless: Callable[[Job], bool] | None) -> Iterator[
            tuple[Job, Judged | None]]:
        ahead: dict[int, Future] = {}
        submitted = 0
        for turn, job in enumerate(batch):
            while submitted < len(batch) and submitted < turn + 2 * size:
                if hopeless is None or not hopeless(batch[submitted]):  # once hopeless, a stretch stays so
                    ahead[submitted] = pool.submit(judge, batch[submitted])
                submitted += 1
            future = ahead.pop(turn, None)
            if future is None or (hopeless is not None and hopeless(job)):
                if future is not None:
                    future.cancel()
                yield job, None
            else:
                yield job, future.result()

    try:
        yield run
    except BaseException:
        processes = [child for child in multiprocessing.active_children() if child.pid not in before]
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.kill()  # they ignore Ctrl-C and SIGTERM; a judgement holds nothing to clean up
        for process in processes:
            process.join()
        raise
    pool.shutdown()


def _start_worker() -> None:
    """A worker process as it starts: Ctrl-C and SIGTERM are its parent's to act on; the
    fair hint's kernels loaded (compiled before it started)."""
    ignore()
    load_fair_hint()


def _timed(answer: Review, started: float) -> Review:
    return replace(answer, seconds=round(time.perf_counter() - started, 4))


__all__ = ["CLEAR_Z", "DECISION_FIELDS", "DEFAULT_REVIEW_OPTIONS", "FLAT", "HOPELESS_AFTER", "MISTAKE_FIELDS",
           "REVIEW_FIELDS", "Decision", "Judged", "Mistake", "Review", "ReviewOptions", "check_workers", "clear_cost",
           "clearness", "confirm_seed", "is_clear", "judge", "review", "review_without_search"]
