"""A movement phase's stand-offs worked out when first read: when no unit is dislodged (so no
retreat reads them) the resolution is given its record, which works them out from the board set
up again. They equal the stand-offs the adjudication works out at once (the path it replaces),
over movement phases of games of random legal orders, and the resolution with them left for
later is equal, hashes, pickles and prints as one given them at once."""

from __future__ import annotations

import pickle
from functools import partial

import pytest
from random_play import decided_movement, movement_phases_with_moves

from realpolitik.adjudication import adjudicate
from realpolitik.adjudication.outcomes import Resolution
from realpolitik.orders import Order
from realpolitik.position import Position
from realpolitik.rules import rules_for

_RULES = rules_for("2000")


def _movement_phases(seed: int, count: int) -> list[tuple[Position, list[Order]]]:
    return movement_phases_with_moves(seed, count, salt=3, move_share=0.8)


def _standoffs_at_once(position: Position, orders: list[Order]) -> frozenset[str]:
    """The stand-offs as the adjudication works them out when it must (units to retreat):
    ``_Decided.standoffs`` on the phase's own board and decisions, over the board after."""
    board, decided = decided_movement(position, orders, _RULES)
    after = adjudicate(position, orders, rules=_RULES, checked=True).units
    return decided.standoffs(after) if board.contested else frozenset()


@pytest.mark.parametrize("seed", range(3))
def test_standoffs_worked_out_later_are_those_worked_out_at_once(seed: int) -> None:
    later = bounced = 0
    for position, orders in _movement_phases(seed, 16):
        resolution = adjudicate(position, orders, rules=_RULES, checked=True)
        left_for_later = not isinstance(resolution._standoffs, frozenset)  # noqa: SLF001
        # (left for later exactly when no unit must retreat)
        assert not (left_for_later and resolution.dislodged)
        want = _standoffs_at_once(position, orders)
        assert resolution.standoffs == want, str(position.phase)
        assert isinstance(resolution._standoffs, frozenset)  # noqa: SLF001 (kept once made)
        later += left_for_later
        bounced += bool(want) and left_for_later
    assert later and bounced  # (the games leave some for later, some of them not empty)


def test_a_resolution_with_standoffs_left_for_later_is_the_same_value() -> None:
    checked = 0
    for position, orders in _movement_phases(5, 16):
        lazy = adjudicate(position, orders, rules=_RULES, checked=True)
        if isinstance(lazy._standoffs, frozenset):  # noqa: SLF001
            continue
        # (a fresh one for each reading: the first reading keeps what it made)
        fresh = partial(adjudicate, position, orders, rules=_RULES, checked=True)
        eager = Resolution(lazy.phase, fresh().results, lazy.units, lazy.dislodged,
                           lazy.retreat_options, fresh().standoffs, lazy.civil_disorder)
        assert fresh() == eager and eager == fresh()
        assert hash(fresh()) == hash(eager)
        assert repr(fresh()) == repr(eager)
        assert pickle.loads(pickle.dumps(fresh())) == eager
        match fresh():
            case Resolution(standoffs=standoffs):
                assert standoffs == eager.standoffs
        checked += 1
    assert checked
