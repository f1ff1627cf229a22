// The fan table and every option of every preset, as the server's definitions give them
// (/api/portal/fans: chuanma.scoring.FANS; /api/presets: chuanma.portal.reference.preset_catalog).
import { GUIDE_TOPICS, api, el, fanName, frame, getLang, onLangChange, optionText, choiceText, t } from "./common.js";

frame("/rules");

const $ = (id) => document.getElementById(id);
let fans = null;
let presets = null;

const show = (v) => (typeof v === "boolean" ? (v ? "on" : "off") : v === null ? "none" : typeof v === "object" ? JSON.stringify(v) : String(v));

/** A cell named by its column (a phone shows each row as a card, each cell after its column's name). */
const cell = (label, attrs, ...children) => el("td", { "data-label": label, ...attrs }, ...children);

/** An option by what it means in the page's language, its id small after it (for whoever writes rules). */
function optionName(option, id) {
  return [option ? optionText(option) : null, " ", el("code", { class: "opt-id" }, id)];
}

/** A preset's value of an option: a choice by its name, on/off in words. */
function valueText(option, value) {
  if (typeof value === "boolean") return t(value ? "rules.on" : "rules.off");
  return option.choice_names?.[String(value)] ? choiceText(option, value) : show(value);
}

function render() {
  const zh = getLang() === "zh";
  $("guides").replaceChildren(...GUIDE_TOPICS.map((name) => el("a", { href: `/guide/${name}`, class: "btn btn-small" }, t(`topic.${name}`))));
  const options = new Map((presets?.options || []).map((o) => [o.name, o]));
  if (fans) {
    const [name, fan, when, option, id] = ["rules.name", "rules.fan", "rules.when", "rules.option", "rules.id"].map((k) => t(k));
    $("fans").replaceChildren(
      el("thead", {}, el("tr", {}, ...[name, fan, when, option, id].map((k) => el("th", { scope: "col" }, k)))),
      el("tbody", {}, fans.fans.map((f) => el("tr", { "data-testid": `fan-row-${f.id}` },
        cell(name, { class: "fan-name" }, fanName(f), f.house ? el("span", { class: "badge badge-void" }, t("rules.house")) : null),
        cell(fan, { class: "num" }, f.id === "gen" ? `+${f.fan}` : String(f.fan)),
        cell(when, {}, zh ? f.when_zh : f.when_en),
        cell(option, { class: f.option ? "" : "empty" }, f.option ? optionName(options.get(f.option), f.option) : null),
        cell(id, { class: "fan-id" }, el("code", {}, f.id))))));
  }
  if (presets) {
    const names = presets.presets.map((p) => p.name);
    const titles = presets.presets.map((p) => p[getLang()] || p.name);
    $("options").replaceChildren(
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("rules.option_name")),
        ...presets.presets.map((p, i) => el("th", { scope: "col", title: p.name }, titles[i])),
        el("th", { scope: "col" }, t("rules.meaning")), el("th", { scope: "col" }, t("rules.accepts")))),
      el("tbody", {}, presets.options.map((o) => el("tr", { "data-testid": `option-${o.name}` },
        el("th", { scope: "row" }, el("code", {}, o.name)),
        ...names.map((p, i) => cell(titles[i], { class: show(o.values[p]) !== show(o.values.xuezhan) ? "diff" : "" },
          valueText(o, o.values[p]))),
        cell(t("rules.meaning"), {}, optionText(o)), cell(t("rules.accepts"), { class: "accepts" }, o.accepts)))));
  }
}

onLangChange(render);
render();
const [f, p] = await Promise.all([api("/api/portal/fans"), api("/api/presets")]);
if (f.ok && p.ok) { fans = f.data; presets = p.data; render(); } else $("error").textContent = (f.ok ? p : f).data.message;
