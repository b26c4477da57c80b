// A deal: the cards in deck order and the variant they are played under (RULES.md §4
// Layout and stock, §10 Explicit deals); spider_solver/rules/deal.py is the reference.
import { Card, formatCards, isValidCard, parseCards } from "./cards.js";
import { GameCode } from "./codes.js";
import { InvalidCardError, InvalidDealError, Memo, SEPARATORS, pyRepr, quote, typeName } from "./errors.js";
import { CLASSIC, MAX_CARDS, Variant, parseRule, parseSuits } from "./variant.js";

/** An explicit deal's text with more tokens than this is refused without reading its cards. */
const MAX_DECK_TOKENS = 2 * MAX_CARDS;
/** A message names at most this many different cards, then says how many more. */
const NAMED_CARDS = 12;
const OF_CODE = new Memo(256);

/** The cards of a deck in deck order, and the variant. ``new Deal(cards, variant, code)``
 *  refuses a deck that is not the variant's composition; ``code`` (a GameCode) must be the
 *  one the cards came from, or null for an explicit deal. Immutable. */
export class Deal {
  constructor(cards, variant, code = null) {
    if (!(variant instanceof Variant)) throw new TypeError(`a deal's variant is a Variant, not ${typeName(variant)}`);
    cards = Object.freeze(Array.from(cards));
    checkComposition(cards, variant);
    if (code !== null && code !== undefined) {
      if (!(code instanceof GameCode)) throw new TypeError(`a deal's code is a GameCode or null, not ${typeName(code)}`);
      const deck = code.deck();
      if (!code.variant.equals(variant) || deck.some((card, t) => card !== cards[t])) {
        throw new InvalidDealError(`these cards and variant are not those of the game code ${code}: ` +
                                   "a deal of its own has code=None");
      }
    }
    this.cards = cards;
    this.variant = variant;
    this.code = code ?? null;
    Object.freeze(this);
  }

  /** The deal of a game code (a GameCode or its text); made once for each code. */
  static fromCode(code) {
    if (typeof code === "string") code = GameCode.parse(code);
    else if (!(code instanceof GameCode)) {
      throw new TypeError(`expected a game code (a GameCode or a string), not ${typeName(code)}`);
    }
    const key = code.toString();
    return OF_CODE.get(key) ?? OF_CODE.remember(key, new Deal(code.deck(), code.variant, code));
  }

  /** ``deal`` itself, or the deal of a game code (a GameCode or its text). */
  static of(deal) {
    if (deal instanceof Deal) return deal;
    if (deal instanceof GameCode || typeof deal === "string") return Deal.fromCode(deal);
    throw new TypeError(`expected a Deal, a GameCode or a game code string, not ${typeName(deal)}`);
  }

  /** An explicit deal: the 104 cards in deck order separated by white space or commas. */
  static fromText(text, suits = 4, rule = CLASSIC) {
    const variant = new Variant({ suits: parseSuits(suits), rule: parseRule(rule) });
    if (typeof text !== "string") {
      throw new InvalidDealError(`invalid deal ${quote(text)}: expected the cards as text, like "8S QC 4H ..."`);
    }
    const tokens = text.split(SEPARATORS).filter((token) => token !== "");
    if (tokens.length > MAX_DECK_TOKENS) {
      throw new InvalidDealError(`invalid deal for ${variant} (${tokens.length} cards, expected ${variant.cards}): ` +
                                 "far too many to be a deck");
    }
    let cards;
    try {
      cards = tokens.map((token) => Card.parse(token));
    } catch (error) {
      if (error instanceof InvalidCardError) throw new InvalidDealError(`invalid deal: ${error.message}`);
      throw error;
    }
    return new Deal(cards, variant);
  }

  /** A hand-made deal, given as the layout to see: ``columns[c - 1]`` lists column c from
   *  its deepest card, ``stock[d]`` the cards deal d puts on columns 1, 2, ...; each may be
   *  an array of cards or text (``"KS QS"``), and the whole stock may be one text. */
  static fromColumns(columns, stock = [], variant = null) {
    variant = variant ?? new Variant();
    if (!(variant instanceof Variant)) throw new TypeError(`variant must be a Variant, not ${typeName(variant)}`);
    const n = variant.columns;
    if (typeof stock === "string") {
      const flat = parseCards(stock);
      const rows = [];
      for (let i = 0; i < flat.length; i += n) rows.push(flat.slice(i, i + n));
      stock = rows;
    }
    const piles = Array.from(columns, (column) => (typeof column === "string" ? parseCards(column) : Array.from(column)));
    const rows = Array.from(stock, (row) => (typeof row === "string" ? parseCards(row) : Array.from(row)));
    const sizes = [];
    for (let c = 0; c < n; c++) sizes.push(c < variant.layout ? Math.ceil((variant.layout - c) / n) : 0);
    const given = piles.map((pile) => pile.length);
    if (given.length !== sizes.length || given.some((size, c) => size !== sizes[c])) {
      throw new InvalidDealError(`invalid layout: columns of ${pyRepr(given)} cards, expected ${pyRepr(sizes)} ` +
                                 `for ${variant}`);
    }
    if (rows.length !== variant.deals || rows.some((row) => row.length !== n)) {
      throw new InvalidDealError(`invalid stock: rows of ${pyRepr(rows.map((row) => row.length))} cards, expected ` +
                                 `${variant.deals} row${variant.deals !== 1 ? "s" : ""} (one per deal) of ${n} cards ` +
                                 `for ${variant}`);
    }
    const layout = [];
    for (let t = 0; t < variant.layout; t++) layout.push(piles[t % n][Math.floor(t / n)]);
    return new Deal(layout.concat(...rows), variant);
  }

  /** The game code, or ``explicit deal``. */
  get name() {
    return this.code ? this.code.toString() : "explicit deal";
  }

  /** The initial columns (new arrays): card t goes on column (t mod columns) + 1. */
  columns() {
    const { columns, layout } = this.variant;
    const piles = Array.from({ length: columns }, () => []);
    for (let t = 0; t < layout; t++) piles[t % columns].push(this.cards[t]);
    return piles;
  }

  /** The stock in deck order (a new array): deal d puts cards ``layout + columns*d + c`` on column c + 1. */
  stock() {
    return this.cards.slice(this.variant.layout);
  }

  /** The deck on one line in short text form (the explicit-deal format). */
  text() {
    return formatCards(this.cards);
  }
}

/** Refuse a deck that is not exactly the composition of ``variant``, naming the cards. */
function checkComposition(cards, variant) {
  for (const card of cards) {
    if (!isValidCard(card)) {
      const shown = card instanceof Card ? `(${pyRepr(card.rank)}, ${pyRepr(card.suit)})` : quote(card);
      throw new InvalidDealError(`invalid deal: ${shown} is not a card (rank 1-13, suit 0-3)`);
    }
  }
  const counts = new Array(52).fill(0);
  for (const card of cards) counts[card.suit * 13 + card.rank - 1]++;
  for (const card of variant.unshuffled()) counts[card.suit * 13 + card.rank - 1]--;
  const missing = [], extra = [];
  for (let index = 0; index < 52; index++) { // by suit, then rank
    if (counts[index] < 0) missing.push([index, -counts[index]]);
    if (counts[index] > 0) extra.push([index, counts[index]]);
  }
  if (!missing.length && !extra.length) return;
  const details = [];
  if (missing.length) details.push("missing " + countCards(missing));
  if (extra.length) details.push("extra " + countCards(extra));
  const size = cards.length !== variant.cards
    ? ` (${cards.length} card${cards.length === 1 ? "" : "s"}, expected ${variant.cards})` : "";
  throw new InvalidDealError(`invalid deal for ${variant}${size}: ` + details.join("; "));
}

function countCards(counted) {
  const named = counted.slice(0, NAMED_CARDS).map(([index, count]) =>
    new Card((index % 13) + 1, Math.floor(index / 13)).toString() + (count > 1 ? ` (x${count})` : ""));
  const rest = counted.slice(NAMED_CARDS).reduce((sum, [, count]) => sum + count, 0);
  return named.join(", ") + (rest ? ` and ${rest} more` : "");
}
