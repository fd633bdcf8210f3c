"""The centre counts carried from a position to the next (phases.py: the Winter's counts on to
the Spring and the Fall, the Fall's changed by the centres that changed hands) against the
centres counted afresh, with the rulebooks' centre owners and with a variant's own."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from random_play import playing

from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.hooks import VariantHooks, owners_and_changes
from realpolitik.position import Position, Unit
from realpolitik.variant import load_variant

_COUNTS = "centre counts"


def _check_counts(position: Position) -> bool:
    """Assert the position's centre counts are its centres counted; True if they were carried
    (kept before anything asked for them)."""
    carried = _COUNTS in position.caches.names()
    assert dict(position.center_counts()) == dict(Counter(position.centers.values())), \
        position.phase
    return carried


def test_carried_centre_counts_are_the_centres_counted() -> None:
    """In every position of seeded random games, as the game reaches it, the centre counts
    (carried from the position before when it had them) are the centres owned per owner; most
    positions get them carried."""
    carried = total = 0
    for seed in range(3):
        for game in playing(seed, years=8):
            total += 1
            carried += _check_counts(game.position)
    assert carried > total // 2


def test_owners_and_changes_is_the_plain_rule() -> None:
    """The rulebooks' centre owners (a unit standing on a centre takes it, a neutral unit
    takes nothing, a vacant centre keeps its owner) and the changes listed are exactly the
    centres whose owner differs, with their owners before and after."""
    variant = load_variant("classical")
    every = list(variant.map.supply_centers())
    rng = random.Random(5)
    for _ in range(200):
        owners = {c: rng.choice(["england", "france", "russia"]) for c in rng.sample(every, 12)}
        standing = {c: Unit(rng.choice(["england", "france", "neutral"]), UnitType.ARMY,
                            c) for c in rng.sample(every, 10)}
        before = MappingProxyType(dict(owners))
        made, changes = owners_and_changes(before, MappingProxyType(standing), every)
        expected = dict(owners)
        for centre in every:
            unit = standing.get(centre)
            if unit is not None and unit.power != "neutral":
                expected[centre] = unit.power
        assert made == expected
        assert list(made) == list(expected)  # (the same order: new owners in the map's order)
        assert changes == [(owners.get(c), made[c]) for c in every
                           if owners.get(c) != made.get(c)]


class _NobodyTakesBerlin(VariantHooks):
    """A variant's own centre owners: the rulebooks' but Berlin never changes hands."""

    def center_owners(self, position: Position, units: Mapping[str, Unit],
                      supply_centers: Sequence[str]) -> dict[str, str]:
        owners = super().center_owners(position, units, supply_centers)
        if "ber" in position.centers:
            owners["ber"] = position.centers["ber"]
        return owners


def test_a_variants_own_centre_owners_are_counted_afresh() -> None:
    """With a variant's own :meth:`center_owners` the changes are not known: the counts of the
    position after are the centres it has, counted (none carried from the Fall)."""
    variant = replace(load_variant("classical"), hooks=_NobodyTakesBerlin())
    game = Game(variant)
    rng = random.Random(2)
    while not game.is_over and game.phase.year < 1907:
        _check_counts(game.position)
        assert game.position.centers.get("ber") == "germany"
        for power in game.powers_to_order():
            listed = game.legal_orders(power)
            game.submit(power, [options[rng.randrange(len(options))]
                                for options in listed.values()])
        game.process()


def test_due_adjustments_are_the_adjustment_counts_read_only() -> None:
    """The counts the engine reads every phase without copying are the winter's counts, and
    no reader can change them for the next."""
    from realpolitik.legality import adjustment_counts, due_adjustments

    for game in playing(3, years=5):
        position = game.position
        due = due_adjustments(position)
        assert dict(due) == adjustment_counts(position)
        try:
            due["england"] = 99  # type: ignore[index]
        except TypeError:
            pass
        else:  # pragma: no cover - the failure shown
            raise AssertionError("the shared counts were changed")
        copied = adjustment_counts(position)
        copied["england"] = 99  # (a copy: the caller's own)
        assert due_adjustments(position) == due


def test_a_slot_carries_only_a_value_made() -> None:
    """CacheSlot.carry keeps for the owner after what was made for the owner before, and
    nothing when nothing was made (the value is then made from the owner after itself)."""
    from dataclasses import dataclass, field

    from realpolitik.caches import Caches, CacheSlot

    @dataclass(frozen=True)
    class Owner:
        name: str
        caches: Caches = field(default_factory=Caches, init=False, compare=False)

    made: list[str] = []

    def make(owner: Owner) -> str:
        made.append(owner.name)
        return owner.name.upper()

    slot: CacheSlot[Owner, str] = CacheSlot("upper", make)
    before, after, later = Owner("a"), Owner("a"), Owner("a")
    slot.carry(before, after)  # (nothing made for before: nothing carried)
    assert slot.peek(after) is None and made == []
    value = slot(before)
    slot.carry(before, after)
    assert slot(after) is value and made == ["a"]
    assert slot(later) == "A" and made == ["a", "a"]


def test_walk_after_is_candidates_after() -> None:
    """Calendar.walk_after (the table the game walks, its phases made by made_phase) gives the
    phases and centre changes of candidates_after, for every phase of a year with a season
    of its own and of the rulebooks' year."""
    from realpolitik.calendar import CLASSICAL_CALENDAR, Calendar, CalendarSeason, made_phase
    from realpolitik.calendar import PhaseType as Kind

    summer = Calendar((CalendarSeason("S", "Spring", (Kind.MOVEMENT, Kind.RETREATS)),
                       CalendarSeason("U", "Summer", (Kind.MOVEMENT,), centers_change=True),
                       CalendarSeason("F", "Fall", (Kind.MOVEMENT, Kind.RETREATS),
                                      centers_change=True),
                       CalendarSeason("W", "Winter", (Kind.ADJUSTMENTS,))))
    for calendar in (CLASSICAL_CALENDAR, summer):
        for phase in calendar.year_of(1903):
            walked = [(change, made_phase(code, phase.year + years, kind))
                      for change, code, years, kind in calendar.walk_after(phase)]
            assert walked == list(calendar.candidates_after(phase))


def test_a_unit_annihilated_is_noted_in_the_record() -> None:
    """The default phase notes are asked only when a unit vanished: a neutral army dislodged
    and annihilated at once is noted in the phase's record; a phase with none notes nothing."""
    from pathlib import Path

    game = Game(load_variant(Path(__file__).parent / "variants" / "neutrals"))
    game.submit("blue", "A eas - vil")
    game.submit("red", "A sou S A eas - vil")
    game.process()
    record = game.history[-1]
    assert game.position.units["vil"].power == "blue"
    assert any("vil" in note.lower() for note in record.notes), record.notes
    game.process()
    assert game.history[-1].notes == ()


def test_centers_counted_kept_is_centers_counted_worked_out() -> None:
    """Calendar.centers_counted answers again from what it kept exactly as it worked it out,
    and keeps only phases at most two years apart (its bound)."""
    from realpolitik.calendar import CLASSICAL_CALENDAR, Calendar

    fresh = Calendar(CLASSICAL_CALENDAR.seasons)
    phases = [p for year in (1901, 1902, 1903, 1905) for p in fresh.year_of(year)]
    first = {(a, b): fresh.centers_counted(a, b) for a in phases for b in phases}
    again = {(a, b): fresh.centers_counted(a, b) for a in phases for b in phases}
    assert first == again
    assert first == {(a, b): Calendar(CLASSICAL_CALENDAR.seasons)._centers_counted(a, b)
                     for a in phases for b in phases}
    assert all(0 <= key[4] <= 2 for key in fresh._counted)
    assert len(fresh._counted) <= len(fresh.year_of(1901)) ** 2 * 3
