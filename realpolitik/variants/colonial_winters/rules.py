"""The rules of Colonial Winters (Fred C. Winter, 1979) as variant hooks.

The variant's text and our reading of it are in ``docs/colonial_winters.md`` (rule numbers as
in the source: 2, 3, 4(a)-(e), 5, 6(a)-(m), 7(a)-(j), 8, 9, 10). Each ambiguity the text leaves
is a named policy (:data:`POLICIES`, first value the default); a variant folder chooses in its
``[policies]`` table and a game may choose again.

What the variant's data gives these hooks, in ``[hooks_data]``::

    church = "rom"                        # 7(c): the neutral army a fleet and 4 armies dislodge
    mutual_support = [["pan", "col"]]     # 7(b): neutral units that support each other
    inactive = ["hal", "vic"]             # 8: provinces whose starting unit is inactive
    activate = {f19 = "F1870M"}           # 8: ... and the phase it becomes active by itself
    [[hooks_data.start_choices]]          # 8: "choice of two fleets on the inactive list"
    power = "england"
    count = 2
    units = ["hal", "vic", "..."]         # inactive candidates, the first listed the default
    poles = ["npo", "spo"]                # 9: home centres of whoever owns them
    not_seas = ["45"]                     # 6(j): water spaces that are "not seas" (the
                                          # Mississippi): coastal spaces for rule 4
    [[hooks_data.special_build]]          # 7(i): a special build country
    country = "canada"
    provinces = ["n2", "n3", "..."]       # every space of the country (seas: no foreign unit)
    centres = ["n12", "n8", "n5"]         # its special build centres
    limit = 2                             # 7(j): Canada's two builds (default 1)
    relaxed = true                        # 7(j): one build with all its centres owned and at
                                          # most one foreign unit in the country

Colonies are the ``build_sites`` of each ``[[powers]]`` entry, home centres the usual ones;
defended neutrals (7(a)) and the Azores fleet (7(d)) are ``[[neutral_units]]``.

The variant's state (kept in every position and saved in records)::

    {"sea_superiority": {"holder": "england" | None, "fleets": {power: n},
                         "tiers": {power: "a".."e"}, "strong_since": "S1870M" | None},
     "inactive": ["hal", ...],
     "start_choices": {power: {"units": [...], "count": 2}},   # 8: until the first orders
     "owned": {province: power},          # 7(i): non-centre spaces of special build countries
     "inherited": {power: [home centres]}, "inherited_from": [powers]}      # 7(g)
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from realpolitik.adjudication.explain import and_list
from realpolitik.adjudication.outcomes import Result
from realpolitik.caches import CacheSlot
from realpolitik.errors import VariantError
from realpolitik.geography import Terrain, UnitType, province_of
from realpolitik.hooks import (
    DislodgeRequirement,
    EmptyConvoys,
    Fragility,
    JsonValue,
    MovementModifiers,
    SetupEvents,
    VariantHooks,
    VariantState,
    Victory,
    annihilated_units,
)
from realpolitik.kinds import OrderKind
from realpolitik.orders import Build, Hold, Move, Order, SupportHold, Waive
from realpolitik.position import PhaseType, Season
from realpolitik.rule_notes import RuleNotes
from realpolitik.variant_rules import NEUTRAL
from realpolitik.variants.colonial_winters.kinds import BlockKind, MobiliseKind
from realpolitik.variants.colonial_winters.orders import Mobilisation, Mobilise
from realpolitik.writing import write_order, write_unit

if TYPE_CHECKING:  # pragma: no cover
    from realpolitik.adjudication.outcomes import Resolution
    from realpolitik.geography import Map
    from realpolitik.position import DislodgedUnit, Position, Unit
    from realpolitik.variant import Setup, Variant

__all__ = ["POLICIES", "ColonialWinters", "SpecialBuildCountry", "StartChoice", "country_name",
           "sea_superiority"]

POLICIES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    # 4: when sea superiority and the tiers are worked out again
    "sea_superiority_evaluation": ("every_phase", "after_adjustments"),
    # 4(b): the power with the second most fleets is in tier (b) by its rank, or only if it has
    # four fleets or more (by its count)
    "second_place": ("rank", "count"),
    # 4(e): a lone fleet at sea attacked by a power with 4+ fleets defends with a base strength
    # of 0 (its supports still count), or is dislodged whatever its supports
    "one_fleet_defense": ("base_zero", "always_dislodged"),
    # 3: "at least one-half of each type ... in home supply centres": rounded up or down
    "half_rule_rounding": ("ceil", "floor"),
    # 3: colonies one may build in: one's own colonies, or any power's colony one owns
    "colony_builds": ("own", "any_colony"),
    # 5: the armies on the board counted for the majority: all (neutral ones too) or only the
    # powers'
    "victory_armies": ("all", "powers_only"),
    # 8: an inactive unit dislodged (mobilised by the attack) retreats, or is disbanded
    "inactive_dislodged": ("retreat", "disband"),
    # 7(g): a power is eliminated when it has neither units nor centres, or no centres
    "elimination": ("no_units_no_centres", "no_centres"),
    # 7(i): four special build centres "owned" for three builds a year: owned, or qualifying
    "special_build_count": ("owned", "qualifying"),
    # 4(e), last sentence: a lone fleet moving out of a coastal space stands off an equal
    # attack except the holder's, who wins the tie; or, in a coastal space it defends normally
    # except against the holder, who dislodges it with equal strength
    "one_fleet_coastal_rule": ("holder_wins_tie", "holder_dislodges"),
    # 6(b)-(d): "an army may block movement across the point": by an order (A E49 BLOCK
    # SICILY), which is cut as a support is; or by holding in a space of the corner (or beside
    # a passage) with no other order, the block still cut by an attack
    "corner_blocking": ("order", "holding"),
    # 8: mobilising "by foregoing one build out of one's home supply centre count": only with a
    # build due this winter (which it takes); or with a home centre owned, even with no build
    # due (then nothing else is given up)
    "mobilisation_cost": ("a_build", "home_count"),
    # 4(a)(i): "fleets at each of the points where the convoy begins and ends" of a convoy
    # through empty spaces: the holder's own fleets, or any fleets ordered to convoy the army
    "empty_convoy_ends": ("own_fleets", "any_fleets"),
})

@dataclass(frozen=True, slots=True)
class SpecialBuildCountry:
    """A special build country (7(i)): its spaces, its special build centres, how many armies
    a year it may give (``limit``), and whether Canada's relaxed condition of 7(j) applies."""

    country: str
    provinces: tuple[str, ...]
    centres: tuple[str, ...]
    limit: int = 1
    relaxed: bool = False


@dataclass(frozen=True, slots=True)
class Protectorate:
    """A minor country whose units the sea-superiority power commands (7(e) India, 7(f)
    Holland and Belgium): always (``trigger = "always"``), or once a foreign unit has entered
    it (``"violation"``, unless the holder is the violator). With no such power its units are
    in civil disorder (neutral). Its units need no supply centres."""

    country: str
    provinces: tuple[str, ...]
    units: tuple[str, ...]
    """Where its units stand at the start."""
    trigger: str = "always"
    confined: bool = False
    """Its units may not leave the country (India)."""
    replace: bool = False
    """Annihilated units reappear in its empty centres each winter, up to ``max_units``."""
    max_units: int = 2
    first_dislodgement_bonus: tuple[str, ...] = ()
    """Units (by starting place) that need one support more until first dislodged."""


@dataclass(frozen=True, slots=True)
class StartChoice:
    """Rule 8's choice at the start ("and choice of two fleets on the inactive list"): of
    ``units`` (inactive at the start, in the order listed), ``power`` makes ``count`` active.
    It chooses in its first orders: a candidate given an order other than a hold (a move, a
    support, a convoy, a block, or MOBILISE to hold) is chosen, in the order given, and a
    candidate ordered beyond ``count`` is void; the first listed fill the choices not made."""

    power: str
    units: tuple[str, ...]
    count: int


_REGIONS = {"e": "Europe", "a": "Asia", "o": "Oceania", "f": "Africa and Arabia",
            "n": "North America and the Caribbean", "s": "South and Central America"}
"""The continent letters of the key's codes (``e21`` is Copenhagen, in Europe)."""


def _code_order(code: str) -> tuple[str, int]:
    """A code's place in the key: by its letter, then by its number (``e9`` before ``e10``)."""
    digits = code.lstrip("abcdefghijklmnopqrstuvwxyz")
    return code[:len(code) - len(digits)], int(digits) if digits.isdigit() else 0


_TIER_FLEET_BUILDS = {"b": 2, "c": 2, "d": 1, "e": 1}
"""4(b), 4(d): at most this many fleet builds a year (tier (a): no limit)."""


def sea_superiority(fleets: Mapping[str, int], holder: str | None, *, by_rank: bool = True
                    ) -> tuple[str | None, dict[str, str]]:
    """Who holds sea superiority and each power's tier (rule 4), from each power's fleet count
    and the holder before (``None``: nobody).

    It is *gained* with more fleets than the second and third places together, and *kept*
    with more than the second place. Tiers: (a) the holder; (b) the second place (with no
    holder, the first three places); (c) others with 4 fleets or more; (d) 3 or fewer; (e) the
    powers of (d) with exactly one. With ``by_rank`` False, a second place with 3 fleets or
    fewer is in (d)/(e) by its count rather than (b).
    """
    counts = sorted(fleets.values(), reverse=True) + [0, 0, 0]
    keeper = None
    if holder is not None and holder in fleets:
        others = max((n for p, n in fleets.items() if p != holder), default=0)
        if fleets[holder] > others:
            keeper = holder
    if keeper is None:
        top = [p for p, n in fleets.items() if n == counts[0]]
        if len(top) == 1 and counts[0] > counts[1] + counts[2]:
            keeper = top[0]
    tiers: dict[str, str] = {}
    if keeper is not None:
        rest = sorted((n for p, n in fleets.items() if p != keeper), reverse=True) + [0]
        second = {p for p, n in fleets.items() if p != keeper and n == rest[0] and n > 0}
    else:
        second = {p for p, n in fleets.items() if n > 0 and n in counts[:3]}
    for power, count in fleets.items():
        if power == keeper:
            tiers[power] = "a"
        elif power in second and (by_rank or count >= 4):
            tiers[power] = "b"
        elif count >= 4:
            tiers[power] = "c"
        else:
            tiers[power] = "e" if count == 1 else "d"
    return keeper, tiers


def _fleet_counts(position: Position) -> dict[str, int]:
    counts = {p: 0 for p in position.variant.power_ids}
    for unit in position.units.values():
        if unit.type is UnitType.FLEET and unit.power in counts:
            counts[unit.power] += 1
    for dislodged in position.dislodged:
        unit = dislodged.unit
        if unit.type is UnitType.FLEET and unit.power in counts:
            counts[unit.power] += 1
    return counts


def _evaluate(position: Position, previous: Mapping[str, Any] | None
              ) -> dict[str, JsonValue]:
    """The sea-superiority table of ``position`` (rule 4), given the table before it (None:
    none): the holder, each power's fleets and tier, and since when the holder has had more
    fleets than the second and third places together (4(a)(i))."""
    fleets = _fleet_counts(position)
    by_rank = position.variant.policies.get("second_place", "rank") == "rank"
    before = previous.get("holder") if previous else None
    holder, tiers = sea_superiority(fleets, before if isinstance(before, str) else None,
                                    by_rank=by_rank)
    strong_since: str | None = None
    if holder is not None:
        others = sorted((n for p, n in fleets.items() if p != holder), reverse=True) + [0, 0]
        if fleets[holder] > others[0] + others[1]:
            kept = previous.get("strong_since") if previous and before == holder else None
            strong_since = kept if isinstance(kept, str) else str(position.phase)
    return {"holder": holder, "fleets": dict(fleets), "tiers": dict(tiers),
            "strong_since": strong_since}


_FRESH_TABLE: CacheSlot[Position, dict[str, JsonValue]] = CacheSlot(
    "Colonial Winters: the sea-superiority table of a position made without one",
    lambda position: _evaluate(position, None))
"""One small table per position (the number of powers)."""


def _inactive_of(position: Position) -> frozenset[str]:
    inactive = position.state.get("inactive")
    if isinstance(inactive, list):
        return frozenset(p for p in inactive if isinstance(p, str))
    return frozenset()


_INACTIVE: CacheSlot[Position, frozenset[str]] = CacheSlot(
    "Colonial Winters: the provinces of inactive units", _inactive_of)
"""At most one entry per unit (asked for every order the listing checks)."""


def _protectorate_units_of(position: Position) -> Mapping[str, Protectorate]:
    hooks = position.variant.hooks
    assert isinstance(hooks, ColonialWinters)
    return MappingProxyType(hooks._protectorate_units(position))  # noqa: SLF001


_PROTECTORATE_UNITS: CacheSlot[Position, Mapping[str, Protectorate]] = CacheSlot(
    "Colonial Winters: the protectorates' units of a position", _protectorate_units_of)
"""At most one entry per protectorate unit (a handful)."""


class ColonialWinters(VariantHooks):
    """Colonial Winters: sea superiority, its tiers and their consequences, the builds of
    rule 3, army retreats, victory by sea superiority and armies, the Church, mutually
    supporting neutrals, inactive units and the Poles."""

    def __init__(self) -> None:
        self.church: str | None = None
        self.mutual_support: tuple[tuple[str, str], ...] = ()
        self.inactive: tuple[str, ...] = ()
        self.poles: tuple[str, ...] = ()
        self.special_build: tuple[SpecialBuildCountry, ...] = ()
        self.activate: dict[str, str] = {}
        self.protectorates: tuple[Protectorate, ...] = ()
        self.start_choices: tuple[StartChoice, ...] = ()
        self.not_seas: frozenset[str] = frozenset()

    # -- data and policies -------------------------------------------------------------------

    def policies(self) -> Mapping[str, tuple[str, ...]]:
        return POLICIES

    def order_kinds(self) -> tuple[OrderKind, ...]:
        # 6(b)-(d): blocking a corner or a passage; 8: mobilising an inactive unit
        return (BlockKind(), MobiliseKind())

    def read_data(self, data: Mapping[str, Any], the_map: Map) -> None:
        def province(value: object, key: str) -> str:
            if not isinstance(value, str) or value not in the_map.provinces:
                raise VariantError(f"[hooks_data] {key}: {value!r} is not a province",
                                   file="variant.toml")
            return value

        def provinces(key: str) -> tuple[str, ...]:
            values = data.get(key, [])
            if not isinstance(values, list):
                raise VariantError(f"[hooks_data] {key} must be a list of provinces",
                                   file="variant.toml")
            return tuple(province(v, key) for v in values)

        for key in data:
            if key not in ("church", "mutual_support", "inactive", "activate", "poles",
                           "special_build", "protectorate", "start_choices", "not_seas"):
                raise VariantError(f"[hooks_data] has no key {key!r}; the keys are: church, "
                                   "mutual_support, inactive, activate, poles, special_build, "
                                   "protectorate, start_choices, not_seas", file="variant.toml")
        self.church = province(data["church"], "church") if "church" in data else None
        pairs = []
        for pair in data.get("mutual_support", []):
            if not isinstance(pair, list) or len(pair) != 2:
                raise VariantError("[hooks_data] mutual_support: write pairs of provinces, "
                                   "e.g. [[\"pan\", \"col\"]]", file="variant.toml")
            a, b = province(pair[0], "mutual_support"), province(pair[1], "mutual_support")
            if b not in the_map.army_neighbours(a):
                # (the standing supports are given without the orders' check: they must hold)
                raise VariantError(f"[hooks_data] mutual_support: {a} and {b} must share a "
                                   "border armies cross", file="variant.toml")
            pairs.append((a, b))
        self.mutual_support = tuple(pairs)
        self.inactive = provinces("inactive")
        activate = data.get("activate", {})
        if not isinstance(activate, dict):
            raise VariantError("[hooks_data] activate must be a table: province = \"F1870M\"",
                               file="variant.toml")
        from realpolitik.position import Phase  # (position.py imports the hooks module)
        for where, when in activate.items():
            if province(where, "activate") not in self.inactive:
                raise VariantError(f"[hooks_data] activate: {where!r} is not in inactive",
                                   file="variant.toml")
            try:
                Phase.parse(str(when))
            except ValueError as exc:
                raise VariantError(f"[hooks_data] activate: {exc}", file="variant.toml") from exc
        self.activate = {str(k): str(v) for k, v in activate.items()}
        self.poles = provinces("poles")
        self.not_seas = frozenset(provinces("not_seas"))
        for space in self.not_seas:
            if the_map.provinces[space].terrain is not Terrain.SEA:
                raise VariantError(f"[hooks_data] not_seas: {space!r} is not a water space",
                                   file="variant.toml")
        choices = []
        for entry in data.get("start_choices", []):
            if not isinstance(entry, dict) or set(entry) - {"power", "units", "count"}:
                raise VariantError("[[hooks_data.start_choices]] tables have the keys power, "
                                   "units and count", file="variant.toml")
            candidates = tuple(province(v, "start_choices") for v in entry.get("units", []))
            count = entry.get("count", 1)
            if any(c not in self.inactive for c in candidates) or not isinstance(count, int) \
                    or not 0 < count <= len(candidates):
                raise VariantError("[[hooks_data.start_choices]] units must be inactive, and "
                                   "count between 1 and their number", file="variant.toml")
            choices.append(StartChoice(str(entry.get("power", "")), candidates, count))
        self.start_choices = tuple(choices)
        countries = []
        for entry in data.get("special_build", []):
            if not isinstance(entry, dict):
                raise VariantError("[hooks_data] special_build must be written as "
                                   "[[hooks_data.special_build]] tables", file="variant.toml")
            for key in entry:
                if key not in ("country", "provinces", "centres", "limit", "relaxed"):
                    raise VariantError(f"[[hooks_data.special_build]] has no key {key!r}",
                                       file="variant.toml")
            spaces = tuple(province(v, "special_build") for v in entry.get("provinces", []))
            centres = tuple(province(v, "special_build") for v in entry.get("centres", []))
            for centre in centres:
                if centre not in spaces or not the_map.provinces[centre].is_supply_center:
                    raise VariantError(f"[[hooks_data.special_build]] {entry.get('country')}: "
                                       f"{centre!r} must be a supply centre of the country",
                                       file="variant.toml")
            countries.append(SpecialBuildCountry(str(entry.get("country", "")), spaces,
                                                 centres, int(entry.get("limit", 1)),
                                                 bool(entry.get("relaxed", False))))
        self.special_build = tuple(countries)
        protectorates = []
        for entry in data.get("protectorate", []):
            if not isinstance(entry, dict):
                raise VariantError("[hooks_data] protectorate must be written as "
                                   "[[hooks_data.protectorate]] tables", file="variant.toml")
            for key in entry:
                if key not in ("country", "provinces", "units", "trigger", "confined",
                               "replace", "max_units", "first_dislodgement_bonus"):
                    raise VariantError(f"[[hooks_data.protectorate]] has no key {key!r}",
                                       file="variant.toml")
            trigger = str(entry.get("trigger", "always"))
            if trigger not in ("always", "violation"):
                raise VariantError("[[hooks_data.protectorate]] trigger must be always or "
                                   "violation", file="variant.toml")
            protectorates.append(Protectorate(
                str(entry.get("country", "")),
                tuple(province(v, "protectorate") for v in entry.get("provinces", [])),
                tuple(province(v, "protectorate") for v in entry.get("units", [])),
                trigger, bool(entry.get("confined", False)), bool(entry.get("replace", False)),
                int(entry.get("max_units", 2)),
                tuple(province(v, "protectorate")
                      for v in entry.get("first_dislodgement_bonus", []))))
        self.protectorates = tuple(protectorates)
        for pole in self.poles:
            if not the_map.provinces[pole].is_supply_center:
                raise VariantError(f"[hooks_data] poles: {pole!r} is not a supply centre",
                                   file="variant.toml")

    # -- the state: sea superiority and inactive units ---------------------------------------

    def initial_state(self, position: Position) -> VariantState:
        """The state of ``position`` as a game that reached it would have it, as far as the
        board tells: at the start, the start's state; in a later phase (a case of
        ``realpolitik adjudicate``), a unit is inactive only if it is the very unit that
        started inactive there, still in place, and its date (Casablanca: Fall 1870) has not
        come; a protectorate's unit is the one that started there, under no power or under the
        power that commands it."""
        from realpolitik.position import Phase  # (position.py imports the hooks module)
        variant = position.variant
        units = position.units
        started = {province_of(s.location): (s.power, s.type) for s in variant.start_units}
        started.update((province_of(n.location), (NEUTRAL, n.type))
                       for n in variant.rules.neutral_units)

        def unmoved(where: str, *owners: str) -> bool:
            unit = units.get(where)
            first = started.get(where)
            return unit is not None and first is not None and unit.type is first[1] \
                and unit.power in (first[0], *owners)

        inactive: list[JsonValue] = [
            p for p in self.inactive if unmoved(p)
            and not (p in self.activate and Phase.parse(self.activate[p]) <= position.phase)]
        choices: dict[str, JsonValue] = {}
        if str(position.phase) == variant.start_phase:
            for choice in self.start_choices:
                choices[choice.power] = {"units": [u for u in choice.units if u in inactive],
                                         "count": choice.count}
        table = _evaluate(position, None)
        holder = table.get("holder")
        commander = (holder,) if isinstance(holder, str) else ()
        protectorates: dict[str, JsonValue] = {}
        for country in self.protectorates:
            kept = [u for u in country.units if unmoved(u, *commander)]
            protectorates[country.country] = {
                "units": list[JsonValue](kept),
                # a protectorate of 7(f) whose units serve a power was violated before
                "violated": country.trigger == "violation"
                and any(units[u].power != NEUTRAL for u in kept),
                "barred": None,
                "bonus": [u for u in country.first_dislodgement_bonus if u in kept],
                "captured": []}
        return {"sea_superiority": table, "inactive": inactive,
                "start_choices": choices,
                "owned": self._owned(position, position.units, {}),
                "inherited": {}, "inherited_from": [],
                "protectorates": protectorates}

    def next_state(self, before: Position, resolution: Resolution,
                   after: Position) -> VariantState:
        state = before.state or self.initial_state(before)
        previous = state.get("sea_superiority")
        assert isinstance(previous, dict)
        listed = state.get("inactive")
        inactive: list[JsonValue] = [p for p in listed if isinstance(p, str)] \
            if isinstance(listed, list) else []
        if inactive:
            attacked = set(_attacks(before, resolution))
            attacked |= _mobilised(before, resolution)  # mobilised in a winter
            attacked |= set(self._choices(before, resolution))  # the start choices (rule 8)
            # rule 8: a unit is mobilised by an order, by an attack, or when its time comes;
            # one that left the board is gone
            from realpolitik.position import Phase
            inactive = [p for p in inactive if isinstance(p, str) and p not in attacked
                        and after.units.get(p) == before.units.get(p)
                        and not (p in self.activate
                                 and Phase.parse(self.activate[p]) <= after.phase)]
        every_phase = after.variant.policies.get("sea_superiority_evaluation") == "every_phase"
        if every_phase or before.phase.type is PhaseType.ADJUSTMENTS:
            table = _evaluate(after, previous)
        else:
            table = dict(previous)
        owned_before = state.get("owned")
        owned = dict(owned_before) if isinstance(owned_before, dict) else {}
        inherited_before = state.get("inherited")
        inherited: dict[str, JsonValue] = dict(inherited_before) \
            if isinstance(inherited_before, dict) else {}
        heirs_before = state.get("inherited_from")
        inherited_from: list[JsonValue] = list(heirs_before) \
            if isinstance(heirs_before, list) else []
        if before.phase.season is Season.FALL and after.phase.season is not Season.FALL:
            # a Fall turn is over: spaces change hands as centres do
            owned = self._owned(after, after.units, owned)
            self._inherit(after, inherited, inherited_from)
        protectorates = self._follow_protectorates(before, resolution, after, state)
        return {"sea_superiority": table, "inactive": inactive, "start_choices": {},
                "owned": owned, "inherited": inherited, "inherited_from": inherited_from,
                "protectorates": protectorates}

    # -- the start choices (rule 8) -----------------------------------------------------------

    def pending_choice(self, position: Position, power: str) -> tuple[list[str], int] | None:
        """The units among which ``power`` still chooses its active ones at the start (still
        inactive, still there) and how many it chooses; None once chosen (after its first
        movement phase) or with no choice."""
        if position.phase.type is not PhaseType.MOVEMENT:
            return None
        table = position.state.get("start_choices")
        entry = table.get(power) if isinstance(table, dict) else None
        if not isinstance(entry, dict):
            return None
        inactive = self._inactive(position)
        listed = entry.get("units")
        units = [str(u) for u in listed if u in inactive] if isinstance(listed, list) else []
        count = entry.get("count")
        return (units, count) if units and isinstance(count, int) else None

    def _choices(self, before: Position, resolution: Resolution) -> dict[str, bool]:
        """The units chosen at the start in ``before``'s orders: each power's candidates given
        an order other than a hold (in the order given), then the first listed, up to its
        count; each with True if its order chose it, False if it was taken by default."""
        out: dict[str, bool] = {}
        for power in before.variant.power_ids:
            pending = self.pending_choice(before, power)
            if pending is None:
                continue
            candidates, count = pending
            chosen: list[str] = []
            for result in resolution.results:
                where = province_of(result.order.location) \
                    if not isinstance(result.order, Waive) else ""
                if where in candidates and where not in chosen and result.power == power \
                        and not isinstance(result.order, Hold) \
                        and result.result is not Result.VOID:
                    chosen.append(where)
            ordered = len(chosen)
            chosen += [c for c in candidates if c not in chosen]
            out.update((c, i < ordered) for i, c in enumerate(chosen[:count]))
        return out

    # -- what the record says (rules 7(a), 8) --------------------------------------------------

    def phase_notes(self, before: Position, resolution: Resolution,
                    after: Position) -> tuple[str, ...]:
        """Each unit annihilated when dislodged, with the rule that removes it (7(a): a
        neutral; 8: an inactive unit under the policy ``inactive_dislodged = disband``), and
        each unit that became active, with what brought it into play (rule 8)."""
        notes = []
        gone = set()
        for unit, attack in annihilated_units(before, resolution):
            rule = "rule 7(a)" if unit.power == NEUTRAL else "rule 8: an inactive unit " \
                "dislodged is disbanded, by the policy inactive_dislodged = disband"
            owner = "neutral" if unit.power == NEUTRAL else before.variant.power_name(unit.power)
            notes.append(f"{write_unit(unit, before.variant)} ({owner}), dislodged by {attack}, "
                         f"is annihilated ({rule})")
            gone.add(unit.province)
        notes.extend(self._activation_notes(before, resolution, after, gone))
        return tuple(notes)

    def _activation_notes(self, before: Position, resolution: Resolution, after: Position,
                          gone: set[str]) -> list[str]:
        """A note for each unit of ``before`` that is no longer inactive in ``after`` because
        something brought it into play (not one that merely left the board, nor one ``gone``,
        annihilated: its own note says so)."""
        woken = self._inactive(before) - self._inactive(after) - gone
        if not woken:
            return []
        from realpolitik.position import Phase  # (position.py imports the hooks module)
        choices = self._choices(before, resolution)
        mobilised = _mobilised(before, resolution)
        attacks = _attacks(before, resolution)
        rank = {p: i for i, p in enumerate(before.variant.power_ids)}
        notes = []
        for where in sorted(woken, key=lambda p: (rank.get(before.units[p].power, -1), p)):
            unit = before.units[where]
            name = before.variant.power_name(unit.power)
            if where in choices and choices[where]:
                why = f"is active: {name} chose it in its first orders"
            elif where in choices:
                pending = self.pending_choice(before, unit.power)
                count = pending[1] if pending else 1
                whose = before.variant.power_possessive(unit.power)
                why = (f"is active, taken by default: {whose} first orders made fewer than "
                       f"its {count} start choice{'s' if count > 1 else ''}, and it is the first "
                       f"candidate listed")
            elif where in mobilised:
                why = "is mobilised"
            elif where in attacks:
                why = f"is mobilised by the attack of {attacks[where]}"
            elif where in self.activate and Phase.parse(self.activate[where]) <= after.phase:
                when = Phase.parse(self.activate[where]).long_name
                why = f"becomes active: the rules bring it into play in {when}"
            else:
                continue  # it left the board (removed in a winter) without coming into play
            notes.append(f"{write_unit(unit, before.variant)} ({name}) {why} (rule 8)")
        return notes

    def void_orders(self, position: Position, orders: Sequence[Order]) -> dict[int, str]:
        # rule 8: "choice of two fleets on the inactive list": more candidates ordered than
        # the power chooses are void (the first in the order given are its choice)
        voids: dict[int, str] = {}
        pendings = {p: self.pending_choice(position, p) for p in position.variant.power_ids}
        taken: dict[str, int] = {}
        for index, order in enumerate(orders):
            if isinstance(order, Hold | Waive):
                continue
            unit = position.units.get(province_of(order.location))
            pending = pendings.get(unit.power) if unit is not None else None
            if unit is None or pending is None or unit.province not in pending[0]:
                continue
            taken[unit.power] = taken.get(unit.power, 0) + 1
            if taken[unit.power] > pending[1]:
                name = position.variant.power(unit.power).name
                voids[index] = (f"{name} chooses {pending[1]} of its inactive units to be active "
                                f"at the start, and ordered more (rule 8): this one stays "
                                f"inactive")
        return voids

    # -- protectorates (7(e), 7(f)) -----------------------------------------------------------

    def _follow_protectorates(self, before: Position, resolution: Resolution, after: Position,
                              state: Mapping[str, Any]) -> dict[str, JsonValue]:
        """Where each protectorate's units are after the phase (they may move, retreat or be
        lost), which lost the bonus of 7(f), whether a foreign unit entered the country, and
        which of its centres a power captured (7(e): those are not the controller's)."""
        from realpolitik.orders import Retreat
        previous = state.get("protectorates")
        previous = previous if isinstance(previous, dict) else {}
        moved: dict[str, str] = {}
        for result in resolution.results:
            order = result.order
            if isinstance(order, Move | Retreat) and result.succeeded:
                moved[province_of(order.location)] = province_of(order.destination)
        holder = self.holder(after)
        fall_over = before.phase.season is Season.FALL and after.phase.season is not Season.FALL
        out: dict[str, JsonValue] = {}
        for country in self.protectorates:
            was = previous.get(country.country) or {}
            units: list[JsonValue] = []
            bonus: list[JsonValue] = []
            mine = set()
            for where in was.get("units") or ():
                new = self._followed(str(where), before, after, moved)
                if new is None:
                    continue  # annihilated, disbanded or removed: gone (India's reappear)
                units.append(new)
                mine.add(new)
                if where in (was.get("bonus") or ()) and not any(
                        d.unit.province == new for d in after.dislodged):
                    bonus.append(new)
            violated = bool(was.get("violated"))
            barred = was.get("barred")
            if country.trigger == "violation" and not violated:
                intruders = sorted({u.power for p, u in after.units.items()
                                    if p in country.provinces and p not in mine
                                    and u.power != NEUTRAL})
                if intruders:
                    violated = True
                    barred = holder if holder in intruders else None
            out[country.country] = {"units": units, "violated": violated, "barred": barred,
                                    "bonus": bonus,
                                    "captured": self._captured(country, was, mine, before,
                                                               after, fall_over)}
        return out

    @staticmethod
    def _captured(country: Protectorate, was: Mapping[str, Any], units: set[str],
                  before: Position, after: Position, fall_over: bool) -> list[JsonValue]:
        """The country's centres that a power holds by capture: taken by its own unit (not
        one of the country's) at the end of a Fall turn, and not lost since."""
        kept = set(was.get("captured") or ())
        captured: list[JsonValue] = []
        for centre in country.provinces:
            owner = after.centers.get(centre)
            if owner is None or owner == NEUTRAL:
                continue
            unit = after.units.get(centre)
            taken = fall_over and centre not in units and unit is not None \
                and unit.power == owner
            if taken or (centre in kept and before.centers.get(centre) == owner):
                captured.append(centre)
        return captured

    @staticmethod
    def _followed(where: str, before: Position, after: Position, moved: Mapping[str, str]
                  ) -> str | None:
        """Where the unit that was at ``where`` in ``before`` is in ``after`` (None: gone)."""
        # (position.py imports the hooks module)
        from realpolitik.position import PhaseType
        kind = before.phase.type
        if kind is PhaseType.RETREATS and any(d.unit.province == where
                                               for d in before.dislodged):
            return moved.get(where)  # retreated, or disbanded
        unit = before.units.get(where)
        if unit is None:
            return None
        if kind is PhaseType.MOVEMENT:
            if where in moved:
                return moved[where]
            if any(d.unit == unit for d in after.dislodged):
                return where  # dislodged: it retreats next
        return where if after.units.get(where) == unit else None

    def controller(self, position: Position, country: Protectorate) -> str | None:
        """Who commands the protectorate's units now (None: nobody, civil disorder)."""
        holder = self.holder(position)
        if holder is None or country.trigger == "always":
            return holder
        info = self._protectorate(position, country)
        if not info.get("violated") or info.get("barred") == holder:
            return None
        return holder

    def _protectorate(self, position: Position, country: Protectorate) -> Mapping[str, Any]:
        table = position.state.get("protectorates")
        info = table.get(country.country) if isinstance(table, dict) else None
        return info if isinstance(info, dict) else {}

    def protectorate_units(self, position: Position) -> Mapping[str, Protectorate]:
        """Province -> the protectorate whose unit stands there (kept per position: the
        listing asks for every move it makes)."""
        return _PROTECTORATE_UNITS(position) if self.protectorates else {}

    def _protectorate_units(self, position: Position) -> dict[str, Protectorate]:
        out: dict[str, Protectorate] = {}
        for country in self.protectorates:
            for where in self._protectorate(position, country).get("units") or ():
                out[str(where)] = country
        return out

    def setup_events(self, variant: Variant, setup: Setup, before: Position, after: Position,
                     rng: random.Random, coin_toss_winner: int | None) -> SetupEvents | None:
        events = super().setup_events(variant, setup, before, after, rng, coin_toss_winner)
        if not self.protectorates:
            return events
        position = events.position if events is not None else after
        # (position.py imports the hooks module)
        from realpolitik.position import PhaseType, Unit
        units = dict(position.units)
        centers = dict(position.centers)
        state = dict(position.state)
        kept = state.get("protectorates")
        table: dict[str, JsonValue] = dict(kept) if isinstance(kept, dict) else {}
        notes: list[str] = []
        switched: list[Protectorate] = []
        for country in self.protectorates:
            rule = "rule 7(e)" if country.trigger == "always" else "rule 7(f)"
            land = country_name(country.country)
            owner = self.controller(position, country) or NEUTRAL
            held = table.get(country.country)
            info: dict[str, JsonValue] = dict(held) if isinstance(held, dict) else {}
            listed = info.get("units")
            where_list = [str(w) for w in listed] if isinstance(listed, list) else []
            if country.replace and before.phase.type is PhaseType.ADJUSTMENTS:
                # 7(e): annihilated units reappear in the country's empty centres
                centres = [c for c in country.provinces if variant.map.provinces[c]
                           .is_supply_center and c not in units]
                while len(where_list) < country.max_units and centres:
                    place = centres.pop(0)
                    units[place] = Unit(owner, UnitType.ARMY, place)
                    where_list.append(place)
                    notes.append(f"an army of {land} reappears in "
                                 f"{variant.map.name(place)} ({rule})")
            waiting = {d.unit.province for d in position.dislodged}
            handed: list[Unit] = []
            for where in where_list:
                unit = units.get(where)
                if unit is not None and unit.power != owner and where not in waiting:
                    units[where] = Unit(owner, unit.type, unit.location)
                    handed.append(unit)
            if handed:
                switched.append(country)
                notes.append(self._hands_note(position, country, owner, handed, where_list))
            info["units"] = list[JsonValue](where_list)
            table[country.country] = info
            if owner != NEUTRAL:
                # 7(e): the controller uses the country's centres as its own, but for those
                # another power captured
                captured = info.get("captured")
                taken = set(captured) if isinstance(captured, list) else set()
                for centre in country.provinces:
                    if variant.map.provinces[centre].is_supply_center \
                            and centre not in taken and centers.get(centre) != owner:
                        centers[centre] = owner
                        notes.append(f"{variant.map.name(centre)} is "
                                     f"{variant.power_possessive(owner)} with {land} ({rule})")
        if any(c.trigger == "violation" for c in switched):
            notes.extend(self._neutral_notes(position, switched))
        if units == dict(position.units) and centers == dict(position.centers):
            return events
        state["protectorates"] = table
        changed = position.replace(units=units, centers=centers)
        previous = before.state.get("sea_superiority") if before.state else None
        if variant.policies.get("sea_superiority_evaluation") == "every_phase" \
                or before.phase.type is PhaseType.ADJUSTMENTS:
            # the fleets that changed hands count at once for their new owner
            state["sea_superiority"] = _evaluate(changed, previous if isinstance(previous, dict)
                                                 else None)
        changed = changed.replace(state=state)
        if events is None:
            return SetupEvents(changed, coin_toss_winner, notes=tuple(notes))
        return SetupEvents(changed, events.coin_toss_winner, events.joined,
                           events.notes + tuple(notes))

    def _hands_note(self, position: Position, country: Protectorate, owner: str,
                    handed: Sequence[Unit], where_list: Sequence[str]) -> str:
        """The note that a protectorate's units changed hands, and why (7(e), 7(f))."""
        rule = "rule 7(e)" if country.trigger == "always" else "rule 7(f)"
        land = country_name(country.country)
        units = and_list([str(u) for u in handed])
        served = f"{land}'s {units}"
        if owner == NEUTRAL:
            info = self._protectorate(position, country)
            holder = self.holder(position)
            if holder is not None and info.get("barred") == holder:
                name = position.variant.power_name(holder)
                return (f"{served} stay in civil disorder: {name}, which holds sea "
                        f"superiority, entered {land} itself ({rule})")
            return f"{served} are in civil disorder: nobody holds sea superiority ({rule})"
        name = position.variant.power_name(owner)
        if country.trigger == "always":
            return f"{served} now serve {name}, which holds sea superiority ({rule})"
        intruders = sorted({f"{position.variant.power_possessive(u.power)} {u}"
                            for p, u in position.units.items()
                            if p in country.provinces and p not in where_list
                            and u.power not in (NEUTRAL, owner)})
        entered = f" ({and_list(intruders)})" if intruders else ""
        return (f"{served} now serve {name}, which holds sea superiority: a foreign unit"
                f"{entered} entered {land} ({rule})")

    def _neutral_notes(self, position: Position, switched: Sequence[Protectorate]
                       ) -> list[str]:
        """Why each other country of 7(f) stays neutral while one changed hands."""
        notes = []
        holder = self.holder(position)
        for country in self.protectorates:
            if country.trigger != "violation" or country in switched:
                continue
            land = country_name(country.country)
            info = self._protectorate(position, country)
            if not info.get("violated"):
                notes.append(f"{land} stays neutral: no foreign unit has entered it "
                             f"(rule 7(f))")
            elif holder is not None and info.get("barred") == holder:
                notes.append(f"{land} stays neutral: "
                             f"{position.variant.power_name(holder)}, which holds sea "
                             f"superiority, entered it itself (rule 7(f))")
        return notes

    def _owned(self, position: Position, units: Mapping[str, Unit],
               owned: Mapping[str, JsonValue]) -> dict[str, JsonValue]:
        """Who owns the spaces of the special build countries that are not supply centres
        (7(i): "all the provinces ... must be owned"): the power whose unit stands there at
        the end of a Fall turn, as for a centre; a vacant space keeps its owner."""
        out = dict(owned)
        terrain = position.variant.map.provinces
        for country in self.special_build:
            for space in country.provinces:
                if terrain[space].is_supply_center or terrain[space].terrain is Terrain.SEA:
                    continue
                unit = units.get(space)
                if unit is not None and unit.power != NEUTRAL:
                    out[space] = unit.power
        return out

    def _inherit(self, position: Position, inherited: dict[str, JsonValue],
                 inherited_from: list[JsonValue]) -> None:
        """7(g): a power that occupies with armies every home centre of an eliminated power
        and owns all its colonies takes its home centres as its own (the first one only)."""
        variant = position.variant
        by_units = variant.policies.get("elimination") == "no_units_no_centres"
        for power in variant.power_ids:
            if power in inherited_from:
                continue
            if position.centers_of(power) or (by_units and position.units_of(power)):
                continue
            homes = variant.home_centers(power)
            occupiers = {position.units[h].power if h in position.units
                         and position.units[h].type is UnitType.ARMY else None for h in homes}
            heir = next(iter(occupiers)) if len(occupiers) == 1 else None
            if heir is None or heir in (NEUTRAL, power) or not homes:
                continue
            colonies = variant.rules.of_power(power).build_sites
            if any(position.centers.get(c) != heir for c in colonies):
                continue
            held = inherited.get(heir)
            inherited[heir] = [*(held if isinstance(held, list) else []), *homes]
            inherited_from.append(power)

    def public_state(self, position: Position) -> dict[str, JsonValue]:
        table = self._table(position)
        shown: dict[str, JsonValue] = {"sea_superiority": {"holder": table.get("holder"),
                                                           "fleets": table.get("fleets"),
                                                           "tiers": table.get("tiers")}}
        if self.protectorates:
            # 7(e), 7(f): whose units stand where, so that they are not taken for the
            # commanding power's own
            shown["protectorates"] = {
                country_name(c.country): {
                    "controller": self.controller(position, c),
                    "units": [p.upper() for p in self._protectorate(position, c).get("units")
                              or () if p in position.units]}
                for c in self.protectorates}
        shown.update(self._rule_state(position))
        return shown

    def _rule_state(self, position: Position) -> dict[str, JsonValue]:
        """What a player needs to see before ordering (the page shows it): the inactive
        units (rule 8), each power's start choice still to make (rule 8), and what mobilising
        costs and brings this winter (rule 8); empty entries are left out."""
        out: dict[str, JsonValue] = {}
        inactive = sorted(self._inactive(position) & position.units.keys())
        if inactive:
            out["inactive"] = list(inactive)
        choices: dict[str, JsonValue] = {}
        for power in position.variant.power_ids:
            pending = self.pending_choice(position, power) if self.start_choices else None
            if pending is not None:
                choices[power] = {"units": list(pending[0]), "count": pending[1]}
        if choices:
            out["start_choices"] = choices
        if inactive and position.phase.type is PhaseType.ADJUSTMENTS:
            costs: dict[str, JsonValue] = {}
            for power in sorted({position.units[p].power for p in inactive}):
                offer = self.mobilisation(position, power)
                if offer is not None:
                    costs[power] = {"units": [u for u in sorted(offer.units)],
                                    "per_build": offer.per_build, "reason": offer.reason}
            out["mobilisation"] = costs
        return out

    def rule_notes(self, position: Position, power: str | None) -> RuleNotes:
        # rules 4, 7(e), 7(f), 8 in words (the module imports this one)
        from realpolitik.variants.colonial_winters.notes import rule_notes

        return rule_notes(self, position, power)

    def regions(self, variant: Variant) -> Mapping[str, tuple[str, ...]]:
        # the key's codes: a continent letter and a number; the seas and polar areas are
        # plain numbers (docs/colonial_winters.md)
        groups: dict[str, list[str]] = {name: [] for name in _REGIONS.values()}
        for province in variant.map.provinces:
            name = _REGIONS.get(province[0], "Seas and polar areas")
            groups.setdefault(name, []).append(province)
        return {name: tuple(sorted(ids, key=_code_order)) for name, ids in groups.items() if ids}

    def inactive_units(self, position: Position) -> frozenset[str]:
        # rule 8: the units on the inactive list, until mobilised, attacked or their date
        return self._inactive(position)

    def _table(self, position: Position) -> Mapping[str, Any]:
        """The sea-superiority table in force in ``position`` (worked out if the position was
        made without the variant's state, as a test's may be)."""
        table = position.state.get("sea_superiority")
        if isinstance(table, dict):
            return table
        return _FRESH_TABLE(position)

    def holder(self, position: Position) -> str | None:
        """The power with sea superiority, if any."""
        holder = self._table(position).get("holder")
        return holder if isinstance(holder, str) else None

    def fleets(self, position: Position) -> Mapping[str, int]:
        """Each power's fleets as the sea-superiority table counts them (rule 4)."""
        fleets = self._table(position).get("fleets") or {}
        return {str(p): int(n) for p, n in fleets.items()}

    def tier(self, position: Position, power: str) -> str:
        """The tier of ``power`` (rule 4): ``"a"`` to ``"e"``."""
        tiers = self._table(position).get("tiers") or {}
        return str(tiers.get(power, "d"))

    def terrain(self, position: Position, province: str) -> Terrain:
        """The terrain of ``province`` for the rules of sea superiority: a water space that is
        "not seas" (6(j): the Mississippi) is a coastal space, so the holder's fleet there gets
        no extra support (4(a)(ii)), a lone fleet may enter it (4(e)), and a dislodged fleet
        below the second place may retreat there (4(c))."""
        if province in self.not_seas:
            return Terrain.COAST
        return position.variant.map.provinces[province].terrain

    def _inactive(self, position: Position) -> frozenset[str]:
        return _INACTIVE(position)

    # -- orders -----------------------------------------------------------------------------

    def order_veto(self, position: Position, unit: Unit, order: Order) -> str | None:
        names = position.variant.map
        # (asked for every order the listing makes: the cheap tests first)
        if unit.province in self._inactive(position) and not (
                self.start_choices
                and (pending := self.pending_choice(position, unit.power)) is not None
                and unit.province in pending[0]):
            return (f"the {_kind(unit)} in {names.name(unit.province)} is inactive (in civil "
                    f"disorder) until it is mobilised or attacked: it can only hold (rule 8)")
        if isinstance(order, Move) and self.protectorates:
            country = self.protectorate_units(position).get(unit.province)
            if country is not None and country.confined \
                    and province_of(order.destination) not in country.provinces:
                return (f"the armies of {country_name(country.country)} may not leave it "
                        f"(rule 7(e))")
        if isinstance(order, Move) and unit.type is UnitType.FLEET \
                and self.tier(position, unit.power) == "e":
            sea = province_of(order.destination)
            if self.terrain(position, sea) is Terrain.SEA and not any(
                    position.centers.get(province_of(n)) == unit.power
                    for n in names.fleet_neighbours(order.destination)):
                return (f"a power with only one fleet may move it to a sea space only next to "
                        f"one of its own supply centres, and {names.name(sea)} is not "
                        f"(rule 4(e))")
        return None

    def standing_orders(self, position: Position) -> tuple[Order, ...]:
        out: list[Order] = []
        for a, b in self.mutual_support:
            first, second = position.units.get(a), position.units.get(b)
            if first is None or second is None or first.power != NEUTRAL \
                    or second.power != NEUTRAL:
                continue
            out.append(SupportHold(first.type, first.location, second.location, second.type,
                                   power=NEUTRAL))
            out.append(SupportHold(second.type, second.location, first.location, first.type,
                                   power=NEUTRAL))
        return tuple(out)

    # -- movement ---------------------------------------------------------------------------

    def defence_bonuses(self, position: Position) -> Mapping[str, int]:
        bonuses = dict(super().defence_bonuses(position))
        for country in self.protectorates:  # 7(f): until first dislodged, once reverted
            for where in self._protectorate(position, country).get("bonus") or ():
                unit = position.units.get(str(where))
                if unit is not None and unit.power != NEUTRAL:
                    bonuses[str(where)] = bonuses.get(str(where), 0) + 1
        holder = self.holder(position)
        if holder is not None:
            fleets = [u for u in position.units.values() if u.type is UnitType.FLEET]
            mine = [u for u in fleets if u.power == holder]
            if 2 * len(mine) > len(fleets):  # 4(a)(ii): a majority of the fleets on the board
                for unit in mine:
                    if self.terrain(position, unit.province) is Terrain.SEA:
                        bonuses[unit.province] = bonuses.get(unit.province, 0) + 1
        return bonuses

    def movement_modifiers(self, position: Position) -> MovementModifiers:
        table = self._table(position)
        tiers: Mapping[str, str] = table.get("tiers") or {}
        fleets: Mapping[str, int] = table.get("fleets") or {}
        fragile = {p: Fragility.ALWAYS if t == "e" else Fragility.SHARED
                   for p, t in tiers.items() if t != "a"}
        against: dict[str, dict[str, int]] = {}
        strong = [p for p, n in fleets.items() if n >= 4]
        if strong:
            weaker = -1 if position.variant.policies.get("one_fleet_defense") == "base_zero" \
                else -1000
            for unit in position.units.values():
                if unit.type is UnitType.FLEET and tiers.get(unit.power) == "e" \
                        and self.terrain(position, unit.province) is Terrain.SEA:
                    against[unit.province] = {p: weaker for p in strong if p != unit.power}
        # 4(e), last sentence: the lone fleet in a coastal space and the holder
        holder = self.holder(position)
        lowered: dict[str, dict[str, int]] = {}
        if holder is not None:
            reading = position.variant.policies.get("one_fleet_coastal_rule", "holder_wins_tie")
            for unit in position.units.values():
                if unit.type is UnitType.FLEET and tiers.get(unit.power) == "e" \
                        and unit.power != holder \
                        and self.terrain(position, unit.province) is Terrain.COAST:
                    if reading == "holder_wins_tie":
                        lowered[unit.province] = {holder: -1}
                    else:
                        against.setdefault(unit.province, {})[holder] = -1
        requirements: dict[str, DislodgeRequirement] = {}
        church = self.church
        if church is not None:
            garrison = position.units.get(church)
            if garrison is not None and garrison.power == NEUTRAL:
                name = position.variant.map.name(church)
                requirements[church] = DislodgeRequirement(
                    UnitType.FLEET, 4, UnitType.ARMY,
                    f"{name}'s army can be dislodged only by a fleet supported by four armies "
                    f"(rule 7(c))")
        holding = position.variant.policies.get("corner_blocking") == "holding"
        return MovementModifiers(MappingProxyType(against), MappingProxyType(requirements),
                                 MappingProxyType(fragile), MappingProxyType(lowered),
                                 holding_blocks=holding,
                                 empty_convoys=self.empty_convoys(position))

    def strong_for_a_year(self, position: Position) -> bool:
        """4(a)(i): True if the holder has had more fleets than the second and third places
        together at every evaluation since the same season a year before (or earlier): the
        table's ``strong_since`` is a year old or more."""
        since = self._table(position).get("strong_since")
        if not isinstance(since, str) or self.holder(position) is None:
            return False
        from realpolitik.position import Phase  # (position.py imports the hooks module)
        began = Phase.parse(since)
        return Phase(began.season, began.year + 1, began.type) <= position.phase

    def empty_convoys(self, position: Position) -> EmptyConvoys | None:
        # 4(a)(i): after a full year of strong superiority, the holder's own armies may be
        # convoyed through empty seas between fleets at both ends
        holder = self.holder(position)
        if holder is None or not self.strong_for_a_year(position):
            return None
        provinces = position.variant.map.provinces
        empty = frozenset(p for p, province in provinces.items()
                          if province.terrain is Terrain.SEA and p not in self.not_seas
                          and p not in position.units)
        own = position.variant.policies.get("empty_convoy_ends", "own_fleets") == "own_fleets"
        return EmptyConvoys(holder, empty, own, "rule 4(a)(i)")

    def annihilated_when_dislodged(self, position: Position, unit: Unit) -> bool:
        if unit.power == NEUTRAL:
            return True
        return (unit.province in self._inactive(position)
                and position.variant.policies.get("inactive_dislodged") == "disband")

    # -- retreats ----------------------------------------------------------------------------

    def may_disband(self, position: Position, dislodged: DislodgedUnit,
                    options: Sequence[str]) -> bool:
        # rule 2: armies must retreat when able
        return dislodged.unit.type is UnitType.FLEET or not options

    def retreat_allowed(self, position: Position, dislodged: DislodgedUnit,
                        location: str) -> bool:
        # 4(c): below the second place, a dislodged fleet retreats only to a coastal province
        unit = dislodged.unit
        if self.protectorates:
            country = self.protectorate_units(position).get(unit.province)
            if country is not None and country.confined \
                    and province_of(location) not in country.provinces:
                return False  # 7(e): Indian armies retreat only within India
        if unit.type is not UnitType.FLEET or self.tier(position, unit.power) not in "cde":
            return True
        return self.terrain(position, province_of(location)) is Terrain.COAST

    def unordered_retreat(self, position: Position, dislodged: DislodgedUnit,
                          options: Sequence[str], rng: random.Random) -> str | None:
        # rule 2: unordered armies retreat at random; fleets are disbanded
        if dislodged.unit.type is UnitType.ARMY and options:
            return rng.choice(sorted(options))
        return None

    # -- builds (rule 3, 4(b)-(d), 7(h), 9) --------------------------------------------------

    def home_centres(self, position: Position, power: str) -> tuple[str, ...]:
        """Its home centres, with the Poles it owns (rule 9)."""
        homes = position.variant.home_centers(power)
        inherited = position.state.get("inherited")
        gained = inherited.get(power) if isinstance(inherited, dict) else None
        if isinstance(gained, list):
            homes += tuple(h for h in gained if isinstance(h, str) and h not in homes)
        poles = tuple(p for p in self.poles if position.centers.get(p) == power
                      and p not in homes)
        return homes + poles

    def colonies(self, position: Position, power: str) -> tuple[str, ...]:
        """The colonies it may build in (when it owns them)."""
        variant = position.variant
        if variant.policies.get("colony_builds") == "any_colony":
            every = {s for p in variant.power_ids for s in variant.rules.of_power(p).build_sites}
            return tuple(s for s in variant.map.supply_centers() if s in every)
        return variant.rules.of_power(power).build_sites

    def special_allowance(self, position: Position, power: str) -> tuple[frozenset[str], int]:
        """7(i), 7(j): the special build centres where ``power`` may build an army beyond its
        home-centre count this winter (owned, empty, in a country all of whose spaces it
        owns), and how many such builds it has."""
        if not self.special_build:
            return frozenset(), 0
        sites: set[str] = set()
        allowances: list[int] = []
        limits: list[int] = []
        owned_centres = 0
        qualifying_centres = 0
        for country in self.special_build:
            mine = [c for c in country.centres if position.centers.get(c) == power]
            owned_centres += len(mine)
            if not mine:
                continue
            limit = 0
            if all(self._owns_space(position, power, s) for s in country.provinces):
                limit = country.limit
            elif country.relaxed and len(mine) == len(country.centres) and sum(
                    1 for s in country.provinces if s in position.units
                    and position.units[s].power != power) <= 1:
                limit = 1  # 7(j): Canada's one build
            if not limit:
                continue
            qualifying_centres += len(mine)
            free = [c for c in mine if c not in position.units]
            sites.update(free)
            allowances.append(min(limit, len(free)))
            limits.append(limit)
        counted = owned_centres if position.variant.policies.get(
            "special_build_count", "owned") == "owned" else qualifying_centres
        per_year = 3 if counted >= 4 else 1
        extra = min(sum(allowances), max([per_year, *limits]))
        return frozenset(sites), extra

    def why_not_build_site(self, position: Position, power: str, province: str) -> str | None:
        # 7(i), 7(j): a special build centre is a build site only while its country is owned
        names = position.variant.map
        who = position.variant.power_name(power)
        for country in self.special_build:
            if province not in country.centres:
                continue
            name, land = names.name(province), country_name(country.country)
            if position.centers.get(province) != power:
                return (f"{who} does not own {name}, a special build centre of {land}, so it "
                        f"cannot build there (rule 7(i))")
            missing = [s for s in country.provinces
                       if not self._owns_space(position, power, s)]
            if missing:
                seas = [names.name(s) for s in missing
                        if names.provinces[s].terrain is Terrain.SEA]
                lands = [names.name(s) for s in missing if names.name(s) not in seas]
                gaps = ([f"it does not own {and_list(lands)}"] if lands else []) + (
                    [f"a foreign unit is in {and_list(seas)}"] if seas else [])
                return (f"{name} is a special build centre of {land}, where a power builds "
                        f"armies only while it owns all of {land} (rule 7(i)), and "
                        f"{' and '.join(gaps)}")
            if province in position.units:
                return f"{name} is occupied, so no unit can be built there"
            return (f"{who} builds no more armies in special build centres this winter "
                    f"(rule 7(i))")
        return None

    def _owns_space(self, position: Position, power: str, space: str) -> bool:
        province = position.variant.map.provinces[space]
        if province.terrain is Terrain.SEA:  # a sea is "owned" with no foreign unit in it
            unit = position.units.get(space)
            return unit is None or unit.power == power
        if province.is_supply_center:
            return position.centers.get(space) == power
        owned = position.state.get("owned")
        return isinstance(owned, dict) and owned.get(space) == power

    def adjustments(self, position: Position, differences: dict[str, int]) -> dict[str, int]:
        holder = self.holder(position)
        for where in self.protectorate_units(position):
            unit = position.units.get(where)
            if unit is not None and unit.power in differences:
                differences[unit.power] += 1  # 7(e), 7(f): they need no supply centres
        for power, surplus in differences.items():
            if surplus <= 0:
                continue
            owned_homes = sum(1 for c in self.home_centres(position, power)
                              if position.centers.get(c) == power)
            if power == holder and owned_homes == 0:
                owned_homes = 1  # 7(h): the holder may always build one fleet
            _, extra = self.special_allowance(position, power)
            differences[power] = min(surplus, owned_homes + extra)
        return differences

    def adjustment_notes(self, position: Position, power: str, due: int) -> tuple[str, ...]:
        notes = []
        exempt = 0
        served: dict[Protectorate, list[Unit]] = {}
        for where, country in self.protectorate_units(position).items():
            unit = position.units.get(where)
            if unit is not None and unit.power == power:
                served.setdefault(country, []).append(unit)
        for country, units in served.items():
            exempt += len(units)
            rule = "7(e)" if country.trigger == "always" else "7(f)"
            kinds = sorted({_kind(u) for u in units})
            plural = {"army": "armies", "fleet": "fleets"}
            what = f"{len(units)} {plural[kinds[0]]}" if len(kinds) == 1 and len(units) > 1 \
                else " and ".join(kinds) if len(units) > 1 else kinds[0]
            verb = "need" if len(units) > 1 else "needs"
            notes.append(f"{country_name(country.country)}'s {what} {verb} no supply centres "
                         f"(rule {rule})")
        surplus = len(position.centers_of(power)) - len(position.units_of(power)) + exempt
        if 0 <= due < surplus:
            owned_homes = sum(1 for c in self.home_centres(position, power)
                              if position.centers.get(c) == power)
            _, extra = self.special_allowance(position, power)
            if owned_homes == 0 and self.holder(position) == power:
                notes.append("it owns no home supply centre, but with sea superiority builds "
                             "one fleet a year in a colony or possession (rule 7(h))")
            else:
                centres = "centre" if owned_homes == 1 else "centres"
                notes.append(f"no more builds a year than the {owned_homes} home supply "
                             f"{centres} it owns (rule 3)")
            if extra:
                notes.append(f"and {extra} more {'army' if extra == 1 else 'armies'} in its "
                             f"special build centres (rule 7(i))")
        return tuple(notes)

    def build_sites(self, position: Position, power: str) -> tuple[str, ...]:
        sites = list(self.home_centres(position, power))
        sites += [c for c in self.colonies(position, power) if c not in sites]
        if self.holder(position) == power:  # 7(h): a fleet in any colony or possession
            sites += [c for c in position.centers_of(power) if c not in sites]
        special, _ = self.special_allowance(position, power)
        sites += sorted(c for c in special if c not in sites)
        return tuple(sites)

    def void_adjustments(self, position: Position, power: str,
                         builds: Sequence[Build]) -> dict[int, str]:
        homes = set(self.home_centres(position, power))
        colonies = set(self.colonies(position, power))
        holder = self.holder(position) == power
        owned_homes = sum(1 for c in homes if position.centers.get(c) == power)
        special_sites, extra = self.special_allowance(position, power)
        tier = self.tier(position, power)
        fleet_cap = _TIER_FLEET_BUILDS.get(tier)
        voids: dict[int, str] = {}
        exempt: set[int] = set()  # the 7(h) fleet and the 7(i) armies: not in the half rule
        fleets = normal = special = possession = 0
        for index, build in enumerate(builds):
            where = province_of(build.location)
            is_fleet = build.unit_type is UnitType.FLEET
            if is_fleet and fleet_cap is not None and fleets >= fleet_cap:
                voids[index] = (f"a power in tier ({tier}) of sea superiority may build at "
                                f"most {fleet_cap} fleet{'s' if fleet_cap > 1 else ''} a "
                                f"year (rule 4({'b' if fleet_cap == 2 else 'd'}))")
                continue
            regular = where in homes or where in colonies
            if holder and is_fleet and possession == 0 and (not regular or owned_homes == 0):
                # 7(h): one fleet a year in any colony or possession, even with no home centre
                possession += 1
                fleets += 1
                exempt.add(index)
                if owned_homes:
                    normal += 1
                continue
            if regular and normal < owned_homes:
                normal += 1
                fleets += is_fleet
                continue
            if not is_fleet and where in special_sites and special < extra:
                special += 1
                exempt.add(index)
                continue
            if not regular:
                voids[index] = ("outside its home centres and colonies a power builds only "
                                "one fleet a year with sea superiority (rule 7(h)) or armies in "
                                "special build centres (rule 7(i))")
            else:
                voids[index] = (f"no more builds than the {owned_homes} home supply centres "
                                f"it owns, except armies in special build centres (rules 3, "
                                f"7(i))")
        rounding = math.ceil if position.variant.policies.get("half_rule_rounding") == "ceil" \
            else math.floor
        for unit_type in (UnitType.ARMY, UnitType.FLEET):
            counted = [i for i, b in enumerate(builds) if i not in voids and i not in exempt
                       and b.unit_type is unit_type]
            at_home = [i for i in counted if province_of(builds[i].location) in homes]
            abroad = [i for i in counted if i not in at_home]
            while abroad and len(at_home) < rounding(len(at_home + abroad) / 2):
                voids[abroad.pop()] = (f"at least half of the {_KINDS[unit_type]} built must be "
                                       f"built in home supply centres (rule 3)")
        return voids

    def remove_after_build(self, position: Position, power: str) -> bool:
        # rule 3: "Units may be removed immediately after being built, if desired"
        return True

    def removal_first(self, position: Position, power: str) -> UnitType | None:
        # 4(c): below the second place, fleets are removed before armies
        return UnitType.FLEET if self.tier(position, power) in "cde" else None

    def mobilisation(self, position: Position, power: str) -> Mobilisation | None:
        # rule 8: "Mobilization is done by foregoing one build out of one's home supply centre
        # count; this allows two units to be mobilized. (Exception: the player with sea
        # superiority may mobilize three.) Only one build per year may be foregone"
        if position.phase.type is PhaseType.MOVEMENT:
            # the start choices: MOBILISE chooses a candidate, which holds
            pending = self.pending_choice(position, power) if self.start_choices else None
            return Mobilisation(frozenset(pending[0]), pending[1]) if pending else None
        inactive = self._inactive(position)
        if not inactive:
            return None
        units = position.units
        mine = frozenset(p for p in inactive if p in units and units[p].power == power)
        if not mine:
            return None
        per_build = 3 if self.holder(position) == power else 2
        owned_homes = sum(1 for c in self.home_centres(position, power)
                          if position.centers.get(c) == power)
        if not owned_homes:
            return Mobilisation(mine, 0, "a power mobilises by foregoing a build out of its "
                                         "home supply centre count, and it owns no home "
                                         "supply centre (rule 8)")
        if position.variant.policies.get("mobilisation_cost", "a_build") == "a_build":
            from realpolitik.legality import adjustment_counts  # (legality imports hooks)
            if adjustment_counts(position).get(power, 0) <= 0:
                return Mobilisation(mine, 0, "a power mobilises by foregoing a build, and it "
                                             "has no build this winter (rule 8)")
        return Mobilisation(mine, per_build)

    # -- victory (rule 5) --------------------------------------------------------------------

    def victory(self, position: Position, teams: Sequence[Sequence[str]], target: int, *,
                count_units: bool = False, per_power: bool = False) -> Victory | None:
        holder = self.holder(position)
        if holder is None:
            return None
        counted = position.variant.policies.get("victory_armies") == "all"
        armies = [u for u in position.units.values() if u.type is UnitType.ARMY
                  and (counted or u.power != NEUTRAL)]
        protected = self.protectorate_units(position)  # India's armies are India's (rule 5)
        mine = sum(1 for u in armies if u.power == holder and u.province not in protected)
        if 2 * mine <= len(armies):
            return None
        for index, team in enumerate(teams):
            if holder in team:
                name = position.variant.power(holder).name
                return Victory(index, f"{name} won with sea superiority and {mine} of the "
                                      f"{len(armies)} armies on the board")
        return None  # pragma: no cover - every power is in a team


_KINDS = {UnitType.ARMY: "armies", UnitType.FLEET: "fleets"}


def _attacks(before: Position, resolution: Resolution) -> dict[str, str]:
    """Province -> the first move (as text) of another power into the unit standing there:
    rule 8's attack, which mobilises an inactive unit whatever the move's result."""
    out: dict[str, str] = {}
    for result in resolution.results:
        if isinstance(result.order, Move):
            where = province_of(result.order.destination)
            target = before.units.get(where)
            if target is not None and target.power != result.power:
                out.setdefault(where, write_order(result.order, before.variant))
    return out


def _mobilised(before: Position, resolution: Resolution) -> set[str]:
    """The units mobilised in a winter by a MOBILISE order carried out (rule 8)."""
    if before.phase.type is PhaseType.MOVEMENT:
        return set()  # (a MOBILISE there is a start choice: see ColonialWinters._choices)
    return {province_of(result.order.location) for result in resolution.results
            if isinstance(result.order, Mobilise) and result.succeeded}


def country_name(country: str) -> str:
    """A minor country's name from its id in the data, as written in running text
    (``south_africa`` -> South Africa, ``inca_empire`` -> the Inca Empire)."""
    name = country.replace("_", " ").title()
    return f"the {name}" if name.endswith("Empire") else name


def _kind(unit: Unit) -> str:
    return "army" if unit.type is UnitType.ARMY else "fleet"
