"""The Python loop around the kernels: budget, widening schedule, progress, Ctrl-C.

A solve is a series of beam searches of growing width (``WIDTHS``) in
``MODE_SEARCH``. Each runs level by level until a level wins, the frontier
empties, the level cap is reached, or the budget is spent. Nodes (children made
by ``do_move``) are the budget that decides: the run is deterministic until the
seconds budget, a safety net, cuts it. If a beam ends with nothing left to try
and never cut a level, the search-mode move set is exhausted; the driver then
runs ``MODE_ALL`` with no width limit, a breadth-first search of the whole game,
which either wins or proves the deal unwinnable.

A line found is shortened (:mod:`spider_solver.engine.shorten`) and replayed on
the reference rules engine; only then is the deal called verified.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

import numpy as np

from spider_solver.engine.evaluate import DEFAULT_WEIGHTS
from spider_solver.engine.game import Game
from spider_solver.engine.search import NO_WIN, OUT_OF_NODES, OVERFLOW, expand_level, materialize_level, select_level
from spider_solver.engine.shorten import shorten
from spider_solver.engine.tt import tt_new, tt_store
from spider_solver.engine.types import MODE_ALL, MODE_SEARCH, OFF_DEALT, STATE_BYTES, VP_DEALS

#: Beam widths per stratum, tried in turn while the budget lasts.
WIDTHS = (16, 64, 256, 1024, 4096, 16384)
#: A line longer than this is not looked for by the beam (a proof run has no cap).
MAX_LEVELS = 400
UNLIMITED = 1 << 40
#: The transposition table never exceeds 2**MAX_TT_BITS slots (8 bytes each).
MAX_TT_BITS = 25
#: The exhaustive run gives up (it cannot prove anything) past this many
#: positions in one level: a bound on its memory (about 100 bytes a candidate).
MAX_PROOF_LEVEL = 400_000
PROOF_TT_BITS = 22


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
        }


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


def tt_bits_for(width: int, strata: int, max_levels: int) -> int:
    expected = min(width, UNLIMITED) * strata * max_levels
    return max(16, min(MAX_TT_BITS, int(expected).bit_length()))


class _Candidates:
    """Growable candidate buffers shared by the tiers of one level."""

    def __init__(self, capacity: int) -> None:
        self.allocate(capacity)

    def allocate(self, capacity: int) -> None:
        self.parent = np.empty(capacity, dtype=np.int64)
        self.move = np.empty(capacity, dtype=np.int64)
        self.key = np.empty(capacity, dtype=np.uint64)
        self.score = np.empty(capacity, dtype=np.int64)
        self.stratum = np.empty(capacity, dtype=np.int64)

    def grow(self, used: int, needed: int) -> None:
        old = (self.parent, self.move, self.key, self.score, self.stratum)
        self.allocate(max(needed, 2 * len(self.parent)))
        for new, prev in zip((self.parent, self.move, self.key, self.score, self.stratum), old):
            new[:used] = prev[:used]

    def buffers(self):
        return self.parent, self.move, self.key, self.score, self.stratum


def beam(game: Game, width: int, mode: int, budget: Budget, *, weights: np.ndarray = DEFAULT_WEIGHTS,
         max_levels: int = MAX_LEVELS) -> Attempt:
    """One beam search from the initial layout."""
    attempt = Attempt(width, mode)
    started = time.perf_counter()
    strata = int(game.vp[VP_DEALS]) + 1
    all_strata = (1 << strata) - 1
    exhaustive = width >= UNLIMITED
    table, tt_info = tt_new(PROOF_TT_BITS if exhaustive else tt_bits_for(width, strata, max_levels))
    states = game.start.reshape(1, STATE_BYTES).copy()
    keys = np.array([game.start_key], dtype=np.uint64)
    tt_store(table, tt_info, keys[0])
    parents: list[np.ndarray] = []
    moves: list[np.ndarray] = []
    cand = _Candidates(1024)
    cut = False
    tiers = (0, 1) if mode == MODE_SEARCH else (0,)
    try:
        while True:
            n_states = states.shape[0]
            if n_states == 0:
                attempt.outcome = "cut" if cut else "exhausted"
                break
            if len(parents) >= max_levels:
                attempt.outcome = "levels"
                break
            if exhaustive and n_states > MAX_PROOF_LEVEL:
                attempt.outcome = "cut"
                break
            reason = budget.exceeded()
            if reason:
                attempt.outcome = reason
                break
            counts = np.zeros(strata, dtype=np.int64)
            selected = np.empty(0, dtype=np.int64)
            kept = 0
            n_cand = 0
            won = None
            state_strata = states[:, OFF_DEALT]
            for tier in tiers:
                if tier == 0:
                    mask = all_strata
                else:
                    # Classed moves only where the plain ones left a stratum short.
                    short = [s for s in range(strata) if counts[s] < width]
                    mask = sum(1 << s for s in short if np.any(state_strata == s))
                    if not mask:
                        break
                start = n_cand
                while True:
                    result = expand_level(states, keys, n_states, mask, game.vp, game.zobrist, game.dealt_keys,
                                          game.stock, weights, mode, tier, table, *cand.buffers(), start,
                                          budget.max_nodes - budget.nodes)
                    if result[0] != OVERFLOW:
                        break
                    cand.grow(start, start + n_states * 32)
                n_cand, nodes, won_parent, won_move = result
                attempt.nodes += nodes
                budget.spend(nodes)
                if won_parent == OUT_OF_NODES:
                    won = OUT_OF_NODES
                    break
                if won_parent != NO_WIN:
                    won = (int(won_parent), int(won_move))
                    break
                if selected.shape[0] < kept + (n_cand - start):
                    grown = np.empty(kept + (n_cand - start), dtype=np.int64)
                    grown[:kept] = selected[:kept]
                    selected = grown
                kept, truncated = select_level(start, n_cand, cand.key, cand.score, cand.stratum, width, counts,
                                               table, tt_info, selected, kept)
                cut = cut or truncated
            if won == OUT_OF_NODES:
                attempt.outcome = "nodes"
                break
            if won is not None:
                line = [won[1]]
                index = won[0]
                for level in range(len(parents) - 1, -1, -1):
                    line.append(int(moves[level][index]))
                    index = int(parents[level][index])
                attempt.moves = line[::-1]
                attempt.outcome = "won"
                break
            selected = selected[:kept]
            next_states = np.empty((kept, STATE_BYTES), dtype=np.uint8)
            next_keys = np.empty(kept, dtype=np.uint64)
            materialize_level(states, keys, selected, kept, cand.parent, cand.move, game.vp, game.zobrist,
                              game.dealt_keys, game.stock, next_states, next_keys)
            parents.append(cand.parent[selected].astype(np.int32))
            moves.append(cand.move[selected].astype(np.int32))
            states, keys = next_states, next_keys
            attempt.peak_level = max(attempt.peak_level, kept)
            attempt.levels = len(parents)
    except KeyboardInterrupt:
        attempt.outcome = "interrupted"
    attempt.tt_stored, attempt.tt_forgotten = int(tt_info[0]), int(tt_info[1])
    attempt.seconds = time.perf_counter() - started
    return attempt


def run_search(deal, *, max_nodes: int, max_seconds: float | None, deal_on_empty: bool = False,
               progress: bool = False, widths: tuple[int, ...] = WIDTHS, weights: np.ndarray = DEFAULT_WEIGHTS):
    """Solve ``deal`` within the budget; see :func:`spider_solver.solver.solve`."""
    from spider_solver.rules import replay
    from spider_solver.solver import UNKNOWN, UNWINNABLE, VERIFIED, SolveResult

    started = time.perf_counter()
    game = Game.from_deal(deal, deal_on_empty=deal_on_empty)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=max_nodes, unit="node", unit_scale=True, desc=deal.name, file=sys.stderr, leave=False)
    budget = Budget(max_nodes, max_seconds, bar)
    attempts: list[Attempt] = []
    status, reason, line = UNKNOWN, "", None
    try:
        schedule = [(w, MODE_SEARCH) for w in widths]
        i = 0
        while i < len(schedule):
            width, mode = schedule[i]
            if bar is not None:
                bar.set_description(f"{deal.name} width {width if width < UNLIMITED else 'all'}")
            attempt = beam(game, width, mode, budget, weights=weights,
                           max_levels=MAX_LEVELS if mode == MODE_SEARCH else UNLIMITED)
            attempts.append(attempt)
            if attempt.outcome == "won":
                line = attempt.moves
                break
            if attempt.outcome in ("nodes", "seconds", "interrupted"):
                reason = attempt.outcome
                break
            if attempt.outcome == "exhausted":
                if mode == MODE_ALL:
                    status, reason = UNWINNABLE, "exhausted"
                    break
                # The narrow move set is spent without a cut: search everything.
                schedule = schedule[: i + 1] + [(UNLIMITED, MODE_ALL)]
            i += 1
        else:
            reason = reason or "widths"
    finally:
        if bar is not None:
            bar.close()
    solution: tuple[str, ...] = ()
    moves = score = None
    if line is not None:
        line = shorten(game, line)
        result = replay(deal, [str(a) for a in game.actions(line)], deal_on_empty=deal_on_empty, undo_limit=0)
        if result.won:
            status, reason = VERIFIED, "won"
            solution, moves, score = result.played, result.moves, result.score
        else:  # pragma: no cover - the engines disagree; never call that verified
            reason = f"rejected by the rules checker: {result.error}"
            print(f"warning: {deal.name}: the engine's line was {reason}", file=sys.stderr)
    return SolveResult(
        code=str(deal.code) if deal.code else None,
        status=status,
        solution=tuple(solution),
        moves=moves,
        score=score,
        nodes=budget.nodes,
        seconds=round(time.perf_counter() - started, 4),
        max_nodes=max_nodes,
        max_seconds=max_seconds,
        reason=reason,
        attempts=tuple(a.summary() for a in attempts),
    )
