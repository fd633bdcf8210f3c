"""Filling the slots of frozen value objects without their constructor.

The engine makes some values by the hundred every phase (listed orders, results, moved units);
a frozen dataclass's ``__init__`` costs about twice what setting its slots directly costs. A
maker built on :func:`slot_setter` must set every field, defaults included, so that the value is
the one the constructor would make (``tests/test_speed_invariants.py`` checks the orders).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["slot_setter"]

_T = TypeVar("_T")


def slot_setter(cls: type[_T], name: str) -> Callable[[_T, object], None]:
    """The function that sets slot ``name`` of a ``cls`` instance, bypassing frozenness."""
    setter: Callable[[_T, object], None] = getattr(cls, name).__set__
    return setter
