// The login form and the lobby: balance and relief chips (with the next one's time), one's level
// and links to one's profile and the leaderboards, a guest's registration, rooms with the preset each plays
// (out-of-range or above one's level: disabled, saying why), quick-join, private tables with an invite link, tables to watch, and one's own history.

import { accountHTML, accountSubmit } from "./account.js";
import { api } from "./api.js";
import { choiceText, errorText, getLang, optionText, presetName, t } from "./i18n.js";
import { presetIds, presetValues } from "./presets.js";
import { esc, fmt } from "./util.js";
import { levelBadge, levelOf, loadLevels, profileLink } from "./levels.js";

const MAX_FAN_CHOICES = [null, 2, 3, 4, 5, 6, 8];
/** The bots' levels a private table may choose (docs/bots.md: greedy, defensive, expert). */
const BOT_LEVELS = ["easy", "normal", "hard"];

export function loginHTML(error = "") {
  return `<div class="page"><div class="card" style="max-width:420px;margin:1em auto">
    <h1>${esc(t("app.title"))}</h1><p class="muted">${esc(t("app.tagline"))}</p>
    <form id="login-form" novalidate>
      <label for="username">${esc(t("auth.username"))}</label>
      <input id="username" name="username" autocomplete="username" required maxlength="20" style="width:100%">
      <label for="password">${esc(t("auth.password"))}</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256" style="width:100%">
      <p class="muted">${esc(t("auth.rules"))}</p>
      <p class="error-text" role="alert" id="login-error">${esc(error)}</p>
      <div class="row" style="gap:.5em">
        <button class="btn btn-primary" type="submit" data-auth="login">${esc(t("auth.login"))}</button>
        <button class="btn" type="button" data-auth="register">${esc(t("auth.register"))}</button>
        <button class="btn btn-ghost" type="button" data-auth="guest" style="color:var(--focus)">${esc(t("auth.guest"))}</button>
      </div>
    </form></div></div>`;
}

/** Why a room refuses this balance or level (null: it admits them). */
export function refusal(room, balance, level) {
  if (balance < room.low) return t("lobby.too_poor", { low: fmt(room.low) });
  if (room.high !== null && balance > room.high) return t("lobby.too_rich", { high: fmt(room.high) });
  if (room.min_level && level && level.level < room.min_level) return t("lobby.too_low", { n: room.min_level });
  return null;
}

/** The relief line: its rule, the room hands still to play before the next (below its line), and
 * when the next comes once today's are used up. */
function reliefText(relief, balance) {
  if (!relief) return "";
  const rule = t("relief.rule", { low: fmt(relief.below), to: fmt(relief.to), per_day: relief.per_day, left: relief.left });
  if (relief.hands > 0 && balance < relief.below) return `${rule} ${t("relief.hands", { hands: relief.hands })}`;
  if (relief.next === null || relief.left > 0) return rule;
  return `${rule} ${t("relief.next", { when: new Date(relief.next * 1000).toLocaleString() })}`;
}

/** How often the list of tables to watch is fetched again while the lobby is shown. */
const WATCH_REFRESH_MS = 10000;

/** Seconds until bots sit down for a queue entry (null: bots not allowed). */
function botsLeft(queued) {
  if (queued.bots_in == null) return null;
  return Math.max(0, Math.ceil(queued.bots_in - (performance.now() - (queued.at ?? performance.now())) / 1000));
}

/** The queue's state, shown under the room's name (not in its button, which it would not fit). */
function waitingText(queued) {
  const waiting = t("lobby.waiting", { waiting: queued.waiting });
  const left = botsLeft(queued);
  return left === null ? waiting : `${waiting} · ${t("lobby.bots_in", { s: left })}`;
}

function roomHTML(room, balance, level, queued) {
  const why = refusal(room, balance, level);
  const range = room.high === null ? `${fmt(room.low)}+` : `${fmt(room.low)}–${fmt(room.high)}`;
  const here = queued?.room === room.id;
  return `<div class="room${why ? " disabled" : ""}" data-room="${esc(room.id)}">
    <span class="room-name">${esc(roomName(room))}</span>
    <span>${esc(t("lobby.base", { base: fmt(room.base) }))} · ${esc(t("lobby.range", { range }))} · ${esc(t("lobby.plays", { preset: presetName(room.preset) }))}</span>
    ${why ? `<span class="why" id="why-${esc(room.id)}">${esc(why)}</span>` : ""}
    ${here ? `<p class="waiting" role="status" data-testid="waiting">${esc(waitingText(queued))}</p>
      <button class="btn" data-leave-queue data-testid="leave-queue">${esc(t("lobby.leave_queue"))}</button>` : ""}
    <button class="btn ${why ? "" : "btn-primary"}" data-join="${esc(room.id)}" ${why || queued ? "disabled" : ""}
      ${why ? `aria-describedby="why-${esc(room.id)}"` : ""}>${esc(t("lobby.join"))}</button>
  </div>`;
}

function oneFieldForm(id, field, label, length, button) {
  return `<form id="${id}" class="field-row" style="margin-top:.6em">
    <div><label for="${field}">${esc(label)}</label><input id="${field}" maxlength="${length}"></div>
    <div><button class="btn" type="submit">${esc(button)}</button></div></form>`;
}

/** A room's name in the page's language (/api/rooms: name in Chinese, en in English). */
function roomName(room) {
  return (getLang() === "en" && room.en) || room.name;
}

function optionField(opt, value) {
  const id = `opt-${opt.name}`;
  // named by its description and its choices' names in the page's language, never by their ids
  const label = `<label for="${id}">${esc(optionText(opt))}</label>`;
  if (opt.kind === "bool") {
    return `<div>${label}<select id="${id}" data-option="${esc(opt.name)}" data-kind="bool">
      <option value="true" ${value ? "selected" : ""}>${esc(t("lobby.on"))}</option>
      <option value="false" ${value ? "" : "selected"}>${esc(t("lobby.off"))}</option></select></div>`;
  }
  if (opt.kind === "choice") {
    return `<div>${label}<select id="${id}" data-option="${esc(opt.name)}" data-kind="choice">
      ${opt.choices.map((c) => `<option value="${esc(JSON.stringify(c))}" ${c === value ? "selected" : ""}>${esc(choiceText(opt, c))}</option>`).join("")}</select></div>`;
  }
  return "";
}

export class LobbyPage {
  constructor(root, { send, user, presets, onWatch, onUser }) {
    this.root = root;
    this.send = send;
    this.user = user;
    this.presets = presets;
    this.onWatch = onWatch;
    this.onUser = onUser;
    this.rooms = [];
    this.history = [];
    this.live = [];
    this.queued = null;
    this.created = null;
    this.error = "";
    this.preset = "xuezhan";
    root.addEventListener("click", (ev) => this.onClick(ev));
    root.addEventListener("change", (ev) => { if (ev.target.id === "preset") this.choosePreset(ev.target.value); });
    root.addEventListener("submit", (ev) => this.onSubmit(ev));
    this.clock = setInterval(() => this.tick(), 500);
    this.refresher = setInterval(() => this.refreshTables(), WATCH_REFRESH_MS);
  }

  destroy() {
    clearInterval(this.clock);
    clearInterval(this.refresher);
  }

  /** The bots' countdown under the room being waited in. */
  tick() {
    const el = this.queued && this.root.querySelector("[data-testid=waiting]");
    if (!el) return;
    const text = waitingText(this.queued);
    if (el.textContent !== text) el.textContent = text;
  }

  /** Fetch the tables to watch again; the lobby is drawn again only when the list changed. */
  async refreshTables() {
    let live;
    try { live = await api("/api/tables"); } catch { return; }
    if (JSON.stringify(live) === JSON.stringify(this.live)) return;
    this.live = live;
    this.render();
  }

  async load() {
    const [rooms, history, live] = await Promise.all([api("/api/rooms"), api("/api/hands"), api("/api/tables")]);
    this.rooms = rooms; this.history = history; this.live = live;
    await loadLevels([this.user.username], true);
    this.render();
  }

  setUser(user) { this.user = user; this.render(); }

  /** A `queued` message: waiting in a room (the bots' countdown starts now), or in none (room null). */
  onQueued(msg) { this.queued = msg.room ? { ...msg, at: performance.now() } : null; this.render(); }

  onError(msg) { this.error = msg; this.queued = null; this.render(); }

  onClick(ev) {
    const join = ev.target.closest("[data-join]");
    if (join && !join.disabled) {
      this.error = "";
      this.queued = { room: join.dataset.join, waiting: 1 };
      this.send({ type: "join", room: join.dataset.join, bots: this.root.querySelector("#allow-bots")?.checked ?? true });
      this.render();
      return;
    }
    if (ev.target.closest("[data-leave-queue]")) { this.send({ type: "leave_queue" }); return; }
    const watch = ev.target.closest("[data-watch]");
    if (watch) { this.onWatch(watch.dataset.watch); return; }
    const sit = ev.target.closest("[data-sit]");
    if (sit) { this.send({ type: "join_private", invite: sit.dataset.sit }); return; }
    const copy = ev.target.closest("[data-copy]");
    if (copy) {
      navigator.clipboard?.writeText(copy.dataset.copy).then(() => { copy.textContent = t("lobby.copied"); }, () => {});
    }
  }

  async onSubmit(ev) {
    ev.preventDefault();
    const form = ev.target;
    this.error = "";
    try {
      const done = await accountSubmit(form);
      if (done === "deleted") { location.assign("/"); return; }
      if (done) { form.reset(); this.accountDone = done; this.render(); return; }
      if (form.id === "private-form") await this.createPrivate(form);
      else if (form.id === "claim-form") await this.claim(form);
      else if (form.id === "invite-form") {
        const code = form.querySelector("#invite-code").value.trim();
        if (code) this.send({ type: "join_private", invite: code });
      } else if (form.id === "watch-form") {
        const id = form.querySelector("#watch-id").value.trim();
        if (id) this.onWatch(id);
      }
    } catch (exc) {
      this.error = errorText(exc.code, exc.message);
      this.render();
    }
  }

  /** A guest takes a name and a password (POST /api/account/claim), keeping its account. */
  async claim(form) {
    const body = { username: form.querySelector("#claim-username").value.trim(),
      password: form.querySelector("#claim-password").value };
    const { user } = await api("/api/account/claim", { method: "POST", body });
    this.user = { ...this.user, ...user };
    this.claimed = user.username;
    await loadLevels([user.username], true);  // the same account's level, under its new name
    this.onUser?.(this.user);  // the top bar names the account as it is now
    this.render();
  }

  /** Show the chosen preset's values in the option fields. */
  choosePreset(name) {
    this.preset = name;
    const values = presetValues(this.presets, name);
    for (const el of this.root.querySelectorAll("[data-option]")) {
      const value = values[el.dataset.option];
      el.value = el.dataset.kind === "bool" ? String(value) : JSON.stringify(value);
    }
    this.root.querySelector("#max-fan").value = values.max_fan ?? "";
  }

  async createPrivate(form) {
    const preset = form.querySelector("#preset").value;
    const defaults = presetValues(this.presets, preset);
    const options = {};
    const maxFan = form.querySelector("#max-fan").value;
    const fan = maxFan === "" ? null : Number(maxFan);
    if (fan !== defaults.max_fan) options.max_fan = fan;
    for (const el of form.querySelectorAll("[data-option]")) {
      const value = el.dataset.kind === "bool" ? el.value === "true" : JSON.parse(el.value);
      if (value !== defaults[el.dataset.option]) options[el.dataset.option] = value;
    }
    const body = { preset, options, hands: Number(form.querySelector("#hands").value),
      bots: Number(form.querySelector("#bots").value), bot_level: form.querySelector("#bot-level").value };
    this.created = await api("/api/tables", { method: "POST", body });
    this.render();
  }

  /** The forms' values and the focused field (kept across drawings: after Create table, a language
   * switch, a new list of tables to watch). */
  formValues() {
    return [...this.root.querySelectorAll("form input[id], form select[id]")].map((el) => [el.id, el.value]);
  }

  /** A watched table's room by name (its id from /api/tables; a private table says so). */
  roomLabel(id) {
    const room = this.rooms.find((r) => r.id === id);
    return room ? roomName(room) : id === "private" ? t("lobby.private_room") : id;
  }

  render() {
    const kept = this.formValues();
    const focused = document.activeElement?.closest?.("form") && this.root.contains(document.activeElement) ? document.activeElement.id : null;
    this.drawPage();
    for (const [id, value] of kept) {
      const el = this.root.querySelector(`form #${id}`);
      if (el) el.value = value;
    }
    if (focused) this.root.querySelector(`#${focused}`)?.focus();
  }

  drawPage() {
    const u = this.user;
    const relief = reliefText(u.relief, u.balance);
    const level = levelOf(u.username);
    const profile = `/profile/${encodeURIComponent(u.username)}`;
    const presetNames = presetIds(this.presets);
    const chosen = presetValues(this.presets, this.preset);
    const optionFields = (this.presets?.options || []).filter((o) => o.kind === "bool" || (o.kind === "choice" && o.name !== "variant"))
      .map((o) => optionField(o, chosen[o.name])).join("");
    const link = this.created ? `${location.origin}/#/join/${this.created.invite}` : "";
    this.root.innerHTML = `<div class="page">
      <h1 class="sr-only">${esc(t("lobby.title"))}</h1>
      <section class="card" aria-labelledby="balance-title">
        <h2 id="balance-title">${esc(t("lobby.balance"))}</h2>
        <div class="balance" data-testid="balance">${esc(t("lobby.chips", { n: fmt(u.balance) }))}</div>
        <p class="muted" data-testid="relief">${esc(relief)}</p>
        <p class="row" style="gap:.6em;align-items:center"><strong>${esc(u.username)}</strong>${levelBadge(u.username)}
          ${level ? `<span class="muted">${esc(getLang() === "zh" ? level.zh : level.en)}</span>` : ""}
          <a href="${esc(profile)}" data-testid="my-profile">${esc(t("lobby.profile"))}</a>
          <a href="/leaderboard">${esc(t("lobby.leaderboard"))}</a></p>
        ${this.claimed ? `<p role="status">${esc(t("claim.done", { name: this.claimed }))}</p>` : ""}
        ${u.kind === "guest" ? `<details><summary>${esc(t("claim.title"))}</summary><p class="muted">${esc(t("claim.intro"))}</p>
          <form id="claim-form" class="field-row">
            <div><label for="claim-username">${esc(t("auth.username"))}</label><input id="claim-username" maxlength="20" autocomplete="username"></div>
            <div><label for="claim-password">${esc(t("auth.password"))}</label><input id="claim-password" type="password" maxlength="256" autocomplete="new-password"></div>
            <div><button class="btn" type="submit">${esc(t("claim.go"))}</button></div></form></details>` : ""}
        ${accountHTML(u, this.accountDone, this.root.querySelector("[data-testid=account]")?.open)}
        ${u.table ? `<button class="btn btn-primary" data-watch-own>${esc(t("lobby.resume"))}</button>` : ""}
      </section>
      ${this.error ? `<div class="banner banner-error" role="alert">${esc(this.error)}</div>` : ""}
      <section class="card" aria-labelledby="rooms-title">
        <h2 id="rooms-title">${esc(t("lobby.rooms"))}</h2>
        <label style="display:flex;gap:.4em;align-items:center;font-weight:400"><input type="checkbox" id="allow-bots" checked style="min-height:auto">
          ${esc(t("lobby.bots_allowed"))}</label>
        <div class="grid">${this.rooms.map((r) => roomHTML(r, u.balance, level, this.queued)).join("")}</div>
      </section>
      <section class="card" aria-labelledby="private-title">
        <h2 id="private-title">${esc(t("lobby.private"))}</h2>
        <form id="private-form">
          <div class="field-row">
            <div><label for="preset">${esc(t("lobby.preset"))}</label><select id="preset">
              ${presetNames.map((n) => `<option value="${esc(n)}" ${n === this.preset ? "selected" : ""}>${esc(presetName(n))}</option>`).join("")}</select></div>
            <div><label for="hands">${esc(t("lobby.hands"))}</label><input id="hands" type="number" min="1" max="64" value="4"></div>
            <div><label for="bots">${esc(t("lobby.bots"))}</label><select id="bots">
              ${[0, 1, 2, 3].map((n) => `<option ${n === 3 ? "selected" : ""}>${n}</option>`).join("")}</select></div>
            <div><label for="bot-level">${esc(t("lobby.bot_level"))}</label><select id="bot-level">
              ${BOT_LEVELS.map((l) => `<option value="${l}" ${l === "normal" ? "selected" : ""}>${esc(t("lobby.bot_level." + l))}</option>`).join("")}</select></div>
            <div><label for="max-fan">${esc(t("lobby.max_fan"))}</label><select id="max-fan">
              ${MAX_FAN_CHOICES.map((n) => `<option value="${n ?? ""}" ${n === (chosen.max_fan ?? null) ? "selected" : ""}>${n ?? "—"}</option>`).join("")}</select></div>
          </div>
          <details><summary>${esc(t("lobby.options"))}</summary><div class="grid">${optionFields}</div></details>
          <p><button class="btn btn-primary" type="submit">${esc(t("lobby.create"))}</button></p>
        </form>
        ${this.created ? `<div role="status"><p>${esc(t("lobby.invite"))}: <strong data-testid="invite">${esc(this.created.invite)}</strong></p>
          <p>${esc(t("lobby.invite_link"))}: <span class="mono">${esc(link)}</span>
          <button class="btn btn-small" data-copy="${esc(link)}">${esc(t("lobby.copy"))}</button></p>
          <button class="btn btn-ok" data-sit="${esc(this.created.invite)}">${esc(t("lobby.sit"))}</button></div>` : ""}
        ${oneFieldForm("invite-form", "invite-code", t("lobby.invite"), 16, t("lobby.join_invite"))}
      </section>
      <section class="card" aria-labelledby="watch-title">
        <h2 id="watch-title">${esc(t("lobby.watch"))}</h2>
        ${this.live.length ? `<ul>${this.live.slice(0, 20).map((x) => `<li>${esc(this.roomLabel(x.room))} · ${x.players.filter(Boolean).map((p) => profileLink(p.name, esc(p.name))).join(", ")}
          <button class="btn btn-small" data-watch="${esc(x.table)}">${esc(t("lobby.watch"))}</button></li>`).join("")}</ul>` : `<p class="muted">${esc(t("lobby.no_tables"))}</p>`}
        ${oneFieldForm("watch-form", "watch-id", t("lobby.table_id"), 40, t("lobby.watch"))}
      </section>
      <section class="card" aria-labelledby="history-title">
        <h2 id="history-title">${esc(t("lobby.history"))}</h2>
        ${this.history.length ? `<table class="history"><thead><tr><th>${esc(t("lobby.when"))}</th><th>${esc(t("lobby.hand_id"))}</th>
          <th>${esc(t("lobby.result"))}</th><th>${esc(t("lobby.record"))}</th></tr></thead><tbody>
          ${this.history.map((h) => `<tr><td>${esc(new Date(h.finished_at * 1000).toLocaleString())}</td><td class="mono">${esc(h.id)}</td>
            <td class="${h.amount > 0 ? "plus" : h.amount < 0 ? "minus" : ""}">${h.amount > 0 ? "+" : ""}${fmt(h.amount)}</td>
            <td><a href="${esc(h.record)}" download="${esc(h.id)}.json">${esc(t("lobby.download"))}</a>
              · <a href="/replay/${encodeURIComponent(h.id)}">${esc(t("lobby.replay"))}</a>
              · <a href="/replay/${encodeURIComponent(h.id)}?key=${encodeURIComponent(new URL(h.share, location.origin).searchParams.get("key"))}"
                title="${esc(t("lobby.share_tip"))}">${esc(t("lobby.share"))}</a></td></tr>`).join("")}
          </tbody></table>` : `<p class="muted">${esc(t("lobby.no_history"))}</p>`}
      </section>
      <nav class="card" aria-label="${esc(t("nav.label"))}">
        <h2>${esc(t("nav.label"))}</h2>
        <p><a href="/calc">${esc(t("nav.calc"))}</a> · <a href="/rules">${esc(t("nav.rules"))}</a>
          · <a href="/guide/exchange">${esc(t("nav.guide"))}</a> · <a href="/replay">${esc(t("nav.replay"))}</a></p>
      </nav></div>`;
  }
}
