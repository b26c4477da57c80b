"""Shared test settings and the engine fixture.

Hypothesis runs under the "ci" profile unless ``HYPOTHESIS_PROFILE`` names
another: derandomized (the same examples on every run, so a red CI run is
reproducible) and with a modest number of examples, so the suite stays fast.
``HYPOTHESIS_PROFILE=dev`` explores more, with fresh random examples.

Tests come in tiers: ``tests/rules`` (the plain-Python rules engine; imports no
numba and compiles nothing), ``tests/engine`` (the numba kernels) and the rest.
Only tests that request the ``engine`` fixture (directly, or through
``pytestmark = pytest.mark.usefixtures("engine")``) compile or load the kernels; those
of the fair hint, a set of their own, the ``fair_hints`` fixture.
"""

import contextlib
import fcntl
import os
import signal
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=40,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config) -> None:
    """Ctrl-C as a terminal gives it, whatever started the run: a shell without job control
    starts a background command (``cmd &`` in a script) with SIGINT ignored, which every
    process of the run, and every child a test starts, inherits; the tests of Ctrl-C then
    fail, and one waited for ever on a KeyboardInterrupt that never came. Subprocesses
    inherit the handler's reset to the default as well (``SIG_DFL`` once they exec)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def engine(tmp_path_factory) -> None:
    """Compile (first run) or load the search engine, in this process.

    Requested before any test starts worker processes: workers started with a cold
    numba cache would each compile the kernels for themselves. On a cold cache the
    engine and the grader compile side by side, once a run: under pytest-xdist
    (``-n auto``) the first worker to get here compiles both while the others wait for
    it (:func:`one_process_at_a_time`), then each loads the engine.
    """
    from spider_solver.batch.task import prepare_engine_and_grader
    from spider_solver.engine import warm_up

    with one_process_at_a_time(tmp_path_factory, "compile"):
        prepare_engine_and_grader(lambda message: None)  # the batch's compile, silent here
    warm_up()


@pytest.fixture(scope="session")
def fair_hints(tmp_path_factory) -> None:
    """Compile (first run) or load the fair hint's kernels, in this process, one process
    of the run at a time as :func:`engine` (they are a set of their own:
    ``spider_solver.analysis.fair.fair_hint_stage``)."""
    from spider_solver.analysis.fair import load_fair_hint

    with one_process_at_a_time(tmp_path_factory, "compile-fair-hint"):
        load_fair_hint()


@contextlib.contextmanager
def one_process_at_a_time(tmp_path_factory, name: str) -> Iterator[None]:
    """Held by one process at a time among those sharing the parent of their base
    temporary directories: pytest-xdist's workers of one run (and any other run of the
    same user at the same time)."""
    path = tmp_path_factory.getbasetemp().parent / f"{name}.lock"
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture
def damaged_catalog(tmp_path):
    """A catalog whose header and schema are sound and whose later pages are damaged, as a
    bad disk leaves them: it opens, and fails when its rows are read."""
    from spider_solver.catalog import Catalog
    from spider_solver.record import SolveRecord
    from spider_solver.rules import GameCode

    path = tmp_path / "damaged.sqlite"
    with Catalog(path) as db:
        db.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        # The pages of a new catalog: its header and schema (the schema outgrows the first page).
        schema_pages = db.db.execute("PRAGMA page_count").fetchone()[0]
        for n in range(300):
            db.record(SolveRecord(str(GameCode(1, "classic", n)), "unknown", max_nodes=1, max_seconds=None,
                                  reason="nodes"))
    data = bytearray(path.read_bytes())
    for offset in range(4096 * schema_pages, len(data), 97):
        data[offset] ^= 0xA5
    path.write_bytes(bytes(data))
    return path
