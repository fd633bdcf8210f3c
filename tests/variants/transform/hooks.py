"""The hooks of the transform variant: the classical game's, with one more kind of order, and
the rule said in words while a power may use it."""

from realpolitik.geography import province_of
from realpolitik.hooks import VariantHooks
from realpolitik.kinds import OrderKind
from realpolitik.legality import adjustment_counts
from realpolitik.position import PhaseType, Position
from realpolitik.rule_notes import NO_NOTES, RuleNote, RuleNotes, Tally, UnitMark

from .transform import TransformKind


class Transforming(VariantHooks):
    def order_kinds(self) -> tuple[OrderKind, ...]:
        return (TransformKind(),)

    def rule_notes(self, position: Position, power: str | None) -> RuleNotes:
        # in a winter with builds due: which units may transform, and what it costs
        if power is None or position.phase.type is not PhaseType.ADJUSTMENTS:
            return NO_NOTES
        listed = position.variant.kinds.by_name["transform"].listed(position, power)
        if not listed:
            return NO_NOTES
        variant = position.variant
        units = [position.units[province_of(location)] for location in listed]
        named = ", ".join(f"{u.type} {variant.map.name(u.location)}" for u in units)
        due = adjustment_counts(position).get(power, 0)
        note = RuleNote(
            "transform", "Transforming",
            f"A unit on one of {variant.power_possessive(power)} own coastal home centres "
            f"may change type in place instead of a build: {named}. Each transform uses one "
            "of the builds due.", brief=f"{len(units)} may transform",
            tally=Tally("transform", due), pressing=True)
        marks = tuple(UnitMark(u.province, "choice", "may transform",
                               "It stands on a coastal home centre: Transform makes it the "
                               "other type, for one build.") for u in units)
        return RuleNotes(notes=(note,), marks=marks)
