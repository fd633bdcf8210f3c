"""The order-value tables a unit leaves unmade (:data:`realpolitik.listing._UNMADE`) against
the tables made as they are first written.

A unit's tables of heads, moves by convoy, convoys, convoy parts and retreats
(:class:`realpolitik.listing._Made`) start as one shared empty table and are made when first
written. These tests list every movement phase (and the retreats) of a few random games, then
check that the shared table was never written, that the tables made hold what a fresh unit
makes, and that the listing's orders are its parts' orders.
"""

from __future__ import annotations

import pytest
from random_play import movement_positions, played_game

from realpolitik import listing
from realpolitik.listing import legal_orders, movement_parts, unit_orders


@pytest.mark.parametrize(("variant_name", "seed", "until"), [
    ("classical", 3, 1915), ("classical", 9, 1915), ("colonial_winters", 2, 1870)])
def test_a_kept_convoy_part_is_the_one_made_afresh(variant_name: str, seed: int,
                                                    until: int) -> None:
    """Each fleet's convoy part read back from the tables the listing made for it equals the
    part a fresh unit makes, and the listing's orders are its parts' orders."""
    positions = movement_positions(variant_name, seed, until)
    variant = positions[0].variant
    numbered = listing._unit_places(variant)
    made_table = listing._made_of(variant)
    compared = 0
    for position in positions:
        parts = movement_parts(position)
        units = list(position.units.values())
        codes = [numbered.code[unit.type, unit.location] for unit in units]
        plan = listing._plan_convoys(variant, codes, numbered)
        for unit, code in zip(units, codes, strict=True):
            if unit.power not in variant.power_ids:
                continue
            if parts is not None:  # (None: a listing not made of parts alone)
                assert unit_orders(parts[unit.power][unit.location]) == \
                    legal_orders(position, unit.power)[unit.location]
            sources = None if plan is None else plan.at[numbered.province_id[unit.province]]
            if not isinstance(sources, listing._FleetSources):
                continue
            kept = made_table[listing._made_key(numbered, code, unit.power)]
            assert kept.convoy_parts is not listing._UNMADE  # (the listing made it)
            fresh = listing._Made(unit.type, unit.location, unit.power, numbered)
            assert kept.convoy_part(sources.serials, sources.answers) == fresh.convoy_part(
                sources.serials, sources.answers), (str(position.phase), unit)
            compared += 1
    assert compared
    assert not listing._UNMADE  # (the shared empty table: never written)


def test_units_that_never_convoy_nor_retreat_make_no_tables() -> None:
    """A unit whose orders never needed heads, convoy parts or retreats holds the shared empty
    table; those that did hold tables of their own, never left empty; the shared one stays
    empty through games with retreats."""
    game = played_game(4, years=8)
    made_table = listing._made_of(game.variant)
    unmade = own = 0
    for made in made_table.values():
        for table in (made.heads, made.convoy_moves, made.convoys, made.convoy_parts,
                      made.source_parts, made.retreats):
            if table is listing._UNMADE:
                unmade += 1
            else:
                assert table
                own += 1
    assert unmade and own
    assert any(made.retreats is not listing._UNMADE for made in made_table.values())
    assert any(made.heads is not listing._UNMADE for made in made_table.values())
    assert not listing._UNMADE
