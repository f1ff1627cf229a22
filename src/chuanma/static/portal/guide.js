// The rules explained (换三张, 定缺, 刮风下雨, 呼叫转移, 查花猪, 查大叫, 退税, 血战 vs 血流), each with
// worked examples the server plays through the engine (/api/portal/examples/<topic>).
import { GUIDE_TOPICS, api, el, frame, getLang, onLangChange, seatName, suitName, t, tileRow } from "./common.js";
import { addPresetNames } from "/static/app/i18n.js";
import { narrate } from "/static/app/narrate.js";
import { splitTiles } from "/static/app/tiles.js";

frame("/guide");

const topic = location.pathname.split("/")[2];
const isTopic = GUIDE_TOPICS.includes(topic);

const TEXT = {
  exchange: {
    zh: ["发完牌后、定缺之前，每家选出同一花色的三张牌扣下（别人看不到选了什么）。四家都选好后才公布方向：换给下家、上家或对家，每家拿到别家给的三张。",
      "下面的例子中方向是“换给对家”：座位 0 和 2 互换，座位 1 和 3 互换。"],
    en: ["After the deal and before the void suit is chosen, every seat picks three tiles of one suit and lays them face down (nobody sees what the others chose). Only when all four have chosen is the direction revealed: to the next seat, the previous seat or across; each seat takes the three tiles given to it.",
      "In the example the direction is across: seats 0 and 2 swap, seats 1 and 3 swap."],
  },
  void: {
    zh: ["每家选一门花色“缺”掉（定缺），到亮缺时才让别人知道。手里只剩两门的自动缺第三门。",
      "缺门的牌必须先打：手里还有缺门牌时，打别的牌会被拒绝。手里有缺门牌不能胡；到流局时仍有缺门牌就是花猪。"],
    en: ["Every seat chooses one suit to be void in (定缺); the others learn it when the voids are revealed. A hand holding only two suits is void in the third automatically.",
      "Void-suit tiles must be discarded first: while a seat holds one, any other discard is refused. A hand holding its void suit cannot win, and one that still does when the wall runs out is a flower pig."],
  },
  kongs: {
    zh: ["开杠当场收钱，这就是刮风下雨：暗杠（下雨）每家付 2 底；明杠（刮风）由点杠的人付 2 底（承包制，或按选项家家有：其他两家各付 1 底）；补杠（刮风）每家付 1 底。",
      "过手杠（碰后没有马上补、过了一轮才补）按默认规则不收钱。补杠可以被抢杠胡。"],
    en: ["A kong is paid the moment it is declared — 刮风下雨, wind and rain: a concealed kong (下雨) earns 2 base from each other seat; an exposed kong (刮风) 2 base from the seat that discarded the tile (or, with exposed_kong everyone, 1 from each of the other two as well); an added kong (刮风) 1 base from each other seat.",
      "An added kong made later than the turn it could first be made (过手杠) earns nothing under the default rules. An added kong can be robbed (抢杠胡)."],
  },
  call_transfer: {
    zh: ["呼叫转移：开杠后打出的牌点炮（杠上炮），这个杠收到的钱转给胡牌的人；一炮多响时按默认规则每个胡牌的人都拿到一份（或按选项只给第一个）。",
      "例子中座位 0 暗杠 9 条，每家付 2 底，然后打出缺门的 5 筒，三家同时胡：每家都拿到杠钱 6 底，外加点炮的钱。"],
    en: ["Call transfer (呼叫转移): when the discard a player makes after its kong is won on (杠上炮), the money that kong earned goes to the winner; when several seats win on it, each winner receives it under the default rules (or only the first, by option).",
      "In the example seat 0 makes a concealed kong of 9 Bamboo, paid 2 by each other seat, then discards its void 5 Dots; the three others all win on it: each receives the kong's 6 base besides its win."],
  },
  flower_pig: {
    zh: ["查花猪：牌摸完流局时，手里还有缺门牌的人是花猪，付给每个不是花猪的人封顶的钱（默认 16 底；有封顶时是 2 的封顶番数次方）。",
      "下面的例子中座位 1 缺万却满手万字，流局时付给其他三家各 16 底。"],
    en: ["Flower pig (查花猪): when the wall runs out, a seat still holding its void suit is a flower pig and pays every seat that is not one the capped value (16 base by default; 2 to the power of max_fan where a cap is set).",
      "In the example seat 1 is void in Characters yet holds a hand full of them: at the exhaustive draw it pays 16 base to each of the other three."],
  },
  chadajiao: {
    zh: ["查大叫：流局时没听牌（也不是花猪）的人，付给每个听牌的人他能胡的最大番数的钱（不算自摸等情形番）。",
      "例子中座位 2 听 9 筒和 3 条，座位 0 和 3 没听牌，各付给座位 2 它最大番数的钱。"],
    en: ["Not-ready check (查大叫): at an exhaustive draw each seat that is not ready (and not a flower pig) pays every ready seat the value of the best hand it waits on (situational fans such as self-drawn not counted).",
      "In the example seat 2 waits on 9 Dots and 3 Bamboo; seats 0 and 3 are not ready and each pay seat 2 the value of its best wait."],
  },
  refund: {
    zh: ["退税：流局时没听牌的人要把这手牌开杠收到的钱退还给付钱的人。",
      "例子中座位 0 暗杠 1 条收了每家 2 底，流局时没听牌，把 6 底退回给三家。"],
    en: ["Kong refund (退税): at an exhaustive draw a seat that is not ready returns the kong money it collected in the hand to those who paid it.",
      "In the example seat 0 made a concealed kong of 1 Bamboo, collecting 2 base from each seat; it is not ready when the wall runs out, so it returns the 6 base."],
  },
  xuezhan_xueliu: {
    zh: ["血战到底：胡了的人离场，其余的人继续打，直到三家胡牌或牌摸完。血流成河：胡了的人留在牌桌上，手牌锁定（只能摸打、按选项可以不改听的杠），可以一次次再胡，直到牌摸完。",
      "下面两个例子是同一副牌、同样的前几步：座位 2 抢杠胡之后，血战里它离场，血流里它继续胡。"],
    en: ["血战到底 (blood battle): a winner leaves the hand and the others play on until three have won or the wall runs out. 血流成河 (blood river): a winner stays at the table with its hand locked (it only draws and discards, and by option may kong without changing its waits) and may win again and again until the wall runs out.",
      "The two examples play the same wall with the same first moves: after seat 2 robs a kong, in 血战 it leaves, in 血流 it keeps winning."],
  },
};

function hands(list, melds) {
  return el("ul", { class: "hands-list" }, list.map((h, s) => el("li", {},
    el("span", { class: "who" }, seatName(s)), el("span", { class: "tiles-sm" }, tileRow(splitTiles(h))),
    ...(melds ? melds[s].map((m) => el("span", { class: "meld tiles-sm" }, tileRow(Array(m.kind === "kong" ? 4 : 3).fill(m.tile)))) : []))));
}

/** The string for key, or fallback when there is none. */
function known(key, fallback) {
  const s = t(key);
  return s === key ? fallback : s;
}

/** The rules an example is played under: the preset (named, with its id) and each option it changes. */
function rulesText(rules) {
  const { preset, options } = typeof rules === "string" ? { preset: rules, options: {} } : rules;
  const words = (v) => (v === true ? "on" : v === false ? "off" : String(v));
  return [`${known(`preset.${preset}`, preset)} [${preset}]`,
    ...Object.entries(options).map(([name, v]) => `${name}: ${words(v)}`)].join(", ");
}

function example(x) {
  const steps = el("ol", { class: "steps" });
  for (const step of x.steps) {
    if (step.refused) { steps.append(el("li", { class: "refused" }, t("guide.refused", { reason: step.refused }))); continue; }
    if (step.decision === "play_out") steps.append(el("li", { class: "muted" }, t("guide.play_out")));
    for (const ev of step.events) {
      if (step.decision === "play_out" && !["hu", "payment", "exhausted", "end", "kong"].includes(ev.type)) continue;
      const text = ev.type === "deal" ? null : narrate(ev, seatName);
      if (text) steps.append(el("li", { class: ev.type === "payment" ? "pay" : "" }, text));
    }
  }
  const result = el("p", { "data-testid": `deltas-${x.id}` }, x.deltas.map((d, s) => `${seatName(s)} ${d > 0 ? "+" : ""}${d}`).join(" · "));
  return el("section", { class: "card", "data-testid": `example-${x.id}` },
    el("h2", {}, `${t("guide.example")}: ${known(`guide.ex.${x.id}`, x.id)}`),
    el("p", { class: "muted" }, t("guide.rules", { rules: rulesText(x.rules) })),
    el("h3", {}, t("guide.hands")), hands(x.hands),
    el("h3", {}, t("guide.steps")), steps,
    el("h3", {}, t("guide.after")), hands(x.hands_after, x.melds),
    el("h3", {}, t("guide.result")), result,
    x.finished ? el("p", {}, el("a", { href: "/replay?example", "data-testid": `replay-${x.id}`,
      onclick: () => sessionStorage.setItem("chuanma.replay", JSON.stringify(x.record)) }, t("guide.replay"))) : null);
}

let data = null;

/** The page for an unknown topic (the server answers it with status 404): says so and names the topics. */
function unknownTopic() {
  let name = topic;
  try { name = decodeURIComponent(topic); } catch { /* shown as typed */ }
  const topics = GUIDE_TOPICS.map((n) => t(`topic.${n}`)).join(getLang() === "zh" ? "、" : ", ");
  $("title").textContent = t("guide.none_title");
  $("text").replaceChildren(el("p", { "data-testid": "no-topic" }, t("guide.none", { name, topics })));
}

function render() {
  $("topics").replaceChildren(...GUIDE_TOPICS.map((name) => el("a", { href: `/guide/${name}`, class: "btn btn-small",
    "aria-current": name === topic ? "page" : null }, t(`topic.${name}`))));
  if (!isTopic) { unknownTopic(); return; }
  $("title").textContent = t(`topic.${topic}`);
  $("text").replaceChildren(...TEXT[topic][getLang()].map((p) => el("p", {}, p)));
  if (data) $("examples").replaceChildren(...data.examples.map(example));
}

function $(id) { return document.getElementById(id); }

onLangChange(render);
render();
if (isTopic) {
  const names = await api("/api/presets");  // the presets' names (chuanma.rules.PRESET_NAMES)
  if (names.ok) addPresetNames(names.data.presets);
  const res = await api(`/api/portal/examples/${topic}`);
  if (res.ok) { data = res.data; render(); } else $("error").textContent = res.data.message;
}
