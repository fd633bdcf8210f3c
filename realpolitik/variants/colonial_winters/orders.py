"""The orders Colonial Winters adds to the rulebooks' (their kinds are in :mod:`.kinds`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from realpolitik.orders import VariantOrder

__all__ = ["Block", "Mobilisation", "Mobilise"]


@dataclass(frozen=True, slots=True)
class Block(VariantOrder):
    """The unit blocks the crossings of ``point``: a corner's id or a passage's space, as the
    variant declares them (``[[corners]]``, ``[[passages]]``; rule 6(b)-(d)). A block is cut
    as a support is, and a crossing move overrides it with as many supports as there are
    blocks standing against it. ``A E49 BLOCK SICILY``."""

    kind: ClassVar[str] = "block"

    @property
    def point(self) -> str:
        """The corner's id or the passage's space."""
        assert self.argument is not None
        return self.argument


@dataclass(frozen=True, slots=True)
class Mobilise(VariantOrder):
    """An inactive unit is mobilised in an adjustment phase, by foregoing a build (rule 8: one
    foregone build a year mobilises two units, three for the power with sea superiority); in
    a movement phase, a start choice among the inactive units (it holds). ``A N33
    MOBILISE``."""

    kind: ClassVar[str] = "mobilise"


@dataclass(frozen=True, slots=True)
class Mobilisation:
    """What a power may mobilise now (``ColonialWinters.mobilisation``): in a winter, inactive
    units brought into play by foregoing one build, up to ``per_build`` of them, each by a
    :class:`Mobilise` order; in a movement phase, the start choices left."""

    units: frozenset[str]
    """The provinces of the power's units that may be mobilised."""
    per_build: int
    """How many units the one foregone build mobilises (0: none now, see ``reason``)."""
    reason: str = ""
    """Why it may not mobilise now (with ``per_build`` 0), for the player."""
