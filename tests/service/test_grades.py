"""The service's background grader: one grading job at a time, a bounded backlog, a stop."""

from __future__ import annotations

import asyncio
import logging

import pytest

pytest.importorskip("fastapi")

from spider_solver.batch.task import Graded  # noqa: E402
from spider_solver.grading import Grade  # noqa: E402
from spider_solver.service.grades import Grader  # noqa: E402
from spider_solver.service.searches import Stopping  # noqa: E402


class StandInPool:
    """``Searches.background`` as the grader calls it: each job waits for ``release``."""

    def __init__(self, stop_at: str | None = None) -> None:
        self.running = self.most = 0
        self.jobs: list[str] = []
        self.release = asyncio.Event()
        self.stop_at = stop_at

    async def background(self, job, code):
        self.jobs.append(code)
        if code == self.stop_at:
            raise Stopping
        self.running += 1
        self.most = max(self.most, self.running)
        await self.release.wait()
        self.running -= 1
        return Graded(Grade(grade=3, raw=40.0, version="stand-in", win_rate=0.5, seconds=0.1))


class StandInWriter:
    def __init__(self) -> None:
        self.grades: dict[str, dict] = {}

    async def set_grade(self, code, grade):
        self.grades[code] = grade
        return True


def test_one_grade_at_a_time_and_a_bounded_backlog(caplog):
    async def scenario() -> tuple[StandInPool, StandInWriter, Grader]:
        pool, writer = StandInPool(), StandInWriter()
        grader = Grader(pool, writer, backlog=3)  # type: ignore[arg-type]
        for code in ["A", "B", "B", "C", "D", "E"]:
            grader.add(code)
        await asyncio.sleep(0.01)
        assert pool.jobs == ["A"] and not grader.idle  # A runs; B and C wait; D and E were left out
        pool.release.set()
        while not grader.idle:
            await asyncio.sleep(0.01)
        return pool, writer, grader

    with caplog.at_level(logging.WARNING, logger="spider_solver.service"):
        pool, writer, grader = asyncio.run(scenario())
    assert pool.jobs == ["A", "B", "C"] and pool.most == 1
    assert set(writer.grades) == {"A", "B", "C"} and grader.graded == 3
    assert "D stays ungraded: 3 deals wait for their grade already" in caplog.text
    assert "E stays ungraded" in caplog.text


def test_a_stop_ends_the_grading_and_leaves_the_rest_ungraded():
    async def scenario() -> tuple[StandInPool, StandInWriter, Grader]:
        pool, writer = StandInPool(stop_at="B"), StandInWriter()
        pool.release.set()
        grader = Grader(pool, writer)  # type: ignore[arg-type]
        for code in ["A", "B", "C"]:
            grader.add(code)
        while not grader.idle and pool.jobs[-1:] != ["B"]:
            await asyncio.sleep(0.01)
        await grader.close()
        return pool, writer, grader

    pool, writer, grader = asyncio.run(scenario())
    assert pool.jobs == ["A", "B"] and set(writer.grades) == {"A"} and grader.idle
