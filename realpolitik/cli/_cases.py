"""``realpolitik adjudicate``: cases in the case format (``docs/adjudicate-json.md``) in, results
out, and agreement with a case's ``expect`` (the DATC file's comparison rules) when it has one."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from realpolitik.errors import HookError, OrderTextError, RealpolitikError
from realpolitik.geography import UnitType
from realpolitik.hooks import VariantHooks
from realpolitik.notation import parse_orders
from realpolitik.phases import next_position
from realpolitik.position import DislodgedUnit, PhaseType, Position, Unit
from realpolitik.rules import rules_for
from realpolitik.variant import Variant, load_variant
from realpolitik.variant_rules import NEUTRAL

from ._common import EXIT_FILE, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, JSON, CliError, read_text
from ._report import Given, resolution_json


class CaseError(Exception):
    """A case that cannot be read: the message says what is wrong and where."""


_VARIANTS: dict[str, Variant] = {}


def _variant(name: object, base: Path | None = None) -> Variant:
    """The variant a case names: an id, or a folder, found from ``base`` (the case file's
    folder) first when it is a relative path."""
    if not isinstance(name, str) or not name:
        raise CaseError("'variant' must be a variant name such as \"classical\"")
    wanted = name
    if base is not None and not Path(name).is_absolute() \
            and (base / name / "variant.toml").is_file():
        wanted = str((base / name).resolve())
    if wanted not in _VARIANTS:
        try:
            _VARIANTS[wanted] = load_variant(wanted)
        except (FileNotFoundError, RealpolitikError, ValueError) as exc:
            raise CaseError(f"'variant': {name!r} is not a variant ({exc})") from None
    return _VARIANTS[wanted]


def _power(variant: Variant, key: object, where: str) -> str:
    power = str(key).lower()
    if not variant.is_owner(power):
        owners = [*variant.power_ids, *([NEUTRAL] if variant.rules.neutral_units else [])]
        raise CaseError(f"{where}: {key!r} is not a power of {variant.name}; the powers are "
                        + ", ".join(p.upper() for p in owners))
    return power


def _unit(variant: Variant, power: str, text: object, where: str) -> Unit:
    if not isinstance(text, str) or len(text.split()) != 2:
        raise CaseError(f"{where}: {text!r} is not a unit; write the type and the place, "
                        "e.g. \"A PAR\" or \"F STP/SC\"")
    kind, place = text.split()
    if kind.upper() not in ("A", "F"):
        raise CaseError(f"{where}: {text!r}: the unit type must be A (army) or F (fleet)")
    location = place.lower().replace("(", "/").replace(")", "")
    if not variant.map.is_location(location):
        raise CaseError(f"{where}: {text!r}: {place!r} is not a place of {variant.name}; use its "
                        "three-letter code, with /NC, /SC or /EC for a coast")
    return Unit(power, UnitType(kind.upper()), location)


def _mapping(case: Mapping[str, Any], key: str, *, required: bool) -> Mapping[str, Any]:
    value = case.get(key)
    if value is None:
        if required:
            raise CaseError(f"'{key}' is missing; it must map each power to its {key}")
        return {}
    if not isinstance(value, Mapping):
        raise CaseError(f"'{key}' must be an object mapping powers to lists, not "
                        f"{type(value).__name__}")
    return value


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise CaseError(f"{where} must be a list, not {type(value).__name__}")
    return value


def _via_convoy(value: object) -> set[tuple[str, str]]:
    """``dislodged_via_convoy``: power -> units (the spec), or a plain list of units (the DATC
    file); a unit of the plain list stands for the dislodged unit there of any power."""
    if value is None:
        return set()
    if isinstance(value, list):
        return {("", str(u).upper()) for u in value}
    if isinstance(value, Mapping):
        return {(str(p).lower(), str(u).upper()) for p, us in value.items()
                for u in _list(us, f"dislodged_via_convoy.{p}")}
    raise CaseError("'dislodged_via_convoy' must map powers to lists of units, e.g. "
                    "{\"ITALY\": [\"A MAR\"]}")


def read_case(case: Mapping[str, Any], base: Path | None = None,
              ) -> tuple[Position, list[Given], bool, Any]:
    """The position and orders of a case, whether its centres are known, and its rules
    (``base``: the folder of the case file, from which a variant's folder is found)."""
    variant = _variant(case.get("variant", "classical"), base)
    try:
        phase = variant.calendar.parse_phase(str(case.get("phase", "")))
    except ValueError as exc:
        raise CaseError(f"'phase': {exc}") from None
    try:
        rules = rules_for(str(case.get("rules") or "2023"), case.get("options") or None)
    except (ValueError, AttributeError) as exc:
        raise CaseError(f"'rules'/'options': {exc}") from None
    units = []
    for key, entries in _mapping(case, "units", required=True).items():
        power = _power(variant, key, f"units.{key}")
        for i, text in enumerate(_list(entries, f"units.{key}")):
            units.append(_unit(variant, power, text, f"units.{key}[{i}]"))
    dislodged = []
    via = _via_convoy(case.get("dislodged_via_convoy"))
    for key, entries in _mapping(case, "dislodged", required=False).items():
        power = _power(variant, key, f"dislodged.{key}")
        if not isinstance(entries, Mapping):
            raise CaseError(f"dislodged.{key} must map each unit to its attacker's province, "
                            "e.g. {\"A RUM\": \"SEV\"}")
        for text, attacker in entries.items():
            unit = _unit(variant, power, text, f"dislodged.{key}")
            dislodged.append(DislodgedUnit(unit, str(attacker).lower() if attacker else None,
                                           (power, str(unit).upper()) in via
                                           or ("", str(unit).upper()) in via))
    if dislodged and phase.type is not PhaseType.RETREATS:
        raise CaseError(f"'dislodged' is given for {phase}, which is not a retreat phase")
    standoffs = [str(s).lower() for s in _list(case.get("standoffs") or [], "'standoffs'")]
    centers_data = case.get("centers")
    centers_known = centers_data is not None
    centers: dict[str, str] = {}
    if centers_known:
        for key, entries in _mapping(case, "centers", required=False).items():
            power = _power(variant, key, f"centers.{key}")
            for i, name in enumerate(_list(entries, f"centers.{key}")):
                center = str(name).lower()
                if center not in variant.map.supply_centers():
                    raise CaseError(f"centers.{key}[{i}]: {name!r} is not a supply centre of "
                                    f"{variant.name}")
                centers[center] = power
    else:
        centers = dict(variant.start_centers)
    if phase.type is PhaseType.ADJUSTMENTS and not centers_known:
        raise CaseError("'centers' is null, but an adjustment phase needs each power's "
                        "supply centres")
    try:
        position = Position.build(variant, phase, units, centers, dislodged=dislodged,
                                  standoffs=standoffs)
    except (RealpolitikError, ValueError) as exc:
        raise CaseError(f"'units': {exc}") from None
    # the variant's own state (inactive units, sea superiority, protectorates...) worked out
    # for the phase as a game that reached it has it
    start = variant.hooks.initial_state(position)
    if start:
        position = position.replace(state=start)
    state = case.get("variant_state")
    if state is not None:
        # (an extension of the format: the variant's own state, over what its hooks work out)
        if not isinstance(state, Mapping):
            raise CaseError("'variant_state' must be an object, e.g. {\"inactive\": [\"s14\"]}")
        # a misspelt key would otherwise be ignored, and the case played without it
        unknown = ", ".join(repr(str(key)) for key in sorted(state) if key not in start)
        if unknown and not start and _makes_state(variant):
            # its state's keys are those initial_state gives: it gives none
            hooks = type(variant.hooks).__name__
            raise CaseError(f"'variant_state': {variant.name}'s initial_state hook names no "
                            f"key, so a case may not give {unknown}: have {hooks}."
                            "initial_state return every key of the state, with its value "
                            "at the start")
        if unknown and not start:
            raise CaseError(f"'variant_state': {variant.name} keeps no state of its own, so "
                            f"it has no key {unknown}; leave 'variant_state' out")
        if unknown:
            raise CaseError(f"'variant_state': {variant.name} has no state key {unknown}; its "
                            f"keys are {', '.join(sorted(start))}")
        position = position.replace(state={**start, **state})
    given: list[Given] = []
    for key, entries in _mapping(case, "orders", required=False).items():
        power = _power(variant, key, f"orders.{key}")
        lines = _list(entries, f"orders.{key}")
        for i, text in enumerate(lines):
            if not isinstance(text, str):
                raise CaseError(f"orders.{key}[{i}] must be a string such as \"A PAR - BUR\"")
            given.extend(_read_order(position, power, text))
    return position, given, centers_known, rules


def _makes_state(variant: Variant) -> bool:
    """True if the variant's hooks carry a state from phase to phase (they override
    ``next_state``)."""
    return type(variant.hooks).next_state is not VariantHooks.next_state


def _read_order(position: Position, power: str, text: str) -> list[Given]:
    """One order string as written (it may hold one order, or none if it is blank)."""
    sheet = parse_orders(text.replace("\n", " "), position, power=power)
    entries = list(sheet.entries)
    if len(entries) != 1:
        # one string must be one order; read it whole so that the error names all of it
        from realpolitik.notation import parse_order

        try:
            return [Given(power, text, parse_order(text, position, power=power))]
        except OrderTextError as exc:
            return [Given(power, text, None, str(exc).splitlines()[0], exc.kind)]
    entry = entries[0]
    if entry.error is not None:
        return [Given(power, text, None, str(entry.error).splitlines()[0], entry.error.kind)]
    return [Given(power, text, entry.order)]


def adjudicate_case(case: Mapping[str, Any], base: Path | None = None) -> JSON:
    """Adjudicate one case; the result in the case format (``base``: see :func:`read_case`)."""
    from realpolitik.adjudication import adjudicate

    position, given, centers_known, rules = read_case(case, base)
    orders = [g.order for g in given if g.order is not None]
    resolution = adjudicate(position, orders, rules=rules)
    after = next_position(position, resolution)
    data: JSON = {"id": case.get("id")}
    data.update(resolution_json(resolution, position, after, given,
                                centers_known=centers_known))
    return data


# -- comparing with ``expect`` ---------------------------------------------------------------------

def _unit_set(data: Mapping[str, Any] | None) -> set[tuple[str, str]]:
    return {(str(p).upper(), str(u).upper()) for p, us in (data or {}).items() for u in us}


def _check_power_lists(value: object, field: str) -> None:
    if not isinstance(value, Mapping):
        raise CaseError(f"'expect.{field}' must map each power to a list of units, not "
                        f"{type(value).__name__}")
    for power, units in value.items():
        if not isinstance(units, list) or not all(isinstance(u, str) for u in units):
            raise CaseError(f"'expect.{field}.{power}' must be a list of units such as "
                            f"[\"A PAR\"], not {json.dumps(units)[:60]}")


def check_expect(expect: Mapping[str, Any]) -> None:
    """Refuse an ``expect`` whose fields are not shaped as the case format says, naming the
    field (before anything is compared, so that no half-read field is compared).

    :raises CaseError: a field has the wrong shape.
    """
    results = expect.get("order_results", [])
    if not isinstance(results, list):
        raise CaseError("'expect.order_results' must be a list of {power, order, result}")
    for i, want in enumerate(results):
        if not isinstance(want, Mapping):
            raise CaseError(f"'expect.order_results[{i}]' must be an object with power, order "
                            "and result")
    for field in ("units_after", "civil_disorder", "centers_after"):
        if field in expect:
            _check_power_lists(expect[field], field)
    if "next_phase" in expect and not isinstance(expect["next_phase"], str):
        raise CaseError("'expect.next_phase' must be a phase name such as \"F1901M\"")
    if "dislodged_after" in expect:
        dislodged = expect["dislodged_after"]
        if not isinstance(dislodged, Mapping):
            raise CaseError("'expect.dislodged_after' must map each power to its dislodged "
                            f"units, not {type(dislodged).__name__}")
        for power, units in dislodged.items():
            where = f"expect.dislodged_after.{power}"
            if not isinstance(units, Mapping):
                raise CaseError(f"'{where}' must map each dislodged unit to its attacker's "
                                f"province (or {{attacker, retreats}}), not "
                                f"{json.dumps(units)[:60]}")
            for unit, info in units.items():
                if info is None or isinstance(info, str):
                    continue
                if not isinstance(info, Mapping):
                    raise CaseError(f"'{where}.{unit}' must be the attacker's province or "
                                    f"{{attacker, retreats}}, not {json.dumps(info)[:60]}")
                if not isinstance(info.get("attacker", ""), str | None):
                    raise CaseError(f"'{where}.{unit}.attacker' must be a province")
                retreats = info.get("retreats", [])
                if not isinstance(retreats, list) or not all(isinstance(r, str)
                                                             for r in retreats):
                    raise CaseError(f"'{where}.{unit}.retreats' must be a list of places")


def compare(expect: Mapping[str, Any], got: Mapping[str, Any]) -> list[str]:
    """How a result differs from a case's ``expect``, by the DATC file's rules: each expected
    order result matches the first unused result with the same power and order text (the input,
    else the canonical order); ``void`` meets an expected ``fails``; ``units_after`` is the
    whole board; every expected dislodged unit with its attacker (and its retreats when listed);
    ``civil_disorder``, ``centers_after`` and ``next_phase`` when given."""
    differences: list[str] = []
    pool = [dict(r) for r in got.get("order_results", [])]
    for want in expect.get("order_results", []):
        power, text = str(want.get("power", "")).upper(), str(want.get("order", ""))
        match = None
        for key in ("input", "order"):
            for entry in pool:
                if not entry.get("_used") and entry["power"] == power \
                        and str(entry.get(key) or "").upper() == text.upper():
                    match = entry
                    break
            if match:
                break
        if match is None:
            differences.append(f"{power} {text}: no result for this order")
            continue
        match["_used"] = True
        result = match["result"]
        expected = want.get("result")
        if result != expected and not (result == "void" and expected == "fails"):
            differences.append(f"{power} {text}: {result}, expected {expected} "
                               f"({match.get('reason', '')})")
    if "units_after" in expect:
        want_units, got_units = _unit_set(expect["units_after"]), _unit_set(got.get("units_after"))
        if want_units != got_units:
            missing = sorted(" ".join(u) for u in want_units - got_units)
            extra = sorted(" ".join(u) for u in got_units - want_units)
            differences.append(f"units_after: missing {missing}, unexpected {extra}")
    if "dislodged_after" in expect:
        got_dislodged = got.get("dislodged_after") or {}
        want_keys = {(p.upper(), u.upper()) for p, us in expect["dislodged_after"].items()
                     for u in us}
        got_keys = {(p.upper(), u.upper()) for p, us in got_dislodged.items() for u in us}
        if want_keys != got_keys:
            differences.append(f"dislodged_after: expected {sorted(want_keys)}, got "
                               f"{sorted(got_keys)}")
        for power, units in expect["dislodged_after"].items():
            for unit, info in units.items():
                mine = got_dislodged.get(power, {}).get(unit)
                if mine is None:
                    continue
                want_from = info.get("attacker") if isinstance(info, Mapping) else info
                if want_from and str(mine.get("attacker") or "").upper() != want_from.upper():
                    differences.append(f"{power} {unit} dislodged from {mine.get('attacker')}, "
                                       f"expected from {want_from}")
                if isinstance(info, Mapping) and "retreats" in info \
                        and sorted(info["retreats"]) != sorted(mine.get("retreats", [])):
                    differences.append(f"{power} {unit} retreats {mine.get('retreats')}, "
                                       f"expected {info['retreats']}")
    for key in ("civil_disorder", "centers_after"):
        if key in expect and _unit_set(expect[key]) != _unit_set(got.get(key)):
            differences.append(f"{key}: {got.get(key)}, expected {expect[key]}")
    if "next_phase" in expect and expect["next_phase"].strip().upper() != got.get("next_phase"):
        differences.append(f"next_phase: {got.get('next_phase')}, expected "
                           f"{expect['next_phase']}")
    return differences


# -- the command ---------------------------------------------------------------------------------

def _case_label(case: object, number: int) -> str:
    if isinstance(case, Mapping) and case.get("id") is not None:
        return f"case {case['id']} (line {number})"
    return f"line {number}"


def _run_one(case: object, where: str, check: bool, base: Path | None = None,
             ) -> tuple[JSON, bool | None]:
    """The output object of one case, and whether it agrees with its ``expect`` (None: none).
    A hook that failed (a bug in a variant's code) gives an error object with ``"hook"``."""
    if not isinstance(case, Mapping):
        return {"id": None, "error": f"{where}: a case must be a JSON object, not "
                                     f"{type(case).__name__}"}, None
    try:
        result = adjudicate_case(case, base)
    except CaseError as exc:
        return {"id": case.get("id"), "error": f"{where}: {exc}"}, None
    except HookError as exc:
        return {"id": case.get("id"), "error": f"{where}: {exc}", "hook": exc.hook}, None
    except (RealpolitikError, ValueError, KeyError, TypeError) as exc:
        return {"id": case.get("id"), "error": f"{where}: the case could not be adjudicated: "
                                               f"{type(exc).__name__}: {exc}"}, None
    expect = case.get("expect")
    if expect is not None and not isinstance(expect, Mapping):
        return {"id": case.get("id"), "error": f"{where}: 'expect' must be an object, not "
                                               f"{type(expect).__name__}"}, None
    if expect is None or not check:
        return result, None
    try:
        check_expect(expect)
        differences = compare(expect, result)
    except CaseError as exc:
        return {"id": case.get("id"), "error": f"{where}: {exc}"}, None
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        return {"id": case.get("id"), "error": f"{where}: 'expect' could not be compared: "
                                               f"{type(exc).__name__}: {exc}"}, None
    result["expect_agrees"] = not differences
    if differences:
        result["expect_differences"] = differences
    return result, not differences


def cmd_adjudicate(args: argparse.Namespace) -> int:
    text = read_text(args.file, "case file")
    base = Path(args.file).parent if args.file != "-" else None
    out = sys.stdout
    if not args.jsonl:
        try:
            case = json.loads(text)
        except json.JSONDecodeError as exc:
            print(json.dumps({"id": None, "error": f"{args.file}: not valid JSON at line "
                              f"{exc.lineno}, column {exc.colno} ({exc.msg}); for a file with "
                              "one case per line, add --jsonl"}, ensure_ascii=False))
            return EXIT_USAGE
        single, agreement = _run_one(case, args.file if args.file != "-" else "input", True,
                                     base)
        out.write(json.dumps(single, indent=2, ensure_ascii=False) + "\n")
        if "error" in single:
            return EXIT_USAGE
        if agreement is not None:
            print(f"{single.get('id')}: {'agrees' if agreement else 'DISAGREES'} with its "
                  "expect", file=sys.stderr)
        return EXIT_PROBLEMS if agreement is False and args.check else EXIT_OK
    total = agreed = errors = hook_failures = 0
    result: JSON
    agrees: bool | None
    disagreeing: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
        except json.JSONDecodeError as exc:
            result = {"id": None, "error": f"line {number}: not valid JSON at column "
                                                 f"{exc.colno} ({exc.msg})"}
            agrees = None
        else:
            try:
                result, agrees = _run_one(case, _case_label(case, number), True, base)
            except (RecursionError, MemoryError, ArithmeticError, LookupError, TypeError,
                    ValueError, AttributeError) as exc:
                # a case no check above foresaw: it gets an answer, and the batch goes on
                result = {"id": case.get("id") if isinstance(case, Mapping) else None,
                          "error": f"{_case_label(case, number)}: the case could not be "
                                   f"adjudicated: {type(exc).__name__}: {exc}"}
                agrees = None
        if "error" in result:
            errors += 1
            hook_failures += "hook" in result
            if args.verbose:
                print(result["error"], file=sys.stderr)
        try:
            out.write(_one_line(json.dumps(result, ensure_ascii=False)) + "\n")
        except BrokenPipeError:
            return EXIT_FILE
        if agrees is not None:
            total += 1
            agreed += agrees
            if not agrees:
                disagreeing.append(str(result.get("id")))
                print(f"{result.get('id')}: disagrees: "
                      + "; ".join(result.get("expect_differences", [])), file=sys.stderr)
    if total:
        print(f"{agreed}/{total} cases agree with their expect"
              + (f"; disagreeing: {', '.join(disagreeing)}" if disagreeing else ""),
              file=sys.stderr)
    if errors:
        print(f"{errors} case{'s' if errors != 1 else ''} could not be read (see the error "
              "objects)", file=sys.stderr)
    if hook_failures:
        print(f"{hook_failures} case{'s' if hook_failures != 1 else ''} failed in a variant's "
              "hook (a bug in its code)", file=sys.stderr)
    if hook_failures or (args.check and (disagreeing or errors)):
        return EXIT_PROBLEMS
    return EXIT_OK


__all__ = ["CliError", "adjudicate_case", "cmd_adjudicate", "compare", "read_case"]


_LINE_BREAKS = str.maketrans({"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def _one_line(text: str) -> str:
    """JSON text with the line breaks beyond ASCII escaped, so that one result stays on one
    line for readers that split on every Unicode line break (``str.splitlines``)."""
    return text.translate(_LINE_BREAKS)
