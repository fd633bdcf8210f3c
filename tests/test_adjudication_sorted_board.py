"""A board after a phase keeps its provinces in sorted order, as the engine keeps them."""

from __future__ import annotations

from realpolitik.adjudication import adjudicate
from realpolitik.geography import UnitType
from realpolitik.orders import Build
from realpolitik.position import Position
from realpolitik.variant import load_variant


def test_a_winter_board_with_builds_is_in_sorted_order() -> None:
    variant = load_variant("classical")
    start = Position.initial(variant)
    # France owns Spain and Portugal and has lost its army in Paris: two builds due
    units = [u for p, u in start.units.items() if p != "par"]
    centers = dict(start.centers, spa="france", por="france")
    winter = Position.build(variant, "W1901A", units, centers)
    resolution = adjudicate(winter, [Build(UnitType.ARMY, "par", power="france"),
                                     Build(UnitType.FLEET, "bre", power="france")])
    board = list(resolution.units)
    assert board == sorted(board)
    assert "par" in resolution.units
