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

