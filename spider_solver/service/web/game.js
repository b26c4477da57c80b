// game.js: the reference web client's game: draws the position /v1/position answers,
// plays the player's actions by sending the growing log, and asks /v1/analyze for hints
// and for where a game was lost. Everything the server is asked goes through api.js.
import { ApiError, SpiderApi, lostBracket, parseAction, ruleOf } from "./api.js";

const api = new SpiderApi();
const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
const $ = (id) => document.getElementById(id);
const DOUBLE_CLICK_MS = 400;

const game = {
  code: null, record: null, log: [], pos: null, undoLimit: 100,
  selected: null, // {col, count}
  focus: 1, // the column the keyboard is on
  hint: null, // {token, move}
  request: null, // the AbortController of the running long request
  queue: Promise.resolve(), // the position requests, one after another
};

// --------------------------------------------------------------------------- messages

function say(text, kind = "") {
  const message = $("message");
  message.className = "message" + (kind ? " " + kind : "");
  message.textContent = text;
}

function cardName(text) {
  return (RANK[text[0]] || text[0]) + SUIT[text[1]];
}

function actionWords(token, pos = game.pos) {
  const action = parseAction(token);
  if (!action) return token;
  if (action.kind === "deal") return "deal a row from the stock";
  if (action.kind === "undo") return "undo";
  const count = action.count ?? groupFor(action.src, action.dst, pos)?.count ?? 1;
  const up = pos?.columns[action.src - 1].up || [];
  const first = up[up.length - count];
  const what = first ? (count > 1 ? `${cardName(first)} and the ${count - 1} below it` : cardName(first)) : "a group";
  return `move ${what} from column ${action.src} to column ${action.dst}`;
}

/** The group of ``src`` that may go to ``dst`` (onto a card only one size fits). */
function groupFor(src, dst, pos = game.pos) {
  const groups = pos?.columns[src - 1].groups || [];
  return groups.find((group) => group.targets.includes(dst) && pos.columns[dst - 1].up.length) ||
    groups.slice().reverse().find((group) => group.targets.includes(dst)) || null;
}

// --------------------------------------------------------------------------- drawing

function render() {
  const pos = game.pos;
  if (!pos) return;
  const tableau = $("tableau");
  tableau.replaceChildren();
  const hint = game.hint?.move;
  for (let c = 1; c <= pos.columns.length; c++) {
    const column = pos.columns[c - 1];
    const el = document.createElement("div");
    el.className = "column";
    el.dataset.col = String(c);
    el.tabIndex = c === game.focus ? 0 : -1;
    el.setAttribute("role", "button");
    const upText = column.up.map(cardName).join(" ");
    el.setAttribute("aria-label", `Column ${c}: ` + (column.down || column.up.length
      ? `${column.down} face down${upText ? ", then " + upText : ""}` : "empty"));
    const targets = game.selected ? targetsOf(game.selected) : [];
    if (targets.includes(c)) el.classList.add("target");
    if (hint && hint.kind === "move" && hint.dst === c) el.classList.add("hint-dst");
    const cards = [];
    for (let i = 0; i < column.down; i++) cards.push({ down: true });
    column.up.forEach((text, i) => cards.push({ text, count: column.up.length - i }));
    const step = steps(column);
    let y = 0;
    cards.forEach((card, i) => {
      const node = document.createElement("div");
      node.style.setProperty("--y", String(y));
      y += card.down ? step.down : step.up;
      if (card.down) {
        node.className = "card down";
      } else {
        node.className = "card up" + ("HD".includes(card.text[1]) ? " red" : "");
        node.dataset.count = String(card.count);
        node.dataset.card = card.text;
        const corner = document.createElement("span");
        corner.className = "corner";
        corner.textContent = cardName(card.text);
        const pip = document.createElement("span");
        pip.className = "pip";
        pip.textContent = SUIT[card.text[1]];
        pip.setAttribute("aria-hidden", "true");
        node.append(corner, pip);
        if (game.selected && game.selected.col === c && card.count <= game.selected.count) node.classList.add("selected");
        if (hint && hint.kind === "move" && hint.src === c && card.count <= game.hintCount) node.classList.add("hint-src");
      }
      node.dataset.index = String(i);
      el.append(node);
    });
    const spacer = document.createElement("div"); // the column's height: its last card's bottom
    spacer.className = "spacer";
    spacer.style.setProperty("--h", String(y - (cards.length ? (cards.at(-1).down ? step.down : step.up) : 0) + 140));
    el.append(spacer);
    tableau.append(el);
  }
  $("score").textContent = String(pos.score);
  $("moves").textContent = String(pos.moves);
  $("runs").textContent = String(pos.runs_removed);
  const stock = $("stock");
  $("stock-text").textContent = pos.deals_left ? `${pos.deals_left} deal${pos.deals_left > 1 ? "s" : ""} left` : "stock empty";
  stock.classList.toggle("empty", !pos.deals_left);
  stock.classList.toggle("hint-src", hint?.kind === "deal");
  stock.setAttribute("aria-label", `Stock: ${pos.stock_left} cards, ${pos.deals_left} deals left. Deal`);
  $("removed").replaceChildren(...pos.removed.map((suit) => {
    const run = document.createElement("span");
    run.textContent = "K" + SUIT[suit];
    run.title = `a run of ${SUIT_NAME[suit]} removed`;
    if ("HD".includes(suit)) run.className = "red";
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
  $("undo").disabled = Boolean(pos.undo_refused) && pos.moves === 0;
  document.body.dataset.moves = String(pos.moves);
  document.body.dataset.won = String(pos.won);
}

/** Offsets (in hundredths of a card's width) between the cards of a column, smaller for
 *  a long column so that it fits in the window. */
function steps(column) {
  const tableau = $("tableau");
  const width = tableau.clientWidth / 10 || 100;
  const room = Math.max(300, ((window.innerHeight - tableau.getBoundingClientRect().top - 90) / width) * 100);
  // At least 18 px between face-up cards (a corner's figure) and 5 px between face-down ones.
  let up = Math.max(30, 1800 / width), down = Math.max(12, 500 / width);
  const need = column.down * down + Math.max(0, column.up.length - 1) * up + 140;
  if (need > room) {
    const scale = Math.max(0.35, (room - 140) / (need - 140));
    up *= scale; down *= scale;
  }
  return { up, down };
}

function targetsOf(selection) {
  const group = game.pos.columns[selection.col - 1].groups[selection.count - 1];
  return group ? group.targets : [];
}

// --------------------------------------------------------------------------- playing

function saveHash() {
  const hash = "#" + game.code + (game.log.length ? "/" + game.log.join(",") : "");
  history.replaceState(null, "", hash);
}

/** Ask for the position of ``actions`` (one request at a time) and draw it. */
function load(actions, { check } = {}) {
  const run = async () => {
    const pos = await api.position({ code: game.code, actions, undoLimit: game.undoLimit, check });
    if (check === undefined) {
      game.pos = pos;
      game.log = pos.played;
      saveHash();
      render();
      afterMove();
    }
    return pos;
  };
  const result = game.queue.then(run, run);
  game.queue = result.catch(() => undefined);
  return result;
}

async function play(token) {
  clearHint();
  game.selected = null;
  lastClick = null;
  try {
    await load([...game.log, token]);
    return true;
  } catch (error) {
    report(error);
    render();
    return false;
  }
}

function afterMove() {
  const pos = game.pos;
  if (pos.won) {
    const par = game.record?.par;
    say(`You won! Score ${pos.score} in ${pos.moves} moves` + (par != null ? ` (par ${par}).` : "."), "won");
  } else if (!pos.legal.length) {
    say("No move is left: the game is stuck. Looking for where it was lost…");
    stillWinnable();
  }
}

function report(error) {
  if (error?.name === "AbortError") return;
  if (error instanceof ApiError && error.type === "refused-action") say(ruleOf(error), "rule");
  else say(error instanceof ApiError ? error.message : `The server could not be reached (${error?.message || error}).`);
}

/** A move the placement help does not allow: the rule that refuses it, in words. */
async function refuse(token) {
  try {
    const answer = await load(game.log, { check: token });
    say(answer.refused || `${token} is allowed`, answer.refused ? "rule" : "");
  } catch (error) {
    report(error);
  }
}

async function moveGroup(src, count, dst) {
  game.selected = null;
  const group = game.pos.columns[src - 1].groups[count - 1];
  const token = `${src}>${dst}/${count}`;
  if (group && group.targets.includes(dst)) return play(token);
  render();
  await refuse(token);
  return false;
}

async function autoPlace(src, count) {
  const column = game.pos.columns[src - 1];
  const group = count == null ? null : column.groups[count - 1];
  const best = count == null ? column.best : group?.best;
  if (best) return play(`${src}>${best}/${count ?? bestCount(src, best)}`);
  if (count != null && !group) { // no group: the rule that says why
    const other = game.pos.columns.findIndex((col, i) => i + 1 !== src && !(col.up.at(-1) || "").startsWith("A"));
    await refuse(`${src}>${other + 1}/${count}`);
  } else {
    say(column.up.length ? `No column takes this group of column ${src}.` : `Column ${src} is empty.`, "rule");
  }
  return false;
}

function bestCount(src, dst) {
  return groupFor(src, dst)?.count ?? game.pos.columns[src - 1].movable;
}

function deal() {
  if (game.pos.deal_refused) { say(game.pos.deal_refused, "rule"); return Promise.resolve(false); }
  return play("D");
}

function undo() {
  if (game.pos.undo_refused) { say(game.pos.undo_refused, "rule"); return Promise.resolve(false); }
  say("Undone.");
  return play("U");
}

function restart() {
  cancel();
  clearHint();
  hideLost();
  game.selected = null;
  say("The game starts again from its first position.");
  return load([]).catch(report);
}

// --------------------------------------------------------------------------- the solver

function clearHint() {
  game.hint = null;
  game.hintCount = 0;
  delete document.body.dataset.hint;
  delete document.body.dataset.hintCount;
}

/** Run a long request with a progress line and a Cancel button (Escape cancels too). */
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

async function hint() {
  if (!game.pos || game.pos.won) return;
  const log = game.log;
  let answer;
  try {
    answer = await longRequest("Looking for a winning line…", (signal) =>
      api.analyze({ code: game.code, actions: log, undoLimit: game.undoLimit, lostAt: false }, { signal }));
  } catch (error) { report(error); return; }
  if (log !== game.log) return; // the game moved on meanwhile
  if (answer.status === "verified" && answer.hint) {
    const move = parseAction(answer.hint);
    game.hint = { token: answer.hint, move };
    game.hintCount = move.kind === "move" ? (move.count ?? groupFor(move.src, move.dst)?.count ?? 1) : 0;
    document.body.dataset.hint = answer.hint;
    if (move.kind === "move") document.body.dataset.hintCount = String(game.hintCount);
    render();
    say(`Hint: ${actionWords(answer.hint)} (${answer.hint}).`);
  } else if (answer.status === "unwinnable") {
    say("This game can no longer be won from here. Ask “Can I still win?” to see where it was lost.");
  } else {
    say(`No winning line was found within the budget (${answer.nodes.toLocaleString()} positions, ` +
        `${answer.seconds.toFixed(1)} s); the game may still be winnable.`);
  }
}

async function stillWinnable() {
  if (!game.pos) return;
  const log = game.log;
  let answer;
  try {
    answer = await longRequest("Analysing the game…", (signal) =>
      api.analyze({ code: game.code, actions: log, undoLimit: game.undoLimit, lostAt: true }, { signal }));
  } catch (error) { report(error); return; }
  if (log !== game.log) return;
  hideLost();
  if (answer.status === "verified") {
    say(answer.line.length ? `Yes: a winning line of ${answer.line.length} actions goes on from here.` : "Yes: it is won.");
    return;
  }
  if (answer.status === "unknown") {
    say("Unknown: the search ran out of budget before it could tell. The game may still be winnable.");
    return;
  }
  const lost = lostBracket(answer);
  showLost(lost, log);
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

async function goBack(thenPlay) {
  const lost = game.lost;
  if (!lost) return;
  hideLost();
  clearHint();
  try {
    await load(game.log.slice(0, lost.back));
  } catch (error) { report(error); return; }
  say(`Back at the last winnable position (after ${lost.back} actions).` + (thenPlay ? " Playing the winning line…" : ""));
  if (!thenPlay) return;
  const controller = new AbortController();
  game.request = controller;
  $("busy").hidden = false;
  $("busy-text").textContent = "Playing the winning line…";
  try {
    for (const token of lost.line) {
      if (controller.signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, 120));
      if (controller.signal.aborted) return;
      await load([...game.log, token]);
    }
  } catch (error) { report(error); } finally {
    if (game.request === controller) { game.request = null; $("busy").hidden = true; }
  }
}

// --------------------------------------------------------------------------- new game

let generation = 0; // the latest "New game": an earlier one's answers arriving late are dropped

/** Start a game (the given code, else a random verified deal of the settings); true once started. */
async function newGame({ code, suits, rule, difficulty } = {}) {
  cancel();
  clearHint();
  hideLost();
  const mine = ++generation;
  try {
    let record = null;
    if (!code) {
      record = await api.randomDeal({ suits, rule: suits === "1" ? undefined : rule, difficulty });
      code = record.code;
    }
    const deal = await api.deal(code.trim());
    if (mine !== generation) return false;
    await start(deal.code, record || deal.catalog, []);
    say(`New game ${deal.code}` + (game.record?.status === "verified" ? ": a verified deal, known to be winnable." : "."));
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) say("No verified deal in the catalog matches: try other settings, or type a game code.");
    else report(error);
    return false;
  }
}

async function start(code, record, log) {
  game.code = code;
  game.record = record;
  game.selected = null;
  document.body.dataset.code = code;
  await load(log);
  document.body.dataset.games = String(Number(document.body.dataset.games || 0) + 1); // games started
}

/** The game of the page's address, its code then its log. A log the rules refuse gives the
 *  deal from its first position, a code the server refuses a new game, each with the reason;
 *  any other failure (the server unreachable) is reported and the address left as it is. */
async function resume(code, log, settings) {
  let deal;
  try {
    deal = await api.deal(code);
  } catch (error) {
    if (!(error instanceof ApiError)) return report(error);
    if (await newGame(settings)) {
      say(`The address's game could not be resumed: ${error.message}. A new game instead: ${game.code}.`);
    }
    return;
  }
  try {
    await start(deal.code, deal.catalog, log);
    say(`Game ${game.code} resumed.`);
  } catch (error) {
    if (!(error instanceof ApiError && error.type === "refused-action")) return report(error);
    try {
      await start(deal.code, deal.catalog, []);
    } catch (again) {
      return report(again);
    }
    say(`The address's game could not be resumed: ${error.message}. ${deal.code} starts from its first position.`,
        "rule");
  }
}

function openNewGame() {
  const dialog = $("new-game");
  dialog.showModal();
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
  for (const target of targetsOf(game.selected)) {
    document.querySelector(`.column[data-col="${target}"]`)?.classList.add("target");
  }
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
    const { col: src, count } = game.selected;
    if (src === col) { // a click on the held group puts it down; on another of its cards, takes that group
      game.selected = card && Number(card.dataset.count) !== count ? { col, count: Number(card.dataset.count) } : null;
      render();
      return;
    }
    moveGroup(src, count, col);
    return;
  }
  if (card) select(col, Number(card.dataset.count));
}

function select(col, count) {
  game.selected = { col, count };
  render();
  const targets = targetsOf(game.selected);
  const group = game.pos.columns[col - 1].groups[count - 1];
  say(!group ? `These ${count} cards do not form a group that can move; pick a card nearer the end.`
    : targets.length ? `Holding ${count} card${count > 1 ? "s" : ""} of column ${col}: it may go to column${targets.length > 1 ? "s" : ""} ${targets.join(", ")}.`
    : `Holding ${count} card${count > 1 ? "s" : ""} of column ${col}: no column takes it now.`);
}

function setFocus(col, move = true) {
  game.focus = col;
  for (const el of document.querySelectorAll(".column")) el.tabIndex = Number(el.dataset.col) === col ? 0 : -1;
  if (move) document.querySelector(`.column[data-col="${col}"]`)?.focus();
}

function onKey(event) {
  if ($("new-game").open || event.altKey || event.metaKey) return;
  const inColumn = columnOf(document.activeElement);
  const key = event.key;
  if (event.ctrlKey) {
    if (key === "z") { event.preventDefault(); undo(); }
    return;
  }
  if (key === "Escape") { cancel(); game.selected = null; render(); return; }
  const plain = { d: deal, u: undo, h: hint, w: stillWinnable, n: openNewGame, r: restart }[key.toLowerCase()];
  if (plain && !(event.target instanceof HTMLInputElement)) { event.preventDefault(); plain(); return; }
  if (!inColumn) return;
  const pos = game.pos;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    event.preventDefault();
    setFocus(((inColumn - 1 + (key === "ArrowLeft" ? -1 : 1) + 10) % 10) + 1);
  } else if (key === "Enter" || key === " ") {
    event.preventDefault();
    if (game.selected && game.selected.col !== inColumn) moveGroup(game.selected.col, game.selected.count, inColumn).then(() => setFocus(inColumn));
    else if (game.selected) { game.selected = null; render(); setFocus(inColumn); say("Put down."); }
    else if (pos.columns[inColumn - 1].movable) { select(inColumn, pos.columns[inColumn - 1].movable); setFocus(inColumn); }
    else say(`Column ${inColumn} has no card to pick up.`);
  } else if ((key === "ArrowUp" || key === "ArrowDown") && game.selected && game.selected.col === inColumn) {
    event.preventDefault();
    const up = pos.columns[inColumn - 1].up.length;
    const count = Math.min(up, Math.max(1, game.selected.count + (key === "ArrowUp" ? 1 : -1)));
    select(inColumn, count);
    setFocus(inColumn);
  } else if (key.toLowerCase() === "a") {
    event.preventDefault();
    autoPlace(inColumn, game.selected?.col === inColumn ? game.selected.count : null).then(() => setFocus(inColumn));
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
  window.addEventListener("resize", () => render());
  $("new").addEventListener("click", openNewGame);
  $("restart").addEventListener("click", restart);
  $("undo").addEventListener("click", undo);
  $("deal").addEventListener("click", deal);
  $("stock").addEventListener("click", deal);
  $("hint").addEventListener("click", hint);
  $("winnable").addEventListener("click", stillWinnable);
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
