"""Two shortcuts of the listing against the paths they replace.

- :class:`realpolitik.legality._WinterDefaults` answers a power's build sites, the unit types
  its limits leave it and the type it removes first once per variant where the hooks keep the
  default: checked against the hooks themselves, power by power, on variants whose hooks keep
  the defaults and on ones with unit limits, builds anywhere and rules of their own.
- :meth:`realpolitik.listing.ListedOrders.holds` looks for the listed object by a typed loop
  where the module is compiled, by the C pipeline where it is not: both idioms (the flag set
  each way, which the pure build obeys) must accept the listed objects and equal copies of
  them, and refuse what is not listed, through a seeded game's phases.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from realpolitik import legality, listing
from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.orders import Hold, Move
from realpolitik.variant import load_variant

VARIANTS = Path(__file__).parent / "variants"


@pytest.mark.parametrize("name", ["classical", "colonial_winters", VARIANTS / "miniworld",
                                  VARIANTS / "build_anywhere", VARIANTS / "colonies"],
                         ids=["classical", "colonial_winters", "miniworld", "build_anywhere",
                              "colonies"])
def test_the_winter_defaults_answer_what_the_hooks_do(name: str | Path) -> None:
    variant = load_variant(name)
    game = Game(variant, seed=5)
    rng = random.Random(5)
    hooks = variant.hooks
    asked = 0
    while not game.is_over and game.phase.year <= 1904:
        position = game.position
        defaults = legality._winter_defaults(variant)  # noqa: SLF001
        for power in variant.power_ids:
            assert defaults.build_sites(position, power) == hooks.build_sites(position, power)
            assert defaults.allowed_types(position, power) == legality._allowed_types(  # noqa: SLF001
                position, power, hooks)
            assert legality.winter_removal_first(position, power) == hooks.removal_first(
                position, power)
            asked += 1
        for power in game.powers_to_order():
            listed = game.legal_orders(power)
            game.submit(power, [rng.choice(orders) for orders in listed.values() if orders])
        game.process()
    assert asked > 0


@pytest.mark.parametrize("typed_loops", [False, True])
def test_both_idioms_of_holds_accept_listed_and_equal_orders(
        monkeypatch: pytest.MonkeyPatch, typed_loops: bool) -> None:
    monkeypatch.setattr(listing, "_TYPED_LOOPS", typed_loops)
    game = Game("classical", rules="2000", seed=3)
    rng = random.Random(3)
    checked = 0
    while not game.is_over and game.phase.year <= 1903:
        for power in game.powers_to_order():
            listed = listing.listed_orders(game.position, power)
            for orders in listed.by_location.values():
                for order in orders:
                    assert listed.holds(order)
                    assert listed.holds(replace(order))  # an equal value, another object
                    checked += 1
                    if isinstance(order, (Hold, Move)):  # a unit of the other type: not listed
                        other = (UnitType.FLEET if order.unit_type is UnitType.ARMY
                                 else UnitType.ARMY)
                        assert not listed.holds(replace(order, unit_type=other))
            game.submit(power, [rng.choice(orders) for orders in listed.by_location.values()
                                if orders])
        game.process()
    assert checked > 1000
