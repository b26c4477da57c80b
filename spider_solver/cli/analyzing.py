"""``hint`` and ``analyze``: a game in progress, still winnable? the next action (``hint --fair``: judged
only on what the player has seen), where it was lost."""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from spider_solver.analysis.answer import ANALYSIS_FIELDS, field_names
from spider_solver.cli.exits import of_fair_hint, of_outcome, of_replay
from spider_solver.cli.group import cli, echo_json, end_at_once, messages, plural
from spider_solver.cli.params import (
    CONTEXT_SETTINGS,
    FAIR_OPTION_NAMES,
    FilePath,
    fair_options,
    game_log_options,
    interactive_budget_options,
)
from spider_solver.cli.play import load_deal, read_log, undo_limit_of
from spider_solver.errors import plural_noun
from spider_solver.limits import FAIR_LAYOUTS, FAIR_SEED
from spider_solver.outcomes import UNKNOWN_BECAUSE, ExitStatus, Status
from spider_solver.rules import Deal

if TYPE_CHECKING:
    from spider_solver.analysis import Analysis


@dataclass(frozen=True)
class GameArgs:
    """What ``hint`` and ``analyze`` are given (:func:`game_options`): the deal, the log and
    its rules, the budget, the catalog and the output's form."""

    code: str | None
    actions: tuple[str, ...]
    deck_text: str | None
    deck_suits: str
    deck_rule: str
    log_file: Any
    deal_on_empty: bool
    undo_limit: int
    unlimited_undo: bool
    max_nodes: int
    max_seconds: float | None
    catalog: str | None
    as_json: bool
    quiet: bool
    #: ``hint --fair``: the fair hint, and its sampling.
    fair: bool = False
    layouts: int = FAIR_LAYOUTS
    seed: int = FAIR_SEED


def game_options(func: Callable[[GameArgs], ExitStatus]) -> Callable[..., ExitStatus]:
    """The deal, the log and its options, the budget and the catalog: what both commands
    take, handed to the command as one :class:`GameArgs`."""

    @functools.wraps(func)
    def command(**given: Any) -> ExitStatus:
        return func(GameArgs(**given))

    decorators: list[Callable[[Callable], Callable]] = [
        game_log_options,
        interactive_budget_options,
        click.option("--catalog", type=FilePath(), default=None,
                     help="Catalog whose verified line of the deal gives hints without a search.  "
                          "[default: spider-catalog.sqlite, if there is one]"),
        click.option("--json", "as_json", is_flag=True, help="Print the whole analysis as JSON."),
        click.option("-q", "--quiet", is_flag=True, help="No messages but errors and the answer."),
    ]
    for decorator in reversed(decorators):
        command = decorator(command)
    return command


def stored_line(deal: Deal, catalog: str | None) -> tuple[str, ...] | None:
    """The catalog's verified solution of the deal, if there is one.

    ``--catalog PATH`` must name a catalog; without it, ``spider-catalog.sqlite`` in the
    working directory is read if it exists (a hint never creates a catalog), and if
    it exists it must be a catalog: a damaged file or a directory of that name is
    reported, not passed over.
    """
    from spider_solver.catalog import Catalog
    from spider_solver.limits import DEFAULT_CATALOG

    if deal.code is None:
        return None
    if catalog is None:
        if not Path(DEFAULT_CATALOG).exists():
            return None
        catalog = DEFAULT_CATALOG
    with Catalog(catalog, create=False) as db:
        entry = db.get(str(deal.code))
    if entry is None or entry.status is not Status.VERIFIED:
        return None
    return entry.solution


def run_analysis(args: GameArgs, *, find_lost_at: bool, words: Callable[[Analysis], None]) -> ExitStatus:
    """Load the deal, the log and the stored line; analyse; print the analysis as JSON
    (``args.as_json``) or in ``words``; return the exit status: that of the position's
    outcome, 2 on a refused action (with ``args.as_json``, after printing the analysis,
    whose replay names the action), 130 interrupted."""
    from spider_solver.analysis import Analysis, AnalysisOptions, analyze
    from spider_solver.verify import load_engine

    say = messages(args.quiet)  # always a function: a compile then runs apart, and Ctrl-C stops it at once
    code, texts = read_log(args.code, args.actions, args.deck_text, args.log_file)
    deal = load_deal(code, args.deck_text, args.deck_suits, args.deck_rule)
    end_at_once()  # its catalog is closed once read (stored_line); no workers
    # The log is replayed once, before the catalog is read (only if the log is accepted
    # and does not win) and before the engine is compiled or loaded (only for a search).
    options = AnalysisOptions(
        deal_on_empty=args.deal_on_empty, undo_limit=undo_limit_of(args.undo_limit, args.unlimited_undo),
        max_nodes=args.max_nodes, max_seconds=args.max_seconds, known_line=lambda: stored_line(deal, args.catalog),
        find_lost_at=find_lost_at, before_search=lambda: load_engine(say))
    analysis = analyze(deal, texts, options)
    refused = analysis.replay.error
    if refused is not None:
        try:
            if args.as_json:
                echo_json(Analysis(analysis.code, analysis.replay, None, None,
                                   max_nodes=options.max_nodes, max_seconds=options.max_seconds).to_dict())
        finally:  # said even when the output's reader has gone (| head)
            click.echo(f"error: {refused}", err=True)
        return of_replay(won=False, refused=True)
    # Interrupted in the search of the position, or later in the search for lost_at.
    if analysis.interrupted:
        click.echo("interrupted", err=True)
        return ExitStatus.INTERRUPTED
    if args.as_json:
        echo_json(analysis.to_dict())
    else:
        words(analysis)
    return of_outcome(analysis.status or Status.UNKNOWN)


def position_words(analysis) -> str:
    """The status of the position in a few words."""
    searched = f"{analysis.nodes:,} {plural_noun(analysis.nodes, 'node')}"
    if analysis.status is Status.UNWINNABLE and analysis.effective and analysis.probes:
        searched += " with the search for where it was lost"  # its probes are counted too
    figures = f"{searched}, {analysis.seconds:.2f} s"
    if analysis.status is Status.VERIFIED:
        if analysis.source == "won":
            return "won"
        origin = "the stored line" if analysis.source == "known-line" else "a search"
        return f"still winnable, in {plural(len(analysis.line), 'more action')} ({origin}; {figures})"
    if analysis.status is Status.UNWINNABLE:
        return f"no longer winnable, every action from here was searched ({figures})"
    return f"unknown, {UNKNOWN_BECAUSE[analysis.reason]} ({figures})"


def bracket_words(bracket) -> str:
    """The bracket of a lost game in words: where it was still winnable (and how), and by when it was lost."""
    lost = ("by the initial layout" if bracket.unwinnable_after is None
            else f"by action {bracket.unwinnable_after + 1}")
    if bracket.winnable is None:
        return f"not established within the budget; lost for certain {lost}"
    where = ("from the initial layout" if bracket.winnable_after is None
             else f"after action {bracket.winnable_after + 1}")
    return (f"between the two, within the budget: still winnable {where} (this line wins from there: "
            f"{' '.join(bracket.line)}); lost for certain {lost}")


def fair_hint_options(func: Callable) -> Callable:
    """--fair and the options of its sampling (:func:`~spider_solver.cli.params.fair_options`)."""
    func = fair_options(func)
    return click.option("--fair", is_flag=True,
                        help="The fair hint: the best action judged only on the cards the player has seen, with "
                             "its chance to win.")(func)


@cli.command(context_settings=CONTEXT_SETTINGS)
@game_options
@fair_hint_options
def hint(args: GameArgs) -> ExitStatus:
    """Print the next action of a winning line from the position a game log reaches;
    with --fair, the best action judged only on what the player has seen, and its chance.

    The deal is a game CODE (or --deck with --suits and --rule); ACTIONS are the
    log (D, F>T, F>T/N, U), then those of --file. The search knows the face-down
    cards and the stock; its line is replayed after the log by the rules engine
    before the hint is given. When the catalog holds a verified line of the deal
    and the position lies on it, the hint comes from that line without a search.
    --json prints the whole analysis (as analyze --json; lost_at is not looked for).

    With --fair the hint never reads a face-down card or the stock: the actions are
    compared on --layouts sampled layouts of the unseen cards (from --seed and what
    the player has seen); the hint is printed, then a sentence with its chance to win
    and the other actions'; --json prints the fair hint.

    \b
    Exit status: 0 a hint is given (or the log already wins), 1 the game can no
    longer be won (with --fair: no action helps, by what is seen), 3 unknown (the budget ran
    out), 2 bad input or a refused action in the log, 130 interrupted.
    """
    context = click.get_current_context()
    if args.fair:
        peeking = [option for name, option in (("max_nodes", "--max-nodes"), ("max_seconds", "--max-seconds"),
                                              ("catalog", "--catalog"))
                   if context.get_parameter_source(name) == ParameterSource.COMMANDLINE]
        if peeking:
            raise click.UsageError(f"{' and '.join(peeking)} {'are' if len(peeking) > 1 else 'is'} for the hint of a "
                                   "winning line; a fair hint's effort is --layouts")
        return run_fair_hint(args)
    sampling = [f"--{name}" for name in FAIR_OPTION_NAMES
                if context.get_parameter_source(name) == ParameterSource.COMMANDLINE]
    if sampling:
        raise click.UsageError(f"{' and '.join(sampling)} {'are' if len(sampling) > 1 else 'is'} for a fair hint: "
                               "add --fair")
    return run_analysis(args, find_lost_at=False, words=hint_words)


def run_fair_hint(args: GameArgs) -> ExitStatus:
    """``hint --fair``: load the deal and the log, compute the fair hint (the kernels loaded,
    or compiled apart, only when it is needed), print it; the exit status."""
    from spider_solver.analysis.fair import FairOptions, fair_hint, load_fair_hint

    say = messages(args.quiet)
    code, texts = read_log(args.code, args.actions, args.deck_text, args.log_file)
    deal = load_deal(code, args.deck_text, args.deck_suits, args.deck_rule)
    end_at_once()  # no catalog, no workers
    options = FairOptions(deal_on_empty=args.deal_on_empty,
                          undo_limit=undo_limit_of(args.undo_limit, args.unlimited_undo), layouts=args.layouts,
                          seed=args.seed, before_search=lambda: load_fair_hint(say))
    answer = fair_hint(deal, texts, options)
    refused = answer.replay.error
    if refused is not None:
        try:
            if args.as_json:
                echo_json(answer.to_dict())
        finally:  # said even when the output's reader has gone (| head)
            click.echo(f"error: {refused}", err=True)
        return of_replay(won=False, refused=True)
    if args.as_json:
        echo_json(answer.to_dict())
    elif answer.hint is not None:
        click.echo(answer.hint)
        click.echo(answer.summary)
    else:
        click.echo("no hint: " + ("won" if answer.replay.won else
                                  "no action helps: nothing turns a card up or completes a run, and no deal is left"),
                   err=True)
    return of_fair_hint(answer)


def hint_words(analysis: Analysis) -> None:
    """``hint``'s answer: the hint on standard output, or why there is none on standard error."""
    if analysis.hint is not None:
        click.echo(analysis.hint)
    else:
        click.echo(f"no hint: {position_words(analysis)}", err=True)
        if analysis.tried is not None:
            click.echo(f"tried: {analysis.tried}", err=True)


def json_keys(func: Callable[[GameArgs], ExitStatus]) -> Callable[[GameArgs], ExitStatus]:
    """The command's help with the keys ``--json`` prints, from the analysis's one
    declaration (``ANALYSIS_FIELDS``), in place of ``{json_keys}``."""
    keys = "{" + ", ".join(f'"{name}"' for name in field_names(ANALYSIS_FIELDS)) + "}."
    lines = textwrap.wrap(f"--json prints {keys}", width=86, break_on_hyphens=False)
    func.__doc__ = (func.__doc__ or "").replace("{json_keys}", "\n    ".join(lines))
    return func


@cli.command(context_settings=CONTEXT_SETTINGS)
@game_options
@json_keys
def analyze(args: GameArgs) -> ExitStatus:
    """Replay a game log and say whether the game can still be won, and if not, where it was lost.

    Prints the replay, the status of the position reached, and the hint and the
    winning line, or (when the game can no longer be won) lost_at: the index in the
    log (from 0) of the action after which it could not be won, and a winning line
    from the position before it; when the budget does not settle it, the bracket:
    the last action after which the game was shown winnable (with the line that wins
    from there) and the action by which it was lost for certain. The deal, the log and
    the options are those of hint.

    \b
    {json_keys}
    Exit status: 0 still winnable (or won), 1 no longer winnable, 3 unknown,
    2 bad input or a refused action in the log, 130 interrupted.
    """
    return run_analysis(args, find_lost_at=True, words=analysis_words)


def analysis_words(analysis: Analysis) -> None:
    """``analyze``'s answer: the replay, the position, the hint and its line, or where the game was lost."""
    replayed = analysis.replay
    click.echo(
        f"{'won' if replayed.won else 'not won'}: {plural(replayed.moves, 'move')}, score {replayed.score}, "
        f"{plural(replayed.runs_removed, 'run')} removed, {plural(replayed.stock_left, 'card')} in stock"
    )
    click.echo(f"position: {position_words(analysis)}")
    if analysis.tried is not None:
        click.echo(f"tried: {analysis.tried}")
    if analysis.hint is not None:
        click.echo(f"hint: {analysis.hint}")
        click.echo(f"line: {' '.join(analysis.line)}")
    elif analysis.status is Status.UNWINNABLE:
        if analysis.lost_at is not None:
            click.echo(f"lost at: action {analysis.lost_at + 1} (index {analysis.lost_at}: "
                       f"{analysis.lost_at_action!r}); before it, this line won: {' '.join(analysis.lost_at_line)}")
        elif analysis.deal_lost_from_the_start:
            click.echo("lost at: nowhere, the deal cannot be won from its initial layout")
        elif analysis.bracket is not None:
            click.echo(f"lost at: {bracket_words(analysis.bracket)}")
        else:
            click.echo("lost at: not established within the budget")
