"""The baseline bots: one that orders at random and one that only holds."""

from __future__ import annotations

import random

from realpolitik.bots.base import Bot, Listing, build_sites, hold_of, removals_listed, waives
from realpolitik.orders import Disband, Order, Retreat
from realpolitik.position import Position


class RandomBot(Bot):
    """Each unit gives an order drawn uniformly from its legal orders; builds go to sites drawn
    at random (each with a unit type drawn at random) and removals to units drawn at random."""

    name = "random"

    def movement(self, position: Position, power: str, listing: Listing,
                 rng: random.Random) -> list[Order]:
        return [rng.choice(options) for options in listing.values() if options]

    def retreats(self, position: Position, power: str, listing: Listing,
                 rng: random.Random) -> list[Order]:
        return [rng.choice(options) for options in listing.values() if options]

    def builds(self, position: Position, power: str, listing: Listing, count: int,
               rng: random.Random) -> list[Order]:
        sites = [site for site, builds in build_sites(listing).items() if builds]
        chosen = rng.sample(sites, min(count, len(sites)))
        orders: list[Order] = [rng.choice(build_sites(listing)[site]) for site in chosen]
        return orders + waives(listing, count - len(orders))

    def removals(self, position: Position, power: str, listing: Listing, count: int,
                 rng: random.Random) -> list[Order]:
        removable = list(removals_listed(listing).values())
        return list(rng.sample(removable, min(count, len(removable))))


class HoldBot(Bot):
    """Every unit holds; dislodged units disband, builds are waived, and removals take the
    units in the order the position lists them. The steadiest opponent there is to measure a
    bot against: it never leaves a centre empty, and never attacks."""

    name = "hold"

    def movement(self, position: Position, power: str, listing: Listing,
                 rng: random.Random) -> list[Order]:
        return [hold_of(options) for options in listing.values() if options]

    def retreats(self, position: Position, power: str, listing: Listing,
                 rng: random.Random) -> list[Order]:
        orders: list[Order] = []
        for options in listing.values():
            disband: list[Order] = [o for o in options if isinstance(o, Disband)]
            retreat: list[Order] = [o for o in options if isinstance(o, Retreat)]
            orders.append((disband or retreat)[0])
        return orders

    def builds(self, position: Position, power: str, listing: Listing, count: int,
               rng: random.Random) -> list[Order]:
        return waives(listing, count)

    def removals(self, position: Position, power: str, listing: Listing, count: int,
                 rng: random.Random) -> list[Order]:
        removable: list[Order] = list(removals_listed(listing).values())
        return removable[:count]
