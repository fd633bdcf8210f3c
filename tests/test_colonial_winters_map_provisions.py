"""The provisions of Colonial Winters on the variant's own (reconstructed) map, each by its
number, for those whose map test is not in ``test_colonial_winters_map_rules.py``,
``test_colonial_winters_map.py`` or ``test_colonial_winters_orders.py``: small boards of real
spaces (Liverpool, the Irish Sea, Biscay, Greece, the Azores, the Bering Sea...) adjudicated
under the variant's hooks. The same provisions on the synthetic mini-world are in
``test_colonial_winters_rules.py``."""

from __future__ import annotations

import random

import pytest

from realpolitik.adjudication import adjudicate
from realpolitik.game import Game
from realpolitik.geography import Terrain, UnitType
from realpolitik.legality import adjustment_counts, check_order, retreat_options
from realpolitik.listing import legal_orders
from realpolitik.notation import parse_order
from realpolitik.orders import Build
from realpolitik.position import DislodgedUnit, Position, Unit
from realpolitik.variant import Variant, load_variant
from realpolitik.variants.colonial_winters.rules import ColonialWinters


@pytest.fixture(scope="module")
def world() -> Variant:
    return load_variant("colonial_winters")


def hooks_of(variant: Variant) -> ColonialWinters:
    hooks = variant.hooks
    assert isinstance(hooks, ColonialWinters)
    return hooks


def board(variant: Variant, units: list[str], phase: str = "S1871M",
          dislodged: tuple[DislodgedUnit, ...] = (), **centers: str) -> Position:
    """A position of ``units`` ("power A loc"), all active, with the state the hooks work
    out for it (the sea-superiority table of these units)."""
    made = [Unit(p, UnitType(t), loc) for p, t, loc in (u.split() for u in units)]
    pos = Position.build(variant, phase, made, centers, dislodged=dislodged)
    return pos.replace(state={**variant.hooks.initial_state(pos), "inactive": []})


def results(pos: Position, *orders: str) -> dict[str, str]:
    resolution = adjudicate(pos, [parse_order(o, pos) for o in orders])
    return {str(r.order): f"{r.result.value}: {r.reason}" for r in resolution.results}


# English fleets on England's own coasts: they hold sea superiority over small boards without
# standing in the seas the tests use
ENGLISH_COAST_FLEETS = ["england F e8", "england F e2", "england F e3", "england F e7"]


def test_rule_1_the_regular_rules_apply_on_the_map(world: Variant) -> None:
    # Paris attacks Brest: a bounce 1 against 1, a supported attack dislodges, a support cut
    # by an attack from elsewhere but not by the unit it is aimed at
    units = ["france A e66", "spain A e65", "france A e64", "spain A e69"]
    assert results(board(world, units), "A e66 - e65")["A E66 - E65"].startswith("fails")
    done = results(board(world, units), "A e66 - e65", "A e64 S A e66 - e65")
    assert done["A E66 - E65"].startswith("succeeds: A Paris - Brest moved, dislodging")
    done = results(board(world, units), "A e66 - e65", "A e64 S A e66 - e65", "A e69 - e64")
    assert done["A E64 S A E66 - E65"].startswith("fails")  # cut from Madrid
    assert done["A E66 - E65"].startswith("fails")
    done = results(board(world, units), "A e66 - e65", "A e64 S A e66 - e65",
                   "A e65 - e64")
    assert done["A E64 S A E66 - E65"].startswith("succeeds")  # not cut by its target


def test_rule_2_armies_retreat_when_able_on_the_map(world: Variant) -> None:
    # a French army dislodged from Bordeaux by Spain, a French fleet dislodged from Biscay
    army = DislodgedUnit(Unit("france", UnitType.ARMY, "e64"), "e69", False)
    fleet = DislodgedUnit(Unit("france", UnitType.FLEET, "17"), "31", False)
    pos = board(world, ["spain A e64", "england F 17"], phase="S1871R",
                dislodged=(army, fleet))
    options = retreat_options(pos, army)
    assert options and "e69" not in options
    problem = check_order(pos, parse_order("A e64 disband", pos))
    assert problem is not None and "must retreat" in problem[1]
    assert check_order(pos, parse_order("F 17 disband", pos)) is None
    hooks = world.hooks
    drawn = {hooks.unordered_retreat(pos, army, options, random.Random(s)) for s in range(40)}
    assert drawn == set(options)
    assert hooks.unordered_retreat(pos, fleet, retreat_options(pos, fleet),
                                   random.Random(0)) is None


def test_rule_3_builds_on_the_map_are_capped_by_owned_home_centres(world: Variant) -> None:
    # England (no sea superiority here: Spain holds it) owns London, Liverpool and five
    # colonies with one unit: 6 more centres than units, but 2 home centres
    centers = dict.fromkeys(["e5", "e8", "n19", "n20", "f64", "o12", "a41"], "england")
    units = ["england A e6", "spain F 17", "spain F 18", "spain F 19"]
    pos = board(world, units, phase="W1871A", **centers)
    assert hooks_of(world).holder(pos) == "spain"
    assert adjustment_counts(pos)["england"] == 2
    assert check_order(pos, parse_order("build A n19", pos)) is None  # Halifax, a colony
    assert check_order(pos, parse_order("build A e5", pos)) is None
    # half of each type at home: an army in a colony alone is voided, with one at home not
    voids = world.hooks.void_adjustments(pos, "england", [Build(UnitType.ARMY, "n19")])
    assert voids and "half" in voids[0]
    assert not world.hooks.void_adjustments(
        pos, "england", [Build(UnitType.ARMY, "e5"), Build(UnitType.ARMY, "n19")])


def test_rule_4a_the_holder_convoys_normally_on_the_map(world: Variant) -> None:
    # England's two-fleet convoy from Liverpool to Bordeaux survives an attack on Biscay
    units = ["england A e5", "england F 31", "england F 17", "england F e8", "france F e65",
             "france F e62"]
    pos = board(world, units)
    assert hooks_of(world).tier(pos, "england") == "a"
    done = results(pos, "A e5 - e64", "F 31 C A e5 - e64", "F 17 C A e5 - e64", "F e65 - 17")
    assert done["A E5 - E64"] == "succeeds: A Liverpool - Bordeaux moved by convoy."


def test_rule_4a_ii_the_holders_fleets_at_sea_need_one_more_support(world: Variant) -> None:
    # England has 3 of the 5 fleets: its fleet in Biscay holds 2 against a supported attack
    units = ["england F 17", "england F 31", "england F 18", "france F e65", "france F e64"]
    done = results(board(world, units), "F e65 - 17", "F e64 S F e65 - 17")
    assert done["F E65 - 17"] == ("fails: F Brest - Bay of Biscay failed: it bounced off F Bay "
                                  "of Biscay (2 vs 2), which needs 1 more support than usual "
                                  "to be dislodged.")
    # with no majority (3 of 6 fleets), the same attack dislodges
    done = results(board(world, [*units, "spain F e68"]), "F e65 - 17", "F e64 S F e65 - 17")
    assert done["F E65 - 17"].startswith("succeeds")


def test_rule_4b_the_second_places_two_fleet_convoy_fails_when_attacked(world: Variant
                                                                        ) -> None:
    units = ["usa A e5", "usa F 31", "usa F 17", "england F 18", *ENGLISH_COAST_FLEETS]
    pos = board(world, units)
    assert hooks_of(world).tier(pos, "usa") == "b"
    done = results(pos, "A e5 - e64", "F 31 C A e5 - e64", "F 17 C A e5 - e64", "F 18 - 17")
    assert done["A E5 - E64"] == ("fails: A Liverpool - Bordeaux failed: the convoy was broken "
                                  "when F Bay of Biscay was attacked (a fragile convoy).")


def test_rule_4c_fleets_before_armies_and_retreats_to_the_coast(world: Variant) -> None:
    # Spain (4 fleets, third place: tier c) must remove one unit: a fleet
    units = ["spain F e68", "spain F 12", "spain F 17", "spain F 16", "spain A e69",
             "usa F 30", "usa F 33", "usa F 37", "usa F 38", "usa F 39",
             *ENGLISH_COAST_FLEETS, "england F 18", "england F 19", "england F 20",
             "england F 21", "england F 124", "england F 31"]
    pos = board(world, units, phase="W1871A", e68="spain", e69="spain", e70="spain",
                a27="spain")
    assert hooks_of(world).tier(pos, "spain") == "c"
    assert adjustment_counts(pos)["spain"] == -1
    problem = check_order(pos, parse_order("remove A e69", pos))
    assert problem is not None
    assert {o.unit_type for o in legal_orders(pos, "spain").values() for o in o} == {
        UnitType.FLEET}
    # a dislodged Spanish fleet retreats only to a coastal province
    fleet = DislodgedUnit(Unit("spain", UnitType.FLEET, "17"), "31", False)
    moved = [u for u in units if not u.endswith(" 17")]
    after = board(world, moved, phase="S1872R", dislodged=(fleet,))
    options = retreat_options(after, fleet)
    assert options and all(world.map.provinces[o.split("/")[0]].terrain is Terrain.COAST
                           for o in options)


def test_rule_4d_three_fleets_or_fewer_build_one_fleet_a_year(world: Variant) -> None:
    centers = dict.fromkeys(["e62", "e64", "e65", "e66"], "france")
    pos = board(world, ["france F 17", "spain F 12", "spain F 11", *ENGLISH_COAST_FLEETS],
                phase="W1871A", **centers)
    assert hooks_of(world).tier(pos, "france") == "e"  # (one fleet, third place)
    builds = [Build(UnitType.FLEET, "e64"), Build(UnitType.FLEET, "e65")]
    voids = world.hooks.void_adjustments(pos, "france", builds)
    assert list(voids) == [1] and "at most 1 fleet" in voids[1]


def test_rule_5_sea_superiority_and_most_armies_win_on_the_map(world: Variant) -> None:
    teams = [[p] for p in world.power_ids]
    units = [*ENGLISH_COAST_FLEETS, "england A e5", "england A e6", "france A e66"]
    won = world.hooks.victory(board(world, units, phase="W1871A"), teams, 125)
    assert won is not None and "England won with sea superiority and 2 of the 3 armies" \
        in won.summary
    level = world.hooks.victory(board(world, [*units, "france A e65"], phase="W1871A"),
                                teams, 125)
    assert level is None  # 2 of 4: no majority


def test_rule_6e_units_exchange_places_only_across_the_two_route_borders(world: Variant
                                                                         ) -> None:
    # Missouri and Illinois face each other across the Mississippi: two armies swap
    pos = board(world, ["usa A n46", "mexico A n52"])
    done = adjudicate(pos, [parse_order(o, pos) for o in ("A n46 - n52", "A n52 - n46")])
    assert done.units["n52"].power == "usa" and done.units["n46"].power == "mexico"
    # Paris and Brest do not: a head-to-head bounce
    pos = board(world, ["france A e66", "spain A e65"])
    done = adjudicate(pos, [parse_order(o, pos) for o in ("A e66 - e65", "A e65 - e66")])
    assert done.units["e66"].power == "france"


def test_rule_6f_the_azores_a_sea_is_a_supply_centre_a_fleet_owns(world: Variant) -> None:
    azores = world.map.provinces["54"]
    assert azores.terrain is Terrain.SEA and azores.is_supply_center
    pos = board(world, ["england F 54"], phase="F1871M")
    owners = world.hooks.center_owners(pos, pos.units, world.map.supply_centers())
    assert owners["54"] == "england"


def test_rule_6h_switzerland_is_impassable_on_the_map(world: Variant) -> None:
    impassable = [p for p, v in world.map.provinces.items() if v.terrain is Terrain.IMPASSABLE]
    assert impassable == ["swi"]  # (the others the rule mentions are not known)
    assert not world.map.army_neighbours("swi")
    for near in ("e44", "e61", "e62", "e35"):
        assert "swi" not in world.map.army_neighbours(near)


def test_rule_6k_no_canals_on_the_map(world: Variant) -> None:
    # Kiel's west coast does not reach the Baltic; Panama's two coasts do not join the
    # Caribbean and the Pacific
    pos = board(world, ["germany F e26/wc", "usa F s8/nc"])
    assert check_order(pos, parse_order("F e26/wc - 125", pos)) is not None
    assert check_order(pos, parse_order("F s8/nc - 51", pos)) is not None
    caribbean = {n.split("/")[0] for n in world.map.fleet_neighbours("s8/nc")}
    pacific = {n.split("/")[0] for n in world.map.fleet_neighbours("s8/sc")}
    assert "46" in caribbean and pacific == {"51"}
    assert "51" not in world.map.fleet_neighbours("46")


def test_rule_6l_fleets_support_into_the_south_pole_they_cannot_enter(world: Variant) -> None:
    pos = board(world, ["england A 204", "england F 126", "france F 127"])
    assert check_order(pos, parse_order("F 126 S A 204", pos)) is None
    assert check_order(pos, parse_order("F 126 - 204", pos)) is not None
    assert not world.map.army_neighbours("204")  # armies only by convoy


def test_rule_6l_an_army_is_convoyed_to_the_south_pole(world: Variant) -> None:
    pos = board(world, ["england A o12", "england F 81", "england F 126"])
    done = results(pos, "A o12 - 204", "F 81 C A o12 - 204", "F 126 C A o12 - 204")
    assert done["A O12 - 204"].startswith("succeeds")


def test_rule_6m_the_bering_crossing_on_the_map(world: Variant) -> None:
    alone = results(board(world, ["usa A n1"]), "A n1 - a3")
    assert alone["A N1 - A3"].startswith("succeeds")
    watched = results(board(world, ["usa A n1", "russia F 97"]), "A n1 - a3")
    assert "closed by F Bering Sea." in watched["A N1 - A3"]
    own = results(board(world, ["usa A n1", "usa F 97"]), "A n1 - a3")
    assert own["A N1 - A3"].startswith("succeeds")


def test_rule_7a_greece_is_defended_supported_and_annihilated(world: Variant) -> None:
    units = ["neutral A e56", "turkey A e55", "turkey A e107", "italy F 8"]
    done = results(board(world, units), "A e55 - e56", "A e107 S A e55 - e56", "F 8 S A e56")
    assert done["A E55 - E56"].startswith("fails")  # 2 against the neutral's 2
    pos = board(world, units)
    resolution = adjudicate(pos, [parse_order(o, pos)
                                  for o in ("A e55 - e56", "A e107 S A e55 - e56")])
    assert resolution.units["e56"].power == "turkey"
    assert not resolution.dislodged  # annihilated, no retreat


def test_rule_7d_the_azores_fleet_needs_one_more_support(world: Variant) -> None:
    units = ["neutral F 54", "england F 30", "england F 16", "england F 50"]
    done = results(board(world, units), "F 30 - 54", "F 16 S F 30 - 54")
    assert done["F 30 - 54"].startswith("fails")  # 2 against 1 + 1
    done = results(board(world, units), "F 30 - 54", "F 16 S F 30 - 54", "F 50 S F 30 - 54")
    assert done["F 30 - 54"].startswith("succeeds")


def test_rule_7f_holland_passes_to_england_when_germany_lands_in_irian(world: Variant) -> None:
    game = Game(world)
    start = board(world, ["neutral A e23", "neutral F 110", "germany F 135", "england F 31",
                          "england F 17"])
    assert start.state["protectorates"]["holland"]["units"] == ["e23", "110"]  # type: ignore[index, call-overload]
    game._position = start  # noqa: SLF001
    game.submit("germany", "F 135 - o3")
    game.process()
    after = game.position
    assert after.units["o3"].power == "germany"
    assert after.units["e23"].power == "england" and after.units["110"].power == "england"


def test_rule_7g_argentina_inherits_chiles_home_centres(world: Variant) -> None:
    centers = dict.fromkeys(["s41", "s42", "s43"], "argentina")
    units = ["argentina A s41", "argentina A s42", "argentina A s43"]
    before = board(world, units, phase="F1871M", **centers)
    resolution = adjudicate(before, [])
    after = Position.build(world, "W1871A", before.units.values(), centers)
    after = after.replace(state=world.hooks.next_state(before, resolution, after))
    assert after.state["inherited"] == {"argentina": ["s41", "s42", "s43"]}
    assert {"s41", "s42", "s43"} <= set(hooks_of(world).home_centres(after, "argentina"))


def test_rule_7h_england_builds_a_fleet_with_no_home_centre(world: Variant) -> None:
    # London and Liverpool lost; Halifax and Capetown owned with one unit: one fleet
    centers = {"n19": "england", "f64": "england", "e5": "france", "e8": "france"}
    pos = board(world, ["england F 31"], phase="W1871A", **centers)
    assert hooks_of(world).holder(pos) == "england"
    assert adjustment_counts(pos)["england"] == 1
    resolution = adjudicate(pos, [parse_order("build F n19", pos)])
    assert resolution.results[0].succeeded
    # without sea superiority, no home centre: no build
    pos = board(world, ["england F 31", "spain F 17", "spain F 18"], phase="W1871A",
                **centers)
    assert adjustment_counts(pos)["england"] == 0


def test_rule_7i_edinburgh_for_britain(world: Variant) -> None:
    # England owns every space of Britain (its seas empty of foreign units): one army more in
    # Edinburgh beyond its home count
    britain = ["e2", "e3", "e4", "e5", "e6", "e7", "e8"]
    centers = {c: "england" for c in britain if world.map.provinces[c].is_supply_center}
    pos = board(world, ["england F 31"], phase="W1871A", **centers)
    owned = {s: "england" for s in britain if not world.map.provinces[s].is_supply_center}
    pos = pos.replace(state={**pos.state, "owned": owned})
    sites, extra = hooks_of(world).special_allowance(pos, "england")
    assert sites == {"e4"} and extra == 1
    # a foreign fleet in the Irish Sea: Britain is not wholly owned
    pos = board(world, ["england F e7", "france F 31"], phase="W1871A", **centers)
    pos = pos.replace(state={**pos.state, "owned": owned})
    assert hooks_of(world).special_allowance(pos, "england") == (frozenset(), 0)


def test_rule_9_the_south_pole_is_a_home_centre_of_its_owner(world: Variant) -> None:
    pos = board(world, ["england A 204"], phase="W1871A", **{"204": "england"})
    assert "204" in hooks_of(world).home_centres(pos, "england")
    assert "204" not in hooks_of(world).home_centres(board(world, []), "england")


def test_rule_10_the_map_starts_in_1870_and_units_without_orders_hold(world: Variant) -> None:
    game = Game(world)
    assert str(game.phase) == "S1870M"
    before = dict(game.position.units)
    game.process()
    assert str(game.phase) == "F1870M"
    assert dict(game.position.units) == before
