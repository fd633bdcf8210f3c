"""Colonial Winters against the computer in the browser, as a new user plays it (issue 28):
the lobby's card offers every variant, the rules acting on one's units are on the page before
the orders are given (the start choice of rule 8 as a choice, inactive units marked and
explained, sea superiority, protectorates, the void order flagged before Mark ready), and 22
English units are ordered from the keyboard with names completed.

Screenshots go to a temporary folder, or to ``$REALPOLITIK_WEB_SCREENSHOTS`` when set. The
seconds the scripted player took are printed (``-s`` shows them); no time is asserted.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from test_web_play import new_page, shots_dir, sign_up

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 768}
LONG_PHASE = {"F1870M": "Fall 1870 movement", "F1870R": "Fall 1870 retreats",
              "W1870A": "Winter 1870 adjustments"}
PHONE = {"width": 390, "height": 844}


def start_colonial_winters(page: Any, power: str) -> None:
    """The lobby's card: Colonial Winters, a power, heuristic bots; one click."""
    page.wait_for_selector("#vs-computer")
    variants = page.eval_on_selector_all("#vs-variant option", "els => els.map(e => e.value)")
    assert {"classical", "colonial_winters"} <= set(variants)
    page.select_option("#vs-variant", "colonial_winters")
    page.wait_for_selector("#vs-about:has-text('other 16')")
    page.select_option("#vs-power", power)
    page.click("#vs-start")
    page.wait_for_selector("#map svg #spaces", timeout=60000)
    page.wait_for_selector("#orders-h")


# A person's pace, for timing by hand (the tests run at the script's pace by default):
# REALPOLITIK_TYPING_MS per key pressed, REALPOLITIK_THINKING_MS before each unit's order.
TYPING_MS = float(os.environ.get("REALPOLITIK_TYPING_MS", "0"))
THINKING_MS = float(os.environ.get("REALPOLITIK_THINKING_MS", "0"))


def quick_order(page: Any, typed: str) -> str:
    """Type into the quick entry and press Enter; returns the completion that was taken."""
    if THINKING_MS:
        page.wait_for_timeout(THINKING_MS)
    if TYPING_MS:
        page.fill("#quick", "")
        page.type("#quick", typed, delay=TYPING_MS)
    else:
        page.fill("#quick", typed)
    page.wait_for_selector("#quick-list li[aria-selected=true]")
    taken = page.inner_text("#quick-list li[aria-selected=true]")
    count = page.locator("#order-lines li").count()
    page.press("#quick", "Enter")
    page.wait_for_function(f"document.querySelectorAll('#order-lines li').length > {count}")
    return str(taken)


def test_colonial_winters_spring_1870_as_england(browser: Any, server: Any,
                                                 tmp_path: Path) -> None:
    shots = shots_dir(tmp_path)
    page = new_page(browser, server, DESKTOP)
    sign_up(page, "winterplayer")
    started = time.perf_counter()
    start_colonial_winters(page, "england")
    print(f"\ngame against 16 bots set up in {time.perf_counter() - started:.1f} s")
    page.wait_for_selector("#orders-h:has-text('England')")
    page.screenshot(path=str(shots / "web-cw-spring-1870.png"))

    # the rules acting now: the start choice as a choice, the other inactive units explained,
    # sea superiority and India under England
    box = page.inner_text("#rules-box")
    assert "Rule 8: England chooses 2 of these 12 inactive units" in box, box
    assert "Sea superiority: England (14 fleets)" in box
    assert "India: commanded by England" in box
    assert "inactive" in page.inner_text("#map-note")
    notes = page.eval_on_selector_all("ul.units .unit-note", "els => els.map(e => e.textContent)")
    assert notes.count("inactive · start choice") == 12 and notes.count("India's") == 2
    # the map's menu says what MOBILISE does this spring: it chooses the unit, which holds
    page.select_option("#jump", "unit:n19")
    page.wait_for_selector(".menu:not([hidden]) >> text=Choose it as active (it holds)")
    page.keyboard.press("Escape")

    # The keyboard: 22 units, each by a few letters of its place and where it goes, as a
    # player reads them on the map (the words are worked out before the clock starts)
    game = int(page.evaluate("location.hash").rsplit("/", 1)[1])
    token = page.evaluate("localStorage.getItem('rp:token')")
    legal = server.api("GET", f"/games/{game}/legal-orders?power=england", token=token)
    places = next(v["places"] for v in server.api("GET", "/web/variants")["variants"]
                  if v["id"] == "colonial_winters")
    assert len(legal) == 22

    def first(code: str) -> str:
        return str(places[code.split("/")[0].lower()]).split(" ")[0].strip("()")[:4].lower()

    choice = server.api("GET", f"/games/{game}", token=token)["rule_notes"]["england"]["choice"]
    entries = []
    for loc, orders in legal.items():
        if loc in ("n19", "s14"):
            continue
        # the ten candidates not chosen only hold; every other unit moves
        move = None if loc in choice["units"] else \
            next((o for o in orders if o["kind"] == "move"), None)
        unit = first(move["unit"].split(" ")[1]) if move else first(loc)
        entries.append(f"{unit} {first(move['to'])} {move['to'].lower()}" if move
                       else f"{unit} hold")
    started = time.perf_counter()
    # tick two start choices through the choice boxes (chosen, they hold)
    page.check("#choose-n19")
    page.wait_for_function("document.querySelectorAll('#unit-choice li.on').length === 1")
    page.check("#choose-s14")
    page.wait_for_function("document.querySelectorAll('#unit-choice li.on').length === 2")
    # the other ten cannot be chosen now
    disabled = page.eval_on_selector_all("#unit-choice input:disabled", "els => els.length")
    assert disabled == 10
    # and the quick entry says that a move of another candidate would be void
    page.fill("#quick", "falkland")
    page.wait_for_selector("#quick-list li.void:has-text('void: 2 chosen already (rule 8)')")
    first = page.inner_text("#quick-list li >> nth=0")
    assert "void" not in first and "holds" in first, first  # the hold, which is no choice
    page.press("#quick", "Escape")
    for words in entries:
        quick_order(page, words)
    seconds = time.perf_counter() - started
    given = page.locator("#order-lines li").count()
    print(f"22 English units ordered from the keyboard in {seconds:.1f} s "
          f"({len(entries)} typed entries of {sum(map(len, entries))} keys in all, and 2 ticks)")
    assert given == 22
    page.screenshot(path=str(shots / "web-cw-ordered.png"))

    # A third start choice ordered by text is flagged before Mark ready, with the reason.
    sheet = page.input_value("#order-text")
    page.fill("#order-text", sheet + "\nF Singapore H\nF N20 MOBILISE")
    page.click("#send-orders")
    page.wait_for_selector("#order-lines li.void")
    why = page.inner_text("#order-lines li.void")
    assert "will be void" in why and "rule 8" in why, why
    assert "will be void" in page.inner_text("#order-warnings")
    assert page.locator("ul.units li.void").count() == 1
    page.locator("#order-lines li.void").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "web-cw-void-flagged.png"))
    page.fill("#order-text", sheet)
    page.click("#send-orders")
    page.wait_for_function("!document.querySelector('#order-lines li.void')")

    # Mark ready: the 16 bots have ordered, the phase is adjudicated and Fall comes
    # (timed in the page: from the click to the new phase written in the head)
    page.evaluate("""() => { window.rpSeen = null; window.rpWatch = new MutationObserver(() => {
      const el = document.querySelector('#phase');
      if (!window.rpSeen && el && el.textContent.includes('Fall 1870'))
        window.rpSeen = performance.now(); });
      window.rpWatch.observe(document.body, { subtree: true, childList: true,
                                              characterData: true }); }""")
    clicked = page.evaluate("() => { document.querySelector('#ready').click(); "
                            "return performance.now(); }")
    page.wait_for_selector("#phase:has-text('Fall 1870')", timeout=60000)
    seen = page.evaluate("window.rpSeen")
    print(f"Mark ready to Fall 1870 on the page: {(seen - clicked) / 1000:.2f} s")
    page.wait_for_selector("#orders-h:has-text('England')")
    # the choice is made: the orders panel of Fall no longer offers it
    page.wait_for_function("!document.querySelector('#unit-choice')")
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.screenshot(path=str(shots / "web-cw-fall-1870.png"))
    page.click("#tab-history")
    page.wait_for_selector("#panel-history li")
    # one's own results first among the 17 powers' (in the phase shown: a retreat phase may
    # have none of England's)
    heads = page.eval_on_selector_all("#hist-results .power-res h4",
                                      "els => els.map(e => e.textContent)")
    assert heads and all(not h.startswith("England") for h in heads[1:]), heads
    page.screenshot(path=str(shots / "web-cw-results-1870.png"))

    # Winter 1870: the engine's count, and what mobilising costs and brings. (Marked ready
    # from the server's phase, not the page's: a click meant for Fall that lands on the
    # Winter page, drawn meanwhile, would make England ready for Winter.)
    page.click("#tab-orders")
    for _ in range(3):
        state = server.api("GET", f"/games/{game}", token=token)
        if state["phase"] == "W1870A" or "england" not in state["to_order"]:
            break
        page.wait_for_selector(f"#phase:has-text('{LONG_PHASE[state['phase']]}')")
        page.click("#ready")
        page.wait_for_function(f"!document.querySelector('#phase').textContent"
                               f".includes({LONG_PHASE[state['phase']]!r})", timeout=60000)
    assert state["phase"] == "W1870A" and "england" in state["to_order"], state["phase"]
    page.wait_for_selector("#phase:has-text('Winter 1870')")
    page.wait_for_selector("#rules-mobilise")
    due = page.inner_text("#orders-due")
    assert "India's 2 armies need no supply centres" in due, due
    assert "3 of your" in page.inner_text("#rules-mobilise")  # the holder: three a build
    taken = quick_order(page, "mobilise")
    assert "mobilise (costs a build)" in taken, taken
    page.wait_for_selector("#rules-mobilise:has-text('1 of 3 given')")
    assert "1 foregone to mobilise units" in page.inner_text("#orders-due")
    page.screenshot(path=str(shots / "web-cw-winter-1870.png"))


def test_jump_to_a_unit_and_a_region(browser: Any, server: Any, tmp_path: Path) -> None:
    shots = shots_dir(tmp_path)
    page = new_page(browser, server, DESKTOP)
    sign_up(page, "jumper")
    start_colonial_winters(page, "france")
    page.wait_for_selector("#jump")
    groups = page.eval_on_selector_all("#jump optgroup", "els => els.map(e => e.label)")
    assert groups == ["France's units", "Regions"]
    # a unit: the map zooms in until the smallest names can be read, and the unit is selected
    page.select_option("#jump", "unit:e64")
    page.wait_for_selector(".menu:not([hidden])")
    state = page.evaluate("""() => { const map = document.querySelector('#map');
      const svg = map.querySelector('svg'), box = map.getBoundingClientRect();
      const path = svg.querySelector('#spaces path[id="e64"]').getBoundingClientRect();
      const small = [...svg.querySelectorAll('#labels text')]
        .filter(t => t.getAttribute('font-size') === '7')[0].getBoundingClientRect();
      const x = path.x + path.width / 2, y = path.y + path.height / 2;
      return { zoomed: map.classList.contains('zoomed'), small: small.height,
               inside: x > box.x && x < box.right && y > box.y && y < box.bottom }; }""")
    assert state["zoomed"] and state["inside"], state
    assert state["small"] >= 9, state  # the smallest labels at a readable size
    page.screenshot(path=str(shots / "web-cw-jump-unit.png"))
    page.keyboard.press("Escape")
    # a region: South America fills the box
    page.select_option("#jump", label="South and Central America")
    inside = page.evaluate("""() => { const map = document.querySelector('#map');
      const box = map.getBoundingClientRect();
      const r = map.querySelector('#spaces path[id="s1"]').getBoundingClientRect();
      return r.x >= box.x - 1 && r.right <= box.right + 1 && r.y >= box.y - 1
        && r.bottom <= box.bottom + 1; }""")
    assert inside
    # the + and − buttons zoom about the middle of the box; "/" goes to the quick entry
    width = "document.querySelector('#map svg').getBoundingClientRect().width"
    before = page.evaluate(width)
    page.click("#zoom-in")
    assert page.evaluate(width) > before * 1.4
    page.click("#zoom-out")
    page.click("#zoom-out")
    assert page.evaluate(width) < before
    page.locator("body").press("/")
    assert page.evaluate("document.activeElement.id") == "quick"
    # the Game tab gives the rules acting on the whole game (the game view's game_notes)
    page.click("#tab-game")
    facts = page.inner_text("#panel-game dl.facts")
    assert "Sea superiority" in facts and "England (14 fleets). Fleets (tier): " in facts
    assert "United States 7 (b)" in facts and "India: commanded by England" in facts
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def test_colonial_winters_on_a_phone(browser: Any, server: Any, tmp_path: Path) -> None:
    shots = shots_dir(tmp_path)
    page = new_page(browser, server, PHONE)
    sign_up(page, "phoneplayer")
    start_colonial_winters(page, "usa")
    page.wait_for_selector("#rules-box")
    assert "Rule 8: United States chooses 2 of these 5" in page.inner_text("#rules-box")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(shots / "web-cw-phone.png"))
    page.locator("#quick").scroll_into_view_if_needed()
    page.fill("#quick", "new york")
    page.wait_for_selector("#quick-list li")
    page.screenshot(path=str(shots / "web-cw-phone-quick.png"))
    page.press("#quick", "Enter")
    page.wait_for_selector("#order-lines li")
    assert not page.errors, page.errors  # type: ignore[attr-defined]
