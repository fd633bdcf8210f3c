"""``Game.submit`` of order values: the compiled build's path (``Game._given_values``, a native
loop and the entries made by the constructor) gives what the interpreted build's inline path
gives (``all(map(...))`` and ``map`` over the listed entry's ``partial``), on the positions of
played games, for orders all listed, equal copies of listed ones, orders given without their
power and orders that are not legal."""

from __future__ import annotations

import random
from dataclasses import replace

from realpolitik.game import Game, SubmittedOrder
from realpolitik.geography import UnitType
from realpolitik.orders import Hold, Order, Waive


def _report(entries: tuple[SubmittedOrder, ...]) -> list[tuple[object, ...]]:
    return [(e.order, e.error, e.error_kind, e.text, e.ok) for e in entries]


def _variety(game: Game, power: str, rng: random.Random, case: int) -> list[Order]:
    """Random listed orders of ``power``, changed by ``case``: as listed, equal copies, one
    without its power, one illegal order added."""
    listed = game.legal_orders(power)
    orders = [options[rng.randrange(len(options))] for options in listed.values()]
    if case == 1:  # (equal values, other objects: found by value, not identity)
        orders = [o if isinstance(o, Waive) else replace(o) for o in orders]
    elif case == 2 and orders and not isinstance(orders[0], Waive):
        orders[0] = replace(orders[0], power=None)
    elif case == 3:  # (a unit the power does not have: illegal)
        orders.append(Hold(UnitType.ARMY, "boh", power=power))
    return orders


def test_given_values_agree_with_submit_over_played_games() -> None:
    rng = random.Random(5)
    game = Game("classical", seed=5)
    cases = set()
    while game.end is None and game.phase.year < 1910:
        for number, power in enumerate(game.powers_to_order()):
            case = (number + len(game.history)) % 4
            orders = _variety(game, power, rng, case)
            entries, listed, kept_listed = game._given_values(power, tuple(orders))
            report = game.submit(power, orders)
            assert _report(entries) == _report(report)
            assert entries == report
            assert (listed is not None) == game.orders_stand(power)
            if listed is not None:
                assert listed == tuple(e.order for e in report)
            assert kept_listed == (case != 3)  # (an illegal order's entry says why)
            assert all(e.order is not None and e.order.power == power for e in report)
            assert _report(game.orders_of(power)) == _report(report)
            cases.add((case, kept_listed))
        game.process()
    assert {(0, True), (1, True), (2, True), (3, False)} <= cases
