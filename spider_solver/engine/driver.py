"""The Python loop around the kernels: budget, widening schedule, progress, Ctrl-C.

A solve runs the beams of its :class:`~spider_solver.engine.schedule.Schedule` in
turn, beam searches of growing width (:mod:`~spider_solver.engine.beam`) in
``MODE_SEARCH``. Each runs level by level until a level wins, the frontier
empties, the level cap is reached, or the budget is spent. Nodes (children made
by ``do_move``) are the budget that decides (:class:`~spider_solver.budget.Budget`):
the run is deterministic until the seconds budget, a safety net, cuts it. If a beam
ends with nothing left to try and never cut a level, the search-mode move set is
exhausted; the driver then runs ``MODE_PROOF`` with no width limit, a breadth-first
search of the whole game, which either wins or proves the deal unwinnable.

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
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from spider_solver.budget import Budget
from spider_solver.engine.beam import LOST_SLOTS, MAX_TT_BITS, UNLIMITED, Attempt, Beam, Exhaustive, beam
from spider_solver.engine.cache import require_jit
from spider_solver.engine.evaluate import weights_for
from spider_solver.engine.game import Game
from spider_solver.engine.rephase import polish
from spider_solver.engine.schedule import PROOF, SELECTION, Schedule, Step
from spider_solver.engine.shorten import positions, shorten
from spider_solver.outcomes import AttemptSummary, BeamOutcome, Reason

#: The second exhaustive search, which avoids the history (SearchOptions.avoid), spends at
#: most this many times the nodes of the first (and at least AVOIDING_PROOF_MIN_NODES): a
#: line that avoids a few positions is about as deep as the shortest line.
AVOIDING_PROOF_SHARE = 2
AVOIDING_PROOF_MIN_NODES = 100_000
#: The most positions a :class:`LostPositions` holds: the exhaustive search that starts with
#: them in its table then has at most 2**MAX_TT_BITS slots (beam.LOST_SLOTS a key), 256 MB.
LOST_KEYS_LIMIT = (1 << MAX_TT_BITS) // LOST_SLOTS


@dataclass(frozen=True)
class SearchOptions:
    """How :func:`run_search` searches; the defaults are ``solve``'s."""

    #: For a :class:`~spider_solver.rules.Deal`: the rule of a deal on an empty column
    #: (a :class:`Game` has its own).
    deal_on_empty: bool = False
    #: A progress bar of nodes on stderr.
    progress: bool = False
    #: The widths of the schedule (default: ``schedule.WIDTHS`` of the deal's suit count).
    widths: tuple[int, ...] | None = None
    #: How the schedule's beams choose a level's positions (default: ``schedule.SELECTION``).
    selection: tuple[int, ...] | None = None
    #: The evaluation (default: ``evaluate.weights_for`` the deal's suit count).
    weights: np.ndarray | None = field(default=None, compare=False)
    #: > 0: an early exhaustive search on at most this many nodes of the budget, after the
    #: first ``proof_after`` widths (0: before any beam).
    proof_nodes: int = 0
    proof_after: int = 1
    #: The exhaustive search with the rest of the budget when every width failed.
    final_proof: bool = False
    #: A won beam's line re-searched by a wider beam (:func:`~spider_solver.engine.rephase.polish`).
    polish: bool = True
    #: Keys of positions the line should not pass through (a game's history): the beams
    #: of the schedule never keep them, and of the line shortened and polished, the line
    #: shortened and the beam's own line, the first that avoids them is returned. The
    #: exhaustive search ignores them (its answer stays a proof); when its line passes
    #: through one, a second exhaustive search that never keeps them looks for another
    #: line (on at most ``AVOIDING_PROOF_SHARE`` times the first one's nodes). Only when
    #: it finds none is the first line returned, through the history; the caller checks.
    avoid: tuple[int, ...] = ()
    #: Positions proved unwinnable, shared by the searches of one analysis (None: none):
    #: the exhaustive searches never keep them (their end without a win stays a proof:
    #: see :class:`~spider_solver.engine.beam.Exhaustive`), and a proof adds every position
    #: it kept. Only for searches of the same deal under the same ``deal_on_empty``.
    lost: LostPositions | None = field(default=None, compare=False)


class LostPositions:
    """The positions of one deal (under one ``deal_on_empty``) proved unwinnable so far: the
    keys of every position an exhaustive search kept before it ended without a win. Each
    is reachable from that search's start, which cannot be won, so none can be won.

    Searches that share it (:attr:`SearchOptions.lost`) never search them again. It holds
    at most ``limit`` keys: past that it keeps what it has (any part of it is as sound), so
    that the table of the proofs that start with them stays under ``2**MAX_TT_BITS`` slots.
    """

    def __init__(self, limit: int = LOST_KEYS_LIMIT) -> None:
        self.limit = limit
        #: The keys, sorted, each once.
        self.keys = np.empty(0, dtype=np.uint64)

    def __len__(self) -> int:
        return int(self.keys.size)

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, int | np.integer) or not 0 <= int(key) < 1 << 64:
            return False
        at = int(np.searchsorted(self.keys, np.uint64(key)))
        return at < self.keys.size and int(self.keys[at]) == int(key)

    def add(self, keys: np.ndarray) -> None:
        """Add the keys of positions proved unwinnable (unless that would pass ``limit``)."""
        merged = np.union1d(self.keys, np.asarray(keys, dtype=np.uint64))
        if merged.size <= self.limit:
            self.keys = merged


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
    #: What each beam of the search did, in order.
    attempts: tuple[AttemptSummary, ...] = ()


def run_search(deal, *, budget: Budget, options: SearchOptions = SearchOptions()) -> EngineResult:
    """Search ``deal`` within ``budget``: a widening series of beams, then (when a beam
    spent its move set without dropping a position) the exhaustive search.

    ``deal`` is a :class:`~spider_solver.rules.Deal` (the search starts from its
    initial layout; ``options.deal_on_empty`` applies) or a :class:`Game` (it starts
    from the game's position, under the game's own ``deal_on_empty``; see
    :meth:`Game.from_board`). The line found is in action notation from that start.
    The nodes spent are spent from ``budget``; the result counts them.

    ``options.proof_nodes`` > 0 inserts an early exhaustive search, on at most that many
    nodes of the budget, after the first ``proof_after`` beam widths (0: before any
    beam). Late in a game it is cheap and conclusive, where the beams would widen in
    vain on a position that cannot be won. If it neither wins nor proves, the widening
    goes on with what is left of the budget; if it gave up on a level too large, no
    exhaustive search is tried again (it would give up at the same level).

    ``options.final_proof`` runs the exhaustive search with the rest of the budget when
    every width of the schedule ended without a win (reasons ``widths`` and ``levels``):
    a position whose beams die out may still be proved, where a deal's outcome would
    otherwise stay ``unknown`` with budget unspent. ``solve`` leaves it off.

    ``options.polish`` re-searches the phases of a line found by a beam with a wider
    beam, on a small share of nodes (:func:`~spider_solver.engine.rephase.polish`),
    within the budget.

    ``options.avoid`` names positions (keys) the line should not pass through (see
    :class:`SearchOptions`).
    """
    require_jit()
    started = time.perf_counter()
    game = deal if isinstance(deal, Game) else Game.from_deal(deal, deal_on_empty=options.deal_on_empty)
    if game.start_removed == game.deal.variant.runs:
        return EngineResult(actions=(), reason=Reason.WON, nodes=0, seconds=0.0)
    suits = game.deal.variant.suits
    schedule = Schedule.build(suits, widths=options.widths, selection=options.selection,
                              proof_nodes=options.proof_nodes, proof_after=options.proof_after,
                              final_proof=options.final_proof)
    weights = weights_for(suits) if options.weights is None else options.weights
    with _progress_bar(options.progress, budget.left(), game.deal.name) as bar:
        search = _Search(game, budget.sub(progress=bar), weights, schedule.selection, bar,
                         np.array(options.avoid, dtype=np.uint64), options.lost)
        reason, line = search.run(schedule, polish=options.polish)
    return _result(game, line, reason, search.budget, started, search.attempts)


@contextmanager
def _progress_bar(shown: bool, total: int, name: str) -> Iterator[Any]:
    """A tqdm bar of ``total`` nodes on stderr if ``shown`` (else None), closed after the block."""
    if not shown:
        yield None
        return
    from tqdm import tqdm

    bar = tqdm(total=total, unit="node", unit_scale=True, desc=name, file=sys.stderr, leave=False)
    try:
        yield bar
    finally:
        bar.close()


class _Search:
    """One run of a schedule: the game, the run's budget, the attempts made so far (``bar``:
    the progress bar, or None)."""

    def __init__(self, game: Game, budget: Budget, weights: np.ndarray, selection: tuple[int, ...],
                 bar: Any, avoid: np.ndarray, lost: LostPositions | None = None) -> None:
        self.game, self.budget, self.weights, self.selection, self.bar = game, budget, weights, selection, bar
        #: Keys the schedule's beams do not keep and the line should avoid (see SearchOptions.avoid).
        self.avoid = avoid
        #: Positions proved unwinnable, which the exhaustive searches skip and their proofs add to.
        self.lost = lost
        self.attempts: list[Attempt] = []

    def run(self, schedule: Schedule, *, polish: bool) -> tuple[Reason, list[int] | None]:
        """Run the steps of ``schedule`` until one settles the search: why it stopped, and
        the line found (None if none)."""
        reason = Reason.WIDTHS
        proof_gave_up = False
        for step in schedule.steps:
            attempt = self.beam(step)
            if attempt.outcome is BeamOutcome.WON:
                return self.won(attempt, step, polish=polish)
            stopped = self.stopped(attempt)
            if stopped is not None:
                return stopped, None
            if step.proof:  # the early proof: it spent its share (a later one may have more) or gave up
                if attempt.outcome is BeamOutcome.EXHAUSTED:
                    return self.proved(attempt), None
                proof_gave_up = attempt.outcome is BeamOutcome.CUT
                if proof_gave_up:
                    reason = Reason.PROOF_GAVE_UP
                continue
            if attempt.outcome is BeamOutcome.EXHAUSTED:
                # The narrow move set is spent without a cut: search everything, unless a
                # proof gave up already (it would give up at the same level).
                return (Reason.PROOF_GAVE_UP, None) if proof_gave_up else self.proof()
            reason = attempt.outcome.reason(proof=False)
        if schedule.final_proof and reason in (Reason.WIDTHS, Reason.LEVELS) and not proof_gave_up:
            # Every width failed and budget is left: the exhaustive search is the last thing that can settle it.
            return self.proof()
        return reason, None

    def beam(self, step: Step) -> Attempt:
        """Run one step, on its share of the budget."""
        if self.bar is not None:
            self.bar.set_description(f"{self.game.deal.name} width {step.width if step.width < UNLIMITED else 'all'}")
        budget = self.budget if step.nodes is None else self.budget.sub(step.nodes)
        mode = self.exhaustive() if step.proof else Beam(step.width, self.selection, self.avoid)
        attempt = beam(self.game, mode, budget, weights=self.weights)
        self.attempts.append(attempt)
        return attempt

    def proof(self) -> tuple[Reason, list[int] | None]:
        """The exhaustive search with what is left of the budget: it wins, proves, or gives up."""
        attempt = self.beam(PROOF)
        if attempt.outcome is BeamOutcome.WON:
            return Reason.WON, self.proof_line(attempt)
        if attempt.outcome is BeamOutcome.EXHAUSTED:
            return self.proved(attempt), None
        return self.stopped(attempt) or attempt.outcome.reason(proof=True), None

    def exhaustive(self, avoid: np.ndarray | tuple[int, ...] = ()) -> Exhaustive:
        """The exhaustive search, which skips the positions known lost and records what it proves."""
        if self.lost is None:
            return Exhaustive(avoid=avoid)
        return Exhaustive(avoid=avoid, lost=self.lost.keys, record=True)

    def proved(self, attempt: Attempt) -> Reason:
        """An exhaustive search ended without a win: its positions are lost (added to ``lost``)."""
        if self.lost is not None and attempt.proved is not None:
            self.lost.add(attempt.proved)
        return Reason.EXHAUSTED

    def proof_line(self, attempt: Attempt) -> list[int]:
        """The line of an exhaustive search that won, shortened if the shortened line avoids
        ``avoid``; when neither does, the line of a second exhaustive search that never keeps
        the positions of ``avoid``, if it finds one within its share of the nodes."""
        line, through = self.avoiding(attempt.moves)
        if not through:
            return line
        nodes = max(AVOIDING_PROOF_MIN_NODES, AVOIDING_PROOF_SHARE * attempt.nodes)
        again = beam(self.game, self.exhaustive(self.avoid), self.budget.sub(nodes))
        self.attempts.append(again)
        if again.outcome is BeamOutcome.WON:
            other, through = self.avoiding(again.moves)
            if not through:
                return other
        return line

    def stopped(self, attempt: Attempt) -> Reason | None:
        """The stop that ends the search after ``attempt`` (nodes, seconds, Ctrl-C), or None.
        A step that spent only its own share of the nodes does not stop the search."""
        if attempt.outcome is BeamOutcome.NODES:
            return self.budget.exceeded()
        return attempt.outcome.stop

    def won(self, attempt: Attempt, step: Step, *, polish: bool) -> tuple[Reason, list[int] | None]:
        """A won beam's line; polished (a beam of the search's move set, with ``polish``)."""
        if step.proof:
            return Reason.WON, self.proof_line(attempt)
        if not polish:
            return Reason.WON, self.avoiding(attempt.moves)[0]
        line, stopped, self.attempts[-1] = _polished(self.game, attempt, step.width, self.budget)
        if stopped is Reason.INTERRUPTED:
            # The post-pass's beams took a Ctrl-C as their stop: the solve stops too.
            return Reason.INTERRUPTED, None
        return Reason.WON, self.avoiding(attempt.moves, line)[0]

    def avoiding(self, raw: list[int], polished: list[int] | None = None) -> tuple[list[int], bool]:
        """The line to return, shortened, and whether it passes through a position of
        ``avoid``: of ``polished`` (if any), ``raw`` shortened and ``raw`` itself, the first
        that passes through none (with nothing to avoid, the first); the first if every one
        does (a line of the exhaustive search)."""
        first = polished if polished is not None else shorten(self.game, raw)
        if not self.avoid.size:
            return first, False
        candidates = [first] if polished is None else [first, shorten(self.game, raw)]
        for line in [*candidates, raw]:
            if not np.isin(positions(self.game, line).keys, self.avoid).any():
                return line, False
        return first, True


def _polished(game: Game, attempt: Attempt, width: int, budget: Budget) -> tuple[list[int], Reason | None, Attempt]:
    """The won ``attempt``'s line (a beam of ``width``) shortened, then its phases re-searched at a wider beam
    (see rephase.polish); why the re-search stopped early (None if it did not;
    ``Reason.INTERRUPTED`` for a Ctrl-C); and the attempt with the post-pass counted in it
    (``polish_nodes`` says how many of its nodes)."""
    started = time.perf_counter()
    before = budget.nodes
    line = shorten(game, attempt.moves)
    result = polish(game, line, width, budget)
    spent = budget.nodes - before
    counted = replace(attempt, polish_nodes=spent, polish_saved=len(line) - len(result.line),
                      nodes=attempt.nodes + spent, seconds=attempt.seconds + time.perf_counter() - started)
    return result.line, result.stopped, counted


def _result(game: Game, line: list[int] | None, reason: Reason, budget: Budget, started: float,
            attempts: list[Attempt]) -> EngineResult:
    """The engine's report: the line (shortened already: :meth:`_Search.avoiding`) in action notation."""
    actions = None
    if line is not None:
        actions = tuple(str(action) for action in game.actions(line))
    return EngineResult(
        actions=actions,
        reason=reason,
        nodes=budget.nodes,
        seconds=round(time.perf_counter() - started, 4),
        attempts=tuple(a.summary() for a in attempts),
    )


#: ``Budget``, ``beam`` and ``SELECTION`` are here too for the callers that import them from
#: the driver (the pinned bench among them); they live in budget.py, beam.py and schedule.py.
__all__ = ["LOST_KEYS_LIMIT", "SELECTION", "Budget", "EngineResult", "LostPositions", "SearchOptions", "beam",
           "run_search"]
