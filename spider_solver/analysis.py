"""Games in progress: "still winnable?", a hint on a winning line, where the game was lost.

``analyze(deal, actions)`` replays a game log (moves, deals and undos, under the
deal's rule and the options ``deal_on_empty`` and ``undo_limit``, as
:func:`spider_solver.rules.replay` does), then answers for the position reached,
with full knowledge of the face-down cards and the stock, with the same three
honest outcomes as :func:`spider_solver.verify.solve`:

* ``verified``: a winning line from the position was found, and the reference rules
  engine replayed the log and then the line, from the deal's initial layout, to a
  win. ``hint`` is its first action, ``line`` the whole line from the position.
* ``unwinnable``: every legal action from the position was searched (pruned only
  by transpositions) and none leads to a win.
* ``unknown``: the budget ran out, or the exhaustive search gave up first.

"Winnable" means winnable from the position by actions of play; an undo is never
part of a line (a player who can undo can always go back to an earlier position,
which is another question: ``lost_at`` answers it).

Hints are cheap when the player follows a known line. Given ``known_line`` (a
winning line of the deal from its initial layout, such as the catalog's verified
solution), if the position reached equals the position after some prefix of that
line (the cards, which of them are face down, and the deals made: a transposed
order counts, and so does a detour that came back), the rest of the line is the
answer: it is replayed after the log like any other line, and no search runs.

Hints lead somewhere: a hint's line never passes through a position the game has been
in (on the effective history, below), so that following the hints cannot cycle (the
line of the last hint stays a candidate) and ends in a win. Only the positions since the
last card turned up, deal or run removed can come back; the search's beams never keep
them, and a known line whose rest goes back through one is the answer only when the
search finds no line. The exhaustive search takes every position, so that its answer
stays a proof; when its line goes back through the history, a second exhaustive search
that never keeps those positions looks for one that does not, on at most twice the
first one's nodes, and only when it finds none is the first line the hint.

Where the game was lost (``lost_at``), when the position is unwinnable. With undos
in the log, winnability along the log is not monotone, so it is defined on the
*effective history* of the final position: the actions still in effect after the
undos, in order (an undo removes the last action in effect), which lead from the
initial layout to the final position. Along that path winnability only ever goes
from winnable to unwinnable (a position from which the next action leads to a
winnable one is winnable), so there is one step where it changes. ``lost_at`` is the
0-based index in the log of the action that made that step: the position before
it is proved winnable by a line (``lost_at_line``, replayed to a win), the one after
it proved unwinnable. It is found by bisecting the effective history (about
log2 of its length searches), within the same budget as the rest: each search at most
a quarter of it, half with exactly one deal left (``LOST_AT_SHARE``,
``LOST_AT_LAST_DEAL_SHARE``). It is None when the position is not unwinnable, when
the searches leave more than one action between the last position shown winnable
and the first proved unwinnable (never a guess), and when the deal cannot be won at
all (its initial layout is proved unwinnable, so no action lost it).

What the bisection did establish is the ``bracket`` (:class:`Bracket`), given for every
unwinnable position with actions in effect: the last position of the effective history
shown winnable (with its winning line, replayed to a win) and the first proved
unwinnable, "still winnable after action 31, lost for certain by action 58". When
``lost_at`` is found the bracket is one action wide. A search that comes back unknown
does not end the bisection: the next search goes to the middle of the widest stretch
of the bracket that no search has tried yet (the later one of two equally wide: later
positions have fewer cards to place and are cheaper to settle), so that the budget
goes where it narrows the bracket most. A position on the winning line of a position
shown winnable is winnable too, with no search.

How a position is searched: the solver's widening beams from the position, with what
is left of the budget; late in a game (at most ``EARLY_PROOF_DEALS_LEFT`` deals left)
an early exhaustive search after the first width, of at most ``EARLY_PROOF_NODES``
nodes, or half the budget once the stock is empty; and when every width fails, the
exhaustive search with the rest of the budget, the last thing that can settle the
position (``run_search(final_proof=True)``).

Budget: one budget for the whole analysis, nodes first (deterministic), seconds
second (a safety net). The same inputs, budget and version give the same result on
every machine, unless the seconds cut a search short.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from spider_solver.budget import Budget
from spider_solver.errors import SpiderError, quote
from spider_solver.limits import INTERACTIVE_MAX_NODES, INTERACTIVE_MAX_SECONDS, check_budget
from spider_solver.outcomes import AttemptSummary, Reason, Status, what_was_tried
from spider_solver.rules import DEFAULT_UNDO_LIMIT, Board, Deal, GameCode, replay
from spider_solver.rules.notation import log_tokens
from spider_solver.rules.replay import ReplayResult, play_on, replay_board
from spider_solver.verify import coerce_deal

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
#: Each search of the ``lost_at`` bisection gets at most this fraction of the budget...
LOST_AT_SHARE = 4
#: ... but with exactly one deal left, this one: there the positions the beams can win take
#: more nodes than a quarter of the budget, and a proof rarely concludes
#: (benchmarks/HISTORY.md, "Games in progress: analysis constants").
LOST_AT_LAST_DEAL_SHARE = 2

#: Where an answer came from: a search, the known line, or nothing to do (the log won).
Source = Literal["search", "known-line", "won"]

#: The tokens that mean "undo" in a replayed log (canonical notation).
_UNDO = "U"


@dataclass(frozen=True)
class Bracket:
    """Where a lost game was lost, as far as the searches established it.

    Positions are counted in actions in effect (the effective history: 0 is the
    initial layout); ``*_after`` is the 0-based index in the log of the action that
    reached the position (None for the initial layout). The game was lost by one of
    the actions in effect after position ``winnable`` up to position ``unwinnable``.
    """

    #: The last position shown winnable; None when no position was (the deal may be
    #: unwinnable, or every search before ``unwinnable`` came back unknown).
    winnable: int | None
    winnable_after: int | None
    #: A winning line from position ``winnable``, replayed to a win; empty when it is None.
    line: tuple[str, ...]
    #: The first position proved unwinnable (at worst the final position).
    unwinnable: int
    unwinnable_after: int | None

    @property
    def width(self) -> int | None:
        """Actions in effect between the two positions (1: ``lost_at`` is known); None without ``winnable``."""
        return None if self.winnable is None else self.unwinnable - self.winnable

    def to_dict(self) -> dict:
        return {"winnable": self.winnable, "winnable_after": self.winnable_after, "line": list(self.line),
                "unwinnable": self.unwinnable, "unwinnable_after": self.unwinnable_after, "width": self.width}


@dataclass(frozen=True)
class Analysis:
    """What is known of the position a game log reached. ``to_dict()`` is the JSON form."""

    code: str | None
    #: The replay of the log: won, moves, score, runs removed, stock left, the first
    #: refused action (``replay.error``: its 0-based index, the token and the rule).
    replay: ReplayResult
    #: Status of the position reached; None when the log has a refused action (then
    #: nothing is searched: a log must be legal to be analysed).
    status: Status | None
    #: Why the search stopped (as in :class:`~spider_solver.verify.SolveResult`); None
    #: when the log has a refused action.
    reason: Reason | None
    #: The next action of a winning line (canonical notation); None unless verified
    #: and not yet won.
    hint: str | None = None
    #: The winning line from the position, ``hint`` first; empty unless verified.
    line: tuple[str, ...] = ()
    #: Where the line came from: ``search``, ``known-line`` (the given line, no
    #: search) or ``won`` (the log already wins); None unless verified.
    source: Source | None = None
    #: The 0-based index in the log of the action after which the game could no longer
    #: be won (see the module's docstring); None unless established.
    lost_at: int | None = None
    #: The log's token at ``lost_at``, as written; None unless ``lost_at`` is set.
    lost_at_action: str | None = None
    #: A winning line from the position just before ``lost_at`` (what could have been
    #: played instead); empty unless ``lost_at`` is set.
    lost_at_line: tuple[str, ...] = ()
    #: What the search for ``lost_at`` established (see :class:`Bracket`); None unless
    #: the position is unwinnable and it was searched for with actions in effect.
    bracket: Bracket | None = None
    #: Actions in effect after the undos (the effective history's length).
    effective: int = 0
    #: When the position is unknown: what its search tried, in words (the beams and how
    #: they ended, whether a proof was tried and why it stopped, the nodes spent); else None.
    tried: str | None = None
    nodes: int = 0
    #: Wall-clock seconds: not compared (one analysis made twice gives equal answers).
    seconds: float = field(default=0.0, compare=False)
    max_nodes: int = INTERACTIVE_MAX_NODES
    max_seconds: float | None = INTERACTIVE_MAX_SECONDS
    #: The searches of the ``lost_at`` bisection: position (index on the effective
    #: history), status, reason, source, nodes, seconds. Ctrl-C during the bisection
    #: ends it: ``lost_at`` stays None and the last probe's reason is ``interrupted``.
    probes: tuple[dict, ...] = field(default=(), compare=False)

    def to_dict(self) -> dict:
        """A plain-data form (enums as their string values), as ``analyze --json`` prints it."""
        return {
            "code": self.code,
            "replay": self.replay.to_dict(),
            "status": None if self.status is None else str(self.status),
            "reason": None if self.reason is None else str(self.reason),
            "hint": self.hint,
            "line": list(self.line),
            "source": self.source,
            "lost_at": self.lost_at,
            "lost_at_action": self.lost_at_action,
            "lost_at_line": list(self.lost_at_line),
            "bracket": None if self.bracket is None else self.bracket.to_dict(),
            "effective": self.effective,
            "tried": self.tried,
            "nodes": self.nodes,
            "seconds": self.seconds,
            "max_nodes": self.max_nodes,
            "max_seconds": self.max_seconds,
            "probes": [dict(p) for p in self.probes],
        }


#: A winning line from the initial layout, or a function that returns one (or None).
KnownLine = str | Sequence[str] | Callable[[], Sequence[str] | None] | None


def analyze(
    deal: Deal | GameCode | str,
    actions: str | Iterable[str] = (),
    *,
    deal_on_empty: bool = False,
    undo_limit: int | None = DEFAULT_UNDO_LIMIT,
    max_nodes: int = INTERACTIVE_MAX_NODES,
    max_seconds: float | None = INTERACTIVE_MAX_SECONDS,
    known_line: KnownLine = None,
    find_lost_at: bool = True,
    before_search: Callable[[], object] | None = None,
) -> Analysis:
    """Replay ``actions`` on ``deal`` and say whether the position reached can still be won.

    ``deal`` is a :class:`Deal`, a :class:`GameCode` or a game code string; ``actions``
    a game log in the notation of RULES.md §11 Action notation (text, or a list of
    texts), replayed as RULES.md §12 Replay says, with the options ``deal_on_empty``
    (RULES.md §6 Deals) and ``undo_limit`` (RULES.md §8.2 Undo). ``known_line`` is a
    winning line of the deal from its initial layout (the catalog's solution): when
    the position reached lies on it, the hint comes from it without a search; a line
    that does not parse or does not win the deal is not used (the search answers). It may
    be a function that returns the line (or None), called only once the log is
    replayed without a refused action and without a win: a refused log is then
    answered before the line is looked up. ``find_lost_at=False`` skips the search
    for ``lost_at`` (it stays None). ``before_search`` is called once, before the
    first search, and never when none is needed (the command line loads the search
    engine there, and says so); its time is counted neither in the budget nor in
    ``seconds``.

    The log is replayed once; a line found is checked by the rules engine from the
    position the log reached, as the log left it (the search for ``lost_at`` plays the
    actions in effect again up to each position it searches). Looking the line up (a
    function's call) counts in the budget.

    The budget (``max_nodes`` first, ``max_seconds`` second, None for no time limit)
    covers the whole analysis. A budget out of range raises
    :class:`~spider_solver.errors.InvalidBudgetError`.
    """
    started = time.perf_counter()
    max_nodes, max_seconds = check_budget(max_nodes, max_seconds)
    if not isinstance(find_lost_at, bool):
        raise ValueError(f"invalid find_lost_at {quote(find_lost_at)}: expected True or False")
    start = _Start(coerce_deal(deal), actions, deal_on_empty, undo_limit, max_nodes, max_seconds, known_line, started,
                   before_search)
    if start.answer is not None:
        return start.answer
    session, effective, tokens = start.session, start.effective, start.tokens
    clock = time.perf_counter()
    status, reason, line, source = session.search(start.board, tokens, undo_limit, avoid=start.history)
    if status is Status.UNKNOWN and start.known_rest is not None:
        # The known line passes through the history, but it wins, and following it cannot cycle.
        status, reason, line, source = session.check_line(tokens, start.known_rest, undo_limit, "known-line",
                                                          after=start.board)
    tried = None
    if status is Status.UNKNOWN:
        tried = what_was_tried(session.attempts, session.nodes, session.budget.max_nodes)
    lost_at: int | None = None
    lost_at_line: tuple[str, ...] = ()
    bracket: Bracket | None = None
    probes: tuple[dict, ...] = ()
    if status is Status.UNWINNABLE and find_lost_at:
        if effective:
            bracket, probes = _find_lost_at(session, effective, start.known)
            if bracket.width == 1:
                lost_at, lost_at_line = bracket.unwinnable_after, bracket.line
        else:  # no action in effect: the position proved unwinnable is the initial layout
            probes = ({"position": 0, "status": str(status), "reason": str(reason), "source": source,
                       "nodes": session.nodes, "seconds": round(time.perf_counter() - clock - session.excluded, 4)},)
    return _finish(
        replace(
            start.base, status=status, reason=reason, hint=line[0] if line else None, line=line, source=source,
            lost_at=lost_at, lost_at_action=None if lost_at is None else tokens[lost_at], lost_at_line=lost_at_line,
            bracket=bracket, nodes=session.nodes, probes=probes, tried=tried,
        ),
        started + session.excluded,
    )


def analyze_without_search(
    deal: Deal | GameCode | str,
    actions: str | Iterable[str] = (),
    *,
    deal_on_empty: bool = False,
    undo_limit: int | None = DEFAULT_UNDO_LIMIT,
    max_nodes: int = INTERACTIVE_MAX_NODES,
    max_seconds: float | None = INTERACTIVE_MAX_SECONDS,
    known_line: KnownLine = None,
) -> Analysis | None:
    """What :func:`analyze` answers when it needs no search (the log has a refused action,
    or wins, or the position lies on ``known_line``), with no engine loaded; None when
    only a search can answer. The budget is only recorded in the answer."""
    max_nodes, max_seconds = check_budget(max_nodes, max_seconds)
    return _Start(coerce_deal(deal), actions, deal_on_empty, undo_limit, max_nodes, max_seconds, known_line,
                  time.perf_counter()).answer


def hint_from_line(
    deal: Deal | GameCode | str,
    actions: str | Iterable[str],
    line: str | Sequence[str],
    *,
    deal_on_empty: bool = False,
    undo_limit: int | None = DEFAULT_UNDO_LIMIT,
) -> str | None:
    """The next action of ``line`` (a winning line from the initial layout) if the position
    the log reaches lies on it, the rest of it wins after the log and does not go back
    through a position of the game's history; else None. No search."""
    answer = analyze_without_search(deal, actions, deal_on_empty=deal_on_empty, undo_limit=undo_limit,
                                    known_line=line)
    return answer.hint if answer is not None and answer.source == "known-line" else None


class _Start:
    """The part of an analysis before any search: the replay of the log, the effective
    history, the position reached, and the answer when no search is needed (``answer``)."""

    def __init__(self, deal: Deal, actions: str | Iterable[str], deal_on_empty: bool, undo_limit: int | None,
                 max_nodes: int, max_seconds: float | None, known_line: KnownLine, started: float,
                 before_search: Callable[[], object] | None = None) -> None:
        self.tokens = log_tokens(actions)
        after: list[tuple[tuple, int]] = []  # the key and the runs removed after each action
        replayed, board = replay_board(deal, self.tokens, deal_on_empty=deal_on_empty, undo_limit=undo_limit,
                                       after=lambda b: after.append((_key(b), b.runs_removed)))
        self.effective = _effective_history(replayed.played)
        self.base = Analysis(code=str(deal.code) if deal.code else None, replay=replayed, status=None, reason=None,
                             effective=len(self.effective), max_nodes=max_nodes, max_seconds=max_seconds)
        self.answer: Analysis | None = None
        if replayed.error is not None:
            self.answer = _finish(self.base, started)
            return
        if replayed.won:
            self.answer = _finish(replace(self.base, status=Status.VERIFIED, reason=Reason.WON, source="won"),
                                  started)
            return
        self.session = _Session(deal, deal_on_empty, max_nodes, max_seconds, started, before_search)
        self.known = _KnownLine.build(deal, known_line() if callable(known_line) else known_line, deal_on_empty)
        self.board = board
        #: The positions of the game's history a line from here could pass through (keys).
        self.history = _history(deal, deal_on_empty, after, self.effective, board)
        rest = None if self.known is None else self.known.rest_from(self.board)
        #: The rest of the known line when it passes through a position of the history: a
        #: search looks for a line that does not, and this one is the answer if it finds none.
        self.known_rest: list[str] | None = None
        if rest is not None and self.known is not None and self.known.passes(rest, self.history):
            self.known_rest, rest = rest, None
        if rest is not None:
            status, reason, line, source = self.session.check_line(self.tokens, rest, undo_limit, "known-line",
                                                                   after=self.board)
            self.answer = _finish(replace(self.base, status=status, reason=reason, hint=line[0] if line else None,
                                          line=line, source=source, nodes=self.session.nodes), started)


# --------------------------------------------------------------------------- #
# The parts
# --------------------------------------------------------------------------- #

#: (status, reason, line, source) of one position.
_Found = tuple[Status, Reason, tuple[str, ...], Source | None]


def _effective_history(played: Sequence[str]) -> list[tuple[int, str]]:
    """The actions in effect after the undos: (index in the log, canonical action), in order."""
    stack: list[tuple[int, str]] = []
    for index, action in enumerate(played):
        if action == _UNDO:
            stack.pop()
        else:
            stack.append((index, action))
    return stack


def _history(deal: Deal, deal_on_empty: bool, after: Sequence[tuple[tuple, int]],
             effective: Sequence[tuple[int, str]], board: Board) -> set[tuple]:
    """The positions (keys) of the effective history that a line from ``board`` could pass through.

    ``after[i]`` is the key and the runs removed of the position after the log's action i.
    Cards only ever turn face up, and deals and removed runs are never taken back: a
    position reachable from ``board`` has its face-down cards, deals made and runs removed,
    so of the history only the positions since the last card turned up, deal or run
    removed qualify. ``board``'s own position is left out (it is where a line starts).
    """
    here = _key(board)
    phase = (here[1], here[2], board.runs_removed)
    path = [after[index] for index, _ in effective]
    if not path or (path[0][0][1], path[0][0][2], path[0][1]) == phase:  # the initial layout may qualify
        first = Board(deal, deal_on_empty=deal_on_empty, undo_limit=0)
        path.insert(0, (_key(first), 0))
    return {key for key, removed in path if (key[1], key[2], removed) == phase and key != here}


def _key(board: Board) -> tuple:
    """What decides the rest of a game: the cards, which are face down, the deals made.

    Runs removed follow from the cards; the score and the move counter do not change
    what can still be won, so a position reached by a detour that came back, or by a
    transposed order, is the same position.
    """
    return tuple(tuple(column) for column in board.columns), tuple(board.down), board.dealt


def _finish(analysis: Analysis, started: float) -> Analysis:
    """The analysis with the seconds it took, from the start of the replay."""
    return replace(analysis, seconds=round(time.perf_counter() - started, 4))


class _KnownLine:
    """A winning line of the deal and the positions along it."""

    def __init__(self, actions: list[str], where: dict[tuple, int]) -> None:
        self.actions = actions
        #: Position key -> the last index on the line where it occurs (the shortest rest).
        self.where = where

    @classmethod
    def build(cls, deal: Deal, line: str | Sequence[str] | None, deal_on_empty: bool) -> _KnownLine | None:
        """The line's positions; None if there is no line, or if it does not win on this deal."""
        if line is None:
            return None
        tokens = log_tokens(line)
        board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=0)
        where = {_key(board): 0}
        actions = []
        try:
            for index, token in enumerate(tokens):
                if board.is_won():
                    return None
                action = board.parse_action(token)
                actions.append(board.notation(action))
                board.push(action)
                where[_key(board)] = index + 1
        except SpiderError:
            return None
        return cls(actions, where) if board.is_won() else None

    def passes(self, rest: Sequence[str], positions: Iterable[tuple]) -> bool:
        """True if ``rest`` (a rest of the line, from ``rest_from``) passes through one of
        ``positions`` (keys)."""
        begin = len(self.actions) - len(rest)
        return any(self.where.get(key, -1) > begin for key in positions)

    def rest_from(self, board: Board) -> list[str] | None:
        """The rest of the line from the board's position, if the position lies on it."""
        index = self.where.get(_key(board))
        if index is None or index >= len(self.actions):
            return None
        return self.actions[index:]


class _Session:
    """One analysis: the deal, its options and the budget every search shares."""

    def __init__(self, deal: Deal, deal_on_empty: bool, max_nodes: int, max_seconds: float | None,
                 started: float, before_search: Callable[[], object] | None = None) -> None:
        self.deal = deal
        self.before_search = before_search
        #: Seconds spent in ``before_search``.
        self.excluded = 0.0
        self.deal_on_empty = deal_on_empty
        #: Every search of the analysis takes its nodes from it.
        self.budget = Budget(max_nodes, max_seconds, since=started)
        #: The engine's attempts of the last search (``EngineResult.attempts``).
        self.attempts: tuple[AttemptSummary, ...] = ()

    @property
    def nodes(self) -> int:
        """The nodes spent so far."""
        return self.budget.nodes

    def board_after(self, moves: Sequence[str]) -> Board:
        """The position after ``moves`` (canonical actions, no undo) from the initial layout."""
        board = Board(self.deal, deal_on_empty=self.deal_on_empty, undo_limit=0)
        for action in moves:
            board.push_notation(action)
        return board

    def check_line(self, prefix: Sequence[str], line: Sequence[str], undo_limit: int | None,
                   source: Source, after: Board | None = None) -> _Found:
        """Replay ``prefix`` then ``line`` from the initial layout: verified only if it wins.

        ``after`` is the board ``prefix`` left, if the caller has it: the line is then
        played on a copy of it rather than after a second replay of the prefix.
        """
        if _UNDO in line:  # pragma: no cover - the engine and a winning line never undo
            return Status.UNKNOWN, Reason.REJECTED, (), None
        if after is None:
            result = replay(self.deal, [*prefix, *line], deal_on_empty=self.deal_on_empty, undo_limit=undo_limit)
            played = result.played[len(prefix):]
        else:
            result = play_on(after.copy(), line)
            played = result.played
        if result.won and result.error is None:
            return Status.VERIFIED, Reason.WON, tuple(played), source
        if source == "search":  # pragma: no cover - the engines disagree; never call that verified
            print(f"warning: {self.deal.name}: the engine's line was refused by the rules engine: {result.error}",
                  file=sys.stderr)
        return Status.UNKNOWN, Reason.REJECTED, (), None

    def search(self, board: Board, prefix: Sequence[str], undo_limit: int | None, share: int = 1,
               avoid: Iterable[tuple] = ()) -> _Found:
        """Search from ``board`` (reached by ``prefix``) with what is left of the budget, at
        most ``1 / share`` of it. The beams never keep a position of ``avoid`` (keys: the game's
        history: a hint then never leads back to where the game has been, so that
        following hints cannot cycle); the exhaustive search takes every position, so that
        its answer stays a proof (:class:`~spider_solver.engine.driver.SearchOptions`)."""
        if board.is_won():
            return Status.VERIFIED, Reason.WON, (), "won"
        spent = self.budget.exceeded()  # the replay of a long log may have spent it: no engine to load then
        self.attempts = ()
        if spent is not None:
            return Status.UNKNOWN, spent, (), None
        if self.before_search is not None:  # not counted in the budget, nor in the seconds
            clock = time.perf_counter()
            self.before_search()
            self.before_search = None
            self.excluded = time.perf_counter() - clock
            self.budget.extend(self.excluded)
        from spider_solver.engine.driver import SearchOptions, run_search  # after the hook, which may have loaded it
        from spider_solver.engine.game import Game, position_key

        budget = self.budget.sub(share=share)
        proof = 0
        if board.deals_left == 0:
            proof = max(EARLY_PROOF_NODES, budget.max_nodes // EARLY_PROOF_SHARE)
        elif board.deals_left <= EARLY_PROOF_DEALS_LEFT:
            proof = EARLY_PROOF_NODES
        found = run_search(Game.from_board(board, deal_on_empty=self.deal_on_empty), budget=budget,
                           options=SearchOptions(proof_nodes=proof, final_proof=True,
                                                 avoid=tuple(position_key(*key) for key in avoid)))
        self.attempts = found.attempts
        if found.actions is not None:
            return self.check_line(prefix, found.actions, undo_limit, "search", after=board)
        if found.reason is Reason.EXHAUSTED:
            return Status.UNWINNABLE, Reason.EXHAUSTED, (), None
        return Status.UNKNOWN, found.reason, (), None


def _find_lost_at(session: _Session, effective: list[tuple[int, str]],
                  known: _KnownLine | None) -> tuple[Bracket, tuple[dict, ...]]:
    """Bisect the effective history for the step from winnable to unwinnable.

    Position i is the one after the first i actions in effect (0: the initial layout;
    ``len(effective)``: the final position, already proved unwinnable). ``low`` is the
    last position shown winnable, ``high`` the first proved unwinnable. Each search
    goes to the middle of the widest stretch of ``low..high`` between positions already
    searched (``_next_probe``): an unknown splits a stretch without ending the search.
    Each search gets at most ``1 / LOST_AT_SHARE`` of the budget (``_probe_share``: half
    with one deal left), so that one position that cannot be settled leaves room for the
    others. A position shown winnable moves ``low`` on to the last position of the
    history that its winning line passes through (``_KnownLine``: no search). Returns
    the bracket and the probes.
    """
    moves = [action for _, action in effective]
    low, high = -1, len(moves)  # low: shown winnable (-1: none yet); high: proved unwinnable
    unknown: set[int] = set()  # positions whose search came back unknown
    low_line: tuple[str, ...] = ()
    probes: list[dict] = []
    if known is not None:
        low, low_line = _last_on_line(session, moves, known, 0, high, probes)
    while session.budget.exceeded() is None:
        middle = _next_probe(low, high, unknown)
        if middle is None:
            break
        before, clock = session.nodes, time.perf_counter()
        board = session.board_after(moves[:middle])
        status, reason, line, source = session.search(board, moves[:middle], 0, _probe_share(board))
        probes.append({"position": middle, "status": str(status), "reason": str(reason), "source": source,
                       "nodes": session.nodes - before, "seconds": round(time.perf_counter() - clock, 4)})
        if status is Status.VERIFIED:
            low, low_line = middle, line
            along = _KnownLine.build(session.deal, [*moves[:middle], *line], session.deal_on_empty)
            if along is not None:
                further, further_line = _last_on_line(session, moves, along, middle + 1, high, probes)
                if further > low:
                    low, low_line = further, further_line
        elif status is Status.UNWINNABLE:
            high = middle
        elif reason is Reason.INTERRUPTED:
            break
        else:
            unknown.add(middle)
    winnable = None if low < 0 else low
    return Bracket(winnable=winnable, winnable_after=_after(effective, winnable),
                   line=low_line if winnable is not None else (), unwinnable=high,
                   unwinnable_after=_after(effective, high)), tuple(probes)


def _probe_share(board: Board) -> int:
    """The fraction of the budget (1 / share) a bisection's search of ``board`` may spend:
    ``LOST_AT_LAST_DEAL_SHARE`` with exactly one deal left, ``LOST_AT_SHARE`` otherwise."""
    return LOST_AT_LAST_DEAL_SHARE if board.deals_left == 1 else LOST_AT_SHARE


def _after(effective: list[tuple[int, str]], position: int | None) -> int | None:
    """The log index of the action that reached ``position`` of the effective history (None: the initial layout)."""
    return None if position is None or position == 0 else effective[position - 1][0]


def _next_probe(low: int, high: int, unknown: set[int]) -> int | None:
    """The position to search next: the middle of the widest stretch of ``low..high``
    between positions already searched (the later one of two equally wide); None when
    every position between ``low`` and ``high`` has been searched."""
    points = [low, *sorted(u for u in unknown if low < u < high), high]
    best: tuple[int, int] | None = None
    for a, b in zip(points, points[1:], strict=False):
        if b - a > 1 and (best is None or b - a >= best[1] - best[0]):
            best = (a, b)
    return None if best is None else (best[0] + best[1]) // 2


def _last_on_line(session: _Session, moves: list[str], known: _KnownLine, first: int, stop: int,
                  probes: list[dict]) -> tuple[int, tuple[str, ...]]:
    """The last position in ``first..stop - 1`` of the effective history that lies on
    ``known`` (winnable with no search), and the rest of the line from it, replayed to a
    win; ``(-1, ())`` if none does (or the replay refuses it)."""
    board, on_line, on_board = session.board_after(moves[:first]), -1, None
    for i in range(first, stop):
        if i > first:
            board.push_notation(moves[i - 1])
        if known.rest_from(board) is not None:
            on_line, on_board = i, board.copy()
    if on_board is None:
        return -1, ()
    rest = known.rest_from(on_board) or []
    status, _, line, _ = session.check_line(moves[:on_line], rest, 0, "known-line", after=on_board)
    if status is not Status.VERIFIED:  # pragma: no cover - a line that won from here wins again
        return -1, ()
    probes.append({"position": on_line, "status": str(status), "reason": str(Reason.WON), "source": "known-line",
                   "nodes": 0, "seconds": 0.0})
    return on_line, line


__all__ = [
    "EARLY_PROOF_DEALS_LEFT", "EARLY_PROOF_NODES", "EARLY_PROOF_SHARE", "LOST_AT_LAST_DEAL_SHARE", "LOST_AT_SHARE",
    "Analysis", "Bracket", "analyze", "analyze_without_search", "hint_from_line",
]
