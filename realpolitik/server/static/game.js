// The game page: the map, order entry (clicks, lists, text), ready flag, deadline, seats and the
// gamesmaster's buttons, with the press and history panels. Every choice offered comes from the
// server's legal-orders endpoint and every order goes through the server's parser: no rules here.
import { api, auth, h, fill, title, phaseName, learnSeasons, toast, notify, local, duration, lengthLimit, touchOnly } from "./api.js";
import { MapView } from "./mapview.js";
import { PressPanel } from "./press.js";
import { HistoryPanel } from "./history.js";
import { rulesBox, unitNote, voidReasons, quickEntry, sheetText, jumpControl, mapNote, zoomButtons, kindWords } from "./quick.js";

const provOf = (loc) => (loc || "").split("/")[0].toLowerCase();
const unitProv = (unit) => provOf((unit || "").split(" ")[1]);
/** How an order reads: with the places' names where the variant writes them ("F London -
 * English Channel", which the server reads back), else its text ("F LON - ENG"). */
const said = (o) => (o && (o.name || o.text)) || "";
const KIND_LABEL = { hold: "Hold", move: "Move", support: "Support", convoy: "Convoy", retreat: "Retreat",
  disband: "Disband", build: "Build", waive: "Waive" };
/** A kind's group label: the rulebooks' kinds', or the label of a kind the variant declares. */
const kindLabel = (game, kind) => KIND_LABEL[kind] || ((game.order_kinds || []).find((k) => k.name === kind) || {}).label || kind;

export class GamePage {
  constructor(root, id, { variants, onAuthChange }) {
    this.root = root;
    this.id = id;
    this.variants = variants;
    this.onAuthChange = onAuthChange;
    this.game = null;
    this.orders = {};       // power -> {text, lines, ready, submitted}
    this.legal = {};        // power -> {loc: [order]}
    this.byProv = new Map(); // province -> {power, loc, orders}
    this.power = null;      // the power whose orders are being edited
    this.tab = local.get(`rp:tab:${id}`, "orders");
    this.sel = null;        // click state
    this.ws = null;
    this.closed = false;
    this.timer = setInterval(() => this.tick(), 1000);
    this.keyHandler = (ev) => {
      if (ev.key === "Escape") this.cancelSelection();
      // "/" goes to the quick order entry, unless one is typing somewhere already
      const typing = ev.target && ev.target.closest && ev.target.closest("input, textarea, select, [contenteditable]");
      if (ev.key === "/" && !typing && this.root.querySelector("#quick")) { ev.preventDefault(); this.root.querySelector("#quick").focus(); }
    };
    document.addEventListener("keydown", this.keyHandler);
    this.changedElsewhere = {};  // power -> {before, now, refused}: orders changed in another tab
    this.inflight = {};          // power -> the submission on its way
    // a draft typed in another tab of this game shows here too (drafts live in localStorage)
    this.storageHandler = (ev) => {
      if (ev.key && ev.key.startsWith(`rp:draft:orders:${id}:`) && this.game && this.ordersBox) this.renderOrders();
    };
    window.addEventListener("storage", this.storageHandler);
    this.start();
  }

  destroy() {
    this.closed = true;
    clearInterval(this.timer);
    document.removeEventListener("keydown", this.keyHandler);
    window.removeEventListener("storage", this.storageHandler);
    if (this.ws) this.ws.close();
    clearTimeout(this.reconnect);
    clearTimeout(this.mapTimer);
  }

  async start() {
    this.root.replaceChildren(h("p", { class: "muted" }, "Loading the game…"));
    try {
      this.catalogue = await this.variants();
      await this.loadGame();
    } catch (err) {
      this.root.replaceChildren(h("p", { class: "error" }, err.message), h("p", {}, h("a", { href: "#/" }, "Back to the lobby")));
      return;
    }
    if (!this.game.my_powers.length && !local.get(`rp:tab:${this.id}`)) this.tab = "game";
    this.build();
    this.press = new PressPanel(this, this.pressBox);
    this.history = new HistoryPanel(this, this.historyBox);
    await Promise.all([this.loadOrders(), this.press.load(), this.history.load()]);
    this.renderAll();
    this.connect();
  }

  // -- data ---------------------------------------------------------------------------------------

  async loadGame() {
    const before = this.game && this.game.phase;
    this.game = await api("GET", `/games/${this.id}`);
    // a new phase: the last phase's legal orders must not be offered on the map in the moment
    // before this phase's are loaded (the head, drawn first, asks the game's to_order only)
    if (before && before !== this.game.phase) { this.legal = {}; this.indexLegal(); }
    learnSeasons(this.game.seasons);
    this.deadlineAt = this.game.seconds_left === null ? null : Date.now() + this.game.seconds_left * 1000;
    document.title = `${this.game.name} · ${phaseName(this.game.phase)} · realpolitik`;
  }

  get mine() { return this.game ? this.game.my_powers : []; }

  /** My powers that have something to order this phase (or all of mine, outside a phase). */
  get orderingPowers() {
    const g = this.game;
    if (!g || g.status === "finished") return [];
    return this.mine.filter((p) => g.to_order.includes(p) || this.legal[p] && Object.keys(this.legal[p]).length);
  }

  async loadOrders() {
    this.orders = {};
    this.legal = {};
    if (!auth.token || !this.mine.length || this.game.status === "finished") { this.indexLegal(); return; }
    try {
      const sent = { ...(this.sentOrders || {}) };  // what was sent before this read began
      const [mine, ...legal] = await Promise.all([
        api("GET", `/games/${this.id}/orders`),
        ...this.mine.map((p) => api("GET", `/games/${this.id}/legal-orders?power=${p}`)),
      ]);
      // orders sent while this read was under way are newer than what it read
      for (const [p, answer] of Object.entries(this.sentOrders || {})) {
        if (answer !== sent[p] && answer.phase === this.game.phase) mine[p] = answer.orders;
      }
      this.orders = mine;
      this.mine.forEach((p, i) => { this.legal[p] = legal[i]; });
    } catch (err) {
      toast(err.message);
    }
    this.indexLegal();
    const choices = this.orderingPowers;
    if (!choices.includes(this.power)) this.power = choices[0] || this.mine[0] || null;
  }

  indexLegal() {
    this.byProv = new Map();
    for (const [power, table] of Object.entries(this.legal)) {
      for (const [loc, orders] of Object.entries(table)) {
        if (loc === "waive") continue;
        this.byProv.set(provOf(loc), { power, loc, orders });
      }
    }
  }

  /** Load the game and my orders again and redraw. A call made while another waits to start
   * shares it; one made while another runs waits and runs once more. (A phase played sends
   * "phase" and "deadline" while the Mark ready request returns: three refreshes at once, each
   * loading the map, took a second and a half with the 800 KB world map.) */
  refresh() {
    if (this.queuedRefresh) return this.queuedRefresh;
    const run = (this.runningRefresh || Promise.resolve()).catch(() => {}).then(async () => {
      this.queuedRefresh = null;
      this.runningRefresh = run;
      try {
        await this.loadGame();
        this.renderHead();  // the new phase at once; the orders and the map follow
        await this.loadOrders();
        this.renderAll();
      } finally {
        if (this.runningRefresh === run) this.runningRefresh = null;
      }
    });
    this.queuedRefresh = run;
    return run;
  }

  // -- live events --------------------------------------------------------------------------------

  async connect() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    // The token never goes into the socket's URL (URLs end up in logs): a single-use ticket does.
    let query = "";
    if (auth.token) {
      try {
        const { ticket } = await api("POST", "/auth/ticket", {});
        query = `?ticket=${encodeURIComponent(ticket)}`;
      } catch (err) {
        if (err.status === 401) { this.setLive(false); return; }  // logged out: the page reloads
        this.retry();
        return;
      }
      if (this.closed) return;
    }
    const ws = new WebSocket(`${proto}://${location.host}/games/${this.id}/ws${query}`);
    this.ws = ws;
    ws.onmessage = (ev) => this.onEvent(JSON.parse(ev.data));
    ws.onopen = () => { this.wsDelay = 1000; this.setLive(true); };
    ws.onclose = (ev) => {
      this.setLive(false);
      if (this.closed || ev.code === 4404) return;
      if (ev.code === 4401) { auth.clear(); toast("Your log-in has ended: log in again."); return; }
      if (ev.code === 4403) { toast(ev.reason || "You no longer play in this game."); this.refresh().catch(() => {}); }
      this.retry(ev.code === 4408 || ev.code === 4403);  // a new ticket, at once
    };
    this.ping = setInterval(() => { if (ws.readyState === 1) ws.send("ping"); }, 25000);
    ws.addEventListener("close", () => clearInterval(this.ping));
  }

  retry(now = false) {
    this.wsDelay = now ? 1000 : Math.min((this.wsDelay || 1000) * 2, 30000);
    this.reconnect = setTimeout(() => { this.connect(); this.refresh(); this.press.load(); this.history.load(); }, this.wsDelay);
  }

  setLive(on) {
    const el = this.root.querySelector("#live");
    if (el) { el.textContent = on ? "live" : "offline"; el.className = on ? "live on" : "live"; }
  }

  async onEvent(ev) {
    switch (ev.type) {
      case "phase": {
        const played = ev.results || [];
        const browsing = this.tab === "history";
        await this.refresh();
        await this.history.load();
        if (played.length) {
          // the phase to show: the last one played with orders (a winter with nothing to do,
          // played by itself after it, has nothing to show)
          const last = [...played].reverse().find((r) => ((r.resolution || {}).results || []).length) || played[played.length - 1];
          // the Results tab opens on the phase just played (unless one is looking at another)
          if (!browsing) {
            this.history.seq = last.seq;
            if (this.tab === "history") { this.history.render(); this.showMap(); }  // opened meanwhile
          }
          const text = `${phaseName(last.phase)} was adjudicated: now ${phaseName(this.game.phase)}.`;
          toast(text, { label: "See the results", run: () => this.showResults(last.seq) });
          notify(this.game.name, text, `rp-phase-${this.id}`);
        }
        break;
      }
      case "ready":
        if (this.game && ev.phase === this.game.phase) { this.game.ready = ev.ready; this.renderHead(); this.renderSeats(); }
        break;
      case "press":
        this.press.add(ev.message);
        if (ev.message && !this.mine.includes(ev.message.sender)) {
          notify(this.game.name, `${title(ev.message.sender)}: ${String(ev.message.body).slice(0, 140)}`, `rp-press-${this.id}`);
        }
        break;
      case "orders":
        await this.ordersChangedElsewhere(ev);
        break;
      case "end":
        await this.refresh();
        toast(`The game is over: ${ev.summary}`);
        break;
      case "draw_votes":
        if (this.game) { this.game.draw_votes = { in_favour: ev.in_favour, needed: ev.needed }; this.renderSeats(); }
        break;
      case "deadline": case "joined": case "left": case "replaced":
        await this.refresh();
        break;
      default:
        break;
    }
  }

  /** My orders changed (the event goes only to my own pages): unless this page made the change,
   * load them and say what changed. */
  async ordersChangedElsewhere(ev) {
    if (!this.game || ev.phase !== this.game.phase) return;
    if (this.inflight[ev.power]) await this.inflight[ev.power].catch(() => {});
    const held = this.orders[ev.power];
    if (held && held.revision === ev.revision) return;  // this page's own change
    const before = (held && held.text) || "";
    await this.reloadOrders();
    const now = (this.orders[ev.power] && this.orders[ev.power].text) || "";
    if (before !== now) {
      this.changedElsewhere[ev.power] = { before, now, refused: false };
      toast(`Your orders for ${title(ev.power)} were changed in another tab or on another device.`);
    }
    this.renderOrders();
    this.renderHead();
    if (this.tab !== "history") this.showMap();
  }

  async reloadOrders() {
    try { this.orders = await api("GET", `/games/${this.id}/orders`); } catch (err) { toast(err.message); }
  }

  /** The Results tab on played phase ``seq`` (the latest if not given). */
  showResults(seq) {
    const last = Math.max(0, this.history.entries.length - 1);
    this.history.seq = seq === undefined ? last : Math.min(seq, last);
    this.setTab("history");
  }

  // -- the page skeleton --------------------------------------------------------------------------

  build() {
    const tabs = [["orders", "Orders"], ["history", "Results & history"], ["press", "Press"], ["game", "Game"]];
    this.tabButtons = {};
    const tabList = h("div", { class: "tabs", role: "tablist", "aria-label": "Game sections" },
      tabs.map(([key, label]) => {
        const b = h("button", { type: "button", role: "tab", id: `tab-${key}`, "aria-controls": `panel-${key}`,
          onclick: () => this.setTab(key), onkeydown: (ev) => this.tabKeys(ev, tabs.map((t) => t[0]), key) }, label,
          key === "press" ? h("span", { class: "badge", id: "unread", hidden: true }) : null);
        this.tabButtons[key] = b;
        return b;
      }));
    this.head = h("div", { class: "game-head" });
    this.mapBox = h("div", { class: "map", id: "map" });
    this.menu = h("div", { class: "menu", role: "menu", hidden: true });
    this.hint = h("p", { class: "map-hint", id: "map-hint", "aria-live": "polite" });
    this.ordersBox = h("section", { class: "panel", id: "panel-orders", role: "tabpanel", "aria-labelledby": "tab-orders" });
    this.historyBox = h("section", { class: "panel", id: "panel-history", role: "tabpanel", "aria-labelledby": "tab-history" });
    this.pressBox = h("section", { class: "panel", id: "panel-press", role: "tabpanel", "aria-labelledby": "tab-press" });
    this.gameBox = h("section", { class: "panel", id: "panel-game", role: "tabpanel", "aria-labelledby": "tab-game" });
    const narrow = window.matchMedia("(max-width: 700px)").matches;
    this.root.replaceChildren(h("div", { class: "game" },
      this.head, tabList,
      h("div", { class: "game-body" },
        h("div", { class: "map-pane" }, this.mapBox, this.menu,
          h("div", { class: "map-bar" }, this.hint, this.mapTools = h("span", { class: "map-tools" }),
            h("button", { type: "button", class: "secondary small", id: "zoom", "aria-pressed": String(narrow),
              onclick: (ev) => { const on = this.mapBox.classList.toggle("zoomed"); ev.target.setAttribute("aria-pressed", String(on)); if (on) this.centreOnMine(); } }, "Zoom"))),
        h("div", { class: "side" },
          // notices go here, above the panel: never over the map or what one is reading
          h("div", { id: "notices", class: "notices", role: "status", "aria-live": "polite" }),
          this.ordersBox, this.historyBox, this.pressBox, this.gameBox))));
    // a notice given just before this page opened (by the lobby) moves here, off the map
    const notices = this.root.querySelector("#notices"), early = document.getElementById("toasts");
    if (notices && early) notices.append(...early.querySelectorAll(".toast"));
    this.map = new MapView(this.mapBox, (prov, at) => this.mapClick(prov, at));
    this.mapBox.addEventListener("zoomchange", (ev) => {
      const button = this.root.querySelector("#zoom");
      if (button) button.setAttribute("aria-pressed", String(ev.detail.zoomed));
    });
    // On a phone the whole board is too small to read or tap: start zoomed in (the map scrolls
    // and pans with a finger), on one's own units.
    if (narrow) this.mapBox.classList.add("zoomed");
  }

  /** Scroll a zoomed map so that the player's units (or centres) are in view. */
  centreOnMine() {
    const svg = this.map && this.map.svg;
    if (!svg || !this.mapBox.classList.contains("zoomed")) return;
    const own = [...this.byProv.entries()].filter(([, e]) => e.power === this.power).map(([p]) => p);
    const provinces = own.length ? own : [...this.byProv.keys()];
    const boxes = provinces.map((p) => svg.querySelector(`#spaces path[id="${CSS.escape(p)}"]`)).filter(Boolean)
      .map((el) => el.getBoundingClientRect());
    if (!boxes.length) return;
    const view = this.mapBox.getBoundingClientRect();
    // the box's worth of map holding most of them (units spread over the world average out
    // in the Sahara), then the middle of those
    const points = boxes.map((b) => [b.x + b.width / 2, b.y + b.height / 2]);
    const near = (p) => points.filter((q) => Math.abs(q[0] - p[0]) < view.width / 2 && Math.abs(q[1] - p[1]) < view.height / 2);
    const group = points.map(near).reduce((a, b) => (b.length > a.length ? b : a), []);
    const midX = group.reduce((n, q) => n + q[0], 0) / group.length - view.x + this.mapBox.scrollLeft;
    const midY = group.reduce((n, q) => n + q[1], 0) / group.length - view.y + this.mapBox.scrollTop;
    this.mapBox.scrollTo({ left: midX - view.width / 2, top: midY - view.height / 2 });
  }

  /** The map bar's jump list and the note explaining the map's marks (quick.js). */
  renderMapTools() {
    if (!this.mapTools || !this.game) return;
    const note = mapNote(this.game);
    const jump = jumpControl(this);
    fill(this.mapTools, jump, jump ? zoomButtons(this) : null,
      note ? h("span", { class: "map-note small muted", id: "map-note" }, note) : null);
  }

  tabKeys(ev, keys, key) {
    const i = keys.indexOf(key);
    const next = ev.key === "ArrowRight" ? keys[(i + 1) % keys.length] : ev.key === "ArrowLeft" ? keys[(i + keys.length - 1) % keys.length] : null;
    if (next) { ev.preventDefault(); this.setTab(next); this.tabButtons[next].focus(); }
  }

  setTab(key) {
    this.tab = key;
    local.set(`rp:tab:${this.id}`, key);
    this.cancelSelection();
    this.renderTabs();
    this.showMap();
    if (key === "press") this.press.render();
    if (key === "history") this.history.render();
  }

  renderTabs() {
    for (const [key, b] of Object.entries(this.tabButtons)) {
      const on = key === this.tab;
      b.setAttribute("aria-selected", String(on));
      b.tabIndex = on ? 0 : -1;
    }
    for (const [key, box] of [["orders", this.ordersBox], ["history", this.historyBox], ["press", this.pressBox], ["game", this.gameBox]]) {
      box.hidden = key !== this.tab;
    }
  }

  showMap() {
    if (this.tab === "history" && this.history.entries.length) {
      return this.map.show(`/games/${this.id}/map.svg?seq=${this.history.seq}`);
    }
    // the same picture as shown (same phase, same orders) is not fetched and drawn again
    const url = `/games/${this.id}/map.svg${auth.token && this.mine.length ? "?mine=true" : ""}`;
    const key = `${url} ${this.game.phase} ${this.game.status} ${JSON.stringify(this.orders)}`;
    if (key === this.mapKey && this.map.url === url && this.map.svg) { this.rehighlight(); return Promise.resolve(); }
    this.mapKey = key;
    return this.map.show(url).then(() => {
      this.rehighlight();
      if (!this.centred) { this.centred = true; this.centreOnMine(); }
    });
  }

  /** Draw the map again once orders stop coming for a moment: a player ordering unit after
   * unit from the keyboard does not wait for the world map (800 KB) after each one. */
  showMapSoon() {
    clearTimeout(this.mapTimer);
    this.mapTimer = setTimeout(() => { if (this.tab !== "history" && !this.closed) this.showMap(); }, 350);
  }

  renderAll() {
    this.renderHead();
    this.renderTabs();
    this.renderOrders();
    this.renderSeats();
    this.press.render();
    this.history.render();
    this.showMap();
  }

  // -- the head: phase, deadline, ready -------------------------------------------------------

  renderHead() {
    const g = this.game;
    const ordering = this.orderingPowers.filter((p) => g.to_order.includes(p));
    const ready = ordering.length > 0 && ordering.every((p) => g.ready.includes(p));
    const status = { forming: "waiting for players", active: "", paused: "paused", finished: "finished" }[g.status];
    fill(this.head,
      h("div", { class: "title" },
        h("h1", {}, g.name),
        h("p", { class: "phase" }, h("strong", { id: "phase" }, phaseName(g.phase)), status ? ` · ${status}` : "",
          " · ", h("span", { id: "countdown", class: "countdown", "aria-live": "off" }),
          " ", h("span", { id: "live", class: "live" }, "…"))),
      ordering.length ? h("button", { type: "button", id: "ready", class: ready ? "ready on" : "ready",
        "aria-pressed": String(ready), onclick: () => this.toggleReady(!ready) },
      ready ? "Ready ✓ (click to unready)" : "Mark ready") : null,
      g.end ? h("p", { class: "end", role: "status" }, g.end.summary) : null);
    this.tick();
    this.setLive(this.ws && this.ws.readyState === 1);
  }

  tick() {
    const el = this.root.querySelector("#countdown");
    if (!el || !this.game) return;
    const g = this.game;
    if (g.status === "paused") el.textContent = g.paused_remaining !== null ? `${duration(g.paused_remaining)} left when resumed` : "clock stopped";
    else if (g.status === "finished") el.textContent = "game over";
    else if (this.deadlineAt === null) el.textContent = "no deadline yet";
    else {
      const left = (this.deadlineAt - Date.now()) / 1000;
      el.textContent = left > 0 ? `${duration(left)} left` : "deadline passed: adjudicating…";
      el.classList.toggle("urgent", left < 60);
      this.remindIfOwing(left);
    }
  }

  /** A browser notification (if allowed, and the page is in the background) once a phase,
   * ten minutes before the deadline, when my orders are not in. */
  remindIfOwing(left) {
    const g = this.game;
    if (left > 600 || left <= 0 || this.reminded === g.phase) return;
    const owing = this.orderingPowers.filter((p) => g.to_order.includes(p) && !g.ready.includes(p) && !(g.orders_in || []).includes(p));
    if (!owing.length) return;
    if (notify(g.name, `${duration(left)} left, and no orders yet for ${owing.map(title).join(", ")}.`, `rp-deadline-${this.id}`)) this.reminded = g.phase;
  }

  /** What my orders leave open (units without orders, builds unused...), from the server. */
  warningsNow() {
    const g = this.game;
    return this.orderingPowers.filter((p) => g.to_order.includes(p))
      .flatMap((p) => (this.orders[p] && this.orders[p].warnings) || (this.orders[p] && this.orders[p].submitted ? [] : [`${title(p)}: no orders given; its units will hold`]));
  }

  async toggleReady(ready) {
    const warnings = ready ? this.warningsNow() : [];
    if (warnings.length && !confirm(`${warnings.join("\n")}\n\nMark ready anyway?`)) return;
    try {
      // the phase it is for: a click on a phase that has just passed is refused, not moved on;
      // and the orders it is for: orders changed in another tab refuse it until they are seen
      const revisions = Object.fromEntries(this.mine.filter((p) => this.orders[p] && this.orders[p].revision)
        .map((p) => [p, this.orders[p].revision]));
      await api("POST", `/games/${this.id}/ready`, { ready, phase: this.game.phase, revisions });
      await this.refresh();
    } catch (err) {
      if (err.code === "orders_changed") {
        const before = Object.fromEntries(this.mine.map((p) => [p, (this.orders[p] && this.orders[p].text) || ""]));
        await this.refresh();
        for (const p of this.mine) {
          const now = (this.orders[p] && this.orders[p].text) || "";
          if (now !== before[p]) this.changedElsewhere[p] = { before: before[p], now, refused: false };
        }
        this.renderOrders();
        toast("Not marked ready: your orders were changed in another tab or on another device. Look at them, then mark ready.");
        return;
      }
      toast(err.message);
      if (err.status === 409) await this.refresh();
    }
  }

  // -- the orders panel ---------------------------------------------------------------------------

  draftKey(power) { return `rp:draft:orders:${this.id}:${power}:${this.game.phase}`; }

  /** The text the player is editing for a power: an unsent draft, else what the server holds. */
  textOf(power) {
    const draft = local.get(this.draftKey(power));
    const saved = (this.orders[power] && this.orders[power].text) || "";
    return draft !== null ? draft : saved;
  }

  renderOrders() {
    const old = this.root.querySelector("#order-text");
    const focus = old && document.activeElement === old ? [old.selectionStart, old.selectionEnd] : null;
    // the quick entry keeps the focus and what is typed in it while the panel is drawn again
    const oldQuick = this.root.querySelector("#quick");
    const typed = oldQuick ? oldQuick.value : "";
    const quickFocus = this.quickFocus || (oldQuick && document.activeElement === oldQuick);
    this.renderOrdersPanel();
    const area = this.root.querySelector("#order-text");
    if (focus && area) { area.focus(); area.setSelectionRange(...focus); }
    const quick = this.root.querySelector("#quick");
    if (quick && typed) { quick.value = typed; quick.dispatchEvent(new Event("input")); }
    if (quickFocus && quick) { quick.focus(); this.quickFocus = false; }
    this.renderMapTools();
  }

  renderOrdersPanel() {
    const box = this.ordersBox;
    const g = this.game;
    box.replaceChildren();
    if (!auth.token) {
      box.append(h("p", {}, "You are watching. ", h("a", { href: "#/" }, "Log in"), " to play."));
      return;
    }
    if (!this.mine.length) {
      box.append(h("p", {}, "You are watching this game. Take a free seat on the ",
        h("button", { type: "button", class: "link", onclick: () => this.setTab("game") }, "Game"), " tab."));
      return;
    }
    if (g.status === "finished") { box.append(h("p", {}, "The game is over.")); return; }
    if (g.status === "forming") box.append(h("p", { class: "note" }, "The game starts when every seat is taken (or the gamesmaster starts it). You can prepare orders now."));
    const powers = this.orderingPowers;
    if (!powers.length) {
      box.append(h("p", {}, `Nothing for ${this.mine.map(title).join(", ")} to order in ${phaseName(g.phase)}. Waiting for the others.`));
      return;
    }
    if (powers.length > 1) {
      box.append(h("div", { class: "powers", role: "group", "aria-label": "Power to order for" },
        powers.map((p) => h("button", { type: "button", class: `power-btn p-${p}`, "aria-pressed": String(p === this.power),
          onclick: () => { this.power = p; this.cancelSelection(); this.renderOrders(); } },
        title(p), this.orders[p] && this.orders[p].submitted ? " ✓" : ""))));
    }
    const power = this.power;
    const legal = this.legal[power] || {};
    const lines = (this.orders[power] && this.orders[power].lines) || [];
    const help = phaseHelp(g, power, legal, lines, (this.orders[power] && this.orders[power].builds_used) || []);
    box.append(h("h2", { id: "orders-h" }, `Orders for ${title(power)}`));
    if (this.changedElsewhere[power]) box.append(this.changedBox(power, this.changedElsewhere[power]));
    if (help.due) box.append(h("p", { class: "due", id: "orders-due", role: "status" }, help.due));
    box.append(h("p", { class: "muted small", id: "orders-how" }, help.how));
    const warned = voidReasons(this.orders[power] && this.orders[power].warnings);
    const rules = rulesBox(this, power, lines);
    if (rules) box.append(rules);
    const quick = quickEntry(this, power);
    if (quick) box.append(quick);

    // One list of legal orders per unit (or free centre): the keyboard way to give orders.
    const chosen = new Map();
    for (const line of lines) if (line.ok && line.order && line.order.unit) chosen.set(unitProv(line.order.unit), said(line.order));
    // the units whose order the server says would be void (its warnings write orders by code)
    const voidedAt = new Map();
    for (const line of lines) {
      if (line.ok && line.order && line.order.unit && warned.has(line.order.text)) voidedAt.set(unitProv(line.order.unit), warned.get(line.order.text));
    }
    const list = h("ul", { class: "units", "aria-label": "Units and their orders" });
    for (const [loc, orders] of Object.entries(legal)) {
      if (loc === "waive") continue;
      const prov = provOf(loc);
      const isBuild = orders.every((o) => o.kind === "build");
      const label = isBuild ? `Build in ${this.placeName(prov)}` : orders[0].unit_name || orders[0].unit;
      const id = `sel-${power}-${loc.replace("/", "-")}`;
      const select = h("select", { id, onchange: (ev) => { if (ev.target.value) this.giveOrder(power, loc, ev.target.value); } },
        h("option", { value: "" }, isBuild ? "— no build —" : "— no order —"),
        groupBy(orders, (o) => o.kind).map(([kind, group]) => h("optgroup", { label: kindLabel(g, kind) },
          group.map((o) => h("option", { value: said(o), selected: chosen.get(prov) === said(o) }, said(o))))));
      const note = isBuild ? null : unitNote(g, power, loc);
      const voided = voidedAt.get(prov);
      list.append(h("li", { class: `${chosen.has(prov) ? "done" : ""}${voided ? " void" : ""}` },
        h("label", { for: id }, label, note ? h("span", { class: `unit-note ${note.cls}`, title: note.why }, note.text) : null), select,
        voided ? h("p", { class: "void-why" }, `⚠ will be void: ${voided}`) : null));
    }
    box.append(list);
    if (legal.waive) {
      box.append(h("button", { type: "button", onclick: () => this.giveOrder(power, "waive", "WAIVE") }, "Waive a build"));
    }

    // The text box: goes through the server's parser; its messages are shown next to the lines.
    const text = this.textOf(power);
    const saved = (this.orders[power] && this.orders[power].text) || "";
    const area = h("textarea", { id: "order-text", rows: Math.max(5, text.split("\n").length + 1), wrap: "off", spellcheck: "false",
      autocapitalize: "characters", "aria-describedby": "order-help order-status",
      placeholder: help.placeholder });
    area.value = text;
    const gutter = h("div", { class: "gutter", "aria-hidden": "true" });
    const status = h("p", { id: "order-status", class: "small", "aria-live": "polite" });
    const fillGutter = () => {
      const stale = area.value !== saved;
      gutter.replaceChildren(...area.value.split("\n").map((_, i) => {
        const line = lines.find((l) => l.line === i + 1);
        // a line replaced by a later order for the same unit is no mistake: a neutral mark
        const mark = !line || stale ? "" : line.ok ? "✓" : line.replaced ? "↷" : "✗";
        return h("div", { class: line && !stale ? (line.ok ? "ok" : line.replaced ? "replaced" : "bad") : "" }, mark || " ");
      }));
      status.textContent = stale ? "Not sent yet (kept on this device): press Send orders." : "";
      gutter.scrollTop = area.scrollTop;
    };
    area.addEventListener("input", () => {
      local.set(this.draftKey(power), area.value === saved ? null : area.value);
      fillGutter();
    });
    area.addEventListener("scroll", () => { gutter.scrollTop = area.scrollTop; });
    area.addEventListener("keydown", (ev) => { if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); this.submit(power, area.value); } });
    fillGutter();
    const limit = lengthLimit(area, this.limits.order_chars, "a power's orders");
    limit.counter.id = "order-count";
    box.append(h("label", { for: "order-text", class: "block" }, "Orders as text"),
      h("p", { id: "order-help", class: "muted small" }, touchOnly() ? "One order per line." : "One order per line. Ctrl+Enter sends."),
      h("div", { class: "editor" }, gutter, area), limit.counter, status,
      h("div", { class: "row" },
        h("button", { type: "button", id: "send-orders", onclick: () => this.submit(power, area.value) }, "Send orders"),
        h("button", { type: "button", class: "secondary", onclick: () => this.submit(power, "") }, "Clear all"),
        h("button", { type: "button", class: "secondary", id: "fill-sheet", title: "One line per unit, places by name, to type over",
          onclick: () => { const a = this.root.querySelector("#order-text"); a.value = sheetText(this, power); a.rows = a.value.split("\n").length + 1; a.dispatchEvent(new Event("input")); a.focus(); } }, "Sheet of my units")));

    // What the server read: each line with its order or its error.
    const results = h("ol", { class: "lines", id: "order-lines", "aria-label": "Orders as the server read them" });
    for (const line of lines) {
      if (line.ok) {
        const voided = warned.get(line.order.text);
        results.append(h("li", { class: voided ? "ok void" : "ok" }, h("span", { class: "mark" }, voided ? "⚠" : "✓"), " ", h("span", { class: "order" }, said(line.order)),
          line.text.trim() !== said(line.order) ? h("span", { class: "muted small" }, ` (line ${line.line}: ${line.text.trim()})`) : null,
          voided ? h("div", { class: "why" }, `will be void: ${voided}`) : null));
      } else if (line.replaced) {
        results.append(h("li", { class: "replaced" }, h("span", { class: "mark", title: "replaced" }, "↷"), " ",
          h("span", { class: "order" }, `line ${line.line}: ${line.text}`),
          h("div", { class: "why" }, (line.error && line.error.message) || "replaced by a later order for the same unit")));
      } else {
        const e = line.error || {};
        const fixes = [];
        for (const c of e.candidates || []) fixes.push(h("button", { type: "button", class: "chip", onclick: () => this.replaceLine(power, line.line, c) }, c));
        if (e.span && e.suggestions) {
          for (const s of e.suggestions) {
            // "LON (London)", "London (e8)": the place as written, before its bracket
            const name = s.lastIndexOf(" (") > 0 ? s.slice(0, s.lastIndexOf(" (")) : s;
            const fixed = line.text.slice(0, e.span[0]) + name + line.text.slice(e.span[1]);
            fixes.push(h("button", { type: "button", class: "chip", onclick: () => this.replaceLine(power, line.line, fixed) }, s));
          }
        }
        results.append(h("li", { class: "bad" }, h("span", { class: "mark" }, "✗"), " ",
          h("span", { class: "order" }, `line ${line.line}: ${line.text}`),
          h("div", { class: "why" }, e.message, e.hint ? ` — ${e.hint}` : ""),
          fixes.length ? h("div", { class: "fixes" }, fixes) : null));
      }
    }
    box.append(h("h3", {}, `Orders given (${lines.filter((l) => l.ok).length})`));
    if (lines.length) box.append(results);
    box.append(h("p", { class: "muted", id: "orders-default" }, lines.length ? `Not ordered: ${help.fallback}` : `None yet: ${help.fallback}`));
    const warnings = (this.orders[power] && this.orders[power].warnings) || [];
    if (warnings.length) box.append(h("ul", { class: "warnings", id: "order-warnings", role: "status" }, warnings.map((w) => h("li", {}, w))));
  }

  /** The server's limits on what is typed (from /web/variants). */
  get limits() { return (this.catalogue && this.catalogue.limits) || {}; }

  /** Orders changed in another tab or on another device: what changed, and what to do. */
  changedBox(power, changed) {
    const lines = (text) => text.split("\n").map((l) => l.trim()).filter(Boolean);
    const before = lines(changed.before), now = lines(changed.now);
    const added = now.filter((l) => !before.includes(l)), removed = before.filter((l) => !now.includes(l));
    const forget = () => { delete this.changedElsewhere[power]; this.renderOrders(); };
    return h("div", { class: "changed", id: "orders-changed", role: "alert" },
      h("p", {}, changed.refused
        ? `Not sent: your orders for ${title(power)} were changed in another tab or on another device after this page loaded them. Nothing was overwritten.`
        : `Your orders for ${title(power)} were changed in another tab or on another device.`),
      h("ul", { class: "diff" },
        added.map((l) => h("li", { class: "added" }, `+ ${l}`)),
        removed.map((l) => h("li", { class: "removed" }, `− ${l}`)),
        !added.length && !removed.length ? h("li", {}, "(the same lines, in another order)") : null),
      changed.refused ? h("p", { class: "small" }, "Your text is kept below: press Send orders to replace the new orders with it, or use the new ones.") : null,
      h("div", { class: "row" },
        changed.refused ? h("button", { type: "button", class: "secondary small", id: "use-new-orders",
          onclick: () => { local.set(this.draftKey(power), null); forget(); } }, "Use the new orders") : null,
        h("button", { type: "button", class: "secondary small", onclick: forget }, "OK")));
  }

  /** Replace the unit's order (or add it) in the power's text and send the whole text. */
  giveOrder(power, loc, orderText) {
    const prov = provOf(loc);
    const lines = (this.orders[power] && this.orders[power].lines) || [];
    const byText = new Map(lines.map((l) => [l.text.trim(), l]));
    const kept = this.textOf(power).split("\n").filter((t) => {
      if (!t.trim()) return false;
      if (loc === "waive") return true;
      const l = byText.get(t.trim());
      return !(l && l.order && l.order.unit && unitProv(l.order.unit) === prov);
    });
    kept.push(orderText);
    return this.submit(power, kept.join("\n"));
  }

  replaceLine(power, number, text) {
    const all = this.textOf(power).split("\n");
    all[number - 1] = text;
    this.submit(power, all.join("\n"));
  }

  submit(power, text) {
    const sending = this.send(power, text);
    this.inflight[power] = sending;
    return sending.finally(() => { if (this.inflight[power] === sending) delete this.inflight[power]; });
  }

  async send(power, text) {
    const max = this.limits.order_chars;
    if (max && text.length > max) {
      local.set(this.draftKey(power), text || null);
      this.renderOrders();
      toast(`Orders not sent: ${text.length} characters, over the limit of ${max}. Nothing was cut: shorten them.`);
      return;
    }
    const held = this.orders[power] || {};
    try {
      const answer = await api("PUT", `/games/${this.id}/orders`, { power, text, phase: this.game.phase, revision: held.revision });
      this.orders[power] = { ...held, text, revision: answer.revision, lines: answer.lines, ready: answer.ready, submitted: true, warnings: answer.warnings || [], builds_used: answer.builds_used || [] };
      delete this.changedElsewhere[power];
      this.sentOrders = { ...(this.sentOrders || {}), [power]: { phase: answer.phase, orders: this.orders[power] } };
      local.set(this.draftKey(power), null);
      this.renderOrders();
      const status = this.root.querySelector("#order-status");
      if (status) status.textContent = answer.errors ? `${answer.accepted} read, ${answer.errors} not: see below.` : `Sent: ${answer.accepted} order${answer.accepted === 1 ? "" : "s"}.`;
      if (this.tab !== "history") this.showMapSoon();
    } catch (err) {
      local.set(this.draftKey(power), text || null);
      if (err.code === "orders_changed") {
        // written on a view older than the stored orders: show what changed, keep the text
        await this.reloadOrders();
        const now = (this.orders[power] && this.orders[power].text) || "";
        this.changedElsewhere[power] = { before: held.text || "", now, refused: true };
        this.renderOrders();
        this.renderHead();
        if (this.tab !== "history") this.showMap();
        return;
      }
      toast(`Orders not sent: ${err.message}`);
    }
  }

  // -- clicking on the map ------------------------------------------------------------------------

  cancelSelection() {
    this.sel = null;
    this.closeMenu();
    this.hint.textContent = "";
    if (this.map) this.map.clearHighlight();
  }

  rehighlight() {
    if (!this.sel) return;
    this.map.highlight(this.sel.highlight || []);
  }

  setSel(sel, hint) {
    this.sel = sel;
    this.hint.textContent = hint || "";
    this.rehighlight();
  }

  mapClick(prov, at) {
    if (this.tab === "history" || !prov) {
      const choosing = this.sel && this.sel.choosing;
      this.cancelSelection();
      if (choosing) this.hint.textContent = `No order given for ${choosing}: the choice was left open.`;
      return;
    }
    const sel = this.sel;
    if (sel && sel.mode === "unit") return this.clickFromUnit(prov, at);
    if (sel && sel.mode === "support-target") return this.clickSupportTarget(prov, at);
    if (sel && sel.mode === "support-dest") return this.clickSupportDest(prov, at);
    if (sel && sel.mode === "convoy-army") return this.clickConvoyArmy(prov, at);
    if (sel && sel.mode === "convoy-dest") return this.clickConvoyDest(prov, at);
    return this.selectUnit(prov, at);
  }

  selectUnit(prov, at) {
    const entry = this.byProv.get(prov);
    if (!entry) {
      this.cancelSelection();
      if (this.orderingPowers.length) this.hint.textContent = `Nothing of yours to order in ${this.placeName(prov)}.`;
      return;
    }
    if (entry.power !== this.power) { this.power = entry.power; this.renderOrders(); }
    const { orders } = entry;
    const moves = orders.filter((o) => o.kind === "move" || o.kind === "retreat");
    const items = [];
    const label = orders[0].kind === "build" ? `Build in ${this.placeName(prov)}` : orders[0].unit_name || orders[0].unit;
    for (const o of orders) {
      if (o.kind === "hold") items.push(["Hold", said(o)]);
      if (o.kind === "disband") items.push([orders[0].kind === "retreat" || moves.length ? "Disband" : "Remove", said(o)]);
      if (o.kind === "build") items.push([describeBuild(o), said(o)]);
      // the variant's own kinds of order, as the game view declares them (order_kinds)
      const words = kindWords(this.game.order_kinds, o, this.game.phase_type);
      if (words) items.push([words, said(o)]);
    }
    if (orders.some((o) => o.kind === "support")) {
      items.push(["Support…", () => this.setSel({ ...entry, mode: "support-target",
        highlight: [["hl-sel", [prov]], ["hl-target", uniq(orders.filter((o) => o.kind === "support").map((o) => unitProv(o.target)))]] },
      `${label} supports: click the unit to support.`)]);
    }
    if (orders.some((o) => o.kind === "convoy")) {
      items.push(["Convoy…", () => this.setSel({ ...entry, mode: "convoy-army",
        highlight: [["hl-sel", [prov]], ["hl-target", uniq(orders.filter((o) => o.kind === "convoy").map((o) => unitProv(o.target)))]] },
      `${label} convoys: click the army to convoy.`)]);
    }
    const dests = uniq(moves.map((o) => provOf(o.to)));
    this.setSel({ ...entry, mode: "unit", highlight: [["hl-sel", [prov]], ["hl-dest", dests]] },
      dests.length ? `${label}: click a highlighted province to move there, or choose in the menu.` : `${label}: choose in the menu.`);
    this.openMenu(label, items, at);
  }

  clickFromUnit(prov, at) {
    const sel = this.sel;
    if (prov === provOf(sel.loc)) {
      const hold = sel.orders.find((o) => o.kind === "hold");
      if (hold) { this.pick(said(hold)); return; }
      this.cancelSelection();
      return;
    }
    const options = sel.orders.filter((o) => (o.kind === "move" || o.kind === "retreat") && provOf(o.to) === prov);
    if (options.length === 1) { this.pick(said(options[0])); return; }
    const byLand = options.filter((o) => !o.via_convoy);
    if (byLand.length === 1 && options.every((o) => o.to === byLand[0].to)) {
      // a move that can go by land or via convoy goes by land, as people mean it; the convoy
      // is one click away (and in the unit's list)
      const viaConvoy = options.find((o) => o.via_convoy);
      this.pick(said(byLand[0])).then(() => this.offerConvoy(byLand[0], viaConvoy));
      return;
    }
    if (options.length > 1) {  // coasts
      const convoyToo = options.some((o) => o.via_convoy);
      const question = `${sel.orders[0].unit_name || sel.orders[0].unit} to ${this.placeName(prov)}`;
      this.openMenu(question, options.map((o) => [describeMove(o, convoyToo), said(o)]), at);
      this.sel = { ...this.sel, choosing: question };
      return;
    }
    if (sel.choosing) {
      // the menu's question was left open: say that no order was given
      const choosing = sel.choosing;
      this.selectUnit(prov, at);
      this.hint.textContent = `No order given for ${choosing}: the choice was left open. ${this.hint.textContent}`;
      return;
    }
    this.selectUnit(prov, at);  // another of my units, or nothing
  }

  /** After a move given by land, the way to send it via convoy instead. */
  offerConvoy(byLand, viaConvoy) {
    if (!viaConvoy) return;
    const power = this.power;
    const loc = viaConvoy.unit.split(" ")[1];
    this.hint.replaceChildren(`${said(byLand)}: by land. `,
      h("button", { type: "button", class: "link", id: "via-convoy", onclick: () => { this.hint.textContent = ""; this.giveOrder(power, loc, said(viaConvoy)); } },
        "Go via convoy instead"));
  }

  clickSupportTarget(prov, at) {
    const sel = this.sel;
    const options = sel.orders.filter((o) => o.kind === "support" && unitProv(o.target) === prov);
    if (!options.length) { this.hint.textContent = `${this.placeName(prov)}: no support possible there. Click a highlighted unit, or press Escape.`; return; }
    const dests = uniq(options.map((o) => o.to ? provOf(o.to) : prov));
    this.setSel({ ...sel, mode: "support-dest", target: prov, options,
      highlight: [["hl-sel", [provOf(sel.loc)]], ["hl-target", [prov]], ["hl-dest", dests]] },
    `Support ${options[0].target_name || options[0].target}: click where it goes (itself to hold), or choose in the menu.`);
    this.openMenu(`Support ${options[0].target_name || options[0].target}`, options.map((o) => [o.to ? `to ${o.to_name || o.to}` : "to hold", said(o)]), at);
  }

  clickSupportDest(prov, at) {
    const sel = this.sel;
    const options = sel.options.filter((o) => (o.to ? provOf(o.to) : sel.target) === prov);
    if (options.length === 1) { this.pick(said(options[0])); return; }
    if (options.length > 1) { this.openMenu("Support", options.map((o) => [said(o), said(o)]), at); return; }
    this.hint.textContent = "Click a highlighted province, or press Escape.";
  }

  clickConvoyArmy(prov, at) {
    const sel = this.sel;
    const options = sel.orders.filter((o) => o.kind === "convoy" && unitProv(o.target) === prov);
    if (!options.length) { this.hint.textContent = `${this.placeName(prov)}: this fleet cannot convoy that. Click a highlighted army.`; return; }
    this.setSel({ ...sel, mode: "convoy-dest", target: prov, options,
      highlight: [["hl-sel", [provOf(sel.loc)]], ["hl-target", [prov]], ["hl-dest", uniq(options.map((o) => provOf(o.to)))]] },
    `Convoy ${options[0].target_name || options[0].target}: click where to.`);
    this.openMenu(`Convoy ${options[0].target_name || options[0].target}`, options.map((o) => [`to ${o.to_name || o.to}`, said(o)]), at);
  }

  clickConvoyDest(prov) {
    const o = this.sel.options.find((x) => provOf(x.to) === prov);
    if (o) this.pick(said(o));
    else this.hint.textContent = "Click a highlighted province, or press Escape.";
  }

  /** A place as the game writes it: its name where the variant writes places by name
   * (the game's names table), else its code in capitals. */
  placeName(loc) {
    const code = (loc || "").toUpperCase();
    return (this.game && this.game.names && this.game.names[code]) || code;
  }

  pick(text) {
    const sel = this.sel;
    this.cancelSelection();
    return sel ? this.giveOrder(sel.power, sel.loc, text) : Promise.resolve();
  }

  openMenu(label, items, at) {
    const menu = this.menu;
    // where the lit spaces can be clicked, found before the menu is shown (it would hide them)
    const lit = this.litPoints();
    menu.replaceChildren(h("p", { class: "menu-title" }, label),
      ...items.map(([text, action]) => h("button", { type: "button", role: "menuitem",
        onclick: (ev) => { ev.stopPropagation(); if (typeof action === "function") { this.closeMenu(); action(); } else this.pick(action); } }, text)),
      h("button", { type: "button", role: "menuitem", class: "secondary", onclick: () => this.cancelSelection() }, "Cancel"));
    menu.classList.remove("docked");
    menu.style.left = "0px";
    menu.style.top = "0px";
    menu.hidden = false;
    const place = this.menuPlace(at, lit);
    if (place) {
      menu.style.left = `${place[0]}px`;
      menu.style.top = `${place[1]}px`;
    } else {
      // no room on the map that leaves every lit space free (a phone): under the map instead
      menu.classList.add("docked");
      menu.style.left = "";
      menu.style.top = "";
    }
    const first = menu.querySelector("button");
    if (first) first.focus({ preventScroll: true });
    menu.onkeydown = (ev) => {
      const buttons = [...menu.querySelectorAll("button")];
      const i = buttons.indexOf(document.activeElement);
      if (ev.key === "ArrowDown") { ev.preventDefault(); buttons[(i + 1) % buttons.length].focus(); }
      if (ev.key === "ArrowUp") { ev.preventDefault(); buttons[(i - 1 + buttons.length) % buttons.length].focus(); }
    };
  }

  /** Points (in the window, every few pixels) of the lit spaces of the selection, in the
   * visible part of the map: the places the menu must leave free. */
  litPoints() {
    const svg = this.map && this.map.svg;
    if (!svg) return [];
    const provs = new Set((this.sel && this.sel.highlight || []).flatMap(([, ps]) => ps));
    const view = this.mapBox.getBoundingClientRect();
    const points = [];
    const step = 6;
    for (const prov of provs) {
      const path = svg.querySelector(`#spaces path[id="${CSS.escape(prov)}"]`);
      const matrix = path && path.getScreenCTM();
      if (!matrix) continue;
      const toSvg = matrix.inverse();
      const b = path.getBoundingClientRect();
      const x0 = Math.max(b.left, view.left, 0), x1 = Math.min(b.right, view.right, window.innerWidth);
      const y0 = Math.max(b.top, view.top, 0), y1 = Math.min(b.bottom, view.bottom, window.innerHeight);
      for (let x = x0; x <= x1; x += step) {
        for (let y = y0; y <= y1; y += step) {
          if (path.isPointInFill(new DOMPoint(x, y).matrixTransform(toSvg))) points.push([x, y]);
        }
      }
    }
    return points;
  }

  /** Where the menu goes (its left and top in the map pane): the place nearest the clicked
   * point, in the visible part of the map, that covers no point of a lit space (the unit's
   * destinations stay visible and clickable); null if there is no such place. */
  menuPlace(at, lit) {
    const menu = this.menu;
    const pane = menu.parentElement.getBoundingClientRect();
    const map = this.mapBox.getBoundingClientRect();
    const w = menu.offsetWidth, hgt = menu.offsetHeight;
    // the visible part of the map, in window coordinates
    const left = Math.max(map.left, 0), top = Math.max(map.top, 0);
    const right = Math.min(map.right, window.innerWidth), bottom = Math.min(map.bottom, window.innerHeight);
    if (right - left < w || bottom - top < hgt) return null;
    const cx = at.x + map.x, cy = at.y + map.y;
    const margin = 6;
    const covers = (x, y) => lit.some(([px, py]) => px >= x - margin && px <= x + w + margin && py >= y - margin && py <= y + hgt + margin);
    let best = null, nearest = Infinity;
    const step = 16;
    for (let x = left; x <= right - w; x += step) {
      for (let y = top; y <= bottom - hgt; y += step) {
        if (covers(x, y)) continue;
        // distance from the clicked point to the menu's nearest edge
        const dx = Math.max(x - cx, 0, cx - (x + w)), dy = Math.max(y - cy, 0, cy - (y + hgt));
        const d = dx * dx + dy * dy;
        if (d < nearest) { nearest = d; best = [x, y]; }
      }
    }
    return best && [best[0] - pane.x, best[1] - pane.y];
  }

  closeMenu() { if (this.menu) { this.menu.hidden = true; this.menu.replaceChildren(); } }

  // -- the game tab: seats, joining, draws, the gamesmaster --------------------------------------

  renderSeats() {
    const g = this.game;
    const box = this.gameBox;
    const canJoin = auth.token && !this.mine.length && g.status !== "finished";
    const free = g.free || [];
    const seatRows = g.seats.map((s) => h("tr", { class: s.powers.some((p) => this.mine.includes(p)) ? "me" : s.powers.every((p) => free.includes(p)) ? "free" : "" },
      h("td", {}, s.powers.map((p) => h("span", { class: `dot p-${p}` }, title(p))).reduce((a, b) => [a, " / ", b])),
      h("td", {}, s.player || (s.daide ? h("span", { class: "bot daide", title: "a computer player connected over the server's DAIDE port" }, `computer: ${s.daide}`)
        : s.bot ? h("span", { class: "bot", title: `played by the ${s.bot} bot` }, `computer (${s.bot})`)
        : canJoin ? h("button", { type: "button", class: "join", onclick: () => this.join(s.powers[0]) },
          `Join as ${s.powers.map(title).join(" / ")}`)
          : g.am_gamesmaster && g.status !== "finished" ? h("button", { type: "button", class: "secondary small seat-bot",
            onclick: () => this.seatBot(s.powers[0]) }, "Seat a bot") : h("span", { class: "muted" }, "free"))),
      h("td", {}, s.powers.map((p) => `${g.centers[p] ?? 0}`).join(" / ")),
      h("td", { class: "seat-state" }, s.powers.map((p) => seatState(g, p, s.player || s.daide || s.bot)).join(" / "))));
    const survivors = Object.keys(g.centers).filter((p) => !g.eliminated.includes(p) && !this.mine.includes(p) && !free.includes(p)
      && g.seats.some((s) => s.powers.includes(p)));
    const concedeSel = h("select", { id: "concede-to", "aria-label": "Concede to" }, survivors.map((p) => h("option", { value: p }, title(p))));
    const facts = [
      ["Setup", g.setup_name], ["Rules", g.rules], ["Variant", ((this.catalogue && this.catalogue.variants) || []).find((v) => v.id === g.variant)?.name || g.variant],
      ["Deadlines", `first move ${duration(g.deadlines.first_movement)}, moves ${duration(g.deadlines.movement)}, retreats ${duration(g.deadlines.retreats)}, adjustments ${duration(g.deadlines.adjustments)}`],
      ["Press", `${g.press.private ? "private" : "no private"}, ${g.press.public ? "public" : "no public"}${g.press.outside_diplomacy ? ", also outside diplomacy" : ""}`],
      ["Gamesmaster", g.gamesmaster || "—"],
    ];
    if (g.end_year) facts.push(["Ends", `after ${g.end_year}`]);
    if (g.daide_bots) {
      facts.push(["DAIDE bots", g.daide_port ? `may take free seats: connect to port ${g.daide_port} of this server and name the game ${g.private ? "by its invite code" : `"${g.name}" or ${g.id}`} (SEL), e.g. realpolitik daide play HOST:${g.daide_port} --game ${g.private ? "CODE" : g.id}`
        : "may take free seats (this server has no DAIDE port open)"]);
    }
    // the variant's rules acting on the whole game, in its words
    for (const note of (g.game_notes && g.game_notes.notes) || []) facts.push([note.heading, note.text]);
    const policies = Object.entries(g.policies || {});
    // a policy this game chose otherwise than its variant is marked, with the variant's own
    const changed = g.policies_changed || {};
    if (policies.length) facts.push(["Policies", policies.map(([k, v]) => `${k.replaceAll("_", " ")}: ${v.replaceAll("_", " ")}${
      k in changed ? ` (this game; the variant's own: ${changed[k].replaceAll("_", " ")})` : ""}`).join("; ")]);
    if (g.invite_code) facts.push(["Invite code", g.invite_code]);
    fill(box,
      h("h2", {}, "Seats"),
      h("table", { class: "seats" }, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Powers"), h("th", { scope: "col" }, "Player"),
        h("th", { scope: "col" }, "Centres"), h("th", { scope: "col" }, "This phase"))), h("tbody", {}, seatRows)),
      g.private && canJoin ? h("label", {}, "Invite code", h("input", { id: "invite", maxlength: 40 })) : null,
      canJoin && free.length ? h("p", {}, h("button", { type: "button", id: "join-any", class: "join", onclick: () => this.join("any") },
        "Join as any power (drawn by lot)")) : null,
      g.seat_changes && g.seat_changes.length ? [h("h2", {}, "Seat changes"),
        h("ul", { class: "seat-changes" }, g.seat_changes.map((c) => h("li", { class: c.gamesmaster_took_it ? "gm-took" : "" },
          `${c.phase}: ${c.powers.map(title).join(" / ")} `,
          c.kind === "joined" ? `taken by ${c.player}` : c.kind === "left" ? `given up by ${c.previous}` :
            c.kind === "freed" ? `freed by the gamesmaster (was ${c.previous || "free"})` :
              c.kind === "bot" ? "given to a bot by the gamesmaster" :
              c.kind === "daide" ? `taken by the DAIDE bot ${c.bot || ""}` :
              `given by the gamesmaster to ${c.player}${c.gamesmaster_took_it ? " (the gamesmaster)" : ""} (was ${c.previous || "free"})`)))] : null,
      this.mine.length ? this.notifyControl() : null,
      h("h2", {}, "Settings"),
      h("dl", { class: "facts" }, facts.map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])),
      this.mine.length && g.status !== "finished" ? h("div", { class: "row" },
        h("span", {}, `Draw: ${g.draw_votes.in_favour} of ${g.draw_votes.needed} in favour.`),
        h("button", { type: "button", class: "secondary", onclick: () => this.vote(true) }, "Vote for a draw"),
        h("button", { type: "button", class: "secondary", onclick: () => this.vote(false) }, "Vote against")) : null,
      this.mine.length && g.status !== "finished" ? h("div", { class: "row" },
        survivors.length ? [concedeSel, h("button", { type: "button", id: "concede", class: "secondary", onclick: () => this.concede(concedeSel.value) }, "Concede")] : null,
        h("button", { type: "button", id: "leave", class: "secondary", onclick: () => this.leave() }, "Leave the game")) : null,
      g.am_gamesmaster ? this.gmControls() : null,
      g.status === "finished" ? h("p", {}, h("a", { href: `/games/${this.id}/record`, download: `game-${this.id}.json` }, "Download the game record")) : null,
      h("p", {}, h("a", { href: "#/" }, "← Lobby")));
  }

  /** Ask for notifications outside the page when a phase is played (the browser asks once). */
  notifyControl() {
    if (!("Notification" in window)) return null;
    const state = Notification.permission;
    if (state === "granted") return h("p", { class: "muted small", id: "notify-state" }, "While this page is open in the background, you get a notification when a phase is played, when press arrives, and ten minutes before the deadline if your orders are not in. For e-mail, see Notifications in the lobby.");
    if (state === "denied") return h("p", { class: "muted small", id: "notify-state" }, "Notifications are blocked for this site in your browser's settings.");
    return h("p", {}, h("button", { type: "button", class: "secondary", id: "notify-me",
      onclick: async () => { await Notification.requestPermission(); this.renderSeats(); } }, "Notify me while this page is open (phases, press, deadlines)"));
  }

  gmControls() {
    const g = this.game;
    const act = (label, path, body, confirmText) => h("button", { type: "button", class: "secondary",
      onclick: async () => {
        if (confirmText && !confirm(confirmText)) return;
        try { await api("POST", `/games/${this.id}/gm/${path}`, body || {}); await this.refresh(); } catch (err) { toast(err.message); }
      } }, label);
    return h("section", { class: "gm", "aria-labelledby": "gm-h" }, h("h2", { id: "gm-h" }, "Gamesmaster"),
      h("div", { class: "row" },
        g.status === "forming" ? act("Start now", "start", null, "Start with the free seats in civil disorder?") : null,
        g.status === "active" ? act("Pause", "pause") : null,
        g.status === "paused" ? act("Resume", "resume") : null,
        g.status === "active" ? act("Process now", "process", null, "Adjudicate this phase now? Powers without orders are in civil disorder.") : null,
        g.status === "active" ? act("+10 minutes", "extend", { seconds: "10m" }) : null),
      g.status !== "finished" ? this.replaceControls(act) : null);
  }

  /** The gamesmaster gives a seat to another player (or frees it). */
  replaceControls() {
    const g = this.game;
    const seatSel = h("select", { id: "replace-power", "aria-label": "Seat" }, g.seats.map((s) => h("option", { value: s.powers[0] }, s.powers.map(title).join(" / "))));
    const who = h("input", { id: "replace-user", placeholder: "username (empty: free the seat)", maxlength: 40 });
    return h("div", { class: "row" }, seatSel, who, h("button", { type: "button", class: "secondary", onclick: async () => {
      const username = who.value.trim() || null;
      if (!confirm(username ? `Give the seat to ${username}?` : "Free this seat? Its powers fall into civil disorder.")) return;
      try { await api("POST", `/games/${this.id}/gm/replace`, { power: seatSel.value, username }); await this.refresh(); } catch (err) { toast(err.message); }
    } }, "Give seat"));
  }

  async concede(to) {
    if (!to || !confirm(`Concede the game to ${title(to)}? It ends when every other player concedes to ${title(to)} too.`)) return;
    try {
      const r = await api("POST", `/games/${this.id}/concede`, { to });
      toast(r.end || `You concede to ${title(to)}.`);
      await this.refresh();
    } catch (err) { toast(err.message); }
  }

  async leave() {
    if (!confirm("Leave the game? Your powers fall into civil disorder until someone takes the seat.")) return;
    try {
      await api("POST", `/games/${this.id}/leave`, {});
      toast("You left the game.");
      await this.refresh();
    } catch (err) { toast(err.message); }
  }

  async seatBot(power) {
    try {
      await api("POST", `/games/${this.id}/gm/bot`, { power, bot: "heuristic" });
      toast(`The computer plays ${title(power)}.`);
      await this.refresh();
    } catch (err) { toast(err.message); }
  }

  async join(power) {
    const invite = this.root.querySelector("#invite");
    try {
      const seat = await api("POST", `/games/${this.id}/join`, { power, invite_code: invite && invite.value ? invite.value : undefined });
      toast(`You play ${(seat.powers || [power]).map(title).join(" / ")}${seat.drawn ? " (drawn by lot)" : ""}.`);
      await this.refresh();
      this.setTab("orders");
    } catch (err) { toast(err.message); }
  }

  async vote(inFavour) {
    try {
      const r = await api("POST", `/games/${this.id}/draw`, { in_favour: inFavour });
      if (r.end) toast(r.end);
      await this.refresh();
    } catch (err) { toast(err.message); }
  }
}

function uniq(xs) { return [...new Set(xs)]; }

function groupBy(xs, key) {
  const out = new Map();
  for (const x of xs) { const k = key(x); if (!out.has(k)) out.set(k, []); out.get(k).push(x); }
  return [...out.entries()];
}

const COAST_WORDS = { NC: "north", SC: "south", EC: "east", WC: "west" };

/** "SPA/NC" as "SPA (north coast)": the place once, the coast in words. */
function placeWithCoast(loc) {
  const [place, coast] = loc.split("/");
  return coast ? `${place} (${COAST_WORDS[coast.toUpperCase()] || coast.toLowerCase()} coast)` : place;
}

/** A destination in a menu; ``convoyToo``: the menu also offers moves via convoy, so a move
 * over land says so. */
function describeMove(o, convoyToo = false) {
  return `${o.to_name || placeWithCoast(o.to)}${o.via_convoy ? " via convoy" : convoyToo ? " by land" : ""}`;
}

function describeBuild(o) {
  const [type, loc] = o.unit.split(" ");
  const coast = loc.includes("/") ? placeWithCoast(loc).slice(loc.split("/")[0].length) : "";
  return `Build ${type === "A" ? "an army" : "a fleet"}${coast}`;
}

/** What a seat's power is doing this phase, in words. */
function seatState(g, p, player) {
  if (g.status === "finished") return g.eliminated.includes(p) ? "out" : "—";
  if (g.ready.includes(p)) return "ready ✓";
  // a free seat's power is in civil disorder (its units hold) and the phase does not wait for it
  if (!player && g.status === "active") return (g.free || []).includes(p) ? "no player: civil disorder, units hold" : "no player: units hold";
  if (!g.to_order.includes(p)) {
    if (player || g.status !== "active") return g.civil_disorder.includes(p) ? "civil disorder" : "—";
    return "no player: units hold";
  }
  return (g.orders_in || []).includes(p) ? "orders in" : "no orders yet";
}

/** The help of the orders panel for the phase: what is due, how to give orders, what happens to
 * what is not ordered, and an example for the empty text box. ``used``: the builds the power's
 * orders of the variant's own kinds use (its orders' ``builds_used``). */
function phaseHelp(g, power, legal, lines, used) {
  const given = (kind) => lines.filter((l) => l.ok && l.order && l.order.kind === kind).length;
  const entries = Object.entries(legal).filter(([loc]) => loc !== "waive");
  const first = (kind) => { for (const [, os] of entries) { const o = os.find((x) => x.kind === kind); if (o) return said(o); } return null; };
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (g.phase_type === "retreats") {
    const example = [first("retreat"), first("disband")].filter(Boolean);
    return {
      due: `${plural(entries.length, "dislodged unit")} to retreat or disband.`,
      how: "Click a dislodged unit on the map, then where it retreats (or Disband in the menu). Or pick from the lists, or type below.",
      fallback: "a dislodged unit without an order is disbanded.",
      placeholder: example.length ? `For example:\n${example.join("\n")}` : "",
    };
  }
  if (g.phase_type === "adjustments") {
    // the variant's own kinds of order listed now (order_kinds), each by its menu label
    const kinds = (g.order_kinds || []).filter((k) => entries.some(([, os]) => os.some((o) => o.kind === k.name)));
    const extra = kinds.map((k) => ` You may also give ${kindWords(g.order_kinds, { kind: k.name }, "adjustments")} orders (${given(k.name)} given): click the unit and choose it in the menu.`).join("");
    const advice = adjustmentHelp(g, power, entries, given, first, used);
    return extra ? { ...advice, how: advice.how + extra } : advice;
  }
  return {
    due: null,
    how: "Click a unit on the map, then where it goes (or choose Support or Convoy in the menu). Or pick from the lists, or type the orders below.",
    fallback: "units without orders hold.",
    placeholder: examples(legal),
  };
}

/** The help of an adjustment phase: builds or removals due, less the builds the orders of the
 * variant's own kinds use (``used``, each said in its kind's words). */
function adjustmentHelp(g, power, entries, given, first, used) {
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  // the engine's one count (GET /games/{id} "adjustments"), which says why it is not centres
  // minus units (India's armies need no centres...) and what caps the builds
  const info = g.adjustments ? g.adjustments[power.toUpperCase()] || { builds: 0, removals: 0 } : null;
  const units = info && info.units !== undefined ? info.units : ((g.position.units || {})[power.toUpperCase()] || []).length;
  const centres = info && info.centres !== undefined ? info.centres : g.centers[power] ?? 0;
  const why = info && info.notes && info.notes.length ? `; ${info.notes.join("; ")}` : "";
  const builds = info ? info.builds || 0 : Math.max(0, centres - units);
  const removals = info ? info.removals || 0 : Math.max(0, units - centres);
  if (builds > 0 || (info && info.due > 0)) {
    const sites = entries.filter(([, os]) => os.some((o) => o.kind === "build")).length;
    // builds taken by orders of the variant's own kinds, as the engine counts them
    const spent = builds > 0 ? used.filter((u) => u.builds > 0) : [];
    const due = Math.max(0, (info ? builds : Math.min(builds, sites)) - spent.reduce((n, u) => n + u.builds, 0));
    const waived = given("waive");
    const limit = info ? (info.limit ? `; ${info.due} due, but ${info.limit}` : "")
      : due < builds ? `; only ${plural(sites, "free home centre")}` : "";
    return {
      due: `Builds: ${plural(due, "build")} allowed (${centres} centres, ${units} units${why})${limit}` +
        spent.map((u) => `; ${u.builds} ${u.words}`).join("") +
        `; ${given("build")} given${waived ? `, ${waived} waived` : ""}.`,
      how: "Click a free home centre on the map and choose an army or a fleet. Or pick from the lists, or type below (WAIVE gives up a build).",
      fallback: "builds not given are given up.",
      placeholder: first("build") ? `For example:\n${first("build")}\n(one line per build)` : "",
    };
  }
  if (removals > 0) {
    return {
      due: `Removals: ${plural(removals, "unit")} must be removed (${centres} centres, ${units} units${why}); ${given("disband")} given.`,
      how: "Click a unit on the map and choose Remove. Or pick from the lists, or type below.",
      fallback: "if too few are removed, the rules remove units for you, those farthest from your home centres first.",
      placeholder: first("disband") ? `For example:\n${first("disband")}\n(one line per unit to remove: ${removals} due)` : "",
    };
  }
  return { due: `No builds or removals: ${why ? `centres and units are even${why}` : "centres and units are even"}.`, how: "", fallback: "nothing to do this winter.", placeholder: "" };
}

/** A few of the power's own legal orders, as an example of what to type. */
function examples(legal) {
  const out = [];
  for (const orders of Object.values(legal)) {
    const o = orders.find((x) => x.kind !== "hold") || orders[0];
    if (o && out.length < 3) out.push(said(o));
  }
  return out.join("\n");
}
