"""The outcome codes and the exact sentences of the adjudicator for classic situations."""

from __future__ import annotations

import gc
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from realpolitik.adjudication import Outcome, Resolution, Result, adjudicate, movement, setup
from realpolitik.adjudication.equations import Board, Equations
from realpolitik.adjudication.resolver import Resolver
from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.legality import check_order
from realpolitik.notation import parse_order
from realpolitik.orders import Build, Disband, Hold, Move, Retreat, Waive
from realpolitik.position import DislodgedUnit, Position, Unit
from realpolitik.rules import EDITIONS, rules_for
from realpolitik.variant import load_variant

VARIANT = load_variant("classical")
A, F = UnitType.ARMY, UnitType.FLEET


def board(phase: str, units: dict[str, list[str]], **kw: object) -> Position:
    out = []
    for power, texts in units.items():
        for text in texts:
            kind, loc = text.split()
            out.append(Unit(power, UnitType(kind), loc.lower()))
    return Position.build(VARIANT, phase, out, **kw)  # type: ignore[arg-type]


def play(position: Position, orders: dict[str, list[str]], edition: str = "2023") -> Resolution:
    parsed = [parse_order(t, position, power=p) for p, ts in orders.items() for t in ts]
    return adjudicate(position, parsed, rules=rules_for(edition))


def reasons(res: Resolution) -> dict[str, tuple[str, str, str]]:
    return {str(r.order): (r.result.value, r.outcome.value, r.reason) for r in res.results}


def test_bounce() -> None:
    pos = board("S1901M", {"france": ["A PAR"], "germany": ["A MUN"]})
    got = reasons(play(pos, {"france": ["A PAR - BUR"], "germany": ["A MUN - BUR"]}))
    assert got["A PAR - BUR"] == (
        "fails", "bounced", "A PAR - BUR failed: it bounced with A MUN - BUR (1 vs 1).")


def test_simple_move() -> None:
    pos = board("S1901M", {"austria": ["A BUD"]})
    res = play(pos, {"austria": ["A BUD - SER"]})
    assert reasons(res)["A BUD - SER"] == ("succeeds", "moved", "A BUD - SER moved.")
    assert str(res.units["ser"]) == "A SER"


def test_support_cut() -> None:
    pos = board("S1901M", {"england": ["F NTH", "A HOL"], "germany": ["F SKA"],
                           "france": ["A BEL"]})
    res = play(pos, {"england": ["F NTH S A HOL - BEL", "A HOL - BEL"],
                     "germany": ["F SKA - NTH"]})
    got = reasons(res)
    assert got["F NTH S A HOL - BEL"] == (
        "fails", "cut", "F NTH S A HOL - BEL was cut by the attack of F SKA - NTH.")
    assert got["A HOL - BEL"] == (
        "fails", "bounced", "A HOL - BEL failed: it bounced off A BEL (1 vs 1).")
    assert got["F SKA - NTH"][2] == "F SKA - NTH failed: it bounced off F NTH (1 vs 1)."
    cut = next(r for r in res.results if r.outcome is Outcome.CUT)
    assert cut.by == ("F SKA - NTH",)


def test_dislodgement_and_retreats() -> None:
    pos = board("S1901M", {"austria": ["F TRI"], "italy": ["A VEN", "A TYR"]})
    res = play(pos, {"austria": ["F TRI H"], "italy": ["A VEN - TRI", "A TYR S A VEN - TRI"]})
    got = reasons(res)
    assert got["A VEN - TRI"] == (
        "succeeds", "moved", "A VEN - TRI moved, dislodging F TRI (2 vs 1).")
    assert got["F TRI H"] == (
        "fails", "dislodged", "F TRI H failed: it was dislodged by A VEN - TRI (2 vs 1).")
    assert got["A TYR S A VEN - TRI"] == (
        "succeeds", "supported", "A TYR S A VEN - TRI: the support counted.")
    [dislodged] = res.dislodged
    assert dislodged == DislodgedUnit(Unit("austria", F, "tri"), "ven", False)
    assert res.retreat_options["tri"] == ("adr", "alb")
    trieste = next(r for r in res.results if str(r.order) == "A VEN - TRI")
    assert (trieste.strength, trieste.opposed_by, trieste.by) == (2, 1, ("F TRI",))


def test_head_to_head() -> None:
    pos = board("S1901M", {"germany": ["A BER", "A SIL"], "russia": ["A PRU"]})
    res = play(pos, {"germany": ["A BER - PRU", "A SIL S A BER - PRU"],
                     "russia": ["A PRU - BER"]})
    assert reasons(res)["A PRU - BER"] == (
        "fails", "dislodged",
        "A PRU - BER failed: it lost the head-to-head battle with A BER - PRU (1 vs 2), and the "
        "unit was dislodged by A BER - PRU (2 vs 1).")
    pos = board("S1901M", {"russia": ["F BLA", "F CON"], "turkey": ["F ANK"]})
    res = play(pos, {"russia": ["F CON S F BLA - ANK", "F BLA - ANK"],
                     "turkey": ["F ANK - CON"]})
    assert reasons(res)["F ANK - CON"][2] == (
        "F ANK - CON failed: it bounced off F CON (1 vs 1), and the unit was dislodged by "
        "F BLA - ANK (2 vs 1).")


def test_self_dislodgement() -> None:
    pos = board("S1901M", {"germany": ["A BER", "F KIE", "A MUN"]})
    res = play(pos, {"germany": ["A BER H", "F KIE - BER", "A MUN S F KIE - BER"]})
    assert reasons(res)["F KIE - BER"] == (
        "fails", "self_dislodge",
        "F KIE - BER failed: it may not dislodge A BER, a unit of its own country.")


def test_illegal_order_is_void_and_the_unit_holds() -> None:
    pos = board("S1901M", {"england": ["F NTH"]})
    res = play(pos, {"england": ["F NTH - PIC"]})
    [r] = res.results
    assert r.result is Result.VOID and r.outcome is Outcome.ILLEGAL
    assert r.illegal_reason == "not_adjacent"
    assert r.reason == ("F NTH - PIC is illegal and was not followed: a fleet in North Sea "
                        "cannot reach Picardy.")
    assert str(res.units["nth"]) == "F NTH"


def test_not_your_unit_and_no_unit() -> None:
    pos = board("S1901M", {"england": ["F LON"]})
    res = adjudicate(pos, [Move(F, "lon", "nth", power="germany"), Hold(A, "par")])
    assert [r.illegal_reason for r in res.results] == ["not_your_unit", "no_unit"]
    assert res.results[0].reason == ("F LON - NTH is illegal and was not followed: the fleet in "
                                     "London belongs to England, not Germany.")
    assert res.results[1].reason == ("A PAR H is illegal and was not followed: there is no unit "
                                     "in Paris.")


def test_duplicate_orders_first_counts() -> None:
    pos = board("S1901M", {"france": ["A PAR"]})
    res = adjudicate(pos, [Move(A, "par", "bur"), Move(A, "par", "pic")])
    assert [r.result for r in res.results] == [Result.SUCCEEDS, Result.VOID]
    assert res.results[1].illegal_reason == "duplicate_order"
    assert "bur" in res.units


def test_convoy_paradox_szykman() -> None:
    pos = board("S1901M", {"england": ["F LON", "F WAL"], "france": ["A BRE", "F ENG"]})
    res = play(pos, {"england": ["F LON S F WAL - ENG", "F WAL - ENG"],
                     "france": ["A BRE - LON", "F ENG C A BRE - LON"]})
    got = reasons(res)
    assert got["A BRE - LON"] == (
        "fails", "paradox",
        "A BRE - LON failed: the convoy by F ENG was cancelled by the paradox rule.")
    assert got["F ENG C A BRE - LON"] == (
        "fails", "paradox",
        "F ENG C A BRE - LON failed: the convoy is part of a paradox, which the paradox rule "
        "settles by cancelling it, and the fleet was dislodged by F WAL - ENG (2 vs 1).")


def test_convoy_disrupted_and_convoyed() -> None:
    pos = board("S1901M", {"england": ["A LON", "F ENG", "F NTH"], "france": ["F BRE", "F MAO"]})
    res = play(pos, {"england": ["A LON - BEL", "F ENG C A LON - BEL", "F NTH C A LON - BEL"],
                     "france": ["F MAO - ENG", "F BRE S F MAO - ENG"]}, edition="1971")
    got = reasons(res)
    assert got["A LON - BEL"] == (
        "fails", "convoy_disrupted",
        "A LON - BEL failed: the convoy was disrupted when F ENG was dislodged.")
    res = play(pos, {"england": ["A LON - BEL", "F ENG C A LON - BEL", "F NTH C A LON - BEL"],
                     "france": ["F MAO - ENG", "F BRE S F MAO - ENG"]})
    got = reasons(res)
    assert got["A LON - BEL"] == ("succeeds", "moved", "A LON - BEL moved by convoy.")
    assert got["F NTH C A LON - BEL"] == (
        "succeeds", "convoyed", "F NTH C A LON - BEL convoyed the army.")


def test_unmatched_support() -> None:
    pos = board("S1901M", {"austria": ["A TRI", "A ALB"]})
    res = play(pos, {"austria": ["A ALB S A TRI - SER", "A TRI H"]})
    assert reasons(res)["A ALB S A TRI - SER"] == (
        "fails", "unmatched", "A ALB S A TRI - SER had no effect: A TRI did not move to SER.")


def test_standoff_blocks_retreat() -> None:
    pos = board("S1901M", {"austria": ["A BUD", "A TRI"], "germany": ["A MUN", "A SIL"],
                           "italy": ["A VIE"]})
    res = play(pos, {"austria": ["A BUD S A TRI - VIE", "A TRI - VIE"],
                     "germany": ["A MUN - BOH", "A SIL - BOH"]})
    assert res.standoffs == frozenset({"boh"})
    assert res.retreat_options["vie"] == ("tyr", "gal")


def test_retreat_phase_sentences() -> None:
    pos = board("S1901R", {"austria": ["A BUD", "A VIE"], "germany": ["A BOH", "A MUN"]},
                dislodged=[DislodgedUnit(Unit("italy", A, "boh"), "sil"),
                           DislodgedUnit(Unit("italy", A, "vie"), "tri")])
    res = adjudicate(pos, [Retreat(A, "vie", "tyr", power="italy"),
                           Retreat(A, "boh", "tyr", power="italy")])
    assert res.results[0].reason == ("A VIE R TYR failed: it bounced with A BOH R TYR, and the "
                                     "unit was disbanded.")
    assert "tyr" not in res.units
    res = adjudicate(pos, [Retreat(A, "vie", "tyr", power="italy"),
                           Disband(A, "boh", power="italy")])
    assert res.results[0].reason == "A VIE R TYR: the unit retreated."
    assert str(res.units["tyr"]) == "A TYR"
    res = adjudicate(pos, [Retreat(A, "vie", "tri", power="italy")])
    assert res.results[0].illegal_reason == "retreat_to_attacker"


def test_adjustment_sentences_and_civil_disorder() -> None:
    centers = {"mos": "russia", "sev": "russia", "stp": "russia", "war": "russia"}
    pos = board("W1901A", {"russia": ["F SEV", "F STP/NC"]}, centers=centers)
    res = adjudicate(pos, [Build(A, "mos", power="russia"), Build(A, "mos", power="russia"),
                           Waive("russia"), Waive("russia")])
    assert [(r.result.value, r.outcome.value) for r in res.results] == [
        ("succeeds", "built"), ("void", "illegal"), ("succeeds", "waived"), ("void", "illegal")]
    assert res.results[0].reason == "A MOS B: the unit was built."
    assert res.results[3].illegal_reason == "too_many_builds"
    pos = board("W1901A", {"russia": ["A LVN", "A SWE"]}, centers={"stp": "russia"})
    res = adjudicate(pos, [])
    assert [str(u) for u in res.civil_disorder] == ["A SWE"]


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_edition_adjudicates(edition: str) -> None:
    pos = Position.initial(VARIANT)
    res = play(pos, {"france": ["A PAR - BUR"], "germany": ["A MUN - BUR"]}, edition)
    assert res.results[0].outcome is Outcome.BOUNCED


def test_rules_for() -> None:
    assert rules_for().edition == "2023"
    assert rules_for("1992") == EDITIONS["1982"]
    assert rules_for("2023", {"4.A.1": "any_route_disrupted"}).multi_route_convoy \
        == "any_route_disrupted"
    assert rules_for("1971").option("4.A.3") == "opposite_move"
    with pytest.raises(ValueError, match="editions are: 1971, 1982, 2000, 2023, dptg"):
        rules_for("1066")
    with pytest.raises(ValueError, match="unknown rule option '4.Z.9'"):
        rules_for("2023", {"4.Z.9": "x"})
    with pytest.raises(ValueError, match="write one of: any_route_disrupted, all_routes"):
        rules_for("2023", {"4.A.1": "some"})


def test_check_order_reasons() -> None:
    pos = Position.initial(VARIANT)
    cases = {
        "A PAR - LON": "not_adjacent",
        "F BRE - PAR": "fleet_inland",
        "A MAR - LYO": "army_to_sea",
        "F KIE - KIE": "same_province",
        "A PAR S A MAR - SPA": "support_unreachable",
        "F KIE C A BER - SWE": "convoy_not_at_sea",
        "A PAR B": "wrong_phase",
    }
    for text, code in cases.items():
        order = parse_order(text, pos)
        checked = check_order(pos, order)
        assert checked is not None and checked[0] == code, text


# -- one adjudication per phase --------------------------------------------------------------

# Phases with every kind of movement sentence: bounces, a head-to-head battle, cut and unmatched
# supports, dislodgements, a unit that may not dislodge its own, convoys carried, disrupted and
# cancelled by the paradox rule, an illegal order and a duplicate one.
SENTENCE_PHASES: list[tuple[dict[str, list[str]], dict[str, list[str]], str]] = [
    ({"france": ["A PAR"], "germany": ["A MUN"]},
     {"france": ["A PAR - BUR"], "germany": ["A MUN - BUR"]}, "2023"),
    ({"england": ["F NTH", "A HOL"], "germany": ["F SKA"], "france": ["A BEL"]},
     {"england": ["F NTH S A HOL - BEL", "A HOL - BEL"], "germany": ["F SKA - NTH"]}, "2023"),
    ({"germany": ["A BER", "A SIL"], "russia": ["A PRU"]},
     {"germany": ["A BER - PRU", "A SIL S A BER - PRU"], "russia": ["A PRU - BER"]}, "2023"),
    ({"germany": ["A BER", "F KIE", "A MUN"]},
     {"germany": ["A BER H", "F KIE - BER", "A MUN S F KIE - BER"]}, "2023"),
    ({"england": ["F LON", "F WAL"], "france": ["A BRE", "F ENG"]},
     {"england": ["F LON S F WAL - ENG", "F WAL - ENG"],
      "france": ["A BRE - LON", "F ENG C A BRE - LON"]}, "2023"),
    ({"england": ["A LON", "F ENG", "F NTH"], "france": ["F BRE", "F MAO"]},
     {"england": ["A LON - BEL", "F ENG C A LON - BEL", "F NTH C A LON - BEL"],
      "france": ["F MAO - ENG", "F BRE S F MAO - ENG"]}, "1971"),
    ({"england": ["A LON", "F ENG", "F NTH"], "france": ["F BRE", "F MAO"]},
     {"england": ["A LON - BEL", "F ENG C A LON - BEL", "F NTH C A LON - BEL"],
      "france": ["F MAO - ENG", "F BRE S F MAO - ENG"]}, "2023"),
    ({"austria": ["A TRI", "A ALB", "F ADR"], "italy": ["A VEN"]},
     {"austria": ["A ALB S A TRI - SER", "A TRI H", "F ADR - ION", "F ADR - APU"],
      "italy": ["A VEN - TRI", "F VEN - PIE"]}, "2023"),
]


def _sentence_phases() -> list[Resolution]:
    return [play(board("S1901M", units), orders, edition)
            for units, orders, edition in SENTENCE_PHASES]


def _read_every_result(resolutions: list[Resolution]) -> list[tuple[object, ...]]:
    return [(r.outcome, r.reason, r.by, r.strength, r.opposed_by)
            for res in resolutions for r in res.results]


@pytest.mark.skipif(
    (movement.__file__ or "").endswith((".so", ".pyd")),
    reason="compiled classes cannot be patched to count calls (the pure-Python run checks "
           "the same source)")
def test_sentences_are_written_without_adjudicating_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A result's sentence is written from what the phase's one adjudication recorded: reading
    every sentence runs neither the solver, nor the equations of a decision, nor the legality
    check or the acceptance of the orders. (Orders the adjudication took as given are only
    attributed to their units and powers when first read, once per phase.)"""
    calls: Counter[str] = Counter()

    def counted(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def counting(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return function(*args, **kwargs)
        return counting

    monkeypatch.setattr(Resolver, "__init__", counted("solver", Resolver.__init__))
    monkeypatch.setattr(Resolver, "resolve", counted("solver", Resolver.resolve))
    monkeypatch.setattr(Equations, "adjudicate", counted("equations", Equations.adjudicate))
    monkeypatch.setattr(movement, "accept_orders", counted("acceptance", movement.accept_orders))
    monkeypatch.setattr(setup, "normalize_order", counted("legality", setup.normalize_order))
    resolutions = _sentence_phases()
    # and a game's phases, whose listed orders are adjudicated as given (checked=True)
    game = Game("classical", rules="2000", seed=3)
    rng = random.Random(3)
    while game.phase.year <= 1903:
        for power in game.powers_to_order():
            game.submit(power, [rng.choice(options)
                                for options in game.legal_orders(power).values()])
        resolutions.append(game.process())
    # the probes see the adjudication itself
    assert {"solver", "equations", "acceptance", "legality"} <= set(calls)
    monkeypatch.setattr(movement, "attribute_orders",
                        counted("attribution", movement.attribute_orders))
    calls.clear()
    read = _read_every_result(resolutions)
    assert calls.keys() <= {"attribution"}
    assert calls["attribution"] <= len(resolutions)
    assert len(read) > 150
    assert ("A PRU - BER failed: it lost the head-to-head battle with A BER - PRU (1 vs 2), "
            "and the unit was dislodged by A BER - PRU (2 vs 1).") in [r[1] for r in read]


def test_a_resolution_keeps_no_board_nor_solver() -> None:
    """A movement phase's resolution keeps a small record, not the adjudication's state: once
    it is made, and once its sentences are written, no board, equations or solver is alive."""
    def alive() -> int:
        gc.collect()
        return sum(isinstance(o, Board | Equations | Resolver) for o in gc.get_objects())

    before = alive()
    resolutions = _sentence_phases()
    assert alive() == before
    read = _read_every_result(resolutions)
    assert alive() == before
    assert "A LON - BEL failed: the convoy was disrupted when F ENG was dislodged." in [
        r[1] for r in read]


def test_a_sentence_counts_the_defence_bonus_its_phase_was_adjudicated_with() -> None:
    """The record keeps what the variant's hook gave the phase (a fortress's bonus) for the
    sentences: the attack bounced at 2 against 1 + 1, and its sentence says so."""
    neutrals = load_variant(Path(__file__).parent / "variants" / "neutrals")
    position = Position.initial(neutrals)
    res = adjudicate(position, [parse_order(text, position)
                                for text in ("A wes - for", "A sou S A wes - for")])
    attack = res.results[0]
    assert (attack.outcome, attack.reason, attack.strength, attack.opposed_by) == (
        Outcome.BOUNCED, "A WES - FOR failed: it bounced off A FOR (2 vs 2), which needs 1 "
        "more support than usual to be dislodged.", 2, 2)
