"""Live updates over a WebSocket: phase results, press, ready flags, deadlines, joins, ends.

Connect to ``/games/{id}/ws?ticket=<ticket>`` with a ticket from ``POST /auth/ticket``: a
single-use code valid for 30 seconds, so the bearer token itself never goes into a URL (URLs are
written to access logs). Without a ticket you watch an open game as a spectator and get only
public events. Every event is a JSON object with a ``type``: ``hello``, ``phase``, ``press``,
``ready``, ``deadline``, ``joined``, ``left``, ``replaced``, ``draw_votes``, ``end``. Send
``"ping"`` to get ``{"type": "pong"}``.

The connection is always accepted and then, if it may not go on, closed with a code a browser
can read (an HTTP refusal would only show as a failed connection):

======  ==================================================================================
4401    no valid ticket (unknown, used, or its log-in ended), or the user logged out
4403    the user may no longer watch this game (left it, lost the seat, it is private)
4404    no such game (or a private one the user may not see)
4408    the ticket expired before it was used
4429    the client fell too far behind the events; reconnect and reload
1003    a binary frame was sent (only text is understood)
1008    too many live connections from the client's address (``sockets_per_client``)
1009    a message larger than 4 KiB was sent
======  ==================================================================================

While open, the connection checks every ``ws_check_seconds`` that its log-in is still valid
and the game still visible to its user; a log-out or a lost seat closes it at once.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from realpolitik.server.accounts import TicketError
from realpolitik.server.events import Close, Subscriber
from realpolitik.server.inputs import MAX_ID
from realpolitik.server.service import Account, GameService, ServiceError

router = APIRouter(tags=["events"])

UNAUTHENTICATED, FORBIDDEN, NO_GAME, TICKET_EXPIRED, TOO_SLOW = 4401, 4403, 4404, 4408, 4429
TOO_MANY = 1008  # policy violation: more sockets from one address than allowed
UNSUPPORTED_DATA = 1003


def _game_id(text: str) -> int | None:
    if not text.isdigit() or len(text) > 19:
        return None
    value = int(text)
    return value if 1 <= value <= MAX_ID else None


async def _access_refused(service: GameService, user: Account | None, token_hash: str | None,
                          game_id: int, *, watching: bool = False) -> Close | None:
    """Why the connection may not go on (``watching``: no longer), or None."""
    if token_hash is not None:
        current = await run_in_threadpool(service.accounts.authenticate_hash, token_hash)
        if current is None:
            return Close(UNAUTHENTICATED, "your log-in has ended: log in again")
    try:
        await run_in_threadpool(service.can_watch, user, game_id)
    except ServiceError as exc:
        if watching or exc.status == 403:  # it was visible when the connection opened
            return Close(FORBIDDEN, "you may no longer watch this game")
        return Close(NO_GAME, exc.message)
    return None


@router.websocket("/games/{game_id}/ws")
async def events(websocket: WebSocket, game_id: str, ticket: str | None = None,
                 token: str | None = None) -> None:
    service: GameService = websocket.app.state.service
    await websocket.accept()  # then close with a code the client can read
    address = websocket.client.host if websocket.client else "unknown"
    with service.sockets.held(address) as admitted:
        if not admitted:
            await websocket.close(TOO_MANY, "too many live connections from your address "
                                  f"(at most {service.settings.sockets_per_client})")
            return
        await _events(websocket, service, game_id, ticket, token)


async def _events(websocket: WebSocket, service: GameService, game_id: str,
                  ticket: str | None, token: str | None) -> None:
    number = _game_id(game_id)
    if number is None:
        await websocket.close(NO_GAME, f"no game {game_id[:30]!r}")
        return
    if token is not None:
        await websocket.close(UNAUTHENTICATED, "the token never goes in a URL: send a ticket "
                              "from POST /auth/ticket as ?ticket=")
        return
    user: Account | None = None
    token_hash: str | None = None
    if ticket is not None:
        try:
            user, token_hash = await run_in_threadpool(service.accounts.redeem_ticket, ticket)
        except TicketError as exc:
            await websocket.close(exc.code, exc.reason)
            return
    refused = await _access_refused(service, user, token_hash, number)
    if refused is not None:
        await websocket.close(refused.code, refused.reason)
        return
    subscriber = service.hub.subscribe(number, user.id if user else None, token_hash)
    try:
        await websocket.send_json({"type": "hello", "game": number,
                                   "user": user.username if user else None})
        ending = await _serve(websocket, service, subscriber, user, token_hash)
        if ending is not None:
            await websocket.close(ending.code, ending.reason)
    except (WebSocketDisconnect, RuntimeError):
        pass  # the client went away (RuntimeError: sending on a socket that closed meanwhile)
    finally:
        service.hub.unsubscribe(subscriber)


async def _serve(websocket: WebSocket, service: GameService, subscriber: Subscriber,
                 user: Account | None, token_hash: str | None) -> Close | None:
    """Run the connection until one side ends it; the close to send, if ours."""

    async def pump() -> Close | None:
        while True:
            item = await subscriber.queue.get()
            if item is None:
                return Close(TOO_SLOW, "too slow; reconnect")
            if isinstance(item, Close):
                return item
            await websocket.send_json(item)

    async def listen() -> Close | None:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return None
            if message.get("bytes") is not None:
                return Close(UNSUPPORTED_DATA, "binary frames are not understood: send text")
            if message.get("text") == "ping":
                await websocket.send_json({"type": "pong"})

    async def recheck() -> Close | None:
        while True:
            await asyncio.sleep(service.settings.ws_check_seconds)
            refused = await _access_refused(service, user, token_hash, subscriber.game_id,
                                            watching=True)
            if refused is not None:
                return refused

    tasks = [asyncio.create_task(job()) for job in (pump, listen, recheck)]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    for task in done:
        exc = task.exception()
        if exc is not None:
            raise exc
        return task.result()
    return None
