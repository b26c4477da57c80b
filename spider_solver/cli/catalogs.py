"""``check`` and ``export``: the catalog's lines replayed, and the file frontends load."""

from __future__ import annotations

import sys
from typing import cast

import click

from spider_solver.catalog import DEFAULT_CATALOG
from spider_solver.cli import cli, plural
from spider_solver.cli.params import CONTEXT_SETTINGS, FORMAT, RULE, STATUS, SUITS, catalog_option
from spider_solver.outcomes import ExitStatus


@cli.command(context_settings=CONTEXT_SETTINGS)
@catalog_option(DEFAULT_CATALOG)
def check(catalog: str) -> None:
    """Replay the catalog's verified solutions.

    Every solution stored as verified is replayed on the reference rules engine.
    Prints each solution that does not win (or wins with another move count or
    score than stored), then a count. Exit status: 0 all win, 1 one or more do not.
    """
    from tqdm import tqdm

    from spider_solver.catalog import Catalog
    from spider_solver.verify import check_solution

    with Catalog(catalog, create=False) as db:
        total, failed = db.count(status="verified"), 0
        with tqdm(total=total, unit="deal", file=sys.stderr, disable=None, leave=False) as bar:
            for entry in db.entries(status="verified"):
                problem = check_solution(entry.code, entry.solution, moves=entry.moves, score=entry.score)
                if problem is not None:
                    failed += 1
                    bar.write(f"{entry.code}: {problem}", file=sys.stdout)
                bar.update(1)
    if failed:
        click.echo(f"{failed} of {plural(total, 'verified solution')} do not win")
        sys.exit(ExitStatus.NOT_WON)
    click.echo(f"all {plural(total, 'verified solution')} win")
    sys.exit(ExitStatus.OK)


@cli.command(context_settings=CONTEXT_SETTINGS)
@catalog_option(DEFAULT_CATALOG)
@click.option("--suits", type=SUITS, default=None, help="Only this suit count.")
@click.option("--rule", type=RULE, default=None, help="Only this rule.")
@click.option("--status", type=STATUS, default=None, help="Only this status (frontends usually want verified).")
@click.option("--format", "fmt", type=FORMAT, default="json",
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
    from spider_solver.export import Format, atomic_file, write_export
    from spider_solver.rules import Variant, parse_rule

    if suits is not None and rule is not None:
        rule = Variant(suits=int(suits), rule=parse_rule(rule)).rule  # one suit is always classic
    with Catalog(catalog, create=False) as db:
        entries = db.entries(suits=None if suits is None else int(suits), rule=rule and rule.lower(),
                             status=status and status.lower())
        if output == "-":
            try:
                count = write_export(entries, sys.stdout, cast(Format, fmt.lower()))
                sys.stdout.flush()
            except BrokenPipeError:  # the reader stopped early (| head): no message
                import os

                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                sys.exit(ExitStatus.NOT_WON)
        else:
            with atomic_file(output) as stream:
                count = write_export(entries, stream, cast(Format, fmt.lower()))
    click.echo(f"exported {plural(count, 'deal')}" + ("" if output == "-" else f" to {output}"), err=True)
