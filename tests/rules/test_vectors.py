"""data/deal_vectors.json: equal to what the code deals now, and true to RULES.md §9 Game code.

The second port below is written from the text of the repository's RULES.md (RULES.md
§9.1 From deal number to cards), not from spider_solver/rules/codes.py, as a frontend in
another language would write it, and checked against RULES.md §9.2 Check values and test vectors.
"""

import importlib.util
import json
from collections import Counter
from pathlib import Path

from spider_solver.rules.cards import parse_cards
from spider_solver.rules.codes import MAX_DEAL, GameCode
from spider_solver.rules.variant import Variant

DATA = Path(__file__).resolve().parents[2] / "data"
VECTORS = json.loads((DATA / "deal_vectors.json").read_text(encoding="utf-8"))


def load_script():
    spec = importlib.util.spec_from_file_location("make_deal_vectors", DATA / "make_deal_vectors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_file_is_what_the_script_writes_now():
    """If this fails, the shuffle changed (a bug) or the file is stale: python data/make_deal_vectors.py."""
    script = load_script()
    assert (DATA / "deal_vectors.json").read_text(encoding="utf-8") == script.render()
    assert script.main(["--check"]) == 0


def test_splitmix64_check_values_from_rules_are_in_the_file():
    values = {entry["seed"]: entry["outputs"] for entry in VECTORS["splitmix64"]["values"]}
    assert values["0"][0] == "0xe220a8397b1dcdaf"
    assert values["3"][:3] == ["0x1d0b14e4db018fed", "0xb3466f8a7b81a989", "0x9cebe8a6d050dd01"]


def test_rules_check_deal_is_in_the_file():
    cards = VECTORS["deals"]["codes"]["SP1-S4C-AAAAAAD"].split()
    assert cards[:16] == ["8S", "QC", "4H", "JS", "7S", "TC", "4C", "AH", "JC", "9D", "AC", "3C", "AS", "5C", "TH", "4D"]
    assert cards[-1] == "TS"


def test_every_suit_count_has_at_least_20_deals_including_the_required_ones():
    codes = [GameCode.parse(code) for code in VECTORS["deals"]["codes"]]
    for suits in (1, 2, 4):
        numbers = {code.number for code in codes if code.suits == suits}
        assert len(numbers) >= 20
        assert {0, 1, 3, 32, 2**35 - 1} <= numbers


def test_every_vector_is_canonical_and_has_the_composition_of_its_suit_count():
    for text, cards in VECTORS["deals"]["codes"].items():
        code = GameCode.parse(text)
        assert str(code) == text
        deck = parse_cards(cards)
        assert len(deck) == 104
        assert Counter(deck) == Counter(Variant(suits=code.suits).unshuffled())


def test_relaxed_codes_deal_the_same_cards_as_classic():
    codes = VECTORS["deals"]["codes"]
    relaxed = [text for text in codes if text[6] == "R"]
    assert relaxed
    for text in relaxed:
        assert codes[text] == codes[text[:6] + "C" + text[7:]]


def independent_port(suits, number):
    """RULES.md §9.1 From deal number to cards, written again from its text, as a frontend would."""
    mask = 2**64 - 1  # "all arithmetic is on 64-bit unsigned integers, modulo 2^64"
    # Step 1: the unshuffled deck, 8/k times each of the k suits in the order of
    # RULES.md §2 Cards (S H D C), ranks A..K; cards in the short text form of RULES.md §2 Cards.
    ranks, letters = "A23456789TJQK", "SHDC"[:suits]
    deck = [rank + suit for _ in range(8 // suits) for suit in letters for rank in ranks]
    # Step 2: SplitMix64 with state s = n, the deal number.
    state = number

    def next_value():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    # Step 3: Fisher-Yates from the end: for i = 103 down to 1, j = next() mod (i + 1).
    for i in range(103, 0, -1):
        j = next_value() % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    # Step 4: the deck order, written as the vectors write it (RULES.md §9.2 Check values and test vectors).
    return " ".join(deck)


def test_an_independent_port_reproduces_every_vector():
    for text, cards in VECTORS["deals"]["codes"].items():
        code = GameCode.parse(text)
        assert independent_port(code.suits, code.number) == cards
    assert independent_port(4, 3).startswith("8S QC 4H JS")
    assert MAX_DEAL == 2**35 - 1
