"""Which orders are legal in a position, and why the others are not.

An order is *legal* when, not knowing any other orders yet, it could be valid (DATC 4.E.1): the
unit exists and belongs to the power, the move can be made (over land or along a coast, or for
an army by some chain of fleets at sea), the supporter can reach the province it supports into,
a convoying fleet is at sea and needed on some route, and so on. An illegal order is not followed
and the unit holds.

:func:`check_order` gives the reason an order is illegal; :func:`legal_orders` lists every legal
order of a power, for the user interface and the bots.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from itertools import chain, filterfalse, repeat
from operator import attrgetter, is_
from types import MappingProxyType
from typing import TypeVar, cast

from realpolitik.caches import Bounded, CacheSlot
from realpolitik.geography import UnitType, province_of
from realpolitik.hooks import VariantHooks
from realpolitik.maptables import MapTables, Mover, Occupant, tables_for
from realpolitik.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from realpolitik.position import DislodgedUnit, PhaseType, Position, Unit
from realpolitik.rules import (
    ImpossibleCoast,
    IrrelevantCoast,
    OrderedUnitCoast,
    RetreatToConvoyOrigin,
    Rules,
    SingleCoastMove,
    SupportCoast,
    UnitTypeMismatch,
    WaiveBuilds,
    rules_for,
)
from realpolitik.slots import slot_setter
from realpolitik.variant import Variant

__all__ = [
    "Illegal",
    "adjustment_counts",
    "build_sites",
    "can_build",
    "check_order",
    "is_listed",
    "listed_orders",
    "ListedOrders",
    "legal_orders",
    "listed_checker",
    "normalize_order",
    "retreat_options",
]

_DEFAULT_RULES = rules_for("2023")


@dataclass(frozen=True, slots=True)
class Illegal:
    """Why an order is illegal: a short ``code`` and one plain ``message``."""

    code: str
    message: str

    def as_tuple(self) -> tuple[str, str]:
        """``(code, message)``."""
        return (self.code, self.message)


# -- helpers ---------------------------------------------------------------------------------

def _kind(unit_type: UnitType) -> str:
    return "army" if unit_type is UnitType.ARMY else "fleet"


def _name(position: Position, location: str) -> str:
    try:
        return position.variant.map.name(location)
    except KeyError:
        return location.upper()


def _power_name(position: Position, power: str | None) -> str:
    if power is None:
        return "nobody"
    try:
        return position.variant.power(power).name
    except KeyError:
        return power.title()


def _the_unit(position: Position, unit: Unit) -> str:
    return f"the {_kind(unit.type)} in {_name(position, unit.location)}"


def _The_unit(position: Position, unit: Unit) -> str:  # noqa: N802
    """``"The fleet in London"``: :func:`_the_unit` to start a sentence."""
    text = _the_unit(position, unit)
    return text[0].upper() + text[1:]


def _find_fleets_at_sea(position: Position) -> frozenset[str]:
    convoy_spaces = tables_for(position.variant).convoy_spaces
    return frozenset(p for p, u in position.units.items()
                     if u.type is UnitType.FLEET and p in convoy_spaces)


_fleets_at_sea: CacheSlot[Position, frozenset[str]] = CacheSlot(
    "fleets at sea", _find_fleets_at_sea)
"""The convoy spaces holding a fleet, worked out once per position: a check of a convoy or of
a support of a move by convoy needs them, and scanning every unit for each such order made
checking grow faster than the number of units."""


def adjustment_counts(position: Position) -> dict[str, int]:
    """Power -> builds (> 0) or removals (< 0) due this winter: supply centres owned minus
    units on the board, as the variant's :meth:`~realpolitik.hooks.VariantHooks.adjustments`
    hook settles it."""
    return dict(_adjustment_counts(position))


def _count_adjustments(position: Position) -> Mapping[str, int]:
    counts = {p: 0 for p in position.variant.power_ids}
    for owner in position.centers.values():
        if owner in counts:
            counts[owner] += 1
    for unit in position.units.values():
        if unit.power in counts:
            counts[unit.power] -= 1
    return position.variant.hooks.adjustments(position, counts)


_adjustment_counts: CacheSlot[Position, Mapping[str, int]] = CacheSlot(
    "adjustment counts", _count_adjustments)
""":func:`adjustment_counts`, worked out once per position: read only (one entry per power)."""


def retreat_options(
    position: Position, dislodged: DislodgedUnit, *, rules: Rules | None = None,
    occupied: Mapping[str, object] | None = None, standoffs: frozenset[str] | None = None,
) -> tuple[str, ...]:
    """The locations a dislodged unit may retreat to, in map order.

    Not occupied (``occupied``, by default the position's units), not the province the attacker
    came from (unless it came by convoy and 4.A.5 allows it), not a province left empty by a
    stand-off, and reachable by the unit's own move.
    """
    rules = rules or _DEFAULT_RULES
    tables = tables_for(position.variant)
    occupied = position.units if occupied is None else occupied
    standoffs = position.standoffs if standoffs is None else standoffs
    unit = dislodged.unit
    attacker = dislodged.attacker_from
    if dislodged.via_convoy and rules.retreat_to_convoy_origin is RetreatToConvoyOrigin.ALLOWED:
        attacker = None
    if unit.type is UnitType.ARMY:
        near: frozenset[str] = tables.army_adj.get(unit.province, frozenset())
    else:
        near = tables.fleet_adj.get(unit.location, frozenset())
    out = []
    for loc in near:
        prov = province_of(loc)
        if prov in occupied or prov == attacker or prov in standoffs:
            continue
        out.append(loc)
    out.sort(key=tables.location_index.__getitem__)
    hooks = position.variant.hooks
    if type(hooks).retreat_allowed is not VariantHooks.retreat_allowed:
        out = [loc for loc in out if hooks.retreat_allowed(position, dislodged, loc)]
    return tuple(out)


def _has_order_veto(position: Position) -> bool:
    """True if the variant's hooks may veto movement orders (most variants' do not)."""
    return type(position.variant.hooks).order_veto is not VariantHooks.order_veto


# -- the checks ------------------------------------------------------------------------------

class _Checker:
    """Checks one order against a position; returns the order as the rules read it, or why not."""

    __slots__ = ("position", "rules", "tables")

    def __init__(self, position: Position, rules: Rules) -> None:
        self.position = position
        self.rules = rules
        self.tables = tables_for(position.variant)

    def illegal(self, code: str, message: str) -> Illegal:
        return Illegal(code, message)

    # The unit an order is given to (movement and adjustment removals).
    def find_unit(self, order: Hold | Move | SupportHold | SupportMove | Convoy | Disband,
                  ) -> Unit | Illegal:
        position = self.position
        unit = position.units.get(province_of(order.location))
        if unit is None:
            return self.illegal(
                "no_unit", f"There is no unit in {_name(position, province_of(order.location))}."
            )
        return self.check_unit(order, unit)

    def check_unit(self, order: Hold | Move | SupportHold | SupportMove | Convoy | Disband
                   | Retreat, unit: Unit) -> Unit | Illegal:
        position = self.position
        if order.power is not None and order.power != unit.power:
            return self.illegal(
                "not_your_unit",
                f"{_The_unit(position, unit)} belongs to "
                f"{_power_name(position, unit.power)}, not {_power_name(position, order.power)}.",
            )
        if (order.unit_type is not unit.type
                and self.rules.unit_type_mismatch is UnitTypeMismatch.ILLEGAL):
            return self.illegal(
                "wrong_unit_type",
                f"The unit in {_name(position, unit.location)} is "
                f"{'an army' if unit.type is UnitType.ARMY else 'a fleet'}, "
                f"not {'an army' if order.unit_type is UnitType.ARMY else 'a fleet'}.",
            )
        if (order.location != unit.location and order.location != unit.province
                and self.rules.ordered_unit_coast is OrderedUnitCoast.ILLEGAL):
            return self.illegal(
                "wrong_coast",
                f"The fleet in {_name(position, unit.province)} is on the "
                f"{_name(position, unit.location)}, not {_name(position, order.location)}.",
            )
        return unit

    # -- movement ---------------------------------------------------------------------------

    def move_destination(self, unit: Unit, destination: str) -> str | Illegal:
        """Where a move of ``unit`` to ``destination`` goes (a coast for a fleet), or why not."""
        position, tables = self.position, self.tables
        the_map = position.variant.map
        dest_prov = province_of(destination)
        if dest_prov not in tables.names:
            return self.illegal("no_such_place", f"{destination.upper()} is not on the map.")
        if not the_map.is_location(destination):
            if self.rules.irrelevant_coast is IrrelevantCoast.ILLEGAL:
                return self.illegal(
                    "unknown_coast",
                    f"{destination.upper()} is not a coast of {_name(position, dest_prov)}.",
                )
            destination = dest_prov
        if dest_prov == unit.province:
            return self.illegal(
                "same_province",
                f"{_The_unit(position, unit)} cannot move to the province it is in.",
            )
        if unit.type is UnitType.FLEET:
            return self.fleet_destination(unit, destination)
        if destination != dest_prov:
            if self.rules.irrelevant_coast is IrrelevantCoast.ILLEGAL:
                return self.illegal(
                    "irrelevant_coast", "An army moves to a province, not to a coast."
                )
            destination = dest_prov
        if dest_prov in tables.sea:
            return self.illegal(
                "army_to_sea",
                f"An army cannot move into the sea ({_name(position, dest_prov)}).",
            )
        return destination

    def fleet_destination(self, unit: Unit, destination: str) -> str | Illegal:
        position, tables = self.position, self.tables
        near = tables.fleet_adj.get(unit.location, frozenset())
        dest_prov = province_of(destination)
        if destination in near:
            return destination
        reachable = tuple(c for c in tables.coasts[dest_prov] if c in near)
        if dest_prov in tables.land - tables.coastal:
            return self.illegal(
                "fleet_inland",
                f"A fleet cannot move inland ({_name(position, dest_prov)}).",
            )
        if not reachable or dest_prov not in tables.fleet_reach.get(unit.location, ()):
            return self.illegal(
                "not_adjacent",
                f"A fleet in {_name(position, unit.location)} cannot reach "
                f"{_name(position, dest_prov)}.",
            )
        if destination != dest_prov:  # a coast it cannot reach (4.B.3)
            if self.rules.impossible_coast is ImpossibleCoast.IGNORE_COAST and len(reachable) == 1:
                return reachable[0]
            return self.illegal(
                "unreachable_coast",
                f"A fleet in {_name(position, unit.location)} cannot reach the "
                f"{_name(position, destination)}.",
            )
        if len(reachable) == 1 and self.rules.single_coast_move is SingleCoastMove.ATTEMPT:
            return reachable[0]
        return self.illegal(
            "coast_needed",
            f"A fleet moving to {_name(position, dest_prov)} must say which coast "
            f"({', '.join(c.split('/')[1].upper() for c in reachable)}).",
        )

    def move(self, order: Move) -> Move | Illegal:
        unit = self.find_unit(order)
        if isinstance(unit, Illegal):
            return unit
        destination = self.move_destination(unit, order.destination)
        if isinstance(destination, Illegal):
            return destination
        position, tables = self.position, self.tables
        via = order.via_convoy
        if unit.type is UnitType.FLEET:
            if via:
                return self.illegal("convoy_fleet", "Only armies can be convoyed.")
        else:
            by_land = destination in tables.army_adj.get(unit.province, ())
            if via or not by_land:
                fleets = _fleets_at_sea(position)
                if not tables.has_convoy_route(unit.province, destination, fleets):
                    if via:
                        return self.illegal(
                            "no_convoy_route",
                            f"No chain of fleets at sea joins {_name(position, unit.province)} "
                            f"to {_name(position, destination)}.",
                        )
                    return self.illegal(
                        "not_adjacent",
                        f"{_name(position, unit.province)} is not next to "
                        f"{_name(position, destination)} and no chain of fleets at sea joins "
                        f"them.",
                    )
        if (destination != order.destination or unit.location != order.location
                or order.unit_type is not unit.type):
            return replace(order, unit_type=unit.type, location=unit.location,
                           destination=destination)
        return order

    def supported_move_possible(self, supporter: Unit, supported: Unit, destination: str,
                                ) -> str | Illegal:
        """The destination as the supported unit would move there, or why it cannot."""
        position, tables = self.position, self.tables
        dest_prov = province_of(destination)
        if dest_prov == supported.province:
            return self.illegal(
                "supported_move_impossible",
                f"{_The_unit(position, supported)} cannot move to the province it "
                f"is in.",
            )
        if supported.type is UnitType.FLEET:
            near = tables.fleet_adj.get(supported.location, frozenset())
            if destination == dest_prov and tables.coasts.get(dest_prov):
                if not any(c in near for c in tables.coasts[dest_prov]):
                    return self._impossible(supported, dest_prov)
                if self.rules.support_coast is SupportCoast.REQUIRED:
                    return self.illegal(
                        "coast_needed",
                        f"A support of a fleet moving to {_name(position, dest_prov)} must say "
                        f"which coast.",
                    )
                return dest_prov
            if destination not in near:
                if position.variant.map.is_location(destination) and destination != dest_prov:
                    return self._impossible(supported, destination)
                return self._impossible(supported, dest_prov)
            return destination
        if dest_prov in tables.sea:
            return self.illegal("supported_move_impossible",
                                f"An army cannot move into the sea ({_name(position, dest_prov)}).")
        if dest_prov in tables.army_adj.get(supported.province, ()):
            return dest_prov
        fleets = _fleets_at_sea(position)
        # not through the supporter: it cannot support and convoy at once (6.D.31)
        if tables.has_convoy_route(supported.province, dest_prov, fleets, supporter.province):
            return dest_prov
        return self._impossible(supported, dest_prov)

    def _impossible(self, unit: Unit, destination: str) -> Illegal:
        position = self.position
        return self.illegal(
            "supported_move_impossible",
            f"{_The_unit(position, unit)} cannot move to "
            f"{_name(position, destination)}.",
        )

    def support(self, order: SupportHold | SupportMove) -> SupportHold | SupportMove | Illegal:
        unit = self.find_unit(order)
        if isinstance(unit, Illegal):
            return unit
        position, tables = self.position, self.tables
        supported_prov = province_of(order.supported_location)
        supported = position.units.get(supported_prov)
        if supported is None:
            return self.illegal(
                "no_unit_to_support",
                f"There is no unit in {_name(position, supported_prov)} to support.",
            )
        if supported_prov == unit.province:
            return self.illegal("support_self", "A unit cannot support itself.")
        reach = tables.reach(unit.type, unit.location)
        if isinstance(order, SupportHold):
            if supported_prov not in reach:
                return self._unreachable(unit, supported_prov)
            if order.supported_location != supported.location:
                return replace(order, unit_type=unit.type, location=unit.location,
                               supported_location=supported.location,
                               supported_type=supported.type)
            if order.location != unit.location or order.unit_type is not unit.type:
                return replace(order, unit_type=unit.type, location=unit.location)
            return order
        dest_prov = province_of(order.destination)
        if dest_prov not in tables.names:
            return self.illegal("no_such_place", f"{order.destination.upper()} is not on the map.")
        if dest_prov == unit.province:
            return self.illegal(
                "support_own_province",
                f"{_The_unit(position, unit)} cannot support a move into its own "
                f"province.",
            )
        if dest_prov not in reach:
            return self._unreachable(unit, dest_prov)
        destination = order.destination
        if supported.type is UnitType.ARMY or not position.variant.map.is_location(destination):
            destination = dest_prov
        target = self.supported_move_possible(unit, supported, destination)
        if isinstance(target, Illegal):
            return target
        if (target != order.destination or order.location != unit.location
                or order.supported_location != supported.location
                or order.unit_type is not unit.type):
            return replace(order, unit_type=unit.type, location=unit.location,
                           supported_location=supported.location, destination=target,
                           supported_type=supported.type)
        return order

    def _unreachable(self, unit: Unit, province: str) -> Illegal:
        position = self.position
        return self.illegal(
            "support_unreachable",
            f"{_The_unit(position, unit)} cannot reach "
            f"{_name(position, province)}, so it cannot support there.",
        )

    def convoy(self, order: Convoy) -> Convoy | Illegal:
        unit = self.find_unit(order)
        if isinstance(unit, Illegal):
            return unit
        position, tables = self.position, self.tables
        if unit.type is not UnitType.FLEET:
            return self.illegal("army_cannot_convoy", "Only fleets can convoy.")
        if unit.province not in tables.convoy_spaces:
            return self.illegal(
                "convoy_not_at_sea",
                f"The fleet in {_name(position, unit.location)} is not at sea, so it cannot "
                f"convoy." if unit.province not in tables.coastal or tables.convoy_spaces
                == tables.sea else f"Fleets in {_name(position, unit.location)} cannot convoy.",
            )
        army_prov = province_of(order.army_location)
        army = position.units.get(army_prov)
        if army is None:
            return self.illegal(
                "no_unit_to_convoy", f"There is no army in {_name(position, army_prov)} to convoy."
            )
        if army.type is not UnitType.ARMY:
            return self.illegal("convoy_not_army", "Only armies can be convoyed.")
        dest = province_of(order.destination)
        if dest not in tables.names:
            return self.illegal("no_such_place", f"{order.destination.upper()} is not on the map.")
        if dest == army_prov:
            return self.illegal(
                "same_province", "An army cannot be convoyed to the province it is in."
            )
        if dest not in tables.coastal or army_prov not in tables.coastal:
            return self.illegal(
                "convoy_not_needed",
                f"An army cannot be convoyed from {_name(position, army_prov)} to "
                f"{_name(position, dest)}.",
            )
        fleets = _fleets_at_sea(position)
        routes = tables.minimal_routes(army_prov, fleets, dest)
        if not any(unit.province in chain for chain, _ in routes):
            return self.illegal(
                "convoy_not_needed",
                f"The fleet in {_name(position, unit.location)} is not needed on any convoy "
                f"route from {_name(position, army_prov)} to {_name(position, dest)}.",
            )
        if (order.location != unit.location or order.army_location != army_prov
                or order.destination != dest or order.unit_type is not unit.type):
            return replace(order, unit_type=unit.type, location=unit.location,
                           army_location=army_prov, destination=dest)
        return order

    # -- retreats ---------------------------------------------------------------------------

    def find_dislodged(self, order: Retreat | Disband) -> DislodgedUnit | Illegal:
        position = self.position
        province = province_of(order.location)
        candidates = [d for d in position.dislodged if d.unit.province == province]
        if order.power is not None and len(candidates) > 1:
            candidates = [d for d in candidates if d.unit.power == order.power] or candidates
        if not candidates:
            if province in position.units:
                return self.illegal(
                    "not_dislodged",
                    f"{_the_unit(position, position.units[province])} was not "
                    f"dislodged, so it cannot retreat.",
                )
            return self.illegal(
                "no_unit", f"There is no dislodged unit in {_name(position, province)}."
            )
        dislodged = candidates[0]
        checked = self.check_unit(order, dislodged.unit)
        if isinstance(checked, Illegal):
            return checked
        return dislodged

    def retreat(self, order: Retreat) -> Retreat | Illegal:
        dislodged = self.find_dislodged(order)
        if isinstance(dislodged, Illegal):
            return dislodged
        position, tables = self.position, self.tables
        unit = dislodged.unit
        options = retreat_options(position, dislodged, rules=self.rules)
        dest = order.destination
        dest_prov = province_of(dest)
        if unit.type is UnitType.ARMY:
            chosen = [o for o in options if o == dest_prov]
        elif dest != dest_prov:
            chosen = [o for o in options if o == dest]
        else:
            chosen = [o for o in options if province_of(o) == dest_prov]
        if len(chosen) == 1:
            if (chosen[0] != order.destination or order.location != unit.location
                    or order.unit_type is not unit.type):
                return replace(order, unit_type=unit.type, location=unit.location,
                               destination=chosen[0])
            return order
        if len(chosen) > 1:
            return self.illegal(
                "coast_needed",
                f"A fleet retreating to {_name(position, dest_prov)} must say which coast.",
            )
        checked = self.move_destination(unit, dest)
        if isinstance(checked, Illegal):
            return checked
        if unit.type is UnitType.FLEET and checked not in tables.fleet_adj[unit.location]:
            return self.illegal(
                "not_adjacent",
                f"{_The_unit(position, unit)} cannot reach "
                f"{_name(position, dest)}.",
            )
        if unit.type is UnitType.ARMY and dest_prov not in tables.army_adj[unit.province]:
            return self.illegal(
                "not_adjacent",
                f"{_The_unit(position, unit)} cannot reach "
                f"{_name(position, dest_prov)}.",
            )
        if dest_prov in position.units:
            return self.illegal(
                "retreat_occupied",
                f"{_name(position, dest_prov)} is occupied, so no unit may retreat there.",
            )
        if dest_prov == dislodged.attacker_from:
            return self.illegal(
                "retreat_to_attacker",
                f"A unit may not retreat to the province its attacker came from "
                f"({_name(position, dest_prov)}).",
            )
        if dest_prov in position.standoffs:
            return self.illegal(
                "retreat_to_standoff",
                f"{_name(position, dest_prov)} was left empty by a stand-off, so no unit may "
                f"retreat there.",
            )
        return self.illegal(  # pragma: no cover - every case is covered above
            "retreat_impossible", f"The unit cannot retreat to {_name(position, dest)}."
        )

    # -- adjustments ------------------------------------------------------------------------

    def build(self, order: Build) -> Build | Illegal:
        position, tables = self.position, self.tables
        province = province_of(order.location)
        if province not in tables.names:
            return self.illegal("no_such_place", f"{order.location.upper()} is not on the map.")
        # the power building: as written, else the centre's home power, else its owner (a
        # colony's builder)
        power = order.power or tables.home_of.get(province) or position.centers.get(province)
        name = _name(position, province)
        if province not in tables.supply_centers:
            return self.illegal("not_a_center", f"{name} is not a supply centre.")
        if power is None:
            return self.illegal("not_home_center", f"{name} is nobody's home centre.")
        hooks = position.variant.hooks
        if province not in hooks.build_sites(position, power):
            return self.illegal(
                "not_home_center",
                f"{name} is not a home centre of {_power_name(position, power)}"
                + (" or a place where it may build." if position.variant.rules.of_power(power)
                   .build_sites else "."),
            )
        if position.centers.get(province) != power:
            return self.illegal(
                "center_not_owned",
                f"{_power_name(position, power)} does not own {name}, so it cannot build there.",
            )
        if province in position.units:
            return self.illegal("center_occupied", f"{name} is occupied, so no unit can be built "
                                                   f"there.")
        location = order.location
        if order.unit_type is UnitType.ARMY or not position.variant.map.is_location(location):
            location = province
        if not tables.can_stand(order.unit_type, location):
            if order.unit_type is UnitType.FLEET and tables.coasts.get(province) \
                    and location == province:
                return self.illegal(
                    "coast_needed",
                    f"A fleet built in {name} must be given a coast "
                    f"({', '.join(c.split('/')[1].upper() for c in tables.coasts[province])}).",
                )
            return self.illegal(
                "fleet_inland" if order.unit_type is UnitType.FLEET else "army_to_sea",
                f"A {_kind(order.unit_type)} cannot be built in {name}.",
            )
        if _adjustment_counts(position).get(power, 0) <= 0:
            return self.illegal(
                "no_builds", f"{_power_name(position, power)} has no builds this winter."
            )
        limit = hooks.unit_limit(position, power, order.unit_type)
        if limit is not None and _units_of_type(position, power, order.unit_type) >= limit:
            return self.illegal(
                "unit_limit",
                f"{_power_name(position, power)} may have at most {limit} "
                f"{_kind(order.unit_type)}{'' if limit == 1 else 's'}.",
            )
        if location != order.location or order.power != power:
            return Build(order.unit_type, location, power=power)
        return order

    def removal(self, order: Disband) -> Disband | Illegal:
        unit = self.find_unit(order)
        if isinstance(unit, Illegal):
            return unit
        due = -_adjustment_counts(self.position).get(unit.power, 0)
        if due <= 0:
            return self.illegal(
                "no_removals",
                f"{_power_name(self.position, unit.power)} has no units to remove this winter.",
            )
        first = self.position.variant.hooks.removal_first(self.position, unit.power)
        if first is not None and unit.type is not first \
                and _units_of_type(self.position, unit.power, first) >= due:
            return self.illegal(
                "remove_first",
                f"{_power_name(self.position, unit.power)} must remove its "
                f"{_kind(first)}s before any other unit.")
        if order.location != unit.location or order.unit_type is not unit.type \
                or order.power != unit.power:
            return Disband(unit.type, unit.location, power=unit.power)
        return order

    def waive(self, order: Waive) -> Waive | Illegal:
        if self.rules.waive is not WaiveBuilds.ALLOWED:
            return self.illegal("waive_forbidden", "These rules do not allow waiving a build.")
        if order.power is None:
            return self.illegal("no_power", "A waive must say which power waives its build.")
        if _adjustment_counts(self.position).get(order.power, 0) <= 0:
            return self.illegal(
                "no_builds",
                f"{_power_name(self.position, order.power)} has no builds to waive this winter.",
            )
        return order

    # -- dispatch ---------------------------------------------------------------------------

    def check(self, order: Order) -> Order | Illegal:
        phase = self.position.phase.type
        if phase is PhaseType.MOVEMENT:
            if isinstance(order, Hold):
                unit = self.find_unit(order)
                if isinstance(unit, Illegal):
                    return unit
                if order.location != unit.location or order.unit_type is not unit.type:
                    return replace(order, unit_type=unit.type, location=unit.location)
                return order
            checked: Order | Illegal
            if isinstance(order, Move):
                checked = self.move(order)
            elif isinstance(order, SupportHold | SupportMove):
                checked = self.support(order)
            elif isinstance(order, Convoy):
                checked = self.convoy(order)
            else:
                return self.wrong_phase(order)
            if isinstance(checked, Illegal) or not _has_order_veto(self.position):
                return checked
            unit = self.position.units[province_of(checked.location)]
            veto = self.position.variant.hooks.order_veto(self.position, unit, checked)
            return checked if veto is None else self.illegal("variant_rule", veto)
        if phase is PhaseType.RETREATS:
            if isinstance(order, Retreat):
                return self.retreat(order)
            if isinstance(order, Disband):
                dislodged = self.find_dislodged(order)
                if isinstance(dislodged, Illegal):
                    return dislodged
                unit = dislodged.unit
                position = self.position
                options = retreat_options(position, dislodged, rules=self.rules)
                if not position.variant.hooks.may_disband(position, dislodged, options):
                    return self.illegal(
                        "must_retreat",
                        f"{_The_unit(position, unit)} must retreat while it can "
                        f"({', '.join(_name(position, o) for o in options)}); it may not "
                        f"disband.")
                if order.location != unit.location or order.unit_type is not unit.type:
                    return replace(order, unit_type=unit.type, location=unit.location)
                return order
            return self.wrong_phase(order)
        if isinstance(order, Build):
            return self.build(order)
        if isinstance(order, Disband):
            return self.removal(order)
        if isinstance(order, Waive):
            return self.waive(order)
        return self.wrong_phase(order)

    def wrong_phase(self, order: Order) -> Illegal:
        kind = type(order).__name__.lower()
        words = {"supporthold": "support", "supportmove": "support", "waive": "waive",
                 "build": "build", "disband": "disband", "retreat": "retreat"}
        return self.illegal(
            "wrong_phase",
            f"A {words.get(kind, kind)} order cannot be given in a "
            f"{self.position.phase.type.name.lower()} phase.",
        )


def normalize_order(position: Position, order: Order, *, rules: Rules | None = None,
                    ) -> Order | Illegal:
    """The order as the rules read it (coasts settled, unit type and location taken from the
    unit), or :class:`Illegal` with the reason it is not legal."""
    rules = rules or _DEFAULT_RULES
    if is_listed(position, order, rules):
        return order  # listed by legal_orders: legal, and already as the rules read it
    return _Checker(position, rules).check(order)


_ORDER_CLASSES = (Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband, Build, Waive)


class ListedOrders:
    """The legal orders of one power in one position under one set of rules (what
    :func:`legal_orders` lists), and membership in them by value.

    ``order in listed`` is True when an order *equal* to ``order`` is listed: orders are frozen
    values, so an equal order is the same order, whatever object carries it, and an object
    that is not equal to a listed order is never taken for one.
    """

    __slots__ = ("power", "by_location")

    def __init__(self, power: str, by_location: Mapping[str, tuple[Order, ...]]) -> None:
        self.power = power
        self.by_location = by_location
        """Location -> the orders listed there (a unit's location; a build site's province;
        ``"waive"``)."""

    def __contains__(self, order: object) -> bool:
        return isinstance(order, _ORDER_CLASSES) and self.holds(order)

    def holds(self, order: Order) -> bool:
        """True if an order equal to ``order`` is listed (``order in listed``, typed)."""
        if order.power != self.power:
            return False
        where = "waive" if isinstance(order, Waive) else order.location
        by_location = self.by_location
        orders = by_location.get(where)
        if orders is None:  # a build on a coast is listed under its province
            orders = by_location.get(province_of(where), ())
        # Equality, as ``in`` tests it; the listed object itself (the common case: a caller
        # giving back what was listed) is looked for first, as comparing values of different
        # kinds costs a Python call each.
        return any(map(is_, orders, repeat(order))) or order in orders

    def __repr__(self) -> str:
        return f"<ListedOrders of {self.power}: {sum(map(len, self.by_location.values()))}>"


def listed_orders(position: Position, power: str, *, rules: Rules | None = None,
                  ) -> ListedOrders:
    """The :class:`ListedOrders` of ``power`` in ``position``: made once per position, power
    and rules (:func:`legal_orders` returns its ``by_location``)."""
    rules = rules or _DEFAULT_RULES
    listings = _listings(position)
    listed = listings.get((power, rules))
    if listed is None:
        listed = listings[power, rules] = ListedOrders(
            power, _legal_orders(position, power, rules))
    return listed


def _no_listings(_position: Position) -> dict[tuple[str, Rules], ListedOrders]:
    return {}


_listings: CacheSlot[Position, dict[tuple[str, Rules], ListedOrders]] = CacheSlot(
    "legal orders", _no_listings)
"""(power, rules) -> the power's :class:`ListedOrders` in the position (one per power and rules
asked: a game asks under one set of rules)."""


class _Listed:
    """Each power's listed orders in one position, looked up once, when first needed
    (:func:`listed_checker`)."""

    __slots__ = ("listed", "listings", "rules")

    def __init__(self, position: Position, rules: Rules) -> None:
        self.listings = _listings(position)
        self.rules = rules
        self.listed: dict[str | None, ListedOrders | None] = {}
        """power -> its listed orders (None: not listed), for the powers asked about so far."""

    def holds(self, order: Order) -> bool:
        """True if an order equal to ``order`` is listed for its power."""
        power = order.power
        try:
            listed = self.listed[power]
        except KeyError:
            listed = self.listed[power] = (None if power is None
                                           else self.listings.get((power, self.rules)))
        return listed is not None and listed.holds(order)


def listed_checker(position: Position, rules: Rules) -> Callable[[Order], bool]:
    """:func:`is_listed` for many orders of one position: each power's listing is looked up
    once (the adjudicator asks this of every order it is given)."""
    return _Listed(position, rules).holds


def is_listed(position: Position, order: Order, rules: Rules) -> bool:
    """True if :func:`legal_orders` listed an order equal to ``order`` (by value) for its power
    in this position under these rules; False as well if that power's orders were not listed
    yet (nothing is listed here)."""
    power = order.power
    if power is None:
        return False
    listed = _listings(position).get((power, rules))
    return listed is not None and listed.holds(order)


def check_order(position: Position, order: Order, *, rules: Rules | None = None,
                ) -> tuple[str, str] | None:
    """``(reason code, plain sentence)`` if ``order`` is illegal in ``position``, else None.

    >>> from realpolitik.variant import load_variant
    >>> from realpolitik.geography import UnitType
    >>> pos = Position.initial(load_variant("classical"))
    >>> check_order(pos, Move(UnitType.ARMY, "par", "bur"))
    >>> check_order(pos, Move(UnitType.FLEET, "bre", "par"))[0]
    'fleet_inland'
    """
    rules = rules or _DEFAULT_RULES
    if is_listed(position, order, rules):
        return None
    checked = _Checker(position, rules).check(order)
    return checked.as_tuple() if isinstance(checked, Illegal) else None


# -- listing the legal orders ----------------------------------------------------------------

def legal_orders(position: Position, power: str, *, rules: Rules | None = None,
                 ) -> Mapping[str, tuple[Order, ...]]:
    """Every legal order of ``power``: location -> orders.

    In a movement phase each unit's location maps to its holds, moves (by convoy too: to every
    coastal province a chain of fleets at sea reaches; a convoy to a province next door is listed
    as ``via_convoy``), supports and convoys. In a retreat phase each dislodged unit maps to its
    retreats and its disband. In an adjustment phase each free home centre maps to its builds (a
    fleet per coast), each unit to its removal when the power must remove, and the key
    ``"waive"`` to a :class:`Waive` when the power may build.
    """
    return listed_orders(position, power, rules=rules).by_location


def _legal_orders(position: Position, power: str, rules: Rules,
                  ) -> Mapping[str, tuple[Order, ...]]:
    phase = position.phase.type
    if phase is PhaseType.MOVEMENT:
        return _movement_orders(position, power)
    if phase is PhaseType.RETREATS:
        out: dict[str, tuple[Order, ...]] = {}
        for dislodged in position.dislodged:
            unit = dislodged.unit
            if unit.power != power:
                continue
            options = retreat_options(position, dislodged, rules=rules)
            made = _made_for(position, unit.type, unit.location, power)
            retreats = made.retreats
            for loc in options:
                if loc not in retreats:
                    retreats[loc] = Retreat(unit.type, unit.location, loc, power=power)
            listed: tuple[Order, ...] = tuple(retreats[loc] for loc in options)
            if position.variant.hooks.may_disband(position, dislodged, options):
                listed = (*listed, made.disband())
            out[unit.location] = listed
        return MappingProxyType(out)
    return _adjustment_orders(position, power, rules)


def _adjustment_orders(position: Position, power: str, rules: Rules,
                       ) -> Mapping[str, tuple[Order, ...]]:
    tables = tables_for(position.variant)
    count = _adjustment_counts(position).get(power, 0)
    out: dict[str, tuple[Order, ...]] = {}
    if count > 0:
        for province, builds in _build_sites(position, power, tables):
            out[province] = tuple(_made_for(position, utype, loc, power).build()
                                  for utype, loc in builds)
        if rules.waive is WaiveBuilds.ALLOWED:
            waives = _waives(position.variant)
            waive = waives.get(power)
            if waive is None:
                waive = waives[power] = Waive(power)
            out["waive"] = (waive,)
    elif count < 0:
        first = position.variant.hooks.removal_first(position, power)
        if first is not None and _units_of_type(position, power, first) < -count:
            first = None  # it removes all of them, and others too
        for unit in position.units_of(power):
            if first is None or unit.type is first:
                out[unit.location] = (
                    _made_for(position, unit.type, unit.location, power).disband(),)
    return MappingProxyType(out)


def _build_sites(position: Position, power: str, tables: MapTables,
                 ) -> Iterator[tuple[str, list[tuple[UnitType, str]]]]:
    """Where ``power`` could build (a free centre among the hooks' build sites, by default an
    owned home centre) and what: each site with its (unit type, location) pairs, leaving out
    a unit type the power may have no more of."""
    hooks = position.variant.hooks
    units = position.units
    allowed: list[UnitType] | None = None  # asked of the hooks once a free site is found
    centers = position.centers
    for province in hooks.build_sites(position, power):
        if centers.get(province) != power or province in units:
            continue
        if allowed is None:
            allowed = [utype for utype in (UnitType.ARMY, UnitType.FLEET)
                       if (limit := hooks.unit_limit(position, power, utype)) is None
                       or _units_of_type(position, power, utype) < limit]
        builds: list[tuple[UnitType, str]] = []
        if UnitType.ARMY in allowed and tables.can_stand(UnitType.ARMY, province):
            builds.append((UnitType.ARMY, province))
        if UnitType.FLEET in allowed:
            for loc in tables.coasts[province] or (province,):
                if tables.can_stand(UnitType.FLEET, loc):
                    builds.append((UnitType.FLEET, loc))
        if builds:
            yield province, builds


def _units_of_type(position: Position, power: str, unit_type: UnitType) -> int:
    """How many units of ``unit_type`` ``power`` has on the board."""
    return sum(1 for unit in position.units_of(power) if unit.type is unit_type)


def build_sites(position: Position, power: str) -> tuple[str, ...]:
    """The provinces where ``power`` could build a unit now, in the order of the variant's
    build sites (:meth:`VariantHooks.build_sites <realpolitik.hooks.VariantHooks.build_sites>`:
    its home centres and any its variant adds, or every centre with ``builds =
    "any_owned_center"``): those it owns that are empty and where its unit limits leave it
    some unit to build. Whether or not it is due a build: :func:`adjustment_counts` says how
    many it is due."""
    return tuple(province for province, _ in
                 _build_sites(position, power, tables_for(position.variant)))


def can_build(position: Position, power: str) -> bool:
    """True if ``power`` has somewhere to build a unit (whether or not it is due a build)."""
    return next(_build_sites(position, power, tables_for(position.variant)), None) is not None


_Shared = tuple[dict[str, list[int]], frozenset[str], dict[str, list[tuple[Mover, int]]],
                dict[str, frozenset[str]], dict[str, frozenset[str]],
                dict[str, list[tuple[str, str]]]]

_unit_key: Callable[[Unit], tuple[UnitType, str]] = attrgetter("type", "location")


def _find_movement_shared(position: Position) -> _Shared:
    """What every power's list of movement orders needs, computed once per position.

    ``into``: province -> the unit in it (first) and every move some unit could make into it,
    in the order of the units, as support keys (:meth:`MapTables.support_key`): the supports
    into that province, in order, for any supporter. Then the fleets that could be needed to
    convoy some army to a province it could not reach otherwise; province -> those moves by
    convoy into it (with their support keys); each such army -> the group of fleets it could use
    (:meth:`MapTables.fleet_groups`); where each army next to a fleet at sea could go by convoy;
    and each fleet's convoys (unsorted, repeated).
    """
    tables = tables_for(position.variant)
    units = position.units
    convoying = tables.convoy_spaces
    fleet = UnitType.FLEET
    fleets = frozenset([p for p, u in units.items() if u.type is fleet and p in convoying])
    may_convoy: set[str] = set()
    group_of_army: dict[str, frozenset[str]] = {}
    convoyed_into: dict[str, list[tuple[Mover, int]]] = {}
    convoy_reach: dict[str, frozenset[str]] = {}
    convoys_of: dict[str, list[tuple[str, str]]] = {}
    by_convoy_at: list[tuple[int, tuple[tuple[str, Mover, int], ...]]] = []  # (unit index, moves)
    if fleets:
        coastal, shore_seas = tables.coastal, tables.shore_convoy_spaces
        army = UnitType.ARMY
        group_of: dict[str, frozenset[str]] | None = None
        for index, (prov, unit) in enumerate(units.items()):
            if unit.type is not army or prov not in coastal:
                continue
            seas = shore_seas[prov] & fleets
            if not seas:
                continue
            if group_of is None:
                group_of = tables.fleet_groups(fleets)
            group = frozenset().union(*(group_of[s] for s in seas)) if len(seas) > 1 \
                else group_of[next(iter(seas))]
            reach, by_convoy, needed = tables.convoy_reach(prov, group)
            convoy_reach[prov] = reach
            if by_convoy:
                by_convoy_at.append((index, by_convoy))
                may_convoy |= group
                group_of_army[prov] = group
                for dest_prov, mover, key in by_convoy:
                    convoyed_into.setdefault(dest_prov, []).append((mover, key))
            for fleet_prov, pairs in needed:
                convoys_of.setdefault(fleet_prov, []).extend(pairs)
    into: dict[str, list[int]] = defaultdict(list)
    into_of = into.__getitem__
    # Without a Python-level step per move: the units, then their moves (an army's moves by
    # convoy right after its own moves, so each province's moves come in the order of units).
    append = list.append
    unit_keys = list(map(_unit_key, units.values()))
    any(map(append, map(into_of, units), map(tables.occupant_keys.__getitem__, unit_keys)))
    moves_into, mover_keys = tables.moves_into.__getitem__, tables.mover_keys.__getitem__
    start = 0
    for index, by_convoy in (*by_convoy_at, (len(unit_keys) - 1, ())):
        run = unit_keys[start:index + 1]
        any(map(append, map(into_of, chain.from_iterable(map(moves_into, run))),
                chain.from_iterable(map(mover_keys, run))))
        for dest_prov, _, key in by_convoy:
            into[dest_prov].append(key)
        start = index + 1
    return (into, frozenset(may_convoy), convoyed_into, group_of_army, convoy_reach,
            convoys_of)


_movement_shared: CacheSlot[Position, _Shared] = CacheSlot(
    "movement listing tables", _find_movement_shared)
"""What every power's list of movement orders needs (:func:`_find_movement_shared`), once per
position."""


# Order values are frozen dataclasses; their __init__ costs twice what setting the slots costs,
# and a movement phase lists some 600 orders. These make the same values (every field set,
# defaults included: tests/test_speed_invariants.py checks them against the constructors).
_new = object.__new__


# the fields every unit order shares (slots of their common base class): one setter for all
_ANY_UNIT_ORDER: type[object] = Hold
_set_type = slot_setter(_ANY_UNIT_ORDER, "unit_type")
_set_loc = slot_setter(_ANY_UNIT_ORDER, "location")
_set_power = slot_setter(_ANY_UNIT_ORDER, "power")
_set_dest = slot_setter(Move, "destination")
_set_via = slot_setter(Move, "via_convoy")
_set_sloc = slot_setter(SupportMove, "supported_location")
_set_smdest = slot_setter(SupportMove, "destination")
_set_stype = slot_setter(SupportMove, "supported_type")
_set_spower = slot_setter(SupportMove, "supported_power")
_set_shloc = slot_setter(SupportHold, "supported_location")
_set_shtype = slot_setter(SupportHold, "supported_type")
_set_shpower = slot_setter(SupportHold, "supported_power")
_set_army_loc = slot_setter(Convoy, "army_location")
_set_convoy_dest = slot_setter(Convoy, "destination")
_set_army_power = slot_setter(Convoy, "army_power")


def _hold(utype: UnitType, loc: str, power: str) -> Hold:
    order: Hold = _new(Hold)
    _set_type(order, utype)
    _set_loc(order, loc)
    _set_power(order, power)
    return order


def _move(utype: UnitType, loc: str, dest: str, via: bool, power: str) -> Move:
    order: Move = _new(Move)
    _set_type(order, utype)
    _set_loc(order, loc)
    _set_power(order, power)
    _set_dest(order, dest)
    _set_via(order, via)
    return order


def _support_hold(utype: UnitType, loc: str, other_loc: str, other_type: UnitType, power: str,
                  ) -> SupportHold:
    order: SupportHold = _new(SupportHold)
    _set_type(order, utype)
    _set_loc(order, loc)
    _set_power(order, power)
    _set_shloc(order, other_loc)
    _set_shtype(order, other_type)
    _set_shpower(order, None)
    return order


def _support_move(utype: UnitType, loc: str, mover_loc: str, mover_type: UnitType, dest: str,
                  power: str) -> SupportMove:
    order: SupportMove = _new(SupportMove)
    _set_type(order, utype)
    _set_loc(order, loc)
    _set_power(order, power)
    _set_sloc(order, mover_loc)
    _set_smdest(order, dest)
    _set_stype(order, mover_type)
    _set_spower(order, None)
    return order


def _convoy(utype: UnitType, loc: str, army_loc: str, dest: str, power: str) -> Convoy:
    order: Convoy = _new(Convoy)
    _set_type(order, utype)
    _set_loc(order, loc)
    _set_power(order, power)
    _set_army_loc(order, army_loc)
    _set_convoy_dest(order, dest)
    _set_army_power(order, None)
    return order


class _Supports(dict[int, SupportHold | SupportMove | None]):
    """One unit's supports by support key (:meth:`MapTables.support_key`): of the unit there
    to hold, or of the move; None for the unit's own moves. Each is made the first time it is
    looked up (``__missing__``: no exception, no second pass)."""

    __slots__ = ("made", "named")

    def __init__(self, made: _Made, named: list[Occupant | Mover], own: tuple[int, ...]) -> None:
        super().__init__(dict.fromkeys(own))
        self.made = made
        self.named = named

    def __missing__(self, key: int) -> SupportHold | SupportMove:
        made = self.made
        named = self.named[key]
        support: SupportHold | SupportMove
        if len(named) == 2:
            support = _support_hold(made.utype, made.loc, named[0], named[1], made.power)
        else:
            support = _support_move(made.utype, made.loc, named[3], named[2], named[1],
                                    made.power)
        self[key] = support
        return support


_O = TypeVar("_O", bound=Order)

_MAX_HEADS = 64
"""How many sets of convoy destinations one :class:`_Made` keeps its head of orders for."""


class _Made:
    """The order values listed so far for one unit (type, location, power) in one variant.

    A movement phase lists some 600 orders and most of them were listed, unchanged, the phase
    before: looking each one up here by a small key is several times cheaper than making it
    again, and the facade can keep its strings by the identity of these values. The values are
    frozen, so sharing them between positions is safe; the table lives in ``variant.caches``,
    exactly as long as the variant, and is bounded by the map (``heads`` by :data:`_MAX_HEADS`).
    """

    __slots__ = ("utype", "loc", "power", "province", "reach", "fixed", "heads", "supports",
                 "convoy_moves", "convoys", "retreats", "_disband", "_build")

    def __init__(self, utype: UnitType, loc: str, power: str, tables: MapTables) -> None:
        self.utype = utype
        self.loc = loc
        self.power = power
        self.province = province_of(loc)
        moves, self.reach = tables.sorted_near.get((utype, loc), ((), ()))
        """``reach``: the provinces it can support into, sorted."""
        self.fixed: tuple[Order, ...] = (
            _hold(utype, loc, power), *[_move(utype, loc, d, False, power) for d in moves])
        """The hold and the moves without a convoy, in map order."""
        self.heads: dict[frozenset[str], tuple[Order, ...]] = {}
        """Where an army could go by convoy -> ``fixed`` and those moves, sorted."""
        self.supports = _Supports(self, tables.support_keys,
                                  tables.mover_keys.get((utype, loc), ()))
        """Support key -> its support (its own moves -> None: no support)."""
        self.convoy_moves: dict[tuple[str, bool], Move] = {}
        self.convoys: dict[tuple[str, str], Convoy] = {}
        self.retreats: dict[str, Retreat] = {}
        self._disband: Disband | None = None
        self._build: Build | None = None

    def disband(self) -> Disband:
        """Its disband (a retreat phase) or removal (an adjustment phase)."""
        disband = self._disband
        if disband is None:
            disband = self._disband = Disband(self.utype, self.loc, power=self.power)
        return disband

    def build(self) -> Build:
        """Its build."""
        build = self._build
        if build is None:
            build = self._build = Build(self.utype, self.loc, power=self.power)
        return build

    def head(self, convoy_reach: frozenset[str], land: frozenset[str]) -> tuple[Order, ...]:
        """The hold, the moves, then the moves by convoy to ``convoy_reach`` (sorted; marked
        ``via_convoy`` where the province is next door by ``land``)."""
        head = self.heads.get(convoy_reach)
        if head is not None:
            return head
        orders = list(self.fixed)
        convoy_moves = self.convoy_moves
        for dest in sorted(convoy_reach):
            key = (dest, dest in land)
            move = convoy_moves.get(key)
            if move is None:
                move = convoy_moves[key] = _move(self.utype, self.loc, dest, key[1], self.power)
            orders.append(move)
        if len(self.heads) >= _MAX_HEADS:
            self.heads.clear()
        head = self.heads[convoy_reach] = tuple(orders)
        return head

    def listed_convoys(self, pairs: list[tuple[str, str]]) -> tuple[Convoy, ...]:
        """Its convoys of these (army province, destination) pairs, sorted, once each."""
        convoys = self.convoys
        listed: list[Convoy] = []
        for pair in sorted(set(pairs)):
            convoy = convoys.get(pair)
            if convoy is None:
                convoy = convoys[pair] = _convoy(self.utype, self.loc, pair[0], pair[1],
                                                 self.power)
            listed.append(convoy)
        return tuple(listed)


def _no_made(_variant: Variant) -> Bounded[tuple[UnitType, str, str], _Made]:
    return Bounded(_MAX_MADE)


_MAX_MADE = 512
"""How many units' order values :data:`_made_of` keeps: (unit type, location, power) of the
units on the boards of the games being played (a classical board has 34 units at most; every
place a unit could stand, times the powers, is some 1,100). Up to some 20 KB each."""

_made_of: CacheSlot[Variant, Bounded[tuple[UnitType, str, str], _Made]] = CacheSlot(
    "listed order values", _no_made)
"""(unit type, location, power) -> :class:`_Made`, bounded by :data:`_MAX_MADE`. A unit whose
entry was dropped gets its order values made again: equal values, which is all that counts
(listed orders are recognised by value)."""


def _no_waives(_variant: Variant) -> dict[str, Waive]:
    return {}


_waives: CacheSlot[Variant, dict[str, Waive]] = CacheSlot("waives", _no_waives)
"""Power -> its waive as the listing gives it (one per power)."""


def _made_table(position: Position) -> Bounded[tuple[UnitType, str, str], _Made]:
    return _made_of(position.variant)


def _made_for(position: Position, utype: UnitType, loc: str, power: str) -> _Made:
    table = _made_table(position)
    made = table.get((utype, loc, power))
    if made is None:
        made = table[utype, loc, power] = _Made(utype, loc, power,
                                                tables_for(position.variant))
    return made


def _movement_orders(position: Position, power: str) -> Mapping[str, tuple[Order, ...]]:
    tables = tables_for(position.variant)
    into, may_convoy, convoyed_into, group_of_army, convoy_reach, convoys_of = _movement_shared(
        position)
    into_of = into.__getitem__
    army_adj = tables.army_adj
    made_table = _made_table(position)
    veto = position.variant.hooks.order_veto if _has_order_veto(position) else None
    out: dict[str, tuple[Order, ...]] = {}
    for unit in position.units_of(power):
        loc, utype = unit.location, unit.type
        made = made_table.get((utype, loc, power))
        if made is None:
            made = _made_for(position, utype, loc, power)
        prov = made.province
        reach = convoy_reach.get(prov)
        # The supports into each province it reaches, in order, looked up all at once: its
        # own moves map to None, which the filter drops.
        keys: Iterable[int] = chain.from_iterable(map(into_of, made.reach))
        if prov in may_convoy and not convoyed_into.keys().isdisjoint(made.reach):
            spared = _needed_at_sea(made, convoyed_into, group_of_army, tables)
            if spared:
                keys = filterfalse(spared.__contains__, keys)
        orders: tuple[Order, ...] = (
            *(made.head(reach, army_adj[prov]) if reach else made.fixed),
            *cast("Iterator[Order]", filter(None, map(made.supports.__getitem__, keys))))
        convoy_pairs = convoys_of.get(prov)
        if convoy_pairs:
            orders = (*orders, *made.listed_convoys(convoy_pairs))
        if veto is not None:
            orders = tuple(o for o in orders if isinstance(o, Hold)
                           or veto(position, unit, o) is None)
        out[loc] = orders
    return MappingProxyType(out)


def _needed_at_sea(made: _Made, convoyed_into: dict[str, list[tuple[Mover, int]]],
                   group_of_army: dict[str, frozenset[str]], tables: MapTables) -> set[int]:
    """The support keys of the moves by convoy that need the fleet ``made`` lists orders for
    on every route: it cannot support them, as it cannot support and convoy at once
    (6.D.31)."""
    prov = made.province
    needed: set[int] = set()
    for target in made.reach:
        for mover, key in convoyed_into.get(target, ()):
            group = group_of_army[mover[0]]
            if prov in group and mover[1] not in tables.reach_without(mover[0], group, prov):
                needed.add(key)
    return needed
