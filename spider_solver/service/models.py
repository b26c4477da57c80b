"""The service's request and response models: the one definition of every field it
takes and gives, from which FastAPI generates ``/openapi.json``.

The catalog rows it serves (:class:`CatalogDeal`) are the export form; the test suite
checks that this model and the export's JSON Schema (``spider_solver/export.schema.json``)
describe the same fields, with the same types and values, so the two schemas cannot
drift apart.

The document is the contract of a request's form (docs/service.md, "The contract"):
every check the server makes of a request's form is in it, spelt so that every regex
dialect that reads it (ECMA-262 for clients, Python's for schemathesis, Rust's for
pydantic) agrees, and nothing it allows is refused for its form. Limits (docs/service.md, "Errors and
limits"): a request body of at most :data:`MAX_BODY_BYTES`; at most :data:`MAX_ACTIONS`
actions in a log given as a list, :data:`MAX_LOG_TEXT` characters when it is one
string; budgets up to the server's caps, which :func:`document` writes into the
document; pages of at most :data:`MAX_PAGE` rows.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, create_model, model_validator

from spider_solver.analysis.answer import ANALYSIS_FIELDS, BRACKET_FIELDS, PROBE_FIELDS, Action, Bracket, Probe
from spider_solver.analysis.fair import FAIR_CHOICE_FIELDS, FAIR_HINT_FIELDS, FairChoice
from spider_solver.analysis.reviewing import DECISION_FIELDS, MISTAKE_FIELDS, REVIEW_FIELDS, Decision, Mistake
from spider_solver.games import GAME_FIELDS, MAX_CHALLENGE, MAX_NAME, Outcome
from spider_solver.limits import (
    DEFAULT_MAX_LAYOUTS_CAP,
    FAIR_LAYOUTS,
    FAIR_SEED,
    MAX_ACTIONS,
    MAX_DECK_TEXT,
    MAX_FAIR_LAYOUTS,
    MAX_LOG_TEXT,
    MAX_NODES_LIMIT,
    MAX_RECEIPT,
    MAX_SECONDS_LIMIT,
    MAX_SEED,
    MAX_TOKEN,
    MAX_UNDO_LIMIT,
    REVIEW_CONFIRM_LAYOUTS,
)
from spider_solver.outcomes import Reason, Status
from spider_solver.record import FIELDS, GRADES
from spider_solver.rules import DEFAULT_UNDO_LIMIT, MAX_DEAL
from spider_solver.rules.replay import ReplayResult
from spider_solver.service.refusals import shown

#: Python's whitespace (``str.isspace``: what ``str.strip`` and ``split_actions`` take,
#: RULES.md §1 Conventions), as a regex class body spelt out character by character: the
#: dialects' ``\s`` differ (ECMA-262's leaves out U+0085 and U+001C-U+001F and adds
#: U+FEFF; Rust's leaves out U+001C-U+001F). A test checks it against ``str.isspace``.
SPACE = (r"\u0009-\u000d\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000")
#: A game code as :meth:`~spider_solver.rules.GameCode.parse` reads it (RULES.md §9 Game code): ASCII
#: letters in either case, whitespace around; S1R is S1C.
CODE_PATTERN = rf"^[{SPACE}]*[Ss][Pp]1-[Ss][124][CcRr]-[A-Za-z2-7]{{7}}[{SPACE}]*$"
#: One action of a log: no separator in it (whitespace or a comma).
_ACTION = rf"[^{SPACE},]"
#: A log as one string: actions of at most MAX_TOKEN characters between separators.
LOG_PATTERN = rf"^[{SPACE},]*({_ACTION}{{1,{MAX_TOKEN}}}([{SPACE},]+{_ACTION}{{1,{MAX_TOKEN}}})*)?[{SPACE},]*$"
#: A difficulty filter: a grade, or a range of grades, low first (the catalog's parse_grades).
GRADE_TEXTS = tuple(str(low) if low == high else f"{low}-{high}"
                    for low in range(GRADES[0], GRADES[1] + 1) for high in range(low, GRADES[1] + 1))
GRADES_PATTERN = "^(" + "|".join(GRADE_TEXTS) + ")$"

Code = Annotated[str, StringConstraints(max_length=MAX_TOKEN, pattern=CODE_PATTERN)]
Token = Annotated[str, StringConstraints(max_length=MAX_TOKEN)]
ActionText = Annotated[str, Field(description="An action in notation: D, F>T, F>T/N or U.", max_length=MAX_TOKEN)]
#: One action of a log given as a list: the index of a refused one is its index in the list.
ActionItem = Annotated[str, StringConstraints(max_length=MAX_TOKEN, pattern=rf"^{_ACTION}+$"),
                       Field(description="One action in notation (D, F>T, F>T/N or U), without spaces.")]
CardText = Annotated[str, Field(description="A card: rank then suit, e.g. TH, QS (T is the ten).",
                                max_length=MAX_TOKEN)]
SuitsValue = Literal[1, 2, 4]


def _whole(value: Any) -> Any:
    """A JSON number that is a whole number, ``2.0`` included, as the int it is: JSON
    Schema's ``integer`` takes it (a number's type is its value), so the server does too.
    ``true`` stays a boolean, which no integer field takes."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _integer(value: Any) -> Any:
    """Refuses ``true`` where a suit count is meant: the literal ``1`` alone would take it
    (``True == 1``)."""
    value = _whole(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected 1, 2 or 4 (a JSON integer); got {shown(value)}")
    return value


#: The suit count of a request: 1, 2 or 4.
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


def _one_deal_schema(schema: dict[str, Any]) -> None:
    """The document says what :meth:`DealRequest._one_deal` checks: exactly one of ``code``
    and ``deck``, and no ``suits`` or ``rule`` with a code. A field left out is not given
    (no null: ``code`` and ``deck`` are strings when given)."""
    for name in ("code", "deck"):
        schema["properties"][name].pop("default", None)
    with_code = {"anyOf": [{"required": [name]} for name in ("deck", "suits", "rule")]}
    schema["oneOf"] = [{"required": ["code"], "not": with_code}, {"required": ["deck"], "not": {"required": ["code"]}}]


class DealRequest(Model):
    """A deal: exactly one of its game ``code`` and an explicit ``deck`` (with ``suits`` and ``rule``)."""

    model_config = ConfigDict(json_schema_extra=_one_deal_schema)

    code: Code = Field(None, description="A game code, e.g. SP1-S4C-AAAAAAD.",  # type: ignore[assignment]
                       examples=["SP1-S4C-AAAAAAD"])
    deck: Annotated[str, StringConstraints(max_length=MAX_DECK_TEXT)] = Field(  # type: ignore[assignment]
        None, description="An explicit deal instead of a code: the 104 cards in deck order, separated by spaces.")
    suits: SuitsInput = Field(4, description="Suit count of an explicit deck (a code carries its own).")
    rule: RuleValue = Field("classic", description="Rule of an explicit deck (a code carries its own).")

    @model_validator(mode="after")
    def _one_deal(self) -> DealRequest:
        if ("code" in self.model_fields_set) == ("deck" in self.model_fields_set):
            raise ValueError("give either a game code (\"code\") or an explicit deal (\"deck\"), not both or neither")
        given = sorted(self.model_fields_set & {"suits", "rule"})
        if self.code is not None and given:
            # The code says both; taking one and ignoring the other would hide a mistake.
            names = " and ".join(f'"{name}"' for name in given)
            raise ValueError(f"{names} {'go' if len(given) > 1 else 'goes'} with an explicit \"deck\"; "
                             "a game code carries its own suit count and rule")
        return self


class Budget(Model):
    """A search budget, at most the server's caps (``--max-nodes-cap``, ``--max-seconds-cap``:
    the document's maxima, :func:`document`); the answer says what was used."""

    max_nodes: Annotated[int, Field(ge=1, le=MAX_NODES_LIMIT), BeforeValidator(_whole)] | None = Field(
        None, description="Search nodes at most (default: the server's cap).")
    max_seconds: float | None = Field(None, gt=0, le=MAX_SECONDS_LIMIT, allow_inf_nan=False,
                                      description="Seconds at most (default: the server's cap).")


class VerifyRequest(Budget, DealRequest):
    deal_on_empty: bool = Field(False, description="Allow dealing while a column is empty.")


class GameRequest(DealRequest):
    """A deal and a game log played on it."""

    actions: (Annotated[list[ActionItem], Field(max_length=MAX_ACTIONS)]
              | Annotated[str, StringConstraints(max_length=MAX_LOG_TEXT, pattern=LOG_PATTERN)]) = Field(
        default_factory=list,
        description="The log: a list of actions (one an item), or one string of them separated by spaces or "
                    "commas. The index of a refused action counts the actions from 0: the list's items, or the "
                    "string's actions.")
    deal_on_empty: bool = Field(False, description="Allow dealing while a column is empty.")
    undo_limit: Annotated[int, Field(ge=0, le=MAX_UNDO_LIMIT), BeforeValidator(_whole)] | None = Field(
        DEFAULT_UNDO_LIMIT, description="Actions that can be undone; null keeps the whole history.")


class PositionRequest(GameRequest):
    check: ActionItem | None = Field(None, description="An action to check in the position the log reaches: "
                                     "the answer's refused gives the rule that refuses it (null if it is allowed); "
                                     "the answer's position stays the log's.")


#: A name or challenge a frontend chooses: printable text, no line break or control character.
_PRINTABLE = r"^[^\u0000-\u001f\u007f]*$"


class GameSubmission(GameRequest):
    """A finished game: the deal and its whole log, and what the frontend chooses to tie to it."""

    name: Annotated[str, StringConstraints(max_length=MAX_NAME, pattern=_PRINTABLE)] | None = Field(
        None, description="A name the frontend chooses to show with the result (never required; the server keeps "
                          "no other identity of the player).")
    challenge: Annotated[str, StringConstraints(max_length=MAX_CHALLENGE, pattern=_PRINTABLE)] | None = Field(
        None, description="A text the frontend chooses to tie games together (a challenge between players, a "
                          "day's deal, ...): signed with the game, and a filter of its listing.")


class ReceiptCheck(Model):
    """A receipt to check, and what it must be for."""

    receipt: Annotated[str, StringConstraints(max_length=MAX_RECEIPT)] = Field(
        description="A receipt as POST /v1/games gave it.")
    code: Code | None = Field(None, description="The deal the receipt must be for (a game code); refused "
                                                "(receipt-mismatch) if it is another's.")
    challenge: Annotated[str, StringConstraints(max_length=MAX_CHALLENGE)] | None = Field(
        None, description="The challenge the receipt must be for; refused (receipt-mismatch) if it is another's.")
    redeem: bool = Field(False, description="Redeem the receipt: marked used on the server, so that a second "
                                            "redemption is refused (409 replayed-receipt). Without it the check "
                                            "changes nothing and may be made any number of times.")


#: The fields of an analysis that peeks, and those of a fair hint: a request gives one kind
#: (a null is not given; ``lost_at``, a flag, is not given with ``fair`` at all).
PEEKING_FIELDS = ("max_nodes", "max_seconds", "lost_at")
FAIR_FIELDS = ("layouts", "seed")


def _one_kind_schema(schema: dict[str, Any]) -> None:
    """The document says what :meth:`AnalyzeRequest._one_kind` checks (and what
    :func:`_one_deal_schema` says, as every request with a deal): with ``"fair": true`` no
    ``max_nodes``, ``max_seconds`` (null aside) or ``lost_at``; without it, no ``layouts`` or
    ``seed`` (null aside)."""
    _one_deal_schema(schema)
    null = {"type": "null"}
    schema["allOf"] = [{"anyOf": [
        {"required": ["fair"], "properties": {"fair": {"const": True}, "max_nodes": null, "max_seconds": null},
         "not": {"required": ["lost_at"]}},
        {"properties": {"fair": {"const": False}, "layouts": null, "seed": null}},
    ]}]


class AnalyzeRequest(Budget, GameRequest):
    """A game log to analyse (the analysis that knows the face-down cards), or with ``fair``
    the fair hint of the position it reaches."""

    model_config = ConfigDict(json_schema_extra=_one_kind_schema)

    lost_at: bool = Field(True, description="When the position is unwinnable, look for where the game was lost.")
    fair: bool = Field(False, description="The fair hint instead of the analysis: the best next action judged only "
                                          "on what the player has seen, with its chance to win (the answer is then "
                                          "a FairHintResponse, as `spider-solve hint --fair --json` prints it). "
                                          "It reveals nothing the player has not seen; it takes layouts and seed, "
                                          "not max_nodes, max_seconds or lost_at.")
    layouts: Annotated[int, Field(ge=1, le=MAX_FAIR_LAYOUTS), BeforeValidator(_whole)] | None = Field(
        None, description=f"With fair: layouts of the unseen cards each action is played on (default: {FAIR_LAYOUTS}, "
                          "or the server's --max-layouts-cap if lower; at most that cap).")
    seed: Annotated[int, Field(ge=0, le=MAX_SEED), BeforeValidator(_whole)] | None = Field(
        None, description=f"With fair: the seed of the sampled layouts, 0 to 2**64 - 1 (default: {FAIR_SEED}). "
                          "The same position, layouts, seed and version give the same answer.")

    @model_validator(mode="after")
    def _one_kind(self) -> AnalyzeRequest:
        if self.fair:
            wrong = [name for name in PEEKING_FIELDS
                     if getattr(self, name) is not None and (name != "lost_at" or name in self.model_fields_set)]
        else:
            wrong = [name for name in FAIR_FIELDS if getattr(self, name) is not None]
        if wrong:
            names = " and ".join(f'"{name}"' for name in wrong)
            verb = "are" if len(wrong) > 1 else "is"
            raise ValueError(f"{names} {verb} for the analysis that knows the face-down cards; a fair hint takes "
                             "\"layouts\" and \"seed\"" if self.fair else
                             f"{names} {verb} for a fair hint: add \"fair\": true")
        return self


class ReviewRequest(GameRequest):
    """A game log to review: each decision judged only on what the player had seen."""

    layouts: Annotated[int, Field(ge=1, le=MAX_FAIR_LAYOUTS), BeforeValidator(_whole)] | None = Field(
        None, description=f"Layouts of the unseen cards each decision is judged on (default: {FAIR_LAYOUTS}, or the "
                          "server's --max-layouts-cap if lower; at most that cap).")
    confirm_layouts: Annotated[int, Field(ge=1, le=MAX_FAIR_LAYOUTS), BeforeValidator(_whole)] | None = Field(
        None, description=f"Fresh layouts each of the costliest decisions is judged again on (default: "
                          f"{REVIEW_CONFIRM_LAYOUTS}, or the server's --max-layouts-cap if lower; at most that cap).")
    seed: Annotated[int, Field(ge=0, le=MAX_SEED), BeforeValidator(_whole)] | None = Field(
        None, description=f"The seed of the sampled layouts, 0 to 2**64 - 1 (default: {FAIR_SEED}; the fresh ones: "
                          "seed + 1). The same log, layouts, seed and version give the same review.")


# --------------------------------------------------------------------------- #
# Responses
# --------------------------------------------------------------------------- #


class Searches(BaseModel):
    solvers: int = Field(description="Solver processes.")
    running: int = Field(description="Searches in flight (waiting or running).")
    capacity: int = Field(description="Searches in flight at most; beyond it a search request gets 503.")


class Health(BaseModel):
    status: Literal["ok", "stopping"] = Field(description="ok: serving; stopping: told to stop, finishing the "
                                                          "requests in flight.")
    version: str = Field(description="The spider-solver version of the server.")
    read_only: bool = Field(description="Whether the server was started with --read-only: it never searches or "
                                        "writes.")
    catalog: bool = Field(description="Whether the server has a catalog.")
    searches: Searches = Field(description="The solver processes and the searches in flight.")


class Card(BaseModel):
    card: CardText
    face_up: bool = Field(description="Whether the card lies face up in the initial layout.")


class DealLayout(BaseModel):
    """A deal's initial layout, as ``spider-solve show --json`` prints it."""

    code: str | None = Field(description="Canonical game code; null for an explicit deck.")
    suits: SuitsValue = Field(description="Suit count.")
    rule: RuleValue = Field(description="Move rule; one suit is always classic.")
    deal: int | None = Field(description="The deal number the code encodes; null for an explicit deck.",
                             ge=0, le=MAX_DEAL)
    deck: list[CardText] = Field(description="The 104 cards in deck order.")
    columns: list[list[Card]] = Field(description="Ten columns, each from the deepest card up.")
    stock: list[CardText] = Field(description="The stock, in the order it is dealt.")


#: JSON Schema bounds of a record's field, as pydantic's Field takes them.
_BOUNDS = {"minimum": "ge", "maximum": "le", "exclusiveMinimum": "gt"}
#: Fields every stored record has (a catalog row has a code, a deal number and a time).
_STORED = ("code", "deal", "solved_at")


def record_model(name: str, doc: str, *, stored: bool, when_asked: dict[str, str] | None = None,
                 **extra: Any) -> type[BaseModel]:
    """A response model of the plain-data form of a record (:data:`spider_solver.record.FIELDS`,
    field for field, in order), followed by the ``extra`` fields (name: (type, Field)).
    ``stored``: a catalog row, whose code, deal number and time are never null.
    ``when_asked``: fields given only when the request asks for them (name: how), left out
    otherwise (not required; the route leaves the key out)."""
    fields: dict[str, Any] = {}
    for spec in FIELDS:
        kind: Any = list[ActionText] if spec.name == "solution" else spec.type
        description = spec.description
        if stored and spec.name in _STORED:  # never null: the record's "; null for ..." is not its
            description = description.partition("; null ")[0].rstrip(".") + "."
        elif spec.nullable:
            kind = kind | None
        bounds: dict[str, Any] = {_BOUNDS[key]: value for key, value in spec.bounds.items()}
        if when_asked and spec.name in when_asked:
            fields[spec.name] = (kind, Field(None, description=f"{description} {when_asked[spec.name]}", **bounds))
        else:
            fields[spec.name] = (kind, Field(description=description, **bounds))
    model = create_model(name, __doc__=doc, **fields, **extra)
    for field in when_asked or ():  # left out, never null: the schema says the field's type alone
        model.model_fields[field].json_schema_extra = _no_default
    model.model_rebuild(force=True)
    return model


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


#: One catalog row in export form (``spider_solver/export.schema.json``, ``$defs/deal``).
CatalogDeal = record_model("CatalogDeal", "One catalog row: a deal's record, in export form.", stored=True)
#: How a request asks for a catalog row's solution.
ASK_SOLUTION = "Only with include=solution (a spoiler: the whole winning line); left out otherwise."
#: A catalog row as the catalog's endpoints answer it: without its solution unless asked.
CatalogRow = record_model("CatalogRow", "One catalog row in export form, its solution left out unless asked for "
                          "(include=solution).", stored=True, when_asked={"solution": ASK_SOLUTION})


class DealView(DealLayout):
    catalog: CatalogDeal | None = Field(  # type: ignore[valid-type]
        description="The catalog's record of the deal; null if it has none.")


class CatalogPage(BaseModel):
    deals: list[CatalogRow] = Field(  # type: ignore[valid-type]
        description="The page's rows in export form, by suit count, rule and deal number (solutions only with "
                    "include=solution).")
    next: str | None = Field(description="Pass as ?after= for the next page; null on the last page.")
    total: int = Field(description="Rows that match the filters in the whole catalog, on every page.", ge=0)


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

    code: str | None = Field(description="Canonical game code; null for an explicit deck.")
    won: bool = Field(description="Whether the log wins the game (every run removed).")
    moves: int = Field(description="The move counter: actions in effect (moves and deals; an undo takes one "
                                   "back).")
    score: int = Field(description="The score as the app counts it: 500, less 1 an action, plus 100 a run "
                                   "removed (RULES.md §8 Score and undo).")
    runs_removed: int = Field(description="Runs removed so far.")
    stock_left: int = Field(description="Cards still in the stock.")


class PositionGroup(BaseModel):
    """A group a column's last ``count`` cards form, and where it may go."""

    count: int = Field(description="The group's size: the last count cards of the column.", ge=1)
    targets: list[int] = Field(description="Columns (from 1, ascending) the group may go to now: the columns to "
                                           "highlight while it is held (RULES.md §13.1 Placement help).")
    best: int | None = Field(description="The column a double-click on the group's first card sends it to "
                                         "(RULES.md §13.6 Best column (auto-place)), or null.")


class PositionColumn(BaseModel):
    """A column as a player sees it: face-down cards counted, face-up cards named."""

    down: int = Field(description="Face-down cards, at the bottom of the column.", ge=0)
    up: list[CardText] = Field(description="The face-up cards, from the deepest to the last.")
    movable: int = Field(description="The largest group that can leave the column (RULES.md §5.1 Groups); 0 if empty.",
                         ge=0)
    groups: list[PositionGroup] = Field(description="The groups of 1 to movable cards, smallest first.")
    best: int | None = Field(description="The column a double-click on the column sends its group to, no count "
                                         "given (RULES.md §13.6 Best column (auto-place)), or null.")


class PositionResponse(ReplayResponse):
    """The position a game log reaches, as a frontend draws it and plays on (RULES.md §13
    Frontend helpers): the replay's fields, and the face-down cards counted, not named."""

    suits: SuitsValue = Field(description="Suit count.")
    rule: RuleValue = Field(description="Move rule; one suit is always classic.")
    removed: list[Literal["S", "H", "D", "C"]] = Field(description="The suits of the runs removed, in order.")
    stock_left: int = Field(description="Cards still in the stock.")
    deals_left: int = Field(description="Deals still in the stock (stock_left / columns).")
    columns: list[PositionColumn] = Field(description="The columns, from 1 (the first item) on.")
    legal: list[ActionText] = Field(description="Every legal action in canonical notation, moves by source, "
                                                "target, size, then D (RULES.md §13.2 Legal moves), then U when an "
                                                "undo is possible; empty when none.")
    stuck: bool = Field(description="No move and no deal is legal and the game is not won: only an undo, if "
                                    "any, or a new game can follow.")
    played: list[ActionText] = Field(description="The log as played, each action in canonical notation (undos "
                                                 "as U): what a client keeps and sends back.")
    deal_refused: str | None = Field(description="Why a deal is refused now (RULES.md §13.3 Rule reminders), or "
                                                 "null if allowed.")
    undo_refused: str | None = Field(description="Why an undo is refused now (RULES.md §13.3 Rule reminders), or "
                                                 "null if allowed.")
    refused: str | None = Field(description="Why the request's check action is refused now, in words "
                                            "(RULES.md §13.3 Rule reminders), or null: allowed, or no check given.")


class NewGame(BaseModel):
    """A game to start, without spoilers: the deal's code, what the catalog knows of it and its
    first position as ``POST /v1/position`` gives it (face-down cards counted, never named)."""

    code: str = Field(description="Canonical game code: what a frontend sends back with the game's log.")
    catalog: CatalogRow | None = Field(  # type: ignore[valid-type]
        description="The catalog's record of the deal (status, difficulty, par, moves, ...), its solution only with "
                    "include=solution; null when the catalog does not hold the deal (a typed code's game).")
    position: PositionResponse = Field(description="The first position, as POST /v1/position answers it for an "
                                                   "empty log with the default options (undo_limit 100).")


class DailyDeal(NewGame):
    """The day's deal (docs/service.md, "The daily deal"), without spoilers, as a new game."""

    date: str = Field(description="The date the deal is for, YYYY-MM-DD (the request's, or today's in UTC).")


#: The response type of a declared field's type, where it has one of its own: an action is
#: :data:`ActionText`, a replay :class:`ReplayResponse`, a nested record its model (added below).
_RESPONSE_TYPES: dict[Any, Any] = {Action: ActionText, ReplayResult: ReplayResponse}


def _response_type(kind: Any) -> Any:
    """The response model's type of a field a record declares (:data:`_RESPONSE_TYPES`)."""
    if get_origin(kind) is list:
        return list[_response_type(get_args(kind)[0])]  # type: ignore[misc]
    return _RESPONSE_TYPES.get(kind, kind)


def fields_model(name: str, doc: str | None, fields: Any, **override: Any) -> type[BaseModel]:
    """A response model of a record declared field by field (``FIELDS``: name, type,
    nullable, meaning), in order; ``override`` gives a field another type (name: type)."""
    specs: dict[str, Any] = {}
    for spec in fields:
        kind = override.get(spec.name, _response_type(spec.type))
        if spec.nullable and spec.name not in override:
            kind = kind | None
        specs[spec.name] = (kind, Field(description=spec.description))
    return create_model(name, __doc__=doc, **specs)


#: One search of the lost_at bisection (``spider_solver.analysis.Probe``).
ProbeResponse = _RESPONSE_TYPES[Probe] = fields_model("Probe", None, PROBE_FIELDS)
#: Where a lost game was lost (``spider_solver.analysis.Bracket``).
BracketResponse = _RESPONSE_TYPES[Bracket] = fields_model(
    "BracketResponse", "Where a lost game was lost, as far as the searches established it (positions in actions in "
    "effect).", BRACKET_FIELDS)
#: As ``spider-solve analyze --json`` prints it (``spider_solver.analysis.Analysis``): a refused
#: log is a 422 error, so the status and the reason are never null here.
AnalysisResponse = fields_model("AnalysisResponse", "As ``spider-solve analyze --json`` prints it.",
                                ANALYSIS_FIELDS, status=Status, reason=Reason)
#: An action a fair hint compared (``spider_solver.analysis.FairChoice``).
FairChoiceResponse = _RESPONSE_TYPES[FairChoice] = fields_model(
    "FairChoice", "An action the fair hint compared on the same sampled layouts of the unseen cards.",
    FAIR_CHOICE_FIELDS)
#: As ``spider-solve hint --fair --json`` prints it (``spider_solver.analysis.FairHint``): the answer
#: of ``POST /v1/analyze`` with ``fair``; a refused log is a 422 error.
FairHintResponse = fields_model("FairHintResponse", "As ``spider-solve hint --fair --json`` prints it: the best "
                                "next action judged only on what the player has seen, and its chance to win.",
                                FAIR_HINT_FIELDS)


#: One decision of a reviewed game (``spider_solver.analysis.Decision``).
DecisionResponse = _RESPONSE_TYPES[Decision] = fields_model(
    "Decision", "One decision of the player, judged on sampled layouts of the unseen cards: the chances before it, "
    "after the action played and after the best other action.", DECISION_FIELDS)
#: One of the costliest decisions of a reviewed game (``spider_solver.analysis.Mistake``).
MistakeResponse = _RESPONSE_TYPES[Mistake] = fields_model(
    "Mistake", "One of the decisions that cost the most, judged again on fresh layouts, with the better action.",
    MISTAKE_FIELDS)
#: As ``spider-solve review --json`` prints it (``spider_solver.analysis.Review``): the answer of
#: ``POST /v1/review``; a refused log is a 422 error.
ReviewResponse = fields_model("ReviewResponse", "As ``spider-solve review --json`` prints it: each decision of the "
                              "game judged only on what the player had seen, and the costliest with the better "
                              "action.", REVIEW_FIELDS)


#: A finished game's record, as its receipt signs it (``spider_solver.games.FinishedGame``).
FinishedGameResponse = fields_model("FinishedGame", "A finished game, replayed by the server, as its receipt "
                                    "signs it.", GAME_FIELDS, outcome=Outcome)


class GameAnswer(BaseModel):
    """A finished game as the server recorded it, and its receipt."""

    game: FinishedGameResponse = Field(  # type: ignore[valid-type]
        description="The game as the server replayed and recorded it.")
    receipt: str = Field(description="PAYLOAD.SIGNATURE: the base64url of the game's canonical JSON and of its "
                                     "HMAC-SHA256 under the server's key (docs/service.md, \"Finished games and "
                                     "receipts\"); POST /v1/games/verify, or anyone with the key, checks it.")


class ReceiptAnswer(BaseModel):
    """A receipt that proves its game."""

    valid: Literal[True] = Field(description="Always true: a receipt that does not prove its game is an error "
                                             "answer (invalid-receipt, receipt-mismatch, replayed-receipt).")
    game: FinishedGameResponse = Field(  # type: ignore[valid-type]
        description="The game the receipt proves, as signed.")
    stored: bool = Field(description="Whether this server still holds the game (it keeps the latest games only).")
    redeemed_at: str | None = Field(description="When the receipt was redeemed, if it was, in UTC (ISO 8601): "
                                                "now, with redeem; null if never.")


class DealGames(BaseModel):
    """The best finished games of a deal."""

    games: list[FinishedGameResponse] = Field(  # type: ignore[valid-type]
        description="Best first: won, then the higher score, the fewer moves, the earlier.")
    total: int = Field(description="Finished games of the deal (and challenge) the server holds, on every page.",
                       ge=0)


class ErrorDetail(BaseModel):
    type: str = Field(description="What went wrong, e.g. invalid-request, invalid-code, refused-action, busy.")
    message: str = Field(description="In words, as the command line would say it.")
    index: int | None = Field(None, description="refused-action: the 0-based index of the refused action.")
    action: str | None = Field(None, description="refused-action: the refused action as written.")


class ErrorResponse(BaseModel):
    error: ErrorDetail = Field(description="What went wrong.")



def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers an endpoint documents in the OpenAPI document, all of one model."""
    words = {400: "Malformed request", 403: "The server does not search or write (--read-only)",
             404: "Not found", 408: "The request body did not arrive in time", 409: "A receipt redeemed before",
             413: "Request body too large", 422: "Invalid input, or an action the rules refuse",
             415: "The body is not sent as JSON (Content-Type: application/json)",
             429: "Too many finished games from this address (see Retry-After)",
             503: "Busy (see Retry-After), stopping, a solver failed, or the catalog cannot be read"}
    retry = {"Retry-After": {"description": "Seconds to wait before trying again (busy, solver-failed, "
                                            "too-many-games).",
                             "schema": {"type": "integer"}}}
    return {status: {"model": ErrorResponse, "description": words[status]}
            | ({"headers": retry} if status in (429, 503) else {}) for status in statuses}


#: The OpenAPI mark of an operation that can give away what a player has not seen, hidden cards
#: or a winning line (docs/service.md, "Spoilers"): a list of what it reveals, and when.
REVEALS = "x-reveals"


#: The request models that carry a budget, whose maxima are the server's caps.
BUDGETED = (VerifyRequest, AnalyzeRequest)
#: A query parameter with an empty value counts as not given (middleware.EmptyQueryValues).
EMPTY_QUERY = {"type": "string", "maxLength": 0, "description": "Empty: as if not given."}


def document(openapi: dict[str, Any], *, max_nodes_cap: int, max_seconds_cap: float | None,
             max_layouts_cap: int = DEFAULT_MAX_LAYOUTS_CAP) -> dict[str, Any]:
    """FastAPI's document of the application, made what the server enforces: the budgets'
    maxima are this server's caps (``--max-nodes-cap``, ``--max-seconds-cap``; no seconds
    cap: :data:`MAX_SECONDS_LIMIT`), and so is the maximum of a fair hint's and a review's
    layouts (``--max-layouts-cap``), and a query parameter takes an empty value, which counts as not
    given, and no null, which a query cannot carry."""
    schemas = openapi["components"]["schemas"]
    for model in BUDGETED:
        properties = schemas[model.__name__]["properties"]
        _numeric(properties["max_nodes"])["maximum"] = max_nodes_cap
        _numeric(properties["max_seconds"])["maximum"] = (
            MAX_SECONDS_LIMIT if max_seconds_cap is None else max_seconds_cap)
    for sampled, field in ((AnalyzeRequest, "layouts"), (ReviewRequest, "layouts"), (ReviewRequest, "confirm_layouts")):
        _numeric(schemas[sampled.__name__]["properties"][field])["maximum"] = max_layouts_cap
    for path in openapi["paths"].values():
        for operation in path.values():
            for parameter in operation.get("parameters", ()):
                if parameter.get("in") == "query":
                    parameter["schema"] = _blank_allowed(parameter["schema"])
    return openapi


def _numeric(schema: dict[str, Any]) -> dict[str, Any]:
    """The number's own schema in ``anyOf: [number, null]``."""
    return next(member for member in schema.get("anyOf", [schema]) if member.get("type") != "null")


def _blank_allowed(schema: dict[str, Any]) -> dict[str, Any]:
    members = list(schema.pop("anyOf", [])) or [
        {key: schema.pop(key) for key in list(schema) if key not in ("title", "description", "examples", "default")}]
    members = [member for member in members if member.get("type") != "null"]
    return schema | {"anyOf": [*members, EMPTY_QUERY]}
