"""A human-like reference player, to validate the difficulty grades (never to calibrate them).

Usage::

    python benchmarks/reference_player.py --suits 1 --first 50000 --count 80 [--games 5] [--json out.json]

It is written apart from the grader's fair player (``spider_solver/engine/fair.py``) and
plays another policy, in plain Python, as a casual person would:

* it sees only the face-up cards, how many cards lie face down in each column, the runs
  removed and the deals left (a card that a move turns up is valued as "a card turned up"
  and not looked at until the move is played);
* it values a position by a score a person can see: runs removed, cards turned up, empty
  columns, same-suit sequences and, less, sequences of mixed suits, a king at the base of a
  column; and looks two moves ahead: a move is worth its own change of that score plus the
  best change of a second move over the columns it touched (not past a card it turns up);
* it never returns to a position of this game; with nothing that raises the score it plays
  at most ``SHUFFLES`` neutral moves in a row, then deals (filling an empty column first if
  one forbids the deal), and stops when nothing helps and the stock is empty;
* ties are broken at random, seeded per deal and game (SplitMix64 of the deal number, the
  suit count and the game), so that its games are deterministic.

Its moves are kept in notation and every game is replayed by the rules engine
(``spider_solver.rules.replay``), which gives the runs removed and the cards turned up: a
move the rules refuse is an error. A game's progress is 1 if won, else the mean of runs
removed / 8 and cards turned up / 44; a deal's progress is the mean over its games.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from spider_solver.rules import Deal, GameCode  # noqa: E402
from spider_solver.rules.codes import MASK64, splitmix64  # noqa: E402
from spider_solver.rules.replay import replay_board  # noqa: E402

#: The score of what a person sees (see :func:`column_score`).
RUN = 200  # a run removed
DOWN = 14  # a face-down card (turning one up gains this)
EMPTY = 9  # an empty column
SAME = 5  # two adjacent face-up cards one rank apart and of one suit
MIXED = 2  # ... one rank apart, two suits
KING_BASE = 3  # a king at the base of a column (it never has to move again)
#: Neutral moves (no gain) it plays in a row before it deals or stops.
SHUFFLES = 4
#: Actions a game at most.
MAX_ACTIONS = 800
#: Face-down cards at the start of a game (the standard game).
DOWN_AT_START = 44


def column_score(col: list[int], down: int, hide: bool) -> int:
    """The visible score of a column (cards as ``suit * 16 + rank``; the first ``down``
    face down; ``hide``: its lowest face-up card was just turned up and is not read)."""
    if not col:
        return EMPTY
    score = -DOWN * down
    first = down + (1 if hide else 0)
    for i in range(first + 1, len(col)):
        upper, lower = col[i - 1], col[i]
        if (upper & 15) == (lower & 15) + 1:
            score += SAME if upper >> 4 == lower >> 4 else MIXED
    if first == 0 and (col[0] & 15) == 13:
        score += KING_BASE
    return score


def movable(col: list[int], down: int) -> int:
    """The largest group that can move: a same-suit descending sequence ending the column."""
    n = len(col)
    if n == 0:
        return 0
    k = 1
    while n - k - 1 >= down and col[n - k - 1] == col[n - k] + 1:
        k += 1
    return k


class Game:
    """One game's position (cols, down, stock), with moves in the rules' notation."""

    def __init__(self, deal: Deal) -> None:
        self.cols = [[c.suit * 16 + c.rank for c in column] for column in deal.columns()]
        self.down = [len(column) - 1 for column in self.cols]
        self.stock = [c.suit * 16 + c.rank for c in deal.stock()]
        self.ncols = len(self.cols)
        self.dealt = 0
        self.deals = len(self.stock) // self.ncols
        self.removed = 0
        self.scores = [column_score(col, d, False) for col, d in zip(self.cols, self.down, strict=True)]

    def key(self) -> tuple:
        return tuple(tuple(col) for col in self.cols) + (tuple(self.down), self.dealt)

    def moves(self) -> list[tuple[int, int, int]]:
        """Every move (src, dst, count), 0-based, but a whole column into an empty one."""
        result = []
        tops = [(col[-1] & 15) if col else 0 for col in self.cols]
        for s in range(self.ncols):
            col = self.cols[s]
            if not col:
                continue
            group = movable(col, self.down[s])
            low = tops[s]
            for d in range(self.ncols):
                if d == s:
                    continue
                if not self.cols[d]:
                    for k in range(1, group + 1):
                        if k < len(col):
                            result.append((s, d, k))
                else:
                    k = tops[d] - low
                    if 1 <= k <= group:
                        result.append((s, d, k))
        return result

    def after(self, s: int, d: int, k: int) -> tuple[list[int], int, list[int], int, int, bool]:
        """The two columns after a move, without playing it: (src, its down, dst, its down,
        runs removed, a card turned up in src)."""
        src = self.cols[s][:-k]
        dst = self.cols[d] + self.cols[s][-k:]
        sd, dd = self.down[s], self.down[d]
        runs = 0
        if len(dst) - dd >= 13 and all(dst[-1 - i] == dst[-1] + i for i in range(13)):
            del dst[-13:]
            runs = 1
            if dst and dd == len(dst):
                dd -= 1  # turned up under the run: a card of the target, unknown
        flipped = bool(src) and sd == len(src)
        if flipped:
            sd -= 1
        return src, sd, dst, dd, runs, flipped

    def delta(self, s: int, d: int, k: int) -> tuple[int, bool]:
        """(the change of the visible score, whether a card is turned up)."""
        src, sd, dst, dd, runs, flipped = self.after(s, d, k)
        dst_hidden = runs == 1 and bool(dst) and dd < self.down[d]
        new = column_score(src, sd, flipped) + column_score(dst, dd, dst_hidden)
        return new - self.scores[s] - self.scores[d] + RUN * runs, flipped or dst_hidden

    def play(self, s: int, d: int, k: int) -> None:
        src, sd, dst, dd, runs, _ = self.after(s, d, k)
        self.cols[s], self.down[s], self.cols[d], self.down[d] = src, sd, dst, dd
        self.removed += runs
        self.scores[s] = column_score(src, sd, False)
        self.scores[d] = column_score(dst, dd, False)

    def can_deal(self) -> bool:
        return self.dealt < self.deals and all(self.cols)

    def deal(self) -> None:
        row = self.stock[self.dealt * self.ncols:(self.dealt + 1) * self.ncols]
        self.dealt += 1
        for c, card in enumerate(row):
            col = self.cols[c]
            col.append(card)
            if len(col) - self.down[c] >= 13 and all(col[-1 - i] == col[-1] + i for i in range(13)):
                del col[-13:]
                self.removed += 1
                if col and self.down[c] == len(col):
                    self.down[c] -= 1
            self.scores[c] = column_score(col, self.down[c], False)


class Noise:
    """Seeded tie-breaking: SplitMix64 outputs."""

    def __init__(self, seed: int) -> None:
        self.stream = splitmix64(seed & MASK64)

    def below(self, n: int) -> int:
        return next(self.stream) % n


def value(game: Game, move: tuple[int, int, int], seen: set) -> tuple[int, bool] | None:
    """A move's worth looking two moves ahead, or None if it returns to a seen position.
    Returns (value, whether it turns a card up)."""
    s, d, k = move
    gain, flips = game.delta(s, d, k)
    saved = (game.cols[s], game.down[s], game.cols[d], game.down[d], game.removed, game.scores[s], game.scores[d])
    game.play(s, d, k)
    key = game.key()
    best = 0
    if key not in seen and not flips:
        for s2, d2, k2 in game.moves():
            if s2 not in (s, d) and d2 not in (s, d):
                continue  # a move of the other columns is worth as much before this one
            if (s2, d2, k2) == (d, s, k):
                continue  # straight back
            g2, _ = game.delta(s2, d2, k2)
            best = max(best, g2)
    game.cols[s], game.down[s], game.cols[d], game.down[d], game.removed, game.scores[s], game.scores[d] = saved
    if key in seen:
        return None
    return gain + best, flips


def play_game(deal: Deal, seed: int) -> list[str]:
    """One game's actions in the rules' notation."""
    game = Game(deal)
    noise = Noise(seed)
    seen = {game.key()}
    actions: list[str] = []
    shuffles = SHUFFLES
    while len(actions) < MAX_ACTIONS and game.removed < 8:
        best, best_value, neutral, fill = None, 0, [], []
        for move in game.moves():
            worth = value(game, move, seen)
            if worth is None:
                continue
            v = worth[0] * 64 + noise.below(8)  # ties (and near ties) broken at random
            if worth[0] > 0 and (best is None or v > best_value):
                best, best_value = move, v
            elif worth[0] == 0:
                neutral.append(move)
            if not game.cols[move[1]]:
                fill.append((worth[0], move))
        if best is None and neutral and shuffles > 0:
            best = neutral[noise.below(len(neutral))]
            shuffles -= 1
        elif best is not None:
            shuffles = SHUFFLES
        if best is not None:
            s, d, k = best
            game.play(s, d, k)
            actions.append(f"{s + 1}>{d + 1}/{k}")
        elif game.can_deal():
            game.deal()
            actions.append("D")
            shuffles = SHUFFLES
        elif game.dealt < game.deals and fill:
            _, (s, d, k) = max(fill)
            game.play(s, d, k)
            actions.append(f"{s + 1}>{d + 1}/{k}")
        else:
            break
        seen.add(game.key())
    return actions


def game_seed(suits: int, number: int, g: int) -> int:
    return (number * 0x9E3779B97F4A7C15 + suits * 0xBF58476D1CE4E5B9 + g) & MASK64


def game_progress(won: bool, removed: int, turned: int) -> float:
    """A game's progress: 1 if won, else the mean of runs removed / 8 and cards turned up / 44."""
    return 1.0 if won else (removed / 8 + turned / DOWN_AT_START) / 2


def play_deal(suits: int, number: int, games: int) -> dict:
    """``games`` games of the classic deal ``number``, each replayed by the rules engine."""
    deal = Deal.from_code(GameCode(suits, "classic", number))
    results = []
    for g in range(games):
        actions = play_game(deal, game_seed(suits, number, g))
        result, board = replay_board(deal, actions)
        if result.error is not None:
            raise RuntimeError(f"{deal.name()} game {g}: the rules refuse {result.error}")
        turned = DOWN_AT_START - sum(board.down)
        progress = game_progress(result.won, result.runs_removed, turned)
        results.append({"won": result.won, "removed": result.runs_removed, "turned": turned,
                        "actions": len(actions), "progress": progress})
    return {"deal": number, "suits": suits, "progress": sum(r["progress"] for r in results) / games,
            "wins": sum(r["won"] for r in results), "games": results}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suits", type=int, default=1)
    parser.add_argument("--first", type=int, default=50000)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--json", help="write every deal's figures here")
    args = parser.parse_args()
    rows = []
    began = time.process_time()
    for number in range(args.first, args.first + args.count):
        rows.append(play_deal(args.suits, number, args.games))
        if len(rows) % 10 == 0:
            print(f"  {len(rows)}/{args.count}, {time.process_time() - began:.0f} CPU s", file=sys.stderr, flush=True)
    won = sum(r["wins"] > 0 for r in rows)
    mean = sum(r["progress"] for r in rows) / len(rows)
    print(f"{args.suits} suits, deals {args.first}-{args.first + args.count - 1}: mean progress {mean:.3f}, "
          f"won at least once {won}/{len(rows)}, {time.process_time() - began:.0f} CPU s")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
