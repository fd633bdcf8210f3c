"""``realpolitik adjudicate``: the case format in and out, bad cases, and the DATC file."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from realpolitik.cli import main
from realpolitik.cli._cases import compare

DATC = Path(__file__).parent / "data" / "datc_v3.0.jsonl"

CASE: dict[str, Any] = {
    "id": "bounce",
    "variant": "classical",
    "phase": "S1901M",
    "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
    "centers": None,
    "orders": {"FRANCE": ["A Par-Bur"], "GERMANY": ["A MUN - BUR"]},
}


def adjudicate(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text: str,
               *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main(["adjudicate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_one_case(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = adjudicate(capsys, monkeypatch, json.dumps(CASE))
    assert code == 0
    data = json.loads(out)
    assert data["id"] == "bounce" and data["phase"] == "S1901M"
    first = data["order_results"][0]
    assert first == {**first, "power": "FRANCE", "input": "A Par-Bur", "order": "A PAR - BUR",
                     "result": "fails", "outcome": "bounced"}
    assert "A MUN - BUR" in first["reason"]
    assert data["units_after"] == {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]}
    assert data["dislodged_after"] == {}
    assert data["standoffs_after"] == ["BUR"]
    assert data["next_phase"] == "F1901M"
    assert "centers_after" not in data


def test_fall_case_with_centres(capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    case = {"id": "f", "variant": "standard", "phase": "F1901M",
            "units": {"ENGLAND": ["F NTH", "A YOR"]},
            "centers": {"ENGLAND": ["LON", "EDI", "LVP"]},
            "orders": {"ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY"]}}
    code, out, _ = adjudicate(capsys, monkeypatch, json.dumps(case))
    data = json.loads(out)
    assert code == 0
    assert data["centers_after"] == {"ENGLAND": ["EDI", "LON", "LVP", "NWY"]}
    assert data["next_phase"] == "W1901A"  # four centres, two units: builds are due


def test_retreat_and_adjustment_cases(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    retreat = {"id": "r", "variant": "classical", "phase": "F1901R",
               "units": {"RUSSIA": ["A RUM"]},
               "dislodged": {"AUSTRIA": {"A RUM": "SEV"}}, "standoffs": ["GAL"],
               "centers": {"AUSTRIA": ["VIE", "BUD", "TRI"]},
               "orders": {"AUSTRIA": ["A Rum R Bud"]}}
    code, out, _ = adjudicate(capsys, monkeypatch, json.dumps(retreat))
    data = json.loads(out)
    assert code == 0, data
    assert data["order_results"][0]["result"] == "succeeds"
    assert data["units_after"]["AUSTRIA"] == ["A BUD"]
    build = {"id": "b", "variant": "classical", "phase": "W1901A", "units": {"FRANCE": ["A BUR"]},
             "centers": {"FRANCE": ["PAR", "MAR", "BRE"]}, "orders": {"FRANCE": ["Build A Paris"]}}
    code, out, _ = adjudicate(capsys, monkeypatch, json.dumps(build))
    data = json.loads(out)
    assert data["order_results"][0]["order"] == "A PAR B"
    assert data["units_after"] == {"FRANCE": ["A BUR", "A PAR"]}
    assert data["civil_disorder"] == {}
    assert data["next_phase"] == "S1902M"


def test_unreadable_orders_are_void_with_a_reason(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    case = {**CASE, "orders": {"FRANCE": ["A Pars-Bur", "A Par to to", "A Par-Lon"],
                               "ENGLAND": ["F Edi-Nor"]},
            "units": {"FRANCE": ["A PAR"], "ENGLAND": ["F EDI"]}}
    code, out, _ = adjudicate(capsys, monkeypatch, json.dumps(case))
    results = json.loads(out)["order_results"]
    assert code == 0
    by_input = {r["input"]: r for r in results}
    assert by_input["A Pars-Bur"]["outcome"] == "unknown"
    assert by_input["A Pars-Bur"]["result"] == "void" and by_input["A Pars-Bur"]["order"] is None
    assert "Pars" in by_input["A Pars-Bur"]["reason"]
    assert by_input["A Par to to"]["outcome"] in ("unreadable", "unknown")
    assert by_input["A Par-Lon"]["outcome"] == "illegal"
    assert by_input["A Par-Lon"]["result"] == "void"
    assert by_input["F Edi-Nor"]["outcome"] == "ambiguous"
    assert "NWG" in by_input["F Edi-Nor"]["reason"]


@pytest.mark.parametrize(("change", "words"), [
    ({"phase": "Spring 1901"}, ["'phase'", "S1901M"]),
    ({"units": {"FRANCE": ["A XYZ"]}}, ["units.FRANCE[0]", "XYZ", "three-letter"]),
    ({"units": {"FRANCE": ["PAR"]}}, ["units.FRANCE[0]", "A PAR"]),
    ({"units": {"FRANCE": ["Q PAR"]}}, ["units.FRANCE[0]", "A (army) or F (fleet)"]),
    ({"units": {"NARNIA": ["A PAR"]}}, ["units.NARNIA", "FRANCE"]),
    ({"units": {"FRANCE": "A PAR"}}, ["units.FRANCE", "list"]),
    ({"units": {"FRANCE": ["F PAR"]}}, ["'units'", "F PAR"]),
    ({"units": None}, ["'units' is missing"]),
    ({"variant": "narnia"}, ["'variant'", "narnia"]),
    ({"rules": "1999"}, ["'rules'", "1999", "2023"]),
    ({"options": {"4.A.2": "maybe"}}, ["4.A.2", "maybe", "szykman"]),
    ({"phase": "W1901A"}, ["'centers' is null", "adjustment"]),
    ({"orders": {"FRANCE": [3]}}, ["orders.FRANCE[0]", "string"]),
    ({"variant_state": {"inactive": ["par"]}}, ["'variant_state'", "'inactive'",
                                                "keeps no state"]),
    # a variant whose state next_state makes but whose initial_state names no key (King of
    # the Hill) is told where its case's keys come from, not that it keeps no state
    ({"variant": str(Path(__file__).parent / "variants" / "hill"),
      "units": {"RED": ["A WES"]}, "orders": {}, "variant_state": {"falls": 1}},
     ["'variant_state'", "'falls'", "initial_state", "names no key"]),
    # a misspelt key of the variant's state is refused, not silently ignored
    ({"variant": "colonial_winters", "phase": "W1871A", "units": {"ENGLAND": ["F S14"]},
      "centers": {"ENGLAND": ["S14"]}, "orders": {"ENGLAND": ["F S14 MOBILISE"]},
      "variant_state": {"inactiv": ["s14"]}},
     ["'variant_state'", "no state key 'inactiv'", "inactive, inherited"]),
])
def test_bad_cases_say_what_is_wrong_and_where(change: dict[str, Any], words: list[str],
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = adjudicate(capsys, monkeypatch, json.dumps({**CASE, **change}))
    data = json.loads(out)
    assert code == 2
    assert data["id"] == "bounce"
    for word in words:
        assert word in data["error"], data["error"]


def test_a_stream_goes_on_after_a_bad_case(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [json.dumps(CASE), "{not json", json.dumps({**CASE, "id": "x", "phase": "?"}), "",
             "[1]", json.dumps({**CASE, "id": "last"})]
    code, out, err = adjudicate(capsys, monkeypatch, "\n".join(lines) + "\n", "--jsonl")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [r.get("id") for r in results] == ["bounce", None, "x", None, "last"]
    assert "line 2" in results[1]["error"] and "column" in results[1]["error"]
    assert "case x (line 3)" in results[2]["error"]
    assert "line 5" in results[3]["error"] and "object" in results[3]["error"]
    assert "order_results" in results[4]
    assert "3 cases could not be read" in err
    code, _, _ = adjudicate(capsys, monkeypatch, "\n".join(lines) + "\n", "--jsonl", "--check")
    assert code == 1


def test_a_single_case_that_is_not_json(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = adjudicate(capsys, monkeypatch, "{\n 'id': 1}")
    assert code == 2
    error = json.loads(out)["error"]
    assert "line 2" in error and "--jsonl" in error


def test_the_whole_datc_file_agrees(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["adjudicate", "--jsonl", "--check", str(DATC)])
    out, err = capsys.readouterr()
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0, err
    assert len(results) == 175
    assert not [r for r in results if "error" in r]
    assert all(r["expect_agrees"] for r in results)
    assert "175/175 cases agree with their expect" in err


def test_disagreement_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = [json.loads(line) for line in DATC.read_text().splitlines()[:3]]
    cases[1]["expect"]["order_results"][0]["result"] = "succeeds"
    cases[2]["expect"]["units_after"] = {"GERMANY": ["F MUN"]}
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in cases))
    code = main(["adjudicate", "--jsonl", str(path)])
    out, err = capsys.readouterr()
    assert code == 0
    assert "1/3 cases agree with their expect; disagreeing: 6.A.2, 6.A.3" in err
    assert "6.A.2: disagrees: ENGLAND A LVP - IRI: void, expected succeeds" in err
    assert main(["adjudicate", "--jsonl", "--check", str(path)]) == 1


def test_compare_rules() -> None:
    got = {"order_results": [
        {"power": "FRANCE", "input": "A PAR D", "order": "A PAR D", "result": "succeeds"},
        {"power": "FRANCE", "input": "A PAR D", "order": "A PAR D", "result": "void"}],
        "units_after": {"FRANCE": ["A RUH"]},
        "dislodged_after": {"ENGLAND": {"F NTH": {"attacker": "SKA", "retreats": ["BEL"]}}}}
    expect = {"order_results": [{"power": "FRANCE", "order": "A PAR D", "result": "succeeds"},
                                {"power": "FRANCE", "order": "A PAR D", "result": "fails"}],
              "units_after": {"FRANCE": ["A RUH"]},
              "dislodged_after": {"ENGLAND": {"F NTH": {"attacker": "SKA"}}}}
    assert compare(expect, got) == []  # same text in order; void meets fails
    expect["dislodged_after"]["ENGLAND"]["F NTH"]["retreats"] = ["BEL", "HOL"]
    assert compare(expect, got) == ["ENGLAND F NTH retreats ['BEL'], expected ['BEL', 'HOL']"]


# -- issue 18, F10: no case ends the batch ----------------------------------------------------

EXPECT_SHAPES: list[Any] = [
    {"dislodged_after": {"FRANCE": ["A PAR"]}},          # units listed instead of mapped
    {"dislodged_after": ["FRANCE"]},
    {"dislodged_after": {"FRANCE": {"A PAR": ["BUR"]}}},
    {"dislodged_after": {"FRANCE": {"A PAR": {"retreats": "BUR"}}}},
    {"units_after": ["A PAR"]},
    {"units_after": {"FRANCE": "A PAR"}},
    {"order_results": {"power": "FRANCE"}},
    {"order_results": ["A PAR - BUR"]},
    {"civil_disorder": 3},
    ["not", "an", "object"],
]


def test_f10_a_badly_shaped_expect_gets_an_error_naming_the_field(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [json.dumps({**CASE, "id": f"bad{i}", "expect": expect})
             for i, expect in enumerate(EXPECT_SHAPES)]
    lines.append(json.dumps({**CASE, "id": "last", "expect": {"units_after": {
        "FRANCE": ["A PAR"], "GERMANY": ["A MUN"]}}}))
    code, out, err = adjudicate(capsys, monkeypatch, "\n".join(lines) + "\n", "--jsonl")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0  # documented: 0 unless the input or output failed (1 with --check)
    assert [r["id"] for r in results] == [f"bad{i}" for i in range(len(EXPECT_SHAPES))] + [
        "last"]
    for result in results[:-1]:
        assert "expect" in result["error"], result
        assert "Traceback" not in result["error"]
    assert "'expect.dislodged_after.FRANCE'" in results[0]["error"]
    assert "'expect.units_after'" in results[4]["error"]
    assert results[-1]["expect_agrees"] is True
    assert "Traceback" not in err
    code, _, _ = adjudicate(capsys, monkeypatch, "\n".join(lines) + "\n", "--jsonl", "--check")
    assert code == 1


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=3),
    max_leaves=8)
CASE_FIELDS = ["id", "variant", "phase", "units", "centers", "orders", "dislodged", "rules",
               "expect", "expect.order_results", "expect.units_after", "expect.dislodged_after",
               "expect.civil_disorder", "expect.centers_after", "units.FRANCE", "orders.FRANCE"]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(st.tuples(st.sampled_from(CASE_FIELDS), JSON_VALUES), min_size=1,
                        max_size=3))
def test_f10_any_field_of_any_shape_gets_an_answer_and_the_batch_goes_on(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        changes: list[tuple[str, Any]]) -> None:
    case: dict[str, Any] = json.loads(json.dumps({**CASE, "expect": {"units_after": {}}}))
    for field, value in changes:
        parent, _, key = field.rpartition(".")
        target = case.get(parent) if parent else case
        if isinstance(target, dict):
            target[key] = value
    lines = [json.dumps(case), json.dumps({**CASE, "id": "after"})]
    code, out, err = adjudicate(capsys, monkeypatch, "\n".join(lines) + "\n", "--jsonl")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert len(results) == 2 and results[1]["id"] == "after" and "error" not in results[1]
    assert "error" in results[0] or "order_results" in results[0]
    assert "Traceback" not in err
