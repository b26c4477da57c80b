// api.js: a small client of the spider-solver HTTP API (/v1), for browsers and any
// JavaScript runtime with fetch and AbortController. No dependency: copy this file into a
// frontend. docs/frontend.md walks through it; the API itself is docs/service.md and the
// server's /openapi.json.
//
//   import { SpiderApi, ApiError, ruleOf } from "./api.js";
//   const api = new SpiderApi("http://127.0.0.1:8000/");
//   const game = await api.randomDeal({ suits: 1 });          // "New game": {code, catalog, position}
//   let pos = game.position;                                  // the first position, nothing hidden named
//   pos = await api.position({ code: game.code, actions: [...pos.played, "D"] });
//   const hint = await api.fairHint({ code: game.code, actions: pos.played }, { signal });  // no spoiler
//   const line = await api.analyze({ code: game.code, actions: pos.played }, { signal });   // a winning line
//   const review = await api.review({ code: game.code, actions: pos.played }, { signal });  // the costliest decisions
//   const { receipt } = await api.submitGame({ code: game.code, actions: pos.played, name: "Ada" });
//
// A frontend that plays with the rules module (spider-solver-rules, served at web/rules/)
// needs no position request, as the reference client (game.js) shows: it asks for deals
// and hints only.
//
// Every method returns the answer's JSON, and throws an ApiError for an error answer
// ({"error": {"type", "message", ...}}), or the fetch's own error (a DOMException named
// "AbortError" when the request was cancelled through its signal).

/** An error answer of the API: its HTTP status, type (e.g. "refused-action") and message. */
export class ApiError extends Error {
  constructor(status, detail, retryAfter = null) {
    super(detail.message || `HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.type = detail.type || "http-error";
    this.detail = detail; // refused-action also has index and action
    this.retryAfter = retryAfter; // seconds, from Retry-After (503 busy, 429 too-many-games)
  }
}

/** The rule in words of a refused-action error ("cannot play '2>1': ..."), without the
 *  "action N (index i: 'x') refused: " that names the action in the log. */
export function ruleOf(error) {
  const message = error instanceof Error ? error.message : String(error);
  const marker = ") refused: ";
  const at = message.indexOf(marker);
  return at >= 0 && message.startsWith("action ") ? message.slice(at + marker.length) : message;
}

/** Where a game was lost, from an /v1/analyze answer (asked with ``lostAt: true``):
 *  ``{lostAt, action, line}`` when the server pinned the action (``lostAt``: its 0-based
 *  index in the log; ``log.slice(0, lostAt)`` followed by ``line`` wins), and, from the
 *  answer's ``bracket`` when it could only narrow it down, ``winnableAfter`` (how many
 *  actions of the log still left a winnable game: 0 is the start), ``bracketLine`` (a line
 *  that wins from there) and ``lostBy`` (the 1-based action by which it was lost for
 *  certain). null when the answer says neither. */
export function lostBracket(analysis) {
  if (!analysis) return null;
  const bracket = analysis.bracket || null;
  const found = { lostAt: analysis.lost_at ?? null, action: analysis.lost_at_action ?? null,
                  line: analysis.lost_at_line || [], winnableAfter: null, bracketLine: [], lostBy: null };
  if (bracket) {
    if (bracket.winnable !== null && bracket.winnable !== undefined) {
      found.winnableAfter = bracket.winnable_after === null ? 0 : bracket.winnable_after + 1;
      found.bracketLine = bracket.line || [];
    }
    found.lostBy = bracket.unwinnable_after === null ? 0 : bracket.unwinnable_after + 1;
  }
  return found.lostAt === null && found.winnableAfter === null && found.lostBy === null ? null : found;
}

/** The API of one server. ``base`` is the server's root URL; by default the page's own
 *  folder (the web client is served by the same server). */
export class SpiderApi {
  constructor(base = new URL(".", globalThis.location?.href ?? "http://127.0.0.1:8000/").href,
              { retries = 3 } = {}) {
    this.base = base.endsWith("/") ? base : base + "/";
    this.retries = retries; // times a 503 busy is retried after its Retry-After
  }

  /** One request: ``body`` is sent as JSON (the server refuses text/plain, fetch's
   *  default for a string body). ``signal`` (an AbortSignal) cancels it, its waits for a
   *  busy server included. */
  async request(method, path, body = undefined, { signal } = {}) {
    const init = { method, signal, headers: { Accept: "application/json" } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(new URL(path.replace(/^\//, ""), this.base), init);
      const data = await response.json().catch(() => ({ error: { message: `HTTP ${response.status}` } }));
      if (response.ok) return data;
      const retryAfter = Number(response.headers.get("Retry-After")) || null;
      const error = new ApiError(response.status, data.error || {}, retryAfter);
      if (error.type !== "busy" || attempt >= this.retries) throw error;
      await sleep((retryAfter || 1) * 1000, signal);
    }
  }

  /** GET /v1/health: {status, version, read_only, catalog, searches}. */
  health(options) { return this.request("GET", "/v1/health", undefined, options); }

  /** GET /v1/catalog/random: a new game, one verified deal matching the filters:
   *  ``{code, catalog, position}``, the catalog's record (difficulty, par, ...; no solution)
   *  and the first position, face-down cards counted, never named. ApiError 404 if none
   *  matches. ``difficulty``: 1 to 5 or a range such as "1-2". */
  randomDeal({ suits, rule, difficulty } = {}, options) {
    return this.request("GET", "/v1/catalog/random" + queryOf({ suits, rule, difficulty }), undefined, options);
  }

  /** GET /v1/catalog/daily: the day's deal, as randomDeal, with its ``date``: the same for
   *  every player of this catalog. ``date``: YYYY-MM-DD, by default the player's own today. */
  dailyDeal({ date = localDate(), suits, rule, difficulty } = {}, options) {
    return this.request("GET", "/v1/catalog/daily" + queryOf({ date, suits, rule, difficulty }), undefined, options);
  }

  /** GET /v1/catalog/deals/{code}: a typed code's game, as randomDeal; its ``catalog`` is
   *  null when the catalog does not hold the deal. */
  catalogDeal(code, options) {
    return this.request("GET", `/v1/catalog/deals/${encodeURIComponent(code)}`, undefined, options);
  }

  /** GET /v1/deals/{code}: reveals every hidden card and the solution (the deck, the
   *  layout, the catalog's whole record): for tools, never for a game's page. */
  deal(code, options) { return this.request("GET", `/v1/deals/${encodeURIComponent(code)}`, undefined, options); }

  /** POST /v1/position: the position the log reaches, to draw and play on: columns
   *  ({down, up, movable, groups: [{count, targets, best}], best}), legal, played,
   *  score, moves, deal_refused, undo_refused; with ``check``, ``refused`` is the rule
   *  that refuses that action. A refused action of the log is an ApiError
   *  "refused-action" (ruleOf gives its rule). */
  position({ code, actions = [], undoLimit = 100, dealOnEmpty = false, check } = {}, options) {
    const body = { code, actions, undo_limit: undoLimit, deal_on_empty: dealOnEmpty };
    if (check !== undefined && check !== null) body.check = check;
    return this.request("POST", "/v1/position", body, options);
  }

  /** POST /v1/replay: won, moves, score, runs_removed, stock_left of the log. */
  replay({ code, actions = [], undoLimit = 100, dealOnEmpty = false } = {}, options) {
    return this.request("POST", "/v1/replay", { code, actions, undo_limit: undoLimit, deal_on_empty: dealOnEmpty },
                        options);
  }

  /** POST /v1/games: a finished game, replayed and recorded by the server: ``{game, receipt}``,
   *  ``game`` its outcome (won, stuck, stopped), score, moves, runs, undos and the deal's par,
   *  ``receipt`` the server's signature of it. ``name`` and ``challenge`` are the frontend's
   *  own choice (the server keeps no other identity). ApiError 429 "too-many-games" past the
   *  server's rate limit (its ``retryAfter``: the seconds to wait). */
  submitGame({ code, actions = [], undoLimit = 100, dealOnEmpty = false, name, challenge } = {}, options) {
    const body = { code, actions, undo_limit: undoLimit, deal_on_empty: dealOnEmpty };
    if (name !== undefined && name !== null) body.name = name;
    if (challenge !== undefined && challenge !== null) body.challenge = challenge;
    return this.request("POST", "/v1/games", body, options);
  }

  /** POST /v1/games/verify: the game a receipt proves, ``{valid, game, stored, redeemed_at}``;
   *  ApiError "invalid-receipt" (forged, altered), "receipt-mismatch" (another ``code`` or
   *  ``challenge`` than given), "replayed-receipt" (``redeem`` a second time). */
  verifyReceipt({ receipt, code, challenge, redeem = false } = {}, options) {
    const body = { receipt, redeem };
    if (code !== undefined && code !== null) body.code = code;
    if (challenge !== undefined && challenge !== null) body.challenge = challenge;
    return this.request("POST", "/v1/games/verify", body, options);
  }

  /** GET /v1/deals/{code}/games: the deal's best finished games, ``{games, total}``. */
  dealGames(code, { challenge, limit } = {}, options) {
    return this.request("GET", `/v1/deals/${encodeURIComponent(code)}/games` + queryOf({ challenge, limit }),
                        undefined, options);
  }

  /** POST /v1/analyze: can the position still be won? status (verified, unwinnable,
   *  unknown), hint, line, and with ``lostAt`` where the game was lost (lostBracket).
   *  ``lostAt`` is false unless asked for (the API's ``lost_at`` defaults to true): a hint
   *  should not wait for the bisection of the history.
   *  May search: up to the server's caps, or ``maxSeconds``/``maxNodes``; pass a signal
   *  to let the player cancel it. */
  analyze({ code, actions = [], undoLimit = 100, dealOnEmpty = false, lostAt = false, maxSeconds, maxNodes } = {},
          options) {
    const body = { code, actions, undo_limit: undoLimit, deal_on_empty: dealOnEmpty, lost_at: lostAt };
    if (maxSeconds !== undefined) body.max_seconds = maxSeconds;
    if (maxNodes !== undefined) body.max_nodes = maxNodes;
    return this.request("POST", "/v1/analyze", body, options);
  }

  /** POST /v1/analyze with ``fair``: the fair hint, judged only on what the player has
   *  seen, which reveals nothing: ``hint`` (the action; null when the game is won or no
   *  action is left), ``chance`` (0 to 1), ``choices`` (``[{action, wins, layouts, chance}]``,
   *  the hint first) and ``summary``, a sentence for the player. ``layouts`` (the effort, up
   *  to the server's --max-layouts-cap) and ``seed`` are the server's defaults unless given.
   *  Queued as a search is: pass a signal to let the player cancel it. */
  fairHint({ code, actions = [], undoLimit = 100, dealOnEmpty = false, layouts, seed } = {}, options) {
    const body = { code, actions, undo_limit: undoLimit, deal_on_empty: dealOnEmpty, fair: true };
    if (layouts !== undefined) body.layouts = layouts;
    if (seed !== undefined) body.seed = seed;
    return this.request("POST", "/v1/analyze", body, options);
  }

  /** POST /v1/review: the review of a game, which reveals nothing: each decision
   *  (``decisions``: ``[{index, action, before, after, better, better_chance, cost, choices}]``,
   *  chances 0 to 1) judged only on what the player had seen, the costliest (``costliest``:
   *  ``[{index, action, better, ..., summary}]``, ``index`` the action's 0-based index in the
   *  log: ``log.slice(0, index)`` is the position before it) and ``summary``, sentences for
   *  the player. ``layouts``, ``confirmLayouts`` and ``seed`` are the server's defaults unless
   *  given. It takes a while (a minute or so for a four-suit game): pass a signal to let the
   *  player cancel waiting for it (the server finishes it all the same). */
  review({ code, actions = [], undoLimit = 100, dealOnEmpty = false, layouts, confirmLayouts, seed } = {}, options) {
    const body = { code, actions, undo_limit: undoLimit, deal_on_empty: dealOnEmpty };
    if (layouts !== undefined) body.layouts = layouts;
    if (confirmLayouts !== undefined) body.confirm_layouts = confirmLayouts;
    if (seed !== undefined) body.seed = seed;
    return this.request("POST", "/v1/review", body, options);
  }
}

/** The query string of the values given (none: ""). */
function queryOf(values) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== "") query.set(name, String(value));
  }
  const text = query.toString();
  return text ? "?" + text : "";
}

/** Today's date where the player is, YYYY-MM-DD: the day of the daily deal. */
export function localDate(now = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(signal.reason); return; }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
  });
}
