"""The convoy searches' own numbering of the provinces, and the search on a mask of fleets.

:attr:`MapTables.convoy_order` numbers the convoy spaces first and the other shores next, so
that the masks the convoy searches make stay within a machine word (compiled, a bigger int is a
boxed object) on the classical map; :meth:`MapTables.convoy_reach_of_mask` is
:meth:`MapTables.convoy_reach` given the fleets as a mask in that numbering (what the listing
keeps its convoy answers by). Checked against the searches by name on random groups of fleets.
"""

from __future__ import annotations

import random

import pytest

from realpolitik.maptables import tables_for
from realpolitik.variant import load_variant


@pytest.mark.parametrize("variant_name", ["standard", "colonial_winters"])
def test_the_convoy_numbering_puts_convoy_spaces_then_shores_first(variant_name: str) -> None:
    tables = tables_for(load_variant(variant_name))
    order = tables.convoy_order
    assert sorted(order) == sorted(tables.provinces)
    convoying = len(tables.convoy_spaces)
    shores = len(tables.shores - tables.convoy_spaces)
    assert set(order[:convoying]) == tables.convoy_spaces
    assert set(order[convoying:convoying + shores]) == tables.shores - tables.convoy_spaces
    assert all(tables.convoy_index[name] == k for k, name in enumerate(order))
    for part in (order[:convoying], order[convoying:convoying + shores],
                 order[convoying + shores:]):  # each part in map order
        assert list(part) == sorted(part, key=tables.provinces.index)


def test_the_classical_convoy_masks_fit_a_machine_word() -> None:
    tables = tables_for(load_variant("standard"))
    spaces_and_shores = len(tables.convoy_spaces | tables.shores)
    assert spaces_and_shores <= 62  # (mypyc's unboxed ints hold 62 bits and a sign)


@pytest.mark.parametrize("variant_name", ["standard", "colonial_winters"])
@pytest.mark.parametrize("seed", range(2))
def test_the_reach_on_a_mask_is_the_reach_by_names(variant_name: str, seed: int) -> None:
    tables = tables_for(load_variant(variant_name))
    rng = random.Random(seed)
    spaces, shores = sorted(tables.convoy_spaces), sorted(tables.shores)
    found = 0
    for _ in range(100):
        group = frozenset(rng.sample(spaces, rng.randrange(min(len(spaces), 12) + 1)))
        origin = rng.choice(shores)
        mask = 0
        for fleet in group:
            mask |= 1 << tables.convoy_index[fleet]
        by_mask = tables.convoy_reach_of_mask(origin, mask)
        assert by_mask == tables.convoy_reach(origin, group)
        assert by_mask[0] == tables.convoy_reachable(origin, group)
        found += bool(by_mask[1])
    assert found > 5
