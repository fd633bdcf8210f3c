"""Who owns the supply centres after a Fall: the default rule, on its own.

:meth:`realpolitik.hooks.VariantHooks.center_owners` (and the game's phases, when a variant
keeps that default) read it from here: a small module of its own, so that the compiled build
compiles it (``hooks`` stays interpreted: variants subclass its classes) without an import
cycle (``position`` imports ``hooks``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from realpolitik.variant_rules import NEUTRAL

if TYPE_CHECKING:  # pragma: no cover - the units are the engine's, made elsewhere
    from realpolitik.position import Unit


def owners_and_changes(centers: Mapping[str, str], units: Mapping[str, Unit],
                       supply_centers: Sequence[str],
                       ) -> tuple[dict[str, str], list[tuple[str | None, str]]]:
    """The default :meth:`VariantHooks.center_owners` (``centers``: the owners before), with
    the centres that changed hands: (previous owner, None if it had none, and new owner) for
    each, in the order of ``supply_centers``. The game counts the centres from them."""
    # (a read-only view's own copy: dict() of the view reads it key by key)
    owners = centers.copy() if type(centers) is MappingProxyType else dict(centers)
    changes: list[tuple[str | None, str]] = []
    for center in supply_centers:
        # (``in`` and ``[]``, not ``get``: on a read-only mapping ``get`` looks the
        # method up by name on every call)
        if center in units:
            power = units[center].power
            previous = owners.get(center)  # (compiled: dict's own get, in C)
            # (the owner first: most occupied centres are their owner's, the same string
            # object, so told at once; the neutral test compares characters)
            if previous != power and power != NEUTRAL:
                owners[center] = power
                changes.append((previous, power))
    return owners, changes
