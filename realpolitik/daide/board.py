"""A variant as DAIDE sees it: the tokens of its powers and provinces, its map description (MDF),
and the translation between the engine's values (units, phases, orders, positions) and DAIDE's
bracketed groups. Uses only the engine's public API."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from realpolitik.daide.tokens import (
    FIXED_TOKENS,
    NAME_PATTERN,
    POWER_CATEGORY,
    STANDARD_POWERS,
    Item,
    Message,
    Text,
    format_message,
)
from realpolitik.geography import Map, Province, Terrain, UnitType
from realpolitik.hooks import VariantHooks
from realpolitik.listing import legal_orders
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
from realpolitik.position import DislodgedUnit, Phase, PhaseType, Position, Season, Unit
from realpolitik.rules import Rules
from realpolitik.variant import Variant
from realpolitik.variant_rules import BuildSites

MAX_TOKENS = 256
"""A map has at most 256 provinces and 256 powers: the low byte of a token numbers them."""

STANDARD_NAMES: Mapping[str, str] = {"eng": "ECH", "bot": "GOB", "lyo": "GOL"}
"""The classical provinces whose DAIDE names are not their ids (the English Channel's id is
``eng``, which DAIDE spells ECH: ENG is England)."""

COAST_TOKENS: Mapping[str, str] = {"nc": "NCS", "ne": "NEC", "ec": "ECS", "se": "SEC",
                                   "sc": "SCS", "sw": "SWC", "wc": "WCS", "nw": "NWC"}
"""A coast's suffix in the engine (``stp/nc``) -> its DAIDE token."""

_COAST_SUFFIX = {token: suffix for suffix, token in COAST_TOKENS.items()}

_TURN_OF: Mapping[tuple[str, PhaseType], str] = {
    (Season.SPRING, PhaseType.MOVEMENT): "SPR", (Season.SPRING, PhaseType.RETREATS): "SUM",
    (Season.FALL, PhaseType.MOVEMENT): "FAL", (Season.FALL, PhaseType.RETREATS): "AUT",
    (Season.WINTER, PhaseType.ADJUSTMENTS): "WIN",
}
_PHASE_OF = {token: key for key, token in _TURN_OF.items()}

_PHASE_OF_ORDER = {"HLD": PhaseType.MOVEMENT, "MTO": PhaseType.MOVEMENT,
                   "CTO": PhaseType.MOVEMENT, "SUP": PhaseType.MOVEMENT,
                   "CVY": PhaseType.MOVEMENT, "RTO": PhaseType.RETREATS,
                   "DSB": PhaseType.RETREATS, "REM": PhaseType.ADJUSTMENTS}

_UNIT_TOKEN = {UnitType.ARMY: "AMY", UnitType.FLEET: "FLT"}
_UNIT_TYPE = {token: unit_type for unit_type, token in _UNIT_TOKEN.items()}


class MapError(ValueError):
    """A variant DAIDE cannot describe, or a map description that is not the variant's."""


class OrderNote(ValueError):
    """An order that cannot be taken; ``note`` is the DAIDE note to send back (``FAR``...)."""

    def __init__(self, note: str, message: str) -> None:
        super().__init__(message)
        self.note = note


@dataclass(frozen=True)
class DaideMap:
    """The DAIDE names of a variant's powers and provinces, and the translations."""

    variant: Variant
    name: str
    """The map's name in ``MAP ('name')``: ``standard`` for the classical map."""
    power_tokens: Mapping[str, str]
    """Power id -> token name."""
    province_tokens: Mapping[str, str]
    """Province id -> token name (impassable provinces have none)."""
    province_numbers: Mapping[str, int]
    """Token name -> number, for the representation message."""

    @property
    def powers(self) -> Mapping[str, str]:
        """Token name -> power id."""
        return {token: power for power, token in self.power_tokens.items()}

    @property
    def provinces(self) -> Mapping[str, str]:
        """Token name -> province id."""
        return {token: province for province, token in self.province_tokens.items()}

    # -- building the names ------------------------------------------------------------------

    @classmethod
    def of(cls, variant: Variant) -> DaideMap:
        """The DAIDE view of ``variant``: the classical map gets the standard names and
        numbers; another variant names each power and province by its id when that is three
        letters or digits, else by a three-letter alias, else by a made-up name.

        :raises MapError: what DAIDE cannot describe: more powers or provinces than it can
            number, coasts it has no token for, rules beyond the map (a variant's own hooks,
            build sites other than home centres, borders that open and close, convoys through
            land, neutral units, a year other than the rulebooks' Spring, Fall and Winter).
        """
        the_map = variant.map
        provinces = [p for p in the_map.provinces.values() if p.terrain is not Terrain.IMPASSABLE]
        beyond = _beyond_daide(variant)
        if len(provinces) > MAX_TOKENS or len(variant.power_ids) > MAX_TOKENS:
            beyond.insert(0, f"{len(provinces)} provinces and {len(variant.power_ids)} powers "
                          f"(DAIDE names at most {MAX_TOKENS} of each)")
        if beyond:
            raise MapError(f"DAIDE cannot describe {variant.name}: it has "
                           + "; ".join(beyond))
        classical = variant.id == "classical"
        taken = set(FIXED_TOKENS)
        power_tokens: dict[str, str] = {}
        for power in variant.power_ids:
            power_tokens[power] = _choose_name([power[:3], *variant.power(power).aliases],
                                               taken)
        provinces_named: dict[str, str] = {}
        for province in provinces:
            preferred = [STANDARD_NAMES[province.id]] if classical and province.id in \
                STANDARD_NAMES else []
            for coast in province.coasts:
                suffix = coast.partition("/")[2]
                if suffix not in COAST_TOKENS:
                    raise MapError(f"{variant.name}: the coast {coast!r} has no DAIDE token "
                                   f"(DAIDE knows {', '.join(COAST_TOKENS)})")
            provinces_named[province.id] = _choose_name(
                [*preferred, province.id, *province.aliases], taken)
        # numbers: by category, then by name (this gives the standard map its own numbers)
        by_category = sorted(provinces, key=lambda p: (_category(p), provinces_named[p.id]))
        numbers = {provinces_named[p.id]: (_category(p) << 8) | i
                   for i, p in enumerate(by_category)}
        name = "standard" if classical else "".join(c for c in variant.id if c.isalnum()
                                                    or c == "_")
        return cls(variant, name, power_tokens, provinces_named, numbers)

    def representation(self) -> list[tuple[int, str]]:
        """The representation message's entries: every power and province token."""
        entries = [((POWER_CATEGORY << 8) | i, self.power_tokens[p])
                   for i, p in enumerate(self.variant.power_ids)]
        entries.extend((number, token) for token, number in self.province_numbers.items())
        return entries

    def is_standard(self) -> bool:
        """True when the tokens are exactly the standard map's (an empty representation
        message would do)."""
        return self.name == "standard" and list(self.power_tokens.values()) == STANDARD_POWERS

    # -- the map description -----------------------------------------------------------------

    def map_message(self) -> Message:
        """``MAP ('name')``: the map a server hosts, named (the client answers ``YES`` or
        ``REJ``, or asks ``MDF``)."""
        return ("MAP", (Text(self.name),))

    def mdf(self) -> Message:
        """``MDF (powers) ((centres) (non-centres)) (adjacencies)``."""
        variant, the_map = self.variant, self.variant.map
        homes: dict[tuple[str, ...], list[str]] = {}
        non_centres: list[Item] = []
        for province_id, token in self.province_tokens.items():
            province = the_map.province(province_id)
            if not province.is_supply_center:
                non_centres.append(token)
                continue
            owners = tuple(p for p in variant.power_ids if province_id in
                           variant.home_centers(p))
            homes.setdefault(owners, []).append(token)
        centres: list[Item] = []
        for owners, tokens in homes.items():
            power: Item = "UNO" if not owners else self.power_tokens[owners[0]] \
                if len(owners) == 1 else tuple(self.power_tokens[p] for p in owners)
            centres.append((power, *tokens))
        adjacencies: list[Item] = []
        for province_id, token in self.province_tokens.items():
            entry: list[Item] = [token]
            terrain = the_map.province(province_id).terrain
            if terrain is not Terrain.SEA:
                entry.append(("AMY", *sorted(self.province_tokens[n] for n in
                                             the_map.army_neighbours(province_id)
                                             if n in self.province_tokens)))
            coasts = the_map.coasts(province_id)
            if coasts:
                for coast in coasts:
                    entry.append((("FLT", COAST_TOKENS[coast.partition("/")[2]]),
                                  *self._fleet_targets(coast)))
            elif terrain is not Terrain.LAND:
                entry.append(("FLT", *self._fleet_targets(province_id)))
            adjacencies.append(tuple(entry))
        powers = tuple(self.power_tokens[p] for p in variant.power_ids)
        return ("MDF", powers, (tuple(centres), tuple(non_centres)), tuple(adjacencies))

    def _fleet_targets(self, location: str) -> list[Item]:
        return sorted((self.location(n) for n in self.variant.map.fleet_neighbours(location)
                       if n.partition("/")[0] in self.province_tokens), key=str)

    def check_mdf(self, mdf: Message) -> None:
        """Check that a server's map description is this variant's map: the same powers,
        centres and adjacencies (by name).

        :raises MapError: what differs.
        """
        mine = self.mdf()
        if len(mdf) != 4 or mdf[0] != "MDF":
            raise MapError("a map description is MDF (powers) (provinces) (adjacencies)")
        if set(_flat(mdf[1])) != set(_flat(mine[1])):
            raise MapError(f"the server's powers {_names(mdf[1])} are not {self.variant.name}'s "
                           f"{_names(mine[1])}")
        if set(_flat(mdf[2])) != set(_flat(mine[2])):
            theirs, ours = set(_flat(mdf[2])), set(_flat(mine[2]))
            raise MapError(f"the server's provinces differ from {self.variant.name}'s: "
                           f"{sorted(map(str, theirs - ours))[:8]} are not ours, "
                           f"{sorted(map(str, ours - theirs))[:8]} are missing")
        if _adjacency_sets(mdf[3]) != _adjacency_sets(mine[3]):
            raise MapError(f"the server's adjacencies differ from {self.variant.name}'s")

    # -- values -> DAIDE ---------------------------------------------------------------------

    def location(self, location: str) -> Item:
        """``par`` -> ``PAR``; ``stp/nc`` -> ``(STP NCS)``."""
        province, _, coast = location.partition("/")
        token = self.province_tokens[province]
        return (token, COAST_TOKENS[coast]) if coast else token

    def unit(self, unit: Unit) -> tuple[Item, ...]:
        """``(FRA AMY PAR)``."""
        return (self.power_tokens[unit.power], _UNIT_TOKEN[unit.type], self.location(unit.location))

    @staticmethod
    def turn(phase: Phase) -> tuple[Item, ...]:
        """``(SPR 1901)``."""
        return (_TURN_OF[(phase.season, phase.type)], phase.year)

    def now(self, position: Position, rules: Rules | None = None) -> Message:
        """``NOW (turn) (unit) ...``, with each dislodged unit's retreats (``MRT``) in a
        retreat phase."""
        units: list[Item] = [self.unit(u) for u in position.units.values()]
        for dislodged in position.dislodged:
            unit = dislodged.unit
            options = legal_orders(position, unit.power, rules=rules).get(unit.location, ())
            places = [self.location(o.destination) for o in options if isinstance(o, Retreat)]
            units.append((*self.unit(unit), "MRT", tuple(places)))
        return ("NOW", self.turn(position.phase), *units)

    def sco(self, position: Position) -> Message:
        """``SCO (power centre ...) ... (UNO centre ...)``."""
        owned: dict[str, list[str]] = {}
        for centre in position.variant.map.supply_centers():
            owner = position.centers.get(centre)
            token = self.power_tokens.get(owner, "UNO") if owner else "UNO"
            owned.setdefault(token, []).append(self.province_tokens[centre])
        groups: list[Item] = [(self.power_tokens[p], *owned[self.power_tokens[p]])
                              for p in self.variant.power_ids if self.power_tokens[p] in owned]
        if "UNO" in owned:
            groups.append(("UNO", *owned["UNO"]))
        return ("SCO", *groups)

    def order(self, order: Order, position: Position,
              convoy_routes: Mapping[tuple[str, str], Sequence[str]] | None = None) -> Item:
        """One order as DAIDE writes it in ``SUB``, ``THX`` and ``ORD``. A move by convoy
        names its route of seas: ``convoy_routes`` (army's location, destination) -> seas,
        or a route found through the fleets at sea.

        :raises MapError: an order DAIDE has no words for (one of a variant's own kinds).
        """
        if isinstance(order, Waive):
            return (self.power_tokens[order.power or ""], "WVE")
        power = order.power or ""
        own = (self.power_tokens[power], _UNIT_TOKEN[order.unit_type],
               self.location(order.location))
        if isinstance(order, Hold):
            return (own, "HLD")
        if isinstance(order, Move):
            the_map = position.variant.map
            if order.via_convoy or not the_map.can_move(order.unit_type, order.location,
                                                        order.destination):
                route = (convoy_routes or {}).get((order.location, order.destination)) or \
                    convoy_route(position, order.location, order.destination)
                if route:
                    return (own, "CTO", self.location(order.destination), "VIA",
                            tuple(self.province_tokens[s.partition("/")[0]] for s in route))
                if not the_map.can_move(order.unit_type, order.location, order.destination):
                    return (own, "HLD")  # no fleets to carry it: DAIDE cannot say it
            return (own, "MTO", self.location(order.destination))
        if isinstance(order, SupportHold):
            return (own, "SUP", self._other_unit(position, order.supported_location))
        if isinstance(order, SupportMove):
            return (own, "SUP", self._other_unit(position, order.supported_location), "MTO",
                    self.province_tokens[order.destination.partition("/")[0]])
        if isinstance(order, Convoy):
            return (own, "CVY", self._other_unit(position, order.army_location), "CTO",
                    self.province_tokens[order.destination.partition("/")[0]])
        if isinstance(order, Retreat):
            return (own, "RTO", self.location(order.destination))
        if isinstance(order, Disband):
            return (own, "REM" if position.phase.type is PhaseType.ADJUSTMENTS else "DSB")
        if isinstance(order, Build):
            return (own, "BLD")
        raise MapError(f"DAIDE has no words for the order {order}")

    def _other_unit(self, position: Position, location: str) -> tuple[Item, ...]:
        unit = position.unit_at(location)
        if unit is None:
            raise MapError(f"no unit at {location.upper()} to name in a support or convoy")
        return self.unit(unit)

    # -- DAIDE -> values ---------------------------------------------------------------------

    def read_location(self, item: Item) -> str:
        """``PAR`` -> ``par``; ``(STP NCS)`` -> ``stp/nc``.

        :raises OrderNote: NSP, no such province (or coast).
        """
        provinces = self.provinces
        if isinstance(item, str) and item in provinces:
            return provinces[item]
        if isinstance(item, tuple) and len(item) == 2 and item[0] in provinces \
                and item[1] in _COAST_SUFFIX:
            return f"{provinces[str(item[0])]}/{_COAST_SUFFIX[str(item[1])]}"
        raise OrderNote("NSP", f"{item!r} is no province of {self.variant.name}")

    def read_province(self, item: Item) -> str:
        """A province without its coast (``(STP NCS)`` reads as ``stp``)."""
        return self.read_location(item).partition("/")[0]

    def read_unit(self, item: Item) -> Unit:
        """``(FRA AMY PAR)`` -> the unit.

        :raises OrderNote: NSP for an unknown province, or the syntax is not a unit.
        """
        if not isinstance(item, tuple) or len(item) != 3 or item[1] not in _UNIT_TYPE:
            raise OrderNote("HUH", f"{item!r} is not a unit (power, AMY or FLT, province)")
        power = self.powers.get(str(item[0]))
        if power is None:
            raise OrderNote("HUH", f"{item[0]!r} is no power of {self.variant.name}")
        return Unit(power, _UNIT_TYPE[str(item[1])], self.read_location(item[2]))

    @staticmethod
    def read_turn(item: Item) -> Phase:
        """``(SPR 1901)`` -> ``S1901M``.

        :raises ValueError: not a turn.
        """
        if not isinstance(item, tuple) or len(item) != 2 or item[0] not in _PHASE_OF \
                or not isinstance(item[1], int):
            raise ValueError(f"{item!r} is not a turn such as (SPR 1901)")
        season, kind = _PHASE_OF[str(item[0])]
        return Phase(season, item[1], kind)

    def read_order(self, item: Item, position: Position, power: str) -> Order:
        """An order of ``SUB`` as an order value for ``power``, checked against the position.

        :raises OrderNote: with the DAIDE note that says why it cannot be taken (``NYU``
            not your unit, ``NSU`` no such unit, ``NRS`` not the right season, ``HUH`` no
            order at all...).
        """
        if not isinstance(item, tuple) or len(item) < 2:
            raise OrderNote("HUH", f"{item!r} is not an order")
        if item[1] == "WVE":
            if self.powers.get(str(item[0])) != power:
                raise OrderNote("NYU", "a waive names its own power")
            return _require_phase(Waive(power), position, PhaseType.ADJUSTMENTS)
        unit = self.read_unit(item[0])
        kind = item[1]
        if kind == "BLD":
            if unit.power != power:
                raise OrderNote("NYU", "a power builds only its own units")
            return _require_phase(Build(unit.type, unit.location, power=power), position,
                                  PhaseType.ADJUSTMENTS)
        wanted = _PHASE_OF_ORDER.get(str(kind))
        if wanted is None:
            raise OrderNote("HUH", f"{format_item(item)} is not an order DAIDE knows")
        _require_phase(Hold(unit.type, unit.location), position, wanted)
        standing = _unit_for(position, unit, kind)
        if standing is None and kind in ("RTO", "DSB") and position.unit_at(unit.province):
            raise OrderNote("NRN", f"{format_item(item[0])} was not dislodged")
        if standing is None or standing.power != unit.power:
            raise OrderNote("NSU", f"no unit {format_item(item[0])} on the board")
        if standing.power != power:
            raise OrderNote("NYU", f"{format_item(item[0])} is not {power}'s unit")
        where, unit_type = standing.location, standing.type
        rest = item[2:]
        order: Order
        if kind == "HLD" and not rest:
            order = Hold(unit_type, where, power=power)
        elif kind == "MTO" and len(rest) == 1:
            order = Move(unit_type, where, self.read_location(rest[0]), power=power)
        elif kind == "CTO" and len(rest) in (1, 3):
            order = Move(unit_type, where, self.read_location(rest[0]), True, power=power)
        elif kind == "SUP" and len(rest) == 1:
            supported = self.read_unit(rest[0])
            order = SupportHold(unit_type, where, supported.location, supported.type,
                                power=power)
        elif kind == "SUP" and len(rest) == 3 and rest[1] == "MTO":
            supported = self.read_unit(rest[0])
            order = SupportMove(unit_type, where, supported.location,
                                self.read_province(rest[2]), supported.type, power=power)
        elif kind == "CVY" and len(rest) == 3 and rest[1] == "CTO":
            army = self.read_unit(rest[0])
            order = Convoy(unit_type, where, army.location, self.read_province(rest[2]),
                           power=power)
        elif kind == "RTO" and len(rest) == 1:
            order = Retreat(unit_type, where, self.read_location(rest[0]), power=power)
        elif kind in ("DSB", "REM") and not rest:
            order = Disband(unit_type, where, power=power)
        else:
            raise OrderNote("HUH", f"{format_item(item)} is not an order DAIDE knows")
        return order

    def read_position(self, now: Message, sco: Message | None) -> Position:
        """The position a ``NOW`` (and the latest ``SCO``) describe. In a retreat phase each
        dislodged unit's ``MRT`` list becomes the position's stand-offs and the attacker's
        origin, so that the engine lists the same retreats as the server.

        :raises ValueError: the messages do not describe a position of this variant.
        """
        if not now or now[0] != "NOW" or len(now) < 2:
            raise ValueError("a position is NOW (turn) (unit) ...")
        phase = self.read_turn(now[1])
        units: list[Unit] = []
        retreating: list[tuple[Unit, set[str]]] = []
        for item in now[2:]:
            if not isinstance(item, tuple):
                raise ValueError(f"{item!r} is not a unit")
            unit = self.read_unit(item[:3])
            if len(item) == 5 and item[3] == "MRT" and isinstance(item[4], tuple):
                retreating.append((unit, {self.read_province(p) for p in item[4]}))
            else:
                units.append(unit)
        centers: dict[str, str] = {}
        for group in (sco or ("SCO",))[1:]:
            if not isinstance(group, tuple) or not group:
                continue
            owner = self.powers.get(str(group[0]))
            if owner is not None:
                for centre in group[1:]:
                    centers[self.read_province(centre)] = owner
        dislodged, standoffs = self._retreat_facts(units, retreating)
        return Position.build(self.variant, phase, units, centers, dislodged=dislodged,
                              standoffs=standoffs)

    def _retreat_facts(self, units: Sequence[Unit], retreating: Sequence[tuple[Unit, set[str]]]
                       ) -> tuple[list[DislodgedUnit], set[str]]:
        """Dislodged units and stand-offs that give each unit the retreats the server listed:
        an empty neighbour no unit may retreat to was a stand-off; one that another unit may
        retreat to is where this unit's attacker came from."""
        the_map = self.variant.map
        occupied = {u.province for u in units}
        allowed = set().union(*(places for _, places in retreating)) if retreating else set()
        excluded: dict[Unit, set[str]] = {}
        for unit, places in retreating:
            reach = {n.partition("/")[0] for n in (the_map.army_neighbours(unit.location)
                     if unit.type is UnitType.ARMY else the_map.fleet_neighbours(unit.location))}
            excluded[unit] = {p for p in reach if p not in places and p not in occupied}
        standoffs = set().union(*excluded.values()) - allowed if excluded else set()
        dislodged = []
        for unit, _ in retreating:
            attacker = sorted(excluded[unit] & allowed)
            dislodged.append(DislodgedUnit(unit, attacker[0] if attacker else None))
        return dislodged, standoffs


def _beyond_daide(variant: Variant) -> list[str]:
    """What a variant has that a DAIDE map description and DAIDE's orders cannot say."""
    rules = variant.rules
    beyond = []
    if type(variant.hooks) is not VariantHooks:
        beyond.append(f"rules of its own ({type(variant.hooks).__name__})")
    if rules.builds is not BuildSites.HOME_CENTERS:
        # (the value names the rule: any_owned_center)
        where = rules.builds.value.replace("_", " ").replace("center", "centre")
        beyond.append(f"builds in {where}")
    if rules.max_builds is not None:
        many = "1 build" if rules.max_builds == 1 else f"{rules.max_builds} builds"
        beyond.append(f"at most {many} a winter")
    if rules.powers:
        names = ", ".join(variant.power_name(power) for power in rules.powers)
        beyond.append(f"home centres, build sites or unit limits of their own for {names}")
    if rules.convoy_spaces:
        beyond.append("convoys through land")
    if rules.conditional_borders or rules.corners or rules.passages or rules.swap_borders:
        beyond.append("borders that open and close")
    if rules.neutral_units:
        beyond.append("neutral units")
    if not variant.calendar.is_classical:
        # DAIDE's turns are SPR, SUM, FAL, AUT and WIN: the rulebooks' year only
        beyond.append(f"a year of its own ({variant.calendar.describe()})")
    return beyond


def convoy_route(position: Position, start: str, destination: str,
                 fleets: Iterable[str] | None = None) -> list[str]:
    """The shortest chain of sea spaces holding fleets (``fleets``, or every fleet at sea)
    from ``start`` to ``destination``; empty if there is none."""
    the_map = position.variant.map
    if fleets is None:
        seas = {u.location for u in position.units.values()
                if u.type is UnitType.FLEET and the_map.is_sea(u.location)}
    else:
        seas = set(fleets)
    goal = destination.partition("/")[0]
    origin = start.partition("/")[0]
    first = [s for s in seas
             if any(n.partition("/")[0] == origin for n in the_map.fleet_neighbours(s))]
    queue: deque[list[str]] = deque([s] for s in first)
    seen = set(first)
    while queue:
        path = queue.popleft()
        reach = {n.partition("/")[0] for n in the_map.fleet_neighbours(path[-1])}
        if goal in reach:
            return path
        for sea in reach:
            if sea in seas and sea not in seen:
                seen.add(sea)
                queue.append([*path, sea])
    return []


def convoy_routes(orders: Iterable[Order], position: Position
                  ) -> dict[tuple[str, str], list[str]]:
    """The route of each move by convoy in a power's orders, through the fleets ordered to
    convoy it."""
    orders = list(orders)
    routes: dict[tuple[str, str], list[str]] = {}
    for order in orders:
        if isinstance(order, Move) and (order.via_convoy or not position.variant.map.can_move(
                order.unit_type, order.location, order.destination)):
            fleets = [o.location for o in orders if isinstance(o, Convoy)
                      and o.army_location == order.location
                      and o.destination == order.destination.partition("/")[0]]
            route = convoy_route(position, order.location, order.destination, fleets)
            routes[(order.location, order.destination)] = route or convoy_route(
                position, order.location, order.destination)
    return routes


def loose(order: Order, the_map: Map) -> Order:
    """The order as DAIDE can say it: a support's destination without its coast, and a move
    that can only go by convoy marked as one (``MTO`` or ``CTO``), as DAIDE readers write it;
    two orders with the same loose form are one order in DAIDE."""
    if isinstance(order, SupportMove) and "/" in order.destination:
        return replace(order, destination=order.destination.partition("/")[0])
    if isinstance(order, Move) and not order.via_convoy and not the_map.can_move(
            order.unit_type, order.location, order.destination):
        return replace(order, via_convoy=True)
    return order


def format_item(item: Item) -> str:
    """One item in the text form."""
    return format_message((item,))


def _unit_for(position: Position, unit: Unit, kind: Item) -> Unit | None:
    if kind in ("RTO", "DSB"):
        for dislodged in position.dislodged:
            if dislodged.unit.province == unit.province and dislodged.unit.type is unit.type:
                return dislodged.unit
        return None
    standing = position.unit_at(unit.province)
    if standing is None or standing.type is not unit.type:
        return None
    return standing


def _require_phase(order: Order, position: Position, kind: PhaseType) -> Order:
    if position.phase.type is not kind:
        raise OrderNote("NRS", f"not an order of a {position.phase.type.name.lower()} phase")
    return order


def _category(province: Province) -> int:
    """The province's token category: inland, sea, coastal or bicoastal, centre or not."""
    centre = 1 if province.is_supply_center else 0
    if province.terrain is Terrain.LAND:
        return 0x50 | centre
    if province.terrain is Terrain.SEA:
        return 0x52 | centre
    return (0x56 if len(province.coasts) > 1 else 0x54) | centre


def _choose_name(candidates: Iterable[str], taken: set[str]) -> str:
    """The first candidate that is a free three-character name, else a made-up one."""
    for candidate in candidates:
        name = candidate.upper()
        if NAME_PATTERN.fullmatch(name) and name not in taken:
            taken.add(name)
            return name
    for number in range(36 ** 3):
        name = _base36(number)
        if name not in taken and not name.isdigit():
            taken.add(name)
            return name
    raise MapError("no three-character name is left")


def _base36(number: int) -> str:
    digits = "ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210"
    out = ""
    for _ in range(3):
        number, rest = divmod(number, 36)
        out = digits[rest] + out
    return out


def _flat(item: Item) -> list[Item]:
    if isinstance(item, tuple):
        return [x for sub in item for x in _flat(sub)]
    return [item]


def _names(item: Item) -> str:
    return " ".join(str(x) for x in _flat(item))


def _adjacency_sets(item: Item) -> dict[Item, frozenset[Item]]:
    """Province -> the set of (unit kind, neighbour) pairs, whatever the order written."""
    out: dict[Item, frozenset[Item]] = {}
    if not isinstance(item, tuple):
        return out
    for entry in item:
        if isinstance(entry, tuple) and entry:
            pairs: set[Item] = set()
            for group in entry[1:]:
                if isinstance(group, tuple) and group:
                    pairs.update((group[0], n) for n in group[1:])
            out[entry[0]] = frozenset(pairs)
    return out
