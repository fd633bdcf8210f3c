"""The game's listed orders taken from the listing a phase at a time: ``every_power_listed``
(every power's ``ListedOrders`` of a movement position at once, which ``Game`` keeps for the
phase) gives what ``listed_orders`` gives power by power, under the rules first asked and under
others; and ``ListedOrders.holds`` (compiled: the listed values scanned as objects, the power
compared only for an order that is not a listed value) answers as membership by value does,
for listed values, equal copies, copies of another power and orders of other powers; on the
positions of played games."""

from __future__ import annotations

from dataclasses import replace

from random_play import playing

from realpolitik.game import Game
from realpolitik.listing import ListedOrders, every_power_listed, listed_orders
from realpolitik.orders import Order, Waive
from realpolitik.position import PhaseType
from realpolitik.rules import rules_for


def _equal_listed(listed: ListedOrders, order: Order) -> bool:
    """Membership by value, written out: an order equal to ``order`` is listed."""
    return any(order == each for orders in listed.by_location.values() for each in orders)


def test_every_power_listed_gives_what_listed_orders_gives_over_played_games() -> None:
    movement = 0
    other_rules = rules_for("1971")
    for game in playing(seed=11, years=5):
        position = game.position
        every = every_power_listed(position, game.rules)
        if position.phase.type is not PhaseType.MOVEMENT:
            assert every is None
            continue
        movement += 1
        assert every is not None
        assert list(every) == list(position.variant.power_ids)
        for power, listed in every.items():
            assert listed is listed_orders(position, power, rules=game.rules)
            assert game._listed_orders(power) is listed
        # (a dictionary of its own: the game may keep it, the listing keeps its own)
        assert every is not every_power_listed(position, game.rules)
        # under rules other than those first asked: each power's, as listed_orders gives
        others = every_power_listed(position, other_rules)
        assert others is not None
        for power, listed in others.items():
            assert listed is listed_orders(position, power, rules=other_rules)
            assert listed.by_location == every[power].by_location
    assert movement >= 8


def test_holds_answers_as_membership_by_value_over_played_games() -> None:
    checked = 0
    for game in playing(seed=12, years=4):
        powers = game.powers_to_order()
        listings = {power: game._listed_orders(power) for power in powers}
        for power, listed in listings.items():
            others = [listings[p] for p in powers if p != power]
            for orders in listed.by_location.values():
                for order in orders:
                    assert listed.holds(order) and order in listed
                    if not isinstance(order, Waive):
                        copy = replace(order)
                        assert copy is not order and listed.holds(copy)
                    for other in others:  # (another power's listing holds none of them)
                        assert not other.holds(order) and not _equal_listed(other, order)
                    if others:
                        stranger = replace(order, power=others[0].power)
                        assert listed.holds(stranger) is _equal_listed(listed, stranger)
                        assert not listed.holds(stranger)
                    checked += 1
    assert checked > 500


def test_a_game_keeps_every_power_s_listing_of_a_movement_phase_at_the_first_ask() -> None:
    game = Game("classical")
    france = game._listed_orders("france")
    assert set(game._listed) == set(game.powers)
    assert game._listed["france"] is france
    game.submit("france", [orders[0] for orders in game.legal_orders("france").values()])
    game.process()
    assert game._listed == {}
