"""``POST /v1/position``: the position a game log reaches, as a frontend draws it and
plays on: each column's face-up cards and face-down count, the groups that can leave it
with the columns they may go to and the one a double-click picks, the legal actions, and
why a deal, an undo or a given action would be refused (RULES.md §13 Frontend helpers). One request a
player's action: the web client (``/play``) sends its growing log and redraws from the
answer."""

from __future__ import annotations

from functools import lru_cache, partial
from typing import Any

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from spider_solver.errors import SpiderError
from spider_solver.rules import DEFAULT_UNDO_LIMIT, Board, Deal
from spider_solver.rules.cards import SUIT_LETTERS
from spider_solver.rules.replay import play_on
from spider_solver.service import state
from spider_solver.service.models import PositionRequest, PositionResponse, responses
from spider_solver.service.routes.games import INLINE_ACTIONS, refuse_at_error, replay_fields, tokens_of

router = APIRouter(tags=["games"])


def refusal(board: Board, token: str) -> str | None:
    """The rule that refuses the action ``token`` now (RULES.md §13.3 Rule reminders, or
    the notation's refusal, §11 Action notation), or None if it is allowed; once the game is won, the
    replay's refusal of any action after the win (RULES.md §12 Replay)."""
    if board.is_won():
        error = play_on(board.copy(), [token]).error
        return None if error is None else error.message
    try:
        board.check(board.parse_action(token))
    except SpiderError as error:
        return str(error)
    return None


def position_of(deal: Deal, tokens: tuple[str, ...], *, deal_on_empty: bool = False,
                undo_limit: int | None = DEFAULT_UNDO_LIMIT, check: str | None = None) -> dict[str, Any]:
    """The answer of ``POST /v1/position``: replay the log on a board with these options (its
    undo history kept, so that the answer can say whether an undo is allowed); :class:`Refused`
    at its first refused action. ``check``: an action whose refusal the answer says."""
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=undo_limit)
    result = play_on(board, tokens)
    refuse_at_error(result)
    columns = []
    for column in range(1, board.variant.columns + 1):
        movable = board.movable(column)
        columns.append({
            "down": board.down[column - 1],
            "up": [str(card) for card in board.face_up(column)],
            "movable": movable,
            "groups": [{"count": count, "targets": board.targets(column, count),
                        "best": board.best_target(column, count)} for count in range(1, movable + 1)],
            "best": board.best_target(column) if movable else None,
        })
    moves = [] if result.won else [board.notation(action) for action in board.legal_moves()]
    undo_refused = refusal(board, "U")
    return replay_fields(result, str(deal.code) if deal.code else None) | {
        "suits": deal.variant.suits,
        "rule": deal.variant.rule,
        "removed": [SUIT_LETTERS[suit] for suit in board.removed],
        "deals_left": board.deals_left,
        "columns": columns,
        "legal": moves + ([] if undo_refused is not None else ["U"]),
        "stuck": not result.won and not moves,
        "played": list(result.played),
        "deal_refused": refusal(board, "D"),
        "undo_refused": undo_refused,
        "refused": None if check is None else refusal(board, check),
    }


@lru_cache(maxsize=4096)
def opening(code: str) -> dict[str, Any]:
    """The first position of a deal as ``POST /v1/position`` answers it for an empty log, with
    the default options: what a new game is laid out from, face-down cards counted, never named
    (deals never change: cached; callers do not change it)."""
    return position_of(state.deal_by_code(code), ())


@router.post("/v1/position", response_model=PositionResponse, responses=responses(415, 422, 503))
async def position(body: PositionRequest) -> Any:
    """The position a game log reaches, for drawing and playing on: the face-up cards and
    face-down counts of the columns, the groups that can move with their targets and best
    column, the legal actions, the log as played (canonical notation), and the rule that
    refuses a deal or an undo now; with ``check``, the rule that refuses that action (a drop
    the placement help does not list: the rule reminder to show), the position staying
    the log's. A refused action of the log is a 422 error naming its
    index and the rule, as for ``/v1/replay``."""
    deal, _ = state.deal_of(body)
    tokens = tokens_of(body.actions)
    answer = partial(position_of, deal, tokens, deal_on_empty=body.deal_on_empty, undo_limit=body.undo_limit,
                     check=body.check)
    if len(tokens) <= INLINE_ACTIONS:
        return answer()
    return await run_in_threadpool(answer)
