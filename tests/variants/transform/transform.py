"""TRANSFORM: a unit on one of its power's own coastal home centres changes type in place, in a
winter, instead of a build (webDiplomacy's rule)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from realpolitik.geography import UnitType, province_of
from realpolitik.kinds import OrderKind, Pen, Spending
from realpolitik.legality import Illegal, adjustment_counts
from realpolitik.orders import Build, Order, UnitOrder, VariantOrder
from realpolitik.position import PhaseType, Position, Unit
from realpolitik.variant import Variant
from realpolitik.writing import PlaceWriter


@dataclass(frozen=True, slots=True)
class Transform(VariantOrder):
    """``A BRE TRANSFORM``: the unit becomes a unit of the other type where it stands; the
    argument is the coast the fleet takes, where the province has several."""

    kind: ClassVar[str] = "transform"


def _new_location(variant: Variant, unit: Unit, coast: str | None) -> str | None:
    """Where the transformed unit stands (None: it cannot be transformed there)."""
    province = province_of(unit.location)
    if unit.type is UnitType.FLEET:
        return province if variant.map.can_hold(UnitType.ARMY, province) else None
    coasts = variant.map.coasts(province)
    if coasts:
        return coast if coast in coasts else None
    return province if variant.map.can_hold(UnitType.FLEET, province) else None


class TransformKind(OrderKind):
    name = "transform"
    order = Transform
    keywords = frozenset({"transforms", "tr"})
    phases = frozenset({PhaseType.ADJUSTMENTS})
    argument = "the coast the fleet takes"
    argument_optional = True
    label = "Transform"
    spent_reason: ClassVar[str] = "The power's transforms use every build it is due."

    def readings(self, variant: Variant, unit: tuple[UnitType, str],
                 candidates: tuple[str, ...]) -> tuple[str, ...]:
        # "A StP TRANSFORM NC" or "... StP/NC": the coasts named of the unit's own province
        coasts = variant.map.coasts(province_of(unit[1]))
        return tuple(c for c in candidates if c in coasts) if candidates else ()

    def check(self, position: Position, order: VariantOrder, unit: Unit,
              ) -> UnitOrder | Illegal:
        variant = position.variant
        province = unit.province
        where = variant.map.name(province)
        if adjustment_counts(position).get(unit.power, 0) <= 0:
            return Illegal("no_builds", f"{variant.power_name(unit.power)} has no build to "
                                        "give up for a transform this winter.")
        if province not in variant.map.home_centers(unit.power) \
                or position.centers.get(province) != unit.power:
            return Illegal("not_home_centre", f"{where} is not a home centre "
                                              f"{variant.power_name(unit.power)} owns.")
        coast = order.argument
        to = _new_location(variant, unit, coast)
        if to is None:
            coasts = variant.map.coasts(province)
            if unit.type is UnitType.ARMY and coasts and coast is None:
                return Illegal("coast_needed", f"Say which coast of {where} the fleet takes: "
                                               f"{' or '.join(c.upper() for c in coasts)}.")
            other = "an army" if unit.type is UnitType.FLEET else "a fleet"
            return Illegal("cannot_transform", f"A unit in {where} cannot become {other} "
                                               "there.")
        argument = to if "/" in to else None
        return Transform(unit.type, unit.location, argument, power=unit.power)

    def listed(self, position: Position, power: str) -> Mapping[str, tuple[Order, ...]]:
        if adjustment_counts(position).get(power, 0) <= 0:
            return {}
        variant = position.variant
        out: dict[str, tuple[Order, ...]] = {}
        for unit in position.units_of(power):
            if unit.province not in variant.map.home_centers(power) \
                    or position.centers.get(unit.province) != power:
                continue
            if unit.type is UnitType.ARMY and variant.map.coasts(unit.province):
                options = variant.map.coasts(unit.province)
            else:
                options = (None,)
            orders = tuple(Transform(unit.type, unit.location, coast, power=power)
                           for coast in options if _new_location(variant, unit, coast))
            if orders:
                out[unit.location] = orders
        return out

    def spend(self, position: Position, power: str, orders: Sequence[VariantOrder],
              due: int) -> Spending:
        # each transform takes one build, the first given first; a unit changes once
        void: dict[int, Illegal] = {}
        done: set[str] = set()
        for index, order in enumerate(orders):
            if order.province in done:
                void[index] = Illegal("duplicate_order", "That unit is already transformed.")
            elif len(done) >= due:
                void[index] = Illegal("too_many_builds", "The power has no builds left for it.")
            else:
                done.add(order.province)
        return Spending(len(done), void)

    def carry_out(self, position: Position, order: VariantOrder, power: str,
                  units: dict[str, Unit]) -> None:
        unit = units[order.province]
        to = _new_location(position.variant, unit, order.argument)
        assert to is not None  # (checked when given)
        other = UnitType.ARMY if unit.type is UnitType.FLEET else UnitType.FLEET
        units[order.province] = Unit(unit.power, other, to)

    def done(self, order: VariantOrder, writer: PlaceWriter) -> str:
        became = "an army" if order.unit_type is UnitType.FLEET else "a fleet"
        return f"{writer.order(order)}: the unit became {became}."

    def draw(self, order: VariantOrder, pen: Pen, colour: str, *, succeeded: bool,
             void: bool) -> None:
        # the unit it becomes, in a double ring
        if succeeded and not void:
            other = UnitType.ARMY if order.unit_type is UnitType.FLEET else UnitType.FLEET
            pen.unit(other, colour)
        pen.ring(13.5, colour, width=2.4)
        pen.ring(17, colour, dash="3 2", width=1.4)
        if not succeeded or void:
            pen.cross(4, offset=(11, -11))

    def advice(self, position: Position, power: str,
               listed: Mapping[str, tuple[Order, ...]], due: int) -> tuple[Order, ...]:
        # with builds due and nowhere free to build, an army on a coastal home centre goes
        # to sea (the first such, by place)
        if due <= 0 or any(isinstance(o, Build) for options in listed.values() for o in options):
            return ()
        armies = [o for options in listed.values() for o in options
                  if isinstance(o, Transform) and o.unit_type is UnitType.ARMY]
        return tuple(sorted(armies, key=str)[:1])
