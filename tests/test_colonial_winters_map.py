"""The Colonial Winters map (a reconstruction) and its 1870 start.

What the key and the rules of the variant fix is checked against the data: the 552 spaces,
the centres, the multi-coast provinces, every adjacency fact the text gives, the 1870 units and
fleet table. The invariants of the design note's section 5.3 are checked on the whole map. A
seeded random game and a case for ``realpolitik adjudicate`` show that the variant plays.
"""

from __future__ import annotations

import io
import json
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from realpolitik import savefile
from realpolitik.cli import main
from realpolitik.game import Game
from realpolitik.geography import Terrain, UnitType, province_of
from realpolitik.legality import check_order
from realpolitik.listing import legal_orders
from realpolitik.notation import parse_order
from realpolitik.position import Position
from realpolitik.variant import Variant, load_variant
from realpolitik.variant_rules import NEUTRAL

ART = Path(__file__).resolve().parent.parent / "realpolitik" / "render" / "colonial_winters.json"

DOUBLE_COASTS = {
    "e26", "e57", "e70", "e72", "e73", "e86", "e92", "e102", "a2", "a14", "a24", "a28", "a35",
    "f7", "f66", "n9", "n12", "n18", "n48", "n53", "n54", "n55", "n62", "n67", "n76", "n86",
    "n89", "n91", "s8",
}
"""The 29 provinces the key marks DC (Kiel, Bulgaria, Cadiz, ... Windsor, Panama)."""
TRIPLE_COASTS = {"e81", "n49", "n56"}
"""Nejd, Wisconsin and New York: the key's three TC provinces."""

LAKES = {"1", "112", "113", "115", "116", "117", "130"}
"""Water spaces joined to no ocean by design: the Caspian, and the Great Lakes above Niagara
(Erie, St Clair, Huron, Michigan, Superior, Green Bay). "There are no canals" (rule 6(k))."""

CONTINENT_COUNTS = {"e": 109, "a": 55, "o": 21, "f": 81, "n": 91, "s": 46}


@pytest.fixture(scope="module")
def cw() -> Variant:
    return load_variant("colonial_winters")


def army(variant: Variant, a: str) -> frozenset[str]:
    return variant.map.army_neighbours(a)


def fleet_provinces(variant: Variant, province: str) -> set[str]:
    """The provinces a fleet somewhere in ``province`` may move to."""
    the_map = variant.map
    return {province_of(n) for loc in (province, *the_map.coasts(province))
            if loc in the_map.locations for n in the_map.fleet_neighbours(loc)}


# -- the spaces of the key ---------------------------------------------------------------------


def test_the_key_has_552_spaces_by_continent(cw: Variant) -> None:
    # and Switzerland, impassable and unnumbered (rule 6(h)), with no border at all
    assert cw.map.provinces["swi"].terrain is Terrain.IMPASSABLE
    assert not cw.map.army_neighbours("swi") and not fleet_provinces(cw, "swi")
    ids = set(cw.map.provinces) - {"swi"}
    assert len(ids) == 552
    by_prefix = Counter(p[0] for p in ids if p[0].isalpha())
    assert dict(by_prefix) == CONTINENT_COUNTS
    seas = {p for p in ids if p.isdigit() and int(p) <= 144}
    assert seas == {str(n) for n in range(1, 145)}
    assert {p for p in ids if p.isdigit() and int(p) >= 200} == {"200", "201", "202", "203",
                                                                  "204"}
    terrain = Counter(p.terrain for p in cw.map.provinces.values())
    assert terrain[Terrain.SEA] == 144
    assert terrain[Terrain.LAND] + terrain[Terrain.COAST] == 408  # 403 land + 5 polar


def test_supply_centres_and_home_centres(cw: Variant) -> None:
    centres = set(cw.map.supply_centers())
    # 243 printed, plus our decision on the 8 uncertain ones: the four defended neutrals without
    # a "+" and Upper Peninsula are centres, the three seas with a "+" are not.
    assert len(centres) == 248
    assert {"e56", "a1", "a21", "s34", "n50"} <= centres
    assert not {"135", "136", "137"} & centres
    assert {"54", "200", "204"} <= centres  # the Azores (6(f)) and the Poles
    assert [p for p in centres if cw.map.provinces[p].terrain is Terrain.SEA] == ["54"]
    homes = {power: set(cw.home_centers(power)) for power in cw.power_ids}
    assert sum(len(h) for h in homes.values()) == 56
    assert homes["england"] == {"e8", "e5"}
    assert homes["usa"] == {"n54", "n57", "n56", "n85", "n87"}
    assert homes["germany"] == {"e26", "e32", "e27", "e30", "e35", "e34"}
    assert homes["transvaal"] == {"f59", "f63", "f64"}


def test_seventeen_powers_with_distinct_colours(cw: Variant) -> None:
    assert len(cw.powers) == 17
    colours = [p.colour.lower() for p in cw.powers]
    assert len(set(colours)) == 17


def test_coasts_double_and_triple(cw: Variant) -> None:
    with_coasts = {p.id: p.coasts for p in cw.map.provinces.values() if p.coasts}
    assert {p for p, c in with_coasts.items() if len(c) == 2} == DOUBLE_COASTS
    assert {p for p, c in with_coasts.items() if len(c) == 3} == TRIPLE_COASTS
    for coasts in with_coasts.values():
        for coast in coasts:
            seas = [n for n in cw.map.fleet_neighbours(coast)
                    if cw.map.provinces[province_of(n)].terrain is Terrain.SEA]
            assert seas, f"{coast} touches no water"


def test_key_codes_and_names_parse(cw: Variant) -> None:
    position = Position.initial(cw)
    # the zine's notation: continent letter and number, seas by number
    assert str(parse_order("F e109 - 140", position)) == "F E109 - 140"
    assert str(parse_order("England: F e109 H", position)) == "F E109 H"
    assert str(parse_order("F Gibraltar - Pillars", position)) == "F E109 - 140"
    assert str(parse_order("A Kyoto - Osaka", position)) == "A A10 - A13"
    assert str(parse_order("F Stockholm - sea 24", position)) == "F E12 - 24"
    # the two Columbias of the key: the name is shared, each place has its own as well
    assert cw.shared_names["columbia"] == ("n21", "s10")
    assert cw.names["columbia (us)"] == "n21" and cw.names["colombia"] == "s10"


# -- the invariants of section 5.3 ----------------------------------------------------------


def test_borders_are_symmetric_per_unit_type(cw: Variant) -> None:
    the_map = cw.map
    for province in the_map.provinces:
        for other in the_map.army_neighbours(province):
            assert province in the_map.army_neighbours(other)
    for loc in the_map.locations:
        for other in the_map.fleet_neighbours(loc):
            assert loc in the_map.fleet_neighbours(other), (loc, other)


def test_units_cross_only_what_their_terrain_allows(cw: Variant) -> None:
    the_map = cw.map
    terrain = {p: v.terrain for p, v in the_map.provinces.items()}
    for province in the_map.provinces:
        for other in the_map.army_neighbours(province):
            assert terrain[province] is not Terrain.SEA and terrain[other] is not Terrain.SEA
    for loc in the_map.locations:
        if the_map.fleet_neighbours(loc):
            assert terrain[province_of(loc)] in (Terrain.SEA, Terrain.COAST)
    for province, kind in terrain.items():
        if kind is Terrain.COAST and not the_map.coasts(province):
            # every single-coast coastal province touches water (or, on the ice cap, nothing)
            assert any(terrain[n] is Terrain.SEA for n in fleet_provinces(cw, province)), province


def test_one_coast_touches_one_stretch_of_water(cw: Variant) -> None:
    """The water spaces one coast touches are joined to each other by sea among themselves,
    else a fleet would sail across land. Ottawa's south coast is the one exception, by its two
    coasts of the key: it runs from Lake Erie round the Niagara peninsula to Lake Ontario."""
    the_map = cw.map
    seas = {p for p, v in the_map.provinces.items() if v.terrain is Terrain.SEA}
    split = []
    for loc in the_map.locations:
        province = province_of(loc)
        if province in seas or (the_map.coasts(province) and loc == province):
            continue
        touching = {province_of(n) for n in the_map.fleet_neighbours(loc)} & seas
        if not touching:
            continue
        start = min(touching)
        seen, todo = {start}, [start]
        while todo:
            for other in {province_of(n) for n in the_map.fleet_neighbours(todo.pop())}:
                if other in touching and other not in seen:
                    seen.add(other)
                    todo.append(other)
        if seen != touching:
            split.append(loc)
    assert split == ["n12/sc"]


def test_every_sea_is_joined_to_the_ocean_unless_a_lake(cw: Variant) -> None:
    seas = {p for p, v in cw.map.provinces.items() if v.terrain is Terrain.SEA}
    joined = {p: {n for n in fleet_provinces(cw, p) if n in seas} for p in seas}

    def reach(start: str) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            for other in joined[todo.pop()] - seen:
                seen.add(other)
                todo.append(other)
        return seen

    ocean = reach("30")
    assert seas - ocean == LAKES
    assert reach("117") == LAKES - {"1"}  # the upper Great Lakes are one system
    assert reach("1") == {"1"}            # the Caspian
    for river in ("45", "7", "114"):      # the Mississippi, the Nile, the St Lawrence
        assert river in ocean


def test_every_land_space_is_reachable(cw: Variant) -> None:
    """By armies, possibly by convoy; the South Pole only by the convoy landing of rule 6(l)
    that waits for the variant's rules."""
    the_map = cw.map
    terrain = {p: v.terrain for p, v in the_map.provinces.items()}
    seas = {p for p, t in terrain.items() if t is Terrain.SEA}
    near = {p: set(the_map.army_neighbours(p)) for p in the_map.provinces}
    for province in the_map.provinces:
        for other in fleet_provinces(cw, province):
            if terrain[province] is Terrain.COAST and other in seas:
                near[province].add(other)
                near[other].add(province)
            if province in seas and other in seas:
                near[province].add(other)
    seen, todo = {"e89"}, ["e89"]
    while todo:
        for other in near[todo.pop()] - seen:
            seen.add(other)
            todo.append(other)
    land = {p for p, t in terrain.items() if t in (Terrain.LAND, Terrain.COAST)}
    assert land - seen == {"204"}


def test_the_poles(cw: Variant) -> None:
    the_map = cw.map
    assert the_map.army_neighbours("200") == {"201", "202", "203"}  # 6(l): three provinces
    assert not fleet_provinces(cw, "200")
    # 6(i): several provinces border the ice cap; on this map all of them also have a sea coast
    polar = {"200", "201", "202", "203"}
    edge = {p for area in polar for p in the_map.army_neighbours(area)} - polar
    assert edge == {"n16", "n3", "e103", "a5", "a1"}
    assert all(the_map.provinces[p].terrain is Terrain.COAST for p in edge)
    assert all(not fleet_provinces(cw, area) for area in polar)
    assert not the_map.army_neighbours("204") and not fleet_provinces(cw, "204")
    support = {frozenset(map(province_of, pair)) for pair in the_map.support_borders}
    beside = {next(iter(pair - {"204"})) for pair in support if "204" in pair}
    assert beside == {"126", "127"}  # the Ross and Weddell Seas: two neighbours, both water
    assert all(the_map.provinces[s].terrain is Terrain.SEA for s in beside)


def test_rule_6i_the_provinces_on_the_polar_icecap_are_coastal(cw: Variant) -> None:
    the_map = cw.map
    icecap = {"200", "201", "202", "203"}  # the North Pole and the three polar areas
    shore = {p for area in icecap for p in the_map.army_neighbours(area)} - icecap
    assert shore == {"n3", "n16", "e103", "a5", "a1"}
    for province in shore:
        # coastal: a fleet may stand there and leave it
        assert the_map.provinces[province].terrain is Terrain.COAST, province
        assert fleet_provinces(cw, province), province
    # fleet borders along the ice cap: two shore provinces that share a border share a coast
    # there too (on this reconstruction none are next to each other, and every one of them
    # also borders a sea, so 6(i) needs no pseudo-coast: the check stands for the data)
    for a in shore:
        for b in shore & the_map.army_neighbours(a):
            assert b in fleet_provinces(cw, a), (a, b)
    assert all(any(the_map.is_sea(s) for s in fleet_provinces(cw, p)) for p in shore)


def test_corners_and_passages_are_consistent(cw: Variant) -> None:
    the_map = cw.map
    corners = {c.id: c for c in cw.rules.corners}
    assert corners["sicily"].ring == ("e50", "10", "e49", "131")
    assert corners["southern_africa"].ring == ("f72", "f70", "f69", "f68", "f66")  # 6(c)
    for corner in corners.values():
        ring = corner.ring
        # every two spaces of a corner meet, at least at its point; the crossings are the
        # pairs that are not next to each other round it
        for i, a in enumerate(ring):
            for j, b in enumerate(ring):
                if i < j:
                    assert b in the_map.army_neighbours(a) | fleet_provinces(cw, a), \
                        (corner.id, a, b)
                    beside = (j - i) % len(ring) in (1, len(ring) - 1)
                    assert corner.diagonal(a, b) is not beside, (corner.id, a, b)
    gates = {frozenset((g.a, g.b)): g for g in cw.rules.conditional_borders}
    for (a, b), watch, unit in ((("e22", "e21"), "22", None), (("e11", "e21"), "22", None),
                                (("n86", "n12"), "113", UnitType.ARMY),
                                (("e72", "e73"), "4", UnitType.ARMY),
                                (("n1", "a3"), "97", UnitType.ARMY)):
        gate = gates[frozenset((a, b))]
        assert gate.watch == watch and gate.unit_type is unit
        assert b in the_map.army_neighbours(a)
        assert watch in fleet_provinces(cw, a) or watch in fleet_provinces(cw, b) or \
            unit is UnitType.ARMY


# -- the facts of the text (adjacency_constraints.csv of the design note) ------------------


def test_copenhagen_and_the_kattegat(cw: Variant) -> None:  # 6(a)
    assert "22" in fleet_provinces(cw, "e21")
    assert {"e22", "e11"} <= fleet_provinces(cw, "e21")


def test_the_sicily_corner(cw: Variant) -> None:  # 6(b)
    assert "e49" in cw.map.army_neighbours("e50") and "e49" in fleet_provinces(cw, "e50")
    assert "131" in fleet_provinces(cw, "10")


def test_the_lake_st_clair_passage(cw: Variant) -> None:  # 6(d)
    the_map = cw.map
    assert {"115", "112", "n86", "n12"} <= fleet_provinces(cw, "113")
    for flank in ("n86", "n12"):  # St Clair touches both coasts of each flank
        assert all("113" in {province_of(n) for n in the_map.fleet_neighbours(c)}
                   for c in the_map.coasts(flank))
    assert "n12" in the_map.army_neighbours("n86")
    assert "n12" not in fleet_provinces(cw, "n86")  # only through the lake
    for flank in ("e72", "e73"):  # the Sea of Marmara, by analogy
        assert "4" in fleet_provinces(cw, flank)
        assert ({"e72", "e73"} - {flank}).isdisjoint(fleet_provinces(cw, flank))
    assert {"2", "5"} <= fleet_provinces(cw, "4")
    # a passage's water touches only the waters at its ends and its two flanks
    assert fleet_provinces(cw, "113") == {"115", "112", "n86", "n12"}
    assert fleet_provinces(cw, "4") == {"2", "5", "e72", "e73"}


def test_anchorage_kamchatka_panama_colombia(cw: Variant) -> None:  # 6(m), 7(b)
    assert "a3" in cw.map.army_neighbours("n1")
    assert "a3" not in fleet_provinces(cw, "n1")
    assert "97" in fleet_provinces(cw, "n1") and "97" in fleet_provinces(cw, "a3")
    assert "s10" in cw.map.army_neighbours("s8")


def test_the_mississippi_is_crossed_by_armies(cw: Variant) -> None:  # 6(j)
    banks = {p for p in fleet_provinces(cw, "45") if cw.map.provinces[p].terrain is not
             Terrain.SEA}
    assert {"n44", "n67", "n46", "n52", "n48", "n49"} <= banks
    crossings = [(a, b) for a in banks for b in cw.map.army_neighbours(a) if b in banks
                 and b not in fleet_provinces(cw, a)]
    assert crossings  # armies cross the river where fleets cannot go along a bank
    assert "n12" in cw.map.army_neighbours("n56")  # the Thousand Islands
    # two armies, or an army and a fleet, exchange places across them (the swap borders)
    swaps = {frozenset((s.a, s.b)): s for s in cw.rules.swap_borders}
    assert {frozenset(p) for p in crossings} <= set(swaps)
    assert {frozenset(("n46", "n52")), frozenset(("n56", "n12"))} <= set(swaps)
    for pair, swap in swaps.items():
        a, b = sorted(pair)
        assert b in cw.map.army_neighbours(a)
        assert any({a, b} <= fleet_provinces(cw, river) for river in ("45", "114")), (a, b)
        if {a, b} <= fleet_provinces(cw, "45"):
            assert b not in fleet_provinces(cw, a)  # across the river, not along a bank
        assert swap.allows(a, b, UnitType.ARMY, UnitType.ARMY)
        assert swap.allows(a, b, UnitType.ARMY, UnitType.FLEET)
        assert not swap.allows(a, b, UnitType.FLEET, UnitType.FLEET)


def test_minor_country_seas_belong_to_their_countries(cw: Variant) -> None:
    assert {"n25", "n27"} & fleet_provinces(cw, "90")   # Golden Gate: California
    assert {"e2", "e5"} <= fleet_provinces(cw, "31")    # the Irish Sea: Britain
    assert {"f8", "f10"} <= fleet_provinces(cw, "7")    # the Nile: Egypt
    assert {"e92", "e94"} & fleet_provinces(cw, "3")    # Azov: Ukraine
    assert {"o1", "o2"} <= fleet_provinces(cw, "110")   # Indonesia: Holland
    assert "116" in fleet_provinces(cw, "n85")          # Chicago's fleet is on Lake Michigan


# -- the 1870 start -----------------------------------------------------------------------


def test_every_start_unit_stands_on_a_legal_space(cw: Variant) -> None:
    assert len(cw.start_units) == 108
    kinds = Counter(u.type for u in cw.start_units)
    assert kinds == {UnitType.ARMY: 63, UnitType.FLEET: 45}
    for unit in cw.start_units:
        assert cw.map.can_hold(unit.type, unit.location), unit
        if cw.map.coasts(province_of(unit.location)) and unit.type is UnitType.FLEET:
            assert "/" in unit.location  # a fleet on a multi-coast province names its coast
    neutral = Counter(u.type for u in cw.rules.neutral_units)
    assert neutral == {UnitType.ARMY: 19, UnitType.FLEET: 3}
    for unit in cw.rules.neutral_units:
        assert cw.map.can_hold(unit.type, unit.location), unit
    bonus = {u.location: u.defence_bonus for u in cw.rules.neutral_units if u.defence_bonus}
    assert bonus == {"e23": 1, "e24": 1, "54": 1}


def test_fleet_table_and_sea_superiority_at_start(cw: Variant) -> None:
    fleets = Counter(u.power for u in cw.start_units if u.type is UnitType.FLEET)
    assert fleets["england"] == 14 and fleets["usa"] == 7 and fleets["france"] == 4
    ranked = sorted(fleets.values(), reverse=True)
    holder = max(fleets, key=lambda p: fleets[p])
    # sea superiority is gained with more fleets than the second and third together (4)
    assert holder == "england" and ranked[0] > ranked[1] + ranked[2]
    position = Position.initial(cw)
    on_board = Counter(u.type for u in position.units.values())
    assert on_board == {UnitType.ARMY: 82, UnitType.FLEET: 48}


def test_1870_ownership(cw: Variant) -> None:
    owned = Counter(cw.start_centers.values())
    assert sum(owned.values()) == 110  # England's three Indian centres included
    assert owned["england"] == 21 and owned["russia"] == 9 and owned["spain"] == 5
    balance = {p: owned[p] - sum(1 for u in cw.start_units if u.power == p)
               for p in cw.power_ids}
    assert balance == {**dict.fromkeys(cw.power_ids, 0), "england": 1, "russia": 2, "spain": -1}


# -- it plays -------------------------------------------------------------------------------


def test_random_legal_play_runs_and_replays(cw: Variant) -> None:
    game = Game(cw, seed=1870)
    rng = random.Random(1870)
    while not game.is_over and game.phase.year <= 1873:
        position = game.position
        assert NEUTRAL not in game.powers_to_order()
        for power in game.powers_to_order():
            listed = legal_orders(position, power)
            picks = [rng.choice(orders) for orders in listed.values() if orders]
            for order in picks:
                assert check_order(position, order) is None, order
            game.submit(power, picks)
        game.process()
    assert game.phase.year == 1874
    assert savefile.loads(savefile.dumps(game)).position == game.position


def test_adjudicate_a_case(capsys: pytest.CaptureFixture[str],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    case = {"id": "cw", "variant": "colonial_winters", "phase": "S1870M",
            "units": {"ENGLAND": ["F e109", "F e8"], "SPAIN": ["A e70"]},
            "orders": {"ENGLAND": ["F Gibraltar - Pillars", "F London - Channel"],
                       "SPAIN": ["A Cadiz - Gibraltar"]}}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(case)))
    assert main(["adjudicate"]) == 0
    data = json.loads(capsys.readouterr().out)
    results = {r["order"]: r["result"] for r in data["order_results"]}
    assert results == {"F E109 - 140": "succeeds", "F E8 - 18": "succeeds",
                       "A E70 - E109": "succeeds"}
    assert data["units_after"] == {"ENGLAND": ["F 140", "F 18"], "SPAIN": ["A E109"]}


def test_the_picture_covers_every_location_and_says_reconstructed(cw: Variant) -> None:
    art = json.loads(ART.read_text())
    assert "reconstructed" in art["note"].lower()
    assert set(art["spaces"]) == set(cw.map.provinces)
    assert art["spaces"]["swi"]["terrain"] == "impassable"
    assert set(cw.map.locations) <= set(art["units"])
    assert set(cw.map.supply_centers()) <= set(art["centers"])


def test_render_draws_the_world_and_says_it_is_reconstructed(cw: Variant) -> None:
    from realpolitik.render import render

    svg = render(Position.initial(cw))
    assert "Reconstructed map" in svg
    assert svg.count("<path id=") == 553  # the 552 spaces and Switzerland
    assert ">St Petersburg</text>" in svg  # a name where it fits
    for power in cw.powers:
        assert power.colour in svg


def test_the_server_makes_a_game_of_it(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from realpolitik.server import Settings, create_app

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'cw.db'}", background=False))
    with TestClient(app) as client:
        r = client.post("/auth/signup", json={"username": "fred", "password": "correct horse"})
        headers = {"Authorization": f"Bearer {r.json()['token']}"}
        r = client.post("/games", json={"name": "1870", "variant": "colonial_winters",
                                        "join_as": "england"}, headers=headers)
        assert r.status_code == 201, r.text
        game = client.get(f"/games/{r.json()['id']}", headers=headers).json()
        assert game["variant"] == "colonial_winters"
        offered = client.get("/web/variants").json()["variants"]  # the lobby's list
        assert {"id": "colonial_winters", "name": "Colonial Winters (reconstructed map)"}.items() \
            <= next(v for v in offered if v["id"] == "colonial_winters").items()


def test_rome_falls_to_a_fleet_supported_by_four_armies(cw: Variant) -> None:
    """Rule 7(c) needs Rome to have at least four land neighbours on the map."""
    from realpolitik.adjudication import adjudicate
    from realpolitik.position import Unit

    assert cw.map.army_neighbours("e47") == {"e43", "e46", "e48", "e49"}
    units = [Unit(NEUTRAL, UnitType.ARMY, "e47"), Unit("italy", UnitType.FLEET, "10"),
             *(Unit("italy", UnitType.ARMY, p) for p in ("e43", "e46", "e48", "e49"))]
    pos = Position.build(cw, "S1871M", units, {})
    pos = pos.replace(state={**cw.hooks.initial_state(pos), "inactive": []})
    orders = ["F 10 - e47", *(f"A {p} S F 10 - e47" for p in ("e43", "e46", "e48", "e49"))]
    resolution = adjudicate(pos, [parse_order(o, pos) for o in orders])
    outcome = {str(r.order): r.result.value for r in resolution.results}
    assert outcome["F 10 - E47"] == "succeeds"


def test_every_centre_can_be_held_and_the_rules_data_names_real_spaces(cw: Variant) -> None:
    """Every "+" is a space some unit can stand on; colonial.toml (the data of the rules the
    engine does not play yet) names only spaces and units of the map."""
    import tomllib

    for centre in cw.map.supply_centers():
        assert cw.map.can_hold(UnitType.ARMY, centre) or cw.map.can_hold(UnitType.FLEET, centre)
    data = tomllib.loads((Path(__file__).resolve().parent.parent / "realpolitik" / "variants"
                          / "colonial_winters" / "colonial.toml").read_text())
    start = {f"{u.type.value} {u.location}" for u in cw.start_units}
    for power, units in data["inactive"].items():
        assert power in cw.power_ids and set(units) <= start, power
    for country in data["minor_countries"]:
        assert set(country["spaces"]) <= set(cw.map.provinces), country["name"]
        assert set(country["special_build_centres"]) <= set(country["spaces"])
        assert all(cw.map.provinces[c].is_supply_center for c in country["special_build_centres"])
    assert len([c for c in data["minor_countries"] for _ in c["special_build_centres"]]) == 14
