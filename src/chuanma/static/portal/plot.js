// A line plot as inline SVG (no chart library): values in order, an optional band (±) around them,
// the lowest and highest values written at the left edge.
const NS = "http://www.w3.org/2000/svg";
const W = 320;
const H = 120;
const PAD = 4;

function svg(tag, attrs) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** An <svg> of ``values`` (and ``band``: each value's ± width, optional), labelled ``label``. */
export function linePlot(values, { band = null, label = "", format = (v) => String(Math.round(v)) } = {}) {
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, class: "line-plot",
    preserveAspectRatio: "none" });
  if (!values.length) return root;
  const lows = values.map((v, i) => v - (band ? band[i] : 0));
  const highs = values.map((v, i) => v + (band ? band[i] : 0));
  let lo = Math.min(...lows);
  let hi = Math.max(...highs);
  if (hi === lo) { hi += 1; lo -= 1; }
  const x = (i) => PAD + (values.length === 1 ? (W - 2 * PAD) / 2 : (i * (W - 2 * PAD)) / (values.length - 1));
  const y = (v) => H - PAD - ((v - lo) * (H - 2 * PAD)) / (hi - lo);
  if (band) {
    const upper = highs.map((v, i) => `${x(i)},${y(v)}`);
    const lower = lows.map((v, i) => `${x(i)},${y(v)}`).reverse();
    root.append(svg("polygon", { points: [...upper, ...lower].join(" "), class: "plot-band" }));
  }
  root.append(svg("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "plot-line",
    "vector-effect": "non-scaling-stroke" }));
  for (const [v, at] of [[hi, PAD + 9], [lo, H - PAD - 2]]) {
    const text = svg("text", { x: PAD, y: at, class: "plot-label" });
    text.textContent = format(v);
    root.append(text);
  }
  return root;
}
