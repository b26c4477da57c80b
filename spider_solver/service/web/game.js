// game.js: the reference web client's game. It plays with the rules module (web/rules/,
// the npm package spider-solver-rules): every action the player makes is checked, played
// and drawn here, its refusal shown in the rules' own words, without a request. The server
// is asked (through api.js) only for deals, and for what needs the solver: hints and
// where a game was lost, and the review of a game. Nothing it asks before the player asks
// for a winning line names a face-down card or a winning line (docs/service.md,
// "Spoilers"): Hint is the fair hint, and the review judges the decisions, both only on
// what the player has seen.
//
// The sections: the game (its state, playing, the address), messages, drawing, the solver,
// new games, input, start. A feature that asks the server adds its call to the solver
// section and its button to init(); it reads the game through `game` and changes it only
// through begin() and play().
import { ApiError, SpiderApi, localDate, lostBracket } from "./api.js";
import { Board, Deal, DealRow, Move, SUIT_SYMBOLS, SpiderError, Undo, playOn, quote } from "./rules/index.js";

const api = new SpiderApi();
const SUIT_NAME = ["spades", "hearts", "diamonds", "clubs"];
const $ = (id) => document.getElementById(id);
const DOUBLE_CLICK_MS = 400;

// --------------------------------------------------------------------------- the game

const game = {
  deal: null, // the Deal being played (rules module)
  board: null, // its Board: the position, the undo history, the score
  code: null, // the deal's game code, canonical
  record: null, // the catalog's record of the deal (Verified, difficulty, par), or null
  log: [], // the actions played, canonical notation, undos included: the address's log (a new array each change)
  undoLimit: 100, // null: unlimited
  selected: null, // the group held: {col, count}
  focus: 1, // the column the keyboard is on
  hint: null, // {token, action}: the hint shown, its action with the group size filled in
  request: null, // the AbortController of the running request to the solver
  lost: null, // {back, line}: where "go back" goes, and the line that wins from there
  review: null, // {log, answer}: the game reviewed and its review, while its panel is shown
};

/** Start ``deal`` from its first position and play ``log`` (tokens in notation) on it, as
 *  after any action (a won or stuck game is said). Returns null, or the log's first refused
 *  action (a ReplayError: the actions before it are played). */
function begin(deal, record, log = []) {
  cancel();
  clearHint();
  hideLost();
  hideReview();
  game.deal = deal;
  game.code = deal.name;
  game.record = record;
  game.board = new Board(deal, { undoLimit: game.undoLimit });
  game.selected = null;
  const result = playOn(game.board, log);
  game.log = [...result.played];
  document.body.dataset.code = game.code;
  saveHash();
  render();
  afterMove();
  return result.error;
}

/** Play an action of the player (a Move, DealRow or Undo): played and drawn, or its rule
 *  reminder shown. True if it was played. */
function play(action) {
  clearHint();
  game.selected = null;
  lastClick = null;
  const board = game.board;
  let token;
  try {
    // A game log ends with the win (RULES.md §12 Replay): the board would allow undoing it.
    if (board.isWon()) throw new SpiderError(`the game is already won; ${quote(String(action))} comes after the last run left`);
    token = board.play(action);
  } catch (error) {
    if (!(error instanceof SpiderError)) throw error;
    say(error.message, "rule");
    render();
    return false;
  }
  game.log = [...game.log, token];
  saveHash();
  render();
  afterMove();
  return true;
}

/** The game back at the position after the first ``actions`` actions of its log. */
function rewind(actions) {
  begin(game.deal, game.record, game.log.slice(0, actions));
}

function afterMove() {
  const board = game.board;
  if (board.isWon()) {
    const par = game.record?.par;
    say(`You won! Score ${board.score} in ${board.moves} moves` + (par != null ? ` (par ${par}).` : "."), "won");
  } else if (!board.legalMoves().length) {
    say("No move is left: the game is stuck. Looking for where it was lost…");
    stillWinnable();
  }
}

function saveHash() {
  const hash = "#" + game.code + (game.log.length ? "/" + game.log.join(",") : "");
  history.replaceState(null, "", hash);
}

function moveGroup(src, count, dst) {
  return play(new Move(src, dst, count));
}

/** Send a group (the last ``count`` cards of ``src``; null: the column's best group) to
 *  its best column (RULES.md §13.6 Best column (auto-place)). */
function autoPlace(src, count) {
  const board = game.board;
  if (!board.columns[src - 1].length) { say(`Column ${src} is empty.`, "rule"); return false; }
  const move = board.bestMove(src, count);
  if (move) return play(move);
  if (count != null && count > board.movable(src)) { // no group: the rule that says why
    const other = board.columns.findIndex((column, c) => c + 1 !== src && column.at(-1)?.rank !== 1) + 1;
    if (other) {
      try { board.check(new Move(src, other, count)); } catch (error) { say(error.message, "rule"); return false; }
    }
  }
  say(`No column takes this group of column ${src}.`, "rule");
  return false;
}

function deal() {
  return play(new DealRow());
}

function undo() {
  if (!play(new Undo())) return false;
  say("Undone.");
  return true;
}

function restart() {
  begin(game.deal, game.record);
  say("The game starts again from its first position.");
}

// --------------------------------------------------------------------------- messages

function say(text, kind = "") {
  const message = $("message");
  message.className = "message" + (kind ? " " + kind : "");
  message.textContent = text;
}

/** An action of a hint or a lost game in words, its cards named from ``board`` (none: not named). */
function actionWords(token, board = game.board) {
  let action;
  try {
    action = board ? board.resolve(board.parseAction(token)) : null;
  } catch (error) {
    if (!(error instanceof SpiderError)) throw error;
  }
  if (token === "D") return "deal a row from the stock";
  if (token === "U") return "undo";
  const [src, dst] = token.split("/")[0].split(">");
  if (!(action instanceof Move)) return `move a group from column ${src} to column ${dst}`;
  const cards = board.columns[action.src - 1];
  const first = cards[cards.length - action.count].symbol();
  const what = action.count > 1 ? `${first} and the ${action.count - 1} below it` : first;
  return `move ${what} from column ${action.src} to column ${action.dst}`;
}

// --------------------------------------------------------------------------- drawing

function render() {
  const board = game.board;
  if (!board) return;
  const tableau = $("tableau");
  const room = metrics ?? { width: 100, room: 600 }; // until the page is laid out (watchLayout)
  tableau.replaceChildren();
  const hint = game.hint?.action instanceof Move ? game.hint.action : null;
  for (let c = 1; c <= board.variant.columns; c++) {
    const down = board.down[c - 1];
    const up = board.faceUp(c);
    const el = document.createElement("div");
    el.className = "column";
    el.dataset.col = String(c);
    el.tabIndex = c === game.focus ? 0 : -1;
    el.setAttribute("role", "button");
    const upText = up.map((card) => card.symbol()).join(" ");
    el.setAttribute("aria-label", `Column ${c}: ` + (down || up.length
      ? `${down} face down${upText ? ", then " + upText : ""}` : "empty"));
    if (hint && hint.dst === c) el.classList.add("hint-dst");
    const step = steps(down, up.length, room);
    let y = 0;
    for (let i = 0; i < down + up.length; i++) {
      const node = document.createElement("div");
      node.style.setProperty("--y", String(y));
      node.dataset.index = String(i);
      if (i < down) {
        node.className = "card down";
        y += step.down;
      } else {
        const card = up[i - down];
        const count = down + up.length - i; // the cards from this one to the end of the column
        node.className = "card up" + (card.suit === 1 || card.suit === 2 ? " red" : "");
        node.dataset.count = String(count);
        node.dataset.card = card.toString();
        const corner = document.createElement("span");
        corner.className = "corner";
        corner.textContent = card.symbol();
        const pip = document.createElement("span");
        pip.className = "pip";
        pip.textContent = SUIT_SYMBOLS[card.suit];
        pip.setAttribute("aria-hidden", "true");
        node.append(corner, pip);
        if (hint && hint.src === c && count <= hint.count) node.classList.add("hint-src");
        y += step.up;
      }
      el.append(node);
    }
    const spacer = document.createElement("div"); // the column's height: its last card's bottom
    spacer.className = "spacer";
    const last = down + up.length ? (up.length ? step.up : step.down) : 0;
    spacer.style.setProperty("--h", String(y - last + 140));
    el.append(spacer);
    tableau.append(el);
  }
  $("score").textContent = String(board.score);
  $("moves").textContent = String(board.moves);
  $("runs").textContent = String(board.runsRemoved);
  const stock = $("stock");
  const left = board.dealsLeft;
  $("stock-text").textContent = left ? `${left} deal${left > 1 ? "s" : ""} left` : "stock empty";
  stock.classList.toggle("empty", !left);
  stock.classList.toggle("hint-src", game.hint?.action instanceof DealRow);
  stock.setAttribute("aria-label", `Stock: ${board.stockLeft} cards, ${left} deals left. Deal`);
  $("removed").replaceChildren(...board.removed.map((suit) => {
    const run = document.createElement("span");
    run.textContent = "K" + SUIT_SYMBOLS[suit];
    run.title = `a run of ${SUIT_NAME[suit]} removed`;
    if (suit === 1 || suit === 2) run.className = "red";
    return run;
  }));
  $("code").textContent = game.code || "-";
  const badge = $("verified");
  const record = game.record;
  badge.hidden = !(record && record.status === "verified");
  if (!badge.hidden) {
    const parts = ["Verified"];
    if (record.difficulty != null) parts.push(`difficulty ${record.difficulty}/5`);
    if (record.par != null) parts.push(`par score ${record.par}`); // the score of the shortest known line
    else if (record.moves != null) parts.push(`${record.moves} moves known`);
    badge.textContent = parts.join(" · ");
  }
  $("undo").disabled = board.moves === 0;
  document.body.dataset.moves = String(board.moves);
  document.body.dataset.won = String(board.isWon());
  highlight();
}

/** Show the group held and the columns it may go to (placement help) on the cards drawn. */
function highlight() {
  const held = game.selected;
  const targets = held ? game.board.targets(held.col, held.count) : [];
  for (const column of $("tableau").children) {
    const c = Number(column.dataset.col);
    column.classList.toggle("target", targets.includes(c));
    for (const card of column.querySelectorAll(".card.up")) {
      card.classList.toggle("selected", held?.col === c && Number(card.dataset.count) <= held.count);
    }
  }
}

let metrics = null; // measure()'s figures, from the last time the page was laid out

/** The tableau's size: a card's width in pixels, and the height a column may take in the
 *  window, in hundredths of a card's width. Reading them lays the page out. */
function measure() {
  const tableau = $("tableau");
  const width = tableau.clientWidth / 10 || 100;
  const room = Math.max(300, ((window.innerHeight - tableau.getBoundingClientRect().top - 90) / width) * 100);
  return { width, room };
}

/** Measure again whenever the browser has laid out a new size of the tableau, of what is
 *  above it, or of the window, and draw again if it changed. A drawing never reads the
 *  layout itself: that would lay the page out once an action (most of an action's time). */
function watchLayout() {
  const update = () => {
    const now = measure();
    if (metrics && Math.abs(now.width - metrics.width) < 0.5 && Math.abs(now.room - metrics.room) < 1) return;
    metrics = now;
    render();
  };
  const observer = new ResizeObserver(update);
  for (const el of [$("tableau"), document.querySelector(".bar"), $("message"), $("busy"), $("lost"),
                    $("review-panel")]) {
    observer.observe(el);
  }
  window.addEventListener("resize", update);
}

/** Offsets (in hundredths of a card's width) between the cards of a column, smaller for
 *  a long column so that it fits in the window. */
function steps(down, up, { width, room }) {
  // At least 18 px between face-up cards (a corner's figure) and 5 px between face-down ones.
  let upStep = Math.max(30, 1800 / width), downStep = Math.max(12, 500 / width);
  const need = down * downStep + Math.max(0, up - 1) * upStep + 140;
  if (need > room) {
    const scale = Math.max(0.35, (room - 140) / (need - 140));
    upStep *= scale; downStep *= scale;
  }
  return { up: upStep, down: downStep };
}

// --------------------------------------------------------------------------- the solver

function report(error) {
  if (error?.name === "AbortError") return;
  say(error instanceof ApiError ? error.message : `The server could not be reached (${error?.message || error}).`);
}

function clearHint() {
  game.hint = null;
  delete document.body.dataset.hint;
  delete document.body.dataset.hintKind;
  delete document.body.dataset.hintCount;
  delete document.body.dataset.chance;
}

/** Run a request to the solver with a progress line and a Cancel button (Escape cancels too). */
async function longRequest(label, call) {
  cancel();
  const controller = new AbortController();
  game.request = controller;
  const started = performance.now();
  $("busy").hidden = false;
  const tick = () => { $("busy-text").textContent = `${label} ${((performance.now() - started) / 1000).toFixed(0)} s`; };
  tick();
  const timer = setInterval(tick, 500);
  document.body.dataset.busy = "true";
  try {
    return await call(controller.signal);
  } finally {
    clearInterval(timer);
    if (game.request === controller) {
      game.request = null;
      $("busy").hidden = true;
      delete document.body.dataset.busy;
    }
  }
}

function cancel() {
  if (game.request) {
    game.request.abort();
    game.request = null;
    $("busy").hidden = true;
    delete document.body.dataset.busy;
    say("Cancelled.");
  }
}

/** The game as the solver's endpoints take it: the code, the log, the undo limit. */
function asked(extra) {
  return { code: game.code, actions: game.log, undoLimit: game.undoLimit, ...extra };
}

/** Show ``token`` (an action of the position) as the hint: its cards and target drawn, and
 *  the body's data attributes set (``kind``: "fair" or "line"). */
function showHint(token, kind) {
  const action = game.board.resolve(game.board.parseAction(token));
  clearHint(); // what an earlier hint set (its count, its chance) goes
  game.hint = { token, action };
  document.body.dataset.hint = token;
  document.body.dataset.hintKind = kind;
  if (action instanceof Move) document.body.dataset.hintCount = String(action.count);
  render();
}

/** Hint: the fair hint, the best next action judged only on what the player has seen (the
 *  request carries the code, the log and the undo limit, nothing the page learnt from a
 *  winning line), with its chance in words: the answer's summary. */
async function hint() {
  if (!game.board || game.board.isWon()) return;
  const log = game.log;
  let answer;
  try {
    answer = await longRequest("Weighing the moves you can see…", (signal) => api.fairHint(asked(), { signal }));
  } catch (error) { report(error); return; }
  if (log !== game.log) return; // the game moved on meanwhile
  if (answer.hint) {
    showHint(answer.hint, "fair");
    document.body.dataset.chance = String(answer.chance);
  } else {
    clearHint(); // no action helps: no earlier hint stays drawn
    render();
  }
  say(answer.summary);
}

/** Show a winning line: the next action of a line the solver found knowing the face-down
 *  cards and the stock (a spoiler, asked for as such). */
async function winningLine() {
  if (!game.board || game.board.isWon()) return;
  const log = game.log;
  let answer;
  try {
    answer = await longRequest("Looking for a winning line…", (signal) => api.analyze(asked({ lostAt: false }), { signal }));
  } catch (error) { report(error); return; }
  if (log !== game.log) return; // the game moved on meanwhile
  if (answer.status === "verified" && answer.hint) {
    showHint(answer.hint, "line");
    say(`A winning line, found knowing the face-down cards: ${actionWords(answer.hint)} (${answer.hint}), then ` +
        `${answer.line.length - 1} more action${answer.line.length === 2 ? "" : "s"}.`);
  } else if (answer.status === "unwinnable") {
    say(`${answer.summary} Ask “Can I still win?” to see where it was lost.`);
  } else {
    say(answer.summary);
  }
}

async function stillWinnable() {
  if (!game.board) return;
  const log = game.log;
  let answer;
  try {
    answer = await longRequest("Analysing the game…", (signal) => api.analyze(asked({ lostAt: true }), { signal }));
  } catch (error) { report(error); return; }
  if (log !== game.log) return;
  hideLost();
  if (answer.status === "verified") {
    say(answer.line.length ? `Yes: a winning line of ${answer.line.length} actions goes on from here.` : "Yes: it is won.");
    return;
  }
  if (answer.status === "unknown") {
    say(answer.summary);
    return;
  }
  showLost(lostBracket(answer), log);
}

function showLost(lost, log) {
  let text;
  if (lost && lost.lostAt !== null) {
    text = `It was lost at action ${lost.lostAt + 1} of ${log.length} (${lost.action}: ${actionWords(lost.action, null)}). ` +
      `Before it the game could be won, by a line of ${lost.line.length} actions.`;
  } else if (lost && lost.winnableAfter !== null) {
    text = `Still winnable after ${lost.winnableAfter ? `action ${lost.winnableAfter}` : "the start"} ` +
      `(a line of ${lost.bracketLine.length} actions wins from there); lost for certain by action ${lost.lostBy}.`;
  } else {
    text = "Where it was lost is not known within the budget (or the deal could never be won).";
  }
  say("This game can no longer be won: see where it was lost, below.");
  $("lost-text").textContent = text;
  const back = lost ? (lost.lostAt ?? lost.winnableAfter) : null;
  const canGoBack = back !== null && back !== undefined;
  game.lost = canGoBack ? { back, line: lost.lostAt !== null ? lost.line : lost.bracketLine } : null;
  $("go-back").hidden = !canGoBack;
  $("play-line").hidden = !(canGoBack && game.lost.line.length);
  $("lost").hidden = false;
  document.body.dataset.lost = lost && lost.lostAt !== null ? String(lost.lostAt) : "unknown";
}

function hideLost() {
  $("lost").hidden = true;
  delete document.body.dataset.lost;
}

/** Back to the last winnable position; with ``thenPlay``, play the winning line from
 *  there, an action every 120 ms, until it ends or Escape cancels it. */
async function goBack(thenPlay) {
  const lost = game.lost;
  if (!lost) return;
  rewind(lost.back);
  say(`Back at the last winnable position (after ${lost.back} actions).` + (thenPlay ? " Playing the winning line…" : ""));
  if (!thenPlay) return;
  const controller = new AbortController();
  game.request = controller;
  $("busy").hidden = false;
  $("busy-text").textContent = "Playing the winning line…";
  try {
    for (const token of lost.line) {
      await new Promise((resolve) => setTimeout(resolve, 120));
      if (controller.signal.aborted || !play(game.board.parseAction(token))) return;
    }
  } finally {
    if (game.request === controller) { game.request = null; $("busy").hidden = true; }
  }
}

/** Review this game: each decision judged only on the cards the player had seen, and the
 *  costliest with the better action, each with a button that goes back to it. For a game
 *  lost or given up; the request carries the code, the log and the undo limit only. */
async function reviewGame() {
  if (!game.board) return;
  if (!game.log.length) { say("Play a few actions first: a review judges the decisions you made."); return; }
  const log = game.log;
  let answer;
  try {
    answer = await longRequest("Reviewing your decisions…", (signal) => api.review(asked(), { signal }));
  } catch (error) { report(error); return; }
  if (log !== game.log) return; // the game moved on meanwhile
  showReview(log, answer);
}

function showReview(log, answer) {
  game.review = { log, answer };
  const costliest = answer.costliest;
  // The closest call (clear false) comes alone, when no decision clearly cost chances.
  const clear = costliest.length > 0 && costliest[0].clear;
  $("review-text").textContent = clear
    ? `Judged only on the cards you had seen, these of your ${answer.total} decisions cost the most:`
    : costliest.length
      ? `Judged only on the cards you had seen, none of your ${answer.total} decisions clearly cost chances to win; the closest call:`
      : answer.summary;
  $("review-list").replaceChildren(...costliest.map((mistake) => {
    const item = document.createElement("li");
    item.dataset.index = String(mistake.index);
    const words = document.createElement("span");
    words.textContent = mistake.summary[0].toUpperCase() + mistake.summary.slice(1) + ".";
    const back = document.createElement("button");
    back.type = "button";
    back.textContent = `Go back to action ${mistake.index + 1}`;
    back.addEventListener("click", () => goToMistake(mistake));
    item.append(words, back);
    return item;
  }));
  $("review-panel").hidden = false;
  document.body.dataset.review = String(costliest.length);
  say(answer.summary);
}

function hideReview() {
  game.review = null;
  $("review-panel").hidden = true;
  delete document.body.dataset.review;
}

/** Back to the position before one of the costliest decisions of the game reviewed, the
 *  better action shown as the hint; the review stays shown, for the others. */
function goToMistake(mistake) {
  const reviewed = game.review;
  if (!reviewed) return;
  begin(game.deal, game.record, reviewed.log.slice(0, mistake.index));
  showReview(reviewed.log, reviewed.answer);
  showHint(mistake.better, "review");
  const why = mistake.cost > 0 ? "kept the better chance" : "got the games further";
  say(`Back before action ${mistake.index + 1}, where ${mistake.action} was played: ` +
      `${actionWords(mistake.better)} (${mistake.better}) ${why}.`);
}

// --------------------------------------------------------------------------- new games

let generation = 0; // the latest game asked for: an earlier one's answers arriving late are dropped

/** Start a game: the given code, else a verified deal of the settings from the catalog,
 *  the day's (``daily``) or a random one. True once started. */
async function newGame({ code, suits, rule, difficulty, daily = false } = {}) {
  cancel();
  const mine = ++generation;
  let deal, record = null, date = null;
  try {
    if (code) {
      deal = Deal.fromCode(code); // a code that does not parse is said here, without the server
    } else {
      const filters = { suits, rule: suits === "1" ? undefined : rule, difficulty };
      const answer = daily ? await api.dailyDeal({ date: localDate(), ...filters }) : await api.randomDeal(filters);
      record = answer.catalog; // the catalog's facts: no solution, and no face-down card anywhere in the answer
      date = answer.date ?? null;
      deal = Deal.fromCode(answer.code);
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) say("No verified deal in the catalog matches: try other settings, or type a game code.");
    else if (error instanceof SpiderError) say(error.message);
    else report(error);
    return false;
  }
  if (mine !== generation) return false;
  begin(deal, record);
  started();
  const unreachable = record ? null : await fetchRecord(deal);
  if (game.deal !== deal) return true;
  const what = date ? `Today's deal (${date}), ${deal.name}` : `New game ${deal.name}`;
  say(what + (game.record?.status === "verified" ? ": a verified deal, known to be winnable." : ".") +
      (unreachable ? ` ${unreachable}` : ""));
  return true;
}

/** Ask for the catalog's record of the deal being played (GET /v1/catalog/deals/{code}: no
 *  spoiler; null when the catalog does not hold the deal), for its label: null once it is
 *  there, else what to say (the game plays on without it). */
async function fetchRecord(deal) {
  try {
    const answer = await api.catalogDeal(deal.name);
    if (game.deal === deal) { game.record = answer.catalog; render(); }
    return null;
  } catch (error) {
    if (error?.name === "AbortError" || (error instanceof ApiError && error.status === 404)) return null;
    const why = error instanceof ApiError ? error.message : `The server could not be reached (${error?.message || error})`;
    return `${why}: the game plays on; hints need the server.`;
  }
}

/** Today's deal, of the New game settings: the same for every player of this server's catalog. */
function todaysDeal() {
  const settings = JSON.parse(localStorage.getItem("spider-settings") || "{}");
  return newGame({ suits: settings.suits, rule: settings.rule, difficulty: settings.difficulty, daily: true });
}

function started() {
  document.body.dataset.games = String(Number(document.body.dataset.games || 0) + 1); // games started
}

/** The game of the page's address, its code then its log: laid out and replayed here at
 *  once. A log the rules refuse gives the deal from its first position, a code that does
 *  not parse a new game, each with the reason. */
async function resume(code, log, settings) {
  let deal;
  try {
    deal = Deal.fromCode(code);
  } catch (error) {
    if (!(error instanceof SpiderError)) throw error;
    if (await newGame(settings)) {
      say(`The address's game could not be resumed: ${error.message}. A new game instead: ${game.code}.`);
    }
    return;
  }
  ++generation;
  const refused = begin(deal, null, log);
  if (refused) begin(deal, null);
  const [text, kind] = refused
    ? [`The address's game could not be resumed: ${refused}. ${deal.name} starts from its first position.`, "rule"]
    : [`Game ${deal.name} resumed.`, ""];
  say(text, kind);
  started();
  const shown = game.log;
  const unreachable = await fetchRecord(deal);
  if (unreachable && game.log === shown) say(`${text} ${unreachable}`, kind); // nothing was played meanwhile
}

function openNewGame() {
  $("new-game").showModal();
}

// --------------------------------------------------------------------------- input

function columnOf(node) {
  const el = node?.closest?.(".column");
  return el ? Number(el.dataset.col) : null;
}

let press = null; // a pointer held on a card: {col, count, x, y, ghost}

function onPointerDown(event) {
  const card = event.target.closest(".card.up");
  if (!card || event.button !== 0) return;
  press = { col: columnOf(card), count: Number(card.dataset.count), x: event.clientX, y: event.clientY, ghost: null,
            id: event.pointerId };
}

function onPointerMove(event) {
  if (!press || event.pointerId !== press.id) return;
  if (!press.ghost && Math.hypot(event.clientX - press.x, event.clientY - press.y) < 6) return;
  if (!press.ghost) startDrag();
  press.ghost.style.setProperty("left", `${event.clientX - press.dx}px`);
  press.ghost.style.setProperty("top", `${event.clientY - press.dy}px`);
}

function startDrag() {
  const column = document.querySelector(`.column[data-col="${press.col}"]`);
  const cards = [...column.querySelectorAll(".card.up")].filter((c) => Number(c.dataset.count) <= press.count);
  const first = cards[0].getBoundingClientRect();
  const ghost = document.createElement("div");
  ghost.className = "ghost";
  ghost.style.setProperty("width", `${first.width}px`);
  const top = parseFloat(cards[0].style.getPropertyValue("--y"));
  for (const card of cards) {
    const copy = card.cloneNode(true);
    copy.style.setProperty("--y", String(parseFloat(card.style.getPropertyValue("--y")) - top));
    ghost.append(copy);
    card.classList.add("dragging");
  }
  press.dx = press.x - first.left;
  press.dy = press.y - first.top;
  document.body.append(ghost);
  press.ghost = ghost;
  game.selected = { col: press.col, count: press.count };
  highlight();
}

function onPointerUp(event) {
  if (!press || event.pointerId !== press.id) return;
  const held = press;
  press = null;
  if (!held.ghost) return; // a click: handled by onClick
  held.ghost.remove();
  const dst = columnOf(document.elementFromPoint(event.clientX, event.clientY));
  suppressClick = true;
  setTimeout(() => { suppressClick = false; }, 0);
  if (dst && dst !== held.col) moveGroup(held.col, held.count, dst);
  else { game.selected = null; render(); }
}

let suppressClick = false;

let lastClick = null; // {col, count, at}: a second click soon after on the same place is a double-click

function onClick(event) {
  if (suppressClick) return;
  const col = columnOf(event.target);
  if (!col) return;
  setFocus(col, false);
  const card = event.target.closest(".card.up");
  // A double-click (detected here: the first click redraws the cards, so the browser's
  // dblclick would not reach them) sends the group to its best column.
  const count = card ? Number(card.dataset.count) : null;
  const now = performance.now();
  if (lastClick && lastClick.col === col && lastClick.count === count && now - lastClick.at < DOUBLE_CLICK_MS) {
    lastClick = null;
    game.selected = null;
    autoPlace(col, count);
    return;
  }
  lastClick = { col, count, at: now };
  if (game.selected) {
    const { col: src, count: held } = game.selected;
    if (src === col) { // a click on the held group puts it down; on another of its cards, takes that group
      game.selected = card && count !== held ? { col, count } : null;
      highlight();
      return;
    }
    moveGroup(src, held, col);
    return;
  }
  if (card) select(col, count);
}

function select(col, count) {
  game.selected = { col, count };
  highlight();
  const targets = game.board.targets(col, count);
  say(count > game.board.movable(col) ? `These ${count} cards do not form a group that can move; pick a card nearer the end.`
    : targets.length ? `Holding ${count} card${count > 1 ? "s" : ""} of column ${col}: it may go to column${targets.length > 1 ? "s" : ""} ${targets.join(", ")}.`
    : `Holding ${count} card${count > 1 ? "s" : ""} of column ${col}: no column takes it now.`);
}

function setFocus(col, move = true) {
  game.focus = col;
  for (const el of document.querySelectorAll(".column")) el.tabIndex = Number(el.dataset.col) === col ? 0 : -1;
  if (move) document.querySelector(`.column[data-col="${col}"]`)?.focus();
}

function onKey(event) {
  if ($("new-game").open || event.altKey || event.metaKey || !game.board) return;
  const inColumn = columnOf(document.activeElement);
  const key = event.key;
  if (event.ctrlKey) {
    if (key === "z") { event.preventDefault(); undo(); }
    return;
  }
  if (key === "Escape") { cancel(); game.selected = null; highlight(); return; }
  const plain = { d: deal, u: undo, h: hint, l: winningLine, w: stillWinnable, v: reviewGame, n: openNewGame,
                  r: restart, t: todaysDeal }[
    key.toLowerCase()];
  if (plain && !(event.target instanceof HTMLInputElement)) { event.preventDefault(); plain(); return; }
  if (!inColumn) return;
  const board = game.board;
  const columns = board.variant.columns;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    event.preventDefault();
    setFocus(((inColumn - 1 + (key === "ArrowLeft" ? -1 : 1) + columns) % columns) + 1);
  } else if (key === "Enter" || key === " ") {
    event.preventDefault();
    if (game.selected && game.selected.col !== inColumn) moveGroup(game.selected.col, game.selected.count, inColumn);
    else if (game.selected) { game.selected = null; highlight(); say("Put down."); }
    else if (board.movable(inColumn)) select(inColumn, board.movable(inColumn));
    else say(`Column ${inColumn} has no card to pick up.`);
    setFocus(inColumn);
  } else if ((key === "ArrowUp" || key === "ArrowDown") && game.selected && game.selected.col === inColumn) {
    event.preventDefault();
    const up = board.faceUp(inColumn).length;
    select(inColumn, Math.min(up, Math.max(1, game.selected.count + (key === "ArrowUp" ? 1 : -1))));
    setFocus(inColumn);
  } else if (key.toLowerCase() === "a") {
    event.preventDefault();
    autoPlace(inColumn, game.selected?.col === inColumn ? game.selected.count : null);
    setFocus(inColumn);
  }
}

// --------------------------------------------------------------------------- start

function init() {
  const tableau = $("tableau");
  tableau.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", () => { press?.ghost?.remove(); press = null; });
  tableau.addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);
  watchLayout();
  $("new").addEventListener("click", openNewGame);
  $("daily").addEventListener("click", todaysDeal);
  $("restart").addEventListener("click", restart);
  $("undo").addEventListener("click", undo);
  $("deal").addEventListener("click", deal);
  $("stock").addEventListener("click", deal);
  $("hint").addEventListener("click", hint);
  $("line").addEventListener("click", winningLine);
  $("winnable").addEventListener("click", stillWinnable);
  $("review").addEventListener("click", reviewGame);
  $("review-lost").addEventListener("click", reviewGame);
  $("cancel").addEventListener("click", cancel);
  $("go-back").addEventListener("click", () => goBack(false));
  $("play-line").addEventListener("click", () => goBack(true));
  const settings = JSON.parse(localStorage.getItem("spider-settings") || "{}");
  for (const name of ["suits", "rule", "difficulty"]) if (settings[name] != null) $(name).value = settings[name];
  $("unlimited").checked = Boolean(settings.unlimited);
  game.undoLimit = settings.unlimited ? null : 100;
  $("new-game").addEventListener("close", () => {
    const dialog = $("new-game");
    if (dialog.returnValue !== "start") return;
    const chosen = { suits: $("suits").value, rule: $("rule").value, difficulty: $("difficulty").value,
                     unlimited: $("unlimited").checked };
    localStorage.setItem("spider-settings", JSON.stringify(chosen));
    game.undoLimit = chosen.unlimited ? null : 100;
    const code = $("code-input").value.trim();
    $("code-input").value = "";
    newGame({ ...chosen, code: code || undefined });
  });
  // #CODE or #CODE/ACTION,ACTION,...: a game to resume (the page keeps it there as it is played).
  const hash = decodeURIComponent(location.hash.slice(1));
  const [code, actions] = hash.includes("/") ? [hash.slice(0, hash.indexOf("/")), hash.slice(hash.indexOf("/") + 1)]
    : [hash, ""];
  if (code) {
    resume(code, actions ? actions.split(",") : [], settings);
  } else {
    newGame({ suits: settings.suits, rule: settings.rule, difficulty: settings.difficulty });
  }
}

init();
