"""Values the idiom kernels read but never compile: the engine's shape today, a frozen dataclass
with slots in a module that stays interpreted (as ``realpolitik/orders.py`` and
``realpolitik/position.py`` are, outside ``setup.py``'s list)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Kind(StrEnum):
    """A unit type as the engine has it: a string enum."""

    ARMY = "A"
    FLEET = "F"


@dataclass(frozen=True, slots=True)
class InterpretedMove:
    """An order-like frozen value in an interpreted module."""

    kind: Kind
    location: str
    destination: str


class InterpretedSlot:
    """``realpolitik.caches.CacheSlot``'s shape in an interpreted module: ``slot(owner)`` makes
    the value once, then looks it up in ``owner.caches``."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[Any], int]) -> None:
        self.make = make

    def __call__(self, owner: Any) -> int:
        values = owner.caches
        value: int | None = values.get(self)
        if value is None:
            value = values[self] = self.make(owner)
        return value
