"""The sea-ice rule: a frozen sea may not be entered in its season (moves and retreats)."""

from __future__ import annotations

from dataclasses import dataclass

from realpolitik.geography import province_of
from realpolitik.hooks import VariantHooks
from realpolitik.orders import Move, Order
from realpolitik.position import DislodgedUnit, Position, Unit

from .frozen import FROZEN_SEAS, Freeze


@dataclass(frozen=True)
class IceReport:
    """Why a place is closed by ice (a dataclass of the hooks module: it pickles)."""

    freeze: Freeze

    def sentence(self, position: Position) -> str:
        name = position.variant.map.provinces[self.freeze.sea].name
        return f"The {name} is frozen in {self.freeze.season.name.title()}: no unit may enter it"


def ice_at(position: Position, location: str) -> IceReport | None:
    """The freeze that closes ``location`` in this position's season, if any."""
    for freeze in FROZEN_SEAS:
        if freeze.sea == province_of(location) and freeze.season is position.phase.season:
            return IceReport(freeze)
    return None


class SeaIce(VariantHooks):
    """The classical rules, with frozen seas."""

    def order_veto(self, position: Position, unit: Unit, order: Order) -> str | None:
        if isinstance(order, Move):
            ice = ice_at(position, order.destination)
            if ice is not None:
                return ice.sentence(position)
        return None

    def retreat_allowed(self, position: Position, dislodged: DislodgedUnit,
                        location: str) -> bool | str:
        ice = ice_at(position, location)
        return True if ice is None else ice.sentence(position)
