"""Colonial Winters' rules in sight before the orders are given (issue 28, item 2): the state a
player needs (inactive units, rule 8's start choice, the cost of mobilising; sea superiority and
the protectorates are tested with their rules) in ``public_state`` and so in the API's game
view; orders that the rules would make void flagged in the warnings (``Game.warnings``, which
the CLI's ``orders`` and the API show); the map's regions for the page's jump list."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_cli import run

from realpolitik.cli import main
from realpolitik.game import Game
from realpolitik.variant import Variant, load_variant


@pytest.fixture(scope="module")
def world() -> Variant:
    return load_variant("colonial_winters")


# -- the state shown ------------------------------------------------------------------------

def test_rule_8_the_start_choices_and_inactive_units_are_public(world: Variant) -> None:
    game = Game(world, seed=1)
    shown = world.hooks.public_state(game.position)
    assert shown["start_choices"] == {
        "england": {"units": ["n19", "n20", "s14", "s44", "a36", "f2", "f64", "o16", "a49", "f8",
                              "a25", "e109"], "count": 2},
        "usa": {"units": ["n33", "n44", "n48", "n56", "n61"], "count": 2},
        "france": {"units": ["e64", "a32", "o17", "f58"], "count": 1}}
    inactive = shown["inactive"]
    assert isinstance(inactive, list) and len(inactive) == 42
    assert set(inactive) == world.hooks.inactive_units(game.position)
    assert "mobilisation" not in shown  # a spring: nothing is mobilised by a build


def test_rule_8_the_choice_is_gone_after_the_first_orders_and_a_winter_shows_mobilising(
        world: Variant) -> None:
    game = Game(world, seed=1)
    game.process()  # Spring 1870: the first listed candidates are taken by default
    shown = world.hooks.public_state(game.position)
    assert "start_choices" not in shown
    inactive: Any = shown["inactive"]
    # the first listed candidates of each choice were taken; the others stay inactive
    assert not {"n19", "n20", "n33", "n44", "e64"} & set(inactive)
    assert {"s14", "s44", "n48", "a32"} <= set(inactive)
    game.process()  # Fall 1870
    assert game.phase.type.name == "ADJUSTMENTS"
    shown = world.hooks.public_state(game.position)
    costs: Any = shown["mobilisation"]
    assert set(costs) >= {"england", "usa"}
    for power, cost in costs.items():
        offer = world.hooks.mobilisation(game.position, power)
        assert offer is not None
        assert cost == {"units": sorted(offer.units), "per_build": offer.per_build,
                        "reason": offer.reason}
        assert (cost["per_build"] == 0) == bool(cost["reason"])  # a reason when it may not
    assert costs["england"]["per_build"] in (0, 3)  # the holder of sea superiority: three


def test_the_standard_game_shows_none_of_it() -> None:
    classical = load_variant("classical")
    assert classical.hooks.public_state(Game(classical).position) == {}
    assert classical.hooks.regions(classical) == {}
    position = Game(classical).position
    assert not classical.hooks.rule_notes(position, "france")
    assert not classical.hooks.rule_notes(position, None)


# -- the same in words (the hooks' rule_notes, which the page shows) ----------------------------

def test_rule_8_the_start_choice_in_words_is_the_state_without_loss(world: Variant) -> None:
    game = Game(world, seed=1)
    position = game.position
    state: Any = world.hooks.public_state(position)
    notes = world.hooks.rule_notes(position, "england")
    choice = notes.choice
    assert choice is not None
    assert list(choice.units) == state["start_choices"]["england"]["units"]
    assert choice.count == 2 and choice.kind == "mobilise"
    assert choice.heading == ("Rule 8: England chooses 2 of these 12 inactive units to be "
                              "active this turn")
    assert choice.when_full == "2 chosen already (rule 8)"
    # every inactive unit of England is marked: a candidate of the choice, or idle
    marks = {m.province: m for m in notes.marks}
    mine = {u.province for u in position.units_of("england")}
    inactive = set(state["inactive"]) & mine
    assert {p for p, m in marks.items() if m.mark in ("choice", "idle")} == inactive
    assert {p for p, m in marks.items() if m.mark == "choice"} == set(choice.units)
    assert marks["n8"].text == "inactive: holds" and "(rule 8)" in marks["n8"].why
    # India's two armies, which England commands (rule 7(e))
    assert [(p, m.text) for p, m in marks.items() if m.mark == "protectorate"] == [
        ("a39", "India's"), ("a44", "India's")]
    said = {n.topic: n for n in notes.notes}
    assert list(said) == ["inactive", "sea-superiority", "protectorates"]
    idle = sorted(inactive - set(choice.units))
    assert said["inactive"].brief == f"{len(idle)} inactive"
    assert said["inactive"].text.startswith(f"{len(idle)} of England's units (faded")
    assert said["sea-superiority"].text == ("England (14 fleets). England: 14 fleets, tier a "
                                            "(rule 4).")
    assert said["protectorates"].text.startswith("India: commanded by England (Calcutta, "
                                                 "Bombay); Holland: neutral")
    assert not any(n.pressing for n in notes.notes)  # nothing to weigh in a spring


def test_rule_8_a_power_without_a_choice_has_none_and_the_game_has_the_legend(
        world: Variant) -> None:
    position = Game(world, seed=1).position
    germany = world.hooks.rule_notes(position, "germany")
    assert germany.choice is None
    assert [n.topic for n in germany.notes][-2:] == ["sea-superiority", "protectorates"]
    game = world.hooks.rule_notes(position, None)
    assert game.marks == () and game.choice is None
    assert game.legend.startswith("Faded units in a dashed ring are inactive (rule 8)")
    sea = game.notes[0]
    assert sea.heading == "Sea superiority" and "United States 7 (b)" in sea.text
    assert sea.text.startswith("England (14 fleets). Fleets (tier): England 14 (a), ")


def test_rule_8_a_winter_says_what_mobilising_costs_with_a_count_of_the_orders(
        world: Variant) -> None:
    game = Game(world, seed=1)
    game.process()
    game.process()  # Winter 1870
    position = game.position
    notes = world.hooks.rule_notes(position, "england")
    mobilise = next(n for n in notes.notes if n.topic == "mobilise")
    assert mobilise.pressing and mobilise.tally is not None
    assert (mobilise.tally.kind, mobilise.tally.limit) == ("mobilise", 3)
    assert mobilise.text.startswith("Forgo one build this winter to bring up to 3 of your ")
    assert {m.text for m in notes.marks if m.mark == "idle"} == {"inactive: may be mobilised"}
    # a power that may not mobilise this winter is told why
    refused = [p for p in world.power_ids
               if (offer := world.hooks.mobilisation(position, p)) is not None
               and offer.per_build == 0]
    assert "usa" in refused
    for power in refused:
        note = next(n for n in world.hooks.rule_notes(position, power).notes
                    if n.topic == "mobilise")
        assert note.text == ("Not this winter: a power mobilises by foregoing a build, and "
                             "it has no build this winter (rule 8).") and note.tally is None
    assert world.kinds.by_name["mobilise"].builds_used_phrase == "foregone to mobilise units"


def test_the_regions_are_the_continents_of_the_key_and_cover_the_map(world: Variant) -> None:
    regions = world.hooks.regions(world)
    assert list(regions) == ["Europe", "Asia", "Oceania", "Africa and Arabia",
                             "North America and the Caribbean", "South and Central America",
                             "Seas and polar areas"]
    every = [p for ids in regions.values() for p in ids]
    assert sorted(every) == sorted(world.map.provinces) and len(every) == len(set(every))
    assert regions["Europe"][:3] == ("e1", "e2", "e3") and "e21" in regions["Europe"]
    assert regions["Europe"].index("e9") < regions["Europe"].index("e10")  # by number
    assert {"18", "140", "200"} <= set(regions["Seas and polar areas"])


# -- orders that would be void ----------------------------------------------------------------

def test_rule_8_a_third_start_choice_is_flagged_before_the_orders_are_processed(
        world: Variant) -> None:
    game = Game(world, seed=1)
    game.submit("england", "F N19 - 37\nF N20 MOBILISE\nF S14 H\nF S44 MOBILISE\nA N12 H")
    void = [w for w in game.warnings("england") if "will be void" in w]
    assert void == ["F S44 MOBILISE: will be void: England chooses 2 of its inactive units to "
                    "be active at the start, and ordered more (rule 8): this one stays "
                    "inactive"]
    # and it is void indeed when the phase is processed
    game.process()
    result = next(r for r in game.history[-1].resolution.results
                  if r.power == "england" and str(r.order) == "F S44 MOBILISE")
    assert result.result.name == "VOID"


def test_rule_8_two_start_choices_raise_no_void_warning(world: Variant) -> None:
    game = Game(world, seed=1)
    game.submit("england", "F N19 - 37\nF N20 MOBILISE\nF S14 H")
    assert not [w for w in game.warnings("england") if "will be void" in w]


def test_the_cli_orders_command_flags_the_void_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.json"
    assert main(["new", "--variant", "colonial_winters", str(path)]) == 0
    capsys.readouterr()
    _, out, _ = run(capsys, "orders", str(path), "-",
                    stdin="England: F N19 MOBILISE\nF N20 MOBILISE\nF S14 MOBILISE\n",
                    monkeypatch=monkeypatch)
    assert "F S14 MOBILISE: will be void: England chooses 2 of its inactive units" in out


# -- the API ------------------------------------------------------------------------------------

def _client(tmp_path: Path) -> Any:
    pytest.importorskip("fastapi")
    from test_server import FakeClock, make_client
    return make_client(f"sqlite:///{tmp_path / 'db.sqlite'}", FakeClock())


def test_the_game_view_carries_the_rule_state(tmp_path: Path) -> None:
    from test_server import create, sign_up, view
    with _client(tmp_path) as client:
        gm = sign_up(client, "gm")
        game = create(client, gm, variant="colonial_winters", join_as="england")
        shown = view(client, gm, game)
        standard = view(client, gm, create(client, gm, join_as="france"))
    state = shown["variant_state"]  # the hooks' public_state, as show --json gives it
    assert state["start_choices"]["england"]["count"] == 2
    assert len(state["start_choices"]["england"]["units"]) == 12
    assert len(state["inactive"]) == 42
    assert state["protectorates"]["India"] == {"controller": "england", "units": ["A39", "A44"]}
    assert "mobilisation" not in state
    # and in words, for the page (the hooks' rule_notes)
    england = shown["rule_notes"]["england"]
    assert england["choice"]["count"] == 2 and len(england["choice"]["units"]) == 12
    assert england["choice"]["kind"] == "mobilise"
    assert [n["topic"] for n in england["notes"]] == ["inactive", "sea-superiority",
                                                      "protectorates"]
    marks = {m["province"]: m["mark"] for m in england["marks"]}
    assert marks["a39"] == marks["a44"] == "protectorate" and list(marks.values()).count(
        "choice") == 12
    assert shown["game_notes"]["legend"].startswith("Faded units in a dashed ring")
    assert standard["variant_state"] == {} and standard["rule_notes"] == {}
    assert standard["game_notes"] is None


def test_the_orders_answer_flags_the_void_order_before_ready(tmp_path: Path) -> None:
    from test_server import create, orders, sign_up
    with _client(tmp_path) as client:
        gm = sign_up(client, "gm")
        game = create(client, gm, variant="colonial_winters", join_as="england")
        sent = orders(client, gm, game, "england",
                      "F Halifax MOBILISE\nF N20 MOBILISE\nF Guyana MOBILISE")
        assert sent["errors"] == 0
        void = [w for w in sent["warnings"] if "will be void" in w]
        assert void == ["F S14 MOBILISE: will be void: England chooses 2 of its inactive "
                        "units to be active at the start, and ordered more (rule 8): this one "
                        "stays inactive"]
        kept = client.get(f"/games/{game}/orders", headers=gm).json()["england"]
        assert void[0] in kept["warnings"]


def test_the_catalogue_gives_places_by_name_and_regions(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        listed = {v["id"]: v for v in client.get("/web/variants").json()["variants"]}
    world, standard = listed["colonial_winters"], listed["classical"]
    assert world["places"]["e8"] == "London" and world["places"]["18"] == "English Channel"
    assert len(world["places"]) == 553
    assert [r["name"] for r in world["regions"]][0] == "Europe"
    assert standard["regions"] == [] and standard["places"]["par"] == "Paris"


def test_rule_8_the_warnings_do_not_name_inactive_units_left_to_hold(world: Variant) -> None:
    game = Game(world, seed=1)
    game.submit("england", "F London - Channel")
    (idle,) = [w for w in game.warnings("england") if "will hold" in w]
    # the active units left without an order, and none of the 15 inactive ones (12 start
    # choices and 3 others)
    assert idle == ("England: F Liverpool, A Ottawa, A Delhi, A Sydney, A Calcutta, A Bombay "
                    "have no order that can be followed and will hold")
    inactive = world.hooks.inactive_units(game.position)
    assert len([u for u in game.position.units_of("england") if u.province in inactive]) == 15


def test_rule_8_a_mobilisation_beyond_the_three_of_the_holder_is_flagged(world: Variant) -> None:
    game = Game(world, seed=1)
    game.process()
    game.process()  # Winter 1870: England, with sea superiority, mobilises three for a build
    offer = world.hooks.mobilisation(game.position, "england")
    assert offer is not None and offer.per_build == 3
    four = sorted(offer.units & {"a25", "a36", "a49", "e109"})
    assert len(four) == 4
    text = "\n".join(f"F {p.upper()} MOBILISE" for p in four)
    game.submit("england", text)
    void = [w for w in game.warnings("england") if "will be void" in w]
    assert void == ["F E109 MOBILISE: will be void: one build a year may be foregone to "
                    "mobilise units, and it mobilises at most 3"]
    game.process()
    results = {str(r.order): r.result.name for r in game.history[-1].resolution.results
               if r.power == "england"}
    assert results["F E109 MOBILISE"] == "VOID"
    assert [results[f"F {p.upper()} MOBILISE"] for p in ("a25", "a36", "a49")] == ["SUCCEEDS"] * 3
