"""Colonial Winters' rules acting now, in words (its hooks' ``rule_notes``): the start choice of
rule 8 and the inactive units, what mobilising costs and brings in a winter, sea superiority
(rule 4) and the protectorates (rules 7(e), 7(f)), as the web page shows them above a power's
orders and beside its units."""

from __future__ import annotations

from realpolitik.position import PhaseType, Position
from realpolitik.rule_notes import RuleNote, RuleNotes, Tally, UnitChoice, UnitMark
from realpolitik.variants.colonial_winters.rules import ColonialWinters, country_name
from realpolitik.writing import place_writer

__all__ = ["rule_notes"]

LEGEND = ("Faded units in a dashed ring are inactive (rule 8): they only hold until mobilised "
          "or attacked.")
"""What the map's mark for an inactive unit means."""


def rule_notes(hooks: ColonialWinters, position: Position, power: str | None) -> RuleNotes:
    """The rules acting now on ``power``'s units (None: on the game, for anyone)."""
    notes: list[RuleNote] = []
    if power is None:
        notes.append(_sea_superiority(hooks, position, None))
        if hooks.protectorates:
            notes.append(_protectorates(hooks, position))
        legend = LEGEND if hooks.inactive_units(position) & position.units.keys() else ""
        return RuleNotes(notes=tuple(notes), legend=legend)
    variant = position.variant
    name = variant.power_name(power)
    writer = place_writer(variant)
    mine = {u.province: u for u in position.units_of(power)}
    inactive = [p for p in sorted(hooks.inactive_units(position)) if p in mine]
    marks: dict[str, UnitMark] = {}
    choice = None
    pending = hooks.pending_choice(position, power) if hooks.start_choices else None
    if pending is not None:
        units, count = pending
        choice = UnitChoice(
            heading=f"Rule 8: {name} chooses {count} of these {len(units)} inactive units to "
                    "be active this turn",
            text=f"Tick one to choose it (it holds), or give it a move; the others only hold, "
                 f"and orders to more than {count} of them are void.",
            units=tuple(units), count=count, kind="mobilise",
            when_full=f"{count} chosen already (rule 8)")
        why = (f"One of the inactive units among which {name} chooses {count} to be active "
               "this turn (rule 8). Ordered to do anything but hold, it is chosen.")
        marks.update((p, UnitMark(p, "choice", "inactive · start choice", why))
                     for p in units if p in mine)
    winter = position.phase.type is PhaseType.ADJUSTMENTS
    others = [p for p in inactive if p not in marks]
    for province in others:
        marks[province] = UnitMark(province, "idle", *(
            ("inactive: may be mobilised", "An inactive unit; Mobilise brings it into play "
             "for one build this winter (rule 8).") if winter else
            ("inactive: holds", "An inactive unit only holds until it is mobilised (in a "
             "winter, for a build) or attacked (rule 8).")))
    if others:
        units_named = ", ".join(f"{mine[p].type} {writer.names(mine[p].location)}"
                                for p in others)
        notes.append(RuleNote(
            "inactive", "Inactive units",
            f"{len(others)} of {variant.power_possessive(power)} units (faded, in a dashed "
            f"ring on the map) only {'holds' if len(others) == 1 else 'hold'} until mobilised "
            f"in a winter or attacked (rule 8): {units_named}.",
            brief=f"{len(others)} inactive"))
    if winter and inactive:
        offer = hooks.mobilisation(position, power)
        if offer is not None:
            if offer.per_build > 0:
                text = (f"Forgo one build this winter to bring up to {offer.per_build} of your "
                        f"{len(offer.units)} inactive units into play (rule 8): choose "
                        f"Mobilise on each. The build count drops by one; more than "
                        f"{offer.per_build} are void.")
                tally = Tally("mobilise", offer.per_build)
            else:
                text, tally = f"Not this winter: {offer.reason}.", None
            notes.append(RuleNote("mobilise", "Mobilising", text, tally=tally, pressing=True))
    notes.append(_sea_superiority(hooks, position, power))
    if hooks.protectorates:
        notes.append(_protectorates(hooks, position))
        for province, country in hooks.protectorate_units(position).items():
            if province in mine and province not in marks:
                owner = country_name(country.country)
                marks[province] = UnitMark(
                    province, "protectorate", f"{owner}'s",
                    f"A unit of {owner}, which needs no supply centre: the holder of sea "
                    "superiority commands it (rule 7).")
    ordered = [marks[p] for p in mine if p in marks]  # in the order of the power's units
    return RuleNotes(notes=tuple(notes), marks=tuple(ordered), choice=choice)


def _sea_superiority(hooks: ColonialWinters, position: Position, power: str | None) -> RuleNote:
    """Who holds sea superiority; for a power its fleets and tier, for the game every power's."""
    variant = position.variant
    fleets = hooks.fleets(position)
    holder = hooks.holder(position)
    text = (f"{variant.power_name(holder)} ({fleets.get(holder, 0)} fleets)."
            if holder is not None else "Nobody.")
    if power is not None:
        text += (f" {variant.power_name(power)}: {fleets.get(power, 0)} fleets, tier "
                 f"{hooks.tier(position, power)} (rule 4).")
    else:
        text += " Fleets (tier): " + ", ".join(
            f"{variant.power_name(p)} {fleets.get(p, 0)} ({hooks.tier(position, p)})"
            for p in variant.power_ids) + " (rule 4)."
    return RuleNote("sea-superiority", "Sea superiority", text)


def _protectorates(hooks: ColonialWinters, position: Position) -> RuleNote:
    """Who commands each protectorate's units, and where they stand."""
    variant = position.variant
    writer = place_writer(variant)
    parts = []
    for country in hooks.protectorates:
        controller = hooks.controller(position, country)
        where = [writer.names(position.units[p].location)
                 for p, c in hooks.protectorate_units(position).items()
                 if c is country and p in position.units]
        said = (f"commanded by {variant.power_name(controller)}" if controller is not None
                else "neutral, its units in civil disorder")
        parts.append(f"{country_name(country.country)}: {said}"
                     + (f" ({', '.join(where)})" if where else ""))
    return RuleNote("protectorates", "Protectorates",
                    "; ".join(parts) + " (rules 7(e), 7(f)).")

