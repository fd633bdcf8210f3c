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
rules are realpolitik's (the 2000 rulebook by default, the package's reading), so a few
adjudications differ from that package's where it departs from the DATC; ``docs/compat.md``
lists them. :func:`realpolitik.compat.install` serves this module as ``diplomacy`` itself.

The strings are made from realpolitik's listing (:mod:`realpolitik.listing`), each once and
kept with the variant; in a movement phase a unit's strings are assembled the way the listing
assembled its orders, from its head and its supports' small integer keys, without looking an
order up (:class:`~realpolitik.compat.diplomacy_words.ListingTexts`). A string given to
:meth:`Game.set_orders` that the listing gave names its order by one dictionary look-up, and
the engine checks it once, when it is handed over (it is listed in this position or it is
not); anything else is read by the lenient parser of :mod:`realpolitik.notation` and checked
here.
"""

from __future__ import annotations

import copy
import hashlib
import time
from collections.abc import Iterable, Mapping, Sequence
from operator import attrgetter
from typing import Any, cast

from realpolitik.compat.diplomacy_map import Map, classical_year
from realpolitik.compat.diplomacy_message import (
    GLOBAL,
    OBSERVER,
    OMNISCIENT,
    SYSTEM,
    Deferred,
    GamePhaseData,
    Message,
    SortedDict,
    timestamp_microseconds,
)
from realpolitik.compat.diplomacy_names import DEFAULT_GAME_RULES
from realpolitik.compat.diplomacy_words import (
    _PHASE_TYPE_NAMES,
    _SEASON_NAMES,
    _Given,
    _home_names,
    _package_results,
    _province_of_text,
    _retreats_by_name,
    _split_order,
    _unit_from_text,
    _unit_of,
    _unit_of_text,
    diplomacy_state,
    disbanded_units,
    listing_texts,
    order_statuses,
    order_text,
    record_orders,
    unit_text,
    update_influence,
)
from realpolitik.errors import GameError, RealpolitikError
from realpolitik.game import Game as _Game
from realpolitik.game import PhaseRecord, SubmittedOrder
from realpolitik.geography import province_of
from realpolitik.legality import adjustment_counts, check_order, retreat_options
from realpolitik.listing import listed_orders, movement_parts
from realpolitik.maptables import MapTables, tables_for
from realpolitik.notation import parse_order
from realpolitik.orders import (
    Build,
    Order,
    Waive,
)
from realpolitik.position import DislodgedUnit, Phase, PhaseType, Position, Season, Unit
from realpolitik.rules import Rules, SupportCoast, rules_for
from realpolitik.variant import Variant, load_variant

__all__ = ["Game", "GamePhaseData", "Map", "Message", "Power", "SortedDict", "diplomacy_state",
           "order_statuses", "order_text", "record_orders", "update_influence", "unit_text"]

PACKAGE_RULES = rules_for("2000", {"4.A.2": "szykman", "4.A.5": "allowed"})
"""The rules the facade plays by default, the package's reading: the 2000 rulebook, and a unit
dislodged by a convoyed attack may retreat to the province the attack came from (DATC 4.A.5;
the package allows it)."""

_MAPS = {"standard": "classical"}
_LOADED: dict[str, Variant] = {}
"""Variants loaded so far, by map name: every game on a map shares one, as the package shares
its maps. A variant keeps what it has worked out about its map (order values, convoy routes),
so the games after the first start with it ready."""

_NOBODY: frozenset[str] = frozenset()
"""No power (in civil disorder): the state history's value for most phases, not made anew."""

_GivenEntry = str | dict[str, str] | list[str] | None
"""One of the four items, one after the other, of a power's orders as given in a phase: its
name, its orders (or None), the strings a quick :meth:`Game.set_orders` found (or None), its
adjustment orders (in one flat list for all the powers: the history keeps no tuple per power
and phase, each an object more for the garbage collector to count)."""


class _PhaseTables:
    """What the facade derives from one position, built lazily and dropped when it changes."""

    __slots__ = ("position", "possible", "possible_given", "lookup", "units", "orderable",
                 "orderable_given", "retreats", "winter_listed", "winter_rules")

    def __init__(self, position: Position) -> None:
        self.position = position
        self.possible: dict[str, list[str]] | None = None
        """What :meth:`Game.get_all_possible_orders` returns, kept once asked for twice."""
        self.possible_given = False
        """True once :meth:`Game.get_all_possible_orders` has handed over what it made."""
        self.lookup: dict[str, dict[str, Order]] = {}
        """power -> order string -> order, for the powers whose legal orders were listed."""
        self.units: dict[str, list[str]] | None = None
        self.orderable: dict[str, list[str]] | None = None
        """What :meth:`Game.get_orderable_locations` returns for every power (made with the
        listing), kept until handed over, then once asked for twice."""
        self.orderable_given = False
        """True once :meth:`Game.get_orderable_locations` has handed over what it made."""
        self.retreats: dict[str, dict[str, list[str]]] | None = None
        self.winter_listed: dict[str, set[str]] | None = None
        """In an adjustment phase listed by :meth:`Game.get_all_possible_orders`: power ->
        the strings of its orders listed (a string given that is one of them names a listed
        order: :meth:`Game._set_adjustments` need not look its order up in the listing)."""
        self.winter_rules: Rules | None = None
        """The engine's rules :attr:`winter_listed` was listed under (read only under them)."""


class Power:
    """A power as the ``diplomacy`` package has it (``game.powers["FRANCE"]``).

    ``units``, ``centers``, ``retreats`` and ``orders`` are the game's own: changing them
    changes the game (as in the package), and the facade reads them back into realpolitik's
    position before it next lists, checks or adjudicates orders. Until then they are made from
    the position only when first read, so a program that never reads them never pays for them.
    """

    def __init__(self, game: Game, name: str) -> None:
        self.game = game
        self.name = name
        """``"FRANCE"``."""
        self.homes: list[str] = _home_names(game.realpolitik_game.variant, name.lower())
        """Its home centres, sorted."""
        self._orders: dict[str, str] | None = None
        """:attr:`orders`, or None while not made (the orders are then :attr:`_found`'s, or
        none)."""
        self.adjust: list[str] = []
        """Its retreat or adjustment orders for the current phase (whole order strings)."""
        self.civil_disorder = 0
        self.role = "server_type"
        self.controller: dict[int, str | None] = {0: None}
        self.vote = "neutral"
        self.wait = False
        self.order_is_set = 0
        self._board: Position | None = None
        """The position :attr:`_units`, :attr:`_centers` and :attr:`_retreats` were made from
        (None: not made yet)."""
        self._units: list[str] = []
        self._centers: list[str] = []
        self._retreats: dict[str, list[str]] = {}
        self._seen: tuple[list[str], list[str], dict[str, list[str]]] | None = None
        """Copies of the three as made, to see whether the caller changed them."""
        self._values: dict[str, tuple[str, Order]] | None = None
        """unit (or place) -> (the order text in :attr:`orders` or :attr:`adjust`, the order
        it was read as); None while not made: read through :meth:`_kept`, which makes it from
        :attr:`_found`."""
        self._found: list[str] | None = None
        """The movement orders one call of :meth:`Game.set_orders` gave, all strings the
        listing gave (its quick path; a copy of the list given), from which :attr:`orders`
        and :attr:`_values` are made when first read (seldom: the orders are handed to the
        engine as they are, and the history keeps this list), with the game's table of
        strings given (:meth:`Game._given_table`), which named them."""
        self._voids: list[str] = []
        """Units given an order that could not be read or is illegal (results: ``void``)."""
        self._sent: tuple[Position, dict[str, str] | list[str] | None] | None = None
        """The position and a copy of :attr:`orders` (or :attr:`adjust`) when they were last
        handed to the engine: unchanged since, they need not be handed over again (None for
        the copy: handed over as :attr:`_found`, and :attr:`orders` not made since, so not
        changed)."""

    @property
    def orders(self) -> dict[str, str]:
        """Its movement orders for the current phase: unit -> the rest of the order
        (``{"A PAR": "- BUR"}``); with the rule ``NO_CHECK``, ``"ORDER 1"`` -> the order as
        given. Changing it changes the orders the game adjudicates."""
        orders = self._orders
        if orders is None:
            orders = self._orders = {unit: rest for unit, rest, _ in self._found_entries()}
            sent = self._sent
            if sent is not None and sent[1] is None:  # (handed over as found: what the
                # caller may now change is compared with what was handed over)
                self._sent = (sent[0], orders.copy())
        return orders

    @orders.setter
    def orders(self, value: dict[str, str]) -> None:
        self.orders  # noqa: B018 (made first: what was handed over is then known)
        self._orders = value

    def _has_orders(self) -> bool:
        """True if it has movement orders for the current phase (without making
        :attr:`orders`)."""
        orders = self._orders
        return bool(self._found) if orders is None else bool(orders)

    # -- the board, as the package's lists --------------------------------------------------

    def _made(self) -> None:
        """Make the lists from the game's position if they are not the position's yet."""
        position = self.game.realpolitik_game.position
        if self._board is position:
            return
        self._board = position
        self.game._read_lists.add(self.name)
        self._units = [unit_text(unit) for unit in position.units_of(self.name.lower())]
        self._centers = [center.upper() for center in position.centers_of(self.name.lower())]
        self._retreats = {unit: options[:] for unit, options
                          in self.game._retreats().get(self.name, {}).items()}
        self._seen = (self._units[:], self._centers[:],
                      {unit: options[:] for unit, options in self._retreats.items()})

    def _changed(self) -> bool:
        """True if the caller changed the lists since they were made from the position."""
        if self._board is None or self._board is not self.game.realpolitik_game.position:
            return False
        seen = self._seen
        return seen is None or seen[0] != self._units or seen[1] != self._centers \
            or seen[2] != self._retreats

    def _synced(self, position: Position) -> None:
        """The lists as they stand are ``position``'s (the facade has just made it from them)."""
        if self._board is not None:
            self._board = position
            self._seen = (self._units[:], self._centers[:],
                          {unit: options[:] for unit, options in self._retreats.items()})

    @property
    def units(self) -> list[str]:
        """Its units on the board: ``["A PAR", "F BRE"]``."""
        self._made()
        return self._units

    @units.setter
    def units(self, value: list[str]) -> None:
        self._made()
        self._units = value

    @property
    def centers(self) -> list[str]:
        """The supply centres it owns."""
        self._made()
        return self._centers

    @centers.setter
    def centers(self, value: list[str]) -> None:
        self._made()
        self._centers = value

    @property
    def retreats(self) -> dict[str, list[str]]:
        """Its dislodged units and where each may retreat: ``{"A TYR": ["BOH"]}``."""
        self._made()
        return self._retreats

    @retreats.setter
    def retreats(self, value: dict[str, list[str]]) -> None:
        self._made()
        self._retreats = value

    @property
    def influence(self) -> list[str]:
        """The provinces where it stood last (the package's idea)."""
        return sorted(p.upper() for p, owner in self.game._influence.current().items()
                      if owner == self.name.lower())

    def is_eliminated(self) -> bool:
        """True once the power has no units, no dislodged units and no centres."""
        return not (self.units or self.centers or self.retreats)

    def is_dummy(self) -> bool:
        """True: no player controls a power of a local game."""
        return True

    def clear_units(self) -> None:
        """Take its units off the board (dislodged ones too)."""
        self.units = []
        self.retreats = {}

    def clear_centers(self) -> None:
        """It owns no centre."""
        self.centers = []

    def clear_orders(self) -> None:
        """Withdraw its orders for the current phase."""
        if self._sent is not None:  # the engine has them already: withdrawn there too
            self.game.realpolitik_game.clear_orders(self.game._names[self.name])
        self._reset_orders()

    def _kept(self) -> dict[str, tuple[str, Order]]:
        """:attr:`_values`, made from :attr:`_found` if a quick :meth:`Game.set_orders` gave
        the orders."""
        values = self._values
        if values is None:
            # (a string whose order is no longer known, its tables dropped since, is left
            # out: Game._given_orders then reads it again)
            values = self._values = {unit: (rest, order) for unit, rest, order
                                     in self._found_entries() if order is not None}
        return values

    def _found_entries(self) -> Iterable[tuple[str, str, Order | None]]:
        """(unit, the rest of the order, the order) of each string of :attr:`_found`, as its
        table named them (the order None if it no longer can)."""
        found = self._found
        if not found:
            return
        game = self.game
        power = game._names[self.name]
        table = game._given.get(power) or game._given_table(power)
        for text in found:
            entry = table.entry(text)
            if entry is None:
                unit = _unit_of_text(text)
                yield unit, text[len(unit) + 1:], None
            else:
                yield entry

    def _reset_orders(self) -> None:
        # (an empty list is kept: a new one per power and phase is garbage; the orders and
        # their values are made again when read)
        self._orders = self._found = self._values = None
        if self.adjust:
            self.adjust = []
        if self._voids:
            self._voids = []
        self._sent = None

    def __repr__(self) -> str:
        return f"<Power {self.name}>"

    def __str__(self) -> str:
        return self.name


class Game:
    """A game with the calls of ``diplomacy.Game``, played by realpolitik's engine.

    ``map_name`` is ``"standard"`` (or any realpolitik variant); ``rules`` are the package's
    rule names (``NO_CHECK`` keeps orders unchecked until adjudication, as in the package; the
    others are kept and reported). ``edition`` picks realpolitik's rules (a
    :class:`realpolitik.rules.Rules` or an edition name; :data:`PACKAGE_RULES` by default, the
    package's reading). The realpolitik game underneath is :attr:`realpolitik_game`.
    """

    def __init__(
        self,
        game_id: str | None = None,
        *,
        map_name: str = "standard",
        rules: Iterable[str] | None = None,
        edition: Rules | str | None = None,
        seed: int = 0,
        **kwargs: Any,
    ) -> None:
        variant = _LOADED.get(map_name)
        if variant is None:
            variant = _LOADED[map_name] = load_variant(_MAPS.get(map_name, map_name))
        classical_year(variant)
        self.realpolitik_game = _Game(variant, rules=PACKAGE_RULES if edition is None else edition,
                                      seed=seed)
        self.game_id: str = game_id or f"realpolitik-{int(time.time() * 1e6):x}"
        self.map_name = map_name
        self.rules: list[str] = []
        self.no_rules: set[str] = set()
        for rule in (DEFAULT_GAME_RULES if rules is None else rules):
            self.add_rule(rule)
        self.error: list[str] = []
        """Orders that could not be read or are illegal, as the package keeps them."""
        self.note = ""
        self.status: str = kwargs.get("status", "forming")
        self.role = "server_type"
        self.outcome: list[str] = []
        """Once the game is over: the last phase, then the winners."""
        self.messages: SortedDict[Message] = SortedDict()
        """This phase's messages: time sent -> :class:`Message`."""
        self.message_history: SortedDict[SortedDict[Message]] = SortedDict()
        self.order_history: SortedDict[dict[str, list[str]]] = SortedDict()
        self.state_history: SortedDict[dict[str, Any]] = SortedDict()
        self.result_history: SortedDict[dict[str, list[str]]] = SortedDict()
        self._last: tuple[PhaseRecord, ...] = ()
        """The realpolitik records of the phase played last (and of a retreat phase played
        with it)."""
        self._played: dict[str, Any] = {}
        """What :attr:`command`, :attr:`ordered_units`, :attr:`dislodged` and :attr:`popped`
        say of :attr:`_last`, once read."""
        self._completed = False
        """Set when the game was ended by the facade (a draw, or ``phase = "COMPLETED"``)."""
        self._tables = tables_for(variant)
        self._texts = listing_texts(variant)
        self._given: dict[str, _Given] = {}
        """power -> the variant's table of the strings given for it, as this game's rules read
        them (:meth:`_given_table`)."""
        self._upper_locations = [loc.upper() for loc in variant.map.locations]
        self._no_orders: dict[str, Any] = dict.fromkeys(self._upper_locations)
        """Every location (upper case) -> None: what :meth:`_possible` copies (made at its
        size at once, where a comprehension grows the dictionary four times) before it puts
        a fresh list under each location."""
        self._names: dict[str, str] = {p.upper(): p for p in variant.power_ids}
        self._read_lists: set[str] = set()
        """The powers whose lists (:attr:`Power.units`...) have been made: only those can have
        been changed by the caller."""
        self.powers: dict[str, Power] = {name: Power(self, name) for name in self._names}
        self._phase: _PhaseTables = _PhaseTables(self.realpolitik_game.position)
        self._influence = _Influence({})
        self._influence.log(self.realpolitik_game.position)
        self._map: Map | None = None
        self._first_year = Phase.parse(variant.start_phase).year

    # -- rules --------------------------------------------------------------------------------

    def add_rule(self, rule: str) -> None:
        """Add one of the package's rules (``NO_CHECK``, ``NO_PRESS``...); a rule this facade
        does not act on is kept and reported (docs/compat.md says which rules act)."""
        if rule in self.no_rules or rule in self.rules:
            return
        for other in _RULE_EXCLUDES.get(rule, ()):
            if other in self.rules:
                self.rules.remove(other)
        self.rules.append(rule)

    def remove_rule(self, rule: str) -> None:
        """Drop a rule."""
        if rule in self.rules:
            self.rules.remove(rule)

    @property
    def _no_check(self) -> bool:
        return "NO_CHECK" in self.rules

    # -- the state ----------------------------------------------------------------------------

    @property
    def map(self) -> Map:
        """The map, as the package's :class:`~realpolitik.compat.diplomacy_map.Map`."""
        if self._map is None:
            self._map = Map(self.map_name)
        return self._map

    def _sync(self) -> None:
        """Read the powers' lists back into the position if the caller changed them."""
        if not self._read_lists or not any(
                self.powers[name]._changed() for name in self._read_lists):
            return
        game = self.realpolitik_game
        position = game.position
        variant = game.variant
        the_map = variant.map
        units: dict[str, Unit] = {}
        centers: dict[str, str] = {}
        dislodged: list[DislodgedUnit] = []
        before = {d.unit.location: d for d in position.dislodged}
        for name, power in self.powers.items():
            power_id = self._names[name]
            for text in power.units:
                unit = _unit_from_text(power_id, text, the_map)
                if unit is None:
                    self.error.append(f"{name}: {text}: not a unit that can stand there")
                    continue
                units[unit.province] = unit
            for text in power.retreats:
                unit = _unit_from_text(power_id, text, the_map)
                if unit is None:
                    continue
                earlier = before.get(unit.location)
                dislodged.append(earlier if earlier is not None and earlier.unit == unit
                                 else DislodgedUnit(unit, None))
            for center in power.centers:
                if the_map.is_location(center.lower()) and \
                        the_map.province(center.lower()).is_supply_center:
                    centers[center.lower()] = power_id
        made = position.replace(units=units, centers=centers, dislodged=tuple(dislodged))
        game.set_position(made)
        for power in self.powers.values():
            power._synced(made)

    def _set_phase(self, phase: Phase) -> None:
        self._sync()
        game = self.realpolitik_game
        position = game.position
        dislodged = position.dislodged if phase.type is PhaseType.RETREATS else ()
        game.set_position(position.replace(phase=phase, dislodged=dislodged))
        self._completed = False

    def _current(self) -> _PhaseTables:
        if self._read_lists:  # (else nothing to read back: no call)
            self._sync()
        position = self.realpolitik_game.position
        if self._phase.position is not position:
            self._phase = _PhaseTables(position)
        return self._phase

    @property
    def _over(self) -> bool:
        return self._completed or self.realpolitik_game.is_over

    @property
    def is_game_done(self) -> bool:
        """True once the game has ended."""
        return self._over

    @property
    def current_short_phase(self) -> str:
        """``"S1901M"``, or ``"COMPLETED"``."""
        return self.get_current_phase()

    @property
    def phase(self) -> str:
        """``"SPRING 1901 MOVEMENT"``, or ``"COMPLETED"``; assigning either form moves the game
        to that phase."""
        short = self.get_current_phase()
        if short == "COMPLETED":
            return short
        return f"{_SEASON_NAMES[short[0]]} {short[1:-1]} {_PHASE_TYPE_NAMES[short[-1]]}"

    @phase.setter
    def phase(self, value: str) -> None:
        self.set_current_phase(value)

    @property
    def phase_type(self) -> str | None:
        """``"M"``, ``"R"`` or ``"A"`` (``None`` once the game is over)."""
        return None if self._over else self.realpolitik_game.phase.type.value

    def get_current_phase(self) -> str:
        """``"S1901M"``, ``"F1901R"``, ``"W1901A"``, or ``"COMPLETED"`` once the game is over."""
        if self._over:
            return "COMPLETED"
        return str(self.realpolitik_game.phase)

    def set_current_phase(self, new_phase: str) -> None:
        """Move the game to a phase (``"W1901A"``, ``"WINTER 1901 ADJUSTMENTS"``) or end it
        (``"COMPLETED"``); the board stays as it is."""
        text = new_phase.strip().upper()
        if text == "COMPLETED":
            self._completed = True
            return
        if text == "FORMING":
            raise ValueError("a realpolitik game has no forming phase: it starts at once")
        words = text.split()
        if len(words) == 3:
            seasons = {long: short for short, long in _SEASON_NAMES.items()}
            text = f"{seasons.get(words[0], '?')}{words[1]}{words[2][:1]}"
        self._set_phase(self.realpolitik_game.variant.calendar.parse_phase(text))

    def clear_cache(self) -> None:
        """Accepted for compatibility: the facade's tables follow the position by themselves."""
        self._sync()

    def get_map_power_names(self) -> list[str]:
        """The powers of the map: ``["AUSTRIA", ...]``."""
        return list(self._names)

    def get_power(self, power_name: str) -> Power:
        """The power called ``power_name``."""
        return self.powers[self._power_id(power_name).upper()]

    def has_power(self, power_name: str) -> bool:
        """True if the map has this power."""
        return power_name.upper() in self._names

    def _power_id(self, power_name: str) -> str:
        power = self._names.get(power_name.upper())
        if power is None:
            raise ValueError(f"unknown power {power_name!r}; the powers are "
                             + ", ".join(self._names))
        return power

    def _retreats(self) -> dict[str, dict[str, list[str]]]:
        """Dislodged units that have somewhere to go, and where (the package disbands the
        others at once, without a retreat phase)."""
        position = self.realpolitik_game.position
        cache = self._phase if self._phase.position is position else None
        if cache is None:
            cache = self._phase = _PhaseTables(position)
        if cache.retreats is None:
            if position.phase.type is PhaseType.RETREATS:
                cache.retreats = _retreats_by_name(position, self.realpolitik_game.rules,
                                                   self._names)
            else:  # a dislodged unit set up outside a retreat phase: nowhere known yet
                cache.retreats = {name: {} for name in self._names}
                for dislodged in position.dislodged:
                    cache.retreats[dislodged.unit.power.upper()][unit_text(dislodged.unit)] = []
        return cache.retreats

    def get_units(self, power_name: str | None = None) -> Any:
        """A power's units (``["A PAR", "*F BRE"]``, dislodged ones starred), or every power's."""
        if power_name is not None:
            power = self.get_power(power_name)
            return power.units[:] + ["*" + unit for unit in power.retreats]
        return {name: self.get_units(name) for name in self._names}

    def get_centers(self, power_name: str | None = None) -> Any:
        """A power's supply centres (``["BRE", "MAR", "PAR"]``), or every power's."""
        if power_name is not None:
            return self.get_power(power_name).centers[:]
        return {name: self.get_centers(name) for name in self._names}

    # -- setting up a position ----------------------------------------------------------------

    def set_units(self, power_name: str, units: str | list[str], reset: bool = False) -> None:
        """Put units on the board for a power (``"A PAR"``, ``"*F BRE"`` for a dislodged one),
        taking off any unit already in their province; with ``reset``, the power's other units
        go first. A unit that cannot stand there is left out, noted in :attr:`error`."""
        name = power_name.upper()
        if name not in self._names:
            return
        texts = [units] if isinstance(units, str) else list(units)
        power = self.powers[name]
        if reset:
            power.clear_units()
        the_map = self.realpolitik_game.variant.map
        placed: list[str] = []
        dislodged: list[str] = []
        for text in texts:
            words = text.upper().split()
            is_dislodged = bool(words) and words[0].startswith("*")
            if is_dislodged:
                words[0] = words[0][1:]
            if len(words) != 2:
                continue
            unit = " ".join(words)
            if _unit_from_text(self._names[name], unit, the_map) is None:
                self.error.append(f"Invalid unit {unit}")
                continue
            (dislodged if is_dislodged else placed).append(unit)
        for other in self.powers.values():
            for unit in placed:
                province = _province_of_text(unit)
                other.units[:] = [u for u in other.units if _province_of_text(u) != province]
            for unit in dislodged:
                province = _province_of_text(unit)
                for old in [u for u in other.retreats if _province_of_text(u) == province]:
                    del other.retreats[old]
        for unit in placed:
            if unit not in power.units:
                power.units.append(unit)
        for unit in dislodged:
            power.retreats.setdefault(unit, [])
        if self.phase_type == "R":
            self._sync()
            position = self.realpolitik_game.position
            for other in self.powers.values():
                for unit_name in other.retreats:
                    match = [d for d in position.dislodged if unit_text(d.unit) == unit_name]
                    if match:
                        other.retreats[unit_name] = [option.upper() for option in retreat_options(
                            position, match[0], rules=self.realpolitik_game.rules)]
            for other in self.powers.values():
                other._synced(position)

    def set_centers(self, power_name: str, centers: str | list[str], reset: bool = False,
                    ) -> None:
        """Give supply centres to a power (taking them from their owner); with ``reset`` it
        loses its others first. A province that is no supply centre is left out."""
        name = power_name.upper()
        if name not in self._names:
            return
        wanted = [centers] if isinstance(centers, str) else list(centers)
        power = self.powers[name]
        if reset:
            power.clear_centers()
        for other in self.powers.values():
            other.centers[:] = [c for c in other.centers if c not in wanted]
        the_map = self.realpolitik_game.variant.map
        for center in wanted:
            place = center.lower()
            if the_map.is_location(place) and the_map.province(place).is_supply_center \
                    and place == province_of(place) and center.upper() not in power.centers:
                power.centers.append(center.upper())

    def clear_units(self, power_name: str | None = None) -> None:
        """Take every unit of a power (or of every power) off the board."""
        for name, power in self.powers.items():
            if power_name is None or name == power_name.upper():
                power.clear_units()

    def clear_centers(self, power_name: str | None = None) -> None:
        """No centre is owned by a power (or by any power)."""
        for name, power in self.powers.items():
            if power_name is None or name == power_name.upper():
                power.clear_centers()

    # -- legal orders -------------------------------------------------------------------------

    def get_orderable_locations(self, power_name: str | None = None) -> Any:
        """Where a power has something to order (sorted provinces), or every power's."""
        cache = self._current()
        orderable = cache.orderable
        if orderable is None:
            orderable = cache.orderable = self._orderable(cache.position)
        if power_name is not None:
            return orderable[self._power_id(power_name).upper()][:]
        if cache.orderable_given:
            return {name: locs[:] for name, locs in orderable.items()}
        # The first call for every power hands over what was made (with the listing, most
        # often) and keeps nothing, as get_all_possible_orders does: a second one makes it
        # again and keeps it, to copy from after.
        cache.orderable_given = True
        cache.orderable = None
        return orderable

    def _orderable(self, position: Position) -> dict[str, list[str]]:
        """The package's power name -> where it has something to order, for the powers the
        engine says have something to order (not neutral units, nor eliminated powers)."""
        out: dict[str, list[str]] = {name: [] for name in self._names}
        game = self.realpolitik_game
        if self._over:
            return out
        kind = position.phase.type
        counts = adjustment_counts(position) if kind is PhaseType.ADJUSTMENTS else {}
        province_name = self._texts.province_name.__getitem__
        for power in game.powers_to_order():
            name = power.upper()
            if kind is PhaseType.MOVEMENT:
                out[name] = sorted(map(province_name, map(_location_of, position.units_of(power))))
                continue
            if kind is PhaseType.RETREATS:
                retreating = self._retreats()[name]
                out[name] = [d.unit.province.upper() for d in position.dislodged_of(power)
                             if unit_text(d.unit) in retreating]
            else:
                due = counts[power]
                out[name] = self._winter_places(
                    position, power, due, game.legal_orders(power) if due > 0 else {})
        for locs in out.values():
            locs.sort()
        return out

    def _winter_places(self, position: Position, power: str, due: int,
                       legal: Mapping[str, tuple[Order, ...]]) -> list[str]:
        """Where ``power`` has something to order in an adjustment phase, sorted: its build
        sites as its listing ``legal`` has them when it is due builds (``due`` > 0), else the
        provinces of its units (read by get_orderable_locations and, made with the listing,
        by get_all_possible_orders)."""
        province_name = self._texts.province_name
        if due > 0:
            places = [province_name[site] for site, orders in legal.items()
                      if isinstance(orders[0], Build)]
        else:  # (its units' provinces, named from the table: no property and upper call each)
            places = [province_name[unit.location] for unit in position.units_of(power)]
        places.sort()
        return places

    def _lookup(self, power: str) -> dict[str, Order]:
        """Order string -> order, for every legal order of ``power`` in the current phase."""
        cache = self._current()
        table = cache.lookup.get(power)
        if table is None:
            table = {}
            game = self.realpolitik_game
            if not self._over and power in game.powers_to_order():
                legal = game.legal_orders(power)
                if cache.position.phase.type is PhaseType.RETREATS:
                    retreating = self._retreats()[power.upper()]
                    legal = {loc: orders for loc, orders in legal.items()
                             if any(unit.endswith(f" {loc.upper()}") for unit in retreating)}
                text_of = self._texts.text_of
                for orders in legal.values():
                    for order in orders:
                        table[text_of(order)] = order
            cache.lookup[power] = table
        return table

    def get_all_possible_orders(self) -> dict[str, list[str]]:
        """Every location (upper case, coasts too) -> every legal order string there.

        A unit on a coast has its orders under the coast and under the province; in an
        adjustment phase ``WAIVE`` is listed at each place a power may build.
        """
        cache = self._current()
        if cache.possible is not None:  # asked for again in this phase: copies of it
            return {loc: orders[:] for loc, orders in cache.possible.items()}
        possible = self._possible(cache)
        if cache.possible_given:
            cache.possible = possible
            return {loc: orders[:] for loc, orders in possible.items()}
        # The first call hands over what it made and keeps nothing (most callers ask once a
        # phase); a second one makes it again and keeps it, to copy from after.
        cache.possible_given = True
        return possible

    def _possible(self, cache: _PhaseTables) -> dict[str, list[str]]:
        """What :meth:`get_all_possible_orders` returns, made from realpolitik's listing: in a
        movement phase from the parts each unit's orders were assembled from (no order looked
        up), else each order's string looked up by the order (:class:`ListingTexts`)."""
        possible: dict[str, list[str]] = self._no_orders.copy()
        kind = cache.position.phase.type
        over = self._over  # (read once: two properties, each a Python call)
        if kind is not PhaseType.MOVEMENT or over:
            for loc in self._upper_locations:
                possible[loc] = []
        if over:
            return possible
        game = self.realpolitik_game
        texts = self._texts
        text_of, places, site_names = texts.text_of, texts.places, texts.site_names
        text_get = texts.text.get
        if kind is PhaseType.MOVEMENT:
            # (the units' places filled first, then an empty list at every other place: no
            # list made for a unit's place only to be replaced, some 38 a phase, fewer lists
            # alive at once for the collector to count)
            province_name = texts.province_name.__getitem__
            orderable: dict[str, list[str]] = {name: [] for name in self._names}
            parts = movement_parts(cache.position)
            for power in game.powers_to_order():
                # (where it has something to order: its units, listed here)
                if parts is not None:
                    units = parts.get(power) or {}
                    texts.fill_movement(possible, power, units.values())
                    orderable[power.upper()] = sorted(map(province_name, units))
                    continue
                legal = game.legal_orders(power)
                for location, orders in legal.items():
                    name, province = places[location]
                    strings = possible[name] = texts.strings_of(location, orders)
                    if province is not None:
                        possible[province] = strings[:]
                orderable[power.upper()] = sorted(map(province_name, legal))
            if cache.orderable is None:
                cache.orderable = orderable
            for loc, strings in possible.items():
                if strings is None:
                    possible[loc] = []
            return possible
        # (in a winter, where each power has something to order is made here too, from the
        # same listing, as _orderable would make it)
        winter: dict[str, list[str]] | None = None
        listed: dict[str, set[str]] = {}
        if kind is PhaseType.ADJUSTMENTS:
            winter = {name: [] for name in self._names}
            counts = adjustment_counts(cache.position)
            cache.winter_listed, cache.winter_rules = listed, game.rules
        for power in game.powers_to_order():
            legal = game.legal_orders(power)
            if winter is not None:
                winter[power.upper()] = self._winter_places(cache.position, power,
                                                            counts[power], legal)
            listed_now = listed[power] = set()
            keep = listed_now.add
            if kind is PhaseType.RETREATS:
                # (the units with somewhere to go: the package disbands the others at once)
                retreating = {unit[2:] for unit in self._retreats()[power.upper()]}
                legal = {loc: orders for loc, orders in legal.items()
                         if places[loc][0] in retreating}
            sites: list[str] = []  # (where it may build, named: a waive is listed there too)
            for orders in legal.values():
                # (a plain loop: a zip with ``strict`` per place parses its keyword each time)
                for order in orders:
                    text = text_get(order) or text_of(order)
                    keep(text)
                    if isinstance(order, Waive):
                        for site in sites:
                            for name in site_names[site]:
                                possible[name].append(text)
                        continue
                    name, province = places[order.location]
                    possible[name].append(text)
                    if province is not None:
                        possible[province].append(text)
                    if order.__class__ is Build:
                        site = province or name  # (its province's name)
                        if site not in sites:
                            sites.append(site)
        if winter is not None and cache.orderable is None:
            cache.orderable = winter
        return possible

    # -- orders -------------------------------------------------------------------------------

    def set_orders(self, power_name: str, orders: str | Iterable[str], expand: bool = True,
                   replace: bool = True) -> None:
        """Give orders for a power, in the package's strings (``["A PAR - BUR", ...]``).

        Orders for units already ordered this phase replace the earlier ones (with
        ``replace``; else they are ignored). Orders that cannot be read or are illegal are
        kept in :attr:`error` and not carried out, as the package does; with the rule
        ``NO_CHECK`` they are kept as given and void when the phase is adjudicated.
        """
        game = self.realpolitik_game
        # The quick path, the common case: a list of strings the listing gave, for a power
        # given no orders yet this phase. Each string names its order by one look-up, and the
        # orders go to the engine as they are (it checks them).
        holder = self.powers.get(power_name)
        if holder is not None and type(orders) is list and holder._orders is None \
                and holder._found is None and not self._read_lists and game.end is None \
                and not self._completed:
            if not orders and holder._sent is None and not holder.adjust \
                    and not holder._values and not holder._voids:
                return  # (nothing given, nothing to replace: as if not called)
            position = game.position
            kind = position.phase.type
            if kind is _MOVEMENT:
                if "NO_CHECK" not in self.rules and self._set_found(
                        holder, self._names[power_name], orders, position):
                    return
            elif kind is _ADJUSTMENTS and not holder.adjust and holder._found is None \
                    and not holder._values and self._set_adjustments(
                        holder, self._names[power_name], orders, position):
                return
        power = self._names.get(power_name) or self._power_id(power_name)
        if game.end is not None or self._completed:
            return
        texts = [orders] if isinstance(orders, str) else list(orders)
        kind = game.position.phase.type
        if kind is PhaseType.MOVEMENT and "NO_CHECK" not in self.rules:
            if self._read_lists:
                self._sync()
            self._set_movement(power, texts, replace)  # (blank strings are passed over there)
            return
        texts = [text for text in texts if text and not text.isspace()]
        if kind is PhaseType.MOVEMENT:
            self._set_unchecked(self.powers[power.upper()], texts, replace)
            return
        self._sync()
        self._set_other(power, texts, replace)

    def _set_found(self, holder: Power, power: str, texts: list[str], position: Position,
                   ) -> bool:
        """:meth:`set_orders`'s quick path in a movement phase (``holder`` has no orders yet):
        True if every string is one the listing gave (one look-up each), one per unit, and
        the orders were handed to the engine; False, with nothing done, otherwise."""
        table = self._given.get(power) or self._given_table(power)
        # (typed as Any rather than cast: typing.cast is a Python call)
        found: list[Any] = list(map(table.__getitem__, texts))
        if not all(found):
            return False
        # (one order a unit: a unit is its location, which every order found has; two
        # strings of units of two types at one place go to the general path too)
        if len(found) > 1 and len({*map(_location_of, found)}) != len(found):
            return False  # two orders for one place: the general path decides
        # (the orders and their table are made from the strings when first read)
        sent = holder._sent
        holder._found = texts[:]
        holder._sent = (position, None)
        if found or sent is not None:
            game = self.realpolitik_game
            try:
                # (each support first named by its string carries its key: the engine
                # need not find it again from the order's fields)
                # (no entries asked for: read below only when some order did not stand)
                entries = game.submit_found(power, found, list(map(table.key_of.get, texts)),
                                            report=False)
            except GameError as error:  # a power that takes no orders in this game
                self.error.append(f"{holder.name}: {error}")
            else:
                # (a string listed in another phase may be illegal now: the engine says;
                # no entries, asked for none, means every order was found and stands)
                if entries and not game.orders_stand(power) and any(map(_error_of, entries)):
                    self._drop_illegal(holder, entries)
                    holder._sent = (position, holder.orders.copy())
        return True

    def _given_table(self, power: str) -> _Given:
        """The variant's table of the strings given for ``power`` (:meth:`ListingTexts.given`,
        under this game's rules), kept in :attr:`_given`."""
        table = self._given[power] = self._texts.given(power, self._settles_coasts())
        return table

    def _set_adjustments(self, holder: Power, power: str, texts: list[str],
                         position: Position) -> bool:
        """:meth:`set_orders`'s quick path in an adjustment phase (``holder`` has no orders
        yet): True if every string is one the listing gave for an order listed now, one per
        place, and the orders were handed to the engine; False, with nothing done,
        otherwise (the general path, :meth:`_set_other`, then reads and checks them)."""
        game = self.realpolitik_game
        if not texts:
            if holder._sent is not None:
                return False
            holder._sent = (position, [])
            return True
        found = list(map(self._texts.named_by(power).get, texts))
        if not all(found) or power not in game.powers_to_order():
            return False
        values = cast("list[Order]", found)
        cache = self._phase
        listed = cache.winter_listed if cache.position is position \
            and cache.winter_rules is game.rules else None
        strings = listed.get(power) if listed is not None else None
        if strings is not None:  # (listed now for it: each names a listed order)
            if not strings.issuperset(texts):
                return False
        elif not all(map(listed_orders(position, power, rules=game.rules).holds, values)):
            return False
        kept: dict[str, tuple[str, Order]] = {}
        waives = 0
        # (no ``strict``: the values were mapped from the strings; the keyword is parsed
        # each call)
        for text, order in zip(texts, values):  # noqa: B905
            if order.__class__ is Waive:
                waives += 1
                kept[f"WAIVE {waives}"] = (text, order)
                continue
            assert not isinstance(order, Waive)
            place = province_of(order.location)
            if place in kept:  # a second order for one place: the general path voids it
                return False
            kept[place] = (text, order)
        holder._values = kept
        holder.adjust = adjust = texts[:]
        if waives:  # (as in the package, a WAIVE only takes up a build no build order claims)
            values = sorted(values, key=_is_waive)
        game.submit(power, values)
        holder._sent = (position, adjust[:])
        return True

    def _set_movement(self, power: str, texts: list[str], replace: bool) -> None:
        """Movement orders, each checked (by the engine, when handed over): kept in
        ``power.orders`` as unit -> the rest of the order, with the order value it was read
        as."""
        holder = self.powers[power.upper()]
        # A string the listing gave names one order (for the engine to check: it is listed
        # in this position or it is not); any other string is read and checked here.
        table = self._given.get(power) or self._given_table(power)
        found = list(map(table.entry, texts))
        fresh = not holder.orders  # (then what this call writes is all there is)
        if fresh:
            holder._values, holder._found = {}, None
        orders, values = holder.orders, holder._kept()
        if fresh and all(found):  # (the common case: strings the listing gave, and no others)
            for unit, rest, order in cast("list[tuple[str, str, Order]]", found):
                orders[unit] = rest
                values[unit] = (rest, order)
        else:
            for text, known in zip(texts, found, strict=True):
                entry = known or self._read_checked(power, text)
                if entry is None:
                    continue
                unit, rest, order = entry
                if not replace and unit in orders:
                    continue
                orders[unit] = rest
                values[unit] = (rest, order)
        self._send(holder, [entry[1] for entry in values.values()] if fresh else None,
                   given=True)

    def _settles_coasts(self) -> bool:
        """True if the rules read a support of a fleet's move to a province with coasts, given
        without the coast, as the move to the one coast the fleet reaches (not if they require
        the coast)."""
        return self.realpolitik_game.rules.support_coast is not SupportCoast.REQUIRED

    def _read_checked(self, power: str, text: str) -> tuple[str, str, Order] | None:
        """The slow path of a movement order: read, checked, and written as the package
        writes it: (unit, the rest of the order, the order); None (noted in :attr:`error`)
        if it cannot be read or is illegal."""
        if not text or text.isspace():
            return None  # (a blank string is no order)
        game = self.realpolitik_game
        order = self._read(power, text)
        if order is None:
            return None
        problem = check_order(game.position, order, rules=game.rules)
        if problem is not None:
            self.error.append(f"{power.upper()}: {text}: {problem[1]}")
            return None
        return *_split_order(order_text(order, self._tables, game.position)), order

    def _set_unchecked(self, holder: Power, texts: list[str], replace: bool) -> None:
        """``NO_CHECK``: movement orders kept as given (``"ORDER n"`` -> text), read and
        checked when the phase is adjudicated."""
        for text in texts:
            words = text.upper().split()
            if len(words) < 2:
                self.error.append(f"{holder.name}: {text}: not an order")
                continue
            if replace:
                place = _province_of_text(" ".join(words[:2])) if words[0] in ("A", "F") \
                    else words[0][:3]
                for key, given in holder.orders.items():
                    given_words = given.split()
                    if len(given_words) >= 2 and given_words[1][:3] == place[:3].upper():
                        holder.orders[key] = ""
            holder.orders[f"ORDER {len(holder.orders) + 1}"] = " ".join(text.split())

    def _set_other(self, power: str, texts: list[str], replace: bool) -> None:
        """Retreat and adjustment orders: checked at once, kept in ``power.adjust``. In one
        call the first order for a place stands; a later call replaces it (``replace``)."""
        holder = self.powers[power.upper()]
        table = self._lookup(power)
        game = self.realpolitik_game
        given: dict[str, tuple[str, Order]] = {}
        waives = 0
        for text in texts:
            order = table.get(text)
            if order is None:
                order = self._read(power, text)
                if order is None:
                    holder._voids.append(" ".join(text.upper().split()[:2]))
                    continue
                problem = check_order(game.position, order, rules=game.rules)
                if problem is not None or (not isinstance(order, Waive)
                                           and order not in table.values()):
                    reason = problem[1] if problem else "not allowed in this phase"
                    self.error.append(f"{power.upper()}: {text}: {reason}")
                    holder._voids.append(_unit_of(order) if not isinstance(order, Waive)
                                         else "WAIVE")
                    continue
                text = order_text(order, self._tables, game.position)
            if isinstance(order, Waive):
                waives += 1
                given[f"WAIVE {waives}"] = (text, order)
                continue
            place = province_of(order.location)
            if place in given:  # a second order for one place in one call is void
                holder._voids.append(_unit_of(order))
            else:
                given[place] = (text, order)
        current: dict[str, tuple[str, Order]] = {}
        for written, order in holder._kept().values():
            key = "WAIVE " + str(len(current)) if isinstance(order, Waive) \
                else province_of(order.location)
            current[key] = (written, order)
        for key, entry in given.items():
            if replace or key not in current:
                current[key] = entry
        holder._values = current
        holder.adjust = [written for written, _ in current.values()]
        # (as in the package, a WAIVE only takes up a build no build order claims)
        self._send(holder, sorted((order for _, order in current.values()), key=_is_waive))

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
        if power_name is None:
            return {name: self.get_orders(name) for name in self._names}
        power = self.get_power(power_name)
        if self._over:
            return []
        if self.realpolitik_game.phase.type is PhaseType.MOVEMENT:
            if self._no_check:
                return [order for order in power.orders.values() if order]
            return [f"{unit} {rest}" for unit, rest in power.orders.items()]
        return [order for order in power.adjust if order and order != "WAIVE"]

    def clear_orders(self, power_name: str | None = None) -> None:
        """Withdraw a power's orders (or every power's) for this phase."""
        for name, power in self.powers.items():
            if power_name is None or name == power_name.upper():
                power.clear_orders()

    def set_wait(self, power_name: str, wait: bool) -> None:
        """Accepted for compatibility; realpolitik processes when told to."""
        self.get_power(power_name).wait = wait

    def _given_orders(self, holder: Power) -> list[Order]:
        """The order values of a power's orders as they stand (its dictionary or list may have
        been changed by the caller: what is there is what counts)."""
        power = self._names[holder.name]
        game = self.realpolitik_game
        if game.phase.type is not PhaseType.MOVEMENT:
            kept = {written: order for written, order in holder._kept().values()}
            values: list[Order] = []
            for text in holder.adjust:
                order = kept.get(text) or self._read(power, text)
                if order is not None:
                    values.append(order)
            # as in the package, a WAIVE only takes up a build no build order claims
            values.sort(key=_is_waive)
            return values
        if self._no_check:
            values = []
            for text in holder.orders.values():
                if text:
                    order = self._read(power, text)
                    if order is not None:
                        values.append(order)
                    else:
                        holder._voids.append(" ".join(text.upper().split()[:2]))
            return values
        values = []
        known = holder._kept()
        for unit, rest in holder.orders.items():
            entry = known.get(unit)
            if entry is not None and entry[0] == rest:
                values.append(entry[1])
            else:
                order = self._read(power, f"{unit} {rest}")
                if order is not None:
                    values.append(order)
        return values

    # -- playing ------------------------------------------------------------------------------

    def process(self) -> GamePhaseData:
        """Adjudicate the phase and move to the next one; returns the phase just played."""
        if self._read_lists:
            self._sync()
        game = self.realpolitik_game
        if self._completed or game.end is not None:
            return GamePhaseData("COMPLETED", self.get_state(), {}, {}, {})
        position = game.position
        phase = position.phase
        if not position.centers and phase.season == Season.FALL:
            # as the package does when it counts centres and no power owns any: each power
            # starts from its home centres
            homes = {center: power for power in game.variant.power_ids
                     for center in game.variant.map.home_centers(power)}
            position = position.replace(centers=homes)
            game.set_position(position)
        name = str(phase)
        messages, self.messages = self.messages, SortedDict()
        start = len(game.history)
        influence = self._influence
        self.state_history.put(name, Deferred(
            _state_of, self, position, influence, len(influence.positions), self.note,
            frozenset(game.civil_disorder) if game.civil_disorder else _NOBODY))
        # (the histories are made when first read, from what is kept here: the orders as
        # given, as they stand, gathered by the pass that hands them over, and the
        # influence before the phase)
        given: list[_GivenEntry] = []
        voids = self._hand_over(given, position)  # (None: no void order, no dictionary kept)
        self.error = []
        game.process()
        # The package disbands units with nowhere to retreat at once and skips a retreat
        # phase that has nothing left to order. (The position read once a step: a property
        # is a Python call.)
        after = game.position
        while game.end is None and after.phase.type is _RETREATS \
                and not any(self._retreats().values()):
            game.process()
            after = game.position
        records = tuple(game.history[start:])
        self._last = records
        self._played = {}
        self.order_history.put(name, Deferred(
            _orders_given, given, phase.type, "NO_CHECK" in self.rules))
        self.message_history.put(name, messages)
        self.result_history.put(name, Deferred(_package_results, records, voids))
        influence.positions.append(after)  # (influence.log, written out)
        if game.end is not None or after.phase.year >= self._first_year + 99:
            self._check_draw()
        return GamePhaseData.in_histories(name, self.state_history, self.order_history,
                                          self.result_history, self.message_history)

    def send_orders(self) -> dict[str, list[str]]:
        """Hand the orders set so far over to :attr:`realpolitik_game` (:meth:`process` does
        it; code that processes the realpolitik game itself calls this first): the powers'
        orders here are cleared. Returns the units given an order that was void (unit ->
        ``["void"]``)."""
        return self._hand_over([], None) or {}

    def _hand_over(self, given: list[_GivenEntry], position: Position | None,
                   ) -> dict[str, list[str]] | None:
        """:meth:`send_orders`, adding to ``given`` each power's orders as given (its name,
        its orders or the entries :meth:`set_orders` found, its adjustment orders: four items
        a power) before they are handed over, in the powers' order (for the order history:
        one pass over the powers, not two). None if no order was void. ``position``: the
        current position if the caller has it (read after reading the lists back)."""
        if self._read_lists:
            self._sync()
            position = None  # (the lists read back may have made a new one)
        if position is None:
            position = self.realpolitik_game.position
        movement = position.phase.type is _MOVEMENT
        voids: dict[str, list[str]] | None = None
        keep = given.extend
        for holder in self.powers.values():
            keep((holder.name, holder._orders, holder._found, holder.adjust))
            sent = holder._sent
            if sent is None:
                # (holder._has_orders(), written out: this runs for every power every phase)
                orders = holder._orders
                if not ((holder._found if orders is None else orders) or holder.adjust
                        or holder._voids):
                    continue  # (given nothing: nothing to hand over or to clear)
                self._send(holder)
            elif sent[0] is not position or (sent[1] is not None and  # (None: handed over
                    # as found by set_orders, and not read since, so not changed)
                    sent[1] != (holder.orders if movement else holder.adjust)):
                self._send(holder)  # (given since, or changed by the caller)
            # (holder._reset_orders(), written out: this runs for every power every phase)
            voided = holder._voids
            if voided:
                if voids is None:
                    voids = {}
                for unit in voided:
                    voids[unit] = ["void"]
                holder._voids = []
            holder._orders = holder._found = holder._values = holder._sent = None
            if holder.adjust:
                holder.adjust = []
        return voids

    def _send(self, holder: Power, values: list[Order] | None = None, *,
              given: bool = False) -> None:
        """Hand a power's orders as they stand to the engine (replacing those it had);
        ``values``: their order values, if the caller has them. ``given``: :meth:`set_orders`
        has just given movement orders, which the engine checks: one it finds illegal (a
        string listed in another phase) is dropped, as the package drops it, and noted in
        :attr:`error`."""
        game = self.realpolitik_game
        movement = game.phase.type is PhaseType.MOVEMENT
        if values is None:
            values = self._given_orders(holder)
        if values or holder.orders or holder.adjust or holder._sent is not None:
            power = self._names[holder.name]
            try:
                entries = game.submit(power, values)
            except GameError as error:  # a power that takes no orders in this game
                self.error.append(f"{holder.name}: {error}")
            else:
                if given and any(map(_error_of, entries)):
                    self._drop_illegal(holder, entries)
        holder._sent = (game.position, dict(holder.orders) if movement else list(holder.adjust))

    def _drop_illegal(self, holder: Power, entries: Sequence[SubmittedOrder]) -> None:
        """Take the movement orders given by :meth:`set_orders` that the engine found illegal
        out of a power's orders (noted in :attr:`error`) and hand the others over again."""
        illegal = {entry.order: entry.error for entry in entries if entry.error is not None}
        orders = holder.orders
        values = holder._kept()
        for unit, (rest, order) in list(values.items()):
            if order in illegal and orders.get(unit) == rest:
                self.error.append(f"{holder.name}: {unit} {rest}: {illegal[order]}")
                del values[unit], orders[unit]
        self.realpolitik_game.submit(self._names[holder.name], self._given_orders(holder))

    # The package's record of the phase just played, made when first read.

    def _played_value(self, key: str) -> Any:
        value = self._played.get(key)
        if value is None:
            value = self._played[key] = _last_phase_record(self._last, self._names,
                                                            self._tables)[key]
        return value

    @property
    def command(self) -> dict[str, str]:
        """The last movement phase's orders carried out, one per unit (unit -> the rest of
        the order; ``"H"`` for a unit given none)."""
        command: dict[str, str] = self._played_value("command")
        return command

    @property
    def ordered_units(self) -> dict[str, list[str]]:
        """power -> the units it gave an accepted order to, in the last phase played."""
        ordered: dict[str, list[str]] = self._played_value("ordered_units")
        return ordered

    @property
    def dislodged(self) -> dict[str, str]:
        """The units dislodged in the last movement phase -> the province the attack came
        from (``{"F NTH": "SKA"}``)."""
        dislodged: dict[str, str] = self._played_value("dislodged")
        return dislodged

    @property
    def popped(self) -> list[str]:
        """The units disbanded in the last phase because they could not retreat."""
        popped: list[str] = self._played_value("popped")
        return popped

    def _check_draw(self) -> None:
        """The package ends a game in a draw when its hundredth year is played."""
        game = self.realpolitik_game
        if game.end is None and game.phase.year < self._first_year + 99:
            return  # (the common case: neither over nor near its hundredth year)
        if game.is_over:
            self.outcome = [str(game.history[-1].position.phase), *(
                w.upper() for w in (game.end.winners if game.end else ()))]
            return
        phase = game.phase
        last_year = self._first_year + 99
        if phase.year > last_year or (phase.year == last_year
                                      and phase.type is PhaseType.ADJUSTMENTS):
            self.draw()
            self.outcome[0] = f"W{last_year}A"

    def draw(self, winners: Iterable[str] | None = None) -> None:
        """End the game in a draw between ``winners`` (every power with units, by default)."""
        names = [power.name for power in self.powers.values() if power.units] \
            if winners is None else [w.upper() for w in winners]
        self.outcome = [self.get_current_phase(), *names]
        self._completed = True
        self.status = "completed"

    def set_status(self, status: str) -> None:
        """Set the game's status (``"forming"``, ``"active"``, ``"completed"``...)."""
        self.status = status

    def get_order_status(self, power_name: str | None = None, unit: str | None = None,
                         loc: str | None = None) -> Any:
        """The results of the last phase played: for ``unit`` its statuses, for ``loc`` the
        unit there and its statuses, else unit -> statuses per power (or for ``power_name``)."""
        results = self.result_history.last_value() or {}
        if unit is not None:
            return results.get(unit, [])[:]
        if loc is not None:
            for ordered, statuses in results.items():
                if ordered[2:5] == loc[:3].upper():
                    return ordered, statuses[:]
            return loc, []
        if power_name is None:
            return {name: self.get_order_status(name) for name in self._names}
        name = self._power_id(power_name).upper()
        state = self.state_history.last_value()
        if state is None:
            return {}
        return {ordered.lstrip("*"): results.get(ordered.lstrip("*"), [])[:]
                for ordered in state["units"][name]}

    def _unit_owner(self, unit: str, coast_required: bool | int = True) -> Power | None:
        """The power whose unit ``unit`` is (``"F STP/SC"``; ``"F STP"`` too unless
        ``coast_required``), or None."""
        for power in self.powers.values():
            for mine in power.units:
                if mine == unit or (not coast_required and mine.split("/")[0] == unit):
                    return power
        return None

    # -- history ------------------------------------------------------------------------------

    def get_phase_history(self, from_phase: str | int | None = None,
                          to_phase: str | int | None = None,
                          game_role: Any = None) -> list[GamePhaseData]:
        """The phases played from ``from_phase`` to ``to_phase`` (names or indices; both
        included), each as :class:`GamePhaseData`."""
        if isinstance(from_phase, int):
            from_phase = self.state_history.key_from_index(from_phase)
        if isinstance(to_phase, int):
            to_phase = self.state_history.key_from_index(to_phase)
        phases = self.state_history.sub_keys(from_phase, to_phase)
        out = []
        for phase in phases:
            messages = self.message_history[phase]
            if game_role:
                messages = SortedDict(self.filter_messages(messages, game_role))
            out.append(GamePhaseData(phase, self.state_history[phase],
                                     self.order_history[phase], self.result_history[phase],
                                     messages))
        return out

    def get_phase_from_history(self, short_phase_name: str, game_role: Any = None,
                               ) -> GamePhaseData:
        """One played phase as :class:`GamePhaseData`."""
        found = self.get_phase_history(short_phase_name, short_phase_name, game_role)
        if not found:
            raise KeyError(f"{short_phase_name!r} has not been played in this game")
        return found[0]

    def get_phase_data(self) -> GamePhaseData:
        """The current phase as :class:`GamePhaseData` (orders given so far, no results)."""
        return GamePhaseData(self.get_current_phase(), self.get_state(),
                             {name: self.get_orders(name) for name in self._names}, {},
                             self.messages.copy())

    def extend_phase_history(self, phase_data: GamePhaseData) -> None:
        """Add a played phase to the histories (as the package's saved games are read)."""
        self.state_history.put(phase_data.name, phase_data.state)
        self.message_history.put(phase_data.name, phase_data.messages)
        self.order_history.put(phase_data.name, phase_data.orders)
        self.result_history.put(phase_data.name, phase_data.results)

    # -- press --------------------------------------------------------------------------------

    def add_message(self, message: Message) -> int:
        """Add a message to this phase's; one without a time is stamped now. Returns its time.

        :raises ValueError: the message is of another phase, or from or to no power.
        """
        if message.phase is None:
            message.phase = self.get_current_phase()
        if message.time_sent is None:
            if message.phase != self.get_current_phase():
                raise ValueError(f"a message of {message.phase} cannot be sent in "
                                 f"{self.get_current_phase()}")
            message.time_sent = timestamp_microseconds()
        for who in (message.sender, message.recipient):
            if who not in self._names and who not in (SYSTEM, GLOBAL, OBSERVER, OMNISCIENT):
                raise ValueError(f"{who!r} is neither a power of this game nor one of "
                                 "SYSTEM, GLOBAL, OBSERVER, OMNISCIENT")
        self.messages.put(message.time_sent, message)
        return message.time_sent

    def new_power_message(self, recipient: str, body: str, sender: str | None = None,
                          ) -> Message:
        """A message for ``recipient`` in this phase (not yet added: :meth:`add_message`)."""
        return Message(sender or SYSTEM, recipient.upper(), None, self.get_current_phase(), body)

    def new_global_message(self, body: str, sender: str | None = None) -> Message:
        """A message for every power in this phase (not yet added)."""
        return Message(sender or SYSTEM, GLOBAL, None, self.get_current_phase(), body)

    @classmethod
    def filter_messages(cls, messages: Mapping[int, Message], game_role: Any,
                        timestamp_from: int | None = None, timestamp_to: int | None = None,
                        ) -> dict[int, Message]:
        """The messages a role may read (a power: global ones and its own; ``observer_type``:
        global ones and those to observers; ``omniscient_type``: all), between two times."""
        chosen = [m for t, m in messages.items()
                  if (timestamp_from is None or t >= timestamp_from)
                  and (timestamp_to is None or t <= timestamp_to)]
        if game_role == "observer_type":
            return {m.time_sent or 0: m for m in chosen if m.is_global() or m.for_observer()}
        if game_role == "omniscient_type":
            return {m.time_sent or 0: m for m in chosen}
        roles = [game_role] if isinstance(game_role, str) else list(game_role)
        return {m.time_sent or 0: m for m in chosen
                if m.is_global() or m.recipient in roles or m.sender in roles}

    # -- the whole state ----------------------------------------------------------------------

    def get_state(self) -> dict[str, Any]:
        """The package's state dictionary for the current phase.

        ``zobrist_hash`` is realpolitik's hash of the board (:meth:`get_hash`), not the
        package's number; ``influence`` follows the package's idea (the last power to stand in
        a province).
        """
        self._sync()
        position = self.realpolitik_game.position
        state = diplomacy_state(self.realpolitik_game, position, self._influence.current(),
                                note=self.note)
        state["zobrist_hash"] = self._hash_of(position)
        if self._over:
            state["name"] = "COMPLETED"
        return state

    def set_state(self, state: Mapping[str, Any], clear_history: bool = True) -> None:
        """Put the game in a state of :meth:`get_state` (a saved game's phase)."""
        if clear_history:
            for history in (self.state_history, self.order_history, self.result_history,
                            self.message_history):
                history.clear()
        if state.get("note"):
            self.note = state["note"]
        if state.get("name"):
            self.set_current_phase(state["name"])
        for name, units in state.get("units", {}).items():
            self.set_units(name, list(units), reset=True)
        for name, centers in state.get("centers", {}).items():
            self.set_centers(name, list(centers), reset=True)
        self._sync()
        influence = dict(self._influence.current())
        for name, owned in state.get("influence", {}).items():
            for province in owned:
                influence[province.lower()] = self._names.get(name, name.lower())
        self._influence = _Influence(influence)  # (the phases played keep theirs)

    def get_hash(self) -> str:
        """A hash of the board (units, dislodged units, centres, homes), as a string of
        digits: equal boards give equal hashes (not the package's Zobrist numbers)."""
        self._sync()
        return self._hash_of(self.realpolitik_game.position)

    def rebuild_hash(self) -> str:
        """The same as :meth:`get_hash` (realpolitik works it out from the board each time)."""
        return self.get_hash()

    def _hash_of(self, position: Position) -> str:
        units = sorted(f"{u.power} {unit_text(u)}" for u in position.units.values())
        dislodged = sorted(f"{d.unit.power} *{unit_text(d.unit)}" for d in position.dislodged)
        centers = sorted(f"{owner} {center}" for center, owner in position.centers.items())
        text = "|".join([*units, *dislodged, *centers])
        return str(int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(),
                                  "big"))

    # -- copies -------------------------------------------------------------------------------

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        # The variant's tables are shared, as the package shares its map; the rest is copied
        # (the engine's positions are immutable values, shared by the copy).
        made = Game.__new__(Game)
        memo[id(self)] = made
        shared = {"_tables", "_texts", "_upper_locations", "_map"}
        for key, value in self.__dict__.items():
            if key == "_given":  # (the variant's tables, found again by the copy)
                made._given = {}
                continue
            made.__dict__[key] = value if key in shared else copy.deepcopy(value, memo)
        return made

    def __getstate__(self) -> dict[str, Any]:
        state = {key: value for key, value in self.__dict__.items()
                 if key not in ("_tables", "_texts", "_given", "_map")}
        # (the histories are made now: the functions that would make them do not pickle)
        for history in ("state_history", "order_history", "result_history"):
            state[history] = SortedDict(getattr(self, history).items())
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        variant = self.realpolitik_game.variant
        self._tables = tables_for(variant)
        self._texts = listing_texts(variant)
        self._given = {}
        self._map = None

    def __repr__(self) -> str:
        return f"<compat.diplomacy.Game {self.game_id} {self.get_current_phase()}>"

    def __str__(self) -> str:
        return f"GAME {self.game_id}\nPHASE {self.phase}\nMAP {self.map_name}"


class _Influence:
    """The package's influence (province -> the last power to stand there, or to own it),
    worked out when read from the positions a game went through: most programs never read
    it, and it changes every phase.

    ``after(n)`` is the influence once the first ``n`` positions logged are counted, made
    once and kept (so reading every phase's state counts each position once); the phases'
    states keep the chain and their ``n``.
    """

    __slots__ = ("start", "positions", "made")

    def __init__(self, start: dict[str, str]) -> None:
        self.start = start
        """The influence before the first position logged."""
        self.positions: list[Position] = []
        """The positions the game went through since, in order (the game's history has
        them too: they are shared, not copied)."""
        self.made: list[dict[str, str]] = []
        """``made[i]``: the influence after the first ``i + 1`` positions (as far as read)."""

    def log(self, position: Position) -> None:
        """Count ``position`` (a phase played) when the influence is next read."""
        self.positions.append(position)

    def after(self, seen: int) -> dict[str, str]:
        """The influence after the first ``seen`` positions logged (read only)."""
        made = self.made
        while len(made) < seen:
            influence = dict(made[-1] if made else self.start)
            update_influence(influence, self.positions[len(made)])
            made.append(influence)
        return made[seen - 1] if seen else self.start

    def current(self) -> dict[str, str]:
        """The influence now (read only)."""
        return self.after(len(self.positions))


def _state_of(game: Game, position: Position, influence: _Influence, seen: int, note: str,
              civil_disorder: frozenset[str]) -> dict[str, Any]:
    """The package's state dictionary of a phase played in ``game`` (for its
    :attr:`~Game.state_history`): its influence that after the first ``seen`` positions of
    ``influence``, the note and the powers in civil disorder as they were when it was played.
    (A function, not a method: a bound method kept per phase is one object more.)"""
    state = diplomacy_state(game.realpolitik_game, position, influence.after(seen),
                            note=note, civil_disorder=civil_disorder)
    state["zobrist_hash"] = game._hash_of(position)
    return state


def _orders_given(given: Sequence[_GivenEntry], kind: PhaseType, no_check: bool,
                  ) -> dict[str, list[str]]:
    """The orders powers gave in a phase, as :meth:`Game.get_orders` wrote them then (four
    items a power, one after the other: its name, its orders, or None and the entries
    :meth:`Game.set_orders` found, and its adjustment orders)."""
    out: dict[str, list[str]] = {}
    items = iter(given)
    entries = cast("Iterable[tuple[str, dict[str, str] | None, list[str] | None, list[str]]]",
                   zip(items, items, items, items, strict=True))
    for name, orders, found, adjust in entries:
        if kind is not PhaseType.MOVEMENT:
            out[name] = [order for order in adjust if order and order != "WAIVE"]
        elif orders is None:
            out[name] = list(found or ())  # (each "unit rest", as given)
        elif no_check:
            out[name] = [order for order in orders.values() if order]
        else:
            out[name] = [f"{unit} {rest}" for unit, rest in orders.items()]
    return out


def _last_phase_record(records: Sequence[PhaseRecord], names: Mapping[str, str],
                       tables: MapTables) -> dict[str, Any]:
    """The package's record of a phase played (``command``, ``ordered_units``, ``dislodged``,
    ``popped``), from realpolitik's records of it (and of a retreat phase played with it)."""
    ordered: dict[str, list[str]] = {name: [] for name in names}
    command: dict[str, str] = {}
    dislodged: dict[str, str] = {}
    popped: list[str] = []
    if records:
        first = records[0]
        position = first.position
        for power, entries in first.orders.items():
            ordered[power.upper()] = [
                _unit_of(e.order) for e in entries
                if e.order is not None and e.ok and not isinstance(e.order, Waive)]
        if position.phase.type is PhaseType.MOVEMENT:
            for unit in position.units.values():
                command[unit_text(unit)] = "H"
            for entries in first.orders.values():
                for entry in entries:
                    if entry.order is not None and entry.ok:
                        unit_name, rest = _split_order(order_text(entry.order, tables, position))
                        command[unit_name] = rest
            dislodged = {unit_text(d.unit): (d.attacker_from or "").upper()
                         for d in first.resolution.dislodged}
        for record in records:
            if record.position.phase.type is PhaseType.RETREATS:
                popped.extend(disbanded_units(record.position, record.resolution))
    return {"command": command, "ordered_units": ordered, "dislodged": dislodged,
            "popped": popped}


_error_of = attrgetter("error")
_MOVEMENT = PhaseType.MOVEMENT
_ADJUSTMENTS = PhaseType.ADJUSTMENTS
_RETREATS = PhaseType.RETREATS
_location_of = attrgetter("location")


def _is_waive(order: Order) -> bool:
    return isinstance(order, Waive)


_RULE_EXCLUDES: Mapping[str, tuple[str, ...]] = {
    "NO_PRESS": ("PUBLIC_PRESS",), "PUBLIC_PRESS": ("NO_PRESS",),
}
"""Rules that take each other's place when added, as in the package."""
