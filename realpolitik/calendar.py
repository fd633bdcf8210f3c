"""Phases and a variant's year: its seasons in order, the phases of each, and where the supply
centres change hands.

A phase is written season code, year, phase type: ``S1901M``, ``F1901R``, ``W1901A``, and in a
variant with a summer turn ``U1901M``. What the codes mean is the variant's :class:`Calendar`,
read from ``[[seasons]]`` in ``variant.toml``; without that table a variant has the rulebooks'
year (:data:`CLASSICAL_CALENDAR`): Spring movement and retreats, Fall movement and retreats
(after which the centres change hands), Winter adjustments.

>>> calendar = CLASSICAL_CALENDAR
>>> [str(p) for p in calendar.year_of(1901)]
['S1901M', 'S1901R', 'F1901M', 'F1901R', 'W1901A']
>>> calendar.phase_name(calendar.parse_phase("f1901r"))
'Fall 1901 retreats'
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final

from realpolitik.compiling import Reduced, is_compiled, made_again
from realpolitik.errors import VariantError
from realpolitik.slots import filling_class
from realpolitik.variant_rules import TomlLines

__all__ = [
    "CLASSICAL_CALENDAR",
    "Calendar",
    "CalendarSeason",
    "Phase",
    "PhaseType",
    "Season",
    "made_phase",
    "read_calendar",
]


class Season(StrEnum):
    """The codes of the rulebooks' seasons. ``Phase.season`` is one of these for Spring, Fall
    and Winter, and a plain string for a variant's own seasons (a summer's ``"U"``)."""

    SPRING = "S"
    FALL = "F"
    WINTER = "W"


class PhaseType(StrEnum):
    """The kind of phase; the value is the letter used in phase names."""

    MOVEMENT = "M"
    RETREATS = "R"
    ADJUSTMENTS = "A"


PHASE_TYPE_WORDS: Mapping[PhaseType, str] = MappingProxyType({
    PhaseType.MOVEMENT: "movement",
    PhaseType.RETREATS: "retreats",
    PhaseType.ADJUSTMENTS: "adjustments",
})
"""Each phase type as ``[[seasons]]`` ``phases`` and phase names write it."""

_CLASSICAL_SEASONS: Final[dict[str, Season]] = {s.value: s for s in Season}
_PHASE_RE = re.compile(r"([A-Z]+)(\d{3,4})([MRA])")
_CLASSICAL_ORDER: Final[dict[str, int]] = {Season.SPRING: 0, Season.FALL: 1, Season.WINTER: 2}
_CLASSICAL_NAMES: Final[dict[str, str]] = {Season.SPRING: "Spring", Season.FALL: "Fall",
                                    Season.WINTER: "Winter"}
_TYPE_ORDER: Final = {PhaseType.MOVEMENT: 0, PhaseType.RETREATS: 1, PhaseType.ADJUSTMENTS: 2}


@dataclass(frozen=True, slots=True)
class Phase:
    """A season of a year and a phase type, written ``S1901M``, ``F1901R``, ``W1901A``.

    ``season`` is the season's code in the variant's calendar, a string (the rulebooks'
    ``S``, ``F`` and ``W`` are :class:`Season` members, which are strings too). Which codes
    exist, their order and their names are the variant's (:class:`Calendar`): ask it to read
    a phase name with a check, to order phases and to name them.
    """

    season: str
    year: int
    type: PhaseType

    def __post_init__(self) -> None:
        # The rulebooks' codes are kept as Season members, so that a hook written as
        # ``phase.season is Season.FALL`` holds whether the phase was made or read from text.
        classical = _CLASSICAL_SEASONS.get(self.season)
        if classical is not None:
            object.__setattr__(self, "season", classical)

    @classmethod
    def parse(cls, text: str) -> Phase:
        """Read ``S1901M`` (any season code: the letters before the year; lower case too),
        without asking which seasons a variant has (:meth:`Calendar.parse_phase` does).

        :raises ValueError: the text is not a phase name.
        """
        match = _PHASE_RE.fullmatch(text.strip().upper())
        if match is None:
            raise ValueError(
                f"{text!r} is not a phase: write season, year and type, e.g. S1901M or W1901A"
            )
        season, year, kind = match.groups()
        return cls(season, int(year), PhaseType(kind))

    def __str__(self) -> str:
        return f"{self.season}{self.year}{self.type.value}"  # (a Season formats as its code)

    def __repr__(self) -> str:
        return f"Phase.parse({str(self)!r})"

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Chronological order in the rulebooks' year (Spring, Fall, Winter); a variant's own
        seasons are ordered by its calendar (:meth:`Calendar.sort_key`).

        :raises ValueError: the season is not one of the rulebooks'.
        """
        order = _CLASSICAL_ORDER.get(self.season)
        if order is None:
            raise ValueError(f"{self}: the season {self.season!r} is not Spring, Fall or Winter;"
                             " order a variant's phases with variant.calendar.sort_key")
        return (self.year, order, _TYPE_ORDER[self.type])

    # (written out, not the dataclass's: compiled, the ordering below takes the class's
    # comparison slot, which then hides a generated __eq__ and __hash__)
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Phase):
            return NotImplemented
        return self.year == other.year and self.season == other.season \
            and self.type == other.type

    def __hash__(self) -> int:
        return hash((self.season, self.year, self.type))

    def __lt__(self, other: Phase) -> bool:
        return self.sort_key < other.sort_key

    def __le__(self, other: Phase) -> bool:
        return self.sort_key <= other.sort_key

    def __reduce__(self) -> Reduced:
        # (copied and pickled by its constructor: the compiled build's native frozen class
        # refuses the default way)
        return made_again(self)

    @property
    def long_name(self) -> str:
        """``"Spring 1901 movement"`` (a variant's own seasons are named by its calendar,
        :meth:`Calendar.phase_name`; here their code stands for the name)."""
        season = _CLASSICAL_NAMES.get(self.season, self.season)
        return f"{season} {self.year} {PHASE_TYPE_WORDS[self.type]}"


@dataclass(frozen=True, slots=True)
class CalendarSeason:
    """One season of a variant's year."""

    name: str
    """What players read: ``Spring``."""
    code: str
    """The letters of phase names: ``S`` (upper case)."""
    phases: tuple[PhaseType, ...]
    """Its phases in order: movement and its retreats, adjustments, or all three."""
    centers_change: bool = False
    """True if the supply centres change hands at the end of its movement turn (after its
    retreats): the rulebooks' Fall."""

    def __reduce__(self) -> Reduced:
        return made_again(self)


def _compiled() -> bool:
    """(Only its type counts: see :func:`~realpolitik.compiling.is_compiled`.)"""
    return True


_NATIVE_WRITES: Final[bool] = is_compiled(_compiled)
"""True where this module is compiled: its classes are native, and writes to their fields are
stores into the C struct, which a frozen dataclass's ``__setattr__`` does not see. Interpreted,
:func:`made_phase` makes its phase as :data:`_PHASE_FILLING`, writes it by plain stores and then
gives it its own class."""

_new_phase: Final = Phase.__new__
_PHASE_FILLING: Final[type[Phase]] = Phase if _NATIVE_WRITES else filling_class(Phase)


def made_phase(code: str, year: int, kind: PhaseType) -> Phase:
    """``Phase(code, year, kind)``, made without the frozen dataclass's ``__init__`` (the game
    walks the year's phases after every phase it plays): every field set as it would be."""
    phase: Phase = _new_phase(_PHASE_FILLING)
    phase.season = _CLASSICAL_SEASONS.get(code, code)  # type: ignore[misc]
    phase.year = year  # type: ignore[misc]
    phase.type = kind  # type: ignore[misc]
    if not _NATIVE_WRITES:
        phase.__class__ = Phase
    return phase


@dataclass(frozen=True)
class Calendar:
    """A variant's year: the seasons in order, each with its phases. The year goes on from
    the last season to the first season of the next year.

    The engine plays the phases in this order, skipping a retreat phase with nothing
    dislodged, an adjustment phase with nothing to adjust, and any phase the variant's
    ``phase_skipped`` hook skips.
    """

    seasons: tuple[CalendarSeason, ...]
    _by_code: Mapping[str, CalendarSeason] = field(init=False, repr=False, compare=False)
    _order: Mapping[tuple[str, PhaseType], int] = field(init=False, repr=False, compare=False)
    _slots: tuple[tuple[str, PhaseType], ...] = field(init=False, repr=False, compare=False)
    _index_of: dict[tuple[str, PhaseType], int] = field(init=False, repr=False, compare=False)
    """The same as ``_order``, read directly (a read-only mapping's ``get`` looks the method
    up by name on every call, and the game asks for every phase it plays)."""
    _counts: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    """Per slot: True if the centres change hands when that phase is over (:meth:`ends_count`)."""
    _first_count: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Per slot: how many slots on from it (0: itself) the first whose phase ends with the
    centres changing hands is, within a year; -1 if no season counts them
    (:meth:`centers_counted` reads it instead of walking the slots)."""
    _walks: tuple[tuple[tuple[bool, str, int, PhaseType], ...], ...] = field(
        init=False, repr=False, compare=False)
    """Per slot: :meth:`candidates_after` a phase of that slot, as (centres change on the way,
    season code, years later, phase type)."""
    _counted: dict[tuple[str, PhaseType, str, PhaseType, int], bool] = field(
        init=False, repr=False, compare=False)
    """:meth:`centers_counted` of two phases at most two years apart, by their seasons, types
    and years apart, as worked out (the game asks it after every phase it plays): at most
    three entries per pair of the year's phases."""

    def __post_init__(self) -> None:
        slots = tuple((s.code, kind) for s in self.seasons for kind in s.phases)
        index_of = {slot: index for index, slot in enumerate(slots)}
        object.__setattr__(self, "_by_code", MappingProxyType({s.code: s for s in self.seasons}))
        object.__setattr__(self, "_slots", slots)
        object.__setattr__(self, "_order", MappingProxyType(index_of))
        object.__setattr__(self, "_index_of", dict(index_of))
        counts = tuple(kind is PhaseType.RETREATS and self._by_code[code].centers_change
                       for code, kind in slots)
        object.__setattr__(self, "_counts", counts)
        object.__setattr__(self, "_first_count", tuple(
            next((k for k in range(len(slots)) if counts[(start + k) % len(slots)]), -1)
            for start in range(len(slots))))
        object.__setattr__(self, "_walks", tuple(_walk(slots, counts, start)
                                                 for start in range(len(slots))))
        object.__setattr__(self, "_counted", {})

    def __reduce__(self) -> tuple[object, ...]:
        return (Calendar, (self.seasons,))  # (its lookup tables are made again)

    def season(self, code: str) -> CalendarSeason:
        """The season of this code.

        :raises KeyError: no season has it.
        """
        return self._by_code[code]

    @property
    def is_classical(self) -> bool:
        """True for the rulebooks' year (what DAIDE and the ``diplomacy`` package know)."""
        return self.seasons == CLASSICAL_CALENDAR.seasons

    @property
    def phases_per_year(self) -> int:
        """How many phases a year has (those the game skips included)."""
        return len(self._slots)

    def has(self, phase: Phase) -> bool:
        """True if ``phase`` is a phase of this year (its season has its type)."""
        return (phase.season, phase.type) in self._order

    def year_of(self, year: int) -> tuple[Phase, ...]:
        """Every phase of ``year`` in order (those the game skips included)."""
        return tuple(Phase(code, year, kind) for code, kind in self._slots)

    def after(self, phase: Phase) -> Phase:
        """The phase that comes after ``phase`` in the year (whether played or skipped).

        :raises ValueError: ``phase`` is not of this year.
        """
        index = self._index(phase) + 1
        if index == len(self._slots):
            code, kind = self._slots[0]
            return made_phase(code, phase.year + 1, kind)
        code, kind = self._slots[index]
        return made_phase(code, phase.year, kind)

    def candidates_after(self, phase: Phase) -> Iterator[tuple[bool, Phase]]:
        """The phases that may come next once ``phase`` is over with no unit dislodged, in
        order, over two years: every phase but the retreat phases (played only when a unit
        is dislodged), each with True if the centres change hands on the way to it (at the
        end of a season that says so, between the phase before it and it). The game plays the
        first it does not skip.

        :raises ValueError: ``phase`` is not of this year.
        """
        year = phase.year
        for change, code, years, kind in self._walks[self._index(phase)]:
            yield change, made_phase(code, year + years, kind)

    def walk_after(self, phase: Phase) -> tuple[tuple[bool, str, int, PhaseType], ...]:
        """:meth:`candidates_after` as the calendar's table has it, each phase as (centres
        change on the way, season code, years after ``phase``'s, phase type): no generator,
        and the phases made by the caller (:func:`made_phase`) only as far as it goes.

        :raises ValueError: ``phase`` is not of this year.
        """
        index = self._index_of.get((phase.season, phase.type))
        return self._walks[self._index(phase) if index is None else index]

    def sort_key(self, phase: Phase) -> tuple[int, int]:
        """Chronological order: (year, place in the year).

        :raises ValueError: ``phase`` is not of this year.
        """
        return (phase.year, self._index(phase))

    def is_before(self, first: Phase, second: Phase) -> bool:
        """True if ``first`` comes before ``second``."""
        return self.sort_key(first) < self.sort_key(second)

    def ends_count(self, phase: Phase) -> bool:
        """True if the supply centres change hands when ``phase`` is over: the retreat phase
        (played or skipped) of a season whose ``centers_change``."""
        return phase.type is PhaseType.RETREATS and self._by_code[phase.season].centers_change

    def centers_counted(self, before: Phase, after: Phase) -> bool:
        """True if the centres changed hands on the way from ``before`` to ``after`` (a phase
        played, then the one the game went on to)."""
        # The phases from ``before`` on, numbered from its place in its year: the k-th is slot
        # k % n of year before.year + k // n (no Phase is made: the game asks every phase).
        # The centres changed hands if the first phase that ends with them changing hands,
        # ``first`` slots on from ``before``, was over before ``after`` (a table read, not a walk).
        years = after.year - before.year
        key = (before.season, before.type, after.season, after.type, years)
        known = self._counted.get(key)
        if known is not None:
            return known
        counted = self._centers_counted(before, after)
        if 0 <= years <= 2:  # (the game's own questions: the bound below)
            self._counted[key] = counted
        return counted

    def _centers_counted(self, before: Phase, after: Phase) -> bool:
        start = self._index(before)
        first = self._first_count[start]
        if first < 0:
            return False
        end = self._index_of.get((after.season, after.type))
        if end is None:
            return True
        stop = (after.year - before.year) * len(self._counts) + end
        return not start <= stop <= start + first

    def last_adjustments(self, year: int) -> Phase | None:
        """The last adjustment phase of ``year`` (None if the year has none)."""
        for code, kind in reversed(self._slots):
            if kind is PhaseType.ADJUSTMENTS:
                return Phase(code, year, kind)
        return None

    def phase_name(self, phase: Phase) -> str:
        """``"Summer 1901 movement"``: the season's name, the year and the phase type."""
        season = self._by_code.get(phase.season)
        name = season.name if season is not None else phase.season
        return f"{name} {phase.year} {PHASE_TYPE_WORDS[phase.type]}"

    def parse_phase(self, text: str) -> Phase:
        """Read a phase name (``S1901M``, ``u1901m``) and check that it is one of this year's.

        :raises ValueError: not a phase name, or not a phase of this year (the message lists
            the seasons and their phases).
        """
        phase = Phase.parse(text)
        if phase.season not in self._by_code:
            raise ValueError(f"{text!r}: there is no season '{phase.season}'; the seasons are "
                             f"{self.describe()}")
        if not self.has(phase):
            season = self._by_code[phase.season]
            raise ValueError(f"{text!r}: {season.name} ({season.code}) has no "
                             f"{PHASE_TYPE_WORDS[phase.type]} phase; the seasons are "
                             f"{self.describe()}")
        return phase

    def describe(self) -> str:
        """``S (Spring: M, R), F (Fall: M, R), W (Winter: A)``."""
        return ", ".join(f"{s.code} ({s.name}: {', '.join(k.value for k in s.phases)})"
                         for s in self.seasons)

    def _index(self, phase: Phase) -> int:
        index = self._index_of.get((phase.season, phase.type))
        if index is None:
            raise ValueError(f"{phase} is not a phase of this variant's year; the seasons are "
                             f"{self.describe()}")
        return index


def _walk(slots: Sequence[tuple[str, PhaseType]], counts: Sequence[bool], start: int,
          ) -> tuple[tuple[bool, str, int, PhaseType], ...]:
    """:meth:`Calendar.candidates_after` a phase of slot ``start``: (centres change on the
    way, season code, years later, phase type) for each phase but the retreat phases of the
    next two years."""
    n = len(slots)
    out: list[tuple[bool, str, int, PhaseType]] = []
    change = False
    for k in range(start, start + 2 * n + 1):
        change = change or counts[k % n]
        code, kind = slots[(k + 1) % n]
        if kind is PhaseType.RETREATS:
            continue
        out.append((change, code, (k + 1) // n, kind))
        change = False
    return tuple(out)


CLASSICAL_CALENDAR = Calendar((
    CalendarSeason("Spring", Season.SPRING.value, (PhaseType.MOVEMENT, PhaseType.RETREATS)),
    CalendarSeason("Fall", Season.FALL.value, (PhaseType.MOVEMENT, PhaseType.RETREATS),
                   centers_change=True),
    CalendarSeason("Winter", Season.WINTER.value, (PhaseType.ADJUSTMENTS,)),
))
"""The rulebooks' year: a variant without ``[[seasons]]`` has it."""


# -- reading ``[[seasons]]`` ------------------------------------------------------------------

_SEASON_KEYS = ("name", "code", "phases", "centers_change")
_TYPE_OF_WORD = {word: kind for kind, word in PHASE_TYPE_WORDS.items()}
_ALLOWED_PHASES = (
    (PhaseType.MOVEMENT, PhaseType.RETREATS),
    (PhaseType.MOVEMENT, PhaseType.RETREATS, PhaseType.ADJUSTMENTS),
    (PhaseType.ADJUSTMENTS,),
)


def read_calendar(data: Mapping[str, Any], lines: TomlLines) -> Calendar:
    """The year ``variant.toml`` gives in ``[[seasons]]``, checked; the rulebooks' year when it
    gives none.

    :raises VariantError: an unknown key or phase type, phases in an order the engine cannot
        play, a duplicate code or name, a year without movement, without a season where the
        centres change hands, or without adjustments (naming the line).
    """
    entries = data.get("seasons")
    if entries is None:
        return CLASSICAL_CALENDAR

    def fail(message: str, key: str | None, index: int) -> VariantError:
        return VariantError(message, file="variant.toml", line=lines.of("seasons", key, index))

    if not isinstance(entries, list) or not entries \
            or not all(isinstance(e, dict) for e in entries):
        raise VariantError("seasons must be tables, one [[seasons]] per season of the year in "
                           "order", file="variant.toml",
                           line=lines.of("seasons"))
    seasons: list[CalendarSeason] = []
    for index, entry in enumerate(entries):
        seasons.append(_read_season(entry, index, seasons, fail))
    if not any(PhaseType.MOVEMENT in s.phases for s in seasons):
        raise fail("the year has no movement phase: give some season "
                   "phases = [\"movement\", \"retreats\"]", None, 0)
    if not any(s.centers_change for s in seasons):
        raise fail("the supply centres never change hands: give the season after whose "
                   "movement they do centers_change = true (the rulebooks' Fall)", None, 0)
    if not any(PhaseType.ADJUSTMENTS in s.phases for s in seasons):
        raise fail("the year has no adjustments phase, so no unit is ever built or removed: "
                   "give a season phases = [\"adjustments\"] (the rulebooks' Winter)", None, 0)
    return Calendar(tuple(seasons))


def _read_season(entry: Mapping[str, Any], index: int, earlier: Sequence[CalendarSeason],
                 fail: Callable[[str, str | None, int], VariantError]) -> CalendarSeason:
    number = f"[[seasons]] number {index + 1}"
    for key in entry:
        if key not in _SEASON_KEYS:
            close = difflib.get_close_matches(key, _SEASON_KEYS, n=1, cutoff=0.7)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise fail(f"{number} has no key {key!r}{hint}; the keys are: "
                       f"{', '.join(_SEASON_KEYS)}", key, index)
    for key in ("name", "code", "phases"):
        if key not in entry:
            raise fail(f"{number} needs a {key!r} key", None, index)
    name, code = entry["name"], entry["code"]
    if not isinstance(name, str) or not name.strip():
        raise fail(f"{number}: name must be the season's name, e.g. \"Summer\"", "name", index)
    if not isinstance(code, str) or not re.fullmatch(r"[A-Za-z]+", code):
        raise fail(f"{number}: code must be letters, e.g. \"U\" (phase names are code, year, "
                   "type: U1901M)", "code", index)
    code = code.upper()
    for other in earlier:
        if other.code == code:
            raise fail(f"{number}: the code {code!r} is {other.name}'s already", "code", index)
        if other.name.lower() == name.strip().lower():
            raise fail(f"{number}: there is a season called {other.name} already", "name", index)
    given = entry["phases"]
    if not isinstance(given, list) or not given:
        raise fail(f"{number}: phases must be a list, e.g. [\"movement\", \"retreats\"]",
                   "phases", index)
    kinds = []
    for word in given:
        kind = _TYPE_OF_WORD.get(str(word).lower())
        if kind is None:
            close = difflib.get_close_matches(str(word).lower(), list(_TYPE_OF_WORD), n=1,
                                              cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise fail(f"{number}: {word!r} is not a phase type{hint}; the phase types are: "
                       f"{', '.join(_TYPE_OF_WORD)}", "phases", index)
        kinds.append(kind)
    phases = tuple(kinds)
    if phases not in _ALLOWED_PHASES:
        raise fail(f"{number}: phases {[PHASE_TYPE_WORDS[k] for k in phases]} cannot be "
                   "played; a season has [\"movement\", \"retreats\"] (a movement turn, then "
                   "its retreats), [\"adjustments\"], or [\"movement\", \"retreats\", "
                   "\"adjustments\"]", "phases", index)
    centers_change = entry.get("centers_change", False)
    if not isinstance(centers_change, bool):
        raise fail(f"{number}: centers_change must be true or false", "centers_change", index)
    if centers_change and PhaseType.MOVEMENT not in phases:
        raise fail(f"{number}: centers_change: the centres change hands at the end of a "
                   f"movement turn, and {name} has none", "centers_change", index)
    return CalendarSeason(name.strip(), code, phases, centers_change)
