"""Writing places, units and orders as a variant names them: the one path every interface
takes to show a place to a person.

A variant writes its places either by their codes in capitals (the classical map: ``F LON -
ENG``, ``F STP/SC``, exactly the canonical text of ``str(order)``) or by their names
(Colonial Winters: ``F London - English Channel``, ``F Kiel (wc)``), as its ``variant.toml``
says (``[variant] write_places``). What is written by name is read back to the same order by
:func:`realpolitik.notation.parse_order`, and the code is always read too.

``str(order)`` stays the canonical text, with codes, in every variant: it is what game records,
case files and the typed API compare. The text written here is for people.
"""

from __future__ import annotations

from dataclasses import dataclass

from realpolitik.caches import CacheSlot
from realpolitik.geography import UnitType, province_of
from realpolitik.orders import (
    Block,
    Build,
    Convoy,
    Disband,
    Hold,
    Mobilise,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from realpolitik.position import Unit
from realpolitik.variant import Variant

__all__ = ["PlaceWriter", "place_writer", "write_order", "write_place", "write_unit"]


@dataclass(frozen=True)
class PlaceWriter:
    """Writes the places of one variant (get it with :func:`place_writer`)."""

    variant: Variant
    by_name: bool
    """True if places are written by name; False by code (then every text here is the
    canonical one)."""

    def place(self, location: str) -> str:
        """``"London"``, ``"Kiel (wc)"``; by code ``"LON"``, ``"STP/SC"``. A location that is
        not on the map is written in capitals."""
        if not self.by_name:
            return location.upper()
        provinces = self.variant.map.provinces
        province = provinces.get(province_of(location))
        if province is None:
            return location.upper()
        if location == province.id:
            return province.name
        return f"{province.name} ({location.split('/', 1)[1]})"

    def names(self, location: str) -> str:
        """The place's name for a sentence, whatever the variant writes in orders:
        ``"London"``, ``"St Petersburg (north coast)"``."""
        try:
            return self.variant.map.name(location)
        except KeyError:
            return location.upper()

    def unit(self, unit_type: UnitType | None, location: str, power: str | None = None) -> str:
        """``"F London"``; with a power written before it: ``"England F London"``."""
        if not self.by_name:
            text = f"{unit_type} {location.upper()}" if unit_type else location.upper()
            return f"{power.upper()} {text}" if power else text
        text = f"{unit_type} {self.place(location)}" if unit_type else self.place(location)
        return f"{self.variant.power_name(power)} {text}" if power else text

    def unit_of(self, unit: Unit) -> str:
        """A unit on the board: ``"F London"``."""
        return str(unit) if not self.by_name else f"{unit.type} {self.place(unit.location)}"

    def point(self, point: str) -> str:
        """A block's point: a passage by its space's name, a corner by its id (in words where
        places are written by name: ``Southern Africa``; in capitals by code:
        ``SOUTHERN_AFRICA``)."""
        if not self.by_name:
            return point.upper()
        if point in self.variant.map.provinces:
            return self.place(point)
        return point.replace("_", " ").title()

    def order(self, order: Order) -> str:
        """The order as people read it; :func:`~realpolitik.notation.parse_order` reads it back
        to the same order."""
        if not self.by_name or isinstance(order, Waive):
            return str(order)
        unit = f"{order.unit_type} {self.place(order.location)}"
        if isinstance(order, Hold):
            return f"{unit} H"
        if isinstance(order, Move):
            via = " VIA" if order.via_convoy else ""
            return f"{unit} - {self.place(order.destination)}{via}"
        if isinstance(order, SupportHold):
            supported = self.unit(order.supported_type, order.supported_location,
                                  order.supported_power)
            return f"{unit} S {supported}"
        if isinstance(order, SupportMove):
            supported = self.unit(order.supported_type, order.supported_location,
                                  order.supported_power)
            return f"{unit} S {supported} - {self.place(order.destination)}"
        if isinstance(order, Convoy):
            army = self.unit(UnitType.ARMY, order.army_location, order.army_power)
            return f"{unit} C {army} - {self.place(order.destination)}"
        if isinstance(order, Retreat):
            return f"{unit} R {self.place(order.destination)}"
        if isinstance(order, Disband):
            return f"{unit} D"
        if isinstance(order, Build):
            return f"{unit} B"
        if isinstance(order, Block):
            return f"{unit} BLOCK {self.point(order.point)}"
        assert isinstance(order, Mobilise)
        return f"{unit} MOBILISE"


def _make_writer(variant: Variant) -> PlaceWriter:
    return PlaceWriter(variant, variant.writes_names)


place_writer: CacheSlot[Variant, PlaceWriter] = CacheSlot("place writer", _make_writer)
"""The writer of a variant's places (one per variant)."""


def write_place(location: str, variant: Variant) -> str:
    """A place as the variant writes it: ``"London"`` (Colonial Winters), ``"LON"``
    (classical)."""
    return place_writer(variant).place(location)


def write_unit(unit: Unit, variant: Variant) -> str:
    """A unit as the variant writes it: ``"F London"``, ``"F LON"``."""
    return place_writer(variant).unit_of(unit)


def write_order(order: Order, variant: Variant) -> str:
    """An order as the variant writes it: ``"F London - English Channel"`` (Colonial Winters),
    ``"F LON - ENG"`` (classical, the same as ``str(order)``)."""
    return place_writer(variant).order(order)
