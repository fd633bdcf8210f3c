"""The board as an immutable graph: provinces, coasts, terrain and adjacency.

A *province* is a space of the board (``par``, ``nth``, ``stp``). A *location* is where a unit
stands: a province, or a coast of a province with several coasts (``stp/nc``). Ids are short
lower-case strings. Everything here is precomputed once when a variant loads, so that the rules
ask only dictionary and set look-ups.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType


class Terrain(StrEnum):
    """What kind of space a province is."""

    LAND = "land"
    """Inland: armies only."""
    COAST = "coast"
    """Coastal land: armies, and fleets along the coast."""
    SEA = "sea"
    """Water: fleets only; fleets here may convoy."""
    IMPASSABLE = "impassable"
    """No unit may enter (Switzerland)."""


class UnitType(StrEnum):
    """Army or fleet; the value is the letter written in orders."""

    ARMY = "A"
    FLEET = "F"

    # Hashed as its letter, in C: the engine's tables are keyed by (unit type, location) and
    # orders by value, and Enum's own hash (of the member's name, in Python) cost a Python call
    # per look-up; this one also agrees with equality (UnitType.ARMY == "A").
    __hash__ = str.__hash__


@dataclass(frozen=True, slots=True)
class Province:
    """One space of the board."""

    id: str
    name: str
    terrain: Terrain
    is_supply_center: bool
    home_of: str | None
    """The power whose home centre this is, if any."""
    coasts: tuple[str, ...]
    """Location ids of its coasts (``("stp/nc", "stp/sc")``), empty if it has one coast or none."""
    aliases: tuple[str, ...]


def province_of(location: str) -> str:
    """The province of a location id: ``"stp/nc"`` -> ``"stp"``."""
    slash = location.find("/")
    return location if slash < 0 else location[:slash]


class Map:
    """The immutable adjacency graph of a variant.

    Built from provinces and a list of borders ``(a, b, army, fleet)``; the borders are made
    symmetric here. Army borders join provinces; fleet borders join locations (coasts where a
    province has several).
    """

    __slots__ = (
        "provinces",
        "locations",
        "_army",
        "_fleet",
        "_fleet_reach",
        "_coast_names",
        "borders",
        "support_borders",
        "_homes",
        "_centers",
        "names",
    )

    def __init__(
        self,
        provinces: Iterable[Province],
        borders: Iterable[tuple[str, str, bool, bool]],
        *,
        coast_names: Mapping[str, str] | None = None,
        support_borders: Iterable[tuple[str, str]] = (),
    ) -> None:
        """``support_borders``: pairs of locations across which a fleet may support but no
        unit may move (a fleet at sea next to a polar ice cap supports an army there)."""
        self.provinces: Mapping[str, Province] = MappingProxyType({p.id: p for p in provinces})
        locations: list[str] = []
        for province in self.provinces.values():
            locations.append(province.id)
            locations.extend(province.coasts)
        self.locations: tuple[str, ...] = tuple(locations)
        # One string object per place, which every table below holds: a dictionary look-up
        # whose key is the very object stored settles by identity, where an equal string made
        # apart (each line of a file read makes its own) is compared character by character.
        names = {loc: loc for loc in locations}
        self.names: Mapping[str, str] = MappingProxyType(names)
        """Each location id (a province's or a coast's) -> the one string object the map's
        tables hold for it: :meth:`same_name` hands it back for an equal string."""
        borders = tuple((names.get(a, a), names.get(b, b), by_army, by_fleet)
                        for a, b, by_army, by_fleet in borders)
        self.borders: tuple[tuple[str, str, bool, bool], ...] = borders
        """Every border as given: (a, b, armies may cross, fleets may cross)."""
        army: dict[str, set[str]] = {p: set() for p in self.provinces}
        fleet: dict[str, set[str]] = {loc: set() for loc in self.locations}
        for a, b, by_army, by_fleet in borders:
            if by_army:
                army[names[province_of(a)]].add(names[province_of(b)])
                army[names[province_of(b)]].add(names[province_of(a)])
            if by_fleet:
                fleet[a].add(b)
                fleet[b].add(a)
        self._army: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in army.items()}
        self._fleet: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in fleet.items()}
        self.support_borders: tuple[tuple[str, str], ...] = tuple(
            (names.get(a, a), names.get(b, b)) for a, b in support_borders)
        """Borders for fleet support only, as given."""
        support_only: dict[str, set[str]] = {}
        for a, b in self.support_borders:
            support_only.setdefault(a, set()).add(names[province_of(b)])
            support_only.setdefault(b, set()).add(names[province_of(a)])
        self._fleet_reach: dict[str, frozenset[str]] = {
            loc: frozenset(names[province_of(n)] for n in near) | support_only.get(loc, set())
            for loc, near in self._fleet.items()
        }
        self._coast_names: dict[str, str] = dict(coast_names or {})
        # asked for every winter (build sites, civil disorder): listed once
        homes: dict[str, list[str]] = {}
        for province in self.provinces.values():
            if province.home_of is not None:
                homes.setdefault(province.home_of, []).append(province.id)
        self._homes: dict[str, tuple[str, ...]] = {p: tuple(hs) for p, hs in homes.items()}
        self._centers = tuple(p.id for p in self.provinces.values() if p.is_supply_center)

    def with_impassable(self, province_ids: Iterable[str]) -> Map:
        """A copy of the map on which these provinces may not be entered (a neutral country)."""
        closed = frozenset(province_ids)
        provinces = [
            Province(p.id, p.name, Terrain.IMPASSABLE, p.is_supply_center, p.home_of, (),
                     p.aliases) if p.id in closed else p
            for p in self.provinces.values()
        ]
        borders = [b for b in self.borders
                   if province_of(b[0]) not in closed and province_of(b[1]) not in closed]
        support = [b for b in self.support_borders
                   if province_of(b[0]) not in closed and province_of(b[1]) not in closed]
        return Map(provinces, borders, coast_names=self._coast_names, support_borders=support)

    # -- questions about spaces -------------------------------------------------------------

    def same_name(self, location: str) -> str:
        """The map's own string object for a location id equal to ``location`` (``location``
        itself if it names no place of the map): keys made at run time (parsed, sliced, read
        from a file) are then found in the engine's tables by identity."""
        return self.names.get(location, location)

    def province_name(self, location: str) -> str:
        """The map's own string object for the province of ``location`` (``"stp/nc"`` ->
        ``"stp"``, the object the tables hold, where :func:`province_of` slices a new one)."""
        province = province_of(location)
        return self.names.get(province, province)

    def province(self, province_id: str) -> Province:
        """The province with this id (a coast id gives its province)."""
        return self.provinces[province_of(province_id)]

    def is_location(self, location: str) -> bool:
        """True if ``location`` is a province or coast id of this map."""
        return location in self._fleet

    def coasts(self, province_id: str) -> tuple[str, ...]:
        """The coast location ids of a province with several coasts, else ``()``."""
        return self.provinces[province_of(province_id)].coasts

    def terrain(self, location: str) -> Terrain:
        """The terrain of the location's province."""
        return self.provinces[province_of(location)].terrain

    def is_sea(self, location: str) -> bool:
        """True for a sea space."""
        return self.provinces[province_of(location)].terrain is Terrain.SEA

    def name(self, location: str) -> str:
        """The display name: ``"St Petersburg (north coast)"`` for ``stp/nc``."""
        province = self.provinces[province_of(location)]
        if location == province.id:
            return province.name
        return f"{province.name} ({self._coast_names.get(location, location.split('/')[1])})"

    def supply_centers(self) -> tuple[str, ...]:
        """Every supply-centre province id, in map order."""
        return self._centers

    def home_centers(self, power: str) -> tuple[str, ...]:
        """The home centres of ``power``, in map order."""
        return self._homes.get(power, ())

    def can_hold(self, unit_type: UnitType, location: str) -> bool:
        """True if a unit of this type may stand at ``location``."""
        if location not in self._fleet:
            return False
        province = self.provinces[province_of(location)]
        terrain = province.terrain
        if unit_type is UnitType.ARMY:
            return location == province.id and terrain in (Terrain.LAND, Terrain.COAST)
        if terrain is Terrain.SEA:
            return location == province.id
        if terrain is Terrain.COAST:
            return location != province.id or not province.coasts
        return False

    # -- adjacency ----------------------------------------------------------------------------

    def army_neighbours(self, province_id: str) -> frozenset[str]:
        """Provinces an army in ``province_id`` can move to in one move."""
        return self._army.get(province_of(province_id), frozenset())

    def fleet_neighbours(self, location: str) -> frozenset[str]:
        """Locations (coasts included) a fleet at ``location`` can move to in one move."""
        return self._fleet.get(location, frozenset())

    def can_reach(self, unit_type: UnitType, location: str, province_id: str) -> bool:
        """True if a unit at ``location`` could move into some part of ``province_id``, or
        support into it across a support-only border.

        This is the test for support (X.1): a fleet may support into any coast of a province it
        can reach along one coast.
        """
        if unit_type is UnitType.ARMY:
            return province_id in self._army.get(province_of(location), ())
        return province_id in self._fleet_reach.get(location, ())

    def fleet_support_reach(self, location: str) -> frozenset[str]:
        """The provinces a fleet at ``location`` may support into."""
        return self._fleet_reach.get(location, frozenset())

    def can_move(self, unit_type: UnitType, location: str, destination: str) -> bool:
        """True if the unit can move from ``location`` to ``destination`` without a convoy.

        For a fleet, ``destination`` must name the coast where the province has several.
        """
        if unit_type is UnitType.ARMY:
            return province_of(destination) == destination and destination in self._army.get(
                province_of(location), ()
            )
        return destination in self._fleet.get(location, ())

    def fleet_coasts_reachable(self, location: str, province_id: str) -> tuple[str, ...]:
        """Which locations of ``province_id`` a fleet at ``location`` can move to."""
        near = self._fleet.get(location, frozenset())
        province = self.provinces.get(province_id)
        if province is None:
            return ()
        candidates = province.coasts or (province.id,)
        return tuple(c for c in candidates if c in near)
