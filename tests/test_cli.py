"""The ``realpolitik`` command line: every command, its JSON, its exit codes, its error messages."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from realpolitik.cli import main
from realpolitik.cli._common import RAW_KEY, Style

ROOT = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code, out, err = run(capsys, *argv, "--json")
    return code, json.loads(out)


@pytest.fixture
def game_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "game.json"
    assert main(["new", str(path)]) == 0
    capsys.readouterr()
    return path


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# -- help and usage ------------------------------------------------------------------------------

def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for command in ("new", "orders", "process", "show", "history", "adjudicate", "render",
                    "demo"):
        assert command in out
    assert "exit codes" in out


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "realpolitik new game.json" in capsys.readouterr().out


def test_bad_argument_exits_2_with_a_pointer_to_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["new"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "GAME.json" in err and "--help" in err


def test_python_dash_m_and_the_entry_point_run(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "realpolitik", "new", str(tmp_path / "g.json"),
                             "--json"], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["phase"] == "S1901M"


# -- new and show --------------------------------------------------------------------------------

def test_new_json_has_phase_units_and_centers(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "new", str(tmp_path / "g.json"), "--rules", "1971")
    assert code == 0
    assert data["phase"] == "S1901M"
    assert data["units"]["ENGLAND"] == ["F EDI", "F LON", "A LVP"] or \
        sorted(data["units"]["ENGLAND"]) == ["A LVP", "F EDI", "F LON"]
    assert sorted(data["centers"]["RUSSIA"]) == ["MOS", "SEV", "STP", "WAR"]
    assert data["rules"] == "1971"


def test_new_names_the_variant_so_any_name_reads(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """'Started a Archipelago game' was what a variant whose name begins with a vowel got."""
    code, out, _ = run(capsys, "new", str(tmp_path / "g.json"), "--variant",
                       str(Path(__file__).parent / "variants" / "archipelago"))
    assert code == 0
    assert out.startswith(f"Started a game of Archipelago in {tmp_path / 'g.json'}: ")


def test_a_variant_warning_is_said_once_as_the_commands_own_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It was printed in Python's format, with a line of realpolitik's source after it, and
    again for each place that loaded the variant."""
    hill = str(Path(__file__).parent / "variants" / "hill")  # solo_centers 99 of 2 centres
    code, _, err = run(capsys, "new", str(tmp_path / "g.json"), "--variant", hill)
    assert code == 0
    assert err == ("realpolitik new: warning: variant.toml, line 7: solo_centers is 99 but the "
                   "map has only 2 supply centres, so nobody can win outright\n")


def test_new_chooses_a_variant_policy_and_the_file_keeps_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.json"
    code, _, _ = run(capsys, "new", str(path), "--variant", "colonial_winters",
                     "--policy", "second_place=count")
    assert code == 0
    assert json.loads(path.read_text())["policies"] == {"second_place": "count"}
    code, _, err = run(capsys, "new", str(tmp_path / "h.json"), "--variant", "colonial_winters",
                       "--policy", "second_place=nope")
    assert code != 0 and "'second_place' cannot be 'nope'; write one of: rank, count" in err
    # the choice is the command's, not the variant's file: no variant.toml is named
    assert "variant.toml" not in err
    code, _, err = run(capsys, "new", str(tmp_path / "j.json"), "--policy", "second_place=count")
    assert code != 0 and "variant.toml" not in err
    assert "the game's policies: there is no policy 'second_place'; this variant has no " \
           "policies to choose" in err
    code, _, err = run(capsys, "new", str(tmp_path / "i.json"), "--policy", "second_place")
    assert code != 0 and "write the variant's policy and its value as NAME=VALUE" in err


def test_new_refuses_to_overwrite(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "new", str(game_file))
    assert code == 3
    assert str(game_file) in err and "--force" in err


def test_new_bad_rules_and_variant_and_players(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "new", str(tmp_path / "a.json"), "--rules", "1999")
    assert code == 2 and "1999" in err and "2023" in err
    code, _, err = run(capsys, "new", str(tmp_path / "b.json"), "--variant", "nowhere")
    assert code == 2 and "nowhere" in err
    code, _, err = run(capsys, "new", str(tmp_path / "c.json"), "--players", "9")
    assert code == 2 and "9" in err
    code, _, err = run(capsys, "new", str(tmp_path / "d.json"), "--option", "4.A.2")
    assert code == 2 and "ID=VALUE" in err
    assert not list(tmp_path.iterdir())


def test_new_with_fewer_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "new", str(tmp_path / "g.json"), "--players", "6")
    assert code == 0
    assert "ITALY" not in data["awaiting"]


def test_show_text_and_json(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", str(game_file))
    assert code == 0
    assert "Spring 1901 movement" in out and "Awaiting orders from" in out
    code, data = run_json(capsys, "show", str(game_file))
    assert {"phase", "units", "centers", "awaiting"} <= set(data)
    assert len(data["awaiting"]) == 7


def test_show_of_the_classical_game_has_no_variant_lines(game_file: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """No neutral units, inactive marks or sea superiority on the classical board: the text is
    as docs/cli.md prints it."""
    _, out, _ = run(capsys, "show", str(game_file))
    assert out == (
        "Spring 1901 movement (S1901M)\n"
        "  Austria   3 centres  units: A BUD, F TRI, A VIE\n"
        "                       centres: BUD, TRI, VIE\n"
        "  England   3 centres  units: F EDI, F LON, A LVP\n"
        "                       centres: EDI, LON, LVP\n"
        "  France    3 centres  units: F BRE, A MAR, A PAR\n"
        "                       centres: BRE, MAR, PAR\n"
        "  Germany   3 centres  units: A BER, F KIE, A MUN\n"
        "                       centres: BER, KIE, MUN\n"
        "  Italy     3 centres  units: F NAP, A ROM, A VEN\n"
        "                       centres: NAP, ROM, VEN\n"
        "  Russia    4 centres  units: A MOS, F SEV, F STP/SC, A WAR\n"
        "                       centres: MOS, SEV, STP, WAR\n"
        "  Turkey    3 centres  units: F ANK, A CON, A SMY\n"
        "                       centres: ANK, CON, SMY\n"
        "  Awaiting orders from: Austria, England, France, Germany, Italy, Russia, Turkey\n")
    _, data = run_json(capsys, "show", str(game_file))
    assert "inactive_units" not in data and "sea_superiority" not in data


def test_show_unknown_phase_says_which_exist(game_file: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "show", str(game_file), "--phase", "S1905M")
    assert code == 2
    assert "S1905M" in err and "current phase is S1901M" in err
    code, _, err = run(capsys, "show", str(game_file), "--phase", "Spring")
    assert code == 2 and "S1901M" in err


# -- the game file -------------------------------------------------------------------------------

def test_missing_game_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.json"
    for command in (["show"], ["process"], ["history"], ["orders"]):
        code, _, err = run(capsys, *command, str(missing))
        assert code == 3
        assert str(missing) in err and "realpolitik new" in err


def test_damaged_game_file_names_the_place(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "realpolitik-game",\n "phases": [}\n')
    code, _, err = run(capsys, "show", str(bad))
    assert code == 3
    assert str(bad) in err and "line 2" in err and "column" in err
    bad.write_text('{"format": "something-else"}')
    code, _, err = run(capsys, "show", str(bad))
    assert code == 3 and "not a realpolitik game record" in err
    bad.write_text("[1, 2]")
    code, _, err = run(capsys, "show", str(bad))
    assert code == 3 and "JSON object" in err


def test_writes_are_atomic(game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    before = game_file.read_text()

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    orders = write(tmp_path, "o.txt", "England: A Lvp-Yor\n")
    code, _, err = run(capsys, "orders", str(game_file), orders)
    assert code == 130 and "interrupted" in err
    assert game_file.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "o.txt"]


# -- orders --------------------------------------------------------------------------------------

def test_orders_report_every_line(game_file: Path, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    text = ("England: A Liv-Yor, F Lon-Nth, F Edi-Nwg\n"
            "France: A Pars-Bur\n"
            "F Bre-Lon\n")
    code, out, _ = run(capsys, "orders", str(game_file), write(tmp_path, "o.txt", text))
    assert code == 1
    assert "line 1" in out and "A LVP - YOR" in out
    # unknown name: the line, what was wrong, suggestions
    assert "line 2" in out and "'Pars'" in out and "PAR (Paris)" in out
    # illegal: the reason and how to fix it
    assert "line 3" in out and "illegal" in out and "Brest" in out and "London" in out
    assert "send this power's orders again" in out
    assert "Still awaited" in out and "Austria" in out


def test_orders_json_fields(game_file: Path, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    text = "France: A Pars-Bur, F Bre-Lon, A Mar-Spa\n"
    code, out, _ = run(capsys, "orders", str(game_file), write(tmp_path, "o.txt", text), "--json")
    data = json.loads(out)
    assert code == 1
    lines = data["lines"]
    assert [item["status"] for item in lines] == ["unknown", "illegal", "ok"]
    unknown = lines[0]
    assert unknown["line"] == 1 and unknown["span"] and "PAR" in " ".join(unknown["suggestions"])
    assert lines[1]["order"] == "F BRE - LON" and lines[1]["message"]
    assert lines[2]["order"] == "A MAR - SPA"
    assert data["problems"] == 2
    assert "FRANCE" in data["pending"]


def test_orders_ambiguous_lists_every_reading(game_file: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    # 'nor' could be Norway or the Norwegian Sea
    text = "England: F Edi-Nor\n"
    code, out, _ = run(capsys, "orders", str(game_file), write(tmp_path, "o.txt", text), "--json")
    item = json.loads(out)["lines"][0]
    assert code == 1
    assert item["status"] in ("ambiguous", "unknown")
    if item["status"] == "ambiguous":
        assert len(item["candidates"]) >= 2
    code, out, _ = run(capsys, "orders", str(game_file), write(tmp_path, "o.txt", text))
    assert "line 1" in out and "Nor" in out


def test_orders_for_one_power_and_replacement(game_file: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, "orders", str(game_file), "-", "--power", "eng",
                       stdin="A Lvp-Yor\nF Lon-Nth\n", monkeypatch=monkeypatch)
    assert code == 0
    code, out, _ = run(capsys, "orders", str(game_file), "-", "--power", "England",
                       stdin="F Lon-Eng\n", monkeypatch=monkeypatch)
    assert code == 0
    _, data = run_json(capsys, "show", str(game_file))
    assert [o["order"] for o in data["orders"]["ENGLAND"]] == ["F LON - ENG"]
    saved = json.loads(game_file.read_text())
    assert [entry["text"] for entry in saved[RAW_KEY]] == ["A Lvp-Yor\nF Lon-Nth\n",
                                                           "F Lon-Eng\n"]


def test_orders_for_the_wrong_power_name_the_line(game_file: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    text = "France: A Par-Bur\n"
    code, out, _ = run(capsys, "orders", str(game_file), write(tmp_path, "o.txt", text),
                       "--power", "England")
    assert code == 1
    assert "line 1" in out and "France" in out and "England" in out


def test_orders_unknown_power(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "orders", str(game_file), "--power", "Englnd")
    assert code == 2
    assert "'Englnd'" in err and "England" in err and "Austria" in err


def test_orders_empty_input(game_file: Path, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "orders", str(game_file), write(tmp_path, "o.txt", "\n"))
    assert code == 2 and "empty" in err and "England: A Lon-Nth" in err


def test_orders_missing_orders_file(game_file: Path, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "orders", str(game_file), str(tmp_path / "none.txt"))
    assert code == 3 and "none.txt" in err


def test_orders_without_a_power(game_file: Path, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    # no header, but the unit says whose order it is
    code, out, _ = run(capsys, "orders", str(game_file), write(tmp_path, "o.txt", "A Par-Bur\n"),
                       "--json")
    data = json.loads(out)
    assert data["lines"][0]["power"] == "FRANCE" and data["lines"][0]["kept"]


# -- colours ---------------------------------------------------------------------------------------

class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colours_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert Style.for_stream(_Tty()).enabled
    assert not Style.for_stream(io.StringIO()).enabled
    monkeypatch.setenv("NO_COLOR", "1")
    assert not Style.for_stream(_Tty()).enabled
    assert Style(False).bad("x") == "x"
    assert Style(True).bad("x") != "x"


# -- demo and history ------------------------------------------------------------------------------

def test_demo_plays_1901_from_the_book(capsys: pytest.CaptureFixture[str]) -> None:
    import time

    start = time.perf_counter()
    code, out, _ = run(capsys, "demo")
    assert code == 0
    assert time.perf_counter() - start < 5
    assert "A Liv.—Yor" in out and "-> A LVP - YOR" in out
    assert "A BUD - GAL failed: it bounced with A WAR - GAL (1 vs 1)" in out
    assert "Fall 1901 movement (F1901M): results" in out
    assert "Adjustments due" in out
    code, data = run_json(capsys, "demo")
    assert [p["phase"] for p in data["phases"]] == ["S1901M", "F1901M"]
    assert data["next_phase"] == "W1901A"


def test_history(game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "history", str(game_file))
    assert code == 0 and "No phase played yet" in out
    main(["orders", str(game_file), write(tmp_path, "o.txt", "France: A Par-Bur\n")])
    main(["process", str(game_file)])
    capsys.readouterr()
    code, data = run_json(capsys, "history", str(game_file))
    assert [p["phase"] for p in data["phases"]] == ["S1901M"]
    assert data["current_phase"] == "F1901M"
    assert data["phases"][0]["order_results"][0]["input"] == "A Par-Bur"


# -- render ----------------------------------------------------------------------------------------

def test_render_svg_and_png(game_file: Path, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("realpolitik.render.svg")
    main(["orders", str(game_file), write(tmp_path, "o.txt", "France: A Par-Bur, A Mar-Bur\n")])
    code, out, _ = run(capsys, "render", str(game_file), "-o", str(tmp_path / "now.svg"))
    assert code == 0 and "now.svg" in out
    assert "<svg" in (tmp_path / "now.svg").read_text()[:300]
    main(["process", str(game_file)])
    capsys.readouterr()
    code, data = run_json(capsys, "render", str(game_file), "--phase", "S1901M", "-o",
                          str(tmp_path / "s1901.svg"))
    assert code == 0 and data["phase"] == "S1901M"
    code, _, err = run(capsys, "render", str(game_file), "-o", str(tmp_path / "map.gif"))
    assert code == 2 and "map.gif" in err and ".svg or .png" in err
    code, _, err = run(capsys, "render", str(game_file), "--phase", "F1905M")
    assert code == 2 and "F1905M" in err
    pytest.importorskip("cairosvg")
    code, _, _ = run(capsys, "render", str(game_file), "-o", str(tmp_path / "now.png"))
    assert code == 0
    assert (tmp_path / "now.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_default_name(game_file: Path, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("realpolitik.render.svg")
    monkeypatch.chdir(game_file.parent)
    code, out, _ = run(capsys, "render", "game.json")
    assert code == 0 and (game_file.parent / "game-S1901M.svg").exists()


def test_a_misspelt_power_header_is_pointed_out(game_file: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "orders", str(game_file), write(tmp_path, "o.txt",
                                                               "Englnd: A Lvp-Yor\n"))
    assert code == 1
    assert "line 1" in out and "'Englnd:'" in out and "did you mean England?" in out
    assert "not kept" in out


def test_serve_is_a_command_with_help(capsys: pytest.CaptureFixture[str]) -> None:
    from realpolitik.cli import main as cli_main

    with pytest.raises(SystemExit) as info:
        cli_main(["serve", "--help"])
    assert info.value.code == 0
    assert "--port" in capsys.readouterr().out


def test_serve_refuses_a_database_it_cannot_use_before_announcing_itself(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    missing = tmp_path / "no such folder" / "realpolitik.db"
    code, _, err = run(capsys, "serve", "--database", f"sqlite:///{missing}")
    assert code == 3
    assert f"the folder {missing.parent} does not exist" in err and "Traceback" not in err
    assert "realpolitik server on" not in err
    code, _, err = run(capsys, "serve", "--database", f"sqlite:///{tmp_path / 'a.db'}",
                       "--workers", "2")
    assert code == 2 and "SQLite serves one process only" in err
    assert "realpolitik server on" not in err


def test_serve_refuses_a_database_of_a_newer_realpolitik(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    import sqlite3

    from realpolitik.server.migrations import LATEST
    from realpolitik.server.store import Store

    path = tmp_path / "newer.db"
    Store(f"sqlite:///{path}").migrate()
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, 0)",
                     (LATEST + 1,))
    code, _, err = run(capsys, "serve", "--database", f"sqlite:///{path}")
    assert code == 3
    assert f"schema version {LATEST + 1}" in err and "upgrade realpolitik" in err
    assert "Traceback" not in err and "realpolitik server on" not in err


# -- arena ---------------------------------------------------------------------------------------

def test_arena_prints_a_league_table_and_writes_records(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    records = tmp_path / "records"
    code, out, err = run(capsys, "arena", "--bots", "heuristic,random*6", "--games", "2",
                         "--seed", "3", "--records", str(records))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1].split() == ["bot", "seats", "wins", "draws", "survivals", "eliminated",
                                "top", "mean", "centres"]
    assert lines[2].split()[:2] == ["heuristic", "2"] and lines[3].split()[:2] == ["random",
                                                                                   "12"]
    assert err.count("game ") == 2
    files = sorted(p.name for p in records.iterdir())
    assert files == ["game-0001.json", "game-0002.json"]
    code, out, err = run(capsys, "show", str(records / "game-0001.json"))
    assert code == 0, err


def test_arena_json_matches_its_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "arena", "--bots", "heuristic,hold*6", "--games", "2")
    assert code == 0
    assert [line["bot"] for line in data["table"]] == ["heuristic", "hold"]
    assert len(data["games"]) == 2
    heuristic = data["table"][0]
    seats = [g for g in data["games"] for p, b in g["seats"].items() if b == "heuristic"]
    assert heuristic["seats"] == len(seats) == 2
    won = sum(1 for g in data["games"] if g["end"] == "victory"
              and g["seats"][g["winners"][0]] == "heuristic")
    assert heuristic["wins"] == won


@pytest.mark.parametrize(("bots", "message"), [
    ("heuristic,clever", "'clever' is not a bot"),
    ("heuristic,random", "has 7 powers"),
    ("random*0", "NAME*N"),
])
def test_arena_explains_a_bad_line_up(capsys: pytest.CaptureFixture[str], bots: str,
                                      message: str) -> None:
    code, out, err = run(capsys, "arena", "--bots", bots)
    assert code == 2 and message in err
