"""The rules a variant declares in its data, read and checked when it loads.

``variant.toml`` says, besides the map and the start, which of the engine's rule switches a
variant uses and the data its special rules need: which spaces can carry convoys, borders that
close under conditions, corners, units that belong to no power, per-power build sites and unit
limits, the retreat policy. This module turns that into one typed, immutable
:class:`VariantRules`; anything unknown or malformed is a :class:`VariantError` naming the file
and line. The behaviour behind each value lives in :mod:`realpolitik.hooks`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, TypeVar

from realpolitik.errors import VariantError
from realpolitik.geography import Map, Terrain, UnitType, province_of

__all__ = [
    "NEUTRAL",
    "BuildSites",
    "BlockPoint",
    "ConditionalBorder",
    "Corner",
    "NeutralUnit",
    "Passage",
    "PowerRules",
    "RetreatObligation",
    "TomlLines",
    "UnorderedRetreats",
    "VariantRules",
    "read_variant_rules",
]

NEUTRAL = "neutral"
"""The owner written for units that belong to no power (:class:`NeutralUnit`)."""


class BuildSites(StrEnum):
    """Where a power may build (``[rules] builds``)."""

    HOME_CENTERS = "home_centers"
    """Its unoccupied home centres that it still owns (the rulebooks), plus any
    ``build_sites`` its ``[[powers]]`` entry lists."""
    ANY_OWNED_CENTER = "any_owned_center"
    """Any unoccupied supply centre it owns (the "Chaos" and "Build Anywhere" variants)."""


class RetreatObligation(StrEnum):
    """May a dislodged unit that has somewhere to go be disbanded (``[rules] retreats``)?"""

    MAY_DISBAND = "may_disband"
    """Yes: a disband order is always legal (the rulebooks)."""
    MUST_RETREAT = "must_retreat"
    """No: a unit with a retreat open must retreat; a disband order for it is illegal."""


class UnorderedRetreats(StrEnum):
    """What happens to a dislodged unit given no order (``[rules] unordered_retreats``)."""

    DISBAND = "disband"
    """It is disbanded (the rulebooks)."""
    RANDOM = "random"
    """It retreats to one of its open spaces drawn at random with the game's seeded generator
    (the draw is recorded with the phase); it is disbanded only when none is open."""


@dataclass(frozen=True, slots=True)
class ConditionalBorder:
    """A border that is closed in a turn when a condition holds at a space next to it
    (``[[conditional_borders]]``): Copenhagen's crossing, a passage across a lake.

    The move across fails ("the passage is closed") when, after the turn's moves, a fleet of a
    power other than the mover's stands in ``watch`` (``closed_by_foreign_fleet``), or when
    ``watch`` is left empty by a stand-off (``closed_by_standoff``).
    """

    a: str
    b: str
    """The two sides (provinces), in either direction."""
    watch: str
    """The province whose state decides."""
    unit_type: UnitType | None = None
    """The units the condition applies to (``None``: both)."""
    closed_by_foreign_fleet: bool = True
    closed_by_standoff: bool = True


@dataclass(frozen=True, slots=True)
class Corner:
    """Four spaces (or five, on some maps) meeting at a point (``[[corners]]``):
    ``ring`` in order around it, so a diagonal joins two spaces that are not next to each
    other in the ring (``ring[0]-ring[2]`` and ``ring[1]-ring[3]`` for four).

    A crossing is a move along a diagonal. When crossings in more than one direction are
    tried in the same turn, they all fail. A unit of ``block_units`` in one of ``blockers``
    may be ordered to block the point (a block order, a kind the variant declares): other powers'
    crossings between two other spaces of the ring then fail unless supported once per block
    standing against them; an attack on the blocker cuts its block, as it cuts a support.
    """

    id: str
    ring: tuple[str, ...]
    blockers: frozenset[str] = frozenset()
    """The spaces whose units may block the point (by default every space of the ring)."""
    block_units: UnitType | None = UnitType.ARMY
    """The units that may block (None: both)."""

    def diagonal(self, origin: str, destination: str) -> bool:
        """True if a move from ``origin`` to ``destination`` crosses the point."""
        ring = self.ring
        if origin == destination or origin not in ring or destination not in ring:
            return False
        step = (ring.index(origin) - ring.index(destination)) % len(ring)
        return step not in (1, len(ring) - 1)

    def crosses(self, origin: str, destination: str, unit_type: UnitType) -> bool:
        """True if a move of a ``unit_type`` unit crosses the point (and may be blocked)."""
        return self.diagonal(origin, destination)


@dataclass(frozen=True, slots=True)
class Passage:
    """A space that is a tunnel between others (``[[passages]]``: a lake or a strait between
    two lands): units of ``block_units`` in ``blockers`` (by default the
    land provinces next to it) may block the moves of ``crossing_units`` into or out of it, as
    a corner is blocked (:class:`Corner`). Its id, in a block order, is its space."""

    space: str
    blockers: frozenset[str]
    block_units: UnitType | None = UnitType.ARMY
    crossing_units: UnitType | None = UnitType.FLEET
    """The moves that may be blocked (None: both kinds of unit)."""

    @property
    def id(self) -> str:
        """The passage's name in a block order: its space."""
        return self.space

    def crosses(self, origin: str, destination: str, unit_type: UnitType) -> bool:
        """True if a move of a ``unit_type`` unit goes through the passage (and may be
        blocked)."""
        return (self.space in (origin, destination)
                and (self.crossing_units is None or unit_type is self.crossing_units))


BlockPoint = Corner | Passage
"""A place units may block."""


@dataclass(frozen=True, slots=True)
class SwapBorder:
    """A border along which two units may exchange places (``[[swap_borders]]``), because
    the movement can take two routes or crosses a river: two
    moves across it in opposite directions are not a head-to-head battle, and both succeed
    unless something else stops them."""

    a: str
    b: str
    pairs: frozenset[frozenset[UnitType]]
    """The unit types that may exchange: {ARMY}, {ARMY, FLEET}, {FLEET}."""

    def allows(self, origin: str, destination: str, first: UnitType, second: UnitType) -> bool:
        """True if units of these types moving ``origin`` -> ``destination`` and back may
        exchange places."""
        return {origin, destination} == {self.a, self.b} and \
            frozenset((first, second)) in self.pairs


@dataclass(frozen=True, slots=True)
class NeutralUnit:
    """A unit that belongs to no power (``[[neutral_units]]``): it always holds, may be
    supported by anyone, and is annihilated when dislodged. Its owner is :data:`NEUTRAL`."""

    type: UnitType
    location: str
    defence_bonus: int = 0
    """Extra strength an attack needs to dislodge it (a fortress, a garrison)."""


@dataclass(frozen=True, slots=True)
class PowerRules:
    """What a ``[[powers]]`` entry says about one power's centres and builds."""

    homes: tuple[str, ...] = ()
    """Home centres besides those ``provinces.csv`` gives it (a centre may be a home centre of
    several powers)."""
    build_sites: tuple[str, ...] = ()
    """Supply centres it may build in besides its home centres (colonies), when it owns them."""
    max_fleets: int | None = None
    max_armies: int | None = None


_NO_LIMITS = PowerRules()


@dataclass(frozen=True, slots=True)
class VariantRules:
    """Everything a variant declares about its rules, typed."""

    builds: BuildSites = BuildSites.HOME_CENTERS
    convoy_spaces: frozenset[str] = frozenset()
    """Spaces other than seas whose fleets may convoy (rivers, lakes on land, canals)."""
    retreats: RetreatObligation = RetreatObligation.MAY_DISBAND
    unordered_retreats: UnorderedRetreats = UnorderedRetreats.DISBAND
    conditional_borders: tuple[ConditionalBorder, ...] = ()
    corners: tuple[Corner, ...] = ()
    passages: tuple[Passage, ...] = ()
    swap_borders: tuple[SwapBorder, ...] = ()
    neutral_units: tuple[NeutralUnit, ...] = ()
    max_builds: int | None = None
    """At most this many builds per power in one winter (None: as many as it is due)."""
    powers: Mapping[str, PowerRules] = field(
        default_factory=lambda: MappingProxyType({}))
    """Power id -> what its ``[[powers]]`` entry declares (only powers whose entry does)."""

    def of_power(self, power: str) -> PowerRules:
        """What ``power``'s entry declares (nothing by default)."""
        return self.powers.get(power, _NO_LIMITS)

    def block_point(self, point: str) -> BlockPoint | None:
        """The corner or passage called ``point`` (a corner's id, a passage's space)."""
        for corner in self.corners:
            if corner.id == point:
                return corner
        for passage in self.passages:
            if passage.space == point:
                return passage
        return None

    def block_points(self) -> tuple[BlockPoint, ...]:
        """Every corner and passage whose crossings units may block."""
        return (*(c for c in self.corners if c.blockers), *self.passages)


class TomlLines:
    """Finds the line of a key in a TOML file, for error messages (``tomllib`` keeps none)."""

    def __init__(self, text: str) -> None:
        self._lines = text.splitlines()

    def of(self, table: str, key: str | None = None, index: int = 0) -> int | None:
        """The 1-based line of ``key`` in ``[table]`` (the ``index``-th ``[[table]]`` for an
        array of tables), or of the table's header when ``key`` is None."""
        header = re.compile(rf"\s*\[\[?\s*{re.escape(table)}\s*\]\]?\s*(#.*)?$")
        seen = -1
        start: int | None = None
        for number, line in enumerate(self._lines, start=1):
            if header.match(line):
                seen += 1
                if seen == index:
                    start = number
                    break
        if start is None:
            return None
        if key is None:
            return start
        assignment = re.compile(rf"\s*[\"']?{re.escape(key)}[\"']?\s*=")
        for number in range(start + 1, len(self._lines) + 1):
            line = self._lines[number - 1]
            if line.lstrip().startswith("["):
                break
            if assignment.match(line):
                return number
        return start


_E = TypeVar("_E", bound=StrEnum)


class _Reader:
    """Reads values of ``variant.toml`` with errors that name the line."""

    def __init__(self, lines: TomlLines, the_map: Map, power_ids: frozenset[str]) -> None:
        self.lines = lines
        self.map = the_map
        self.power_ids = power_ids

    def fail(self, message: str, table: str, key: str | None = None, index: int = 0
             ) -> VariantError:
        return VariantError(message, file="variant.toml", line=self.lines.of(table, key, index))

    def keys(self, entry: Mapping[str, Any], allowed: tuple[str, ...], table: str,
             index: int = 0) -> None:
        for key in entry:
            if key not in allowed:
                raise self.fail(f"[{table}] has no key {key!r}; the keys are: "
                                f"{', '.join(allowed)}", table, key, index)

    def choice(self, entry: Mapping[str, Any], key: str, kind: type[_E], default: _E,
               table: str) -> _E:
        value = entry.get(key, default)
        try:
            return kind(value)
        except ValueError:
            allowed = ", ".join(repr(str(v)) for v in kind)
            raise self.fail(f"[{table}] {key} cannot be {value!r}; write one of: {allowed}",
                            table, key) from None

    def province(self, value: object, table: str, key: str, index: int = 0) -> str:
        if not isinstance(value, str) or value not in self.map.provinces:
            raise self.fail(f"[{table}] {key}: {value!r} is not a province", table, key, index)
        return value

    def provinces(self, entry: Mapping[str, Any], key: str, table: str, index: int = 0
                  ) -> tuple[str, ...]:
        values = entry.get(key, [])
        if not isinstance(values, list):
            raise self.fail(f"[{table}] {key} must be a list of provinces", table, key, index)
        return tuple(self.province(v, table, key, index) for v in values)

    def count(self, entry: Mapping[str, Any], key: str, table: str, index: int) -> int | None:
        value = entry.get(key)
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self.fail(f"[{table}] {key} must be a whole number >= 0", table, key, index)
        return value

    def flag(self, entry: Mapping[str, Any], key: str, default: bool, table: str, index: int
             ) -> bool:
        value = entry.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"[{table}] {key} must be true or false", table, key, index)
        return value

    def entries(self, data: Mapping[str, Any], table: str) -> list[dict[str, Any]]:
        value = data.get(table, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(f"{table} must be written as [[{table}]] tables", table)
        return value


_RULE_KEYS = ("builds", "convoy_spaces", "retreats", "unordered_retreats", "max_builds")


def read_variant_rules(data: Mapping[str, Any], text: str, the_map: Map,
                       power_ids: frozenset[str]) -> VariantRules:
    """The :class:`VariantRules` of a parsed ``variant.toml`` (``text`` is its source, for
    line numbers), checked against the map.

    :raises VariantError: an unknown key or value, or a name that is not on the map.
    """
    read = _Reader(TomlLines(text), the_map, power_ids)
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise read.fail("[rules] must be a table", "rules")
    read.keys(rules, _RULE_KEYS, "rules")
    convoy_spaces = read.provinces(rules, "convoy_spaces", "rules")
    for space in convoy_spaces:
        if the_map.provinces[space].terrain is not Terrain.COAST:
            raise read.fail(f"[rules] convoy_spaces: {space!r} must be a coastal space (seas "
                            "convoy anyway)", "rules", "convoy_spaces")
    return VariantRules(
        builds=read.choice(rules, "builds", BuildSites, BuildSites.HOME_CENTERS, "rules"),
        convoy_spaces=frozenset(convoy_spaces),
        retreats=read.choice(rules, "retreats", RetreatObligation,
                             RetreatObligation.MAY_DISBAND, "rules"),
        unordered_retreats=read.choice(rules, "unordered_retreats", UnorderedRetreats,
                                       UnorderedRetreats.DISBAND, "rules"),
        conditional_borders=_conditional_borders(read, data),
        corners=_corners(read, data),
        passages=_passages(read, data),
        swap_borders=_swap_borders(read, data),
        neutral_units=_neutral_units(read, data),
        max_builds=read.count(rules, "max_builds", "rules", 0),
        powers=MappingProxyType(_power_rules(read, data)),
    )


def _bordering_pair(read: _Reader, entry: Mapping[str, Any], table: str,
                    index: int) -> tuple[str, str]:
    """The two provinces an entry's ``between`` names, which must share a border."""
    between = read.provinces(entry, "between", table, index)
    if len(between) != 2:
        raise read.fail(f"[[{table}]] between must name two provinces", table, "between", index)
    a, b = between
    if b not in read.map.army_neighbours(a) and not any(
            province_of(n) == b for loc in (a, *read.map.coasts(a))
            for n in read.map.fleet_neighbours(loc)):
        raise read.fail(f"[[{table}]] {a} and {b} share no border", table, "between", index)
    return a, b


def _conditional_borders(read: _Reader, data: Mapping[str, Any]) -> tuple[ConditionalBorder, ...]:
    table = "conditional_borders"
    out = []
    for index, entry in enumerate(read.entries(data, table)):
        read.keys(entry, ("between", "watch", "units", "closed_by_foreign_fleet",
                          "closed_by_standoff"), table, index)
        a, b = _bordering_pair(read, entry, table, index)
        units = entry.get("units", "both")
        if units not in ("army", "fleet", "both"):
            raise read.fail(f"[[{table}]] units must be army, fleet or both", table, "units",
                            index)
        out.append(ConditionalBorder(
            a, b, read.province(entry.get("watch"), table, "watch", index),
            None if units == "both" else UnitType.ARMY if units == "army" else UnitType.FLEET,
            read.flag(entry, "closed_by_foreign_fleet", True, table, index),
            read.flag(entry, "closed_by_standoff", True, table, index),
        ))
    return tuple(out)


def _corners(read: _Reader, data: Mapping[str, Any]) -> tuple[Corner, ...]:
    table = "corners"
    out = []
    for index, entry in enumerate(read.entries(data, table)):
        read.keys(entry, ("id", "ring", "blockers", "block_units"), table, index)
        ring = read.provinces(entry, "ring", table, index)
        if len(ring) not in (4, 5) or len(set(ring)) != len(ring):
            raise read.fail(f"[[{table}]] ring must name four (or five) different provinces in "
                            "order around the point", table, "ring", index)
        blockers = read.provinces(entry, "blockers", table, index) \
            if "blockers" in entry else ring
        if any(b not in ring for b in blockers):
            raise read.fail(f"[[{table}]] blockers must be spaces of the ring", table,
                            "blockers", index)
        corner_id = str(entry.get("id", "-".join(ring))).lower()
        if corner_id in read.map.provinces or not re.fullmatch(r"[a-z][a-z0-9_]*", corner_id):
            raise read.fail(f"[[{table}]] id {corner_id!r} must be a word (letters, digits, "
                            "_) that is not a province's id", table, "id", index)
        out.append(Corner(corner_id, tuple(ring), frozenset(blockers),
                          _unit_kind(read, entry, "block_units", "army", table, index)))
    return tuple(out)


def _unit_kind(read: _Reader, entry: Mapping[str, Any], key: str, default: str, table: str,
               index: int) -> UnitType | None:
    value = entry.get(key, default)
    if value not in ("army", "fleet", "both"):
        raise read.fail(f"[[{table}]] {key} must be army, fleet or both", table, key, index)
    return None if value == "both" else UnitType.ARMY if value == "army" else UnitType.FLEET


def _passages(read: _Reader, data: Mapping[str, Any]) -> tuple[Passage, ...]:
    table = "passages"
    out = []
    for index, entry in enumerate(read.entries(data, table)):
        read.keys(entry, ("space", "blockers", "block_units", "crossing_units"), table, index)
        space = read.province(entry.get("space"), table, "space", index)
        near = {province_of(n) for loc in (space, *read.map.coasts(space))
                for n in read.map.fleet_neighbours(loc)} | set(read.map.army_neighbours(space))
        if "blockers" in entry:
            blockers = read.provinces(entry, "blockers", table, index)
        else:
            blockers = tuple(sorted(p for p in near
                                    if read.map.provinces[p].terrain is not Terrain.SEA))
        if any(b not in near for b in blockers):
            raise read.fail(f"[[{table}]] blockers must be next to {space}", table,
                            "blockers", index)
        out.append(Passage(space, frozenset(blockers),
                           _unit_kind(read, entry, "block_units", "army", table, index),
                           _unit_kind(read, entry, "crossing_units", "fleet", table, index)))
    return tuple(out)


_SWAP_PAIRS = {
    "army-army": frozenset((UnitType.ARMY,)),
    "army-fleet": frozenset((UnitType.ARMY, UnitType.FLEET)),
    "fleet-fleet": frozenset((UnitType.FLEET,)),
}


def _swap_borders(read: _Reader, data: Mapping[str, Any]) -> tuple[SwapBorder, ...]:
    table = "swap_borders"
    out = []
    for index, entry in enumerate(read.entries(data, table)):
        read.keys(entry, ("between", "units"), table, index)
        a, b = _bordering_pair(read, entry, table, index)
        units = entry.get("units", list(_SWAP_PAIRS))
        if not isinstance(units, list) or any(u not in _SWAP_PAIRS for u in units):
            raise read.fail(f"[[{table}]] units must be a list of: {', '.join(_SWAP_PAIRS)}",
                            table, "units", index)
        out.append(SwapBorder(a, b, frozenset(_SWAP_PAIRS[u] for u in units)))
    return tuple(out)


_UNIT = re.compile(r"\s*([AFaf])\s+([a-z0-9_/]+)\s*")


def _neutral_units(read: _Reader, data: Mapping[str, Any]) -> tuple[NeutralUnit, ...]:
    table = "neutral_units"
    out = []
    for index, entry in enumerate(read.entries(data, table)):
        read.keys(entry, ("unit", "defence_bonus"), table, index)
        match = _UNIT.fullmatch(str(entry.get("unit", "")))
        if match is None:
            raise read.fail(f"[[{table}]] unit should look like 'A bel' or 'F stp/sc'", table,
                            "unit", index)
        unit_type, location = UnitType(match.group(1).upper()), read.map.same_name(match.group(2))
        if not read.map.can_hold(unit_type, location):
            raise read.fail(f"[[{table}]] a {unit_type.name.lower()} cannot stand at "
                            f"{location!r}", table, "unit", index)
        out.append(NeutralUnit(unit_type, location,
                               read.count(entry, "defence_bonus", table, index) or 0))
    return tuple(out)


def _power_rules(read: _Reader, data: Mapping[str, Any]) -> dict[str, PowerRules]:
    out: dict[str, PowerRules] = {}
    for index, entry in enumerate(read.entries(data, "powers")):
        centres = {}
        for key in ("homes", "build_sites"):
            centres[key] = read.provinces(entry, key, "powers", index)
            for site in centres[key]:
                if not read.map.provinces[site].is_supply_center:
                    raise read.fail(f"[[powers]] {key}: {site!r} is not a supply centre",
                                    "powers", key, index)
        limits = PowerRules(centres["homes"], centres["build_sites"],
                            read.count(entry, "max_fleets", "powers", index),
                            read.count(entry, "max_armies", "powers", index))
        if limits != _NO_LIMITS:
            out[str(entry.get("id"))] = limits
    return out
