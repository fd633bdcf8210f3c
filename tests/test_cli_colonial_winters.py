"""The command line on the Colonial Winters variant: what a gamesmaster reads of its 17 powers,
its neutral and inactive units, its sea superiority and its own rules' events."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from realpolitik.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


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
    assert "  line 1   United States A N33 H  -> A N33 H" in out
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
