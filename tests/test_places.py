"""The integer numbering of places (realpolitik.places) agrees with the map's names."""

from __future__ import annotations

import pytest

from realpolitik.geography import UnitType, province_of
from realpolitik.places import places_of
from realpolitik.variant import load_variant


@pytest.mark.parametrize("variant_id", ["classical", "colonial_winters"])
def test_numbering_round_trips_and_masks_match_the_map(variant_id: str) -> None:
    variant = load_variant(variant_id)
    places = places_of(variant)
    the_map = variant.map
    assert places is places_of(variant)  # one per variant
    assert [places.provinces[places.province_id[p]] for p in the_map.provinces] \
        == list(the_map.provinces)
    for loc, lid in places.location_id.items():
        assert places.locations[lid] == loc
        assert places.provinces[places.province_of_location[lid]] == province_of(loc)
        fleet = set(places.province_names(places.unit_mask(UnitType.FLEET, lid)))
        assert fleet == {province_of(n) for n in the_map.fleet_neighbours(loc)}
    for prov, pid in places.province_id.items():
        assert places.locations[places.location_of_province[pid]] == prov
        army = places.province_names(places.army_mask[pid])
        assert set(army) == set(the_map.army_neighbours(prov))
        assert army == sorted(army, key=places.province_id.__getitem__)
    assert places.powers == variant.power_ids


@pytest.mark.parametrize("variant_id", ["classical", "colonial_winters"])
def test_occupancy_says_where_each_unit_stands_and_nothing_else(variant_id: str) -> None:
    """The integer view of a position's units names exactly its units, phase after phase."""
    import random

    from realpolitik.game import Game
    from realpolitik.places import occupancy_of

    game = Game(variant_id, seed=1)
    places = places_of(game.variant)
    rng = random.Random(1)
    checked = 0
    while not game.is_over and checked < 12:
        position = game.position
        occupancy = occupancy_of(position)
        assert occupancy is occupancy_of(position)  # one per position
        seen = set()
        for pid, lid in enumerate(occupancy.location):
            bit = 1 << pid
            if lid < 0:
                assert occupancy.power[pid] == -1 and not occupancy.occupied & bit
                continue
            unit = position.units[places.provinces[pid]]
            assert places.locations[lid] == unit.location
            assert places.province_of_location[lid] == pid
            power = occupancy.power[pid]
            assert (places.powers[power] if power < len(places.powers) else "neutral") \
                == unit.power
            is_fleet = unit.type is UnitType.FLEET
            assert bool(occupancy.fleets & bit) == is_fleet != bool(occupancy.armies & bit)
            seen.add(unit.province)
        assert seen == set(position.units)
        for power in game.powers_to_order():
            game.submit(power, [rng.choice(options)
                                for options in game.legal_orders(power).values()])
        game.process()
        checked += 1
    assert checked == 12
