"""Backup rules: what to do with a dependency cycle that has no single resolution.

The resolver hands a backup rule the decisions of such a cycle. The rule is policy, not solver
(DATC 5.B.9):

* only moves in the cycle: a circular movement, and every move succeeds. On a board with a
  variant's conditional borders, corners or passages (whose crossing reads the turn's other
  moves) a cycle of moves may also be a paradox of a crossing that is no rotation (a move into
  a province whose unit does not move on within the cycle): every decision of it fails, as
  below;
* a convoy in the cycle: a convoy paradox, settled by the edition's paradox rule. Under the
  Szykman rule (DATC 4.A.2 preference) the convoys of the paradox fail: the fleets hold, and the
  army neither moves nor cuts support. Under "all hold" the moves of the paradox fail too;
* anything else (only possible with variant rules): every decision of the cycle fails.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from realpolitik.adjudication.equations import CONVOY, MOVE
from realpolitik.adjudication.resolver import Resolver
from realpolitik.rules import ConvoyParadox

__all__ = ["BackupRule", "backup_rule"]

BackupRule = Callable[[Resolver, Sequence[int]], None]


def backup_rule(kinds: Sequence[int], paradox: ConvoyParadox, paradoxes: set[int],
                occupants: Sequence[int] | None = None) -> BackupRule:
    """The backup rule for a phase whose decisions have the order kinds ``kinds``.

    ``paradox`` is the 4.A.2 option; every decision settled as a paradox is added to
    ``paradoxes`` (for the explanations). ``occupants`` (move -> the unit in the province it
    enters, -1 if none) is given for a board with crossings that read the turn's moves: a
    cycle of moves is then a circular movement only if it is a rotation.
    """

    def backup(resolver: Resolver, cycle: Sequence[int]) -> None:
        convoys = [d for d in cycle if kinds[d] == CONVOY]
        if convoys:
            for d in convoys:
                resolver.settle(d, False)
                paradoxes.add(d)
            if paradox is ConvoyParadox.ALL_HOLD:
                for d in cycle:
                    if kinds[d] == MOVE:
                        resolver.settle(d, False)
                        paradoxes.add(d)
        elif all(kinds[d] == MOVE for d in cycle):
            if occupants is None or all(occupants[d] in cycle for d in cycle):
                for d in cycle:
                    resolver.settle(d, True)
            else:  # a paradox of a crossing, not a rotation
                for d in cycle:
                    resolver.settle(d, False)
                    paradoxes.add(d)
        else:
            for d in cycle:
                resolver.settle(d, False)

    return backup
