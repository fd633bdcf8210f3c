"""Differential check against the ``diplomacy`` package (PyPI), when it is installed.

Random positions and random legal orders without convoys are adjudicated by both engines; the
boards after the phase must agree. Cases where that package departs from the DATC are left out:
a support given to a foreign attack on the supporter's own unit (it counts there; DATC 6.D.14,
6.E.3 say it must not help to dislodge) and a support naming a coast the move does not go to (it
is accepted there; DATC 6.B.9 says it does not match).
"""

from __future__ import annotations

import random

import pytest
from test_adjudication_properties import TABLES, movement_orders, movement_position

from realpolitik.adjudication import adjudicate
from realpolitik.geography import UnitType, province_of
from realpolitik.legality import check_order
from realpolitik.orders import Convoy, Move, Order, SupportMove
from realpolitik.position import Position

diplomacy = pytest.importorskip("diplomacy")


def _orders(rnd: random.Random, position: Position) -> list[Order]:
    seen: set[str] = set()
    out: list[Order] = []
    for order in movement_orders(rnd, position):
        if isinstance(order, Convoy) or order.location in seen:  # type: ignore[union-attr]
            continue
        if check_order(position, order) is not None:
            continue
        if isinstance(order, Move) and order.unit_type is UnitType.ARMY and (
                order.via_convoy or order.destination not in TABLES.army_adj[order.province]):
            continue
        if isinstance(order, SupportMove) and order.supported_type is UnitType.ARMY and (
                province_of(order.destination)
                not in TABLES.army_adj[province_of(order.supported_location)]):
            continue
        seen.add(order.location)  # type: ignore[union-attr]
        out.append(order)
    return out


def _departs_from_datc(position: Position, orders: list[Order]) -> bool:
    moving = {o.province for o in orders if isinstance(o, Move)}
    for o in orders:
        if not isinstance(o, SupportMove):
            continue
        if "/" in o.destination:
            return True
        target = position.units.get(province_of(o.destination))
        supported = position.units[province_of(o.supported_location)]
        if (target is not None and target.power == o.power and supported.power != o.power
                and province_of(o.supported_location) in moving):
            return True
    return False


def _play_diplomacy(position: Position, orders: list[Order]) -> set[tuple[str, str]]:
    game = diplomacy.Game(map_name="standard")
    game.clear_units()
    units: dict[str, list[str]] = {}
    for unit in position.units.values():
        units.setdefault(unit.power.upper(), []).append(str(unit))
    for power, texts in units.items():
        game.set_units(power, texts)
    given: dict[str, list[str]] = {}
    for order in orders:
        assert order.power is not None
        given.setdefault(order.power.upper(), []).append(str(order))
    for power, texts in given.items():
        game.set_orders(power, texts)
    game.process()
    return {(power, unit.lstrip("*")) for power, us in game.get_units().items() for unit in us
            if not unit.startswith("*")}


@pytest.mark.slow
def test_same_boards_as_the_diplomacy_package() -> None:
    compared = 0
    for seed in range(200):
        rnd = random.Random(seed)
        position = movement_position(rnd)
        orders = _orders(rnd, position)
        if _departs_from_datc(position, orders):
            continue
        res = adjudicate(position, orders)
        ours = {(u.power.upper(), str(u)) for u in res.units.values()}
        theirs = _play_diplomacy(position, orders)
        assert ours == theirs, (seed, sorted(ours - theirs), sorted(theirs - ours))
        compared += 1
    assert compared > 80
