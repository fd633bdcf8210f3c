"""A movement phase's next board merged in order (``_Decided.merged_board``, the compiled
build's path): the units that stayed, read from the board's lists in sorted order, merged with
the arrivals. It equals the path it replaces in the interpreter (the board copied, the units
that left or were dislodged taken out, the arrivals put in, the whole sorted again), over
movement phases of games of random legal orders, most of them moves, so that units bounce, move
into provinces just left and are dislodged; and the game's own next board (either build's path)
is that board, in that order."""

from __future__ import annotations

from random_play import decided_movement, movement_phases_with_moves

from realpolitik.adjudication import adjudicate, movement
from realpolitik.orders import Order
from realpolitik.position import Position, Unit, moved_unit
from realpolitik.rules import rules_for

_RULES = rules_for("2000")


def _movement_phases(seed: int, count: int) -> list[tuple[Position, list[Order]]]:
    return movement_phases_with_moves(seed, count, salt=11, move_share=0.5)


def test_the_merged_next_board_is_the_sorted_one() -> None:
    dislodging = into_vacated = 0
    for position, orders in (phase for seed in range(4) for phase in _movement_phases(seed, 24)):
        board, decided = decided_movement(position, orders, _RULES)
        arrived: dict[str, Unit] = {board.dest[i]: moved_unit(board.units[i], board.dest_loc[i])
                                    for i in decided.went}
        # the path it replaces: copied, cut, the arrivals put in, sorted
        copied = dict(position.units)
        for i in decided.went:
            del copied[board.prov[i]]
        for i in decided.dislodged:
            del copied[board.prov[i]]
        copied.update(arrived)
        want = sorted(copied.items())
        merged = decided.merged_board(arrived)
        assert list(merged.items()) == want, str(position.phase)
        assert list(adjudicate(position, orders, rules=_RULES, checked=True).units.items()) \
            == want
        dislodging += bool(decided.dislodged)
        into_vacated += any(p in position.units for p in arrived)
    assert dislodging and into_vacated  # (the games exercise both)


def test_with_no_arrivals_the_merged_board_is_the_board() -> None:
    position, orders = _movement_phases(1, 1)[0]
    provinces, units, index = movement._units_of(position)  # noqa: SLF001
    board = movement._set_up(position, _RULES, units, [], provinces, index, {})  # noqa: SLF001
    paradoxes: set[int] = set()
    equations, value = movement._decide(board, _RULES, paradoxes)  # noqa: SLF001
    decided = movement._Decided(board, equations, value, paradoxes)  # noqa: SLF001
    assert list(decided.merged_board({}).items()) == sorted(position.units.items())
