"""Small kernels in the engine's idioms, timed interpreted and compiled with mypyc by
``benchmarks/compiled_idioms.py``: what each way of writing the same step costs on both builds.

Each kernel does one step many times and returns a number (so nothing is optimised away). The
kernels come in pairs or triples that do the same work in different shapes: values read from a
frozen dataclass of an interpreted module, of this (compiled) module, or from a plain class;
places as strings in dictionaries and sets, as integers in lists, or as bits of a mask.
The two files are not a package: the benchmark copies them into a temporary folder, where
``values`` is a module of its own, and compiles this one there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from values import InterpretedMove, Kind

# -- values: frozen dataclasses and plain classes ------------------------------------------------


@dataclass(frozen=True, slots=True)
class FrozenMove:
    """The engine's order shape, but in this module: compiled, it is a native class whose
    ``__init__``, ``__eq__`` and ``__hash__`` the dataclasses module still writes (in Python)."""

    kind: Kind
    location: str
    destination: str


class NativeMove:
    """The same value as a plain class with its own ``__init__``, ``__eq__`` and ``__hash__``:
    compiled, every one of them is native code."""

    __slots__ = ("kind", "location", "destination")

    def __init__(self, kind: Kind, location: str, destination: str) -> None:
        self.kind = kind
        self.location = location
        self.destination = destination

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NativeMove):
            return NotImplemented
        return (self.location == other.location and self.destination == other.destination
                and self.kind is other.kind)

    def __hash__(self) -> int:
        return hash((self.location, self.destination))


def read_interpreted(moves: list[InterpretedMove]) -> int:
    total = 0
    for move in moves:
        total += len(move.location) + len(move.destination)
    return total


def read_frozen(moves: list[FrozenMove]) -> int:
    total = 0
    for move in moves:
        total += len(move.location) + len(move.destination)
    return total


def read_native(moves: list[NativeMove]) -> int:
    total = 0
    for move in moves:
        total += len(move.location) + len(move.destination)
    return total


_new = object.__new__
_Setter = Callable[[InterpretedMove, object], None]


def _setter(name: str) -> _Setter:
    """What ``realpolitik.slots.slot_setter`` gives: the slot's own setter."""
    setter: _Setter = getattr(InterpretedMove, name).__set__
    return setter


_set_kind = _setter("kind")
_set_location = _setter("location")
_set_destination = _setter("destination")


def make_interpreted(places: list[str]) -> int:
    made = [InterpretedMove(Kind.ARMY, place, place) for place in places]
    return len(made)


def make_interpreted_by_slots(places: list[str]) -> int:
    """The engine's trick for interpreted frozen values: ``object.__new__`` and slot setters."""
    made: list[InterpretedMove] = []
    army = Kind.ARMY
    for place in places:
        move: InterpretedMove = _new(InterpretedMove)
        _set_kind(move, army)
        _set_location(move, place)
        _set_destination(move, place)
        made.append(move)
    return len(made)


def make_frozen(places: list[str]) -> int:
    made = [FrozenMove(Kind.ARMY, place, place) for place in places]
    return len(made)


def make_native(places: list[str]) -> int:
    made = [NativeMove(Kind.ARMY, place, place) for place in places]
    return len(made)


def make_frozen_moves(places: list[str]) -> list[FrozenMove]:
    return [FrozenMove(Kind.ARMY, place, place) for place in places]


def make_native_moves(places: list[str]) -> list[NativeMove]:
    return [NativeMove(Kind.ARMY, place, place) for place in places]


def look_up_frozen(table: dict[FrozenMove, int], keys: list[FrozenMove]) -> int:
    """Hash and compare values equal to, but not the same objects as, the table's keys."""
    total = 0
    for key in keys:
        total += table[key]
    return total


def look_up_native(table: dict[NativeMove, int], keys: list[NativeMove]) -> int:
    total = 0
    for key in keys:
        total += table[key]
    return total


def look_up_interpreted(table: dict[InterpretedMove, int], keys: list[InterpretedMove]) -> int:
    total = 0
    for key in keys:
        total += table[key]
    return total


# -- unit types: an enum member against a small integer ------------------------------------------

ARMY: Final = 0
"""A unit type as a small integer."""


def count_armies_enum(kinds: list[Kind]) -> int:
    count = 0
    for kind in kinds:
        if kind is Kind.ARMY:
            count += 1
    return count


def count_armies_enum_hoisted(kinds: list[Kind]) -> int:
    count = 0
    army = Kind.ARMY
    for kind in kinds:
        if kind is army:
            count += 1
    return count


def count_armies_int(kinds: list[int]) -> int:
    count = 0
    for kind in kinds:
        if kind == ARMY:
            count += 1
    return count


# -- places: strings in dictionaries and sets, integers in lists, bits of a mask -----------------

def occupied_neighbours_str(units: list[str], adjacent: dict[str, frozenset[str]],
                            occupied: set[str]) -> int:
    """For each unit, how many of its neighbouring provinces hold a unit: places by name."""
    count = 0
    for place in units:
        for near in adjacent[place]:
            if near in occupied:
                count += 1
    return count


def occupied_neighbours_int(units: list[int], adjacent: list[tuple[int, ...]],
                            occupied: list[bool]) -> int:
    """The same with places as integers: adjacency as tuples, occupancy as a list."""
    count = 0
    for place in units:
        for near in adjacent[place]:
            if occupied[near]:
                count += 1
    return count


def occupied_neighbours_mask(units: list[int], adjacent: list[int], occupied: int) -> int:
    """The same with adjacency and occupancy as bit masks (``mask & -mask`` per bit)."""
    count = 0
    for place in units:
        both = adjacent[place] & occupied
        while both:
            both &= both - 1
            count += 1
    return count


def occupied_neighbours_map(units: list[str], adjacent: dict[str, frozenset[str]],
                            occupied: set[str]) -> int:
    """The interpreter's idiom: the inner loop as C-level set operations."""
    count = 0
    for place in units:
        count += len(adjacent[place] & occupied)
    return count


# -- calls: a cache slot, a looked-up method -----------------------------------------------------

class Owner:
    """What owns cached values (a position, a variant)."""

    __slots__ = ("caches",)

    def __init__(self) -> None:
        self.caches: dict[object, object] = {}


class NativeSlot:
    """``realpolitik.caches.CacheSlot``'s shape: ``slot(owner)`` makes once, then looks up."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[Owner], int]) -> None:
        self.make = make

    def __call__(self, owner: Owner) -> int:
        values = owner.caches
        value = values.get(self)
        if value is None:
            value = values[self] = self.make(owner)
        assert isinstance(value, int)
        return value


def _forty_two(_owner: Owner) -> int:
    return 42


_native_slot = NativeSlot(_forty_two)


def call_native_slot(owners: list[Owner]) -> int:
    total = 0
    for owner in owners:
        total += _native_slot(owner)
    return total


def call_slot(slot: Callable[[Owner], int], owners: list[Owner]) -> int:
    """Through a callable this module does not know (an interpreted ``CacheSlot``)."""
    total = 0
    for owner in owners:
        total += slot(owner)
    return total


def values_by_map(table: dict[str, int], keys: list[str]) -> int:
    """The interpreter's idiom: ``map`` over a dictionary's own ``__getitem__``."""
    return sum(map(table.__getitem__, keys))


def values_by_loop(table: dict[str, int], keys: list[str]) -> int:
    total = 0
    for key in keys:
        total += table[key]
    return total
