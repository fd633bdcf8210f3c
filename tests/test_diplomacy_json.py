"""The `diplomacy` package's saved-game JSON: import (replay and check), export, comparison.

``tests/data/diplomacy_saved_game.json`` is a seeded random game played by the package itself
(1.1.2, to S1906M, with retreats, convoys and builds), so the import runs without the package.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from realpolitik.compat.diplomacy import Game
from realpolitik.compat.diplomacy_json import (
    ReplayMismatchError,
    compare_diplomacy_json,
    game_from_diplomacy_json,
    game_to_diplomacy_json,
    position_from_diplomacy_state,
)
from realpolitik.position import Position

SAVED = Path(__file__).parent / "data" / "diplomacy_saved_game.json"


def _saved() -> dict[str, Any]:
    return json.loads(SAVED.read_text())  # type: ignore[no-any-return]


def _units(position: Position) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for unit in position.units.values():
        out.setdefault(unit.power.upper(), []).append(f"{unit.type.value} "
                                                      f"{unit.location.upper()}")
    return {p: sorted(u) for p, u in out.items()}


def test_the_packages_game_replays_phase_by_phase() -> None:
    data = _saved()
    game = game_from_diplomacy_json(data)  # strict: raises at the first difference
    last = data["phases"][-1]
    assert str(game.phase) == last["name"]
    assert _units(game.position) == {p: sorted(u) for p, u in last["state"]["units"].items()
                                     if u}
    names = [str(r.position.phase) for r in game.history]
    assert [p["name"] for p in data["phases"][:-1]] == names


def test_every_phase_agrees_with_the_package_record() -> None:
    assert compare_diplomacy_json(_saved()) == []


def test_a_tampered_record_is_caught() -> None:
    data = _saved()
    state = data["phases"][1]["state"]
    state["units"]["FRANCE"] = state["units"]["FRANCE"][1:]  # a French unit goes missing
    with pytest.raises(ReplayMismatchError):
        game_from_diplomacy_json(data)
    problems = compare_diplomacy_json(data)
    assert problems and problems[0].phase == "S1901M" and problems[0].what == "units"


def test_position_from_a_state() -> None:
    data = _saved()
    position = position_from_diplomacy_state(data["phases"][0]["state"])
    assert str(position.phase) == "S1901M"
    assert len(position.units) == 22 and position.units["stp"].location == "stp/sc"


def _play(seed: int, until: int) -> Game:
    game = Game()
    rng = random.Random(seed)
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= until:
        possible = game.get_all_possible_orders()
        for power, locs in game.get_orderable_locations().items():
            game.set_orders(power, [rng.choice(sorted(possible[loc])) for loc in locs
                                    if possible[loc]])
        game.process()
    return game


def test_export_then_import_round_trips() -> None:
    facade = _play(3, 1905)
    data = game_to_diplomacy_json(facade)
    text = json.dumps(data)  # plain JSON
    assert data["map"] == "standard" and data["phases"][0]["name"] == "S1901M"
    assert data["phases"][-1]["name"] == facade.get_current_phase()
    first = data["phases"][0]
    assert set(first) == {"name", "state", "orders", "results", "messages"}
    assert first["state"]["game_id"] == data["id"]
    replayed = game_from_diplomacy_json(json.loads(text))
    assert replayed.position == facade.realpolitik_game.position
    assert compare_diplomacy_json(data) == []


def test_export_loads_in_the_package() -> None:
    pytest.importorskip("diplomacy")
    from diplomacy.utils.export import from_saved_game_format

    facade = _play(4, 1904)
    data = game_to_diplomacy_json(facade)
    theirs = from_saved_game_format(data)
    assert theirs.get_current_phase() == facade.get_current_phase()
    assert {p: sorted(u) for p, u in theirs.get_units().items()} == {
        p: sorted(u) for p, u in facade.get_units().items()}
    # the package replays each phase of our record with its own adjudicator and gets the
    # recorded result (its is_valid_saved_game would also want its own Zobrist hashes)
    from diplomacy import Game as TheirGame
    from diplomacy.utils.game_phase_data import GamePhaseData

    for phase, after in zip(data["phases"], data["phases"][1:], strict=False):
        replay = TheirGame(map_name="standard")
        replay.set_phase_data(GamePhaseData.from_dict(phase))
        replay.clear_orders()
        for power, orders in phase["orders"].items():
            replay.set_orders(power, orders)
        replay.process()
        assert replay.get_current_phase() == after["name"]
        assert {p: sorted(u) for p, u in replay.get_units().items()} == {
            p: sorted(u) for p, u in after["state"]["units"].items()}, phase["name"]
        assert {p: sorted(c) for p, c in replay.get_centers().items()} == {
            p: sorted(c) for p, c in after["state"]["centers"].items()}, phase["name"]


@pytest.mark.parametrize("seed", [21, 22])
def test_games_the_package_plays_import_and_agree(seed: int) -> None:
    pytest.importorskip("diplomacy")
    from diplomacy import Game as TheirGame
    from diplomacy.utils.export import to_saved_game_format

    theirs = TheirGame()
    rng = random.Random(seed)
    while not theirs.is_game_done and int(theirs.get_current_phase()[1:5]) <= 1908:
        possible = theirs.get_all_possible_orders()
        for power, locs in theirs.get_orderable_locations().items():
            theirs.set_orders(power, [rng.choice(sorted(possible[loc])) for loc in locs
                                      if possible[loc]])
        theirs.process()
    data = to_saved_game_format(theirs)
    assert compare_diplomacy_json(data) == []
    game = game_from_diplomacy_json(data)
    assert str(game.phase) == theirs.get_current_phase()
