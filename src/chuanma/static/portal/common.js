// The portal pages' frame and helpers: the header with the portal's links, JSON fetches,
// element and tile builders. Strings are in strings.js; tiles come from the client's tiles.js.
import { t, applyI18n, languageButton, onLangChange, getLang, optionText, choiceText, fanName } from "/static/app/i18n.js";
import { tileElement } from "/static/app/tiles.js";
import "./strings.js";
import "/static/app/progress-strings.js";

/** The topics of the rules explained (/guide/<topic>), in order: chuanma.portal.examples.TOPICS. */
export const GUIDE_TOPICS = ["exchange", "void", "kongs", "call_transfer", "flower_pig", "chadajiao", "refund", "xuezhan_xueliu"];

/** The portal's pages, for any header or nav: [href, string key]. */
export const PORTAL_LINKS = [
  ["/calc", "portal.nav.calc"], ["/rules", "portal.nav.rules"], [`/guide/${GUIDE_TOPICS[0]}`, "portal.nav.guide"],
  ["/replay", "portal.nav.replay"], ["/leaderboard", "portal.nav.leaderboard"],
];

/** An element: el("div", {class: "x", onclick: fn}, child, "text"…). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c != null) node.append(c);
  return node;
}

/** A row of tiles ("5m" codes; null for a face-down tile). */
export function tileRow(codes, cls = "") {
  const row = el("span", { class: `row ${cls}` });
  for (const code of codes) row.append(el("span", { class: "tile" }, tileElement(code, { lang: getLang() })));
  return row;
}

/** The page header: the brand, the portal's links (the current one marked) and the language switch. */
export function frame(active) {
  const nav = el("nav", { class: "portal-nav", "aria-label": t("portal.nav.label") });
  for (const [href, key] of PORTAL_LINKS) {
    const current = href === active || (active.startsWith("/guide") && href.startsWith("/guide"));
    nav.append(el("a", { href, class: "btn btn-ghost", "data-i18n": key, "aria-current": current ? "page" : null }));
  }
  const header = el("header", { class: "topbar portal-top" },
    el("a", { class: "brand", href: "/" }, "川麻 chuanma"), nav, languageButton());
  document.body.prepend(header);
  const refresh = () => { applyI18n(document); document.title = t(document.body.dataset.title) + " · chuanma"; };
  refresh();
  onLangChange(refresh);
}

/** GET or POST JSON: {ok, status, data} (data is the server's {code, message} on an error). */
export async function api(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body) };
  try {
    const res = await fetch(path, { credentials: "same-origin", ...init });
    let data = null;
    try { data = await res.json(); } catch { data = { message: res.statusText }; }
    return { ok: res.ok, status: res.status, data };
  } catch (err) {
    return { ok: false, status: 0, data: { message: t("portal.offline") } };
  }
}

/** A seat's name for the pages: 座位 0 / Seat 0 (你 / you for the calculator's winner). */
export function seatName(seat) { return t("portal.seat", { n: seat }); }

/** A suit's name: 万 / Characters. */
export function suitName(suit) { return t(`suit.${suit}`); }

export { t, getLang, onLangChange, optionText, choiceText, fanName };
