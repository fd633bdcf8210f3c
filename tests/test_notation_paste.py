"""The gamesmaster's paste: a sheet printed as the 1971 book prints it, one paragraph for several
powers, and orders written one after another with a stray mark between them (1971 VII.4: a
badly written order with one meaning is followed)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from realpolitik.notation import parse_order, parse_orders
from realpolitik.position import Position
from realpolitik.variant import load_variant

CLASSICAL = load_variant("classical")
START = Position.initial(CLASSICAL)

# Orders each power may give in Spring 1901, as people write them.
SPRING_ORDERS = {
    "austria": ["A Vie.-Gal.", "A Bud.-Ser.", "F Tri.-Alb."],
    "england": ["F Lon.-North Sea", "F Edi.-Norw. Sea", "A Liv.-Yor."],
    "france": ["A Par.-Bur.", "A Mar. S A Par.-Bur.", "F Bre.-Mid-Atlantic Ocean"],
    "germany": ["A Mun.-Ruhr", "A Ber.-Kiel", "F Kiel-Den."],
    "italy": ["A Ven.-Tyr.", "A Rome-Apu.", "F Nap.-Ion."],
    "russia": ["A Mos.-Ukr.", "F Sev.-Black Sea", "A War.-Gal.", "F St. P. (S.C.)-Bot."],
    "turkey": ["F Ank.-Black Sea", "A Con.-Bul.", "A Smy.-Arm."],
}
POWER_WRITTEN = {"austria": "Austria", "england": "England", "france": "France",
                 "germany": "Germany", "italy": "Italy", "russia": "Russia", "turkey": "Turkey"}
STRAY_MARKS = ["'", "\u2019", "*", "?", "!", "`", "~", "|"]


def canonical(power: str, text: str) -> str:
    return str(parse_order(text, START, power=power))


def test_the_1971_winter_paragraph_gives_each_power_its_builds() -> None:
    winter = "England builds F Edi., Germany builds F Kiel and A Mun., " \
             "Russia builds A St. P. and A Sev., Turkey builds F Smyrna."
    sheet = parse_orders(winter, variant=CLASSICAL)
    assert not sheet.errors
    assert {p: [str(o) for o in orders] for p, orders in sheet.by_power().items()} == {
        "england": ["F EDI B"], "germany": ["F KIE B", "A MUN B"],
        "russia": ["A STP B", "A SEV B"], "turkey": ["F SMY B"]}
    assert sheet.powers_named == ("england", "germany", "russia", "turkey")


def test_a_power_named_mid_line_after_an_order_without_a_comma() -> None:
    sheet = parse_orders("England: F Lon-Nth Germany: A Mun-Ruh France A Par-Bur", START)
    assert [(e.power, str(e.order)) for e in sheet] == [
        ("england", "F LON - NTH"), ("germany", "A MUN - RUH"), ("france", "A PAR - BUR")]


def test_the_owner_of_a_supported_unit_is_not_a_new_power() -> None:
    sheet = parse_orders("Germany: A Mun S Russian A War-Sil, A Ber-Kie", START)
    assert [(e.power, str(e.order)) for e in sheet] == [
        ("germany", "A MUN S RUSSIA A WAR - SIL"), ("germany", "A BER - KIE")]


def test_one_powers_sheet_still_refuses_another_powers_orders() -> None:
    # the server reads one power's sheet: an order for another power is refused, not taken
    sheet = parse_orders("F Edi-Nwg, Germany builds A Mun", START, power="england")
    assert [str(o) for o in sheet.orders] == ["F EDI - NWG"]
    (error,) = sheet.errors
    assert "written for Germany but given by England" in str(error)


def test_the_books_stray_mark_between_two_orders_loses_neither() -> None:
    sheet = parse_orders("Austria: A Vie.-Bud' A Bud.-Ser.", START)
    assert not sheet.errors
    assert [str(o) for o in sheet.orders] == ["A VIE - BUD", "A BUD - SER"]


def test_a_mark_inside_an_order_is_still_an_error() -> None:
    sheet = parse_orders("Austria: A Vie.-*Bud.", START)
    assert not sheet.orders and len(sheet.errors) == 1


@st.composite
def paragraphs(draw: st.DrawFn) -> tuple[str, dict[str, list[str]]]:
    """Several powers' orders in one paragraph, each group headed by its power's name."""
    powers = draw(st.lists(st.sampled_from(sorted(SPRING_ORDERS)), min_size=1, max_size=7,
                           unique=True))
    parts, expected = [], {}
    for power in powers:
        chosen = draw(st.lists(st.sampled_from(SPRING_ORDERS[power]), min_size=1,
                               max_size=len(SPRING_ORDERS[power]), unique=True))
        inner = draw(st.sampled_from([", ", " ", " and ", "; "]))
        head = POWER_WRITTEN[power] + draw(st.sampled_from([": ", " ", ":"]))
        parts.append(head + inner.join(chosen))
        expected[power] = [canonical(power, text) for text in chosen]
    between = draw(st.sampled_from([", ", " ", ". ", "; "]))
    return between.join(parts), expected


@given(paragraphs())
@settings(max_examples=150, deadline=None)
def test_every_power_named_in_a_paragraph_gets_its_own_orders(
        case: tuple[str, dict[str, list[str]]]) -> None:
    text, expected = case
    sheet = parse_orders(text, START)
    assert not sheet.errors, [str(e) for e in sheet.errors]
    assert {p: [str(o) for o in orders] for p, orders in sheet.by_power().items()} == expected


@given(st.sampled_from(sorted(SPRING_ORDERS)), st.data())
@settings(max_examples=150, deadline=None)
def test_a_stray_mark_between_orders_loses_no_order(power: str, data: st.DataObject) -> None:
    chosen = data.draw(st.lists(st.sampled_from(SPRING_ORDERS[power]), min_size=2,
                                max_size=len(SPRING_ORDERS[power]), unique=True))
    text = chosen[0]
    for order in chosen[1:]:
        mark = data.draw(st.sampled_from(STRAY_MARKS))
        text += mark + data.draw(st.sampled_from([" ", "  "])) + order
    sheet = parse_orders(text, START, power=power)
    assert not sheet.errors, [str(e) for e in sheet.errors]
    assert [str(o) for o in sheet.orders] == [canonical(power, t) for t in chosen]
