"""Filling the slots of frozen value objects without their constructor.

The engine makes some values by the hundred every phase (listed orders, results, moved units);
a frozen dataclass's ``__init__`` costs about twice what setting its slots directly costs. A
maker built on :func:`slot_setter` or :func:`filling_class` must set every field, defaults
included, so that the value is the one the constructor would make
(``tests/test_speed_invariants.py`` and ``tests/test_values_speed_filling.py`` check).

Two ways, for the interpreted build (a compiled module writes its classes' fields natively):

- :func:`slot_setter`: one call of the slot's descriptor per field (some 650 instructions
  each, a call through a method wrapper), for a value whose fields are few or set one at a
  time;
- :func:`filling_class`: the value made as an instance of a subclass that allows assignment,
  its fields written by plain attribute stores (some 60 instructions each), then given its own
  class (``made.__class__ = cls``, some 500): cheaper from three fields on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["filling_class", "set_class", "set_fields", "slot_setter"]

_T = TypeVar("_T")


def slot_setter(cls: type[_T], name: str) -> Callable[[_T, object], None]:
    """The function that sets slot ``name`` of a ``cls`` instance, bypassing frozenness."""
    setter: Callable[[_T, object], None] = getattr(cls, name).__set__
    return setter


def filling_class(cls: type[_T]) -> type[_T]:
    """A subclass of ``cls`` (a class with ``__slots__`` and a ``__setattr__`` that refuses)
    whose instances take plain assignments: a maker makes the value as one of these, writes its
    fields (``made.field = value``) and then gives it its own class (``made.__class__ = cls``,
    allowed: the two have the same slots). The filling instance never leaves the maker.

    Interpreted classes only: a class compiled by mypyc takes no subclass written in Python
    (and writes its fields natively anyway)."""
    namespace: dict[str, object] = {
        "__slots__": (),  # (no slot of its own: the same layout as cls, so the class may change)
        # (object's own, so that attribute stores take the interpreter's direct path)
        "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__,
        "__module__": cls.__module__,
        "__qualname__": f"{cls.__qualname__}.filling",
        "__doc__": f"A {cls.__name__} being filled (never handed out).",
    }
    return type(f"{cls.__name__}Filling", (cls,), namespace)


set_class: Callable[[object, type], None] = object.__dict__["__class__"].__set__
"""``set_class(value, cls)``: ``value.__class__ = cls`` where the class of ``value`` refuses
assignment (an ``__init__`` switching its instance to a :func:`filling_class` and back)."""


def set_fields(value: object, names: tuple[str, ...], fields: tuple[object, ...]) -> None:
    """Set the slots ``names`` of ``value`` to ``fields`` one by one, bypassing frozenness: the
    way for an instance of a subclass, whose layout the :func:`filling_class` of its base may
    not share (a class switch would fail, or would drop the subclass)."""
    for name, field in zip(names, fields, strict=True):
        object.__setattr__(value, name, field)
