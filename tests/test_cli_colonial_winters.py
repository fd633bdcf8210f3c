"""The command line on the Colonial Winters variant: what a gamesmaster reads of its 17 powers,
its neutral and inactive units, its sea superiority and its own rules' events."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_cli import run

from realpolitik.cli import main


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0
    return json.loads(out)


@pytest.fixture
def game_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "g.json"
    assert main(["new", "--variant", "colonial_winters", str(path)]) == 0
    capsys.readouterr()
    return path


# -- power names -----------------------------------------------------------------------------

def test_the_united_states_is_named_in_full_in_orders_results_and_the_tally(
        game_file: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, "orders", str(game_file), "-",
                       stdin="United States: A N33 H\n", monkeypatch=monkeypatch)
    assert code == 0
    assert "Usa" not in out
    assert "  line 1   United States A N33 H  -> A Denver H" in out  # the key's code, read
    assert "pending orders of United States" in out
    code, spring, _ = run(capsys, "process", str(game_file))
    code, fall, _ = run(capsys, "process", str(game_file))
    assert "Usa" not in spring + fall
    assert "\n  United States\n" in spring
    assert "United States 12" in fall  # the centre tally


def test_show_aligns_the_columns_by_the_longest_power_name(
        game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "show", str(game_file))
    columns = {line.index("units:") for line in out.splitlines() if " centres  units:" in line}
    assert len(columns) == 1
    below = {line.index("centres:") for line in out.splitlines()
             if line.lstrip().startswith("centres:")}
    assert below == columns
    assert "  United States 12 centres  units:" in out


# -- messages ------------------------------------------------------------------------------------

def test_a_name_that_is_no_place_names_the_map_once(
        game_file: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, "orders", str(game_file), "-", stdin="England: F Londn - 140\n",
                       monkeypatch=monkeypatch)
    assert code == 1
    assert "'Londn' is not a place on the Colonial Winters map (reconstructed);" in out
    assert "map) map" not in out


def test_a_player_count_it_has_no_setup_for_says_it_has_only_seventeen(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "new", "--variant", "colonial_winters", "--players", "5",
                       str(tmp_path / "g.json"))
    assert code == 2
    assert "has only its 17-player setup (every power has a player): there is no setup for " \
           "5 players" in err
    assert "choose from" not in err
    code, _, err = run(capsys, "new", "--players", "9", str(tmp_path / "g.json"))
    assert code == 2 and "its setups are: 7: Seven players (the standard game); 6: " in err


# -- show: inactive and neutral units, sea superiority ------------------------------------------

def test_show_marks_the_inactive_units_and_says_what_the_mark_means(
        game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "show", str(game_file))
    lines = out.splitlines()
    england = next(line for line in lines if line.startswith("  England "))
    assert "F Guyana*" in england and "F Falkland*" in england  # rule 8: inactive at the start
    assert "F London," in england  # London's fleet is active
    assert "  * inactive: the unit holds until it is mobilised or attacked" in lines
    data = run_json(capsys, "show", str(game_file))
    marked = [u for units in data["inactive_units"].values() for u in units]
    assert len(marked) == len(data["state"]["inactive"]) == 42
    assert out.count("*") - 1 == 42  # one mark per unit, and the legend's


def test_show_lists_the_neutral_units_and_the_sea_superiority(
        game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "show", str(game_file))
    neutral = next(line for line in out.splitlines() if line.startswith("  Neutral "))
    assert neutral.index("units:") == out.splitlines()[1].index("units:")
    for unit in ("A Rome", "A Copenhagen", "F Azores"):  # the Church, a neutral, the Azores
        assert unit in neutral
    assert ("  Sea superiority: England holds it; fleets (tier): England 14 (a), "
            "United States 7 (b), France 4 (c), Germany 3 (d), Spain 3 (d)") in out
    assert "Austria 0 (d)" in out


def test_the_map_draws_inactive_units_faded_and_says_so_in_its_legend(
        game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "map.svg"
    assert main(["render", str(game_file), "-o", str(svg)]) == 0
    text = svg.read_text()
    assert text.count('class="inactive"') == 42 + 1  # the units and the legend's sample
    assert "inactive unit</text>" in text


# -- the record: units brought into play ----------------------------------------------------------

def test_process_and_the_record_say_which_inactive_units_became_active_and_why(
        game_file: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # England chooses its fleet in Guyana (S14, rule 8) and leaves its second choice unmade
    run(capsys, "orders", str(game_file), "-", stdin="England: F S14 - 49\n",
        monkeypatch=monkeypatch)
    _, out, _ = run(capsys, "process", str(game_file))
    assert "  Note: F Guyana (England) is active: England chose it in its first orders " \
           "(rule 8)" in out
    assert "  Note: F Halifax (England) is active, taken by default: England's first orders made " \
           "fewer than its 2 start choices, and it is the first candidate listed (rule 8)" in out
    assert "  Note: F Bordeaux (France) is active, taken by default: France's first orders made " \
           "fewer than its 1 start choice, and it is the first candidate listed (rule 8)" in out
    # Spain's army in Casablanca (f19) comes into play by the date the variant gives it
    assert "  Note: A Casablanca (Spain) becomes active: the rules bring it into play in Fall " \
           "1870 movement (rule 8)" in out
    history = run_json(capsys, "history", str(game_file))
    assert any("F Guyana (England) is active" in n for n in history["phases"][0]["notes"])
    shown = run_json(capsys, "show", str(game_file))
    assert "F S14" not in str(shown["inactive_units"]) and "s14" not in shown["state"]["inactive"]


def test_show_says_the_rules_acting_now_on_a_power_and_the_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "cw.json"
    assert run(capsys, "new", str(game), "--variant", "colonial_winters")[0] == 0
    code, out, err = run(capsys, "show", str(game), "--power", "England")
    assert code == 0, err
    assert "Rules acting now (the game):" in out and "Sea superiority: England" in out
    assert "Rules acting now (England):" in out
    assert "Rule 8: England chooses 2 of these 12 inactive units" in out
    assert "Halifax" in out  # the choice's units by name, not by code
    data = json.loads(run(capsys, "show", str(game), "--power", "england", "--json")[1])
    assert data["rule_notes"]["ENGLAND"]["choice"]["count"] == 2
    assert data["game_notes"]["notes"]
    classical = tmp_path / "classical.json"
    assert run(capsys, "new", str(classical))[0] == 0
    assert "Rules acting now" not in run(capsys, "show", str(classical), "--power", "France")[1]
    assert json.loads(run(capsys, "show", str(classical), "--json")[1])["game_notes"] == {}
