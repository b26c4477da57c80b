"""What the local workers are doing now: one shared slot a worker, and the line that shows it.

Each local worker process owns one slot of a shared array (:class:`Slots`, lock-free:
only its worker writes a slot, the main process only reads): the deal it works on, when
it began, the nodes spent so far and the node budget. The search updates its slot
through its budget's progress hook (:class:`Meter`, once a level: a few additions a
level of thousands of nodes, no cost to the node rate). The main process reads the slots
to show the deals still searching below the bar (:class:`InFlight`). A Dask cluster's
workers have no slot: there the line shows nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from spider_solver.batch.report import short_seconds

#: The longest deal name a slot holds (a game code has 15 characters).
NAME_BYTES = 24
#: The fields of a slot: busy (1) or idle (0), start (ms since the epoch), nodes so far, node budget.
BUSY, START, NODES, BUDGET = range(4)
FIELDS = 4
#: Seconds a deal searches before the line shows it (when not few deals are left).
SHOW_AFTER = 3.0
#: Seconds between two redraws of the line on a terminal.
REDRAW = 1.0
#: Seconds between two lines written into a log file or pipe while a deal searches that long.
LOG_EVERY = 60.0


class Slots:
    """``workers`` slots in shared memory, made in the main process before the workers start
    and handed to them (picklable to a ``spawn`` child as it starts)."""

    def __init__(self, workers: int, context: Any) -> None:
        self.workers = workers
        self.numbers = context.RawArray("q", workers * FIELDS)
        self.names = context.RawArray("c", workers * NAME_BYTES)
        self.claimed = context.Value("i", 0)

    def claim(self) -> int | None:
        """The slot of this worker (called once, as it starts); None if none is left."""
        with self.claimed.get_lock():
            index = self.claimed.value
            self.claimed.value += 1
        return index if index < self.workers else None

    def read(self) -> list[tuple[str, float, int, int]]:
        """The busy slots: (name, started at (epoch seconds), nodes so far, node budget; 0 when the work
        counts no nodes)."""
        busy = []
        for index in range(self.workers):
            at = index * FIELDS
            if self.numbers[at + BUSY]:
                name = bytes(self.names[index * NAME_BYTES:(index + 1) * NAME_BYTES]).rstrip(b"\0")
                busy.append((name.decode("ascii", "replace"), self.numbers[at + START] / 1000.0,
                             int(self.numbers[at + NODES]), int(self.numbers[at + BUDGET])))
        return busy


class Meter:
    """A worker's slot as a search's progress hook (:class:`spider_solver.budget.Progress`):
    ``update(nodes)`` adds the nodes spent."""

    def __init__(self, slots: Slots, index: int) -> None:
        self.slots, self.at = slots, index * FIELDS
        self.index = index
        self.n = 0.0
        self.total: float | None = None

    def begin(self, name: str, budget: int) -> None:
        numbers = self.slots.numbers
        numbers[self.at + BUSY] = 0
        encoded = name.encode("ascii", "replace")[:NAME_BYTES].ljust(NAME_BYTES, b"\0")
        self.slots.names[self.index * NAME_BYTES:(self.index + 1) * NAME_BYTES] = encoded
        numbers[self.at + START] = int(time.time() * 1000)
        numbers[self.at + NODES] = 0
        numbers[self.at + BUDGET] = budget
        numbers[self.at + BUSY] = 1
        self.n, self.total = 0.0, float(budget) if budget else None

    def update(self, n: float = 1) -> None:
        self.n += n
        self.slots.numbers[self.at + NODES] = int(self.n)

    def end(self) -> None:
        self.slots.numbers[self.at + BUSY] = 0
        self.total = None


#: This worker's meter (set as it starts, :func:`attach`), or None (the main process, a cluster's worker).
_meter: Meter | None = None


def attach(slots: Slots | None) -> None:
    """Claim this worker's slot (in a local worker's initializer)."""
    global _meter
    index = None if slots is None else slots.claim()
    _meter = None if slots is None or index is None else Meter(slots, index)


def meter() -> Meter | None:
    """This worker's meter, for a job to give its search (None outside a local worker)."""
    return _meter


Result = TypeVar("Result")


def tracked(function: Callable[..., Result], name: str, budget: int, *arguments: Any) -> Result:
    """Run ``function(*arguments)`` in a worker with its slot showing ``name`` and ``budget``
    (0: the work counts no nodes, as grading)."""
    if _meter is None:
        return function(*arguments)
    _meter.begin(name, budget)
    try:
        return function(*arguments)
    finally:
        _meter.end()


def nodes_words(nodes: int) -> str:
    """123456789 -> "123M", 5200 -> "5.2k"."""
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if nodes >= scale:
            value = nodes / scale
            return f"{value:.0f}{suffix}" if value >= 10 else f"{value:.1f}{suffix}"
    return str(nodes)


@dataclass(frozen=True)
class Searching:
    """A deal in flight: its name, seconds so far, nodes so far and budget (0: no nodes counted)."""

    name: str
    seconds: float
    nodes: int
    budget: int

    def most_left(self) -> float | None:
        """The seconds it may still take: its budget's nodes left at its node rate so far (None
        while no rate is known, or for work that counts no nodes)."""
        if not self.budget or self.nodes <= 0 or self.seconds <= 0:
            return None
        return max(0, self.budget - self.nodes) * self.seconds / self.nodes

    def words(self) -> str:
        text = f"{self.name} {short_seconds(self.seconds)}"
        if self.budget:
            text += f", {nodes_words(self.nodes)} of {nodes_words(self.budget)} nodes"
        return text


def searching(slots: Slots | None, *, now: float | None = None) -> list[Searching]:
    """The deals in flight on the local workers, longest first (none on a cluster)."""
    if slots is None:
        return []
    now = time.time() if now is None else now
    found = [Searching(name, max(0.0, now - start), nodes, budget) for name, start, nodes, budget in slots.read()]
    return sorted(found, key=lambda one: -one.seconds)


def status_line(deals: Iterable[Searching], *, few_left: bool, verb: str = "searching") -> str:
    """The line below the bar: the deals in flight that have searched for more than
    :data:`SHOW_AFTER` seconds (all of them when ``few_left``), or "" when none."""
    shown = [deal for deal in deals if few_left or deal.seconds >= SHOW_AFTER]
    if not shown:
        return ""
    return f"{verb}: " + "; ".join(deal.words() for deal in shown)


def most_left(deals: Iterable[Searching]) -> float | None:
    """The longest any deal in flight may still take (:meth:`Searching.most_left`), or None."""
    bounds = [bound for bound in (deal.most_left() for deal in deals) if bound is not None]
    return max(bounds) if bounds else None


class StatusLine:
    """The deals in flight below a batch's bar, redrawn every :data:`REDRAW` seconds on a
    terminal; into a log file or pipe (no bar there), a line every :data:`LOG_EVERY` seconds
    while a deal has searched that long. While a deal in flight may search for longer than
    the bar's estimate, the bar's ETA is that deal's bound instead (:meth:`Searching.most_left`)."""

    def __init__(self, bar: Any, slots: Slots | None, *, terminal: bool, write: Callable[[str], None],
                 verb: str = "searching") -> None:
        self.bar, self.slots, self.write, self.verb = bar, slots, write, verb
        self.terminal = terminal and slots is not None and not getattr(bar, "disable", True)
        self.line: Any = None
        if self.terminal:
            from tqdm import tqdm

            self.line = tqdm(total=0, position=1, bar_format="{desc}", file=bar.fp, leave=False,
                             dynamic_ncols=True)
        self.format = getattr(bar, "bar_format", None)
        self.drawn = self.logged = time.monotonic()

    def tick(self, left: int, *, force: bool = False) -> None:
        """Redraw if it is time; ``left`` deals are not finished yet."""
        now = time.monotonic()
        if self.slots is None or (not force and now - self.drawn < REDRAW):
            return
        self.drawn = now
        deals = searching(self.slots)
        text = status_line(deals, few_left=0 < left <= self.slots.workers, verb=self.verb)
        if self.line is not None:
            self.line.set_description_str(text, refresh=True)
            self._eta([deal for deal in deals if deal.seconds >= SHOW_AFTER], left)
        elif now - self.logged >= LOG_EVERY and any(deal.seconds >= LOG_EVERY for deal in deals):
            self.logged = now
            self.write(text)

    def _eta(self, deals: list[Searching], left: int) -> None:
        bound = most_left(deals)
        figures = self.bar.format_dict
        done, elapsed = figures.get("n") or 0, figures.get("elapsed") or 0.0
        estimate = left * elapsed / done if done and elapsed else None
        if bound is not None and (estimate is None or bound > estimate):
            self.bar.bar_format = ("{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}, up to " + short_seconds(bound)
                                   + " left, {rate_fmt}{postfix}]")
        else:
            self.bar.bar_format = self.format
        self.bar.refresh()

    def close(self) -> None:
        if self.line is not None:
            self.line.close()
            self.line = None


__all__ = ["Meter", "Searching", "Slots", "attach", "meter", "most_left", "nodes_words", "searching",
           "status_line", "StatusLine", "tracked"]
