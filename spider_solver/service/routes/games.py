"""``POST /v1/replay``, ``POST /v1/analyze`` (with ``fair``, the fair hint) and ``POST /v1/review``: a game
log on a deal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.exceptions import RequestValidationError
from starlette.concurrency import run_in_threadpool

from spider_solver.analysis import (
    Analysis,
    AnalysisOptions,
    FairHint,
    FairOptions,
    Review,
    ReviewOptions,
    analyze_without_search,
)
from spider_solver.analysis.fair import fair_hint_without_search
from spider_solver.analysis.start import effective_history
from spider_solver.catalog import Catalog
from spider_solver.limits import FAIR_SEED, MAX_REVIEW_ACTIONS, REVIEW_CONFIRM_LAYOUTS
from spider_solver.outcomes import Status
from spider_solver.rules import Deal, replay, split_actions
from spider_solver.rules.replay import ReplayResult
from spider_solver.service import state
from spider_solver.service.errors import Refused
from spider_solver.service.lines import RememberedLines
from spider_solver.service.models import (
    REVEALS,
    AnalysisResponse,
    AnalyzeRequest,
    FairHintResponse,
    GameRequest,
    ReplayResponse,
    ReviewRequest,
    ReviewResponse,
    responses,
)
from spider_solver.service.searches import DealSpec, Searches, analyze_job, fair_hint_job, review_job

router = APIRouter(tags=["games"])

#: A log of at most this many actions is replayed on the event loop (about 1 ms for 150
#: here); a longer one in a thread.
INLINE_ACTIONS = 300
_REPLAY_FIELDS = ("won", "moves", "score", "runs_removed", "stock_left")


def tokens_of(actions: list[str] | str) -> tuple[str, ...]:
    """The log's actions (the model checks their form: a list's items are one action each,
    a string's actions at most MAX_TOKEN characters, the string at most MAX_LOG_TEXT); a
    refused one is reported by the replay with its index."""
    return tuple(split_actions(actions)) if isinstance(actions, str) else tuple(actions)


def refuse_at_error(result: ReplayResult) -> None:
    """:class:`Refused` (422) if the replay stopped at a refused action."""
    if result.error is not None:
        raise Refused(result.error)


def replayed(deal: Deal, tokens: tuple[str, ...], body: GameRequest) -> ReplayResult:
    """Replay the log; :class:`Refused` at its first refused action."""
    result = replay(deal, tokens, deal_on_empty=body.deal_on_empty, undo_limit=body.undo_limit)
    refuse_at_error(result)
    return result


def replay_fields(result: ReplayResult, code: str | None) -> dict[str, Any]:
    """The fields of ``replay --json`` (read one by one: ``to_dict()`` would copy the line)."""
    return {"code": code} | {name: getattr(result, name) for name in _REPLAY_FIELDS}


@router.post("/v1/replay", response_model=ReplayResponse, responses=responses(415, 422, 503))
async def replay_log(body: GameRequest) -> Any:
    """Replay a game log (moves, deals, undos) and score it as the app does. A refused
    action is a 422 error naming its index and the rule."""
    deal, _ = state.deal_of(body)
    tokens = tokens_of(body.actions)
    # A short log is replayed on the loop (less than handing it to a thread costs), a
    # long one in a thread, so that the loop goes on answering meanwhile.
    if len(tokens) <= INLINE_ACTIONS:
        result = replayed(deal, tokens, body)
    else:
        result = await run_in_threadpool(replayed, deal, tokens, body)
    return replay_fields(result, str(deal.code) if deal.code else None)


@router.post("/v1/analyze", response_model=AnalysisResponse | FairHintResponse,
             responses=responses(403, 415, 422, 503),
             openapi_extra={REVEALS: ["a winning line from the position (hint, line, lost_at_line, bracket.line), "
                                      "found with the face-down cards known; nothing with fair: true"]})
async def analyze_log(body: AnalyzeRequest, settings: Annotated[state.Settings, Depends(state.settings)],
                      catalog: Annotated[Catalog | None, Depends(state.optional_catalog)],
                      searches: Annotated[Searches | None, Depends(state.optional_searches)],
                      lines: Annotated[RememberedLines, Depends(state.lines)]) -> Any:
    """**Reveals a winning line**, found knowing the face-down cards (a hint is a spoiler by
    nature: ask when the player asks). The position a game log reaches: still winnable (with the hint and the line),
    no longer winnable (and where it was lost), or unknown, and ``summary``, the answer in one
    sentence for the player. When the position lies on a line the server knows (the catalog's
    verified line, or one it found for this deal before: hints continue), no search runs;
    identical requests in flight share one search.

    With ``"fair": true``, the **fair hint** instead, which reveals nothing: the best next
    action judged only on what the player has seen (the face-up cards, how many cards lie
    face down, the deals and runs removed), with its chance to win and the other actions',
    as ``spider-solve hint --fair --json`` prints it (``FairHintResponse``); it is queued and
    capped as searches are, takes ``layouts`` (up to ``--max-layouts-cap``) and ``seed``, and
    never reads the catalog's line."""
    deal, spec = state.deal_of(body)
    tokens = tokens_of(body.actions)
    if body.fair:
        return await fair_answer(deal, spec, tokens, body, settings, searches)
    entry = catalog.get(spec.code) if catalog is not None and spec.code is not None else None
    catalog_line = [entry.solution] if entry is not None and entry.status is Status.VERIFIED else []
    deal_key = (spec, body.deal_on_empty)
    max_nodes, max_seconds = settings.budget(body)
    answer, known = None, None
    # Without a search: a refused action (422), a log that wins, a position on a known line (the
    # catalog's, then those found for this deal before, latest first). Looked at again until no
    # line came while the last look ran: a search that ended meanwhile left its lines, and
    # between this last look and ``run`` nothing else runs.
    while answer is None and known != (fresh := catalog_line + lines.of(deal_key)):
        known = fresh
        options = AnalysisOptions(deal_on_empty=body.deal_on_empty, undo_limit=body.undo_limit, max_nodes=max_nodes,
                                  max_seconds=max_seconds, known_line=known[0] if known else None,
                                  find_lost_at=body.lost_at)
        answer = await run_in_threadpool(answer_without_search, deal, tokens, options, known)
    if answer is not None:
        refuse_at_error(answer.replay)
    else:
        # The lines found are remembered as the search ends: the next hint on its line needs no search.
        answer = await state.require_searches(searches).run(
            ("analyze", spec, tokens, options), analyze_job, spec, tokens, options, budget=(max_nodes, max_seconds),
            then=lambda found: lines.remember(deal_key, found))
    return analysis_body(answer)


async def fair_answer(deal: Deal, spec: DealSpec, tokens: tuple[str, ...], body: AnalyzeRequest,
                      settings: state.Settings, searches: Searches | None) -> dict[str, Any]:
    """``POST /v1/analyze`` with ``fair``: a refused log is 422 and a won one answered at once;
    otherwise the fair hint runs in a solver process, queued and shared as a search is."""
    options = FairOptions(deal_on_empty=body.deal_on_empty, undo_limit=body.undo_limit,
                          layouts=settings.layouts(body.layouts), seed=FAIR_SEED if body.seed is None else body.seed)
    answer = await run_in_threadpool(fair_hint_without_search, deal, tokens, options)
    if answer is not None:
        refuse_at_error(answer.replay)
    else:
        answer = await state.require_searches(searches).run(("fair", spec, tokens, options), fair_hint_job, spec,
                                                            tokens, options, budget=(None, None))
    return fair_body(answer)


def fair_body(hint: FairHint) -> dict[str, Any]:
    """The answer of ``POST /v1/analyze`` with ``fair``: the fair hint's plain-data form (as
    ``hint --fair --json`` prints it), its replay as ``POST /v1/replay`` gives it."""
    return hint.to_dict() | {"replay": replay_fields(hint.replay, hint.code)}


@router.post("/v1/review", response_model=ReviewResponse, responses=responses(403, 415, 422, 503))
async def review_log(body: ReviewRequest, settings: Annotated[state.Settings, Depends(state.settings)],
                     searches: Annotated[Searches | None, Depends(state.optional_searches)]) -> Any:
    """The review of a game, which reveals nothing: each of the player's decisions (an action
    in effect played where another was legal) judged only on what the player had seen,
    with the chances to win before it, after the action played and after the best other
    action, all on the same sampled layouts of the unseen cards; a card turned up or dealt
    is never charged. The costliest decisions are judged again on fresh layouts, and up to
    three whose cost stands are named with the better action (``costliest``, and the
    ``summary`` in words). As ``spider-solve review --json`` prints it.

    A review runs in one solver process, queued and shared as searches are: it takes
    ``layouts`` and ``confirm_layouts`` (each up to ``--max-layouts-cap``) and ``seed``, and a log of at most
    ``MAX_REVIEW_ACTIONS`` (1,000) actions in effect; it has no time budget (its layouts and
    the log bound it: a four-suit game takes up to a minute or so of one core). A client that
    stops waiting does not stop it: the same request again shares it."""
    deal, spec = state.deal_of(body)
    tokens = tokens_of(body.actions)
    options = ReviewOptions(deal_on_empty=body.deal_on_empty, undo_limit=body.undo_limit,
                            layouts=settings.layouts(body.layouts),
                            confirm_layouts=settings.layouts(body.confirm_layouts, name="confirm_layouts",
                                                             default=REVIEW_CONFIRM_LAYOUTS),
                            seed=FAIR_SEED if body.seed is None else body.seed)
    result = await run_in_threadpool(replayed, deal, tokens, body)  # a refused action: 422
    effective = len(effective_history(result.played))
    if effective > MAX_REVIEW_ACTIONS:
        raise RequestValidationError([{"loc": ("body", "actions"), "type": "over_cap",
                                       "msg": f"a review takes a game of at most {MAX_REVIEW_ACTIONS:,} actions in "
                                              f"effect (after the undos); got {effective:,}"}])
    answer = await state.require_searches(searches).run(("review", spec, tokens, options), review_job, spec, tokens,
                                                        options, budget=(None, None))
    return review_body(answer)


def review_body(review: Review) -> dict[str, Any]:
    """The answer of ``POST /v1/review``: the review's plain-data form (as ``review --json``
    prints it), its replay as ``POST /v1/replay`` gives it."""
    return review.to_dict() | {"replay": replay_fields(review.replay, review.code)}


def answer_without_search(deal: Deal, tokens: tuple[str, ...], options: AnalysisOptions,
                          candidates: Sequence[Sequence[str]]) -> Analysis | None:
    """The analysis without a search, along the first of the known lines (``candidates``: the
    catalog's, then those the server found, latest first) that the position lies on; None
    when only a search can answer."""
    for line in candidates or [()]:
        answer = analyze_without_search(deal, tokens, options.but(known_line=line or None))
        if answer is not None:
            return answer
    return None


def analysis_body(analysis: Analysis) -> dict[str, Any]:
    """The answer of ``POST /v1/analyze``, made once: the analysis's plain-data form (as
    ``analyze --json`` prints it), its replay as ``POST /v1/replay`` gives it."""
    return analysis.to_dict() | {"replay": replay_fields(analysis.replay, analysis.code)}
