"""The rules tier stands alone: the reference engine imports no numpy and no numba."""

import subprocess
import sys


def test_the_rules_engine_imports_neither_numpy_nor_numba():
    code = (
        "import sys, spider_solver, spider_solver.rules, spider_solver.cli\n"
        "heavy = sorted(m for m in ('numba', 'numpy', 'spider_solver.engine') if m in sys.modules)\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ""
