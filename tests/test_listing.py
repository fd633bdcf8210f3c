"""The listing (:mod:`realpolitik.listing`) against the checks (:mod:`realpolitik.legality`).

Listed orders are recognised by value: an order equal to a listed one is listed, whatever
object carries it, and an object that is not equal to a listed order never passes for one. And
the listing is exactly what the checks accept, on random positions of random games."""

from __future__ import annotations

import copy
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from random_play import movement_positions

from realpolitik.adjudication import adjudicate
from realpolitik.adjudication.outcomes import Outcome, Result
from realpolitik.game import Game
from realpolitik.geography import UnitType, province_of
from realpolitik.legality import Illegal, check_order, normalize_order
from realpolitik.listing import (
    is_listed,
    listed_checker,
    listed_orders,
    movement_parts,
    unit_orders,
)
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
)
from realpolitik.position import PhaseType, Position, Unit
from realpolitik.rules import SupportCoast, rules_for
from realpolitik.slots import slot_setter
from realpolitik.variant import Variant, load_variant


def _listed(game: Game, power: str, text: str) -> Order:
    """The very object the listing gives for ``text``."""
    for orders in game.legal_orders(power).values():
        for order in orders:
            if str(order) == text:
                return order
    raise AssertionError(f"{text} is not listed for {power}")


def test_an_order_equal_to_a_listed_one_is_accepted_as_listed() -> None:
    game = Game("classical")
    listed = _listed(game, "france", "A PAR - BUR")
    built = Move(UnitType.ARMY, "par", "bur", power="france")  # made anew, equal in value
    assert built is not listed and built == listed
    assert built in listed_orders(game.position, "france", rules=game.rules)
    assert is_listed(game.position, built, game.rules)
    assert listed_checker(game.position, game.rules)(copy.copy(listed))
    report = game.submit("france", [built])
    assert report[0].ok and report[0].order == built
    game.process()  # adjudicated as listed (unchecked), and it is followed
    assert game.position.units["bur"].power == "france"


def test_a_listed_object_given_again_in_a_later_phase_is_checked_there() -> None:
    """The object listed in the spring is not legal in the autumn once its army has moved:
    nothing about the object itself makes it pass."""
    game = Game("classical")
    move = _listed(game, "france", "A PAR - BUR")
    game.submit("france", [move])
    game.process()
    assert "par" not in game.position.units
    assert move not in listed_orders(game.position, "france", rules=game.rules)
    report = game.submit("france", [move])
    assert not report[0].ok and report[0].error_kind == "illegal"
    resolution = game.process()
    (result,) = [r for r in resolution.results if r.order == move]
    assert result.result is Result.VOID and result.outcome is Outcome.ILLEGAL
    assert game.position.units["bur"].power == "france"


def test_a_forged_order_is_refused_by_submit_and_by_the_adjudicator() -> None:
    """An order object made around the constructor (as the listing makes its own) but with a
    destination the army cannot reach is not listed, though it was copied from a listed one."""
    game = Game("classical")
    listed = _listed(game, "france", "A PAR - BUR")
    forged = copy.copy(listed)
    slot_setter(Move, "destination")(forged, "mun")
    assert forged != listed
    position, rules = game.position, game.rules
    assert forged not in listed_orders(position, "france", rules=rules)
    assert not is_listed(position, forged, rules)
    assert not listed_checker(position, rules)(forged)
    report = game.submit("france", [forged])
    assert not report[0].ok and report[0].error_kind == "illegal"
    resolution = adjudicate(position, [forged], rules=rules)
    (result,) = resolution.results
    assert result.result is Result.VOID and result.illegal_reason == "not_adjacent"
    game.process()
    assert game.position.units["par"].power == "france"  # it held


def test_an_order_of_another_power_is_not_in_a_power_listing() -> None:
    game = Game("classical")
    listed = _listed(game, "france", "A PAR - BUR")
    as_german = Move(UnitType.ARMY, "par", "bur", power="germany")
    assert as_german not in listed_orders(game.position, "france", rules=game.rules)
    assert as_german not in listed_orders(game.position, "germany", rules=game.rules)
    assert listed in listed_orders(game.position, "france", rules=game.rules)
    assert "A PAR - BUR" not in listed_orders(game.position, "france", rules=game.rules)


def _two_fleet_pairs() -> Position:
    return Position.build(load_variant("classical"), "S1901M", [
        Unit("russia", UnitType.FLEET, "fin"), Unit("russia", UnitType.FLEET, "lvn"),
        Unit("france", UnitType.FLEET, "gas"), Unit("france", UnitType.FLEET, "mao")])


@pytest.mark.parametrize("edition", ["1971", "2000", "2023"])
def test_a_support_without_the_one_reachable_coast_is_read_with_it(edition: str) -> None:
    """Livonia's fleet can reach only St Petersburg's south coast, so a support of its move
    "to STP" can mean nothing else: it is read, and listed, as STP/SC."""
    position, rules = _two_fleet_pairs(), rules_for(edition)
    written = SupportMove(UnitType.FLEET, "fin", "lvn", "stp", UnitType.FLEET, power="russia")
    reading = normalize_order(position, written, rules=rules)
    assert reading == replace(written, destination="stp/sc")
    assert reading in listed_orders(position, "russia", rules=rules)


def test_a_support_without_a_coast_backs_either_coast_when_both_are_in_reach() -> None:
    position, rules = _two_fleet_pairs(), rules_for("2000")
    written = SupportMove(UnitType.FLEET, "gas", "mao", "spa", UnitType.FLEET, power="france")
    assert normalize_order(position, written, rules=rules) == written
    listed = listed_orders(position, "france", rules=rules)
    assert replace(written, destination="spa/nc") in listed
    assert replace(written, destination="spa/sc") in listed


def test_a_support_must_name_the_coast_where_the_rules_say_so() -> None:
    position = _two_fleet_pairs()
    rules = replace(rules_for("2000"), support_coast=SupportCoast.REQUIRED)
    written = SupportMove(UnitType.FLEET, "fin", "lvn", "stp", UnitType.FLEET, power="russia")
    reading = normalize_order(position, written, rules=rules)
    assert isinstance(reading, Illegal) and reading.code == "coast_needed"


# -- listing == checking, on random positions of random games ----------------------------------

_EDITIONS = ["1971", "1982", "2000", "2023", "dptg"]


def _random_position(seed: int, phases: int, edition: str) -> Game:
    """A game after ``phases`` phases of seeded random play from the listings."""
    game = Game("classical", rules=edition, seed=seed)
    rng = random.Random(seed)
    for _ in range(phases):
        if game.is_over:
            break
        for power in game.powers_to_order():
            choice = []
            for options in game.legal_orders(power).values():
                choice.append(options[rng.randrange(len(options))])
            game.submit(power, choice)
        game.process()
    return game


def _random_order(data: st.DataObject, game: Game, power: str) -> Order:
    """An order ``power`` might write: for one of its units, or anyone's, or anywhere; to a
    place next door (any coast) or anywhere on the map."""
    position = game.position
    tables = tables_for(position.variant)
    places = sorted(tables.location_index)
    units = [u for u in position.units.values()]
    mine = [u.location for u in position.units_of(power)]
    mine += [d.unit.location for d in position.dislodged_of(power)]

    def place(near: str | None = None) -> str:
        if near is not None and data.draw(st.booleans()):
            around = sorted(tables.fleet_adj.get(near, frozenset())
                            | tables.army_adj.get(province_of(near), frozenset()))
            if around:
                return data.draw(st.sampled_from(around))
        return data.draw(st.sampled_from(places))

    where = data.draw(st.sampled_from(mine)) if mine and data.draw(st.booleans()) else place()
    utype = data.draw(st.sampled_from([UnitType.ARMY, UnitType.FLEET]))
    other = data.draw(st.sampled_from(units)) if units else None
    kind = position.phase.type
    if kind is PhaseType.MOVEMENT:
        pick = data.draw(st.integers(0, 4))
        if pick == 0:
            return Hold(utype, where, power=power)
        if pick == 1:
            return Move(utype, where, place(where), via_convoy=data.draw(st.booleans()),
                        power=power)
        if pick == 2 and other is not None:
            return SupportHold(utype, where, other.location, other.type, power=power)
        if pick == 3 and other is not None:
            return SupportMove(utype, where, other.location, place(other.location),
                               other.type, power=power)
        army = other.location if other is not None else place()
        return Convoy(utype, where, army, place(), power=power)
    if kind is PhaseType.RETREATS:
        if data.draw(st.booleans()):
            return Disband(utype, where, power=power)
        return Retreat(utype, where, place(where), power=power)
    pick = data.draw(st.integers(0, 2))
    if pick == 0:
        return Waive(power)
    if pick == 1:
        return Disband(utype, where, power=power)
    return Build(utype, place(), power=power)


def _as_listed(order: Order, position: Position) -> Order:
    """``order`` as the listing writes it: a move by convoy to a province the army cannot
    reach by land is listed without VIA (it can only go by convoy), while the checks take it
    with or without; every other legal order is listed as the rules read it."""
    if isinstance(order, Move) and order.via_convoy and order.unit_type is UnitType.ARMY:
        by_land = tables_for(position.variant).army_adj.get(province_of(order.location), ())
        if order.destination not in by_land:
            return replace(order, via_convoy=False)
    return order


def _backs_either_coast(order: Order, position: Position) -> bool:
    """A support of a fleet's move into a split-coast province, written without a coast where
    the fleet could reach two of them: legal (4.B.4 optional), but not one of the listed
    orders, which name each coast."""
    if not isinstance(order, SupportMove) or order.supported_type is not UnitType.FLEET:
        return False
    tables = tables_for(position.variant)
    return order.destination in tables.coasts and len(
        [c for c in tables.coasts[order.destination]
         if c in tables.fleet_adj.get(order.supported_location, ())]) > 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), phases=st.integers(0, 14),
       edition=st.sampled_from(_EDITIONS), data=st.data())
def test_the_listing_is_what_the_checks_accept(seed: int, phases: int, edition: str,
                                               data: st.DataObject) -> None:
    """Every listed order passes the full check unchanged; an order the check accepts is
    listed once the rules have read it (coasts settled, unit type taken from the unit); and
    an order the check refuses is not listed."""
    game = _random_position(seed, phases, edition)
    if game.is_over:
        return
    position, rules = game.position, game.rules
    event(f"phase: {position.phase.type.name.lower()}")
    for power in game.variant.power_ids:
        listed = listed_orders(position, power, rules=rules)
        for orders in listed.by_location.values():
            for order in orders:
                assert check_order(position, copy.copy(order), rules=rules) is None, str(order)
                assert normalize_order(position, copy.copy(order), rules=rules) == order
        for _ in range(12):
            order = _random_order(data, game, power)
            reading = normalize_order(position, order, rules=rules)
            event("a random order refused" if isinstance(reading, Illegal)
                  else "a random order accepted")
            if isinstance(reading, Illegal):
                assert order not in listed, (str(order), reading)
                assert check_order(position, order, rules=rules) == reading.as_tuple()
            else:
                if _backs_either_coast(reading, position):
                    # accepted, but listed once per coast (the listing names every coast)
                    event("a support without a coast, two coasts in reach")
                else:
                    assert _as_listed(reading, position) in listed, (str(order), str(reading))
                assert check_order(position, order, rules=rules) is None


def _listings_of_a_game(variant: Variant, seed: int, until: int,
                        ) -> list[dict[str, dict[str, tuple[Order, ...]]]]:
    """Every power's listing in each phase of a seeded random game."""
    game = Game(variant, rules="2000", seed=seed)
    rng = random.Random(seed)
    seen = []
    while not game.is_over and game.phase.year <= until:
        listings = {power: dict(game.legal_orders(power)) for power in game.powers_to_order()}
        seen.append(listings)
        for power, by_location in listings.items():
            game.submit(power, [options[rng.randrange(len(options))]
                                for options in by_location.values()])
        game.process()
    return seen


def test_convoy_listings_made_again_after_their_answers_are_dropped_are_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A fleet's convoys and the supports it leaves out are kept under the serial numbers of
    the convoy answers they were made from: with room for only two answers and two kept parts
    per unit, every answer is dropped and numbered anew all the time, and every listing of a
    game is still the same, order for order and in the same order."""
    from realpolitik import listing

    roomy = _listings_of_a_game(load_variant("classical"), 11, 1912)
    monkeypatch.setattr(listing, "_MAX_HEADS", 2)
    monkeypatch.setattr(listing, "_MAX_CONVOY_ANSWERS", 2)
    cramped_variant = load_variant("classical")  # (loaded anew: nothing listed is kept)
    cramped = _listings_of_a_game(cramped_variant, 11, 1912)
    assert cramped == roomy
    answers = listing._convoy_answers(cramped_variant)
    assert len(answers.answers) <= 2 < answers.made  # answers were dropped and numbered anew


def test_every_power_is_listed_in_one_pass_and_each_listing_stands_alone() -> None:
    """The movement listing is made for every power at once; each power's listing holds its
    own units' locations only, and a power without units has an empty listing."""
    game = Game("classical", rules="2000", seed=2)
    position = game.position
    for power in game.variant.power_ids:
        listed = listed_orders(position, power, rules=game.rules).by_location
        assert set(listed) == {unit.location for unit in position.units_of(power)}
        assert all(order.power == power for orders in listed.values() for order in orders)
    assert dict(listed_orders(position, "nobody", rules=game.rules).by_location) == {}


def test_neutral_units_are_listed_when_asked_for() -> None:
    """The units of no power (Colonial Winters' neutral units) are left out of the one pass
    that lists the powers, and listed on their own when asked for, as the checks accept."""
    game = Game("colonial_winters", rules="2000", seed=1)
    position = game.position
    neutral = {unit.location for unit in position.units.values()
               if unit.power not in game.variant.power_ids}
    owner = next(unit.power for unit in position.units.values()
                 if unit.power not in game.variant.power_ids)
    assert neutral
    listed = listed_orders(position, owner, rules=game.rules).by_location
    assert set(listed) == neutral
    for orders in listed.values():
        assert any(isinstance(order, Hold) for order in orders)
        for order in orders:
            assert check_order(position, copy.copy(order), rules=game.rules) is None, str(order)


@pytest.mark.parametrize(("variant_name", "seed", "until"), [
    ("classical", 3, 1925), ("classical", 8, 1925), ("colonial_winters", 2, 1878)])
def test_the_convoy_plan_on_masks_joins_the_fleets_as_the_map_tables_do(
        variant_name: str, seed: int, until: int) -> None:
    """The convoy plan works out the fleets that may convoy, the seas next to each army and
    the groups of fleets joined to them on masks of provinces: each army it plans for has the
    group :meth:`MapTables.fleet_groups` gives by name, its reach by convoy is the map's
    answer for that group, and no army the names would plan for is missed."""
    from realpolitik import listing

    variant = load_variant(variant_name)
    tables = tables_for(variant)
    numbered = listing._unit_places(variant)
    planned = 0
    for position in movement_positions(variant, seed, until):
        units = list(position.units.values())
        codes = [numbered.code[unit.type, unit.location] for unit in units]
        plan = listing._plan_convoys(variant, codes, numbered)
        fleets = frozenset(unit.province for unit in units if unit.type is UnitType.FLEET
                           and unit.province in tables.convoy_spaces)
        group_of = tables.fleet_groups(fleets)
        expected: dict[str, frozenset[str]] = {}
        groups: dict[str, frozenset[str]] = {}
        for unit in units:
            if unit.type is not UnitType.ARMY or unit.location not in tables.shores:
                continue
            seas = tables.shore_convoy_spaces[unit.location] & fleets
            if not seas:
                continue
            group = frozenset().union(*(group_of[sea] for sea in seas))
            reach = tables.convoy_reach(unit.location, group)[0]
            if reach:
                expected[unit.location] = reach
                groups[unit.location] = group
        names = numbered.names
        entries = [] if plan is None else [
            (names[prov_id], entry) for prov_id, entry in enumerate(plan.at) if entry is not None]
        got = {prov: entry.reach for prov, entry in entries
               if isinstance(entry, listing._ConvoyAnswer)}
        assert got == expected, str(position.phase)
        # (the answer of each army, most often the one it was given last, is for its group)
        assert {prov: entry.group for prov, entry in entries
                if isinstance(entry, listing._ConvoyAnswer)} == groups, str(position.phase)
        for _, entry in entries:
            if isinstance(entry, listing._FleetSources):
                for answer in entry.answers:
                    army, group = answer.origin, answer.group
                    seas = tables.shore_convoy_spaces[army] & fleets
                    assert group == frozenset().union(*(group_of[sea] for sea in seas))
                    assert got[army] is answer.reach
        planned += len(got)
    assert planned  # (the games had armies to convoy)


def test_asking_one_power_in_a_movement_phase_lists_every_power_alike() -> None:
    """The first power asked for in a movement phase gives every power of the variant its
    listed orders at once, each what listing that power alone gives, in the same order; a
    power without units gets an empty listing."""
    from realpolitik import listing

    game = Game("classical", rules="2000", seed=5)
    rng = random.Random(5)
    # into the game, to a movement phase where some power has lost its units
    while len(game.position.units_by_power()) == len(game.variant.power_ids) \
            or game.position.phase.type is not PhaseType.MOVEMENT:
        for power in game.powers_to_order():
            game.submit(power, [options[rng.randrange(len(options))]
                                for options in game.legal_orders(power).values()])
        game.process()
    position = copy.copy(game.position)  # (nothing listed in it yet)
    assert not listing._listings(position)
    first = game.variant.power_ids[-1]
    listed_orders(position, first, rules=game.rules)
    kept = dict(listing._listings(position).items())
    assert {power for power, _ in kept} == set(game.variant.power_ids)
    for power in game.variant.power_ids:
        alone = listing._list_movement(position, frozenset((power,))).get(power, {})
        by_location = listed_orders(position, power, rules=game.rules).by_location
        assert list(by_location.items()) == list(alone.items())
        assert kept[power, game.rules].power == power
    assert any(not listed_orders(position, power, rules=game.rules).by_location
               for power in game.variant.power_ids)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), phases=st.integers(0, 14), data=st.data())
def test_a_listing_made_in_parts_lists_and_holds_what_the_orders_do(
        seed: int, phases: int, data: st.DataObject) -> None:
    """A movement listing asked for in parts (:func:`movement_parts`, the facade's way: no
    order made until asked for) holds exactly the orders the listing of orders holds: the same
    orders in the same order once made, each unit's parts assembling its orders, and the same
    answer for every listed order, a copy of it, and random orders (supports by their key)."""
    game = _random_position(seed, phases, "2000")
    if game.is_over or game.position.phase.type is not PhaseType.MOVEMENT:
        return
    rules = game.rules
    by_orders = copy.copy(game.position)  # (positions with nothing listed in them yet)
    by_parts = copy.copy(game.position)
    parts = movement_parts(by_parts)
    assert parts is not None
    for power in game.variant.power_ids:
        expected = listed_orders(by_orders, power, rules=rules)
        found = listed_orders(by_parts, power, rules=rules)
        listed = [order for orders in expected.by_location.values() for order in orders]
        tries = [*listed, *map(copy.copy, listed),
                 *(_random_order(data, game, power) for _ in range(30))]
        for order in tries:  # (before its orders are made, then after)
            assert found.holds(order) == expected.holds(order), str(order)
        units = parts.get(power, {})
        assert list(units) == list(expected.by_location)
        assert {location: unit_orders(unit) for location, unit in units.items()} == \
            dict(expected.by_location)
        assert list(found.by_location.items()) == list(expected.by_location.items())
        for order in tries:
            assert found.holds(order) == expected.holds(order), str(order)


def test_a_listing_asked_in_parts_after_its_orders_is_the_same() -> None:
    """Parts asked for once the orders are listed are made again, and assemble those orders;
    the listed orders stay the ones made first."""
    game = Game("classical", rules="2000", seed=3)
    position = game.position
    made = {power: game.legal_orders(power) for power in game.variant.power_ids}
    parts = movement_parts(position)
    assert parts is not None
    for power, by_location in made.items():
        assert {loc: unit_orders(unit) for loc, unit in parts[power].items()} == dict(by_location)
        assert game.legal_orders(power) is by_location


def test_a_variant_with_orders_of_its_own_kinds_is_not_listed_in_parts() -> None:
    """Colonial Winters adds orders of its own kinds to the movement listing: it is not made of
    parts alone, so :func:`movement_parts` says so (None) and the orders are listed as ever."""
    game = Game("colonial_winters")
    position = copy.copy(game.position)
    assert movement_parts(position) is None
    for power in game.variant.power_ids:
        assert dict(listed_orders(position, power, rules=game.rules).by_location) == \
            dict(game.legal_orders(power))


@pytest.mark.parametrize(("variant_name", "seed", "until"), [
    ("classical", 3, 1920), ("classical", 8, 1920), ("colonial_winters", 2, 1874)])
def test_both_idioms_of_the_supports_list_the_same_orders(
        monkeypatch: pytest.MonkeyPatch, variant_name: str, seed: int, until: int) -> None:
    """The listing gathers a unit's supports by the idiom its build runs fastest (compiled,
    typed loops over the keys by province, :func:`listing._with_supports`; interpreted, a
    pipeline over the keys joined first): both give every power the same orders in every
    movement phase, order for order and in the same order, and the same as its units'
    parts assemble (:func:`unit_orders`, the pipeline) where the listing is made of parts.
    (Compiled, the module reads its own flag, whatever is set here: the typed loops are then
    checked against the parts.)"""
    from realpolitik import listing

    variant = load_variant(variant_name)
    checked = 0
    for seen in movement_positions(variant, seed, until):
        by_idiom = []
        for typed_loops in (False, True):
            monkeypatch.setattr(listing, "_TYPED_LOOPS", typed_loops)
            # (listed afresh: the position's listing is kept, for every equal position too)
            listed = listing._list_movement(seen, frozenset(variant.power_ids))
            by_idiom.append({power: listed.get(power, {}) for power in variant.power_ids})
        assert by_idiom[0] == by_idiom[1], str(seen.phase)
        parts = movement_parts(copy.copy(seen))
        for power, listed in by_idiom[1].items():
            assembled = {} if parts is None else {
                loc: unit_orders(unit) for loc, unit in (parts.get(power) or {}).items()}
            assert parts is None or listed == assembled, (str(seen.phase), power)
            for loc, orders in listed.items():
                assert list(map(type, orders)) == list(map(type, by_idiom[0][power][loc]))
            checked += len(listed)
    assert checked


@pytest.mark.parametrize(("variant_name", "seed", "until"), [
    ("classical", 5, 1906), ("colonial_winters", 4, 1872)])
def test_listed_orders_are_the_values_their_constructors_make(
        variant_name: str, seed: int, until: int) -> None:
    """The listing makes its orders without their constructors (``orders.made_*``: slot setters
    interpreted, the native fields written directly where ``orders.py`` is compiled): every
    order listed in a seeded game, of every kind, is equal to the one its class's constructor
    makes from its fields, hashes alike, reads alike and has every field set."""
    from dataclasses import fields

    kinds: set[type] = set()
    for listings in _listings_of_a_game(load_variant(variant_name), seed, until):
        for by_location in listings.values():
            for orders in by_location.values():
                for order in orders:
                    values = {f.name: getattr(order, f.name) for f in fields(order)}
                    again = type(order)(**values)
                    assert order == again and again == order, repr(order)
                    assert hash(order) == hash(again), repr(order)
                    assert (str(order), repr(order)) == (str(again), repr(again))
                    kinds.add(type(order))
    assert {Hold, Move, SupportHold, SupportMove, Convoy} <= kinds


def test_listings_are_kept_per_rules_and_found_by_equal_rules() -> None:
    """A position's listings are kept per rules (:class:`listing._Listings`): those of the
    first rules asked by power, found again under that object or an equal one, and those of
    other rules (here: waiving builds forbidden) apart, each listing what its rules allow."""
    from realpolitik import listing

    game = Game("classical", rules="2000", seed=3)
    rng = random.Random(3)
    while not (game.position.phase.type is PhaseType.ADJUSTMENTS and any(
            "waive" in game.legal_orders(power) for power in game.powers_to_order())):
        for power in game.powers_to_order():
            game.submit(power, [options[rng.randrange(len(options))]
                                for options in game.legal_orders(power).values()])
        game.process()
    position = copy.copy(game.position)  # (nothing listed in it yet)
    builder = next(power for power in game.powers_to_order()
                   if "waive" in game.legal_orders(power))
    allowed, forbidden = rules_for("2000"), rules_for("2000", {"4.D.7": "forbidden"})
    first = listed_orders(position, builder, rules=allowed)
    assert "waive" in first.by_location
    assert listed_orders(position, builder, rules=allowed) is first
    assert listed_orders(position, builder, rules=rules_for("2000")) is first  # (equal rules)
    other = listed_orders(position, builder, rules=forbidden)
    assert other is not first and "waive" not in other.by_location
    assert {key for key, _ in listing._listings(position).items()} == {
        (builder, allowed), (builder, forbidden)}
    waive = first.by_location["waive"][0]
    assert is_listed(position, waive, allowed) and not is_listed(position, waive, forbidden)
