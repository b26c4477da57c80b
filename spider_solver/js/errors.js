// The errors the rules raise, and the text helpers every message and format shares
// (RULES.md §1 Conventions, §13.5 Errors); spider_solver/errors.py is the reference.
//
// A refusal is a SpiderError (one subclass a kind, as in Python); a column or an option out
// of range is a RangeError (Python's plain ValueError), a value of the wrong type a
// TypeError. Messages are the Python engine's, character for character: lower case, the
// input quoted as Python's repr() quotes it, cut to QUOTE_LIMIT code points.

/** A message quotes at most this many characters (or digits) of an input. */
export const QUOTE_LIMIT = 40;

/** Base class of the rules' refusals. */
export class SpiderError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}

/** A card's text form does not parse (RULES.md §2 Cards). */
export class InvalidCardError extends SpiderError {}
/** A game code does not parse; the message names the wrong part (RULES.md §9 Game code). */
export class InvalidCodeError extends SpiderError {}
/** An explicit deal has the wrong cards (RULES.md §10 Explicit deals). */
export class InvalidDealError extends SpiderError {}
/** A suit count, rule or variant size is not one the rules play (RULES.md §3 Variants). */
export class InvalidVariantError extends SpiderError {}
/** An action's notation does not parse (RULES.md §11 Action notation). */
export class InvalidActionError extends SpiderError {}
/** The action parses, but the position forbids it: the rule reminder (RULES.md §13.3 Rule reminders). */
export class IllegalActionError extends SpiderError {}

// The 29 white space characters of RULES.md §1 Conventions: those Python's str.strip(),
// str.split() and re's \s all take. JavaScript's \s and trim() are not these.
const SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const EDGES = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, "g");
const BLANKS = new RegExp(`[${SPACE}]+`);
/** Runs of white space and commas: the separators of card lists and game logs. */
export const SEPARATORS = new RegExp(`[${SPACE},]+`);

/** Python's ``text.strip()``. */
export function strip(text) {
  return text.replace(EDGES, "");
}

/** Python's ``text.split()``: the words between runs of white space. */
export function splitWords(text) {
  return text.split(BLANKS).filter((word) => word !== "");
}

/** Upper-case ASCII letters only (``ı`` is not ``I``, ``ſ`` is not ``S``). */
export function asciiUpper(text) {
  return /[a-z]/.test(text) ? text.replace(/[a-z]+/g, (letters) => letters.toUpperCase()) : text;
}

/** The number of Unicode code points of ``text`` (Python's ``len()``). */
export function codePoints(text) {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** The first ``limit`` code points of ``text`` (Python's ``text[:limit]``). */
function head(text, limit) {
  if (text.length <= limit) return text;
  let out = "";
  let count = 0;
  for (const char of text) {
    if (count++ === limit) break;
    out += char;
  }
  return out;
}

/** The ``!r`` form of an input for a message, bounded in length (Python's ``quote``). */
export function quote(value) {
  if (typeof value === "string") {
    return codePoints(value) <= QUOTE_LIMIT ? pyRepr(value) : pyRepr(head(value, QUOTE_LIMIT)) + "...";
  }
  if (typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value))) {
    const text = BigInt(value).toString();
    const negative = text.startsWith("-") ? 1 : 0;
    return text.length - negative <= QUOTE_LIMIT ? text : text.slice(0, QUOTE_LIMIT + negative) + "...";
  }
  const text = pyRepr(value);
  return codePoints(text) <= QUOTE_LIMIT ? text : head(text, QUOTE_LIMIT) + "...";
}

// Python's str.isprintable(): not a control, format, surrogate, private-use or unassigned
// character, nor a separator other than the space.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's ``repr()`` of a value: a string in quotes with Python's escapes, a number
 *  as Python prints it (``4.0``, ``1e+16``), ``True``, ``None``, a list. */
export function pyRepr(value) {
  if (typeof value === "string") return reprText(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value === null || value === undefined) return "None";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value).toString() : reprNumber(value);
  if (Array.isArray(value)) return "[" + value.map(pyRepr).join(", ") + "]";
  return String(value);
}

function reprText(text) {
  const mark = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = mark;
  for (const char of text) {
    const point = char.codePointAt(0);
    if (char === mark || char === "\\") out += "\\" + char;
    else if (char === "\t") out += "\\t";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (point < 0x20 || point === 0x7f) out += "\\x" + hex(point, 2);
    else if (point < 0x7f || char === " " || !UNPRINTABLE.test(char)) out += char;
    else if (point <= 0xff) out += "\\x" + hex(point, 2);
    else if (point <= 0xffff) out += "\\u" + hex(point, 4);
    else out += "\\U" + hex(point, 8);
  }
  return out + mark;
}

function hex(point, digits) {
  return point.toString(16).padStart(digits, "0");
}

/** A float as Python's repr() writes it: the shortest digits, fixed notation for
 *  exponents -4 to 15 (``4.0``), else scientific (``1e+16``, ``1.5e-07``). */
function reprNumber(number) {
  if (Number.isNaN(number)) return "nan";
  if (!Number.isFinite(number)) return number > 0 ? "inf" : "-inf";
  if (number === 0) return Object.is(number, -0) ? "-0.0" : "0.0";
  const [mantissa, exponentText] = number.toExponential().split("e");
  const exponent = Number(exponentText);
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace(/^-/, "").replace(".", "");
  if (exponent < -4 || exponent >= 16) {
    const rest = digits.slice(1);
    const power = Math.abs(exponent).toString().padStart(2, "0");
    return `${sign}${digits[0]}${rest ? "." + rest : ""}e${exponent < 0 ? "-" : "+"}${power}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction || "0"}`;
}

/** ``value`` as an integer if it is a whole number (a Number with no fraction, not a
 *  boolean); null otherwise, for the caller to refuse by name. */
export function wholeNumber(value) {
  return typeof value === "number" && Number.isInteger(value) ? value : null;
}

/** Remembered values of an immutable computation: at most ``limit``, the oldest forgotten first. */
export class Memo extends Map {
  #limit;

  constructor(limit) {
    super();
    this.#limit = limit;
  }

  /** Keep ``value`` under ``key`` and return it. */
  remember(key, value) {
    if (this.size >= this.#limit) this.delete(this.keys().next().value);
    this.set(key, value);
    return value;
  }
}

/** The name of a value's type, for a TypeError: ``string``, ``number``, ``Array``, ``Set``, ... */
export function typeName(value) {
  if (value === null) return "null";
  if (typeof value !== "object") return typeof value;
  return value.constructor?.name || "object";
}
