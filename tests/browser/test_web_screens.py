"""Issue 32, items 8 and 9, and issue 31's leftovers: at 1366x768 the whole standard board is in
the window (the Mediterranean was below the fold) with names big enough to read, and "Mark
ready" stays in reach while scrolling; on a phone the ready button floats at the foot of the
screen after ordering, and the page does not speak of Ctrl+Enter."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_lossless import account, open_game, two_player_game
from test_web_play import click_province

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

_SIZES = """() => {
  const svg = document.querySelector('#map svg');
  const label = [...svg.querySelectorAll('#labels > g:last-child text')]
    .find((t) => t.textContent === 'BUR');
  const bottom = (id) =>
    svg.querySelector(`#spaces path[id="${id}"]`).getBoundingClientRect().bottom;
  return {map: svg.getBoundingClientRect().width,
          pane: document.querySelector('#map').clientWidth,
          side: document.querySelector('.side').getBoundingClientRect().width,
          south: Math.max(bottom('naf'), bottom('ion'), bottom('eas')),
          zoom: document.querySelector('.map-bar button').getBoundingClientRect().bottom,
          label: label.getBoundingClientRect().height};
}"""


def context_for(browser: Any, who: dict[str, str], **options: Any) -> Any:
    context = browser.new_context(**options)
    context.add_init_script(f"localStorage.setItem('rp:token', '{who['token']}');"
                            f"localStorage.setItem('rp:user', '{who['user']}');")
    return context


def test_the_map_reads_at_1366x768_and_ready_stays_in_view(browser: Any, server: Any) -> None:
    alice, bob = account(server, "fay"), account(server, "gus")
    game = two_player_game(server, alice, bob, "Laptop")
    page = open_game(context_for(browser, alice, viewport=LAPTOP), server, game)
    sizes = page.evaluate(_SIZES)
    # the whole board without scrolling: the Mediterranean and North Africa, and the zoom
    assert sizes["south"] <= LAPTOP["height"] and sizes["zoom"] <= LAPTOP["height"], sizes
    assert sizes["map"] >= sizes["pane"] - 2 and sizes["map"] >= 600, sizes  # the column's width
    assert sizes["side"] >= 450, sizes  # the room the map leaves goes to the orders
    assert sizes["label"] >= 9.5, sizes  # names were about 6 px high when last fitted
    # scrolled down to the south of the map, "Mark ready" and the orders are still in view
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(200)
    for selector in ("#ready", "#orders-h"):
        box = page.locator(selector).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"], (selector, box)
    assert not page.errors


def test_on_a_phone_mark_ready_stays_at_hand(browser: Any, server: Any) -> None:
    alice, bob = account(server, "hal"), account(server, "ivy")
    game = two_player_game(server, alice, bob, "Phone")
    page = open_game(context_for(browser, alice, viewport=PHONE, is_mobile=True, has_touch=True),
                     server, game)
    assert "Ctrl+Enter" not in page.inner_text("#panel-orders")
    click_province(page, "lvp")
    page.wait_for_selector(".menu:not([hidden]) >> text=Hold")
    page.click(".menu >> text=Hold")
    page.wait_for_selector("#order-lines >> text=A LVP H")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(200)
    box = page.locator("#ready").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    assert box["x"] + box["width"] <= PHONE["width"], box
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("#ready").click()
    page.wait_for_selector("#ready[aria-pressed=true]")
    page.click("#tab-press")
    page.wait_for_selector("#press-text")
    assert "Ctrl+Enter" not in page.inner_text("#panel-press")
    assert not page.errors
