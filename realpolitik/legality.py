"""Which orders are legal in a position, and why the others are not.

An order is *legal* when, not knowing any other orders yet, it could be valid (DATC 4.E.1): the
unit exists and belongs to the power, the move can be made (over land or along a coast, or for
an army by some chain of fleets at sea), the supporter can reach the province it supports into,
a convoying fleet is at sea and needed on some route, and so on. An illegal order is not followed
and the unit holds.

:func:`check_order` gives the reason an order is illegal and :func:`normalize_order` the order as
the rules read it; :func:`adjustment_counts`, :func:`retreat_options` and :func:`build_options`
answer the rule questions both the checks and the listing ask. Listing every legal order of a
power is :mod:`realpolitik.listing`'s, which builds on this module (never the other way round).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Final

from realpolitik.caches import CacheSlot
from realpolitik.geography import Terrain, UnitType, province_of
from realpolitik.hooks import EmptyConvoys, VariantHooks
from realpolitik.maptables import tables_for
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
    UnitOrder,
    VariantOrder,
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
from realpolitik.variant import Variant
from realpolitik.variant_rules import NEUTRAL

__all__ = [
    "Illegal",
    "adjustment_count",
    "adjustment_counts",
    "build_options",
    "build_sites",
    "can_build",
    "check_order",
    "has_order_veto",
    "normalize_order",
    "retreat_options",
    "units_of_type",
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
    return "nobody" if power is None else position.variant.power_name(power)


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


_fleets_at_sea: Final[CacheSlot[Position, frozenset[str]]] = CacheSlot(
    "fleets at sea", _find_fleets_at_sea)
"""The convoy spaces holding a fleet, worked out once per position: a check of a convoy or of
a support of a move by convoy needs them, and scanning every unit for each such order made
checking grow faster than the number of units."""


def _find_empty_convoys(position: Position) -> EmptyConvoys | None:
    hooks = position.variant.hooks
    if type(hooks).empty_convoys is VariantHooks.empty_convoys \
            or position.phase.type is not PhaseType.MOVEMENT:
        return None
    return hooks.empty_convoys(position)


empty_convoys: Final[CacheSlot[Position, EmptyConvoys | None]] = CacheSlot(
    "convoys through empty seas", _find_empty_convoys)
"""Whose armies may be convoyed through empty seas in a position (the variant's
:meth:`~realpolitik.hooks.VariantHooks.empty_convoys`, asked once per position; None for a
variant without such a rule, at no cost)."""


def open_sea_route(position: Position, army: Unit, destination: str, without: str = "",
                   ) -> frozenset[str]:
    """The convoy spaces (fleets and empty seas) of the chains that may carry ``army`` to the
    province ``destination`` through empty seas (a variant's rule), not through the
    space ``without``; empty if none may (or the variant has no such rule)."""
    rule = empty_convoys(position)
    if rule is None or army.power != rule.power or army.type is not UnitType.ARMY:
        return frozenset()
    fleets = _fleets_at_sea(position)
    ends = frozenset(p for p in fleets if position.units[p].power == rule.power) \
        if rule.own_ends else fleets
    return tables_for(position.variant).open_sea_route(
        army.province, destination, fleets, ends, rule.spaces, without)


def adjustment_counts(position: Position) -> dict[str, int]:
    """Power -> builds (> 0) or removals (< 0) due this winter: supply centres owned minus
    units on the board, as the variant's :meth:`~realpolitik.hooks.VariantHooks.adjustments`
    hook settles it."""
    return _adjustment_counts(position).copy()


def due_adjustments(position: Position) -> Mapping[str, int]:
    """:func:`adjustment_counts` read only, not copied (worked out once per position): for
    the engine's questions of every phase, which only read them."""
    return _adjustment_counts(position)


def adjustment_count(position: Position, power: str) -> int:
    """:func:`adjustment_counts` of one power (0 for a power with nothing to adjust)."""
    return _adjustment_counts(position).get(power, 0)


def _count_adjustments(position: Position) -> MappingProxyType[str, int]:
    # (the centres counted once per position, then one pass over the units: a Fall turn's next
    # position asks this of the winter, before anything groups the board by power)
    power_ids = position.variant.power_ids
    counts = _center_counts_of(position, power_ids)
    try:
        for unit in position.units.values():
            counts[unit.power] -= 1  # (every power has its entry: no ``get`` call a unit)
    except KeyError:  # a unit of no power (a neutral one): counted again, such owners kept
        counts = _counted_with_others(position, power_ids)
    return _adjusted(position, counts, power_ids)


def counted_from_units(position: Position, unit_counts: Mapping[str, int]) -> None:
    """Keep the adjustment counts of ``position`` worked out from ``unit_counts`` (each power
    of the variant with units -> how many it has on the board, every unit counted: known
    already, as the movement listing of the position before counted them), as if made: the
    centres less a few counts, not a pass over the board."""
    power_ids = position.variant.power_ids
    counts = _center_counts_of(position, power_ids)
    for power, units in unit_counts.items():
        counts[power] -= units  # (the variant's powers: each has its entry)
    _adjustment_counts.put(position, _adjusted(position, counts, power_ids))


def _adjusted(position: Position, counts: dict[str, int], power_ids: tuple[str, ...],
              ) -> MappingProxyType[str, int]:
    """The adjustment counts from ``counts`` (centres less units, by owner): those of the
    variant's powers (a centre or unit of no power is not counted), as the hooks adjust them;
    read only, the one copy every reader shares."""
    if len(counts) != len(power_ids):
        counts = _of_powers(counts, power_ids)
    return MappingProxyType(position.variant.hooks.adjustments(position, counts))


def _center_counts_of(position: Position, power_ids: tuple[str, ...]) -> dict[str, int]:
    """Each power's supply centres (0 for one with none), and any other owner's."""
    counts = dict.fromkeys(power_ids, 0)
    # (counted once: the victory check reads them too) (a read-only view's own copy: a
    # dictionary updated from the view reads it key by key, from a dictionary in one pass)
    centers = position.center_counts()
    counts.update(centers.copy() if type(centers) is MappingProxyType else centers)
    return counts


def _counted_with_others(position: Position, power_ids: tuple[str, ...]) -> dict[str, int]:
    """Centres less units of every owner, powers or not (:func:`_count_adjustments` when a
    unit of no power stands on the board)."""
    counts = _center_counts_of(position, power_ids)
    count = counts.get
    for unit in position.units.values():
        power = unit.power
        counts[power] = count(power, 0) - 1
    return counts


def _of_powers(counts: dict[str, int], power_ids: tuple[str, ...]) -> dict[str, int]:
    # (apart: the comprehension's cell would be made at every count)
    return {power: counts[power] for power in power_ids}


_adjustment_counts: Final[CacheSlot[Position, MappingProxyType[str, int]]] = CacheSlot(
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
        # (a reason, a string, refuses the place as False does)
        out = [loc for loc in out if hooks.retreat_allowed(position, dislodged, loc) is True]
    return tuple(out)


def has_order_veto(position: Position) -> bool:
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
    def find_unit(self, order: Hold | Move | SupportHold | SupportMove | Convoy | Disband
                  | VariantOrder) -> Unit | Illegal:
        position = self.position
        unit = position.units.get(province_of(order.location))
        if unit is None:
            return self.illegal(
                "no_unit", f"There is no unit in {_name(position, province_of(order.location))}."
            )
        return self.check_unit(order, unit)

    def check_unit(self, order: Hold | Move | SupportHold | SupportMove | Convoy | Disband
                   | Retreat | VariantOrder, unit: Unit) -> Unit | Illegal:
        position = self.position
        if order.power is not None and order.power != unit.power:
            if unit.power == NEUTRAL:
                return self.illegal(
                    "not_your_unit",
                    f"{_The_unit(position, unit)} is neutral: "
                    f"{_power_name(position, order.power)} cannot order it.")
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
        if self.impassable(dest_prov):
            return self.no_entry(dest_prov)
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

    def impassable(self, province: str) -> bool:
        """True if no unit may enter ``province`` (Switzerland; a variant's closed lands)."""
        found = self.position.variant.map.provinces.get(province)
        return found is not None and found.terrain is Terrain.IMPASSABLE

    def no_entry(self, province: str) -> Illegal:
        return self.illegal("impassable", f"{_name(self.position, province)} is impassable: "
                                          f"no unit may enter it.")

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
                if not tables.has_convoy_route(unit.province, destination, fleets) \
                        and not open_sea_route(position, unit, destination):
                    if self.impassable(destination):
                        return self.no_entry(destination)
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
                reachable = [c for c in tables.coasts[dest_prov] if c in near]
                if not reachable:
                    return self._impossible(supported, dest_prov)
                if self.rules.support_coast is SupportCoast.REQUIRED:
                    return self.illegal(
                        "coast_needed",
                        f"A support of a fleet moving to {_name(position, dest_prov)} must say "
                        f"which coast.",
                    )
                # One coast in reach: the order can mean only that coast, so it is read (and
                # listed) with it. With two, the support without a coast backs either move.
                return reachable[0] if len(reachable) == 1 else dest_prov
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
        if tables.has_convoy_route(supported.province, dest_prov, fleets, supporter.province) \
                or open_sea_route(position, supported, dest_prov, supporter.province):
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
        if dest not in tables.shores or army_prov not in tables.shores:
            return self.illegal(
                "convoy_not_needed",
                f"An army cannot be convoyed from {_name(position, army_prov)} to "
                f"{_name(position, dest)}.",
            )
        fleets = _fleets_at_sea(position)
        routes = tables.minimal_routes(army_prov, fleets, dest)
        if not any(unit.province in chain for chain, _ in routes) \
                and unit.province not in open_sea_route(position, army, dest):
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
        verdict = position.variant.hooks.retreat_allowed(position, dislodged, checked)
        if isinstance(verdict, str):
            return self.illegal("retreat_refused", verdict)
        return self.illegal(
            "retreat_impossible", f"The unit cannot retreat to {_name(position, dest)}."
        )

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
            why = hooks.why_not_build_site(position, power, province)
            if why is not None:
                return self.illegal("variant_rule", why)
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
        if limit is not None and units_of_type(position, power, order.unit_type) >= limit:
            return self.illegal(
                "unit_limit",
                f"{_power_name(position, power)} may have at most {limit} "
                f"{_kind(order.unit_type)}{'' if limit == 1 else 's'}.",
            )
        if location != order.location or order.power != power:
            return Build(order.unit_type, location, power=power)
        return order

    def removal(self, order: Disband) -> Disband | Illegal:
        position = self.position
        province = province_of(order.location)
        builder = order.power or position.centers.get(province)
        if province not in position.units and builder is not None \
                and _adjustment_counts(position).get(builder, 0) > 0 \
                and position.variant.hooks.remove_after_build(position, builder):
            # the removal of a unit built in these orders (checked against the builds then)
            if order.power != builder:
                return Disband(order.unit_type, order.location, power=builder)
            return order
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
                and units_of_type(self.position, unit.power, first) >= due:
            return self.illegal(
                "remove_first",
                f"{_power_name(self.position, unit.power)} must remove its "
                f"{_kind(first)}s before any other unit.")
        if order.location != unit.location or order.unit_type is not unit.type \
                or order.power != unit.power:
            return Disband(unit.type, unit.location, power=unit.power)
        return order

    def variant_kind(self, order: VariantOrder) -> UnitOrder | Illegal:
        """An order of a variant's own kind, as the kind checks it (in its phases only)."""
        position = self.position
        kind = position.variant.kinds.get(order)
        if kind is None:
            return self.illegal("no_such_kind", f"{position.variant.name} has no "
                                                f"{order.kind} order.")
        if position.phase.type not in kind.phases:
            return self.wrong_phase(order)
        unit = self.find_unit(order)
        if isinstance(unit, Illegal):
            return unit
        return kind.check(position, order, unit)

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
            checked: UnitOrder | Illegal
            if isinstance(order, Move):
                checked = self.move(order)
            elif isinstance(order, SupportHold | SupportMove):
                checked = self.support(order)
            elif isinstance(order, Convoy):
                checked = self.convoy(order)
            elif isinstance(order, VariantOrder):
                checked = self.variant_kind(order)
            else:
                return self.wrong_phase(order)
            if isinstance(checked, Illegal) or not has_order_veto(self.position):
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
            if isinstance(order, VariantOrder):
                return self.variant_kind(order)
            return self.wrong_phase(order)
        if isinstance(order, Build):
            return self.build(order)
        if isinstance(order, Disband):
            return self.removal(order)
        if isinstance(order, Waive):
            return self.waive(order)
        if isinstance(order, VariantOrder):
            return self.variant_kind(order)
        return self.wrong_phase(order)

    def wrong_phase(self, order: Order) -> Illegal:
        kind = order.kind if isinstance(order, VariantOrder) else type(order).__name__.lower()
        words = {"supporthold": "support", "supportmove": "support", "waive": "waive",
                 "build": "build", "disband": "disband", "retreat": "retreat"}
        phase = {PhaseType.MOVEMENT: "a movement", PhaseType.RETREATS: "a retreat",
                 PhaseType.ADJUSTMENTS: "an adjustment"}[self.position.phase.type]
        return self.illegal(
            "wrong_phase", f"A {words.get(kind, kind)} order cannot be given in {phase} phase.")


def normalize_order(position: Position, order: Order, *, rules: Rules | None = None,
                    ) -> Order | Illegal:
    """The order as the rules read it (coasts settled, unit type and location taken from the
    unit), or :class:`Illegal` with the reason it is not legal."""
    return _Checker(position, rules or _DEFAULT_RULES).check(order)


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
    checked = _Checker(position, rules or _DEFAULT_RULES).check(order)
    return checked.as_tuple() if isinstance(checked, Illegal) else None


# -- building --------------------------------------------------------------------------------

def build_options(position: Position, power: str,
                  ) -> list[tuple[str, list[tuple[UnitType, str]]]]:
    """Where ``power`` could build (a free centre among the hooks' build sites, by default an
    owned home centre) and what: each site with its (unit type, location) pairs, leaving out
    a unit type the power may have no more of, and a build the variant's winter limits
    (:meth:`~realpolitik.hooks.VariantHooks.void_adjustments`) would void however the power's
    other builds were given. Whether or not it is due a build (counted as one at least).
    A list (a few sites): the caller's loop over it runs natively on the compiled build."""
    hooks = position.variant.hooks
    if type(hooks).void_adjustments is VariantHooks.void_adjustments:
        # no winter limits (most variants): every candidate stands
        return _build_candidates(position, power)
    return list(_unvoided_builds(position, power, hooks))


def _unvoided_builds(position: Position, power: str, hooks: VariantHooks,
                     ) -> Iterator[tuple[str, list[tuple[UnitType, str]]]]:
    """:func:`build_options` of a variant with winter limits (apart: the closure's cells are
    made only for such a variant)."""
    others: list[Build] | None = None  # every candidate build, made when first needed

    def stands(build: Build) -> bool:
        nonlocal others
        if not hooks.void_adjustments(position, power, [build]):
            return True
        # voided alone: does it stand after one other build (the half rule asks for a build
        # at home first)?
        if _adjustment_counts(position).get(power, 0) < 2:
            return False
        if others is None:
            others = [Build(utype, loc, power=power)
                      for _, builds in _build_candidates(position, power)
                      for utype, loc in builds]
        return any(province_of(other.location) != province_of(build.location)
                   and 1 not in hooks.void_adjustments(position, power, [other, build])
                   for other in others)

    for province, builds in _build_candidates(position, power):
        kept = [(utype, loc) for utype, loc in builds
                if stands(Build(utype, loc, power=power))]
        if kept:
            yield province, kept


def _build_candidates(position: Position, power: str,
                      ) -> list[tuple[str, list[tuple[UnitType, str]]]]:
    """:func:`build_options` before the variant's winter limits are asked."""
    out: list[tuple[str, list[tuple[UnitType, str]]]] = []
    variant = position.variant
    units = position.units
    centers = position.centers
    standing = _standing_builds(variant)
    defaults = _winter_defaults(variant)
    allowed: tuple[UnitType, ...] | None = None  # asked of the hooks once a free site is found
    for province in defaults.build_sites(position, power):
        if centers.get(province) != power or province in units:
            continue
        if allowed is None:
            allowed = defaults.allowed_types(position, power)
        builds = standing.get(province, ())
        if len(allowed) < 2:
            builds = tuple(build for build in builds if build[0] in allowed)
        if builds:
            out.append((province, list(builds)))
    return out


def _allowed_types(position: Position, power: str, hooks: VariantHooks,
                   ) -> tuple[UnitType, ...]:
    """The unit types ``power``'s limits leave it room to build (apart: the generator's cells
    are made only once a free site is found)."""
    return tuple(utype for utype in (UnitType.ARMY, UnitType.FLEET)
                 if (limit := hooks.unit_limit(position, power, utype)) is None
                 or units_of_type(position, power, utype) < limit)


_BOTH_TYPES: Final = (UnitType.ARMY, UnitType.FLEET)


class _WinterDefaults:
    """What a variant's hooks answer in every winter, asked once per variant where the hooks
    keep the default (which reads the variant alone): a power's build sites, whether it has
    unit limits, and that no unit type is removed first. Compiled, each hook is a Python call
    (``hooks.py`` is interpreted: some 1,000 instructions each, three or four a power and
    winter). Bounded by the variant's powers (an entry per power asked about)."""

    __slots__ = ("hooks", "sites", "limited", "default_sites", "default_limits",
                 "default_removal")

    def __init__(self, variant: Variant) -> None:
        hooks = self.hooks = variant.hooks
        kind = type(hooks)
        self.default_sites = kind.build_sites is VariantHooks.build_sites
        self.default_limits = kind.unit_limit is VariantHooks.unit_limit
        self.default_removal = kind.removal_first is VariantHooks.removal_first
        self.sites: dict[str, tuple[str, ...]] = {}
        """Power -> its build sites (the default hooks')."""
        self.limited: dict[str, bool] = {}
        """Power -> True if the default hooks give it a unit limit."""

    def build_sites(self, position: Position, power: str) -> tuple[str, ...]:
        """``hooks.build_sites(position, power)``."""
        if not self.default_sites:
            return self.hooks.build_sites(position, power)
        sites = self.sites.get(power)
        if sites is None:
            sites = self.sites[power] = self.hooks.build_sites(position, power)
        return sites

    def allowed_types(self, position: Position, power: str) -> tuple[UnitType, ...]:
        """The unit types ``power``'s limits leave it room to build (:func:`_allowed_types`)."""
        if self.default_limits:
            limited = self.limited.get(power)
            if limited is None:
                limits = position.variant.rules.of_power(power)
                limited = self.limited[power] = (
                    limits.max_armies is not None or limits.max_fleets is not None)
            if not limited:
                return _BOTH_TYPES
        return _allowed_types(position, power, self.hooks)

    def removal_first(self, position: Position, power: str) -> UnitType | None:
        """``hooks.removal_first(position, power)``."""
        return None if self.default_removal else self.hooks.removal_first(position, power)


_winter_defaults: Final[CacheSlot[Variant, _WinterDefaults]] = CacheSlot(
    "winter hooks' default answers", _WinterDefaults)
"""The variant's :class:`_WinterDefaults` (an entry per power)."""


def winter_removal_first(position: Position, power: str) -> UnitType | None:
    """The variant's :meth:`~realpolitik.hooks.VariantHooks.removal_first` for ``power`` (no
    call where the hooks keep the default)."""
    return _winter_defaults(position.variant).removal_first(position, power)


def _find_standing_builds(variant: Variant) -> dict[str, tuple[tuple[UnitType, str], ...]]:
    tables = tables_for(variant)
    out: dict[str, tuple[tuple[UnitType, str], ...]] = {}
    for province in tables.provinces:
        builds: list[tuple[UnitType, str]] = []
        if tables.can_stand(UnitType.ARMY, province):
            builds.append((UnitType.ARMY, province))
        for loc in tables.coasts[province] or (province,):
            if tables.can_stand(UnitType.FLEET, loc):
                builds.append((UnitType.FLEET, loc))
        out[province] = tuple(builds)
    return out


_standing_builds: Final[CacheSlot[Variant, dict[str, tuple[tuple[UnitType, str], ...]]]] = (
    CacheSlot("units a centre could be built with", _find_standing_builds))
"""Province -> the (unit type, location) of every unit that may stand there (an army, a fleet
per coast), in that order: what a build there could make, before the power's unit limits (one
entry per province)."""


def units_of_type(position: Position, power: str, unit_type: UnitType) -> int:
    """How many units of ``unit_type`` ``power`` has on the board."""
    return sum(1 for unit in position.units_of(power) if unit.type is unit_type)


def build_sites(position: Position, power: str) -> tuple[str, ...]:
    """The provinces where ``power`` could build a unit now, in the order of the variant's
    build sites (:meth:`VariantHooks.build_sites <realpolitik.hooks.VariantHooks.build_sites>`:
    its home centres and any its variant adds, or every centre with ``builds =
    "any_owned_center"``): those it owns that are empty and where its unit limits leave it
    some unit to build. Whether or not it is due a build: :func:`adjustment_counts` says how
    many it is due."""
    return tuple(province for province, _ in build_options(position, power))


def can_build(position: Position, power: str) -> bool:
    """True if ``power`` has somewhere to build a unit (whether or not it is due a build)."""
    return bool(build_options(position, power))
