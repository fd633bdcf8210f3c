"""The two orders Colonial Winters adds to the rulebooks' game, end to end: BLOCK (rules 6(b),
6(c), 6(d): an army blocks the crossings of a corner or a passage; the block is cut as a
support is and a crossing overrides it with one support per block) and MOBILISE (rule 8: an
inactive unit is mobilised by foregoing a build, two units a build, three for the power with
sea superiority, one build a year).

On the synthetic variants (``tests/variants/corner``: a corner of two shores and two seas;
``tests/variants/gate``: a sound that is a passage; ``tests/variants/miniworld``: the
variant's rules with inactive units) and on the Colonial Winters map.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from realpolitik.adjudication import adjudicate
from realpolitik.adjudication.outcomes import Outcome
from realpolitik.geography import UnitType
from realpolitik.legality import check_order
from realpolitik.listing import legal_orders
from realpolitik.notation import parse_order, parse_orders
from realpolitik.orders import Hold, Move
from realpolitik.position import Position, Unit
from realpolitik.variant import Variant, load_variant
from realpolitik.variants.colonial_winters.orders import Block, Mobilise

VARIANTS = Path(__file__).parent / "variants"


def variant(name: str) -> Variant:
    return load_variant(VARIANTS / name)


def units(pos_variant: Variant, phase: str, placed: list[str], **state: object) -> Position:
    """A position from "power A loc" strings."""
    made = [Unit(p, UnitType(t), loc) for p, t, loc in (u.split() for u in placed)]
    pos = Position.build(pos_variant, phase, made, {})
    if state:
        pos = pos.replace(state={**pos_variant.hooks.initial_state(pos), **state})
    return pos


def outcome(pos: Position, *orders: str) -> dict[str, str]:
    """Order text -> "succeeds: reason" / "fails: reason"."""
    resolution = adjudicate(pos, [parse_order(o, pos) for o in orders])
    return {str(r.order): f"{r.result.value}: {r.reason}" for r in resolution.results}


# -- 6(b): a corner blocked by an army --------------------------------------------------------

def corner(*placed: str) -> Position:
    return units(variant("corner"), "S1901M", list(placed))


def test_rule_6b_an_army_blocks_a_crossing_of_the_corner() -> None:
    pos = corner("red A isl", "blue F nsea")
    done = outcome(pos, "A isl BLOCK strait", "F nsea - ssea")
    assert done["F NSEA - SSEA"] == (
        "fails: F NSEA - SSEA failed: the crossing North Sea-South Sea was blocked by "
        "A ISL BLOCK STRAIT at the corner STRAIT (no support against 1 block: each block "
        "needs one support or a cut).")
    assert done["A ISL BLOCK STRAIT"] == \
        "succeeds: A ISL BLOCK STRAIT: the block stood and stopped F NSEA - SSEA."
    resolution = adjudicate(pos, [parse_order(o, pos) for o in ("A isl BLOCK strait",
                                                                "F nsea - ssea")])
    assert [r.outcome for r in resolution.results] == [Outcome.BLOCKED,
                                                       Outcome.CROSSING_CLOSED]


def test_rule_6b_without_a_block_order_the_army_does_not_block() -> None:
    # the text: an army "may block": blocking is an order, as a support is (policy
    # corner_blocking = "order"; the other reading is tested on the map below)
    assert outcome(corner("red A isl", "blue F nsea"), "F nsea - ssea")["F NSEA - SSEA"] \
        .startswith("succeeds")


def test_rule_6b_a_block_is_cut_by_an_attack() -> None:
    pos = corner("red A isl", "blue F nsea", "blue F wsea")
    done = outcome(pos, "A isl BLOCK strait", "F nsea - ssea", "F wsea - isl")
    assert done["F NSEA - SSEA"] == "succeeds: F NSEA - SSEA moved."
    assert done["A ISL BLOCK STRAIT"] == (
        "fails: A ISL BLOCK STRAIT was cut by the attack of F WSEA - ISL (a block is cut as "
        "a support is).")


def test_rule_6b_a_block_is_overridden_by_a_support() -> None:
    pos = corner("red A isl", "blue F nsea", "blue F wsea")
    done = outcome(pos, "A isl BLOCK strait", "F nsea - ssea", "F wsea S F nsea - ssea")
    assert done["F NSEA - SSEA"] == "succeeds: F NSEA - SSEA moved."
    assert done["A ISL BLOCK STRAIT"] == ("succeeds: A ISL BLOCK STRAIT: the block stood, but "
                                          "F NSEA - SSEA was supported past it.")


def test_rule_6b_two_armies_blocking_need_two_supports_or_cuts() -> None:
    placed = ("red A isl", "red A mai", "blue F nsea", "blue F wsea", "blue A cal")
    blocks = ("A isl BLOCK strait", "A mai BLOCK strait")
    one_support = outcome(corner(*placed), *blocks, "F nsea - ssea", "F wsea S F nsea - ssea")
    assert one_support["F NSEA - SSEA"].startswith("fails")
    assert "(1 support against 2 blocks" in one_support["F NSEA - SSEA"]
    # a support and a cut
    cut_too = outcome(corner(*placed), *blocks, "F nsea - ssea", "F wsea S F nsea - ssea",
                      "A cal - mai")
    assert cut_too["F NSEA - SSEA"] == "succeeds: F NSEA - SSEA moved."
    assert cut_too["A MAI BLOCK STRAIT"].startswith("fails: A MAI BLOCK STRAIT was cut")


def test_rule_6b_a_block_does_not_stop_its_own_powers_crossings() -> None:
    pos = corner("red A isl", "red F nsea")
    assert outcome(pos, "A isl BLOCK strait", "F nsea - ssea")["F NSEA - SSEA"] \
        .startswith("succeeds")


def test_rule_6b_only_an_army_of_the_corner_may_block() -> None:
    pos = corner("red A isl", "blue F nsea", "blue A cal")
    assert check_order(pos, parse_order("A isl BLOCK strait", pos)) is None
    # a fleet may not, nor an army outside the corner's spaces
    assert check_order(pos, Block(UnitType.FLEET, "nsea", "strait", power="blue")) == (
        "cannot_block", "The fleet in North Sea is not where the corner STRAIT can be "
                        "blocked from.")
    assert check_order(pos, Block(UnitType.ARMY, "cal", "strait"))[0] == "cannot_block"
    assert check_order(pos, Block(UnitType.ARMY, "isl", "elsewhere"))[0] == "no_such_crossing"


def test_rule_6b_the_listing_offers_the_block_where_it_is_legal() -> None:
    pos = corner("red A isl", "blue F nsea", "blue A cal")
    assert Block(UnitType.ARMY, "isl", "strait", power="red") in legal_orders(pos, "red")["isl"]
    assert not any(isinstance(o, Block) for listed in legal_orders(pos, "blue").values()
                   for o in listed)
    for power in ("red", "blue"):
        for listed in legal_orders(pos, power).values():
            for order in listed:
                assert check_order(pos, order) is None, order


def test_rule_6b_the_classical_game_has_no_block() -> None:
    classical = Position.initial(load_variant("classical"))
    assert check_order(classical, Block(UnitType.ARMY, "par", "bur"))[0] == "no_such_kind"
    # (the classical game does not know the word: it declares no block order)
    with pytest.raises(Exception, match="'BLOCK' is not a place"):
        parse_order("A Par BLOCK Bur", classical)
    assert not any(isinstance(o, Block) for listed in legal_orders(classical, "france")
                   .values() for o in listed)


# -- 6(d): a passage blocked by an army -------------------------------------------------------

def test_rule_6d_an_army_blocks_a_fleet_moving_into_the_passage() -> None:
    pos = units(variant("gate"), "S1901M", ["red A sou", "blue F esea"])
    done = outcome(pos, "A sou BLOCK snd", "F esea - snd")
    assert done["F ESEA - SND"] == (
        "fails: F ESEA - SND failed: the crossing East Sea-Sound was blocked by A SOU BLOCK "
        "SND at the passage Sound (no support against 1 block: each block needs one support "
        "or a cut).")
    # and out of it; an army's move is not blocked (only fleets' passage)
    pos = units(variant("gate"), "S1901M", ["red A sou", "blue F snd"])
    assert outcome(pos, "A sou BLOCK sound", "F snd - wsea")["F SND - WSEA"].startswith("fails")


# -- the notation ----------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["A Isl BLOCK strait", "a isl block the corner strait",
                                  "A Island blocks Strait", "A isl BLOCK nsea",
                                  "A isl blk STRAIT"])
def test_rule_6b_block_orders_as_people_write_them(text: str) -> None:
    pos = corner("red A isl")
    assert parse_order(text, pos) == Block(UnitType.ARMY, "isl", "strait", power="red")


def _cw() -> Variant:
    return load_variant("colonial_winters")


@settings(deadline=None)
@given(st.data())
def test_block_and_mobilise_print_then_parse_back(data: st.DataObject) -> None:
    cw = _cw()
    points = [p.id for p in cw.rules.block_points()]
    point = data.draw(st.sampled_from(points))
    found = cw.rules.block_point(point)
    assert found is not None
    where = data.draw(st.sampled_from(sorted(found.blockers)))
    power = data.draw(st.sampled_from([None, *cw.power_ids]))
    block = Block(UnitType.ARMY, where, point, power=power)
    assert parse_order(str(block), variant=cw, power=power) == block
    unit_type = data.draw(st.sampled_from([UnitType.ARMY, UnitType.FLEET]))
    location = data.draw(st.sampled_from(sorted(
        loc for loc in cw.map.locations if cw.map.can_hold(unit_type, loc))))
    mobilise = Mobilise(unit_type, location, power=power)
    assert parse_order(str(mobilise), variant=cw, power=power) == mobilise


# -- the map: the corners and the passages of Colonial Winters --------------------------------

@pytest.fixture(scope="module")
def cw() -> Variant:
    return _cw()


def board(cw: Variant, placed: list[str], **policies: str) -> Position:
    variant_ = cw.with_policies(policies) if policies else cw
    return units(variant_, "S1871M", placed, inactive=[])


def test_rule_6b_an_army_in_naples_blocks_the_strait_of_messina(cw: Variant) -> None:
    # Sicily's corner: Sicily (e50), the Tyrrhenian (10), Naples (e49), Messina (131)
    pos = board(cw, ["italy A e49", "england F 10"])
    done = outcome(pos, "A Naples BLOCK Sicily", "F 10 - 131")
    assert done["F 10 - 131"].startswith(
        "fails: F Tyrrhenian Sea - Strait of Messina failed: the crossing Tyrrhenian Sea-Strait "
        "of Messina was blocked by A Naples BLOCK Sicily at the corner Sicily")
    assert Block(UnitType.ARMY, "e49", "sicily", power="italy") in legal_orders(pos,
                                                                                "italy")["e49"]


def test_rule_6b_policy_corner_blocking_holding(cw: Variant) -> None:
    # the other reading: an army that holds in a space of the corner blocks it by itself
    placed = ["italy A e49", "england F 10"]
    assert outcome(board(cw, placed), "F 10 - 131")["F 10 - 131"].startswith("succeeds")
    held = outcome(board(cw, placed, corner_blocking="holding"), "F 10 - 131")
    assert held["F 10 - 131"].startswith("fails: F Tyrrhenian Sea - Strait of Messina failed: "
                                         "the crossing Tyrrhenian Sea-Strait of Messina was "
                                         "blocked by A Naples at")
    # ... and that block too is cut by an attack
    cut = outcome(board(cw, [*placed, "england A e48"], corner_blocking="holding"),
                  "F 10 - 131", "A e48 - e49")
    assert cut["F 10 - 131"].startswith("succeeds")


def test_rule_6c_an_army_blocks_the_five_pointed_corner(cw: Variant) -> None:
    # Angola (f72), Zambia (f70), Rhodesia (f69), Bechuanaland (f68), Windhoek (f66)
    pos = board(cw, ["germany A f72", "transvaal A f70"])
    done = outcome(pos, "A f72 - f69", "A f70 BLOCK southern africa")
    assert done["A F72 - F69"].startswith("fails") and "blocked by A Zambia BLOCK Southern " \
        "Africa" in done["A F72 - F69"]
    # a block does not stop a move into the blocker's own space (that is an attack on it)
    done = outcome(pos, "A f72 - f70", "A f70 BLOCK southern africa")
    assert done["A F70 BLOCK SOUTHERN_AFRICA"].startswith("fails: A Zambia BLOCK Southern "
                                                          "Africa was cut")


def test_rule_6d_an_army_in_detroit_blocks_lake_st_clair(cw: Variant) -> None:
    pos = board(cw, ["usa A n86", "england F 115"])
    done = outcome(pos, "A Detroit BLOCK Lake St Clair", "F 115 - 113")
    assert done["F 115 - 113"].startswith(
        "fails: F Lake Huron - Lake St Clair failed: the crossing Lake Huron-Lake St Clair was "
        "blocked by A Detroit BLOCK Lake St Clair at the passage Lake St Clair")
    assert check_order(pos, parse_order("A n86 BLOCK 4", pos))[0] == "cannot_block"


def test_rule_6d_the_sea_of_marmara_is_blocked_from_constantinople(cw: Variant) -> None:
    pos = board(cw, ["turkey A e72", "russia F 2"])
    done = outcome(pos, "A e72 BLOCK Marmara", "F 2 - 4")
    assert done["F 2 - 4"].startswith("fails") and "passage Sea of Marmara" in done["F 2 - 4"]


def test_rule_6b_inactive_units_do_not_block(cw: Variant) -> None:
    pos = units(cw, "S1871M", ["italy A e49", "england F 10"], inactive=["e49"])
    reason = check_order(pos, parse_order("A e49 BLOCK sicily", pos))
    assert reason is not None and "rule 8" in reason[1]
    assert Hold(UnitType.ARMY, "e49", power="italy") in legal_orders(pos, "italy")["e49"]
    assert not any(isinstance(o, Move | Block) for o in legal_orders(pos, "italy")["e49"])


# -- 8: mobilising inactive units -------------------------------------------------------------

MINIWORLD = VARIANTS / "miniworld"


def winter(placed: list[str], centers: dict[str, str], inactive: list[str],
           holder: str = "red", **policies: str) -> Position:
    """A Winter 1871 position of the mini-world with these inactive units and holder."""
    world = load_variant(MINIWORLD)
    if policies:
        world = world.with_policies(policies)
    made = [Unit(p, UnitType(t), loc) for p, t, loc in (u.split() for u in placed)]
    pos = Position.build(world, "W1871A", made, centers)
    table = {"holder": holder, "fleets": {"red": 4, "blue": 2, "green": 1, "yellow": 0},
             "tiers": {"red": "a", "blue": "b", "green": "e", "yellow": "d"},
             "strong_since": None}
    return pos.replace(state={**world.hooks.initial_state(pos), "inactive": inactive,
                              "sea_superiority": table})


def adjust(pos: Position, *orders: str) -> dict[str, str]:
    resolution = adjudicate(pos, [parse_order(o, pos) for o in orders])
    return {str(r.order): f"{r.result.value}: {r.reason}" for r in resolution.results}


BLUE = ["blue F s5", "blue F s4", "blue A inl"]
BLUE_CENTRES = {"bho": "blue", "bco": "blue", "pan": "blue", "col": "blue"}


def test_rule_8_mobilise_two_units_for_one_build() -> None:
    pos = winter(BLUE, BLUE_CENTRES, ["s5", "s4", "inl"])
    assert adjustment_counts_of(pos, "blue") == 1
    done = adjust(pos, "F s5 MOBILISE", "F s4 mobilise", "A inl MOBILISE", "Build A bho")
    assert done["F S5 MOBILISE"] == "succeeds: F S5 MOBILISE: the unit was mobilised."
    assert done["F S4 MOBILISE"].startswith("succeeds")
    assert done["A INL MOBILISE"].startswith("void") and \
        "One build a year may be foregone to mobilise units, and it mobilises at most 2." \
        in done["A INL MOBILISE"]
    assert done["A BHO B"].startswith("void") and "forgoes one build" in done["A BHO B"]
    resolution = adjudicate(pos, [parse_order(o, pos) for o in ("F s5 MOBILISE",
                                                                "F s4 MOBILISE")])
    assert [r.outcome for r in resolution.results] == [Outcome.MOBILISED] * 2
    after = Position.build(pos.variant, "S1872M", resolution.units.values(), pos.centers)
    state = pos.variant.hooks.next_state(pos, resolution, after)
    assert state["inactive"] == ["inl"]


def adjustment_counts_of(pos: Position, power: str) -> int:
    from realpolitik.legality import adjustment_counts
    return adjustment_counts(pos).get(power, 0)


def test_rule_8_the_holder_mobilises_three_units_for_one_build() -> None:
    placed = ["red F s1", "red F s2", "red F s3", "red A inl"]
    centers = {"rho": "red", "rhb": "red", "rco": "red", "pan": "red", "col": "red",
               "bco": "red"}
    pos = winter(placed, centers, ["s1", "s2", "s3", "inl"])
    assert adjustment_counts_of(pos, "red") == 2
    done = adjust(pos, "F s1 MOBILISE", "F s2 MOBILISE", "F s3 MOBILISE", "A inl MOBILISE",
                  "Build A rhb")
    assert [v.split(":")[0] for v in done.values()] == ["succeeds"] * 3 + ["void", "succeeds"]
    # the build foregone was one of two: the other is still built


def test_rule_8_a_mobilisation_needs_a_build_to_forego() -> None:
    # Blue has as many units as centres: nothing to forego (policy mobilisation_cost=a_build)
    pos = winter(BLUE, {"bho": "blue", "bco": "blue", "pan": "blue"}, ["s5", "s4", "inl"])
    reason = check_order(pos, parse_order("F s5 MOBILISE", pos))
    assert reason == ("no_mobilisation", "Blue cannot mobilise this winter: a power mobilises "
                                         "by foregoing a build, and it has no build this "
                                         "winter (rule 8).")
    assert not any(isinstance(o, Mobilise) for listed in legal_orders(pos, "blue").values()
                   for o in listed)


def test_rule_8_policy_mobilisation_cost_home_count() -> None:
    # the other reading: a home centre owned is enough, and nothing else is given up
    centres = {"bho": "blue", "bco": "blue", "pan": "blue"}
    pos = winter(BLUE, centres, ["s5", "s4", "inl"], mobilisation_cost="home_count")
    assert check_order(pos, parse_order("F s5 MOBILISE", pos)) is None
    assert Mobilise(UnitType.FLEET, "s5", power="blue") in legal_orders(pos, "blue")["s5"]
    from realpolitik.phases import needs_adjustments
    assert needs_adjustments(pos)
    # with no home centre owned, neither reading lets it mobilise
    none = winter(BLUE, {"bco": "blue", "pan": "blue", "col": "blue"}, ["s5", "s4", "inl"],
                  mobilisation_cost="home_count")
    assert check_order(none, parse_order("F s5 MOBILISE", none))[0] == "no_mobilisation"


def test_rule_8_only_inactive_units_are_mobilised() -> None:
    pos = winter(BLUE, BLUE_CENTRES, ["s5"])
    assert check_order(pos, parse_order("F s4 MOBILISE", pos))[0] == "not_inactive"
    assert check_order(pos, parse_order("F s5 MOBILISE", pos)) is None
    # a movement phase has no mobilisation
    spring = units(load_variant(MINIWORLD), "S1872M", BLUE, inactive=["s5"])
    assert check_order(spring, Mobilise(UnitType.FLEET, "s5"))[0] == "wrong_phase"
    # nor the classical game
    classical = Position.build(load_variant("classical"), "W1901A",
                               [Unit("france", UnitType.ARMY, "par")], {"par": "france",
                                                                         "bre": "france"})
    assert check_order(classical, Mobilise(UnitType.ARMY, "par"))[0] == "no_such_kind"


def test_rule_8_mobilise_orders_as_people_write_them() -> None:
    pos = winter(BLUE, BLUE_CENTRES, ["s5", "s4", "inl"])
    want = Mobilise(UnitType.FLEET, "s5", power="blue")
    for text in ("F s5 MOBILISE", "Mobilize F s5", "F s5 mob", "blue: mobilise F s5"):
        assert parse_order(text, pos) == want, text
    from realpolitik.notation import parse_orders
    sheet = parse_orders("Blue: mobilise F s5 and F s4", pos)
    assert sheet.orders == (want, Mobilise(UnitType.FLEET, "s4", power="blue"))


def test_rule_8_england_mobilises_three_fleets_in_winter_1870(cw: Variant) -> None:
    from realpolitik.game import Game
    game = Game(cw)
    game.process()
    game.process()
    assert str(game.phase) == "W1870A"
    assert "england" in game.powers_to_order()
    given = game.submit("england", "F s14 MOBILISE\nF s44 MOBILISE\nF a36 MOBILISE\n"
                                   "F a49 MOBILISE")
    assert all(line.ok for line in given)
    resolution = game.process()
    fourth = [r for r in resolution.results if "A49" in str(r.order)]
    assert fourth[0].outcome is Outcome.ILLEGAL and "at most 3" in fourth[0].reason
    inactive = game.position.state["inactive"]
    assert isinstance(inactive, list)
    assert not {"s14", "s44", "a36"} & set(inactive)
    assert "a49" in inactive
    assert game.submit("england", "F s14 - " + sorted(
        cw.map.fleet_neighbours("s14"))[0])[0].ok


# -- the case format (realpolitik adjudicate) -------------------------------------------------

def test_rule_6b_and_8_in_the_case_format() -> None:
    from realpolitik.cli._cases import adjudicate_case
    blocked = adjudicate_case({
        "id": "sicily", "variant": "colonial_winters", "phase": "S1871M",
        "units": {"ITALY": ["A E49"], "ENGLAND": ["F 10"]}, "centers": None,
        "orders": {"ITALY": ["A Naples BLOCK Sicily"], "ENGLAND": ["F Tyrrhenian - Messina"]}})
    assert isinstance(blocked, dict)
    by_order = {r["order"]: r for r in blocked["order_results"]}
    assert by_order["A E49 BLOCK SICILY"]["outcome"] == "blocked"
    assert by_order["F 10 - 131"]["outcome"] == "crossing_closed"
    assert by_order["F 10 - 131"]["by"] == ["A Naples BLOCK Sicily"]  # as people read it
    # Winter: England (sea superiority) owns two centres more than its units on the board; its
    # fleets in Guyana and the Falklands are inactive (the case's variant_state says so)
    mobilised = adjudicate_case({
        "id": "mobilise", "variant": "colonial_winters", "phase": "W1871A",
        "variant_state": {"inactive": ["s14", "s44"]},
        "units": {"ENGLAND": ["F E8", "F S14", "F S44"]},
        "centers": {"ENGLAND": ["E8", "E5", "S14", "N19", "N20"]},
        "orders": {"ENGLAND": ["F S14 MOBILISE", "F S44 MOBILISE", "Build F E5"]}})
    assert isinstance(mobilised, dict)
    outcomes = [(r["order"], r["outcome"]) for r in mobilised["order_results"]]
    assert outcomes == [("F S14 MOBILISE", "mobilised"), ("F S44 MOBILISE", "mobilised"),
                        ("F E5 B", "built")]


# -- 8: the start choices ---------------------------------------------------------------------

def test_rule_8_england_chooses_the_two_fleets_it_starts_with(cw: Variant) -> None:
    from realpolitik.game import Game
    game = Game(cw)
    pending = game.position.state["start_choices"]
    assert isinstance(pending, dict)
    assert pending["england"] == {"units": ["n19", "n20", "s14", "s44", "a36", "f2", "f64",
                                            "o16", "a49", "f8", "a25", "e109"], "count": 2}
    # its candidates may be ordered in the first orders, its other inactive units may not
    listed = legal_orders(game.position, "england")
    assert Mobilise(UnitType.FLEET, "s14", power="england") in listed["s14"]
    assert any(isinstance(o, Move) for o in listed["s14"])
    assert not any(isinstance(o, Move) for o in listed["n8"])  # A Winnipeg: not a candidate
    near = sorted(cw.map.fleet_neighbours("f2"))[0]
    given = game.submit("england", f"F s14 - 52\nF a36 MOBILISE\nF f2 - {near}")
    assert all(line.ok for line in given)
    resolution = game.process()
    by_order = {str(r.order): r for r in resolution.results}
    assert by_order["F S14 - 52"].succeeded
    assert by_order["F A36 MOBILISE"].outcome is Outcome.HELD
    assert by_order[f"F F2 - {near.upper()}"].reason.endswith(
        "England chooses 2 of its inactive units to be active at the start, and ordered more "
        "(rule 8): this one stays inactive.")
    inactive = game.position.state["inactive"]
    assert isinstance(inactive, list)
    assert "a36" not in inactive and "f2" in inactive
    assert {"n19", "n20"} <= set(inactive)  # not chosen: they stay inactive
    assert game.position.state["start_choices"] == {}
    # the choice is made once: in Fall 1870 the chosen fleet moves, the others hold
    assert game.submit("england", f"F a36 - {sorted(cw.map.fleet_neighbours('a36'))[0]}")[0].ok
    refused = game.submit("england", f"F n19 - {sorted(cw.map.fleet_neighbours('n19'))[0]}")
    assert refused[0].error is not None and "inactive" in refused[0].error


def test_rule_8_a_choice_not_made_takes_the_first_listed(cw: Variant) -> None:
    from realpolitik.game import Game
    game = Game(cw)
    game.submit("usa", "A n48 - " + sorted(cw.map.army_neighbours("n48"))[0])
    game.process()
    inactive = game.position.state["inactive"]
    assert isinstance(inactive, list)
    # England chose nothing: its first two listed fleets; the United States chose one army:
    # the first listed makes the second; France: its first listed fleet
    assert not {"n19", "n20", "n33", "e64"} & set(inactive)
    assert "n48" not in inactive and "n44" in inactive
    assert "s14" in inactive


@pytest.mark.parametrize(("text", "expected"), [
    ("England: Mobilise F Guyana, F Gibraltar - Pillars", ["F S14 MOBILISE", "F E109 - 140"]),
    ("England: mobilise F Guyana and F Gibraltar", ["F S14 MOBILISE", "F E109 MOBILISE"]),
    ("England: Mobilise F Guyana, F Victoria H, A Lagos - Dahomey",
     ["F S14 MOBILISE", "F N20 H", "A F32 - F31"]),
])
def test_rule_8_a_carried_mobilise_stops_at_an_order_complete_without_it(
        cw: Variant, text: str, expected: list[str]) -> None:
    """The verb of "Mobilise F Guyana, F Gibraltar" covers the next unit, but a part of the
    line that is an order by itself ("F Gibraltar - Pillars") is that order."""
    sheet = parse_orders(text, variant=cw)
    assert [e.error for e in sheet.entries] == [None] * len(expected)
    assert [str(e.order) for e in sheet.entries] == expected


def test_messages_name_powers_as_the_variant_does(cw: Variant) -> None:
    sheet = parse_orders("United States: F N21 H", variant=cw, power="england")
    assert "these orders are for United States, but only England's" in str(
        sheet.entries[0].error)
