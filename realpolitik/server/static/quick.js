// The rules in sight and many units ordered quickly (issue 28): what a variant's rules do to
// the player's units before the orders are given (inactive units, the start choice, the cost
// of mobilising, sea superiority, protectorates, orders that would be void), a keyboard entry
// that completes places by name, a sheet of one's units to type over, and jumping the map to a
// unit or a region. Everything comes from the server: the game view's rule state, the legal
// orders, the orders' warnings and the catalogue's place names and regions. No rules here.
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

/** The game's rule state for ``power``: its inactive units, the start choice, protectorate
 * units it commands. Empty for a game whose variant has none. */
export function ruleFacts(g, power) {
  const mine = new Set(((g.position.units || {})[power.toUpperCase()] || []).map((u) => u.split(" ")[1].toLowerCase().split("/")[0]));
  const inactive = (g.inactive || []).filter((p) => mine.has(p));
  const choice = (g.start_choices || {})[power] || null;
  const guarded = new Map();  // province -> protectorate commanded by this power
  for (const [country, info] of Object.entries(g.protectorates || {})) {
    for (const p of info.units) if (mine.has(p.toLowerCase())) guarded.set(p.toLowerCase(), { country, ...info });
  }
  return { inactive, choice, guarded, mobilisation: (g.mobilisation || {})[power] || null };
}

/** A short note beside a unit in the lists, or null: inactive, one of the start choice, a
 * protectorate's unit. */
export function unitNote(g, power, loc) {
  const facts = ruleFacts(g, power);
  const prov = loc.toLowerCase().split("/")[0];
  if (facts.choice && facts.choice.units.includes(prov)) {
    return { cls: "choice", text: "inactive · start choice", why: `One of the inactive units among which ${title(power)} chooses ${facts.choice.count} to be active this turn (rule 8). Ordered to do anything but hold, it is chosen.` };
  }
  if (facts.inactive.includes(prov)) {
    return g.phase_type === "adjustments"
      ? { cls: "inactive", text: "inactive: may be mobilised", why: "An inactive unit; Mobilise brings it into play for one build this winter (rule 8)." }
      : { cls: "inactive", text: "inactive: holds", why: "An inactive unit only holds until it is mobilised (in a winter, for a build) or attacked (rule 8)." };
  }
  const country = facts.guarded.get(prov);
  if (country) {
    return { cls: "protectorate", text: `${country.country}'s`, why: `A unit of ${country.country}, which needs no supply centre: the holder of sea superiority commands it (rule 7).` };
  }
  return null;
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

/** The box above the orders: the rules acting on this power's units now, the start choice
 * as a choice, the cost of mobilising, sea superiority and the protectorates. Null when the
 * variant has none of these. */
export function rulesBox(page, power, lines) {
  const g = page.game;
  const places = placesOf(page);
  const facts = ruleFacts(g, power);
  const sea = g.sea_superiority;
  if (!facts.inactive.length && !facts.choice && !sea && !Object.keys(g.protectorates || {}).length) return null;
  const parts = [];
  if (facts.choice) parts.push(startChoice(page, power, facts.choice, lines, places));
  const others = facts.inactive.filter((p) => !(facts.choice && facts.choice.units.includes(p)));
  if (others.length) {
    parts.push(h("p", { id: "rules-inactive" }, h("strong", {}, `${others.length} inactive unit${others.length === 1 ? "" : "s"}`),
      ` (faded, in a dashed ring on the map) only hold until mobilised in a winter or attacked (rule 8): `,
      others.map((p) => unitName(places, unitOf(g, power, p))).join(", "), "."));
  }
  if (g.phase_type === "adjustments" && facts.mobilisation) {
    const m = facts.mobilisation;
    const given = lines.filter((l) => l.ok && l.order && l.order.kind === "mobilise").length;
    parts.push(h("p", { id: "rules-mobilise" }, h("strong", {}, "Mobilising: "),
      m.per_build > 0 ? `forgo one build this winter to bring up to ${m.per_build} of your ${m.units.length} inactive units into play (rule 8): choose Mobilise on each (${given} of ${m.per_build} given). The build count drops by one; more than ${m.per_build} are void.`
        : `not this winter: ${m.reason}.`));
  }
  if (sea) {
    const mine = sea.tiers[power];
    parts.push(h("p", { id: "rules-sea" }, h("strong", {}, "Sea superiority: "),
      sea.holder ? `${title(sea.holder)} (${sea.fleets[sea.holder]} fleets).` : "nobody.",
      mine ? ` ${title(power)}: ${sea.fleets[power] ?? 0} fleets, tier ${mine} (rule 4).` : ""));
  }
  const protectorates = Object.entries(g.protectorates || {});
  if (protectorates.length) {
    parts.push(h("p", { id: "rules-protectorates" }, h("strong", {}, "Protectorates: "),
      protectorates.map(([country, info]) => `${country}: ${info.controller ? `commanded by ${title(info.controller)}` : "neutral, its units in civil disorder"}`
        + (info.units.length ? ` (${info.units.map((p) => placeName(places, p)).join(", ")})` : "")).join("; "), " (rules 7(e), 7(f))."));
  }
  // open when there is something to decide or to fix: the start choice, a void order, a
  // winter's mobilisation; otherwise its summary line says enough (it opens on a click)
  const voids = voidReasons(page.orders[power] && page.orders[power].warnings).size;
  const open = page.rulesOpen ?? Boolean(facts.choice || voids || (g.phase_type === "adjustments" && facts.mobilisation));
  return h("details", { class: "rules-box", id: "rules-box", open: open || undefined, ontoggle: (ev) => { page.rulesOpen = ev.target.open; } },
    h("summary", {}, "Rules acting now", facts.choice ? ` · choose ${facts.choice.count} of ${facts.choice.units.length}` : "",
      others.length ? ` · ${others.length} inactive` : ""), parts);
}

function unitOf(g, power, prov) {
  const units = (g.position.units || {})[power.toUpperCase()] || [];
  return units.find((u) => u.split(" ")[1].toLowerCase().split("/")[0] === prov) || prov.toUpperCase();
}

/** Rule 8's start choice as a choice: a box per candidate. A candidate given an order other
 * than a hold is chosen, first given first chosen; ticking one gives it MOBILISE (chosen, it
 * holds), unticking a hold. Candidates ordered beyond the count are shown as void. */
function startChoice(page, power, choice, lines, places) {
  const legal = page.legal[power] || {};
  const { acting, chosen, orderOf } = choiceState(choice, lines);
  const full = chosen.length >= choice.count;
  const boxes = choice.units.map((prov) => {
    const loc = Object.keys(legal).find((l) => l.toLowerCase().split("/")[0] === prov);
    const orders = loc ? legal[loc] : [];
    const on = chosen.includes(prov);
    const voided = !on && acting.includes(prov);
    const mobilise = orders.find((o) => o.kind === "mobilise");
    const hold = orders.find((o) => o.kind === "hold");
    const id = `choose-${prov}`;
    const box = h("input", { type: "checkbox", id, checked: on || voided || undefined,
      disabled: (!on && !voided && full) || !loc || undefined,
      onchange: (ev) => {
        const order = ev.target.checked ? mobilise : hold;
        if (order) page.giveOrder(power, loc, order.text);
      } });
    const order = orderOf.get(prov);
    const doing = order && order.kind !== "mobilise" && order.kind !== "hold"
      ? orderName(places, order).replace(/^\S+ \S+( \([^)]*\))? /, "") : "";
    return h("li", { class: voided ? "void" : on ? "on" : "" }, box,
      h("label", { for: id, title: on ? "chosen: untick to make it hold" : voided ? "void: more chosen than allowed; untick to make it hold" : full ? `you have chosen ${choice.count}: untick one first` : "tick to choose it" },
        unitName(places, orders[0] ? orders[0].unit : prov.toUpperCase()), doing ? ` ${doing}` : "", voided ? " ⚠ void" : ""));
  });
  return h("div", { class: "start-choice", id: "start-choice", role: "group", "aria-labelledby": "start-choice-h" },
    h("p", { id: "start-choice-h" }, h("strong", {}, `Rule 8: ${title(power)} chooses ${choice.count} of these ${choice.units.length} inactive units to be active this turn`),
      ` (chosen: ${chosen.length} of ${choice.count}). Tick one to choose it (it holds), or give it a move; the others only hold, and orders to more than ${choice.count} of them are void.`),
    h("ul", { class: "choices" }, boxes));
}

/** Where the start choice stands in the orders given: the candidates given an order other
 * than a hold, in the order given (``acting``), the first ``count`` of them (``chosen``), and
 * each candidate's order. */
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

/** The sentence under the map explaining its marks, for a variant with inactive units. */
export function mapNote(g) {
  return (g.inactive || []).length ? "Faded units in a dashed ring are inactive (rule 8): they only hold until mobilised or attacked." : "";
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
  // rule 8: with the start choice made, another candidate's order but a hold would be void
  const choice = ruleFacts(page.game, power).choice;
  if (choice) {
    const { chosen } = choiceState(choice, lines);
    if (chosen.length >= choice.count) {
      for (const x of options) {
        const prov = x.loc.toLowerCase().split("/")[0];
        if (choice.units.includes(prov) && !chosen.includes(prov) && x.o.kind !== "hold") {
          x.label += ` — void: ${choice.count} chosen already (rule 8)`;
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
