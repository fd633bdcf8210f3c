"""The game: the one mutable object of the engine.

A :class:`Game` holds the variant, the rules, the setup (how many players, who commands what),
the current position, the orders given for it and the history of every phase played. It moves
from the first phase to the end of the game exactly as the rulebooks describe: see
``docs/game.md``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import partial
from itertools import filterfalse, repeat
from operator import is_
from typing import Any, Final

from realpolitik.adjudication import adjudicate
from realpolitik.adjudication.outcomes import Resolution
from realpolitik.adjudication.retreats import draws_retreats, unordered_retreats
from realpolitik.caches import CacheSlot
from realpolitik.compiling import Reduced, is_compiled, made_again
from realpolitik.errors import GameError
from realpolitik.hooks import VariantHooks, annihilated_units
from realpolitik.kinds import OrderKind, Spending
from realpolitik.legality import (
    Illegal,
    adjustment_count,
    check_order,
    due_adjustments,
    normalize_order,
)
from realpolitik.listing import (
    PART_CONVOYS,
    PART_HEAD,
    PART_SPARED,
    PART_SUPPORT_KEYS,
    PART_SUPPORT_OF,
    ListedOrders,
    every_power_listed,
    listed_orders,
    movement_parts,
)
from realpolitik.notation import ParsedOrder, parse_orders
from realpolitik.orders import (
    Build,
    Disband,
    Order,
    Retreat,
    VariantOrder,
    Waive,
    unit_key,
    with_power,
)
from realpolitik.phases import kind_powers
from realpolitik.phases import next_position as _next_position
from realpolitik.position import Phase, PhaseType, Position
from realpolitik.recorded import spanned_orders
from realpolitik.rules import Edition, Rules, rules_for
from realpolitik.slots import filling_class
from realpolitik.variant import Setup, Variant, load_variant
from realpolitik.winter import adjustments
from realpolitik.writing import place_writer

# (an enum member read through its class goes through the metaclass, some hundred instructions
# each time: the phase types every phase asks are read once here)
_MOVEMENT: Final = PhaseType.MOVEMENT
_RETREATS: Final = PhaseType.RETREATS


class EndKind(StrEnum):
    """How a game ended."""

    VICTORY = "victory"
    DRAW = "draw"
    SHORT_GAME = "short_game"
    CONCESSION = "concession"


@dataclass(frozen=True, slots=True)
class GameEnd:
    """The end of a game: its kind, the winning powers (several for a draw or a tie in the short
    game) and one sentence saying what happened."""

    kind: EndKind
    winners: tuple[str, ...]
    phase: str
    summary: str

    def __reduce__(self) -> Reduced:
        return made_again(self)


class SubmittedOrder:
    """One order as a power gave it: the text as written, the order read from it, or the
    reason it could not be read or is illegal.

    Immutable and hashable, like a frozen dataclass with the fields ``text``, ``order``,
    ``error`` and ``error_kind``. ``text`` may be given as None for an order given as a value:
    it is then the order written out (``str(order)``), made when first read (a program
    submitting orders by the thousand seldom reads it)."""

    __slots__ = ("_text", "_order", "_error", "_error_kind")
    __match_args__ = ("text", "order", "error", "error_kind")

    def __init__(self, text: str | None, order: Order | None, error: str | None = None,
                 error_kind: str | None = None) -> None:
        # (plain stores into the private slots: the fields are read-only properties, so the
        # value is as frozen as a frozen dataclass, and a submit makes one entry per order)
        self._text = text
        self._order = order
        self._error = error
        self._error_kind = error_kind

    @property
    def text(self) -> str:
        """The order as written (the order written out, for an order given as a value)."""
        text = self._text
        if text is None:
            text = str(self._order)
            self._text = text
        return text

    @property
    def order(self) -> Order | None:
        """The order read, or None if the text could not be read."""
        return self._order

    @property
    def error(self) -> str | None:
        """Why the text could not be read (the parser's message) or why the order is
        illegal, if so."""
        return self._error

    @property
    def error_kind(self) -> str | None:
        """``invalid``, ``unknown``, ``ambiguous``, ``illegal`` or ``replaced``."""
        return self._error_kind

    @property
    def ok(self) -> bool:
        """True if the order was read and is legal."""
        return self._order is not None and self._error is None

    def _fields(self) -> tuple[str, Order | None, str | None, str | None]:
        return (self.text, self._order, self._error, self._error_kind)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SubmittedOrder):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"SubmittedOrder(text={self.text!r}, order={self._order!r}, "
                f"error={self._error!r}, error_kind={self._error_kind!r})")

    def __reduce__(self) -> tuple[object, ...]:
        return (SubmittedOrder, self._fields())


_listed_entry: Callable[[Order], SubmittedOrder] = partial(SubmittedOrder, None)
"""The entry of an order given as a value and listed for the position (written out only when
its text is read)."""


def _no_boards(_variant: Variant) -> dict[str, Variant]:
    return {}


_closed_boards: CacheSlot[Variant, dict[str, Variant]] = CacheSlot(
    "boards with neutral territory closed", _no_boards)
"""Setup id -> the variant with that setup's neutral territory impassable (one per setup)."""


def _too_many(policy: str, due: int) -> str:
    """What the edition does with more builds or removals than ``due`` (DATC 4.D.4, 4.D.6)."""
    if policy in ("first", "last"):
        return f"only the {policy} one is carried out" if due == 1 else \
            f"only the {policy} {due} are carried out"
    if policy == "none":
        return "all of them are void"
    return "all of them are void and the civil-disorder rule chooses"


REPLACED = "replaced"
"""The ``error_kind`` of an order followed by a later order for the same unit."""


def replaced_orders(orders: Sequence[Order | None]) -> dict[int, int]:
    """Index of each order that a later order for the same unit replaces -> the index of the
    order that replaces it (the last one given for that unit). A power's orders name each unit
    once; when they name it twice the later order stands, as a player correcting a sheet means
    (and as the server and the command line say at once)."""
    keys = [None if order is None else unit_key(order) for order in orders]
    last = {key: index for index, key in enumerate(keys) if key is not None}
    return {index: last[key] for index, key in enumerate(keys)
            if key is not None and last[key] != index}


def _mark_replaced(entries: list[SubmittedOrder]) -> list[SubmittedOrder]:
    """``entries`` with each replaced order kept as written, with the reason, but not carried
    out (nothing typed is lost)."""
    replaced = replaced_orders([e.order for e in entries])
    if not replaced:
        return entries
    out = list(entries)
    for index, later in replaced.items():
        entry, by = entries[index], entries[later]
        out[index] = SubmittedOrder(
            entry.text, entry.order,
            f"replaced by the later order {by.text or by.order} for the same unit", REPLACED)
    return out


@dataclass(frozen=True, slots=True)
class PhaseRecord:
    """One played phase: the position, what each power ordered, and the resolution."""

    position: Position
    orders: Mapping[str, tuple[SubmittedOrder, ...]]
    resolution: Resolution
    civil_disorder: tuple[str, ...] = ()
    """Powers that gave no orders this phase (civil disorder: 1971 XIV.3, 1992 XV.4)."""
    notes: tuple[str, ...] = ()
    """Events of the phase outside the orders (a coin toss, a power joining, an elimination)."""
    events: tuple[str, ...] = ()
    """Events noted while the phase was being ordered (:meth:`Game.note`: lots drawn when a
    player took "any power")."""

    def __reduce__(self) -> Reduced:
        return made_again(self)


def _compiled() -> bool:
    """(Only its type counts: see :func:`~realpolitik.compiling.is_compiled`.)"""
    return True


_NATIVE_WRITES: Final[bool] = is_compiled(_compiled)
"""True where this module is compiled: a frozen dataclass's fields are then written natively
(stores into its C struct, which its ``__setattr__`` does not see); interpreted, a record is
made as :data:`_RECORD_FILLING` (``slots.filling_class``), written by plain stores and given
its own class."""

_new_record: Final = PhaseRecord.__new__
_RECORD_FILLING: Final[type[PhaseRecord]] = (PhaseRecord if _NATIVE_WRITES
                                             else filling_class(PhaseRecord))


def _made_record(position: Position, orders: Mapping[str, tuple[SubmittedOrder, ...]],
                 resolution: Resolution, civil_disorder: tuple[str, ...],
                 notes: tuple[str, ...], events: tuple[str, ...]) -> PhaseRecord:
    """``PhaseRecord(position, orders, ...)``, made without the frozen dataclass's
    ``__init__`` (one a phase): every field set, as it would be."""
    record: PhaseRecord = _new_record(_RECORD_FILLING)
    record.position = position  # type: ignore[misc]
    record.orders = orders  # type: ignore[misc]
    record.resolution = resolution  # type: ignore[misc]
    record.civil_disorder = civil_disorder  # type: ignore[misc]
    record.notes = notes  # type: ignore[misc]
    record.events = events  # type: ignore[misc]
    if not _NATIVE_WRITES:
        record.__class__ = PhaseRecord
    return record


_Pending = tuple[tuple[SubmittedOrder, ...] | None, tuple[Order, ...] | None]
"""One power's orders for the current phase, as given so far: (entries, orders), a plain pair
(one is made at every submit).

- entries: what the power gave, in the order given (the report of :meth:`Game.submit`); None
  when not made yet or not kept (:meth:`Game.submit_found` without a report, or
  :meth:`Game.submit` of values all listed: the orders' entries, made when first read by
  :meth:`Game.orders_of`).
- orders: the entries' orders when every one is a value legal as it stands in the current
  position (listed by :func:`legal_orders`, or checked and read as given), so the adjudicator
  takes them as given; None otherwise (each entry is then looked at when the phase is
  processed). Never None when the entries are. A tuple (one block, kept on the interpreter's
  free list: cheaper to make at the submit and to drop when the phase is processed than a
  list).
"""

_NO_ORDERS: _Pending = ((), None)
"""The orders of a power that gave none."""

_NO_POWERS: Final[frozenset[str]] = frozenset()

_TYPED_LOOPS: Final[bool] = is_compiled(_compiled)
"""True where this module is compiled: a submit's loops over the orders take the idiom each
build runs fastest (a native loop and direct calls compiled, ``map`` in C interpreted)."""


class _Steps:
    """What :meth:`Game.process` asks of the game's variant, setup and rules after every phase,
    worked out once for them (they do not change while a game is played; a game whose variant,
    setup or rules is replaced makes a new one: :meth:`Game._steps_now`)."""

    __slots__ = ("variant", "setup", "rules", "asks_phase_notes", "asks_setup_events",
                 "by_units", "per_power", "solo_target")

    def __init__(self, variant: Variant, setup: Setup, rules: Rules) -> None:
        self.variant = variant
        self.setup = setup
        self.rules = rules
        hooks = type(variant.hooks)
        self.asks_phase_notes = hooks.phase_notes is not VariantHooks.phase_notes
        """The variant's own ``phase_notes`` hook (the default notes only annihilated units:
        asked only when there are some)."""
        self.asks_setup_events = bool(setup.neutral) \
            or hooks.setup_events is not VariantHooks.setup_events
        """The variant's own ``setup_events`` hook, or a setup with neutral powers (the
        default hook has events only for those)."""
        self.by_units = setup.players == 2 and rules.edition is Edition.R1971
        """The 1914 game by the 1971 rules: won with 24 units on the board (else centres)."""
        self.per_power = setup.victory_by == "power"
        self.solo_target = setup.solo_centers or variant.solo_centers

    def _made_from(self) -> tuple[Variant, Setup, Rules]:
        return (self.variant, self.setup, self.rules)

    def __eq__(self, other: object) -> bool:
        # (all else is worked out from these: a copied game's steps equal the game's)
        return isinstance(other, _Steps) and self._made_from() == other._made_from()

    def __hash__(self) -> int:
        return hash(self.rules)  # (equal steps have equal rules; a variant is not hashable)

    def __reduce__(self) -> Reduced:
        return (_Steps, self._made_from())


class Game:
    """A game of Diplomacy from its first phase to its end.

    >>> game = Game("classical")
    >>> str(game.phase)
    'S1901M'
    >>> report = game.submit("france", "A Par-Bur, A Mar S A Par-Bur, F Bre-Mao")
    >>> [str(e.order) for e in report]
    ['A PAR - BUR', 'A MAR S A PAR - BUR', 'F BRE - MAO']
    >>> resolution = game.process()
    >>> str(game.phase)
    'F1901M'
    """

    def __init__(
        self,
        variant: Variant | str = "classical",
        *,
        rules: Rules | str = "2023",
        options: Mapping[str, str] | None = None,
        players: int | str | None = None,
        seed: int = 0,
        end_year: int | None = None,
        policies: Mapping[str, str] | None = None,
    ) -> None:
        """``policies``: the variant's policies this game chooses otherwise than the variant
        (:meth:`~realpolitik.hooks.VariantHooks.policies`); kept in the game's record.

        :raises VariantError: an unknown policy or value.
        """
        self.variant: Variant = load_variant(variant) if isinstance(variant, str) else variant
        self.policies: dict[str, str] = dict(policies or {})
        """The policies this game chose (its record keeps them); the variant has them all."""
        if policies:
            self.variant = self.variant.with_policies(policies)
        self.rules: Rules = rules if isinstance(rules, Rules) else rules_for(rules, options)
        self.setup: Setup = self.variant.setup(players)
        self.seed = seed
        self.end_year = end_year
        """The short game (III): the year after whose adjustments the game stops."""
        self._random = random.Random(seed)
        self.history: list[PhaseRecord] = []
        self.end: GameEnd | None = None
        self.eliminated: list[str] = []
        self.civil_disorder: set[str] = set(self.setup.inactive)
        """Powers currently in civil disorder: inactive powers, and those that missed orders."""
        self.coin_toss_winner: int | None = None
        self._power_set = frozenset(self.variant.power_ids)
        """The powers of the variant, as a set (asked of every submit and process)."""
        self._team_of: dict[str, int] = {
            power: index for index, team in enumerate(self.setup.teams) for power in team
        }
        self._pending: dict[str, _Pending] = {}
        self._notes: list[str] = []
        """Events of the current phase outside the orders, said so far (lots drawn for a
        power): they go into the phase's record when it is played."""
        self._draw_votes: dict[str, bool] = {}
        self._powers_cache: tuple[Position, int, tuple[tuple[str, ...], tuple[str, ...]]] | None \
            = None
        self._listed: dict[str, ListedOrders] = {}
        """Power -> its listed orders in ``_listed_for`` (position, rules): in a movement
        phase every power's, given at once by the listing; else the powers asked so far."""
        self._listed_for: tuple[Position, Rules] | None = None
        self._steps = _Steps(self.variant, self.setup, self.rules)
        self._position = self._initial_position()
        # the setup's events at the start itself (a variant may hand units to a power then)
        self._position = self._setup_events(self._position, self._position, [])

    # -- the start --------------------------------------------------------------------------

    def _board_variant(self, neutral_active: bool) -> Variant:
        """The variant as the board stands: with neutral territory closed while it is neutral."""
        if not self.setup.neutral_territory or not neutral_active:
            return self.variant
        closed = _closed_boards(self.variant)
        board = closed.get(self.setup.id)
        if board is None:
            # (a copy of a variant starts with empty caches: its map differs)
            board = closed[self.setup.id] = replace(
                self.variant, map=self.variant.map.with_impassable(self.setup.neutral_territory))
        return board

    def _initial_position(self) -> Position:
        start = Position.initial(self.variant)
        if not self.setup.neutral and self.setup.start is None:
            return start
        phase = self.variant.calendar.parse_phase(self.setup.start) if self.setup.start \
            else start.phase
        neutral = set(self.setup.neutral)
        units = [u for u in start.units.values() if u.power not in neutral]
        centers = {c: p for c, p in start.centers.items() if p not in neutral}
        return Position.build(self._board_variant(True), phase, units, centers,
                              state=start.state)

    # -- the state --------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The current position (immutable)."""
        return self._position

    @property
    def phase(self) -> Phase:
        """The current phase."""
        return self._position.phase

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.end is not None

    @property
    def powers(self) -> tuple[str, ...]:
        """Every power of the variant."""
        return self.variant.power_ids

    def team_of(self, power: str) -> int:
        """The index of the player (in ``setup.teams``) who commands ``power``."""
        return self._team_of[power]

    def active_powers(self) -> tuple[str, ...]:
        """Powers still in the game: with units or centres, and not neutral."""
        return self._powers_now()[0]

    def powers_to_order(self) -> tuple[str, ...]:
        """Powers that have something to order in the current phase."""
        return self._powers_now()[1]

    def _powers_now(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(active powers, powers to order), worked out once per position and eliminations:
        both are asked for several times a phase."""
        position = self._position
        eliminated = self.eliminated
        cached = self._powers_cache
        if cached is not None and cached[0] is position and cached[1] == len(eliminated):
            return cached[2]
        answer = self._powers_of(position, eliminated)
        self._powers_cache = (position, len(eliminated), answer)
        return answer

    def _powers_of(self, position: Position, eliminated: list[str],
                   ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """:meth:`_powers_now` worked out (apart from the cache's test). A power is in while it
        has units, supply centres or dislodged units and is not eliminated."""
        # One loop over the variant's few powers, each asked in turn (most are in by their
        # units): no set of the present powers made and filtered, which compiled cost twice
        # this (set displays, comprehensions) and interpreted a third more.
        with_units = position.powers_with_units()
        owners = position.center_counts()
        dislodged = position.dislodged
        # (the powers of the dislodged units: only a retreat phase has any)
        dislodged_powers = frozenset({d.unit.power for d in dislodged}) if dislodged \
            else _NO_POWERS
        kind = position.phase.type
        movement = kind is _MOVEMENT
        active: list[str] = []
        to_order: list[str] = []
        for power in self.variant.power_ids:
            if power in with_units:
                if eliminated and power in eliminated:
                    continue
                active.append(power)
                if movement:
                    to_order.append(power)
            elif power in owners or power in dislodged_powers:
                if eliminated and power in eliminated:
                    continue
                active.append(power)
        if movement:
            return tuple(active), tuple(to_order)
        if kind is _RETREATS:
            return tuple(active), tuple(sorted(dislodged_powers))
        counts = due_adjustments(position)
        acting = kind_powers(position)  # (with orders of the variant's own kinds)
        return tuple(active), tuple([p for p, n in counts.items()
                                     if (n != 0 or p in acting) and p in active])

    def set_position(self, position: Position) -> None:
        """Put the board as ``position`` has it: a gamesmaster's correction, or a test or a
        compatibility layer setting up a case. The orders given so far are withdrawn and the
        history is kept; a power given units or centres again is no longer eliminated, and a
        game that had ended goes on from ``position``.

        :raises GameError: ``position`` is of another variant.
        """
        if position.variant.id != self.variant.id:
            raise GameError(f"the position is of {position.variant.name}, the game of "
                            f"{self.variant.name}")
        self._position = position
        self._pending = {}
        self._draw_votes = {}
        self.end = None
        self.eliminated = [p for p in self.eliminated if not (
            position.units_of(p) or position.centers_of(p) or position.dislodged_of(p))]

    def orders_of(self, power: str) -> tuple[SubmittedOrder, ...]:
        """The orders ``power`` has given for the current phase so far."""
        pending = self._pending.get(power)
        if pending is None:
            return ()
        entries, orders = pending
        if entries is None:  # (given without a report: made now, once)
            assert orders is not None
            entries = tuple(map(_listed_entry, orders))
            self._pending[power] = (entries, orders)
        return entries

    def orders_stand(self, power: str) -> bool:
        """True if ``power``'s orders for the current phase were given as values and every
        one is legal as it stands (listed, or read as given), so none is refused or read
        otherwise when the phase is processed; False otherwise (nothing given, orders given
        as text, or some order refused or read otherwise: :meth:`orders_of` says which). A
        cheaper answer than reading each entry's ``error``."""
        pending = self._pending.get(power)
        return pending is not None and pending[1] is not None

    def has_submitted(self, power: str) -> bool:
        """True if ``power`` has given orders (possibly none) for the current phase."""
        return power in self._pending

    def legal_orders(self, power: str) -> Mapping[str, tuple[Order, ...]]:
        """Every legal order of ``power`` in the current phase, per location."""
        return self._listed_orders(power).by_location

    def centers(self) -> dict[str, int]:
        """The supply-centre tally: power -> number of centres owned."""
        return {p: len(self._position.centers_of(p)) for p in self.powers}

    # -- orders -----------------------------------------------------------------------------

    def submit(
        self,
        power: str,
        orders: str | Iterable[Order],
        *,
        replace_all: bool = True,
    ) -> tuple[SubmittedOrder, ...]:
        """Give ``power``'s orders for the current phase, as text or as order values.

        Text is read with :func:`realpolitik.notation.parse_orders`; each order is checked. The
        report lists every order with what it was read as, or why it was not; unreadable and
        illegal orders are kept (nothing typed is lost) but not carried out. In text, a later
        order for a unit already ordered replaces the earlier one (kept, marked ``replaced``):
        a player correcting a sheet means the correction. Orders given as values are passed on
        as given, and the edition's rule for several orders to one unit applies (DATC 4.D.3). With
        ``replace_all`` (the default) the power's earlier orders for this phase are replaced;
        otherwise the new orders replace only earlier orders for the same units.

        :raises GameError: the game is over, or ``power`` is not a power of the game.
        """
        self._check_can_order(power)
        entries: tuple[SubmittedOrder, ...]
        listed: tuple[Order, ...] | None = None
        kept_listed = False  # (whether the orders are kept without their entries)
        if isinstance(orders, str):
            sheet = parse_orders(orders, self._position, power=power)
            entries = tuple(_mark_replaced([self._entry(e) for e in sheet.entries]))
        elif _TYPED_LOOPS:
            entries, listed, kept_listed = self._given_values(power, tuple(orders))
        else:
            given = tuple(orders)
            is_listed = self._listed_orders(power).holds
            if all(map(is_listed, given)):  # legal as they stand: no check, no text written
                entries = tuple(map(_listed_entry, given))
                listed = given
                kept_listed = True
            else:
                entries, listed, kept_listed = self._unlisted_values(power, given, is_listed)
        if replace_all or power not in self._pending:
            # (entries of listed values are the caller's report only: the game keeps the
            # orders, and makes their entries again if orders_of asks; so a report the caller
            # drops is freed at once, not kept to the processing)
            self._pending[power] = (None if kept_listed else entries, listed)
        else:
            earlier = self.orders_of(power)
            # (a waive is for no unit: it neither replaces nor is replaced)
            new_units = {unit_key(e.order) for e in entries if e.order is not None} - {None}
            kept = tuple(e for e in earlier
                         if e.order is None or unit_key(e.order) not in new_units)
            both = None if self._pending[power][1] is None or listed is None \
                else (*[e.order for e in kept if e.order is not None], *listed)
            self._pending[power] = (kept + entries, both)
        self.civil_disorder.discard(power)
        return entries

    def submit_found(self, power: str, orders: Sequence[Order],
                     support_keys: Sequence[int | None], *, report: bool = True,
                     ) -> tuple[SubmittedOrder, ...]:
        """:meth:`submit` of movement orders given back as the listing's own values, with the
        support key (:meth:`MapTables.support_key`) of each support the caller knows (None
        for any other order, or a support whose key it does not know); same result.

        Each such support is found listed by its unit's parts (:func:`movement_parts`): the
        support its unit lists under that key *is* the order given, and the key is neither
        the unit's own move nor spared; any other order is looked for as :meth:`submit`
        looks. An order not found so (not listed, not the listing's own value, a key that is
        not its own, any phase but movement) sends the whole call to :meth:`submit`, which
        checks every order: nothing unlisted is ever taken as listed.

        With ``report=False``, when every order is found so, no entry is made (a caller that
        does not read them saves one object per order): ``()`` is returned, and
        :meth:`orders_stand` is True (:meth:`orders_of` makes the entries if asked). Otherwise
        the report is what :meth:`submit` returns.

        :raises GameError: as :meth:`submit`.
        """
        position = self._position
        # (each unit's parts read as a plain tuple: compiled, a value typed as the nine-field
        # UnitParts is unboxed field by field, its types checked, each time it is read)
        units: Mapping[str, tuple[Any, ...]] | None = None
        if position.phase.type is _MOVEMENT and len(orders) == len(support_keys):
            self._check_can_order(power)
            parts = movement_parts(position)
            units = None if parts is None else parts.get(power)
        if units is None:
            return self.submit(power, orders)
        holds: Callable[[Order], bool] | None = None
        unit_at = units.get
        # (no ``strict``: the lengths were compared above, and the keyword is parsed each call)
        for order, key in zip(orders, support_keys):  # noqa: B905
            # (identity: the unit's own values, so listed now; a unit of another type or
            # power there lists other values)
            unit = unit_at(getattr(order, "location", ""))
            if key is not None:
                if unit is not None and key in unit[PART_SUPPORT_KEYS] \
                        and key not in unit[PART_SPARED] and unit[PART_SUPPORT_OF](key) is order:
                    continue
                return self.submit(power, orders)
            if unit is not None and (any(map(is_, unit[PART_HEAD], repeat(order)))
                                     or any(map(is_, unit[PART_CONVOYS], repeat(order)))):
                continue  # (the unit's own hold, move or convoy: listed now)
            if holds is None:
                holds = self._listed_orders(power).holds
            if not holds(order):
                return self.submit(power, orders)
        listed = tuple(orders)
        if not report:  # (the entries made only if read: orders_of)
            self._pending[power] = (None, listed)
            self.civil_disorder.discard(power)
            return ()
        entries = tuple(map(_listed_entry, listed))
        self._pending[power] = (entries, listed)
        self.civil_disorder.discard(power)
        return entries

    def _given_values(self, power: str, given: tuple[Order, ...],
                      ) -> tuple[tuple[SubmittedOrder, ...], tuple[Order, ...] | None, bool]:
        """:meth:`submit` of order values, compiled: (the entries, the orders if every one
        is legal as it stands, whether they are kept without their entries). The interpreted
        build runs the same steps inline, with ``map``."""
        listing = self._listed_orders(power)
        # (a native loop calling ``holds`` directly: ``all(map(...))`` over the bound method
        # is two generic calls, and a call through its Python entry point, for every order)
        for order in given:
            if not listing.holds(order):
                return self._unlisted_values(power, given, listing.holds)
        # (the tuple made at its length, each entry by the native constructor: ``map`` over
        # the ``partial`` is a generic call an entry)
        return tuple(SubmittedOrder(None, order) for order in given), given, True

    def _unlisted_values(self, power: str, given: tuple[Order, ...],
                         is_listed: Callable[[Order], bool],
                         ) -> tuple[tuple[SubmittedOrder, ...], tuple[Order, ...] | None, bool]:
        """:meth:`submit` of order values not all listed as given: as :meth:`_given_values`
        returns."""
        # (an order for another power or none is not listed for this one: its power is set,
        # and it is looked for again)
        given = tuple([o if o.power == power else with_power(o, power) for o in given])
        if all(map(is_listed, given)):
            return tuple(map(_listed_entry, given)), given, True
        entries, as_given = self._checked_values(given, is_listed)
        # (every one legal as it stands: none illegal, none read otherwise than given)
        return entries, given if as_given else None, False

    def _listed_orders(self, power: str) -> ListedOrders:
        """``power``'s listed orders in the current position, looked up once per phase (asked
        for by :meth:`legal_orders`, then by a submit of order values)."""
        now = self._listed_for
        if now is None or now[0] is not self._position or now[1] is not self.rules:
            self._listed_for = (self._position, self.rules)
            # (a movement phase's every power at once, in a dictionary made for the game:
            # one look-up in the listing a phase, not one a power and an insertion each)
            every = every_power_listed(self._position, self.rules)
            if every is not None:
                self._listed = every
            else:
                self._listed.clear()
        listed = self._listed.get(power)
        if listed is None:
            listed = self._listed[power] = listed_orders(self._position, power,
                                                         rules=self.rules)
        return listed

    def submit_sheet(self, text: str) -> dict[str, tuple[SubmittedOrder, ...]]:
        """Orders for several powers in one text, under headers (``England: A Lon-Nth...``);
        an order without a header goes to the owner of its unit."""
        if self.end is not None:
            raise GameError(f"the game is over ({self.end.summary})")
        sheet = parse_orders(text, self._position)
        grouped: dict[str, list[ParsedOrder]] = {}
        for entry in sheet.entries:
            power = entry.power or (entry.order.power if entry.order else None)
            if power is None:
                power = ""
            grouped.setdefault(power, []).append(entry)
        out: dict[str, tuple[SubmittedOrder, ...]] = {}
        for power, entries in grouped.items():
            if not power:
                out[""] = tuple(self._entry(e) for e in entries)
                continue
            self._check_can_order(power)
            submitted = tuple(_mark_replaced([self._entry(e) for e in entries]))
            self._pending[power] = (submitted, None)
            self.civil_disorder.discard(power)
            out[power] = submitted
        for power in sheet.powers_named:
            if power not in out:
                self._check_can_order(power)
                self._pending[power] = _NO_ORDERS
                out[power] = ()
        return out

    def restore_orders(self, power: str, entries: Iterable[SubmittedOrder]) -> None:
        """Put back orders recorded earlier (a saved game), as given, without checking them."""
        self._pending[power] = (tuple(entries), None)

    def note(self, text: str) -> None:
        """Record an event of the current phase outside the orders (the server notes the lots
        drawn when a player takes "any power"); it is kept with the phase in the history."""
        self._notes.append(text)

    @property
    def current_notes(self) -> tuple[str, ...]:
        """The events noted in the current phase so far."""
        return tuple(self._notes)

    @property
    def draw_votes(self) -> Mapping[str, bool]:
        """Every vote cast on a draw so far: for the game record only (votes are secret)."""
        return dict(self._draw_votes)

    def restore_draw_votes(self, votes: Mapping[str, bool]) -> None:
        """Put back the draw votes of a saved game."""
        self._draw_votes = dict(votes)

    def clear_orders(self, power: str) -> None:
        """Withdraw ``power``'s orders for the current phase."""
        self._pending.pop(power, None)

    def _check_can_order(self, power: str) -> None:
        if self.end is not None:
            raise GameError(f"the game is over ({self.end.summary})")
        if power not in self._power_set:
            raise GameError(
                f"{power!r} is not a power of {self.variant.name}; the powers are "
                + ", ".join(self.variant.power_ids)
            )
        if power in self.setup.inactive or (power in self.setup.neutral
                                            and self.coin_toss_winner is None):
            raise GameError(f"{self.variant.power_name(power)} takes no orders in this game "
                            f"({self.setup.name})")

    def _entry(self, parsed: ParsedOrder) -> SubmittedOrder:
        if parsed.error is not None:
            return SubmittedOrder(parsed.text, None, str(parsed.error), parsed.error.kind)
        assert parsed.order is not None
        return self._checked(parsed.text, parsed.order)

    def _checked_values(self, given: tuple[Order, ...], is_listed: Callable[[Order], bool],
                        ) -> tuple[tuple[SubmittedOrder, ...], bool]:
        """The entries of orders given as values, some not listed (those are checked), and
        whether every one is legal as it stands: then the adjudicator may take them as given,
        as it takes listed ones (an unlisted order the rules read as given, such as a support
        of a move to a coast given without the coast, is as good as listed)."""
        entries: list[SubmittedOrder] = []
        as_given = True
        for order in given:
            if is_listed(order):
                entries.append(_listed_entry(order))
                continue
            reading = normalize_order(self._position, order, rules=self.rules)
            if isinstance(reading, Illegal):
                entries.append(SubmittedOrder(str(order), order, reading.message, "illegal"))
                as_given = False
            else:
                entries.append(SubmittedOrder(str(order), order))
                as_given = as_given and reading == order
        return tuple(entries), as_given

    def _checked(self, text: str, order: Order) -> SubmittedOrder:
        problem = check_order(self._position, order, rules=self.rules)
        if problem is not None:
            return SubmittedOrder(text or str(order), order, problem[1], "illegal")
        return SubmittedOrder(text or str(order), order)

    def warnings(self, power: str) -> list[str]:
        """What ``power``'s orders so far leave open or overdo, to say before it is marked
        ready: units without an order that can be followed (they hold; dislodged ones are
        disbanded; inactive units, which only hold, are not named), orders the variant's rules
        would make void, builds not used, fewer or more removals than due, orders replaced by a
        later order for the same unit. Empty when nothing needs saying."""
        position = self._position
        entries = self.orders_of(power)
        followed = [e.order for e in entries if e.ok and e.order is not None]
        ordered = {unit_key(o) for o in followed}
        name = self.variant.power_name(power)
        out = [f"{e.text or e.order}: {e.error}" for e in entries if e.error_kind == REPLACED]
        kind = position.phase.type
        if kind is PhaseType.MOVEMENT:
            out += self._void_warnings(followed)
            # (an inactive unit only holds, whatever it is ordered: leaving it is no oversight)
            inactive = self.variant.hooks.inactive_units(position)
            writer = place_writer(self.variant)
            idle = [writer.unit_of(u) for u in position.units_of(power)
                    if u.province not in ordered and u.province not in inactive]
            if idle:
                out.append(f"{name}: {', '.join(idle)} {'has' if len(idle) == 1 else 'have'} "
                           "no order that can be followed and will hold")
        elif kind is PhaseType.RETREATS:
            idle = [place_writer(self.variant).unit_of(d.unit)
                    for d in position.dislodged_of(power) if d.unit.province not in ordered]
            if idle:
                out.append(f"{name}: {', '.join(idle)} {'has' if len(idle) == 1 else 'have'} "
                           "no retreat order and will be disbanded")
        else:
            due = adjustment_count(position, power)
            # the builds it can carry out (the variant's limits may leave fewer than due)
            info = adjustments(position).get(power)
            can = info.builds if info is not None and due > 0 else due
            spent, kind_warnings = self._kind_warnings(power, followed, due)
            used_up = due > 0 and spent >= due  # every build taken by such orders
            if due > 0 and spent:
                due = max(0, due - spent)  # builds taken by orders of the variant's own kinds
                can = min(can, due)
            builds = sum(1 for o in followed if isinstance(o, Build | Waive))
            removals = sum(1 for o in followed if isinstance(o, Disband))
            given = [o for o in followed if isinstance(o, Build)][:max(due, 0)]
            voids = self.variant.hooks.void_adjustments(position, power, given) if given \
                else {}
            out += [f"{given[i]}: will be void: {reason}" for i, reason in sorted(voids.items())]
            out += kind_warnings
            if used_up and builds:
                out.append(f"{name}: its other orders take every build it is due, so its "
                           f"{'build' if builds == 1 else 'builds'} will be void")
            elif due > 0 and builds < can:
                out.append(f"{name}: may build {can}, gave {builds}; the rest are waived")
            elif due > 0 and builds > due:
                out.append(f"{name}: may build {due}, gave {builds}: more builds than due; "
                           + _too_many(self.rules.too_many_builds.value, due))
            elif due < 0 and removals < -due:
                out.append(f"{name}: must remove {-due}, gave {removals}; the rest will be "
                           "chosen by the civil-disorder rule")
            elif due < 0 and removals > -due:
                out.append(f"{name}: must remove {-due}, gave {removals}: more removals than "
                           "due; " + _too_many(self.rules.too_many_disbands.value, -due))
        return out

    def _kind_warnings(self, power: str, followed: Sequence[Order], due: int,
                       ) -> tuple[int, list[str]]:
        """The builds ``power``'s orders of the variant's own kinds take this winter, and
        those orders the adjudication will void (:meth:`~realpolitik.kinds.OrderKind.spend`,
        as ``adjudication.adjustments`` asks it), each as ``"<order>: will be void:
        <reason>"``."""
        spent = 0
        out: list[str] = []
        for _, given, spending in self._spending(power, followed, due):
            spent += spending.builds
            for index, illegal in sorted(spending.void.items()):
                reason = illegal.message[:1].lower() + illegal.message[1:].rstrip(".")
                out.append(f"{given[index]}: will be void: {reason}")
        return spent, out

    def _spending(self, power: str, followed: Sequence[Order], due: int,
                  ) -> list[tuple[OrderKind, list[VariantOrder], Spending]]:
        """What ``power``'s orders of each of the variant's own kinds cost of its ``due``
        builds this winter, kind by kind in the registry's order (as the adjustment phase
        takes them), for the kinds it gave orders of."""
        kinds = self.variant.kinds
        if not kinds:
            return []
        spent = 0
        out: list[tuple[OrderKind, list[VariantOrder], Spending]] = []
        for kind in kinds.in_phase(PhaseType.ADJUSTMENTS):
            given = [o for o in followed if isinstance(o, VariantOrder) and type(o) is kind.order]
            if not given:
                continue
            spending = kind.spend(self._position, power, given, due - spent)
            spent += spending.builds
            out.append((kind, given, spending))
        return out

    def builds_used(self, power: str) -> dict[str, int]:
        """In an adjustment phase, the builds ``power``'s orders so far of each of the
        variant's own kinds use (:meth:`~realpolitik.kinds.OrderKind.spend`), by the kind's
        name: ``{"transform": 1}``; the kinds that use none are left out, and every kind in
        another phase or a variant without kinds of its own."""
        if self._position.phase.type is not PhaseType.ADJUSTMENTS or not self.variant.kinds:
            return {}
        due = adjustment_count(self._position, power)
        followed = [e.order for e in self.orders_of(power) if e.ok and e.order is not None]
        return {kind.name: spending.builds
                for kind, _, spending in self._spending(power, followed, due)
                if spending.builds}

    def _void_warnings(self, followed: Sequence[Order]) -> list[str]:
        """The movement orders that the variant's rules would make void because of the power's
        other orders (a variant's: more start choices ordered than it may make), each
        as ``"<order>: will be void: <reason>"``, the form of a void build's warning."""
        if not followed:
            return []
        voids = self.variant.hooks.void_orders(self._position, followed)
        return [f"{followed[i]}: will be void: {reason}" for i, reason in sorted(voids.items())]

    # -- draws and concessions ---------------------------------------------------------------

    def draw_voters(self, unplayed: Collection[str] = ()) -> list[tuple[str, ...]]:
        """The players who vote on a draw, each as the powers it commands that are still in the
        game: a draw is "shared equally" by "all players who still have pieces on the board"
        (1971 and 1992 II). Powers no one plays are left out: the setup's inactive powers and
        ``unplayed`` (seats without a player, which the caller knows)."""
        left_out = self.setup.inactive | frozenset(unplayed)
        by_player: dict[int, list[str]] = {}
        for power in self.active_powers():
            team = self._team_of.get(power)
            if team is None or power in left_out:
                continue
            by_player.setdefault(team, []).append(power)
        return [tuple(powers) for _, powers in sorted(by_player.items())]

    def vote_draw(self, power: str, in_favour: bool = True, *,
                  unplayed: Collection[str] = ()) -> GameEnd | None:
        """Record ``power``'s vote on a draw among the players still in the game (II). A player
        is in favour when every power it commands that is still in the game has voted for the
        draw; the draw is agreed when every voting player (:meth:`draw_voters`) is. Votes are
        secret until then; returns the end once agreed."""
        if self.end is not None:
            raise GameError(f"the game is over ({self.end.summary})")
        if power not in self.active_powers():
            raise GameError(f"{self.variant.power_name(power)} is not in the game and cannot vote")
        self._draw_votes[power] = in_favour
        voters = self.draw_voters(unplayed)
        if voters and all(self._in_favour(powers) for powers in voters):
            drawn = tuple(p for powers in voters for p in powers
                          if self._position.units_of(p))
            # (the end returned as made: the type checker, and so the compiled code, take
            # ``self.end`` for None here since the check above)
            return self._finish(EndKind.DRAW, drawn, "a draw agreed by "
                                + ", ".join(map(self.variant.power_name, drawn)))
        return None

    def _in_favour(self, powers: Sequence[str]) -> bool:
        return all(self._draw_votes.get(p) for p in powers)

    def draw_vote_count(self, unplayed: Collection[str] = ()) -> tuple[int, int]:
        """(players in favour so far, players whose vote is needed): the only public view.
        Players are counted, not powers ("1 of 2" in a two-player game)."""
        voters = self.draw_voters(unplayed)
        return sum(1 for powers in voters if self._in_favour(powers)), len(voters)

    def concede(self, to: str) -> GameEnd:
        """Every other player concedes the game to ``to``."""
        if self.end is not None:
            raise GameError(f"the game is over ({self.end.summary})")
        winners = self.setup.teams[self._team_of[to]]
        return self._finish(EndKind.CONCESSION, winners,
                            f"conceded to {self.variant.power_name(to)}")

    def _finish(self, kind: EndKind, winners: Sequence[str], summary: str) -> GameEnd:
        end = self.end = GameEnd(kind, tuple(winners), str(self.phase), summary)
        return end

    # -- processing -------------------------------------------------------------------------

    def _steps_now(self) -> _Steps:
        """The :class:`_Steps` of the game's variant, setup and rules as they are now."""
        steps = self._steps
        if steps.variant is not self.variant or steps.setup is not self.setup \
                or steps.rules is not self.rules:
            steps = self._steps = _Steps(self.variant, self.setup, self.rules)
        return steps

    def process(self) -> Resolution:
        """Adjudicate the current phase with the orders given and move to the next phase.

        A power with units that gave no orders in a movement phase is in civil disorder for
        that season (its units hold); missing retreats disband; missing adjustments follow the
        edition's civil-disorder rule.

        :raises GameError: the game is over.
        """
        if self.end is not None:
            raise GameError(f"the game is over ({self.end.summary})")
        position = self._position
        pending = self._pending
        steps = self._steps_now()
        expected = self._powers_now()[1]
        # (a loop: cheaper than all() over a map of a bound method, in both builds)
        disorder: tuple[str, ...] = ()
        for power in expected:
            if power not in pending:
                disorder = tuple(filterfalse(pending.__contains__, expected))  # (no cell)
                break
        kind = position.phase.type
        if disorder and kind is _MOVEMENT:
            self.civil_disorder.update(disorder)
        orders: list[Order] = []
        # what the record keeps of each power's orders, gathered with the orders: where they
        # end in the orders (a power's listed values are that slice of them), and the entries
        # of the powers whose orders are not all listed values
        ends: dict[str, int] = {}
        entries_given: dict[str, tuple[SubmittedOrder, ...] | list[Order]] | None = None
        # Orders that legal_orders listed need no second check: tell the adjudicator so.
        all_listed = True
        for power, (given, listed) in pending.items():
            if listed is not None:  # every entry legal as it stands: nothing to leave out
                orders += listed
                ends[power] = len(orders)
                continue
            assert given is not None  # (made when the orders are not all legal as given)
            if entries_given is None:
                entries_given = {}
            entries_given[power] = given
            all_listed = False
            for entry in given:
                if entry.order is None or entry.error_kind == REPLACED:
                    continue
                if entry.error_kind == "illegal" and isinstance(entry.order, Build | Waive) \
                        and power in self.civil_disorder:
                    continue
                orders.append(entry.order)
            ends[power] = len(orders)
        events = tuple(self._notes) if self._notes else ()
        self._notes = []
        notes: list[str] = []
        if kind is _RETREATS:
            drawn = self._unordered_retreats(position, orders, notes)
            if drawn:
                orders.extend(drawn)
                all_listed = False
        # (a tuple: the adjudicator keeps it as given, and the record shares it)
        given_orders = tuple(orders)
        resolution = adjudicate(position, given_orders, rules=self.rules, checked=all_listed)
        following = _next_position(position, resolution)
        # (the default notes name only units a movement phase annihilated: the hook's own
        # first test, that no unit is missing, read here natively before it is called)
        if steps.asks_phase_notes or kind is _MOVEMENT and len(position.units) != len(
                resolution.units) + len(resolution.dislodged) \
                and annihilated_units(position, resolution):
            notes.extend(self.variant.hooks.phase_notes(position, resolution, following))
        if steps.asks_setup_events:
            following = self._setup_events(position, following, notes)
        inactive = self.setup.inactive
        if inactive:  # (in civil disorder for the record: the inactive powers still in it)
            disorder = tuple(sorted(set(disorder) | (inactive & set(self.active_powers()))))
        elif len(disorder) > 1:
            disorder = tuple(sorted(disorder))
        position.caches.clear()  # its legal orders are not needed again: not kept in history
        self._listed.clear()
        self._listed_for = None
        self._pending = {}
        self._position = following
        self._check_eliminations(notes)  # (before the record is made: it notes them)
        self.history.append(_made_record(
            position, spanned_orders(given_orders, ends, entries_given, _listed_entry),
            resolution, disorder, tuple(notes) if notes else (), events))
        self._check_end(position.phase, steps)
        return resolution

    def _unordered_retreats(self, position: Position, orders: list[Order],
                            notes: list[str]) -> list[Order]:
        """Retreats the variant's hooks choose for dislodged units given no order that can be
        followed (the rulebooks disband them). The generator is seeded from the game's seed
        and the phase, so a replayed record draws the same; each draw is noted in the record."""
        if not position.dislodged or not draws_retreats(position):
            return []  # (a generator seeded from a string costs more than the phase)
        rng = random.Random(f"{self.seed}/retreats/{position.phase}")
        drawn = unordered_retreats(position, orders, self.rules, rng)
        ordered = {order.province for order in orders if isinstance(order, Retreat | Disband)}
        writer = place_writer(self.variant)
        for order in drawn:
            unit = next(d.unit for d in position.dislodged if d.unit.province == order.province)
            given = " it could follow" if unit.province in ordered else ""
            notes.append(f"{self.variant.power_name(unit.power)} gave no order{given} for "
                         f"{writer.unit_of(unit)}: it retreats to "
                         f"{writer.place(order.destination)}, drawn at random")
        return list(drawn)

    def _setup_events(self, before: Position, after: Position, notes: list[str]) -> Position:
        """The setup's events between two phases, as the variant's hooks decide them (the 1914
        game's coin toss and neutral Italy joining the winner): applied to the game."""
        events = self.variant.hooks.setup_events(self.variant, self.setup, before, after,
                                                 self._random, self.coin_toss_winner)
        if events is None:
            return after
        notes.extend(events.notes)
        self.coin_toss_winner = events.coin_toss_winner
        for power in events.joined:
            assert self.coin_toss_winner is not None
            self._team_of[power] = self.coin_toss_winner
        return events.position

    def _check_eliminations(self, notes: list[str]) -> None:
        position = self._position
        with_units = position.powers_with_units()
        # (a loop over the few powers, not the set of those without units made first: most
        # phases every power still has units)
        for power in self.variant.power_ids:
            if power in with_units or power in self.eliminated \
                    or power in self.setup.neutral:
                continue
            if not position.centers_of(power) and not position.dislodged_of(power):
                self.eliminated.append(power)
                notes.append(f"{self.variant.power_name(power)} is eliminated")

    def _check_end(self, last: Phase, steps: _Steps) -> None:
        """Whether the game has ended on reaching the current position from a phase ``last``
        (the phase just played); ``steps``: the game's :meth:`_steps_now`."""
        position = self._position
        if position.phase.type is _RETREATS:
            return
        # the 1914 game: 24 units on the board by the 1971 rules, 24 centres by later ones
        by_units = steps.by_units
        if by_units:
            # "24 units actually on the board" (1971 XIV.2): the units the player has once the
            # year's builds and removals are made, so judged when the next year begins (after
            # the Winter adjustments, or straight after the Fall when there are none)
            due = position.phase.year > last.year
        else:
            # centres change hands at the end of a Fall turn (1971 XIII.1, 1992 XIV.1), or
            # whichever turns the variant's year says
            due = self.variant.calendar.centers_counted(last, position.phase)
        if due:
            victory = self.variant.hooks.victory(
                position, self._teams(), steps.solo_target, count_units=by_units,
                per_power=steps.per_power)
            if victory is not None:
                self._finish(EndKind.VICTORY, self.setup.teams[victory.team], victory.summary)
                return
        if self.end_year is not None and position.phase.year > self.end_year:
            self._end_short_game()

    def _teams(self) -> Sequence[tuple[str, ...]]:
        """The powers each player commands now (a neutral power joins a player in the 1914
        game), in the order of ``setup.teams``."""
        if not self.setup.neutral:
            return self.setup.teams
        teams = [list(team) for team in self.setup.teams]
        for power in self.setup.neutral:
            team = self._team_of.get(power)
            if team is not None:
                teams[team].append(power)
        return [tuple(team) for team in teams]

    def _scores(self, *, by_units: bool) -> dict[int, int]:
        position = self._position
        held = Counter(unit.power for unit in position.units.values()) if by_units \
            else Counter(position.centers.values())
        scores: dict[int, int] = {}
        for power in self.powers:
            team = self._team_of.get(power)
            if team is None:
                continue
            scores[team] = scores.get(team, 0) + held[power]
        return scores

    def _end_short_game(self) -> None:
        """III: the player with the most pieces on the board wins; a tie is reported as such."""
        scores = self._scores(by_units=True)
        best = max(scores.values())
        top = [t for t, s in scores.items() if s == best]
        winners = tuple(p for t in top for p in self.setup.teams[t])
        names = "/".join(map(self.variant.power_name, winners))
        if len(top) == 1:
            summary = f"short game ended after {self.end_year}: {names} has the most units ({best})"
        else:
            summary = f"short game ended after {self.end_year}: a tie at {best} units between " \
                      f"{names}"
        self._finish(EndKind.SHORT_GAME, winners, summary)

    # -- convenience for scripts and bots -------------------------------------------------------

    def play(self, orders: Mapping[str, str | Iterable[Order]]) -> Resolution:
        """Submit orders for several powers and process the phase."""
        for power, given in orders.items():
            self.submit(power, given)
        return self.process()

    def __getstate__(self) -> dict[str, object]:
        # A copy or a pickle leaves out what was looked up for the current phase (the listed
        # orders: kept in the position's caches, which are not copied either). The fields
        # are named (the compiled build's native class has no __dict__).
        state = {name: getattr(self, name) for name in _GAME_FIELDS}
        state["_listed"] = {}
        state["_listed_for"] = None
        return state

    def __setstate__(self, state: Mapping[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    def __repr__(self) -> str:
        state = self.end.summary if self.end else str(self.phase)
        return f"<Game {self.variant.id} {state}>"


_GAME_FIELDS = ("variant", "policies", "rules", "setup", "seed", "end_year", "_random",
                "history", "end", "eliminated", "civil_disorder", "coin_toss_winner",
                "_power_set", "_team_of", "_pending", "_notes", "_draw_votes", "_powers_cache",
                "_listed", "_listed_for", "_steps", "_position")
"""Every field of a :class:`Game` (what a copy or a pickle carries: ``__getstate__``)."""
