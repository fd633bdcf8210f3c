"""The facade's order strings (``diplomacy_words.ListingTexts``): kept by order value, and the
strings of a unit's listing taken from its last listing only where they are the same orders.

Each phase of seeded random games, what ``get_all_possible_orders`` lists is compared with the
strings made afresh, order by order, from realpolitik's listing (``order_text``, the slow and
plain way), so a string kept from an earlier listing can never stand for another order.
"""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from realpolitik.compat.diplomacy import Game
from realpolitik.compat.diplomacy_words import listing_texts, order_text
from realpolitik.geography import province_of
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
        assert texts.unit_texts("france")(location, copies) == listed[location.upper()]
        assert texts.unit_texts("france")(location, orders) == listed[location.upper()]


def test_a_listing_that_changes_in_the_middle_gets_the_new_strings() -> None:
    """A unit's listing whose start is the very orders listed last and whose rest differs (or is
    shorter, or longer) gets the strings of its own orders."""
    game = Game()
    engine = game.realpolitik_game
    texts = listing_texts(engine.variant)
    tables = tables_for(engine.variant)
    orders = engine.legal_orders("france")["par"]
    strings_of = texts.unit_texts("france")
    whole = strings_of("par", orders)
    for changed in (orders[:3], orders[:3] + orders[5:], orders + orders[:2],
                    orders[:2] + tuple(reversed(orders[2:])), ()):
        assert strings_of("par", changed) == [order_text(o, tables) for o in changed]
    assert strings_of("par", orders) == whole


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
