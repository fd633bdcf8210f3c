"""Writing places, units and orders as a variant names them: the one path every interface
takes to show a place to a person.

A variant writes its places either by their codes in capitals (the classical map: ``F LON -
ENG``, ``F STP/SC``, exactly the canonical text of ``str(order)``) or by their names
(``F London - English Channel``, ``F Kiel (wc)``), as its ``variant.toml``
says (``[variant] write_places``). What is written by name is read back to the same order by
:func:`realpolitik.notation.parse_order`, and the code is always read too.

``str(order)`` stays the canonical text, with codes, in every variant: it is what game records,
case files and the typed API compare. The text written here is for people.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from realpolitik.caches import CacheSlot
from realpolitik.geography import UnitType, province_of
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
    VariantOrder,
    Waive,
)
from realpolitik.position import Unit
from realpolitik.variant import Variant

__all__ = ["UNIT_TEXT", "PlaceWriter", "names_table", "place_names", "place_writer", "write_order",
           "write_place", "write_unit"]


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
        """A corner or passage: a passage by its space's name, a corner by its id (in words where
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
        assert isinstance(order, VariantOrder)
        if order.argument is None:
            return f"{unit} {order.kind.upper()}"
        kind = self.variant.kinds.get(order)
        argument = kind.write_argument(order.argument, self) if kind is not None \
            else order.argument.upper()
        return f"{unit} {order.kind.upper()} {argument}"


def _make_writer(variant: Variant) -> PlaceWriter:
    return PlaceWriter(variant, variant.writes_names)


place_writer: CacheSlot[Variant, PlaceWriter] = CacheSlot("place writer", _make_writer)
"""The writer of a variant's places (one per variant)."""


def _make_place_names(variant: Variant) -> Mapping[str, str]:
    writer = place_writer(variant)
    return MappingProxyType({loc.upper(): writer.place(loc) for loc in variant.map.locations})


_place_names: CacheSlot[Variant, Mapping[str, str]] = CacheSlot("place names",
                                                                _make_place_names)
"""Every location's name by its code in capitals (one table per variant)."""


def place_names(variant: Variant) -> dict[str, str] | None:
    """Every place's name by its code in capitals (``{"E8": "London", "E26/WC": "Kiel
    (wc)"}``) for a variant that writes places by name; None for one whose codes are its
    names."""
    return dict(_place_names(variant)) if variant.writes_names else None


def write_place(location: str, variant: Variant) -> str:
    """A place as the variant writes it: ``"London"`` (by name), ``"LON"`` (by code: the
    classical map)."""
    return place_writer(variant).place(location)


def write_unit(unit: Unit, variant: Variant) -> str:
    """A unit as the variant writes it: ``"F London"``, ``"F LON"``."""
    return place_writer(variant).unit_of(unit)


def write_order(order: Order, variant: Variant) -> str:
    """An order as the variant writes it: ``"F London - English Channel"`` (places by name),
    ``"F LON - ENG"`` (classical, the same as ``str(order)``)."""
    return place_writer(variant).order(order)


UNIT_TEXT = re.compile(r"(?:[A-Z]+ )?([AF]) (\S+)")
"""A unit in the canonical text (``F E26/WC``, ``ENGLAND A E8``): its type and location."""

_FREE_TEXT = frozenset({"names", "reason", "input", "text", "notes", "summary", "message",
                        "hint", "name"})
"""Keys of JSON-ready reports whose values are sentences or written text, not codes."""


def names_table(variant: Variant, data: Any) -> dict[str, str]:
    """Code -> name of every place a JSON-ready report mentions, as a place (``"E8"``) or in a
    unit (``"F E26/WC"``): the ``names`` table that the command line's and the server's JSON
    carry beside the codes. Empty for a variant that writes places by code (the classical
    map: its codes are its names)."""
    if not variant.writes_names:
        return {}
    writer = place_writer(variant)
    is_location = variant.map.is_location
    table: dict[str, str] = {}

    def visit(value: Any) -> None:
        if isinstance(value, str):
            unit = UNIT_TEXT.fullmatch(value)
            code = unit.group(2) if unit else value
            if is_location(code.lower()):
                table[code] = writer.place(code.lower())
        elif isinstance(value, Mapping):
            for key, item in value.items():
                if key not in _FREE_TEXT:
                    visit(key)
                    visit(item)
        elif isinstance(value, list | tuple):
            for item in value:
                visit(item)

    visit(data)
    return dict(sorted(table.items()))
