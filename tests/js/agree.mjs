// The JavaScript side of tests/js/test_agree.py: reads one JSON request a line on stdin and
// answers one JSON line on stdout, so that one Node process serves a whole test run.
//
//   {"games": [GAME, ...]}   each GAME played token by token on a Board: what every step gave
//   {"parse": [[KIND, TEXT], ...]}   each text read by a parser: its value, or its refusal
//
// The Python side computes the same with spider_solver.rules and compares; the shapes below
// are written to match tests/js/test_agree.py's, field for field.
import { createInterface } from "node:readline";

import {
  Board, Card, Deal, DealRow, GameCode, SpiderError, Undo, Variant, formatCards, parseAction, parseCards, parseRule,
  parseSuits, replay, splitActions,
} from "../../spider_solver/js/index.js";

function dealOf(spec) {
  if (spec.code !== undefined) return Deal.fromCode(spec.code);
  if (spec.text !== undefined) return Deal.fromText(spec.text, spec.suits, spec.rule);
  return new Deal(parseCards(spec.cards), new Variant(spec.variant));
}

/** [the error's class, its message] of a refusal, or rethrown if it is not one. */
function refusal(error) {
  if (error instanceof SpiderError) return [error.name, error.message];
  if (error instanceof RangeError) return ["ValueError", error.message];
  throw error;
}

function attempt(call) {
  try {
    return { value: call() };
  } catch (error) {
    return { refused: refusal(error) };
  }
}

function moveText(move) {
  return move === null ? null : move.toString();
}

/** Everything a frontend reads of the position (tests/js/test_agree.py's ``state``). */
function state(board) {
  const n = board.variant.columns;
  const columns = [];
  for (let c = 1; c <= n; c++) {
    const movable = board.movable(c);
    const height = board.columns[c - 1].length;
    const counts = [];
    for (let k = 0; k <= Math.min(height, movable + 1); k++) counts.push(k);
    columns.push({
      down: board.down[c - 1],
      cards: formatCards(board.columns[c - 1]),
      up: formatCards(board.faceUp(c), { symbols: true }),
      movable,
      targets: counts.map((k) => board.targets(c, k)),
      best: moveText(board.bestMove(c)),
      best_of: counts.map((k) => attempt(() => moveText(board.bestMove(c, k)))),
    });
  }
  return {
    columns,
    score: board.score, moves: board.moves, runs_removed: board.runsRemoved, stock_left: board.stockLeft,
    deals_left: board.dealsLeft, dealt: board.dealt, removed: board.removed.slice(), won: board.isWon(),
    legal: board.legalMoves().map((action) => board.notation(action)),
    deal: attempt(() => board.notation(new DealRow())),
    undo: attempt(() => board.notation(new Undo())),
    describe: board.describe(),
    grid: board.grid(),
  };
}

function play(game) {
  const deal = dealOf(game.deal);
  const options = { dealOnEmpty: game.deal_on_empty, undoLimit: game.undo_limit };
  const board = new Board(deal, options);
  const steps = [state(board)];
  const positions = [board.position()];
  for (const token of game.tokens) {
    const step = attempt(() => board.play(board.parseAction(token)));
    if (step.value === "U") positions.pop();
    else if (step.value !== undefined) positions.push(board.position());
    // undo restores the exact earlier position, as the Python test checks on its own side
    step.restored = board.position().equals(positions.at(-1));
    step.state = state(board);
    steps.push(step);
  }
  const result = replay(deal, game.tokens, options);
  return { steps, replay: { ...result.toDict(), played: result.played } };
}

const PARSERS = {
  card: (text) => Card.parse(text).toString(),
  code: (text) => GameCode.parse(text).toString(),
  action: (text) => parseAction(text).toString(),
  split: (text) => splitActions(text),
  rule: (text) => parseRule(text),
  suits: (text) => parseSuits(text),
  deck: (text) => Deal.fromText(text).text(),
};

function answer(request) {
  if (request.games) return request.games.map(play);
  return request.parse.map(([kind, text]) => attempt(() => PARSERS[kind](text)));
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  let reply;
  try {
    reply = { answer: answer(JSON.parse(line)) };
  } catch (error) {
    reply = { crashed: String(error?.stack || error) };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
}
