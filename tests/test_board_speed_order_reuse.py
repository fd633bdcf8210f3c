"""``benchmarks/adjudication.py --order-reuse``: the movement orders given as an object given in
an earlier movement phase are counted once each, by identity, and other phases are skipped."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import adjudication as harness  # noqa: E402

from realpolitik.calendar import Season  # noqa: E402
from realpolitik.geography import UnitType  # noqa: E402
from realpolitik.orders import Hold, Move  # noqa: E402
from realpolitik.position import Phase, PhaseType, Position  # noqa: E402
from realpolitik.variant import load_variant  # noqa: E402

_START = Position.initial(load_variant("classical"))


def _at(phase_type: PhaseType) -> Position:
    return _START.replace(phase=Phase(Season.SPRING, 1901, phase_type))


def test_orders_given_again_are_counted_by_identity() -> None:
    move = Move(UnitType.ARMY, "par", "bur", power="france")
    hold = Hold(UnitType.ARMY, "mun", power="germany")
    equal_move = Move(UnitType.ARMY, "par", "bur", power="france")  # (equal, not the object)
    movement, retreats = _at(PhaseType.MOVEMENT), _at(PhaseType.RETREATS)
    phases: list[harness.Phase] = [
        (movement, (move, hold), None, True),
        (retreats, (move,), None, True),  # (not a movement phase: not read)
        (movement, (move, equal_move), None, True),
        (movement, (hold,), None, True),
    ]
    given, again, distinct = harness.order_reuse(phases)
    assert given == 5
    assert again == 2  # the move and the hold, each given again once
    assert distinct == 3


def test_the_bench_games_give_orders_again() -> None:
    phases = harness.record(1, 0, 1903)
    given, again, distinct = harness.order_reuse(phases)
    movement_orders = sum(len(p[1]) for p in phases if p[0].phase.type is PhaseType.MOVEMENT)
    assert given == movement_orders > 0
    assert 0 < again < given
    assert distinct == given - again
