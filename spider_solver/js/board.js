// The board: a position to push actions on and pop them from (RULES.md §5 Moves to §8
// Score and undo, §13 Frontend helpers); spider_solver/rules/board.py is the reference,
// and every method here is the method of the same name there, in JavaScript naming.
//
// Columns are numbered from 1 in every method that takes or returns a column and in every
// message; only the arrays that hold the position (``columns``, ``down``) are indexed
// from 0: ``columns[c - 1]`` is column c (RULES.md §1 Conventions).
import { RANK_DISPLAY, SUIT_SYMBOLS } from "./cards.js";
import { Deal } from "./deal.js";
import { IllegalActionError, quote, typeName, wholeNumber } from "./errors.js";
import { DealRow, Move, Undo, parseAction } from "./notation.js";
import { CLASSIC } from "./variant.js";

export const START_SCORE = 500;
export const RUN_BONUS = 100;
export const DEFAULT_UNDO_LIMIT = 100;

/** Everything that defines a position; what undo restores. Frozen; ``equals`` compares. */
export class Position {
  constructor({ columns, down, dealt, removed, score, moves }) {
    this.columns = Object.freeze(columns.map((column) => Object.freeze(column.slice())));
    this.down = Object.freeze(down.slice());
    this.dealt = dealt;
    this.removed = Object.freeze(removed.slice());
    this.score = score;
    this.moves = moves;
    Object.freeze(this);
  }

  /** True when cards, face-down counts, deals made, removed runs, score and counter are equal. */
  equals(other) {
    const same = (a, b) => a.length === b.length && a.every((item, i) => item === b[i]);
    return other instanceof Position && other.dealt === this.dealt && other.score === this.score &&
      other.moves === this.moves && same(other.down, this.down) && same(other.removed, this.removed) &&
      other.columns.length === this.columns.length && other.columns.every((column, c) => same(column, this.columns[c]));
  }
}

/** A RangeError unless ``dealOnEmpty`` is a boolean and ``undoLimit`` a whole number from 0,
 *  or null (unlimited). */
export function checkPlayOptions(dealOnEmpty, undoLimit) {
  if (typeof dealOnEmpty !== "boolean") {
    throw new RangeError(`invalid deal_on_empty ${quote(dealOnEmpty)}: expected True or False`);
  }
  if (undoLimit !== null && (wholeNumber(undoLimit) === null || undoLimit < 0)) {
    throw new RangeError(`invalid undo limit ${quote(undoLimit)}: expected 0 or more, or None for unlimited`);
  }
}

function notAnAction(action) {
  return new TypeError(`an action is a Move, DealRow or Undo, not ${typeName(action)} ` +
                       "(parseAction reads one from text; pushNotation plays text)");
}

/** A game in progress: ``new Board(deal, {dealOnEmpty = false, undoLimit = 100})``, where
 *  ``deal`` is a Deal, a GameCode or a game code's text. ``push(action)`` plays an action or
 *  throws IllegalActionError with the rule that refuses it; ``pop()`` undoes the last one.
 *  ``undoLimit`` is how many actions can be undone (null: unlimited). */
export class Board {
  #history;
  #undos; // undos made in this game: with the counter back at 0, every action was undone

  constructor(deal, { dealOnEmpty = false, undoLimit = DEFAULT_UNDO_LIMIT } = {}) {
    checkPlayOptions(dealOnEmpty, undoLimit);
    deal = Deal.of(deal);
    this.deal = deal;
    this.variant = deal.variant;
    this.dealOnEmpty = dealOnEmpty;
    this.undoLimit = undoLimit;
    this.columns = deal.columns();
    this.down = this.columns.map((column) => (column.length ? column.length - 1 : 0));
    this.stock = deal.stock();
    this.dealt = 0;
    this.removed = [];
    this.score = START_SCORE;
    this.moves = 0;
    this.#history = []; // the positions before the last actions, at most undoLimit of them
    this.#undos = 0;
  }

  // -- reading the position ------------------------------------------------

  get runsRemoved() { return this.removed.length; }

  get dealsLeft() { return this.variant.deals - this.dealt; }

  /** Cards still in the stock. */
  get stockLeft() { return this.dealsLeft * this.variant.columns; }

  isWon() { return this.removed.length === this.variant.runs; }

  /** The face-up cards of a column (numbered from 1), from the deepest to the last. */
  faceUp(column) {
    const c = this.#index(column);
    return this.columns[c].slice(this.down[c]);
  }

  /** Size of the largest group that can leave a column (numbered from 1); 0 if empty
   *  (RULES.md §5.1 Groups). */
  movable(column) {
    const c = this.#index(column);
    const cards = this.columns[c];
    const up = cards.length - this.down[c];
    let size = up ? 1 : 0;
    while (size < up && this.#follows(cards[cards.length - size - 1], cards[cards.length - size])) size++;
    return size;
  }

  /** The array index of ``column`` (numbered from 1); a RangeError for a column that does not exist. */
  #index(column) {
    const n = this.variant.columns;
    if (wholeNumber(column) === null || column < 1 || column > n) {
      throw new RangeError(`invalid column ${quote(column)}: columns are numbered 1 to ${n}`);
    }
    return column - 1;
  }

  /** True if ``lower`` may lie on ``upper`` inside a group under this rule. */
  #follows(upper, lower) {
    if (lower.rank !== upper.rank - 1) return false;
    return this.variant.rule !== CLASSIC || lower.suit === upper.suit;
  }

  position() {
    return new Position(this);
  }

  /** The same position, score and counter as a new game with nothing to undo and undo off. */
  copy() {
    const other = new Board(this.deal, { dealOnEmpty: this.dealOnEmpty, undoLimit: 0 });
    other.#restore(this.position());
    return other;
  }

  // -- checking actions ----------------------------------------------------

  /** The action with its group size filled in, or an IllegalActionError with the rule that
   *  refuses it (RULES.md §5.4 Which rule refuses a move, §13.3 Rule reminders). */
  check(action) {
    const verdict = this.#judge(action);
    if (typeof verdict === "string") throw new IllegalActionError(verdict);
    return verdict;
  }

  /** True if check() accepts the action. */
  isLegal(action) {
    return typeof this.#judge(action) !== "string";
  }

  /** Same as check(): the action as it will be played. */
  resolve(action) {
    return this.check(action);
  }

  /** The action as it will be played, or the rule that refuses it as text: the checks of
   *  check() without an exception, which the placement help makes hundreds of times. */
  #judge(action) {
    if (action instanceof Move) return this.#judgeMove(action);
    if (action instanceof DealRow) return this.#dealRefusal() ?? action;
    if (action instanceof Undo) return this.#undoRefusal() ?? action;
    throw notAnAction(action);
  }

  #dealRefusal() {
    if (this.dealsLeft === 0) return "cannot deal: the stock is empty";
    if (this.dealOnEmpty) return null;
    const empty = [];
    this.columns.forEach((column, c) => { if (!column.length) empty.push(String(c + 1)); });
    if (empty.length === 1) return `cannot deal while column ${empty[0]} is empty: put a card there first`;
    if (!empty.length) return null;
    const listed = empty.slice(0, -1).join(", ") + " and " + empty[empty.length - 1];
    return `cannot deal while columns ${listed} are empty: put a card in each first`;
  }

  #undoRefusal() {
    if (this.#history.length) return null;
    if (this.moves === 0) {
      return this.#undos ? "nothing to undo: every action has been undone" : "nothing to undo: no action has been made";
    }
    if (this.undoLimit === 0) return "cannot undo: undo is turned off (undo limit 0)";
    return `nothing more to undo: only the last ${this.undoLimit} action${this.undoLimit !== 1 ? "s" : ""} can be undone`;
  }

  #judgeMove(move) {
    const n = this.variant.columns;
    if (!(move.src >= 1 && move.src <= n)) return noColumn(move, "source", move.src, n);
    if (!(move.dst >= 1 && move.dst <= n)) return noColumn(move, "target", move.dst, n);
    if (move.src === move.dst) return illegal(move, "source and target are the same column");
    if (move.count !== null && move.count < 1) return illegal(move, "a group holds at least 1 card");
    const src = this.columns[move.src - 1], dst = this.columns[move.dst - 1];
    if (!src.length) return illegal(move, `column ${move.src} is empty`);
    const target = dst.length ? dst[dst.length - 1] : null;
    if (target !== null && target.rank === 1) {
      return illegal(move, `no card goes onto an ace (${target.symbol()} ends column ${move.dst})`);
    }
    let count = move.count;
    if (count === null) {
      if (target === null) {
        count = this.movable(move.src);
      } else {
        const last = src[src.length - 1];
        count = target.rank - last.rank;
        if (count < 1) {
          return illegal(move, `${last.symbol()} cannot go onto ${target.symbol()}, ` +
                               "a card goes only onto a card exactly one rank higher");
        }
      }
    }
    const refusal = this.#groupRefusal(move, count, move.count === null);
    if (refusal !== null) return refusal;
    if (target !== null && src[src.length - count].rank !== target.rank - 1) {
      return illegal(move, `${src[src.length - count].symbol()} cannot go onto ${target.symbol()}, ` +
                           "a group goes only onto a card exactly one rank higher than its first card");
    }
    return move.count === count ? move : new Move(move.src, move.dst, count);
  }

  /** Why the last ``count`` cards of the source are no movable group, or null; ``implicit``
   *  says the count was derived from the target card (``F>T`` onto a card). */
  #groupRefusal(move, count, implicit) {
    const column = this.columns[move.src - 1];
    const height = column.length;
    const faceUp = height - this.down[move.src - 1];
    if (implicit && (count > faceUp || (count > 1 && brokenRanks(column, count)))) {
      const target = this.columns[move.dst - 1].at(-1);
      return illegal(move, `nothing in column ${move.src} fits onto ${target.symbol()}: ` +
                           `a group going there must start with a face-up ${rankName(target.rank - 1)} ` +
                           "and go down one rank at a time to the last card");
    }
    for (let i = 1; i < Math.min(count, faceUp); i++) {
      const upper = column[height - i - 1], lower = column[height - i];
      if (lower.rank !== upper.rank - 1) {
        return illegal(move, `a group must go down one rank at a time: ${lower.symbol()} lies on ${upper.symbol()}`);
      }
      if (this.variant.rule === CLASSIC && lower.suit !== upper.suit) {
        return illegal(move, "under the Classic rule a group must be one suit: " +
                             `${lower.symbol()} lies on ${upper.symbol()}`);
      }
    }
    if (count > height) return illegal(move, `column ${move.src} holds only ${height} card${height > 1 ? "s" : ""}`);
    if (count > faceUp) {
      return illegal(move, `face-down cards cannot be moved; column ${move.src} has ` +
                           `${faceUp} face-up card${faceUp > 1 ? "s" : ""}`);
    }
    return null;
  }

  /** Every legal action, group sizes filled in: moves by source then target, then the deal
   *  (RULES.md §13.2 Legal moves). */
  legalMoves() {
    const actions = [];
    const columns = this.columns;
    for (let s = 0; s < columns.length; s++) {
      const src = columns[s];
      if (!src.length) continue;
      const largest = this.movable(s + 1);
      for (let d = 0; d < columns.length; d++) {
        if (d === s) continue;
        const dst = columns[d];
        if (!dst.length) {
          for (let count = 1; count <= largest; count++) actions.push(new Move(s + 1, d + 1, count));
        } else {
          const count = dst[dst.length - 1].rank - src[src.length - 1].rank;
          if (count >= 1 && count <= largest) actions.push(new Move(s + 1, d + 1, count));
        }
      }
    }
    if (this.isLegal(new DealRow())) actions.push(new DealRow());
    return actions;
  }

  /** Columns (numbered from 1) the group of the last ``count`` cards of ``column`` may go to:
   *  the columns a frontend highlights while it is dragged (RULES.md §13.1 Placement help);
   *  [] when the group cannot move at all, even for a column or count out of range. */
  targets(column, count) {
    if (wholeNumber(column) === null || wholeNumber(count) === null) return [];
    const found = [];
    for (let d = 1; d <= this.variant.columns; d++) {
      if (d !== column && this.isLegal(new Move(column, d, count))) found.push(d);
    }
    return found;
  }

  /** The move auto-place (a double-click) makes with the last ``count`` cards of ``column``,
   *  or null; ``count`` null tries the column's groups from the largest
   *  (RULES.md §13.6 Best column (auto-place)). */
  bestMove(column, count = null) {
    const c = this.#index(column);
    if (count === null || count === undefined) {
      const largest = this.movable(column);
      const whole = this.targets(column, largest); // the largest group's targets: steps 1-2 first, step 3 last
      for (let size = largest; size > 0; size--) {
        const move = this.#bestOntoCard(column, size, size === largest ? whole : this.targets(column, size));
        if (move !== null) return move;
      }
      return this.#ontoEmpty(column, largest, whole);
    }
    const height = this.columns[c].length;
    if (wholeNumber(count) === null || count < 1 || count > height) {
      if (!height) throw new RangeError(`invalid count ${quote(count)}: column ${column} is empty`);
      const cards = `${height} card${height > 1 ? "s" : ""}`;
      throw new RangeError(`invalid count ${quote(count)}: column ${column} holds ${cards}, expected 1 to ${height}`);
    }
    const allowed = this.targets(column, count);
    return this.#bestOntoCard(column, count, allowed) ?? this.#ontoEmpty(column, count, allowed);
  }

  /** The column auto-place sends the group to: the target of bestMove(), or null. */
  bestTarget(column, count = null) {
    const move = this.bestMove(column, count);
    return move === null ? null : move.dst;
  }

  /** Steps 1 and 2 of auto-place, among ``allowed``: a card of the group's first card's suit, then any card. */
  #bestOntoCard(column, size, allowed) {
    const cards = this.columns[column - 1];
    const first = cards[cards.length - size];
    const onto = allowed.filter((d) => this.columns[d - 1].length);
    const same = onto.filter((d) => this.columns[d - 1].at(-1).suit === first.suit);
    const best = same.length ? same : onto;
    return best.length ? new Move(column, best[0], size) : null;
  }

  /** Step 3 of auto-place, among ``allowed``: the lowest empty column, unless the group is the whole column. */
  #ontoEmpty(column, size, allowed) {
    if (size === 0 || size === this.columns[column - 1].length) return null;
    const empty = allowed.filter((d) => !this.columns[d - 1].length);
    return empty.length ? new Move(column, empty[0], size) : null;
  }

  // -- playing -------------------------------------------------------------

  /** Play an action (Undo undoes); return it as played, group size filled in
   *  (RULES.md §5.3 After the move). */
  push(action) {
    action = this.check(action);
    if (action instanceof Undo) {
      this.pop();
      return action;
    }
    if (this.undoLimit !== 0) {
      this.#history.push(this.#snapshot());
      if (this.undoLimit !== null && this.#history.length > this.undoLimit) this.#history.shift();
    }
    let touched;
    if (action instanceof DealRow) {
      const n = this.variant.columns;
      this.columns.forEach((column, c) => column.push(this.stock[this.dealt * n + c]));
      this.dealt++;
      touched = this.columns.map((_, c) => c);
    } else {
      const src = this.columns[action.src - 1], dst = this.columns[action.dst - 1];
      for (const card of src.splice(src.length - action.count, action.count)) dst.push(card);
      touched = [action.dst - 1, action.src - 1]; // the only columns that changed
    }
    const removedNow = this.#removeRuns(touched);
    this.#turnUp(touched);
    this.score = Math.max(0, this.score - 1) + RUN_BONUS * removedNow;
    this.moves++;
    return action;
  }

  /** Play an action as push() does; return its canonical notation, as notation() gives it before the move. */
  play(action) {
    const ontoCard = this.#ontoCard(action);
    return written(this.push(action), ontoCard);
  }

  /** Play an action given in notation; return it as played. */
  pushNotation(text) {
    return this.push(this.parseAction(text));
  }

  /** Undo the last action: cards, face-down cards, removed runs, score and counter (RULES.md §8.2 Undo). */
  pop() {
    const refusal = this.#undoRefusal();
    if (refusal !== null) throw new IllegalActionError(refusal);
    this.#restore(this.#history.pop(), false);
    this.#undos++;
  }

  /** What undo restores: the position's arrays copied, not frozen (a Position's are, and
   *  freezing them took most of a replay's time when the log undoes). */
  #snapshot() {
    return { columns: this.columns.map((column) => column.slice()), down: this.down.slice(), dealt: this.dealt,
             removed: this.removed.slice(), score: this.score, moves: this.moves };
  }

  /** Set the position of a Position or a snapshot; ``copy`` false takes a snapshot's arrays over. */
  #restore(position, copy = true) {
    this.columns = copy ? position.columns.map((column) => column.slice()) : position.columns;
    this.down = copy ? position.down.slice() : position.down;
    this.dealt = position.dealt;
    this.removed = copy ? position.removed.slice() : position.removed;
    this.score = position.score;
    this.moves = position.moves;
  }

  /** Remove every completed one-suit run (king down to ace) that ends a column of those
   *  ``touched`` (numbered from 0) by the action (RULES.md §7 Runs and the win). */
  #removeRuns(touched) {
    const ranks = this.variant.ranks;
    let removed = 0;
    for (const c of touched) {
      const column = this.columns[c];
      while (column.length - this.down[c] >= ranks) {
        const start = column.length - ranks;
        const suit = column[start].suit;
        let run = true;
        for (let i = 0; i < ranks; i++) {
          const card = column[start + i];
          if (card.suit !== suit || card.rank !== ranks - i) { run = false; break; }
        }
        if (!run) break;
        column.length = start;
        this.removed.push(suit);
        removed++;
      }
    }
    return removed;
  }

  /** A face-down card that nothing covers turns face up (in the columns ``touched``). */
  #turnUp(touched) {
    for (const c of touched) {
      if (this.columns[c].length && this.down[c] === this.columns[c].length) this.down[c]--;
    }
  }

  // -- notation ------------------------------------------------------------

  parseAction(text) {
    return parseAction(text, { columns: this.variant.columns });
  }

  /** The canonical notation of an action in this position: ``/N`` only onto an empty column
   *  (RULES.md §11 Action notation). */
  notation(action) {
    action = this.check(action);
    return written(action, this.#ontoCard(action));
  }

  /** True for a move whose target column holds a card (then its size is not written). */
  #ontoCard(action) {
    return action instanceof Move && action.dst >= 1 && action.dst <= this.columns.length &&
      this.columns[action.dst - 1].length > 0;
  }

  // -- text ----------------------------------------------------------------

  /** The position in words, in the style of the rule pages. */
  describe() {
    const left = this.dealsLeft;
    const stock = left ? `Stock: ${this.stockLeft} cards, ${left} deal${left > 1 ? "s" : ""} left`
      : "Stock: empty, no deals left";
    const runs = this.removed.length
      ? `${this.runsRemoved} run${this.runsRemoved > 1 ? "s" : ""} removed` : "no run removed";
    const parts = this.columns.map((column, c) => {
      let text = "empty";
      if (column.length) {
        const up = column.slice(this.down[c]).map((card) => card.symbol()).join(" ");
        text = this.down[c] ? `${this.down[c]} face down, then ${up}` : up;
      }
      return `Column ${c + 1}: ${text}`;
    });
    return `${stock}; ${runs}. ` + parts.join("; ") + ".";
  }

  /** A compact drawing: one text column per column, ``##`` for a face-down card. */
  grid() {
    const width = 4;
    const pad = (text) => text.padStart(width);
    const lines = [this.columns.map((_, c) => pad(String(c + 1))).join("")];
    const height = Math.max(0, ...this.columns.map((column) => column.length));
    for (let row = 0; row < height; row++) {
      const cells = this.columns.map((column, c) => {
        if (row >= column.length) return " ".repeat(width);
        return pad(row < this.down[c] ? "##" : column[row].symbol());
      });
      lines.push(cells.join("").trimEnd());
    }
    const removed = this.removed.map((s) => rankName(this.variant.ranks) + SUIT_SYMBOLS[s]).join(" ") || "none";
    const left = this.dealsLeft;
    lines.push(`stock ${this.stockLeft} (${left} deal${left !== 1 ? "s" : ""})  runs removed: ${removed}  ` +
               `score ${this.score}  moves ${this.moves}`);
    return lines.join("\n");
  }

  toString() {
    return this.grid();
  }
}

export function rankName(rank) {
  return RANK_DISPLAY[rank - 1];
}

/** True when the last ``count`` cards of ``column`` do not go down one rank at a time. */
function brokenRanks(column, count) {
  const height = column.length;
  for (let i = 1; i < count; i++) if (column[height - i].rank !== column[height - i - 1].rank - 1) return true;
  return false;
}

/** An action played, in canonical notation: ``/N`` only onto an empty column. */
function written(action, ontoCard) {
  return action instanceof Move && ontoCard ? `${action.src}>${action.dst}` : action.toString();
}

/** A refused move's rule reminder: ``cannot play '2>1': ...``. */
function illegal(move, rule) {
  return `cannot play ${quote(move.toString())}: ${rule}`;
}

function noColumn(move, which, column, columns) {
  return illegal(move, `${which} column ${quote(column)} does not exist (columns are 1 to ${columns})`);
}
