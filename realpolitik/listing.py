"""Every legal order of a power, listed: for the user interface, the bots and the facade.

:func:`legal_orders` lists, per location, every order of a power that
:func:`realpolitik.legality.check_order` would accept, already as the rules read it
(``tests/test_listing.py`` checks that the two agree on random positions). A listing is made once
per position, power and rules and kept in the position's caches as a :class:`ListedOrders`; an
order is in it when it is *equal* to a listed order (:meth:`ListedOrders.holds`), which is what
lets :class:`~realpolitik.game.Game` skip the check of listed orders and the adjudicator take them
as given (``adjudicate(..., checked=True)``).

A movement phase lists some 600 orders, most of them listed unchanged the phase before. Every
power's movement orders are listed at once, in one pass over the units
(:func:`_find_movement_listing`): each place a unit may stand has a code, and what a unit
contributes (its moves, as province ids and support keys) is read from lists indexed by it
(:class:`_UnitPlaces`, per variant); the order values are made once per unit (code, power) and
kept in the variant's caches (:class:`_Made`, a bounded table), supports looked up there by
small keys. Convoys are worked out only where an army stands on a shore next to a fleet that
may convoy (:class:`_ConvoyPlan`), from numbered answers of the map's convoy search
(:class:`_ConvoyAnswers`), and a fleet's convoys are kept under the numbers of the answers they
come from. Listed values are shared between positions and games of one variant, so a caller
may keep what it derives from them (the facade's order strings) by their value. The rule
questions (retreat options, adjustments, build sites) are :mod:`realpolitik.legality`'s.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import compress, filterfalse, repeat
from operator import is_
from types import MappingProxyType
from typing import Any, Final, NamedTuple, TypeVar, cast

from realpolitik.caches import Bounded, CacheSlot
from realpolitik.compiling import is_compiled
from realpolitik.geography import UnitType, province_of
from realpolitik.hooks import VariantHooks
from realpolitik.lazy_mapping import MadeOnRead
from realpolitik.legality import (
    adjustment_count,
    build_options,
    empty_convoys,
    has_order_veto,
    normalize_order,
    retreat_options,
    units_of_type,
    winter_removal_first,
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
    made_convoy,
    made_hold,
    made_move,
    made_support_hold,
    made_support_move,
    new_support_hold,
    new_support_move,
    set_support_hold_location,
    set_support_hold_power,
    set_support_hold_supported,
    set_support_hold_supported_power,
    set_support_hold_supported_type,
    set_support_hold_type,
    set_support_move_destination,
    set_support_move_location,
    set_support_move_power,
    set_support_move_supported,
    set_support_move_supported_power,
    set_support_move_supported_type,
    set_support_move_type,
)
from realpolitik.places import places_of
from realpolitik.position import PhaseType, Position
from realpolitik.rules import Rules, WaiveBuilds, rules_for
from realpolitik.variant import Variant

__all__ = [
    "ListedOrders",
    "UnitParts",
    "every_power_listed",
    "is_listed",
    "legal_orders",
    "listed_checker",
    "listed_orders",
    "movement_parts",
    "unit_orders",
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

    A movement listing asked for in parts (:func:`movement_parts`) is held as those parts:
    membership is then read from them (a support by its key), and :attr:`by_location` is made
    from them when first read.
    """

    __slots__ = ("power", "by_location", "_at", "_units", "_keys")

    def __init__(self, power: str, by_location: dict[str, tuple[Order, ...]] | None,
                 units: dict[str, UnitParts] | None = None,
                 keys: _SupportKeys | None = None) -> None:
        """``by_location`` is kept, not copied: the listing that made it lets go of it. Without
        it, ``units`` (location -> its :class:`UnitParts`) and the variant's ``keys`` say what
        is listed."""
        self.power = power
        self.by_location: Mapping[str, tuple[Order, ...]] = (
            MappingProxyType(by_location) if by_location is not None
            else MadeOnRead(units or {}, unit_orders))
        """Location -> the orders listed there (a unit's location; a build site's province;
        ``"waive"``)."""
        self._at = by_location
        """The same, looked up directly by :meth:`holds` (a look-up through the read-only
        proxy costs some 300 more instructions, for every order submitted); None for a
        listing held as parts."""
        self._units = units
        self._keys = keys

    def __contains__(self, order: object) -> bool:
        return isinstance(order, _ORDER_CLASSES) and self.holds(order)

    def holds(self, order: Order) -> bool:
        """True if an order equal to ``order`` is listed (``order in listed``, typed)."""
        # Equality, as ``in`` tests it; the listed object itself (the common case: a caller
        # giving back what was listed) is looked for first, as comparing values of different
        # kinds costs a Python call each. A waive has no location and is listed under
        # "waive"; a build on a coast under its province. Each build its cheaper idiom (one
        # test of the flag, the steps written out in each branch):
        if not _TYPED_LOOPS:
            # interpreted: the power tested first, getattr's default spares the isinstance
            # test, and the pipeline runs in C
            if order.power != self.power:
                return False
            by_location = self._at
            where = getattr(order, "location", "waive")
            if by_location is None:
                return self._in_parts(order, where)
            orders = by_location.get(where)
            if orders is None:
                orders = by_location.get(province_of(where), ())
            return any(map(is_, orders, repeat(order))) or order in orders
        # compiled: the waive's type tested and the location read natively (``getattr`` is a
        # generic look-up), the listed object looked for by a C loop over the tuple (``any``,
        # ``map`` and ``repeat`` are three generic calls and two global look-ups, some 3,000
        # instructions an order submitted), the power compared only when the order is not
        # a listed value (each of those is this power's)
        by_location = self._at
        where = "waive" if isinstance(order, Waive) else order.location
        if by_location is None:
            return order.power == self.power and self._in_parts(order, where)
        orders = by_location.get(where)
        if orders is None:
            orders = by_location.get(province_of(where), ())
        # (each value read as an object: read as an Order, each is tested against the
        # union's classes one by one, where only its identity is asked)
        values: tuple[object, ...] = orders
        for listed in values:
            if listed is order:
                return True
        return order.power == self.power and order in orders

    def _in_parts(self, order: Order, where: str) -> bool:
        """:meth:`holds` of a movement listing held as parts: the order is looked for among
        its unit's head or convoys, or, a support, found by its key."""
        units = self._units
        unit = units.get(where) if units is not None else None
        if unit is None:
            return False
        keys = self._keys
        if isinstance(order, SupportMove):
            key = None if keys is None else keys.find(
                keys.to_move, (order.supported_location, order.destination,
                               order.supported_type is _FLEET), order.supported_type)
        elif isinstance(order, SupportHold):
            key = None if keys is None else keys.find(
                keys.to_hold, (order.supported_location, order.supported_type is _FLEET),
                order.supported_type)
        else:
            orders = unit[PART_CONVOYS] if order.__class__ is Convoy else unit[PART_HEAD]
            return any(map(is_, orders, repeat(order))) or order in orders
        if key is None or key not in unit[PART_SUPPORT_KEYS] or key in unit[PART_SPARED]:
            return False
        listed = unit[PART_SUPPORT_OF](key)  # (None: its own move, no support)
        return listed is order or (listed is not None and listed == order)
    def __repr__(self) -> str:
        return f"<ListedOrders of {self.power}: {sum(map(len, self.by_location.values()))}>"


def listed_orders(position: Position, power: str, *, rules: Rules | None = None,
                  ) -> ListedOrders:
    """The :class:`ListedOrders` of ``power`` in ``position``: made once per position, power
    and rules (:func:`legal_orders` returns its ``by_location``)."""
    rules = rules or _DEFAULT_RULES
    listings = _listings(position)
    listed = listings.get(power, rules)
    if listed is None:
        powers = position.variant.power_ids
        if position.phase.type is PhaseType.MOVEMENT and power in powers:
            # every power's movement orders are listed at once (and the same under any
            # rules): each power gets its ListedOrders now, as a game asks for them all
            parts = _movement_parts.peek(position)
            if parts is not None and _movement_listing.peek(position) is None:
                # (listed in parts, for the facade: its orders are made when first read)
                keys = _support_keys(position.variant)
                for each in powers:
                    listings.put(each, rules,
                                 ListedOrders(each, None, parts.get(each) or {}, keys))
            else:
                listing = _movement_listing(position)
                for each in powers:
                    listings.put(each, rules, ListedOrders(each, listing.get(each) or {}))
            found = listings.get(power, rules)
            assert found is not None
            return found
        listed = ListedOrders(power, _legal_orders(position, power, rules))
        listings.put(power, rules, listed)
    return listed


def every_power_listed(position: Position, rules: Rules) -> dict[str, ListedOrders] | None:
    """Every power's :class:`ListedOrders` in a movement ``position`` under ``rules`` (each
    what :func:`listed_orders` gives), listed now if not yet, in a new dictionary that the
    caller keeps: a game asks about every power in a phase, and one look-up here spares one
    each. None in any other phase (each power is listed when asked)."""
    if position.phase.type is not PhaseType.MOVEMENT:
        return None
    powers = position.variant.power_ids
    if not powers:
        return None
    listed_orders(position, powers[0], rules=rules)  # (lists every power's at once)
    listings = _listings(position)
    first = listings.rules
    if rules is first or (first is not None and rules == first):
        return dict(listings.by_power)  # (a copy: the listing's own stays its own)
    return {power: listings.by_power_and_rules[power, rules] for power in powers}


class _SupportKeys:
    """The support keys of a variant's map (:meth:`MapTables.support_key`) by the names a
    support order gives: its supported unit's location, type and destination. Bounded by the
    map (it follows :attr:`MapTables.support_keys`, which is)."""

    __slots__ = ("named", "to_hold", "to_move")

    def __init__(self, variant: Variant) -> None:
        self.named = tables_for(variant).support_keys
        self.to_hold: dict[tuple[str, bool], int] = {}
        """(supported location, True for a fleet) -> the key of that unit."""
        self.to_move: dict[tuple[str, str, bool], int] = {}
        """(supported location, destination, True for a fleet) -> the key of that move."""

    def find(self, table: Mapping[_K, int], name: _K, utype: UnitType | None) -> int | None:
        """The support key of ``name`` in ``table`` (:attr:`to_hold` or :attr:`to_move`), of a
        unit of type ``utype``; None if a support is never listed for it (no type, or none the
        map knows)."""
        key = table.get(name)
        if key is None and utype is not None \
                and len(self.to_hold) + len(self.to_move) < len(self.named):
            self._index()  # (keys were given since: the map's convoy moves, as met)
            key = table.get(name)
        return key

    def _index(self) -> None:
        for key in range(len(self.to_hold) + len(self.to_move), len(self.named)):
            named = self.named[key]
            if len(named) == 2:
                self.to_hold[named[0], named[1] is _FLEET] = key
            else:
                self.to_move[named[3], named[1], named[2] is _FLEET] = key


_support_keys: Final[CacheSlot[Variant, _SupportKeys]] = CacheSlot(
    "support keys by name", _SupportKeys)
"""The variant's :class:`_SupportKeys` (bounded by its map)."""

# (Final: compiled, the module's constants are C statics, not a look-up in its dictionary
# each time a loop reads them)
_FLEET: Final = UnitType.FLEET
_K = TypeVar("_K")


class _Listings:
    """The :class:`ListedOrders` made in one position, by power and rules (one per power and
    rules asked). A game asks under one set of rules, the same object every time: those of
    the first rules asked are kept by power alone, found when the rules given are that object
    (or equal to it), without hashing the rules (a Python call, ``rules.py`` being
    interpreted, some 400 instructions a look-up compiled); any other rules' by (power,
    rules)."""

    __slots__ = ("rules", "by_power", "by_power_and_rules")

    def __init__(self, _position: Position) -> None:
        self.rules: Rules | None = None
        """The rules first asked under."""
        self.by_power: dict[str, ListedOrders] = {}
        """Power -> its listed orders under :attr:`rules`."""
        self.by_power_and_rules: dict[tuple[str, Rules], ListedOrders] = {}
        """(power, rules) -> its listed orders under any other rules."""

    def get(self, power: str, rules: Rules) -> ListedOrders | None:
        """The listed orders of ``power`` under ``rules``, if made."""
        if rules is self.rules or (self.rules is not None and rules == self.rules):
            return self.by_power.get(power)
        return self.by_power_and_rules.get((power, rules))

    def put(self, power: str, rules: Rules, listed: ListedOrders) -> None:
        """Keep ``listed``, the listed orders of ``power`` under ``rules``."""
        if self.rules is None:
            self.rules = rules
        if rules is self.rules or rules == self.rules:
            self.by_power[power] = listed
        else:
            self.by_power_and_rules[power, rules] = listed

    def __bool__(self) -> bool:
        return bool(self.by_power or self.by_power_and_rules)

    def items(self) -> list[tuple[tuple[str, Rules], ListedOrders]]:
        """((power, rules), listed orders) of every listing kept."""
        first = self.rules
        kept = [] if first is None else [((power, first), listed)
                                         for power, listed in self.by_power.items()]
        return kept + list(self.by_power_and_rules.items())


_listings: Final[CacheSlot[Position, _Listings]] = CacheSlot("legal orders", _Listings)
"""The power's :class:`ListedOrders` in the position by power and rules (:class:`_Listings`:
one per power and rules asked)."""


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
                                           else self.listings.get(power, self.rules))
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
    listed = _listings(position).get(power, rules)
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
            if retreats is _UNMADE:
                retreats = made.retreats = {}
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
    count = adjustment_count(position, power)
    out: dict[str, tuple[Order, ...]] = {}
    values = _winter_values(position.variant)
    if count > 0:
        for province, builds in build_options(position, power):
            out[province] = tuple([values.build(utype, loc, power) for utype, loc in builds])
        if rules.waive is WaiveBuilds.ALLOWED:
            out["waive"] = values.waive(power)
    elif count < 0:
        first = winter_removal_first(position, power)
        if first is not None and units_of_type(position, power, first) < -count:
            first = None  # it removes all of them, and others too
        for unit in position.units_of(power):
            if first is None or unit.type is first:
                out[unit.location] = values.removal(unit.type, unit.location, power)
    if values.has_kinds:
        _add_kinds(position, power, out)
    return out


class _WinterValues:
    """The builds, removals and waives the listing gives, made once per variant: a winter
    lists the same ones again and again. Bounded by the map: a build and a removal per
    (unit type, location, power), a waive per power."""

    __slots__ = ("builds", "removals", "waives", "has_kinds")

    def __init__(self, variant: Variant) -> None:
        # (keyed by whether the unit is a fleet, not by its type: an enum member hashes
        # through a Python call, ``Enum.__hash__``, some 1,000 instructions a look-up compiled)
        self.builds: dict[tuple[bool, str, str], Build] = {}
        """(a fleet?, location, power) -> the build of that unit."""
        self.removals: dict[tuple[bool, str, str], tuple[Order]] = {}
        """(a fleet?, location, power) -> its removal, alone in a tuple (as listed)."""
        self.waives: dict[str, tuple[Order]] = {}
        """Power -> its waive, alone in a tuple (as listed)."""
        self.has_kinds = bool(variant.kinds)
        """True if the variant has orders of its own kinds (asked once: the registry's truth
        is a Python call)."""

    def build(self, utype: UnitType, loc: str, power: str) -> Build:
        """The build of this unit."""
        key = (utype is _FLEET, loc, power)
        build = self.builds.get(key)
        if build is None:
            build = self.builds[key] = Build(utype, loc, power=power)
        return build

    def removal(self, utype: UnitType, loc: str, power: str) -> tuple[Order]:
        """The removal of this unit, as listed."""
        key = (utype is _FLEET, loc, power)
        removal = self.removals.get(key)
        if removal is None:
            removal = self.removals[key] = (Disband(utype, loc, power=power),)
        return removal

    def waive(self, power: str) -> tuple[Order]:
        """The waive of ``power``, as listed."""
        waive = self.waives.get(power)
        if waive is None:
            waive = self.waives[power] = (Waive(power),)
        return waive


_winter_values: Final[CacheSlot[Variant, _WinterValues]] = CacheSlot(
    "listed builds, removals and waives", _WinterValues)
"""The variant's :class:`_WinterValues` (bounded by its map and powers)."""


def _add_kinds(position: Position, power: str, out: dict[str, tuple[Order, ...]]) -> None:
    """Add to ``out`` the orders of the variant's own kinds given in this phase."""
    for kind in position.variant.kinds.in_phase(position.phase.type):
        for where, orders in kind.listed(position, power).items():
            out[where] = (*out.get(where, ()), *orders)


class _UnitPlaces:
    """A variant's places as the movement listing reads them, numbered: every (unit type,
    location) a unit may stand at gets a code, and what the listing looks up for a unit each
    phase is a list indexed by its code; provinces are :func:`places_of`'s ids. Made once per
    variant, sized by its map (a code per location and unit type at most)."""

    __slots__ = ("tables", "provinces", "province_id", "names", "code", "army_code",
                 "fleet_code", "province", "made_keys", "power_rows", "all_powers", "vetoes",
                 "has_kinds",
                 "may_convoy_empty",
                 "occupant_at", "moves_at", "fleet_bit", "shore_seas", "convoy_near",
                 "place_parts", "key_at", "slot_of", "occupant_slot_at", "moves_slot_at",
                 "by_convoy_from", "spare_table")

    def __init__(self, variant: Variant) -> None:
        tables = self.tables = tables_for(variant)
        places = places_of(variant)
        pid = self.province_id = places.province_id
        self.provinces = len(places.provinces)
        """How many provinces the map has."""
        self.names = places.provinces
        """Province id -> its name."""
        standing = list(tables.sorted_near)
        self.code: dict[tuple[UnitType, str], int] = {key: i for i, key in enumerate(standing)}
        """(unit type, location) -> its code."""
        self.army_code: dict[str, int] = {
            loc: i for i, (utype, loc) in enumerate(standing) if utype is UnitType.ARMY}
        """Location -> the code of an army there (looked up by the location alone: cheaper
        than hashing a (type, location) key, in either build)."""
        self.fleet_code: dict[str, int] = {
            loc: i for i, (utype, loc) in enumerate(standing) if utype is UnitType.FLEET}
        """Location -> the code of a fleet there."""
        self.province: list[int] = [pid[province_of(loc)] for _, loc in standing]
        """Code -> the id of the unit's province."""
        self.all_powers = frozenset(variant.power_ids)
        """The variant's powers (whose movement orders are listed at once)."""
        hooks = variant.hooks
        kind = type(hooks)
        # (what the variant's hooks and kinds say once per variant: compiled, each is a
        # generic look-up on an interpreted class, or a Python call, every phase)
        self.vetoes = kind.order_veto is not VariantHooks.order_veto
        """True if the variant's hooks veto orders (:meth:`VariantHooks.order_veto`)."""
        self.has_kinds = bool(variant.kinds)
        """True if the variant has orders of its own kinds."""
        self.may_convoy_empty = kind.empty_convoys is not VariantHooks.empty_convoys
        """False if no position of the variant has convoys through empty seas (its hooks keep
        the default: :func:`empty_convoys` is then None everywhere)."""
        self.made_keys: dict[str, list[object]] = {
            power: list(range(number * len(standing), (number + 1) * len(standing)))
            for number, power in enumerate(variant.power_ids)}
        """Power of the variant -> code -> the key of that unit's :class:`_Made` in
        :data:`_made_of` (an int, the same object every phase: cheaper to hash and compare
        than a (code, power) tuple made per unit, in either build). A power the variant does
        not name is keyed by such a tuple (:func:`_made_key`). Sized by the map and the
        powers."""
        self.power_rows: tuple[tuple[str, list[object]], ...] = tuple(self.made_keys.items())
        """(power, its row of :attr:`made_keys`) of each power of the variant, in order."""
        self.occupant_at: list[tuple[int, object]] = [
            (prov_id, tables.occupant_keys[key])
            for prov_id, key in zip(self.province, standing, strict=True)]
        """Code -> (the id of the unit's province, its support key to hold
        (:meth:`MapTables.support_key`)). The keys are ints typed ``object`` here and in the
        listing's table of keys by province: compiled, an ``int`` would be unboxed and boxed
        again as a new object, which the supports' look-up compares by value (see
        :class:`_Supports`)."""
        self.moves_at: list[tuple[tuple[int, object], ...]] = [
            tuple(zip(map(pid.__getitem__, tables.moves_into[key]), tables.mover_keys[key],
                      strict=True)) for key in standing]
        """Code -> (province id, support key) of each move it can make without a convoy."""
        convoying = tables.convoy_spaces
        # (the convoy plan's masks number the provinces as the map's convoy searches do,
        # :attr:`MapTables.convoy_index`: the convoy spaces first, so that a mask of fleets is
        # a machine word compiled, on the classical map and any other of up to 62 of them)
        cid = tables.convoy_index
        self.fleet_bit: list[int] = [
            1 << cid[province_of(loc)]
            if utype is UnitType.FLEET and province_of(loc) in convoying else 0
            for utype, loc in standing]
        """Code -> for a fleet that may convoy (:attr:`MapTables.convoy_spaces`), the bit of
        its province; 0 for any other unit. The convoy plan works on masks of provinces (bit
        ``k``: :attr:`MapTables.convoy_order`'s ``k``-th)."""
        self.shore_seas: list[int] = [
            _mask_of(cid, tables.shore_convoy_spaces[loc])
            if utype is UnitType.ARMY and loc in tables.shores else 0
            for utype, loc in standing]
        """Code -> for an army on a shore (:attr:`MapTables.shores`: it could be convoyed), the
        mask of the convoy spaces next to it; 0 for any other unit."""
        self.convoy_near: list[int] = [
            _mask_of(cid, tables.convoy_adj.get(name, ())) for name in tables.convoy_order]
        """Province index (:attr:`MapTables.convoy_index`) -> the mask of the convoy spaces next
        to it, if it is one (else 0)."""
        self.place_parts: dict[int, _PlaceParts] = {}
        """Code -> its place's :data:`_PlaceParts`, made when a unit is first listed there
        (bounded by the map: an entry per place a unit may stand)."""
        self.key_at: list[list[object]] = [[] for _ in places.provinces]
        """Province id -> slot -> the support key of what could be supported into it: the
        support keys into each province numbered from 0 (a unit's supports into a province it
        reaches are kept in a list by these slots, :attr:`_Made.rows`: compiled, reading a list
        by a small int costs a fraction of a dictionary look-up by the key). The map's keys
        first; a move by convoy's key gets the next slot when first met (bounded by the
        map's support keys)."""
        self.slot_of: list[dict[object, int]] = [{} for _ in places.provinces]
        """Province id -> support key -> its slot there (:attr:`key_at` read backwards)."""
        self.occupant_slot_at: list[tuple[int, object]] = [
            (prov_id, self.slot(prov_id, key)) for prov_id, key in self.occupant_at]
        """Code -> (the id of the unit's province, the slot there of its support key to
        hold): :attr:`occupant_at` by slot, for the compiled listing."""
        self.moves_slot_at: list[tuple[tuple[int, object], ...]] = [
            tuple([(prov_id, self.slot(prov_id, key)) for prov_id, key in moves])
            for moves in self.moves_at]
        """Code -> (province id, the slot there of its support key) of each move it can make
        without a convoy: :attr:`moves_at` by slot."""
        self.spare_table: list[list[object]] | None = None
        """The compiled listing's table of slots by province (:func:`_list_movement`), kept
        from one listing to the next to be emptied and filled again, not made and freed (sized
        by the map: a list per province, each holding the slots of one listing). Taken while
        a listing fills it (None meanwhile): never handed to a caller."""
        self.by_convoy_from: list[int] = [len(keys) for keys in self.key_at]
        """Province id -> its first slot of a move by convoy's key (the map's own keys have
        the slots before: :meth:`slot` gives the keys of moves by convoy later, as met)."""

    def slot(self, prov_id: int, key: object) -> int:
        """The slot of support key ``key`` into province id ``prov_id`` (given now if new)."""
        slots = self.slot_of[prov_id]
        found = slots.get(key)
        if found is None:
            keys = self.key_at[prov_id]
            found = slots[key] = len(keys)
            keys.append(key)
        return found


def _made_key(numbered: _UnitPlaces, code: int, power: str) -> object:
    """The key in :data:`_made_of` of the unit of code ``code`` and power ``power``."""
    row = numbered.made_keys.get(power)
    return row[code] if row is not None else (code, power)


def _mask_of(province_id: Mapping[str, int], provinces: Iterable[str]) -> int:
    """The mask of ``provinces`` (bit ``k``: province id ``k``)."""
    mask = 0
    for province in provinces:
        mask |= 1 << province_id[province]
    return mask


_unit_places: Final[CacheSlot[Variant, _UnitPlaces]] = CacheSlot(
    "places numbered for the listing", _UnitPlaces)
"""The variant's :class:`_UnitPlaces` (sized by its map)."""


class _ConvoyAnswer:
    """:meth:`MapTables.convoy_reach`'s answer for one army and group of fleets, numbered and
    indexed the way the listing reads it. A plain class with slots, not a named tuple:
    compiled, its fields are read from the native struct (a named tuple's are generic
    attribute look-ups through a property, some 200 instructions each); interpreted, a slot is
    the cheaper read too."""

    __slots__ = ("serial", "serial_key", "origin", "reach", "by_convoy", "key_into", "pairs_of",
                 "fleets", "fleet_ids", "group", "group_mask", "keys_into", "slots_into")

    def __init__(self, serial: int, origin: str, reach: frozenset[str],
                 by_convoy: tuple[tuple[str, Mover, int], ...], key_into: dict[str, int],
                 pairs_of: dict[str, tuple[tuple[str, str], ...]], fleets: frozenset[str],
                 fleet_ids: tuple[int, ...], group: frozenset[str], group_mask: int,
                 keys_into: tuple[tuple[int, object], ...]) -> None:
        self.serial = serial
        """A number never given to another answer: a fleet's convoys and the supports it must
        leave out are kept under the serials of the answers they were made from
        (:meth:`_Made.convoy_part`)."""
        self.serial_key: tuple[int, ...] = (serial,)
        """``(serial,)``: the key of the convoy part of a fleet this answer alone changes
        (:attr:`_FleetSources.serials`), made once, not each phase."""
        self.origin = origin
        """The province of the army the answer is for."""
        self.reach = reach
        """The coastal provinces the army could reach by convoy."""
        self.by_convoy = by_convoy
        """(province, move, support key) of its moves by convoy to provinces not next to it."""
        self.key_into = key_into
        """Province -> the support key of its move by convoy there, for those moves."""
        self.pairs_of = pairs_of
        """Fleet -> the (army province, destination) pairs it is needed to convoy on some
        route, sorted, each once."""
        self.fleets = fleets
        """The fleets of the group whose orders the answer changes: those needed on some route
        (they may convoy) and those that could support a move by convoy (they may have to
        leave the support out, 6.D.31). The others' orders are as if the army were not there,
        so a big group's fleets are not all looked at for every army next to it."""
        self.fleet_ids = fleet_ids
        """The same, as province ids (:func:`places_of`), in a tuple (what the convoy plan
        walks: its table by province id is read natively, where a dictionary by name hashes
        and compares strings)."""
        self.group = group
        """The group of fleets (their provinces) the answer is for."""
        self.group_mask = group_mask
        """The same, as a mask of provinces (bit ``k``: :attr:`MapTables.convoy_order`'s
        ``k``-th)."""
        self.keys_into = keys_into
        """In step with ``by_convoy``: (province id, the move's support key)."""
        self.slots_into: tuple[tuple[int, object], ...] | None = None
        """The same by slot: (province id, the slot there of the move's support key,
        :attr:`_UnitPlaces.key_at`), for the compiled listing (made when it first reads it,
        :meth:`by_slot`)."""

    def by_slot(self, numbered: _UnitPlaces) -> tuple[tuple[int, object], ...]:
        """:attr:`slots_into`, made if not yet (slots given in ``numbered`` as needed)."""
        slots_into = self.slots_into
        if slots_into is None:
            slots_into = self.slots_into = tuple([
                (prov_id, numbered.slot(prov_id, key)) for prov_id, key in self.keys_into])
        return slots_into


class _ConvoyAnswers:
    """:meth:`MapTables.convoy_reach`'s answers as :class:`_ConvoyAnswer`, by (army province,
    group of fleets) as (province id, mask of the fleets' provinces by
    :attr:`MapTables.convoy_index`), up to :data:`_MAX_CONVOY_ANSWERS` of them."""

    __slots__ = ("answers", "made", "support_reach", "last")

    def __init__(self, variant: Variant) -> None:
        self.answers: Bounded[tuple[int, int], _ConvoyAnswer] = Bounded(_MAX_CONVOY_ANSWERS)
        self.last: list[_ConvoyAnswer | None] = [None] * len(places_of(variant).provinces)
        """Province id of an army -> the answer last given for it (the convoy plan looks here
        first: from phase to phase an army mostly keeps its group of fleets, and a list read
        and a comparison of masks cost a fraction of the table's look-up by a tuple). Bounded
        by the map; an answer dropped from ``answers`` meanwhile is still a true answer."""
        self.made = 0
        """How many serials were given."""
        self.support_reach: dict[str, frozenset[str]] = {}
        """Province of a fleet -> :func:`_fleet_support_reach` there, as met (bounded by the
        map: an entry per province)."""

    def answer(self, numbered: _UnitPlaces, army: int, group_mask: int) -> _ConvoyAnswer:
        """The answer of the army in province id ``army`` with the fleets in the provinces of
        ``group_mask``."""
        key = (army, group_mask)
        found = self.answers.get(key)
        if found is None:
            self.made += 1
            tables = numbered.tables
            group = frozenset(_names_in(tables.convoy_order, group_mask))
            origin = numbered.names[army]
            # (the map's search on the mask itself: its own table of answers by the group's
            # names is not read, these answers being kept here)
            reach, by_convoy, needed = tables.convoy_reach_of_mask(origin, group_mask)
            # (each fleet's pairs come once each and sorted: not sorted again in every fleet's
            # convoy part made from the answer, :meth:`_Made.convoy_part`)
            pairs_of = dict(needed)
            dests = frozenset([dest for dest, _, _ in by_convoy])
            support_reach = self.support_reach
            fleets: set[str] = set()
            for fleet in group:
                if fleet not in pairs_of:
                    if not dests:
                        continue
                    fleet_reach = support_reach.get(fleet)
                    if fleet_reach is None:
                        fleet_reach = support_reach[fleet] = _fleet_support_reach(tables, fleet)
                    if dests.isdisjoint(fleet_reach):
                        continue
                fleets.add(fleet)
            pid = numbered.province_id
            keys_into: tuple[tuple[int, object], ...] = tuple([
                (pid[dest], move_key) for dest, _, move_key in by_convoy])
            found = self.answers[key] = _ConvoyAnswer(
                self.made, origin, reach, by_convoy, {dest: key for dest, _, key in by_convoy},
                pairs_of, frozenset(fleets), tuple([pid[fleet] for fleet in fleets]), group,
                group_mask, keys_into)
        return found


def _names_in(names: tuple[str, ...], mask: int) -> Iterator[str]:
    """The names of the provinces in ``mask``, lowest id first."""
    while mask:
        low = mask & -mask
        yield names[low.bit_length() - 1]
        mask ^= low


def _fleet_support_reach(tables: MapTables, province: str) -> frozenset[str]:
    """The provinces a fleet in ``province`` could support into, on any of its coasts."""
    return frozenset().union(*(tables.fleet_reach.get(loc, frozenset())
                               for loc in tables.coasts.get(province) or (province,)))


_MAX_CONVOY_ANSWERS = 1024
"""How many answers :class:`_ConvoyAnswers` keeps (as :meth:`MapTables.convoy_reach` does)."""

_convoy_answers: Final[CacheSlot[Variant, _ConvoyAnswers]] = CacheSlot(
    "numbered convoy answers", _ConvoyAnswers)
"""The variant's :class:`_ConvoyAnswers` (bounded by :data:`_MAX_CONVOY_ANSWERS`)."""

class _FleetSources:
    """The convoy answers that change one fleet's orders in a position (it is in their
    :attr:`_ConvoyAnswer.fleets`), in the order of the units, and their serials."""

    __slots__ = ("answers", "serials")

    def __init__(self, answer: _ConvoyAnswer) -> None:
        self.answers: list[_ConvoyAnswer] = [answer]
        """The answers (each names its army: :attr:`_ConvoyAnswer.origin`)."""
        self.serials: tuple[int, ...] = answer.serial_key
        """Their serials, in step (what its convoys are kept under: :meth:`_Made.convoy_part`)."""

    def add(self, answer: _ConvoyAnswer) -> None:
        """Add ``answer`` (of the next army in the order of the units)."""
        self.answers.append(answer)
        # (compiled, ``+`` of two tuples is one generic call; ``(*serials, serial)`` builds a
        # list and turns it into a tuple, some 600 instructions)
        self.serials = self.serials + (answer.serial,)


class _ConvoyPlan:
    """What the convoys of one position add to the movement listing: worked out once per
    position, only where some army stands on a shore next to a fleet that may convoy. Kept by
    province id (:func:`places_of`), not by name: compiled, a list read by a small int is a
    few native steps, where a dictionary or set of names hashes and compares a string."""

    __slots__ = ("at", "by_convoy_at")

    def __init__(self, provinces: int) -> None:
        self.at: list[_ConvoyAnswer | _FleetSources | None] = [None] * provinces
        """Province id -> for a unit whose orders the convoys change: an army that could be
        convoyed, its :class:`_ConvoyAnswer` (where it could go by convoy, not empty); a fleet
        the answers change (:attr:`_ConvoyAnswer.fleets`), its :class:`_FleetSources`. None
        for any other."""
        self.by_convoy_at: list[tuple[int, _ConvoyAnswer]] = []
        """(index of the army among the units, its convoy answer), in the order of the units,
        for the armies with moves by convoy to provinces not next to them."""


def _plan_convoys(variant: Variant, codes: list[int], numbered: _UnitPlaces,
                  ) -> _ConvoyPlan | None:
    """The position's :class:`_ConvoyPlan` (``codes``: its units' codes, in order); None if no
    army could be convoyed. Worked out on masks of provinces: the fleets that may convoy, the
    convoy spaces next to each army on a shore, the group of fleets joined to them."""
    # (provinces are distinct, so the sum of the fleets' bits is their mask; compiled, a typed
    # loop, interpreted, the C pipeline: each build's faster idiom, as in _with_slots)
    fleets = 0
    if _TYPED_LOOPS:
        fleet_bit = numbered.fleet_bit
        for code in codes:
            bit = fleet_bit[code]
            if bit:
                fleets |= bit
    else:
        fleets = sum(map(numbered.fleet_bit.__getitem__, codes))
    if not fleets:
        return None
    plan: _ConvoyPlan | None = None
    convoy_near = numbered.convoy_near
    # (a list by province id, not a dictionary: compiled, each entry a boxed int key hashed
    # and stored; the ``[0] *`` list costs less than the few stores it spares)
    groups: list[int] = [0] * numbered.provinces
    """Province id of a fleet -> the mask of its group (the fleets joined to it; 0 while not
    found)."""
    answers = _convoy_answers(variant)
    table, last = answers.answers, answers.last
    shore_seas = numbered.shore_seas
    # (the armies next to a fleet picked out in C, or by a typed loop compiled: most units are
    # not; an army inland or a fleet has no seas)
    near_fleets: Iterable[int]
    if _TYPED_LOOPS:
        near_fleets = []
        for index in range(len(codes)):
            seas = shore_seas[codes[index]]
            if seas and seas & fleets:
                near_fleets.append(index)
    else:
        near_fleets = compress(range(len(codes)), map(fleets.__and__,
                                                      map(shore_seas.__getitem__, codes)))
    for index in near_fleets:
        seas = shore_seas[codes[index]] & fleets
        if plan is None:
            plan = _ConvoyPlan(numbered.provinces)
        group = 0
        while seas:  # the groups of the fleets next to the army, joined
            low = seas & -seas
            seas ^= low
            found = groups[low.bit_length() - 1]
            if not found:  # a group not met yet: every fleet joined to this one
                found = frontier = low
                while frontier:
                    near = 0
                    while frontier:
                        bit = frontier & -frontier
                        frontier ^= bit
                        near |= convoy_near[bit.bit_length() - 1]
                    frontier = near & fleets & ~found
                    found |= frontier
                members = found
                while members:
                    bit = members & -members
                    members ^= bit
                    groups[bit.bit_length() - 1] = found
            group |= found
            seas &= ~found
        prov_id = numbered.province[codes[index]]
        answer = last[prov_id]
        if answer is None or answer.group_mask != group:
            # (compiled, ``get`` on the table is read directly: see _list_movement)
            answer = table.get((prov_id, group))
            if answer is None:
                answer = answers.answer(numbered, prov_id, group)
            last[prov_id] = answer
        if not answer.reach:
            continue
        at = plan.at
        at[prov_id] = answer
        for fleet_id in answer.fleet_ids:
            sources = at[fleet_id]
            if sources is None:
                at[fleet_id] = _FleetSources(answer)
            elif isinstance(sources, _FleetSources):  # (always: a fleet is no army)
                sources.add(answer)
        if answer.by_convoy:
            plan.by_convoy_at.append((index, answer))
    return plan


_present: Final[Callable[[None, Iterable[Order | None]], Iterator[Order]]] = filter
"""``filter``, typed for the supports the listing looks up (None for a unit's own moves)."""


_NOTHING_SPARED: Final[frozenset[int]] = frozenset()

_NOTHING_TOUCHED: Final[list[_ConvoyAnswer | _FleetSources | None]] = []
"""The convoy plan's table by province where there is no plan (never read nor added to)."""

_NO_KEYS: Final[list[object]] = []
"""The support keys the compiled listing joins for a unit when listing its orders: none (its
typed loops read them from the table by province as they go). Never added to."""



def _with_slots(made: _Made, head: tuple[Order, ...], into: list[list[object]],
                numbered: _UnitPlaces, spared: frozenset[int] = _NOTHING_SPARED,
                tail: tuple[Order, ...] = ()) -> tuple[Order, ...]:
    """A unit's orders, compiled: ``head``, then its supports of what could be supported
    ``into`` each province it reaches (``made.reach_ids``; by slot, :attr:`_UnitPlaces.key_at`
    giving the support key of each), in order (but its own moves and ``spared``), then
    ``tail``.

    The two builds want different idioms for this step (``docs/compat.md``, "The compiled
    path"): compiled, this typed loop reads each support from the unit's list for that
    province by its slot (:attr:`_Made.rows`: a C array read, where a dictionary look-up by
    the key costs some 110 instructions); interpreted, the ``filter(None, map(...))``
    pipeline over the keys joined first (:func:`_list_movement`) is the cheaper.
    ``tests/test_listing.py`` checks that both give the same orders."""
    rows = made.rows
    if rows is None:
        rows = made.made_rows()
    key_at = numbered.key_at
    has_spared = len(spared) != 0  # (compiled, a size read: ``bool()`` is a generic call)
    # (what a fleet spares are supports of moves by convoy, whose keys have the slots after
    # the map's own: only those are looked for in ``spared``)
    by_convoy_from = numbered.by_convoy_from
    orders: list[object] = list(head)
    index = 0
    for reached in made.reach_ids:
        row = rows[index]
        index += 1
        for slot_object in into[reached]:
            slot = cast(int, slot_object)
            if slot >= len(row):  # (a move by convoy's key, met after the row was made)
                row += [None] * (slot + 1 - len(row))
            support = row[slot]
            if support is None:
                support = _slot_support(made, row, slot, key_at[reached][slot])
            if support is _OWN:  # (its own move: no support)
                continue
            if has_spared and slot >= by_convoy_from[reached] \
                    and key_at[reached][slot] in spared:
                continue
            orders.append(support)
    if tail:
        orders.extend(tail)  # (compiled, a list call: ``+=`` is the generic in-place add)
    return cast(tuple[Order, ...], tuple(orders))


_OWN: Final = object()
"""In a unit's :attr:`_Made.rows`: the slot of one of its own moves (no support listed)."""


def _slot_support(made: _Made, row: list[object], slot: int, key: object) -> object:
    """The support by ``made``'s unit of support key ``key`` (not one of its own moves), made
    if new (kept in ``made.supports``, as the other paths read it) and put in ``row`` at
    ``slot``."""
    # (its own moves' slots are :data:`_OWN` in the row from the start, :meth:`_Made.made_rows`:
    # a slot still None is some other unit's, whose support may have been made by the other
    # paths, the facade's parts, already)
    support: object = made.supports.get(key)
    if support is None:
        support = _new_support(made, key)
    row[slot] = support
    return support


_TYPED_LOOPS: Final[bool] = is_compiled(_with_slots)
"""True where this module is compiled (its functions are then not Python functions): the
listing's hot loops take the idiom each build runs fastest (:func:`_with_slots`)."""


def _find_movement_listing(position: Position) -> dict[str, dict[str, tuple[Order, ...]]]:
    """Every power's movement orders (:func:`_list_movement` of the variant's powers)."""
    return _list_movement(position, _unit_places(position.variant).all_powers)


def _list_movement(position: Position, powers: frozenset[str],
                   parts: defaultdict[str, dict[str, UnitParts]] | None = None,
                   ) -> dict[str, dict[str, tuple[Order, ...]]]:
    """The movement orders of ``powers`` (power -> location -> orders), listed in one pass
    over the units. With ``parts``, the orders are not made: each unit's :class:`UnitParts`
    is put in ``parts`` instead (power -> location -> its parts) and nothing is returned,
    where the variant's listing is made of parts alone (no order veto, orders of its own kinds
    or convoys through empty seas; else the orders are listed and ``parts`` left empty).

    First, for every province, the support keys (:meth:`MapTables.support_key`) of what a
    unit could support into it: the unit in it (to hold), then every move some unit could make
    into it, in the order of the units (an army's moves by convoy right after its own moves).
    Then each unit's orders: its hold and moves (and moves by convoy), its supports into each
    province it reaches, in order (its own moves dropped), and its convoys.
    """
    variant = position.variant
    numbered = _unit_places(variant)
    tables = numbered.tables
    units = position.units
    unit_list = list(units.values())
    army_code, fleet_code = numbered.army_code, numbered.fleet_code
    codes = [(fleet_code if unit.type is _FLEET else army_code)[unit.location]
             for unit in unit_list]
    plan = _plan_convoys(variant, codes, numbered)
    veto = variant.hooks.order_veto if numbered.vetoes else None
    # the orders of the variant's own kinds, per power (none in most variants)
    extras: dict[str, dict[str, tuple[Order, ...]]] | None = {} if numbered.has_kinds else None
    convoys_empty = numbered.may_convoy_empty and empty_convoys(position) is not None
    if parts is not None and (extras is not None or veto is not None or convoys_empty):
        parts = None  # (its listing is not made of parts alone)
    # (a list per province: looked up by index, the listing costs some 6% less than with a
    # dictionary of the provinces acted on; the empty lists cost about 2 us a phase on the
    # classical map and 80 us on one of 2,000 spaces, where the listing takes some 4 ms)
    # (over the names, not a range: compiled, a range's ints are boxed one by one)
    # (compiled, the keys by their slots in each province: :func:`_with_slots`)
    by_slot = _TYPED_LOOPS and parts is None
    spare = numbered.spare_table if by_slot else None
    into: list[list[object]]
    if spare is None:
        into = [[] for _ in numbered.names]
    else:
        # (the variant's spare table, taken: compiled, the read and the store are two native
        # steps the interpreter cannot run anything between, so another thread listing a
        # position of the variant meanwhile finds none and makes its own; emptied here, its
        # lists are not made and freed again each phase, some 100 instructions each)
        numbered.spare_table = None
        into = spare
        for province_slots in into:
            province_slots.clear()
    # (plain loops over the codes: Python 3.11 runs ``into[p].append(k)`` as specialised
    # instructions, and mypyc compiles the loops over these lists and tuples to C loops)
    occupant_at = numbered.occupant_slot_at if by_slot else numbered.occupant_at
    for code in codes:
        prov_id, key = occupant_at[code]
        into[prov_id].append(key)
    moves_at = numbered.moves_slot_at if by_slot else numbered.moves_at
    if plan is None or not plan.by_convoy_at:
        for code in codes:
            for prov_id, key in moves_at[code]:
                into[prov_id].append(key)
    else:
        start = 0
        for index, answer in plan.by_convoy_at:
            for code in codes[start:index + 1]:
                for prov_id, key in moves_at[code]:
                    into[prov_id].append(key)
            for prov_id, key in (answer.by_slot(numbered) if by_slot else answer.keys_into):
                into[prov_id].append(key)
            start = index + 1
        for code in codes[start:]:
            for prov_id, key in moves_at[code]:
                into[prov_id].append(key)
    # (the units the convoys change by province id: :class:`_ConvoyPlan`)
    none_touched = plan is None
    touched_at = _NOTHING_TOUCHED if plan is None else plan.at
    province_of_code = numbered.province
    army_adj = tables.army_adj
    made_table = _made_of(variant)
    made_get = made_table.get
    made_keys = numbered.made_keys
    # (a plain dictionary: compiled, mypyc reads it directly, a defaultdict by the generic
    # subscript, some 200 instructions more a unit)
    out: dict[str, dict[str, tuple[Order, ...]]] = {}
    # Power listed -> (its row of keys of the order values' table, or None for a power the
    # variant does not name; its orders by location, put in ``out`` when its first unit is
    # listed, so that ``out`` has the powers with units in the order met): one look-up a unit
    # where a test of ``powers``, the row's and ``out``'s look-ups were three.
    per_power: dict[str, tuple[list[object] | None, dict[str, tuple[Order, ...]]]] = (
        {power: (row, {}) for power, row in numbered.power_rows}
        if powers is numbered.all_powers  # (every power of the variant: its rows in a tuple)
        else {power: (made_keys.get(power), {}) for power in powers})
    # (the units by a plain loop and their codes by a counter: compiled, a loop over a list
    # is a C loop, where ``zip`` is a generic iterator making a tuple a unit)
    index = -1
    for unit in unit_list:
        index += 1
        code = codes[index]
        power = unit.power
        listed = per_power.get(power)
        if listed is None:  # (a neutral unit: listed only when asked for)
            continue
        row, by_location = listed
        made_key = row[code] if row is not None else (code, power)
        # (compiled, ``get`` on the dict subclass is read directly; interpreted, the bound
        # method is the cheaper call)
        made = made_table.get(made_key) if _TYPED_LOOPS else made_get(made_key)
        if made is None:
            made = made_table[made_key] = _Made(unit.type, unit.location, power, numbered, code)
        # the support keys into each province it reaches, in order (its own moves map to None
        # in made.supports, which the filter drops); joined by a plain loop, which costs less
        # than chaining the lists (compiled, the listing's typed loops read them from ``into``
        # as they go: :func:`_with_slots`)
        keys: list[object] = _NO_KEYS  # (compiled, read from ``into`` as they go)
        if parts is not None or not _TYPED_LOOPS:
            keys = []
            for reached in made.reach_ids:
                keys += into[reached]
        supports: Iterable[object] = keys
        orders: tuple[Order, ...]
        touched = None if none_touched else touched_at[province_of_code[code]]
        if touched is None:
            if parts is not None:
                parts[power][made.loc] = (  # type: ignore[assignment]  # (keys: ints)
                    made.loc, code, None, made.fixed, keys, _NOTHING_SPARED, None, (),
                    made.support_of)
                continue
            orders = (_with_slots(made, made.fixed, into, numbered) if _TYPED_LOOPS else
                      (*made.fixed, *_present(None, map(made.support_of, supports))))
        elif isinstance(touched, _ConvoyAnswer):  # an army that could be convoyed
            reach = touched.reach
            head = made.heads.get(reach)
            if head is None:
                head = made.head(reach, army_adj[made.province])
            if parts is not None:
                parts[power][made.loc] = (  # type: ignore[assignment]  # (keys: ints)
                    made.loc, code, reach, head, keys, _NOTHING_SPARED, None, (),
                    made.support_of)
                continue
            orders = (_with_slots(made, head, into, numbered) if _TYPED_LOOPS else
                      (*head, *_present(None, map(made.support_of, supports))))
        else:  # a fleet that could convoy
            part = made.convoy_parts.get(serials := touched.serials)
            if part is None:
                part = made.convoy_part(serials, touched.answers)
            spared, convoys = part
            if parts is not None:
                parts[power][made.loc] = (  # type: ignore[assignment]  # (keys: ints)
                    made.loc, code, None, made.fixed, keys, spared, serials, convoys,
                    made.support_of)
                continue
            if _TYPED_LOOPS:
                orders = _with_slots(made, made.fixed, into, numbered, spared, convoys)
            else:
                if spared:
                    supports = filterfalse(spared.__contains__, supports)
                orders = (*made.fixed,
                          *_present(None, map(made.support_of, supports)),
                          *convoys)
        if extras is not None:
            extra = extras.get(power)
            if extra is None:
                extra = extras[power] = _kind_orders(position, power)
            orders = (*orders, *extra.get(unit.location, ()))
        if veto is not None:
            orders = tuple(o for o in orders if isinstance(o, Hold)
                           or veto(position, unit, o) is None)
        if not by_location:
            out[power] = by_location
        by_location[made.loc] = orders
    if by_slot:
        numbered.spare_table = into  # (for the next listing: only the slots of this one in it)
    if convoys_empty:
        for power in list(out):
            _add_empty_convoys(position, power, out[power])
    return out


_movement_listing: Final[CacheSlot[Position, dict[str, dict[str, tuple[Order, ...]]]]] = CacheSlot(
    "movement listing", _find_movement_listing)
"""Every power's movement orders (:func:`_find_movement_listing`), once per position (one
entry per power of the variant with units)."""


UnitParts = tuple[str, int, frozenset[str] | None, tuple[Order, ...], list[int], frozenset[int],
                  tuple[int, ...] | None, tuple[Order, ...], Callable[[int], Order | None]]
"""How the movement listing assembles one unit's orders, for a caller that derives something
per listed order (the facade's strings) and would rather not look each order up by its value:
its orders (:func:`unit_orders`) are the head, then the supports of its support keys (but the
unit's own moves and the spared ones) in order, then its convoys. Its fields, read by the
indexes named ``PART_...`` (a plain tuple, not a named one: a tuple of the interpreter's
free list, which the collector does not count, where a named tuple is an object it counts;
some 30 a movement phase, kept until the phase is processed):

- :data:`PART_LOCATION`: the unit's location.
- :data:`PART_CODE`: the unit's place (type and location), numbered per variant: stable while
  the variant lives.
- :data:`PART_HEAD_KEY`: for an army that could be convoyed, where it could go by convoy;
  else None.
- :data:`PART_HEAD`: its hold and moves (by convoy too), as listed first.
- :data:`PART_SUPPORT_KEYS`: the support keys (:meth:`MapTables.support_key`) of what could
  be supported into each province it reaches, in order: its own moves' keys among them (no
  support is listed for those, nor for the spared ones). The listing's own list: read only.
- :data:`PART_SPARED`: support keys it is not listed (a fleet needed on every route of the
  move, 6.D.31).
- :data:`PART_CONVOY_KEY`: for a fleet that could convoy, what its convoys depend on (numbers
  of the convoy answers, never given twice in the variant); else None.
- :data:`PART_CONVOYS`: its convoys, listed last.
- :data:`PART_SUPPORT_OF`: support key -> its support by this unit (None for its own moves:
  no support).

The head depends only on the unit's code, its power and its head key; each support only on
the unit and its key; the convoys only on the unit and the convoy key. So what is kept per
(code, power) under those small keys stays true from phase to phase and game to game of the
variant.
"""

PART_LOCATION: Final = 0
PART_CODE: Final = 1
PART_HEAD_KEY: Final = 2
PART_HEAD: Final = 3
PART_SUPPORT_KEYS: Final = 4
PART_SPARED: Final = 5
PART_CONVOY_KEY: Final = 6
PART_CONVOYS: Final = 7
PART_SUPPORT_OF: Final = 8


def unit_orders(unit: UnitParts) -> tuple[Order, ...]:
    """Every order listed for the unit of ``unit`` (its parts), in order: what
    :func:`legal_orders` lists at its location."""
    keys: Iterable[int] = unit[PART_SUPPORT_KEYS]
    spared = unit[PART_SPARED]
    if spared:
        keys = filterfalse(spared.__contains__, keys)
    return (*unit[PART_HEAD], *_present(None, map(unit[PART_SUPPORT_OF], keys)),
            *unit[PART_CONVOYS])


def _find_movement_parts(position: Position) -> dict[str, dict[str, UnitParts]] | None:
    parts: defaultdict[str, dict[str, UnitParts]] = defaultdict(dict)
    listing = _list_movement(position, _unit_places(position.variant).all_powers, parts)
    if listing:  # (a listing not made of parts alone: its orders were listed instead)
        if _movement_listing.peek(position) is None:
            _movement_listing.put(position, listing)
        return None
    return dict(parts)


_movement_parts: Final[CacheSlot[Position, dict[str, dict[str, UnitParts]] | None]] = CacheSlot(
    "movement listing in parts", _find_movement_parts)
"""Every power's :class:`UnitParts` (:func:`movement_parts`), once per position."""


def movement_parts(position: Position) -> Mapping[str, Mapping[str, UnitParts]] | None:
    """How the movement listing of ``position`` is assembled: power -> its units' locations,
    in the order :func:`legal_orders` lists them -> their :class:`UnitParts` (the powers of the
    variant with units; read only). None where the listing is not made of parts alone (a
    variant with an order veto, orders of its own kinds or convoys through empty seas): then
    only :func:`legal_orders` says what is listed.

    Asked for first, the listing is made in parts and its orders are made only when
    :func:`legal_orders` is asked for (:class:`ListedOrders` reads membership from the parts);
    asked for after :func:`legal_orders`, the listing is made again, in parts, once.
    """
    if position.phase.type is not PhaseType.MOVEMENT:
        raise ValueError(f"{position.phase} is not a movement phase")
    return _movement_parts(position)


def listed_unit_counts(position: Position) -> dict[str, int] | None:
    """Each power's units in ``position`` as its movement listing counted them (one entry per
    unit of a power of the variant, by its location), if the listing was made, whole or in
    parts; None if neither was (nothing is made here). The winter after a movement phase
    that lost no unit reads them instead of counting the board again."""
    listing: Mapping[str, Mapping[str, object]] | None = _movement_listing.peek(position)
    if listing is None:
        listing = _movement_parts.peek(position)
        if listing is None:
            return None
    counts: dict[str, int] = {}
    for power, by_location in listing.items():
        counts[power] = len(by_location)
    return counts


# Order values are frozen dataclasses; their __init__ costs twice what setting the slots costs,
# and a movement phase lists some 600 orders: orders.py's makers (made_hold, ...) set the slots
# (compiled, they write the native fields directly, and are called as C functions).


class _Supports(dict[object, Order | None]):
    """One unit's supports by support key (:meth:`MapTables.support_key`): of the unit there
    to hold, or of the move; None for the unit's own moves. Each is made the first time it is
    looked up (``__missing__``: no exception, no second pass).

    Its keys are typed ``object`` (they are ints): compiled, a key read as an ``int`` is
    unboxed, and boxed again for the look-up as a new int object, which the dictionary must
    then compare by value (the two cost more than the look-up itself)."""

    __slots__ = ("made", "named")

    def __init__(self, made: _Made, named: list[Occupant | Mover], own: tuple[int, ...]) -> None:
        # (its own moves set one by one: compiled, ``super().__init__(dict.fromkeys(own))`` is
        # a proxy object, a generic method call and a dictionary more, each unit met)
        for key in own:
            self[key] = None
        self.made = made
        self.named = named

    def __missing__(self, key: Any) -> Order:
        # (``key`` is an int, typed Any: read as an object compiled, as the class's keys are,
        # and used as an index without ``cast``, a Python call per support interpreted)
        made = self.made
        if _TYPED_LOOPS:  # compiled: a C call, to orders.py's makers
            return _new_support(made, key)
        named = self.named[key]
        support: SupportHold | SupportMove
        # (interpreted, orders.made_support_hold's and made_support_move's steps written out:
        # a support is made some 25 times a phase in a new game, and a Python call more costs a
        # fifth of the making)
        if len(named) == 2:
            support = new_support_hold(SupportHold)
            set_support_hold_type(support, made.utype)
            set_support_hold_location(support, made.loc)
            set_support_hold_power(support, made.power)
            set_support_hold_supported(support, named[0])
            set_support_hold_supported_type(support, named[1])
            set_support_hold_supported_power(support, None)
        else:
            support = new_support_move(SupportMove)
            set_support_move_type(support, made.utype)
            set_support_move_location(support, made.loc)
            set_support_move_power(support, made.power)
            set_support_move_supported(support, named[3])
            set_support_move_destination(support, named[1])
            set_support_move_supported_type(support, named[2])
            set_support_move_supported_power(support, None)
        self[key] = support
        return support


def _new_support(made: _Made, key: object) -> SupportHold | SupportMove:
    """The support by ``made``'s unit of what support key ``key`` names, made (by orders.py's
    makers: compiled, they write the native fields) and kept in ``made.supports``."""
    named = made.named[cast(int, key)]
    support: SupportHold | SupportMove
    if len(named) == 2:
        support = made_support_hold(made.utype, made.loc, made.power, named[0], named[1])
    else:
        support = made_support_move(made.utype, made.loc, made.power, named[3], named[1],
                                    named[2])
    made.supports[key] = support
    return support


_MAX_HEADS = 64
"""How many sets of convoy destinations one :class:`_Made` keeps its head of orders for, and
how many sets of convoy answers its convoys and spared supports (:meth:`_Made.convoy_part`)."""


_PlaceParts = tuple[str, tuple[str, ...], tuple[str, ...], frozenset[str], tuple[int, ...],
                    tuple[object, ...], tuple[int, ...]]
"""What :class:`_Made` reads of a unit's place (type, location), whatever its power: its
province, its moves without a convoy, the provinces it can support into (sorted, as a set, as
ids), its own moves' support keys in step with those, and its own moves' keys."""


def _place_parts(numbered: _UnitPlaces, utype: UnitType, loc: str) -> _PlaceParts:
    """The :data:`_PlaceParts` of a unit of type ``utype`` at ``loc``."""
    tables = numbered.tables
    moves, reach = tables.sorted_near.get((utype, loc), ((), ()))
    own = tables.mover_keys.get((utype, loc), ())
    own_key = dict(zip(tables.moves_into.get((utype, loc), ()), own, strict=True))
    return (province_of(loc), moves, reach, frozenset(reach),
            tuple(map(numbered.province_id.__getitem__, reach)),
            tuple(own_key.get(prov) for prov in reach), own)


class _Made:
    """The order values listed so far for one unit (type, location, power) in one variant.

    A movement phase lists some 600 orders and most of them were listed, unchanged, the phase
    before: looking each one up here by a small key is several times cheaper than making it
    again. The values are frozen, so sharing them between positions is safe, and a caller that
    keeps something per listed order (the facade's strings) finds the same values phase after
    phase and may key it by value. The table lives in ``variant.caches``, exactly as long as
    the variant, and is bounded by the map (``heads`` and ``convoy_parts`` by
    :data:`_MAX_HEADS`).
    """

    __slots__ = ("utype", "loc", "power", "code", "province", "reach", "reach_set", "reach_ids",
                 "own_keys", "fixed", "heads", "named", "supports", "support_of", "rows",
                 "convoy_moves",
                 "convoys", "convoy_parts", "source_parts", "retreats", "_disband", "places")

    def __init__(self, utype: UnitType, loc: str, power: str, numbered: _UnitPlaces,
                 code: int | None = None) -> None:
        """``code``: the place's code in ``numbered``, if the caller has it."""
        tables = numbered.tables
        self.places = numbered
        """The variant's numbered places (the masks the convoy parts are worked out on)."""
        self.utype = utype
        self.loc = loc
        self.power = power
        # (by the place's code, not by (type, location): a unit type hashes through a Python
        # call, ``Enum.__hash__``)
        if code is None:
            code = numbered.code[utype, loc]
        self.code = code
        """The code of its place (:class:`_UnitPlaces`)."""
        # (what depends on the place alone is worked out once per place, for every power)
        place = numbered.place_parts.get(code)
        if place is None:
            place = numbered.place_parts[code] = _place_parts(numbered, utype, loc)
        self.province, moves, self.reach, self.reach_set, self.reach_ids, self.own_keys, own = (
            place)
        """``reach``: the provinces it can support into, sorted; ``reach_ids``: their ids, in
        its order; ``own_keys``: in step with ``reach``, the support key of its own move into
        that province (the same int object the listing's table by province holds; a fleet with
        two moves into one province, to two coasts, the last of them), or None."""
        self.fixed: tuple[Order, ...] = (
            made_hold(utype, loc, power),
            *[made_move(utype, loc, d, False, power) for d in moves])
        """The hold and the moves without a convoy, in map order."""
        # (the tables most units never fill start as the shared empty :data:`_UNMADE`, made
        # when first written: each container made counts towards the collector's next young
        # collection, and these would be kept, empty, as long as the variant)
        self.heads: dict[frozenset[str], tuple[Order, ...]] = _UNMADE
        """Where an army could go by convoy -> ``fixed`` and those moves, sorted."""
        self.named = tables.support_keys
        """Support key -> what it names (the map's list: read only)."""
        self.supports = _Supports(self, tables.support_keys, own)
        """Support key -> its support (its own moves -> None: no support)."""
        self.support_of: Callable[[object], Order | None] = self.supports.__getitem__
        """``supports[key]``, bound once (the listing looks supports up through it)."""
        self.rows: list[list[object]] | None = None
        """Index in ``reach_ids`` -> slot (:attr:`_UnitPlaces.key_at`) -> its support of that
        key into the province, :data:`_OWN` for its own moves, None where not made yet: what
        the compiled listing reads (:func:`_with_slots`; made when it first does, by
        :meth:`made_rows`; longer as moves by convoy are met, bounded by the map's support
        keys into its reach)."""
        self.convoy_moves: dict[tuple[str, bool], Move] = _UNMADE
        self.convoys: dict[tuple[str, str], Convoy] = _UNMADE
        self.convoy_parts: dict[tuple[int, ...], tuple[frozenset[int], tuple[Convoy, ...]]] = (
            _UNMADE)
        """The serials of a fleet's convoy answers -> :meth:`convoy_part`'s answer (up to
        :data:`_MAX_HEADS` of them)."""
        self.source_parts: dict[int, tuple[frozenset[int], tuple[Convoy, ...]]] = _UNMADE
        """The serial of one convoy answer -> that answer's share of :meth:`convoy_part`'s
        answer (up to :data:`_MAX_HEADS` of them)."""
        self.retreats: dict[str, Retreat] = _UNMADE
        self._disband: Disband | None = None

    def made_rows(self) -> list[list[object]]:
        """:attr:`rows`, made now: every slot None but its own moves'."""
        numbered = self.places
        key_at = numbered.key_at
        reach_ids = self.reach_ids
        rows: list[list[object]] = [[None] * len(key_at[prov_id]) for prov_id in reach_ids]
        for prov_id, slot in numbered.moves_slot_at[self.code]:
            if prov_id in reach_ids:
                rows[reach_ids.index(prov_id)][cast(int, slot)] = _OWN
        self.rows = rows
        return rows

    def disband(self) -> Disband:
        """Its disband (a retreat phase)."""
        disband = self._disband
        if disband is None:
            disband = self._disband = Disband(self.utype, self.loc, power=self.power)
        return disband

    def head(self, convoy_reach: frozenset[str], land: frozenset[str]) -> tuple[Order, ...]:
        """The hold, the moves, then the moves by convoy to ``convoy_reach`` (sorted; marked
        ``via_convoy`` where the province is next door by ``land``)."""
        head = self.heads.get(convoy_reach)
        if head is not None:
            return head
        orders = list(self.fixed)
        convoy_moves = self.convoy_moves
        if convoy_moves is _UNMADE:
            convoy_moves = self.convoy_moves = {}
        for dest in sorted(convoy_reach):
            key = (dest, dest in land)
            move = convoy_moves.get(key)
            if move is None:
                move = convoy_moves[key] = made_move(self.utype, self.loc, dest, key[1], self.power)
            orders.append(move)
        heads = self.heads
        if heads is _UNMADE:
            heads = self.heads = {}
        elif len(heads) >= _MAX_HEADS:
            heads.clear()
        head = heads[convoy_reach] = tuple(orders)
        return head

    def convoy_part(self, key: tuple[int, ...], sources: list[_ConvoyAnswer],
                    ) -> tuple[frozenset[int], tuple[Convoy, ...]]:
        """For a fleet in the groups of ``sources``: the support keys of the moves by convoy
        it is needed for on every route (it cannot support them, as it cannot support and
        convoy at once, 6.D.31), and its convoys, sorted. Kept in ``convoy_parts`` under
        ``key``, the serials of ``sources`` (the listing looks there first)."""
        part = self.convoy_parts.get(key)
        if part is not None:
            return part
        # (each source's share is kept under its serial: a fleet meets the same armies in new
        # company, so a new set of sources is mostly sources it has met before)
        by_source = self.source_parts
        if len(sources) == 1:
            answer = sources[0]
            part = by_source.get(answer.serial)
            if part is None:
                part = self._source_part(answer)
        else:
            shares: list[tuple[str, tuple[frozenset[int], tuple[Convoy, ...]]]] = []
            for answer in sources:
                share = by_source.get(answer.serial)
                if share is None:
                    share = self._source_part(answer)
                shares.append((answer.origin, share))
            # (the convoys in the order of their armies: each source names its own army, and
            # each share's convoys are sorted already)
            # (sorted as pairs: the armies differ, so their shares are never compared; a sort
            # by key is a method call with keywords, compiled)
            shares.sort()
            spared: set[int] = set()
            listed: list[Convoy] = []
            for _, (share_spared, share_convoys) in shares:
                if share_spared:
                    spared.update(share_spared)  # (compiled, a set call: ``|`` is generic)
                listed.extend(share_convoys)
            part = (frozenset(spared) if spared else _NOTHING_SPARED, tuple(listed))
        parts = self.convoy_parts
        if parts is _UNMADE:
            parts = self.convoy_parts = {}
        elif len(parts) >= _MAX_HEADS:
            parts.clear()
        parts[key] = part
        return part

    def _source_part(self, answer: _ConvoyAnswer) -> tuple[frozenset[int], tuple[Convoy, ...]]:
        """:meth:`convoy_part` of the one source ``answer``, kept in ``source_parts`` under its
        serial (up to :data:`_MAX_HEADS`)."""
        prov = self.province
        spared: set[int] = set()
        key_into = answer.key_into
        # (a plain loop over the few moves by convoy: the dictionary view's ``&`` with the
        # reach makes a set through the generic number protocol, some 1,500 instructions)
        reach_set = self.reach_set
        supported = [dest for dest in key_into if dest in reach_set]
        if supported:
            # (where the army could go without this fleet, on masks: the map's search by name
            # costs several times more, and each (army, group, fleet) is new to it here)
            tables = self.places.tables
            cid = tables.convoy_index
            without = tables.convoy_reach_mask(answer.origin,
                                               answer.group_mask & ~(1 << cid[prov]))
            for dest in supported:
                if not without >> cid[dest] & 1:
                    spared.add(key_into[dest])
        # (the pairs walked as objects: compiled, a value of a fixed-length tuple type is
        # unpacked into a native struct, and each look-up and store with it packs a new tuple)
        convoys: dict[object, Convoy] = self.convoys  # type: ignore[assignment]
        listed: list[Convoy] = []
        pairs: tuple[object, ...] = answer.pairs_of.get(prov, ())
        if pairs and convoys is _UNMADE:
            made: dict[tuple[str, str], Convoy] = {}
            self.convoys = made
            convoys = made  # type: ignore[assignment]
        for pair in pairs:
            convoy = convoys.get(pair)
            if convoy is None:
                army, dest = cast("tuple[str, str]", pair)
                convoy = convoys[pair] = made_convoy(self.utype, self.loc, army, dest,
                                                     self.power)
            listed.append(convoy)
        parts = self.source_parts
        if parts is _UNMADE:
            parts = self.source_parts = {}
        elif len(parts) >= _MAX_HEADS:
            parts.clear()
        part = parts[answer.serial] = (
            frozenset(spared) if spared else _NOTHING_SPARED, tuple(listed))
        return part


_UNMADE: Final[dict[Any, Any]] = {}
"""The table a :class:`_Made` holds where it has made none of that kind yet (most units never
make heads, convoy parts or retreats): shared and empty, never written (each writer makes its
own table first; a reader finds nothing in it)."""


def _no_made(variant: Variant) -> Bounded[object, _Made]:
    return Bounded(max(_MAX_MADE, 2 * len(variant.map.locations)))


_MAX_MADE = 512
"""How many units' order values :data:`_made_of` keeps on a map of up to 256 locations (twice
the number of locations on a bigger map): (unit code, power) of the units on the
boards of the games being played (a classical board has 34 units at most; every place a unit
could stand, times the powers, is some 1,100). Up to some 20 KB each."""

_made_of: Final[CacheSlot[Variant, Bounded[object, _Made]]] = CacheSlot(
    "listed order values", _no_made)
"""(unit code (:class:`_UnitPlaces`), power), by its key (:func:`_made_key`) -> :class:`_Made`,
bounded by :data:`_MAX_MADE`. A unit whose entry was dropped gets its order values made again: equal
values, which is all that counts (listed orders are recognised by value)."""


def _made_for(position: Position, utype: UnitType, loc: str, power: str) -> _Made:
    table = _made_of(position.variant)
    numbered = _unit_places(position.variant)
    code = numbered.code[utype, loc]
    key = _made_key(numbered, code, power)
    made = table.get(key)
    if made is None:
        made = table[key] = _Made(utype, loc, power, numbered, code)
    return made


def _movement_orders(position: Position, power: str) -> dict[str, tuple[Order, ...]]:
    """``power``'s movement orders: location -> orders (a power of the variant's: kept in the
    position's caches with every other power's, read only)."""
    if power in position.variant.power_ids:
        return _movement_listing(position).get(power, {})
    # the units of no power (a variant's neutral units), which nobody orders: on request
    return _list_movement(position, frozenset((power,))).get(power, {})


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


_empty_convoy_moves: Final[CacheSlot[Position, dict[str, _EmptyConvoyMoves]]] = CacheSlot(
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
