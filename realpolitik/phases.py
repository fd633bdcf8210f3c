"""The order of phases: what comes after a resolved phase, and supply-centre ownership.

The phases follow the variant's year (``variant.calendar``: the rulebooks' Spring and Fall
movement and Winter adjustments by default); a retreat phase is played only when units were
dislodged, an adjustment phase only when some power must or can change its number of units, and
any phase only if the variant's ``phase_skipped`` hook does not skip it. Centre ownership
changes at the end of the movement turn (after its retreats) of each season that says so (the
rulebooks' Fall) and persists while a centre is vacant.
"""

from __future__ import annotations

from typing import Final

from realpolitik.adjudication.adjustments import units_listed
from realpolitik.adjudication.outcomes import Resolution
from realpolitik.calendar import made_phase
from realpolitik.compiling import is_compiled
from realpolitik.errors import HookError
from realpolitik.hooks import VariantHooks, owners_and_changes
from realpolitik.legality import can_build, due_adjustments
from realpolitik.maptables import tables_for
from realpolitik.position import (
    PhaseType,
    Position,
    centers_changed,
    same_centers,
    same_powers,
)

# (an enum member read through its class goes through the metaclass, some hundred instructions
# each time: the phase types are read once here, as every phase asks them)
_MOVEMENT: Final = PhaseType.MOVEMENT
_RETREATS: Final = PhaseType.RETREATS
_ADJUSTMENTS: Final = PhaseType.ADJUSTMENTS

_NO_STANDOFFS: Final[frozenset[str]] = frozenset()
"""The stand-offs of a position after one without (one set for every such position: a game's
history keeps them all)."""
_DEFAULT_NEXT_STATE: Final = VariantHooks.next_state
"""The default hook: the state carried unchanged (read to skip calling it)."""


def _compiled() -> bool:
    """(Only its type counts: see :func:`~realpolitik.compiling.is_compiled`.)"""
    return True


_TYPED_LOOPS: Final[bool] = is_compiled(_compiled)
"""True where this module is compiled: a hot step takes the idiom each build runs fastest."""


def needs_adjustments(position: Position) -> bool:
    """True if some power must remove units, is due builds and has somewhere to build, or has
    orders of the variant's own kinds to give (mobilising inactive units, transforming one)."""
    counts = due_adjustments(position)
    # (asked first: whether a power can build costs far more to find out)
    if counts:
        if _TYPED_LOOPS:  # (compiled, a loop: min() is a generic call of the builtin)
            for difference in counts.values():
                if difference < 0:
                    return True
        elif min(counts.values()) < 0:
            return True
    for power, difference in counts.items():
        if difference > 0 and can_build(position, power):
            return True
    return bool(kind_powers(position))


def kind_powers(position: Position) -> tuple[str, ...]:
    """The powers with orders of the variant's own kinds to give in this adjustment phase
    (:meth:`~realpolitik.kinds.OrderKind.acts`; none in most variants)."""
    kinds = position.variant.kinds.in_phase(PhaseType.ADJUSTMENTS) if position.variant.kinds \
        else ()
    if not kinds:
        return ()
    return tuple(power for power in position.variant.power_ids
                 if any(kind.acts(position, power) for kind in kinds))


def next_position(position: Position, resolution: Resolution) -> Position:
    """The position of the phase that follows ``position`` once ``resolution`` is applied.

    Retreat and adjustment phases with nothing to do are skipped, as are the phases the
    variant's hooks skip; at the end of a turn whose season counts them (the rulebooks' Fall)
    the supply centres change owner. The variant's state is carried by its hooks.

    :raises HookError: the variant's ``phase_skipped`` hook skipped every phase.
    """
    following = _following(position, resolution)
    hooks = position.variant.hooks
    # (the default hook carries the state unchanged: not called, as it runs interpreted)
    state = position.state if type(hooks).next_state is _DEFAULT_NEXT_STATE \
        else hooks.next_state(position, resolution, following)
    if state is not following.state:
        following = following.replace(state=state)
    return following


def _following(position: Position, resolution: Resolution) -> Position:
    phase = position.phase
    units = resolution.units
    if phase.type is _MOVEMENT and resolution.dislodged:
        retreat_phase = made_phase(phase.season, phase.year, _RETREATS)  # (no __init__)
        retreats = position.replace(
            phase=retreat_phase,
            units=units,
            dislodged=resolution.dislodged,
            standoffs=resolution.standoffs,
        )
        same_centers(position, retreats)
        return retreats
    variant = position.variant
    hooks = variant.hooks
    asks_hooks = type(hooks).phase_skipped is not VariantHooks.phase_skipped
    centers = position.centers
    counted = False  # (whether the centres changed hands on the way)
    changes: list[tuple[str | None, str]] | None = None  # (which, when the default rule says)
    # (a movement phase that lost no unit: the same units, moved)
    moved_only = phase.type is _MOVEMENT and len(units) == len(position.units)
    # The year's phases from this one to the next that is played; two years are enough
    # unless the hooks skip every phase.
    year = phase.year
    for centers_change, code, years, kind in variant.calendar.walk_after(phase):
        candidate = made_phase(code, year + years, kind)
        if centers_change:
            # the end of a turn whose season counts: the centres change hands
            counted = True
            in_order = tables_for(variant).centers_in_order
            if type(hooks).center_owners is VariantHooks.center_owners:
                centers, changes = owners_and_changes(position.centers, units, in_order)
            else:
                centers = hooks.center_owners(position, units, in_order)
        following = position.replace(phase=candidate, units=units, centers=centers,
                                     dislodged=(), standoffs=_NO_STANDOFFS)
        # (what the position before had counted, carried: not counted again)
        if not counted:
            same_centers(position, following)
        elif changes is not None:
            centers_changed(position, following, changes)
        if moved_only:
            same_powers(position, following)
        if candidate.type is _ADJUSTMENTS:
            if moved_only:  # (the winter's counts from the units the listing counted)
                units_listed(position, following)
            if not needs_adjustments(following):
                continue
        if asks_hooks and hooks.phase_skipped(following):
            continue
        return following
    raise HookError(f"the hook {type(hooks).__name__}.phase_skipped skipped every phase of two "
                    f"years after {position.phase}", hook="phase_skipped")
