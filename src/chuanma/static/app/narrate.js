// An engine event, as a seat is shown it (docs/protocol.md), told in one sentence in the current
// language: the table's ticker, the replay viewer and the rule guides all word events here.
// The words (event templates, decision kinds, directions, suits, payment reasons, end reasons) are the
// server's, read once when the module loads (/api/portal/words: chuanma.narration, whose narrate()
// fills the same templates for `chuanma replay` and the terminal's ticker).
import { STRINGS, getLang, t } from "./i18n.js";
import { run, splitTiles, tileName } from "./tiles.js";

/** Learn the server's words in both languages (ev.*, evyou.*, act.name.*, dir.*, suit.*, reason.*, end.*). */
async function loadWords() {
  try {
    const res = await fetch("/api/portal/words");
    if (!res.ok) return;
    const table = await res.json();
    for (const [prefix, group] of [["reason", table.reasons], ["end", table.ends], ["dir", table.directions],
      ["fan.name", table.fans]]) {
      for (const [id, words] of Object.entries(group)) for (const l of ["zh", "en"]) STRINGS[l][`${prefix}.${id}`] = words[l];
    }
    for (const [prefix, group] of [["ev", table.events], ["evyou", table.events_you], ["act.name", table.actions],
      ["suit", table.suits]]) {
      for (const l of ["zh", "en"]) for (const [id, text] of Object.entries(group[l])) STRINGS[l][`${prefix}.${id}`] = text;
    }
  } catch { /* the reasons are shown by their ids */ }
}

await loadWords();

/** A win's fan line named in the current language (a fan the server's table lacks keeps its own name). */
function fanName(line) {
  const key = `fan.name.${line.id}`;
  return key in STRINGS[getLang()] ? t(key) : line.name;
}

/** A decision's kind in words (discard, pong, …, void, exchange, leave). */
export function actionName(kind) { return t(`act.name.${kind}`); }

/** A payment's reason in words (each kong kind apart). */
export function reasonName(reason) { return t(`reason.${reason}`); }

/**
 * The event in one sentence in the current language, each seat named by name(seat); null for an
 * event that has no sentence. With me, that seat is the viewer: named ev.you, its own events in the
 * evyou.* words where the language has them.
 */
export function narrate(ev, name, me = null) {
  const lang = getLang();
  const subject = ev.type === "payment" ? ev.payer : ev.type === "start" ? ev.dealer : ev.seat;
  const own = me != null && subject === me;
  const say = (key, vars) => t(own && STRINGS[lang][`evyou.${key}`] ? `evyou.${key}` : `ev.${key}`, vars);
  const who = (s) => (me != null && s === me ? t("ev.you") : name(s));
  const tile = (code) => (code ? tileName(code, lang) : "");
  const tiles = (text) => splitTiles(text).map(tile).join(" ");
  const v = { seat: ev.seat != null ? who(ev.seat) : "", from: ev.from != null ? who(ev.from) : "",
    tile: tile(ev.tile), wall: ev.wall };
  switch (ev.type) {
    case "start": return say("start", { seat: who(ev.dealer) });
    case "deal": return ev.hand ? say("deal", { ...v, tiles: tiles(ev.hand) }) : null;
    case "deal_done": return say("deal_done", v);
    case "exchange_chosen": return say(ev.tiles ? "exchange_chosen" : "exchange_chosen_hidden", { ...v, tiles: tiles(ev.tiles) });
    case "exchange": return say("exchange", { dir: t(`dir.${ev.direction}`) });
    case "exchange_received": return say("exchange_received", { ...v, tiles: tiles(ev.tiles) });
    case "void_chosen":
      if (!ev.suit) return say("void_chosen_hidden", v);
      return say(ev.automatic ? "void_chosen_auto" : "void_chosen", { ...v, suit: t(`suit.${ev.suit}`) });
    case "voids": {
      const each = ev.voids.map((s, i) => (s ? t("ev.void_each", { seat: who(i), suit: t(`suit.${s}`) }) : null))
        .filter(Boolean);
      return say("voids", { voids: each.join(lang === "zh" ? "、" : ", ") });
    }
    case "draw": return say((ev.replacement ? "draw_replacement" : "draw") + (ev.tile ? "" : "_hidden"), v);
    case "discard": return say("discard", v) + (ev.automatic ? t("ev.automatic") : "");
    case "pong": return say("pong", v);
    case "chow": return say("chow", { ...v, claimed: tile(ev.claimed), run: run(ev.tile).map(tile).join(" ") });
    case "kong": return say(ev.kind === "concealed" && !ev.tile ? "kong_concealed_hidden" : `kong_${ev.kind}`, v)
      + (ev.late ? t("ev.late") : "");
    case "kong_declared": return say("kong_declared", v);
    case "kong_robbed": return say("kong_robbed", v);
    case "claim": return say("claim", { ...v, claim: actionName(Object.keys(ev.claim)[0]) });
    case "hu": {
      const key = ev.self_drawn ? "hu_self" : ev.robbed_kong ? "hu_robbed" : "hu_from";
      const fans = ev.fans.map((f) => `${fanName(f)} ${f.fan}`).join(" + ") || t("ev.no_fan");
      return say(key, { ...v, fans, total: ev.total, mult: ev.multiplier }) + (ev.forced ? t("ev.forced") : "");
    }
    case "payment": return say("payment", { payer: who(ev.payer), payee: who(ev.payee), amount: ev.amount,
      reason: reasonName(ev.reason) });
    case "leave": return say("leave", v);
    case "exhausted": return say("exhausted");
    case "end": return say("end", { reason: t(`end.${ev.reason}`) });
    default: return null;
  }
}
