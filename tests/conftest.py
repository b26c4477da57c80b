"""Shared test settings and the engine fixture.

Hypothesis runs under the "ci" profile unless ``HYPOTHESIS_PROFILE`` names
another: derandomized (the same examples on every run, so a red CI run is
reproducible) and with a modest number of examples, so the suite stays fast.
``HYPOTHESIS_PROFILE=dev`` explores more, with fresh random examples.

Tests come in tiers: ``tests/rules`` (the plain-Python rules engine; imports no
numba and compiles nothing), ``tests/engine`` (the numba kernels) and the rest.
Only tests that request the ``engine`` fixture (directly, or through
``pytestmark = pytest.mark.usefixtures("engine")``) compile or load the kernels.
"""

import os

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


@pytest.fixture(scope="session")
def engine() -> None:
    """Compile (first run) or load the search engine, in this process.

    Requested before any test starts worker processes: workers started with a cold
    numba cache would each compile the kernels for themselves. Under pytest-xdist
    (``-n auto``) each of its workers does this once, side by side on a cold cache.
    """
    from spider_solver.engine import warm_up

    warm_up()


@pytest.fixture
def damaged_catalog(tmp_path):
    """A catalog whose header is sound and whose pages past the first are damaged, as a
    bad disk leaves them: it opens, and fails when its rows are read."""
    from spider_solver.catalog import Catalog
    from spider_solver.rules import GameCode
    from spider_solver.verify import SolveResult

    path = tmp_path / "damaged.sqlite"
    with Catalog(path) as db:
        for n in range(300):
            db.record(SolveResult(str(GameCode(1, "classic", n)), "unknown", max_nodes=1, max_seconds=None,
                                  reason="nodes"))
    data = bytearray(path.read_bytes())
    for offset in range(4096, len(data), 97):
        data[offset] ^= 0xA5
    path.write_bytes(bytes(data))
    return path
