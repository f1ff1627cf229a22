// An engine event, as a seat is shown it (docs/protocol.md), told in one sentence in the current
// language: the table's ticker, the replay viewer and the rule guides all word events here.
// The words (event templates, decision kinds, directions, suits, payment reasons, end reasons) are the
// server's, read once when the module loads (/api/portal/words: chuanma.narration, whose narrate()
// fills the same templates for `chuanma replay`; the terminal's ticker words reasons and ends with it).
import { STRINGS, getLang, t } from "./i18n.js";
import { run, splitTiles, tileName } from "./tiles.js";

/** Learn the server's words in both languages (ev.*, act.name.*, dir.*, suit.*, reason.*, end.*). */
async function loadWords() {
  try {
    const res = await fetch("/api/portal/words");
    if (!res.ok) return;
    const table = await res.json();
    for (const [prefix, group] of [["reason", table.reasons], ["end", table.ends], ["dir", table.directions]]) {
      for (const [id, words] of Object.entries(group)) for (const l of ["zh", "en"]) STRINGS[l][`${prefix}.${id}`] = words[l];
    }
    for (const [prefix, group] of [["ev", table.events], ["act.name", table.actions], ["suit", table.suits]]) {
      for (const l of ["zh", "en"]) for (const [id, text] of Object.entries(group[l])) STRINGS[l][`${prefix}.${id}`] = text;
    }
  } catch { /* the reasons are shown by their ids */ }
}

await loadWords();

/** A decision's kind in words (discard, pong, …, void, exchange, leave). */
export function actionName(kind) { return t(`act.name.${kind}`); }

/** A payment's reason in words (each kong kind apart). */
export function reasonName(reason) { return t(`reason.${reason}`); }

/**
 * The event in one sentence in the current language, each seat named by name(seat); null for an
 * event that has no sentence.
 */
export function narrate(ev, name) {
  const lang = getLang();
  const tile = (code) => (code ? tileName(code, lang) : "");
  const tiles = (text) => splitTiles(text).map(tile).join(" ");
  const v = { seat: ev.seat != null ? name(ev.seat) : "", from: ev.from != null ? name(ev.from) : "",
    tile: tile(ev.tile), wall: ev.wall };
  switch (ev.type) {
    case "start": return t("ev.start", { seat: name(ev.dealer) });
    case "deal": return ev.hand ? t("ev.deal", { ...v, tiles: tiles(ev.hand) }) : null;
    case "deal_done": return t("ev.deal_done", v);
    case "exchange_chosen": return t(ev.tiles ? "ev.exchange_chosen" : "ev.exchange_chosen_hidden", { ...v, tiles: tiles(ev.tiles) });
    case "exchange": return t("ev.exchange", { dir: t(`dir.${ev.direction}`) });
    case "exchange_received": return t("ev.exchange_received", { ...v, tiles: tiles(ev.tiles) });
    case "void_chosen":
      if (!ev.suit) return t("ev.void_chosen_hidden", v);
      return t(ev.automatic ? "ev.void_chosen_auto" : "ev.void_chosen", { ...v, suit: t(`suit.${ev.suit}`) });
    case "voids": {
      const each = ev.voids.map((s, i) => (s ? `${name(i)} ${t(`suit.${s}`)}` : null)).filter(Boolean);
      return t("ev.voids", { voids: each.join(lang === "zh" ? "、" : ", ") });
    }
    case "draw": return t((ev.replacement ? "ev.draw_replacement" : "ev.draw") + (ev.tile ? "" : "_hidden"), v);
    case "discard": return t("ev.discard", v);
    case "pong": return t("ev.pong", v);
    case "chow": return t("ev.chow", { ...v, claimed: tile(ev.claimed), run: run(ev.tile).map(tile).join(" ") });
    case "kong": return t(ev.kind === "concealed" && !ev.tile ? "ev.kong_concealed_hidden" : `ev.kong_${ev.kind}`, v);
    case "kong_declared": return t("ev.kong_declared", v);
    case "kong_robbed": return t("ev.kong_robbed", v);
    case "claim": return t("ev.claim", { ...v, claim: actionName(Object.keys(ev.claim)[0]) });
    case "hu": {
      const key = ev.self_drawn ? "ev.hu_self" : ev.robbed_kong ? "ev.hu_robbed" : "ev.hu_from";
      const fans = ev.fans.map((f) => `${f.name} ${f.fan}`).join(" + ") || t("ev.no_fan");
      return t(key, { ...v, fans, total: ev.total, mult: ev.multiplier });
    }
    case "payment": return t("ev.payment", { payer: name(ev.payer), payee: name(ev.payee), amount: ev.amount,
      reason: reasonName(ev.reason) });
    case "leave": return t("ev.leave", v);
    case "exhausted": return t("ev.exhausted");
    case "end": return t("ev.end", { reason: t(`end.${ev.reason}`) });
    default: return null;
  }
}
