"""The movement phase's shortcuts agree with the general path, over movement phases of games of
random legal orders: the decisions ``_decide`` settles outside the solver (a lone attack that
shares the fate of the move it follows, read directly) satisfy every equation, and
``_Decided``'s units that moved and were dislodged are those the decisions say."""

from __future__ import annotations

import random
from itertools import islice

import pytest
from random_play import playing

from realpolitik.adjudication import movement
from realpolitik.adjudication.equations import HOLD, MOVE, Board, Equations
from realpolitik.listing import legal_orders
from realpolitik.orders import Order
from realpolitik.position import PhaseType, Position, Unit
from realpolitik.rules import Rules, rules_for

_RULES = rules_for("2000")


def _movement_phases(seed: int, count: int) -> list[tuple[Position, list[Order]]]:
    """``count`` movement positions of a game of random legal orders, each with another set of
    random legal orders (seeded) for every unit."""
    rng = random.Random(seed * 7919 + 1)
    phases: list[tuple[Position, list[Order]]] = []
    for game in islice((g for g in playing(seed, years=12)
                        if g.phase.type is PhaseType.MOVEMENT), count):
        position = game.position
        orders = [options[rng.randrange(len(options))]
                  for power in position.variant.power_ids
                  for options in legal_orders(position, power, rules=_RULES).values()]
        phases.append((position, orders))
    return phases


def _board(position: Position, orders: list[Order], rules: Rules) -> Board:
    hooks = position.variant.hooks
    provinces, units, index = movement._units_of(position)  # noqa: SLF001
    return movement._set_up(position, rules, units, orders, provinces, index,  # noqa: SLF001
                            hooks.defence_bonuses(position), hooks.movement_modifiers(position))


@pytest.mark.parametrize("seed", range(4))
def test_decisions_satisfy_every_equation(seed: int) -> None:
    followed = 0
    for position, orders in _movement_phases(seed, 20):
        board = _board(position, orders, _RULES)
        paradoxes: set[int] = set()
        _, value = movement._decide(board, _RULES, paradoxes)  # noqa: SLF001
        # the general path: every decision's own equation, read over the final values
        general = Equations(board, _RULES, value.__getitem__)
        for i in range(board.n):
            if i in paradoxes or not board.matched[i] or board.kind[i] == HOLD:
                continue  # (settled by the paradox rule; an unmatched order; a hold)
            assert general.adjudicate(i) is value[i], (str(position.phase), i)
        followed += sum(1 for i in board.moves
                        if board.occupant[i] >= 0 and board.kind[board.occupant[i]] == MOVE
                        and board.opposite[i] < 0 and not board.supports[i])
    assert followed > 0  # (the shortcut's case came up)


@pytest.mark.parametrize("seed", range(2))
def test_decided_moves_and_dislodgements_follow_the_decisions(seed: int) -> None:
    for position, orders in _movement_phases(seed, 20):
        board = _board(position, orders, _RULES)
        equations, value = movement._decide(board, _RULES, set())  # noqa: SLF001
        decided = movement._Decided(board, equations, value, frozenset())  # noqa: SLF001
        went = [i for i in board.moves if value[i]]
        assert decided.went == went
        assert decided.moved == [i in went for i in range(board.n)]
        dislodged = sorted(board.occupant[i] for i in went
                           if board.occupant[i] >= 0 and board.occupant[i] not in went)
        assert decided.dislodged == dislodged
        for d in range(board.n):
            by = decided.dislodged_by[d]
            assert (by >= 0) is (d in dislodged)
            if by >= 0:
                assert by in went and board.occupant[by] == d


@pytest.mark.parametrize("seed", range(2))
def test_next_board_is_the_board_less_who_left_plus_who_arrived(seed: int) -> None:
    # (the arrivals are read from the variant's unit tables, made there the first time)
    for position, orders in _movement_phases(seed + 10, 20):
        board = _board(position, orders, _RULES)
        equations, value = movement._decide(board, _RULES, set())  # noqa: SLF001
        decided = movement._Decided(board, equations, value, frozenset())  # noqa: SLF001
        expected = dict(position.units)
        for i in decided.went + decided.dislodged:
            del expected[board.prov[i]]
        for i in decided.went:
            unit = board.units[i]
            expected[board.dest[i]] = Unit(unit.power, unit.type, board.dest_loc[i])
        resolution = movement.adjudicate_movement(position, orders, _RULES, checked=True)
        assert list(resolution.units.items()) == sorted(expected.items())
