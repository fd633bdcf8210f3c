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
