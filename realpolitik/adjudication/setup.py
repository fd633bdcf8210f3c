"""Accepting the orders of a phase: legality, duplicates, and which unit each order is for."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from realpolitik.adjudication.explain import void_sentence
from realpolitik.adjudication.outcomes import OrderResult, Outcome, Result
from realpolitik.geography import province_of
from realpolitik.legality import Illegal, normalize_order
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
    legal_for: dict[int, list[Entry]] = {}
    for given in orders:
        unit_index = -1
        power = given.power or ""
        if not isinstance(given, Waive):
            unit = position.units.get(province_of(given.location))
            if unit is not None:
                unit_index = index[unit.province]
                power = power or unit.power
        checked = normalize_order(position, given, rules=rules)
        if isinstance(checked, Illegal):
            entry = Entry(given, power, unit_index, None, checked)
        else:
            entry = Entry(given, power, unit_index, checked, None)
            legal_for.setdefault(unit_index, []).append(entry)
        accepted.entries.append(entry)
    for unit_index, entries in legal_for.items():
        if len(entries) == 1 or rules.duplicate_orders == "first":
            keep: Entry | None = entries[0]
        elif rules.duplicate_orders == "last":
            keep = entries[-1]
        else:
            keep = None
        for entry in entries:
            if entry is keep:
                accepted.by_unit[unit_index] = entry
            else:
                entry.illegal = _DUPLICATE if keep is not None else _CONFLICT
                entry.order = None
    return accepted
