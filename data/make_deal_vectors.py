"""Write data/deal_vectors.json: game codes and the 104 cards they deal.

Usage:

    python data/make_deal_vectors.py           # rewrite data/deal_vectors.json
    python data/make_deal_vectors.py --check   # exit 1 if the file differs from what the code deals now

Frontends in other languages test their port of RULES.md ("From deal number to
cards") against this file: the SplitMix64 outputs from a few seeds, then, for each
suit count 1, 2 and 4, at least 20 codes (deal numbers 0, 1, 3, 32, 2**35 - 1 and
others) with their cards in deck order, short text form. The first 54 cards are the
layout (card t on column t mod 10 + 1), the other 50 the stock. The rule letter does
not change the cards; a few R codes are listed to show it.

The output is deterministic: running the script twice writes the same bytes, and
tests/test_vectors.py fails if the file and the code disagree.
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

from spider_solver.rules.cards import format_cards
from spider_solver.rules.codes import MAX_DEAL, GameCode, splitmix64
from spider_solver.rules.variant import CLASSIC, RELAXED

sys.path.insert(0, str(Path(__file__).resolve().parent))  # vector_file, beside this script
from vector_file import write_or_check  # noqa: E402

PATH = Path(__file__).with_name("deal_vectors.json")

#: Seeds of the SplitMix64 check values, and how many outputs to list for each.
SPLITMIX64_SEEDS = [0, 1, 3, 32, MAX_DEAL, 2**64 - 1]
SPLITMIX64_OUTPUTS = 5

#: Deal numbers listed for every suit count: small ones, powers of two and their
#: neighbours around the 32-bit boundaries, the largest, and ten that look random.
DEAL_NUMBERS = sorted(
    {0, 1, 2, 3, 31, 32, 33, 1000, 2**20, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**34, MAX_DEAL - 1, MAX_DEAL}
    | {z % (MAX_DEAL + 1) for z in itertools.islice(splitmix64(20260101), 10)}
)
#: Codes written with the rule letter R as well (same cards as C).
RELAXED_NUMBERS = [3, MAX_DEAL]


def build() -> dict:
    """Everything the file holds, in order."""
    splitmix = [
        {"seed": str(seed), "outputs": [f"0x{z:016x}" for z in itertools.islice(splitmix64(seed), SPLITMIX64_OUTPUTS)]}
        for seed in SPLITMIX64_SEEDS
    ]
    deals = {}
    for suits in (1, 2, 4):
        for number in DEAL_NUMBERS:
            code = GameCode(suits, CLASSIC, number)
            deals[str(code)] = format_cards(code.cards())
        if suits > 1:
            for number in RELAXED_NUMBERS:
                code = GameCode(suits, RELAXED, number)
                deals[str(code)] = format_cards(code.cards())
    return {
        "about": "Spider deal test vectors; see RULES.md, 'Game code'. Made by data/make_deal_vectors.py.",
        "splitmix64": {
            "about": "SplitMix64 outputs from state s = seed (64-bit unsigned, hex; seeds in decimal).",
            "values": splitmix,
        },
        "deals": {
            "about": "Game code -> the 104 cards in deck order, short text form: cards 0-53 the layout "
                     "(card t on column t mod 10 + 1), cards 54-103 the stock, deal d = cards 54+10d..63+10d.",
            "codes": deals,
        },
    }


def render() -> str:
    """The file's text: stable key order, two-space indent, one code per line."""
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    return write_or_check(PATH, render(), script="make_deal_vectors.py", description=__doc__.splitlines()[0],
                          argv=argv, summary=lambda text: f"{len(json.loads(text)['deals']['codes'])} codes")


if __name__ == "__main__":
    sys.exit(main())
