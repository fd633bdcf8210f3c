"""What each power may do in a winter: one count of builds or removals, where it can build, and
why, read by every view (``show``, ``process``, the JSON, the server's game, the web page).

:func:`realpolitik.legality.adjustment_counts` says how many builds or removals the rules give a
power (its centres minus its units, as the variant's hooks settle it). A variant's winter limits
(:meth:`~realpolitik.hooks.VariantHooks.void_adjustments`: a variant's half rule, fleet
caps, special build centres) may leave fewer builds that can actually be made; an
:class:`Adjustment` holds both, the places where a unit can be built, the free places where none
can with the reason, and the variant's sentences on why the count differs from the difference of
centres and units (units that need no centre, a cap on builds). :meth:`Adjustment.sentence` is
the one sentence each view writes.

>>> from realpolitik.variant import load_variant
>>> from realpolitik.position import Phase, Position
>>> start = Position.initial(load_variant("classical"))
>>> units = {p: u for p, u in start.units.items() if p != "bre"}
>>> winter = start.replace(phase=Phase.parse("W1901A"), units=units,
...                        centers={**start.centers, "bel": "france", "spa": "france"})
>>> adjustments(winter)["france"].sentence()
'France may build 1 (3 due, but only 1 free centre to build in): BRE'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from realpolitik.adjudication.adjustments import builds_that_stand, limit_voids
from realpolitik.caches import CacheSlot
from realpolitik.geography import UnitType, province_of
from realpolitik.hooks import VariantHooks
from realpolitik.legality import adjustment_counts, build_options
from realpolitik.orders import Build
from realpolitik.position import PhaseType, Position
from realpolitik.writing import place_writer

__all__ = ["Adjustment", "adjustments", "adjustments_to_json"]


@dataclass(frozen=True, slots=True)
class Adjustment:
    """One power's builds or removals this winter: the count every view shows."""

    power: str
    name: str
    """The power's name, for the sentence."""
    centres: int
    """Supply centres it owns."""
    units: int
    """Its units on the board."""
    due: int
    """Builds (> 0) or removals (< 0) the rules give it (:func:`adjustment_counts`)."""
    builds: int = 0
    """Builds it can actually make: at most ``due``, as many as its free build sites and the
    variant's winter limits allow together."""
    sites: tuple[str, ...] = ()
    """Where it can build a unit (each is a build that can be carried out)."""
    unbuildable: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Free places it owns and may build in by its build sites where no unit can be built
    this winter -> why (the variant's limit: "at least half of the armies built must be built
    in home supply centres (rule 3)")."""
    limit: str = ""
    """Why ``builds`` is less than ``due`` ("only 1 free centre to build in"; empty when it
    is not)."""
    notes: tuple[str, ...] = ()
    """The variant's sentences on why ``due`` differs from ``centres - units``."""

    @property
    def removals(self) -> int:
        """Units it must remove (0 if it builds or has nothing to do)."""
        return max(0, -self.due)

    def sentence(self, place: Callable[[str], str] = str.upper) -> str:
        """What it may or must do, in one sentence, with each place written by ``place``:
        "England must remove 1 unit (20 centres, 23 units; India's 2 armies need no supply
        centres (rule 7(e)))", "Russia may build 0 (2 due, but no free place where a unit can
        be built): nowhere; not E96, E100: at least half of the armies built must be built in
        home supply centres (rule 3)". The centres and units are given when the variant says
        why the count is not their difference."""
        why = "; ".join((f"{self.centres} centres, {self.units} units", *self.notes)) \
            if self.notes else ""
        if self.due < 0:
            n = self.removals
            return f"{self.name} must remove {n} unit{'s' if n != 1 else ''}" + \
                (f" ({why})" if why else "")
        if self.due == 0:
            return f"{self.name} has no builds or removals" + (f" ({why})" if why else "")
        short = f"{self.due} due, but {self.limit}" if self.builds < self.due else ""
        paren = "; ".join(p for p in (short, why) if p)
        sites = ", ".join(place(s) for s in self.sites) or (
            "nowhere" if self.unbuildable else "none free")
        text = f"{self.name} may build {self.builds}" + (f" ({paren})" if paren else "") + \
            f": {sites}"
        if self.unbuildable:
            by_reason: dict[str, list[str]] = {}
            for site, reason in self.unbuildable.items():
                by_reason.setdefault(reason, []).append(place(site))
            text += "; not " + "; not ".join(f"{', '.join(where)}: {reason}"
                                            for reason, where in by_reason.items())
        return text


    def to_json(self, place: Callable[[str], str] = str.upper) -> dict[str, object]:
        """As JSON (places as upper-case codes): ``centres``, ``units``, then ``removals``, or
        ``builds``, ``due``, ``build_sites`` (and ``unbuildable``, ``limit`` when there are),
        ``notes`` when the variant gives some, and ``summary``, the :meth:`sentence` (its
        places written by ``place``)."""
        data: dict[str, object] = {"centres": self.centres, "units": self.units}
        if self.due < 0:
            data["removals"] = self.removals
        else:
            data.update({"builds": self.builds, "due": self.due,
                         "build_sites": [site.upper() for site in self.sites]})
            if self.unbuildable:
                data["unbuildable"] = {site.upper(): why
                                       for site, why in self.unbuildable.items()}
            if self.limit:
                data["limit"] = self.limit
        if self.notes:
            data["notes"] = list(self.notes)
        data["summary"] = self.sentence(place)
        return data


def adjustments_to_json(position: Position) -> dict[str, dict[str, object]]:
    """Upper-case power id -> :meth:`Adjustment.to_json`, for each power with builds or
    removals due (empty outside an adjustment phase): what ``show --json``, ``process --json``
    and the server's game give as ``adjustments``."""
    place = place_writer(position.variant).place  # names, where the variant writes them
    return {power.upper(): info.to_json(place)
            for power, info in adjustments(position).items() if info.due}


def adjustments(position: Position) -> Mapping[str, Adjustment]:
    """Power -> its :class:`Adjustment` in an adjustment phase, for every power with builds or
    removals due or with centres or units (empty in other phases). Worked out once per
    position."""
    return _adjustments(position)


def _work_out(position: Position) -> Mapping[str, Adjustment]:
    if position.phase.type is not PhaseType.ADJUSTMENTS:
        return MappingProxyType({})
    hooks = position.variant.hooks
    out: dict[str, Adjustment] = {}
    for power, due in adjustment_counts(position).items():
        centres, units = len(position.centers_of(power)), len(position.units_of(power))
        if not (due or centres or units):
            continue
        base = Adjustment(power, position.variant.power_name(power), centres, units, due,
                          notes=hooks.adjustment_notes(position, power, due))
        out[power] = _builds(position, base) if due > 0 else base
    return MappingProxyType(out)


_adjustments: CacheSlot[Position, Mapping[str, Adjustment]] = CacheSlot(
    "the winter's adjustments", _work_out)
"""One entry per power (a winter position is asked by each view)."""


def _builds(position: Position, base: Adjustment) -> Adjustment:
    """``base`` with the builds it can make, where, and why not more."""
    power, due = base.power, base.due
    hooks = position.variant.hooks
    options = list(build_options(position, power))
    sites = tuple(province for province, _ in options)
    limited = type(hooks).void_adjustments is not VariantHooks.void_adjustments
    unbuildable: dict[str, str] = {}
    limit = ""
    if not limited:
        builds = min(due, len(sites))
    else:
        candidates = [Build(utype, loc, power=power) for _, made in options
                      for utype, loc in made]
        kept = builds_that_stand(position, power, candidates, due)
        builds = len(kept)
        if builds < min(due, len(sites)):
            # the sites cannot all be used together: the first limit that says why
            places = {province_of(candidates[i].location) for i in kept}
            for index, candidate in enumerate(candidates):
                if province_of(candidate.location) in places:
                    continue
                voids = limit_voids(position, power, candidates, kept | {index})
                if voids:
                    limit = f"only {builds} can be built together: {next(iter(voids.values()))}"
                    break
        owned = set(position.centers_of(power))
        for site in hooks.build_sites(position, power):
            if site in owned and site not in position.units and site not in sites:
                reason = _why_not(position, power, site)
                if reason:
                    unbuildable[site] = reason
    if builds < due and not limit:
        free = len(sites)
        limit = f"only {free} free centre{'s' if free != 1 else ''} to build in" \
            if free or not unbuildable else "no free centre where a unit can be built"
    return Adjustment(power, base.name, base.centres, base.units, due, builds, sites,
                      MappingProxyType(unbuildable), limit, base.notes)


def _why_not(position: Position, power: str, site: str) -> str:
    """Why no unit can be built at the free ``site`` (the variant's limit on a build there
    alone), or "" if the map or the unit limits leave nothing to build there."""
    hooks = position.variant.hooks
    the_map = position.variant.map
    for loc in (site, *the_map.coasts(site)):
        for unit_type in (UnitType.ARMY, UnitType.FLEET):
            if not the_map.can_hold(unit_type, loc):
                continue
            voids = hooks.void_adjustments(position, power, [Build(unit_type, loc, power=power)])
            if voids:
                return next(iter(voids.values()))
    return ""
