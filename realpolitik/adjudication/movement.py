"""The movement phase: set up the board, resolve every decision, apply the moves, explain.

The pipeline (as godip's ``State.Next``): check each order (an illegal one is void and its unit
holds, with the reason); give unordered units a hold; build the :class:`Board`; resolve every
decision with the guess-and-check :class:`Resolver` and the backup rule; then, once everything is
decided, move the units, list the dislodged units with their retreats and the stand-offs, and
write one sentence per order.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress
from types import MappingProxyType

from realpolitik.adjudication.backup import backup_rule
from realpolitik.adjudication.equations import (
    CONVOY,
    HOLD,
    LAND,
    MOVE,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    Board,
    Equations,
    fleets_on_routes,
)
from realpolitik.adjudication.explain import and_list, versus
from realpolitik.adjudication.outcomes import Detail, OrderResult, Outcome, Resolution, Result
from realpolitik.adjudication.resolver import Resolver
from realpolitik.adjudication.setup import Accepted, accept_orders, void_result
from realpolitik.legality import retreat_options
from realpolitik.maptables import tables_for
from realpolitik.orders import Order
from realpolitik.position import DislodgedUnit, Position, Unit, moved_unit
from realpolitik.rules import Rules

__all__ = ["adjudicate_movement"]

# Enum members looked up once (a class attribute look-up on an enum is slow).
_BOUNCED = Outcome.BOUNCED
_CONVOYED = Outcome.CONVOYED
_CONVOY_DISRUPTED = Outcome.CONVOY_DISRUPTED
_CROSSING_CLOSED = Outcome.CROSSING_CLOSED
_CUT = Outcome.CUT
_DISLODGED = Outcome.DISLODGED
_HELD = Outcome.HELD
_MOVED = Outcome.MOVED
_NO_CONVOY = Outcome.NO_CONVOY
_NO_EFFECT = Outcome.NO_EFFECT
_PARADOX = Outcome.PARADOX
_SELF_DISLODGE = Outcome.SELF_DISLODGE
_SUPPORTED = Outcome.SUPPORTED
_UNMATCHED = Outcome.UNMATCHED
_FAILS = Result.FAILS
_SUCCEEDS = Result.SUCCEEDS


def _unset(decision: int) -> bool:  # pragma: no cover - replaced before use
    raise AssertionError("the equations have no resolver yet")


def adjudicate_movement(position: Position, orders: Iterable[Order], rules: Rules, *,
                        checked: bool = False) -> Resolution:
    """Resolve a movement phase (``checked``: the caller vouches that every order is legal)."""
    given = tuple(orders)
    return _resolve(position, given, rules, checked).resolution(
        _Explainer(position, given, rules, checked))


def _resolve(position: Position, orders: tuple[Order, ...], rules: Rules,
             checked: bool = False) -> _Outcome:
    """Accept the orders, build the board and settle every decision."""
    tables = tables_for(position.variant)
    provinces = sorted(position.units)
    units = [position.units[p] for p in provinces]
    index = {p: i for i, p in enumerate(provinces)}
    accepted = accept_orders(position, orders, rules, index, checked=checked)
    variant = position.variant
    board = Board(units, accepted.unit_orders, tables, rules, provinces, index,
                  variant_rules=variant.rules,
                  defence_bonus=variant.hooks.defence_bonuses(position))
    paradoxes: set[int] = set()
    equations = Equations(board, rules, _unset)
    resolver = Resolver(board.n, equations.adjudicate,
                        backup_rule(board.kind, rules.convoy_paradox, paradoxes))
    equations.resolve = resolver.resolve  # the equations read decisions through the solver
    kind, matched, prov, at = board.kind, board.matched, board.prov, board.at
    moves_into, route, dest = board.moves_into, board.route, board.dest
    conditional = board.conditional
    settle = resolver.settle
    # Decisions whose equation reads no other decision are settled here, outside the solver.
    left: list[int] = []
    for i in range(board.n):
        k = kind[i]
        if k == HOLD:
            settle(i, True)
        elif not matched[i]:
            settle(i, False)
        elif k == MOVE:
            # over land into an empty province no one else moves to: nothing can stop it
            if route[i] == LAND and dest[i] not in at and len(moves_into[dest[i]]) == 1 \
                    and not conditional[i]:
                settle(i, True)
            else:
                left.append(i)
        elif prov[i] not in moves_into:
            settle(i, True)  # a support or convoy that nobody attacks
        else:
            left.append(i)
    is_resolved, resolve = resolver.is_resolved, resolver.resolve
    for i in left:
        if not is_resolved(i):
            resolve(i)
    # Every decision is final: the solver no longer needs the equations, and dropping them
    # breaks the solver <-> equations cycle so that the phase's state is freed at once.
    resolver.finish()
    return _Outcome(position, board, equations, resolver, paradoxes, accepted, rules)


class _Outcome:
    """Applies and explains a resolved movement phase."""

    def __init__(self, position: Position, board: Board, equations: Equations,
                 resolver: Resolver, paradoxes: set[int], accepted: Accepted,
                 rules: Rules) -> None:
        self.position = position
        self.board = board
        self.eq = equations
        self.value = resolver.value
        self.paradoxes = paradoxes
        self.accepted = accepted
        self.rules = rules
        b = board
        n = b.n
        moved = self.moved = [k == MOVE and v for k, v in zip(b.kind, self.value, strict=True)]
        dislodged_by = [-1] * n
        at, dest = b.at, b.dest
        for i in compress(range(n), moved):
            d = at.get(dest[i], -1)
            if d >= 0 and not moved[d]:
                dislodged_by[d] = i
        self.dislodged_by = dislodged_by
        self._unit_texts: list[str | None] = [None] * n
        self._order_texts: list[str | None] = [None] * n

    # -- texts ---------------------------------------------------------------------------------

    def unit_text(self, i: int) -> str:
        text = self._unit_texts[i]
        if text is None:
            text = self._unit_texts[i] = str(self.board.units[i])
        return text

    def order_text(self, i: int) -> str:
        text = self._order_texts[i]
        if text is None:
            order = self.board.orders[i]
            text = str(order) if order is not None else f"{self.unit_text(i)} H"
            self._order_texts[i] = text
        return text

    # -- the next position -------------------------------------------------------------------

    def resolution(self, explainer: _Explainer) -> Resolution:
        """The next board and the results, whose sentences ``explainer`` writes on demand."""
        b = self.board
        position = self.position
        new_units: dict[str, Unit] = {}
        dislodged: list[DislodgedUnit] = []
        moved, dislodged_by = self.moved, self.dislodged_by
        units, prov, dest, dest_loc = b.units, b.prov, b.dest, b.dest_loc
        annihilated = position.variant.hooks.annihilated_when_dislodged
        for i in range(b.n):
            if moved[i]:
                new_units[dest[i]] = moved_unit(units[i], dest_loc[i])
            elif dislodged_by[i] < 0:
                new_units[prov[i]] = units[i]
            elif not annihilated(position, units[i]):
                j = dislodged_by[i]
                dislodged.append(DislodgedUnit(units[i], prov[j], self.eq.by_convoy(j)))
        standoffs = self.standoffs(new_units)
        options = {
            d.unit.location: retreat_options(position, d, rules=self.rules, occupied=new_units,
                                             standoffs=standoffs)
            for d in dislodged
        }
        results = self.results(explainer)
        ordered_units = {p: new_units[p] for p in sorted(new_units)}
        return Resolution(
            phase=position.phase,
            results=results,
            units=MappingProxyType(ordered_units),
            dislodged=tuple(dislodged),
            retreat_options=MappingProxyType(options),
            standoffs=standoffs,
        )

    def standoffs(self, new_units: dict[str, Unit]) -> frozenset[str]:
        """Provinces left empty where a move bounced off another move's prevent strength."""
        b = self.board
        out: set[str] = set()
        for province, movers in b.moves_into.items():
            if province in new_units or len(movers) < 2:
                continue
            for i in movers:
                if self.moved[i]:
                    continue
                attack = self.eq.attack(i)
                if attack and any(k != i and self.eq.prevent(k) >= attack for k in movers):
                    out.add(province)
                    break
        return frozenset(out)

    # -- results ------------------------------------------------------------------------------

    def results(self, explainer: _Explainer) -> _Results:
        """One result per order given. The outcome is decided here; the result objects are
        made when first read (:class:`_Results`), and their sentences, the units that caused
        them and the strengths when those are first read (:class:`_Explainer`)."""
        classify, moved = self.classify, self.moved
        # (a unit that moved is the commonest case, answered without a call)
        outcomes: list[Outcome | None] = [
            None if i < 0 else _MOVED if moved[i] else classify(i)
            for i in self.accepted.unit_of]
        for k in self.accepted.illegal:
            outcomes[k] = None
        return _Results(self.accepted, outcomes, explainer)

    def classify(self, i: int) -> Outcome:
        """The outcome of the order of unit ``i`` (whether it succeeded follows from it)."""
        b = self.board
        kind = b.kind[i]
        dislodged = self.dislodged_by[i] >= 0
        if kind == MOVE:
            if self.moved[i]:
                return _MOVED
            return _DISLODGED if dislodged else self.failure_kind(i)
        if kind in (SUPPORT_HOLD, SUPPORT_MOVE):
            if not b.matched[i]:
                return _UNMATCHED
            if self.value[i]:
                return _SUPPORTED
            return _DISLODGED if dislodged else _CUT
        if kind == CONVOY:
            if not b.matched[i]:
                return _UNMATCHED
            if i in self.paradoxes:
                return _PARADOX
            if dislodged:
                return _DISLODGED
            if self.carried(i):
                return _CONVOYED
            return _NO_EFFECT
        return _DISLODGED if dislodged else _HELD

    def failure_kind(self, i: int) -> Outcome:
        """Why move ``i`` failed (its unit not dislodged): no path, own unit, or a bounce."""
        b = self.board
        if b.conditional[i] and not self.eq.crossing_open(i):
            return _CROSSING_CLOSED
        if not self.eq.path(i):
            fleets = b.route_union[i]
            if not fleets:
                return _NO_CONVOY
            if any(c in self.paradoxes for c in fleets):
                return _PARADOX
            return _CONVOY_DISRUPTED
        d = b.at.get(b.dest[i], -1)
        if d >= 0 and b.power[d] == b.power[i] and self.eq.attack(i) == 0:
            return _SELF_DISLODGE
        return _BOUNCED

    def carried(self, c: int) -> bool:
        """True if the convoying fleet ``c`` carried its army (on a route of fleets that held)."""
        t = self.board.target[c]
        return (self.moved[t] and self.board.route[t] != LAND and self.eq.by_convoy(t)
                and c in self.working_fleets(t))

    def detail_of(self, i: int, given: Order, power: str) -> Detail:
        full = self.result_of(i, given, power)
        outcome = self.classify(i)
        assert (full.result, full.outcome) == (_RESULT_OF[outcome], outcome), str(given)
        return full.detail()

    def result_of(self, i: int, given: Order, power: str) -> OrderResult:
        kind = self.board.kind[i]
        if kind == MOVE:
            return self.move_result(i, given, power)
        if kind in (SUPPORT_HOLD, SUPPORT_MOVE):
            return self.support_result(i, given, power)
        if kind == CONVOY:
            return self.convoy_result(i, given, power)
        return self.hold_result(i, given, power)

    def dislodged_clause(self, i: int) -> tuple[str, int]:
        j = self.dislodged_by[i]
        attack = self.eq.attack(j)
        return f"{self.order_text(j)} {versus(attack, self.eq.hold(self.board.prov[i]))}", j

    def hold_result(self, i: int, given: Order, power: str) -> OrderResult:
        text = self.order_text(i)
        if self.dislodged_by[i] >= 0:
            by, j = self.dislodged_clause(i)
            return OrderResult(
                given, power, _FAILS, _DISLODGED,
                f"{text} failed: it was dislodged by {by}.",
                by=(self.order_text(j),), strength=self.eq.hold(self.board.prov[i]),
                opposed_by=self.eq.attack(j),
            )
        attackers = [self.order_text(j) for j in self.board.moves_into.get(self.board.prov[i], ())
                     if self.eq.path(j)]
        if attackers:
            return OrderResult(given, power, _SUCCEEDS, _HELD,
                               f"{text} held against {and_list(attackers)}.",
                               by=tuple(attackers), strength=self.eq.hold(self.board.prov[i]))
        return OrderResult(given, power, _SUCCEEDS, _HELD, f"{text} held.",
                           strength=self.eq.hold(self.board.prov[i]))

    def move_result(self, i: int, given: Order, power: str) -> OrderResult:
        b, eq = self.board, self.eq
        text = self.order_text(i)
        if self.moved[i]:
            attack = eq.attack(i)
            d = b.at.get(b.dest[i], -1)
            how = " by convoy" if eq.by_convoy(i) else ""
            if d >= 0 and self.dislodged_by[d] == i:
                resisted = eq.defend(d) if eq.head_to_head(i) >= 0 else eq.hold(b.dest[i])
                return OrderResult(
                    given, power, _SUCCEEDS, _MOVED,
                    f"{text} moved{how}, dislodging {self.unit_text(d)} "
                    f"{versus(attack, resisted)}.",
                    by=(self.unit_text(d),), strength=attack, opposed_by=resisted,
                )
            return OrderResult(given, power, _SUCCEEDS, _MOVED, f"{text} moved{how}.",
                               strength=attack)
        outcome, reason, by, attack, opposed = self.move_failure(i)
        if self.dislodged_by[i] >= 0:
            clause, j = self.dislodged_clause(i)
            reason = f"{reason}, and the unit was dislodged by {clause}"
            outcome = _DISLODGED
        return OrderResult(given, power, _FAILS, outcome, f"{text} failed: {reason}.",
                           by=by, strength=attack, opposed_by=opposed)

    def crossing_failure(self, i: int) -> tuple[Outcome, str, tuple[str, ...], int, int | None]:
        """The sentence of a move stopped at a conditional border or a corner."""
        why, where, units = self.eq.closed_crossing(i)
        names = tuple(self.unit_text(j) for j in units)
        place = self.position.variant.map.name(where) if why in ("fleet", "standoff") else where
        if why == "clash":
            text = f"the corner {place} was crossed in more than one direction (by " \
                   f"{and_list(names)})"
        elif why == "blocked":
            text = f"the corner {place} was blocked by {and_list(names)}"
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
            return (_CONVOY_DISRUPTED,
                    f"the convoy was disrupted when {and_list(names)} "
                    f"{'was' if len(names) == 1 else 'were'} dislodged",
                    tuple(names), 0, None)
        attack = eq.attack(i)
        d = b.at.get(b.dest[i], -1)
        if kind is _SELF_DISLODGE:
            unit = self.unit_text(d)
            return (_SELF_DISLODGE,
                    f"it may not dislodge {unit}, a unit of its own country", (unit,), 0, None)
        opponents: list[tuple[str, int]] = []
        h2h = eq.head_to_head(i)
        if h2h >= 0:
            defend = eq.defend(h2h)
            if defend >= attack:
                opponents.append((self.order_text(h2h), defend))
                what = "lost the head-to-head battle with" if defend > attack else \
                    "bounced in a head-to-head battle with"
                first = f"it {what} {self.order_text(h2h)} {versus(attack, defend)}"
            else:
                first = ""
        else:
            hold = eq.hold(b.dest[i])
            if d >= 0 and hold >= attack:
                opponents.append((self.unit_text(d), hold))
                first = f"it bounced off {self.unit_text(d)} {versus(attack, hold)}"
            else:
                first = ""
        rivals = []
        for k in b.moves_into[b.dest[i]]:
            if k != i:
                prevent = eq.prevent(k)
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

    def support_result(self, s: int, given: Order, power: str) -> OrderResult:
        b, eq = self.board, self.eq
        text = self.order_text(s)
        if not b.matched[s]:
            t = b.target[s]
            if b.kind[s] == SUPPORT_HOLD:
                why = f"{self.unit_text(t)} was ordered to move, so it cannot be supported " \
                      f"in place"
            elif b.kind[t] == MOVE:
                why = f"{self.unit_text(t)} moved to {b.dest_loc[t].upper()}, not " \
                      f"{b.dest_loc[s].upper()}"
            else:
                why = f"{self.unit_text(t)} did not move to {b.dest_loc[s].upper()}"
            return OrderResult(given, power, _FAILS, _UNMATCHED,
                               f"{text} had no effect: {why}.", by=(self.unit_text(t),))
        if self.value[s]:
            return OrderResult(given, power, _SUCCEEDS, _SUPPORTED,
                               f"{text} was given.")
        if self.dislodged_by[s] >= 0:
            clause, j = self.dislodged_clause(s)
            return OrderResult(given, power, _FAILS, _DISLODGED,
                               f"{text} was cut: the supporting unit was dislodged by {clause}.",
                               by=(self.order_text(j),))
        cutters = [self.order_text(j) for j in b.moves_into.get(b.prov[s], ())
                   if b.power[j] != b.power[s] and eq.path(j)]
        return OrderResult(given, power, _FAILS, _CUT,
                           f"{text} was cut by the attack of {and_list(cutters)}.",
                           by=tuple(cutters))

    def convoy_result(self, c: int, given: Order, power: str) -> OrderResult:
        b, eq = self.board, self.eq
        text = self.order_text(c)
        t = b.target[c]
        if not b.matched[c]:
            if t >= 0 and b.kind[t] == MOVE:
                why = f"{self.unit_text(t)} was ordered to {b.dest_loc[t].upper()}"
            else:
                why = f"{self.unit_text(t)} was not ordered to {b.dest[c].upper()}" if t >= 0 \
                    else "there is no army to convoy"
            return OrderResult(given, power, _FAILS, _UNMATCHED,
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
            return OrderResult(given, power, _FAILS, _PARADOX, f"{reason}.", by=by)
        if self.dislodged_by[c] >= 0:
            clause, j = self.dislodged_clause(c)
            return OrderResult(given, power, _FAILS, _DISLODGED,
                               f"{text} failed: the fleet was dislodged by {clause}.",
                               by=(self.order_text(j),))
        army = self.order_text(t)
        if self.carried(c):
            return OrderResult(given, power, _SUCCEEDS, _CONVOYED,
                               f"{text} convoyed the army.", by=(army,))
        if b.route[t] == LAND or not eq.by_convoy(t):
            return OrderResult(given, power, _FAILS, _NO_EFFECT,
                               f"{text} had no effect: {army} did not go by convoy.",
                               by=(army,))
        if not self.moved[t]:
            return OrderResult(given, power, _FAILS, _NO_EFFECT,
                               f"{text} had no effect: {army} failed.", by=(army,))
        return OrderResult(given, power, _FAILS, _NO_EFFECT,
                           f"{text} had no effect: {army} went by another route.", by=(army,))

    def working_fleets(self, t: int) -> frozenset[int]:
        """The fleets of move ``t`` on some route whose fleets all held their place."""
        b = self.board
        alive = {c for c in b.route_union[t] if self.value[c]}
        graph = {c: tuple(x for x in b.route_graph[t][c] if x in alive) for c in alive}
        return frozenset(fleets_on_routes(sorted(b.route_start[t] & alive), b.route_end[t],
                                          graph))


_RESULT_OF: dict[Outcome, Result] = {
    outcome: _SUCCEEDS if outcome in (_MOVED, _HELD, _SUPPORTED, _CONVOYED) else _FAILS
    for outcome in Outcome
}
"""A movement order succeeded exactly when its outcome is one of these four."""


class _Results:
    """Makes a movement phase's results the first time they are read: only their outcome
    codes are kept until then."""

    __slots__ = ("_given", "_powers", "_illegal", "_outcomes", "_explainer")

    def __init__(self, accepted: Accepted, outcomes: list[Outcome | None],
                 explainer: _Explainer) -> None:
        self._given = accepted.given
        self._powers = accepted.powers
        self._illegal = accepted.illegal
        self._outcomes = outcomes
        self._explainer = explainer

    def __call__(self) -> tuple[OrderResult, ...]:
        illegal = self._illegal
        lazy = OrderResult.explained_later
        explainer = self._explainer
        out: list[OrderResult] = []
        for k, (given, power, outcome) in enumerate(zip(self._given, self._powers,
                                                         self._outcomes, strict=True)):
            if outcome is None:
                out.append(void_result(given, power, illegal[k]))
            else:
                out.append(lazy(given, power, _RESULT_OF[outcome], outcome, explainer, k))
        return tuple(out)


class _Explainer:
    """Writes the sentences of a movement phase's results the first time one is read.

    It keeps only the phase's position, orders and rules, and adjudicates them again to write
    the sentences (the adjudication is a pure function): most results are never read, and
    keeping the whole adjudication state alive with each result would cost memory and
    garbage-collection time for every phase a game has played.
    """

    __slots__ = ("_position", "_orders", "_rules", "_checked", "_details")

    def __init__(self, position: Position, orders: tuple[Order, ...], rules: Rules,
                 checked: bool) -> None:
        self._position = position
        self._orders = orders
        self._rules = rules
        self._checked = checked
        self._details: list[Detail | None] | None = None

    def detail(self, k: int) -> Detail:
        """The detail of the ``k``-th order given."""
        details = self._details
        if details is None:
            outcome = _resolve(self._position, self._orders, self._rules, self._checked)
            accepted = outcome.accepted
            details = [
                None if k in accepted.illegal else outcome.detail_of(unit_index, given, power)
                for k, (given, power, unit_index) in enumerate(zip(
                    accepted.given, accepted.powers, accepted.unit_of, strict=True))
            ]
            self._details = details
        made = details[k]
        assert made is not None
        return made
