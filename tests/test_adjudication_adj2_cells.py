"""The movement adjudicator's hot functions make no cells, and the helpers that took their rare
comprehensions over give what the comprehensions gave.

On this interpreter a variable read by a nested function, comprehension or generator becomes a
cell, made at every call of the function holding it (even when the comprehension never runs)
and read through an indirection; the functions below run every phase, or for every decision the
solver reads, so their rare comprehensions live in helpers of their own.
"""

from __future__ import annotations

import pytest

from realpolitik.adjudication import movement, resolver
from realpolitik.adjudication.equations import Board, Equations
from realpolitik.compiling import is_compiled
from realpolitik.rules import rules_for

interpreted_only = pytest.mark.skipif(
    is_compiled(movement._decide),
    reason="compiled by mypyc: no code objects or cells, and only a real Board is taken")


@pytest.mark.parametrize("function", [
    Board.__init__,
    Equations.__init__,
    Equations.fleet_path,
    Equations.convoy,
    Equations.block,
    Equations.support,
    Equations.move,
    movement._decide,
    movement._Decided.__init__,
    movement._Decided.resolution,
    movement._Decided.failure_kind,
    movement.adjudicate_movement,
    resolver.Resolver.resolve,
], ids=lambda f: f.__qualname__)
@interpreted_only
def test_no_cells_in_hot_functions(function: object) -> None:
    code = function.__code__  # type: ignore[attr-defined]
    assert code.co_cellvars == ()


@interpreted_only
def test_settle_known_keeps_only_its_reader_cells() -> None:
    # (the closure's two cells: a helper to make it measured more than the cells cost)
    assert set(movement._settle_known.__code__.co_cellvars) == {"value", "still_open"}


def test_cycle_from_puts_the_decision_first_once() -> None:
    assert resolver._cycle_from(4, [7, 4, 2, 4, 9]) == [4, 7, 2, 9]
    assert resolver._cycle_from(3, []) == [3]


class _Recording:
    """A resolve function that records what it was asked, answering from a table."""

    def __init__(self, answers: dict[int, bool]) -> None:
        self.answers = answers
        self.asked: list[int] = []

    def __call__(self, decision: int) -> bool:
        self.asked.append(decision)
        return self.answers[decision]


class _AnyRouteBoard:
    """Just what ``Equations.fleet_path`` reads of a board under the any-route rule."""

    def __init__(self, union: frozenset[int]) -> None:
        self.route_union = {0: union}


@pytest.mark.parametrize("answers, carried", [
    ({3: True, 5: True, 8: True}, True),
    ({3: True, 5: False, 8: True}, False),
    ({3: False, 5: False, 8: False}, False),
])
@interpreted_only
def test_fleet_path_any_route_reads_every_fleet_in_order(answers: dict[int, bool],
                                                        carried: bool) -> None:
    # 4.A.1's any-route reading: every fleet of the union is read, in order, as the solver
    # always read them (a list, not a short-circuiting all(): the reads shape its cycles)
    rules = rules_for("2023", {"4.A.1": "any_route_disrupted"})
    read = _Recording(answers)
    equations = Equations(_AnyRouteBoard(frozenset(answers)), rules, read)  # type: ignore[arg-type]
    assert equations.any_route
    assert equations.fleet_path(0) is carried
    assert read.asked == sorted(answers)


def test_default_hooks_skipped_give_what_their_call_gives() -> None:
    # adjudicate_movement does not call the default standing_orders and movement_modifiers:
    # what it uses instead is what they return
    from realpolitik.game import Game
    from realpolitik.hooks import NO_MODIFIERS
    from realpolitik.variant import load_variant

    position = Game(load_variant("classical")).position
    hooks = position.variant.hooks
    assert type(hooks).standing_orders is movement._DEFAULT_STANDING_ORDERS
    assert type(hooks).movement_modifiers is movement._DEFAULT_MODIFIERS
    assert hooks.standing_orders(position) == ()
    assert hooks.movement_modifiers(position) is NO_MODIFIERS


def test_a_variant_s_own_hooks_are_not_taken_for_the_defaults() -> None:
    from realpolitik.variants.colonial_winters.rules import ColonialWinters

    assert ColonialWinters.standing_orders is not movement._DEFAULT_STANDING_ORDERS
    assert ColonialWinters.movement_modifiers is not movement._DEFAULT_MODIFIERS
