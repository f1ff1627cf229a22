// A player's profile (/profile/<name>): level, figures, ratings per rule family with their
// uncertainty and history, chips history, most common fans and best hands (GET /api/players/<name>);
// for a registered viewer looking at another person, the report (举报) control.
import { api, el, frame, getLang, onLangChange, t } from "./common.js";
import { linePlot } from "./plot.js";
import { levelName } from "/static/app/levels.js";
import { showReport } from "/static/app/report.js";

frame("/profile");

const $ = (id) => document.getElementById(id);
const name = decodeURIComponent(location.pathname.split("/").pop() || "");
const FAMILIES = ["all", "xuezhan", "xueliu", "classic", "dazhong"];
let data = null;

const percent = (x) => `${(x * 100).toFixed(1)}%`;
const chips = (n) => `${n > 0 ? "+" : ""}${n.toLocaleString()}`;

function render() {
  if (!data) return;
  const who = data.user.kind === "guest" ? t("profile.guest") : data.user.kind === "bot" ? t("profile.bot", { bot: data.user.bot }) : "";
  const { id, username } = data.user;
  const report = data.can_report ? el("button", { type: "button", class: "btn-report", "data-testid": "report",
    title: t("report.title", { name: username }), "aria-label": t("report.title", { name: username }),
    onclick: () => showReport(id, username, null, (text) => { $("report-status").textContent = text; }) }, "⚑") : "";
  $("who").replaceChildren(username, who ? el("small", { class: "muted" }, ` · ${who}`) : "", " ", report);
  const lv = data.level;
  $("level-h").textContent = levelName(lv);
  const start = lv.start;
  $("xp-fill").style.width = lv.next === null ? "100%" : `${Math.min(100, (100 * (lv.xp - start)) / Math.max(1, lv.next - start))}%`;
  $("xp-text").textContent = `${t("level.xp", { xp: lv.xp })} · ${lv.next === null ? t("level.top") : t("level.next", { n: lv.next - lv.xp })}`;
  const figures = [
    ["profile.hands", data.hands], ["profile.win_rate", percent(data.win_rate)], ["profile.zimo_rate", percent(data.self_draw_rate)],
    ["profile.deal_in_rate", percent(data.deal_in_rate)], ["profile.average_fan", data.average_fan.toFixed(2)],
    ["profile.jipin", data.jipin], ["profile.flower_pig", data.flower_pig], ["profile.chadajiao", data.chadajiao],
    ["profile.chips_won", chips(data.chips_won)],
  ];
  $("figures").replaceChildren(...figures.map(([k, v]) => el("div", { "data-testid": k }, el("dt", {}, t(k)), el("dd", {}, String(v)))));
  $("ratings").replaceChildren(
    el("thead", {}, el("tr", {}, ...["profile.family", "profile.rating", "profile.mu_sigma", "profile.hands"].map((k) => el("th", { scope: "col" }, t(k))))),
    el("tbody", {}, FAMILIES.map((f) => {
      const r = data.ratings[f];
      return el("tr", { "data-testid": `rating-${f}` }, el("th", { scope: "row" }, t(`family.${f}`)), el("td", { class: "num" }, r.rating.toFixed(2)),
        el("td", { class: "num" }, `${r.mu.toFixed(2)} ± ${r.sigma.toFixed(2)}`), el("td", { class: "num" }, String(r.hands)));
    })));
  const history = data.rating_history;
  $("rating-plot").replaceChildren(history.length ? linePlot(history.map((h) => h.mu), { band: history.map((h) => h.sigma),
    label: t("profile.rating_history"), format: (v) => v.toFixed(1) }) : el("p", { class: "muted" }, t("profile.none")));
  const balances = data.chips_history;
  $("chips-plot").replaceChildren(balances.length ? linePlot(balances.map((p) => p.balance), { label: t("profile.chips_history"),
    format: (v) => Math.round(v).toLocaleString() }) : el("p", { class: "muted" }, t("profile.none")));
  const zh = getLang() === "zh";
  $("fans").replaceChildren(...(data.common_fans.length ? data.common_fans.map((f) => el("li", {}, `${zh ? f.zh : f.en} × ${f.count}`))
    : [el("li", { class: "muted" }, t("profile.none"))]));
  $("best").replaceChildren(...(data.best_hands.length ? data.best_hands.map((h) => el("li", {},
    `${t("profile.fan", { n: h.fan })} · ${t(`family.${h.family}`)} · ${chips(h.chips)} · ${new Date(h.at * 1000).toLocaleDateString()} · `,
    el("a", { href: h.replay }, t("profile.replay")))) : [el("li", { class: "muted" }, t("profile.none"))]));
  $("profile").hidden = false;
}

onLangChange(render);
const answer = await api(`/api/players/${encodeURIComponent(name)}`);
if (answer.ok) { data = answer.data; render(); } else {
  $("error").replaceChildren(answer.status === 401 ? t("profile.login") : answer.data.message, " ",
    el("a", { href: "/" }, t("profile.back")));
}
