"""The board: a position you push actions on and pop them from.

This is the reference implementation of the rules of play, written to be read:
every rule is a few plain lines, undo keeps whole snapshots, nothing about a position
is cached (only immutable values are made once: deals, parsed actions, moves). The
search engine is checked against it, and every solution is replayed on it before it
is called verified. It implements RULES.md §5 Moves, RULES.md §6 Deals, RULES.md
§7 Runs and the win, RULES.md §8 Score and undo, and the helpers of RULES.md
§13 Frontend helpers.

Columns are numbered from 1, as in the notation, in every method that takes or
returns a column (``face_up(1)``, ``movable(1)``, ``targets(1, 2)``, ``Move(3, 7)``)
and in every message. Only the lists that hold the position (``columns``, ``down``,
and those of :class:`Position`) are plain Python sequences indexed from 0:
``columns[c - 1]`` is column c (RULES.md §1 Conventions).
"""

from __future__ import annotations

import numbers
import sys
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from spider_solver.errors import IllegalActionError, plural, quote, whole_number
from spider_solver.rules.cards import RANK_DISPLAY, SUIT_SYMBOLS, Card, Suit
from spider_solver.rules.codes import GameCode
from spider_solver.rules.deal import Deal
from spider_solver.rules.notation import Action, DealRow, Move, Undo, parse_action
from spider_solver.rules.variant import CLASSIC

START_SCORE = 500
RUN_BONUS = 100
DEFAULT_UNDO_LIMIT = 100
#: The longest undo history a board keeps; a larger undo limit is the same as none.
MAX_HISTORY = sys.maxsize


@dataclass(frozen=True)
class Position:
    """Everything that defines a position; what undo restores. Comparable and hashable."""

    columns: tuple[tuple[Card, ...], ...]
    #: Face-down cards per column; they are always the first ``down[c]`` cards.
    down: tuple[int, ...]
    #: Deals already made from the stock.
    dealt: int
    #: Suits of the runs removed so far, in the order they left.
    removed: tuple[Suit, ...]
    score: int
    moves: int


def check_play_options(deal_on_empty: object, undo_limit: object) -> None:
    """``ValueError`` unless ``deal_on_empty`` is a bool and ``undo_limit`` a whole
    number from 0, or None (unlimited): checked before any action, so that a log
    without an undo does not pass a limit that one with an undo would refuse."""
    if not isinstance(deal_on_empty, bool):
        raise ValueError(f"invalid deal_on_empty {quote(deal_on_empty)}: expected True or False")
    if undo_limit is not None and (isinstance(undo_limit, bool) or not isinstance(undo_limit, numbers.Integral)
                                   or undo_limit < 0):
        raise ValueError(f"invalid undo limit {quote(undo_limit)}: expected 0 or more, or None for unlimited")


#: ``Move(src, dst, count)``, made once for each (moves are immutable): the board fills a
#: group size in on most actions of a replay. At most 10 x 9 x 104 different moves.
_sized = lru_cache(maxsize=16384)(Move)


def _not_an_action(action: object) -> TypeError:
    """The error for an action that is not a Move, DealRow or Undo (a str has no ``src``)."""
    return TypeError(f"an action is a Move, DealRow or Undo, not {type(action).__name__} "
                     "(parse_action reads one from text; push_notation plays text)")


class Board:
    """A game in progress.

    ``push(action)`` plays an action or raises :class:`IllegalActionError` with the
    rule that refuses it; ``pop()`` undoes the last one. ``undo_limit`` is how many
    actions can be undone (100 in the app; ``None`` for unlimited).

    Columns are numbered from 1 to ``variant.columns``, as in the notation, in every
    method: ``face_up(c)``, ``movable(c)``, ``targets(c, n)``, the moves of
    ``legal_moves()``; a column outside that range is refused with :class:`ValueError`
    (``targets`` answers ``[]``). The attributes ``columns`` and ``down`` are the
    position's lists, indexed from 0 like any Python list: ``columns[c - 1]`` is
    column c.
    """

    def __init__(self, deal: Deal | GameCode | str, *, deal_on_empty: bool = False,
                 undo_limit: int | None = DEFAULT_UNDO_LIMIT) -> None:
        check_play_options(deal_on_empty, undo_limit)
        deal = Deal.of(deal)
        self.deal = deal
        self.variant = deal.variant
        self.deal_on_empty = deal_on_empty
        self.undo_limit = undo_limit if undo_limit is None else int(undo_limit)  # a numpy int too
        self.columns: list[list[Card]] = deal.columns()
        self.down: list[int] = [len(column) - 1 if column else 0 for column in self.columns]
        self.stock: tuple[Card, ...] = tuple(deal.stock())
        self.dealt = 0
        self.removed: list[Suit] = []
        self.score = START_SCORE
        self.moves = 0
        # A limit no game can reach (a deque holds at most sys.maxsize) is kept as no limit.
        keep = None if self.undo_limit is None or self.undo_limit > MAX_HISTORY else self.undo_limit
        self._history: deque[Position] = deque(maxlen=keep)
        #: Undos made in this game: with the counter back at 0, every action was undone.
        self._undos = 0

    # -- reading the position ------------------------------------------------

    @property
    def runs_removed(self) -> int:
        return len(self.removed)

    @property
    def deals_left(self) -> int:
        return self.variant.deals - self.dealt

    @property
    def stock_left(self) -> int:
        """Cards still in the stock."""
        return self.deals_left * self.variant.columns

    def is_won(self) -> bool:
        return self.runs_removed == self.variant.runs

    def face_up(self, column: int) -> list[Card]:
        """The face-up cards of a column (numbered from 1), from the deepest to the last."""
        c = self._index(column)
        return self.columns[c][self.down[c] :]

    def movable(self, column: int) -> int:
        """Size of the largest group that can leave a column (numbered from 1); 0 if empty.

        RULES.md §5.1 Groups.
        """
        cards = self.face_up(column)
        size = 1 if cards else 0
        while size < len(cards) and self._follows(cards[-size - 1], cards[-size]):
            size += 1
        return size

    def _index(self, column: int) -> int:
        """The list index of ``column`` (numbered from 1); refuse a column that does not exist."""
        n = self.variant.columns
        number = whole_number(column)
        if number is None or not 1 <= number <= n:
            raise ValueError(f"invalid column {quote(column)}: columns are numbered 1 to {n}")
        return number - 1

    def _follows(self, upper: Card, lower: Card) -> bool:
        """True if ``lower`` may lie on ``upper`` inside a group under this rule."""
        if lower.rank != upper.rank - 1:
            return False
        return self.variant.rule != CLASSIC or lower.suit == upper.suit

    def position(self) -> Position:
        return Position(
            columns=tuple(map(tuple, self.columns)),
            down=tuple(self.down),
            dealt=self.dealt,
            removed=tuple(self.removed),
            score=self.score,
            moves=self.moves,
        )

    def copy(self) -> Board:
        """The same position, score and counter as a new game with nothing to undo and
        undo off: for trying a line from here without touching this game."""
        other = Board(self.deal, deal_on_empty=self.deal_on_empty, undo_limit=0)
        other._restore(self.position())
        return other

    # -- checking actions ----------------------------------------------------

    def check(self, action: Action) -> Action:
        """Return the action with its group size filled in, or raise with the rule that refuses it.

        The checks and their order are RULES.md §5.4 Which rule refuses a move; the
        messages are listed in RULES.md §13.3 Rule reminders.
        """
        if isinstance(action, Move):
            return self._check_move(action)
        if isinstance(action, DealRow):
            self._check_deal()
            return action
        if isinstance(action, Undo):
            self._check_undo()
            return action
        raise _not_an_action(action)

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    def resolve(self, action: Action) -> Action:
        """Same as :meth:`check`: the action as it will be played."""
        return self.check(action)

    def _check_deal(self) -> None:
        if self.deals_left == 0:
            raise IllegalActionError("cannot deal: the stock is empty")
        if not self.deal_on_empty:
            empty = [str(c + 1) for c, column in enumerate(self.columns) if not column]
            if len(empty) == 1:
                raise IllegalActionError(f"cannot deal while column {empty[0]} is empty: put a card there first")
            if empty:
                listed = ", ".join(empty[:-1]) + " and " + empty[-1]
                raise IllegalActionError(f"cannot deal while columns {listed} are empty: put a card in each first")

    def _check_undo(self) -> None:
        if not self._history:
            if self.moves == 0:  # the counter counts the actions undo could take back
                if self._undos:
                    raise IllegalActionError("nothing to undo: every action has been undone")
                raise IllegalActionError("nothing to undo: no action has been made")
            if self.undo_limit == 0:
                raise IllegalActionError("cannot undo: undo is turned off (undo limit 0)")
            raise IllegalActionError(f"nothing more to undo: only the last {plural(self.undo_limit or 0, 'action')} "
                                     "can be undone")

    def _check_move(self, move: Move) -> Move:
        n = self.variant.columns
        if not 1 <= move.src <= n:
            raise _no_column(move, "source", move.src, n)
        if not 1 <= move.dst <= n:
            raise _no_column(move, "target", move.dst, n)
        if move.src == move.dst:
            raise IllegalActionError(f"cannot play {_shown(move)}: source and target are the same column")
        if move.count is not None and move.count < 1:
            raise IllegalActionError(f"cannot play {_shown(move)}: a group holds at least 1 card")
        src, dst = self.columns[move.src - 1], self.columns[move.dst - 1]
        if not src:
            raise IllegalActionError(f"cannot play {_shown(move)}: column {move.src} is empty")
        target = dst[-1] if dst else None
        if target is not None and target.rank == 1:
            raise IllegalActionError(
                f"cannot play {_shown(move)}: no card goes onto an ace ({target.symbol()} ends column {move.dst})"
            )
        count = move.count
        if count is None:
            if target is None:
                count = self.movable(move.src)
            else:
                count = target.rank - src[-1].rank
                if count < 1:
                    raise IllegalActionError(
                        f"cannot play {_shown(move)}: {src[-1].symbol()} cannot go onto {target.symbol()}, "
                        f"a card goes only onto a card exactly one rank higher"
                    )
        self._check_group(move, count, implicit=move.count is None)
        if target is not None and src[-count].rank != target.rank - 1:
            raise IllegalActionError(
                f"cannot play {_shown(move)}: {src[-count].symbol()} cannot go onto {target.symbol()}, "
                f"a group goes only onto a card exactly one rank higher than its first card"
            )
        return move if type(move) is Move and move.count == count else _sized(move.src, move.dst, count)

    def _check_group(self, move: Move, count: int, *, implicit: bool = False) -> None:
        """Refuse unless the last ``count`` cards of the source form a movable group.

        ``implicit`` says the count was derived from the target (``F>T`` onto a card):
        then a gap in the ranks or running out of face-up cards means that no card of
        the column that could fit there is reachable, and the message says so.
        """
        column = self.columns[move.src - 1]
        face_up = len(column) - self.down[move.src - 1]
        if implicit and (count > face_up or count > 1 and any(
            column[-i].rank != column[-i - 1].rank - 1 for i in range(1, count)
        )):
            target = self.columns[move.dst - 1][-1]
            raise IllegalActionError(
                f"cannot play {_shown(move)}: nothing in column {move.src} fits onto {target.symbol()}: "
                f"a group going there must start with a face-up {rank_name(target.rank - 1)} "
                f"and go down one rank at a time to the last card"
            )
        # Within the face-up cards, find the first pair (from the end) that breaks the group.
        for i in range(1, min(count, face_up)):
            upper, lower = column[-i - 1], column[-i]
            if lower.rank != upper.rank - 1:
                raise IllegalActionError(
                    f"cannot play {_shown(move)}: a group must go down one rank at a time: "
                    f"{lower.symbol()} lies on {upper.symbol()}"
                )
            if self.variant.rule == CLASSIC and lower.suit != upper.suit:
                raise IllegalActionError(
                    f"cannot play {_shown(move)}: under the Classic rule a group must be one suit: "
                    f"{lower.symbol()} lies on {upper.symbol()}"
                )
        if count > len(column):
            raise IllegalActionError(
                f"cannot play {_shown(move)}: column {move.src} holds only {plural(len(column), 'card')}"
            )
        if count > face_up:
            raise IllegalActionError(
                f"cannot play {_shown(move)}: face-down cards cannot be moved; column {move.src} has "
                f"{plural(face_up, 'face-up card')}"
            )

    def legal_moves(self) -> list[Action]:
        """Every legal action, group sizes filled in: moves by source then target, then the deal.

        RULES.md §13.2 Legal moves.
        """
        actions: list[Action] = []
        for s, src in enumerate(self.columns):
            if not src:
                continue
            largest = self.movable(s + 1)
            for d, dst in enumerate(self.columns):
                if d == s:
                    continue
                if not dst:
                    actions.extend(Move(s + 1, d + 1, count) for count in range(1, largest + 1))
                else:
                    count = dst[-1].rank - src[-1].rank
                    if 1 <= count <= largest:
                        actions.append(Move(s + 1, d + 1, count))
        if self.is_legal(DealRow()):
            actions.append(DealRow())
        return actions

    def targets(self, column: int, count: int) -> list[int]:
        """Columns (1-based) the group of ``count`` cards from ``column`` (1-based) may go to.

        This is the placement help a frontend highlights while a group is dragged
        (RULES.md §13.1 Placement help): exactly the columns ``d`` for which
        ``check(Move(column, d, count))`` accepts the move, ascending; ``[]`` when the
        group cannot move at all, even for a column or count out of range or not a
        whole number (``True``, ``"9"``, ``9.0``, None).
        """
        source, size = whole_number(column), whole_number(count)
        if source is None or size is None:
            return []
        return [d for d in range(1, self.variant.columns + 1) if d != source and self.is_legal(Move(source, d, size))]

    def best_move(self, column: int, count: int | None = None) -> Move | None:
        """The move auto-place (a double-click) makes with the last ``count`` cards of ``column``; or None.

        The group goes onto a card one rank higher of its first card's suit, else of
        another suit, else to an empty column (never a whole column: that changes
        nothing); the lowest-numbered column first. ``count=None`` tries the groups of
        the column from the largest down onto a card, and only then the largest onto an
        empty column. A group that cannot move, or fits nowhere, gives None. The move
        has its group size filled in, ready for :meth:`push`; its target is one of
        :meth:`targets`. RULES.md §13.6 Best column (auto-place).

        A column that does not exist, or a ``count`` that is not 1 to the number of
        cards in the column, raises :class:`ValueError`.
        """
        c = self._index(column)
        if count is None:
            largest = self.movable(column)
            whole = self.targets(column, largest)  # the largest group's targets: steps 1-2 first, step 3 last
            for size in range(largest, 0, -1):
                move = self._best_onto_card(column, size, whole if size == largest else self.targets(column, size))
                if move is not None:
                    return move
            return self._onto_empty(column, largest, whole)
        height = len(self.columns[c])
        group = whole_number(count)
        if group is None or not 1 <= group <= height:
            if not height:
                raise ValueError(f"invalid count {quote(count)}: column {column} is empty")
            cards = plural(height, "card")
            raise ValueError(f"invalid count {quote(count)}: column {column} holds {cards}, expected 1 to {height}")
        allowed = self.targets(column, group)
        move = self._best_onto_card(column, group, allowed)
        return move if move is not None else self._onto_empty(column, group, allowed)

    def best_target(self, column: int, count: int | None = None) -> int | None:
        """The column auto-place sends the group to: the target of :meth:`best_move`, or None.

        RULES.md §13.6 Best column (auto-place).
        """
        move = self.best_move(column, count)
        return None if move is None else move.dst

    def _best_onto_card(self, column: int, size: int, allowed: list[int]) -> Move | None:
        """Steps 1 and 2 of auto-place, among ``allowed`` (the group's targets): a card of the group's
        first card's suit, then any card."""
        first = self.columns[column - 1][-size]
        cards = [d for d in allowed if self.columns[d - 1]]
        same = [d for d in cards if self.columns[d - 1][-1].suit == first.suit]
        best = same or cards
        return Move(column, best[0], size) if best else None

    def _onto_empty(self, column: int, size: int, allowed: list[int]) -> Move | None:
        """Step 3 of auto-place, among ``allowed`` (the group's targets): the lowest empty column,
        unless the group is the whole column."""
        if size == 0 or size == len(self.columns[column - 1]):
            return None
        empty = [d for d in allowed if not self.columns[d - 1]]
        return Move(column, empty[0], size) if empty else None

    # -- playing -------------------------------------------------------------

    def push(self, action: Action) -> Action:
        """Play an action (``Undo`` undoes); return it as played, group size filled in.

        The steps of an action are RULES.md §5.3 After the move.
        """
        action = self.check(action)
        if isinstance(action, Undo):
            self.pop()
            return action
        if self._history.maxlen != 0:  # with undo off there is nothing to keep
            self._history.append(self.position())
        if isinstance(action, DealRow):
            for c, column in enumerate(self.columns):
                column.append(self.stock[self.dealt * self.variant.columns + c])
            self.dealt += 1
            touched: Iterable[int] = range(len(self.columns))
        else:
            assert isinstance(action, Move) and action.count is not None  # check() filled the count in
            src, dst = self.columns[action.src - 1], self.columns[action.dst - 1]
            group = src[-action.count :]
            del src[-action.count :]
            dst.extend(group)
            touched = (action.dst - 1, action.src - 1)  # the only columns that changed
        removed_now = self._remove_runs(touched)
        self._turn_up(touched)
        self.score = max(0, self.score - 1) + RUN_BONUS * removed_now
        self.moves += 1
        return action

    def play(self, action: Action) -> str:
        """Play an action, as :meth:`push`; return its canonical notation, as :meth:`notation`
        gives it before the move (one check instead of two, for replays)."""
        onto_card = self._onto_card(action)  # False for anything but a Move, which push refuses
        return _written(self.push(action), onto_card)

    def push_notation(self, text: str) -> Action:
        return self.push(self.parse_action(text))

    def pop(self) -> None:
        """Undo the last action: cards, face-down cards, removed runs, score and counter.

        RULES.md §8.2 Undo.
        """
        self._check_undo()
        self._restore(self._history.pop())
        self._undos += 1

    def _restore(self, position: Position) -> None:
        """Set the cards, face-down counts, deals, runs removed, score and counter."""
        self.columns = [list(column) for column in position.columns]
        self.down = list(position.down)
        self.dealt = position.dealt
        self.removed = list(position.removed)
        self.score = position.score
        self.moves = position.moves

    def _remove_runs(self, touched: Iterable[int]) -> int:
        """Remove every completed one-suit run (king down to ace) that ends a column
        (of the columns ``touched`` by the action, numbered from 0: no other can end in one).

        RULES.md §7 Runs and the win.
        """
        ranks = self.variant.ranks
        removed = 0
        for c in touched:
            column = self.columns[c]
            while len(column) - self.down[c] >= ranks:
                tail = column[-ranks:]
                suit = tail[0].suit
                if any(card.suit != suit or card.rank != ranks - i for i, card in enumerate(tail)):
                    break
                del column[-ranks:]
                self.removed.append(suit)
                removed += 1
        return removed

    def _turn_up(self, touched: Iterable[int]) -> None:
        """A face-down card that nothing covers turns face up (in the columns ``touched``)."""
        for c in touched:
            column = self.columns[c]
            if column and self.down[c] == len(column):
                self.down[c] -= 1

    # -- notation ------------------------------------------------------------

    def parse_action(self, text: str) -> Action:
        return parse_action(text, columns=self.variant.columns)

    def notation(self, action: Action) -> str:
        """The canonical notation of an action in this position: ``/N`` only onto an empty column.

        RULES.md §11 Action notation.
        """
        action = self.check(action)
        return _written(action, self._onto_card(action))

    def _onto_card(self, action: Action) -> bool:
        """True for a move whose target column holds a card (then its size is not written)."""
        return isinstance(action, Move) and 1 <= action.dst <= len(self.columns) and bool(
            self.columns[action.dst - 1])

    # -- text ----------------------------------------------------------------

    def describe(self) -> str:
        """The position in words, in the style of the rule pages."""
        if self.deals_left:
            stock = f"Stock: {self.stock_left} cards, {plural(self.deals_left, 'deal')} left"
        else:
            stock = "Stock: empty, no deals left"
        runs = f"{plural(self.runs_removed, 'run')} removed" if self.removed else "no run removed"
        parts = []
        for c, column in enumerate(self.columns):
            if not column:
                text = "empty"
            else:
                up = " ".join(card.symbol() for card in column[self.down[c] :])
                text = f"{self.down[c]} face down, then {up}" if self.down[c] else up
            parts.append(f"Column {c + 1}: {text}")
        return f"{stock}; {runs}. " + "; ".join(parts) + "."

    def grid(self) -> str:
        """A compact drawing: one text column per column, ``##`` for a face-down card."""
        width = 4
        lines = ["".join(f"{c + 1:>{width}}" for c in range(self.variant.columns))]
        height = max((len(column) for column in self.columns), default=0)
        for row in range(height):
            cells = []
            for c, column in enumerate(self.columns):
                if row >= len(column):
                    cells.append(" " * width)
                elif row < self.down[c]:
                    cells.append(f"{'##':>{width}}")
                else:
                    cells.append(f"{column[row].symbol():>{width}}")
            lines.append("".join(cells).rstrip())
        removed = " ".join(rank_name(self.variant.ranks) + SUIT_SYMBOLS[s] for s in self.removed) or "none"
        lines.append(
            f"stock {self.stock_left} ({plural(self.deals_left, 'deal')})  "
            f"runs removed: {removed}  "
            f"score {self.score}  moves {self.moves}"
        )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.grid()

    def __repr__(self) -> str:
        return f"<Board {self.deal.name} moves={self.moves} score={self.score} runs={self.runs_removed}>"


def rank_name(rank: int) -> str:
    return RANK_DISPLAY[rank - 1]


def _written(action: Action, onto_card: bool) -> str:
    """An action played, in canonical notation: ``/N`` only onto an empty column (RULES.md §11 Action notation)."""
    return f"{action.src}>{action.dst}" if isinstance(action, Move) and onto_card else str(action)


def _no_column(move: Move, which: str, column: int, columns: int) -> IllegalActionError:
    return IllegalActionError(
        f"cannot play {_shown(move)}: {which} column {quote(column)} does not exist (columns are 1 to {columns})")


def _shown(move: Move) -> str:
    """A refused move as its message quotes it (RULES.md §1 Conventions): its notation, cut
    to 40 characters; a number too long for Python to print is named by its size."""
    try:
        return quote(str(move))
    except ValueError:  # a number of more than 4300 digits
        count = "" if move.count is None else f"/{quote(move.count)}"
        return quote(f"{quote(move.src)}>{quote(move.dst)}{count}")
