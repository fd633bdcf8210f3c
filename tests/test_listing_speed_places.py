"""What the listing keeps of a unit's place, worked out once for every power."""

from __future__ import annotations

import pytest

from realpolitik import listing
from realpolitik.geography import province_of
from realpolitik.maptables import tables_for
from realpolitik.variant import load_variant


@pytest.mark.parametrize("variant_name", ["classical", "colonial_winters"])
def test_a_places_parts_are_shared_by_the_powers_and_are_the_map_tables(
        variant_name: str) -> None:
    """Two powers' units at one place read the same parts of it, and those are what the map
    tables say: the moves and reach (sorted), the reach's ids, its own moves' support keys in
    step with the reach, and its own moves' keys."""
    variant = load_variant(variant_name)
    tables = tables_for(variant)
    numbered = listing._unit_places(variant)
    first, second = variant.power_ids[:2]
    for utype, loc in tables.sorted_near:
        one = listing._Made(utype, loc, first, numbered)
        other = listing._Made(utype, loc, second, numbered)
        assert one.reach is other.reach and one.own_keys is other.own_keys
        moves, reach = tables.sorted_near[utype, loc]
        assert one.province == province_of(loc)
        assert one.reach == reach and one.reach_set == frozenset(reach)
        assert one.reach_ids == tuple(numbered.province_id[prov] for prov in reach)
        own = dict(zip(tables.moves_into.get((utype, loc), ()),
                       tables.mover_keys.get((utype, loc), ()), strict=True))
        assert one.own_keys == tuple(own.get(prov) for prov in reach)
        assert [order.destination for order in one.fixed[1:]] == list(moves)
        assert all(order.power == first for order in one.fixed)
        assert all(other.supports[key] is None for key in tables.mover_keys.get((utype, loc), ()))
    assert len(numbered.place_parts) <= len(tables.sorted_near)
