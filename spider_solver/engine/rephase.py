"""Re-search the phases of a winning line with wider beams, for a shorter line.

A beam's line is as long as the level at which the beam first wins, and that is set
by its width: wider beams win earlier. Searching the whole
game again at a larger width costs the whole game again; ``rephase`` spends the
width where it is cheap instead. The line's deals cut it into phases. From the
position at the start of a phase (just after a deal; the last phase first), a beam
of the given width searches for a win within fewer actions than the line still
takes from there (its level cap), so whatever it finds is shorter; the line then
keeps its prefix and takes the new ending, which is shortened again
(:func:`~spider_solver.engine.shorten.shorten`). Phase by phase it works back to
the initial layout, whose re-search is a whole beam capped below the line's length.
Each beam also watches the line (:class:`~spider_solver.engine.beam.LineWatch`): a
position of the line that it reaches in fewer actions than the line does is a shortcut,
and the line takes it.

The late phases are cheap but rarely hold a shorter ending, so ``solve``'s small
post-pass (:func:`polish`) re-searches the last phase only, and ``improve``
(:func:`improve_moves`) re-searches from the initial layout with beams of growing
width. Those beams are wider than the ones the evaluation was tuned at, and score
positions with their own weights (:data:`IMPROVE_WEIGHTS`); benchmarks/HISTORY.md,
"Shorter lines: re-searches and improve", says how each choice was measured.

Budgets are in nodes: each beam gets at most what is left, a beam that runs out
is dropped (the line stays as it was), so the same line, widths and budget give the
same result on every machine. The seconds budget, if any, is a safety net that
only cuts a pass short. Every line returned wins from the game's start (each
rewrite replaces a suffix by a winning one); the verification layer replays it on
the rules engine all the same.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from spider_solver.budget import Budget
from spider_solver.engine.beam import Beam, LineWatch, beam
from spider_solver.engine.evaluate import DEFAULT_WEIGHTS
from spider_solver.engine.game import Game
from spider_solver.engine.shorten import line_index, positions, shorten
from spider_solver.engine.types import MOVE_DEAL
from spider_solver.outcomes import BeamOutcome, Reason


@dataclass
class Rephased:
    """What a re-search pass did: the line (never longer than the input), nodes spent, beams tried."""

    line: list[int]
    nodes: int = 0
    beams: int = 0
    improved: int = 0
    #: Why the pass stopped early (nodes, seconds, interrupted); None if it ran to its end.
    stopped: Reason | None = None
    log: list[dict] = field(default_factory=list)


def phase_starts(line: list[int]) -> list[int]:
    """Where the phases begin: the index after each deal of ``line``, last phase first,
    then the start of the game (0)."""
    starts = [k + 1 for k, move in enumerate(line) if move == MOVE_DEAL and k + 1 < len(line)]
    return sorted(set(starts), reverse=True) + [0]


def from_position(game: Game, state: np.ndarray, key: np.uint64) -> Game:
    """The same game, started from a packed position of it."""
    return dataclasses.replace(game, start=state.copy(), start_key=np.uint64(key))


@dataclass(frozen=True)
class Phases:
    """Which phases of a line :func:`rephase` re-searches, and what it takes as a gain.

    ``count``: at most this many phases, the last ones (negative: the first ones; -1 the
    initial layout only; None: all, down to the initial layout). A beam from position k is
    capped at ``len(line) - k - min_gain`` actions, so it either finds an ending at least
    ``min_gain`` shorter or nothing. ``join``: a beam that reaches a later position of the
    line joins it there. ``origin``: the initial layout is one of the starts.
    """

    count: int | None = None
    min_gain: int = 1
    join: bool = True
    origin: bool = True


def rephase(game: Game, line: list[int], widths: tuple[int, ...], budget: Budget, *,
            which: Phases = Phases(), weights: np.ndarray = DEFAULT_WEIGHTS) -> Rephased:
    """Shorten ``line`` by re-searching its phases with beams of each width in turn.

    For each width, the phases ``which`` says are re-searched from the last to the first
    (:class:`Phases`). ``budget`` is shared (its nodes are the pass's budget); the pass
    stops when it is spent.
    """
    phases, min_gain, join, origin = which.count, which.min_gain, which.join, which.origin
    result = Rephased(line=list(line))
    for width in widths:
        starts = phase_starts(result.line)
        if phases is not None:
            # phases > 0: the last ones; phases < 0: the first ones (-1: the initial layout only).
            starts = starts[:phases] if phases > 0 else starts[phases:]
        if not origin:
            starts = [k for k in starts if k > 0]
        done: set[int] = set()
        while starts:
            k = starts.pop(0)
            if k in done:
                continue
            done.add(k)
            current = result.line
            cap = len(current) - k - min_gain
            if cap < 1:
                continue
            path = positions(game, current)
            start = from_position(game, path.states[k], path.keys[k])
            before = budget.nodes
            watch = LineWatch(line_index(path.keys), k, len(current), len(current) + 1 - min_gain) if join else None
            attempt = beam(start, Beam(width), budget, weights=weights, max_levels=cap, watch=watch)
            result.nodes += budget.nodes - before
            result.beams += 1
            entry = {"width": width, "from": k, "cap": cap, "outcome": str(attempt.outcome), "nodes": attempt.nodes}
            candidate = None
            if attempt.outcome is BeamOutcome.WON:
                candidate = current[:k] + attempt.moves
            elif attempt.hit_moves:
                candidate = current[:k] + attempt.hit_moves + current[attempt.hit_target:]
                entry["joined"] = attempt.hit_target
            if candidate is not None:
                candidate = shorten(game, candidate)
                entry["length"] = len(candidate)
                if len(candidate) < len(current):
                    result.line = candidate
                    result.improved += 1
                    # The phases after k changed: their starts move; later passes find them.
            result.log.append(entry)
            stopped = attempt.outcome.stop or budget.exceeded()
            if stopped is not None:
                result.stopped = stopped
                return result
    return result


#: The post-pass of a default solve: a beam ``POLISH_FACTOR`` times wider than the one
#: that won, over the last ``POLISH_PHASES`` phase(s), on at most ``POLISH_NODES[suits]``
#: nodes (0: no post-pass) and never past the solve's own budget (benchmarks/HISTORY.md,
#: "The post-pass").
POLISH_FACTOR = 4
POLISH_NODES = {1: 300_000, 2: 0, 4: 0}
POLISH_PHASES = 1

#: ``improve``'s widths, each a beam from the initial layout capped below the line's
#: length (IMPROVE_PHASES: the origin only), tried in turn while its budget lasts
#: (benchmarks/HISTORY.md, "Shorter lines: re-searches and improve").
IMPROVE_WIDTHS = (512, 1536, 6144, 16384)
IMPROVE_PHASES = -1
#: The evaluation of ``improve``'s wide beams by suit count, where it differs from
#: ``DEFAULT_WEIGHTS``: above all a removed run counts far less, a suit break more
#: (benchmarks/HISTORY.md, "Evaluation weights").
IMPROVE_WEIGHTS: dict[int, np.ndarray] = {
    4: np.array([9, -4, 12, 7, 9, 17, 9, 3, 4, 0], dtype=np.int64),
    2: np.array([12, -4, 12, 9, 5, 12, 9, 1, 2, 0], dtype=np.int64),
}


def polish(game: Game, line: list[int], won_width: int, budget: Budget, nodes: int | None = None) -> Rephased:
    """The cheap post-pass of a solve: one pass at ``POLISH_FACTOR`` times the winning width,
    on a sub-budget of at most ``nodes`` (default: ``POLISH_NODES`` of the game's suit count)."""
    if nodes is None:
        nodes = POLISH_NODES.get(game.deal.variant.suits, 0)
    if nodes <= 0:
        return Rephased(line=list(line))
    return rephase(game, line, (POLISH_FACTOR * won_width,), budget.sub(nodes), which=Phases(POLISH_PHASES))


def improve_moves(game: Game, line: list[int], budget: Budget, widths: tuple[int, ...] = IMPROVE_WIDTHS,
                  weights: np.ndarray | None = None) -> Rephased:
    """``improve``'s search: the line shortened, then re-searched at each width in turn from the
    phases ``IMPROVE_PHASES`` names (the initial layout only)."""
    first = shorten(game, line)
    if weights is None:
        weights = IMPROVE_WEIGHTS.get(game.deal.variant.suits, DEFAULT_WEIGHTS)
    result = rephase(game, first, widths, budget, which=Phases(IMPROVE_PHASES), weights=weights)
    if len(first) < len(line) and result.improved == 0:
        result.improved = 1
    return result
