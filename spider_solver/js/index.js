// spider-solver-rules: the rules of Spider Solitaire as spider-solver plays them (RULES.md),
// in JavaScript: cards, variants, game codes and their decks, explicit deals, the board
// (legal actions, push and pop with the undo limit, score, targets, auto-place), the
// notation, and replay, with the exact refusal messages of the Python reference engine
// (spider_solver.rules), whose API this mirrors in JavaScript naming.
export {
  IllegalActionError, InvalidActionError, InvalidCardError, InvalidCodeError, InvalidDealError, InvalidVariantError,
  QUOTE_LIMIT, SpiderError, quote,
} from "./errors.js";
export {
  CLUBS, Card, DIAMONDS, HEARTS, RANK_CHARS, RANK_DISPLAY, SPADES, SUIT_LETTERS, SUIT_SYMBOLS, formatCards, parseCards,
} from "./cards.js";
export { CLASSIC, MAX_CARDS, MAX_COLUMNS, RELAXED, Variant, parseRule, parseSuits } from "./variant.js";
export { GameCode, MAX_DEAL, canonicalCode, shuffleDeck, splitmix64 } from "./codes.js";
export { Deal } from "./deal.js";
export { DealRow, Move, Undo, logTokens, parseAction, parseActions, splitActions } from "./notation.js";
export { Board, DEFAULT_UNDO_LIMIT, Position, RUN_BONUS, START_SCORE } from "./board.js";
export { ReplayError, ReplayResult, playOn, replay, replayBoard } from "./replay.js";
