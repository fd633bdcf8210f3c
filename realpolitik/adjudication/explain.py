"""Plain sentences for order results.

Every order gets one sentence a player understands, naming the units that caused the result and
the strengths of a battle, e.g. ``"A PAR - BUR failed: it bounced with A MUN - BUR (1 vs 1)."``.
The adjudicator decides first and calls these only at the end, once per order.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "and_list",
    "void_sentence",
]

_LOWER_FIRST = {"The", "There", "A", "An", "Only", "No", "These", "It", "Its"}


def and_list(items: Sequence[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} and {items[-1]}"


def clause(sentence: str) -> str:
    """A full sentence made into a clause to follow a colon: no final stop, lower-case start
    unless it starts with a name."""
    text = sentence.strip()
    if text.endswith("."):
        text = text[:-1]
    first, _, rest = text.partition(" ")
    if first in _LOWER_FIRST:
        text = f"{first.lower()} {rest}" if rest else first.lower()
    return text


def void_sentence(order_text: str, message: str) -> str:
    """``"F NTH - PIC is illegal and was not followed: a fleet in ... ."``"""
    return f"{order_text} is illegal and was not followed: {clause(message)}."


def versus(strength: int, opposed: int) -> str:
    """``"(2 vs 1)"``."""
    return f"({strength} vs {opposed})"
