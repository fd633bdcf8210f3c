"""An order kind that changes strength in its own movement phase, proved on the test variant
``tests/variants/fortify/`` (``A Mun FORTIFY``: the army holds with one more hold strength that
turn): the case file, the strength as the DATC glossary counts it, the sentences, the checks on
what a kind returns, the bots, and a seeded game that plays and draws."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from realpolitik.adjudication import adjudicate
from realpolitik.bots import make_bot
from realpolitik.cli import main
from realpolitik.cli._cases import adjudicate_case, compare
from realpolitik.errors import HookError, InvalidOrderError, VariantWarning
from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.legality import check_order
from realpolitik.listing import legal_orders
from realpolitik.notation import parse_order
from realpolitik.orders import Hold, VariantOrder
from realpolitik.position import DislodgedUnit, Position, Unit
from realpolitik.render.svg import render
from realpolitik.rules import rules_for
from realpolitik.variant import Variant, load_variant

ROOT = Path(__file__).parent.parent
FORTIFY = Path(__file__).parent / "variants" / "fortify"


def fortify_variant() -> Variant:
    return load_variant(FORTIFY)


def army(power: str, where: str) -> Unit:
    return Unit(power, UnitType.ARMY, where)


def spring(units: list[Unit], variant: Variant | None = None) -> Position:
    return Position.build(variant or fortify_variant(), "S1901M", units, {})


# -- the case file -----------------------------------------------------------------------------

def _cases() -> list[dict[str, Any]]:
    return [json.loads(line) for line in (FORTIFY / "cases.jsonl").read_text().splitlines()
            if line.strip()]


@pytest.mark.parametrize("case", _cases(), ids=lambda case: str(case["id"]))
def test_the_case_file_agrees_with_its_expect(case: dict[str, Any]) -> None:
    got = adjudicate_case(case, FORTIFY)
    assert "error" not in got, got
    assert compare(case["expect"], got) == []


# -- strengths and sentences -------------------------------------------------------------------

def test_the_fortified_army_holds_with_strength_two_and_the_bounce_names_its_order() -> None:
    position = spring([army("germany", "mun"), army("france", "bur"), army("france", "ruh")])
    orders = [parse_order(t, position) for t in
              ("A Mun FORTIFY", "A Bur - Mun", "A Ruh S A Bur - Mun")]
    fortify, attack, _ = adjudicate(position, orders).results
    assert (fortify.outcome.value, fortify.strength) == ("held", 2)
    assert fortify.reason == "A MUN FORTIFY held against A BUR - MUN."
    assert (attack.outcome.value, attack.strength, attack.opposed_by) == ("bounced", 2, 2)
    assert attack.reason == ("A BUR - MUN failed: it bounced off A MUN FORTIFY (2 vs 2), which "
                             "needs 1 more support than usual to be dislodged.")


def test_a_dislodged_fortified_army_says_so_and_retreats() -> None:
    position = spring([army("germany", "mun"), army("france", "bur"), army("france", "ruh"),
                       army("france", "tyr")])
    orders = [parse_order(t, position) for t in
              ("A Mun fortifies", "A Bur - Mun", "A Ruh S A Bur - Mun", "A Tyr S A Bur - Mun")]
    resolution = adjudicate(position, orders)
    fortify = resolution.results[0]
    assert fortify.outcome.value == "dislodged" and not fortify.succeeded
    assert fortify.reason == "A MUN FORTIFY failed: it was dislodged by A BUR - MUN (3 vs 2)."
    assert [d.unit for d in resolution.dislodged] == [army("germany", "mun")]


def test_the_results_read_again_count_the_bonus_once() -> None:
    # the record sets the board up again from the hooks' bonuses: the order's own is added
    # there once more, not twice (a held fortify's strength, read after the adjudication)
    position = spring([army("germany", "mun"), army("germany", "ber"), army("france", "bur")])
    orders = [parse_order(t, position) for t in ("A Mun FORTIFY", "A Ber S A Mun", "A Bur - Mun")]
    for checked in (False, True):
        resolution = adjudicate(position, orders, checked=checked)
        assert resolution.results[0].strength == 3  # 1 + the fortify's 1 + one support
        assert resolution.results[2].opposed_by == 3


# A variant whose kinds hold with other bonuses, made once for the property below: each kind's
# movement effect is Holds(bonus=...) with its own bonus (a weakened hold among them).
BONUS_KINDS = {"slack": -1, "brace": 1, "entrench": 2, "wobble": "1"}
_KINDS_PY = '''\
from dataclasses import dataclass
from typing import ClassVar

from realpolitik.geography import UnitType
from realpolitik.kinds import Holds, OrderKind
from realpolitik.orders import VariantOrder
from realpolitik.position import PhaseType


def _kind(name, bonus):
    order = dataclass(frozen=True, slots=True)(
        type(name.title(), (VariantOrder,), {"__annotations__": {"kind": ClassVar[str]},
                                             "kind": name}))

    class Kind(OrderKind):
        phases = frozenset({PhaseType.MOVEMENT})

        def check(self, position, order, unit):
            return self.order(unit.type, unit.location, None, power=unit.power)

        def movement_effect(self, order):
            return Holds(bonus=bonus)

    Kind.name, Kind.order = name, order
    return Kind()
'''


@pytest.fixture(scope="module")
def bonus_variant(tmp_path_factory: pytest.TempPathFactory) -> Variant:
    folder = tmp_path_factory.mktemp("bonuses")
    (folder / "variant.toml").write_text('[variant]\nid = "bonuses"\nname = "Bonuses"\n'
                                         'extends = "classical"\nhooks = "Bonuses"\n')
    kinds = ", ".join(f"_kind({name!r}, {bonus!r})" for name, bonus in BONUS_KINDS.items())
    (folder / "hooks.py").write_text(
        _KINDS_PY + "\n\nfrom realpolitik.hooks import VariantHooks\n\n\n"
        f"class Bonuses(VariantHooks):\n    def order_kinds(self):\n        return ({kinds},)\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", VariantWarning)
        return load_variant(folder)


@settings(max_examples=60, deadline=None)
@given(order=st.sampled_from(["H", "SLACK", "FORTIFY", "BRACE", "ENTRENCH"]),
       held=st.integers(0, 3), attacking=st.integers(0, 3))
def test_an_attack_dislodges_exactly_when_it_beats_one_plus_bonus_plus_supports(
        bonus_variant: Variant, order: str, held: int, attacking: int) -> None:
    # Germany's army in Munich, ordered to hold or to one of the kinds, supported to hold by
    # ``held`` of its neighbours; France attacks from Burgundy with ``attacking`` supports
    bonus = {"H": 0, "SLACK": -1, "FORTIFY": 1, "BRACE": 1, "ENTRENCH": 2}[order]
    variant = fortify_variant() if order == "FORTIFY" else bonus_variant
    helpers, supporters = ["kie", "ber", "boh"][:held], ["ruh", "tyr", "sil"][:attacking]
    position = spring([army("germany", "mun"), army("france", "bur"),
                       *(army("germany", p) for p in helpers),
                       *(army("france", p) for p in supporters)], variant)
    texts = [f"A MUN {order}", "A BUR - MUN", *(f"A {p} S A MUN" for p in helpers),
             *(f"A {p} S A BUR - MUN" for p in supporters)]
    results = adjudicate(position, [parse_order(t, position) for t in texts]).results
    hold_strength = max(0, 1 + bonus + held)
    assert results[1].succeeded is (1 + attacking > hold_strength)
    assert results[0].strength == hold_strength


def test_a_kind_returning_no_movement_effect_is_a_hook_error_naming_it(
        bonus_variant: Variant) -> None:
    position = spring([army("germany", "mun")], bonus_variant)
    order = parse_order("A Mun WOBBLE", position)
    with pytest.raises(HookError, match=r"the hook Kind\.movement_effect returned "
                                        r"Holds\(bonus='1'\) for A MUN WOBBLE, not Holds\("):
        adjudicate(position, [order])


# -- reading, legality, listing ----------------------------------------------------------------

def test_only_an_army_fortifies_only_in_a_movement_phase_and_the_classical_game_not_at_all(
) -> None:
    variant = fortify_variant()
    position = spring([army("germany", "mun"), Unit("germany", UnitType.FLEET, "kie")], variant)
    listed = legal_orders(position, "germany")
    assert [str(o) for o in listed["mun"] if isinstance(o, VariantOrder)] == ["A MUN FORTIFY"]
    assert not any(isinstance(o, VariantOrder) for o in listed["kie"])
    assert check_order(position, parse_order("F Kie FORTIFY", position)) == (
        "not_an_army", "Only an army can fortify; the unit in Kiel is a fleet.")
    retreat = Position.build(variant, "S1901R", [army("france", "bur")], {}, dislodged=[
        DislodgedUnit(army("germany", "mun"), "bur")])
    assert check_order(retreat, parse_order("A Mun FORTIFY", retreat)) == (
        "wrong_phase", "A fortify order cannot be given in a retreat phase.")
    with pytest.raises(InvalidOrderError, match="'FORTIFY' is not"):
        parse_order("A Mun FORTIFY", Position.initial(load_variant("classical")))


# -- bots, a seeded game, pictures -------------------------------------------------------------

def test_the_heuristic_bot_fortifies_where_it_would_hold() -> None:
    # Germany's lone army in Munich, three French armies around it: it stays, and fortifies
    position = spring([army("germany", "mun"), army("france", "bur"), army("france", "ruh"),
                       army("france", "tyr")])
    orders = make_bot("heuristic", seed=0).orders(position, "germany", rules_for("2023"))
    assert [str(o) for o in orders] == ["A MUN FORTIFY"]
    classical = Position.build(load_variant("classical"), "S1901M",
                               [army("germany", "mun"), army("france", "bur")], {})
    orders = make_bot("heuristic", seed=0).orders(classical, "germany", rules_for("2023"))
    assert not any(isinstance(o, VariantOrder) for o in orders)


def test_a_seeded_bot_game_fortifies_holds_and_falls_and_draws_every_fortify() -> None:
    variant = fortify_variant()
    game = Game(variant, seed=0, end_year=1908)
    bots = {p: make_bot("heuristic", seed=i) for i, p in enumerate(variant.power_ids)}
    rules = rules_for("2023")
    while not game.is_over:
        for power in game.powers_to_order():
            game.submit(power, bots[power].orders(game.position, power, rules))
        game.process()
    fortified = [(record, r) for record in game.history for r in record.resolution.results
                 if isinstance(r.order, VariantOrder)]
    outcomes = {r.outcome.value for _, r in fortified}
    assert outcomes == {"held", "dislodged"}, outcomes
    assert not any(isinstance(r.order, Hold) and r.order.unit_type is UnitType.ARMY
                   for record in game.history for r in record.resolution.results)
    record = fortified[0][0]
    svg = render(record.position, results=record.resolution)
    assert svg.count('stroke-width="4') >= sum(1 for rec, _ in fortified if rec is record)


def test_the_cli_plays_a_seeded_game_of_the_variant_and_renders_it(tmp_path: Path,
                                                                   capsys: Any) -> None:
    assert main(["arena", "--bots", "heuristic*7", "--games", "1", "--seed", "0", "--variant",
                 str(FORTIFY), "--end-year", "1902", "--records", str(tmp_path), "-q"]) == 0
    record = tmp_path / "game-0001.json"
    assert '"variant_id": "fortify"' in record.read_text()
    assert "FORTIFY" in record.read_text()
    assert main(["render", str(record), "--phase", "F1902M", "-o", str(tmp_path / "f.svg")]) == 0
    assert "<svg" in (tmp_path / "f.svg").read_text()


# -- the docs ----------------------------------------------------------------------------------

def test_the_docs_fortify_section_quotes_the_variants_own_lines() -> None:
    """docs/variant-format.md's "A kind that holds stronger" quotes the fortify variant's
    files: each block it shows is in the file it names (the block's first line, a comment)."""
    text = (ROOT / "docs" / "variant-format.md").read_text()
    start = text.index("### A kind that holds stronger")
    section = text[start:text.index("\n## ", start)]
    blocks = [b.split("\n", 1)[1] for b in section.split("```")[1::2]]
    assert len(blocks) >= 2
    sources = {name: (FORTIFY / name).read_text().splitlines()
               for name in ("variant.toml", "hooks.py", "fortify.py")}
    for block in blocks:
        lines = block.strip().splitlines()
        name = lines[0].removeprefix("# ")
        for line in lines[1:]:
            assert line in sources[name], (name, line)
