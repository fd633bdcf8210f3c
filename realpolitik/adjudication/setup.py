"""Accepting the orders of a phase: legality, duplicates, and which unit each order is for."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from realpolitik.adjudication.explain import void_sentence
from realpolitik.adjudication.outcomes import OrderResult, Outcome, Result
from realpolitik.geography import province_of
from realpolitik.legality import Illegal, listed_checker, normalize_order
from realpolitik.orders import Order, Waive
from realpolitik.position import Position
from realpolitik.rules import Rules

__all__ = ["Accepted", "Entry", "accept_orders"]

_DUPLICATE = Illegal(
    "duplicate_order", "The unit was given another order, which is the one followed."
)
_CONFLICT = Illegal(
    "conflicting_orders", "The unit was given several orders, so none is followed and it holds."
)


@dataclass(slots=True)
class Entry:
    """One given order: who gave it, which unit it is for, and how the rules read it."""

    given: Order
    power: str
    unit_index: int
    order: Order | None
    illegal: Illegal | None

    def void_result(self) -> OrderResult:
        assert self.illegal is not None
        return OrderResult(
            self.given, self.power, Result.VOID, Outcome.ILLEGAL,
            void_sentence(str(self.given), self.illegal.message),
            illegal_reason=self.illegal.code,
        )


@dataclass(slots=True)
class Accepted:
    """The given orders in their order, and the one order that counts for each unit."""

    entries: list[Entry] = field(default_factory=list)
    by_unit: dict[int, Entry] = field(default_factory=dict)


def accept_orders(position: Position, orders: Iterable[Order], rules: Rules,
                  index: Mapping[str, int]) -> Accepted:
    """Check every order of a movement phase; ``index`` maps provinces to unit indices."""
    accepted = Accepted()
    entries = accepted.entries
    by_unit = accepted.by_unit
    doubled: dict[int, list[Entry]] = {}
    units = position.units
    find = index.get
    listed = listed_checker(position, rules)
    for given in orders:
        power = given.power or ""
        if type(given) is Waive:
            unit_index = -1
        else:
            assert not isinstance(given, Waive)
            location = given.location
            # most units stand on a province, not a coast: try the location as it is first
            unit_index = find(location, -1)
            if unit_index < 0 and "/" in location:
                location = province_of(location)
                unit_index = find(location, -1)
            if not power and unit_index >= 0:
                power = units[location].power
        if listed(given):  # listed by legal_orders: legal as it stands
            entry = Entry(given, power, unit_index, given, None)
        else:
            checked = normalize_order(position, given, rules=rules)
            if type(checked) is Illegal:
                assert isinstance(checked, Illegal)
                entries.append(Entry(given, power, unit_index, None, checked))
                continue
            assert not isinstance(checked, Illegal)
            entry = Entry(given, power, unit_index, checked, None)
        entries.append(entry)
        first = by_unit.setdefault(unit_index, entry)
        if first is not entry:
            doubled.setdefault(unit_index, [first]).append(entry)
    # Several legal orders for one unit (DATC 4.D.3).
    for unit_index, given_orders in doubled.items():
        keep: Entry | None = given_orders[0]
        if rules.duplicate_orders == "last":
            keep = given_orders[-1]
        elif rules.duplicate_orders == "hold":
            keep = None
        for entry in given_orders:
            if entry is not keep:
                entry.illegal = _DUPLICATE if keep is not None else _CONFLICT
                entry.order = None
        if keep is None:
            del by_unit[unit_index]
        else:
            by_unit[unit_index] = keep
    return accepted
