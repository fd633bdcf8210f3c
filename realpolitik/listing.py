"""Every legal order of a power, listed: for the user interface, the bots and the facade.

:func:`legal_orders` lists, per location, every order of a power that
:func:`realpolitik.legality.check_order` would accept, already as the rules read it
(``tests/test_listing.py`` checks that the two agree on random positions). A listing is made once
per position, power and rules and kept in the position's caches as a :class:`ListedOrders`; an
order is in it when it is *equal* to a listed order (:meth:`ListedOrders.holds`), which is what
lets :class:`~realpolitik.game.Game` skip the check of listed orders and the adjudicator take them
as given (``adjudicate(..., checked=True)``).

A movement phase lists some 600 orders, most of them listed unchanged the phase before: the
order values are made once per unit (type, location, power) and kept in the variant's caches
(:class:`_Made`, a bounded table), and the supports are looked up by small keys from tables of
the map. The rule questions (retreat options, adjustments, build sites) are
:mod:`realpolitik.legality`'s.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import chain, filterfalse, repeat
from operator import attrgetter, is_
from types import MappingProxyType
from typing import NamedTuple, TypeVar, cast

from realpolitik.caches import Bounded, CacheSlot
from realpolitik.geography import UnitType, province_of
from realpolitik.hooks import VariantHooks
from realpolitik.legality import (
    adjustment_counts,
    build_options,
    empty_convoys,
    has_order_veto,
    normalize_order,
    retreat_options,
    units_of_type,
)
from realpolitik.maptables import MapTables, Mover, Occupant, tables_for
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
from realpolitik.position import PhaseType, Position, Unit
from realpolitik.rules import Rules, WaiveBuilds, rules_for
from realpolitik.slots import slot_setter
from realpolitik.variant import Variant

__all__ = [
    "ListedOrders",
    "is_listed",
    "legal_orders",
    "listed_checker",
    "listed_orders",
]

_DEFAULT_RULES = rules_for("2023")


# -- membership -------------------------------------------------------------------------------

_ORDER_CLASSES = (Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband, Build, Waive,
                  VariantOrder)


class ListedOrders:
    """The legal orders of one power in one position under one set of rules (what
    :func:`legal_orders` lists), and membership in them by value.

    ``order in listed`` is True when an order *equal* to ``order`` is listed: orders are frozen
    values, so an equal order is the same order, whatever object carries it, and an object
    that is not equal to a listed order is never taken for one.
    """

    __slots__ = ("power", "by_location", "_at")

    def __init__(self, power: str, by_location: dict[str, tuple[Order, ...]]) -> None:
        """``by_location`` is kept, not copied: the listing that made it lets go of it."""
        self.power = power
        self.by_location: Mapping[str, tuple[Order, ...]] = MappingProxyType(by_location)
        """Location -> the orders listed there (a unit's location; a build site's province;
        ``"waive"``)."""
        self._at = by_location
        """The same, looked up directly by :meth:`holds` (a look-up through the read-only
        proxy costs some 300 more instructions, for every order submitted)."""

    def __contains__(self, order: object) -> bool:
        return isinstance(order, _ORDER_CLASSES) and self.holds(order)

    def holds(self, order: Order) -> bool:
        """True if an order equal to ``order`` is listed (``order in listed``, typed)."""
        if order.power != self.power:
            return False
        # (a waive has no location and is listed under "waive"; getattr's default spares the
        # isinstance test, which costs hundreds of instructions for every other order)
        where: str = getattr(order, "location", "waive")
        by_location = self._at
        orders = by_location.get(where)
        if orders is None:  # a build on a coast is listed under its province
            orders = by_location.get(province_of(where), ())
        # Equality, as ``in`` tests it; the listed object itself (the common case: a caller
        # giving back what was listed) is looked for first, as comparing values of different
        # kinds costs a Python call each.
        return any(map(is_, orders, repeat(order))) or order in orders

    def __repr__(self) -> str:
        return f"<ListedOrders of {self.power}: {sum(map(len, self.by_location.values()))}>"


def listed_orders(position: Position, power: str, *, rules: Rules | None = None,
                  ) -> ListedOrders:
    """The :class:`ListedOrders` of ``power`` in ``position``: made once per position, power
    and rules (:func:`legal_orders` returns its ``by_location``)."""
    rules = rules or _DEFAULT_RULES
    listings = _listings(position)
    listed = listings.get((power, rules))
    if listed is None:
        listed = listings[power, rules] = ListedOrders(
            power, _legal_orders(position, power, rules))
    return listed


def _no_listings(_position: Position) -> dict[tuple[str, Rules], ListedOrders]:
    return {}


_listings: CacheSlot[Position, dict[tuple[str, Rules], ListedOrders]] = CacheSlot(
    "legal orders", _no_listings)
"""(power, rules) -> the power's :class:`ListedOrders` in the position (one per power and rules
asked: a game asks under one set of rules)."""


class _Listed:
    """Each power's listed orders in one position, looked up once, when first needed
    (:func:`listed_checker`)."""

    __slots__ = ("listed", "listings", "rules")

    def __init__(self, position: Position, rules: Rules) -> None:
        self.listings = _listings(position)
        self.rules = rules
        self.listed: dict[str | None, ListedOrders | None] = {}
        """power -> its listed orders (None: not listed), for the powers asked about so far."""

    def holds(self, order: Order) -> bool:
        """True if an order equal to ``order`` is listed for its power."""
        power = order.power
        try:
            listed = self.listed[power]
        except KeyError:
            listed = self.listed[power] = (None if power is None
                                           else self.listings.get((power, self.rules)))
        return listed is not None and listed.holds(order)


def listed_checker(position: Position, rules: Rules) -> Callable[[Order], bool]:
    """:func:`is_listed` for many orders of one position: each power's listing is looked up
    once (the adjudicator asks this of every order it is given)."""
    return _Listed(position, rules).holds


def is_listed(position: Position, order: Order, rules: Rules) -> bool:
    """True if :func:`legal_orders` listed an order equal to ``order`` (by value) for its power
    in this position under these rules; False as well if that power's orders were not listed
    yet (nothing is listed here)."""
    power = order.power
    if power is None:
        return False
    listed = _listings(position).get((power, rules))
    return listed is not None and listed.holds(order)


# -- listing ----------------------------------------------------------------------------------

def legal_orders(position: Position, power: str, *, rules: Rules | None = None,
                 ) -> Mapping[str, tuple[Order, ...]]:
    """Every legal order of ``power``: location -> orders.

    In a movement phase each unit's location maps to its holds, moves (by convoy too: to every
    coastal province a chain of fleets at sea reaches; a convoy to a province next door is listed
    as ``via_convoy``), supports and convoys. In a retreat phase each dislodged unit maps to its
    retreats and its disband. In an adjustment phase each free home centre maps to its builds (a
    fleet per coast), each unit to its removal when the power must remove, and the key
    ``"waive"`` to a :class:`Waive` when the power may build.
    """
    return listed_orders(position, power, rules=rules).by_location


def _legal_orders(position: Position, power: str, rules: Rules,
                  ) -> dict[str, tuple[Order, ...]]:
    phase = position.phase.type
    if phase is PhaseType.MOVEMENT:
        return _movement_orders(position, power)
    if phase is PhaseType.RETREATS:
        out: dict[str, tuple[Order, ...]] = {}
        for dislodged in position.dislodged:
            unit = dislodged.unit
            if unit.power != power:
                continue
            options = retreat_options(position, dislodged, rules=rules)
            made = _made_for(position, unit.type, unit.location, power)
            retreats = made.retreats
            for loc in options:
                if loc not in retreats:
                    retreats[loc] = Retreat(unit.type, unit.location, loc, power=power)
            listed: tuple[Order, ...] = tuple(retreats[loc] for loc in options)
            if position.variant.hooks.may_disband(position, dislodged, options):
                listed = (*listed, made.disband())
            out[unit.location] = listed
        return out
    return _adjustment_orders(position, power, rules)


def _adjustment_orders(position: Position, power: str, rules: Rules,
                       ) -> dict[str, tuple[Order, ...]]:
    count = adjustment_counts(position).get(power, 0)
    out: dict[str, tuple[Order, ...]] = {}
    if count > 0:
        for province, builds in build_options(position, power):
            out[province] = tuple(_made_for(position, utype, loc, power).build()
                                  for utype, loc in builds)
        if rules.waive is WaiveBuilds.ALLOWED:
            waives = _waives(position.variant)
            waive = waives.get(power)
            if waive is None:
                waive = waives[power] = Waive(power)
            out["waive"] = (waive,)
    elif count < 0:
        first = position.variant.hooks.removal_first(position, power)
        if first is not None and units_of_type(position, power, first) < -count:
            first = None  # it removes all of them, and others too
        for unit in position.units_of(power):
            if first is None or unit.type is first:
                out[unit.location] = (
                    _made_for(position, unit.type, unit.location, power).disband(),)
    if position.variant.kinds:
        _add_kinds(position, power, out)
    return out


def _add_kinds(position: Position, power: str, out: dict[str, tuple[Order, ...]]) -> None:
    """Add to ``out`` the orders of the variant's own kinds given in this phase."""
    for kind in position.variant.kinds.in_phase(position.phase.type):
        for where, orders in kind.listed(position, power).items():
            out[where] = (*out.get(where, ()), *orders)


_Shared = tuple[dict[str, list[int]], frozenset[str], dict[str, list[tuple[Mover, int]]],
                dict[str, frozenset[str]], dict[str, frozenset[str]],
                dict[str, list[tuple[str, str]]], MapTables,
                "Bounded[tuple[UnitType, str, str], _Made]",
                bool]

_unit_key: Callable[[Unit], tuple[UnitType, str]] = attrgetter("type", "location")


def _find_movement_shared(position: Position) -> _Shared:
    """What every power's list of movement orders needs, computed once per position.

    ``into``: province -> the unit in it (first) and every move some unit could make into it,
    in the order of the units, as support keys (:meth:`MapTables.support_key`): the supports
    into that province, in order, for any supporter. Then the fleets that could be needed to
    convoy some army to a province it could not reach otherwise; province -> those moves by
    convoy into it (with their support keys); each such army -> the group of fleets it could use
    (:meth:`MapTables.fleet_groups`); where each army next to a fleet at sea could go by convoy;
    and each fleet's convoys (unsorted, repeated).
    """
    tables = tables_for(position.variant)
    units = position.units
    convoying = tables.convoy_spaces
    fleet = UnitType.FLEET
    fleets = frozenset([p for p, u in units.items() if u.type is fleet and p in convoying])
    may_convoy: set[str] = set()
    group_of_army: dict[str, frozenset[str]] = {}
    convoyed_into: dict[str, list[tuple[Mover, int]]] = {}
    convoy_reach: dict[str, frozenset[str]] = {}
    convoys_of: dict[str, list[tuple[str, str]]] = {}
    by_convoy_at: list[tuple[int, tuple[tuple[str, Mover, int], ...]]] = []  # (unit index, moves)
    if fleets:
        shores, shore_seas = tables.shores, tables.shore_convoy_spaces
        army = UnitType.ARMY
        group_of: dict[str, frozenset[str]] | None = None
        for index, (prov, unit) in enumerate(units.items()):
            if unit.type is not army or prov not in shores:
                continue
            seas = shore_seas[prov] & fleets
            if not seas:
                continue
            if group_of is None:
                group_of = tables.fleet_groups(fleets)
            group = frozenset().union(*(group_of[s] for s in seas)) if len(seas) > 1 \
                else group_of[next(iter(seas))]
            reach, by_convoy, needed = tables.convoy_reach(prov, group)
            convoy_reach[prov] = reach
            if by_convoy:
                by_convoy_at.append((index, by_convoy))
                may_convoy |= group
                group_of_army[prov] = group
                for dest_prov, mover, key in by_convoy:
                    convoyed_into.setdefault(dest_prov, []).append((mover, key))
            for fleet_prov, pairs in needed:
                convoys_of.setdefault(fleet_prov, []).extend(pairs)
    into: dict[str, list[int]] = defaultdict(list)
    into_of = into.__getitem__
    # Without a Python-level step per move: the units, then their moves (an army's moves by
    # convoy right after its own moves, so each province's moves come in the order of units).
    append = list.append
    unit_keys = list(map(_unit_key, units.values()))
    any(map(append, map(into_of, units), map(tables.occupant_keys.__getitem__, unit_keys)))
    moves_into, mover_keys = tables.moves_into.__getitem__, tables.mover_keys.__getitem__
    start = 0
    for index, by_convoy in (*by_convoy_at, (len(unit_keys) - 1, ())):
        run = unit_keys[start:index + 1]
        any(map(append, map(into_of, chain.from_iterable(map(moves_into, run))),
                chain.from_iterable(map(mover_keys, run))))
        for dest_prov, _, key in by_convoy:
            into[dest_prov].append(key)
        start = index + 1
    # (and, so that each power's listing asks the caches once: the map tables, the variant's
    # order values, and whether it has convoys through empty seas)
    return (into, frozenset(may_convoy), convoyed_into, group_of_army, convoy_reach,
            convoys_of, tables, _made_table(position), empty_convoys(position) is not None)


_movement_shared: CacheSlot[Position, _Shared] = CacheSlot(
    "movement listing tables", _find_movement_shared)
"""What every power's list of movement orders needs (:func:`_find_movement_shared`), once per
position."""


# Order values are frozen dataclasses; their __init__ costs twice what setting the slots costs,
# and a movement phase lists some 600 orders. These make the same values (every field set,
# defaults included: tests/test_speed_invariants.py checks them against the constructors).
_new = object.__new__


# the fields every unit order shares (slots of their common base class): one setter for all
_ANY_UNIT_ORDER: type[object] = Hold
_set_type = slot_setter(_ANY_UNIT_ORDER, "unit_type")
_set_loc = slot_setter(_ANY_UNIT_ORDER, "location")
_set_power = slot_setter(_ANY_UNIT_ORDER, "power")
_set_dest = slot_setter(Move, "destination")
_set_via = slot_setter(Move, "via_convoy")
_set_sloc = slot_setter(SupportMove, "supported_location")
_set_smdest = slot_setter(SupportMove, "destination")
_set_stype = slot_setter(SupportMove, "supported_type")
_set_spower = slot_setter(SupportMove, "supported_power")
_set_shloc = slot_setter(SupportHold, "supported_location")
_set_shtype = slot_setter(SupportHold, "supported_type")
_set_shpower = slot_setter(SupportHold, "supported_power")
_set_army_loc = slot_setter(Convoy, "army_location")
_set_convoy_dest = slot_setter(Convoy, "destination")
_set_army_power = slot_setter(Convoy, "army_power")


def _hold(utype: UnitType, loc: str, power: str) -> Hold:
    order: Hold = _new(Hold)
    _set_type(order, utype)
    _set_loc(order, loc)
    _set_power(order, power)
    return order


def _move(utype: UnitType, loc: str, dest: str, via: bool, power: str) -> Move:
    order: Move = _new(Move)
    _set_type(order, utype)
    _set_loc(order, loc)
    _set_power(order, power)
    _set_dest(order, dest)
    _set_via(order, via)
    return order


def _support_hold(utype: UnitType, loc: str, other_loc: str, other_type: UnitType, power: str,
                  ) -> SupportHold:
    order: SupportHold = _new(SupportHold)
    _set_type(order, utype)
    _set_loc(order, loc)
    _set_power(order, power)
    _set_shloc(order, other_loc)
    _set_shtype(order, other_type)
    _set_shpower(order, None)
    return order


def _support_move(utype: UnitType, loc: str, mover_loc: str, mover_type: UnitType, dest: str,
                  power: str) -> SupportMove:
    order: SupportMove = _new(SupportMove)
    _set_type(order, utype)
    _set_loc(order, loc)
    _set_power(order, power)
    _set_sloc(order, mover_loc)
    _set_smdest(order, dest)
    _set_stype(order, mover_type)
    _set_spower(order, None)
    return order


def _convoy(utype: UnitType, loc: str, army_loc: str, dest: str, power: str) -> Convoy:
    order: Convoy = _new(Convoy)
    _set_type(order, utype)
    _set_loc(order, loc)
    _set_power(order, power)
    _set_army_loc(order, army_loc)
    _set_convoy_dest(order, dest)
    _set_army_power(order, None)
    return order


class _Supports(dict[int, SupportHold | SupportMove | None]):
    """One unit's supports by support key (:meth:`MapTables.support_key`): of the unit there
    to hold, or of the move; None for the unit's own moves. Each is made the first time it is
    looked up (``__missing__``: no exception, no second pass)."""

    __slots__ = ("made", "named")

    def __init__(self, made: _Made, named: list[Occupant | Mover], own: tuple[int, ...]) -> None:
        super().__init__(dict.fromkeys(own))
        self.made = made
        self.named = named

    def __missing__(self, key: int) -> SupportHold | SupportMove:
        made = self.made
        named = self.named[key]
        support: SupportHold | SupportMove
        if len(named) == 2:
            support = _support_hold(made.utype, made.loc, named[0], named[1], made.power)
        else:
            support = _support_move(made.utype, made.loc, named[3], named[2], named[1],
                                    made.power)
        self[key] = support
        return support


_O = TypeVar("_O", bound=Order)

_MAX_HEADS = 64
"""How many sets of convoy destinations one :class:`_Made` keeps its head of orders for."""


class _Made:
    """The order values listed so far for one unit (type, location, power) in one variant.

    A movement phase lists some 600 orders and most of them were listed, unchanged, the phase
    before: looking each one up here by a small key is several times cheaper than making it
    again, and the facade can keep its strings by the identity of these values. The values are
    frozen, so sharing them between positions is safe; the table lives in ``variant.caches``,
    exactly as long as the variant, and is bounded by the map (``heads`` by :data:`_MAX_HEADS`).
    """

    __slots__ = ("utype", "loc", "power", "province", "reach", "fixed", "heads", "supports",
                 "convoy_moves", "convoys", "retreats", "_disband", "_build")

    def __init__(self, utype: UnitType, loc: str, power: str, tables: MapTables) -> None:
        self.utype = utype
        self.loc = loc
        self.power = power
        self.province = province_of(loc)
        moves, self.reach = tables.sorted_near.get((utype, loc), ((), ()))
        """``reach``: the provinces it can support into, sorted."""
        self.fixed: tuple[Order, ...] = (
            _hold(utype, loc, power), *[_move(utype, loc, d, False, power) for d in moves])
        """The hold and the moves without a convoy, in map order."""
        self.heads: dict[frozenset[str], tuple[Order, ...]] = {}
        """Where an army could go by convoy -> ``fixed`` and those moves, sorted."""
        self.supports = _Supports(self, tables.support_keys,
                                  tables.mover_keys.get((utype, loc), ()))
        """Support key -> its support (its own moves -> None: no support)."""
        self.convoy_moves: dict[tuple[str, bool], Move] = {}
        self.convoys: dict[tuple[str, str], Convoy] = {}
        self.retreats: dict[str, Retreat] = {}
        self._disband: Disband | None = None
        self._build: Build | None = None

    def disband(self) -> Disband:
        """Its disband (a retreat phase) or removal (an adjustment phase)."""
        disband = self._disband
        if disband is None:
            disband = self._disband = Disband(self.utype, self.loc, power=self.power)
        return disband

    def build(self) -> Build:
        """Its build."""
        build = self._build
        if build is None:
            build = self._build = Build(self.utype, self.loc, power=self.power)
        return build

    def head(self, convoy_reach: frozenset[str], land: frozenset[str]) -> tuple[Order, ...]:
        """The hold, the moves, then the moves by convoy to ``convoy_reach`` (sorted; marked
        ``via_convoy`` where the province is next door by ``land``)."""
        head = self.heads.get(convoy_reach)
        if head is not None:
            return head
        orders = list(self.fixed)
        convoy_moves = self.convoy_moves
        for dest in sorted(convoy_reach):
            key = (dest, dest in land)
            move = convoy_moves.get(key)
            if move is None:
                move = convoy_moves[key] = _move(self.utype, self.loc, dest, key[1], self.power)
            orders.append(move)
        if len(self.heads) >= _MAX_HEADS:
            self.heads.clear()
        head = self.heads[convoy_reach] = tuple(orders)
        return head

    def listed_convoys(self, pairs: list[tuple[str, str]]) -> tuple[Convoy, ...]:
        """Its convoys of these (army province, destination) pairs, sorted, once each."""
        convoys = self.convoys
        listed: list[Convoy] = []
        for pair in sorted(set(pairs)):
            convoy = convoys.get(pair)
            if convoy is None:
                convoy = convoys[pair] = _convoy(self.utype, self.loc, pair[0], pair[1],
                                                 self.power)
            listed.append(convoy)
        return tuple(listed)


def _no_made(variant: Variant) -> Bounded[tuple[UnitType, str, str], _Made]:
    return Bounded(max(_MAX_MADE, 2 * len(variant.map.locations)))


_MAX_MADE = 512
"""How many units' order values :data:`_made_of` keeps on a map of up to 256 locations (twice
the number of locations on a bigger map): (unit type, location, power) of the units on the
boards of the games being played (a classical board has 34 units at most; every place a unit
could stand, times the powers, is some 1,100). Up to some 20 KB each."""

_made_of: CacheSlot[Variant, Bounded[tuple[UnitType, str, str], _Made]] = CacheSlot(
    "listed order values", _no_made)
"""(unit type, location, power) -> :class:`_Made`, bounded by :data:`_MAX_MADE`. A unit whose
entry was dropped gets its order values made again: equal values, which is all that counts
(listed orders are recognised by value)."""


def _no_waives(_variant: Variant) -> dict[str, Waive]:
    return {}


_waives: CacheSlot[Variant, dict[str, Waive]] = CacheSlot("waives", _no_waives)
"""Power -> its waive as the listing gives it (one per power)."""


def _made_table(position: Position) -> Bounded[tuple[UnitType, str, str], _Made]:
    return _made_of(position.variant)


def _made_for(position: Position, utype: UnitType, loc: str, power: str) -> _Made:
    table = _made_table(position)
    made = table.get((utype, loc, power))
    if made is None:
        made = table[utype, loc, power] = _Made(utype, loc, power,
                                                tables_for(position.variant))
    return made


def _movement_orders(position: Position, power: str) -> dict[str, tuple[Order, ...]]:
    (into, may_convoy, convoyed_into, group_of_army, convoy_reach, convoys_of, tables,
     made_table, has_empty_convoys) = _movement_shared(position)
    into_of = into.__getitem__
    army_adj = tables.army_adj
    hooks = position.variant.hooks
    veto = hooks.order_veto if type(hooks).order_veto is not VariantHooks.order_veto else None
    # the orders of the variant's own kinds (none in most variants)
    extra = _kind_orders(position, power) if position.variant.kinds else None
    out: dict[str, tuple[Order, ...]] = {}
    for unit in position.units_of(power):
        loc, utype = unit.location, unit.type
        made = made_table.get((utype, loc, power))
        if made is None:
            made = _made_for(position, utype, loc, power)
        prov = made.province
        reach = convoy_reach.get(prov)
        # The supports into each province it reaches, in order, looked up all at once: its
        # own moves map to None, which the filter drops.
        keys: Iterable[int] = chain.from_iterable(map(into_of, made.reach))
        if prov in may_convoy and not convoyed_into.keys().isdisjoint(made.reach):
            spared = _needed_at_sea(made, convoyed_into, group_of_army, tables)
            if spared:
                keys = filterfalse(spared.__contains__, keys)
        orders: tuple[Order, ...] = (
            *(made.head(reach, army_adj[prov]) if reach else made.fixed),
            *cast("Iterator[Order]", filter(None, map(made.supports.__getitem__, keys))))
        convoy_pairs = convoys_of.get(prov)
        if convoy_pairs:
            orders = (*orders, *made.listed_convoys(convoy_pairs))
        if extra:
            orders = (*orders, *extra.get(loc, ()))
        if veto is not None:
            orders = tuple(o for o in orders if isinstance(o, Hold)
                           or veto(position, unit, o) is None)
        out[loc] = orders
    if has_empty_convoys:
        _add_empty_convoys(position, power, out)
    return out


def _kind_orders(position: Position, power: str) -> dict[str, tuple[Order, ...]]:
    """Unit location -> the orders of the variant's own kinds ``power`` may give it now."""
    out: dict[str, tuple[Order, ...]] = {}
    _add_kinds(position, power, out)
    return out


class _EmptyConvoyMoves(NamedTuple):
    """An army's moves that only a convoy through empty seas makes possible (4(a)(i))."""

    destinations: tuple[str, ...]
    component: frozenset[str]
    """The convoy spaces (fleets and empty seas) its chains may use."""
    starts: frozenset[str]
    """The spaces of the fleets that may begin its chains."""
    ends: frozenset[str]
    """The spaces of every fleet that may begin or end a chain."""


def _find_empty_convoy_moves(position: Position) -> dict[str, _EmptyConvoyMoves]:
    """Army province -> the moves it may make only by a convoy through empty seas (a
    variant's rule); no entry for an army with none."""
    rule = empty_convoys(position)
    out: dict[str, _EmptyConvoyMoves] = {}
    if rule is None:
        return out
    tables = tables_for(position.variant)
    units = position.units
    fleets = frozenset(p for p, u in units.items()
                       if u.type is UnitType.FLEET and p in tables.convoy_spaces)
    ends = frozenset(p for p in fleets if units[p].power == rule.power) if rule.own_ends \
        else fleets
    spaces = fleets | rule.spaces
    for prov, unit in units.items():
        if unit.power != rule.power or unit.type is not UnitType.ARMY \
                or prov not in tables.shores:
            continue
        start = tables.shore_convoy_spaces.get(prov, frozenset()) & ends
        if not start:
            continue
        seen = set(start)
        todo = list(start)
        while todo:
            for nxt in tables.convoy_adj[todo.pop()]:
                if nxt not in seen and nxt in spaces:
                    seen.add(nxt)
                    todo.append(nxt)
        component = frozenset(seen)
        shores = {d for s in component & ends for d in tables.convoy_shores[s]}
        reach = tables.convoy_reachable(prov, fleets)
        found = tuple(sorted(shores - reach - {prov}))
        if found:
            out[prov] = _EmptyConvoyMoves(found, component, start, component & ends)
    return out


_empty_convoy_moves: CacheSlot[Position, dict[str, _EmptyConvoyMoves]] = CacheSlot(
    "moves by convoy through empty seas", _find_empty_convoy_moves)
"""Each army's moves by convoy through empty seas, once per position."""


def _add_empty_convoys(position: Position, power: str, out: dict[str, tuple[Order, ...]],
                       ) -> None:
    """Add to ``power``'s listing the orders that convoys through empty seas alone make legal
    (a variant's rule): the holder's armies' moves, the convoys of the fleets at
    either end of such a chain (a fleet in its middle may be ordered to convoy too, but is not
    offered), and every unit's supports of those moves; each made as the order check reads
    it (only a variant with such a rule pays for this)."""
    moves = _empty_convoy_moves(position)
    if not moves:
        return
    tables = tables_for(position.variant)
    hooks = position.variant.hooks
    veto = hooks.order_veto if has_order_veto(position) else None
    army_type, fleet_type = UnitType.ARMY, UnitType.FLEET
    for unit in position.units_of(power):
        loc, prov, utype = unit.location, unit.province, unit.type
        candidates: list[Order] = []
        mine = moves.get(prov)
        if mine is not None:
            near = tables.army_adj.get(prov, frozenset())
            candidates += [Move(utype, loc, d, d in near, power=power)
                           for d in mine.destinations]
        reach = tables.reach(utype, loc)
        for army, found in moves.items():
            if army == prov:
                continue
            if utype is fleet_type and prov in found.ends:
                shores = tables.convoy_shores[prov]
                candidates += [Convoy(utype, loc, army, d, power=power)
                               for d in found.destinations
                               if prov in found.starts or d in shores]
            supports = [SupportMove(utype, loc, army, d, army_type, power=power)
                        for d in found.destinations if d in reach and d != prov]
            if supports and prov in found.component:
                # a fleet on the chains: not if every chain needs it (6.D.31)
                supports = [o for o in supports if normalize_order(position, o) == o]
            candidates += supports
        if veto is not None:
            candidates = [o for o in candidates if veto(position, unit, o) is None]
        if candidates:
            out[loc] = (*out.get(loc, ()), *candidates)


def _needed_at_sea(made: _Made, convoyed_into: dict[str, list[tuple[Mover, int]]],
                   group_of_army: dict[str, frozenset[str]], tables: MapTables) -> set[int]:
    """The support keys of the moves by convoy that need the fleet ``made`` lists orders for
    on every route: it cannot support them, as it cannot support and convoy at once
    (6.D.31)."""
    prov = made.province
    needed: set[int] = set()
    for target in convoyed_into.keys() & made.reach:
        for mover, key in convoyed_into[target]:
            group = group_of_army[mover[0]]
            if prov in group and mover[1] not in tables.reach_without(mover[0], group, prov):
                needed.add(key)
    return needed
