"""Where the JavaScript tests find Node and npm (Debian's ``nodejs`` and ``npm``; ``SPIDER_NODE``
and ``SPIDER_NPM`` name others). Without them a test skips, unless the environment variable
``CI`` is set: there a missing program is a failure (``.ci/run`` installs both), as for the
browser tests."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The rules in JavaScript: the npm package spider-solver-rules (docs/porting.md).
PACKAGE = ROOT / "spider_solver" / "js"


def program(name: str, variable: str) -> str:
    """The path of ``name`` (or of ``$variable``); skip, or fail under CI, without it."""
    found = os.environ.get(variable) or shutil.which(name)
    if found is None:
        reason = f"no {name} found (apt-get install nodejs npm)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI runs the JavaScript tests (.ci/run installs Debian's nodejs and npm)")
        pytest.skip(reason)
    return found


def node() -> str:
    return program("node", "SPIDER_NODE")


def npm() -> str:
    return program("npm", "SPIDER_NPM")
