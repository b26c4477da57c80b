"""A one-suit deal arranged by hand so that a known list of 117 actions wins it.

The check of RULES.md §8.1 Score and move counter: a game won in 117 actions without
the score reaching 0 ends at 500 - 117 + 8 * 100 = 1183. Used by test_replay.py and tests/cli/test_show_replay.py.

The layout, each column from its deepest card to its last (only the last face up):

    column  1: A 2 K K K | K        column  6: 6 7 8 A | 7
    column  2: 9 T J Q A | 7        column  7: 2 3 4 5 | K
    column  3: 4 5 6 7 8 | K        column  8: T J A A | 7
    column  4: Q A 2 3 A | 7        column  9: 6 7 8 9 | K
    column  5: 9 T J Q   | K        column 10: 3 4 5 A | 7

The five deals put Q J T 9 8 on the kings of the odd columns and 6 5 4 3 2 on
the sevens of the even ones. Then:

1. Five times: the even column's 7..2 goes onto the odd column's K..8, and the
   ace turned up under it completes a run (runs 1 to 5).
2. Run 6 is built on the king turned up in column 1 from Q J T 9 (column 2),
   8 7 6 5 4 (column 3) and 3 2 A (column 4); run 7 on the next king from
   Q J T 9 (column 5), 8 7 6 (column 6), 5 4 3 2 (column 7) and A (column 8).
3. The last king of column 1 moves to an empty column and back and forth (the
   padding that makes 117 actions), Q (column 4), J T (column 8), 9 8 7 6
   (column 9), 5 4 3 (column 10) join it, the group K..3 goes back and forth
   between two empty columns, and the 2 and the A left in column 1 end run 8.
"""

LAYOUT = [
    "AS 2S KS KS KS KS",
    "9S TS JS QS AS 7S",
    "4S 5S 6S 7S 8S KS",
    "QS AS 2S 3S AS 7S",
    "9S TS JS QS KS",
    "6S 7S 8S AS 7S",
    "2S 3S 4S 5S KS",
    "TS JS AS AS 7S",
    "6S 7S 8S 9S KS",
    "3S 4S 5S AS 7S",
]
STOCK = [" ".join([high, low] * 5) for high, low in zip(["QS", "JS", "TS", "9S", "8S"], ["6S", "5S", "4S", "3S", "2S"], strict=True)]


def _times(tokens: str, n: int) -> list[str]:
    return tokens.split() * n


WIN = (
    ["D"] * 5
    + ["2>1", "2>1", "4>3", "4>3", "6>5", "6>5", "8>7", "8>7", "10>9", "10>9"]  # runs 1-5
    + _times("2>1", 4) + _times("3>1", 5) + _times("4>1", 3)  # run 6
    + _times("5>1", 4) + _times("6>1", 3) + _times("7>1", 4) + ["8>1"]  # run 7
    + ["1>3/1"] + _times("3>2/1 2>3/1", 16) + ["3>2/1"]  # the last king, to and fro
    + ["4>2"] + _times("8>2", 2) + _times("9>2", 4) + _times("10>2", 3)  # Q..3 onto it
    + _times("2>3/11 3>2/11", 16)  # K..3 to and fro
    + _times("1>2", 2)  # 2, A: run 8
)

#: The same game with undos: each U takes back the action before it, which is then
#: played again: a deal, a group move, a move that completes a run and turns up a
#: card, and a detour (Q of column 5 onto an empty column, turning up its J).
WITH_UNDOS = (
    ["D", "U"] + WIN[:5]
    + ["2>1", "U", "2>1", "2>1", "U", "2>1"] + WIN[7:27]
    + ["5>2/1", "U"] + WIN[27:]
)

WIN_TEXT = " ".join(WIN)


def _deck_text() -> str:
    columns = [column.split() for column in LAYOUT]
    layout = [columns[t % 10][t // 10] for t in range(54)]
    return " ".join(layout + STOCK)


DECK_TEXT = _deck_text()

assert len(WIN) == 117
