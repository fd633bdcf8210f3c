"""Each named hook of the variant seam, proved on a small synthetic variant (tests/variants/).

One folder per feature: a river that convoys, an ice cap fleets support into, neutral units
and a fortress, colonies and a fleet limit, compulsory and random retreats, a conditional
border, a corner, and a variant with its own hooks and state (King of the Hill).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from realpolitik import savefile
from realpolitik.adjudication import adjudicate
from realpolitik.errors import GameError
from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.hooks import VariantHooks
from realpolitik.legality import adjustment_counts, check_order
from realpolitik.listing import legal_orders
from realpolitik.notation import parse_order
from realpolitik.position import Position, Unit
from realpolitik.variant import Variant, load_variant
from realpolitik.variant_rules import NEUTRAL

VARIANTS = Path(__file__).parent / "variants"


def variant(name: str) -> Variant:
    return load_variant(VARIANTS / name)


def outcome(position: Position, *orders: str) -> dict[str, str]:
    """Order text -> "succeeds"/"fails" and the reason, for each order."""
    parsed = [parse_order(text, position) for text in orders]
    resolution = adjudicate(position, parsed)
    return {str(r.order): f"{r.result}: {r.reason}" for r in resolution.results}


def results(position: Position, *orders: str) -> dict[str, bool]:
    parsed = [parse_order(text, position) for text in orders]
    resolution = adjudicate(position, parsed)
    return {str(r.order): r.succeeded for r in resolution.results}


# -- convoy_spaces: a river whose fleets convoy ---------------------------------------------

def test_a_fleet_in_a_declared_convoy_space_convoys() -> None:
    river = variant("river")
    position = Position.initial(river)
    done = results(position, "A wes - eas", "F riv C A wes - eas")
    assert all(done.values())
    after = adjudicate(position, [parse_order(t, position) for t in
                                  ("A wes - eas", "F riv C A wes - eas")])
    assert after.units["eas"] == Unit("red", UnitType.ARMY, "eas")


def test_without_the_declaration_the_river_cannot_convoy() -> None:
    river = variant("river")
    plain = replace(river, rules=replace(river.rules, convoy_spaces=frozenset()))
    assert len(plain.caches) == 0  # a copy of a variant starts with empty caches
    position = Position.initial(plain)
    problem = check_order(position, parse_order("F riv C A wes - eas", position))
    assert problem is not None and "cannot convoy" in problem[1]


def test_the_listing_offers_the_convoy_through_the_river() -> None:
    position = Position.initial(variant("river"))
    listed = {str(o) for o in legal_orders(position, "red")["riv"]}
    assert "F RIV C A WES - EAS" in listed


# -- support borders: fleets support into the ice cap -----------------------------------------

def test_a_fleet_supports_across_a_support_border() -> None:
    position = Position.initial(variant("polar"))
    done = results(position, "A tun - pol", "F ice S A tun - pol")
    assert all(done.values())


def test_no_unit_moves_across_a_support_border() -> None:
    position = Position.initial(variant("polar"))
    problem = check_order(position, parse_order("F ice - pol", position))
    assert problem is not None
    listed = {str(o) for o in legal_orders(position, "red")["ice"]}
    assert "F ICE S A TUN - POL" in listed and "F ICE - POL" not in listed


# -- neutral units and the defence bonus --------------------------------------------------------

def test_neutral_units_stand_at_the_start_and_belong_to_no_power() -> None:
    position = Position.initial(variant("neutrals"))
    assert position.units["for"].power == NEUTRAL
    assert position.units["vil"].power == NEUTRAL
    game = Game(variant("neutrals"))
    assert NEUTRAL not in game.powers_to_order()
    with pytest.raises(GameError):
        game.submit(NEUTRAL, "A for H")


def test_a_fortress_needs_one_more_support_to_fall() -> None:
    position = Position.initial(variant("neutrals"))
    for text in ("A wes - for", "A sou S A wes - for"):
        assert check_order(position, parse_order(text, position)) is None
    attack = results(position, "A wes - for", "A sou S A wes - for")
    assert attack["A WES - FOR"] is False  # 2 against 1 + a bonus of 1
    attack = results(position, "A wes - for", "A sou S A wes - for", "A nor S A wes - for")
    assert attack["A WES - FOR"] is True


def test_a_dislodged_neutral_is_annihilated_at_once() -> None:
    position = Position.initial(variant("neutrals"))
    orders = [parse_order(t, position) for t in ("A eas - vil", "A sou S A eas - vil")]
    resolution = adjudicate(position, orders)
    assert resolution.units["vil"].power == "blue"
    assert resolution.dislodged == ()  # no retreat for the neutral army


def test_anyone_may_support_a_neutral_unit() -> None:
    position = Position.initial(variant("neutrals"))
    done = results(position, "A eas - vil", "A sou S A eas - vil")
    assert done["A EAS - VIL"] is True  # 2 against 1
    # blue's support for the neutral army's hold holds off red's attack
    done = results(position, "A sou - vil", "A eas S A vil")
    assert done == {"A SOU - VIL": False, "A EAS S A VIL": True}


def test_a_neutral_unit_takes_no_centre() -> None:
    game = Game(variant("neutrals"))
    for _ in range(2):
        game.process()  # nobody orders: everyone holds for a year
    assert "for" not in game.position.centers and "vil" not in game.position.centers


# -- build sites and unit limits -----------------------------------------------------------------

def test_a_power_builds_in_its_colony_and_no_more_fleets_than_allowed() -> None:
    game = Game(variant("colonies"))
    game.submit("red", "F hom H")
    game.process()  # Fall 1901 -> Winter: red owns 3 centres and has 1 unit
    assert str(game.phase) == "W1901A"
    assert adjustment_counts(game.position)["red"] == 1  # 2 due, max_builds = 1
    assert game.variant.home_centers("blue") == ("blu", "col")
    listed = legal_orders(game.position, "red")
    assert "col" in listed and "isl" not in listed  # a colony, and a centre red merely owns
    assert {str(o) for o in listed["col"]} == {"A COL B"}  # no fleet: red has its one
    problem = check_order(game.position, parse_order("F col B", game.position))
    assert problem is not None and "at most 1 fleet" in problem[1]
    problem = check_order(game.position, parse_order("A isl B", game.position))
    assert problem is not None and "not a home centre" in problem[1]


# -- retreats: must retreat, and random retreats recorded ------------------------------------

def _dislodge_mid(game: Game) -> None:
    game.submit("blue", "A eas - mid, A nor S A eas - mid")
    game.submit("red", "A mid H, A wes H, A sou H")
    game.process()
    assert str(game.phase) == "S1901R"


def test_a_unit_that_can_retreat_may_not_disband() -> None:
    game = Game(variant("retreats"))
    _dislodge_mid(game)
    problem = check_order(game.position, parse_order("A mid D", game.position))
    assert problem is not None and "must retreat" in problem[1]
    assert {str(o) for o in legal_orders(game.position, "red")["mid"]} == {
        "A MID R FAR", "A MID R CAV"}


def test_an_unordered_retreat_is_drawn_with_the_seed_and_recorded() -> None:
    places = set()
    for seed in range(8):
        game = Game(variant("retreats"), seed=seed)
        _dislodge_mid(game)
        game.process()  # red gives no retreat order
        unit = [u for u in game.position.units.values() if u.power == "red"
                and u.location in ("far", "cav")]
        assert len(unit) == 1
        places.add(unit[0].location)
        assert any("drawn at random" in note for note in game.history[-1].notes)
        replayed = savefile.loads(savefile.dumps(game))
        assert replayed.position == game.position
    assert places == {"far", "cav"}


# -- conditional borders ---------------------------------------------------------------------

def test_the_strait_is_open_with_no_foreign_fleet_in_the_sound() -> None:
    position = Position.initial(variant("gate"))
    assert results(position, "F nor - sou")["F NOR - SOU"] is True


def test_a_foreign_fleet_in_the_sound_closes_the_strait() -> None:
    position = Position.initial(variant("gate"))
    done = outcome(position, "F nor - sou", "F esea - snd")
    assert done["F NOR - SOU"] == \
        "fails: F NOR - SOU failed: the passage was closed by F ESEA in Sound."


def test_an_own_fleet_in_the_sound_leaves_the_strait_open() -> None:
    position = Position.initial(variant("gate"))
    done = results(position, "F nor - sou", "F wsea - snd")
    assert done["F NOR - SOU"] is True


def test_a_stand_off_in_the_sound_closes_the_strait() -> None:
    position = Position.build(variant("gate"), "S1901M", [
        Unit("red", UnitType.FLEET, "nor"), Unit("red", UnitType.FLEET, "wsea"),
        Unit("blue", UnitType.FLEET, "esea")])
    done = outcome(position, "F nor - sou", "F wsea - snd", "F esea - snd")
    assert done["F NOR - SOU"] == \
        "fails: F NOR - SOU failed: the passage was closed by a stand-off in Sound."
    assert done["F WSEA - SND"].startswith("fails") and done["F ESEA - SND"].startswith("fails")


# -- corners ------------------------------------------------------------------------------

def test_a_lone_crossing_of_the_corner_succeeds() -> None:
    position = Position.build(variant("corner"), "S1901M", [
        Unit("red", UnitType.ARMY, "isl"), Unit("blue", UnitType.ARMY, "cal")])
    assert results(position, "A isl - mai")["A ISL - MAI"] is True


def test_crossings_in_two_directions_both_fail() -> None:
    position = Position.build(variant("corner"), "S1901M", [
        Unit("red", UnitType.ARMY, "isl"), Unit("blue", UnitType.FLEET, "nsea")])
    done = outcome(position, "A isl - mai", "F nsea - ssea")
    assert done == {
        "A ISL - MAI": "fails: A ISL - MAI failed: the corner STRAIT was crossed in more than "
                       "one direction (by F NSEA).",
        "F NSEA - SSEA": "fails: F NSEA - SSEA failed: the corner STRAIT was crossed in more "
                         "than one direction (by A ISL).",
    }


def test_a_unit_staying_at_the_corner_does_not_block_without_a_block_order() -> None:
    # (blocking is an order: tests/test_colonial_winters_orders.py)
    position = Position.build(variant("corner"), "S1901M", [
        Unit("red", UnitType.ARMY, "isl"), Unit("blue", UnitType.FLEET, "nsea")])
    assert results(position, "F nsea - ssea")["F NSEA - SSEA"] is True


# -- a variant's own hooks and state ---------------------------------------------------------

def test_custom_hooks_carry_state_and_decide_victory() -> None:
    hill = variant("hill")
    assert type(hill.hooks).__name__ == "KingOfTheHill"
    assert isinstance(hill.hooks, VariantHooks)
    game = Game(hill)
    game.submit("red", "A wes - hil")
    game.process()
    game.process()  # Fall 1901: red stays on the hill
    assert dict(game.position.state) == {"holder": "red", "falls": 1}
    game.process()
    game.process()  # Fall 1902
    assert game.end is not None and game.end.winners == ("red",)
    assert "held the Hill" in game.end.summary
    replayed = savefile.loads(savefile.dumps(game))
    assert replayed.position.state == game.position.state


@pytest.mark.parametrize(("case", "reason"), [
    ({"variant": str(VARIANTS / "polar"), "phase": "S1901M",
      "units": {"RED": ["A TUN", "F ICE"], "BLUE": ["A POL"]},
      "orders": {"RED": ["A TUN - POL", "F ICE S A TUN - POL"]}},
     "A TUN - POL moved, dislodging A POL (2 vs 1)."),
    ({"variant": str(VARIANTS / "neutrals"), "phase": "S1901M",
      "units": {"RED": ["A WES", "A SOU"], "NEUTRAL": ["A FOR"]},
      "orders": {"RED": ["A WES - FOR", "A SOU S A WES - FOR"]}},
     "A WES - FOR failed: it bounced off A FOR (2 vs 2), which needs 1 more support than "
     "usual to be dislodged."),
])
def test_the_case_format_reads_a_variant_from_a_folder(tmp_path: Path, case: dict[str, object],
                                                        reason: str) -> None:
    import json
    import subprocess
    import sys

    path = tmp_path / "case.json"
    path.write_text(json.dumps(case))
    done = subprocess.run([sys.executable, "-m", "realpolitik", "adjudicate", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["order_results"][0]["reason"] == reason


# -- the variant's rules are checked at load, with file and line ---------------------------

def _copy_with(tmp_path: Path, name: str, extra: str) -> Path:
    import shutil

    folder = tmp_path / name
    shutil.copytree(VARIANTS / name, folder)
    toml = folder / "variant.toml"
    toml.write_text(toml.read_text() + extra)
    return folder


@pytest.mark.parametrize(("extra", "message"), [
    ('\n[rules]\nbuilds = "anywhere"\n', "[rules] builds cannot be 'anywhere'"),
    ('\n[rules]\nbuild = "home_centers"\n', "[rules] has no key 'build'"),
    ('\n[rules]\nconvoy_spaces = ["nowhere"]\n', "'nowhere' is not a province"),
    ('\n[[corners]]\nring = ["wes", "eas", "hil"]\n', "ring must name four (or five) different"),
    ('\n[[neutral_units]]\nunit = "F hil"\n', "a fleet cannot stand at 'hil'"),
    ('\n[[conditional_borders]]\nbetween = ["wes", "eas"]\nwatch = "hil"\nunits = "ships"\n',
     "units must be army, fleet or both"),
    ('\n[sea_superiority]\nholder = "red"\n', "unknown table [sea_superiority]"),
])
def test_unknown_or_wrong_rules_name_the_file_and_line(tmp_path: Path, extra: str,
                                                        message: str) -> None:
    from realpolitik.errors import VariantError

    folder = _copy_with(tmp_path, "hill", extra)
    lines = (folder / "variant.toml").read_text().splitlines()
    with pytest.raises(VariantError) as caught:
        load_variant(folder)
    assert message in str(caught.value)
    assert caught.value.file == "variant.toml" and caught.value.line is not None
    # the line named is the one that says it (or its table's header)
    assert caught.value.line > len(lines) - extra.count("\n")


def test_a_hooks_class_that_is_not_there_is_an_error(tmp_path: Path) -> None:
    from realpolitik.errors import VariantError

    folder = _copy_with(tmp_path, "hill", "")
    toml = folder / "variant.toml"
    toml.write_text(toml.read_text().replace('"KingOfTheHill"', '"QueenOfTheHill"'))
    with pytest.raises(VariantError, match="no VariantHooks subclass called 'QueenOfTheHill'"):
        load_variant(folder)
    # a misspelt name is told the class the file has
    toml.write_text(toml.read_text().replace('"QueenOfTheHill"', '"KingOfTheHil"'))
    with pytest.raises(VariantError, match=r"in hooks\.py \(did you mean 'KingOfTheHill'\?\)"):
        load_variant(folder)


# -- invariants of random play on every synthetic variant ----------------------------------

@pytest.mark.parametrize("name", sorted(p.name for p in VARIANTS.iterdir() if p.is_dir()))
def test_random_play_keeps_the_rules_of_each_variant(name: str) -> None:
    """Random legal play for a few years: every listed order passes the full check, neutral
    units are never asked for orders, unit limits hold, and the record replays exactly."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    loaded = variant(name)

    @settings(max_examples=8, deadline=None)
    @given(st.integers(min_value=0, max_value=10_000))
    def play(seed: int) -> None:
        import random

        game = Game(loaded, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.phase.year <= 1904:
            position = game.position
            assert NEUTRAL not in game.powers_to_order()
            for power in game.powers_to_order():
                listed = legal_orders(position, power)
                for orders in listed.values():
                    for order in orders:
                        assert check_order(position, order) is None, order
                picks = [rng.choice(orders) for orders in listed.values() if orders]
                if rng.random() < 0.8:
                    game.submit(power, picks)
            game.process()
            for power in loaded.power_ids:
                for utype in UnitType:
                    cap = loaded.hooks.unit_limit(game.position, power, utype)
                    have = sum(1 for u in game.position.units_of(power) if u.type is utype)
                    assert cap is None or have <= cap
        assert savefile.loads(savefile.dumps(game)).position == game.position

    play()
