"""The rules defects of issue 28, each pinned by a test named by its rule, on the variant's own
map: rule 2 (an army with a retreat open is not disbanded, in a game, in ``adjudicate`` and in
the listings), 6(j) (the Mississippi is no sea for sea superiority), 7(h) (a build that cannot be
carried out never uses up a build) and rule 8 in the case format (the state worked out from the
phase as a game has it). The same defects are cases of ``tests/data/colonial_winters_cases.jsonl``,
which ``realpolitik adjudicate --jsonl --check`` reads."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from realpolitik.adjudication import adjudicate
from realpolitik.adjudication.retreats import unordered_retreats
from realpolitik.cli._cases import adjudicate_case, compare
from realpolitik.cli._common import Style
from realpolitik.cli._report import format_results, phase_report
from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.legality import check_order, retreat_options
from realpolitik.listing import legal_orders
from realpolitik.notation import parse_order
from realpolitik.orders import Disband, Retreat
from realpolitik.position import DislodgedUnit, Position, Unit
from realpolitik.rules import rules_for
from realpolitik.variant import Variant, load_variant


@pytest.fixture(scope="module")
def world() -> Variant:
    return load_variant("colonial_winters")


def board(variant: Variant, units: list[str], phase: str = "S1871M",
          dislodged: tuple[DislodgedUnit, ...] = (), **centers: str) -> Position:
    """A position of ``units`` ("power A loc"), all active, with the state the hooks work out."""
    made = [Unit(p, UnitType(t), loc) for p, t, loc in (u.split() for u in units)]
    pos = Position.build(variant, phase, made, centers, dislodged=dislodged)
    return pos.replace(state={**variant.hooks.initial_state(pos), "inactive": []})


def results(pos: Position, *orders: str) -> dict[str, tuple[str, str]]:
    resolution = adjudicate(pos, [parse_order(o, pos) for o in orders])
    return {str(r.order): (r.result.value, r.reason) for r in resolution.results}


# -- rule 2: armies must retreat when able -----------------------------------------------------

def _venice_dislodged(world: Variant) -> Position:
    """Spring 1871, retreats: Italy's army in Venice dislodged from Trieste, with Tyrolia,
    Tuscany and Rome open; Italy's fleet in Naples dislodged too."""
    venice = DislodgedUnit(Unit("italy", UnitType.ARMY, "e43"), "e42")
    naples = DislodgedUnit(Unit("italy", UnitType.FLEET, "e49"), "10")
    return board(world, ["austria A e42", "italy A e45", "france F 10"], "S1871R",
                 (venice, naples))


def test_rule_2_an_army_ordered_to_disband_with_a_retreat_open_retreats_at_random(
        world: Variant) -> None:
    pos = _venice_dislodged(world)
    options = retreat_options(pos, pos.dislodged[0])
    assert set(options) == {"e38", "e46", "e47"}
    resolution = adjudicate(pos, [parse_order("A e43 D", pos)])
    void, drawn = resolution.results[0], resolution.results[1]
    assert void.result.value == "void"
    assert "may not disband" in void.reason
    assert "the unit was disbanded" not in void.reason
    assert "treated as unordered and retreats at random" in void.reason
    assert isinstance(drawn.order, Retreat) and drawn.order.destination in options
    assert drawn.succeeded and "drawn at random" in drawn.reason
    assert resolution.units[drawn.order.destination] == Unit("italy", UnitType.ARMY,
                                                              drawn.order.destination)
    # the fleet, unordered, is disbanded (rule 2 speaks of armies)
    assert "e49" not in resolution.units and not any(
        isinstance(r.order, Retreat) and r.order.location == "e49" for r in resolution.results)


def test_rule_2_a_legal_retreat_is_followed_and_nothing_is_drawn(world: Variant) -> None:
    pos = _venice_dislodged(world)
    resolution = adjudicate(pos, [parse_order(o, pos) for o in ("A e43 D", "A e43 - e46")])
    assert [r.result.value for r in resolution.results] == ["void", "succeeds"]
    assert resolution.results[0].reason.endswith("; A Venice R Tuscany is followed instead.")
    assert len(resolution.results) == 2


def test_rule_2_the_game_draws_with_its_seed_for_an_army_ordered_to_disband(
        world: Variant) -> None:
    pos = _venice_dislodged(world)
    disband = parse_order("A e43 D", pos)
    drawn = unordered_retreats(pos, [disband], rules_for("2023"), random.Random(5))
    assert len(drawn) == 1 and drawn[0].destination in {"e38", "e46", "e47"}
    game = Game(world, seed=5)
    start = board(world, ["austria A e42", "austria A e38", "italy A e43", "italy A e45"],
                  e43="italy")
    game._position = start  # noqa: SLF001 - a game from a chosen Spring position
    game.submit("austria", "A e42 - e43\nA e38 S A e42 - e43")
    game.process()
    assert str(game.phase) == "S1871R"
    report = game.submit("italy", "A e43 D")
    assert report[0].error is not None and "may not disband" in report[0].error
    game.process()
    record = game.history[-1]
    italian = [u for u in game.position.units.values() if u.power == "italy"]
    assert len(italian) == 2  # retreated, not disbanded
    assert any("gave no order it could follow for A Venice: it retreats to" in n
               for n in record.notes)


def test_rule_2_the_listing_offers_no_disband_to_an_army_with_a_retreat_open(
        world: Variant) -> None:
    pos = _venice_dislodged(world)
    listed = legal_orders(pos, "italy")
    assert not any(isinstance(o, Disband) for o in listed["e43"])
    assert {o.destination for o in listed["e43"] if isinstance(o, Retreat)} == {
        "e38", "e46", "e47"}
    assert any(isinstance(o, Disband) for o in listed["e49"])  # a fleet may disband


def test_rule_2_the_results_say_an_army_must_retreat(world: Variant) -> None:
    game = Game(world)
    game._position = board(world, ["austria A e42", "austria A e38", "italy A e43",  # noqa: SLF001
                                   "italy A e45"], e43="italy")
    game.submit("austria", "A e42 - e43\nA e38 S A e42 - e43")
    game.process()
    data = phase_report(game, 0)
    assert data["dislodged_after"]["ITALY"]["A E43"]["may_disband"] is False
    text = "\n".join(format_results(game, data, Style(False)))
    assert "must retreat to" in text and "it may not disband while it can retreat" in text
    assert "or disband" not in text


def test_rule_2_adjudicate_retreats_an_unordered_army_at_random() -> None:
    case: dict[str, Any] = {
        "variant": "colonial_winters", "phase": "S1871R", "centers": None,
        "units": {"AUSTRIA": ["A E42"], "ITALY": ["A E45"]},
        "dislodged": {"ITALY": {"A E43": "E42"}}, "orders": {}}
    got = adjudicate_case(case)
    (drawn,) = got["order_results"]
    assert drawn["input"] is None and drawn["result"] == "succeeds"
    assert drawn["outcome"] == "retreated" and "drawn at random" in drawn["reason"]
    assert len(got["units_after"]["ITALY"]) == 2
    case["orders"] = {"ITALY": ["A E43 D"]}
    void, drawn = adjudicate_case(case)["order_results"]
    assert void["result"] == "void" and "the unit was disbanded" not in void["reason"]
    assert drawn["outcome"] == "retreated"


# -- rule 6(j): the Mississippi is not a sea ---------------------------------------------------

def test_rule_6j_the_mississippi_gives_the_holder_no_extra_support(world: Variant) -> None:
    # England holds sea superiority with a majority of the fleets: at sea its fleets need one
    # more support to dislodge (4(a)(ii)), but the Mississippi is "not seas"
    pos = board(world, ["england F 45", "england F 1", "england F 2", "england F 3",
                        "usa F 44", "usa F n44"])
    assert world.hooks.holder(pos) == "england"
    assert "45" not in world.hooks.defence_bonuses(pos)
    assert world.hooks.defence_bonuses(pos)["1"] == 1
    done = results(pos, "F 44 - 45", "F n44 S F 44 - 45")
    assert done["F 44 - 45"][0] == "succeeds"


def test_rule_6j_a_lone_fleet_may_enter_the_mississippi(world: Variant) -> None:
    fleets = ["england F 1", "england F 2", "england F 3", "england F 4", "france F 50",
              "france F 51"]
    pos = board(world, [*fleets, "usa F n46"])
    assert world.hooks.tier(pos, "usa") == "e"  # one fleet
    assert check_order(pos, parse_order("F n46 - 45", pos)) is None
    pos = board(world, [*fleets, "usa F n44"])
    problem = check_order(pos, parse_order("F n44 - 44", pos))
    assert problem is not None and "rule 4(e)" in problem[1]  # the Gulf is a sea


def test_rule_6j_a_dislodged_fleet_below_second_place_may_retreat_to_the_mississippi(
        world: Variant) -> None:
    fleet = DislodgedUnit(Unit("usa", UnitType.FLEET, "n44"), "n43")
    pos = board(world, ["england F 1", "england F 2", "england F 3", "england F 4",
                        "france F 50", "france F 51", "mexico A n43"], "S1871R", (fleet,))
    assert world.hooks.tier(pos, "usa") == "e"
    options = retreat_options(pos, fleet)
    assert "45" in options and "44" not in options  # the river, not the Gulf


# -- rule 8 in the case format: the state worked out from the phase ------------------------------

def _case(phase: str, units: dict[str, list[str]], orders: dict[str, list[str]],
          **more: Any) -> dict[str, tuple[str, str]]:
    got = adjudicate_case({"variant": "colonial_winters", "phase": phase, "units": units,
                           "centers": None, "orders": orders, **more})
    return {r["order"]: (r["result"], r["reason"]) for r in got["order_results"]}


def test_rule_8_a_case_in_spring_1870_has_the_starts_inactive_units() -> None:
    done = _case("S1870M", {"ENGLAND": ["A N8", "F E8", "F 1", "F 2"]},
                 {"ENGLAND": ["A N8 - N10"]})
    result, reason = done["A N8 - N10"]
    assert result == "void" and "inactive" in reason and "(rule 8)" in reason


def test_rule_8_a_case_keeps_indias_armies_in_india() -> None:
    done = _case("S1870M", {"ENGLAND": ["A A39", "F E8", "F 1", "F 2"]},
                 {"ENGLAND": ["A A39 - A38"]})
    result, reason = done["A A39 - A38"]
    assert result == "void" and "may not leave it (rule 7(e))" in reason


def test_rule_8_casablanca_is_active_in_a_fall_1870_case() -> None:
    assert _case("S1870M", {"SPAIN": ["A F19"]}, {"SPAIN": ["A F19 - F18"]})[
        "A F19 - F18"][0] == "void"
    assert _case("F1870M", {"SPAIN": ["A F19"]}, {"SPAIN": ["A F19 - F18"]})[
        "A F19 - F18"][0] == "succeeds"


def test_rule_8_a_unit_is_not_inactive_for_standing_where_an_inactive_unit_started() -> None:
    # Winnipeg's army started inactive; a German army there in 1872 is not that army
    done = _case("S1872M", {"GERMANY": ["A N8"], "ENGLAND": ["A N5"]},
                 {"GERMANY": ["A N8 - N10"], "ENGLAND": ["A N5 - N4"]})
    assert done["A N8 - N10"][0] == "succeeds"
    assert done["A N5 - N4"][0] == "void"  # England's own army of 1870, never mobilised


def test_rule_8_a_cases_variant_state_still_overrides_what_is_worked_out() -> None:
    done = _case("S1872M", {"ENGLAND": ["A N5"]}, {"ENGLAND": ["A N5 - N4"]},
                 variant_state={"inactive": []})
    assert done["A N5 - N4"][0] == "succeeds"


def test_rule_8_the_start_state_is_the_games(world: Variant) -> None:
    start = Position.initial(world)
    assert start.state == Game(world).position.state
    assert len(start.state["inactive"]) == 42  # type: ignore[arg-type]


# -- rule 7(h): an order that cannot be carried out never uses up a build -------------------------

def _england_without_home_centres(world: Variant) -> Position:
    """Winter 1871: England holds sea superiority, owns neither London nor Liverpool, and owns
    Halifax (a colony), Ceylon, Canton and Singapore: one build, the fleet of 7(h)."""
    pos = board(world, ["england F 1", "england F 2", "england F 3", "england F 4"], "W1871A",
                n19="england", a49="england", a25="england", a36="england", f2="england",
                e8="france", e5="france")
    return pos


@pytest.mark.parametrize("lines", [
    ("A n19 B", "F a49 B"),
    ("F a49 B", "A n19 B"),
    ("A n19 B", "A a25 B", "F a49 B"),
], ids=["army_first", "fleet_first", "two_armies_first"])
def test_rule_7h_an_illegal_build_never_uses_up_the_holders_fleet_build(
        world: Variant, lines: tuple[str, ...]) -> None:
    pos = _england_without_home_centres(world)
    assert world.hooks.holder(pos) == "england"
    resolution = adjudicate(pos, [parse_order(line, pos) for line in lines])
    outcome = {str(r.order): (r.result.value, r.reason) for r in resolution.results}
    assert outcome["F A49 B"][0] == "succeeds"
    for army in (str(parse_order(line, pos)) for line in lines if line.startswith("A")):
        result, reason = outcome[army]
        assert result == "void" and "no builds left" not in reason
        assert "home supply centres" in reason or "rule 7(h)" in reason
    assert resolution.units["a49"] == Unit("england", UnitType.FLEET, "a49")


def test_rule_7h_a_second_fleet_build_has_no_build_left(world: Variant) -> None:
    pos = _england_without_home_centres(world)
    resolution = adjudicate(pos, [parse_order(o, pos) for o in ("F a49 B", "F a25 B")])
    first, second = resolution.results
    assert first.succeeded and second.result.value == "void"
    assert "builds only one fleet a year" in second.reason


# -- the same defects as cases of the case format (``realpolitik adjudicate --check``) -----------

CASES = Path(__file__).parent / "data" / "colonial_winters_cases.jsonl"


def _cases() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CASES.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("case", _cases(), ids=lambda case: str(case["id"]))
def test_the_case_file_agrees_with_its_expect(case: dict[str, Any]) -> None:
    got = adjudicate_case(case)
    assert "error" not in got
    assert compare(case["expect"], got) == []
