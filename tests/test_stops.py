"""spider_solver.stops.held: a Ctrl-C or SIGTERM waits for the end of a step that must not be cut."""

from __future__ import annotations

import signal
import threading

import pytest

from spider_solver.stops import held


def handlers() -> tuple:
    return signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)


def test_a_ctrl_c_waits_for_the_end_of_the_block_and_is_then_a_keyboard_interrupt():
    events = []
    before = handlers()
    with pytest.raises(KeyboardInterrupt), held():
        signal.raise_signal(signal.SIGINT)
        events.append("step done")
    assert events == ["step done"]
    assert handlers() == before


def test_a_sigterm_reaches_the_handler_in_place_once_the_block_ends():
    events = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: events.append("handler"))
    try:
        with held():
            signal.raise_signal(signal.SIGTERM)
            events.append("step done")
        events.append("after")
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert events == ["step done", "handler", "after"]


def test_a_second_ctrl_c_stops_at_once():
    """A step that takes far longer than it should still yields to a second Ctrl-C."""
    events = []
    before = handlers()
    with pytest.raises(KeyboardInterrupt), held():
        signal.raise_signal(signal.SIGINT)
        events.append("first")
        signal.raise_signal(signal.SIGINT)
        events.append("second")
    assert events == ["first"]
    assert handlers() == before


def test_with_no_signal_the_block_runs_as_usual_and_the_handlers_are_put_back():
    before = handlers()
    with held():
        assert handlers() != before
    assert handlers() == before


def test_an_error_in_the_block_passes_through_and_the_handlers_are_put_back():
    before = handlers()
    with pytest.raises(ZeroDivisionError), held():
        raise ZeroDivisionError
    assert handlers() == before


def test_off_the_main_thread_it_holds_nothing():
    seen = []

    def step():
        before = handlers()
        with held():
            seen.append(handlers() == before)

    worker = threading.Thread(target=step)
    worker.start()
    worker.join()
    assert seen == [True]


def test_an_ignored_signal_stays_ignored():
    """The batch's workers ignore Ctrl-C (the batch decides): loading their engine must not
    give them a handler, nor raise a KeyboardInterrupt after the load."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with held():
            assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
            signal.raise_signal(signal.SIGINT)
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_only_the_stops_module_installs_signal_handlers():
    """Signal handling is installed in one module (issue 49): no other module of the package
    calls signal.signal (or reads a handler with signal.getsignal)."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parents[1] / "spider_solver"
    calls = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("signal", "getsignal") and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "signal"):
                calls.append(path.relative_to(package).as_posix())
    assert calls and set(calls) == {"stops.py"}
