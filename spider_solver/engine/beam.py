"""One beam search: a level at a time from the game's start, until a level wins, the
frontier empties, the level cap is reached, or the budget is spent.

:func:`beam` runs the mode it is given: a :class:`Beam` (``MODE_SEARCH``, the search's
move set, ``width`` positions a stratum kept a level) or the :class:`Exhaustive` search
(every position kept) in ``MODE_PROOF`` (every legal action but the ones that only
rename columns once the stock is empty) or ``MODE_ALL`` (every legal action), and says
how it ended as a :class:`~spider_solver.outcomes.BeamOutcome` in a frozen
:class:`Attempt`. The widening schedule (:mod:`~spider_solver.engine.schedule`) and the
driver (:mod:`~spider_solver.engine.driver`) decide what a solve makes of it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, fields

import numpy as np

from spider_solver.budget import Budget
from spider_solver.engine.evaluate import DEFAULT_WEIGHTS
from spider_solver.engine.game import Game
from spider_solver.engine.search import (
    SELECT_STRATA,
    STEP_OUT_OF_NODES,
    STEP_OVERFLOW,
    STEP_WON,
    BeamParams,
    Candidates,
    NextLevel,
    step_level,
)
from spider_solver.engine.shorten import LineIndex, line_hit
from spider_solver.engine.tt import TT_FORGOTTEN, TT_STORED, tt_new, tt_store, tt_store_all
from spider_solver.engine.types import MODE_ALL, MODE_PROOF, MODE_SEARCH, STATE_BYTES, VP_DEALS
from spider_solver.outcomes import AttemptSummary, BeamOutcome, SearchMode

#: How a beam chooses a level's positions when it is told nothing else: each stratum
#: (number of deals made) keeps its best ``width`` (see ``schedule.SELECTION``).
STRATA_SELECTION = (SELECT_STRATA, 0, 0, 0)


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
#: The exhaustive run's table gets this many slots more for each position known lost
#: (``Exhaustive.lost``), up to 2**MAX_TT_BITS: :func:`lost_table_bits`.
LOST_SLOTS = 2


#: The move set of each mode, as the kernels take it.
_MOVE_SET = {SearchMode.SEARCH: MODE_SEARCH, SearchMode.PROOF: MODE_PROOF, SearchMode.ALL: MODE_ALL}


@dataclass(frozen=True)
class Beam:
    """A beam of limited width: each stratum (number of deals made) keeps ``width``
    positions a level, chosen as ``selection`` says (see ``schedule.SELECTION``), over the
    search's move set (``MODE_SEARCH``).

    ``avoid`` (keys) are positions the beam must not pass through: they are stored in its
    transposition table as if already seen, again before every level (the table may
    forget a key; a key it forgets within a level may still slip through, which the
    caller checks on the line).
    """

    width: int
    selection: tuple[int, ...] = STRATA_SELECTION
    avoid: np.ndarray | tuple[int, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if not 1 <= self.width < UNLIMITED:
            raise ValueError(f"invalid beam width {self.width!r}: expected 1 to {UNLIMITED - 1} (the exhaustive "
                             "search is Exhaustive())")

    @property
    def mode(self) -> SearchMode:
        return SearchMode.SEARCH

    @property
    def reductions(self) -> bool:
        """A beam of limited width never takes the exhaustive search's reductions."""
        return False


@dataclass(frozen=True)
class Exhaustive:
    """The exhaustive search: every position kept, over every legal action but the ones
    that only rename columns once the stock is empty (``MODE_PROOF``) or, with
    ``every_action``, over every legal action (``MODE_ALL``). Its end without a win
    proves the game lost.

    ``reductions``: the search's reductions (``search``, "Reductions": the same positions
    at the same levels, fewer nodes); by default with ``MODE_PROOF`` only.

    ``avoid`` (keys): positions it never keeps; it then looks for a line and nothing more,
    and its end without one proves nothing (its attempt is marked ``avoiding``; the driver
    takes only its win). An exhaustive search that avoids positions and claims a proof
    cannot be written.

    ``lost`` (keys): positions already proved unwinnable (by earlier proofs on the same deal
    under the same rule), which it never keeps either; unlike ``avoid``, its end without a
    win is still a proof. Every position of a winning line is winnable (it reaches the win),
    and so is every position of every line into a winnable position: leaving unwinnable
    positions out removes no line that wins and no line into a position that lies on one,
    so the search (its reductions included: they reorder lines into a position, whose
    positions all reach it) still keeps every winnable position at its depth, and finds
    a win if there is one. Left out, they are not searched again: when a position proved
    lost is reachable from the start, the proof of the start skips everything reachable
    from it that it reaches only through it.

    ``record``: keep the keys of the positions kept; a proof (its end without a win, with
    nothing avoided) returns them in :attr:`Attempt.proved`.
    """

    every_action: bool = False
    reductions: bool | None = None
    avoid: np.ndarray | tuple[int, ...] = field(default=(), compare=False)
    lost: np.ndarray | tuple[int, ...] = field(default=(), compare=False)
    record: bool = False

    @property
    def mode(self) -> SearchMode:
        return SearchMode.ALL if self.every_action else SearchMode.PROOF

    @property
    def width(self) -> int:
        return UNLIMITED

    @property
    def selection(self) -> tuple[int, ...]:
        """The proof keeps every position whatever the policy."""
        return STRATA_SELECTION


#: How :func:`beam` searches: a beam of limited width, or the exhaustive search.
Mode = Beam | Exhaustive


@dataclass(frozen=True)
class Attempt(AttemptSummary):
    """One beam search: its mode, outcome and counters (:class:`AttemptSummary`), and its
    line in move codes, which :meth:`summary` leaves out."""

    #: The winning line (``outcome`` won), else empty.
    moves: list[int] = field(default_factory=list)
    #: With a :class:`LineWatch`: the moves to the best position of the watched line
    #: reached (empty if none), and that position's index on the line.
    hit_moves: list[int] = field(default_factory=list)
    hit_target: int = -1
    #: An :class:`Exhaustive` search with ``record`` that proved its start unwinnable (outcome
    #: exhausted, nothing avoided): the keys of every position it kept, the start included,
    #: sorted, each once. Each is reachable from the start, so each is unwinnable too.
    proved: np.ndarray | None = field(default=None, compare=False)

    def summary(self) -> AttemptSummary:
        """Its outcome and counters, as a search's result carries them (no line)."""
        counters = {spec.name: getattr(self, spec.name) for spec in fields(AttemptSummary)}
        return AttemptSummary(**counters | {"seconds": round(self.seconds, 4),
                                            "polish_saved": self.polish_saved if self.polish_nodes else 0})


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
    them, up to MAX_PROOF_LEVEL_CAP and MAX_TT_BITS (benchmarks/HISTORY.md, "Games in
    progress: proofs").
    """
    level = min(MAX_PROOF_LEVEL_CAP, max(MAX_PROOF_LEVEL, max_nodes // PROOF_NODES_PER_POSITION))
    bits = min(MAX_TT_BITS, max(PROOF_TT_BITS, (max_nodes // PROOF_NODES_PER_SLOT).bit_length()))
    return level, bits


def lost_table_bits(bits: int, lost: int) -> int:
    """The exhaustive run's table size (bits) when it starts with ``lost`` positions known lost
    in it, and would have ``2**bits`` slots with none: those slots are left free for its own
    positions, and there are ``LOST_SLOTS`` more for each position known lost (at most half
    of the table is taken before it starts), up to ``MAX_TT_BITS``. So a proof that skips
    positions known lost forgets no more of its own than it would alone, below the cap."""
    if lost <= 0:
        return bits
    return max(bits, min(MAX_TT_BITS, ((1 << bits) + LOST_SLOTS * lost - 1).bit_length()))


def tt_bits_for(width: int, strata: int, max_levels: int) -> int:
    expected = min(width, UNLIMITED) * strata * max_levels
    return max(MIN_TT_BITS, min(MAX_TT_BITS, int(expected).bit_length()))


class _Buffers:
    """The arrays one level works in (``cand``, ``next``), grown when a level needs more room.

    ``groups`` holds them again as plain tuples, the form step_level takes.
    """

    def __init__(self, candidates: int, level: int, prune: bool) -> None:
        self.candidates = 0
        self.level = 0
        #: The array only the reductions read (``arrive``) gets room only for them.
        self.prune = prune
        self.grow(candidates, level)

    def grow(self, candidates: int, level: int) -> None:
        if candidates > self.candidates:
            self.candidates = candidates
            extra = candidates if self.prune else 1
            self.cand = Candidates(
                parent=np.empty(candidates, dtype=np.int64),
                move=np.empty(candidates, dtype=np.int64),
                key=np.empty(candidates, dtype=np.uint64),
                score=np.empty(candidates, dtype=np.int64),
                stratum=np.empty(candidates, dtype=np.int64),
                arrive=np.empty(extra, dtype=np.int64),
            )
        if level > self.level:
            self.level = level
            self.next = NextLevel(
                selected=np.empty(level, dtype=np.int64),
                states=np.empty((level, STATE_BYTES), dtype=np.uint8),
                keys=np.empty(level, dtype=np.uint64),
                parent=np.empty(level, dtype=np.int64),
                move=np.empty(level, dtype=np.int64),
                arrive=np.empty(level if self.prune else 1, dtype=np.int64),
            )
        self.groups = (tuple(self.cand), tuple(self.next))


def beam(game: Game, mode: Mode, budget: Budget, *, weights: np.ndarray = DEFAULT_WEIGHTS,
         max_levels: int | None = None, watch: LineWatch | None = None) -> Attempt:
    """One beam search from the initial layout (``game.start``), as ``mode`` says (a
    :class:`Beam` of limited width or the :class:`Exhaustive` search).

    ``max_levels`` caps a line's length (default: ``MAX_LEVELS`` for a beam, none for the
    exhaustive search). With ``watch``, the kept positions of each level are also looked
    up among a known line's positions (see :class:`LineWatch`), and the beam stops at the
    level where neither a win nor a join can beat ``watch.best``.
    """
    exhaustive = isinstance(mode, Exhaustive)
    width = mode.width
    prune = exhaustive and (mode.mode is SearchMode.PROOF if mode.reductions is None else bool(mode.reductions))
    if max_levels is None:
        max_levels = UNLIMITED if exhaustive else MAX_LEVELS
    avoided = np.asarray(mode.avoid, dtype=np.uint64)
    lost = np.asarray(mode.lost if isinstance(mode, Exhaustive) else (), dtype=np.uint64)
    record = isinstance(mode, Exhaustive) and mode.record
    outcome = BeamOutcome.INTERRUPTED
    found: list[int] = []
    hit_moves: list[int] = []
    hit_target = -1
    nodes_spent = levels = peak_level = 0
    started = time.perf_counter()
    strata = int(game.vp[VP_DEALS]) + 1
    max_level, proof_bits = proof_limits(budget.left())
    if exhaustive:
        proof_bits = lost_table_bits(proof_bits, lost.size)
    tt = tt_new(proof_bits if exhaustive else tt_bits_for(width, strata, max_levels))
    if lost.size:
        tt_store_all(tt, lost)
        tt.info[:] = 0  # the counters count the search's own positions
    # step_level gets plain tuples: numba types them in C at each call, NamedTuples in Python.
    params = tuple(BeamParams(weights, _MOVE_SET[mode.mode], width, strata, np.array(mode.selection, dtype=np.int64),
                              int(prune)))
    tables = tuple(game.tables)
    tt_arrays = tuple(tt)
    states = game.start.reshape(1, STATE_BYTES).copy()
    keys = np.array([game.start_key], dtype=np.uint64)
    arrive = np.zeros(1, dtype=np.int64)  # the start was reached by no move
    tt_store(tt, keys[0])
    kept_keys: list[np.ndarray] = [keys] if record else []  # with ``record``: the keys of every level kept
    parents: list[np.ndarray] = []
    moves: list[np.ndarray] = []
    level_room = PROOF_LEVEL_ROOM if exhaustive else width * strata
    buffers = _Buffers(CANDIDATES_PER_POSITION * level_room, level_room, prune)
    cut = False
    try:
        while True:
            n_states = states.shape[0]
            if n_states == 0:
                outcome = BeamOutcome.CUT if cut else BeamOutcome.EXHAUSTED
                break
            if len(parents) >= max_levels or (watch is not None and len(parents) >= watch.best - watch.offset - 1):
                outcome = BeamOutcome.LEVELS
                break
            if exhaustive and n_states > max_level:
                outcome = BeamOutcome.CUT
                break
            reason = budget.exceeded()
            if reason is not None:
                outcome = BeamOutcome(reason.value)
                break
            for key in avoided:
                tt_store(tt, key)
            while True:
                step, kept, nodes, truncated, won_parent, won_move = step_level(
                    (states, keys), arrive, tables, params, tt_arrays, *buffers.groups, budget.left())
                nodes_spent += nodes
                budget.spend(nodes)
                if step != STEP_OVERFLOW:
                    break
                # Nothing was kept: give the level more room and play it again.
                buffers.grow(max(2 * buffers.candidates, CANDIDATES_PER_POSITION * n_states),
                             2 * buffers.level if exhaustive else buffers.level)
            if step == STEP_OUT_OF_NODES:
                outcome = BeamOutcome.NODES
                break
            if step == STEP_WON:
                found = _backtrack(parents, moves, len(parents), int(won_parent)) + [int(won_move)]
                outcome = BeamOutcome.WON
                break
            cut = cut or truncated
            parents.append(buffers.next.parent[:kept].astype(np.int32))
            moves.append(buffers.next.move[:kept].astype(np.int32))
            states = buffers.next.states[:kept].copy()
            keys = buffers.next.keys[:kept].copy()
            if record:
                kept_keys.append(keys)
            if prune:
                arrive = buffers.next.arrive[:kept].copy()
            peak_level = max(peak_level, kept)
            levels = len(parents)
            if watch is not None:
                at, target = line_hit(keys, watch.index)
                if at >= 0 and watch.offset + len(parents) + watch.length - target < watch.best:
                    watch.best = watch.offset + len(parents) + watch.length - target
                    hit_moves = _backtrack(parents, moves, len(parents), at)
                    hit_target = int(target)
    except KeyboardInterrupt:
        outcome = BeamOutcome.INTERRUPTED
    proved = None
    if record and outcome is BeamOutcome.EXHAUSTED and not avoided.size:
        proved = np.unique(np.concatenate(kept_keys))
    return Attempt(None if exhaustive else width, mode.mode, outcome, moves=found, nodes=nodes_spent, levels=levels,
                   peak_level=peak_level, tt_stored=int(tt.info[TT_STORED]), tt_forgotten=int(tt.info[TT_FORGOTTEN]),
                   seconds=time.perf_counter() - started, hit_moves=hit_moves, hit_target=hit_target,
                   level_limit=max_level if exhaustive else 0, avoiding=bool(avoided.size and exhaustive),
                   proved=proved)


def _backtrack(parents: list[np.ndarray], moves: list[np.ndarray], level: int, index: int) -> list[int]:
    """The moves from the beam's start to position ``index`` of the level reached in ``level`` moves."""
    line = []
    for depth in range(level - 1, -1, -1):
        line.append(int(moves[depth][index]))
        index = int(parents[depth][index])
    return line[::-1]
