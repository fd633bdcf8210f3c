"""Seeded random games under the rules of Colonial Winters, with its invariants checked after
every phase, under the default policies and under each alternative value of every policy; the
records replay identically.

On the synthetic mini-world (tests/variants/miniworld/), and on the Colonial Winters map
itself once the variant folder is there.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path

import pytest

from realpolitik import record, savefile
from realpolitik.adjudication.outcomes import Outcome, Resolution
from realpolitik.game import Game
from realpolitik.geography import UnitType, province_of
from realpolitik.legality import adjustment_counts, retreat_options
from realpolitik.orders import Build, Disband, Order
from realpolitik.position import PhaseType, Position
from realpolitik.variant import Variant, load_variant
from realpolitik.variants.colonial_winters.rules import POLICIES, ColonialWinters, sea_superiority

FOLDER = Path(__file__).parent / "variants" / "miniworld"
POLICY_SETS = [{}] + [{name: value} for name, values in POLICIES.items() for value in values[1:]]
"""The defaults, then each alternative value of each policy."""


def _random_orders(game: Game, rng: random.Random) -> None:
    for power in game.powers_to_order():
        chosen: list[Order] = []
        for location, options in game.legal_orders(power).items():
            if location != "waive":
                chosen.append(options[rng.randrange(len(options))])
        game.submit(power, chosen)


def _fleets(position: Position) -> dict[str, int]:
    counts = {p: 0 for p in position.variant.power_ids}
    for unit in [*position.units.values(), *(d.unit for d in position.dislodged)]:
        if unit.type is UnitType.FLEET and unit.power in counts:
            counts[unit.power] += 1
    return counts


def check_phase(before: Position, after: Position, game: Game) -> None:
    """The invariants of the rules between two positions of a game."""
    hooks = after.variant.hooks
    assert isinstance(hooks, ColonialWinters)
    # one unit per space: Position.build refuses two (the board is a mapping by province)
    Position.build(after.variant, after.phase, after.units.values(), after.centers)
    table = after.state["sea_superiority"]
    assert isinstance(table, dict)
    every_phase = after.variant.policies["sea_superiority_evaluation"] == "every_phase"
    if every_phase or before.phase.type is PhaseType.ADJUSTMENTS:
        previous = before.state["sea_superiority"]
        assert isinstance(previous, dict)
        holder, tiers = sea_superiority(
            _fleets(after), previous["holder"],  # type: ignore[arg-type]
            by_rank=after.variant.policies["second_place"] == "rank")
        assert table["fleets"] == _fleets(after)
        assert (table["holder"], table["tiers"]) == (holder, tiers)
    else:
        assert table == before.state["sea_superiority"]
    # inactive units stay where they are, as they were
    for province in after.state["inactive"]:  # type: ignore[union-attr]
        assert after.units[province] == before.units[province]  # type: ignore[index]
    # 7(e), 7(f): the protectorates' units are where the state says; India has at most two
    for country in hooks.protectorates:
        listed = hooks._protectorate(after, country).get("units") or []  # noqa: SLF001
        if country.replace:
            assert len(listed) <= country.max_units
        for where in listed:
            assert where in after.units or any(d.unit.province == where
                                               for d in after.dislodged)
    record_ = game.history[-1]
    if before.phase.type is PhaseType.ADJUSTMENTS:
        _check_adjustments(before, record_.resolution, hooks)
    if before.phase.type is PhaseType.RETREATS:
        for result in record_.resolution.results:
            # rule 2: an army with somewhere to go is never disbanded by order
            if result.outcome is Outcome.DISBANDED and isinstance(result.order, Disband):
                assert result.order.unit_type is UnitType.FLEET or not any(
                    retreat_options(before, d) for d in before.dislodged
                    if d.unit.location == result.order.location)


def _check_adjustments(before: Position, resolution: Resolution,
                       hooks: ColonialWinters) -> None:
    counts = adjustment_counts(before)
    built: dict[str, list[Build]] = {}
    removed: dict[str, list[Disband]] = {}
    for unit in resolution.civil_disorder:
        removed.setdefault(unit.power, []).append(Disband(unit.type, unit.location))
    for result in resolution.results:
        if not result.succeeded:
            continue
        if isinstance(result.order, Build):
            built.setdefault(result.power, []).append(result.order)
        elif isinstance(result.order, Disband):
            removed.setdefault(result.power, []).append(result.order)
    rounding = math.ceil if before.variant.policies["half_rule_rounding"] == "ceil" \
        else math.floor
    for power, builds in built.items():
        assert len(builds) <= counts[power]  # rule 3: the cap of owned home centres
        tier = hooks.tier(before, power)
        fleets = sum(1 for b in builds if b.unit_type is UnitType.FLEET)
        assert fleets <= {"a": len(builds), "b": 2, "c": 2, "d": 1, "e": 1}[tier]  # 4(b), 4(d)
        homes = set(hooks.home_centres(before, power))
        colonies = set(hooks.colonies(before, power))
        special, extra = hooks.special_allowance(before, power)
        for unit_type in UnitType:
            kind = [b for b in builds if b.unit_type is unit_type]
            abroad = [b for b in kind if province_of(b.location) not in homes]
            # builds outside the half rule: armies in special build centres (7(i)) and the
            # holder's one fleet (7(h)); the rest are in home centres or colonies
            if unit_type is UnitType.ARMY:
                exempt = min(extra, sum(1 for b in abroad if province_of(b.location) in special))
            else:
                exempt = min(1, len(abroad)) if hooks.holder(before) == power else 0
            assert all(province_of(b.location) in colonies | special
                       for b in abroad[exempt:]) or unit_type is UnitType.FLEET
            counted = len(kind) - exempt
            assert len(kind) - len(abroad) >= rounding(counted / 2)  # rule 3: the half rule
    for power, removals in removed.items():
        if hooks.tier(before, power) in "cde":  # 4(c): fleets before armies
            fleets = sum(1 for u in before.units_of(power) if u.type is UnitType.FLEET)
            armies_removed = sum(1 for r in removals if r.unit_type is UnitType.ARMY)
            assert armies_removed == 0 or fleets <= len(removals) - armies_removed


def play(variant: Variant, seed: int, end_year: int, policies: dict[str, str]) -> Game:
    rng = random.Random(seed)
    game = Game(variant, seed=seed, end_year=end_year, policies=policies)
    while not game.is_over:
        before = game.position
        _random_orders(game, rng)
        game.process()
        check_phase(before, game.position, game)
    return game


@pytest.mark.parametrize("policies", POLICY_SETS, ids=lambda p: ",".join(
    f"{k}={v}" for k, v in p.items()) or "defaults")
def test_a_seeded_random_game_keeps_the_rules_and_replays(policies: dict[str, str]) -> None:
    game = play(load_variant(FOLDER), seed=7, end_year=1920, policies=policies)
    assert game.end is not None
    again = savefile.loads(savefile.dumps(game))
    assert [r.position for r in again.history] == [r.position for r in game.history]
    assert again.position == game.position
    text = record.to_text(game)
    assert record.to_text(record.from_text(text)) == text
    seen = Counter(str(t) for r in game.history
                   for t in r.position.state["sea_superiority"]["tiers"].values())  # type: ignore[index, union-attr]
    assert seen["a"] > 0  # the table was in force
