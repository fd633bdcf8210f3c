"""Order kinds a variant declares (``realpolitik.kinds``), proved on the test variant
``tests/variants/transform/`` (a unit changes type in place in a winter, instead of a build):
reading and writing, legality, listing, adjudication, bots, pictures, the API's fields and the
registry's own checks. Colonial Winters' BLOCK and MOBILISE go through the same registry
(``tests/test_colonial_winters_orders.py``)."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
import warnings
from pathlib import Path
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from realpolitik.bots import make_bot
from realpolitik.errors import InvalidOrderError, VariantError, VariantWarning
from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.hooks import VariantHooks
from realpolitik.kinds import OrderKind
from realpolitik.legality import check_order
from realpolitik.listing import legal_orders
from realpolitik.notation import parse_order
from realpolitik.orders import Build, VariantOrder
from realpolitik.position import PhaseType, Position, Unit
from realpolitik.render.svg import render
from realpolitik.rules import rules_for
from realpolitik.server.schemas import StructuredOrder, order_to_wire
from realpolitik.variant import Variant, load_variant
from realpolitik.writing import place_writer, write_order

VARIANTS = Path(__file__).parent / "variants"
TRANSFORM = VARIANTS / "transform"
FRANCE_HOMES = {"bre": "france", "par": "france", "mar": "france", "spa": "france"}


def transform_variant() -> Variant:
    return load_variant(TRANSFORM)


def winter(units: list[Unit], centres: dict[str, str]) -> Position:
    return Position.build(transform_variant(), "W1901A", units, centres)


def army(power: str, where: str) -> Unit:
    return Unit(power, UnitType.ARMY, where)


def fleet(power: str, where: str) -> Unit:
    return Unit(power, UnitType.FLEET, where)


# -- the registry ------------------------------------------------------------------------------

def test_the_variant_declares_the_kind_and_the_classical_game_none() -> None:
    variant = transform_variant()
    assert [k.name for k in variant.kinds] == ["transform"]
    assert variant.kinds.by_word["tr"].name == "transform"
    assert not load_variant("classical").kinds
    assert variant.kinds.to_json() == [{"name": "transform", "label": "Transform", "labels": {},
                                        "phases": ["adjustments"],
                                        "argument": "the coast the fleet takes"}]


def _kind(name: str, **attributes: object) -> OrderKind:
    @__import__("dataclasses").dataclass(frozen=True, slots=True)
    class Named(VariantOrder):
        kind: ClassVar[str] = name

    made = type("Made", (OrderKind,), {"name": name, "order": Named,
                                       "phases": frozenset({PhaseType.ADJUSTMENTS}),
                                       **attributes})
    kind = made()
    assert isinstance(kind, OrderKind)
    return kind


@pytest.mark.parametrize(("kinds", "wanted"), [
    (lambda: (_kind("Big"),), "a kind's name is a lower-case word"),
    (lambda: (_kind(3),), "has the name 3: a kind's name is a lower-case word"),  # not a crash
    (lambda: (_kind("hold"),), "takes the word 'hold', which the rulebooks' orders use"),
    (lambda: (_kind("raise", keywords=frozenset({"b"})),), "takes the word 'b'"),
    (lambda: (_kind("raise"), _kind("raise")), "two order kinds are called 'raise'"),
    (lambda: (_kind("raise", keywords=frozenset({"up"})),
              _kind("lift", keywords=frozenset({"up"}))),
     "the word 'up' is a keyword of two order kinds"),
    (lambda: (_kind("raise", phases=frozenset()),), "names no phase it is given in"),
    (lambda: (_kind("raise", outcome="raised"),), "has the outcome 'raised', which is none"),
    (lambda: ("raise",), "not an OrderKind"),
    # mistakes a variant's author makes in the class attributes, each said at load
    (lambda: (_kind("raise", phases=frozenset({"movement"})),),
     r"phases holds 'movement', which is no phase type: write PhaseType\.MOVEMENT"),
    (lambda: (_kind("raise", keywords="up"),),
     r"keywords is the string 'up': give a set of words, frozenset\(\{'up'\}\)"),
    (lambda: (type(_kind("raise")),), r"order_kinds returned the class Made: return an "
                                       r"instance, Made\(\)"),
])
def test_a_bad_kind_is_a_variant_error_saying_what(tmp_path: Path, kinds: object,
                                                   wanted: str) -> None:
    class Bad(VariantHooks):
        def order_kinds(self) -> tuple[OrderKind, ...]:
            return kinds()  # type: ignore[operator, no-any-return]

    from realpolitik.kinds import OrderKinds

    with pytest.raises(VariantError, match=wanted):
        OrderKinds(Bad().order_kinds())


def test_an_order_class_of_another_kind_is_refused() -> None:
    from realpolitik.kinds import OrderKinds

    kind = _kind("raise")
    other = _kind("lift")
    type(kind).order = type(other).order  # type: ignore[misc]
    with pytest.raises(VariantError, match="has kind 'lift', not 'raise'"):
        OrderKinds((kind,))


# -- reading and writing -----------------------------------------------------------------------

@pytest.mark.parametrize(("text", "unit", "argument"), [
    ("A Bre TRANSFORM", army("france", "bre"), None),
    ("a brest transforms", army("france", "bre"), None),
    ("France: A Bre tr", army("france", "bre"), None),
    ("F Kie TRANSFORM", fleet("germany", "kie"), None),
    ("A StP TRANSFORM StP/NC", army("russia", "stp"), "stp/nc"),
    ("A St Petersburg transform St Petersburg (south coast)", army("russia", "stp"), "stp/sc"),
])
def test_a_transform_is_read_and_written_back(text: str, unit: Unit,
                                              argument: str | None) -> None:
    position = winter([unit], {unit.province: unit.power})
    order = parse_order(text, position)
    assert isinstance(order, VariantOrder) and order.kind == "transform"
    assert (order.unit_type, order.location, order.argument) == (unit.type, unit.location,
                                                                 argument)
    written = write_order(order, position.variant)
    assert written == str(order)
    assert parse_order(written, position) == order


def test_the_classical_game_does_not_read_the_word() -> None:
    classical = Position.initial(load_variant("classical"))
    with pytest.raises(InvalidOrderError, match="'TRANSFORM' is not"):
        parse_order("A Par TRANSFORM", classical)


def test_a_coast_that_is_not_the_units_is_an_error_naming_it() -> None:
    position = winter([army("russia", "stp")], {"stp": "russia"})
    with pytest.raises(InvalidOrderError, match="'Spa/nc' is not the coast the fleet takes"):
        parse_order("A StP TRANSFORM Spa/nc", position)


@settings(max_examples=40, deadline=None)
@given(st.sets(st.sampled_from(sorted(FRANCE_HOMES)), min_size=1, max_size=3),
       st.sets(st.sampled_from(["bre", "mar"]), max_size=2))
def test_every_listed_transform_reads_back_and_is_legal(armies: set[str],
                                                        fleets: set[str]) -> None:
    fleets -= armies
    units = [army("france", p) for p in sorted(armies)] \
        + [fleet("france", p) for p in sorted(fleets) if p not in armies]
    position = winter(units, dict(FRANCE_HOMES))
    listed = [o for options in legal_orders(position, "france").values() for o in options
              if isinstance(o, VariantOrder)]
    # the coastal home centres (Spain is owned, but no home centre of France), while France
    # is due a build (four centres)
    coastal = {u.province for u in units if u.province in ("bre", "mar")}
    assert {o.province for o in listed} == (coastal if len(units) < 4 else set())
    for order in listed:
        assert check_order(position, order) is None
        assert parse_order(write_order(order, position.variant), position) == order


# -- legality, adjudication, the game ----------------------------------------------------------

def test_why_a_transform_is_illegal() -> None:
    position = winter([army("france", "bre"), army("france", "par"), army("france", "bel")],
                      {**FRANCE_HOMES, "bel": "france"})
    assert check_order(position, parse_order("A Bre TRANSFORM", position)) is None
    assert check_order(position, parse_order("A Par TRANSFORM", position))[0] == \
        "cannot_transform"
    assert check_order(position, parse_order("A Bel TRANSFORM", position))[0] == \
        "not_home_centre"
    spring = Position.build(transform_variant(), "S1902M", [army("france", "bre")],
                            FRANCE_HOMES)
    assert check_order(spring, parse_order("A Bre TRANSFORM", spring))[0] == "wrong_phase"


def test_a_transform_changes_the_unit_and_takes_a_build() -> None:
    game = Game(transform_variant())
    game.set_position(winter([army("france", "bre"), army("france", "par")], FRANCE_HOMES))
    assert game.powers_to_order() == ("france",)
    game.submit("france", [parse_order("A Bre TRANSFORM", game.position),
                           parse_order("A Mar B", game.position)])
    # two builds due: the transform takes one, the build the other
    assert game.warnings("france") == []

    game.process()
    record = game.history[-1]
    assert [r.result.value for r in record.resolution.results] == ["succeeds", "succeeds"]
    assert record.resolution.results[0].reason == "A BRE TRANSFORM: the unit became a fleet."
    assert sorted(str(u) for u in game.position.units.values()) == ["A MAR", "A PAR", "F BRE"]


def test_the_warnings_say_a_build_beyond_the_transforms_will_be_void() -> None:
    game = Game(transform_variant())
    game.set_position(winter([army("france", "bre"), army("france", "mar")], FRANCE_HOMES))
    game.submit("france", [parse_order(text, game.position)
                           for text in ("A Bre TRANSFORM", "A Mar TRANSFORM", "A Par B")])
    assert game.warnings("france") == [
        "France: its other orders take every build it is due, so its build will be void"]
    game.process()
    assert [r.result.value for r in game.history[-1].resolution.results] == [
        "succeeds", "succeeds", "void"]


def test_the_builds_a_transform_uses_are_counted_in_its_own_words() -> None:
    game = Game(transform_variant())
    game.set_position(winter([army("france", "bre"), army("france", "mar")], FRANCE_HOMES))
    assert game.builds_used("france") == {}
    game.submit("france", [parse_order("A Bre TRANSFORM", game.position),
                           parse_order("A Par B", game.position)])
    assert game.builds_used("france") == {"transform": 1}
    game.submit("france", [parse_order(text, game.position)
                           for text in ("A Bre TRANSFORM", "A Mar TRANSFORM")])
    assert game.builds_used("france") == {"transform": 2}
    # with one build due, the second transform uses none (it is void)
    game.set_position(winter([army("france", p) for p in ("bre", "mar", "par")], FRANCE_HOMES))
    game.submit("france", [parse_order(text, game.position)
                           for text in ("A Bre TRANSFORM", "A Mar TRANSFORM")])
    assert game.builds_used("france") == {"transform": 1}
    kind = game.variant.kinds.by_name["transform"]
    assert kind.builds_used_phrase == "used to transform"  # from its label, "Transform"
    # and nothing in another phase, nor in a variant without kinds of its own
    assert Game(transform_variant()).builds_used("france") == {}
    classical = Game(load_variant("classical"))
    classical.set_position(Position.build(classical.variant, "W1901A", [army("france", "bre")],
                                          FRANCE_HOMES))
    assert classical.builds_used("france") == {}
    # the server's orders answer gives them with the kind's words
    pytest.importorskip("fastapi")
    from realpolitik.server.service import builds_used
    assert builds_used(game, "france") == [{"kind": "transform", "builds": 1,
                                            "words": "used to transform"}]


def test_the_hooks_say_in_words_which_units_may_transform() -> None:
    variant = transform_variant()
    position = winter([army("france", "bre"), army("france", "par"), fleet("france", "mar")],
                      FRANCE_HOMES)
    notes = variant.hooks.rule_notes(position, "france")
    (note,) = notes.notes
    assert note.heading == "Transforming" and note.brief == "2 may transform" and note.pressing
    assert note.text == ("A unit on one of France's own coastal home centres may change type in "
                         "place instead of a build: A Brest, F Marseilles. Each transform uses "
                         "one of the builds due.")
    assert note.tally is not None and (note.tally.kind, note.tally.limit) == ("transform", 1)
    assert [(m.province, m.text) for m in notes.marks] == [("bre", "may transform"),
                                                          ("mar", "may transform")]
    # Paris is inland; no note for the game, nor in a movement phase, nor without builds
    assert not variant.hooks.rule_notes(position, None)
    assert not variant.hooks.rule_notes(Game(variant).position, "france")
    assert not variant.hooks.rule_notes(position, "england")


def test_a_winter_with_only_a_transform_possible_is_played() -> None:
    # France is due two builds but has no free home centre: a transform is all it can do
    from realpolitik.phases import needs_adjustments

    units = [army("france", p) for p in ("bre", "par", "mar")]
    position = winter(units, {**FRANCE_HOMES, "por": "france"})
    assert needs_adjustments(position)
    bot = make_bot("heuristic", seed=1)
    orders = bot.orders(position, "france", rules_for("2023"))
    assert [str(o) for o in orders] == ["A BRE TRANSFORM", "WAIVE"]


def test_a_game_with_transforms_pickles_and_plays_on_the_same() -> None:
    game = Game(transform_variant(), seed=3)
    game.set_position(winter([army("france", "bre"), army("france", "par")], FRANCE_HOMES))
    game.submit("france", [parse_order("A Bre TRANSFORM", game.position)])
    copied = pickle.loads(pickle.dumps(game))
    deep = copy.deepcopy(game)
    for one in (game, copied, deep):
        one.process()
    assert game.position == copied.position == deep.position


# -- bots, arena, pictures, the API ------------------------------------------------------------

def test_a_seeded_bot_game_transforms_plays_on_and_renders_every_transform() -> None:
    # from a crowded winter: France is due two builds with every home centre occupied, so its
    # bot transforms (the kind's advice); then the bots play on to the end of 1903
    variant = transform_variant()
    start = Position.initial(variant)
    units = [u for u in start.units.values() if u.power != "france"] \
        + [army("france", p) for p in ("bre", "par", "mar")]
    centres = {**dict(start.centers), "spa": "france", "por": "france"}
    game = Game(variant, seed=0, end_year=1903)
    game.set_position(Position.build(variant, "W1901A", units, centres))
    bots = {p: make_bot("heuristic", seed=i) for i, p in enumerate(variant.power_ids)}
    rules = rules_for("2023")
    while not game.is_over:
        for power in game.powers_to_order():
            game.submit(power, bots[power].orders(game.position, power, rules))
        game.process()
    assert game.position.phase.year == 1904
    transforms = [(record, r) for record in game.history for r in record.resolution.results
                  if isinstance(r.order, VariantOrder)]
    assert transforms, "no transform in the game"
    for record, result in transforms:
        assert result.result.value == "succeeds", result.reason
        builds = [r for r in record.resolution.results
                  if r.power == result.power and isinstance(r.order, Build)]
        assert all(r.result.value == "succeeds" for r in builds)  # no build voided
        svg = render(record.position, results=record.resolution)
        assert 'stroke-dasharray="3 2"' in svg  # the transform's outer ring


def test_the_cli_plays_and_renders_a_game_of_the_variant(tmp_path: Path) -> None:
    root = Path(__file__).parent.parent
    played = subprocess.run(
        [sys.executable, "-m", "realpolitik", "arena", "--bots", "heuristic*7", "--games", "1",
         "--seed", "0", "--variant", str(TRANSFORM), "--end-year", "1903", "--records",
         str(tmp_path), "-q"], capture_output=True, text=True, cwd=root, check=False)
    assert played.returncode == 0, played.stderr
    record = tmp_path / "game-0001.json"
    assert '"variant_id": "transform"' in record.read_text()
    drawn = subprocess.run(
        [sys.executable, "-m", "realpolitik", "render", str(record), "--phase", "F1903M", "-o",
         str(tmp_path / "f.svg")], capture_output=True, text=True, cwd=root, check=False)
    assert drawn.returncode == 0, drawn.stderr
    assert "<svg" in (tmp_path / "f.svg").read_text()


def test_the_api_reads_and_writes_a_transform_by_its_kind() -> None:
    position = winter([army("russia", "stp")], {"stp": "russia"})
    sent = StructuredOrder(kind="transform", unit="A STP", to="STP/NC")
    assert sent.to_text() == "A STP TRANSFORM STP/NC"
    order = parse_order(sent.to_text(), position)
    wire = order_to_wire(order, place_writer(position.variant))
    assert (wire.kind, wire.unit, wire.to, wire.text) == ("transform", "A STP", "STP/NC",
                                                          "A STP TRANSFORM STP/NC")
    with pytest.raises(ValueError, match="kind"):
        StructuredOrder(kind="Transform!", unit="A STP")


def test_the_variant_folder_is_the_only_place_naming_a_variant() -> None:
    package = Path(__file__).parent.parent / "realpolitik"
    naming = [str(p.relative_to(package)) for p in package.rglob("*.py")
              if "colonial" in p.read_text(encoding="utf-8").lower()
              and "variants/colonial_winters" not in p.as_posix()]
    assert naming == []


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.simplefilter("ignore", VariantWarning)


def test_the_server_offers_the_kinds_of_the_games_variant_and_reads_them(
        tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from realpolitik.server import Settings, create_app

    settings = Settings(database_url=f"sqlite:///{tmp_path / 'k.db'}", background=False,
                        variants_path=str(VARIANTS))
    with TestClient(create_app(settings)) as client:
        r = client.post("/auth/signup", json={"username": "fred", "password": "correct horse"})
        headers = {"Authorization": f"Bearer {r.json()['token']}"}
        r = client.post("/games", json={"name": "tr", "variant": "transform",
                                        "join_as": "france"}, headers=headers)
        assert r.status_code == 201, r.text
        game_id = r.json()["id"]
        view = client.get(f"/games/{game_id}", headers=headers).json()
        assert [k["name"] for k in view["order_kinds"]] == ["transform"]
        assert view["order_kinds"][0]["phases"] == ["adjustments"]
        # given as fields, read by the parser: legal only in a winter, and it says so
        r = client.put(f"/games/{game_id}/orders", headers=headers, json={
            "power": "france", "orders": [{"kind": "transform", "unit": "F BRE"}]})
        assert r.status_code == 200, r.text
        line = r.json()["lines"][0]
        assert line["text"] == "F BRE TRANSFORM" and not line["ok"]
        assert "cannot be given in a movement phase" in line["error"]["message"]
        classical = client.post("/games", json={"name": "cl", "variant": "classical",
                                                "join_as": "france"}, headers=headers).json()
        assert client.get(f"/games/{classical['id']}", headers=headers).json()[
            "order_kinds"] == []


def test_the_docs_walk_through_shows_the_variants_own_lines() -> None:
    """docs/variant-format.md's "A new kind of order" quotes the transform variant's files:
    each block it shows is in the file it names."""
    text = (Path(__file__).parent.parent / "docs" / "variant-format.md").read_text()
    section = text[text.index("## A new kind of order"):]
    blocks = [b.split("\n", 1)[1] for b in section.split("```")[1:6:2]]
    files = ["variant.toml", "hooks.py", "transform.py"]
    for block, name in zip(blocks, files, strict=True):
        source = (TRANSFORM / name).read_text()
        for line in block.strip().splitlines():
            assert line in source.splitlines(), (name, line)


def test_the_docs_rule_notes_are_the_transform_variants_own() -> None:
    """docs/variant-format.md's "The rules in words" quotes the transform variant's hook."""
    text = (Path(__file__).parent.parent / "docs" / "variant-format.md").read_text()
    section = text[text.index("## The rules in words"):text.index("## The year")]
    block = section.split("```")[1].split("\n", 1)[1]
    source = (TRANSFORM / "hooks.py").read_text().splitlines()
    assert len(block.strip().splitlines()) > 20
    for line in block.rstrip().splitlines():
        assert line in source, line


def test_a_bad_kind_in_a_variant_folder_names_its_file_and_line(tmp_path: Path) -> None:
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "variant.toml").write_text(
        '[variant]\nid = "bad"\nname = "Bad"\nextends = "classical"\nhooks = "Bad"\n')
    (folder / "kinds.py").write_text('''\
from dataclasses import dataclass
from typing import ClassVar

from realpolitik.kinds import OrderKind
from realpolitik.orders import VariantOrder
from realpolitik.position import PhaseType


@dataclass(frozen=True, slots=True)
class Raise(VariantOrder):
    kind: ClassVar[str] = "raise"


class RaiseKind(OrderKind):
    name = "raise"
    order = Raise
    keywords = frozenset({"h"})
    phases = frozenset({PhaseType.MOVEMENT})
''')
    (folder / "hooks.py").write_text('''\
from realpolitik.hooks import VariantHooks

from .kinds import RaiseKind


class Bad(VariantHooks):
    def order_kinds(self):
        return (RaiseKind(),)
''')
    with pytest.raises(VariantError, match=r"kinds\.py, line 14: the order kind 'raise' takes "
                                           r"the word 'h'"):
        load_variant(folder)
