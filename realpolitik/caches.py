"""What the engine works out once and keeps: typed cache slots with one owner each, and bounds.

The engine derives tables from values that never change (a :class:`~realpolitik.variant.Variant`,
a :class:`~realpolitik.position.Position`) and keeps them with the value, so that they live
exactly as long as it and no global cache is needed. Three pieces say how:

- :class:`Caches` is the container one owner holds (``variant.caches``, ``position.caches``).
  It is not part of the owner's value: owners leave it out of equality, hashing and ``repr``,
  and a copy of an owner starts with an empty one.
- :class:`CacheSlot` names one thing kept there, with its type and the function that makes it
  from the owner: ``slot(owner)`` makes it on first use and returns the same object after. A
  module declares its slots once, at import; no string keys, no casts at the call sites.
- :class:`Bounded` is a mapping that keeps at most a stated number of entries, for tables that
  would otherwise grow with every game played on a shared variant. When full it drops the
  older half of its entries (in the order they were added), so a table that is asked the same
  things again and again keeps the recent ones without paying for LRU bookkeeping on each
  look-up.

Each slot's docstring (at its declaration) states its bound: fixed by the map, by the number of
powers, or a :class:`Bounded` size.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice
from typing import Any, Final, Generic, Protocol, TypeVar

from realpolitik.compiling import mypyc_attr

__all__ = ["Bounded", "CacheSlot", "Caches", "HasCaches"]

_T = TypeVar("_T")
_K = TypeVar("_K")
_V = TypeVar("_V")


class Caches:
    """The derived values one owner keeps, by :class:`CacheSlot`.

    Never part of its owner's value: compared, hashed and shown by identity only (owners
    exclude it from their own equality, hash and ``repr``)."""

    __slots__ = ("_values",)

    def __init__(self) -> None:
        self._values: dict[CacheSlot[Any, Any], Any] = {}

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, slot: object) -> bool:
        return slot in self._values

    def names(self) -> tuple[str, ...]:
        """The names of the slots filled so far, in the order they were filled."""
        return tuple(slot.name for slot in self._values)

    def clear(self) -> None:
        """Forget everything kept (it will be made again when next asked for)."""
        self._values.clear()

    def __reduce__(self) -> tuple[type[Caches], tuple[()]]:
        # A copy (copy, deepcopy, pickle) starts empty, as the owner's copy does: derived
        # values are made again when asked for (and a compiled Caches has no other way to be
        # copied).
        return (Caches, ())

    def __repr__(self) -> str:
        return f"<Caches {', '.join(self.names()) or 'empty'}>"


class HasCaches(Protocol):
    """An owner of :class:`Caches` (a variant, a position)."""

    @property
    def caches(self) -> Caches:
        """The owner's caches."""


_O = TypeVar("_O", bound=HasCaches, contravariant=True)


class CacheSlot(Generic[_O, _T]):
    """One named, typed value kept in its owner's :class:`Caches`, made on first use.

    ``slot = CacheSlot("map tables", make)`` at import; ``slot(owner)`` returns
    ``make(owner)``, made the first time and kept in ``owner.caches`` after. ``make`` must
    depend only on the owner (which is immutable), so the kept value stays true.
    """

    __slots__ = ("name", "make")

    def __init__(self, name: str, make: Callable[[_O], _T]) -> None:
        self.name = name
        """What the slot holds, for ``repr`` and :meth:`Caches.names`."""
        self.make = make

    def __call__(self, owner: _O) -> _T:
        values = owner.caches._values  # noqa: SLF001 (the slot is the container's accessor)
        # (values are stored under their slot, which made them: the slot's type is theirs)
        value: _T = values.get(self, _MISSING)
        if value is _MISSING:
            value = values[self] = self.make(owner)
        return value

    def put(self, owner: _O, value: _T) -> None:
        """Keep ``value`` for ``owner``, as if made: only a value equal to what ``make(owner)``
        would give (worked out more cheaply, from a value kept for another owner)."""
        owner.caches._values[self] = value  # noqa: SLF001

    def carry(self, before: _O, after: _O) -> None:
        """Keep for ``after`` the value kept for ``before``, if one was made: only when
        ``make(after)`` would give an equal value (``after`` holds the same inputs: a position
        whose centres are the one before's). ``peek`` then ``put`` in one call."""
        value = before.caches._values.get(self, _MISSING)  # noqa: SLF001
        if value is not _MISSING:
            after.caches._values[self] = value  # noqa: SLF001

    def peek(self, owner: _O) -> _T | None:
        """The kept value if it was made already, else None (nothing is made)."""
        value: _T | None = owner.caches._values.get(self)  # noqa: SLF001
        return value

    def __repr__(self) -> str:
        return f"<CacheSlot {self.name!r}>"


# (Final: compiled, a C static, not a look-up in the module's dictionary at every slot call)
_MISSING: Final = object()


def _refuse(*_args: object, **_kwargs: object) -> Any:
    raise TypeError("a Bounded table is filled one entry at a time (table[key] = value)")


@mypyc_attr(native_class=False)  # a Python class even when compiled: the refusals below
class Bounded(dict[_K, _V]):
    """A dictionary that keeps at most ``bound`` entries.

    Adding an entry to a full table first drops the older half of its entries (the first
    added), so its size never passes ``bound`` and a look-up costs what a dictionary's does.
    Only ``table[key] = value`` and the read-only methods may be used: the other ways of adding
    entries (``update``, ``setdefault``, ``|=``) raise, as they would pass the bound.
    """

    __slots__ = ("bound",)

    def __init__(self, bound: int) -> None:
        if bound < 2:
            raise ValueError(f"a Bounded table needs a bound of at least 2, not {bound}")
        super().__init__()
        self.bound = bound

    def __setitem__(self, key: _K, value: _V) -> None:
        if len(self) >= self.bound and key not in self:
            self._drop_older_half()
        # (the dictionary's own method named: ``super()`` makes a proxy object and looks the
        # method up through it, each entry added)
        dict.__setitem__(self, key, value)

    def _drop_older_half(self) -> None:
        older = list(islice(self, self.bound // 2 or 1))
        for key in older:
            # pop, not del: two threads filling one table may both drop the same entry
            self.pop(key, None)

    # (a function of the module, not of the class body: mypyc builds a compiled Python class's
    # namespace without the class body's own names)
    update = _refuse
    setdefault = _refuse
    __ior__ = _refuse

    def __repr__(self) -> str:
        return f"<Bounded {len(self)}/{self.bound}>"

