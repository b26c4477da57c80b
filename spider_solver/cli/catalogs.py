"""``check``, ``export`` and ``grade``: the catalog's lines replayed, the file frontends
load, and the difficulty of its verified deals."""

from __future__ import annotations

import contextlib
import sys
from typing import Any, cast

import click

from spider_solver.cli.exits import of_check, of_error, of_grading
from spider_solver.cli.group import cli, error_line, plural, when_exiting
from spider_solver.cli.params import (
    CONTEXT_SETTINGS,
    DIFFICULTY,
    FORMAT,
    RULE,
    STATUS,
    SUITS,
    WORKERS,
    FilePath,
    catalog_option,
)
from spider_solver.errors import plural_noun
from spider_solver.limits import DEFAULT_CATALOG
from spider_solver.outcomes import ExitStatus
from spider_solver.stops import hold_for_good, restore


@cli.command(context_settings=CONTEXT_SETTINGS)
@catalog_option(DEFAULT_CATALOG)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def check(catalog: str, quiet: bool = False) -> ExitStatus:
    """Replay the catalog's verified solutions.

    Every solution stored as verified is replayed on the reference rules engine.
    Prints each solution that does not win (or wins with another move count or
    score than stored), then a count. Exit status: 0 all win, 1 one or more do not,
    2 bad input (no catalog, a damaged one).
    """
    from tqdm import tqdm

    from spider_solver.batch.signals import StopRequest, catch_signals
    from spider_solver.catalog import Catalog
    from spider_solver.verify import check_solution

    # A Ctrl-C asks the loop to stop between two solutions, as in the batch: one raised
    # inside tqdm's lock left it half released (its RuntimeError traceback, status 1).
    stop = StopRequest()
    with Catalog(catalog, create=False) as db, catch_signals(stop):
        total, failed = db.count(status="verified"), 0
        # A bar on a terminal only (disable=None), as in every command.
        with tqdm(total=total, unit="deal", file=sys.stderr, disable=True if quiet else None, leave=False) as bar:
            for entry in db.entries(status="verified"):
                if stop:
                    break
                problem = check_solution(str(entry.code), entry.solution, moves=entry.moves, score=entry.score)
                if problem is not None:
                    failed += 1
                    bar.write(f"{entry.code}: {problem}", file=sys.stdout)
                bar.update(1)
    if stop:
        raise KeyboardInterrupt  # "interrupted", status 130 (SpiderGroup)
    if failed:
        click.echo(f"{failed} of {plural(total, 'verified solution')} {plural_noun(failed, 'does', 'do')} not win")
    elif total == 0:
        click.echo("no verified solution to check")
    else:
        click.echo("the verified solution wins" if total == 1 else f"all {plural(total, 'verified solution')} win")
    return of_check(failed)


def _print_schema(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``export --schema``: printed before the other options are read (a catalog need not exist)."""
    if value and not ctx.resilient_parsing:
        from spider_solver.export import schema_text

        click.echo(schema_text(), nl=False)
        ctx.exit(ExitStatus.OK)


@cli.command(context_settings=CONTEXT_SETTINGS)
@catalog_option(DEFAULT_CATALOG)
@click.option("--suits", type=SUITS, default=None, help="Only this suit count.")
@click.option("--rule", type=RULE, default=None, help="Only this rule.")
@click.option("--status", type=STATUS, default=None, help="Only this status (frontends usually want verified).")
@click.option("--difficulty", type=DIFFICULTY, default=None,
              help="Only graded deals of this grade (5) or range of grades (1-2); 1 very easy .. 5 very hard.")
@click.option("--format", "fmt", type=FORMAT, default="json",
              show_default=True, help="Output format.")
@click.option("-o", "--output", type=FilePath(allow_dash=True), default="-", show_default=True,
              help="Output file ('-' for standard output); written whole, then renamed into place.")
@click.option("--with-deck", is_flag=True,
              help="Add each deal's 104 cards in deck order (\"deck\"), to lay it out without the shuffle.")
@click.option("--schema", is_flag=True, is_eager=True, expose_value=False, callback=_print_schema,
              help="Print the JSON Schema of the json format and exit.")
def export(catalog: str, suits: str | None, rule: str | None, status: str | None,
           difficulty: tuple[int, int] | None, fmt: str, output: str, with_deck: bool) -> ExitStatus:
    """Export the catalog for frontends.

    \b
    json   a list of {"code", "suits", "rule", "deal", "status", "moves", "score",
           "solution", "nodes", "seconds", "max_nodes", "max_seconds", "reason",
           "solver_version", "solved_at", "difficulty", "difficulty_raw",
           "grader_version", "par", "improve_nodes", "improve_seconds",
           "improve_version"}; solution is a list of actions, par the score
           of the shortest known line
    jsonl  one such object per line
    csv    the same columns; solution is one space-separated string
    --with-deck adds "deck", the deal's 104 cards in deck order, short form
    (in csv one space-separated string, the last column): the layout and
    the stock without the shuffle (RULES.md §9.1 From deal number to cards).
    --schema prints the JSON Schema (draft 2020-12) of the json format; each
    jsonl line is one of its items.
    """
    from spider_solver.catalog import Catalog
    from spider_solver.export import Format, atomic_file, write_export, written_in_place
    from spider_solver.rules import Variant, parse_rule

    if suits is not None and rule is not None:
        rule = Variant(suits=int(suits), rule=parse_rule(rule)).rule  # one suit is always classic
    if output != "-":
        _refuse_the_catalog_as_output(catalog, output)
    with Catalog(catalog, create=False) as db:
        entries = db.entries(suits=None if suits is None else int(suits), rule=rule and rule.lower(),
                             status=status and status.lower(), difficulty=difficulty)
        if output == "-":
            try:
                count = write_export(entries, sys.stdout, cast(Format, fmt.lower()), with_deck=with_deck)
                sys.stdout.flush()
            except BrokenPipeError:  # the reader stopped early (| head): no message
                import os

                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                return of_error(BrokenPipeError())
            click.echo(f"exported {plural(count, 'deal')}", err=True)
            return ExitStatus.OK
        held, renamed = None, not written_in_place(output)
        try:
            with atomic_file(output) as stream:
                count = write_export(entries, stream, cast(Format, fmt.lower()), with_deck=with_deck)
                if renamed:  # the rename completes the export: a late Ctrl-C no longer undoes it
                    held = hold_for_good()
            click.echo(f"exported {plural(count, 'deal')} to {output}", err=True)
        except BaseException:
            restore(held)
            raise
        when_exiting(lambda: restore(held))  # put back once the status is on its way out
        return ExitStatus.OK


def _refuse_the_catalog_as_output(catalog: str, output: str) -> None:
    """``-o`` naming the catalog (or its journal) would replace it by the export."""
    import os

    target = os.path.realpath(output)
    for suffix in ("", "-wal", "-shm", "-journal"):
        same = target == os.path.realpath(catalog) + suffix
        with contextlib.suppress(OSError):
            same = same or os.path.samefile(output, catalog + suffix)  # a hard link
        if same:
            what = "the catalog" + (f"'s {suffix[1:]} file" if suffix else "")
            raise click.BadParameter(f"{output!r} is {what}: export to another file", param_hint="'-o' / '--output'")


def _nothing_to_grade(db: Any, *, suits: int | None, rule: str | None) -> str:
    """Why ``grade`` has nothing to do."""
    from spider_solver.grading import GRADER_VERSION

    verified = db.count(suits=suits, rule=rule, status="verified")
    which = " ".join(part for part in (f"{suits}-suit" if suits else "", rule or "") if part)
    deals = f"{which + ' ' if which else ''}{plural_noun(verified, 'verified deal')}"
    if not verified:
        return f"nothing to grade: no {deals} in the catalog (a batch verifies and grades them)"
    every = "the" if verified == 1 else f"all {verified:,}"
    return f"nothing to grade: {every} {deals} {'is' if verified == 1 else 'are'} graded by {GRADER_VERSION}; " \
        "--regrade to grade again"


@cli.command("grade", context_settings=CONTEXT_SETTINGS)
@catalog_option(DEFAULT_CATALOG)
@click.option("--suits", type=SUITS, default=None, help="Only this suit count.")
@click.option("--rule", type=RULE, default=None, help="Only this rule.")
@click.option("--regrade", is_flag=True, help="Grade every verified deal again, also those graded by this version.")
@click.option("--workers", type=WORKERS, default=None, help="Worker processes.  [default: all cores]")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no messages but errors.")
def grade_command(catalog: str, suits: str | None, rule: str | None, regrade: bool, workers: int | None,
                  quiet: bool = False) -> ExitStatus:
    """Grade the difficulty of the catalog's verified deals for a person.

    Grades the verified rows that have no grade yet, or a grade from another grader
    version (--regrade: all of them): 1 very easy .. 5 very hard, per suit count and
    rule, on all cores (--workers). Status and solution are never changed. Each grade
    is written as soon as it is made, so an interrupted run keeps what it did; run it
    again to carry on. Exit status: 0 done, 1 some deals could not be graded (a worker
    died, or no grade bounds for their variant), 2 bad input, 130 interrupted.
    """
    import os

    from spider_solver.batch.grading import grade_all
    from spider_solver.batch.report import progress_bar
    from spider_solver.catalog import Catalog
    from spider_solver.cli.words import teller
    from spider_solver.grading import GRADER_VERSION
    from spider_solver.rules import Variant, parse_rule
    from spider_solver.terminal import is_terminal

    if suits is not None and rule is not None:
        rule = Variant(suits=int(suits), rule=parse_rule(rule)).rule
    with Catalog(catalog, create=False) as db:
        codes = db.to_grade(version=GRADER_VERSION, suits=None if suits is None else int(suits),
                            rule=rule and rule.lower(), regrade=regrade)
        if codes:
            db.require_writable("grade records the grades there")
        elif not quiet:
            click.echo(_nothing_to_grade(db, suits=None if suits is None else int(suits), rule=rule and rule.lower()),
                       err=True)
        bar = progress_bar(len(codes), sys.stderr, quiet=quiet or not codes)
        try:
            grading = grade_all(db, codes, workers=workers or os.cpu_count() or 1, bar=bar,
                                tell=teller(sys.stderr, quiet=quiet), quiet=quiet,
                                terminal=is_terminal(sys.stderr) and not quiet)
        finally:
            bar.close()
    grades = grading.grades
    if grading.interrupted:
        done = grading.done
        then = (f"the other {len(codes) - done} are as they were (without --regrade, the command grades "
                "those that have no grade of this version)" if regrade else
                "run the same command again to carry on")
        click.echo(f"interrupted: {done} of {plural(len(codes), 'deal')} graded and written; {then}", err=True)
        return of_grading(grading)
    shares = ", ".join(f"{grades[g]} of grade {g}" for g in sorted(grades))
    click.echo(f"graded {plural(grading.done, 'deal')}" + (f": {shares}" if shares else "") + f" ({GRADER_VERSION})")
    if grading.errors or grading.broken:
        left = len(codes) - grading.done
        why = grading.errors[0][1] if grading.errors else f"the worker pool broke ({grading.broken})"
        retry = ("without --regrade the command grades those that have no grade of this version; with it, "
                 "every deal again" if regrade else "run the same command again to retry")
        error_line(f"{plural(left, 'deal')} not graded (first: {why}); {retry}")
    return of_grading(grading)
