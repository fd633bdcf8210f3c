"""The movement board read from orders taken as given (``Board``): a second order for a unit,
wherever it comes among the orders, is not taken as given, and the phase is adjudicated as if
the orders were accepted one by one; the units' powers are the board's."""

from __future__ import annotations

import pytest

from realpolitik.adjudication import adjudicate, movement
from realpolitik.adjudication.equations import Board, NotAsGiven
from realpolitik.game import Game
from realpolitik.listing import legal_orders
from realpolitik.maptables import tables_for
from realpolitik.orders import Order
from realpolitik.rules import EDITIONS, rules_for
from realpolitik.variant import load_variant

VARIANT = load_variant("classical")
START = Game(VARIANT).position


def _listed(location: str, text: str) -> Order:
    """England's order listed for the unit at ``location`` whose text is ``text``."""
    listed = legal_orders(START, "england")[location]
    return next(order for order in listed if str(order) == text)


# the orders England gives, and the second order for one of its units, of every kind
_GIVEN = [_listed("lvp", "A LVP - WAL"), _listed("lon", "F LON S A LVP - WAL"),
          _listed("edi", "F EDI - NTH")]
_SECOND = ["F LON - NTH", "F LON H", "F LON S F EDI - NTH", "F LON S A LVP - WAL"]


@pytest.mark.parametrize("second", _SECOND)
@pytest.mark.parametrize("first", [True, False], ids=["before", "after"])
def test_second_order_for_a_unit_is_not_taken_as_given(second: str, first: bool) -> None:
    extra = _listed("lon", second)
    orders = [extra, *_GIVEN] if first else [*_GIVEN, extra]
    provinces, units, index = movement._units_of(START)
    with pytest.raises(NotAsGiven):
        Board(units, orders, tables_for(VARIANT), rules_for("2023"), provinces, index)
    for edition in sorted(EDITIONS):
        rules = rules_for(edition)
        vouched = adjudicate(START, orders, rules=rules, checked=True)
        checked = adjudicate(START, orders, rules=rules)
        assert vouched.results == checked.results
        assert vouched.units == checked.units


def test_board_powers_are_the_units_powers() -> None:
    provinces, units, index = movement._units_of(START)
    board = Board(units, _GIVEN, tables_for(VARIANT), rules_for("2023"), provinces, index)
    assert board.power == [unit.power for unit in units]
    assert board.power is board.power  # (made once, when first read)
