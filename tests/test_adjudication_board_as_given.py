"""The movement board read from the orders as given (``Board``, each order's unit found by its
location's province) over the phases of seeded random games, classical and Colonial Winters (the
mini-world): it is the board of the same orders read unit by unit, in any order they come,
attribute by attribute; each unit follows the order given for its province; an order for no
unit on the board is not taken as given."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from realpolitik.adjudication import movement
from realpolitik.adjudication.equations import (
    CONVOY,
    HOLD,
    MOVE,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    Board,
    NotAsGiven,
)
from realpolitik.adjudication.setup import accept_orders
from realpolitik.game import Game
from realpolitik.geography import UnitType, province_of
from realpolitik.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, Waive
from realpolitik.position import PhaseType, Position
from realpolitik.rules import Rules, rules_for
from realpolitik.variant import load_variant

MINIWORLD = Path(__file__).parent / "variants" / "miniworld"
_KIND_OF = {Hold: HOLD, Move: MOVE, SupportHold: SUPPORT_HOLD, SupportMove: SUPPORT_MOVE,
            Convoy: CONVOY}
_IN_GIVEN_ORDER = ("moves", "contested")
"""The board's lists kept in the order the orders were given (compared as sets)."""


def _movement_phases(variant: str | Path, seed: int, years: int,
                     ) -> Iterator[tuple[Position, list[Order], random.Random]]:
    """Each movement phase of a seeded random game, with the orders the players give (one
    listed order per unit, power by power), before they are processed."""
    rng = random.Random(seed)
    game = Game(load_variant(variant) if isinstance(variant, Path) else variant, seed=seed)
    start = game.phase.year
    while not game.is_over and game.phase.year < start + years:
        given: list[Order] = []
        for power in game.powers_to_order():
            chosen = [options[rng.randrange(len(options))]
                      for location, options in game.legal_orders(power).items()
                      if location != "waive"]
            game.submit(power, chosen)
            given += chosen
        if game.position.phase.type is PhaseType.MOVEMENT:
            yield game.position, given, rng
        game.process()


def _board(position: Position, rules: Rules, orders: list[Order]) -> Board:
    """The board of ``orders`` as the adjudicator sets it up."""
    hooks = position.variant.hooks
    provinces, units, index = movement._units_of(position)
    return movement._set_up(position, rules, units, orders, provinces, index,
                            hooks.defence_bonuses(position), hooks.movement_modifiers(position))


def _attributes(board: Board) -> dict[str, object]:
    """Every attribute of the board, tables of one shared entry by that entry."""
    out: dict[str, object] = {}
    # (compiled by mypyc, the class keeps its attributes' names in __mypyc_attrs__)
    names = getattr(Board, "__slots__", None) or Board.__mypyc_attrs__  # type: ignore[attr-defined]
    assert "kind" in names and "moves_into" in names
    for name in names:
        if name == "_power":  # (made when first read)
            continue
        value = getattr(board, name)
        if name in _IN_GIVEN_ORDER:
            value = sorted(value)
        elif hasattr(value, "entry"):  # a table in which every unit has the same entry
            value = ("same", value.entry)
        out[name] = value
    return out


def _followed(position: Position, rules: Rules, given: list[Order]) -> list[Order]:
    """The orders the units follow, accepted one by one (by unit)."""
    _, _, index = movement._units_of(position)
    accepted = accept_orders(position, tuple(given), rules, index)
    return [order for order in accepted.unit_orders if order is not None]


@pytest.mark.filterwarnings("ignore::realpolitik.errors.VariantWarning")  # (the mini-world's)
@pytest.mark.parametrize(("variant", "seed", "years", "edition"),
                         [("classical", 3, 10, "2023"), ("classical", 11, 10, "1971"),
                          ("classical", 12, 10, "1982"), (MINIWORLD, 7, 12, "2023"),
                          (MINIWORLD, 8, 12, "2000")],
                         ids=["classical-3", "classical-11", "classical-12", "miniworld-7",
                              "miniworld-8"])
def test_board_as_given_is_the_board_read_unit_by_unit(variant: str | Path, seed: int,
                                                       years: int, edition: str) -> None:
    rules = rules_for(edition)
    phases = 0
    for position, given, rng in _movement_phases(variant, seed, years):
        followed = _followed(position, rules, given)
        by_unit = _board(position, rules, followed)
        shuffled = list(followed)
        rng.shuffle(shuffled)
        as_given = _board(position, rules, shuffled)
        assert _attributes(as_given) == _attributes(by_unit)
        # each unit follows the order given for its province, and its kind is the order's
        for i, order in enumerate(as_given.orders):
            assert order is None or (not isinstance(order, Waive)
                                     and province_of(order.location) == as_given.prov[i])
            if order is not None and type(order) in _KIND_OF:
                assert as_given.kind[i] == _KIND_OF[type(order)]
            elif order is None:
                assert as_given.kind[i] == HOLD
        phases += 1
    assert phases >= 6


def test_an_order_for_no_unit_is_not_taken_as_given() -> None:
    game = Game("classical")
    position = game.position
    listed = game.legal_orders("england")
    # (no unit stands in York)
    orders = [listed["lvp"][0], Move(UnitType.ARMY, "yor", "wal", power="england")]
    with pytest.raises(NotAsGiven):
        _board(position, rules_for("2023"), orders)


def test_a_fleet_on_a_coast_is_found_by_its_province() -> None:
    game = Game("classical")
    position = game.position
    stp = next(o for o in game.legal_orders("russia")["stp/sc"] if isinstance(o, Move))
    board = _board(position, rules_for("2023"), [stp])
    i = board.prov.index("stp")
    assert board.orders[i] is stp
    assert board.kind[i] == MOVE
    assert board.moves == [i]
