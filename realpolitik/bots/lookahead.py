"""One move of lookahead for the heuristic bot: its planned orders are tried against the orders
it expects of the other powers, adjudicated by the engine, and improved one unit at a time.

The plan the heuristic makes unit by unit does not see what its orders do together: a move
that will bounce, a support that will be cut, a centre left to a neighbour. Here each candidate
set of orders is adjudicated with a few predictions of the others' orders (made by the
heuristic for each of them, with their own random draws), and the outcome valued: where the
bot's units stand afterwards (the worth the heuristic gives each space), the centres it will
own after a Fall turn, its units dislodged and the enemies it dislodges. Then, unit after unit,
the order that values best replaces the planned one (hill climbing); a few hundred
adjudications in all, a few milliseconds each on the classical map.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from realpolitik.adjudication import Resolution, adjudicate
from realpolitik.geography import UnitType, province_of
from realpolitik.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, unit_key
from realpolitik.position import Position
from realpolitik.rules import Rules

Worth = Mapping[UnitType, Mapping[str, float]]
"""Unit type -> province -> what a unit of that type standing there is worth to the bot."""


@dataclass(frozen=True, slots=True)
class Lookahead:
    """How the outcome of a phase is valued, and how much searching is done."""

    center: float = 40.0
    """Worth of each centre owned after a Fall turn (and lost by an enemy on it in Spring)."""
    spring_center: float = 12.0
    """Cost of each own centre an enemy unit stands on after a Spring turn."""
    lost_unit: float = 15.0
    """Cost of each own unit dislodged."""
    dislodged_enemy: float = 5.0
    """Worth of each enemy unit dislodged."""
    futile_move: float = 0.0
    """Cost of each own move that bounces off an enemy unit staying where it is (holding, or
    failing to move out); an attack on a unit that supports or convoys cuts that, and costs
    nothing. Off: such moves are most of the bounces at Rumania seen in seeded games (the unit
    there failing to leave while two of its enemies attack it), but a cost of 1 halved them
    and made the bot weaker, 3.36 mean centres against six bots without it where one without
    it had 4.82 among six with it (``benchmarks/futile_moves.py``, docs/bots.md): the pressure
    they keep on the enemy wins centres."""
    moves_tried: int = 4
    """The moves tried for each unit: the best scored by the heuristic."""
    passes: int = 2
    """How many times each unit is reconsidered."""
    samples: int = 2
    """How many guesses of the other powers' orders each set of orders is tried against."""
    evaluations: int = 400
    """The most adjudications for one power's orders in one phase (with 34 units on the board;
    fewer in proportion with more units)."""
    max_units: int = 60
    """No lookahead on a board with more units than this (a world map may have 150 or more:
    there each adjudication costs ten times as much, and the bot plays by the heuristic
    alone to stay fast)."""


LOOKAHEAD = Lookahead()
"""The settings the heuristic bot plays with."""


def improve(position: Position, power: str, listing: Mapping[str, tuple[Order, ...]],
            planned: dict[str, Order], predictions: Sequence[Sequence[Order]],
            worth: Worth, score: Callable[[UnitType, str], float], fixed: set[str],
            allowed: Callable[[dict[str, Order], str, Order], bool], rules: Rules,
            settings: Lookahead, rng: random.Random) -> dict[str, Order]:
    """``planned`` (unit location -> order) improved unit by unit against ``predictions`` (the
    other powers' orders, each a guess of them all), the units of ``fixed`` left as they are.
    ``score`` ranks a unit's moves; ``allowed(orders, location, order)`` says whether the
    unit at ``location`` may take ``order`` in ``orders`` (which give it that order)."""
    if not predictions:
        return planned
    units = len(position.units)
    budget = settings.evaluations * min(1.0, 34 / max(units, 1))
    spent = 0

    def value(orders: dict[str, Order]) -> float:
        nonlocal spent
        spent += len(predictions)
        total = 0.0
        for others in predictions:
            resolution = adjudicate(position, [*orders.values(), *others], rules=rules,
                                    checked=True)
            total += _outcome(position, power, resolution, worth, settings)
            if settings.futile_move:
                total -= settings.futile_move * _futile_moves(position, orders, resolution)
        return total / len(predictions)

    orders = dict(planned)
    best = value(orders)
    movable = [loc for loc in listing if loc not in fixed
               and not isinstance(orders.get(loc), Convoy)
               and not _convoyed(orders, loc)]
    for _ in range(settings.passes):
        rng.shuffle(movable)
        changed = False
        for loc in movable:
            for option in _candidates(position, loc, listing[loc], orders, score, settings):
                if option == orders[loc]:
                    continue
                trial = {**orders, loc: option}
                if not allowed(trial, loc, option):
                    continue
                if spent + len(predictions) > budget:
                    return _reassign_idle_supports(position, listing, orders, value, score,
                                                   allowed, settings)
                tried = value(trial)
                if tried > best + 1e-9:
                    orders, best, changed = trial, tried, True
        if not changed:
            break
    return _reassign_idle_supports(position, listing, orders, value, score, allowed, settings)


def _reassign_idle_supports(position: Position, listing: Mapping[str, tuple[Order, ...]],
                            orders: dict[str, Order], value: Callable[[dict[str, Order]], float],
                            score: Callable[[UnitType, str], float],
                            allowed: Callable[[dict[str, Order], str, Order], bool],
                            settings: Lookahead) -> dict[str, Order]:
    """``orders`` with each idle support given another order, the best valued of the unit's
    candidates. Hill climbing changes one unit at a time, so a unit that gave up a move keeps
    the supports given for it (Russia's A RUM S A UKR - GAL beside A UKR S A RUM, seen in a
    game against the computer): such a support does nothing, and costs nothing in the
    outcome, so no single change removes it. A few adjudications for each idle unit, beyond
    the budget: there are seldom more than one or two."""
    for _ in range(len(orders)):
        idle = _idle_supports(orders)
        if not idle:
            break
        loc = idle[0]
        options = [o for o in _candidates(position, loc, listing[loc], orders, score, settings)
                   if allowed({**orders, loc: o}, loc, o)]
        options = [o for o in options if loc not in _idle_supports({**orders, loc: o})]
        if not options:
            break  # cannot happen while the hold is listed; an idle support is then left
        orders = max(({**orders, loc: o} for o in options), key=value)
    return orders


def _idle_supports(orders: Mapping[str, Order]) -> list[str]:
    """The units of ``orders`` that support another of them in an order it does not give: a
    move it does not make, or a hold when it moves away."""
    by_province = {province_of(loc): order for loc, order in orders.items()}
    idle = []
    for loc, order in orders.items():
        if isinstance(order, SupportMove):
            target = by_province.get(province_of(order.supported_location))
            if target is not None and not (isinstance(target, Move) and _matches(order, target)):
                idle.append(loc)
        elif isinstance(order, SupportHold) \
                and isinstance(by_province.get(province_of(order.supported_location)), Move):
            idle.append(loc)
    return idle


def _matches(support: SupportMove, move: Move) -> bool:
    """True if ``support`` supports ``move``: to its province, and to its coast if it names one
    (a support may leave the coast out; a coast it gives must match, under either reading of
    DATC 4.B.4)."""
    return province_of(support.destination) == province_of(move.destination) \
        and (support.destination == province_of(support.destination)
             or support.destination == move.destination)


def _convoyed(orders: Mapping[str, Order], location: str) -> bool:
    """True if the army at ``location`` is carried by a convoy among ``orders``."""
    return any(isinstance(o, Convoy) and o.army_location == location for o in orders.values())


def _candidates(position: Position, location: str, options: tuple[Order, ...],
                orders: Mapping[str, Order], score: Callable[[UnitType, str], float],
                settings: Lookahead) -> list[Order]:
    """The orders tried for the unit at ``location``: its hold, its best moves over land or
    sea, support for the other units' planned moves, and support holding the others."""
    unit = position.units[province_of(location)]
    moves = sorted((o for o in options if isinstance(o, Move) and not o.via_convoy),
                   key=lambda o: -score(unit.type, province_of(o.destination)))
    out: list[Order] = [o for o in options if isinstance(o, Hold)]
    out += moves[:settings.moves_tried]
    planned_moves = {province_of(o.location): o for o in orders.values() if isinstance(o, Move)}
    staying = {province_of(loc) for loc, o in orders.items() if not isinstance(o, Move)}
    for option in options:
        if isinstance(option, SupportMove):
            move = planned_moves.get(province_of(option.supported_location))
            if move is not None and _matches(option, move):
                out.append(option)
        elif isinstance(option, SupportHold) \
                and province_of(option.supported_location) in staying:
            out.append(option)
    return out


def _futile_moves(position: Position, orders: Mapping[str, Order],
                  resolution: Resolution) -> int:
    """How many of ``orders``' moves bounced off a unit of another power that stayed where it
    was without supporting or convoying (it held, or its own move failed): the mover stands
    where it stood, and so does the unit it attacked. An attack on a unit that supports or
    convoys cuts that, and is not counted."""
    count = 0
    units = resolution.units
    helping: set[str] | None = None
    for order in orders.values():
        if not isinstance(order, Move):
            continue
        mover = position.units[province_of(order.location)]
        target = province_of(order.destination)
        defender = position.units.get(target)
        if defender is None or defender.power == mover.power \
                or units.get(mover.province) != mover or units.get(target) != defender:
            continue
        if helping is None:  # the units that supported or convoyed
            helping = {key for r in resolution.results
                       if isinstance(r.order, SupportHold | SupportMove | Convoy)
                       and (key := unit_key(r.order))}
        if target not in helping:
            count += 1
    return count


def _outcome(position: Position, power: str, resolution: Resolution, worth: Worth,
             settings: Lookahead) -> float:
    """What the board after ``resolution`` is worth to ``power``."""
    total = 0.0
    for unit in resolution.units.values():
        if unit.power == power:
            total += worth[unit.type].get(unit.province, 0.0)
    for dislodged in resolution.dislodged:
        total += -settings.lost_unit if dislodged.unit.power == power \
            else settings.dislodged_enemy
    centers = position.centers
    fall = position.variant.calendar.season(position.phase.season).centers_change
    for center in position.variant.map.supply_centers():
        standing = resolution.units.get(center)
        if fall:
            owner = centers.get(center) if standing is None else standing.power
            if owner == power:
                total += settings.center
        elif standing is not None and standing.power != power \
                and centers.get(center) == power:
            total -= settings.spring_center
    return total
