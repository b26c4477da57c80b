// Game codes SP1-S<k><r>-<deal> and the shuffle behind them (RULES.md §9 Game code,
// §9.1 From deal number to cards); spider_solver/rules/codes.py is the reference.
//
// SplitMix64 works on unsigned 64-bit integers. The shuffle keeps each as two unsigned
// 32-bit halves in plain Numbers (no BigInt on the hot path: a deck takes a few
// microseconds); splitmix64() hands its outputs out as BigInts.
import { asciiUpper, codePoints, InvalidCodeError, Memo, pyRepr, quote, strip, wholeNumber } from "./errors.js";
import { CLASSIC, RELAXED, Variant } from "./variant.js";

const BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const DEAL_CHARS = 7;
/** The largest deal number, 2^35 - 1. */
export const MAX_DEAL = 2 ** 35 - 1;
const CODE_PREFIX = "SP1";
const TWO_32 = 4294967296;

// 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9 and 0x94D049BB133111EB as halves.
const GAMMA_HI = 0x9e3779b9, GAMMA_LO = 0x7f4a7c15;
const M1_HI = 0xbf58476d, M1_LO = 0x1ce4e5b9;
const M2_HI = 0x94d049bb, M2_LO = 0x133111eb;

/** The high 32 bits of the 64-bit product of two unsigned 32-bit integers. */
function mulHigh(a, b) {
  const a0 = a & 0xffff, a1 = a >>> 16, b0 = b & 0xffff, b1 = b >>> 16;
  const p01 = a0 * b1, p10 = a1 * b0;
  const middle = ((a0 * b0) >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  return (a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (middle >>> 16)) >>> 0;
}

/** A SplitMix64 generator on halves: ``next()`` leaves the output in ``hi`` and ``lo``. */
class SplitMix {
  constructor(hi, lo) {
    this.sHi = hi >>> 0;
    this.sLo = lo >>> 0;
    this.hi = 0;
    this.lo = 0;
  }

  next() {
    // s = s + gamma (mod 2^64)
    const sum = this.sLo + GAMMA_LO;
    this.sLo = sum >>> 0;
    this.sHi = (this.sHi + GAMMA_HI + (sum >= TWO_32 ? 1 : 0)) >>> 0;
    let hi = this.sHi, lo = this.sLo;
    // z = (z ^ (z >> 30)) * M1
    lo = (lo ^ ((lo >>> 30) | (hi << 2))) >>> 0;
    hi = (hi ^ (hi >>> 30)) >>> 0;
    let high = (mulHigh(lo, M1_LO) + Math.imul(hi, M1_LO) + Math.imul(lo, M1_HI)) >>> 0;
    lo = Math.imul(lo, M1_LO) >>> 0;
    hi = high;
    // z = (z ^ (z >> 27)) * M2
    lo = (lo ^ ((lo >>> 27) | (hi << 5))) >>> 0;
    hi = (hi ^ (hi >>> 27)) >>> 0;
    high = (mulHigh(lo, M2_LO) + Math.imul(hi, M2_LO) + Math.imul(lo, M2_HI)) >>> 0;
    lo = Math.imul(lo, M2_LO) >>> 0;
    hi = high;
    // z ^ (z >> 31)
    this.lo = (lo ^ ((lo >>> 31) | (hi << 1))) >>> 0;
    this.hi = (hi ^ (hi >>> 31)) >>> 0;
  }
}

/** The two unsigned 32-bit halves of ``state`` modulo 2^64 (a BigInt or a whole Number). */
function halves(state) {
  if (typeof state === "number" && Number.isInteger(state) && state >= 0 && state <= Number.MAX_SAFE_INTEGER) {
    return [Math.floor(state / TWO_32), state >>> 0];
  }
  if (typeof state !== "bigint" && wholeNumber(state) === null) {
    throw new TypeError(`a SplitMix64 state is a whole number or a BigInt, not ${quote(state)}`);
  }
  const value = BigInt.asUintN(64, BigInt(state));
  return [Number(value >> 32n), Number(value & 0xffffffffn)];
}

/** SplitMix64 outputs from ``state`` (64-bit unsigned arithmetic), as BigInts. */
export function* splitmix64(state) {
  const [hi, lo] = halves(state);
  const rng = new SplitMix(hi, lo);
  for (;;) {
    rng.next();
    yield (BigInt(rng.hi) << 32n) | BigInt(rng.lo);
  }
}

/** The deck of deal ``number``: Fisher-Yates from the end, driven by SplitMix64. */
export function shuffleDeck(number, variant) {
  const cards = variant.unshuffled();
  const [hi, lo] = halves(number);
  const rng = new SplitMix(hi, lo);
  for (let i = cards.length - 1; i > 0; i--) {
    rng.next();
    const m = i + 1;
    const j = ((rng.hi % m) * (TWO_32 % m) + (rng.lo % m)) % m; // the 64-bit value mod m
    const card = cards[i];
    cards[i] = cards[j];
    cards[j] = card;
  }
  return cards;
}

function encodeDeal(number) {
  if (!(number >= 0 && number <= MAX_DEAL)) {
    throw new InvalidCodeError(`invalid deal number ${quote(number)}: expected 0 to ${MAX_DEAL}`);
  }
  let text = "";
  for (let i = DEAL_CHARS - 1; i >= 0; i--) text += BASE32_ALPHABET[Math.floor(number / 32 ** i) % 32];
  return text;
}

function decodeDeal(text) {
  const length = codePoints(text);
  if (length !== DEAL_CHARS) {
    throw new InvalidCodeError(`invalid deal ${quote(text)}: expected ${DEAL_CHARS} base32 characters, got ${length}`);
  }
  let number = 0;
  for (const char of text) {
    const value = BASE32_ALPHABET.indexOf(char);
    if (value < 0) {
      throw new InvalidCodeError(`invalid deal ${quote(text)}: ${pyRepr(char)} is not a base32 character (A-Z, 2-7)`);
    }
    number = number * 32 + value;
  }
  return number;
}

const PARSED = new Memo(1024);
const DECKS = new Memo(256);

/** A game code. ``new GameCode(suits, rule, number)`` builds one (rule ``"classic"`` or
 *  ``"relaxed"``); ``GameCode.parse(text)`` reads one; ``toString()`` writes the canonical
 *  upper-case form. Immutable. */
export class GameCode {
  constructor(suits, rule, number) {
    const variant = new Variant({ suits, rule }); // refuses the suit count and the rule; S1R is S1C
    if (typeof number === "bigint" && number >= 0n && number <= BigInt(MAX_DEAL)) number = Number(number);
    if (typeof number !== "bigint" && wholeNumber(number) === null) {
      throw new InvalidCodeError(`invalid deal number ${quote(number)}: expected a whole number`);
    }
    encodeDeal(number);
    this.suits = variant.suits;
    this.rule = variant.rule;
    this.number = number;
    Object.freeze(this);
  }

  /** Read a code such as ``"sp1-s4c-aaaaaad "``; the error names the wrong part. */
  static parse(text) {
    if (typeof text !== "string") {
      throw new InvalidCodeError(`invalid game code ${quote(text)}: expected text like SP1-S4C-AAAAAAD`);
    }
    return PARSED.get(text) ?? PARSED.remember(text, parseCode(text));
  }

  get variant() {
    return new Variant({ suits: this.suits, rule: this.rule });
  }

  /** The 104 cards in deck order (a new array). */
  cards() {
    return this.deck().slice();
  }

  /** The cards in deck order, frozen; the shuffle of a code is done once. */
  deck() {
    const key = this.suits * 2 ** 36 + this.number;
    return DECKS.get(key) ?? DECKS.remember(key, Object.freeze(shuffleDeck(this.number, this.variant)));
  }

  /** True for the same suit count, rule and deal number. */
  equals(other) {
    return other instanceof GameCode && other.suits === this.suits && other.rule === this.rule &&
      other.number === this.number;
  }

  toString() {
    return `${CODE_PREFIX}-S${this.suits}${this.rule[0].toUpperCase()}-${encodeDeal(this.number)}`;
  }
}

function parseCode(text) {
  const raw = quote(text);
  const parts = asciiUpper(strip(text)).split("-");
  if (parts.length !== 3) {
    throw new InvalidCodeError(`invalid game code ${raw}: expected three parts like SP1-S4C-AAAAAAD`);
  }
  const [prefix, variant, deal] = parts;
  if (prefix !== CODE_PREFIX) {
    throw new InvalidCodeError(`invalid game code ${raw}: unknown format ${quote(prefix)}, expected '${CODE_PREFIX}'`);
  }
  const chars = Array.from(variant);
  if (chars.length !== 3 || chars[0] !== "S") {
    throw new InvalidCodeError(`invalid game code ${raw}: the variant ${quote(variant)} must be S, a suit count ` +
                               "and a rule letter, like S4C");
  }
  if (!"124".includes(chars[1])) {
    throw new InvalidCodeError(`invalid game code ${raw}: suit count ${pyRepr(chars[1])} in ${pyRepr(variant)} ` +
                               "must be 1, 2 or 4");
  }
  if (!"CR".includes(chars[2])) {
    throw new InvalidCodeError(`invalid game code ${raw}: rule letter ${pyRepr(chars[2])} in ${pyRepr(variant)} ` +
                               "must be C (Classic) or R (Relaxed)");
  }
  let number;
  try {
    number = decodeDeal(deal);
  } catch (error) {
    if (error instanceof InvalidCodeError) throw new InvalidCodeError(`invalid game code ${raw}: ${error.message}`);
    throw error;
  }
  return new GameCode(Number(chars[1]), chars[2] === "C" ? CLASSIC : RELAXED, number);
}

/** Parse and print a game code in its canonical form. */
export function canonicalCode(text) {
  return GameCode.parse(text).toString();
}

