"""Checks on the classical map's data files, read with the csv module only.

These tests do not import realpolitik: they check the CSV files in
realpolitik/variants/classical/ against facts that can be verified by hand from the
rulebooks in the seeds (1971 and 1992 editions) and from the printed map.
"""

from __future__ import annotations

import csv
import re
from collections import Counter, defaultdict
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent.parent / "realpolitik" / "variants" / "classical"


def _ids(text: str) -> set[str]:
    return set(text.split())


POWERS = {"austria", "england", "france", "germany", "italy", "russia", "turkey"}
SEAS = _ids("nao mao nwg nth eng iri hel ska bal bot bar lyo wes tys ion adr aeg eas bla")
INLAND = _ids("bur par ruh mun sil boh tyr vie bud gal ser mos war ukr")
HOME = {
    "austria": {"vie", "bud", "tri"},
    "england": {"lon", "edi", "lvp"},
    "france": {"par", "mar", "bre"},
    "germany": {"ber", "mun", "kie"},
    "italy": {"rom", "ven", "nap"},
    "russia": {"mos", "war", "stp", "sev"},
    "turkey": {"con", "ank", "smy"},
}
NEUTRAL_CENTRES = _ids("nwy swe den hol bel spa por tun gre ser bul rum")


def _rows(name: str) -> tuple[list[str], list[dict[str, str]]]:
    with open(DATA / name, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
        return list(reader.fieldnames or []), rows


def _norm(alias: str) -> str:
    return re.sub(r"\s+", " ", alias.replace(".", "").lower()).strip()


PROV_HEADER, PROVINCES = _rows("provinces.csv")
COAST_HEADER, COASTS = _rows("coasts.csv")
ADJ_HEADER, ADJ = _rows("adjacencies.csv")
BY_ID = {r["id"]: r for r in PROVINCES}
COAST_IDS = {f"{r['province']}/{r['coast']}" for r in COASTS}
SPLIT = {r["province"] for r in COASTS}


def _neighbours(place: str, kinds: set[str]) -> set[str]:
    """Places reachable from `place` (province or coast id) along edges of the given kinds."""
    out = set()
    for r in ADJ:
        if r["units"] not in kinds:
            continue
        if r["a"] == place:
            out.add(r["b"])
        elif r["b"] == place:
            out.add(r["a"])
    return out


def _army(p: str) -> set[str]:
    return _neighbours(p, {"army", "both"})


def _fleet(p: str) -> set[str]:
    return _neighbours(p, {"fleet", "both"})


def _units(a: str, b: str) -> str | None:
    for r in ADJ:
        if {r["a"], r["b"]} == {a, b}:
            return r["units"]
    return None


# ---------------------------------------------------------------- provinces.csv


def test_headers() -> None:
    assert PROV_HEADER == ["id", "name", "terrain", "supply_center", "home_of", "aliases"]
    assert COAST_HEADER == ["province", "coast", "name", "aliases"]
    assert ADJ_HEADER == ["a", "b", "units"]


def test_ids_are_unique_lowercase_codes() -> None:
    ids = [r["id"] for r in PROVINCES]
    assert len(ids) == len(set(ids))
    for i in ids:
        assert re.fullmatch(r"[a-z]{3}", i), i


def test_seventy_five_spaces_plus_switzerland() -> None:
    passable = [r for r in PROVINCES if r["terrain"] != "impassable"]
    assert len(passable) == 75
    assert [r["id"] for r in PROVINCES if r["terrain"] == "impassable"] == ["swi"]
    assert BY_ID["swi"]["supply_center"] == "no"
    assert BY_ID["swi"]["home_of"] == ""


def test_terrain_counts() -> None:
    terrain = Counter(r["terrain"] for r in PROVINCES)
    assert set(terrain) == {"land", "coast", "sea", "impassable"}
    assert {r["id"] for r in PROVINCES if r["terrain"] == "sea"} == SEAS
    assert len(SEAS) == 19
    assert {r["id"] for r in PROVINCES if r["terrain"] == "land"} == INLAND
    assert terrain["coast"] == 75 - 19 - 14 == 42


def test_supply_centres() -> None:
    for r in PROVINCES:
        assert r["supply_center"] in {"yes", "no"}
    centres = {r["id"] for r in PROVINCES if r["supply_center"] == "yes"}
    assert len(centres) == 34
    homes: dict[str, set[str]] = defaultdict(set)
    for r in PROVINCES:
        if r["home_of"]:
            assert r["home_of"] in POWERS
            assert r["supply_center"] == "yes", r["id"]
            homes[r["home_of"]].add(r["id"])
    assert dict(homes) == HOME
    assert sum(len(v) for v in homes.values()) == 22
    assert {p: len(v) for p, v in homes.items()} == {
        "austria": 3,
        "england": 3,
        "france": 3,
        "germany": 3,
        "italy": 3,
        "russia": 4,
        "turkey": 3,
    }
    assert centres - set().union(*HOME.values()) == NEUTRAL_CENTRES
    assert not centres & SEAS


def test_aliases_do_not_clash() -> None:
    owner: dict[str, str] = {}
    for r in PROVINCES:
        names = [r["id"], r["name"]] + [a for a in r["aliases"].split("|") if a]
        for a in names:
            assert a == a.strip() and a, (r["id"], a)
            key = _norm(a)
            assert owner.get(key, r["id"]) == r["id"], (
                f"{a!r} names both {owner[key]} and {r['id']}"
            )
            owner[key] = r["id"]


def _resolve(text: str) -> str | None:
    key = _norm(text)
    for r in PROVINCES:
        names = [r["id"], r["name"]] + [a for a in r["aliases"].split("|") if a]
        if key in {_norm(a) for a in names}:
            return r["id"]
    return None


# Abbreviations used by the rulebooks: the 1992 list and the 1971 sample game.
RULEBOOK_FORMS = {
    # 1992 abbreviation list (VII.4 and the list after the sample game)
    "Nth": "nth",
    "Nrg": "nwg",
    "Nwy": "nwy",
    "NAt": "nao",
    "NAf": "naf",
    "MAt": "mao",
    "Skag": "ska",
    "York": "yor",
    "Pied": "pie",
    "Port": "por",
    "GoL": "lyo",
    "Tyn": "tys",
    "West": "wes",
    "East": "eas",
    "Liv": "lvp",
    "Edi": "edi",
    "StP": "stp",
    "Lvn": "lvn",
    "Rome": "rom",
    "Kiel": "kie",
    "Ruhr": "ruh",
    "Bot": "bot",
    "Hel": "hel",
    "Helgoland Bight": "hel",
    "Gulf of Lyon": "lyo",
    "Ed": "edi",
    "Edinburg": "edi",
    "Mid-Atlantic": "mao",
    "Tyrrhenian": "tys",
    # 1971 sample game and rules text
    "St. P.": "stp",
    "Both.": "bot",
    "Bla.": "bla",
    "Norw. Sea": "nwg",
    "Norw.": "nwy",
    "Nor.": None,
    "W Med.": "wes",
    "W. Med.": "wes",
    "Gulf of L.": "lyo",
    "Mid.": "mao",
    "Lyo": "lyo",
    "Wes": "wes",
    "North Sea": "nth",
    "Norway": "nwy",
    "Marseilles": "mar",
    "Skaggerak": "ska",
    "NAT": "nao",
    "NAF": "naf",
    "Liv.": "lvp",
    "Yor.": "yor",
    # the 1971 rules use "Tyr" for the Tyrrhenian Sea; it is Tyrolia's code
    "Tyr": "tyr",
    "North": None,
    "Nor": None,
}


@pytest.mark.parametrize("text,expected", sorted(RULEBOOK_FORMS.items()))
def test_rulebook_abbreviations(text: str, expected: str | None) -> None:
    assert _resolve(text) == expected


# ---------------------------------------------------------------- coasts.csv


def test_coasts() -> None:
    assert sorted(COAST_IDS) == ["bul/ec", "bul/sc", "spa/nc", "spa/sc", "stp/nc", "stp/sc"]
    for r in COASTS:
        assert BY_ID[r["province"]]["terrain"] == "coast"
        assert r["name"]
        aliases = [_norm(a) for a in r["aliases"].split("|") if a]
        assert len(aliases) == len(set(aliases))


# ---------------------------------------------------------------- adjacencies.csv


def test_adjacency_ids_exist_and_units_valid() -> None:
    for r in ADJ:
        assert r["units"] in {"army", "fleet", "both"}, r
        for end in (r["a"], r["b"]):
            assert end in BY_ID or end in COAST_IDS, end
            assert end != "swi"
        assert r["a"] != r["b"]


def test_no_pair_twice() -> None:
    pairs = Counter(frozenset((r["a"], r["b"])) for r in ADJ)
    assert [tuple(p) for p, n in pairs.items() if n > 1] == []
    # a province pair carries at most one army-capable line
    army_pairs = Counter(
        frozenset((r["a"].split("/")[0], r["b"].split("/")[0]))
        for r in ADJ
        if r["units"] != "fleet"
    )
    assert [tuple(p) for p, n in army_pairs.items() if n > 1] == []


def test_units_match_terrain() -> None:
    for r in ADJ:
        a, b, units = r["a"], r["b"], r["units"]
        ta = BY_ID[a.split("/")[0]]["terrain"]
        tb = BY_ID[b.split("/")[0]]["terrain"]
        if units in {"army", "both"}:
            # armies: land or coastal provinces, named by the bare province
            assert "/" not in a and "/" not in b, r
            assert ta != "sea" and tb != "sea", r
        if units == "both":
            assert ta == tb == "coast", r
            assert a not in SPLIT and b not in SPLIT, r
        if units == "fleet":
            assert ta != "land" and tb != "land", r
            # a split-coast province is entered by fleets through its coasts only
            assert a not in SPLIT and b not in SPLIT, r
            # fleet-only between two coastal provinces does not happen on this map
            assert "sea" in {ta, tb} or "/" in a or "/" in b, r


def test_every_space_has_the_right_kind_of_border() -> None:
    for r in PROVINCES:
        p, t = r["id"], r["terrain"]
        if t == "sea":
            assert _fleet(p) and not _army(p), p
        elif t == "land":
            assert _army(p) and not _fleet(p), p
        elif t == "coast":
            assert _army(p), p
            places = [c for c in COAST_IDS if c.startswith(p + "/")] or [p]
            # a coastal province (each coast of a split one) touches a sea
            for place in places:
                assert any(n in SEAS for n in _fleet(place)), place


def test_map_is_connected() -> None:
    adj: dict[str, set[str]] = defaultdict(set)
    for r in ADJ:
        a, b = r["a"].split("/")[0], r["b"].split("/")[0]
        adj[a].add(b)
        adj[b].add(a)
    seen = {"par"}
    todo = ["par"]
    while todo:
        for n in adj[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == {r["id"] for r in PROVINCES if r["terrain"] != "impassable"}


def test_edge_totals() -> None:
    # Regression counts (they agree with the standard map of other engines):
    # 111 province pairs crossable by armies, 141 place pairs crossable by fleets.
    army = {frozenset((r["a"], r["b"])) for r in ADJ if r["units"] != "fleet"}
    fleet = {frozenset((r["a"], r["b"])) for r in ADJ if r["units"] != "army"}
    assert len(army) == 111
    assert len(fleet) == 141


# Degree counts checked by hand against the map.
def test_hand_counted_neighbours() -> None:
    assert _fleet("nth") == _ids("nwg nwy ska den hel hol bel eng lon yor edi")
    assert len(_fleet("nth")) == 11
    assert _army("mun") == _ids("bur ruh kie ber sil boh tyr")
    assert _fleet("mao") == _ids("nao iri eng bre gas spa/nc spa/sc por naf wes")
    assert _fleet("ion") == _ids("tun tys nap apu adr alb gre aeg eas")
    assert _fleet("tys") == _ids("wes lyo tus rom nap ion tun")
    assert _fleet("lyo") == _ids("spa/sc mar pie tus tys wes")
    assert _fleet("wes") == _ids("mao spa/sc lyo tys tun naf")
    assert _fleet("nao") == _ids("nwg cly lvp iri mao")
    assert _fleet("nwg") == _ids("nao nth bar nwy edi cly")
    assert _fleet("eng") == _ids("iri mao bre pic bel nth lon wal")
    assert _fleet("bal") == _ids("swe bot lvn pru ber kie den")
    assert _fleet("bla") == _ids("rum sev arm ank con bul/ec")
    assert _fleet("aeg") == _ids("gre bul/sc con smy eas ion")
    assert _army("bur") == _ids("par pic bel ruh mun mar gas")
    assert _army("ukr") == _ids("sev rum gal war mos")
    assert _army("gal") == _ids("boh sil war ukr rum bud vie")
    assert _army("ser") == _ids("tri bud rum bul gre alb")
    assert _army("tri") == _ids("ven tyr vie bud ser alb")
    assert _army("kie") == _ids("den hol ber mun ruh")
    assert _fleet("kie") == _ids("hel bal den hol ber")
    assert _army("con") == _ids("bul ank smy")
    assert _fleet("con") == _ids("bla aeg ank smy bul/ec bul/sc")
    assert _army("stp") == _ids("nwy fin lvn mos")
    assert _army("spa") == _ids("por gas mar")
    assert _army("bul") == _ids("rum con gre ser")


def test_kiel_and_constantinople() -> None:
    assert _units("kie", "den") == "both"
    assert _units("kie", "hol") == "both"
    assert _units("kie", "ber") == "both"
    assert _units("kie", "hel") == "fleet"
    assert _units("kie", "bal") == "fleet"
    assert _units("kie", "mun") == "army"
    assert _units("kie", "ruh") == "army"
    assert _units("con", "ank") == "both"
    assert _units("con", "smy") == "both"
    assert _units("con", "bul") == "army"


def test_denmark_and_sweden_viii_3_c() -> None:
    assert _units("den", "swe") == "both"
    assert _units("bal", "ska") is None
    assert _units("den", "ber") is None
    assert _army("den") == {"swe", "kie"}
    assert _fleet("den") == _ids("swe kie ska nth hel bal")
    assert _fleet("swe") == _ids("den nwy fin bal bot ska")


def test_rome_venice_army_only() -> None:
    assert _units("rom", "ven") == "army"
    assert _units("rom", "tus") == "both"
    assert _units("rom", "nap") == "both"
    assert _units("rom", "apu") == "army"


def test_split_coasts() -> None:
    assert _fleet("stp/sc") == {"bot", "fin", "lvn"}
    assert _fleet("stp/nc") == {"bar", "nwy"}
    assert _fleet("spa/nc") == {"gas", "mao", "por"}
    assert _fleet("spa/sc") == {"mar", "lyo", "wes", "mao", "por"}
    assert _fleet("bul/ec") == {"bla", "rum", "con"}
    assert _fleet("bul/sc") == {"con", "aeg", "gre"}
    for p in SPLIT:
        assert _fleet(p) == set(), p
