"""Issue 28, item 3: one count per power for the winter's builds and removals, from the engine
(:func:`realpolitik.winter.adjustments`), the same in every view and sentence; the build places
are only those where a unit can be built, and the free places where none can say why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_cli import run

from realpolitik import savefile
from realpolitik.cli._report import adjustments_json, format_adjustments
from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.position import Position, Unit
from realpolitik.variant import Variant, load_variant, possessive
from realpolitik.winter import adjustments, adjustments_to_json
from realpolitik.writing import place_writer


@pytest.fixture(scope="module")
def world() -> Variant:
    return load_variant("colonial_winters")


@pytest.fixture(scope="module")
def winter_1870(world: Variant) -> Game:
    """A game whose powers gave no orders in 1870, at its first winter."""
    game = Game(world)
    game.process()
    game.process()
    assert str(game.phase) == "W1870A"
    return game


def board(variant: Variant, units: list[str], phase: str = "W1871A", **centers: str
          ) -> Position:
    made = [Unit(p, UnitType(t), loc) for p, t, loc in (u.split() for u in units)]
    pos = Position.build(variant, phase, made, centers)
    return pos.replace(state={**variant.hooks.initial_state(pos), "inactive": []})


def test_item_3_englands_count_counts_indias_armies_as_needing_no_centres(
        winter_1870: Game) -> None:
    england = adjustments(winter_1870.position)["england"]
    assert (england.centres, england.units) == (21, 22)
    assert england.due == england.builds == 1  # India's 2 armies need no centres
    assert england.sentence().startswith(
        "England may build 1 (21 centres, 22 units; India's 2 armies need no supply centres "
        "(rule 7(e))): ")


def test_item_3_a_build_the_half_rule_blocks_is_said_not_a_free_centre(
        winter_1870: Game) -> None:
    russia = adjustments(winter_1870.position)["russia"]
    assert (russia.due, russia.builds, russia.sites) == (2, 0, ())
    assert russia.unbuildable and all("rule 3" in why for why in russia.unbuildable.values())
    sentence = russia.sentence()
    assert sentence.startswith("Russia may build 0 (2 due, but no free centre where a unit can "
                               "be built): nowhere; not ")
    assert "at least half of the armies built must be built in home supply centres (rule 3)" \
        in sentence
    assert "0 free centres" not in sentence


def test_item_3_every_view_says_the_same_count(winter_1870: Game, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    position = winter_1870.position
    place = place_writer(position.variant).place  # every view writes the places by name
    expected = {p.upper(): a.sentence(place) for p, a in adjustments(position).items() if a.due}
    assert "Madras" in expected["ENGLAND"]  # A45, by its name
    data = adjustments_json(winter_1870)
    assert {p: info["summary"] for p, info in data.items()} == expected
    assert data == adjustments_to_json(position)  # the server's game view gives the same
    assert format_adjustments(data) == list(expected.values())
    path = tmp_path / "g.json"
    path.write_text(savefile.dumps(winter_1870))
    code, out, _ = run(capsys, "show", str(path), "--json")
    assert code == 0 and json.loads(out)["adjustments"] == json.loads(json.dumps(data))
    code, text, _ = run(capsys, "show", str(path))
    assert all(f"    {line}" in text for line in expected.values())
    assert "England may build 2" not in text
    # the warnings before ready count the same builds
    assert winter_1870.warnings("england")[-1] == (
        "England: may build 1, gave 0; the rest are waived")


def test_item_3_removals_count_indias_armies_out(world: Variant) -> None:
    pos = board(world, ["england F 1", "england F 2", "england F 3", "england F 4",
                        "england A a39", "england A a44"],
                e8="england", e5="england", n19="england")
    england = adjustments(pos)["england"]
    assert england.due == -1 and england.removals == 1
    assert england.sentence() == (
        "England must remove 1 unit (3 centres, 6 units; India's 2 armies need no supply "
        "centres (rule 7(e)))")


def test_item_3_two_places_that_cannot_both_be_built_give_one_build(world: Variant) -> None:
    # England holds sea superiority; London and Liverpool are occupied; Bombay and Ceylon are
    # free possessions: each takes the one 7(h) fleet, not both
    pos = board(world, ["england F 1", "england F 2", "england F 3", "england F 4",
                        "england F e8", "england F e5"],
                e8="england", e5="england", a45="england", a49="england", a25="england",
                a36="england", f2="england", f8="england")
    england = adjustments(pos)["england"]
    assert england.due == 2 and set(england.sites) == {"a45", "a49", "a25", "a36", "f2", "f8"}
    assert england.builds == 1
    assert "only 1 can be built together" in england.limit and "rule 7(h)" in england.limit
    assert england.sentence().startswith("England may build 1 (2 due, but only 1 can be built "
                                         "together: ")


def test_item_3_the_classical_sentences_are_as_before() -> None:
    classical = load_variant("classical")
    start = Position.initial(classical)
    units = [u for p, u in start.units.items() if p != "bre"] + [
        Unit("france", UnitType.ARMY, "bel")]
    pos = Position.build(classical, "W1901A", units, {**start.centers, "bel": "france"})
    assert format_adjustments(adjustments_json(pos)) == ["France may build 1: BRE"]
    units = [u for p, u in start.units.items() if p not in ("bre", "par")]
    pos = Position.build(classical, "W1901A", units, {**start.centers, "bel": "france"})
    assert format_adjustments(adjustments_json(pos)) == [
        "France may build 2 (3 due, but only 2 free centres to build in): BRE, PAR"]


def test_item_3_the_api_gives_the_count_with_its_sentence(tmp_path: Any) -> None:
    from test_server import FakeClock, create, make_client, sign_up
    with make_client(f"sqlite:///{tmp_path / 'db.sqlite'}", FakeClock()) as client:
        gm = sign_up(client, "gm")
        game = create(client, gm, variant="colonial_winters")
        client.post(f"/games/{game}/join", json={"power": "england"}, headers=gm)
        started = client.post(f"/games/{game}/gm/start", headers=gm)
        assert started.status_code == 200, started.text
        for _ in range(2):
            assert client.post(f"/games/{game}/gm/process", headers=gm).status_code == 200
        shown = client.get(f"/games/{game}").json()
    assert shown["phase"] == "W1870A"
    england = shown["adjustments"]["ENGLAND"]
    assert (england["builds"], england["due"], england["centres"], england["units"]) == (
        1, 1, 21, 22)
    assert england["notes"] == ["India's 2 armies need no supply centres (rule 7(e))"]
    assert england["summary"].startswith("England may build 1 (21 centres, 22 units; ")


def test_the_united_states_in_the_possessive() -> None:
    assert possessive("United States") == "the United States'"
    assert possessive("England") == "England's"
    assert load_variant("colonial_winters").power_possessive("usa") == "the United States'"

