"""realpolitik: the board game Diplomacy as a typed, dependency-free Python engine.

>>> import realpolitik as rp
>>> variant = rp.load_variant("classical")
>>> position = rp.Position.initial(variant)
>>> str(rp.parse_order("A Par-Bur", position))
'A PAR - BUR'
"""

from realpolitik.adjudication import adjudicate
from realpolitik.adjudication.outcomes import OrderResult, Outcome, Resolution, Result
from realpolitik.calendar import Calendar, CalendarSeason
from realpolitik.errors import (
    AmbiguousOrderError,
    GameError,
    HookError,
    IllegalOrderError,
    InvalidOrderError,
    OrderTextError,
    RealpolitikError,
    UnknownNameError,
    VariantError,
    VariantWarning,
)
from realpolitik.game import Game, GameEnd, PhaseRecord
from realpolitik.geography import Map, Province, Terrain, UnitType
from realpolitik.legality import check_order
from realpolitik.listing import legal_orders
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
from realpolitik.rules import Rules, rules_for
from realpolitik.variant import Power, Variant, available_variants, load_variant

__version__ = "0.1.0"

__all__ = [
    "AmbiguousOrderError",
    "Build",
    "Calendar",
    "CalendarSeason",
    "Convoy",
    "Disband",
    "DislodgedUnit",
    "Game",
    "GameEnd",
    "GameError",
    "HookError",
    "Hold",
    "IllegalOrderError",
    "InvalidOrderError",
    "Map",
    "Move",
    "Order",
    "OrderResult",
    "OrderSheet",
    "OrderTextError",
    "Outcome",
    "ParsedOrder",
    "Phase",
    "PhaseRecord",
    "PhaseType",
    "Position",
    "Power",
    "Province",
    "RealpolitikError",
    "Resolution",
    "Result",
    "Retreat",
    "Rules",
    "Season",
    "SupportHold",
    "SupportMove",
    "Terrain",
    "Unit",
    "UnitType",
    "UnknownNameError",
    "Variant",
    "VariantError",
    "VariantWarning",
    "Waive",
    "adjudicate",
    "available_variants",
    "check_order",
    "format_order",
    "legal_orders",
    "load_variant",
    "parse_order",
    "parse_orders",
    "rules_for",
]
