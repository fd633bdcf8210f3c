"""Builds, removals and coasts written as the rulebooks and players write them.

1971 VII.4 and 1992 VII.2: "An order which admits of two meanings is not followed; a badly
worded order, which nevertheless can have only one meaning, must be followed." So a build
sentence the books would write ("builds F Kiel and A Mun.", "build a fleet in Kiel"), a bare
place where only one unit type fits ("Build Mun"), a unit's name alone in a winter ("A Vie"),
and a coast in any usual spelling are read; a build that could be an army or a fleet ("Build
Kie") or a bare unit that is neither a due build nor a due removal is refused with the reason.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from realpolitik.errors import AmbiguousOrderError, InvalidOrderError
from realpolitik.geography import UnitType
from realpolitik.notation import parse_order, parse_orders
from realpolitik.orders import Build, Disband, Move
from realpolitik.position import Position, Unit
from realpolitik.variant import load_variant

A, F = UnitType.ARMY, UnitType.FLEET
VARIANT = load_variant("classical")

# Winter 1901: Germany owns five centres with two units (three builds, Berlin, Kiel and Munich
# empty); Russia has five units on four centres (one removal); Austria is even.
WINTER = Position.build(
    VARIANT, "W1901A",
    [Unit("germany", F, "den"), Unit("germany", A, "hol"),
     Unit("russia", A, "war"), Unit("russia", A, "mos"), Unit("russia", F, "sev"),
     Unit("russia", F, "stp/sc"), Unit("russia", A, "ukr"),
     Unit("austria", A, "vie"), Unit("austria", A, "bud"), Unit("austria", F, "tri")],
    {"ber": "germany", "kie": "germany", "mun": "germany", "den": "germany",
     "hol": "germany", "war": "russia", "mos": "russia", "sev": "russia", "stp": "russia",
     "vie": "austria", "bud": "austria", "tri": "austria"},
)


def _read(text: str, power: str = "germany") -> list[object]:
    sheet = parse_orders(text, WINTER, power=power)
    assert not sheet.errors, [str(e) for e in sheet.errors]
    return list(sheet.orders)


def _build(kind: UnitType, site: str) -> Build:
    return Build(kind, site, power="germany")


def _removal(kind: UnitType, site: str) -> Disband:
    return Disband(kind, site, power="russia")


@pytest.mark.parametrize(("text", "expected"), [
    ("builds F Kiel and A Mun.", [_build(F, "kie"), _build(A, "mun")]),
    ("Germany builds F Kiel and A Mun.", [_build(F, "kie"),
                                          _build(A, "mun")]),
    ("build a fleet in Kiel", [_build(F, "kie")]),
    ("Build a new army at Berlin", [_build(A, "ber")]),
    ("Builds an army in Berlin and a fleet in Kiel", [_build(A, "ber"),
                                                      _build(F, "kie")]),
    ("Build Mun", [_build(A, "mun")]),
    ("Build F Kie, A Ber, A Mun", [_build(F, "kie"), _build(A, "ber"),
                                   _build(A, "mun")]),
    ("A Ber", [_build(A, "ber")]),
    ("A Ber, F Kie", [_build(A, "ber"), _build(F, "kie")]),
    ("Mun", [_build(A, "mun")]),
])
def test_germany_builds_as_the_books_write_them(text: str, expected: list[object]) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("A Ukr", [_removal(A, "ukr")]),
    ("removes A Ukr", [_removal(A, "ukr")]),
    ("removes A Ukr and F Sev", [_removal(A, "ukr"), _removal(F, "sev")]),
    ("F StP", [_removal(F, "stp/sc")]),
])
def test_russia_removes_with_the_units_name(text: str, expected: list[object]) -> None:
    assert _read(text, "russia") == expected


def test_a_coastal_build_without_a_type_has_two_meanings() -> None:
    with pytest.raises(AmbiguousOrderError) as caught:
        parse_order("Build Kie", WINTER, power="germany")
    assert caught.value.candidates == ("A KIE", "F KIE")
    assert "army or a fleet" in str(caught.value)
    with pytest.raises(AmbiguousOrderError):
        parse_order("Kie", WINTER, power="germany")


@pytest.mark.parametrize(("text", "power", "reason"), [
    ("A Hol", "germany", "Germany builds this winter, and Holland is occupied"),
    ("A Vie", "austria", "Austria has no builds or removals this winter"),
    ("A Gal", "russia", "Russia removes units this winter, and has no such unit there"),
])
def test_a_bare_unit_that_is_neither_a_due_build_nor_removal_is_refused(
        text: str, power: str, reason: str) -> None:
    with pytest.raises(InvalidOrderError) as caught:
        parse_order(text, WINTER, power=power)
    assert reason in str(caught.value)
    assert f"Build {text}" in caught.value.hint


def test_outside_a_winter_a_bare_unit_still_holds() -> None:
    start = Position.initial(VARIANT)
    assert str(parse_order("A Vie", start, power="austria")) == "A VIE H"


# -- property-based: every spelling of a build sentence -------------------------------------

_ARMY_WORDS = ["A", "a", "Army", "army", "an army", "a new army", "An Army"]
_FLEET_WORDS = ["F", "f", "Fleet", "fleet", "a fleet", "a new fleet", "A Fleet"]
_PLACES = {"ber": ["Ber", "ber", "BER", "Berlin", "Ber.", "berlin"],
           "kie": ["Kie", "kie", "KIE", "Kiel", "Kie.", "KIEL"],
           "mun": ["Mun", "mun", "MUN", "Munich", "Mun.", "munich"]}
_SITES = [(A, "ber"), (F, "kie"), (A, "kie"), (A, "mun")]


@st.composite
def build_sentence(draw: st.DrawFn) -> tuple[str, list[Build]]:
    chosen = draw(st.lists(st.sampled_from(_SITES), min_size=1, max_size=3,
                           unique_by=lambda site: site[1]))
    parts = []
    for kind, site in chosen:
        place = draw(st.sampled_from(_PLACES[site]))
        if kind is A and site == "mun" and draw(st.booleans()):
            parts.append(place)  # inland: only an army fits
            continue
        unit = draw(st.sampled_from(_ARMY_WORDS if kind is A else _FLEET_WORDS))
        preposition = draw(st.sampled_from(["", "in ", "at "])) if len(unit) > 1 else ""
        parts.append(f"{unit} {preposition}{place}")
    verb = draw(st.sampled_from(["Build", "build", "builds", "Builds", "B", "Germany builds",
                                 "Germany: build"]))
    joiner = draw(st.sampled_from([" and ", ", ", "; ", ", and "]))
    end = draw(st.sampled_from(["", "."]))
    text = f"{verb} {joiner.join(parts)}{end}"
    return text, [Build(kind, site, power="germany") for kind, site in chosen]


@given(build_sentence())
@settings(max_examples=300, deadline=None)
def test_any_build_sentence_reads_as_its_builds(case: tuple[str, list[Build]]) -> None:
    text, expected = case
    assert _read(text) == expected


# -- property-based: every usual spelling of a coast ----------------------------------------

_COAST_SPELLINGS = {
    "n": ["nc", "NC", "n.c.", "N.C.", "n/c", "N/C", "ncs", "NCS", "north coast", "North Coast",
          "nth coast", "Nth Cst", "n coast", "N", "n", "north", "North", "nth"],
    "s": ["sc", "SC", "s.c.", "S.C.", "s/c", "scs", "south coast", "South Coast", "sth coast",
          "S", "s", "south", "South", "sth"],
    "e": ["ec", "EC", "e.c.", "E.C.", "e/c", "ecs", "east coast", "East Coast", "E", "east"],
}
_SINGLE_DIRECTIONS = {"n", "s", "e", "north", "south", "east", "nth", "sth"}
# (origin, province, coast letter): moves a fleet could be ordered to make
_COAST_MOVES = [("mao", "spa", "n"), ("wes", "spa", "s"), ("bot", "stp", "s"),
                ("bar", "stp", "n"), ("con", "bul", "e"), ("aeg", "bul", "s")]
_PROVINCE_SPELLINGS = {"spa": ["Spa", "spa", "Spain", "SPA"],
                       "stp": ["StP", "stp", "St. P.", "St Petersburg", "St. Petersburg"],
                       "bul": ["Bul", "bul", "Bulgaria", "BUL"]}


@st.composite
def coast_move(draw: st.DrawFn) -> tuple[str, str]:
    origin, province, letter = draw(st.sampled_from(_COAST_MOVES))
    spelled = draw(st.sampled_from(_COAST_SPELLINGS[letter]))
    bare_direction = spelled.lower() in _SINGLE_DIRECTIONS
    styles = ["/{}", "({})", " ({})", "/ {}"]
    if not bare_direction:
        styles.append(" {}")  # a bare "s" or "nth" after a place means something else
    if spelled.lower() in ("nc", "sc", "ec", "ncs", "scs", "ecs"):
        styles.append("-{}")
    style = draw(st.sampled_from(styles))
    place = draw(st.sampled_from(_PROVINCE_SPELLINGS[province]))
    dash = draw(st.sampled_from(["-", " - ", " to ", "\u2013", " -> "]))
    return f"F {origin.title()}{dash}{place}{style.format(spelled)}", f"{province}/{letter}c"


@given(coast_move())
@settings(max_examples=400, deadline=None)
def test_any_usual_coast_spelling_is_read(case: tuple[str, str]) -> None:
    text, coast = case
    order = parse_order(text)
    assert isinstance(order, Move) and order.destination == coast


@pytest.mark.parametrize(("text", "expected"), [
    ("F Spa Nth", "F SPA - NTH"),          # Nth is the North Sea, not Spain's north coast
    ("F Mao S F Spa", "F MAO S F SPA"),    # S is a support, not the south coast
    ("F Bul/EC S A Alb", "F BUL/EC S A ALB"),
    ("F StP/NC S F Nwy", "F STP/NC S F NWY"),
])
def test_coast_spellings_do_not_swallow_the_rest_of_the_order(text: str, expected: str) -> None:
    assert str(parse_order(text)) == expected


def test_a_coast_the_province_lacks_is_named_in_the_error() -> None:
    with pytest.raises(InvalidOrderError) as caught:
        parse_order("F Mao-Spa (ec)")
    assert "'ec' is not a coast of SPA" in str(caught.value)
    assert "SPA/NC, SPA/SC" in caught.value.hint
