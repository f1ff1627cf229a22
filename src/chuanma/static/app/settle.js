// The settlement panel (every chip explained) and the fairness panel, shown as dialogs.

import { tileImg, tileName } from "./tiles.js";
import { t, getLang, fanName, addStrings } from "./i18n.js";
import { esc, fmt, base64url } from "./util.js";
import { reasonName } from "./narrate.js";
import { NEXT_HAND } from "./table.js";

const WIN_REASONS = new Set(["zimo", "dianpao", "qianggang", "call_transfer"]);

addStrings({ zh: { "settle.player": "玩家" }, en: { "settle.player": "Player" } });

/** Open a dialog with html, shown from its top; returns {el, close}. Escape and the close button close it. */
export function openModal(html, { label, onClose } = {}) {
  const back = document.createElement("div");
  back.className = "modal-back";
  back.innerHTML = `<div class="modal" role="dialog" aria-modal="true" aria-label="${esc(label || "")}">${html}</div>`;
  const before = document.activeElement;
  const close = () => {
    back.remove();
    document.removeEventListener("keydown", onKey);
    if (before && before.focus) before.focus();
    if (onClose) onClose();
  };
  const onKey = (ev) => { if (ev.key === "Escape") close(); };
  document.addEventListener("keydown", onKey);
  back.addEventListener("click", (ev) => { if (ev.target === back || ev.target.closest("[data-close]")) close(); });
  document.body.appendChild(back);
  (back.querySelector("[autofocus]") || back.querySelector("button, a, input"))?.focus({ preventScroll: true });
  back.scrollTop = 0;
  return { el: back, close };
}

function signed(n) {
  return `<span class="${n > 0 ? "plus" : n < 0 ? "minus" : ""}">${n > 0 ? "+" : ""}${fmt(n)}</span>`;
}

function tileText(code) {
  return `<span class="tiles-xs" style="display:inline-block;vertical-align:middle">${tileImg(code, { lang: getLang() })}</span> ${esc(tileName(code, getLang()))}`;
}

/** The reason of a payment in words (刮风下雨 for every kong kind). */
function reasonText(reason) {
  return reason.startsWith("kong_") ? t("reason.kong") : reasonName(reason);
}

/**
 * The settlement panel for a hand_end message at a table page: {html, parts}. html is the panel with
 * the title, the chips per seat and the buttons; parts ([slot, html] in order: each win, then the other
 * payments) fill its empty slots, a frame apart (drawInParts), so that no frame lays out the whole panel.
 */
export function settlement(msg, table) {
  const name = (s) => table.name(s);
  const mine = (s) => table.seat != null && s === table.seat;  // the viewer's own seat: "You win", "dealt in by you"
  const base = table.base();
  const result = msg.result;
  const wins = result.winners.map((w) => {
    const own = result.payments.filter((p) => p.seq === w.seq && p.payee === w.seat);
    const fans = w.fans.map((f) => `<li>${esc(fanName(f))} — ${f.fan} ${esc(t("settle.fan_unit"))}</li>`).join("");
    const how = w.self_drawn ? t("settle.zimo") : mine(w.from) ? t("settle.from_you") : t("settle.from", { who: name(w.from) });
    return ["wins", `<div class="settle-win${w.jipin ? " jipin" : ""}" data-testid="win">
      <h3>${esc(mine(w.seat) ? t("settle.win_you", { tile: "" }) : t("settle.win", { who: name(w.seat), tile: "" }))}${tileText(w.tile)}
        ${w.jipin ? `<span class="jipin-mark">★ ${esc(t("settle.jipin"))}</span>` : ""}</h3>
      <p>${[how, ...situations(w)].map(esc).join(" · ")}</p>
      <ul class="fan-list">${fans || `<li>${esc(t("settle.plain"))}</li>`}</ul>
      <p><strong>${esc(t("settle.fan_total", { n: w.total }))}</strong> → ${esc(t("settle.multiplier", { n: w.multiplier }))}
        × ${esc(t("settle.base", { n: fmt(base) }))}</p>
      <table class="pay-table">${payHead()}<tbody>${own.map((p) => payRow(p, name, base)).join("")}</tbody></table>
    </div>`];
  });
  const others = result.payments.filter((p) => !(WIN_REASONS.has(p.reason) && result.winners.some((w) => w.seq === p.seq && w.seat === p.payee)));
  const otherRows = others.map((p) => payRow(p, name, base)).join("");
  const payments = otherRows ? [["payments", `<h3>${esc(t("settle.payments"))}</h3><table class="pay-table">${payHead()}<tbody>${otherRows}</tbody></table>`]] : [];
  // the hand's score in chips and the chips moved differ only when a balance could not pay it all
  // (chips never go below zero): the score's column is shown then only
  const capped = msg.chips.some((c, i) => c !== result.deltas[i] * base);
  const seats = [0, 1, 2, 3].map((s) => `<tr data-testid="chips-${s}"><td>${esc(name(s))}</td>
      ${capped ? `<td class="num" data-testid="hand-total">${signed(result.deltas[s] * base)}</td>` : ""}
      <td class="num" data-testid="chips">${signed(msg.chips[s])}</td>
      <td class="num">${fmt(msg.balances[s])}</td></tr>`).join("");
  const closed = table.closedReason;
  const html = `<h2 id="settle-title">${esc(t("settle.title"))} · ${esc(t("table.hand", { n: msg.hand + 1 }))}
      <small class="muted">${esc(t("end." + msg.end_reason))}</small></h2>
    ${wins.length ? `<div data-part="wins"></div>` : `<p>${esc(t("settle.no_win"))}</p>`}
    <div data-part="payments"></div>
    <h3>${esc(t("settle.chips"))}</h3>
    <table class="chip-table"><thead><tr><th><span class="sr-only">${esc(t("settle.player"))}</span></th>${capped ? `<th class="num">${esc(t("settle.hand_total"))}</th>` : ""}
      <th class="num">${esc(t("settle.chips"))}</th><th class="num">${esc(t("settle.balance"))}</th></tr></thead><tbody>${seats}</tbody></table>
    ${capped ? `<p class="muted">${esc(t("settle.capped"))}</p>` : ""}
    <div class="buttons settle-buttons" data-testid="settle-buttons">
      ${closed || table.spectating ? "" : `<span data-ready-box>${table.readyControl(NEXT_HAND)}</span>`}
      <button class="btn btn-ok" data-settle="again" data-testid="play-again">${esc(t("settle.again"))}</button>
      <a class="btn" data-testid="download" href="${esc(msg.record)}" download="${esc(msg.hand_id)}.json">${esc(t("settle.download"))}</a>
      <a class="btn" data-testid="verify" data-verify href="/static/verify.html" target="_blank" rel="noopener">${esc(t("settle.verify"))}</a>
      <button class="btn" data-settle="lobby">${esc(t("settle.lobby"))}</button>
    </div>`;
  return { html, parts: [...wins, ...payments] };
}

/**
 * Append each [slot, html] of parts to its [data-part=slot] in root, one a frame, while root is shown
 * (its top, the wins, stays in view).
 */
export function drawInParts(root, parts) {
  let next = 0;
  const step = () => {
    if (!root.isConnected || next === parts.length) return;
    const [slot, html] = parts[next++];
    root.querySelector(`[data-part="${slot}"]`).insertAdjacentHTML("beforeend", html);
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

/** The header of a table of payments (each cell of a row has its column's header). */
function payHead() {
  return `<thead><tr><th>${esc(t("settle.reason"))}</th><th>${esc(t("settle.who_pays"))}</th>
    <th class="num">${esc(t("settle.amount"))}</th></tr></thead>`;
}

function payRow(p, name, base) {
  return `<tr><td>${esc(reasonText(p.reason))}</td><td>${esc(name(p.payer))} → ${esc(name(p.payee))}</td>
    <td class="num">${fmt(p.amount)} × ${fmt(base)} = ${fmt(p.amount * base)}</td></tr>`;
}

/** The situations of a win (海底, 杠上花, 抢杠胡 …) in words, a robbed kong among them. */
function situations(w) {
  const ids = [...(w.situations || [])];
  if (w.robbed_kong && !ids.includes("robbing_kong")) ids.push("robbing_kong");
  return ids.map((s) => t(`sit.${s}`));
}

/** Point a "verify" link at the verifier page with the record in its address (fetched once). */
export async function armVerifyLink(link, recordUrl) {
  try {
    const response = await fetch(recordUrl, { credentials: "same-origin" });
    if (!response.ok) return;
    link.href = `/static/verify.html#record=${base64url(await response.text())}`;
    link.dataset.ready = "1";
  } catch { /* the plain verifier page stays linked */ }
}

/** The fairness panel's HTML for a table page. */
export function fairnessHTML(table) {
  const end = table.handEnd;
  const seeds = end?.seeds?.client_seeds || table.clientSeeds;
  const editable = !table.dealt && !table.readySent && !table.spectating;
  return `<h2>${esc(t("fair.title"))} · ${esc(t("table.hand", { n: (table.hand ?? 0) + 1 }))}</h2>
    <p>${esc(t("fair.explain"))}</p>
    <dl class="fair">
      <dt>${esc(t(table.vrf ? "fair.public_key" : "fair.commitment"))}</dt><dd class="mono" data-testid="commitment">${esc(table.commitment || "—")}</dd>
      <dt><label for="seed-input">${esc(t("fair.client_seed"))}</label></dt>
      <dd>${table.spectating ? "—" : `<input id="seed-input" maxlength="64" value="${esc(table.seedValue())}" ${editable ? "" : "disabled"}>
        <div class="muted">${esc(t("fair.seed_help"))}</div>`}</dd>
      <dt>${esc(t("fair.seeds"))}</dt><dd class="mono">${seeds ? seeds.map(esc).join(" · ") : esc(t("fair.after_deal"))}</dd>
      <dt>${esc(t(table.vrf ? "fair.proof" : "fair.reveal"))}</dt><dd class="mono" data-testid="reveal">${end ? esc(end.seeds.proof || end.seeds.server_seed) : esc(t("fair.pending"))}</dd>
    </dl>
    <div class="buttons">
      ${editable ? `<button class="btn btn-primary" data-fair="ready">${esc(t("fair.ready"))}</button>` : ""}
      ${end ? `<a class="btn" href="${esc(end.record)}" download="${esc(end.hand_id)}.json">${esc(t("fair.download"))}</a>
        <a class="btn" data-verify href="/static/verify.html" target="_blank" rel="noopener">${esc(t("fair.verify"))}</a>` : ""}
      <button class="btn" data-close>${esc(t("common.close"))}</button>
    </div>`;
}
