"""What every bot shares: the interface, its seeded random generator, its policy on draws, and the
helpers that turn a listing of legal orders into a legal set of orders for a whole power."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from realpolitik.legality import adjustment_counts
from realpolitik.listing import legal_orders
from realpolitik.orders import Build, Disband, Hold, Order, VariantOrder, Waive
from realpolitik.position import Phase, PhaseType, Position
from realpolitik.rules import Rules, rules_for

_DEFAULT_RULES = rules_for("2023")

Listing = Mapping[str, tuple[Order, ...]]
"""Legal orders per location, as :func:`realpolitik.listing.legal_orders` lists them."""


@dataclass(frozen=True, slots=True)
class DrawPolicy:
    """When a bot votes for a draw it is asked about: when it cannot win and the draw includes
    it (:meth:`vote`). A bot never proposes a draw itself: on the server it votes only while a
    player has voted for one (``docs/bots.md``)."""

    first_years: int = 2
    """The game's first years, in which nothing is settled yet: the bot votes against."""
    winning_lead: int = 2
    """A lead in centres over every other power at which the bot still hopes to win."""
    stalled_years: int = 2
    """A leader whose centres have not grown over this many years accepts after all."""

    def vote(self, position: Position, power: str, history: Sequence[Position] = ()) -> bool:
        """True if ``power``, played by a bot, votes for a draw in ``position``.

        Against if the power is out of the game (it would not share the draw) or the game is
        in its :attr:`first_years`; against if it leads every other power by
        :attr:`winning_lead` centres or more, unless ``history`` (the game's earlier
        positions, if the caller has them) shows it held as many centres
        :attr:`stalled_years` years before; for the draw otherwise: it cannot expect to
        win."""
        if not position.units_of(power):
            return False
        start = Phase.parse(position.variant.start_phase).year
        if position.phase.year < start + self.first_years:
            return False
        mine = len(position.centers_of(power))
        others = [len(position.centers_of(p)) for p in position.variant.power_ids
                  if p != power]
        if mine < max(others, default=0) + self.winning_lead:
            return True
        phase = position.phase
        for earlier in reversed(history):
            if earlier.phase.year == phase.year - self.stalled_years \
                    and earlier.phase.season == phase.season:
                return mine <= len(earlier.centers_of(power))
        return False


DRAW_POLICY = DrawPolicy()
"""The policy every bot votes by unless given another."""


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

    def __init__(self, seed: int = 0, draws: DrawPolicy = DRAW_POLICY) -> None:
        self.seed = seed
        self.draws = draws

    def draw_vote(self, position: Position, power: str, history: Sequence[Position] = ()
                  ) -> bool:
        """Whether ``power`` votes for a draw proposed in ``position``, by the bot's
        :class:`DrawPolicy` (``history``: the game's earlier positions, if known, to see
        whether a leading power has stalled)."""
        return self.draws.vote(position, power, history)

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
        given: list[Order] = []
        if position.variant.kinds:
            # the orders of the variant's own kinds, as each kind advises, and the builds
            # they take; the rest is built (or removed) as usual
            given, count = variant_kind_orders(
                position, power, self.preferred(position, power, listing), count)
            listing = {where: tuple(o for o in options if not isinstance(o, VariantOrder))
                       for where, options in listing.items()}
        if count > 0:
            return given + self.builds(position, power, listing, count, rng)
        if count < 0:
            return given + self.removals(position, power, listing, -count, rng)
        return given

    def preferred(self, position: Position, power: str, listing: Listing) -> Listing:
        """``listing`` with the units the bot would rather give an order first (what a kind's
        advice takes first, where it takes some of its listed orders); as listed by
        default."""
        return listing

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


def variant_kind_orders(position: Position, power: str, listing: Listing, count: int,
                        ) -> tuple[list[Order], int]:
    """The orders of the variant's own kinds a bot gives in an adjustment phase, as each kind
    advises (:meth:`~realpolitik.kinds.OrderKind.advice`) from the power's ``listing``, and
    the builds (or removals) left of ``count`` once they have taken theirs."""
    given: list[Order] = []
    for kind in position.variant.kinds.in_phase(PhaseType.ADJUSTMENTS):
        advised = [o for o in kind.advice(position, power, listing, count)
                   if isinstance(o, VariantOrder) and type(o) is kind.order]
        if not advised:
            continue
        spending = kind.spend(position, power, advised, count)
        given += [o for i, o in enumerate(advised) if i not in spending.void]
        if count > 0:
            count = max(0, count - spending.builds)
    return given, count
