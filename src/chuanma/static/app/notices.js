// Operators' announcements (docs/protocol.md, `announcement`): one banner per topic — an operator's
// notice, or the maintenance's countdown to the time no new table opens — which the player may
// dismiss (remembered for this tab until another announcement comes). `id` null takes it down.

import { t } from "./i18n.js";

const shown = new Map();  // topic -> the announcement shown
const DISMISSED = "chuanma.dismissed";
let ticker = 0;

function dismissed() {
  try { return JSON.parse(sessionStorage.getItem(DISMISSED) || "{}"); } catch { return {}; }
}

function dismiss(msg) {
  const done = { ...dismissed(), [msg.topic]: msg.id };
  try { sessionStorage.setItem(DISMISSED, JSON.stringify(done)); } catch { /* not remembered */ }
  shown.delete(msg.topic);
  render();
}

function countdown(at) {
  const left = Math.max(0, Math.round(at - Date.now() / 1000));
  if (!left) return t("notice.maintenance_now");
  const m = Math.floor(left / 60), s = left % 60;
  return t("notice.maintenance_in", { time: `${m}:${String(s).padStart(2, "0")}` });
}

function words(msg) {
  if (msg.topic !== "maintenance") return msg.text;
  return msg.text ? `${countdown(msg.at)} · ${msg.text}` : countdown(msg.at);
}

function render() {
  const box = document.getElementById("banners");
  if (!box) return;
  for (const topic of ["notice", "maintenance"]) {
    const id = `notice-${topic}`;
    const msg = shown.get(topic);
    let el = document.getElementById(id);
    if (!msg) { el?.remove(); continue; }
    if (!el) {
      el = document.createElement("div");
      el.id = id;
      el.className = `banner banner-notice banner-${topic}`;
      el.setAttribute("role", "status");
      el.dataset.testid = `notice-${topic}`;
      el.innerHTML = '<span class="notice-text"></span> <button type="button" class="btn btn-ghost notice-close"></button>';
      box.appendChild(el);
    }
    el.querySelector(".notice-text").textContent = words(msg);
    const close = el.querySelector(".notice-close");
    close.textContent = "×";
    close.title = t("notice.dismiss");
    close.setAttribute("aria-label", t("notice.dismiss"));
    close.onclick = () => dismiss(msg);
  }
  clearInterval(ticker);
  if (shown.has("maintenance")) ticker = setInterval(render, 1000);
}

/** Show (or take down) the banner of an `announcement`. */
export function onAnnouncement(msg) {
  const over = msg.until !== null && msg.until !== undefined && msg.until * 1000 <= Date.now();
  if (msg.id === null || over || dismissed()[msg.topic] === msg.id) shown.delete(msg.topic);
  else shown.set(msg.topic, msg);
  render();
}

/** Show the banners again in the current language. */
export function renderNotices() { render(); }
