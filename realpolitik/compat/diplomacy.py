"""A facade over :class:`realpolitik.game.Game` with the API of the ``diplomacy`` package.

Research code written for the ``diplomacy`` package on PyPI (1.1.2) runs on realpolitik by
changing one import::

    from realpolitik.compat.diplomacy import Game

    game = Game()
    while not game.is_game_done:
        possible = game.get_all_possible_orders()
        for power, locations in game.get_orderable_locations().items():
            game.set_orders(power, [possible[loc][0] for loc in locations if possible[loc]])
        game.process()

Order strings and location names are exactly that package's: upper case, coasts written
``STP/SC``, ``A PAR - BUR``, ``F NTH C A LON - BEL``, ``A LON - BEL VIA``, ``A PAR S A MAR``,
``A PAR B``, ``F BRE D``, ``A PAR R BUR``, ``WAIVE``. Powers are ``"FRANCE"`` and so on. The
rules are realpolitik's (an edition, the 2023 rulebook by default), so a few adjudications differ
from that package's where it departs from the DATC; ``docs/compat.md`` lists them.

Orders given as strings are looked up in a table of the current phase's legal orders (built once
per phase), so the canonical strings cost a dictionary look-up; anything else is read by the
lenient parser of :mod:`realpolitik.notation`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any

from realpolitik.adjudication.outcomes import Outcome, Resolution
from realpolitik.caches import Bounded, CacheSlot
from realpolitik.errors import RealpolitikError
from realpolitik.game import Game as _Game
from realpolitik.game import PhaseRecord
from realpolitik.geography import UnitType, province_of
from realpolitik.legality import adjustment_counts, build_sites, retreat_options
from realpolitik.listing import listed_orders
from realpolitik.maptables import MapTables, tables_for
from realpolitik.notation import parse_order
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
    unit_key,
)
from realpolitik.position import PhaseType, Position, Unit
from realpolitik.rules import Rules
from realpolitik.variant import Variant, load_variant
from realpolitik.variant_rules import NEUTRAL

__all__ = ["Game", "PhaseData", "PowerView", "diplomacy_state", "order_statuses", "order_text",
           "record_orders", "update_influence",
           "unit_text"]

_MAPS = {"standard": "classical"}
_LOADED: dict[str, Variant] = {}
"""Variants loaded so far, by map name: every game on a map shares one, as the package shares
its maps. A variant keeps what it has worked out about its map (order values, convoy routes),
so the games after the first start with it ready."""
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


class _PhaseTables:
    """What the facade derives from one position, built lazily and dropped when it changes."""

    __slots__ = ("position", "possible", "lookup", "units", "orderable", "retreats")

    def __init__(self, position: Position) -> None:
        self.position = position
        self.possible: dict[str, list[str]] | None = None
        self.lookup: dict[str, dict[str, Order]] = {}
        """power -> order string -> order, for the powers whose legal orders were listed."""
        self.units: dict[str, list[str]] | None = None
        self.orderable: dict[str, list[str]] | None = None
        self.retreats: dict[str, dict[str, list[str]]] | None = None


class PowerView:
    """A power as the ``diplomacy`` package shows it (``game.powers["FRANCE"]``), read-only."""

    __slots__ = ("_facade", "name")

    def __init__(self, facade: Game, name: str) -> None:
        self._facade = facade
        self.name = name
        """``"FRANCE"``."""

    @property
    def units(self) -> list[str]:
        """The power's units on the board: ``["A PAR", "F BRE"]``."""
        return self._facade._units_by_power().get(self.name, [])[:]

    @property
    def centers(self) -> list[str]:
        """The supply centres it owns."""
        centers: list[str] = self._facade.get_centers(self.name)
        return centers

    @property
    def homes(self) -> list[str]:
        """Its home centres."""
        return _home_names(self._facade.realpolitik_game.variant, self.name.lower())

    @property
    def retreats(self) -> dict[str, list[str]]:
        """Its dislodged units and where each may retreat: ``{"A TYR": ["BOH"]}``."""
        return self._facade._retreats().get(self.name, {})

    @property
    def orders(self) -> dict[str, str]:
        """Its orders for the current phase: unit -> the rest of the order."""
        out: dict[str, str] = {}
        for text in self._facade.get_orders(self.name):
            words = text.split(" ", 2)
            if len(words) == 3:
                out[f"{words[0]} {words[1]}"] = words[2]
        return out

    def is_eliminated(self) -> bool:
        """True once the power has no units and no centres."""
        return self.name.lower() in self._facade.realpolitik_game.eliminated

    def __repr__(self) -> str:
        return f"<PowerView {self.name}>"


class PhaseData:
    """What :meth:`Game.process` returns: the phase just played (the package's GamePhaseData)."""

    __slots__ = ("_facade", "_index", "name")

    def __init__(self, facade: Game, index: int) -> None:
        self._facade = facade
        self._index = index
        self.name: str = str(facade.realpolitik_game.history[index].position.phase)

    @property
    def state(self) -> dict[str, Any]:
        """The state at the start of the phase (as :meth:`Game.get_state`)."""
        record = self._facade.realpolitik_game.history[self._index]
        return self._facade._state_of(record.position)

    @property
    def orders(self) -> dict[str, list[str]]:
        """The orders carried into the phase, per power."""
        record = self._facade.realpolitik_game.history[self._index]
        return record_orders(self._facade.realpolitik_game, record)

    @property
    def results(self) -> dict[str, list[str]]:
        """unit -> statuses (``"bounce"``, ``"void"``, ``"cut"``, ``"dislodged"``...)."""
        record = self._facade.realpolitik_game.history[self._index]
        return order_statuses(record.position, record.resolution)

    def to_dict(self) -> dict[str, Any]:
        """The package's phase dictionary (name, state, orders, results, messages)."""
        return {"name": self.name, "state": self.state, "orders": self.orders,
                "results": self.results, "messages": []}


class _Upper(dict[str, str]):
    """Location id -> the package's name for it (``stp/sc`` -> ``STP/SC``), filled on use."""

    def __missing__(self, key: str) -> str:
        self[key] = value = key.upper()
        return value


_UPPER = _Upper()
_LETTER: Mapping[UnitType | None, str] = {UnitType.ARMY: "A", UnitType.FLEET: "F", None: "A"}


_MAX_TEXTS = 4096
"""How many strings of retreat and adjustment orders :data:`_texts_cache` keeps."""


def _no_texts(_variant: Variant) -> Bounded[Order, tuple[str, str | None]]:
    return Bounded(_MAX_TEXTS)


_texts_cache: CacheSlot[Variant, Bounded[Order, tuple[str, str | None]]] = CacheSlot(
    "facade order strings", _no_texts)
"""Order -> (its string, another string it is listed under or None), kept in
``variant.caches``: the listing gives the same orders phase after phase, so their strings are
made once. Bounded by :data:`_MAX_TEXTS`."""


def _texts_of(legal: Mapping[str, tuple[Order, ...]], tables: MapTables,
              table: dict[str, Order], texts: Bounded[Order, tuple[str, str | None]],
              ) -> None:
    """Fill ``table`` (order string -> order) from legal orders (location -> orders), their
    strings looked up in ``texts`` (:data:`_texts_cache`) and made by :func:`_order_texts`
    the first time."""
    for orders in legal.values():
        for order in orders:
            known = texts.get(order)
            if known is None:
                known = texts[order] = _order_texts(order, tables)
            table[known[0]] = order
            if known[1] is not None:
                table.setdefault(known[1], order)


_MAX_MOVEMENT_TEXTS = 1 << 15
"""How many movement orders :class:`_MovementTexts` keeps strings for before starting over:
those of the units of the games being played (a phase lists some 600); a few MB."""


class _MovementTexts:
    """The strings of listed movement orders, for one variant (``variant.caches``).

    The listing gives the same order objects phase after phase (:mod:`realpolitik.listing`
    keeps them per unit), so their strings are made once. They are looked up by the object's
    identity, which costs a fraction of hashing the order's fields: this is a memo of strings
    only (nothing here decides whether an order is legal, which is by value), and every entry
    holds its order (:attr:`held`), so no other object can take its id while the entry
    stands. A string names, for its power, one order, so :meth:`Game.set_orders` can find it
    without a table per phase (checking that the order is listed in the current position, by
    value). Bounded by :data:`_MAX_MOVEMENT_TEXTS` orders: then it starts over.
    """

    __slots__ = ("text", "held", "alias", "orders", "tables")

    def __init__(self, tables: MapTables) -> None:
        self.tables = tables
        self.text: dict[int, str] = {}
        """id(order) -> its string, for the orders in :attr:`held`."""
        self.held: dict[int, Order] = {}
        """id(order) -> the order: kept alive while its string is kept, so its id is its own."""
        self.alias: dict[str, str] = {}
        """A string -> the other string its order is also listed under (a support of a move
        to a coast is also listed without the coast, as the package does)."""
        self.orders: dict[str, dict[str, Order]] = {}
        """power -> string -> the order it names (an alias names the first order listed
        under it)."""

    def clear(self) -> None:
        """Start over (the tables are full)."""
        self.text.clear()
        self.held.clear()
        self.alias.clear()
        self.orders.clear()

    def text_of(self, order: Order) -> str:
        """The string of ``order``, made and kept the first time."""
        key = id(order)
        main = self.text.get(key)
        if main is not None:
            return main
        if len(self.text) >= _MAX_MOVEMENT_TEXTS:
            self.clear()
        main, other = _order_texts(order, self.tables)
        named = self.orders.setdefault(order.power or "", {})
        named.setdefault(main, order)
        if other is not None:
            self.alias[main] = other
            named.setdefault(other, order)
        self.held[key] = order
        self.text[key] = main
        return main

    def texts(self, orders: tuple[Order, ...]) -> list[str]:
        """The strings of one unit's orders, in order, each alias right after its order's
        string unless already there (as the package's listing has them)."""
        try:
            texts = list(map(self.text.__getitem__, map(id, orders)))
        except KeyError:  # some order met for the first time
            texts = list(map(self.text_of, orders))
        alias = self.alias
        if alias.keys().isdisjoint(texts):
            return texts
        out: list[str] = []
        for text in texts:
            out.append(text)
            other = alias.get(text)
            if other is not None and other not in out:
                out.append(other)
        return out


def _new_movement_texts(variant: Variant) -> _MovementTexts:
    return _MovementTexts(tables_for(variant))


_movement_texts: CacheSlot[Variant, _MovementTexts] = CacheSlot(
    "facade movement order strings", _new_movement_texts)
"""The strings of the listed movement orders (bounded by :data:`_MAX_MOVEMENT_TEXTS`)."""


def _order_texts(order: Order, tables: MapTables) -> tuple[str, str | None]:
    """The package's string of a legal order, and the other string it is also listed under:
    a support of a move to a coast is also listed without the coast, as the package does.
    The same strings as :func:`order_text` for these orders."""
    up, letter = _UPPER, _LETTER
    kind = order.__class__
    if kind is Waive:
        return order_text(order, tables), None
    assert not isinstance(order, Waive)
    unit = f"{letter[order.unit_type]} {up[order.location]}"
    if kind is SupportMove:
        assert isinstance(order, SupportMove)
        dest = order.destination
        head = f"{unit} S {letter[order.supported_type]} {up[order.supported_location]}"
        other = f"{head} - {up[province_of(dest)]}" if "/" in dest else None
        return f"{head} - {up[dest]}", other
    if kind is Move:
        assert isinstance(order, Move)
        dest = order.destination
        if order.unit_type is UnitType.ARMY and (
                order.via_convoy
                or dest not in tables.army_adj.get(province_of(order.location), ())):
            return f"{unit} - {up[dest]} VIA", None
        return f"{unit} - {up[dest]}", None
    if kind is SupportHold:
        assert isinstance(order, SupportHold)
        return f"{unit} S {letter[order.supported_type]} {up[order.supported_location]}", None
    if kind is Hold:
        return f"{unit} H", None
    if kind is Convoy:
        assert isinstance(order, Convoy)
        return f"{unit} C A {up[order.army_location]} - {up[order.destination]}", None
    return order_text(order, tables), None


def record_orders(game: _Game, record: PhaseRecord) -> dict[str, list[str]]:
    tables = tables_for(record.position.variant)
    out: dict[str, list[str]] = {p.upper(): [] for p in game.powers}
    for power, entries in record.orders.items():
        out[power.upper()] = [order_text(e.order, tables, record.position)
                              for e in entries if e.order is not None and e.ok
                              and not isinstance(e.order, Waive)]
    return out


def order_statuses(position: Position, resolution: Resolution) -> dict[str, list[str]]:
    """Results in the package's shape: unit text -> list of statuses (empty: it went through)."""
    out: dict[str, list[str]] = {}
    if position.phase.type is PhaseType.MOVEMENT:
        for unit in position.units.values():
            out[unit_text(unit)] = []
    for result in resolution.results:
        order = result.order
        key = "WAIVE" if isinstance(order, Waive) else \
            f"{order.unit_type.value} {order.location.upper()}"
        statuses = out.setdefault(key, [])
        status = _STATUS.get(result.outcome)
        if status is not None and status not in statuses:
            statuses.append(status)
    dislodged = {d.unit.location for d in resolution.dislodged}
    if dislodged and position.phase.type is PhaseType.MOVEMENT:
        for unit in position.units.values():
            if unit.location in dislodged:
                statuses = out.setdefault(unit_text(unit), [])
                if "dislodged" not in statuses:
                    statuses.append("dislodged")
    return out


class Game:
    """A game with the calls of ``diplomacy.Game``, played by realpolitik's engine.

    ``map_name`` is ``"standard"`` (or any realpolitik variant); ``rules`` are the package's rule
    flags, kept and reported but not acted on. ``edition`` picks realpolitik's rules (a
    :class:`realpolitik.rules.Rules` or an edition name; the 2023 rulebook by default).
    The realpolitik game underneath is :attr:`realpolitik_game`.
    """

    def __init__(
        self,
        game_id: str | None = None,
        *,
        map_name: str = "standard",
        rules: Iterable[str] | None = None,
        edition: Rules | str = "2000",
        seed: int = 0,
        **kwargs: Any,
    ) -> None:
        variant = _LOADED.get(map_name)
        if variant is None:
            variant = _LOADED[map_name] = load_variant(_MAPS.get(map_name, map_name))
        self.realpolitik_game = _Game(variant, rules=edition, seed=seed)
        self.game_id: str = game_id or f"realpolitik-{int(time.time() * 1e6):x}"
        self.map_name = map_name
        self.rules: list[str] = list(rules) if rules is not None else ["NO_PRESS",
                                                                       "POWER_CHOICE"]
        self.error: list[str] = []
        """Orders that could not be read or are illegal, as the package keeps them."""
        self.note = ""
        self._tables = tables_for(variant)
        self._texts = _texts_cache(variant)
        self._movement_texts = _movement_texts(variant)
        self._upper_locations = [loc.upper() for loc in variant.map.locations]
        self._names: dict[str, str] = {p.upper(): p for p in variant.power_ids}
        self._powers = {name: PowerView(self, name) for name in self._names}
        self._phase: _PhaseTables = _PhaseTables(self.realpolitik_game.position)
        self._influence: dict[str, str] = {}
        self._update_influence()

    # -- the state ----------------------------------------------------------------------------

    def _current(self) -> _PhaseTables:
        position = self.realpolitik_game.position
        if self._phase.position is not position:
            self._phase = _PhaseTables(position)
        return self._phase

    @property
    def powers(self) -> dict[str, PowerView]:
        """``{"AUSTRIA": <PowerView AUSTRIA>, ...}``."""
        return dict(self._powers)

    @property
    def is_game_done(self) -> bool:
        """True once the game has ended."""
        return self.realpolitik_game.is_over

    @property
    def current_short_phase(self) -> str:
        """``"S1901M"``, or ``"COMPLETED"``."""
        return self.get_current_phase()

    @property
    def phase(self) -> str:
        """``"SPRING 1901 MOVEMENT"``, or ``"COMPLETED"``."""
        short = self.get_current_phase()
        if short == "COMPLETED":
            return short
        return f"{_SEASON_NAMES[short[0]]} {short[1:-1]} {_PHASE_TYPE_NAMES[short[-1]]}"

    @property
    def phase_type(self) -> str:
        """``"M"``, ``"R"`` or ``"A"`` (``None`` once the game is over)."""
        return self.realpolitik_game.phase.type.value

    def get_current_phase(self) -> str:
        """``"S1901M"``, ``"F1901R"``, ``"W1901A"``, or ``"COMPLETED"`` once the game is over."""
        if self.realpolitik_game.is_over:
            return "COMPLETED"
        return str(self.realpolitik_game.phase)

    def get_map_power_names(self) -> list[str]:
        """The powers of the map: ``["AUSTRIA", ...]``."""
        return list(self._names)

    def get_power(self, power_name: str) -> PowerView:
        """The power called ``power_name``."""
        return self._powers[self._power_id(power_name).upper()]

    def _power_id(self, power_name: str) -> str:
        power = self._names.get(power_name.upper())
        if power is None:
            raise ValueError(f"unknown power {power_name!r}; the powers are "
                             + ", ".join(self._names))
        return power

    def _units_by_power(self) -> dict[str, list[str]]:
        cache = self._current()
        if cache.units is None:
            cache.units = _units_by_name(cache.position, self._names)
        return cache.units

    def _retreats(self) -> dict[str, dict[str, list[str]]]:
        """Dislodged units that have somewhere to go, and where (the package disbands the
        others at once, without a retreat phase)."""
        cache = self._current()
        if cache.retreats is None:
            cache.retreats = _retreats_by_name(cache.position, self.realpolitik_game.rules,
                                               self._names)
        return cache.retreats

    def get_units(self, power_name: str | None = None) -> Any:
        """A power's units (``["A PAR", "*F BRE"]``, dislodged ones starred), or every power's."""
        units = self._units_by_power()
        dislodged: dict[str, list[str]] = {}
        for name, retreating in self._retreats().items():
            dislodged[name] = ["*" + unit for unit in retreating]
        if power_name is not None:
            name = self._power_id(power_name).upper()
            return units[name] + dislodged.get(name, [])
        return {name: units[name] + dislodged.get(name, []) for name in self._names}

    def get_centers(self, power_name: str | None = None) -> Any:
        """A power's supply centres (``["BRE", "MAR", "PAR"]``), or every power's."""
        centers = _centers_by_name(self.realpolitik_game.position, self._names)
        if power_name is not None:
            return centers[self._power_id(power_name).upper()]
        return centers

    def get_orderable_locations(self, power_name: str | None = None) -> Any:
        """Where a power has something to order (sorted provinces), or every power's."""
        cache = self._current()
        if cache.orderable is None:
            cache.orderable = self._orderable(cache.position)
        if power_name is not None:
            return cache.orderable[self._power_id(power_name).upper()][:]
        return {name: locs[:] for name, locs in cache.orderable.items()}

    def _orderable(self, position: Position) -> dict[str, list[str]]:
        """The package's power name -> where it has something to order, for the powers the
        engine says have something to order (not neutral units, nor eliminated powers)."""
        out: dict[str, list[str]] = {name: [] for name in self._names}
        game = self.realpolitik_game
        if game.is_over:
            return out
        kind = position.phase.type
        counts = adjustment_counts(position) if kind is PhaseType.ADJUSTMENTS else {}
        for power in game.powers_to_order():
            name = power.upper()
            if kind is PhaseType.MOVEMENT:
                out[name] = [unit.province.upper() for unit in position.units_of(power)]
            elif kind is PhaseType.RETREATS:
                retreating = self._retreats()[name]
                out[name] = [d.unit.province.upper() for d in position.dislodged_of(power)
                             if unit_text(d.unit) in retreating]
            elif counts[power] > 0:
                out[name] = [site.upper() for site in build_sites(position, power)]
            else:
                out[name] = [unit.province.upper() for unit in position.units_of(power)]
        for locs in out.values():
            locs.sort()
        return out

    # -- legal orders -------------------------------------------------------------------------

    def _lookup(self, power: str) -> dict[str, Order]:
        """Order string -> order, for every legal order of ``power`` in the current phase."""
        cache = self._current()
        table = cache.lookup.get(power)
        if table is None:
            table = {}
            if not self.realpolitik_game.is_over:
                legal = self.realpolitik_game.legal_orders(power)
                if cache.position.phase.type is PhaseType.RETREATS:
                    retreating = self._retreats()[power.upper()]
                    legal = {loc: orders for loc, orders in legal.items()
                             if any(unit.endswith(f" {loc.upper()}") for unit in retreating)}
                _texts_of(legal, self._tables, table, self._texts)
            cache.lookup[power] = table
        return table

    def get_all_possible_orders(self) -> dict[str, list[str]]:
        """Every location (upper case, coasts too) -> every legal order string there.

        A unit on a coast has its orders under the coast and under the province; in an
        adjustment phase ``WAIVE`` is listed at each place a power may build.
        """
        cache = self._current()
        if cache.possible is None:
            cache.possible = self._possible(cache)
        return {loc: orders[:] for loc, orders in cache.possible.items()}

    def _possible(self, cache: _PhaseTables) -> dict[str, list[str]]:
        the_map = self.realpolitik_game.variant.map
        possible: dict[str, list[str]] = {loc: [] for loc in self._upper_locations}
        if self.realpolitik_game.is_over:
            return possible
        up = _UPPER
        game = self.realpolitik_game
        if cache.position.phase.type is PhaseType.MOVEMENT:
            # One unit's strings at a time; no string -> order table (set_orders finds the
            # order by its string among those the variant's listing made).
            texts = self._movement_texts.texts
            for power in game.powers_to_order():
                for location, orders in game.legal_orders(power).items():
                    unit_texts = possible[up[location]] = texts(orders)
                    province = province_of(location)
                    if province != location:
                        possible[up[province]] = unit_texts[:]
            return possible
        adjustments = cache.position.phase.type is PhaseType.ADJUSTMENTS
        for power in self.realpolitik_game.powers_to_order():
            table = self._lookup(power)
            sites: set[str] = set()
            waive = False
            if not adjustments:
                # a unit's orders come one unit after another: one look-up per unit
                last = ""
                here: list[str] = []
                there: list[str] | None = None
                for text, order in table.items():
                    assert not isinstance(order, Waive)  # (retreats: no waive is listed)
                    location = order.location
                    if location != last:
                        last = location
                        here = possible[up[location]]
                        province = province_of(location)
                        there = possible[up[province]] if province != location else None
                    here.append(text)
                    if there is not None:
                        there.append(text)
                continue
            for text, order in table.items():
                if isinstance(order, Waive):
                    waive = True
                    continue
                location = order.location
                possible[up[location]].append(text)
                province = province_of(location)
                if province != location:
                    possible[up[province]].append(text)
                if isinstance(order, Build):
                    sites.add(province)
            if waive:
                for site in sites:
                    for loc in (site, *the_map.coasts(site)):
                        possible[loc.upper()].append("WAIVE")
        return possible

    # -- orders -------------------------------------------------------------------------------

    def set_orders(self, power_name: str, orders: str | Iterable[str], expand: bool = True,
                   replace: bool = True) -> None:
        """Give orders for a power, in the package's strings (``["A PAR - BUR", ...]``).

        Orders for units already ordered this phase replace the earlier ones (with ``replace``,
        else they are ignored). Orders that cannot be read or are illegal are kept in
        :attr:`error` and not carried out, as the package does.
        """
        power = self._power_id(power_name)
        game = self.realpolitik_game
        if game.is_over:
            return
        texts = [orders] if isinstance(orders, str) else list(orders)
        if game.phase.type is PhaseType.MOVEMENT:
            # The order a string names, if the listing made it and lists it now (else the
            # slow path reads the string).
            listed = listed_orders(game.position, power, rules=game.rules).holds
            named = self._movement_texts.orders.get(power, {})
            table: dict[str, Order] = {
                text: order for text in texts
                if (order := named.get(text)) is not None and listed(order)}
        else:
            table = self._lookup(power)
        values: list[Order] = []
        for text in texts:
            if not text:
                continue
            order = table.get(text)
            if order is None:
                order = self._read(power, text)
                if order is None:
                    continue
            values.append(order)
        if game.phase.type is PhaseType.ADJUSTMENTS:
            # as in the package, a WAIVE only takes up a build no build order claims
            values.sort(key=lambda o: isinstance(o, Waive))
        if not replace:
            taken = {unit_key(e.order) for e in game.orders_of(power)
                     if e.order is not None} - {None}  # (a waive is for no unit)
            values = [o for o in values if unit_key(o) not in taken]
        report = game.submit(power, values, replace_all=False)
        for entry in report:
            if not entry.ok:
                self.error.append(f"{power_name.upper()}: {entry.text}: {entry.error}")

    def _read(self, power: str, text: str) -> Order | None:
        """The slow path: an order string not in the table of legal orders."""
        table = self._lookup(power)
        words = text.upper().split()
        normal = " ".join(words)
        order = table.get(normal)
        if order is None and len(words) == 4 and words[2] == "-" and words[0] == "A":
            order = table.get(normal + " VIA")  # the package accepts a convoyed move without VIA
        if order is not None:
            return order
        try:
            return parse_order(text, self.realpolitik_game.position, power=power)
        except RealpolitikError as error:
            self.error.append(f"{power.upper()}: {text}: {error}")
            return None

    def get_orders(self, power_name: str | None = None) -> Any:
        """The orders given so far this phase (WAIVE left out, as the package does)."""
        game = self.realpolitik_game
        position = game.position
        if power_name is not None:
            power = self._power_id(power_name)
            return [order_text(e.order, self._tables, position) for e in game.orders_of(power)
                    if e.order is not None and e.ok and not isinstance(e.order, Waive)]
        return {name: self.get_orders(name) for name in self._names}

    def clear_orders(self, power_name: str | None = None) -> None:
        """Withdraw a power's orders (or every power's) for this phase."""
        powers = [self._power_id(power_name)] if power_name else list(self._names.values())
        for power in powers:
            self.realpolitik_game.clear_orders(power)

    def set_wait(self, power_name: str, wait: bool) -> None:
        """Accepted for compatibility; realpolitik processes when told to."""
        self._power_id(power_name)

    def process(self) -> PhaseData:
        """Adjudicate the phase and move to the next one; returns the phase just played."""
        game = self.realpolitik_game
        game.process()
        index = len(game.history) - 1
        # The package disbands units with nowhere to retreat at once and skips a retreat
        # phase that has nothing left to order.
        while not game.is_over and game.phase.type is PhaseType.RETREATS \
                and not any(self._retreats().values()):
            game.process()
        self._update_influence()
        self.error = []
        return PhaseData(self, index)

    def _update_influence(self) -> None:
        update_influence(self._influence, self.realpolitik_game.position)

    def get_order_status(self, power_name: str | None = None) -> Any:
        """The results of the last phase played: unit -> statuses, per power."""
        game = self.realpolitik_game
        if not game.history:
            return {} if power_name is not None else {name: {} for name in self._names}
        record = game.history[-1]
        statuses = order_statuses(record.position, record.resolution)
        owner: dict[str, str] = {}
        for unit in record.position.units.values():
            owner[unit_text(unit)] = unit.power.upper()
        for d in record.position.dislodged:
            owner[unit_text(d.unit)] = d.unit.power.upper()
        for result in record.resolution.results:
            if not isinstance(result.order, Waive):
                owner.setdefault(f"{result.order.unit_type.value} "
                                 f"{result.order.location.upper()}", result.power.upper())
        by_power: dict[str, dict[str, list[str]]] = {name: {} for name in self._names}
        for text, status in statuses.items():
            mine = by_power.get(owner.get(text, ""))
            if mine is not None:  # a neutral unit is no power's
                mine[text] = status
        if power_name is not None:
            return by_power[self._power_id(power_name).upper()]
        return by_power

    # -- the whole state ----------------------------------------------------------------------

    def get_state(self) -> dict[str, Any]:
        """The package's state dictionary for the current phase.

        ``zobrist_hash`` is realpolitik's hash of the position (not the package's Zobrist hash);
        ``influence`` follows the package's idea (the last power to stand in a province).
        """
        state = self._state_of(self.realpolitik_game.position)
        if self.realpolitik_game.is_over:
            state["name"] = "COMPLETED"
        return state

    def _state_of(self, position: Position) -> dict[str, Any]:
        return diplomacy_state(self.realpolitik_game, position, self._influence, note=self.note)

    def __repr__(self) -> str:
        return f"<compat.diplomacy.Game {self.game_id} {self.get_current_phase()}>"


def diplomacy_state(game: _Game, position: Position, influence: Mapping[str, str] | None = None,
                    *, note: str = "") -> dict[str, Any]:
    """A position of ``game`` as the package's state dictionary (``Game.get_state()``).

    ``influence`` maps provinces to the last power that stood there (the package's idea);
    ``zobrist_hash`` is realpolitik's hash of the position, not the package's Zobrist hash.
    """
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
        "civil_disorder": {p.upper(): int(p in game.civil_disorder) for p in game.powers},
        "builds": builds,
    }


def update_influence(influence: dict[str, str], position: Position) -> None:
    """Record in ``influence`` the power standing in each province (centres keep their owner;
    a neutral unit, being no power's, changes nothing)."""
    # (one pass over the board, in its order: this runs after every phase)
    for province, unit in position.units.items():
        if unit.power != NEUTRAL:
            influence[province] = unit.power
    for center, owner in position.centers.items():
        influence.setdefault(center, owner)



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
