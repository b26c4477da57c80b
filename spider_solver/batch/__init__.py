"""The batch runner behind ``spider-solve --suits K --count N``.

The deals of a batch are chosen by :meth:`Catalog.plan` (resume rules in
:mod:`spider_solver.catalog`), solved in worker processes, and written to the
catalog by this process one result at a time, as each arrives.

One module a concern:

* :mod:`~spider_solver.batch.task`: what runs in a worker (:class:`Task`, the solve task);
* :mod:`~spider_solver.batch.pools`: the executors, local ``spawn`` processes or a Dask
  cluster, behind one :class:`Pool`;
* :mod:`~spider_solver.batch.signals`: Ctrl-C and SIGTERM as a stop request;
* :mod:`~spider_solver.batch.report`: the figures and the summary table;
* :mod:`~spider_solver.batch.run`: :class:`Options` and the loop, :func:`run_batch`;
* :mod:`~spider_solver.batch.grading`: ``spider-solve grade`` on the workers, :func:`grade_all`.

Options arrive checked and normalised (the command line's parameter types do that,
in one place); this package does not check them again.
"""

from spider_solver.batch.report import Report
from spider_solver.batch.run import Options, run_batch
from spider_solver.batch.task import SOLVE, Task

__all__ = ["Options", "Report", "SOLVE", "Task", "run_batch"]
