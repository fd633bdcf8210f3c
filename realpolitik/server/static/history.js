// Results and history: every played phase with all orders, results and reasons, the map of that
// phase from the server, and a chart of supply centres per power drawn from the history data.
import { api, h, title, phaseName } from "./api.js";

const SVGNS = "http://www.w3.org/2000/svg";
const RESULT_LABEL = { succeeds: "succeeds", fails: "fails", void: "void", dislodged: "dislodged" };

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

export class HistoryPanel {
  constructor(page, box) {
    this.page = page;
    this.box = box;
    this.entries = [];
    this.seq = null;
  }

  async load() {
    try { this.entries = await api("GET", `/games/${this.page.id}/history`); } catch { this.entries = []; }
    if (this.seq === null || this.seq >= this.entries.length) this.seq = Math.max(0, this.entries.length - 1);
    this.render();
  }

  go(seq) {
    this.seq = Math.max(0, Math.min(this.entries.length - 1, seq));
    this.render();
    if (this.page.tab === "history") this.page.showMap();
  }

  render() {
    if (this.page.tab !== "history") return;
    const box = this.box;
    const n = this.entries.length;
    if (!n) {
      box.replaceChildren(h("h2", {}, "Results and history"), h("p", { class: "muted" }, "No phase has been played yet."), this.chart());
      return;
    }
    const entry = this.entries[this.seq];
    const slider = h("input", { type: "range", id: "hist-slider", min: 0, max: n - 1, value: this.seq, "aria-label": "Phase",
      "aria-valuetext": phaseName(entry.phase), oninput: (ev) => this.go(Number(ev.target.value)) });
    const select = h("select", { id: "hist-select", "aria-label": "Choose a phase", onchange: (ev) => this.go(Number(ev.target.value)) },
      this.entries.map((e, i) => h("option", { value: i, selected: i === this.seq }, phaseName(e.phase))));
    box.replaceChildren(
      h("h2", {}, "Results and history"),
      h("div", { class: "hist-nav" },
        h("button", { type: "button", "aria-label": "Earlier phase", disabled: this.seq === 0, onclick: () => this.go(this.seq - 1) }, "◀"),
        slider,
        h("button", { type: "button", "aria-label": "Later phase", disabled: this.seq === n - 1, onclick: () => this.go(this.seq + 1) }, "▶"),
        select),
      h("h3", { id: "hist-phase" }, phaseName(entry.phase)),
      this.results(entry),
      this.chart());
  }

  results(entry) {
    const res = (entry.resolution && entry.resolution.results) || [];
    const byPower = new Map();
    for (const r of res) {
      const p = (r.power || "").toLowerCase();
      if (!byPower.has(p)) byPower.set(p, []);
      byPower.get(p).push(h("li", { class: `res ${r.result}` },
        h("span", { class: "order" }, r.name || r.order), " ",
        h("span", { class: "tag" }, RESULT_LABEL[r.result] || r.result),
        r.reason ? h("div", { class: "why" }, r.reason) : null));
    }
    for (const [power, given] of Object.entries(entry.orders || {})) {
      const p = power.toLowerCase();
      for (const o of given) {
        if (o.order) continue;
        if (!byPower.has(p)) byPower.set(p, []);
        // only the writer gets these lines from the server: the others see the orders read
        byPower.get(p).push(h("li", { class: "res unread" }, h("span", { class: "order" }, o.text), " ",
          h("span", { class: "tag" }, "not sent: only you see this"), h("div", { class: "why" }, (o.error || "").split("\n")[0])));
      }
    }
    const cd = (entry.civil_disorder || []).map((p) => p.toLowerCase());
    // one's own powers first (what one looks for after a phase), then the others by name
    const mine = (this.page.game && this.page.game.my_powers) || [];
    const order = ([a], [b]) => (mine.includes(b) - mine.includes(a)) || a.localeCompare(b);
    const blocks = [...byPower.entries()].sort(order).map(([p, items]) => h("div", { class: "power-res" },
      h("h4", { class: `p-${p}` }, title(p), cd.includes(p) ? h("span", { class: "muted small" }, " (civil disorder)") : null),
      h("ul", {}, items)));
    const quiet = cd.filter((p) => !byPower.has(p));
    return h("div", { class: "results", id: "hist-results" },
      blocks.length ? blocks : h("p", { class: "muted" }, "No orders this phase."),
      quiet.length ? h("p", { class: "muted small" }, `In civil disorder: ${quiet.map(title).join(", ")}.`) : null,
      [...(entry.events || []), ...(entry.notes || [])].length ? h("ul", { class: "notes" }, [...(entry.events || []), ...(entry.notes || [])].map((x) => h("li", {}, typeof x === "string" ? x : JSON.stringify(x)))) : null);
  }

  /** Supply centres per power at the start of each year, and now. */
  chart() {
    const g = this.page.game;
    const colours = {};
    for (const v of (this.page.catalogue && this.page.catalogue.variants) || []) {
      if (v.id === g.variant) for (const p of v.powers) colours[p.id] = p.chart_colour || p.colour;
    }
    const points = [];
    const seen = new Set();
    for (const e of this.entries) {
      const year = e.phase.slice(1, -1);
      if (seen.has(year)) continue;
      seen.add(year);
      const counts = {};
      for (const [p, cs] of Object.entries(e.position.centers || {})) counts[p.toLowerCase()] = cs.length;
      points.push({ label: year, counts });
    }
    points.push({ label: "now", counts: g.centers });
    const powers = g.powers;
    const max = Math.max(4, ...points.flatMap((pt) => Object.values(pt.counts)));
    const W = 360, H = 200, L = 28, R = 64, T = 10, B = 24;
    const x = (i) => L + (points.length === 1 ? 0 : (i * (W - L - R)) / (points.length - 1));
    const y = (v) => T + (H - T - B) * (1 - v / max);
    const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", id: "sc-chart",
      "aria-label": `Supply centres per power: ${powers.map((p) => `${title(p)} ${g.centers[p] ?? 0}`).join(", ")}` });
    for (let v = 0; v <= max; v += max > 12 ? 4 : 2) {
      svg.append(s("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }), s("text", { x: L - 4, y: y(v) + 3, class: "axis", "text-anchor": "end" }, v));
    }
    const step = Math.ceil(points.length / 8);
    points.forEach((pt, i) => { if (i % step === 0 || i === points.length - 1) svg.append(s("text", { x: x(i), y: H - 8, class: "axis", "text-anchor": "middle" }, pt.label)); });
    const ends = [];
    for (const p of powers) {
      const vals = points.map((pt) => pt.counts[p] ?? 0);
      if (vals.every((v) => v === 0)) continue;
      const d = vals.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join(" ");
      const colour = colours[p] || "#888";
      svg.append(s("path", { d, class: "halo" }), s("path", { d, stroke: colour, class: "line" }, s("title", {}, `${title(p)}: ${vals.join(", ")}`)));
      vals.forEach((v, i) => svg.append(s("circle", { cx: x(i), cy: y(v), r: 2.6, fill: colour, class: "pt" })));
      ends.push({ p, v: vals[vals.length - 1], colour });
    }
    ends.sort((a, b) => b.v - a.v || a.p.localeCompare(b.p));
    // Labels at the right, each at its line's end but at least a line apart: pushed down, then,
    // if the last ones would fall below the plot (onto the years), pushed back up.
    // a line apart even when the chart is drawn smaller than its 360 units (a 330 px panel)
    const gap = 12, top = T + 3, bottom = H - B + 3;
    const ys = [];
    ends.forEach((e, i) => { ys.push(Math.max(y(e.v) + 3, i ? ys[i - 1] + gap : top)); });
    for (let i = ys.length - 1; i >= 0; i--) ys[i] = Math.min(ys[i], i === ys.length - 1 ? bottom : ys[i + 1] - gap);
    for (const [i, e] of ends.entries()) {
      const ly = ys[i];
      svg.append(s("text", { x: W - R + 6, y: ly, class: "legend" }, `${title(e.p)} ${e.v}`),
        s("rect", { x: W - R + 1, y: ly - 6, width: 4, height: 6, fill: e.colour, stroke: "#333", "stroke-width": 0.5 }));
    }
    return h("figure", { class: "chart-box" }, svg, h("figcaption", { class: "muted small" }, "Supply centres at the start of each year, and now."));
  }
}
