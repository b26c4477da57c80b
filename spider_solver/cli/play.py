"""``show``, ``replay`` and ``play``: a deal's layout, a game log replayed and scored as the app
does, and a game played by following fair hints."""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from spider_solver.cli.exits import of_fair_game, of_replay
from spider_solver.cli.group import cli, echo_json, end_at_once, messages, plural
from spider_solver.cli.params import CONTEXT_SETTINGS, fair_options, game_log_options
from spider_solver.errors import not_utf8
from spider_solver.limits import MAX_FAIR_GAME_ACTIONS, MAX_LOG_FILE_CHARS
from spider_solver.outcomes import ExitStatus
from spider_solver.rules import Deal
from spider_solver.rules.cards import ascii_upper
from spider_solver.terminal import is_terminal, silent, write_stderr

if TYPE_CHECKING:
    from spider_solver.analysis.fair import FairGame, FairStep
    from spider_solver.rules import Board
    from spider_solver.rules.replay import ReplayResult


def load_deal(code: str | None, deck_text: str | None, deck_suits: str, deck_rule: str) -> Deal:
    """The deal of CODE, or of an explicit --deck with --suits and --rule."""
    if deck_text is not None:
        if code is not None:
            raise click.UsageError("give either a game CODE or --deck, not both")
        return Deal.from_text(deck_text, deck_suits, deck_rule)
    if code is None:
        raise click.UsageError("missing the game CODE (or --deck with an explicit deal)")
    context = click.get_current_context(silent=True)
    given = [option for name, option in (("deck_suits", "--suits"), ("deck_rule", "--rule"))
             if context is not None and context.get_parameter_source(name) == ParameterSource.COMMANDLINE]
    if given:
        options = " and ".join(given)
        raise click.UsageError(f"{options} {'are' if len(given) > 1 else 'is'} for an explicit --deck; a game CODE "
                               "names its own suits and rule")
    return Deal.from_code(code)


def read_log(code: str | None, actions: tuple[str, ...], deck_text: str | None, log_file: Any) -> tuple[
        str | None, list[str]]:
    """(CODE, the log's texts): the actions on the line, then those of --file."""
    if deck_text is not None and code is not None and not ascii_upper(code.strip()).startswith("SP"):
        # With --deck there is no CODE: click put the first action there.
        actions, code = (code, *actions), None
    texts = list(actions)
    if log_file is not None:
        # Bytes, decoded here: a decoding error then says where in the file it is (a text
        # stream's says where in the chunk it was decoding). A character is 4 bytes at most,
        # so more bytes than 4 * MAX_LOG_FILE_CHARS are more characters than it.
        def refused(why: str) -> click.BadParameter:
            return click.BadParameter(f"{log_file.name!r} is {why}", param_hint="'--file'")

        too_long = f"over {MAX_LOG_FILE_CHARS:,} characters, far longer than a game's log: is it the right file?"
        data = log_file.read(4 * MAX_LOG_FILE_CHARS + 1)
        if len(data) > 4 * MAX_LOG_FILE_CHARS:  # /dev/zero, the wrong file: do not read on for ever
            raise refused(too_long)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise refused(not_utf8(error)) from None
        if len(text) > MAX_LOG_FILE_CHARS:
            raise refused(too_long)
        texts.append(text.removeprefix("\ufeff"))  # the mark some editors put first
    return code, texts


def undo_limit_of(undo_limit: int, unlimited_undo: bool) -> int | None:
    """The undo limit --undo-limit and --unlimited-undo give; both at once is a usage error."""
    if unlimited_undo:
        if click.get_current_context().get_parameter_source("undo_limit") == ParameterSource.COMMANDLINE:
            raise click.UsageError("--undo-limit and --unlimited-undo cannot be given together")
        return None
    return undo_limit


@cli.command(context_settings=CONTEXT_SETTINGS, short_help="Draw a deal's initial layout, list its cards, or JSON.")
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
    from spider_solver.rules import Board

    chosen = [name for name, flag in (("--deck", as_deck), ("--describe", as_words), ("--json", as_json)) if flag]
    if len(chosen) > 1:
        raise click.UsageError(f"{' and '.join(chosen)} are different forms: give one")
    deal = Deal.from_code(code)
    if as_json:
        from spider_solver.export import deal_json

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
@game_log_options
@click.option("--json", "as_json", is_flag=True,
              help='Print {"code", "won", "moves", "score", "runs_removed", "stock_left", "error"}.')
def replay(code: str | None, actions: tuple[str, ...], deck_text: str | None, deck_suits: str, deck_rule: str,
           log_file: Any, deal_on_empty: bool, undo_limit: int, unlimited_undo: bool, as_json: bool) -> ExitStatus:
    """Replay a game log on the deal CODE and score it as the app does.

    ACTIONS are D (deal), F>T (move onto column T), F>T/N (move N cards) and U
    (undo), separated by spaces, commas or new lines. Exit status: 0 the log wins, 1 it is
    legal but does not win, 2 an action is refused or the input is bad.
    """
    from spider_solver.rules import replay as replay_log

    code, tokens = read_log(code, actions, deck_text, log_file)
    deal = load_deal(code, deck_text, deck_suits, deck_rule)
    result = replay_log(deal, tokens, deal_on_empty=deal_on_empty, undo_limit=undo_limit_of(undo_limit, unlimited_undo))
    try:
        if as_json:
            echo_json({"code": str(deal.code) if deal.code else None, **result.to_dict()})
        else:
            click.echo(replay_words(result))
    finally:  # the refusal is said even when the output's reader has gone (| head)
        if result.error is not None:
            click.echo(f"error: {result.error}", err=True)
    return of_replay(result.won, refused=result.error is not None)


def replay_words(result: ReplayResult) -> str:
    """A replay in a line: "not won: 2 moves, score 498, 0 runs removed, 40 cards in stock"."""
    return (f"{'won' if result.won else 'not won'}: {plural(result.moves, 'move')}, score {result.score}, "
            f"{plural(result.runs_removed, 'run')} removed, {plural(result.stock_left, 'card')} in stock")


# --------------------------------------------------------------------------- #
# play
# --------------------------------------------------------------------------- #


def with_limits(func: Callable) -> Callable:
    """The command's help with the limits it names (``{max_actions}``) from limits.py."""
    func.__doc__ = (func.__doc__ or "").replace("{max_actions}", f"{MAX_FAIR_GAME_ACTIONS:,}")
    return func


@cli.command(context_settings=CONTEXT_SETTINGS)
@game_log_options
@click.option("--fair", is_flag=True, default=True,
              help="Follow fair hints, judged only on the cards seen (the one player so far).  [default: on]")
@fair_options
@click.option("--json", "as_json", is_flag=True, help="Print the game as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="No progress and no messages but errors and the game.")
@with_limits
def play(code: str | None, actions: tuple[str, ...], deck_text: str | None, deck_suits: str, deck_rule: str,
         log_file: Any, deal_on_empty: bool, undo_limit: int, unlimited_undo: bool, fair: bool, layouts: int,
         seed: int, as_json: bool, quiet: bool) -> ExitStatus:
    """Play a whole game of the deal CODE by following fair hints, no undo, and print
    the log, the outcome and the time each hint took.

    Each action is the fair hint of the position (as hint --fair gives it, with the
    same --layouts and --seed): judged only on the cards the player has seen. The
    game starts from the position the log reaches (ACTIONS, then those of --file; by
    default the initial layout) and ends won, lost (no action left), or called off
    after {max_actions} actions in all. Progress goes to standard error; Ctrl-C ends the game
    where it is and prints what was played. A four-suit game takes minutes.

    \b
    --json prints {"code", "replay", "outcome", "log", "steps", "layouts",
    "alternatives", "seed", "summary", "seconds"}; each step is {"action", "wins",
    "layouts", "chance", "seconds"}.
    Exit status: 0 won, 1 not won, 2 bad input or a refused action in the log,
    130 interrupted.
    """
    from spider_solver.analysis.fair import FairOptions, fair_game, load_fair_hint

    say = messages(quiet)
    code, texts = read_log(code, actions, deck_text, log_file)
    deal = load_deal(code, deck_text, deck_suits, deck_rule)
    end_at_once()  # no catalog, no workers
    progress = GameProgress(deal, silent if quiet else say, terminal=not quiet and is_terminal(sys.stderr))
    options = FairOptions(deal_on_empty=deal_on_empty, undo_limit=undo_limit_of(undo_limit, unlimited_undo),
                          layouts=layouts, seed=seed, before_search=lambda: load_fair_hint(say))
    try:
        game = fair_game(deal, texts, options, on_step=progress.step)
    finally:
        progress.close()
    refused = game.replay.error
    if refused is not None:
        try:
            if as_json:
                echo_json(game.to_dict())
        finally:  # said even when the output's reader has gone (| head)
            click.echo(f"error: {refused}", err=True)
        return of_fair_game(game)
    try:
        if as_json:
            echo_json(game.to_dict())
        else:
            game_words(game)
    finally:
        if game.outcome == "interrupted":
            click.echo("interrupted", err=True)
    return of_fair_game(game)


def game_words(game: FairGame) -> None:
    """``play``'s answer: a line an action played (its number in the log, the action, its
    hint's chance, the seconds the hint took), the outcome in a sentence, the replay's
    line (as ``replay`` prints it), the whole log, the hints' times."""
    from spider_solver.analysis.summary import chance_words

    first = len(game.log) - len(game.steps) + 1
    for number, step in enumerate(game.steps, start=first):
        click.echo(f"{number:4}  {step.action:<7} {chance_words(step):<14} {step.seconds:.2f} s")
    click.echo(game.summary)
    click.echo(replay_words(game.replay))
    click.echo(f"log: {' '.join(game.log)}")
    if game.steps:
        click.echo(f"hints: {hint_times(game.steps)}")


def hint_times(steps: tuple[FairStep, ...]) -> str:
    """The seconds the hints took, in words: their count and total, median, 90th percentile, slowest."""
    seconds = sorted(step.seconds for step in steps)
    tenth = seconds[min(len(seconds) - 1, int(0.9 * len(seconds)))]
    return (f"{len(seconds)} in {sum(seconds):.1f} s, median {statistics.median(seconds):.2f} s, 90th percentile "
            f"{tenth:.2f} s, slowest {seconds[-1]:.2f} s")


class LineProgress:
    """Progress on standard error: on a terminal one line redrawn as it changes; elsewhere (a
    pipe, a log) through ``say``, the line every ``LOG_EVERY`` seconds, so that a log never
    sits silent for the minutes a long command takes."""

    #: Seconds between two progress lines in a pipe or a log.
    LOG_EVERY = 20.0

    def __init__(self, deal: Deal, say: Callable[[str], None], *, terminal: bool) -> None:
        self.name = deal.name
        self.say = say
        self.terminal = terminal and say is not silent
        self.began = time.monotonic()
        self.said = self.began
        self.drawn = False

    def show(self, line: str) -> None:
        """The progress is ``line`` now (drawn, or said when it is time)."""
        if self.terminal:
            self.drawn = True
            write_stderr("\r\x1b[K" + line)
        elif time.monotonic() - self.said >= self.LOG_EVERY:
            self.said = time.monotonic()
            self.say(line)

    def seconds(self) -> str:
        return f"{time.monotonic() - self.began:.0f} s"

    def close(self) -> None:
        """The command ended: the terminal line is cleared."""
        if self.drawn:
            write_stderr("\r\x1b[K")


class GameProgress(LineProgress):
    """The progress of ``play``: a line as each action is played (actions, runs removed,
    cards in stock, the last hint's chance and time)."""

    def __init__(self, deal: Deal, say: Callable[[str], None], *, terminal: bool) -> None:
        super().__init__(deal, say, terminal=terminal)
        self.played = 0

    def line(self, step: FairStep, board: Board) -> str:
        from spider_solver.analysis.summary import chance_words

        return (f"playing {self.name}: {plural(self.played, 'action')}, {plural(board.runs_removed, 'run')} "
                f"removed, {plural(board.deals_left, 'deal')} left; last hint {step.action} "
                f"{chance_words(step)} in {step.seconds:.2f} s; {self.seconds()}")

    def step(self, step: FairStep, board: Board) -> None:
        """An action was played."""
        self.played += 1
        if self.terminal or time.monotonic() - self.said >= self.LOG_EVERY:
            self.show(self.line(step, board))
