"""The ``spider-solve`` group: its options (the batch), the one place where the library's
exceptions become messages and exit statuses, and the helpers every command shares.
The commands live in the modules beside this one and register themselves on :data:`cli`."""


from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import click
from click.core import ParameterSource

from spider_solver.cli.exits import of_batch, of_error
from spider_solver.cli.params import (
    CONTEXT_SETTINGS,
    COUNT,
    DEAL_NUMBER,
    NODES,
    RULE,
    SECONDS,
    SUITS,
    WORKERS,
    catalog_option,
    describe_seconds,
)
from spider_solver.errors import SpiderError, plural, plural_noun
from spider_solver.limits import DEFAULT_CATALOG, DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS
from spider_solver.outcomes import ExitStatus
from spider_solver.stops import sigterm_as_interrupt
from spider_solver.terminal import silent
from spider_solver.version import __version__


def messages(quiet: bool) -> Callable[[str], None]:
    """The ``say`` of a command: each message a line on standard error, or with ``-q``
    :func:`~spider_solver.terminal.silent` (no message, no progress line)."""
    if quiet:
        return silent

    def say(message: str) -> None:
        click.echo(message, err=True)

    return say


def error_line(message: str) -> None:
    """Print ``error: message`` on stderr, on one line (if stderr cannot take it, a full
    disk, the exit status still tells)."""
    with contextlib.suppress(OSError):
        click.echo("error: " + " ".join(str(message).split()), err=True)


def os_error_line(error: OSError) -> None:
    """The error line of a file the user named that cannot be read or written, or of
    standard output that cannot be written (closed, a full disk)."""
    error_line(f"{error.strerror or error}: {error.filename!r}" if error.filename else error.strerror or str(error))


class SpiderGroup(click.Group):
    """A group that maps every error to one line and an :class:`ExitStatus`
    (:mod:`spider_solver.cli.exits`), and ends the process with the status a command
    returns: the command line's only exit."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (SpiderError, KeyboardInterrupt, OSError) as error:
            if isinstance(error, SpiderError):
                error_line(str(error))
            elif isinstance(error, KeyboardInterrupt):
                click.echo("interrupted", err=True)
            elif isinstance(error, BrokenPipeError):
                # The reader went away (| head): stop quietly, and let nothing more reach the pipe.
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            else:
                os_error_line(error)
            return of_error(error)

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        global ending_at_once
        ending_at_once = False  # asked for by this command, if at all (not by an earlier call in this process)
        _when_exiting.clear()
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            status = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.ClickException as error:
            message = error.format_message()
            if message.endswith(".") and not message.endswith(".."):
                message = message[:-1]  # click's sentences; the command's own lines have no full stop
            error_line(message[:1].lower() + message[1:])
            click.echo(f"try '{self._usage_path(error, args, prog_name)} --help'", err=True)
            status = of_error(error)
        except click.Abort as error:
            click.echo("interrupted", err=True)
            status = of_error(error)
        except OSError as error:  # -V or --help to a closed standard output
            os_error_line(error)
            status = of_error(error)
        try:
            sys.exit(status if isinstance(status, int) else ExitStatus.OK)
        finally:  # the status decided, and on its way out
            while _when_exiting:
                _when_exiting.pop()()


    def _usage_path(self, error: click.ClickException, args: Sequence[str] | None, prog_name: str | None) -> str:
        """The command a usage error is about ("spider-solve verify"): the error's context,
        or, for the errors click's option parser raises without one (an option's missing
        value), the first command named in the arguments."""
        context = getattr(error, "ctx", None)
        if context is not None:
            return str(context.command_path)
        given = sys.argv[1:] if args is None else list(args)
        named = next((arg for arg in given if arg in self.commands), None)
        program = prog_name or "spider-solve"
        return f"{program} {named}" if named else program


#: Set by :func:`end_at_once`; read by the script's entry point (:mod:`spider_solver._console`).
ending_at_once = False
#: What :func:`when_exiting` defers.
_when_exiting: list[Callable[[], object]] = []


def when_exiting(callback: Callable[[], object]) -> None:
    """Call ``callback`` once the command's exit status is decided and the process is on its
    way out (``SystemExit`` raised): a signal that comes after it finds the status decided
    (``_console``), as for the handlers an export held while it renamed its file."""
    _when_exiting.append(callback)


def end_at_once() -> None:
    """Ask that the process end as soon as the command is done, without Python's teardown of
    its modules (a fifth of a warm ``verify``, with the engine loaded): for a command that
    holds nothing that needs it once it returns (its catalogs closed, no worker processes
    and no other threads). ``atexit`` functions still run and the output is flushed."""
    global ending_at_once
    ending_at_once = True


def echo_json(data: Any) -> None:
    """Print ``data`` as one line of JSON: UTF-8 text on a UTF-8 output, else ASCII with
    JSON's escapes (``\\u2660``), which every encoding writes. A lone surrogate (an
    undecodable byte of the command line, as Python passes it on) is written as its JSON
    escape, ``\\udcff``."""
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("_", "-")
    text = json.dumps(data, ensure_ascii=encoding not in ("utf-8", "utf8"))
    click.echo(text.encode("utf-8", "backslashreplace").decode("utf-8"))


# --------------------------------------------------------------------------- #
# The group: with no command it runs the batch.
# --------------------------------------------------------------------------- #

BATCH_OPTIONS = ("suits", "count", "rule", "start", "workers", "catalog", "max_nodes", "max_seconds", "scheduler",
                 "quiet", "grade")


@click.group(cls=SpiderGroup, invoke_without_command=True, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="spider-solve")
@click.option("--suits", type=SUITS, default="4", help="Suit count of the batch: 1, 2 or 4.  [default: 4]")
@click.option("--count", type=COUNT, default=100, help="Deals to solve in the batch.  [default: 100]")
@click.option("--rule", type=RULE, default="classic", help="Rule of the batch.  [default: classic]")
@click.option("--start", type=DEAL_NUMBER, default=None,
              help="First deal number (default: the lowest deals not settled at this budget).")
@click.option("--workers", type=WORKERS, default=None, help="Worker processes.  [default: all cores]")
@catalog_option(None)
@click.option("--max-nodes", type=NODES, default=None, help=f"Node budget per deal.  [default: {DEFAULT_MAX_NODES:,}]")
@click.option("--max-seconds", type=SECONDS, default=None,
              help=f"Time budget per deal; 0 for none.  [default: {describe_seconds(DEFAULT_MAX_SECONDS)}]")
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Run on a Dask cluster (extra 'cluster').")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
@click.option("--grade/--no-grade", default=True,
              help="Grade each verified deal's difficulty (1-5) for a person.  [default: grade]")
@click.pass_context
def cli(ctx: click.Context, **options: Any) -> ExitStatus | None:
    """Solve Spider Solitaire deals and verify that they can be won.

    With no command, solve a batch of deals on all cores and record every result
    in the catalog, for example:

        spider-solve --suits 4 --count 1000

    Exit status: 0 success, 1 not won / unwinnable / check failed / a batch's deal
    got no result or grade / deals `grade` could not grade / output closed by its
    reader, 2 bad input (or a catalog or engine that cannot be used), 3 unknown
    (budget spent), 130 interrupted.
    """
    given = [name for name in BATCH_OPTIONS if ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE]
    if ctx.invoked_subcommand is not None:
        if given:
            names = ", ".join("--no-grade" if name == "grade" and not options["grade"] else
                              "--" + name.replace("_", "-") for name in given)
            raise click.UsageError(f"{plural_noun(len(given), 'batch option')} {names} "
                                   f"{plural_noun(len(given), 'applies', 'apply')} only "
                                   "when no command is given")
        return None
    return run_batch_command(options)


def run_batch_command(given: dict[str, Any]) -> ExitStatus:
    """The batch with the options as the parameter types left them (``given``: the group's
    options by name); its exit status. What the batch tells is worded here (:mod:`.words`)."""
    from spider_solver.batch import Options, run_batch
    from spider_solver.cli.words import teller
    from spider_solver.rules import Variant, parse_rule

    start, count, scheduler = given["start"], given["count"], given["scheduler"]
    if start is not None and start + count - 1 > DEAL_NUMBER.high:
        raise click.BadParameter(f"{start} with --count {count} goes past the last deal number "
                                 f"{DEAL_NUMBER.high}", param_hint="'--start'")
    if scheduler is not None and not scheduler.strip():
        raise click.BadParameter("expected an address such as tcp://HOST:8786", param_hint="'--scheduler'")
    ctx = click.get_current_context()
    seconds_given = ctx.get_parameter_source("max_seconds") == ParameterSource.COMMANDLINE
    options = Options(
        variant=Variant(suits=int(given["suits"]), rule=parse_rule(given["rule"])), count=count, start=start,
        workers=given["workers"], catalog=given["catalog"] or DEFAULT_CATALOG,
        max_nodes=given["max_nodes"] or DEFAULT_MAX_NODES,
        max_seconds=given["max_seconds"] if seconds_given else DEFAULT_MAX_SECONDS, scheduler=scheduler,
        quiet=given["quiet"], grade=given.get("grade", True),
    )
    return of_batch(run_batch(options, tell=teller(sys.stderr, quiet=options.quiet)))


def main() -> None:
    """The command line, as ``spider-solve`` runs it (which also sees to the signals
    around it: :mod:`spider_solver._console`). SIGTERM stops every command as Ctrl-C
    does (``interrupted``, status 130, a file being written removed); the batch,
    ``improve`` and ``serve`` stop gracefully on either."""
    sigterm_as_interrupt()  # the script's entry point has its own
    _standard_streams()
    cli.main(prog_name="spider-solve")


class _ClosedOutput(io.TextIOBase):
    """Standard output closed before the start (``>&-``): what is written to it is an
    error that says so, not an AttributeError of None or output lost without a word."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _standard_streams() -> None:
    """Standard streams every command can use: a closed output says so when written
    (above), a closed error output swallows the messages, a closed input reads as empty,
    and an output whose encoding lacks a character (♠ on a latin-1 or cp437 terminal)
    writes its escape (``\\u2660``) instead of failing with a traceback (JSON is then
    written in ASCII: :func:`echo_json`)."""
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None:  # 2>&-: the messages are lost, the exit status is still told
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (for the life of the process)
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (for the life of the process)
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")


__all__ = ["cli", "echo_json", "end_at_once", "error_line", "main", "os_error_line", "plural", "run_batch_command",
           "when_exiting"]
