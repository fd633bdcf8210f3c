// Press: conversations per set of powers, public announcements, unread markers, drafts kept on
// this device. Whether press is open is the server's word (game.press_open).
import { api, auth, h, title, phaseName, local, clockTime, lengthLimit, touchOnly } from "./api.js";

const keyOf = (m) => (m.public || !m.recipients ? "public" : [...new Set([m.sender, ...m.recipients])].sort().join(","));
const readKey = (gameId, key) => `rp:read:${gameId}:${key}`;

/** How many of ``messages`` (a game's press) the player of ``mine`` has not read on this device. */
export function countUnread(gameId, messages, mine) {
  return messages.filter((m) => !mine.includes(m.sender) && m.id > local.get(readKey(gameId, keyOf(m)), 0)).length;
}

/** Every message of a game the user may read, page by page (the server answers at most
 * ``PRESS_PAGE`` messages at a time, oldest first). */
const PRESS_PAGE = 500;
export async function allPress(gameId) {
  const messages = [];
  for (;;) {
    const after = messages.length ? messages[messages.length - 1].id : 0;
    const page = await api("GET", `/games/${gameId}/press?after=${after}&limit=${PRESS_PAGE}`);
    messages.push(...page);
    if (page.length < PRESS_PAGE) return messages;
  }
}

export class PressPanel {
  constructor(page, box) {
    this.page = page;
    this.box = box;
    this.messages = [];
    this.open = null;  // the conversation shown
    this.extra = [];   // conversations started here, with no message yet
  }

  get game() { return this.page.game; }
  get mine() { return this.page.mine; }

  async load() {
    try {
      const fresh = await allPress(this.page.id);
      this.messages = fresh;
    } catch (err) { /* private games: nothing to read */ }
    this.render();
  }

  add(message) {
    if (this.messages.some((m) => m.id === message.id)) return;
    this.messages.push(message);
    this.render();
  }

  readKey(key) { return readKey(this.page.id, key); }

  unread(key) {
    const seen = local.get(this.readKey(key), 0);
    return this.messages.filter((m) => keyOf(m) === key && m.id > seen && !this.mine.includes(m.sender)).length;
  }

  conversations() {
    const keys = new Set(["public"]);
    for (const m of this.messages) keys.add(keyOf(m));
    for (const k of this.extra) keys.add(k);
    return [...keys];
  }

  label(key) {
    if (key === "public") return "Public announcements";
    const others = key.split(",").filter((p) => !this.mine.includes(p));
    return (others.length ? others : key.split(",")).map(title).join(", ");
  }

  closedReason() {
    const g = this.game;
    if (!auth.token || !this.mine.length) return "Only the players can send press.";
    if (g.press_open) return null;
    if (g.status === "finished") return "The game is over.";
    if (!g.press.private && !g.press.public) return "This game has no press.";
    return `Press is closed during ${g.phase_type} (it opens again at the next diplomacy period).`;
  }

  renderBadge() {
    const total = this.conversations().reduce((n, k) => n + this.unread(k), 0);
    const badge = document.getElementById("unread");
    if (badge) {
      badge.hidden = total === 0;
      badge.textContent = String(total);
      badge.setAttribute("aria-label", `${total} unread`);
    }
  }

  render() {
    const keys = this.conversations();
    if (this.page.tab === "press") {
      // choose the thread first, then count it read: what is on the screen is read
      if (!this.open || !keys.includes(this.open)) this.open = keys.find((k) => this.unread(k)) || keys[keys.length - 1];
      const last = this.messages.filter((m) => keyOf(m) === this.open).reduce((n, m) => Math.max(n, m.id), 0);
      if (last) local.set(this.readKey(this.open), Math.max(last, local.get(this.readKey(this.open), 0)));
    }
    this.renderBadge();
    if (this.page.tab !== "press") return;
    const draftFocus = document.activeElement && document.activeElement.id === "press-text";
    const list = h("ul", { class: "convs", "aria-label": "Conversations" }, keys.map((k) => {
      const n = this.unread(k);
      return h("li", {}, h("button", { type: "button", class: "conv", "aria-current": k === this.open ? "true" : null,
        onclick: () => { this.open = k; this.render(); } }, this.label(k),
      n ? h("span", { class: "badge", "aria-label": `${n} unread` }, String(n)) : null));
    }));
    const shown = this.messages.filter((m) => keyOf(m) === this.open);
    const thread = h("ol", { class: "thread", "aria-label": `Messages: ${this.label(this.open)}`, tabindex: 0 },
      shown.length ? shown.map((m) => h("li", { class: this.mine.includes(m.sender) ? "msg me" : "msg" },
        h("div", { class: "meta" }, h("strong", { class: `p-${m.sender}` }, title(m.sender)),
          m.public ? "" : ` → ${(m.recipients || []).map(title).join(", ")}`,
          h("span", { class: "muted" }, ` · ${phaseName(m.phase)}`),
          m.sent_at ? h("time", { class: "muted", datetime: m.sent_at, title: new Date(m.sent_at).toLocaleString() }, ` · ${clockTime(m.sent_at)}`) : null),
        h("div", { class: "body" }, m.body))) : h("li", { class: "muted" }, "No messages yet."));
    this.box.replaceChildren(h("h2", {}, "Press"), h("div", { class: "press" }, h("div", {}, list, this.newConversation()), h("div", { class: "conv-view" },
      h("h3", {}, this.label(this.open)), thread, this.composer())));
    thread.scrollTop = thread.scrollHeight;
    if (draftFocus) { const t = document.getElementById("press-text"); if (t) { t.focus(); t.setSelectionRange(t.value.length, t.value.length); } }
  }

  newConversation() {
    const g = this.game;
    if (this.closedReason() || !g.press.private) return null;
    const others = g.powers.filter((p) => !this.mine.includes(p) && !g.eliminated.includes(p));
    const bots = g.bots || {};
    const boxes = others.map((p) => h("label", { class: "check" }, h("input", { type: "checkbox", value: p }),
      bots[p] ? `${title(p)} (computer)` : title(p)));
    const as = this.mine.length > 1 ? h("select", { id: "new-conv-as", "aria-label": "Speak as" },
      this.mine.map((p) => h("option", { value: p }, title(p)))) : null;
    const form = h("form", { class: "new-conv" }, h("fieldset", {}, h("legend", {}, "New conversation with"), boxes),
      h("div", { class: "row" }, as ? h("label", {}, "As ", as) : null, h("button", { type: "submit", class: "secondary" }, "Open")));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const chosen = [...form.querySelectorAll("input:checked")].map((i) => i.value);
      if (!chosen.length) return;
      const key = [...new Set([as ? as.value : this.mine[0], ...chosen])].sort().join(",");
      if (!this.extra.includes(key)) this.extra.push(key);
      this.open = key;
      this.render();
    });
    return form;
  }

  composer() {
    const reason = this.closedReason();
    if (reason) return h("p", { class: "note", id: "press-closed" }, reason);
    const g = this.game;
    const key = this.open;
    if (key === "public" && !g.press.public) return h("p", { class: "note" }, "This game has no public announcements.");
    const members = key === "public" ? null : key.split(",");
    const senders = members ? this.mine.filter((p) => members.includes(p)) : this.mine;
    const draftKey = `rp:draft:press:${this.page.id}:${key}`;
    // no maxlength: a pasted text is never cut; the counter says how much is over the limit
    const text = h("textarea", { id: "press-text", rows: 3, "aria-label": `Message to ${this.label(key)}`,
      "aria-describedby": "press-count" });
    text.value = local.get(draftKey, "");
    text.addEventListener("input", () => local.set(draftKey, text.value));
    const limit = lengthLimit(text, ((this.page.catalogue || {}).limits || {}).press_chars, "one message");
    limit.counter.id = "press-count";
    const sender = senders.length > 1 ? h("select", { id: "press-sender", "aria-label": "Send as" }, senders.map((p) => h("option", { value: p }, title(p)))) : null;
    const msg = h("p", { class: "error", role: "alert" });
    const send = async () => {
      const body = text.value.trim();
      if (!body) { msg.textContent = "The message is empty."; return; }
      if (!limit.fits()) { msg.textContent = "Not sent: the message is too long (see the count above). Nothing was cut."; return; }
      msg.textContent = "";
      const from = sender ? sender.value : senders[0];
      const payload = { sender: from, body };
      if (members) payload.to = members.filter((p) => p !== from);
      try {
        const m = await api("POST", `/games/${this.page.id}/press`, payload);
        local.set(draftKey, null);
        text.value = "";
        const shown = document.getElementById("press-text");  // a live event may have re-drawn it
        if (shown) shown.value = "";
        this.add(m);
      } catch (err) { msg.textContent = err.message; }
    };
    text.addEventListener("keydown", (ev) => { if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); send(); } });
    const silent = (members || []).filter((p) => (g.bots || {})[p] && !this.mine.includes(p));
    const botNote = silent.length ? h("p", { class: "note", id: "press-bots" },
      `${silent.map(title).join(", ")} ${silent.length > 1 ? "are" : "is"} played by the computer: messages are delivered, but the computer does not read or answer them.`) : null;
    return h("div", { class: "composer" }, botNote, sender ? h("label", {}, "As ", sender) : null, text, limit.counter,
      h("div", { class: "row" }, h("button", { type: "button", id: "press-send", onclick: send }, key === "public" ? "Announce" : "Send"),
        h("span", { class: "muted small" }, touchOnly() ? "Unsent text is kept on this device." : "Ctrl+Enter sends; unsent text is kept on this device.")), msg);
  }
}
