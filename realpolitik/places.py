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

from realpolitik.caches import CacheSlot
from realpolitik.geography import UnitType, province_of
from realpolitik.variant import Variant

__all__ = ["Places", "places_of"]


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

