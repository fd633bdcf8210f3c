"""The adjustment phase: builds, waives, removals, and civil-disorder removals.

Orders are carried out one by one in the order given (DATC 4.D.4 to 4.D.6): a build needs a free
home centre the power owns (the variant's ``builds`` rule may allow any owned centre) and a build
left; a removal needs a unit of the power and a removal left. When a power removes too few units,
the civil-disorder rule of the edition chooses (DATC 4.D.8):

* ``home_centers`` (1971, 1982): the unit farthest from its nearest home centre by the shortest
  route (armies may cross water, as by convoy; fleets move as fleets), fleets before armies,
  then by the province's name;
* ``owned_centers`` (2023): the same, but the distance is to the nearest *owned* centre and every
  unit may cross land and sea.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from types import MappingProxyType
from typing import Final, TypeVar

from realpolitik.adjudication.outcomes import (
    OrderResult,
    Outcome,
    Resolution,
    Result,
    made_resolution,
)
from realpolitik.adjudication.setup import Entry, in_sorted_order, unit_values
from realpolitik.compiling import is_compiled
from realpolitik.geography import UnitType, province_of
from realpolitik.hooks import VariantHooks
from realpolitik.legality import Illegal, adjustment_counts, counted_from_units, normalize_order
from realpolitik.listing import listed_checker, listed_unit_counts
from realpolitik.maptables import MapTables, tables_for
from realpolitik.orders import Build, Disband, Order, VariantOrder, Waive
from realpolitik.position import Position, Unit
from realpolitik.rules import CivilDisorder, Rules, TooManyBuilds, TooManyDisbands
from realpolitik.writing import place_writer

__all__ = ["adjudicate_adjustments", "builds_that_stand", "civil_disorder_removals",
           "limit_voids", "units_listed"]

_TOO_MANY_BUILDS: Final = Illegal("too_many_builds", "The power has no builds left for it.")
_TOO_MANY_REMOVALS: Final = Illegal("too_many_removals", "The power has no removals left for it.")
_BUILT_THERE: Final = Illegal("center_occupied", "A unit is already built there this winter.")
_REMOVED: Final = Illegal("duplicate_order", "That unit is already removed.")
_NOT_BUILT: Final = Illegal("no_unit", "No unit was built there in these orders, so none can be "
                                "removed.")
_REMOVALS_KEPT: Final = {policy: TooManyBuilds.NONE if policy is TooManyDisbands.CIVIL_DISORDER
                  else TooManyBuilds(policy.value) for policy in TooManyDisbands}
"""Which of too many removals are kept, as the policy for builds says it: "civil disorder"
voids every removal (the civil-disorder rule then chooses)."""
_T = TypeVar("_T")

_FIRST: Final = TooManyBuilds.FIRST  # (an enum's member is slow to read)
_LAST: Final = TooManyBuilds.LAST
_NO_OPTIONS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType({})
_NO_STANDOFFS: Final[frozenset[str]] = frozenset()
_UNREACHABLE: Final = 1 << 20


def _compiled() -> bool:
    """(Only its type counts: see :func:`~realpolitik.compiling.is_compiled`.)"""
    return True


_TYPED_LOOPS: Final[bool] = is_compiled(_compiled)
"""True where this module is compiled: a hot step takes the idiom each build runs fastest."""
_KIND: Final = {UnitType.ARMY: "armies", UnitType.FLEET: "fleets"}


def _power_of(order: Order, position: Position, tables: MapTables) -> str:
    if order.power is not None:
        return order.power
    if isinstance(order, Waive):
        return ""
    if isinstance(order, Build):
        return tables.home_of.get(province_of(order.location)) or ""
    unit = position.units.get(province_of(order.location))
    return unit.power if unit is not None else ""


def units_listed(before: Position, winter: Position) -> None:
    """Tell ``winter``, an adjustment phase whose units are ``before``'s moved (a movement
    phase that lost no unit), its adjustment counts from ``before``'s units per power as its
    movement listing counted them, if it was made (a game lists a phase before playing it):
    a few counts, not a pass over the board. Nothing is told when it was not made, or did
    not count every unit (a unit of no power is not listed)."""
    listed = listed_unit_counts(before)
    if listed is not None and sum(listed.values()) == len(winter.units):
        counted_from_units(winter, listed)


def adjudicate_adjustments(position: Position, orders: Iterable[Order], rules: Rules, *,
                           checked: bool = False) -> Resolution:
    """Resolve an adjustment phase (``checked``: the caller vouches that every order is legal
    as it stands)."""
    counts = adjustment_counts(position)
    variant = position.variant
    if checked and not variant.kinds \
            and type(variant.hooks).void_adjustments is VariantHooks.void_adjustments:
        given = orders if type(orders) is tuple else tuple(orders)
        plain = _within_counts(position, given, rules, counts)
        if plain is not None:
            return plain
        orders = given
    return _adjudicate_one_by_one(position, orders, rules, checked, counts)


def _within_counts(position: Position, orders: tuple[Order, ...], rules: Rules,
                   counts: Mapping[str, int]) -> Resolution | None:
    """The winter of orders vouched for as legal, worked out from the counts (the common
    case): each power's builds and waives, or its removals, in the order given, of which the
    rules keep as many as are due, in places all different, each order naming its power. None
    when that is not so, or the variant's hooks choose the removals: the orders are then
    carried out one by one (:func:`_adjudicate_one_by_one`, which gives the same board and,
    when they are read, makes the results of these orders)."""
    province_at = tables_for(position.variant).province_at
    wanted: dict[str | None, list[Order]] = {}
    """Power -> its orders, in the order given."""
    for order in orders:
        power = order.power
        mine = wanted.get(power)
        if mine is None:
            wanted[power] = [order]
        else:
            mine.append(order)
    before = position.units
    units = before.copy() if type(before) is MappingProxyType else dict(before)
    values = unit_values(position.variant)
    hooks = position.variant.hooks
    places: set[str] = set()
    """The provinces built in or removed from so far (each at most once)."""
    added = False
    ordered: dict[str, int] = {}
    # Each power's orders checked and carried out in one pass on the board's copy (a check
    # that fails returns None, and the copy is dropped), unless it gave more than are due:
    # all its orders are then checked, and those the rules keep carried out.
    for power, mine in wanted.items():
        if power is None:
            return None
        count = counts.get(power, 0)
        if count > 0:
            trimmed = len(mine) > count
            for order in mine:
                # (each kind told by its exact class: the cheapest test, and the type checker
                # reads it where the order's fields are read)
                if type(order) is Build:
                    province = province_at[order.location]
                    if province in places:
                        return None  # (built twice)
                    places.add(province)
                    if not trimmed:
                        units[province] = values.unit(power, order.unit_type, order.location)
                        added = True
                elif type(order) is not Waive:
                    return None  # (a removal not due, or another kind)
            if trimmed:  # the rules keep some of them
                for order in _kept(mine, count, rules.too_many_builds)[0]:
                    if type(order) is Build:
                        units[province_at[order.location]] = values.unit(
                            power, order.unit_type, order.location)
                        added = True
        elif count < 0:
            for order in mine:
                if type(order) is not Disband:
                    return None  # (a build or waive not due, or another kind)
                province = province_at[order.location]
                if province in places:
                    return None  # (removed twice)
                places.add(province)
            if hooks.removal_first(position, power) is not None:
                return None
            if len(mine) > -count:  # the rules keep some of them
                mine = _kept(mine, -count, _REMOVALS_KEPT[rules.too_many_disbands])[0]
            for order in mine:
                if type(order) is Disband:  # (every one: the type checker reads it)
                    units.pop(province_at[order.location], None)
            ordered[power] = len(mine)
        else:
            return None  # (nothing due)
    return _after_winter(position, rules, counts, units, added, ordered,
                         partial(_results_one_by_one, position, orders, rules, counts))


def _results_one_by_one(position: Position, orders: tuple[Order, ...], rules: Rules,
                        counts: Mapping[str, int]) -> tuple[OrderResult, ...]:
    """The results of a winter's orders, every one carried out one by one (made when first
    read)."""
    return _adjudicate_one_by_one(position, orders, rules, True, counts).results


def _adjudicate_one_by_one(position: Position, orders: Iterable[Order], rules: Rules,
                           checked: bool, counts: Mapping[str, int]) -> Resolution:
    """The winter's orders carried out one by one, in the order given (see the module)."""
    tables = tables_for(position.variant)
    province_at = tables.province_at  # (a legal order's location is on the map)
    entries: list[Entry] = []
    legal_of: dict[str, list[Entry]] = {}
    """Power -> its legal orders, in the order given."""
    # an order that legal_orders listed is legal and normal as it stands
    listed = None if checked else listed_checker(position, rules)
    for given in orders:
        power = given.power
        if power is None:
            power = _power_of(given, position, tables)
        if listed is None or listed(given):
            entry = Entry(given, power, -1, given, None)  # (legal as it stands)
        else:
            reading = normalize_order(position, given, rules=rules)
            if isinstance(reading, Illegal):
                entries.append(Entry(given, power, -1, None, reading))
                continue
            power = reading.power or power
            entry = Entry(given, power, -1, reading, None)
        entries.append(entry)
        mine = legal_of.get(power)
        if mine is None:  # (not setdefault: it would make a list for every order)
            legal_of[power] = [entry]
        else:
            mine.append(entry)

    # Builds and waives, then removals, each power in turn and in the order given.
    hooks = position.variant.hooks
    limited = type(hooks).void_adjustments is not VariantHooks.void_adjustments
    after_build: list[Entry] = []
    waiting: set[str] = set()
    """The powers whose removals wait until their builds are made (a variant's rule may let
    one remove a unit it builds)."""
    built: set[str] = set()
    removed: set[str] = set()
    kinds = position.variant.kinds
    has_kinds = bool(kinds)
    for power in position.variant.power_ids:
        mine = legal_of.get(power)
        if mine is None:
            if not has_kinds:
                continue  # (no order to carry out or void: its removals, if due, are below)
            mine = []
        count = counts.get(power, 0)
        if has_kinds:
            count = _spend(position, power, mine, count)
        if count > 0:
            wanted = []
            for e in mine:
                if isinstance(e.order, Build):
                    province = province_at[e.order.location]
                    if province in built:
                        e.illegal, e.order = _BUILT_THERE, None
                        continue
                    built.add(province)
                    wanted.append(e)
                elif isinstance(e.order, Waive):
                    wanted.append(e)
            if limited and any(isinstance(e.order, Build) for e in wanted):
                _limit_builds(position, power, wanted, count, rules.too_many_builds, built)
            else:
                _limit(wanted, count, rules.too_many_builds, _TOO_MANY_BUILDS, built, province_at)
            # removals of units built in these orders (a variant's rule): after the builds
            for e in mine:
                if isinstance(e.order, Disband):
                    after_build.append(e)
                    waiting.add(power)
        elif count < 0:
            wanted = []
            for e in mine:
                if isinstance(e.order, Disband):
                    province = province_at[e.order.location]
                    if province in removed:
                        e.illegal, e.order = _REMOVED, None
                        continue
                    removed.add(province)
                    wanted.append(e)
            # "civil disorder": every removal is void and the civil-disorder rule chooses.
            _limit(wanted, -count, _REMOVALS_KEPT[rules.too_many_disbands], _TOO_MANY_REMOVALS,
                   removed, province_at)
            first = hooks.removal_first(position, power)
            if first is not None:
                # units of other types go only once every unit of this type is removed
                spare = -count - sum(1 for u in position.units_of(power) if u.type is first)
                others = [e for e in wanted if isinstance(e.order, Disband)
                          and e.order.unit_type is not first]
                for e in others[max(0, spare):]:
                    assert isinstance(e.order, Disband)
                    removed.discard(province_of(e.order.location))
                    e.illegal, e.order = Illegal(
                        "remove_first", f"The power must remove its {_KIND[first]} before any "
                                        f"other unit."), None

    # The board after the winter: a copy of the board before (in C: a read-only view's own
    # copy), less the units removed, plus those built.
    before = position.units
    units = before.copy() if type(before) is MappingProxyType else dict(before)
    added = False  # (a unit built: the board is sorted again)
    values = unit_values(position.variant)
    for e in entries:
        order = e.order
        if e.illegal is not None or order is None:
            continue
        if isinstance(order, Build):
            units[province_at[order.location]] = values.unit(e.power, order.unit_type,
                                                             order.location)
            added = True
        elif isinstance(order, Disband):
            if e.power not in waiting:  # (else removed after every build, below)
                units.pop(province_at[order.location], None)
        elif isinstance(order, VariantOrder):
            kinds.of(order).carry_out(position, order, e.power, units)
            added = True
    for e in after_build:
        order = e.order
        if e.illegal is not None or not isinstance(order, Disband):
            continue
        where = province_at[order.location]
        made = units.get(where)
        if where in position.units or made is None or made.power != e.power:
            e.illegal, e.order = _NOT_BUILT, None
        else:
            units.pop(where)

    ordered: dict[str, int] = {}
    """Power -> its removals that stand (a power due to remove)."""
    for power in legal_of:
        if counts.get(power, 0) < 0:
            missing = 0
            for e in legal_of[power]:  # (a loop: a generator is a frame made and resumed)
                if e.illegal is None and isinstance(e.order, Disband):
                    missing += 1
            ordered[power] = missing
    return _after_winter(position, rules, counts, units, added, ordered,
                         partial(_results, tuple(entries), position))


def _after_winter(position: Position, rules: Rules, counts: Mapping[str, int],
                  units: dict[str, Unit], added: bool, ordered: Mapping[str, int],
                  results: Callable[[], tuple[OrderResult, ...]]) -> Resolution:
    """The winter's resolution from the board after the orders (``units``; ``added``: a unit
    was built), each power's removals ordered that stand (``ordered``, counted for the powers
    due to remove) and the results to make when read: the removals the civil-disorder rule
    makes, and the board in sorted order."""
    before = position.units
    # Civil disorder: the removals a power did not order.
    disorder: list[Unit] = []
    # (min without its default= keyword: the keyword alone costs more than the pass)
    # (compiled, a loop: min() is a generic call of the builtin)
    removing = False
    if counts:
        if _TYPED_LOOPS:
            for difference in counts.values():
                if difference < 0:
                    removing = True
                    break
        else:
            removing = min(counts.values()) < 0
    for power in position.variant.power_ids if removing else ():
        count = counts.get(power, 0)
        if count >= 0:
            continue
        missing = -count - ordered.get(power, 0)
        if missing > 0:
            remaining = [u for u in units.values() if u.power == power]
            chosen = civil_disorder_removals(position, power, remaining, missing, rules)
            for unit in chosen:
                units.pop(unit.province, None)
            disorder.extend(chosen)
    # (the engine keeps a board's provinces in sorted order: removals keep the order of the
    # board before, if that was sorted; a board with nothing removed is the board before)
    if not added and len(units) == len(before) and type(before) is MappingProxyType \
            and in_sorted_order(before):
        board = before
    elif not added and in_sorted_order(units):
        board = MappingProxyType(units)
    else:
        in_order: dict[str, Unit] = {}  # (a loop: a comprehension is a function call)
        provinces = list(units.keys())  # (compiled, one C call: sorted() iterates generically)
        provinces.sort()
        for p in provinces:
            in_order[p] = units[p]
        board = MappingProxyType(in_order)
    return made_resolution(position.phase, results, board, (), _NO_OPTIONS, _NO_STANDOFFS,
                           tuple(disorder) if disorder else ())


def _spend(position: Position, power: str, mine: list[Entry], count: int) -> int:
    """The builds ``power`` has left of ``count`` once its orders of the variant's own kinds
    have taken theirs (each kind in turn: :meth:`~realpolitik.kinds.OrderKind.spend`); the
    orders a kind voids are void, and so are the builds and waives when nothing is left."""
    for kind in position.variant.kinds.in_phase(position.phase.type):
        given = [e for e in mine if e.order is not None and type(e.order) is kind.order]
        if not given:
            continue
        orders = [e.order for e in given if isinstance(e.order, VariantOrder)]
        spending = kind.spend(position, power, orders, count)
        for index, illegal in spending.void.items():
            given[index].illegal, given[index].order = illegal, None
        if spending.builds and count > 0:
            count = max(0, count - spending.builds)
            if count == 0:
                spent = Illegal("build_foregone", kind.spent_reason)
                for e in mine:
                    if isinstance(e.order, Build | Waive):
                        e.illegal, e.order = spent, None
    return count


def _results(entries: tuple[Entry, ...], position: Position) -> tuple[OrderResult, ...]:
    """The result of each order given (made when first read: a game seldom reads them), its
    order written as the variant writes places."""
    writer = place_writer(position.variant)
    results: list[OrderResult] = []
    for e in entries:
        order = e.order
        if e.illegal is not None or order is None:
            results.append(e.void_result(writer))
        elif isinstance(order, Build):
            results.append(OrderResult(e.given, e.power, Result.SUCCEEDS, Outcome.BUILT,
                                       f"{writer.order(order)}: the unit was built."))
        elif isinstance(order, Waive):
            results.append(OrderResult(e.given, e.power, Result.SUCCEEDS, Outcome.WAIVED,
                                       "The build was waived."))
        elif isinstance(order, VariantOrder):
            kind = position.variant.kinds.of(order)
            results.append(OrderResult(e.given, e.power, Result.SUCCEEDS, Outcome(kind.outcome),
                                       kind.done(order, writer)))
        else:
            results.append(OrderResult(e.given, e.power, Result.SUCCEEDS, Outcome.REMOVED,
                                       f"{writer.order(order)}: the unit was removed."))
    return tuple(results)


def builds_that_stand(position: Position, power: str, orders: Sequence[Build | Waive],
                      allowed: int, *, last_first: bool = False) -> set[int]:
    """The indices of the builds and waives of ``orders`` that ``power`` carries out under its
    variant's winter limits (:meth:`~realpolitik.hooks.VariantHooks.void_adjustments`): at
    most ``allowed``, one build per place, none the limits void beside the others kept.

    The orders are taken in the order given (the last first with ``last_first``): each that the
    limits allow beside those kept is kept while builds are left, and the passes are repeated,
    since a build kept may allow one left out before (a variant's half rule may let a colony
    build stand beside a build at home). So an order that cannot be carried out
    never uses up a build, whatever the order of the lines."""
    preference = list(range(len(orders)))
    if last_first:
        preference.reverse()
    kept: set[int] = set()
    places: set[str] = set()
    changed = True
    while changed and len(kept) < allowed:
        changed = False
        for i in preference:
            order = orders[i]
            where = province_of(order.location) if isinstance(order, Build) else None
            if i in kept or where in places or len(kept) >= allowed:
                continue
            if not limit_voids(position, power, orders, kept | {i}):
                kept.add(i)
                changed = True
                if where is not None:
                    places.add(where)
    return kept


def limit_voids(position: Position, power: str, orders: Sequence[Build | Waive],
                indices: set[int]) -> dict[int, str]:
    """The variant's winter limits on the builds of ``orders`` at ``indices`` given together
    (in the order given): index -> why it is void."""
    builds = [i for i in sorted(indices) if isinstance(orders[i], Build)]
    found = position.variant.hooks.void_adjustments(
        position, power, [order for i in builds if isinstance(order := orders[i], Build)])
    return {builds[k]: reason for k, reason in found.items()}


def _limit_builds(position: Position, power: str, wanted: list[Entry], allowed: int,
                  policy: TooManyBuilds, built: set[str]) -> None:
    """Keep ``allowed`` of the builds and waives ``wanted`` under a variant's winter limits
    (:func:`builds_that_stand`) and void the others (so an illegal army build given first does
    not take a build a variant's limit allows only once). A
    void build says the limit that voids it beside the builds kept, else that no build is
    left; with ``too_many_builds = none`` more builds that stand than due are all void."""
    orders = [e.order for e in wanted if isinstance(e.order, Build | Waive)]
    assert len(orders) == len(wanted)
    everything = policy is TooManyBuilds.NONE
    kept = builds_that_stand(position, power, orders, len(wanted) if everything else allowed,
                             last_first=policy is TooManyBuilds.LAST)
    too_many = everything and len(kept) > allowed
    if too_many:
        kept = set()  # more that could be carried out than builds due: every one is void
    for i, e in enumerate(wanted):
        if i in kept:
            continue
        order = orders[i]
        reason = limit_voids(position, power, orders, kept | {i}) \
            if isinstance(order, Build) and not too_many else {}
        if isinstance(order, Build):
            built.discard(province_of(order.location))
        if i in reason:
            e.illegal = Illegal("variant_rule", reason[i])
        elif reason and len(kept) < allowed:
            e.illegal = Illegal("variant_rule", next(iter(reason.values())))
        else:
            e.illegal = _TOO_MANY_BUILDS
        e.order = None


def _kept(wanted: list[_T], allowed: int, policy: TooManyBuilds) -> tuple[list[_T], list[_T]]:
    """The ``allowed`` of ``wanted`` (more than that) that ``policy`` keeps, and the others:
    the first, the last, or none of them."""
    if policy is _FIRST:
        return wanted[:allowed], wanted[allowed:]
    if policy is _LAST:
        cut = len(wanted) - allowed
        return wanted[cut:], wanted[:cut]
    return [], wanted


def _limit(wanted: list[Entry], allowed: int, policy: TooManyBuilds, illegal: Illegal,
           taken: set[str], province_at: Mapping[str, str]) -> None:
    """Keep ``allowed`` of the ``wanted`` entries as ``policy`` says; void the others (and
    free their provinces in ``taken``; ``province_at``: the map's location -> province)."""
    if len(wanted) <= allowed:
        return
    for e in _kept(wanted, allowed, policy)[1]:
        # (a tuple: isinstance of a union calls the union's __instancecheck__ in Python terms)
        if isinstance(e.order, (Build, Disband)):
            taken.discard(province_at[e.order.location])
        e.illegal, e.order = illegal, None


def _distances(tables: MapTables, targets: Iterable[str], unit_type: UnitType | None,
               ) -> Mapping[str, int]:
    """Steps from every location (fleet) or province (army, any unit) to the nearest target
    province. ``unit_type`` FLEET moves along fleet borders between locations; None or ARMY
    moves between provinces by land or sea."""
    targets = set(targets)
    dist: dict[str, int] = {}
    todo: list[str] = []
    if unit_type is UnitType.FLEET:
        for loc in tables.fleet_adj:
            if province_of(loc) in targets:
                dist[loc] = 0
                todo.append(loc)
        adjacency: Mapping[str, Iterable[str]] = tables.fleet_adj
    else:
        for province in targets:
            dist[province] = 0
            todo.append(province)
        adjacency = tables.any_adj
    head = 0
    while head < len(todo):
        here = todo[head]
        head += 1
        for nxt in adjacency[here]:
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                todo.append(nxt)
    return dist


def civil_disorder_removals(position: Position, power: str, units: Iterable[Unit], count: int,
                            rules: Rules) -> list[Unit]:
    """The ``count`` units the civil-disorder rule removes from ``units`` of ``power``."""
    tables = tables_for(position.variant)
    units = list(units)
    if rules.civil_disorder is CivilDisorder.OWNED_CENTERS:
        targets = [c for c, owner in position.centers.items() if owner == power]
        any_way = _distances(tables, targets, None)
        distance = {u.province: any_way.get(u.province, _UNREACHABLE) for u in units}
    else:
        targets = list(position.variant.home_centers(power))
        by_land_and_sea = _distances(tables, targets, UnitType.ARMY)
        by_fleet = _distances(tables, targets, UnitType.FLEET)
        distance = {
            u.province: (by_fleet if u.type is UnitType.FLEET else by_land_and_sea).get(
                u.location if u.type is UnitType.FLEET else u.province, _UNREACHABLE)
            for u in units
        }
    first = position.variant.hooks.removal_first(position, power)
    units.sort(key=lambda u: (first is not None and u.type is not first,
                              -distance[u.province], u.type is not UnitType.FLEET,
                              tables.names[u.province].lower()))
    return units[:count]
