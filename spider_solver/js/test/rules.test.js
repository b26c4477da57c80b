// The examples and refusals of RULES.md, section by section, on this module. (The vectors
// are test/vectors.test.js; spider-solver's own tests also play random games on this module
// and on the Python engine and compare every step.)
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  Board, Card, DealRow, Deal, GameCode, IllegalActionError, InvalidActionError, InvalidCardError, InvalidCodeError,
  InvalidDealError, InvalidVariantError, MAX_DEAL, Move, SpiderError, Undo, Variant, canonicalCode, formatCards,
  parseAction, parseActions, parseCards, parseRule, parseSuits, quote, replay, splitActions,
} from "../index.js";

function refused(call, kind, message) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof kind, `${error.name}: ${error.message}`);
    assert.equal(error.message, message);
    return true;
  });
}

test("§1 Conventions: white space is Python's 29 characters, and only ASCII letters are folded", () => {
  const spaces = "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008" +
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000";
  assert.equal(Array.from(spaces).length, 29);
  assert.deepEqual(splitActions(`9>4${spaces}D,U`), ["9>4", "D", "U"]);
  assert.equal(Card.parse(`${spaces}ts${spaces}`), Card.parse("TS"));
  for (const other of ["\u200b", "\u180e", "\ufeff"]) {
    refused(() => parseAction(`${other}D`), InvalidActionError,
            `invalid action ${quote(`${other}D`)}: expected D, U, F>T or F>T/N (for example 3>7 or 2>5/3)`);
  }
  refused(() => Card.parse("ıS"), InvalidCardError,
          "invalid card 'ıS': the rank must be one of A 2 3 4 5 6 7 8 9 T (or 10) J Q K");
  refused(() => Card.parse("Aſ"), InvalidCardError, "invalid card 'Aſ': the suit must be one of S H D C");
});

test("§1 Conventions: a message quotes its input as Python's repr does, cut to 40 characters", () => {
  assert.equal(quote("TS"), "'TS'");
  assert.equal(quote("it's"), `"it's"`);
  assert.equal(quote("a\tb\\\u200b\x00é"), "'a\\tb\\\\\\u200b\\x00é'");
  assert.equal(quote(3), "3");
  assert.equal(quote(4.5), "4.5");
  assert.equal(quote(true), "True");
  assert.equal(quote(null), "None");
  assert.equal(quote("x".repeat(41)), `'${"x".repeat(40)}'...`);
  assert.equal(quote("🂡".repeat(41)), `'${"🂡".repeat(40)}'...`); // counted in code points
  const token = "1>2/" + "3".repeat(50);
  refused(() => parseAction(token), InvalidActionError,
          "invalid action '1>2/333333333333333333333333333333333333'...: a group of " +
          "3333333333333333333333333333333333333333... cards is out of range (a game has at most 104 cards)");
});

test("§2 Cards: text forms, reading, and the refusals", () => {
  for (const text of ["TS", "ts", "10S", "10s", "10♠", "T♠"]) assert.equal(Card.parse(text), new Card(10, 0));
  assert.equal(new Card(1, 2).toString(), "AD");
  assert.equal(new Card(10, 0).symbol(), "10♠");
  assert.equal(formatCards(parseCards("KH, 3C  ad"), { symbols: true }), "K♥ 3♣ A♦");
  assert.ok(Card.compare(Card.parse("2S"), Card.parse("AH")) > 0 && Card.compare(Card.parse("AS"), Card.parse("AH")) < 0);
  for (const text of ["", "K"]) {
    refused(() => Card.parse(text), InvalidCardError,
            `invalid card ${quote(text)}: expected a rank (A 2-9 T J Q K) then a suit (S H D C)`);
  }
  refused(() => Card.parse("KX"), InvalidCardError, "invalid card 'KX': the suit must be one of S H D C");
  for (const text of ["1S", "11S", "0S", "T S"]) {
    refused(() => Card.parse(text), InvalidCardError,
            `invalid card ${quote(text)}: the rank must be one of A 2 3 4 5 6 7 8 9 T (or 10) J Q K`);
  }
});

test("§3 Variants: suit counts, rules, and the limits of a shrunken game", () => {
  assert.equal(parseSuits(" 4 "), 4);
  assert.equal(parseSuits(2), 2);
  for (const value of ["3", "04", "+4", 4.5, true]) {
    refused(() => parseSuits(value), InvalidVariantError, `unknown suit count ${quote(value)}: expected 1, 2 or 4`);
  }
  assert.equal(parseRule(" R "), "relaxed");
  assert.equal(parseRule("Classic"), "classic");
  refused(() => parseRule("spider"), InvalidVariantError, "unknown rule 'spider': expected classic (C) or relaxed (R)");
  assert.equal(new Variant({ suits: 1, rule: "relaxed" }).rule, "classic");
  assert.equal(new Variant().toString(), "4 suits, classic");
  assert.equal(new Variant({ suits: 1, ranks: 3, runs: 2, columns: 3, layout: 3 }).toString(),
               "1 suit, classic, 3 ranks, 2 runs, 3 columns, layout 3");
  const limits = [
    [{ suits: 3 }, "unknown suit count 3: expected 1, 2 or 4"],
    [{ rule: "C" }, "unknown rule 'C': expected 'classic' or 'relaxed'"],
    [{ ranks: 14 }, "invalid ranks 14: expected 2 to 13"],
    [{ suits: 4, runs: 6 }, "invalid runs 6: expected a positive multiple of the suit count"],
    [{ columns: 11 }, "invalid columns 11: expected 1 to 10"],
    [{ suits: 1, runs: 16 }, "invalid size: 16 runs of 13 ranks make 208 cards; the game has at most 104"],
    [{ suits: 1, runs: 4, ranks: 2 }, "invalid size: 4 runs of 2 ranks make 8 cards, fewer than the 10 columns"],
    [{ layout: 5 }, "invalid layout 5: expected 10 to 104 cards"],
    [{ layout: 55 }, "invalid layout 55: the 49 stock cards do not make whole deals of 10"],
    [{ suits: 4.5 }, "invalid suits 4.5: expected a whole number"],
  ];
  for (const [options, message] of limits) refused(() => new Variant(options), InvalidVariantError, message);
});

test("§4 Layout and stock of SP1-S4C-AAAAAAD", () => {
  const deal = Deal.fromCode("SP1-S4C-AAAAAAD");
  assert.equal(formatCards(deal.columns()[0]), "8S AC TD AS KD 2C");
  assert.equal(formatCards(deal.columns()[9]), "9D 8C KC 9H 5D");
  assert.deepEqual(deal.columns().map((column) => column.length), [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]);
  assert.equal(formatCards(deal.stock().slice(0, 10)), "2S 8H 3D 4S 6D 3D AH JH KH TD");
  const board = new Board(deal);
  assert.equal(board.describe().slice(0, 87),
               "Stock: 50 cards, 5 deals left; no run removed. Column 1: 5 face down, then 2♣; Column 2");
});

test("§5 Moves: which rule refuses a move, in the order of §5.4 Which rule refuses a move", () => {
  const board = new Board("SP1-S4C-AAAAAAD");
  refused(() => board.push(new Move(11, 3)), IllegalActionError,
          "cannot play '11>3': source column 11 does not exist (columns are 1 to 10)");
  refused(() => board.push(new Move(3, 0)), IllegalActionError,
          "cannot play '3>0': target column 0 does not exist (columns are 1 to 10)");
  refused(() => board.push(new Move(1, 1)), IllegalActionError, "cannot play '1>1': source and target are the same column");
  refused(() => board.push(new Move(1, 2, 0)), IllegalActionError, "cannot play '1>2/0': a group holds at least 1 card");
  refused(() => board.pushNotation("2>1"), IllegalActionError,
          "cannot play '2>1': 6♠ cannot go onto 2♣, a card goes only onto a card exactly one rank higher");
  refused(() => board.pushNotation("1>2/2"), IllegalActionError,
          "cannot play '1>2/2': face-down cards cannot be moved; column 1 has 1 face-up card");
  refused(() => board.pushNotation("1>2/7"), IllegalActionError, "cannot play '1>2/7': column 1 holds only 6 cards");
  refused(() => board.pushNotation(" 01>02 "), IllegalActionError,
          "cannot play '1>2': nothing in column 1 fits onto 6♠: a group going there must start with a face-up 5 " +
          "and go down one rank at a time to the last card");
  assert.equal(board.moves, 0);
  assert.throws(() => board.check("9>4"), TypeError);
  assert.throws(() => board.faceUp(0), { name: "RangeError", message: "invalid column 0: columns are numbered 1 to 10" });
  assert.throws(() => new Move(true, 2), InvalidActionError);
});

test("§6 Deals: the empty stock first, then empty columns; deal_on_empty lifts the second", () => {
  const board = new Board("SP1-S4C-AAAAAAD");
  for (let i = 0; i < 5; i++) board.push(new DealRow());
  refused(() => board.push(new DealRow()), IllegalActionError, "cannot deal: the stock is empty");
  const columns = ["3S", "2S", "AS"];
  const variant = new Variant({ suits: 1, ranks: 3, runs: 2, columns: 3, layout: 3 });
  const small = new Board(Deal.fromColumns(columns, ["3S 2S AS"], variant));
  small.pushNotation("2>1");
  refused(() => small.pushNotation("D"), IllegalActionError,
          "cannot deal while column 2 is empty: put a card there first");
  const relaxed = new Board(Deal.fromColumns(columns, ["3S 2S AS"], variant), { dealOnEmpty: true });
  relaxed.pushNotation("2>1");
  relaxed.pushNotation("D");
  assert.equal(relaxed.stockLeft, 0);
});

test("§7 Runs and the win, §8 Score and undo: runs leave, the score counts, undo restores within its limit", () => {
  const variant = new Variant({ suits: 1, ranks: 3, runs: 2, columns: 3, layout: 3 });
  const board = new Board(Deal.fromColumns(["3S", "2S", "AS"], ["3S 2S AS"], variant), { undoLimit: 1 });
  const before = board.position();
  board.pushNotation("2>1");
  board.pushNotation("3>1");
  assert.deepEqual([board.runsRemoved, board.score, board.moves, board.removed], [1, 598, 2, [0]]);
  assert.equal(board.columns[0].length, 0);
  board.pop();
  assert.deepEqual([board.runsRemoved, board.score, board.moves], [0, 499, 1]);
  refused(() => board.pop(), IllegalActionError, "nothing more to undo: only the last 1 action can be undone");
  refused(() => new Board(board.deal, { undoLimit: 0 }).push(new Undo()), IllegalActionError,
          "nothing to undo: no action has been made");
  const off = new Board(board.deal, { undoLimit: 0 });
  off.pushNotation("2>1");
  refused(() => off.pushNotation("U"), IllegalActionError, "cannot undo: undo is turned off (undo limit 0)");
  assert.ok(!before.equals(board.position()));
  assert.throws(() => new Board(board.deal, { undoLimit: -1 }),
                { name: "RangeError", message: "invalid undo limit -1: expected 0 or more, or None for unlimited" });
  const limited = new Board("SP1-S4C-AAAAAAD", { undoLimit: 3 });
  for (const token of "D D D D U U D".split(" ")) limited.pushNotation(token);
  limited.pop();
  limited.pop();
  refused(() => limited.pop(), IllegalActionError, "nothing more to undo: only the last 3 actions can be undone");
  const undone = new Board("SP1-S4C-AAAAAAD");
  for (const token of "9>4 D U U".split(" ")) undone.pushNotation(token);
  refused(() => undone.pop(), IllegalActionError, "nothing to undo: every action has been undone");
});

test("§9 Game code: reading, writing, and every refusal", () => {
  const code = GameCode.parse(" sp1-s4c-aaaaaad ");
  assert.deepEqual([code.toString(), code.number, code.suits, code.rule], ["SP1-S4C-AAAAAAD", 3, 4, "classic"]);
  assert.equal(canonicalCode("SP1-S1R-AAAAAAD"), "SP1-S1C-AAAAAAD");
  assert.equal(new GameCode(4, "relaxed", MAX_DEAL).toString(), "SP1-S4R-7777777");
  assert.equal(GameCode.parse("SP1-S4C-AAAAABA").number, 32);
  assert.equal(Deal.fromCode("SP1-S4R-AAAAAAD").text(), Deal.fromCode("SP1-S4C-AAAAAAD").text());
  assert.ok(Deal.fromCode("SP1-S4C-AAAAAAD").text().startsWith("8S QC 4H JS 7S TC 4C AH JC 9D AC 3C AS 5C TH 4D "));
  assert.ok(Deal.fromCode("SP1-S4C-AAAAAAD").text().endsWith(" TS"));
  refused(() => new GameCode(4, "classic", MAX_DEAL + 1), InvalidCodeError,
          "invalid deal number 34359738368: expected 0 to 34359738367");
  const wrong = [
    [3, "invalid game code 3: expected text like SP1-S4C-AAAAAAD"],
    ["SP1S4CAAAAAAD", "invalid game code 'SP1S4CAAAAAAD': expected three parts like SP1-S4C-AAAAAAD"],
    ["sp2-s4c-aaaaaad", "invalid game code 'sp2-s4c-aaaaaad': unknown format 'SP2', expected 'SP1'"],
    ["SP1-S4-AAAAAAD", "invalid game code 'SP1-S4-AAAAAAD': the variant 'S4' must be S, a suit count and a rule " +
                       "letter, like S4C"],
    ["SP1-S3C-AAAAAAD", "invalid game code 'SP1-S3C-AAAAAAD': suit count '3' in 'S3C' must be 1, 2 or 4"],
    ["SP1-S4X-AAAAAAD", "invalid game code 'SP1-S4X-AAAAAAD': rule letter 'X' in 'S4X' must be C (Classic) or R " +
                        "(Relaxed)"],
    ["SP1-S4C-AAAAAA", "invalid game code 'SP1-S4C-AAAAAA': invalid deal 'AAAAAA': expected 7 base32 characters, got 6"],
    ["SP1-S4C-AAAAAA1", "invalid game code 'SP1-S4C-AAAAAA1': invalid deal 'AAAAAA1': '1' is not a base32 character " +
                        "(A-Z, 2-7)"],
  ];
  for (const [text, message] of wrong) refused(() => GameCode.parse(text), InvalidCodeError, message);
});

test("§10 Explicit deals: from text, from columns, and the composition", () => {
  const text = Deal.fromCode("SP1-S4C-AAAAAAD").text();
  const deal = Deal.fromText(text.toLowerCase().replaceAll(" ", ", "), "4", "c");
  assert.deepEqual([deal.text(), deal.code, deal.name], [text, null, "explicit deal"]);
  const rows = [];
  for (let d = 0; d < 5; d++) rows.push(deal.stock().slice(10 * d, 10 * d + 10));
  assert.equal(Deal.fromColumns(deal.columns(), rows, deal.variant).text(), text);
  refused(() => Deal.fromText(text.replace("8S", "8X")), InvalidDealError,
          "invalid deal: invalid card '8X': the suit must be one of S H D C");
  refused(() => Deal.fromText(text.replace(/TS$/, "KH")), InvalidDealError,
          "invalid deal for 4 suits, classic: missing TS; extra KH");
  refused(() => Deal.fromText(text.replace(/ AH/, "")), InvalidDealError,
          "invalid deal for 4 suits, classic (103 cards, expected 104): missing AH");
  refused(() => Deal.fromText(text, 2), InvalidDealError,
          "invalid deal for 2 suits, classic: missing AS (x2), 2S (x2), 3S (x2), 4S (x2), 5S (x2), 6S (x2), 7S (x2), " +
          "8S (x2), 9S (x2), TS (x2), JS (x2), QS (x2) and 28 more; extra AD (x2), 2D (x2), 3D (x2), 4D (x2), 5D (x2), " +
          "6D (x2), 7D (x2), 8D (x2), 9D (x2), TD (x2), JD (x2), QD (x2) and 28 more");
  refused(() => new Deal([new Card(0, 0)], new Variant()), InvalidDealError,
          "invalid deal: (0, 0) is not a card (rank 1-13, suit 0-3)");
  const variant = new Variant({ suits: 1, ranks: 3, runs: 2, columns: 2, layout: 4 });
  refused(() => Deal.fromColumns(["3S 2S AS", "3S"], ["2S AS"], variant), InvalidDealError,
          "invalid layout: columns of [3, 1] cards, expected [2, 2] for 1 suit, classic, 3 ranks, 2 runs, 2 columns, " +
          "layout 4");
  refused(() => Deal.fromColumns(["3S 2S", "AS 3S"], ["2S", "AS"], variant), InvalidDealError,
          "invalid stock: rows of [1, 1] cards, expected 1 row (one per deal) of 2 cards for 1 suit, classic, 3 ranks, " +
          "2 runs, 2 columns, layout 4");
});

test("§11 Action notation: the actions, the looser forms, and the refusals in their order", () => {
  assert.deepEqual(parseActions("d u 02>5 1>2/01, 10>3/13").map(String), ["D", "U", "2>5", "1>2/1", "10>3/13"]);
  assert.equal(parseAction(" 9>4 ").toString(), "9>4");
  const wrong = [
    ["3-5", "expected D, U, F>T or F>T/N (for example 3>7 or 2>5/3)"],
    ["٣>4", "expected D, U, F>T or F>T/N (for example 3>7 or 2>5/3)"],
    ["3>4/", "expected D, U, F>T or F>T/N (for example 3>7 or 2>5/3)"],
    ["0>4", "source column 0 does not exist (columns are 1 to 10)"],
    ["11>0", "source column 11 does not exist (columns are 1 to 10)"],
    ["3>4/0", "a group holds at least 1 card"],
    ["1>2/1000", "a group of 1000 cards is out of range (a game has at most 104 cards)"],
    ["1>2/0105", "a group of 105 cards is out of range (a game has at most 104 cards)"],
    ["3>3", "source and target are the same column"],
  ];
  for (const [token, rule] of wrong) {
    refused(() => parseAction(token), InvalidActionError, `invalid action ${quote(token)}: ${rule}`);
  }
  refused(() => parseAction("4>2", { columns: 3 }), InvalidActionError,
          "invalid action '4>2': source column 4 does not exist (columns are 1 to 3)");
  assert.throws(() => parseAction(3), TypeError);
  assert.equal(new Move(2, 5).toString(), "2>5");
  assert.equal(new Move(2, 5, 3).toString(), "2>5/3");
});

test("§12 Replay: the example, the refusal after the win, and the options", () => {
  const result = replay("SP1-S4C-AAAAAAD", "9>4 D 1>2");
  assert.deepEqual([result.won, result.moves, result.score, result.error.index, result.error.action],
                   [false, 2, 498, 2, "1>2"]);
  assert.equal(result.error.message, "cannot play '1>2': nothing in column 1 fits onto 8♥: a group going there must " +
               "start with a face-up 7 and go down one rank at a time to the last card");
  assert.equal(result.error.toString(), "action 3 (index 2: '1>2') refused: " + result.error.message);
  assert.deepEqual(result.played, ["9>4", "D"]);
  assert.deepEqual(replay("SP1-S4C-AAAAAAD", ["9>4", "D"]).toDict(),
                   { won: false, moves: 2, score: 498, runs_removed: 0, stock_left: 40, error: null });
  assert.throws(() => replay("SP1-S4C-AAAAAAD", new Set(["D"])), TypeError);
  assert.throws(() => replay("SP1-S4C-AAAAAAD", "D", { dealOnEmpty: "yes" }),
                { name: "RangeError", message: "invalid deal_on_empty 'yes': expected True or False" });
  const variant = new Variant({ suits: 1, ranks: 3, runs: 2, columns: 3, layout: 3 });
  const won = replay(Deal.fromColumns(["3S", "2S", "AS"], ["3S 2S AS"], variant), "2>1 3>1 D 2>1 3>1 U",
                   { dealOnEmpty: true });
  assert.deepEqual([won.won, won.score, won.error.index], [true, 695, 5]);
  assert.equal(won.error.message, "the game is already won; 'U' comes after the last run left");
});

test("§13 Frontend helpers: placement help, legal moves, auto-place, the position", () => {
  const board = new Board(Deal.fromCode("SP1-S4C-AAAAAAD"));
  assert.deepEqual(board.legalMoves().map((action) => board.notation(action)),
                   ["1>8", "6>1", "7>10", "8>7", "9>4", "9>5", "10>2", "D"]);
  assert.deepEqual(board.targets(9, 1), [4, 5]);
  for (const odd of [[9, 0], [9, 2], [0, 1], [9, "1"], [9.5, 1], [true, 1]]) assert.deepEqual(board.targets(...odd), []);
  assert.deepEqual([board.bestTarget(9), board.bestTarget(10), board.bestTarget(2)], [5, 2, null]);
  assert.deepEqual(board.bestMove(9), new Move(9, 5, 1));
  assert.throws(() => board.bestTarget(0), { name: "RangeError", message: "invalid column 0: columns are numbered 1 to 10" });
  assert.throws(() => board.bestTarget(1, 0),
                { name: "RangeError", message: "invalid count 0: column 1 holds 6 cards, expected 1 to 6" });
  assert.deepEqual(board.pushNotation("9>4"), new Move(9, 4, 1));
  assert.deepEqual([board.score, board.moves, board.faceUp(9).map(String)], [499, 1, ["KD"]]);
  assert.deepEqual([board.movable(4), board.movable(9)], [1, 1]); // 8♦ on 9♠: two suits, Classic
  const copy = board.copy();
  assert.ok(copy.position().equals(board.position()) && !copy.isLegal(new Undo()) && board.isLegal(new Undo()));
  board.pop();
  assert.deepEqual([board.score, board.moves, board.faceUp(9).map(String)], [500, 0, ["8D"]]);
  assert.equal(board.grid().split("\n").at(-1), "stock 50 (5 deals)  runs removed: none  score 500  moves 0");
  assert.ok(new IllegalActionError("x") instanceof SpiderError && new SpiderError("x") instanceof Error);
});
