"""Kruijswijk's guess-and-check resolver. It knows nothing of Diplomacy.

Decisions are numbered ``0 .. n-1``; each is true (the order succeeds) or false (it fails).
``adjudicate(i)`` evaluates decision ``i``'s equation and reads other decisions only through
:meth:`Resolver.resolve`. A dependency cycle is not searched for: it shows itself when a decision
still being worked on is read again. The first reading of a decision guesses *false*; when the
decision heads a cycle it is adjudicated again guessing *true*:

a. nothing read depended on a guess: the answer is final;
b. the answer depends on the guess of a decision further up the recursion: keep it as a
   provisional value (the decision joins the cycle list) and let that decision settle it;
c. the decision is the root of every guess it depended on: guess again the other way. If both
   guesses give the same answer, exactly one guess reproduced itself and that is the answer. If
   they differ, the cycle has two consistent resolutions or none (circular movement, a convoy
   paradox): its decisions go to the injected **backup rule**, which settles some of them
   (:meth:`Resolver.settle`), and the decision is resolved again.

This is the guess algorithm of the DATC v3.0 (section 5.F) with its refinement of retreating to
the decision at the root of the whole cycle before guessing again, so that a cycle that is not a
clean loop (Pandin's paradox) is handled once, from its root. Where the DATC counts
``recursion_hits``, we record for every provisional value the shallowest recursion depth whose
guess it rests on: a decision is the root when nothing it read rests on a guess above it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

__all__ = ["Resolver"]

_UNRESOLVED: Final = 0
_VISITING: Final = 1
_RESOLVED: Final = 2
_NO_GUESS: Final = 1 << 30


def _no_equations(decision: int) -> bool:
    raise AssertionError(f"decision {decision} read after every decision was final")


def _no_backup(resolver: Resolver, cycle: Sequence[int]) -> None:
    raise AssertionError("a cycle found after every decision was final")


class Resolver:
    """The solver's state: a value per decision, which ones are resolved, and the cycle list.

    ``adjudicate(i)`` evaluates decision ``i``; ``backup(resolver, cycle)`` is called with the
    decisions of a cycle that has no single resolution and must :meth:`settle` some of them.
    """

    __slots__ = (
        "_adjudicate",
        "_backup",
        "state",
        "value",
        "_cycle",
        "_in_cycle",
        "_depth_of",
        "_rests_on",
        "_depth",
        "_low",
        "cycles",
    )

    def __init__(
        self,
        size: int,
        adjudicate: Callable[[int], bool],
        backup: Callable[[Resolver, Sequence[int]], None],
        *,
        settled: list[bool] | None = None,
        unsettled: Sequence[int] = (),
    ) -> None:
        """``settled``: start with every decision final, at these values (the list is the
        resolver's own from then on), except those of ``unsettled``."""
        self._adjudicate = adjudicate
        self._backup = backup
        if settled is None:
            self.state: list[int] = [_UNRESOLVED] * size
            self.value: list[bool] = [False] * size
        else:
            self.state = [_RESOLVED] * size
            for decision in unsettled:
                self.state[decision] = _UNRESOLVED
            self.value = settled
        self._cycle: list[int] = []
        self._in_cycle: list[bool] = [False] * size
        self._depth_of: list[int] = [0] * size
        """Recursion depth of a decision being worked on."""
        self._rests_on: list[int] = [_NO_GUESS] * size
        """For a provisional value: the shallowest depth of a guess it rests on."""
        self._depth = 0
        self._low = _NO_GUESS
        """The shallowest depth of a guess read since the current decision started."""
        self.cycles: list[tuple[int, ...]] = []
        """Every cycle handed to the backup rule, for explanations and tracing."""

    def finish(self) -> None:
        """Let go of the equations and the backup rule once every decision is final (the
        equations usually read decisions through this resolver: a reference cycle)."""
        assert _UNRESOLVED not in self.state and _VISITING not in self.state
        self._adjudicate = _no_equations
        self._backup = _no_backup

    def is_resolved(self, decision: int) -> bool:
        """True once the decision has its final value."""
        return self.state[decision] == _RESOLVED

    def settle(self, decision: int, value: bool) -> None:
        """Fix a decision's value (for set-up and for the backup rule)."""
        self.state[decision] = _RESOLVED
        self.value[decision] = value

    def settle_all(self, decisions: Sequence[int], value: bool) -> None:
        """Fix the value of each of ``decisions`` (the set-up settles most of a phase's
        decisions before the solver runs: one call, not one each)."""
        state, values = self.state, self.value
        for decision in decisions:
            state[decision] = _RESOLVED
            values[decision] = value

    def _push(self, decision: int, rests_on: int) -> None:
        if not self._in_cycle[decision]:
            self._cycle.append(decision)
            self._in_cycle[decision] = True
        self._rests_on[decision] = rests_on

    def _cut(self, length: int) -> None:
        cycle = self._cycle
        in_cycle = self._in_cycle
        for decision in cycle[length:]:
            in_cycle[decision] = False
        del cycle[length:]

    def resolve(self, decision: int) -> bool:
        """The decision's value: final if it can be known, else the current guess."""
        state = self.state[decision]
        if state == _RESOLVED:
            return self.value[decision]
        if self._in_cycle[decision]:
            # A provisional value: whoever reads it rests on the same guess.
            rests_on = self._rests_on[decision]
            if rests_on < self._low:
                self._low = rests_on
            return self.value[decision]
        if state == _VISITING:
            # Read again while being worked on: a cycle. Hand out the guess.
            depth = self._depth_of[decision]
            self._push(decision, depth)
            if depth < self._low:
                self._low = depth
            return self.value[decision]

        depth = self._depth = self._depth + 1
        self.state[decision] = _VISITING
        self._depth_of[decision] = depth
        old_length = len(self._cycle)
        old_low = self._low
        self._low = _NO_GUESS
        self.value[decision] = False  # the first guess
        first = self._adjudicate(decision)
        try:
            low = self._low
            if low == _NO_GUESS:
                # (a) nothing read depended on a guess: this is the answer.
                self._cut(old_length)
                self._low = old_low
                self.settle(decision, first)
                return first

            if low >= depth:
                # (c) every guess it rests on is its own: guess the other way.
                self._cut(old_length)
                self._low = _NO_GUESS
                self.value[decision] = True
                second = self._adjudicate(decision)
                if first == second:
                    # Only one guess reproduced itself.
                    self._cut(old_length)
                    self._low = old_low
                    self.settle(decision, first)
                    return first
                # Two resolutions or none: the backup rule decides.
                cycle = _cycle_from(decision, self._cycle[old_length:])
                self._cut(old_length)
                self._low = old_low
                self.cycles.append(tuple(cycle))
                self.state[decision] = _UNRESOLVED
                self._backup(self, cycle)
                self._depth -= 1
                try:
                    return self.resolve(decision)
                finally:
                    self._depth += 1

            # (b) it rests on the guess of a decision further up: keep a provisional value.
            self._push(decision, low)
            self.value[decision] = first
            self.state[decision] = _UNRESOLVED
            self._low = min(old_low, low)
            return first
        finally:
            self._depth -= 1


def _cycle_from(decision: int, others: list[int]) -> list[int]:
    """The cycle handed to the backup rule: ``decision``, then the ``others`` met in it.
    (A function of its own: a generator in :meth:`Resolver.resolve` would make a cell of
    ``decision`` at every call of it, and the solver calls it for every decision it reads.)"""
    return [decision, *(d for d in others if d != decision)]
