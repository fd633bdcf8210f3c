"""Orders: submit (text or structured), read your own, ready flags, legal orders."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from realpolitik.server.deps import CurrentUser, ServiceDep
from realpolitik.server.inputs import GameId, StrictJSONRoute, counter
from realpolitik.server.privacy import orders_revision
from realpolitik.server.routes.answers import json_answer
from realpolitik.server.schemas import (
    BuildsUsedOut,
    MyPowerOrders,
    OrderOut,
    OrdersIn,
    OrdersOut,
    ReadyIn,
    ReadyOut,
    TurnOut,
    count_lines,
    line_to_wire,
    order_to_wire,
)

router = APIRouter(prefix="/games/{game_id}", tags=["orders"], route_class=StrictJSONRoute)


@router.put("/orders", response_model=OrdersOut)
async def submit_orders(game_id: GameId, body: OrdersIn, user: CurrentUser,
                        service: ServiceDep) -> OrdersOut:
    """Give one of your powers' orders for this phase, replacing earlier ones. Every line comes
    back with the order it was read as, or the error with its fields; bad lines are kept but
    not carried out. Secret until the phase is adjudicated."""
    text = body.as_text()
    phase, lines, ready, warnings, used = await service.call(
        service.submit_orders, user, game_id, body.power, text, body.ready, body.phase,
        body.revision)
    writer = service.writer_of(game_id)
    wire = [line_to_wire(line, writer) for line in lines]
    power = body.power.strip().lower()
    accepted, errors = count_lines(wire)
    return OrdersOut(phase=phase, power=power, ready=ready, lines=wire,
                     accepted=accepted, errors=errors,
                     warnings=warnings, builds_used=[BuildsUsedOut(**u) for u in used],
                     revision=orders_revision(phase, text))


@router.get("/orders", response_model=dict[str, MyPowerOrders])
async def my_orders(game_id: GameId, user: CurrentUser,
                    service: ServiceDep) -> dict[str, MyPowerOrders]:
    """Your own orders for this phase, per power (no one else's)."""
    mine = await service.call(service.orders, user, game_id)
    writer = service.writer_of(game_id)
    return {
        power: MyPowerOrders(text=data["text"], revision=data["revision"],
                             submitted=data["submitted"],
                             ready=data["ready"],
                             lines=[line_to_wire(line, writer) for line in data["lines"]],
                             warnings=data["warnings"],
                             builds_used=[BuildsUsedOut(**u) for u in data["builds_used"]])
        for power, data in mine.items()
    }


@router.post("/ready", response_model=ReadyOut)
async def set_ready(game_id: GameId, body: ReadyIn, user: CurrentUser,
                    service: ServiceDep) -> ReadyOut:
    """Mark your powers (or one) ready; when every power that must order is ready, the phase is
    adjudicated at once (IV.1). A ready power with no orders holds."""
    powers, warnings = await service.call(service.set_ready, user, game_id, body.power,
                                          body.ready, body.phase, body.revisions)
    return ReadyOut(powers=powers, ready=body.ready, warnings=warnings)


@router.get("/legal-orders", response_model=dict[str, list[OrderOut]])
async def legal_orders(game_id: GameId, user: CurrentUser, service: ServiceDep,
                       power: Annotated[str, Query(max_length=40)]) -> dict[str, list[OrderOut]]:
    """Every legal order of one of your powers this phase, per unit location (or free home
    centre, or ``waive``)."""
    legal = await service.call(service.legal_orders, user, game_id, power)
    writer = service.writer_of(game_id)
    return {loc: [order_to_wire(o, writer) for o in orders] for loc, orders in legal.items()}


@router.get("/turn", response_model=TurnOut)
async def turn(game_id: GameId, user: CurrentUser, service: ServiceDep,
               power: Annotated[str | None, Query(max_length=40)] = None,
               since: Annotated[int | None, counter("the first played phase to return")]
               = None,
               press_after: Annotated[int, counter("the press after this message id")] = 0,
               ) -> Response:
    """One call per phase for a program that plays: the game (as ``GET /games/{id}``), whether
    your power (``power``, needed only if you command several) must order, its builds or
    removals, its legal orders, the orders it gave so far, the phases played from ``since``
    (by default the last one) and the press after message ``press_after`` (a page of 100, as
    ``GET .../press``). Answer with
    ``PUT .../orders`` and ``"ready": true``."""
    def answer() -> dict[str, Any]:
        found = service.turn(user, game_id, power, since, press_after)
        writer = service.writer_of(game_id)
        found["legal_orders"] = {loc: [order_to_wire(o, writer) for o in orders]
                                 for loc, orders in found["legal_orders"].items()}
        return found

    # a long answer (the game, its legal orders, a page of press): written on the service's
    # thread, not the event loop
    return await json_answer(service, answer, model=TurnOut)
