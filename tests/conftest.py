"""Shared test settings.

Hypothesis runs under the "ci" profile unless ``HYPOTHESIS_PROFILE`` names
another: derandomized (the same examples on every run, so a red CI run is
reproducible) and with a modest number of examples, so the suite stays fast.
``HYPOTHESIS_PROFILE=dev`` explores more, with fresh random examples.
"""

import os

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


def pytest_sessionstart(session):
    """Compile the engine once, in this process, before any test starts worker processes.

    numba caches the kernels on disk; workers started with a cold cache would each
    compile them for themselves (about 35 s each on this machine).
    """
    from spider_solver.engine import warm_up

    warm_up()
