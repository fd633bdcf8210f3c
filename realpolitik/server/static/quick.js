// The rules in sight and many units ordered quickly (issue 28): what a variant's rules do to
// the player's units before the orders are given (the game view's rule notes, said by the
// variant: notes, marks beside units, a choice to make; orders that would be void), a keyboard
// entry that completes places by name, a sheet of one's units to type over, and jumping the map
// to a unit or a region. Everything comes from the server: the game view's rule notes, the
// legal orders, the orders' warnings and the catalogue's place names and regions. No rules
// here, and no variant's.
import { h, title } from "./api.js";

const COASTS = { nc: "north", sc: "south", ec: "east", wc: "west" };
const READABLE = 1.6;  // how much a jump zooms the picture past its drawn size: small labels (7 px) near 11 px

/** Province id -> name, from the catalogue (``/web/variants``) of the game's variant. */
export function placesOf(page) {
  const v = variantOf(page);
  return (v && v.places) || {};
}

function variantOf(page) {
  const cat = page.catalogue;
  return cat && page.game ? cat.variants.find((v) => v.id === page.game.variant) : null;
}

/** "N91/NC" as "Windsor (north coast)"; an unknown place stays as written. */
export function placeName(places, loc) {
  if (!loc) return "";
  const [id, coast] = loc.toLowerCase().split("/");
  const name = places[id] || (coast ? loc.split("/")[0] : loc);
  return coast ? `${name} (${COASTS[coast] || coast} coast)` : name;
}

/** "F E8" as "F London". */
export function unitName(places, unit) {
  const [type, loc] = (unit || "").split(" ");
  return loc ? `${type} ${placeName(places, loc)}` : unit;
}

/** The menu's words for an order of a kind the variant declares (the game view's
 * order_kinds: its label for this phase, then what the order names), or null for the
 * rulebooks' kinds. */
export function kindWords(kinds, o, phaseType = "movement") {
  const kind = (kinds || []).find((k) => k.name === o.kind);
  if (!kind) return null;
  const label = (kind.labels || {})[phaseType] || kind.label;
  return o.to ? `${label} ${o.to_name || o.to}` : label;
}

/** An order of the legal-orders list in words, places by name: "F London → Channel"; an
 * order of the variant's own kinds as the kind words it (kindWords). */
export function orderName(places, o, phaseType = "movement", kinds = []) {
  const unit = unitName(places, o.unit);
  switch (o.kind) {
    case "hold": return `${unit} holds`;
    case "move": return `${unit} → ${placeName(places, o.to)}${o.via_convoy ? " via convoy" : ""}`;
    case "retreat": return `${unit} retreats → ${placeName(places, o.to)}`;
    case "support": return o.to ? `${unit} supports ${unitName(places, o.target)} → ${placeName(places, o.to)}`
      : `${unit} supports ${unitName(places, o.target)} holding`;
    case "convoy": return `${unit} convoys ${unitName(places, o.target)} → ${placeName(places, o.to)}`;
    case "disband": return `${unit}: disband`;
    case "build": return `Build ${unit}`;
    default: {
      const words = kindWords(kinds, o, phaseType);
      return words ? `${unit}: ${words[0].toLowerCase()}${words.slice(1)}` : o.text;
    }
  }
}

// -- the rules in sight -------------------------------------------------------------------------

const NO_NOTES = { notes: [], marks: [], choice: null, legend: "" };

/** The variant's rules acting now on ``power``'s units, as the game view says them in words
 * (its ``rule_notes``: notes with a heading, marks beside units, a choice to make). Empty for a
 * variant that has none. */
export function ruleNotes(g, power) {
  return (g.rule_notes || {})[power] || NO_NOTES;
}

/** A short note beside a unit in the lists ({cls, text, why}), or null: the variant's mark
 * for the unit. */
export function unitNote(g, power, loc) {
  const prov = loc.toLowerCase().split("/")[0];
  const mark = ruleNotes(g, power).marks.find((m) => m.province === prov);
  return mark ? { cls: mark.mark, text: mark.text, why: mark.why } : null;
}

/** Order text -> why it would be void, from the warnings the server gives with the orders
 * ("<order>: will be void: <reason>"). */
export function voidReasons(warnings) {
  const out = new Map();
  for (const w of warnings || []) {
    const at = w.indexOf(": will be void: ");
    if (at > 0) out.set(w.slice(0, at), w.slice(at + ": will be void: ".length));
  }
  return out;
}

/** How many of the orders given (the lines read) are of ``kind``. */
function givenOf(lines, kind) {
  return lines.filter((l) => l.ok && l.order && l.order.kind === kind).length;
}

/** The box above the orders: the variant's rules acting on this power's units now, each note
 * under its heading (with the count of the orders it speaks of given so far), and the choice
 * its orders make as tick boxes. Null when the variant says nothing. */
export function rulesBox(page, power, lines) {
  const { notes, choice } = ruleNotes(page.game, power);
  if (!notes.length && !choice) return null;
  const parts = [];
  if (choice) parts.push(choiceBox(page, power, choice, lines, placesOf(page)));
  for (const note of notes) {
    const tally = note.tally ? ` ${givenOf(lines, note.tally.kind)} of ${note.tally.limit} given.` : "";
    parts.push(h("p", { id: `rules-${note.topic}` }, h("strong", {}, `${note.heading}: `), note.text, tally));
  }
  // open when there is something to decide or to fix: a choice, a void order, a note that
  // presses; otherwise its summary line says enough (it opens on a click)
  const voids = voidReasons(page.orders[power] && page.orders[power].warnings).size;
  const open = page.rulesOpen ?? Boolean(choice || voids || notes.some((n) => n.pressing));
  return h("details", { class: "rules-box", id: "rules-box", open: open || undefined, ontoggle: (ev) => { page.rulesOpen = ev.target.open; } },
    h("summary", {}, "Rules acting now", choice ? ` · choose ${choice.count} of ${choice.units.length}` : "",
      notes.filter((n) => n.brief).map((n) => ` · ${n.brief}`).join("")), parts);
}

/** The choice the power's orders make, as tick boxes: a box per unit. A unit given an order
 * other than a hold is chosen, first given first chosen; ticking one gives it the choice's
 * kind of order (chosen, it holds), unticking a hold. Units ordered beyond the count are
 * shown as void. */
function choiceBox(page, power, choice, lines, places) {
  const legal = page.legal[power] || {};
  const { acting, chosen, orderOf } = choiceState(choice, lines);
  const full = chosen.length >= choice.count;
  const boxes = choice.units.map((prov) => {
    const loc = Object.keys(legal).find((l) => l.toLowerCase().split("/")[0] === prov);
    const orders = loc ? legal[loc] : [];
    const on = chosen.includes(prov);
    const voided = !on && acting.includes(prov);
    const choosing = orders.find((o) => o.kind === choice.kind);
    const hold = orders.find((o) => o.kind === "hold");
    const id = `choose-${prov}`;
    const box = h("input", { type: "checkbox", id, checked: on || voided || undefined,
      disabled: (!on && !voided && full) || !loc || undefined,
      onchange: (ev) => {
        const order = ev.target.checked ? choosing : hold;
        if (order) page.giveOrder(power, loc, order.text);
      } });
    const order = orderOf.get(prov);
    const doing = order && order.kind !== choice.kind && order.kind !== "hold"
      ? orderName(places, order).replace(/^\S+ \S+( \([^)]*\))? /, "") : "";
    return h("li", { class: voided ? "void" : on ? "on" : "" }, box,
      h("label", { for: id, title: on ? "chosen: untick to make it hold" : voided ? "void: more chosen than allowed; untick to make it hold" : full ? `you have chosen ${choice.count}: untick one first` : "tick to choose it" },
        unitName(places, orders[0] ? orders[0].unit : prov.toUpperCase()), doing ? ` ${doing}` : "", voided ? " ⚠ void" : ""));
  });
  return h("div", { class: "unit-choice", id: "unit-choice", role: "group", "aria-labelledby": "unit-choice-h" },
    h("p", { id: "unit-choice-h" }, h("strong", {}, choice.heading),
      ` (chosen: ${chosen.length} of ${choice.count}). ${choice.text}`),
    h("ul", { class: "choices" }, boxes));
}

/** Where the choice stands in the orders given: the units given an order other than a hold,
 * in the order given (``acting``), the first ``count`` of them (``chosen``), and each unit's
 * order. */
function choiceState(choice, lines) {
  const acting = [];
  const orderOf = new Map();
  for (const l of lines) {
    if (!l.ok || !l.order || !l.order.unit) continue;
    const prov = l.order.unit.split(" ")[1].toLowerCase().split("/")[0];
    if (!choice.units.includes(prov)) continue;
    orderOf.set(prov, l.order);
    if (l.order.kind !== "hold" && !acting.includes(prov)) acting.push(prov);
  }
  return { acting, chosen: acting.slice(0, choice.count), orderOf };
}

/** The sentence under the map explaining the marks the variant's rules put on it. */
export function mapNote(g) {
  return (g.game_notes && g.game_notes.legend) || "";
}

// -- many units quickly -------------------------------------------------------------------------

/** A keyboard entry: type a few letters of a unit's place and of where it goes ("lon cha"),
 * the matching legal orders are listed, Enter (or a click) gives the first or the chosen
 * one. Every word typed must begin a word of the order, its names or its codes. */
export function quickEntry(page, power) {
  const places = placesOf(page);
  const legal = page.legal[power] || {};
  const options = [];
  for (const [loc, orders] of Object.entries(legal)) {
    for (const o of orders) {
      const label = orderName(places, o, page.game.phase_type, page.game.order_kinds);
      const words = wordsOf(`${label} ${o.text}`);
      options.push({ loc, o, label, words });
    }
  }
  if (!options.length) return null;
  const lines = (page.orders[power] && page.orders[power].lines) || [];
  const ordered = new Set();
  for (const l of lines) {
    if (l.ok && l.order && l.order.unit) ordered.add(l.order.unit.split(" ")[1].toLowerCase().split("/")[0]);
  }
  // with the variant's choice made, another unit's order but a hold would be void
  const choice = ruleNotes(page.game, power).choice;
  if (choice) {
    const { chosen } = choiceState(choice, lines);
    if (chosen.length >= choice.count) {
      for (const x of options) {
        const prov = x.loc.toLowerCase().split("/")[0];
        if (choice.units.includes(prov) && !chosen.includes(prov) && x.o.kind !== "hold") {
          x.label += ` — void: ${choice.when_full}`;
          x.void = true;
        }
      }
    }
  }
  const next = Object.keys(legal).find((l) => l !== "waive" && !ordered.has(l.toLowerCase().split("/")[0]));
  const list = h("ul", { class: "completions", id: "quick-list", role: "listbox", hidden: true });
  const input = h("input", { id: "quick", type: "text", role: "combobox", autocomplete: "off", spellcheck: "false",
    "aria-controls": "quick-list", "aria-expanded": "false", "aria-autocomplete": "list",
    placeholder: next ? `e.g. ${hintFor(places, legal[next])}` : page.game.phase_type === "adjustments" ? "" : "every unit has an order" });
  let shown = [];
  let at = 0;
  const render = () => {
    const words = wordsOf(input.value);
    shown = words.length ? options.filter((x) => words.every((w) => x.words.some((v) => v.startsWith(w)))) : [];
      // orders that would be void last, then a unit not ordered yet first, then shorter orders
    shown.sort((a, b) => (Boolean(a.void) - Boolean(b.void))
      || (ordered.has(a.loc.split("/")[0].toLowerCase()) - ordered.has(b.loc.split("/")[0].toLowerCase()))
      || (a.label.length - b.label.length));
    shown = shown.slice(0, 8);
    at = Math.min(at, Math.max(0, shown.length - 1));
    list.replaceChildren(...shown.map((x, i) => h("li", { role: "option", id: `quick-${i}`, "aria-selected": String(i === at), class: x.void ? "void" : null,
      onmousedown: (ev) => { ev.preventDefault(); choose(i); } }, x.label, h("span", { class: "muted small" }, ` ${x.o.text}`))));
    list.hidden = !shown.length;
    input.setAttribute("aria-expanded", String(shown.length > 0));
    if (shown.length) input.setAttribute("aria-activedescendant", `quick-${at}`); else input.removeAttribute("aria-activedescendant");
  };
  const choose = (i) => {
    const x = shown[i];
    if (!x) return;
    input.value = "";
    page.quickFocus = true;  // the panel is drawn again: the entry keeps the focus
    page.giveOrder(power, x.loc, x.o.text);
  };
  input.addEventListener("input", () => { at = 0; render(); });
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowDown" && shown.length) { ev.preventDefault(); at = (at + 1) % shown.length; render(); }
    else if (ev.key === "ArrowUp" && shown.length) { ev.preventDefault(); at = (at - 1 + shown.length) % shown.length; render(); }
    else if (ev.key === "Enter") { ev.preventDefault(); choose(at); }
    else if (ev.key === "Escape") { input.value = ""; render(); }
  });
  input.addEventListener("blur", () => { list.hidden = true; input.setAttribute("aria-expanded", "false"); });
  // (in a winter the lists hold build sites and units that may be removed: none is owed an order)
  const left = page.game.phase_type === "adjustments" ? 0
    : Object.keys(legal).filter((l) => l !== "waive" && !ordered.has(l.toLowerCase().split("/")[0])).length;
  return h("div", { class: "quick" },
    h("label", { for: "quick", class: "block" }, "Quick order"),
    h("p", { class: "muted small", id: "quick-help" }, "Type a few letters of the unit's place and of where it goes (", h("kbd", {}, "lon cha"),
      "), then Enter. ↑ ↓ choose among the matches; ", h("kbd", {}, "/"), " comes back here. ", page.game.phase_type === "adjustments" ? null
        : h("span", { id: "quick-left" }, left ? `${left} unit${left === 1 ? "" : "s"} without an order.` : "Every unit has an order.")),
    h("div", { class: "combo" }, input, list));
}

/** The words of an order or of what is typed, lower case, without the signs between them
 * ("F E8 - 18", "f e8-18" and "F London → Channel" are all words). */
function wordsOf(text) {
  return text.toLowerCase().replace(/[()→:,/>-]/g, " ").split(/\s+/).filter(Boolean);
}

function hintFor(places, orders) {
  const o = (orders || []).find((x) => x.kind === "move") || (orders || [])[0];
  if (!o) return "";
  const [type, loc] = o.unit.split(" ");
  const unit = placeName(places, loc).split(" ")[0].slice(0, 3).toLowerCase();
  if (o.kind === "build") return `${unit} ${type.toLowerCase()}`;
  const to = o.to ? placeName(places, o.to).split(" ")[0].slice(0, 3).toLowerCase() : "h";
  return `${unit} ${to}`;
}

/** The power's orders as a sheet to type over: one line per unit (or build site), its order
 * if it has one, else "<unit> H" with the places by name, which the parser reads. */
export function sheetText(page, power) {
  const places = placesOf(page);
  const legal = page.legal[power] || {};
  const lines = (page.orders[power] && page.orders[power].lines) || [];
  const given = new Map();
  for (const l of lines) if (l.ok && l.order && l.order.unit) given.set(l.order.unit.split(" ")[1].toLowerCase().split("/")[0], l.text.trim());
  const out = [];
  for (const [loc, orders] of Object.entries(legal)) {
    if (loc === "waive" || !orders.length) continue;
    const prov = loc.toLowerCase().split("/")[0];
    if (given.has(prov)) { out.push(given.get(prov)); continue; }
    if (orders[0].kind === "build") continue;  // a build site is no line until built
    const hold = orders.find((o) => o.kind === "hold");
    if (hold) out.push(`${unitName(places, hold.unit)} H`);
  }
  return out.join("\n");
}

/** The map bar's "Jump to" list: each of my units (by name), then the map's regions. A unit
 * is zoomed to, readable, and selected as if clicked; a region is zoomed to fit. */
export function jumpControl(page) {
  const v = variantOf(page);
  const regions = (v && v.regions) || [];
  const places = placesOf(page);
  const power = page.power;
  const units = power ? ((page.game.position.units || {})[power.toUpperCase()] || []) : [];
  if (!regions.length && units.length < 10) return null;  // a small board is seen whole
  const sel = h("select", { id: "jump", "aria-label": "Jump the map to" },
    h("option", { value: "" }, "Jump to…"),
    units.length ? h("optgroup", { label: `${title(power)}'s units` },
      h("option", { value: "mine" }, `All ${units.length} units`),
      [...units].sort((a, b) => unitName(places, a).localeCompare(unitName(places, b)))
        .map((u) => h("option", { value: `unit:${u.split(" ")[1].toLowerCase().split("/")[0]}` }, unitName(places, u)))) : null,
    regions.length ? h("optgroup", { label: "Regions" }, regions.map((r, i) => h("option", { value: `region:${i}` }, r.name))) : null);
  sel.addEventListener("change", () => {
    const value = sel.value;
    sel.value = "";
    if (value === "mine") zoomTo(page, units.map((u) => u.split(" ")[1].toLowerCase().split("/")[0]));
    else if (value.startsWith("unit:")) {
      const prov = value.slice(5);
      zoomTo(page, [prov], { readable: true });
      const path = page.map.svg && page.map.svg.querySelector(`#spaces path[id="${CSS.escape(prov)}"]`);
      if (path && page.byProv.has(prov)) {
        const r = path.getBoundingClientRect(), box = page.mapBox.getBoundingClientRect();
        page.selectUnit(prov, { x: r.x + r.width / 2 - box.x, y: r.y + r.height / 2 - box.y });
      }
    } else if (value.startsWith("region:")) zoomTo(page, regions[Number(value.slice(7))].provinces);
  });
  return sel;
}

/** The map bar's − and + buttons: zoom out or in about the middle of the map's box (the
 * mouse wheel and two fingers do the same about the pointer). */
export function zoomButtons(page) {
  const step = (factor) => () => {
    const box = page.mapBox.getBoundingClientRect();
    page.map.zoomBy(factor, box.x + box.width / 2, box.y + box.height / 2);
  };
  return [h("button", { type: "button", class: "secondary small", id: "zoom-out", "aria-label": "Zoom out", title: "Zoom out", onclick: step(1 / 1.5) }, "−"),
    h("button", { type: "button", class: "secondary small", id: "zoom-in", "aria-label": "Zoom in", title: "Zoom in", onclick: step(1.5) }, "+")];
}

/** Zoom the map so that ``provinces`` fill its box (with ``readable``, for one unit: the zoom
 * at which the smallest names can be read) and scroll them to the middle. */
export function zoomTo(page, provinces, { readable = false } = {}) {
  const svg = page.map && page.map.svg;
  if (!svg || !provinces.length) return;
  const el = page.mapBox;
  const paths = provinces.map((p) => svg.querySelector(`#spaces path[id="${CSS.escape(p)}"]`)).filter(Boolean);
  if (!paths.length) return;
  const drawn = svg.viewBox.baseVal.width || el.clientWidth;
  // the provinces' box in the picture's own units
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const p of paths) {
    const b = p.getBBox();
    x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y); x1 = Math.max(x1, b.x + b.width); y1 = Math.max(y1, b.y + b.height);
  }
  const drawnHeight = svg.viewBox.baseVal.height || drawn;
  const fitWidth = el.clientWidth * drawn / Math.max(x1 - x0, 1) * 0.8;
  const fitHeight = el.clientHeight * drawnHeight / Math.max(y1 - y0, 1) * 0.8 * (drawn / drawnHeight);
  // one unit: the zoom at which the smallest names read; several: all of them in the box
  let width = readable ? Math.max(drawn * READABLE, el.clientWidth * 2.5) : Math.min(fitWidth, fitHeight);
  width = Math.min(Math.max(width, el.clientWidth), Math.max(drawn * 3, el.clientWidth * 6));
  if (width > el.clientWidth + 1) {
    el.classList.add("zoomed");
    page.map.zoomWidth = `${Math.round(width)}px`;
    svg.style.width = page.map.zoomWidth;
  } else {
    el.classList.remove("zoomed");
    page.map.zoomWidth = null;
    svg.style.width = "";
  }
  const scale = width / drawn;
  el.scrollTo({ left: (x0 + x1) / 2 * scale - el.clientWidth / 2, top: (y0 + y1) / 2 * scale - el.clientHeight / 2 });
  el.dispatchEvent(new CustomEvent("zoomchange", { detail: { zoomed: el.classList.contains("zoomed") } }));
}
