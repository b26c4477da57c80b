"""What runs in a worker: a :class:`Task`, and the one the batch runs, :data:`SOLVE`."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from spider_solver.grading import Grade
    from spider_solver.record import SolveRecord
    from spider_solver.rules import Deal


class Graded(NamedTuple):
    """What a grading job sends back: the deal's grade (with the seconds it took), or why
    there is none (``error``: the grader cannot grade this variant, or its worker failed)."""

    grade: Grade | None
    error: str | None = None


@dataclass(frozen=True)
class Task:
    """The work a batch does on each deal, and how to get ready for it.

    ``run(code, max_nodes, max_seconds)`` runs in the workers and returns the deal's
    :class:`~spider_solver.record.SolveRecord`; ``grade(code)``,
    if given, runs in the workers too, on each deal ``run`` verified, and returns its
    :class:`Graded`; ``prepare(say)`` runs once in the main process before the workers
    start; ``warm()`` runs in each local worker as it starts. All must be top-level
    functions (picklable).
    """

    run: Callable[[str, int, float | None], SolveRecord]
    prepare: Callable[[Callable[[str], None]], None] | None = None
    warm: Callable[[], None] | None = None
    grade: Callable[[str], Graded] | None = None


def solve_deal(deal: str | Deal, max_nodes: int, max_seconds: float | None, *,
               deal_on_empty: bool = False) -> SolveRecord:
    """Solve one deal: its record as a worker sends it back, without the per-attempt
    figures but those of the proof of an unwinnable deal (``SolveRecord.proof``), with the
    worker's ``solver_version`` (a cluster may run another version than this machine)."""
    from dataclasses import replace

    from spider_solver.batch.inflight import meter
    from spider_solver.verify import solve

    record = solve(deal, max_nodes=max_nodes, max_seconds=max_seconds, deal_on_empty=deal_on_empty, meter=meter())
    proof = record.proof
    return replace(record, attempts=() if proof is None else (proof,))


def grade_deal(code: str) -> Graded:
    """Grade one verified deal (:func:`spider_solver.grading.grade`). A grader that cannot
    grade (no boundaries for this variant: ``Graded.error``) leaves the deal ungraded;
    ``spider-solve grade`` grades it later."""
    from spider_solver.errors import SpiderError
    from spider_solver.grading import grade

    try:
        return Graded(grade(code))
    except SpiderError as error:
        return Graded(None, str(error))


def prepare_engine(say: Callable[[str], None]) -> None:
    """Compile the engine once, before the workers start: they then load it.

    Without this, every worker of a fresh install would compile it for itself. This
    process does not search, so it only sees that the cache holds the engine.
    """
    from spider_solver.verify import load_engine

    load_engine(say, here=False)


def warm_engine() -> None:
    """Load the compiled engine (numba's on-disk cache) in a worker as it starts, so
    that the loading is not counted in its first deal's seconds."""
    from spider_solver.verify import load_engine

    with contextlib.suppress(Exception):  # the real deals will report whatever is wrong
        load_engine()


def prepare_grader(say: Callable[[str], None]) -> None:
    """Compile the grader's kernel here, once, before the workers start, if it is not
    compiled yet (the workers load it themselves as they start: :func:`warm_grader`)."""
    from spider_solver.grading import load_grader

    load_grader(say, here=False)


def warm_grader() -> None:
    """Load the compiled grader in a worker as it starts."""
    from spider_solver.grading import load_grader

    with contextlib.suppress(Exception):  # the real deals will report whatever is wrong
        load_grader()


def prepare_engine_and_grader(say: Callable[[str], None]) -> None:
    """:func:`prepare_engine` and :func:`prepare_grader`, compiling side by side on a
    machine with two cores."""
    from spider_solver.engine import load_stages
    from spider_solver.grading import grader_stage
    from spider_solver.verify import engine_stage

    load_stages([engine_stage(), grader_stage()], say=say, here=False)


def warm_engine_and_grader() -> None:
    warm_engine()
    warm_grader()


#: The batch's task with ``--no-grade``: solve and verify each deal.
SOLVE = Task(run=solve_deal, prepare=prepare_engine, warm=warm_engine)
#: The batch's default task: solve and verify each deal, and grade the verified ones.
SOLVE_AND_GRADE = Task(run=solve_deal, prepare=prepare_engine_and_grader, warm=warm_engine_and_grader,
                       grade=grade_deal)

__all__ = ["SOLVE", "SOLVE_AND_GRADE", "Task", "grade_deal", "prepare_grader", "solve_deal", "warm_grader"]
