"""The analysis of the position a game log reached: :func:`analyze` and the answers that need no search.

The log is replayed once (:mod:`.start`); a refused log, a win or a position on the
known line is answered at once (:func:`analyze_without_search`, :func:`hint_from_line`);
otherwise the position is searched (:mod:`.search`), and when it is unwinnable the
effective history is bisected for where the game was lost (:mod:`.lost`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from spider_solver.analysis.answer import Analysis, Bracket, Probe
from spider_solver.analysis.hints import LineMap, known_rest
from spider_solver.analysis.lost import find_lost_at
from spider_solver.analysis.options import AnalysisOptions
from spider_solver.analysis.search import Found, Session
from spider_solver.analysis.start import Key, Start, replay_log
from spider_solver.outcomes import Reason, Status, what_was_tried
from spider_solver.rules import Deal, GameCode
from spider_solver.verify import coerce_deal

#: The options an analysis takes when it is given none.
DEFAULT_OPTIONS = AnalysisOptions()


def analyze(deal: Deal | GameCode | str, actions: str | Iterable[str] = (),
            options: AnalysisOptions = DEFAULT_OPTIONS, **changes: Any) -> Analysis:
    """Replay ``actions`` on ``deal`` and say whether the position reached can still be won.

    ``deal`` is a :class:`Deal`, a :class:`GameCode` or a game code string; ``actions``
    a game log in the notation of RULES.md §11 Action notation (text, or a list of
    texts), replayed as RULES.md §12 Replay says under ``options``
    (:class:`AnalysisOptions`; ``changes`` are field names of it, for a caller who
    changes one or two: ``analyze(deal, log, max_nodes=10**6)``).

    The log is replayed once; a line found is checked by the rules engine from the
    position the log reached, as the log left it (the search for ``lost_at`` plays the
    actions in effect again up to each position it searches). Looking the known line up
    (a function's call) counts in the budget. The answer's outcomes, hints and the
    bisection are described in docs/engine.md, "Games in progress".
    """
    started = time.perf_counter()
    options = options.but(**changes)
    ready = _prepare(coerce_deal(deal), actions, options, started)
    if isinstance(ready, Analysis):
        return ready
    session, start, tokens = ready.session, ready.start, ready.start.tokens
    clock = time.perf_counter()
    found = session.search(start.board, tokens, options.undo_limit, avoid=ready.history)
    if found.status is Status.UNKNOWN and ready.known_rest is not None:
        # The known line passes through the history, but it wins, and following it cannot cycle.
        found = session.check_line(tokens, ready.known_rest, options.undo_limit, "known-line", after=start.board)
    tried = None
    if found.status is Status.UNKNOWN:
        tried = what_was_tried(session.attempts, session.nodes, session.budget.max_nodes)
    lost_at: int | None = None
    lost_at_line: tuple[str, ...] = ()
    bracket: Bracket | None = None
    probes: tuple[Probe, ...] = ()
    if found.status is Status.UNWINNABLE and options.find_lost_at:
        if start.effective:
            bracket, probes = find_lost_at(session, start.effective, ready.known)
            if bracket.width == 1:
                lost_at, lost_at_line = bracket.unwinnable_after, bracket.line
        else:  # no action in effect: the position proved unwinnable is the initial layout
            probes = (Probe(0, found.status, found.reason, found.source, session.nodes,
                            round(time.perf_counter() - clock - session.excluded, 4)),)
    return _finish(
        replace(
            _answered(ready.base, found, session.nodes), lost_at=lost_at,
            lost_at_action=None if lost_at is None else tokens[lost_at], lost_at_line=lost_at_line,
            bracket=bracket, probes=probes, tried=tried,
        ),
        started + session.excluded,
    )


def analyze_without_search(deal: Deal | GameCode | str, actions: str | Iterable[str] = (),
                           options: AnalysisOptions = DEFAULT_OPTIONS, **changes: Any) -> Analysis | None:
    """What :func:`analyze` answers when it needs no search (the log has a refused action,
    or wins, or the position lies on ``options.known_line``), with no engine loaded; None
    when only a search can answer. The budget is only recorded in the answer."""
    ready = _prepare(coerce_deal(deal), actions, options.but(**changes), time.perf_counter())
    return ready if isinstance(ready, Analysis) else None


def hint_from_line(deal: Deal | GameCode | str, actions: str | Iterable[str], line: str | Sequence[str], *,
                   deal_on_empty: bool = False, undo_limit: int | None = DEFAULT_OPTIONS.undo_limit) -> str | None:
    """The next action of ``line`` (a winning line from the initial layout) if the position
    the log reaches lies on it, the rest of it wins after the log and does not go back
    through a position of the game's history; else None. No search."""
    options = AnalysisOptions(deal_on_empty=deal_on_empty, undo_limit=undo_limit, known_line=line)
    answer = analyze_without_search(deal, actions, options)
    return answer.hint if answer is not None and answer.source == "known-line" else None


@dataclass(frozen=True)
class _Ready:
    """An analysis replayed and ready to search: the start, the session, the known line,
    the history a line should avoid, the answer so far (``base``) and the known line's rest
    when it goes back through the history."""

    start: Start
    session: Session
    base: Analysis
    known: LineMap | None
    history: set[Key]
    known_rest: list[str] | None


def _prepare(deal: Deal, actions: str | Iterable[str], options: AnalysisOptions, started: float) -> Analysis | _Ready:
    """The part of an analysis before any search: the answer when none is needed, else what the search needs."""
    start = replay_log(deal, actions, options.deal_on_empty, options.undo_limit)
    base = Analysis(code=str(deal.code) if deal.code else None, replay=start.replayed, status=None, reason=None,
                    effective=len(start.effective), max_nodes=options.max_nodes, max_seconds=options.max_seconds)
    if start.replayed.error is not None:
        return _finish(base, started)
    if start.replayed.won:
        return _finish(replace(base, status=Status.VERIFIED, reason=Reason.WON, source="won"), started)
    session = Session(deal, options, started)
    line = options.known_line() if callable(options.known_line) else options.known_line
    known = LineMap.build(deal, line, options.deal_on_empty)
    #: The positions of the game's history a line from here could pass through (keys).
    history = start.history()
    rest = known_rest(known, start, history)
    if rest.clear is not None:
        found = session.check_line(start.tokens, rest.clear, options.undo_limit, "known-line", after=start.board)
        return _finish(_answered(base, found, session.nodes), started)
    return _Ready(start, session, base, known, history, rest.through_history)


def _answered(base: Analysis, found: Found, nodes: int) -> Analysis:
    """The answer with what is known of the position."""
    return replace(base, status=found.status, reason=found.reason, hint=found.line[0] if found.line else None,
                   line=found.line, source=found.source, nodes=nodes)


def _finish(analysis: Analysis, started: float) -> Analysis:
    """The analysis with the seconds it took, from the start of the replay."""
    return replace(analysis, seconds=round(time.perf_counter() - started, 4))


__all__ = ["DEFAULT_OPTIONS", "analyze", "analyze_without_search", "hint_from_line"]
