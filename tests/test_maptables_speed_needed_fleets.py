"""The fleets needed on a convoy's minimal routes, searched on masks, against the search by name.

:meth:`MapTables.needed_fleets` walks the routes with no fleet to spare on masks of provinces
(what :meth:`MapTables.convoy_reach`, and so the listing's convoys and spared supports, read);
:meth:`MapTables.minimal_routes` walks them by name (the order check and the bots read it). The
two must name the same fleets for the same destinations: checked on random groups of fleets on
the classical map and on Colonial Winters (where some coastal spaces may convoy), and for the
fleets of some random games' positions, with :meth:`MapTables.convoy_reach`'s pairs against the
routes by name as well.
"""

from __future__ import annotations

import random

import pytest

from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.maptables import MapTables, tables_for
from realpolitik.variant import load_variant


def _needed_by_name(tables: MapTables, origin: str, fleets: frozenset[str],
                    ) -> dict[str, frozenset[str]]:
    """Fleet -> the destinations of the minimal routes (by name) it is on."""
    needed: dict[str, set[str]] = {}
    for chain, ends in tables.minimal_routes(origin, fleets):
        for fleet in chain:
            needed.setdefault(fleet, set()).update(ends)
    return {fleet: frozenset(ends) for fleet, ends in needed.items()}


def _needed_by_mask(tables: MapTables, origin: str, fleets: frozenset[str],
                    ) -> dict[str, frozenset[str]]:
    """:meth:`MapTables.needed_fleets` in names."""
    names = tables.convoy_order
    mask = 0
    for fleet in fleets:
        if fleet in tables.convoy_spaces:
            mask |= 1 << names.index(fleet)
    return {names[index]: frozenset(names[k] for k in range(len(names)) if ends >> k & 1)
            for index, ends in tables.needed_fleets(origin, mask).items()}


def _check(tables: MapTables, origin: str, fleets: frozenset[str]) -> bool:
    """Compare the two searches and :meth:`MapTables.convoy_reach`'s pairs; True if some fleet
    was needed (the case was not trivial)."""
    by_name = _needed_by_name(tables, origin, fleets)
    assert _needed_by_mask(tables, origin, fleets) == by_name
    at_sea = frozenset(f for f in fleets if f in tables.convoy_spaces)
    if origin in tables.shores:
        reach, _, needed = tables.convoy_reach(origin, at_sea)
        assert reach == tables.convoy_reachable(origin, at_sea)
        assert dict(needed) == {fleet: tuple((origin, dest) for dest in sorted(ends))
                                for fleet, ends in by_name.items()}
    return bool(by_name)


@pytest.mark.parametrize("variant_name", ["standard", "colonial_winters"])
@pytest.mark.parametrize("seed", range(3))
def test_needed_fleets_on_masks_equal_the_routes_by_name(variant_name: str, seed: int) -> None:
    tables = tables_for(load_variant(variant_name))
    rng = random.Random(seed)
    spaces, shores = sorted(tables.convoy_spaces), sorted(tables.shores)
    others = sorted(set(tables.provinces) - tables.convoy_spaces)
    found = 0
    for _ in range(150):
        fleets = set(rng.sample(spaces, rng.randrange(min(len(spaces), 14) + 1)))
        fleets |= set(rng.sample(others, rng.randrange(3)))  # not convoy spaces: never stepped on
        origin = rng.choice(shores if rng.random() < 0.9 else list(tables.provinces))
        found += _check(tables, origin, frozenset(fleets))
    assert found > 5


@pytest.mark.parametrize("variant_name", ["standard", "colonial_winters"])
def test_needed_fleets_on_masks_equal_the_routes_by_name_in_games(variant_name: str) -> None:
    game = Game(variant_name, rules="2000", seed=11)
    tables = tables_for(game.variant)
    rng = random.Random(11)
    found = 0
    while not game.is_over and game.phase.year <= 1905:
        units = game.position.units
        fleets = frozenset(p for p, u in units.items() if u.type is UnitType.FLEET)
        for province, unit in units.items():
            if unit.type is UnitType.ARMY and province in tables.shores:
                found += _check(tables, province, fleets)
        for power in game.powers_to_order():
            listed = game.legal_orders(power)
            game.submit(power, [rng.choice(orders) for orders in listed.values() if orders])
        game.process()
    assert found > 0
