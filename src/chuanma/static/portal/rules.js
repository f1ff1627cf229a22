// The fan table and every option of every preset, as the server's definitions give them
// (/api/portal/fans: chuanma.scoring.FANS; /api/presets: chuanma.portal.reference.preset_catalog).
import { GUIDE_TOPICS, api, el, fanName, frame, getLang, onLangChange, optionText, t } from "./common.js";

frame("/rules");

const $ = (id) => document.getElementById(id);
let fans = null;
let presets = null;

const show = (v) => (typeof v === "boolean" ? (v ? "on" : "off") : v === null ? "none" : typeof v === "object" ? JSON.stringify(v) : String(v));

function render() {
  const zh = getLang() === "zh";
  $("guides").replaceChildren(...GUIDE_TOPICS.map((name) => el("a", { href: `/guide/${name}`, class: "btn btn-small" }, t(`topic.${name}`))));
  if (fans) {
    $("fans").replaceChildren(
      el("thead", {}, el("tr", {}, ...["rules.name", "rules.fan", "rules.when", "rules.option", "rules.id"].map((k) => el("th", { scope: "col" }, t(k))))),
      el("tbody", {}, fans.fans.map((f) => el("tr", { "data-testid": `fan-row-${f.id}` },
        el("td", {}, fanName(f), f.house ? el("span", { class: "badge badge-void" }, t("rules.house")) : null),
        el("td", { class: "num" }, f.id === "gen" ? `+${f.fan}` : String(f.fan)),
        el("td", {}, zh ? f.when_zh : f.when_en), el("td", {}, el("code", {}, f.option || "")),
        el("td", {}, el("code", {}, f.id))))));
  }
  if (presets) {
    const names = presets.presets.map((p) => p.name);
    $("options").replaceChildren(
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("rules.option_name")),
        ...presets.presets.map((p) => el("th", { scope: "col" }, p.name)),
        el("th", { scope: "col" }, t("rules.meaning")), el("th", { scope: "col" }, t("rules.accepts")))),
      el("tbody", {}, presets.options.map((o) => el("tr", { "data-testid": `option-${o.name}` },
        el("th", { scope: "row" }, el("code", {}, o.name)),
        ...names.map((p) => el("td", { class: show(o.values[p]) !== show(o.values.xuezhan) ? "diff" : "" }, show(o.values[p]))),
        el("td", {}, optionText(o)), el("td", {}, o.accepts)))));
  }
}

onLangChange(render);
render();
const [f, p] = await Promise.all([api("/api/portal/fans"), api("/api/presets")]);
if (f.ok && p.ok) { fans = f.data; presets = p.data; render(); } else $("error").textContent = (f.ok ? p : f).data.message;
