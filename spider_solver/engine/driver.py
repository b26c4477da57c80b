"""The Python loop around the kernels: budget, widening schedule, progress, Ctrl-C.

A solve is a series of beam searches of growing width (``WIDTHS``, by suit count) in
``MODE_SEARCH``. Each runs level by level until a level wins, the frontier
empties, the level cap is reached, or the budget is spent. Nodes (children made
by ``do_move``) are the budget that decides: the run is deterministic until the
seconds budget, a safety net, cuts it. If a beam ends with nothing left to try
and never cut a level, the search-mode move set is exhausted; the driver then
runs ``MODE_ALL`` with no width limit, a breadth-first search of the whole game,
which either wins or proves the deal unwinnable.

A line found is shortened (:mod:`spider_solver.engine.shorten`) and returned as
an :class:`EngineResult`; the engine decides nothing more.
:mod:`spider_solver.verify` replays the line on the reference rules engine, and only
then is the deal called verified.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from spider_solver.engine.cache import require_jit
from spider_solver.engine.evaluate import DEFAULT_WEIGHTS, weights_for
from spider_solver.engine.game import Game
from spider_solver.engine.search import (
    SELECT_SHARED,
    SELECT_STRATA,
    STEP_OUT_OF_NODES,
    STEP_OVERFLOW,
    STEP_WON,
    BeamParams,
    Candidates,
    NextLevel,
    step_level,
)
from spider_solver.engine.shorten import LineIndex, line_hit, shorten
from spider_solver.engine.tt import TT_FORGOTTEN, TT_STORED, tt_new, tt_store
from spider_solver.engine.types import MODE_ALL, MODE_SEARCH, STATE_BYTES, VP_DEALS
from spider_solver.outcomes import Reason

#: Beam widths per stratum, tried in turn while the budget lasts, by suit count.
#: The first width sets the usual cost and line length: on the tuning deals
#: (10000-10099) starting 4-suit deals at 16 / 64 / 128 gave median lines of
#: 160 / 149 / 142 actions for 0.15 / 0.21 / 0.41 s; see benchmarks/HISTORY.md, "The widening schedule".
#: Since the node became 2.7 times cheaper (issue 11), 1 suit starts four times as wide
#: as before (32) and 2 suits twice (64), in no more time than before the change: on
#: the tuning deals 96 -> 92 actions (1 suit, with the post-pass) and 111 -> 109.5 (2 suits).
#: 4 suits keep 64: the 1000-deal batch's time target leaves no room there. With the
#: 2-suit weights of their own (evaluate.SOLVE_WEIGHTS) 2 suits started at 256: on tuning
#: deals 100000-100199 a mean 105.6 -> 103.7 actions for twice the nodes (0.1 -> 0.2 s
#: a deal), within the time 2-suit solves took when issue 11 was filed (0.224 s). With
#: the shared selection (SELECTION) they start at 224, for the same time.
#: Most deals are won by the first width or two; the default budget (150M nodes,
#: verify.DEFAULT_MAX_NODES) lets the whole schedule run on the hard ones: on the 4-suit
#: tuning deals width 4096 ended after 12-33M nodes in all, and 16384, the widest,
#: took 55-63M more, at a peak of about 560 MB (benchmarks/HISTORY.md, "Solve's default budget").
WIDTHS = {
    1: (128, 512, 2048, 8192, 16384),
    2: (224, 1024, 4096, 16384),
    4: (64, 256, 1024, 4096, 16384),
}
#: How each beam of the schedule chooses a level's positions (search.SELECT_*), by suit
#: count. 4 suits share the level's room between the strata, a deal made counting 70 in
#: the evaluation's units (a break costs 7-9, a removed run 36), each stratum keeping at
#: least half the width and taking at most twice: on the tuning deals 10000-10199 the
#: schedule's lines went from a median of 147 to 141.5 (mean 151.7 to 146.0) for 0.93
#: times the median nodes, the 4-suit post-pass now being off (rephase.POLISH_NODES)
#: since it added nothing on top. At 2 suits, with their own weights, a deal made counts
#: 120 and the first width is 224 instead of 256: on tuning deals 100000-100199 (chosen
#: there, offsets 70-180 and widths 192-256 tried) a paired -0.92 +- 0.20 actions a deal,
#: and on unseen tuning deals 100200-100499 -0.87 +- 0.18 (mean 103.5 -> 102.7) for 1.06
#: times the nodes. 1 suit keeps one width per stratum. Only the schedule's beams use
#: it: ``improve`` and the exhaustive proof do not.
STRATA_SELECTION = (SELECT_STRATA, 0, 0, 0)
SELECTION = {
    1: STRATA_SELECTION,
    2: (SELECT_SHARED, 120, 500, 2000),
    4: (SELECT_SHARED, 70, 500, 2000),
}
#: A line longer than this is not looked for by the beam (a proof run has no cap).
MAX_LEVELS = 400
UNLIMITED = 1 << 40
#: The transposition table never exceeds 2**MAX_TT_BITS slots (8 bytes each).
MAX_TT_BITS = 25
#: The exhaustive run gives up (it cannot prove anything) past this many
#: positions in one level: a bound on its memory (about 1.2 KB a position of the
#: level, its candidates included), and its table has 2**PROOF_TT_BITS slots, at the
#: default budget. A larger budget raises both (:func:`proof_limits`): a level of
#: max_nodes / PROOF_NODES_PER_POSITION positions, up to MAX_PROOF_LEVEL_CAP (about
#: 4 GB), so that the nodes a caller grants can be spent on a proof.
MAX_PROOF_LEVEL = 400_000
MAX_PROOF_LEVEL_CAP = 3_000_000
PROOF_NODES_PER_POSITION = 375
PROOF_TT_BITS = 22
#: The proof's table gets a slot for every PROOF_NODES_PER_SLOT nodes of the budget.
PROOF_NODES_PER_SLOT = 64
#: The smallest transposition table a beam gets, 2**MIN_TT_BITS slots.
MIN_TT_BITS = 16
#: Candidate buffers start at this many candidates a position of the level (they
#: grow when a level needs more).
CANDIDATES_PER_POSITION = 64
#: The exhaustive run's level buffers start with room for this many positions.
PROOF_LEVEL_ROOM = 1024


@dataclass
class Attempt:
    """One beam search: its outcome and counters."""

    width: int
    mode: int
    outcome: str = ""  # "won", "exhausted", "cut", "levels", "nodes", "seconds", "interrupted"
    moves: list[int] = field(default_factory=list)
    nodes: int = 0
    levels: int = 0
    peak_level: int = 0
    tt_stored: int = 0
    tt_forgotten: int = 0
    seconds: float = 0.0
    #: With a :class:`LineWatch`: the moves to the best position of the watched line
    #: reached (empty if none), and that position's index on the line.
    hit_moves: list[int] = field(default_factory=list)
    hit_target: int = -1
    #: Nodes of the post-pass on a won line (counted in ``nodes``), and the actions it saved.
    polish_nodes: int = 0
    polish_saved: int = 0

    def summary(self) -> dict:
        return {
            "width": self.width if self.width < UNLIMITED else None,
            "mode": "all" if self.mode == MODE_ALL else "search",
            "outcome": self.outcome,
            "nodes": self.nodes,
            "levels": self.levels,
            "peak_level": self.peak_level,
            "tt_stored": self.tt_stored,
            "tt_forgotten": self.tt_forgotten,
            "seconds": round(self.seconds, 4),
        } | ({"polish_nodes": self.polish_nodes, "polish_saved": self.polish_saved} if self.polish_nodes else {})


class Budget:
    """Nodes first, seconds second; checked between levels."""

    def __init__(self, max_nodes: int, max_seconds: float | None, progress=None) -> None:
        self.max_nodes = max_nodes
        self.deadline = None if max_seconds is None else time.monotonic() + max_seconds
        self.nodes = 0
        self.progress = progress

    def spend(self, nodes: int) -> None:
        self.nodes += nodes
        if self.progress is not None:
            self.progress.update(min(nodes, max(0, self.max_nodes - self.progress.n)))

    def exceeded(self) -> str:
        if self.nodes >= self.max_nodes:
            return "nodes"
        if self.deadline is not None and time.monotonic() >= self.deadline:
            return "seconds"
        return ""


@dataclass
class LineWatch:
    """A known line the beam may join: a beam from position ``offset`` of the line that
    reaches its position j in d actions makes a line of ``offset + d + (length - j)``
    actions. ``best`` is the shortest line known so far (the beam stops at the level
    where it can no longer beat it); the beam records the best join in its attempt."""

    index: LineIndex
    offset: int
    length: int
    best: int


def proof_limits(max_nodes: int) -> tuple[int, int]:
    """The exhaustive run's largest level and table size (bits) when ``max_nodes`` are left for it.

    Up to 150M nodes (solve's default budget) these are MAX_PROOF_LEVEL and
    PROOF_TT_BITS, which keep a solving process under 1 GB; a larger budget raises
    them. Two of issue 8's positions that no default proof reaches needed levels of
    0.8M and 1.6M positions (and 56M and 112M nodes): benchmarks/HISTORY.md, "Games in
    progress: proofs".
    """
    level = min(MAX_PROOF_LEVEL_CAP, max(MAX_PROOF_LEVEL, max_nodes // PROOF_NODES_PER_POSITION))
    bits = min(MAX_TT_BITS, max(PROOF_TT_BITS, (max_nodes // PROOF_NODES_PER_SLOT).bit_length()))
    return level, bits


def tt_bits_for(width: int, strata: int, max_levels: int) -> int:
    expected = min(width, UNLIMITED) * strata * max_levels
    return max(MIN_TT_BITS, min(MAX_TT_BITS, int(expected).bit_length()))


class _Buffers:
    """The arrays one level works in (``cand``, ``next``), grown when a level needs more room.

    ``groups`` holds them again as plain tuples, the form step_level takes.
    """

    def __init__(self, candidates: int, level: int) -> None:
        self.candidates = 0
        self.level = 0
        self.grow(candidates, level)

    def grow(self, candidates: int, level: int) -> None:
        if candidates > self.candidates:
            self.candidates = candidates
            self.cand = Candidates(
                parent=np.empty(candidates, dtype=np.int64),
                move=np.empty(candidates, dtype=np.int64),
                key=np.empty(candidates, dtype=np.uint64),
                score=np.empty(candidates, dtype=np.int64),
                stratum=np.empty(candidates, dtype=np.int64),
            )
        if level > self.level:
            self.level = level
            self.next = NextLevel(
                selected=np.empty(level, dtype=np.int64),
                states=np.empty((level, STATE_BYTES), dtype=np.uint8),
                keys=np.empty(level, dtype=np.uint64),
                parent=np.empty(level, dtype=np.int64),
                move=np.empty(level, dtype=np.int64),
            )
        self.groups = (tuple(self.cand), tuple(self.next))


def beam(game: Game, width: int, mode: int, budget: Budget, *, weights: np.ndarray = DEFAULT_WEIGHTS,
         max_levels: int = MAX_LEVELS, watch: LineWatch | None = None,
         selection: tuple[int, ...] = STRATA_SELECTION) -> Attempt:
    """One beam search from the initial layout (``game.start``).

    ``selection`` is how a level's positions are chosen (see ``SELECTION``); the
    exhaustive search (``MODE_ALL``) keeps every position whatever it says.

    With ``watch``, the kept positions of each level are also looked up among a known
    line's positions (see :class:`LineWatch`), and the beam stops at the level where
    neither a win nor a join can beat ``watch.best``.
    """
    attempt = Attempt(width, mode)
    started = time.perf_counter()
    strata = int(game.vp[VP_DEALS]) + 1
    exhaustive = width >= UNLIMITED
    max_level, proof_bits = proof_limits(budget.max_nodes - budget.nodes)
    tt = tt_new(proof_bits if exhaustive else tt_bits_for(width, strata, max_levels))
    # step_level gets plain tuples: numba types them in C at each call, NamedTuples in Python.
    if mode != MODE_SEARCH:
        selection = STRATA_SELECTION  # the proof keeps every position whatever the policy
    params = tuple(BeamParams(weights, mode, width, strata, np.array(selection, dtype=np.int64)))
    tables = tuple(game.tables)
    tt_arrays = tuple(tt)
    states = game.start.reshape(1, STATE_BYTES).copy()
    keys = np.array([game.start_key], dtype=np.uint64)
    tt_store(tt, keys[0])
    parents: list[np.ndarray] = []
    moves: list[np.ndarray] = []
    level_room = PROOF_LEVEL_ROOM if exhaustive else width * strata
    buffers = _Buffers(CANDIDATES_PER_POSITION * level_room, level_room)
    cut = False
    try:
        while True:
            n_states = states.shape[0]
            if n_states == 0:
                attempt.outcome = "cut" if cut else "exhausted"
                break
            if len(parents) >= max_levels or (watch is not None and len(parents) >= watch.best - watch.offset - 1):
                attempt.outcome = "levels"
                break
            if exhaustive and n_states > max_level:
                attempt.outcome = "cut"
                break
            reason = budget.exceeded()
            if reason:
                attempt.outcome = reason
                break
            while True:
                outcome, kept, nodes, truncated, won_parent, won_move = step_level(
                    (states, keys), tables, params, tt_arrays, *buffers.groups, budget.max_nodes - budget.nodes)
                attempt.nodes += nodes
                budget.spend(nodes)
                if outcome != STEP_OVERFLOW:
                    break
                # Nothing was kept: give the level more room and play it again.
                buffers.grow(max(2 * buffers.candidates, CANDIDATES_PER_POSITION * n_states),
                             2 * buffers.level if exhaustive else buffers.level)
            if outcome == STEP_OUT_OF_NODES:
                attempt.outcome = "nodes"
                break
            if outcome == STEP_WON:
                attempt.moves = _backtrack(parents, moves, len(parents), int(won_parent)) + [int(won_move)]
                attempt.outcome = "won"
                break
            cut = cut or truncated
            parents.append(buffers.next.parent[:kept].astype(np.int32))
            moves.append(buffers.next.move[:kept].astype(np.int32))
            states = buffers.next.states[:kept].copy()
            keys = buffers.next.keys[:kept].copy()
            attempt.peak_level = max(attempt.peak_level, kept)
            attempt.levels = len(parents)
            if watch is not None:
                at, target = line_hit(keys, watch.index)
                if at >= 0 and watch.offset + len(parents) + watch.length - target < watch.best:
                    watch.best = watch.offset + len(parents) + watch.length - target
                    attempt.hit_moves = _backtrack(parents, moves, len(parents), at)
                    attempt.hit_target = int(target)
    except KeyboardInterrupt:
        attempt.outcome = "interrupted"
    attempt.tt_stored, attempt.tt_forgotten = int(tt.info[TT_STORED]), int(tt.info[TT_FORGOTTEN])
    attempt.seconds = time.perf_counter() - started
    return attempt


def _backtrack(parents: list[np.ndarray], moves: list[np.ndarray], level: int, index: int) -> list[int]:
    """The moves from the beam's start to position ``index`` of the level reached in ``level`` moves."""
    line = []
    for depth in range(level - 1, -1, -1):
        line.append(int(moves[depth][index]))
        index = int(parents[depth][index])
    return line[::-1]


@dataclass(frozen=True)
class EngineResult:
    """What the engine found; the verification layer decides what it proves.

    ``actions`` is the shortened winning line in action notation (None if no line was
    found); ``reason`` says why the search stopped (``Reason.WON`` with a line,
    ``Reason.EXHAUSTED`` when the exhaustive search proved there is none).
    """

    actions: tuple[str, ...] | None
    reason: Reason
    nodes: int
    seconds: float
    attempts: tuple[dict, ...] = ()


#: The reason a solve ends with when its last attempt ended this way and no width is left.
_FINAL_REASON = {"cut": Reason.WIDTHS, "levels": Reason.LEVELS, "exhausted": Reason.WIDTHS}


def run_search(deal, *, max_nodes: int, max_seconds: float | None, deal_on_empty: bool = False,
               progress: bool = False, widths: tuple[int, ...] | None = None,
               weights: np.ndarray | None = None, proof_nodes: int = 0, proof_after: int = 1,
               final_proof: bool = False, polish: bool = True,
               selection: tuple[int, ...] | None = None) -> EngineResult:
    """Search ``deal`` within the budget: a widening series of beams, then (when a beam
    spent its move set without dropping a position) the exhaustive search.

    ``deal`` is a :class:`~spider_solver.rules.Deal` (the search starts from its
    initial layout; ``deal_on_empty`` applies) or a :class:`Game` (it starts from the
    game's position, under the game's own ``deal_on_empty``; see
    :meth:`Game.from_board`). The line found is in action notation from that start.

    ``proof_nodes`` > 0 inserts an early exhaustive search, on at most that many nodes
    of the budget, after the first ``proof_after`` beam widths (0: before any beam).
    Late in a game it is cheap and conclusive, where the beams would widen in vain on
    a position that cannot be won. If it neither wins nor proves, the widening goes
    on with what is left of the budget; if it gave up on a level too large, no
    exhaustive search is tried again (it would give up at the same level).

    ``final_proof`` runs the exhaustive search with the rest of the budget when every
    width of the schedule ended without a win (reasons ``widths`` and ``levels``):
    a position whose beams die out may still be proved, where a deal's outcome would
    otherwise stay ``unknown`` with budget unspent. ``solve`` leaves it off.

    ``polish`` re-searches the phases of a line found by a beam with a wider beam, on a
    small share of nodes (:func:`~spider_solver.engine.rephase.polish`), within the budget.

    ``selection`` is how the schedule's beams choose a level's positions (default:
    ``SELECTION`` of the deal's suit count).
    """
    require_jit()
    started = time.perf_counter()
    game = deal if isinstance(deal, Game) else Game.from_deal(deal, deal_on_empty=deal_on_empty)
    if weights is None:
        weights = weights_for(game.deal.variant.suits)
    deal = game.deal
    if game.start_removed == deal.variant.runs:
        return EngineResult(actions=(), reason=Reason.WON, nodes=0, seconds=0.0)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=max_nodes, unit="node", unit_scale=True, desc=deal.name, file=sys.stderr, leave=False)
    budget = Budget(max_nodes, max_seconds, bar)
    if selection is None:
        selection = SELECTION[deal.variant.suits]
    attempts: list[Attempt] = []
    reason, line = Reason.WIDTHS, None
    shortened = False
    #: (width, mode, node cap or None); a capped entry is the early exhaustive search.
    schedule: list[tuple[int, int, int | None]] = [(w, MODE_SEARCH, None)
                                                   for w in (widths or WIDTHS[deal.variant.suits])]
    if proof_nodes > 0:
        schedule.insert(min(proof_after, len(schedule)), (UNLIMITED, MODE_ALL, proof_nodes))
    proof_gave_up = False
    try:
        i = 0
        while i < len(schedule):
            width, mode, cap = schedule[i]
            if bar is not None:
                bar.set_description(f"{deal.name} width {width if width < UNLIMITED else 'all'}")
            with _capped(budget, cap):
                attempt = beam(game, width, mode, budget, weights=weights, selection=selection,
                               max_levels=MAX_LEVELS if mode == MODE_SEARCH else UNLIMITED)
            attempts.append(attempt)
            i += 1
            if attempt.outcome == "won":
                line, reason = attempt.moves, Reason.WON
                if polish and mode == MODE_SEARCH:
                    line, polish_stopped = _polished(game, line, width, budget, attempt)
                    shortened = True
                    if polish_stopped == "interrupted":
                        # The post-pass's beams took a Ctrl-C as their stop: the solve stops too.
                        line, reason = None, Reason.INTERRUPTED
                break
            stopped = budget.exceeded() if attempt.outcome == "nodes" else attempt.outcome
            if stopped in ("nodes", "seconds", "interrupted"):
                reason = Reason(stopped)
                break
            if mode == MODE_ALL:
                if attempt.outcome == "exhausted":
                    reason = Reason.EXHAUSTED
                    break
                if cap is None:
                    reason = Reason.PROOF_GAVE_UP
                    break
                # The early proof spent its share (a later one may have more) or gave up.
                proof_gave_up = attempt.outcome == "cut"
                if proof_gave_up:
                    reason = Reason.PROOF_GAVE_UP
                continue
            if attempt.outcome == "exhausted":
                if proof_gave_up:
                    reason = Reason.PROOF_GAVE_UP
                    break
                # The narrow move set is spent without a cut: search everything.
                schedule = schedule[:i] + [(UNLIMITED, MODE_ALL, None)]
            reason = _FINAL_REASON[attempt.outcome]
        if final_proof and reason in (Reason.WIDTHS, Reason.LEVELS) and not proof_gave_up:
            # Every width failed and budget is left: the exhaustive search is the last thing that can settle it.
            if bar is not None:
                bar.set_description(f"{deal.name} width all")
            attempt = beam(game, UNLIMITED, MODE_ALL, budget, weights=weights, max_levels=UNLIMITED)
            attempts.append(attempt)
            reason = _LAST_PROOF_REASON.get(attempt.outcome) or Reason(attempt.outcome)
            line = attempt.moves if attempt.outcome == "won" else None
    finally:
        if bar is not None:
            bar.close()
    return _result(game, line, reason, budget, started, attempts, shortened=shortened)


def _polished(game: Game, line: list[int], width: int, budget: Budget, attempt: Attempt) -> tuple[list[int], str]:
    """The line shortened, then its phases re-searched at a wider beam (see rephase.polish),
    and why the re-search stopped early ("" if it did not; "interrupted" for a Ctrl-C).

    The nodes count in the winning ``attempt`` (``polish_nodes`` says how many)."""
    from spider_solver.engine.rephase import polish

    started = time.perf_counter()
    before = budget.nodes
    line = shorten(game, line)
    result = polish(game, line, width, budget)
    attempt.polish_nodes = budget.nodes - before
    attempt.polish_saved = len(line) - len(result.line)
    attempt.nodes += attempt.polish_nodes
    attempt.seconds += time.perf_counter() - started
    if budget.progress is not None:
        budget.progress.update(min(attempt.polish_nodes, max(0, budget.max_nodes - budget.progress.n)))
    return result.line, result.stopped


#: The reason a last exhaustive search gives, by its outcome (otherwise: nodes, seconds, interrupted).
_LAST_PROOF_REASON = {"won": Reason.WON, "exhausted": Reason.EXHAUSTED, "cut": Reason.PROOF_GAVE_UP}


@contextmanager
def _capped(budget: Budget, nodes: int | None) -> Iterator[None]:
    """Within the block, the budget allows at most ``nodes`` more nodes (None: all that is left)."""
    saved = budget.max_nodes
    if nodes is not None:
        budget.max_nodes = min(saved, budget.nodes + nodes)
    try:
        yield
    finally:
        budget.max_nodes = saved


def _result(game: Game, line: list[int] | None, reason: Reason, budget: Budget, started: float,
            attempts: list[Attempt], *, shortened: bool = False) -> EngineResult:
    """The engine's report: the line shortened (unless it is already) and written in action notation."""
    actions = None
    if line is not None:
        actions = tuple(str(action) for action in game.actions(line if shortened else shorten(game, line)))
    return EngineResult(
        actions=actions,
        reason=reason,
        nodes=budget.nodes,
        seconds=round(time.perf_counter() - started, 4),
        attempts=tuple(a.summary() for a in attempts),
    )
