"""What a power's orders leave open or overdo, said before it is marked ready (issue 19), and a
later order for a unit replacing the earlier one (in the engine and the command line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from realpolitik.cli import main
from realpolitik.game import REPLACED, Game
from realpolitik.geography import UnitType
from realpolitik.position import Position, Unit

A, F = UnitType.ARMY, UnitType.FLEET


def _winter() -> Game:
    """Winter 1901: Germany may build 3 (Berlin, Kiel, Munich free); Russia must remove 1."""
    game = Game()
    game._position = Position.build(
        game.variant, "W1901A",
        [Unit("germany", F, "den"), Unit("germany", A, "hol"), Unit("russia", A, "war"),
         Unit("russia", A, "mos"), Unit("russia", F, "sev"), Unit("russia", F, "stp/sc"),
         Unit("russia", A, "ukr")],
        {"ber": "germany", "kie": "germany", "mun": "germany", "den": "germany",
         "hol": "germany", "war": "russia", "mos": "russia", "sev": "russia", "stp": "russia"})
    return game


def test_units_without_orders_are_named_before_ready() -> None:
    game = Game()
    game.submit("france", "A Par-Bur")
    assert game.warnings("france") == [
        "France: F BRE, A MAR have no order that can be followed and will hold"]
    game.submit("france", "A Par-Bur, A Mar-Spa, F Bre-Mao")
    assert game.warnings("france") == []


@pytest.mark.parametrize(("power", "text", "warning"), [
    ("germany", "Build A Ber", "Germany: may build 3, gave 1; the rest are waived"),
    ("germany", "", "Germany: may build 3, gave 0; the rest are waived"),
    ("russia", "Remove A Ukr, Remove A War",
     "Russia: must remove 1, gave 2: more removals than due; only the first one is carried out"),
    ("russia", "", "Russia: must remove 1, gave 0; the rest will be chosen by the "
                   "civil-disorder rule"),
])
def test_adjustments_not_used_or_overdone_are_named(power: str, text: str,
                                                    warning: str) -> None:
    game = _winter()
    game.submit(power, text)
    assert game.warnings(power) == [warning]


def test_exact_adjustments_need_no_warning() -> None:
    game = _winter()
    game.submit("germany", "Build A Ber, Build F Kie, Build A Mun")
    game.submit("russia", "Remove A Ukr")
    assert game.warnings("germany") == [] and game.warnings("russia") == []


def test_a_later_order_for_a_unit_replaces_the_earlier_one() -> None:
    game = Game()
    report = game.submit("france", "A Par-Bur, A Mar S A Par-Bur, F Bre-Mao, A Par-Pic")
    assert report[0].error_kind == REPLACED
    assert report[0].error == "replaced by the later order A Par-Pic for the same unit"
    assert game.warnings("france") == [
        "A Par-Bur: replaced by the later order A Par-Pic for the same unit"]
    resolution = game.process()
    french = {str(r.order) for r in resolution.results if r.power == "france"}
    assert french == {"A PAR - PIC", "A MAR S A PAR - BUR", "F BRE - MAO"}


def test_orders_given_as_values_keep_the_editions_rule_for_duplicates() -> None:
    """DATC 4.D.3 decides between several orders to one unit given as values (a program)."""
    from realpolitik.notation import parse_order

    game = Game(rules="1982")
    first, second = (parse_order(t, game.position) for t in ("A Par-Bur", "A Par-Pic"))
    report = game.submit("france", [first, second])
    assert all(entry.error_kind != REPLACED for entry in report)


def test_the_command_line_says_which_order_was_replaced(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.json"
    assert main(["new", str(path)]) == 0
    orders = tmp_path / "orders.txt"
    orders.write_text("France: A Par-Bur, A Par-Pic\n")
    capsys.readouterr()
    main(["orders", str(path), str(orders)])
    out = capsys.readouterr().out
    assert "not followed: replaced by the later order A Par-Pic for the same unit" in out
    main(["orders", "--json", str(path), str(orders)])
    data = json.loads(capsys.readouterr().out)
    assert data["lines"][0]["status"] == "replaced"
    assert data["lines"][1]["status"] == "ok"


def test_process_gives_the_result_to_the_order_that_stood_not_the_replaced_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The replaced line is void with its reason; the later order gets its own result (the
    result used to go to the replaced line, and the later order was called void)."""
    path = tmp_path / "g.json"
    assert main(["new", str(path)]) == 0
    orders = tmp_path / "orders.txt"
    orders.write_text("England: F Lon-ENG, F Lon-NTH\n")
    main(["orders", str(path), str(orders)])
    capsys.readouterr()
    assert main(["process", "--json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    english = [r for r in data["order_results"] if r["power"] == "ENGLAND" and r["input"]]
    assert [(r["input"], r["result"], r["outcome"]) for r in english] == [
        ("F Lon-ENG", "void", "replaced"), ("F Lon-NTH", "succeeds", "moved")]
    assert english[0]["reason"] == "replaced by the later order F Lon-NTH for the same unit"
