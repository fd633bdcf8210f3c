"""Issue 32, items 5, 6 and 10: a move that can go by land or via convoy goes by land without a
question (the convoy one click away); a choice left open says that no order was given; notices
sit above the side panel, never over the map, and "See the results" opens the phase the notice
named; the Results tab follows the game; the lobby lists games with a free seat apart from
those one can only watch, and "Create a game" plays by default."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_lossless import account, open_context, open_game, two_player_game
from test_web_play import click_province

pytestmark = pytest.mark.browser


def ready_both(server: Any, game: int, phase: str, *people: dict[str, str]) -> None:
    for who in people:
        server.api("POST", f"/games/{game}/ready", {"ready": True, "phase": phase}, who["token"])


def test_a_move_by_land_is_not_asked_about_and_notices_name_their_phase(browser: Any,
                                                                        server: Any) -> None:
    alice, bob = account(server, "abel"), account(server, "bea")
    game = two_player_game(server, alice, bob, "Convoys")
    page = open_game(open_context(browser, alice), server, game)
    server.api("PUT", f"/games/{game}/orders",
               {"power": "england", "text": "F Lon-Nth\nA Lvp-Yor\nF Edi-Nwg"}, alice["token"])
    server.api("PUT", f"/games/{game}/orders", {"power": "france", "text": "F Bre-Mao"},
               alice["token"])
    server.api("PUT", f"/games/{game}/orders", {"power": "austria", "text": "A Vie-Gal"},
               bob["token"])
    ready_both(server, game, "S1914M", alice, bob)
    page.wait_for_selector("#phase:has-text('Fall 1914 movement')")

    # The notice is above the side panel, not over the map.
    notice = page.locator("#notices .toast", has_text="Spring 1914 movement was adjudicated")
    notice.wait_for()
    map_box, box = page.locator("#map").bounding_box(), notice.bounding_box()
    assert box["x"] >= map_box["x"] + map_box["width"]

    # A YOR can reach London by land or via the fleet in the North Sea: one click, by land.
    click_province(page, "yor")
    page.wait_for_selector(".menu:not([hidden])")
    click_province(page, "lon")
    page.wait_for_selector("#order-lines >> text=A YOR - LON")
    assert page.locator(".menu:not([hidden])").count() == 0
    assert "VIA" not in page.inner_text("#order-lines")
    page.click("#via-convoy")  # "Go via convoy instead"
    page.wait_for_selector("#order-lines >> text=A YOR - LON VIA")

    # A question left open (which coast of Spain?) says that no order was given.
    click_province(page, "mao")
    click_province(page, "spa")
    page.wait_for_selector(".menu:not([hidden]) >> text=SPA (north coast)")
    click_province(page, "mun")
    page.wait_for_selector("#map-hint:has-text('No order given for F MAO to SPA')")
    held = server.api("GET", f"/games/{game}/orders", None, alice["token"])
    assert held["france"]["text"] is None

    # The player looks at Spring 1914 in the Results tab, goes back to the orders; Fall 1914
    # is played: the Results tab then opens on Fall 1914, not on the phase viewed last ...
    page.click("#tab-history")
    page.wait_for_selector("#hist-phase:has-text('Spring 1914 movement')")
    # one's own powers' results come first
    heads = page.locator("#hist-results .power-res h4").all_inner_texts()
    assert heads == ["England", "France", "Austria"], heads
    page.click("#tab-orders")
    ready_both(server, game, "F1914M", alice, bob)
    page.wait_for_function("() => !document.querySelector('#phase').innerText.includes('Fall')")
    page.click("#tab-history")
    page.wait_for_selector("#hist-phase:has-text('Fall 1914 movement')")
    # ... and the older notice's button still opens the phase that notice named.
    spring = page.locator("#notices .toast", has_text="Spring 1914 movement was adjudicated")
    spring.locator("button:has-text('See the results')").click()
    page.wait_for_selector("#hist-phase:has-text('Spring 1914 movement')")
    assert not page.errors


def test_the_lobby_separates_full_games_and_create_plays_by_default(browser: Any,
                                                                    server: Any) -> None:
    alice, bob = account(server, "cleo"), account(server, "dirk")
    two_player_game(server, alice, bob, "All seats taken")
    server.api("POST", "/games", {"name": "Room for you", "players": "2",
                                  "join_as": "england"}, alice["token"])
    context = open_context(browser, account(server, "emil"))
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#open table")
    joinable = page.inner_text("#open > table")
    assert "Room for you" in joinable and "All seats taken" not in joinable
    assert "Games to watch (no free seat)" in page.inner_text("#watch-only summary")
    page.click("#watch-only summary")
    assert "All seats taken" in page.inner_text("#watch-only")
    # "Create a game": the player plays unless they choose to only run the game
    join_as = page.locator("#create-form select[name=join_as]")
    assert join_as.input_value() == "any"
    page.select_option("#create-form select[name=join_as]", "")
    assert "You will not play" in page.inner_text("#join-help")
