"""Live updates: a hub that fans events out to the WebSocket connections watching a game.

The service publishes from any thread (route handlers run in a thread pool, the deadline task in
the event loop); each subscriber gets the event on its own loop through a queue. An event meant
for some users only (private press) names them, and no one else receives it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

Event = dict[str, Any]


@dataclass(frozen=True)
class Close:
    """Put on a subscriber's queue to end its connection with a WebSocket close code."""

    code: int
    reason: str

class SocketCount:
    """Live connections per client address, at most ``limit`` each. An address's entry is
    there while it has a connection open (so the table never outgrows the open sockets). Used
    from the event loop only."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}

    @contextmanager
    def held(self, address: str) -> Iterator[bool]:
        """Hold one place for ``address`` while the block runs; yields False (and holds
        nothing) when it has :attr:`limit` already."""
        count = self._open.get(address, 0)
        if count >= self.limit:
            yield False
            return
        self._open[address] = count + 1
        try:
            yield True
        finally:
            left = self._open[address] - 1
            if left:
                self._open[address] = left
            else:
                del self._open[address]

    def __len__(self) -> int:
        return len(self._open)


_MAX_QUEUED = 1000
"""A connection that falls this far behind is dropped (it reconnects and reloads)."""


@dataclass(eq=False)
class Subscriber:
    """One WebSocket connection: who it is, and the queue its events arrive on."""

    game_id: int
    user_id: int | None
    loop: asyncio.AbstractEventLoop
    token_hash: str | None = None
    """The log-in the connection was opened with (its ticket's token)."""
    queue: asyncio.Queue[Event | Close | None] = field(default_factory=asyncio.Queue)


class Hub:
    """Who is watching which game, and the way to tell them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[int, list[Subscriber]] = {}

    def subscribe(self, game_id: int, user_id: int | None,
                  token_hash: str | None = None) -> Subscriber:
        """Start watching ``game_id``; call from the connection's event loop."""
        subscriber = Subscriber(game_id, user_id, asyncio.get_running_loop(), token_hash)
        with self._lock:
            self._subscribers.setdefault(game_id, []).append(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Stop sending to ``subscriber``."""
        with self._lock:
            subs = self._subscribers.get(subscriber.game_id, [])
            if subscriber in subs:
                subs.remove(subscriber)
            if not subs:
                self._subscribers.pop(subscriber.game_id, None)

    def publish(self, game_id: int, event: Event, users: Collection[int] | None = None) -> None:
        """Send ``event`` to everyone watching ``game_id``, or only to ``users``."""
        with self._lock:
            targets = [s for s in self._subscribers.get(game_id, [])
                       if users is None or s.user_id in users]
        for subscriber in targets:
            if subscriber.queue.qsize() >= _MAX_QUEUED:
                self._send(subscriber, None)
            else:
                self._send(subscriber, event)

    def _send(self, subscriber: Subscriber, item: Event | Close | None) -> None:
        try:
            subscriber.loop.call_soon_threadsafe(subscriber.queue.put_nowait, item)
        except RuntimeError:  # the connection's loop has closed
            self.unsubscribe(subscriber)

    def disconnect(self, game_id: int, user_id: int, code: int, reason: str) -> None:
        """Close ``user_id``'s connections to ``game_id`` (their access changed)."""
        with self._lock:
            targets = [s for s in self._subscribers.get(game_id, []) if s.user_id == user_id]
        for subscriber in targets:
            self._send(subscriber, Close(code, reason))

    def disconnect_token(self, token_hash: str, code: int, reason: str) -> None:
        """Close every connection opened with the log-in ``token_hash`` (it was logged out)."""
        with self._lock:
            targets = [s for subs in self._subscribers.values() for s in subs
                       if s.token_hash == token_hash]
        for subscriber in targets:
            self._send(subscriber, Close(code, reason))

    def watching(self, game_id: int) -> int:
        """How many connections watch ``game_id``."""
        with self._lock:
            return len(self._subscribers.get(game_id, []))
