"""Live updates: a hub that fans events out to the WebSocket connections watching a game.

The service publishes from any thread (route handlers run in a thread pool, the deadline task in
the event loop); each subscriber gets the event on its own loop through a queue. An event meant
for some users only (private press) names them, and no one else receives it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

Event = dict[str, Any]

_MAX_QUEUED = 1000
"""A connection that falls this far behind is dropped (it reconnects and reloads)."""


@dataclass(eq=False)
class Subscriber:
    """One WebSocket connection: who it is, and the queue its events arrive on."""

    game_id: int
    user_id: int | None
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[Event | None] = field(default_factory=asyncio.Queue)


class Hub:
    """Who is watching which game, and the way to tell them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[int, list[Subscriber]] = {}

    def subscribe(self, game_id: int, user_id: int | None) -> Subscriber:
        """Start watching ``game_id``; call from the connection's event loop."""
        subscriber = Subscriber(game_id, user_id, asyncio.get_running_loop())
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
                item: Event | None = None
            else:
                item = event
            try:
                subscriber.loop.call_soon_threadsafe(subscriber.queue.put_nowait, item)
            except RuntimeError:  # the connection's loop has closed
                self.unsubscribe(subscriber)

    def watching(self, game_id: int) -> int:
        """How many connections watch ``game_id``."""
        with self._lock:
            return len(self._subscribers.get(game_id, []))
