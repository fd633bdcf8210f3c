"""A standard game with two players and five free seats, in two browsers (issue 19): the free
seats are shown as free and in civil disorder (not "ordering"), a warning comes before "ready"
with units unordered, ready flags alone take the game to Fall 1902, "any power" is drawn by
lot, a coast reads "SPA (north coast)", and the buttons to concede and to leave are there."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_web_lossless import account, open_context
from test_web_play import click_province, new_page, sign_up

pytestmark = pytest.mark.browser


def _mark_ready(page: Any, phase_before: str) -> None:
    page.click("#tab-orders")
    page.wait_for_selector("#ready")
    if page.get_attribute("#ready", "aria-pressed") != "true":
        page.click("#ready")
    page.wait_for_function(
        "(before) => document.querySelector('#ready[aria-pressed=true]')"
        " || !document.querySelector('#phase').innerText.includes(before)", arg=phase_before)


def test_two_players_with_five_free_seats_reach_fall_1902_by_ready_flags(
        browser: Any, server: Any) -> None:
    alice = new_page(browser, server)
    sign_up(alice, "anna")
    dialogs: list[str] = []
    alice.on("dialog", lambda d: dialogs.append(d.message))
    alice.fill("#create-form input[name=name]", "Two of seven")
    alice.select_option("#create-form select[name=players]", "7")
    alice.select_option("#create-form select[name=join_as]", "france")
    alice.click("#create-form button[type=submit]")
    alice.wait_for_selector("#map svg #spaces")

    # Bob joins with "any power": a seat drawn by lot.
    bob = new_page(browser, server)
    sign_up(bob, "ben")
    bob.click("#open a:has-text('Two of seven')")
    bob.click("button#join-any")
    bob.wait_for_selector("#orders-h")
    bob_power = bob.inner_text("#orders-h").replace("Orders for", "").strip().lower()
    assert bob_power and bob_power != "france"

    # The gamesmaster starts the game with five seats free.
    alice.click("#tab-game")
    alice.click(".gm button:has-text('Start now')")
    alice.wait_for_selector("#countdown:has-text('left')")
    alice.click("#tab-game")
    # the head (and its countdown) is drawn as soon as the started game is loaded, the seats only
    # after the orders: they are read once the gamesmaster's panel, drawn with them, offers "Pause"
    alice.wait_for_selector(".gm button:has-text('Pause')")
    alice.wait_for_selector("table.seats")
    seats = alice.inner_text("table.seats")
    assert "ordering" not in seats.split("France")[0]  # the free seats before France's row
    free_rows = alice.locator("table.seats tr.free")
    assert free_rows.count() == 5
    for row in range(5):
        assert "civil disorder" in free_rows.nth(row).inner_text()

    # Alice orders only her fleet (by text); marking ready, the page warns first that her
    # armies have no orders and will hold.
    alice.click("#tab-orders")
    alice.fill("#order-text", "F Bre-Mao")
    alice.click("#send-orders")
    alice.wait_for_selector("#order-lines >> text=F BRE - MAO")
    assert "will hold" in alice.inner_text("#order-warnings")
    for expected in ("Spring 1901 movement", "Fall 1901 movement", "Spring 1902 movement"):
        for page in (alice, bob):
            page.wait_for_selector(f"#phase:has-text('{expected}')")
        if expected.startswith("Fall"):
            # the fleet to Spain: the menu names the coasts in words, once
            alice.click("#tab-orders")
            # the head names Fall as soon as the game is loaded, the legal orders that a click on
            # the map acts on come after: the fleet's list (drawn from them) is there first
            alice.wait_for_selector("#sel-france-mao")
            click_province(alice, "mao")
            click_province(alice, "spa")
            alice.wait_for_selector(".menu:not([hidden]) >> text=SPA (north coast)")
            menu = alice.inner_text(".menu")
            assert "SPA (south coast)" in menu and "SPA/NC" not in menu and "nc coast" not in menu
            alice.keyboard.press("Escape")
        _mark_ready(bob, expected)
        _mark_ready(alice, expected)
    for page in (alice, bob):
        page.wait_for_selector("#phase:has-text('Fall 1902 movement')")
    assert any("A PAR, A MAR have no order" in d and "will hold" in d for d in dialogs) \
        or any("A MAR, A PAR have no order" in d for d in dialogs), dialogs

    # Conceding and leaving are a click away; the draw count counts the two players.
    alice.click("#tab-game")
    assert alice.locator("button#concede").count() == 1
    assert alice.locator("button#leave").count() == 1
    assert "0 of 2 in favour" in alice.inner_text("#panel-game")
    assert alice.locator(".gm button:has-text('Give seat')").count() == 1
    assert not alice.errors and not bob.errors  # type: ignore[attr-defined]


def test_the_game_tab_names_the_variant_not_its_id(browser: Any, server: Any) -> None:
    """The Settings list said 'Variant: classical' (the id; 'tri' for a variant of a folder)."""
    who = account(server, "vera")
    game = server.api("POST", "/games", {"name": "Named variant"}, who["token"])
    page = open_context(browser, who).new_page()
    page.goto(f"{server.url}/#/game/{game['id']}")
    page.click("#tab-game")
    page.wait_for_selector("dl.facts")
    facts = page.inner_text("dl.facts")
    assert re.search(r"Variant\s+Classical\b", facts), facts
