"""Games: create, list, view, join, leave, history, record, map, draws and concessions."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response

from realpolitik.server.deps import ClientAddress, CurrentUser, MaybeUser, ServiceDep
from realpolitik.server.inputs import GameId, StrictJSONRoute, counter
from realpolitik.server.routes.answers import json_answer
from realpolitik.server.schemas import (
    ConcedeIn,
    ConcedeOut,
    DrawIn,
    DrawOut,
    GameCreate,
    GameCreated,
    GameOut,
    GameSummary,
    JoinIn,
    JoinOut,
    Ok,
)

router = APIRouter(prefix="/games", tags=["games"], route_class=StrictJSONRoute)


@router.post("", response_model=GameCreated, status_code=201)
async def create_game(body: GameCreate, user: CurrentUser, service: ServiceDep,
                      client: ClientAddress) -> GameCreated:
    """Create a game; you are its gamesmaster (``join_as`` also takes a power). It starts when
    every seat is taken, or when the gamesmaster starts it. New games per client address are
    limited (429)."""
    service.accounts.throttle.hit("new_game", client)
    return GameCreated(id=await service.call(service.create_game, user, body.to_options()))


@router.get("", response_model=list[GameSummary])
async def list_games(service: ServiceDep, user: MaybeUser,
                     scope: Literal["open", "mine"] = "open",
                     offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
                     limit: Annotated[int, Query(ge=1, le=500)] = 500) -> Response:
    """Open games (public and not finished; those with the most players first, then the
    newest), or ``scope=mine``: the games you play or run (the newest first). At most
    ``limit`` (500) from ``offset``: the next page starts at ``offset + limit``."""
    return await json_answer(service, service.list_games, user, mine=scope == "mine",
                             offset=offset, limit=limit, model=list[GameSummary])


@router.get("/{game_id}", response_model=GameOut)
async def get_game(game_id: GameId, service: ServiceDep, user: MaybeUser,
                   invite: Annotated[str | None, Query(max_length=40)] = None) -> dict[str, Any]:
    """The game's public state: phase, deadline, seats, position, centres, who is ready, draw
    vote count, end. Private games need membership or ``invite``."""
    return await service.call(service.game_view, game_id, user, invite)


@router.post("/{game_id}/join", response_model=JoinOut)
async def join(game_id: GameId, body: JoinIn, user: CurrentUser,
               service: ServiceDep) -> dict[str, Any]:
    """Take the seat commanding ``power`` (with the powers that share it in 2-4 player games)."""
    return await service.call(service.join, user, game_id, body.power, body.invite_code)


@router.post("/{game_id}/leave", response_model=Ok)
async def leave(game_id: GameId, user: CurrentUser, service: ServiceDep) -> Ok:
    """Give up your seat; your powers fall into civil disorder until someone takes it."""
    await service.call(service.leave, user, game_id)
    return Ok()


@router.get("/{game_id}/history", response_model=list[dict[str, Any]])
async def history(game_id: GameId, service: ServiceDep, user: MaybeUser,
                  since: Annotated[int, counter("the first phase (0-based seq) to return")] = 0,
                  ) -> Response:
    """Every played phase from ``since`` (0-based ``seq``): position, all orders as written and
    read, the results with their reasons, civil disorder and events. Public once played."""
    return await json_answer(service, service.history, user, game_id, since)


@router.get("/{game_id}/record", response_class=Response,
            responses={200: {"content": {"application/json": {}}}})
async def record(game_id: GameId, service: ServiceDep, user: MaybeUser) -> Response:
    """The full game record (the ``realpolitik-game`` JSON the CLI reads), once the game is
    over."""
    text = await service.call(service.record, user, game_id)
    return Response(text, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="game-{game_id}.json"'})


@router.get("/{game_id}/map.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}})
async def map_svg(game_id: GameId, service: ServiceDep, user: MaybeUser,
                  seq: Annotated[int | None, counter("a played phase (0-based)")] = None,
                  mine: bool = False) -> Response:
    """The map of the current phase (``mine=true``: with your own orders of this phase drawn),
    or of played phase ``seq`` with every order and its result."""
    svg = await service.call(service.map_svg, user, game_id, seq, mine)
    return Response(svg, media_type="image/svg+xml")


@router.post("/{game_id}/draw", response_model=DrawOut)
async def vote_draw(game_id: GameId, body: DrawIn, user: CurrentUser,
                    service: ServiceDep) -> dict[str, Any]:
    """Vote for (or against) a draw among the powers still in the game. Votes are secret; the
    count is public; the game ends in a draw when every survivor votes for it."""
    return await service.call(service.vote_draw, user, game_id, body.in_favour, body.power)


@router.post("/{game_id}/concede", response_model=ConcedeOut)
async def concede(game_id: GameId, body: ConcedeIn, user: CurrentUser,
                  service: ServiceDep) -> dict[str, Any]:
    """Concede the game to a power (null withdraws); it ends when all the other surviving
    players concede to the same power."""
    return await service.call(service.concede, user, game_id, body.to)
