"""A variant's year as data (issue 29, item 2): ``[[seasons]]`` in ``variant.toml``, the
``phase_skipped`` hook, and every interface that reads or writes a phase.

The variants are in ``tests/variants/``: ``summer`` (Spring, Summer and Fall movement, then
Winter), ``spring_builds`` (the centres change hands after Spring too, with adjustments at
once) and ``summer_truce`` (``summer`` with no Summer turn in the first year: the hook). All
extend the classical variant and copy no file of it. Broken years are written into
``tmp_path``.
"""

from __future__ import annotations

import json
import pickle
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import realpolitik
from realpolitik.bots.arena import run_arena
from realpolitik.calendar import CLASSICAL_CALENDAR, Phase, PhaseType, Season
from realpolitik.errors import HookError, VariantError
from realpolitik.game import Game
from realpolitik.position import Position, PositionError
from realpolitik.record import from_text, to_text
from realpolitik.render.svg import render
from realpolitik.savefile import dumps, loads
from realpolitik.variant import load_variant
from realpolitik.winter import adjustments

VARIANTS = Path(__file__).parent / "variants"
CLASSICAL = Path(realpolitik.__file__).parent / "variants" / "classical"


@pytest.fixture(scope="module")
def summer() -> Any:
    return load_variant(VARIANTS / "summer")


@pytest.fixture(scope="module")
def spring_builds() -> Any:
    return load_variant(VARIANTS / "spring_builds")


def play(game: Game, orders: dict[str, str]) -> str:
    """Play the current phase with ``orders`` (the others hold); the phase played."""
    played = str(game.phase)
    for power, text in orders.items():
        entries = game.submit(power, text)
        assert all(e.ok for e in entries), [e.error for e in entries]
    game.process()
    return played


# -- the classical year, unchanged -------------------------------------------------------------

def test_the_classical_year_is_the_default_and_reads_as_before() -> None:
    variant = load_variant("classical")
    assert variant.calendar == CLASSICAL_CALENDAR and variant.calendar.is_classical
    assert [str(p) for p in variant.calendar.year_of(1901)] == [
        "S1901M", "S1901R", "F1901M", "F1901R", "W1901A"]
    phase = Phase.parse("f1901r")
    assert phase.season is Season.FALL  # hooks that compare with `is` keep working
    assert phase == Phase(Season.FALL, 1901, PhaseType.RETREATS) \
        == Phase("F", 1901, PhaseType.RETREATS)
    assert pickle.loads(pickle.dumps(phase)).season is Season.FALL
    assert eval(repr(phase)) == phase  # noqa: S307 - a repr that pastes back
    assert variant.calendar.phase_name(phase) == "Fall 1901 retreats" == phase.long_name
    assert Phase.parse("S1901M") < Phase.parse("F1901M") < Phase.parse("W1901A")
    with pytest.raises(ValueError, match="no adjustments phase"):
        variant.calendar.parse_phase("S1901A")
    with pytest.raises(ValueError, match="there is no season 'U'"):
        variant.calendar.parse_phase("U1901M")


def test_phases_of_a_variants_own_seasons_are_ordered_and_named_by_its_calendar(
        summer: Any) -> None:
    calendar = summer.calendar
    summer_turn = calendar.parse_phase("u1901m")
    assert summer_turn == Phase("U", 1901, PhaseType.MOVEMENT) and str(summer_turn) == "U1901M"
    assert calendar.phase_name(summer_turn) == "Summer 1901 movement"
    assert calendar.is_before(Phase.parse("S1901R"), summer_turn)
    assert calendar.is_before(summer_turn, Phase.parse("F1901M"))
    assert calendar.after(Phase.parse("W1901A")) == Phase.parse("S1902M")
    assert [s.name for s in calendar.seasons] == ["Spring", "Summer", "Fall", "Winter"]
    assert not calendar.is_classical
    with pytest.raises(ValueError, match="Spring, Fall or Winter"):
        _ = summer_turn < Phase.parse("F1901M")  # the rulebooks' order knows no Summer
    with pytest.raises(PositionError, match="there is no season 'X'"):
        Position.build(summer, "X1901M", [])


# -- the checks of [[seasons]] ------------------------------------------------------------------

def write_year(folder: Path, seasons: str, *, head: str = "") -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "variant.toml").write_text(
        f'[variant]\nid = "t"\nname = "T"\nextends = "{CLASSICAL}"\n{head}\n{seasons}',
        encoding="utf-8")
    return folder


SPRING = '[[seasons]]\nname = "Spring"\ncode = "S"\nphases = ["movement", "retreats"]\n'
FALL = ('[[seasons]]\nname = "Fall"\ncode = "F"\nphases = ["movement", "retreats"]\n'
        'centers_change = true\n')
WINTER = '[[seasons]]\nname = "Winter"\ncode = "W"\nphases = ["adjustments"]\n'


@pytest.mark.parametrize(("seasons", "line", "wanted"), [
    (SPRING.replace('"retreats"', '"retreat"') + FALL + WINTER, 9,
     "'retreat' is not a phase type (did you mean 'retreats'?); the phase types are: "
     "movement, retreats, adjustments"),
    ('[[seasons]]\nname = "Spring"\ncode = "S"\nphases = ["adjustments"]\n' + WINTER, 6,
     "the year has no movement phase"),
    (SPRING + FALL.replace('"F"', '"S"') + WINTER, 12, "the code 'S' is Spring's already"),
    (SPRING + FALL.replace('"Fall"', '"spring"') + WINTER, 11,
     "there is a season called Spring already"),
    (SPRING.replace('["movement", "retreats"]', '["retreats", "movement"]') + FALL + WINTER, 9,
     "cannot be played; a season has [\"movement\", \"retreats\"]"),
    (SPRING.replace('["movement", "retreats"]', '["movement"]') + FALL + WINTER, 9,
     "cannot be played"),
    (SPRING + FALL + WINTER + "centers_change = true\n", 19,
     "the centres change hands at the end of a movement turn, and Winter has none"),
    (SPRING + FALL.replace("centers_change = true\n", "") + WINTER, 6,
     "the supply centres never change hands"),
    (SPRING + FALL, 6, "the year has no adjustments phase"),
    (SPRING + FALL.replace("centers_change", "centres_change") + WINTER, 14,
     "has no key 'centres_change' (did you mean 'centers_change'?)"),
    (SPRING.replace('"S"', '"S1"') + FALL + WINTER, 8, "code must be letters"),
    (SPRING.replace('code = "S"\n', "") + FALL + WINTER, 6, "needs a 'code' key"),
    ('[seasons]\nname = "Spring"\n', 6, "seasons must be tables"),
])
def test_a_wrong_year_is_a_variant_error_naming_the_line(tmp_path: Path, seasons: str,
                                                         line: int, wanted: str) -> None:
    folder = write_year(tmp_path / "year", seasons)
    with pytest.raises(VariantError) as caught:
        load_variant(folder)
    assert caught.value.file == "variant.toml"
    assert wanted in caught.value.detail
    assert caught.value.line == line, (caught.value.line, caught.value)


def test_the_start_must_be_a_phase_of_the_year(tmp_path: Path) -> None:
    folder = write_year(tmp_path / "start", "", head='start = "U1901M"\n')
    with pytest.raises(VariantError, match="there is no season 'U'") as caught:
        load_variant(folder)
    assert caught.value.line == 5 and "[variant] start" in caught.value.detail
    # (the classical setups start the 1914 game in S1914M: a table of its own replaces them)
    folder = write_year(tmp_path / "start", SPRING.replace('"S"', '"U"') + FALL + WINTER
                        + "[[setups]]\nplayers = 7\n", head='start = "U1901M"\n')
    assert str(Game(load_variant(folder)).phase) == "U1901M"


def test_a_setup_phase_must_be_a_phase_of_the_year(tmp_path: Path) -> None:
    folder = write_year(tmp_path / "setup", SPRING.replace('"S"', '"U"') + FALL + WINTER,
                        head='start = "U1901M"\n')
    toml = folder / "variant.toml"
    toml.write_text(toml.read_text() + '\n[[setups]]\nplayers = 7\nstart = "S1901M"\n')
    with pytest.raises(VariantError, match="start: 'S1901M': there is no season 'S'") as caught:
        load_variant(folder)
    assert caught.value.line == 23


# -- a summer turn ----------------------------------------------------------------------------

def test_a_summer_turn_comes_between_spring_and_fall_and_takes_no_centre(summer: Any) -> None:
    game = Game(summer)
    played = [play(game, {"france": "A Mar-Spa"}),          # into Spain in Spring
              play(game, {"france": "A Spa-Por"}),          # on to Portugal in Summer
              play(game, {"france": "F Bre-Mao"})]          # Fall: Portugal is French
    assert played == ["S1901M", "U1901M", "F1901M"]
    fall = game.history[2].position  # no centre changed hands after Spring or Summer
    assert fall.centers == game.history[0].position.centers and "spa" not in fall.centers
    assert game.phase == Phase.parse("W1901A")
    assert game.position.centers["por"] == "france" and "spa" not in game.position.centers
    play(game, {"france": "A Mar B"})
    assert str(game.phase) == "S1902M"
    play(game, {})
    assert str(game.phase) == "U1902M"


def test_a_summer_retreat_phase_is_played_when_a_unit_is_dislodged_in_summer(
        summer: Any) -> None:
    game = Game(summer)
    play(game, {"germany": "A Mun-Bur", "italy": "A Ven-Pie"})
    assert str(game.phase) == "U1901M"
    play(game, {"germany": "A Bur-Mar", "italy": "A Pie S A Bur-Mar"})
    assert str(game.phase) == "U1901R"
    assert [str(d.unit) for d in game.position.dislodged] == ["A MAR"]
    play(game, {"france": "A Mar R Gas"})
    assert str(game.phase) == "F1901M" and str(game.position.units["gas"]) == "A GAS"


def test_a_summer_game_survives_its_record_and_its_savefile(summer: Any) -> None:
    game = Game(summer, seed=4)
    play(game, {"germany": "A Mun-Bur", "italy": "A Ven-Pie"})
    play(game, {"germany": "A Bur-Mar", "italy": "A Pie S A Bur-Mar"})
    play(game, {"france": "A Mar R Gas"})
    play(game, {"germany": "A Mar-Spa"})
    game.process()
    assert str(game.phase) == "S1902M"
    saved = dumps(game)
    assert [p["phase"] for p in json.loads(saved)["phases"]][:3] == [
        "S1901M", "U1901M", "U1901R"]
    again = loads(saved)
    assert again.phase == game.phase and again.position == game.position
    assert [r.position for r in again.history] == [r.position for r in game.history]
    text = to_text(game)
    assert "\nU1901M\n" in text and "\nU1901R\n" in text
    replayed = from_text(text)
    assert replayed.position == game.position and to_text(replayed) == text


# -- builds after spring --------------------------------------------------------------------

def test_spring_builds_count_the_centres_after_spring_and_adjust_at_once(
        spring_builds: Any) -> None:
    game = Game(spring_builds)
    play(game, {"france": "A Mar-Spa"})
    assert str(game.phase) == "S1901A"
    assert game.position.centers["spa"] == "france"
    assert adjustments(game.position)["france"].due == 1
    play(game, {"france": "A Mar B"})
    assert str(game.phase) == "F1901M"
    assert str(game.position.units["mar"]) == "A MAR"
    play(game, {"france": "A Spa-Por, F Bre-Mao"})
    assert str(game.phase) == "W1901A" and game.position.centers["por"] == "france"
    play(game, {"france": "F Bre B"})
    assert str(game.phase) == "S1902M"
    play(game, {})  # no centre changes hands: Spring's adjustments are skipped
    assert str(game.phase) == "F1902M"


def test_a_win_is_seen_when_the_centres_change_hands_after_spring(tmp_path: Path) -> None:
    folder = tmp_path / "quick"
    folder.mkdir()
    (folder / "variant.toml").write_text(
        f'[variant]\nid = "quick"\nname = "Quick"\nextends = "{VARIANTS / "spring_builds"}"\n'
        "solo_centers = 4\n", encoding="utf-8")
    game = Game(load_variant(folder))
    play(game, {"france": "A Mar-Spa"})
    assert game.is_over and game.end is not None
    assert game.end.winners == ("france",) and game.end.phase == "S1901A"
    classical = Game(load_variant("classical"))
    play(classical, {"france": "A Mar-Spa"})
    assert not classical.is_over


# -- a phase skipped by a hook -----------------------------------------------------------------

def test_the_phase_skipped_hook_skips_the_first_summer_only() -> None:
    game = Game(load_variant(VARIANTS / "summer_truce"))
    phases = []
    while game.phase.year < 1903:
        phases.append(str(game.phase))
        game.process()
    assert phases == ["S1901M", "F1901M", "S1902M", "U1902M", "F1902M"]


@pytest.mark.parametrize(("answer", "wanted"), [
    ("True", "phase_skipped skipped every phase of two years after S1901M"),
    ("'yes'", "the hook Stuck.phase_skipped returned str 'yes', not bool"),
])
def test_a_hook_that_skips_every_phase_or_answers_no_bool_is_a_hook_error(
        tmp_path: Path, answer: str, wanted: str) -> None:
    folder = tmp_path / "stuck"
    folder.mkdir()
    (folder / "variant.toml").write_text(
        f'[variant]\nid = "stuck"\nname = "Stuck"\nextends = "{CLASSICAL}"\n'
        'hooks = "Stuck"\n', encoding="utf-8")
    (folder / "hooks.py").write_text(
        "from realpolitik.hooks import VariantHooks\n\n"
        "class Stuck(VariantHooks):\n"
        "    def phase_skipped(self, position):\n"
        f"        return {answer}\n", encoding="utf-8")
    game = Game(load_variant(folder))
    with pytest.raises(HookError, match=re.escape(wanted)):
        game.process()


# -- the interfaces -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["summer", "spring_builds"])
def test_a_seeded_arena_game_of_a_new_year_runs_repeats_and_renders(name: str) -> None:
    variant = load_variant(VARIANTS / name)
    runs = [run_arena(["heuristic", *["random"] * 6], games=1, seed=2, variant=variant,
                      end_year=1902)[1][0] for _ in range(2)]
    assert runs[0].as_json() == runs[1].as_json()
    game = runs[0].game
    seasons = {r.position.phase.season for r in game.history}
    assert seasons >= ({"S", "U", "F"} if name == "summer" else {"S", "F"})
    if name == "spring_builds":
        assert any(str(r.position.phase).startswith("S") and r.position.phase.type
                   is PhaseType.ADJUSTMENTS for r in game.history)
    svg = render(game.history[1].position)
    title = variant.calendar.phase_name(game.history[1].position.phase)
    assert title[0].upper() + title[1:] in svg
    again = loads(dumps(game))  # the saved game replays phase by phase, and so does the record
    assert [r.position for r in again.history] == [r.position for r in game.history]
    assert from_text(to_text(game)).position == game.position


def test_the_case_files_agree_with_their_expect() -> None:
    for name in ("summer", "spring_builds", "summer_truce"):
        done = subprocess.run([sys.executable, "-m", "realpolitik", "adjudicate", "--jsonl",
                               "--check", str(VARIANTS / name / "cases.jsonl")],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr


def test_the_command_line_names_a_summer_phase(tmp_path: Path) -> None:
    env_path = str(VARIANTS)
    run = [sys.executable, "-m", "realpolitik"]
    env = {"REALPOLITIK_VARIANTS_PATH": env_path, "PATH": "/usr/bin:/bin"}
    file = tmp_path / "summer.json"
    done = subprocess.run([*run, "new", str(file), "--variant", "summer"], env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([*run, "process", str(file)], env=env, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "Next: Summer 1901 movement (U1901M)" in done.stdout
    done = subprocess.run([*run, "show", str(file), "--phase", "u1901m", "--json"], env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["phase_name"] == "Summer 1901 movement"


def test_daide_and_the_package_facade_refuse_a_year_they_cannot_say(summer: Any) -> None:
    from realpolitik.compat.diplomacy import Game as FacadeGame
    from realpolitik.daide.board import DaideMap, MapError

    with pytest.raises(MapError, match=r"a year of its own \(S \(Spring: M, R\), U \(Summer"):
        DaideMap.of(summer)
    with pytest.raises(ValueError, match="plays Spring, Fall and Winter only"):
        FacadeGame(map_name=str(VARIANTS / "summer"))


def test_the_server_plays_a_summer_game_into_its_second_year(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from realpolitik.server import Settings, create_app

    settings = Settings(database_url=f"sqlite:///{tmp_path / 's.db'}", background=False,
                        variants_path=str(VARIANTS))
    with TestClient(create_app(settings)) as client:
        r = client.post("/auth/signup", json={"username": "fred", "password": "correct horse"})
        headers = {"Authorization": f"Bearer {r.json()['token']}"}
        r = client.post("/games", json={"name": "summer", "variant": "summer",
                                        "join_as": "france", "fill_with_bots": "random"},
                        headers=headers)
        assert r.status_code == 201, r.text
        game = r.json()["id"]
        rng = random.Random(1)
        state = client.get(f"/games/{game}", headers=headers).json()
        assert state["seasons"] == {"S": "Spring", "U": "Summer", "F": "Fall", "W": "Winter"}
        names = []
        while state["phase"] not in ("U1902M", "F1902M") and state["status"] == "active":
            names.append(state["phase_name"])
            listing = client.get(f"/games/{game}/legal-orders", params={"power": "france"},
                                 headers=headers).json()
            picks = [rng.choice(options)["text"] for loc, options in listing.items()
                     if loc != "waive" and options]
            r = client.put(f"/games/{game}/orders", json={
                "power": "france", "text": "\n".join(picks), "ready": True}, headers=headers)
            assert r.status_code == 200, r.text
            state = client.get(f"/games/{game}", headers=headers).json()
        assert names[:2] == ["Spring 1901 movement", "Summer 1901 movement"]
        assert state["phase"] in ("U1902M", "F1902M"), state["phase"]
        history = [h["phase"] for h in client.get(f"/games/{game}/history").json()]
        assert history[:1] == ["S1901M"] and "U1901M" in history and "S1902M" in history
        listed = client.get("/games", headers=headers).json()
        mine = next(g for g in listed if g["id"] == game)
        assert mine["phase_name"].startswith(("Summer 1902", "Fall 1902"))


def test_the_docs_walk_through_the_summer_variant_as_it_is() -> None:
    """docs/variant-format.md's Summer Campaigns is tests/variants/summer/variant.toml without
    its comment, and its Summer Truce hook is the one in the folder."""
    docs = (Path(__file__).parent.parent / "docs" / "variant-format.md").read_text()
    section = docs[docs.index("*Summer Campaigns*"):]
    shown = section[section.index("```toml") + len("```toml"):]
    shown = shown[:shown.index("```")].strip()
    file = (VARIANTS / "summer" / "variant.toml").read_text()
    assert shown == "\n".join(line for line in file.splitlines()
                              if not line.startswith("#")).strip()
    section = docs[docs.index("class SummerTruce"):]
    hook = (VARIANTS / "summer_truce" / "hooks.py").read_text()
    for line in section[:section.index("```")].splitlines()[1:]:
        if line.strip().startswith("def "):
            continue  # (the file's has types)
        wanted = line.strip().replace('"U"', "SUMMER")
        assert wanted in hook, wanted


def test_an_error_in_an_inherited_year_names_the_ancestors_file_and_line(tmp_path: Path) -> None:
    parent = write_year(tmp_path / "parent", SPRING.replace('"movement", ', '"moves", ') + FALL
                        + WINTER)
    child = tmp_path / "child"
    child.mkdir()
    (child / "variant.toml").write_text(
        '[variant]\nid = "child"\nname = "Child"\nextends = "../parent"\n', encoding="utf-8")
    with pytest.raises(VariantError, match="'moves' is not a phase type") as caught:
        load_variant(child)
    assert Path(caught.value.file) == (parent / "variant.toml").resolve()
    assert caught.value.line == 9
