"""The caches that make the engine fast must not change what it computes.

Legal orders are computed once per position and kept in ``position.caches``; an order equal to
one ``legal_orders`` listed skips the legality check in ``submit`` and in the adjudicator. These
tests check the cached answers against fresh computations over seeded random games.
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace

from realpolitik.game import Game
from realpolitik.legality import check_order, normalize_order
from realpolitik.listing import _legal_orders, is_listed, legal_orders, listed_checker
from realpolitik.orders import Waive
from realpolitik.position import Position


def _random_game_positions(seed: int, until: int) -> list[tuple[Game, Position]]:
    game = Game("classical", rules="2000", seed=seed)
    rng = random.Random(seed)
    seen: list[tuple[Game, Position]] = []
    while not game.is_over and game.phase.year <= until:
        seen.append((game, game.position))
        for power in game.powers_to_order():
            options = [o for opts in game.legal_orders(power).values() for o in opts]
            game.submit(power, [rng.choice(options)] if options else [])
        game.process()
    return seen


def test_cached_legal_orders_equal_fresh_ones() -> None:
    for game, position in _random_game_positions(1, 1904):
        for power in game.variant.power_ids:
            cached = legal_orders(position, power, rules=game.rules)
            assert cached is legal_orders(position, power, rules=game.rules)
            fresh = Position(position.variant, position.phase, position.units,
                             position.centers, position.dislodged, position.standoffs)
            assert dict(_legal_orders(fresh, power, game.rules)) == dict(cached)


def test_listed_orders_pass_the_full_check_unchanged() -> None:
    for game, position in _random_game_positions(2, 1904):
        for power in game.powers_to_order():
            for orders in legal_orders(position, power, rules=game.rules).values():
                for order in orders:
                    fresh = copy.copy(order)
                    assert check_order(position, fresh, rules=game.rules) is None
                    assert normalize_order(position, fresh, rules=game.rules) == order
                    # made without __init__: every field as the constructor would set it
                    built = replace(order)
                    assert built == order and hash(built) == hash(order)
                    assert repr(built) == repr(order) and str(built) == str(order)


def test_caches_are_not_part_of_the_value() -> None:
    game = Game()
    position = game.position
    twin = Position(position.variant, position.phase, position.units, position.centers)
    legal_orders(position, "france")
    assert len(position.caches) and not len(twin.caches)
    assert position == twin and hash(position) == hash(twin)


def test_listed_checker_knows_the_listed_orders_by_value() -> None:
    for game, position in _random_game_positions(3, 1903):
        for power in game.powers_to_order():
            legal_orders(position, power, rules=game.rules)
        listed = listed_checker(position, game.rules)
        for power in game.powers_to_order():
            for orders in legal_orders(position, power, rules=game.rules).values():
                for order in orders:
                    assert listed(order)
                    assert is_listed(position, order, game.rules)
                    twin = copy.copy(order)  # equal, but not the object listed
                    assert listed(twin)
                    assert is_listed(position, twin, game.rules)
                    if order.power is not None and not isinstance(order, Waive):
                        # the same order given by another power is not that power's
                        other = next(p for p in game.variant.power_ids if p != power)
                        assert not listed(replace(order, power=other))


def test_adjudicating_listed_orders_unchecked_changes_nothing() -> None:
    """``adjudicate(..., checked=True)``, which Game uses for listed orders, gives the same
    resolution as checking every order again."""
    from realpolitik.adjudication import adjudicate

    game = Game("classical", rules="2000", seed=5)
    rng = random.Random(5)
    compared = 0
    while not game.is_over and game.phase.year <= 1908:
        position = game.position
        orders = []
        for power in game.powers_to_order():
            for options in game.legal_orders(power).values():
                orders.append(rng.choice(options))
        if rng.random() < 0.3 and orders:
            orders.append(orders[0])  # a duplicate order: still handled when unchecked
        fast = adjudicate(position, orders, rules=game.rules, checked=True)
        full = adjudicate(position, orders, rules=game.rules)
        assert [(r.order, r.power, r.result, r.outcome, r.reason, r.by)
                for r in fast.results] == [(r.order, r.power, r.result, r.outcome, r.reason,
                                            r.by) for r in full.results]
        assert fast.units == full.units and fast.dislodged == full.dislodged
        assert fast.standoffs == full.standoffs
        compared += 1
        game.play({p: [o for o in orders if o.power == p] for p in game.powers_to_order()})
    assert compared > 15


def test_orders_put_back_from_a_record_are_checked_again() -> None:
    """Restored orders skip submit's check, so the adjudicator must check them: an illegal
    order recorded as fine is still void."""
    from realpolitik.game import SubmittedOrder
    from realpolitik.geography import UnitType
    from realpolitik.orders import Move

    game = Game("classical", rules="2000")
    bad = Move(UnitType.ARMY, "par", "lon", power="france")  # not adjacent, not convoyed
    game.restore_orders("france", [SubmittedOrder("A PAR - LON", bad)])
    result = game.process().results[0]
    assert result.outcome.value == "illegal"
    assert game.position.units["par"].location == "par"


def test_resolution_made_lazily_is_a_plain_immutable_value() -> None:
    """A movement phase's results are made when first read; the resolution still compares,
    hashes, pickles and refuses changes like the frozen value it stands for."""
    import pickle
    from dataclasses import FrozenInstanceError

    import pytest

    from realpolitik.adjudication import adjudicate
    from realpolitik.adjudication.outcomes import Resolution

    game = Game("classical", rules="2000")
    position = game.position
    orders = [o for p in game.powers_to_order() for o in
              (options[-1] for options in game.legal_orders(p).values())]
    first = adjudicate(position, orders, rules=game.rules)
    second = adjudicate(position, orders, rules=game.rules)
    assert first == second and hash(first) == hash(second)
    assert len(first.results) == len(orders)
    assert [r.order for r in first.results] == orders
    eager = Resolution(first.phase, tuple(first.results), first.units, first.dislodged,
                       first.retreat_options, first.standoffs)
    assert eager == first and repr(eager) == repr(first)
    copied = pickle.loads(pickle.dumps(first))
    assert copied == first and copied.results[0].reason == first.results[0].reason
    with pytest.raises(FrozenInstanceError):
        first.phase = position.phase  # type: ignore[misc]
    different = adjudicate(position, orders[1:], rules=game.rules)
    assert different != first


def test_orders_submitted_as_listed_values_are_recorded_as_the_constructor_would() -> None:
    """submit() makes the entry of a listed order without writing the order out (its text is
    made when first read): it must equal, hash, show, pickle and refuse changes as the entry
    the constructor makes with the text, in the next game too, and for an equal copy."""
    import pickle

    import pytest

    from realpolitik.game import SubmittedOrder

    game = Game("classical", rules="2000")
    again = Game(game.variant, rules="2000")
    for power in game.powers_to_order():
        orders = [options[-1] for options in game.legal_orders(power).values()]
        for entry, order in zip(game.submit(power, orders), orders, strict=True):
            plain = SubmittedOrder(str(order), order)
            assert entry == plain and hash(entry) == hash(plain)
            assert repr(entry) == repr(plain) and entry.ok and entry.order is order
            assert pickle.loads(pickle.dumps(entry)) == plain
            with pytest.raises(AttributeError):
                entry.text = "changed"  # type: ignore[misc]
            assert entry.text == str(order)
        listed_again = [options[-1] for options in again.legal_orders(power).values()]
        assert listed_again == orders
        shared = again.submit(power, listed_again)
        assert [e.order for e in shared] == listed_again
        copies = [copy.copy(order) for order in orders]
        fresh = again.submit(power, copies)
        assert [e.order for e in fresh] == copies and all(e.ok for e in fresh)
        assert list(fresh) == list(shared)
        assert [e.text for e in fresh] == [str(order) for order in orders]
        assert again.orders_of(power) == fresh


def test_convoy_searches_skip_the_filtering_they_no_longer_do() -> None:
    """convoy_reachable and minimal_routes take every fleet's province as it comes (land ones
    included) and may leave one sea out: the answers equal those of the filtered sets."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from realpolitik.maptables import tables_for
    from realpolitik.variant import load_variant

    tables = tables_for(load_variant("classical"))
    seas = sorted(tables.sea)
    coastal = sorted(tables.coastal)

    @settings(max_examples=150, deadline=None)
    @given(st.sets(st.sampled_from(seas)), st.sets(st.sampled_from(coastal), max_size=4),
           st.sampled_from(coastal), st.sampled_from(["", *seas]))
    def check(fleets: set[str], land: set[str], origin: str, without: str) -> None:
        mixed = frozenset(fleets | land)
        spared = frozenset(fleets - {without})
        assert tables.convoy_reachable(origin, mixed, without) == \
            tables.convoy_reachable(origin, sorted(spared))
        assert tables.minimal_routes(origin, mixed) == tables.minimal_routes(origin, fleets)

    check()


def _centers_counted_walk(calendar: object, before: object, after: object) -> bool:
    """Calendar.centers_counted as a plain walk through the phases (the reading it must keep)."""
    from realpolitik.calendar import Calendar, Phase

    assert isinstance(calendar, Calendar) and isinstance(before, Phase)
    phase = before
    for _ in range(2 * calendar.phases_per_year + 1):
        if phase == after:
            return False
        if calendar.ends_count(phase):
            return True
        phase = calendar.after(phase)
    return False


def test_calendar_walks_give_the_phases_the_constructor_makes() -> None:
    """Calendar.after makes its phases without Phase's __init__, and centers_counted counts
    slots instead of walking: the answers equal the plain ones, for every calendar of the
    classical map and the test variants with other years."""
    from pathlib import Path

    from realpolitik.calendar import CLASSICAL_CALENDAR, Phase
    from realpolitik.variant import load_variant

    folders = Path(__file__).parent / "variants"
    calendars = [CLASSICAL_CALENDAR] + [load_variant(folders / name).calendar
                                        for name in ("summer", "summer_truce", "spring_builds")]
    for calendar in calendars:
        phases = [phase for year in (1901, 1902, 1903) for phase in calendar.year_of(year)]
        for phase in phases:
            made = calendar.after(phase)
            plain = Phase(str(made.season), made.year, made.type)
            assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
            assert type(made.season) is type(plain.season)
            for other in phases:
                assert calendar.centers_counted(phase, other) == \
                    _centers_counted_walk(calendar, phase, other), (phase, other)
