"""The gamesmaster's actions: start, pause, resume, extend, process now, replace a player, seat
a bot."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from realpolitik.server.deps import CurrentUser, ServiceDep
from realpolitik.server.inputs import GameId, StrictJSONRoute
from realpolitik.server.schemas import BotSeatIn, BotSeatOut, DeadlineOut, ExtendIn, Ok, ReplaceIn
from realpolitik.server.values import iso_time

router = APIRouter(prefix="/games/{game_id}/gm", tags=["gamesmaster"], route_class=StrictJSONRoute)


@router.post("/start", response_model=Ok)
async def start(game_id: GameId, user: CurrentUser, service: ServiceDep) -> Ok:
    """Start a game before every seat is taken (empty seats are in civil disorder)."""
    await service.call(service.start, user, game_id)
    return Ok()


@router.post("/pause", response_model=Ok)
async def pause(game_id: GameId, user: CurrentUser, service: ServiceDep) -> Ok:
    """Stop the clock."""
    await service.call(service.pause, user, game_id)
    return Ok()


@router.post("/resume", response_model=Ok)
async def resume(game_id: GameId, user: CurrentUser, service: ServiceDep) -> Ok:
    """Restart the clock with the time that was left."""
    await service.call(service.resume, user, game_id)
    return Ok()


@router.post("/extend", response_model=DeadlineOut)
async def extend(game_id: GameId, body: ExtendIn, user: CurrentUser,
                 service: ServiceDep) -> DeadlineOut:
    """Move the deadline by ``seconds`` (``"10m"``, ``"1d"``; negative shortens)."""
    deadline = await service.call(service.extend, user, game_id, body.seconds)
    return DeadlineOut(deadline=iso_time(deadline))


@router.post("/process", response_model=Ok)
async def process_now(game_id: GameId, user: CurrentUser, service: ServiceDep) -> Ok:
    """Adjudicate the current phase now; powers without orders are in civil disorder."""
    await service.call(service.process_now, user, game_id)
    return Ok()


@router.post("/replace", response_model=Ok)
async def replace(game_id: GameId, body: ReplaceIn, user: CurrentUser, service: ServiceDep) -> Ok:
    """Give a power's seat to another user, or free it (``username`` absent)."""
    await service.call(service.replace, user, game_id, body.power, body.username)
    return Ok()


@router.post("/bot", response_model=BotSeatOut)
async def seat_bot(game_id: GameId, body: BotSeatIn, user: CurrentUser,
                   service: ServiceDep) -> dict[str, Any]:
    """Seat a bot (``heuristic`` by default, ``random`` or ``hold``) in the free seat that
    commands ``power``. It orders at once and at the start of every phase, and is ready at
    once; ``replace`` gives the seat back to a player or frees it."""
    return await service.call(service.seat_bot, user, game_id, body.power, body.bot)
