"""What every bot shares: the interface, its seeded random generator, and the helpers that turn a
listing of legal orders into a legal set of orders for a whole power."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import ClassVar

from realpolitik.legality import adjustment_counts
from realpolitik.listing import legal_orders
from realpolitik.orders import Build, Disband, Hold, Order, Waive
from realpolitik.position import PhaseType, Position
from realpolitik.rules import Rules, rules_for

_DEFAULT_RULES = rules_for("2023")

Listing = Mapping[str, tuple[Order, ...]]
"""Legal orders per location, as :func:`realpolitik.listing.legal_orders` lists them."""


class Bot(ABC):
    """A computer player: given a position and a power, the orders that power gives.

    Every order a bot gives is one that :func:`~realpolitik.listing.legal_orders` lists for
    the position, at most one per unit; in an adjustment phase it builds at most as many units
    as the power is due, on distinct sites, and removes exactly as many as it must. A bot is
    deterministic: the same seed, position and power give the same orders, whatever else it
    was asked before (its generator is drawn afresh from the seed, the power and the phase).
    """

    name: ClassVar[str]
    """The bot's name on the command line and the server (``random``, ``hold``...)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def random_for(self, position: Position, power: str) -> random.Random:
        """The generator for one power's orders in one phase, drawn from the bot's seed."""
        return random.Random(f"{self.name}/{self.seed}/{power}/{position.phase}")

    def orders(self, position: Position, power: str, rules: Rules | None = None) -> list[Order]:
        """The orders ``power`` gives in ``position`` (none if it has nothing to order)."""
        rules = rules or _DEFAULT_RULES
        listing = legal_orders(position, power, rules=rules)
        if not listing:
            return []
        rng = self.random_for(position, power)
        kind = position.phase.type
        if kind is PhaseType.MOVEMENT:
            return self.movement(position, power, listing, rng)
        if kind is PhaseType.RETREATS:
            return self.retreats(position, power, listing, rng)
        count = adjustment_counts(position).get(power, 0)
        if count > 0:
            return self.builds(position, power, listing, count, rng)
        if count < 0:
            return self.removals(position, power, listing, -count, rng)
        return []

    @abstractmethod
    def movement(self, position: Position, power: str, listing: Listing,
                 rng: random.Random) -> list[Order]:
        """One order for each unit of ``power`` in a movement phase."""

    @abstractmethod
    def retreats(self, position: Position, power: str, listing: Listing,
                 rng: random.Random) -> list[Order]:
        """One retreat or disband for each dislodged unit of ``power``."""

    @abstractmethod
    def builds(self, position: Position, power: str, listing: Listing, count: int,
               rng: random.Random) -> list[Order]:
        """At most ``count`` builds on distinct sites (or waives)."""

    @abstractmethod
    def removals(self, position: Position, power: str, listing: Listing, count: int,
                 rng: random.Random) -> list[Order]:
        """Exactly ``count`` removals of distinct units (fewer only if it has fewer units)."""


def hold_of(options: Sequence[Order]) -> Order:
    """The hold among a unit's listed orders (the first order if it has none, which a unit
    in a movement phase always has)."""
    for order in options:
        if isinstance(order, Hold):
            return order
    return options[0]


def build_sites(listing: Listing) -> dict[str, tuple[Build, ...]]:
    """Site -> its listed builds, in an adjustment listing of a power due builds."""
    return {site: tuple(o for o in options if isinstance(o, Build))
            for site, options in listing.items() if site != "waive"}


def waives(listing: Listing, count: int) -> list[Order]:
    """``count`` listed waives (none if the rules do not let the power waive)."""
    waive: list[Order] = [o for o in listing.get("waive", ()) if isinstance(o, Waive)]
    return waive[:1] * count if waive else []


def removals_listed(listing: Listing) -> dict[str, Disband]:
    """Unit location -> its listed removal, in an adjustment listing of a power that must
    remove."""
    return {loc: o for loc, options in listing.items() for o in options
            if isinstance(o, Disband)}
