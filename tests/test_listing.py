"""Listed orders are recognised by value: an order equal to a listed one is listed, whatever
object carries it, and an object that is not equal to a listed order never passes for one."""

from __future__ import annotations

import copy

from realpolitik.adjudication import adjudicate
from realpolitik.adjudication.outcomes import Outcome, Result
from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.legality import is_listed, listed_checker, listed_orders
from realpolitik.orders import Move, Order
from realpolitik.slots import slot_setter


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
