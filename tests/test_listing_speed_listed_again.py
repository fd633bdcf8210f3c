"""A unit no convoy touches is listed again with the orders it was last listed with when every
province it reaches holds the same support keys as then (:func:`listing._listed_again`, the
compiled listing's way): what it lists is what the unit's parts assemble afresh."""

from __future__ import annotations

import copy

import pytest
from random_play import movement_positions

from realpolitik.listing import movement_parts, unit_orders
from realpolitik.variant import load_variant


@pytest.mark.parametrize(("variant_name", "seed", "until"), [
    ("classical", 11, 1912), ("colonial_winters", 6, 1872)])
def test_a_unit_listed_again_lists_what_its_parts_assemble(
        monkeypatch: pytest.MonkeyPatch, variant_name: str, seed: int, until: int) -> None:
    """Every movement phase of a seeded game listed afresh, in order, by the compiled idiom
    (the flag set, which the interpreted build obeys; compiled, it is set already): every
    unit's orders are those the pipeline lists (the flag unset: interpreted, it never reuses a
    listing) and, where the listing is made of parts alone, those its parts assemble
    (:func:`unit_orders`, in either build); and there, some units were listed again (their
    orders the very tuple they were last listed with; a variant with an order veto filters
    them into a new one)."""
    from realpolitik import listing

    variant = load_variant(variant_name)
    powers = frozenset(variant.power_ids)
    again = checked = 0
    parts = None
    for seen in movement_positions(variant, seed, until):
        monkeypatch.setattr(listing, "_TYPED_LOOPS", False)
        afresh = listing._list_movement(seen, powers)
        monkeypatch.setattr(listing, "_TYPED_LOOPS", True)
        made = listing._made_of(variant)
        before = {id(each.listed): each.listed for each in made.values()
                  if each.seen is not None}
        listed = listing._list_movement(seen, powers)
        assert listed == afresh, str(seen.phase)
        parts = movement_parts(copy.copy(seen))
        for power, by_location in listed.items():
            for loc, orders in by_location.items():
                if parts is not None:
                    assert orders == unit_orders(parts[power][loc]), (str(seen.phase), loc)
                again += before.get(id(orders)) is orders
                checked += 1
    assert checked
    assert again or parts is None
