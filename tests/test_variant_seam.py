"""The variant seam opened (issue 29): inheritance (``extends``), ``hooks.py`` as a real module,
errors that name the file and line or the hook, games that pickle and deep-copy, the arena in
several processes, and a picture for a map without artwork.

The variants are in ``tests/variants/``: ``build_anywhere`` and ``sea_ice`` extend the classical
variant without copying a file of it; ``archipelago`` is a small new map with no artwork.
Broken variants are written into ``tmp_path`` by each test.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import realpolitik
from realpolitik.bots import make_bot
from realpolitik.bots.arena import run_arena
from realpolitik.errors import HookError, VariantError, VariantWarning
from realpolitik.game import Game
from realpolitik.legality import check_order
from realpolitik.listing import legal_orders
from realpolitik.notation import parse_order
from realpolitik.position import Position
from realpolitik.render.svg import load_map_art, render
from realpolitik.variant import load_variant

VARIANTS = Path(__file__).parent / "variants"
# the classical variant's folder in the realpolitik being tested (the compiled build is installed
# into site-packages, not run from this checkout)
CLASSICAL = Path(realpolitik.__file__).parent / "variants" / "classical"


def write_variant(folder: Path, toml: str, *, files: dict[str, str] | None = None,
                  map_from: Path | None = VARIANTS / "hill") -> Path:
    """A variant folder: ``variant.toml``, the map files of ``map_from``, and ``files``."""
    folder.mkdir(parents=True, exist_ok=True)
    if map_from is not None:
        for name in ("provinces.csv", "adjacencies.csv", "coasts.csv"):
            if (map_from / name).is_file():
                shutil.copy(map_from / name, folder / name)
    (folder / "variant.toml").write_text(toml, encoding="utf-8")
    for name, text in (files or {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


HILL_TOML = """\
[variant]
id = "twohill"
name = "Two on a Hill"
start = "S1901M"
solo_centers = 2
{extra}

[[powers]]
id = "red"
name = "Red"

[[powers]]
id = "blue"
name = "Blue"

[start]
red = ["A wes"]
blue = ["A eas"]
"""


def load_quietly(path: Path | str) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", VariantWarning)
        return load_variant(path)


# -- extends ------------------------------------------------------------------------------

def test_a_child_of_classical_copies_no_file_and_changes_only_what_it_says() -> None:
    child = load_variant(VARIANTS / "build_anywhere")
    classical = load_variant("classical")
    assert sorted(p.name for p in (VARIANTS / "build_anywhere").iterdir()) == [
        "cases.jsonl", "variant.toml"]
    assert child.id == "build_anywhere" and child.name == "Build Anywhere"
    assert child.map.provinces == classical.map.provinces
    assert child.start_units == classical.start_units
    assert child.powers == classical.powers
    assert child.solo_centers == classical.solo_centers
    assert child.rules.builds.value == "any_owned_center"
    assert classical.rules.builds.value == "home_centers"
    assert child.aliases == ()  # "standard" names the classical variant only
    assert child.folders[1] == CLASSICAL.resolve()


def test_build_anywhere_lets_a_power_build_in_an_owned_centre_the_classical_game_refuses(
) -> None:
    for name, legal in (("classical", False), (str(VARIANTS / "build_anywhere"), True)):
        variant = load_variant(name)
        position = Position.build(variant, "W1901A", [],
                                  {"lon": "england", "edi": "england", "nwy": "england"})
        order = parse_order("F nwy B", position, power="england")
        assert (check_order(position, order) is None) is legal, name
        listed = legal_orders(position, "england")
        assert (order in listed.get("nwy", ())) is legal, name


@pytest.mark.parametrize("name", ["build_anywhere", "sea_ice", "transform", "fortify"])
def test_the_case_files_of_the_children_agree_with_their_expect(name: str) -> None:
    cases = VARIANTS / name / "cases.jsonl"
    done = subprocess.run([sys.executable, "-m", "realpolitik", "adjudicate", "--jsonl",
                           "--check", str(cases)], capture_output=True, text=True,
                          cwd=Path(__file__).parent.parent / "docs", check=False)
    count = len(cases.read_text().splitlines())
    assert done.returncode == 0, done.stderr
    assert f"{count}/{count} cases agree" in done.stderr


def test_a_child_overrides_a_table_and_keeps_the_rest(tmp_path: Path) -> None:
    parent = write_variant(tmp_path / "parent", HILL_TOML.format(extra=""))
    child = write_variant(tmp_path / "child", """\
[variant]
id = "child"
name = "Child"
extends = "../parent"
solo_centers = 1

[start]
red = ["A hil"]
""", map_from=None)
    loaded = load_variant(child)
    assert [(u.power, u.location) for u in loaded.start_units] == [("red", "hil")]
    assert loaded.power_ids == ("red", "blue") and loaded.solo_centers == 1
    assert loaded.start_phase == "S1901M"
    assert loaded.folders == (child.resolve(), parent.resolve())


def test_a_child_with_its_own_map_files_uses_them_all(tmp_path: Path) -> None:
    write_variant(tmp_path / "parent", HILL_TOML.format(extra=""))
    child = write_variant(tmp_path / "child", """\
[variant]
id = "child"
name = "Child"
extends = "../parent"
""", map_from=VARIANTS / "hill")
    (child / "provinces.csv").write_text(
        (child / "provinces.csv").read_text().replace("Hill", "Mount"))
    assert load_variant(child).map.provinces["hil"].name == "Mount"


@pytest.mark.parametrize(("extends", "wanted"), [
    ('"nowhere"', r"variant\.toml, line 4: \[variant\] extends: no variant called 'nowhere'"),
    ('"."', r"line 4: \[variant\] extends names the variant itself"),
    ("3", r"line 4: \[variant\] extends must be a variant's id or folder"),
])
def test_a_bad_extends_is_an_error_with_its_line(tmp_path: Path, extends: str,
                                                 wanted: str) -> None:
    folder = write_variant(tmp_path / "v", f"""\
[variant]
id = "v"
name = "V"
extends = {extends}
""", map_from=None)
    with pytest.raises(VariantError, match=wanted):
        load_variant(folder)


def test_extends_in_a_circle_is_an_error(tmp_path: Path) -> None:
    for name, other in (("a", "b"), ("b", "a")):
        write_variant(tmp_path / name, f'[variant]\nid = "{name}"\nname = "{name}"\n'
                      f'extends = "../{other}"\n', map_from=None)
    with pytest.raises(VariantError, match="circle"):
        load_variant(tmp_path / "a")


def test_an_error_in_the_parent_names_the_parent_file_and_line(tmp_path: Path) -> None:
    write_variant(tmp_path / "parent", HILL_TOML.format(extra='colour = "red"'))
    child = write_variant(tmp_path / "child", '[variant]\nid = "c"\nname = "C"\n'
                          'extends = "../parent"\n', map_from=None)
    with pytest.raises(VariantError) as caught:
        load_variant(child)
    text = str(caught.value)
    assert text.startswith("variant.toml, line 4: [variant] extends '../parent': ")
    assert "parent/variant.toml, line 6: [variant] has no key 'colour'" in text


def test_hooks_are_inherited_from_the_parent_folder(tmp_path: Path) -> None:
    child = write_variant(tmp_path / "child", '[variant]\nid = "c"\nname = "C"\n'
                          f'extends = "{VARIANTS / "hill"}"\n', map_from=None)
    loaded = load_quietly(child)
    assert type(loaded.hooks).__name__ == "KingOfTheHill"  # type: ignore[attr-defined]


# -- hooks.py, a real module --------------------------------------------------------------

DATACLASS_HOOKS = """\
from __future__ import annotations

from dataclasses import dataclass

from realpolitik.hooks import VariantHooks

from .helpers import REASON


@dataclass(frozen=True)
class Note:
    text: str


class Careful(VariantHooks):
    def order_veto(self, position, unit, order):
        if unit.location == "wes" and order.__class__.__name__ == "Move":
            return Note(REASON).text
        return None
"""


def test_hooks_py_may_hold_dataclasses_and_import_a_file_beside_it(tmp_path: Path) -> None:
    folder = write_variant(tmp_path / "v", HILL_TOML.format(extra='hooks = "Careful"'),
                           files={"hooks.py": DATACLASS_HOOKS,
                                  "helpers.py": 'REASON = "West stays home"\n'})
    variant = load_quietly(folder)
    position = Position.initial(variant)  # type: ignore[arg-type]
    illegal = check_order(position, parse_order("A wes - hil", position))
    assert "West stays home" in str(illegal)
    module = sys.modules[type(variant.hooks).__module__]  # type: ignore[attr-defined]
    note = module.Note("kept")
    assert pickle.loads(pickle.dumps(note)) == note


def test_two_folders_of_one_name_get_two_modules(tmp_path: Path) -> None:
    loaded = []
    for where, reason in (("one", "first"), ("two", "second")):
        folder = write_variant(tmp_path / where / "v",
                               HILL_TOML.format(extra='hooks = "Careful"'),
                               files={"hooks.py": DATACLASS_HOOKS,
                                      "helpers.py": f"REASON = {reason!r}\n"})
        loaded.append(load_quietly(folder))
    positions = [Position.initial(v) for v in loaded]  # type: ignore[arg-type]
    reasons = [str(check_order(p, parse_order("A wes - hil", p))) for p in positions]
    assert "first" in reasons[0] and "second" in reasons[1]


@pytest.mark.parametrize(("hooks", "wanted"), [
    ("def broken(:\n", r"hooks\.py, line 1: not valid Python"),
    ("import nowhere_at_all\n", r"hooks\.py, line 1: failed on import: ModuleNotFoundError"),
    ("x = 1\n\nraise ValueError('no')\n", r"hooks\.py, line 3: failed on import: ValueError"),
])
def test_a_hooks_py_that_fails_to_import_names_its_line(tmp_path: Path, hooks: str,
                                                        wanted: str) -> None:
    folder = write_variant(tmp_path / "v", HILL_TOML.format(extra='hooks = "X"'),
                           files={"hooks.py": hooks})
    with pytest.raises(VariantError, match=wanted):
        load_variant(folder)


BUGGY_HOOKS = """\
from realpolitik.hooks import VariantHooks


class Buggy(VariantHooks):
    def defence_bonuses(self, position):
        return position.no_such_thing


class WrongKind(VariantHooks):
    def defence_bonuses(self, position):
        return ["hil"]


class Keeper(VariantHooks):
    def defence_bonuses(self, position):
        self.seen = position
        return {}
"""


@pytest.mark.parametrize(("name", "wanted"), [
    ("Buggy", r"hooks\.py, line 6: the hook Buggy\.defence_bonuses failed: AttributeError"),
    ("WrongKind", r"the hook WrongKind\.defence_bonuses returned list \['hil'\], not Mapping"),
    ("Keeper", r"Keeper tried to set 'seen' on its hooks object, which every game of the "
               r"variant shares"),
])
def test_a_bug_in_a_hook_is_a_hook_error_naming_the_hook(tmp_path: Path, name: str,
                                                         wanted: str) -> None:
    folder = write_variant(tmp_path / "v", HILL_TOML.format(extra=f'hooks = "{name}"'),
                           files={"hooks.py": BUGGY_HOOKS})
    game = Game(load_quietly(folder))  # type: ignore[arg-type]
    with pytest.raises(HookError, match=wanted):
        game.process()


def test_adjudicate_exits_non_zero_when_a_hook_fails(tmp_path: Path) -> None:
    write_variant(tmp_path / "v", HILL_TOML.format(extra='hooks = "Buggy"'),
                  files={"hooks.py": BUGGY_HOOKS})
    cases = tmp_path / "cases" / "c.jsonl"
    cases.parent.mkdir()
    cases.write_text(json.dumps({"id": "bug", "variant": "../v", "phase": "S1901M",
                                 "units": {"RED": ["A WES"]},
                                 "orders": {"RED": ["A WES H"]}}) + "\n")
    done = subprocess.run([sys.executable, "-m", "realpolitik", "adjudicate", "--jsonl",
                           str(cases)], capture_output=True, text=True, check=False)
    assert done.returncode != 0
    result = json.loads(done.stdout)
    assert result["hook"] == "Buggy.defence_bonuses"
    assert "hooks.py, line 6" in result["error"]
    assert "failed in a variant's hook" in done.stderr


# -- errors and warnings in the data --------------------------------------------------------

@pytest.mark.parametrize(("table", "wanted"), [
    ('[start]\nred = ["A wes"]\nblue = ["A nowhere"]\n', r"line 18: \[start\] blue"),
    ('[start]\nred = ["A wes"]\ngreen = ["A eas"]\n', r"line 18: \[start\] names an unknown"),
    ('[start]\nred = ["A wes"]\nblue = "A eas"\n', r"line 18: \[start\] blue must be a list"),
    ('[start_centers]\nred = ["wes"]\nblue = ["hil"]\n',
     r"line 22: \[start_centers\] blue: 'hil' is not a supply centre"),
    ('[start_centers]\nred = ["wes"]\ngreen = ["eas"]\n',
     r"line 22: \[start_centers\] names an unknown power"),
    ('[[setups]]\nplayers = 2\n\n[[setups]]\nplayers = 1\nteams = [["red", "green"]]\n',
     r"line 25: \[\[setups\]\] number 2 names an unknown power 'green'"),
    ('[[setups]]\nplayers = 1\nteams = [["red"], ["blue"]]\n',
     r"line 21: \[\[setups\]\] number 1 has 2 teams for 1 players"),
    ('[[setups]]\nplayers = 2\nvictory_by = "team"\n',
     r"line 22: \[\[setups\]\] number 1: victory_by must be"),
])
def test_start_and_setup_errors_name_their_line(tmp_path: Path, table: str,
                                                wanted: str) -> None:
    toml = HILL_TOML.format(extra="")
    if table.startswith("[start]"):
        toml = toml[:toml.index("[start]")]
    toml = toml.rstrip("\n") + "\n\n" + table
    folder = write_variant(tmp_path / "v", toml)
    with pytest.raises(VariantError, match=wanted):
        load_variant(folder)


def test_a_misspelt_key_is_named_with_the_key_meant(tmp_path: Path) -> None:
    folder = write_variant(tmp_path / "v", HILL_TOML.format(extra="").replace(
        "solo_centers", "solo_centres"))
    with pytest.raises(VariantError, match=r"line 5: \[variant\] has no key 'solo_centres' "
                                           r"\(did you mean 'solo_centers'\?\)"):
        load_variant(folder)


def test_suspicious_data_is_warned_about(tmp_path: Path) -> None:
    toml = HILL_TOML.format(extra="").replace("solo_centers = 2", "solo_centers = 9")
    folder = write_variant(tmp_path / "v", toml)
    provinces = folder / "provinces.csv"
    provinces.write_text(provinces.read_text().replace(",blue,", ",,"))
    with pytest.warns(VariantWarning) as caught:
        load_variant(folder)
    messages = [str(w.message) for w in caught]
    assert any("Blue has no home centre" in m and "line 13" in m for m in messages)
    assert any("solo_centers is 9 but the map has only 2 supply centres" in m
               and "line 5" in m for m in messages)



def test_a_warning_about_an_inherited_value_names_the_ancestor_s_line(tmp_path: Path) -> None:
    toml = HILL_TOML.format(extra="").replace("solo_centers = 2", "solo_centers = 9")
    parent = write_variant(tmp_path / "parent", toml)
    child = tmp_path / "child"
    child.mkdir()
    (child / "variant.toml").write_text(
        '[variant]\nid = "child"\nname = "Child"\nextends = "../parent"\n')
    with pytest.warns(VariantWarning) as caught:
        load_variant(child)
    messages = [str(w.message) for w in caught]
    assert any(f"{parent.resolve() / 'variant.toml'}, line 5: solo_centers is 9" in m
               for m in messages), messages

# -- pickling and copying games ---------------------------------------------------------------

def _play(game: Game, phases: int, seed: int) -> None:
    bot = make_bot("random", seed)
    for _ in range(phases):
        if game.is_over:
            return
        for power in game.powers_to_order():
            game.submit(power, bot.orders(game.position, power, game.rules))
        game.process()


@pytest.mark.parametrize(("name", "phases"), [("classical", 9), ("colonial_winters", 3),
                                              (str(VARIANTS / "sea_ice"), 6)])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_copied_game_plays_on_exactly_as_the_original(name: str, phases: int,
                                                        seed: int) -> None:
    game = Game(load_variant(name), seed=seed)
    _play(game, phases, seed)
    pickled = pickle.loads(pickle.dumps(game))
    deep = copy.deepcopy(game)
    position_copy = pickle.loads(pickle.dumps(game.position))
    assert position_copy == game.position == deep.position == pickled.position
    for each in (game, pickled, deep):
        _play(each, phases, seed + 100)
    assert game.position == pickled.position == deep.position
    assert [str(p.position.phase) for p in game.history] == [
        str(p.position.phase) for p in pickled.history]


def test_the_arena_in_two_processes_plays_the_same_games() -> None:
    one = run_arena(["random"] * 7, games=3, seed=5, end_year=1903)
    two = run_arena(["random"] * 7, games=3, seed=5, end_year=1903, jobs=2)
    assert [g.as_json() for g in one[1]] == [g.as_json() for g in two[1]]
    assert [s.as_json() for s in one[0]] == [s.as_json() for s in two[0]]


def test_the_arena_refuses_no_processes() -> None:
    with pytest.raises(ValueError, match="at least one process"):
        run_arena(["random"] * 7, games=1, jobs=0)


@pytest.mark.parametrize("name", ["build_anywhere", "sea_ice", "transform", "fortify"])
def test_a_seeded_arena_game_of_a_child_variant_runs_and_repeats(name: str) -> None:
    variant = load_variant(VARIANTS / name)
    runs = [run_arena(["heuristic", *["random"] * 6], games=1, seed=3, variant=variant,
                      end_year=1904)[1][0] for _ in range(2)]
    assert runs[0].as_json() == runs[1].as_json()
    assert runs[0].game.position.phase.year >= 1904 or runs[0].game.is_over
    assert "<svg" in render(runs[0].game.position)


# -- a picture for every map -----------------------------------------------------------------

def test_a_child_of_classical_is_drawn_with_the_classical_artwork() -> None:
    art = load_map_art(load_variant(VARIANTS / "build_anywhere"))
    assert art == load_map_art(load_variant("classical"))
    assert "links" not in art.decor


def test_a_map_without_artwork_is_drawn_from_its_data_with_every_province() -> None:
    variant = load_variant(VARIANTS / "archipelago")
    svg = render(Game(variant).position)
    drawn = set(re.findall(r'<path id="([a-z0-9_]+)"', svg))
    assert drawn >= set(variant.map.provinces)
    assert 'id="links"' in svg
    art = load_map_art(variant)
    # the x, y columns of provinces.csv place their spaces: West left of East, North on top
    assert art.units["wes"][0] < art.units["mid"][0] < art.units["eas"][0]
    assert art.units["nor"][1] < art.units["sse"][1]
    for coast in ("cap/nc", "cap/sc"):
        assert coast in art.units
    assert render(Game(variant).position) == svg  # the same picture every time


def test_artwork_in_the_variant_folder_is_used(tmp_path: Path) -> None:
    folder = tmp_path / "arch"
    shutil.copytree(VARIANTS / "archipelago", folder)
    from realpolitik.render.schematic import schematic_art_data

    data = schematic_art_data(load_variant(folder))
    data["note"] = "drawn by hand"
    (folder / "map.json").write_text(json.dumps(data))
    assert load_map_art(load_variant(folder)).note == "drawn by hand"


def test_schematic_cells_tile_the_picture() -> None:
    from realpolitik.render.schematic import cells

    generator = random.Random(7)
    points = {f"p{i}": (generator.uniform(0, 100), generator.uniform(0, 50)) for i in range(12)}
    shapes = cells(points, 100.0, 50.0)

    def area(polygon: list[tuple[float, float]]) -> float:
        return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2)
                       in zip(polygon, polygon[1:] + polygon[:1], strict=True))) / 2

    assert sum(area(p) for p in shapes.values()) == pytest.approx(5000.0)
    for name, (x, y) in points.items():
        nearest = min(points, key=lambda n: (points[n][0] - x) ** 2 + (points[n][1] - y) ** 2)
        assert nearest == name and shapes[name]


# -- variants of configured folders, records that find a moved folder --------------------------

def test_the_folders_of_the_variants_path_are_searched(tmp_path: Path) -> None:
    from realpolitik.variant import available_variants, search_folders

    shutil.copytree(VARIANTS / "archipelago", tmp_path / "lib" / "archipelago")
    search = search_folders({"REALPOLITIK_VARIANTS_PATH": f"{tmp_path / 'lib'}:"
                                                         f"{VARIANTS / 'build_anywhere'}"})
    assert available_variants() == ("classical", "colonial_winters")
    offered = available_variants(search)
    assert offered[:2] == ("classical", "colonial_winters")
    assert {"archipelago", "build_anywhere"} <= set(offered)
    assert load_variant("archipelago", search=search).folders[0] == (
        tmp_path / "lib" / "archipelago").resolve()
    assert load_variant("classical", search=search).source == "classical"


def test_a_record_finds_its_variant_again_after_the_folder_moved(tmp_path: Path) -> None:
    from realpolitik import savefile
    from realpolitik.errors import GameError

    first = tmp_path / "first" / "archipelago"
    shutil.copytree(VARIANTS / "archipelago", first)
    game = Game(load_variant(first), seed=4)
    _play(game, 3, 4)
    text = savefile.dumps(game)
    record = json.loads(text)
    assert record["variant_id"] == "archipelago"
    assert record["variant_digest"] == game.variant.digest
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    first.rename(moved / "archipelago")
    with pytest.raises(GameError, match="REALPOLITIK_VARIANTS_PATH"):
        savefile.loads(text)
    again = savefile.loads(text, search=(moved,))
    assert again.position == game.position
    assert again.variant.folders[0] == (moved / "archipelago").resolve()


def test_the_hash_picks_the_unchanged_copy_among_variants_of_one_id(tmp_path: Path) -> None:
    for name in ("a", "b"):
        shutil.copytree(VARIANTS / "archipelago", tmp_path / name)
    changed = tmp_path / "a" / "variant.toml"
    changed.write_text(changed.read_text().replace("solo_centers = 6", "solo_centers = 7"))
    original = load_variant(VARIANTS / "archipelago")
    found = load_variant("archipelago", search=(tmp_path / "a", tmp_path / "b"),
                         digest=original.digest)
    assert found.digest == original.digest and found.solo_centers == 6
    assert load_variant(tmp_path / "a").digest != original.digest


def test_two_folders_of_one_id_are_warned_of_naming_both_and_the_one_used(
        tmp_path: Path) -> None:
    from realpolitik.errors import VariantWarning

    for name in ("a", "b"):
        shutil.copytree(VARIANTS / "archipelago", tmp_path / name)
    search = (tmp_path / "a", tmp_path / "b")
    with pytest.warns(VariantWarning) as caught:
        variant = load_variant("archipelago", search=search)
    assert variant.folders[0] == (tmp_path / "a").resolve()
    [said] = [str(w.message) for w in caught]
    assert f"2 variants have the id 'archipelago': {tmp_path / 'a'}, {tmp_path / 'b'}" in said
    assert f"a new game of 'archipelago' uses {tmp_path / 'a'} " in said
    # a record finds its own by its digest: nothing to warn of
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_variant("archipelago", search=search, digest=variant.digest)


def test_the_command_line_warns_of_two_folders_of_one_id_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from realpolitik.cli import main

    for name in ("a", "b"):
        shutil.copytree(VARIANTS / "archipelago", tmp_path / "lib" / name)
    monkeypatch.setenv("REALPOLITIK_VARIANTS_PATH", str(tmp_path / "lib"))
    assert main(["new", str(tmp_path / "isles.json"), "--variant", "archipelago"]) == 0
    said = capsys.readouterr().err
    assert said.count("realpolitik new: warning: 2 variants have the id 'archipelago': "
                      f"{tmp_path / 'lib' / 'a'}, {tmp_path / 'lib' / 'b'}; a new game of "
                      f"'archipelago' uses {tmp_path / 'lib' / 'a'}") == 1, said
    # the game's record names its folder: opening it again says nothing of the other
    assert main(["show", str(tmp_path / "isles.json")]) == 0
    assert "warning" not in capsys.readouterr().err


def test_a_searched_variant_called_classical_is_warned_of_as_hidden(tmp_path: Path) -> None:
    from realpolitik.errors import VariantWarning
    from realpolitik.variant import VARIANTS_DIR, variant_id_clashes

    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "variant.toml").write_text(
        '[variant]\nid = "classical"\nname = "Mine"\nextends = "classical"\n')
    assert set(variant_id_clashes((tmp_path,))) == {"classical"}
    with pytest.warns(VariantWarning, match=r"uses the shipped one \(") as caught:
        variant = load_variant("classical", search=(tmp_path,))
    assert variant.source == "classical"
    assert str(VARIANTS_DIR / "classical") in str(caught[0].message)
    assert str(tmp_path / "mine") in str(caught[0].message)
    assert variant_id_clashes((VARIANTS / "archipelago",)) == {}



def test_a_record_whose_variant_files_changed_is_read_with_a_warning(tmp_path: Path) -> None:
    from realpolitik import savefile

    folder = tmp_path / "archipelago"
    shutil.copytree(VARIANTS / "archipelago", folder)
    game = Game(load_variant(folder), seed=5)
    _play(game, 2, 5)
    text = savefile.dumps(game)
    with warnings.catch_warnings():
        warnings.simplefilter("error", VariantWarning)
        savefile.loads(text)  # unchanged: read without a word
    toml = folder / "variant.toml"
    toml.write_text(toml.read_text() + "\n# a note added after the game began\n")
    with pytest.warns(VariantWarning, match="have changed since this game was recorded"):
        again = savefile.loads(text)
    assert again.position == game.position

def test_the_server_offers_and_plays_the_variants_of_its_folders(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from realpolitik.server import Settings, create_app

    settings = Settings(database_url=f"sqlite:///{tmp_path / 'v.db'}", background=False,
                        variants_path=str(VARIANTS))
    with TestClient(create_app(settings)) as client:
        offered = {v["id"]: v for v in client.get("/web/variants").json()["variants"]}
        assert {"classical", "archipelago", "sea_ice", "build_anywhere"} <= set(offered)
        assert [p["id"] for p in offered["archipelago"]["powers"]] == ["north", "west", "east"]
        r = client.post("/auth/signup", json={"username": "fred", "password": "correct horse"})
        headers = {"Authorization": f"Bearer {r.json()['token']}"}
        r = client.post("/games", json={"name": "isles", "variant": "archipelago",
                                        "join_as": "north"}, headers=headers)
        assert r.status_code == 201, r.text
        svg = client.get(f"/games/{r.json()['id']}/map.svg", headers=headers).text
        assert set(re.findall(r'<path id="([a-z0-9_]+)"', svg)) >= set(
            load_variant(VARIANTS / "archipelago").map.provinces)


def test_the_settings_read_the_variants_path() -> None:
    pytest.importorskip("fastapi")
    from realpolitik.server import Settings

    settings = Settings.from_env({"REALPOLITIK_VARIANTS_PATH": "/srv/variants"})
    assert settings.variants_path == "/srv/variants"


@pytest.mark.parametrize(("change", "wanted"), [
    (('name = "Red"', 'name = "Red'), r"variant\.toml, line 10: not valid TOML"),
    (('name = "Blue"\n', ""), r"variant\.toml, line 12: a \[\[powers\]\] entry lacks 'name'"),
    (('name = "Blue"', 'name = "Red"'), r"line 12: the power name 'Red' is used for red and "
                                        r"blue"),
])
def test_toml_and_power_errors_name_their_line(tmp_path: Path, change: tuple[str, str],
                                               wanted: str) -> None:
    folder = write_variant(tmp_path / "v", HILL_TOML.format(extra="").replace(*change))
    with pytest.raises(VariantError, match=wanted):
        load_variant(folder)


def test_powers_without_a_colour_get_distinct_ones_and_a_given_colour_stands(
        tmp_path: Path) -> None:
    """Every power without ``colour`` used to be the same grey, so a new variant's map showed
    its powers' units alike."""
    from realpolitik.variant import DEFAULT_COLOURS

    plain = load_variant(write_variant(tmp_path / "plain", HILL_TOML.format(extra="")))
    colours = [plain.power(p).colour for p in plain.power_ids]
    assert colours == list(DEFAULT_COLOURS[:2]) and len(set(DEFAULT_COLOURS)) == 10
    given = load_variant(write_variant(tmp_path / "given", HILL_TOML.format(extra="").replace(
        'name = "Blue"', 'name = "Blue"\ncolour = "#0000ff"')))
    assert [given.power(p).colour for p in given.power_ids] == [DEFAULT_COLOURS[0], "#0000ff"]
    picture = render(Position.initial(plain))
    assert all(colour in picture for colour in DEFAULT_COLOURS[:2])
