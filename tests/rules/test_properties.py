"""Properties of the rules over random legal play from random deals.

Deals are real game codes (all suit counts, both rules) and shrunken variants
(3 to 5 ranks, 3 or 4 columns) where runs are completed and games are won often.
Each test plays a random line of legal actions and undos and checks, after every
step: cards are conserved, face-down cards lie only under face-up ones, no finished
run stays on the table, the score equals its definition, undo restores the exact
earlier position, and the canonical notation reads back to the same action.
"""

from collections import Counter

from hypothesis import event, given
from hypothesis import strategies as st

from spider_solver.rules.board import Board
from spider_solver.rules.cards import Card, format_cards, parse_cards
from spider_solver.rules.codes import MAX_DEAL, GameCode, shuffle_deck
from spider_solver.rules.deal import Deal
from spider_solver.rules.notation import DealRow, Move, Undo
from spider_solver.rules.variant import CLASSIC, RELAXED, Variant

#: A line of play: each number picks one of the legal actions (and undo) at its step.
LINES = st.lists(st.integers(0, 2**16), min_size=30, max_size=100)

SHRUNKEN = [
    dict(ranks=3, runs=4, columns=4, layout=4),  # 12 cards, 2 deals
    dict(ranks=4, runs=4, columns=3, layout=7),  # 16 cards, 3 deals
    dict(ranks=5, runs=4, columns=4, layout=8),  # 20 cards, 3 deals
]


@st.composite
def deals(draw):
    suits = draw(st.sampled_from([1, 2, 4]))
    rule = draw(st.sampled_from([CLASSIC, RELAXED]))
    number = draw(st.integers(0, MAX_DEAL))
    size = draw(st.sampled_from([None] + SHRUNKEN))
    if size is None:
        return Deal.from_code(GameCode(suits, rule, number))
    variant = Variant(suits=suits, rule=rule, **size)
    return Deal(tuple(shuffle_deck(number, variant)), variant)


def run_cards(board, suit):
    return [Card(rank, suit) for rank in range(1, board.variant.ranks + 1)]


def check_invariants(board):
    variant = board.variant
    stock = board.stock[board.dealt * variant.columns :]
    # Cards conserved: tableau + stock + a run's cards per removed run = the deck.
    on_table = [card for column in board.columns for card in column]
    assert len(on_table) + board.stock_left + variant.ranks * board.runs_removed == variant.cards
    removed = [card for suit in board.removed for card in run_cards(board, suit)]
    assert Counter(on_table + list(stock) + removed) == Counter(variant.unshuffled())
    for c, column in enumerate(board.columns):
        # Face-down cards are the first down[c] cards, always under a face-up card.
        assert 0 <= board.down[c] < len(column) or (board.down[c] == 0 and not column)
        # A finished run never stays on the table.
        up = board.face_up(c + 1)
        for suit in variant.suits_in_play():
            assert up[-variant.ranks :] != run_cards(board, suit)[::-1]
    assert board.is_won() == (board.runs_removed == variant.runs)
    if board.is_won():
        assert not on_table and board.stock_left == 0


def random_line(board, choices, *, undo=True):
    """Play a random line; check every step; return the canonical actions played."""
    positions = [board.position()]
    scores = [500]  # the score by its definition, kept alongside
    played = []
    for choice in choices:
        if board.is_won():
            break  # the game is over: a log refuses anything after the win, undo included
        legal = board.legal_moves()
        options = legal + ([Undo()] if undo and len(positions) > 1 else [])
        if not options:
            break
        action = options[choice % len(options)]
        text = board.notation(action)
        # The canonical notation reads back to the same action in this position.
        assert board.resolve(board.parse_action(text)) == action
        runs = board.runs_removed
        board.push(action)
        played.append(text)
        if isinstance(action, Undo):
            positions.pop()
            scores.pop()
            assert board.position() == positions[-1]
        else:
            positions.append(board.position())
            scores.append(max(0, scores[-1] - 1) + 100 * (board.runs_removed - runs))
            assert board.moves == len(positions) - 1
        assert board.score == scores[-1]
        check_invariants(board)
    # Shown by pytest --hypothesis-show-statistics: how much of the game the lines reach.
    event(f"{'shrunken' if not board.variant.is_standard else 'full'} deal, "
          f"{'won' if board.is_won() else f'{board.runs_removed} runs removed'}")
    event(f"{len(played) // 20 * 20}+ actions")
    return played, positions


@given(deals(), st.booleans(), LINES)
def test_random_play_keeps_the_invariants_and_undo_restores_everything(deal, deal_on_empty, choices):
    board = Board(deal, deal_on_empty=deal_on_empty, undo_limit=None)
    check_invariants(board)
    played, positions = random_line(board, choices)
    # Undo all the way back: every earlier position comes back exactly.
    while len(positions) > 1:
        board.pop()
        positions.pop()
        assert board.position() == positions[-1]
    assert board.position() == Board(deal).position()


@given(deals(), LINES)
def test_legal_moves_are_exactly_the_actions_check_accepts(deal, choices):
    board = Board(deal)
    random_line(board, choices, undo=False)
    n = board.variant.columns
    candidates = [Move(s, d, k) for s in range(1, n + 1) for d in range(1, n + 1) if s != d
                  for k in range(1, len(board.columns[s - 1]) + 1)]
    expected = [move for move in candidates if board.is_legal(move)]
    if board.is_legal(DealRow()):
        expected.append(DealRow())
    assert board.legal_moves() == expected
    for move in expected:
        if isinstance(move, Move):
            assert move.dst in board.targets(move.src, move.count)


@given(deals(), LINES)
def test_classic_lines_are_relaxed_lines_and_lines_without_deal_on_empty_are_lines_with_it(deal, choices):
    """Every Classic move is also a Relaxed move; everything legal without deal_on_empty is legal with it."""
    board = Board(deal)
    played, positions = random_line(board, choices)
    relaxed = Deal(deal.cards, Variant(suits=deal.variant.suits, rule=RELAXED, ranks=deal.variant.ranks,
                                       runs=deal.variant.runs, columns=deal.variant.columns,
                                       layout=deal.variant.layout))
    for other in (Board(relaxed), Board(deal, deal_on_empty=True)):
        for token in played:
            other.push_notation(token)
        assert other.position() == board.position()
        assert other.is_won() == board.is_won()


@given(deals(), LINES)
def test_a_replayed_line_reaches_the_same_position(deal, choices):
    from spider_solver.rules.replay import replay

    board = Board(deal)
    played, _ = random_line(board, choices)
    result = replay(deal, " ".join(played))
    assert result.error is None
    assert list(result.played) == played
    assert (result.won, result.moves, result.score, result.runs_removed, result.stock_left) == (
        board.is_won(), board.moves, board.score, board.runs_removed, board.stock_left)


@given(st.lists(st.builds(Card, st.integers(1, 13), st.integers(0, 3)), max_size=30), st.booleans())
def test_card_lists_round_trip(cards, symbols):
    assert parse_cards(format_cards(cards, symbols=symbols)) == cards


@given(deals())
def test_deal_text_round_trips(deal):
    again = Deal.from_text(deal.text(), deal.variant.suits, deal.variant.rule) if deal.variant.is_standard else None
    if again is not None:
        assert again.cards == deal.cards
    rows = [deal.stock()[d * deal.variant.columns : (d + 1) * deal.variant.columns] for d in range(deal.variant.deals)]
    assert Deal.from_columns(deal.columns(), rows, deal.variant).cards == deal.cards
