"""Places, locations and powers as small integers: the numbering the engine's hot paths use.

A :class:`Places` numbers one variant's provinces, locations (a province, or one of its coasts)
and powers in map order, once, and keeps the tables the rules read as integer-indexed tuples and
bit masks (bit ``k`` of a mask stands for province ``k``). Names stay what users see: numbers are
made at the edge, from a :class:`~realpolitik.position.Position` and orders, and turned back into
names only when asked for. :func:`places_of` keeps one per variant in ``variant.caches``, so it
lives exactly as long as the variant (bounded by the size of the map).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from realpolitik.caches import CacheSlot
from realpolitik.geography import UnitType, province_of
from realpolitik.variant import Variant

if TYPE_CHECKING:
    from realpolitik.position import Position

__all__ = ["Occupancy", "Places", "occupancy_of", "places_of"]


class Places:
    """One variant's numbering of provinces, locations and powers, and its adjacency as masks.

    Provinces are numbered ``0 .. len(provinces) - 1`` in map order; locations likewise, a
    province's own location before its coasts; powers in the variant's display order."""

    __slots__ = (
        "provinces",
        "province_id",
        "locations",
        "location_id",
        "province_of_location",
        "location_of_province",
        "powers",
        "power_id",
        "army_adj",
        "fleet_adj",
        "army_mask",
        "fleet_mask",
    )

    def __init__(self, variant: Variant) -> None:
        the_map = variant.map
        self.provinces: tuple[str, ...] = tuple(the_map.provinces)
        """Province id -> its name (map order)."""
        self.province_id: dict[str, int] = {p: i for i, p in enumerate(self.provinces)}
        """Province name -> its id."""
        self.locations: tuple[str, ...] = tuple(the_map.locations)
        """Location id -> its name (a province's id, or ``"spa/sc"`` for a coast)."""
        self.location_id: dict[str, int] = {loc: i for i, loc in enumerate(self.locations)}
        """Location name -> its id."""
        self.province_of_location: tuple[int, ...] = tuple(
            self.province_id[province_of(loc)] for loc in self.locations)
        """Location id -> the id of its province."""
        self.location_of_province: tuple[int, ...] = tuple(
            self.location_id[p] for p in self.provinces)
        """Province id -> the id of the province's own location (not a coast)."""
        self.powers: tuple[str, ...] = variant.power_ids
        """Power id -> its name (display order)."""
        self.power_id: dict[str, int] = {p: i for i, p in enumerate(self.powers)}
        """Power name -> its id."""
        pid = self.province_id
        self.army_adj: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(pid[n] for n in the_map.army_neighbours(p))) for p in self.provinces)
        """Province id -> the province ids an army there may move to (ascending)."""
        lid = self.location_id
        self.fleet_adj: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(lid[n] for n in the_map.fleet_neighbours(loc)))
            for loc in self.locations)
        """Location id -> the location ids a fleet there may move to (ascending)."""
        self.army_mask: tuple[int, ...] = tuple(_mask(near) for near in self.army_adj)
        """Province id -> a mask of the provinces an army there may move to."""
        prov_of = self.province_of_location
        self.fleet_mask: tuple[int, ...] = tuple(
            _mask(prov_of[n] for n in near) for near in self.fleet_adj)
        """Location id -> a mask of the provinces a fleet there may move into."""

    def unit_mask(self, unit_type: UnitType, location: int) -> int:
        """A mask of the provinces a unit of ``unit_type`` at location id ``location`` may move
        into without a convoy."""
        if unit_type is UnitType.ARMY:
            return self.army_mask[self.province_of_location[location]]
        return self.fleet_mask[location]

    def province_names(self, mask: int) -> list[str]:
        """The names of the provinces in ``mask``, in map order."""
        names = self.provinces
        out: list[str] = []
        while mask:
            low = mask & -mask
            out.append(names[low.bit_length() - 1])
            mask ^= low
        return out


def _mask(ids: Iterable[int]) -> int:
    mask = 0
    for i in ids:
        mask |= 1 << i
    return mask


places_of: CacheSlot[Variant, Places] = CacheSlot("place numbering", Places)
"""The variant's :class:`Places`, made on first use; one per variant, sized by its map."""


class Occupancy:
    """Who stands where in one position, by the ids of the variant's :class:`Places`: the units
    on the board (not the dislodged ones) as integer tables indexed by province id, and masks.

    Made once per position, from its units, by :data:`occupancy_of`; read only."""

    __slots__ = ("location", "power", "armies", "fleets")

    def __init__(self, position: Position) -> None:
        places = places_of(position.variant)
        location = [-1] * len(places.provinces)
        power = [-1] * len(places.provinces)
        armies = fleets = 0
        province_id, location_id = places.province_id, places.location_id
        power_id, no_power = places.power_id, len(places.powers)
        for province, unit in position.units.items():
            pid = province_id[province]
            location[pid] = location_id[unit.location]
            power[pid] = power_id.get(unit.power, no_power)
            if unit.type is UnitType.FLEET:
                fleets |= 1 << pid
            else:
                armies |= 1 << pid
        self.location: tuple[int, ...] = tuple(location)
        """Province id -> the location id of the unit there (its coast, for a fleet on one),
        or -1 if the province is empty."""
        self.power: tuple[int, ...] = tuple(power)
        """Province id -> the power id of the unit there, ``len(places.powers)`` for a unit
        of no power (a variant's neutral units), or -1 if the province is empty."""
        self.armies: int = armies
        """A mask of the provinces with an army."""
        self.fleets: int = fleets
        """A mask of the provinces with a fleet."""

    @property
    def occupied(self) -> int:
        """A mask of the provinces with a unit."""
        return self.armies | self.fleets


occupancy_of: CacheSlot[Position, Occupancy] = CacheSlot("occupancy by province id", Occupancy)
"""The position's :class:`Occupancy`, made on first use; one per position, sized by its map."""
