"""The retreat phase: each dislodged unit retreats or is disbanded (rulebook XII, 1992).

A retreat must go to a place the unit could move to, not occupied, not where its attacker came
from (unless that attacker came by convoy and the rules allow it, DATC 4.A.5), and not left empty
by a stand-off. Two or more units retreating to one province are all disbanded. A unit with no
(legal) retreat order is disbanded. Retreats are neither supported nor convoyed.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import MappingProxyType

from realpolitik.adjudication.explain import and_list
from realpolitik.adjudication.outcomes import OrderResult, Outcome, Resolution, Result
from realpolitik.adjudication.setup import Entry
from realpolitik.geography import province_of
from realpolitik.legality import Illegal, normalize_order
from realpolitik.listing import listed_checker
from realpolitik.orders import Order, Retreat, Waive
from realpolitik.position import Position, moved_unit
from realpolitik.rules import DuplicateOrders, Rules
from realpolitik.writing import place_writer

__all__ = ["adjudicate_retreats"]

_DUPLICATE = Illegal("duplicate_order", "The unit was given another order, which is the one "
                                        "followed.")
_CONFLICT = Illegal("conflicting_orders", "The unit was given several orders, so none is "
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


def adjudicate_retreats(position: Position, orders: Iterable[Order], rules: Rules) -> Resolution:
    """Resolve a retreat phase."""
    entries: list[Entry] = []
    legal_for: dict[int, list[Entry]] = {}
    listed = listed_checker(position, rules)  # a listed order is legal as it stands
    for given in orders:
        index = _dislodged_index(position, given)
        power = given.power or (position.dislodged[index].unit.power if index >= 0 else "")
        checked = given if listed(given) else normalize_order(position, given, rules=rules)
        if isinstance(checked, Illegal):
            entries.append(Entry(given, power, index, None, checked))
            continue
        entry = Entry(given, power, index, checked, None)
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
    units = dict(position.units)
    results: list[OrderResult] = []
    writer = place_writer(position.variant)
    for entry in entries:
        if entry.illegal is not None or entry.order is None:
            result = entry.void_result()
            results.append(OrderResult(
                result.order, result.power, result.result, result.outcome,
                f"{result.reason[:-1]}; the unit was disbanded.",
                illegal_reason=result.illegal_reason,
            ))
            continue
        order = entry.order
        text = writer.order(order)
        if isinstance(order, Retreat):
            dest = province_of(order.destination)
            rivals = [i for i in going[dest] if i != entry.unit_index]
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
            unit = position.dislodged[entry.unit_index].unit
            units[dest] = moved_unit(unit, order.destination)
            results.append(OrderResult(entry.given, entry.power, Result.SUCCEEDS,
                                       Outcome.RETREATED, f"{text}: the unit retreated."))
        else:
            results.append(OrderResult(entry.given, entry.power, Result.SUCCEEDS,
                                       Outcome.DISBANDED, f"{text}: the unit was disbanded."))
    return Resolution(
        phase=position.phase,
        results=tuple(results),
        units=MappingProxyType({p: units[p] for p in sorted(units)}),
    )
