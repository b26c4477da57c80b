"""The command line's parameter types and shared options: every option's check and
normalisation lives here, once (the batch and the solver take the values as given).

Every number has a range and every text a bounded length; a value out of range is a
usage error (exit status 2) whose message quotes at most the first characters of
what was typed.
"""

from __future__ import annotations

import decimal
import math
import re
from collections.abc import Callable
from typing import Any

import click

from spider_solver.errors import InvalidOptionError, quote
from spider_solver.limits import (
    DEFAULT_MAX_NODES,
    DEFAULT_MAX_SECONDS,
    FAIR_LAYOUTS,
    FAIR_SEED,
    INTERACTIVE_MAX_NODES,
    INTERACTIVE_MAX_SECONDS,
    MAX_COUNT,
    MAX_FAIR_LAYOUTS,
    MAX_NODES_LIMIT,
    MAX_SECONDS_LIMIT,
    MAX_SEED,
    MAX_UNDO_LIMIT,
    MAX_WORKERS,
)
from spider_solver.rules import DEFAULT_UNDO_LIMIT, MAX_DEAL

#: Longest number (in characters) any option reads; longer text is refused unread.
MAX_NUMBER_TEXT = 40

_INTEGER = re.compile(r"[+-]?[0-9]+")

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class Integer(click.ParamType):
    """A whole number from ``low`` to ``high``, in decimal, of bounded length."""

    name = "integer"

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if len(text) > MAX_NUMBER_TEXT or not _INTEGER.fullmatch(text):
                self.fail(f"{quote(str(value))} is not a whole number from {self.low:,} to {self.high:,}", param, ctx)
            number = int(text)
        if not self.low <= number <= self.high:
            self.fail(f"{number} is not in the range {self.low:,} to {self.high:,}", param, ctx)
        return number

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "N"


class Seconds(click.ParamType):
    """A finite number of seconds from 0 to ``MAX_SECONDS_LIMIT``; 0 means no limit (None)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float | None:
        if value is None or (isinstance(value, float) and 0 < value <= MAX_SECONDS_LIMIT):
            return value
        text = str(value).strip()
        try:  # in decimal, as --max-nodes: float() would also take "1_0"
            number = float(text) if len(text) <= MAX_NUMBER_TEXT and text.isascii() and "_" not in text else math.nan
        except ValueError:
            number = math.nan
        if not math.isfinite(number) or not 0 <= number <= MAX_SECONDS_LIMIT:
            self.fail(f"{quote(str(value))} is not a number of seconds from 0 (no limit) to {MAX_SECONDS_LIMIT:,.0f}",
                      param, ctx)
        if number == 0 and decimal.Decimal(text) != 0:  # 1e-400 is not 0, which would mean no limit
            self.fail(f"{quote(str(value))} is too small a number of seconds: give 0 for no limit", param, ctx)
        return number or None

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "S"


class FilePath(click.Path):
    """A file's path (not a directory's); an empty one is refused as such rather than
    read as the current directory (an unset shell variable, ``--catalog "$CAT"``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(dir_okay=False, **kwargs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("expected a file name" + (", or '-' for standard output" if self.allow_dash else "")
                      + ", got an empty one", param, ctx)
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as error:
            if param is None or not param.opts or value != param.default:
                raise
            # Perhaps no file was named (click tells the source only after converting):
            # say where the name came from, and how to name another.
            option = param.opts[0]
            self.fail(f"{error.message.rstrip('.')} ({option} defaults to it: name another with {option})", param, ctx)


class DifficultyRange(click.ParamType):
    """A grade from 1 (very easy) to 5 (very hard), ``3``, or a range of grades, ``1-2``
    (low first, both included); converts to ``(low, high)``."""

    name = "difficulty"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[int, int]:
        from spider_solver.catalog import parse_grades

        if isinstance(value, tuple):
            return value
        try:
            return parse_grades(value)
        except InvalidOptionError as error:
            self.fail(str(error), param, ctx)

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "G[-G]"


class Choice(click.Choice):
    """click's Choice, with spaces around the value ignored, whose message quotes at most
    the first characters of the value."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:  # spaces around ignored, as in numbers (" 4" from a script's variable)
            return super().convert(value.strip() if isinstance(value, str) else value, param, ctx)
        except click.BadParameter:
            self.fail(f"{quote(str(value))} is not one of {', '.join(map(repr, self.choices))}", param, ctx)


SUITS = Choice(["1", "2", "4"])
RULE = Choice(["classic", "relaxed"], case_sensitive=False)
STATUS = Choice(["verified", "unwinnable", "unknown"], case_sensitive=False)
FORMAT = Choice(["json", "jsonl", "csv"], case_sensitive=False)
COUNT = Integer(0, MAX_COUNT)
DEAL_NUMBER = Integer(0, MAX_DEAL)
WORKERS = Integer(1, MAX_WORKERS)
NODES = Integer(1, MAX_NODES_LIMIT)
UNDO_LIMIT = Integer(0, MAX_UNDO_LIMIT)
LAYOUTS = Integer(1, MAX_FAIR_LAYOUTS)
SEED = Integer(0, MAX_SEED)
SECONDS = Seconds()
DIFFICULTY = DifficultyRange()


def describe_seconds(seconds: float | None) -> str:
    """A default seconds budget in a help text: "30", or "none: the nodes decide"."""
    return "none: the nodes decide" if seconds is None else f"{seconds:g}"


def budget_options_of(nodes: int, seconds: float | None) -> Callable[[Callable], Callable]:
    """--max-nodes and --max-seconds, with these defaults."""

    def decorate(func: Callable) -> Callable:
        func = click.option(
            "--max-seconds", type=SECONDS, default=seconds,
            help=f"Time budget, a safety net after the nodes; 0 for none.  [default: {describe_seconds(seconds)}]",
        )(func)
        return click.option(
            "--max-nodes", type=NODES, default=nodes,
            help=f"Node budget (deterministic), 1 to 10**15.  [default: {nodes:,}]",
        )(func)

    return decorate


#: --max-nodes and --max-seconds with the solver's defaults (verify), and with the
#: budget of what a person waits for (analyze, hint).
budget_options = budget_options_of(DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS)
interactive_budget_options = budget_options_of(INTERACTIVE_MAX_NODES, INTERACTIVE_MAX_SECONDS)


def _one_log_file(ctx: click.Context, param: click.Parameter, value: tuple[Any, ...]) -> Any:
    """``--file`` once at most: given twice, click would keep the last without a word."""
    if len(value) > 1:
        raise click.BadParameter("given more than once: give one file (join the logs into one first)",
                                 ctx=ctx, param=param)
    return value[0] if value else None


#: ``--file`` of the commands that replay a game log (replay, hint, analyze).
log_file_option = click.option(
    "--file", "log_file", type=click.File("rb"), multiple=True, callback=_one_log_file,
    help="Read the actions from a file ('-' for standard input), after those on the line.")


#: The options of a fair hint's sampling (``hint --fair``, ``play``), by name: their
#: ranges are those limits.check_fair checks, which the Python API and the service share.
FAIR_OPTION_NAMES = ("layouts", "seed")


def fair_options(func: Callable) -> Callable:
    """--layouts N and --seed N, the sampling of a fair hint."""
    func = click.option(
        "--seed", type=SEED, default=FAIR_SEED, show_default=True,
        help="Seed of the sampled layouts of the unseen cards, 0 to 2**64 - 1.",
    )(func)
    return click.option(
        "--layouts", type=LAYOUTS, default=FAIR_LAYOUTS, show_default=True,
        help=f"Layouts of the unseen cards each action is played on, 1 to {MAX_FAIR_LAYOUTS:,} (more: steadier "
             "chances, slower).",
    )(func)


def deal_options(func: Callable) -> Callable:
    """CODE, or an explicit deal given as --deck with --suits and --rule."""
    func = click.option(
        "--rule", "deck_rule", type=RULE, default="classic", show_default=True, help="Rule of an explicit --deck.",
    )(func)
    func = click.option(
        "--suits", "deck_suits", type=SUITS, default="4", show_default=True, help="Suit count of an explicit --deck.",
    )(func)
    func = click.option(
        "--deck", "deck_text", metavar="CARDS",
        help='An explicit deal instead of CODE: the 104 cards in deck order, e.g. "8S QC 4H ...".',
    )(func)
    return func


def game_log_options(func: Callable) -> Callable:
    """What the commands that replay a game log take (replay, hint, analyze, play): CODE
    (or --deck with --suits and --rule), ACTIONS, --file, and the rules of the log:
    --deal-on-empty, --undo-limit N, --unlimited-undo."""
    decorators: list[Callable[[Callable], Callable]] = [
        click.argument("code", required=False),
        click.argument("actions", nargs=-1),
        deal_options,
        log_file_option,
        click.option("--deal-on-empty", is_flag=True, help="Allow dealing while a column is empty."),
        click.option("--undo-limit", type=UNDO_LIMIT, default=DEFAULT_UNDO_LIMIT, show_default=True,
                     help="Actions that can be undone, 0 (none) to 1,000,000."),
        click.option("--unlimited-undo", is_flag=True, help="Keep the whole history for undo."),
    ]
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def catalog_option(default: str | None) -> Callable[[Callable], Callable]:
    """--catalog PATH (a file, not a directory)."""
    return click.option(
        "--catalog", type=FilePath(), default=default, show_default=default is not None,
        help="Catalog file." + ("" if default is not None else "  [default: spider-catalog.sqlite]"),
    )


__all__ = [
    "CONTEXT_SETTINGS", "COUNT", "DEAL_NUMBER", "DIFFICULTY", "FAIR_OPTION_NAMES", "FORMAT", "LAYOUTS", "NODES",
    "RULE", "SECONDS", "SEED", "STATUS", "SUITS", "UNDO_LIMIT", "WORKERS", "Choice", "DifficultyRange", "FilePath",
    "Integer", "Seconds", "budget_options", "budget_options_of", "catalog_option", "deal_options", "describe_seconds",
    "fair_options", "game_log_options", "interactive_budget_options",
]
