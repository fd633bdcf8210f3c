"""The game: both rulebook sample games through Winter 1902, phases, ends, setups and records."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from realpolitik.errors import GameError
from realpolitik.game import EndKind, Game
from realpolitik.position import PhaseType
from realpolitik.savefile import dumps, game_to_json, loads, units_to_json
from realpolitik.variant import load_variant

DATA = Path(__file__).parent / "data"


def _book(name: str) -> dict[str, Any]:
    return json.loads((DATA / f"sample_game_{name}.json").read_text())  # type: ignore[no-any-return]


def _sorted_units(spec: dict[str, list[str]]) -> dict[str, list[str]]:
    return {p: sorted(u) for p, u in spec.items() if u}


@pytest.mark.parametrize("book", ["1971", "1992"])
def test_sample_game_reaches_the_books_positions(book: str) -> None:
    game = Game("classical", rules="1971" if book == "1971" else "1982")
    for phase in _book(book)["phases"]:
        assert str(game.phase) == phase["phase"], "the phase sequence differs from the book"
        for power, orders in phase["orders"].items():
            report = game.submit(power.lower(), "\n".join(orders))
            assert all(e.ok for e in report), [e.error for e in report if not e.ok]
        resolution = game.process()
        expect = phase["expect"]
        # the books' nationality words ("S Turk. A Bul-Rum") are kept; the expectations omit them
        results = {re.sub(r" (S|C) [A-Z]{4,} ", r" \1 ", str(r.order)): r.result.value
                   for r in resolution.results}
        for order in expect.get("succeeds", []):
            assert results.get(order) == "succeeds", (phase["phase"], order, results.get(order))
        for order in expect.get("fails", []):
            assert results.get(order) in ("fails", "void"), (phase["phase"], order)
        if phase["phase"].endswith("M"):
            dislodged: dict[str, dict[str, str]] = {}
            for d in resolution.dislodged:
                dislodged.setdefault(d.unit.power.upper(), {})[str(d.unit)] = (
                    d.attacker_from or "").upper()
            assert {p: dict(sorted(v.items())) for p, v in dislodged.items()} == {
                p: dict(sorted(v.items())) for p, v in expect.get("dislodged", {}).items()}
        assert _sorted_units(units_to_json(resolution.units)) == _sorted_units(
            expect["units_after"])
        if "centers_after" in expect:
            assert {p.upper(): sorted(game.position.centers_of(p)) for p in game.powers} == {
                p: sorted(c) for p, c in expect["centers_after"].items()}
    assert str(game.phase) == "S1903M"


def test_centres_change_only_after_fall_and_stay_while_vacant() -> None:
    game = Game()
    game.play({"france": "A Mar-Spa"})
    assert "spa" not in game.position.centers  # Spring: no change
    game.play({"france": "A Spa-Por"})  # Fall: France ends on Portugal, leaves Spain
    assert game.position.centers["por"] == "france" and "spa" not in game.position.centers
    assert str(game.phase) == "W1901A"
    game.play({"france": "A Mar B"})
    game.play({"france": "A Por-Spa"})
    game.play({"france": "A Spa H"})
    assert game.position.centers["por"] == "france"  # vacant, still French
    assert game.position.centers["spa"] == "france"


def test_nothing_to_adjust_skips_winter() -> None:
    game = Game()
    game.process()
    game.process()
    assert str(game.phase) == "S1902M"


def test_missing_orders_mean_civil_disorder_and_can_resume() -> None:
    game = Game()
    game.submit("france", "A Par-Bur")
    game.process()
    record = game.history[-1]
    assert "germany" in record.civil_disorder and "france" not in record.civil_disorder
    assert "germany" in game.civil_disorder
    game.submit("germany", "A Mun H")
    assert "germany" not in game.civil_disorder


def test_game_record_round_trips_and_replays() -> None:
    game = Game(seed=3)
    rng = random.Random(3)
    while not game.is_over and game.phase.year < 1905:
        for power in game.powers_to_order():
            options = game.legal_orders(power)
            game.submit(power, [rng.choice(list(o)) for o in options.values() if o])
        game.process()
    text = dumps(game)
    again = loads(text)
    assert again.position == game.position
    assert [r.position for r in again.history] == [r.position for r in game.history]
    assert game_to_json(again) == game_to_json(game)


def test_a_record_loaded_with_an_earlier_copy_is_the_same_game() -> None:
    """``loads(text, earlier=copy)`` takes the orders of the phases the copy played from it (a
    server whose copy fell behind); the game is the same as one loaded afresh, and a copy that
    played otherwise (other orders, or another game) only costs the orders being read again."""
    def played(seed: int, phases: int) -> Game:
        game = Game(seed=seed)
        rng = random.Random(seed)
        for _ in range(phases):
            for power in game.powers_to_order():
                options = game.legal_orders(power)
                game.submit(power, [rng.choice(list(o)) for o in options.values() if o])
            game.process()
        return game

    game = played(5, 9)
    text = dumps(game)
    behind = loads(dumps(played(5, 6)))  # the same game, three phases behind
    behind.submit("france", "A Par H")  # with orders of its own in its current phase
    template = load_variant("classical")
    for earlier in (behind, loads(text), played(6, 9), Game(seed=5)):
        again = loads(text, earlier=earlier)
        assert game_to_json(again) == game_to_json(game)
        assert dumps(again) == text
        # and with the variant given (a server's copy of the one it read once)
        again = loads(text, earlier=earlier, variants=lambda _: dataclasses.replace(template))
        assert dumps(again) == text and again.variant is not template
    kept = loads(text, earlier=behind)
    # the first phases' orders are the earlier copy's own values, the later ones read afresh
    assert kept.history[0].orders["france"] == behind.history[0].orders["france"]
    assert all(a is b for a, b in zip(kept.history[0].orders["france"],
                                      behind.history[0].orders["france"], strict=True))


def test_a_tampered_record_does_not_replay() -> None:
    game = Game()
    game.play({"france": "A Par-Bur"})
    game.play({})
    data = game_to_json(game)
    data["phases"][1]["position"]["units"]["FRANCE"] = ["A PAR", "A MAR", "F BRE"]
    with pytest.raises(GameError, match="does not replay"):
        from realpolitik.savefile import game_from_json

        game_from_json(data)


def test_draw_needs_every_surviving_power_and_is_secret_until_then() -> None:
    game = Game()
    for power in game.powers[:-1]:
        assert game.vote_draw(power) is None
    assert game.draw_vote_count() == (6, 7)
    end = game.vote_draw(game.powers[-1])
    assert end is not None and end.kind is EndKind.DRAW and len(end.winners) == 7
    with pytest.raises(GameError):
        game.process()


def test_short_game_ends_with_the_most_units() -> None:
    game = Game(end_year=1901)
    game.play({"russia": "A War-Gal"})
    game.play({"russia": "A Gal-Rum, F Sev S A Gal-Rum"})
    while not game.is_over:
        game.process()
    assert game.end is not None and game.end.kind is EndKind.SHORT_GAME
    assert game.end.winners == ("russia",)


def test_victory_at_eighteen_centres() -> None:
    from realpolitik.geography import UnitType
    from realpolitik.position import Position, Unit

    game = Game()
    variant = game.variant
    centers = {c: "france" for c in variant.map.supply_centers()[:17]}
    free = [c for c in variant.map.supply_centers() if c not in centers]
    target = next(c for c in free if variant.map.provinces[c].terrain == "coast"
                  and any(n for n in variant.map.army_neighbours(c)))
    start = next(iter(variant.map.army_neighbours(target)))
    game._position = Position.build(variant, "F1901M",
                                    [Unit("france", UnitType.ARMY, start)], centers)
    game.submit("france", f"A {start} - {target}")
    game.process()
    assert game.end is not None and game.end.kind is EndKind.VICTORY
    assert game.end.winners == ("france",)


@pytest.mark.parametrize("players", ["6", "5", "4", "3", "3b", "2"])
def test_every_player_count_plays_to_an_end(players: str) -> None:
    game = Game(players=players, seed=7, end_year=1912 if players != "2" else 1918)
    rng = random.Random(int(players[0]))
    while not game.is_over:
        for power in game.powers_to_order():
            if power in game.setup.inactive:
                continue
            options = game.legal_orders(power)
            game.submit(power, [rng.choice(list(o)) for o in options.values() if o])
        game.process()
    assert game.end is not None
    assert loads(dumps(game)).position == game.position
    for power in game.setup.inactive:
        assert all(power in r.civil_disorder for r in game.history
                   if r.position.phase.type is PhaseType.MOVEMENT and r.position.units_of(power))


def test_inactive_powers_take_no_orders() -> None:
    game = Game(players=6)
    with pytest.raises(GameError, match="no orders"):
        game.submit("italy", "A Rom H")


def test_1914_game_keeps_italy_neutral_then_italy_joins_the_toss_winner() -> None:
    game = Game(players=2, seed=1)
    assert str(game.phase) == "S1914M"
    assert not game.position.units_of("italy")
    report = game.submit("france", "A Mar-Pie")
    assert report[0].error_kind == "illegal"
    while game.phase.year < 1915:
        game.process()
    assert game.coin_toss_winner is not None
    assert len(game.position.units_of("italy")) == 3
    assert game.team_of("italy") == game.coin_toss_winner
    assert any("coin toss" in note for r in game.history for note in r.notes)


def test_text_record_round_trips() -> None:
    from realpolitik.record import from_text, to_text

    game = Game(seed=5)
    rng = random.Random(5)
    while game.phase.year < 1904:
        for power in game.powers_to_order()[:-1]:  # the last power stays in civil disorder
            options = game.legal_orders(power)
            game.submit(power, [rng.choice(list(o)) for o in options.values() if o])
        game.process()
    text = to_text(game)
    again = from_text(text)
    assert to_text(again) == text
    assert again.position == game.position


def test_a_copy_carries_every_field_of_the_game() -> None:
    """``Game.__getstate__`` names the fields (the compiled class has no ``__dict__``): a field
    added to ``Game.__init__`` and not to that list would be lost by a copy or a pickle."""
    import copy

    from realpolitik.game import _GAME_FIELDS

    game = Game(seed=3)
    game.submit("france", "A Par-Bur")
    if hasattr(game, "__dict__"):  # the pure-Python build
        assert set(vars(game)) == set(_GAME_FIELDS)
    copied = copy.deepcopy(game)
    for name in _GAME_FIELDS:
        if name not in ("_listed", "_listed_for", "_random", "_pending"):
            assert getattr(copied, name) == getattr(game, name), name
    assert copied._random.random() == game._random.random()  # noqa: SLF001
    assert copied.orders_of("france") == game.orders_of("france")
    assert [str(e.order) for e in copied.orders_of("france")] == ["A PAR - BUR"]
