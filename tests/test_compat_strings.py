"""The facade's order strings (``diplomacy_words.ListingTexts``): kept by order value, and in
a movement phase assembled from the parts the listing assembled each unit's orders from (its
head, its supports' keys, its convoys), so they must be exactly the strings of its orders.

Each phase of seeded random games, what ``get_all_possible_orders`` lists is compared with the
strings made afresh, order by order, from realpolitik's listing (``order_text``, the slow and
plain way), so a string kept from an earlier listing can never stand for another order.
"""

from __future__ import annotations

import copy
import random
from typing import cast

from hypothesis import given, settings
from hypothesis import strategies as st

from realpolitik.compat.diplomacy import Game
from realpolitik.compat.diplomacy_words import listing_texts, order_text
from realpolitik.geography import UnitType, province_of
from realpolitik.listing import (
    PART_HEAD,
    PART_HEAD_KEY,
    PART_SPARED,
    PART_SUPPORT_KEYS,
    UnitParts,
    movement_parts,
    unit_orders,
)
from realpolitik.maptables import tables_for
from realpolitik.orders import SupportMove
from realpolitik.position import PhaseType


def _fresh_listing(game: Game) -> dict[str, list[str]]:
    """What the facade lists in a movement phase, made order by order with ``order_text``:
    a support of a move to a coast followed by the same support without the coast."""
    engine = game.realpolitik_game
    tables = tables_for(engine.variant)
    out: dict[str, list[str]] = {}
    for power in engine.powers_to_order():
        for location, orders in engine.legal_orders(power).items():
            strings: list[str] = []
            for order in orders:
                text = order_text(order, tables)
                strings.append(text)
                if isinstance(order, SupportMove) and "/" in order.destination:
                    other = f"{text.rsplit(' - ', 1)[0]} - {province_of(order.destination).upper()}"
                    if other not in strings:
                        strings.append(other)
            out[location.upper()] = strings
            if "/" in location:
                out[province_of(location).upper()] = strings
    return out


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_listed_strings_are_those_of_the_orders_listed_now(seed: int) -> None:
    """Every movement phase of a random game lists, for every unit, exactly the strings of the
    orders realpolitik lists for it now, in order (whatever was kept from earlier phases)."""
    rng = random.Random(seed)
    game = Game()
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= 1906:
        possible = game.get_all_possible_orders()
        if game.realpolitik_game.phase.type is PhaseType.MOVEMENT:
            fresh = _fresh_listing(game)
            assert {loc: possible[loc] for loc in fresh} == fresh
            assert all(not orders for loc, orders in possible.items() if loc not in fresh)
        for power, locations in game.get_orderable_locations().items():
            game.set_orders(power, [rng.choice(possible[loc]) for loc in locations
                                    if possible[loc]])
        game.process()
        assert not game.error


def test_strings_are_found_by_value_not_by_the_object() -> None:
    """An order equal to a listed one, but another object, has the same string, and a unit's
    listing made of such copies lists the same strings as the listing itself."""
    game = Game()
    engine = game.realpolitik_game
    texts = listing_texts(engine.variant)
    legal = engine.legal_orders("france")
    listed = game.get_all_possible_orders()
    for location, orders in legal.items():
        copies = tuple(copy.copy(order) for order in orders)
        assert all(a == b and a is not b for a, b in zip(orders, copies, strict=True))
        assert [texts.text_of(order) for order in copies] == \
            [texts.text_of(order) for order in orders]
        assert texts.strings_of(location, copies) == listed[location.upper()]
        assert texts.strings_of(location, orders) == listed[location.upper()]


def test_a_unit_assembled_from_other_parts_gets_its_own_strings() -> None:
    """The strings kept per unit follow its parts: the same unit listed with fewer, more or
    other supports, another head, or some supports spared, gets the strings of its own orders
    each time."""
    game = Game()
    engine = game.realpolitik_game
    texts = listing_texts(engine.variant)
    tables = tables_for(engine.variant)
    parts = movement_parts(engine.position)
    assert parts is not None
    paris = parts["france"]["par"]
    own = list(tables.mover_keys[UnitType.ARMY, "par"])
    supports = [key for key in paris[PART_SUPPORT_KEYS] if key not in own]
    assert len(supports) >= 2

    def replaced(changes: dict[int, object]) -> UnitParts:
        """Paris's parts with the fields at these indexes (``PART_...``) replaced."""
        fields: list[object] = list(paris)
        for index, value in changes.items():
            fields[index] = value
        return cast(UnitParts, tuple(fields))

    variants = [paris,
                replaced({PART_SUPPORT_KEYS: supports[:1]}),
                replaced({PART_SUPPORT_KEYS: supports[::-1]}),
                replaced({PART_SUPPORT_KEYS: [*supports, *own]}),
                replaced({PART_SPARED: frozenset(supports[:1])}),
                replaced({PART_HEAD: paris[PART_HEAD][:2], PART_HEAD_KEY: frozenset({"x"})}),
                paris]
    for unit in variants:
        possible: dict[str, list[str]] = {}
        texts.fill_movement(possible, "france", [unit])
        assert possible["PAR"] == [order_text(order, tables) for order in unit_orders(unit)]
    assert len(unit_orders(variants[4])) == len(unit_orders(paris)) - 1


def test_the_lists_handed_out_are_the_callers_own() -> None:
    """Changing a list ``get_all_possible_orders`` returned changes nothing the facade keeps."""
    game = Game()
    first = game.get_all_possible_orders()
    kept = {loc: orders[:] for loc, orders in first.items()}
    for orders in first.values():
        orders.append("A XXX H")
        orders.reverse()
    game2 = Game()
    assert game2.get_all_possible_orders() == kept
    assert game.get_all_possible_orders() == kept


def test_the_orderable_places_handed_out_are_the_callers_own() -> None:
    """``get_orderable_locations`` hands over what the listing made on its first call (no
    copy): changing it changes nothing the facade keeps; later calls, for every power or for
    one, answer as before, in every phase of a random game (movement, retreats, winters)."""
    rng = random.Random(7)
    game = Game()
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= 1904:
        possible = game.get_all_possible_orders()
        first = game.get_orderable_locations()
        expected = _orderable_afresh(game)
        assert first == expected
        kept = {power: locs[:] for power, locs in first.items()}
        for locs in first.values():
            locs.append("XXX")
        second = game.get_orderable_locations()
        assert second == kept
        second["FRANCE"].append("YYY")
        assert game.get_orderable_locations() == kept
        assert game.get_orderable_locations("FRANCE") == kept["FRANCE"]
        for power, locations in kept.items():
            game.set_orders(power, [rng.choice(possible[loc]) for loc in locations
                                    if possible[loc]])
        game.process()


def _orderable_afresh(game: Game) -> dict[str, list[str]]:
    """What ``get_orderable_locations`` answers, worked out by the facade's general way (not
    with the listing: a fresh game at the same phase, asked before anything is listed)."""
    fresh = Game()
    fresh.set_state(game.get_state())
    return fresh.get_orderable_locations()


def test_a_place_first_listed_for_another_power_gets_its_own_strings_and_orders() -> None:
    """A unit listed for the first time at a place another power's unit was listed at takes
    the support strings kept there (a support's string does not say whose it is): it lists the
    strings of its own orders, and a support string it gives names its own power's support,
    which the engine is handed and carries out."""
    france = Game()
    texts = listing_texts(france.realpolitik_game.variant)
    texts.clear()  # (so that no German unit was listed in Paris before)
    france.get_all_possible_orders()  # (the French army in Paris: its strings kept)
    assert not any(unit.name == "PAR" for unit in texts.units["germany"].values())
    game = Game()
    game.clear_units()
    game.set_units("FRANCE", ["A BRE"])
    game.set_units("GERMANY", ["A PAR", "A MUN"])
    game.set_units("ENGLAND", ["F LON"])
    possible = game.get_all_possible_orders()
    paris = texts.supporters["germany"]["A PAR"]
    taken = texts.supporters["france"]["A PAR"].supports.items()
    assert taken <= paris.supports.items()  # (taken over, and more learnt)
    fresh = _fresh_listing(game)
    assert {loc: possible[loc] for loc in fresh} == fresh
    support = "A PAR S A MUN - BUR"
    assert support in possible["PAR"]
    game.set_orders("GERMANY", [support, "A MUN - BUR"])
    assert not game.error
    assert game.get_orders("GERMANY") == [support, "A MUN - BUR"]
    entries = game.realpolitik_game.orders_of("germany")
    assert all(entry.error is None for entry in entries)
    assert len(entries) == 2
    assert {entry.order.power for entry in entries if entry.order is not None} == {"germany"}
    game.process()
    assert "A BUR" in game.get_units("GERMANY")


def test_supports_of_moves_to_a_coast_are_each_followed_by_the_one_without_it() -> None:
    """A unit's supports of moves to a coast are found by its support keys (not by looking up
    every string listed) and each followed by the same support without the coast, once: the
    listing equals the strings made order by order, in games long enough to list units with
    one, two and more such supports, two of them of moves to the two coasts of a province."""
    seen: set[tuple[int, int]] = set()  # (such supports listed, supports without a coast put)
    for seed in (3, 11):
        rng = random.Random(seed)
        game = Game()
        coastless = listing_texts(game.realpolitik_game.variant).coastless
        while not game.is_game_done and int(game.get_current_phase()[1:5]) <= 1916:
            possible = game.get_all_possible_orders()
            if game.realpolitik_game.phase.type is PhaseType.MOVEMENT:
                fresh = _fresh_listing(game)
                assert {loc: possible[loc] for loc in fresh} == fresh
                without = set(coastless.values())
                for strings in fresh.values():
                    with_coast = sum(text in coastless for text in strings)
                    if with_coast:
                        seen.add((with_coast, sum(text in without for text in strings)))
            for power, locations in game.get_orderable_locations().items():
                game.set_orders(power, [rng.choice(possible[loc]) for loc in locations
                                        if possible[loc]])
            game.process()
    assert (1, 1) in seen and any(listed > put for listed, put in seen)


def test_a_head_first_listed_for_another_power_names_its_own_power_s_orders() -> None:
    """The strings of a unit's hold and moves (and a fleet's convoys) are made once per place
    for every power (the package's strings name no power): a unit listed where another
    power's unit of the same type was listed lists the same strings, and each names its own
    power's order, which the engine is handed and carries out."""
    france = Game()
    texts = listing_texts(france.realpolitik_game.variant)
    texts.clear()  # (so that no German unit was listed in Paris before)
    france_listed = france.get_all_possible_orders()["PAR"]
    game = Game()
    game.clear_units()
    game.set_units("FRANCE", ["A BRE"])
    game.set_units("GERMANY", ["A PAR", "A MUN"])
    possible = game.get_all_possible_orders()
    fresh = _fresh_listing(game)
    assert {loc: possible[loc] for loc in fresh} == fresh
    heads = texts.supporters["germany"]["A PAR"].heads
    assert texts.supporters["france"]["A PAR"].place is texts.supporters["germany"]["A PAR"].place
    assert all(text in france_listed for strings in heads.values() for text in strings)
    named = texts.named_by("germany")
    assert all(named[text].power == "germany" for strings in heads.values() for text in strings)
    game.set_orders("GERMANY", ["A PAR - PIC", "A MUN H"])
    assert not game.error
    entries = game.realpolitik_game.orders_of("germany")
    assert [entry.order.power for entry in entries if entry.order is not None] == \
        ["germany", "germany"]
    game.process()
    assert "A PIC" in game.get_units("GERMANY")
