// The page: a hash router over the lobby (#/) and the game page (#/game/<id>).
import { api, auth, h, title, phaseName, toast, duration, clockTime, learnPowerNames } from "./api.js";
import { GamePage } from "./game.js";
import { allPress, countUnread } from "./press.js";
import { accountCard, lengthHint, refusal, MIN_PASSWORD_CHARS } from "./account.js";

const main = document.getElementById("main");
let current = null;  // the view being shown (has destroy())
let catalogue = null;
let signedOutNotice = "";  // said once over the log-in forms after a sign-out from the Account card

export async function variants() {
  if (!catalogue) {
    catalogue = await api("GET", "/web/variants");
    learnPowerNames(catalogue);
  }
  return catalogue;
}

function renderWho() {
  const who = document.getElementById("who");
  who.replaceChildren();
  if (auth.token) {
    who.append(
      h("span", { class: "user" }, `Signed in as ${auth.user}`), " ",
      h("button", { type: "button", class: "link", onclick: logout }, "Log out"));
  } else {
    who.append(h("a", { href: "#/" }, "Log in or sign up"));
  }
}

async function logout() {
  try { await api("POST", "/auth/logout", {}); } catch { /* the token may already be gone */ }
  auth.clear();
  renderWho();
  route();
}

function route() {
  if (current && current.destroy) current.destroy();
  current = null;
  renderWho();
  const m = /^#\/game\/(\d+)/.exec(location.hash);
  if (m) {
    current = new GamePage(main, Number(m[1]), { variants, onAuthChange: renderWho });
  } else {
    current = new Lobby(main);
  }
}


// -- the lobby ------------------------------------------------------------------------------------

class Lobby {
  constructor(root) {
    this.root = root;
    this.render();
  }

  destroy() {}

  async render() {
    document.title = "realpolitik";
    const root = this.root;
    root.replaceChildren();
    if (!auth.token) root.append(this.authForms());
    const lists = h("div", { class: "lobby-lists" });
    root.append(lists);
    if (auth.token) root.insertBefore(await this.quickStart(), lists);
    if (auth.token) {
      lists.append(h("section", { class: "card", "aria-labelledby": "mine-h" },
        h("h2", { id: "mine-h" }, "My games"), h("div", { id: "mine" }, h("p", { class: "muted" }, "Loading…"))));
    }
    lists.append(h("section", { class: "card", "aria-labelledby": "open-h" },
      h("h2", { id: "open-h" }, "Open games"), h("div", { id: "open" }, h("p", { class: "muted" }, "Loading…"))));
    if (auth.token) root.append(await this.createForm());
    if (auth.token) root.append(await this.notificationsForm());
    if (auth.token) root.append(accountCard((message) => { signedOutNotice = message; route(); }));
    this.loadLists();
  }

  /** E-mail notices: one's address (verified by a link) and what one hears of. */
  async notificationsForm() {
    let prefs;
    try { prefs = await api("GET", "/me/notifications"); } catch (err) { return h("p", { class: "error" }, err.message); }
    const msg = h("p", { class: "small", id: "notify-msg", role: "status" });
    const address = h("input", { type: "email", name: "email", id: "notify-email", value: prefs.email || "", autocomplete: "email",
      placeholder: "you@example.org", "aria-describedby": "notify-state" });
    const state = h("p", { class: "muted small", id: "notify-state" });
    const showState = (p) => {
      state.textContent = !p.mail_enabled ? "This server sends no e-mail (its operator has not set up an SMTP server)."
        : !p.email ? "No address: no mail."
          : p.verified ? `Mail goes to ${p.email} (verified).`
            : `A link was sent to ${p.email}: open it to get mail there. Nothing is sent before.`;
    };
    showState(prefs);
    const check = (name, label) => h("label", { class: "check" }, h("input", { type: "checkbox", name, checked: prefs[name] }), label);
    const f = h("form", { class: "card notifications", id: "notify-form", "aria-labelledby": "notify-h" },
      h("h2", { id: "notify-h" }, "Notifications"),
      h("p", { class: "muted small" }, "Games last days or weeks: get an e-mail when something needs you. Every mail has a link to stop that kind of mail."),
      h("label", {}, "E-mail address", address), state,
      h("fieldset", {}, h("legend", {}, "E-mail me when"),
        check("phase", "a phase of my games is played"), check("reminder", "a deadline is near and my orders are not in"),
        check("press", "press arrives for me"), check("digest", "gather phases and press into one mail a day")),
      h("button", { type: "submit" }, "Save"), msg);
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      msg.textContent = "";
      const body = { phase: f.phase.checked, reminder: f.reminder.checked, press: f.press.checked, digest: f.digest.checked };
      if ((address.value.trim() || null) !== (prefs.email || null)) body.email = address.value.trim();
      try {
        prefs = await api("PUT", "/me/notifications", body);
        showState(prefs);
        msg.textContent = "Saved.";
      } catch (err) { msg.textContent = err.message; }
    });
    return f;
  }

  async loadLists() {
    const fill = async (id, scope) => {
      const box = document.getElementById(id);
      if (!box) return;
      try {
        const games = await api("GET", `/games?scope=${scope}`);
        if (scope === "mine") {
          box.replaceChildren(games.length ? await this.mineTable(games) : h("p", { class: "muted" }, "No games yet: create one below, or join an open game."));
        } else {
          box.replaceChildren(...this.openLists(games));
        }
      } catch (err) {
        box.replaceChildren(h("p", { class: "error" }, err.message));
      }
    };
    await Promise.all([auth.token ? fill("mine", "mine") : null, fill("open", "open")]);
  }

  /** Open games: those with a free seat to take, then (folded) those one can only watch. */
  openLists(games) {
    const joinable = games.filter((g) => g.seats_free > 0 && g.status !== "finished");
    const full = games.filter((g) => !joinable.includes(g));
    return [
      joinable.length ? this.table(joinable) : h("p", { class: "muted", id: "no-free-seats" }, "No game has a free seat: create one below."),
      full.length ? h("details", { id: "watch-only" }, h("summary", {}, `Games to watch (no free seat): ${full.length}`), this.table(full)) : null,
    ].filter(Boolean);
  }

  table(games) {
    return h("table", { class: "games" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Game"), h("th", { scope: "col" }, "Setup · rules"),
        h("th", { scope: "col" }, "Phase"), h("th", { scope: "col" }, "Status"), h("th", { scope: "col" }, "Free seats"))),
      h("tbody", {}, games.map((g) => h("tr", {},
        h("td", {}, h("a", { href: `#/game/${g.id}` }, g.name), botsLine(g),
          g.daide_bots && g.seats_free ? h("div", { class: "muted small" }, "DAIDE bots welcome") : null),
        h("td", {}, `${g.players} · ${g.rules}`),
        h("td", {}, g.phase_name || phaseName(g.phase)),
        h("td", {}, g.status),
        h("td", {}, `${g.seats_free} of ${g.seats}`)))));
  }

  /** One's own games: what is owed this phase, the deadline, and unread press (this device's). */
  async mineTable(games) {
    const unread = await Promise.all(games.map((g) => allPress(g.id)
      .then((messages) => countUnread(g.id, messages, g.my_powers || [])).catch(() => 0)));
    const owed = (g) => {
      if (g.status === "finished") return h("span", { class: "muted" }, "finished");
      if (g.status === "paused") return h("span", { class: "muted" }, "paused");
      if ((g.orders_needed || []).length) {
        return h("strong", { class: "owed" }, `Orders needed: ${g.orders_needed.map(title).join(", ")}`);
      }
      return h("span", { class: "done" }, g.status === "forming" ? "waiting for players" : "orders in ✓");
    };
    const deadline = (g) => {
      if (!g.deadline || g.status !== "active") return "—";
      const left = (new Date(g.deadline).getTime() - Date.now()) / 1000;
      return h("time", { datetime: g.deadline, title: new Date(g.deadline).toLocaleString() },
        left > 0 ? `${duration(left)} left (${clockTime(g.deadline)})` : "adjudicating…");
    };
    return h("table", { class: "games mine" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Game"), h("th", { scope: "col" }, "Phase"),
        h("th", { scope: "col" }, "This phase"), h("th", { scope: "col" }, "Deadline"), h("th", { scope: "col" }, "Press"))),
      h("tbody", {}, games.map((g, i) => h("tr", { dataset: { game: String(g.id) } },
        h("td", {}, h("a", { href: `#/game/${g.id}` }, g.name), h("div", { class: "muted small" },
          (g.my_powers || []).map(title).join(", ")), botsLine(g)),
        h("td", {}, g.phase_name || phaseName(g.phase)),
        h("td", {}, owed(g)),
        h("td", {}, deadline(g)),
        h("td", {}, unread[i] ? h("span", { class: "badge unread", "aria-label": `${unread[i]} unread` }, String(unread[i]))
          : h("span", { class: "muted" }, "—"))))));
  }

  /** Log in and sign up. A refusal is said in plain words (a weak password: why; too many
   *  failed log-ins: how long to wait) and leaves what was typed in place. */
  authForms() {
    const form = (kind, label) => {
      const signup = kind === "signup";
      const msg = h("p", { class: "error", id: `${kind}-msg`, role: "alert" });
      const status = h("p", { class: "muted small", id: `${kind}-status`, role: "status" });
      const password = h("input", { name: "password", type: "password", required: true,
        autocomplete: signup ? "new-password" : "current-password", "aria-describedby": signup ? "signup-hint" : null });
      const hint = signup ? h("p", { class: "muted small", id: "signup-hint", "aria-live": "polite" }, lengthHint("")) : null;
      if (signup) password.addEventListener("input", () => { hint.textContent = lengthHint(password.value); });
      const button = h("button", { type: "submit" }, label);
      const f = h("form", { class: "card auth", id: `${kind}-form`, "aria-labelledby": `${kind}-h` },
        h("h2", { id: `${kind}-h` }, label),
        h("label", {}, "Name", h("input", { name: "username", autocomplete: "username", required: true, minlength: 2, maxlength: 32 })),
        h("label", {}, "Password", password), hint,
        button, status, msg);
      f.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        msg.textContent = status.textContent = "";
        if (signup && password.value.length < MIN_PASSWORD_CHARS) { msg.textContent = lengthHint(password.value); password.focus(); return; }
        button.disabled = true;
        // an account with many failed log-ins answers only after a short wait: say so
        const slow = setTimeout(() => { status.textContent = "Checking… (an account with many failed log-ins answers after a short wait)"; }, 1000);
        try {
          const data = await api("POST", `/auth/${kind}`, { username: f.username.value.trim(), password: password.value });
          auth.set(data.token, data.username);
          renderWho();
          this.render();
        } catch (err) {
          msg.textContent = refusal(err);
        } finally {
          clearTimeout(slow);
          status.textContent = "";
          button.disabled = false;
        }
      });
      return f;
    };
    const notice = signedOutNotice;
    signedOutNotice = "";
    return h("div", { class: "auth-forms" },
      notice ? h("p", { class: "notice", id: "signed-out", role: "status" }, notice) : null,
      h("p", { class: "intro" }, "Play Diplomacy: sign up, then play against the computer in one click, create a game or join an open one, and give your orders on the map."),
      form("login", "Log in"), form("signup", "Sign up"));
  }

  /** One click to a game against the computer: the player on a chosen (or drawn) power of any
   *  variant the server has, bots on every other power; each phase moves on as soon as the
   *  player is ready. */
  async quickStart() {
    let cat;
    try { cat = await variants(); } catch (err) { return h("p", { class: "error" }, err.message); }
    const first = cat.variants.find((v) => v.id === "classical") || cat.variants[0];
    // the full game of a variant: the setup with the most players
    const fullSetup = (v) => v.setups.reduce((a, b) => (b.teams.length > a.teams.length ? b : a), v.setups[0]);
    const msg = h("p", { class: "error", role: "alert" });
    const variantSel = h("select", { name: "variant", id: "vs-variant" },
      cat.variants.map((v) => h("option", { value: v.id, selected: v.id === first.id }, `${v.name} · ${fullSetup(v).teams.length} powers`)));
    const powerSel = h("select", { name: "power", id: "vs-power" });
    const about = h("p", { class: "muted small", id: "vs-about" });
    const fillPowers = () => {
      const v = cat.variants.find((x) => x.id === variantSel.value) || first;
      const setup = fullSetup(v);
      powerSel.replaceChildren(h("option", { value: "" }, "drawn at random"),
        ...setup.teams.map((team) => h("option", { value: team[0] }, team.map(title).join(" / "))));
      about.textContent = `You play one power; the computer plays the other ${setup.teams.length - 1}. Each phase is adjudicated as soon as you mark it ready.`;
    };
    variantSel.addEventListener("change", fillPowers);
    fillPowers();
    const botSel = h("select", { name: "bot", id: "vs-bot" },
      h("option", { value: "heuristic" }, "heuristic bots (they play for centres)"),
      h("option", { value: "random" }, "random bots (easy)"),
      h("option", { value: "hold" }, "hold bots (they never move)"));
    const f = h("form", { class: "card vs-computer", id: "vs-computer", "aria-labelledby": "vs-h" },
      h("h2", { id: "vs-h" }, "Play against the computer"), about,
      h("div", { class: "grid" }, h("label", {}, "Variant", variantSel), h("label", {}, "Your power", powerSel), h("label", {}, "Opponents", botSel)),
      h("button", { type: "submit", id: "vs-start" }, "Play against the computer"), msg);
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      msg.textContent = "";
      const v = cat.variants.find((x) => x.id === variantSel.value) || first;
      const power = powerSel.value || "any";  // drawn by lot on the server, and noted in the history
      const body = {
        name: power === "any" ? `${auth.user} vs the computer` : `${auth.user} (${title(power)}) vs the computer`, variant: v.id, players: fullSetup(v).id,
        private: true, join_as: power, fill_with_bots: botSel.value,
        // the game waits for nobody but you: long deadlines, so you can stop and come back
        deadlines: { first_movement: "7d", movement: "7d", retreats: "7d", adjustments: "7d" },
      };
      const button = f.querySelector("#vs-start");
      button.disabled = true;
      button.textContent = "Setting up the board…";
      try {
        const created = await api("POST", "/games", body);
        toast(`You play ${title(power)}; the computer plays the others.`);
        location.hash = `#/game/${created.id}`;
      } catch (err) {
        msg.textContent = err.message;
      } finally {
        button.disabled = false;
        button.textContent = "Play against the computer";
      }
    });
    return f;
  }

  async createForm() {
    let cat;
    try { cat = await variants(); } catch (err) { return h("p", { class: "error" }, err.message); }
    const msg = h("p", { class: "error", role: "alert" });
    const variantSel = h("select", { name: "variant" }, cat.variants.map((v) => h("option", { value: v.id }, v.name)));
    const setupSel = h("select", { name: "players" });
    const joinSel = h("select", { name: "join_as" });
    const setupInfo = h("p", { class: "muted small", id: "setup-info" });
    const joinHelp = h("span", { class: "muted small", id: "join-help", "aria-live": "polite" });
    // the variant's readings of unclear rules, each a choice (its own reading first); a variant
    // without any (the classical game) shows none
    const words = (text) => text.replaceAll("_", " ");
    const policyList = h("div", { class: "grid" });
    const policies = h("fieldset", { id: "policies" }, h("legend", {}, "Policies"),
      h("p", { class: "muted small" }, "How this variant reads the rules its rulebook leaves unclear; each starts at the variant's own reading."),
      policyList);
    const fillPolicies = (v) => {
      const entries = Object.entries(v.policies || {});
      policyList.replaceChildren(...entries.map(([name, values]) => h("label", {}, words(name),
        h("select", { name: `policy:${name}`, dataset: { policy: name, usual: values[0] } },
          values.map((value, i) => h("option", { value }, i === 0 ? `${words(value)} (the variant's)` : words(value)))))));
      policies.hidden = entries.length === 0;
    };
    // DAIDE bots: offered only in the setups the server says they can play
    const daideBots = h("fieldset", { id: "daide-bots" }, h("legend", {}, "Computer players"),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "daide_bots" }), "DAIDE bots (DumbBot and others) may take free seats"),
      h("p", { class: "muted small", id: "daide-help" }, "They connect to the server's DAIDE port and play one power each."));
    const fillSetups = () => {
      const v = cat.variants.find((x) => x.id === variantSel.value);
      setupSel.replaceChildren(...v.setups.map((s) => h("option", { value: s.id }, `${s.players} players${s.id !== String(s.players) ? ` (${s.id})` : ""}`)));
      fillPolicies(v);
      fillJoin();
    };
    const fillJoin = () => {
      const v = cat.variants.find((x) => x.id === variantSel.value);
      const s = v.setups.find((x) => x.id === setupSel.value) || v.setups[0];
      setupInfo.textContent = s.name;
      daideBots.hidden = !s.daide_bots;
      if (daideBots.hidden) daideBots.querySelector("input").checked = false;
      // playing is the default: running a game without playing is a choice one makes on purpose
      joinSel.replaceChildren(h("option", { value: "any" }, "any power (drawn by lot)"),
        ...s.teams.map((team) => h("option", { value: team[0] }, team.map(title).join(" / "))),
        h("option", { value: "" }, "no power: I only run the game (gamesmaster)"));
      joinHelp.textContent = joinSel.value ? "" : "You will not play: you only run the game.";
    };
    variantSel.addEventListener("change", fillSetups);
    setupSel.addEventListener("change", fillJoin);
    joinSel.addEventListener("change", () => { joinHelp.textContent = joinSel.value ? "" : "You will not play: you only run the game."; });
    fillSetups();
    const dl = (name, label, value) => h("label", {}, label, h("input", { name, value, size: 6, "aria-describedby": "dl-help" }));
    const check = (name, label, checked) => h("label", { class: "check" }, h("input", { type: "checkbox", name, checked }), label);
    const f = h("form", { class: "card create", id: "create-form", "aria-labelledby": "create-h" },
      h("h2", { id: "create-h" }, "Create a game"),
      h("div", { class: "grid" },
        h("label", {}, "Name", h("input", { name: "name", required: true, maxlength: 100, value: `${auth.user}'s game` })),
        h("label", {}, "Variant", variantSel),
        h("label", {}, "Rules", h("select", { name: "rules" }, cat.editions.map((e) => h("option", { value: e, selected: e === "2023" }, e)))),
        h("label", {}, "Players", setupSel),
        h("label", {}, "Play as", joinSel, joinHelp),
        h("label", {}, "Last year (short game)", h("input", { name: "end_year", type: "number", min: 1, max: 9999, placeholder: "none" }))),
      setupInfo,
      h("fieldset", {}, h("legend", {}, "Deadlines"),
        h("p", { class: "muted small", id: "dl-help" }, "Seconds, or 30m, 2h, 3d. The rulebook: 30 minutes before the first move, 15 before the others."),
        h("div", { class: "grid" }, dl("first_movement", "First movement", "30m"), dl("movement", "Movement", "15m"),
          dl("retreats", "Retreats", "5m"), dl("adjustments", "Adjustments", "5m"))),
      h("fieldset", {}, h("legend", {}, "Press and privacy"),
        check("press_private", "Private messages", true), check("press_public", "Public announcements", true),
        check("press_outside", "Press during retreats and adjustments", false), check("private", "Private game (invite only)", false)),
      daideBots,
      policies,
      h("button", { type: "submit" }, "Create game"), msg);
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      msg.textContent = "";
      const body = {
        name: f.elements.namedItem("name").value.trim(), variant: variantSel.value, rules: f.rules.value, players: setupSel.value,
        private: f.private.checked,
        deadlines: { first_movement: f.first_movement.value.trim(), movement: f.movement.value.trim(),
          retreats: f.retreats.value.trim(), adjustments: f.adjustments.value.trim() },
        press: { private: f.press_private.checked, public: f.press_public.checked, outside_diplomacy: f.press_outside.checked },
      };
      if (!daideBots.hidden && f.daide_bots.checked) body.daide_bots = true;
      if (f.end_year.value) body.end_year = Number(f.end_year.value);
      if (joinSel.value) body.join_as = joinSel.value;
      const chosen = [...policyList.querySelectorAll("select")].filter((sel) => sel.value !== sel.dataset.usual);
      if (chosen.length) body.policies = Object.fromEntries(chosen.map((sel) => [sel.dataset.policy, sel.value]));
      try {
        const created = await api("POST", "/games", body);
        toast(`Game ${created.id} created`);
        location.hash = `#/game/${created.id}`;
      } catch (err) {
        msg.textContent = err.message;
      }
    });
    return f;
  }
}

/** The computer players of a game in a list of games: DAIDE bots by the name they gave. */
function botsLine(g) {
  const bots = g.bots || [];
  if (!bots.length) return null;
  return h("div", { class: "muted small lobby-bots" },
    `with ${bots.map((b) => b.endsWith("(DAIDE)") ? b : `computer (${b})`).join(", ")}`);
}

// Start once the classes above exist.
window.addEventListener("hashchange", route);
if (document.readyState === "loading") window.addEventListener("DOMContentLoaded", route);
else route();
