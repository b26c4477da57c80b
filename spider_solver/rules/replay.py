"""The rules checker: replay a game log and score it exactly as the app does.

RULES.md §12 Replay: the result's fields, the 0-based index of the first refused
action, and the refusal of any action after the win.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass

from spider_solver.errors import SpiderError, quote
from spider_solver.rules.board import DEFAULT_UNDO_LIMIT, Board, check_play_options
from spider_solver.rules.codes import GameCode
from spider_solver.rules.deal import Deal
from spider_solver.rules.notation import log_tokens


@dataclass(frozen=True)
class ReplayError:
    """The first refused action: its 0-based index in the log, its text, and why."""

    index: int
    action: str
    message: str

    def __str__(self) -> str:
        """How every front end names it: ``action 3 (index 2: '1>2') refused: ...``."""
        return f"action {self.index + 1} (index {self.index}: {quote(self.action)}) refused: {self.message}"


@dataclass(frozen=True)
class ReplayResult:
    won: bool
    moves: int
    score: int
    runs_removed: int
    stock_left: int
    #: Canonical notation of every action played, undos included, up to the first error.
    played: tuple[str, ...]
    error: ReplayError | None = None

    def to_dict(self) -> dict:
        data = asdict(self)
        del data["played"]
        return data


def replay(
    deal: Deal | GameCode | str,
    actions: str | Iterable[str],
    *,
    deal_on_empty: bool = False,
    undo_limit: int | None = DEFAULT_UNDO_LIMIT,
) -> ReplayResult:
    """Play ``actions`` (notation tokens) from the initial layout of ``deal``.

    Stops at the first action that does not parse or that the position refuses;
    the result then carries that action's index and the rule in words. A log that
    goes on after the game is won is refused at the first action past the win.
    """
    return replay_board(deal, actions, deal_on_empty=deal_on_empty, undo_limit=undo_limit)[0]


def replay_board(
    deal: Deal | GameCode | str,
    actions: str | Iterable[str],
    *,
    deal_on_empty: bool = False,
    undo_limit: int | None = DEFAULT_UNDO_LIMIT,
    after: Callable[[Board], object] | None = None,
) -> tuple[ReplayResult, Board]:
    """:func:`replay`, and the board it leaves: the position after the last action
    played (before the refused one, if any), for what comes after the log. Its undo
    history is kept only if the log undoes. ``after`` is called with the board after
    each action played (as :func:`play_on`)."""
    check_play_options(deal_on_empty, undo_limit)
    tokens = log_tokens(actions)
    # A log without an undo never asks for an earlier position: keep none (it is faster).
    # (A token is "U" in any case only if it is "U" or "u": tokens hold no blanks.)
    if "U" not in tokens and "u" not in tokens:
        undo_limit = 0
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=undo_limit)
    return _play_tokens(board, tokens, after), board


def play_on(board: Board, actions: str | Iterable[str], *,
            after: Callable[[Board], object] | None = None) -> ReplayResult:
    """Play ``actions`` on ``board`` from its position, as :func:`replay` plays a log
    from the initial layout (``played`` holds the actions played here only). ``after``,
    if given, is called with the board after each action played, undos included (it
    must not change the board)."""
    return _play_tokens(board, log_tokens(actions), after)


def _play_tokens(board: Board, tokens: list[str], after: Callable[[Board], object] | None) -> ReplayResult:
    """:func:`play_on` of a log already split into tokens."""
    played: list[str] = []
    error = None
    for index, token in enumerate(tokens):
        try:
            if board.is_won():
                raise SpiderError(f"the game is already won; {quote(token)} comes after the last run left")
            text = board.play(board.parse_action(token))
        except SpiderError as exc:
            error = ReplayError(index, token, str(exc))
            break
        played.append(text)
        if after is not None:
            after(board)
    return ReplayResult(
        won=board.is_won(),
        moves=board.moves,
        score=board.score,
        runs_removed=board.runs_removed,
        stock_left=board.stock_left,
        played=tuple(played),
        error=error,
    )
