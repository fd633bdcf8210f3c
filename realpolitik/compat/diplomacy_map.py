"""The ``diplomacy`` package's ``Map`` over a realpolitik variant.

Names follow the package: locations upper case (``"PAR"``, ``"STP/NC"``), a province with
several coasts written in lower case on its own (``"stp"``), since no fleet may stand there
without a coast. In an adjacency list (:attr:`Map.loc_abut`) a neighbour in lower case is
reachable by armies only, one in title case by fleets only, one in upper case by both (or by
the only kind that can go there). The answers (:meth:`Map.abuts`, :meth:`Map.is_valid_unit`,
:meth:`Map.area_type`) come from realpolitik's map; the lists and dictionaries are the map's
own, made for each ``Map`` (changing them, as ``drop`` and ``add_homes`` do, changes only it).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from realpolitik.geography import Map as _Map
from realpolitik.geography import Terrain, UnitType, province_of
from realpolitik.position import Phase
from realpolitik.variant import Variant, load_variant

__all__ = ["Map"]

_VARIANTS = {"standard": "classical"}
_LOADED: dict[str, Variant] = {}
_AREA = {Terrain.SEA: "WATER", Terrain.COAST: "COAST", Terrain.LAND: "LAND",
         Terrain.IMPASSABLE: "SHUT"}
_SEASONS = {"S": "SPRING", "F": "FALL", "W": "WINTER"}
_TYPES = {"M": "MOVEMENT", "R": "RETREATS", "A": "ADJUSTMENTS"}
_SEQUENCE = (("SPRING", "MOVEMENT"), ("SPRING", "RETREATS"), ("FALL", "MOVEMENT"),
             ("FALL", "RETREATS"), ("WINTER", "ADJUSTMENTS"))
_KEYWORDS = {
    ">": "", "-": "-", "ARMY": "A", "FLEET": "F", "THE": "", "IS": "", "WILL": "", "IN": "",
    "AT": "", "ON": "", "TO": "", "NC": "/NC", "SC": "/SC", "EC": "/EC", "WC": "/WC",
    "VIA": "VIA", "OF": "\\", "FROM": "\\", "WITH": "?", "THROUGH": "~", "OVER": "~", "BY": "~",
    "OR": "|", "BOUNCE": "|", "CUT": "|", "VOID": "?", "DISLODGED": "~", "DESTROYED": "*",
    **{word: "" for word in ("MOVE", "MOVES", "MOVING", "ATTACK", "ATTACKS", "ATTACKING")},
    **{word: letter for letters, letter in (
        (("RETREAT", "RETREATS", "RETREATING"), "R"),
        (("SUPPORT", "SUPPORTS", "SUPPORTING"), "S"),
        (("CONVOY", "CONVOYS", "CONVOYING"), "C"),
        (("HOLD", "HOLDS", "HOLDING"), "H"),
        (("BUILD", "BUILDS", "BUILDING"), "B"),
        (("DISBAND", "DISBANDS", "DISBANDING", "DESTROY", "DESTROYS", "DESTROYING", "REMOVE",
          "REMOVES", "REMOVING"), "D"),
        (("WAIVE", "WAIVES", "WAIVING", "WAIVED"), "V"),
    ) for word in letters},
}
"""Words :meth:`Map.norm` writes short (the package's keywords for them)."""

# The kinds of words Map.vet tells apart, numbered as in the package.
UNDETERMINED, POWER, UNIT, LOCATION, COAST, ORDER, MOVE_SEP, OTHER = range(8)


def _variant(name: str) -> Variant:
    variant = _LOADED.get(name)
    if variant is None:
        variant = _LOADED[name] = classical_year(load_variant(_VARIANTS.get(name, name)))
    return variant


def classical_year(variant: Variant) -> Variant:
    """``variant``, checked to have the rulebooks' year: the package's phases are Spring, Fall
    and Winter only.

    :raises ValueError: the variant's year has other seasons (a summer turn, spring builds).
    """
    if not variant.calendar.is_classical:
        raise ValueError(f"the diplomacy package plays Spring, Fall and Winter only, and "
                         f"{variant.name}'s year is {variant.calendar.describe()}")
    return variant


def _loc_name(location: str, the_map: _Map) -> str:
    """The package's name of a location: upper case, a province with coasts in lower case."""
    if location == province_of(location) and the_map.coasts(location):
        return location.lower()
    return location.upper()


class Map:
    """A map with the ``diplomacy`` package's attributes and calls (``Map("standard")``)."""

    def __init__(self, name: str = "standard", use_cache: bool = True) -> None:
        variant = _variant(name)
        the_map = variant.map
        self.variant = variant
        """The realpolitik variant the map is made from."""
        self._map = the_map
        self.name = name
        self.root_map = name
        self.first_year = Phase.parse(variant.start_phase).year
        start = Phase.parse(variant.start_phase)
        self.phase = f"{_SEASONS[start.season]} {start.year} {_TYPES[start.type.value]}"
        self.seq = ["NEWYEAR", *(f"{season} {kind}" for season, kind in _SEQUENCE)]
        self.flow = ["SPRING:MOVEMENT,RETREATS", "FALL:MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS"]
        self.flow_sign = 1
        self.victory: list[int] | None = None
        self.win = variant.solo_centers
        self.rules: list[str] = []
        self.error: list[str] = []
        self.dummies: list[str] = []
        self.validated = 1
        self.unit_names = {"A": "ARMY", "F": "FLEET"}
        self.keywords = dict(_KEYWORDS)
        self.powers = [power.upper() for power in variant.power_ids]
        self.pow_name = {power: power for power in self.powers}
        self.locs = [_loc_name(loc, the_map) for loc in self._ordered_locations()]
        self.loc_type = {loc: _AREA[the_map.terrain(loc.lower())] for loc in self.locs}
        self.loc_name = {the_map.name(loc.lower()).upper(): loc.upper() for loc in self.locs}
        self.aliases: dict[str, str] = {alias.upper(): location.upper()
                                        for alias, location in variant.names.items()}
        self.loc_abut = {loc: self._abut_names(loc.lower()) for loc in self.locs}
        self.loc_coasts = {loc.upper(): [other.upper() for other in self.locs
                                         if other.upper()[:3] == loc.upper()[:3]]
                           for loc in self.locs}
        self.scs = sorted(center.upper() for center in the_map.supply_centers())
        self.homes = {power.upper(): sorted(c.upper() for c in the_map.home_centers(power))
                      for power in variant.power_ids}
        self.units: dict[str, list[str]] = {power: [] for power in self.powers}
        for unit in variant.start_units:
            self.units[unit.power.upper()].append(f"{unit.type.value} {unit.location.upper()}")
        self.centers: dict[str, list[str]] = {power: [] for power in self.powers}
        for center, owner in sorted(variant.start_centers.items()):
            self.centers[owner.upper()].append(center.upper())
        self.dest_with_coasts = {
            loc.upper(): sorted({coast for near in self.abut_list(loc.upper(), True)
                                 for coast in self.find_coasts(near.upper())})
            for loc in self.locs}

    def _ordered_locations(self) -> Iterator[str]:
        """Every location, by province name, a province's coasts before the province."""
        for province in sorted(self._map.provinces.values(), key=lambda p: p.id):
            yield from province.coasts
            yield province.id

    def _abut_names(self, location: str) -> list[str]:
        """The package's adjacency list of a location (see the module's docstring)."""
        the_map = self._map
        province = province_of(location)
        names: set[str] = set()
        if location != province:  # a coast: fleets only
            names = {near.upper() for near in the_map.fleet_neighbours(location)}
        elif the_map.coasts(province):  # a province with coasts, on its own
            names = {near.upper() for near in the_map.army_neighbours(province)}
            for coast in the_map.coasts(province):
                names |= {province_of(near).upper() for near in the_map.fleet_neighbours(coast)}
        else:
            by_army = the_map.army_neighbours(province)
            by_fleet = the_map.fleet_neighbours(province)
            coastal = the_map.terrain(province) is Terrain.COAST
            for near in by_fleet:
                names.add(near.upper() if near in by_army or near != province_of(near)
                          or the_map.terrain(near) is Terrain.SEA or not coastal
                          else near.title())
            for near in by_army:
                if any(province_of(f) == near for f in by_fleet):
                    continue
                fleet_country = the_map.terrain(near) is Terrain.COAST and \
                    not the_map.coasts(near)
                names.add(near.lower() if coastal and fleet_country else near.upper())
        return sorted(names, key=str.upper)

    # -- questions -----------------------------------------------------------------------------

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<compat Map {self.name}>"

    def __deepcopy__(self, memo: dict[int, Any]) -> Map:
        made = Map.__new__(Map)
        memo[id(self)] = made
        for key, value in self.__dict__.items():
            shared = key in ("variant", "_map")  # immutable
            made.__dict__[key] = value if shared else copy.deepcopy(value, memo)
        return made

    def area_type(self, loc: str) -> str | None:
        """``"WATER"``, ``"COAST"``, ``"LAND"``, ``"SHUT"`` (impassable), or None."""
        return self.loc_type.get(loc.upper()) or self.loc_type.get(loc.lower())

    def find_coasts(self, loc: str) -> list[str]:
        """Every name of a province: ``"STP"`` -> ``["STP/NC", "STP/SC", "STP"]``."""
        return self.loc_coasts.get(loc.upper(), [])

    def abut_list(self, site: str, incl_no_coast: bool = False) -> list[str]:
        """The adjacency list of ``site`` (its case says who may cross: see the module); with
        ``incl_no_coast`` a neighbouring coast's province is listed too."""
        found = self.loc_abut.get(site)
        if found is None:
            found = self.loc_abut.get(site.lower(), [])
        if incl_no_coast:
            found = found[:]
            for loc in list(found):
                if "/" in loc and loc[:3] not in found:
                    found.append(loc[:3])
        return found

    def is_valid_unit(self, unit: str, no_coast_ok: bool | int = False,
                      shut_ok: bool | int = False) -> bool:
        """True if the unit (``"F STP/SC"``; ``"?"`` for either kind) may stand there;
        ``no_coast_ok`` lets a fleet stand in a province with coasts without naming one."""
        kind, loc = unit.upper().split()
        area = self.area_type(loc)
        if area == "SHUT":
            return bool(shut_ok)
        if kind == "?":
            return area is not None
        if kind == "A":
            return "/" not in loc and area in ("LAND", "COAST")
        place = loc.lower()
        needs_coast = "/" not in place and self._map.is_location(place) \
            and bool(self._map.coasts(place))
        return kind == "F" and area in ("WATER", "COAST") and (bool(no_coast_ok)
                                                              or not needs_coast)

    def abuts(self, unit_type: str, unit_loc: str, order_type: str, other_loc: str) -> int:
        """1 if a unit (``"A"``, ``"F"``, ``"?"``) at ``unit_loc`` can move (``"-"``), support
        (``"S"``) or, for an army, be convoyed (``"C"``) next to ``other_loc``; else 0."""
        if unit_type == "?":
            return self.abuts("A", unit_loc, order_type, other_loc) or \
                self.abuts("F", unit_loc, order_type, other_loc)
        unit_loc, other_loc = unit_loc.upper(), other_loc.upper()
        if not self.is_valid_unit(f"{unit_type} {unit_loc}"):
            return 0
        if "/" in other_loc:
            if order_type == "S":
                other_loc = other_loc[:3]
            elif unit_type == "A":
                return 0
        area = self.area_type(other_loc)
        if area is None or area == "SHUT":
            return 0
        the_map = self._map
        here = unit_loc.lower()
        there = other_loc.lower()
        target = province_of(there)
        if unit_type == "A":
            if order_type == "C":
                near = set(the_map.army_neighbours(here))
                for loc in (here, *the_map.coasts(here)):
                    near |= {province_of(n) for n in the_map.fleet_neighbours(loc)}
                return int(target in near)
            return int(area != "WATER" and target in the_map.army_neighbours(here))
        if area == "LAND":
            return 0
        if order_type == "S":
            return int(target in the_map.fleet_support_reach(here))
        if there == target and the_map.coasts(target):
            return 0  # a fleet moves to a coast, not to a province with several
        return int(the_map.can_move(UnitType.FLEET, here, there))

    def default_coast(self, word: list[str]) -> list[str]:
        """A fleet's move to a province with coasts (``["F", "GRE", "-", "BUL"]``) with the coast
        filled in when only one can be reached (``BUL/SC``)."""
        if len(word) == 4 and word[0] == "F" and word[2] == "-" and "/" not in word[3]:
            target = word[3].lower()
            if self._map.is_location(target) and self._map.coasts(target) \
                    and self._map.is_location(word[1].lower()):
                coasts = self._map.fleet_coasts_reachable(word[1].lower(), target)
                if len(coasts) == 1:
                    return [*word[:3], coasts[0].upper()]
        return word

    # -- the map's own lists -------------------------------------------------------------------

    def add_homes(self, power: str, homes: list[str], reinit: bool | int) -> None:
        """Change a power's home centres in this map's lists (``"-PAR"`` takes one off)."""
        if reinit:
            self.homes[power] = []
        else:
            self.homes.setdefault(power, [])
        for home in " ".join(homes).upper().split():
            remove = home.startswith("-")
            home = home.lstrip("-")
            if not home:
                continue
            if home in self.homes[power]:
                self.homes[power].remove(home)
            if not remove:
                self.homes[power].append(home)

    def drop(self, place: str) -> None:
        """Take a place off this map's lists (every coast of it too)."""
        place = place.upper()
        self.locs = [loc for loc in self.locs if not loc.upper().startswith(place)]
        self.loc_name = {name: loc for name, loc in self.loc_name.items()
                         if not loc.startswith(place)}
        self.aliases = {alias: loc for alias, loc in self.aliases.items()
                        if not loc.startswith(place)}
        for homes in self.homes.values():
            if place in homes:
                homes.remove(place)
        for units in self.units.values():
            units[:] = [unit for unit in units if unit[2:5] != place[:3]]
        self.scs = [center for center in self.scs if not center.startswith(place)]
        for centers in self.centers.values():
            centers[:] = [center for center in centers if not center.startswith(place)]
        self.loc_abut = {loc: [n for n in near if not n.upper().startswith(place)]
                         for loc, near in self.loc_abut.items()
                         if not loc.upper().startswith(place)}
        self.loc_type = {loc: kind for loc, kind in self.loc_type.items()
                         if not loc.upper().startswith(place)}

    # -- words ---------------------------------------------------------------------------------

    def norm(self, phrase: str) -> str:
        """Upper case, punctuation spaced out or dropped, keywords written short."""
        phrase = phrase.upper().replace("/", " /").replace(" / ", "")
        for token in ".:-+,":
            phrase = phrase.replace(token, " ")
        for token in "|*?!~()[]=_^":
            phrase = phrase.replace(token, f" {token} ")
        return " ".join(self.keywords.get(word, word) for word in phrase.split())

    def compact(self, phrase: str) -> list[str]:
        """A sentence in short words: ``"England: Fleet Western Mediterranean -> Tyrrhenian
        Sea. (*bounce*)"`` -> ``["F", "WES", "TYS", "|"]`` (a leading power's name is dropped;
        place names become their abbreviations, coasts join their place)."""
        if ":" in phrase:
            first, rest = phrase.split(":", 1)
            if self.norm_power(first) in self.powers:
                phrase = rest
        words = self.norm(phrase).split()
        out: list[str] = []
        while words:
            short, used = self._shorten(words)
            if short:
                out.extend(short.split())
            words = words[used:]
        return out

    def _shorten(self, words: list[str]) -> tuple[str, int]:
        """The short form of the first words of ``words`` and how many words it took."""
        first = words[0]
        if first in ("(", "["):
            closing = ")" if first == "(" else "]"
            if closing not in words:
                return first, 1
            end = words.index(closing)
            inner = words[1:end]
            if len(inner) >= 2 and inner[0] == inner[-1] == "*":  # (*bounce*): a result
                inner = inner[1:-1]
            return " ".join(self.compact(" ".join(inner))), end + 1
        for size in range(len(words), 0, -1):
            place = self.aliases.get(" ".join(words[:size]))
            if place is not None:
                break
        else:
            return first, 1
        if size < len(words) and words[size].startswith("/"):  # a coast: SPA /NC
            return place + words[size], size + 1
        return place, size

    def norm_power(self, power: str) -> str:
        """A power's name normalised, without spaces."""
        return self.norm(power).replace(" ", "")

    def vet(self, word: list[str], strict: bool | int = False) -> list[tuple[str, int]]:
        """Each word of a short order with its kind: 1 power, 2 unit, 3 location, 4 coast,
        5 order, 6 move separator, 7 other (0 undetermined); with ``strict`` a word that is no
        name of this map gets its kind negated."""
        known = set(self.aliases.values()) | set(self.keywords.values()) | set(self.locs) \
            | {loc.upper() for loc in self.locs}
        out = []
        for thing in word:
            if " " in thing:
                kind = UNDETERMINED
            elif len(thing) == 1:
                if thing in self.unit_names:
                    kind = UNIT
                elif thing.isalnum():
                    kind = ORDER
                elif thing in "-=_":
                    kind = MOVE_SEP
                else:
                    kind = OTHER
            elif "/" in thing:
                kind = COAST if thing.find("/") == 3 else POWER
            elif thing == "VIA":
                kind = ORDER
            elif len(thing) == 3:
                kind = LOCATION
            else:
                kind = POWER
            if strict and thing not in known:
                kind = -kind
            out.append((thing, kind))
        return out

    # -- phases --------------------------------------------------------------------------------

    @staticmethod
    def phase_abbr(phase: str, default: str = "?????") -> str:
        """``"SPRING 1901 MOVEMENT"`` -> ``"S1901M"`` (``FORMING``, ``COMPLETED`` unchanged)."""
        if phase in ("FORMING", "COMPLETED"):
            return phase
        parts = phase.split()
        if len(parts) != 3 or not parts[1].isdigit():
            return default
        return f"{parts[0][:1]}{int(parts[1]):04d}{parts[2][:1]}".upper()

    def phase_long(self, phase_abbr: str, default: str = "?????") -> str:
        """``"S1901M"`` -> ``"SPRING 1901 MOVEMENT"``."""
        text = phase_abbr.upper()
        if len(text) < 3 or not text[1:-1].isdigit() or text[0] not in _SEASONS \
                or text[-1] not in _TYPES:
            return default
        return f"{_SEASONS[text[0]]} {int(text[1:-1])} {_TYPES[text[-1]]}"

    def _index(self, phase: str) -> tuple[int, int] | None:
        """A long phase name's (year, place in the year), or None."""
        parts = phase.split()
        if len(parts) != 3 or (parts[0], parts[2]) not in _SEQUENCE:
            return None
        return int(parts[1]), _SEQUENCE.index((parts[0], parts[2]))

    def find_next_phase(self, phase: str, phase_type: str | None = None, skip: int = 0) -> str:
        """The long name of the phase after ``phase`` (of ``phase_type`` if given, skipping
        ``skip`` of them)."""
        index = self._index(phase)
        if index is None:
            return phase
        year, place = index
        while True:
            place += 1
            if place == len(_SEQUENCE):
                year, place = year + 1, 0
            season, kind = _SEQUENCE[place]
            if phase_type in (None, kind[0]):
                if skip == 0:
                    return f"{season} {year} {kind}"
                skip -= 1

    def find_previous_phase(self, phase: str, phase_type: str | None = None, skip: int = 0,
                            ) -> str:
        """The long name of the phase before ``phase`` (as :meth:`find_next_phase`)."""
        index = self._index(phase)
        if index is None:
            return phase
        year, place = index
        while True:
            place -= 1
            if place < 0:
                year, place = year - 1, len(_SEQUENCE) - 1
            season, kind = _SEQUENCE[place]
            if phase_type in (None, kind[0]):
                if skip == 0:
                    return f"{season} {year} {kind}"
                skip -= 1

    def compare_phases(self, phase1: str, phase2: str) -> int:
        """-1, 0 or 1 as ``phase1`` comes before, with or after ``phase2`` (short or long
        names, ``FORMING``, ``COMPLETED``; ``S1901?`` is the season's last phase)."""
        return (self._phase_key(phase1) > self._phase_key(phase2)) - \
            (self._phase_key(phase1) < self._phase_key(phase2))

    def _phase_key(self, phase: str) -> tuple[int, int, int]:
        if phase == "FORMING":
            return (0, 0, 0)
        if phase == "COMPLETED":
            return (2, 0, 0)
        if len(phase.split()) == 1 and phase.endswith("?"):
            last = [kind for season, kind in _SEQUENCE if season[0] == phase[0]][-1]
            phase = phase[:-1] + last[0]
        if len(phase.split()) == 1:
            phase = self.phase_long(phase, phase)
        index = self._index(phase)
        if index is None:
            return (1, 0, 0)
        return (1, *index)

