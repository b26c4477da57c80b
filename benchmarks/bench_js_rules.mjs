// The Node side of benchmarks/bench_js_rules.py: reads one JSON request on stdin, times the
// rules module (spider_solver/js) on it, and prints the samples as JSON.
//
//   {"suits": 4, "numbers": [deal numbers, all different], "logs": {"name": [tokens]},
//    "code": "SP1-...", "samples": 101, "batch": {"deck": 100, "replay": 20}}
//
// Each sample times a batch of calls and gives the microseconds of one call: the deck of a
// code (shuffleDeck, and Deal.fromCode of a code not made before: parsed, shuffled, its
// composition checked) on numbers never asked before, and replay() of each log.
import { Deal, GameCode, Variant, replay, shuffleDeck } from "../spider_solver/js/index.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const request = JSON.parse(Buffer.concat(chunks).toString("utf-8"));
const variant = new Variant({ suits: request.suits });

function time(samples, batch, call) {
  const out = [];
  let next = 0;
  for (let s = 0; s < samples; s++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) call(next++);
    out.push(Number(process.hrtime.bigint() - start) / 1000 / batch);
  }
  return out;
}

const numbers = request.numbers;
const codes = numbers.map((number) => new GameCode(request.suits, "classic", number).toString());
const { samples, batch } = request;
// A warm-up on the other half of the numbers, as many calls as the timed ones: the JIT
// compiles the hot paths.
const half = Math.floor(numbers.length / 2);
time(samples, batch.deck, (i) => shuffleDeck(numbers[half + (i % half)], variant));
time(samples, batch.deck, (i) => Deal.fromCode(codes[half + (i % half)]));
for (const log of Object.values(request.logs)) time(samples, batch.replay, () => replay(request.code, log));
const result = {
  node: process.version,
  deck: time(samples, batch.deck, (i) => shuffleDeck(numbers[i % half], variant)),
  deal: time(samples, batch.deck, (i) => Deal.fromCode(codes[i % half])),
  replay: Object.fromEntries(Object.entries(request.logs).map(([name, log]) => {
    const first = replay(request.code, log);
    if (first.error) throw new Error(`${name}: ${first.error}`);
    return [name, { samples: time(samples, batch.replay, () => replay(request.code, log)), moves: first.moves,
                    score: first.score }];
  })),
};
process.stdout.write(JSON.stringify(result) + "\n");
