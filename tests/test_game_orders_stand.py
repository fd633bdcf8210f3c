"""``Game.orders_stand``: whether a power's orders so far all stand as given."""

from __future__ import annotations

from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.orders import Hold, Move


def test_orders_stand_when_every_one_is_legal_as_given() -> None:
    game = Game("classical")
    assert not game.orders_stand("france")  # (nothing given yet)
    game.submit("france", [Move(UnitType.ARMY, "par", "bur", power="france")])
    assert game.orders_stand("france")
    game.submit("france", [])
    assert game.orders_stand("france")


def test_orders_do_not_stand_when_one_is_illegal_or_they_were_given_as_text() -> None:
    game = Game("classical")
    entries = game.submit("france", [Move(UnitType.ARMY, "par", "lon", power="france"),
                                     Hold(UnitType.ARMY, "mar", power="france")])
    assert entries[0].error is not None
    assert not game.orders_stand("france")
    game.submit("france", "A Par - Bur")  # (text: each order read and checked)
    assert not game.orders_stand("france")
