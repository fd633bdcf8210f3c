"""Colonial Winters on the web page by name (issue 28, item 1): the order lists, the map's
menus, the orders read, the results and the history write London and the English Channel,
not E8 and 18; every space of the map is named, the small ones beside them at the end of a
leader line, and each has a tooltip with its name and the key's code."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_colonial_winters_places_by_name_on_the_page(browser: Any, server: Any) -> None:
    from test_web_play import click_province

    token = server.api("POST", "/auth/signup",
                       {"username": "namer", "password": "correct horse"})["token"]
    game = server.api("POST", "/games", {"name": "names", "variant": "colonial_winters",
                                         "join_as": "england"}, token)["id"]
    page = browser.new_page(viewport={"width": 1400, "height": 950})
    page.set_default_timeout(20000)
    page.add_init_script(f"localStorage.setItem('rp:token', {token!r});"
                         "localStorage.setItem('rp:user', 'namer');")
    try:
        page.goto(f"{server.url}/#/game/{game}")
        page.wait_for_selector("#sel-england-e8")
        # the keyboard list: the unit and its orders by name
        assert page.inner_text("label[for=sel-england-e8]") == "F London"
        options = page.eval_on_selector_all("#sel-england-e8 option",
                                            "els => els.map(e => e.value)")
        assert "F London - English Channel" in options
        assert not any(o.startswith("F E8") for o in options)
        page.select_option("#sel-england-e8", "F London - English Channel")
        page.wait_for_selector("#order-lines li.ok >> text=F London - English Channel")

        # the map: a tooltip on every space, names beside the small ones
        page.wait_for_selector("#map svg #leaders line", state="attached")
        named = page.evaluate("""() => {
          const svg = document.querySelector('#map svg');
          const label = (id) => [...svg.querySelectorAll(`#labels text[data-space="${id}"]`)]
            .map(t => t.textContent);
          return { title: svg.querySelector('#spaces path[id="e8"] title').textContent,
                   titles: svg.querySelectorAll('#spaces path title').length,
                   liverpool: label('e5'), london: label('e8'),
                   leaders: svg.querySelectorAll('#leaders line').length };
        }""")
        assert named["title"] == "London (e8)" and named["titles"] == 553
        assert "Liverpool" in named["liverpool"] and "London" in named["london"]
        assert named["leaders"] > 50

        # the map's menu: the unit by name, its moves by name
        click_province(page, "e5")
        page.wait_for_selector(".menu:not([hidden]) .menu-title >> text=F Liverpool")
        page.keyboard.press("Escape")

        # the results and the history after the phase
        server.api("POST", f"/games/{game}/gm/start", {}, token)
        server.api("PUT", f"/games/{game}/orders",
                   {"power": "england", "text": "F London - English Channel"}, token)
        server.api("POST", f"/games/{game}/gm/process", {}, token)
        page.reload()
        page.wait_for_selector("#tab-history")
        page.click("#tab-history")
        page.wait_for_selector("#panel-history >> text=F London - English Channel")
        assert "F E8 - 18" not in page.inner_text("#panel-history")
    finally:
        page.close()
