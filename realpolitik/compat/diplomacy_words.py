"""The ``diplomacy`` package's words: its order strings, unit names, results and state
dictionaries, made from realpolitik's values (for :mod:`realpolitik.compat.diplomacy` and
:mod:`realpolitik.compat.diplomacy_json`).

Order strings are the package's: upper case, coasts ``STP/SC``, ``A PAR - BUR``,
``F NTH C A LON - BEL``, ``A LON - BEL VIA``, ``A PAR S A MAR``, ``A PAR B``, ``WAIVE``. The
strings of listed orders are made once per order value and kept with the variant, by value
(:class:`ListingTexts`, :data:`listing_texts`).
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from itertools import filterfalse
from operator import attrgetter, itemgetter
from typing import Any, TypeVar

from realpolitik.adjudication.outcomes import Outcome, Resolution
from realpolitik.caches import Bounded, CacheSlot
from realpolitik.game import Game as _Game
from realpolitik.game import PhaseRecord
from realpolitik.geography import Map, UnitType, province_of
from realpolitik.legality import adjustment_counts, build_sites, retreat_options
from realpolitik.listing import (
    PART_CODE,
    PART_CONVOY_KEY,
    PART_CONVOYS,
    PART_HEAD,
    PART_HEAD_KEY,
    PART_LOCATION,
    PART_SPARED,
    PART_SUPPORT_KEYS,
    PART_SUPPORT_OF,
    UnitParts,
)
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
    Waive,
)
from realpolitik.position import PhaseType, Position, Unit
from realpolitik.rules import Rules
from realpolitik.variant import Variant
from realpolitik.variant_rules import NEUTRAL

__all__ = ["ListingTexts", "diplomacy_state", "disbanded_units", "listing_texts", "order_statuses",
           "order_text", "record_orders", "unit_text", "update_influence"]

_PHASE_TYPE_NAMES = {"M": "MOVEMENT", "R": "RETREATS", "A": "ADJUSTMENTS"}
_SEASON_NAMES = {"S": "SPRING", "F": "FALL", "W": "WINTER"}

_STATUS: Mapping[Outcome, str] = {
    Outcome.BOUNCED: "bounce",
    Outcome.CUT: "cut",
    Outcome.DISLODGED: "dislodged",
    Outcome.UNMATCHED: "void",
    Outcome.ILLEGAL: "void",
    Outcome.AMBIGUOUS: "void",
    Outcome.UNREADABLE: "void",
    Outcome.NO_CONVOY: "no convoy",
    Outcome.CONVOY_DISRUPTED: "disrupted",
    Outcome.DISBANDED: "disband",
    Outcome.SELF_DISLODGE: "bounce",
}


def unit_text(unit: Unit) -> str:
    """``"F STP/SC"``: a unit as the ``diplomacy`` package writes it."""
    return f"{unit.type.value} {unit.location.upper()}"


def order_text(order: Order, tables: MapTables | None = None,
               position: Position | None = None) -> str:
    """An order as the ``diplomacy`` package writes it.

    An army's move by convoy is written with ``VIA`` (the package lists every convoyed move so);
    ``tables`` (the map's) tells which moves need a convoy; without them only moves marked
    ``via_convoy`` get it. ``position`` fills in a supported unit's type when the order lacks it.
    """
    if isinstance(order, Waive):
        return "WAIVE"
    unit = f"{order.unit_type.value} {order.location.upper()}"
    if isinstance(order, Move):
        via = order.via_convoy or (
            tables is not None and order.unit_type is UnitType.ARMY
            and order.destination not in tables.army_adj.get(province_of(order.location), ())
        )
        return f"{unit} - {order.destination.upper()}{' VIA' if via else ''}"
    if isinstance(order, Hold):
        return f"{unit} H"
    if isinstance(order, SupportHold | SupportMove):
        kind = order.supported_type
        where = order.supported_location
        if position is not None:
            other = position.units.get(province_of(where))
            if other is not None:
                kind = kind or other.type
                where = other.location
        letter = (kind or UnitType.ARMY).value
        if isinstance(order, SupportHold):
            return f"{unit} S {letter} {where.upper()}"
        return f"{unit} S {letter} {where.upper()} - {order.destination.upper()}"
    if isinstance(order, Convoy):
        return f"{unit} C A {order.army_location.upper()} - {order.destination.upper()}"
    if isinstance(order, Retreat):
        return f"{unit} R {order.destination.upper()}"
    if isinstance(order, Disband):
        return f"{unit} D"
    if isinstance(order, Build):
        return f"{unit} B"
    raise TypeError(f"not an order: {order!r}")


class _Upper(dict[str, str]):
    """Location id -> the package's name for it (``stp/sc`` -> ``STP/SC``), filled on use."""

    def __missing__(self, key: str) -> str:
        self[key] = value = key.upper()
        return value


_UPPER = _Upper()
_ARMY = UnitType.ARMY
_LETTER: Mapping[UnitType | None, str] = {UnitType.ARMY: "A", UnitType.FLEET: "F", None: "A"}


_MAX_ORDER_TEXTS = 1 << 15
"""How many listed orders :class:`ListingTexts` keeps strings for (:attr:`ListingTexts.text`):
the orders met by the games being played (a movement phase lists some 600, most of them met
before); a few MB. A full table drops its older half, and a string dropped is made again."""

_MAX_UNIT_TEXTS = 512
"""How many units' strings (:class:`_UnitTexts`) :class:`ListingTexts` keeps per power on a
map of up to 256 locations (twice its locations on a bigger one); up to some 20 KB each."""

_MAX_UNIT_HEADS = 64
"""How many heads and how many sets of convoys one :class:`_UnitTexts` (and one
:class:`_PlaceTexts`) keeps strings for."""

_MAX_GIVEN = 1 << 14
"""How many strings :class:`ListingTexts` keeps per power for :meth:`Game.set_orders` (those
listed for it so far: some thousands on the standard map). A string dropped is found again,
more slowly, among the orders listed in the phase."""


class ListingTexts:
    """The ``diplomacy`` package's strings of the orders realpolitik lists, for one variant
    (kept in ``variant.caches``, :data:`listing_texts`).

    A movement phase lists some 600 orders, nearly all of them listed before. The listing
    says how it assembled each unit's orders (:class:`~realpolitik.listing.UnitParts`): its
    head (hold and moves), its supports by small integer keys, its convoys. So the strings are
    kept the same way, per unit (its place code and power, :class:`_UnitTexts`), and a unit's
    strings are its head's, then one C-level ``map`` over its support keys, then its convoys':
    no order is hashed (:meth:`fill_movement`). A head's and a convoy's string is made once
    per place from its order, for every power (:class:`_PlaceTexts`: the strings name no
    power), and named for a power when first listed for it; a support's string from its
    unit's name and its key (:attr:`support_suffix`), without the support: most listed
    supports are never given, so a support's string names its order only when first given
    (:meth:`support_found`). The
    other phases' strings are kept by their orders' values (:attr:`text`). Nothing here
    decides whether an order is legal: a string given to :meth:`Game.set_orders` names an
    order (:meth:`given`), which the engine checks by value when it is handed over. Every
    table is bounded: by :data:`_MAX_ORDER_TEXTS`, :data:`_MAX_GIVEN` and
    :data:`_MAX_UNIT_TEXTS`, or by the map.
    """

    __slots__ = ("tables", "text", "coastless", "one_coast", "units", "named", "given_by",
                 "places", "province_name", "site_names", "near_coasts", "support_suffix",
                 "support_key", "support_unit", "to_coast", "supporters", "at_place")

    def __init__(self, tables: MapTables, the_map: Map) -> None:
        self.tables = tables
        self.text: Bounded[Order, str] = Bounded(_MAX_ORDER_TEXTS)
        """Order -> its string."""
        self.coastless: dict[str, str] = {}
        """The string of a support of a move to a coast -> the same support without the
        coast, which the package lists right after it (unless already there). Bounded by
        the map (such supports are few: the moves to a coast times the units next to it)."""
        self.one_coast: dict[str, str] = {}
        """The string of a support without the coast (a value of :attr:`coastless`) -> the
        string of the same support with the coast, when the supported fleet reaches only that
        coast of the province: the rules (unless they require the coast) read the one as the
        other, so :meth:`given` names the listed support (the package, too, records the
        support with the coast). Bounded by the map, as :attr:`coastless`."""
        self.units: dict[str, Bounded[int, _UnitTexts]] = {}
        """power -> its unit's place code -> the strings of its movement orders so far
        (:data:`_MAX_UNIT_TEXTS` units per power)."""
        self.named: dict[str, Bounded[str, Order]] = {}
        """power -> string -> the order it names. A listed support's string without the coast
        names that support with no coast (the listing gives only the supports naming a
        coast; the engine checks this one when it is given)."""
        self.given_by: dict[tuple[str, bool], _Given] = {}
        """(power, whether a support's coast is settled) -> what :meth:`given` found for the
        strings it gave so far."""
        locations = the_map.locations
        self.places: dict[str, tuple[str, str | None]] = {
            location: (location.upper(),
                       province_of(location).upper() if "/" in location else None)
            for location in locations}
        """Location -> its name in the package, and its province's if it is a coast (a unit
        on a coast has its orders listed under both). Fixed by the map."""
        self.province_name: dict[str, str] = {
            location: province_of(location).upper() for location in locations}
        """Location -> the package's name of its province (``stp/sc`` -> ``STP``)."""
        self.site_names: dict[str, tuple[str, ...]] = {
            province.upper(): tuple(place.upper() for place in (province, *the_map.coasts(
                province))) for province in the_map.provinces}
        """The package's name of a province -> its name and its coasts' (``STP`` -> ``STP``,
        ``STP/NC``, ``STP/SC``): a winter lists a waive under each place a power may build
        at. Fixed by the map."""
        self.near_coasts: frozenset[str] = frozenset(
            location for location in locations
            if any(the_map.coasts(near) for near in the_map.army_neighbours(location))
            or any(the_map.coasts(province_of(near))
                   for near in the_map.fleet_neighbours(location)))
        """The locations next to a province with coasts: only a unit there can be listed a
        support of a move to a coast."""
        self.support_suffix: dict[int, str] = {}
        """Support key -> what a support's string says after its unit (``" S F GAS - BUR"``):
        a unit's support strings are its own name and these (bounded by the map's support
        keys)."""
        self.support_key: dict[str, int] = {}
        """A support's string made by :meth:`_UnitTexts.learn` -> its support key, and
        :attr:`support_unit` the same string -> its unit's name (``"A MAR"``): what
        :meth:`support_found` reads, by the string given, whose hash is known (where parts of
        it cut out would each be made and hashed). Bounded by the map's support strings (the
        powers' units at a place share them)."""
        self.support_unit: dict[str, str] = {}
        """A support's string made by :meth:`_UnitTexts.learn` -> its unit's name (see
        :attr:`support_key`; two tables rather than one of pairs: no object kept a string,
        for the collector to count)."""
        self.to_coast: set[int] = set()
        """The support keys of moves to a coast (met so far): their supports are named when
        their strings are made, as the strings without the coast are (:meth:`_named`)."""
        self.supporters: dict[str, dict[str, _UnitTexts]] = {}
        """power -> the name of a unit it was listed (``"A MAR"``) -> that unit's strings: a
        support's string listed for the unit names its order from them when first given
        (:meth:`support_found`; bounded by the map)."""
        self.at_place: dict[int, _PlaceTexts] = {}
        """A unit's place code -> the strings of the heads and convoys listed there, for
        every power (the package's strings name no power: ``A PAR - BUR`` is every power's);
        bounded by the map's places."""

    def clear(self) -> None:
        """Forget every string (they are made again when next needed)."""
        self.text.clear()
        self.coastless.clear()
        self.one_coast.clear()
        self.support_suffix.clear()
        self.support_key.clear()
        self.support_unit.clear()
        self.to_coast.clear()
        self.supporters.clear()
        self.at_place.clear()
        self.units.clear()
        self.named.clear()
        self.given_by.clear()

    def _make(self, order: Order) -> str:
        """Make and keep the string of an order (by its value), and what :meth:`_named` keeps
        for it."""
        text = self.text[order] = self._named(order)
        return text

    def _named(self, order: Order) -> str:
        """Make the string of an order and keep the order it names for :meth:`given` (and the
        string without the coast a support of a move to a coast is listed under too)."""
        text = _order_text(order, self.tables)
        power = order.power or ""
        named = self.named.get(power) or self.named_by(power)
        if text not in named:
            # (Bounded's __setitem__ written out: a Python call from C costs more than this)
            if len(named) >= named.bound:
                named._drop_older_half()
            dict.__setitem__(named, text, order)
        if order.__class__ is SupportMove and "/" in order.destination:
            assert isinstance(order, SupportMove)
            other = self.coastless[text] = text[:text.rindex("/")]
            tables = self.tables
            province = province_of(order.destination)
            reach = tables.fleet_adj.get(order.supported_location, frozenset())
            if sum(coast in reach for coast in tables.coasts.get(province, ())) == 1:
                self.one_coast[other] = text
            if other not in named:
                # (it names a support of the move to either coast: not this order, but the
                # same support with no coast)
                named[other] = SupportMove(
                    order.unit_type, order.location, order.supported_location,
                    province_of(order.destination), order.supported_type, power=order.power,
                    supported_power=order.supported_power)
        return text

    def text_of(self, order: Order) -> str:
        """The string of one order (not the one without a coast a support of a move to a
        coast is also listed under)."""
        text = self.text.get(order)
        return text if text is not None else self._make(order)

    def strings_of(self, location: str, orders: Sequence[Order]) -> list[str]:
        """The strings of the orders listed at ``location``, as the package lists them (a new
        list): in order, each support of a move to a coast followed by the same support
        without the coast unless already there."""
        strings = list(map(self.text_of, orders))
        if location in self.near_coasts and not self.coastless.keys().isdisjoint(strings):
            return _with_coastless(strings, self.coastless)
        return strings

    def fill_movement(self, possible: dict[str, list[str]], power: str,
                      units: Iterable[UnitParts]) -> None:
        """Put in ``possible`` (the package's location -> strings) the strings of ``power``'s
        units in a movement phase, from their :class:`~realpolitik.listing.UnitParts`: under
        each unit's location, and under its province too if it is on a coast."""
        kept = self.units.get(power)
        if kept is None:
            kept = self.units[power] = Bounded(
                max(_MAX_UNIT_TEXTS, 2 * len(self.places)))
        kept_get = kept.get
        for unit in units:
            _, code, head_key, _, keys, spared, convoy_key, _, _ = unit
            texts = kept_get(code)
            if texts is None:
                texts = kept[code] = self._new_unit_texts(unit, power)
            strings = texts.heads.get(head_key) or texts.head(unit, self.tables)
            if spared:
                keys = list(filterfalse(spared.__contains__, keys))
            # (at C speed: the strings of its support keys looked up by one itemgetter, which
            # costs some 30% less a key than a map over the dictionary's __getitem__; None for
            # its own moves, dropped)
            supports = texts.supports
            try:
                listed = [*strings, *filter(None, itemgetter(*keys)(supports) if len(keys) > 1
                                            else map(supports.__getitem__, keys))]
            except KeyError:  # a support met for the first time: its string made and kept
                texts.learn(unit, self)
                listed = [*strings, *filter(None, map(supports.__getitem__, keys))]
            if convoy_key is not None:  # (a fleet that could convoy)
                listed += texts.convoys.get(convoy_key) or texts.convoy_strings(unit, self.tables)
            coast_keys = texts.coast_keys
            if coast_keys and not coast_keys.isdisjoint(keys):  # (supports of moves to a
                # coast listed: each followed by the same support without the coast)
                _insert_coastless(listed, filter(coast_keys.__contains__, keys),
                                  texts.supports, self.coastless)
            possible[texts.name] = listed
            if texts.province is not None:
                possible[texts.province] = listed[:]

    def _new_unit_texts(self, unit: UnitParts, power: str) -> _UnitTexts:
        """The strings of a unit listed for the first time at its place for ``power``: its
        supports' strings taken from another power's unit at that place if there is one (a
        support's string does not say whose it is), but for those of moves to a coast, whose
        strings name their orders for their power when made; the heads and convoys are made
        (and named for ``power``) when first listed."""
        code, to_coast = unit[PART_CODE], self.to_coast
        place = self.at_place.get(code)
        if place is None:
            place = self.at_place[code] = _PlaceTexts()
        texts = _UnitTexts(unit, self, place, self.named_by(power))
        known: dict[int, str | None] | None = None
        for others in self.units.values():
            other = others.get(code)
            if other is not None and (known is None or len(other.supports) > len(known)):
                known = other.supports
        if known is not None and len(known) > len(texts.supports):
            # (all taken over in C, then the supports of moves to a coast taken out again: a
            # few of some hundred keys; None is its own move's, the same for both units)
            supports = texts.supports
            supports.update(known)
            for key in to_coast.intersection(known):
                if supports[key] is not None:
                    del supports[key]
        by_name = self.supporters.get(power)
        if by_name is None:
            by_name = self.supporters[power] = {}
        by_name[texts.name_of_unit] = texts
        return texts

    def fill(self, legal: Mapping[str, tuple[Order, ...]], table: dict[str, Order]) -> None:
        """Fill ``table`` (order string -> order) with the strings of these legal orders
        (location -> orders); not the strings without a coast, which name no listed order."""
        for orders in legal.values():
            for order in orders:
                table[self.text_of(order)] = order

    def named_by(self, power: str) -> Bounded[str, Order]:
        """For :meth:`Game.set_orders`: the strings listed for ``power`` so far -> the order
        each names (a string listed so long ago that it was forgotten is not there: it is
        read again)."""
        named = self.named.get(power)
        if named is None:
            named = self.named[power] = Bounded(_MAX_GIVEN)
        return named


    def new_suffix(self, key: int) -> str:
        """Make and keep the suffix of support key ``key`` (:attr:`support_suffix`)."""
        named = self.tables.support_keys[key]
        up = _UPPER
        if len(named) == 2:  # (an Occupant: location, unit type)
            location, unit_type = named
            suffix = f" S {_LETTER[unit_type]} {up[location]}"
        else:  # (a Mover: province, destination, unit type, location)
            _, destination, unit_type, location = named
            suffix = f" S {_LETTER[unit_type]} {up[location]} - {up[destination]}"
            if "/" in destination:
                self.to_coast.add(key)
        self.support_suffix[key] = suffix
        return suffix

    def support_found(self, power: str, text: str) -> tuple[str, int, Order] | None:
        """What :meth:`given` finds for ``text`` if it is the string of a support listed for
        ``power`` (whose support was not named when its string was made:
        :meth:`_UnitTexts.learn`): (its unit, its support key, the support, the listing's own
        value); else None."""
        key = self.support_key.get(text)
        if key is None:
            return None  # (not a support's string made by a listing)
        unit_name = self.support_unit[text]
        by_name = self.supporters.get(power)
        unit = None if by_name is None else by_name.get(unit_name)
        if unit is None or unit.supports.get(key) != text:
            return None  # (not a string listed for this unit)
        support = unit.support_of(key)
        return None if support is None else (unit_name, key, support)

    def given(self, power: str, settle_coasts: bool = True) -> _Given:
        """For :meth:`Game.set_orders`: the table of the strings listed for ``power`` ->
        the order it names (its unit and the rest: :meth:`_Given.entry`), None for a string
        not listed for it (or listed so long ago that it was forgotten: it is then read again),
        or a support whose order is named when first given (:meth:`support_found`). With
        ``settle_coasts`` (the rules read a support without the coast as the move to the one
        coast the fleet reaches) such a support's string names the support with that coast,
        the one listed."""
        table = self.given_by.get((power, settle_coasts))
        if table is None:
            table = self.given_by[power, settle_coasts] = _Given(
                self, power, self.one_coast if settle_coasts else None)
        return table


class _PlaceTexts:
    """The strings of the heads (hold and moves) and convoys listed at one place (a unit's
    place code: its type and location) so far, for every power: they depend on the place and
    the head's or convoys' key alone, not on whose unit it is. Bounded by the map, and its
    heads and convoys by :data:`_MAX_UNIT_HEADS`."""

    __slots__ = ("heads", "hold", "moves", "convoys", "each_convoy")

    def __init__(self) -> None:
        self.heads: dict[frozenset[str] | None, tuple[str, ...]] = {}
        """The key of a head (where an army could go by convoy, or None) -> the strings of
        its hold and moves."""
        self.hold: str | None = None
        """The string of the hold here, once made (every head starts with it)."""
        self.moves: dict[tuple[str, bool], str] = {}
        """(destination, by convoy) -> the string of that move (bounded by the map)."""
        self.convoys: dict[tuple[int, ...], tuple[str, ...]] = {}
        """The key of a fleet's convoys here -> their strings."""
        self.each_convoy: dict[tuple[str, str], str] = {}
        """(army's location, destination) -> the string of that convoy (bounded by the
        map)."""

    def head(self, unit: UnitParts, tables: MapTables) -> tuple[str, ...]:
        """Make and keep the strings of ``unit``'s head (its hold and moves, by convoy too):
        an army's heads differ only in its moves by convoy, so the hold's and each move's
        string is made once."""
        if len(self.heads) >= _MAX_UNIT_HEADS:
            self.heads.clear()
        moves = self.moves
        strings: list[str] = []
        for order in unit[PART_HEAD]:
            if type(order) is Move:
                key = (order.destination, order.via_convoy)
                text = moves.get(key)
                if text is None:
                    text = moves[key] = _order_text(order, tables)
            elif type(order) is Hold:
                text = self.hold
                if text is None:
                    text = self.hold = _order_text(order, tables)
            else:
                text = _order_text(order, tables)
            strings.append(text)
        made = self.heads[unit[PART_HEAD_KEY]] = tuple(strings)
        return made

    def convoy_strings(self, unit: UnitParts, tables: MapTables) -> tuple[str, ...]:
        """Make and keep the strings of a fleet's convoys (each convoy's string made once)."""
        assert unit[PART_CONVOY_KEY] is not None
        if len(self.convoys) >= _MAX_UNIT_HEADS:
            self.convoys.clear()
        each = self.each_convoy
        strings: list[str] = []
        for order in unit[PART_CONVOYS]:
            if type(order) is not Convoy:  # (never: narrows the type, as an assert would)
                strings.append(_order_text(order, tables))
                continue
            key = (order.army_location, order.destination)
            text = each.get(key)
            if text is None:
                text = each[key] = _order_text(order, tables)
            strings.append(text)
        made = self.convoys[unit[PART_CONVOY_KEY]] = tuple(strings)
        return made


_Key = TypeVar("_Key")
"""The key a unit's kept strings are kept under (:meth:`_UnitTexts._named_and_kept`)."""


class _UnitTexts:
    """The strings of one unit's movement orders (its place and power) listed so far, kept
    the way the listing assembles them (:class:`~realpolitik.listing.UnitParts`), and where
    the package lists them. Its heads' and convoys' strings are its place's
    (:class:`_PlaceTexts`, shared by the powers), named for its power when it first lists
    them. Bounded by the map, and its heads and convoys by :data:`_MAX_UNIT_HEADS`."""

    __slots__ = ("name", "province", "name_of_unit", "heads", "place", "named", "supports",
                 "support_of", "coast_keys", "convoys")

    def __init__(self, unit: UnitParts, texts: ListingTexts, place: _PlaceTexts,
                 named: Bounded[str, Order]) -> None:
        hold = unit[PART_HEAD][0]
        assert isinstance(hold, Hold)
        self.name, self.province = texts.places[unit[PART_LOCATION]]
        """Its location's name in the package, and its province's if it is a coast."""
        self.name_of_unit = f"{_LETTER[hold.unit_type]} {self.name}"
        """The unit as the package names it (``"A MAR"``)."""
        self.heads: dict[frozenset[str] | None, tuple[str, ...]] = {}
        """The key of its head (where an army could go by convoy, or None) -> the strings of
        its hold and moves, named for its power."""
        self.place = place
        """The strings listed at its place for any power (made once for all of them)."""
        self.named = named
        """Its power's table of strings -> the orders they name
        (:meth:`ListingTexts.named_by`)."""
        self.supports: dict[int, str | None] = dict.fromkeys(
            texts.tables.mover_keys.get((hold.unit_type, hold.location), ()))
        """Support key -> the string of its support; None for its own moves (no support)."""
        self.support_of = unit[PART_SUPPORT_OF]
        """Support key -> its support by this unit: the listing's own values, kept with the
        variant as long as these strings (the supports are made when first given)."""
        self.coast_keys: set[int] = set()
        """The keys of its supports of moves to a coast (learnt: :meth:`learn`), whose strings
        the package lists each followed by the same support without the coast."""
        self.convoys: dict[tuple[int, ...], tuple[str, ...]] = {}
        """The key of its convoys -> their strings, named for its power."""

    def head(self, unit: UnitParts, tables: MapTables) -> tuple[str, ...]:
        """The strings of ``unit``'s head (its hold and moves), its place's (made there if
        met for the first time at that place), each named for its power and kept."""
        place = self.place
        return self._named_and_kept(
            self.heads, unit[PART_HEAD_KEY],
            place.heads.get(unit[PART_HEAD_KEY]) or place.head(unit, tables), unit[PART_HEAD])

    def convoy_strings(self, unit: UnitParts, tables: MapTables) -> tuple[str, ...]:
        """The strings of a fleet's convoys, its place's (made there if met for the first
        time at that place), each named for its power and kept."""
        assert unit[PART_CONVOY_KEY] is not None
        place = self.place
        return self._named_and_kept(
            self.convoys, unit[PART_CONVOY_KEY],
            place.convoys.get(unit[PART_CONVOY_KEY]) or place.convoy_strings(unit, tables),
            unit[PART_CONVOYS])

    def _named_and_kept(self, kept: dict[_Key, tuple[str, ...]], key: _Key,
                        strings: tuple[str, ...], orders: Sequence[Order],
                        ) -> tuple[str, ...]:
        """``strings`` (the place's, for ``orders`` in step) named for this unit's power and
        kept in ``kept`` under ``key`` (emptied first when full: :data:`_MAX_UNIT_HEADS`)."""
        if len(kept) >= _MAX_UNIT_HEADS:
            kept.clear()
        _name_all(self.named, strings, orders)
        kept[key] = strings
        return strings

    def learn(self, unit: UnitParts, texts: ListingTexts) -> None:
        """Make and keep the strings of ``unit``'s listed supports not met before (not those
        it is spared: their strings name no listed order). A support's string is the unit's
        name and the support key's suffix (:attr:`ListingTexts.support_suffix`): the support
        itself is not made, nor the string named (:meth:`ListingTexts.support_found` names it
        when it is given), but for a support of a move to a coast."""
        supports, prefix, spared = self.supports, self.name_of_unit, unit[PART_SPARED]
        suffix_of, to_coast = texts.support_suffix, texts.to_coast
        support_key, support_unit = texts.support_key, texts.support_unit
        # (the keys met before passed over in C)
        for key in filterfalse(supports.__contains__, unit[PART_SUPPORT_KEYS]):
            if key in spared:
                continue
            suffix = suffix_of.get(key)
            if suffix is None:
                suffix = texts.new_suffix(key)
            if key in to_coast:  # (the string without the coast is listed too: named now)
                support = unit[PART_SUPPORT_OF](key)
                if support is None:
                    supports[key] = None
                    continue
                text = supports[key] = texts._named(support)
                self.coast_keys.add(key)
            else:
                text = supports[key] = prefix + suffix
            support_key[text] = key
            support_unit[text] = prefix


class _Given(Bounded[str, "Order | None"]):
    """The strings a power gave so far -> the order each names, made from
    :attr:`ListingTexts.named` on first use (or, for a support, from its unit's supports:
    :meth:`ListingTexts.support_found`); None for a string not listed (not kept: it may be
    listed later). Nothing more is kept a string but a support's key (:attr:`key_of`): the
    string's unit is its first two words, cut out only when asked for (:meth:`entry`, the
    general path; the quick path tells one order a unit by the orders' locations). Bounded
    by :data:`_MAX_GIVEN`."""

    __slots__ = ("named", "one_coast", "texts", "power", "key_of")

    def __init__(self, texts: ListingTexts, power: str, one_coast: Mapping[str, str] | None,
                 ) -> None:
        super().__init__(_MAX_GIVEN)
        self.texts = texts
        self.power = power
        self.named: Mapping[str, Order] = texts.named_by(power)
        self.one_coast = one_coast
        """:attr:`ListingTexts.one_coast` if the supports without a coast it names are read
        as the supports with the coast (None if the rules require the coast)."""
        self.key_of: dict[str, int] = {}
        """A support's string in the table -> its support key (:meth:`ListingTexts.support_found`
        finds it), for :meth:`Game.submit_found`; emptied with the table's older half."""

    def __missing__(self, text: str) -> Order | None:
        one_coast = self.one_coast
        name = one_coast.get(text, text) if one_coast else text
        order = self.named.get(name)
        key: int | None = None
        if order is None:  # (a support's string names its support when first given)
            found = self.texts.support_found(self.power, text)
            if found is None:
                return None
            # (a key depends on the text alone: kept with it)
            _, key, order = found
        elif " " not in text:  # WAIVE, for no unit: not a movement order (read and refused)
            return None
        elif order.__class__ is SupportMove:
            # (a support of a move to a coast, named when its string was made: its key is
            # known all the same, so the engine finds it by its key, not by asking the whole
            # listing)
            key = self.texts.support_key.get(name)
        if len(self) >= self.bound:
            self._drop_older_half()
        dict.__setitem__(self, text, order)  # (the bound is kept just above)
        if key is not None:
            self.key_of[text] = key
        return order

    def _drop_older_half(self) -> None:
        super()._drop_older_half()
        self.key_of.clear()  # (no more keys than strings added since)

    def entry(self, text: str) -> tuple[str, str, Order] | None:
        """(unit, the rest of the order, the order) of a string given, if it names a listed
        order (else None)."""
        order = self[text]
        if order is None:
            return None
        unit = _unit_of_text(text)
        return unit, text[len(unit) + 1:], order


def _unit_of_text(text: str) -> str:
    """``"A PAR - BUR"`` -> ``"A PAR"`` (its first two words)."""
    return " ".join(text.split(" ", 2)[:2])


def _name_all(named: Bounded[str, Order], strings: Sequence[str],
              orders: Sequence[Order]) -> None:
    """Keep in ``named`` (a power's strings -> their orders) each of ``strings`` naming the
    order of ``orders`` at its place: in one C-level ``dict.update`` while the table has room
    (a string named before names an order equal to this one: its string says all its fields
    but its power, which is the table's), else one by one within its bound."""
    # (no ``strict``: the strings are made from the orders, in step; the keyword is parsed
    # each call)
    if len(named) + len(strings) <= named.bound:
        dict.update(named, zip(strings, orders))  # noqa: B905
    else:
        for text, order in zip(strings, orders):  # noqa: B905
            named[text] = order


def _insert_coastless(listed: list[str], coast_keys: Iterable[int],
                      supports: Mapping[int, str | None], coastless: Mapping[str, str]) -> None:
    """Put in ``listed`` (a unit's strings) after each support of a move to a coast (its
    ``coast_keys`` among the keys listed, in their order) the same support without the coast,
    unless already there: what :func:`_with_coastless` makes, found by the unit's keys (one
    or two a unit) instead of a look-up of every string listed."""
    # (a support without the coast is never listed as such, the listing naming the coast:
    # it can be there only if put for the other coast's support, looked for among those put)
    put: list[str] = []
    for key in coast_keys:
        text = supports[key]
        assert text is not None  # (a coast key names a support: learn)
        other = coastless[text]
        if other not in put:  # (the other coast's support came first)
            listed.insert(listed.index(text) + 1, other)
            put.append(other)


def _with_coastless(strings: list[str], coastless: Mapping[str, str]) -> list[str]:
    """``strings`` with each support of a move to a coast followed by the same support
    without the coast (``coastless``), unless already there."""
    listed: list[str] = []
    append = listed.append
    for text in strings:
        append(text)
        if text in coastless:
            other = coastless[text]
            if other not in listed:
                append(other)
    return listed


def _new_listing_texts(variant: Variant) -> ListingTexts:
    return ListingTexts(tables_for(variant), variant.map)


listing_texts: CacheSlot[Variant, ListingTexts] = CacheSlot(
    "facade order strings", _new_listing_texts)
"""The package's strings of the orders listed in a variant (bounded: :class:`ListingTexts`)."""


def _order_text(order: Order, tables: MapTables) -> str:
    """The package's string of a legal order: the same as :func:`order_text`, made faster for
    the listing's orders (names from a table, no position needed; the order's class compared
    with ``type(order) is``, which narrows its type as ``isinstance`` would, at a fraction of
    the cost of an ``assert isinstance``)."""
    up, letter = _UPPER, _LETTER
    if type(order) is Move:
        unit = f"{letter[order.unit_type]} {up[order.location]}"
        dest = order.destination
        # (an army stands on a province, never on a coast: its location is its province)
        if order.unit_type is _ARMY and (
                order.via_convoy or dest not in tables.army_adj.get(order.location, ())):
            return f"{unit} - {up[dest]} VIA"
        return f"{unit} - {up[dest]}"
    if type(order) is SupportMove:
        return (f"{letter[order.unit_type]} {up[order.location]} S "
                f"{letter[order.supported_type]} {up[order.supported_location]}"
                f" - {up[order.destination]}")
    if type(order) is SupportHold:
        return (f"{letter[order.unit_type]} {up[order.location]} S "
                f"{letter[order.supported_type]} {up[order.supported_location]}")
    if type(order) is Hold:
        return f"{letter[order.unit_type]} {up[order.location]} H"
    if type(order) is Convoy:
        return (f"{letter[order.unit_type]} {up[order.location]} C A "
                f"{up[order.army_location]} - {up[order.destination]}")
    return order_text(order, tables)


def record_orders(game: _Game, record: PhaseRecord) -> dict[str, list[str]]:
    tables = tables_for(record.position.variant)
    out: dict[str, list[str]] = {p.upper(): [] for p in game.powers}
    for power, entries in record.orders.items():
        out[power.upper()] = [order_text(e.order, tables, record.position)
                              for e in entries if e.order is not None and e.ok
                              and not isinstance(e.order, Waive)]
    return out


def order_statuses(position: Position, resolution: Resolution) -> dict[str, list[str]]:
    """Results in the package's shape: unit text -> list of statuses (empty: it went through).

    In the package's words: a move that failed says ``bounce`` (``no convoy`` for an army whose
    convoy failed), a support ``cut``, an order that matched nothing ``void``; a dislodged unit
    adds ``dislodged`` to what its order says (a dislodged unit's move failed and its support
    was cut). A unit that does not survive a retreat phase says ``disband``; a build or removal
    carried out says ``""``, and each build a power that waived leaves unused one ``void``
    under the key ``WAIVE``.
    """
    out: dict[str, list[str]] = {}
    kind = position.phase.type
    moved: set[str] = set()
    unconvoyed: set[str] = set()
    by_land: set[str] = set()
    routeless: set[str] = set()
    if kind is PhaseType.MOVEMENT:
        for unit in position.units.values():
            out[unit_text(unit)] = []
        moved = {r.order.location for r in resolution.results
                 if r.outcome is Outcome.MOVED and isinstance(r.order, Move)}
        by_land = {r.order.location for r in resolution.results
                   if isinstance(r.order, Move) and not r.order.via_convoy
                   and _by_land(r.order, position)}
        routeless = {r.order.location for r in resolution.results
                     if isinstance(r.order, Move) and r.outcome is Outcome.NO_CONVOY}
        unconvoyed = {r.order.location for r in resolution.results
                      if isinstance(r.order, Move)
                      and _not_convoyed(r.order, r.outcome, position, resolution)}
    for result in resolution.results:
        order = result.order
        if isinstance(order, Waive):
            continue  # (reported the package's way below)
        key = f"{order.unit_type.value} {order.location.upper()}"
        if kind is PhaseType.MOVEMENT:
            owner = position.units.get(province_of(order.location))
            if owner is not None and owner.power != result.power:
                continue  # an order for another power's unit (rule NO_CHECK): not its result
        statuses = out.setdefault(key, [])
        if isinstance(order, SupportMove) and result.outcome is not Outcome.DISLODGED:
            # the package voids a support of an attack on a unit of the supporter's power
            # that does not move away, when that attack is the strongest on the province
            # (the support is what would have dislodged the unit: the attack is bounced)
            target = position.units.get(province_of(order.destination))
            if target is not None and target.power == result.power \
                    and target.location not in moved \
                    and _strongest_attack(order, resolution):
                statuses.append("void")
                continue
        if isinstance(order, Convoy) and order.army_location in unconvoyed \
                and (result.outcome is Outcome.NO_EFFECT
                     or (result.outcome is Outcome.DISLODGED and order.army_location in by_land)):
            # the army went over land, or its convoy failed (void too if it had no route)
            statuses.append("no convoy")
            if result.outcome is Outcome.DISLODGED:
                statuses.append("dislodged")
            elif order.army_location in routeless:
                statuses.append("void")
            continue
        if isinstance(order, Move) and order.location in unconvoyed \
                and result.outcome in (Outcome.BOUNCED, Outcome.SELF_DISLODGE) \
                and (order.via_convoy or not _by_land(order, position)):
            statuses.append("no convoy")  # its convoy was broken by a dislodged fleet
            continue
        if isinstance(order, SupportMove) and order.supported_location in unconvoyed \
                and result.outcome in (Outcome.SUPPORTED, Outcome.CUT) \
                and _failed_convoy(order, resolution):
            # a support of an army whose convoy failed: void if there was no route at all
            statuses.append("void" if order.supported_location in routeless else "no convoy")
            continue
        for status in _statuses_of(order, result.outcome, kind):
            if status not in statuses:
                statuses.append(status)
    if kind is PhaseType.MOVEMENT:
        dislodged = {d.unit.location for d in resolution.dislodged}
        for unit in position.units.values():
            if unit.location in dislodged:
                statuses = out.setdefault(unit_text(unit), [])
                if "dislodged" not in statuses:
                    statuses.append("dislodged")
    elif kind is PhaseType.ADJUSTMENTS:
        # The package pads a power's WAIVE to every build it leaves unused and reports each
        # of those waives as void, under the key WAIVE.
        waiving = {r.power for r in resolution.results if isinstance(r.order, Waive)}
        if waiving:
            counts = adjustment_counts(position)
            for power in sorted(waiving):
                due = min(counts.get(power, 0), len(build_sites(position, power)))
                built = sum(1 for r in resolution.results
                            if r.power == power and r.outcome is Outcome.BUILT)
                out.setdefault("WAIVE", []).extend(["void"] * max(0, due - built))
    elif kind is PhaseType.RETREATS:
        for text in disbanded_units(position, resolution):
            statuses = out.setdefault(text, [])
            if "disband" not in statuses:
                statuses.append("disband")
    return out


def disbanded_units(position: Position, resolution: Resolution) -> list[str]:
    """The dislodged units of a retreat phase that did not retreat (``"F TRI"``)."""
    retreated = {result.order.location for result in resolution.results
                 if result.outcome is Outcome.RETREATED and not isinstance(result.order, Waive)}
    return [unit_text(d.unit) for d in position.dislodged if d.unit.location not in retreated]


def _by_land(move: Move, position: Position) -> bool:
    """True if the move's destination is next to the unit by land."""
    return province_of(move.destination) in position.variant.map.army_neighbours(move.location)


def _failed_convoy(support: SupportMove, resolution: Resolution) -> bool:
    """True if the move ``support`` supports was an army's move whose convoy failed."""
    return any(isinstance(r.order, Move) and r.order.location == support.supported_location
               and r.outcome in _CONVOY_FAILED for r in resolution.results)


_CONVOY_FAILED = (Outcome.NO_CONVOY, Outcome.CONVOY_DISRUPTED, Outcome.PARADOX)


def _strongest_attack(support: SupportMove, resolution: Resolution) -> bool:
    """True if the move ``support`` supports is alone the strongest of the moves into its
    province and stronger than the unit there holding (strength: the move and the supports
    given to it that were not cut; the unit's holding strength: 1 and its supports to hold)."""
    target = province_of(support.destination)
    strengths: dict[str, int] = {}
    defence = 1
    for r in resolution.results:
        if isinstance(r.order, SupportHold) and r.outcome is Outcome.SUPPORTED \
                and province_of(r.order.supported_location) == target:
            defence += 1
        order = r.order
        if isinstance(order, Move) and province_of(order.destination) == target:
            strengths[order.location] = strengths.get(order.location, 0) + 1
        elif isinstance(order, SupportMove) and province_of(order.destination) == target \
                and r.outcome is Outcome.SUPPORTED:
            strengths[order.supported_location] = strengths.get(order.supported_location, 0) + 1
    mine = strengths.get(support.supported_location)
    if mine is None or mine <= defence:
        return False
    return all(strength < mine for location, strength in strengths.items()
               if location != support.supported_location)


def _not_convoyed(move: Move, outcome: Outcome, position: Position,
                  resolution: Resolution) -> bool:
    """True if an army's move was not carried by convoy: its convoy failed (a fleet of it was
    dislodged), or it went (or tried to go) over land."""
    if outcome in _CONVOY_FAILED:
        return True
    if move.unit_type is UnitType.ARMY and outcome in (Outcome.BOUNCED, Outcome.SELF_DISLODGE):
        convoys = [r.outcome for r in resolution.results
                   if isinstance(r.order, Convoy) and r.order.army_location == move.location]
        if convoys and all(o is Outcome.DISLODGED for o in convoys):
            return True
    return move.unit_type is UnitType.ARMY and not move.via_convoy and \
        province_of(move.destination) in position.variant.map.army_neighbours(move.location)


def _statuses_of(order: Order, outcome: Outcome, kind: PhaseType) -> tuple[str, ...]:
    """The package's statuses for one order's outcome (see :func:`order_statuses`)."""
    if outcome is Outcome.DISLODGED:
        if isinstance(order, Move):
            return ("bounce", "dislodged")
        if isinstance(order, SupportHold | SupportMove):
            return ("cut", "dislodged")
        return ("dislodged",)
    if outcome in (Outcome.NO_CONVOY, Outcome.CONVOY_DISRUPTED, Outcome.PARADOX) \
            and isinstance(order, Move):
        return ("no convoy",)
    if outcome is Outcome.PARADOX and isinstance(order, Convoy):
        return ("disrupted",)
    if kind is PhaseType.ADJUSTMENTS and outcome in (
            Outcome.BUILT, Outcome.REMOVED, Outcome.DISBANDED):
        return ("",)
    status = _STATUS.get(outcome)
    return () if status is None else (status,)


def _unit_from_text(power: str, text: str, the_map: Any) -> Unit | None:
    """``"F STP/SC"`` of ``power`` as a unit, or None if it cannot stand there."""
    words = text.upper().split()
    if len(words) != 2 or words[0] not in ("A", "F"):
        return None
    kind = UnitType.ARMY if words[0] == "A" else UnitType.FLEET
    location = words[1].lower()
    if not the_map.is_location(location) or not the_map.can_hold(kind, location):
        return None
    return Unit(power, kind, location)


def _province_of_text(unit: str) -> str:
    """``"F STP/SC"`` -> ``"STP"``."""
    return unit[2:].split("/")[0]


def _unit_of(order: Order) -> str:
    """The unit an order is for, as the package writes it."""
    assert not isinstance(order, Waive)
    return f"{order.unit_type.value} {order.location.upper()}"


def _split_order(text: str) -> tuple[str, str]:
    """``"A PAR - BUR"`` -> ``("A PAR", "- BUR")``."""
    words = text.split(" ", 2)
    return f"{words[0]} {words[1]}", words[2] if len(words) > 2 else ""


def _package_results(records: Sequence[PhaseRecord], voids: Mapping[str, list[str]] | None,
                     ) -> dict[str, list[str]]:
    """The package's results of the phase played first in ``records`` (a retreat phase the
    package skips, played straight after, adds its disbands): unit -> statuses; ``voids``
    (None for none): the units given a void order."""
    first = records[0]
    results = order_statuses(first.position, first.resolution)
    for unit, statuses in (voids or {}).items():  # (the package says void first)
        results[unit] = statuses + [s for s in results.get(unit, []) if s not in statuses]
    return results


def diplomacy_state(game: _Game, position: Position, influence: Mapping[str, str] | None = None,
                    *, note: str = "", civil_disorder: Collection[str] | None = None,
                    ) -> dict[str, Any]:
    """A position of ``game`` as the package's state dictionary (``Game.get_state()``).

    ``influence`` maps provinces to the last power that stood there (the package's idea);
    ``zobrist_hash`` is realpolitik's hash of the position, not the package's Zobrist hash.
    ``civil_disorder``: the powers in civil disorder then (by default the game's now).
    """
    disorder = game.civil_disorder if civil_disorder is None else civil_disorder
    names = {p.upper(): p for p in game.powers}
    units = _units_by_name(position, names)
    retreats = _retreats_by_name(position, game.rules, names)
    for name, retreating in retreats.items():
        units[name].extend("*" + unit for unit in retreating)
    influenced: dict[str, list[str]] = {name: [] for name in names}
    for province, owner in (influence or {}).items():
        influenced[owner.upper()].append(province.upper())
    builds: dict[str, dict[str, Any]] = {}
    counts = adjustment_counts(position)
    for power in game.powers:
        count = counts[power] if position.phase.type is PhaseType.ADJUSTMENTS else 0
        # The package calls the build sites "homes", whatever the variant lets a power build on.
        sites: list[str] = []
        if count > 0:
            sites = [site.upper() for site in build_sites(position, power)]
            count = min(count, len(sites))  # builds beyond the free sites are lost
        builds[power.upper()] = {"count": count, "homes": sites}
    return {
        "timestamp": int(time.time() * 1_000_000),
        "zobrist_hash": str(hash(position) & 0xFFFFFFFFFFFFFFFF),
        "note": note,
        "name": str(position.phase),
        "units": units,
        "retreats": retreats,
        "centers": _centers_by_name(position, names),
        "homes": {name: _home_names(game.variant, power) for name, power in names.items()},
        "influence": influenced,
        "civil_disorder": {p.upper(): int(p in disorder) for p in game.powers},
        "builds": builds,
    }


def update_influence(influence: dict[str, str], position: Position) -> None:
    """Record in ``influence`` the power standing in each province (centres keep their owner;
    a neutral unit, being no power's, changes nothing)."""
    # (at C speed in a variant without neutral units: this runs after every phase)
    units = position.units
    if position.variant.rules.neutral_units:
        for province, unit in units.items():
            if unit.power != NEUTRAL:
                influence[province] = unit.power
    else:
        influence.update(zip(units, map(_power_of, units.values()), strict=True))
    centers = position.centers
    if not influence.keys() >= centers.keys():  # (a centre no unit has stood in: rare)
        for center, owner in centers.items():
            if center not in influence:
                influence[center] = owner


_power_of = attrgetter("power")


def _units_by_name(position: Position, names: Mapping[str, str]) -> dict[str, list[str]]:
    """The package's power name -> its units on the board (``["A PAR", "F BRE"]``), for the
    powers of ``names`` (package name -> power id): neutral units are no power's."""
    return {name: [unit_text(unit) for unit in position.units_of(power)]
            for name, power in names.items()}


def _retreats_by_name(position: Position, rules: Rules, names: Mapping[str, str],
                      ) -> dict[str, dict[str, list[str]]]:
    """The package's power name -> its dislodged units that have somewhere to go, and where
    (the package disbands the others at once, without a retreat phase)."""
    out: dict[str, dict[str, list[str]]] = {name: {} for name in names}
    for name, power in names.items():
        for dislodged in position.dislodged_of(power):
            options = retreat_options(position, dislodged, rules=rules)
            if options:
                out[name][unit_text(dislodged.unit)] = [option.upper() for option in options]
    return out


def _centers_by_name(position: Position, names: Mapping[str, str]) -> dict[str, list[str]]:
    """The package's power name -> the supply centres it owns, sorted."""
    return {name: [center.upper() for center in position.centers_of(power)]
            for name, power in names.items()}


def _home_names(variant: Variant, power: str) -> list[str]:
    """The home centres of ``power`` as the package names them, sorted."""
    return sorted(center.upper() for center in variant.map.home_centers(power))
