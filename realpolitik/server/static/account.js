// Securing one's account: the server's refusals of sign-up, log-in and a new password in plain
// words, and the lobby's Account card (change the password, see and end one's log-ins, sign out
// everywhere). Nothing typed is cleared on a refusal: the forms are never rebuilt then.
import { api, auth, h, clockTime } from "./api.js";

/** The shortest password the server accepts (its MIN_PASSWORD_CHARS). */
export const MIN_PASSWORD_CHARS = 8;

/** "45 seconds", "1 minute", "14 minutes": how long to wait, in words. */
function waitWords(seconds) {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** A refusal of an account request (sign-up, log-in, password change) as a sentence to show. */
export function refusal(err) {
  const said = String(err.message || "");
  const sentence = (text) => text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");
  switch (err.code) {
    case "weak_password":
      return `The server refused this password: ${said}${/[.!?]$/.test(said) ? "" : "."} Choose another; the other fields are kept.`;
    case "too_many_requests": {
      const wait = err.detail && Number(err.detail.retry_after);
      const what = sentence(said.replace(/ \(.*$/, ""));  // "too many failed log-ins ... (10 per 15 minutes); try again in 840 s"
      return wait > 0 ? `${what} Wait ${waitWords(wait)}, then try again.` : `${what} Wait a while, then try again.`;
    }
    case "bad_credentials":
      return sentence(said);
    case "username_taken":
      return `${sentence(said)} Choose another name.`;
    default:
      return sentence(said);
  }
}

/** What the password rule says of ``password`` as it is typed (the length, known here; the rest,
 * common words and patterns, the server judges on submit). */
export function lengthHint(password) {
  if (!password) return `At least ${MIN_PASSWORD_CHARS} characters, not easy to guess (no common passwords, words, names or keyboard runs).`;
  const short = MIN_PASSWORD_CHARS - password.length;
  return short > 0 ? `${short} more character${short === 1 ? "" : "s"} needed (at least ${MIN_PASSWORD_CHARS}).`
    : "Long enough; the server also refuses passwords easy to guess, and will say why.";
}

/** How long ago ``iso`` was, in words ("just now", "5 minutes ago", "2 days ago"). */
export function agoWords(iso, now = Date.now()) {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (!Number.isFinite(seconds)) return "";
  const count = (n, unit) => `${n} ${unit}${n === 1 ? "" : "s"} ago`;
  if (seconds < 60) return "just now";
  if (seconds < 3600) return count(Math.floor(seconds / 60), "minute");
  if (seconds < 86400) return count(Math.floor(seconds / 3600), "hour");
  return count(Math.floor(seconds / 86400), "day");
}

/** A User-Agent header as a short name ("Firefox on Linux"), or what it is when unknown. */
export function agentName(agent) {
  if (!agent) return "unknown browser or program";
  const browser = [["Edg/", "Edge"], ["OPR/", "Opera"], ["Firefox/", "Firefox"], ["Chromium/", "Chromium"],
    ["Chrome/", "Chrome"], ["Safari/", "Safari"]].find(([mark]) => agent.includes(mark));
  const system = [["Android", "Android"], ["iPhone", "iPhone"], ["iPad", "iPad"], ["Windows", "Windows"],
    ["Mac OS X", "macOS"], ["Linux", "Linux"]].find(([mark]) => agent.includes(mark));
  if (!browser) return agent.length > 60 ? `${agent.slice(0, 60)}…` : agent;
  return system ? `${browser[1]} on ${system[1]}` : browser[1];
}

/** The lobby's Account card. ``signedOut(message)`` is called when this page's own log-in has
 * ended (signed out everywhere, or its own session ended from the list). */
export function accountCard(signedOut) {
  const sessions = sessionsPart(signedOut);
  const card = h("section", { class: "card account", id: "account", "aria-labelledby": "account-h" },
    h("h2", { id: "account-h" }, "Account"),
    passwordForm(), sessions.part);
  card.addEventListener("sessions-changed", sessions.load);  // a new password ends the other log-ins
  return card;
}

function passwordForm() {
  const current = h("input", { type: "password", name: "current_password", id: "pw-current", required: true,
    autocomplete: "current-password" });
  const fresh = h("input", { type: "password", name: "new_password", id: "pw-new", required: true,
    autocomplete: "new-password", "aria-describedby": "pw-hint" });
  const hint = h("p", { class: "muted small", id: "pw-hint", "aria-live": "polite" }, lengthHint(""));
  fresh.addEventListener("input", () => { hint.textContent = lengthHint(fresh.value); });
  const msg = h("p", { class: "error", id: "pw-msg", role: "alert" });
  const done = h("p", { class: "small", id: "pw-done", role: "status" });
  const button = h("button", { type: "submit" }, "Change password");
  const f = h("form", { id: "password-form", "aria-labelledby": "pw-h" },
    h("h3", { id: "pw-h" }, "Change password"),
    h("div", { class: "grid" }, h("label", {}, "Current password", current), h("label", {}, "New password", fresh)),
    hint, button, msg, done);
  f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    msg.textContent = done.textContent = "";
    if (fresh.value.length < MIN_PASSWORD_CHARS) { msg.textContent = lengthHint(fresh.value); fresh.focus(); return; }
    button.disabled = true;
    try {
      const answer = await api("POST", "/auth/password", { current_password: current.value, new_password: fresh.value });
      current.value = fresh.value = "";
      hint.textContent = lengthHint("");
      done.textContent = `Password changed. ${answer.revoked
        ? `${answer.revoked} other log-in${answer.revoked === 1 ? "" : "s"} ended; this page stays signed in.`
        : "This page stays signed in."}`;
      f.dispatchEvent(new CustomEvent("sessions-changed", { bubbles: true }));
    } catch (err) {
      msg.textContent = refusal(err);
      (err.detail && err.detail.field === "current_password" ? current : fresh).focus();
    } finally {
      button.disabled = false;
    }
  });
  return f;
}

function sessionsPart(signedOut) {
  const list = h("div", { id: "sessions" }, h("p", { class: "muted" }, "Loading…"));
  const msg = h("p", { class: "error", id: "sessions-msg", role: "alert" });
  const everywhere = h("button", { type: "button", id: "logout-everywhere" }, "Sign out everywhere");
  const load = async () => {
    let sessions;
    try { sessions = await api("GET", "/auth/sessions"); } catch (err) { msg.textContent = refusal(err); return; }
    list.replaceChildren(sessionsTable(sessions, async (session) => {
      msg.textContent = "";
      try {
        await api("DELETE", `/auth/sessions/${encodeURIComponent(session.id)}`);
      } catch (err) { msg.textContent = refusal(err); return; }
      if (session.current) { auth.clear(); signedOut("You signed this page out."); } else load();
    }));
  };
  everywhere.addEventListener("click", async () => {
    msg.textContent = "";
    everywhere.disabled = true;
    try {
      const answer = await api("POST", "/auth/logout-everywhere", {});
      auth.clear();
      signedOut(`Signed out everywhere: ${answer.revoked} log-in${answer.revoked === 1 ? "" : "s"} ended, this page's too. Log in again to play.`);
    } catch (err) {
      msg.textContent = refusal(err);
      everywhere.disabled = false;
    }
  });
  const part = h("div", { class: "sessions" },
    h("h3", {}, "Where you are signed in"),
    h("p", { class: "muted small" }, "Each log-in of your account, the newest first, and when it was last used. Sign out one you do not know, or every one (this page too) if your password or a device may be in someone else's hands."),
    list, h("div", { class: "row" }, everywhere), msg);
  load();
  return { part, load };
}

function sessionsTable(sessions, end) {
  if (!sessions.length) return h("p", { class: "muted" }, "No log-in is valid.");
  const when = (iso) => (iso ? h("time", { datetime: iso, title: new Date(iso).toLocaleString() }, clockTime(iso)) : "—");
  const ago = (iso) => (iso ? h("time", { datetime: iso, title: new Date(iso).toLocaleString() }, agoWords(iso)) : "—");
  return h("table", { class: "sessions-list" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Browser or program"), h("th", { scope: "col" }, "Address"),
      h("th", { scope: "col" }, "Signed in"), h("th", { scope: "col" }, "Last used"), h("th", { scope: "col" }, "Expires"), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Sign out")))),
    h("tbody", {}, sessions.map((s) => h("tr", { dataset: { session: s.id }, class: s.current ? "current" : null },
      h("td", {}, h("span", { title: s.agent || "" }, agentName(s.agent)), s.current ? h("strong", { class: "this-session" }, " (this session)") : null),
      h("td", { dataset: { label: "Address" } }, s.client || "—"),
      h("td", { dataset: { label: "Signed in" } }, when(s.created_at)),
      h("td", { class: "last-used", dataset: { label: "Last used" } }, ago(s.last_used_at)),
      h("td", { dataset: { label: "Expires" } }, when(s.expires_at)),
      h("td", {}, h("button", { type: "button", class: "end-session", "aria-label": `Sign out ${agentName(s.agent)}${s.current ? " (this session)" : ""}`,
        onclick: () => end(s) }, "Sign out"))))));
}
