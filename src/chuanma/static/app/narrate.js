// An engine event, as a seat is shown it (docs/protocol.md), told in one sentence in the current
// language: the table's ticker, the replay viewer and the rule guides all word events here.
// Suits and exchange directions are i18n.js's shared words; payment reasons and end reasons are the
// server's (/api/portal/words: chuanma.narration, which the terminal and `chuanma replay` use too).
import { STRINGS, addStrings, getLang, t } from "./i18n.js";
import { run, splitTiles, tileName } from "./tiles.js";

/** Learn the server's words: reason.* and end.* in both languages. */
async function loadWords() {
  try {
    const res = await fetch("/api/portal/words");
    if (!res.ok) return;
    const table = await res.json();
    for (const [prefix, group] of [["reason", table.reasons], ["end", table.ends]]) {
      for (const [id, words] of Object.entries(group)) for (const l of ["zh", "en"]) STRINGS[l][`${prefix}.${id}`] = words[l];
    }
  } catch { /* the reasons are shown by their ids */ }
}

await loadWords();

addStrings({
  zh: {
    "ev.start": "开局，庄家 {seat}", "ev.deal": "{seat} 起手 {tiles}", "ev.deal_done": "发牌完毕，牌墙 {wall} 张",
    "ev.exchange_chosen": "{seat} 换出 {tiles}", "ev.exchange_chosen_hidden": "{seat} 选好了换出的三张",
    "ev.exchange": "换三张：{dir}", "ev.exchange_received": "{seat} 从 {from} 换来 {tiles}",
    "ev.void_chosen": "{seat} 定缺 {suit}", "ev.void_chosen_auto": "{seat} 只有两门，自动缺 {suit}",
    "ev.void_chosen_hidden": "{seat} 定好了缺门", "ev.voids": "亮缺：{voids}",
    "ev.draw": "{seat} 摸牌 {tile}（剩 {wall}）", "ev.draw_hidden": "{seat} 摸牌（剩 {wall}）",
    "ev.draw_replacement": "{seat} 杠后补牌 {tile}（剩 {wall}）", "ev.draw_replacement_hidden": "{seat} 杠后补牌（剩 {wall}）",
    "ev.discard": "{seat} 打出 {tile}", "ev.pong": "{seat} 碰 {tile}（{from} 打的）",
    "ev.chow": "{seat} 吃 {claimed}（{from} 打的），成 {run}",
    "ev.kong_exposed": "{seat} 明杠 {tile}（{from} 打的）", "ev.kong_concealed": "{seat} 暗杠 {tile}",
    "ev.kong_concealed_hidden": "{seat} 暗杠", "ev.kong_added": "{seat} 补杠 {tile}", "ev.kong_declared": "{seat} 要补杠 {tile}",
    "ev.kong_robbed": "{seat} 的补杠 {tile} 被抢", "ev.claim": "{seat} 回应：{claim}",
    "ev.hu_self": "{seat} 自摸 {tile}：{fans} = {total} 番（×{mult}）",
    "ev.hu_from": "{seat} 胡 {from} 的 {tile}：{fans} = {total} 番（×{mult}）",
    "ev.hu_robbed": "{seat} 抢杠胡 {from} 的 {tile}：{fans} = {total} 番（×{mult}）", "ev.no_fan": "平胡",
    "ev.payment": "{payer} 付给 {payee} {amount} 底（{reason}）", "ev.leave": "{seat} 离开牌桌",
    "ev.exhausted": "牌墙摸完：查花猪、查大叫、退税", "ev.end": "牌局结束（{reason}）",
    "act.name.discard": "打出", "act.name.pong": "碰", "act.name.chow": "吃", "act.name.kong": "杠", "act.name.hu": "胡",
    "act.name.pass": "过", "act.name.void": "定缺", "act.name.exchange": "换出", "act.name.leave": "离开",
  },
  en: {
    "ev.start": "The hand starts; dealer {seat}", "ev.deal": "{seat} is dealt {tiles}", "ev.deal_done": "Dealt; {wall} tiles in the wall",
    "ev.exchange_chosen": "{seat} gives {tiles}", "ev.exchange_chosen_hidden": "{seat} has chosen three tiles to give",
    "ev.exchange": "Exchange three: {dir}", "ev.exchange_received": "{seat} receives {tiles} from {from}",
    "ev.void_chosen": "{seat} is void in {suit}", "ev.void_chosen_auto": "{seat} holds two suits: void in {suit} automatically",
    "ev.void_chosen_hidden": "{seat} has chosen a void suit", "ev.voids": "Voids revealed: {voids}",
    "ev.draw": "{seat} draws {tile} ({wall} left)", "ev.draw_hidden": "{seat} draws ({wall} left)",
    "ev.draw_replacement": "{seat} draws the replacement {tile} ({wall} left)", "ev.draw_replacement_hidden": "{seat} draws a replacement ({wall} left)",
    "ev.discard": "{seat} discards {tile}", "ev.pong": "{seat} pongs {tile} from {from}",
    "ev.chow": "{seat} chows {claimed} from {from}: {run}",
    "ev.kong_exposed": "{seat} makes an exposed kong of {tile} from {from}", "ev.kong_concealed": "{seat} makes a concealed kong of {tile}",
    "ev.kong_concealed_hidden": "{seat} makes a concealed kong", "ev.kong_added": "{seat} adds {tile} to a pong (kong)",
    "ev.kong_declared": "{seat} declares an added kong of {tile}", "ev.kong_robbed": "{seat}'s added kong of {tile} is robbed",
    "ev.claim": "{seat} answers: {claim}",
    "ev.hu_self": "{seat} wins self-drawn on {tile}: {fans} = {total} fan (×{mult})",
    "ev.hu_from": "{seat} wins on {from}'s {tile}: {fans} = {total} fan (×{mult})",
    "ev.hu_robbed": "{seat} robs {from}'s kong of {tile}: {fans} = {total} fan (×{mult})", "ev.no_fan": "平胡 (no fan)",
    "ev.payment": "{payer} pays {payee} {amount} base ({reason})", "ev.leave": "{seat} leaves the table",
    "ev.exhausted": "The wall is exhausted: 查花猪, 查大叫, 退税", "ev.end": "The hand is over ({reason})",
    "act.name.discard": "discard", "act.name.pong": "pong", "act.name.chow": "chow", "act.name.kong": "kong", "act.name.hu": "win",
    "act.name.pass": "pass", "act.name.void": "void", "act.name.exchange": "give", "act.name.leave": "leave",
  },
});

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
