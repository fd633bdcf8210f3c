"""The retreat phase: each dislodged unit retreats or is disbanded (rulebook XII, 1992).

A retreat must go to a place the unit could move to, not occupied, not where its attacker came
from (unless that attacker came by convoy and the rules allow it, DATC 4.A.5), and not left empty
by a stand-off. Two or more units retreating to one province are all disbanded. A unit with no
(legal) retreat order is disbanded, unless the variant's hooks send it somewhere
(:meth:`~realpolitik.hooks.VariantHooks.unordered_retreat`: a variant's rule may retreat an
unordered army at random, with a generator seeded by the phase). Retreats are neither supported
nor convoyed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from functools import partial
from types import MappingProxyType
from typing import Final

from realpolitik.adjudication.explain import and_list
from realpolitik.adjudication.outcomes import (
    OrderResult,
    Outcome,
    Resolution,
    Result,
    made_resolution,
)
from realpolitik.adjudication.setup import Entry, in_sorted_order
from realpolitik.geography import province_of
from realpolitik.hooks import VariantHooks
from realpolitik.legality import Illegal, normalize_order, retreat_options
from realpolitik.listing import listed_checker
from realpolitik.orders import Disband, Order, Retreat, Waive
from realpolitik.position import Position, Unit, moved_unit
from realpolitik.rules import DuplicateOrders, Rules
from realpolitik.variant_rules import UnorderedRetreats
from realpolitik.writing import PlaceWriter, place_writer

__all__ = ["adjudicate_retreats", "draws_retreats", "unordered_retreats"]

_DUPLICATE: Final = Illegal("duplicate_order", "The unit was given another order, which is the one "
                                        "followed.")
_CONFLICT: Final = Illegal("conflicting_orders", "The unit was given several orders, so none is "
                                          "followed and it is disbanded.")


def _dislodged_index(position: Position, order: Order) -> int:
    if isinstance(order, Waive):
        return -1
    province = province_of(order.location)
    found = -1
    for i, d in enumerate(position.dislodged):
        if d.unit.province == province:
            if order.power is None or d.unit.power == order.power:
                return i
            if found < 0:
                found = i
    return found


def draws_retreats(position: Position) -> bool:
    """True if the variant may send a dislodged unit with no order somewhere."""
    hooks = position.variant.hooks
    return type(hooks).unordered_retreat is not VariantHooks.unordered_retreat \
        or position.variant.rules.unordered_retreats is UnorderedRetreats.RANDOM


def unordered_retreats(position: Position, orders: Iterable[Order], rules: Rules,
                       rng: random.Random) -> list[Retreat]:
    """The retreats the variant's hooks draw (with ``rng``) for the dislodged units given no
    order that can be followed: none, or an illegal one (a variant's rule: an army
    ordered to disband with a retreat open is retreated at random, as an unordered one is).
    The rulebooks draw none: such units are disbanded."""
    if not position.dislodged or not draws_retreats(position):
        return []
    ordered = set()
    for order in orders:
        if isinstance(order, Retreat | Disband) \
                and not isinstance(normalize_order(position, order, rules=rules), Illegal):
            ordered.add(order.province)
    hooks = position.variant.hooks
    drawn: list[Retreat] = []
    for dislodged in position.dislodged:
        unit = dislodged.unit
        if unit.province in ordered:
            continue
        options = retreat_options(position, dislodged, rules=rules)
        where = hooks.unordered_retreat(position, dislodged, options, rng)
        if where is not None:
            drawn.append(Retreat(unit.type, unit.location, where, power=unit.power))
    return drawn


def adjudicate_retreats(position: Position, orders: Iterable[Order], rules: Rules, *,
                        checked: bool = False) -> Resolution:
    """Resolve a retreat phase. A dislodged unit with no order that can be followed goes where
    the variant's hooks send it, drawn with a generator seeded by the phase (a game draws with
    its own seed first, :func:`unordered_retreats`, and gives the draws as orders).
    ``checked``: the caller vouches that every order is legal as it stands."""
    orders = tuple(orders)
    # (the generator, seeded from a string, is made only where the variant draws retreats)
    draws = unordered_retreats(position, orders, rules,
                               random.Random(f"{position.phase}/retreats")) \
        if position.dislodged and draws_retreats(position) else []
    drawn = frozenset(draws)
    orders = (*orders, *draws)  # (in the order of the dislodged units: results are stable)
    entries: list[Entry] = []
    legal_for: dict[int, list[Entry]] = {}
    # a listed order is legal as it stands (a drawn one is made legal by the hooks' choice)
    listed = None if checked and not draws else listed_checker(position, rules)
    for given in orders:
        index = _dislodged_index(position, given)
        power = given.power or (position.dislodged[index].unit.power if index >= 0 else "")
        reading = given if listed is None or listed(given) \
            else normalize_order(position, given, rules=rules)
        if isinstance(reading, Illegal):
            entries.append(Entry(given, power, index, None, reading))
            continue
        entry = Entry(given, power, index, reading, None)
        entries.append(entry)
        legal_for.setdefault(index, []).append(entry)
    chosen: dict[int, Entry] = {}
    for index, candidates in legal_for.items():
        keep: Entry | None
        if len(candidates) == 1 or rules.duplicate_orders is DuplicateOrders.FIRST:
            keep = candidates[0]
        elif rules.duplicate_orders is DuplicateOrders.LAST:
            keep = candidates[-1]
        else:
            keep = None
        for entry in candidates:
            if entry is keep:
                chosen[index] = entry
            else:
                entry.illegal = _DUPLICATE if keep is not None else _CONFLICT
                entry.order = None
    # Retreats to the same province all fail.
    going: dict[str, list[int]] = {}
    for index, entry in chosen.items():
        if isinstance(entry.order, Retreat):
            going.setdefault(province_of(entry.order.destination), []).append(index)
    # The board after the retreats: the board before (sorted, as the engine keeps it) with the
    # units that retreated; made again in sorted order only when some did.
    before = position.units
    units = before.copy() if type(before) is MappingProxyType else dict(before)
    for dest, indices in going.items():
        if len(indices) == 1:
            order = chosen[indices[0]].order
            assert isinstance(order, Retreat)
            units[dest] = moved_unit(position.dislodged[indices[0]].unit, order.destination)
    if len(units) == len(before) and type(before) is MappingProxyType \
            and in_sorted_order(before):
        board = before
    else:
        in_order: dict[str, Unit] = {}  # (a loop: a comprehension is a function call)
        for p in sorted(units):
            in_order[p] = units[p]
        board = MappingProxyType(in_order)
    return made_resolution(position.phase,
                           partial(_results, tuple(entries), chosen, going, drawn,
                                   place_writer(position.variant)),
                           board)


def _results(entries: tuple[Entry, ...], chosen: Mapping[int, Entry],
             going: Mapping[str, list[int]], drawn: frozenset[Order],
             writer: PlaceWriter) -> tuple[OrderResult, ...]:
    """The result of each order given (made when first read: a game seldom reads them):
    ``chosen`` is the order followed for each dislodged unit (by index), ``going`` the units
    retreating to each province, ``drawn`` the retreats the variant's hooks drew."""
    results: list[OrderResult] = []
    for entry in entries:
        if entry.illegal is not None or entry.order is None:
            result = entry.void_result(writer)
            followed = chosen.get(entry.unit_index)
            if followed is None or followed.order is None:
                reason = f"{result.reason[:-1]}; the unit was disbanded."
            elif entry.illegal is _DUPLICATE:
                reason = result.reason  # (it says that another order is followed)
            elif followed.given in drawn:
                reason = (f"{result.reason[:-1]}; the unit is treated as unordered and "
                          f"retreats at random: {writer.order(followed.order)}.")
            else:
                reason = f"{result.reason[:-1]}; {writer.order(followed.order)} is followed " \
                         f"instead."
            results.append(OrderResult(
                result.order, result.power, result.result, result.outcome, reason,
                illegal_reason=result.illegal_reason,
            ))
            continue
        order = entry.order
        text = writer.order(order)
        if isinstance(order, Retreat):
            rivals = [i for i in going[province_of(order.destination)] if i != entry.unit_index]
            if rivals:
                names = [writer.order(rival) for i in rivals
                         if (rival := chosen[i].order) is not None]
                results.append(OrderResult(
                    entry.given, entry.power, Result.FAILS, Outcome.BOUNCED,
                    f"{text} failed: it bounced with {and_list(names)}, and the unit was "
                    f"disbanded.",
                    by=tuple(names),
                ))
                continue
            how = ", drawn at random: it had no order that could be followed" \
                if entry.given in drawn else ""
            results.append(OrderResult(entry.given, entry.power, Result.SUCCEEDS,
                                       Outcome.RETREATED, f"{text}: the unit retreated{how}."))
        else:
            results.append(OrderResult(entry.given, entry.power, Result.SUCCEEDS,
                                       Outcome.DISBANDED, f"{text}: the unit was disbanded."))
    return tuple(results)
