"""``verify``: is this deal winnable? The line, its length and score."""

from __future__ import annotations

import sys

import click

from spider_solver.cli.exits import of_outcome
from spider_solver.cli.group import cli, echo_json, end_at_once, messages, plural
from spider_solver.cli.params import CONTEXT_SETTINGS, budget_options, deal_options
from spider_solver.cli.play import load_deal
from spider_solver.outcomes import UNKNOWN_BECAUSE, ExitStatus, Reason, Status, what_was_tried
from spider_solver.terminal import is_terminal


@cli.command(context_settings=CONTEXT_SETTINGS)
@click.argument("code", required=False)
@deal_options
@budget_options
@click.option("--deal-on-empty", is_flag=True, help="Allow dealing while a column is empty.")
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar.  [default: when stderr is a terminal]")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no messages but errors.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the deal's record as JSON (the fields of an export row, with "
                   '"deal_on_empty").')
@click.option("--grade", "with_grade", is_flag=True,
              help="Also grade a verified deal's difficulty for a person, 1 (very easy) to 5 (very hard).")
def verify(code: str | None, deck_text: str | None, deck_suits: str, deck_rule: str, max_nodes: int,
           max_seconds: float | None, deal_on_empty: bool, progress: bool | None, as_json: bool,
           with_grade: bool, quiet: bool = False) -> ExitStatus:
    """Find out whether a deal can be won, and print a winning line.

    The deal is a game CODE, or an explicit deal: --deck "104 cards" with --suits
    and --rule. The search knows the face-down cards and the stock. A line it
    finds is replayed by the rules checker before the deal is called verified.

    \b
    Exit status: 0 verified, 1 unwinnable (the whole game was searched),
    3 unknown (the budget ran out), 2 bad input, 130 interrupted.

    With --grade, a verified deal is also graded (docs/commands/difficulty.md): the grade,
    its name and the fair player's raw figure (in JSON: "difficulty",
    "difficulty_raw", "grader_version"; null unless graded).
    """
    from spider_solver.verify import load_engine, solve

    say = messages(quiet)
    deal = load_deal(code, deck_text, deck_suits, deck_rule)
    end_at_once()  # no catalog, no workers
    load_engine(say)
    result = solve(
        deal,
        max_nodes=max_nodes,
        max_seconds=max_seconds,
        deal_on_empty=deal_on_empty,
        progress=not quiet and (is_terminal(sys.stderr) if progress is None else progress),
    )
    if result.reason is Reason.INTERRUPTED:
        click.echo("interrupted", err=True)
        return ExitStatus.INTERRUPTED
    graded = None
    if with_grade and result.status is Status.VERIFIED:
        from spider_solver.grading import grade, load_grader

        load_grader(say)
        graded = grade(deal)  # the grade is of the standard rules
    if as_json:
        if graded is not None:
            result = result.with_grade(graded.to_dict())
        echo_json(result.to_dict() | {"deal_on_empty": deal_on_empty})  # the line may need it to replay
    else:
        figures = f"{result.nodes:,} nodes, {result.seconds:.2f} s"
        if deal_on_empty:
            figures += "; dealing on an empty column allowed: replay with --deal-on-empty"
        if result.status is Status.VERIFIED:
            click.echo(f"{deal.name}: verified, won in {plural(result.moves or 0, 'move')}, score {result.score} "
                       f"({figures})")
            click.echo(" ".join(result.solution))
            if graded is not None:
                click.echo(f"difficulty {graded.grade} ({graded.name}): the fair player's raw figure {graded.raw:g}, "
                           f"wins {100 * graded.win_rate:.0f}% of its games ({graded.version})")
        elif result.status is Status.UNWINNABLE:
            proof = result.proof
            if proof is not None:
                figures += (f"; the proof searched {proof.tt_stored:,} positions in {proof.levels} levels, "
                            f"at most {proof.peak_level:,} in one")
            click.echo(f"{deal.name}: unwinnable, the whole game was searched ({figures})")
        else:
            click.echo(f"{deal.name}: unknown, {UNKNOWN_BECAUSE[result.reason]} ({figures})")
            click.echo(f"tried: {what_was_tried(result.attempts, result.nodes, result.max_nodes)}")
    return of_outcome(result.status)
