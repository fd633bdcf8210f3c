"""Colonial Winters' kinds of order: BLOCK (rule 6(b)-(d)) and MOBILISE (rule 8), declared to
the engine by :meth:`ColonialWinters.order_kinds <.rules.ColonialWinters.order_kinds>`.

BLOCK works on the variant's data (``[[corners]]``, ``[[passages]]``), so any variant with
corners or passages may declare it too (the ``corner`` test variant does).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from realpolitik.caches import CacheSlot
from realpolitik.geography import UnitType, province_of
from realpolitik.kinds import BlocksCrossing, MovementEffect, OrderKind, Pen, Spending
from realpolitik.legality import Illegal
from realpolitik.orders import Build, Order, UnitOrder, VariantOrder
from realpolitik.position import PhaseType, Position, Unit
from realpolitik.variant import Variant
from realpolitik.variants.colonial_winters.orders import Block, Mobilisation, Mobilise

if TYPE_CHECKING:  # pragma: no cover
    from realpolitik.writing import PlaceWriter

__all__ = ["BlockKind", "MobiliseKind"]


def _the_unit(position: Position, unit: Unit) -> str:
    """``"The army in Naples"``."""
    kind = "army" if unit.type is UnitType.ARMY else "fleet"
    try:
        where = position.variant.map.name(unit.location)
    except KeyError:
        where = unit.location.upper()
    return f"The {kind} in {where}"


# -- BLOCK -------------------------------------------------------------------------------------


def _find_block_points(variant: Variant) -> Mapping[tuple[UnitType, str], tuple[str, ...]]:
    """(unit type, province) -> the corners and passages a unit of that type there may block."""
    out: dict[tuple[UnitType, str], list[str]] = {}
    for point in variant.rules.block_points():
        for where in sorted(point.blockers):
            for utype in (UnitType.ARMY, UnitType.FLEET):
                if point.block_units is None or point.block_units is utype:
                    out.setdefault((utype, where), []).append(point.id)
    return {k: tuple(v) for k, v in out.items()}


_block_points: CacheSlot[Variant, Mapping[tuple[UnitType, str], tuple[str, ...]]] = CacheSlot(
    "block points", _find_block_points)
"""The points each unit may block, by the variant's data: made once per variant."""


class BlockKind(OrderKind):
    """``A Nap BLOCK Sicily``: the unit blocks the crossings of a corner or a passage (the
    variant's ``[[corners]]`` and ``[[passages]]``), named by the corner's id or by a place:
    the passage's space, or a space of the corner."""

    name = "block"
    order = Block
    keywords = frozenset({"blocks", "blk", "blocking"})
    phases = frozenset({PhaseType.MOVEMENT})
    argument = "the corner or passage it blocks"
    label = "Block"

    def read_id(self, variant: Variant, words: str) -> str | None:
        words = re.sub(r"^((the|corner|passage|point|crossing|at|of)\s+)+(?=\S)", "", words)
        key = re.sub(r"[^a-z0-9]+", "_", words).strip("_")
        for corner in variant.rules.corners:
            if key in (corner.id, corner.id.replace("_", "")):
                return corner.id
        return None

    def readings(self, variant: Variant, unit: tuple[UnitType, str],
                 candidates: tuple[str, ...]) -> tuple[str, ...]:
        # a passage, or the corners with that space (of those, the ones the unit may block)
        rules = variant.rules
        found: list[str] = []
        for candidate in candidates:
            province = province_of(candidate)
            passage = rules.block_point(province)
            if passage is not None:
                found.append(passage.id)
                continue
            corners = [c for c in rules.corners if province in c.ring]
            mine = [c for c in corners if province_of(unit[1]) in c.blockers]
            found.extend(c.id for c in (mine or corners))
        return tuple(dict.fromkeys(found))

    def unread(self, variant: Variant, written: str) -> tuple[str, str]:
        points = ", ".join(p.id.upper() for p in variant.rules.block_points()) or "none here"
        return (f"{written!r} is no corner or passage whose crossings can be blocked",
                f"the corners and passages are: {points}")

    def write_argument(self, argument: str, writer: PlaceWriter) -> str:
        return writer.point(argument)

    def check(self, position: Position, order: VariantOrder, unit: Unit,
              ) -> UnitOrder | Illegal:
        rules = position.variant.rules
        point = rules.block_point((order.argument or "").lower())
        if point is None:
            return Illegal(
                "no_such_crossing",
                f"{(order.argument or '').upper()} is no corner or passage whose crossings can "
                f"be blocked" + ("." if rules.block_points() else
                                 " (this variant has no corner or passage)."))
        from realpolitik.writing import place_writer

        writer = place_writer(position.variant)
        where = f"the corner {writer.point(point.id)}" if point in rules.corners \
            else f"the passage {writer.names(point.id)}"
        if unit.province not in point.blockers:
            return Illegal("cannot_block",
                           f"{_the_unit(position, unit)} is not where {where} can be blocked "
                           "from.")
        if point.block_units is not None and unit.type is not point.block_units:
            return Illegal("cannot_block",
                           f"Only {'armies' if point.block_units is UnitType.ARMY else 'fleets'}"
                           f" may block {where}.")
        return Block(unit.type, unit.location, point.id, power=order.power or unit.power)

    def listed(self, position: Position, power: str) -> Mapping[str, tuple[Order, ...]]:
        points = _block_points(position.variant)
        if not points:
            return {}
        out: dict[str, tuple[Order, ...]] = {}
        for unit in position.units_of(power):
            for point in points.get((unit.type, unit.province), ()):
                out[unit.location] = (*out.get(unit.location, ()),
                                      Block(unit.type, unit.location, point, power=power))
        return out

    def movement_effect(self, order: VariantOrder) -> MovementEffect:
        assert order.argument is not None
        return BlocksCrossing(order.argument)

    def draw(self, order: VariantOrder, pen: Pen, colour: str, *, succeeded: bool,
             void: bool) -> None:
        # a heavy broken ring round the blocking unit (crossed when cut)
        pen.ring(14, colour, dash="6 2.5", width=3.4)
        if not succeeded or void:
            pen.cross(4, offset=(11, -11))


# -- MOBILISE ----------------------------------------------------------------------------------


def mobilisation(position: Position, power: str) -> Mobilisation | None:
    """What ``power`` may mobilise now, as the variant's rules say (None: nothing; a variant
    whose hooks are not Colonial Winters' has no inactive units)."""
    from realpolitik.variants.colonial_winters.rules import ColonialWinters  # (it imports this)

    hooks = position.variant.hooks
    return hooks.mobilisation(position, power) if isinstance(hooks, ColonialWinters) else None


class MobiliseKind(OrderKind):
    """``A N33 MOBILISE`` (or ``Mobilise A N33``): in a winter, an inactive unit brought into
    play, the power foregoing one build for up to two (three with sea superiority); in the
    first movement phase, a start choice among the inactive units (the unit holds)."""

    name = "mobilise"
    order = Mobilise
    keywords = frozenset({"mobilize", "mobilises", "mobilizes", "mobilised", "mobilized", "mob",
                          "mobilisation", "mobilization"})
    leads = True
    phases = frozenset({PhaseType.MOVEMENT, PhaseType.ADJUSTMENTS})
    label = "Mobilise"
    # rule 8: in the first spring it chooses the unit, which holds; in a winter it costs a build
    labels = {"movement": "Choose it as active (it holds)",
              "adjustments": "Mobilise (costs a build)"}
    outcome = "mobilised"
    spent_reason: ClassVar[str] = ("The power forgoes one build this winter to mobilise units, "
                                   "and has no builds left for this one.")
    builds_used_words: ClassVar[str] = "foregone to mobilise units"

    def check(self, position: Position, order: VariantOrder, unit: Unit,
              ) -> UnitOrder | Illegal:
        allowed = mobilisation(position, unit.power)
        if position.phase.type is PhaseType.MOVEMENT and allowed is None:
            return Illegal("wrong_phase",
                           "A mobilisation order cannot be given in a movement phase.")
        if allowed is None or unit.province not in allowed.units:
            return Illegal("not_inactive",
                           f"{_the_unit(position, unit)} is not an inactive unit that can be "
                           "mobilised.")
        if allowed.per_build <= 0:
            return Illegal("no_mobilisation",
                           f"{position.variant.power_name(unit.power)} cannot mobilise this "
                           f"winter: {allowed.reason or 'it has no build to forego'}.")
        return Mobilise(unit.type, unit.location, power=unit.power)

    def listed(self, position: Position, power: str) -> Mapping[str, tuple[Order, ...]]:
        allowed = mobilisation(position, power)
        if allowed is None or allowed.per_build <= 0:
            return {}
        out: dict[str, tuple[Order, ...]] = {}
        for province in sorted(allowed.units):
            unit = position.units[province]
            out[unit.location] = (Mobilise(unit.type, unit.location, power=power),)
        return out

    def spend(self, position: Position, power: str, orders: Sequence[VariantOrder],
              due: int) -> Spending:
        # the first given that the one foregone build pays for are kept
        allowed = mobilisation(position, power)
        per_build = allowed.per_build if allowed is not None else 0
        kept: set[str] = set()
        void: dict[int, Illegal] = {}
        for index, order in enumerate(orders):
            province = province_of(order.location)
            if province in kept:
                void[index] = Illegal("duplicate_order", "That unit is already mobilised.")
            elif len(kept) >= per_build:
                void[index] = Illegal(
                    "too_many_mobilised",
                    f"One build a year may be foregone to mobilise units, and it mobilises at "
                    f"most {per_build}.")
            else:
                kept.add(province)
        return Spending(1 if kept and due > 0 else 0, void)

    def done(self, order: VariantOrder, writer: PlaceWriter) -> str:
        return f"{writer.order(order)}: the unit was mobilised."

    def draw(self, order: VariantOrder, pen: Pen, colour: str, *, succeeded: bool,
             void: bool) -> None:
        pen.ring(13.5, "#2ca02c" if succeeded and not void else pen.failed, width=2.4)

    def advice(self, position: Position, power: str,
               listed: Mapping[str, tuple[Order, ...]], due: int) -> tuple[Order, ...]:
        if position.phase.type is not PhaseType.ADJUSTMENTS:
            return ()
        mine = [o for options in listed.values() for o in options if isinstance(o, Mobilise)]
        allowed = mobilisation(position, power)
        if not mine or allowed is None or allowed.per_build <= 0:
            return ()
        brought = min(allowed.per_build, len(mine))
        sites = sum(1 for options in listed.values()
                    if any(isinstance(o, Build) for o in options))
        # one build is foregone for them all: worth it for two units or more, or when the
        # build could not be made anyway
        if due <= 0 or brought >= 2 or sites < due:
            return tuple(mine[:brought])
        return ()

