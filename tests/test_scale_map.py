"""The big map of ``benchmarks/scale.py``: copies of the classical map, joined, built in memory."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from realpolitik.adjudication import adjudicate
from realpolitik.geography import Terrain, UnitType, province_of
from realpolitik.legality import check_order
from realpolitik.listing import legal_orders
from realpolitik.notation import parse_order
from realpolitik.orders import Order
from realpolitik.position import Position
from realpolitik.rules import rules_for
from realpolitik.variant import Variant, load_variant

RULES = rules_for("2023")


def _load_scale() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "scale.py"
    spec = importlib.util.spec_from_file_location("realpolitik_bench_scale", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being made
    spec.loader.exec_module(module)
    return module


scale = _load_scale()


@pytest.fixture(scope="module")
def big() -> Variant:
    variant: Variant = scale.tiled_variant(4)
    return variant


def test_one_copy_is_the_classical_map_renamed() -> None:
    classical = load_variant("classical").map
    one = scale.tiled_variant(1).map
    assert len(one.provinces) == len(classical.provinces)
    assert len(one.locations) == len(classical.locations)
    for loc in classical.locations:
        renamed = scale._renamed(loc, 0)
        assert one.fleet_neighbours(renamed) == {
            scale._renamed(n, 0) for n in classical.fleet_neighbours(loc)}
        assert one.army_neighbours(renamed) == {
            scale._renamed(n, 0) for n in classical.army_neighbours(loc)}


def test_adjacency_is_symmetric_and_within_terrain(big: Variant) -> None:
    the_map = big.map
    assert len(the_map.provinces) == 4 * 76  # 75 spaces and Switzerland per copy
    for loc in the_map.locations:
        for other in the_map.fleet_neighbours(loc):
            assert loc in the_map.fleet_neighbours(other), (loc, other)
            assert the_map.can_hold(UnitType.FLEET, other) or the_map.coasts(other)
            assert the_map.terrain(other) is not Terrain.LAND
        for other in the_map.army_neighbours(loc):
            assert province_of(loc) in the_map.army_neighbours(other), (loc, other)
            assert the_map.terrain(other) in (Terrain.LAND, Terrain.COAST)


def test_copies_are_joined_by_the_links_only(big: Variant) -> None:
    the_map = big.map
    crossing = set()
    for loc in the_map.locations:
        near = the_map.fleet_neighbours(loc) | the_map.army_neighbours(loc)
        for other in near:
            if scale.copy_of(loc) != scale.copy_of(other):
                assert abs(scale.copy_of(loc) - scale.copy_of(other)) == 1
                crossing.add(frozenset((province_of(loc), province_of(other))))
    assert len(crossing) == 3 * len(scale.LINKS)
    assert frozenset(("bar_2", "nao_3")) in crossing
    # one board: every province reachable from any other
    seen, todo = {"par_0"}, ["par_0"]
    while todo:
        here = todo.pop()
        for loc in (here, *the_map.coasts(here)):
            for other in the_map.fleet_neighbours(loc) | the_map.army_neighbours(loc):
                if province_of(other) not in seen:
                    seen.add(province_of(other))
                    todo.append(province_of(other))
    passable = {p for p, v in the_map.provinces.items() if v.terrain is not Terrain.IMPASSABLE}
    assert seen == passable


def test_starting_position_has_every_copy_s_units(big: Variant) -> None:
    start = Position.initial(big)
    assert len(start.units) == 4 * 22
    assert len(start.units_of("russia")) == 4 * 4
    assert start.units["stp_3"].location == "stp_3/sc"


def test_random_positions_are_legal_and_adjudicate(big: Variant) -> None:
    rng = random.Random(1)
    for units in (25, 60, 100):
        position = scale.random_position(big, units, rng)
        assert len(position.units) == units
        for unit in position.units.values():
            assert big.map.can_hold(unit.type, unit.location)
        orders = scale.random_orders(position, RULES, rng)
        assert len(orders) == units
        assert {o.location for o in orders} == {u.location for u in position.units.values()}
        for order in orders:  # legal when checked afresh, not only because they were listed
            assert check_order(position.replace(), order, rules=RULES) is None, order
        resolution = adjudicate(position, orders, rules=RULES)
        assert len(resolution.results) == len(orders)
        assert [r.order for r in resolution.results] == orders
        # every unit is on the board or dislodged, once
        assert len(resolution.units) + len(resolution.dislodged) == units
        after = Counter(u.power for u in resolution.units.values())
        after.update(d.unit.power for d in resolution.dislodged)
        assert after == Counter(u.power for u in position.units.values())


def test_per_copy_powers_own_their_copy() -> None:
    variant = scale.tiled_variant(3, per_copy_powers=True)
    assert len(variant.powers) == 21
    assert variant.map.province("par_2").home_of == "france_2"
    position = scale.random_position(variant, 60, random.Random(2))
    for unit in position.units.values():
        assert unit.power.endswith(f"_{scale.copy_of(unit.location)}")
    listed = {p: legal_orders(position, p, rules=RULES) for p in variant.power_ids}
    assert sum(len(orders) for orders in listed.values()) == 60


def _in_copy(order: Order, copy: int) -> Order:
    """A classical order given in one copy of the tiled map."""
    changes = {name: scale._renamed(getattr(order, name), copy)
               for name in ("location", "destination", "supported_location", "army_location")
               if getattr(order, name, None) is not None}
    return dataclasses.replace(order, **changes)


def test_each_copy_plays_the_classical_opening_alike(big: Variant) -> None:
    classical = load_variant("classical")
    base = Position.initial(classical)
    texts = ["A Par-Bur", "A Mar S A Par-Bur", "F Bre-Mao", "A Mun-Bur", "A Ven-Tyr",
             "A Vie-Tyr", "F Lon-Nth", "F Edi-Nth", "A War-Gal", "A Bud-Gal", "F Ank-Bla",
             "F Sev-Bla", "F Stp/sc-Bot", "A Con-Bul", "F Kie-Den", "F Tri-Alb"]
    base_orders = [parse_order(text, base) for text in texts]
    base_result = adjudicate(base, base_orders, rules=RULES)
    start = Position.initial(big)
    orders = [_in_copy(order, copy) for copy in range(4) for order in base_orders]
    result = adjudicate(start, orders, rules=RULES)
    assert [r.result for r in result.results] == [r.result for r in base_result.results] * 4
    assert len(result.units) == 4 * len(base_result.units)
    assert {scale._renamed(loc, 2) for loc in base_result.units} == {
        loc for loc in result.units if scale.copy_of(loc) == 2}
