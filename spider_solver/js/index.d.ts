// Type declarations of spider-solver-rules, for editors and TypeScript. The module itself
// is plain JavaScript (index.js); RULES.md of spider-solver is the contract it implements.

/** Base class of the rules' refusals; the message is the rule in words (RULES.md §13.5 Errors). */
export class SpiderError extends Error {}
export class InvalidCardError extends SpiderError {}
export class InvalidCodeError extends SpiderError {}
export class InvalidDealError extends SpiderError {}
export class InvalidVariantError extends SpiderError {}
export class InvalidActionError extends SpiderError {}
/** The action parses, but the position forbids it: its message is the rule reminder to show. */
export class IllegalActionError extends SpiderError {}

/** A message quotes at most this many characters (or digits) of an input. */
export const QUOTE_LIMIT: 40;
/** An input as a message quotes it: Python's repr(), cut to QUOTE_LIMIT code points. */
export function quote(value: unknown): string;

export type Suit = 0 | 1 | 2 | 3;
export const SPADES: 0;
export const HEARTS: 1;
export const DIAMONDS: 2;
export const CLUBS: 3;
export const SUIT_LETTERS: "SHDC";
export const SUIT_SYMBOLS: "♠♥♦♣";
export const RANK_CHARS: "A23456789TJQK";
export const RANK_DISPLAY: readonly string[];

/** One card: rank 1 (ace) to 13 (king), suit 0-3 (spades, hearts, diamonds, clubs). The 52
 *  cards are made once: `new Card(10, 0) === Card.parse("TS")`. */
export class Card {
  constructor(rank: number, suit: number);
  readonly rank: number;
  readonly suit: number;
  /** Read `TS`, `10s`, `ah` or the display form `10♠`. */
  static parse(text: string): Card;
  /** By rank, then suit. */
  static compare(a: Card, b: Card): number;
  /** The short form, `TS`. */
  toString(): string;
  /** The display form, `10♠`. */
  symbol(): string;
}
export function parseCards(text: string): Card[];
export function formatCards(cards: Iterable<Card>, options?: { symbols?: boolean }): string;

export type Rule = "classic" | "relaxed";
export const CLASSIC: "classic";
export const RELAXED: "relaxed";
export const MAX_CARDS: 104;
export const MAX_COLUMNS: 10;
export function parseRule(text: string): Rule;
export function parseSuits(value: number | string): 1 | 2 | 4;

export interface VariantOptions {
  suits?: number;
  rule?: Rule;
  ranks?: number;
  runs?: number;
  columns?: number;
  layout?: number;
}

/** Suit count, rule and (for tests) the size of the game. */
export class Variant {
  constructor(options?: VariantOptions);
  readonly suits: 1 | 2 | 4;
  readonly rule: Rule;
  readonly ranks: number;
  readonly runs: number;
  readonly columns: number;
  readonly layout: number;
  readonly cards: number;
  readonly deals: number;
  readonly isStandard: boolean;
  equals(other: unknown): boolean;
  unshuffled(): Card[];
  toString(): string;
}

/** 2^35 - 1, the largest deal number. */
export const MAX_DEAL: number;
/** SplitMix64 outputs from `state`, modulo 2^64. */
export function splitmix64(state: bigint | number): Generator<bigint, never, void>;
/** The deck of deal `number` under `variant`: Fisher-Yates from the end, driven by SplitMix64. */
export function shuffleDeck(number: bigint | number, variant: Variant): Card[];

/** A game code `SP1-S<k><r>-<deal>`. */
export class GameCode {
  constructor(suits: number, rule: Rule, number: number | bigint);
  readonly suits: 1 | 2 | 4;
  readonly rule: Rule;
  readonly number: number;
  readonly variant: Variant;
  static parse(text: string): GameCode;
  /** The 104 cards in deck order (a new array). */
  cards(): Card[];
  /** The cards in deck order (frozen, made once). */
  deck(): readonly Card[];
  equals(other: unknown): boolean;
  /** The canonical form, `SP1-S4C-AAAAAAD`. */
  toString(): string;
}
export function canonicalCode(text: string): string;

/** The cards in deck order and the variant they are played under. */
export class Deal {
  constructor(cards: Iterable<Card>, variant: Variant, code?: GameCode | null);
  readonly cards: readonly Card[];
  readonly variant: Variant;
  readonly code: GameCode | null;
  /** The game code, or `explicit deal`. */
  readonly name: string;
  static fromCode(code: GameCode | string): Deal;
  static of(deal: Deal | GameCode | string): Deal;
  static fromText(text: string, suits?: number | string, rule?: string): Deal;
  static fromColumns(columns: Iterable<Iterable<Card> | string>, stock?: Iterable<Iterable<Card> | string> | string,
                     variant?: Variant | null): Deal;
  /** The initial columns, each from its deepest card (`columns()[c - 1]` is column c). */
  columns(): Card[][];
  /** The stock in deck order. */
  stock(): Card[];
  /** The deck on one line, short text form. */
  text(): string;
}

/** Move a group from column `src` to column `dst` (numbered from 1); `count` null lets the
 *  board choose (the group that fits, or the largest). */
export class Move {
  constructor(src: number, dst: number, count?: number | null);
  readonly kind: "move";
  readonly src: number;
  readonly dst: number;
  readonly count: number | null;
  equals(other: unknown): boolean;
  toString(): string;
}
/** Deal a row from the stock (there is one: `new DealRow() === new DealRow()`). */
export class DealRow {
  readonly kind: "deal";
  equals(other: unknown): boolean;
  toString(): "D";
}
/** Undo the last action (game logs only; there is one). */
export class Undo {
  readonly kind: "undo";
  equals(other: unknown): boolean;
  toString(): "U";
}
export type Action = Move | DealRow | Undo;
export type GameLog = string | Iterable<string>;

export function parseAction(text: string, options?: { columns?: number }): Action;
export function splitActions(text: string): string[];
export function logTokens(actions: GameLog): string[];
export function parseActions(text: GameLog, options?: { columns?: number }): Action[];

export const START_SCORE: 500;
export const RUN_BONUS: 100;
export const DEFAULT_UNDO_LIMIT: 100;

export interface PlayOptions {
  /** Deal while columns are empty (off by default; RULES.md §6 Deals). */
  dealOnEmpty?: boolean;
  /** How many actions can be undone: 100 by default, null for unlimited, 0 for none. */
  undoLimit?: number | null;
}

/** Everything that defines a position; what undo restores. */
export class Position {
  readonly columns: readonly (readonly Card[])[];
  readonly down: readonly number[];
  readonly dealt: number;
  readonly removed: readonly number[];
  readonly score: number;
  readonly moves: number;
  equals(other: unknown): boolean;
}

/** A game in progress. Columns are numbered from 1 in every method. */
export class Board {
  constructor(deal: Deal | GameCode | string, options?: PlayOptions);
  readonly deal: Deal;
  readonly variant: Variant;
  readonly dealOnEmpty: boolean;
  readonly undoLimit: number | null;
  /** The columns' cards, each from its deepest card: `columns[c - 1]` is column c. */
  readonly columns: Card[][];
  /** Face-down cards of each column: its first `down[c - 1]` cards. */
  readonly down: number[];
  readonly stock: readonly Card[];
  readonly dealt: number;
  /** Suits of the runs removed, in the order they left. */
  readonly removed: number[];
  readonly score: number;
  readonly moves: number;
  readonly runsRemoved: number;
  readonly dealsLeft: number;
  readonly stockLeft: number;
  isWon(): boolean;
  faceUp(column: number): Card[];
  movable(column: number): number;
  position(): Position;
  copy(): Board;
  /** The action with its group size filled in, or an IllegalActionError with the rule. */
  check<A extends Action>(action: A): A;
  isLegal(action: Action): boolean;
  resolve<A extends Action>(action: A): A;
  legalMoves(): (Move | DealRow)[];
  /** The columns a group may be dropped on (placement help). */
  targets(column: number, count: number): number[];
  /** Where a double-click sends a group (auto-place), or null. */
  bestMove(column: number, count?: number | null): Move | null;
  bestTarget(column: number, count?: number | null): number | null;
  /** Play an action (Undo undoes); the action as played, group size filled in. */
  push<A extends Action>(action: A): A;
  /** Play an action; its canonical notation. */
  play(action: Action): string;
  pushNotation(text: string): Action;
  /** Undo the last action. */
  pop(): void;
  parseAction(text: string): Action;
  /** The canonical notation of an action in this position. */
  notation(action: Action): string;
  describe(): string;
  grid(): string;
  toString(): string;
}

/** The first refused action of a log: `index` counts from 0. */
export class ReplayError {
  readonly index: number;
  readonly action: string;
  readonly message: string;
  toString(): string;
}

export interface ReplayDict {
  won: boolean;
  moves: number;
  score: number;
  runs_removed: number;
  stock_left: number;
  error: { index: number; action: string; message: string } | null;
}

export class ReplayResult {
  readonly won: boolean;
  readonly moves: number;
  readonly score: number;
  readonly runsRemoved: number;
  readonly stockLeft: number;
  /** The canonical notation of every action played, undos included. */
  readonly played: readonly string[];
  readonly error: ReplayError | null;
  /** The fields without `played`, named as Python's `to_dict()` and the API name them. */
  toDict(): ReplayDict;
}

/** Replay a game log from the initial layout and score it (RULES.md §12 Replay). */
export function replay(deal: Deal | GameCode | string, actions: GameLog, options?: PlayOptions): ReplayResult;
/** replay(), and the board it leaves. */
export function replayBoard(deal: Deal | GameCode | string, actions: GameLog,
                            options?: PlayOptions & { after?: ((board: Board) => void) | null }): [ReplayResult, Board];
/** Play a log on a board from its position. */
export function playOn(board: Board, actions: GameLog,
                       options?: { after?: ((board: Board) => void) | null }): ReplayResult;
