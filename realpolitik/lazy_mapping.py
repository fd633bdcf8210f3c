"""A read-only mapping whose values are made from their sources when first read.

Apart from the modules that use it so that it stays interpreted in the compiled build
(``setup.py``): mypyc cannot make a class that derives from ``Mapping``, not even one marked
``native_class=False`` (the class statement fails at import with a metaclass conflict).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Generic, TypeVar

__all__ = ["MadeOnRead"]

_K = TypeVar("_K")
_S = TypeVar("_S")
_V = TypeVar("_V")


class MadeOnRead(Mapping[_K, _V], Generic[_K, _S, _V]):
    """Key -> ``make(sources[key])``: the keys are the sources', every value is made the first
    time any is read (membership, length and iteration read the sources only)."""

    __slots__ = ("_sources", "_make", "_made")

    def __init__(self, sources: dict[_K, _S], make: Callable[[_S], _V]) -> None:
        self._sources = sources
        self._make = make
        self._made: dict[_K, _V] | None = None

    def _values_made(self) -> dict[_K, _V]:
        made = self._made
        if made is None:
            make = self._make
            made = self._made = {key: make(source) for key, source in self._sources.items()}
        return made

    def __getitem__(self, key: _K) -> _V:
        return self._values_made()[key]

    def __iter__(self) -> Iterator[_K]:
        return iter(self._sources)

    def __len__(self) -> int:
        return len(self._sources)

    def __contains__(self, key: object) -> bool:
        return key in self._sources
