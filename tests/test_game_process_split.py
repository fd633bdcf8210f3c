"""The game's per-phase helpers split so that their rare branches' closures are made only when
taken (a comprehension's cell is made at every call of the function that holds it): each
answer still the one the whole computation gives."""

from __future__ import annotations

from random_play import played_game, playing

from realpolitik.hooks import VariantHooks
from realpolitik.legality import build_options, can_build
from realpolitik.position import Position


def test_powers_to_order_from_the_cache_are_those_worked_out() -> None:
    """``Game._powers_now`` answers from its cache what ``_powers_of`` works out, in every
    phase of played games (eliminations included)."""
    for seed in range(3):
        for game in playing(seed, years=8):
            worked_out = game._powers_of(game.position, game.eliminated)  # noqa: SLF001
            assert (game.active_powers(), game.powers_to_order()) == worked_out


def test_build_options_without_winter_limits_are_every_candidate() -> None:
    """With no ``void_adjustments`` hook, ``build_options`` is the candidates themselves, and
    ``can_build`` says whether there is one, in every winter of played games."""
    winters = [record.position for seed in range(3) for record in played_game(seed, years=8).history
               if record.position.phase.season == "W"]
    assert winters
    for position in winters:
        for power in position.variant.power_ids:
            options = list(build_options(position, power))
            assert can_build(position, power) == bool(options)
            for province, builds in options:
                assert position.centers.get(province) == power
                assert province not in position.units
                assert builds


def test_victory_when_a_team_reaches_the_target() -> None:
    """The victory check past its early exit names the team holding the target (and no one
    when none does)."""
    game = played_game(0, years=2)
    position: Position = game.position
    hooks = VariantHooks()
    counts = position.center_counts()
    best = max(counts, key=lambda power: counts[power])
    teams = [(power,) for power in position.variant.power_ids]
    won = hooks.victory(position, teams, counts[best])
    assert won is not None and counts[teams[won.team][0]] == counts[best]
    assert hooks.victory(position, teams, counts[best] + 1) is None
    won_alone = hooks.victory(position, teams, counts[best], per_power=True)
    assert won_alone is not None and counts[teams[won_alone.team][0]] == counts[best]
