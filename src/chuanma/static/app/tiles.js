// Mahjong tiles drawn as SVG by the project: 万 (Chinese numeral over 萬), 筒 (dot patterns),
// 条 (bamboo sticks; a bird on 1条), the honours (1z–7z) and a face-down back.
// tileSVG("5m") returns an SVG string; tileElement("5m") a DOM element; tileName names a tile.
// The tiles' names come from the server (/api/portal/tiles: chuanma.tiles.tile_name), read once when
// this module loads: the numeral drawn on a 万 and the character on an honour are those names, so
// a tile is drawn and called in the browser as Python calls it.

const NS = "http://www.w3.org/2000/svg";
const W = 48, H = 64;
const BLUE = "#1f4e9c", GREEN = "#17784a", RED = "#c62828", INK = "#1b1f3a";
const NAMES = await loadNames();
const FONT = "'Noto Serif CJK SC','Source Han Serif SC','Songti SC','SimSun','WenQuanYi Micro Hei','Noto Sans CJK SC','Microsoft YaHei',serif";

/** Parse "5m" into [rank, suit]; throws on anything else. */
export function parseTile(code) {
  const m = /^([1-9])([mps])$|^([1-7])z$/.exec(code);
  if (!m) throw new Error(`not a tile: ${code}`);
  return m[1] ? [Number(m[1]), m[2]] : [Number(m[3]), "z"];
}

/** Every tile's names by code ({zh, en}), from the server's table. */
async function loadNames() {
  const res = await fetch("/api/portal/tiles");
  if (!res.ok) throw new Error(`the tile names could not be read (${res.status})`);
  return new Map((await res.json()).tiles.map((tile) => [tile.code, tile]));
}

/** The tile's name: "五万" / "5 Characters", "東" / "East". */
export function tileName(code, lang = "zh") {
  parseTile(code);
  const names = NAMES.get(code);
  return lang === "zh" ? names.zh : names.en;
}

/** The sort key of a tile: suits 万 筒 条 then honours, by rank. */
export function tileOrder(code) {
  const [rank, suit] = parseTile(code);
  return "mpsz".indexOf(suit) * 10 + rank;
}

/** Split a compact tile string ("2455m12899p1z") into codes. */
export function splitTiles(text) {
  const out = [];
  let digits = "";
  for (const ch of text || "") {
    if (ch >= "0" && ch <= "9") digits += ch;
    else if ("mpsz".includes(ch)) { for (const d of digits) out.push(d + ch); digits = ""; }
  }
  return out;
}

function dot(x, y, r, colour) {
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="${colour}"/>` +
    `<circle cx="${x}" cy="${y}" r="${r * 0.62}" fill="#fff"/>` +
    `<circle cx="${x}" cy="${y}" r="${r * 0.36}" fill="${colour}"/>`;
}

const DOTS = {
  2: [[24, 18, 8, GREEN], [24, 46, 8, BLUE]],
  3: [[12, 13, 7, BLUE], [24, 32, 7, RED], [36, 51, 7, GREEN]],
  4: [[14, 19, 8, BLUE], [34, 19, 8, GREEN], [14, 45, 8, GREEN], [34, 45, 8, BLUE]],
  5: [[13, 15, 7, BLUE], [35, 15, 7, GREEN], [24, 32, 7, RED], [13, 49, 7, GREEN], [35, 49, 7, BLUE]],
  6: [[15, 13, 7, GREEN], [33, 13, 7, GREEN], [15, 32, 7, RED], [33, 32, 7, RED], [15, 51, 7, RED], [33, 51, 7, RED]],
  7: [[11, 10, 5.5, GREEN], [24, 17, 5.5, GREEN], [37, 24, 5.5, GREEN],
      [15, 39, 6.5, RED], [33, 39, 6.5, RED], [15, 53, 6.5, RED], [33, 53, 6.5, RED]],
  8: [[15, 9, 6, BLUE], [33, 9, 6, BLUE], [15, 24, 6, BLUE], [33, 24, 6, BLUE],
      [15, 40, 6, BLUE], [33, 40, 6, BLUE], [15, 55, 6, BLUE], [33, 55, 6, BLUE]],
  9: [[11, 13, 6, BLUE], [24, 13, 6, BLUE], [37, 13, 6, BLUE], [11, 32, 6, RED], [24, 32, 6, RED],
      [37, 32, 6, RED], [11, 51, 6, GREEN], [24, 51, 6, GREEN], [37, 51, 6, GREEN]],
};

function dots(rank) {
  if (rank === 1) {
    return `<circle cx="24" cy="32" r="17" fill="${GREEN}"/><circle cx="24" cy="32" r="13" fill="#fff"/>` +
      `<circle cx="24" cy="32" r="11" fill="${BLUE}"/><circle cx="24" cy="32" r="7" fill="#fff"/>` +
      `<circle cx="24" cy="32" r="5" fill="${RED}"/>`;
  }
  return DOTS[rank].map(([x, y, r, c]) => dot(x, y, r, c)).join("");
}

function stick(x, y, h, colour) {
  const w = 5.5;
  return `<rect x="${x - w / 2}" y="${y - h / 2}" width="${w}" height="${h}" rx="2.6" fill="${colour}"/>` +
    `<rect x="${x - w / 2 - 0.6}" y="${y - 0.9}" width="${w + 1.2}" height="1.8" rx="0.9" fill="${colour}" stroke="#fff" stroke-width="0.5"/>` +
    `<line x1="${x}" y1="${y - h / 2 + 2}" x2="${x}" y2="${y + h / 2 - 2}" stroke="#fff" stroke-width="0.9" opacity="0.7"/>`;
}

const STICKS = {
  2: [[24, 18, 20, GREEN], [24, 46, 20, BLUE]],
  3: [[24, 18, 20, BLUE], [14, 46, 20, GREEN], [34, 46, 20, GREEN]],
  4: [[14, 18, 20, GREEN], [34, 18, 20, BLUE], [14, 46, 20, BLUE], [34, 46, 20, GREEN]],
  5: [[12, 18, 20, GREEN], [36, 18, 20, BLUE], [24, 32, 20, RED], [12, 46, 20, BLUE], [36, 46, 20, GREEN]],
  6: [[12, 18, 20, GREEN], [24, 18, 20, GREEN], [36, 18, 20, GREEN], [12, 46, 20, BLUE], [24, 46, 20, BLUE], [36, 46, 20, BLUE]],
  7: [[24, 11, 14, RED], [12, 32, 14, GREEN], [24, 32, 14, GREEN], [36, 32, 14, GREEN],
      [12, 52, 14, BLUE], [24, 52, 14, BLUE], [36, 52, 14, BLUE]],
  8: [[9, 18, 20, GREEN], [19, 18, 20, BLUE], [29, 18, 20, BLUE], [39, 18, 20, GREEN],
      [9, 46, 20, BLUE], [19, 46, 20, GREEN], [29, 46, 20, GREEN], [39, 46, 20, BLUE]],
  9: [[12, 12, 15, GREEN], [24, 12, 15, RED], [36, 12, 15, BLUE], [12, 32, 15, GREEN], [24, 32, 15, RED],
      [36, 32, 15, BLUE], [12, 52, 15, GREEN], [24, 52, 15, RED], [36, 52, 15, BLUE]],
};

function bird() {
  // 1条: a peacock-like bird on a stick.
  return `<path d="M10 50 Q16 30 30 30 Q38 30 40 22" fill="none" stroke="${GREEN}" stroke-width="3" stroke-linecap="round"/>` +
    `<ellipse cx="24" cy="36" rx="11" ry="8" fill="${GREEN}"/>` +
    `<path d="M14 38 L4 56 L12 52 L10 60 L18 48 Z" fill="${BLUE}"/>` +
    `<path d="M20 34 Q26 28 32 36 Q26 40 20 34 Z" fill="#fff" opacity="0.55"/>` +
    `<circle cx="37" cy="20" r="5.5" fill="${RED}"/><circle cx="38.5" cy="19" r="1.3" fill="#fff"/>` +
    `<path d="M42 19 L47 21 L42 23 Z" fill="#e0a100"/>` +
    `<path d="M35 14 L33 8 M37 14 L38 7 M39 15 L42 9" stroke="${RED}" stroke-width="1.4" stroke-linecap="round"/>` +
    `<path d="M22 44 L20 54 M27 44 L28 54" stroke="#7a4a1c" stroke-width="1.6" stroke-linecap="round"/>`;
}

function bamboo(rank) {
  if (rank === 1) return bird();
  return STICKS[rank].map(([x, y, h, c]) => stick(x, y, h, c)).join("");
}

function text(x, y, size, colour, chars, weight = 700) {
  return `<text x="${x}" y="${y}" font-family="${FONT}" font-size="${size}" font-weight="${weight}" fill="${colour}" text-anchor="middle" dominant-baseline="central">${chars}</text>`;
}

function characters(rank) {
  return text(24, 19, 21, INK, tileName(`${rank}m`)[0]) + text(24, 46, 23, RED, "萬");
}

function honour(rank) {
  const name = tileName(`${rank}z`);
  if (name === "白") {  // 白板: an empty frame
    return `<rect x="9" y="10" width="30" height="44" rx="3" fill="none" stroke="${BLUE}" stroke-width="3"/>` +
      `<rect x="14" y="15" width="20" height="34" rx="2" fill="none" stroke="${BLUE}" stroke-width="1.2"/>`;
  }
  const colour = name === "中" ? RED : name === "發" ? GREEN : INK;
  return text(24, 32, 30, colour, name);
}

function face(code) {
  const [rank, suit] = parseTile(code);
  if (suit === "m") return characters(rank);
  if (suit === "p") return dots(rank);
  if (suit === "s") return bamboo(rank);
  return honour(rank);
}

// The tile body: a cream face over a darker edge that gives it depth.
const BODY = `<rect x="0.5" y="0.5" width="${W - 1}" height="${H - 1}" rx="6" fill="#cfc6ad"/>` +
  `<rect x="0.5" y="0.5" width="${W - 1}" height="${H - 4}" rx="6" fill="#fbf8ef" stroke="#bdb399" stroke-width="1"/>`;
const BACK = `<rect x="0.5" y="0.5" width="${W - 1}" height="${H - 1}" rx="6" fill="#0f5132"/>` +
  `<rect x="0.5" y="0.5" width="${W - 1}" height="${H - 4}" rx="6" fill="#1f7a4d" stroke="#0f5132" stroke-width="1"/>` +
  `<rect x="6" y="6" width="${W - 12}" height="${H - 15}" rx="4" fill="none" stroke="#9fd3b5" stroke-width="1" opacity="0.6"/>`;

function escapeAttr(s) {
  return String(s).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/**
 * The SVG markup of a tile. code: "5m", "1z"…, or null/"back" for a face-down tile.
 * options: {lang: "zh"|"en" for the accessible name, title: override it ("" for a decorative tile
 * whose button or caption names it), cls: extra class}.
 */
export function tileSVG(code, options = {}) {
  const back = code == null || code === "back";
  const label = options.title ?? (back ? (options.lang === "en" ? "face-down tile" : "暗牌") : tileName(code, options.lang || "zh"));
  const cls = `tile-svg${back ? " tile-back" : ""}${options.cls ? " " + options.cls : ""}`;
  const body = drawing(code);
  // title "" marks a decorative tile (its button or caption names it): hidden from assistive technology
  const a11y = label === "" ? 'aria-hidden="true"' : `role="img" aria-label="${escapeAttr(label)}"`;
  return `<svg xmlns="${NS}" class="${cls}" viewBox="0 0 ${W} ${H}" ${a11y}` +
    `${back ? "" : ` data-tile="${code}"`}>${body}</svg>`;
}

function drawing(code) {
  return code == null || code === "back" ? BACK : BODY + `<g transform="translate(0,-1.5)">${face(code)}</g>`;
}


/**
 * Put one CSS rule per tile in the document (its drawing as a background image), so that tileImg can
 * draw a tile as one small element: cheap to parse and redraw on a page showing a hundred tiles.
 */
export function installTileStyles(doc = document) {
  if (doc.getElementById("cm-tile-styles")) return;
  const style = doc.createElement("style");
  style.id = "cm-tile-styles";
  style.textContent = [...allKinds(true), "back"].map((code) =>
    `.t-${code}{background-image:url("data:image/svg+xml,${encodeURIComponent(tileSVG(code, { title: "" }))}")}`).join("\n") +
    `\n.tile-img{display:block;aspect-ratio:${W}/${H};background-size:100% 100%;background-repeat:no-repeat}`;
  doc.head.appendChild(style);
}

/**
 * A tile as one element drawn by the rules installTileStyles() adds (call it once per page). options as
 * tileSVG: lang, title ("" for a decorative tile whose button or caption names it), cls.
 */
export function tileImg(code, options = {}) {
  const back = code == null || code === "back";
  const label = options.title ?? (back ? (options.lang === "en" ? "face-down tile" : "暗牌") : tileName(code, options.lang || "zh"));
  const a11y = label === "" ? 'aria-hidden="true"' : `role="img" aria-label="${escapeAttr(label)}"`;
  return `<i class="tile-svg tile-img t-${back ? "back" : code}${options.cls ? " " + options.cls : ""}" ${a11y}` +
    `${back ? "" : ` data-tile="${code}"`}></i>`;
}

/** A tile as a DOM element (an <svg>). */
export function tileElement(code, options = {}) {
  const holder = document.createElement("div");
  holder.innerHTML = tileSVG(code, options);
  return holder.firstElementChild;
}

/** Every tile code of a set: the 108 suited kinds, plus honours when asked. */
/** The three tiles of a chow (吃, 大众麻将) starting at code: "3m" → ["3m", "4m", "5m"]. */
export function run(code) {
  const rank = Number(code[0]);
  return [0, 1, 2].map((i) => `${rank + i}${code[1]}`);
}

export function allKinds(honours = false) {
  const out = [];
  for (const suit of "mps") for (let r = 1; r <= 9; r++) out.push(`${r}${suit}`);
  if (honours) for (let r = 1; r <= 7; r++) out.push(`${r}z`);
  return out;
}
