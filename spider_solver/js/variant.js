// The variant: suit count, rule, and the size of the game (RULES.md §3 Variants);
// spider_solver/rules/variant.py is the reference.
import { Card } from "./cards.js";
import { InvalidVariantError, quote, strip, wholeNumber } from "./errors.js";

export const CLASSIC = "classic";
export const RELAXED = "relaxed";
const RULE_NAMES = [CLASSIC, RELAXED];
const SUIT_COUNTS = [1, 2, 4];
/** The real game's deck; shrunken variants hold fewer cards, never more. */
export const MAX_CARDS = 104;
/** The real game's columns; shrunken variants have fewer, never more. */
export const MAX_COLUMNS = 10;

/** ``"classic"``, ``"Relaxed"``, ``"C"``, ``"r"`` -> the rule name. */
export function parseRule(text) {
  const value = typeof text === "string" ? strip(text).toLowerCase() : null;
  for (const rule of RULE_NAMES) if (value === rule || value === rule[0]) return rule;
  throw new InvalidVariantError(`unknown rule ${quote(text)}: expected classic (C) or relaxed (R)`);
}

/** ``4``, ``"2"``, ``" 1 "`` -> the suit count; anything else is refused (``4.5``, ``true``, ``"3"``). */
export function parseSuits(value) {
  let text = "";
  if (typeof value === "string") text = strip(value);
  else if (wholeNumber(value) !== null && SUIT_COUNTS.includes(value)) text = String(value);
  if (text !== "1" && text !== "2" && text !== "4") {
    throw new InvalidVariantError(`unknown suit count ${quote(value)}: expected 1, 2 or 4`);
  }
  return Number(text);
}

/** What is being played: ``new Variant({suits: 2, rule: "relaxed"})``; the defaults are
 *  the real game with 4 suits. Tests shrink it with ``ranks``, ``runs``, ``columns`` and
 *  ``layout`` (RULES.md §3.3 Shrunken test variants). Immutable. */
export class Variant {
  constructor({ suits = 4, rule = CLASSIC, ranks = 13, runs = 8, columns = 10, layout = 54 } = {}) {
    const given = { suits, ranks, runs, columns, layout };
    for (const [name, value] of Object.entries(given)) {
      if (wholeNumber(value) === null) {
        throw new InvalidVariantError(`invalid ${name} ${quote(value)}: expected a whole number`);
      }
    }
    if (!SUIT_COUNTS.includes(suits)) throw new InvalidVariantError(`unknown suit count ${quote(suits)}: expected 1, 2 or 4`);
    if (!RULE_NAMES.includes(rule)) throw new InvalidVariantError(`unknown rule ${quote(rule)}: expected 'classic' or 'relaxed'`);
    if (suits === 1) rule = CLASSIC; // with one suit the two rules play identically: one spelling
    if (!(ranks >= 2 && ranks <= 13)) throw new InvalidVariantError(`invalid ranks ${quote(ranks)}: expected 2 to 13`);
    if (runs < 1 || runs % suits) {
      throw new InvalidVariantError(`invalid runs ${quote(runs)}: expected a positive multiple of the suit count`);
    }
    if (!(columns >= 1 && columns <= MAX_COLUMNS)) {
      throw new InvalidVariantError(`invalid columns ${quote(columns)}: expected 1 to ${MAX_COLUMNS}`);
    }
    const cards = runs * ranks;
    if (cards > MAX_CARDS) {
      throw new InvalidVariantError(`invalid size: ${quote(runs)} runs of ${ranks} ranks make ${quote(cards)} cards; ` +
                                    `the game has at most ${MAX_CARDS}`);
    }
    if (cards < columns) {
      throw new InvalidVariantError(`invalid size: ${quote(runs)} runs of ${ranks} ranks make ${quote(cards)} cards, ` +
                                    `fewer than the ${columns} columns`);
    }
    if (!(columns <= layout && layout <= cards)) {
      throw new InvalidVariantError(`invalid layout ${quote(layout)}: expected ${columns} to ${cards} cards`);
    }
    if ((cards - layout) % columns) {
      throw new InvalidVariantError(`invalid layout ${quote(layout)}: the ${cards - layout} stock cards do not make ` +
                                    `whole deals of ${columns}`);
    }
    Object.assign(this, { suits, rule, ranks, runs, columns, layout });
    Object.freeze(this);
  }

  /** Cards in the deck: 104 in the real game. */
  get cards() { return this.runs * this.ranks; }

  /** Deals the stock allows: 5 in the real game. */
  get deals() { return (this.cards - this.layout) / this.columns; }

  /** True for the real game (the only one that has game codes). */
  get isStandard() {
    return this.ranks === 13 && this.runs === 8 && this.columns === 10 && this.layout === 54;
  }

  /** True for the same suits, rule and size. */
  equals(other) {
    return other instanceof Variant && other.suits === this.suits && other.rule === this.rule &&
      other.ranks === this.ranks && other.runs === this.runs && other.columns === this.columns &&
      other.layout === this.layout;
  }

  /** The deck before shuffling: ``runs / suits`` times, each suit in order, ranks A up. */
  unshuffled() {
    const cards = [];
    for (let copy = 0; copy < this.runs / this.suits; copy++) {
      for (let suit = 0; suit < this.suits; suit++) {
        for (let rank = 1; rank <= this.ranks; rank++) cards.push(new Card(rank, suit));
      }
    }
    return cards;
  }

  toString() {
    let text = `${this.suits} suit${this.suits > 1 ? "s" : ""}, ${this.rule}`;
    if (!this.isStandard) {
      text += `, ${this.ranks} ranks, ${this.runs} runs, ${this.columns} columns, layout ${this.layout}`;
    }
    return text;
  }
}
