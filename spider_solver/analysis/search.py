"""How an analysis searches a position, on the one budget every search of it shares.

:class:`Session` holds the deal, the budget and the hook run before the first search;
:meth:`Session.search` runs the solver's widening beams from a position (with an early
exhaustive search late in a game, and the exhaustive search last), and
:meth:`Session.check_line` replays a line on the rules engine: only a line that wins is
``verified``. Each answers with a :class:`Found`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from spider_solver.analysis.answer import Source
from spider_solver.analysis.options import AnalysisOptions
from spider_solver.analysis.start import UNDO, Key, board_after
from spider_solver.budget import Budget
from spider_solver.outcomes import AttemptSummary, Reason, Status
from spider_solver.rules import Board, Deal, replay
from spider_solver.rules.replay import play_on

if TYPE_CHECKING:  # the engine loads with the first search
    from spider_solver.engine.driver import LostPositions

#: Positions with at most this many deals left in the stock get an early exhaustive
#: search, after the first beam width fails: there it settles most unwinnable
#: positions in a few thousand nodes, where the beams would widen in vain. With two
#: or more deals left it never concluded within the cap on the measured positions
#: (benchmarks/HISTORY.md, "Games in progress: analysis constants").
EARLY_PROOF_DEALS_LEFT = 1
#: The early exhaustive search's nodes with one deal left: it bounds what a proof that
#: cannot conclude wastes (benchmarks/HISTORY.md, "Games in progress: analysis constants").
EARLY_PROOF_NODES = 2_000_000
#: With the stock empty the early proof may use up to 1 / EARLY_PROOF_SHARE of the
#: search's budget (at least EARLY_PROOF_NODES): there the beams cannot settle a lost
#: position (benchmarks/HISTORY.md, "Games in progress: analysis constants").
EARLY_PROOF_SHARE = 2


class Found(NamedTuple):
    """What is known of one position: its status, why the search stopped, a winning line
    replayed to a win (empty unless verified) and where it came from (None unless verified)."""

    status: Status
    reason: Reason
    line: tuple[str, ...]
    source: Source | None


class Session:
    """One analysis: the deal, its options and the budget every search shares."""

    def __init__(self, deal: Deal, options: AnalysisOptions, started: float) -> None:
        self.deal = deal
        self.deal_on_empty = options.deal_on_empty
        self.before_search = options.before_search
        #: Seconds spent in ``before_search``.
        self.excluded = 0.0
        #: Every search of the analysis takes its nodes from it.
        self.budget = Budget(options.max_nodes, options.max_seconds, since=started)
        #: The engine's attempts of the last search (``EngineResult.attempts``).
        self.attempts: tuple[AttemptSummary, ...] = ()
        #: The positions the searches of this analysis proved unwinnable (an
        #: :class:`~spider_solver.engine.driver.LostPositions`, made by the first search):
        #: every later search skips them, and is answered at once when it starts on one.
        self.lost: LostPositions | None = None

    @property
    def nodes(self) -> int:
        """The nodes spent so far."""
        return self.budget.nodes

    def board_after(self, moves: Sequence[str]) -> Board:
        """The position after ``moves`` (canonical actions, no undo) from the initial layout."""
        return board_after(self.deal, self.deal_on_empty, moves)

    def check_line(self, prefix: Sequence[str], line: Sequence[str], undo_limit: int | None,
                   source: Source, after: Board | None = None) -> Found:
        """Replay ``prefix`` then ``line`` from the initial layout: verified only if it wins.

        ``after`` is the board ``prefix`` left, if the caller has it: the line is then
        played on a copy of it rather than after a second replay of the prefix.
        """
        if UNDO in line:  # pragma: no cover - the engine and a winning line never undo
            return Found(Status.UNKNOWN, Reason.REJECTED, (), None)
        if after is None:
            result = replay(self.deal, [*prefix, *line], deal_on_empty=self.deal_on_empty, undo_limit=undo_limit)
            played = result.played[len(prefix):]
        else:
            result = play_on(after.copy(), line)
            played = result.played
        if result.won and result.error is None:
            return Found(Status.VERIFIED, Reason.WON, tuple(played), source)
        if source == "search":  # pragma: no cover - the engines disagree; never call that verified
            print(f"warning: {self.deal.name}: the engine's line was refused by the rules engine: {result.error}",
                  file=sys.stderr)
        return Found(Status.UNKNOWN, Reason.REJECTED, (), None)

    def search(self, board: Board, prefix: Sequence[str], undo_limit: int | None, share: int = 1,
               avoid: Iterable[Key] = ()) -> Found:
        """Search from ``board`` (reached by ``prefix``) with what is left of the budget, at
        most ``1 / share`` of it. The beams never keep a position of ``avoid`` (keys: the game's
        history: a hint then never leads back to where the game has been, so that
        following hints cannot cycle); the exhaustive search takes every position, so that
        its answer stays a proof (:class:`~spider_solver.engine.driver.SearchOptions`)."""
        if board.is_won():
            return Found(Status.VERIFIED, Reason.WON, (), "won")
        spent = self.budget.exceeded()  # the replay of a long log may have spent it: no engine to load then
        self.attempts = ()
        if spent is not None:
            return Found(Status.UNKNOWN, spent, (), None)
        if self.before_search is not None:  # not counted in the budget, nor in the seconds
            clock = time.perf_counter()
            self.before_search()
            self.before_search = None
            self.excluded = time.perf_counter() - clock
            self.budget.extend(self.excluded)
        # after the hook, which may have loaded it
        from spider_solver.engine.driver import LostPositions, SearchOptions, run_search
        from spider_solver.engine.game import Game, position_key

        game = Game.from_board(board, deal_on_empty=self.deal_on_empty)
        if self.lost is None:
            self.lost = LostPositions()
        elif int(game.start_key) in self.lost:  # reachable from a position proved lost: lost, no search
            return Found(Status.UNWINNABLE, Reason.EXHAUSTED, (), None)
        budget = self.budget.sub(share=share)
        proof = 0
        if board.deals_left == 0:
            proof = max(EARLY_PROOF_NODES, budget.max_nodes // EARLY_PROOF_SHARE)
        elif board.deals_left <= EARLY_PROOF_DEALS_LEFT:
            proof = EARLY_PROOF_NODES
        found = run_search(game, budget=budget,
                           options=SearchOptions(proof_nodes=proof, final_proof=True,
                                                 avoid=tuple(position_key(*key) for key in avoid), lost=self.lost))
        self.attempts = found.attempts
        if found.actions is not None:
            return self.check_line(prefix, found.actions, undo_limit, "search", after=board)
        if found.reason is Reason.EXHAUSTED:
            return Found(Status.UNWINNABLE, Reason.EXHAUSTED, (), None)
        return Found(Status.UNKNOWN, found.reason, (), None)


__all__ = ["EARLY_PROOF_DEALS_LEFT", "EARLY_PROOF_NODES", "EARLY_PROOF_SHARE", "Found", "Session"]
