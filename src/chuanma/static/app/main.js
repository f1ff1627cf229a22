// The browser client's entry point: logs in, keeps one WebSocket, and switches between the lobby
// and the table. Routes: #/lobby, #/table, #/join/INVITE (an invite link), #/watch/TABLE (a private
// table: #/watch/TABLE/INVITE, only its players and the holders of its invite code may watch it).

import { api } from "./api.js";
import { Connection } from "./socket.js";
import { t, onLangChange, languageButton, addFanNames, addPresetNames, errorText, closedText } from "./i18n.js";
import { loginHTML, LobbyPage } from "./lobby.js";
import { TablePage } from "./table.js";
import { openModal, settlement, drawInParts, fairnessHTML, armVerifyLink } from "./settle.js";
import { showReport } from "./report.js";
import { onAnnouncement, renderNotices } from "./notices.js";
import { isMuted, setMuted } from "./sound.js";
import { esc, fmt } from "./util.js";

const app = { user: null, presets: null, watchInvite: null, conn: null, lobby: null, table: null, settle: null, rejoin: null,
  lost: false, recoverAt: 0, shown: 0, resuming: null, moving: 0 };
const main = document.getElementById("app");
const FATAL_CODES = new Set(["not_seated", "no_table", "wrong_table"]);
const MOVING_RETRY_MS = 1500;
const MOVING_TRIES = 20;  // a table in transit between two servers is back within seconds: 30 s at most

function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.classList.remove("hidden");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => el.classList.add("hidden"), 4000);
}

function showBanner(id, cls, text) {
  let el = document.getElementById(id);
  if (!text) { el?.remove(); return; }
  if (!el) {
    el = document.createElement("div");
    el.id = id;
    el.setAttribute("role", "alert");
    document.getElementById("banners").appendChild(el);
  }
  el.className = `banner ${cls}`;
  el.textContent = text;
}

function send(message) { return app.conn ? app.conn.send(message) : false; }

// ------------------------------------------------------------------ top bar

function topbar() {
  const bal = document.getElementById("topbar-balance");
  bal.textContent = app.user ? `${app.user.username} · ${fmt(app.user.balance)}` : "";
  const box = document.getElementById("topbar-buttons");
  box.replaceChildren();
  box.appendChild(languageButton());
  const sound = document.createElement("button");
  sound.type = "button";
  sound.className = "btn btn-ghost";
  sound.setAttribute("aria-pressed", String(!isMuted()));
  sound.textContent = t(isMuted() ? "sound.off" : "sound.on");
  sound.addEventListener("click", () => { setMuted(!isMuted()); topbar(); });
  box.appendChild(sound);
  if (app.user) {
    const out = document.createElement("button");
    out.type = "button";
    out.className = "btn btn-ghost";
    out.textContent = t("auth.logout");
    out.addEventListener("click", logout);
    box.appendChild(out);
  }
}

// ------------------------------------------------------------------ login

function showLogin(error = "") {
  app.conn?.close();
  app.conn = null;
  app.user = null;
  closePages();
  topbar();
  main.innerHTML = loginHTML(error);
  const form = document.getElementById("login-form");
  const submit = async (kind) => {
    const username = form.username.value.trim();
    const password = form.password.value;
    try {
      if (kind === "guest") await api("/api/guest", { method: "POST" });
      else await api(`/api/${kind}`, { method: "POST", body: { username, password } });
      await start();
    } catch (exc) {
      document.getElementById("login-error").textContent = errorText(exc.code, exc.message);
    }
  };
  form.addEventListener("submit", (ev) => { ev.preventDefault(); submit("login"); });
  form.addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-auth]");
    if (b && b.type === "button") submit(b.dataset.auth);
  });
  form.username.focus();
}

async function logout() {
  try { await api("/api/logout", { method: "POST" }); } catch { /* already out */ }
  showLogin();
}

// ------------------------------------------------------------------ pages

/** Close the page shown; every page shown counts (app.shown), so that a page drawn after an await
 * can tell that another was shown meanwhile. */
function closePages() {
  app.shown += 1;
  app.table?.destroy();
  app.table = null;
  app.lobby?.destroy();
  app.lobby = null;
  app.settle?.close();
  app.settle = null;
  document.body.classList.remove("table-page");
}

async function showLobby() {
  moved();  // no table is waited for any more
  closePages();
  location.hash = "#/lobby";
  const shown = app.shown;
  try { app.user = await api("/api/me"); } catch { /* keep the last known */ }
  if (app.shown !== shown) return;  // another page (the table an invite's reply drew) came meanwhile
  topbar();
  const root = document.createElement("div");
  main.replaceChildren(root);
  app.lobby = new LobbyPage(root, { send, user: app.user, presets: app.presets, onWatch: watch,
    onUser: (user) => { app.user = user; topbar(); } });
  root.addEventListener("click", (ev) => { if (ev.target.closest("[data-watch-own]")) resume(app.user.table); });
  app.lobby.render();
  try { await app.lobby.load(); } catch (exc) { toast(t("err.network", { msg: exc.message })); }
}

function showTable() {
  if (app.table) return app.table;
  closePages();
  document.body.classList.add("table-page");
  const root = document.createElement("div");
  main.replaceChildren(root);
  app.table = new TablePage(root, { send, onLeave: showLobby, onSettle: showSettlement, onFairness: showFairness,
    onReport: (name, handId) => showReport(name, name, handId, toast), canReport: () => app.user?.kind === "player", presets: app.presets });
  app.table.render();
  return app.table;
}

/** Watch a table (a private one with its invite code, kept to watch it again after a reconnect). */
function watch(tableId, invite = null) {
  app.watchInvite = invite || null;
  send({ type: "watch", table: tableId, views: true, ...(invite ? { invite } : {}) });
}

function resume(tableId) {
  const page = showTable();
  const same = page.table === tableId;
  app.resuming = tableId;
  send({ type: "resume", table: tableId, hand: same ? page.hand ?? 0 : 0, last: same ? page.lastSeq : -1 });
}

/** The table is moving to another server (its server stopped or died): wait, and ask again. */
function onMoving() {
  const tableId = app.table?.table ?? app.resuming;
  app.moving += 1;
  if (!tableId || app.moving > MOVING_TRIES) {
    moved();
    showLobby();
    return;
  }
  showBanner("banner-moving", "banner-lost", t("err.moving"));
  clearTimeout(onMoving.timer);
  onMoving.timer = setTimeout(() => { if (app.moving) resume(tableId); }, MOVING_RETRY_MS);
}

/** The table answered again (or the wait is over). */
function moved() {
  app.moving = 0;
  clearTimeout(onMoving.timer);
  showBanner("banner-moving", "", null);
}

function showSettlement(msg, table) {
  if (table.seat !== null) {
    app.user.balance = msg.balances[table.seat];
    topbar();
  }
  app.settle?.close();
  const panel = settlement(msg, table);
  const modal = openModal(panel.html, { label: t("settle.title"),
    onClose: () => { if (app.settle === modal) app.settle = null; if (table.closedReason) showLobby(); } });
  app.settle = modal;
  drawInParts(modal.el, panel.parts);
  for (const link of modal.el.querySelectorAll("[data-verify]")) armVerifyLink(link, msg.record);
  modal.el.addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-settle]");
    if (!b) return;
    const kind = b.dataset.settle;
    if (kind === "next") { table.ready(); modal.close(); }
    else if (kind === "again") playAgain(table);
    else if (kind === "lobby") { if (!table.closedReason && table.seat !== null) send({ type: "leave" }); modal.close(); showLobby(); }
  });
}

function playAgain(table) {
  const room = table.room;
  app.settle?.close();
  if (!room || room === "private") { if (!table.closedReason) send({ type: "leave" }); showLobby(); return; }
  if (table.closedReason) { joinRoom(room); return; }
  app.rejoin = room;
  send({ type: "leave" });
}

/** Back to the lobby, queued in a room again. */
async function joinRoom(room) {
  await showLobby();
  app.lobby?.onQueued({ room, waiting: 1 });
  send({ type: "join", room });
}

function showFairness(table) {
  const modal = openModal(fairnessHTML(table), { label: t("fair.title") });
  if (table.handEnd) for (const link of modal.el.querySelectorAll("[data-verify]")) armVerifyLink(link, table.handEnd.record);
  modal.el.addEventListener("click", (ev) => {
    if (!ev.target.closest("[data-fair=ready]")) return;
    const input = modal.el.querySelector("#seed-input");
    const seed = input.value.trim();
    if (!/^[\x21-\x7e](?:[\x20-\x7e]{0,62}[\x21-\x7e])?$/.test(seed) || /[|:]/.test(seed)) {
      input.setAttribute("aria-invalid", "true");
      toast(t("fair.seed_help"));
      return;
    }
    sessionStorage.setItem("chuanma.seed", seed);
    table.ready(seed);
    modal.close();
  });
}

// ------------------------------------------------------------------ messages

function onMessage(msg) {
  switch (msg.type) {
    case "hello": return onHello(msg);
    case "queued": app.lobby?.onQueued(msg); return undefined;
    case "seated":
      moved();
      showTable().handle(msg);
      if (location.hash !== "#/table" && msg.seat !== null) location.hash = "#/table";
      if (msg.seat === null) location.hash = `#/watch/${msg.table}${app.watchInvite ? `/${app.watchInvite}` : ""}`;
      return undefined;
    case "hand_start": case "events": case "view": case "resync": case "prompt": case "auto": case "hand_end":
      if (app.table) app.table.handle(msg);
      return undefined;
    case "table_closed": return onClosed(msg);
    case "error": return onError(msg);
    case "announcement": return onAnnouncement(msg);
    default: return undefined;
  }
}

function onHello(msg) {
  app.user.balance = msg.balance;
  topbar();
  if (msg.table) { resume(msg.table); return; }
  if (app.table && app.table.seat === null && app.table.table) { watch(app.table.table, app.watchInvite); return; }
  if (followLink()) return;
  if (app.table && app.table.table && !app.table.closedReason) { showLobby(); return; }
  if (!app.lobby) showLobby();
}

/** An invite link (#/join/CODE) sits down at its table; #/watch/TABLE[/INVITE] watches one. */
function followLink() {
  const invite = /^#\/join\/([\w-]+)$/.exec(location.hash);
  const watching = /^#\/watch\/([\w-]+)(?:\/(\w+))?$/.exec(location.hash);
  if (invite) {
    if (!app.lobby && !app.table) showLobby();
    send({ type: "join_private", invite: invite[1] });
    return true;
  }
  if (watching && app.table?.table !== watching[1]) { showTable(); watch(watching[1], watching[2]); return true; }
  return false;
}

/** Browser Back (or another address) while at a table: a seat is left as the Leave button leaves it
 * (asking first during a hand; kept, with the table's address back, if the answer is no); watching
 * stops and the lobby is shown. */
function awayFromTable() {
  const table = app.table;
  if (table.seat === null || table.closedReason) { showLobby(); return; }
  if (!table.leave()) history.pushState(null, "", "#/table");
}

window.addEventListener("hashchange", () => {
  if (!app.conn) return;
  const here = app.table?.seat === null ? `#/watch/${app.table.table}` : "#/table";
  if (app.table?.table && location.hash !== here && !/^#\/(join|watch)\//.test(location.hash)) { awayFromTable(); return; }
  followLink();
});

function onClosed(msg) {
  if (app.rejoin) {
    const room = app.rejoin;
    app.rejoin = null;
    joinRoom(room);
    return;
  }
  if (app.table) { app.table.closedReason = msg.reason; app.table.render(); }  // no next-hand control any more
  toast(t("err.closed", { reason: closedText(msg.reason) }));
  if (!app.settle) showLobby();
}

function onError(msg) {
  if (msg.code === "table_moving") { onMoving(); return; }
  const text = t("err.refused", { msg: errorText(msg.code, msg.message) });
  toast(text);
  if (app.table && app.table.table) {
    if (FATAL_CODES.has(msg.code)) { showLobby(); return; }
    const now = performance.now();
    if (now - app.recoverAt > 1000) { app.recoverAt = now; app.table.recover(); }
    return;
  }
  app.lobby?.onError(text);
}

function onStatus(status) {
  if (status === "lost") {
    app.lost = true;
    showBanner("banner-lost", "banner-lost", t("err.lost"));
  } else {
    showBanner("banner-lost", "", null);
    if (app.lost) toast(t("err.back"));
    app.lost = false;
  }
}

// ------------------------------------------------------------------ start

async function start() {
  try {
    app.user = await api("/api/me");
  } catch (exc) {
    if (exc.status === 401) { showLogin(); return; }
    main.innerHTML = `<div class="page"><p class="error-text" role="alert">${esc(t("err.network", { msg: exc.message }))}</p></div>`;
    setTimeout(start, 3000);
    return;
  }
  topbar();
  app.presets = await api("/api/presets");
  addPresetNames(app.presets.presets);
  app.conn = new Connection({ onMessage, onStatus, onUnauthorized: () => showLogin(t("err.login")) });
  app.conn.open();
}

onLangChange(() => {
  topbar();
  renderNotices();
  app.lobby?.render();
  app.table?.render();
});

window.chuanmaClient = app;  // for tests and debugging: the live state, read-only by convention
// the fans' English names for the settlement (a hand's result names its fans in Chinese only)
app.fanNames = api("/api/portal/fans").then(addFanNames, () => { /* the Chinese names are shown */ });
start();
