"""Issue 28, the messages of Colonial Winters: what a void build comes to, a refused special
build's real reason, the notes when Belgium's units change hands (rule 7(f)) and why Holland
stays neutral, India's armies marked as India's among England's, and possessives."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_cli import run
from test_colonial_winters_rule_defects import board

from realpolitik import savefile
from realpolitik.cli._common import Style
from realpolitik.cli._report import format_results, phase_report
from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.legality import check_order
from realpolitik.notation import parse_order
from realpolitik.position import Position, Unit
from realpolitik.variant import Variant, load_variant


@pytest.fixture(scope="module")
def world() -> Variant:
    return load_variant("colonial_winters")


def test_a_build_that_could_not_be_read_is_not_said_to_hold(world: Variant) -> None:
    game = Game(world)
    game.process()
    game.process()
    assert str(game.phase) == "W1870A"
    game.submit("england", "Build A Atlantis")
    game.process()
    text = "\n".join(format_results(game, phase_report(game, len(game.history) - 1),
                                    Style(False)))
    assert "'Build A Atlantis' could not be read" in text
    assert "nothing is built or removed by it" in text
    assert "the unit holds" not in text


def test_rule_7i_a_refused_special_build_gives_the_missing_province(world: Variant) -> None:
    def winter(**centers: str) -> Position:
        made = [Unit("chile", UnitType.ARMY, "s42")]
        pos = Position.build(world, "W1871A", made, {"s41": "chile", "s42": "chile",
                                                     **centers})
        return pos.replace(state={**world.hooks.initial_state(pos), "inactive": []})

    pos = winter(s19="chile", s20="chile")
    problem = check_order(pos, parse_order("Build A s19", pos, power="chile"))
    assert problem == ("variant_rule", "Incas is a special build centre of the Inca Empire, "
                       "where a power builds armies only while it owns all of the Inca Empire "
                       "(rule 7(i)), and it does not own Lima")
    pos = winter(s20="chile")
    problem = check_order(pos, parse_order("Build A s19", pos, power="chile"))
    assert problem is not None and problem[1] == (
        "Chile does not own Incas, a special build centre of the Inca Empire, so it cannot "
        "build there (rule 7(i))")
    assert "home centre" not in problem[1]


def test_rule_7f_belgiums_units_change_hands_and_holland_stays_neutral(world: Variant) -> None:
    game = Game(world)
    game._position = board(world, [  # noqa: SLF001 - a game from a chosen Spring position
        "england F 1", "england F 2", "england F 3", "england F 4", "germany A f70",
        "neutral F e24", "neutral A f73", "neutral A e23", "neutral F 110"])
    game.submit("germany", "A f70 - f74")
    game.process()
    notes = game.history[-1].notes
    assert ("Belgium's F E24 and A F73 now serve England, which holds sea superiority: a "
            "foreign unit (Germany's A F74) entered Belgium (rule 7(f))") in notes
    assert "Antwerp is England's with Belgium (rule 7(f))" in notes
    assert not any("(rule 7(e))" in n and "Belgium" in n for n in notes)
    assert "Holland stays neutral: no foreign unit has entered it (rule 7(f))" in notes
    assert game.position.units["e24"].power == "england"
    assert game.position.units["e23"].power == "neutral"


def test_rule_7e_indias_armies_are_marked_among_englands(
        world: Variant, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.json"
    path.write_text(savefile.dumps(Game(world)))
    code, out, _ = run(capsys, "show", str(path))
    assert code == 0
    england = next(line for line in out.splitlines() if line.lstrip().startswith("England"))
    assert "A Calcutta (India)" in england and "A Bombay (India)" in england  # A39, A44
    assert "A Delhi (India)" not in england  # Delhi's army (A41) is England's own
    shown = world.hooks.public_state(Game(world).position)["protectorates"]
    assert shown == {"India": {"controller": "england", "units": ["A39", "A44"]},
                     "Holland": {"controller": None, "units": ["E23", "110"]},
                     "Belgium": {"controller": None, "units": ["E24", "F73"]}}


def test_the_united_states_possessive_in_an_orders_error(world: Variant) -> None:
    game = Game(world)
    report = game.submit("usa", "England: F E8 H")
    assert report[0].error is not None
    assert "only the United States' orders are taken here" in report[0].error
    assert "States's" not in report[0].error


def test_an_order_to_a_neutral_unit_says_it_is_neutral() -> None:
    game = Game(load_variant("colonial_winters"))
    neutral = next(u for u in game.position.units.values() if u.power == "neutral")
    (submitted,) = game.submit("england", f"A {neutral.location} H")
    assert submitted.error is not None
    assert "is neutral: England cannot order it" in submitted.error
    assert "Neutral" not in submitted.error
