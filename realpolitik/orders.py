"""Typed orders: frozen values, one class per kind of order.

Each order names the ordered unit by type and location (a coast where it matters) and, where the
writer gave it, the power that ordered it. ``str(order)`` is the canonical text (the notation of
``docs/notation.md``), which :func:`realpolitik.notation.parse_order` reads back to the same order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any, ClassVar, Final

from realpolitik.compiling import Reduced, is_compiled, mypyc_attr
from realpolitik.geography import UnitType, province_of
from realpolitik.slots import slot_setter


# A unit type formats as its letter (a StrEnum formats as its value, in C; ``.value`` is a
# Python-level property, and a submit writes out every order it has not seen before).
def _unit_text(unit_type: UnitType | None, location: str, power: str | None = None) -> str:
    text = f"{unit_type} {location.upper()}" if unit_type else location.upper()
    return f"{power.upper()} {text}" if power else text


# (compiled, a class that variants subclass and its bases must say so: VariantOrder)
@mypyc_attr(allow_interpreted_subclasses=True)
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

    def __reduce__(self) -> Reduced:
        # (copy and pickle make the order again by its constructor: the compiled build's
        # native frozen class refuses the default way, which sets the fields one by one)
        return (_order_again, (type(self), tuple(getattr(self, f.name) for f in fields(self))))


# The rulebooks' orders compare and hash with methods of their own rather than the dataclass's:
# equal as the dataclass's are (every field, the same class), hashed without the unit type (an
# enum member hashes in Python: a third of the dataclass's hash) but with a tag for the class.
# Compiled, they are native methods (a look-up by value some three times faster).


@dataclass(frozen=True, slots=True)
class Hold(_UnitOrder):
    """The unit stands in place."""

    def __str__(self) -> str:
        return f"{self.unit_text} H"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.location == other.location
                and self.power == other.power
                and self.unit_type == other.unit_type)

    def __hash__(self) -> int:
        return hash((self.location, self.power, "H"))


@dataclass(frozen=True, slots=True)
class Move(_UnitOrder):
    """The unit tries to move to ``destination``; an army may go by convoy."""

    destination: str
    via_convoy: bool = False
    """Written "via convoy": the army must go by convoy even where a land route exists."""

    def __str__(self) -> str:
        via = " VIA" if self.via_convoy else ""
        return f"{self.unit_text} - {self.destination.upper()}{via}"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.location == other.location
                and self.destination == other.destination
                and self.power == other.power
                and self.unit_type == other.unit_type
                and self.via_convoy == other.via_convoy)

    def __hash__(self) -> int:
        return hash((self.location, self.destination, self.power, self.via_convoy, "M"))


@dataclass(frozen=True, slots=True)
class SupportHold(_UnitOrder):
    """The unit supports the unit at ``supported_location`` in holding its place."""

    supported_location: str
    supported_type: UnitType | None = None
    supported_power: str | None = field(default=None, kw_only=True)

    def __str__(self) -> str:
        supported = _unit_text(self.supported_type, self.supported_location, self.supported_power)
        return f"{self.unit_text} S {supported}"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.location == other.location
                and self.supported_location == other.supported_location
                and self.power == other.power
                and self.unit_type == other.unit_type
                and self.supported_type == other.supported_type
                and self.supported_power == other.supported_power)

    def __hash__(self) -> int:
        return hash((self.location, self.supported_location, self.power, self.supported_power,
                     "SH"))


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

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.location == other.location
                and self.supported_location == other.supported_location
                and self.destination == other.destination
                and self.power == other.power
                and self.unit_type == other.unit_type
                and self.supported_type == other.supported_type
                and self.supported_power == other.supported_power)

    def __hash__(self) -> int:
        return hash((self.location, self.supported_location, self.destination, self.power,
                     self.supported_power, "SM"))


@dataclass(frozen=True, slots=True)
class Convoy(_UnitOrder):
    """The fleet convoys the army at ``army_location`` to ``destination``."""

    army_location: str
    destination: str
    army_power: str | None = field(default=None, kw_only=True)

    def __str__(self) -> str:
        army = _unit_text(UnitType.ARMY, self.army_location, self.army_power)
        return f"{self.unit_text} C {army} - {self.destination.upper()}"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.location == other.location
                and self.army_location == other.army_location
                and self.destination == other.destination
                and self.power == other.power
                and self.unit_type == other.unit_type
                and self.army_power == other.army_power)

    def __hash__(self) -> int:
        return hash((self.location, self.army_location, self.destination, self.power,
                     self.army_power, "C"))


@dataclass(frozen=True, slots=True)
class Retreat(_UnitOrder):
    """A dislodged unit retreats to ``destination``."""

    destination: str

    def __str__(self) -> str:
        return f"{self.unit_text} R {self.destination.upper()}"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.location == other.location
                and self.destination == other.destination
                and self.power == other.power
                and self.unit_type == other.unit_type)

    def __hash__(self) -> int:
        return hash((self.location, self.destination, self.power, "R"))


@dataclass(frozen=True, slots=True)
class Disband(_UnitOrder):
    """A dislodged unit is disbanded, or a unit is removed in an adjustment phase."""

    def __str__(self) -> str:
        return f"{self.unit_text} D"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.location == other.location
                and self.power == other.power
                and self.unit_type == other.unit_type)

    def __hash__(self) -> int:
        return hash((self.location, self.power, "D"))


@dataclass(frozen=True, slots=True)
class Build(_UnitOrder):
    """A new unit is built at ``location`` in an adjustment phase."""

    def __str__(self) -> str:
        return f"{self.unit_text} B"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.location == other.location
                and self.power == other.power
                and self.unit_type == other.unit_type)

    def __hash__(self) -> int:
        return hash((self.location, self.power, "B"))


@mypyc_attr(allow_interpreted_subclasses=True)
class _KindedOrder(_UnitOrder):
    """Where :class:`VariantOrder`'s ``kind`` is declared: a class variable of a class that is
    not itself a dataclass (compiled, a dataclass's class variables are taken for fields)."""

    __slots__ = ()

    kind: ClassVar[str] = ""
    """The name of the kind (the keyword written, lower case)."""


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class VariantOrder(_KindedOrder):
    """An order of a kind a variant declares (:class:`realpolitik.kinds.OrderKind`), not one of
    the rulebooks' kinds: the unit, and the one thing the order names beside it (a place, a
    corner's id), if any. A kind subclasses it (``@dataclass(frozen=True, slots=True)``, no
    fields of its own) and sets ``kind`` to the kind's name; ``str(order)`` is the keyword in
    capitals after the unit, then the argument (``A BRE TRANSFORM``, ``A E49 BLOCK
    SICILY``)."""

    argument: str | None = None
    """What the order names beside its unit, lower case (None: nothing)."""

    def __str__(self) -> str:
        argument = f" {self.argument.upper()}" if self.argument else ""
        return f"{self.unit_text} {self.kind.upper()}{argument}"


@dataclass(frozen=True, slots=True)
class Waive:
    """A power gives up one build it is entitled to."""

    power: str | None = None

    def __str__(self) -> str:
        return "WAIVE"

    def __reduce__(self) -> Reduced:
        return (Waive, (self.power,))


# A variant's kind subclasses VariantOrder with ``@dataclass(frozen=True, slots=True)``, which
# gives the subclass a slot for each field no base class lists in its ``__slots__``. Compiled,
# the native classes list none (their fields are the C struct's), and compiled code reads the
# struct, not the subclass's slots: each lists its own fields, as the interpreter's has.
for _base in (_UnitOrder, _KindedOrder, VariantOrder):
    if "__slots__" not in _base.__dict__:
        _inherited = {f.name for b in _base.__bases__ if is_dataclass(b) for f in fields(b)}
        setattr(_base, "__slots__",  # noqa: B010 (the type checker would refuse the assignment)
                tuple(f.name for f in fields(_base) if f.name not in _inherited)
                if is_dataclass(_base) else ())


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


def _order_again(cls: type[Any], values: tuple[object, ...]) -> Order:
    """The order of class ``cls`` with these field values, in field order (``__reduce__``)."""
    made: Order = cls(**{f.name: value for f, value in zip(fields(cls), values, strict=True)})
    return made


# -- making the orders the listing lists by the hundred --------------------------------------
# A frozen dataclass's __init__ costs twice what setting its slots costs, and a movement phase
# lists some 600 orders. These make the same values (every field set, defaults included:
# tests/test_speed_invariants.py checks them against the constructors). Each class has its own
# setters and its own ``__new__``: the compiled build's native classes refuse ``object.__new__``
# and a base class's slot setter used on a subclass. The supports' setters are public: the
# listing makes supports by the thousand and writes these makers' steps out in its loop.
# (Final: compiled, a C static each, not a look-up in the module's dictionary per call.)

_new_hold: Final = Hold.__new__
_hold_type = slot_setter(Hold, "unit_type")
_hold_location = slot_setter(Hold, "location")
_hold_power = slot_setter(Hold, "power")

_new_move: Final = Move.__new__
_move_type = slot_setter(Move, "unit_type")
_move_location = slot_setter(Move, "location")
_move_power = slot_setter(Move, "power")
_move_destination = slot_setter(Move, "destination")
_move_via = slot_setter(Move, "via_convoy")

new_support_hold: Final = SupportHold.__new__
set_support_hold_type = slot_setter(SupportHold, "unit_type")
set_support_hold_location = slot_setter(SupportHold, "location")
set_support_hold_power = slot_setter(SupportHold, "power")
set_support_hold_supported = slot_setter(SupportHold, "supported_location")
set_support_hold_supported_type = slot_setter(SupportHold, "supported_type")
set_support_hold_supported_power = slot_setter(SupportHold, "supported_power")

new_support_move: Final = SupportMove.__new__
set_support_move_type = slot_setter(SupportMove, "unit_type")
set_support_move_location = slot_setter(SupportMove, "location")
set_support_move_power = slot_setter(SupportMove, "power")
set_support_move_supported = slot_setter(SupportMove, "supported_location")
set_support_move_destination = slot_setter(SupportMove, "destination")
set_support_move_supported_type = slot_setter(SupportMove, "supported_type")
set_support_move_supported_power = slot_setter(SupportMove, "supported_power")

_new_convoy: Final = Convoy.__new__
_convoy_type = slot_setter(Convoy, "unit_type")
_convoy_location = slot_setter(Convoy, "location")
_convoy_power = slot_setter(Convoy, "power")
_convoy_army = slot_setter(Convoy, "army_location")
_convoy_destination = slot_setter(Convoy, "destination")
_convoy_army_power = slot_setter(Convoy, "army_power")


def _compiled() -> bool:
    """(Only its type counts: see :func:`~realpolitik.compiling.is_compiled`.)"""
    return True


_FIELDS_WRITTEN_NATIVELY: Final[bool] = is_compiled(_compiled)
"""True where this module is compiled: its classes are native, and the makers below write the
fields straight into the value's C struct (a frozen dataclass refuses only the writes that go
through its ``__setattr__``, which compiled attribute writes do not), some 20 times cheaper than
a call to a slot setter each; interpreted, such a write would raise, and they call the setters.
``tests/test_order_values.py`` checks both ways against the constructors."""


def made_hold(unit_type: UnitType, location: str, power: str | None) -> Hold:
    """``Hold(unit_type, location, power=power)``, made without the constructor."""
    order: Hold = _new_hold(Hold)
    if _FIELDS_WRITTEN_NATIVELY:
        order.unit_type = unit_type  # type: ignore[misc]
        order.location = location  # type: ignore[misc]
        order.power = power  # type: ignore[misc]
        return order
    _hold_type(order, unit_type)
    _hold_location(order, location)
    _hold_power(order, power)
    return order


def made_move(unit_type: UnitType, location: str, destination: str, via_convoy: bool,
              power: str | None) -> Move:
    """``Move(unit_type, location, destination, via_convoy, power=power)``, made without the
    constructor."""
    order: Move = _new_move(Move)
    if _FIELDS_WRITTEN_NATIVELY:
        order.unit_type = unit_type  # type: ignore[misc]
        order.location = location  # type: ignore[misc]
        order.power = power  # type: ignore[misc]
        order.destination = destination  # type: ignore[misc]
        order.via_convoy = via_convoy  # type: ignore[misc]
        return order
    _move_type(order, unit_type)
    _move_location(order, location)
    _move_power(order, power)
    _move_destination(order, destination)
    _move_via(order, via_convoy)
    return order


def made_support_hold(unit_type: UnitType, location: str, power: str | None,
                      supported_location: str, supported_type: UnitType | None) -> SupportHold:
    """``SupportHold(unit_type, location, supported_location, supported_type, power=power)``
    (the supported unit's power not named), made without the constructor."""
    order: SupportHold = new_support_hold(SupportHold)
    if _FIELDS_WRITTEN_NATIVELY:
        order.unit_type = unit_type  # type: ignore[misc]
        order.location = location  # type: ignore[misc]
        order.power = power  # type: ignore[misc]
        order.supported_location = supported_location  # type: ignore[misc]
        order.supported_type = supported_type  # type: ignore[misc]
        order.supported_power = None  # type: ignore[misc]
        return order
    set_support_hold_type(order, unit_type)
    set_support_hold_location(order, location)
    set_support_hold_power(order, power)
    set_support_hold_supported(order, supported_location)
    set_support_hold_supported_type(order, supported_type)
    set_support_hold_supported_power(order, None)
    return order


def made_support_move(unit_type: UnitType, location: str, power: str | None,
                      supported_location: str, destination: str,
                      supported_type: UnitType | None) -> SupportMove:
    """``SupportMove(unit_type, location, supported_location, destination, supported_type,
    power=power)`` (the supported unit's power not named), made without the constructor."""
    order: SupportMove = new_support_move(SupportMove)
    if _FIELDS_WRITTEN_NATIVELY:
        order.unit_type = unit_type  # type: ignore[misc]
        order.location = location  # type: ignore[misc]
        order.power = power  # type: ignore[misc]
        order.supported_location = supported_location  # type: ignore[misc]
        order.destination = destination  # type: ignore[misc]
        order.supported_type = supported_type  # type: ignore[misc]
        order.supported_power = None  # type: ignore[misc]
        return order
    set_support_move_type(order, unit_type)
    set_support_move_location(order, location)
    set_support_move_power(order, power)
    set_support_move_supported(order, supported_location)
    set_support_move_destination(order, destination)
    set_support_move_supported_type(order, supported_type)
    set_support_move_supported_power(order, None)
    return order


def made_convoy(unit_type: UnitType, location: str, army_location: str, destination: str,
                power: str | None) -> Convoy:
    """``Convoy(unit_type, location, army_location, destination, power=power)`` (the army's
    power not named), made without the constructor."""
    order: Convoy = _new_convoy(Convoy)
    if _FIELDS_WRITTEN_NATIVELY:
        order.unit_type = unit_type  # type: ignore[misc]
        order.location = location  # type: ignore[misc]
        order.power = power  # type: ignore[misc]
        order.army_location = army_location  # type: ignore[misc]
        order.destination = destination  # type: ignore[misc]
        order.army_power = None  # type: ignore[misc]
        return order
    _convoy_type(order, unit_type)
    _convoy_location(order, location)
    _convoy_power(order, power)
    _convoy_army(order, army_location)
    _convoy_destination(order, destination)
    _convoy_army_power(order, None)
    return order
