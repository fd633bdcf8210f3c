"""What each power ordered in a played phase, its entries made when first read
(:attr:`realpolitik.game.PhaseRecord.orders`).

Apart from :mod:`realpolitik.game` so that it stays interpreted in the compiled build
(``setup.py``): a class mypyc compiles cannot derive from ``Mapping``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from realpolitik.game import SubmittedOrder
    from realpolitik.orders import Order

__all__ = ["RecordedOrders", "spanned_orders"]


class RecordedOrders(Mapping[str, "tuple[SubmittedOrder, ...]"]):
    """Power -> what it ordered in a played phase. A power whose orders were all listed values
    is kept as those values and its entries are made (by ``entry_of``) when first read: a
    game's history then holds no entry per order, which a program playing many games would
    otherwise keep (and the garbage collector walk) for every order of every phase.

    Made by :func:`spanned_orders` (the game's way), the listed values of every power are one tuple
    (the very tuple the phase was adjudicated with, which the resolution keeps too) cut by
    each power's end in it: a phase's record adds two objects to the history, not a
    dictionary and a list per power."""

    __slots__ = ("_entry_of", "_given", "_flat", "_ends")

    def __init__(self, given: dict[str, tuple[SubmittedOrder, ...] | list[Order]],
                 entry_of: Callable[[Order], SubmittedOrder]) -> None:
        self._given: dict[str, tuple[SubmittedOrder, ...] | list[Order]] | None = given
        """Power -> its entries, or the list of its listed order values (entries not made
        yet); with :func:`spanned_orders`, only the powers whose entries are given or made (None
        when there are none)."""
        self._entry_of = entry_of
        """The entry of a listed order value."""
        self._flat: tuple[Order, ...] = ()
        """With :func:`spanned_orders`: the orders of every power, in the order of ``_ends``."""
        self._ends: dict[str, int] | None = None
        """With :func:`spanned_orders`: power -> the end of its orders in ``_flat`` (they begin
        where the power before ends); every power, in the order given. A dictionary of strings
        and numbers, which the collector does not track."""

    def __getitem__(self, power: str) -> tuple[SubmittedOrder, ...]:
        given = self._given
        if given is not None:
            found = given.get(power)
            if found is not None:
                if isinstance(found, list):
                    entries = given[power] = tuple(map(self._entry_of, found))
                    return entries
                return found
        ends = self._ends
        if ends is None or power not in ends:
            raise KeyError(power)
        start = 0
        for other, end in ends.items():
            if other == power:
                break
            start = end
        entries = tuple(map(self._entry_of, self._flat[start:ends[power]]))
        if given is None:
            given = self._given = {}
        given[power] = entries
        return entries

    def _powers(self) -> Mapping[str, object]:
        """The powers recorded, in the order given."""
        ends = self._ends
        if ends is not None:
            return ends
        assert self._given is not None  # (made without spans: every power given)
        return self._given

    def __iter__(self) -> Iterator[str]:
        return iter(self._powers())

    def __len__(self) -> int:
        return len(self._powers())

    def __contains__(self, power: object) -> bool:
        return power in self._powers()

    def __repr__(self) -> str:
        return repr(dict(self.items()))

    def __reduce__(self) -> tuple[object, ...]:
        return (RecordedOrders, (dict(self.items()), self._entry_of))


_new_recorded = RecordedOrders.__new__


def spanned_orders(flat: tuple[Order, ...], ends: dict[str, int],
                   given: dict[str, tuple[SubmittedOrder, ...] | list[Order]] | None,
                   entry_of: Callable[[Order], SubmittedOrder]) -> RecordedOrders:
    """The record of orders ``flat``, each power's ending at ``ends[power]`` (in the order of
    ``ends``, which names every power recorded); ``given``: the entries of the powers whose
    orders are not their slice of ``flat`` (None if none). Made without ``__init__`` (one a
    phase): every slot set."""
    recorded: RecordedOrders = _new_recorded(RecordedOrders)
    recorded._given = given
    recorded._entry_of = entry_of
    recorded._flat = flat
    recorded._ends = ends
    return recorded
