"""Finished games: ``POST /v1/games`` (replay a whole game, record it, sign its receipt),
``POST /v1/games/verify`` (check a receipt; redeem it once) and ``GET /v1/deals/{code}/games``
(the best results of a deal). docs/service.md, "Finished games and receipts".

A receipt is refused when it does not prove its game: malformed, forged or altered
(``422 invalid-receipt``: its HMAC is not the server key's over its record), for another
deal or challenge than the one the verifier names (``422 receipt-mismatch``), or replayed:
redeemed a second time (``409 replayed-receipt``). The same game submitted again is the game
stored, with its first receipt, never a second entry.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from spider_solver.catalog import Catalog
from spider_solver.games import MAX_CHALLENGE, finished_game, read_receipt, replay_finished, sign, to_plain
from spider_solver.limits import DEFAULT_GAMES_PAGE, MAX_GAMES_PAGE
from spider_solver.outcomes import Status
from spider_solver.record import utc_now
from spider_solver.rules import GameCode
from spider_solver.service import state
from spider_solver.service.errors import ReadOnly, ReceiptMismatch, Refused, ReplayedReceipt
from spider_solver.service.finished import Recorder, client_address
from spider_solver.service.models import (
    DealGames,
    GameAnswer,
    GameSubmission,
    ReceiptAnswer,
    ReceiptCheck,
    responses,
)
from spider_solver.service.routes.games import INLINE_ACTIONS, tokens_of
from spider_solver.service.routes.paths import CodePath

router = APIRouter(tags=["finished games"])


@router.post("/v1/games", response_model=GameAnswer, status_code=201,
             responses=responses(403, 404, 415, 422, 429, 503) | {
                 200: {"model": GameAnswer, "description": "The same game was submitted before: the game stored "
                                                           "then, and its receipt"}})
async def submit_game(body: GameSubmission, request: Request, response: Response,
                      found: Annotated[Recorder | None, Depends(state.optional_recorder)],
                      catalog: Annotated[Catalog | None, Depends(state.optional_catalog)]) -> Any:
    """Replay a finished game's whole log with the rules engine, record it and sign it: the
    outcome (won, stuck, stopped), the score, the move counter, the runs removed, the undos
    used, the deal's par, and a receipt (HMAC-SHA256 of the record under the server's key)
    that ``POST /v1/games/verify``, or anyone with the key, checks. 201 for a new game; 200
    with the stored game and its first receipt when the same game (deal, options, log, name,
    challenge) was submitted before. A refused action is a 422 naming it, as for
    ``/v1/replay``; ``429 too-many-games`` past the rate limit of the client's address."""
    recorder = state.require_recorder(request.app, found)
    recorder.limit.take(client_address(request))
    deal, spec = state.deal_of(body)
    tokens = tokens_of(body.actions)
    replay = partial(replay_finished, deal, tokens, deal_on_empty=body.deal_on_empty, undo_limit=body.undo_limit)
    replayed = replay() if len(tokens) <= INLINE_ACTIONS else await run_in_threadpool(replay)
    if replayed.error is not None:
        raise Refused(replayed.error)
    entry = catalog.get(spec.code) if catalog is not None and spec.code is not None else None
    par = entry.par if entry is not None and entry.status is Status.VERIFIED and not body.deal_on_empty else None
    game = finished_game(replayed, id=secrets.token_hex(16), par=par, name=body.name, challenge=body.challenge,
                         finished_at=utc_now(), key=recorder.key)
    stored = await recorder.record(game)
    if stored.id != game.id:  # submitted before: that game, its id and time
        response.status_code = 200
        stored = replace(stored, key_id=recorder.key_id)  # signed by the key of now, if it changed since
    return {"game": to_plain(stored), "receipt": sign(stored, recorder.key)}


@router.post("/v1/games/verify", response_model=ReceiptAnswer, responses=responses(403, 409, 415, 422, 503))
async def verify_receipt(body: ReceiptCheck, key: Annotated[bytes, Depends(state.receipt_key)],
                         recorder: Annotated[Recorder | None, Depends(state.optional_recorder)],
                         catalog: Annotated[Catalog | None, Depends(state.optional_catalog)]) -> Any:
    """Check a receipt: the game it proves, if it was signed with this server's key and not
    changed since (``422 invalid-receipt`` otherwise: forged or altered), for the deal and
    the challenge given, if any (``422 receipt-mismatch``). With ``redeem``, the receipt is
    marked used: a second redemption is refused (``409 replayed-receipt``), so that a
    frontend that gives credit for a result gives it once."""
    game = read_receipt(body.receipt, key)
    wanted = None if body.code is None else str(GameCode.parse(body.code))
    if wanted is not None and game.code != wanted:
        raise ReceiptMismatch(f"the receipt is for {game.code or 'an explicit deck'}, not {wanted}")
    if body.challenge is not None and game.challenge != body.challenge:
        theirs = "no challenge" if game.challenge is None else f"the challenge {game.challenge!r}"
        raise ReceiptMismatch(f"the receipt is for {theirs}, not {body.challenge!r}")
    stored = None if catalog is None else catalog.stored_game(game.id)
    held, redeemed_at = stored is not None, None if stored is None else stored.redeemed_at
    if body.redeem:
        if recorder is None:  # a helper of --workers hands it to the primary, which writes
            raise ReadOnly("this server does not write (--read-only): it cannot redeem a receipt")
        now = utc_now()
        try:
            before = await recorder.redeem(game.id, now)
        except KeyError:
            raise StarletteHTTPException(404, "this server holds no game of this receipt (it keeps the latest "
                                              "games only): it cannot be redeemed here") from None
        if before is not None:
            raise ReplayedReceipt(f"this receipt was redeemed already, at {before}: a receipt is redeemed once")
        held, redeemed_at = True, now
    return {"valid": True, "game": to_plain(game), "stored": held, "redeemed_at": redeemed_at}


@router.get("/v1/deals/{code}/games", response_model=DealGames, responses=responses(404, 422, 503))
async def deal_games(
    code: CodePath,
    catalog: Annotated[Catalog, Depends(state.catalog)],
    challenge: Annotated[str | None, Query(max_length=MAX_CHALLENGE,
                                           description="Only the games of this challenge.")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_GAMES_PAGE, description="Games at most.")] = DEFAULT_GAMES_PAGE,
) -> Any:
    """The best finished games the server recorded for a deal (of a challenge, if given): won
    first, then the higher score, the fewer moves, the earlier; and how many it holds. No log
    (a won game's log is a solution) and no player's identity but the name a frontend sent."""
    games, total = catalog.best_games(str(GameCode.parse(code)), challenge=challenge, limit=limit)
    return {"games": [to_plain(game) for game in games], "total": total}
