"""FORTIFY: an army holds with one more hold strength this turn, in a movement phase."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from realpolitik.geography import UnitType
from realpolitik.kinds import Holds, MovementEffect, OrderKind, Pen
from realpolitik.legality import Illegal
from realpolitik.orders import Order, UnitOrder, VariantOrder
from realpolitik.position import PhaseType, Position, Unit


@dataclass(frozen=True, slots=True)
class Fortify(VariantOrder):
    """``A MUN FORTIFY``: the army holds, one stronger than a hold, this turn."""

    kind: ClassVar[str] = "fortify"


FORTIFIED = Holds(bonus=1)
"""What a fortify does in a movement phase: the army holds, with one more hold strength."""


class FortifyKind(OrderKind):
    name = "fortify"
    order = Fortify
    keywords = frozenset({"fortifies", "fort"})
    phases = frozenset({PhaseType.MOVEMENT})
    label = "Fortify"

    def check(self, position: Position, order: VariantOrder, unit: Unit,
              ) -> UnitOrder | Illegal:
        if unit.type is not UnitType.ARMY:
            where = position.variant.map.name(unit.province)
            return Illegal("not_an_army", f"Only an army can fortify; the unit in {where} is "
                                          "a fleet.")
        return Fortify(unit.type, unit.location, None, power=unit.power)

    def listed(self, position: Position, power: str) -> Mapping[str, tuple[Order, ...]]:
        return {unit.location: (Fortify(unit.type, unit.location, None, power=power),)
                for unit in position.units_of(power) if unit.type is UnitType.ARMY}

    def movement_effect(self, order: VariantOrder) -> MovementEffect:
        return FORTIFIED

    def draw(self, order: VariantOrder, pen: Pen, colour: str, *, succeeded: bool,
             void: bool) -> None:
        # a thick ring around the army: its walls
        pen.ring(14, colour, width=4.0)
        if not succeeded or void:
            pen.cross(4, offset=(11, -11))
