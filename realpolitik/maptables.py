"""Tables the rules derive from a map once, and convoy route searches over them.

:func:`tables_for` builds a :class:`MapTables` the first time a variant is used and keeps it in
``variant.caches``, so that it lives exactly as long as the variant (no global cache). Everything
the legality checks and the adjudicator ask about the board is then a dictionary or set look-up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Final, cast

from realpolitik.caches import Bounded, CacheSlot
from realpolitik.geography import Map, Terrain, UnitType, province_of
from realpolitik.variant import Variant

__all__ = ["ConvoyReach", "MapTables", "Mover", "Occupant", "tables_for"]

Mover = tuple[str, str, UnitType, str]
"""(unit province, destination, unit type, unit location): a move some unit could make."""

Occupant = tuple[str, UnitType]
"""(location, unit type) of a unit: what a support to hold it names."""

ConvoyReach = tuple[frozenset[str], tuple[tuple[str, Mover, int], ...],
                    tuple[tuple[str, tuple[tuple[str, str], ...]], ...]]
"""What an army on a coast can do by convoy: the coastal provinces it could reach; (province,
move, the move's :meth:`MapTables.support_key`) for each such move to a province not next to it
by land; and (fleet, the (army province, destination) pairs the fleet is needed for on some
route with no fleet to spare, each once, sorted by destination)."""

_MAX_CONVOY_ANSWERS = 1024
"""How many answers :meth:`MapTables.convoy_reach` keeps (a few KB each: a few MB at most).
Answers depend on the army and the group of fleets joined to it, so a game asks the same ones
from phase to phase while its fleets stand still; those of games long over are dropped
first."""


class MapTables:
    """Adjacency and terrain of one map, in the shapes the rules need.

    Its tables are plain dictionaries typed as read-only ``Mapping``: mypy keeps the engine
    from changing them, and they are looked up hundreds of times a phase, where a
    ``MappingProxyType`` cost some 300 more instructions per ``.get()`` (it looks the method
    up on the dictionary behind it by name, each call)."""

    __slots__ = (
        "map",
        "provinces",
        "sea",
        "coastal",
        "shores",
        "land",
        "army_adj",
        "fleet_adj",
        "fleet_reach",
        "convoy_spaces",
        "convoy_adj",
        "convoy_shores",
        "shore_convoy_spaces",
        "any_adj",
        "coasts",
        "names",
        "home_of",
        "supply_centers",
        "centers_in_order",
        "location_index",
        "province_at",
        "sorted_near",
        "moves_from",
        "moves_into",
        "mover_keys",
        "occupant_keys",
        "support_keys",
        "_support_key_of",
        "_convoy_reach",
        "_convoy_moves",
        "convoy_order",
        "convoy_index",
        "_homes",
        "_convoy_bit",
        "_province_bit",
        "_shore_seas_mask",
        "_convoy_near_mask",
        "_convoy_shores_mask",
    )

    def __init__(self, the_map: Map, convoy_spaces: Iterable[str] | None = None) -> None:
        """``convoy_spaces``: the spaces whose fleets may convoy (by default the seas; a
        variant's hooks may add coastal spaces, :meth:`VariantHooks.convoy_spaces`)."""
        self.map = the_map
        provinces = the_map.provinces
        self.provinces: tuple[str, ...] = tuple(provinces)
        self.sea: frozenset[str] = frozenset(
            p for p, v in provinces.items() if v.terrain is Terrain.SEA
        )
        self.convoy_spaces: frozenset[str] = (
            self.sea if convoy_spaces is None else frozenset(convoy_spaces))
        """The spaces whose fleets may convoy: the seas, and any coastal spaces the variant
        declares (the convoy searches step only through these)."""
        self.coastal: frozenset[str] = frozenset(
            p for p, v in provinces.items() if v.terrain is Terrain.COAST
        )
        self.land: frozenset[str] = frozenset(
            p for p, v in provinces.items() if v.terrain in (Terrain.LAND, Terrain.COAST)
        )
        self.army_adj: Mapping[str, frozenset[str]] = (
            {p: the_map.army_neighbours(p) for p in provinces}
        )
        self.fleet_adj: Mapping[str, frozenset[str]] = (
            {loc: the_map.fleet_neighbours(loc) for loc in the_map.locations}
        )
        self.fleet_reach: Mapping[str, frozenset[str]] = (
            {loc: the_map.fleet_support_reach(loc) for loc in self.fleet_adj}
        )
        """Location -> the provinces a fleet there may support into (those it can move into,
        and those across support-only borders)."""
        # Province-level fleet adjacency, for convoy routes.
        fleet_prov: dict[str, set[str]] = {p: set() for p in provinces}
        for loc, near in self.fleet_adj.items():
            for other in near:
                fleet_prov[province_of(loc)].add(province_of(other))
        convoying = self.convoy_spaces
        # Land across a support-only border from a convoy space (a pole "armies may reach only
        # by convoy"): no fleet enters it, but the fleets of
        # that sea may land an army there or take one off.
        for sea in convoying:
            for land in self.fleet_reach.get(sea, frozenset()) - fleet_prov[sea]:
                if land in self.land:
                    fleet_prov[sea].add(land)
                    fleet_prov[land].add(sea)
        self.shores: frozenset[str] = self.coastal | frozenset(
            p for p in self.land if any(n in convoying for n in fleet_prov[p]))
        """Provinces an army may be convoyed from or to: the coastal ones, and land across a
        support-only border from a convoy space."""
        self.convoy_adj: Mapping[str, frozenset[str]] = (
            {s: frozenset(n for n in fleet_prov[s] if n in convoying) for s in convoying}
        )
        """Convoy space -> the convoy spaces next to it (by fleet)."""
        self.convoy_shores: Mapping[str, frozenset[str]] = (
            {s: frozenset(n for n in fleet_prov[s] if n in self.shores) for s in convoying}
        )
        """Convoy space -> the provinces an army could be convoyed from or to through it
        (:attr:`shores`)."""
        self.shore_convoy_spaces: Mapping[str, frozenset[str]] = (
            {p: frozenset(n for n in fleet_prov[p] if n in convoying) for p in self.shores}
        )
        """Province of :attr:`shores` -> the convoy spaces next to it."""
        self.any_adj: Mapping[str, frozenset[str]] = (
            {p: frozenset(fleet_prov[p] | set(self.army_adj[p])) for p in provinces}
        )
        """Province -> every province next to it by land or by sea (civil-disorder distances)."""
        # The convoy searches work on masks of provinces (bit ``k``: ``self.convoy_order[k]``):
        # a step is a few int operations rather than a set union per convoy space. The convoy
        # spaces are numbered first and the shores next, so that the masks the searches make
        # (of fleets, and of the shores they reach) stay within a machine word on a map of up
        # to 62 such provinces (the classical map has 61 of its 75): compiled, an int of more
        # than 62 bits is a boxed object, and every operation on it makes a new one.
        self.convoy_order: tuple[str, ...] = (
            tuple(p for p in self.provinces if p in convoying)
            + tuple(p for p in self.provinces if p in self.shores and p not in convoying)
            + tuple(p for p in self.provinces if p not in self.shores and p not in convoying))
        """The provinces as the convoy searches' masks number them (bit ``k``: the ``k``-th):
        the convoy spaces, then the other shores, then the rest, each in map order."""
        self.convoy_index: Mapping[str, int] = {p: k for k, p in enumerate(self.convoy_order)}
        """Province -> its place in :attr:`convoy_order` (its bit in the convoy masks)."""
        bit_at = {p: 1 << k for k, p in enumerate(self.convoy_order)}

        def mask_of(names: Iterable[str]) -> int:
            mask = 0
            for name in names:
                mask |= bit_at[name]
            return mask

        self._province_bit: dict[str, int] = bit_at
        """Province -> its bit."""
        self._convoy_bit: Mapping[str, int] = {p: bit_at[p] for p in convoying}
        """Convoy space -> its bit (other provinces are absent: their fleets never convoy)."""
        self._shore_seas_mask: Mapping[str, int] = (
            {p: mask_of(near) for p, near in self.shore_convoy_spaces.items()})
        """Province of :attr:`shores` -> the mask of :attr:`shore_convoy_spaces`."""
        self._convoy_near_mask: list[int] = [
            mask_of(self.convoy_adj.get(p, ())) for p in self.convoy_order]
        """Province index (:attr:`convoy_index`) -> the mask of :attr:`convoy_adj` (0 if not a
        convoy space)."""
        self._convoy_shores_mask: list[int] = [
            mask_of(self.convoy_shores.get(p, ())) for p in self.convoy_order]
        """Province index (:attr:`convoy_index`) -> the mask of :attr:`convoy_shores` (0 if
        not a convoy space)."""
        self.coasts: Mapping[str, tuple[str, ...]] = (
            {p: v.coasts for p, v in provinces.items()}
        )
        self.names: Mapping[str, str] = (
            {p: v.name for p, v in provinces.items()}
        )
        self.home_of: Mapping[str, str | None] = (
            {p: v.home_of for p, v in provinces.items()}
        )
        self.centers_in_order: tuple[str, ...] = the_map.supply_centers()
        """Every supply centre, in map order."""
        self.supply_centers: frozenset[str] = frozenset(self.centers_in_order)
        self.location_index: Mapping[str, int] = (
            {loc: i for i, loc in enumerate(the_map.locations)}
        )
        """Location -> its place in map order (for sorting)."""
        self.province_at: Mapping[str, str] = (
            {loc: province_of(loc) for loc in the_map.locations}
        )
        """Location -> its province (``province_of`` as one look-up, for the adjudicator)."""
        nearby: dict[tuple[UnitType, str], tuple[tuple[str, ...], tuple[str, ...]]] = {}
        for loc in the_map.locations:
            prov = province_of(loc)
            if loc == prov:
                nearby[UnitType.ARMY, loc] = (tuple(sorted(self.army_adj[prov])),
                                              tuple(sorted(self.army_adj[prov])))
            nearby[UnitType.FLEET, loc] = (tuple(sorted(self.fleet_adj[loc])),
                                           tuple(sorted(self.fleet_reach[loc])))
        self.sorted_near: Mapping[tuple[UnitType, str], tuple[tuple[str, ...], tuple[str, ...]]]
        self.sorted_near = nearby
        """(unit type, location) -> (where it can move, sorted; which provinces it can support
        into, sorted)."""
        moves: dict[tuple[UnitType, str], tuple[tuple[str, Mover], ...]] = {}
        for (utype, loc), (dests, _) in nearby.items():
            prov = province_of(loc)
            moves[utype, loc] = tuple(
                (province_of(d), (prov, d, utype, loc)) for d in dests)
        self.moves_from: Mapping[tuple[UnitType, str], tuple[tuple[str, Mover], ...]]
        self.moves_from = moves
        """(unit type, location) -> (province moved into, the move) for each move it can make
        without a convoy: made once, as the legal-order listing reads them every phase."""
        self.moves_into: Mapping[tuple[UnitType, str], tuple[str, ...]] = (
            {key: tuple(dest for dest, _ in made) for key, made in moves.items()})
        """(unit type, location) -> the provinces it can move into without a convoy."""
        # Supports are looked up by small ints rather than by tuples (hashing a tuple costs
        # more than the look-up): every move and every unit a support could name gets one.
        self.support_keys: list[Occupant | Mover] = []
        """Support key -> the unit (to hold) or the move it stands for."""
        self._support_key_of: dict[Occupant | Mover, int] = {}
        self.mover_keys: Mapping[tuple[UnitType, str], tuple[int, ...]] = (
            {key: tuple(self.support_key(mover) for _, mover in made)
             for key, made in moves.items()})
        """(unit type, location) -> the support keys of its moves, in step with ``moves_into``."""
        self.occupant_keys: Mapping[tuple[UnitType, str], int] = (
            {(utype, loc): self.support_key((loc, utype)) for utype, loc in nearby})
        """(unit type, location) -> the support key of that unit."""
        self._convoy_reach: Bounded[tuple[str, frozenset[str]], ConvoyReach] = Bounded(
            _MAX_CONVOY_ANSWERS)
        self._convoy_moves: dict[str, dict[str, tuple[str, Mover, int]]] = {}
        """Army province -> destination -> (destination, the move by convoy there, its support
        key), as met (bounded by the map: shores by shores). Looked up by the two names, not
        by the move, whose unit type hashes through a Python call."""
        homes: dict[str, list[str]] = {}
        for province in self.provinces:
            owner = self.home_of[province]
            if owner is not None:
                homes.setdefault(owner, []).append(province)
        self._homes: dict[str, tuple[str, ...]] = {p: tuple(hs) for p, hs in homes.items()}

    def support_key(self, named: Occupant | Mover) -> int:
        """The small int that stands for a unit or a move a support names (made on first use;
        :attr:`support_keys` maps it back)."""
        key = self._support_key_of.get(named)
        if key is None:
            key = self._support_key_of[named] = len(self.support_keys)
            self.support_keys.append(named)
        return key

    def homes_of(self, power: str) -> tuple[str, ...]:
        """The home centres of ``power``, in map order."""
        return self._homes.get(power, ())

    # -- unit moves ---------------------------------------------------------------------------

    def can_stand(self, unit_type: UnitType, location: str) -> bool:
        """True if a unit of this type may stand at ``location``."""
        return self.map.can_hold(unit_type, location)

    def reach(self, unit_type: UnitType, location: str) -> frozenset[str]:
        """Provinces a unit at ``location`` can move into without a convoy (the support test)."""
        if unit_type is UnitType.ARMY:
            return self.army_adj.get(province_of(location), frozenset())
        return self.fleet_reach.get(location, frozenset())

    # -- convoys ------------------------------------------------------------------------------

    def fleet_groups(self, fleets: frozenset[str]) -> dict[str, frozenset[str]]:
        """Convoy space holding a fleet -> every convoy space holding a fleet joined to it by a
        chain of them (a convoy space is a sea, or a coastal space the variant lets convoy).

        Only the group next to an army matters to its convoys, so answers kept per group
        (:meth:`convoy_reach`) stay good while fleets elsewhere move.
        """
        convoy_adj = self.convoy_adj
        group_of: dict[str, frozenset[str]] = {}
        for sea in fleets:
            if sea in group_of:
                continue
            seen = {sea}
            todo = [sea]
            while todo:
                for nxt in convoy_adj[todo.pop()]:
                    if nxt in fleets and nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
            group = frozenset(seen)
            for member in seen:
                group_of[member] = group
        return group_of

    def convoy_reach(self, origin: str, group: frozenset[str]) -> ConvoyReach:
        """What an army in the coastal province ``origin`` can do by convoy through the fleets
        ``group`` (the fleets joined to it, :meth:`fleet_groups`): see :data:`ConvoyReach`.
        Kept per (origin, group), up to a bound."""
        key = (origin, group)
        known = self._convoy_reach.get(key)
        if known is not None:
            return known
        convoy_bit = self._convoy_bit
        at_sea = 0
        for fleet in group:
            at_sea |= convoy_bit.get(fleet, 0)
        known = self._convoy_reach[key] = self.convoy_reach_of_mask(origin, at_sea)
        return known

    def convoy_reach_of_mask(self, origin: str, at_sea: int) -> ConvoyReach:
        """:meth:`convoy_reach` of the fleets in the convoy spaces of mask ``at_sea`` (bit
        ``k``: :attr:`convoy_order`'s ``k``-th), worked out now (not kept: the caller keeps
        its answers, the listing by the mask)."""
        # (on masks, the names made only for the answer: the searches by name made a set or
        # two per step)
        names = self.convoy_order
        shores = self.convoy_reach_mask(origin, at_sea)
        reached = sorted(_names_of(names, shores))
        reach = frozenset(reached)
        land = self.army_adj.get(origin, frozenset())
        by_destination = self._convoy_moves.get(origin)
        if by_destination is None:
            by_destination = self._convoy_moves[origin] = {}
        # (the moves and pairs held as objects, not as their tuple types: compiled, a value
        # of a fixed-length tuple type is unpacked into a native struct and packed again, a
        # new tuple (two for a move and its mover), each time it is stored or passed on)
        moves: list[object] = []
        for dest in reached:
            if dest not in land:
                move: object = by_destination.get(dest)
                if move is None:
                    mover = (origin, dest, UnitType.ARMY, origin)
                    move = by_destination[dest] = (dest, mover, self.support_key(mover))
                moves.append(move)
        needed: list[object] = []
        if shores:
            # (a fleet's destinations are among the shores reached: picked from their sorted
            # names by bit, not named and sorted again for every fleet)
            pairs: list[object] = [(origin, dest) for dest in reached]
            province_bit = self._province_bit
            bits = [province_bit[dest] for dest in reached]
            for index, ends in self.needed_fleets(origin, at_sea).items():
                needed.append((names[index], tuple([
                    pairs[number] for number in range(len(bits)) if ends & bits[number]])))
        return (reach, cast("tuple[tuple[str, Mover, int], ...]", tuple(moves)),
                cast("tuple[tuple[str, tuple[tuple[str, str], ...]], ...]", tuple(needed)))

    def needed_fleets(self, origin: str, fleets: int) -> dict[int, int]:
        """:meth:`minimal_routes` of an army in ``origin`` on masks (``fleets``: the mask of the
        provinces holding a fleet, bit ``k`` for ``convoy_order[k]``; only convoy spaces are
        stepped on): the index of each fleet on some route with no fleet to spare -> the mask
        of the destinations it is on such a route to. Up to 10,000 routes are walked, as
        :meth:`minimal_routes` returns."""
        needed: dict[int, int] = {}
        origin_bit = self._province_bit.get(origin)
        if origin_bit is None or origin not in self.shores:
            return needed
        origin_seas = self._shore_seas_mask.get(origin, 0) & fleets
        seas = origin_seas
        routes = 0
        while seas:  # (each first fleet in turn: the answer is a union, in any order)
            first = seas & -seas
            seas ^= first
            routes = self._walk_needed([first.bit_length() - 1], first, 0, 0, fleets,
                                       origin_seas, origin_bit, needed, routes)
        return needed

    def _walk_needed(self, chain: list[int], in_chain: int, earlier_shores: int, earlier: int,
                     fleets: int, barred: int, origin_bit: int, needed: dict[int, int],
                     routes: int) -> int:
        """One step of :meth:`needed_fleets` (a method, not a closure: compiled, a native
        call): the chain ``chain`` (indices; ``in_chain`` its mask, ``earlier`` the mask of
        all but its last space, ``earlier_shores`` the shores those touch) and the chains that
        extend it, as :meth:`minimal_routes` walks them; how many routes were found so far."""
        if routes >= 10_000:
            return routes
        last = chain[-1]
        last_shores = self._convoy_shores_mask[last]
        ends = last_shores & ~earlier_shores & ~origin_bit
        if ends:
            routes += 1
            for index in chain:
                needed[index] = needed.get(index, 0) | ends
        covered = earlier_shores | last_shores
        with_last = earlier | 1 << last
        near_mask = self._convoy_near_mask
        # (a fleet on the chain or next to the origin (``barred``) is never the next step; nor
        # one that touches the chain but its last space: an induced path)
        steps = near_mask[last] & fleets & ~in_chain & ~barred
        while steps:
            bit = steps & -steps
            steps ^= bit
            nxt = bit.bit_length() - 1
            if near_mask[nxt] & earlier:
                continue
            chain.append(nxt)
            routes = self._walk_needed(chain, in_chain | bit, covered, with_last, fleets,
                                       barred, origin_bit, needed, routes)
            chain.pop()
        return routes

    def convoy_reachable(self, origin: str, fleets: Iterable[str], without: str = "",
                         ) -> frozenset[str]:
        """Coastal provinces an army in ``origin`` could reach through the convoy spaces in
        ``fleets`` (but not through ``without``).

        ``fleets`` are the provinces holding a fleet. ``origin`` itself is not included.
        """
        shores = self._reachable_mask(origin, fleets, without)
        names = self.convoy_order
        found: list[str] = []
        while shores:
            bit = shores & -shores
            shores ^= bit
            found.append(names[bit.bit_length() - 1])
        return frozenset(found)

    def _reachable_mask(self, origin: str, fleets: Iterable[str], without: str) -> int:
        """:meth:`convoy_reachable` as a mask of provinces (bit ``k``: ``convoy_order[k]``)."""
        # (on masks: provinces in ``fleets`` that are not convoy spaces have no bit, so they are
        # never stepped on)
        convoy_bit = self._convoy_bit
        at_sea = 0
        for fleet in fleets:
            at_sea |= convoy_bit.get(fleet, 0)
        if without:
            at_sea &= ~convoy_bit.get(without, 0)
        return self.convoy_reach_mask(origin, at_sea)

    def convoy_reach_mask(self, origin: str, fleets: int) -> int:
        """:meth:`convoy_reachable` on masks of provinces (bit ``k``: ``convoy_order[k]``,
        :attr:`convoy_index`): ``fleets`` the mask of the provinces holding a fleet; the mask
        of the shores reached. Only convoy spaces are stepped on, whatever else ``fleets``
        holds."""
        seen = frontier = self._shore_seas_mask.get(origin, 0) & fleets
        if not frontier:
            return 0
        convoy_near, convoy_shores = self._convoy_near_mask, self._convoy_shores_mask
        shores = 0
        while frontier:
            near = 0
            while frontier:
                bit = frontier & -frontier
                frontier ^= bit
                index = bit.bit_length() - 1
                near |= convoy_near[index]
                shores |= convoy_shores[index]
            frontier = near & fleets & ~seen
            seen |= frontier
        return shores & ~self._province_bit[origin]

    def has_convoy_route(self, origin: str, destination: str, fleets: Iterable[str],
                         without: str = "") -> bool:
        """True if convoy spaces holding fleets (``fleets``, but not ``without``) join ``origin`` to
        ``destination``."""
        # (one bit tested: the reached shores are not turned into names)
        return destination != origin and bool(
            self._reachable_mask(origin, fleets, without)
            & self._province_bit.get(destination, 0))

    def open_sea_route(self, origin: str, destination: str, fleets: AbstractSet[str],
                       ends: AbstractSet[str], empty: AbstractSet[str], without: str = "",
                       ) -> frozenset[str]:
        """The convoy spaces of the chains that join ``origin`` to ``destination`` when empty
        seas may carry an army (a variant's rule), or an empty set if none does.

        A chain starts at a space of ``ends`` next to ``origin`` and ends at one next to
        ``destination`` (spaces holding fleets that may end such a convoy), and in between
        steps on spaces holding fleets (``fleets``) or on ``empty`` ones; ``without`` is left
        out. What is returned is every space connected to such a start through the chain's
        spaces (a fleet there may convoy: it is on some walk from the army to the
        destination).
        """
        start = (self.shore_convoy_spaces.get(origin, frozenset()) & ends) - {without}
        finish = (self.shore_convoy_spaces.get(destination, frozenset()) & ends) - {without}
        if not start or not finish or destination == origin:
            return frozenset()
        seen = set(start)
        todo = list(start)
        convoy_adj = self.convoy_adj
        while todo:
            here = todo.pop()
            for nxt in convoy_adj[here]:
                if nxt not in seen and nxt != without and (nxt in fleets or nxt in empty):
                    seen.add(nxt)
                    todo.append(nxt)
        return frozenset(seen) if not finish.isdisjoint(seen) else frozenset()

    def minimal_routes(
        self, origin: str, fleets: Iterable[str], destination: str | None = None,
        *, limit: int = 10_000,
    ) -> list[tuple[tuple[str, ...], frozenset[str]]]:
        """Every route of fleets with no fleet to spare, from ``origin``.

        A route is a chain of convoy spaces holding fleets ``s1 .. sk``: ``s1`` next to the
        origin, each next to the one before, ``sk`` next to the destination. A route has no fleet
        to spare when no other space of the chain is next to the origin, none but the last is
        next to the destination, and no two spaces but neighbours in the chain touch (every fleet is
        *necessary* for it, DATC 4.E.1 and 6.G.19). Returns ``(chain, destinations)`` pairs: the
        destinations for which the chain is such a route (only ``destination`` if given).
        """
        # (only convoy spaces are stepped on: other provinces in ``fleets`` do no harm)
        at_sea = fleets if isinstance(fleets, (set, frozenset)) else frozenset(fleets)
        if origin not in self.shores:
            return []
        out: list[tuple[tuple[str, ...], frozenset[str]]] = []
        convoy_adj = self.convoy_adj
        shores = self.convoy_shores
        origin_seas = self.shore_convoy_spaces[origin] & at_sea

        province_bit, near_mask = self._province_bit, self._convoy_near_mask
        # (``earlier``: the mask of the chain but its last space, for the induced-path test)

        def walk(chain: list[str], in_chain: set[str], earlier_shores: frozenset[str],
                 earlier: int) -> None:
            if len(out) >= limit:
                return
            last = chain[-1]
            ends = shores[last] - earlier_shores - {origin}
            if destination is not None:
                ends = ends & {destination}
            if ends:
                out.append((tuple(chain), frozenset(ends)))
            if destination is not None and destination in earlier_shores | shores[last]:
                return  # a longer chain through here would spare the last fleet
            covered = earlier_shores | shores[last]
            with_last = earlier | province_bit[last]
            for nxt in convoy_adj[last]:
                if nxt not in at_sea or nxt in in_chain or nxt in origin_seas:
                    continue
                # Induced path: nxt may touch only ``last`` among the chain.
                bit = province_bit[nxt]
                if near_mask[bit.bit_length() - 1] & earlier:
                    continue
                chain.append(nxt)
                in_chain.add(nxt)
                walk(chain, in_chain, covered, with_last)
                chain.pop()
                in_chain.discard(nxt)

        for first in sorted(origin_seas):
            walk([first], {first}, frozenset(), 0)
        return out


def _names_of(names: tuple[str, ...], mask: int) -> list[str]:
    """The names of the provinces in ``mask`` (bit ``k``: ``names[k]``), lowest first."""
    found: list[str] = []
    while mask:
        bit = mask & -mask
        mask ^= bit
        found.append(names[bit.bit_length() - 1])
    return found


def _build_tables(variant: Variant) -> MapTables:
    return MapTables(variant.map, variant.hooks.convoy_spaces(variant))


tables_for: Final[CacheSlot[Variant, MapTables]] = CacheSlot("map tables", _build_tables)
"""``tables_for(variant)``: the :class:`MapTables` of a variant, built on first use and kept in
``variant.caches`` (one per variant; its convoy answers are :class:`Bounded` tables)."""
