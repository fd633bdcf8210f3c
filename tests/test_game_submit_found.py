"""``Game.submit_found``: movement orders handed back as the listing's own values, supports with
their keys, give what ``Game.submit`` gives; anything not listed (or a wrong key) is checked
as ``submit`` checks it."""

from __future__ import annotations

import random

from random_play import found_orders

from realpolitik.game import Game, SubmittedOrder
from realpolitik.geography import UnitType
from realpolitik.listing import PART_HEAD, PART_SUPPORT_KEYS, PART_SUPPORT_OF, movement_parts
from realpolitik.orders import Move, Order, SupportHold, SupportMove


def _found(game: Game, power: str, rng: random.Random) -> tuple[list[Order], list[int | None]]:
    return found_orders(game, power, rng, supports=0.6, keys_known=0.9)


def _report(entries: tuple[SubmittedOrder, ...]) -> list[tuple[object, ...]]:
    return [(e.order, e.error, e.text) for e in entries]


def test_submit_found_agrees_with_submit_over_played_games() -> None:
    rng = random.Random(7)
    fast, slow = Game("classical"), Game("classical")
    for _ in range(12):
        if fast.end is not None:
            break
        for power in fast.powers_to_order():
            if fast.position.phase.type.name == "MOVEMENT":
                orders, keys = _found(fast, power, rng)
                got = fast.submit_found(power, orders, keys)
                want = slow.submit(power, orders)
                assert _report(got) == _report(want)
                assert fast.orders_stand(power) == slow.orders_stand(power)
            else:
                listed = [o for options in fast.legal_orders(power).values() for o in options[:1]]
                fast.submit(power, listed)
                slow.submit(power, listed)
        fast.process()
        slow.process()
        assert fast.position == slow.position


def test_submit_found_refuses_what_is_not_listed() -> None:
    game = Game("classical")
    parts = movement_parts(game.position)
    assert parts is not None
    unit = parts["france"]["par"]
    support_of = unit[PART_SUPPORT_OF]
    key = next(k for k in unit[PART_SUPPORT_KEYS] if support_of(k) is not None)
    support = support_of(key)
    assert isinstance(support, SupportHold | SupportMove)
    other = next(k for k in unit[PART_SUPPORT_KEYS] if k != key and support_of(k) is not None)
    # a listed support under another key, an order not listed, another power's unit
    for orders, keys in (([support], [other]),
                         ([Move(UnitType.ARMY, "par", "lon", power="france")], [None]),
                         ([parts["germany"]["ber"][PART_HEAD][0]], [None])):
        fast, slow = Game("classical"), Game("classical")
        assert _report(fast.submit_found("france", orders, keys)) == \
            _report(slow.submit("france", orders))
        assert fast.orders_stand("france") == slow.orders_stand("france")
    game.submit_found("france", [support], [key])
    assert game.orders_stand("france")
    assert game.orders_of("france")[0].order is support
