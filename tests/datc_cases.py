"""Reading DATC cases in the adjudication case format (``docs``: adjudicate-json) for the tests."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from realpolitik.adjudication import Resolution, adjudicate
from realpolitik.errors import OrderTextError
from realpolitik.geography import UnitType
from realpolitik.notation import parse_order
from realpolitik.orders import Order
from realpolitik.position import DislodgedUnit, Phase, PhaseType, Position, Unit
from realpolitik.rules import rules_for
from realpolitik.variant import Variant, load_variant

DATC_FILE = Path(__file__).parent / "data" / "datc_v3.0.jsonl"


def load_cases(path: Path = DATC_FILE) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _unit(power: str, text: str) -> Unit:
    kind, loc = text.split()
    return Unit(power.lower(), UnitType(kind.upper()), loc.lower())


@dataclass
class Outcome:
    """What came out of one case."""

    resolution: Resolution
    results: list[tuple[str, str, str]] = field(default_factory=list)
    """(power, input text, "succeeds" | "fails" | "void") in the order the orders were given."""


def build_position(case: Mapping[str, Any], variant: Variant) -> Position:
    phase = Phase.parse(case["phase"])
    units = [_unit(p, u) for p, us in case.get("units", {}).items() for u in us]
    centers = {c.lower(): p.lower() for p, cs in (case.get("centers") or {}).items() for c in cs}
    via = case.get("dislodged_via_convoy") or {}
    via_units = {u for us in via.values() for u in us} if isinstance(via, dict) else set(via)
    dislodged = [
        DislodgedUnit(_unit(p, u), attacker.lower(), u in via_units)
        for p, ds in (case.get("dislodged") or {}).items() for u, attacker in ds.items()
    ]
    standoffs = [s.lower() for s in case.get("standoffs") or ()]
    if phase.type is PhaseType.RETREATS:
        return Position.build(variant, phase, units, centers, dislodged=dislodged,
                              standoffs=standoffs)
    return Position.build(variant, phase, units, centers)


def run_case(case: Mapping[str, Any], variant: Variant | None = None) -> Outcome:
    variant = variant or load_variant(case.get("variant", "classical"))
    position = build_position(case, variant)
    rules = rules_for(case.get("rules", "2023"), case.get("options"))
    given: list[tuple[str, str, Order | None]] = []
    for power, texts in case.get("orders", {}).items():
        for text in texts:
            try:
                order: Order | None = parse_order(text, position, power=power.lower())
            except OrderTextError:
                order = None
            given.append((power, text, order))
    resolution = adjudicate(position, [o for _, _, o in given if o is not None], rules=rules)
    outcome = Outcome(resolution)
    results = iter(resolution.results)
    for power, text, order in given:
        if order is None:
            outcome.results.append((power, text, "void"))
        else:
            outcome.results.append((power, text, next(results).result.value))
    return outcome


def units_text(units: Mapping[str, Unit] | Iterator[Unit] | list[Unit]) -> set[tuple[str, str]]:
    values = units.values() if isinstance(units, Mapping) else units
    return {(u.power.upper(), str(u)) for u in values}


def check_case(case: Mapping[str, Any], outcome: Outcome) -> list[str]:
    """The differences between what a case expects and what came out (empty if it passes)."""
    problems: list[str] = []
    expect = case["expect"]
    pending = list(outcome.results)
    for wanted in expect.get("order_results", ()):
        for k, (power, text, got) in enumerate(pending):
            if power == wanted["power"] and text == wanted["order"]:
                ok = got == wanted["result"] or (wanted["result"] == "fails" and got == "void")
                if not ok:
                    problems.append(f"{power} {text}: expected {wanted['result']}, got {got}")
                del pending[k]
                break
        else:
            problems.append(f"{wanted['power']} {wanted['order']}: no such order given")
    res = outcome.resolution
    if "units_after" in expect:
        want = {(p, u.upper()) for p, us in expect["units_after"].items() for u in us}
        got_units = units_text(res.units)
        if want != got_units:
            problems.append(f"units_after: missing {sorted(want - got_units)}, "
                            f"extra {sorted(got_units - want)}")
    if "dislodged_after" in expect:
        want_d = {(p, u.upper(), d["attacker"].upper())
                  for p, ds in expect["dislodged_after"].items() for u, d in ds.items()}
        got_d = {(d.unit.power.upper(), str(d.unit), (d.attacker_from or "").upper())
                 for d in res.dislodged}
        if want_d != got_d:
            problems.append(f"dislodged_after: expected {sorted(want_d)}, got {sorted(got_d)}")
        for _p, ds in expect["dislodged_after"].items():
            for u, d in ds.items():
                if "retreats" in d:
                    loc = u.split()[1].lower()
                    got_r = sorted(x.upper() for x in res.retreat_options.get(loc, ()))
                    if got_r != sorted(d["retreats"]):
                        problems.append(f"retreats of {u}: expected {sorted(d['retreats'])}, "
                                        f"got {got_r}")
    if "civil_disorder" in expect:
        want_c = {(p, u.upper()) for p, us in expect["civil_disorder"].items() for u in us}
        got_c = units_text(list(res.civil_disorder))
        if want_c != got_c:
            problems.append(f"civil_disorder: expected {sorted(want_c)}, got {sorted(got_c)}")
    return problems


def failure_report(case: Mapping[str, Any], outcome: Outcome, problems: list[str]) -> str:
    lines = [f"DATC {case['id']} ({case.get('rules', '2023')}):", *problems, "results:"]
    lines += [f"  {r.power} {r.order}: {r.result.value} {r.outcome.value} - {r.reason}"
              for r in outcome.resolution.results]
    return "\n".join(lines)
