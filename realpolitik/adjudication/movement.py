"""The movement phase: set up the board, resolve every decision, apply the moves, explain.

The pipeline (as godip's ``State.Next``): check each order (an illegal one is void and its unit
holds, with the reason); give unordered units a hold; build the :class:`Board`; resolve every
decision with the guess-and-check :class:`Resolver` and the backup rule; then, once everything is
decided, move the units, list the dislodged units with their retreats and the stand-offs, and
give each order its outcome.

The solver runs once per phase. Each order's sentence (the units that caused its result, the
strengths of its battle) is written the first time a result's reason is read, from what the
adjudication recorded (:class:`_Record`): the final value of every decision, read through the
same equations and the same code that gave the outcome, on the board set up again from the
orders as accepted. A sentence cannot tell another story than its outcome, and no phase is
checked or decided twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from types import MappingProxyType
from typing import Final, cast

from realpolitik.adjudication.backup import backup_rule
from realpolitik.adjudication.equations import (
    BLOCK,
    CONVOY,
    CONVOY_ONLY,
    HOLD,
    LAND,
    MOVE,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    Board,
    Equations,
    NotAsGiven,
    fleets_on_routes,
)
from realpolitik.adjudication.explain import and_list, versus
from realpolitik.adjudication.outcomes import (
    Detail,
    OrderResult,
    Outcome,
    Resolution,
    Result,
    made_resolution,
)
from realpolitik.adjudication.resolver import Resolver
from realpolitik.adjudication.setup import (
    Accepted,
    accept_orders,
    attribute_orders,
    unit_values,
    void_result,
)
from realpolitik.compiling import is_compiled
from realpolitik.geography import Map, UnitType, province_of
from realpolitik.hooks import NO_MODIFIERS, MovementModifiers, VariantHooks
from realpolitik.legality import retreat_options
from realpolitik.maptables import tables_for
from realpolitik.orders import Order, VariantOrder, Waive
from realpolitik.position import DislodgedUnit, Position, Unit, moved_unit
from realpolitik.rules import Rules
from realpolitik.variant_rules import NEUTRAL
from realpolitik.writing import PlaceWriter, place_writer

__all__ = ["adjudicate_movement"]

# Enum members looked up once (a class attribute look-up on an enum is slow).
_BLOCKED: Final = Outcome.BLOCKED
_BOUNCED: Final = Outcome.BOUNCED
_CONVOYED: Final = Outcome.CONVOYED
_CONVOY_DISRUPTED: Final = Outcome.CONVOY_DISRUPTED
_CROSSING_CLOSED: Final = Outcome.CROSSING_CLOSED
_CUT: Final = Outcome.CUT
_DISLODGED: Final = Outcome.DISLODGED
_HELD: Final = Outcome.HELD
_MOVED: Final = Outcome.MOVED
_NO_CONVOY: Final = Outcome.NO_CONVOY
_NO_EFFECT: Final = Outcome.NO_EFFECT
_PARADOX: Final = Outcome.PARADOX
_SELF_DISLODGE: Final = Outcome.SELF_DISLODGE
_SUPPORTED: Final = Outcome.SUPPORTED
_UNMATCHED: Final = Outcome.UNMATCHED
_FAILS: Final = Result.FAILS
_ARMY: Final = UnitType.ARMY
_SUCCEEDS: Final = Result.SUCCEEDS

_OUTCOMES: Final = (_MOVED, _HELD, _DISLODGED, _BOUNCED, _SELF_DISLODGE, _NO_CONVOY,
                    _CONVOY_DISRUPTED, _CROSSING_CLOSED, _PARADOX, _SUPPORTED, _CUT, _UNMATCHED,
                    _CONVOYED, _NO_EFFECT, _BLOCKED)
"""The outcomes of a movement order; a phase records each unit's as its index here (a byte)."""
_CODE_OF: Final = {outcome: code for code, outcome in enumerate(_OUTCOMES)}
_MOVED_CODE: Final = _CODE_OF[_MOVED]
_HELD_CODE: Final = _CODE_OF[_HELD]
_DISLODGED_CODE: Final = _CODE_OF[_DISLODGED]
_SUPPORTED_CODE: Final = _CODE_OF[_SUPPORTED]
_CUT_CODE: Final = _CODE_OF[_CUT]
_UNMATCHED_CODE: Final = _CODE_OF[_UNMATCHED]
_PARADOX_CODE: Final = _CODE_OF[_PARADOX]
_CONVOYED_CODE: Final = _CODE_OF[_CONVOYED]
_NO_EFFECT_CODE: Final = _CODE_OF[_NO_EFFECT]
_BLOCKED_CODE: Final = _CODE_OF[_BLOCKED]


def _unset(decision: int) -> bool:  # pragma: no cover - replaced before use
    raise AssertionError("the equations have no resolver yet")


_NO_PARADOXES: Final[frozenset[int]] = frozenset()
_NO_STANDOFFS: Final[frozenset[str]] = frozenset()
_NO_OPTIONS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType({})
_NO_UNITS: Final[Mapping[str, Unit]] = MappingProxyType({})

_Said = tuple[Outcome, Detail]
"""The outcome an order's sentence tells, and its ``(reason, by, strength, opposed_by)``."""


_DEFAULT_STANDING_ORDERS: Final = VariantHooks.standing_orders
"""The default hook: no standing orders (read to skip calling it)."""
_DEFAULT_MODIFIERS: Final = VariantHooks.movement_modifiers
"""The default hook: ``NO_MODIFIERS`` (read to skip calling it)."""
_DEFAULT_VOID_ORDERS: Final = VariantHooks.void_orders
"""The default hook: no orders voided by the variant."""
_DEFAULT_DEFENCE_BONUSES: Final = VariantHooks.defence_bonuses
"""The default hook: the bonuses of the neutral units the variant declares (none without)."""
_DEFAULT_ANNIHILATED: Final = VariantHooks.annihilated_when_dislodged
"""The default hook: a neutral unit dislodged is annihilated."""
_NO_BONUS: Final[Mapping[str, int]] = MappingProxyType({})
_NEUTRAL: Final = NEUTRAL


def _said(outcome: Outcome, reason: str, by: tuple[str, ...] = (), strength: int | None = None,
          opposed_by: int | None = None) -> _Said:
    """What an order's sentence says, with the fields of :class:`OrderResult`."""
    return outcome, (reason, by, strength, opposed_by)


def adjudicate_movement(position: Position, orders: Iterable[Order], rules: Rules, *,
                        checked: bool = False) -> Resolution:
    """Resolve a movement phase (``checked``: the caller vouches that every order is legal)."""
    hooks = position.variant.hooks
    hooks_class = type(hooks)
    given = tuple(orders)
    # (the hooks a variant leaves at their defaults, which give nothing, are not called: a
    # method's call costs more than reading the class's own)
    if hooks_class.standing_orders is not _DEFAULT_STANDING_ORDERS:
        standing = hooks.standing_orders(position)
        if standing:
            given = _with_standing(position, given, standing)
    provinces, units, index = _units_of(position)
    # (compiled, the default hook, which gives nothing without neutral units, is not called
    # then: it runs interpreted, and a call into it costs some 1k instructions; interpreted,
    # the call costs less than reading the class's own, and is made)
    defence_bonus = _NO_BONUS if _TYPED_LOOPS \
        and hooks_class.defence_bonuses is _DEFAULT_DEFENCE_BONUSES \
        and not position.variant.rules.neutral_units else hooks.defence_bonuses(position)
    modifiers = NO_MODIFIERS if hooks_class.movement_modifiers is _DEFAULT_MODIFIERS \
        else hooks.movement_modifiers(position)
    accepted: Accepted | None = None
    board: Board | None = None
    if checked and hooks_class.void_orders is _DEFAULT_VOID_ORDERS:
        # Orders vouched for, usually one per unit: read them straight into the board (who
        # gave which is worked out again if the results are read).
        try:
            board = _set_up(position, rules, units, given, provinces, index, defence_bonus,
                            modifiers)
        except NotAsGiven:
            board = None
    if board is None:
        accepted = accept_orders(position, given, rules, index, checked=checked)
        board = _set_up(position, rules, units, _followed(accepted.unit_orders), provinces,
                        index, defence_bonus, modifiers)
    paradoxes: set[int] = set()
    equations, value = _decide(board, rules, paradoxes)
    decided = _Decided(board, equations, value, paradoxes)
    # (the hooks' bonuses, not the board's: the board adds its orders' own again when set up)
    # (orders taken as given need not be kept twice: the record reads them again)
    record = _Record(position, rules, given, accepted,
                     None if accepted is None else board.orders, defence_bonus, value,
                     paradoxes, modifiers)
    return decided.resolution(position, rules, record)


def _with_standing(position: Position, given: tuple[Order, ...],
                   standing: Iterable[Order]) -> tuple[Order, ...]:
    """``given`` and the variant's standing orders for the units given none. (A function of
    its own: its comprehensions in the caller would make cells at every phase.)"""
    province_at = tables_for(position.variant).province_at  # (off the map: worked out)
    ordered = {province_at.get(order.location) or province_of(order.location)
               for order in given if not isinstance(order, Waive)}
    return given + tuple(o for o in standing
                         if isinstance(o, Waive) or province_of(o.location) not in ordered)


def _followed(unit_orders: Iterable[Order | None]) -> list[Order]:
    """The orders of ``unit_orders`` that units follow (None: the unit holds, unordered)."""
    return [order for order in unit_orders if order is not None]


def _units_of(position: Position) -> tuple[list[str], list[Unit], dict[str, int]]:
    """The occupied provinces in sorted order, their units, and each province's index (a
    unit's index is the number of its order's decision)."""
    on_board = position.units
    # (the board's own copy, with its keys and table size, its values then replaced in C:
    # some 2k instructions less than a dictionary built key by key; zip's strict= keyword
    # alone would cost 1.5k a call, and both sides have the board's length)
    board: dict[str, Unit] = on_board.copy() if type(on_board) is MappingProxyType \
        else dict(on_board)
    # (a dictionary's keys and values listed from it, not from the read-only view: compiled,
    # each is one C call, where the view is iterated generically)
    provinces = list(board.keys())
    if provinces == sorted(provinces):  # (as the engine keeps them: each step in C)
        units = list(board.values())
    else:
        provinces.sort()
        units = list(map(board.__getitem__, provinces))  # (no comprehension: no cell)
    index = cast("dict[str, int]", board)
    if _TYPED_LOOPS:  # (compiled, a loop of native stores: a third of zip's generic steps)
        for number, province in enumerate(provinces):
            index[province] = number
    else:
        index.update(zip(provinces, range(len(provinces))))  # noqa: B905
    return provinces, units, index


_TYPED_LOOPS: Final[bool] = is_compiled(_units_of)
"""True where this module is compiled (its functions are then not Python functions): a hot
step takes the idiom each build runs fastest (:func:`_units_of`)."""


def _set_up(position: Position, rules: Rules, units: list[Unit], orders: Iterable[Order],
            provinces: list[str], index: dict[str, int], defence_bonus: Mapping[str, int],
            modifiers: MovementModifiers = NO_MODIFIERS, *, explain: bool = False) -> Board:
    """The board of the phase: its units (:func:`_units_of`) and the orders they follow
    (:class:`Board`; ``explain``: everything the sentences read)."""
    variant = position.variant
    return Board(units, orders, tables_for(variant), rules, provinces, index, variant.rules,
                 defence_bonus, modifiers, variant.kinds, explain)


def _decide(board: Board, rules: Rules, paradoxes: set[int]) -> tuple[Equations, list[bool]]:
    """Settle every decision of the board: the only place where a movement phase's solver runs.

    Returns the equations, which from then on read the final values, and the final value of
    every decision (a unit that holds: True); ``paradoxes`` receives the decisions that the
    paradox rule settled.
    """
    equations = Equations(board, rules, _unset)
    n = board.n
    kind, matched, prov, occupant = board.kind, board.matched, board.prov, board.occupant
    moves_into, route, dest = board.moves_into, board.route, board.dest
    conditional, supports, opposite = board.conditional, board.supports, board.opposite
    units = board.units
    # (without a variant's strength rules a unit's strengths are the rulebooks': a unit
    # standing, defending or preventing is at least 1, an unsupported attack at most 1)
    plain = not board.has_mods and not board.bonus
    # Decisions whose equation gives the same answer whatever the other decisions are, are
    # settled here, outside the solver: it then works only on the battles that need it (in
    # many phases none). A unit that holds succeeds.
    value = matched.copy()  # (an order that does not match fails; every other starts true)
    left: list[int] = []
    follows: dict[int, int] | None = None
    """Move -> the move of the unit it attacks, whose fate it shares (see below)."""
    route_union, empty_routes = board.route_union, board.empty_routes
    for i in board.moves:
        if route[i] != LAND or (conditional and i in conditional):
            # (a board with no convoy route keeps one shared empty table: no per-unit list)
            if route[i] == CONVOY_ONLY and not (type(route_union) is list and route_union[i]) \
                    and not (empty_routes and i in empty_routes):
                value[i] = False  # no fleet convoys it and it may go no other way: no path
            else:
                left.append(i)
            continue
        movers = moves_into[dest[i]]
        d = occupant[i]
        if d < 0 and len(movers) == 1:
            continue  # over land into an empty province no one else moves to
        if plain and not supports[i] and (
                (d >= 0 and (kind[d] != MOVE or (opposite[i] == d and route[d] == LAND)))
                or _sure_rival(i, movers, route, opposite, conditional)):
            # an attack of at most 1 against a unit that stays (or meets it head to head
            # over land) or a rival over land outside any head-to-head battle: each
            # resists with at least 1
            value[i] = False
        else:
            left.append(i)
            if plain and not supports[i] and d >= 0 and opposite[i] < 0 and len(movers) == 1:
                # An attack of 1 over land, alone, on a unit that moves elsewhere (the commonest
                # open decision): it succeeds exactly when that unit leaves (attack 1 against
                # a hold of 0, or of 1 if it stays).
                if follows is None:
                    follows = {}
                follows[i] = d
    for i in board.matching + board.blocks if board.blocks else board.matching:
        if prov[i] not in moves_into:
            continue  # a support, convoy or block that nobody attacks
        if (k := kind[i]) != CONVOY and _surely_cut(
                i, k, moves_into[prov[i]], units, prov, dest, route, conditional):
            value[i] = False
        else:
            left.append(i)
    left.sort()  # (the solver takes the decisions in the order of the units, as ever)
    if left:
        left = _settle_known(equations, value, left, follows)
    if left:
        resolver = Resolver(n, equations.adjudicate,
                            backup_rule(kind, rules.convoy_paradox, paradoxes,
                                        board.occupant if conditional else None),
                            settled=value, unsettled=left)
        equations.resolve = resolver.resolve  # the equations read decisions through the solver
        is_resolved, resolve = resolver.is_resolved, resolver.resolve
        for i in left:
            if not is_resolved(i):
                resolve(i)
        # Every decision is final: the solver no longer needs the equations, and the
        # equations read the final values directly. That breaks the solver <-> equations
        # cycle, so that the solver's state is freed at once.
        resolver.finish()
        value = resolver.value
    equations.resolve = value.__getitem__
    return equations, value


class _Unsettled(Exception):
    """A decision read before it is settled (:func:`_settle_known`)."""


def _settle_known(equations: Equations, value: list[bool], left: list[int],
                  follows: Mapping[int, int] | None = None) -> list[int]:
    """Settle each decision of ``left`` whose equation reads only settled decisions (the
    pre-pass's, or one settled here before it), in order, into ``value``; returns those left
    for the solver. Such an equation has one answer, the one the solver would find; a phase
    whose battles do not depend on one another then needs no solver at all. ``follows``: the
    moves whose equation is known to be the decision of one other move (move -> that move),
    read directly instead of through the equations."""
    still_open = [False] * len(value)
    for i in left:
        still_open[i] = True

    def read(decision: int) -> bool:
        """The value of a settled decision; one still open raises :class:`_Unsettled`.
        (A closure, with its two cells: cheaper to make than an object with a method, once a
        phase, and measured cheaper than making it in a helper function, whose call costs
        more than the cells' reads in the short loop below.)"""
        if still_open[decision]:
            raise _Unsettled
        return value[decision]

    equations.resolve = read
    adjudicate = equations.adjudicate
    unsettled: list[int] = []
    for i in left:
        if follows and i in follows:
            d = follows[i]
            if still_open[d]:
                unsettled.append(i)
                continue
            value[i] = value[d]
            still_open[i] = False
            continue
        try:
            value[i] = adjudicate(i)
        except _Unsettled:
            unsettled.append(i)
            continue
        still_open[i] = False
    return unsettled


def _sure_rival(i: int, movers: list[int], route: list[int], opposite: list[int],
                conditional: AbstractSet[int]) -> bool:
    """True if another of ``movers`` (the moves into the province move ``i`` attacks) surely
    keeps a prevent strength of at least 1: it goes over land, crosses nothing conditional
    and is in no head-to-head battle that could leave it without one."""
    for k in movers:  # noqa: SIM110 (a loop, not any() over a generator: see Equations.move)
        if k != i and route[k] == LAND and opposite[k] < 0 \
                and not (conditional and k in conditional):
            return True
    return False


def _surely_cut(i: int, k: int, attackers: list[int], units: list[Unit],
                prov: list[str], dest: list[str], route: list[int],
                conditional: AbstractSet[int]) -> bool:
    """True if support or block ``i`` (of kind ``k``) is cut whatever else happens: a unit of
    another power attacks it over land, crossing nothing conditional, and not from where the
    support is aimed (such an attack has a path, and cuts: Equations.support and .block)."""
    aimed_at = dest[i] if k == SUPPORT_MOVE else None
    mine = units[i].power
    for j in attackers:  # noqa: SIM110 (a loop, as above)
        if units[j].power != mine and route[j] == LAND and prov[j] != aimed_at \
                and not (conditional and j in conditional):
            return True
    return False


def _first_arrival(table: dict[str, dict[str, Unit]], unit: Unit, to: str) -> Unit:
    """``unit`` moved to ``to``, made and kept in ``table`` (the variant's armies or fleets by
    location and power: see UnitValues) the first time a unit of its type and power gets
    there."""
    by_power = table.get(to)
    if by_power is None:
        by_power = table[to] = {}
    arrived = by_power[unit.power] = moved_unit(unit, to)
    return arrived


def _retreats_of(position: Position, rules: Rules, dislodged: list[DislodgedUnit],
                 occupied: Mapping[str, Unit], standoffs: frozenset[str],
                 ) -> Mapping[str, tuple[str, ...]]:
    """Each dislodged unit's location -> where it may retreat. (A function of its own: the
    comprehension in :meth:`_Decided.resolution` would make cells of four of its variables,
    at every phase, and slow every read of the next board there.)"""
    return MappingProxyType({
        d.unit.location: retreat_options(position, d, rules=rules, occupied=occupied,
                                         standoffs=standoffs)
        for d in dislodged
    })


class _Decided:
    """A movement phase whose every decision is final, and what follows from the decisions:
    who moved, who was dislodged, the next board, the outcome of each order.

    Made once from the solver's values when the phase is adjudicated, and again from a
    :class:`_Record`'s copy of them when a sentence is first read: both read the same values
    through the same code, so an outcome and its sentence cannot disagree.
    """

    __slots__ = ("board", "eq", "value", "paradoxes", "moved", "went", "dislodged_by",
                 "dislodged")

    def __init__(self, board: Board, equations: Equations, value: list[bool],
                 paradoxes: AbstractSet[int]) -> None:
        self.board = board
        self.eq = equations
        self.value = value
        self.paradoxes = paradoxes
        b = board
        # (a loop: compress over map(value.__getitem__, ...) measures some 4,000 instructions
        # more a phase, each call of a list's __getitem__ through its wrapper being costly)
        # (one pass over the moves: who moved, and whom each dislodged)
        went: list[int] = []
        moved = self.moved = [False] * b.n
        dislodged_by = [-1] * b.n
        dislodged: list[int] = []
        occupant, kind = b.occupant, b.kind
        for i in b.moves:
            if not value[i]:  # (a move's decision is True when it succeeds)
                continue
            went.append(i)
            moved[i] = True
            d = occupant[i]
            # (the unit there stays unless it moved: read from the decisions, as ``moved`` is
            # not complete yet)
            if d >= 0 and not (value[d] and kind[d] == MOVE):
                dislodged_by[d] = i
                dislodged.append(d)
        self.went = went
        """The units that moved, by index."""
        if len(dislodged) > 1:
            dislodged.sort()
        self.dislodged_by = dislodged_by
        self.dislodged = dislodged
        """The units dislodged, by index (ascending)."""

    # -- the next position -------------------------------------------------------------------

    def resolution(self, position: Position, rules: Rules, record: _Record) -> Resolution:
        """The next board, and the results, which ``record`` makes when they are first read."""
        b = self.board
        went, dislodged_units = self.went, self.dislodged
        units, prov, dest, dest_loc = b.units, b.prov, b.dest, b.dest_loc
        # The board as it was, less the units that left or were dislodged, plus the units
        # that arrived (copied in C; a phase moves or dislodges only some of its units).
        # (a read-only view's own copy: dict() of the view reads it key by key, 8x slower)
        before = position.units
        # (compiled, with units moved: the arrivals alone here, the next board then merged in
        # order from them and the board's own sorted lists, not copied, cut and sorted again)
        merged = bool(went) if _TYPED_LOOPS else False
        if merged:
            new_units: dict[str, Unit] = {}
        else:
            new_units = before.copy() if type(before) is MappingProxyType else dict(before)
            for i in went:
                del new_units[prov[i]]
            for i in dislodged_units:
                del new_units[prov[i]]
        if went:
            # (each unit value made once per variant: see UnitValues)
            arrivals = unit_values(position.variant)
            armies, fleets = arrivals.armies, arrivals.fleets
            if merged:
                # (compiled, a caught KeyError makes a traceback, some 1.7k instructions, at
                # each first arrival: asked with get() instead, as cheap as a subscript there)
                for i in went:
                    unit = units[i]
                    to = dest_loc[i]
                    table = armies if unit.type is _ARMY else fleets
                    by_power = table.get(to)
                    arrived = by_power.get(unit.power) if by_power is not None else None
                    if arrived is None:
                        arrived = _first_arrival(table, unit, to)
                    new_units[dest[i]] = arrived
            else:
                for i in went:
                    unit = units[i]
                    to = dest_loc[i]
                    # (read straight from the tables: a try costs nothing until it catches,
                    # and it catches once per variant, location, unit type and power at most)
                    table = armies if unit.type is _ARMY else fleets
                    try:
                        arrived = table[to][unit.power]
                    except KeyError:
                        arrived = _first_arrival(table, unit, to)
                    new_units[dest[i]] = arrived
        if merged:
            new_units = self.merged_board(new_units)
        dislodged: list[DislodgedUnit] = []
        if dislodged_units:
            hooks = position.variant.hooks
            # (compiled, the default hook, interpreted, is not called: a neutral unit is
            # annihilated; as above, interpreted the call is cheaper than the test)
            by_default = _TYPED_LOOPS \
                and type(hooks).annihilated_when_dislodged is _DEFAULT_ANNIHILATED
            dislodged_by = self.dislodged_by
            for i in dislodged_units:
                if not (units[i].power == _NEUTRAL if by_default
                        else hooks.annihilated_when_dislodged(position, units[i])):
                    j = dislodged_by[i]
                    dislodged.append(DislodgedUnit(units[i], prov[j], self.eq.by_convoy(j)))
        # (the stand-offs close retreats: with none to make, they are worked out when read)
        standoffs = self.standoffs(new_units) if b.contested and dislodged else _NO_STANDOFFS
        options = _retreats_of(position, rules, dislodged, new_units, standoffs) \
            if dislodged else _NO_OPTIONS
        # (the engine keeps a board's provinces in sorted order: with no unit moved, the board
        # as it was, if that was)
        if not merged and (went or list(new_units) != prov):
            # (a loop, not a comprehension: on this interpreter a comprehension is a function
            # made and called, some 1.2k instructions more)
            in_order: dict[str, Unit] = {}
            for p in sorted(new_units):
                in_order[p] = new_units[p]
            new_units = in_order
        after = MappingProxyType(new_units)
        if b.contested and not dislodged:
            record.units_after = after
            return made_resolution(position.phase, record, after, (), options, record)
        return made_resolution(position.phase, record, after, tuple(dislodged), options,
                               standoffs)

    def merged_board(self, arrived: dict[str, Unit]) -> dict[str, Unit]:
        """The next board, in sorted order: the units that neither moved nor were dislodged,
        from the board's lists (in sorted order already), merged with ``arrived`` (province ->
        the unit that moved there). The compiled build's way (native loops and comparisons);
        the interpreter copies the board and sorts it, which it runs in C."""
        b = self.board
        prov, units, moved, dislodged_by = b.prov, b.units, self.moved, self.dislodged_by
        targets = list(arrived.keys())  # (compiled, one C call: sorted() iterates generically)
        targets.sort()
        count = len(targets)
        k = 0
        target = targets[0] if count else ""
        in_order: dict[str, Unit] = {}
        for j in range(b.n):
            if moved[j] or dislodged_by[j] >= 0:
                continue
            here = prov[j]
            while k < count and target < here:  # (an arrival in a province left empty before)
                in_order[target] = arrived[target]
                k += 1
                if k < count:
                    target = targets[k]
            in_order[here] = units[j]
        while k < count:
            target = targets[k]
            in_order[target] = arrived[target]
            k += 1
        return in_order

    def standoffs(self, new_units: Mapping[str, Unit]) -> frozenset[str]:
        """Provinces left empty where a move bounced off another move's prevent strength."""
        b = self.board
        out: set[str] = set()
        for province in b.contested:
            if province in new_units:
                continue
            movers = b.moves_into[province]
            for i in movers:
                if self.moved[i]:
                    continue
                attack = self.eq.attack(i)
                if attack and self._prevented(i, attack, movers):
                    out.add(province)
                    break
        return frozenset(out)

    def _prevented(self, i: int, attack: int, movers: list[int]) -> bool:
        """True if another of ``movers`` prevents move ``i`` (of strength ``attack``)."""
        prevent = self.eq.prevent
        for k in movers:  # noqa: SIM110 (a loop, not any() over a generator: Equations.move)
            if k != i and prevent(k, i) >= attack:
                return True
        return False

    # -- outcomes -----------------------------------------------------------------------------

    def outcomes(self) -> bytes:
        """The outcome of every unit's order, by unit index, as its index in ``_OUTCOMES``
        (whether the order succeeded follows from it; a unit without an order held)."""
        b = self.board
        kind, matched, value = b.kind, b.matched, self.value
        moved, dislodged_by, paradoxes = self.moved, self.dislodged_by, self.paradoxes
        out: list[int] = []
        append = out.append
        # One pass with the common cases answered in place (this runs for every phase).
        for i in range(b.n):
            k = kind[i]
            if moved[i]:
                append(_MOVED_CODE)
            elif k == HOLD:
                append(_HELD_CODE if dislodged_by[i] < 0 else _DISLODGED_CODE)
            elif k == MOVE:
                append(_DISLODGED_CODE if dislodged_by[i] >= 0
                       else _CODE_OF[self.failure_kind(i)])
            elif not matched[i]:
                append(_UNMATCHED_CODE)  # a support or convoy of an order not given
            elif k == BLOCK:
                append(_BLOCKED_CODE if value[i] else
                       _CUT_CODE if dislodged_by[i] < 0 else _DISLODGED_CODE)
            elif k == CONVOY:
                if i in paradoxes:
                    append(_PARADOX_CODE)
                elif dislodged_by[i] >= 0:
                    append(_DISLODGED_CODE)
                elif not value[i]:
                    append(_CUT_CODE)  # a fragile convoy, attacked
                else:
                    append(_CONVOYED_CODE if self.carried(i) else _NO_EFFECT_CODE)
            elif value[i]:
                append(_SUPPORTED_CODE)
            else:
                append(_CUT_CODE if dislodged_by[i] < 0 else _DISLODGED_CODE)
        return bytes(out)

    def failure_kind(self, i: int) -> Outcome:
        """Why move ``i`` failed (its unit not dislodged): no path, own unit, or a bounce."""
        b = self.board
        if b.conditional and i in b.conditional and not self.eq.crossing_open(i):
            return _CROSSING_CLOSED
        if b.conditional and i in self.paradoxes and not b.route_union[i]:
            return _PARADOX  # settled by the paradox rule, not on a convoy's route
        if not self.eq.path(i):
            fleets = b.route_union[i]
            if b.empty_routes and i in b.empty_routes:
                fleets = fleets | b.empty_route_fleets(i)
            if not fleets:
                return _NO_CONVOY
            if not self.paradoxes.isdisjoint(fleets):  # (no generator: no cell a call)
                return _PARADOX
            return _CONVOY_DISRUPTED
        d = b.occupant[i]
        if d >= 0 and b.units[d].power == b.units[i].power and self.eq.attack(i) == 0:
            return _SELF_DISLODGE
        return _BOUNCED

    def carried(self, c: int) -> bool:
        """True if the convoying fleet ``c`` carried its army (on a route of fleets that held)."""
        t = self.board.target[c]
        return (self.moved[t] and self.board.route[t] != LAND and self.eq.by_convoy(t)
                and c in self.working_fleets(t))

    def working_fleets(self, t: int) -> frozenset[int]:
        """The fleets of move ``t`` on some route whose fleets all held their place."""
        b = self.board
        alive = {c for c in b.route_union[t] if self.value[c]}
        graph = {c: tuple(x for x in b.route_graph[t][c] if x in alive) for c in alive}
        working = frozenset(fleets_on_routes(sorted(b.route_start[t] & alive), b.route_end[t],
                                             graph))
        if working or not b.empty_routes or t not in b.empty_routes:
            return working
        # carried through empty seas (4(a)(i)): the fleets that carry it from a start
        reached, _ = self.eq.empty_reach(t)
        return frozenset(c for c in reached if c < b.n)


class _Explainer(_Decided):
    """Writes the sentences of a decided movement phase: what happened to each order, the units
    that caused it and the strengths of its battle, read from the final decisions."""

    __slots__ = ("places", "writer", "_unit_texts", "_order_texts")

    def __init__(self, board: Board, equations: Equations, value: list[bool],
                 paradoxes: AbstractSet[int], places: Map, writer: PlaceWriter) -> None:
        """``places``: the map, which names the places of the sentences; ``writer`` writes
        the units and orders in them as the variant does (names or codes)."""
        super().__init__(board, equations, value, paradoxes)
        self.places = places
        self.writer = writer
        self._unit_texts: list[str | None] = [None] * board.n
        self._order_texts: list[str | None] = [None] * board.n

    def unit_text(self, i: int) -> str:
        text = self._unit_texts[i]
        if text is None:
            text = self._unit_texts[i] = self.writer.unit_of(self.board.units[i])
        return text

    def order_text(self, i: int) -> str:
        text = self._order_texts[i]
        if text is None:
            order = self.board.orders[i]
            text = self.writer.order(order) if order is not None else f"{self.unit_text(i)} H"
            self._order_texts[i] = text
        return text

    def place_text(self, location: str) -> str:
        """A place as an order writes it (``BUR``, ``Burgundy``)."""
        return self.writer.place(location)

    def said(self, i: int) -> _Said:
        """The outcome of the order of unit ``i`` as its sentence tells it, and the detail."""
        kind = self.board.kind[i]
        if kind == MOVE:
            return self.move_said(i)
        if kind in (SUPPORT_HOLD, SUPPORT_MOVE):
            return self.support_said(i)
        if kind == CONVOY:
            return self.convoy_said(i)
        if kind == BLOCK:
            return self.block_said(i)
        return self.hold_said(i)

    def dislodged_clause(self, i: int) -> tuple[str, int]:
        j = self.dislodged_by[i]
        attack = self.eq.attack(j)
        return f"{self.order_text(j)} {versus(attack, self.eq.hold(self.board.prov[i], j))}", j

    def hold_said(self, i: int) -> _Said:
        text = self.order_text(i)
        if self.dislodged_by[i] >= 0:
            by, j = self.dislodged_clause(i)
            return _said(
                _DISLODGED,
                f"{text} failed: it was dislodged by {by}.",
                by=(self.order_text(j),), strength=self.eq.hold(self.board.prov[i], j),
                opposed_by=self.eq.attack(j),
            )
        attackers = [self.order_text(j) for j in self.board.moves_into.get(self.board.prov[i], ())
                     if self.eq.path(j)]
        if attackers:
            return _said(_HELD,
                         f"{text} held against {and_list(attackers)}.",
                         by=tuple(attackers), strength=self.eq.hold(self.board.prov[i]))
        return _said(_HELD, f"{text} held.", strength=self.eq.hold(self.board.prov[i]))

    def move_said(self, i: int) -> _Said:
        b, eq = self.board, self.eq
        text = self.order_text(i)
        if self.moved[i]:
            attack = eq.attack(i)
            d = b.occupant[i]
            how = " by convoy" if eq.by_convoy(i) else ""
            if how and b.empty_routes and i in b.empty_routes and not eq.fleet_path(i):
                how = f" by convoy through empty seas ({b.mods.empty_convoys.rule})" \
                    if b.mods.empty_convoys is not None else how
            if d >= 0 and self.dislodged_by[d] == i:
                resisted = eq.defend(d, i) if eq.head_to_head(i) >= 0 else eq.hold(b.dest[i], i)
                return _said(
                    _MOVED,
                    f"{text} moved{how}, dislodging {self.unit_text(d)} "
                    f"{versus(attack, resisted)}.",
                    by=(self.unit_text(d),), strength=attack, opposed_by=resisted,
                )
            return _said(_MOVED, f"{text} moved{how}.", strength=attack)
        outcome, reason, by, attack, opposed = self.move_failure(i)
        if self.dislodged_by[i] >= 0:
            clause, j = self.dislodged_clause(i)
            reason = f"{reason}, and the unit was dislodged by {clause}"
            outcome = _DISLODGED
        return _said(outcome, f"{text} failed: {reason}.",
                     by=by, strength=attack, opposed_by=opposed)

    def point_name(self, point: str) -> str:
        """``"the corner SICILY"``, ``"the passage Lake St Clair"``."""
        if point in self.places.provinces:
            return f"the passage {self.places.name(point)}"
        return f"the corner {self.writer.point(point)}"

    def crossing_name(self, i: int) -> str:
        """``"Tyrrhenian Sea-Messina"``: the two ends of move ``i``."""
        b = self.board
        return f"{self.places.name(b.prov[i])}-{self.places.name(b.dest[i])}"

    def block_said(self, s: int) -> _Said:
        b, eq = self.board, self.eq
        text = self.order_text(s)
        point = self.point_name(b.dest[s])
        if self.value[s]:
            against = [i for i, blocks in b.corner_blockers.items() if s in blocks]
            stopped = [self.order_text(i) for i in against
                       if not self.moved[i] and eq.closed_crossing_is_block(i)]
            passed = [self.order_text(i) for i in against
                      if not eq.closed_crossing_is_block(i) and eq.crossing_open(i)]
            if stopped:
                said = f"{text}: the block stood and stopped {and_list(stopped)}."
            elif passed:
                said = f"{text}: the block stood, but {and_list(passed)} " \
                       f"{'was' if len(passed) == 1 else 'were'} supported past it."
            else:
                said = f"{text}: the block stood ({point} was not crossed by another power)."
            return _said(_BLOCKED, said, by=tuple(stopped))
        if self.dislodged_by[s] >= 0:
            clause, j = self.dislodged_clause(s)
            return _said(_DISLODGED,
                         f"{text} was cut: the blocking unit was dislodged by {clause}.",
                         by=(self.order_text(j),))
        cutters = [self.order_text(j) for j in b.moves_into.get(b.prov[s], ())
                   if b.units[j].power != b.units[s].power and eq.path(j)]
        return _said(_CUT, f"{text} was cut by the attack of {and_list(cutters)} (a block is "
                           f"cut as a support is).", by=tuple(cutters))

    def crossing_failure(self, i: int) -> tuple[Outcome, str, tuple[str, ...], int, int | None]:
        """The sentence of a move stopped at a conditional border or a corner."""
        why, where, units = self.eq.closed_crossing(i)
        place = self.places.name(where) if why in ("fleet", "standoff") else where
        if why == "blocked":
            names = tuple(self.order_text(j) if self.board.kind[j] == BLOCK
                          else self.unit_text(j) for j in units)
            supports = self.eq.support_count(i)
            had = "no support" if supports == 0 else \
                f"{supports} support{'s' if supports > 1 else ''}"
            text = (f"the crossing {self.crossing_name(i)} was blocked by {and_list(names)} "
                    f"at {self.point_name(where)} ({had} against {len(units)} "
                    f"block{'s' if len(units) > 1 else ''}: each block needs one support or "
                    f"a cut)")
            return (_CROSSING_CLOSED, text, names, 0, None)
        names = tuple(self.unit_text(j) for j in units)
        if why == "clash":
            text = f"the corner {self.writer.point(place)} was crossed in more than one " \
                   f"direction (by " \
                   f"{and_list(names)})"
        elif why == "fleet" and self.writer.by_name:  # the unit's name says where it is
            text = f"the passage was closed by {and_list(names)}"
        elif why == "fleet":
            text = f"the passage was closed by {and_list(names)} in {place}"
        else:
            text = f"the passage was closed by a stand-off in {place}"
        return (_CROSSING_CLOSED, text, names, 0, None)

    def move_failure(self, i: int) -> tuple[Outcome, str, tuple[str, ...], int, int | None]:
        b, eq = self.board, self.eq
        kind = self.failure_kind(i)
        if kind is _CROSSING_CLOSED:
            return self.crossing_failure(i)
        if kind is _PARADOX and not b.route_union[i]:
            # (a crossing's paradox, or a move the "all hold" rule stopped in a convoy's)
            return (_PARADOX, "it is part of a paradox (each of its moves succeeds only if "
                    "another fails), which the paradox rule settles: its moves fail",
                    (), 0, None)
        if kind is _CONVOY_DISRUPTED and b.empty_routes and i in b.empty_routes:
            said = self.empty_route_failure(i)
            if said is not None:
                return said
        if kind is not _BOUNCED and kind is not _SELF_DISLODGE:
            fleets = sorted(b.route_union[i])
            if not fleets:
                return (_NO_CONVOY, "no fleets convoyed it", (), 0, None)
            stopped = [c for c in fleets if c in self.paradoxes]
            if stopped:
                names = [self.unit_text(c) for c in stopped]
                return (_PARADOX,
                        f"the convoy by {and_list(names)} was cancelled by the paradox rule",
                        tuple(names), 0, None)
            lost = [c for c in fleets if not self.value[c]]
            names = [self.unit_text(c) for c in lost]
            if all(self.dislodged_by[c] < 0 for c in lost):
                return (_CONVOY_DISRUPTED,
                        f"the convoy was broken when {and_list(names)} "
                        f"{'was' if len(names) == 1 else 'were'} attacked (a fragile convoy)",
                        tuple(names), 0, None)
            return (_CONVOY_DISRUPTED,
                    f"the convoy was disrupted when {and_list(names)} "
                    f"{'was' if len(names) == 1 else 'were'} dislodged",
                    tuple(names), 0, None)
        attack = eq.attack(i)
        d = b.occupant[i]
        if kind is _SELF_DISLODGE:
            unit = self.unit_text(d)
            return (_SELF_DISLODGE,
                    f"it may not dislodge {unit}, a unit of its own country", (unit,), 0, None)
        opponents: list[tuple[str, int]] = []
        if b.mods.dislodge_requirements:
            need = eq.requirement_fails(i)
            if need is not None and d >= 0:
                return (_BOUNCED, need.reason, (self.unit_text(d),), attack,
                        eq.hold(b.dest[i], i))
        h2h = eq.head_to_head(i)
        if h2h >= 0:
            defend = eq.defend(h2h, i)
            if defend >= attack:
                opponents.append((self.order_text(h2h), defend))
                what = "lost the head-to-head battle with" if defend > attack else \
                    "bounced in a head-to-head battle with"
                first = f"it {what} {self.order_text(h2h)} {versus(attack, defend)}"
            else:
                first = ""
        else:
            hold = eq.hold(b.dest[i], i)
            if d >= 0 and hold >= attack:
                opponents.append((self.unit_text(d), hold))
                # a variant's defended unit: say why the defence is more than 1 + supports
                # (named by its order when that is of the variant's kind, a fortify: the
                # order may be what makes it stronger)
                extra = hold - 1 - eq.support_count(d) if b.kind[d] != MOVE else 0
                held_by = self.order_text(d) if extra > 0 and isinstance(
                    b.orders[d], VariantOrder) else self.unit_text(d)
                first = f"it bounced off {held_by} {versus(attack, hold)}"
                if extra > 0:
                    first += (f", which needs {extra} more support{'s' if extra > 1 else ''} "
                              f"than usual to be dislodged")
            else:
                first = ""
        rivals = []
        for k in b.moves_into[b.dest[i]]:
            if k != i:
                prevent = eq.prevent(k, i)
                if prevent >= attack:
                    rivals.append((self.order_text(k), prevent))
        opponents.extend(rivals)
        if rivals:
            strongest = max(p for _, p in rivals)
            rival_text = f"it bounced with {and_list([t for t, _ in rivals])} " \
                         f"{versus(attack, strongest)}"
            first = f"{first}, and {rival_text[3:]}" if first else rival_text
        if not opponents:  # pragma: no cover - a failed move always has an opponent
            return (_BOUNCED, "it bounced", (), attack, None)
        return (_BOUNCED, first, tuple(t for t, _ in opponents), attack,
                max(s for _, s in opponents))

    def empty_route_failure(self, i: int,
                            ) -> tuple[Outcome, str, tuple[str, ...], int, None] | None:
        """Why no chain of move ``i`` through empty seas carried it: the empty seas that were
        attacked and the fleets that were dislodged (or cut) at the edge of its reach."""
        b, eq = self.board, self.eq
        _, stopped = eq.empty_reach(i)
        parts: list[str] = []
        by: list[str] = []
        for node in sorted(stopped):
            if node >= b.n:
                space = b.empty_space[node - b.n]
                attackers = [self.order_text(j) for j in b.moves_into.get(space, ())
                             if b.units[j].power != b.units[i].power and eq.path(j)]
                parts.append(f"{self.places.name(space)}, empty, was attacked by "
                             f"{and_list(attackers)}")
                by.extend(attackers)
            else:
                fate = "dislodged" if self.dislodged_by[node] >= 0 else "attacked"
                parts.append(f"{self.unit_text(node)} was {fate}")
                by.append(self.unit_text(node))
        if not parts:
            return None
        rule = b.mods.empty_convoys.rule if b.mods.empty_convoys is not None else ""
        return (_CONVOY_DISRUPTED,
                f"the convoy through empty seas{f' ({rule})' if rule else ''} was disrupted: "
                f"{and_list(parts)}", tuple(by), 0, None)

    def support_said(self, s: int) -> _Said:
        b, eq = self.board, self.eq
        text = self.order_text(s)
        if not b.matched[s]:
            t = b.target[s]
            if b.kind[s] == SUPPORT_HOLD:
                why = f"{self.unit_text(t)} was ordered to move, so it cannot be supported " \
                      f"in place"
            elif b.kind[t] == MOVE:
                why = f"{self.unit_text(t)} moved to {self.place_text(b.dest_loc[t])}, not " \
                      f"{self.place_text(b.dest_loc[s])}"
            else:
                why = f"{self.unit_text(t)} did not move to {self.place_text(b.dest_loc[s])}"
            return _said(_UNMATCHED, f"{text} had no effect: {why}.", by=(self.unit_text(t),))
        if self.value[s]:
            return _said(_SUPPORTED, f"{text}: the support counted.")
        if self.dislodged_by[s] >= 0:
            clause, j = self.dislodged_clause(s)
            return _said(_DISLODGED,
                         f"{text} was cut: the supporting unit was dislodged by {clause}.",
                         by=(self.order_text(j),))
        cutters = [self.order_text(j) for j in b.moves_into.get(b.prov[s], ())
                   if b.units[j].power != b.units[s].power and eq.path(j)]
        return _said(_CUT,
                     f"{text} was cut by the attack of {and_list(cutters)}.",
                     by=tuple(cutters))

    def convoy_said(self, c: int) -> _Said:
        b, eq = self.board, self.eq
        text = self.order_text(c)
        t = b.target[c]
        if not b.matched[c]:
            if t >= 0 and b.kind[t] == MOVE:
                why = f"{self.unit_text(t)} was ordered to {self.place_text(b.dest_loc[t])}"
            else:
                why = f"{self.unit_text(t)} was not ordered to {self.place_text(b.dest[c])}" \
                    if t >= 0 \
                    else "there is no army to convoy"
            return _said(_UNMATCHED,
                         f"{text} had no effect: {why}.",
                         by=(self.unit_text(t),) if t >= 0 else ())
        if c in self.paradoxes:
            reason = f"{text} failed: the convoy is part of a paradox, which the paradox rule " \
                     f"settles by cancelling it"
            by: tuple[str, ...] = ()
            if self.dislodged_by[c] >= 0:
                clause, j = self.dislodged_clause(c)
                reason = f"{reason}, and the fleet was dislodged by {clause}"
                by = (self.order_text(j),)
            return _said(_PARADOX, f"{reason}.", by=by)
        if self.dislodged_by[c] >= 0:
            clause, j = self.dislodged_clause(c)
            return _said(_DISLODGED,
                         f"{text} failed: the fleet was dislodged by {clause}.",
                         by=(self.order_text(j),))
        if not self.value[c]:
            attackers = [self.order_text(j) for j in b.moves_into.get(b.prov[c], ())
                         if b.units[j].power != b.units[c].power and eq.path(j)]
            return _said(_CUT, f"{text} was cut by the attack of {and_list(attackers)} (a "
                               f"fragile convoy fails when a convoying fleet is attacked).",
                         by=tuple(attackers))
        army = self.order_text(t)
        if self.carried(c):
            return _said(_CONVOYED, f"{text} convoyed the army.", by=(army,))
        if b.route[t] == LAND or not eq.by_convoy(t):
            return _said(_NO_EFFECT,
                         f"{text} had no effect: {army} did not go by convoy.",
                         by=(army,))
        if not self.moved[t]:
            return _said(_NO_EFFECT, f"{text} had no effect: {army} failed.", by=(army,))
        return _said(_NO_EFFECT, f"{text} had no effect: {army} went by another route.", by=(army,))


_RESULT_OF: Final[dict[Outcome, Result]] = {
    outcome: _SUCCEEDS if outcome in (_MOVED, _HELD, _SUPPORTED, _CONVOYED, _BLOCKED)
    else _FAILS
    for outcome in Outcome
}
"""A movement order succeeded exactly when its outcome is one of these five."""


class _Record:
    """What a movement phase's adjudication decided, kept to make the results and write their
    sentences the first time they are read (most never are).

    It holds the orders as given and, unless they were taken as given, as the adjudication
    accepted them; the defence bonuses the variant's hook gave, one byte per decision (its
    final value) and the decisions the paradox rule settled; the position and the rules are
    the phase's own. The outcomes and the sentences are made from these: the board is set up
    again from the orders (its set-up is a pure function of them and the map; nothing is
    checked or decided again) and the outcomes and strengths are read from the recorded
    decisions, by the code the adjudication uses. Keeping the board itself instead would make
    each phase's resolution about four times as large, for every phase of a game's history,
    and add to the garbage collector's work; making the outcomes only when the results are
    read spares a program that never reads them (self-play) a pass over every unit of every
    phase.
    """

    __slots__ = ("_position", "_rules", "_given", "_accepted", "_unit_orders",
                 "_defence_bonus", "_decisions", "_paradoxes", "_outcomes", "_details",
                 "_modifiers", "units_after")

    def __init__(self, position: Position, rules: Rules, given: tuple[Order, ...],
                 accepted: Accepted | None, unit_orders: Sequence[Order | None] | None,
                 defence_bonus: Mapping[str, int], decided: list[bool], paradoxes: set[int],
                 modifiers: MovementModifiers = NO_MODIFIERS) -> None:
        """``accepted``: how each of the ``given`` orders was accepted, None when they were
        taken as given (worked out again when the results are read); ``unit_orders``: the
        order each unit followed, as the rules read it, None when taken as given."""
        self._position = position
        self._rules = rules
        self._given = given
        self._accepted = accepted
        self._unit_orders = unit_orders
        self._defence_bonus = defence_bonus  # (the variant's hook is asked once per phase)
        self._decisions = bytes(decided)
        self._paradoxes = frozenset(paradoxes) if paradoxes else _NO_PARADOXES
        self._outcomes: bytes | None = None
        """The outcome of each unit's order (:meth:`_Decided.outcomes`), once made."""
        self._details: list[Detail] | None = None
        self._modifiers = modifiers
        self.units_after: Mapping[str, Unit] = _NO_UNITS
        """The board after the phase, when its stand-offs are left to be worked out when read
        (:meth:`standoffs_after`)."""

    def _acceptance(self) -> Accepted:
        """Who gave each order and which unit it is for (worked out at the first call when
        the orders were taken as given)."""
        accepted = self._accepted
        if accepted is None:
            position = self._position
            accepted = self._accepted = attribute_orders(
                position, self._given, self._rules, _units_of(position)[2])
        return accepted

    def __call__(self) -> tuple[OrderResult, ...]:
        """One result per order given, in the order given."""
        accepted = self._acceptance()
        illegal, outcomes = accepted.illegal, self._outcome_codes()
        lazy = OrderResult.explained_later
        out: list[OrderResult] = []
        writer = place_writer(self._position.variant) if illegal else None
        for k, (given, power, unit_index) in enumerate(zip(self._given, accepted.powers,
                                                            accepted.unit_of, strict=True)):
            if k in illegal:
                out.append(void_result(given, power, illegal[k], writer))
            else:
                outcome = _OUTCOMES[outcomes[unit_index]]
                out.append(lazy(given, power, _RESULT_OF[outcome], outcome, self, k))
        return tuple(out)

    def detail(self, k: int) -> Detail:
        """The detail of the ``k``-th order given (every unit's is written at the first call)."""
        details = self._details
        if details is None:
            details = self._details = self._explain()
        return details[self._acceptance().unit_of[k]]

    def _outcome_codes(self) -> bytes:
        """The outcome of every unit's order, by unit index (made at the first call)."""
        outcomes = self._outcomes
        if outcomes is None:
            board, value = self._board_again()
            outcomes = self._outcomes = _Decided(
                board, Equations(board, self._rules, value.__getitem__), value,
                self._paradoxes).outcomes()
        return outcomes

    def standoffs_after(self) -> frozenset[str]:
        """The provinces the phase left empty by a stand-off, worked out from the record (the
        resolution asks once, when they are first read), by the code the adjudication uses."""
        board, value = self._board_again()
        return _Decided(board, Equations(board, self._rules, value.__getitem__), value,
                        self._paradoxes).standoffs(self.units_after)

    def _board_again(self, *, explain: bool = False) -> tuple[Board, list[bool]]:
        """The phase's board set up again from the record (``explain``: with everything the
        sentences read), and every decision's value."""
        position = self._position
        provinces, units, index = _units_of(position)
        unit_orders = self._unit_orders
        if unit_orders is None:  # every order was taken as given
            board = _set_up(position, self._rules, units, self._given, provinces, index,
                            self._defence_bonus, self._modifiers, explain=explain)
        else:
            board = _set_up(position, self._rules, units, _followed(unit_orders), provinces,
                            index, self._defence_bonus, self._modifiers, explain=explain)
        return board, [decision != 0 for decision in self._decisions]

    def _explain(self) -> list[Detail]:
        """The detail of every unit's order, from the record alone."""
        position = self._position
        board, value = self._board_again(explain=True)
        explainer = _Explainer(board, Equations(board, self._rules, value.__getitem__), value,
                               self._paradoxes, position.variant.map,
                               place_writer(position.variant))
        codes = self._outcomes
        if codes is None:  # (results not read yet: the explainer's board gives the outcomes)
            codes = self._outcomes = explainer.outcomes()
        details: list[Detail] = []
        for i, code in enumerate(codes):
            said, detail = explainer.said(i)
            # the sentence tells the outcome the adjudication recorded
            assert said is _OUTCOMES[code], (str(board.units[i]), said, _OUTCOMES[code])
            details.append(detail)
        return details
