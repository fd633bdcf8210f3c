"""The next board's units in order, handed on from a phase's resolution to the next position.

Each adjudicator (movement, retreats, the winter) hands on, with its resolution, the provinces of
the next board in sorted order and their units (``Resolution.in_order``); the next position keeps
them (``Position.replace(in_order=...)``), and its movement phase numbers its units by them
(:func:`realpolitik.position.units_in_order`) instead of listing and sorting its board again.
These tests check that what is handed on is exactly what would be made from the board, and that
it is no part of any value.
"""

from __future__ import annotations

import copy
import pickle

import pytest

from realpolitik.adjudication import adjudicate
from realpolitik.geography import UnitType
from realpolitik.orders import Build, Hold, Move
from realpolitik.position import Position, Unit, _sort_units, units_in_order
from realpolitik.variant import load_variant
from tests.random_play import playing

_A = UnitType.ARMY


def _made_again(units: dict[str, Unit]) -> tuple[list[str], list[Unit]]:
    """The units in order as worked out from the board alone."""
    provinces = sorted(units)
    return provinces, [units[p] for p in provinces]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_position_reached_has_its_units_in_order(seed: int) -> None:
    handed_on = 0
    movement = 0
    for game in playing(seed, years=8):
        position = game.position
        known = position._in_order  # noqa: SLF001 (what was handed on, before any is made)
        if known is not None:
            handed_on += 1
            assert known == _made_again(dict(position.units))
        if position.phase.type.name == "MOVEMENT":
            movement += 1
        assert units_in_order(position) == _made_again(dict(position.units))
        assert units_in_order(position) == _sort_units(position)
    # every position after the first was given its board's lists by the phase before
    assert movement > 10
    assert handed_on >= movement - 1


@pytest.mark.parametrize("seed", [3, 4])
def test_every_resolution_hands_on_its_board_in_order(seed: int) -> None:
    kinds: set[str] = set()
    for game in playing(seed, years=8):
        if not game.history:
            continue
        record = game.history[-1]
        resolution = record.resolution
        if resolution.in_order is not None:
            kinds.add(record.position.phase.type.name)
            assert resolution.in_order == _made_again(dict(resolution.units))
            # (the lists the position reached was given: the same)
            assert game.position._in_order is resolution.in_order \
                or game.position.units is not resolution.units  # noqa: SLF001
    assert {"MOVEMENT", "ADJUSTMENTS"} <= kinds


def test_in_order_is_no_part_of_a_resolution_or_position() -> None:
    variant = load_variant("classical")
    start = Position.initial(variant)
    resolution = adjudicate(start, [Move(_A, "par", "bur", power="france"),
                                    Hold(_A, "mar", power="france")])
    assert resolution.in_order == _made_again(dict(resolution.units))
    again = pickle.loads(pickle.dumps(resolution))
    assert again.in_order is None
    assert again == resolution
    assert hash(again) == hash(resolution)
    assert copy.deepcopy(resolution) == resolution
    assert "in_order" not in repr(resolution)
    # a position keeps the lists it is given, and compares by its value only
    following = start.replace(units=resolution.units, in_order=resolution.in_order)
    plain = start.replace(units=resolution.units)
    assert following._in_order is resolution.in_order  # noqa: SLF001
    assert plain._in_order is None  # noqa: SLF001 (made when first asked)
    assert following == plain
    assert hash(following) == hash(plain)
    assert units_in_order(plain) == units_in_order(following)
    # the same units: the lists kept; other units: not
    assert following.replace(phase=start.phase)._in_order is resolution.in_order  # noqa: SLF001
    assert following.replace(units=start.units)._in_order is None  # noqa: SLF001
    assert pickle.loads(pickle.dumps(following))._in_order is None  # noqa: SLF001
    assert "_in_order" not in repr(following)


def test_a_board_given_out_of_order_is_numbered_in_sorted_order() -> None:
    variant = load_variant("classical")
    start = Position.initial(variant)
    units = list(reversed(list(start.units.values())))
    shuffled = Position.build(variant, "S1901M", units, start.centers)
    assert list(shuffled.units) != sorted(shuffled.units)
    assert units_in_order(shuffled) == _made_again(dict(shuffled.units))
    orders = [Move(_A, "par", "bur", power="france"), Move(_A, "mun", "bur", power="germany")]
    assert adjudicate(shuffled, orders) == adjudicate(start, orders)
    # the next board is in sorted order either way, and handed on so
    resolution = adjudicate(shuffled, orders)
    assert list(resolution.units) == sorted(resolution.units)
    assert resolution.in_order == _made_again(dict(resolution.units))


def test_a_winter_with_builds_hands_on_its_board_in_order() -> None:
    variant = load_variant("classical")
    start = Position.initial(variant)
    units = [u for p, u in start.units.items() if p != "par"]
    centers = dict(start.centers, spa="france", por="france")
    winter = Position.build(variant, "W1901A", units, centers)
    resolution = adjudicate(winter, [Build(UnitType.ARMY, "par", power="france"),
                                     Build(UnitType.FLEET, "bre", power="france")])
    assert resolution.in_order == _made_again(dict(resolution.units))
    # a winter that leaves the board as it was hands on the winter position's own lists
    unchanged = adjudicate(Position.build(variant, "W1901A", start.units.values(),
                                          start.centers), [])
    assert unchanged.in_order == _made_again(dict(unchanged.units))
