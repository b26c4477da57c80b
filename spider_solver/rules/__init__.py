"""The reference rules engine: plain Python, no numpy, no numba.

It implements ``RULES.md``, the rules contract of the project, and is the oracle
everything else is checked against. Each module cites the sections it implements;
the conventions that hold everywhere (columns numbered from 1 in every public method,
lenient input and canonical output) are RULES.md §1 Conventions, and the helpers a
frontend calls are RULES.md §13 Frontend helpers.
"""

from spider_solver.rules.board import DEFAULT_UNDO_LIMIT, RUN_BONUS, START_SCORE, Board, Position
from spider_solver.rules.cards import CLUBS, DIAMONDS, HEARTS, SPADES, Card, format_cards, parse_cards
from spider_solver.rules.codes import MAX_DEAL, GameCode, canonical_code, shuffle_deck, splitmix64
from spider_solver.rules.deal import Deal
from spider_solver.rules.notation import (
    Action,
    DealRow,
    Move,
    Undo,
    log_tokens,
    parse_action,
    parse_actions,
    split_actions,
)
from spider_solver.rules.replay import ReplayError, ReplayResult, replay
from spider_solver.rules.variant import CLASSIC, RELAXED, Rule, Variant, parse_rule, parse_suits

__all__ = [
    "Action", "Board", "CLASSIC", "CLUBS", "Card", "DEFAULT_UNDO_LIMIT", "DIAMONDS", "Deal", "DealRow",
    "GameCode", "HEARTS", "MAX_DEAL", "Move", "Position", "RELAXED", "RUN_BONUS", "ReplayError",
    "ReplayResult", "Rule", "SPADES", "START_SCORE", "Undo", "Variant", "canonical_code", "format_cards",
    "log_tokens", "parse_action", "parse_actions", "parse_cards", "parse_rule", "parse_suits", "replay", "shuffle_deck",
    "split_actions", "splitmix64",
]
