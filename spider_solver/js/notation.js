// Actions and their notation: D, F>T, F>T/N, U (RULES.md §11 Action notation);
// spider_solver/rules/notation.py is the reference.
//
// Parsing checks only the form; whether the position allows an action is the board's
// business (Board.check). A Move with count null means "the group the rules pick".
import { InvalidActionError, Memo, QUOTE_LIMIT, SEPARATORS, asciiUpper, quote, strip, typeName, wholeNumber }
  from "./errors.js";
import { MAX_CARDS, MAX_COLUMNS } from "./variant.js";

/** Move a group from column ``src`` to column ``dst`` (numbered from 1); ``count`` null
 *  lets the board choose (the fitting group, or the largest). Immutable. */
export class Move {
  constructor(src, dst, count = null) {
    count = count ?? null;
    for (const [name, value] of [["src", src], ["dst", dst], ["count", count]]) {
      if (name === "count" && value === null) continue;
      if (wholeNumber(value) === null) {
        throw new InvalidActionError(`invalid move: ${name} is ${quote(value)}, expected a whole number`);
      }
    }
    this.src = src;
    this.dst = dst;
    this.count = count;
    Object.freeze(this);
  }

  get kind() { return "move"; }

  /** True for the same columns and count. */
  equals(other) {
    return other instanceof Move && other.src === this.src && other.dst === this.dst && other.count === this.count;
  }

  /** The action as given: ``2>5``, ``2>5/3``. */
  toString() {
    return `${this.src}>${this.dst}` + (this.count !== null ? `/${this.count}` : "");
  }
}

const SOLE = new Map(); // the one DealRow and the one Undo

/** An action without operands, of which there is one: ``new DealRow() === new DealRow()``. */
class Sole {
  constructor() {
    const made = SOLE.get(new.target);
    if (made) return made;
    SOLE.set(new.target, this);
    Object.freeze(this);
  }

  equals(other) { return other === this; }
}

/** Deal one card from the stock onto every column. */
export class DealRow extends Sole {
  get kind() { return "deal"; }
  toString() { return "D"; }
}

/** Take back the last action (game logs only). */
export class Undo extends Sole {
  get kind() { return "undo"; }
  toString() { return "U"; }
}

const MOVE = /^([0-9]+)>([0-9]+)(?:\/([0-9]+))?$/;
/** Digits a number in an action may have after its leading zeros; more is out of range. */
const MAX_DIGITS = 3;
const PARSED = new Memo(4096);

/** [value, digits as shown] of an ASCII digit string; value null when out of range. */
function number(digits) {
  const significant = digits.replace(/^0+/, "") || "0";
  if (significant.length > MAX_DIGITS) {
    return [null, significant.length <= QUOTE_LIMIT ? significant : significant.slice(0, QUOTE_LIMIT) + "..."];
  }
  return [Number(significant), significant];
}

/** Read one action token. Columns must be 1..``columns``; a group size 1 to 104. */
export function parseAction(text, { columns = 10 } = {}) {
  if (typeof text !== "string") {
    throw new TypeError(`an action is text in notation (D, U, F>T or F>T/N), not ${typeName(text)}`);
  }
  if (wholeNumber(columns) === null || columns < 1 || columns > MAX_COLUMNS) {
    throw new RangeError(`invalid columns ${quote(columns)}: a game has 1 to ${MAX_COLUMNS} columns`);
  }
  const key = columns === 10 ? text : columns + " " + text;
  return PARSED.get(key) ?? PARSED.remember(key, readAction(text, columns));
}

function readAction(text, columns) {
  const token = asciiUpper(strip(text));
  if (token === "D") return new DealRow();
  if (token === "U") return new Undo();
  const match = MOVE.exec(token);
  if (!match) {
    throw new InvalidActionError(`invalid action ${quote(text)}: expected D, U, F>T or F>T/N (for example 3>7 or 2>5/3)`);
  }
  const [src, srcShown] = number(match[1]);
  const [dst, dstShown] = number(match[2]);
  for (const [which, column, shown] of [["source", src, srcShown], ["target", dst, dstShown]]) {
    if (column === null || column < 1 || column > columns) {
      throw new InvalidActionError(`invalid action ${quote(text)}: ${which} column ${shown} does not exist ` +
                                   `(columns are 1 to ${columns})`);
    }
  }
  let count = null;
  if (match[3] !== undefined) {
    const [value, shown] = number(match[3]);
    if (value === null || value > MAX_CARDS) {
      throw new InvalidActionError(`invalid action ${quote(text)}: a group of ${shown} cards is out of range ` +
                                   `(a game has at most ${MAX_CARDS} cards)`);
    }
    if (value < 1) throw new InvalidActionError(`invalid action ${quote(text)}: a group holds at least 1 card`);
    count = value;
  }
  if (src === dst) throw new InvalidActionError(`invalid action ${quote(text)}: source and target are the same column`);
  return new Move(src, dst, count);
}

/** Split a game log or solution into tokens (white space, commas, new lines). */
export function splitActions(text) {
  if (typeof text !== "string") {
    throw new TypeError(`a game log is text in notation (D, U, F>T or F>T/N), not ${typeName(text)}`);
  }
  return text.split(SEPARATORS).filter((token) => token !== "");
}

/** A game log's tokens: a text split, or each text of an array (or any ordered iterable)
 *  split. A Set or a Map has no order to replay, and is refused. */
export function logTokens(actions) {
  if (typeof actions === "string") return splitActions(actions);
  if (actions instanceof Set || actions instanceof Map || typeof actions?.[Symbol.iterator] !== "function") {
    throw new TypeError(`a game log is text or a list of texts in notation, not ${typeName(actions)}`);
  }
  const tokens = [];
  for (const item of actions) for (const token of splitActions(item)) tokens.push(token);
  return tokens;
}

/** Read every action of a game log (text, or an array of texts). */
export function parseActions(text, { columns = 10 } = {}) {
  return logTokens(text).map((token) => parseAction(token, { columns }));
}
