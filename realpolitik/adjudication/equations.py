"""The rules of a movement phase as equations over the decisions of the orders (DATC 5.B).

Every unit on the board has an index; its order is one of hold, move, support (hold or move) or
convoy. Moves, supports and convoys have a *decision* (the unit's index) that the resolver settles:

* MOVE: the move succeeds when its attack strength beats the resistance at the destination (the
  defend strength of the opposing unit in a head-to-head battle, else the hold strength there)
  and the prevent strength of every other move to the same province;
* SUPPORT: the support is given unless a foreign unit with a path attacks the supporter (not from
  the province the support is aimed at), or the supporter is dislodged;
* CONVOY: the convoying fleet is not dislodged (the backup rule may also make it fail).

The *path* of a move, the *attack*, *hold*, *defend* and *prevent* strengths are functions of the
decisions. Everything that does not depend on other orders (which orders match, which fleets
form a convoy route, which supports the paradox rules protect) is worked out once in
:class:`Board`; the equations then only count and compare.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Final, Generic, NamedTuple, TypeAlias, TypeVar

from realpolitik.compiling import is_compiled
from realpolitik.geography import UnitType
from realpolitik.hooks import (
    NO_MODIFIERS,
    DislodgeRequirement,
    EmptyConvoys,
    Fragility,
    MovementModifiers,
)
from realpolitik.kinds import BlocksCrossing, OrderKinds
from realpolitik.maptables import MapTables
from realpolitik.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
    VariantOrder,
)
from realpolitik.position import Unit
from realpolitik.rules import (
    AdjacentConvoy,
    ConvoyedAttackOnSupporter,
    ConvoyParadox,
    DislodgedUnitBounce,
    MultiRouteConvoy,
    Rules,
)
from realpolitik.variant_rules import ConditionalBorder, Corner, SwapBorder, VariantRules

__all__ = [
    "BLOCK",
    "CONVOY",
    "CONVOY_ELSE_LAND",
    "CONVOY_ONLY",
    "HOLD",
    "LAND",
    "MOVE",
    "SUPPORT_HOLD",
    "SUPPORT_MOVE",
    "Board",
    "Equations",
    "NotAsGiven",
]

# (module constants are Final: compiled, a Final is a C static, or a literal in the code, where
# any other module name is read from the module's dictionary at every use)
_ARMY: Final = UnitType.ARMY
_FLEET: Final = UnitType.FLEET
_ANY_ROUTE_DISRUPTED: Final = MultiRouteConvoy.ANY_ROUTE_DISRUPTED
_CUT: Final = ConvoyedAttackOnSupporter.CUT
_NEVER_BOUNCE: Final = DislodgedUnitBounce.NEVER
_T = TypeVar("_T")


class _Same(Generic[_T]):
    """A table of the board in which every unit has the same entry (none has one of its
    own): read as the list that replaces it once a unit gets one. Most phases give no unit
    a convoy route, a convoying fleet or a shield, and a list per unit of each costs more
    than the rare read of this."""

    __slots__ = ("entry",)

    def __init__(self, entry: _T) -> None:
        self.entry = entry

    def __getitem__(self, unit: int) -> _T:
        return self.entry


_PerUnit: TypeAlias = "list[_T] | _Same[_T]"
"""A table of the board with an entry per unit (by unit index)."""
_NONE: Final[list[int]] = []
"""Shared empty list: no supports, convoys or blocks (never appended to)."""
_NO_SPACES: Final[list[str]] = []
"""Shared empty list: no empty seas on a chain (never appended to; replaced when some are)."""
_NO_FLEETS: Final[frozenset[int]] = frozenset()
_NO_GRAPH: Final[Mapping[int, tuple[int, ...]]] = MappingProxyType({})
_NO_CONVOYERS: Final[_Same[list[int]]] = _Same(_NONE)
_NO_FLEETS_EACH: Final[_Same[frozenset[int]]] = _Same(_NO_FLEETS)
_NO_GRAPH_EACH: Final[_Same[Mapping[int, tuple[int, ...]]]] = _Same(_NO_GRAPH)
_NO_BONUS: Final[Mapping[str, int]] = MappingProxyType({})
_NO_GATES: Final[Mapping[int, tuple[ConditionalBorder, ...]]] = MappingProxyType({})
_NO_POINTS: Final[Mapping[int, str]] = MappingProxyType({})
_SHIELDING_PARADOX_RULES: Final = frozenset(
    (ConvoyParadox.R1971, ConvoyParadox.R1982, ConvoyParadox.R2000))
"""The 4.A.2 rules under which a convoyed army does not cut some supports."""
# Order kinds.
HOLD: Final = 0
MOVE: Final = 1
SUPPORT_HOLD: Final = 2
SUPPORT_MOVE: Final = 3
CONVOY: Final = 4
BLOCK: Final = 5
# How an army move travels.
LAND: Final = 0
CONVOY_ONLY: Final = 1
CONVOY_ELSE_LAND: Final = 2


class _EmptyRoute(NamedTuple):
    """An army move's chains through empty seas (:attr:`Board.empty_routes`)."""

    start: frozenset[int]
    end: frozenset[int]
    graph: Mapping[int, tuple[int, ...]]


_NO_EMPTY_ROUTES: Final[Mapping[int, _EmptyRoute]] = MappingProxyType({})


def _compiled() -> bool:
    """(Only its type counts: see :func:`~realpolitik.compiling.is_compiled`.)"""
    return True


_BY_LOCATION: Final[bool] = is_compiled(_compiled)
"""True where this module is compiled: :class:`Board` then reads a unit's index by its order's
location first (a province, for all but the units on a coast: one dictionary look-up, where
the location's province and then its unit are two). Interpreted, the method call and the test
cost more than the second subscript, which it keeps."""


class NotAsGiven(Exception):
    """The orders of a phase cannot be taken as given (:class:`Board`): some need to be
    accepted one by one."""


class Board:
    """The static set-up of a movement phase: units, their orders and what matches what."""

    __slots__ = (
        "n",
        "units",
        "orders",
        "prov",
        "_power",
        "kind",
        "dest",
        "dest_loc",
        "target",
        "at",
        "route",
        "moves_into",
        "supports",
        "convoyers",
        "route_start",
        "route_end",
        "route_graph",
        "route_union",
        "opposite",
        "shielded",
        "matched",
        "bonus",
        "gates",
        "corner_clash",
        "corner_blockers",
        "blocked_point",
        "conditional",
        "corners",
        "mods",
        "has_mods",
        "fragile",
        "empty_routes",
        "empty_space",
        "moves",
        "occupant",
        "contested",
        "blocks",
        "matching",
    )

    def __init__(
        self,
        units: list[Unit],
        orders: Iterable[Order],
        tables: MapTables,
        rules: Rules,
        provinces: list[str] | None = None,
        index: dict[str, int] | None = None,
        # (not keyword-only: a class called with keywords builds a dictionary of them first,
        # some 3k instructions a phase; the adjudicator passes them in this order)
        variant_rules: VariantRules | None = None,
        defence_bonus: Mapping[str, int] = _NO_BONUS,
        modifiers: MovementModifiers = NO_MODIFIERS,
        kinds: OrderKinds | None = None,
        explain: bool = False,
    ) -> None:
        """``orders``: the orders the units follow, each naming its unit by its location, at
        most one per unit (a unit without one holds), as the rules read them: a phase's
        orders as given when each is vouched for as legal. A waive, an order for no unit on
        the board or a second order for a unit raise :class:`NotAsGiven` (the caller then
        accepts the orders one by one, and passes those it accepted). ``provinces`` (each
        unit's province) and ``index`` (province -> unit index) may be passed by a caller that
        has them already. ``variant_rules`` brings the variant's conditional borders and
        corners; ``defence_bonus`` (province -> extra strength needed
        to dislodge the unit there) and ``modifiers`` come from the variant's hooks; ``kinds``
        (the variant's own kinds of order, if it has any) say what their orders do. With
        ``explain`` every support names its target and destination (:attr:`target`,
        :attr:`dest`), as the sentences read them; without, a support into a province no unit
        moves to is only marked unmatched."""
        n = self.n = len(units)
        self.bonus = defence_bonus
        """Province -> extra hold strength of the unit there: the hooks' defence bonuses, and
        the bonus of an order of the variant's kind that holds stronger (:class:`Holds`)."""
        self.mods = modifiers
        self.has_mods = modifiers is not NO_MODIFIERS and bool(modifiers)
        """True if the variant's hooks modify this phase's battles (asked once, not per
        strength)."""
        self.empty_routes: Mapping[int, _EmptyRoute] = _NO_EMPTY_ROUTES
        """Army move -> its chains through empty seas (a variant's rule): the nodes
        that may start and end one, and the graph of its nodes. A node is a convoying
        fleet's unit index, or ``n + k`` for the empty sea ``empty_space[k]``."""
        self.empty_space: list[str] = _NO_SPACES
        self.units = units
        prov = self.prov = provinces if provinces is not None else [u.province for u in units]
        self._power: list[str] | None = None  # (made when first read: see power)
        at = self.at = index if index is not None else {p: i for i, p in enumerate(prov)}
        kind = self.kind = [HOLD] * n
        dest: list[str] = [""] * n
        dest_loc: list[str] = [""] * n
        target = self.target = [-1] * n
        self.dest = dest
        self.dest_loc = dest_loc
        followed: list[Order | None] = [None] * n
        moves: list[int] = []
        self.moves = moves
        """The units ordered to move, by index, in the order given (each pass over them
        decides each move on its own, and what it collects is sorted where order counts)."""
        occupant = self.occupant = [-1] * n
        """Move -> the unit in the province it enters (-1: none)."""
        self.blocks: list[int] = _NONE  # (a list of its own at the first block)
        """The units given an order of the variant's kind that blocks a crossing."""
        strengthened: dict[str, int] | None = None  # (the bonuses, when an order adds one)
        # (the orders are legal: their locations are on the map) (the tables are dictionaries:
        # declared so here, the compiled build reads them natively, not through the generic
        # protocol; a cast() would be a call a phase in the interpreter)
        province_at: dict[str, str] = tables.province_at  # type: ignore[assignment]
        moves_into: dict[str, list[int]] = {}
        self.moves_into = moves_into
        """Province -> the units moving into it (ascending)."""
        contested: list[str] = []
        self.contested = contested
        """The provinces two or more units move into (where a stand-off may leave one empty)."""
        army_adj: dict[str, frozenset[str]] = tables.army_adj  # type: ignore[assignment]
        # Army moves with a convoy in sight, so far: by convoy, or to a province not next door
        # (the matching adds those a fleet is ordered to convoy).
        by_sea: list[int] = []
        opposite = self.opposite = [-1] * n
        """Move -> the move it meets head to head (into its province, from its destination),
        -1 if none."""
        # (borders along which units may exchange places: their moves are no head-to-head)
        swaps = variant_rules.swap_borders if variant_rules is not None else ()
        # The supports and convoys, read once every move is known (each then finds its unit:
        # no tuple per order).
        support_moves: list[SupportMove] = []
        support_holds: list[SupportHold] = []
        convoys: list[Convoy] = []
        # One pass over the orders: which unit each is for, and what it asks, read into the
        # board's lists. (Each kind is told by its exact class: ``type(x) is C`` is the
        # cheapest test, and the type checker reads it.)
        by_location = _BY_LOCATION
        try:
            for order in orders:
                if type(order) is SupportMove:  # (the commonest order of all)
                    support_moves.append(order)
                    continue
                elif type(order) is Move:
                    if by_location:  # (compiled: see _BY_LOCATION)
                        i = at.get(order.location, -1)
                        if i < 0:
                            i = at[province_at[order.location]]
                    else:
                        i = at[province_at[order.location]]
                    if followed[i] is not None:
                        raise NotAsGiven  # a second order for the unit
                    followed[i] = order
                    kind[i] = MOVE
                    to = dest_loc[i] = order.destination
                    d = dest[i] = province_at[to]
                    j = occupant[i] = at.get(d, -1)
                    if j >= 0 and kind[j] == MOVE and dest[j] == prov[i] and not (
                            swaps and _swapping(swaps, prov[i], d, units[i], units[j])):
                        # a head-to-head battle (found by the second of the two moves read)
                        opposite[i] = j
                        opposite[j] = i
                    moves.append(i)
                    if d not in moves_into:  # (``in`` then a subscript: cheaper than .get())
                        moves_into[d] = [i]
                    else:
                        movers = moves_into[d]
                        if len(movers) == 1:
                            contested.append(d)
                        movers.append(i)
                    if units[i].type is _ARMY and (order.via_convoy or d not in army_adj[prov[i]]):
                        by_sea.append(i)
                    continue
                elif type(order) is SupportHold:
                    support_holds.append(order)
                    continue
                elif type(order) is Convoy:
                    convoys.append(order)
                    continue
                elif type(order) is Hold:
                    if by_location:
                        i = at.get(order.location, -1)
                        if i < 0:
                            i = at[province_at[order.location]]
                    else:
                        i = at[province_at[order.location]]
                elif kinds and isinstance(order, VariantOrder):
                    i = at[province_at[order.location]]
                    # an order of the variant's own kind: what it does, in the resolver's words
                    effect = kinds.movement_effect(order)
                    if isinstance(effect, BlocksCrossing):
                        kind[i] = BLOCK
                        if self.blocks is _NONE:
                            self.blocks = []
                        self.blocks.append(i)
                        dest[i] = effect.point  # (the corner or passage it blocks)
                    elif effect.bonus:
                        # a hold with a bonus (a fortified unit): the unit stays, so the bonus of
                        # its province counts in its hold strength only
                        if strengthened is None:
                            strengthened = dict(defence_bonus)
                        strengthened[prov[i]] = strengthened.get(prov[i], 0) + effect.bonus
                else:
                    # a waive, or an order of a kind the board does not know as given (a
                    # subclass): accepted one by one
                    raise NotAsGiven
                if followed[i] is not None:
                    raise NotAsGiven  # a second order for the unit
                followed[i] = order
        except KeyError:
            raise NotAsGiven from None  # an order for no unit on the board
        self.orders: Sequence[Order | None] = followed
        """Unit index -> the order it follows (None: it holds, unordered)."""
        if strengthened is not None:
            self.bonus = strengthened
        # (the orders come in the order given: what the passes below read in order is sorted)
        if self.blocks:
            self.blocks.sort()
        for d in contested:
            moves_into[d].sort()

        # The supports and convoys, and whether each matches the order of the unit it names
        # (every move is known by now).
        matched = self.matched = [True] * n
        supports: list[list[int]] = [_NONE] * n
        convoyers: _PerUnit[list[int]] = _NO_CONVOYERS
        matching: list[int] = []
        self.matching = matching
        """The supports and convoys that match the order of the unit they name (ascending)."""
        # the tables of supports and convoying fleets given a second entry (read in the order
        # given: sorted below into the order of the units)
        crowded: list[list[int]] = []
        try:
            for support_move in support_moves:
                if by_location:
                    i = at.get(support_move.location, -1)
                    if i < 0:
                        i = at[province_at[support_move.location]]
                else:
                    i = at[province_at[support_move.location]]
                if followed[i] is not None:
                    raise NotAsGiven  # a second order for the unit
                followed[i] = support_move
                kind[i] = SUPPORT_MOVE
                d = province_at[support_move.destination]
                if d not in moves_into and not explain:
                    # no unit moves where it is aimed (what it names is read only to explain it)
                    matched[i] = False
                    continue
                to = support_move.destination  # (read again: most supports stop above)
                t = target[i] = at.get(province_at[support_move.supported_location], -1)
                dest_loc[i] = to
                dest[i] = d
                # (a support into a coast names the coast the move goes to, or none)
                if t >= 0 and kind[t] == MOVE and dest[t] == d and (to == d or to == dest_loc[t]):
                    matching.append(i)
                    given = supports[t]
                    if given is _NONE:
                        supports[t] = [i]
                    else:
                        if len(given) == 1:
                            crowded.append(given)
                        given.append(i)
                else:
                    matched[i] = False
            for support_hold in support_holds:
                if by_location:
                    i = at.get(support_hold.location, -1)
                    if i < 0:
                        i = at[province_at[support_hold.location]]
                else:
                    i = at[province_at[support_hold.location]]
                if followed[i] is not None:
                    raise NotAsGiven
                followed[i] = support_hold
                kind[i] = SUPPORT_HOLD
                d = dest[i] = province_at[support_hold.supported_location]
                t = target[i] = at.get(d, -1)
                if t >= 0 and kind[t] != MOVE:
                    matching.append(i)
                    given = supports[t]
                    if given is _NONE:
                        supports[t] = [i]
                    else:
                        if len(given) == 1:
                            crowded.append(given)
                        given.append(i)
                else:
                    matched[i] = False
            for convoy in convoys:
                i = at[province_at[convoy.location]]
                if followed[i] is not None:
                    raise NotAsGiven
                followed[i] = convoy
                kind[i] = CONVOY
                t = target[i] = at.get(province_at[convoy.army_location], -1)
                d = dest[i] = province_at[convoy.destination]
                if t >= 0 and kind[t] == MOVE and dest[t] == d and units[t].type is _ARMY:
                    matching.append(i)
                    if not isinstance(convoyers, list):
                        convoyers = [_NONE] * n
                    fleets = convoyers[t]
                    if fleets is _NONE:
                        convoyers[t] = [i]
                        if t not in by_sea:
                            by_sea.append(t)  # an army move a fleet is ordered to convoy
                    else:
                        if len(fleets) == 1:
                            crowded.append(fleets)
                        fleets.append(i)
                else:
                    matched[i] = False
        except KeyError:
            raise NotAsGiven from None  # an order for no unit on the board
        if len(matching) > 1:
            # (read kind by kind: each table in the order of the units, as ever)
            matching.sort()
            for given in crowded:
                given.sort()
        self.supports = supports
        """Move -> its matching supports; unit not moving -> its matching hold supports."""
        self.convoyers = convoyers
        """Army move -> the fleets ordered to convoy it."""

        # How army moves with a convoy in sight travel.
        self.route = [LAND] * n
        # (a move's convoy routes: made per unit when some move has one)
        self.route_start: _PerUnit[frozenset[int]] = _NO_FLEETS_EACH
        self.route_end: _PerUnit[frozenset[int]] = _NO_FLEETS_EACH
        self.route_graph: _PerUnit[Mapping[int, tuple[int, ...]]] = _NO_GRAPH_EACH
        self.route_union: _PerUnit[frozenset[int]] = _NO_FLEETS_EACH
        convoyed = False  # (some army move may go by convoy)
        # the army moves that may go by convoy into a province where a matching support
        # stands (only such a support can be shielded from them)
        shielding: list[int] = _NONE  # (a list of its own when some move may go by convoy)
        if by_sea:  # (in the order given: each move's route is its own)
            route = self.route
            shielding = []
            for i in by_sea:
                if (convoyers is _NO_CONVOYERS or convoyers[i] is _NONE) \
                        and dest[i] not in army_adj[prov[i]]:
                    route[i] = CONVOY_ONLY  # (no fleet is ordered to convoy it: no route)
                elif not self._set_route(i, tables, rules):
                    continue
                convoyed = True
                s = occupant[i]
                if s >= 0 and matched[s] and (kind[s] == SUPPORT_MOVE or kind[s] == SUPPORT_HOLD):
                    shielding.append(i)

        # Supports a convoyed army cannot cut under the rulebooks' paradox rules (4.A.2).
        self.shielded: _PerUnit[frozenset[int]] = _NO_FLEETS_EACH
        """Support -> the army moves that, when convoyed, do not cut it."""
        if shielding and rules.convoy_paradox in _SHIELDING_PARADOX_RULES:
            self._set_shields(tables, rules.convoy_paradox, shielding)

        self.fragile: frozenset[int] = _NO_FLEETS
        """The convoying fleets whose convoy fails when they are attacked (a variant's rule: a
        power without sea superiority)."""
        if modifiers.fragile_convoys and convoyed:
            self._set_fragile(moves, modifiers.fragile_convoys)
        # Moves whose path depends on a variant's crossing rules (H4 of the design notes).
        # (shared empty values on a map without them: nothing to allocate per phase)
        self.gates: Mapping[int, tuple[ConditionalBorder, ...]] = _NO_GATES
        """Move -> the conditional borders it crosses."""
        self.corner_clash: frozenset[int] = _NO_FLEETS
        """The moves across a corner that is crossed in more than one direction."""
        self.corner_blockers: Mapping[int, tuple[int, ...]] = _NO_GRAPH
        """Move -> the units of other powers blocking a corner or passage it crosses (ordered
        to block it, or, with the variant's ``holding_blocks``, holding where they may)."""
        self.blocked_point: Mapping[int, str] = _NO_POINTS
        """Move -> the corner or passage whose blocks stand against it."""
        self.conditional: frozenset[int] = _NO_FLEETS
        """The moves that any of the above may stop."""
        self.corners: tuple[Corner, ...] = variant_rules.corners if variant_rules else ()
        if variant_rules is not None and (variant_rules.conditional_borders
                                          or variant_rules.corners or variant_rules.passages):
            self._set_crossings(moves, variant_rules)

    @property
    def power(self) -> list[str]:
        """Unit index -> its power. Made when first read (the sentences and the variants'
        rules read it): the adjudication reads each unit's own, ``units[i].power``, a few
        times a phase, which costs less than this list of a slot per unit."""
        power = self._power
        if power is None:
            power = self._power = [u.power for u in self.units]
        return power

    def _set_crossings(self, moves: list[int], variant_rules: VariantRules) -> None:
        """Which moves cross a conditional border, a corner or a passage, the blocks that stand
        against them, and the corner clashes (moves across one corner in more than one
        direction: all of them fail)."""
        prov, dest, units, kind, power = self.prov, self.dest, self.units, self.kind, self.power
        crossing: dict[str, list[int]] = {}
        gates_of: dict[int, tuple[ConditionalBorder, ...]] = {}
        blockers_of: dict[int, tuple[int, ...]] = {}
        point_of: dict[int, str] = {}
        points = variant_rules.block_points()
        # the units blocking each point: ordered to, or (a variant's reading) holding there
        blocking: dict[str, list[int]] = {}
        holding = self.mods.holding_blocks
        for j in range(self.n):
            if kind[j] == BLOCK:
                blocking.setdefault(dest[j], []).append(j)
            elif holding and kind[j] == HOLD:
                for point in points:
                    if prov[j] in point.blockers and (point.block_units is None
                                                      or units[j].type is point.block_units):
                        blocking.setdefault(point.id, []).append(j)
        # the conditional borders by the pair of provinces they join, either way round, and
        # the provinces of some corner's ring (a move touches few of either)
        borders_at: dict[tuple[str, str], list[ConditionalBorder]] = {}
        for g in variant_rules.conditional_borders:
            borders_at.setdefault((g.a, g.b), []).append(g)
            if g.b != g.a:
                borders_at.setdefault((g.b, g.a), []).append(g)
        corners = variant_rules.corners
        on_rings = {p for corner in corners for p in corner.ring}
        for i in moves:
            origin, to = prov[i], dest[i]
            across = borders_at.get((origin, to))
            if across:
                gates = tuple(g for g in across
                              if g.unit_type is None or g.unit_type is units[i].type)
                if gates:
                    gates_of[i] = gates
            if origin in on_rings:
                for corner in corners:
                    if corner.diagonal(origin, to):
                        crossing.setdefault(corner.id, []).append(i)
            for point in points:
                if point.id in blocking and point.crosses(origin, to, units[i].type):
                    # (a unit at either end of the crossing is its origin or its target,
                    # not a blocker of it)
                    against = tuple(j for j in blocking[point.id]
                                    if prov[j] not in (origin, to) and power[j] != power[i])
                    if against:
                        blockers_of[i] = against
                        point_of[i] = point.id
                        break
        self.gates, self.corner_blockers = gates_of, blockers_of
        self.blocked_point = point_of
        self.corner_clash = frozenset(
            i for movers in crossing.values()
            if len({(prov[i], dest[i]) for i in movers}) > 1 for i in movers)
        self.conditional = frozenset(gates_of) | frozenset(blockers_of) | self.corner_clash

    def _set_fragile(self, moves: list[int], fragile: Mapping[str, Fragility]) -> None:
        """The convoying fleets of each army move whose convoy an attack breaks: every fleet of
        a convoy that goes through a fleet of an ``ALWAYS`` power, or that goes through a fleet
        of a ``SHARED`` power and uses two fleets or more or carries another power's army."""
        out: set[int] = set()
        power = self.power
        for i in moves:
            fleets = self.route_union[i]
            if self.empty_routes and i in self.empty_routes:
                fleets = fleets | self.empty_route_fleets(i)
            if not fleets:
                continue
            kinds = {fragile.get(power[c]) for c in fleets}
            if Fragility.ALWAYS in kinds or (Fragility.SHARED in kinds and (
                    len(fleets) > 1 or any(power[c] != power[i] for c in fleets))):
                out.update(fleets)
        self.fragile = frozenset(out)

    def _set_route(self, i: int, tables: MapTables, rules: Rules) -> bool:
        """How army move ``i`` travels, and its convoy routes; True if it may go by convoy.
        (Called for the moves with a convoy in sight: by convoy, convoyed, or not next door.)"""
        order = self.orders[i]
        assert isinstance(order, Move)
        origin, dest = self.prov[i], self.dest[i]
        by_land = dest in tables.army_adj.get(origin, ())
        # (loops, not comprehensions: this runs for most army moves a fleet may carry)
        prov, convoy_spaces = self.prov, tables.convoy_spaces
        fleets: list[int] = []
        for c in self.convoyers[i]:
            if prov[c] in convoy_spaces:
                fleets.append(c)
        units = self.units
        power = units[i].power
        own_fleet = False
        for c in fleets:
            if units[c].power == power:
                own_fleet = True
                break
        choice = rules.adjacent_convoy
        if not by_land:
            route = CONVOY_ONLY
        elif choice is AdjacentConvoy.OPPOSITE_MOVE:
            route = CONVOY_ELSE_LAND if fleets and self.opposite[i] >= 0 else LAND
            if order.via_convoy:
                route = CONVOY_ONLY
        elif choice is AdjacentConvoy.INTENT_WITH_FALLBACK:
            route = CONVOY_ELSE_LAND if (order.via_convoy or own_fleet) else LAND
        elif choice is AdjacentConvoy.EXPLICIT:
            route = CONVOY_ONLY if order.via_convoy else LAND
        else:  # AdjacentConvoy.INTENT
            route = CONVOY_ONLY if (order.via_convoy or own_fleet) else LAND
        self.route[i] = route
        if route == LAND:
            return False
        if not fleets:
            return True  # no fleets: no route, and the route tables stay empty
        empty = self.mods.empty_convoys
        if empty is not None and empty.power == units[i].power:
            self._set_empty_route(i, fleets, tables, empty)
        self._set_route_tables(i, fleets, origin, dest, tables)
        return True

    def _set_route_tables(self, i: int, fleets: list[int], origin: str, dest: str,
                          tables: MapTables) -> None:
        """The convoy routes of army move ``i`` (from ``origin`` into ``dest``) through the
        ``fleets`` ordered to convoy it. (Apart from :meth:`_set_route`, which most moves
        leave early: its comprehensions' cells are made only when some fleet convoys.)"""
        sea_of = {self.prov[c]: c for c in fleets}
        start = frozenset(sea_of[s] for s in tables.shore_convoy_spaces.get(origin, ())
                          if s in sea_of)
        end = frozenset(sea_of[s] for s in tables.shore_convoy_spaces.get(dest, ())
                        if s in sea_of)
        graph = {
            c: tuple(sea_of[s] for s in tables.convoy_adj[self.prov[c]] if s in sea_of)
            for c in fleets
        }
        on_route = fleets_on_routes(sorted(start), end, graph)
        starts, ends, graphs, unions = (self.route_start, self.route_end, self.route_graph,
                                        self.route_union)
        if not isinstance(starts, list):  # the first move with a route
            starts = self.route_start = [_NO_FLEETS] * self.n
        if not isinstance(ends, list):
            ends = self.route_end = [_NO_FLEETS] * self.n
        if not isinstance(graphs, list):
            graphs = self.route_graph = [_NO_GRAPH] * self.n
        if not isinstance(unions, list):
            unions = self.route_union = [_NO_FLEETS] * self.n
        starts[i] = start & on_route
        ends[i] = end & on_route
        graphs[i] = {c: tuple(x for x in graph[c] if x in on_route) for c in on_route}
        unions[i] = frozenset(on_route)

    def _set_empty_route(self, i: int, fleets: list[int], tables: MapTables,
                         empty: EmptyConvoys) -> None:
        """The chains of army move ``i`` through empty seas: from a fleet next to the army
        that may end such a convoy, through convoying fleets and empty seas, to one next to
        its destination (the part of that graph connected to a start, spaces from which no
        other way leads pruned)."""
        prov, n = self.prov, self.n
        shores = tables.shore_convoy_spaces
        origin_seas = shores.get(prov[i], frozenset())
        dest_seas = shores.get(self.dest[i], frozenset())
        units = self.units
        ends = [c for c in fleets if not empty.own_ends or units[c].power == empty.power]
        start = {c for c in ends if prov[c] in origin_seas}
        end = {c for c in ends if prov[c] in dest_seas}
        if not start or not end:
            return
        if not self.empty_space:
            self.empty_space = sorted(s for s in empty.spaces if s not in self.at)
        node_of = {s: n + k for k, s in enumerate(self.empty_space)}
        node_of.update((prov[c], c) for c in fleets)
        space_of = {node: space for space, node in node_of.items()}
        convoy_adj = tables.convoy_adj
        seen = set(start)
        todo = list(start)
        while todo:
            here = todo.pop()
            for space in convoy_adj[space_of[here]]:
                nxt = node_of.get(space)
                if nxt is not None and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        if seen.isdisjoint(end):
            return
        graph = {c: {node_of[s] for s in convoy_adj[space_of[c]] if node_of.get(s) in seen}
                 for c in seen}
        # (a space with one neighbour that starts or ends nothing is on no chain)
        kept = start | end
        leaves = [c for c, near in graph.items() if len(near) <= 1 and c not in kept]
        while leaves:
            c = leaves.pop()
            for other in graph.pop(c, ()):
                near = graph.get(other)
                if near is not None:
                    near.discard(c)
                    if len(near) <= 1 and other not in kept:
                        leaves.append(other)
        if self.empty_routes is _NO_EMPTY_ROUTES:
            self.empty_routes = {}
        assert isinstance(self.empty_routes, dict)
        self.empty_routes[i] = _EmptyRoute(
            frozenset(start), frozenset(end & graph.keys()),
            {c: tuple(sorted(near)) for c, near in graph.items()})

    def empty_route_fleets(self, i: int) -> frozenset[int]:
        """The convoying fleets on the chains of move ``i`` through empty seas."""
        route = self.empty_routes.get(i)
        if route is None:
            return _NO_FLEETS
        return frozenset(c for c in route.graph if c < self.n)

    def _set_shields(self, tables: MapTables, rule: ConvoyParadox, convoyed: list[int]) -> None:
        """Which supports each of the ``convoyed`` army moves (those that may go by convoy
        into a province where a matching support stands) does not cut when convoyed, under
        the 4.A.2 ``rule``: only a matching support in the province it enters can be
        shielded from it."""
        kind, prov, units, at = self.kind, self.prov, self.units, self.at
        shields: dict[int, set[int]] = {}
        for j in convoyed:
            s = at.get(self.dest[j], -1)
            if s < 0 or kind[s] not in (SUPPORT_HOLD, SUPPORT_MOVE) or not self.matched[s]:
                continue
            fleets = self.route_union[j]
            if rule is ConvoyParadox.R1971:
                # A fleet supporting a fleet attacking one of the convoying fleets.
                t = self.target[s]
                shielded = (kind[s] == SUPPORT_MOVE and units[s].type is _FLEET
                            and units[t].type is _FLEET
                            and any(prov[c] == self.dest[s] for c in fleets))
            elif rule is ConvoyParadox.R1982:
                # A fleet supporting an action in a body of water holding a convoying fleet
                # (one with a convoy order matching some army's move, DATC 6.F.21).
                c = at.get(self.dest[s], -1)
                shielded = (units[s].type is _FLEET and self.dest[s] in tables.convoy_spaces
                            and c >= 0 and kind[c] == CONVOY and self.matched[c])
            else:
                # 2000: a unit supporting an attack on a fleet necessary for the convoy.
                shielded = kind[s] == SUPPORT_MOVE and any(
                    prov[c] == self.dest[s] and self._necessary(j, c) for c in fleets)
            if shielded:
                shields.setdefault(s, set()).add(j)
        if shields:
            shields_of: list[frozenset[int]] = [_NO_FLEETS] * self.n
            for s, shield in shields.items():
                shields_of[s] = frozenset(shield)
            self.shielded = shields_of

    def _necessary(self, j: int, fleet: int) -> bool:
        """True if every route of the army move ``j`` passes through ``fleet``."""
        graph = self.route_graph[j]
        seen = {c for c in self.route_start[j] if c != fleet}
        todo = list(seen)
        while todo:
            c = todo.pop()
            if c in self.route_end[j]:
                return False
            for nxt in graph.get(c, ()):
                if nxt != fleet and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return True


def _swapping(swaps: Iterable[SwapBorder], origin: str, to: str, mover: Unit, other: Unit,
              ) -> bool:
    """True if a border of ``swaps`` lets ``mover`` (from ``origin`` into ``to``) and
    ``other`` (the other way) exchange places. (A function of its own: a generator in the
    board's set-up would make the variables it reads cells, at every phase.)"""
    return any(w.allows(origin, to, mover.type, other.type) for w in swaps)


def _corners_of(board: Board, i: int) -> list[Corner]:
    """The corners move ``i`` crosses (its variant's, as the board was set up with)."""
    return [c for c in board.corners if c.diagonal(board.prov[i], board.dest[i])]



def fleets_on_routes(start: Sequence[int], end: Container[int],
                     graph: Mapping[int, Sequence[int]], budget: int = 20_000) -> set[int]:
    """The fleets on some simple path from a fleet in ``start`` to one in ``end`` through
    ``graph`` (fleet -> the fleets next to it). At most ``budget`` steps are taken, which bounds
    the work on a map whose seas allow very many routes."""
    on_route: set[int] = set()
    for first in start:
        if budget <= 0:
            break
        budget -= 1
        path = [first]
        in_path = {first}
        if first in end:
            on_route.add(first)
        # Depth first, with an explicit stack (a recursive closure would be a reference cycle).
        stack = [iter(graph[first])]
        while stack:
            for nxt in stack[-1]:
                if nxt in in_path or budget <= 0:
                    continue
                budget -= 1
                path.append(nxt)
                in_path.add(nxt)
                if nxt in end:
                    on_route.update(path)
                stack.append(iter(graph[nxt]))
                break
            else:
                stack.pop()
                in_path.discard(path.pop())
    return on_route


class Equations:
    """The equations of one movement phase, reading decisions through ``resolve``."""

    __slots__ = ("board", "resolve", "any_route", "convoy_cuts_own_attack", "literal_bounce")

    def __init__(self, board: Board, rules: Rules, resolve: Callable[[int], bool]) -> None:
        self.board = board
        self.resolve = resolve
        # (the members read once, at import: an enum's class attribute is slow to read)
        self.any_route = rules.multi_route_convoy is _ANY_ROUTE_DISRUPTED
        self.convoy_cuts_own_attack = rules.convoyed_attack_on_supporter is _CUT
        self.literal_bounce = rules.dislodged_unit_bounce is _NEVER_BOUNCE

    # -- paths --------------------------------------------------------------------------------

    def convoy_path(self, i: int) -> bool:
        """True if convoying fleets that are not dislodged carry move ``i`` (4.A.1), or,
        where a variant allows it, a chain of such fleets and unattacked empty seas."""
        if self.fleet_path(i):
            return True
        return bool(self.board.empty_routes) and i in self.board.empty_routes \
            and self.empty_path(i)

    def carries(self, i: int, node: int) -> bool:
        """True if ``node`` of the chains of move ``i`` through empty seas carries it: a
        convoying fleet not dislodged, or an empty sea no unit of another power attacks."""
        b = self.board
        if node < b.n:
            return self.resolve(node)
        return not any(b.units[j].power != b.units[i].power and self.path(j)
                       for j in b.moves_into.get(b.empty_space[node - b.n], ()))

    def empty_reach(self, i: int) -> tuple[set[int], set[int]]:
        """The nodes of the chains of move ``i`` through empty seas that carry it and can be
        reached from a start, and those that stop it at the edge of that reach."""
        route = self.board.empty_routes[i]
        reached: set[int] = set()
        stopped: set[int] = set()
        todo = sorted(route.start)
        while todo:
            c = todo.pop()
            if c in reached or c in stopped:
                continue
            if not self.carries(i, c):
                stopped.add(c)
                continue
            reached.add(c)
            todo.extend(x for x in route.graph.get(c, ()) if x not in reached)
        return reached, stopped

    def empty_path(self, i: int) -> bool:
        """True if a chain of move ``i`` through empty seas carries it (4(a)(i))."""
        route = self.board.empty_routes[i]
        reached, _ = self.empty_reach(i)
        return not route.end.isdisjoint(reached)

    def fleet_path(self, i: int) -> bool:
        """True if convoying fleets that are not dislodged carry move ``i`` (4.A.1)."""
        b = self.board
        resolve = self.resolve
        # (loops, not comprehensions or generators: their variables would be cells, made at
        # every call; this runs for every convoyed move the solver decides)
        if self.any_route:
            union = b.route_union[i]
            if not union:
                return False
            # (each fleet read, in order, as the solver has always read them)
            carried = True
            for c in sorted(union):
                if not resolve(c):
                    carried = False
            return carried
        end = b.route_end[i]
        if not end:
            return False
        graph = b.route_graph[i]
        seen: set[int] = set()
        todo = sorted(b.route_start[i])
        while todo:
            c = todo.pop()
            if c in seen:
                continue
            seen.add(c)
            if not resolve(c):
                continue
            if c in end:
                return True
            for x in graph[c]:
                if x not in seen:
                    todo.append(x)
        return False

    def path(self, i: int) -> bool:
        """The PATH of a move: it can reach its destination (by convoy if it must, and
        across its variant's conditional borders and corners if it crosses any)."""
        b = self.board
        if b.conditional and i in b.conditional and not self.crossing_open(i):
            return False
        if b.route[i] == CONVOY_ONLY:
            return self.convoy_path(i)
        return True

    def crossing_open(self, i: int) -> bool:
        """True if move ``i`` may cross its conditional borders and corners this turn."""
        b = self.board
        if i in b.corner_clash:
            return False  # the corner is crossed in more than one direction
        if i in b.corner_blockers and self.blocks_standing(i) > self.support_count(i):
            return False  # blocked, and not supported once per block
        return all(not self.gate_closed(i, gate) for gate in b.gates.get(i, ()))

    def blocks_standing(self, i: int) -> int:
        """How many blocks against move ``i`` stand (are not cut)."""
        return sum(1 for j in self.board.corner_blockers.get(i, ()) if self.block_stands(j))

    def block_stands(self, j: int) -> bool:
        """True if the block of unit ``j`` stands: not cut by an attack (of a unit of
        another power with a path to it), as a support is cut."""
        b = self.board
        if b.kind[j] == BLOCK:
            return self.resolve(j)
        return self.block(j)  # a holding unit that blocks (the variant's reading)

    def block(self, j: int) -> bool:
        """The decision of a block: not cut by any attack of another power's unit."""
        b = self.board
        units = b.units
        power = units[j].power
        for m in b.moves_into.get(b.prov[j], ()):  # (a loop: no cells, see fleet_path)
            if units[m].power != power and self.path(m):
                return False
        return True

    def closed_crossing(self, i: int) -> tuple[str, str, tuple[int, ...]]:
        """Why move ``i`` could not cross, once decided: (``"clash"``, corner id, the moves
        across it), (``"blocked"``, the corner's id or the passage's space, the blocks
        standing), (``"fleet"``, watched space, the foreign fleets there) or (``"standoff"``,
        watched space, the moves that bounced)."""
        b = self.board
        if i in b.corner_clash:
            corner = next(c for c in _corners_of(b, i))
            movers = tuple(j for j in range(b.n) if b.kind[j] == MOVE
                           and corner.diagonal(b.prov[j], b.dest[j]) and j != i)
            return ("clash", corner.id, movers)
        if i in b.corner_blockers and self.blocks_standing(i) > self.support_count(i):
            standing = tuple(j for j in b.corner_blockers[i] if self.block_stands(j))
            return ("blocked", b.blocked_point[i], standing)
        for gate in b.gates.get(i, ()):
            if self.gate_closed(i, gate):
                there = b.at.get(gate.watch, -1)
                fleets = tuple(
                    j for j in (there, *b.moves_into.get(gate.watch, ()))
                    if j >= 0 and j != i and b.units[j].type is _FLEET
                    and b.units[j].power != b.units[i].power
                    and (self.resolve(j) if j != there else
                         b.kind[j] != MOVE or not self.resolve(j)))
                if gate.closed_by_foreign_fleet and fleets:
                    return ("fleet", gate.watch, fleets)
                return ("standoff", gate.watch, tuple(b.moves_into.get(gate.watch, ())))
        raise ValueError(f"move {i} was not stopped at a crossing")

    def closed_crossing_is_block(self, i: int) -> bool:
        """True if move ``i`` was stopped by the blocks against it (and nothing before)."""
        b = self.board
        return (i not in b.corner_clash and i in b.corner_blockers
                and self.blocks_standing(i) > self.support_count(i))

    def gate_closed(self, i: int, gate: ConditionalBorder) -> bool:
        """True if the border ``gate`` is closed to move ``i`` after this turn's moves."""
        b = self.board
        watch = gate.watch
        there = b.at.get(watch, -1)
        stays = there >= 0 and (b.kind[there] != MOVE or not self.resolve(there))
        movers = b.moves_into.get(watch, ())
        if gate.closed_by_foreign_fleet:
            if stays and b.units[there].type is _FLEET and b.units[there].power != b.units[i].power:
                return True
            for j in movers:
                if (j != i and b.units[j].type is _FLEET and b.units[j].power != b.units[i].power
                        and self.resolve(j)):
                    return True
        # A stand-off: two or more moves into the space, none succeeds, and it is left empty.
        return (gate.closed_by_standoff and len(movers) >= 2 and not stays
                and not any(self.resolve(j) for j in movers))

    def by_convoy(self, i: int) -> bool:
        """True if move ``i`` travels by convoy."""
        route = self.board.route[i]
        if route == LAND:
            return False
        if route == CONVOY_ONLY:
            return True
        return self.convoy_path(i)

    def head_to_head(self, i: int) -> int:
        """The opposing move in a head-to-head battle with ``i``, or -1."""
        j = self.board.opposite[i]
        if j < 0 or self.by_convoy(i) or self.by_convoy(j):
            return -1
        return j

    # -- strengths ----------------------------------------------------------------------------

    def support_count(self, i: int, exclude_power: str | None = None) -> int:
        b = self.board
        resolve = self.resolve
        count = 0
        units = b.units
        for s in b.supports[i]:
            if exclude_power is not None and units[s].power == exclude_power:
                continue
            if resolve(s):
                count += 1
        return count

    def against(self, province: str, by: int) -> int:
        """What the variant adds to the defence of the unit in ``province`` against move
        ``by`` (0 without such a rule)."""
        against = self.board.mods.defence_against
        if not against or by < 0:
            return 0
        return against.get(province, _NO_BONUS).get(self.board.units[by].power, 0)

    def requirement_fails(self, i: int) -> DislodgeRequirement | None:
        """The dislodging condition move ``i`` does not meet on the unit at its destination,
        if that unit stays there (a fortress taken only by a fleet with four armies' support)."""
        b = self.board
        requirements = b.mods.dislodge_requirements
        if not requirements:
            return None
        need = requirements.get(b.dest[i])
        d = b.occupant[i]
        if need is None or d < 0 or (b.kind[d] == MOVE and self.resolve(d)):
            return None
        if need.attacker is not None and b.units[i].type is not need.attacker:
            return need
        if need.supports:
            given = sum(1 for s in b.supports[i]
                        if (need.support_type is None or b.units[s].type is need.support_type)
                        and b.units[s].power != b.units[d].power and self.resolve(s))
            if given < need.supports:
                return need
        return None

    def attack(self, i: int) -> int:
        """ATTACK STRENGTH of move ``i``."""
        b = self.board
        if not self.path(i):
            return 0
        d = b.occupant[i]
        if d < 0:
            return 1 + self.support_count(i)
        if b.kind[d] == MOVE and self.head_to_head(i) < 0 and self.resolve(d):
            return 1 + self.support_count(i)
        defender = b.units[d].power
        if defender == b.units[i].power:
            return 0
        return 1 + self.support_count(i, defender)

    def hold(self, province: str, by: int = -1) -> int:
        """HOLD STRENGTH of a province (with the variant's defence bonus of its unit, and what
        it adds against the attack of move ``by``, if given)."""
        b = self.board
        d = b.at.get(province, -1)
        if d < 0:
            return 0
        bonus = b.bonus.get(province, 0) if b.bonus else 0
        if b.has_mods:
            bonus += self.against(province, by)
        if b.kind[d] == MOVE:
            return 0 if self.resolve(d) else max(0, 1 + bonus)
        return max(0, 1 + bonus + self.support_count(d))

    def defend(self, i: int, by: int = -1) -> int:
        """DEFEND STRENGTH of move ``i`` in a head-to-head battle (against move ``by``)."""
        b = self.board
        bonus = b.bonus.get(b.prov[i], 0) if b.bonus else 0
        if b.has_mods:
            bonus += self.against(b.prov[i], by)
        return max(0, 1 + bonus + self.support_count(i))

    def prevent(self, i: int, by: int = -1) -> int:
        """PREVENT STRENGTH of move ``i`` against other moves to the same province (against
        move ``by``, if given: the variant may lower it against some powers)."""
        b = self.board
        if not self.path(i):
            return 0
        lowered = b.mods.prevent_against
        if lowered and by >= 0:
            change = lowered.get(b.prov[i], _NO_BONUS).get(b.units[by].power, 0)
            if change:
                return max(0, self.prevent(i) + change)
        j = b.opposite[i]
        if j >= 0:
            if self.literal_bounce:
                # 4.A.7 a: dislodged by a unit from there, however it came (when both go by
                # convoy and both succeed, the units swapped and no one was dislodged).
                if self.resolve(j) and not self.resolve(i):
                    return 0
            elif self.head_to_head(i) >= 0 and self.resolve(j):
                return 0
        return 1 + self.support_count(i)

    # -- decisions ----------------------------------------------------------------------------

    def adjudicate(self, i: int) -> bool:
        kind = self.board.kind[i]
        if kind == MOVE:
            return self.move(i)
        if kind == CONVOY:
            return self.convoy(i)
        if kind == BLOCK:
            return self.block(i)
        return self.support(i)

    def move(self, i: int) -> bool:
        b = self.board
        attack = self.attack(i)
        if attack == 0:
            return False
        opponent = self.head_to_head(i)
        if opponent >= 0:
            if attack <= self.defend(opponent, i):
                return False
        elif attack <= self.hold(b.dest[i], i):
            return False
        if b.mods.dislodge_requirements and self.requirement_fails(i) is not None:
            return False
        # (a loop, not all() over a generator, which costs a generator object and a frame
        # resumption per item: this runs for every move the solver decides)
        for k in b.moves_into[b.dest[i]]:  # noqa: SIM110
            if k != i and attack <= self.prevent(k, i):
                return False
        return True

    def support(self, s: int) -> bool:
        b = self.board
        units = b.units
        power = units[s].power
        aimed_at = b.dest[s] if b.kind[s] == SUPPORT_MOVE else None
        shielded = b.shielded[s]
        for j in b.moves_into.get(b.prov[s], ()):
            if units[j].power == power:
                continue  # a unit cannot cut the support of its own country (X.2)
            if shielded and j in shielded and self.by_convoy(j):
                continue  # the rulebook's paradox rule (4.A.2)
            if b.prov[j] == aimed_at and not (self.convoy_cuts_own_attack and self.by_convoy(j)):
                # Not cut by the unit it is aimed at, unless that unit dislodges it.
                if self.resolve(j):
                    return False
                continue
            if self.path(j):
                return False
        return True

    def convoy(self, c: int) -> bool:
        b = self.board
        if c in b.fragile:
            # a fragile convoy fails on any attack, as a support or a block is cut
            return self.block(c)
        for j in b.moves_into.get(b.prov[c], ()):  # noqa: SIM110 (a loop: see move())
            if self.resolve(j):
                return False
        return True
