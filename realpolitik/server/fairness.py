"""Taking turns: the service's threads are let to clients in turn, not in order of arrival.

The routes' service calls run on a few threads (:attr:`GameService.DATABASE_THREADS`). First
come, first served, one client sending many requests at once (ten readers of a long press
list, order submissions for random game ids four at a time) queued them ahead of everyone
else's, and every other user waited behind all of them. :class:`FairGate` keeps a queue per
client and lets the clients in one at a time in turn (round robin), so a client with many
requests waiting waits mostly behind its own. A client is its bearer token when the request
has one, else its address (:func:`client_of`); the queues exist only while requests wait.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Hashable, Mapping
from contextlib import asynccontextmanager
from typing import Any

current_client: contextvars.ContextVar[Hashable] = contextvars.ContextVar(
    "realpolitik_client", default=None)
"""The client of the request being answered (set by the application for each request)."""


def client_of(scope: Mapping[str, Any]) -> Hashable:
    """Who sends an ASGI request, for taking turns: its bearer token (each log-in its own
    turn, whatever the address: many players share one behind a proxy or a school's network),
    else its address."""
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            return ("token", bytes(value))
    client = scope.get("client")
    return ("address", client[0] if client else None)


class FairGate:
    """At most ``slots`` holders at once; those waiting are let in one client at a time in
    turn. Only for the event loop it is used on (its waiters are that loop's futures)."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.busy = 0
        self._waiting: OrderedDict[Hashable, deque[asyncio.Future[None]]] = OrderedDict()

    @property
    def waiting(self) -> int:
        """How many wait, all clients together."""
        return sum(len(queue) for queue in self._waiting.values())

    @asynccontextmanager
    async def slot(self, client: Hashable) -> AsyncIterator[None]:
        """Hold one of the slots, waiting for ``client``'s turn if none is free."""
        if self.busy < self.slots and not self._waiting:
            self.busy += 1
        else:
            turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(client, deque()).append(turn)
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():
                    self._release()  # the slot was handed over as the wait was cancelled
                else:
                    self._forget(client, turn)
                raise
        try:
            yield
        finally:
            self._release()

    def _forget(self, client: Hashable, turn: asyncio.Future[None]) -> None:
        queue = self._waiting.get(client)
        if queue is not None and turn in queue:
            queue.remove(turn)
            if not queue:
                del self._waiting[client]

    def _release(self) -> None:
        """Hand the slot to the first waiter of the next client in turn (who goes to the back
        of the line if it has more waiting), or free it."""
        while self._waiting:
            client, queue = next(iter(self._waiting.items()))
            turn = queue.popleft()
            if queue:
                self._waiting.move_to_end(client)
            else:
                del self._waiting[client]
            if not turn.done():
                turn.set_result(None)  # the slot passes to it: ``busy`` stays as it is
                return
        self.busy -= 1


__all__ = ["FairGate", "client_of", "current_client"]
