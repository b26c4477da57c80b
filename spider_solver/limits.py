"""Every limit and default a user meets, each with its contract, and the checks of them.

The command line, the Python API and the service all take their limits from here and
check them with the functions below, so that one number means the same everywhere.
How a default was chosen is told in ``benchmarks/HISTORY.md``; this module states only
what each one promises. Limits of the rules themselves (the largest deal number, the
app's undo limit) belong to the rules contract and live in :mod:`spider_solver.rules`.
"""

from __future__ import annotations

from spider_solver.errors import InvalidBudgetError, InvalidOptionError, plural, quote, real_number, whole_number

# --------------------------------------------------------------------------- #
# Budgets: nodes decide (deterministic); seconds, a safety net, only where a person waits.
# --------------------------------------------------------------------------- #

#: Nodes of a solve (``verify``, the batch): room for the whole widening schedule
#: (benchmarks/HISTORY.md, "Solve's default budget").
DEFAULT_MAX_NODES = 150_000_000
#: Seconds of a solve (``verify``, the batch, and so ``grade``'s deals): None, no time limit,
#: so that the nodes alone decide every outcome, on a machine however slow or busy
#: (benchmarks/results/machine-speed-s4.json); ``--max-seconds`` sets one.
DEFAULT_MAX_SECONDS: float | None = None
#: Nodes of what a person waits for (``analyze``, ``hint``, the service's default cap)
#: (benchmarks/HISTORY.md, "The interactive budget").
INTERACTIVE_MAX_NODES = 60_000_000
#: Seconds of what a person waits for: here the seconds, not the nodes, may end a search,
#: so there an answer can depend on the machine's speed and load.
INTERACTIVE_MAX_SECONDS = 30.0
#: ``improve``'s node budget by suit count: about the same seconds a deal at each
#: (benchmarks/HISTORY.md, "improve's budgets").
IMPROVE_MAX_NODES: dict[int, int] = {1: 60_000_000, 2: 42_000_000, 4: 35_000_000}
#: ``improve``'s nodes a CPU second on one core by suit count, for the estimate it prints before
#: it starts: its default budget over the median seconds a deal on the project's 2-core
#: machine, quiet, one single-threaded worker a core, so CPU time (benchmarks/results/improve-s*.json).
IMPROVE_NODE_RATE: dict[int, float] = {1: 5.8e6, 2: 4.3e6, 4: 3.5e6}
#: CPU seconds a deal of the batch at its default budget on one core, by suit count: the
#: search, the replay of its line and the grading of a verified deal, as a whole run of
#: ``spider-solve --suits K`` measures them (its CPU time and its workers' over its deals,
#: benchmarks/results/batch-s*.json), for the estimate the batch prints before it starts.
BATCH_CPU_SECONDS: dict[int, float] = {1: 0.52, 2: 0.58, 4: 0.23}
#: CPU seconds the grading of a verified deal takes on one core, by suit count: a
#: ``grade --regrade`` of the same catalogs over their deals (benchmarks/results/batch-s*.json),
#: for the estimates of ``grade`` and of the batch.
GRADE_CPU_SECONDS: dict[int, float] = {1: 0.43, 2: 0.30, 4: 0.065}
#: ``improve``'s seconds a deal: None, as in a solve, so that the nodes alone decide its lines.
IMPROVE_MAX_SECONDS: float | None = None
#: The largest node budget accepted (years of search; within 64-bit counters and SQLite).
MAX_NODES_LIMIT = 10**15
#: The largest seconds budget accepted (about 115 days).
MAX_SECONDS_LIMIT = 1e7

#: The longest wait the service's ``Retry-After`` advises (a full queue, its expected wait
#: past this, is told to come back then all the same).
MAX_RETRY_AFTER = 60

# --------------------------------------------------------------------------- #
# Fair hints: layouts decide (deterministic); there is no time budget.
# --------------------------------------------------------------------------- #

#: Sampled layouts of the unseen cards a fair hint plays each candidate action on, by
#: default: its chance is a share of these.
FAIR_LAYOUTS = 16
#: The most layouts a caller may ask for (``--layouts``, ``layouts``): a hint's time grows
#: in proportion to them.
MAX_FAIR_LAYOUTS = 1024
#: Legal actions a fair hint compares with the planner's decision, by default (the deal
#: among them whenever it is legal).
FAIR_ALTERNATIVES = 3
#: The most alternatives a caller may ask for.
MAX_FAIR_ALTERNATIVES = 16
#: The most layouts the service lets a fair hint ask for, unless told otherwise (``serve
#: --max-layouts-cap``): a fair hint takes a solver process for as long as its layouts take,
#: with no seconds to cut it short, so the server bounds them.
DEFAULT_MAX_LAYOUTS_CAP = 64
#: The seed of the sampled layouts when none is given; a seed is 0 to :data:`MAX_SEED`.
FAIR_SEED = 0
#: The largest seed (a 64-bit generator's).
MAX_SEED = 2**64 - 1
#: Actions a game played by following fair hints (``play``) makes at most before it is
#: called off as not won: a won game takes a few hundred.
MAX_FAIR_GAME_ACTIONS = 1_000

# A review of a game (``review``) judges each decision as a fair hint judges its position
# (FAIR_LAYOUTS layouts, REVIEW_ALTERNATIVES alternatives by default), then judges its costliest
# decisions again on fresh layouts, and names those whose cost stands: how these were chosen,
# and what they cost in seconds and in accuracy, is in benchmarks/bench_review.py.

#: Legal actions a review compares at each decision with the planner's and the action played,
#: by default: one fewer than a fair hint (the same decisions named, a fifth less time).
REVIEW_ALTERNATIVES = 2
#: Fresh layouts each of the costliest decisions is judged again on, by default.
REVIEW_CONFIRM_LAYOUTS = 64
#: Decisions judged again in a round (the costliest first, by their first judgement).
REVIEW_CONFIRMED = 5
#: Rounds of decisions judged again at most: the next round only if no decision judged
#: again before stood.
REVIEW_CONFIRM_ROUNDS = 2
#: The costliest decisions a review names at most.
REVIEW_COSTLIEST = 3
#: Worker processes a review starts by default: the cores, at most this many (each holds
#: the fair hint's kernels, about 150 MB, and 64 MB more while a 4-suit plan is made; a
#: game's few dozen judged decisions keep more than a few busy only at the start).
REVIEW_WORKERS = 4
#: The most actions in effect the service reviews in one request (``POST /v1/review``): a
#: review runs in one solver process for as long as its decisions take, with no seconds to
#: cut it short; a game that ends stuck takes far fewer (the casual player's at most 1,000).
MAX_REVIEW_ACTIONS = 1_000

#: The catalog file a command uses when none is named (in the working directory).
DEFAULT_CATALOG = "spider-catalog.sqlite"

# --------------------------------------------------------------------------- #
# Sizes of what is read and given.
# --------------------------------------------------------------------------- #

#: Rows of one catalog page (the service's ``GET /v1/catalog/deals``, :meth:`Catalog.page`).
DEFAULT_PAGE = 100
#: The most rows of one catalog page.
MAX_PAGE = 1_000
#: The largest undo limit (the command line's ``--undo-limit``, the service's ``undo_limit``).
MAX_UNDO_LIMIT = 1_000_000
#: The most deals one batch plans (``--count``).
MAX_COUNT = 1_000_000
#: The most local worker processes (``--workers``).
MAX_WORKERS = 1024
#: The longest game log file the command line reads (``--file``), in characters.
MAX_LOG_FILE_CHARS = 16_000_000
#: The largest request body the service accepts; a larger one gets 413.
MAX_BODY_BYTES = 256 * 1024
#: The most actions in a log the service takes as a list.
MAX_ACTIONS = 10_000
#: The longest log the service takes as one string, in characters.
MAX_LOG_TEXT = 100_000
#: The longest explicit deck the service takes, in characters.
MAX_DECK_TEXT = 2_000
#: The longest action token, game code, cursor or card a service request may carry.
MAX_TOKEN = 40

# --------------------------------------------------------------------------- #
# Lines the service remembers (hints that continue: docs/service.md).
# --------------------------------------------------------------------------- #

#: Deals whose winning lines the searching process remembers (the least recently used go).
REMEMBERED_DEALS = 1_024
#: Winning lines it remembers a deal (the oldest go): the lines a player's hints followed.
REMEMBERED_LINES = 4

# --------------------------------------------------------------------------- #
# Finished games (the service's POST /v1/games).
# --------------------------------------------------------------------------- #

#: The most finished games a catalog keeps; past it the oldest are dropped (their receipts
#: still verify, but can no longer be redeemed).
MAX_STORED_GAMES = 100_000
#: Finished games one client address may submit a minute (``serve --games-per-minute``), a
#: burst of as many at once; past it ``429 too-many-games`` with Retry-After.
GAMES_PER_MINUTE = 10
#: The most games of one listing (``GET /v1/deals/{code}/games``), and its default.
MAX_GAMES_PAGE = 100
DEFAULT_GAMES_PAGE = 10
#: The longest receipt the service reads, in characters (a record's is about 900).
MAX_RECEIPT = 4_000


def check_budget(max_nodes: object, max_seconds: object) -> tuple[int, float | None]:
    """Refuse a budget out of range (InvalidBudgetError): nodes from 1 to
    ``MAX_NODES_LIMIT``, seconds finite and positive up to ``MAX_SECONDS_LIMIT`` or None.
    Returns them as Python numbers (a numpy integer or float becomes an int or a float),
    which the engine needs."""
    nodes = whole_number(max_nodes)
    if nodes is None or not 1 <= nodes <= MAX_NODES_LIMIT:
        raise InvalidBudgetError(
            f"invalid max_nodes {quote(max_nodes)}: expected a whole number from 1 to {MAX_NODES_LIMIT}"
        )
    seconds = None if max_seconds is None else real_number(max_seconds)
    if max_seconds is not None and (seconds is None or not 0 < seconds <= MAX_SECONDS_LIMIT):
        raise InvalidBudgetError(
            f"invalid max_seconds {quote(max_seconds)}: expected a number of seconds above 0 and at most "
            f"{MAX_SECONDS_LIMIT:g}, or None for no limit"
        )
    if max_seconds is None or type(max_seconds) in (int, float):
        return nodes, max_seconds  # type: ignore[return-value]
    return nodes, seconds


def check_page(limit: object) -> int:
    """A page size from 1 to ``MAX_PAGE`` as an int; InvalidOptionError otherwise."""
    size = whole_number(limit)
    if size is None or not 1 <= size <= MAX_PAGE:
        raise InvalidOptionError(f"invalid limit {quote(limit)}: expected a whole number from 1 to {MAX_PAGE:,}")
    return size


def check_fair(layouts: object, alternatives: object, seed: object) -> tuple[int, int, int]:
    """Refuse a fair hint's options out of range (InvalidOptionError): ``layouts`` from 1 to
    ``MAX_FAIR_LAYOUTS``, ``alternatives`` from 0 to ``MAX_FAIR_ALTERNATIVES``, ``seed`` from
    0 to ``MAX_SEED``, each a whole number (not a bool, not a float). Returns them as ints."""
    checked = []
    for name, value, high, low in (("layouts", layouts, MAX_FAIR_LAYOUTS, 1),
                                   ("alternatives", alternatives, MAX_FAIR_ALTERNATIVES, 0),
                                   ("seed", seed, MAX_SEED, 0)):
        number = whole_number(value)
        if number is None or not low <= number <= high:
            raise InvalidOptionError(f"invalid {name} {quote(value)}: expected a whole number from {low} to {high:,}")
        checked.append(number)
    return checked[0], checked[1], checked[2]


def check_review(confirm_layouts: object) -> int:
    """Refuse a review's ``confirm_layouts`` out of range (InvalidOptionError): a whole number
    from 1 to ``MAX_FAIR_LAYOUTS``, as a fair hint's ``layouts``. Returns it as an int."""
    number = whole_number(confirm_layouts)
    if number is None or not 1 <= number <= MAX_FAIR_LAYOUTS:
        raise InvalidOptionError(f"invalid confirm_layouts {quote(confirm_layouts)}: expected a whole number from 1 "
                                 f"to {MAX_FAIR_LAYOUTS:,}")
    return number


def improve_nodes(suits: int | str) -> int:
    """``improve``'s default node budget for a deal of ``suits`` suits (IMPROVE_MAX_NODES);
    :class:`~spider_solver.errors.InvalidVariantError` for a suit count that is not 1, 2 or 4."""
    from spider_solver.rules import parse_suits

    return IMPROVE_MAX_NODES[parse_suits(suits)]


def describe_improve_nodes() -> str:
    """The default budgets in words, for help texts: "35,000,000 at 4 suits, ..."."""
    return ", ".join(f"{IMPROVE_MAX_NODES[suits]:,} at {plural(suits, 'suit')}"
                     for suits in sorted(IMPROVE_MAX_NODES, reverse=True))


__all__ = [
    "BATCH_CPU_SECONDS", "DEFAULT_MAX_LAYOUTS_CAP", "DEFAULT_MAX_NODES", "DEFAULT_MAX_SECONDS", "DEFAULT_PAGE",
    "FAIR_ALTERNATIVES", "FAIR_LAYOUTS", "FAIR_SEED", "GRADE_CPU_SECONDS",
    "IMPROVE_MAX_NODES", "IMPROVE_MAX_SECONDS", "IMPROVE_NODE_RATE", "INTERACTIVE_MAX_NODES",
    "INTERACTIVE_MAX_SECONDS", "MAX_ACTIONS", "MAX_BODY_BYTES", "MAX_COUNT", "MAX_DECK_TEXT", "MAX_FAIR_ALTERNATIVES",
    "MAX_FAIR_GAME_ACTIONS", "MAX_FAIR_LAYOUTS", "MAX_LOG_FILE_CHARS",
    "MAX_LOG_TEXT", "MAX_NODES_LIMIT", "MAX_PAGE", "MAX_RETRY_AFTER", "MAX_SECONDS_LIMIT", "MAX_SEED", "MAX_TOKEN",
    "MAX_UNDO_LIMIT", "MAX_WORKERS", "check_budget", "check_fair", "check_page", "describe_improve_nodes",
    "improve_nodes",
    "MAX_REVIEW_ACTIONS", "REVIEW_ALTERNATIVES", "REVIEW_CONFIRMED", "REVIEW_CONFIRM_LAYOUTS", "REVIEW_CONFIRM_ROUNDS",
    "REVIEW_COSTLIEST", "REVIEW_WORKERS", "check_review",
]
