"""The rules of Colonial Winters on the variant's own (reconstructed) map: the 1870 table of
sea superiority, inactive units, the Church, Panama and Colombia, the one-fleet powers,
Copenhagen, the special build centres, the API, and seeded random games from 1870 to 1920
under every policy set with the invariants checked after every phase."""

from __future__ import annotations

from typing import Any

import pytest
from test_colonial_winters_games import POLICY_SETS, play

from realpolitik import savefile
from realpolitik.adjudication import adjudicate
from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.legality import check_order, normalize_order
from realpolitik.listing import legal_orders
from realpolitik.notation import parse_order
from realpolitik.position import Position, Unit
from realpolitik.variant import Variant, load_variant
from realpolitik.variants.colonial_winters.rules import ColonialWinters


@pytest.fixture(scope="module")
def world() -> Variant:
    return load_variant("colonial_winters")


def board(variant: Variant, units: list[str], **centers: str) -> Position:
    """A Spring 1871 position of ``units`` ("power A loc"), all active, with the table the
    hooks work out."""
    made = [Unit(p, UnitType(t), loc) for p, t, loc in (u.split() for u in units)]
    pos = Position.build(variant, "S1871M", made, centers)
    return pos.replace(state={**variant.hooks.initial_state(pos), "inactive": []})


def results(pos: Position, *orders: str) -> dict[str, str]:
    resolution = adjudicate(pos, [parse_order(o, pos) for o in orders])
    return {str(r.order): f"{r.result.value}: {r.reason}" for r in resolution.results}


def test_the_variant_plays_under_its_own_rules(world: Variant) -> None:
    assert isinstance(world.hooks, ColonialWinters)
    assert world.policies["second_place"] == "rank"


def test_rule_4_the_1870_table_england_holds_sea_superiority(world: Variant) -> None:
    start = Position.initial(world)
    shown = world.hooks.public_state(start)["sea_superiority"]
    assert isinstance(shown, dict)
    assert shown["holder"] == "england"
    fleets, tiers = shown["fleets"], shown["tiers"]
    assert isinstance(fleets, dict) and isinstance(tiers, dict)
    assert (fleets["england"], fleets["usa"], fleets["france"]) == (14, 7, 4)
    # the design notes' section 4.5
    assert tiers["england"] == "a" and tiers["usa"] == "b" and tiers["france"] == "c"
    assert {p for p, t in tiers.items() if t == "e"} == {"sweden", "chile", "argentina",
                                                         "china"}
    assert tiers["germany"] == tiers["spain"] == tiers["austria"] == "d"


def test_rule_8_the_units_that_start_inactive(world: Variant) -> None:
    game = Game(world)
    # 42 listed inactive, of which England, the United States and France make 5 active by
    # their start choices (design notes, section 1)
    assert len(game.position.state["inactive"]) == 42  # type: ignore[arg-type]
    report = game.submit("england", "A n8 - n10\nF n19 H")
    assert report[0].error is not None and "inactive" in report[0].error
    assert report[1].ok  # a candidate of England's start choice
    game.process()
    assert len(game.position.state["inactive"]) == 36  # 5 chosen; Casablanca in Fall 1870


def test_rule_7c_rome_only_falls_to_a_fleet_with_four_armies(world: Variant) -> None:
    pos = board(world, ["neutral A e47", "italy A e46", "italy A e49", "italy F 10"])
    done = results(pos, "A e46 - e47", "A e49 S A e46 - e47", "F 10 S A e46 - e47")
    assert done["A E46 - E47"] == ("fails: A Tuscany - Rome failed: Rome's army can be dislodged "
                                   "only by a fleet supported by four armies (rule 7(c)).")


def test_rule_7b_panama_and_colombia_support_each_other_on_the_map(world: Variant) -> None:
    start = Position.initial(world)
    standing = {str(o) for o in world.hooks.standing_orders(start)}
    assert standing == {"A S8 S A S10", "A S10 S A S8"}


def test_rule_4e_swedens_lone_fleet_stays_near_its_centres(world: Variant) -> None:
    # the 1870 board, with Sweden's fleet moved from Stockholm to the sea beside it
    start = Position.initial(world)
    units = [u for u in start.units.values() if u.province != "e12"]
    moved = Position.build(world, "S1871M", [*units, Unit("sweden", UnitType.FLEET, "23")],
                           start.centers)
    pos = moved.replace(state=world.hooks.initial_state(moved))
    assert world.hooks.tier(pos, "sweden") == "e"  # type: ignore[attr-defined]
    assert check_order(pos, parse_order("F 23 - 24", pos)) is None  # by Stockholm
    problem = check_order(pos, parse_order("F 23 - 26", pos))
    assert problem is not None and "Riga is not (rule 4(e))" in problem[1]


def test_rule_6a_copenhagen_on_the_map(world: Variant) -> None:
    alone = board(world, ["germany A e22"])
    assert results(alone, "A e22 - e21")["A E22 - E21"].startswith("succeeds")
    watched = board(world, ["germany A e22", "england F 22"])
    assert "closed by F Kattegat." in results(watched, "A e22 - e21")["A E22 - E21"]


def test_rule_7j_canada_on_the_map(world: Variant) -> None:
    hooks = world.hooks
    assert isinstance(hooks, ColonialWinters)
    canada = next(c for c in hooks.special_build if c.country == "canada")
    assert canada.limit == 2 and canada.relaxed and set(canada.centres) == {"n12", "n8", "n5"}
    # owning the three centres with no foreign unit in Canada but not all its provinces
    pos = board(world, ["england F e8"], n12="england", n8="england", n5="england")
    assert hooks.special_allowance(pos, "england") == ({"n12", "n8", "n5"}, 1)


pytest.importorskip("fastapi")


def test_the_api_shows_sea_superiority(tmp_path: Any) -> None:
    from test_server import FakeClock, create, make_client, sign_up
    with make_client(f"sqlite:///{tmp_path / 'db.sqlite'}", FakeClock()) as client:
        gm = sign_up(client, "gm")
        game = create(client, gm, variant="colonial_winters")
        shown = client.get(f"/games/{game}").json()
    assert shown["variant_state"]["sea_superiority"]["holder"] == "england"
    assert shown["variant_state"]["sea_superiority"]["tiers"]["usa"] == "b"
    assert shown["policies"]["one_fleet_defense"] == "base_zero"


def test_a_seeded_random_game_from_1870_to_1920_keeps_the_rules_and_replays(world: Variant
                                                                           ) -> None:
    game = play(world, seed=1870, end_year=1920, policies={})
    assert game.end is not None and game.phase.year == 1921
    again = savefile.loads(savefile.dumps(game))
    assert [r.position for r in again.history] == [r.position for r in game.history]


@pytest.mark.parametrize("policies", POLICY_SETS[1:], ids=lambda p: ",".join(
    f"{k}={v}" for k, v in p.items()))
def test_a_seeded_random_game_keeps_the_rules_under_each_policy(world: Variant,
                                                                policies: dict[str, str]
                                                                ) -> None:
    # ten years each (benchmarks/colonial_winters_rules.py plays them all to 1920)
    game = play(world, seed=1870, end_year=1879, policies=policies)
    assert game.end is not None


def test_rule_6j_the_thousand_islands_on_the_map(world: Variant) -> None:
    pos = board(world, ["usa A n56", "england A n12"])
    resolution = adjudicate(pos, [parse_order(o, pos) for o in ("A n56 - n12", "A n12 - n56")])
    assert resolution.units["n12"].power == "usa" and resolution.units["n56"].power == "england"


def test_rule_6c_the_five_pointed_corner(world: Variant) -> None:
    # Angola, Zambia, Rhodesia, Bechuanaland and Windhoek meet at a point
    units = ["germany A f72", "transvaal A f70"]
    alone = results(board(world, units), "A f72 - f69")
    assert alone["A F72 - F69"].startswith("succeeds")
    both = results(board(world, units), "A f72 - f69", "A f70 - f68")
    assert all("crossed in more than one direction" in r for r in both.values())
    # between neighbours round the point there is no crossing
    beside = results(board(world, units), "A f72 - f70", "A f70 - f69")
    assert beside["A F70 - F69"].startswith("succeeds")


def test_rule_8_casablanca_becomes_active_in_fall_1870(world: Variant) -> None:
    game = Game(world)
    assert "f19" in game.position.state["inactive"]  # type: ignore[operator]
    near = sorted(world.map.army_neighbours("f19"))[0]
    assert not game.submit("spain", f"A f19 - {near}")[0].ok
    game.process()
    assert str(game.phase) == "F1870M"
    assert "f19" not in game.position.state["inactive"]  # type: ignore[operator]
    assert game.submit("spain", f"A f19 - {near}")[0].ok
    assert len(game.position.state["inactive"]) == 36  # type: ignore[arg-type]


def test_a_numbered_space_is_read_as_itself_not_as_an_abbreviation(world: Variant) -> None:
    # e10 (Norway) begins e100-e109; the Fall records of a game must read back as written
    start = Position.initial(world)
    assert str(parse_order("A e10 - e9", start)) == "A E10 - E9"
    assert str(parse_order("A e98 S A e10 - e87", start)) == "A E98 S A E10 - E87"


def test_rule_7e_england_commands_indias_armies_from_the_start(world: Variant) -> None:
    game = Game(world)
    assert game.position.units["a39"].power == "england"
    assert game.position.units["a44"].power == "england"
    assert game.position.units["e23"].power == "neutral"  # Holland waits for a violation
    table = world.hooks.public_state(game.position)["sea_superiority"]
    assert isinstance(table, dict) and table["holder"] == "england"


def test_rule_7c_a_fleet_in_the_tyrrhenian_with_four_armies_takes_rome(world: Variant) -> None:
    armies = ["e43", "e46", "e48", "e49"]  # Venice, Tuscany, Apulia, Naples
    pos = board(world, ["neutral A e47", "italy F 10", *(f"italy A {a}" for a in armies)])
    orders = ["F 10 - e47", *(f"A {a} S F 10 - e47" for a in armies)]
    resolution = adjudicate(pos, [parse_order(o, pos) for o in orders])
    assert resolution.units["e47"] == Unit("italy", UnitType.FLEET, "e47")
    # three armies and the attack fails, whatever its strength
    resolution = adjudicate(pos, [parse_order(o, pos) for o in orders[:-1]])
    assert resolution.units["e47"].power == "neutral"


def test_rule_6g_a_triple_coast_nejd(world: Variant) -> None:
    # three coasts, each reached from its own sea, and a fleet on one cannot reach another's
    assert world.map.coasts("e81") == ("e81/wc", "e81/ec", "e81/sc")
    pos = board(world, ["england F 73", "england F 72"])
    assert results(pos, "F 73 - e81/ec")["F 73 - E81/EC"].startswith("succeeds")
    assert results(pos, "F 72 - e81/sc")["F 72 - E81/SC"].startswith("succeeds")
    assert check_order(pos, parse_order("F 73 - e81/sc", pos)) is not None
    on_coast = board(world, ["england F e81/ec"])
    assert check_order(on_coast, parse_order("F e81/ec - 72", on_coast)) is not None
    assert check_order(on_coast, parse_order("F e81/ec - 73", on_coast)) is None


def _strong_since_1870(pos: Position) -> Position:
    table = dict(pos.state["sea_superiority"])  # type: ignore[arg-type]
    table["strong_since"] = "S1870M"
    return pos.replace(state={**pos.state, "sea_superiority": table})


def test_rule_4a_i_england_convoys_through_the_empty_north_atlantic(world: Variant) -> None:
    # Liverpool's army, a fleet in the Irish Sea, the North Atlantic empty, a fleet in the
    # Stream beside Newfoundland (n15): no chain of fleets joins them, an empty sea does
    units = ["england A e5", "england F 31", "england F 33", "usa F 32"]
    orders = ("A e5 - n15", "F 31 C A e5 - n15", "F 33 C A e5 - n15")
    young = board(world, units)  # strong since Spring 1871 only
    assert check_order(young, parse_order(orders[0], young)) is not None
    pos = _strong_since_1870(young)
    assert check_order(pos, parse_order(orders[0], pos)) is None
    listed = {str(o) for options in legal_orders(pos, "england").values() for o in options}
    assert {"A E5 - N15", "F 31 C A E5 - N15", "F 33 C A E5 - N15"} <= listed
    for power in ("england", "usa"):  # every order listed is legal, as the check reads it
        for options in legal_orders(pos, power).values():
            assert all(normalize_order(pos, o) == o for o in options)
    done = results(pos, *orders)
    assert done["A E5 - N15"] == ("succeeds: A Liverpool - Newfoundland moved by convoy through "
                                  "empty seas "
                                  "(rule 4(a)(i)).")
    # one attack leaves other chains of empty seas (by Biscay, by the Channel...): attacking
    # every empty sea beside the Irish Sea breaks them all
    units += ["usa F 19", "usa F 20", "usa F 15",  # (and England keeps its superiority)
              "england F e8", "england F e2", "england F e3", "england F e7"]
    pos = _strong_since_1870(board(world, units))
    done = results(pos, *orders, "F 32 - 30", "F 19 - 124", "F 20 - 18", "F 15 - 17")
    assert done["A E5 - N15"].startswith(
        "fails: A Liverpool - Newfoundland failed: the convoy through empty seas (rule "
        "4(a)(i)) was disrupted: ")
    assert "North Atlantic, empty, was attacked by F Denmark Strait - North Atlantic" \
        in done["A E5 - N15"]
    assert "Channel, empty, was attacked by F Helgoland Bight - English Channel" \
        in done["A E5 - N15"]
