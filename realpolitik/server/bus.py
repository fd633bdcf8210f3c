"""Live events across worker processes: PostgreSQL ``LISTEN``/``NOTIFY``.

With several workers, a WebSocket connection lives in one process while the change it must hear
of may happen in another. :class:`SharedHub` is the :class:`~realpolitik.server.events.Hub` of
such a worker: what the service publishes is sent to the database as a notification on one
channel, and every worker (the sender too) listens on a connection of its own and hands each
notification to its local hub, which delivers it to its sockets. Notifications are delivered at
commit, in commit order, to every listening session; a worker whose listening connection drops
reconnects (events sent meanwhile are lost to its sockets, which reload when they reconnect).

The same bus closes the connections of a user who lost access, and of a log-in that ended, in
every worker; and makes every worker forget a token that was logged out.

A notification's payload is limited to 8000 bytes; a longer message (a phase with all its
results) is cut into parts sent in one transaction and put together again on arrival.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from collections.abc import Callable, Collection
from typing import Any

from realpolitik.server.events import Event, Hub

log = logging.getLogger("realpolitik.server")

CHANNEL = "realpolitik_events"
_PART = 7000  # characters of message per notification (the payload limit is 8000 bytes)
_MAX_PARTIAL = 1000  # unfinished messages kept at most (their last parts were lost)

Handler = Callable[..., None]


def libpq_url(sqlalchemy_url: str) -> str:
    """The psycopg connection string of a SQLAlchemy PostgreSQL URL."""
    from sqlalchemy.engine import make_url

    url = make_url(sqlalchemy_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class PgBus:
    """Messages to every worker: ``send(kind, *args)`` here, ``handlers[kind](*args)`` in each
    worker (this one too) on its listening thread. Arguments travel as JSON.

    Sending does not wait for the database: messages go into an outbox that a sending thread
    empties, all that has gathered in one statement (one transaction) per round trip, in the
    order they were sent. Under load this is one notifying transaction for many events instead
    of one each (every notifying commit takes PostgreSQL's notification queue lock in turn)."""

    def __init__(self, url: str, handlers: dict[str, Handler]) -> None:
        self.url = libpq_url(url)
        self.handlers = handlers
        self.sender_id = secrets.token_hex(4)
        self._count = 0
        self._outbox: list[str] = []
        self._outbox_changed = threading.Condition()
        self._send_conn: Any = None
        self._stop = threading.Event()
        self._listening = threading.Event()
        self._thread: threading.Thread | None = None
        self._sender: threading.Thread | None = None
        self._partial: dict[str, list[str | None]] = {}

    # -- sending -----------------------------------------------------------------------------

    def send(self, kind: str, *args: Any) -> None:
        """Queue a message to every worker; it is sent at once by the sending thread (or, if
        the bus is not started, by this call). A failure to send is logged: the events are not
        worth failing the change that is already committed."""
        text = json.dumps([kind, *args], ensure_ascii=False, separators=(",", ":"))
        with self._outbox_changed:
            self._count += 1
            key = f"{self.sender_id}.{self._count}"
            parts = [text[i:i + _PART] for i in range(0, len(text), _PART)] or [""]
            self._outbox.extend(f"{key}:{i}:{len(parts)}:{part}"
                                for i, part in enumerate(parts))
            self._outbox_changed.notify()
        if self._sender is None:
            self._flush()

    def _send_forever(self) -> None:
        while True:
            with self._outbox_changed:
                while not self._outbox and not self._stop.is_set():
                    self._outbox_changed.wait()
                if not self._outbox:  # stopped, and everything is sent
                    return
            self._flush()

    def _flush(self) -> None:
        """Send everything in the outbox in one transaction (the parts of a long message
        arrive together, and in order); try once more on a new connection if that fails."""
        with self._outbox_changed:
            payloads, self._outbox = self._outbox, []
        if not payloads:
            return
        for attempt in (1, 2):
            try:
                self._notify(payloads)
                return
            except Exception:
                self._close_sender()
                if attempt == 2:
                    log.exception("%d live event notifications not sent", len(payloads))

    def _notify(self, payloads: list[str]) -> None:
        import psycopg

        if self._send_conn is None or self._send_conn.closed:
            self._send_conn = psycopg.connect(self.url, autocommit=True)
        # one statement: one transaction; pg_notify runs in the array's order
        self._send_conn.execute("SELECT pg_notify(%s, payload) FROM unnest(%s::text[]) "
                                "AS payload", (CHANNEL, payloads))

    def _close_sender(self) -> None:
        if self._send_conn is not None:
            try:
                self._send_conn.close()
            except Exception:
                log.debug("closing the notification connection failed", exc_info=True)
        self._send_conn = None

    # -- listening ---------------------------------------------------------------------------

    def start(self, timeout: float = 10.0) -> None:
        """Start listening on a thread of its own; returns once listening (or after
        ``timeout`` seconds, the thread still trying)."""
        self._thread = threading.Thread(target=self._listen_forever, name="realpolitik-bus",
                                        daemon=True)
        self._thread.start()
        self._sender = threading.Thread(target=self._send_forever,
                                        name="realpolitik-bus-send", daemon=True)
        self._sender.start()
        self._listening.wait(timeout)

    def stop(self) -> None:
        """Send what is still in the outbox, stop listening and close the connections."""
        self._stop.set()
        with self._outbox_changed:
            self._outbox_changed.notify()
        if self._sender is not None:
            self._sender.join(5)
        if self._thread is not None:
            self._thread.join(5)
        self._close_sender()

    def _listen_forever(self) -> None:
        import psycopg

        delay = 0.1
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    delay = 0.1
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self._receive(note.payload)
            except Exception:
                if self._stop.is_set():
                    return
                log.exception("the live-event connection failed; reconnecting")
                self._stop.wait(delay)
                delay = min(delay * 2, 5.0)

    def _receive(self, payload: str) -> None:
        try:
            key, index, count, part = payload.split(":", 3)
            i, n = int(index), int(count)
        except ValueError:
            log.warning("a notification that is not a live event: %.80r", payload)
            return
        if n == 1:
            text = part
        else:
            parts = self._partial.setdefault(key, [None] * n)
            parts[i] = part
            if any(p is None for p in parts):
                if len(self._partial) > _MAX_PARTIAL:
                    self._partial.pop(next(iter(self._partial)))
                return
            del self._partial[key]
            text = "".join(p or "" for p in parts)
        try:
            kind, *args = json.loads(text)
            handler = self.handlers[kind]
        except (ValueError, KeyError, TypeError):
            log.warning("an unreadable live event: %.80r", text)
            return
        try:
            handler(*args)
        except Exception:
            log.exception("handling the live event %s failed", kind)


class SharedHub(Hub):
    """The hub of one worker among several: publishing an event, and closing the connections of
    a user or of a log-in, go through the bus to every worker's local hub (this one's too), so
    each acts on the sockets it holds. ``forget_token`` is called in every worker with the hash
    of a token that was logged out (the workers remember checked tokens)."""

    def __init__(self, forget_token: Callable[[str], None] | None = None) -> None:
        super().__init__()
        self.bus: PgBus | None = None
        self.forget_token = forget_token

    def handlers(self) -> dict[str, Handler]:
        """What the bus calls in this worker, by message kind."""
        return {"publish": self._deliver, "disconnect": self._disconnect_here,
                "disconnect_token": self._disconnect_token_here}

    def publish(self, game_id: int, event: Event, users: Collection[int] | None = None) -> None:
        if self.bus is None:  # not started (yet): only this worker's sockets
            super().publish(game_id, event, users)
            return
        self.bus.send("publish", game_id, event, None if users is None else sorted(users))

    def disconnect(self, game_id: int, user_id: int, code: int, reason: str) -> None:
        if self.bus is None:
            super().disconnect(game_id, user_id, code, reason)
            return
        self.bus.send("disconnect", game_id, user_id, code, reason)

    def disconnect_token(self, token_hash: str, code: int, reason: str) -> None:
        if self.bus is None:
            self._disconnect_token_here(token_hash, code, reason)
            return
        self.bus.send("disconnect_token", token_hash, code, reason)

    def _deliver(self, game_id: int, event: Event, users: list[int] | None) -> None:
        super().publish(game_id, event, users)

    def _disconnect_here(self, game_id: int, user_id: int, code: int, reason: str) -> None:
        super().disconnect(game_id, user_id, code, reason)

    def _disconnect_token_here(self, token_hash: str, code: int, reason: str) -> None:
        if self.forget_token is not None:
            self.forget_token(token_hash)
        super().disconnect_token(token_hash, code, reason)
