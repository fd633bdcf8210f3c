// The server's HTTP API, the log-in token, and small helpers shared by the views.

const TOKEN = "rp:token";
const USER = "rp:user";

export class ApiError extends Error {
  constructor(status, code, message, detail) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
  }
}

export const auth = {
  get token() { return localStorage.getItem(TOKEN); },
  get user() { return localStorage.getItem(USER); },
  set(token, user) { localStorage.setItem(TOKEN, token); localStorage.setItem(USER, user); },
  clear() { localStorage.removeItem(TOKEN); localStorage.removeItem(USER); },
};

function describe(status, body) {
  const detail = body && body.detail;
  if (Array.isArray(detail)) {  // request validation (422)
    // "deadlines.movement: Value error, ..." reads as "Movement deadline: ..."
    const place = (loc) => {
      const parts = (loc || []).filter((x) => x !== "body");
      if (parts[0] === "deadlines" && parts.length === 2) return `${String(parts[1]).replace("_", " ")} deadline`;
      return parts.join(" ");
    };
    const plain = (m) => String(m || "").replace(/^(Value|Assertion) error, /, "");
    const msg = detail.map((d) => { const p = place(d.loc); const text = plain(d.msg);
      return p ? `${p[0].toUpperCase()}${p.slice(1)}: ${text}` : text; }).join("; ");
    return new ApiError(status, "invalid", msg, detail);
  }
  if (detail && typeof detail === "object") {
    return new ApiError(status, detail.code || "error", detail.message || JSON.stringify(detail), detail);
  }
  return new ApiError(status, "error", typeof detail === "string" ? detail : `the server answered ${status}`, detail);
}

/** Call the API; resolves to the parsed JSON (or text for SVG); rejects with ApiError. */
export async function api(method, path, body) {
  const headers = {};
  if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, "network", "the server cannot be reached", null);
  }
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json().catch(() => null) : await response.text();
  if (!response.ok) {
    if (response.status === 401 && auth.token) auth.clear();
    throw describe(response.status, data);
  }
  return data;
}

/** An element: h("button", {class: "x", onclick: f}, "text", child...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace an element's children, skipping null, undefined and false. */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

const powerNames = new Map();

/** Remember the powers' display names of the variants of /web/variants ("usa" -> "United States"). */
export function learnPowerNames(catalogue) {
  for (const variant of (catalogue && catalogue.variants) || []) {
    for (const power of variant.powers || []) powerNames.set(power.id, power.name);
  }
}

/** A power's display name: the variant's name for it, else the id with a capital. */
export function title(id) {
  if (!id) return "";
  return powerNames.get(id) || powerNames.get(String(id).toLowerCase()) || id.charAt(0).toUpperCase() + id.slice(1).toLowerCase();
}

let seasonNames = new Map();

/** Remember the seasons of the game on the page: its view's `seasons`, code -> name (the
 * variant's year: {"S": "Spring", "U": "Summer", ...}). */
export function learnSeasons(seasons) {
  seasonNames = new Map(Object.entries(seasons || {}));
}

/** "S1901M" -> "Spring 1901 movement", with the season's name from the game's view
 * (learnSeasons); a season not learned is shown by its code. */
export function phaseName(code) {
  const m = /^([A-Z]+)(\d+)([MRA])$/.exec(code || "");
  if (!m) return code || "";
  const season = seasonNames.get(m[1]) || m[1];
  const type = { M: "movement", R: "retreats", A: "adjustments" }[m[3]];
  return `${season} ${m[2]} ${type}`;
}

const TOAST_LIMIT = 3;

/** A short message: on a game page above the side panel (never over the map, where a click meant
 * for a unit would hit it), elsewhere at the foot of the window. Each goes away by itself; at
 * most three are shown, the oldest make way, and the same words never pile up. */
export function toast(message, action) {
  const box = document.getElementById("notices") || document.getElementById("toasts");
  for (const old of box.querySelectorAll(".toast")) if (old.dataset.message === message) old.remove();
  const item = h("div", { class: "toast", dataset: { message } }, h("span", {}, message));
  if (action) item.append(h("button", { type: "button", onclick: () => { action.run(); item.remove(); } }, action.label));
  item.append(h("button", { type: "button", class: "close", "aria-label": "Dismiss", onclick: () => item.remove() }, "×"));
  box.append(item);
  const shown = box.querySelectorAll(".toast");
  for (let i = 0; i < shown.length - TOAST_LIMIT; i++) shown[i].remove();
  // out of the way of the map, a notice may stay long enough to be read after a look away
  const inPanel = box.id === "notices";
  setTimeout(() => item.remove(), action ? (inPanel ? 30000 : 12000) : (inPanel ? 8000 : 6000));
}

/** A notification outside the page (if the player allowed them) while the page is not looked
 * at; returns whether one was shown. */
export function notify(titleText, body, tag) {
  if (!("Notification" in window) || Notification.permission !== "granted") return false;
  if (document.visibilityState === "visible" && document.hasFocus()) return false;
  try {
    const n = new Notification(titleText, { body, tag });
    n.onclick = () => { window.focus(); n.close(); };
    return true;
  } catch { return false; }  // some browsers allow notifications only from a service worker
}

/** "14:05" today, "24 Nov 14:05" on another day (the viewer's own clock and time zone). */
export function clockTime(iso) {
  if (!iso) return "";
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return "";
  const time = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const today = new Date();
  if (when.toDateString() === today.toDateString()) return time;
  return `${when.toLocaleDateString([], { day: "numeric", month: "short" })} ${time}`;
}

/** Kept in localStorage: drafts of orders and press, read markers. */
export const local = {
  get(key, fallback = null) {
    try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch { return fallback; }
  },
  set(key, value) {
    try {
      if (value === null || value === undefined || value === "") localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
    } catch { /* storage full or disabled: drafts are a convenience */ }
  },
};

export function duration(seconds) {
  seconds = Math.max(0, Math.round(seconds));
  const d = Math.floor(seconds / 86400), hr = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (d) return `${d}d ${hr}h ${two(m)}m`;
  if (hr) return `${hr}:${two(m)}:${two(s)}`;
  return `${m}:${two(s)}`;
}

/** A text box's length against the server's limit, shown as one types (nothing is ever cut):
 * the counter element, and ``fits()`` to call before sending (false when over, and the counter
 * says by how much). */
export function lengthLimit(box, max, what) {
  const counter = h("p", { class: "counter small", "aria-live": "polite" });
  const n = (x) => x.toLocaleString("en-GB");
  const update = () => {
    const used = box.value.length;
    const over = max ? used - max : 0;
    counter.classList.toggle("over", over > 0);
    counter.textContent = !max ? "" : over > 0
      ? `${n(used)} characters: ${n(over)} over the limit of ${n(max)} for ${what}. Shorten it to send; nothing is cut.`
      : `${n(used)} / ${n(max)} characters`;
  };
  box.addEventListener("input", update);
  update();
  return { counter, update, fits: () => { update(); return !max || box.value.length <= max; } };
}

/** True on a touch screen without a keyboard shortcut to speak of (a phone). */
export function touchOnly() {
  return window.matchMedia("(pointer: coarse)").matches && !window.matchMedia("(pointer: fine)").matches;
}
