// A frontend that is not the reference web client: a Node script that plays a whole game
// through the documented HTTP API alone (docs/service.md), with fetch and no module of the
// project. Run by tests/js/test_game_client.py against a real `spider-solve serve`:
//
//   node tests/js/game_client.mjs BASE_URL SECRET_FILE
//
// It takes the day's deal, plays actions through POST /v1/position, has one refused, asks
// for hints and follows them, asks for a fair hint (twice: the same answer), asks "can I still win?", finishes the game along the hints,
// submits it (POST /v1/games; again: the game stored, its first receipt) and checks its
// receipt twice: with the server (POST /v1/games/verify, redeemed once, refused the second
// time, refused altered) and itself, with the key of SECRET_FILE (HMAC-SHA256, as
// docs/service.md says). Each call is printed as one JSON line,
// {"step", "call", "status", "ms", ...}; the last line is {"done": true, ...}. Any surprise
// throws, and the exit status is 1.
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";

const [base, secretFile] = process.argv.slice(2);
if (!base || !secretFile) throw new Error("usage: node game_client.mjs BASE_URL SECRET_FILE");
const MAX_ACTIONS = 1000; // the game's loop is bounded

async function call(step, method, path, body, expected = 200) {
  const started = performance.now();
  const response = await fetch(new URL(path, base), {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  const ms = performance.now() - started;
  console.log(JSON.stringify({ step, call: `${method} ${path.split("?")[0]}`, status: response.status,
                               ms: Math.round(ms * 100) / 100 }));
  if (response.status !== expected) {
    throw new Error(`${step}: ${method} ${path} answered ${response.status}, not ${expected}: ${JSON.stringify(answer)}`);
  }
  return answer;
}

function check(condition, what) {
  if (!condition) throw new Error(`unexpected: ${what}`);
}

function unbase64url(text) {
  return Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
}

// -- the client's first fetch loads Node's HTTP client (about 60 ms): a health check takes it
const health = await call("warm-up: health", "GET", "/v1/health");
check(health.status === "ok" && health.catalog === true, "the server is up, with a catalog");

// -- a new game: the day's deal, no spoiler in it
const today = new Date().toISOString().slice(0, 10);
const daily = await call("daily deal", "GET", `/v1/catalog/daily?date=${today}&suits=1`);
check(daily.date === today && daily.catalog.status === "verified", "the daily deal is a verified deal of today");
check(!("solution" in daily.catalog) && !("deck" in daily), "no spoiler in a new game");
check(daily.position.columns.every((column) => column.down >= 0 && Array.isArray(column.up)), "face-down cards counted");
const code = daily.code;
let position = daily.position;
let log = [];

// -- actions through POST /v1/position: the first legal moves, a deal, an undo
async function play(step, action) {
  position = await call(step, "POST", "/v1/position", { code, actions: [...log, action] });
  log = position.played;
}
const move = position.legal.find((action) => action !== "D" && action !== "U");
await play("move", move);
check(position.legal.includes("U") && position.undo_refused === null, "an undo is legal after a move");
await play("deal", "D");
await play("undo", "U");
check(position.moves === 1 && log.length === 3, "the undo took the deal back");

// -- a refused action: its rule, first with check, then as the log's action
const candidates = ["1>2", "2>3", "3>4", "4>5", "5>6", "6>7", "7>8", "8>9", "9>10", "10>1"];
const refused = candidates.find((action) => !position.legal.some((legal) => legal.split("/")[0] === action));
const checked = await call("check a refused action", "POST", "/v1/position", { code, actions: log, check: refused });
check(typeof checked.refused === "string" && checked.refused.length > 0, "check says the rule");
const error = await call("refused action", "POST", "/v1/position", { code, actions: [...log, refused] }, 422);
check(error.error.type === "refused-action" && error.error.index === log.length, "the refusal names its index");
check(error.error.message.includes(checked.refused), "the refusal's rule is the check's");

// -- hints, followed
let hint;
for (let n = 1; n <= 3; n++) {
  hint = await call(`hint ${n}`, "POST", "/v1/analyze", { code, actions: log, lost_at: false });
  check(hint.status === "verified" && typeof hint.summary === "string", "a hint and its sentence");
  await play(`play hint ${n}`, hint.hint);
}

// -- the fair hint: judged on what the player has seen, nothing hidden in it; asked twice, the same
const fairBody = { code, actions: log, fair: true, layouts: 4 };
const fair = await call("fair hint", "POST", "/v1/analyze", fairBody);
check(position.legal.includes(fair.hint) && fair.choices[0].action === fair.hint, "the fair hint is a legal action");
check(fair.chance >= 0 && fair.chance <= 1 && fair.layouts === 4, "its chance, 0 to 1, from 4 layouts");
check(typeof fair.summary === "string" && !("line" in fair) && !("status" in fair), "its sentence, and no line");
const fairAgain = await call("fair hint again", "POST", "/v1/analyze", fairBody);
check(JSON.stringify({ ...fairAgain, seconds: 0 }) === JSON.stringify({ ...fair, seconds: 0 }), "the same answer");

// -- "can I still win?"
const winnable = await call("can I still win?", "POST", "/v1/analyze", { code, actions: log, lost_at: true });
check(winnable.status === "verified" && winnable.summary.startsWith("The game can still be won"), "still winnable");

// -- to the end along the hints (each answered from a line the server knows), then the result
let hints = 0;
while (!position.won && log.length < MAX_ACTIONS) {
  hint = await call("hint to the end", "POST", "/v1/analyze", { code, actions: log, lost_at: false });
  check(hint.status === "verified", "the hints go on to the win");
  hints++;
  await play("play to the end", hint.hint);
}
check(position.won, "the game is won");
const result = { code, actions: log, name: `node client ${process.pid}`, challenge: `daily ${today}` };
const submitted = await call("submit the game", "POST", "/v1/games", result, 201);
const game = submitted.game;
const twice = await call("submit it again", "POST", "/v1/games", result, 200); // the game stored, not a new one
check(twice.receipt === submitted.receipt, "the same game has its first receipt");
check(game.outcome === "won" && game.score === position.score && game.moves === position.moves, "the server's score");
check(game.undos === 1 && game.par === daily.catalog.par, "undos used and the deal's par");

// -- the receipt: the server checks it, redeems it once, refuses it the second time
const verified = await call("verify the receipt", "POST", "/v1/games/verify",
                            { receipt: submitted.receipt, code, challenge: `daily ${today}`, redeem: true });
check(verified.valid === true && verified.game.id === game.id && verified.redeemed_at, "redeemed");
const again = await call("redeem it again", "POST", "/v1/games/verify", { receipt: submitted.receipt, redeem: true }, 409);
check(again.error.type === "replayed-receipt", "a replayed receipt is refused");
const [payload, signature] = submitted.receipt.split(".");
const forged = Buffer.from(JSON.stringify({ ...game, score: 1300 })).toString("base64url");
const altered = await call("an altered receipt", "POST", "/v1/games/verify", { receipt: `${forged}.${signature}` }, 422);
check(altered.error.type === "invalid-receipt", "an altered receipt is refused");

// -- and checked here, with the key, as docs/service.md says
const key = readFileSync(secretFile, "utf8").trim();
const text = unbase64url(payload);
const mac = createHmac("sha256", Buffer.from(key, "utf8")).update(text).digest();
check(timingSafeEqual(mac, unbase64url(signature)), "the receipt's HMAC is the key's");
check(JSON.parse(text.toString("utf8")).id === game.id, "the receipt signs the game");

const listed = await call("the deal's best games", "GET",
                          `/v1/deals/${code}/games?limit=100&challenge=${encodeURIComponent(`daily ${today}`)}`);
check(listed.total >= 1 && listed.games.some((listedGame) => listedGame.id === game.id), "the game is listed");
check(listed.games.every((listedGame) => !("log" in listedGame)), "no log in the list");
console.log(JSON.stringify({ done: true, code, actions: log.length, hints_to_the_end: hints, score: game.score }));
