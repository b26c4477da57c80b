"""The paired sign test the fair hint and the review decide by: plain Python, below the
engine, so that the review can read it without loading numba.

Two actions played on the same sampled layouts are compared layout by layout: of the
layouts where they ended differently, ``further`` where the one did better and ``behind``
where the other did. :func:`clearness` is the test's statistic; a caller compares it with
its own threshold (the hint's ``OVERRULE_Z``, the review's ``CLEAR_Z``).
"""

from __future__ import annotations

import math


def clearness(further: int, behind: int) -> float:
    """The sign test's statistic: ``(further - behind) / sqrt(further + behind)`` (0 when
    the layouts show no difference)."""
    return (further - behind) / math.sqrt(further + behind) if further + behind else 0.0
