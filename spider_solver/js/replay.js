// The rules checker: replay a game log and score it as the app does (RULES.md §12 Replay);
// spider_solver/rules/replay.py is the reference.
import { Board, DEFAULT_UNDO_LIMIT, checkPlayOptions } from "./board.js";
import { SpiderError, quote } from "./errors.js";
import { logTokens } from "./notation.js";

/** The first refused action: its index in the log (counted from 0), its text, and why. */
export class ReplayError {
  constructor(index, action, message) {
    Object.assign(this, { index, action, message });
    Object.freeze(this);
  }

  /** How every front end names it: ``action 3 (index 2: '1>2') refused: ...``. */
  toString() {
    return `action ${this.index + 1} (index ${this.index}: ${quote(this.action)}) refused: ${this.message}`;
  }
}

/** What a replay reached: ``won``, ``moves``, ``score``, ``runsRemoved``, ``stockLeft``,
 *  ``played`` (the canonical notation of every action played, undos included) and
 *  ``error`` (a ReplayError, or null). */
export class ReplayResult {
  constructor({ won, moves, score, runsRemoved, stockLeft, played, error = null }) {
    Object.assign(this, { won, moves, score, runsRemoved, stockLeft, played: Object.freeze(played), error });
    Object.freeze(this);
  }

  /** The fields without ``played``, named as in Python's ``to_dict()`` and the API's JSON. */
  toDict() {
    const error = this.error && { index: this.error.index, action: this.error.action, message: this.error.message };
    return { won: this.won, moves: this.moves, score: this.score, runs_removed: this.runsRemoved,
             stock_left: this.stockLeft, error };
  }
}

/** Play ``actions`` (a text, or an array of texts, in notation) from the initial layout of
 *  ``deal`` (a Deal, a GameCode or a code's text). Stops at the first action that does not
 *  parse or that the position refuses, and at any action after the win. */
export function replay(deal, actions, { dealOnEmpty = false, undoLimit = DEFAULT_UNDO_LIMIT } = {}) {
  return replayBoard(deal, actions, { dealOnEmpty, undoLimit })[0];
}

/** replay(), and the board it leaves: the position after the last action played. Its undo
 *  history is kept only if the log undoes. ``after`` is called with the board after each
 *  action played. */
export function replayBoard(deal, actions, { dealOnEmpty = false, undoLimit = DEFAULT_UNDO_LIMIT, after = null } = {}) {
  checkPlayOptions(dealOnEmpty, undoLimit);
  const tokens = logTokens(actions);
  // A log without an undo never asks for an earlier position: keep none (it is faster).
  if (!tokens.includes("U") && !tokens.includes("u")) undoLimit = 0;
  const board = new Board(deal, { dealOnEmpty, undoLimit });
  return [playTokens(board, tokens, after), board];
}

/** Play ``actions`` on ``board`` from its position, as replay() plays a log from the initial
 *  layout (``played`` holds the actions played here only). */
export function playOn(board, actions, { after = null } = {}) {
  return playTokens(board, logTokens(actions), after);
}

function playTokens(board, tokens, after) {
  const played = [];
  let error = null;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    try {
      if (board.isWon()) throw new SpiderError(`the game is already won; ${quote(token)} comes after the last run left`);
      played.push(board.play(board.parseAction(token)));
    } catch (refusal) {
      if (!(refusal instanceof SpiderError)) throw refusal;
      error = new ReplayError(index, token, refusal.message);
      break;
    }
    if (after) after(board);
  }
  return new ReplayResult({ won: board.isWon(), moves: board.moves, score: board.score, runsRemoved: board.runsRemoved,
                            stockLeft: board.stockLeft, played, error });
}
