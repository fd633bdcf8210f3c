"""Issue 32, items 1-3, in the browser: a note typed among one's orders is never shown to the
other player (only to its writer, marked not sent); two tabs of one player stay in step (own
orders and drafts live in both), and a tab that missed a change has its write refused and is
shown what changed; a message over the limit is not cut but refused, with the count shown."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_web_play import WIDE

pytestmark = pytest.mark.browser

NOTE = "note to self: stab Germany in the fall"

# A page whose live events can be held back, as a phone asleep in a pocket would miss them.
_SLEEPY_SOCKET = """
(() => {
  window.__asleep = false;
  const Native = window.WebSocket;
  class Sleepy extends Native {
    set onmessage(handler) { super.onmessage = (ev) => { if (!window.__asleep) handler(ev); }; }
  }
  window.WebSocket = Sleepy;
})();
"""


def account(server: Any, name: str) -> dict[str, str]:
    answer = server.api("POST", "/auth/signup", {"username": name, "password": "correct horse"})
    return {"token": answer["token"], "user": name}


def two_player_game(server: Any, alice: dict[str, str], bob: dict[str, str], name: str) -> int:
    game = server.api("POST", "/games", {"name": name, "players": "2", "join_as": "england"},
                      alice["token"])
    server.api("POST", f"/games/{game['id']}/join", {"power": "germany"}, bob["token"])
    return int(game["id"])


def open_context(browser: Any, who: dict[str, str], viewport: dict[str, int] = WIDE) -> Any:
    """A browser context logged in as ``who`` (the token where the page keeps it)."""
    context = browser.new_context(viewport=viewport)
    context.add_init_script(
        f"localStorage.setItem('rp:token', {json.dumps(who['token'])});"
        f"localStorage.setItem('rp:user', {json.dumps(who['user'])});")
    context.add_init_script(_SLEEPY_SOCKET)
    return context


def open_game(context: Any, server: Any, game: int) -> Any:
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    page.set_default_timeout(15000)
    page.goto(f"{server.url}/#/game/{game}")
    page.wait_for_selector("#map svg #spaces")
    page.wait_for_selector("#live.on")
    return page


def choose_power(page: Any, power: str) -> None:
    button = page.locator(f".powers button.power-btn:has-text('{power}')")
    if button.count():
        button.click()
    page.wait_for_selector(f"#orders-h:has-text('Orders for {power}')")


def test_a_note_among_the_orders_is_shown_only_to_its_writer(browser: Any, server: Any) -> None:
    alice, bob = account(server, "pria"), account(server, "quin")
    game = two_player_game(server, alice, bob, "Private words")
    a = open_game(open_context(browser, alice), server, game)
    b = open_game(open_context(browser, bob), server, game)
    choose_power(a, "France")
    a.fill("#order-text", f"A Par-Bur\n{NOTE}")
    a.click("#send-orders")
    a.wait_for_selector("#order-lines >> text=A PAR - BUR")
    server.api("POST", f"/games/{game}/ready", {"ready": True, "phase": "S1914M"},
               alice["token"])
    server.api("POST", f"/games/{game}/ready", {"ready": True, "phase": "S1914M"}, bob["token"])
    for page in (a, b):
        page.wait_for_selector("#phase:has-text('Fall 1914')")
        page.click("#tab-history")
        page.wait_for_selector("#hist-results >> text=A PAR - BUR")
    # bob sees France's order as read, and not a word of the note
    assert "stab" not in b.inner_text("#hist-results")
    assert "not sent" not in b.inner_text("#hist-results")
    # alice has her note, marked as never sent
    mine = a.locator("#hist-results li.unread")
    assert "stab Germany" in mine.first.inner_text()
    assert "not sent: only you see this" in mine.first.inner_text()
    assert not a.errors and not b.errors


def test_two_tabs_stay_in_step_and_a_stale_tab_cannot_overwrite(browser: Any,
                                                                   server: Any) -> None:
    alice, bob = account(server, "rosa"), account(server, "sven")
    game = two_player_game(server, alice, bob, "Two tabs")
    context = open_context(browser, alice)
    tab1 = open_game(context, server, game)
    tab2 = open_game(context, server, game)
    for tab in (tab1, tab2):
        choose_power(tab, "England")

    # A draft typed in one tab is in the other at once (drafts live in every tab).
    tab2.fill("#order-text", "F Lon-Nth")
    tab1.wait_for_function(
        "() => document.querySelector('#order-text').value === 'F Lon-Nth'")

    # Orders sent in tab 2 appear in tab 1 live, with what changed.
    tab2.fill("#order-text", "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor")
    tab2.click("#send-orders")
    tab2.wait_for_selector("#order-lines >> text=A LVP - YOR")
    tab1.wait_for_selector("#order-lines >> text=A LVP - YOR")
    assert len(tab1.locator("#order-lines li.ok").all()) == 3

    # Tab 1 falls asleep (its live events held back); meanwhile the orders change elsewhere.
    tab1.evaluate("window.__asleep = true")
    server.api("PUT", f"/games/{game}/orders",
               {"power": "england", "text": "F Lon-Eng\nF Edi-Nwg\nA Lvp-Yor\n"},
               alice["token"])
    # One click in tab 1, on its stale view, is refused: nothing is overwritten ...
    tab1.select_option("#sel-england-lon", "F LON - NTH")
    tab1.wait_for_selector("#orders-changed >> text=Not sent")
    changed = tab1.inner_text("#orders-changed")
    assert "+ F Lon-Eng" in changed and "− F Lon-Nth" in changed
    held = server.api("GET", f"/games/{game}/orders", None, alice["token"])["england"]
    assert held["text"] == "F Lon-Eng\nF Edi-Nwg\nA Lvp-Yor\n"
    # ... and having seen the change, the player sends their own text on purpose.
    tab1.evaluate("window.__asleep = false")
    tab1.click("#send-orders")
    tab1.wait_for_function("() => !document.querySelector('#orders-changed')")
    held = server.api("GET", f"/games/{game}/orders", None, alice["token"])["england"]
    assert "F LON - NTH" in held["text"] or "F Lon-Nth" in held["text"]
    # tab 2 hears of that change live
    tab2.wait_for_selector("#orders-changed")
    # "Mark ready" from a tab that missed a change is refused the same way
    tab1.evaluate("window.__asleep = true")
    server.api("PUT", f"/games/{game}/orders",
               {"power": "england", "text": "F Lon-Nth\nF Edi-Nwg\n"}, alice["token"])
    tab1.click("#ready")
    tab1.wait_for_selector("#notices >> text=Not marked ready")
    assert server.api("GET", f"/games/{game}", None, alice["token"])["ready"] == []
    assert not tab1.errors and not tab2.errors


def test_a_long_message_is_refused_whole_with_the_count_shown(browser: Any,
                                                              server: Any) -> None:
    alice, bob = account(server, "tove"), account(server, "ugo")
    game = two_player_game(server, alice, bob, "Long letters")
    page = open_game(open_context(browser, alice), server, game)
    page.click("#tab-press")
    page.wait_for_selector("#press-text")
    long_text = "All quiet on the western front. " * 625  # 20,000 characters
    page.fill("#press-text", long_text)
    assert page.eval_on_selector("#press-text", "t => t.value.length") == len(long_text)
    assert "over the limit of 4,000" in page.inner_text("#press-count")
    page.click("#press-send")
    page.wait_for_selector(".composer .error >> text=too long")
    assert server.api("GET", f"/games/{game}/press", None, alice["token"]) == []
    # the text is all still there, kept on this device
    page.reload()
    page.wait_for_selector("#map svg #spaces")
    page.click("#tab-press")
    assert page.eval_on_selector("#press-text", "t => t.value.length") == len(long_text)
    # a long message under the limit arrives whole
    under = "x" * 3999
    page.fill("#press-text", under)
    assert "3,999 / 4,000" in page.inner_text("#press-count")
    page.click("#press-send")
    page.wait_for_selector(".thread .msg")
    sent = server.api("GET", f"/games/{game}/press", None, alice["token"])
    assert [len(m["body"]) for m in sent] == [3999]
    # the orders box counts too
    page.click("#tab-orders")
    page.wait_for_selector("#order-text")
    page.eval_on_selector("#order-text", """(t) => {
      t.value = "A Lvp-Yor\\n".repeat(900);
      t.dispatchEvent(new Event("input"));
    }""")
    assert "over the limit of 8,000" in page.inner_text("#order-count")
    assert not page.errors
