// Every test vector of spider-solver's data/ folder, played by this module: the decks of
// game codes and SplitMix64 (RULES.md §9.2 Check values and test vectors), the game logs
// with each step's result or refusal (RULES.md §12 Replay), and auto-place (RULES.md §13.6
// Best column (auto-place)). In the repository the vectors are read from data/; a packed
// package carries a copy in vectors/ (scripts/vectors.js).
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";

import {
  Board, Deal, GameCode, IllegalActionError, Move, SpiderError, formatCards, quote, replay, splitmix64,
} from "../index.js";

const PACKED = new URL("../vectors/", import.meta.url);
const FOLDER = existsSync(PACKED) ? PACKED : new URL("../../../data/", import.meta.url);

function load(name) {
  return JSON.parse(readFileSync(new URL(name, FOLDER), "utf-8"));
}

const DEALS = load("deal_vectors.json");
const REPLAYS = load("replay_vectors.json");
const BEST = load("best_target_vectors.json");

test("SplitMix64 gives every output of the vectors", () => {
  assert.ok(DEALS.splitmix64.values.length >= 6);
  for (const { seed, outputs } of DEALS.splitmix64.values) {
    const rng = splitmix64(BigInt(seed));
    const got = outputs.map(() => "0x" + rng.next().value.toString(16).padStart(16, "0"));
    assert.deepEqual(got, outputs, `seed ${seed}`);
  }
});

test("every game code deals the cards of its vector", () => {
  const codes = Object.entries(DEALS.deals.codes);
  assert.ok(codes.length >= 78);
  for (const [code, cards] of codes) {
    const parsed = GameCode.parse(code);
    assert.equal(parsed.toString(), code);
    assert.equal(formatCards(parsed.deck()), cards, code);
    assert.equal(Deal.fromCode(code).text(), cards, code);
    assert.equal(Deal.fromText(cards, parsed.suits, parsed.rule).text(), cards, code);
  }
});

function dealOf(vector) {
  const deal = vector.code !== null ? Deal.fromCode(vector.code) : Deal.fromText(vector.deck, vector.suits, vector.rule);
  assert.deepEqual([deal.variant.suits, deal.variant.rule], [vector.suits, vector.rule]);
  return deal;
}

function options(vector) {
  return { dealOnEmpty: vector.deal_on_empty, undoLimit: vector.undo_limit };
}

test("replay gives every result, action and refusal of the replay vectors", () => {
  assert.ok(REPLAYS.vectors.length >= 30);
  for (const vector of REPLAYS.vectors) {
    const result = replay(dealOf(vector), vector.log, options(vector));
    assert.deepEqual(result.played, vector.steps.map((step) => step.played));
    const { error, ...fields } = result.toDict();
    assert.deepEqual(fields, vector.result);
    assert.deepEqual(error, vector.error);
  }
});

test("a board gives every step of the replay vectors", () => {
  for (const vector of REPLAYS.vectors) {
    const board = new Board(dealOf(vector), options(vector));
    const every = vector.positions_every;
    vector.steps.forEach((step, i) => {
      const number = i + 1;
      const action = board.parseAction(vector.log[i]);
      assert.equal(board.notation(action), step.played);
      board.push(action);
      const got = { played: step.played, score: board.score, moves: board.moves, runs_removed: board.runsRemoved,
                    stock_left: board.stockLeft };
      if (number % every === 0 || number === vector.steps.length) {
        got.position = board.columns.map((column, c) => [board.down[c], formatCards(column.slice(board.down[c]))]);
      }
      assert.deepEqual(got, step, `${vector.code ?? "deck"} action ${number}`);
    });
    assert.equal(board.isWon(), vector.result.won);
    if (vector.error !== null) {
      const token = vector.error.action;
      let message;
      if (board.isWon()) {
        message = `the game is already won; ${quote(token)} comes after the last run left`;
      } else {
        assert.throws(() => board.push(board.parseAction(token)), SpiderError);
        try { board.push(board.parseAction(token)); } catch (error) { message = error.message; }
      }
      assert.equal(message, vector.error.message);
    }
  }
});

test("every refusal of the replay vectors is there, each with its message", () => {
  const shown = new Set(REPLAYS.vectors.flatMap((vector) => vector.cases));
  assert.deepEqual([...shown].sort(), [...REPLAYS.cases].sort());
  assert.ok(REPLAYS.cases.filter((name) => name.startsWith("refused: ")).length >= 20);
});

test("auto-place and placement help give every answer of the best-target vectors", () => {
  let queries = 0;
  for (const position of BEST.positions) {
    const board = new Board(Deal.fromCode(position.code));
    for (const token of position.actions.split(" ").filter(Boolean)) board.pushNotation(token);
    for (const query of position.queries) {
      const move = board.bestMove(query.column, query.count);
      const expected = query.target === null ? null : new Move(query.column, query.target, query.size);
      assert.deepEqual(move, expected, `${position.code} ${position.actions} ${JSON.stringify(query)}`);
      assert.equal(board.bestTarget(query.column, query.count), query.target);
      const size = query.count ?? board.movable(query.column);
      assert.deepEqual(board.targets(query.column, size), query.targets);
      for (const d of query.targets) assert.ok(board.isLegal(new Move(query.column, d, size)));
      queries++;
    }
  }
  assert.ok(queries > 500, `${queries} queries`);
  assert.ok(new Board("SP1-S4C-AAAAAAD").isLegal(new Move(9, 4)) && !new Board("SP1-S4C-AAAAAAD").isLegal(new Move(2, 1)));
  assert.throws(() => new Board("SP1-S4C-AAAAAAD").push(new Move(2, 1)), IllegalActionError);
});
