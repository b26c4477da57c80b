"""``review``: a game's decisions judged by what the player could see, and those that cost the most."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from spider_solver.cli.exits import of_review
from spider_solver.cli.group import cli, echo_json, end_at_once, messages, plural
from spider_solver.cli.params import CONTEXT_SETTINGS, LAYOUTS, WORKERS, fair_options, game_log_options
from spider_solver.cli.play import LineProgress, load_deal, read_log, replay_words, undo_limit_of
from spider_solver.limits import REVIEW_CONFIRM_LAYOUTS, REVIEW_COSTLIEST, REVIEW_WORKERS
from spider_solver.outcomes import ExitStatus
from spider_solver.terminal import is_terminal, silent

if TYPE_CHECKING:
    from spider_solver.analysis.reviewing import Decision, Review


def with_limits(func: Callable) -> Callable:
    """The command's help with the limits it names (``{costliest}``) from limits.py."""
    func.__doc__ = (func.__doc__ or "").replace("{costliest}", str(REVIEW_COSTLIEST))
    return func


@cli.command(context_settings=CONTEXT_SETTINGS)
@game_log_options
@fair_options
@click.option("--confirm-layouts", type=LAYOUTS, default=REVIEW_CONFIRM_LAYOUTS, show_default=True,
              help="Fresh layouts each of the costliest decisions is judged again on.")
@click.option("--workers", type=WORKERS, default=None,
              help=f"Worker processes that judge the decisions.  [default: the cores, at most {REVIEW_WORKERS}]")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="No progress and no messages but errors and the review.")
@with_limits
def review(code: str | None, actions: tuple[str, ...], deck_text: str | None, deck_suits: str, deck_rule: str,
           log_file: Any, deal_on_empty: bool, undo_limit: int, unlimited_undo: bool, layouts: int, seed: int,
           confirm_layouts: int, workers: int | None, as_json: bool, quiet: bool) -> ExitStatus:
    """Review a game: each decision judged by what the player could see, and the
    decisions that cost the most, with the better action.

    The deal is a game CODE (or --deck with --suits and --rule); ACTIONS are the log
    (D, F>T, F>T/N, U), then those of --file, as analyze takes them; an unfinished
    game is reviewed up to its last action. A decision is an action in effect (after
    the undos) played where another action was legal. At each, the action played and
    the others a fair hint compares are played on the same --layouts sampled layouts of
    the unseen cards (from --seed and what the player had seen, never a face-down card
    or the stock), and each gets its chance to win; a card turned up or dealt changes
    the chances but is never charged. The decisions that cost most are judged again
    on --confirm-layouts fresh layouts, and up to {costliest} whose cost stands are named
    (when none stands, the closest call, said to be not clearly a mistake).

    Prints the replay, a line a decision judged (its number in the log, the action,
    the chances before it, after it and after the best other action, and what it
    cost when the layouts show it clearly), the decisions judged again and those
    named, then the review in a few sentences.
    Progress goes to standard error; Ctrl-C stops the review and prints what was
    judged.

    \b
    --json prints {"code", "replay", "decisions", "costliest", "judged_again",
    "skipped", "total", "forced", "interrupted", "layouts", "alternatives",
    "confirm_layouts", "seed", "summary", "seconds"}.
    Exit status: 0 reviewed, 2 bad input or a refused action in the log, 130
    interrupted.
    """
    from spider_solver.analysis.fair import load_fair_hint
    from spider_solver.analysis.reviewing import ReviewOptions
    from spider_solver.analysis.reviewing import review as review_game

    say = messages(quiet)
    code, texts = read_log(code, actions, deck_text, log_file)
    deal = load_deal(code, deck_text, deck_suits, deck_rule)
    options = ReviewOptions(deal_on_empty=deal_on_empty, undo_limit=undo_limit_of(undo_limit, unlimited_undo),
                            layouts=layouts, seed=seed, confirm_layouts=confirm_layouts,
                            before_search=lambda: load_fair_hint(say))
    progress = ReviewProgress(deal, silent if quiet else say, terminal=not quiet and is_terminal(sys.stderr))
    try:
        answer = review_game(deal, texts, options, workers=workers or min(os.cpu_count() or 1, REVIEW_WORKERS),
                             on_progress=progress.step)
    finally:
        progress.close()
    end_at_once()  # the workers have ended; no catalog
    try:
        if as_json:
            echo_json(answer.to_dict())
        elif answer.replay.error is None:
            review_words(answer)
    finally:  # said even when the output's reader has gone (| head)
        if answer.replay.error is not None:
            click.echo(f"error: {answer.replay.error}", err=True)
        elif answer.interrupted:
            click.echo("interrupted", err=True)
    return of_review(answer)


def review_words(answer: Review) -> None:
    """``review``'s answer: the replay's line, a line a decision judged, the review in sentences."""
    click.echo(replay_words(answer.replay))
    judged = len(answer.decisions)
    counts = [plural(answer.total, "decision"), f"{judged} judged on {plural(answer.layouts, 'layout')} each"]
    if answer.skipped:
        counts.append(f"{len(answer.skipped)} not judged (no layout won and no card shown before them, or no action "
                      "that helps)")
    if answer.forced:
        counts.append(f"{plural(answer.forced, 'forced action')} not counted")
    click.echo("decisions: " + ", ".join(counts))
    if answer.decisions:
        click.echo("chances to win before, after the action played, after the best other (none: no win found)")
    for decision in answer.decisions:
        click.echo(decision_line(decision))
    if answer.judged_again:
        stood = [m.index for m in answer.costliest if m.clear]
        closest = [m.index for m in answer.costliest if not m.clear]
        click.echo(f"judged again on {plural(answer.confirm_layouts, 'fresh layout')}: "
                   f"{numbers(answer.judged_again)}; named: "
                   + (numbers(sorted(stood)) if stood else "none")
                   + (f" (the closest call: {numbers(closest)}, not clearly a mistake)" if closest else ""))
    click.echo(answer.summary)


def numbers(indices) -> str:
    """Log indices as the actions' numbers: "action 4", "actions 1, 4 and 5"."""
    shown = [str(index + 1) for index in indices]
    listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    return f"action{'s' if len(shown) > 1 else ''} {listed}"


def decision_line(decision: Decision) -> str:
    """One decision: its number in the log, the action, the chances before it, after it and
    after the best other action, and its cost when it is clear."""
    def short(chance: float | None, action: str | None) -> str:
        choice = next((c for c in decision.choices if c.action == action), None)
        if chance is None or choice is None:
            return "-"
        if choice.wins == 0:
            return "none"
        percent = round(100 * chance)
        return "<1%" if percent == 0 else ">99%" if percent == 100 and chance < 1 else f"{percent}%"

    best = decision.choices[0].action
    line = (f"{decision.index + 1:5}  {decision.action:<7} {short(decision.before, best):>5} "
            f"{short(decision.after, decision.action):>5}   {decision.better or '-':<7} "
            f"{short(decision.better_chance, decision.better):>5}")
    if decision.cost > 0:
        line += f"   cost {round(100 * decision.cost)} points"
    return line.rstrip()


class ReviewProgress(LineProgress):
    """The progress of ``review``: a line as each judgement is settled (the decisions done of
    all, then the costliest judged again, and the seconds)."""

    def step(self, stage: str, done: int, total: int) -> None:
        """``done`` of ``total`` judgements of ``stage`` are settled (the decisions, then the
        costliest judged again)."""
        what = "decisions" if stage == "decisions" else "of the costliest judged again"
        self.show(f"reviewing {self.name}: {done} of {total} {what}, {self.seconds()}")
