"""Accepting the orders of a phase: legality, duplicates, and which unit each order is for."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from realpolitik.adjudication.explain import void_sentence
from realpolitik.adjudication.outcomes import OrderResult, Outcome, Result
from realpolitik.caches import CacheSlot
from realpolitik.geography import UnitType, province_of
from realpolitik.hooks import VariantHooks
from realpolitik.legality import Illegal, normalize_order
from realpolitik.listing import listed_checker
from realpolitik.orders import Order, Waive
from realpolitik.position import Position, Unit
from realpolitik.rules import DuplicateOrders, Rules
from realpolitik.variant import Variant
from realpolitik.writing import PlaceWriter

__all__ = ["Accepted", "Entry", "UnitValues", "accept_orders", "attribute_orders",
           "in_sorted_order", "unit_values", "void_result"]

_ARMY: Final = UnitType.ARMY
_DUPLICATE: Final = Illegal(
    "duplicate_order", "The unit was given another order, which is the one followed."
)
_CONFLICT: Final = Illegal(
    "conflicting_orders", "The unit was given several orders, so none is followed and it holds."
)


class UnitValues:
    """The unit values that stand at each location, made once per variant: a unit is an
    immutable value, so every army of a power that a move or a build puts at a location is the
    same one (made the first time it is needed)."""

    __slots__ = ("armies", "fleets")

    def __init__(self, variant: Variant) -> None:
        self.armies: dict[str, dict[str, Unit]] = {}
        """Location -> power -> its army there."""
        self.fleets: dict[str, dict[str, Unit]] = {}
        """Location -> power -> its fleet there."""

    def unit(self, power: str, unit_type: UnitType, location: str) -> Unit:
        """``Unit(power, unit_type, location)``, made once (a frozen dataclass's constructor
        costs some 3,000 instructions; the movement phase reads the tables directly)."""
        table = self.armies if unit_type is _ARMY else self.fleets
        by_power = table.get(location)
        if by_power is None:
            by_power = table[location] = {}
        unit = by_power.get(power)
        if unit is None:
            unit = by_power[power] = Unit(power, unit_type, location)
        return unit


unit_values: Final[CacheSlot[Variant, UnitValues]] = CacheSlot("units at each location", UnitValues)
"""The variant's :class:`UnitValues`; bounded by the map: at most one unit per location, unit
type and power."""


def in_sorted_order(units: Mapping[str, Unit]) -> bool:
    """True if the provinces of a board come in sorted order, as the engine keeps them (a board
    that only lost units keeps the order of the one before; a sort of sorted names is a pass of
    comparisons in C)."""
    provinces = list(units)
    return provinces == sorted(provinces)


def void_result(given: Order, power: str, illegal: Illegal,
                writer: PlaceWriter | None = None) -> OrderResult:
    """The result of an order that is not followed, with the reason (the order written by
    ``writer``, else in its canonical text)."""
    text = writer.order(given) if writer is not None else str(given)
    return OrderResult(
        given, power, Result.VOID, Outcome.ILLEGAL, void_sentence(text, illegal.message),
        illegal_reason=illegal.code,
    )


@dataclass(slots=True)
class Entry:
    """One given order of a retreat or adjustment phase: who gave it, which unit it is for,
    and how the rules read it."""

    given: Order
    power: str
    unit_index: int
    order: Order | None
    illegal: Illegal | None

    def void_result(self, writer: PlaceWriter | None = None) -> OrderResult:
        assert self.illegal is not None
        return void_result(self.given, self.power, self.illegal, writer)


class Accepted:
    """The orders of a movement phase as given, and the one order that counts for each unit.

    Kept as parallel lists indexed by the order's place among those given (a phase accepts some
    thirty orders, and this runs every phase)."""

    __slots__ = ("given", "powers", "unit_of", "illegal", "unit_orders")

    def __init__(self, given: tuple[Order, ...], units: int) -> None:
        self.given = given
        self.powers: list[str] = []
        """Who gave each order (its unit's owner when the order names no power)."""
        self.unit_of: list[int] = []
        """The unit index each order is for, -1 if there is no such unit."""
        self.illegal: dict[int, Illegal] = {}
        """Order index -> why it is void."""
        self.unit_orders: list[Order | None] = [None] * units
        """Unit index -> the order that counts for it, as the rules read it (None: none)."""


def accept_orders(position: Position, orders: tuple[Order, ...], rules: Rules,
                  index: Mapping[str, int], *, checked: bool = False) -> Accepted:
    """Check every order of a movement phase; ``index`` maps provinces to unit indices. With
    ``checked`` the caller vouches that every order is legal as it stands."""
    accepted = Accepted(orders, len(index))
    counted: dict[int, int] | None = None  # unit index -> the order that counts for it
    if not (checked and _take_as_given(accepted, index)):
        counted = _accept_one_by_one(accepted, position, rules, index, checked=checked)
    # Orders a variant's rule voids because of the others (a power's start choices).
    if type(position.variant.hooks).void_orders is not VariantHooks.void_orders:
        if counted is None:  # taken as given: each order counts for its own unit
            counted = dict(zip(accepted.unit_of, range(len(orders)), strict=True))
        _void_by_variant(accepted, position, counted)
    return accepted


def _void_by_variant(accepted: Accepted, position: Position, counted: dict[int, int]) -> None:
    """Void the orders the variant's rule voids because of the others (``counted``: unit
    index -> the order that counts for it). (A function of its own: its comprehensions in
    :func:`accept_orders` would make a cell at every call.)"""
    unit_orders = accepted.unit_orders
    kept = sorted((k, u) for u, k in counted.items() if u >= 0 and unit_orders[u] is not None)
    followed = [unit_orders[u] for _, u in kept]
    voided = position.variant.hooks.void_orders(position, [o for o in followed if o is not None])
    for number, reason in voided.items():
        k, unit_index = kept[number]
        accepted.illegal[k] = Illegal("variant_rule", reason)
        unit_orders[unit_index] = None


def attribute_orders(position: Position, orders: tuple[Order, ...], rules: Rules,
                     index: Mapping[str, int]) -> Accepted:
    """Which unit each order of a movement phase is for and who gave it, for orders the
    adjudication took as given (vouched for as legal, and in a variant with no rule that voids
    orders because of the others): nothing is checked, as :func:`accept_orders` with
    ``checked`` would not. The record of a phase works this out only when its results are
    read."""
    accepted = Accepted(orders, len(index))
    if not _take_as_given(accepted, index):
        _accept_one_by_one(accepted, position, rules, index, checked=True)
    return accepted


def _take_as_given(accepted: Accepted, index: Mapping[str, int]) -> bool:
    """Accept orders the caller vouches for (legal as they stand) in one lean pass, when each
    names its power and a unit, and no unit is named twice: True if so (a phase's orders are
    usually all listed ones). Otherwise False, with ``accepted`` as it was made: the general
    pass handles a waive, an order without its power and several orders to one unit."""
    powers: list[str] = []
    unit_of: list[int] = []
    unit_orders = accepted.unit_orders
    find = index.get
    for order in accepted.given:
        power = order.power
        if not power or isinstance(order, Waive):
            return _untaken(accepted)
        unit_index = find(order.location, -1)
        if unit_index < 0:  # a fleet on a coast: units are indexed by province
            unit_index = find(province_of(order.location), -1)
            if unit_index < 0:
                return _untaken(accepted)
        if unit_orders[unit_index] is not None:  # a second order for the unit
            return _untaken(accepted)
        unit_orders[unit_index] = order
        powers.append(power)
        unit_of.append(unit_index)
    accepted.powers = powers
    accepted.unit_of = unit_of
    return True


def _untaken(accepted: Accepted) -> bool:
    """Undo what :func:`_take_as_given` set, for the general pass: False."""
    accepted.unit_orders = [None] * len(accepted.unit_orders)
    return False


def _accept_one_by_one(accepted: Accepted, position: Position, rules: Rules,
                       index: Mapping[str, int], *, checked: bool) -> dict[int, int]:
    """Accept each order in turn: find its unit and power, check it unless ``checked``, and
    apply the rule for several orders to one unit (DATC 4.D.3). Returns unit index -> the
    index of the order that counts for it."""
    orders = accepted.given
    powers, unit_of, unit_orders = accepted.powers, accepted.unit_of, accepted.unit_orders
    readings: list[Order | None] = []  # each order as the rules read it (None: void)
    counted: dict[int, int] = {}  # unit index -> the index of the order that counts for it
    doubled: dict[int, list[int]] = {}
    units = position.units
    find = index.get
    listed = None if checked else listed_checker(position, rules)
    for k, given in enumerate(orders):
        power = given.power or ""
        if type(given) is Waive:
            unit_index = -1
        else:
            assert not isinstance(given, Waive)
            location = given.location
            # most units stand on a province, not a coast: try the location as it is first
            unit_index = find(location, -1)
            if unit_index < 0 and "/" in location:
                location = province_of(location)
                unit_index = find(location, -1)
            if not power and unit_index >= 0:
                power = units[location].power
        powers.append(power)
        unit_of.append(unit_index)
        # Vouched for, or listed by legal_orders: legal as it stands. (An order for no unit on
        # the board, a waive among them, is checked even so: it cannot be, and it says why.)
        if unit_index >= 0 and (listed is None or listed(given)):
            reading: Order | Illegal = given
        else:
            reading = normalize_order(position, given, rules=rules)
            if type(reading) is Illegal:
                assert isinstance(reading, Illegal)
                readings.append(None)
                accepted.illegal[k] = reading
                continue
        assert not isinstance(reading, Illegal)
        readings.append(reading)
        first = counted.setdefault(unit_index, k)
        if first == k:
            unit_orders[unit_index] = reading
        else:
            doubled.setdefault(unit_index, [first]).append(k)
    # Several legal orders for one unit (DATC 4.D.3).
    for unit_index, given_orders in doubled.items():
        keep = given_orders[0]
        if rules.duplicate_orders is DuplicateOrders.LAST:
            keep = given_orders[-1]
        elif rules.duplicate_orders is DuplicateOrders.HOLD:
            keep = -1
        for k in given_orders:
            if k != keep:
                accepted.illegal[k] = _DUPLICATE if keep >= 0 else _CONFLICT
                readings[k] = None
        if keep < 0:
            del counted[unit_index]
        else:
            counted[unit_index] = keep
        unit_orders[unit_index] = readings[keep] if keep >= 0 else None
    return counted
