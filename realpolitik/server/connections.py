"""What one connection may cost when ``realpolitik serve`` faces the network itself: uvicorn's
own limits (the size of a request's head, the size of a WebSocket message), and a time limit on
reading a request's head, which uvicorn does not have.

uvicorn's default HTTP parser (httptools) reads a request head of any size (one 128 MiB header
grew the server by 215 MB), and neither parser closes a connection that sends its head a byte
at a time: :class:`HeadTimeoutProtocol` is uvicorn's h11 parser, whose head size is bounded
(``h11_max_incomplete_event_size``), with a deadline for each request head.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_HEAD_BYTES = 16 * 1024
"""The largest request line and headers accepted (larger: 400 and the connection closed)."""

HEAD_SECONDS = 10.0
"""How long a client has to send a whole request head, counted from the connection's start or
from the end of the previous answer (a keep-alive connection idle for
:data:`KEEP_ALIVE_SECONDS` is closed before that)."""

KEEP_ALIVE_SECONDS = 5
"""How long an idle keep-alive connection stays open (uvicorn's default, stated)."""

MAX_WEBSOCKET_MESSAGE = 4096
"""The largest WebSocket message a client may send (the server understands only ``ping``);
uvicorn's default is 16 MiB."""


class HeadTimeoutProtocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request head is not complete within
    :attr:`head_seconds` of the connection being ready for it."""

    head_seconds = HEAD_SECONDS
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # a TCP connection's transport (uvloop's is one without deriving from the class)
        super().connection_made(cast(asyncio.Transport, transport))
        self._watch_head()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch_head()

    def _watch_head(self) -> None:
        """Start the clock while a head is awaited (not already running: a head sent in
        pieces has the same deadline for all of them); stop it once one is read."""
        if self.conn.their_state is h11.IDLE:
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(self.head_seconds, self._head_too_slow)
        else:
            self._stop_timer()

    def _stop_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def uvicorn_limits() -> dict[str, Any]:
    """The options of ``uvicorn.run`` that bound what one connection may cost (used by
    ``realpolitik serve``; ``docs/deploy.md`` gives them for the ``uvicorn`` command)."""
    return {
        # by name, so that worker processes import it
        "http": f"{HeadTimeoutProtocol.__module__}:{HeadTimeoutProtocol.__qualname__}",
        "h11_max_incomplete_event_size": MAX_HEAD_BYTES,
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
        "ws_max_size": MAX_WEBSOCKET_MESSAGE,
    }
