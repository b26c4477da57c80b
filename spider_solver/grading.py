"""Deal difficulty: how a person fares, as a grade from 1 (very easy) to 5 (very hard).

``grade(deal)`` has the fair player (:mod:`spider_solver.engine.fair`) play ``GAMES``
games of the deal, seeing only what a person sees, and sums them up in a raw figure,
the *difficulty raw* from 0 (every game won) to 100 (no game got anywhere):

    progress of a game = 1 if won, else (runs removed / runs + cards turned up /
                         face-down cards at the start) / 2, at most 0.95
    raw = 100 * (1 - mean progress)

so that deals the player rarely wins (4 suits) are still told apart by how far it
gets. The same figure at every suit count (chosen among the figures of the player's games
at 1 suit, benchmarks/choose_figure.py). In the standard 1-suit game the player plays
with parameters of its own (:func:`player_of`: no look-ahead, cards turned up first),
chosen against a casual player's progress on tuning deals (benchmarks/choose_player.py),
never against the reference player that validates the grades (benchmarks/HISTORY.md,
"The grader: games and calibration").

The grade is the raw figure placed among four boundaries per suit count and
rule, calibrated so that each grade holds about a fifth of the calibration deals
(``data/make_difficulty.py``; the boundaries ship in ``spider_solver/difficulty.json``).

Seeded and deterministic: game g of a deal plays with noise seeded from SplitMix64
(RULES.md §9.1 From deal number to cards) started at a digest of the deal's cards and variant mixed with
``seed``; the same deal, seed and ``GRADER_VERSION`` give the same figure on every
machine. Changing the player, its parameters, ``GAMES`` or the raw figure's recipe
must change ``GRADER_VERSION`` and recalibrate. The mean is taken exactly (rationals
from the games' integer counts), so the figure does not depend on the order in which
floating-point numbers are summed.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from importlib import resources

import numpy as np

from spider_solver.errors import InvalidGradeError, InvalidOptionError, quote, whole_number
from spider_solver.record import GRADES as GRADE_RANGE
from spider_solver.rules import CLASSIC, Deal, GameCode, Variant
from spider_solver.rules.board import check_play_options
from spider_solver.rules.codes import MASK64, splitmix64

#: The grader's version: stored with every grade; a catalog row graded by another
#: version is regraded by ``spider-solve grade``.
GRADER_VERSION = "fair-6"
#: Games the fair player plays per deal, by suit count: enough that another seed gives
#: the same grade for most deals (benchmarks/HISTORY.md, "The grader: games and calibration").
GAMES = {1: 384, 2: 256, 4: 256}
#: The default seed (mixed with a digest of the deal).
GRADE_SEED = 0x5350_4731
#: Grades: 1 very easy .. 5 very hard (the range the record checks).
GRADES = tuple(range(GRADE_RANGE[0], GRADE_RANGE[1] + 1))
GRADE_NAMES = {1: "very easy", 2: "easy", 3: "medium", 4: "hard", 5: "very hard"}
#: A game that is not won counts at most this much progress.
MAX_LOST_PROGRESS = 0.95
#: The package file that holds the boundaries.
BOUNDARIES_FILE = "difficulty.json"


@dataclass(frozen=True)
class Play:
    """The fair player's games of one deal: one row per game."""

    won: np.ndarray  # int64[games], 1 if won
    removed: np.ndarray  # runs removed
    turned: np.ndarray  # cards turned up
    dealt: np.ndarray  # deals made
    actions: np.ndarray  # actions played
    runs: int  # runs of a win
    down: int  # face-down cards at the start
    seconds: float

    @property
    def games(self) -> int:
        return int(self.won.shape[0])

    def progress(self) -> np.ndarray:
        """Each game's progress from 0 to 1 (1 only for a win)."""
        lost = 0.5 * self.removed / self.runs + (0.5 * self.turned / self.down if self.down else 0.5)
        return np.where(self.won == 1, 1.0, np.minimum(lost, MAX_LOST_PROGRESS))

    def raw(self) -> float:
        """The raw difficulty, 0 to 100, rounded to 0.01 (what the catalog stores).

        Computed exactly, in rationals from the games' integer counts, and rounded half to
        even once at the end: no floating-point summation order (numpy's pairwise sums,
        SIMD width) can change it from one machine to another."""
        cap = Fraction(MAX_LOST_PROGRESS).limit_denominator(1000)
        total = Fraction(0)
        for won, removed, turned in zip(self.won.tolist(), self.removed.tolist(), self.turned.tolist(), strict=True):
            if won == 1:
                total += 1
                continue
            lost = Fraction(removed, 2 * self.runs) + (Fraction(turned, 2 * self.down) if self.down else Fraction(1, 2))
            total += min(lost, cap)
        return float(round(100 * (1 - total / self.games), 2))

    def win_rate(self) -> float:
        return int(np.sum(self.won)) / self.games  # an integer count over games: exact


@dataclass(frozen=True)
class Grade:
    """A deal's difficulty: ``grade`` 1..5, the ``raw`` figure behind it, the grader's ``version``."""

    grade: int
    raw: float
    version: str
    win_rate: float
    #: How long the grading took: not part of what two grades compare.
    seconds: float = field(compare=False)

    @property
    def name(self) -> str:
        return GRADE_NAMES[self.grade]

    def to_dict(self) -> dict:
        return {"difficulty": self.grade, "difficulty_raw": self.raw, "grader_version": self.version}


def deal_digest(deal: Deal) -> int:
    """64 bits of SHA-256 of the deal's cards and variant: what seeds its games."""
    variant = deal.variant
    text = f"{variant.suits} {variant.rule} {variant.columns} {variant.ranks} {deal.text()}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")


def game_seeds(deal: Deal, seed: int, games: int) -> np.ndarray:
    """The noise seed of each game: SplitMix64 outputs from the deal's digest XOR ``seed``."""
    stream = splitmix64((deal_digest(deal) ^ seed) & MASK64)
    return np.array([next(stream) for _ in range(games)], dtype=np.uint64)


def games_of(variant: Variant) -> int:
    """The games played per deal of ``variant`` (shrunken variants: as many as 4 suits)."""
    return GAMES.get(variant.suits, GAMES[4])


def player_of(variant: Variant) -> tuple[np.ndarray, np.ndarray]:
    """The fair player's weights and parameters for ``variant``: in the standard 1-suit game
    its own (``ONE_SUIT_WEIGHTS``, ``ONE_SUIT_PARAMS``: no look-ahead, cards turned up
    first), at 2 and 4 suits and in shrunken variants the defaults (``FAIR_WEIGHTS``,
    ``FAIR_PARAMS``)."""
    from spider_solver.engine.fair import FAIR_PARAMS, FAIR_WEIGHTS, ONE_SUIT_PARAMS, ONE_SUIT_WEIGHTS

    if variant.suits == 1 and variant.is_standard:
        return ONE_SUIT_WEIGHTS, ONE_SUIT_PARAMS
    return FAIR_WEIGHTS, FAIR_PARAMS


def play(deal: Deal, *, seed: int = GRADE_SEED, games: int | None = None, trace: int = 0,
         deal_on_empty: bool = False, seeds: np.ndarray | None = None,
         player: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[Play, np.ndarray]:
    """Let the fair player play ``games`` games of ``deal``; also the first ``trace``
    actions of each game (move codes, -1 past the end). ``seeds`` gives each game's
    noise seed outright (tests: two deals played with the same noise); ``player`` its
    weights and parameters outright (default :func:`player_of`; benchmarks: candidate
    players)."""
    from spider_solver.engine.cache import require_jit
    from spider_solver.engine.fair import (
        G_ACTIONS,
        G_DEALT,
        G_REMOVED,
        G_TURNED,
        G_WON,
        GAME_FIELDS,
        play_fair,
    )
    from spider_solver.engine.game import Game

    require_jit()

    games = games_of(deal.variant) if games is None else games
    if games < 1:
        raise ValueError(f"invalid games {games!r}: expected 1 or more")
    game = Game.from_deal(deal, deal_on_empty=deal_on_empty)
    seeds = game_seeds(deal, seed, games) if seeds is None else np.asarray(seeds, dtype=np.uint64)
    games = int(seeds.shape[0])
    results = np.zeros((games, GAME_FIELDS), dtype=np.int64)
    moves = np.zeros((games, trace), dtype=np.int64)
    weights, params = player_of(deal.variant) if player is None else player
    began = time.perf_counter()
    play_fair(game.start, game.start_key, game.tables, weights, params, seeds, results, moves)
    seconds = time.perf_counter() - began
    down = sum(max(len(column) - 1, 0) for column in deal.columns())
    return Play(results[:, G_WON], results[:, G_REMOVED], results[:, G_TURNED], results[:, G_DEALT],
                results[:, G_ACTIONS], deal.variant.runs, down, seconds), moves


# -- Boundaries ---------------------------------------------------------------------------


#: What a command says before the fair player's kernel compiles (once an install).
COMPILE_MESSAGE = "compiling the grader once for this install (a minute or two); later runs start at once..."


def grader_stage():
    """The fair player's kernels as a :class:`~spider_solver.engine.Stage` of
    :func:`~spider_solver.engine.load_stages`."""
    from spider_solver.engine import FAIR_KERNELS, Stage

    return Stage(_play_once, True, "the grader", COMPILE_MESSAGE, FAIR_KERNELS)


def load_grader(say: Callable[[str], None] | None = None, *, here: bool = True) -> None:
    """Compile the fair player (first use of an install) or load it from numba's cache,
    by playing one game of a small deal. With ``say``, a compile is announced through it
    and runs in a child process that a Ctrl-C stops at once, and ``here=False`` only sees
    that the cache holds it, as :func:`spider_solver.verify.load_engine`."""
    from spider_solver.engine import load_stages

    load_stages([grader_stage()], say=say, here=here)


def _play_once() -> None:
    """One game of a small deal: every kernel of the fair player compiled or loaded."""
    from spider_solver.engine import WARM_UP_CODE

    play(Deal.from_code(WARM_UP_CODE), games=1)


def variant_key(suits: int, rule: str) -> str:
    """The boundaries' key of a suit count and rule: ``"4-classic"`` (one suit is always classic)."""
    return f"{suits}-{CLASSIC if suits == 1 else rule}"


@lru_cache(maxsize=1)
def load_boundaries() -> dict:
    """The shipped boundaries file: ``{"version", "games", "boundaries": {key: [b1, b2, b3, b4]}, ...}``."""
    text = resources.files("spider_solver").joinpath(BOUNDARIES_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    check_boundaries(data)
    return data


def check_boundaries(data: dict) -> None:
    """Refuse boundaries that are not four increasing numbers per variant, or of another version."""
    if data.get("version") != GRADER_VERSION:
        raise InvalidGradeError(
            f"difficulty boundaries are of grader version {data.get('version')!r}, expected {GRADER_VERSION!r}:"
            " run data/make_difficulty.py"
        )
    for key, cuts in data.get("boundaries", {}).items():
        if len(cuts) != len(GRADES) - 1 or any(b <= a for a, b in zip(cuts, cuts[1:], strict=False)):
            raise InvalidGradeError(f"difficulty boundaries of {key!r} are not four increasing numbers: {cuts!r}")


def grade_of(raw: float, variant: Variant) -> int:
    """The grade of a raw figure for ``variant``: 1 + how many boundaries it is above."""
    key = variant_key(variant.suits, variant.rule)
    table = load_boundaries()["boundaries"]
    if not variant.is_standard:
        raise InvalidGradeError(f"no difficulty grade for {variant}: grades are for the standard game only")
    if key not in table:
        raise InvalidGradeError(f"no difficulty boundaries for {variant} in this release (data/make_difficulty.py)")
    return 1 + sum(1 for cut in table[key] if raw > cut)


def grade(deal: Deal | GameCode | str, *, seed: int = GRADE_SEED, deal_on_empty: bool = False) -> Grade:
    """The difficulty of ``deal`` for a person: grade 1..5 and the raw figure behind it.

    ``seed`` (a whole number from 0 to 2**64 - 1: the noise's seeds are 64 bits) varies the
    fair player's noise; the catalog's grades use :data:`GRADE_SEED`. ``deal_on_empty`` is
    RULES.md §6 Deals' option, a bool."""
    check_play_options(deal_on_empty, None)
    number = whole_number(seed)
    if number is None or not 0 <= number <= MASK64:
        raise InvalidOptionError(f"invalid seed {quote(seed)}: expected a whole number from 0 to 2**64 - 1")
    if not isinstance(deal, Deal):
        deal = Deal.from_code(deal)
    figures, _ = play(deal, seed=number, deal_on_empty=deal_on_empty)
    raw = figures.raw()
    return Grade(grade_of(raw, deal.variant), raw, GRADER_VERSION, figures.win_rate(), figures.seconds)


__all__ = [
    "GAMES", "GRADER_VERSION", "games_of", "GRADES", "GRADE_NAMES", "GRADE_SEED", "Grade", "InvalidGradeError", "Play",
    "COMPILE_MESSAGE", "deal_digest", "game_seeds", "grade", "grade_of", "grader_stage", "load_boundaries",
    "load_grader", "play", "variant_key",
]
