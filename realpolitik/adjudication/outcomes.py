"""What happened to each order: typed outcomes with a plain reason, and the whole resolution."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import FrozenInstanceError
from enum import StrEnum
from types import MappingProxyType
from typing import Final, Protocol, cast

from realpolitik.compiling import is_compiled
from realpolitik.orders import Order
from realpolitik.position import DislodgedUnit, Phase, Unit
from realpolitik.slots import filling_class, set_class, set_fields, slot_setter


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
    CROSSING_CLOSED = "crossing_closed"
    """A move across a variant's conditional border or corner that was closed this turn (a
    foreign fleet or a stand-off at the watched space, blocks not overridden by supports,
    crossings in more than one direction)."""
    BLOCKED = "blocked"
    """An order that blocks a corner or passage (:class:`~realpolitik.kinds.BlocksCrossing`)
    and stood (was not cut)."""
    MOBILISED = "mobilised"
    """A variant's inactive unit mobilised in an adjustment phase."""
    CARRIED_OUT = "carried_out"
    """An order of a variant's own kind carried out in an adjustment phase (a transform)."""
    RETREATED = "retreated"
    DISBANDED = "disbanded"
    BUILT = "built"
    WAIVED = "waived"
    REMOVED = "removed"
    ILLEGAL = "illegal"
    AMBIGUOUS = "ambiguous"
    UNREADABLE = "unreadable"


Detail = tuple[str, tuple[str, ...], int | None, int | None]
"""``(reason, by, strength, opposed_by)`` of an :class:`OrderResult`."""


class Explains(Protocol):
    """Writes the details of a phase's results on demand, by the result's index."""

    def detail(self, index: int) -> Detail:
        """``(reason, by, strength, opposed_by)`` of result ``index``."""
        ...


class StandoffsLater(Protocol):
    """Works out a phase's stand-offs when they are first read (:attr:`Resolution.standoffs`)."""

    def standoffs_after(self) -> frozenset[str]:
        """The provinces the phase left empty by a stand-off."""
        ...


class OrderResult:
    """The result of one order, with its cause.

    ``by`` names the units (as the variant writes them: the canonical text on the classical map,
    e.g. ``"A MUN - BUR"`` or ``"F NTH"``; by name where the variant writes places by name)
    that caused the result; ``strength`` and ``opposed_by`` give the numbers for a battle;
    ``reason`` is one plain sentence a player understands.

    Immutable and hashable, like a frozen dataclass with these fields. The adjudicator may pass
    ``explain`` instead of ``reason``, ``by``, ``strength`` and ``opposed_by``: a function giving
    the four, called the first time one of them is read (most results are never read, and the
    sentences are most of the cost of adjudicating a phase).
    """

    __slots__ = ("order", "power", "result", "outcome", "illegal_reason", "_detail", "_index")
    # (Final: compiled, a plain class attribute would be made a field of each instance)
    __match_args__: Final = ("order", "power", "result", "outcome", "reason")

    order: Order
    power: str
    result: Result
    outcome: Outcome
    illegal_reason: str | None
    """For a void order, the short code of why (``not_adjacent``, ``no_unit``...)."""
    _detail: Detail | Callable[[], Detail] | Explains
    _index: int
    """With an :class:`Explains` as ``_detail``: this result's index in it."""

    def __init__(
        self,
        order: Order,
        power: str,
        result: Result,
        outcome: Outcome,
        reason: str = "",
        by: tuple[str, ...] = (),
        strength: int | None = None,
        opposed_by: int | None = None,
        illegal_reason: str | None = None,
        *,
        explain: Callable[[], Detail] | None = None,
    ) -> None:
        # (the class's own __setattr__ refuses: compiled, its methods' writes are native
        # stores; interpreted, the value is filled as its filling class, see Resolution)
        detail = explain if explain is not None else (reason, tuple(by), strength, opposed_by)
        if not _NATIVE_WRITES:
            if type(self) is not OrderResult:  # (a subclass's layout may not be the filling's)
                set_fields(self, ("order", "power", "result", "outcome", "illegal_reason",
                                  "_detail", "_index"),
                           (order, power, result, outcome, illegal_reason, detail, -1))
                return
            set_class(self, _RESULT_FILLING)
        self.order = order
        self.power = power
        self.result = result
        self.outcome = outcome
        self.illegal_reason = illegal_reason
        self._detail = detail
        self._index = -1
        if not _NATIVE_WRITES:
            self.__class__ = OrderResult

    @classmethod
    def explained_later(cls, order: Order, power: str, result: Result, outcome: Outcome,
                        explains: Explains, index: int) -> OrderResult:
        """A result whose sentence ``explains.detail(index)`` writes when it is first read,
        made without the keyword handling of ``__init__`` (the adjudicator makes one per
        order, every phase)."""
        # (the arguments: the compiled class's __new__ runs its __init__ with them; the
        # interpreter's object.__new__ ignores them, the class having its own __init__.
        # Interpreted, made as the filling class, written by plain stores and then given its
        # own class; compiled, the class's own writes are native stores.)
        made: OrderResult = _new_result(_RESULT_FILLING, order, power, result, outcome)
        made.order = order
        made.power = power
        made.result = result
        made.outcome = outcome
        made.illegal_reason = None
        made._detail = explains
        made._index = index
        if not _NATIVE_WRITES:
            made.__class__ = OrderResult
        return made

    def detail(self) -> Detail:
        """``(reason, by, strength, opposed_by)``."""
        detail = self._detail
        if type(detail) is tuple:
            return detail
        # (cast, not isinstance: compiled, a protocol cannot be checked at run time)
        if self._index >= 0:
            made = cast(Explains, detail).detail(self._index)
        else:
            made = cast(Callable[[], Detail], detail)()
        if _NATIVE_WRITES:  # (compiled: a native store)
            self._detail = made
        else:
            _set_detail(self, made)
        return made

    @property
    def reason(self) -> str:
        """One plain sentence saying what happened and why."""
        return self.detail()[0]

    @property
    def by(self) -> tuple[str, ...]:
        """The units that caused the result, as the variant writes them."""
        return self.detail()[1]

    @property
    def strength(self) -> int | None:
        """The order's own strength in a battle (attack, hold...), if it had one."""
        return self.detail()[2]

    @property
    def opposed_by(self) -> int | None:
        """The strongest opposing strength, if there was a battle."""
        return self.detail()[3]

    @property
    def succeeded(self) -> bool:
        """True if the order was carried out."""
        return self.result is Result.SUCCEEDS

    def _key(self) -> tuple[object, ...]:
        return (self.order, self.power, self.result, self.outcome, *self.detail(),
                self.illegal_reason)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, OrderResult)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[object, ...]:
        reason, by, strength, opposed_by = self.detail()
        return (OrderResult, (self.order, self.power, self.result, self.outcome, reason, by,
                              strength, opposed_by, self.illegal_reason))

    def __repr__(self) -> str:
        reason, by, strength, opposed_by = self.detail()
        return (f"OrderResult(order={self.order!r}, power={self.power!r}, "
                f"result={self.result!r}, outcome={self.outcome!r}, reason={reason!r}, "
                f"by={by!r}, strength={strength!r}, opposed_by={opposed_by!r}, "
                f"illegal_reason={self.illegal_reason!r})")


def _compiled() -> bool:
    """(Only its type counts: see :func:`~realpolitik.compiling.is_compiled`.)"""
    return True


_NATIVE_WRITES: Final[bool] = is_compiled(_compiled)
"""True where this module is compiled: its classes are native, and their own methods' writes
to their fields are stores into the C struct, which their ``__setattr__`` (refusing) does not
see. Interpreted, a value is made as its class's :func:`~realpolitik.slots.filling_class`,
written by plain stores (a call of a slot's descriptor each cost some ten times more) and then
given its own class."""

_new_result: Final[Callable[..., OrderResult]] = OrderResult.__new__
"""(Not ``object.__new__``: the compiled class refuses it.)"""

_RESULT_FILLING: Final[type[OrderResult]] = (OrderResult if _NATIVE_WRITES
                                             else filling_class(OrderResult))

_set_detail: Final = slot_setter(OrderResult, "_detail")


_NO_OPTIONS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType({})
_NO_STANDOFFS: Final[frozenset[str]] = frozenset()


class Resolution:
    """Everything that one phase's adjudication decides.

    ``units`` is the board after the phase (dislodged units are not on it). After a movement
    phase ``dislodged`` lists the units that must retreat and ``retreat_options`` their legal
    destinations (keyed by the dislodged unit's location); ``standoffs`` the provinces left empty
    by a stand-off. After an adjustment phase ``civil_disorder`` lists the units removed because
    orders were missing.

    Immutable and hashable, like a frozen dataclass with these fields. ``results`` may be given
    as a function that makes them, called the first time they are read: a program playing
    thousands of games seldom reads them, and one result per order every phase is a good part
    of the cost of a phase and of the garbage collector's work on the game's history. So may
    ``standoffs`` (a :class:`StandoffsLater`): a game reads them only when units must retreat
    (they close retreats), and working out each bounce's strengths is a part of every phase
    whose moves bounce.
    """

    __slots__ = ("phase", "_results", "units", "dislodged", "retreat_options", "_standoffs",
                 "civil_disorder")
    # (Final: compiled, a plain class attribute would be made a field of each instance)
    __match_args__: Final = ("phase", "results", "units", "dislodged", "retreat_options",
                             "standoffs", "civil_disorder")

    phase: Phase
    _results: tuple[OrderResult, ...] | Callable[[], tuple[OrderResult, ...]]
    units: Mapping[str, Unit]
    dislodged: tuple[DislodgedUnit, ...]
    retreat_options: Mapping[str, tuple[str, ...]]
    _standoffs: frozenset[str] | StandoffsLater
    civil_disorder: tuple[Unit, ...]

    def __init__(
        self,
        phase: Phase,
        results: tuple[OrderResult, ...] | Callable[[], tuple[OrderResult, ...]],
        units: Mapping[str, Unit],
        dislodged: tuple[DislodgedUnit, ...] = (),
        retreat_options: Mapping[str, tuple[str, ...]] = _NO_OPTIONS,
        standoffs: frozenset[str] | StandoffsLater = _NO_STANDOFFS,
        civil_disorder: tuple[Unit, ...] = (),
    ) -> None:
        # (the class's own __setattr__ refuses: compiled, its methods' writes are native
        # stores; interpreted, the value is switched to its filling class, which takes plain
        # stores, and back: some 1,800 instructions against 4,800 for a slot setter a field)
        if not _NATIVE_WRITES:
            if type(self) is not Resolution:  # (a subclass's layout may not be the filling's)
                set_fields(self, ("phase", "_results", "units", "dislodged", "retreat_options",
                                  "_standoffs", "civil_disorder"),
                           (phase, results, units, dislodged, retreat_options, standoffs,
                            civil_disorder))
                return
            set_class(self, _RESOLUTION_FILLING)
        self.phase = phase
        self._results = results
        self.units = units
        self.dislodged = dislodged
        self.retreat_options = retreat_options
        self._standoffs = standoffs
        self.civil_disorder = civil_disorder
        if not _NATIVE_WRITES:
            self.__class__ = Resolution

    @property
    def results(self) -> tuple[OrderResult, ...]:
        """One result per order given, in the order given."""
        results = self._results
        if type(results) is tuple:
            return results
        assert callable(results)
        made = results()
        if _NATIVE_WRITES:  # (compiled: a native store)
            self._results = made
        else:
            _set_results(self, made)
        return made

    @property
    def standoffs(self) -> frozenset[str]:
        """The provinces left empty by a stand-off."""
        standoffs = self._standoffs
        if isinstance(standoffs, frozenset):
            return standoffs
        made = standoffs.standoffs_after()
        if _NATIVE_WRITES:  # (compiled: a native store)
            self._standoffs = made
        else:
            _set_standoffs(self, made)
        return made

    def result_of(self, order: Order) -> OrderResult:
        """The result of an order given in this phase; raises KeyError."""
        for result in self.results:
            if result.order == order:
                return result
        raise KeyError(str(order))

    def _key(self) -> tuple[object, ...]:
        return (self.phase, self.results, self.units, self.dislodged, self.retreat_options,
                self.standoffs, self.civil_disorder)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Resolution)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.phase, self.results, tuple(self.units.items()), self.dislodged,
                     tuple(self.retreat_options.items()), self.standoffs, self.civil_disorder))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[object, ...]:
        return (_unpickled_resolution, (self.phase, self.results, dict(self.units),
                                        self.dislodged, dict(self.retreat_options),
                                        self.standoffs, self.civil_disorder))

    def __repr__(self) -> str:
        return (f"Resolution(phase={self.phase!r}, results={self.results!r}, "
                f"units={self.units!r}, dislodged={self.dislodged!r}, "
                f"retreat_options={self.retreat_options!r}, standoffs={self.standoffs!r}, "
                f"civil_disorder={self.civil_disorder!r})")


_RESOLUTION_FILLING: Final[type[Resolution]] = (Resolution if _NATIVE_WRITES
                                                 else filling_class(Resolution))
_new_resolution: Final[Callable[..., Resolution]] = Resolution.__new__


def made_resolution(
    phase: Phase,
    results: tuple[OrderResult, ...] | Callable[[], tuple[OrderResult, ...]],
    units: Mapping[str, Unit],
    dislodged: tuple[DislodgedUnit, ...] = (),
    retreat_options: Mapping[str, tuple[str, ...]] = _NO_OPTIONS,
    standoffs: frozenset[str] | StandoffsLater = _NO_STANDOFFS,
    civil_disorder: tuple[Unit, ...] = (),
) -> Resolution:
    """``Resolution(phase, results, units, dislodged, retreat_options, standoffs,
    civil_disorder)``, made without the class call (the adjudicator makes one every phase):
    interpreted, as the filling class, written by plain stores and given its own class (some
    2,400 instructions fewer than the class call, whose ``__init__`` must switch its instance
    to the filling class first); compiled, by the constructor, whose writes are native."""
    if _NATIVE_WRITES:
        return Resolution(phase, results, units, dislodged, retreat_options, standoffs,
                          civil_disorder)
    made: Resolution = _new_resolution(_RESOLUTION_FILLING)
    made.phase = phase
    made._results = results
    made.units = units
    made.dislodged = dislodged
    made.retreat_options = retreat_options
    made._standoffs = standoffs
    made.civil_disorder = civil_disorder
    made.__class__ = Resolution
    return made

_set_results: Final = slot_setter(Resolution, "_results")
_set_standoffs: Final = slot_setter(Resolution, "_standoffs")


def _unpickled_resolution(phase: Phase, results: tuple[OrderResult, ...],
                          units: dict[str, Unit], dislodged: tuple[DislodgedUnit, ...],
                          retreat_options: dict[str, tuple[str, ...]],
                          standoffs: frozenset[str], civil_disorder: tuple[Unit, ...],
                          ) -> Resolution:
    # (read-only mappings cannot be pickled: they travel as dictionaries)
    return Resolution(phase, results, MappingProxyType(units), dislodged,
                      MappingProxyType(retreat_options), standoffs, civil_disorder)
