"""A heuristic bot in the tradition of DumbBot (David Norman's, 2003), written afresh for this
engine and for any variant it loads, with one move of lookahead.

How it thinks, in five steps each movement phase:

1. **Worth.** Each supply centre it does not own is worth something (more if a large power owns
   it: taking from the leader slows the leader down); each centre it owns is worth as much as
   the strongest enemy force that could walk into it. Other spaces are worth nothing by
   themselves.
2. **Spread.** That worth spreads to neighbouring spaces over several rounds, along the army
   graph for armies and the fleet graph for fleets, so a space next to two centres is worth more
   than a space next to none, and a unit far from the action is drawn towards it.
3. **Choice.** Units are taken in a random order; each scores the spaces it can move to (and
   its own, to hold) by their worth, plus its side's strength there, minus the strongest enemy's,
   and takes the best, or now and then one of the next best (weighted by how close they score):
   the randomness keeps it from being predictable and from stalling. Two of its units never head
   for the same space: the second supports the first where the space is contested, and looks
   elsewhere otherwise. A unit follows another of its own only when that move cannot fail (it
   would bounce off its own unit otherwise): else it supports that move or looks elsewhere. An
   army may go by convoy when its own fleets make a route.
4. **Help.** Units left holding support the moves that need it (into a unit or a contested
   space) or hold a threatened neighbour in place.
5. **Lookahead.** The plan is adjudicated against guesses of the neighbours' orders (steps 1-4
   played for them) and improved unit by unit (:mod:`realpolitik.bots.lookahead`); not on big
   boards, where it would be slow.

Where a variant voids orders because of the others (a variant's start choices), the
units whose orders would be void hold and the others plan again. Retreats go to the best-worth
space no other retreat of its own takes; builds go to the sites (and unit types) worth most that
the variant's winter limits leave standing, after the orders of the variant's own kinds that the
kind advises (mobilising inactive units); removals take the units worth least where they stand, of
the type the variant says goes first.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from realpolitik.bots.base import (
    Bot,
    Listing,
    build_sites,
    hold_of,
    removals_listed,
    waives,
)
from realpolitik.bots.lookahead import LOOKAHEAD, Lookahead, improve
from realpolitik.caches import CacheSlot
from realpolitik.geography import UnitType, province_of
from realpolitik.hooks import VariantHooks
from realpolitik.listing import legal_orders
from realpolitik.maptables import MapTables, tables_for
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
)
from realpolitik.position import PhaseType, Position, Unit
from realpolitik.rules import Rules, rules_for
from realpolitik.variant import Variant


@dataclass(frozen=True, slots=True)
class Weights:
    """The numbers the heuristic bot plays by (tuned with ``benchmarks/bots.py``)."""

    neutral_center: float = 20.0
    """Worth of a supply centre nobody owns."""
    enemy_center: float = 16.0
    """Worth of a centre another power owns, before its owner's size is counted."""
    per_owner_center: float = 1.5
    """Added to an enemy centre's worth per centre its owner holds."""
    defence: float = 14.0
    """Worth of an own centre per enemy unit that could enter it."""
    own_center: float = 2.0
    """Worth of an own centre that nothing threatens."""
    spread_rounds: int = 6
    """How many rounds worth spreads to neighbouring spaces."""
    spread_divisor: float = 5.0
    """Each round a space keeps (its worth + its neighbours' worth) / this."""
    spring_rounds: tuple[float, ...] = (1.0, 3.0, 1.2, 0.5, 0.25, 0.12, 0.06)
    """How much each round counts in spring (round 0 is the space itself)."""
    fall_rounds: tuple[float, ...] = (3.0, 1.5, 0.6, 0.3, 0.15, 0.08, 0.04)
    """Likewise in fall, when centres change hands: the space itself counts most."""
    strength: float = 1.5
    """Added to a space's score per own unit that could enter it."""
    competition: float = 2.5
    """Taken from a space's score per unit of the strongest enemy there."""
    alternative: float = 0.25
    """Chance scale of taking the next-best choice instead (times the ratio of their scores)."""
    fleet_bias: float = 1.0
    """Multiplies the worth of building a fleet (some variants want more of them)."""
    extra: Mapping[str, float] = field(default_factory=dict)
    """Room for a variant's own weights; unused by the classical game."""


_RULES = rules_for("2023")


@dataclass(slots=True)
class _Graph:
    """The map as the bot values it: province adjacency for armies and for fleets."""

    provinces: tuple[str, ...]
    army: dict[str, tuple[str, ...]]
    fleet: dict[str, tuple[str, ...]]
    centers: frozenset[str]


def _make_graph(variant: Variant) -> _Graph:
    tables = tables_for(variant)
    provinces = tables.provinces
    fleet: dict[str, set[str]] = {p: set() for p in provinces}
    for loc, near in tables.fleet_adj.items():
        fleet[province_of(loc)].update(province_of(n) for n in near)
    return _Graph(
        provinces=provinces,
        army={p: tuple(sorted(tables.army_adj.get(p, ()))) for p in provinces},
        fleet={p: tuple(sorted(near)) for p, near in fleet.items()},
        centers=frozenset(tables.map.supply_centers()),
    )


_graph_of: CacheSlot[Variant, _Graph] = CacheSlot("heuristic bot's map", _make_graph)
"""The bot's view of the map, made once per variant and kept in ``variant.caches``."""


@dataclass(slots=True)
class _View:
    """What the bot works out about one position for one power."""

    power: str
    graph: _Graph
    tables: MapTables
    strength: dict[str, dict[str, int]]
    """Power -> province -> how many of its units could enter (or stand in) the province."""
    worth: dict[UnitType, dict[str, float]]
    """Unit type -> province -> its spread worth for such a unit."""
    bonus: Mapping[str, int]
    """Extra defence strength of provinces (a variant's neutral units)."""

    def mine(self, province: str) -> int:
        return self.strength.get(self.power, {}).get(province, 0)

    def enemy(self, province: str) -> int:
        """The strongest other power's force that could enter (or holds) ``province``."""
        best = 0
        for power, reach in self.strength.items():
            if power != self.power:
                best = max(best, reach.get(province, 0))
        return best + self.bonus.get(province, 0)

    def score(self, unit_type: UnitType, province: str, weights: Weights) -> float:
        return (self.worth[unit_type].get(province, 0.0)
                + weights.strength * self.mine(province)
                - weights.competition * self.enemy(province))


@dataclass(slots=True)
class _Recent:
    """What heuristic bots worked out about the position they were last asked about on a
    variant: in a game each bot values the same position for itself and for its neighbours
    (whose orders it guesses), and the seven bots of a game share that work."""

    position: Position | None = None
    weights: Weights | None = None
    views: dict[str, _View] = field(default_factory=dict)
    """Power -> the view of the position for it."""
    guesses: dict[tuple[str, int], list[Order]] = field(default_factory=dict)
    """(power, sample) -> the orders guessed for the power."""


_recent_of: CacheSlot[Variant, list[_Recent]] = CacheSlot(
    "heuristic bots' last position", lambda variant: [_Recent()])
"""One entry per variant, replaced when another position is asked about (a game's
positions are not kept: their history would hold every view)."""


def _recent(position: Position, weights: Weights) -> _Recent:
    """The shared work on ``position`` with ``weights`` (new when the last was another)."""
    holder = _recent_of(position.variant)
    recent = holder[0]
    if recent.position is not position or recent.weights != weights:
        recent = holder[0] = _Recent(position, weights)
    return recent


def _view(position: Position, power: str, weights: Weights) -> _View:
    """What the bot works out about ``position`` for ``power`` (kept while the position is
    the one last asked about)."""
    views = _recent(position, weights).views
    view = views.get(power)
    if view is None:
        view = views[power] = _make_view(position, power, weights)
    return view


def _make_view(position: Position, power: str, weights: Weights) -> _View:
    tables = tables_for(position.variant)
    graph = _graph_of(position.variant)
    strength: dict[str, dict[str, int]] = {}
    for unit in position.units.values():
        reach = strength.setdefault(unit.power, {})
        reach[unit.province] = reach.get(unit.province, 0) + 1
        for province in tables.reach(unit.type, unit.location):
            reach[province] = reach.get(province, 0) + 1
    sizes: dict[str, int] = {}
    for holder in position.centers.values():
        sizes[holder] = sizes.get(holder, 0) + 1
    bonus = position.variant.hooks.defence_bonuses(position)
    view = _View(power, graph, tables, strength, {}, bonus)
    base: dict[str, float] = {}
    for center in graph.centers:
        owner = position.centers.get(center)
        if owner == power:
            threat = view.enemy(center)
            base[center] = weights.defence * threat if threat else weights.own_center
        elif owner is None:
            base[center] = weights.neutral_center
        else:
            base[center] = weights.enemy_center + weights.per_owner_center * sizes.get(owner, 0)
    # the turn after which the centres change hands (the rulebooks' Fall) looks further
    counts = position.variant.calendar.season(position.phase.season).centers_change
    rounds = weights.fall_rounds if counts else weights.spring_rounds
    view.worth[UnitType.ARMY] = _spread(base, graph.army, rounds, weights)
    view.worth[UnitType.FLEET] = _spread(base, graph.fleet, rounds, weights)
    return view


def _spread(base: Mapping[str, float], adjacent: Mapping[str, tuple[str, ...]],
            rounds: tuple[float, ...], weights: Weights) -> dict[str, float]:
    """Each province's worth: its own, plus what spreads to it from its neighbours round by
    round, each round counted with its weight in ``rounds``."""
    level = {p: base.get(p, 0.0) for p in adjacent}
    total = {p: rounds[0] * v for p, v in level.items()}
    divisor = weights.spread_divisor
    for index in range(1, min(weights.spread_rounds, len(rounds) - 1) + 1):
        get = level.get
        level = {p: (level[p] + sum(get(q, 0.0) for q in near)) / divisor
                 for p, near in adjacent.items()}
        factor = rounds[index]
        for p, v in level.items():
            total[p] += factor * v
    return total


def _pick(scored: list[tuple[float, int]], rng: random.Random, alternative: float) -> int:
    """The index of the choice taken among ``scored`` (score, index) sorted best first: the
    best, or with a chance growing with how close it scores, the next one, and so on."""
    at = 0
    while at + 1 < len(scored):
        here, after = scored[at][0], scored[at + 1][0]
        ratio = 0.0 if here <= 0 or after <= 0 else after / here
        if rng.random() < alternative * ratio:
            at += 1
        else:
            break
    return scored[at][1]


@dataclass(slots=True)
class _Plan:
    """The orders chosen so far in a movement phase."""

    orders: dict[str, Order] = field(default_factory=dict)
    """Unit location -> its order."""
    bound_for: dict[str, str] = field(default_factory=dict)
    """Province -> location of the own unit that will be there (moving in or staying)."""
    leaving: set[str] = field(default_factory=set)
    """Provinces whose own unit is ordered to move away."""
    holding: set[str] = field(default_factory=set)
    """Locations of units that hold whatever happens (a variant's rule would void another
    order)."""


_REPLANS = 3
"""How many times a movement phase is planned again when a variant's rule voids orders."""


def _certain(move: Move, position: Position, view: _View, orders: Mapping[str, Order],
             depth: int = 0) -> bool:
    """True if ``move``, planned for one of the bot's units, cannot fail: over land (or by
    sea for a fleet) into a space no other power's unit can reach, that is empty or whose own
    unit itself moves on with a certain move. Only then may another own unit follow it."""
    unit = position.units[province_of(move.location)]
    target = province_of(move.destination)
    if view.enemy(target) > 0 or move.via_convoy or (
            unit.type is UnitType.ARMY and target not in view.tables.army_adj.get(
                unit.province, frozenset())):
        return False
    occupant = position.units.get(target)
    if occupant is None:
        return True
    onward = orders.get(occupant.location)
    return occupant.power == view.power and isinstance(onward, Move) \
        and depth < len(orders) and _certain(onward, position, view, orders, depth + 1)


def _may_take(position: Position, view: _View, orders: Mapping[str, Order], location: str,
              order: Order) -> bool:
    """True if the unit at ``location`` may be given ``order`` beside the bot's other
    ``orders``: no two of its units move into one space, and none moves into a space where
    its own unit stays or moves with a move that could fail."""
    province = province_of(location)
    followed = any(isinstance(o, Move) and province_of(o.destination) == province
                   for loc, o in orders.items() if loc != location)
    if not isinstance(order, Move):
        return not followed
    if followed and not _certain(order, position, view, orders):
        return False
    target = province_of(order.destination)
    if any(isinstance(o, Move) and province_of(o.destination) == target
           for loc, o in orders.items() if loc != location):
        return False
    occupant = position.units.get(target)
    if occupant is None or occupant.power != view.power:
        return True
    ahead = orders.get(occupant.location)
    return isinstance(ahead, Move) and _certain(ahead, position, view, orders)


def _contested(position: Position, view: _View, target: str) -> bool:
    """True if a move into ``target`` can use a support: another power's unit stands there or
    could move in."""
    occupant = position.units.get(target)
    return (occupant is not None and occupant.power != view.power) or view.enemy(target) > 0


class HeuristicBot(Bot):
    """The heuristic bot (see the module's description)."""

    name = "heuristic"

    def __init__(self, seed: int = 0, weights: Weights | None = None,
                 lookahead: Lookahead | None = LOOKAHEAD) -> None:
        super().__init__(seed)
        self.weights = weights or Weights()
        self.lookahead = lookahead
        """How its movement orders are improved by adjudicating them (None: not at all)."""

    # -- movement ---------------------------------------------------------------------------

    def orders(self, position: Position, power: str, rules: Rules | None = None) -> list[Order]:
        """As :meth:`Bot.orders`; in a movement phase the lookahead adjudicates by ``rules``."""
        rules = rules or _RULES
        if position.phase.type is not PhaseType.MOVEMENT:
            return super().orders(position, power, rules)
        listing = legal_orders(position, power, rules=rules)
        if not listing:
            return []
        return self._movement(position, power, listing, self.random_for(position, power), rules)

    def movement(self, position: Position, power: str, listing: Listing,
                 rng: random.Random) -> list[Order]:
        """The movement orders, the lookahead adjudicating by the 2023 rules (:meth:`orders`
        passes the game's)."""
        return self._movement(position, power, listing, rng, _RULES)

    def _movement(self, position: Position, power: str, listing: Listing,
                  rng: random.Random, rules: Rules) -> list[Order]:
        view = _view(position, power, self.weights)
        hooks = position.variant.hooks
        voids_some = type(hooks).void_orders is not VariantHooks.void_orders
        holding: set[str] = set()
        for attempt in range(_REPLANS + 1):
            planned = self._plan(position, listing, view, holding, rng)
            if self.lookahead is not None and len(position.units) <= self.lookahead.max_units:
                planned = self._look_ahead(position, power, listing, view, planned, holding,
                                           rules, rng)
            ranked = self._ranked(position, view, planned)
            orders = [order for _, order in ranked]
            void = hooks.void_orders(position, orders) if voids_some else {}
            if not void:
                return orders
            if attempt < _REPLANS:
                # A variant's rule voids some of them (only so many inactive units may be
                # chosen at the start): those units hold, the others plan again.
                holding.update(ranked[index][0] for index in void)
        return [hold_of(listing[loc]) if index in void else order
                for index, (loc, order) in enumerate(ranked)]

    def _plan(self, position: Position, listing: Listing, view: _View, holding: set[str],
              rng: random.Random) -> dict[str, Order]:
        """Location -> order for each unit of the listing: the units of ``holding`` hold; the
        others choose in a random order, then those left holding help."""
        units = [position.units[province_of(loc)] for loc in listing]
        rng.shuffle(units)
        plan = _Plan(holding=holding)
        for loc in holding:
            self._stay(plan, position.units[province_of(loc)], hold_of(listing[loc]))
        for unit in units:
            if unit.location in plan.orders:
                continue  # already given a convoy, or held by the variant's rule
            self._choose(unit, position, listing, view, plan, rng)
        self._help(position, listing, view, plan)
        return {loc: plan.orders.get(loc) or hold_of(options) for loc, options in listing.items()}

    def _ranked(self, position: Position, view: _View, planned: Mapping[str, Order],
                ) -> list[tuple[str, Order]]:
        """The (location, order) pairs of a plan, the moves worth most first (a variant may
        keep only the first of several orders: a variant's start choices)."""
        weights = self.weights

        def gain(entry: tuple[str, Order]) -> float:
            order = entry[1]
            if not isinstance(order, Move):
                return 0.0 if isinstance(order, Hold) else 0.5
            unit = position.units[province_of(order.location)]
            return 1.0 + view.score(unit.type, province_of(order.destination), weights) \
                - view.score(unit.type, unit.province, weights)

        return sorted(planned.items(), key=gain, reverse=True)

    def _look_ahead(self, position: Position, power: str, listing: Listing, view: _View,
                    planned: dict[str, Order], holding: set[str], rules: Rules,
                    rng: random.Random) -> dict[str, Order]:
        """``planned`` improved by :func:`~realpolitik.bots.lookahead.improve` against the
        orders the heuristic expects of the powers whose units can reach where the bot's
        can (the others' units hold in the prediction)."""
        settings = self.lookahead
        assert settings is not None
        weights = self.weights
        mine = set(view.strength.get(power, {}))
        near = [p for p, reach in view.strength.items()
                if p != power and not mine.isdisjoint(reach)]
        guesses = _recent(position, weights).guesses
        predictions: list[list[Order]] = [[] for _ in range(settings.samples)]
        for other in near:
            for sample, orders in enumerate(predictions):
                guess = guesses.get((other, sample))
                if guess is None:
                    guess = guesses[other, sample] = self._guess(position, other, sample, rules)
                orders += guess
        # Units that no other power's unit can meet keep their planned orders: nothing they
        # could do changes an adjudication, and supports there are not needed.
        quiet = {loc for loc in listing if view.enemy(province_of(loc)) == 0
                 and all(view.enemy(p) == 0 for p in view.tables.reach(
                     position.units[province_of(loc)].type, loc))}

        def score(unit_type: UnitType, province: str) -> float:
            return view.score(unit_type, province, weights)

        def allowed(orders: dict[str, Order], location: str, order: Order) -> bool:
            return _may_take(position, view, orders, location, order)

        return improve(position, power, listing, planned, predictions, view.worth, score,
                       holding | quiet, allowed, rules, settings, rng)

    def _guess(self, position: Position, power: str, sample: int, rules: Rules) -> list[Order]:
        """The orders the heuristic (without lookahead) gives ``power``: a guess of another
        power's orders, the same for every bot (its draws are seeded by the power, the phase
        and the sample only)."""
        listing = legal_orders(position, power, rules=rules)
        if not listing:
            return []
        guess = random.Random(f"guess/{power}/{position.phase}/{sample}")
        view = _view(position, power, self.weights)
        return list(self._plan(position, listing, view, set(), guess).values())

    @staticmethod
    def _stay(plan: _Plan, unit: Unit, order: Order) -> None:
        """``unit`` stays where it is with ``order`` (a hold, support, convoy or block)."""
        plan.orders[unit.location] = order
        plan.bound_for[unit.province] = unit.location

    def _choose(self, unit: Unit, position: Position, listing: Listing, view: _View,
                plan: _Plan, rng: random.Random) -> None:
        """Choose ``unit``'s order: hold, a move, a convoyed move, or support for an own move
        (into the space it wanted, or out of it when following that move could bounce off its
        own unit)."""
        weights = self.weights
        options = listing[unit.location]
        candidates: list[tuple[Order, str, tuple[str, ...]]] = [(hold_of(options), unit.province,
                                                                 ())]
        land = view.tables.army_adj.get(unit.province, frozenset())
        fleets = self._free_fleets(position, view.power, listing, plan) \
            if unit.type is UnitType.ARMY else frozenset()
        for order in options:
            if not isinstance(order, Move):
                continue
            target = province_of(order.destination)
            by_land = unit.type is UnitType.FLEET or (target in land and not order.via_convoy)
            if by_land:
                candidates.append((order, target, ()))
            elif fleets:
                route = self._route(unit.province, target, fleets, view.tables)
                if route:
                    candidates.append((order, target, route))
        scores = [view.score(unit.type, target, weights) for _, target, _ in candidates]
        remaining = sorted(((score, index) for index, score in enumerate(scores)), reverse=True)
        while remaining:
            index = _pick(remaining, rng, weights.alternative)
            order, target, route = candidates[index]
            if isinstance(order, Hold):
                self._stay(plan, unit, order)
                return
            taken = plan.bound_for.get(target)
            occupant = position.units.get(target)
            ahead = None if occupant is None or occupant.power != view.power \
                else plan.orders.get(occupant.location)
            if taken is None and (occupant is None or occupant.power != view.power
                                  or (isinstance(ahead, Move)
                                      and _certain(ahead, position, view, plan.orders))):
                plan.orders[unit.location] = order
                plan.bound_for[target] = unit.location
                plan.leaving.add(unit.province)
                for fleet_province in route:
                    self._convoy(position, listing, plan, fleet_province, unit, target)
                return
            # Taken by an own unit moving in, or an own unit there that stays or moves where
            # it could bounce (following it would bounce off it): support that move instead
            # where it is contested, else look elsewhere.
            helped: tuple[str, str] | None = None
            if taken and isinstance(plan.orders.get(taken), Move):
                helped = (taken, target)
            elif isinstance(ahead, Move) and occupant is not None:
                helped = (occupant.location, province_of(ahead.destination))
            if helped is not None and _contested(position, view, helped[1]):
                support = _support_for(options, *helped)
                if support is not None:
                    self._stay(plan, unit, support)
                    return
            remaining = [entry for entry in remaining if entry[1] != index]
        self._stay(plan, unit, hold_of(options))

    @staticmethod
    def _free_fleets(position: Position, power: str, listing: Listing,
                     plan: _Plan) -> frozenset[str]:
        """Provinces of own fleets in convoy spaces that are free to convoy: not yet ordered,
        or ordered to hold (and not held by a variant's rule)."""
        spaces = tables_for(position.variant).convoy_spaces
        free: set[str] = set()
        for loc in listing:
            unit = position.units.get(province_of(loc))
            if unit is None or unit.type is not UnitType.FLEET or unit.province not in spaces \
                    or loc in plan.holding:
                continue
            order = plan.orders.get(loc)
            if order is None or isinstance(order, Hold):
                free.add(unit.province)
        return frozenset(free)

    @staticmethod
    def _route(origin: str, target: str, fleets: frozenset[str],
               tables: MapTables) -> tuple[str, ...]:
        """The shortest chain of own free fleets that convoys an army from ``origin`` to
        ``target`` (empty if there is none)."""
        if not tables.has_convoy_route(origin, target, fleets):
            return ()
        routes = tables.minimal_routes(origin, fleets, target, limit=50)
        if not routes:
            return ()
        return min((chain for chain, _ in routes), key=lambda c: (len(c), c))

    @staticmethod
    def _convoy(position: Position, listing: Listing, plan: _Plan, fleet_province: str,
                army: Unit, target: str) -> None:
        fleet = position.units[fleet_province]
        for order in listing.get(fleet.location, ()):
            if isinstance(order, Convoy) and order.army_location == army.location \
                    and province_of(order.destination) == target:
                plan.orders[fleet.location] = order
                plan.bound_for[fleet_province] = fleet.location
                return

    def _help(self, position: Position, listing: Listing, view: _View, plan: _Plan) -> None:
        """Units left holding support own moves that need it, then threatened own units."""
        movers = [(loc, order) for loc, order in plan.orders.items() if isinstance(order, Move)]
        need: dict[str, int] = {}
        for loc, order in movers:
            target = province_of(order.destination)
            occupant = position.units.get(target)
            against = view.enemy(target)
            if occupant is not None and occupant.power == view.power:
                against = 0
            need[loc] = against  # supports wanted: the move then has strength against + 1
        movers.sort(key=lambda m: -view.score(position.units[province_of(m[0])].type,
                                               province_of(m[1].destination), self.weights))
        holders = [loc for loc, order in plan.orders.items()
                   if isinstance(order, Hold) and loc not in plan.holding]
        for loc in holders:
            options = listing[loc]
            best: tuple[int, Order, str] | None = None
            for mover_loc, move in movers:
                support = _support_for(options, mover_loc, province_of(move.destination))
                if support is None:
                    continue
                wanted = need[mover_loc]
                if best is None or wanted > best[0]:
                    best = (wanted, support, mover_loc)
            if best is not None and best[0] > 0:
                plan.orders[loc] = best[1]
                need[best[2]] -= 1
                continue
            guard = self._guard(position, options, view, plan)
            if guard is not None:
                plan.orders[loc] = guard
            elif best is not None:
                plan.orders[loc] = best[1]

    @staticmethod
    def _guard(position: Position, options: tuple[Order, ...], view: _View,
               plan: _Plan) -> Order | None:
        """Support holding the most threatened own unit that stays where it is."""
        best: tuple[int, Order] | None = None
        for order in options:
            if not isinstance(order, SupportHold):
                continue
            target = province_of(order.supported_location)
            unit = position.units.get(target)
            if unit is None or unit.power != view.power or target in plan.leaving:
                continue
            threat = view.enemy(target)
            if threat > 0 and (best is None or threat > best[0]):
                best = (threat, order)
        return best[1] if best else None

    # -- retreats ---------------------------------------------------------------------------

    def retreats(self, position: Position, power: str, listing: Listing,
                 rng: random.Random) -> list[Order]:
        view = _view(position, power, self.weights)
        taken: set[str] = set()
        orders: list[Order] = []
        for options in listing.values():
            retreats = [o for o in options if isinstance(o, Retreat)
                        and province_of(o.destination) not in taken]
            disband: list[Order] = [o for o in options if isinstance(o, Disband)]
            if not retreats:
                orders.append((disband or list(options))[0])
                continue
            scored = sorted(((view.score(o.unit_type, province_of(o.destination), self.weights),
                              i) for i, o in enumerate(retreats)), reverse=True)
            chosen = retreats[_pick(scored, rng, self.weights.alternative)]
            taken.add(province_of(chosen.destination))
            orders.append(chosen)
        return orders

    # -- adjustments ------------------------------------------------------------------------

    def builds(self, position: Position, power: str, listing: Listing, count: int,
               rng: random.Random) -> list[Order]:
        """The builds worth most that the variant's limits for the whole winter leave standing
        (the orders of a variant's own kinds, such as mobilising inactive units, are given
        first, as the kind advises: :func:`~realpolitik.bots.base.variant_kind_orders`)."""
        view = _view(position, power, self.weights)
        choices: list[tuple[float, Build]] = []
        for builds in build_sites(listing).values():
            for build in builds:
                worth = view.worth[build.unit_type].get(build.province, 0.0)
                if build.unit_type is UnitType.FLEET:
                    worth *= self.weights.fleet_bias
                choices.append((worth, build))
        chosen = self._standing_builds(position, power, choices, count, rng)
        return [*chosen, *waives(listing, count - len(chosen))]

    def _standing_builds(self, position: Position, power: str,
                         choices: list[tuple[float, Build]], count: int,
                         rng: random.Random) -> list[Build]:
        """Up to ``count`` of the (worth, build) ``choices`` on distinct sites, each taken
        (best first, now and then the next best) only if the variant's winter limits void
        none of the builds taken with it."""
        hooks = position.variant.hooks
        limits = type(hooks).void_adjustments is not VariantHooks.void_adjustments
        chosen: list[Build] = []
        while choices and len(chosen) < count:
            scored = sorted(((worth, i) for i, (worth, _) in enumerate(choices)),
                            key=lambda entry: (-entry[0], entry[1]))
            first = _pick(scored, rng, self.weights.alternative)
            for index in [first] + [i for _, i in scored if i != first]:
                build = choices[index][1]
                if not limits or not hooks.void_adjustments(position, power, [*chosen, build]):
                    break
            else:
                break  # every build left would be void with those taken
            chosen.append(build)
            choices = [c for c in choices if c[1].province != build.province]
        return chosen

    def preferred(self, position: Position, power: str, listing: Listing) -> Listing:
        """The units worth most where they stand first (so that a kind's advice, mobilising
        some of a power's inactive units, takes those)."""
        view = _view(position, power, self.weights)

        def rank(item: tuple[str, tuple[Order, ...]]) -> tuple[float, str]:
            where, _ = item
            unit = position.units.get(province_of(where))
            worth = view.score(unit.type, unit.province, self.weights) if unit else 0.0
            return -worth, where

        return dict(sorted(listing.items(), key=rank))

    def removals(self, position: Position, power: str, listing: Listing, count: int,
                 rng: random.Random) -> list[Order]:
        """The units worth least where they stand, of the type the variant says goes first
        (fleets before armies, say) before the others."""
        view = _view(position, power, self.weights)
        first = position.variant.hooks.removal_first(position, power)
        removable = removals_listed(listing)
        ranked = sorted(removable.items(), key=lambda item: (
            item[1].unit_type is not first,
            view.score(item[1].unit_type, province_of(item[0]), self.weights), item[0]))
        return [order for _, order in ranked[:count]]


def _support_for(options: tuple[Order, ...], mover_location: str,
                 target: str) -> SupportMove | None:
    """The listed support, among ``options``, of the move from ``mover_location`` into
    ``target``."""
    mover = province_of(mover_location)
    for order in options:
        if isinstance(order, SupportMove) and province_of(order.supported_location) == mover \
                and province_of(order.destination) == target:
            return order
    return None
