"""Issue 32, item 4: the unit menu never covers the spaces the unit can reach (nor the unit's
own space), for every unit of the standard board and of Colonial Winters, at 1366x768; on a
phone, where the map has no room for it, it goes under the map."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_lossless import account, open_context, open_game, two_player_game
from test_web_play import click_province

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

# The lit spaces (the unit's, its destinations, its targets) that the open menu covers: every
# few pixels of each lit space in view, tested against the space's outline.
_COVERED_JS = """() => {
  const menu = document.querySelector('.menu');
  if (menu.hidden) return {error: 'no menu'};
  const r = menu.getBoundingClientRect();
  const svg = document.querySelector('#map svg');
  const view = document.querySelector('#map').getBoundingClientRect();
  const lit = [...svg.querySelectorAll('#rp-hl path')].map((p) => p.dataset.province);
  const covered = [];
  for (const prov of lit) {
    const path = svg.querySelector(`#spaces path[id="${prov}"]`);
    const toSvg = path.getScreenCTM().inverse();
    const b = path.getBoundingClientRect();
    search: for (let x = b.left + 1; x < b.right; x += 3) {
      for (let y = b.top + 1; y < b.bottom; y += 3) {
        if (x < r.left + 2 || x > r.right - 2 || y < r.top + 2 || y > r.bottom - 2) continue;
        if (x < view.left || x > view.right || y < view.top || y > view.bottom) continue;
        if (path.isPointInFill(new DOMPoint(x, y).matrixTransform(toSvg))) {
          covered.push(prov);
          break search;
        }
      }
    }
  }
  return {lit, covered, docked: menu.classList.contains('docked')};
}"""


def unit_places(server: Any, token: str, game: int, power: str) -> list[str]:
    legal = server.api("GET", f"/games/{game}/legal-orders?power={power}", None, token)
    return sorted({loc.split("/")[0].lower() for loc in legal if loc != "waive"})


def check_every_unit(page: Any, places: list[str]) -> list[str]:
    """Click each unit; the menu's coverage of the lit spaces, as problems found."""
    problems = []
    for place in places:
        page.keyboard.press("Escape")
        click_province(page, place)
        page.wait_for_selector(".menu:not([hidden])")
        found = page.evaluate(_COVERED_JS)
        assert place in found["lit"], found
        if found["covered"] and not found["docked"]:
            problems.append(f"{place}: the menu covers {found['covered']}")
    page.keyboard.press("Escape")
    return problems


def test_the_menu_leaves_every_reachable_space_free_on_the_standard_board(
        browser: Any, server: Any) -> None:
    alice, bob = account(server, "vera"), account(server, "walt")
    game = two_player_game(server, alice, bob, "Menus")
    for who, powers in ((alice, ("england", "france", "russia")),
                        (bob, ("austria", "germany", "turkey"))):
        page = open_game(open_context(browser, who, LAPTOP), server, game)
        problems = []
        for power in powers:
            problems += check_every_unit(page, unit_places(server, who["token"], game, power))
        assert problems == []
        assert not page.errors


def test_the_menu_leaves_every_reachable_space_free_in_colonial_winters(
        browser: Any, server: Any) -> None:
    who = account(server, "xena")
    game = server.api("POST", "/games", {"name": "1870 menus", "variant": "colonial_winters",
                                         "join_as": "england"}, who["token"])["id"]
    page = open_game(open_context(browser, who, LAPTOP), server, game)
    places = unit_places(server, who["token"], game, "england")
    assert len(places) >= 5
    assert check_every_unit(page, places) == []
    assert not page.errors


def test_on_a_phone_the_menu_covers_no_reachable_space_either(browser: Any,
                                                               server: Any) -> None:
    alice, bob = account(server, "yuri"), account(server, "zane")
    game = two_player_game(server, alice, bob, "Phone menus")
    page = open_game(open_context(browser, alice, PHONE), server, game)
    assert check_every_unit(page, unit_places(server, alice["token"], game, "england")) == []
    # a docked menu is under the map, in reach of the thumb, and still gives the order
    click_province(page, "lvp")
    page.wait_for_selector(".menu:not([hidden]) >> text=Hold")
    page.click(".menu >> text=Hold")
    page.wait_for_selector("#order-lines >> text=A LVP H")
    assert not page.errors
