"""Every engine test uses the compiled kernels."""

import pytest


@pytest.fixture(autouse=True, scope="session")
def _compiled(engine: None) -> None:
    """Compile or load the kernels once, before the first engine test."""
