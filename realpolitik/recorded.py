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

__all__ = ["RecordedOrders"]


class RecordedOrders(Mapping[str, "tuple[SubmittedOrder, ...]"]):
    """Power -> what it ordered in a played phase. A power whose orders were all listed values
    is kept as those values and its entries are made (by ``entry_of``) when first read: a
    game's history then holds no entry per order, which a program playing many games would
    otherwise keep (and the garbage collector walk) for every order of every phase."""

    __slots__ = ("_entry_of", "_given")

    def __init__(self, given: dict[str, tuple[SubmittedOrder, ...] | list[Order]],
                 entry_of: Callable[[Order], SubmittedOrder]) -> None:
        self._given = given
        """Power -> its entries, or the list of its listed order values (entries not made
        yet)."""
        self._entry_of = entry_of
        """The entry of a listed order value."""

    def __getitem__(self, power: str) -> tuple[SubmittedOrder, ...]:
        given = self._given[power]
        if isinstance(given, list):
            entries = self._given[power] = tuple(map(self._entry_of, given))
            return entries
        return given

    def __iter__(self) -> Iterator[str]:
        return iter(self._given)

    def __len__(self) -> int:
        return len(self._given)

    def __repr__(self) -> str:
        return repr(dict(self.items()))

    def __reduce__(self) -> tuple[object, ...]:
        return (RecordedOrders, (dict(self.items()), self._entry_of))
