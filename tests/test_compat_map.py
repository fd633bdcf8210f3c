"""The ``diplomacy`` package's ``Map`` over realpolitik's map (issue 30)."""

from __future__ import annotations

from typing import Any

import pytest

from realpolitik.compat.diplomacy_map import Map


def test_the_packages_conventions() -> None:
    the_map = Map()
    assert str(the_map) == "standard" and the_map.first_year == 1901
    assert the_map.phase == "SPRING 1901 MOVEMENT"
    assert {"STP/NC", "STP/SC", "stp", "PAR"} <= set(the_map.locs)
    assert the_map.loc_type["SWI"] == "SHUT" and the_map.area_type("bul/ec") == "COAST"
    assert the_map.abut_list("LVP") == ["CLY", "edi", "IRI", "NAO", "WAL", "yor"]
    assert the_map.find_coasts("STP") == ["STP/NC", "STP/SC", "STP"]
    assert the_map.default_coast(["F", "GRE", "-", "BUL"]) == ["F", "GRE", "-", "BUL/SC"]
    assert the_map.is_valid_unit("F BUL") is False
    assert the_map.is_valid_unit("F BUL", no_coast_ok=True) is True
    assert the_map.abuts("F", "BOT", "S", "STP") == 1 and the_map.abuts("F", "BOT", "-", "STP") == 0
    assert the_map.find_next_phase("FALL 1901 RETREATS", phase_type="M") == "SPRING 1902 MOVEMENT"
    assert the_map.compare_phases("W1901?", "W1901A") == 0
    assert the_map.compare_phases("COMPLETED", "S1901M") == 1


def test_any_variant_has_a_map() -> None:
    the_map = Map("colonial_winters")
    assert the_map.powers and the_map.scs
    assert all(the_map.is_valid_unit(unit) for units in the_map.units.values() for unit in units)


@pytest.fixture(scope="module")
def package_map() -> Any:
    return pytest.importorskip("diplomacy").Map()


def test_every_adjacency_answer_is_the_packages(package_map: Any) -> None:
    ours = Map()
    locations = [loc.upper() for loc in package_map.locs]
    assert sorted(locations) == sorted(loc.upper() for loc in ours.locs)
    for kind in "AF?":
        for here in locations:
            assert bool(ours.is_valid_unit(f"{kind} {here}")) == bool(
                package_map.is_valid_unit(f"{kind} {here}")), (kind, here)
            for order in "-SC":
                for there in locations:
                    assert ours.abuts(kind, here, order, there) == package_map.abuts(
                        kind, here, order, there), (kind, here, order, there)


def test_the_lists_are_the_packages(package_map: Any) -> None:
    ours = Map()
    assert ours.loc_type == package_map.loc_type
    assert ours.homes == package_map.homes and sorted(package_map.scs) == ours.scs
    assert {p: sorted(u) for p, u in ours.units.items()} == {
        p: sorted(u) for p, u in package_map.units.items()}
    # (the package also lists impassable Switzerland among its neighbours' adjacencies)
    assert {loc: sorted(n for n in near if n != "SWI")
            for loc, near in package_map.loc_abut.items() if loc != "SWI"} == {
        loc: sorted(near) for loc, near in ours.loc_abut.items() if loc != "SWI"}


def test_compact_writes_a_sentence_in_short_words() -> None:
    the_map = Map()
    assert the_map.compact("England: Fleet Western Mediterranean -> Tyrrhenian Sea. (*bounce*)") \
        == ["F", "WES", "TYS", "|"]
    assert the_map.compact("Army Spain nc moves to Mid-Atlantic Ocean") == ["A", "SPA/NC", "MAO"]
