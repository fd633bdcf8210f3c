"""The convoy parts of the movement listing, kept per convoy answer, against their definition.

A fleet's convoy part (:meth:`realpolitik.listing._Made.convoy_part`: the supports it must leave
out and its convoys) is put together from shares kept per convoy answer it takes part in; these
tests work each part out again from the definition, straight from the map's convoy search, for
every fleet of every movement phase of a few random games, and check the answers' fleets too.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from random_play import movement_positions

from realpolitik import listing
from realpolitik.geography import UnitType
from realpolitik.maptables import MapTables, tables_for
from realpolitik.orders import Convoy
from realpolitik.position import Position, Unit


def _defined_part(made: listing._Made, sources: list[listing._ConvoyAnswer],
                  tables: MapTables) -> tuple[frozenset[int], tuple[Convoy, ...]]:
    """What a fleet's convoy part is: the keys of the moves by convoy it could support but
    that no route without it carries, and its convoys of every army it is needed for, by
    army, each army's pairs sorted."""
    spared: set[int] = set()
    needs: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    for answer in sources:
        army, group = answer.origin, answer.group
        needed = answer.pairs_of.get(made.province)
        if needed:
            needs.append((army, needed))
        for dest, key in answer.key_into.items():
            if dest in made.reach_set and dest not in tables.convoy_reachable(
                    army, group, made.province):
                spared.add(key)
    needs.sort()
    convoys = tuple(Convoy(made.utype, made.loc, army, dest, power=made.power)
                    for _, needed in needs for army, dest in needed)
    return frozenset(spared), convoys


def _fleets_with_sources(positions: list[Position],
                         ) -> Iterator[tuple[Position, Unit, int, listing._FleetSources]]:
    """Each unit of a power that some convoy answer of its position names (a fleet that could
    convoy), with its place's code and its sources in the position's convoy plan."""
    variant = positions[0].variant
    numbered = listing._unit_places(variant)
    for position in positions:
        units = list(position.units.values())
        codes = [numbered.code[unit.type, unit.location] for unit in units]
        plan = listing._plan_convoys(variant, codes, numbered)
        if plan is None:
            continue
        for unit, code in zip(units, codes, strict=True):
            entry = plan.at[numbered.province_id[unit.province]]
            if isinstance(entry, listing._FleetSources) and unit.power in variant.power_ids:
                yield position, unit, code, entry


@pytest.mark.parametrize(("variant_name", "seed", "until"), [
    ("classical", 3, 1920), ("classical", 8, 1920), ("colonial_winters", 2, 1875)])
def test_each_fleets_convoy_part_is_what_its_definition_gives(
        variant_name: str, seed: int, until: int) -> None:
    """Every fleet's convoy part, made from shares kept per answer (most of them met before,
    in other company), is the one its definition gives, value for value and in order."""
    positions = movement_positions(variant_name, seed, until)
    variant = positions[0].variant
    tables = tables_for(variant)
    numbered = listing._unit_places(variant)
    made_table = listing._made_of(variant)
    fleets_seen = several = 0
    for position, unit, code, entry in _fleets_with_sources(positions):
        sources = entry.answers
        assert entry.serials == tuple(answer.serial for answer in sources)
        made = made_table.get((code, unit.power))
        if made is None:
            made = listing._Made(unit.type, unit.location, unit.power, numbered)
        part = made.convoy_part(entry.serials, sources)
        assert part == _defined_part(made, sources, tables), (str(position.phase), unit)
        fleets_seen += 1
        several += len(sources) > 1
    assert fleets_seen and several  # (fleets with one source and with several were met)


def test_a_fresh_fleet_and_a_seasoned_one_give_the_same_parts() -> None:
    """A fleet's part made with no share kept (a new unit) and one made from kept shares are
    equal, and a full table of shares is emptied, not grown (bounded by ``_MAX_HEADS``)."""
    positions = movement_positions("classical", 5, 1915)
    variant = positions[0].variant
    numbered = listing._unit_places(variant)
    compared = 0
    seasoned: dict[tuple[int, str | None], listing._Made] = {}
    for _, unit, code, entry in _fleets_with_sources(positions):
        sources = entry.answers
        old = seasoned.get((code, unit.power))
        if old is None:
            old = seasoned[code, unit.power] = listing._Made(
                unit.type, unit.location, unit.power, numbered)
        serials = entry.serials
        fresh = listing._Made(unit.type, unit.location, unit.power, numbered)
        assert old.convoy_part(serials, sources) == fresh.convoy_part(serials, sources)
        assert len(old.source_parts) <= listing._MAX_HEADS
        compared += 1
    assert compared


@pytest.mark.parametrize("variant_name", ["classical", "colonial_winters"])
def test_an_answers_fleets_are_those_it_changes(variant_name: str) -> None:
    """A convoy answer's fleets (their support reach kept per province) are those needed on
    some route and those that could support one of its moves by convoy."""
    positions = movement_positions(variant_name, 4, 1912)
    variant = positions[0].variant
    tables = tables_for(variant)
    answers = listing._convoy_answers(variant).answers
    assert answers
    for answer in answers.values():
        dests = frozenset(dest for dest, _, _ in answer.by_convoy)
        expected = frozenset(
            fleet for fleet in answer.group if fleet in answer.pairs_of or (
                dests and not dests.isdisjoint(listing._fleet_support_reach(tables, fleet))))
        assert answer.fleets == expected
    assert any(unit.type is UnitType.FLEET for p in positions for unit in p.units.values())


@pytest.mark.parametrize(("variant_name", "seed"), [("classical", 6), ("colonial_winters", 3)])
def test_the_reach_by_convoy_on_masks_is_the_map_tables(variant_name: str, seed: int) -> None:
    """Where an army could go by convoy through a group of fleets, with each fleet of the
    group left out in turn and with none, worked out on masks, is what the map's search by
    name finds."""
    positions = movement_positions(variant_name, seed, 1912)
    variant = positions[0].variant
    tables = tables_for(variant)
    numbered = listing._unit_places(variant)
    names = numbered.names
    answers = listing._convoy_answers(variant).answers
    assert answers
    for (army_id, group_mask), answer in answers.items():
        army = names[army_id]
        assert group_mask == answer.group_mask
        for left_out in (None, *answer.group):
            fleets = answer.group_mask if left_out is None else (
                answer.group_mask & ~(1 << tables.convoy_index[left_out]))
            mask = tables.convoy_reach_mask(army, fleets)
            order = tables.convoy_order
            got = frozenset(order[i] for i in range(len(order)) if mask >> i & 1)
            assert got == tables.convoy_reachable(army, answer.group, left_out or ""), (
                army, left_out)
