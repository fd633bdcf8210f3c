"""The facade's quick ``set_orders`` (a list of listed strings, for a power given nothing yet)
plays exactly as its general path, and the engine vouches for an unlisted order read as given.

The general path is taken for the same strings given as a tuple (the quick path takes only a
list), so two games fed the same random strings, one as lists and one as tuples, must agree on
everything a caller can read: the orders, the errors, the results and the board.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from realpolitik.adjudication import adjudicate
from realpolitik.compat.diplomacy import Game
from realpolitik.compat.diplomacy_words import ListingTexts, listing_texts
from realpolitik.geography import UnitType
from realpolitik.listing import PART_SUPPORT_OF, listed_orders, movement_parts
from realpolitik.orders import Move, SupportMove
from realpolitik.rules import rules_for


def _random_strings(game: Game, rng: random.Random, stale: list[str]) -> dict[str, list[str]]:
    """One random listed string per orderable location; now and then a string listed in an
    earlier phase (perhaps illegal now) or a second order for a unit."""
    possible = game.get_all_possible_orders()
    chosen: dict[str, list[str]] = {}
    for power, locations in game.get_orderable_locations().items():
        strings = [rng.choice(sorted(possible[loc])) for loc in locations if possible[loc]]
        if strings and stale and rng.random() < 0.2:
            strings.append(rng.choice(stale))
        if strings and rng.random() < 0.1:
            strings.append(rng.choice(strings))
        chosen[power] = strings
    stale.extend(s for strings in chosen.values() for s in strings)
    return chosen


def _play_both_alike(quick: Game, general: Game) -> None:
    """The two games hold the same orders and errors; each is processed, and they record the
    same results and orders and reach the same units and centres."""
    assert quick.get_orders() == general.get_orders()
    assert quick.error == general.error
    quick.process()
    general.process()
    assert quick.result_history.last_value() == general.result_history.last_value()
    assert quick.order_history.last_value() == general.order_history.last_value()
    assert quick.get_units() == general.get_units()
    assert quick.get_centers() == general.get_centers()


@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_quick_and_general_paths_play_alike(seed: int) -> None:
    rng = random.Random(seed)
    quick, general = Game(), Game()
    stale: list[str] = []
    for _ in range(20):
        if quick.is_game_done:
            break
        assert quick.get_current_phase() == general.get_current_phase()
        general.get_all_possible_orders()
        for power, strings in _random_strings(quick, rng, stale).items():
            quick.set_orders(power, strings)          # a list: the quick path when it can
            general.set_orders(power, tuple(strings))  # a tuple: always the general path
        _play_both_alike(quick, general)


def test_orders_changed_after_a_quick_set_are_the_ones_played() -> None:
    game = Game()
    game.set_orders("FRANCE", ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"])
    assert game.get_orders("FRANCE") == ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]
    orders = game.get_power("FRANCE").orders
    assert orders == {"A PAR": "- BUR", "A MAR": "- SPA", "F BRE": "- MAO"}
    del orders["A MAR"]           # the package's way: the power's own dictionary
    orders["F BRE"] = "- ENG"
    game.process()
    assert sorted(game.get_units("FRANCE")) == ["A BUR", "A MAR", "F ENG"]


def test_a_string_listed_in_an_earlier_phase_and_illegal_now_is_dropped() -> None:
    game = Game()
    game.get_all_possible_orders()
    game.set_orders("FRANCE", ["A PAR - BUR", "A MAR H", "F BRE H"])
    game.process()
    game.get_all_possible_orders()
    # A PAR is in Burgundy now: "A PAR - PIC" names no unit there
    game.set_orders("FRANCE", ["A PAR - PIC", "A MAR - SPA"])
    assert game.get_orders("FRANCE") == ["A MAR - SPA"]
    assert any(error.startswith("FRANCE: A PAR - PIC") for error in game.error)


def test_quick_adjustments_keep_builds_before_a_waive() -> None:
    game = Game()
    game.set_centers("FRANCE", ["PAR", "MAR", "BRE", "SPA", "POR"], reset=True)
    game.set_units("FRANCE", ["A BUR", "A GAS", "F MAO"], reset=True)
    game.set_current_phase("W1901A")
    possible = game.get_all_possible_orders()
    assert "WAIVE" in possible["PAR"] and "A PAR B" in possible["PAR"]
    game.set_orders("FRANCE", ["WAIVE", "A PAR B"])
    game.process()
    assert sorted(game.get_units("FRANCE")) == ["A BUR", "A GAS", "A PAR", "F MAO"]


def test_an_unlisted_support_read_as_given_is_adjudicated_as_checked() -> None:
    facade = Game()
    facade.set_units("FRANCE", ["F MAO", "A MAR"], reset=True)
    facade.set_units("ITALY", ["A SPA"], reset=True)
    facade.clear_cache()  # (the powers' lists read back into the engine's position)
    game = facade.realpolitik_game
    position = game.position
    move = Move(UnitType.FLEET, "mao", "spa/nc", power="france")
    # listed only with a coast: without one, it supports a move to either coast
    support = SupportMove(UnitType.ARMY, "mar", "mao", "spa", UnitType.FLEET, power="france")
    assert support not in game.legal_orders("france")["mar"]
    entries = game.submit("france", [move, support])
    assert [entry.error for entry in entries] == [None, None]
    assert entries[1].text == str(support)
    resolution = game.process()
    # vouched for as given: the same resolution as with every order checked
    assert resolution == adjudicate(position, [move, support], rules=game.rules)
    assert "spa/nc" in {unit.location for unit in game.position.units.values()}


def test_a_support_without_the_one_coast_the_fleet_reaches_is_the_listed_support() -> None:
    game = Game()
    game.set_units("FRANCE", ["F GAS", "A MAR"], reset=True)
    assert "A MAR S F GAS - SPA" in game.get_all_possible_orders()["MAR"]
    game.set_orders("FRANCE", ["A MAR S F GAS - SPA", "F GAS - SPA/NC"])
    assert game.get_orders("FRANCE") == ["A MAR S F GAS - SPA", "F GAS - SPA/NC"]
    # F GAS reaches only the north coast: the rules read the support as the one with that
    # coast, which the listing lists, so the engine is handed that one (nothing to check)
    support = SupportMove(UnitType.ARMY, "mar", "gas", "spa/nc", UnitType.FLEET, power="france")
    engine = game.realpolitik_game
    assert support in engine.legal_orders("france")["mar"]
    assert [entry.order for entry in engine.orders_of("france")][0] == support
    game.process()
    assert game.order_history.last_value()["FRANCE"] == ["A MAR S F GAS - SPA",
                                                        "F GAS - SPA/NC"]
    assert game.command["A MAR"] == "S F GAS - SPA/NC"  # (as the package records it)
    assert game.result_history.last_value()["A MAR"] == []
    assert "F SPA/NC" in game.get_units("FRANCE")


def test_a_support_without_a_coast_is_refused_when_the_rules_require_the_coast() -> None:
    required = rules_for("2000", {"4.A.2": "szykman", "4.A.5": "allowed", "4.B.4": "required"})
    game = Game(edition=required)
    game.set_units("FRANCE", ["F GAS", "A MAR"], reset=True)
    game.get_all_possible_orders()
    game.set_orders("FRANCE", ["A MAR S F GAS - SPA", "F GAS - SPA/NC"])
    assert game.get_orders("FRANCE") == ["F GAS - SPA/NC"]
    assert any(error.startswith("FRANCE: A MAR S F GAS - SPA:") for error in game.error)
    game.set_orders("FRANCE", ["A MAR S F GAS - SPA/NC", "F GAS - SPA/NC"])
    assert sorted(game.get_orders("FRANCE")) == ["A MAR S F GAS - SPA/NC", "F GAS - SPA/NC"]


def test_a_support_is_named_when_its_string_is_first_given() -> None:
    game = Game()
    # (first given in this test, whatever games ran before it in this process: the variant's
    # strings forgotten, so the string is named now, from the listing of now)
    listing_texts(game.realpolitik_game.variant).clear()
    game.get_all_possible_orders()
    # (the listing made the string of every support, and named none of them yet)
    game.set_orders("FRANCE", ["A PAR S A MAR - BUR", "A MAR - BUR"])
    engine = game.realpolitik_game
    listed = engine.legal_orders("france")["par"]
    given = [entry.order for entry in engine.orders_of("france")]
    assert any(order is given[0] for order in listed)  # the listing's own value
    assert game.get_orders("FRANCE") == ["A PAR S A MAR - BUR", "A MAR - BUR"]
    game.process()
    assert "A BUR" in game.get_units("FRANCE")
    # listed in Spring, given in Fall with no army left in Marseilles: refused
    game.get_all_possible_orders()
    game.set_orders("FRANCE", ["A PAR S A MAR - BUR", "A BUR H"])
    assert game.get_orders("FRANCE") == ["A BUR H"]
    assert any(error.startswith("FRANCE: A PAR S A MAR - BUR") for error in game.error)


def _support_found_by_its_parts(texts: ListingTexts, power: str, text: str) -> Any:
    """What ListingTexts.support_found finds, worked out from the string's parts (its unit's
    name, and its suffix looked for among the support keys' suffixes)."""
    unit_name, says, _ = text.partition(" S ")
    if not says:
        return None
    suffix = text[len(unit_name):]
    keys = [key for key, made in texts.support_suffix.items() if made == suffix]
    unit = texts.supporters.get(power, {}).get(unit_name)
    if not keys or unit is None or unit.supports.get(keys[0]) != text:
        return None
    support = unit.support_of(keys[0])
    return None if support is None else (unit_name, keys[0], support)


def test_a_support_s_string_names_the_support_its_parts_name() -> None:
    """ListingTexts.support_found reads a string's support key and unit from tables filled
    when the string was made (support_key, support_unit): the same as its parts name, for
    every string listed over two games, for its own power and for another."""
    rng = random.Random(3)
    checked = 0
    for _ in range(2):
        game = Game()
        texts = listing_texts(game.realpolitik_game.variant)
        while not game.is_game_done and int(game.get_current_phase()[1:5]) <= 1906:
            possible = game.get_all_possible_orders()
            orderable = game.get_orderable_locations()
            if game.get_current_phase().endswith("M"):
                for name, locations in orderable.items():
                    power, other = name.lower(), "turkey" if name != "TURKEY" else "france"
                    for text in {text for loc in locations for text in possible[loc]}:
                        for whose in (power, other):
                            assert texts.support_found(whose, text) == \
                                _support_found_by_its_parts(texts, whose, text), (whose, text)
                            checked += 1
            chosen = {power: [rng.choice(sorted(possible[loc])) for loc in locs
                              if possible[loc]] for power, locs in orderable.items()}
            for power, strings in chosen.items():
                game.set_orders(power, strings)
            game.process()
    assert checked > 5_000


def test_a_support_never_listed_for_its_unit_is_read_and_refused() -> None:
    game = Game()
    possible = game.get_all_possible_orders()
    assert "A PAR S F BRE" in possible["PAR"]  # (its support suffix is known now)
    assert "A MAR S F BRE" not in possible["MAR"]  # (Marseilles does not reach Brest)
    game.set_orders("FRANCE", ["A MAR S F BRE", "A PAR H"])
    assert game.get_orders("FRANCE") == ["A PAR H"]
    assert any(error.startswith("FRANCE: A MAR S F BRE:") for error in game.error)


@settings(max_examples=6, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_an_empty_list_first_changes_nothing(seed: int) -> None:
    """``set_orders(power, [])`` for a power given nothing yet is as if not called (the quick
    path passes over it): orders given after it, in every kind of phase, play as the general
    path plays them."""
    rng = random.Random(seed)
    quick, general = Game(), Game()
    stale: list[str] = []
    for _ in range(16):
        if quick.is_game_done:
            break
        general.get_all_possible_orders()
        for power, strings in _random_strings(quick, rng, stale).items():
            quick.set_orders(power, [])
            if rng.random() < 0.8:
                quick.set_orders(power, strings)
                general.set_orders(power, tuple(strings))
            else:
                general.set_orders(power, ())
        _play_both_alike(quick, general)


def test_a_support_first_given_carries_its_key_to_the_engine() -> None:
    game = Game()
    variant = game.realpolitik_game.variant
    listing_texts(variant).clear()
    game.get_all_possible_orders()
    table = listing_texts(variant).given("france")
    found = table["A PAR S A MAR - BUR"]
    assert found is not None
    key = table.key_of["A PAR S A MAR - BUR"]
    parts = movement_parts(game.realpolitik_game.position)
    assert parts is not None
    assert parts["france"]["par"][PART_SUPPORT_OF](key) is found  # the key of that very support
    assert table.entry("A PAR S A MAR - BUR") == ("A PAR", "S A MAR - BUR", found)
    assert "A MAR - BUR" not in table.key_of  # (a move has no key)
    # the key table follows the table of strings: emptied when its older half is dropped
    table.bound = len(table)
    assert table["A MAR S A PAR - BUR"] is not None
    assert list(table.key_of) == ["A MAR S A PAR - BUR"]
    entry = table.entry("A MAR S A PAR - BUR")
    assert entry is not None and entry[:2] == ("A MAR", "S A PAR - BUR")


def test_a_support_of_a_move_to_a_coast_carries_its_key_to_the_engine() -> None:
    """A support of a move to a coast is named when its string is made (not when first
    given): its key is found all the same, and, under rules that settle the coast, the string
    without the coast carries the key of the listed support it is read as; the engine takes
    both as listed, by their keys."""
    game = Game()
    game.set_units("FRANCE", ["F GAS", "A MAR"], reset=True)
    game.get_all_possible_orders()
    table = listing_texts(game.realpolitik_game.variant).given("france")
    parts = movement_parts(game.realpolitik_game.position)
    assert parts is not None
    support_of = parts["france"]["mar"][PART_SUPPORT_OF]
    for text in ("A MAR S F GAS - SPA/NC", "A MAR S F GAS - SPA"):
        found = table[text]
        assert found is not None
        assert support_of(table.key_of[text]) is found  # (the listed support's own key)
    unsettled = listing_texts(game.realpolitik_game.variant).given("france", False)
    assert unsettled["A MAR S F GAS - SPA"] is not None
    assert "A MAR S F GAS - SPA" not in unsettled.key_of  # (not a listed support: no key)
    game.set_orders("FRANCE", ["A MAR S F GAS - SPA", "F GAS - SPA/NC"])
    engine = game.realpolitik_game
    assert engine.orders_stand("france")
    assert [entry.order for entry in engine.orders_of("france")][0] is table[
        "A MAR S F GAS - SPA/NC"]


def test_orders_found_are_read_back_from_their_strings_even_once_the_tables_are_dropped(
) -> None:
    """A quick ``set_orders`` keeps the strings given; the power's orders (unit -> the rest of
    the order), the order history and the orders played are read back from them, through the
    table of strings given, or read again if that table has since been dropped: the game
    plays as one given the same strings by the general path."""
    for drop in (False, True):
        quick, general = Game(), Game()
        strings = {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
                   "GERMANY": ["A MUN - RUH", "F KIE - DEN", "A BER - KIE"]}
        quick.get_all_possible_orders()
        general.get_all_possible_orders()
        for power, orders in strings.items():
            quick.set_orders(power, list(orders))
            general.set_orders(power, tuple(orders))
        if drop:  # (the variant's tables and the game's hold on them, all forgotten)
            listing_texts(quick.realpolitik_game.variant).clear()
            quick._given.clear()
        assert quick.get_power("FRANCE").orders == {
            "A PAR": "- BUR", "A MAR": "S A PAR - BUR", "F BRE": "- MAO"}
        for game in (quick, general):  # (changed: handed over again, each order read back)
            game.get_power("GERMANY").orders["F KIE"] = "- HOL"
        _play_both_alike(quick, general)
        assert quick.order_history.last_value()["FRANCE"] == strings["FRANCE"]
        assert "A BUR" in quick.get_units("FRANCE")
        assert sorted(quick.get_units("GERMANY")) == ["A KIE", "A RUH", "F HOL"]


def test_a_winter_s_listed_strings_tell_listed_orders_as_the_listing_does() -> None:
    """In an adjustment phase listed by get_all_possible_orders, a string the facade listed
    for a power now names an order the listing holds now, and a string it listed for that
    power in another winter (or a waive) is among them exactly when the listing holds the
    order it names: the table _set_adjustments reads instead of the listing
    (_PhaseTables.winter_listed)."""
    rng = random.Random(7)
    met: dict[str, set[str]] = {}  # power -> every string listed for it in some winter
    winters = 0
    for _ in range(3):
        game = Game()
        while not game.is_game_done and int(game.get_current_phase()[1:5]) <= 1912:
            possible = game.get_all_possible_orders()
            orderable = game.get_orderable_locations()
            if game.get_current_phase().endswith("A"):
                winters += 1
                engine = game.realpolitik_game
                listed = game._phase.winter_listed
                assert listed is not None
                for power in engine.powers_to_order():
                    strings = listed[power]
                    assert strings  # (a power to order lists something)
                    holds = listed_orders(engine.position, power, rules=engine.rules).holds
                    named = listing_texts(engine.variant).named_by(power)
                    for text in met.setdefault(power, set()) | strings | {"WAIVE"}:
                        order = named.get(text)
                        if order is not None:
                            assert (text in strings) == holds(order), (power, text)
                        else:
                            assert text not in strings
                    met[power] |= strings
            chosen = {power: [rng.choice(sorted(possible[loc])) for loc in locs
                              if possible[loc]] for power, locs in orderable.items()}
            for power, strings in chosen.items():
                game.set_orders(power, strings)
            game.process()
    assert winters > 20
