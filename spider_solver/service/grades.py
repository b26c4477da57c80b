"""Grading, in the background, the verified deals the service records.

``POST /v1/verify`` writes a new verified deal to the catalog and hands its code to the
:class:`Grader`, then answers at once. The grader grades it with the batch's grader
(:func:`spider_solver.batch.task.grade_deal`, :func:`spider_solver.grading.grade`) in the
solver pool and writes the grade through the catalog's writer, so that
``/v1/catalog/random?difficulty=`` can pick the deal and ``GET /v1/deals/{code}`` shows
its grade.

Bounded: one grading job at a time in the solver pool (a search waits at most one grade
for a process), outside the search slots (a grade never makes a request 503), and at most
:data:`GRADE_BACKLOG` deals waiting; a deal beyond them, or one whose grading a stop or a
dead solver cut, stays ungraded (the log says so), for ``spider-solve grade`` or the next
batch over its range.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque

from spider_solver.batch.task import grade_deal
from spider_solver.errors import CatalogError
from spider_solver.service.searches import Searches, SolverFailed, Stopping
from spider_solver.service.state import CatalogWriter

log = logging.getLogger("spider_solver.service")

#: The most verified deals that may wait for their grade.
GRADE_BACKLOG = 256


class Grader:
    """The verified deals waiting for their grade, and the task that grades them one at a time."""

    def __init__(self, searches: Searches, writer: CatalogWriter, backlog: int = GRADE_BACKLOG) -> None:
        self._searches = searches
        self._writer = writer
        self._backlog = backlog
        self._waiting: deque[str] = deque()
        self._current: str | None = None
        self._task: asyncio.Task | None = None
        #: Grades written since the server started.
        self.graded = 0

    def add(self, code: str) -> None:
        """Grade ``code`` (a verified row without a grade) when its turn comes; on the event loop."""
        if code == self._current or code in self._waiting:
            return
        if len(self._waiting) >= self._backlog:
            log.warning("%s stays ungraded: %d deals wait for their grade already", code, len(self._waiting))
            return
        self._waiting.append(code)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    @property
    def idle(self) -> bool:
        """No deal waits for its grade, none is being graded."""
        return not self._waiting and (self._task is None or self._task.done())

    async def _run(self) -> None:
        while self._waiting:
            code = self._current = self._waiting.popleft()
            try:
                graded = await self._searches.background(grade_deal, code)
                if graded.grade is None:
                    log.warning("%s stays ungraded: %s", code, graded.error)
                else:
                    await self._writer.set_grade(code, graded.grade.to_dict())  # the catalog stores its plain form
                    self.graded += 1
            except Stopping:
                return
            except (SolverFailed, CatalogError) as error:
                log.warning("%s stays ungraded: %s", code, error)
            except Exception as error:  # the job's own failure (a bug): the other deals are still graded
                log.warning("%s stays ungraded: %s: %s", code, type(error).__name__, error)
            finally:
                self._current = None

    async def close(self) -> None:
        """Stop grading (the server stops): the deals waiting stay ungraded."""
        self._waiting.clear()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task


__all__ = ["GRADE_BACKLOG", "Grader"]
