"""realpolitik: the board game Diplomacy as a typed, dependency-free Python engine.

>>> import realpolitik as rp
>>> variant = rp.load_variant("classical")
>>> position = rp.Position.initial(variant)
>>> str(rp.parse_order("A Par-Bur", position))
'A PAR - BUR'
"""

from realpolitik.errors import (
    AmbiguousOrderError,
    GameError,
    IllegalOrderError,
    InvalidOrderError,
    OrderTextError,
    RealpolitikError,
    UnknownNameError,
    VariantError,
)
from realpolitik.geography import Map, Province, Terrain, UnitType
from realpolitik.notation import OrderSheet, ParsedOrder, format_order, parse_order, parse_orders
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
from realpolitik.position import DislodgedUnit, Phase, PhaseType, Position, Season, Unit
from realpolitik.variant import Power, Variant, available_variants, load_variant

__version__ = "0.1.0"

__all__ = [
    "AmbiguousOrderError",
    "Build",
    "Convoy",
    "Disband",
    "DislodgedUnit",
    "GameError",
    "Hold",
    "IllegalOrderError",
    "InvalidOrderError",
    "Map",
    "Move",
    "Order",
    "OrderSheet",
    "OrderTextError",
    "ParsedOrder",
    "Phase",
    "PhaseType",
    "Position",
    "Power",
    "Province",
    "RealpolitikError",
    "Retreat",
    "Season",
    "SupportHold",
    "SupportMove",
    "Terrain",
    "Unit",
    "UnitType",
    "UnknownNameError",
    "Variant",
    "VariantError",
    "Waive",
    "available_variants",
    "format_order",
    "load_variant",
    "parse_order",
    "parse_orders",
]
