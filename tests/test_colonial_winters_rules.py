"""The rules of Colonial Winters (realpolitik/variants/colonial_winters/rules.py), provision by
provision, on the synthetic mini-world (tests/variants/miniworld/).

Tests are named by the provision they adjudicate (rule 4(e) -> ``test_rule_4e_...``); every
named policy has a test for each of its values. Most positions carry an explicit
sea-superiority table (the variant's state) so that a test sets the tiers it needs.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from realpolitik import record, savefile
from realpolitik.adjudication import adjudicate
from realpolitik.errors import VariantError
from realpolitik.game import Game
from realpolitik.geography import UnitType, province_of
from realpolitik.hooks import JsonValue
from realpolitik.legality import (
    adjustment_counts,
    build_sites,
    check_order,
    normalize_order,
    retreat_options,
)
from realpolitik.listing import _empty_convoy_moves, legal_orders
from realpolitik.notation import parse_order
from realpolitik.orders import Build
from realpolitik.position import DislodgedUnit, PhaseType, Position, Unit
from realpolitik.variant import Variant, load_variant
from realpolitik.variant_rules import NEUTRAL
from realpolitik.variants.colonial_winters.rules import POLICIES, ColonialWinters, sea_superiority

FOLDER = Path(__file__).parent / "variants" / "miniworld"
POWERS = ("red", "blue", "green", "yellow")
TIERS = {"red": "a", "blue": "b", "green": "e", "yellow": "d"}
NOT_HOLDER: dict[str, object] = {"holder": "blue", "tiers": {**TIERS, "red": "b", "blue": "a"}}
"""A table in which Red has lost sea superiority to Blue (it builds only as rule 3 says)."""


def world(**policies: str) -> Variant:
    variant = load_variant(FOLDER)
    return variant.with_policies(policies) if policies else variant


def state(tiers: dict[str, str] | None = None, holder: str | None = "red",
          inactive: tuple[str, ...] = (), fleets: dict[str, int] | None = None,
          strong_since: str | None = None) -> dict[str, JsonValue]:
    table: dict[str, JsonValue] = {
        "holder": holder,
        "fleets": dict(fleets or {p: 0 for p in POWERS}),
        "tiers": dict(tiers or TIERS),
        "strong_since": strong_since,
    }
    return {"sea_superiority": table, "inactive": list(inactive)}


def position(units: list[str], *, phase: str = "S1871M", centers: dict[str, str] | None = None,
             variant: Variant | None = None, dislodged: tuple[DislodgedUnit, ...] = (),
             **table: object) -> Position:
    """A position from "power A loc" strings, with the state ``table`` gives."""
    made = [Unit(p, UnitType(t), loc) for p, t, loc in (u.split() for u in units)]
    return Position.build(variant or world(), phase, made, centers or {},
                          dislodged=dislodged, state=state(**table))  # type: ignore[arg-type]


def results(pos: Position, *orders: str) -> dict[str, str]:
    """Order text -> "succeeds: reason" / "fails: reason"."""
    resolution = adjudicate(pos, [parse_order(o, pos) for o in orders])
    return {str(r.order): f"{r.result.value}: {r.reason}" for r in resolution.results}


def moved(pos: Position, *orders: str) -> dict[str, Unit]:
    return dict(adjudicate(pos, [parse_order(o, pos) for o in orders]).units)


# -- policies ----------------------------------------------------------------------------------

def test_every_policy_has_a_default_declared_and_the_data_may_choose() -> None:
    variant = world()
    assert set(variant.policies) == set(POLICIES)
    assert all(variant.policies[name] == values[0] for name, values in POLICIES.items())


def test_a_game_chooses_policies_and_its_records_keep_them() -> None:
    game = Game(world(), policies={"one_fleet_defense": "always_dislodged"})
    assert game.variant.policies["one_fleet_defense"] == "always_dislodged"
    game.process()
    data = savefile.game_to_json(game)
    assert data["policies"] == {"one_fleet_defense": "always_dislodged"}
    # (the record names the folder; reading it back replays under the same policies)
    again = savefile.loads(savefile.dumps(game))
    assert again.variant.policies["one_fleet_defense"] == "always_dislodged"
    text = record.to_text(game)
    assert '[Policies "one_fleet_defense=always_dislodged"]' in text
    assert record.from_text(text).variant.policies == game.variant.policies


def test_an_unknown_policy_or_value_is_refused_with_its_line(tmp_path: Path) -> None:
    with pytest.raises(VariantError, match="no policy 'tide'"):
        Game(world(), policies={"tide": "high"})
    with pytest.raises(VariantError, match="cannot be 'sometimes'"):
        world(second_place="sometimes")
    folder = tmp_path / "bad"
    shutil.copytree(FOLDER, folder)
    toml = folder / "variant.toml"
    toml.write_text(toml.read_text().replace('second_place = "rank"', 'second_place = "luck"'))
    with pytest.raises(VariantError) as caught:
        load_variant(folder)
    assert caught.value.line is not None
    assert "second_place" in toml.read_text().splitlines()[caught.value.line - 1]


def test_hooks_data_is_checked_against_the_map(tmp_path: Path) -> None:
    folder = tmp_path / "bad"
    shutil.copytree(FOLDER, folder)
    toml = folder / "variant.toml"
    toml.write_text(toml.read_text().replace('church = "chu"', 'church = "vatican"'))
    with pytest.raises(VariantError, match="'vatican' is not a province"):
        load_variant(folder)


# -- rule 4: sea superiority, the state and its tiers -------------------------------------------

def test_rule_4_sea_superiority_is_gained_over_second_plus_third_and_kept_over_second() -> None:
    assert sea_superiority({"a": 8, "b": 4, "c": 3, "d": 0}, None)[0] == "a"  # 8 > 7
    assert sea_superiority({"a": 7, "b": 4, "c": 3, "d": 0}, None)[0] is None  # 7 = 7
    assert sea_superiority({"a": 7, "b": 4, "c": 3, "d": 0}, "a")[0] == "a"    # kept: 7 > 4
    assert sea_superiority({"a": 4, "b": 4, "c": 3, "d": 0}, "a")[0] is None   # tie: lost
    holder, tiers = sea_superiority({"a": 14, "b": 7, "c": 4, "d": 3, "e": 1, "f": 0}, None)
    assert holder == "a"
    assert tiers == {"a": "a", "b": "b", "c": "c", "d": "d", "e": "e", "f": "d"}


def test_rule_4_without_a_holder_the_first_three_places_are_tier_b() -> None:
    holder, tiers = sea_superiority({"a": 5, "b": 5, "c": 4, "d": 4, "e": 1}, None)
    assert holder is None
    assert tiers == {"a": "b", "b": "b", "c": "b", "d": "b", "e": "e"}


def test_rule_4_policy_second_place_rank_or_count() -> None:
    fleets = {"a": 9, "b": 3, "c": 2, "d": 1}
    assert sea_superiority(fleets, None, by_rank=True)[1]["b"] == "b"
    assert sea_superiority(fleets, None, by_rank=False)[1]["b"] == "d"
    assert world(second_place="count").policies["second_place"] == "count"


def test_rule_4_the_state_at_the_start_and_in_show_json(tmp_path: Path) -> None:
    start = Position.initial(world())
    table = start.state["sea_superiority"]
    assert isinstance(table, dict)
    assert table["holder"] == "red" and table["fleets"] == {"red": 4, "blue": 2, "green": 1,
                                                            "yellow": 0}
    assert table["tiers"] == TIERS
    shown = world().hooks.public_state(start)
    assert shown == {"sea_superiority": {"holder": "red", "fleets": table["fleets"],
                                         "tiers": TIERS},
                     "protectorates": {"India": {"controller": "red", "units": ["IND", "BOM"]},
                                       "Holland": {"controller": None, "units": ["HOL"]}},
                     # rule 8: the unit on the inactive list stands at the start, shown before
                     # any order is given
                     "inactive": ["s3"]}
    from realpolitik.cli import main
    game_file = tmp_path / "game.json"
    assert main(["new", str(game_file), "--variant", str(FOLDER)]) == 0
    import contextlib
    import io
    import json
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["show", str(game_file), "--json"]) == 0
    data = json.loads(out.getvalue())
    assert data["sea_superiority"]["holder"] == "red"
    assert data["sea_superiority"]["tiers"]["green"] == "e"
    assert data["policies"]["second_place"] == "rank"


def _evaluated(policy: str) -> tuple[object, object]:
    """Red loses two fleets in a Spring turn: the table after that turn, and after the
    following adjustments, under ``sea_superiority_evaluation = policy``."""
    variant = world(sea_superiority_evaluation=policy)
    before = Position.initial(variant)
    resolution = adjudicate(before, [])
    after = Position.build(variant, "F1870M",
                           [u for u in before.units.values() if u.location not in ("s1", "s2")],
                           before.centers)
    spring = variant.hooks.next_state(before, resolution, after)
    winter = Position.build(variant, "W1870A", after.units.values(), after.centers,
                            state=spring)
    table_after_winter = variant.hooks.next_state(winter, adjudicate(winter, []),
                                                  winter.replace())
    return spring["sea_superiority"], table_after_winter["sea_superiority"]


def test_rule_4_policy_evaluation_every_phase() -> None:
    spring, _ = _evaluated("every_phase")
    assert isinstance(spring, dict)
    assert spring["fleets"]["red"] == 2 and spring["holder"] is None  # 2 = blue's 2: lost


def test_rule_4_policy_evaluation_after_adjustments() -> None:
    spring, winter = _evaluated("after_adjustments")
    assert isinstance(spring, dict) and isinstance(winter, dict)
    assert spring["holder"] == "red" and spring["fleets"]["red"] == 4  # carried until winter
    assert winter["holder"] is None and winter["fleets"]["red"] == 2


def test_rule_4a_i_a_strong_holding_is_dated_in_the_state() -> None:
    game = Game(world())
    table = game.position.state["sea_superiority"]
    assert isinstance(table, dict) and table["strong_since"] == "S1870M"
    game.process()
    table = game.position.state["sea_superiority"]
    assert isinstance(table, dict) and table["strong_since"] == "S1870M"  # still strong


# Red's army in Blue Colony, Red's fleets in Sea Five (beside it) and Sea Three (beside Red
# Bay), Sea Four between them empty: only 4(a)(i) joins them.
EMPTY_SEA_CONVOY = ["red A bco", "red F s5", "red F s3"]
EMPTY_SEA_ORDERS = ("A bco - rhb", "F s5 C A bco - rhb", "F s3 C A bco - rhb")


def test_rule_4a_i_after_a_full_year_the_holder_convoys_through_an_empty_sea() -> None:
    pos = position(EMPTY_SEA_CONVOY, strong_since="S1870M")
    assert all(check_order(pos, parse_order(o, pos)) is None for o in EMPTY_SEA_ORDERS)
    listed = {str(o) for orders in legal_orders(pos, "red").values() for o in orders}
    assert {"A BCO - RHB", "F S5 C A BCO - RHB", "F S3 C A BCO - RHB"} <= listed
    done = results(pos, *EMPTY_SEA_ORDERS)
    assert done["A BCO - RHB"] == ("succeeds: A BCO - RHB moved by convoy through empty seas "
                                   "(rule 4(a)(i)).")
    assert done["F S5 C A BCO - RHB"] == "succeeds: F S5 C A BCO - RHB convoyed the army."
    # a supporting unit of another power may support the move
    pos = position([*EMPTY_SEA_CONVOY, "yellow A rco"], strong_since="S1870M")
    assert check_order(pos, parse_order("A rco S A bco - rhb", pos)) is None
    listed = {str(o) for orders in legal_orders(pos, "yellow").values() for o in orders}
    assert "A RCO S A BCO - RHB" in listed
    for power in POWERS:  # every order listed is legal, as the check reads it
        for options in legal_orders(pos, power).values():
            assert all(normalize_order(pos, o) == o for o in options)


def test_rule_4a_i_not_before_a_full_year_of_strong_superiority() -> None:
    for since in (None, "F1870M"):  # never strong, or strong for half a year
        pos = position(EMPTY_SEA_CONVOY, strong_since=since)
        problem = check_order(pos, parse_order("A bco - rhb", pos))
        assert problem is not None and problem[0] == "not_adjacent"
        assert check_order(pos, parse_order("F s5 C A bco - rhb", pos)) is not None
        listed = {str(o) for orders in legal_orders(pos, "red").values() for o in orders}
        assert "A BCO - RHB" not in listed and "F S5 C A BCO - RHB" not in listed
    # in a game: strong from the start (4 fleets to 2 + 1), so from Spring 1871 on
    game = Game(world())
    hooks = game.variant.hooks
    assert isinstance(hooks, ColonialWinters)
    seen = []
    for _ in range(4):
        seen.append((str(game.phase), hooks.strong_for_a_year(game.position)))
        game.process()
        while game.phase.type is not PhaseType.MOVEMENT:
            game.process()
    assert seen[:3] == [("S1870M", False), ("F1870M", False), ("S1871M", True)]


def test_rule_4a_i_in_a_game_the_convoy_is_accepted_played_and_replayed() -> None:
    # Red, strong from the start, moves its fleet from Sea One to Sea Eight in 1871 (Yellow's
    # army leaves its home for the Pole); in the Fall its army in Red Bay goes to Yellow Home
    # from its fleet in Sea Two through Sea One, empty now, to its fleet in Sea Eight
    game = Game(world(), seed=3)
    game.process()  # Spring 1870
    game.process()  # Fall 1870
    while game.phase.type is not PhaseType.MOVEMENT:
        game.process()
    assert str(game.phase) == "S1871M"
    assert all(r.ok for r in game.submit("red", "F s1 - s8"))
    assert all(r.ok for r in game.submit("yellow", "A yho - npo"))
    game.process()
    assert str(game.phase) == "F1871M" and "s1" not in game.position.units
    orders = "A rhb - yho\nF s2 C A rhb - yho\nF s8 C A rhb - yho"
    assert all(r.ok for r in game.submit("red", orders))
    game.process()
    assert game.position.units["yho"] == Unit("red", UnitType.ARMY, "yho")
    reasons = {str(r.order): r.reason for r in game.history[-1].resolution.results}
    assert reasons["A RHB - YHO"] == ("A RHB - YHO moved by convoy through empty seas "
                                      "(rule 4(a)(i)).")
    again = savefile.loads(savefile.dumps(game))
    assert [r.position for r in again.history] == [r.position for r in game.history]
    text = record.to_text(game)
    assert record.to_text(record.from_text(text)) == text


def test_rule_4a_i_every_order_listed_in_a_random_game_is_legal() -> None:
    # the positions of a seeded random game, in which Red holds strong superiority for years:
    # each order the listing offers (its moves through empty seas and their convoys and
    # supports included) is one the order check accepts as it is
    rng = random.Random(1)
    game = Game(world(), seed=1, end_year=1876)
    hooks = game.variant.hooks
    checked = through_empty_seas = 0
    while not game.is_over:
        pos = game.position
        if game.phase.type is PhaseType.MOVEMENT:
            through_empty_seas += sum(len(m.destinations)
                                      for m in _empty_convoy_moves(pos).values())
        for power in game.powers_to_order():
            listed = game.legal_orders(power)
            if hooks.empty_convoys(pos) is not None:
                for options in listed.values():
                    assert all(normalize_order(pos, o) == o for o in options)
                    checked += len(options)
            game.submit(power, [rng.choice(o) for k, o in listed.items() if k != "waive"])
        game.process()
    assert checked > 100 and through_empty_seas > 0


def test_rule_4a_i_an_attack_on_the_empty_sea_disrupts_the_convoy() -> None:
    # (Yellow's fleet in Sea Six closes the way round the ring of seas)
    pos = position([*EMPTY_SEA_CONVOY, "yellow F s6", "blue F bho"], strong_since="S1870M")
    done = results(pos, *EMPTY_SEA_ORDERS, "F bho - s4")
    assert done["A BCO - RHB"] == (
        "fails: A BCO - RHB failed: the convoy through empty seas (rule 4(a)(i)) was "
        "disrupted: Sea Four, empty, was attacked by F BHO - S4.")
    assert done["F BHO - S4"].startswith("succeeds")
    # the holder's own fleet moving in does not attack it
    pos = position([*EMPTY_SEA_CONVOY, "yellow F s6", "red F bho"], strong_since="S1870M")
    done = results(pos, *EMPTY_SEA_ORDERS, "F bho - s4")
    assert done["A BCO - RHB"].startswith("succeeds")
    # with Sea Six empty, the chain the other way round the ring (five empty seas) carries
    # the army, as a second route of fleets would (4.A.1)
    pos = position([*EMPTY_SEA_CONVOY, "blue F bho"], strong_since="S1870M")
    done = results(pos, *EMPTY_SEA_ORDERS, "F bho - s4")
    assert done["A BCO - RHB"].startswith("succeeds")


def test_rule_4a_i_only_the_holders_own_armies_and_fleets_at_both_ends() -> None:
    # Blue's army is not carried by Red's empty seas
    pos = position(["blue A bco", "red F s5", "red F s3"], strong_since="S1870M")
    assert check_order(pos, parse_order("A bco - rhb", pos)) is not None
    # no fleet at the far end: the empty sea beside Red Colony does not end a convoy
    pos = position(["red A bco", "red F s5"], strong_since="S1870M")
    assert check_order(pos, parse_order("A bco - rco", pos)) is not None


@pytest.mark.parametrize("policy", POLICIES["empty_convoy_ends"])
def test_rule_4a_i_policy_empty_convoy_ends(policy: str) -> None:
    # Blue's fleet at the far end: the holder's own fleets only, or any convoying fleet
    pos = position(["red A bco", "red F s5", "blue F s3"], strong_since="S1870M",
                   variant=world(empty_convoy_ends=policy))
    legal = check_order(pos, parse_order("A bco - rhb", pos)) is None
    assert legal is (policy == "any_fleets")
    if legal:
        done = results(pos, *EMPTY_SEA_ORDERS)
        assert done["A BCO - RHB"].startswith("succeeds")


def test_rule_4a_normal_operation_for_the_holder() -> None:
    # the holder's two-fleet convoy of its own army survives an attack on a convoying fleet
    pos = position(["red A bco", "red F s5", "red F s4", "blue F s3"])
    done = results(pos, "A bco - rco", "F s5 C A bco - rco", "F s4 C A bco - rco", "F s3 - s4")
    assert done["A BCO - RCO"] == "succeeds: A BCO - RCO moved by convoy."


def test_rule_4a_ii_a_majority_of_fleets_at_sea_needs_one_more_support() -> None:
    units = ["red F s1", "red F s2", "red F s3", "red F s4", "red F rho",
             "blue F s8", "blue F chu"]
    done = results(position(units), "F s8 - s1", "F chu S F s8 - s1")
    assert done["F S8 - S1"] == ("fails: F S8 - S1 failed: it bounced off F S1 (2 vs 2), which "
                                 "needs 1 more support than usual to be dislodged.")
    # without the majority (5 of 10 fleets) the same attack dislodges
    more = [*units, "blue F s6", "blue F s7", "blue F gho"]
    done = results(position(more), "F s8 - s1", "F chu S F s8 - s1")
    assert done["F S8 - S1"].startswith("succeeds")
    # and a coastal fleet of the holder gets no bonus
    done = results(position(units), "F s1 - rho", "F s2 S F s1 - rho")
    assert done["F S1 - RHO"].startswith("fails")  # (own unit)


def test_rule_4b_a_convoy_through_two_fleets_fails_when_one_is_attacked() -> None:
    pos = position(["blue A bco", "blue F s5", "blue F s4", "red F s3"])
    done = results(pos, "A bco - rco", "F s5 C A bco - rco", "F s4 C A bco - rco", "F s3 - s4")
    assert done["A BCO - RCO"] == ("fails: A BCO - RCO failed: the convoy was broken when F S4 "
                                   "was attacked (a fragile convoy).")
    assert done["F S4 C A BCO - RCO"].startswith("fails: F S4 C A BCO - RCO was cut by the "
                                                 "attack of F S3 - S4")
    assert done["F S3 - S4"].startswith("fails")  # the attack itself bounced


def test_rule_4b_a_convoy_of_a_foreign_army_is_fragile_one_of_its_own_with_one_fleet_not() -> None:
    # blue (tier b) convoys yellow's army through one fleet: fragile
    pos = position(["yellow A rhb", "blue F s3", "red F s4", "red F s2"],
                   centers={"rhb": "yellow"})
    done = results(pos, "A rhb - rco via convoy", "F s3 C A rhb - rco", "F s4 - s3")
    assert done["A RHB - RCO VIA"].startswith("fails")
    # blue's own army through one blue fleet: not fragile
    pos = position(["blue A rhb", "blue F s3", "red F s4"])
    done = results(pos, "A rhb - rco via convoy", "F s3 C A rhb - rco", "F s4 - s3")
    assert done["A RHB - RCO VIA"].startswith("succeeds")


def test_rule_4c_fleets_are_removed_before_armies() -> None:
    tiers = {**TIERS, "yellow": "c"}
    pos = position(["yellow F s7", "yellow F s8", "yellow A yho", "yellow A npo"],
                   phase="W1871A", centers={"yho": "yellow", "npo": "yellow"}, tiers=tiers)
    assert adjustment_counts(pos)["yellow"] == -2
    problem = check_order(pos, parse_order("remove A npo", pos))
    assert problem is not None and "must remove its fleets before" in problem[1]
    assert check_order(pos, parse_order("remove F s7", pos)) is None
    assert set(legal_orders(pos, "yellow")) == {"s7", "s8"}
    # civil disorder removes the fleets too
    resolution = adjudicate(pos, [])
    assert {u.type for u in resolution.civil_disorder} == {UnitType.FLEET}
    # tier (b) is not bound
    pos = position(["blue F s5", "blue A bco"], phase="W1871A", centers={"bco": "blue"})
    assert check_order(pos, parse_order("remove A bco", pos)) is None


def test_rule_4c_a_dislodged_fleet_retreats_only_to_a_coastal_province() -> None:
    tiers = {**TIERS, "yellow": "c"}
    fleet = Unit("yellow", UnitType.FLEET, "s7")
    pos = position(["red F s6"], phase="F1871R", tiers=tiers,
                   dislodged=(DislodgedUnit(fleet, "s6"),))
    assert retreat_options(pos, pos.dislodged[0]) == ("gho", "yho")
    pos = position(["red F s6"], phase="F1871R", tiers={**TIERS, "yellow": "b"},
                   dislodged=(DislodgedUnit(fleet, "s6"),))
    assert retreat_options(pos, pos.dislodged[0]) == ("gho", "yho", "s8")


def test_rule_4d_a_power_with_three_fleets_or_fewer_builds_one_fleet_a_year() -> None:
    pos = position(["red A inl", "blue F s5", "blue F s6", "blue F s7", "blue F bho"],
                   phase="W1871A", centers={"rho": "red", "rhb": "red", "rco": "red",
                                            "pan": "red", "bho": "blue"},
                   tiers={"red": "d", "blue": "a", "green": "d", "yellow": "d"}, holder="blue")
    assert adjustment_counts(pos)["red"] == 2  # 3 more centres than units, 2 home centres
    resolution = adjudicate(pos, [parse_order(o, pos) for o in ("build F rho", "build F rhb")])
    done = {str(r.order): r for r in resolution.results}
    assert done["F RHO B"].succeeded
    assert "at most 1 fleet a year (rule 4(d))" in done["F RHB B"].reason
    resolution = adjudicate(pos, [parse_order(o, pos) for o in ("build F rho", "build A rhb")])
    assert all(r.succeeded for r in resolution.results)


def test_rule_4e_a_lone_fleet_goes_to_sea_only_next_to_its_own_centre() -> None:
    pos = position(["green F gho"], centers={"gho": "green"})
    assert check_order(pos, parse_order("F gho - s6", pos)) is None
    pos = position(["green F s6"], centers={"gho": "green"})
    problem = check_order(pos, parse_order("F s6 - s5", pos))
    assert problem is not None and "only next to one of its own supply centres" in problem[1]
    assert "F S6 - S5" not in {str(o) for o in legal_orders(pos, "green")["s6"]}
    assert check_order(pos, parse_order("F s6 - bco", pos)) is None  # a coast is not a sea


def test_rule_4e_policy_base_zero_a_lone_fleet_at_sea_falls_to_a_single_attack() -> None:
    units = ["green F s6", "red F s5", "yellow F s7"]
    fleets = {"red": 4, "blue": 2, "green": 1, "yellow": 0}
    done = results(position(units, fleets=fleets), "F s5 - s6")
    assert done["F S5 - S6"].startswith("succeeds")  # red has 4 fleets: 1 vs 0
    done = results(position(units, fleets=fleets), "F s7 - s6")
    assert done["F S7 - S6"].startswith("fails")  # yellow has fewer than 4
    # its supports still count under base_zero
    supported = [*units, "blue F bco"]
    done = results(position(supported, fleets=fleets), "F s5 - s6", "F bco S F s6")
    assert done["F S5 - S6"].startswith("fails")


def test_rule_4e_policy_always_dislodged_whatever_its_supports() -> None:
    units = ["green F s6", "red F s5", "blue F bco"]
    fleets = {"red": 4, "blue": 2, "green": 1, "yellow": 0}
    pos = position(units, fleets=fleets, variant=world(one_fleet_defense="always_dislodged"))
    done = results(pos, "F s5 - s6", "F bco S F s6")
    assert done["F S5 - S6"].startswith("succeeds")


def test_rule_4e_every_convoy_of_a_one_fleet_power_is_fragile() -> None:
    pos = position(["green A rhb", "green F s3", "red F s4"])
    done = results(pos, "A rhb - rco via convoy", "F s3 C A rhb - rco", "F s4 - s3")
    assert done["A RHB - RCO VIA"].startswith("fails")


# -- rule 2: army retreats ------------------------------------------------------------------

def _retreat_position() -> Position:
    army = Unit("yellow", UnitType.ARMY, "rho")
    fleet = Unit("yellow", UnitType.FLEET, "s7")
    return position(["red A chu", "red F s6"], phase="S1871R",
                    dislodged=(DislodgedUnit(army, "chu"), DislodgedUnit(fleet, "s6")))


def test_rule_2_armies_must_retreat_when_able() -> None:
    pos = _retreat_position()
    problem = check_order(pos, parse_order("A rho disband", pos))
    assert problem is not None and "must retreat" in problem[1]
    assert check_order(pos, parse_order("F s7 disband", pos)) is None  # fleets may


def test_rule_2_unordered_armies_retreat_at_random_and_fleets_are_disbanded() -> None:
    pos = _retreat_position()
    hooks = pos.variant.hooks
    army, fleet = pos.dislodged
    options = retreat_options(pos, army)
    assert set(options) == {"rhb", "inl", "pan"}
    drawn = {hooks.unordered_retreat(pos, army, options, random.Random(seed))
             for seed in range(30)}
    assert drawn == set(options)
    assert hooks.unordered_retreat(pos, fleet, retreat_options(pos, fleet),
                                   random.Random(0)) is None


# -- rule 3: builds --------------------------------------------------------------------------

def test_rule_3_builds_are_capped_by_owned_home_centres_and_colonies_are_build_sites() -> None:
    centers = {"rho": "red", "rhb": "red", "rco": "red", "pan": "red", "col": "red"}
    pos = position(["red A inl"], phase="W1871A", centers=centers, **NOT_HOLDER)
    assert adjustment_counts(pos)["red"] == 2  # 4 more centres than units, 2 home centres
    assert check_order(pos, parse_order("build A rco", pos)) is None  # its colony
    problem = check_order(pos, parse_order("build A pan", pos))
    assert problem is not None  # neither a home centre nor a colony


def test_rule_3_policy_half_rule_ceil_a_lone_colony_build_needs_a_home_build() -> None:
    centers = {"rho": "red", "rhb": "red", "rco": "red", "pan": "red", "col": "red"}
    pos = position(["red A inl"], phase="W1871A", centers=centers)
    resolution = adjudicate(pos, [parse_order("build A rco", pos)])
    assert not resolution.results[0].succeeded
    assert "at least half of the armies built" in resolution.results[0].reason
    resolution = adjudicate(pos, [parse_order(o, pos) for o in ("build A rco", "build A rho")])
    assert all(r.succeeded for r in resolution.results)


def test_rule_3_policy_half_rule_floor_a_lone_colony_build_stands() -> None:
    centers = {"rho": "red", "rhb": "red", "rco": "red", "pan": "red", "col": "red"}
    pos = position(["red A inl"], phase="W1871A", centers=centers,
                   variant=world(half_rule_rounding="floor"))
    resolution = adjudicate(pos, [parse_order("build A rco", pos)])
    assert resolution.results[0].succeeded


def test_rule_3_policy_colony_builds_own_or_any_colony() -> None:
    centers = {"rho": "red", "rhb": "red", "bco": "red", "pan": "red", "col": "red"}
    units = ["red A inl"]
    pos = position(units, phase="W1871A", centers=centers, **NOT_HOLDER)
    assert check_order(pos, parse_order("build A bco", pos)) is not None  # blue's colony
    pos = position(units, phase="W1871A", centers=centers,
                   variant=world(colony_builds="any_colony"), **NOT_HOLDER)
    assert check_order(pos, parse_order("build A bco", pos)) is None


def test_rule_3_the_build_sites_leave_out_builds_the_half_rule_would_void() -> None:
    centers = {"rho": "red", "rhb": "red", "rco": "red", "pan": "red", "col": "red"}
    # two builds due and both homes free: a colony army stands beside a home one
    pos = position(["red A inl"], phase="W1871A", centers=centers, **NOT_HOLDER)
    assert set(build_sites(pos, "red")) == {"rho", "rhb", "rco"}
    # both homes taken: a colony build alone is always void (ceil), so it is not offered
    pos = position(["red A rho", "red A rhb"], phase="W1871A", centers=centers, **NOT_HOLDER)
    assert adjustment_counts(pos)["red"] == 2
    assert build_sites(pos, "red") == ()
    assert all(not isinstance(o, Build) for options in legal_orders(pos, "red").values()
               for o in options)
    floor = position(["red A rho", "red A rhb"], phase="W1871A", centers=centers,
                     variant=world(half_rule_rounding="floor"), **NOT_HOLDER)
    assert build_sites(floor, "red") == ("rco",)


def test_rule_3_a_build_the_half_rule_voids_is_warned_of_when_given() -> None:
    centers = {"rho": "red", "rhb": "red", "rco": "red", "pan": "red", "col": "red"}
    game = Game(world())
    game._position = position(["red A rho", "red A rhb"], phase="W1871A",  # noqa: SLF001
                              centers=centers, **NOT_HOLDER)
    game.submit("red", "build A rco")
    assert any(w.startswith("A RCO B: will be void: at least half of the armies built")
               for w in game.warnings("red"))


# -- rule 5: victory -------------------------------------------------------------------------

def test_rule_5_sea_superiority_and_a_majority_of_armies_wins() -> None:
    variant = world()
    units = ["red F s1", "red A rhb", "red A rco", "red A inl", "yellow A yho",
             "neutral A chu"]
    pos = position(units, phase="W1871A", fleets={"red": 1, "blue": 0, "green": 0,
                                                  "yellow": 0})
    won = variant.hooks.victory(pos, [(p,) for p in POWERS], 99)
    assert won is not None and won.team == 0 and "3 of the 5 armies" in won.summary
    nobody = position(units, phase="W1871A", holder=None)
    assert variant.hooks.victory(nobody, [(p,) for p in POWERS], 99) is None


def test_rule_5_policy_victory_armies_all_or_powers_only() -> None:
    units = ["red F s1", "red A rhb", "red A rco", "yellow A yho", "neutral A chu",
             "neutral A pan"]
    teams = [(p,) for p in POWERS]
    pos = position(units, phase="W1871A")
    assert world().hooks.victory(pos, teams, 99) is None  # 2 of 5
    only = world(victory_armies="powers_only")
    pos = position(units, phase="W1871A", variant=only)
    assert only.hooks.victory(pos, teams, 99) is not None  # 2 of 3


# -- rule 6: geography the mini-world has -------------------------------------------------------

def test_rule_6f_the_azores_sea_centre_is_owned_by_a_fleet() -> None:
    pos = position(["red F s1", "red F s2", "red F rho"], phase="F1871M")
    done = results(pos, "F s1 - azo", "F s2 S F s1 - azo", "F rho S F s1 - azo")
    assert done["F S1 - AZO"].startswith("succeeds")
    game = Game(world())
    game._position = pos  # noqa: SLF001 - a game from a chosen Fall position
    game.submit("red", "F s1 - azo\nF s2 S F s1 - azo\nF rho S F s1 - azo")
    game.process()
    assert game.position.centers.get("azo") == "red"


def test_rule_6l_a_fleet_supports_into_the_pole_it_cannot_enter() -> None:
    pos = position(["red A yho", "red F s8", "blue A npo"])
    assert check_order(pos, parse_order("F s8 - npo", pos)) is not None
    done = results(pos, "A yho - npo", "F s8 S A yho - npo")
    assert done["A YHO - NPO"].startswith("succeeds")



def test_rule_6l_armies_reach_the_pole_by_convoy_across_its_support_border() -> None:
    """"Passable to armies only, and thus armies may reach it only by convoy": the fleet
    beside the pole lands an army there, and takes it off again."""
    pos = position(["yellow A chu", "yellow F s8"], phase="S1871M")
    assert check_order(pos, parse_order("F s8 C A chu - npo", pos)) is None
    done = results(pos, "A chu - npo", "F s8 C A chu - npo")
    assert done["A CHU - NPO"].startswith("succeeds")
    assert "A CHU - NPO" in {str(o) for o in legal_orders(pos, "yellow")["chu"]}
    back = position(["yellow A npo", "yellow F s8"], phase="S1871M")
    done = results(back, "A npo - chu", "F s8 C A npo - chu")
    assert done["A NPO - CHU"].startswith("succeeds")
    assert check_order(back, parse_order("F s8 - npo", back)) is not None  # fleets stay out

# -- rule 7: politics --------------------------------------------------------------------------

def test_rule_7a_a_defended_neutral_holds_is_supported_and_is_annihilated() -> None:
    pos = Position.initial(world())
    assert pos.units["chu"].power == NEUTRAL
    resolution = adjudicate(pos, [parse_order(o, pos) for o in
                                  ("A rhb - col", "F s1 S A rhb - col")])
    assert resolution.results[0].succeeded is False  # col is supported by pan
    pos = position(["neutral A col", "red A rhb", "red A rco", "red A inl"])
    resolution = adjudicate(pos, [parse_order(o, pos) for o in
                                  ("A rhb - col", "A rco S A rhb - col")])
    assert resolution.units["col"].power == "red" and resolution.dislodged == ()


def test_rule_7b_panama_and_columbia_support_each_other() -> None:
    pos = position(["neutral A pan", "neutral A col", "red A rhb", "red A rco", "red A inl"])
    done = results(pos, "A rhb - col", "A rco S A rhb - col")
    assert done["A RHB - COL"].startswith("fails")  # 2 against 1 + Panama's support
    assert done["A PAN S A COL"].startswith("succeeds")
    done = results(pos, "A rhb - col", "A rco S A rhb - col", "A inl - pan")
    assert done["A RHB - COL"].startswith("succeeds")  # the support was cut
    assert done["A PAN S A COL"].startswith("fails")


def test_rule_7c_church_needs_fleet_and_four_supports() -> None:
    armies = ["red A rho", "red A yho", "red A inl", "red A pan"]
    # an army with five supports fails, with the rule's reason
    pos = position(["neutral A chu", *armies, "red F s1", "red F s8"])
    done = results(pos, "A rho - chu", "A yho S A rho - chu", "F s1 S A rho - chu",
                   "F s8 S A rho - chu")
    assert done["A RHO - CHU"] == ("fails: A RHO - CHU failed: Church's army can be dislodged "
                                   "only by a fleet supported by four armies (rule 7(c)).")
    # a fleet with three armies' and a fleet's supports fails
    pos = position(["neutral A chu", "red F s1", "red A rho", "red A yho", "red A pan",
                    "red F s8"])
    done = results(pos, "F s1 - chu", "A rho S F s1 - chu", "A yho S F s1 - chu",
                   "A pan S F s1 - chu", "F s8 S F s1 - chu")
    assert "only by a fleet supported by four armies" in done["F S1 - CHU"]


def test_rule_7c_a_fleet_with_four_army_supports_takes_the_church() -> None:
    pos = position(["neutral A chu", "red F s1", *ARMIES_AROUND_THE_CHURCH])
    orders = ["F s1 - chu", *(f"A {a.split()[-1]} S F s1 - chu" for a in
                              ARMIES_AROUND_THE_CHURCH)]
    resolution = adjudicate(pos, [parse_order(o, pos) for o in orders])
    assert resolution.units["chu"] == Unit("red", UnitType.FLEET, "chu")
    assert resolution.dislodged == ()  # the Church's army is annihilated
    # one of the supports cut: the attack fails however strong it still is
    pos = position(["neutral A chu", "red F s1", *ARMIES_AROUND_THE_CHURCH, "blue A col"])
    resolution = adjudicate(pos, [parse_order(o, pos) for o in [*orders, "A col - pan"]])
    assert resolution.units["chu"].power == NEUTRAL


ARMIES_AROUND_THE_CHURCH = ["red A rho", "red A yho", "red A pan", "red A inl"]


def test_rule_7d_the_reason_says_the_azores_fleet_needs_one_more_support() -> None:
    pos = position(["neutral F azo", "red F s1", "red F s2"])
    done = results(pos, "F s1 - azo", "F s2 S F s1 - azo")
    assert done["F S1 - AZO"] == ("fails: F S1 - AZO failed: it bounced off F AZO (2 vs 2), "
                                  "which needs 1 more support than usual to be dislodged.")


def test_rule_7d_the_azores_fleet_needs_one_more_support() -> None:
    pos = position(["neutral F azo", "red F s1", "red F s2", "red F rho"], fleets={
        "red": 3, "blue": 2, "green": 1, "yellow": 0})
    done = results(pos, "F s1 - azo", "F s2 S F s1 - azo")
    assert done["F S1 - AZO"].startswith("fails")
    done = results(pos, "F s1 - azo", "F s2 S F s1 - azo", "F rho S F s1 - azo")
    assert done["F S1 - AZO"].startswith("succeeds")


# -- rule 8: inactive units, rule 9: the poles, rule 10: the first year --------------------------

def test_rule_8_an_inactive_unit_only_holds_until_attacked() -> None:
    game = Game(world())
    assert game.position.state["inactive"] == ["s3"]
    report = game.submit("red", "F s3 - s4")
    assert report[0].error is not None and "inactive" in report[0].error
    assert [str(o) for o in legal_orders(game.position, "red")["s3"]] == ["F S3 H"]
    game.submit("blue", "F bho - s4")  # not an attack on s3
    game.process()
    assert game.position.state["inactive"] == ["s3"]
    game.submit("blue", "F s4 - s3")
    game.process()
    assert game.position.state["inactive"] == []  # attacked: mobilised


def test_rule_8_the_record_says_what_brought_each_inactive_unit_into_play() -> None:
    game = Game(world())
    game.submit("blue", "F bho - s4")
    game.process()
    assert not game.history[-1].notes  # nothing woke F s3
    game.submit("blue", "F s4 - s3")
    game.process()
    assert "F S3 (Red) is mobilised by the attack of F S4 - S3 (rule 8)" \
        in game.history[-1].notes
    # in a winter, by a MOBILISE order (one build foregone mobilises two units)
    game = Game(world())
    game._position = position(["blue F s5", "blue F s4", "blue A inl"], phase="W1871A",  # noqa: SLF001
                              centers={"bho": "blue", "bco": "blue", "pan": "blue",
                                       "col": "blue"}, inactive=("s5", "s4"))
    game.submit("blue", "F s5 MOBILISE, F s4 MOBILISE")
    game.process()
    assert game.history[-1].notes[:2] == ("F S4 (Blue) is mobilised (rule 8)",
                                          "F S5 (Blue) is mobilised (rule 8)")


def test_rule_7a_the_record_and_the_results_say_a_neutral_is_annihilated() -> None:
    from realpolitik.cli._common import Style
    from realpolitik.cli._report import format_results, phase_report

    game = Game(world())
    game._position = position(["neutral A col", "red A rhb", "red A rco", "red A inl"])  # noqa: SLF001
    game.submit("red", "A rhb - col, A rco S A rhb - col")
    game.process()
    note = "A COL (neutral), dislodged by A RHB - COL, is annihilated (rule 7(a))"
    assert note in game.history[-1].notes
    report = phase_report(game, 0)
    assert note in report["notes"]
    assert f"  Note: {note}" in format_results(game, report, Style(False))
    assert note in savefile.game_to_json(game)["phases"][0]["notes"]


def test_rule_8_the_record_says_an_inactive_unit_disbanded_when_dislodged() -> None:
    game = Game(world(inactive_dislodged="disband"))
    game._position = position(["red F s3", "blue F s4", "blue F rco"],  # noqa: SLF001
                              variant=game.variant, inactive=("s3",))
    game.submit("blue", "F s4 - s3, F rco S F s4 - s3")
    game.process()
    assert [n for n in game.history[-1].notes if "S3" in n] == [  # one note, not two
        "F S3 (Red), dislodged by F S4 - S3, is annihilated (rule 8: an inactive unit "
        "dislodged is disbanded, by the policy inactive_dislodged = disband)"]


@pytest.mark.parametrize("policy, retreats", [("retreat", True), ("disband", False)])
def test_rule_8_policy_inactive_dislodged(policy: str, retreats: bool) -> None:
    variant = world(inactive_dislodged=policy)
    pos = position(["red F s3", "blue F s4", "blue F rco"], variant=variant, inactive=("s3",))
    resolution = adjudicate(pos, [parse_order(o, pos) for o in
                                  ("F s4 - s3", "F rco S F s4 - s3")])
    assert resolution.units["s3"].power == "blue"
    assert bool(resolution.dislodged) is retreats


def test_rule_9_a_pole_is_a_home_centre_of_its_owner() -> None:
    centers = {"yho": "yellow", "npo": "yellow", "azo": "yellow"}
    pos = position(["yellow A inl"], phase="W1871A", centers=centers)
    assert adjustment_counts(pos)["yellow"] == 2  # yho and the pole are home centres
    assert check_order(pos, parse_order("build A npo", pos)) is None
    without = position(["yellow A inl"], phase="W1871A",
                       centers={"yho": "yellow", "azo": "yellow", "gho": "yellow"})
    assert adjustment_counts(without)["yellow"] == 1


def test_rule_7h_the_holder_builds_a_fleet_with_no_home_centre() -> None:
    centers = {"rco": "red", "pan": "red"}
    pos = position(["red A inl"], phase="W1871A", centers=centers)
    assert adjustment_counts(pos)["red"] == 1
    resolution = adjudicate(pos, [parse_order("build F rco", pos)])
    assert resolution.results[0].succeeded
    not_holder = position(["red A inl"], phase="W1871A", centers=centers, holder="blue",
                          tiers={**TIERS, "red": "d", "blue": "a"})
    assert adjustment_counts(not_holder)["red"] == 0


def test_rule_10_the_game_starts_in_1870_and_units_without_orders_hold() -> None:
    game = Game(world())
    assert str(game.phase) == "S1870M"
    before = dict(game.position.units)
    game.process()
    assert dict(game.position.units) == before


# -- rule 1 and the rest of rule 6 -------------------------------------------------------------

def test_rule_1_the_regular_rules_apply() -> None:
    # a plain bounce, a supported attack and a cut support, as in the rulebooks
    pos = position(["red A rho", "blue A pan", "blue A col", "red A inl"])
    done = results(pos, "A rho - pan", "A inl S A rho - pan", "A col S A pan")
    assert done["A RHO - PAN"].startswith("fails")  # 2 against 2
    done = results(pos, "A rho - pan", "A inl S A rho - pan")
    assert done["A RHO - PAN"].startswith("succeeds")


def test_rule_6a_copenhagen_is_closed_by_an_enemy_fleet_or_a_standoff() -> None:
    assert results(position(["green F gho"]), "F gho - yho")["F GHO - YHO"].startswith(
        "succeeds")
    done = results(position(["green F gho", "blue F s7"]), "F gho - yho")
    assert "the passage was closed by F S7 in Sea Seven" in done["F GHO - YHO"]
    done = results(position(["green F gho", "blue F s8", "red F s6"]),
                   "F gho - yho", "F s8 - s7", "F s6 - s7")
    assert "closed by a stand-off in Sea Seven" in done["F GHO - YHO"]
    # an army is not concerned (the gate is for fleets)
    assert results(position(["green A gho", "blue F s7"]), "A gho - yho")[
        "A GHO - YHO"].startswith("succeeds")


def test_rule_6m_armies_cross_the_bering_sea_unless_an_enemy_fleet_is_there() -> None:
    assert results(position(["red A rho"]), "A rho - chu")["A RHO - CHU"].startswith(
        "succeeds")
    done = results(position(["red A rho", "blue F s1"]), "A rho - chu")
    assert "closed by F S1" in done["A RHO - CHU"]
    assert results(position(["red A rho", "red F s1"]), "A rho - chu")[
        "A RHO - CHU"].startswith("succeeds")  # its own fleet


def test_rule_6m_a_paradox_of_the_crossing_fails_rather_than_two_units_entering_one_province(
        ) -> None:
    # The army may cross only if Sea One is emptied, which it is only if the fleet leaving it
    # beats the army into Red Home: no resolution is consistent. The paradox rule fails the
    # moves of the paradox; before, both moves were taken to succeed (and the next board
    # could not be made: two units entering one province).
    pos = position(["green A chu", "green A pan", "green F azo", "blue F s1", "blue A inl",
                    "red F rho"])
    orders = ["A chu - rho", "A pan S A chu - rho", "F azo S A chu - rho", "F s1 - rho",
              "A inl S F s1 - rho", "F rho H"]
    done = results(pos, *orders)
    assert done["A CHU - RHO"].startswith("fails")
    assert "paradox" in done["F S1 - RHO"] and done["F S1 - RHO"].startswith("fails")
    after = moved(pos, *orders)
    assert after["rho"] == Unit("red", UnitType.FLEET, "rho")
    assert after["s1"].power == "blue" and after["chu"].power == "green"


def test_rule_6d_the_army_crossing_beside_a_passage_is_gated_like_6a() -> None:
    # Detroit-Ottawa beside Lake St Clair: the same gated army border as 6(m)
    done = results(position(["red A rho", "blue F s1"]), "A rho - chu")
    assert done["A RHO - CHU"].startswith("fails")
    # fleets may not take the army border
    pos = position(["red F rho"])
    assert check_order(pos, parse_order("F rho - inl", pos)) is not None


@pytest.mark.parametrize("units, orders, swapped", [
    (["red A rhb", "blue A rco"], ["A rhb - rco", "A rco - rhb"], True),
    (["red A rhb", "blue F rco"], ["A rhb - rco", "F rco - rhb"], True),
    (["red F rhb", "blue F rco"], ["F rhb - rco", "F rco - rhb"], False),
])
def test_rule_6e_6j_units_exchange_places_across_a_river(units: list[str], orders: list[str],
                                                         swapped: bool) -> None:
    after = moved(position(units), *orders)
    assert (after["rco"].power == "red") is swapped
    # elsewhere, two units may not exchange places
    blocked = moved(position(["red A rho", "blue A inl"]), "A rho - inl", "A inl - rho")
    assert blocked["rho"].power == "red"


def test_rule_6h_an_impassable_area() -> None:
    pos = position(["red A pan"])
    assert world().map.provinces["swi"].terrain.value == "impassable"
    assert check_order(pos, parse_order("A pan - swi", pos)) == (
        "impassable", "Switzerland is impassable: no unit may enter it.")


def test_rule_6i_a_province_on_the_polar_icecap_is_coastal_without_a_sea(tmp_path: Path
                                                                          ) -> None:
    # the mini-world with an ice cap north of Yellow Home, and an Arctic shore that borders
    # the ice cap and Yellow Home but no sea: a coastal space, its coast along the ice cap
    folder = tmp_path / "icecap"
    shutil.copytree(FOLDER, folder)
    with (folder / "provinces.csv").open("a") as out:
        out.write("ice,Ice Cap,land,no,,\narc,Arctic Shore,coast,no,,\n")
    with (folder / "adjacencies.csv").open("a") as out:
        out.write("ice,yho,army\nice,arc,army\narc,yho,both\n")
    variant = load_variant(folder)
    the_map = variant.map
    assert not any(the_map.is_sea(n)
                   for n in the_map.fleet_neighbours("arc"))
    pos = position(["yellow F yho", "green A ice"], variant=variant)
    assert check_order(pos, parse_order("F yho - arc", pos)) is None
    assert "F YHO - ARC" in {str(o) for o in legal_orders(pos, "yellow")["yho"]}
    assert results(pos, "F yho - arc")["F YHO - ARC"].startswith("succeeds")
    # fleets keep off the ice cap itself; armies cross it
    assert check_order(pos, parse_order("F yho - ice", pos)) is not None
    assert results(pos, "A ice - arc")["A ICE - ARC"].startswith("succeeds")


def _tiny_variant(folder: Path, provinces: str, adjacencies: str, extra: str = "",
                  coasts: str = "") -> Variant:
    """A two-power variant with no units at the start, written to ``folder``."""
    folder.mkdir()
    (folder / "variant.toml").write_text(
        '[variant]\nid = "tiny"\nname = "Tiny"\nstart = "S1901M"\nsolo_centers = 3\n\n'
        '[[powers]]\nid = "red"\nname = "Red"\n\n[[powers]]\nid = "blue"\nname = "Blue"\n\n'
        '[start]\nred = []\nblue = []\n' + extra)
    (folder / "provinces.csv").write_text(
        "id,name,terrain,supply_center,home_of,aliases\n" + provinces)
    (folder / "adjacencies.csv").write_text("a,b,units\n" + adjacencies)
    if coasts:
        (folder / "coasts.csv").write_text("province,coast,name,aliases\n" + coasts)
    return load_variant(folder)


def test_rule_6c_a_five_pointed_corner(tmp_path: Path) -> None:
    # five lands round a point: each next to its two neighbours round it, and across the
    # point to the two others; a crossing is a move across the point
    ring = ["ang", "zam", "rho", "bec", "win"]
    homes = {"ang": "red", "rho": "blue"}
    provinces = "".join(f"{p},{p.title()},land,{'yes' if p in homes else 'no'},"
                        f"{homes.get(p, '')},\n" for p in ring)
    borders = "".join(f"{x},{y},army\n" for i, x in enumerate(ring) for y in ring[i + 1:])
    corner = '\n[[corners]]\nid = "point"\nring = ' + json.dumps(ring) + "\n"
    variant = _tiny_variant(tmp_path / "five", provinces, borders, corner)
    made = [Unit("red", UnitType.ARMY, "ang"), Unit("blue", UnitType.ARMY, "zam")]
    pos = Position.build(variant, "S1901M", made, {})
    assert results(pos, "A ang - rho")["A ANG - RHO"].startswith("succeeds")
    both = results(pos, "A ang - rho", "A zam - bec")  # across the point, two directions
    assert all("crossed in more than one direction" in r for r in both.values())
    # Angola and Windhoek are neighbours round the point: no crossing
    beside = results(pos, "A ang - win", "A zam - bec")
    assert beside["A ANG - WIN"].startswith("succeeds")
    assert beside["A ZAM - BEC"].startswith("succeeds")


def test_rule_6g_a_triple_coast(tmp_path: Path) -> None:
    # a province with three coasts, each on its own sea
    provinces = ("a,Red Land,coast,yes,red,\nc,Blue Land,coast,yes,blue,\n"
                 "tri,Three Coasts,coast,yes,,\nn,North Sea,sea,no,,\ne,East Sea,sea,no,,\n"
                 "s,South Sea,sea,no,,\n")
    borders = ("n,tri/nc,fleet\ne,tri/ec,fleet\ns,tri/sc,fleet\nn,e,fleet\ne,s,fleet\n"
               "a,n,fleet\nc,s,fleet\na,tri,army\nc,tri,army\n")
    coasts = ("tri,nc,North Coast,north\ntri,ec,East Coast,east\n"
              "tri,sc,South Coast,south\n")
    variant = _tiny_variant(tmp_path / "triple", provinces, borders, coasts=coasts)
    assert variant.map.coasts("tri") == ("tri/nc", "tri/ec", "tri/sc")
    pos = Position.build(variant, "S1901M", [Unit("red", UnitType.FLEET, "e")], {})
    assert check_order(pos, parse_order("F e - tri/ec", pos)) is None
    assert check_order(pos, parse_order("F e - tri/nc", pos)) is not None
    assert results(pos, "F e - tri")["F E - TRI/EC"].startswith("succeeds")  # the one it reaches
    on_coast = Position.build(variant, "S1901M", [Unit("red", UnitType.FLEET, "tri/ec")], {})
    assert check_order(on_coast, parse_order("F tri/ec - e", on_coast)) is None
    assert check_order(on_coast, parse_order("F tri/ec - n", on_coast)) is not None
    assert check_order(on_coast, parse_order("F tri/ec - s", on_coast)) is not None


def test_rule_6k_no_canals_a_fleet_does_not_cross_land() -> None:
    pos = position(["red F rho"])
    assert check_order(pos, parse_order("F rho - pan", pos)) is not None
    assert "pan" not in {province_of(loc) for loc in world().map.fleet_neighbours("rho")}


def test_rule_6b_a_corner_crossed_in_two_directions_fails() -> None:
    corner = load_variant(Path(__file__).parent / "variants" / "corner")
    start = Position.initial(corner)
    orders = [parse_order(o, start) for o in ("A isl - mai", "F nsea - ssea")]
    resolution = adjudicate(start, orders)
    assert not any(r.succeeded for r in resolution.results)
    assert "crossed in more than one direction" in resolution.results[0].reason


# -- 7(g): inheritance; 7(i), 7(j): special build centres -------------------------------------

def _after_fall(units: list[str], centers: dict[str, str], variant: Variant | None = None
                ) -> Position:
    """The position after a Fall turn in which nothing moved, with the state the hooks carry."""
    before = position(units, phase="F1871M", centers=centers, variant=variant)
    resolution = adjudicate(before, [])
    after = Position.build(before.variant, "W1871A", before.units.values(), centers)
    new_state = before.variant.hooks.next_state(before, resolution, after)
    return after.replace(state=new_state)


def test_rule_7g_the_occupier_of_an_eliminated_power_inherits_its_home_centres() -> None:
    centers = {"gho": "red", "rho": "red"}
    after = _after_fall(["red A gho", "red A inl"], centers)
    assert after.state["inherited"] == {"red": ["gho"]}
    assert after.state["inherited_from"] == ["green"]
    hooks = after.variant.hooks
    assert isinstance(hooks, ColonialWinters)
    assert "gho" in hooks.home_centres(after, "red")
    # occupied by a fleet, not an army: nothing is inherited
    after = _after_fall(["red F gho", "red A inl"], centers)
    assert after.state["inherited"] == {}


@pytest.mark.parametrize("policy, inherits", [("no_units_no_centres", False),
                                              ("no_centres", True)])
def test_rule_7g_policy_elimination(policy: str, inherits: bool) -> None:
    # Green keeps a fleet at sea but has no centre left
    after = _after_fall(["red A gho", "green F s6"], {"gho": "red"},
                        variant=world(elimination=policy))
    assert bool(after.state["inherited"]) is inherits


def test_rule_7i_an_army_beyond_the_home_count_in_a_special_build_centre() -> None:
    centers = {"rho": "red", "rhb": "red", "pan": "red", "col": "red", "bho": "red"}
    owned = {"inl": "red"}
    pos = position(["red F s1"], phase="W1871A", centers=centers, **NOT_HOLDER)
    pos = pos.replace(state={**pos.state, "owned": owned})
    assert adjustment_counts(pos)["red"] == 3  # 2 home centres + 1 special build
    orders = ["build A rho", "build A rhb", "build A pan", "build A col"]
    resolution = adjudicate(pos, [parse_order(o, pos) for o in orders])
    done = {str(r.order): r.succeeded for r in resolution.results}
    assert done == {"A RHO B": True, "A RHB B": True, "A PAN B": True, "A COL B": False}
    # Inland owned by another power: Panland gives nothing
    pos = pos.replace(state={**pos.state, "owned": {"inl": "blue"}})
    assert adjustment_counts(pos)["red"] == 2
    assert check_order(pos, parse_order("build A pan", pos)) is not None


@pytest.mark.parametrize("policy, extra", [("owned", 3), ("qualifying", 2)])
def test_rule_7i_policy_special_build_count(policy: str, extra: int) -> None:
    # Red owns five special build centres, but Panland's Inland is Blue's: the three of
    # Canada and the Vatican qualify. Four owned allow three builds a year ("owned"); three
    # qualifying allow one, or Canada's two (7(j))
    centers = {"pan": "red", "col": "red", "chu": "red", "rco": "red", "bco": "red"}
    pos = position(["red F s1"], phase="W1871A", centers=centers,
                   variant=world(special_build_count=policy), **NOT_HOLDER)
    pos = pos.replace(state={**pos.state, "owned": {"inl": "blue"}})
    hooks = pos.variant.hooks
    assert isinstance(hooks, ColonialWinters)
    sites, allowed = hooks.special_allowance(pos, "red")
    assert sites == {"chu", "rco", "bco"}
    assert allowed == extra


def test_rule_7j_canada_two_armies_or_one_with_one_foreign_unit() -> None:
    centers = {"rco": "red", "bco": "red"}
    hooks = world().hooks
    assert isinstance(hooks, ColonialWinters)
    pos = position(["red F s1"], phase="W1871A", centers=centers, **NOT_HOLDER)
    assert hooks.special_allowance(pos, "red") == ({"rco", "bco"}, 2)
    pos = position(["red F s1", "blue F s5"], phase="W1871A", centers=centers, **NOT_HOLDER)
    assert hooks.special_allowance(pos, "red") == ({"rco", "bco"}, 1)
    pos = position(["red F s1", "blue F s5", "blue F s4"], phase="W1871A", centers=centers,
                   **NOT_HOLDER)
    assert hooks.special_allowance(pos, "red") == (frozenset(), 0)


# -- 4(e), last sentence: the lone fleet leaving a coast, and the holder -----------------------

GREEN = {"gho": "green"}

def test_rule_4e_policy_holder_wins_tie_a_lone_fleet_leaving_a_coast() -> None:
    units = ["green F gho", "red F s5", "blue F s7"]
    # against the holder's equal move the lone fleet loses the tie
    done = results(position(units, centers=GREEN), "F gho - s6", "F s5 - s6")
    assert done["F S5 - S6"].startswith("succeeds") and done["F GHO - S6"].startswith("fails")
    # against anyone else it stands off
    done = results(position(units, centers=GREEN), "F gho - s6", "F s7 - s6")
    assert done["F S7 - S6"].startswith("fails") and done["F GHO - S6"].startswith("fails")
    # and while it stays on the coast it defends normally against the holder
    done = results(position(["green F gho", "red F s6"], centers=GREEN), "F s6 - gho")
    assert done["F S6 - GHO"].startswith("fails")


def test_rule_4e_policy_holder_dislodges_a_lone_fleet_on_a_coast() -> None:
    variant = world(one_fleet_coastal_rule="holder_dislodges")
    done = results(position(["green F gho", "red F s6"], variant=variant, centers=GREEN),
                   "F s6 - gho")
    assert done["F S6 - GHO"].startswith("succeeds")
    done = results(position(["green F gho", "blue F s6"], variant=variant, centers=GREEN),
                   "F s6 - gho")
    assert done["F S6 - GHO"].startswith("fails")  # not the holder
    # leaving the coast, the tie with the holder is a stand-off under this reading
    done = results(position(["green F gho", "red F s5"], variant=variant, centers=GREEN),
                   "F gho - s6", "F s5 - s6")
    assert done["F S5 - S6"].startswith("fails")


# -- 7(e) India, 7(f) Holland -----------------------------------------------------------------

def test_rule_7e_india_belongs_to_the_holder_and_its_armies_stay_in_india() -> None:
    game = Game(world())
    assert game.position.units["ind"].power == "red"  # the holder commands them from the start
    report = game.submit("red", "A ind - inl\nA bom - del")
    assert report[0].error is not None and "may not leave it (rule 7(e))" in report[0].error
    assert report[1].ok
    assert {str(o) for o in legal_orders(game.position, "red")["ind"]} >= {"A IND - DEL"}
    assert "A IND - INL" not in {str(o) for o in legal_orders(game.position, "red")["ind"]}


def test_rule_7e_indian_armies_need_no_centres_and_reappear() -> None:
    variant = world()
    hooks = variant.hooks
    assert isinstance(hooks, ColonialWinters)
    table = {"india": {"units": ["bom"], "violated": False, "barred": None, "bonus": []},
             "holland": {"units": [], "violated": False, "barred": None, "bonus": []}}
    winter = position(["red A bom", "red F s1"], phase="W1871A",
                      centers={"rho": "red", "rhb": "red"})
    winter = winter.replace(state={**winter.state, "protectorates": table})
    assert adjustment_counts(winter)["red"] == 1  # 2 centres, 1 unit: the Indian army is free
    spring = winter.replace(state=winter.state)
    events = hooks.setup_events(variant, variant.setup(None), winter, spring,
                                random.Random(0), None)
    assert events is not None
    assert events.position.units["ind"] == Unit("red", UnitType.ARMY, "ind")
    assert "reappears" in events.notes[0]


def test_rule_7e_with_no_holder_india_is_in_civil_disorder() -> None:
    variant = world()
    hooks = variant.hooks
    assert isinstance(hooks, ColonialWinters)
    india = hooks.protectorates[0]
    assert hooks.controller(position([], holder=None), india) is None
    assert hooks.controller(position([]), india) == "red"


def _india_game(units: list[str], centers: dict[str, str], indian: list[str],
                phase: str = "F1871M", captured: tuple[str, ...] = ()) -> Game:
    """A game of the mini-world at ``phase``, India's armies at ``indian``."""
    game = Game(world())
    start = position(units, phase=phase, centers=centers)
    table = {"india": {"units": list(indian), "violated": False, "barred": None, "bonus": [],
                       "captured": list(captured)},
             "holland": {"units": [], "violated": False, "barred": None, "bonus": []}}
    game._position = start.replace(state={**start.state, "protectorates": table})  # noqa: SLF001
    return game


def test_rule_7e_indias_centres_pass_with_sea_superiority() -> None:
    """The controller uses India's centres as its own: when Blue takes sea superiority from
    Red, Calcutta (under India's army) and empty Bombay become Blue's with the army."""
    game = _india_game(["red A ind", "blue F s1", "blue F s2"],
                       {"ind": "red", "bom": "red"}, indian=["ind"])
    game.process()  # Fall 1871: Blue has the fleets now
    after = game.position
    assert after.state["sea_superiority"]["holder"] == "blue"  # type: ignore[index]
    assert after.units["ind"].power == "blue"
    assert after.centers["ind"] == "blue" and after.centers["bom"] == "blue"
    assert any("Bombay is" in note and "rule 7(e)" in note
               for note in game.history[-1].notes)


def test_rule_7e_a_captured_indian_centre_stays_the_captors() -> None:
    """A centre a foreign power takes is its own, even once its unit has left (the holder
    uses India's centres "unless they are captured by a foreign power")."""
    game = _india_game(["red A ind", "red F s1", "red F s2", "blue A del"],
                       {"ind": "red", "bom": "red"}, indian=["ind"])
    game.submit("blue", "A del - bom")
    game.process()  # Fall 1871: Blue takes Bombay
    assert game.position.centers["bom"] == "blue"
    assert game.position.state["protectorates"]["india"]["captured"] == ["bom"]  # type: ignore[index]
    while game.position.phase.season.name != "SPRING":
        game.process()
    game.submit("blue", "A bom - del")
    game.process()  # Spring 1872: Blue leaves Bombay
    game.process()  # Fall 1872: Bombay stays empty, and Blue's
    assert "bom" not in game.position.units
    assert game.position.centers["bom"] == "blue"
    assert game.position.state["protectorates"]["india"]["captured"] == ["bom"]  # type: ignore[index]


def _holland_after(mover: str) -> Position:
    """Spring 1871 with the Dutch army neutral, after ``mover``'s army entered Batavia."""
    game = Game(world())
    start = position(["neutral A hol", f"{mover} A bco", "red F s1", "red F s2"],
                     centers={"bco": mover})
    table = {"india": {"units": [], "violated": False, "barred": None, "bonus": []},
             "holland": {"units": ["hol"], "violated": False, "barred": None,
                         "bonus": ["hol"]}}
    game._position = start.replace(state={**start.state, "protectorates": table})  # noqa: SLF001
    game.submit(mover, "A bco - hco")
    game.process()
    return game.position


def test_rule_7f_holland_passes_to_the_holder_when_another_power_enters_it() -> None:
    after = _holland_after("blue")
    assert after.units["hco"].power == "blue"
    assert after.units["hol"].power == "red"  # the holder commands the Dutch army now
    assert after.state["protectorates"]["holland"]["violated"] is True  # type: ignore[index]


def test_rule_7f_the_violating_holder_does_not_get_holland() -> None:
    after = _holland_after("red")
    assert after.units["hol"].power == NEUTRAL


def test_rule_7f_the_dutch_army_needs_one_more_support_until_first_dislodged() -> None:
    after = _holland_after("blue")
    bonus = after.variant.hooks.defence_bonuses(after)
    assert bonus.get("hol") == 1


def test_rule_3_a_unit_may_be_removed_right_after_being_built() -> None:
    # a lone colony build needs a home build (the half rule); the home one is then removed
    centers = {"rho": "red", "rhb": "red", "rco": "red", "pan": "red", "col": "red"}
    pos = position(["red A inl"], phase="W1871A", centers=centers, **NOT_HOLDER)
    orders = ["build A rco", "build A rho", "remove A rho"]
    resolution = adjudicate(pos, [parse_order(o, pos) for o in orders])
    assert [r.succeeded for r in resolution.results] == [True, True, True]
    assert "rco" in resolution.units and "rho" not in resolution.units  # it plays short
    # no removal of a unit that was not built in these orders
    resolution = adjudicate(pos, [parse_order(o, pos) for o in ("build A rco", "remove A rhb")])
    assert not resolution.results[1].succeeded
    # the rulebooks' game allows no removal in a winter of builds
    classical = Game("classical")
    assert classical.variant.hooks.remove_after_build(classical.position, "france") is False
