// The fan calculator: a hand built by clicking tiles, scored by the server's engine
// (POST /api/portal/score, the same scoring as chuanma score). Nothing is computed here.
import { api, choiceText, el, fanName, frame, getLang, onLangChange, optionText, seatName, t, tileRow } from "./common.js";
import { allKinds, run, tileElement, tileName, tileOrder } from "/static/app/tiles.js";
import { refusalText } from "./refusal.js";

frame("/calc");

const $ = (id) => document.getElementById(id);
const MODES = ["hand", "pong", "exposed", "concealed", "chow", "win"];
const state = { mode: "hand", hand: [], melds: [], win: null, presets: null, options: {}, house: {}, fans: [],
  situations: [], seq: 0 };

/** The tiles of a meld: a chow is its lowest tile and the next two of the suit. */
const meldTiles = (m) => (m.kind === "chow" ? run(m.tile) : Array(m.kind === "pong" ? 3 : 4).fill(m.tile));
const used = (code) => state.hand.filter((c) => c === code).length + (state.win === code ? 1 : 0)
  + state.melds.reduce((n, m) => n + meldTiles(m).filter((c) => c === code).length, 0);
/** Whether the chosen preset plays 大众麻将 (honour tiles and chow, no 定缺). */
const honours = () => state.presets.presets.find((p) => p.name === $("preset").value)?.variant === "dazhong";
const need = () => 13 - 3 * state.melds.length;

function add(code) {
  const left = 4 - used(code);
  if (state.mode === "hand" && left >= 1 && state.hand.length < need()) state.hand.push(code);
  else if (state.mode === "win" && (left >= 1 || state.win === code)) state.win = code;
  else if (state.mode === "pong" && left >= 3 && state.melds.length < 4) state.melds.push({ kind: "pong", tile: code });
  else if ((state.mode === "exposed" || state.mode === "concealed") && left >= 4 && state.melds.length < 4)
    state.melds.push({ kind: "kong", tile: code, kong: state.mode });
  else if (state.mode === "chow" && code[1] !== "z" && Number(code[0]) <= 7 && state.melds.length < 4
      && meldTiles({ kind: "chow", tile: code }).every((c) => used(c) < 4))
    state.melds.push({ kind: "chow", tile: code });
  else return;
  while (state.hand.length > need()) state.hand.pop();
  update();
}

function tileButton(code, label, onclick, testid) {
  // the drawing names the button (a label on the button would not contain the characters drawn on it)
  return el("button", { type: "button", class: "tile", "data-testid": testid, onclick }, tileElement(code, { title: label }));
}

function drawBuilt() {
  const lang = getLang();
  $("hand-label").textContent = t("calc.hand", { n: state.hand.length, need: need() });
  const hand = [...state.hand].map((c, i) => [c, i]).sort((a, b) => tileOrder(a[0]) - tileOrder(b[0]));
  $("hand").replaceChildren(...hand.map(([code, i]) => tileButton(code,
    t("calc.remove", { tile: tileName(code, lang) }), () => { state.hand.splice(i, 1); update(); }, `hand-${code}`)));
  $("melds").replaceChildren(...state.melds.map((m, i) => el("button", {
    type: "button", class: `meld tile tiles-sm${m.kong === "concealed" ? " concealed-kong" : ""}`,
    "aria-label": t("calc.remove", { tile: `${t(`calc.mode.${m.kong || m.kind}`)} ${tileName(m.tile, lang)}` }),
    onclick: () => { state.melds.splice(i, 1); update(); } },
  el("span", { class: "meld-kind" }, t(`calc.mode.${m.kong || m.kind}`)),
  tileRow(meldTiles(m)))));
  $("win").replaceChildren(...(state.win ? [tileButton(state.win, t("calc.remove", { tile: tileName(state.win, lang) }),
    () => { state.win = null; update(); }, "win-tile")] : []));
  for (const b of $("palette").children) b.disabled = used(b.dataset.code) >= 4;
}

function drawModes() {
  const modes = honours() ? MODES : MODES.filter((m) => m !== "chow");
  if (!modes.includes(state.mode)) state.mode = "hand";
  $("modes").replaceChildren(...modes.map((m) => el("button", {
    type: "button", role: "radio", class: "btn btn-small", "aria-checked": String(state.mode === m),
    "data-testid": `mode-${m}`,
    onclick: () => { state.mode = m; drawModes(); } }, t(`calc.mode.${m}`))));
}

function drawPalette() {
  $("void").disabled = honours();
  if (honours()) $("void").value = "";
  $("palette").replaceChildren(...allKinds(honours()).map((code) => {
    const b = tileButton(code, tileName(code, getLang()), () => add(code), `pick-${code}`);
    b.dataset.code = code;
    return b;
  }));
}

function drawSituations() {
  const box = $("situations");
  box.replaceChildren(...state.fans.situations.map((s) => el("label", {},
    el("input", { type: "checkbox", value: s, "data-testid": `sit-${s}`, checked: state.situations.includes(s),
      onchange: (e) => {
        state.situations = e.target.checked ? [...state.situations, s] : state.situations.filter((x) => x !== s);
        update();
      } }), t(`sit.${s}`))));
}

function optionInput(o) {
  const value = state.options[o.name] ?? o.values[$("preset").value];
  const set = (v) => { state.options[o.name] = v; update(); };
  const id = `opt-${o.name}`;
  let input;
  if (o.kind === "bool") {
    input = el("input", { type: "checkbox", id, checked: value, onchange: (e) => set(e.target.checked) });
  } else if (o.kind === "choice") {
    input = el("select", { id, onchange: (e) => set(o.choices.find((c) => String(c) === e.target.value)) },
      o.choices.map((c) => el("option", { value: String(c), selected: c === value }, choiceText(o, c))));
  } else if (o.kind === "int") {
    input = el("input", { type: "number", id, min: "1", value: value ?? "", placeholder: "none",
      onchange: (e) => set(e.target.value === "" ? null : Number(e.target.value)) });
  } else return null;
  return el("label", { for: id, title: o.name }, input, optionText(o));
}

function drawOptions() {
  // the options that change a hand's fans or what is paid for it, as the server marks them
  // (scoring: chuanma.portal.calculator.SCORING_OPTIONS)
  const options = state.presets.options.filter((o) => o.scoring);
  $("options").replaceChildren(...options.map(optionInput).filter(Boolean));
  $("house").replaceChildren(...state.fans.fans.filter((f) => f.house).map((f) => el("label", {},
    el("input", { type: "checkbox", "data-testid": `house-${f.id}`, checked: f.id in state.house,
      onchange: (e) => { if (e.target.checked) state.house[f.id] = f.fan; else delete state.house[f.id]; update(); } }),
    `${f.name} ${f.fan}`)));
}

function request() {
  const options = { ...state.options };
  if (Object.keys(state.house).length) options.house_fans = state.house;
  const self = $("how-self").checked;
  return {
    rules: { preset: $("preset").value, options }, hand: state.hand.join(""), win_tile: state.win,
    melds: state.melds.map((m) => (m.kind === "kong" ? `kong:${m.tile}:${m.kong}` : `${m.kind}:${m.tile}`)),
    self_drawn: self, void: $("void").value || null, situations: state.situations,
    ...(self ? {} : { from: Number($("from").value) }),
  };
}

async function compute() {
  const box = $("result");
  const missing = need() - state.hand.length;
  if (missing > 0 || !state.win) {
    box.replaceChildren(el("p", { class: "muted", "data-testid": "need" }, t("calc.need", { hand: missing, win: state.win ? 0 : 1 })));
    return;
  }
  const seq = ++state.seq;
  box.setAttribute("aria-busy", "true");
  const res = await api("/api/portal/score", request());
  if (seq !== state.seq) return;  // a later change is being computed
  box.removeAttribute("aria-busy");
  if (!res.ok) { box.replaceChildren(errorText(res.data)); return; }
  showResult(res.data);
}

/** A refused hand in the page's language, worded from the server's facts (in English, the server's
 * details follow where the facts are only "the rules" or "the input"). */
function errorText(data) {
  const attrs = { class: "error-text", role: "alert", "data-testid": "error" };
  if (!data.facts) return el("p", attrs, data.message);
  const general = ["rules", "input"].includes(data.facts.code) && getLang() === "en";
  return el("p", attrs, refusalText(data.facts, state.presets.options),
    general ? el("small", { class: "muted" }, ` (${data.message})`) : null);
}

function showResult(r) {
  const box = $("result");
  const zh = getLang() === "zh";
  if (!r.win) {
    box.replaceChildren(el("p", { class: "error-text", "data-testid": "no-win" }, t("calc.no_win", { reason: zh ? r.reason_zh : r.reason })));
    return;
  }
  const fans = el("table", { class: "fan-table" },
    el("thead", {}, el("tr", {}, el("th", {}, t("calc.fan")), el("th", {}, t("calc.value")), el("th", {}, t("calc.why")))),
    el("tbody", {}, r.fans.map((f) => el("tr", { "data-testid": `fan-${f.id}` },
      el("td", {}, fanName(f)), el("td", { class: "num" }, String(f.fan)),
      el("td", {}, zh ? f.when_zh : f.when_en)))));
  const total = el("p", { class: "total", "data-testid": "total", "data-total": String(r.total) },
    t("calc.total", { total: r.total }), " ",
    r.label !== r.total ? el("span", { class: "muted" }, t("calc.label", { label: r.label })) : null);
  const mult = el("p", { "data-testid": "multiplier" }, t("calc.multiplier", { m: r.multiplier }),
    r.capped ? ` · ${t("calc.capped", { max: r.rules.options.max_fan })}` : "");
  const pays = el("table", { class: "pay-table", "data-testid": "payments" },
    el("thead", {}, el("tr", {}, el("th", {}, t("calc.payer")), el("th", {}, t("calc.amount")), el("th", {}, t("calc.chips")))),
    el("tbody", {}, r.payments.map((p) => el("tr", { "data-testid": `pay-${p.payer}`, "data-amount": String(p.amount) },
      el("td", {}, `${seatName(p.payer)} (${t(`calc.reason.${p.reason}`)})`), el("td", { class: "num" }, String(p.amount)),
      el("td", { class: "num" }, String(p.chips))))));
  const deltas = el("p", { "data-testid": "deltas" }, `${t("calc.deltas")}: `,
    r.deltas.map((d, s) => `${s === 0 ? t("calc.you") : seatName(s)} ${d > 0 ? "+" : ""}${d}`).join(" · "));
  box.replaceChildren(fans, total, mult, el("h3", {}, t("calc.pays")), pays, deltas);
}

function update() { drawBuilt(); compute(); }

async function start() {
  const [presets, fans] = await Promise.all([api("/api/presets"), api("/api/portal/fans")]);
  if (!presets.ok || !fans.ok) { $("result").textContent = (presets.ok ? fans : presets).data.message; return; }
  state.presets = presets.data;
  state.fans = fans.data;
  $("preset").replaceChildren(...presets.data.presets.map((p) => el("option", { value: p.name })));
  const presetNames = () => {  // each preset by its name in the page's language
    for (const o of $("preset").options) o.textContent = presets.data.presets.find((p) => p.name === o.value)[getLang()];
  };
  $("preset").addEventListener("change", () => { state.options = {}; drawModes(); drawPalette(); drawOptions(); update(); });
  for (const id of ["how-self", "how-discard", "from", "void"]) $(id).addEventListener("change", () => {
    $("from").disabled = $("how-self").checked;
    compute();
  });
  $("clear").addEventListener("click", () => {
    Object.assign(state, { hand: [], melds: [], win: null, situations: [] });
    drawSituations();
    update();
  });
  const fromOptions = () => { for (const o of $("from").options) o.textContent = seatName(o.value); };
  const all = () => { presetNames(); fromOptions(); drawModes(); drawPalette(); drawSituations(); drawOptions(); update(); };
  onLangChange(all);
  all();
}

start();
