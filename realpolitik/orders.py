"""Typed orders: frozen values, one class per kind of order.

Each order names the ordered unit by type and location (a coast where it matters) and, where the
writer gave it, the power that ordered it. ``str(order)`` is the canonical text (the notation of
``docs/notation.md``), which :func:`realpolitik.notation.parse_order` reads back to the same order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from realpolitik.geography import UnitType, province_of


# A unit type formats as its letter (a StrEnum formats as its value, in C; ``.value`` is a
# Python-level property, and a submit writes out every order it has not seen before).
def _unit_text(unit_type: UnitType | None, location: str, power: str | None = None) -> str:
    text = f"{unit_type} {location.upper()}" if unit_type else location.upper()
    return f"{power.upper()} {text}" if power else text


@dataclass(frozen=True, slots=True)
class _UnitOrder:
    """Fields shared by orders given to a unit on the board."""

    unit_type: UnitType
    location: str
    power: str | None = field(default=None, kw_only=True, compare=True)

    @property
    def province(self) -> str:
        """The province of the ordered unit."""
        return province_of(self.location)

    @property
    def unit_text(self) -> str:
        """``"F STP/SC"``."""
        return f"{self.unit_type} {self.location.upper()}"


@dataclass(frozen=True, slots=True)
class Hold(_UnitOrder):
    """The unit stands in place."""

    def __str__(self) -> str:
        return f"{self.unit_text} H"


@dataclass(frozen=True, slots=True)
class Move(_UnitOrder):
    """The unit tries to move to ``destination``; an army may go by convoy."""

    destination: str
    via_convoy: bool = False
    """Written "via convoy": the army must go by convoy even where a land route exists."""

    def __str__(self) -> str:
        via = " VIA" if self.via_convoy else ""
        return f"{self.unit_text} - {self.destination.upper()}{via}"


@dataclass(frozen=True, slots=True)
class SupportHold(_UnitOrder):
    """The unit supports the unit at ``supported_location`` in holding its place."""

    supported_location: str
    supported_type: UnitType | None = None
    supported_power: str | None = field(default=None, kw_only=True)

    def __str__(self) -> str:
        supported = _unit_text(self.supported_type, self.supported_location, self.supported_power)
        return f"{self.unit_text} S {supported}"


@dataclass(frozen=True, slots=True)
class SupportMove(_UnitOrder):
    """The unit supports the move of the unit at ``supported_location`` into ``destination``."""

    supported_location: str
    destination: str
    supported_type: UnitType | None = None
    supported_power: str | None = field(default=None, kw_only=True)

    def __str__(self) -> str:
        supported = _unit_text(self.supported_type, self.supported_location, self.supported_power)
        return f"{self.unit_text} S {supported} - {self.destination.upper()}"


@dataclass(frozen=True, slots=True)
class Convoy(_UnitOrder):
    """The fleet convoys the army at ``army_location`` to ``destination``."""

    army_location: str
    destination: str
    army_power: str | None = field(default=None, kw_only=True)

    def __str__(self) -> str:
        army = _unit_text(UnitType.ARMY, self.army_location, self.army_power)
        return f"{self.unit_text} C {army} - {self.destination.upper()}"


@dataclass(frozen=True, slots=True)
class Retreat(_UnitOrder):
    """A dislodged unit retreats to ``destination``."""

    destination: str

    def __str__(self) -> str:
        return f"{self.unit_text} R {self.destination.upper()}"


@dataclass(frozen=True, slots=True)
class Disband(_UnitOrder):
    """A dislodged unit is disbanded, or a unit is removed in an adjustment phase."""

    def __str__(self) -> str:
        return f"{self.unit_text} D"


@dataclass(frozen=True, slots=True)
class Build(_UnitOrder):
    """A new unit is built at ``location`` in an adjustment phase."""

    def __str__(self) -> str:
        return f"{self.unit_text} B"


@dataclass(frozen=True, slots=True)
class VariantOrder(_UnitOrder):
    """An order of a kind a variant declares (:class:`realpolitik.kinds.OrderKind`), not one of
    the rulebooks' kinds: the unit, and the one thing the order names beside it (a place, a
    corner's id), if any. A kind subclasses it (``@dataclass(frozen=True, slots=True)``, no
    fields of its own) and sets ``kind`` to the kind's name; ``str(order)`` is the keyword in
    capitals after the unit, then the argument (``A BRE TRANSFORM``, ``A E49 BLOCK
    SICILY``)."""

    argument: str | None = None
    """What the order names beside its unit, lower case (None: nothing)."""
    kind: ClassVar[str] = ""
    """The name of the kind (the keyword written, lower case)."""

    def __str__(self) -> str:
        argument = f" {self.argument.upper()}" if self.argument else ""
        return f"{self.unit_text} {self.kind.upper()}{argument}"


@dataclass(frozen=True, slots=True)
class Waive:
    """A power gives up one build it is entitled to."""

    power: str | None = None

    def __str__(self) -> str:
        return "WAIVE"


MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy | VariantOrder
"""Orders of a movement phase (one of a variant's own kinds only where it declares one)."""
RetreatOrder = Retreat | Disband
"""Orders of a retreat phase."""
AdjustmentOrder = Build | Disband | Waive | VariantOrder
"""Orders of an adjustment phase (one of a variant's own kinds only where it declares one)."""
Order = (Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build | Waive
         | VariantOrder)
"""Any order."""
UnitOrder = (Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build
             | VariantOrder)
"""Any order given to (or creating) a unit at a location."""


def with_power(order: Order, power: str) -> Order:
    """The same order with the ordering power set."""
    if order.power == power:
        return order
    if isinstance(order, Waive):
        return Waive(power)
    return replace(order, power=power)


def unit_key(order: Order) -> str | None:
    """The unit an order is for, as a key: its province, so that orders naming the same unit
    (on whatever coast) share it, and a later one can replace an earlier one. None for a
    waive, which is for no unit: it neither replaces another order nor is replaced (a power
    may waive several builds)."""
    return None if isinstance(order, Waive) else order.province
