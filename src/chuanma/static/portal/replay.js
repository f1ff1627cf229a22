// The replay viewer: a finished hand move by move, from any seat's view or with all hands open.
// Every view comes from the server, which replays the record with the engine and redacts it for
// the chosen seat (/api/replay/<hand id> for a stored hand, POST /api/replay for an uploaded record).
import { api, el, frame, onLangChange, seatName, suitName, t } from "./common.js";
import { board } from "./board.js";
import { actionName, narrate, reasonName } from "/static/app/narrate.js";
import { showReport } from "/static/app/report.js";

frame("/replay");

const $ = (id) => document.getElementById(id);
const handId = decodeURIComponent(location.pathname.split("/")[2] || "");
const params = new URLSearchParams(location.search);
// a private table's hand opens to whoever has its share key (?key=, from a player's history)
const shareKey = params.get("key") ? `&key=${encodeURIComponent(params.get("key"))}` : "";
// move=end opens the last move (the server reads "end" as the last)
const state = { seat: params.get("seat") ?? "all",
  move: params.get("move") === "end" ? "end" : Number(params.get("move") ?? 0) || 0, data: null,
  record: null, timer: null, seq: 0 };

/** A decision of a record ({"seat": 0, "discard": "5m"}) as text. */
function decisionText(d) {
  const [kind, value] = Object.entries(d).find(([k]) => k !== "seat");
  const what = typeof value === "string" ? (kind === "void" ? suitName(value) : value) : "";
  return `${seatName(d.seat)}: ${actionName(kind)} ${what}`.trim();
}

async function load() {
  const seq = ++state.seq;
  const res = handId
    ? await api(`/api/replay/${encodeURIComponent(handId)}?seat=${state.seat}&move=${state.move}${shareKey}`)
    : await api("/api/replay", { record: state.record, seat: state.seat === "all" ? "all" : Number(state.seat), move: state.move });
  if (seq !== state.seq) return;  // a later move or seat was asked for meanwhile
  if (res.status === 401) { $("login-card").classList.remove("hidden"); return; }
  if (!res.ok) { stop(); $("error").textContent = res.data.message || String(res.status); return; }
  $("error").textContent = "";
  const first = !state.data;
  state.data = res.data;
  state.move = res.data.move;
  if (first) players(res.data);  // made once (and again in another language): never replaced under a click
  render();
}

function go(move) {
  if (!state.data) return;
  state.move = Math.max(0, Math.min(state.data.moves, move));
  if (handId) history.replaceState(null, "", `${location.pathname}?seat=${state.seat}&move=${state.move}`);
  load();
}

function render() {
  const d = state.data;
  $("viewer").classList.remove("hidden");
  $("move-label").textContent = t("replay.move", { move: d.move, moves: d.moves });
  for (const id of ["slider", "move-input"]) { $(id).max = d.moves; $(id).value = d.move; }
  $("first").disabled = $("prev").disabled = d.move === 0;
  $("next").disabled = $("last").disabled = d.move === d.moves;
  $("play").textContent = state.timer ? t("replay.pause") : t("replay.play");
  const dec = d.move > 0 ? d.decisions[d.move - 1] : null;
  $("decision").textContent = t("replay.decision", { text: dec ? decisionText(dec) : t("replay.deal") });
  // the seat buttons are made once and updated in place: a render landing between a press and its
  // release must not replace the button under the pointer (the click would be lost)
  const seats = $("seats");
  if (!seats.children.length) {
    for (const s of ["0", "1", "2", "3", "all"]) {
      seats.append(el("button", { type: "button", class: "btn btn-small", "data-seat": s, "data-testid": `view-${s}`,
        onclick: () => { state.seat = s; go(state.move); } }));
    }
  }
  for (const b of seats.children) {
    const s = b.dataset.seat;
    b.setAttribute("aria-pressed", String(state.seat === s));
    b.textContent = s === "all" ? t("replay.all") : seatName(s);
  }
  $("wall").textContent = t("replay.wall", { n: d.view.wall });
  const shown = d.events.filter((ev) => ev.move <= d.move);
  const discards = shown.filter((ev) => ev.type === "discard");
  const latest = discards.length ? discards[discards.length - 1] : null;
  $("board").replaceChildren(board(d.view, latest));
  const list = $("events");
  list.replaceChildren();
  let current = null;
  for (const ev of d.events) {
    const text = narrate(ev, seatName);
    if (text == null) continue;
    const li = el("li", { class: ev.move === d.move ? "now" : ev.move > d.move ? "later" : "" },
      el("button", { type: "button", class: "rp-ev", onclick: () => go(ev.move) }, `${ev.move}. ${text}`));
    if (ev.move === d.move && !current) current = li;
    list.append(li);
  }
  // keep the current move in sight inside the list (scrolling the list only, never the page)
  if (current) list.scrollTop = Math.max(0, current.offsetTop - list.offsetTop - list.clientHeight / 2);
  settlement(d);
}

/** A stored hand's players, each other person with the report (举报) control for a registered viewer. */
function players(d) {
  if (!d.players) return;
  $("players-row").classList.remove("hidden");
  $("players").replaceChildren(...d.players.flatMap((p, seat) => (p ? [el("span", { class: "rp-player" },
    `${seatName(seat)} ${p.name} `,
    ...(d.can_report && !p.you && !p.bot ? [el("button", { type: "button", class: "btn-report", "data-testid": `report-${seat}`,
      title: t("report.title", { name: p.name }), "aria-label": t("report.title", { name: p.name }),
      onclick: () => showReport(p.id, p.name, handId, (text) => { $("report-status").textContent = text; }) }, "⚑")] : []))] : [])));
}

function settlement(d) {
  const box = $("settlement");
  if (d.move !== d.moves) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  const rows = d.result.payments.map((p) => el("tr", {},
    el("td", {}, reasonName(p.reason)), el("td", {}, `${seatName(p.payer)} → ${seatName(p.payee)}`),
    el("td", { class: "num" }, String(p.amount))));
  const head = el("tr", {}, el("th", { scope: "col" }, t("settle.reason")), el("th", { scope: "col" }, t("settle.who_pays")),
    el("th", { scope: "col", class: "num" }, t("calc.amount")));
  box.replaceChildren(el("h2", {}, t("replay.result")),
    el("table", { class: "pay-table", "data-testid": "payments" }, el("thead", {}, head), el("tbody", {}, rows)),
    el("p", { "data-testid": "deltas" }, d.result.deltas.map((x, i) => `${seatName(i)} ${x > 0 ? "+" : ""}${x}`).join(" · ")));
}

function stop() { clearInterval(state.timer); state.timer = null; }

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(state.move - 1));
$("next").addEventListener("click", () => go(state.move + 1));
$("last").addEventListener("click", () => go(state.data.moves));
$("slider").addEventListener("change", (e) => go(Number(e.target.value)));
$("move-input").addEventListener("change", (e) => go(Number(e.target.value)));
$("play").addEventListener("click", () => {
  if (state.timer) stop();
  else state.timer = setInterval(() => (state.move >= state.data.moves ? (stop(), render()) : go(state.move + 1)), 700);
  render();
});
$("share").addEventListener("click", async () => {
  const url = `${location.origin}/replay/${encodeURIComponent(handId)}?seat=${state.seat}&move=${state.move}`;
  try { await navigator.clipboard.writeText(url); $("share").textContent = t("replay.copied"); } catch { prompt("URL", url); }
});
document.addEventListener("keydown", (e) => {
  if (!state.data || ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
  const to = { ArrowLeft: state.move - 1, ArrowRight: state.move + 1, Home: 0, End: state.data.moves }[e.key];
  if (to !== undefined) { e.preventDefault(); go(to); }
});
$("guest").addEventListener("click", async () => {
  const res = await api("/api/guest", {});
  if (res.ok) { $("login-card").classList.add("hidden"); load(); } else $("error").textContent = res.data.message;
});
onLangChange(() => { if (state.data) { players(state.data); render(); } });

if (handId) load();
else {
  $("upload-card").hidden = false;
  $("share").hidden = true;
  $("upload").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    try { state.record = JSON.parse(await file.text()); } catch (err) { $("error").textContent = String(err.message); return; }
    state.move = 0;
    load();
  });
  const example = location.search === "?example" && sessionStorage.getItem("chuanma.replay");
  if (example) { state.record = JSON.parse(example); load(); }  // a worked example's record, from its page
}
