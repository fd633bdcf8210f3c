"""The winter of orders vouched for as legal, each power within its count
(``adjustments._within_counts``), gives the resolution of the orders carried out one by one:
the same board, civil-disorder removals and results, for orders within the counts and for
orders beyond them (more builds or removals than due, a place built twice, waives)."""

from __future__ import annotations

import random
from itertools import islice

import pytest
from random_play import playing

from realpolitik.adjudication import adjudicate, adjustments
from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.legality import adjustment_counts
from realpolitik.listing import legal_orders
from realpolitik.orders import Build, Disband, Order, Waive
from realpolitik.position import PhaseType, Position
from realpolitik.rules import EDITIONS, Rules, rules_for
from realpolitik.variant import load_variant

VARIANT = load_variant("classical")


def _winters(seed: int, count: int) -> list[Position]:
    """The first ``count`` winters of a game of random legal orders."""
    return list(islice((game.position for game in playing(seed, years=20)
                        if game.phase.type is PhaseType.ADJUSTMENTS), count))


def _orders(position: Position, rules: Rules, rng: random.Random) -> list[Order]:
    """Listed orders of every power: some within its count, some beyond it, in any order."""
    orders: list[Order] = []
    for power in VARIANT.power_ids:
        listed = [o for options in legal_orders(position, power, rules=rules).values()
                  for o in options]
        if not listed:
            continue
        due = abs(adjustment_counts(position).get(power, 0))
        take = rng.choice([0, max(0, due - 1), due, due, due + 1, len(listed)])
        orders += rng.sample(listed, min(take, len(listed)))
        if listed and rng.random() < 0.1:
            orders.append(rng.choice(listed))  # an order given twice
    rng.shuffle(orders)
    return orders


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_within_counts_is_one_by_one(edition: str) -> None:
    rules = rules_for(edition)
    rng = random.Random(edition)
    taken = 0
    for seed in range(3):
        for winter in _winters(seed, 6):
            for _ in range(8):
                orders = tuple(_orders(winter, rules, rng))
                counts = adjustment_counts(winter)
                fast = adjustments._within_counts(winter, orders, rules, counts)
                general = adjustments._adjudicate_one_by_one(winter, orders, rules, True,
                                                            counts)
                checked = adjudicate(winter, orders, rules=rules)
                vouched = adjudicate(winter, orders, rules=rules, checked=True)
                for resolution in (general, vouched) if fast is None else (fast, vouched):
                    assert resolution == checked
                    assert list(resolution.units) == list(checked.units)
                    assert resolution.civil_disorder == checked.civil_disorder
                taken += fast is not None
    assert taken  # (the orders within the counts were met)


def _winter(missing: tuple[str, ...] = (), extra: tuple[str, ...] = ()) -> Position:
    """Winter 1901 from the start, less the units at ``missing``, France owning ``extra``."""
    start = Game(VARIANT).position
    units = [u for p, u in start.units.items() if p not in missing]
    return Position.build(VARIANT, "W1901A", units, dict(start.centers, **dict.fromkeys(
        extra, "france")))


_ARMY, _FLEET = UnitType.ARMY, UnitType.FLEET


@pytest.mark.parametrize(("winter", "orders"), [
    # nothing due: a removal, a build, a waive (vouched for, wrongly)
    (_winter(), (Disband(_ARMY, "par", power="france"),)),
    (_winter(("par",)), (Disband(_ARMY, "mar", power="france"),)),
    (_winter(), (Build(_ARMY, "par", power="france"),)),
    (_winter(), (Waive(power="france"),)),
    # a build due, with a removal, or built twice, or given with no power
    (_winter(("par",)), (Build(_ARMY, "par", power="france"),
                         Disband(_ARMY, "mar", power="france"))),
    (_winter(("par",)), (Build(_ARMY, "par", power="france"),
                         Build(_ARMY, "par", power="france"))),
    (_winter(("par",)), (Build(_ARMY, "par"),)),
    # removals due: one given twice, a waive, too many, too few
    (_winter(extra=("spa", "por")), (Waive(power="france"),)),
    (_winter(("par", "mar"), ("spa", "por")), (Build(_ARMY, "par", power="france"),
                                               Build(_ARMY, "mar", power="france"),
                                               Waive(power="france"))),
], ids=lambda value: str(value) if isinstance(value, tuple) else "")
def test_orders_not_within_counts_are_carried_out_one_by_one(
        winter: Position, orders: tuple[Order, ...]) -> None:
    for edition in sorted(EDITIONS):
        rules = rules_for(edition)
        counts = adjustment_counts(winter)
        general = adjustments._adjudicate_one_by_one(winter, orders, rules, True, counts)
        vouched = adjudicate(winter, orders, rules=rules, checked=True)
        assert vouched == general
        assert list(vouched.units) == list(general.units)
        assert vouched.civil_disorder == general.civil_disorder
