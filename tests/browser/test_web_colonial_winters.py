"""The Colonial Winters world map on the web page: offered in the lobby, drawn with its
"reconstructed map" note, and, on a phone, zoomed to its drawn width so that the small spaces
of Europe can be read and tapped."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def test_the_world_map_on_a_phone(browser: Any, server: Any) -> None:
    token = server.api("POST", "/auth/signup",
                       {"username": "winter", "password": "correct horse"})["token"]
    game = server.api("POST", "/games", {"name": "1870", "variant": "colonial_winters",
                                         "join_as": "england"}, token)["id"]
    variants = server.api("GET", "/web/variants")["variants"]
    assert "Colonial Winters (reconstructed map)" in [v["name"] for v in variants]

    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(f"{server.url}/#/game/{game}")
        page.wait_for_selector("#map svg #spaces")
        sizes = page.evaluate("""() => {
          const map = document.querySelector('#map'), svg = map.querySelector('svg');
          const box = (id) => svg.querySelector(`#spaces path[id="${id}"]`)
            .getBoundingClientRect();
          return { svg: svg.getBoundingClientRect().width, view: map.clientWidth,
                   note: (svg.querySelector('#note text') || {}).textContent,
                   copenhagen: box('e21').width, luxembourg: box('e25').width,
                   paths: svg.querySelectorAll('#spaces path[id]').length };
        }""")
        assert sizes["paths"] == 553  # the 552 spaces and Switzerland
        assert sizes["note"].startswith("Reconstructed map")
        assert sizes["svg"] >= 5000, sizes  # drawn at its own width, not 2.5 screens
        # small European spaces stay big enough to tap (about a fingertip)
        assert min(sizes["copenhagen"], sizes["luxembourg"]) >= 20, sizes
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # powers by their names, not their ids ("United States", not "Usa")
        page.click("#tab-game")
        seats = page.inner_text("#panel-game")
        assert "United States" in seats and "Usa" not in seats
    finally:
        page.close()


def test_the_world_map_zooms_with_the_wheel_and_pans_by_dragging(browser: Any,
                                                                   server: Any) -> None:
    token = server.api("POST", "/auth/signup",
                       {"username": "pan", "password": "correct horse"})["token"]
    game = server.api("POST", "/games", {"name": "pan", "variant": "colonial_winters",
                                         "join_as": "france"}, token)["id"]
    page = browser.new_page(viewport={"width": 1400, "height": 950})
    try:
        page.goto(f"{server.url}/#/game/{game}")
        page.wait_for_selector("#map svg #spaces")
        state = """() => { const map = document.querySelector('#map');
          return { width: map.querySelector('svg').getBoundingClientRect().width,
                   box: map.clientWidth, left: map.scrollLeft, top: map.scrollTop,
                   zoomed: map.classList.contains('zoomed'),
                   pressed: document.querySelector('#zoom').getAttribute('aria-pressed') }; }"""
        box = page.locator("#map").bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        whole = page.evaluate(state)
        assert not whole["zoomed"]
        page.mouse.move(x, y)
        for _ in range(6):
            page.mouse.wheel(0, -200)
        page.wait_for_timeout(200)
        zoomed = page.evaluate(state)
        assert zoomed["zoomed"] and zoomed["pressed"] == "true"
        assert zoomed["width"] > 2 * zoomed["box"], zoomed
        # the point under the pointer stays a space of the map, clickable
        hit = page.evaluate(f"document.elementFromPoint({x}, {y}).closest('#spaces path[id]')"
                            " !== null")
        assert hit
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x - 150, y - 80, steps=5)
        page.mouse.up()
        dragged = page.evaluate(state)
        assert dragged["left"] - zoomed["left"] > 100, (zoomed, dragged)
        for _ in range(20):
            page.mouse.wheel(0, 400)
        page.wait_for_timeout(200)
        back = page.evaluate(state)
        assert not back["zoomed"] and back["pressed"] == "false"
        assert abs(back["width"] - whole["width"]) < 2
    finally:
        page.close()


def test_the_block_order_in_the_menus(browser: Any, server: Any) -> None:
    # Colonial Winters 6(c): Transvaal's army in Rhodesia may block the five-pointed corner
    from test_web_play import click_province

    token = server.api("POST", "/auth/signup",
                       {"username": "blocker", "password": "correct horse"})["token"]
    game = server.api("POST", "/games", {"name": "block", "variant": "colonial_winters",
                                         "join_as": "transvaal"}, token)["id"]
    legal = server.api("GET", f"/games/{game}/legal-orders?power=transvaal", token=token)
    assert {"kind": "block", "unit": "A F69", "to": "SOUTHERN_AFRICA",
            "text": "A F69 BLOCK SOUTHERN_AFRICA", "target": None,
            "via_convoy": False, "name": "A Rhodesia BLOCK Southern Africa",
            "unit_name": "A Rhodesia", "to_name": "Southern Africa"} in legal["f69"]
    page = browser.new_page(viewport={"width": 1400, "height": 950})
    page.add_init_script(f"localStorage.setItem('rp:token', {token!r});"
                         "localStorage.setItem('rp:user', 'blocker');")
    try:
        page.goto(f"{server.url}/#/game/{game}")
        page.wait_for_selector("#sel-transvaal-f69")
        # the keyboard list has a Block group for the army
        blocks = page.eval_on_selector_all("#sel-transvaal-f69 optgroup[label=Block] option",
                                           "els => els.map(e => e.value)")
        assert blocks == ["A Rhodesia BLOCK Southern Africa"]  # by name (issue 28)
        # and the map's menu offers it when the army is clicked (once the world map is drawn)
        page.wait_for_selector("#map svg #spaces")
        click_province(page, "f69")
        page.wait_for_selector(".menu:not([hidden]) >> text=Block Southern Africa")
        page.click(".menu button:has-text('Block Southern Africa')")
        page.wait_for_function("() => [...document.querySelectorAll('#order-lines li')]"
                               ".some(li => li.textContent.includes('BLOCK Southern Africa'))")
    finally:
        page.close()
