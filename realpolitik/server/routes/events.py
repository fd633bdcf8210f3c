"""Live updates over a WebSocket: phase results, press, ready flags, deadlines, joins, ends.

Connect to ``/games/{id}/ws?token=<bearer token>`` (browsers cannot set headers on a WebSocket);
without a token you watch an open game as a spectator and get only public events. Every event is
a JSON object with a ``type``: ``hello``, ``phase``, ``press``, ``ready``, ``deadline``,
``joined``, ``left``, ``replaced``, ``draw_votes``, ``end``. Send ``"ping"`` to get
``{"type": "pong"}``.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from realpolitik.server.service import GameService, ServiceError

router = APIRouter(tags=["events"])


@router.websocket("/games/{game_id}/ws")
async def events(websocket: WebSocket, game_id: int, token: str | None = None) -> None:
    service: GameService = websocket.app.state.service
    user = await run_in_threadpool(service.accounts.authenticate, token) if token else None
    if token and user is None:
        await websocket.close(code=4401, reason="bad token")
        return
    try:
        await run_in_threadpool(service.can_watch, user, game_id)
    except ServiceError as exc:
        await websocket.close(code=4403 if exc.status == 403 else 4404, reason=exc.message)
        return
    await websocket.accept()
    subscriber = service.hub.subscribe(game_id, user.id if user else None)

    async def pump() -> None:
        while True:
            event = await subscriber.queue.get()
            if event is None:  # fell too far behind
                await websocket.close(code=4408, reason="too slow; reconnect")
                return
            await websocket.send_json(event)

    await websocket.send_json({"type": "hello", "game": game_id,
                               "user": user.username if user else None})
    sender = asyncio.create_task(pump())
    try:
        while True:
            message = await websocket.receive_text()
            if message == "ping":
                await websocket.send_json({"type": "pong"})
    except WebSocketDisconnect:
        pass
    finally:
        service.hub.unsubscribe(subscriber)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
