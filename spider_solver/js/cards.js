// Cards, suits, ranks and their text forms (RULES.md §2 Cards); spider_solver/rules/cards.py
// is the reference.
//
// A card is an immutable value: new Card(rank, suit) with rank 1 (ace) to 13 (king) and
// suit 0..3 (spades, hearts, diamonds, clubs). The 52 cards are made once, so that
// `new Card(10, 0) === Card.parse("TS")`: cards compare with ===, as Python's compare with ==.
import { InvalidCardError, SEPARATORS, asciiUpper, quote, strip } from "./errors.js";

export const SPADES = 0;
export const HEARTS = 1;
export const DIAMONDS = 2;
export const CLUBS = 3;
export const SUIT_LETTERS = "SHDC";
export const SUIT_SYMBOLS = "♠♥♦♣";
export const RANK_CHARS = "A23456789TJQK";
export const RANK_DISPLAY = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

const KNOWN = new Array(52);
let making = true; // while the 52 cards are made, the constructor makes them

/** One card. Ordering (Card.compare) is by rank, then suit. */
export class Card {
  constructor(rank, suit) {
    const known = isCard(rank, suit) && !making ? KNOWN[suit * 13 + rank - 1] : null;
    if (known) return known;
    this.rank = rank;
    this.suit = suit;
    Object.freeze(this);
  }

  /** Read a short text form (``TS``, ``10s``, ``ah``) or the display form (``10♠``). */
  static parse(text) {
    const raw = quote(text);
    if (typeof text !== "string") throw new InvalidCardError(`invalid card ${raw}: expected text like TS or 10S`);
    const token = asciiUpper(strip(text));
    const chars = Array.from(token);
    if (chars.length < 2) {
      throw new InvalidCardError(`invalid card ${raw}: expected a rank (A 2-9 T J Q K) then a suit (S H D C)`);
    }
    const suitText = chars[chars.length - 1];
    const rankText = chars.slice(0, -1).join("");
    let suit = SUIT_LETTERS.indexOf(suitText);
    if (suit < 0) suit = SUIT_SYMBOLS.indexOf(suitText);
    if (suit < 0) throw new InvalidCardError(`invalid card ${raw}: the suit must be one of S H D C`);
    let rank;
    if (rankText === "10") rank = 10;
    else if (rankText.length === 1 && RANK_CHARS.includes(rankText)) rank = RANK_CHARS.indexOf(rankText) + 1;
    else throw new InvalidCardError(`invalid card ${raw}: the rank must be one of A 2 3 4 5 6 7 8 9 T (or 10) J Q K`);
    return KNOWN[suit * 13 + rank - 1];
  }

  /** Negative, 0 or positive as ``a`` sorts before, with or after ``b``: rank, then suit. */
  static compare(a, b) {
    return a.rank - b.rank || a.suit - b.suit;
  }

  /** The short text form, e.g. ``TS``. */
  toString() {
    return RANK_CHARS[this.rank - 1] + SUIT_LETTERS[this.suit];
  }

  /** The display form, e.g. ``10♠``. */
  symbol() {
    return RANK_DISPLAY[this.rank - 1] + SUIT_SYMBOLS[this.suit];
  }
}

function isCard(rank, suit) {
  return Number.isInteger(rank) && Number.isInteger(suit) && rank >= 1 && rank <= 13 && suit >= 0 && suit <= 3;
}

for (let suit = 0; suit < 4; suit++) {
  for (let rank = 1; rank <= 13; rank++) KNOWN[suit * 13 + rank - 1] = new Card(rank, suit);
}
making = false;

/** True for one of the 52 cards (rank 1-13, suit 0-3). */
export function isValidCard(card) {
  return card instanceof Card && isCard(card.rank, card.suit);
}

/** Read cards separated by white space, commas, or both. */
export function parseCards(text) {
  return text.split(SEPARATORS).filter((token) => token !== "").map((token) => Card.parse(token));
}

/** Cards joined by single spaces, in short form (or display form with ``symbols``). */
export function formatCards(cards, { symbols = false } = {}) {
  return Array.from(cards, (card) => (symbols ? card.symbol() : card.toString())).join(" ");
}
