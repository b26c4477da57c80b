"""The ``spider-solve`` command line.

Data goes to stdout, messages and progress to stderr. The library raises its own
exceptions (:mod:`spider_solver.errors`); this package alone turns them into
messages and exit statuses (:class:`~spider_solver.outcomes.ExitStatus`), so a
user's mistake never shows a traceback: a usage error or bad input prints one line,
``error: ...``, and at most a hint to ``--help``, with exit status 2.

====  ==============================================================
0     success: the log wins, the deal is verified, the batch ran, the
      game in progress can still be won (hint, analyze)
1     a legal log that does not win; an unwinnable deal; a game that can
      no longer be won; a failed check; a batch in which some deals got
      no result or no grade; deals ``grade`` could not grade; standard
      output closed by its reader
2     bad input: a wrong code, card, option, file, or a refused action
3     unknown: the search budget ran out
130   interrupted (Ctrl-C, SIGTERM)
====  ==============================================================

Heavy modules (numba, the engine, SQLite catalog) are imported inside the
commands that need them, so ``--help`` and ``show`` start instantly. The commands
live one concern a module: :mod:`.play` (show, replay), :mod:`.solving` (verify),
:mod:`.catalogs` (check, export, grade), :mod:`.improving` (improve: shorter lines),
:mod:`.analyzing` (hint, analyze: games in progress), :mod:`.reviewing` (review: a game's decisions);
the batch is the group's own callback below.
"""

from __future__ import annotations

# The commands register themselves on ``cli`` (spider_solver.cli.group) as they are imported.
from spider_solver.cli import analyzing, catalogs, improving, play, reviewing, serving, solving  # noqa: F401
from spider_solver.cli.group import cli, main

__all__ = ["cli", "main"]
