"""Units and the immutable position of a game at one phase (phases are
:mod:`realpolitik.calendar`'s, named here too)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, TypeVar

from realpolitik.caches import Caches, CacheSlot
from realpolitik.calendar import Phase as Phase
from realpolitik.calendar import PhaseType as PhaseType
from realpolitik.calendar import Season as Season
from realpolitik.compiling import Reduced, is_compiled, made_again
from realpolitik.errors import RealpolitikError
from realpolitik.geography import UnitType, province_of
from realpolitik.hooks import NO_STATE, VariantState
from realpolitik.slots import filling_class, slot_setter
from realpolitik.variant import Variant
from realpolitik.variant_rules import NEUTRAL


@dataclass(frozen=True, slots=True)
class Unit:
    """An army or fleet of a power at a location (a coast for a fleet in a split-coast province)."""

    power: str
    type: UnitType
    location: str

    @property
    def province(self) -> str:
        """The province the unit occupies."""
        return province_of(self.location)

    def __str__(self) -> str:
        return f"{self.type} {self.location.upper()}"  # (a unit type formats as its letter)

    def __reduce__(self) -> Reduced:
        return made_again(self)


_new_unit: Final = Unit.__new__
_set_unit_power: Final = slot_setter(Unit, "power")
_set_unit_type: Final = slot_setter(Unit, "type")
_set_unit_location: Final = slot_setter(Unit, "location")


def moved_unit(unit: Unit, location: str) -> Unit:
    """``Unit(unit.power, unit.type, location)``: the unit after a move or retreat, made
    without the frozen dataclass's ``__init__`` (a phase moves many units)."""
    made: Unit = _new_unit(Unit)
    _set_unit_power(made, unit.power)
    _set_unit_type(made, unit.type)
    _set_unit_location(made, location)
    return made


@dataclass(frozen=True, slots=True)
class DislodgedUnit:
    """A unit dislodged in the movement phase before, waiting to retreat or disband."""

    unit: Unit
    attacker_from: str | None
    """Province the dislodging unit came from (it may not retreat there)."""
    via_convoy: bool = False
    """True if the attacker came by convoy (DATC 4.A.5: the 2023 rules then allow retreating
    to the attacker's province)."""

    def __reduce__(self) -> Reduced:
        return made_again(self)


_V = TypeVar("_V")


def _read_only(mapping: Mapping[str, _V]) -> Mapping[str, _V]:
    """``mapping`` itself if it is read-only already, else a read-only copy."""
    if type(mapping) is MappingProxyType:
        return mapping
    return MappingProxyType(dict(mapping))


class PositionError(RealpolitikError, ValueError):
    """A position that breaks the rules of the board (two units in a province, ...)."""


@dataclass(frozen=True, eq=False, slots=True)
class Position:
    """The state of the board at one phase: immutable and hashable.

    ``units`` maps each occupied province to its unit; ``centers`` maps each owned supply centre
    to its owner; ``dislodged`` lists the units that must retreat (retreat phases only) and
    ``standoffs`` the provinces left empty by a stand-off in the movement phase before;
    ``state`` is what the variant's hooks carry from phase to phase (empty in the rulebooks'
    game, :meth:`~realpolitik.hooks.VariantHooks.next_state`).
    """

    variant: Variant
    phase: Phase
    units: Mapping[str, Unit]
    centers: Mapping[str, str]
    dislodged: tuple[DislodgedUnit, ...] = ()
    standoffs: frozenset[str] = frozenset()
    state: VariantState = field(default_factory=lambda: NO_STATE)
    _key: tuple[object, ...] | None = field(init=False, repr=False, default=None)
    caches: Caches = field(init=False, repr=False, compare=False)
    """What the rules derive from this position (its legal orders...), kept with it.

    The position is immutable, so anything computed from it alone stays true; the engine's
    modules keep such values here, each under its own :class:`~realpolitik.caches.CacheSlot`
    (bounded by the board: one value per slot, or one per power). Not part of the value."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", MappingProxyType(dict(self.units)))
        object.__setattr__(self, "centers", MappingProxyType(dict(self.centers)))
        if self.state is not NO_STATE:
            object.__setattr__(self, "state", MappingProxyType(dict(self.state)))
        object.__setattr__(self, "caches", Caches())

    def _compare_key(self) -> tuple[object, ...]:
        key = self._key
        if key is None:
            key = (
                self.variant.id,
                str(self.phase),
                tuple(sorted((u.province, u.power, u.type, u.location)
                             for u in self.units.values())),
                tuple(sorted(self.centers.items())),
                tuple(sorted((d.unit.location, d.unit.power, d.unit.type, d.attacker_from or "",
                              d.via_convoy) for d in self.dislodged)),
                tuple(sorted(self.standoffs)),
                # the state holds JSON values (lists and dicts): compared by their JSON text
                json.dumps(dict(self.state), sort_keys=True) if self.state else "",
            )
            _set_key(self, key)
        return key

    @classmethod
    def build(
        cls,
        variant: Variant,
        phase: Phase | str,
        units: Iterable[Unit],
        centers: Mapping[str, str] | None = None,
        *,
        dislodged: Iterable[DislodgedUnit] = (),
        standoffs: Iterable[str] = (),
        state: VariantState = NO_STATE,
    ) -> Position:
        """Make a position from a list of units, checking it.

        :raises PositionError: the phase is not one of the variant's year, a unit stands where
            it cannot, or two units share a province.
        """
        the_map = variant.map
        calendar = variant.calendar
        if isinstance(phase, str):
            try:
                phase = calendar.parse_phase(phase)
            except ValueError as exc:
                raise PositionError(str(exc)) from None
        elif not calendar.has(phase):
            raise PositionError(f"{phase} is not a phase of {variant.name}'s year; the seasons "
                                f"are {calendar.describe()}")
        by_province: dict[str, Unit] = {}
        for unit in units:
            if not variant.is_owner(unit.power):
                raise PositionError(f"{unit}: {unit.power!r} is not a power of {variant.name}")
            if not the_map.can_hold(unit.type, unit.location):
                where = unit.location
                if the_map.is_location(where) and the_map.coasts(province_of(where)):
                    raise PositionError(
                        f"{unit}: a fleet in {where.upper()} must stand on one of its coasts "
                        f"({', '.join(c.upper() for c in the_map.coasts(where))})"
                    )
                raise PositionError(f"{unit}: a {unit.type.name.lower()} cannot stand there")
            if unit.province in by_province:
                raise PositionError(
                    f"{unit} and {by_province[unit.province]} are both in {unit.province.upper()}"
                )
            by_province[unit.province] = unit
        return cls(
            variant,
            phase,
            by_province,
            dict(centers or {}),
            tuple(dislodged),
            frozenset(standoffs),
            state,
        )

    @classmethod
    def initial(cls, variant: Variant) -> Position:
        """The starting position of the variant (its neutral units included)."""
        units = [Unit(s.power, s.type, s.location) for s in variant.start_units]
        units.extend(Unit(NEUTRAL, n.type, n.location) for n in variant.rules.neutral_units)
        start = cls.build(variant, variant.start_phase, units, variant.start_centers)
        state = variant.hooks.initial_state(start)
        return start if state is start.state else start.replace(state=state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._compare_key() == other._compare_key()

    def __deepcopy__(self, memo: dict[int, object]) -> Position:
        # An immutable value: a deep copy of a game shares its positions (and their variant).
        return self

    def __reduce__(self) -> tuple[object, ...]:
        # The read-only mappings are pickled as dictionaries (a mappingproxy cannot be), the
        # caches not at all (they are worked out again when asked for).
        state = None if self.state is NO_STATE else dict(self.state)
        return (_unpickled_position, (self.variant, self.phase, dict(self.units),
                                      dict(self.centers), self.dislodged, self.standoffs, state))

    def __hash__(self) -> int:
        return hash(self._compare_key())

    # -- queries ---------------------------------------------------------------------------

    def unit_at(self, location: str) -> Unit | None:
        """The unit in the province of ``location`` (any coast), or None."""
        return self.units.get(province_of(location))

    def units_of(self, power: str) -> tuple[Unit, ...]:
        """The units of ``power`` on the board, in map order."""
        return _units_by_power(self).get(power, ())

    def units_by_power(self) -> Mapping[str, tuple[Unit, ...]]:
        """Each power with units on the board -> its units, in map order (worked out once;
        the powers without units are left out): :meth:`units_of` for every power at once."""
        return MappingProxyType(_units_by_power(self))

    def powers_with_units(self) -> frozenset[str]:
        """The powers with units on the board (worked out once): who is in the game and who
        orders asks only this, not each power's units."""
        return _powers_with_units(self)

    def centers_of(self, power: str) -> tuple[str, ...]:
        """The supply centres ``power`` owns, sorted."""
        return _centers_by_power(self).get(power, ())

    def center_counts(self) -> Mapping[str, int]:
        """Each owner of supply centres -> how many it owns (worked out once; read only): a
        Fall turn's victory check and the winter's adjustments both count them."""
        return _center_counts(self)

    def dislodged_of(self, power: str) -> tuple[DislodgedUnit, ...]:
        """The dislodged units of ``power``."""
        return tuple(d for d in self.dislodged if d.unit.power == power)

    def __iter__(self) -> Iterator[Unit]:
        return iter(self.units.values())

    def replace(
        self,
        *,
        phase: Phase | None = None,
        units: Mapping[str, Unit] | None = None,
        centers: Mapping[str, str] | None = None,
        dislodged: tuple[DislodgedUnit, ...] | None = None,
        standoffs: frozenset[str] | None = None,
        state: VariantState | None = None,
    ) -> Position:
        """A copy with some fields changed (no checks: the engine's own use).

        Read-only mappings (a position's own, a resolution's) are shared rather than copied:
        the engine never changes the dictionaries behind them. A position is made every
        phase, so this skips the dataclass constructor.
        """
        # (made as the filling class, written by plain stores and then given its own class;
        # compiled, the stores are native and the class is the position's own)
        made: Position = _new_position(_POSITION_FILLING)
        made.variant = self.variant  # type: ignore[misc]
        made.phase = self.phase if phase is None else phase  # type: ignore[misc]
        # (a read-only mapping is shared, as _read_only does: tested here, not called)
        made.units = (self.units if units is None else units  # type: ignore[misc]
                      if type(units) is MappingProxyType else _read_only(units))
        made.centers = (self.centers if centers is None else centers  # type: ignore[misc]
                        if type(centers) is MappingProxyType else _read_only(centers))
        made.dislodged = self.dislodged if dislodged is None else dislodged  # type: ignore[misc]
        made.standoffs = self.standoffs if standoffs is None else standoffs  # type: ignore[misc]
        made.state = self.state if state is None else state  # type: ignore[misc]
        made._key = None  # type: ignore[misc]
        made.caches = Caches()  # type: ignore[misc]
        if not _NATIVE_WRITES:
            made.__class__ = Position
        return made

    def __repr__(self) -> str:
        units = ", ".join(f"{u.power}: {u}" for u in self.units.values())
        return f"<Position {self.phase} [{units}]>"


def _compiled() -> bool:
    """(Only its type counts: see :func:`~realpolitik.compiling.is_compiled`.)"""
    return True


_NATIVE_WRITES: Final[bool] = is_compiled(_compiled)
"""True where this module is compiled: its classes are native, and writes to their fields are
stores into the C struct, which a frozen dataclass's ``__setattr__`` does not see. Interpreted,
:meth:`Position.replace` makes its position as :data:`_POSITION_FILLING`, writes it by plain
stores (a call of a slot's descriptor each cost some ten times more) and then gives it its own
class."""

_new_position: Final = Position.__new__
_POSITION_FILLING: Final[type[Position]] = (Position if _NATIVE_WRITES
                                            else filling_class(Position))
_set_key: Final = slot_setter(Position, "_key")


def same_powers(before: Position, after: Position) -> None:
    """Tell ``after``, whose units are ``before``'s moved (none added, removed or changing
    hands: a movement phase with no unit dislodged or lost), that its powers with units are
    ``before``'s, if ``before`` has worked them out (they are then not worked out again)."""
    _powers_with_units.carry(before, after)


def same_centers(before: Position, after: Position) -> None:
    """Tell ``after``, whose supply centres have ``before``'s owners, its centre counts if
    ``before`` has worked them out (they are then not counted again: a Winter's carry on to
    the Fall, where the centres change hands)."""
    _center_counts.carry(before, after)


def centers_changed(before: Position, after: Position,
                    changes: Iterable[tuple[str | None, str]]) -> None:
    """Tell ``after``, whose supply centres have ``before``'s owners but for ``changes`` (each
    centre that changed hands: its previous owner, None if it had none, and its new one), its
    centre counts, worked out from ``before``'s if it has worked them out (a few changes
    instead of every centre counted)."""
    known = _center_counts.peek(before)
    if known is None:
        return
    counts = known.copy()
    count = counts.get
    for previous, owner in changes:
        if previous is not None:
            left = counts[previous] - 1
            if left:
                counts[previous] = left
            else:  # (an owner of no centre is not counted)
                del counts[previous]
        counts[owner] = count(owner, 0) + 1
    _center_counts.put(after, MappingProxyType(counts))


def _unpickled_position(variant: Variant, phase: Phase, units: dict[str, Unit],
                        centers: dict[str, str], dislodged: tuple[DislodgedUnit, ...],
                        standoffs: frozenset[str], state: VariantState | None) -> Position:
    """A position read back by :mod:`pickle` (:meth:`Position.__reduce__`)."""
    return Position(variant, phase, units, centers, dislodged, standoffs,
                    NO_STATE if state is None else MappingProxyType(dict(state)))


# Asked for every power several times a phase (who orders, eliminations, scores): grouped once
# per position.
def _group_units(position: Position) -> dict[str, tuple[Unit, ...]]:
    grouped: dict[str, list[Unit]] = {}
    for unit in position.units.values():
        group = grouped.get(unit.power)
        if group is None:  # (not setdefault: it would make an empty list for every unit)
            grouped[unit.power] = [unit]
        else:
            group.append(unit)
    return {p: tuple(us) for p, us in grouped.items()}


def _find_powers_with_units(position: Position) -> frozenset[str]:
    # (one pass with no grouping, a third of what grouping the units by power costs; a set
    # comprehension: no list made first)
    return frozenset({unit.power for unit in position.units.values()})


def _group_centers(position: Position) -> dict[str, tuple[str, ...]]:
    grouped: dict[str, list[str]] = {}
    for center, owner in position.centers.items():
        group = grouped.get(owner)
        if group is None:  # (not setdefault: it would make an empty list for every centre)
            grouped[owner] = [center]
        else:
            group.append(center)
    return {p: tuple(sorted(cs)) for p, cs in grouped.items()}


def _count_centers(position: Position) -> MappingProxyType[str, int]:
    counts: dict[str, int] = {}
    count = counts.get
    for owner in position.centers.values():
        counts[owner] = count(owner, 0) + 1
    return MappingProxyType(counts)  # (shared by every reader: none may change it)


_units_by_power: Final[CacheSlot[Position, dict[str, tuple[Unit, ...]]]] = CacheSlot(
    "units by power", _group_units)
"""Power -> its units, in map order (one entry per power with units)."""
_powers_with_units: Final[CacheSlot[Position, frozenset[str]]] = CacheSlot(
    "powers with units", _find_powers_with_units)
"""The powers with units on the board (one set, of at most every power)."""
_centers_by_power: Final[CacheSlot[Position, dict[str, tuple[str, ...]]]] = CacheSlot(
    "centres by power", _group_centers)
"""Owner -> its supply centres, sorted (one entry per owner)."""
_center_counts: Final[CacheSlot[Position, MappingProxyType[str, int]]] = CacheSlot(
    "centre counts", _count_centers)
"""Owner -> how many supply centres it owns (one entry per owner); carried from a position to
the next by :func:`same_centers` and :func:`centers_changed`."""
