"""Game codes SP1-S<k><r>-<deal> and the shuffle behind them (RULES.md §9 Game code)."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spider_solver.errors import InvalidCodeError, InvalidVariantError
from spider_solver.rules.cards import format_cards
from spider_solver.rules.codes import (
    BASE32_ALPHABET,
    MAX_DEAL,
    GameCode,
    canonical_code,
    decode_deal,
    encode_deal,
    shuffle_deck,
    splitmix64,
)
from spider_solver.rules.variant import CLASSIC, RELAXED, Variant

# -- SplitMix64 and the shuffle ------------------------------------------------


def test_splitmix64_check_values_from_rules():
    assert next(splitmix64(0)) == 0xE220A8397B1DCDAF
    assert list(itertools.islice(splitmix64(3), 3)) == [0x1D0B14E4DB018FED, 0xB3466F8A7B81A989, 0x9CEBE8A6D050DD01]


def test_splitmix64_wraps_at_64_bits():
    # A state near 2**64 wraps around instead of growing: every output fits 64 bits.
    outputs = list(itertools.islice(splitmix64(2**64 - 1), 100))
    assert all(0 <= z < 2**64 for z in outputs)
    assert next(splitmix64(2**64 + 3)) == next(splitmix64(3))


def test_fisher_yates_runs_from_the_end():
    """The first draw picks j for i = 103, and card j of the unshuffled deck ends last."""
    first = next(splitmix64(0))
    deck = shuffle_deck(0, Variant(suits=4))
    assert deck[103] == Variant(suits=4).unshuffled()[first % 104]


def test_deal_3_draws_card_61_first_so_its_last_card_is_the_second_ten_of_spades():
    """RULES.md §9.2 Check values and test vectors: 0x1d0b14e4db018fed mod 104 = 61."""
    assert 0x1D0B14E4DB018FED % 104 == 61
    unshuffled = Variant(suits=4).unshuffled()
    assert str(unshuffled[61]) == "TS" and unshuffled.index(unshuffled[61]) == 9  # the second copy
    assert str(shuffle_deck(3, Variant(suits=4))[103]) == "TS"


def test_a_shrunken_variant_shuffles_its_own_deck_by_the_same_recipe():
    variant = Variant(suits=2, ranks=4, runs=4, columns=3, layout=7)  # 16 cards
    deck = variant.unshuffled()
    rng = splitmix64(12345)
    for i in range(len(deck) - 1, 0, -1):
        j = next(rng) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    assert shuffle_deck(12345, variant) == deck


def test_shuffle_keeps_the_composition():
    for suits in (1, 2, 4):
        variant = Variant(suits=suits)
        assert sorted(shuffle_deck(12345, variant)) == sorted(variant.unshuffled())


def test_rules_check_deal():
    """SP1-S4C-AAAAAAD deals 8S QC 4H JS 7S TC 4C AH JC 9D AC 3C AS 5C TH 4D ... and ends with TS."""
    cards = GameCode.parse("SP1-S4C-AAAAAAD").cards()
    assert format_cards(cards[:16]) == "8S QC 4H JS 7S TC 4C AH JC 9D AC 3C AS 5C TH 4D"
    assert str(cards[-1]) == "TS"
    assert len(cards) == 104


def test_rule_letter_does_not_change_the_cards():
    for deal in ("AAAAAAA", "AAAAAAD", "7777777", "QWERTY2"):
        assert GameCode.parse(f"SP1-S4C-{deal}").cards() == GameCode.parse(f"SP1-S4R-{deal}").cards()
        assert GameCode.parse(f"SP1-S2C-{deal}").cards() == GameCode.parse(f"SP1-S2R-{deal}").cards()


def test_different_deals_differ():
    decks = {tuple(GameCode(4, CLASSIC, n).cards()) for n in range(20)}
    assert len(decks) == 20


# -- deal numbers in base32 ------------------------------------------------------


@pytest.mark.parametrize(
    "text, number",
    [("AAAAAAA", 0), ("AAAAAAB", 1), ("AAAAAAD", 3), ("AAAAABA", 32), ("AAAAA7A", 31 * 32),
     ("BAAAAAA", 32**6), ("7777777", 2**35 - 1)],
)
def test_base32_deal_numbers_most_significant_first(text, number):
    assert decode_deal(text) == number
    assert encode_deal(number) == text


def test_alphabet_is_rfc_4648():
    assert BASE32_ALPHABET == "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    assert MAX_DEAL == 2**35 - 1


@pytest.mark.parametrize("number", [-1, 2**35, 2**40])
def test_deal_numbers_out_of_range(number):
    with pytest.raises(InvalidCodeError, match=rf"^invalid deal number {number}: expected 0 to 34359738367$"):
        encode_deal(number)
    with pytest.raises(InvalidCodeError):
        GameCode(4, CLASSIC, number)


# -- parsing and printing codes -------------------------------------------------


def test_parse_example_code():
    code = GameCode.parse("SP1-S1C-AAAAAAD")
    assert (code.suits, code.rule, code.number) == (1, CLASSIC, 3)
    assert str(code) == "SP1-S1C-AAAAAAD"
    assert code.variant == Variant(suits=1)


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("SP1-S4C-AAAAAAD", "SP1-S4C-AAAAAAD"),
        ("sp1-s4c-aaaaaad", "SP1-S4C-AAAAAAD"),
        ("  Sp1-S2r-aaaaaba \n", "SP1-S2R-AAAAABA"),
        ("\tSP1-S4R-7777777 ", "SP1-S4R-7777777"),
        ("SP1-S1R-AAAAAAD", "SP1-S1C-AAAAAAD"),  # k = 1 has only C
        ("sp1-s1r-aaaaaad", "SP1-S1C-AAAAAAD"),
    ],
)
def test_input_is_case_insensitive_and_trimmed_output_canonical(text, canonical):
    assert canonical_code(text) == canonical
    assert str(GameCode.parse(text)) == canonical


def test_s1r_and_s1c_are_one_game():
    assert GameCode.parse("SP1-S1R-AAAAAAD") == GameCode.parse("SP1-S1C-AAAAAAD")
    assert GameCode(1, RELAXED, 3).rule == CLASSIC


def test_repr_round_trips():
    code = GameCode.parse("SP1-S2R-AAAAABA")
    assert eval(repr(code), {"GameCode": GameCode}) == code


@pytest.mark.parametrize(
    "text, words",
    [
        ("SP2-S4C-AAAAAAD", "unknown format 'SP2', expected 'SP1'"),
        ("XX1-S4C-AAAAAAD", "unknown format 'XX1'"),
        ("SP1-S3C-AAAAAAD", "suit count '3' in 'S3C' must be 1, 2 or 4"),
        ("SP1-S0C-AAAAAAD", "suit count '0' in 'S0C' must be 1, 2 or 4"),
        ("SP1-S4X-AAAAAAD", "rule letter 'X' in 'S4X' must be C (Classic) or R (Relaxed)"),
        ("SP1-S4-AAAAAAD", "the variant 'S4' must be S, a suit count and a rule letter, like S4C"),
        ("SP1-X4C-AAAAAAD", "the variant 'X4C' must be S"),
        ("SP1-S4C-AAAAAA1", "'1' is not a base32 character (A-Z, 2-7)"),
        ("SP1-S4C-AAAAAA8", "'8' is not a base32 character"),
        ("SP1-S4C-AAAAAA=", "'=' is not a base32 character"),
        ("SP1-S4C-AAAAAAı", "'ı' is not a base32 character"),  # 'ı'.upper() == 'I'
        ("SP1-S4C-AAAAAA", "expected 7 base32 characters, got 6"),
        ("SP1-S4C-AAAAAAAA", "expected 7 base32 characters, got 8"),
        ("SP1-S4C-", "expected 7 base32 characters, got 0"),
        ("SP1-S4C-AAA AAAD", "expected 7 base32 characters, got 8"),
        ("SP1S4CAAAAAAD", "expected three parts like SP1-S4C-AAAAAAD"),
        ("SP1-S4C-AAAAAAD-X", "expected three parts"),
        ("", "expected three parts"),
        ("   ", "expected three parts"),
    ],
)
def test_bad_codes_say_which_part_is_wrong(text, words):
    with pytest.raises(InvalidCodeError) as info:
        GameCode.parse(text)
    message = str(info.value)
    assert message.startswith(f"invalid game code {text!r}: ")
    assert words in message


@pytest.mark.parametrize(
    "text, words",
    [
        # The shape: the middle part is exactly 3 characters (code points), the first S.
        ("SP1-S44C-AAAAAAD", "the variant 'S44C' must be S, a suit count and a rule letter, like S4C"),
        ("SP1-S4-AAAAAAD", "the variant 'S4' must be S"),
        ("SP1-S-AAAAAAD", "the variant 'S' must be S"),
        ("SP1--AAAAAAD", "the variant '' must be S"),
        ("SP1-X4C-AAAAAAD", "the variant 'X4C' must be S"),
        ("SP1-S\U0001f600-AAAAAAD", "the variant 'S\U0001f600' must be S"),  # 2 code points (3 UTF-16 units)
        # Then its second character is the suit count and its third the rule letter.
        ("SP1-SXC-AAAAAAD", "suit count 'X' in 'SXC' must be 1, 2 or 4"),
        ("sp1-sxc-aaaaaad", "suit count 'X' in 'SXC' must be 1, 2 or 4"),
        ("SP1-S44-AAAAAAD", "rule letter '4' in 'S44' must be C (Classic) or R (Relaxed)"),
    ],
)
def test_the_variants_shape_is_three_characters_s_first(text, words):
    """RULES.md §9 Game code: what "the variant's shape" means."""
    with pytest.raises(InvalidCodeError) as info:
        GameCode.parse(text)
    assert str(info.value).startswith(f"invalid game code {text!r}: {words}")


@pytest.mark.parametrize(
    "text, words",
    [
        # Several faults at once: the first in the order of RULES.md §9 Game code is reported.
        (3, "expected text like SP1-S4C-AAAAAAD"),
        ("SP2S3XAAAAA1", "expected three parts like SP1-S4C-AAAAAAD"),
        ("SP2-S3X-AAAAA1", "unknown format 'SP2', expected 'SP1'"),
        ("SP2-S44X-AAAAA1", "unknown format 'SP2'"),
        ("SP1-S44X-AAAAA1", "the variant 'S44X' must be S"),
        ("SP1-S3X-AAAAA1", "suit count '3' in 'S3X' must be 1, 2 or 4"),
        ("SP1-S4X-AAAAA1", "rule letter 'X' in 'S4X' must be C (Classic) or R (Relaxed)"),
        ("SP1-S4C-AAAAA1", "invalid deal 'AAAAA1': expected 7 base32 characters, got 6"),
        ("SP1-S4C-AAAAA81", "invalid deal 'AAAAA81': '8' is not a base32 character (A-Z, 2-7)"),  # the first one
    ],
)
def test_several_faults_report_the_first_in_the_documented_order(text, words):
    with pytest.raises(InvalidCodeError) as info:
        GameCode.parse(text)
    assert words in str(info.value)


def test_a_code_that_is_not_text():
    with pytest.raises(InvalidCodeError, match=r"^invalid game code 3: expected text like SP1-S4C-AAAAAAD$"):
        GameCode.parse(3)


def test_bad_suit_count_in_a_constructed_code():
    with pytest.raises(InvalidVariantError):
        GameCode(3, CLASSIC, 0)
    with pytest.raises(InvalidVariantError, match=r"^unknown rule 'C': expected 'classic' or 'relaxed'$"):
        GameCode(4, "C", 0)  # the constructor takes the rule's name, the code its letter


def test_surrounding_unicode_white_space_is_ignored():
    assert canonical_code("\u00a0sp1-s4c-aaaaaad\u2003\n") == "SP1-S4C-AAAAAAD"


@given(
    suits=st.sampled_from([1, 2, 4]),
    rule=st.sampled_from([CLASSIC, RELAXED]),
    number=st.integers(0, MAX_DEAL),
)
def test_code_round_trip(suits, rule, number):
    code = GameCode(suits, rule, number)
    text = str(code)
    assert GameCode.parse(text) == code
    assert GameCode.parse(f"  {text.lower()} ") == code
    assert decode_deal(encode_deal(number)) == number
    assert len(text) == len("SP1-S4C-AAAAAAD")
