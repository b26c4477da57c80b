"""The ``spider-solve`` command line.

Data goes to stdout, messages and progress to stderr. The library raises its own
exceptions (:mod:`spider_solver.errors`); this module alone turns them into
messages and exit statuses, so a user's mistake never shows a traceback.

Exit statuses:

====  ==============================================================
0     success: the log wins, the deal is verified, the batch ran
1     a legal log that does not win; an unwinnable deal; a failed check
2     bad input: a wrong code, card, option, file, or a refused action
3     unknown: the search budget ran out
130   interrupted (Ctrl-C)
====  ==============================================================

Heavy modules (numba, the engine, SQLite catalog) are imported inside the
commands that need them, so ``--help`` and ``show`` start instantly.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

import click

from spider_solver import __version__
from spider_solver.errors import SpiderError

EXIT_OK = 0
EXIT_NOT_WON = 1
EXIT_BAD_INPUT = 2
EXIT_UNKNOWN = 3
EXIT_INTERRUPTED = 130

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class SpiderGroup(click.Group):
    """A group that maps library errors to a message and exit status 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SpiderError as error:
            click.echo(f"error: {error}", err=True)
            ctx.exit(EXIT_BAD_INPUT)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except OSError as error:
            # A file the user named that cannot be read or written.
            click.echo(f"error: {error.strerror or error}: {error.filename!r}" if error.filename else f"error: {error}", err=True)
            ctx.exit(EXIT_BAD_INPUT)


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False))


def deal_options(func: Callable) -> Callable:
    """CODE, or an explicit deal given as --deck with --suits and --rule."""
    func = click.option(
        "--rule", "deck_rule", type=click.Choice(["classic", "relaxed"], case_sensitive=False), default="classic",
        show_default=True, help="Rule of an explicit --deck.",
    )(func)
    func = click.option(
        "--suits", "deck_suits", type=click.Choice(["1", "2", "4"]), default="4", show_default=True,
        help="Suit count of an explicit --deck.",
    )(func)
    func = click.option(
        "--deck", "deck_text", metavar="CARDS",
        help='An explicit deal instead of CODE: the 104 cards in deck order, e.g. "8S QC 4H ...".',
    )(func)
    return func


def load_deal(code: str | None, deck_text: str | None, deck_suits: str, deck_rule: str):
    from spider_solver.rules import Deal

    if deck_text is not None:
        if code is not None:
            raise click.UsageError("give either a game CODE or --deck, not both")
        return Deal.from_text(deck_text, deck_suits, deck_rule)
    if code is None:
        raise click.UsageError("missing the game CODE (or --deck with an explicit deal)")
    return Deal.from_code(code)


# --------------------------------------------------------------------------- #
# The group: with no command it runs the batch.
# --------------------------------------------------------------------------- #


@click.group(cls=SpiderGroup, invoke_without_command=True, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="spider-solve")
@click.option("--suits", type=int, default=None, help="Suit count of the batch: 1, 2 or 4.  [default: 4]")
@click.option("--count", type=int, default=None, help="Deals to solve in the batch.  [default: 100]")
@click.option("--rule", type=click.Choice(["classic", "relaxed"], case_sensitive=False), default=None,
              help="Rule of the batch.  [default: classic]")
@click.option("--start", type=int, default=None, help="First deal number (default: after the catalog's highest).")
@click.option("--workers", type=int, default=None, help="Worker processes.  [default: all cores]")
@click.option("--catalog", type=click.Path(dir_okay=False), default=None,
              help="Catalog file.  [default: spider-catalog.sqlite]")
@click.option("--max-nodes", type=int, default=None, help="Node budget per deal.")
@click.option("--max-seconds", type=float, default=None, help="Time budget per deal; 0 for none.")
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Run on a Dask cluster (extra 'cluster').")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
@click.pass_context
def cli(ctx: click.Context, **options: Any) -> None:
    """Solve Spider Solitaire deals and verify that they can be won.

    With no command, solve a batch of deals on all cores and record every result
    in the catalog, for example:

        spider-solve --suits 4 --count 1000

    Exit status: 0 success, 1 not won / unwinnable / check failed, 2 bad input,
    3 unknown (budget spent), 130 interrupted.
    """
    given = {name: value for name, value in options.items() if value not in (None, False)}
    if ctx.invoked_subcommand is not None:
        if given:
            names = ", ".join("--" + name.replace("_", "-") for name in sorted(given))
            raise click.UsageError(f"batch option{'s' if len(given) > 1 else ''} {names} apply only when no command is given")
        return
    from spider_solver.batch import run_batch_command

    ctx.exit(run_batch_command(**options))


main = cli


# --------------------------------------------------------------------------- #
# check and export: the catalog
# --------------------------------------------------------------------------- #

catalog_option = click.option(
    "--catalog", type=click.Path(dir_okay=False), default="spider-catalog.sqlite", show_default=True,
    help="Catalog file.",
)


@cli.command(context_settings=CONTEXT_SETTINGS)
@catalog_option
def check(catalog: str) -> None:
    """Replay the catalog's verified solutions.

    Every solution stored as verified is replayed on the reference rules engine.
    Prints each solution that does not win (or wins with another move count or
    score than stored), then a count. Exit status: 0 all win, 1 one or more do not.
    """
    from tqdm import tqdm

    from spider_solver.catalog import Catalog, check_entry

    with Catalog(catalog, create=False) as db:
        total, failed = db.count(status="verified"), 0
        with tqdm(total=total, unit="deal", file=sys.stderr, disable=None, leave=False) as bar:
            for entry in db.entries(status="verified"):
                problem = check_entry(entry)
                if problem is not None:
                    failed += 1
                    bar.write(f"{entry.code}: {problem}", file=sys.stdout)
                bar.update(1)
    if failed:
        click.echo(f"{failed} of {plural(total, 'verified solution')} do not win")
        sys.exit(EXIT_NOT_WON)
    click.echo(f"all {plural(total, 'verified solution')} win")
    sys.exit(EXIT_OK)


@cli.command(context_settings=CONTEXT_SETTINGS)
@catalog_option
@click.option("--suits", type=click.Choice(["1", "2", "4"]), default=None, help="Only this suit count.")
@click.option("--rule", type=click.Choice(["classic", "relaxed"], case_sensitive=False), default=None,
              help="Only this rule.")
@click.option("--status", type=click.Choice(["verified", "unwinnable", "unknown"], case_sensitive=False),
              default=None, help="Only this status (frontends usually want verified).")
@click.option("--format", "fmt", type=click.Choice(["json", "jsonl", "csv"], case_sensitive=False), default="json",
              show_default=True, help="Output format.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-", show_default=True,
              help="Output file ('-' for standard output); written whole, then renamed into place.")
def export(catalog: str, suits: str | None, rule: str | None, status: str | None, fmt: str, output: str) -> None:
    """Export the catalog for frontends.

    \b
    json   a list of {"code", "suits", "rule", "deal", "status", "moves", "score",
           "solution", "nodes", "seconds", "max_nodes", "max_seconds", "reason",
           "solver_version", "solved_at"}; solution is a list of actions
    jsonl  one such object per line
    csv    the same columns; solution is one space-separated string
    The JSON Schema is data/export.schema.json.
    """
    from spider_solver.catalog import Catalog
    from spider_solver.export import atomic_file, write_export
    from spider_solver.rules import Variant

    if suits is not None and rule is not None:
        rule = Variant(suits=int(suits), rule=rule.lower()).rule  # one suit is always classic
    with Catalog(catalog, create=False) as db:
        entries = db.entries(suits=None if suits is None else int(suits), rule=rule and rule.lower(),
                             status=status and status.lower())
        if output == "-":
            try:
                count = write_export(entries, sys.stdout, fmt.lower())
                sys.stdout.flush()
            except BrokenPipeError:  # the reader stopped early (| head): no message
                import os

                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                sys.exit(EXIT_NOT_WON)
        else:
            with atomic_file(output) as stream:
                count = write_export(entries, stream, fmt.lower())
    click.echo(f"exported {plural(count, 'deal')}" + ("" if output == "-" else f" to {output}"), err=True)


# --------------------------------------------------------------------------- #
# show
# --------------------------------------------------------------------------- #


def deal_json(deal) -> dict:
    """The JSON form of a deal's initial layout; face-down cards carry ``"face_up": false``."""
    columns = deal.columns()
    return {
        "code": str(deal.code) if deal.code else None,
        "suits": deal.variant.suits,
        "rule": deal.variant.rule,
        "deal": deal.code.number if deal.code else None,
        "deck": [str(card) for card in deal.cards],
        "columns": [
            [{"card": str(card), "face_up": i == len(column) - 1} for i, card in enumerate(column)]
            for column in columns
        ],
        "stock": [str(card) for card in deal.stock()],
    }


@cli.command(context_settings=CONTEXT_SETTINGS)
@click.argument("code")
@click.option("--deck", "as_deck", is_flag=True, help="Print the 104 cards in deck order on one line.")
@click.option("--describe", "as_words", is_flag=True, help="Describe the layout in words, as the rule pages do.")
@click.option("--json", "as_json", is_flag=True, help="Print the deal as JSON.")
def show(code: str, as_deck: bool, as_words: bool, as_json: bool) -> None:
    """Draw the initial layout of the deal CODE (e.g. SP1-S4C-AAAAAAD).

    \b
    --json prints {"code", "suits", "rule", "deal", "deck", "columns", "stock"};
    each column is a list of {"card", "face_up"} from the deepest card up.
    """
    from spider_solver.rules import Board, Deal

    deal = Deal.from_code(code)
    if as_json:
        echo_json(deal_json(deal))
    elif as_deck:
        click.echo(deal.text())
    elif as_words:
        click.echo(Board(deal).describe())
    else:
        click.echo(f"{deal.code}  ({deal.variant})")
        click.echo(Board(deal).grid())


# --------------------------------------------------------------------------- #
# replay
# --------------------------------------------------------------------------- #


@cli.command(context_settings=CONTEXT_SETTINGS)
@click.argument("code", required=False)
@click.argument("actions", nargs=-1)
@deal_options
@click.option("--file", "log_file", type=click.File("r", encoding="utf-8"),
              help="Read the actions from a file ('-' for standard input), after those on the line.")
@click.option("--deal-on-empty", is_flag=True, help="Allow dealing while a column is empty.")
@click.option("--undo-limit", type=click.IntRange(min=0), default=100, show_default=True,
              help="Actions that can be undone; 0 for none.")
@click.option("--unlimited-undo", is_flag=True, help="Keep the whole history for undo.")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"code", "won", "moves", "score", "runs_removed", "stock_left", "error"}.')
def replay(code, actions, deck_text, deck_suits, deck_rule, log_file, deal_on_empty, undo_limit, unlimited_undo,
           as_json) -> None:
    """Replay a game log on the deal CODE and score it as the app does.

    ACTIONS are D (deal), F>T (move onto column T), F>T/N (move N cards) and U
    (undo), separated by spaces or commas. Exit status: 0 the log wins, 1 it is
    legal but does not win, 2 an action is refused or the input is bad.
    """
    from spider_solver.rules import replay as replay_log

    if deck_text is not None and code is not None and not code.strip().upper().startswith("SP"):
        # With --deck there is no CODE: click put the first action there.
        code, actions = None, (code, *actions)
    deal = load_deal(code, deck_text, deck_suits, deck_rule)
    tokens = list(actions)
    if log_file is not None:
        try:
            tokens.append(log_file.read())
        except UnicodeDecodeError as error:
            raise click.BadParameter(
                f"{log_file.name!r} is not UTF-8 text (byte {error.start} cannot be read)", param_hint="'--file'"
            ) from None
    result = replay_log(deal, tokens, deal_on_empty=deal_on_empty, undo_limit=None if unlimited_undo else undo_limit)
    if as_json:
        echo_json({"code": str(deal.code) if deal.code else None, **result.to_dict()})
    else:
        click.echo(
            f"{'won' if result.won else 'not won'}: {plural(result.moves, 'move')}, score {result.score}, "
            f"{plural(result.runs_removed, 'run')} removed, {plural(result.stock_left, 'card')} in stock"
        )
    if result.error is not None:
        error = result.error
        click.echo(f"error: action {error.index + 1} ({error.action!r}) refused: {error.message}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    sys.exit(EXIT_OK if result.won else EXIT_NOT_WON)


# --------------------------------------------------------------------------- #
# verify
# --------------------------------------------------------------------------- #

VERIFY_EXIT = {"verified": EXIT_OK, "unwinnable": EXIT_NOT_WON, "unknown": EXIT_UNKNOWN}


@cli.command(context_settings=CONTEXT_SETTINGS)
@click.argument("code", required=False)
@deal_options
@click.option("--max-nodes", type=click.IntRange(min=1), default=None,
              help="Node budget (deterministic).  [default: 25,000,000]")
@click.option("--max-seconds", type=click.FloatRange(min=0), default=None,
              help="Time budget, a safety net after the nodes; 0 for none.  [default: 30]")
@click.option("--deal-on-empty", is_flag=True, help="Allow dealing while a column is empty.")
@click.option("--progress/--no-progress", default=None, help="Show a progress bar.  [default: when stderr is a terminal]")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"code", "status", "solution", "moves", "score", "nodes", "seconds"}.')
def verify(code, deck_text, deck_suits, deck_rule, max_nodes, max_seconds, deal_on_empty, progress, as_json) -> None:
    """Find out whether a deal can be won, and print a winning line.

    The deal is a game CODE, or an explicit deal: --deck "104 cards" with --suits
    and --rule. The search knows the face-down cards and the stock. A line it
    finds is replayed by the rules checker before the deal is called verified.

    \b
    Exit status: 0 verified, 1 unwinnable (the whole game was searched),
    3 unknown (the budget ran out), 2 bad input, 130 interrupted.
    """
    from spider_solver.solver import DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS, solve

    deal = load_deal(code, deck_text, deck_suits, deck_rule)
    if max_seconds is None:
        max_seconds = DEFAULT_MAX_SECONDS
    from spider_solver.engine import is_compiled

    if not is_compiled():
        click.echo("compiling the search engine once for this install (a minute or two)...", err=True)
    result = solve(
        deal,
        max_nodes=max_nodes or DEFAULT_MAX_NODES,
        max_seconds=max_seconds or None,
        deal_on_empty=deal_on_empty,
        progress=sys.stderr.isatty() if progress is None else progress,
    )
    if result.reason == "interrupted":
        click.echo("interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    if as_json:
        echo_json({
            "code": result.code,
            "status": result.status,
            "solution": list(result.solution),
            "moves": result.moves,
            "score": result.score,
            "nodes": result.nodes,
            "seconds": result.seconds,
        })
    else:
        figures = f"{result.nodes:,} nodes, {result.seconds:.2f} s"
        if result.status == "verified":
            click.echo(f"{deal.name}: verified, won in {plural(result.moves, 'move')}, score {result.score} ({figures})")
            click.echo(" ".join(result.solution))
        elif result.status == "unwinnable":
            click.echo(f"{deal.name}: unwinnable, the whole game was searched ({figures})")
        else:
            why = {"nodes": "the node budget ran out", "seconds": "the time budget ran out"}.get(
                result.reason, "no winning line was found")
            click.echo(f"{deal.name}: unknown, {why} ({figures})")
    sys.exit(VERIFY_EXIT[result.status])
