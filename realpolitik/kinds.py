"""Order kinds a variant declares: the base class an author subclasses, and the registry.

The rulebooks' orders (hold, move, support, convoy, retreat, disband, build, waive) are the
engine's own. A variant adds a kind of order from its own folder: an :class:`OrderKind`
subclass, and its order class (a :class:`~realpolitik.orders.VariantOrder`), returned by its
hooks' :meth:`~realpolitik.hooks.VariantHooks.order_kinds`. Every part of the engine asks the
variant's registry (``variant.kinds``, an :class:`OrderKinds`) about orders that are not its
own, and only then:

======================  =======================================================  =============
method                  question                                                 asked by
======================  =======================================================  =============
``name``, ``keywords``  the words that start the order's action (``TRANSFORM``)  the parser
``argument``            what the order names after the keyword, if anything      the parser
``readings``            which places (or ids) the words after it may mean        the parser
``write_argument``      the argument as the variant writes places                writing, API
``check``               is the order legal here (or why not)                     legality
``listed``              the power's orders of this kind now                      listing, bots
``movement_effect``     what it does in a movement phase: holds, or blocks       the resolver
``spend``               how many builds it uses, which are void beyond that      adjustments
``builds_used_words``   what the builds it uses go to ("used to transform")      the web page
``carry_out``           how the board changes when it succeeds                   adjustments
``done``                the sentence that says it succeeded                      results
``draw``                its mark on the map                                      render
``advice``              which of its listed orders a bot should give             bots
======================  =======================================================  =============

A variant with no kinds of its own (the classical game) has an empty registry, and the engine
keeps to its own paths: ``if variant.kinds`` is the only question it asks.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, Protocol

from realpolitik.calendar import PHASE_TYPE_WORDS, PhaseType
from realpolitik.errors import VariantError
from realpolitik.geography import UnitType
from realpolitik.orders import Order, UnitOrder, VariantOrder

if TYPE_CHECKING:  # pragma: no cover - the kinds take the engine's values, made elsewhere
    from realpolitik.legality import Illegal
    from realpolitik.position import Position, Unit
    from realpolitik.variant import Variant
    from realpolitik.writing import PlaceWriter

__all__ = [
    "HOLDS",
    "BlocksCrossing",
    "Holds",
    "MovementEffect",
    "OrderKind",
    "OrderKinds",
    "Pen",
    "Spending",
    "NO_KINDS",
]

RESERVED_WORDS = frozenset({
    "hold", "h", "move", "m", "support", "s", "convoy", "c", "retreat", "r", "disband", "d",
    "build", "b", "waive", "remove", "a", "f", "army", "fleet", "via", "by", "to", "stands",
})
"""Words the rulebooks' orders use: no variant's kind may take them."""


# -- what a kind does in a movement phase ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Holds:
    """The unit holds its place: it may be supported to hold, and dislodged (a hold's
    decisions; the order succeeds unless the unit is dislodged)."""


@dataclass(frozen=True, slots=True)
class BlocksCrossing:
    """The unit holds its place and blocks the crossings of ``point``: a corner's id or a
    passage's space, as the variant's data declares them (``[[corners]]``,
    ``[[passages]]``). Other powers' moves across it fail unless supported once per block
    standing against them; an attack by another power's unit cuts the block as it cuts a
    support."""

    point: str


HOLDS = Holds()
MovementEffect = Holds | BlocksCrossing
"""What an order of a variant's kind does in a movement phase, in the words the resolver
understands (:meth:`OrderKind.movement_effect`)."""


@dataclass(frozen=True, slots=True)
class Spending:
    """What a power's orders of one kind cost in an adjustment phase (:meth:`OrderKind.spend`):
    ``builds`` of those it is due, and the orders (by index) void beyond what may be given."""

    builds: int = 0
    void: Mapping[int, Illegal] = field(default_factory=dict)


class Pen(Protocol):
    """What a kind draws its mark with (:meth:`OrderKind.draw`): rings and crosses around the
    ordered unit, in the map's own style."""

    failed: str
    """The colour of a failed order's mark."""

    def ring(self, radius: float, colour: str, *, dash: str | None = None,
             width: float = 2.0) -> None:
        """A ring around the unit."""

    def cross(self, size: float, *, offset: tuple[float, float] = (0.0, 0.0)) -> None:
        """A cross (a failed or void order) at the unit, or beside it."""

    def unit(self, unit_type: UnitType, colour: str) -> None:
        """A unit's symbol at the place (a unit made or changed by the order)."""


# -- the kind ----------------------------------------------------------------------------------


class OrderKind:
    """A kind of order a variant adds. Subclass it in the variant's folder, set the class
    attributes and override the methods the kind needs; the defaults make an order that
    names only its unit, is never legal, lists nothing, holds in a movement phase and costs
    nothing in an adjustment phase.

    One object serves every game of the variant: keep no state on it (a game's state is in
    ``position.state``, made by the variant's hooks).
    """

    name: ClassVar[str] = ""
    """The kind's name, lower case: the keyword written in orders (in capitals: ``A BRE
    TRANSFORM``), the API's ``"kind"`` and the order class's ``kind``."""
    order: ClassVar[type[VariantOrder]] = VariantOrder
    """The order class (a frozen dataclass subclassing :class:`VariantOrder`, ``kind`` set to
    ``name``)."""
    keywords: ClassVar[frozenset[str]] = frozenset()
    """Other words read as the keyword (``"transforms"``, ``"tr"``), lower case."""
    leads: ClassVar[bool] = False
    """True if the keyword may also come before the unit (``MOBILISE A N33``)."""
    phases: ClassVar[frozenset[str]] = frozenset()
    """The phases (:class:`~realpolitik.position.PhaseType`) its orders are given in."""
    argument: ClassVar[str | None] = None
    """What the order names after the keyword, for messages ("the coast the fleet takes");
    None if it names nothing."""
    argument_optional: ClassVar[bool] = False
    """True if the argument may be left out (:meth:`readings` is then asked with none)."""
    label: ClassVar[str] = ""
    """The order menu's word for it ("Transform"); the name in capitals by default."""
    labels: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """The menu's words in a phase where they differ from ``label``, by the phase's name
    (``"movement"``, ``"retreats"``, ``"adjustments"``)."""
    outcome: ClassVar[str] = "carried_out"
    """The :class:`~realpolitik.adjudication.outcomes.Outcome` of an order carried out in an
    adjustment phase."""

    # -- reading and writing ---------------------------------------------------------------

    def read_id(self, variant: Variant, words: str) -> str | None:
        """The argument, when ``words`` (all the words after the keyword, lower case) name it
        by an id that is no place (a corner's id); None to read a place."""
        return None

    def readings(self, variant: Variant, unit: tuple[UnitType, str],
                 candidates: tuple[str, ...]) -> tuple[str, ...]:
        """The arguments the place written after the keyword may mean, for the unit (its type
        and location) being ordered: ``candidates`` are the locations the place's name may
        be (every coast of a province), or empty when no argument was written. One reading
        makes the order; none is an invalid order; several an ambiguous one."""
        return candidates

    def unread(self, variant: Variant, written: str) -> tuple[str, str]:
        """The message and hint when the place written after the keyword has no reading."""
        return (f"{written!r} is not {self.argument or 'anything such an order names'}", "")

    def make(self, unit_type: UnitType, location: str, argument: str | None,
             power: str | None) -> VariantOrder:
        """The order, from what the parser read."""
        return self.order(unit_type, location, argument, power=power)

    def write_argument(self, argument: str, writer: PlaceWriter) -> str:
        """The argument as the variant writes places (a place by name or code by default)."""
        return writer.place(argument)

    # -- legality and listing --------------------------------------------------------------

    def check(self, position: Position, order: VariantOrder, unit: Unit,
              ) -> UnitOrder | Illegal:
        """The order as the rules read it (the unit's type, location and power taken from
        ``unit``, the unit it names), or :class:`~realpolitik.legality.Illegal` with why not.
        Asked only in the kind's :attr:`phases`."""
        from realpolitik.legality import Illegal

        return Illegal("not_allowed", f"A {self.name} order is not allowed here.")

    def listed(self, position: Position, power: str) -> Mapping[str, tuple[Order, ...]]:
        """The legal orders of this kind ``power`` may give now, by unit location (every
        order :meth:`check` accepts, as it returns them). Asked only in the kind's phases."""
        return {}

    def acts(self, position: Position, power: str) -> bool:
        """True if ``power`` has orders of this kind to give in this adjustment phase, so
        that the phase is played and waits for it even with no build or removal due."""
        return bool(self.listed(position, power))

    # -- adjudication ----------------------------------------------------------------------

    def movement_effect(self, order: VariantOrder) -> MovementEffect:
        """What the order does in a movement phase (the resolver's extension point): the
        unit holds (:data:`HOLDS`, the default), or blocks a corner or passage
        (:class:`BlocksCrossing`)."""
        return HOLDS

    def spend(self, position: Position, power: str, orders: Sequence[VariantOrder],
              due: int) -> Spending:
        """In an adjustment phase, what ``power``'s legal orders of this kind (in the order
        given) cost of the ``due`` builds (or removals, when negative), and which are void
        (index -> why). The builds spent are taken before any build order is carried out."""
        return Spending()

    spent_reason: ClassVar[str] = "The power's other orders use its builds."
    """Why a build is void when orders of this kind used every build due."""

    builds_used_words: ClassVar[str] = ""
    """What the builds its orders use go to, said after their number as a page counts the
    builds left ("foregone to mobilise units": "1 foregone to mobilise units"); by default
    "used to" and its menu word in a winter ("1 used to transform")."""

    def carry_out(self, position: Position, order: VariantOrder, power: str,
                  units: dict[str, Unit]) -> None:
        """Change ``units`` (province -> unit, the board after the adjustment phase) for an
        order of this kind that succeeds (nothing by default: the variant's
        :meth:`~realpolitik.hooks.VariantHooks.next_state` may read it from the results)."""

    def done(self, order: VariantOrder, writer: PlaceWriter) -> str:
        """The sentence saying the order was carried out, its order written by ``writer``."""
        return f"{writer.order(order)}: carried out."

    # -- drawing and bots ------------------------------------------------------------------

    def draw(self, order: VariantOrder, pen: Pen, colour: str, *, succeeded: bool,
             void: bool) -> None:
        """Draw the order's mark around its unit (``succeeded``: its result, True before
        adjudication; ``void``: it is void): a ring by default, crossed when it failed."""
        pen.ring(13.5, colour, dash="4 2", width=2.4)
        if not succeeded or void:
            pen.cross(4, offset=(11, -11))

    def advice(self, position: Position, power: str,
               listed: Mapping[str, tuple[Order, ...]], due: int) -> tuple[Order, ...]:
        """Which of its listed orders (``listed``: this kind's, by unit location) a bot should
        give, with ``due`` builds (or removals, negative) left; none by default. Asked in
        adjustment phases only: the heuristic bot gives no order of a variant's kind in other
        phases."""
        return ()

    @property
    def menu_label(self) -> str:
        """The order menu's word for the kind."""
        return self.label or self.name.upper()

    @property
    def builds_used_phrase(self) -> str:
        """What the builds its orders use go to (:attr:`builds_used_words`, or its default)."""
        label = self.labels.get("adjustments", self.menu_label)
        return self.builds_used_words or f"used to {label.lower()}"


# -- the registry ------------------------------------------------------------------------------

_NAME = re.compile(r"[a-z][a-z_]*")


class OrderKinds:
    """The order kinds of one variant, by name, order class and keyword (``variant.kinds``).
    Empty, and false, for a variant that declares none."""

    __slots__ = ("by_class", "by_name", "by_word", "kinds", "leading")

    def __init__(self, kinds: Sequence[OrderKind] = ()) -> None:
        self.kinds: tuple[OrderKind, ...] = tuple(kinds)
        self.by_name: dict[str, OrderKind] = {}
        self.by_class: dict[type[VariantOrder], OrderKind] = {}
        self.by_word: dict[str, OrderKind] = {}
        self.leading: dict[str, OrderKind] = {}
        for kind in self.kinds:
            self._add(kind)

    def _add(self, kind: object) -> None:
        if isinstance(kind, type) and issubclass(kind, OrderKind):
            raise VariantError(f"order_kinds returned the class {kind.__name__}: return an "
                               f"instance, {kind.__name__}()", file="hooks.py")
        if not isinstance(kind, OrderKind):
            raise VariantError(f"order_kinds returned {kind!r}, not an OrderKind",
                               file="hooks.py")
        name = kind.name
        where = type(kind).__name__
        file, line = _source_of(type(kind))
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise VariantError(f"the order kind {where} has the name {name!r}: a kind's name "
                               "is a lower-case word", file=file, line=line)
        if name in self.by_name:
            raise VariantError(f"two order kinds are called {name!r}", file=file, line=line)
        cls = kind.order
        if not (isinstance(cls, type) and issubclass(cls, VariantOrder)) or cls is VariantOrder:
            raise VariantError(f"the order kind {where}'s order is not a subclass of "
                               "VariantOrder", file=file, line=line)
        if cls.kind != name:
            raise VariantError(f"the order kind {where}'s order class {cls.__name__} has "
                               f"kind {cls.kind!r}, not {name!r}", file=file, line=line)
        from realpolitik.adjudication.outcomes import Outcome  # (it imports the position)

        if kind.outcome not in {o.value for o in Outcome}:
            raise VariantError(f"the order kind {name!r} has the outcome {kind.outcome!r}, "
                               "which is none of realpolitik.adjudication.outcomes.Outcome",
                               file=file, line=line)
        if not kind.phases:
            raise VariantError(f"the order kind {name!r} names no phase it is given in",
                               file=file, line=line)
        for phase in sorted(kind.phases):
            # a phase's word ("movement", as [[seasons]] writes it) would load and never match
            if phase not in _PHASE_TYPES:
                wanted = _PHASE_WORDS.get(str(phase).lower())
                hint = f": write PhaseType.{wanted.name}" if wanted else \
                    f" (the phase types are PhaseType.{', PhaseType.'.join(_PHASE_NAMES)})"
                raise VariantError(f"the order kind {name!r}'s phases holds {phase!r}, which "
                                   f"is no phase type{hint}", file=file, line=line)
        if isinstance(kind.keywords, str):
            raise VariantError(f"the order kind {name!r}'s keywords is the string "
                               f"{kind.keywords!r}: give a set of words, "
                               f"frozenset({{{kind.keywords!r}}})", file=file, line=line)
        self.by_name[name] = kind
        self.by_class[cls] = kind
        for word in (name, *sorted(kind.keywords)):
            if word in RESERVED_WORDS:
                raise VariantError(f"the order kind {name!r} takes the word {word!r}, which "
                                   "the rulebooks' orders use", file=file, line=line)
            if self.by_word.get(word, kind) is not kind:
                raise VariantError(f"the word {word!r} is a keyword of two order kinds "
                                   f"({self.by_word[word].name!r} and {name!r})",
                                   file=file, line=line)
            self.by_word[word] = kind
            if kind.leads:
                self.leading[word] = kind

    def __bool__(self) -> bool:
        return bool(self.kinds)

    def __iter__(self) -> Iterator[OrderKind]:
        return iter(self.kinds)

    def __len__(self) -> int:
        return len(self.kinds)

    def of(self, order: VariantOrder) -> OrderKind:
        """The kind of ``order``.

        :raises KeyError: the variant declares no such kind.
        """
        return self.by_class[type(order)]

    def get(self, order: object) -> OrderKind | None:
        """The kind of ``order`` if it is one of the variant's kinds, else None."""
        return self.by_class.get(type(order)) if isinstance(order, VariantOrder) else None

    def to_json(self) -> list[dict[str, object]]:
        """The kinds as the game view gives them: name, menu label (and the labels of phases
        where it differs), phases (``"movement"``, ``"retreats"``, ``"adjustments"``) and what
        the order names."""
        phase_names = {"M": "movement", "R": "retreats", "A": "adjustments"}
        return [{"name": kind.name, "label": kind.menu_label, "labels": dict(kind.labels),
                 "phases": [phase_names[p] for p in phase_names if p in kind.phases],
                 "argument": kind.argument} for kind in self.kinds]

    def in_phase(self, phase: str) -> tuple[OrderKind, ...]:
        """The kinds given in phases of this type."""
        return tuple(k for k in self.kinds if phase in k.phases)


_PHASE_TYPES = frozenset(PhaseType)
_PHASE_WORDS = {word: phase_type for phase_type, word in PHASE_TYPE_WORDS.items()}
_PHASE_NAMES = tuple(phase_type.name for phase_type in PhaseType)


def _source_of(cls: type) -> tuple[str, int | None]:
    """The file (its name) and line where a kind's class is written, for its errors."""
    try:
        return Path(inspect.getfile(cls)).name, inspect.getsourcelines(cls)[1]
    except (OSError, TypeError):  # (a class made where no source is kept)
        return "hooks.py", None


NO_KINDS = OrderKinds()
"""The registry of a variant that declares no kind of its own."""
