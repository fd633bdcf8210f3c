"""Seeded random play through the native API, for the tests that check the game's bookkeeping
against what the positions of whole games say."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice

from realpolitik.adjudication import movement
from realpolitik.adjudication.equations import Board
from realpolitik.game import Game
from realpolitik.listing import (
    PART_CONVOYS,
    PART_HEAD,
    PART_SPARED,
    PART_SUPPORT_KEYS,
    PART_SUPPORT_OF,
    legal_orders,
    movement_parts,
)
from realpolitik.orders import Order
from realpolitik.position import PhaseType, Position
from realpolitik.rules import Rules, rules_for
from realpolitik.variant import Variant


def playing(seed: int, years: int = 6) -> Iterator[Game]:
    """A classical game played with random legal orders (seeded) for ``years`` years or to
    its end: the game is yielded at each phase before its orders are given."""
    rng = random.Random(seed)
    game = Game("classical")
    while not game.is_over and game.phase.year < 1901 + years:
        yield game
        for power in game.powers_to_order():
            listed = game.legal_orders(power)
            game.submit(power, [options[rng.randrange(len(options))]
                                for options in listed.values()])
        game.process()


def played_game(seed: int, years: int = 6) -> Game:
    """The game of :func:`playing`, played to its end."""
    last: Game | None = None
    for last in playing(seed, years):  # noqa: B007 (the game, once every phase is played)
        pass
    assert last is not None
    return last


def movement_positions(variant: Variant | str, seed: int, until: int) -> list[Position]:
    """The movement positions of a game of ``variant`` under the 2000 rules (the game and its
    random legal orders seeded with ``seed``), played to the end of year ``until``; each
    position's legal orders were listed."""
    game = Game(variant, rules="2000", seed=seed)
    rng = random.Random(seed)
    seen = []
    while not game.is_over and game.phase.year <= until:
        if game.position.phase.type is PhaseType.MOVEMENT:
            seen.append(game.position)
        for power in game.powers_to_order():
            game.submit(power, [options[rng.randrange(len(options))]
                                for options in game.legal_orders(power).values()])
        game.process()
    return seen


def movement_phases_with_moves(seed: int, count: int, *, salt: int, move_share: float,
                                ) -> list[tuple[Position, list[Order]]]:
    """``count`` movement positions of a game of :func:`playing` (``seed``), each with another
    set of random legal orders (2000 rules, seeded with ``seed`` and ``salt``) for every unit:
    with a share ``move_share``, a unit that can move is given a move, so that moves bounce,
    units move into provinces just left and are dislodged."""
    rules = rules_for("2000")
    rng = random.Random(seed * 7919 + salt)
    phases: list[tuple[Position, list[Order]]] = []
    for game in islice((g for g in playing(seed, years=12)
                        if g.phase.type is PhaseType.MOVEMENT), count):
        position = game.position
        orders: list[Order] = []
        for power in position.variant.power_ids:
            for options in legal_orders(position, power, rules=rules).values():
                moves = [o for o in options if type(o).__name__ == "Move"]
                pool = moves if moves and rng.random() < move_share else list(options)
                orders.append(pool[rng.randrange(len(pool))])
        phases.append((position, orders))
    return phases


def decided_movement(position: Position, orders: list[Order], rules: Rules,
                     ) -> tuple[Board, movement._Decided]:
    """The movement adjudicator's board of ``orders`` and its decisions, as ``adjudicate`` sets
    them up and decides them (for tests that compare its inner paths)."""
    hooks = position.variant.hooks
    provinces, units, index = movement._units_of(position)  # noqa: SLF001
    board = movement._set_up(position, rules, units, orders, provinces,  # noqa: SLF001
                             index, hooks.defence_bonuses(position),
                             hooks.movement_modifiers(position))
    paradoxes: set[int] = set()
    equations, value = movement._decide(board, rules, paradoxes)  # noqa: SLF001
    return board, movement._Decided(board, equations, value, paradoxes)  # noqa: SLF001


def found_orders(game: Game, power: str, rng: random.Random, *, supports: float = 0.5,
                 keys_known: float = 1.0) -> tuple[list[Order], list[int | None]]:
    """One listed order per unit of ``power`` in a movement phase, as the facade hands them
    to ``Game.submit_found``: a support (drawn for a unit with a share ``supports``) with its
    key, known with a share ``keys_known`` (else None), any other order with None."""
    parts = movement_parts(game.position)
    assert parts is not None
    orders: list[Order] = []
    keys: list[int | None] = []
    for unit in (parts.get(power) or {}).values():
        support_of = unit[PART_SUPPORT_OF]
        listed = [(key, support_of(key)) for key in unit[PART_SUPPORT_KEYS]
                  if key not in unit[PART_SPARED] and support_of(key) is not None]
        if listed and rng.random() < supports:
            key, support = rng.choice(listed)
            assert support is not None
            orders.append(support)
            keys.append(key if keys_known >= 1.0 or rng.random() < keys_known else None)
        else:
            orders.append(rng.choice(unit[PART_HEAD] + unit[PART_CONVOYS]))
            keys.append(None)
    return orders, keys
