"""The rules live in the engine: the facade, the command line and the server ask it (issue 14).

Build sites are the case in point: a variant may let powers build on any centre they own
(``[rules] builds = "any_owned_center"``), and the facade and the command line's reports once
worked out build sites on their own, from the home centres only.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from realpolitik.cli import _report
from realpolitik.compat.diplomacy import Game as Facade
from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.legality import adjustment_counts, build_sites, can_build
from realpolitik.listing import legal_orders
from realpolitik.orders import Build, Hold, Move, Waive, unit_key
from realpolitik.position import Position, Unit
from realpolitik.variant import VARIANTS_DIR, Variant, load_variant

FRANCE_UNITS = [Unit("france", UnitType.ARMY, "par"), Unit("france", UnitType.ARMY, "mar"),
                Unit("france", UnitType.FLEET, "bre")]
FRANCE_CENTERS = {"par": "france", "mar": "france", "bre": "france", "spa": "france",
                  "bel": "france"}
"""France owns five centres and has three units, all on its home centres: two builds are due,
and its only free centres are Spain and Belgium, which are not home centres."""


@pytest.fixture(scope="module")
def any_centre_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The classical map with ``builds = "any_owned_center"``, as a variant folder."""
    folder = tmp_path_factory.mktemp("variants") / "any_centre"
    shutil.copytree(VARIANTS_DIR / "classical", folder)
    toml = folder / "variant.toml"
    text = toml.read_text(encoding="utf-8")
    assert 'builds = "home_centers"' in text
    toml.write_text(text.replace('builds = "home_centers"', 'builds = "any_owned_center"'),
                    encoding="utf-8")
    return folder


def _winter(variant: Variant) -> Position:
    return Position.build(variant, "W1901A", FRANCE_UNITS, FRANCE_CENTERS)


def _facade_in_winter(map_name: str) -> Facade:
    facade = Facade(map_name=map_name)
    game = facade.realpolitik_game
    game._position = _winter(game.variant)
    return facade


# -- the engine -------------------------------------------------------------------------------

def test_build_sites_follow_the_variants_builds_rule(any_centre_folder: Path) -> None:
    classical = _winter(load_variant("classical"))
    any_centre = _winter(load_variant(any_centre_folder))
    assert adjustment_counts(classical)["france"] == adjustment_counts(any_centre)["france"] == 2
    assert build_sites(classical, "france") == ()
    assert not can_build(classical, "france")
    assert set(build_sites(any_centre, "france")) == {"spa", "bel"}
    assert can_build(any_centre, "france")
    assert build_sites(any_centre, "germany") == ()  # owns nothing


def test_build_sites_are_where_the_legal_builds_are(any_centre_folder: Path) -> None:
    for variant in (load_variant("classical"), load_variant(any_centre_folder)):
        position = Position.build(variant, "W1901A", FRANCE_UNITS[:1], FRANCE_CENTERS)
        listed = legal_orders(position, "france")
        built_at = [site for site, orders in listed.items()
                    if any(isinstance(order, Build) for order in orders)]
        assert list(build_sites(position, "france")) == built_at
        assert "mar" in built_at and "par" not in built_at  # free home centre, occupied one


# -- the diplomacy-package facade --------------------------------------------------------------

def test_facade_build_sites_follow_the_variants_builds_rule(any_centre_folder: Path) -> None:
    facade = _facade_in_winter(str(any_centre_folder))
    assert facade.get_orderable_locations("FRANCE") == ["BEL", "SPA"]
    builds = facade.get_state()["builds"]["FRANCE"]
    assert builds["count"] == 2 and sorted(builds["homes"]) == ["BEL", "SPA"]
    possible = facade.get_all_possible_orders()
    assert "A BEL B" in possible["BEL"] and "F SPA/NC B" in possible["SPA"]
    facade.set_orders("FRANCE", ["A BEL B", "A SPA B"])
    assert facade.error == []
    facade.process()
    assert sorted(facade.get_units("FRANCE")) == ["A BEL", "A MAR", "A PAR", "A SPA", "F BRE"]


def test_facade_has_no_home_build_sites_when_the_homes_are_full() -> None:
    facade = _facade_in_winter("standard")
    assert facade.get_orderable_locations("FRANCE") == []
    assert facade.get_state()["builds"]["FRANCE"] == {"count": 0, "homes": []}


def test_facade_set_orders_without_replace_keeps_the_first_order_for_a_unit() -> None:
    facade = Facade()
    facade.set_orders("RUSSIA", ["F STP/SC H"])
    facade.set_orders("RUSSIA", ["F STP/SC - BOT", "A MOS - UKR"], replace=False)
    assert sorted(facade.get_orders("RUSSIA")) == ["A MOS - UKR", "F STP/SC H"]


def test_facade_plays_a_variant_with_neutral_units() -> None:
    """Neutral units belong to no power: the facade lists, for each power the engine says has
    something to order, that power's units, and shows no one the neutral ones."""
    facade = Facade(map_name=str(Path(__file__).parent / "variants" / "neutrals"))
    game = facade.realpolitik_game
    assert any(unit.power == "neutral" for unit in game.position.units.values())
    rng = random.Random(3)
    for _ in range(12):
        to_order = {power.upper() for power in game.powers_to_order()}
        orderable = facade.get_orderable_locations()
        assert {name for name, places in orderable.items() if places} <= to_order
        possible = facade.get_all_possible_orders()
        for name, places in orderable.items():
            facade.set_orders(name, [rng.choice(possible[p]) for p in places if possible[p]])
        facade.process()
        state = facade.get_state()
        assert set(state["units"]) == set(state["influence"]) == {"RED", "BLUE"}
        assert set(facade.get_order_status()) == {"RED", "BLUE"}
    assert len(game.history) >= 12


# -- the command line's reports ----------------------------------------------------------------

def test_cli_adjustments_follow_the_variants_builds_rule(any_centre_folder: Path) -> None:
    any_centre = _report.adjustments_json(_winter(load_variant(any_centre_folder)))
    assert any_centre["FRANCE"]["builds"] == any_centre["FRANCE"]["due"] == 2
    assert sorted(any_centre["FRANCE"]["build_sites"]) == ["BEL", "SPA"]
    text = _report.format_adjustments(any_centre)
    assert text[0].startswith("France may build 2: ") and "SPA" in text[0]

    classical = _report.adjustments_json(_winter(load_variant("classical")))
    assert classical["FRANCE"] == {
        "builds": 0, "due": 2, "build_sites": [], "centres": 5, "units": 3,
        "limit": "only 0 free centres to build in",
        "summary": "France may build 0 (2 due, but only 0 free centres to build in): none free"}
    assert _report.format_adjustments(classical) == [
        "France may build 0 (2 due, but only 0 free centres to build in): none free"]


def test_cli_show_reports_the_build_sites(any_centre_folder: Path) -> None:
    game = Game(load_variant(any_centre_folder))
    report = _report.position_report(game, _winter(game.variant))
    assert sorted(report["adjustments"]["FRANCE"]["build_sites"]) == ["BEL", "SPA"]


# -- what an order is for ----------------------------------------------------------------------

def test_unit_key_names_the_unit_whatever_the_coast() -> None:
    assert unit_key(Hold(UnitType.FLEET, "stp/sc")) == unit_key(Move(UnitType.FLEET, "stp/nc",
                                                                     "bar")) == "stp"
    assert unit_key(Waive("france")) is None  # a waive is for no unit


def test_waives_given_one_at_a_time_are_all_kept() -> None:
    """A waive neither replaces nor is replaced, even when the same listed waive is given
    twice (before, waives were told apart by object identity, so giving the listed waive
    again replaced the first)."""
    position = Position.build(load_variant("classical"), "W1901A", [], {"par": "france",
                                                                        "bre": "france"})
    game = Game(position.variant)
    game._position = position  # a winter where France has two builds and no units
    (waive,) = game.legal_orders("france")["waive"]
    game.submit("france", [waive])
    game.submit("france", [waive], replace_all=False)
    assert [e.order for e in game.orders_of("france")] == [waive, waive]
    game.submit("france", [Build(UnitType.ARMY, "par")], replace_all=False)
    assert len(game.orders_of("france")) == 3


def test_submit_without_replace_all_replaces_only_that_units_order() -> None:
    game = Game()
    game.submit("russia", "F StP/sc H, A Mos H")
    game.submit("russia", "F StP/sc - Bot", replace_all=False)
    assert sorted(str(e.order) for e in game.orders_of("russia")) == [
        "A MOS H", "F STP/SC - BOT"]


# -- the engine imports none of the interfaces -------------------------------------------------

def test_importing_the_engine_loads_no_interface_module() -> None:
    code = ("import sys, realpolitik, realpolitik.game, realpolitik.legality, "
            "realpolitik.savefile; "
            "print('\\n'.join(sorted(m for m in sys.modules if m.startswith('realpolitik'))))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    loaded = result.stdout.split()
    assert "realpolitik.legality" in loaded  # the listing is real
    interfaces = ("realpolitik.server", "realpolitik.cli", "realpolitik.render",
                  "realpolitik.compat")
    assert [m for m in loaded if m.startswith(interfaces)] == []
