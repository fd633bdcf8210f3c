"""The order values' own ``__eq__``, ``__hash__`` and makers (``realpolitik.orders``) against
what a dataclass's would give: every field compared, the class too; equal values hash alike;
the makers the listing uses make the value the constructor makes. Runs on both builds
(``scripts/test.sh`` runs it again on the compiled one, where these are native methods)."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import astuple, fields, replace

from realpolitik.game import Game
from realpolitik.geography import UnitType
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
    made_convoy,
    made_hold,
    made_move,
    made_support_hold,
    made_support_move,
)

ARMY, FLEET = UnitType.ARMY, UnitType.FLEET


def _same_as_a_dataclass(first: Order, second: Order) -> bool:
    return type(first) is type(second) and astuple(first) == astuple(second)


def _variations(order: Order) -> list[Order]:
    """``order`` with each field changed in turn (to another value of its type)."""
    out: list[Order] = []
    for field in fields(order):
        value = getattr(order, field.name)
        if isinstance(value, bool):
            other: object = not value
        elif isinstance(value, UnitType):
            other = FLEET if value is ARMY else ARMY
        elif value is None:
            other = "england"
        else:
            other = f"{value}x"
        out.append(replace(order, **{field.name: other}))
    return out


EXAMPLES: list[Order] = [
    Hold(ARMY, "par", power="france"),
    Move(ARMY, "par", "bur", power="france"),
    Move(ARMY, "bre", "lon", True, power="france"),
    SupportHold(FLEET, "bre", "par", ARMY, power="france"),
    SupportMove(ARMY, "mar", "par", "bur", ARMY, power="france", supported_power="france"),
    Convoy(FLEET, "eng", "bre", "lon", power="france", army_power="france"),
    Retreat(FLEET, "stp/sc", "bot", power="russia"),
    Disband(ARMY, "mun", power="germany"),
    Build(FLEET, "stp/nc", power="russia"),
]


def test_orders_are_equal_exactly_when_their_class_and_fields_are() -> None:
    values = [v for order in EXAMPLES for v in (order, *_variations(order))]
    values.append(Disband(ARMY, "par", power="france"))  # same fields as a Hold
    for first in values:
        for second in values:
            assert (first == second) is _same_as_a_dataclass(first, second), (first, second)
            assert (first != second) is not _same_as_a_dataclass(first, second)
            if first == second:
                assert hash(first) == hash(second)
    assert Hold(ARMY, "par") != "A PAR H" and Hold(ARMY, "par") != ("par",)


def test_copies_and_pickles_are_equal_and_hash_alike() -> None:
    for order in EXAMPLES:
        for again in (copy.copy(order), copy.deepcopy(order), replace(order),
                      pickle.loads(pickle.dumps(order))):
            assert again == order and hash(again) == hash(order) and again is not order
            assert repr(again) == repr(order) and str(again) == str(order)
            assert {order: 1}[again] == 1


def test_the_listing_makers_make_what_the_constructors_make() -> None:
    made: list[tuple[Order, Order]] = [
        (made_hold(ARMY, "par", "france"), Hold(ARMY, "par", power="france")),
        (made_move(FLEET, "bre", "mao", False, "france"),
         Move(FLEET, "bre", "mao", power="france")),
        (made_move(ARMY, "bre", "lon", True, "france"),
         Move(ARMY, "bre", "lon", True, power="france")),
        (made_support_hold(ARMY, "mar", "france", "par", ARMY),
         SupportHold(ARMY, "mar", "par", ARMY, power="france")),
        (made_support_move(ARMY, "mar", "france", "par", "bur", None),
         SupportMove(ARMY, "mar", "par", "bur", power="france")),
        (made_convoy(FLEET, "eng", "bre", "lon", "france"),
         Convoy(FLEET, "eng", "bre", "lon", power="france")),
    ]
    for fast, built in made:
        assert type(fast) is type(built) and astuple(fast) == astuple(built)
        assert fast == built and hash(fast) == hash(built) and repr(fast) == repr(built)


def test_listed_orders_of_a_played_game_keep_their_values_apart() -> None:
    game, rng = Game(seed=5), random.Random(5)
    while game.phase.year < 1903:
        seen: dict[Order, Order] = {}
        for power in game.powers_to_order():
            for options in game.legal_orders(power).values():
                for order in options:
                    twin = replace(order)
                    assert seen.setdefault(twin, order) is order  # no two listed are equal
                    assert order == twin and hash(order) == hash(twin)
            game.submit(power, [rng.choice(o) for o in game.legal_orders(power).values()])
        game.process()
