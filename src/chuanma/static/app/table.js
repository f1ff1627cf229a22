// The table page: renders the seat view the server sends (never computing rules: the legal
// choices come from the prompt), the pickers, claim buttons, timer, 托管, hints and the ticker.

import { tileImg, tileName, splitTiles, tileOrder, installTileStyles, run } from "./tiles.js";
import { t, getLang, presetName, addStrings } from "./i18n.js";
import { narrate } from "./narrate.js";
import { presetValues } from "./presets.js";
import { play } from "./sound.js";
import { esc, fmt, seatName } from "./util.js";
import { levelBadge, loadLevels, profileLink } from "./levels.js";

const KEYS = "1234567890qwer";
const SUITS = ["m", "p", "s"];
const TICKER_MAX = 40;
/** A river's rows: the last runs on past six tiles. */
const RIVER_ROWS = 3;
/** The settlement panel's form of the next-hand control. */
export const NEXT_HAND = { label: "settle.next", attrs: 'data-settle="next" data-testid="next-hand" autofocus' };
/** Events the ticker leaves out: draws (the own one is in the hand), the deal, one's own claim
 * answers, choices the next event reveals (exchange_received, voids) and payments (the settlement
 * lists them). */
const UNTOLD = new Set(["deal", "draw", "claim", "exchange_chosen", "void_chosen", "payment"]);
/** How long a claim's call (碰, 杠, 胡) stays over the claimer's seat, in ms. */
const CALL_MS = 1600;
/** The compass's pointer toward each place, and the exchange direction's sign. */
const POINTERS = { across: "▲", right: "▶", self: "▼", left: "◀" };
const DIRECTION_SIGNS = { to_next: "↻", to_previous: "↺", opposite: "⇅" };

addStrings({
  zh: { "call.pong": "碰", "call.chow": "吃", "call.kong": "杠", "call.hu": "胡", "call.zimo": "自摸",
    "table.arrived": "换来的牌", "table.turn": "轮到 {who}", "table.hand_of": "{who} 的手牌",
    "table.auto_deciding": "机器人正替你决定" },
  en: { "call.pong": "Pong", "call.chow": "Chow", "call.kong": "Kong", "call.hu": "Win", "call.zimo": "Self-drawn",
    "table.arrived": "received in the exchange", "table.turn": "{who} to act", "table.hand_of": "{who}'s hand",
    "table.auto_deciding": "the bot is deciding for you" },
});

/** Where each seat sits on screen for a viewer at `me`: self (bottom), right (下家), across, left (上家). */
export function placeOf(seat, me) {
  return ["self", "right", "across", "left"][(seat - (me ?? 0) + 4) % 4];
}

/**
 * A seat's section with its regions empty: head, concealed tiles (the own hand, with the melds beside
 * it, and the action buttons), melds and the river (discards, toward the centre); then the box of the
 * call shown over it, the table's own child laid over the seat's place (so that the seat's box never
 * clips a call wider than a narrow side seat). The stylesheet lays each place out as at a table (an
 * opponent's tiles seen from their side).
 */
function seatFrame(s, place) {
  return `<section class="seat seat-${place}" data-seat="${s}" data-place="${place}">
    <div class="seat-head" data-region="head-${s}"></div>
    <div class="part" data-region="body-${s}"></div>
    ${place === "self" ? "" : `<div class="melds" data-region="melds-${s}"></div>`}
    <div class="discards" role="group" aria-label="${esc(t("table.discards"))}" data-region="discards-${s}"></div>
  </section>
  <div class="call-box call-${place}" aria-hidden="true" data-region="call-${s}"></div>`;
}

function tile(code, { cls = "", size = "", title, attrs = "" } = {}) {
  return `<span class="tile ${size} ${cls}"${attrs}>${tileImg(code, { lang: getLang(), title })}</span>`;
}

function tileRow(codes) {
  return codes.map((c) => tile(c)).join("");
}

/** A river: rows of six, the third running on past six as at a table (--at: its place in that row),
 * so that a long river never takes a fourth row; the latest discard marked. */
function riverRow(codes, latestIndex) {
  return codes.map((c, i) => {
    const over = i >= RIVER_ROWS * 6;
    return tile(c, { cls: `${i === latestIndex ? "latest" : ""}${over ? " over" : ""}`,
      attrs: over ? ` style="--at:${i - RIVER_ROWS * 6 + 7}"` : "" });
  }).join("");
}

function actionTile(action) {
  const key = Object.keys(action)[0];
  return typeof action[key] === "string" ? action[key] : null;
}

export class TablePage {
  constructor(root, { send, onLeave, onSettle, onFairness, onReport, canReport, presets }) {
    this.root = root;
    this.onReport = onReport;
    this.canReport = canReport;
    this.presets = presets;
    installTileStyles();
    this.send = send;
    this.onLeave = onLeave;
    this.onSettle = onSettle;
    this.onFairness = onFairness;
    this.reset();
    this.hintsOn = localStorage.getItem("chuanma.hints") !== "0";
    this.keyHandler = (ev) => this.onKey(ev);
    document.addEventListener("keydown", this.keyHandler);
    this.clock = setInterval(() => this.tickTimer(), 250);
    root.addEventListener("click", (ev) => this.onClick(ev));
  }

  reset() {
    this.table = null; this.seat = null; this.players = []; this.rules = null; this.room = null;
    this.hand = null; this.lastSeq = -1; this.view = null; this.hints = null; this.suggest = null;
    this.prompt = null; this.promptAt = 0; this.commitment = null; this.vrf = false; this.clientSeeds = null; this.dealt = false;
    this.auto = [false, false, false, false]; this.ticker = []; this.lastDiscard = null; this.selected = [];
    this.handEnd = null; this.readySent = false; this.direction = null; this.readyIn = null; this.readyAt = 0;
    this.startBase = null; this.awaitingStart = false; this.wantReady = null; this.arrived = []; this.calls = {};
  }

  destroy() {
    this.destroyed = true;
    cancelAnimationFrame(this.frame);
    document.removeEventListener("keydown", this.keyHandler);
    clearInterval(this.clock);
  }

  get spectating() { return this.seat === null; }
  get myAuto() { return this.seat !== null && this.auto[this.seat]; }

  // ------------------------------------------------------------------ messages

  handle(msg) {
    switch (msg.type) {
      case "seated": return this.onSeated(msg);
      case "hand_start": return this.onHandStart(msg);
      case "events": return this.onEvents(msg);
      case "view": return this.onView(msg);
      case "resync": return this.onResync(msg);
      case "prompt": return this.onPrompt(msg);
      case "auto": return this.onAutoMsg(msg);
      case "hand_end": return this.onHandEnd(msg);
      default: return undefined;
    }
  }

  onSeated(msg) {
    if (this.table !== msg.table) { this.reset(); }
    this.table = msg.table; this.seat = msg.seat; this.rules = msg.rules; this.room = msg.room;
    this.players = msg.players;
    this.players.forEach((p, i) => { if (p) this.auto[i] = p.auto; });
    loadLevels(this.players.filter(Boolean).map((p) => p.name)).then((fresh) => { if (fresh) this.render(); });
    if (this.seat !== null) this.send({ type: "views", on: true, hints: this.hintsOn });
    this.render();
  }

  onHandStart(msg) {
    if (msg.hand !== this.hand) {  // the last hand's final view stays on the table until the deal
      this.hand = msg.hand; this.lastSeq = -1; this.prompt = null; this.hints = null;
      this.lastDiscard = null; this.readySent = false; this.direction = null; this.arrived = []; this.calls = {};
      this.clientSeeds = null; this.dealt = false; this.startBase = null;
    }
    // what binds the deal before the seeds: the dealer's public key (VRF), or the server seed's hash
    this.vrf = Boolean(msg.public_key); this.commitment = msg.public_key || msg.commitment;
    this.awaitingStart = false;
    if (!msg.dealt && this.wantReady) { const seed = this.wantReady; this.wantReady = null; this.ready(seed); }
    if (msg.dealt) {  // the deal, or on a resume the hand being played (kept as it is)
      if (!this.dealt) { this.handEnd = null; this.view = null; this.ticker = []; }
      this.dealt = true; this.clientSeeds = msg.client_seeds;
    }
    else { this.readyIn = msg.ready_in; this.readyAt = performance.now(); this.readyExpired = false; }
    this.render();
  }

  onEvents(msg) {
    if (msg.hand !== this.hand) { this.hand = msg.hand; }
    for (const ev of msg.events) {
      this.lastSeq = Math.max(this.lastSeq, ev.seq);
      this.describe(ev);
    }
    this.renderTicker();
  }

  /** A resync after a reload: the whole view, and the hand's recent events (`recent`) to fill the
   * ticker and mark the latest discard again. */
  onResync(msg) {
    if (msg.recent?.length) {
      if (msg.hand !== this.hand) this.ticker = [];
      const known = new Set(this.ticker.map((e) => e.seq));
      for (const ev of msg.recent) if (!known.has(ev.seq)) this.describe(ev, { quiet: true });
    }
    this.onView(msg);
  }

  /** A whole view: a `view` message (with hints and suggestions) or a `resync`. */
  onView(msg) {
    this.hand = msg.hand;
    this.view = msg.view;
    this.dealt = true;
    this.lastSeq = Math.max(this.lastSeq, msg.last);
    this.direction = msg.view.direction || this.direction;
    if (msg.type === "view") {
      this.hints = msg.hints;
      this.suggest = msg.suggest;
      if (this.seat !== null && (!msg.view.to_act || this.myAuto)) this.prompt = null;
    }
    this.render();
  }

  /** A question to answer. The server asks no question of a seat on 托管 (its bot answers them):
   * one that comes while 托管 is on here is out of date, and is dropped. */
  onPrompt(msg) {
    if (this.myAuto) return;
    const fresh = !this.prompt || this.prompt.version !== msg.version;
    this.prompt = msg;
    this.promptAt = performance.now();
    if (fresh) {
      this.selected = [];
      const first = msg.legal[0] || {};
      if ("exchange" in first && this.suggest?.exchange) this.selectSuggestion();
      play("prompt");
    }
    this.render();
  }

  /** 托管 on or off at a seat. Turned on at one's own (by the button, or a question left to time
   * out), the question asked is withdrawn: the bot answers it and the ones after it, never asked here. */
  onAutoMsg(msg) {
    this.auto[msg.seat] = msg.on;
    if (msg.on && msg.seat === this.seat) { this.prompt = null; this.selected = []; }
    this.render();
  }

  onHandEnd(msg) {
    if (this.handEnd?.hand_id === msg.hand_id) return;  // told again on a resume: already shown
    this.handEnd = msg;
    this.awaitingStart = true;
    this.readySent = false;  // that ready was for the hand now ended: the panel must offer the next one
    this.readyIn = null;
    this.prompt = null;
    this.render();
    // the settlement panel opens a frame after the table's last drawing, so that the two heavy
    // drawings never share one frame
    requestAnimationFrame(() => requestAnimationFrame(() => this.onSettle(msg, this)));
  }

  /** An error from the server while at this table: ask for everything again so nothing stays stuck. */
  recover() {
    if (this.table !== null && this.seat !== null) {
      this.send({ type: "resume", table: this.table, hand: this.hand ?? 0, last: this.lastSeq });
    }
  }

  // ------------------------------------------------------------------ decisions

  act(action) {
    if (!this.prompt) return;
    const ok = this.send({ type: "act", table: this.table, version: this.prompt.version, action });
    if (ok) { this.prompt = null; this.selected = []; this.render(); }
  }

  legal(kind) {
    return (this.prompt?.legal || []).filter((a) => kind in a);
  }

  selectSuggestion() {
    const want = splitTiles(this.suggest.exchange);
    const hand = this.handTiles().tiles;
    const used = new Set();
    this.selected = [];
    for (const code of want) {
      const i = hand.findIndex((c, j) => c === code && !used.has(j));
      if (i >= 0) { used.add(i); this.selected.push(i); }
    }
  }

  /** The own concealed tiles, sorted, with the drawn tile apart (last). */
  handTiles() {
    const me = this.view?.players?.[this.seat];
    if (!me?.hand) return { tiles: [], drawn: null };
    const tiles = splitTiles(me.hand).sort((a, b) => tileOrder(a) - tileOrder(b));
    const drawn = this.view.drawn || null;
    if (drawn) {
      const i = tiles.lastIndexOf(drawn);
      if (i >= 0) { tiles.splice(i, 1); tiles.push(drawn); }
    }
    return { tiles, drawn };
  }

  clickTile(index) {
    const { tiles } = this.handTiles();
    const code = tiles[index];
    if (!code || !this.prompt) return;
    if (this.legal("exchange").length) {
      const at = this.selected.indexOf(index);
      if (at >= 0) this.selected.splice(at, 1);
      else if (this.selected.length < 3) this.selected.push(index);
      else { this.selected.shift(); this.selected.push(index); }
      this.render();
      return;
    }
    if (this.legal("discard").some((a) => a.discard === code)) this.act({ discard: code });
  }

  exchangeChoice() {
    const { tiles } = this.handTiles();
    if (this.selected.length !== 3) return null;
    const chosen = this.selected.map((i) => tiles[i]).sort((a, b) => tileOrder(a) - tileOrder(b));
    return this.legal("exchange").find((a) => {
      const offer = splitTiles(a.exchange).sort((x, y) => tileOrder(x) - tileOrder(y));
      return offer.join() === chosen.join();
    }) || null;
  }

  onClick(ev) {
    const el = ev.target.closest("[data-act]");
    if (!el || el.disabled) return;
    const kind = el.dataset.act;
    if (kind === "tile") this.clickTile(Number(el.dataset.index));
    else if (kind === "action") this.act(JSON.parse(el.dataset.action));
    else if (kind === "exchange") { const c = this.exchangeChoice(); if (c) this.act(c); }
    else if (kind === "auto") this.send({ type: "auto", on: !this.myAuto });
    else if (kind === "ready") this.ready();
    else if (kind === "fair") this.onFairness(this);
    else if (kind === "leave") this.leave();
    else if (kind === "hints") this.toggleHints();
    else if (kind === "report") this.onReport(this.players[Number(el.dataset.seat)].name, this.hand === null ? null : `${this.table}-${this.hand}`);
  }

  onKey(ev) {
    if (ev.target.closest?.("input, textarea, select") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (document.querySelector(".modal-back") || !this.prompt) return;
    const key = ev.key.toLowerCase();
    const first = (kind) => this.legal(kind)[0];
    if (this.legal("void").length) {
      if (SUITS.includes(key)) this.act({ void: key });
      return;
    }
    const direct = { " ": first("pass"), h: first("hu"), p: first("pong"),
      c: this.legal("chow").length === 1 ? first("chow") : undefined,
      k: this.legal("kong").length === 1 ? first("kong") : undefined, enter: this.exchangeChoice() };
    if (direct[key]) { ev.preventDefault(); this.act(direct[key]); return; }
    const index = KEYS.indexOf(key);
    if (index >= 0) { ev.preventDefault(); this.clickTile(index); }
  }

  /** Ready for the next hand with a client seed; before its commitment has come, as soon as it does. */
  ready(seed) {
    const value = seed ?? this.seedValue();
    if (this.awaitingStart) { this.wantReady = value; return; }
    const message = { type: "ready" };
    if (value) message.client_seed = value;
    if (this.send(message)) { this.readySent = true; this.render(); }
  }

  seedValue() {
    let seed = sessionStorage.getItem("chuanma.seed");
    if (!seed) {
      seed = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
      sessionStorage.setItem("chuanma.seed", seed);
    }
    return seed;
  }

  /** Leave the table (asking first during a hand); false if the player chose to stay. */
  leave() {
    const playing = this.view && !this.view.finished && !this.handEnd && this.dealt;
    if (this.seat !== null && playing && !confirm(t("table.leave_confirm"))) return false;
    if (this.seat !== null) this.send({ type: "leave" });
    this.onLeave();
    return true;
  }

  toggleHints() {
    this.hintsOn = !this.hintsOn;
    localStorage.setItem("chuanma.hints", this.hintsOn ? "1" : "0");
    if (this.seat !== null) this.send({ type: "views", on: true, hints: this.hintsOn });
    if (!this.hintsOn) this.hints = null;
    this.render();
  }

  // ------------------------------------------------------------------ events → ticker and sounds

  name(seat) { return seatName(this.players, seat, this.seat); }

  /** An event's sounds and marks (the latest discard, the exchange's direction, the base); the
   * events the ticker tells are kept for it (it words them in the language shown). */
  describe(ev, { quiet = false } = {}) {
    const sound = (name) => { if (!quiet) play(name); };
    const announce = (seat, kind, code) => { if (!quiet) this.call(seat, kind, code); };  // not for events told again
    switch (ev.type) {
      case "start": this.startBase = ev.base; break;
      case "exchange": this.direction = ev.direction; break;
      case "exchange_received": if (ev.seat === this.seat && ev.tiles) this.arrived = splitTiles(ev.tiles); break;
      case "draw": if (ev.seat === this.seat && ev.tile) sound("draw"); break;
      case "discard":
        this.lastDiscard = { seat: ev.seat, seq: ev.seq };
        if (ev.seat === this.seat) this.arrived = [];
        sound("discard");
        break;
      case "pong": case "chow": this.lastDiscard = null; announce(ev.seat, ev.type, ev.tile); sound("pong"); break;
      case "kong": if (ev.kind === "exposed") this.lastDiscard = null; announce(ev.seat, "kong", ev.tile); sound("kong"); break;
      case "hu": announce(ev.seat, ev.self_drawn ? "zimo" : "hu", ev.tile); sound("win"); break;
      default: break;
    }
    if (!UNTOLD.has(ev.type)) {
      this.ticker.push({ seq: ev.seq, ev });
      if (this.ticker.length > TICKER_MAX) this.ticker.shift();
    }
  }

  /** Show a claim's call over the claimer's seat for CALL_MS (a new call there replaces it). */
  call(seat, kind, code) {
    const shown = { kind, code, at: performance.now() };
    this.calls[seat] = shown;
    setTimeout(() => {
      if (this.calls[seat] !== shown || this.destroyed) return;
      delete this.calls[seat];
      this.render();
    }, CALL_MS);
  }

  /** A ticker entry's sentence, told to this seat: its own events in the second person ("You discard"). */
  say(entry) {
    return narrate(entry.ev, (s) => this.name(s), this.seat);
  }

  // ------------------------------------------------------------------ rendering

  /** Draw at the next animation frame (several messages in a row make one drawing). */
  render() {
    if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
  }

  /** Draw now: a region's HTML is replaced only when it changed (a seat is four regions). */
  draw() {
    if (!this.table) {
      this.root.innerHTML = `<p class="page">${esc(t("common.loading"))}</p>`;
      this.regions = null; this.nodes = null;
      return;
    }
    const me = this.seat ?? 0;
    if (!this.regions || this.regions.me !== me || this.regions.lang !== getLang()) {
      this.root.innerHTML = `<div class="table" id="table">
          <h1 class="sr-only">${esc(t("table.info"))}</h1>
          <section class="table-info" aria-label="${esc(t("table.info"))}" data-region="info"></section>
          ${[0, 1, 2, 3].map((s) => seatFrame(s, placeOf(s, me))).join("")}
          <section class="centre" aria-live="polite" data-region="centre"></section>
          <section class="ticker-box" aria-label="${esc(t("table.ticker"))}">
            <div data-region="hints"></div>
            <h2 class="sr-only">${esc(t("table.ticker"))}</h2><ul class="ticker" id="ticker" tabindex="0"></ul></section>
        </div>`;
      this.regions = { me, lang: getLang() };
      this.nodes = Object.fromEntries([...this.root.querySelectorAll("[data-region], [data-seat]")]
        .map((el) => [el.dataset.region || `seat-${el.dataset.seat}`, el]));
      this.nodes.ticker = this.root.querySelector("#ticker");
    }
    this.update("info", this.renderInfo());
    for (let s = 0; s < 4; s++) {
      const seat = this.renderSeat(s, placeOf(s, me));
      const el = this.nodes[`seat-${s}`];
      const cls = `seat seat-${placeOf(s, me)}${seat.acting ? " acting" : ""}`;
      if (el.className !== cls) el.className = cls;
      if (el.getAttribute("aria-label") !== this.name(s)) el.setAttribute("aria-label", this.name(s));
      for (const part of ["head", "body", "melds", "discards", "call"]) {
        if (this.nodes[`${part}-${s}`]) this.update(`${part}-${s}`, seat[part]);
      }
    }
    this.update("centre", this.renderCentre());
    this.update("hints", this.hintsOn && this.hints && !this.spectating ? this.renderHints() : "");
    this.renderTicker();
    this.tickTimer();
  }

  update(region, html) {
    if (this.regions[region] === html) return;
    this.regions[region] = html;
    this.nodes[region].innerHTML = html;
  }

  renderInfo() {
    const preset = typeof this.rules === "string" ? this.rules : this.rules?.preset;
    // the finished hand stays in the header, with its board, until the next is dealt
    const hand = this.handEnd && !this.dealt ? this.handEnd.hand : this.hand;
    return `
      <div class="seat-head"><strong data-testid="preset">${esc(presetName(preset))}</strong>
        ${hand !== null ? `<span data-testid="hand-number">${esc(t("table.hand", { n: hand + 1 }))}</span>` : ""}</div>
      <div class="row info-buttons">
        ${this.spectating ? `<span class="badge">${esc(t("table.spectating"))}</span>` :
          `<button class="btn btn-small" data-act="auto" aria-pressed="${this.myAuto}">${esc(t("table.auto"))}</button>
           <button class="btn btn-small" data-act="hints" aria-pressed="${this.hintsOn}">${esc(t(this.hintsOn ? "hints.on" : "hints.off"))}</button>`}
        <button class="btn btn-small" data-act="fair">${esc(t("fair.title"))}</button>
        <button class="btn btn-small" data-act="leave">${esc(t("table.leave"))}</button>
      </div>`;
  }

  renderSeat(s, place) {
    const v = this.view;
    const p = v?.players?.[s];
    const player = this.players[s];
    const acting = this.isActing(s);
    const badges = [];
    if (v && v.dealer === s) badges.push(`<span class="badge badge-dealer">${esc(t("table.dealer"))}</span>`);
    if (player?.bot) badges.push(`<span class="badge badge-bot">${esc(t("seat.bot"))}</span>`);
    if (this.auto[s]) badges.push(`<span class="badge badge-auto">${esc(t("table.auto"))}</span>`);
    if (p?.void) badges.push(`<span class="badge badge-void" data-testid="void-${s}">${esc(t("table.void_badge", { suit: t("suit." + p.void) }))}</span>`);
    if (p?.won) badges.push(`<span class="badge badge-won">${esc(t("table.won"))}${p.win_pile.length > 2 ? " ×" + splitTiles(p.win_pile).length : ""}</span>`);
    if (p?.locked) badges.push(`<span class="badge">${esc(t("table.locked"))}</span>`);
    if (p?.left) badges.push(`<span class="badge">${esc(t("table.left"))}</span>`);
    if (acting) badges.push(`<span class="badge badge-act">${esc(t("table.to_act"))}</span>`);
    if (p && !p.hand && place !== "self") badges.push(`<span class="badge badge-count">${esc(t("table.tiles", { n: p.tiles }))}</span>`);
    const total = v?.totals?.[s];
    const base = this.base();
    const chips = total !== undefined ? `<span class="chips">${total > 0 ? "+" : ""}${fmt(total * base)}</span>` : "";
    const river = p ? splitTiles(p.discards) : [];
    const latest = this.lastDiscard && this.lastDiscard.seat === s ? river.length - 1 : -1;
    const melds = (p?.melds || []).map((m) => this.renderMeld(m, s)).join("");
    const pile = p ? splitTiles(p.win_pile) : [];
    const laid = `${melds}${pile.length ? `<span class="winpile" title="${esc(t("table.won"))}">${tileRow(pile)}</span>` : ""}`;
    const call = this.calls[s];
    return { acting,
      head: `${player ? profileLink(player.name, esc(this.name(s))) : `<span class="name">${esc(this.name(s))}</span>`}${levelBadge(player?.name)}${chips}${badges.join("")}${this.reportButton(s, player)}`,
      body: place === "self" ? this.renderOwn(laid, { melds: p?.melds?.length || 0,
        tiles: (p?.melds || []).reduce((n, m) => n + (m.kind === "kong" ? 4 : 3), 0) + pile.length }) : this.renderConcealed(p),
      melds: laid,
      discards: riverRow(river, latest),
      call: call ? `<div class="callout callout-${call.kind}">${esc(t("call." + call.kind))}${call.code ? tile(call.code, { title: "" }) : ""}</div>` : "" };
  }

  /** The report (举报) control of another person's seat, for a registered player (``canReport``). */
  reportButton(s, player) {
    if (!player || player.bot || s === this.seat || !this.canReport?.()) return "";
    return `<button type="button" class="btn-report" data-act="report" data-seat="${s}" data-testid="report-${s}"
      title="${esc(t("report.title", { name: player.name }))}" aria-label="${esc(t("report.title", { name: player.name }))}">⚑</button>`;
  }

  renderMeld(m, owner) {
    const n = m.kind === "kong" ? 4 : 3;
    if (m.tile === null) return `<span class="meld">${tile(null).repeat(4)}</span>`;
    if (m.kind === "chow") return `<span class="meld">${run(m.tile).map((c) => tile(c)).join("")}</span>`;
    if (m.kind === "kong" && m.kong === "concealed" && !this.view.finished) {
      return `<span class="meld">${tile(null)}${tile(m.tile)}${tile(m.tile)}${tile(null)}</span>`;
    }
    return `<span class="meld">${tile(m.tile).repeat(n)}</span>`;
  }

  /** An opponent's concealed tiles: backs, or the hand face up once it is shown (a win reveals it). */
  renderConcealed(p) {
    if (!p) return "";
    if (p.hand) {
      return `<div class="concealed revealed" role="group" aria-label="${esc(t("table.concealed", { n: splitTiles(p.hand).length }))}">
        ${tileRow(splitTiles(p.hand).sort((a, b) => tileOrder(a) - tileOrder(b)))}</div>`;
    }
    return `<div class="concealed backs" role="group" aria-label="${esc(t("table.concealed", { n: p.tiles }))}">${tile(null, { title: "" }).repeat(p.tiles)}</div>`;
  }

  /** The own seat's hand (tile buttons, the tiles the exchange brought marked) with the melds beside it;
   * `shown` counts the melds and their tiles (the win pile's too), which the stylesheet makes room for. */
  renderOwn(laid, shown) {
    const melds = laid ? `<div class="melds">${laid}</div>` : "";
    const { tiles, drawn } = this.handTiles();
    const room = `style="--hand-n:${Math.max(tiles.length, 1)};--meld-n:${shown.tiles};--melds:${shown.melds}"`;
    if (this.spectating) return `<div class="hand-row" ${room}>${this.renderConcealed(this.view?.players?.[this.seat ?? 0])}${melds}</div>`;
    const arrived = [...this.arrived];
    const discardable = new Set(this.legal("discard").map((a) => a.discard));
    const exchanging = this.legal("exchange").length > 0;
    const best = new Set((this.hintsOn && this.hints?.discards || []).map((d) => d.tile));
    const buttons = tiles.map((code, i) => {
      const usable = exchanging || discardable.has(code);
      const got = arrived.indexOf(code);
      if (got >= 0) arrived.splice(got, 1);
      const cls = [drawn && i === tiles.length - 1 ? "drawn" : "", this.selected.includes(i) ? "selected" : "",
        this.prompt && !usable ? "dim" : "", discardable.has(code) && best.has(code) ? "best" : "",
        got >= 0 ? "arrived" : ""].join(" ");
      const label = `${tileName(code, getLang())}${got >= 0 ? `, ${t("table.arrived")}` : ""}${i < KEYS.length ? ` (${KEYS[i]})` : ""}`;
      return `<button type="button" class="tile ${cls}" data-act="tile" data-index="${i}" data-tile="${code}"
        aria-label="${esc(label)}" aria-pressed="${this.selected.includes(i)}" ${usable && this.prompt ? "" : "disabled"}>
        ${tileImg(code, { title: "" })}${i < KEYS.length ? `<span class="key" aria-hidden="true">${KEYS[i]}</span>` : ""}</button>`;
    }).join("");
    return `<div class="hand-row" ${room}><div class="hand-area" data-testid="hand" role="group"
        aria-label="${esc(t("table.hand_of", { who: this.name(this.seat) }))}">${buttons}</div>${melds}</div>
      <div class="actions" data-testid="actions">${this.renderActions()}</div>`;
  }

  renderActions() {
    if (this.myAuto) return this.renderAuto();
    const p = this.prompt;
    if (!p) return "";
    const out = [];
    if (this.legal("exchange").length) {
      out.push(`<span class="prompt-text">${esc(t("table.exchange"))}</span>`);
      out.push(`<button class="btn btn-primary" data-act="exchange" ${this.exchangeChoice() ? "" : "disabled"}>${esc(t("table.exchange_go"))}</button>`);
      return out.join("");
    }
    if (this.legal("void").length) {
      out.push(`<span class="prompt-text">${esc(t("table.void"))}</span>`);
      for (const a of this.legal("void")) {
        const suggested = this.suggest?.void === a.void;
        out.push(`<button class="btn ${suggested ? "btn-ok" : ""}" data-act="action" data-action='${JSON.stringify(a)}'
          data-testid="void-${a.void}">${esc(t("act.void", { suit: t("suit." + a.void) }))}${suggested ? ` <span class="badge">★ ${esc(t("table.void_suggest"))}</span>` : ""}</button>`);
      }
      return out.join("");
    }
    const claim = this.view?.claim;
    if (claim && this.legal("pass").length) {
      out.push(`<span class="prompt-text">${esc(t("table.claim", { who: this.name(claim.from), tile: tileName(claim.tile, getLang()) }))}</span>`);
    } else if (this.legal("discard").length) {
      out.push(`<span class="prompt-text">${esc(t("table.your_turn"))}</span>`);
    }
    const label = { hu: claim ? "act.hu" : "act.zimo", kong: "act.kong", pong: "act.pong" };
    const cls = { hu: "btn-hu", kong: "btn-kong", pong: "btn-pong" };
    const keyOf = { hu: "H", kong: "K", pong: "P" };
    for (const kind of ["hu", "kong", "pong"]) {
      for (const a of this.legal(kind)) {
        const code = actionTile(a) || claim?.tile || this.view?.drawn;
        out.push(`<button class="btn ${cls[kind]}" data-act="action" data-action='${JSON.stringify(a)}' data-testid="act-${kind}"
          aria-keyshortcuts="${keyOf[kind]}">${esc(t(label[kind], { tile: code ? tileName(code, getLang()) : "" }))}
          ${code ? tileImg(code, { title: "" }) : ""}</button>`);
      }
    }
    for (const a of this.legal("chow")) {
      const tiles = run(a.chow);
      out.push(`<button class="btn btn-pong" data-act="action" data-action='${JSON.stringify(a)}' data-testid="act-chow"
        ${this.legal("chow").length === 1 ? 'aria-keyshortcuts="C"' : ""}>${esc(t("act.chow", { tiles: tiles.map((c) => tileName(c, getLang())).join(" ") }))}
        ${tiles.map((c) => tileImg(c, { title: "" })).join("")}</button>`);
    }
    for (const a of this.legal("pass")) {
      out.push(`<button class="btn" data-act="action" data-action='${JSON.stringify(a)}' data-testid="act-pass" aria-keyshortcuts="Space">${esc(t("act.pass"))}</button>`);
    }
    return out.join("");
  }

  /** 托管 on, in the place of the question: that the bot plays, whose turn it is, and the way back. */
  renderAuto() {
    const acting = [0, 1, 2, 3].filter((s) => this.isActing(s));
    const turn = acting.includes(this.seat) ? t("table.auto_deciding")
      : acting.length && !this.view?.finished ? t("table.turn", { who: acting.map((s) => this.name(s)).join(", ") }) : "";
    return `<div class="auto-status" role="status" data-testid="auto-status"><span class="prompt-text">${esc(t("table.auto_on"))}</span>
      ${turn ? `<span class="auto-turn">${esc(turn)}</span>` : ""}</div>
      <button class="btn btn-small btn-auto-off" data-act="auto">${esc(t("table.auto_off"))}</button>`;
  }

  /** The centre piece: the wall count, a pointer at each seat (lit toward the one to act) and the timer. */
  renderCompass() {
    const v = this.view;
    const me = this.seat ?? 0;
    const acting = new Set([0, 1, 2, 3].filter((s) => this.isActing(s)).map((s) => placeOf(s, me)));
    const turn = [0, 1, 2, 3].filter((s) => this.isActing(s)).map((s) => this.name(s)).join(", ");
    const pointers = Object.entries(POINTERS).map(([place, sign]) =>
      `<span class="pointer pointer-${place}${acting.has(place) ? " on" : ""}" aria-hidden="true">${sign}</span>`).join("");
    return `<div class="compass" data-testid="compass" data-turn="${[...acting].join(" ")}">${pointers}
      <div class="compass-core">
        <div class="wall-count" data-testid="wall">${v ? esc(t("table.wall", { n: v.wall })) : "&nbsp;"}</div>
        ${turn ? `<div class="sr-only">${esc(t("table.turn", { who: turn }))}</div>` : ""}
        ${this.prompt || (v && !v.finished && this.dealt) ? `<div class="timer-wrap" ${this.prompt ? "" : "hidden"}>
          <span class="timer" id="timer" role="timer"></span><div class="timer-bar"><div id="timer-bar"></div></div></div>` : ""}
      </div></div>`;
  }

  /** Whether the seat is to act now (the own seat: it has a prompt to answer). */
  isActing(s) {
    const v = this.view;
    if (!v) return false;
    if (this.seat === s) return Boolean(v.to_act);
    return Array.isArray(v.to_act) ? v.to_act.includes(s) : v.current === s && v.phase === "turn";
  }

  renderCentre() {
    const v = this.view;
    const parts = [this.renderCompass()];
    const seated = this.players.filter(Boolean).length;
    if (seated < 4 && !this.dealt) {  // a private table with an empty seat: nothing happens until it is taken
      parts.push(`<p role="status" data-testid="seated">${esc(t("table.seated", { n: seated }))}</p>`);
    }
    if (this.direction) {
      parts.push(`<div class="exchange-dir" data-testid="exchange-dir"><span aria-hidden="true">${DIRECTION_SIGNS[this.direction] || ""}</span>
        ${esc(t("table.exchange_dir", { dir: t("dir." + this.direction) }))}</div>`);
    }
    if (this.betweenHands) {
      if (!this.awaitingStart && this.commitment) {
        parts.push(`<p>${esc(t("table.before_deal"))}</p>
          <p class="mono" title="${esc(t(this.vrf ? "fair.public_key" : "fair.commitment"))}">${esc(this.commitment.slice(0, 16))}…</p>`);
      }
      if (!this.spectating) {
        parts.push(`<div class="ready-control">${this.readyControl()}
          <button class="btn btn-small" data-act="fair">${esc(t("fair.client_seed"))}</button></div>`);
      }
    } else if (v && !this.prompt && !v.finished && !this.spectating) {
      parts.push(`<p class="muted-light">${esc(t("table.waiting"))}</p>`);
    }
    return parts.join("");
  }

  /** Between hands (the settlement shown or closed, the next hand not dealt): the next-hand control
   * must stay on screen, whatever was closed. */
  get betweenHands() {
    return !this.closedReason && (this.awaitingStart || (!this.dealt && Boolean(this.commitment)));
  }

  /** Seconds left to get ready for the next hand (null: not known yet, or nothing to get ready for). */
  readyLeft() {
    if (this.readyIn == null || this.awaitingStart || this.dealt) return null;
    return Math.max(0, this.readyIn - (performance.now() - this.readyAt) / 1000);
  }

  /** The next-hand control: the ready button with the time left, "ready, waiting", or "too late".
   * The settlement panel shows the same control (its button says "next hand"). */
  readyControl({ label = "fair.ready", attrs = 'data-act="ready" data-testid="ready"' } = {}) {
    const left = this.readyLeft();
    if (this.readySent || this.wantReady) {
      return `<span class="muted-light" data-testid="ready-sent">${esc(t("table.ready_sent"))}</span>`;
    }
    if (left !== null && left <= 0) {
      return `<span class="error-text" role="status" data-testid="ready-expired">${esc(t("table.ready_expired"))}</span>`;
    }
    return `<button class="btn btn-primary" ${attrs}>${esc(t(label))}</button>
      <span class="timer" data-ready-timer role="timer">${left === null ? "" : esc(t("table.ready_in", { s: Math.ceil(left) }))}</span>`;
  }

  renderHints() {
    const h = this.hints;
    const useful = (list) => list.map(([code, left]) =>
      `<span class="tiles-xs row" style="gap:1px">${tile(code)}<small>${esc(t("hint.left", { n: left }))}</small></span>`).join(" ");
    const head = h.shanten <= 0 ? t("hint.ready") : t("hint.shanten", { n: h.shanten });
    let body = "";
    if (h.discards) {
      body = h.discards.map((d) => `<div class="row">${esc(t("hint.best"))}: <span class="tiles-xs">${tile(d.tile)}</span>
        → ${d.shanten === 0 ? esc(t("hint.waits_label")) : esc(t("hint.useful_label"))} ${useful(d.useful)}</div>`).join("");
    } else if (h.useful) {
      body = `<div class="row">${esc(h.shanten === 0 ? t("hint.waits_label") : t("hint.useful_label"))} ${useful(h.useful)}</div>`;
    }
    return `<div class="hints" data-testid="hints" aria-label="${esc(t("hint.title"))}"><strong>${esc(t("hint.title"))}: ${esc(head)}</strong>${body}</div>`;
  }

  /** The ticker, newest first: the entries not drawn yet are put on top (the list is drawn anew only
   * when it is a new list or its top entry has gone). */
  renderTicker() {
    const list = this.nodes?.ticker;
    if (!list) return;
    const at = this.tickerTop ? this.ticker.indexOf(this.tickerTop) : -1;
    const item = (e) => `<li>${esc(this.say(e))}</li>`;
    if (list !== this.tickerList || (this.tickerTop && at < 0)) {
      list.innerHTML = this.ticker.slice().reverse().map(item).join("");
    } else if (at < this.ticker.length - 1) {
      list.insertAdjacentHTML("afterbegin", this.ticker.slice(at + 1).reverse().map(item).join(""));
      while (list.children.length > TICKER_MAX) list.lastElementChild.remove();
    }
    this.tickerList = list;
    this.tickerTop = this.ticker[this.ticker.length - 1] || null;
  }

  tickTimer() {
    this.tickReady();
    const el = this.root.querySelector("#timer");
    if (!el) return;
    const wrap = el.closest(".timer-wrap");
    if (wrap.hidden !== !this.prompt) wrap.hidden = !this.prompt;
    if (!this.prompt) return;
    const left = Math.max(0, this.prompt.seconds - (performance.now() - this.promptAt) / 1000);
    const text = t("table.timer", { s: Math.ceil(left) });
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle("low", left <= 5);
    // the bar shrinks by a transform: its transition runs without laying the page out again
    this.root.querySelector("#timer-bar").style.transform = `scaleX(${Math.min(1, left / Math.max(1, this.prompt.seconds))})`;
  }

  /** The ready window's countdown, on the table and on the settlement panel; at its end the
   * controls say that it has passed (redrawn once). */
  tickReady() {
    const left = this.readyLeft();
    if (left === null) return;
    if (left <= 0 && !this.readySent && !this.readyExpired) {
      this.readyExpired = true;
      this.render();
      for (const box of document.querySelectorAll("[data-ready-box]")) box.innerHTML = this.readyControl(NEXT_HAND);
      return;
    }
    const text = t("table.ready_in", { s: Math.ceil(left) });
    for (const el of document.querySelectorAll("[data-ready-timer]")) if (el.textContent !== text) el.textContent = text;
  }

  /** The hand's base (chips per unit): from its start event, else the rules and their preset. */
  base() {
    if (this.startBase) return this.startBase;
    const rules = this.rules;
    if (rules && typeof rules === "object" && rules.options?.base) return rules.options.base;
    const preset = typeof rules === "string" ? rules : rules?.preset;
    return presetValues(this.presets, preset).base || 1;
  }
}
