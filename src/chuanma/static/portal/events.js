// An engine event (the JSON of chuanma.engine's events, as a seat saw it) as one line of text.
import { t, getLang, seatName, suitName } from "./common.js";
import { tileName } from "/static/app/tiles.js";

const tile = (code) => (code ? `${tileName(code, getLang())} (${code})` : "");

function fans(list) {
  return list.map((f) => `${f.name} ${f.fan}`).join(" + ") || t("pev.no_fan");
}

/** The event as text in the current language (null for events the pages do not show). */
export function eventText(ev) {
  const seat = ev.seat != null ? seatName(ev.seat) : "";
  const v = { ...ev, seat, tile: tile(ev.tile) };
  switch (ev.type) {
    case "start": return t("pev.start", { seat: seatName(ev.dealer) });
    case "deal": return ev.hand ? t("pev.deal", { seat, hand: ev.hand }) : null;
    case "deal_done": return t("pev.deal_done", v);
    case "exchange_chosen": return ev.tiles ? t("pev.exchange_chosen", v) : t("pev.exchange_chosen_hidden", v);
    case "exchange": return t("pev.exchange", { direction: t(`pdir.${ev.direction}`) });
    case "exchange_received": return t("pev.exchange_received", v);
    case "void_chosen":
      if (!ev.suit) return t("pev.void_chosen_hidden", v);
      return t(ev.automatic ? "pev.void_chosen_auto" : "pev.void_chosen", { seat, suit: suitName(ev.suit) });
    case "voids": return t("pev.voids", { voids: ev.voids.map((s, i) => `${seatName(i)} ${suitName(s)}`).join(", ") });
    case "draw": {
      const key = (ev.replacement ? "pev.draw_replacement" : "pev.draw") + (ev.tile ? "" : "_hidden");
      return t(key, v);
    }
    case "discard": return t("pev.discard", v);
    case "pong": return t("pev.pong", v);
    case "chow": return t("pev.chow", { ...v, claimed: tile(ev.claimed) });
    case "kong":
      if (ev.kind === "concealed" && !ev.tile) return t("pev.kong_concealed_hidden", v);
      return t(`pev.kong_${ev.kind}`, v);
    case "kong_declared": return t("pev.kong_declared", v);
    case "kong_robbed": return t("pev.kong_robbed", v);
    case "claim": return t("pev.claim", { seat, claim: t(`pact.${Object.keys(ev.claim)[0]}`) });
    case "hu": {
      const key = ev.self_drawn ? "pev.hu_self" : ev.robbed_kong ? "pev.hu_robbed" : "pev.hu_from";
      return t(key, { ...v, fans: fans(ev.fans), total: ev.total, mult: ev.multiplier });
    }
    case "payment": return t("pev.payment", { ...ev, reason: t(`preason.${ev.reason}`) });
    case "leave": return t("pev.leave", v);
    case "exhausted": return t("pev.exhausted");
    case "end": return t("pev.end", { reason: t(`pend.${ev.reason}`) });
    default: return null;
  }
}

/** A decision of a record ({"seat": 0, "discard": "5m"}) as text. */
export function decisionText(d) {
  const [kind, value] = Object.entries(d).find(([k]) => k !== "seat");
  const what = typeof value === "string" ? (kind === "void" ? suitName(value) : value) : "";
  return `${seatName(d.seat)}: ${t(`pact.${kind}`)} ${what}`.trim();
}
