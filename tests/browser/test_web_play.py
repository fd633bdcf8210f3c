"""Two players in two browser contexts: sign up, create and join a game, give orders by clicking
and by text, exchange press, mark ready, see the results drawn, step through the history.

Screenshots go to a temporary folder, or to ``$REALPOLITIK_WEB_SCREENSHOTS`` when set (the
pictures in ``docs/images/web-*.png`` are made with ``REALPOLITIK_WEB_SCREENSHOTS=docs/images``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

WIDE = {"width": 1400, "height": 950}
PHONE = {"width": 390, "height": 844}

# Find a point of the map where the space itself is hit (the units, labels and highlights let
# clicks through), starting from the space's label, and report it in page coordinates.
_POINT_JS = """(prov) => {
  const svg = document.querySelector('#map svg');
  const path = svg.querySelector(`#spaces path[id="${prov}"]`);
  if (!path) return null;
  path.scrollIntoView({block: 'nearest'});
  const hits = (x, y) => document.elementFromPoint(x, y) === path;
  const label = [...svg.querySelectorAll('#labels text')]
    .find(t => t.textContent.trim() === prov.toUpperCase());
  if (label) {
    const r = label.getBoundingClientRect();
    const x = r.x + r.width / 2, y = r.y + r.height / 2;
    if (hits(x, y)) return {x, y};
  }
  const b = path.getBoundingClientRect();
  for (let i = 1; i < 12; i++) for (let j = 1; j < 12; j++) {
    const x = b.x + b.width * i / 12, y = b.y + b.height * j / 12;
    if (hits(x, y)) return {x, y};
  }
  return null;
}"""


def click_province(page: Any, prov: str) -> None:
    point = page.evaluate(_POINT_JS, prov)
    assert point, f"no clickable point of {prov} on the map"
    page.mouse.click(point["x"], point["y"])


def shots_dir(tmp_path: Path) -> Path:
    wanted = os.environ.get("REALPOLITIK_WEB_SCREENSHOTS")
    folder = Path(wanted) if wanted else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def new_page(browser: Any, server: Any, viewport: dict[str, int] = WIDE) -> Any:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    page.set_default_timeout(15000)
    page.goto(server.url + "/")
    return page


def sign_up(page: Any, name: str) -> None:
    page.fill("#signup-form input[name=username]", name)
    page.fill("#signup-form input[name=password]", "correct horse")
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("text=Signed in as " + name)


def play_against_hold_bots(page: Any, variant: str, power: str) -> None:
    """Start, from the lobby's "play against the computer" card, a game of ``variant`` as
    ``power`` with hold bots in the other seats, and wait for its map."""
    page.wait_for_selector("#vs-computer")
    page.select_option("#vs-variant", variant)
    page.select_option("#vs-power", power)
    page.select_option("#vs-bot", "hold")
    page.click("#vs-start")
    page.wait_for_selector("#map svg #spaces")


def read_lines(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("#order-lines li.ok .order").all_inner_texts()]


def test_two_players_play_a_phase(browser: Any, server: Any, tmp_path: Path) -> None:
    shots = shots_dir(tmp_path)
    alice = new_page(browser, server)
    alice.wait_for_selector("#signup-form")
    alice.screenshot(path=str(shots / "web-lobby.png"))
    sign_up(alice, "alice")

    # Alice creates a two-player game (the 1914 setup) and plays England, France and Russia.
    alice.fill("#create-form input[name=name]", "Friday game")
    alice.select_option("#create-form select[name=players]", "2")
    alice.select_option("#create-form select[name=join_as]", "england")
    alice.click("#create-form button[type=submit]")
    alice.wait_for_selector("#map svg #spaces")
    assert "waiting for players" in alice.inner_text(".game-head")
    game_url = alice.url
    assert re.search(r"#/game/\d+$", game_url)

    # Bob signs up in his own browser context, finds the game in the lobby and joins.
    bob = new_page(browser, server)
    sign_up(bob, "bob")
    bob.click("#open a:has-text('Friday game')")
    bob.click("button.join:has-text('Germany')")
    bob.wait_for_selector("#orders-h")
    assert "Orders for" in bob.inner_text("#orders-h")
    # Alice's page hears of it over the WebSocket: the game has started, no reload.
    alice.wait_for_function(
        "() => !document.querySelector('.game-head').innerText.includes('waiting for players')")
    alice.wait_for_selector("#countdown:has-text('left')")

    # Orders by clicking: France's army in Paris to Burgundy (two clicks).
    click_province(alice, "par")
    alice.wait_for_selector(".menu:not([hidden]) >> text=Support…")
    assert "Orders for France" in alice.inner_text("#orders-h")  # switched to the unit's power
    assert alice.locator("#rp-hl .hl-dest").count() >= 3  # the legal destinations are lit
    alice.screenshot(path=str(shots / "web-click-unit.png"))
    click_province(alice, "bur")
    alice.wait_for_selector("#order-lines >> text=A PAR - BUR")

    # Support through the menu: A MAR supports A PAR - BUR.
    click_province(alice, "mar")
    alice.click(".menu button:has-text('Support…')")
    click_province(alice, "par")
    alice.wait_for_selector(".menu:not([hidden]) >> text=to BUR")
    alice.screenshot(path=str(shots / "web-support-menu.png"))
    alice.click(".menu button:has-text('to BUR')")
    alice.wait_for_selector("#order-lines >> text=A MAR S A PAR - BUR")
    assert read_lines(alice) == ["A PAR - BUR", "A MAR S A PAR - BUR"]
    # The orders are drawn on the server's picture (re-rendered with mine=true).
    alice.wait_for_function("() => document.querySelectorAll('#map svg #orders > *').length >= 2")

    # Coasts when needed: Russia's fleet in St Petersburg (south coast) to the Gulf of Bothnia;
    # and a keyboard way: the list of the unit's legal orders.
    alice.click(".powers button:has-text('Russia')")
    alice.select_option("#sel-russia-war", "A WAR - GAL")
    alice.wait_for_selector("#order-lines >> text=A WAR - GAL")

    # Orders by text: Bob's line 2 is misspelt; the parser's message is shown next to it.
    bob.click(".powers button:has-text('Germany')")
    bob.fill("#order-text", "A Mun-Ruh\nA Ber-Silessia\nF Kie-Den")
    bob.click("#send-orders")
    bob.wait_for_selector("#order-lines li.bad")
    bad = bob.inner_text("#order-lines li.bad")
    assert "line 2" in bad and "'Silessia' is not a place" in bad
    assert bob.locator(".gutter .bad").count() == 1
    bob.screenshot(path=str(shots / "web-order-errors.png"))
    bob.click("#order-lines li.bad .chip >> nth=0")  # take the suggested name
    bob.wait_for_function("() => !document.querySelector('#order-lines li.bad')")
    assert read_lines(bob) == ["A MUN - RUH", "A BER - SIL", "F KIE - DEN"]

    # Press: Bob (Germany) writes to France; Alice sees the unread marker live, and answers.
    bob.click("#tab-press")
    bob.check(".new-conv input[value=france]")
    bob.select_option("#new-conv-as", "germany")
    bob.click(".new-conv button[type=submit]")
    bob.fill("#press-text", "Burgundy is yours if you stay out of Ruhr.")
    bob.click("#press-send")
    bob.wait_for_selector(".thread >> text=Burgundy is yours")
    alice.wait_for_selector("#unread:not([hidden])")
    assert alice.inner_text("#unread") == "1"
    alice.click("#tab-press")
    alice.click(".conv:has-text('Germany')")
    alice.wait_for_selector(".thread >> text=Burgundy is yours")
    alice.wait_for_selector("#unread", state="hidden")
    # An unsent message survives a reload.
    alice.fill("#press-text", "Agreed. And Belgium?")
    alice.reload()
    alice.wait_for_selector("#panel-press")
    alice.click(".conv:has-text('Germany')")
    assert alice.input_value("#press-text") == "Agreed. And Belgium?"
    alice.click("#press-send")
    bob.wait_for_selector(".thread >> text=And Belgium?")
    alice.screenshot(path=str(shots / "web-press.png"))
    # A public announcement.
    bob.click(".conv:has-text('Public')")
    bob.fill("#press-text", "Germany wants peace in the west.")
    bob.click("#press-send")
    alice.wait_for_selector("#unread:not([hidden])")

    # Unsent order text survives a reload too.
    alice.click("#tab-orders")
    alice.click(".powers button:has-text('England')")
    alice.fill("#order-text", "F Lon-Nth")
    alice.reload()
    alice.wait_for_selector("#order-text")
    alice.click(".powers button:has-text('England')")
    assert alice.input_value("#order-text") == "F Lon-Nth"
    assert "Not sent yet" in alice.inner_text("#order-status")
    alice.click("#send-orders")
    alice.wait_for_selector("#order-lines >> text=F LON - NTH")
    alice.screenshot(path=str(shots / "web-orders.png"))

    # Both mark ready: the phase is adjudicated at once, and both pages move on live.
    bob.click("#tab-orders")
    bob.click("#ready")
    bob.wait_for_selector("#ready[aria-pressed=true]")
    alice.click("#ready")
    for page in (alice, bob):
        page.wait_for_selector("#phase:has-text('Fall 1914 movement')")
        page.wait_for_selector(".toast >> text=See the results")

    # The results: every power's orders drawn with their results and reasons.
    alice.click(".toast button:has-text('See the results')")
    alice.wait_for_selector("#hist-phase:has-text('Spring 1914 movement')")
    results = alice.inner_text("#hist-results")
    assert "A PAR - BUR" in results and "succeeds" in results
    assert "A MUN - RUH" in results
    alice.wait_for_function("() => document.querySelectorAll('#map svg #orders > *').length >= 6")
    assert alice.locator("#sc-chart path.line").count() >= 6
    alice.screenshot(path=str(shots / "web-results.png"))

    # The next phase: the map shows the units where they went; the old orders are gone.
    alice.click("#tab-orders")
    alice.wait_for_selector("#order-lines", state="detached")
    assert not alice.errors and not bob.errors, (alice.errors, bob.errors)

    # On a phone-sized screen: one column, the map first, nothing wider than the screen.
    phone = new_page(browser, server, PHONE)
    token = alice.evaluate("localStorage.getItem('rp:token')")
    phone.evaluate("([t, u]) => { localStorage.setItem('rp:token', t); "
                   "localStorage.setItem('rp:user', u); }", [token, "alice"])
    phone.goto(game_url)
    phone.wait_for_selector("#map svg #spaces")
    phone.wait_for_selector("#orders-h")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=str(shots / "web-phone.png"), full_page=False)
    phone.click("#tab-history")
    phone.wait_for_selector("#hist-results")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=str(shots / "web-phone-history.png"), full_page=True)
    assert not phone.errors, phone.errors


def test_builds_and_removals_by_clicking(browser: Any, server: Any, tmp_path: Path) -> None:
    """Winter: a build offered on a free home centre, a removal on a unit, through the menu."""
    shots = shots_dir(tmp_path)
    carol = server.api("POST", "/auth/signup", {"username": "carol", "password": "correct horse"})
    dave = server.api("POST", "/auth/signup", {"username": "dave", "password": "correct horse"})
    game = server.api("POST", "/games", {"name": "Winter test", "players": "2",
                                         "join_as": "england"}, carol["token"])["id"]
    server.api("POST", f"/games/{game}/join", {"power": "austria"}, dave["token"])

    def orders(who: Any, power: str, text: str) -> None:
        answer = server.api("PUT", f"/games/{game}/orders", {"power": power, "text": text},
                            who["token"])
        assert answer["errors"] == 0, answer

    def all_ready() -> None:
        for who in (carol, dave):
            server.api("POST", f"/games/{game}/ready", {}, who["token"])

    # England takes Norway, France Belgium; Austria takes Warsaw from Russia.
    orders(carol, "england", "F Lon-Nth")
    orders(carol, "france", "A Par-Bur")
    orders(carol, "russia", "A War-Ukr")
    orders(dave, "austria", "A Bud-Gal")
    all_ready()
    orders(carol, "england", "F Nth-Nwy")
    orders(carol, "france", "A Bur-Bel")
    orders(dave, "austria", "A Gal-War")
    all_ready()
    assert server.api("GET", f"/games/{game}")["phase"] == "W1914A"

    page = new_page(browser, server)
    page.evaluate("([t, u]) => { localStorage.setItem('rp:token', t); "
                  "localStorage.setItem('rp:user', u); }", [carol["token"], "carol"])
    page.goto(f"{server.url}/#/game/{game}")
    page.wait_for_selector("#phase:has-text('Winter 1914 adjustments')")
    page.wait_for_selector("#map svg #spaces")

    # A build: click London (free home centre), choose the fleet.
    click_province(page, "lon")
    page.wait_for_selector(".menu:not([hidden]) >> text=Build a fleet")
    assert "Orders for England" in page.inner_text("#orders-h")
    page.screenshot(path=str(shots / "web-build-menu.png"))
    page.click(".menu button:has-text('Build a fleet')")
    page.wait_for_selector("#order-lines >> text=F LON B")
    assert page.locator("button:has-text('Waive a build')").count() == 1

    # A removal: Russia is over strength; click its army in Ukraine and remove it.
    click_province(page, "ukr")
    page.wait_for_selector(".menu:not([hidden]) >> text=Remove")
    assert "Orders for Russia" in page.inner_text("#orders-h")
    page.click(".menu button:has-text('Remove')")
    page.wait_for_selector("#order-lines >> text=A UKR D")
    # The build and the removal are drawn on the map (the server's picture of one's own orders).
    page.wait_for_function("() => document.querySelectorAll('#map svg #marks > *').length >= 3")
    page.screenshot(path=str(shots / "web-adjustments.png"))

    # Carol is ready, then Dave (Austria waives its build): the year turns, live.
    page.click("#ready")
    page.wait_for_selector("#ready[aria-pressed=true]")
    orders(dave, "austria", "WAIVE")
    server.api("POST", f"/games/{game}/ready", {}, dave["token"])
    page.wait_for_selector("#phase:has-text('Spring 1915 movement')")
    final = server.api("GET", f"/games/{game}")["position"]["units"]
    assert "F LON" in final["ENGLAND"] and "A UKR" not in final["RUSSIA"]
    assert not page.errors, page.errors


def test_a_new_user_plays_alone_against_civil_disorder(browser: Any, server: Any,
                                                       tmp_path: Path) -> None:
    """docs/web.md's two-minute path: sign up, create a seven-player game as France, start it
    with the other seats empty (civil disorder), order, process, and see the result."""
    shots = shots_dir(tmp_path)
    page = new_page(browser, server)
    sign_up(page, "erin")
    page.fill("#create-form input[name=name]", "Solo")
    page.select_option("#create-form select[name=join_as]", "france")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#orders-h:has-text('France')")
    page.click("#tab-game")
    page.click("button:has-text('Start now')")
    page.wait_for_selector("#countdown:has-text('left')")
    page.click("#tab-orders")
    page.wait_for_selector("#map svg #spaces")
    click_province(page, "bre")
    page.wait_for_selector(".menu:not([hidden])")
    click_province(page, "mao")
    page.wait_for_selector("#order-lines >> text=F BRE - MAO")
    # The same unit ordered twice: the later order is followed, the earlier reads as replaced
    # (a neutral mark, not an error)
    page.fill("#order-text", "F Bre-Mao\nA Par-Bur\nA Par-Pic")
    page.click("#send-orders")
    page.wait_for_selector("#order-lines li.replaced")
    replaced = page.inner_text("#order-lines li.replaced")
    assert "line 2" in replaced and "replaced by the later order A Par-Pic" in replaced
    assert page.locator("#order-lines li.bad").count() == 0
    assert page.locator(".gutter .bad").count() == 0
    assert page.locator(".gutter .replaced").inner_text() == "↷"
    assert read_lines(page) == ["F BRE - MAO", "A PAR - PIC"]
    # Empty seats never say they are ready: the gamesmaster plays the phase now.
    page.click("#tab-game")
    page.click("button:has-text('Process now')")
    page.wait_for_selector("#phase:has-text('Fall 1901 movement')")
    page.click(".toast button:has-text('See the results')")
    page.wait_for_selector("#hist-results >> text=F BRE - MAO")
    assert "civil disorder" in page.inner_text("#hist-results")
    page.click("#tab-game")
    page.wait_for_selector("table.seats")
    page.screenshot(path=str(shots / "web-game-tab.png"))
    page.goto(server.url + "/")
    page.wait_for_selector("#mine a:has-text('Solo')")
    page.screenshot(path=str(shots / "web-my-games.png"))
    assert not page.errors, page.errors
