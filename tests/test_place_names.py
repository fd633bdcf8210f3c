"""Places written by name and read back (issue 28, item 1): Colonial Winters writes every place
by its name (London, English Channel, The Hague) and reads every name, alias and spelling of
its key, with the key's code always understood; a name two places share is ambiguous, and
the error lists both. The classical map writes its three-letter codes, exactly as before."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from realpolitik.errors import AmbiguousOrderError, UnknownNameError
from realpolitik.geography import Terrain, UnitType, province_of
from realpolitik.notation import parse_order
from realpolitik.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
)
from realpolitik.position import Position
from realpolitik.variant import VARIANTS_DIR, Variant, load_variant, normalize_name
from realpolitik.variants.colonial_winters.orders import Block, Mobilise
from realpolitik.writing import write_order, write_place

CW = load_variant("colonial_winters")
CLASSICAL = load_variant("classical")
_ROWS = list(csv.DictReader(
    (VARIANTS_DIR / "colonial_winters" / "provinces.csv").open(encoding="utf-8")))


def _locations(variant: Variant, unit_type: UnitType) -> list[str]:
    the_map = variant.map
    return sorted(loc for p in the_map.provinces for loc in (p, *the_map.coasts(p))
                  if the_map.can_hold(unit_type, loc))


CW_ARMY = _locations(CW, UnitType.ARMY)
CW_FLEET = _locations(CW, UnitType.FLEET)
CW_PLACES = sorted(set(CW_ARMY) | set(CW_FLEET))


def _unit(variant: Variant, kind: UnitType, places: list[str]) -> st.SearchStrategy[
        tuple[UnitType, str]]:
    return st.tuples(st.just(kind), st.sampled_from(places))


def _orders(variant: Variant) -> st.SearchStrategy[Order]:
    """Orders of every kind between any places (legal or not: the notation must carry them)."""
    army = _locations(variant, UnitType.ARMY)
    fleet = _locations(variant, UnitType.FLEET)
    units = st.one_of(_unit(variant, UnitType.ARMY, army), _unit(variant, UnitType.FLEET, fleet))
    anywhere = st.sampled_from(sorted(set(army) | set(fleet)))
    provinces = st.sampled_from(army)

    armies = _unit(variant, UnitType.ARMY, army)
    fleets = _unit(variant, UnitType.FLEET, fleet)
    fleet_places = st.sampled_from(fleet)
    return st.one_of(
        units.map(lambda u: Hold(*u)),
        st.builds(lambda u, to, via: Move(*u, to, via), armies, provinces, st.booleans()),
        st.builds(lambda u, to: Move(*u, to), fleets, fleet_places),
        st.builds(lambda u, s: SupportHold(*u, s[1], s[0]), units, units),
        st.builds(lambda u, s, to: SupportMove(*u, s[1], province_of(to), s[0]),
                  units, units, anywhere),
        st.builds(lambda f, a, to: Convoy(UnitType.FLEET, f, a, to),
                  fleet_places, provinces, provinces),
        st.builds(lambda u, to: Retreat(*u, to), armies, provinces),
        st.builds(lambda u, to: Retreat(*u, to), fleets, fleet_places),
        units.map(lambda u: Disband(*u)),
        units.map(lambda u: Build(*u)),
        units.map(lambda u: Mobilise(*u)),
    )


# -- writing -----------------------------------------------------------------------------------


def test_colonial_winters_writes_names_and_classical_writes_codes() -> None:
    order = parse_order("F e8 - 18", variant=CW)
    assert str(order) == "F E8 - 18"  # the canonical text keeps the codes
    assert write_order(order, CW) == "F London - English Channel"
    assert write_place("e26/wc", CW) == "Kiel (wc)"
    assert write_place("e23", CW) == "The Hague"
    classical = parse_order("F Lon - Eng", variant=CLASSICAL)
    assert write_order(classical, CLASSICAL) == "F LON - ENG" == str(classical)
    assert write_place("stp/sc", CLASSICAL) == "STP/SC"


@settings(max_examples=300, deadline=None)
@given(_orders(CLASSICAL))
def test_classical_writes_exactly_the_canonical_text(order: Order) -> None:
    assert write_order(order, CLASSICAL) == str(order)


@settings(max_examples=400, deadline=None)
@given(_orders(CW))
def test_every_order_written_by_name_reads_back_to_itself(order: Order) -> None:
    written = write_order(order, CW)
    assert parse_order(written, variant=CW) == order, written


@pytest.mark.parametrize("unit_type", [UnitType.ARMY, UnitType.FLEET])
def test_every_place_written_by_name_reads_back(unit_type: UnitType) -> None:
    mover = "A Snow" if unit_type is UnitType.ARMY else "F North Sea"
    for location in _locations(CW, unit_type):
        written = write_place(location, CW)
        assert parse_order(f"{unit_type} {written} H", variant=CW).location == location
        move = parse_order(f"{mover} - {written}", variant=CW)
        assert isinstance(move, Move) and move.destination == location, written


def test_block_of_a_passage_is_written_by_its_name() -> None:
    order = Block(UnitType.ARMY, "n86", "113")
    assert write_order(order, CW) == "A Detroit BLOCK Lake St Clair"
    assert parse_order(write_order(order, CW), variant=CW) == order
    corner = Block(UnitType.ARMY, "e49", "sicily")
    assert parse_order(write_order(corner, CW), variant=CW) == corner


# -- reading -----------------------------------------------------------------------------------


def _names_of(row: dict[str, str]) -> list[str]:
    return [row["name"], *(a for a in row["aliases"].split("|") if a)]


_SHARED = {normalize_name(name) for name in CW.shared_names}


@pytest.mark.parametrize("row", _ROWS, ids=[r["id"] for r in _ROWS])
def test_every_name_and_alias_of_the_key_is_read(row: dict[str, str]) -> None:
    if row["terrain"] == "impassable":
        return
    kind = "F" if row["terrain"] == "sea" else "A"
    for name in _names_of(row):
        text = f"{kind} {name} H"
        if normalize_name(name) in _SHARED:
            with pytest.raises(AmbiguousOrderError) as caught:
                parse_order(text, variant=CW)
            assert write_place(row["id"], CW) in caught.value.candidates
            continue
        assert province_of(parse_order(text, variant=CW).location) == row["id"], text


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(CW_PLACES), st.sampled_from(["lower", "upper", "sea"]))
def test_codes_are_always_understood(location: str, case: str) -> None:
    province = province_of(location)
    code = location.upper() if case == "upper" else location
    if case == "sea":
        if CW.map.terrain(province) is not Terrain.SEA:
            return
        code = f"sea {province}"
    unit = "F" if CW.map.can_hold(UnitType.FLEET, location) else "A"
    assert parse_order(f"{unit} {code} H", variant=CW).location == location


def test_a_name_two_places_share_is_ambiguous_with_both_candidates() -> None:
    with pytest.raises(AmbiguousOrderError) as caught:
        parse_order("A Columbia H", variant=CW)
    assert list(caught.value.candidates) == ["Columbia (US)", "Colombia"]
    assert "Columbia (US) (n21)" in str(caught.value) and "Colombia (s10)" in str(caught.value)


def test_the_position_settles_a_shared_name_when_only_one_place_fits() -> None:
    position = Position.initial(CW)
    # the US fleet stands in Columbia (US); Colombia holds a neutral army
    assert parse_order("F Columbia H", position).location == "n21"
    assert parse_order("A Columbia H", position).location == "s10"


@pytest.mark.parametrize(("text", "location"), [
    ("A The Hague H", "e23"), ("A the Hague H", "e23"), ("A Hague H", "e23"),
    ("F Mafia & Pemba H", "f55"), ("F Mafia and Pemba H", "f55"),
    ("F London - the Channel", "18"), ("F London - Channel", "18"),
    ("F London - English Channel", "18"), ("F Gibraltar - Pillars", "140"),
    ("A Burgendy H", "e60"), ("F Gibralter H", "e109"),
    ("F Columbia (US) H", "n21"), ("F Kiel (wc) H", "e26/wc"),
])
def test_names_people_write(text: str, location: str) -> None:
    order = parse_order(text, variant=CW)
    assert (order.destination if isinstance(order, Move) else order.location) == location


def test_an_unknown_name_is_answered_with_names_not_abbreviations() -> None:
    with pytest.raises(UnknownNameError) as caught:
        parse_order("A Qqqzzx H", variant=CW)
    assert "three-letter" not in caught.value.hint
    assert "e1" in caught.value.hint
    with pytest.raises(UnknownNameError) as close:
        parse_order("A Londn H", variant=CW)
    assert "London (e8)" in close.value.suggestions
    with pytest.raises(UnknownNameError) as classical:
        parse_order("A Qqqzzx H", variant=CLASSICAL)
    assert "three-letter abbreviation" in classical.value.hint


def test_the_display_names_of_colonial_winters_are_distinct() -> None:
    names = [write_place(loc, CW) for loc in CW_PLACES]
    assert len(set(names)) == len(names)


def test_the_docs_list_every_decided_name() -> None:
    docs = (Path(__file__).parents[1] / "docs" / "colonial_winters.md").read_text()
    for name in ("Columbia (US)", "Colombia", "Qattara", "English Channel", "The Hague",
                 "Mafia & Pemba"):
        assert name in docs


def test_the_text_record_writes_names_and_replays_to_the_same_game() -> None:
    from realpolitik.bots import make_bot
    from realpolitik.game import Game
    from realpolitik.record import from_text, to_text

    game = Game(CW, seed=3)
    bot = make_bot("random", seed=3)
    for _ in range(4):  # Spring and Fall 1870, and what follows
        for power in game.powers_to_order():
            game.submit(power, "\n".join(str(o) for o in bot.orders(game.position, power,
                                                                      game.rules)))
        game.process()
    text = to_text(game)
    assert "F London" in text
    orders = [line for line in text.splitlines() if ":" in line and not line.startswith("[")]
    assert not any(re.search(r"\b[AF] [eafnsoEAFNSO]?\d+\b", line) for line in orders)
    replayed = from_text(text)
    assert dict(replayed.position.units) == dict(game.position.units)
    assert dict(replayed.position.centers) == dict(game.position.centers)
