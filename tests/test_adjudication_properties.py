"""Invariants of the adjudicator on random positions and random legal orders (hypothesis)."""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from realpolitik.adjudication import Resolution, Result, adjudicate, movement
from realpolitik.adjudication.backup import backup_rule
from realpolitik.adjudication.equations import HOLD, SUPPORT_MOVE, Board, Equations
from realpolitik.adjudication.resolver import Resolver
from realpolitik.adjudication.setup import accept_orders
from realpolitik.geography import Terrain, UnitType, province_of
from realpolitik.legality import check_order, normalize_order
from realpolitik.listing import legal_orders
from realpolitik.maptables import tables_for
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
    with_power,
)
from realpolitik.position import DislodgedUnit, Phase, Position, Unit
from realpolitik.rules import EDITIONS, rules_for
from realpolitik.variant import load_variant

VARIANT = load_variant("classical")
TABLES = tables_for(VARIANT)
POWERS = VARIANT.power_ids
PLACES = [p for p in TABLES.provinces
          if VARIANT.map.provinces[p].terrain is not Terrain.IMPASSABLE]
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
EDITION_NAMES = sorted(EDITIONS)


# -- generating positions and orders ---------------------------------------------------------

def random_units(rnd: random.Random, count: int | None = None) -> list[Unit]:
    count = rnd.randint(0, len(PLACES)) if count is None else count
    units = []
    for province in rnd.sample(PLACES, count):
        options = []
        if TABLES.can_stand(UnitType.ARMY, province):
            options.append((UnitType.ARMY, province))
        for loc in TABLES.coasts[province] or (province,):
            if TABLES.can_stand(UnitType.FLEET, loc):
                options.append((UnitType.FLEET, loc))
        unit_type, loc = rnd.choice(options)
        units.append(Unit(rnd.choice(POWERS), unit_type, loc))
    return units


def random_centers(rnd: random.Random) -> dict[str, str]:
    return {c: rnd.choice(POWERS) for c in TABLES.supply_centers if rnd.random() < 0.8}


def movement_position(rnd: random.Random) -> Position:
    return Position.build(VARIANT, "S1901M", random_units(rnd), random_centers(rnd))


def movement_orders(rnd: random.Random, position: Position) -> list[Order]:
    """Random legal orders, biased so that supports and convoys often match a move."""
    options: dict[str, tuple[Order, ...]] = {}
    for power in POWERS:
        options.update(legal_orders(position, power))
    chosen: dict[str, Order] = {}
    locations = list(options)
    rnd.shuffle(locations)
    helpers = []
    for loc in locations:
        roll = rnd.random()
        if roll < 0.1:
            continue  # unordered
        if roll < 0.55:
            moves = [o for o in options[loc] if isinstance(o, Move)]
            chosen[loc] = rnd.choice(moves) if moves else options[loc][0]
        else:
            helpers.append(loc)
    for loc in helpers:
        def matches(o: Order) -> bool:
            if isinstance(o, SupportMove | Convoy):
                other = chosen.get(o.supported_location if isinstance(o, SupportMove)
                                   else o.army_location)
                return (isinstance(other, Move)
                        and province_of(other.destination) == province_of(o.destination))
            if isinstance(o, SupportHold):
                return not isinstance(chosen.get(o.supported_location), Move)
            return False
        good = [o for o in options[loc] if matches(o)]
        convoys: list[Order] = [o for o in good if isinstance(o, Convoy)]
        pool = good if good and rnd.random() < 0.8 else list(options[loc])
        if convoys and rnd.random() < 0.8:
            pool = convoys
        chosen[loc] = rnd.choice(pool)
    orders = list(chosen.values())
    # A few illegal or doubled orders too.
    for _ in range(rnd.randint(0, 3)):
        if not position.units:
            break
        unit = rnd.choice(list(position.units.values()))
        orders.append(Move(unit.type, unit.location, rnd.choice(PLACES), power=unit.power))
    rnd.shuffle(orders)
    return orders


def retreat_position(rnd: random.Random) -> tuple[Position, Resolution]:
    position = movement_position(rnd)
    res = adjudicate(position, movement_orders(rnd, position))
    after = Position.build(VARIANT, "S1901R", res.units.values(), position.centers,
                           dislodged=res.dislodged, standoffs=res.standoffs)
    return after, res


def retreat_orders(rnd: random.Random, position: Position) -> list[Order]:
    orders: list[Order] = []
    for power in POWERS:
        for options in legal_orders(position, power).values():
            if rnd.random() < 0.85:
                orders.append(rnd.choice(options))
    rnd.shuffle(orders)
    return orders


def adjustment_position(rnd: random.Random) -> Position:
    return Position.build(VARIANT, "W1901A", random_units(rnd), random_centers(rnd))


def adjustment_orders(rnd: random.Random, position: Position) -> list[Order]:
    orders: list[Order] = []
    for power in POWERS:
        options = dict(legal_orders(position, power))
        for choices in options.values():
            if rnd.random() < 0.6:
                orders.append(rnd.choice(choices))
    rnd.shuffle(orders)
    return orders


def rename(order: Order, mapping: dict[str, str]) -> Order:
    if order.power is None:
        return order
    return with_power(order, mapping[order.power])


def summary(res: Resolution, mapping: dict[str, str] | None = None) -> tuple[object, ...]:
    m = mapping or {p: p for p in POWERS}
    return (
        sorted((str(r.order), m.get(r.power, r.power), r.result.value, r.outcome.value)
               for r in res.results),
        sorted((m[u.power], str(u)) for u in res.units.values()),
        sorted((m[d.unit.power], str(d.unit), d.attacker_from or "", d.via_convoy)
               for d in res.dislodged),
        sorted(res.standoffs),
        sorted((loc, tuple(opts)) for loc, opts in res.retreat_options.items()),
        sorted((m[u.power], str(u)) for u in res.civil_disorder),
    )


# -- movement ----------------------------------------------------------------------------

@SETTINGS
@given(st.randoms(use_true_random=False), st.sampled_from(EDITION_NAMES))
def test_movement_invariants(rnd: random.Random, edition: str) -> None:
    rules = rules_for(edition)
    position = movement_position(rnd)
    orders = movement_orders(rnd, position)
    res = adjudicate(position, orders, rules=rules)
    # Every order gets exactly one result, in the order given.
    assert [r.order for r in res.results] == orders
    # Units are neither created nor destroyed, and one unit per province.
    assert len(res.units) + len(res.dislodged) == len(position.units)
    assert all(u.province == p for p, u in res.units.items())
    assert Counter(u.power for u in res.units.values()) + Counter(
        d.unit.power for d in res.dislodged) == Counter(u.power for u in position.units.values())
    for d in res.dislodged:
        # Dislodged only where a foreign attacker moved in.
        winner = res.units[d.unit.province]
        assert winner.power != d.unit.power
        assert winner != d.unit
        # Retreats never go to an occupied or stand-off province, nor to the attacker's
        # province unless it came by convoy and the rules allow it.
        for loc in res.retreat_options[d.unit.location]:
            assert province_of(loc) not in res.units
            assert province_of(loc) not in res.standoffs
            if not (d.via_convoy and rules.retreat_to_convoy_origin == "allowed"):
                assert province_of(loc) != d.attacker_from
    for province in res.standoffs:
        assert province not in res.units
    # A void order is one the legality check rejects (or a second order to a unit).
    for r in res.results:
        if r.result is Result.VOID:
            assert check_order(position, r.order, rules=rules) is not None \
                or r.illegal_reason in ("duplicate_order", "conflicting_orders")
        assert r.reason.endswith(".")


@SETTINGS
@given(st.randoms(use_true_random=False), st.sampled_from(EDITION_NAMES))
def test_decisions_settled_before_the_solver_are_the_solvers(rnd: random.Random,
                                                              edition: str) -> None:
    """The movement phase settles most decisions before the solver runs (those whose equation
    cannot change, then those whose equation reads only settled ones): every value, and every
    paradox, is the one the guess-and-check solver gives when it decides every decision."""
    rules = rules_for(edition)
    position = movement_position(rnd)
    orders = movement_orders(rnd, position)
    provinces, units, index = movement._units_of(position)
    accepted = accept_orders(position, tuple(orders), rules, index)
    board = Board(units, [o for o in accepted.unit_orders if o is not None], TABLES, rules,
                  provinces, index)
    paradoxes: set[int] = set()
    _, value = movement._decide(board, rules, paradoxes)
    # The solver alone: a unit that holds succeeds, an order that matches nothing fails, and
    # every other decision is the solver's.
    solved = [True] * board.n
    open_decisions = []
    for i in range(board.n):
        if board.kind[i] == HOLD:
            continue
        if not board.matched[i]:
            solved[i] = False
        else:
            open_decisions.append(i)
    solver_paradoxes: set[int] = set()
    equations = Equations(board, rules, solved.__getitem__)
    resolver = Resolver(board.n, equations.adjudicate,
                        backup_rule(board.kind, rules.convoy_paradox, solver_paradoxes),
                        settled=solved, unsettled=open_decisions)
    equations.resolve = resolver.resolve
    for i in open_decisions:
        resolver.resolve(i)
    assert value == resolver.value
    assert paradoxes == solver_paradoxes


@SETTINGS
@given(st.randoms(use_true_random=False), st.sampled_from(EDITION_NAMES))
def test_board_read_to_adjudicate_decides_as_the_board_read_to_explain(
        rnd: random.Random, edition: str) -> None:
    """The board the adjudication reads (a support aimed where nobody moves is only marked
    unmatched) settles every decision as the board read in full for the sentences does, and
    every order it reads in full is read alike."""
    rules = rules_for(edition)
    position = movement_position(rnd)
    orders = movement_orders(rnd, position)
    provinces, units, index = movement._units_of(position)
    accepted = accept_orders(position, tuple(orders), rules, index)
    followed = [o for o in accepted.unit_orders if o is not None]
    lean = Board(units, followed, TABLES, rules, provinces, index)
    full = Board(units, followed, TABLES, rules, provinces, index, explain=True)
    assert lean.kind == full.kind
    assert lean.matched == full.matched
    assert lean.matching == full.matching
    assert lean.supports == full.supports
    assert lean.opposite == full.opposite
    assert lean.route == full.route
    for i in range(lean.n):
        if lean.kind[i] == HOLD or lean.matched[i] or lean.kind[i] != SUPPORT_MOVE:
            assert (lean.target[i], lean.dest[i], lean.dest_loc[i]) == \
                (full.target[i], full.dest[i], full.dest_loc[i])
    assert movement._decide(lean, rules, set())[1] == movement._decide(full, rules, set())[1]


@SETTINGS
@given(st.randoms(use_true_random=False), st.sampled_from(EDITION_NAMES))
def test_movement_order_of_orders_does_not_matter(rnd: random.Random, edition: str) -> None:
    rules = rules_for(edition)
    position = movement_position(rnd)
    orders = movement_orders(rnd, position)
    # Keep one order per unit: with doubled orders the first counts, so order matters there.
    seen: set[str] = set()
    single = []
    for o in orders:
        if not isinstance(o, Waive) and province_of(o.location) not in seen:
            seen.add(province_of(o.location))
            single.append(o)
    first = adjudicate(position, single, rules=rules)
    shuffled = list(single)
    rnd.shuffle(shuffled)
    second = adjudicate(position, shuffled, rules=rules)
    assert summary(first) == summary(second)


@SETTINGS
@given(st.randoms(use_true_random=False), st.sampled_from(EDITION_NAMES))
def test_movement_power_names_do_not_matter(rnd: random.Random, edition: str) -> None:
    rules = rules_for(edition)
    position = movement_position(rnd)
    orders = [with_power(o, o.power) if o.power else o for o in movement_orders(rnd, position)]
    permuted = list(POWERS)
    rnd.shuffle(permuted)
    mapping = dict(zip(POWERS, permuted, strict=True))
    renamed = Position.build(
        VARIANT, position.phase,
        [replace(u, power=mapping[u.power]) for u in position.units.values()],
        {c: mapping[p] for c, p in position.centers.items()},
    )
    first = adjudicate(position, orders, rules=rules)
    second = adjudicate(renamed, [rename(o, mapping) for o in orders], rules=rules)
    assert summary(first, mapping) == summary(second)


@SETTINGS
@given(st.randoms(use_true_random=False))
def test_all_hold_changes_nothing(rnd: random.Random) -> None:
    position = movement_position(rnd)
    for orders in ([], [Hold(u.type, u.location, power=u.power) for u in position]):
        res = adjudicate(position, orders)
        assert dict(res.units) == dict(position.units)
        assert not res.dislodged and not res.standoffs
        assert all(r.result is Result.SUCCEEDS for r in res.results)


# -- retreats ----------------------------------------------------------------------------

@SETTINGS
@given(st.randoms(use_true_random=False))
def test_retreat_invariants(rnd: random.Random) -> None:
    position, _ = retreat_position(rnd)
    orders = retreat_orders(rnd, position)
    res = adjudicate(position, orders)
    assert len(res.results) == len(orders)
    assert all(u.province == p for p, u in res.units.items())
    # The units that stayed are all there; retreats only add units, to free provinces.
    for p, u in position.units.items():
        assert res.units[p] == u
    added = [u for p, u in res.units.items() if p not in position.units]
    assert len(added) <= len(position.dislodged)
    for unit in added:
        assert unit.province not in position.standoffs
    # A dislodged unit that retreats ends in one of its options.
    retreated = [r for r in res.results if isinstance(r.order, Retreat) and r.succeeded]
    assert len(retreated) == len(added)
    shuffled = list(orders)
    rnd.shuffle(shuffled)
    again = adjudicate(position, shuffled)
    assert dict(again.units) == dict(res.units)


# -- adjustments -------------------------------------------------------------------------

@SETTINGS
@given(st.randoms(use_true_random=False), st.sampled_from(EDITION_NAMES))
def test_adjustment_invariants(rnd: random.Random, edition: str) -> None:
    rules = rules_for(edition)
    position = adjustment_position(rnd)
    orders = adjustment_orders(rnd, position)
    res = adjudicate(position, orders, rules=rules)
    assert len(res.results) == len(orders)
    assert all(u.province == p for p, u in res.units.items())
    centers = Counter(position.centers.values())
    before = Counter(u.power for u in position.units.values())
    after = Counter(u.power for u in res.units.values())
    for power in POWERS:
        if before[power] > centers[power]:
            assert after[power] == centers[power]  # removals, by order or civil disorder
        else:
            assert before[power] <= after[power] <= centers[power]
    for r in res.results:
        if isinstance(r.order, Build) and r.succeeded:
            assert TABLES.home_of[province_of(r.order.location)] == r.power
            assert position.centers.get(province_of(r.order.location)) == r.power
            assert province_of(r.order.location) not in position.units
        if isinstance(r.order, Disband | Waive):
            assert r.result in (Result.SUCCEEDS, Result.VOID)


@SETTINGS
@given(st.randoms(use_true_random=False), st.sampled_from(EDITION_NAMES))
def test_adjustment_power_names_do_not_matter(rnd: random.Random, edition: str) -> None:
    rules = rules_for(edition)
    position = adjustment_position(rnd)
    # Only removals and civil disorder: builds depend on home centres, which belong to powers.
    orders = [o for o in adjustment_orders(rnd, position) if isinstance(o, Disband)]
    permuted = list(POWERS)
    rnd.shuffle(permuted)
    mapping = dict(zip(POWERS, permuted, strict=True))
    if rules.civil_disorder == "home_centers":
        mapping = {p: p for p in POWERS}
    renamed = Position.build(
        VARIANT, Phase.parse("W1901A"),
        [replace(u, power=mapping[u.power]) for u in position.units.values()],
        {c: mapping[p] for c, p in position.centers.items()},
    )
    first = adjudicate(position, orders, rules=rules)
    second = adjudicate(renamed, [rename(o, mapping) for o in orders], rules=rules)
    assert summary(first, mapping) == summary(second)


# -- legal orders ------------------------------------------------------------------------

def _checked_afresh(position: Position, order: Order) -> None:
    """The full check on a copy of a listed order (the listed object itself takes the fast
    path), and the premise of that fast path: a listed order is already in normal form."""
    fresh = copy.copy(order)
    assert fresh is not order
    assert check_order(position, fresh) is None, str(order)
    assert normalize_order(position, fresh) == order, str(order)


@SETTINGS
@given(st.randoms(use_true_random=False))
def test_legal_orders_are_legal(rnd: random.Random) -> None:
    position = movement_position(rnd)
    for power in POWERS:
        for loc, options in legal_orders(position, power).items():
            assert position.units[province_of(loc)].location == loc
            for order in options:
                _checked_afresh(position, order)
    position, _ = retreat_position(rnd)
    for power in POWERS:
        for options in legal_orders(position, power).values():
            for order in options:
                _checked_afresh(position, order)
    position = adjustment_position(rnd)
    for power in POWERS:
        for options in legal_orders(position, power).values():
            for order in options:
                _checked_afresh(position, order)


def test_dislodged_unit_type_is_kept() -> None:
    """A small fixed case: the data types round-trip through a retreat phase."""
    pos = Position.build(
        VARIANT, "S1901R", [Unit("russia", UnitType.FLEET, "ank")],
        dislodged=[DislodgedUnit(Unit("turkey", UnitType.FLEET, "ank"), "bla")],
    )
    res = adjudicate(pos, [Retreat(UnitType.FLEET, "ank", "con", power="turkey"),
                           Disband(UnitType.FLEET, "ank", power="russia")])
    assert str(res.units["con"]) == "F CON"
    assert res.results[1].result is Result.VOID
