// Players' levels (GET /api/levels) and the links to their profiles, for the table and the lobby.
import { api } from "./api.js";
import { getLang, t } from "./i18n.js";
import { esc } from "./util.js";
import "./progress-strings.js";

const known = new Map();

/** Fetch the levels of ``names`` not known yet, or all of them ``again`` (at most 8 at once);
 * resolves true if any was fetched. */
export async function loadLevels(names, again = false) {
  const wanted = [...new Set(names.filter((n) => n && (again || !known.has(n))))].slice(0, 8);
  if (!wanted.length) return false;
  try {
    const data = await api(`/api/levels?names=${wanted.map(encodeURIComponent).join(",")}`);
    for (const n of wanted) known.set(n, data.players[n] || null);
    return true;
  } catch {
    return false;
  }
}

/** A player's level, if known: {level, zh, en, xp, next}. */
export function levelOf(name) { return known.get(name) || null; }

/** A level's name in the language shown: Lv.3 熟手 / Lv.3 Regular. */
export function levelName(level) {
  return t("level.full", { n: level.level, name: getLang() === "zh" ? level.zh : level.en });
}

/** The level badge of a player whose level is known ("" otherwise). */
export function levelBadge(name) {
  const level = levelOf(name);
  return level ? `<span class="badge badge-level" title="${esc(levelName(level))}">${esc(t("level.short", { n: level.level }))}</span>` : "";
}

/** A player's name as a link to their profile (opened in a new tab: the table goes on). */
export function profileLink(name, text) {
  return `<a class="name profile-link" href="/profile/${encodeURIComponent(name)}" target="_blank" rel="noopener">${text}</a>`;
}

/** The level badge's and the profile link's looks (kept here, beside what draws them). */
const style = document.createElement("style");
style.textContent = `.badge-level { background: #fff7e0; color: #7a5200; border: 1px solid #e0b84a; }
a.profile-link { color: inherit; text-decoration: underline dotted; text-underline-offset: 2px; }`;
document.head.append(style);
