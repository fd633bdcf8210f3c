"""The facade's Game as the package's code uses it (issue 30): the powers' own lists change the
game, orders are checked when set (or kept as given with NO_CHECK), supports without a coast."""

from __future__ import annotations

import random

from realpolitik.compat.diplomacy import Game


def test_a_powers_lists_change_the_game() -> None:
    game = Game()
    france = game.get_power("FRANCE")
    france.units.remove("A PAR")
    assert "PAR" not in game.get_orderable_locations("FRANCE")
    assert game.realpolitik_game.position.unit_at("par") is None
    france.centers.append("BEL")
    assert "BEL" in game.get_state()["centers"]["FRANCE"]  # (read back before it is used)
    assert game.realpolitik_game.position.centers["bel"] == "france"


def test_an_order_deleted_from_the_dictionary_is_not_carried_out() -> None:
    game = Game()
    game.set_orders("FRANCE", ["A PAR - BUR", "A MAR - SPA"])
    del game.get_power("FRANCE").orders["A PAR"]
    assert game.get_orders("FRANCE") == ["A MAR - SPA"]
    game.process()
    assert sorted(game.get_units("FRANCE")) == ["A PAR", "A SPA", "F BRE"]


def test_illegal_orders_are_refused_when_set_and_void_with_no_check() -> None:
    game = Game()
    game.set_orders("ENGLAND", ["F LON - PAR", "LON H"])
    assert game.get_orders("ENGLAND") == ["F LON H"] and game.error
    unchecked = Game()
    unchecked.add_rule("NO_CHECK")
    unchecked.set_orders("ENGLAND", ["F LON - PAR", "EDI H"])
    assert unchecked.get_orders("ENGLAND") == ["F LON - PAR", "EDI H"]
    unchecked.process()
    assert unchecked.get_order_status(unit="F LON") == ["void"]
    assert sorted(unchecked.get_units("ENGLAND")) == ["A LVP", "F EDI", "F LON"]


def test_a_support_without_a_coast_supports_either_coast() -> None:
    game = Game()
    game.clear_units()
    game.set_units("FRANCE", ["F POR", "A GAS"])
    game.set_units("ITALY", ["F WES"])
    assert "A GAS S F POR - SPA" in game.get_all_possible_orders()["GAS"]
    game.set_orders("FRANCE", ["F POR - SPA/SC", "A GAS S F POR - SPA"])
    game.set_orders("ITALY", ["F WES - SPA/SC"])
    game.process()
    assert game.get_order_status(unit="A GAS") == []
    assert "F SPA/SC" in game.get_units("FRANCE")


def test_history_and_results_of_a_phase() -> None:
    game = Game()
    game.set_orders("FRANCE", ["A PAR - BUR", "A MAR - BUR"])
    played = game.process()
    assert played.name == "S1901M" and played.results["A PAR"] == ["bounce"]
    assert game.get_phase_from_history("S1901M").orders["FRANCE"] == ["A PAR - BUR",
                                                                       "A MAR - BUR"]
    assert game.state_history.last_value()["name"] == "S1901M"
    assert game.command["A PAR"] == "- BUR" and game.command["F BRE"] == "H"
    assert game.ordered_units["FRANCE"] == ["A PAR", "A MAR"]


def test_a_string_listed_in_an_earlier_phase_is_refused_once_illegal() -> None:
    game = Game()
    assert "A PAR - BUR" in game.get_all_possible_orders()["PAR"]
    game.set_orders("FRANCE", ["A PAR - PIC"])
    game.process()
    game.get_all_possible_orders()
    game.set_orders("FRANCE", ["A PAR - BUR", "A PIC - BEL", "A MAR - SPA"])
    assert game.get_orders("FRANCE") == ["A PIC - BEL", "A MAR - SPA"]
    assert [e for e in game.error if "A PAR - BUR" in e]
    handed_over = game.realpolitik_game.orders_of("france")
    assert len(handed_over) == 2 and all(entry.ok for entry in handed_over)
    game.process()
    assert sorted(game.get_units("FRANCE")) == ["A BEL", "A SPA", "F BRE"]


def test_each_call_of_get_all_possible_orders_gives_a_dictionary_of_its_own() -> None:
    game = Game()
    first = game.get_all_possible_orders()
    expected = {loc: orders[:] for loc, orders in first.items()}
    first["PAR"].clear()
    first["XXX"] = ["A XXX H"]
    second = game.get_all_possible_orders()
    assert second == expected
    second["PAR"].append("A PAR - XXX")
    assert game.get_all_possible_orders() == expected


def test_influence_is_the_last_power_to_stand_in_each_province() -> None:
    game = Game()
    rng = random.Random(5)
    last: dict[str, str] = {}  # province -> the last power there (or owning it, untouched)

    def seen() -> None:
        position = game.realpolitik_game.position
        for unit in position.units.values():
            last[unit.province.upper()] = unit.power.upper()
        for center, owner in position.centers.items():
            last.setdefault(center.upper(), owner.upper())

    seen()
    for _ in range(14):
        possible = game.get_all_possible_orders()
        for power, locations in game.get_orderable_locations().items():
            game.set_orders(power, [rng.choice(possible[loc]) for loc in locations
                                    if possible[loc]])
        game.process()
        seen()
        influence = game.get_state()["influence"]
        assert {p: n for n, ps in influence.items() for p in ps} == last
        assert game.get_power("FRANCE").influence == sorted(
            p for p, n in last.items() if n == "FRANCE")


def _play(game: Game, rng: random.Random, phases: int) -> list[dict[str, list[str]]]:
    """Play ``phases`` phases of random orders; the influence of ``get_state()`` before each
    (read at once, as the package keeps it)."""
    seen = []
    for _ in range(phases):
        seen.append(game.get_state()["influence"])
        possible = game.get_all_possible_orders()
        for power, locations in game.get_orderable_locations().items():
            game.set_orders(power, [rng.choice(possible[loc]) for loc in locations
                                    if possible[loc]])
        game.process()
    return seen


def test_each_phase_of_the_state_history_has_the_influence_of_its_time() -> None:
    """The influence a played phase's state gives (worked out only when read) is the one
    ``get_state()`` gave when the phase was current, whichever phase is read first, and after
    ``set_state`` has replaced the influence the phases played before keep theirs."""
    game = Game()
    seen = _play(game, random.Random(8), 12)
    names = list(game.state_history)
    for index in (7, 2, 11, 0):  # (out of order: each is worked out from the positions)
        assert game.state_history[names[index]]["influence"] == seen[index]
    state = game.get_state()
    for owned in state["influence"].values():
        if "MOS" in owned:
            owned.remove("MOS")
    state["influence"]["FRANCE"].append("MOS")
    game.set_state(state, clear_history=False)
    assert "MOS" in game.get_state()["influence"]["FRANCE"]
    assert "MOS" in game.get_power("FRANCE").influence
    later = _play(game, random.Random(9), 3)
    assert "MOS" in later[0]["FRANCE"]
    names = list(game.state_history)
    assert [game.state_history[name]["influence"] for name in names] == seen + later


def test_the_phase_data_process_returns_is_the_histories_phase() -> None:
    """``process()`` returns the phase just played as the histories hold it."""
    game = Game()
    game.set_orders("FRANCE", ["A PAR - BUR", "A MAR - BUR"])
    before = game.get_state()
    played = game.process()
    assert played.name == "S1901M"
    assert played.orders == game.order_history["S1901M"] == {
        **{name: [] for name in game.get_map_power_names()},
        "FRANCE": ["A PAR - BUR", "A MAR - BUR"]}
    assert played.results["A PAR"] == ["bounce"] and played.results["A MAR"] == ["bounce"]
    assert played.results == game.result_history["S1901M"]
    assert {key: value for key, value in played.state.items() if key != "timestamp"} == {
        key: value for key, value in before.items() if key != "timestamp"}
    assert played.to_dict()["name"] == "S1901M" and not played.messages
