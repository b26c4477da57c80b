"""The local pool's stop (spider_solver/batch/pools.py)."""

from __future__ import annotations

import time

from spider_solver.batch.pools import local_pool


def test_a_stopped_pool_has_ended_its_executors_thread_as_stop_returns():
    """Stop kills the workers and returns once the executor's manager thread has ended:
    left running, it closes its wake-up pipe while Python 3.11's exit writes to it, and a
    stopped command printed that OSError's traceback (Bad file descriptor) on its way out."""
    pool = local_pool(1)
    future = pool.executor.submit(time.sleep, 60)
    manager = pool.executor._executor_manager_thread  # type: ignore[attr-defined]
    deadline = time.monotonic() + 60
    while not future.running() and time.monotonic() < deadline:  # the worker has started the job
        time.sleep(0.05)
    assert future.running() and manager is not None and manager.is_alive()
    pool.stop()
    assert not manager.is_alive()
    assert pool.workers() == []
