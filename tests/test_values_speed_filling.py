"""The values the engine makes every phase without their constructor (``Position.replace``,
``position.moved_unit``, ``calendar.made_phase``, ``Resolution``, ``made_resolution``,
``OrderResult.explained_later``, the game's ``_made_record``: interpreted, made
as a filling subclass, ``slots.filling_class``, and given their own class; compiled, written
natively) against the values the constructors make, over seeded random games: equal, hashed,
shown and pickled alike, of their own class exactly, and refusing changes. Runs on both builds."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import FrozenInstanceError

import pytest

from realpolitik.adjudication import outcomes
from realpolitik.adjudication.outcomes import OrderResult, Resolution, made_resolution
from realpolitik.calendar import Phase
from realpolitik.game import Game, PhaseRecord
from realpolitik.position import Position, Unit


def _random_game(seed: int, until: int) -> list[tuple[Position, Resolution]]:
    """Each phase's position and resolution in a seeded random game."""
    game = Game("classical", rules="2000", seed=seed)
    rng = random.Random(seed)
    played: list[tuple[Position, Resolution]] = []
    while not game.is_over and game.phase.year <= until:
        position = game.position
        for power in game.powers_to_order():
            options = [o for opts in game.legal_orders(power).values() for o in opts]
            game.submit(power, rng.sample(options, min(len(options), 3)))
        played.append((position, game.process()))
    played.append((game.position, played[-1][1]))
    return played


@pytest.fixture(scope="module")
def played() -> list[tuple[Position, Resolution]]:
    return _random_game(3, 1905) + _random_game(8, 1904)


def _refuses_changes(value: object, names: tuple[str, ...]) -> None:
    for name in names:
        with pytest.raises(FrozenInstanceError):
            setattr(value, name, None)


def test_positions_made_by_replace_are_the_constructors(
        played: list[tuple[Position, Resolution]]) -> None:
    for position, _ in played:
        assert type(position) is Position
        plain = Position(position.variant, position.phase, position.units, position.centers,
                         position.dislodged, position.standoffs, position.state)
        assert position == plain and hash(position) == hash(plain)
        assert repr(position) == repr(plain)
        assert (position.variant, position.phase, dict(position.units),
                dict(position.centers), position.dislodged, position.standoffs) == \
            (plain.variant, plain.phase, dict(plain.units), dict(plain.centers),
             plain.dislodged, plain.standoffs)
        assert len(position.caches) == 0 or position.caches is not plain.caches
        for unit in position.units.values():  # (the moved ones made by moved_unit)
            plain_unit = Unit(unit.power, unit.type, unit.location)
            assert type(unit) is Unit and unit == plain_unit and hash(unit) == hash(plain_unit)
            assert repr(unit) == repr(plain_unit)
            _refuses_changes(unit, ("power", "type", "location"))
        copied = pickle.loads(pickle.dumps(position))
        assert type(copied) is Position and copied == position
        assert copy.copy(position) == position and copy.deepcopy(position) is position
        _refuses_changes(position, ("variant", "phase", "units", "centers", "dislodged",
                                    "standoffs", "state", "caches"))
        match position:
            case Position(variant, phase, units):
                assert (variant, phase, units) == (plain.variant, plain.phase, plain.units)
            case _:
                pytest.fail("a position matches its class pattern")


def test_replace_changes_only_what_it_is_given(
        played: list[tuple[Position, Resolution]]) -> None:
    position, _ = played[len(played) // 2]
    same = position.replace()
    assert type(same) is Position and same == position and same.caches is not position.caches
    later = position.replace(phase=Phase.parse("F1950M"), standoffs=frozenset({"bur"}))
    assert type(later) is Position and later.phase == Phase.parse("F1950M")
    assert later.standoffs == frozenset({"bur"}) and later.units == position.units
    assert later != position


def test_phases_walked_by_the_game_are_the_constructors(
        played: list[tuple[Position, Resolution]]) -> None:
    for position, _ in played:
        phase = position.phase
        plain = Phase(str(phase.season), phase.year, phase.type)
        assert type(phase) is Phase and type(phase.season) is type(plain.season)
        assert phase == plain and hash(phase) == hash(plain) and repr(phase) == repr(plain)
        assert pickle.loads(pickle.dumps(phase)) == phase and copy.deepcopy(phase) == phase
        _refuses_changes(phase, ("season", "year", "type"))


def test_resolutions_and_results_are_the_constructors(
        played: list[tuple[Position, Resolution]]) -> None:
    for _, resolution in played[:-1]:
        assert type(resolution) is Resolution
        results = resolution.results
        assert all(type(result) is OrderResult for result in results)
        plain_results = tuple(OrderResult(r.order, r.power, r.result, r.outcome, r.reason, r.by,
                                          r.strength, r.opposed_by, r.illegal_reason)
                              for r in results)
        assert results == plain_results and hash(results) == hash(plain_results)
        assert repr(results) == repr(plain_results)
        plain = Resolution(resolution.phase, plain_results, resolution.units,
                           resolution.dislodged, resolution.retreat_options,
                           resolution.standoffs, resolution.civil_disorder)
        assert type(plain) is Resolution
        assert resolution == plain and hash(resolution) == hash(plain)
        assert repr(resolution) == repr(plain)
        copied = pickle.loads(pickle.dumps(resolution))
        assert type(copied) is Resolution and copied == resolution
        assert copy.deepcopy(resolution) == resolution
        _refuses_changes(resolution, ("phase", "units", "dislodged", "retreat_options",
                                      "civil_disorder", "_results", "_standoffs"))
        for result in results[:3]:
            _refuses_changes(result, ("order", "power", "result", "outcome", "_detail"))
            match result:
                case OrderResult(order, power, outcome=outcome):
                    assert (order, power, outcome) == (result.order, result.power,
                                                       result.outcome)
                case _:
                    pytest.fail("a result matches its class pattern")
        match resolution:
            case Resolution(phase, given, units):
                assert (phase, given, units) == (plain.phase, plain.results, plain.units)
            case _:
                pytest.fail("a resolution matches its class pattern")


def test_made_resolution_is_the_constructors(
        played: list[tuple[Position, Resolution]]) -> None:
    for _, resolution in played[:-1]:
        fields = (resolution.phase, resolution.results, resolution.units, resolution.dislodged,
                  resolution.retreat_options, resolution.standoffs, resolution.civil_disorder)
        made = made_resolution(*fields)
        assert type(made) is Resolution and made == Resolution(*fields)
        assert repr(made) == repr(resolution) and hash(made) == hash(resolution)
        _refuses_changes(made, ("phase", "units", "_results"))
    short = made_resolution(resolution.phase, resolution.results, resolution.units)
    plain = Resolution(resolution.phase, resolution.results, resolution.units)
    assert type(short) is Resolution and short == plain and repr(short) == repr(plain)


def test_records_are_the_constructors() -> None:
    game = Game("classical", rules="2000", seed=5)
    rng = random.Random(5)
    while not game.is_over and game.phase.year <= 1903:
        for power in game.powers_to_order():
            options = [o for opts in game.legal_orders(power).values() for o in opts]
            game.submit(power, rng.sample(options, min(len(options), 3)))
        game.process()
    assert game.history
    for record in game.history:
        assert type(record) is PhaseRecord
        plain = PhaseRecord(record.position, record.orders, record.resolution,
                            record.civil_disorder, record.notes, record.events)
        assert record == plain and repr(record) == repr(plain)
        assert copy.deepcopy(record) == record and pickle.loads(pickle.dumps(record)) == record
        _refuses_changes(record, ("position", "orders", "resolution", "civil_disorder",
                                  "notes", "events"))


_COMPILED = (outcomes.__file__ or "").endswith((".so", ".pyd"))


@pytest.mark.skipif(_COMPILED, reason="a class compiled by mypyc takes no subclass in Python")
def test_subclasses_keep_their_class_and_fields(
        played: list[tuple[Position, Resolution]]) -> None:
    """A subclass's instance (its own slots or its own dictionary) is not switched to the
    filling class and back: it keeps its class, with every field set as the base's are."""

    class TaggedResolution(Resolution):
        __slots__ = ("tag",)

    class NotedResult(OrderResult):  # (an instance dictionary of its own)
        pass

    for _, resolution in played[:4]:
        tagged = TaggedResolution(resolution.phase, resolution.results, resolution.units,
                                  resolution.dislodged, resolution.retreat_options,
                                  resolution.standoffs, resolution.civil_disorder)
        assert type(tagged) is TaggedResolution
        assert (tagged.phase, tagged.results, tagged.units, tagged.standoffs) == (
            resolution.phase, resolution.results, resolution.units, resolution.standoffs)
        _refuses_changes(tagged, ("phase", "units"))
        for r in resolution.results[:2]:
            noted = NotedResult(r.order, r.power, r.result, r.outcome, r.reason, r.by,
                                r.strength, r.opposed_by, r.illegal_reason)
            assert type(noted) is NotedResult
            assert (noted.order, noted.outcome, noted.reason, noted.by) == (
                r.order, r.outcome, r.reason, r.by)
