"""One string object per place: the map's tables, the start position, the listed and parsed
orders and a loaded record hold the map's own object for each location (``Map.names``), so
that the engine's dictionary look-ups by location settle by identity."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from random_play import played_game

from realpolitik import savefile
from realpolitik.game import Game
from realpolitik.geography import Map, province_of
from realpolitik.notation import parse_order
from realpolitik.orders import Order
from realpolitik.variant import load_variant


def _all_the_maps(names: Iterable[str], the_map: Map) -> bool:
    return all(name is the_map.names[name] for name in names)


def _order_places(order: Order) -> list[str]:
    places = [getattr(order, field, None) for field in
              ("location", "destination", "supported_location", "army_location")]
    return [p for p in places if isinstance(p, str)]


@pytest.mark.parametrize("variant_name", ["classical", "colonial_winters"])
def test_the_maps_tables_and_start_hold_its_own_names(variant_name: str) -> None:
    """Every table of the map and the start position name each place with the one object of
    ``Map.names``, and ``Map.names`` is the map's locations, each mapped to itself."""
    variant = load_variant(variant_name)
    the_map = variant.map
    assert list(the_map.names) == list(the_map.locations)
    assert all(key is value for key, value in the_map.names.items())
    assert _all_the_maps(the_map.provinces, the_map)
    for loc in the_map.locations:
        assert _all_the_maps(the_map.fleet_neighbours(loc), the_map)
        assert _all_the_maps(the_map.army_neighbours(loc), the_map)
        assert _all_the_maps(the_map.fleet_support_reach(loc), the_map)
        assert _all_the_maps(the_map.coasts(loc), the_map)
    for a, b, _, _ in the_map.borders:
        assert _all_the_maps((a, b), the_map)
    for a, b in the_map.support_borders:
        assert _all_the_maps((a, b), the_map)
    assert _all_the_maps((u.location for u in variant.start_units), the_map)
    assert _all_the_maps(variant.start_centers, the_map)
    game = Game(variant)
    assert _all_the_maps((u.location for u in game.position.units.values()), the_map)
    # (a unit on a coast is keyed by its province, sliced from the location: not the map's)
    assert _all_the_maps((k for k, u in game.position.units.items() if k == u.location),
                         the_map)


def test_same_name_hands_back_the_maps_object() -> None:
    """An equal string made apart gives the map's object; a name of no place is given back."""
    the_map = load_variant("classical").map
    made = "".join(["stp", "/", "sc"])
    assert made is not the_map.names[made]
    assert the_map.same_name(made) is the_map.names["stp/sc"]
    assert the_map.province_name(made) is the_map.names["stp"]
    assert the_map.province_name("".join(["p", "ar"])) is the_map.names["par"]
    unknown = "".join(["atl", "antis"])
    assert the_map.same_name(unknown) is unknown
    assert the_map.province_name(unknown) == province_of(unknown)


def test_the_listed_and_parsed_orders_of_a_game_hold_the_maps_names() -> None:
    """Over a played game every listed order, and each order parsed again from its text, names
    its places with the map's objects, as do the positions' units."""
    game = played_game(3, years=4)
    the_map = game.position.variant.map
    for record in game.history:
        position = record.position
        assert _all_the_maps(position.centers, the_map)
        assert _all_the_maps((u.location for u in position.units.values()), the_map)
        for power, entries in record.orders.items():
            for entry in entries:
                if entry.order is None:
                    continue
                assert _all_the_maps(_order_places(entry.order), the_map)
                again = parse_order(str(entry.order), position, power=power)
                assert again == entry.order
                assert _all_the_maps(_order_places(again), the_map)


def test_a_loaded_record_reads_the_variants_names() -> None:
    """A game read back from its record equals the game, and the positions read from the
    record name places and powers with the variant's objects."""
    game = played_game(5, years=3)
    text = savefile.dumps(game)
    loaded = savefile.loads(text)
    assert savefile.dumps(loaded) == text
    variant = loaded.position.variant
    powers = {p.id: p.id for p in variant.powers}
    for record in game.history:
        data = savefile.position_to_json(record.position)
        read = savefile.position_from_json(loaded, data)
        assert read == record.position
        assert _all_the_maps(read.centers, variant.map)
        assert all(owner is powers[owner] for owner in read.centers.values())
        for unit in read.units.values():
            assert unit.location is variant.map.names[unit.location]
            assert unit.power is powers[unit.power]
        for dislodged in read.dislodged:
            assert dislodged.unit.location is variant.map.names[dislodged.unit.location]
