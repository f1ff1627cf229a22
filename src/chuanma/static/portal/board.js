// A seat view (SeatView.to_dict(), as the server's engine redacted it) drawn as four seats.
import { el, t, seatName, suitName, tileRow } from "./common.js";
import { run, splitTiles, tileOrder } from "/static/app/tiles.js";

function meldCodes(m) {
  const n = m.kind === "kong" ? 4 : 3;
  if (m.tile == null) return Array(n).fill(null);
  if (m.kind === "chow") return run(m.tile);  // 吃: a run
  return Array(n).fill(m.tile);
}

function handCodes(p, drawn) {
  const codes = splitTiles(p.hand).sort((a, b) => tileOrder(a) - tileOrder(b));
  if (drawn) codes.splice(codes.indexOf(drawn), 1);
  return codes;
}

/**
 * The board: every seat's badges, melds, concealed tiles (or backs), discards (the latest marked)
 * and win pile. latest: {seat, tile} of the last discard, highlighted.
 */
export function board(view, latest) {
  const grid = el("div", { class: "rp-board", "data-testid": "board" });
  for (const p of view.players) {
    const acting = view.current === p.seat && view.phase !== "end";
    const head = el("div", { class: "seat-head" },
      el("span", { class: "name" }, seatName(p.seat)),
      view.dealer === p.seat ? el("span", { class: "badge badge-dealer" }, t("portal.dealer")) : null,
      p.void ? el("span", { class: "badge badge-void", "data-testid": `void-${p.seat}` },
        t("portal.void_badge", { suit: suitName(p.void) })) : null,
      p.won ? el("span", { class: "badge badge-won" }, t("table.won")) : null,
      p.left ? el("span", { class: "badge" }, t("table.left")) : null,
      el("span", { class: "rp-total" }, `${view.totals[p.seat] > 0 ? "+" : ""}${view.totals[p.seat]}`));
    const melds = el("div", { class: "melds" });
    for (const m of p.melds) melds.append(el("span", { class: "meld tiles-sm" }, tileRow(meldCodes(m))));
    const drawn = acting && p.hand && view.drawn ? view.drawn : null;
    const hand = el("div", { class: "rp-hand", "data-testid": `hand-${p.seat}` });
    if (p.hand != null) {
      hand.append(tileRow(handCodes(p, drawn)));
      if (drawn) hand.append(el("span", { class: "drawn", title: t("replay.drawn") }, tileRow([drawn])));
    } else {
      hand.append(el("span", { class: "tiles-xs" }, tileRow(Array(p.tiles).fill(null))),
        el("span", { class: "sr-only" }, t("replay.hand_hidden", { n: p.tiles })));
    }
    const river = el("div", { class: "discards tiles-xs", "data-testid": `discards-${p.seat}` });
    const codes = splitTiles(p.discards);
    codes.forEach((code, i) => {
      const row = tileRow([code]);
      const last = i === codes.length - 1 && latest && latest.seat === p.seat && latest.tile === code;
      if (last) row.firstChild.classList.add("latest");
      river.append(row);
    });
    const pile = el("div", { class: "winpile tiles-xs" }, p.win_pile ? tileRow(splitTiles(p.win_pile)) : null);
    grid.append(el("section", { class: `rp-seat${acting ? " acting" : ""}`, "aria-label": seatName(p.seat),
      "data-testid": `seat-${p.seat}` }, head, melds, hand, river, pile));
  }
  return grid;
}
