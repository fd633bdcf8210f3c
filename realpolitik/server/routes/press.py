"""Press: private messages between powers and public announcements."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from realpolitik.server.deps import CurrentUser, MaybeUser, ServiceDep
from realpolitik.server.inputs import GameId, StrictJSONRoute, counter
from realpolitik.server.routes.answers import json_answer
from realpolitik.server.schemas import PressMessageIn, PressMessageOut
from realpolitik.server.service import GameService

router = APIRouter(prefix="/games/{game_id}/press", tags=["press"], route_class=StrictJSONRoute)


@router.post("", response_model=PressMessageOut, status_code=201)
async def send(game_id: GameId, body: PressMessageIn, user: CurrentUser,
               service: ServiceDep) -> dict[str, Any]:
    """Send a message to ``to`` (powers), or a public announcement without ``to``. Open during
    diplomacy periods; closed in retreats and adjustments unless the game allows it."""
    return await service.call(service.send_press, user, game_id, body.sender, body.to, body.body)


@router.get("", response_model=list[PressMessageOut])
async def read(game_id: GameId, service: ServiceDep, user: MaybeUser,
               after: Annotated[int, counter("return the messages after this id")] = 0,
               limit: Annotated[int, Query(ge=1, le=GameService.PRESS_PAGE_MAX,
                                           description="the most messages to return")]
               = GameService.PRESS_PAGE,
               ) -> Response:
    """The messages you may read (public ones, and those to or from your powers), after id
    ``after``, oldest first, at most ``limit`` (100 by default, 500 at most): read the next
    page with ``after`` set to the last message's id, until a page comes back short."""
    return await json_answer(service, service.press, user, game_id, after, limit)
