"""What the compiled build needs to know about a class, said without a dependency at run time.

mypyc (``setup.py``, ``docs/compat.md`` "The compiled path") compiles the classes of the modules
it is given into native classes: fast to read, but closed to subclasses written in Python and
without the class-body tricks of a Python class (a method assigned under a second name). A
class that needs those says so with :func:`mypyc_attr`, e.g.
``@mypyc_attr(native_class=False)`` or ``@mypyc_attr(allow_interpreted_subclasses=True)``.
A frozen dataclass compiled as a native class cannot be copied or pickled the default way (that
sets its fields one by one, which a frozen class refuses): one that is copied (reachable from a
``Game``) returns :func:`made_again` from ``__reduce__``.

mypyc reads that decorator while compiling, from ``mypy_extensions``; at run time it does
nothing. So that the engine keeps to the standard library, the name is imported from
``mypy_extensions`` only for the type checker (and so for mypyc); at run time it is a function
that returns the class unchanged. This module must never itself be compiled (``setup.py`` leaves
it out; ``tests/test_build.py`` checks): mypyc drops the branch the type checker does not see.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from types import FunctionType
from typing import TYPE_CHECKING, Any, TypeVar

__all__ = ["Reduced", "is_compiled", "made_again", "mypyc_attr"]

Reduced = tuple[Callable[..., object], tuple[object, ...]]
"""What ``__reduce__`` returns: how to make the value again, and with what."""

_C = TypeVar("_C")

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(*_flags: object, **_attributes: object) -> Callable[[_C], _C]:
        """At run time: the class, unchanged (mypyc has read the attributes already)."""
        return _unchanged


def _unchanged(cls: _C) -> _C:
    return cls


def made_again(value: Any) -> Reduced:
    """``__reduce__`` for a frozen dataclass whose fields are all given to its constructor, in
    order: copy and pickle make it again by calling the class (as the pure-Python class
    would be, in effect, and as a compiled one must be)."""
    return (type(value), tuple(getattr(value, field.name) for field in fields(value)))


def is_compiled(function: Callable[..., object]) -> bool:
    """True if ``function`` was compiled by mypyc (a compiled module's functions are not Python
    functions): a module asks it of one of its own functions to take, where the two builds'
    fastest idioms differ, its build's."""
    return not isinstance(function, FunctionType)
