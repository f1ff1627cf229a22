// The leaderboards (/leaderboard): registered players by rating per rule family and period
// (GET /api/leaderboard), each linked to their profile, and the bots' ratings to measure against.
import { api, el, frame, onLangChange, t } from "./common.js";
import { levelName } from "/static/app/levels.js";

frame("/leaderboard");

const $ = (id) => document.getElementById(id);
const FAMILIES = ["all", "xuezhan", "xueliu", "classic", "dazhong"];
const PERIODS = ["week", "all"];
const query = new URLSearchParams(location.search);
let family = FAMILIES.includes(query.get("family")) ? query.get("family") : "all";
let period = PERIODS.includes(query.get("period")) ? query.get("period") : "week";
let data = null;

function options() {
  $("family").replaceChildren(...FAMILIES.map((f) => el("option", { value: f, selected: f === family }, t(`family.${f}`))));
  $("period").replaceChildren(...PERIODS.map((p) => el("option", { value: p, selected: p === period }, t(`board.${p}`))));
}

function render() {
  options();
  if (!data) return;
  $("min").textContent = t("board.min", { n: data.min_hands });
  $("empty").hidden = data.players.length > 0;
  $("board").replaceChildren(
    el("thead", {}, el("tr", {}, ...["board.rank", "board.player", "board.level", "board.rating", "board.hands", "board.chips"]
      .map((k) => el("th", { scope: "col" }, t(k))))),
    el("tbody", {}, data.players.map((p) => el("tr", { "data-testid": `leader-${p.username}` },
      el("td", { class: "num" }, String(p.rank)),
      el("td", {}, el("a", { href: `/profile/${encodeURIComponent(p.username)}` }, p.username)),
      el("td", {}, levelName(p.level)),
      el("td", { class: "num", title: `μ ${p.mu.toFixed(2)} ± σ ${p.sigma.toFixed(2)}` }, p.rating.toFixed(2)),
      el("td", { class: "num" }, String(p.hands)),
      el("td", { class: `num ${p.chips > 0 ? "plus" : p.chips < 0 ? "minus" : ""}` }, `${p.chips > 0 ? "+" : ""}${p.chips.toLocaleString()}`)))));
  $("bots").replaceChildren(...data.bots.map((b) => el("li", { "data-testid": `bot-${b.bot}` },
    `${t("board.bot", { name: b.bot })}: ${b.rating.toFixed(2)} (μ ${b.mu.toFixed(2)} ± ${b.sigma.toFixed(2)}) · ${t("profile.hands")} ${b.hands}`)));
}

async function load() {
  history.replaceState(null, "", `/leaderboard?family=${family}&period=${period}`);
  const answer = await api(`/api/leaderboard?family=${family}&period=${period}`);
  if (answer.ok) { data = answer.data; $("error").textContent = ""; } else {
    data = null;
    $("error").replaceChildren(answer.status === 401 ? t("profile.login") : answer.data.message, " ", el("a", { href: "/" }, t("profile.back")));
  }
  render();
}

$("family").addEventListener("change", (ev) => { family = ev.target.value; load(); });
$("period").addEventListener("change", (ev) => { period = ev.target.value; load(); });
onLangChange(render);
await load();
