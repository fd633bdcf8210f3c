"""The order of phases: what comes after a resolved phase, and supply-centre ownership.

Spring and Fall movement; a retreat phase only when units were dislodged; adjustments after Fall
only when some power must or can change its number of units. Centre ownership changes at the end
of a Fall turn (after its retreats) and persists while a centre is vacant.
"""

from __future__ import annotations

from realpolitik.adjudication.outcomes import Resolution
from realpolitik.legality import adjustment_counts, can_build
from realpolitik.maptables import tables_for
from realpolitik.position import Phase, PhaseType, Position, Season


def needs_adjustments(position: Position) -> bool:
    """True if some power must remove units, is due builds and has somewhere to build, or has
    orders of the variant's own kinds to give (mobilising inactive units, transforming one)."""
    counts = adjustment_counts(position)
    if min(counts.values(), default=0) < 0:
        return True  # (asked first: whether a power can build costs far more to find out)
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


def _next_phase(phase: Phase, kind: PhaseType) -> Phase:
    if kind is PhaseType.ADJUSTMENTS:
        return Phase(Season.WINTER, phase.year, PhaseType.ADJUSTMENTS)
    if phase.season is Season.SPRING:
        return Phase(Season.FALL, phase.year, PhaseType.MOVEMENT)
    return Phase(Season.SPRING, phase.year + 1, PhaseType.MOVEMENT)


def next_position(position: Position, resolution: Resolution) -> Position:
    """The position of the phase that follows ``position`` once ``resolution`` is applied.

    Retreat and adjustment phases with nothing to do are skipped; after a Fall turn the
    supply centres change owner. The variant's state is carried by its hooks.
    """
    following = _following(position, resolution)
    state = position.variant.hooks.next_state(position, resolution, following)
    if state is not following.state:
        following = following.replace(state=state)
    return following


def _following(position: Position, resolution: Resolution) -> Position:
    phase = position.phase
    units = resolution.units
    if phase.type is PhaseType.MOVEMENT and resolution.dislodged:
        retreat_phase = Phase(phase.season, phase.year, PhaseType.RETREATS)
        return position.replace(
            phase=retreat_phase,
            units=units,
            dislodged=resolution.dislodged,
            standoffs=resolution.standoffs,
        )
    centers = position.centers
    if phase.season is Season.FALL:
        # the end of a Fall turn: centres change hands, then adjustments if anyone has any
        centers = position.variant.hooks.center_owners(
            position, units, tables_for(position.variant).centers_in_order)
        winter = position.replace(phase=_next_phase(phase, PhaseType.ADJUSTMENTS), units=units,
                                  centers=centers, dislodged=(), standoffs=frozenset())
        if needs_adjustments(winter):
            return winter
        return winter.replace(phase=Phase(Season.SPRING, phase.year + 1, PhaseType.MOVEMENT))
    if phase.type is PhaseType.ADJUSTMENTS:
        following = Phase(Season.SPRING, phase.year + 1, PhaseType.MOVEMENT)
    else:
        following = _next_phase(phase, PhaseType.MOVEMENT)
    return position.replace(phase=following, units=units, centers=centers, dislodged=(),
                            standoffs=frozenset())
