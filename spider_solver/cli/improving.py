"""``improve``: shorter lines for the catalog's verified deals, with a larger budget."""

from __future__ import annotations

import sys

import click

from spider_solver.cli.exits import of_improve
from spider_solver.cli.group import cli
from spider_solver.cli.params import (
    CONTEXT_SETTINGS,
    NODES,
    RULE,
    SECONDS,
    SUITS,
    WORKERS,
    catalog_option,
    describe_seconds,
)
from spider_solver.limits import DEFAULT_CATALOG, IMPROVE_MAX_SECONDS, describe_improve_nodes
from spider_solver.outcomes import ExitStatus


@cli.command("improve", context_settings=CONTEXT_SETTINGS)
@catalog_option(DEFAULT_CATALOG)
@click.option("--suits", type=SUITS, default=None, help="Only this suit count.")
@click.option("--rule", type=RULE, default=None, help="Only this rule.")
@click.option("--max-nodes", type=NODES, default=None,
              help="Node budget per deal (deterministic), 1 to 10**15.  [default: about 10 s of CPU a deal: "
                   f"{describe_improve_nodes()}]")
@click.option("--max-seconds", type=SECONDS, default=IMPROVE_MAX_SECONDS,
              help=f"Time budget per deal, a safety net after the nodes; 0 for none.  "
                   f"[default: {describe_seconds(IMPROVE_MAX_SECONDS)}]")
@click.option("--workers", type=WORKERS, default=1, show_default=True, help="Worker processes.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
def improve_command(catalog: str, suits: str | None, rule: str | None, max_nodes: int | None,
                    max_seconds: float | None, workers: int, quiet: bool) -> ExitStatus:
    """Look for shorter lines of the catalog's verified deals, with a larger budget.

    Each verified line is shortened, then searched for again from the initial layout
    with wider beams, each capped below the shortest line so far. A shorter line
    replaces the stored one only after the rules engine has replayed it to a win; par
    (the score of the shortest known line) follows it. Each deal is written as soon as
    it is done, with the node budget spent on its line, so a rerun at the same or a
    smaller --max-nodes skips it, and an interrupted run keeps what it did. Exit
    status: 0 done, 1 some deals failed, 2 bad input, 130 interrupted.
    """
    from spider_solver.batch.improve import ImproveOptions, run_improve
    from spider_solver.cli.words import teller
    from spider_solver.rules import Variant, parse_rule

    if suits is not None and rule is not None:
        rule = Variant(suits=int(suits), rule=parse_rule(rule)).rule  # one suit is always classic
    options = ImproveOptions(catalog=catalog, suits=None if suits is None else int(suits),
                             rule=rule and rule.lower(), max_nodes=max_nodes, max_seconds=max_seconds,
                             workers=workers, quiet=quiet)
    return of_improve(run_improve(options, tell=teller(sys.stderr, quiet=quiet)))
