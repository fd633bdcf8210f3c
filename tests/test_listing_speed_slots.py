"""The compiled listing's supports by slot (:func:`realpolitik.listing._with_slots`): the support
keys into each province numbered from 0 per variant, and each unit's supports kept in a list per
province it reaches, read by those numbers.

(Both builds run these: interpreted, the listing is made by slot here with ``_TYPED_LOOPS`` set;
compiled, the module reads its own flag, which is set. ``tests/test_listing.py`` checks that the
orders listed by slot are those of the pipeline, game after game.)"""

from __future__ import annotations

from typing import cast

import pytest
from random_play import movement_positions

from realpolitik import listing
from realpolitik.maptables import tables_for
from realpolitik.orders import SupportHold, SupportMove
from realpolitik.variant import load_variant


@pytest.mark.parametrize(("variant_name", "seed", "until"), [
    ("classical", 3, 1912), ("colonial_winters", 2, 1872)])
def test_slots_number_the_keys_into_each_province_and_rows_hold_the_units_supports(
        monkeypatch: pytest.MonkeyPatch, variant_name: str, seed: int, until: int) -> None:
    """After a game's listings by slot: each province's slots and keys are one numbering
    (:attr:`_UnitPlaces.key_at`, :attr:`_UnitPlaces.slot_of`), the map's own keys first (what a
    unit holds and moves into it: :attr:`occupant_slot_at` and :attr:`moves_slot_at` name the
    same keys as :attr:`occupant_at` and :attr:`moves_at`), then the keys of moves by convoy,
    which are the only keys a fleet may spare; and in every unit's rows a slot holds nothing
    yet, the mark of one of its own moves (exactly those), or the very support its support
    table gives for that slot's key."""
    monkeypatch.setattr(listing, "_TYPED_LOOPS", True)
    variant = load_variant(variant_name)
    numbered = listing._unit_places(variant)
    tables = tables_for(variant)
    for seen in movement_positions(variant, seed, until):
        listing._list_movement(seen, frozenset(variant.power_ids))
    for prov_id, keys in enumerate(numbered.key_at):
        assert numbered.slot_of[prov_id] == {key: slot for slot, key in enumerate(keys)}
        assert numbered.by_convoy_from[prov_id] <= len(keys)
    for code, (prov_id, slot) in enumerate(numbered.occupant_slot_at):
        assert numbered.occupant_at[code] == (prov_id, numbered.key_at[prov_id][cast(int, slot)])
        assert cast(int, slot) < numbered.by_convoy_from[prov_id]
    for code, moves in enumerate(numbered.moves_slot_at):
        assert numbered.moves_at[code] == tuple(
            (prov_id, numbered.key_at[prov_id][cast(int, slot)]) for prov_id, slot in moves)
        assert all(cast(int, slot) < numbered.by_convoy_from[prov_id] for prov_id, slot in moves)
    answers = list(listing._convoy_answers(variant).answers.values())
    with_moves = [answer for answer in answers if answer.slots_into is not None]
    assert with_moves, "no move by convoy was listed: the game tests too little"
    for answer in with_moves:
        assert answer.slots_into == answer.by_slot(numbered)
        for (prov_id, key), (same_id, slot) in zip(answer.keys_into, answer.slots_into,
                                                   strict=True):
            assert same_id == prov_id and numbered.key_at[prov_id][cast(int, slot)] == key
            assert cast(int, slot) >= numbered.by_convoy_from[prov_id]  # (spared keys' slots)
    rows_seen = 0
    for made in listing._made_of(variant).values():
        if made.rows is None:
            continue
        rows_seen += 1
        own = set(tables.mover_keys.get((made.utype, made.loc), ()))
        assert len(made.rows) == len(made.reach_ids)
        for row, prov_id in zip(made.rows, made.reach_ids, strict=True):
            assert len(row) <= len(numbered.key_at[prov_id])
            for slot, held in enumerate(row):
                key = numbered.key_at[prov_id][slot]
                if key in own:
                    assert held is listing._OWN
                elif held is not None:
                    support = made.supports[key]
                    assert held is support and support is not None
                    assert isinstance(support, (SupportHold, SupportMove))
                    assert (support.location, support.power) == (made.loc, made.power)
    assert rows_seen


def test_an_answers_pairs_are_sorted_alike_by_either_idiom(monkeypatch: pytest.MonkeyPatch) -> None:
    """A convoy answer's pairs per fleet (:attr:`_ConvoyAnswer.pairs_of`) sorted by destination
    (compiled) or as tuples (interpreted) are the same: every pair is of the answer's army."""
    variant = load_variant("classical")
    numbered = listing._unit_places(variant)
    for seen in movement_positions(variant, 3, 1912):
        listing._list_movement(seen, frozenset(variant.power_ids))
    keys = list(listing._convoy_answers(variant).answers)
    assert any(listing._convoy_answers(variant).answers[key].pairs_of for key in keys)
    by_idiom = []
    for typed_loops in (False, True):
        monkeypatch.setattr(listing, "_TYPED_LOOPS", typed_loops)
        fresh = listing._ConvoyAnswers(variant)
        by_idiom.append([fresh.answer(numbered, army, group).pairs_of for army, group in keys])
    assert by_idiom[0] == by_idiom[1]


@pytest.mark.parametrize(("variant_name", "seed", "until"), [
    ("classical", 4, 1910), ("colonial_winters", 1, 1870)])
def test_the_spare_table_by_province_lists_what_a_fresh_table_lists(
        monkeypatch: pytest.MonkeyPatch, variant_name: str, seed: int, until: int) -> None:
    """The listing by slot keeps its table of slots by province for the next listing
    (:attr:`_UnitPlaces.spare_table`, emptied and filled again): listed with it, every
    position gives what a fresh table gives, listing after listing of ever other positions,
    and the table is given back after each (a listing made while it is taken, as by another
    thread, makes its own)."""
    monkeypatch.setattr(listing, "_TYPED_LOOPS", True)
    variant = load_variant(variant_name)
    numbered = listing._unit_places(variant)
    powers = frozenset(variant.power_ids)
    compared = 0
    for seen in movement_positions(variant, seed, until):
        kept = numbered.spare_table
        with_spare = listing._list_movement(seen, powers)
        assert kept is None or numbered.spare_table is kept
        numbered.spare_table = None  # (taken: this listing makes its own)
        fresh = listing._list_movement(seen, powers)
        assert fresh == with_spare, str(seen.phase)
        assert numbered.spare_table is not None and len(numbered.spare_table) == len(
            numbered.names)
        compared += sum(map(len, fresh.values()))
    assert compared
