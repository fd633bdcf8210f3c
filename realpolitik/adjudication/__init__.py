"""Adjudication: from a position and orders to a :class:`Resolution`, for every phase type.

>>> from realpolitik.variant import load_variant
>>> from realpolitik.position import Position
>>> from realpolitik.orders import Move
>>> from realpolitik.geography import UnitType
>>> pos = Position.initial(load_variant("classical"))
>>> res = adjudicate(pos, [Move(UnitType.ARMY, "par", "bur"), Move(UnitType.ARMY, "mun", "bur")])
>>> res.results[0].reason
'A PAR - BUR failed: it bounced with A MUN - BUR (1 vs 1).'
"""

from __future__ import annotations

from collections.abc import Iterable

from realpolitik.adjudication.adjustments import adjudicate_adjustments
from realpolitik.adjudication.movement import adjudicate_movement
from realpolitik.adjudication.outcomes import OrderResult, Outcome, Resolution, Result
from realpolitik.adjudication.retreats import adjudicate_retreats
from realpolitik.orders import Order
from realpolitik.position import PhaseType, Position
from realpolitik.rules import Rules, rules_for

__all__ = ["Outcome", "OrderResult", "Resolution", "Result", "adjudicate"]

_DEFAULT = rules_for("2023")
_MOVEMENT, _RETREATS = PhaseType.MOVEMENT, PhaseType.RETREATS


def adjudicate(position: Position, orders: Iterable[Order], *, rules: Rules | None = None,
               checked: bool = False) -> Resolution:
    """Adjudicate one phase: a pure function of the position and the orders.

    ``orders`` may hold orders for any power; an order's ``power`` may be None (the unit's owner
    gives it). Orders for missing units and illegal orders are void (the unit holds) with the
    reason; unordered units hold (movement), disband (retreats) or are removed by the
    civil-disorder rule when removals are missing (adjustments). Of several orders to one unit
    the first legal one counts (DATC 4.D.3, as ``rules`` say).

    ``checked=True`` says that every order is legal here under these rules and already as
    the rules read it (as every order :func:`~realpolitik.listing.legal_orders` lists is), so
    no phase checks them again; :class:`realpolitik.game.Game`
    passes it when ``submit`` found every order equal to one listed for this position (by
    value, :class:`~realpolitik.listing.ListedOrders`). An illegal order passed this way is
    adjudicated as if it were legal.
    """
    rules = rules or _DEFAULT
    kind = position.phase.type
    if kind is _MOVEMENT:
        return adjudicate_movement(position, orders, rules, checked=checked)
    if kind is _RETREATS:
        return adjudicate_retreats(position, orders, rules, checked=checked)
    return adjudicate_adjustments(position, orders, rules, checked=checked)
