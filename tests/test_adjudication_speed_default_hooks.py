"""The variant hooks the adjudication leaves uncalled where the variant keeps the default
(``movement.adjudicate_movement``'s defence bonuses and ``_Decided.resolution``'s annihilation,
compiled; ``phases.next_position``'s state, both builds): on the positions of played games, the
default hook gives what the adjudication takes in its place, and the games' next positions are
those the hooks give."""

from __future__ import annotations

from random_play import movement_positions

from realpolitik.hooks import VariantHooks
from realpolitik.position import Position, Unit
from realpolitik.variant_rules import NEUTRAL


def _positions() -> list[Position]:
    return movement_positions("classical", 3, 1904) + movement_positions("colonial_winters", 5,
                                                                         1873)


def test_the_default_hooks_give_what_the_adjudication_takes() -> None:
    defaults = 0
    for position in _positions():
        hooks = position.variant.hooks
        if type(hooks).defence_bonuses is VariantHooks.defence_bonuses \
                and not position.variant.rules.neutral_units:
            assert not hooks.defence_bonuses(position)
            defaults += 1
        if type(hooks).annihilated_when_dislodged is VariantHooks.annihilated_when_dislodged:
            for unit in position.units.values():
                # (the unit as it stands, and the same unit had it been a neutral one)
                for power in (unit.power, NEUTRAL):
                    asked = Unit(power, unit.type, unit.location)
                    assert hooks.annihilated_when_dislodged(position, asked) \
                        is (power == NEUTRAL)
    assert defaults  # (the classical game keeps the defaults; Colonial Winters has its own)


def test_the_next_positions_carry_the_state_the_hook_gives() -> None:
    from realpolitik.adjudication import adjudicate
    from realpolitik.phases import next_position

    for position in _positions():
        resolution = adjudicate(position, ())
        following = next_position(position, resolution)
        assert following.state == position.variant.hooks.next_state(position, resolution,
                                                                    following)
