"""The order-text parser and formatter: rulebook notation, errors, and round trips."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from realpolitik.errors import (
    AmbiguousOrderError,
    InvalidOrderError,
    OrderTextError,
    UnknownNameError,
)
from realpolitik.geography import UnitType
from realpolitik.notation import format_order, parse_order, parse_orders
from realpolitik.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from realpolitik.position import Position
from realpolitik.variant import load_variant

A, F = UnitType.ARMY, UnitType.FLEET
VARIANT = load_variant("classical")
START = Position.initial(VARIANT)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A Liv.\u2014Yor.", Move(A, "lvp", "yor")),
        ("F Lon.\u2014North Sea", Move(F, "lon", "nth")),
        ("F North Sea C A Yor.\u2014Norway", Convoy(F, "nth", "yor", "nwy")),
        ("A Ukr S F Sev.\u2014Rum.", SupportMove(A, "ukr", "sev", "rum", F)),
        ("A Tri. Stand", Hold(A, "tri")),
        ("F Den. Stands", Hold(F, "den")),
        ("A Sil S RUSSIAN A War-Pru",
         SupportMove(A, "sil", "war", "pru", A, supported_power="russia")),
        ("F Eng C ENGLISH A Lon-Bel", Convoy(F, "eng", "lon", "bel", army_power="england")),
        ("F Mid C A Lon-Tun", Convoy(F, "mao", "lon", "tun")),
        ("F StP(sc)-Bot", Move(F, "stp/sc", "bot")),
        ("F MAt-Spa nc", Move(F, "mao", "spa/nc")),
        ("A Par - Bur via convoy", Move(A, "par", "bur", True)),
        ("Build F StP/NC", Build(F, "stp/nc")),
        ("A Mun disband", Disband(A, "mun")),
        ("a par moves to bur", Move(A, "par", "bur")),
        ("A PAR -> BUR", Move(A, "par", "bur")),
        ("A Par to Bur", Move(A, "par", "bur")),
        ("Fleet Naples to the Ionian Sea", Move(F, "nap", "ion")),
        ("A Par \u2013 Bur", Move(A, "par", "bur")),
        ("A Pie. Mar.", Move(A, "pie", "mar")),
        ("F W Med.--Mid.", Move(F, "wes", "mao")),
        ("F Gulf of L. H", Hold(F, "lyo")),
        ("F GRE R ALB", Retreat(F, "gre", "alb")),
        ("A PAR B", Build(A, "par")),
        ("WAIVE", Waive()),
        ("A MUN S A BER", SupportHold(A, "mun", "ber", A)),
        ("A Mun S A Ber H", SupportHold(A, "mun", "ber", A)),
        ("F Bla S A Bul-Rum", SupportMove(F, "bla", "bul", "rum", A)),
        ("A Ser. S Turk. A Bul. Rum.",
         SupportMove(A, "ser", "bul", "rum", A, supported_power="turkey")),
    ],
)
def test_reads_orders_as_written(text: str, expected: object) -> None:
    assert parse_order(text) == expected


def test_position_fills_the_coast_a_fleet_stands_on() -> None:
    assert parse_order("F StP-Bot", START) == Move(F, "stp/sc", "bot", power="russia")


def test_position_fills_the_only_reachable_coast() -> None:
    position = Position.build(VARIANT, "S1901M", [START.units["bre"]])
    assert parse_order("F Bre-Mid", position) == Move(F, "bre", "mao", power="france")
    gascony = Position.build(VARIANT, "S1901M", [
        type(START.units["bre"])("france", F, "gas")])
    assert parse_order("F Gas-Spa", gascony).destination == "spa/nc"  # type: ignore[union-attr]


def test_both_coasts_reachable_is_ambiguous_with_every_reading() -> None:
    position = Position.build(VARIANT, "S1901M", [type(START.units["bre"])("france", F, "mao")])
    with pytest.raises(AmbiguousOrderError) as info:
        parse_order("F Mid-Spa", position)
    assert set(info.value.candidates) == {"SPA/NC", "SPA/SC"}


def test_only_fleet_of_a_power_is_understood() -> None:
    # 1971 sample game: "F S A Bul.--Rum." from Turkey, which has one fleet
    unit = type(START.units["bre"])
    position = Position.build(VARIANT, "F1902M", [
        unit("turkey", F, "bla"), unit("turkey", A, "bul"), unit("turkey", A, "con")])
    assert parse_order("F S A Bul.--Rum.", position, power="turkey") == SupportMove(
        F, "bla", "bul", "rum", A, power="turkey")


def test_two_fleets_make_a_placeless_order_ambiguous() -> None:
    with pytest.raises(AmbiguousOrderError) as info:
        parse_order("F Stands", START, power="russia")
    assert set(info.value.candidates) == {"SEV", "STP/SC"}


def test_tyr_means_the_tyrrhenian_sea_for_a_fleet() -> None:
    unit = type(START.units["bre"])
    position = Position.build(VARIANT, "S1902M", [unit("italy", F, "nap"), unit("italy", F, "tys")])
    assert parse_order("F Nap.--Tyr.", position).destination == "tys"  # type: ignore[union-attr]
    assert parse_order("F Tyr.--Gulf of L.", position).location == "tys"
    assert parse_order("A Tyr-Mun").location == "tyr"


def test_nor_is_ambiguous_and_lists_every_reading() -> None:
    with pytest.raises(AmbiguousOrderError) as info:
        parse_order("F Nor-Bar")
    assert {"NWY", "NWG", "NTH"} <= set(info.value.candidates)
    assert "could mean" in str(info.value)


def test_unknown_name_gets_suggestions_and_a_caret() -> None:
    with pytest.raises(UnknownNameError) as info:
        parse_order("A Pars-Bur")
    assert info.value.suggestions[0].startswith("PAR")
    assert info.value.span == (2, 6)
    assert "^^^^" in str(info.value)


def test_wrong_coast_is_explained() -> None:
    with pytest.raises(InvalidOrderError) as info:
        parse_order("F Mao-Spa/ec")
    assert "coast" in info.value.message and "SPA/NC" in info.value.hint


@pytest.mark.parametrize(
    "text", ["", "A", "A Par - ", "hello world", "A Par S", "F Nth C F Lon-Bel"]
)
def test_bad_text_raises_order_text_errors(text: str) -> None:
    with pytest.raises(OrderTextError):
        parse_order(text)


def test_sheet_reads_run_on_rulebook_lines() -> None:
    sheet = parse_orders(
        "England: A Liv.\u2014Yor. F Lon.\u2014North Sea F Edi.\u2014Norw. Sea\n"
        "Austria-Hungary: A Vie.\u2014Tri. A Bud.\u2014Gal. F Tri.\u2014Alb.\n",
        START,
    )
    assert not sheet.errors
    assert [str(o) for o in sheet.by_power()["england"]] == [
        "A LVP - YOR", "F LON - NTH", "F EDI - NWG"]
    assert [str(o) for o in sheet.by_power()["austria"]] == [
        "A VIE - TRI", "A BUD - GAL", "F TRI - ALB"]


def test_sheet_keeps_going_after_a_bad_line() -> None:
    sheet = parse_orders("France: A Par-Bur, A Marz-Spa\nF Bre-Pic", START)
    assert [str(o) for o in sheet.orders] == ["A PAR - BUR", "F BRE - PIC"]
    (error,) = sheet.errors
    assert error.line == 1 and isinstance(error, UnknownNameError)
    assert error.text[error.span[0]:error.span[1]] == "Marz"


# -- property-based ------------------------------------------------------------------------

PROVINCES = sorted(VARIANT.map.provinces)
LAND = sorted(p.id for p in VARIANT.map.provinces.values() if p.terrain in ("land", "coast"))
LOCATIONS = sorted(VARIANT.map.locations)
location = st.sampled_from(LOCATIONS)
# where a fleet can stand: a coast, not the bare province, where there are several
fleet_location = st.sampled_from([
    loc for loc in LOCATIONS
    if VARIANT.map.terrain(loc) in ("sea", "coast")
    and ("/" in loc or not VARIANT.map.coasts(loc))
])
army_location = st.sampled_from(LAND)
province = st.sampled_from(PROVINCES)
unit_type = st.sampled_from([A, F])



@st.composite
def unit_at(draw: st.DrawFn) -> tuple[UnitType, str]:
    """A unit type with a place it is written with: armies at provinces, fleets anywhere."""
    kind = draw(unit_type)
    return kind, draw(army_location if kind is A else fleet_location)


def _moving(kind: UnitType) -> st.SearchStrategy[str]:
    return army_location if kind is A else fleet_location


orders = st.one_of(
    unit_at().map(lambda u: Hold(*u)),
    unit_at().flatmap(lambda u: st.builds(Move, st.just(u[0]), st.just(u[1]), _moving(u[0]),
                                          st.booleans())),
    st.builds(lambda u, s: SupportHold(*u, s[1], s[0]), unit_at(), unit_at()),
    st.builds(lambda u, s, d: SupportMove(*u, s[1], d, s[0]), unit_at(), unit_at(), location),
    st.builds(lambda u, a, d: Convoy(*u, a, d), unit_at(), province, province),
    unit_at().flatmap(lambda u: st.builds(Retreat, st.just(u[0]), st.just(u[1]),
                                          _moving(u[0]))),
    unit_at().map(lambda u: Disband(*u)),
    unit_at().map(lambda u: Build(*u)),
    st.just(Waive()),
)


@given(orders)
@settings(max_examples=400, deadline=None)  # no timing assertions: the machine is shared
def test_format_then_parse_is_the_identity(order: object) -> None:
    assert parse_order(format_order(order)) == order  # type: ignore[arg-type]


@given(st.text(max_size=40))
@settings(max_examples=400, deadline=None)  # no timing assertions: the machine is shared
def test_parsing_any_text_raises_only_order_text_errors(text: str) -> None:
    with contextlib.suppress(OrderTextError):
        parse_order(text)


@given(st.lists(st.sampled_from(
    ["A", "F", "Par", "-", "S", "C", "H", "Bur", "St.", "P.", "(", "nc", ")", "/", "to",
     "via", "convoy", "Nor", "North", "Sea", ",", ":", "England", "RUSSIAN", "Build", "D", "Spa"]),
    max_size=8))
@settings(max_examples=400, deadline=None)  # no timing assertions: the machine is shared
def test_parsing_order_like_words_raises_only_order_text_errors(words: list[str]) -> None:
    with contextlib.suppress(OrderTextError):
        parse_order(" ".join(words), START)
    parse_orders("\n".join(words), START)


def test_the_parsers_memos_keep_answers_and_stay_within_their_bound() -> None:
    """Reading the same text again gives the same order, and the lexicon's memos (tokens, the
    power written, the beginnings of names) never pass their stated bound however many
    different texts are read."""
    from realpolitik.notation import _MEMO_BOUND, _lexicon

    variant = load_variant("classical")
    position = Position.initial(variant)
    first = parse_orders("England: A Lvp - Edi\nF Lon - Nth", position)
    again = parse_orders("England: A Lvp - Edi\nF Lon - Nth", position)
    assert first.orders == again.orders
    assert [str(o) for o in again.orders] == ["A LVP - EDI", "F LON - NTH"]
    assert parse_order("Eng: F Lon-Eng", position).power == "england"
    assert parse_order("F Lon-Eng", position, power="england").power == "england"
    lexicon = _lexicon(variant)
    for number in range(3 * _MEMO_BOUND):
        with contextlib.suppress(Exception):
            parse_order(f"A Lvp - Edi{number}", position)
    for memo in (lexicon.token_memo, lexicon.power_memo, lexicon.prefix_memo):
        assert 0 < len(memo) <= _MEMO_BOUND
    assert str(parse_order("A Lvp - Edi", position)) == "A LVP - EDI"


# -- bounded reading: any text costs time in proportion to a fixed number of orders ----------

def test_a_sheet_reads_at_most_its_limit_of_orders_and_says_where_it_stopped() -> None:
    from realpolitik.notation import SHEET_ORDER_LIMIT

    sheet = parse_orders("A Par-Bur\n" * (SHEET_ORDER_LIMIT + 50), START, power="france")
    assert len(sheet.entries) == SHEET_ORDER_LIMIT + 1
    assert all(e.ok for e in sheet.entries[:SHEET_ORDER_LIMIT])
    last = sheet.entries[-1]
    assert last.error is not None and last.line == SHEET_ORDER_LIMIT + 1
    assert f"more than {SHEET_ORDER_LIMIT} orders" in last.error.message
    # on one line too: unit letters start orders ("F F F ...")
    one_line = parse_orders("F " * 4000, START, power="france")
    assert len(one_line.entries) == SHEET_ORDER_LIMIT + 1
    assert one_line.entries[-1].error is not None
    assert one_line.entries[-1].error.span[1] == len("F " * 4000)


def test_a_piece_too_long_to_be_an_order_is_refused_unread() -> None:
    from realpolitik.notation import ORDER_TOKEN_LIMIT

    text = "A Par-Bur\n" + "(" * (ORDER_TOKEN_LIMIT + 1) + "\nA Mar-Spa"
    sheet = parse_orders(text, START, power="france")
    assert [e.ok for e in sheet.entries] == [True, False, True]
    error = sheet.entries[1].error
    assert error is not None and "too long to be one order" in error.message
    assert error.line == 2


def test_unknown_names_get_suggestions_up_to_the_sheets_allowance() -> None:
    from realpolitik.notation import SHEET_SUGGESTION_LIMIT, _lexicon

    # names no earlier test asked about (the lexicon keeps the suggestions found)
    names = [f"Parqz{'x' * n}" for n in range(SHEET_SUGGESTION_LIMIT + 5)]
    _lexicon(VARIANT).suggestion_memo.clear()
    sheet = parse_orders("\n".join(f"A {name}-Bur" for name in names), START, power="france")
    errors = [e.error for e in sheet.entries]
    assert all(isinstance(e, UnknownNameError) for e in errors)
    with_suggestions = [e for e in errors if isinstance(e, UnknownNameError) and e.suggestions]
    assert 0 < len(with_suggestions) <= SHEET_SUGGESTION_LIMIT
    # every error still says what is wrong and where
    assert all(e is not None and e.line is not None and e.span[1] > e.span[0] for e in errors)
    # a name already looked for gets its suggestions again, allowance or not
    again = parse_orders("\n".join(["A Parqz-Bur"] * (SHEET_SUGGESTION_LIMIT + 5)), START,
                         power="france")
    assert all(isinstance(e.error, UnknownNameError) and e.error.suggestions
               for e in again.entries)


@given(st.lists(st.sampled_from(list("xaF(-P \n,:") + ["Par", "England:", "Bur"]),
                max_size=4000).map("".join))
@settings(max_examples=60, deadline=None)  # no timing assertions: the machine is shared
def test_any_sheet_gives_a_bounded_number_of_entries(text: str) -> None:
    from realpolitik.notation import SHEET_ORDER_LIMIT

    sheet = parse_orders(text, START, power="france")
    assert len(sheet.entries) <= SHEET_ORDER_LIMIT + 1
    for entry in sheet.entries:
        assert entry.ok or entry.error is not None
