"""The service's request and response models: the one definition of every field it
takes and gives, from which FastAPI generates ``/openapi.json``.

The catalog rows it serves (:class:`CatalogDeal`) are the export form; the test suite
checks that this model and the export's JSON Schema (``spider_solver/export.schema.json``)
describe the same fields, with the same types and values, so the two schemas cannot
drift apart.

Limits (README, "The service"): a request body of at most :data:`MAX_BODY_BYTES`; at
most :data:`MAX_ACTIONS` actions in a log (or :data:`MAX_LOG_TEXT` characters when
the log is one string); budgets up to the server's caps; pages of at most
:data:`MAX_PAGE` rows.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, create_model, model_validator

from spider_solver.limits import (
    MAX_ACTIONS,
    MAX_DECK_TEXT,
    MAX_LOG_TEXT,
    MAX_NODES_LIMIT,
    MAX_SECONDS_LIMIT,
    MAX_TOKEN,
    MAX_UNDO_LIMIT,
)
from spider_solver.outcomes import Reason, Status
from spider_solver.record import FIELDS
from spider_solver.rules import DEFAULT_UNDO_LIMIT, MAX_DEAL

Code = Annotated[str, StringConstraints(min_length=1, max_length=MAX_TOKEN)]
Token = Annotated[str, StringConstraints(max_length=MAX_TOKEN)]
ActionText = Annotated[str, Field(description="An action in notation: D, F>T, F>T/N or U.", max_length=MAX_TOKEN)]
#: One action of a log given as a list: the index of a refused one is its index in the list.
#: Python's whitespace (RULES.md §1 Conventions: the log's separators) is the pattern's \s and the
#: information separators U+001C-U+001F, which the validator's own \s leaves out.
ActionItem = Annotated[str, StringConstraints(min_length=1, max_length=MAX_TOKEN, pattern=r"^[^\s,\x1c-\x1f]+$"),
                       Field(description="One action in notation (D, F>T, F>T/N or U), without spaces.")]
CardText = Annotated[str, Field(description="A card: rank then suit, e.g. TH, QS (T is the ten).",
                                max_length=MAX_TOKEN)]
SuitsValue = Literal[1, 2, 4]


def _integer(value: Any) -> Any:
    """Refuses ``true`` and ``2.0`` where an integer is meant: a literal ``1`` or ``2``
    alone would take them (``True == 1``), which the strict models do not intend."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("Input should be 1, 2 or 4 (a JSON integer)")
    return value


#: The suit count of a request: 1, 2 or 4, a JSON integer.
SuitsInput = Annotated[SuitsValue, BeforeValidator(_integer)]
RuleValue = Literal["classic", "relaxed"]


class Model(BaseModel):
    """Refuses fields it does not know, so that a misspelt option is an error, not ignored,
    and values of another JSON type than the schema's (``"5"`` for a number, ``"yes"``
    for a boolean): what the schema says is what is taken."""

    model_config = ConfigDict(extra="forbid", strict=True)


# --------------------------------------------------------------------------- #
# Requests
# --------------------------------------------------------------------------- #


class DealRequest(Model):
    """A deal: exactly one of its game ``code`` and an explicit ``deck`` (with ``suits`` and ``rule``)."""

    code: Code | None = Field(None, description="A game code, e.g. SP1-S4C-AAAAAAD.", examples=["SP1-S4C-AAAAAAD"])
    deck: Annotated[str, StringConstraints(max_length=MAX_DECK_TEXT)] | None = Field(
        None, description="An explicit deal instead of a code: the 104 cards in deck order, separated by spaces.")
    suits: SuitsInput = Field(4, description="Suit count of an explicit deck (a code carries its own).")
    rule: RuleValue = Field("classic", description="Rule of an explicit deck (a code carries its own).")

    @model_validator(mode="after")
    def _one_deal(self) -> DealRequest:
        if (self.code is None) == (self.deck is None):
            raise ValueError("give either a game code (\"code\") or an explicit deal (\"deck\"), not both or neither")
        given = sorted(self.model_fields_set & {"suits", "rule"})
        if self.code is not None and given:
            # The code says both; taking one and ignoring the other would hide a mistake.
            names = " and ".join(f'"{name}"' for name in given)
            raise ValueError(f"{names} {'go' if len(given) > 1 else 'goes'} with an explicit \"deck\"; "
                             "a game code carries its own suit count and rule")
        return self


class Budget(Model):
    """A search budget; each is capped by the server's own (``--max-nodes-cap``,
    ``--max-seconds-cap``), and the answer says what was used."""

    max_nodes: int | None = Field(None, ge=1, le=MAX_NODES_LIMIT,
                                  description="Search nodes at most (default: the server's cap).")
    max_seconds: float | None = Field(None, gt=0, le=MAX_SECONDS_LIMIT, allow_inf_nan=False,
                                      description="Seconds at most (default: the server's cap).")


class VerifyRequest(Budget, DealRequest):
    deal_on_empty: bool = Field(False, description="Allow dealing while a column is empty.")


class GameRequest(DealRequest):
    """A deal and a game log played on it."""

    actions: (Annotated[list[ActionItem], Field(max_length=MAX_ACTIONS)]
              | Annotated[str, StringConstraints(max_length=MAX_LOG_TEXT)]) = Field(
        default_factory=list,
        description="The log: a list of actions (one an item), or one string of them separated by spaces or "
                    "commas. The index of a refused action counts the actions from 0: the list's items, or the "
                    "string's actions.")
    deal_on_empty: bool = Field(False, description="Allow dealing while a column is empty.")
    undo_limit: int | None = Field(DEFAULT_UNDO_LIMIT, ge=0, le=MAX_UNDO_LIMIT,
                                   description="Actions that can be undone; null keeps the whole history.")


class AnalyzeRequest(Budget, GameRequest):
    lost_at: bool = Field(True, description="When the position is unwinnable, look for where the game was lost.")


# --------------------------------------------------------------------------- #
# Responses
# --------------------------------------------------------------------------- #


class Searches(BaseModel):
    solvers: int = Field(description="Solver processes.")
    running: int = Field(description="Searches in flight (waiting or running).")
    capacity: int = Field(description="Searches in flight at most; beyond it a search request gets 503.")


class Health(BaseModel):
    status: Literal["ok", "stopping"]
    version: str
    read_only: bool
    catalog: bool = Field(description="Whether the server has a catalog.")
    searches: Searches


class Card(BaseModel):
    card: CardText
    face_up: bool


class DealLayout(BaseModel):
    """A deal's initial layout, as ``spider-solve show --json`` prints it."""

    code: str | None
    suits: SuitsValue
    rule: RuleValue
    deal: int | None = Field(description="The deal number the code encodes; null for an explicit deck.",
                             ge=0, le=MAX_DEAL)
    deck: list[CardText] = Field(description="The 104 cards in deck order.")
    columns: list[list[Card]] = Field(description="Ten columns, each from the deepest card up.")
    stock: list[CardText] = Field(description="The stock, in the order it is dealt.")


#: JSON Schema bounds of a record's field, as pydantic's Field takes them.
_BOUNDS = {"minimum": "ge", "maximum": "le", "exclusiveMinimum": "gt"}
#: Fields every stored record has (a catalog row has a code, a deal number and a time).
_STORED = ("code", "deal", "solved_at")


def record_model(name: str, doc: str, *, stored: bool, **extra: Any) -> type[BaseModel]:
    """A response model of the plain-data form of a record (:data:`spider_solver.record.FIELDS`,
    field for field, in order), followed by the ``extra`` fields (name: (type, Field)).
    ``stored``: a catalog row, whose code, deal number and time are never null."""
    fields: dict[str, Any] = {}
    for spec in FIELDS:
        kind: Any = list[ActionText] if spec.name == "solution" else spec.type
        if spec.nullable and not (stored and spec.name in _STORED):
            kind = kind | None
        bounds: dict[str, Any] = {_BOUNDS[key]: value for key, value in spec.bounds.items()}
        fields[spec.name] = (kind, Field(description=spec.description, **bounds))
    return create_model(name, __doc__=doc, **fields, **extra)


#: One catalog row in export form (``spider_solver/export.schema.json``, ``$defs/deal``).
CatalogDeal = record_model("CatalogDeal", "One catalog row: a deal's record, in export form.", stored=True)


class DealView(DealLayout):
    catalog: CatalogDeal | None = Field(  # type: ignore[valid-type]
        description="The catalog's record of the deal; null if it has none.")


class CatalogPage(BaseModel):
    deals: list[CatalogDeal]  # type: ignore[valid-type]
    next: str | None = Field(description="Pass as ?after= for the next page; null on the last page.")


#: The record of a search, as ``spider-solve verify --json`` prints it, and where it came from.
VerifyResponse = record_model(
    "VerifyResponse", "A deal's record, as `spider-solve verify --json` prints it, and where the answer came from.",
    stored=False,
    deal_on_empty=(bool, Field(description="Whether dealing on an empty column was allowed (the line may need it).")),
    source=(Literal["catalog", "search"], Field(
        description="catalog: the catalog had settled the deal, no search ran; search: a search ran now.")),
)


class ReplayResponse(BaseModel):
    """As ``spider-solve replay --json`` prints it (a refused action is a 422 error instead)."""

    code: str | None
    won: bool
    moves: int
    score: int
    runs_removed: int
    stock_left: int


class Probe(BaseModel):
    position: int
    status: Status
    reason: Reason
    source: str | None
    nodes: int
    seconds: float


class AnalysisResponse(BaseModel):
    """As ``spider-solve analyze --json`` prints it."""

    code: str | None
    replay: ReplayResponse
    status: Status
    reason: Reason
    hint: ActionText | None
    line: list[ActionText]
    source: Literal["search", "known-line", "won"] | None
    lost_at: int | None
    lost_at_action: str | None
    lost_at_line: list[ActionText]
    effective: int
    nodes: int
    seconds: float
    max_nodes: int
    max_seconds: float | None
    probes: list[Probe]


class ErrorDetail(BaseModel):
    type: str = Field(description="What went wrong, e.g. invalid-request, invalid-code, refused-action, busy.")
    message: str = Field(description="In words, as the command line would say it.")
    index: int | None = Field(None, description="refused-action: the 0-based index of the refused action.")
    action: str | None = Field(None, description="refused-action: the refused action as written.")


class ErrorResponse(BaseModel):
    error: ErrorDetail



def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers an endpoint documents in the OpenAPI document, all of one model."""
    words = {400: "Malformed request", 403: "The server does not search (--read-only)",
             404: "Not found", 408: "The request body did not arrive in time", 413: "Request body too large",
             422: "Invalid input, or an action the rules refuse",
             415: "The body is not sent as JSON (Content-Type: application/json)",
             503: "Busy (see Retry-After), stopping, a solver failed, or the catalog cannot be read"}
    retry = {"Retry-After": {"description": "Seconds to wait before trying again (busy, solver-failed).",
                             "schema": {"type": "integer"}}}
    return {status: {"model": ErrorResponse, "description": words[status]}
            | ({"headers": retry} if status == 503 else {}) for status in statuses}
