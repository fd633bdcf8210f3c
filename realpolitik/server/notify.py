"""Notifications by e-mail: a game lasts days or weeks, and a player is told when a phase is
played, when a deadline is near and their orders are not in, and when press arrives.

Each user chooses what they hear of (``phase``, ``reminder``, ``press``) and whether the phases
and press come together in one ``digest`` every ``digest_hours``. Mail goes only to an address
its owner has verified (the one mail an unverified address gets is the link to verify it),
and every mail carries a link (and a ``List-Unsubscribe`` header) that turns that kind of mail
off in one click, without logging in.

Nothing is sent while a request is answered: mail is written to ``mail_outbox`` in the request's
transaction (reminders by the deadline task, :meth:`Notifier.remind`) and sent by a background
task of its own (:meth:`Notifier.deliver`), through the SMTP server of the settings
(``smtp_host``...; no host: no e-mail, and the page says so), so that a slow SMTP server delays
only the mail, never a deadline. :func:`mail_settings_problem` checks the settings at start-up.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import smtplib
from collections.abc import Callable, Iterable, Mapping
from email.message import EmailMessage
from email.policy import default as _default_policy
from email.utils import formatdate, make_msgid, parseaddr
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sqlalchemy import Connection, and_, delete, insert, select, update

from realpolitik.server import models as m
from realpolitik.server.settings import Settings
from realpolitik.server.values import JSON, bad, not_found

if TYPE_CHECKING:
    from realpolitik.server import store as db
    from realpolitik.server.service import GameService

log = logging.getLogger("realpolitik.server.mail")

KINDS = ("phase", "reminder", "press")
"""The kinds of notification a user can turn on or off."""
_DEFAULTS = {"phase": True, "reminder": True, "press": False, "digest": False}
_VERIFY_SECONDS = 2 * 24 * 3600
_MAX_ATTEMPTS = 5
_EMAIL = re.compile(r"[^@\s<>,;\"']+@[^@\s<>,;\"']+\.[^@\s<>,;\"'.]+")
_PREVIEW_CHARS = 300
_MAIL_POLICY = _default_policy.clone(max_line_length=998)
"""Headers folded only past RFC 5322's line limit: folded at 78 characters, the unsubscribe
header's URL (no space to fold at) went out as encoded words, which mail programs do not read
as a link (RFC 2369 wants ``<URL>`` as it is)."""


class _Taken(Exception):
    """Another worker claimed these outbox rows first."""


_SMTP_TIMEOUT = 20.0
"""Seconds an SMTP server may take to answer one step before the sending gives up (the mail
is tried again at the next turn)."""


def _connect(settings: Settings, timeout: float) -> smtplib.SMTP:
    """A connection to the SMTP server of ``settings``, over TLS and logged in as they say."""
    s = settings
    smtp: smtplib.SMTP = smtplib.SMTP_SSL(s.smtp_host, s.smtp_port, timeout=timeout) \
        if s.smtp_ssl else smtplib.SMTP(s.smtp_host, s.smtp_port, timeout=timeout)
    try:
        if s.smtp_starttls:
            smtp.starttls()
        if s.smtp_user:
            smtp.login(s.smtp_user, s.smtp_password)
    except BaseException:
        smtp.close()
        raise
    return smtp


def mail_settings_problem(settings: Settings, *, timeout: float = 10.0) -> str | None:
    """What is wrong with the mail settings (``REALPOLITIK_SMTP_*``, ``MAIL_FROM``,
    ``PUBLIC_URL``), in a sentence naming the variables, or None when mail can be sent (or
    none is wanted: no ``smtp_host``). The SMTP server is asked once, as the sending will:
    connected to, over TLS as set, logged in, then left. ``realpolitik serve`` calls this at
    start-up, so that a mistake is said then and not at the first mail."""
    s = settings
    if not s.smtp_host:
        return None
    where = f"the SMTP server {s.smtp_host}:{s.smtp_port} (REALPOLITIK_SMTP_HOST, _PORT)"
    if not 0 < s.smtp_port < 65536:
        return f"REALPOLITIK_SMTP_PORT={s.smtp_port} is not a port (1 to 65535)"
    if s.smtp_ssl and s.smtp_starttls:
        return ("REALPOLITIK_SMTP_SSL and REALPOLITIK_SMTP_STARTTLS are both on: choose one "
                "(SSL for port 465, STARTTLS for 587)")
    local, _, domain = parseaddr(s.mail_from)[1].rpartition("@")
    if not local or not domain or " " in domain:
        return f"REALPOLITIK_MAIL_FROM={s.mail_from!r} has no e-mail address to send from"
    if not re.match(r"https?://[^/\s]+", s.public_url):
        return (f"REALPOLITIK_PUBLIC_URL={s.public_url!r} is not an http:// or https:// "
                "address (the links in the mail start with it)")
    hint = ""
    if s.smtp_port == 465 and not s.smtp_ssl:
        hint = "; port 465 wants REALPOLITIK_SMTP_SSL=true"
    elif s.smtp_port == 587 and not s.smtp_starttls:
        hint = "; port 587 usually wants REALPOLITIK_SMTP_STARTTLS=true"
    try:
        with _connect(s, timeout) as smtp:
            smtp.noop()
    except smtplib.SMTPAuthenticationError as exc:
        return (f"{where} refused the log-in of REALPOLITIK_SMTP_USER={s.smtp_user!r} "
                f"(REALPOLITIK_SMTP_PASSWORD): {_reply(exc)}")
    except smtplib.SMTPNotSupportedError as exc:
        return f"{where} cannot do what the settings ask: {exc}{hint}"
    except smtplib.SMTPException as exc:
        if isinstance(exc.__context__, TimeoutError):  # smtplib's word for a silent server
            return f"{where} did not answer within {timeout:g} seconds{hint}"
        return f"{where} did not take the connection: {_reply(exc)}{hint}"
    except TimeoutError:
        return f"{where} did not answer within {timeout:g} seconds{hint}"
    except OSError as exc:
        return f"cannot reach {where}: {exc.strerror or exc}{hint}"
    return None


def _reply(exc: smtplib.SMTPException) -> str:
    """An SMTP error as the server said it (its code and text)."""
    if isinstance(exc, smtplib.SMTPResponseException):
        text = exc.smtp_error.decode(errors="replace") if isinstance(exc.smtp_error, bytes) \
            else str(exc.smtp_error)
        return f"{exc.smtp_code} {text}"
    return str(exc) or type(exc).__name__


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Notifier:
    """Users' mail choices, the outbox, and the sending (see the module's description)."""

    def __init__(self, store: db.Store, settings: Settings, clock: Callable[[], float]) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock

    @property
    def enabled(self) -> bool:
        """Whether the server has an SMTP server to send through."""
        return bool(self.settings.smtp_host)

    # -- a user's choices ------------------------------------------------------------------------

    def _row(self, conn: Connection, user_id: int) -> Any:
        row = conn.execute(select(m.mail_prefs).where(m.mail_prefs.c.user_id == user_id)).first()
        if row is None:
            conn.execute(insert(m.mail_prefs).values(
                user_id=user_id, email=None, verified=False,
                unsubscribe_key=secrets.token_urlsafe(24), **_DEFAULTS))
            row = conn.execute(
                select(m.mail_prefs).where(m.mail_prefs.c.user_id == user_id)).one()
        return row

    def _view(self, row: Any) -> JSON:
        return {"email": row.email, "verified": bool(row.verified),
                "mail_enabled": self.enabled,
                **{kind: bool(getattr(row, kind)) for kind in (*KINDS, "digest")}}

    def prefs(self, user_id: int) -> JSON:
        """What the user hears of, their address and whether it is verified."""
        with self.store.write() as conn:
            return self._view(self._row(conn, user_id))

    def update(self, user_id: int, username: str, choices: Mapping[str, Any]) -> JSON:
        """Change the user's choices (``phase``, ``reminder``, ``press``, ``digest``: booleans)
        or address (``email``: a new one is unverified and gets a link to verify it; empty
        or None: no mail at all)."""
        now = self.clock()
        with self.store.write() as conn:
            row = self._row(conn, user_id)
            values: dict[str, Any] = {k: bool(v) for k, v in choices.items()
                                      if k in (*KINDS, "digest") and v is not None}
            if values.get("digest") and not row.digest:
                values["last_digest_at"] = now  # the first digest comes a period from now
            token = None
            if "email" in choices:
                email = (choices["email"] or "").strip() or None
                if email is not None and (len(email) > 254 or not _EMAIL.fullmatch(email)):
                    raise bad(f"{email[:60]!r} is not an e-mail address", "bad_email",
                              field="email")
                if email != row.email:
                    token = secrets.token_urlsafe(24) if email else None
                    values.update(email=email, verified=False,
                                  verify_hash=_hash(token) if token else None,
                                  verify_expires=now + _VERIFY_SECONDS if token else None)
            if values:
                conn.execute(update(m.mail_prefs).where(m.mail_prefs.c.user_id == user_id)
                             .values(**values))
            if token is not None:
                link = f"{self.settings.public_url}/mail/verify?token={quote(token)}"
                self._put(conn, user_id, "verify", "Confirm your e-mail address for realpolitik",
                          f"Hello {username},\n\nto get notices of your games of Diplomacy "
                          f"at this address, open this link within two days:\n\n{link}\n\n"
                          "If you did not ask for this, ignore this mail: nothing more will "
                          "be sent to you.\n", in_digest=False)
            return self._view(self._row(conn, user_id))

    def verify(self, token: str) -> str | None:
        """Mark the address whose link this is as verified; the address, or None if the link
        is unknown or too old."""
        with self.store.write() as conn:
            row = conn.execute(select(m.mail_prefs).where(
                m.mail_prefs.c.verify_hash == _hash(token))).first()
            if row is None or row.verify_expires is None or row.verify_expires < self.clock():
                return None
            conn.execute(update(m.mail_prefs).where(m.mail_prefs.c.user_id == row.user_id)
                         .values(verified=True, verify_hash=None, verify_expires=None))
            return str(row.email)

    def unsubscribe(self, key: str, kind: str) -> str | None:
        """Turn off one kind of mail (``all``: every kind) for the user of an unsubscribe link;
        their address, or None if the link is unknown."""
        if kind not in (*KINDS, "all"):
            raise not_found("kind of mail")
        off = dict.fromkeys(KINDS, False) if kind == "all" else {kind: False}
        with self.store.write() as conn:
            row = conn.execute(select(m.mail_prefs).where(
                m.mail_prefs.c.unsubscribe_key == key)).first()
            if row is None:
                return None
            conn.execute(update(m.mail_prefs).where(m.mail_prefs.c.user_id == row.user_id)
                         .values(**off))
            # what was waiting to be sent of that kind is not sent either
            kinds = KINDS if kind == "all" else (kind,)
            conn.execute(delete(m.mail_outbox).where(and_(
                m.mail_outbox.c.user_id == row.user_id, m.mail_outbox.c.sent_at.is_(None),
                m.mail_outbox.c.kind.in_(kinds))))
            return str(row.email or "")

    # -- what happens in the games ---------------------------------------------------------------

    def _put(self, conn: Connection, user_id: int, kind: str, subject: str, body: str, *,
             in_digest: bool) -> None:
        conn.execute(insert(m.mail_outbox).values(
            user_id=user_id, kind=kind, subject=subject, body=body, in_digest=in_digest,
            created_at=self.clock(), sent_at=None, attempts=0, error=None))

    def queue(self, user_ids: Iterable[int], kind: str, subject: str, body: str) -> int:
        """Put a notice of ``kind`` in the outbox of each user who wants it and has a verified
        address (in their digest if they chose one; a reminder never waits); how many."""
        if not self.enabled:
            return 0
        ids = sorted(set(user_ids))
        if not ids:
            return 0
        count = 0
        with self.store.write() as conn:
            rows = conn.execute(select(m.mail_prefs).where(m.mail_prefs.c.user_id.in_(ids)))
            for row in rows.all():
                if not row.email or not row.verified or not getattr(row, kind):
                    continue
                self._put(conn, int(row.user_id), kind, subject, body,
                          in_digest=bool(row.digest) and kind != "reminder")
                count += 1
        return count

    def _game_link(self, game_id: int) -> str:
        return f"{self.settings.public_url}/#/game/{game_id}"

    def phase_played(self, game_id: int, game_name: str, user_ids: Iterable[int],
                     played: str, now: str) -> int:
        """Tell the players that ``played`` was adjudicated and the game is at ``now``."""
        return self.queue(user_ids, "phase", f"{game_name}: {played} played, now {now}",
                          f"{played} of {game_name} has been adjudicated; the game is now at "
                          f"{now}.\n\nThe results and your orders: {self._game_link(game_id)}\n")

    def press_sent(self, game_id: int, game_name: str, user_ids: Iterable[int], sender: str,
                   public: bool, body: str) -> int:
        """Tell the players who may read a message that it arrived (its beginning only)."""
        preview = body if len(body) <= _PREVIEW_CHARS else body[:_PREVIEW_CHARS] + " [...]"
        what = "an announcement" if public else "a message"
        return self.queue(user_ids, "press", f"{game_name}: {what} from {sender}",
                          f"{sender} sent {what} in {game_name}:\n\n{preview}\n\n"
                          f"Read and answer: {self._game_link(game_id)}\n")

    def remind(self, service: GameService) -> int:
        """Remind each player whose orders are not in of a deadline less than
        ``reminder_hours`` away, once per game and phase; how many reminders."""
        if not self.enabled:
            return 0
        now = self.clock()
        soon = now + self.settings.reminder_hours * 3600
        with self.store.read() as conn:
            games = conn.execute(select(m.games.c.id, m.games.c.name, m.games.c.phase,
                                        m.games.c.variant, m.games.c.deadline).where(and_(
                m.games.c.status == "active", m.games.c.deadline.is_not(None),
                m.games.c.deadline > now, m.games.c.deadline <= soon))).all()
        count = 0
        for game in games:
            for user_id, powers in service.owing_orders(int(game.id)).items():
                with self.store.write() as conn:
                    mark = {"user_id": user_id, "game_id": int(game.id), "phase": game.phase,
                            "kind": "reminder"}
                    if conn.execute(select(m.mail_marks).filter_by(**mark)).first():
                        continue
                    conn.execute(insert(m.mail_marks).values(**mark))
                hours = max(0.0, (game.deadline - now) / 3600)
                left = f"{hours:.0f} hours" if hours >= 1.5 else f"{hours * 60:.0f} minutes"
                names = ", ".join(p.title() for p in powers)
                phase = service.phase_name(str(game.variant), str(game.phase))
                count += self.queue([user_id], "reminder",
                                    f"{game.name}: orders due in {left}",
                                    f"The deadline of {game.name} ({phase}) is in {left}, "
                                    f"and there are no orders yet for {names}.\n\nGive them "
                                    f"here: {self._game_link(int(game.id))}\n")
        return count

    # -- sending -------------------------------------------------------------------------------

    def _message(self, to: str, subject: str, body: str, key: str, kind: str) -> EmailMessage:
        unsubscribe = (f"{self.settings.public_url}/mail/unsubscribe?key={quote(key)}"
                       f"&kind={kind}")
        message = EmailMessage(policy=_MAIL_POLICY)
        message["From"] = self.settings.mail_from
        message["To"] = to
        message["Subject"] = subject
        # RFC 5322 wants both; a mail without them looks like spam to many filters
        message["Date"] = formatdate(self.clock(), usegmt=True)
        sender_domain = parseaddr(self.settings.mail_from)[1].rpartition("@")[2]
        message["Message-ID"] = make_msgid("realpolitik", domain=sender_domain or "localhost")
        if kind != "verify":
            message["List-Unsubscribe"] = f"<{unsubscribe}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
            body += (f"\n--\nNo more mail like this: {unsubscribe}\n"
                     f"Your choices: {self.settings.public_url}/#/ (Notifications)\n")
        message.set_content(body)
        return message

    def _due(self, conn: Connection, now: float) -> list[tuple[list[Any], EmailMessage]]:
        """The mails to send now, each with the outbox rows it sends."""
        rows = conn.execute(
            select(m.mail_outbox, m.mail_prefs.c.email, m.mail_prefs.c.verified,
                   m.mail_prefs.c.unsubscribe_key, m.mail_prefs.c.last_digest_at)
            .join(m.mail_prefs, m.mail_prefs.c.user_id == m.mail_outbox.c.user_id)
            .where(and_(m.mail_outbox.c.sent_at.is_(None),
                        m.mail_outbox.c.attempts < _MAX_ATTEMPTS))
            .order_by(m.mail_outbox.c.id)).all()
        out: list[tuple[list[Any], EmailMessage]] = []
        digests: dict[int, list[Any]] = {}
        for row in rows:
            if not row.email or (row.kind != "verify" and not row.verified):
                continue
            if row.in_digest:
                digests.setdefault(int(row.user_id), []).append(row)
                continue
            out.append(([row], self._message(row.email, row.subject, row.body,
                                             row.unsubscribe_key, row.kind)))
        period = self.settings.digest_hours * 3600
        for items in digests.values():
            first = items[0]
            if first.last_digest_at is not None and now - first.last_digest_at < period:
                continue
            body = "\n\n".join(f"* {r.subject}\n\n{r.body}" for r in items)
            out.append((items, self._message(
                first.email, f"realpolitik: {len(items)} notices since your last digest",
                body, first.unsubscribe_key, "all")))
        return out

    def deliver(self) -> int:
        """Send what is due through the SMTP server; how many mails were sent. A failure is
        noted on the rows and tried again at the next tick (five times at most)."""
        if not self.enabled:
            return 0
        now = self.clock()
        with self.store.read() as conn:
            due = self._due(conn, now)
        if not due:
            return 0
        sent = 0
        s = self.settings
        try:
            smtp = _connect(s, _SMTP_TIMEOUT)
        except OSError as exc:  # smtplib's errors are OSErrors too (a refused log-in...)
            log.warning("cannot send through the SMTP server %s:%s: %s", s.smtp_host,
                        s.smtp_port, exc)
            self._failed([r for rows, _ in due for r in rows], str(exc))
            return 0
        with smtp:
            for rows, message in due:
                ids = [r.id for r in rows]
                # claimed before it is sent: another worker's task never sends it too
                try:
                    with self.store.write() as conn:
                        claimed = conn.execute(update(m.mail_outbox).where(and_(
                            m.mail_outbox.c.id.in_(ids), m.mail_outbox.c.sent_at.is_(None)))
                            .values(sent_at=now)).rowcount
                        if claimed != len(ids):
                            raise _Taken  # (rolled back)
                        if rows[0].in_digest:
                            conn.execute(update(m.mail_prefs)
                                         .where(m.mail_prefs.c.user_id == rows[0].user_id)
                                         .values(last_digest_at=now))
                except _Taken:
                    continue
                try:
                    smtp.send_message(message)
                except OSError as exc:  # refused (smtplib's errors are OSErrors), or cut off
                    log.warning("mail to %s not sent: %s", message["To"], exc)
                    self._failed(rows, str(exc))
                    continue
                sent += 1
        return sent

    def _failed(self, rows: list[Any], error: str) -> None:
        """Put the rows back in the outbox, one attempt more."""
        with self.store.write() as conn:
            conn.execute(update(m.mail_outbox)
                         .where(m.mail_outbox.c.id.in_([r.id for r in rows]))
                         .values(attempts=m.mail_outbox.c.attempts + 1, error=error[:500],
                                 sent_at=None))
