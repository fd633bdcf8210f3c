"""What happened to each order: typed outcomes with a plain reason, and the whole resolution."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from realpolitik.orders import Order
from realpolitik.position import DislodgedUnit, Phase, Unit


class Result(StrEnum):
    """Whether an order was carried out."""

    SUCCEEDS = "succeeds"
    FAILS = "fails"
    VOID = "void"
    """Illegal or unreadable: not followed, the unit holds (VII.2)."""


class Outcome(StrEnum):
    """The short code of what happened to an order (the ``outcome`` of the case format)."""

    MOVED = "moved"
    HELD = "held"
    """A hold (or an unmoved unit) that was not dislodged."""
    BOUNCED = "bounced"
    """A move stopped by a stronger or equal hold, defence or rival move (a stand-off)."""
    DISLODGED = "dislodged"
    """The unit was dislodged (for a failed move, support, convoy or hold)."""
    SUPPORTED = "supported"
    """A support that was given."""
    CUT = "cut"
    """A support cut by an attack."""
    UNMATCHED = "unmatched"
    """A support or convoy whose unit did not make the matching order."""
    CONVOYED = "convoyed"
    """A convoy that carried its army."""
    NO_CONVOY = "no_convoy"
    """A move by convoy that found no route of convoying fleets."""
    CONVOY_DISRUPTED = "convoy_disrupted"
    """A convoyed move whose route was broken by a dislodged fleet."""
    NO_EFFECT = "no_effect"
    """A legal, matched convoy that carried nothing: the army went over land, by another route,
    or failed for another reason."""
    PARADOX = "paradox"
    """An order settled by the paradox (backup) rule."""
    SELF_DISLODGE = "self_dislodge"
    """A move that would dislodge a unit of the same power."""
    RETREATED = "retreated"
    DISBANDED = "disbanded"
    BUILT = "built"
    WAIVED = "waived"
    REMOVED = "removed"
    ILLEGAL = "illegal"
    AMBIGUOUS = "ambiguous"
    UNREADABLE = "unreadable"


@dataclass(frozen=True, slots=True)
class OrderResult:
    """The result of one order, with its cause.

    ``by`` names the units (canonical text, e.g. ``"A MUN - BUR"`` or ``"F NTH"``) that caused the
    result; ``strength`` and ``opposed_by`` give the numbers for a battle; ``reason`` is one plain
    sentence a player understands.
    """

    order: Order
    power: str
    result: Result
    outcome: Outcome
    reason: str
    by: tuple[str, ...] = ()
    strength: int | None = None
    opposed_by: int | None = None
    illegal_reason: str | None = None
    """For a void order, the short code of why (``not_adjacent``, ``no_unit``...)."""

    @property
    def succeeded(self) -> bool:
        """True if the order was carried out."""
        return self.result is Result.SUCCEEDS


@dataclass(frozen=True, slots=True)
class Resolution:
    """Everything that one phase's adjudication decides.

    ``units`` is the board after the phase (dislodged units are not on it). After a movement
    phase ``dislodged`` lists the units that must retreat and ``retreat_options`` their legal
    destinations (keyed by the dislodged unit's location); ``standoffs`` the provinces left empty
    by a stand-off. After an adjustment phase ``civil_disorder`` lists the units removed because
    orders were missing.
    """

    phase: Phase
    results: tuple[OrderResult, ...]
    units: Mapping[str, Unit]
    dislodged: tuple[DislodgedUnit, ...] = ()
    retreat_options: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    standoffs: frozenset[str] = frozenset()
    civil_disorder: tuple[Unit, ...] = ()

    def result_of(self, order: Order) -> OrderResult:
        """The result of an order given in this phase; raises KeyError."""
        for result in self.results:
            if result.order == order:
                return result
        raise KeyError(str(order))
