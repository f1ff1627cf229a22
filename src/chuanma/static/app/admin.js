// The console of moderators and operators (/admin, docs/operations.md, The console): players (with
// staff notes), reports, live tables, the operator log, and the rooms, announcements and maintenance
// (operators), through /api/admin/* only, on the game's session.
// Every name and reason is user data: it is put in the page as text (textContent), never as markup.

import { api } from "./api.js";
import { addStrings, applyI18n, errorText, languageButton, onLangChange, t } from "./i18n.js";
import { fmt } from "./util.js";

addStrings({
  zh: {
    "admin.title": "川麻 管理", "admin.players": "玩家", "admin.reports": "举报", "admin.tables": "牌桌", "admin.log": "日志",
    "admin.refused": "此页面仅供管理员和运营者使用。", "admin.login": "请先在游戏页面登录", "admin.search": "名字开头或编号",
    "admin.find": "查找", "admin.none": "没有。", "admin.open": "查看", "admin.balance": "余额 {n}",
    "admin.not_banned": "未封禁", "admin.ledger": "账目", "admin.hands": "牌局", "admin.sessions": "登录会话",
    "admin.logins": "登录记录", "admin.ratings": "评分", "admin.flags": "检测标记", "admin.about": "举报记录",
    "admin.at": "时间", "admin.kind": "类型", "admin.amount": "数额", "admin.hand": "牌局", "admin.table": "牌桌",
    "admin.number": "局", "admin.result": "输赢", "admin.replay": "回放", "admin.since": "开始", "admin.used": "最近使用",
    "admin.address": "地址", "admin.agent": "浏览器", "admin.family": "玩法", "admin.rating": "评分", "admin.count": "局数",
    "admin.reason": "原因", "admin.duration": "时长（如 7d，留空为永久）", "admin.ban": "封禁", "admin.unban": "解封",
    "admin.kick": "踢出", "admin.rename": "改名", "admin.new_name": "新名字", "admin.adjust": "调整筹码",
    "admin.hand_opt": "牌局编号（可不填）", "admin.reset": "重置密码链接", "admin.done": "完成：{what}",
    "admin.link": "一次性链接（只显示这一次）：", "admin.reporter": "举报人", "admin.player": "被举报", "admin.text": "说明",
    "admin.note": "处理说明", "admin.dismiss": "驳回", "admin.action": "已处理", "admin.room": "房间", "admin.phase": "阶段",
    "admin.node": "节点", "admin.no_server": "无服务器", "admin.watch": "观战", "admin.void": "作废本局",
    "admin.by": "操作人", "admin.what": "操作", "admin.target": "对象", "admin.details": "详情", "admin.refresh": "刷新",
    "admin.phase.waiting": "等待玩家", "admin.phase.dealing": "发牌前", "admin.phase.playing": "进行中",
    "admin.phase.between_hands": "局间", "admin.bot": "机器人", "admin.role": "角色 {role}", "admin.role_h": "角色",
    "admin.balance_h": "余额", "admin.history": "操作记录（运营日志）",
    "admin.notes": "备注", "admin.add_note": "添加备注", "admin.note_text": "备注内容", "admin.rooms": "房间与公告",
    "admin.room_id": "编号", "admin.name_zh": "中文名", "admin.name_en": "英文名", "admin.preset": "规则", "admin.base": "底分",
    "admin.low": "入场下限", "admin.high": "入场上限（留空为无上限）", "admin.entry": "入场", "admin.level": "等级要求",
    "admin.open_h": "开放", "admin.save": "保存", "admin.disable": "暂停开放", "admin.enable": "开放", "admin.new_room": "新房间",
    "admin.yes": "是", "admin.no": "否", "admin.announce": "发布公告", "admin.announce_text": "公告内容",
    "admin.minutes": "分钟（留空为一直显示）", "admin.withdraw": "撤下公告", "admin.maintenance": "维护：不开新牌桌",
    "admin.in": "几分钟后开始", "admin.message": "给玩家的说明", "admin.maintenance_off": "结束维护",
    "admin.current": "现在：{what}", "admin.nothing": "无",
  },
  en: {
    "admin.title": "chuanma console", "admin.players": "Players", "admin.reports": "Reports", "admin.tables": "Tables",
    "admin.log": "Log", "admin.refused": "This page is for moderators and operators only.",
    "admin.login": "Log in on the game's page first", "admin.search": "Start of a name, or an id", "admin.find": "Find",
    "admin.none": "None.", "admin.open": "Open", "admin.balance": "balance {n}", "admin.not_banned": "not banned",
    "admin.ledger": "Ledger", "admin.hands": "Hands", "admin.sessions": "Sessions", "admin.logins": "Logins",
    "admin.ratings": "Ratings", "admin.flags": "Flags", "admin.about": "Reports about them", "admin.at": "At",
    "admin.kind": "Kind", "admin.amount": "Amount", "admin.hand": "Hand", "admin.table": "Table", "admin.number": "No.",
    "admin.result": "Result", "admin.replay": "Replay", "admin.since": "Began", "admin.used": "Last used",
    "admin.address": "Address", "admin.agent": "Browser", "admin.family": "Family", "admin.rating": "Rating",
    "admin.count": "Hands", "admin.reason": "Reason", "admin.duration": "Duration (e.g. 7d; empty: for good)",
    "admin.ban": "Ban", "admin.unban": "Unban", "admin.kick": "Kick", "admin.rename": "Rename",
    "admin.new_name": "New name", "admin.adjust": "Adjust chips", "admin.hand_opt": "Hand id (optional)",
    "admin.reset": "Password-reset link", "admin.done": "Done: {what}", "admin.link": "One-time link (shown once): ",
    "admin.reporter": "Reporter", "admin.player": "Reported", "admin.text": "Words", "admin.note": "Note",
    "admin.dismiss": "Dismiss", "admin.action": "Actioned", "admin.room": "Room", "admin.phase": "Phase",
    "admin.node": "Node", "admin.no_server": "no server", "admin.watch": "Watch", "admin.void": "Void the hand",
    "admin.by": "By", "admin.what": "Action", "admin.target": "Player", "admin.details": "Details",
    "admin.refresh": "Refresh", "admin.phase.waiting": "waiting for players", "admin.phase.dealing": "before the deal",
    "admin.phase.playing": "playing", "admin.phase.between_hands": "between hands", "admin.bot": "bot",
    "admin.role": "role {role}", "admin.role_h": "Role", "admin.balance_h": "Balance",
    "admin.history": "History (the operator log about them)",
    "admin.notes": "Notes", "admin.add_note": "Add a note", "admin.note_text": "Note", "admin.rooms": "Rooms & notices",
    "admin.room_id": "Id", "admin.name_zh": "Chinese name", "admin.name_en": "English name", "admin.preset": "Preset",
    "admin.base": "Base", "admin.low": "Entry from", "admin.high": "Entry up to (empty: no top)", "admin.entry": "Entry",
    "admin.level": "Level wanted", "admin.open_h": "Open", "admin.save": "Save", "admin.disable": "Disable",
    "admin.enable": "Enable", "admin.new_room": "New room", "admin.yes": "yes", "admin.no": "no",
    "admin.announce": "Announce", "admin.announce_text": "Announcement", "admin.minutes": "Minutes (empty: until replaced)",
    "admin.withdraw": "Withdraw the announcement", "admin.maintenance": "Maintenance: no new tables",
    "admin.in": "Starts in (minutes)", "admin.message": "Message to players", "admin.maintenance_off": "End the maintenance",
    "admin.current": "Now: {what}", "admin.nothing": "none",
  },
});

const console_ = { me: null, tab: "players", player: null };
const $ = (sel) => document.querySelector(sel);

/** An element: attributes (``text``: its textContent; ``on*``: listeners) and children (strings become text). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = String(v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

const when = (at) => (at ? new Date(at * 1000).toLocaleString() : "");
const signed = (n) => (n > 0 ? "+" : "") + fmt(n);
const operator = () => console_.me?.role === "operator";

function say(text, error = false) {
  const status = $("#admin-status");
  status.textContent = text;
  status.className = error ? "error-text" : "";
}

/** Call an admin route; a refusal is said (in the page's language) and null returned. */
async function call(path, body) {
  try {
    return await api(path, body === undefined ? {} : { method: "POST", body });
  } catch (exc) {
    say(errorText(exc.code, exc.message), true);
    return null;
  }
}

/** A table of rows: headings (string keys) and cells (each a node or text). */
function grid(headings, rows, testid) {
  if (!rows.length) return el("p", { class: "muted", text: t("admin.none") });
  return el("div", { class: "admin-scroll" }, el("table", { class: "history", "data-testid": testid },
    el("thead", {}, el("tr", {}, headings.map((h) => el("th", { text: t(h) })))),
    el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((c) => el("td", {}, c ?? "")))))));
}

const replay = (handId) => (handId ? el("a", { href: `/replay/${encodeURIComponent(handId)}`, class: "mono", text: handId }) : "");

/** A small form: its fields ([name, label key, attrs]) and a button; ``send(values)`` runs on submit
 * and returns null (refused, said already), a text to say, or anything else (said as done). */
function actionForm(key, fields, send, testid) {
  const form = el("form", { class: "field-row admin-action", "data-testid": testid },
    fields.map(([name, label, attrs = {}]) => el("div", {}, el("label", { text: t(label) },
      el("input", { name, "aria-label": t(label), ...attrs })))),
    el("div", {}, el("button", { class: "btn", type: "submit", text: t(key) })));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const values = Object.fromEntries(new FormData(form).entries());
    const result = await send(values);
    if (result !== null) { say(typeof result === "string" ? result : t("admin.done", { what: t(key) })); form.reset(); }
  });
  return form;
}

// ------------------------------------------------------------------ players

async function search(q) {
  const found = await call(`/api/admin/players?q=${encodeURIComponent(q)}`);
  if (found === null) return;
  const box = $("#found");
  box.classList.remove("hidden");
  box.replaceChildren(grid(["admin.target", "admin.kind", "admin.role_h", "admin.balance_h"], found.map((p) => [
    el("button", { type: "button", class: "btn btn-small", "data-testid": `open-${p.id}`, text: `${p.username} #${p.id}`,
      onclick: () => openPlayer(p.id) }),
    p.kind, p.role, fmt(p.balance) + (p.ban ? ` · ${p.ban.words}` : ""),
  ]), "found"));
}

async function openPlayer(id) {
  const page = await call(`/api/admin/players/${id}`);
  if (page === null) return;
  console_.player = id;
  const a = page.account;
  const act = (path, body) => call(`/api/admin/players/${id}/${path}`, body).then((r) => { if (r !== null) openPlayer(id); return r; });
  const forms = [
    actionForm("admin.ban", [["duration", "admin.duration", { maxlength: 20 }], ["reason", "admin.reason", { required: true }]],
      (v) => act("ban", { reason: v.reason, duration: v.duration.trim() || null }), "ban"),
    actionForm("admin.unban", [["reason", "admin.reason", { required: true }]], (v) => act("unban", { reason: v.reason }), "unban"),
    actionForm("admin.kick", [["reason", "admin.reason", { required: true }]], (v) => act("kick", { reason: v.reason }), "kick"),
    actionForm("admin.rename", [["username", "admin.new_name", { required: true, maxlength: 20 }], ["reason", "admin.reason", { required: true }]],
      (v) => act("rename", { reason: v.reason, username: v.username }), "rename"),
  ];
  if (operator()) {
    forms.push(actionForm("admin.adjust", [["amount", "admin.amount", { type: "number", step: 1, required: true }],
      ["hand", "admin.hand_opt", { maxlength: 40 }], ["reason", "admin.reason", { required: true }]],
    (v) => act("adjust", { reason: v.reason, amount: Number(v.amount), hand: v.hand.trim() || null }), "adjust"));
    forms.push(actionForm("admin.reset", [["reason", "admin.reason", { required: true }]], async (v) => {
      const r = await call(`/api/admin/players/${id}/reset-link`, { reason: v.reason });
      return r === null ? null : t("admin.link") + r.link;  // as text: the operator copies it
    }, "reset"));
  }
  $("#player").replaceChildren(
    el("div", { class: "card", "data-testid": "player-page" },
      el("h2", { "data-testid": "player-name", text: `${a.username} #${a.id}` }),
      el("p", { text: [a.kind, t("admin.role", { role: a.role }), t("admin.balance", { n: fmt(page.balance) }),
        page.ban ? page.ban.words : t("admin.not_banned")].join(" · "), "data-testid": "player-summary" }),
      forms),
    section("admin.ledger", grid(["admin.at", "admin.kind", "admin.amount", "admin.hand"],
      page.ledger.map((r) => [when(r.at), r.kind, signed(r.amount), replay(r.hand_id)]), "ledger")),
    section("admin.hands", grid(["admin.at", "admin.hand", "admin.table", "admin.number", "admin.result"],
      page.hands.map((h) => [when(h.finished_at), replay(h.id), h.table_id, String(h.number), signed(h.amount)]), "hands")),
    section("admin.sessions", grid(["admin.since", "admin.used"], page.sessions.map((s) => [when(s.created_at), when(s.last_used)]))),
    section("admin.logins", grid(["admin.at", "admin.kind", "admin.address", "admin.agent"],
      page.logins.map((l) => [when(l.at), l.kind, l.address, l.agent]))),
    section("admin.ratings", grid(["admin.family", "admin.rating", "admin.count"],
      page.ratings.map((r) => [r.family, `${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)}`, String(r.hands)]))),
    section("admin.about", reportGrid(page.reports, false)),
    section("admin.flags", grid(["admin.at", "admin.kind", "admin.details"],
      page.flags.map((f) => [when(f.at), f.kind, `${f.accounts.map((u) => "#" + u).join(", ")}: ${f.figure.toFixed(2)} (${f.population.toFixed(2)})`]))),
    section("admin.notes", el("div", {},
      actionForm("admin.add_note", [["text", "admin.note_text", { required: true, maxlength: 500 }]],
        (v) => act("notes", { text: v.text }), "add-note"),
      grid(["admin.at", "admin.by", "admin.note_text"], page.notes.map((n) => [when(n.at), n.by_name ?? "—", n.text]), "notes"))),
  );
  if (operator()) {  // what staff did to them, with their reasons: the operator log about them
    const history = section("admin.history", "");
    $("#player").append(history);
    const rows = await call(`/api/admin/log?limit=20&user=${id}`);
    if (rows !== null) history.append(logGrid(rows, "history"));
  }
}

function section(title, body) {
  return el("div", { class: "card" }, el("h3", { text: t(title) }), body);
}

// ------------------------------------------------------------------ reports

function reportGrid(rows, handle) {
  return grid(["admin.at", "admin.reporter", "admin.player", "admin.hand", "admin.reason", "admin.text", handle ? "admin.note" : "admin.what"],
    rows.map((r) => [when(r.at), r.reporter_name, el("button", { type: "button", class: "btn btn-small", text: r.player_name,
      onclick: () => { show("players"); openPlayer(r.player); } }), replay(r.hand_id), r.reason, r.text ?? "",
    handle ? handleForm(r) : `${r.status}${r.note ? ": " + r.note : ""}`]), handle ? "reports" : "about");
}

function handleForm(report) {
  const note = el("input", { name: "note", "aria-label": t("admin.note"), required: true, maxlength: 2000 });
  const send = (status) => async () => {
    if (!note.value.trim()) { note.focus(); return; }
    if (await call(`/api/admin/reports/${report.id}`, { status, note: note.value }) !== null) loadReports();
  };
  return el("div", { class: "field-row" }, note,
    el("button", { type: "button", class: "btn btn-small", text: t("admin.dismiss"), onclick: send("dismissed") }),
    el("button", { type: "button", class: "btn btn-small", text: t("admin.action"), onclick: send("actioned") }));
}

async function loadReports() {
  const rows = await call("/api/admin/reports?status=open");
  if (rows !== null) $("#reports").replaceChildren(reportGrid(rows, true));
}

// ------------------------------------------------------------------ tables and log

async function loadTables() {
  const rows = await call("/api/admin/tables");
  if (rows === null) return;
  const refresh = el("button", { type: "button", class: "btn btn-small", text: t("admin.refresh"), onclick: loadTables });
  if (!rows.length) { $("#tables").replaceChildren(el("div", { class: "card" }, refresh, el("p", { class: "muted", text: t("admin.none") }))); return; }
  $("#tables").replaceChildren(el("div", { class: "card" }, refresh), el("div", { class: "grid", "data-testid": "tables" }, rows.map(tableCard)));
}

function tableCard(row) {
  const watch = `/#/watch/${encodeURIComponent(row.table)}${row.invite ? "/" + encodeURIComponent(row.invite) : ""}`;
  const card = el("div", { class: "room", "data-testid": `table-${row.table}` },
    el("div", { class: "room-name mono", text: row.table }),
    el("div", { text: `${t("admin.room")}: ${row.room} · ${t("admin.hand")} ${row.hand} · ${t("admin.phase." + row.phase)}` }),
    el("div", { class: "muted", text: `${t("admin.node")}: ${row.node ?? t("admin.no_server")}` }),
    el("ol", { class: "admin-seats" }, row.players.map((p) => el("li", {},
      p === null ? "—" : p.bot ? `${p.name} (${t("admin.bot")})`
        : el("button", { type: "button", class: "btn btn-small", text: p.name, onclick: () => { show("players"); openPlayer(p.id); } })))),
    el("a", { class: "btn btn-small", href: watch, text: t("admin.watch") }));
  if (operator() && row.hand_id && (row.phase === "playing" || row.phase === "dealing")) {
    card.append(actionForm("admin.void", [["reason", "admin.reason", { required: true }]],
      async (v) => { const r = await call(`/api/admin/hands/${encodeURIComponent(row.hand_id)}/void`, { reason: v.reason }); if (r !== null) loadTables(); return r; },
      "void"));
  }
  return card;
}

async function loadLog() {
  const rows = await call("/api/admin/log?limit=100");
  if (rows === null) return;
  $("#log").replaceChildren(logGrid(rows, "log"));
}

function logGrid(rows, testid) {
  return grid(["admin.at", "admin.by", "admin.what", "admin.target", "admin.reason", "admin.details"],
    rows.map((r) => [when(r.at), r.actor_name, r.action, r.target_name ?? "", r.reason, el("span", { class: "mono", text: JSON.stringify(r.details) })]), testid);
}

// ------------------------------------------------------------------ rooms, announcements, maintenance

const ROOM_FIELDS = [["name", "admin.name_zh", { maxlength: 64 }], ["en", "admin.name_en", { maxlength: 96 }],
  ["preset", "admin.preset", { maxlength: 32 }], ["base", "admin.base", { type: "number", min: 1, step: 1 }],
  ["low", "admin.low", { type: "number", min: 0, step: 1 }], ["high", "admin.high", { type: "number", min: 0, step: 1 }],
  ["min_level", "admin.level", { type: "number", min: 0, step: 1 }]];

/** A room's form values as the route takes them: numbers as numbers, an empty top as no top. */
function roomBody(values, room) {
  const body = { reason: values.reason };
  for (const [name] of ROOM_FIELDS) {
    const raw = (values[name] ?? "").trim();
    const number = ["base", "low", "high", "min_level"].includes(name);
    const value = number ? (raw === "" ? null : Number(raw)) : raw;
    const before = room ? room[name] : undefined;
    if (room && value === before) continue;
    if (value === null && name !== "high") continue;
    if (!room && value === "") continue;
    body[name] = value;
  }
  return body;
}

function roomForm(room) {
  const fields = ROOM_FIELDS.map(([name, label, attrs]) => [name, label,
    { ...attrs, value: room ? (room[name] ?? "") : "", required: !room && name !== "high" && name !== "min_level" }]);
  const id = room ? [] : [["id", "admin.room_id", { required: true, maxlength: 32, pattern: "[a-z0-9][a-z0-9-]*" }]];
  const form = actionForm(room ? "admin.save" : "admin.new_room", [...id, ...fields, ["reason", "admin.reason", { required: true }]],
    async (v) => {
      const r = await call(`/api/admin/rooms/${encodeURIComponent(room ? room.id : v.id)}`, roomBody(v, room));
      if (r !== null) loadRooms();
      return r;
    }, room ? `room-form-${room.id}` : "new-room");
  return form;
}

function roomSwitch(room) {
  const what = room.enabled ? "disable" : "enable";
  return actionForm(`admin.${what}`, [["reason", "admin.reason", { required: true }]], async (v) => {
    const r = await call(`/api/admin/rooms/${encodeURIComponent(room.id)}/${what}`, { reason: v.reason });
    if (r !== null) loadRooms();
    return r;
  }, `room-${what}-${room.id}`);
}

function noticeWords(msg) {
  if (!msg || msg.id === null) return t("admin.nothing");
  return msg.topic === "maintenance" ? `${when(msg.at)}${msg.text ? " · " + msg.text : ""}`
    : `${msg.text}${msg.until ? " (" + when(msg.until) + ")" : ""}`;
}

async function loadRooms() {
  const [rooms, notices] = await Promise.all([call("/api/admin/rooms"), call("/api/admin/announce")]);
  if (rooms === null || notices === null) return;
  const after = () => loadRooms();
  const post = (path, body) => call(path, body).then((r) => { if (r !== null) after(); return r; });
  $("#rooms").replaceChildren(
    section("admin.announce", el("div", {},
      el("p", { "data-testid": "notice-now", text: t("admin.current", { what: noticeWords(notices.notice) }) }),
      actionForm("admin.announce", [["text", "admin.announce_text", { required: true, maxlength: 500 }],
        ["minutes", "admin.minutes", { type: "number", min: 1, step: "any" }]],
      (v) => post("/api/admin/announce", { text: v.text, minutes: v.minutes ? Number(v.minutes) : null }), "announce"),
      el("button", { type: "button", class: "btn btn-small", text: t("admin.withdraw"),
        onclick: () => post("/api/admin/announce/withdraw", {}) }))),
    section("admin.maintenance", el("div", {},
      el("p", { "data-testid": "maintenance-now", text: t("admin.current", { what: noticeWords(notices.maintenance) }) }),
      actionForm("admin.maintenance", [["in", "admin.in", { type: "number", min: 0, step: "any", required: true }],
        ["message", "admin.message", { maxlength: 500 }]],
      (v) => post("/api/admin/maintenance", { in: Number(v.in), message: v.message }), "maintenance"),
      el("button", { type: "button", class: "btn btn-small", text: t("admin.maintenance_off"),
        onclick: () => post("/api/admin/maintenance/off", {}) }))),
    section("admin.rooms", grid(["admin.room_id", "admin.name_zh", "admin.preset", "admin.base", "admin.entry", "admin.level", "admin.open_h", "admin.save"],
      rooms.map((r) => [el("span", { class: "mono", text: r.id }), `${r.name} · ${r.en}`, r.preset, fmt(r.base), r.entry,
        r.min_level ? `Lv.${r.min_level}` : "", t(r.enabled ? "admin.yes" : "admin.no"),
        el("details", {}, el("summary", { text: t("admin.save") }), roomForm(r), roomSwitch(r))]), "rooms")),
    section("admin.new_room", roomForm(null)));
}

// ------------------------------------------------------------------ the frame

const LOADERS = { players: () => console_.player && openPlayer(console_.player), reports: loadReports, tables: loadTables, log: loadLog,
  rooms: loadRooms };

function show(tab) {
  console_.tab = tab;
  for (const name of Object.keys(LOADERS)) $(`#tab-${name}`).classList.toggle("hidden", name !== tab);
  for (const b of document.querySelectorAll("[data-tab]")) b.setAttribute("aria-pressed", String(b.dataset.tab === tab));
  say("");
  LOADERS[tab]();
}

async function start() {
  applyI18n(document);
  $("#topbar-buttons").append(languageButton());
  try {
    console_.me = await api("/api/admin/me");
  } catch (exc) {
    const refused = $("#admin-refused");
    refused.classList.remove("hidden");
    refused.replaceChildren(t("admin.refused"), " ",
      ...(exc.status === 401 ? [el("a", { href: "/", text: t("admin.login") })] : []));
    return;
  }
  $("#admin-who").textContent = `${console_.me.username} · ${console_.me.role}`;
  $("#admin-nav").classList.remove("hidden");
  for (const b of document.querySelectorAll("[data-operator]")) b.classList.toggle("hidden", !operator());
  for (const b of document.querySelectorAll("[data-tab]")) b.addEventListener("click", () => show(b.dataset.tab));
  $("#search-form").addEventListener("submit", (ev) => { ev.preventDefault(); search($("#search-q").value); });
  onLangChange(() => { applyI18n(document); show(console_.tab); });
  show("players");
}

start();
